"""The document (undo, drags, diffs) and the pure edits behind every command."""

from __future__ import annotations

import pytest
import shapely
from gui_helpers import BASE_32, duel_scenario

from engine.edits import (
    TERRAIN_PRESETS,
    Selection,
    add_objective,
    add_terrain,
    formation_positions,
    move_selection,
    remove_selection,
    rotate_models,
    terrain_preset,
    unique_id,
)
from engine.model import Model, OvalBase, RectBase
from engine.overlaps import base_overlaps
from gui.document import ScenarioDocument, diff_scenarios


def test_diff_names_exactly_what_changed() -> None:
    s = duel_scenario()
    moved = s.with_unit_moved("red-squad", 1.0, 0.0)
    change = diff_scenarios(s, moved)
    assert change.units == frozenset({"red-squad"})
    assert change.only_units_moved
    assert not change.structure
    with_objective, objective_id = add_objective(moved, (10.0, 10.0))
    change = diff_scenarios(moved, with_objective)
    assert change.objectives == frozenset({objective_id})
    assert change.structure
    removed = remove_selection(with_objective, Selection(units=frozenset({"blue-squad"})))
    assert diff_scenarios(with_objective, removed).removed == frozenset({"blue-squad"})


def test_a_drag_is_one_undo_step_and_cancel_restores(qapp) -> None:
    doc = ScenarioDocument(duel_scenario())
    seen = []
    doc.changed.connect(seen.append)
    origin = doc.scenario
    for step in range(1, 6):
        doc.preview(origin.with_unit_moved("red-squad", step * 0.5, 0.0))
    assert all(change.previewing for change in seen)
    assert doc.undo_stack.count() == 0
    doc.end_drag("Move red-squad")
    assert doc.undo_stack.count() == 1
    assert doc.scenario.model("red-1").x == pytest.approx(32.5)
    doc.undo_stack.undo()
    assert doc.scenario is origin
    doc.undo_stack.redo()
    assert doc.scenario.model("red-1").x == pytest.approx(32.5)

    doc.preview(doc.scenario.with_unit_moved("red-squad", 5.0, 0.0))
    doc.cancel_drag()
    assert doc.scenario.model("red-1").x == pytest.approx(32.5)
    assert doc.undo_stack.count() == 1


def test_a_drop_reaches_listeners_that_skip_previews(qapp) -> None:
    doc = ScenarioDocument(duel_scenario())
    committed = []
    doc.changed.connect(lambda change: None if change.previewing else committed.append(change))
    origin = doc.scenario
    for step in range(1, 4):
        doc.preview(origin.with_unit_moved("red-squad", step * 0.5, 0.0))
    assert committed == []
    doc.end_drag("Move red-squad")
    assert len(committed) == 1
    assert committed[0].units == frozenset({"red-squad"})
    assert committed[0].only_units_moved
    doc.begin_drag()
    doc.end_drag("Move nothing")
    assert len(committed) == 1
    assert doc.undo_stack.count() == 1


def test_nudges_with_the_same_key_merge(qapp) -> None:
    doc = ScenarioDocument(duel_scenario())
    for _ in range(4):
        doc.apply(doc.scenario.with_unit_moved("red-squad", 0.1, 0.0), "Nudge", merge_key="n:red")
    doc.apply(doc.scenario.with_unit_moved("blue-squad", 0.1, 0.0), "Nudge", merge_key="n:blue")
    assert doc.undo_stack.count() == 2
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    assert doc.scenario == duel_scenario()


def test_moving_terrain_carries_its_terrain_objective() -> None:
    s = duel_scenario()
    ruin = terrain_preset("ruin", (10.0, 10.0), "ruin-1")
    s = add_terrain(s, ruin)
    s, objective_id = add_objective(s, (10.0, 10.0))
    from dataclasses import replace

    s = replace(
        s,
        objectives=tuple(
            replace(o, terrain="ruin-1") if o.id == objective_id else o for o in s.objectives
        ),
    )
    moved = move_selection(s, Selection(terrain=frozenset({"ruin-1"})), 2.0, -1.0)
    assert moved.objective(objective_id).x == pytest.approx(12.0)
    assert moved.objective(objective_id).y == pytest.approx(9.0)
    assert moved.terrain_piece("ruin-1").area[0] == (7.0, 6.0)
    assert moved.terrain_piece("ruin-1").features[0].shape[0] == (7.0, 6.0)
    assert moved.objective("obj-centre") is s.objective("obj-centre")
    gone = remove_selection(moved, Selection(terrain=frozenset({"ruin-1"})))
    assert gone.objective(objective_id).terrain is None


def test_rotation_wraps_and_ids_are_unique() -> None:
    s = duel_scenario()
    turned = rotate_models(s, ["red-1"], -30.0)
    assert turned.model("red-1").rotation == pytest.approx(330.0)
    assert unique_id(s, "red-1") == "red-1-1"
    assert unique_id(s, "obj") == "obj-1"


@pytest.mark.parametrize("count", [1, 2, 3, 5, 7, 10, 20])
@pytest.mark.parametrize("base", [BASE_32, OvalBase(60, 35), RectBase(100, 60)])
def test_new_units_are_placed_in_coherency_without_overlap(count: int, base) -> None:
    positions = formation_positions(count, base, (30.0, 22.0))
    models = [Model(f"m{i}", x, y, base) for i, (x, y) in enumerate(positions)]
    outlines = [_outline(m) for m in models]
    for i, outline in enumerate(outlines):
        near = [
            j
            for j, other in enumerate(outlines)
            if j != i and outline.distance(other) <= 2.0 + 1e-6
        ]
        assert len(near) >= (2 if count >= 7 else min(1, count - 1))
        assert all(
            outline.intersection(other).area < 1e-9 for j, other in enumerate(outlines) if j != i
        )


@pytest.mark.parametrize("kind", TERRAIN_PRESETS)
def test_terrain_presets_are_valid_polygons(kind: str) -> None:
    piece = terrain_preset(kind, (20.0, 20.0), f"{kind}-1")
    area = shapely.Polygon(piece.area)
    assert area.is_valid
    assert area.area > 1.0
    for feature in piece.features:
        assert shapely.Polygon(feature.shape).is_valid
        assert area.buffer(1e-9).covers(shapely.Polygon(feature.shape))
    with pytest.raises(ValueError, match="unknown terrain preset"):
        terrain_preset("castle", (0.0, 0.0), "c")


def test_overlap_pairs_are_exact_at_the_boundary() -> None:
    s = duel_scenario()
    gap = 32 / 25.4  # two 32 mm bases touch when their centres are one diameter apart
    touching = s.with_models([s.model("blue-1").placed(30.0 + gap, 16.0)])
    assert base_overlaps(touching) == ()
    overlapping = s.with_models([s.model("blue-1").placed(30.0 + gap - 1e-4, 16.0)])
    assert base_overlaps(overlapping) == (("blue-1", "red-1"),)
    assert base_overlaps(overlapping, frozenset({"red-squad"})) == (("blue-1", "red-1"),)


def _outline(model: Model) -> shapely.Polygon:
    base = model.base
    if isinstance(base, RectBase):
        a, b = base.half_extents
        return shapely.box(model.x - a, model.y - b, model.x + a, model.y + b)
    if isinstance(base, OvalBase):
        a, b = base.semi_axes
        circle = shapely.Point(model.x, model.y).buffer(1.0, 256)
        from shapely import affinity

        return affinity.scale(circle, a, b)
    return shapely.Point(model.x, model.y).buffer(base.radius, 256)
