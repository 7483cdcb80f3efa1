"""The Ruling, Inspector and Palette docks, the measuring tool, overlaps and overlay toggles."""

from __future__ import annotations

from dataclasses import replace

import pytest
from gui_helpers import BASE_32, drag, duel_scenario, move_pressed, view_pos
from PySide6.QtCore import Qt

from engine import geometry
from engine.model import Model, TerrainFeature, TerrainPiece, Unit


def test_ruling_for_a_selected_objective_names_models_and_distances(qtbot, make_window) -> None:
    window = make_window()
    drag(qtbot, window.view, (30.0, 16.0), (30.0, 20.0))
    window.scene.select_ids({"obj-centre"})
    text = window.ruling.ruling_text()
    assert "Ruling: obj-centre" in text
    assert "Red controls" in text
    assert "red-1 is " in text
    assert '(within 3")' in text
    assert "blue-1 is " in text


def test_ruling_for_a_unit_includes_line_of_sight(qtbot, make_window) -> None:
    window = make_window()
    window.scene.select_ids({"red-squad"})
    assert window.live.wait_for_visibility(30_000)
    qtbot.waitUntil(lambda: "red-1 sees blue-1" in window.ruling.ruling_text(), timeout=5_000)
    text = window.ruling.ruling_text()
    assert "Table quarter:" in text
    assert "blue-squad: fully visible" in text


def test_line_of_sight_overlay_marks_visible_and_hidden_targets(qtbot, make_window) -> None:
    wall = TerrainPiece(
        "wall",
        ((25.0, 21.5), (35.0, 21.5), (35.0, 22.5), (25.0, 22.5)),
        kind="container",
        features=(TerrainFeature(((25.0, 21.5), (35.0, 21.5), (35.0, 22.5), (25.0, 22.5)), 5.0),),
    )
    side = Unit("blue-side", "blue", (Model("blue-2", 45.0, 16.0, BASE_32),), name="Flank")
    scenario = replace(duel_scenario(), terrain=(wall,), objectives=())
    scenario = replace(scenario, units=(*scenario.units, side))
    window = make_window(scenario)
    window.scene.select_ids({"red-squad"})
    assert window.live.wait_for_visibility(30_000)
    layer = window.sight.selected_layer
    qtbot.waitUntil(lambda: len(layer.keys()) == 2, timeout=5_000)
    labels = layer.label_texts()
    assert labels[("target", "blue-squad")].startswith("hidden\n")
    assert labels[("target", "blue-side")].startswith("fully visible")
    # Rings round the target's model plus the witness sight line.
    assert len(layer.item(("target", "blue-side"))._strokes) == 2  # noqa: SLF001
    assert len(layer.item(("target", "blue-squad"))._strokes) == 1  # noqa: SLF001
    # The Ruling dock's line of sight is read from the same result the overlay draws.
    sight = window.live.sight.result
    assert window.live.visibility.pairs == sight.row("red-squad")


def test_inspector_edits_are_typed_and_undoable(qtbot, make_window) -> None:
    from PySide6.QtWidgets import QDoubleSpinBox

    window = make_window()
    window.scene.select_ids({"red-1"})
    box = window.inspector.findChild(QDoubleSpinBox, "inspector-x")
    assert box is not None
    assert box.value() == pytest.approx(30.0)
    assert box.maximum() == pytest.approx(60.0)
    box.setValue(12.5)
    box.editingFinished.emit()
    assert window.document.scenario.model("red-1").x == pytest.approx(12.5)
    assert window.document.undo_stack.count() == 1
    box.setValue(99.0)  # beyond the table: the field clamps it
    assert box.value() == pytest.approx(60.0)
    window.document.undo_stack.undo()
    assert window.document.scenario.model("red-1").x == pytest.approx(30.0)
    assert box.value() == pytest.approx(30.0)


def test_palette_adds_a_unit_in_coherency_and_terrain(make_window) -> None:
    window = make_window()
    palette = window.palette_panel
    palette.unit_models.setValue(10)
    palette.unit_name.setText("Boyz Mob")
    palette.add_unit()
    scenario = window.document.scenario
    unit = next(u for u in scenario.units if u.name == "Boyz Mob")
    assert len(unit.models) == 10
    assert unit.keywords == ("BATTLELINE", "INFANTRY")
    for model in unit.models:
        near = [
            o for o in unit.models if o.id != model.id and geometry.model_distance(model, o) <= 2.0
        ]
        assert len(near) >= 2, model.id
    assert window.scene.selection().units == frozenset({unit.id})

    piece_id = palette.add_terrain_preset("ruin")
    assert piece_id in window.scene.terrain
    assert len(window.document.scenario.terrain_piece(piece_id).features) == 2
    window.document.undo_stack.undo()
    assert piece_id not in window.scene.terrain
    window.document.undo_stack.undo()
    assert all(u.name != "Boyz Mob" for u in window.document.scenario.units)


def test_drawn_polygon_becomes_a_terrain_area(qtbot, make_window) -> None:
    window = make_window()
    window.set_tool("polygon")
    view = window.view
    for x, y in ((5.0, 5.0), (12.0, 5.0), (12.0, 10.0), (5.0, 10.0)):
        qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=view_pos(view, x, y))
    qtbot.keyClick(view, Qt.Key.Key_Return)
    pieces = window.document.scenario.terrain
    assert len(pieces) == 1
    assert len(pieces[0].area) == 4
    pixel = 1 / view.pixels_per_inch()
    assert pieces[0].area[1][0] == pytest.approx(12.0, abs=2 * pixel)
    assert window.tool_actions["select"].isChecked()


def test_measuring_between_two_bases_gives_the_closest_points_distance(qtbot, make_window) -> None:
    scenario = duel_scenario()
    scenario = scenario.with_models([scenario.model("blue-1").placed(33.0, 16.0)])
    window = make_window(scenario)
    window.set_tool("measure")
    view = window.view
    qtbot.mousePress(view.viewport(), Qt.MouseButton.LeftButton, pos=view_pos(view, 30.0, 16.0))
    move_pressed(view.viewport(), view_pos(view, 32.0, 16.0))
    qtbot.mouseRelease(view.viewport(), Qt.MouseButton.LeftButton, pos=view_pos(view, 33.0, 16.0))
    assert view.last_distance == pytest.approx(3.0 - 32 / 25.4, abs=1e-9)
    # Measuring moved nothing.
    assert window.document.undo_stack.count() == 0


def test_overlapping_bases_are_flagged(qtbot, make_window) -> None:
    window = make_window()
    assert not window.scene.models["red-1"].overlapping
    drag(qtbot, window.view, (30.0, 16.0), (30.0, 26.5))
    assert window.scene.models["red-1"].overlapping
    assert window.scene.models["blue-1"].overlapping
    window.document.undo_stack.undo()
    assert not window.scene.models["red-1"].overlapping
    assert not window.scene.models["blue-1"].overlapping


def test_delete_and_overlay_toggles(make_window) -> None:
    window = make_window()
    layer = window.overlays.layers["objectives"]
    ring = layer.item(("objective", "obj-centre"))
    assert ring is not None
    assert ring.isVisible()
    window.overlay_actions["objectives"].setChecked(False)
    assert not ring.isVisible()
    window.overlay_actions["objectives"].setChecked(True)
    assert ring.isVisible()

    window.scene.select_ids({"blue-squad"})
    window.delete_selected()
    assert "blue-1" not in window.scene.models
    assert all(u.id != "blue-squad" for u in window.document.scenario.units)
    window.document.undo_stack.undo()
    assert "blue-1" in window.scene.models


def test_quarters_overlay_reports_presence(make_window) -> None:
    scenario = duel_scenario()
    scenario = scenario.with_models([scenario.model("red-1").placed(10.0, 10.0)])
    window = make_window(scenario)
    labels = window.overlays.layers["quarters"].label_texts()
    assert labels[("presence", "SW")] == "SW quarter: Red"
    assert labels[("presence", "NE")] == "NE quarter: nobody"


def test_engagement_overlay_rings_the_selected_unit_and_links_engaged_models(
    qtbot, make_window
) -> None:
    window = make_window()
    layer = window.overlays.layers["engagement"]
    assert layer.keys() == []
    # 1.5" edge to edge: engaged (within 2").
    drag(qtbot, window.view, (30.0, 16.0), (30.0, 27.0 - 32 / 25.4 - 1.5))
    assert window.live.evaluation.unit("red-squad").engaged_with == ("blue-squad",)
    keys = set(layer.keys())
    assert ("ring", "red-1") in keys
    assert ("pair", "blue-1", "red-1") in keys or ("pair", "red-1", "blue-1") in keys
    # Nothing selected and "all units" off: no engagement drawing.
    window.scene.select_ids(set())
    assert layer.keys() == []
    window.action_engagement_all.setChecked(True)
    assert any(key[0] == "pair" for key in layer)


def test_wheel_zooms_and_middle_button_pans(qtbot, make_window) -> None:
    from PySide6.QtCore import QEvent, QPoint, QPointF
    from PySide6.QtGui import QMouseEvent, QWheelEvent
    from PySide6.QtWidgets import QApplication

    window = make_window()
    view = window.view
    fitted = view.pixels_per_inch()
    centre = QPointF(view.viewport().rect().center())
    wheel = QWheelEvent(
        centre,
        QPointF(view.viewport().mapToGlobal(centre.toPoint())),
        QPoint(0, 0),
        QPoint(0, 240),
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
        Qt.ScrollPhase.NoScrollPhase,
        False,
    )
    QApplication.sendEvent(view.viewport(), wheel)
    assert view.pixels_per_inch() == pytest.approx(fitted * 1.18**2)
    # Zoomed in further, the view has room to pan whatever the window's layout.
    QApplication.sendEvent(view.viewport(), wheel)
    assert view.pixels_per_inch() == pytest.approx(fitted * 1.18**4)
    before = view.mapToScene(view.viewport().rect().center())
    start = view.viewport().rect().center()
    qtbot.mousePress(view.viewport(), Qt.MouseButton.MiddleButton, pos=start)
    move = QMouseEvent(
        QEvent.Type.MouseMove,
        QPointF(start + QPoint(-100, 0)),
        QPointF(view.viewport().mapToGlobal(start + QPoint(-100, 0))),
        Qt.MouseButton.NoButton,
        Qt.MouseButton.MiddleButton,
        Qt.KeyboardModifier.NoModifier,
    )
    QApplication.sendEvent(view.viewport(), move)
    qtbot.mouseRelease(view.viewport(), Qt.MouseButton.MiddleButton, pos=start + QPoint(-100, 0))
    after = view.mapToScene(view.viewport().rect().center())
    assert after.x() - before.x() == pytest.approx(100 / view.pixels_per_inch(), rel=0.05)
    window.action_fit.trigger()
    assert view.pixels_per_inch() == pytest.approx(fitted)
    assert window.document.undo_stack.count() == 0
