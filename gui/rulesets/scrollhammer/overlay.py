"""The Scrollhammer board overlay: the centre line, both deployment zones, the 2' x 2' terrain
sections with their density, every set-up violation (red, with the measure against the limit)
and, for the selected unit, the Night Fighting range bands with each enemy unit's band.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QBrush, QColor, QPainterPath
from PySide6.QtWidgets import QGraphicsScene
from shapely.geometry.base import BaseGeometry

from engine.explain import inches
from engine.model import Scenario
from engine.rulesets.scrollhammer import (
    ScrollhammerReport,
    night_fighting_view,
)
from engine.rulesets.scrollhammer.game_flow import night_fighting_scheme
from engine.rulesets.scrollhammer.missions import mission_of
from engine.rulesets.scrollhammer.night_fighting import NightFightingView
from gui.items import Z_DEPLOYMENT, Z_OVERLAY_HIGH, Z_OVERLAY_LOW, cosmetic_pen
from gui.overlays.layer import LabelSpec, OverlayLayer, Stroke
from gui.rulesets.common import (
    RulesetOverlay,
    geometry_path,
    player_name,
)
from gui.shapes import player_colour, polygon_path, scene_point, translucent

NIGHT_COLOURS = {
    "Normal": QColor(255, 255, 255, 0),
    "Stealth (+1)": QColor(40, 50, 90, 45),
    "Stealth (+2)": QColor(25, 30, 70, 95),
    "Hidden": QColor(10, 10, 30, 150),
}


def _zone_label_point(zone: Any, inward: tuple[float, float]) -> tuple[float, float]:
    """Where a zone's name goes: the middle of its side on the board edge, 1.5" inside (the
    middle of the zone is where models stand)."""
    ix, iy = inward
    depth = [p[0] * ix + p[1] * iy for p in zone]
    edge_points = [p for p, d in zip(zone, depth, strict=True) if d <= min(depth) + 1e-6]
    x = sum(p[0] for p in edge_points) / len(edge_points)
    y = sum(p[1] for p in edge_points) / len(edge_points)
    return x + ix * 1.5, y + iy * 1.5


# ------------------------------------------------------------------------------ the overlay


class ScrollhammerOverlay(RulesetOverlay):
    """Centre line, deployment zones, terrain sections, violations and Night Fighting bands."""

    def __init__(self, scene: QGraphicsScene) -> None:
        super().__init__(
            {
                "halves": OverlayLayer(scene, Z_DEPLOYMENT + 0.1),
                "sections": OverlayLayer(scene, Z_OVERLAY_LOW - 0.2),
                "night": OverlayLayer(scene, Z_OVERLAY_LOW - 0.1),
                "violations": OverlayLayer(scene, Z_OVERLAY_HIGH + 0.4),
            }
        )
        self.night_view: NightFightingView | None = None

    def clear(self) -> None:
        super().clear()
        self.night_view = None

    def show_report(self, scenario: Scenario, report: ScrollhammerReport) -> None:
        self._halves(scenario, report)
        self._sections(report)
        self.show_violations(report.violations, "sh")

    def _halves(self, scenario: Scenario, report: ScrollhammerReport) -> None:
        layer = self.layers["halves"]
        layer.begin()
        halves = report.halves
        (x0, y0), (x1, y1) = halves.line

        def build_line() -> tuple[list[Stroke], LabelSpec]:
            path = QPainterPath(scene_point(x0, y0))
            path.lineTo(scene_point(x1, y1))
            pen = cosmetic_pen(QColor("#37474f"), 1.6, Qt.PenStyle.DashDotLine)
            mid = scene_point((x0 + x1) / 2, (y0 + y1) / 2)
            return [Stroke(path, pen)], LabelSpec(
                "centre line", QPointF(mid), QColor("#37474f"), QColor(255, 255, 255, 200)
            )

        layer.put("line", halves.line, build_line)
        for half in halves.players:
            colour = player_colour(scenario, half.player)
            text = f"{player_name(scenario, half.player)} deployment zone ({half.edge.name} edge)"
            anchor = _zone_label_point(half.zone, half.edge.inward)

            def build_zone(
                zone: Any = half.zone,
                colour: QColor = colour,
                text: str = text,
                anchor: tuple[float, float] = anchor,
            ) -> tuple[list[Stroke], LabelSpec]:
                path = polygon_path(zone)
                return [
                    Stroke(path, cosmetic_pen(colour, 1.5), QBrush(translucent(colour, 38)))
                ], LabelSpec(text, scene_point(*anchor), colour.darker(160), None, bold=True)

            layer.put(("zone", half.player), (half.zone, colour.name(), text), build_zone)
        layer.end()

    def _sections(self, report: ScrollhammerReport) -> None:
        layer = self.layers["sections"]
        layer.begin()
        counts = {c.section_id: c for c in report.terrain.sections}
        for section in report.terrain.grid.sections:
            count = counts.get(section.id)
            pieces = len(count.pieces) if count else 0
            limit = count.limit if count else None
            over = limit is not None and pieces > limit
            text = (
                f"{section.id}: {pieces}/{limit} pieces"
                if limit is not None
                else f"{section.id}: {pieces} pieces (no D6 yet)"
            )
            signature = (section.polygon, text, over)

            def build(
                polygon: Any = section.polygon, text: str = text, over: bool = over
            ) -> tuple[list[Stroke], LabelSpec]:
                colour = QColor("#d0021b") if over else QColor(60, 60, 60, 110)
                path = polygon_path(polygon)
                xs = [p[0] for p in polygon]
                ys = [p[1] for p in polygon]
                corner = scene_point(min(xs) + 0.3, max(ys) - 0.3)
                return [Stroke(path, cosmetic_pen(colour, 1.0, Qt.PenStyle.DotLine))], LabelSpec(
                    text,
                    QPointF(corner.x() + 2.2, corner.y()),
                    QColor("white") if over else QColor("#444444"),
                    translucent(colour, 220) if over else QColor(255, 255, 255, 150),
                    anchor="below",
                )

            layer.put(("section", section.id), signature, build)
        layer.end()

    def show_night(self, scenario: Scenario, view: NightFightingView | None) -> None:
        """Band areas around the shooter and each enemy unit's band (``None``: nothing)."""
        layer = self.layers["night"]
        self.night_view = view
        layer.begin()
        if view is not None:
            for area in view.areas:
                if area.geometry.is_empty:
                    continue
                name = area.band.name

                def build(
                    geometry: BaseGeometry = area.geometry, name: str = name
                ) -> tuple[list[Stroke], None]:
                    fill = NIGHT_COLOURS.get(name, QColor(0, 0, 0, 60))
                    edge = cosmetic_pen(QColor(20, 30, 80, 170), 1.0, Qt.PenStyle.DashLine)
                    return [Stroke(geometry_path(geometry), edge, QBrush(fill))], None

                layer.put(("band", name), (view.shooter_id, area.geometry.wkb), build)
            for target in view.targets:
                try:
                    unit = scenario.unit(target.target_id)
                except KeyError:
                    continue
                text = f"{target.band.name}: {inches(round(target.distance, 3))}"

                def build_target(
                    unit: Any = unit, text: str = text, points: Any = target.points
                ) -> tuple[list[Stroke], LabelSpec]:
                    path = QPainterPath(scene_point(*points[0]))
                    path.lineTo(scene_point(*points[1]))
                    pen = cosmetic_pen(QColor("#1a237e"), 1.4, Qt.PenStyle.DotLine)
                    top = max(m.y + m.base.bounding_radius for m in unit.models)
                    mean_x = sum(m.x for m in unit.models) / len(unit.models)
                    # Above the unit's own name tag, which sits just over its bases.
                    return [Stroke(path, pen)], LabelSpec(
                        text,
                        scene_point(mean_x, top + 1.5),
                        QColor("white"),
                        QColor(26, 35, 126, 225),
                        anchor="above",
                    )

                layer.put(
                    ("target", target.target_id),
                    (text, target.points, tuple((m.x, m.y) for m in unit.models)),
                    build_target,
                )
            self._band_marks(layer, view)
        layer.end()

    def _band_marks(self, layer: OverlayLayer, view: NightFightingView) -> None:
        """Tags on each band's outer edge ("12\"", "24\"", "36\"")."""
        for area in view.areas:
            limit = area.band.up_to
            if limit is None or area.geometry.is_empty:
                continue
            bounds = area.geometry.bounds
            text = f"{area.band.name} to {inches(limit)}"

            def build(bounds: Any = bounds, text: str = text) -> tuple[list[Stroke], LabelSpec]:
                x = (bounds[0] + bounds[2]) / 2
                return [], LabelSpec(
                    text,
                    scene_point(x, bounds[3]),
                    QColor("#1a237e"),
                    QColor(255, 255, 255, 190),
                    anchor="below",
                )

            layer.put(("mark", area.band.name), (bounds, text), build)


def night_view_for(scenario: Scenario, unit_id: str | None) -> NightFightingView | None:
    """The Night Fighting bands to draw for the selected unit, when the mission has them."""
    if unit_id is None:
        return None
    mission = mission_of(scenario.option("mission"))
    if mission is not None and night_fighting_scheme(mission) == "none":
        return None
    try:
        unit = scenario.unit(unit_id)
    except KeyError:
        return None
    if not unit.models:
        return None
    return night_fighting_view(scenario, unit_id)
