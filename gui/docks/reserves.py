"""The Reserves dock: each player's units that are part of the army but not on the table.

An imported army list can arrive here; a unit comes off the tray in coherency at the centre of
the view (one undo step), and the selected unit goes back onto it. No rule sees the tray: the
engine keeps it apart from the battlefield's units. While a recorded deployment is under way,
taking a unit off the tray is that deployment's next step, refused with the engine's reasons
when it is not the unit's turn (:func:`engine.deploy_order.deploy_from_tray`).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from engine.army_placement import send_to_reserves
from engine.bases import base_label
from engine.deploy_order import DeploymentRecord, deploy_from_tray
from engine.edits import Selection
from engine.errors import WarplanError
from engine.explain import player_names
from engine.model import Point, Scenario, Unit
from gui.document import ScenarioDocument


def describe_reserve(unit: Unit) -> str:
    """One row of the tray: name, models and base."""
    count = len(unit.models)
    base = base_label(unit.models[0].base) if unit.models else "no models"
    return f"{unit.name or unit.id}: {count} model{'s' if count != 1 else ''}, {base}"


def _recorded_steps(scenario: Scenario) -> int:
    record = DeploymentRecord.of(scenario)
    return len(record.order) if record is not None else 0


class ReservesPanel(QWidget):
    """The tray, by player, with Deploy and Send to reserves."""

    selection_requested = Signal(object)
    """Emitted with the id of a unit just deployed, so the window selects it."""

    def __init__(self, document: ScenarioDocument, placement: Callable[[], Point]) -> None:
        super().__init__()
        self.setObjectName("ReservesPanel")
        self.document = document
        self._placement = placement
        self._selection = Selection()
        self.tree = QTreeWidget()
        self.tree.setObjectName("reserves-tree")
        self.tree.setHeaderHidden(True)
        self.tree.itemSelectionChanged.connect(self._update_buttons)
        self.tree.itemDoubleClicked.connect(lambda _item, _column: self.deploy_chosen())
        self.deploy_button = QPushButton("Deploy")
        self.deploy_button.setObjectName("reserves-deploy")
        self.deploy_button.setToolTip(
            "Set the chosen unit up in coherency at the centre of the view (then drag it)."
        )
        self.deploy_button.clicked.connect(self.deploy_chosen)
        self.send_button = QPushButton("To reserves")
        self.send_button.setObjectName("reserves-send")
        self.send_button.setToolTip("Take the units selected on the battlefield off the table.")
        self.send_button.clicked.connect(self.send_selected)
        self.message = QLabel("")
        self.message.setObjectName("reserves-message")
        self.message.setWordWrap(True)
        buttons = QHBoxLayout()
        buttons.addWidget(self.deploy_button)
        buttons.addWidget(self.send_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.tree, 1)
        layout.addLayout(buttons)
        layout.addWidget(self.message)
        document.changed.connect(lambda _change: self.refresh())
        document.replaced.connect(lambda _scenario: self.refresh())
        self.refresh()

    def set_selection(self, selection: Selection) -> None:
        self._selection = selection
        self._update_buttons()

    def refresh(self) -> None:
        scenario = self.document.scenario
        chosen = self.chosen_unit_id()
        self.tree.clear()
        for player in scenario.player_ids():
            waiting = [u for u in scenario.reserves if u.player == player]
            models = sum(len(u.models) for u in waiting)
            top = QTreeWidgetItem(
                [f"{player_names(scenario)[player]}: {len(waiting)} units, {models} models"]
            )
            top.setFlags(top.flags() & ~Qt.ItemFlag.ItemIsSelectable)
            self.tree.addTopLevelItem(top)
            for unit in waiting:
                row = QTreeWidgetItem([describe_reserve(unit)])
                row.setData(0, Qt.ItemDataRole.UserRole, unit.id)
                top.addChild(row)
                if unit.id == chosen:
                    row.setSelected(True)
            top.setExpanded(True)
        self._update_buttons()

    def chosen_unit_id(self) -> str | None:
        for item in self.tree.selectedItems():
            unit_id = item.data(0, Qt.ItemDataRole.UserRole)
            if unit_id:
                return str(unit_id)
        return None

    def _selected_on_table(self, scenario: Scenario) -> list[str]:
        on_table = {u.id for u in scenario.units}
        return sorted(self._selection.unit_ids(scenario) & on_table)

    def _update_buttons(self) -> None:
        self.deploy_button.setEnabled(self.chosen_unit_id() is not None)
        self.send_button.setEnabled(bool(self._selected_on_table(self.document.scenario)))

    def deploy_chosen(self) -> str | None:
        unit_id = self.chosen_unit_id()
        if unit_id is None:
            return None
        scenario = self.document.scenario
        try:
            after = deploy_from_tray(scenario, unit_id, self._placement())
        except WarplanError as error:
            self.message.setText(str(error))
            return None
        self.message.setText("")
        self.document.apply(after, self._step_name(scenario, after, unit_id))
        self.selection_requested.emit({unit_id})
        return unit_id

    @staticmethod
    def _step_name(before: Scenario, after: Scenario, unit_id: str) -> str:
        steps = _recorded_steps(after)
        if steps > _recorded_steps(before):
            return f"Deployment step {steps}: set up {unit_id}"
        return f"Deploy {unit_id} from reserves"

    def send_selected(self) -> list[str]:
        scenario = self.document.scenario
        unit_ids = self._selected_on_table(scenario)
        if not unit_ids:
            return []
        after = scenario
        for unit_id in unit_ids:
            after = send_to_reserves(after, unit_id)
        self.message.setText("")
        self.document.apply(after, f"Send {', '.join(unit_ids)} to reserves")
        return unit_ids
