"""Dragging with real mouse events: documents change, one drag is one undo step, overlays follow."""

from __future__ import annotations

import pytest
from gui_helpers import drag, duel_scenario, move_pressed, view_pos
from PySide6.QtCore import QPoint, Qt

from gui.shapes import scene_point


def test_dragging_a_model_moves_it_as_one_undo_step(qtbot, make_window) -> None:
    window = make_window()
    start = window.document.scenario.model("red-1")
    drag(qtbot, window.view, (start.x, start.y), (start.x + 4.0, start.y + 2.0), steps=10)
    moved = window.document.scenario.model("red-1")
    pixel = 1 / window.view.pixels_per_inch()
    assert moved.x == pytest.approx(start.x + 4.0, abs=2 * pixel)
    assert moved.y == pytest.approx(start.y + 2.0, abs=2 * pixel)
    assert window.document.undo_stack.count() == 1
    assert window.document.is_modified
    assert window.windowTitle().startswith("Duel[*]")
    assert window.isWindowModified()
    item = window.scene.models["red-1"]
    assert item.pos().x() == pytest.approx(moved.x)
    assert item.pos().y() == pytest.approx(-moved.y)

    window.document.undo_stack.undo()
    back = window.document.scenario.model("red-1")
    assert (back.x, back.y) == (start.x, start.y)
    assert window.scene.models["red-1"].pos().x() == pytest.approx(start.x)
    assert not window.document.is_modified
    window.document.undo_stack.redo()
    assert window.document.scenario.model("red-1").x == pytest.approx(moved.x)


def test_shift_drag_moves_the_whole_unit(qtbot, make_window) -> None:
    from engine.model import CircleBase, Model, Unit

    scenario = duel_scenario()
    squad = Unit(
        "red-five",
        "red",
        tuple(Model(f"red-five-{i}", 10.0 + 1.5 * i, 8.0, CircleBase(32)) for i in range(5)),
        name="Five",
    )
    from dataclasses import replace

    window = make_window(replace(scenario, units=(*scenario.units, squad)))
    drag(qtbot, window.view, (10.0, 8.0), (10.0, 13.0), modifier=Qt.KeyboardModifier.ShiftModifier)
    unit = window.document.scenario.unit("red-five")
    pixel = 1 / window.view.pixels_per_inch()
    for i, model in enumerate(unit.models):
        assert model.x == pytest.approx(10.0 + 1.5 * i, abs=2 * pixel)
        assert model.y == pytest.approx(13.0, abs=2 * pixel)
    assert window.document.undo_stack.count() == 1


def test_rubber_band_selects_several_and_they_drag_together(qtbot, make_window) -> None:
    window = make_window()
    view = window.view
    # Both units sit on x = 30; a band from (24, 34) to (33, 13) covers both.
    assert window.scene.entity_item_at(scene_point(24, 34)) is None
    qtbot.mousePress(view.viewport(), Qt.MouseButton.LeftButton, pos=view_pos(view, 24, 34))
    move_pressed(view.viewport(), view_pos(view, 31, 20))
    move_pressed(view.viewport(), view_pos(view, 33, 13))
    qtbot.mouseRelease(view.viewport(), Qt.MouseButton.LeftButton, pos=view_pos(view, 33, 13))
    selection = window.scene.selection()
    assert {"red-1", "blue-1"} <= set(selection.models)
    drag(qtbot, view, (30.0, 16.0), (25.0, 16.0))
    scenario = window.document.scenario
    pixel = 1 / view.pixels_per_inch()
    assert scenario.model("red-1").x == pytest.approx(25.0, abs=2 * pixel)
    assert scenario.model("blue-1").x == pytest.approx(25.0, abs=2 * pixel)
    assert window.document.undo_stack.count() == 1


def test_arrow_keys_nudge_and_merge_into_one_step(qtbot, make_window) -> None:
    window = make_window()
    window.scene.select_ids({"red-1"})
    window.view.setFocus()
    for _ in range(3):
        qtbot.keyClick(window.view, Qt.Key.Key_Right)
    qtbot.keyClick(window.view, Qt.Key.Key_Up, Qt.KeyboardModifier.ShiftModifier)
    model = window.document.scenario.model("red-1")
    assert model.x == pytest.approx(30.3)
    assert model.y == pytest.approx(17.0)
    assert window.document.undo_stack.count() == 1
    window.document.undo_stack.undo()
    assert window.document.scenario.model("red-1").x == 30.0


def test_snapping_lands_on_the_half_inch_grid(qtbot, make_window) -> None:
    window = make_window()
    window.action_snap.setChecked(True)
    drag(qtbot, window.view, (30.0, 16.0), (33.37, 18.81))
    model = window.document.scenario.model("red-1")
    assert (model.x, model.y) == (33.5, 19.0)


def test_dragging_into_range_changes_control_in_document_and_overlay(qtbot, make_window) -> None:
    window = make_window()
    live = window.live
    assert live.evaluation is not None
    # Red's model centre is 6" from the objective's centre: out of range (3" from the rim).
    before = live.evaluation.objective("obj-centre")
    assert before.controlled_by == ()
    layer = window.overlays.layers["objectives"]
    assert "nobody" in layer.label_texts()[("objective", "obj-centre")]

    # 2" south of the objective's centre: well within 3" of its rim.
    drag(qtbot, window.view, (30.0, 16.0), (30.0, 20.0), steps=12)
    after = live.evaluation.objective("obj-centre")
    assert after.controlled_by == ("red",)
    assert after.level["red"] == 2
    assert "red-1" in after.in_range["red"]
    assert "Red controls" in layer.label_texts()[("objective", "obj-centre")]
    ring_pen = layer.item(("objective", "obj-centre"))._strokes[0].pen  # noqa: SLF001
    assert ring_pen.color().name() == "#c0392b"

    window.document.undo_stack.undo()
    assert live.evaluation.objective("obj-centre").controlled_by == ()
    assert "nobody" in layer.label_texts()[("objective", "obj-centre")]


def test_dragging_a_unit_label_terrain_and_objective(qtbot, make_window) -> None:
    from dataclasses import replace

    from engine.edits import terrain_preset

    scenario = duel_scenario()
    scenario = replace(scenario, terrain=(terrain_preset("crater", (10.0, 35.0), "crater-1"),))
    window = make_window(scenario)
    view = window.view
    label = window.scene.unit_labels["red-squad"]
    label_point = view.mapFromScene(label.scenePos())
    start = label_point + QPoint(0, -8)  # inside the tag, which sits above its anchor
    end = start + QPoint(round(3 * view.pixels_per_inch()), 0)
    qtbot.mousePress(view.viewport(), Qt.MouseButton.LeftButton, pos=start)
    move_pressed(view.viewport(), end)
    qtbot.mouseRelease(view.viewport(), Qt.MouseButton.LeftButton, pos=end)
    pixel = 1 / view.pixels_per_inch()
    assert window.document.scenario.model("red-1").x == pytest.approx(33.0, abs=2 * pixel)

    drag(qtbot, view, (10.0, 35.0), (14.0, 31.0))
    x0, y0 = window.document.scenario.terrain_piece("crater-1").area[0]
    assert x0 == pytest.approx(12.5 + 4.0, abs=2 * pixel)
    assert y0 == pytest.approx(35.0 - 4.0, abs=2 * pixel)

    drag(qtbot, view, (30.0, 22.0), (40.0, 22.0))
    assert window.document.scenario.objective("obj-centre").x == pytest.approx(40.0, abs=2 * pixel)
    assert window.document.undo_stack.count() == 3


def test_r_rotates_ovals_and_hulls(qtbot, make_window) -> None:
    from dataclasses import replace

    from engine.model import Model, OvalBase, Unit

    bikes = Unit("red-bikes", "red", (Model("red-bike-1", 10.0, 10.0, OvalBase(75, 42)),))
    window = make_window(replace(duel_scenario(), units=(*duel_scenario().units, bikes)))
    window.scene.select_ids({"red-bike-1"})
    window.view.setFocus()
    qtbot.keyClick(window.view, Qt.Key.Key_R)
    qtbot.keyClick(window.view, Qt.Key.Key_R)
    assert window.document.scenario.model("red-bike-1").rotation == pytest.approx(30.0)
    assert window.scene.models["red-bike-1"].rotation() == pytest.approx(-30.0)
    qtbot.keyClick(window.view, Qt.Key.Key_R, Qt.KeyboardModifier.ShiftModifier)
    assert window.document.scenario.model("red-bike-1").rotation == pytest.approx(15.0)
