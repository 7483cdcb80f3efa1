"""The Deploy dock: walk the rule system's deployment sequence, one undo step per step.

It shows whose turn it is and why, the rule that applies (its section and text), the units that
player may set up next, the reserves declaration (check boxes, before the first step), and the
recorded order. A unit is set up by dragging it from the list onto the battlefield, or with
"Set up" and a click where it goes; the engine lays it out in coherency about that point and
judges it (:func:`engine.deploy_order.check_placement`): a refusal shows the engine's reasons
and changes nothing. Start, every unit set up and Undo step are each one undo command. Every
rule, turn and reason here is the engine's.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QEvent, QMimeData, QObject, QPointF, Qt, Signal
from PySide6.QtGui import QDragEnterEvent, QDragMoveEvent, QDropEvent, QMouseEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from engine.deploy_order import (
    DeploymentRecord,
    check_placement,
    declare_reserves,
    formation_at,
    next_to_deploy,
    order_violations,
    procedure,
    set_up_unit,
    start_deployment,
    undo_last_step,
)
from engine.errors import WarplanError
from engine.explain import player_names
from engine.model import Point, Scenario, Unit
from engine.rulesets import ruleset_for
from gui.docks.reserves import describe_reserve
from gui.document import ScenarioDocument
from gui.shapes import battlefield_point
from gui.view import BattlefieldView

UNIT_MIME = "application/x-warplan-unit-id"
"""The drag payload of a unit of the Deploy dock's list: its id."""


class _UnitList(QListWidget):
    """The units that may be set up next; an item drags as its unit id."""

    def mimeData(self, items: Sequence[QListWidgetItem]) -> QMimeData:  # noqa: N802 - Qt's name
        data = QMimeData()
        if items:
            unit_id = str(items[0].data(Qt.ItemDataRole.UserRole))
            data.setData(UNIT_MIME, unit_id.encode())
            data.setText(unit_id)
        return data

    def mimeTypes(self) -> list[str]:  # noqa: N802 - Qt's name
        return [UNIT_MIME]


def _units_by_id(scenario: Scenario) -> dict[str, Unit]:
    return {u.id: u for u in (*scenario.units, *scenario.reserves)}


class DeployPanel(QWidget):
    """Deploy mode: the sequence, the reserves declaration and the placement of the next unit."""

    selection_requested = Signal(object)
    """Emitted with the id of a unit just set up, so the window selects it."""

    def __init__(self, document: ScenarioDocument, view: BattlefieldView) -> None:
        super().__init__()
        self.setObjectName("DeployPanel")
        self.document = document
        self.view = view
        self._placing: str | None = None
        self.rule_label = QLabel("")
        self.rule_label.setObjectName("deploy-rule")
        self.rule_label.setWordWrap(True)
        self.rule_label.setTextFormat(Qt.TextFormat.RichText)
        self.turn_label = QLabel("")
        self.turn_label.setObjectName("deploy-turn")
        self.turn_label.setWordWrap(True)
        self.turn_label.setTextFormat(Qt.TextFormat.RichText)
        self.next_units = _UnitList()
        self.next_units.setObjectName("deploy-next-units")
        self.next_units.setDragEnabled(True)
        self.next_units.setDragDropMode(QAbstractItemView.DragDropMode.DragOnly)
        self.next_units.itemSelectionChanged.connect(self._update_buttons)
        self.set_up_button = QPushButton("Set up")
        self.set_up_button.setObjectName("deploy-set-up")
        self.set_up_button.setCheckable(True)
        self.set_up_button.setToolTip(
            "Then click the battlefield where the chosen unit goes (or drag it from the list)."
        )
        self.set_up_button.toggled.connect(self._arm)
        self.reserves_label = QLabel("")
        self.reserves_label.setWordWrap(True)
        self.reserves_list = QListWidget()
        self.reserves_list.setObjectName("deploy-reserves")
        self.reserves_list.itemChanged.connect(self._on_reserve_toggled)
        self.start_button = QPushButton("Start")
        self.start_button.setObjectName("deploy-start")
        self.start_button.setToolTip(
            "Put both armies in the reserves tray and begin the sequence with the checked units "
            "declared in reserves."
        )
        self.start_button.clicked.connect(self.start)
        self.undo_button = QPushButton("Undo step")
        self.undo_button.setObjectName("deploy-undo")
        self.undo_button.clicked.connect(self.undo_step)
        self.message = QLabel("")
        self.message.setObjectName("deploy-message")
        self.message.setWordWrap(True)
        self.message.setStyleSheet("color: #b00020;")
        self.order_list = QListWidget()
        self.order_list.setObjectName("deploy-order")
        self.order_list.setWordWrap(True)
        self.flags = QLabel("")
        self.flags.setObjectName("deploy-flags")
        self.flags.setWordWrap(True)
        self.flags.setStyleSheet("color: #b00020;")

        steps = QHBoxLayout()
        steps.addWidget(self.start_button)
        steps.addWidget(self.undo_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addLayout(steps)
        layout.addWidget(self.rule_label)
        layout.addWidget(self.turn_label)
        layout.addWidget(self.next_units, 2)
        layout.addWidget(self.set_up_button)
        layout.addWidget(self.message)
        layout.addWidget(self.reserves_label)
        layout.addWidget(self.reserves_list, 1)
        layout.addWidget(QLabel("Recorded order:"))
        layout.addWidget(self.order_list, 2)
        layout.addWidget(self.flags)

        viewport = view.viewport()
        viewport.setAcceptDrops(True)
        viewport.installEventFilter(self)
        document.changed.connect(lambda change: None if change.previewing else self.refresh())
        document.replaced.connect(lambda _scenario: self.refresh())
        self.refresh()

    # ------------------------------------------------------------------ showing the engine's view

    def refresh(self) -> None:
        scenario = self.document.scenario
        try:
            rules = procedure(scenario)
            nxt = next_to_deploy(scenario)
            flagged = order_violations(scenario, rules)
        except WarplanError as error:
            self.turn_label.setText(_html(str(error)))
            return
        record = DeploymentRecord.of(scenario)
        units = _units_by_id(scenario)
        names = player_names(scenario)
        self.rule_label.setText(
            f"<b>{rules.rule}</b> ({ruleset_for(scenario).name})<br><i>{_html(rules.text)}</i>"
        )
        chosen = self.chosen_unit_id()
        self.next_units.clear()
        if record is None:
            self.turn_label.setText(
                "Not started. Check the units declared in reserves, then Start: "
                f"{_html(rules.first_reason)}."
            )
        elif nxt.player is None:
            self.turn_label.setText("Deployment complete: every unit is set up.")
        else:
            self.turn_label.setText(
                f"<b>{_html(names[nxt.player])}</b> sets up next. Why: {_html(nxt.reason)}."
            )
            for unit_id in nxt.units:
                item = QListWidgetItem(describe_reserve(units[unit_id]))
                item.setData(Qt.ItemDataRole.UserRole, unit_id)
                self.next_units.addItem(item)
                if unit_id == chosen:
                    item.setSelected(True)
            if not self.next_units.selectedItems() and self.next_units.count():
                self.next_units.item(0).setSelected(True)
        self._fill_reserves(scenario, record, rules.held_back)
        self.order_list.clear()
        for step in nxt.steps:
            self.order_list.addItem(
                f"{step.index + 1}. {names[step.player]}: {describe_reserve(units[step.unit_id])}"
                f"{' (TITANIC)' if step.titanic else ''} - {rules.rule}: {step.reason}"
            )
        self.flags.setText("\n".join(f"{v.rule}: {v.message}" for v in flagged))
        self._update_buttons()

    def _fill_reserves(
        self, scenario: Scenario, record: DeploymentRecord | None, held: frozenset[str]
    ) -> None:
        declared = set(record.reserves if record is not None else self.checked_reserves())
        editable = record is None or not record.order
        self.reserves_list.blockSignals(True)
        self.reserves_list.clear()
        names = player_names(scenario)
        self.reserves_label.setText(
            "Declare reserves (before the first unit is set up):"
            if editable
            else f"Declared in reserves: {_count(len(declared | held), 'unit')}."
        )
        for unit in (*scenario.units, *scenario.reserves):
            if not editable and unit.id not in declared and unit.id not in held:
                continue
            item = QListWidgetItem(f"{names[unit.player]}: {describe_reserve(unit)}")
            item.setData(Qt.ItemDataRole.UserRole, unit.id)
            flags = Qt.ItemFlag.ItemIsEnabled
            if editable and unit.id not in held:
                flags |= Qt.ItemFlag.ItemIsUserCheckable
            item.setFlags(flags)
            checked = unit.id in declared or unit.id in held
            item.setCheckState(Qt.CheckState.Checked if checked else Qt.CheckState.Unchecked)
            self.reserves_list.addItem(item)
        self.reserves_list.blockSignals(False)

    def _update_buttons(self) -> None:
        record = DeploymentRecord.of(self.document.scenario)
        self.set_up_button.setEnabled(self.chosen_unit_id() is not None)
        if self.chosen_unit_id() is None and self.set_up_button.isChecked():
            self.set_up_button.setChecked(False)
        self.undo_button.setEnabled(record is not None and bool(record.order))
        self.start_button.setText("Start" if record is None else "Restart")

    def chosen_unit_id(self) -> str | None:
        for item in self.next_units.selectedItems():
            return str(item.data(Qt.ItemDataRole.UserRole))
        return None

    def checked_reserves(self) -> list[str]:
        return [
            str(item.data(Qt.ItemDataRole.UserRole))
            for item in (self.reserves_list.item(i) for i in range(self.reserves_list.count()))
            if item.checkState() == Qt.CheckState.Checked
            and item.flags() & Qt.ItemFlag.ItemIsUserCheckable
        ]

    def recorded_order(self) -> tuple[str, ...]:
        record = DeploymentRecord.of(self.document.scenario)
        return record.order if record is not None else ()

    # ------------------------------------------------------------------ steps (one undo each)

    def start(self) -> None:
        try:
            after = start_deployment(self.document.scenario, self.checked_reserves())
        except WarplanError as error:
            self.message.setText(str(error))
            return
        self.message.setText("")
        self.document.apply(after, "Start deployment")

    def _on_reserve_toggled(self, _item: QListWidgetItem) -> None:
        if DeploymentRecord.of(self.document.scenario) is None:
            return
        try:
            after = declare_reserves(self.document.scenario, self.checked_reserves())
        except WarplanError as error:
            self.message.setText(str(error))
            self.refresh()
            return
        self.message.setText("")
        self.document.apply(after, "Declare reserves")

    def set_up_at(self, point: Point, unit_id: str | None = None) -> bool:
        """Set ``unit_id`` (default: the chosen one) up in coherency about ``point`` as the next
        step; a refusal shows the engine's reasons and changes nothing."""
        unit_id = unit_id or self.chosen_unit_id()
        if unit_id is None:
            return False
        scenario = self.document.scenario
        try:
            positions = formation_at(scenario, unit_id, point)
            verdict = check_placement(scenario, unit_id, positions)
            if not verdict.allowed:
                self.message.setText(
                    f"{unit_id} not set up ({verdict.rule}): " + "; ".join(verdict.reasons)
                )
                return False
            after = set_up_unit(scenario, unit_id, positions)
        except WarplanError as error:
            self.message.setText(str(error))
            return False
        self.message.setText("")
        self.set_up_button.setChecked(False)
        step = len(self.recorded_order()) + 1
        self.document.apply(after, f"Deployment step {step}: set up {unit_id}")
        self.selection_requested.emit({unit_id})
        return True

    def undo_step(self) -> None:
        try:
            after = undo_last_step(self.document.scenario)
        except WarplanError as error:
            self.message.setText(str(error))
            return
        self.message.setText("")
        self.document.apply(after, "Undo deployment step")

    # ------------------------------------------------------------------ the battlefield's clicks

    def _arm(self, on: bool) -> None:
        self._placing = self.chosen_unit_id() if on else None
        if on and self._placing is not None:
            self.message.setText(f"Click the battlefield where {self._placing} goes.")
        elif not on and self.message.text().startswith("Click the battlefield"):
            self.message.setText("")

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        kind = event.type()
        if kind == QEvent.Type.MouseButtonPress and self._placing is not None:
            assert isinstance(event, QMouseEvent)
            if event.button() == Qt.MouseButton.LeftButton:
                self.set_up_at(self._board_point(event.position()), self._placing)
                return True
        if kind in (QEvent.Type.DragEnter, QEvent.Type.DragMove):
            assert isinstance(event, QDragEnterEvent | QDragMoveEvent)
            if event.mimeData().hasFormat(UNIT_MIME):
                event.acceptProposedAction()
                return True
        if kind == QEvent.Type.Drop:
            assert isinstance(event, QDropEvent)
            if event.mimeData().hasFormat(UNIT_MIME):
                unit_id = bytes(event.mimeData().data(UNIT_MIME).data()).decode()
                self.set_up_at(self._board_point(event.position()), unit_id)
                event.acceptProposedAction()
                return True
        return super().eventFilter(watched, event)

    def _board_point(self, position: QPointF) -> Point:
        return battlefield_point(QPointF(self.view.mapToScene(position.toPoint())))


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


BREAK_AFTER = (".", "_")
"""Characters of file keys (``game.scrollhammer.deployed_first``) a narrow dock may wrap after."""


def _html(text: str) -> str:
    """``text`` as label HTML: escaped, new lines kept, long file keys breakable."""
    escaped = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    for mark in BREAK_AFTER:
        escaped = escaped.replace(mark, mark + "\u200b")
    return escaped.replace("\n", "<br>")
