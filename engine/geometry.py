"""Exact base geometry: distances between bases, points and markers; bases against areas.

Round bases are measured in closed form; oval bases are true ellipses (the point-to-ellipse
distance is Eberly's root solve, overlap and containment against polygons go through the affine
map that turns the ellipse into the unit circle); rectangular bases are exact rotated
rectangles. Two non-round bases are measured on their exact support functions. No base is ever
approximated by a polygon, except by :func:`base_outline`, which exists for drawing.

Lengths are inches; "within N" is inclusive with :data:`TOLERANCE`.

>>> from engine.model import CircleBase, Model
>>> a = Model("a", 0.0, 0.0, CircleBase(32))
>>> b = Model("b", 3.0, 0.0, CircleBase(32))
>>> round(model_distance(a, b), 6) == round(3 - 32 / 25.4, 6)
True
>>> within(model_distance(a, b), 3 - 32 / 25.4)
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import TypeAlias

import numpy as np
import numpy.typing as npt
import shapely
from shapely.geometry.base import BaseGeometry

from engine.errors import GeometryError
from engine.model import (
    MM_PER_INCH,
    Base,
    CircleBase,
    Model,
    OvalBase,
    Point,
    Polygon,
    Scenario,
    TerrainPiece,
)

TOLERANCE = 1e-6
"""Inches: "within N" means ``distance <= N + TOLERANCE``."""

FloatArray: TypeAlias = npt.NDArray[np.float64]
IntArray: TypeAlias = npt.NDArray[np.int64]
BoolArray: TypeAlias = npt.NDArray[np.bool_]

KIND_CIRCLE, KIND_OVAL, KIND_RECT = 0, 1, 2

_NEWTON_STEPS = 60
_GJK_ITERATIONS = 200
_CONVERGED = 1e-10


def within(distance: float, limit: float) -> bool:
    """Whether ``distance`` is within ``limit`` inches, inclusive, with :data:`TOLERANCE`.

    >>> within(3.0, 3.0), within(3.0000005, 3.0), within(3.0001, 3.0)
    (True, True, False)
    """
    return distance <= limit + TOLERANCE


# ---------------------------------------------------------------------------------------------
# Shapes: a base placed on the table


@dataclass(frozen=True)
class Shape:
    """A placed base: ``kind``, centre, the two half sizes (inches) and the rotation.

    Circles have ``a == b == radius``; ovals have semi-axes ``a`` (along the facing) and ``b``;
    rectangles have half length ``a`` and half width ``b``.
    """

    kind: int
    x: float
    y: float
    a: float
    b: float
    cos: float = 1.0
    sin: float = 0.0

    @property
    def bounding_radius(self) -> float:
        """The radius of the smallest circle about the centre holding the base."""
        if self.kind == KIND_RECT:
            return math.hypot(self.a, self.b)
        return max(self.a, self.b)

    @property
    def inner_radius(self) -> float:
        """The radius of the largest circle about the centre inside the base."""
        return min(self.a, self.b)

    def to_local(self, px: float, py: float) -> tuple[float, float]:
        """A table point in the base's own frame (centre at the origin, facing along x)."""
        dx, dy = px - self.x, py - self.y
        return self.cos * dx + self.sin * dy, -self.sin * dx + self.cos * dy

    def to_table(self, lx: float, ly: float) -> tuple[float, float]:
        return self.x + self.cos * lx - self.sin * ly, self.y + self.sin * lx + self.cos * ly

    def corners(self) -> tuple[tuple[float, float], ...]:
        """A rectangle's corners, counter-clockwise."""
        a, b = self.a, self.b
        return tuple(self.to_table(lx, ly) for lx, ly in ((a, b), (-a, b), (-a, -b), (a, -b)))

    def half_extents(self) -> tuple[float, float]:
        """Exact half width and half depth of the base's axis-aligned bounding box."""
        c, s = abs(self.cos), abs(self.sin)
        if self.kind == KIND_CIRCLE:
            return self.a, self.a
        if self.kind == KIND_OVAL:
            return math.hypot(self.a * c, self.b * s), math.hypot(self.a * s, self.b * c)
        return self.a * c + self.b * s, self.a * s + self.b * c

    def support(self, ux: float, uy: float) -> tuple[float, float]:
        """The point of the base farthest in direction ``(ux, uy)`` (any length)."""
        lx, ly = self.cos * ux + self.sin * uy, -self.sin * ux + self.cos * uy
        if self.kind == KIND_RECT:
            sx = self.a if lx >= 0 else -self.a
            sy = self.b if ly >= 0 else -self.b
        else:
            norm = math.hypot(self.a * lx, self.b * ly)
            if norm == 0.0:
                return self.x, self.y
            sx = self.a * self.a * lx / norm
            sy = self.b * self.b * ly / norm
        return self.to_table(sx, sy)


def shape_of(model: Model) -> Shape:
    """The placed shape of a model's base.

    >>> from engine.model import OvalBase
    >>> s = shape_of(Model("m", 1.0, 2.0, OvalBase(50.8, 25.4), rotation=90.0))
    >>> (s.kind, s.a, s.b, round(s.sin, 6))
    (1, 1.0, 0.5, 1.0)
    """
    return _shape(model.base, model.x, model.y, model.rotation)


def _shape(base: Base, x: float, y: float, rotation: float) -> Shape:
    if isinstance(base, CircleBase):
        if not base.radius > 0:
            raise GeometryError(f"a round base needs a positive diameter, got {base.diameter}")
        return Shape(KIND_CIRCLE, x, y, base.radius, base.radius)
    theta = math.radians(rotation)
    cos, sin = math.cos(theta), math.sin(theta)
    if isinstance(base, OvalBase):
        a, b = base.semi_axes
        kind = KIND_OVAL
    else:
        a, b = base.half_extents
        kind = KIND_RECT
    if not (a > 0 and b > 0):
        raise GeometryError(f"a base needs a positive length and width, got {base}")
    if kind == KIND_OVAL and a == b:
        return Shape(KIND_CIRCLE, x, y, a, a)
    return Shape(kind, x, y, a, b, cos, sin)


# ---------------------------------------------------------------------------------------------
# Points


def ellipse_point_distance(a: float, b: float, px: float, py: float) -> float:
    """Distance from ``(px, py)`` to the filled ellipse with semi-axes ``a`` (x) and ``b`` (y).

    Eberly's method: with the point reflected into the first quadrant and outside the ellipse,
    the closest point is ``(r0 y0 / (s + r0), y1 / (s + 1))`` for the root ``s`` of a convex,
    decreasing function, which Newton's method from ``s = 0`` reaches monotonically.

    >>> round(ellipse_point_distance(2.0, 1.0, 5.0, 0.0), 12)
    3.0
    >>> round(ellipse_point_distance(2.0, 1.0, 0.0, 3.0), 12)
    2.0
    >>> ellipse_point_distance(2.0, 1.0, 0.5, 0.5)
    0.0
    """
    y0, y1 = abs(px), abs(py)
    if a < b:
        a, b, y0, y1 = b, a, y1, y0
    z0, z1 = y0 / a, y1 / b
    g = z0 * z0 + z1 * z1 - 1.0
    if g <= 0.0:
        return 0.0
    r0 = (a / b) ** 2
    s = _ellipse_root(r0, z0, z1)
    x0 = r0 * y0 / (s + r0)
    x1 = y1 / (s + 1.0)
    return math.hypot(x0 - y0, x1 - y1)


def _ellipse_root(r0: float, z0: float, z1: float) -> float:
    s = max(r0 * (z0 - 1.0), z1 - 1.0, 0.0)
    for _ in range(_NEWTON_STEPS):
        t0 = r0 * z0 / (s + r0)
        t1 = z1 / (s + 1.0)
        f = t0 * t0 + t1 * t1 - 1.0
        slope = -2.0 * (t0 * t0 / (s + r0) + t1 * t1 / (s + 1.0))
        step = f / slope
        s -= step
        if -step <= 1e-15 * (1.0 + s):
            break
    return s


def _ellipse_closest_point(a: float, b: float, px: float, py: float) -> tuple[float, float]:
    """The point of the ellipse outline closest to an outside point ``(px, py)`` (local frame)."""
    swap = a < b
    y0, y1 = (abs(py), abs(px)) if swap else (abs(px), abs(py))
    e0, e1 = (b, a) if swap else (a, b)
    r0 = (e0 / e1) ** 2
    s = _ellipse_root(r0, y0 / e0, y1 / e1)
    x0 = r0 * y0 / (s + r0)
    x1 = y1 / (s + 1.0)
    if swap:
        x0, x1 = x1, x0
    return math.copysign(x0, px), math.copysign(x1, py)


def shape_point_distance(shape: Shape, px: float, py: float) -> float:
    """Distance from a point to the closest point of a placed base (0 inside it)."""
    if shape.kind == KIND_CIRCLE:
        return max(0.0, math.hypot(px - shape.x, py - shape.y) - shape.a)
    lx, ly = shape.to_local(px, py)
    if shape.kind == KIND_OVAL:
        return ellipse_point_distance(shape.a, shape.b, lx, ly)
    return math.hypot(max(abs(lx) - shape.a, 0.0), max(abs(ly) - shape.b, 0.0))


def model_point_distance(model: Model, x: float, y: float) -> float:
    """Horizontal distance from the point ``(x, y)`` to the closest point of a model's base.

    >>> from engine.model import RectBase
    >>> m = Model("tank", 10.0, 10.0, RectBase(50.8, 25.4))
    >>> model_point_distance(m, 14.0, 10.0), model_point_distance(m, 10.0, 10.2)
    (3.0, 0.0)
    """
    return shape_point_distance(shape_of(model), x, y)


def model_circle_distance(model: Model, x: float, y: float, radius: float) -> float:
    """Distance from a model's base to the closest point of a circle (a marker), 0 if touching.

    >>> from engine.model import CircleBase
    >>> round(model_circle_distance(Model("m", 0, 0, CircleBase(25.4)), 4.0, 0.0, 0.5), 9)
    3.0
    """
    return max(0.0, model_point_distance(model, x, y) - radius)


# ---------------------------------------------------------------------------------------------
# Two bases


def shape_distance(p: Shape, q: Shape) -> float:
    """Distance between the closest points of two placed bases (0 when they overlap)."""
    if p.kind == KIND_CIRCLE and q.kind == KIND_CIRCLE:
        return max(0.0, math.hypot(p.x - q.x, p.y - q.y) - p.a - q.a)
    if p.kind == KIND_CIRCLE:
        return max(0.0, shape_point_distance(q, p.x, p.y) - p.a)
    if q.kind == KIND_CIRCLE:
        return max(0.0, shape_point_distance(p, q.x, q.y) - q.a)
    if p.kind == KIND_RECT and q.kind == KIND_RECT:
        return _rect_rect_distance(p, q)
    if p.kind == KIND_RECT:
        return _oval_rect_distance(q, p)
    if q.kind == KIND_RECT:
        return _oval_rect_distance(p, q)
    return gjk_distance(p, q)


def model_distance(a: Model, b: Model) -> float:
    """Horizontal distance between the closest points of two models' bases (0 if overlapping).

    >>> from engine.model import CircleBase, OvalBase
    >>> disc = Model("a", 0, 0, CircleBase(25.4))
    >>> oval = Model("b", 0, 3, OvalBase(50.8, 25.4))
    >>> round(model_distance(disc, oval), 9)
    2.0
    """
    return shape_distance(shape_of(a), shape_of(b))


def _gap_along(p: Shape, q: Shape, ux: float, uy: float) -> float:
    """How far ``q`` lies beyond ``p`` along the unit direction ``u`` (negative: not separated)."""
    sp = p.support(ux, uy)
    sq = q.support(-ux, -uy)
    return (sq[0] - sp[0]) * ux + (sq[1] - sp[1]) * uy


def _rect_rect_distance(p: Shape, q: Shape) -> float:
    pc, qc = p.corners(), q.corners()
    for shape in (p, q):
        for ux, uy in ((shape.cos, shape.sin), (-shape.sin, shape.cos)):
            if _projections_apart(pc, qc, ux, uy):
                return min(
                    min(_point_segment_distance(v, e0, e1) for v in pc for e0, e1 in _edges(qc)),
                    min(_point_segment_distance(v, e0, e1) for v in qc for e0, e1 in _edges(pc)),
                )
    return 0.0


def _projections_apart(
    pc: Sequence[tuple[float, float]], qc: Sequence[tuple[float, float]], ux: float, uy: float
) -> bool:
    pp = [x * ux + y * uy for x, y in pc]
    qq = [x * ux + y * uy for x, y in qc]
    return max(pp) < min(qq) or max(qq) < min(pp)


def _edges(
    corners: Sequence[tuple[float, float]],
) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    return [(corners[i], corners[(i + 1) % len(corners)]) for i in range(len(corners))]


def _point_segment_distance(
    v: tuple[float, float], e0: tuple[float, float], e1: tuple[float, float]
) -> float:
    ex, ey = e1[0] - e0[0], e1[1] - e0[1]
    length2 = ex * ex + ey * ey
    t = 0.0 if length2 == 0 else ((v[0] - e0[0]) * ex + (v[1] - e0[1]) * ey) / length2
    t = min(1.0, max(0.0, t))
    return math.hypot(v[0] - e0[0] - t * ex, v[1] - e0[1] - t * ey)


def _oval_rect_distance(oval: Shape, rect: Shape) -> float:
    """Exact: the best separating direction is a rectangle edge's normal, or joins a corner to
    its closest point on the ellipse; the distance is the largest gap over those directions."""
    best = -math.inf
    for ux, uy in ((rect.cos, rect.sin), (-rect.sin, rect.cos)):
        best = max(best, _gap_along(rect, oval, ux, uy), _gap_along(rect, oval, -ux, -uy))
    for cx, cy in rect.corners():
        lx, ly = oval.to_local(cx, cy)
        if (lx / oval.a) ** 2 + (ly / oval.b) ** 2 <= 1.0:
            return 0.0
        qx, qy = oval.to_table(*_ellipse_closest_point(oval.a, oval.b, lx, ly))
        dx, dy = qx - cx, qy - cy
        norm = math.hypot(dx, dy)
        best = max(best, _gap_along(rect, oval, dx / norm, dy / norm))
    return max(0.0, best)


def gjk_distance(p: Shape, q: Shape) -> float:
    """Distance between two convex bases by GJK on their exact support functions.

    Iterates until the upper bound (the closest point of the simplex) and the lower bound (the
    best separating plane found) agree within 1e-10 inch; 0 when the bases overlap.
    """
    vx, vy = p.x - q.x, p.y - q.y
    if vx == 0.0 and vy == 0.0:
        return 0.0
    simplex: list[tuple[float, float]] = []
    lower = 0.0
    for _ in range(_GJK_ITERATIONS):
        sp = p.support(-vx, -vy)
        sq = q.support(vx, vy)
        wx, wy = sp[0] - sq[0], sp[1] - sq[1]
        norm_v = math.hypot(vx, vy)
        lower = max(lower, (vx * wx + vy * wy) / norm_v)
        if norm_v - lower <= _CONVERGED:
            return norm_v
        simplex.append((wx, wy))
        closest, simplex = _closest_on_simplex(simplex)
        if closest is None:
            return 0.0
        vx, vy = closest
        if math.hypot(vx, vy) <= _CONVERGED:
            return 0.0
    return math.hypot(vx, vy)


def _closest_on_simplex(
    simplex: list[tuple[float, float]],
) -> tuple[tuple[float, float] | None, list[tuple[float, float]]]:
    """The point of the simplex's hull closest to the origin and the smallest face holding it;
    ``None`` when the hull (a triangle) contains the origin."""
    if len(simplex) == 1:
        return simplex[0], simplex
    if len(simplex) == 2:
        return _closest_on_segment(simplex[0], simplex[1])
    a, b, c = simplex
    if _triangle_contains_origin(a, b, c):
        return None, simplex
    best: tuple[float, float] | None = None
    best_face: list[tuple[float, float]] = simplex
    for e0, e1 in ((a, b), (b, c), (a, c)):
        point, face = _closest_on_segment(e0, e1)
        if best is None or point[0] ** 2 + point[1] ** 2 < best[0] ** 2 + best[1] ** 2:
            best, best_face = point, face
    return best, best_face


def _closest_on_segment(
    a: tuple[float, float], b: tuple[float, float]
) -> tuple[tuple[float, float], list[tuple[float, float]]]:
    ex, ey = b[0] - a[0], b[1] - a[1]
    length2 = ex * ex + ey * ey
    t = 0.0 if length2 == 0 else -(a[0] * ex + a[1] * ey) / length2
    if t <= 0.0:
        return a, [a]
    if t >= 1.0:
        return b, [b]
    return (a[0] + t * ex, a[1] + t * ey), [a, b]


def _triangle_contains_origin(
    a: tuple[float, float], b: tuple[float, float], c: tuple[float, float]
) -> bool:
    d1 = a[0] * b[1] - a[1] * b[0]
    d2 = b[0] * c[1] - b[1] * c[0]
    d3 = c[0] * a[1] - c[1] * a[0]
    return (d1 >= 0 and d2 >= 0 and d3 >= 0) or (d1 <= 0 and d2 <= 0 and d3 <= 0)


# ---------------------------------------------------------------------------------------------
# Closest points and overlap depth


def shape_closest_point(shape: Shape, px: float, py: float) -> Point:
    """The point of a placed base closest to ``(px, py)`` (the point itself when inside).

    >>> shape_closest_point(Shape(KIND_CIRCLE, 0.0, 0.0, 1.0, 1.0), 3.0, 0.0)
    (1.0, 0.0)
    """
    if shape_point_distance(shape, px, py) == 0.0:
        return px, py
    if shape.kind == KIND_CIRCLE:
        scale = shape.a / math.hypot(px - shape.x, py - shape.y)
        return shape.x + (px - shape.x) * scale, shape.y + (py - shape.y) * scale
    lx, ly = shape.to_local(px, py)
    if shape.kind == KIND_OVAL:
        return shape.to_table(*_ellipse_closest_point(shape.a, shape.b, lx, ly))
    return shape.to_table(min(max(lx, -shape.a), shape.a), min(max(ly, -shape.b), shape.b))


def model_closest_point(model: Model, x: float, y: float) -> Point:
    """The point of a model's base closest to ``(x, y)``; its distance to ``(x, y)`` is
    :func:`model_point_distance`.

    >>> from engine.model import RectBase
    >>> model_closest_point(Model("tank", 10.0, 10.0, RectBase(50.8, 25.4)), 14.0, 10.0)
    (11.0, 10.0)
    """
    return shape_closest_point(shape_of(model), x, y)


def closest_points(model_a: Model, model_b: Model) -> tuple[Point, Point]:
    """The closest points of two models' bases: on ``model_a``'s base, then on ``model_b``'s.

    Their distance apart is :func:`model_distance` (circles in closed form, ovals as true
    ellipses, rectangles exactly). Overlapping bases give twice one point common to both.

    >>> from engine.model import CircleBase, RectBase
    >>> disc = Model("a", 0.0, 0.0, CircleBase(25.4))
    >>> tank = Model("b", 5.0, 0.0, RectBase(50.8, 25.4))
    >>> closest_points(disc, tank)
    ((0.5, 0.0), (4.0, 0.0))
    """
    return shape_closest_points(shape_of(model_a), shape_of(model_b))


def shape_closest_points(p: Shape, q: Shape) -> tuple[Point, Point]:
    """:func:`closest_points` for placed bases."""
    if shape_distance(p, q) == 0.0:
        common = _common_point(p, q)
        return common, common
    if p.kind == KIND_CIRCLE:
        on_q = shape_closest_point(q, p.x, p.y)
        return shape_closest_point(p, *on_q), on_q
    if q.kind == KIND_CIRCLE:
        on_p = shape_closest_point(p, q.x, q.y)
        return on_p, shape_closest_point(q, *on_p)
    if p.kind == KIND_RECT and q.kind == KIND_RECT:
        return _rect_rect_closest(p, q)
    return _gjk_closest(p, q)


def _rect_rect_closest(p: Shape, q: Shape) -> tuple[Point, Point]:
    best: tuple[float, Point, Point] | None = None
    for first, second, flipped in ((p, q, False), (q, p, True)):
        for v in first.corners():
            for e0, e1 in _edges(second.corners()):
                on_edge = _segment_closest(v, e0, e1)
                d = math.dist(v, on_edge)
                if best is None or d < best[0]:
                    best = (d, on_edge, v) if flipped else (d, v, on_edge)
    assert best is not None
    return best[1], best[2]


def _segment_closest(v: Point, e0: Point, e1: Point) -> Point:
    ex, ey = e1[0] - e0[0], e1[1] - e0[1]
    length2 = ex * ex + ey * ey
    t = 0.0 if length2 == 0 else ((v[0] - e0[0]) * ex + (v[1] - e0[1]) * ey) / length2
    t = min(1.0, max(0.0, t))
    return e0[0] + t * ex, e0[1] + t * ey


def _gjk_closest(p: Shape, q: Shape) -> tuple[Point, Point]:
    """GJK on the exact support functions, keeping each simplex vertex's two support points so
    the closest point of the simplex gives the closest points of the bases (separated bases)."""
    vx, vy = p.x - q.x, p.y - q.y
    simplex: list[tuple[Point, Point, Point]] = []
    weights: list[float] = []
    for _ in range(_GJK_ITERATIONS):
        sp = p.support(-vx, -vy)
        sq = q.support(vx, vy)
        w = (sp[0] - sq[0], sp[1] - sq[1])
        norm_v = math.hypot(vx, vy)
        if simplex and norm_v - (vx * w[0] + vy * w[1]) / norm_v <= _CONVERGED:
            break
        simplex.append((w, sp, sq))
        simplex, weights = _reduce_simplex(simplex)
        vx = sum(t * s[0][0] for t, s in zip(weights, simplex, strict=True))
        vy = sum(t * s[0][1] for t, s in zip(weights, simplex, strict=True))
    on_p = (
        sum(t * s[1][0] for t, s in zip(weights, simplex, strict=True)),
        sum(t * s[1][1] for t, s in zip(weights, simplex, strict=True)),
    )
    on_q = (
        sum(t * s[2][0] for t, s in zip(weights, simplex, strict=True)),
        sum(t * s[2][1] for t, s in zip(weights, simplex, strict=True)),
    )
    return on_p, on_q


def _reduce_simplex(
    simplex: list[tuple[Point, Point, Point]],
) -> tuple[list[tuple[Point, Point, Point]], list[float]]:
    """The smallest face of the simplex holding its point closest to the origin, with that
    point's barycentric weights (the bases are separated, so the origin is outside the hull)."""
    if len(simplex) == 1:
        return simplex, [1.0]
    candidates: list[tuple[float, list[tuple[Point, Point, Point]], list[float]]] = []
    vertices = simplex[-3:]
    for i in range(len(vertices)):
        for j in range(i + 1, len(vertices)):
            a, b = vertices[i], vertices[j]
            (ax, ay), (bx, by) = a[0], b[0]
            ex, ey = bx - ax, by - ay
            length2 = ex * ex + ey * ey
            t = 0.0 if length2 == 0 else min(1.0, max(0.0, -(ax * ex + ay * ey) / length2))
            cx, cy = ax + t * ex, ay + t * ey
            if t == 0.0:
                candidates.append((cx * cx + cy * cy, [a], [1.0]))
            elif t == 1.0:
                candidates.append((cx * cx + cy * cy, [b], [1.0]))
            else:
                candidates.append((cx * cx + cy * cy, [a, b], [1.0 - t, t]))
    _, face, weights = min(candidates, key=lambda c: c[0])
    return face, weights


def _common_point(p: Shape, q: Shape) -> Point:
    """A point inside both of two overlapping bases, by alternating projections from the point
    of ``q`` closest to ``p``'s centre (convex sets: the projections converge into both)."""
    point = shape_closest_point(q, p.x, p.y)
    for _ in range(_PROJECTIONS):
        if shape_point_distance(p, *point) <= _CONVERGED:
            break
        point = shape_closest_point(q, *shape_closest_point(p, *point))
    return point


_PROJECTIONS = 5000
"""Enough alternating projections for bases barely overlapping (convergence is linear, slow
when the outlines cross at a shallow angle)."""


def overlap_depth(p: Shape, q: Shape) -> float:
    """How deep two placed bases overlap: the shortest move of one that separates them (the
    distance from the origin to the edge of their Minkowski difference), 0 when they do not.
    :func:`overlap_depths` for one pair.

    >>> round(overlap_depth(Shape(KIND_CIRCLE, 0, 0, 1, 1), Shape(KIND_CIRCLE, 1.5, 0, 1, 1)), 9)
    0.5
    >>> round(overlap_depth(Shape(KIND_RECT, 0, 0, 1, 1), Shape(KIND_RECT, 1.75, 0.5, 1, 1)), 9)
    0.25
    """
    pair = np.array([0], dtype=np.int64)
    return float(overlap_depths(shape_arrays([p, q]), pair, pair + 1)[0])


_DEPTH_SWEEP = 64
_DEPTH_REFINED = 3
_DEPTH_FINE = 17
_DEPTH_REFINEMENTS = 4


def overlap_depths(shapes: ShapeArrays, rows: IntArray, cols: IntArray) -> FloatArray:
    """:func:`overlap_depth` of each pair ``(rows[k], cols[k])``, all pairs at once.

    Round pairs in closed form. Otherwise the depth is the smallest support gap over every
    direction ``u``, ``(p - q) . u + h_p(u) + h_q(u)`` (each base's reach about its centre in
    closed form), and is negative when the bases are apart (so clipped to 0): taken at the
    rectangles' edge normals (where the minimum sits for straight sides) and over a sweep of
    :data:`_DEPTH_SWEEP` directions refined four times round its lowest points, eight times
    finer each time (the gap is smooth between those normals).
    """
    result = np.zeros(len(rows))
    if len(rows) == 0:
        return result
    round_pair = (shapes.kind[rows] == KIND_CIRCLE) & (shapes.kind[cols] == KIND_CIRCLE)
    if np.any(round_pair):
        r, c = rows[round_pair], cols[round_pair]
        centre = np.hypot(shapes.x[r] - shapes.x[c], shapes.y[r] - shapes.y[c])
        result[round_pair] = shapes.a[r] + shapes.a[c] - centre
    other = np.flatnonzero(~round_pair)
    if len(other):
        p, q = rows[other], cols[other]
        best = _edge_normal_gaps(shapes, p, q)
        angles, step = _sweep_angles(len(other))
        for level in range(_DEPTH_REFINEMENTS + 1):
            gaps = _pair_support_gaps(shapes, p, q, angles)
            best = np.minimum(best, np.min(gaps, axis=1))
            if level < _DEPTH_REFINEMENTS:
                angles, step = _refined_angles(angles, gaps, step)
        result[other] = best
    clipped: FloatArray = np.maximum(result, 0.0)
    return clipped


def _sweep_angles(pairs: int) -> tuple[FloatArray, float]:
    """The first level of the sweep: :data:`_DEPTH_SWEEP` even directions for each pair, and
    their spacing."""
    step = 2.0 * math.pi / _DEPTH_SWEEP
    angles: FloatArray = np.broadcast_to(np.arange(_DEPTH_SWEEP) * step, (pairs, _DEPTH_SWEEP))
    return angles, step


def _refined_angles(angles: FloatArray, gaps: FloatArray, step: float) -> tuple[FloatArray, float]:
    """The next level of the sweep: directions eight times closer, ``step`` either side of each
    pair's :data:`_DEPTH_REFINED` lowest, and their spacing."""
    lowest = np.take_along_axis(angles, np.argsort(gaps, axis=1)[:, :_DEPTH_REFINED], 1)
    fine = np.linspace(-step, step, _DEPTH_FINE)
    refined: FloatArray = (lowest[:, :, None] + fine[None, None, :]).reshape(
        len(angles), _DEPTH_REFINED * _DEPTH_FINE
    )
    return refined, float(fine[1] - fine[0])


def _swept_verdicts(shapes: ShapeArrays, p: IntArray, q: IntArray, depth: float) -> BoolArray:
    """``overlap_depths(shapes, p, q) > depth`` for pairs swept there (not two round bases),
    each pair leaving the sweep as soon as its verdict is sure.

    A sampled gap at most ``depth`` settles "no" (the depth is the least sample). "Yes" is
    settled by lower bounds of the true depth, which the sweep's samples never go under: at the
    first level, the depth of the origin in the polygon of the Minkowski difference's support
    points at the sampled directions (a polygon inside it); at every level, a Lipschitz bound:
    the gap ``g(t) = h_M(u(t))`` changes no faster than ``L = |c_p - c_q| + R_p + R_q`` (the
    farthest point of ``M``), so every direction within half a spacing of a sample is at least
    that sample less ``L`` times half the spacing, and the directions a level does not refine
    are bounded so by the level's fourth lowest sample.
    """
    verdict = np.zeros(len(p), dtype=bool)
    if len(p) == 0:
        return verdict
    speed = (
        np.hypot(shapes.x[p] - shapes.x[q], shapes.y[p] - shapes.y[q])
        + shapes.bounding[p]
        + shapes.bounding[q]
    )
    angles, step = _sweep_angles(len(p))
    normals = _edge_normals(shapes, p, q)
    first = _pair_support_gaps(shapes, p, q, np.concatenate((normals, angles), axis=1))
    least, gaps = np.min(first[:, : normals.shape[1]], axis=1), first[:, normals.shape[1] :]
    low = np.minimum(least, np.min(gaps, axis=1))
    inner = _inner_polygon_depths(shapes, p, q, angles)
    verdict[:] = (low > depth) & (inner > depth + _BOUND_MARGIN)
    playing = np.flatnonzero((low > depth) & ~verdict)
    elsewhere = np.full(len(playing), np.inf)
    angles, gaps = angles[playing], gaps[playing]
    for level in range(_DEPTH_REFINEMENTS):
        if len(playing) == 0:
            break
        slack = speed[playing] * (step / 2.0)
        elsewhere = np.minimum(
            elsewhere, np.partition(gaps, _DEPTH_REFINED, axis=1)[:, _DEPTH_REFINED] - slack
        )
        angles, step = _refined_angles(angles, gaps, step)
        gaps = _pair_support_gaps(shapes, p[playing], q[playing], angles)
        low = np.min(gaps, axis=1)
        if level == _DEPTH_REFINEMENTS - 1:
            verdict[playing] = low > depth
            break
        slack = speed[playing] * (step / 2.0)
        sure_yes = np.minimum(elsewhere, low - slack) > depth
        verdict[playing[sure_yes]] = True
        stay = (low > depth) & ~sure_yes
        playing, elsewhere, angles, gaps = (
            playing[stay],
            elsewhere[stay],
            angles[stay],
            gaps[stay],
        )
    return verdict


def _inner_polygon_depths(
    shapes: ShapeArrays, p: IntArray, q: IntArray, angles: FloatArray
) -> FloatArray:
    """For each pair, how deep the origin lies in the polygon through the support points of
    ``M = P - Q`` at ``angles`` (increasing round the circle), negative when outside it: a lower
    bound of the overlap depth, since that polygon lies inside ``M``. Edges shorter than
    :data:`_BOUND_MARGIN` are passed over (the caller's margin covers them)."""
    ux, uy = np.cos(angles), np.sin(angles)
    mx = (shapes.x[p] - shapes.x[q])[:, None] + np.zeros_like(ux)
    my = (shapes.y[p] - shapes.y[q])[:, None] + np.zeros_like(uy)
    for rows in (p, q):
        c, s = shapes.cos[rows][:, None], shapes.sin[rows][:, None]
        a, b = shapes.a[rows][:, None], shapes.b[rows][:, None]
        lx, ly = c * ux + s * uy, -s * ux + c * uy
        norm = np.maximum(np.hypot(a * lx, b * ly), 1e-300)
        rect = (shapes.kind[rows] == KIND_RECT)[:, None]
        sx = np.where(rect, a * np.sign(lx), a * a * lx / norm)
        sy = np.where(rect, b * np.sign(ly), b * b * ly / norm)
        mx += c * sx - s * sy
        my += s * sx + c * sy
    nx, ny = np.roll(mx, -1, axis=1), np.roll(my, -1, axis=1)
    length = np.hypot(nx - mx, ny - my)
    signed = np.where(
        length > _BOUND_MARGIN, (mx * ny - my * nx) / np.maximum(length, 1e-300), np.inf
    )
    found: FloatArray = np.min(signed, axis=1)
    return found


def _pair_support_gaps(
    shapes: ShapeArrays, p: IntArray, q: IntArray, angles: FloatArray
) -> FloatArray:
    """For each pair (row) and direction (column): the move of ``q`` along it that clears
    ``p``, ``h_p(u) + h_q(-u)``."""
    ux, uy = np.cos(angles), np.sin(angles)
    dx = (shapes.x[p] - shapes.x[q])[:, None]
    dy = (shapes.y[p] - shapes.y[q])[:, None]
    gaps: FloatArray = dx * ux + dy * uy
    gaps += _reach(shapes, p, ux, uy) + _reach(shapes, q, ux, uy)
    return gaps


def _reach(shapes: ShapeArrays, rows: IntArray, ux: FloatArray, uy: FloatArray) -> FloatArray:
    """How far each row's base reaches from its centre along each direction (symmetric)."""
    c, s = shapes.cos[rows][:, None], shapes.sin[rows][:, None]
    a, b = shapes.a[rows][:, None], shapes.b[rows][:, None]
    lx, ly = c * ux + s * uy, -s * ux + c * uy
    rect = shapes.kind[rows] == KIND_RECT
    # Only the formulas some row needs are evaluated (each row's value is the same either way).
    if not rect.any():
        oval: FloatArray = np.hypot(a * lx, b * ly)
        return oval
    straight: FloatArray = a * np.abs(lx) + b * np.abs(ly)
    if rect.all():
        return straight
    reach: FloatArray = np.where(rect[:, None], straight, np.hypot(a * lx, b * ly))
    return reach


def clearly_overlapping(
    shapes: ShapeArrays, rows: IntArray, cols: IntArray, depth: float
) -> BoolArray:
    """A cheap sufficient test that each pair of bases overlaps by more than ``depth``: a disc
    about one base's centre inside that base, and a disc about the same point inside the other
    base, together wider than ``depth`` (their Minkowski difference then holds a disc that
    wide). ``False`` says nothing: measure those pairs with :func:`overlap_depths`."""
    found = np.zeros(len(rows), dtype=bool)
    for first, second in ((rows, cols), (cols, rows)):
        clearance = _clearances(shapes, first, shapes.x[second], shapes.y[second])
        found |= (clearance > 0.0) & (shapes.inner[second] + clearance > depth)
    return found


def overlapping_by_more_than(
    shapes: ShapeArrays, rows: IntArray, cols: IntArray, depth: float
) -> BoolArray:
    """Whether each pair ``(rows[k], cols[k])`` overlaps by more than ``depth`` (at least 0):
    the verdict of ``overlap_depths(shapes, rows, cols) > depth``, without the direction sweep
    where a closed form decides, and leaving it early where a bound does.

    A disc of radius ``r`` about ``c`` against any base ``P`` overlaps by ``r`` minus the signed
    distance from ``c`` to ``P`` (their Minkowski difference is ``P - c`` widened by ``r``):
    closed form for discs and rectangles; for an oval, Eberly's exact distance when ``c`` is
    outside it, and at least ``r`` when inside. Two rectangles overlap by the least gap over
    their edge normals (a polygon's support is least at a face normal). The other pairs are
    decided by :func:`clearly_overlapping`, then by the sweep of :func:`overlap_depths`.

    >>> disc, square = Shape(KIND_CIRCLE, 1.5, 0.0, 1.0, 1.0), Shape(KIND_RECT, 0, 0, 1, 1)
    >>> pair = np.array([0])
    >>> overlapping_by_more_than(shape_arrays([disc, square]), pair, pair + 1, 0.4).tolist()
    [True]
    >>> overlapping_by_more_than(shape_arrays([disc, square]), pair, pair + 1, 0.5).tolist()
    [False]
    """
    found = np.zeros(len(rows), dtype=bool)
    if len(rows) == 0:
        return found
    round_row = shapes.kind[rows] == KIND_CIRCLE
    round_col = shapes.kind[cols] == KIND_CIRCLE
    both = np.flatnonzero(round_row & round_col)
    r, c = rows[both], cols[both]
    centre = np.hypot(shapes.x[r] - shapes.x[c], shapes.y[r] - shapes.y[c])
    found[both] = shapes.a[r] + shapes.a[c] - centre > depth
    undecided = np.zeros(len(rows), dtype=bool)
    one = np.flatnonzero(round_row ^ round_col)
    if len(one):
        disc = np.where(round_row[one], rows[one], cols[one])
        other = np.where(round_row[one], cols[one], rows[one])
        found[one], undecided[one] = _disc_overlaps(shapes, disc, other, depth)
    rest = np.flatnonzero(~(round_row | round_col))
    if len(rest):
        p, q = rows[rest], cols[rest]
        both_rect = (shapes.kind[p] == KIND_RECT) & (shapes.kind[q] == KIND_RECT)
        square = np.flatnonzero(both_rect)
        if len(square):
            found[rest[square]] = _edge_normal_gaps(shapes, p[square], q[square]) > depth
        undecided[rest[~both_rect]] = True
    unsure = np.flatnonzero(undecided)
    if len(unsure):
        p, q = rows[unsure], cols[unsure]
        clear = clearly_overlapping(shapes, p, q, depth)
        swept = np.flatnonzero(~clear)
        clear[swept] = _swept_verdicts(shapes, p[swept], q[swept], depth)
        found[unsure] = clear
    return found


def _disc_overlaps(
    shapes: ShapeArrays, disc: IntArray, other: IntArray, depth: float
) -> tuple[BoolArray, BoolArray]:
    """For discs against non-round bases: whether each overlaps by more than ``depth``, and
    which are left undecided (a disc no wider than ``depth`` centred inside an oval)."""
    dx, dy = shapes.x[disc] - shapes.x[other], shapes.y[disc] - shapes.y[other]
    c, s = shapes.cos[other], shapes.sin[other]
    lx, ly = np.abs(c * dx + s * dy), np.abs(-s * dx + c * dy)
    a, b = shapes.a[other], shapes.b[other]
    radius = shapes.a[disc]
    rect = shapes.kind[other] == KIND_RECT
    outside = np.hypot(np.maximum(lx - a, 0.0), np.maximum(ly - b, 0.0))
    inside = np.minimum(a - lx, b - ly)
    signed: FloatArray = np.where(outside > 0.0, outside, -inside)
    found: BoolArray = radius - signed > depth
    oval = np.flatnonzero(~rect)
    undecided = np.zeros(len(disc), dtype=bool)
    if len(oval):
        oa, ob, ox, oy = a[oval], b[oval], lx[oval], ly[oval]
        centred = (ox / oa) ** 2 + (oy / ob) ** 2 <= 1.0
        wide = radius[oval] > depth
        # A point on the oval scaled by ``rho`` is between ``(rho - 1)`` times the smaller and
        # the larger semi-axis from the oval, and no farther than along the ray to its centre:
        # Eberly's solve is left to the discs whose verdict those bounds leave open.
        rho = np.hypot(ox / oa, oy / ob)
        scale = np.maximum(rho, 1.0)
        nearest = (scale - 1.0) * np.minimum(oa, ob)
        radial = np.hypot(ox, oy) * (1.0 - 1.0 / scale)
        farthest = np.minimum((scale - 1.0) * np.maximum(oa, ob), radial)
        verdict = radius[oval] - farthest > depth + _BOUND_MARGIN
        open_ = ~centred & ~verdict & (radius[oval] - nearest >= depth - _BOUND_MARGIN)
        solve = np.flatnonzero(open_)
        if len(solve):
            gap = ellipse_point_distances(oa[solve], ob[solve], ox[solve], oy[solve])
            verdict[solve] = radius[oval][solve] - gap > depth
        found[oval] = np.where(centred, wide, verdict)
        undecided[oval] = centred & ~wide
    return found, undecided


_BOUND_MARGIN = 1e-12
"""Inches: how clearly a bound must settle a verdict for the exact solve to be skipped (far
more than the solve's own rounding)."""


def _edge_normals(shapes: ShapeArrays, p: IntArray, q: IntArray) -> FloatArray:
    """Each pair's eight edge-normal directions (four per base, as angles)."""
    quarter = np.arange(4) * (np.pi / 2.0)
    normals: FloatArray = np.concatenate(
        (
            np.arctan2(shapes.sin[p], shapes.cos[p])[:, None] + quarter[None, :],
            np.arctan2(shapes.sin[q], shapes.cos[q])[:, None] + quarter[None, :],
        ),
        axis=1,
    )
    return normals


def _edge_normal_gaps(shapes: ShapeArrays, p: IntArray, q: IntArray) -> FloatArray:
    """The least support gap of each pair over both bases' four edge normals."""
    least: FloatArray = np.min(_pair_support_gaps(shapes, p, q, _edge_normals(shapes, p, q)), 1)
    return least


def _clearances(shapes: ShapeArrays, rows: IntArray, px: FloatArray, py: FloatArray) -> FloatArray:
    """Lower bounds of how far each point is inside its row's base, where positive (0 or less:
    no bound; the point may be outside)."""
    dx, dy = px - shapes.x[rows], py - shapes.y[rows]
    c, s = shapes.cos[rows], shapes.sin[rows]
    lx, ly = c * dx + s * dy, -s * dx + c * dy
    a, b = shapes.a[rows], shapes.b[rows]
    # A point on the base's ellipse scaled by ``rho`` is at least ``(1 - rho) * min(a, b)``
    # inside the base in every direction (exact for circles).
    rho = np.hypot(lx / a, ly / b)
    oval: FloatArray = (1.0 - rho) * np.minimum(a, b)
    rect: FloatArray = np.minimum(a - np.abs(lx), b - np.abs(ly))
    found: FloatArray = np.where(shapes.kind[rows] == KIND_RECT, rect, oval)
    return found


def models_overlap(a: Model, b: Model) -> bool:
    """Whether two models' bases overlap by more than :data:`TOLERANCE` (bases exactly in
    contact, or within the tolerance of it, do not).

    >>> from engine.model import CircleBase
    >>> d = 32 / 25.4
    >>> a = Model("a", 0, 0, CircleBase(32))
    >>> models_overlap(a, Model("b", d, 0, CircleBase(32)))
    False
    >>> models_overlap(a, Model("b", d - 1e-4, 0, CircleBase(32)))
    True
    """
    return overlap_depth(shape_of(a), shape_of(b)) > TOLERANCE


# ---------------------------------------------------------------------------------------------
# Bases against areas


AreaLike: TypeAlias = "PreparedArea | BaseGeometry | Sequence[tuple[float, float]]"


class PreparedArea:
    """A polygonal area (terrain area, zone, No Man's Land) ready for repeated base tests.

    >>> area = PreparedArea([(0, 0), (10, 0), (10, 10), (0, 10)])
    >>> area.bounds
    (0.0, 0.0, 10.0, 10.0)
    """

    def __init__(self, area: BaseGeometry | Sequence[tuple[float, float]]) -> None:
        geom = area if isinstance(area, BaseGeometry) else shapely.Polygon(area)
        if geom.is_empty:
            raise GeometryError("an area must not be empty")
        if not geom.is_valid:
            raise GeometryError(f"an area must be a valid polygon: {shapely.is_valid_reason(geom)}")
        self.geometry: BaseGeometry = geom
        shapely.prepare(geom)
        minx, miny, maxx, maxy = (float(v) for v in geom.bounds)
        self.bounds: tuple[float, float, float, float] = (minx, miny, maxx, maxy)
        box_area = (maxx - minx) * (maxy - miny)
        # An axis-aligned rectangle holds a base exactly when it holds the base's bounding box.
        self.is_box: bool = geom.geom_type == "Polygon" and abs(
            geom.area - box_area
        ) <= 1e-12 * max(1.0, box_area)

    @cached_property
    def boundary(self) -> BaseGeometry:
        boundary: BaseGeometry = self.geometry.boundary
        shapely.prepare(boundary)
        return boundary

    @cached_property
    def widened(self) -> BaseGeometry:
        """The area grown by :data:`TOLERANCE` (mitred corners), for inclusive containment."""
        grown: BaseGeometry = shapely.buffer(self.geometry, TOLERANCE, join_style="mitre")
        shapely.prepare(grown)
        return grown

    def covers_point(self, x: float, y: float) -> bool:
        return bool(shapely.intersects_xy(self.geometry, x, y))

    @cached_property
    def segments(self) -> FloatArray:
        """Every edge of every ring of the area, as rows ``x0, y0, x1, y1``."""
        parts = []
        for ring in shapely.get_rings(shapely.get_parts(self.geometry)):
            coords = shapely.get_coordinates(ring)
            parts.append(np.column_stack((coords[:-1], coords[1:])))
        segments: FloatArray = np.vstack(parts)
        return segments

    def unit_circle_clearance(self, shape: Shape) -> float:
        """Distance from the origin to the area's outline in the frame where an oval base is the
        unit circle at the origin (an affine map, so inclusion and contact are preserved)."""
        seg = self.segments
        c, s = shape.cos, shape.sin
        dx0, dy0 = seg[:, 0] - shape.x, seg[:, 1] - shape.y
        dx1, dy1 = seg[:, 2] - shape.x, seg[:, 3] - shape.y
        ax, ay = (c * dx0 + s * dy0) / shape.a, (-s * dx0 + c * dy0) / shape.b
        bx, by = (c * dx1 + s * dy1) / shape.a, (-s * dx1 + c * dy1) / shape.b
        ex, ey = bx - ax, by - ay
        length2 = ex * ex + ey * ey
        with np.errstate(invalid="ignore", divide="ignore"):
            t = np.where(length2 > 0, -(ax * ex + ay * ey) / length2, 0.0)
        t = np.clip(t, 0.0, 1.0)
        return float(np.min(np.hypot(ax + t * ex, ay + t * ey)))


def prepared_area(area: AreaLike) -> PreparedArea:
    return area if isinstance(area, PreparedArea) else PreparedArea(area)


def shape_overlaps(shape: Shape, area: PreparedArea) -> bool:
    """Whether any part of a base is over the area (touching counts, within TOLERANCE)."""
    if not _boxes_meet(shape, area.bounds, TOLERANCE):
        return False
    if shape.kind == KIND_CIRCLE:
        point = shapely.Point(shape.x, shape.y)
        return bool(shapely.distance(area.geometry, point) <= shape.a + TOLERANCE)
    if shape.kind == KIND_OVAL:
        if area.covers_point(shape.x, shape.y):
            return True
        slack = TOLERANCE / min(shape.a, shape.b)
        return area.unit_circle_clearance(shape) <= 1.0 + slack
    return bool(shapely.dwithin(area.geometry, shapely.Polygon(shape.corners()), TOLERANCE))


def shape_wholly_within(shape: Shape, area: PreparedArea) -> bool:
    """Whether every point of a base is inside the area or on its edge (within TOLERANCE)."""
    hx, hy = shape.half_extents()
    minx, miny, maxx, maxy = area.bounds
    if (
        shape.x - hx < minx - TOLERANCE
        or shape.x + hx > maxx + TOLERANCE
        or shape.y - hy < miny - TOLERANCE
        or shape.y + hy > maxy + TOLERANCE
    ):
        return False
    if area.is_box:
        return True
    if shape.kind == KIND_CIRCLE:
        if not area.covers_point(shape.x, shape.y):
            return False
        point = shapely.Point(shape.x, shape.y)
        return bool(shapely.distance(area.boundary, point) >= shape.a - TOLERANCE)
    if shape.kind == KIND_OVAL:
        if not area.covers_point(shape.x, shape.y):
            return False
        slack = TOLERANCE / min(shape.a, shape.b)
        return area.unit_circle_clearance(shape) >= 1.0 - slack
    return bool(shapely.covers(area.widened, shapely.Polygon(shape.corners())))


def _boxes_meet(shape: Shape, bounds: tuple[float, float, float, float], slack: float) -> bool:
    hx, hy = shape.half_extents()
    minx, miny, maxx, maxy = bounds
    return not (
        shape.x + hx < minx - slack
        or shape.x - hx > maxx + slack
        or shape.y + hy < miny - slack
        or shape.y - hy > maxy + slack
    )


def model_overlaps(model: Model, area: AreaLike) -> bool:
    """Whether any part of a model's base is over ``area`` (a terrain area: "within" it).

    >>> from engine.model import CircleBase
    >>> square = [(0, 0), (10, 0), (10, 10), (0, 10)]
    >>> model_overlaps(Model("m", 10.5, 5, CircleBase(25.4)), square)
    True
    >>> model_overlaps(Model("m", 10.6, 5, CircleBase(25.4)), square)
    False
    """
    return shape_overlaps(shape_of(model), prepared_area(area))


def model_wholly_within(model: Model, area: AreaLike) -> bool:
    """Whether every point of a model's base is inside ``area`` or on its edge.

    >>> from engine.model import CircleBase
    >>> square = [(0, 0), (10, 0), (10, 10), (0, 10)]
    >>> model_wholly_within(Model("m", 9.5, 5, CircleBase(25.4)), square)
    True
    >>> model_wholly_within(Model("m", 9.6, 5, CircleBase(25.4)), square)
    False
    """
    return shape_wholly_within(shape_of(model), prepared_area(area))


def terrain_area(piece: TerrainPiece) -> PreparedArea:
    """A terrain piece's whole terrain area (the union of its footprints), prepared for tests.

    >>> left = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))
    >>> right = ((3.0, 0.0), (4.0, 0.0), (4.0, 1.0), (3.0, 1.0))
    >>> terrain_area(TerrainPiece("ruin", left, other_footprints=(right,))).bounds
    (0.0, 0.0, 4.0, 1.0)
    """
    return _footprints_area(piece.footprints)


@lru_cache(maxsize=1024)
def prepared_polygon(shape: Polygon) -> PreparedArea:
    """One polygon prepared for base tests, made once per distinct shape (an upper floor asked
    about on every step of a drag costs a lookup, not a new prepared geometry).

    >>> prepared_polygon(((0.0, 0.0), (2.0, 0.0), (2.0, 1.0))).bounds
    (0.0, 0.0, 2.0, 1.0)
    """
    return PreparedArea(shape)


@lru_cache(maxsize=1024)
def _footprints_area(footprints: tuple[Polygon, ...]) -> PreparedArea:
    if len(footprints) == 1:
        return prepared_polygon(footprints[0])
    return PreparedArea(shapely.union_all([shapely.Polygon(p) for p in footprints]))


def model_within_terrain(model: Model, piece: TerrainPiece) -> bool:
    """Whether a model is within a terrain area: part of its base over any of its footprints.

    >>> from engine.model import CircleBase
    >>> left = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))
    >>> right = ((3.0, 0.0), (4.0, 0.0), (4.0, 1.0), (3.0, 1.0))
    >>> piece = TerrainPiece("ruin", left, other_footprints=(right,))
    >>> model_within_terrain(Model("m", 3.5, 0.5, CircleBase(25.4)), piece)
    True
    >>> model_within_terrain(Model("m", 2.0, 0.5, CircleBase(25.4)), piece)
    False
    """
    return shape_overlaps(shape_of(model), terrain_area(piece))


def base_outline(model: Model, segments: int = 64) -> shapely.Polygon:
    """A polygon tracing a model's base, for drawing only (never for measuring)."""
    shape = shape_of(model)
    if shape.kind == KIND_RECT:
        return shapely.Polygon(shape.corners())
    angles = np.linspace(0.0, 2.0 * math.pi, segments, endpoint=False)
    lx, ly = shape.a * np.cos(angles), shape.b * np.sin(angles)
    xs = shape.x + shape.cos * lx - shape.sin * ly
    ys = shape.y + shape.sin * lx + shape.cos * ly
    return shapely.Polygon(np.column_stack((xs, ys)))


# ---------------------------------------------------------------------------------------------
# Vectorised paths: many bases at once


_COLUMNS = ("kind", "x", "y", "a", "b", "cos", "sin", "bounding", "inner", "half_x", "half_y")


@dataclass(frozen=True, eq=False)
class ShapeArrays:
    """Bases as parallel numpy arrays (one row per model), for the fast rules paths."""

    kind: IntArray
    x: FloatArray
    y: FloatArray
    a: FloatArray
    b: FloatArray
    cos: FloatArray
    sin: FloatArray
    bounding: FloatArray
    inner: FloatArray
    half_x: FloatArray
    half_y: FloatArray

    def __len__(self) -> int:
        return len(self.x)

    def take(self, rows: Sequence[int] | IntArray) -> ShapeArrays:
        """The bases of ``rows`` only, in that order."""
        index = np.asarray(rows, dtype=np.int64)
        return ShapeArrays(*(getattr(self, name)[index] for name in _COLUMNS))

    def shape(self, i: int) -> Shape:
        return Shape(
            int(self.kind[i]),
            float(self.x[i]),
            float(self.y[i]),
            float(self.a[i]),
            float(self.b[i]),
            float(self.cos[i]),
            float(self.sin[i]),
        )


def shape_arrays(shapes: Sequence[Shape]) -> ShapeArrays:
    """Pack shapes into :class:`ShapeArrays`."""
    kind = np.array([s.kind for s in shapes], dtype=np.int64)
    cols = np.array(
        [(s.x, s.y, s.a, s.b, s.cos, s.sin, s.bounding_radius, s.inner_radius) for s in shapes],
        dtype=np.float64,
    ).reshape(-1, 8)
    extents = np.array([s.half_extents() for s in shapes], dtype=np.float64).reshape(-1, 2)
    return ShapeArrays(
        kind,
        cols[:, 0].copy(),
        cols[:, 1].copy(),
        cols[:, 2].copy(),
        cols[:, 3].copy(),
        cols[:, 4].copy(),
        cols[:, 5].copy(),
        cols[:, 6].copy(),
        cols[:, 7].copy(),
        extents[:, 0].copy(),
        extents[:, 1].copy(),
    )


def ellipse_point_distances(
    a: FloatArray, b: FloatArray, px: FloatArray, py: FloatArray
) -> FloatArray:
    """Vectorised :func:`ellipse_point_distance` (local frames; 0 inside)."""
    swap = a < b
    e0 = np.where(swap, b, a)
    e1 = np.where(swap, a, b)
    y0 = np.where(swap, np.abs(py), np.abs(px))
    y1 = np.where(swap, np.abs(px), np.abs(py))
    z0, z1 = y0 / e0, y1 / e1
    outside = z0 * z0 + z1 * z1 > 1.0
    r0 = (e0 / e1) ** 2
    # Points inside are answered 0 below; keep their (meaningless) iterations finite.
    z0 = np.where(outside, z0, 1.0)
    # Eberly's lower bound of the root: F >= 0 there, so Newton's steps rise monotonically.
    s = np.where(outside, np.maximum(np.maximum(r0 * (z0 - 1.0), z1 - 1.0), 0.0), 0.0)
    # Each point stops on its own test, so its answer never depends on the rest of the batch.
    active = outside.copy()
    for _ in range(_NEWTON_STEPS):
        t0 = r0 * z0 / (s + r0)
        t1 = z1 / (s + 1.0)
        f = t0 * t0 + t1 * t1 - 1.0
        slope = -2.0 * (t0 * t0 / (s + r0) + t1 * t1 / (s + 1.0))
        step = np.where(active, f / slope, 0.0)
        s = s - step
        active &= -step > 1e-15 * (1.0 + s)
        if not active.any():
            break
    x0 = r0 * y0 / (s + r0)
    x1 = y1 / (s + 1.0)
    result: FloatArray = np.where(outside, np.hypot(x0 - y0, x1 - y1), 0.0)
    return result


def point_distances(
    shapes: ShapeArrays, px: float, py: float, reach: float = math.inf
) -> FloatArray:
    """Distance from one point to every base (0 inside), exact for every shape.

    With ``reach``, bases that cannot come within ``reach`` of the point get a lower bound of
    their distance instead (still greater than ``reach``), which saves the exact solve.

    >>> from engine.model import CircleBase
    >>> arrays = shape_arrays([shape_of(Model("m", 0, 0, CircleBase(25.4)))])
    >>> point_distances(arrays, 3.0, 4.0).tolist()
    [4.5]
    """
    result: FloatArray = points_distances(
        shapes, np.array([px]), np.array([py]), np.array([reach])
    )[0]
    return result


def points_distances(
    shapes: ShapeArrays, px: FloatArray, py: FloatArray, reach: FloatArray
) -> FloatArray:
    """Distances from several points (rows) to every base (columns), as :func:`point_distances`
    with one ``reach`` per point."""
    dx = px[:, None] - shapes.x[None, :]
    dy = py[:, None] - shapes.y[None, :]
    centre = np.hypot(dx, dy)
    result = np.maximum(centre - shapes.a[None, :], 0.0)
    near = (shapes.kind[None, :] != KIND_CIRCLE) & (
        centre - shapes.bounding[None, :] <= reach[:, None]
    )
    far = (shapes.kind[None, :] != KIND_CIRCLE) & ~near
    result[far] = (centre - shapes.bounding[None, :])[far]
    point_index, base = np.nonzero(near)
    if len(base):
        c, s = shapes.cos[base], shapes.sin[base]
        ddx, ddy = dx[point_index, base], dy[point_index, base]
        lx, ly = c * ddx + s * ddy, -s * ddx + c * ddy
        a, b = shapes.a[base], shapes.b[base]
        rect = shapes.kind[base] == KIND_RECT
        d = np.hypot(np.maximum(np.abs(lx) - a, 0.0), np.maximum(np.abs(ly) - b, 0.0))
        oval = np.flatnonzero(~rect)
        if len(oval):
            d[oval] = ellipse_point_distances(a[oval], b[oval], lx[oval], ly[oval])
        result[point_index, base] = d
    return result


def close_pairs(
    shapes: ShapeArrays, rows: IntArray, cols: IntArray, limit: float
) -> tuple[IntArray, IntArray, FloatArray]:
    """The pairs ``(rows[k], cols[k])`` of bases within ``limit`` (inclusive), with distances.

    Circles pairs are measured in closed form over the whole batch; for the rest a bounding-
    circle prefilter drops the pairs that cannot be within ``limit``, circle-against-other pairs
    are measured as point distances minus the radius, and the remaining pairs one by one.
    """
    if len(rows) == 0:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, np.zeros(0)
    reach = limit + TOLERANCE
    # The same pair is measured in the same order whichever side it came from, so that full and
    # incremental evaluations agree to the last bit.
    rows, cols = np.minimum(rows, cols), np.maximum(rows, cols)
    centre = np.hypot(shapes.x[rows] - shapes.x[cols], shapes.y[rows] - shapes.y[cols])
    candidate = centre - shapes.bounding[rows] - shapes.bounding[cols] <= reach
    rows, cols, centre = rows[candidate], cols[candidate], centre[candidate]
    distance = np.maximum(centre - shapes.a[rows] - shapes.a[cols], 0.0)
    kr, kc = shapes.kind[rows], shapes.kind[cols]
    mixed = np.flatnonzero((kr != KIND_CIRCLE) | (kc != KIND_CIRCLE))
    if len(mixed):
        distance[mixed] = _mixed_distances(shapes, rows[mixed], cols[mixed])
    keep = distance <= reach
    return rows[keep], cols[keep], distance[keep]


def _mixed_distances(shapes: ShapeArrays, rows: IntArray, cols: IntArray) -> FloatArray:
    kr, kc = shapes.kind[rows], shapes.kind[cols]
    circle_first = kr == KIND_CIRCLE
    circle_second = kc == KIND_CIRCLE
    result = np.zeros(len(rows))
    one_circle = circle_first | circle_second
    if np.any(one_circle):
        sel = np.flatnonzero(one_circle)
        disc = np.where(circle_first[sel], rows[sel], cols[sel])
        other = np.where(circle_first[sel], cols[sel], rows[sel])
        dx = shapes.x[disc] - shapes.x[other]
        dy = shapes.y[disc] - shapes.y[other]
        c, s = shapes.cos[other], shapes.sin[other]
        lx, ly = c * dx + s * dy, -s * dx + c * dy
        a, b = shapes.a[other], shapes.b[other]
        rect = shapes.kind[other] == KIND_RECT
        d = np.hypot(np.maximum(np.abs(lx) - a, 0.0), np.maximum(np.abs(ly) - b, 0.0))
        oval = np.flatnonzero(~rect)
        if len(oval):
            d[oval] = ellipse_point_distances(a[oval], b[oval], lx[oval], ly[oval])
        result[sel] = np.maximum(d - shapes.a[disc], 0.0)
    for k in np.flatnonzero(~one_circle):
        result[k] = shape_distance(shapes.shape(int(rows[k])), shapes.shape(int(cols[k])))
    return result


def models_shape_arrays(models: Sequence[Model]) -> ShapeArrays:
    """:class:`ShapeArrays` for models: one light pass over the models, the rest in numpy.

    >>> from engine.model import CircleBase
    >>> arrays = models_shape_arrays([Model("m", 1.0, 2.0, CircleBase(25.4))])
    >>> arrays.x.tolist(), arrays.a.tolist()
    ([1.0], [0.5])
    """
    raw = np.array(
        [
            (0.0, base.diameter, base.diameter, 0.0, m.x, m.y)
            if type(base := m.base) is CircleBase
            else (
                1.0 if type(base) is OvalBase else 2.0,
                base.length,  # type: ignore[union-attr]
                base.width,  # type: ignore[union-attr]
                m.rotation,
                m.x,
                m.y,
            )
            for m in models
        ],
        dtype=np.float64,
    ).reshape(-1, 6)
    a = raw[:, 1] / (2.0 * MM_PER_INCH)
    b = raw[:, 2] / (2.0 * MM_PER_INCH)
    if np.any(~(a > 0)) or np.any(~(b > 0)):
        bad = int(np.flatnonzero(~(a > 0) | ~(b > 0))[0])
        raise GeometryError(
            f"model {models[bad].id}: a base needs positive sizes, got {models[bad].base}"
        )
    kind = raw[:, 0].astype(np.int64)
    kind[(kind == KIND_OVAL) & (a == b)] = KIND_CIRCLE
    circle = kind == KIND_CIRCLE
    theta = np.radians(np.where(circle, 0.0, raw[:, 3]))
    cos, sin = np.cos(theta), np.sin(theta)
    rect = kind == KIND_RECT
    bounding = np.where(rect, np.hypot(a, b), np.maximum(a, b))
    inner = np.minimum(a, b)
    ac, asn, bc, bs = np.abs(a * cos), np.abs(a * sin), np.abs(b * cos), np.abs(b * sin)
    half_x = np.where(rect, ac + bs, np.hypot(ac, bs))
    half_y = np.where(rect, asn + bc, np.hypot(asn, bc))
    return ShapeArrays(
        kind, raw[:, 4].copy(), raw[:, 5].copy(), a, b, cos, sin, bounding, inner, half_x, half_y
    )


def replace_rows(shapes: ShapeArrays, rows: Sequence[int], models: Sequence[Model]) -> ShapeArrays:
    """A copy of ``shapes`` with ``rows`` re-measured from ``models`` (one model per row)."""
    fresh = models_shape_arrays(models)
    index = np.asarray(rows, dtype=np.int64)
    columns = []
    for name in _COLUMNS:
        column = getattr(shapes, name).copy()
        column[index] = getattr(fresh, name)
        columns.append(column)
    return ShapeArrays(*columns)


def overlaps_many(shapes: ShapeArrays, area: PreparedArea) -> BoolArray:
    """For every base, whether any part of it is over ``area`` (vectorised for round bases)."""
    result = np.zeros(len(shapes), dtype=bool)
    candidates = _box_candidates(shapes, area.bounds)
    if len(candidates) == 0:
        return result
    circles = candidates[shapes.kind[candidates] == KIND_CIRCLE]
    if len(circles):
        points = shapely.points(shapes.x[circles], shapes.y[circles])
        gap = shapely.distance(area.geometry, points)
        result[circles] = gap <= shapes.a[circles] + TOLERANCE
    for i in candidates[shapes.kind[candidates] != KIND_CIRCLE]:
        result[i] = shape_overlaps(shapes.shape(int(i)), area)
    return result


def wholly_within_many(shapes: ShapeArrays, area: PreparedArea) -> BoolArray:
    """For every base, whether it lies wholly within ``area`` (vectorised for round bases)."""
    minx, miny, maxx, maxy = area.bounds
    inside_box = (
        (shapes.x - shapes.half_x >= minx - TOLERANCE)
        & (shapes.x + shapes.half_x <= maxx + TOLERANCE)
        & (shapes.y - shapes.half_y >= miny - TOLERANCE)
        & (shapes.y + shapes.half_y <= maxy + TOLERANCE)
    )
    result = np.zeros(len(shapes), dtype=bool)
    candidates = np.flatnonzero(inside_box)
    if len(candidates) == 0:
        return result
    if area.is_box:
        result[candidates] = True
        return result
    circles = candidates[shapes.kind[candidates] == KIND_CIRCLE]
    if len(circles):
        xs, ys = shapes.x[circles], shapes.y[circles]
        covered = shapely.intersects_xy(area.geometry, xs, ys)
        clearance = shapely.distance(area.boundary, shapely.points(xs, ys))
        result[circles] = covered & (clearance >= shapes.a[circles] - TOLERANCE)
    for i in candidates[shapes.kind[candidates] != KIND_CIRCLE]:
        result[i] = shape_wholly_within(shapes.shape(int(i)), area)
    return result


def _box_candidates(shapes: ShapeArrays, bounds: tuple[float, float, float, float]) -> IntArray:
    minx, miny, maxx, maxy = bounds
    meets = (
        (shapes.x + shapes.half_x >= minx - TOLERANCE)
        & (shapes.x - shapes.half_x <= maxx + TOLERANCE)
        & (shapes.y + shapes.half_y >= miny - TOLERANCE)
        & (shapes.y - shapes.half_y <= maxy + TOLERANCE)
    )
    found: IntArray = np.flatnonzero(meets)
    return found


@dataclass(frozen=True, eq=False)
class ModelTable:
    """Every model of a scenario in one table: ids, owners, heights and base shapes.

    Row ``i`` is the ``i``-th model in document order; ``unit_rows[u]`` is the ``range`` of
    rows of unit ``u``; ``player_index`` is 0 for ``players[0]``, 1 for ``players[1]``.
    """

    model_ids: tuple[str, ...]
    unit_ids: tuple[str, ...]
    unit_of_row: IntArray
    unit_rows: tuple[range, ...]
    player_index: IntArray
    z: FloatArray
    shapes: ShapeArrays

    def rows_of_units(self, unit_indices: Sequence[int]) -> IntArray:
        rows = [r for u in unit_indices for r in self.unit_rows[u]]
        return np.asarray(rows, dtype=np.int64)

    def with_units(self, scenario: Scenario, unit_indices: Sequence[int]) -> ModelTable:
        """This table with the rows of the given units re-read from ``scenario`` (same layout)."""
        rows = self.rows_of_units(unit_indices)
        models = [m for u in unit_indices for m in scenario.units[u].models]
        z = self.z.copy()
        z[rows] = [m.z for m in models]
        return ModelTable(
            self.model_ids,
            self.unit_ids,
            self.unit_of_row,
            self.unit_rows,
            self.player_index,
            z,
            replace_rows(self.shapes, rows.tolist(), models),
        )


def model_table(scenario: Scenario) -> ModelTable:
    """The :class:`ModelTable` of a scenario."""
    first = scenario.players[0].id
    models: list[Model] = []
    unit_of_row: list[int] = []
    players: list[int] = []
    unit_rows: list[range] = []
    for index, unit in enumerate(scenario.units):
        start = len(models)
        models.extend(unit.models)
        unit_rows.append(range(start, len(models)))
        unit_of_row.extend([index] * len(unit.models))
        players.extend([0 if unit.player == first else 1] * len(unit.models))
    return ModelTable(
        tuple(m.id for m in models),
        tuple(u.id for u in scenario.units),
        np.asarray(unit_of_row, dtype=np.int64),
        tuple(unit_rows),
        np.asarray(players, dtype=np.int64),
        np.fromiter((m.z for m in models), dtype=np.float64, count=len(models)),
        models_shape_arrays(models),
    )


def area_relations(
    shapes: ShapeArrays, areas: Sequence[PreparedArea]
) -> tuple[BoolArray, BoolArray]:
    """For every area (rows) and base (columns): whether the base is over the area (any part)
    and whether it is wholly within it.

    All pairs at once: exact bounding boxes settle most pairs; round and oval bases are then
    tested in one batch in the frame where each base is the unit circle (an affine map, so
    contact and containment are preserved): the base is over the area when its centre is in the
    area or the area's outline comes within 1 of the origin, wholly within when its centre is in
    the area and the outline stays at least 1 away. Rectangles, exact polygons, go to shapely.
    """
    count, n = len(areas), len(shapes)
    overlaps = np.zeros((count, n), dtype=bool)
    wholly = np.zeros((count, n), dtype=bool)
    if count == 0 or n == 0:
        return overlaps, wholly
    table = _area_table(areas)
    bounds = table.bounds
    left, right = shapes.x - shapes.half_x, shapes.x + shapes.half_x
    low, high = shapes.y - shapes.half_y, shapes.y + shapes.half_y
    minx, miny = bounds[:, 0] - TOLERANCE, bounds[:, 1] - TOLERANCE
    maxx, maxy = bounds[:, 2] + TOLERANCE, bounds[:, 3] + TOLERANCE
    # Only the box test is done for every (area, base); the pairs whose boxes meet, few of
    # them on a large board, are carried on as index arrays.
    meets = (
        (right[None, :] >= minx[:, None])
        & (left[None, :] <= maxx[:, None])
        & (high[None, :] >= miny[:, None])
        & (low[None, :] <= maxy[:, None])
    )
    ai, mi = np.nonzero(meets)
    inside_box = (
        (left[mi] >= minx[ai])
        & (right[mi] <= maxx[ai])
        & (low[mi] >= miny[ai])
        & (high[mi] <= maxy[ai])
    )
    settled = inside_box & table.is_box[ai]
    wholly[ai[settled], mi[settled]] = True
    overlaps[ai[settled], mi[settled]] = True
    rect = shapes.kind[mi] == KIND_RECT
    geoms = table.geometries
    round_or_oval = np.flatnonzero(~settled & ~rect)
    if len(round_or_oval):
        a_i, m_i = ai[round_or_oval], mi[round_or_oval]
        covered = shapely.intersects_xy(geoms[a_i], shapes.x[m_i], shapes.y[m_i])
        clearance = _unit_circle_clearances(shapes, table, a_i, m_i)
        slack = TOLERANCE / shapes.inner[m_i]
        overlaps[a_i, m_i] = covered | (clearance <= 1.0 + slack)
        wholly[a_i, m_i] = inside_box[round_or_oval] & covered & (clearance >= 1.0 - slack)
    straight = np.flatnonzero(~settled & rect)
    if len(straight):
        a_i, m_i = ai[straight], mi[straight]
        polygons = _rectangles(shapes, m_i)
        overlaps[a_i, m_i] = shapely.dwithin(geoms[a_i], polygons, TOLERANCE)
        inside = inside_box[straight]
        if np.any(inside):
            widened = np.array([areas[int(a)].widened for a in a_i[inside]], dtype=object)
            wholly[a_i[inside], m_i[inside]] = shapely.covers(widened, polygons[inside])
    return overlaps, wholly


@dataclass(frozen=True, eq=False)
class _AreaTable:
    """A list of areas packed into arrays (kept while the same areas are tested again)."""

    areas: tuple[PreparedArea, ...]
    bounds: FloatArray
    is_box: BoolArray
    geometries: npt.NDArray[np.object_]
    counts: IntArray
    offsets: IntArray
    segments: FloatArray


_AREA_TABLES: list[_AreaTable] = []


def _area_table(areas: Sequence[PreparedArea]) -> _AreaTable:
    for known in _AREA_TABLES:
        if len(known.areas) == len(areas) and all(
            a is b for a, b in zip(known.areas, areas, strict=True)
        ):
            return known
    counts = np.array([len(a.segments) for a in areas], dtype=np.int64)
    table = _AreaTable(
        tuple(areas),
        np.array([a.bounds for a in areas], dtype=np.float64).reshape(-1, 4),
        np.array([a.is_box for a in areas], dtype=bool),
        np.array([a.geometry for a in areas], dtype=object),
        counts,
        np.concatenate(([0], np.cumsum(counts)[:-1])).astype(np.int64),
        np.vstack([a.segments for a in areas]),
    )
    _AREA_TABLES.insert(0, table)
    del _AREA_TABLES[8:]
    return table


def _unit_circle_clearances(
    shapes: ShapeArrays, table: _AreaTable, ai: IntArray, mi: IntArray
) -> FloatArray:
    """For many (area, round or oval base) pairs: the distance from the origin to the area's
    outline in the frame where the base is the unit circle at the origin."""
    counts, offsets, every = table.counts, table.offsets, table.segments
    per_pair = counts[ai]
    starts = np.concatenate(([0], np.cumsum(per_pair)[:-1]))
    within_pair = np.arange(int(per_pair.sum())) - np.repeat(starts, per_pair)
    seg = every[np.repeat(offsets[ai], per_pair) + within_pair]
    owner = np.repeat(mi, per_pair)
    c, s = shapes.cos[owner], shapes.sin[owner]
    a, b = shapes.a[owner], shapes.b[owner]
    dx0, dy0 = seg[:, 0] - shapes.x[owner], seg[:, 1] - shapes.y[owner]
    dx1, dy1 = seg[:, 2] - shapes.x[owner], seg[:, 3] - shapes.y[owner]
    ax, ay = (c * dx0 + s * dy0) / a, (-s * dx0 + c * dy0) / b
    bx, by = (c * dx1 + s * dy1) / a, (-s * dx1 + c * dy1) / b
    ex, ey = bx - ax, by - ay
    length2 = ex * ex + ey * ey
    safe = np.where(length2 > 0, length2, 1.0)
    t = np.clip(np.where(length2 > 0, -(ax * ex + ay * ey) / safe, 0.0), 0.0, 1.0)
    distance = np.hypot(ax + t * ex, ay + t * ey)
    result: FloatArray = np.minimum.reduceat(distance, starts)
    return result


def _rectangles(shapes: ShapeArrays, rows: IntArray) -> npt.NDArray[np.object_]:
    """Exact polygons of rectangular bases (four corners each: a rectangle is a polygon)."""
    a, b = shapes.a[rows], shapes.b[rows]
    c, s = shapes.cos[rows], shapes.sin[rows]
    local = np.array([(1.0, 1.0), (-1.0, 1.0), (-1.0, -1.0), (1.0, -1.0)])
    lx = local[None, :, 0] * a[:, None]
    ly = local[None, :, 1] * b[:, None]
    xs = shapes.x[rows][:, None] + c[:, None] * lx - s[:, None] * ly
    ys = shapes.y[rows][:, None] + s[:, None] * lx + c[:, None] * ly
    polygons: npt.NDArray[np.object_] = shapely.polygons(np.stack((xs, ys), axis=-1))
    return polygons
