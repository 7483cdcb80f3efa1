"""The Shared Scenario Modules board overlay: while deploying, each player's 12" deployment band
and every Battle Formations violation; in battle, the Scout and Secure lead models' protection
and the units with Reinforced Defenses' Cover +3.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import QGraphicsScene

from engine.explain import inches
from engine.model import Model, Scenario
from engine.rulesets.shared_modules import (
    SharedModulesReport,
    player_edge,
)
from engine.rulesets.shared_modules._data import number
from engine.rulesets.shared_modules.edits import SECTION
from engine.scenario_edits import game_section
from gui.items import Z_DEPLOYMENT, Z_OVERLAY_HIGH, cosmetic_pen
from gui.overlays.layer import LabelSpec, OverlayLayer, Stroke
from gui.rulesets.common import (
    RulesetOverlay,
    player_name,
)
from gui.shapes import (
    grown_base_path,
    player_colour,
    polygon_path,
    rotated,
    scene_point,
    translucent,
)

PROTECTED_COLOUR = QColor("#00897b")


# ------------------------------------------------------------------------------ the overlay


class SharedModulesOverlay(RulesetOverlay):
    """Deployment bands, Battle Formations violations, Scout protection and Cover +3 tags."""

    def __init__(self, scene: QGraphicsScene) -> None:
        super().__init__(
            {
                "bands": OverlayLayer(scene, Z_DEPLOYMENT + 0.1),
                "violations": OverlayLayer(scene, Z_OVERLAY_HIGH + 0.4),
                "status": OverlayLayer(scene, Z_OVERLAY_HIGH + 0.3),
            }
        )

    def show_report(self, scenario: Scenario, report: SharedModulesReport) -> None:
        self._bands(scenario, report)
        self.show_violations(report.violations, "sm")
        self._status(scenario, report)

    def _bands(self, scenario: Scenario, report: SharedModulesReport) -> None:
        layer = self.layers["bands"]
        layer.begin()
        if report.formations is not None:
            depth = float(
                scenario.option("formation_edge_depth", number("battle-formations", "edge_depth"))
            )
            for player, edge_name in report.formations.edges.items():
                edge = player_edge(scenario, player)
                colour = player_colour(scenario, player)
                (sx, sy), (ex, ey) = edge.start, edge.end
                ix, iy = edge.inward
                polygon = (
                    (sx, sy),
                    (ex, ey),
                    (ex + ix * depth, ey + iy * depth),
                    (sx + ix * depth, sy + iy * depth),
                )
                order = "deploys first" if player == report.formations.deploys_first else "second"
                text = (
                    f"{player_name(scenario, player)} ({order}): deploy within {inches(depth)} "
                    f"of the {edge_name} edge"
                )

                def build(
                    polygon: Any = polygon,
                    colour: QColor = colour,
                    text: str = text,
                    ix: float = ix,
                    iy: float = iy,
                ) -> tuple[list[Stroke], LabelSpec]:
                    path = polygon_path(polygon)
                    # The name sits along the band's inner (12") line, away from the edge where
                    # the models stand.
                    _start, _end, (cx, cy), (dx, dy) = polygon
                    lx = dx + (cx - dx) * 0.25 - ix * 1.2
                    ly = dy + (cy - dy) * 0.25 - iy * 1.2
                    return [
                        Stroke(path, cosmetic_pen(colour, 1.5), QBrush(translucent(colour, 36)))
                    ], LabelSpec(
                        text,
                        scene_point(lx, ly),
                        colour.darker(160),
                        QColor(255, 255, 255, 170),
                        bold=True,
                    )

                layer.put(("band", player), (polygon, colour.name(), text), build)
        layer.end()

    def _status(self, scenario: Scenario, report: SharedModulesReport) -> None:
        layer = self.layers["status"]
        layer.begin()
        scouted = game_section(scenario, SECTION).get("scout_and_secure", {})
        for unit_id, entry in scouted.items():
            lead_id = entry.get("lead")
            if entry.get("moved") or lead_id is None:
                continue
            try:
                lead = scenario.model(str(lead_id))
            except KeyError:
                continue

            def build_lead(lead: Model = lead) -> tuple[list[Stroke], LabelSpec]:
                ring = rotated(grown_base_path(lead.base, 0.2), lead.rotation)
                ring = ring.translated(lead.x, -lead.y)
                return [
                    Stroke(
                        ring,
                        cosmetic_pen(PROTECTED_COLOUR, 2.5),
                        QBrush(translucent(PROTECTED_COLOUR, 50)),
                    )
                ], LabelSpec(
                    "Scout and Secure: cannot be targeted until it moves",
                    scene_point(lead.x, lead.y - lead.base.bounding_radius - 0.3),
                    QColor("white"),
                    translucent(PROTECTED_COLOUR, 230),
                    anchor="below",
                )

            layer.put(("scout", unit_id), (lead.x, lead.y, lead.rotation), build_lead)
        for defense in report.defenses:
            if not defense.protected:
                continue
            try:
                unit = scenario.unit(defense.unit_id)
            except KeyError:
                continue
            if not unit.models:
                continue
            right = max(m.x + m.base.bounding_radius for m in unit.models)
            mid_y = sum(m.y for m in unit.models) / len(unit.models)
            text = f"Cover +{defense.cover}"

            def build_cover(
                right: float = right, mid_y: float = mid_y, text: str = text
            ) -> tuple[list[Stroke], LabelSpec]:
                # Right of the unit: its name tag sits above it and the objective's below.
                return [], LabelSpec(
                    text, scene_point(right + 2.2, mid_y), QColor("white"), QColor(46, 125, 50, 225)
                )

            layer.put(("cover", unit.id), (right, mid_y, text), build_cover)
        layer.end()
