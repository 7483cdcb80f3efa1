"""Painter paths and colours for what the battlefield shows, in scene coordinates.

The scene measures in inches with ``y`` pointing down the screen, so a battlefield point
``(x, y)`` (``y`` growing north) sits at scene point ``(x, -y)``: north is up, as players read a
deployment map. Bases are drawn exactly (true circles and ellipses, not polygons).
"""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainterPath, QPainterPathStroker, QPolygonF, QTransform

from engine.model import Base, CircleBase, OvalBase, Point, RectBase, Scenario
from gui import theme


def scene_point(x: float, y: float) -> QPointF:
    """The scene position of battlefield point ``(x, y)``."""
    return QPointF(x, -y)


def battlefield_point(point: QPointF) -> Point:
    """The battlefield point at scene position ``point``."""
    return point.x(), -point.y()


def player_colour(scenario: Scenario, player_id: str | None) -> QColor:
    """The colour of ``player_id`` in the current palette (its neutral grey for none or an
    unknown id)."""
    ids = scenario.player_ids()
    palette = theme.current()
    if player_id in ids:
        return palette.player(ids.index(player_id))
    return palette.colour("neutral")


def translucent(colour: QColor, alpha: int) -> QColor:
    result = QColor(colour)
    result.setAlpha(alpha)
    return result


def base_path(base: Base) -> QPainterPath:
    """The outline of ``base`` about its centre, unrotated, in inches."""
    path = QPainterPath()
    if isinstance(base, CircleBase):
        r = base.radius
        path.addEllipse(QPointF(0.0, 0.0), r, r)
    elif isinstance(base, OvalBase):
        a, b = base.semi_axes
        path.addEllipse(QPointF(0.0, 0.0), a, b)
    elif isinstance(base, RectBase):
        a, b = base.half_extents
        path.addRect(QRectF(-a, -b, 2 * a, 2 * b))
    return path


def grown_base_path(base: Base, margin: float) -> QPainterPath:
    """The outline of the points within ``margin`` inches of ``base`` (engagement rings).

    Circles grow into circles; for ovals and rectangles the exact offset curve is the Minkowski
    sum with a disc, which a stroke of width ``2 * margin`` around the outline traces exactly.
    """
    if isinstance(base, CircleBase):
        path = QPainterPath()
        r = base.radius + margin
        path.addEllipse(QPointF(0.0, 0.0), r, r)
        return path
    stroker = QPainterPathStroker()
    stroker.setWidth(2 * margin)
    stroker.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
    stroker.setCapStyle(Qt.PenCapStyle.RoundCap)
    outline = base_path(base)
    return stroker.createStroke(outline).united(outline).simplified()


def rotated(path: QPainterPath, degrees_ccw: float) -> QPainterPath:
    """``path`` rotated counter-clockwise on the battlefield (clockwise in Qt's y-down terms)."""
    if not degrees_ccw:
        return path
    return QTransform().rotate(-degrees_ccw).map(path)


def polygon_path(points: Iterable[Point]) -> QPainterPath:
    """A closed path through battlefield ``points``."""
    path = QPainterPath()
    path.addPolygon(QPolygonF([scene_point(x, y) for x, y in points]))
    path.closeSubpath()
    return path


def circle_path(x: float, y: float, radius: float) -> QPainterPath:
    path = QPainterPath()
    path.addEllipse(scene_point(x, y), radius, radius)
    return path
