"""Graphics items for what a scenario holds. Each paints cached paths only: no rules here.

Every item carries ``entity_id`` (the document id it mirrors) and ``kind``; the scene keeps
an id-to-item map and updates items in place when the document changes.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontMetricsF,
    QPainter,
    QPainterPath,
    QPainterPathStroker,
    QPen,
)
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsPathItem,
    QStyleOptionGraphicsItem,
    QWidget,
)

from engine.annotations import Ruler
from engine.model import Annotation, Marker, Model, Objective, TerrainPiece
from gui import theme
from gui.shapes import (
    base_path,
    circle_path,
    polygon_path,
    rotated,
    scene_point,
    translucent,
)

Z_TERRAIN = 0.0
Z_DEPLOYMENT = -1.0
Z_OVERLAY_LOW = 1.0
Z_OBJECTIVE = 2.0
Z_MARKER = 2.5
Z_MODEL = 3.0
Z_OVERLAY_HIGH = 4.0
Z_LABEL = 5.0
Z_ANNOTATION = 5.5
Z_TOOL = 6.0

LEADER_MIN_LENGTH = 3.0
"""Pixels: a label moved less than this from its anchor needs no leader line."""


def cosmetic_pen(
    colour: QColor, width: float = 1.0, style: Qt.PenStyle = Qt.PenStyle.SolidLine
) -> QPen:
    """A pen ``width`` pixels wide at any zoom."""
    pen = QPen(colour, width, style)
    pen.setCosmetic(True)
    return pen


def draw_selection_outline(painter: QPainter, outline: QPainterPath) -> None:
    """The ring every selected board item gets, over what it has painted."""
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.setPen(cosmetic_pen(theme.current().colour("selection"), 2.5))
    painter.drawPath(outline)


class OutlinedPathItem(QGraphicsPathItem):
    """A path item painted with its own brush and pen, ringed when selected."""

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        painter.setBrush(self.brush())
        painter.setPen(self.pen())
        painter.drawPath(self.path())
        if self.isSelected():
            draw_selection_outline(painter, self.path())


class ModelItem(OutlinedPathItem):
    """One model's base at true size, filled in its player's colour."""

    kind = "model"

    def __init__(self, unit_id: str, model: Model, colour: QColor) -> None:
        super().__init__()
        self.entity_id = model.id
        self.unit_id = unit_id
        self.overlapping = False
        self._colour = QColor(colour)
        self._base = model.base
        self.setFlags(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable)
        self.setZValue(Z_MODEL)
        self.setPath(base_path(model.base))
        self._apply_style()
        self.update_from(model)

    def update_from(self, model: Model, colour: QColor | None = None) -> None:
        if model.base != self._base:
            self._base = model.base
            self.setPath(base_path(model.base))
        if colour is not None and colour != self._colour:
            self._colour = QColor(colour)
            self._apply_style()
        self.setPos(model.x, -model.y)
        self.setRotation(-model.rotation)

    def set_overlapping(self, overlapping: bool) -> None:
        if overlapping != self.overlapping:
            self.overlapping = overlapping
            self._apply_style()

    def _apply_style(self) -> None:
        self.setBrush(QBrush(translucent(self._colour, 215)))
        if self.overlapping:
            self.setPen(cosmetic_pen(theme.current().colour("overlap"), 2.5))
        else:
            self.setPen(cosmetic_pen(self._colour.darker(170), 1.0))


ATTACHED_GAP = 3.0
"""Pixels between a label's box and the item attached to it."""


class LabelItem(QGraphicsItem):
    """A text tag that keeps its pixel size at any zoom (unit names, objective ids, edges).

    Its box may sit away from its anchor (``pos()``) when another label is in the way
    (:meth:`set_offset`, chosen by the scene's label placement); a thin leader line then joins
    the box to the anchor. Boxes and the leader are cached, never computed in ``paint``.
    """

    placement_priority = 1
    """Lower is placed first, so it moves less (zone names and captions before unit names)."""
    movable = True
    """False for a label the placement leaves where it is (the table's edge names)."""

    def __init__(
        self,
        text: str,
        *,
        colour: QColor | None = None,
        background: QColor | None = None,
        point_size: float = 8.5,
        bold: bool = False,
        anchor: str = "above",
    ) -> None:
        super().__init__()
        self.entity_id = ""
        self._text = ""
        self._font = QFont()
        self._font.setPointSizeF(point_size)
        self._font.setBold(bold)
        self._colour = colour or theme.current().colour("annotation")
        self._background = background
        self._anchor = anchor
        self._rect = QRectF()
        self._offset = QPointF()
        self._box = QRectF()
        self._leader = QPainterPath()
        self._bounds = QRectF()
        self._attached: QGraphicsItem | None = None
        self._attached_width = 0.0
        self.setFlags(
            QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations
            | QGraphicsItem.GraphicsItemFlag.ItemSendsGeometryChanges
        )
        self.setZValue(Z_LABEL)
        self.setScale(theme.label_scale())
        self.set_text(text)

    def text(self) -> str:
        return self._text

    def set_text(self, text: str) -> None:
        if text == self._text and not self._rect.isNull():
            return
        self.prepareGeometryChange()
        self._text = text
        metrics = QFontMetricsF(self._font)
        lines = text.split("\n")
        width = max(metrics.horizontalAdvance(line) for line in lines) + 6
        height = metrics.height() * len(lines) + 2
        if self._anchor == "above":
            self._rect = QRectF(-width / 2, -height - 2, width, height)
        elif self._anchor == "below":
            self._rect = QRectF(-width / 2, 2, width, height)
        else:
            self._rect = QRectF(-width / 2, -height / 2, width, height)
        self._place_box()
        self._notify_placement()

    def natural_rect(self) -> QRectF:
        """The box unmoved with the room an attached item takes on its right, in item
        coordinates (pixels before :meth:`scale`): what the label placement keeps clear."""
        if self._attached is None:
            return QRectF(self._rect)
        return self._rect.adjusted(0, 0, ATTACHED_GAP + self._attached_width, 0)

    def attach(self, item: QGraphicsItem, width: float) -> None:
        """Carry ``item`` (a badge, ``width`` pixels wide, its top-left at its origin) just
        right of the box wherever the placement moves it, and keep other labels off it."""
        if item is not self._attached or width != self._attached_width:
            self._attached = item
            self._attached_width = width
            item.setParentItem(self)
            self._place_box()
            self._notify_placement()

    def remove_attached(self) -> None:
        """Take the attached item off the board (the scene lets go of it and of its parent)."""
        attached, self._attached, self._attached_width = self._attached, None, 0.0
        scene = self.scene()
        if attached is not None and scene is not None:
            scene.removeItem(attached)
            self._notify_placement()

    def box_rect(self) -> QRectF:
        """The box where it is drawn, in item coordinates."""
        return QRectF(self._box)

    def offset(self) -> QPointF:
        return QPointF(self._offset)

    def set_offset(self, offset: QPointF) -> None:
        """Draw the box ``offset`` (item coordinates) away from its natural place."""
        if offset == self._offset:
            return
        self._offset = QPointF(offset)
        self._place_box()

    def leader_path(self) -> QPainterPath:
        return QPainterPath(self._leader)

    def _place_box(self) -> None:
        self.prepareGeometryChange()
        self._box = self._rect.translated(self._offset)
        self._leader = QPainterPath()
        if (abs(self._offset.x()) + abs(self._offset.y())) * self.scale() >= LEADER_MIN_LENGTH:
            anchor = QPointF(0.0, 0.0)
            nearest = QPointF(
                min(max(anchor.x(), self._box.left()), self._box.right()),
                min(max(anchor.y(), self._box.top()), self._box.bottom()),
            )
            self._leader.moveTo(anchor)
            self._leader.lineTo(nearest)
            self._leader.addEllipse(anchor, 1.5, 1.5)
        self._bounds = self._box.united(self._leader.boundingRect()).adjusted(-1, -1, 1, 1)
        if self._attached is not None:
            attached = self._attached.boundingRect()
            self._attached.setPos(
                self._box.right() + ATTACHED_GAP,
                self._box.center().y() - attached.height() / 2 - attached.top(),
            )
        self.update()

    def _notify_placement(self) -> None:
        scene = self.scene()
        request = getattr(scene, "request_label_placement", None)
        if request is not None:
            request()

    def itemChange(  # noqa: N802 - Qt's name
        self, change: QGraphicsItem.GraphicsItemChange, value: object
    ) -> object:
        if change in (
            QGraphicsItem.GraphicsItemChange.ItemPositionHasChanged,
            QGraphicsItem.GraphicsItemChange.ItemVisibleHasChanged,
            QGraphicsItem.GraphicsItemChange.ItemSceneHasChanged,
        ):
            self._notify_placement()
        return super().itemChange(change, value)

    def set_colours(self, colour: QColor, background: QColor | None) -> None:
        self._colour = colour
        self._background = background
        self.update()

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt's name
        return self._bounds

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        if not self._leader.isEmpty():
            painter.setPen(QPen(self._background or self._colour, 1.0))
            painter.setBrush(self._background or self._colour)
            painter.drawPath(self._leader)
        if self._background is not None:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(self._background)
            painter.drawRoundedRect(self._box, 3, 3)
        painter.setFont(self._font)
        painter.setPen(self._colour)
        painter.drawText(self._box, Qt.AlignmentFlag.AlignCenter, self._text)


class UnitLabelItem(LabelItem):
    """A unit's name above its models; dragging it drags the whole unit."""

    kind = "unit"
    placement_priority = 2

    def __init__(self, unit_id: str, text: str, colour: QColor) -> None:
        background = translucent(colour.darker(140), 220)
        super().__init__(
            text, colour=theme.current().colour("label_text"), background=background, point_size=7.5
        )
        self.entity_id = unit_id
        self.unit_id = unit_id
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable, True)
        self.setCursor(Qt.CursorShape.SizeAllCursor)

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        super().paint(painter, option, widget)
        if self.isSelected():
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.setPen(QPen(theme.current().colour("selection"), 2))
            painter.drawRoundedRect(self._box, 3, 3)


class TerrainItem(QGraphicsItem):
    """A terrain area (every footprint of it) with its solid features drawn darker on top."""

    kind = "terrain"

    def __init__(self, piece: TerrainPiece) -> None:
        super().__init__()
        self.entity_id = piece.id
        self._area = QPainterPath()
        self._features = QPainterPath()
        self._see_through = QPainterPath()
        self._fill = theme.current().terrain_fill("")
        self._obscuring = False
        self._bounds = QRectF()
        self.setFlags(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable)
        self.setZValue(Z_TERRAIN)
        self.update_from(piece)

    def update_from(self, piece: TerrainPiece) -> None:
        self.prepareGeometryChange()
        self._area = QPainterPath()
        for footprint in piece.footprints:
            self._area.addPath(polygon_path(footprint))
        self._features = QPainterPath()
        self._see_through = QPainterPath()
        for feature in piece.features:
            target = self._features if feature.solid else self._see_through
            target.addPath(polygon_path(feature.shape))
        self._fill = theme.current().terrain_fill(piece.kind)
        self._obscuring = piece.obscuring
        self._bounds = self._area.boundingRect().united(self._features.boundingRect())
        self.update()

    def area_path(self) -> QPainterPath:
        return self._area

    def boundingRect(self) -> QRectF:  # noqa: N802
        return self._bounds.adjusted(-0.2, -0.2, 0.2, 0.2)

    def shape(self) -> QPainterPath:
        return self._area

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        painter.setPen(cosmetic_pen(self._fill.darker(150), 1.2))
        painter.setBrush(translucent(self._fill, 170))
        painter.drawPath(self._area)
        if self._obscuring:
            painter.setBrush(QBrush(self._fill.darker(130), Qt.BrushStyle.BDiagPattern))
            painter.setPen(Qt.PenStyle.NoPen)
            painter.drawPath(self._area)
        feature = theme.current().colour("feature")
        painter.setPen(cosmetic_pen(feature.darker(130), 1.0))
        painter.setBrush(feature)
        painter.drawPath(self._features)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(cosmetic_pen(feature, 1.0, Qt.PenStyle.DashLine))
        painter.drawPath(self._see_through)
        if self.isSelected():
            draw_selection_outline(painter, self._area)


class ObjectiveItem(QGraphicsItem):
    """An objective marker at its true diameter; a terrain objective as a diamond on its area."""

    kind = "objective"

    def __init__(self, objective: Objective, terrain_area: QPainterPath | None) -> None:
        super().__init__()
        self.entity_id = objective.id
        self._marker = QPainterPath()
        self._terrain_area = QPainterPath()
        self._is_terrain_objective = False
        self._bounds = QRectF()
        self.setFlags(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable)
        self.setZValue(Z_OBJECTIVE)
        self.update_from(objective, terrain_area)

    def update_from(self, objective: Objective, terrain_area: QPainterPath | None) -> None:
        self.prepareGeometryChange()
        self._is_terrain_objective = objective.terrain is not None
        if self._is_terrain_objective:
            d = 0.6
            p = scene_point(objective.x, objective.y)
            path = QPainterPath()
            path.moveTo(p + QPointF(0, -d))
            path.lineTo(p + QPointF(d, 0))
            path.lineTo(p + QPointF(0, d))
            path.lineTo(p + QPointF(-d, 0))
            path.closeSubpath()
            self._marker = path
            self._terrain_area = terrain_area if terrain_area is not None else QPainterPath()
        else:
            self._marker = circle_path(objective.x, objective.y, objective.radius)
            self._terrain_area = QPainterPath()
        self._bounds = self._marker.boundingRect().united(self._terrain_area.boundingRect())
        self.update()

    def boundingRect(self) -> QRectF:  # noqa: N802
        return self._bounds.adjusted(-0.3, -0.3, 0.3, 0.3)

    def shape(self) -> QPainterPath:
        return self._marker

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        palette = theme.current()
        if self._is_terrain_objective:
            painter.setBrush(QBrush(palette.colour("objective_fill", 60)))
            painter.setPen(
                cosmetic_pen(palette.colour("terrain_objective"), 2.0, Qt.PenStyle.DashLine)
            )
            painter.drawPath(self._terrain_area)
        painter.setBrush(palette.colour("objective_fill"))
        painter.setPen(cosmetic_pen(palette.colour("objective_outline"), 1.5))
        painter.drawPath(self._marker)
        centre = self._marker.boundingRect().center()
        painter.setPen(cosmetic_pen(palette.colour("objective_outline"), 1.0))
        r = self._marker.boundingRect().width() / 4
        painter.drawLine(centre - QPointF(r, 0), centre + QPointF(r, 0))
        painter.drawLine(centre - QPointF(0, r), centre + QPointF(0, r))
        if self.isSelected():
            draw_selection_outline(painter, self._marker)


class MarkerItem(OutlinedPathItem):
    """An operation marker or other token: a 1" triangle in its player's colour."""

    kind = "marker"

    def __init__(self, marker: Marker, colour: QColor) -> None:
        super().__init__()
        self.entity_id = marker.id
        self.setFlags(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable)
        self.setZValue(Z_MARKER)
        path = QPainterPath()
        path.moveTo(0, -0.55)
        path.lineTo(0.5, 0.35)
        path.lineTo(-0.5, 0.35)
        path.closeSubpath()
        self.setPath(path)
        self.update_from(marker, colour)

    def update_from(self, marker: Marker, colour: QColor) -> None:
        self.setBrush(translucent(colour, 200))
        self.setPen(cosmetic_pen(colour.darker(180), 1.2))
        self.setPos(marker.x, -marker.y)


def model_scene_path(model: Model) -> QPainterPath:
    """``model``'s base outline placed on the scene (for overlays that need it)."""
    return rotated(base_path(model.base), model.rotation).translated(model.x, -model.y)


ARROW_HEAD_LENGTH = 0.7
"""Inches: an arrow's head, long enough to read at the zoom that shows the whole table."""
ANNOTATION_HIT_WIDTH = 0.5
"""Inches: how wide the band is that picks an arrow or a ruler under the mouse."""


class AnnotationLabelItem(LabelItem):
    """An annotation's text: a callout's box, an arrow's caption, a ruler's length. Other labels
    step aside from it (it stays where it was put); clicking it picks its annotation."""

    kind = "annotation"
    movable = False
    placement_priority = 0

    def __init__(self, annotation_id: str, text: str, callout: bool) -> None:
        palette = theme.current()
        super().__init__(
            text,
            colour=palette.colour("annotation"),
            background=palette.colour("annotation_background", 235),
            point_size=9.5 if callout else 8.5,
            bold=not callout,
            anchor="centre",
        )
        self.entity_id = annotation_id
        self.setZValue(Z_ANNOTATION + 0.1)


class AnnotationItem(QGraphicsItem):
    """An arrow, a text callout or a kept ruler, drawn from the document's annotation and, for a
    ruler, the engine's measurement (:func:`engine.annotations.measure_annotation`)."""

    kind = "annotation"

    def __init__(self, annotation: Annotation, ruler: Ruler | None) -> None:
        super().__init__()
        self.entity_id = annotation.id
        self._lines = QPainterPath()
        self._heads = QPainterPath()
        self._hit = QPainterPath()
        self._bounds = QRectF()
        self.label = AnnotationLabelItem(annotation.id, "", annotation.kind == "text")
        self.label.setParentItem(self)
        self.setFlags(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable)
        self.setZValue(Z_ANNOTATION)
        self.update_from(annotation, ruler)

    def update_from(self, annotation: Annotation, ruler: Ruler | None) -> None:
        self.prepareGeometryChange()
        start = scene_point(annotation.x, annotation.y)
        end = scene_point(*annotation.end) if annotation.end is not None else None
        lines = QPainterPath()
        heads = QPainterPath()
        text = annotation.text
        label_at = start
        if annotation.kind == "measure" and ruler is not None:
            a, b = scene_point(*ruler.start), scene_point(*ruler.end)
            lines.moveTo(a)
            lines.lineTo(b)
            for point in (a, b):
                heads.addEllipse(point, 0.12, 0.12)
            text = f"{ruler.caption} {text}".strip()
            label_at = (a + b) / 2
        elif annotation.kind == "arrow" and end is not None:
            lines.moveTo(start)
            lines.lineTo(end)
            heads.addPath(_arrow_head(start, end))
            label_at = (start + end) / 2
        else:
            heads.addEllipse(start, 0.15, 0.15)
            if end is not None:
                lines.moveTo(start)
                lines.lineTo(end)
                label_at = end
        self._lines = lines
        self._heads = heads
        stroker = QPainterPathStroker()
        stroker.setWidth(ANNOTATION_HIT_WIDTH)
        self._hit = stroker.createStroke(lines).united(heads)
        self._bounds = self._hit.boundingRect()
        self.label.set_text(text)
        self.label.setVisible(bool(text))
        self.label.setPos(label_at)
        self.update()

    def boundingRect(self) -> QRectF:  # noqa: N802
        return self._bounds.adjusted(-0.3, -0.3, 0.3, 0.3)

    def shape(self) -> QPainterPath:
        return self._hit

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        palette = theme.current()
        colour = palette.colour("annotation")
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(cosmetic_pen(palette.colour("annotation_background"), 4.5))
        painter.drawPath(self._lines)
        painter.setPen(cosmetic_pen(colour, 2.0))
        painter.drawPath(self._lines)
        painter.setBrush(colour)
        painter.drawPath(self._heads)
        if self.isSelected() or self.label.isSelected():
            draw_selection_outline(painter, self._hit)


def _arrow_head(tail: QPointF, head: QPointF) -> QPainterPath:
    """A filled triangle at ``head`` pointing away from ``tail``."""
    dx, dy = head.x() - tail.x(), head.y() - tail.y()
    length = math.hypot(dx, dy)
    path = QPainterPath()
    if length == 0:
        return path
    ux, uy = dx / length, dy / length
    size = min(ARROW_HEAD_LENGTH, length / 2)
    base = QPointF(head.x() - ux * size, head.y() - uy * size)
    side = QPointF(-uy * size * 0.45, ux * size * 0.45)
    path.moveTo(head)
    path.lineTo(base + side)
    path.lineTo(base - side)
    path.closeSubpath()
    return path
