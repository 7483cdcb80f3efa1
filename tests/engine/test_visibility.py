"""Line of sight rules: visible, fully visible, cover, the twists, and their boundaries."""

from __future__ import annotations

import dataclasses
import itertools
import math
import sys
from typing import Any

import numpy as np
import pytest
import shapely

from benchmarks.official_table import make_official_table
from benchmarks.stress import make_stress_scenario
from engine.errors import UnknownReferenceError
from engine.model import (
    MM_PER_INCH,
    CircleBase,
    Model,
    OvalBase,
    Player,
    RectBase,
    Scenario,
    TerrainFeature,
    TerrainPiece,
    Unit,
)
from engine.sight_kernel import (
    FULLY_HIDDEN,
    FULLY_MOVED_PROOF,
    FULLY_SEEN,
    HIDDEN_PAIR,
    MOVED_PROOF_PAIR,
    OUTLINE_CIRCLE,
    OUTLINE_OVAL,
    OUTLINE_RECT,
    SEEN_PAIR,
    _facing_point_at,
    _gap_at,
    _piece_point,
    bases_hull,
    facing_pieces,
    forget_moved,
    full_pair,
    hull_meets_boxes,
    low_interval,
    model_fully_visible,
    new_cache,
    scene_arrays,
    sight_pair,
    unit_fully_visible,
)
from engine.sightlines import HALF_LINE_WIDTH, base_outline
from engine.visibility import (
    SEARCH_GROW,
    MoveOfBases,
    PairVisibility,
    SightScene,
    VisibilityEngine,
    _end_disc,
    _outline_row,
    visibility,
)
from tests.engine.kernel_scenes import blocked, blocker_scene, box

R32 = 32 / MM_PER_INCH / 2  # radius of a 32 mm base in inches


def wall(piece_id: str, x0: float, y0: float, x1: float, y1: float, height: float) -> TerrainPiece:
    shape = box(x0, y0, x1, y1)
    return TerrainPiece(piece_id, shape, kind="ruin", features=(TerrainFeature(shape, height),))


def scene(
    red: list[Model],
    blue: list[Model],
    terrain: tuple[TerrainPiece, ...] = (),
    *,
    others: tuple[Unit, ...] = (),
    twist: str | None = None,
    red_keywords: tuple[str, ...] = ("INFANTRY",),
    blue_keywords: tuple[str, ...] = ("INFANTRY",),
    ruleset: str = "wh40k-ca2026",
    options: dict[str, object] | None = None,
) -> Scenario:
    units = (
        Unit("red-a", "red", tuple(red), keywords=red_keywords),
        Unit("blue-a", "blue", tuple(blue), keywords=blue_keywords),
        *others,
    )
    game = {"twist": twist} if twist else None
    return Scenario(
        ruleset,  # type: ignore[arg-type]
        (Player("red"), Player("blue")),
        units=units,
        terrain=terrain,
        game=game,
        options=options or {},
    )


COVER_ONLY = {"obscuring": "cover-only"}


def pair(s: Scenario, observer: str = "red-a", target: str = "blue-a") -> PairVisibility:
    found = [p for p in visibility(s) if p.observer == observer and p.target == target]
    assert len(found) == 1
    return found[0]


def infantry(model_id: str, x: float, y: float, **kw: float) -> Model:
    return Model(model_id, x, y, CircleBase(32), **kw)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------------
# The primitive: heights and the 1 mm line


def test_low_interval_boundaries() -> None:
    # Level line exactly at a blocker's top: blocked ("at or below"); a hair above: clear.
    assert low_interval(1.5, 1.5, 1.5) == (True, 0.0, 1.0)
    assert low_interval(1.5, 1.5, 1.5 - 1e-4)[0] is False
    # A descending line is low from where it crosses the top onwards; a rising one up to it.
    assert low_interval(4.0, 0.0, 1.0) == (True, 0.75, 1.0)
    assert low_interval(0.0, 4.0, 1.0) == (True, 0.0, 0.25)
    # Touching the top only at the lower end point does not block.
    assert low_interval(4.0, 0.0, 0.0)[0] is False
    assert low_interval(0.0, 4.0, 4.0) == (True, 0.0, 1.0)
    # Obscuring areas (an infinite top) are low over the whole line.
    assert low_interval(4.0, 0.0, math.inf) == (True, 0.0, 1.0)


def test_one_mm_line_against_a_wall_edge_boundary() -> None:
    wall_scene = blocker_scene([(box(4, -5, 6, 0), 5.0)])
    # Exactly half a millimetre from the wall: the 1 mm line touches it; 1e-4" more: clear.
    at, past = HALF_LINE_WIDTH, HALF_LINE_WIDTH + 1e-4
    assert blocked((0.0, at), (10.0, at), 1.0, 1.0, wall_scene, HALF_LINE_WIDTH)
    assert not blocked((0.0, past), (10.0, past), 1.0, 1.0, wall_scene, HALF_LINE_WIDTH)


def test_one_mm_line_against_a_round_base_boundary() -> None:
    outline = base_outline(CircleBase(32), 5.0, 0.0, 0.0)
    base_scene = blocker_scene(discs=[(outline.cx, outline.cy, outline.a, 2.0)])
    at, past = R32 + HALF_LINE_WIDTH, R32 + HALF_LINE_WIDTH + 1e-4
    assert blocked((0.0, at), (10.0, at), 1.0, 1.0, base_scene, HALF_LINE_WIDTH)
    assert not blocked((0.0, past), (10.0, past), 1.0, 1.0, base_scene, HALF_LINE_WIDTH)


def test_height_clipping_of_a_descending_line() -> None:
    # From 4" down to 0" over 10": at x = 7.5 the line is at 1"; a 1" post there blocks it,
    # a 1" post at x = 7.4 (line at 1.04") does not.
    post_at = blocker_scene([(box(7.45, -1, 7.55, 1), 1.0)])
    post_before = blocker_scene([(box(7.3, -1, 7.4 - 1e-4, 1), 1.0)])
    assert blocked((0.0, 0.0), (10.0, 0.0), 4.0, 0.0, post_at, 0.0)
    assert not blocked((0.0, 0.0), (10.0, 0.0), 4.0, 0.0, post_before, 0.0)


# ---------------------------------------------------------------------------------------------
# Visible


def test_open_ground_is_visible_with_a_witness() -> None:
    p = pair(scene([infantry("r1", 10, 10)], [infantry("b1", 20, 10)]))
    assert (p.visible, p.fully_visible, p.cover) == (True, True, False)
    assert p.witness is not None
    assert p.witness.start[2] == pytest.approx(1.5)
    assert p.witness.end[2] == pytest.approx(1.5)
    assert "sees" in p.explanation


def test_wall_taller_than_both_blocks_and_is_named() -> None:
    s = scene([infantry("r1", 10, 10)], [infantry("b1", 20, 10)], (wall("ruin", 14, 0, 15, 20, 5),))
    p = pair(s)
    assert (p.visible, p.fully_visible, p.cover, p.witness) == (False, False, False, None)
    assert p.blockers == ("ruin",)
    assert "ruin" in p.explanation


def test_wall_exactly_at_line_height_blocks_and_a_hair_lower_does_not() -> None:
    at = scene([infantry("r1", 10, 10)], [infantry("b1", 20, 10)], (wall("w", 14, 0, 15, 20, 1.5),))
    below = scene(
        [infantry("r1", 10, 10)], [infantry("b1", 20, 10)], (wall("w", 14, 0, 15, 20, 1.5 - 1e-4),)
    )
    assert pair(at).visible is False
    seen = pair(below)
    assert seen.visible is True
    # Seen over the wall, but the wall hides the target's foot: not fully visible, cover.
    assert (seen.fully_visible, seen.cover) == (False, True)


def test_tall_observer_sees_over_a_wall_a_short_one_does_not() -> None:
    walls = (wall("w", 14, 0, 15, 20, 3.0),)
    tall = scene([infantry("r1", 10, 10, height=6.0)], [infantry("b1", 20, 10)], walls)
    short = scene([infantry("r1", 10, 10, height=2.0)], [infantry("b1", 20, 10)], walls)
    assert pair(tall).visible is True
    assert pair(short).visible is False


def test_elevated_observer_on_a_ruin_floor() -> None:
    walls = (wall("w", 14, 0, 15, 20, 3.0),)
    up = scene([infantry("r1", 10, 10, z=3.0)], [infantry("b1", 20, 10)], walls)
    assert pair(up).visible is True


def test_a_gap_between_walls_lets_sight_through() -> None:
    # A wide gap midway: every facing point is seen through it by some line (fully visible).
    walls = (wall("w1", 14, 0, 15, 9.5, 5.0), wall("w2", 14, 10.5, 15, 20, 5.0))
    p = pair(scene([infantry("r1", 10, 10)], [infantry("b1", 20, 10)], walls))
    assert (p.visible, p.fully_visible) == (True, True)
    # A narrow gap just in front of the target: seen, but its flanks are hidden.
    walls = (wall("w1", 18.5, 0, 18.8, 9.9, 5.0), wall("w2", 18.5, 10.1, 18.8, 20, 5.0))
    p = pair(scene([infantry("r1", 10, 10)], [infantry("b1", 20, 10)], walls))
    assert (p.visible, p.fully_visible, p.cover) == (True, False, True)
    assert p.witness is not None
    (sx, sy, _), (ex, ey, _) = p.witness.start, p.witness.end
    y_at = sy + (18.65 - sx) / (ex - sx) * (ey - sy)
    assert 9.9 < y_at < 10.1


def test_other_models_block_own_units_do_not() -> None:
    screen = Unit("blue-b", "blue", tuple(infantry(f"s{i}", 15, 8 + i * 0.5) for i in range(9)))
    own = [infantry("b1", 20, 10), *[infantry(f"b{i}", 15, 8 + i * 0.5) for i in range(2, 11)]]
    blocked = scene([infantry("r1", 10, 10)], [infantry("b1", 20, 10)], others=(screen,))
    p = pair(blocked)
    assert p.visible is False
    assert p.blockers == ("blue-b",)
    # The same wall of models inside the target's own unit is ignored.
    assert pair(scene([infantry("r1", 10, 10)], own)).visible is True


def test_a_model_of_equal_height_blocks_a_level_line_a_lower_one_does_not() -> None:
    def with_screen(height: float) -> Scenario:
        wide = Unit("blue-b", "blue", (Model("big", 15, 10, CircleBase(160), height=height),))
        return scene([infantry("r1", 10, 10)], [infantry("b1", 20, 10)], others=(wide,))

    assert pair(with_screen(1.5)).visible is False
    hidden_foot = pair(with_screen(1.5 - 1e-4))
    assert hidden_foot.visible is True
    # Models in the way stop "fully visible" but give no cover.
    assert (hidden_foot.fully_visible, hidden_foot.cover) == (False, False)


def test_oval_and_hull_blockers() -> None:
    oval = Unit("blue-o", "blue", (Model("o", 15, 10, OvalBase(170, 105), rotation=90, height=3),))
    hull = Unit("blue-h", "blue", (Model("h", 15, 10, RectBase(140, 80), rotation=90, height=3),))
    for blocker in (oval, hull):
        s = scene([infantry("r1", 10, 10)], [infantry("b1", 20, 10)], others=(blocker,))
        assert pair(s).visible is False
        turned = dataclasses.replace(
            blocker, models=(dataclasses.replace(blocker.models[0], rotation=0.0, y=14.0),)
        )
        s = scene([infantry("r1", 10, 10)], [infantry("b1", 20, 10)], others=(turned,))
        assert pair(s).visible is True


def test_oval_and_hull_observers_and_targets() -> None:
    walls = (wall("w1", 17.5, 0, 17.8, 7.9, 5.0), wall("w2", 17.5, 8.3, 17.8, 20, 5.0))
    s = scene(
        [Model("r1", 10, 13, OvalBase(90, 52), rotation=30)],
        [Model("b1", 20, 7, RectBase(100, 60), rotation=10)],
        walls,
    )
    p = pair(s)
    assert p.visible is True
    assert p.fully_visible is False


def test_visibility_of_top_to_top_is_symmetric() -> None:
    walls = (wall("w1", 14, 0, 15, 9.7, 5.0), wall("w2", 14, 10.2, 15, 20, 5.0))
    s = scene([infantry("r1", 10, 12), infantry("r2", 9, 6)], [infantry("b1", 20, 9)], walls)
    assert pair(s, "red-a", "blue-a").visible == pair(s, "blue-a", "red-a").visible


# ---------------------------------------------------------------------------------------------
# Fully visible, obscuring areas, standing on things


def woods(piece_id: str, x0: float, x1: float) -> TerrainPiece:
    return TerrainPiece(piece_id, box(x0, 0, x1, 20), kind="woods", obscuring=True)


def test_cover_only_obscuring_area_between_stops_fully_visible_not_visible() -> None:
    s = scene(
        [infantry("r1", 10, 10)],
        [infantry("b1", 20, 10)],
        (woods("wood", 14, 16),),
        blue_keywords=("VEHICLE",),
        options=COVER_ONLY,
    )
    p = pair(s)
    assert (p.visible, p.fully_visible, p.cover) == (True, False, True)
    assert "wood" in p.blockers


def test_target_touching_the_obscuring_area_is_within_it_a_hair_away_is_not() -> None:
    edge = 16.0
    touching = scene(
        [infantry("r1", 10, 10)],
        [infantry("b1", edge + R32, 10)],
        (woods("wood", 14, edge),),
        blue_keywords=("VEHICLE",),
    )
    apart = scene(
        [infantry("r1", 10, 10)],
        [infantry("b1", edge + R32 + 1e-4, 10)],
        (woods("wood", 14, edge),),
        blue_keywords=("VEHICLE",),
        options=COVER_ONLY,
    )
    assert (pair(touching).fully_visible, pair(touching).cover) == (True, False)
    assert (pair(apart).fully_visible, pair(apart).cover) == (False, True)
    # By default the woods block a target a hair outside them; touching, it is within them.
    blocked = pair(dataclasses.replace(apart, options={}))
    assert (blocked.visible, blocked.blockers) == (False, ("wood",))


def test_obscuring_area_blocks_unless_observer_or_target_is_within() -> None:
    woods_between = (woods("wood", 14, 16),)
    p = pair(scene([infantry("r1", 10, 10)], [infantry("b1", 20, 10)], woods_between))
    assert (p.visible, p.fully_visible, p.cover, p.blockers) == (False, False, False, ("wood",))
    # The observer stands in the woods: it sees out of them, but the target is not fully
    # visible through them (the target is not within), so it has cover.
    inside = pair(
        scene(
            [infantry("r1", 15, 10)],
            [infantry("b1", 20, 10)],
            woods_between,
            blue_keywords=("VEHICLE",),
        )
    )
    assert (inside.visible, inside.fully_visible, inside.cover) == (True, False, True)
    # The target stands in the woods: seen, and fully visible (only areas it is not within
    # stop that); a vehicle gets no cover from them.
    target_in = pair(
        scene(
            [infantry("r1", 10, 10)],
            [infantry("b1", 15, 10)],
            woods_between,
            blue_keywords=("VEHICLE",),
        )
    )
    assert (target_in.visible, target_in.fully_visible, target_in.cover) == (True, True, False)


def test_obscuring_area_edge_boundary_for_the_one_mm_line() -> None:
    # Two tiny square bases (0.01 mm) at y = 12 and woods below them: the sight line farthest
    # from the woods runs along the bases' upper edges; woods exactly half a millimetre below
    # it block every line (touching), woods 1e-4" lower do not.
    def at(edge: float) -> PairVisibility:
        area = TerrainPiece("wood", box(14, 0, 16, edge), kind="woods", obscuring=True)
        tiny = Model("r1", 10, 12, RectBase(0.01, 0.01))
        target = Model("b1", 20, 12, RectBase(0.01, 0.01))
        return pair(scene([tiny], [target], (area,)))

    gap = 12 + 0.005 / MM_PER_INCH - HALF_LINE_WIDTH
    assert at(gap).visible is False
    assert at(gap - 1e-4).visible is True


def test_infantry_within_a_terrain_area_has_cover_even_when_fully_visible() -> None:
    area = TerrainPiece("crater", box(19, 9, 21, 11), kind="crater")
    inf = scene([infantry("r1", 10, 10)], [infantry("b1", 20, 10)], (area,))
    tank = scene(
        [infantry("r1", 10, 10)], [infantry("b1", 20, 10)], (area,), blue_keywords=("VEHICLE",)
    )
    assert (pair(inf).fully_visible, pair(inf).cover) == (True, True)
    assert (pair(tank).fully_visible, pair(tank).cover) == (True, False)


def test_within_terrain_area_boundary_for_cover() -> None:
    def at(x: float) -> Scenario:
        area = TerrainPiece("crater", box(x + R32, 0, x + R32 + 3, 20), kind="crater")
        return scene([infantry("r1", 10, 10)], [infantry("b1", x, 10)], (area,))

    assert pair(at(20.0)).cover is True
    shifted = at(20.0)
    piece = dataclasses.replace(shifted.terrain[0], area=box(20 + R32 + 1e-4, 0, 24, 20))
    assert pair(dataclasses.replace(shifted, terrain=(piece,))).cover is False


def test_no_cover_names_the_models_of_the_witness_line_first() -> None:
    # Both observers see the target whole in the open; the witness runs from the closest, so
    # "no cover" names it (its models are asked first), not the first observer in order.
    s = scene([infantry("r1", 5, 10), infantry("r2", 15, 10)], [infantry("b1", 20, 10)])
    found = pair(s)
    assert found.witness is not None
    assert (found.witness.observer_model, found.witness.target_model) == ("r2", "b1")
    assert found.cover is False
    assert "no cover against r2: it sees b1 fully with terrain alone" in found.explanation


def test_target_standing_on_a_crate_is_fully_visible_to_its_foot() -> None:
    crate = wall("crate", 19, 9, 21, 11, 1.0)
    s = scene([infantry("r1", 10, 10, height=2.0)], [infantry("b1", 20, 10, z=1.0)], (crate,))
    p = pair(s)
    assert (p.visible, p.fully_visible) == (True, True)


def test_low_wall_just_in_front_hides_the_foot() -> None:
    low = wall("barricade", 18.5, 0, 18.8, 20, 0.5)
    p = pair(
        scene(
            [infantry("r1", 10, 10)], [infantry("b1", 20, 10)], (low,), blue_keywords=("VEHICLE",)
        )
    )
    assert (p.visible, p.fully_visible, p.cover) == (True, False, True)
    assert p.blockers == ("barricade",)


def test_wall_behind_the_target_does_not_matter() -> None:
    behind = wall("w", 21.5, 0, 22.5, 20, 5.0)
    p = pair(
        scene(
            [infantry("r1", 10, 10)],
            [infantry("b1", 20, 10)],
            (behind,),
            blue_keywords=("VEHICLE",),
        )
    )
    assert (p.visible, p.fully_visible, p.cover) == (True, True, False)


def test_unit_fully_visible_needs_every_model() -> None:
    walls = (wall("w", 14, 0, 15, 8, 5.0),)
    one_hidden = scene(
        [infantry("r1", 10, 10)], [infantry("b1", 20, 10), infantry("b2", 20, 4)], walls
    )
    assert (pair(one_hidden).visible, pair(one_hidden).fully_visible) == (True, False)
    both_open = scene(
        [infantry("r1", 10, 10), infantry("r2", 10, 2)],
        [infantry("b1", 20, 10), infantry("b2", 20, 4)],
        (wall("w", 14, 5.5, 15, 8, 5.0),),
        blue_keywords=("VEHICLE",),
    )
    # Each target model is fully visible to one observing model or the other.
    assert pair(both_open).fully_visible is True


# ---------------------------------------------------------------------------------------------
# Twists and rulesets


def test_night_fighting_boundary_at_18_inches() -> None:
    gap = 18.0
    at = scene([infantry("r1", 0, 10)], [infantry("b1", gap + 2 * R32, 10)], twist="night-fighting")
    past = scene(
        [infantry("r1", 0, 10)], [infantry("b1", gap + 2 * R32 + 1e-4, 10)], twist="night-fighting"
    )
    assert pair(at).visible is True
    p = pair(past)
    assert (p.visible, p.fully_visible, p.cover) == (False, False, False)
    assert "Night Fighting" in p.explanation


def test_night_fighting_range_is_to_the_closest_model_of_the_unit() -> None:
    s = scene(
        [infantry("r1", 0, 10)],
        [infantry("b1", 17, 10), infantry("b2", 30, 10)],
        twist="night-fighting",
    )
    assert pair(s).visible is True


def test_nowhere_to_hide_makes_features_not_solid() -> None:
    walls = (wall("w", 14, 0, 15, 20, 5),)
    s = scene([infantry("r1", 10, 10)], [infantry("b1", 20, 10)], walls, twist="nowhere-to-hide")
    assert (pair(s).visible, pair(s).fully_visible) == (True, True)


def test_no_cover_rule_outside_wh40k() -> None:
    s = scene(
        [infantry("r1", 10, 10)],
        [infantry("b1", 20, 10)],
        (woods("wood", 14, 16),),
        ruleset="scrollhammer",
        options=COVER_ONLY,
    )
    p = pair(s)
    assert (p.visible, p.fully_visible, p.cover) == (True, False, False)


# ---------------------------------------------------------------------------------------------
# API: ordering, observers, JSON, incremental updates


def test_every_ordered_pair_of_opposing_units_sorted() -> None:
    extra = (
        Unit("red-b", "red", (infantry("r9", 5, 5),)),
        Unit("blue-b", "blue", (infantry("b9", 25, 5),)),
    )
    s = scene([infantry("r1", 10, 10)], [infantry("b1", 20, 10)], others=extra)
    keys = [(p.observer, p.target) for p in visibility(s)]
    assert keys == sorted(keys)
    assert len(keys) == 8
    assert all(o.split("-")[0] != t.split("-")[0] for o, t in keys)
    only = visibility(s, observers=["red-b"])
    assert [(p.observer, p.target) for p in only] == [("red-b", "blue-a"), ("red-b", "blue-b")]


def test_to_json_contract_and_extras() -> None:
    p = pair(scene([infantry("r1", 10, 10)], [infantry("b1", 20, 10)]))
    assert p.to_json() == {
        "observer": "red-a",
        "target": "blue-a",
        "visible": True,
        "fully_visible": True,
        "cover": False,
    }
    extra = p.to_json(extra=True)
    assert extra["witness"]["observer_model"] == "r1"
    assert extra["blockers"] == []


def test_update_matches_a_fresh_computation_including_pairs_a_move_unblocks() -> None:
    screen = Unit("blue-b", "blue", (Model("big", 15, 10, CircleBase(160), height=3),))
    watcher = Unit("red-b", "red", (infantry("r9", 15, 2),))
    s = scene([infantry("r1", 10, 10)], [infantry("b1", 20, 10)], others=(screen, watcher))
    engine = VisibilityEngine(s)
    before = {(p.observer, p.target): p.visible for p in engine.matrix()}
    assert before[("red-a", "blue-a")] is False
    moved = s.with_unit_moved("blue-b", 0, 10)
    after = engine.update(moved, ["blue-b"])
    assert after == visibility(moved)
    assert {(p.observer, p.target): p.visible for p in after}[("red-a", "blue-a")] is True


def test_a_move_through_a_hidden_pairs_corridor_keeps_its_answer_unless_it_hid_them() -> None:
    # red-a and blue-a stand either side of a tall wall. A third unit stepping in between them
    # (in front of the wall, not part of its proof) changes nothing: the answer is kept as it
    # was.
    # The screen that did hide a pair, once moved away, has that pair worked out again.
    walker = Unit("blue-w", "blue", (infantry("w1", 12, 4),))
    s = scene(
        [infantry("r1", 10, 10)],
        [infantry("b1", 20, 10)],
        (wall("wall", 14.5, 6, 15.5, 14, 5.0),),
        others=(walker,),
    )
    engine = VisibilityEngine(s)
    before = {(p.observer, p.target): p for p in engine.matrix()}
    assert before[("red-a", "blue-a")].visible is False
    stepped = s.with_unit_moved("blue-w", 0, 6)
    after = {(p.observer, p.target): p for p in engine.update(stepped, ["blue-w"])}
    assert after[("red-a", "blue-a")] is before[("red-a", "blue-a")]
    assert engine.matrix() == visibility(stepped)

    screen = Unit("blue-s", "blue", (Model("big", 15, 10, CircleBase(160), height=3),))
    open_field = scene([infantry("r1", 10, 10)], [infantry("b1", 20, 10)], others=(screen,))
    engine = VisibilityEngine(open_field)
    assert {(p.observer, p.target): p.visible for p in engine.matrix()}[
        ("red-a", "blue-a")
    ] is False
    cleared = open_field.with_unit_moved("blue-s", 0, 10)
    after = {(p.observer, p.target): p for p in engine.update(cleared, ["blue-s"])}
    assert after[("red-a", "blue-a")].visible is True


def test_the_sight_corridor_holds_every_base_and_meets_exactly_the_boxes_it_touches() -> None:
    # The polygon a move's boxes are tested against (engine.sight_kernel.bases_hull) holds
    # every point of every base, round, oval and rectangular, turned or not, and is at most a
    # hair larger; the box test agrees with shapely on random boxes.
    rng = np.random.default_rng(8)
    models = []
    for k in range(12):
        base = (CircleBase(32), OvalBase(120, 92), RectBase(100, 60))[k % 3]
        x, y = rng.uniform(5, 39, 2)
        models.append(Model(f"m{k}", float(x), float(y), base, rotation=float(rng.uniform(0, 360))))
    s = Scenario(
        "wh40k-ca2026",
        (Player("red"), Player("blue")),
        units=(Unit("red-a", "red", tuple(models[:6])), Unit("blue-a", "blue", tuple(models[6:]))),
    )
    arrays = VisibilityEngine(s)._scene.arrays
    hull = bases_hull(arrays.model_outline, np.arange(len(models), dtype=np.int32))
    polygon = shapely.Polygon(hull)
    true_hull = shapely.union_all(
        [base_outline(m.base, m.x, m.y, m.rotation).outer for m in models]
    ).convex_hull
    assert polygon.buffer(1e-9).contains(true_hull)
    assert polygon.area <= true_hull.area * 1.02
    for _ in range(500):
        x0, y0 = rng.uniform(-5, 50, 2)
        x1, y1 = x0 + rng.uniform(0, 8), y0 + rng.uniform(0, 8)
        boxes = np.array([[x0, y0, x1, y1]])
        square = shapely.box(x0, y0, x1, y1)
        gap = polygon.distance(square)
        if 0 < gap < 1e-6 or (gap == 0 and polygon.intersection(square).area < 1e-9):
            continue
        assert hull_meets_boxes(hull, boxes) == (gap == 0)
    # The engine makes a pair's corridor from the two units' own hulls: the same polygon.
    corridor = VisibilityEngine(s)._corridor(("blue-a", "red-a"))
    assert shapely.Polygon(corridor).symmetric_difference(polygon).area == 0.0


@pytest.mark.parametrize("board", ["stress", "official"])
def test_every_pairs_corridor_from_its_units_hulls_is_the_hull_of_their_bases(board: str) -> None:
    scenario = make_stress_scenario(seed=2) if board == "stress" else make_official_table()
    engine = VisibilityEngine(scenario)
    arrays = engine._scene.arrays
    for one, other in itertools.combinations(scenario.units, 2):
        rows = engine._scene._indices([*one.models, *other.models])
        direct = shapely.Polygon(bases_hull(arrays.model_outline, rows))
        merged = shapely.Polygon(engine._corridor((one.id, other.id)))
        assert merged.symmetric_difference(direct).area == 0.0, (one.id, other.id)


def test_update_detects_other_changes() -> None:
    s = scene([infantry("r1", 10, 10)], [infantry("b1", 20, 10)])
    engine = VisibilityEngine(s)
    engine.matrix()
    walled = dataclasses.replace(s, terrain=(wall("w", 14, 0, 15, 20, 5),))
    assert engine.update(walled, []) == visibility(walled)
    assert pair(walled).visible is False


def test_terrain_blockers_are_made_once_per_terrain_and_anew_when_it_changes() -> None:
    # A move keeps the terrain tuple, and its blockers are reused; a new terrain (a wall moved)
    # or a twist that makes features not solid gets blockers of its own, whatever was asked
    # before.
    walls = (wall("w", 14, 0, 15, 20, 5),)
    s = scene([infantry("r1", 10, 10)], [infantry("b1", 20, 10)], walls)
    first = VisibilityEngine(s)._scene.terrain
    moved = s.with_unit_moved("red-a", 0, 1)
    assert VisibilityEngine(moved)._scene.terrain is first
    assert pair(moved).visible is False
    opened = dataclasses.replace(s, terrain=(wall("w", 14, 12, 15, 20, 5),))
    assert VisibilityEngine(opened)._scene.terrain is not first
    assert pair(opened).visible is True
    see_through = dataclasses.replace(s, game={"twist": "nowhere-to-hide"})
    assert see_through.terrain is s.terrain
    assert pair(see_through).visible is True
    assert pair(s).visible is False


def _turned_and_lifted(unit: Unit, dx: float, dy: float, turn: float, lift: float) -> Unit:
    return dataclasses.replace(
        unit,
        models=tuple(
            dataclasses.replace(
                m, x=m.x + dx, y=m.y + dy, rotation=(m.rotation + turn) % 360.0, z=m.z + lift
            )
            for m in unit.models
        ),
    )


def test_a_moved_scene_rewrites_the_moved_rows_to_what_a_fresh_build_gives() -> None:
    # After a move the engine takes the last scene's arrays and rewrites the moved models'
    # rows: for round, oval and rectangular bases moved, turned and lifted onto a floor, and for
    # a change of base that makes it build afresh, every array equals a fresh build's.
    official = make_official_table()
    hull = Model("red-rhino-1", 30.0, 8.0, RectBase(115, 70), rotation=30.0, height=2.5)
    board = dataclasses.replace(
        official, units=(*official.units, Unit("red-rhino", "red", (hull,)))
    )
    rng = np.random.default_rng(5)
    by_base = {type(m.base).__name__ for u in board.units for m in u.models}
    assert {"CircleBase", "OvalBase", "RectBase"} <= by_base
    units = [u.id for u in board.units]
    engine = VisibilityEngine(board)
    current = board
    rewritten = []
    for step in range(12):
        moving = {
            str(uid) for uid in rng.choice(units, size=int(rng.integers(1, 4)), replace=False)
        }
        if step % 3 == 0:
            moving |= {"red-rhino", "red-outrider-squad-1"}
        turn = float(rng.choice([0.0, 15.0, 90.0]))
        lift = float(rng.choice([0.0, 3.0]))
        moved = current
        for uid in moving:
            dx, dy = rng.uniform(-1.5, 1.5, 2)
            moved = moved.with_unit(_turned_and_lifted(moved.unit(uid), dx, dy, turn, lift))
        if step == 7:
            uid = next(iter(moving))
            first = moved.unit(uid).models[0]
            changed = dataclasses.replace(first, base=RectBase(60, 35))
            if isinstance(first.base, RectBase):
                changed = dataclasses.replace(first, base=CircleBase(40))
            moved = moved.with_unit(
                dataclasses.replace(moved.unit(uid), models=(changed, *moved.unit(uid).models[1:]))
            )
        before = engine._scene.arrays
        engine.adopt(moved, moving)
        # A rewrite shares the arrays no move changes; a fresh build makes them all anew.
        rewritten.append(engine._scene.arrays.blocker_class is before.blocker_class)
        fresh = VisibilityEngine(moved)._scene.arrays
        for name, array in engine._scene.arrays._asdict().items():
            assert np.array_equal(array, getattr(fresh, name)), (step, name)
            assert array.dtype == getattr(fresh, name).dtype, (step, name)
        current = moved
    assert rewritten == [step != 7 for step in range(12)]


def _official_table_with_a_hull() -> Scenario:
    """The official table (round and oval bases, terrain polygons cut into several parts) with
    a rectangular hull raised on a floor: every kind of base."""
    official = make_official_table()
    hull = Model("red-rhino-1", 30.0, 8.0, RectBase(115, 70), rotation=30.0, height=2.5, z=3.0)
    return dataclasses.replace(official, units=(*official.units, Unit("red-rhino", "red", (hull,))))


def test_a_fresh_scene_holds_each_base_as_its_outline_gives_it() -> None:
    # A fresh scene reads a round base's numbers off its model without making its outline:
    # every row, round, oval or rectangular, is still the one the base's outline gives.
    board = _official_table_with_a_hull()
    scene = SightScene(board)
    arrays = scene.arrays
    kinds = {"circle": 0, "oval": 0, "rect": 0}
    for row, (_, model) in enumerate(board.all_models()):
        outline = base_outline(model.base, model.x, model.y, model.rotation)
        kinds[outline.kind] += 1
        assert scene.ids[row] == model.id
        assert tuple(arrays.model_outline[row]) == _outline_row(outline)
        assert tuple(arrays.model_disc[row]) == _end_disc(outline)
        assert arrays.model_top[row] == model.z + model.height
        assert arrays.model_foot[row] == model.z
        made = scene.footprint[model.id]
        assert (made.kind, made.cx, made.cy, made.a, made.b, made.angle) == (
            outline.kind,
            outline.cx,
            outline.cy,
            outline.a,
            outline.b,
            outline.angle,
        )
    assert all(kinds.values()), kinds


def test_a_battlefield_is_cut_into_convex_parts_once_and_its_scenes_hold_the_same_parts() -> None:
    # Every fresh scene of a battlefield takes its terrain's convex parts as they were cut for
    # the first: they are the parts of cutting every polygon blocker anew, terrain and bases.
    board = _official_table_with_a_hull()
    scene = SightScene(board)
    later = SightScene(board.with_unit_moved("red-rhino", 1.0, 0.0))
    assert later.terrain.parts is scene.terrain.parts
    arrays = scene.arrays
    cut_anew = scene_arrays(
        blocker_kind=arrays.blocker_kind,
        blocker_top=arrays.blocker_top,
        blocker_disc=arrays.blocker_disc,
        blocker_vertices=arrays.blocker_vertices,
        blocker_ranges=arrays.blocker_ranges,
        model_top=arrays.model_top,
    )
    for name in ("part_vertices", "part_ranges", "blocker_parts"):
        assert np.array_equal(getattr(arrays, name), getattr(cut_anew, name)), name
    terrain = len(scene.terrain)
    assert int(scene.terrain.parts.counts.sum()) > terrain, "some terrain polygon is cut up"
    hull_row = terrain + scene.index["red-rhino-1"]
    first, last = arrays.blocker_parts[hull_row]
    assert last - first == 1
    start, stop = arrays.part_ranges[first]
    begin, end = arrays.blocker_ranges[hull_row]
    assert np.array_equal(arrays.part_vertices[start:stop], arrays.blocker_vertices[begin:end])


def test_after_a_move_what_terrain_alone_decides_is_kept_for_models_that_stayed() -> None:
    # Cover is judged with terrain alone: another unit passing close to the sight lines cannot
    # change whether r sees b whole, so that answer stays in the cache after the move (with
    # models in the way, "seen whole" is worked out again: the passer could now hide b).
    passer = Unit("red-b", "red", (infantry("p", 20.0, 30.0),))
    s = scene([infantry("r", 10.0, 22.0)], [infantry("b", 30.0, 22.0)], others=(passer,))
    engine = VisibilityEngine(s)
    engine.matrix()
    sight = engine._scene
    models = len(sight.ids)
    seen_whole = (sight.index["r"] * models + sight.index["b"]) * 2
    terrain_alone = seen_whole + 1
    assert terrain_alone in sight.slot("red-a", "blue-a").full
    assert seen_whole in sight.slot("red-a", "blue-a").full
    moved = s.with_unit_moved("red-b", 0.0, -7.0)  # its base now reaches into r and b's hull
    engine.adopt(moved, ["red-b"])
    slot = engine._scene.slot("red-a", "blue-a")
    assert terrain_alone in slot.full
    assert seen_whole not in slot.full
    assert _verdicts_of(engine.matrix()) == _verdicts_of(visibility(moved))


def _after_a_move(
    s: Scenario, unit_id: str, dx: float, dy: float
) -> tuple[Scenario, object, MoveOfBases]:
    """The scene with ``unit_id`` moved, as the compiled arrays, and the move as
    :func:`forget_moved` takes it."""
    from engine.visibility import SightScene

    before = SightScene(s)
    moved_scenario = s.with_unit_moved(unit_id, dx, dy)
    after = SightScene(moved_scenario)
    return moved_scenario, after.arrays, after.move_since(before, {unit_id})


def _copy_of(cache: object) -> object:
    copy = new_cache()
    for key in cache:  # type: ignore[attr-defined]
        copy[key] = cache[key].copy()  # type: ignore[index]
    return copy


@pytest.mark.parametrize(("dy", "hidden"), [(0.3, True), (10.0, False)])
def test_a_hidden_proof_resting_on_a_moved_model_is_tried_again_with_its_blockers(
    dy: float, hidden: bool
) -> None:
    # r is hidden from b by the screen's base alone. When the screen moves, the cached "not
    # visible" is not forgotten but marked: its blockers are searched again, alone, first. A
    # small step keeps the proof (the same answer as a fresh search, its blockers the screen);
    # a long one takes the screen away, and the full search then finds the line.
    screen = Unit("blue-b", "blue", (Model("big", 15, 10, CircleBase(160), height=3),))
    s = scene([infantry("r1", 10, 10)], [infantry("b1", 20, 10)], others=(screen,))
    engine = VisibilityEngine(s)
    sight = engine._scene
    i, j = sorted((sight.index["r1"], sight.index["b1"]))
    cache = new_cache()
    row = sight_pair(sight.arrays, cache, i, j, False, SEARCH_GROW, HALF_LINE_WIDTH)
    screen_row = len(sight.terrain) + sight.index["big"]
    assert row[0] == HIDDEN_PAIR
    assert list(row[5:]) == [screen_row]
    _, arrays, move = _after_a_move(s, "blue-b", 0.0, dy)
    touched = np.zeros((len(s.units), len(s.units)), dtype=bool)
    forget_moved(arrays, cache, *move, SEARCH_GROW, False, touched)
    key = i * len(sight.ids) + j
    assert cache[key][0] == MOVED_PROOF_PAIR
    # The shaken answer is red-a's and blue-a's (units 0 and 1), both ways round, and only theirs.
    assert touched.tolist() == [[False, True, False], [True, False, False], [False, False, False]]
    # The cheap stage does not touch a shaken proof; the full search settles it.
    assert (
        sight_pair(arrays, cache, i, j, True, SEARCH_GROW, HALF_LINE_WIDTH)[0] == MOVED_PROOF_PAIR
    )
    again = sight_pair(arrays, cache, i, j, False, SEARCH_GROW, HALF_LINE_WIDTH)
    fresh = sight_pair(arrays, new_cache(), i, j, False, SEARCH_GROW, HALF_LINE_WIDTH)
    assert again[0] == fresh[0] == (HIDDEN_PAIR if hidden else SEEN_PAIR)
    if hidden:
        assert list(again[5:]) == [screen_row]


def _shaken_proofs(ys: tuple[float, ...], dy: float) -> tuple[Any, object, object, list[int], int]:
    """Red models at x = 10 and blue ones at x = 20 (one each at every ``ys``), a screen between
    hiding every model pair from the other unit (each pair proven on its own), then the screen
    stepped by ``dy``, its proofs shaken: the question for the unit pair (arrays, cache), the
    moved scene's arrays, the cache, the model pairs' keys and the screen's blocker row."""
    from engine import sight_kernel as kernel

    screen = Unit("blue-b", "blue", (Model("big", 15, 10, CircleBase(160), height=3),))
    s = scene(
        [infantry(f"r{n}", 10, y) for n, y in enumerate(ys, 1)],
        [infantry(f"b{n}", 20, y) for n, y in enumerate(ys, 1)],
        others=(screen,),
    )
    sight = VisibilityEngine(s)._scene
    observers, targets = sight.rows_of(s.unit("red-a")), sight.rows_of(s.unit("blue-a"))
    every = np.arange(len(sight.labels), dtype=np.int32)

    def ask(arrays: object, cache: object) -> tuple[int, int, int, bool]:
        in_the_way = np.zeros(len(sight.labels), dtype=bool)
        args = (SEARCH_GROW, HALF_LINE_WIDTH, every, True, True, -1, -1)
        return kernel.unit_pair_visible(arrays, observers, targets, cache, in_the_way, *args)

    cache = new_cache()
    for o in observers:
        for t in targets:
            row = sight_pair(sight.arrays, cache, o, t, False, SEARCH_GROW, HALF_LINE_WIDTH)
            assert row[0] == HIDDEN_PAIR
    _, arrays, move = _after_a_move(s, "blue-b", 0.0, dy)
    forget_moved(arrays, cache, *move, SEARCH_GROW, False, np.zeros((3, 3), dtype=bool))
    span = len(sight.ids)
    keys = [min(o, t) * span + max(o, t) for o in observers for t in targets]
    assert [cache[key][0] for key in keys] == [MOVED_PROOF_PAIR] * len(keys)
    return ask, arrays, cache, keys, len(sight.terrain) + sight.index["big"]


@pytest.mark.parametrize("ys", [(9.6, 10.4), (9.2, 10.0, 10.8)])
@pytest.mark.parametrize(("dy", "hidden"), [(0.2, True), (10.0, False)])
def test_a_unit_pair_whose_proofs_a_step_shook_is_settled_by_them_again(
    ys: tuple[float, ...], dy: float, hidden: bool
) -> None:
    # The screen hides every blue model from every red one. When it steps, the proofs resting
    # on it are shaken; asked again, the unit pair first tries them past the screen alone: two
    # models a side (four proofs) each proof on its own, three a side (nine, more than are
    # tried one by one) one proof for the two units' hulls among the shaken proofs' blockers.
    # After a small step the screen still hides them, and the pair is settled that way (no
    # separator of the two units is looked for, so none is named). After a long step the
    # proofs fail and the search goes on as usual: it finds a line, the one a fresh search
    # finds.
    from engine import sight_kernel as kernel

    ask, arrays, cache, keys, screen_row = _shaken_proofs(ys, dy)
    status, seer, seen, separated = ask(arrays, cache)
    fresh = ask(arrays, new_cache())
    assert (status, seer, seen) == fresh[:3]
    if hidden:
        assert status == kernel.NONE
        assert not separated
        assert [cache[key][0] for key in keys] == [HIDDEN_PAIR] * len(keys)
        assert [list(cache[key][5:]) for key in keys] == [[screen_row]] * len(keys)
    else:
        assert status == kernel.FOUND


@pytest.mark.parametrize(("dy", "hidden"), [(-0.2, True), (10.0, False)])
def test_a_point_hidden_by_a_moved_model_is_tried_again_with_its_blockers(
    dy: float, hidden: bool
) -> None:
    # b is seen, but the screen hides part of it from r: "not fully visible", proven by a
    # facing point no line reaches past the screen. When the screen moves the answer with
    # models is marked, and its point searched again past the screen first.
    screen = Unit("blue-b", "blue", (Model("big", 15, 11.2, CircleBase(60), height=3),))
    s = scene([infantry("r1", 10, 10)], [infantry("b1", 20, 10)], others=(screen,))
    sight = VisibilityEngine(s)._scene
    i, j = sight.index["r1"], sight.index["b1"]
    cache = new_cache()
    row = full_pair(sight.arrays, cache, i, j, False, SEARCH_GROW)
    screen_row = len(sight.terrain) + sight.index["big"]
    assert row[0] == FULLY_HIDDEN
    assert screen_row in row[3:]
    _, arrays, move = _after_a_move(s, "blue-b", 0.0, dy)
    touched = np.zeros((len(s.units), len(s.units)), dtype=bool)
    forget_moved(arrays, cache, *move, SEARCH_GROW, True, touched)
    assert touched[0, 1]
    assert touched.tolist() == touched.T.tolist()
    assert touched.sum() == 2
    with_models = (i * len(sight.ids) + j) * 2
    assert cache[with_models][0] == FULLY_MOVED_PROOF
    again = full_pair(arrays, cache, i, j, False, SEARCH_GROW)
    fresh = full_pair(arrays, new_cache(), i, j, False, SEARCH_GROW)
    assert again[0] == fresh[0] == (FULLY_HIDDEN if hidden else FULLY_SEEN)


def _half_hidden(target_base: object, turn: float = 0.0) -> Scenario:
    # A tall wall in front of the upper half of b: r sees b, but not b's upper facing points.
    b1 = Model("b1", 20, 10, target_base, rotation=turn)  # type: ignore[arg-type]
    return scene([infantry("r1", 10, 10)], [b1], (wall("w", 14.9, 9.9, 15.1, 14, 5),))


@pytest.mark.parametrize("base", [CircleBase(32), OvalBase(90, 52), RectBase(100, 60)])
@pytest.mark.parametrize(
    ("unit_id", "dy", "hidden"),
    [("blue-a", 0.3, True), ("red-a", 0.2, True), ("blue-a", -10.0, False)],
)
def test_a_hidden_point_of_a_stepping_unit_is_carried_and_tried_again(
    base: object, unit_id: str, dy: float, hidden: bool
) -> None:
    # "Not fully visible" is proven by a facing point of b that no line from r's base reaches.
    # When b steps (a translation) the proof is marked and its point carried with b's base;
    # when r steps the point stays. Either way it is searched again past the wall first. A
    # small step keeps the proof: "not fully visible" as a fresh search finds, naming a facing
    # point on b's new outline. A long step out from behind the wall breaks it, and the full
    # search finds b fully visible, as a fresh one does.
    s = _half_hidden(base)
    sight = VisibilityEngine(s)._scene
    i, j = sight.index["r1"], sight.index["b1"]
    cache = new_cache()
    row = full_pair(sight.arrays, cache, i, j, False, SEARCH_GROW)
    assert row[0] == FULLY_HIDDEN
    _, arrays, move = _after_a_move(s, unit_id, 0.0, dy)
    assert move.carried.tolist() == move.moved.tolist()
    forget_moved(arrays, cache, *move, SEARCH_GROW, True, np.zeros((2, 2), dtype=bool))
    with_models = (i * len(sight.ids) + j) * 2
    for key in (with_models, with_models + 1):
        carried = cache[key]
        assert carried[0] == FULLY_MOVED_PROOF
        assert list(carried[1:3]) == pytest.approx([row[1], row[2] + move.shift[j, 1]], abs=1e-12)
    again = full_pair(arrays, cache, i, j, False, SEARCH_GROW)
    fresh = full_pair(arrays, new_cache(), i, j, False, SEARCH_GROW)
    assert again[0] == fresh[0] == (FULLY_HIDDEN if hidden else FULLY_SEEN)
    if hidden:
        # The carried point itself, proven hidden again behind the wall alone.
        assert list(again[1:3]) == pytest.approx(list(carried[1:3]), abs=1e-9)
        assert list(again[3:]) == [sight.labels.index("w")]
        on, x, y = _facing_point_at(arrays.model_outline[j], arrays.model_outline[i], *again[1:3])
        assert on
        assert (x, y) == (again[1], again[2])


def test_a_hidden_point_of_a_turned_base_is_forgotten() -> None:
    # Turning an oval moves its outline's points other than by its centre's shift: the proof of
    # "not fully visible" is not carried but deleted, and worked out afresh when asked.
    from engine.visibility import SightScene

    s, turned = _half_hidden(OvalBase(90, 52)), _half_hidden(OvalBase(90, 52), turn=30.0)
    before, after = SightScene(s), SightScene(turned)
    i, j = before.index["r1"], before.index["b1"]
    cache = new_cache()
    assert full_pair(before.arrays, cache, i, j, False, SEARCH_GROW)[0] == FULLY_HIDDEN
    move = after.move_since(before, {"blue-a"})
    assert move.moved[j]
    assert not move.carried[j]
    forget_moved(after.arrays, cache, *move, SEARCH_GROW, True, np.zeros((2, 2), dtype=bool))
    with_models = (i * len(before.ids) + j) * 2
    assert with_models not in cache
    assert with_models + 1 not in cache


@pytest.mark.parametrize(
    "base", [CircleBase(32), OvalBase(90, 52), RectBase(100, 60), OvalBase(120, 92)]
)
def test_a_carried_point_counts_as_facing_exactly_where_facing_pieces_say(base: object) -> None:
    # Each facing piece's points face the observer and lie on the outline; the point opposite
    # a piece's middle (on the far side) does not face; a point a hair off the outline is not
    # on it.
    s = scene([infantry("r1", 10, 13)], [Model("b1", 20, 10, base, rotation=20)])  # type: ignore[arg-type]
    arrays = VisibilityEngine(s)._scene.arrays
    target, observer = arrays.model_outline[1], arrays.model_outline[0]
    cx, cy = target[1], target[2]
    pieces = facing_pieces(target, observer)
    assert len(pieces)
    for piece in pieces:
        x, y = _piece_point(target, piece, 0.5 * (piece[1] + piece[2]))
        assert not _facing_point_at(target, observer, 2 * cx - x, 2 * cy - y)[0]
        for u in np.linspace(piece[1], piece[2], 7):
            x, y = _piece_point(target, piece, u)
            on, px, py = _facing_point_at(target, observer, x, y)
            assert on
            assert math.hypot(px - x, py - y) < 1e-12
            off = 1.0 + 1e-6
            assert not _facing_point_at(target, observer, cx + off * (x - cx), cy + off * (y - cy))[
                0
            ]


def test_a_visible_pair_whose_answers_a_move_left_alone_keeps_its_answer() -> None:
    # A third unit steps about inside red-a and blue-a's corridor (the hull of all four bases),
    # clear of every model pair's own hull: no model-pair answer of theirs is forgotten, so the
    # update keeps their answer as it was, and it is the one a fresh computation gives. Stepping
    # onto the line between r1 and b1 forgets their witness: the pair is worked out again.
    walker = Unit("blue-w", "blue", (infantry("w1", 14, 13.5),))
    s = scene(
        [infantry("r1", 10, 10), infantry("r2", 10, 18)],
        [infantry("b1", 30, 10), infantry("b2", 30, 18)],
        others=(walker,),
    )
    engine = VisibilityEngine(s)
    before = {(p.observer, p.target): p for p in engine.matrix()}
    assert before[("red-a", "blue-a")].witness.observer_model == "r1"  # type: ignore[union-attr]
    aside = s.with_unit_moved("blue-w", 0.0, 1.0)
    after = {(p.observer, p.target): p for p in engine.update(aside, ["blue-w"])}
    assert after[("red-a", "blue-a")] is before[("red-a", "blue-a")]
    assert _verdicts_of(tuple(after.values())) == _verdicts_of(visibility(aside))
    across = aside.with_unit_moved("blue-w", 0.0, -4.5)
    again = {(p.observer, p.target): p for p in engine.update(across, ["blue-w"])}
    assert again[("red-a", "blue-a")] is not before[("red-a", "blue-a")]
    assert _verdicts_of(tuple(again.values())) == _verdicts_of(visibility(across))


def test_a_visible_pair_keeps_its_answer_when_the_answers_it_rests_on_stand() -> None:
    # A screen hides b2 from both red models, and r2 from b2; the walker stands by the line
    # from b1 to r2. Seen from red, blue-a is not fully visible because of the screen alone and
    # r1 sees b1 fully with terrain alone (no cover): the walker's step shakes the proof that it
    # hides part of r2 from b1, an answer between the two units, but none of those red's answer
    # rests on, so red's answer is kept (and is what a fresh computation gives); blue's, which
    # names r2 hidden from b1 by the walker, is worked out again.
    walker = Unit("blue-w", "blue", (infantry("w1", 20, 14),))
    s = scene(
        [infantry("r1", 10, 10), infantry("r2", 10, 18)],
        [infantry("b1", 30, 10), infantry("b2", 30, 18)],
        (wall("screen", 26, 15, 26.5, 21, 5.0),),
        others=(walker,),
    )
    engine = VisibilityEngine(s)
    before = {(p.observer, p.target): p for p in engine.matrix()}
    red_sees_blue, blue_sees_red = before[("red-a", "blue-a")], before[("blue-a", "red-a")]
    assert "b2's facing point" in red_sees_blue.explanation
    assert "no cover against r1: it sees b1 fully" in red_sees_blue.explanation
    assert "hidden from b1 (in the way: blue-w" in blue_sees_red.explanation
    stepped = s.with_unit_moved("blue-w", 0.0, 0.3)
    after = {(p.observer, p.target): p for p in engine.update(stepped, ["blue-w"])}
    touched = engine._scene.touched_unit_pairs
    assert touched is not None
    assert frozenset(("red-a", "blue-a")) in touched
    assert after[("red-a", "blue-a")] is red_sees_blue
    assert after[("blue-a", "red-a")] is not blue_sees_red
    fresh = {(p.observer, p.target): p for p in visibility(stepped)}
    assert red_sees_blue.to_json(extra=True) == fresh[("red-a", "blue-a")].to_json(extra=True)
    assert _verdicts_of(tuple(after.values())) == _verdicts_of(tuple(fresh.values()))


def _cover_behind_a_model(walker_dy: float = 0.0, big_dy: float = 0.0) -> Scenario:
    # r1 sees b1, but a wall hides part of b1 from it; r2 would see b1 whole with terrain alone,
    # but the big model stands in the way of every line from r2 to b1. So b1 has cover against
    # red, resting on r2 not seeing it. The walker stands by the lines from b1 to r1, clear of
    # the witness and of everything red's answer rests on.
    big = Unit("blue-m", "blue", (Model("big", 20, 17.5 + big_dy, CircleBase(100), height=5),))
    walker = Unit("blue-w", "blue", (infantry("w1", 20, 11.3 + walker_dy),))
    return scene(
        [infantry("r1", 10, 10), infantry("r2", 10, 20)],
        [infantry("b1", 30, 15)],
        (wall("w", 27.9, 13.5, 28.1, 14.7, 5.0),),
        others=(big, walker),
    )


def test_cover_resting_on_an_observer_that_sees_nothing_stands_while_that_does() -> None:
    # The cover rests on r2's top-to-top answer about b1 ("not visible", behind the big model).
    # The walker's step deletes an answer between red-a and blue-a (b1 sees r1 whole) but not
    # that one, nor the proofs that b1 is not fully visible: red's answer is kept, as a fresh
    # computation gives it. When the big model steps aside, r2 sees b1 whole: the answer is
    # worked out again and the cover goes.
    s = _cover_behind_a_model()
    engine = VisibilityEngine(s)
    before = {(p.observer, p.target): p for p in engine.matrix()}
    red_sees_blue = before[("red-a", "blue-a")]
    assert red_sees_blue.visible
    assert not red_sees_blue.fully_visible
    assert red_sees_blue.cover
    sight = engine._scene
    r2, b1 = sight.index["r2"], sight.index["b1"]
    basis = sight._cover_rests_on[("red-a", "blue-a")]
    assert not basis.seen
    assert basis.observers.tolist() == [r2]
    assert basis.targets.tolist() == [b1]
    stepped = _cover_behind_a_model(walker_dy=0.2)
    after = {(p.observer, p.target): p for p in engine.update(stepped, ["blue-w"])}
    touched = engine._scene.touched_unit_pairs
    assert touched is not None
    assert frozenset(("red-a", "blue-a")) in touched
    assert after[("red-a", "blue-a")] is red_sees_blue
    assert _verdicts_of(tuple(after.values())) == _verdicts_of(visibility(stepped))
    aside = _cover_behind_a_model(walker_dy=0.2, big_dy=10.0)
    again = {(p.observer, p.target): p for p in engine.update(aside, ["blue-m"])}
    assert not again[("red-a", "blue-a")].cover
    assert _verdicts_of(tuple(again.values())) == _verdicts_of(visibility(aside))


def _witness_models(p: PairVisibility) -> tuple[str, str]:
    assert p.witness is not None
    return p.witness.observer_model, p.witness.target_model


def _screened_pairs() -> Scenario:
    # Two red models face two blue ones 20" away along y = 10 and y = 14; a 160 mm model of a
    # third unit stands between the y = 10 pair and on both diagonals: r2 sees b2.
    screen = Unit("blue-s", "blue", (Model("big", 20, 10, CircleBase(160), height=3),))
    return scene(
        [infantry("r1", 10, 10), infantry("r2", 10, 14)],
        [infantry("b1", 30, 10), infantry("b2", 30, 14)],
        others=(screen,),
    )


def test_after_a_move_the_model_pair_that_saw_before_is_asked_first() -> None:
    # Blue steps 4" up: b1 now faces r2 along y = 14, the closest pair, which a fresh
    # computation names; the update asks r2 and b2 first, and they still see: the same
    # verdicts, the witness that saw before.
    s = _screened_pairs()
    engine = VisibilityEngine(s)
    before = {(p.observer, p.target): p for p in engine.matrix()}
    assert _witness_models(before[("red-a", "blue-a")]) == ("r2", "b2")
    up = s.with_unit_moved("blue-a", 0.0, 4.0)
    after = {(p.observer, p.target): p for p in engine.update(up, ["blue-a"])}
    fresh = {(p.observer, p.target): p for p in visibility(up)}
    assert _witness_models(fresh[("red-a", "blue-a")]) == ("r2", "b1")
    assert _witness_models(after[("red-a", "blue-a")]) == ("r2", "b2")
    assert _witness_models(after[("blue-a", "red-a")]) == ("b2", "r2")
    assert _verdicts_of(tuple(after.values())) == _verdicts_of(tuple(fresh.values()))


def test_a_witness_the_move_blocks_is_replaced_by_the_search() -> None:
    # Blue steps 6" down: the screen now stands between r2 and b2, and r1 sees b1 past it. The
    # witness asked first no longer sees; the search finds what a fresh computation finds.
    s = _screened_pairs()
    engine = VisibilityEngine(s)
    engine.matrix()
    down = s.with_unit_moved("blue-a", 0.0, -6.0)
    after = {(p.observer, p.target): p for p in engine.update(down, ["blue-a"])}
    fresh = {(p.observer, p.target): p for p in visibility(down)}
    assert _witness_models(after[("red-a", "blue-a")]) == ("r1", "b1")
    assert _witness_models(fresh[("red-a", "blue-a")]) == ("r1", "b1")
    assert _verdicts_of(tuple(after.values())) == _verdicts_of(tuple(fresh.values()))


def test_a_witness_a_wall_now_blocks_is_explained_as_afresh() -> None:
    # One model a side: r1 sees b1 south of a wall, then steps behind it. The witness asked
    # first no longer sees; the wall between the two units is named as a fresh matrix names it
    # (the app shows this pair's answer from both).
    s = scene(
        [infantry("r1", 10, 16)],
        [infantry("b1", 30, 30)],
        (wall("wall", 19.5, 25, 20.5, 44, 5.0),),
    )
    engine = VisibilityEngine(s)
    assert {(p.observer, p.target): p for p in engine.matrix()}[("red-a", "blue-a")].visible
    behind = s.with_unit_moved("red-a", 0.0, 18.0)
    after = {(p.observer, p.target): p for p in engine.update(behind, ["red-a"])}
    fresh = {(p.observer, p.target): p for p in visibility(behind)}
    for key in (("red-a", "blue-a"), ("blue-a", "red-a")):
        assert after[key].to_json(extra=True) == fresh[key].to_json(extra=True)
    assert "wall stands between the two units" in after[("red-a", "blue-a")].explanation


def _verdicts_of(pairs: tuple[PairVisibility, ...]) -> list[tuple[str, str, bool, bool, bool]]:
    return [(p.observer, p.target, p.visible, p.fully_visible, p.cover) for p in pairs]


def test_unknown_observer_is_an_error() -> None:
    s = scene([infantry("r1", 10, 10)], [infantry("b1", 20, 10)])
    with pytest.raises(UnknownReferenceError, match="nobody"):
        visibility(s, observers=["nobody"])


def test_facing_side_of_a_round_target() -> None:
    target = np.array([OUTLINE_CIRCLE, 10.0, 0.0, R32, R32, 0.0])
    observer = np.array([OUTLINE_CIRCLE, 0.0, 0.0, R32, R32, 0.0])
    pieces = facing_pieces(target, observer)
    assert (pieces[:, 0] == 0).all()
    # Equal radii: the outer common tangents touch the target at +-90 degrees: half the rim.
    assert float(np.sum(pieces[:, 2] - pieces[:, 1])) == pytest.approx(math.pi, abs=1e-9)
    middles = 10.0 + R32 * np.cos(0.5 * (pieces[:, 1] + pieces[:, 2]))
    assert (middles <= 10.0 + 1e-9).all()


def facing_gap(target: np.ndarray, observer: np.ndarray, u: float) -> float:
    """``h_O(n(u)) - n(u) . p(u)`` at the target ellipse's boundary point of eccentric angle
    ``u``: positive where that point faces the observer."""
    turns = (target[5], observer[5], u)
    return float(_gap_at(target, observer, *(f(a) for a in turns for f in (math.cos, math.sin))))


def test_facing_pieces_hold_every_facing_sample_and_no_other() -> None:
    # Oval and rectangular pairs read every 8th of 720 samples first and the rest only between
    # two that differ: the pieces still hold exactly the samples that face the observer.
    rng = np.random.default_rng(11)
    tested = 0
    for _ in range(300):
        a_t, b_t = rng.uniform(0.3, 3.0, size=2)
        target = np.array([OUTLINE_OVAL, 0.0, 0.0, a_t, b_t, rng.uniform(0, 2 * math.pi)])
        kind = rng.choice([OUTLINE_CIRCLE, OUTLINE_OVAL, OUTLINE_RECT])
        a_o = rng.uniform(0.3, 3.0)
        b_o = a_o if kind == OUTLINE_CIRCLE else rng.uniform(0.3, 3.0)
        apart = max(a_t, b_t) + math.hypot(a_o, b_o) + rng.uniform(0.01, 8.0)
        toward = rng.uniform(0, 2 * math.pi)
        observer = np.array(
            [
                kind,
                apart * math.cos(toward),
                apart * math.sin(toward),
                a_o,
                b_o,
                rng.uniform(0, 2 * math.pi),
            ]
        )
        pieces = facing_pieces(target, observer)
        for u in np.arange(720) * (2 * math.pi / 720):
            gap = facing_gap(target, observer, u)
            if abs(gap) < 1e-9:
                continue
            held = any((u - p[1]) % (2 * math.pi) <= p[2] - p[1] for p in pieces)
            assert held == (gap > 0), (target, observer, u, gap)
            tested += 1
    assert tested > 200_000


def _fully_visible_by_kernel(s: Scenario) -> tuple[bool, object, dict[str, np.ndarray]]:
    """red-a's question about blue-a asked of the kernel: its answer, its cache, and the
    answer it cached for each observing model about the first target model."""
    sight = VisibilityEngine(s)._scene
    observers = sight.rows_of(s.unit("red-a"))
    targets = sight.rows_of(s.unit("blue-a"))
    cache = new_cache()
    fully = unit_fully_visible(
        sight.arrays, cache, observers, targets, np.zeros(len(sight.labels), bool), SEARCH_GROW
    )[0]
    models = len(sight.ids)
    rows = {
        sight.ids[o]: cache[(o * models + targets[0]) * 2]
        for o in observers
        if (o * models + targets[0]) * 2 in cache
    }
    for o in observers:
        # The obvious path: each observing model's own search.
        alone = model_fully_visible(sight.arrays, o, targets[0], False, SEARCH_GROW)[0]
        assert (alone == FULLY_SEEN) == (rows[sight.ids[o]][0] == FULLY_SEEN)
    return bool(fully), cache, rows


def test_the_point_a_barricade_hides_from_one_observer_is_tried_first_for_the_next() -> None:
    # A low barricade just in front of b1 hides its foot from the whole red line: the point
    # the first observer's search found is proven hidden from the other two as it is, past the
    # barricade alone, and cached with terrain alone too.
    low = wall("barricade", 18.5, 0, 18.8, 20, 0.5)
    red = [infantry("r1", 10, 10), infantry("r2", 10, 11.5), infantry("r3", 10, 13)]
    s = scene(red, [infantry("b1", 20, 11.5)], (low,), blue_keywords=("VEHICLE",))
    fully, cache, rows = _fully_visible_by_kernel(s)
    assert not fully
    first = rows["r1"]
    assert first[0] == FULLY_HIDDEN
    for other in ("r2", "r3"):
        assert rows[other][0] == FULLY_HIDDEN
        assert rows[other][1:3].tolist() == first[1:3].tolist()
    sight = VisibilityEngine(s)._scene
    r3, b1 = sight.index["r3"], sight.index["b1"]
    terrain_alone = cache[(r3 * len(sight.ids) + b1) * 2 + 1]
    assert terrain_alone[1:3].tolist() == first[1:3].tolist()
    assert pair(s).fully_visible is False


def test_a_point_hidden_from_one_observer_but_seen_by_the_next_is_not_taken() -> None:
    # The barricade below b1 hides its foot from r1, down and to the left; r2, up and to the
    # left, sees b1 whole (the points r1 misses that face r2 are seen from above the
    # barricade): the unit is fully visible, as each observer's own search says.
    low = wall("barricade", 18, 8.0, 22, 8.3, 0.5)
    red = [infantry("r1", 14, 2), infantry("r2", 10, 15)]
    s = scene(red, [infantry("b1", 20, 10)], (low,), blue_keywords=("VEHICLE",))
    fully, _, rows = _fully_visible_by_kernel(s)
    assert rows["r1"][0] == FULLY_HIDDEN
    assert rows["r2"][0] == FULLY_SEEN
    assert fully
    assert pair(s).fully_visible is True


def test_observer_in_base_contact_with_a_wall_is_proven_blocked() -> None:
    contact = wall("w", 10 + R32 - 0.01, 0, 11, 20, 5.0)
    p = pair(scene([infantry("r1", 10, 10)], [infantry("b1", 20, 10)], (contact,)))
    assert (p.visible, p.blockers) == (False, ("w",))
    assert "clearance" not in p.explanation
    assert "budget" not in p.explanation
    beside = wall("w", 9, 10 + R32 - 0.01, 11, 11, 5.0)
    assert pair(scene([infantry("r1", 10, 10)], [infantry("b1", 20, 10)], (beside,))).visible


def test_an_area_of_two_footprints_is_one_area() -> None:
    # Woods in two footprints with a gap: the target stands in the far one, so it is within
    # the whole area and the near footprint does not block the line to it.
    near, far = box(13, 0, 15, 20), box(18, 0, 21, 20)
    joined = TerrainPiece("wood", near, kind="woods", obscuring=True, other_footprints=(far,))
    p = pair(scene([infantry("r1", 10, 10)], [infantry("b1", 20, 10)], (joined,)))
    assert (p.visible, p.fully_visible) == (True, True)
    # The same two polygons as separate areas: the near one blocks.
    apart = (
        TerrainPiece("wood-a", near, kind="woods", obscuring=True),
        TerrainPiece("wood-b", far, kind="woods", obscuring=True),
    )
    q = pair(scene([infantry("r1", 10, 10)], [infantry("b1", 20, 10)], apart))
    assert (q.visible, q.blockers) == (False, ("wood-a",))


def test_scenes_of_one_battlefield_share_the_areas_their_bases_are_within() -> None:
    """A scene remembers which areas each base is within for the next scene of the same terrain
    (a board edited by moving units keeps its terrain tuple): a base moved out of an area is
    found anew, the others are remembered, and the answers are those a fresh look gives."""
    from engine.visibility import SightScene, _areas_known_within, _outline_key

    woods = TerrainPiece("woods", box(10.0, 10.0, 20.0, 20.0), obscuring=True)
    red = Unit("red", "red", (Model("r1", 15.0, 15.0, CircleBase(32)),))
    blue = Unit("blue", "blue", (Model("b1", 30.0, 15.0, CircleBase(32)),))
    first = Scenario(
        "wh40k-ca2026", (Player("red"), Player("blue")), units=(red, blue), terrain=(woods,)
    )
    assert SightScene(first).within_areas("r1") == frozenset({"woods"})
    moved = dataclasses.replace(
        first,
        units=(Unit("red", "red", (Model("r1", 25.0, 15.0, CircleBase(32)),)), blue),
    )
    known = _areas_known_within(first.terrain)
    assert known[_outline_key(first.model("r1"))] == frozenset({"woods"})
    assert _outline_key(moved.model("r1")) not in known
    again = SightScene(moved)
    assert again.within_areas("r1") == frozenset()
    assert again.within_areas("b1") == frozenset()
    other_battlefield = dataclasses.replace(moved, terrain=(woods,))
    assert _areas_known_within(other_battlefield.terrain) == {}


def test_a_long_drag_keeps_the_engines_record_of_areas_bounded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each step of a drag adds the moved bases' places to the areas-within record the engine
    carries from scene to scene; past the limit only the places of the bases standing now are
    kept, and the answers stay those of a fresh computation."""
    monkeypatch.setattr(sys.modules["engine.visibility"], "_WITHIN_KEPT_BASES", 6)
    woods = TerrainPiece("woods", box(10.0, 10.0, 20.0, 20.0), obscuring=True)
    red = Unit("red", "red", (Model("r1", 5.0, 15.0, CircleBase(32)),))
    blue = Unit("blue", "blue", (Model("b1", 30.0, 15.0, CircleBase(32)),))
    scenario = Scenario(
        "wh40k-ca2026", (Player("red"), Player("blue")), units=(red, blue), terrain=(woods,)
    )
    engine = VisibilityEngine(scenario)
    engine.matrix()
    sizes = []
    for _ in range(20):
        scenario = scenario.with_unit_moved("red", 1.0, 0.0)
        assert engine.update(scenario, ["red"]) == visibility(scenario)
        sizes.append(len(engine._scene.within_cache))
    assert sizes[:6] == [3, 4, 5, 6, 7, 2]
    assert max(sizes) == 7
    assert engine._scene.within_areas("r1") == SightScene(scenario).within_areas("r1")


def test_slot_queue_hands_out_each_task_once_never_two_of_a_busy_slot() -> None:
    """The threads' queue: tasks in their order, a busy slot's tasks passed over (not waited
    for), a thread left with only busy slots' tasks let go, the holder taking them after."""
    from engine.visibility import _SlotQueue

    queue = _SlotQueue([(3, "a"), (3, "b"), (5, "c"), (3, "d")])
    assert queue.take(None) == (3, "a")
    assert queue.take(None) == (5, "c")
    assert queue.take(None) is None
    assert queue.take(5) is None
    assert queue.take(3) == (3, "b")
    assert queue.take(3) == (3, "d")
    assert queue.take(3) is None


def test_around_gives_the_rows_and_columns_of_some_units_as_a_fresh_matrix_does() -> None:
    scenario = make_stress_scenario(seed=1)
    engine = VisibilityEngine(scenario)
    engine.matrix()
    moved = scenario.with_unit_moved("red-u03", 2.0, -1.5)
    engine.adopt(moved, ["red-u03"])
    focus = ["red-u03", "blue-u07"]
    pairs = engine.around(focus)
    keys = [(p.observer, p.target) for p in pairs]
    assert len(keys) == len(set(keys))
    fresh = {(p.observer, p.target): p for p in visibility(moved)}
    wanted = [k for k in fresh if k[0] in focus] + [
        k for unit in sorted(focus) for k in sorted(fresh) if k[1] == unit and k[0] not in focus
    ]
    assert keys == wanted
    assert [p.to_json()["visible"] for p in pairs] == [fresh[k].to_json()["visible"] for k in keys]
    assert [(p.fully_visible, p.cover) for p in pairs] == [
        (fresh[k].fully_visible, fresh[k].cover) for k in keys
    ]


# ---------------------------------------------------------------------------------------------
# The blockers near two units: each model pair's gathering, made once for the unit pair


def _unit_pairs_of(scenario: Scenario, observers: int) -> list[tuple[Unit, Unit]]:
    """The rows of the first ``observers`` units: every opposing unit as a target."""
    return [
        (observer, target)
        for observer in scenario.units[:observers]
        for target in scenario.units
        if target.player != observer.player
    ]


@pytest.mark.parametrize("board", ["stress", "ruin layout"])
def test_the_blockers_near_two_units_are_what_every_model_pair_of_them_gathers(
    board: str,
) -> None:
    # The searches between two units gather their blockers from those near both units
    # (blockers_near), not from the whole scene: for every model pair, the same blockers in
    # the same order as gathered from every row, found among far fewer rows.
    from benchmarks.ruin_layout import make_ruin_layout
    from engine.sight_kernel import blockers_near, gather, gather_from, unit_hull

    scenario = make_stress_scenario(seed=1) if board == "stress" else make_ruin_layout(seed=1)
    sight = VisibilityEngine(scenario)._scene
    arrays = sight.arrays
    sizes = []
    for observer, target in _unit_pairs_of(scenario, 3):
        observers, targets = sight.rows_of(observer), sight.rows_of(target)
        hull_a, hull_b = unit_hull(arrays, observers), unit_hull(arrays, targets)
        nearby = blockers_near(arrays, observers, targets, hull_a, hull_b, SEARCH_GROW)
        sizes.append(len(nearby))
        assert nearby.tolist() == sorted(set(nearby.tolist()))
        for i in observers:
            for j in targets:
                whole = gather(arrays, i, j, 0, SEARCH_GROW)
                assert gather_from(arrays, i, j, 0, SEARCH_GROW, nearby).tolist() == whole.tolist()
    assert np.mean(sizes) < len(arrays.blocker_kind) / 3


@pytest.mark.parametrize("board", ["stress", "official table"])
def test_a_units_hull_merged_from_its_bases_is_the_hull_of_their_points(board: str) -> None:
    from engine.sight_kernel import _unit_points, convex_hull, unit_hull

    scenario = make_stress_scenario(seed=1) if board == "stress" else make_official_table()
    sight = VisibilityEngine(scenario)._scene
    for unit in scenario.units:
        rows = sight.rows_of(unit)
        for part in (rows, rows[: max(1, len(rows) // 2)], rows[-1:]):
            merged = unit_hull(sight.arrays, part)
            assert np.array_equal(merged, convex_hull(_unit_points(sight.arrays, part)))


@pytest.mark.parametrize("board", ["stress", "official table"])
def test_the_hull_a_proof_is_drawn_from_holds_every_base_whole(board: str) -> None:
    # A proof between two groups' hulls stands for every pair of their bases only if each base
    # lies inside its group's hull: round bases are taken as the octagons around them, so the
    # hull has fewer corners than the 16-gons' and still holds each disc, and a polygon base's
    # corners.
    from engine.sight_kernel import proof_hull, unit_hull

    scenario = make_stress_scenario(seed=1) if board == "stress" else make_official_table()
    sight = VisibilityEngine(scenario)._scene
    arrays = sight.arrays
    for unit in scenario.units:
        rows = sight.rows_of(unit)
        for part in (rows, rows[: max(1, len(rows) // 2)], rows[-1:]):
            hull = proof_hull(arrays, part)
            assert len(hull) <= len(unit_hull(arrays, part))
            edges = np.roll(hull, -1, axis=0) - hull
            normals = np.stack([edges[:, 1], -edges[:, 0]], axis=1)
            normals /= np.linalg.norm(normals, axis=1)[:, None]
            for m in part:
                lo, hi = arrays.model_ranges[m]
                points, reach = (
                    (arrays.model_vertices[lo:hi], 0.0)
                    if hi > lo
                    else (arrays.model_disc[m : m + 1, :2], arrays.model_disc[m, 2])
                )
                # Outward normals (counter-clockwise hull): every point at least ``reach``
                # inside every side.
                beyond = ((points[:, None, :] - hull[None, :, :]) * normals[None]).sum(axis=2)
                assert beyond.max() <= -reach + 1e-9


def test_separators_of_parts_built_from_the_blockers_near_two_units_are_those_of_all() -> None:
    # A separator between parts of two units only takes blockers meeting the hull of both
    # units: built from the blockers near them, it walls off the same model pairs with the same
    # walls as one built from every blocker of the scene.
    from engine.sight_kernel import (
        PART_SEPARATOR_PAIRS,
        blockers_near,
        unit_hull,
        walled_off_groups,
    )

    scenario = make_stress_scenario(seed=1)
    sight = VisibilityEngine(scenario)._scene
    arrays = sight.arrays
    every = np.arange(len(arrays.blocker_kind), dtype=np.int32)
    walled_pairs = 0
    for observer, target in _unit_pairs_of(scenario, 4):
        observers, targets = sight.rows_of(observer), sight.rows_of(target)
        hull_a, hull_b = unit_hull(arrays, observers), unit_hull(arrays, targets)
        nearby = blockers_near(arrays, observers, targets, hull_a, hull_b, SEARCH_GROW)
        answers = []
        for candidates in (every, nearby):
            in_the_way = np.zeros(len(arrays.blocker_kind), dtype=bool)
            settled = np.zeros((len(observers), len(targets)), dtype=bool)
            walled = walled_off_groups(
                arrays,
                new_cache(),
                observers,
                targets,
                in_the_way,
                candidates,
                SEARCH_GROW,
                settled,
                PART_SEPARATOR_PAIRS,
            )
            answers.append((walled.tolist(), np.flatnonzero(in_the_way).tolist()))
        assert answers[0] == answers[1]
        walled_pairs += int(np.sum(answers[0][0]))
    assert walled_pairs > 0
