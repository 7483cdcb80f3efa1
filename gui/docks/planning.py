"""The Plan dock: deployment-planning tools, starting with the hidden-placement map.

The map's controls (player, base, height, step, "within", mode, observers) feed
:class:`gui.hidden_map.HiddenMapController`; the base and height default to the selected unit's,
as :func:`engine.hidden.unit_probe` gives them (that unit is lifted off the table while its
placement is planned). The dock offers :meth:`PlanningDock.add_section` for further tools.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QLabel,
    QVBoxLayout,
    QWidget,
)

from engine.bases import base_label, standard_bases
from engine.hidden import unit_probe
from engine.model import CircleBase, Scenario
from gui.hidden_map import HiddenMapController, HiddenProgress, HiddenSettings
from gui.items import Z_OVERLAY_LOW
from gui.overlays.hidden import update_hidden_overlay
from gui.overlays.layer import OverlayLayer
from gui.plugin_api import DockPlace

SELECTED_UNIT = "Selected unit's base and height"
STEPS = ("0.5", "0.25", "1")
MODES = (("hidden", "Hidden from every enemy model"), ("not-fully-visible", "Not fully visible"))
OBSERVERS = (("models", "Enemy models on the table"), ("zone", "Enemy deployment zone"))
REGIONS = (
    (None, "Deployment zone (else the table)"),
    ("zone", "Deployment zone"),
    ("table", "Whole table"),
)


class PlanningDock(QWidget):
    """The Plan dock's sections; the first is the hidden-placement map."""

    def __init__(self, controller: HiddenMapController) -> None:
        super().__init__()
        self.setObjectName("PlanningDock")
        self.controller = controller
        self.selected_unit: str | None = None
        self._layout = QVBoxLayout(self)
        form_box = QWidget()
        form = QFormLayout(form_box)
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        self.show_map = QCheckBox("Show the map")
        self.show_map.setToolTip("Shade where a model could stand unseen by the enemy")
        self.show_map.setObjectName("plan-hidden-show")
        self.player = QComboBox()
        self.base = QComboBox()
        self.base.addItem(SELECTED_UNIT, None)
        for entry in standard_bases():
            self.base.addItem(entry.label, entry.base)
        self.height_spin = QDoubleSpinBox()
        self.height_spin.setRange(0.0, 30.0)
        self.height_spin.setSingleStep(0.5)
        self.height_spin.setValue(1.5)
        self.height_spin.setSuffix('"')
        self.step = QComboBox()
        for step in STEPS:
            self.step.addItem(f'{step}"', float(step))
        self.region = QComboBox()
        for value, label in REGIONS:
            self.region.addItem(label, value)
        self.use_within = QCheckBox("Within")
        self.use_within.setToolTip("Only enemy units with a model within this distance count")
        self.within = QDoubleSpinBox()
        self.within.setRange(0.0, 72.0)
        self.within.setValue(24.0)
        self.within.setSuffix('"')
        self.mode = QComboBox()
        for value, label in MODES:
            self.mode.addItem(label, value)
        self.observers = QComboBox()
        for value, label in OBSERVERS:
            self.observers.addItem(label, value)
        self.observer_height = QDoubleSpinBox()
        self.observer_height.setRange(0.0, 30.0)
        self.observer_height.setValue(1.5)
        self.observer_height.setSuffix('"')
        self.status = QLabel("Map off.")
        self.status.setObjectName("plan-hidden-status")
        self.status.setWordWrap(True)
        form.addRow(self.show_map)
        form.addRow("Player", self.player)
        form.addRow("Base", self.base)
        form.addRow("Height", self.height_spin)
        form.addRow("Grid", self.step)
        form.addRow("Region", self.region)
        form.addRow(self.use_within, self.within)
        form.addRow("Question", self.mode)
        form.addRow("Seen from", self.observers)
        form.addRow("Zone eye height", self.observer_height)
        form.addRow(self.status)
        for combo in (self.player, self.base, self.step, self.region, self.mode, self.observers):
            # Long entries (the catalogue's base names) must not widen the dock.
            combo.setSizeAdjustPolicy(
                QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
            )
            combo.setMinimumContentsLength(8)
        self.add_section("Hidden placement", form_box)
        self._layout.addStretch(1)
        self.show_map.toggled.connect(self.controller.set_enabled)
        for combo in (self.player, self.base, self.step, self.region, self.mode, self.observers):
            combo.currentIndexChanged.connect(self._apply)
        for spin in (self.height_spin, self.within, self.observer_height):
            spin.valueChanged.connect(self._apply)
        self.use_within.toggled.connect(self._apply)
        controller.progress.connect(self._show_progress)
        controller.document.replaced.connect(lambda _s: self._fill_players())
        self._fill_players()

    def add_section(self, title: str, widget: QWidget) -> None:
        """Add a planning tool as a titled section (above the dock's free space)."""
        box = QGroupBox(title)
        inner = QVBoxLayout(box)
        inner.addWidget(widget)
        index = self._layout.count() - 1 if self._layout.count() else 0
        self._layout.insertWidget(max(0, index), box)

    @property
    def scenario(self) -> Scenario:
        return self.controller.document.scenario

    def set_selected_unit(self, unit_id: str | None) -> None:
        if unit_id != self.selected_unit:
            self.selected_unit = unit_id
            self._apply()

    def _fill_players(self) -> None:
        chosen = self.player.currentData()
        self.player.blockSignals(True)
        self.player.clear()
        for player in self.scenario.players:
            self.player.addItem(player.name or player.id, player.id)
        index = self.player.findData(chosen)
        self.player.setCurrentIndex(max(0, index))
        self.player.blockSignals(False)
        self._apply()

    def settings(self) -> HiddenSettings:
        """The controls as map settings (the selected unit's base and height from the engine)."""
        base = self.base.currentData()
        height = self.height_spin.value()
        lift = None
        unit = None
        if base is None and self.selected_unit is not None:
            unit = next((u for u in self.scenario.units if u.id == self.selected_unit), None)
        if unit is not None and unit.models:
            base, height = unit_probe(unit)
            lift = unit.id
        player = self.player.currentData()
        if unit is not None:
            player = unit.player
        return HiddenSettings(
            player=player,
            base=base if base is not None else CircleBase(32),
            height=height,
            step=float(self.step.currentData()),
            region=self.region.currentData(),
            within=self.within.value() if self.use_within.isChecked() else None,
            mode=self.mode.currentData(),
            observers=self.observers.currentData(),
            observer_height=self.observer_height.value(),
            lift_unit=lift,
        )

    def _apply(self, *_args: Any) -> None:
        self.controller.set_settings(self.settings())

    def _show_progress(self, progress: HiddenProgress | None) -> None:
        if progress is None:
            self.status.setText("Map off." if not self.controller.enabled else "Working out...")
            return
        if progress.error:
            self.status.setText(f"The map cannot be worked out: {progress.error}")
            return
        result = progress.result
        if result is None:
            return
        counts = result.counts
        done = (
            ""
            if progress.finished
            else f" (columns {progress.columns_done}/{progress.columns_total})"
        )
        settings = self.controller.settings
        self.status.setText(
            f"{len(result.cells)} cells{done}: {counts['hidden']} hidden "
            f"({result.hidden_area:.1f} sq in), {counts['visible']} visible, "
            f"{counts['blocked']} blocked; {base_label(settings.base)}, "
            f'{settings.height:g}" tall; {progress.seconds:.1f} s'
        )


def install_planning(window: Any) -> PlanningDock:
    """Add the Plan dock (its View > Docks toggle comes with it) and the map's board layer to
    ``window`` (a :class:`gui.main_window.MainWindow`)."""
    controller = HiddenMapController(window.document, parent=window)
    layer = OverlayLayer(window.scene, Z_OVERLAY_LOW + 0.3)
    dock = PlanningDock(controller)
    window.add_dock(dock, "Plan", "PlanDock", DockPlace.TOOLS)

    def show(progress: HiddenProgress | None) -> None:
        if progress is None or progress.result is None:
            update_hidden_overlay(layer, None, None)
        else:
            update_hidden_overlay(
                layer, progress.result, (progress.generation, progress.columns_done)
            )

    def redraw() -> None:
        layer.clear()
        show(controller.latest)

    controller.progress.connect(show)
    window.overlays.extra_refresh.append(redraw)
    window.scene.selection_changed_ids.connect(
        lambda _selection: dock.set_selected_unit(window.scene.selected_unit_id())
    )
    return dock
