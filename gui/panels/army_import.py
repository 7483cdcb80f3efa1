"""File > Import army list...: read a list exported by the GW app, ListForge or NewRecruit
(a file or pasted text), show how each entry resolved, and place the army in the reserves tray
or set up in its player's deployment zone.

Every entry shows: resolved ones with their datasheet, models, base, M and OC; unresolved ones
with their line and the closest datasheets, one of which the user may pick. Nothing is dropped
without being listed; a list that cannot be read says which line.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QRadioButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from engine.army_lists import ArmyList, load_army_list, parse_army_list
from engine.army_placement import ArmyPlacement, PlacementTarget, place_army
from engine.bases import base_label, standard_bases
from engine.errors import WarplanError
from engine.explain import player_names
from engine.model import Base, Scenario

LEAVE_OUT = "Leave it out"
RESOLVED_COLUMNS = ("Line", "Listed as", "Datasheet", "Models", "Base", "M", "OC", "Note")
UNRESOLVED_COLUMNS = ("Line", "Listed as", "Use datasheet")


class ArmyImportDialog(QDialog):
    """Reads a list as it is typed, pasted or opened; :meth:`placement` places it."""

    def __init__(self, scenario: Scenario, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("ArmyImportDialog")
        self.setWindowTitle("Import army list")
        self.resize(900, 640)
        self.scenario = scenario
        self.army: ArmyList | None = None
        self.player = QComboBox()
        self.player.setObjectName("army-player")
        for player_id, name in player_names(scenario).items():
            self.player.addItem(name, player_id)
        open_button = QPushButton("Open a file...")
        open_button.clicked.connect(self._choose_file)
        self.text = QPlainTextEdit()
        self.text.setObjectName("army-text")
        self.text.setPlaceholderText(
            "Paste the list here as the GW app, ListForge or NewRecruit exports it "
            "(text or JSON), or open the exported file."
        )
        self.status = QLabel("")
        self.status.setObjectName("army-status")
        self.status.setWordWrap(True)
        self.resolved = QTableWidget(0, len(RESOLVED_COLUMNS))
        self.resolved.setObjectName("army-resolved")
        self.resolved.setHorizontalHeaderLabels(RESOLVED_COLUMNS)
        self.resolved.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.resolved.horizontalHeader().setStretchLastSection(True)
        self.resolved.verticalHeader().hide()
        self.unresolved = QTableWidget(0, len(UNRESOLVED_COLUMNS))
        self.unresolved.setObjectName("army-unresolved")
        self.unresolved.setHorizontalHeaderLabels(UNRESOLVED_COLUMNS)
        self.unresolved.horizontalHeader().setStretchLastSection(True)
        self.unresolved.verticalHeader().hide()
        self.to_reserves = QRadioButton("Into the reserves tray")
        self.to_zone = QRadioButton("Set up in the player's deployment zone, in coherency")
        self.to_reserves.setChecked(True)
        group = QButtonGroup(self)
        group.addButton(self.to_reserves)
        group.addButton(self.to_zone)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Import")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)

        top = QHBoxLayout()
        form = QFormLayout()
        form.addRow("Army of", self.player)
        top.addLayout(form, 1)
        top.addWidget(open_button)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.text, 2)
        layout.addWidget(self.status)
        layout.addWidget(QLabel("Resolved to datasheets"))
        layout.addWidget(self.resolved, 3)
        layout.addWidget(QLabel("Not resolved: pick a datasheet or leave the entry out"))
        layout.addWidget(self.unresolved, 1)
        layout.addWidget(self.to_reserves)
        layout.addWidget(self.to_zone)
        layout.addWidget(self.buttons)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(250)
        self._timer.timeout.connect(self.read_text)
        self.text.textChanged.connect(self._timer.start)
        self._show(None)

    # ------------------------------------------------------------------ reading

    def _choose_file(self) -> None:
        path, _filter = QFileDialog.getOpenFileName(
            self, "Open an army list", "", "Army lists (*.txt *.json *.ros *.rosz);;All files (*)"
        )
        if path:
            self.load_file(Path(path))

    def load_file(self, path: Path) -> None:
        """Read the exported file (its text appears in the paste area)."""
        try:
            army = load_army_list(path)
        except WarplanError as error:
            self._show(None, f"{path.name}: {error}")
            return
        self.text.blockSignals(True)
        try:
            self.text.setPlainText(path.read_text(encoding="utf-8-sig", errors="replace"))
        finally:
            self.text.blockSignals(False)
        self._show(army)

    def read_text(self) -> None:
        """Parse what is in the paste area now."""
        self._timer.stop()
        text = self.text.toPlainText()
        if not text.strip():
            self._show(None)
            return
        try:
            self._show(parse_army_list(text))
        except WarplanError as error:
            self._show(None, str(error))

    def _show(self, army: ArmyList | None, problem: str = "") -> None:
        self.army = army
        self.resolved.setRowCount(0)
        self.unresolved.setRowCount(0)
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setEnabled(army is not None and bool(army.units or army.unresolved))
        if army is None:
            self.status.setStyleSheet("color: #b00020;" if problem else "")
            self.status.setText(problem or "No list read yet.")
            return
        self.status.setStyleSheet("")
        models = sum(entry.models for entry in army.units)
        parts = [f"<b>{army.format}</b>"]
        if army.name:
            parts.append(army.name)
        if army.faction:
            parts.append(army.faction)
        parts.append(f"{len(army.units)} units ({models} models) resolved")
        if army.unresolved:
            parts.append(f"<span style='color:#a04000'>{len(army.unresolved)} not resolved</span>")
        self.status.setText(" \u2022 ".join(parts))
        bases = list(standard_bases())
        for row, entry in enumerate(army.units):
            sheet = entry.datasheet
            self.resolved.insertRow(row)
            cells = [
                str(entry.line),
                entry.text,
                sheet.name,
                str(entry.models),
                base_label(sheet.base) if sheet.base is not None else "",
                "" if sheet.move is None else f'{sheet.move:g}"',
                "" if sheet.oc is None else str(sheet.oc),
                entry.problem or sheet.base_note,
            ]
            for column, text in enumerate(cells):
                self.resolved.setItem(row, column, QTableWidgetItem(text))
            if sheet.base is None:
                choice = QComboBox()
                choice.setObjectName(f"army-base-{entry.line}")
                choice.addItem("Choose a base...", None)
                for base_entry in bases:
                    choice.addItem(base_entry.label, base_entry.base)
                self.resolved.setCellWidget(row, 4, choice)
        for row, missing in enumerate(army.unresolved):
            self.unresolved.insertRow(row)
            self.unresolved.setItem(row, 0, QTableWidgetItem(str(missing.line)))
            self.unresolved.setItem(row, 1, QTableWidgetItem(missing.text))
            choice = QComboBox()
            choice.setObjectName(f"army-pick-{missing.line}")
            choice.addItem(LEAVE_OUT, None)
            for name in missing.suggestions:
                choice.addItem(name, name)
            self.unresolved.setCellWidget(row, 2, choice)
        self.resolved.resizeColumnsToContents()

    # ------------------------------------------------------------------ result

    def chosen_bases(self) -> dict[int, Base]:
        """The bases picked for entries whose datasheet has none, by line."""
        if self.army is None:
            return {}
        chosen: dict[int, Base] = {}
        for row, entry in enumerate(self.army.units):
            widget = self.resolved.cellWidget(row, 4)
            if isinstance(widget, QComboBox) and widget.currentData() is not None:
                chosen[entry.line] = widget.currentData()
        return chosen

    def chosen_army(self) -> ArmyList | None:
        """The list read, with the datasheets picked for unresolved entries."""
        if self.army is None:
            return None
        army = self.army
        for row, entry in enumerate(self.army.unresolved):
            widget = self.unresolved.cellWidget(row, 2)
            if isinstance(widget, QComboBox) and widget.currentData() is not None:
                army = army.resolved_as(entry.line, str(widget.currentData()))
        return army

    def target(self) -> PlacementTarget:
        return "deployment" if self.to_zone.isChecked() else "reserves"

    def placement(self, scenario: Scenario) -> ArmyPlacement | None:
        """The army placed on ``scenario`` as chosen (the engine's error when it cannot be)."""
        army = self.chosen_army()
        if army is None:
            return None
        return place_army(
            scenario, army, str(self.player.currentData()), self.target(), self.chosen_bases()
        )
