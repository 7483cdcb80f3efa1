"""The engine's line-of-sight answers in words and colours, for the Ruling dock and the sight
overlays (:mod:`gui.sight_overlay` draws them).
"""

from __future__ import annotations

from PySide6.QtGui import QColor

from engine.visibility import PairVisibility
from gui import theme
from gui.live import VisibilityResult


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
