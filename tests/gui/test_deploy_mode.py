"""Deploy mode in the real window: a whole Chapter Approved deployment of two small armies with
a TITANIC unit (set up by a click, by a drop from the dock's list and by the dock's call), an
illegal placement refused with the engine's reason, undo, and save and reopen keeping the
order."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from gui_helpers import duel_scenario, view_pos
from PySide6.QtCore import QMimeData, QPointF, Qt
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication

from engine.deploy_order import DeploymentRecord
from engine.model import CircleBase, Model, Scenario, Unit
from engine.rulesets import ruleset_for
from engine.scenario_io import load_scenario
from gui.docks.deploy import UNIT_MIME, DeployPanel

BASE = CircleBase(32)


def _unit(uid: str, player: str, *keywords: str, base: CircleBase = BASE) -> Unit:
    return Unit(uid, player, (Model(f"{uid}-1", 30.0, 22.0, base),), name=uid, keywords=keywords)


def armies() -> Scenario:
    """Dawn of War: red (Attacker) south, y 0-12; blue (Defender) north, y 32-44. Red has a
    TITANIC Knight; blue three units."""
    return replace(
        duel_scenario(),
        deployment="dawn-of-war",
        units=(),
        reserves=(
            _unit("red-knight", "red", "TITANIC", base=CircleBase(100)),
            _unit("red-squad", "red"),
            _unit("blue-a", "blue"),
            _unit("blue-b", "blue"),
            _unit("blue-c", "blue"),
        ),
    )


def _click(qtbot, window, point: tuple[float, float]) -> None:  # type: ignore[no-untyped-def]
    qtbot.mouseClick(
        window.view.viewport(),
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
        view_pos(window.view, *point),
    )


def _drop(window, unit_id: str, point: tuple[float, float]) -> None:  # type: ignore[no-untyped-def]
    """A drag of the unit entering the battlefield and dropped at ``point``."""
    data = QMimeData()
    data.setData(UNIT_MIME, unit_id.encode())
    where = view_pos(window.view, *point)
    viewport = window.view.viewport()
    enter = QDragEnterEvent(
        where,
        Qt.DropAction.MoveAction,
        data,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    QApplication.sendEvent(viewport, enter)
    assert enter.isAccepted()
    drop = QDropEvent(
        QPointF(where),
        Qt.DropAction.MoveAction,
        data,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    QApplication.sendEvent(viewport, drop)


def _choose(panel: DeployPanel, unit_id: str) -> None:
    for i in range(panel.next_units.count()):
        item = panel.next_units.item(i)
        item.setSelected(item.data(Qt.ItemDataRole.UserRole) == unit_id)


def test_a_whole_deployment_with_a_titanic_unit(qtbot, make_window, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    window = make_window(armies())
    panel: DeployPanel = window.deploy
    stack = window.document.undo_stack
    assert "Deploy Armies" in panel.rule_label.text()
    assert "starting with the Defender" in panel.rule_label.text()

    panel.start_button.click()
    assert stack.count() == 1
    assert "Blue" in panel.turn_label.text()
    assert "starting with the Defender (blue)" in panel.turn_label.text()
    next_ids = [
        panel.next_units.item(i).data(Qt.ItemDataRole.UserRole)
        for i in range(panel.next_units.count())
    ]
    assert next_ids == ["blue-a", "blue-b", "blue-c"]

    # An illegal placement: outside blue's zone, refused with the engine's reason, no step.
    _choose(panel, "blue-a")
    assert not panel.set_up_at((30.0, 20.0))
    assert "blue-a is not set up wholly within blue's deployment zone" in panel.message.text()
    assert "Deploy Armies" in panel.message.text()
    assert stack.count() == 1

    # Set up by a click on the battlefield after "Set up".
    _choose(panel, "blue-a")
    panel.set_up_button.setChecked(True)
    _click(qtbot, window, (10.0, 38.0))
    assert panel.recorded_order() == ("blue-a",)
    assert stack.count() == 2
    assert "Red" in panel.turn_label.text()

    # Red out of turn is refused later; now red sets up the TITANIC Knight by a drop.
    _drop(window, "red-knight", (30.0, 6.0))
    assert panel.recorded_order() == ("blue-a", "red-knight"), panel.message.text()
    assert panel.set_up_at((20.0, 38.0), "blue-b")
    assert "red set up a TITANIC unit and skips their next turn" in panel.turn_label.text()
    assert not panel.set_up_at((45.0, 6.0), "red-squad")
    assert "not red's turn" in panel.message.text()
    assert panel.set_up_at((40.0, 38.0), "blue-c")
    assert panel.set_up_at((45.0, 6.0), "red-squad")
    assert "Deployment complete" in panel.turn_label.text()
    assert stack.count() == 6
    assert panel.order_list.count() == 5
    assert "(TITANIC)" in panel.order_list.item(1).text()
    assert panel.flags.text() == ""
    scenario = window.document.scenario
    report = ruleset_for(scenario).report(scenario)
    assert [v for v in report.violations if v.rule == "Deploy Armies"] == []

    # Undo: the Undo step button and the undo stack both take one step back.
    panel.undo_button.click()
    assert panel.recorded_order() == ("blue-a", "red-knight", "blue-b", "blue-c")
    assert "red-squad" in {u.id for u in window.document.scenario.reserves}
    stack.undo()
    assert panel.recorded_order() == ("blue-a", "red-knight", "blue-b", "blue-c", "red-squad")
    stack.undo()
    stack.undo()
    assert panel.recorded_order() == ("blue-a", "red-knight", "blue-b")
    stack.redo()
    stack.redo()

    # Save and reopen: the order and the armies' places are kept.
    path = tmp_path / "deployed.warplan.json"
    assert window.files.save_to(path)
    reopened = load_scenario(path)
    record = DeploymentRecord.of(reopened)
    assert record is not None
    assert record.order == ("blue-a", "red-knight", "blue-b", "blue-c", "red-squad")
    again = make_window(reopened, path)
    assert again.deploy.recorded_order() == record.order
    assert again.deploy.order_list.count() == 5
    assert "Deployment complete" in again.deploy.turn_label.text()


def test_reserves_declared_before_the_first_step(make_window) -> None:  # type: ignore[no-untyped-def]
    window = make_window(armies())
    panel: DeployPanel = window.deploy
    for i in range(panel.reserves_list.count()):
        item = panel.reserves_list.item(i)
        if item.data(Qt.ItemDataRole.UserRole) == "blue-c":
            item.setCheckState(Qt.CheckState.Checked)
    panel.start_button.click()
    record = DeploymentRecord.of(window.document.scenario)
    assert record is not None
    assert record.reserves == ("blue-c",)
    ids = {panel.next_units.item(i).data(Qt.ItemDataRole.UserRole) for i in range(2)}
    assert ids == {"blue-a", "blue-b"}
    assert panel.next_units.count() == 2
    assert panel.set_up_at((10.0, 38.0), "blue-a")
    # Once a unit is set up the declaration is closed: the boxes cannot be changed.
    item = panel.reserves_list.item(0)
    assert not item.flags() & Qt.ItemFlag.ItemIsUserCheckable


def test_the_other_systems_rules_show_in_the_same_mode(make_window) -> None:  # type: ignore[no-untyped-def]
    """Scrollhammer's Deploy Forces and the Shared Scenario Modules' Battle Formations: the
    player going first sets up all their units, then the opponent."""
    shared = replace(armies(), ruleset="shared-modules", deployment=None)
    window = make_window(shared)
    panel: DeployPanel = window.deploy
    assert "Battle Formations" in panel.rule_label.text()
    panel.start_button.click()
    assert "red sets up all their units first" in panel.turn_label.text()
    assert panel.set_up_at((10.0, 5.0), "red-squad")
    assert not panel.set_up_at((10.0, 30.0), "red-knight")
    assert 'within 12" of their table edge' in panel.message.text()
    window.document.load(replace(armies(), ruleset="scrollhammer", deployment=None), None)
    assert "Deploy Forces" in panel.rule_label.text()
    assert "places his entire army" in panel.rule_label.text()


def test_the_reserves_dock_takes_the_deployments_turns(make_window) -> None:  # type: ignore[no-untyped-def]
    from gui.shapes import scene_point

    window = make_window(armies())
    window.deploy.start_button.click()
    window.view.scale(6.0, 6.0)  # zoomed in, so the view's centre can be put anywhere
    reserves = window.reserves
    stack = window.document.undo_stack

    def deploy_from_the_dock(unit_id: str, where: tuple[float, float]) -> str | None:
        window.view.centerOn(scene_point(*where))
        for top in range(reserves.tree.topLevelItemCount()):
            group = reserves.tree.topLevelItem(top)
            for row in range(group.childCount()):
                item = group.child(row)
                item.setSelected(item.data(0, Qt.ItemDataRole.UserRole) == unit_id)
        return reserves.deploy_chosen()

    # Red out of turn: refused with the engine's reason, nothing set up, no undo step.
    steps = stack.count()
    assert deploy_from_the_dock("red-squad", (30.0, 6.0)) is None
    assert "not red's turn" in reserves.message.text()
    assert stack.count() == steps
    # Blue's turn: the dock's Deploy is the deployment's next step, named as one.
    assert deploy_from_the_dock("blue-a", (12.0, 34.0)) == "blue-a", reserves.message.text()
    assert window.deploy.recorded_order() == ("blue-a",)
    assert stack.undoText() == "Deployment step 1: set up blue-a"
    assert "Red" in window.deploy.turn_label.text()
