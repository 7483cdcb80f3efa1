"""The hidden-placement map on the board: hidden cells filled, blocked cells hatched, visible
cells left clear (the engine's map, :mod:`engine.hidden`; nothing is decided here)."""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QBrush, QPainterPath, QPen

from engine.hidden import HiddenMap
from gui import theme
from gui.overlays.layer import OverlayLayer, Stroke

HIDDEN_ALPHA = 110
BLOCKED_ALPHA = 150


def cell_paths(result: HiddenMap) -> dict[str, QPainterPath]:
    """One path per cell state, each the union of its cells' squares in scene coordinates."""
    paths = {"hidden": QPainterPath(), "blocked": QPainterPath()}
    paths["hidden"].setFillRule(Qt.FillRule.WindingFill)
    paths["blocked"].setFillRule(Qt.FillRule.WindingFill)
    half = result.step / 2.0
    for x, y, state in result.cells:
        path = paths.get(state)
        if path is not None:
            path.addRect(QRectF(x - half, -(y + half), result.step, result.step))
    return paths


def update_hidden_overlay(layer: OverlayLayer, result: HiddenMap | None, version: object) -> None:
    """Show ``result`` (``None``: nothing); ``version`` names it, so an unchanged map is not
    rebuilt."""
    layer.begin()
    if result is not None:
        palette = theme.current()

        def build() -> tuple[list[Stroke], None]:
            paths = cell_paths(result)
            no_pen = QPen(Qt.PenStyle.NoPen)
            hidden = QBrush(palette.colour("hidden_map", HIDDEN_ALPHA))
            blocked = QBrush(
                palette.colour("hidden_map_blocked", BLOCKED_ALPHA), Qt.BrushStyle.BDiagPattern
            )
            return [
                Stroke(paths["hidden"], no_pen, hidden),
                Stroke(paths["blocked"], no_pen, blocked),
            ], None

        layer.put("hidden-map", (version, palette.id), build)
    layer.end()
