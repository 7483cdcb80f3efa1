"""Export the battlefield as PNG, SVG or PDF, with an optional caption and the ruling text,
for sharing a ruling.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QMarginsF, QRectF, QSize, QSizeF, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetricsF,
    QImage,
    QPageLayout,
    QPageSize,
    QPainter,
    QPdfWriter,
)
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import QGraphicsScene

from engine.errors import WarplanError

EXPORT_FORMATS = {".png": "PNG image", ".svg": "SVG drawing", ".pdf": "PDF document"}
EXPORT_FILTER = "PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"
PAD = 24.0


def _wrapped_height(font: QFont, width: float, text: str) -> float:
    """How tall ``text`` is when word-wrapped to ``width`` (the box is tall enough for any
    caption or ruling, so nothing is cut)."""
    box = QRectF(0, 0, width, 100_000)
    return QFontMetricsF(font).boundingRect(box, Qt.TextFlag.TextWordWrap, text).height()


class _Layout:
    """Where the caption, the battlefield and the ruling go on a page ``width`` wide."""

    def __init__(self, board: QRectF, width: float, caption: str, ruling: str) -> None:
        self.width = width
        self.caption_font = QFont()
        self.caption_font.setPointSizeF(16)
        self.caption_font.setBold(True)
        self.text_font = QFont()
        self.text_font.setPointSizeF(9.5)
        inner = width - 2 * PAD
        y = PAD
        self.caption_rect = QRectF()
        if caption:
            height = _wrapped_height(self.caption_font, inner, caption)
            self.caption_rect = QRectF(PAD, y, inner, height)
            y += height + PAD / 2
        board_height = inner * board.height() / board.width()
        self.board_rect = QRectF(PAD, y, inner, board_height)
        y += board_height + PAD / 2
        self.ruling_rect = QRectF()
        if ruling:
            height = _wrapped_height(self.text_font, inner, ruling)
            self.ruling_rect = QRectF(PAD, y, inner, height)
            y += height + PAD / 2
        self.height = y + PAD / 2


def _paint(
    painter: QPainter,
    scene: QGraphicsScene,
    board: QRectF,
    layout: _Layout,
    caption: str,
    ruling: str,
) -> None:
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
    painter.fillRect(QRectF(0, 0, layout.width, layout.height), QColor("white"))
    painter.setPen(QColor("#111111"))
    if caption:
        painter.setFont(layout.caption_font)
        painter.drawText(layout.caption_rect, Qt.TextFlag.TextWordWrap, caption)
    scene.render(painter, layout.board_rect, board, Qt.AspectRatioMode.KeepAspectRatio)
    if ruling:
        painter.setFont(layout.text_font)
        painter.setPen(QColor("#111111"))
        painter.drawText(layout.ruling_rect, Qt.TextFlag.TextWordWrap, ruling)


def export_battlefield(
    scene: QGraphicsScene,
    board: QRectF,
    path: Path,
    *,
    caption: str = "",
    ruling: str = "",
    width: int = 1800,
) -> Path:
    """Write the battlefield ``board`` (scene rect) to ``path`` (.png, .svg or .pdf)."""
    suffix = path.suffix.lower()
    if suffix not in EXPORT_FORMATS:
        raise WarplanError(f"{path.name}: choose a .png, .svg or .pdf file name")
    selected = scene.selectedItems()
    for item in selected:
        item.setSelected(False)
    try:
        if suffix == ".png":
            layout = _Layout(board, float(width), caption, ruling)
            image = QImage(QSize(width, int(layout.height)), QImage.Format.Format_ARGB32)
            image.fill(QColor("white"))
            painter = QPainter(image)
            _paint(painter, scene, board, layout, caption, ruling)
            painter.end()
            if not image.save(str(path)):  # the format follows the .png suffix
                raise WarplanError(f"{path}: cannot be written")
        elif suffix == ".svg":
            layout = _Layout(board, float(width), caption, ruling)
            generator = QSvgGenerator()
            generator.setFileName(str(path))
            generator.setSize(QSize(width, int(layout.height)))
            generator.setViewBox(QRectF(0, 0, width, layout.height))
            generator.setTitle(caption or "Warplan battlefield")
            generator.setDescription(ruling[:2000])
            painter = QPainter(generator)
            _paint(painter, scene, board, layout, caption, ruling)
            painter.end()
        else:
            page_width = 842.0
            layout = _Layout(board, page_width, caption, ruling)
            writer = QPdfWriter(str(path))
            writer.setResolution(72)
            writer.setPageSize(QPageSize(QSizeF(page_width, layout.height), QPageSize.Unit.Point))
            writer.setPageMargins(QMarginsF(0, 0, 0, 0), QPageLayout.Unit.Point)
            writer.setTitle(caption or "Warplan battlefield")
            painter = QPainter(writer)
            _paint(painter, scene, board, layout, caption, ruling)
            painter.end()
    finally:
        for item in selected:
            item.setSelected(True)
    if not path.exists() or path.stat().st_size == 0:
        raise WarplanError(f"{path}: nothing was written")
    return path
