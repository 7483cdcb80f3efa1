"""The table quarters overlay: the 1 mm centre lines, the centre's 6" circle, and which players
have a unit wholly within each quarter.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainterPath

from engine.areas import CENTRE_RANGE, QUARTER_LINE_WIDTH, QUARTERS
from engine.evaluate import Evaluation
from engine.model import Scenario
from gui import theme
from gui.items import cosmetic_pen
from gui.overlays.layer import LabelSpec, OverlayLayer, Stroke, player_name
from gui.shapes import (
    circle_path,
    player_colour,
    scene_point,
    translucent,
)


def quarter_presence(evaluation: Evaluation | None) -> dict[str, list[str]]:
    """Quarter name -> player ids with a unit wholly within it (from the engine's ``quarter``)."""
    presence: dict[str, list[str]] = {q: [] for q in QUARTERS}
    for unit in evaluation.units if evaluation is not None else ():
        if unit.quarter in presence and unit.player not in presence[unit.quarter]:
            presence[unit.quarter].append(unit.player)
    return presence


def update_quarters_overlay(
    layer: OverlayLayer, scenario: Scenario, evaluation: Evaluation | None
) -> None:
    bf = scenario.battlefield
    cx, cy = bf.centre
    half_line = QUARTER_LINE_WIDTH / 2
    layer.begin()

    def build_lines() -> tuple[list[Stroke], LabelSpec]:
        lines = QPainterPath()
        lines.addRect(QRectF(cx - half_line, -bf.depth, 2 * half_line, bf.depth))
        lines.addRect(QRectF(0, -cy - half_line, bf.width, 2 * half_line))
        colour = theme.current().colour("quarter_lines")
        centre = circle_path(cx, cy, CENTRE_RANGE)
        return [
            Stroke(lines, cosmetic_pen(colour, 1.0), QBrush(colour)),
            Stroke(
                centre,
                cosmetic_pen(colour, 1.5, Qt.PenStyle.DashLine),
                QBrush(translucent(colour, 20)),
            ),
        ], LabelSpec(
            f'{CENTRE_RANGE:g}" of centre',
            scene_point(cx, cy - CENTRE_RANGE),
            theme.current().colour("table_text"),
            anchor="below",
        )

    layer.put("lines", (bf.width, bf.depth), build_lines)
    presence = quarter_presence(evaluation)
    # Presence tags sit just outside the table, by each quarter's outer edge, so they never
    # hide a model.
    corners = {"NW": (0.25, True), "NE": (0.75, True), "SW": (0.25, False), "SE": (0.75, False)}
    for quarter, (fx, north) in corners.items():
        players = presence[quarter]
        names = ", ".join(player_name(scenario, p) for p in players) if players else "nobody"
        text = f"{quarter} quarter: {names}" if evaluation is not None else f"{quarter} quarter"
        colour = (
            player_colour(scenario, players[0])
            if len(players) == 1
            else theme.current().colour("quarter_lines")
        )
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
                theme.current().colour("label_text"),
                translucent(colour, 220),
                anchor="above" if north else "below",
            )

        layer.put(("presence", quarter), (text, colour.name(), bf.width, bf.depth), build_label)
    layer.end()
