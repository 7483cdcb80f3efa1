"""Annotations from the real window: drawn with the Tools, selectable, movable, deletable,
undoable, saved in the file, and exported with PNG, SVG and PDF."""

from __future__ import annotations

from pathlib import Path

import pytest
from gui_helpers import drag

from engine import geometry
from engine.scenario_io import load_scenario

PNG_MAGIC = b"\x89PNG"


def test_arrow_tool_adds_one_undoable_arrow(make_window, qtbot) -> None:
    window = make_window()
    window.tool_actions["arrow"].trigger()
    assert window.view.tool == "arrow"
    drag(qtbot, window.view, (10.0, 10.0), (20.0, 14.0))
    (arrow,) = window.document.scenario.annotations
    assert arrow.kind == "arrow"
    assert arrow.x == pytest.approx(10.0, abs=0.1)
    assert arrow.to_x == pytest.approx(20.0, abs=0.1)
    assert window.scene.shown_ids()["annotations"] == {arrow.id}
    window.action_undo.trigger()
    assert window.document.scenario.annotations == ()
    assert window.scene.shown_ids()["annotations"] == frozenset()
    window.action_redo.trigger()
    assert window.scene.shown_ids()["annotations"] == {arrow.id}


def test_a_click_with_the_arrow_tool_draws_nothing(make_window, qtbot) -> None:
    window = make_window()
    window.set_tool("arrow")
    drag(qtbot, window.view, (10.0, 10.0), (10.0, 10.0), steps=1)
    assert window.document.scenario.annotations == ()


def test_callout_asks_its_text_and_is_selected_moved_and_deleted(make_window, qtbot) -> None:
    window = make_window()
    window.ask_text = lambda parent, title, label: 'Wholly within 3"'
    window.set_tool("callout")
    drag(qtbot, window.view, (12.0, 30.0), (18.0, 36.0))
    (callout,) = window.document.scenario.annotations
    assert (callout.kind, callout.text) == ("text", 'Wholly within 3"')
    item = window.scene.annotations[callout.id]
    assert item.label.text() == 'Wholly within 3"'
    assert item.label.isVisible()
    window.set_tool("select")
    # Drag the callout by its line, halfway between its point and its box.
    drag(qtbot, window.view, (15.0, 33.0), (20.0, 33.0))
    (moved,) = window.document.scenario.annotations
    assert moved.x - callout.x == pytest.approx(5.0, abs=0.15)
    assert moved.to_x - callout.to_x == pytest.approx(5.0, abs=0.15)
    assert window.scene.selected_annotation_ids() == {callout.id}
    window.delete_selected()
    assert window.document.scenario.annotations == ()
    window.action_undo.trigger()
    assert [a.id for a in window.document.scenario.annotations] == [callout.id]


def test_cancelled_callout_adds_nothing(make_window, qtbot) -> None:
    window = make_window()
    window.ask_text = lambda parent, title, label: None
    window.set_tool("callout")
    drag(qtbot, window.view, (12.0, 30.0), (12.0, 30.0), steps=1)
    assert window.document.scenario.annotations == ()


def test_kept_ruler_shows_the_engine_distance_and_follows_the_models(make_window, qtbot) -> None:
    window = make_window()  # Red's model at (30, 16), Blue's at (30, 27), 32 mm bases
    window.set_tool("ruler")
    drag(qtbot, window.view, (30.0, 16.0), (30.0, 27.0))
    (ruler,) = window.document.scenario.annotations
    assert (ruler.kind, ruler.from_model, ruler.to_model) == ("measure", "red-1", "blue-1")
    scenario = window.document.scenario
    expected = geometry.model_distance(scenario.model("red-1"), scenario.model("blue-1"))
    label = window.scene.annotations[ruler.id].label
    assert label.text() == f'{expected:.2f}"'
    window.set_tool("select")
    drag(qtbot, window.view, (30.0, 27.0), (30.0, 33.0))
    scenario = window.document.scenario
    later = geometry.model_distance(scenario.model("red-1"), scenario.model("blue-1"))
    assert later > expected + 5.0
    assert label.text() == f'{later:.2f}"'


def test_annotations_are_saved_and_open_again(make_window, qtbot, tmp_path: Path) -> None:
    window = make_window()
    window.ask_text = lambda parent, title, label: "Out of range"
    window.set_tool("callout")
    drag(qtbot, window.view, (40.0, 30.0), (46.0, 36.0))
    window.set_tool("arrow")
    drag(qtbot, window.view, (5.0, 5.0), (9.0, 9.0))
    path = tmp_path / "ruling.warplan.json"
    assert window.files.save_to(path)
    saved = load_scenario(path)
    assert [a.kind for a in saved.annotations] == ["text", "arrow"]
    again = make_window(saved, path)
    assert again.scene.shown_ids()["annotations"] == {a.id for a in saved.annotations}


def test_export_carries_the_annotations(make_window, qtbot, tmp_path: Path) -> None:
    window = make_window()
    window.ask_text = lambda parent, title, label: "Engaged: 0.98 inches apart"
    window.set_tool("callout")
    drag(qtbot, window.view, (8.0, 36.0), (14.0, 40.0))
    svg = window.export_to(tmp_path / "ruling.svg", caption="Ruling", include_ruling=False)
    assert svg is not None
    assert "Engaged: 0.98 inches apart" in svg.read_text(encoding="utf-8")
    png = window.export_to(tmp_path / "ruling.png")
    assert png is not None
    assert png.read_bytes()[:4] == PNG_MAGIC
    pdf = window.export_to(tmp_path / "ruling.pdf")
    assert pdf is not None
    assert pdf.read_bytes()[:5] == b"%PDF-"


def test_tools_are_in_the_tools_menu(make_window) -> None:
    window = make_window()
    for tool, key in (("arrow", "A"), ("callout", "T"), ("ruler", "K")):
        assert window.tool_actions[tool].shortcut().toString() == key
