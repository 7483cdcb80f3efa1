"""Overlay infrastructure: keyed items that paint a few cached strokes, rebuilt only when
their state changed (:class:`OverlayLayer`), so a change repaints only what changed.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator
from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItem, QGraphicsScene, QStyleOptionGraphicsItem, QWidget

from engine.model import Scenario
from gui.items import Z_LABEL, LabelItem


@dataclass(frozen=True)
class Stroke:
    path: QPainterPath
    pen: QPen
    brush: QBrush | None = None


class OverlayItem(QGraphicsItem):
    """Paints a few cached strokes; knows nothing about rules."""

    def __init__(self, z: float) -> None:
        super().__init__()
        self._strokes: tuple[Stroke, ...] = ()
        self._bounds = QRectF()
        self.setZValue(z)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def set_strokes(self, strokes: Iterable[Stroke]) -> None:
        self.prepareGeometryChange()
        self._strokes = tuple(strokes)
        bounds = QRectF()
        for stroke in self._strokes:
            bounds = bounds.united(stroke.path.boundingRect())
        # Cosmetic pens are a few pixels wide; half an inch of margin covers them at any zoom
        # a player uses (they are re-clipped by the view anyway).
        self._bounds = bounds.adjusted(-0.5, -0.5, 0.5, 0.5)
        self.update()

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt's name
        return self._bounds

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        for stroke in self._strokes:
            painter.setPen(stroke.pen)
            painter.setBrush(stroke.brush if stroke.brush is not None else Qt.BrushStyle.NoBrush)
            painter.drawPath(stroke.path)


@dataclass
class _Entry:
    state: Hashable
    item: OverlayItem
    label: LabelItem | None


@dataclass(frozen=True)
class LabelSpec:
    text: str
    position: QPointF
    colour: QColor
    background: QColor | None = None
    anchor: str = "centre"
    bold: bool = False


class OverlayLayer:
    """A set of keyed overlay items; ``put`` rebuilds an item only when its state changed."""

    def __init__(self, scene: QGraphicsScene, z: float) -> None:
        self._scene = scene
        self._z = z
        self._entries: dict[Hashable, _Entry] = {}
        self._visible = True
        self._opacity = 1.0
        self._seen: set[Hashable] = set()

    def begin(self) -> None:
        self._seen = set()

    def put(
        self,
        key: Hashable,
        state: Hashable,
        build: Callable[[], tuple[Iterable[Stroke], LabelSpec | None]],
    ) -> None:
        self._seen.add(key)
        entry = self._entries.get(key)
        if entry is not None and entry.state == state:
            return
        strokes, label_spec = build()
        if entry is None:
            item = OverlayItem(self._z)
            item.setVisible(self._visible)
            item.setOpacity(self._opacity)
            self._scene.addItem(item)
            entry = _Entry(state, item, None)
            self._entries[key] = entry
        entry.state = state
        entry.item.set_strokes(strokes)
        if label_spec is None:
            if entry.label is not None:
                self._scene.removeItem(entry.label)
                entry.label = None
        else:
            if entry.label is None:
                entry.label = LabelItem(
                    label_spec.text, anchor=label_spec.anchor, point_size=7.5, bold=label_spec.bold
                )
                # Above terrain and models whatever the layer's own height (a zone's name drawn
                # under the ruins would be hidden by them); placement keeps labels apart.
                entry.label.setZValue(Z_LABEL + self._z * 0.01)
                entry.label.setVisible(self._visible)
                entry.label.setOpacity(self._opacity)
                self._scene.addItem(entry.label)
            entry.label.set_text(label_spec.text)
            entry.label.set_colours(label_spec.colour, label_spec.background)
            entry.label.setPos(label_spec.position)

    def end(self) -> None:
        """Remove the items not ``put`` since ``begin``."""
        for key in [k for k in self._entries if k not in self._seen]:
            self._remove(key)

    def clear(self) -> None:
        for key in list(self._entries):
            self._remove(key)

    def _remove(self, key: Hashable) -> None:
        entry = self._entries.pop(key)
        self._scene.removeItem(entry.item)
        if entry.label is not None:
            self._scene.removeItem(entry.label)

    def set_visible(self, visible: bool) -> None:
        self._visible = visible
        for entry in self._entries.values():
            entry.item.setVisible(visible)
            if entry.label is not None:
                entry.label.setVisible(visible)

    def set_opacity(self, opacity: float) -> None:
        if opacity == self._opacity:
            return
        self._opacity = opacity
        for entry in self._entries.values():
            entry.item.setOpacity(opacity)
            if entry.label is not None:
                entry.label.setOpacity(opacity)

    def keys(self) -> list[Hashable]:
        return list(self._entries)

    def graphics_items(self) -> list[QGraphicsItem]:
        items: list[QGraphicsItem] = []
        for entry in self._entries.values():
            items.append(entry.item)
            if entry.label is not None:
                items.append(entry.label)
        return items

    def __iter__(self) -> Iterator[Hashable]:
        return iter(list(self._entries))

    def label_texts(self) -> dict[Hashable, str]:
        return {k: e.label.text() for k, e in self._entries.items() if e.label is not None}

    def item(self, key: Hashable) -> OverlayItem | None:
        entry = self._entries.get(key)
        return entry.item if entry is not None else None

    def state(self, key: Hashable) -> Hashable:
        return self._entries[key].state


def player_name(scenario: Scenario, player_id: str) -> str:
    for player in scenario.players:
        if player.id == player_id:
            return player.name or player.id
    return player_id


def format_level(value: float) -> str:
    return f"{value:g}"
