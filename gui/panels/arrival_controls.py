"""The reserves arrival controls: show or hide the shading, for which player, at what set-up
distance, the area they can arrive in or the area denied; under them the engine's account of
the restrictions it applied.

>>> from engine.arrival import DEFAULT_RESERVES_DISTANCE
>>> distance_from_spin(RULES_DISTANCE), distance_from_spin(DEFAULT_RESERVES_DISTANCE)
(None, 9.0)
"""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtWidgets import (
    QCheckBox,
    QDoubleSpinBox,
    QFormLayout,
    QLabel,
    QVBoxLayout,
    QWidget,
)

from engine.arrival import DRAWING_TOLERANCE
from engine.explain import inches
from engine.limits import MAX_DISTANCE
from gui.overlays.arrival import ArrivalOverlay, ArrivalShading
from gui.overlays.layer import player_name
from gui.panels.compact import compact_combo

RULES_DISTANCE = -1.0
"""The distance box's lowest value: "the rule system's distance" (or the file's option)."""
SHADINGS: tuple[tuple[ArrivalShading, str], ...] = (
    ("allowed", "Where they can arrive"),
    ("denied", "Where they cannot"),
)


def distance_from_spin(value: float) -> float | None:
    """The distance the box asks for: ``None`` at its lowest value (the rules' own)."""
    return None if value <= RULES_DISTANCE else float(value)


class ArrivalControls(QWidget):
    """Drives an :class:`ArrivalOverlay`; a self-contained widget any dock can hold."""

    def __init__(self, overlay: ArrivalOverlay, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("ArrivalControls")
        self.overlay = overlay
        self.show_box = QCheckBox("Show on the board")
        self.player_box = compact_combo()
        self.distance_box = QDoubleSpinBox()
        self.distance_box.setRange(RULES_DISTANCE, MAX_DISTANCE)
        self.distance_box.setDecimals(2)
        self.distance_box.setSingleStep(0.5)
        self.distance_box.setSuffix('"')
        self.distance_box.setSpecialValueText("rules' distance")
        self.distance_box.setValue(RULES_DISTANCE)
        self.distance_box.setToolTip(
            "More than this horizontally from every enemy model, base edge to base edge; "
            "lowest value: the rule system's distance or the file's reserves_distance option"
        )
        self.shading_box = compact_combo()
        for shading, label in SHADINGS:
            self.shading_box.addItem(label, shading)
        self.account = QLabel()
        self.account.setWordWrap(True)
        self.account.setObjectName("ArrivalAccount")

        form = QFormLayout()
        # A narrow tools column puts each field under its name rather than scrolling sideways.
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        form.addRow("Player", self.player_box)
        form.addRow("Distance", self.distance_box)
        form.addRow("Shade", self.shading_box)
        layout = QVBoxLayout(self)
        layout.addWidget(self.show_box)
        layout.addLayout(form)
        layout.addWidget(self.account)
        layout.addStretch(1)

        self._fill_players()
        self.show_box.toggled.connect(self._apply)
        self.player_box.currentIndexChanged.connect(self._apply)
        self.distance_box.valueChanged.connect(self._apply)
        self.shading_box.currentIndexChanged.connect(self._apply)
        overlay.document.replaced.connect(self._fill_players)
        overlay.document.changed.connect(self._players_may_change)
        overlay.updated.connect(self._show_account)
        self._show_account()

    def _players_may_change(self, change: object) -> None:
        if getattr(change, "structure", False):
            self._fill_players()

    def _fill_players(self, *_: object) -> None:
        scenario = self.overlay.document.scenario
        chosen = self.overlay.player(scenario)
        ids = [self.player_box.itemData(i) for i in range(self.player_box.count())]
        names = [self.player_box.itemText(i) for i in range(self.player_box.count())]
        wanted = list(scenario.player_ids())
        if ids == wanted and names == [player_name(scenario, p) for p in wanted]:
            return
        self.player_box.blockSignals(True)
        self.player_box.clear()
        for player in wanted:
            self.player_box.addItem(player_name(scenario, player), player)
        self.player_box.setCurrentIndex(wanted.index(chosen))
        self.player_box.blockSignals(False)

    def _apply(self, *_: object) -> None:
        shading: ArrivalShading = self.shading_box.currentData()
        self.overlay.configure(
            replace(
                self.overlay.settings,
                visible=self.show_box.isChecked(),
                player=self.player_box.currentData(),
                distance=distance_from_spin(self.distance_box.value()),
                shading=shading,
            )
        )

    def set_shown(self, shown: bool) -> None:
        """Show or hide the shading as the box does (a menu toggle calls this)."""
        self.show_box.setChecked(shown)

    def _show_account(self) -> None:
        region = self.overlay.region
        if region is None:
            self.account.setText(self.overlay.error or "Hidden.")
            return
        where = (
            "wholly in the shaded area"
            if self.overlay.settings.shading == "allowed"
            else "clear of the shaded area"
        )
        rows = [
            f"{region.rule} ({inches(region.distance)}): a base can be set up where it lies "
            f"{where}:",
            *(f"• {text}" for text in region.restrictions),
            *(f"• {note}" for note in region.notes),
            f"Open area {region.allowed.area:.0f} sq in; drawn to within "
            f"{inches(DRAWING_TOLERANCE)} of the exact curves.",
        ]
        self.account.setText("\n".join(rows))
