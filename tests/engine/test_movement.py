"""Moves around terrain: open ground is the straight distance exactly; a wall makes the path go
round it (hand-computed); the outward polygons' bound; gaps exactly as wide as the base are
open, narrower closed; moving the target along the path never lengthens it; a mirrored table
mirrors distances; the threat's odds around a wall against enumeration; the options read from a
file; the movement bands."""

from __future__ import annotations

import itertools
import json
import math
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import RulesError, ScenarioError
from engine.geometry import TOLERANCE, within
from engine.model import (
    CircleBase,
    Model,
    OvalBase,
    Player,
    Scenario,
    TerrainFeature,
    TerrainPiece,
    Unit,
)
from engine.movement import (
    ARC_EXCESS,
    DRAWING_TOLERANCE,
    GOAL_CHORD_ERROR,
    blocking_polygons,
    engagement_goal,
    grown_convex,
    model_space,
    movement_bands,
    path_distance,
    shortest_path,
)
from engine.scenario_io import load_scenario, save_scenario
from engine.threat import MEASURE_AROUND_TERRAIN, unit_threats

JUST = 1e-4
ONE_INCH = CircleBase(25.4)
RADIUS = 0.5
FACES = range(1, 7)
ENGAGEMENT = 2.0


def wall(piece_id: str, x0: float, y0: float, x1: float, y1: float, **kw: object) -> TerrainPiece:
    square = ((x0, y0), (x1, y0), (x1, y1), (x0, y1))
    return TerrainPiece(piece_id, square, features=(TerrainFeature(square, 3.0, **kw),))  # type: ignore[arg-type]


def board(
    mover: tuple[float, float],
    target: tuple[float, float],
    terrain: tuple[TerrainPiece, ...] = (),
    move: float = 6.0,
    keywords: tuple[str, ...] = (),
    options: dict[str, object] | None = None,
) -> Scenario:
    red = Unit("red-u", "red", (Model("red-m", *mover, ONE_INCH),), move=move, keywords=keywords)
    blue = Unit("blue-u", "blue", (Model("blue-m", *target, ONE_INCH),))
    return Scenario(
        "wh40k-ca2026",
        (Player("red"), Player("blue")),
        units=(red, blue),
        terrain=terrain,
        options=options or {},  # type: ignore[arg-type]
    )


def distance(scenario: Scenario, excess: float = ARC_EXCESS) -> float | None:
    red, blue = scenario.unit("red-u"), scenario.unit("blue-u")
    goal = engagement_goal(scenario, red, red.models[0], blue)
    return path_distance(scenario, "red-u", "red-m", goal, excess)


# --- open ground -------------------------------------------------------------------------


@settings(deadline=None)
@given(
    x=st.floats(min_value=1, max_value=59),
    y=st.floats(min_value=1, max_value=43),
    tx=st.floats(min_value=1, max_value=59),
    ty=st.floats(min_value=1, max_value=43),
)
def test_open_ground_is_the_straight_distance_exactly(
    x: float, y: float, tx: float, ty: float
) -> None:
    straight = max(math.hypot(tx - x, ty - y) - 2 * RADIUS - ENGAGEMENT, 0.0)
    assert distance(board((x, y), (tx, ty))) == pytest.approx(straight, abs=1e-12)


def test_terrain_off_the_line_changes_nothing() -> None:
    far_wall = wall("w", 30.0, 30.0, 31.0, 40.0)
    assert distance(board((10.0, 10.0), (20.0, 10.0), (far_wall,))) == 7.0


# --- a wall in the way -------------------------------------------------------------------


SQUARE = wall("block", 19.0, 9.0, 21.0, 11.0)
"""A 2" square between the mover at (14, 10) and the target at (26, 10)."""


def round_the_square(radius: float) -> tuple[float, float]:
    """By hand: the shortest path of the centre round the square grown by ``radius`` (over its
    top: tangent to the arc at (19, 11), along the top, tangent from the arc at (21, 11) to the
    target's centre), ending 3" from the target's centre; and how far it turns."""
    start, first, second, target = (14.0, 10.0), (19.0, 11.0), (21.0, 11.0), (26.0, 10.0)
    reach = ENGAGEMENT + 2 * RADIUS
    d1 = math.dist(start, first)
    d2 = math.dist(target, second)
    # The tangent point's normal, from the arc's centre, and the arcs to the top (straight up).
    normal_in = math.atan2(start[1] - first[1], start[0] - first[0]) - math.acos(radius / d1)
    normal_out = math.atan2(target[1] - second[1], target[0] - second[0]) + math.acos(radius / d2)
    turn_in = (normal_in % (2 * math.pi)) - math.pi / 2
    turn_out = math.pi / 2 - normal_out
    length = (
        math.sqrt(d1**2 - radius**2)
        + radius * turn_in
        + (second[0] - first[0])
        + radius * turn_out
        + math.sqrt(d2**2 - radius**2)
        - reach
    )
    return length, turn_in + turn_out


def test_a_square_in_the_way_makes_the_path_go_round_it_hand_computed() -> None:
    exact, turning = round_the_square(RADIUS - TOLERANCE)
    assert 0.3 < turning < 0.7
    found = distance(board((14.0, 10.0), (26.0, 10.0), (SQUARE,)), excess=1e-6)
    assert found == pytest.approx(exact, abs=1e-6)
    assert found >= exact - 1e-9


def test_the_outward_polygons_are_never_shorter_and_within_the_stated_bound() -> None:
    """The path round obstacles grown as outward polygons lies between the paths round the
    exact obstacles grown by ``r`` and by ``r + ARC_EXCESS``: at most ``ARC_EXCESS`` per radian
    of turning longer than the exact path."""
    exact, turning = round_the_square(RADIUS - TOLERANCE)
    wider, _ = round_the_square(RADIUS - TOLERANCE + ARC_EXCESS)
    found = distance(board((14.0, 10.0), (26.0, 10.0), (SQUARE,)))
    assert found is not None
    assert exact - 1e-9 <= found <= wider + 1e-9
    assert found - exact <= ARC_EXCESS * turning + 1e-9
    assert ARC_EXCESS * 2 * math.pi + GOAL_CHORD_ERROR < 0.01


def test_the_path_bends_at_the_squares_corners() -> None:
    scenario = board((14.0, 10.0), (26.0, 10.0), (SQUARE,))
    red = scenario.unit("red-u")
    goal = engagement_goal(scenario, red, red.models[0], scenario.unit("blue-u"))
    path = shortest_path(model_space(scenario, red, red.models[0]), (14.0, 10.0), goal)
    assert path is not None
    assert path.points[0] == (14.0, 10.0)
    bends = path.points[1:-1]
    square = shapely.Polygon(SQUARE.area)
    assert bends
    for x, y in bends:  # on the outline of the square grown by the base (outward by the excess)
        assert square.distance(shapely.Point(x, y)) >= RADIUS - TOLERANCE - 1e-9
        assert square.distance(shapely.Point(x, y)) <= RADIUS + ARC_EXCESS
    assert len({y > 10.0 for _, y in bends}) == 1  # round one side only
    end = path.points[-1]
    assert math.dist(end, (26.0, 10.0)) == pytest.approx(3.0, abs=1e-9)


def test_a_grown_convex_polygon_holds_the_exact_shape_within_the_excess() -> None:
    square = ((0.0, 0.0), (2.0, 0.0), (2.0, 2.0), (0.0, 2.0))
    grown = shapely.Polygon(grown_convex(square, 0.75, 0.001))
    exact = shapely.Polygon(square).buffer(0.75, quad_segs=512)
    assert grown.buffer(1e-9).covers(exact)
    assert shapely.Polygon(square).buffer(0.75 + 0.001 + 1e-9, quad_segs=512).covers(grown)


# --- gaps ----------------------------------------------------------------------------------


def gap_board(gap: float) -> Scenario:
    """A wall across the whole table at x = 30 with one gap centred on y = 22."""
    low = wall("low", 29.9, 0.0, 30.1, 22.0 - gap / 2)
    high = wall("high", 29.9, 22.0 + gap / 2, 30.1, 44.0)
    return board((25.0, 22.0), (36.0, 22.0), (low, high))


def test_a_gap_exactly_as_wide_as_the_base_is_open() -> None:
    assert distance(gap_board(2 * RADIUS)) == pytest.approx(11.0 - 1.0 - 2.0, abs=1e-12)


def test_a_gap_narrower_than_the_base_is_closed() -> None:
    assert distance(gap_board(2 * RADIUS - JUST)) is None


def test_a_walled_in_target_has_no_distance_and_no_odds() -> None:
    report = unit_threats(gap_board(2 * RADIUS - JUST), "red-u")
    [target] = report.targets
    assert target.distance is None
    assert (target.normal, target.advance, target.charge) == (0, 0, 0)
    assert report.to_json()["targets"][0]["distance"] is None


def test_a_gap_that_is_open_for_a_small_base_but_not_a_big_one() -> None:
    scenario = gap_board(1.2)
    assert distance(scenario) is not None
    big = OvalBase(60.0, 35.0)  # turned freely: needs its whole length, 60 mm > 1.2"
    red = scenario.unit("red-u")
    scenario = scenario.with_unit(replace(red, models=(replace(red.models[0], base=big),)))
    assert distance(scenario) is None


# --- laws --------------------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(
    ty=st.floats(min_value=3.0, max_value=17.0),
    tx=st.floats(min_value=24.0, max_value=34.0),
    wall_top=st.floats(min_value=10.5, max_value=16.0),
    closer_by=st.floats(min_value=0.0, max_value=1.0),
)
def test_moving_the_target_along_the_path_never_lengthens_it(
    ty: float, tx: float, wall_top: float, closer_by: float
) -> None:
    """The target moved towards the path's last bend, along the last leg, by part of that leg:
    the path is shorter by at least that much (it never grows)."""
    block = wall("w", 19.0, 4.0, 21.0, wall_top)
    scenario = board((14.0, 10.0), (tx, ty), (block,))
    red = scenario.unit("red-u")
    goal = engagement_goal(scenario, red, red.models[0], scenario.unit("blue-u"))
    path = shortest_path(model_space(scenario, red, red.models[0]), (14.0, 10.0), goal)
    assert path is not None
    (bx, by), end = path.points[-2], path.points[-1]
    leg = math.dist((bx, by), end)
    shift = closer_by * leg
    span = math.hypot(bx - tx, by - ty)
    moved = (tx + (bx - tx) * shift / span, ty + (by - ty) * shift / span)
    after = distance(board((14.0, 10.0), moved, (block,)))
    assert after is not None
    assert after <= path.length - shift + 1e-6
    assert after <= path.length + 1e-9


@settings(max_examples=25, deadline=None)
@given(
    x=st.floats(min_value=5.0, max_value=18.0),
    y=st.floats(min_value=5.0, max_value=39.0),
    tx=st.floats(min_value=22.0, max_value=40.0),
    ty=st.floats(min_value=5.0, max_value=39.0),
)
def test_a_mirrored_table_mirrors_distances(x: float, y: float, tx: float, ty: float) -> None:
    pieces = (wall("a", 19.0, 8.0, 21.0, 30.0), wall("b", 25.0, 20.0, 32.0, 21.0))
    mirrored = tuple(
        TerrainPiece(
            p.id,
            tuple((60.0 - px, py) for px, py in p.area),
            features=tuple(
                replace(f, shape=tuple((60.0 - px, py) for px, py in f.shape)) for f in p.features
            ),
        )
        for p in pieces
    )
    there = distance(board((x, y), (tx, ty), pieces))
    back = distance(board((60.0 - x, y), (60.0 - tx, ty), mirrored))
    assert there is not None
    assert back is not None
    assert back == pytest.approx(there, abs=1e-6)


# --- the threat around terrain -----------------------------------------------------------


def enumerated(length: float, move: float) -> tuple[Fraction, Fraction, Fraction]:
    normal = Fraction(1 if within(length, move) else 0)
    advance = Fraction(sum(within(length, move + roll) for roll in FACES), 6)
    charge = Fraction(
        sum(within(length, move + a + b) for a, b in itertools.product(FACES, FACES)), 36
    )
    return normal, advance, charge


@pytest.mark.parametrize("tx", [24.0, 26.0, 28.0, 31.0])
def test_threat_with_a_wall_is_lower_and_matches_enumeration_on_the_path(tx: float) -> None:
    walled = board((14.0, 10.0), (tx, 10.0), (wall("w", 19.0, 5.0, 21.0, 15.0),))
    open_ground = board((14.0, 10.0), (tx, 10.0))
    [around] = unit_threats(walled, "red-u").targets
    [straight] = unit_threats(open_ground, "red-u").targets
    assert around.distance is not None
    assert straight.distance is not None
    assert around.distance > straight.distance + 1.0
    assert (around.normal, around.advance, around.charge) == enumerated(around.distance, 6.0)
    pairs = [
        (around.normal, straight.normal),
        (around.advance, straight.advance),
        (around.charge, straight.charge),
    ]
    assert all(a is not None and s is not None and a <= s for a, s in pairs)
    assert any(a is not None and s is not None and a < s for a, s in pairs)
    assert unit_threats(walled, "red-u").measure == MEASURE_AROUND_TERRAIN


def test_fly_crosses_features_and_the_options_change_what_blocks() -> None:
    terrain = (wall("w", 19.0, 5.0, 21.0, 15.0),)
    straight = distance(board((14.0, 10.0), (28.0, 10.0)))
    assert distance(board((14.0, 10.0), (28.0, 10.0), terrain, keywords=("FLY",))) == straight
    blocked = distance(board((14.0, 10.0), (28.0, 10.0), terrain))
    assert blocked is not None
    assert straight is not None
    assert blocked > straight
    nothing = board((14.0, 10.0), (28.0, 10.0), terrain, options={"movement_blocking": "none"})
    assert distance(nothing) == straight
    infantry = board(
        (14.0, 10.0),
        (28.0, 10.0),
        terrain,
        keywords=("INFANTRY",),
        options={"movement_passes": ["FLY", "INFANTRY"]},
    )
    assert distance(infantry) == straight


def test_light_features_block_only_with_every_feature() -> None:
    light = (wall("w", 19.0, 5.0, 21.0, 15.0, solid=False, category="light"),)
    straight = distance(board((14.0, 10.0), (28.0, 10.0)))
    assert distance(board((14.0, 10.0), (28.0, 10.0), light)) == straight
    every = board((14.0, 10.0), (28.0, 10.0), light, options={"movement_blocking": "every-feature"})
    found = distance(every)
    assert found is not None
    assert straight is not None
    assert found > straight


def test_impassable_areas_block_even_flyers() -> None:
    square = ((19.0, 5.0), (21.0, 5.0), (21.0, 15.0), (19.0, 15.0))
    pit = TerrainPiece("pit", square, impassable=True)
    scenario = board((14.0, 10.0), (28.0, 10.0), (pit,), keywords=("FLY",))
    red = scenario.unit("red-u")
    assert blocking_polygons(scenario, red, red.models[0]) == (square,)
    only_pits = replace(scenario, options={"movement_blocking": "impassable"})
    assert blocking_polygons(only_pits, red, red.models[0]) == (square,)


def test_a_model_overlapping_a_wall_moves_off_it() -> None:
    scenario = board((19.2, 10.0), (28.0, 10.0), (wall("w", 19.0, 5.0, 21.0, 15.0),))
    assert distance(scenario) == pytest.approx(28.0 - 19.2 - 3.0, abs=1e-12)


def test_unknown_unit_and_model_are_rules_errors() -> None:
    scenario = board((14.0, 10.0), (28.0, 10.0))
    goal = engagement_goal(
        scenario, scenario.unit("red-u"), scenario.unit("red-u").models[0], scenario.unit("blue-u")
    )
    with pytest.raises(RulesError, match="nobody"):
        path_distance(scenario, "nobody", "red-m", goal)
    with pytest.raises(RulesError, match="no-model"):
        path_distance(scenario, "red-u", "no-model", goal)


# --- the options in a file -----------------------------------------------------------------


def test_the_options_read_from_a_file(tmp_path: Path) -> None:
    path = tmp_path / "moves.warplan.json"
    options = {"movement_blocking": "impassable", "movement_passes": ["FLY", "INFANTRY"]}
    save_scenario(board((14.0, 10.0), (28.0, 10.0), options=options), path)
    loaded = load_scenario(path)
    assert loaded.option("movement_blocking") == "impassable"
    assert list(loaded.option("movement_passes")) == ["FLY", "INFANTRY"]  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("movement_blocking", "walls", "must be one of solid, every-feature, impassable, none"),
        ("movement_blocking", 3, "must be one of"),
        ("movement_passes", ["fly"], "keywords are upper case"),
        ("movement_passes", "FLY", "must be an array"),
    ],
)
def test_bad_option_values_are_named(tmp_path: Path, key: str, value: object, message: str) -> None:
    path = tmp_path / "bad.warplan.json"
    save_scenario(board((14.0, 10.0), (28.0, 10.0)), path)
    document = json.loads(path.read_text())
    document["options"] = {key: value}
    path.write_text(json.dumps(document))
    with pytest.raises(ScenarioError) as caught:
        load_scenario(path)
    text = str(caught.value)
    assert f"options.{key}" in text
    assert message in text


# --- the bands -----------------------------------------------------------------------------


def test_bands_on_open_ground_are_discs_of_the_move_plus_the_base() -> None:
    bands = movement_bands(board((30.0, 22.0), (55.0, 40.0)), "red-u")
    assert [(b.kind, b.distance) for b in bands] == [
        ("normal", 6.0),
        *(("advance", 6.0 + roll) for roll in FACES),
        ("charge", 18.0),
    ]
    assert [b.probability for b in bands] == [
        1,
        *(Fraction(7 - roll, 6) for roll in FACES),
        Fraction(1, 36),
    ]
    for band in bands[:-1]:
        exact = math.pi * (band.distance + RADIUS) ** 2
        assert band.region.area == pytest.approx(
            exact, abs=2 * math.pi * band.distance * DRAWING_TOLERANCE
        )
    # The charge's disc is cut by the table's edges: every base stays on the battlefield.
    assert shapely.box(0, 0, 60, 44).buffer(1e-9).covers(bands[-1].region)


def test_bands_are_nested_and_each_band_is_beyond_the_last() -> None:
    terrain = (wall("w", 33.0, 15.0, 34.0, 29.0),)
    bands = movement_bands(board((30.0, 22.0), (55.0, 40.0), terrain), "red-u")
    for inner, outer in itertools.pairwise(bands):
        assert outer.region.buffer(1e-6).covers(inner.region)
        assert outer.band.intersection(inner.region).area < 1e-6
    # Behind the wall: reached round it, not through it.
    normal = bands[0].region
    assert not normal.contains(shapely.Point(35.0, 22.0))
    open_normal = movement_bands(board((30.0, 22.0), (55.0, 40.0)), "red-u")[0].region
    assert open_normal.contains(shapely.Point(35.0, 22.0))
    wall_shape = shapely.Polygon(terrain[0].area)
    assert bands[-1].region.intersection(wall_shape).area < 1e-3


def test_bands_of_a_point_behind_a_wall_match_the_path_distance() -> None:
    """A point is in a band exactly when a base there is within that move (its centre's path
    at most the band's distance), up to the drawing tolerance."""
    terrain = (wall("w", 33.0, 15.0, 34.0, 29.0),)
    scenario = board((30.0, 22.0), (55.0, 40.0), terrain)
    bands = movement_bands(scenario, "red-u")
    red = scenario.unit("red-u")
    space = model_space(scenario, red, red.models[0])
    for x, y in [(36.0, 22.0), (38.0, 22.0), (36.0, 26.0), (40.0, 30.0)]:
        spot = Model("spot", x, y, CircleBase(0.001))
        path = shortest_path(
            space,
            (30.0, 22.0),
            replace(
                engagement_goal(scenario, red, red.models[0], Unit("s", "blue", (spot,))), reach=0.0
            ),
        )
        assert path is not None
        for band in bands:
            centre_in = band.region.buffer(-RADIUS + DRAWING_TOLERANCE).contains(
                shapely.Point(x, y)
            )
            if path.length <= band.distance - DRAWING_TOLERANCE:
                assert centre_in or band.region.contains(shapely.Point(x, y)), (x, y, band.distance)
            if path.length > band.distance + RADIUS + DRAWING_TOLERANCE:
                assert not band.region.contains(shapely.Point(x, y)), (x, y, band.distance)


def test_a_units_bands_are_the_union_of_its_models_own_bands() -> None:
    """Each band of a squad is what any of its models can reach: the same as the union of the
    bands of one-model units standing where its models stand (two bases of one size, which
    share a configuration space, and a larger one with its own), up to the drawing tolerance."""
    terrain = (wall("w", 33.0, 15.0, 34.0, 29.0), wall("v", 24.0, 28.0, 36.0, 29.0))
    spots = [(30.0, 22.0, ONE_INCH), (31.5, 24.0, ONE_INCH), (29.0, 25.5, CircleBase(60))]
    squad = Unit(
        "red-u",
        "red",
        tuple(Model(f"red-{k}", x, y, base) for k, (x, y, base) in enumerate(spots)),
        move=6.0,
    )
    scenario = replace(board((30.0, 22.0), (55.0, 40.0), terrain), units=(squad,))
    together = movement_bands(scenario, "red-u")
    alone = [
        movement_bands(replace(scenario, units=(replace(squad, models=(model,)),)), "red-u")
        for model in squad.models
    ]
    for index, band in enumerate(together):
        union = shapely.union_all([bands[index].region for bands in alone])
        difference = band.region.symmetric_difference(union).area
        assert difference <= union.length * DRAWING_TOLERANCE, (band.kind, band.distance)


def test_a_unit_without_move_has_no_bands_and_an_unknown_unit_is_an_error() -> None:
    assert movement_bands(board((30.0, 22.0), (55.0, 40.0), move=None), "red-u") == ()  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="nobody"):
        movement_bands(board((30.0, 22.0), (55.0, 40.0)), "nobody")
