"""Ordinary edits keep the document saveable (issue 12, case 4); deleted things leave the board
(case 5); an unchanged Inspector field makes no undo step (case 9).

Each test makes the edit the way the user does (buttons, the Inspector, clicks on the board)
and then saves: the file reader is the judge.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from gui_helpers import duel_scenario, view_pos
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QDoubleSpinBox, QLineEdit

from engine.edits import Selection, move_selection
from engine.model import CustomDeployment, DeploymentRegion, TerrainPiece
from engine.references import known_ids
from engine.scenario_io import load_scenario
from gui.app import DEMO_SCENARIO
from gui.files import read_scenario
from gui.shapes import scene_point

ASSETS = Path(__file__).resolve().parents[2] / "assets"
FORMATIONS = ASSETS / "shared-modules" / "battle-formations-demo.warplan.json"


def _saved_and_reread(window, path: Path) -> None:  # type: ignore[no-untyped-def]
    assert window.files.save_to(path), "the edited document could not be saved"
    assert read_scenario(path) == window.document.scenario


def _scene_matches_document(window) -> None:  # type: ignore[no-untyped-def]
    shown = window.scene.shown_ids()
    known = known_ids(window.document.scenario)
    for kind in ("models", "units", "terrain", "objectives", "markers"):
        assert shown[kind] == known[kind], kind


def test_deleting_an_objective_after_two_next_steps_saves(make_window, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    window = make_window(load_scenario(DEMO_SCENARIO))
    turn = window.plugins["wh40k-ca2026"].turn
    turn.next_button.click()
    turn.next_button.click()
    game = window.document.scenario.game
    recorded = [
        objective
        for entry in game["players"].values()
        for objective in entry.get("controlled_at_start_of_turn", ())
    ]
    assert "obj-expansion-e" in recorded
    window.scene.select_ids({"obj-expansion-e"})
    window.delete_selected()
    assert "obj-expansion-e" not in known_ids(window.document.scenario)["objectives"]
    _saved_and_reread(window, tmp_path / "after-delete.warplan.json")
    window.document.undo_stack.undo()
    assert window.document.scenario.objective("obj-expansion-e")
    _scene_matches_document(window)


def test_deleting_the_scout_unit_saves(make_window, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    window = make_window(load_scenario(FORMATIONS))
    window.scene.select_ids({"blue-scouts"})
    window.delete_selected()
    assert window.document.scenario.game["shared_modules"]["scout_and_secure"] == {}
    _saved_and_reread(window, tmp_path / "no-scouts.warplan.json")
    _scene_matches_document(window)


def _click(qtbot, window, x: float, y: float) -> None:  # type: ignore[no-untyped-def]
    qtbot.mouseClick(
        window.view.viewport(), Qt.MouseButton.LeftButton, pos=view_pos(window.view, x, y)
    )


def test_a_crossing_outline_is_refused_while_it_is_drawn(qtbot, make_window) -> None:  # type: ignore[no-untyped-def]
    window = make_window()
    window.set_tool("polygon")
    refused: list[str] = []
    window.view.drawing_refused.connect(refused.append)
    for x, y in ((10.0, 10.0), (20.0, 20.0), (20.0, 10.0), (10.0, 20.0)):
        _click(qtbot, window, x, y)
    assert len(refused) == 1
    assert "cross" in refused[0]
    assert "cross" in window.statusBar().currentMessage()
    label = window.view._tool_label
    assert label.isVisible()
    assert "Not drawn" in label.text()
    _click(qtbot, window, 12.0, 8.0)
    qtbot.keyClick(window.view, Qt.Key.Key_Return)
    assert len(window.document.scenario.terrain) == 1
    assert len(window.document.scenario.terrain[0].area) == 4


def test_three_corners_on_one_line_are_refused_at_the_finish(qtbot, make_window) -> None:  # type: ignore[no-untyped-def]
    window = make_window()
    window.set_tool("polygon")
    refused: list[str] = []
    window.view.drawing_refused.connect(refused.append)
    for x, y in ((10.0, 10.0), (15.0, 10.0), (20.0, 10.0)):
        _click(qtbot, window, x, y)
    qtbot.keyClick(window.view, Qt.Key.Key_Return)
    assert window.document.scenario.terrain == ()
    assert window.document.undo_stack.count() == 0
    assert refused
    assert "one line" in refused[-1]
    assert window.tool_actions["polygon"].isChecked()
    _click(qtbot, window, 15.0, 16.0)
    qtbot.keyClick(window.view, Qt.Key.Key_Return)
    assert len(window.document.scenario.terrain) == 1


def _inspect(window, entity_id: str):  # type: ignore[no-untyped-def]
    window.scene.select_ids({entity_id})
    return window.inspector


@pytest.mark.parametrize(
    ("objective_id", "role", "owner"),
    [("obj-home-red", "central", None), ("obj-centre", "home", "red")],
)
def test_an_inspector_role_change_fixes_the_owner(  # type: ignore[no-untyped-def]
    make_window, tmp_path: Path, objective_id: str, role: str, owner: str | None
) -> None:
    window = make_window(load_scenario(DEMO_SCENARIO))
    inspector = _inspect(window, objective_id)
    combo = inspector.findChild(QComboBox, "inspector-role")
    combo.setCurrentIndex(combo.findData(role))
    objective = window.document.scenario.objective(objective_id)
    assert (objective.role, objective.owner) == (role, owner)
    assert window.document.undo_stack.count() == 1
    owner_box = inspector.findChild(QComboBox, "inspector-owner")
    assert owner_box.isEnabled() == (role == "home")
    _saved_and_reread(window, tmp_path / "role.warplan.json")


def test_an_owner_for_a_central_objective_is_refused_with_the_reason(make_window) -> None:  # type: ignore[no-untyped-def]
    window = make_window(load_scenario(DEMO_SCENARIO))
    inspector = _inspect(window, "obj-centre")
    owner_box = inspector.findChild(QComboBox, "inspector-owner")
    owner_box.setCurrentIndex(owner_box.findData("red"))
    assert window.document.scenario.objective("obj-centre").owner is None
    assert window.document.undo_stack.count() == 0
    assert not inspector.refusal.isHidden()
    assert "only home objectives" in inspector.refusal.text()
    assert owner_box.currentData() is None


def test_a_new_objective_never_takes_a_custom_zone_id(make_window, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    zone = DeploymentRegion("obj-1", "red", ((0, 0), (60, 0), (60, 6), (0, 6)))
    scenario = duel_scenario()
    window = make_window(replace(scenario, deployment=CustomDeployment(zones=(zone,))))
    objective_id = window.palette_panel.add_objective()
    assert objective_id != "obj-1"
    _saved_and_reread(window, tmp_path / "zone.warplan.json")


def test_a_deleted_model_leaves_the_board(qtbot, make_window) -> None:  # type: ignore[no-untyped-def]
    window = make_window(load_scenario(DEMO_SCENARIO))
    model = window.document.scenario.model("red-hel-3")
    window.scene.select_ids({"red-hel-3"})
    window.delete_selected()
    assert "red-hel-3" not in window.scene.models
    _scene_matches_document(window)
    # Clicking where it stood selects nothing that is gone, and raises nothing.
    _click(qtbot, window, model.x, model.y)
    assert "red-hel-3" not in window.scene.selection().models
    window.document.undo_stack.undo()
    assert "red-hel-3" in window.scene.models
    _scene_matches_document(window)
    window.document.undo_stack.redo()
    assert "red-hel-3" not in window.scene.models
    _scene_matches_document(window)


def test_deleting_a_selected_model_with_its_unit_selected_raises_nothing(make_window) -> None:  # type: ignore[no-untyped-def]
    window = make_window(load_scenario(DEMO_SCENARIO))
    window.scene.select_ids({"red-hel-3", "red-hel-4"})
    window.delete_selected()
    assert window.scene.selection().models == frozenset()
    window.scene.select_ids({"red-hel-5"})
    assert window.inspector._subject == ("model", "red-hel-5")
    window.document.undo_stack.undo()
    window.scene.select_ids({"red-hel-3"})
    window.document.undo_stack.redo()
    assert window.inspector._subject is None
    _scene_matches_document(window)


def test_enter_in_an_unchanged_field_makes_no_undo_step(qtbot, make_window) -> None:  # type: ignore[no-untyped-def]
    window = make_window()
    inspector = _inspect(window, "red-squad")
    keywords = inspector.findChild(QLineEdit, "inspector-keywords")
    keywords.setFocus()
    keywords.setText("infantry, core ")
    qtbot.keyClick(keywords, Qt.Key.Key_Return)
    assert window.document.scenario.unit("red-squad").keywords == ("INFANTRY", "CORE")
    assert window.document.undo_stack.count() == 1
    qtbot.keyClick(keywords, Qt.Key.Key_Return)
    qtbot.keyClick(keywords, Qt.Key.Key_Return)
    assert window.document.undo_stack.count() == 1
    window.document.undo_stack.setClean()

    name = inspector.findChild(QLineEdit, "inspector-name")
    name.setFocus()
    qtbot.keyClick(name, Qt.Key.Key_Return)
    assert window.document.undo_stack.count() == 1
    assert not window.document.is_modified


def test_enter_on_a_rounded_position_makes_no_undo_step(qtbot, make_window) -> None:  # type: ignore[no-untyped-def]
    scenario = duel_scenario()
    scenario = scenario.with_models([scenario.model("red-1").placed(30.123456, 16.0)])
    window = make_window(scenario)
    inspector = _inspect(window, "red-1")
    x = inspector.findChild(QDoubleSpinBox, "inspector-x")
    assert x.value() == pytest.approx(30.12)
    x.setFocus()
    qtbot.keyClick(x, Qt.Key.Key_Return)
    qtbot.keyClick(x, Qt.Key.Key_Return)
    assert window.document.undo_stack.count() == 0
    assert not window.document.is_modified
    assert window.document.scenario.model("red-1").x == 30.123456
    x.setValue(31.5)
    qtbot.keyClick(x, Qt.Key.Key_Return)
    assert window.document.undo_stack.count() == 1
    assert window.document.scenario.model("red-1").x == pytest.approx(31.5)


def test_a_terrain_area_of_several_footprints_is_drawn_and_moved_whole(make_window) -> None:  # type: ignore[no-untyped-def]
    left = ((10.0, 10.0), (12.0, 10.0), (12.0, 12.0), (10.0, 12.0))
    right = ((20.0, 10.0), (22.0, 10.0), (22.0, 12.0), (20.0, 12.0))
    piece = TerrainPiece("split-ruin", left, other_footprints=(right,))
    window = make_window(replace(duel_scenario(), terrain=(piece,)))
    item = window.scene.terrain["split-ruin"]
    assert item.area_path().contains(scene_point(21.0, 11.0))
    moved = move_selection(
        window.document.scenario, Selection(terrain=frozenset({"split-ruin"})), 0.0, 5.0
    )
    window.document.apply(moved, "Move")
    assert item.area_path().contains(scene_point(21.0, 16.0))
    assert not item.area_path().contains(scene_point(21.0, 11.0))


def test_undoing_the_subject_away_while_its_field_has_focus_raises_nothing(  # type: ignore[no-untyped-def]
    qtbot, make_window
) -> None:
    window = make_window()
    window.palette_panel.add_unit()
    unit_id = next(iter(window.scene.selection().units))
    inspector = window.inspector
    assert inspector._subject == ("unit", unit_id)
    name = inspector.findChild(QLineEdit, "inspector-name")
    name.setFocus()
    qtbot.keyClicks(name, " renamed")
    steps = window.document.undo_stack.count()
    window.document.undo_stack.undo()
    assert unit_id not in known_ids(window.document.scenario)["units"]
    assert window.document.undo_stack.index() == steps - 1
    window.view.setFocus()
    qtbot.wait(10)
    assert window.document.undo_stack.index() == steps - 1
    assert inspector._subject is None
