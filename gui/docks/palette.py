"""The Palette dock: add a unit (placed in coherency), terrain from presets or drawn as a
polygon, objectives and operation markers. New things appear at the centre of the view.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from engine.bases import standard_bases
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
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
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
