"""The Palette dock: add a unit (from a datasheet found by name, or described by hand; placed in
coherency), terrain from presets or drawn as a polygon, objectives and operation markers. New
things appear at the centre of the view.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSizePolicy,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from engine.bases import standard_bases
from engine.datasheets import Datasheet, datasheet, factions, search, unit_from_datasheet
from engine.edits import (
    TERRAIN_PRESETS,
    add_drawn_terrain,
    add_marker,
    add_objective,
    add_terrain,
    add_unit,
    terrain_preset,
    unique_id,
)
from engine.model import Point
from gui.document import ScenarioDocument

PRESET_LABELS = {
    "ruin": "Ruin with walls",
    "woods": "Woods (obscuring)",
    "crater": "Crater",
    "container": "Container",
    "barricade": "Barricade",
}


@cache
def faction_names() -> dict[str, str]:
    return {faction.id: faction.name for faction in factions()}


def faction_name(faction_id: str) -> str:
    return faction_names().get(faction_id, faction_id)


class PalettePanel(QWidget):
    """Buttons and a small form that add things to the document (each one undo step)."""

    selection_requested = Signal(object)
    """Emitted with the ids of what was just added, so the window can select it."""
    draw_polygon_requested = Signal()

    def __init__(self, document: ScenarioDocument, placement: Callable[[], Point]) -> None:
        super().__init__()
        self.setObjectName("PalettePanel")
        self.document = document
        self._placement = placement
        self.chosen_datasheet: Datasheet | None = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self._datasheet_box())
        layout.addWidget(self._unit_box())
        layout.addWidget(self._terrain_box())
        layout.addWidget(self._objective_box())
        layout.addStretch(1)
        for combo in self.findChildren(QComboBox):
            # Long catalogue labels must not widen the dock: the battlefield needs the room.
            combo.setSizeAdjustPolicy(
                QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
            )
            combo.setMinimumContentsLength(8)
        document.replaced.connect(lambda _s: self._refresh_players())

    # ------------------------------------------------------------------ datasheets

    def _datasheet_box(self) -> QGroupBox:
        box = QGroupBox("Find a datasheet")
        layout = QVBoxLayout(box)
        row = QHBoxLayout()
        self.datasheet_query = QLineEdit()
        self.datasheet_query.setObjectName("datasheet-query")
        self.datasheet_query.setPlaceholderText("Name, e.g. Intercessors or Kharn")
        self.datasheet_query.setClearButtonEnabled(True)
        self.datasheet_faction = QComboBox()
        self.datasheet_faction.setObjectName("datasheet-faction")
        self.datasheet_faction.addItem("Every faction", None)
        for faction in sorted(factions(), key=lambda f: f.name):
            self.datasheet_faction.addItem(faction.name, faction.id)
        row.addWidget(self.datasheet_query, 3)
        row.addWidget(self.datasheet_faction, 2)
        layout.addLayout(row)
        self.datasheet_results = QListWidget()
        self.datasheet_results.setObjectName("datasheet-results")
        self.datasheet_results.setMaximumHeight(120)
        self.datasheet_results.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.datasheet_results.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        # A list's default size hint is wide; the battlefield needs the room.
        self.datasheet_results.setSizePolicy(
            QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred
        )
        layout.addWidget(self.datasheet_results)
        self.datasheet_summary = QLabel("")
        self.datasheet_summary.setObjectName("datasheet-summary")
        self.datasheet_summary.setWordWrap(True)
        layout.addWidget(self.datasheet_summary)
        self.datasheet_query.textChanged.connect(lambda _t: self.update_datasheet_results())
        self.datasheet_faction.currentIndexChanged.connect(
            lambda _i: self.update_datasheet_results()
        )
        self.datasheet_results.currentItemChanged.connect(
            lambda item, _previous: self.choose_datasheet(
                None if item is None else item.data(Qt.ItemDataRole.UserRole)
            )
        )
        return box

    def update_datasheet_results(self) -> None:
        """Refill the result list for the query and faction (every keystroke); the best match
        becomes the chosen datasheet."""
        query = self.datasheet_query.text().strip()
        found = search(query, self.datasheet_faction.currentData(), limit=30) if query else ()
        # Refilling would pass through rows as the current one: choose once, after.
        self.datasheet_results.blockSignals(True)
        self.datasheet_results.clear()
        for sheet in found:
            text = f"{sheet.name}  \u2014  {faction_name(sheet.faction)}"
            item = QListWidgetItem(text)
            item.setToolTip(text)
            item.setData(Qt.ItemDataRole.UserRole, sheet.id)
            self.datasheet_results.addItem(item)
        if found:
            self.datasheet_results.setCurrentRow(0)
        self.datasheet_results.blockSignals(False)
        self.choose_datasheet(found[0].id if found else None)

    def choose_datasheet(self, datasheet_id: str | None) -> None:
        """Fill the unit form from a datasheet (``None``: back to a unit described by hand)."""
        sheet = None if datasheet_id is None else datasheet(datasheet_id)
        self.chosen_datasheet = sheet
        for field in (self.unit_name, self.unit_keywords, self.unit_oc):
            field.setEnabled(sheet is None)
        if sheet is None:
            self.unit_base.setEnabled(True)
            self.unit_models.setRange(1, 30)
            self.datasheet_summary.setText("")
            self.add_unit_button.setText("Add unit")
            return
        self.unit_name.setText(sheet.name)
        self.unit_keywords.setText(", ".join(sheet.all_keywords))
        self.unit_keywords.setCursorPosition(0)
        self.unit_keywords.setToolTip(self.unit_keywords.text())
        self.unit_oc.setValue(sheet.oc or 0)
        self.unit_models.setRange(sheet.models_min, sheet.models_max)
        self.unit_models.setValue(sheet.models_min)
        if sheet.base is not None:
            bases = [self.unit_base.itemData(i) for i in range(self.unit_base.count())]
            index = bases.index(sheet.base) if sheet.base in bases else -1
            if index < 0:
                self.unit_base.addItem(f"{sheet.name}'s base", sheet.base)
                index = self.unit_base.count() - 1
            self.unit_base.setCurrentIndex(index)
        self.unit_base.setEnabled(sheet.base is None)
        facts = [
            f'M {sheet.move:g}"' if sheet.move is not None else "no M in the data",
            f"OC {sheet.oc}" if sheet.oc is not None else "no OC in the data",
            f"{sheet.models_min}-{sheet.models_max} models"
            if sheet.models_min != sheet.models_max
            else f"{sheet.models_min} model" + ("s" if sheet.models_min > 1 else ""),
        ]
        note = sheet.base_note or ("" if sheet.base is not None else "no base in the data")
        if sheet.base is None:
            note += ": choose one below"
        summary = " \u2022 ".join(facts) + (f"<br><i>{note}</i>" if note else "")
        self.datasheet_summary.setText(summary)
        self.add_unit_button.setText(f"Add {sheet.name}")

    # ------------------------------------------------------------------ unit

    def _unit_box(self) -> QGroupBox:
        box = QGroupBox("Add a unit")
        form = QFormLayout(box)
        self.unit_name = QLineEdit("Infantry Squad")
        self.unit_player = QComboBox()
        self.unit_keywords = QLineEdit("INFANTRY, BATTLELINE")
        self.unit_oc = QSpinBox()
        self.unit_oc.setRange(0, 20)
        self.unit_oc.setValue(2)
        self.unit_models = QSpinBox()
        self.unit_models.setRange(1, 30)
        self.unit_models.setValue(5)
        self.unit_base = QComboBox()
        self.unit_base.setObjectName("palette-base")
        for entry in standard_bases():
            self.unit_base.addItem(entry.label, entry.base)
        default = 0
        for index in range(self.unit_base.count()):
            if "32" in self.unit_base.itemText(index):
                default = index
                break
        self.unit_base.setCurrentIndex(max(0, default))
        self.add_unit_button = QPushButton("Add unit")
        self.add_unit_button.clicked.connect(self.add_unit)
        form.addRow("Name", self.unit_name)
        form.addRow("Player", self.unit_player)
        form.addRow("Keywords", self.unit_keywords)
        form.addRow("OC", self.unit_oc)
        form.addRow("Models", self.unit_models)
        form.addRow("Base", self.unit_base)
        form.addRow(self.add_unit_button)
        self._refresh_players()
        return box

    def _refresh_players(self) -> None:
        current = self.unit_player.currentData()
        self.unit_player.clear()
        for player in self.document.scenario.players:
            self.unit_player.addItem(player.name or player.id, player.id)
        index = self.unit_player.findData(current)
        self.unit_player.setCurrentIndex(max(0, index))

    def add_unit(self) -> None:
        base = self.unit_base.currentData()
        if base is None:
            return
        sheet = self.chosen_datasheet
        if sheet is not None:
            scenario, unit_id = unit_from_datasheet(
                self.document.scenario,
                sheet.id,
                player=str(self.unit_player.currentData()),
                models=self.unit_models.value(),
                centre=self._placement(),
                base=None if sheet.base is not None else base,
            )
            self.document.apply(scenario, f"Add {sheet.name} {unit_id}")
            self.selection_requested.emit({unit_id})
            return
        scenario, unit_id = add_unit(
            self.document.scenario,
            name=self.unit_name.text().strip() or "Unit",
            player=str(self.unit_player.currentData()),
            keywords=self.unit_keywords.text().split(","),
            oc=self.unit_oc.value(),
            model_count=self.unit_models.value(),
            base=base,
            centre=self._placement(),
        )
        self.document.apply(scenario, f"Add unit {unit_id}")
        self.selection_requested.emit({unit_id})

    # ------------------------------------------------------------------ terrain

    def _terrain_box(self) -> QGroupBox:
        box = QGroupBox("Add terrain")
        layout = QVBoxLayout(box)
        row = QHBoxLayout()
        self.terrain_kind = QComboBox()
        for kind in TERRAIN_PRESETS:
            self.terrain_kind.addItem(PRESET_LABELS[kind], kind)
        add = QPushButton("Add")
        add.clicked.connect(self.add_terrain_preset)
        row.addWidget(self.terrain_kind, 1)
        row.addWidget(add)
        layout.addLayout(row)
        draw = QPushButton("Draw a terrain area...")
        draw.setToolTip("Click the corners on the battlefield; double-click or Enter to finish.")
        draw.clicked.connect(self.draw_polygon_requested.emit)
        layout.addWidget(draw)
        return box

    def add_terrain_preset(self, kind: str | None = None) -> str:
        kind = kind or str(self.terrain_kind.currentData())
        scenario = self.document.scenario
        piece = terrain_preset(kind, self._placement(), unique_id(scenario, kind))
        self.document.apply(add_terrain(scenario, piece), f"Add {kind} {piece.id}")
        self.selection_requested.emit({piece.id})
        return piece.id

    def add_drawn_terrain(self, polygon: tuple[Point, ...]) -> str:
        """Add the drawn area (the polygon tool refuses outlines the engine would reject, so
        the engine's ``GeometryError`` here means a caller skipped that check)."""
        scenario, piece_id = add_drawn_terrain(self.document.scenario, polygon)
        self.document.apply(scenario, f"Draw terrain {piece_id}")
        self.selection_requested.emit({piece_id})
        return piece_id

    # ------------------------------------------------------------------ objectives, markers

    def _objective_box(self) -> QGroupBox:
        box = QGroupBox("Add an objective or marker")
        layout = QGridLayout(box)
        self.objective_role = QComboBox()
        for role in ("central", "expansion", "home", "other"):
            self.objective_role.addItem(role, role)
        add = QPushButton("Objective")
        add.clicked.connect(self.add_objective)
        marker = QPushButton("Operation marker")
        marker.clicked.connect(self.add_marker)
        layout.addWidget(self.objective_role, 0, 0)
        layout.addWidget(add, 0, 1)
        layout.addWidget(marker, 1, 0, 1, 2)
        return box

    def add_objective(self) -> str:
        scenario, objective_id = add_objective(
            self.document.scenario,
            self._placement(),
            role=self.objective_role.currentData(),
            owner=str(self.unit_player.currentData()),
        )
        self.document.apply(scenario, f"Add objective {objective_id}")
        self.selection_requested.emit({objective_id})
        return objective_id

    def add_marker(self) -> str:
        scenario, marker_id = add_marker(
            self.document.scenario, self._placement(), player=str(self.unit_player.currentData())
        )
        self.document.apply(scenario, f"Add marker {marker_id}")
        self.selection_requested.emit({marker_id})
        return marker_id
