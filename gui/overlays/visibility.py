"""The line of sight overlay: each target unit of the selected unit, ringed by its verdict,
with the engine's witness line.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPainterPath

from engine.model import Scenario, Unit
from engine.visibility import PairVisibility
from gui import theme
from gui.items import cosmetic_pen
from gui.live import VisibilityResult
from gui.overlays.layer import LabelSpec, OverlayLayer, Stroke
from gui.shapes import (
    grown_base_path,
    rotated,
    scene_point,
    translucent,
)

# ------------------------------------------------------------------------------ line of sight

Point = tuple[float, float]


def visibility_verdict(pair: PairVisibility) -> str:
    """The engine's three answers about one target, in words."""
    if not pair.visible:
        return "hidden"
    words = "fully visible" if pair.fully_visible else "visible"
    if pair.cover:
        words += ", in cover"
    return words


def visibility_colour(pair: PairVisibility) -> QColor:
    """The current palette's colour for the engine's answer about one target."""
    palette = theme.current()
    if not pair.visible:
        return palette.colour("hidden")
    return palette.colour("fully_visible" if pair.fully_visible else "visible")


def update_visibility_overlay(
    layer: OverlayLayer, scenario: Scenario, result: VisibilityResult | None
) -> None:
    layer.begin()
    if result is not None:
        for pair in result.pairs:
            if pair.observer != result.observer:
                continue
            try:
                target = scenario.unit(pair.target)
            except KeyError:
                continue
            verdict = visibility_verdict(pair)
            colour = visibility_colour(pair)
            witness = pair.witness
            witness_points: tuple[Point, Point] | None = None
            if witness is not None and pair.visible:
                witness_points = (witness.start[:2], witness.end[:2])
            positions = tuple((m.x, m.y, m.rotation, m.base) for m in target.models)
            signature = (positions, verdict, witness_points)

            def build(
                target: Unit = target,
                colour: QColor = colour,
                verdict: str = verdict,
                witness_points: tuple[Point, Point] | None = witness_points,
                hidden: bool = not pair.visible,
            ) -> tuple[list[Stroke], LabelSpec]:
                strokes = []
                style = Qt.PenStyle.DashLine if hidden else Qt.PenStyle.SolidLine
                for model in target.models:
                    ring = rotated(grown_base_path(model.base, 0.12), model.rotation)
                    strokes.append(
                        Stroke(ring.translated(model.x, -model.y), cosmetic_pen(colour, 2.5, style))
                    )
                if witness_points is not None:
                    (sx, sy), (ex, ey) = witness_points
                    line = QPainterPath(scene_point(sx, sy))
                    line.lineTo(scene_point(ex, ey))
                    strokes.append(
                        Stroke(line, cosmetic_pen(colour.darker(115), 1.6, Qt.PenStyle.DashLine))
                    )
                bottom = min(m.y - m.base.bounding_radius for m in target.models)
                mean_x = sum(m.x for m in target.models) / len(target.models)
                label = LabelSpec(
                    verdict,
                    scene_point(mean_x, bottom - 0.1),
                    theme.current().colour("label_text"),
                    translucent(colour.darker(130), 230),
                    anchor="below",
                )
                return strokes, label

            layer.put(("target", pair.target), signature, build)
    layer.end()


def visibility_summary(result: VisibilityResult | None) -> str:
    if result is None:
        return ""
    if result.error:
        return f"Line of sight failed: {result.error}"
    lines = []
    for pair in result.pairs:
        lines.append(f"{pair.observer} -> {pair.target}: {visibility_verdict(pair)}")
        if pair.explanation:
            lines.append("  " + pair.explanation.replace("\n", "\n  "))
    return "\n".join(lines)
