"""The overlay controller: owns the layers and refreshes them from the live rules and the
selection.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QGraphicsScene

from engine.evaluate import Evaluation
from engine.model import Scenario
from gui.items import Z_DEPLOYMENT, Z_OVERLAY_HIGH, Z_OVERLAY_LOW
from gui.live import LiveRules
from gui.overlays.arrival import ArrivalOverlay
from gui.overlays.coherency import update_coherency_overlay, update_rings_overlay
from gui.overlays.deployment import update_deployment_overlay
from gui.overlays.engagement import update_engagement_overlay
from gui.overlays.layer import OverlayLayer
from gui.overlays.movement import MovementOverlay
from gui.overlays.objectives import update_objective_overlay
from gui.overlays.quarters import update_quarters_overlay

OVERLAY_NAMES = {
    "objectives": "Objective control",
    "engagement": "Engagement ranges",
    "quarters": "Table quarters",
    "deployment": "Deployment zones",
    "visibility": "Line of sight",
    "coherency": "Coherency",
    "rings": "Range rings",
    "movement": "Movement",
}


class OverlayController:
    """Owns the overlay layers and refreshes them from what the live rules publish (the
    evaluation) and the selection."""

    def __init__(self, scene: QGraphicsScene, live: LiveRules) -> None:
        self.scene = scene
        self.live = live
        self.layers = {
            "deployment": OverlayLayer(scene, Z_DEPLOYMENT),
            "quarters": OverlayLayer(scene, Z_OVERLAY_LOW),
            "objectives": OverlayLayer(scene, Z_OVERLAY_LOW + 0.1),
            "engagement": OverlayLayer(scene, Z_OVERLAY_HIGH),
            "rings": OverlayLayer(scene, Z_OVERLAY_LOW + 0.2),
            "coherency": OverlayLayer(scene, Z_OVERLAY_HIGH + 0.1),
            "movement": OverlayLayer(scene, Z_OVERLAY_LOW + 0.3),
        }
        self.movement = MovementOverlay(self.layers["movement"])
        self.enabled = dict.fromkeys(OVERLAY_NAMES, True)
        """Every overlay's switch; line of sight ("visibility") is drawn by
        :mod:`gui.sight_overlay` from the window's one sight controller, not by a layer here."""
        # Reserves arrival follows the document itself (off until asked for, settings of its own).
        self.arrival = ArrivalOverlay(scene, live.document)
        self.extra_refresh: list[Callable[[], None]] = []
        """Layers kept elsewhere (the Plan dock's map), redrawn with every refresh."""
        self.focus_units: frozenset[str] = frozenset()
        self.engagement_for_all = False
        self.evaluation: Evaluation | None = live.evaluation
        live.evaluated.connect(self.show_evaluation)

    @property
    def scenario(self) -> Scenario:
        return self.live.document.scenario

    def set_enabled(self, name: str, enabled: bool) -> None:
        self.enabled[name] = enabled
        if name not in self.layers:
            return
        self.layers[name].set_visible(enabled)
        if enabled:
            self.refresh_all()

    def apply_palette(self) -> None:
        """Rebuild every layer in the current palette (their items read it when built)."""
        for layer in self.layers.values():
            layer.clear()
        self.movement.forget()
        self.refresh_all()
        self.arrival.refresh()

    def set_focus(self, unit_ids: frozenset[str]) -> None:
        if unit_ids != self.focus_units:
            self.focus_units = unit_ids
            self.refresh_engagement()
            self.refresh_movement()

    def refresh_all(self) -> None:
        self.refresh_deployment()
        self.refresh_rules()
        for refresh in self.extra_refresh:
            refresh()

    def refresh_deployment(self) -> None:
        if self.enabled["deployment"]:
            update_deployment_overlay(self.layers["deployment"], self.scenario)

    def show_evaluation(self, evaluation: Evaluation | None) -> None:
        self.evaluation = evaluation
        self.refresh_rules()

    def refresh_rules(self) -> None:
        scenario = self.scenario
        if self.enabled["objectives"]:
            update_objective_overlay(self.layers["objectives"], scenario, self.evaluation)
        if self.enabled["quarters"]:
            update_quarters_overlay(self.layers["quarters"], scenario, self.evaluation)
        if self.enabled["coherency"]:
            update_coherency_overlay(self.layers["coherency"], scenario, self.evaluation)
        if self.enabled["rings"]:
            update_rings_overlay(self.layers["rings"], scenario)
        self.refresh_engagement()
        self.refresh_movement()

    def refresh_movement(self) -> None:
        """The bands of the one selected unit (none for no unit or several)."""
        if not self.enabled["movement"]:
            self.movement.show(self.scenario, None)
            return
        single = next(iter(self.focus_units)) if len(self.focus_units) == 1 else None
        self.movement.show(self.scenario, single)

    def refresh_engagement(self) -> None:
        if not self.enabled["engagement"]:
            return
        focus = None if self.engagement_for_all else self.focus_units
        update_engagement_overlay(self.layers["engagement"], self.scenario, self.evaluation, focus)
