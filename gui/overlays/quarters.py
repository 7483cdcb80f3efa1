"""The table quarters overlay: the 1 mm centre lines, the centre's 6" circle, and which players
have a unit wholly within each quarter.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainterPath

from engine.model import Scenario
from gui.items import cosmetic_pen
from gui.live import RulesSnapshot
from gui.overlays.layer import LabelSpec, OverlayLayer, Stroke, player_name
from gui.shapes import (
    circle_path,
    player_colour,
    scene_point,
    translucent,
)

MM = 1 / 25.4


# ------------------------------------------------------------------------------ quarters


def quarter_presence(scenario: Scenario, snapshot: RulesSnapshot | None) -> dict[str, list[str]]:
    """Quarter name -> player ids with a unit wholly within it (from the engine's ``quarter``)."""
    presence: dict[str, list[str]] = {q: [] for q in ("NW", "NE", "SW", "SE")}
    if snapshot is None:
        return presence
    for unit_id, state in snapshot.units.items():
        if state.quarter in presence:
            try:
                player = scenario.unit(unit_id).player
            except KeyError:
                continue
            if player not in presence[state.quarter]:
                presence[state.quarter].append(player)
    return presence


def update_quarters_overlay(
    layer: OverlayLayer, scenario: Scenario, snapshot: RulesSnapshot | None
) -> None:
    bf = scenario.battlefield
    cx, cy = bf.centre
    half_line = 0.5 * MM
    layer.begin()

    def build_lines() -> tuple[list[Stroke], None]:
        lines = QPainterPath()
        lines.addRect(QRectF(cx - half_line, -bf.depth, 2 * half_line, bf.depth))
        lines.addRect(QRectF(0, -cy - half_line, bf.width, 2 * half_line))
        colour = QColor("#37474f")
        centre = circle_path(cx, cy, 6.0)
        return [
            Stroke(lines, cosmetic_pen(colour, 1.0), QBrush(colour)),
            Stroke(
                centre,
                cosmetic_pen(colour, 1.5, Qt.PenStyle.DashLine),
                QBrush(QColor(55, 71, 79, 20)),
            ),
        ], LabelSpec('6" of centre', scene_point(cx, cy - 6.0), QColor("#37474f"), anchor="below")

    layer.put("lines", (bf.width, bf.depth), build_lines)
    presence = quarter_presence(scenario, snapshot)
    # Presence tags sit just outside the table, by each quarter's outer edge, so they never
    # hide a model.
    corners = {"NW": (0.25, True), "NE": (0.75, True), "SW": (0.25, False), "SE": (0.75, False)}
    for quarter, (fx, north) in corners.items():
        players = presence[quarter]
        names = ", ".join(player_name(scenario, p) for p in players) if players else "nobody"
        text = f"{quarter} quarter: {names}" if snapshot is not None else f"{quarter} quarter"
        colour = player_colour(scenario, players[0]) if len(players) == 1 else QColor("#37474f")
        position = scene_point(bf.width * fx, bf.depth if north else 0.0)

        def build_label(
            text: str = text,
            colour: QColor = colour,
            position: QPointF = position,
            north: bool = north,
        ) -> tuple[list[Stroke], LabelSpec]:
            return [], LabelSpec(
                text,
                position,
                QColor("white"),
                translucent(colour, 220),
                anchor="above" if north else "below",
            )

        layer.put(("presence", quarter), (text, colour.name(), bf.width, bf.depth), build_label)
    layer.end()
