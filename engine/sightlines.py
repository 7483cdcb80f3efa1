"""Base outlines and the line-width constants behind :mod:`engine.visibility`.

Everything here works in plan (``x, y`` inches). A sight line is 1 mm wide; the compiled search
(:mod:`engine.sight_kernel`) treats it as infinitely thin and grows every blocker instead:
searches grow blockers by :data:`SEARCH_GROW` (half a line and the 1e-6" tolerance) and let a
line graze them; witnesses are then re-checked against blockers grown by
:data:`HALF_LINE_WIDTH` with touching counted as blocked. So a reported sight line has real
clearance, and "no sight line" means none with more than 1e-6" to spare.

Round bases are exact discs and rectangular bases exact polygons. Oval bases carry two polygons
of :data:`CURVE_SIDES` sides: the inscribed one where the oval is an end of a sight line (a
witness ends on the true base), the circumscribed one where it blocks (a witness misses the true
base); so an answer about an oval can only err by the polygons' gap, under ``0.0012`` times the
semi-axis (0.002" on the largest 170 mm oval), and always towards "not visible".

>>> from engine.model import OvalBase
>>> oval = base_outline(OvalBase(170, 105), 0.0, 0.0, 30.0)
>>> oval.kind, round(oval.a, 4), round(oval.b, 4)
('oval', 3.3465, 2.0669)
>>> true_area = math.pi * oval.a * oval.b
>>> oval.inner.area < true_area < oval.outer.area
True
>>> round(1 - oval.inner.area / oval.outer.area, 4)
0.0024
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Literal, TypeAlias

import numpy as np
import shapely
from numpy.typing import NDArray
from shapely.geometry import Polygon as ShapelyPolygon

from engine.errors import GeometryError
from engine.model import MM_PER_INCH, Base, CircleBase, OvalBase, RectBase

FloatArray: TypeAlias = NDArray[np.float64]

HALF_LINE_WIDTH = 0.5 / MM_PER_INCH
"""Half of the 1 mm sight-line width, in inches: every blocker is grown by this much."""

TOLERANCE = 1e-6
"""Inches: a sight line passing within this of touching a grown blocker counts as touching."""

SEARCH_GROW = HALF_LINE_WIDTH + TOLERANCE
"""How much the searches grow blockers (they let lines graze them)."""

CURVE_SIDES = 64
"""Sides of the inscribed and circumscribed polygons of oval outlines."""

OutlineKind = Literal["circle", "oval", "rect"]


# ---------------------------------------------------------------------------------------------
# Outlines


@dataclass(frozen=True, eq=False)
class Outline:
    """A convex base footprint: exact parameters, with an outer and an inner polygon built on
    first use (line of sight reads the parameters of round bases only, so a board of round
    bases builds no polygon).

    ``a, b`` are the semi-axes (circle: both the radius; rect: half length and half width) in
    the frame rotated by ``angle`` radians about ``(cx, cy)``.
    """

    kind: OutlineKind
    cx: float
    cy: float
    a: float
    b: float
    angle: float

    @functools.cached_property
    def _polygons(self) -> tuple[ShapelyPolygon, ShapelyPolygon]:
        if self.kind == "rect":
            u, v = _rotate(
                np.array([-self.a, self.a, self.a, -self.a]),
                np.array([-self.b, -self.b, self.b, self.b]),
                self.angle,
            )
            rect = shapely.Polygon(np.column_stack([u + self.cx, v + self.cy]))
            return rect, rect
        return _ellipse_polygons(self.cx, self.cy, self.a, self.b, self.angle)

    @property
    def outer(self) -> ShapelyPolygon:
        """A polygon holding the base (circumscribed; a rectangle itself)."""
        return self._polygons[0]

    @property
    def inner(self) -> ShapelyPolygon:
        """A polygon every point of which is on the base (inscribed; a rectangle itself)."""
        return self._polygons[1]

    @property
    def bounds(self) -> tuple[float, float, float, float]:
        """The box of :attr:`outer`, which holds the base (a round base's own box: the
        circumscribed polygon's edges touch the circle where the box does)."""
        if self.kind == "circle":
            return (self.cx - self.a, self.cy - self.a, self.cx + self.a, self.cy + self.a)
        minx, miny, maxx, maxy = self.outer.bounds
        return (minx, miny, maxx, maxy)

    def distance_to(self, other: Outline) -> float:
        """Horizontal distance between closest points (exact for two circles)."""
        if self.kind == "circle" and other.kind == "circle":
            gap = math.hypot(self.cx - other.cx, self.cy - other.cy) - self.a - other.a
            return max(0.0, gap)
        return float(shapely.distance(self.inner, other.inner))


def _rotate(u: FloatArray, v: FloatArray, angle: float) -> tuple[FloatArray, FloatArray]:
    cos_a, sin_a = math.cos(angle), math.sin(angle)
    return u * cos_a - v * sin_a, u * sin_a + v * cos_a


def _ellipse_polygons(
    cx: float, cy: float, a: float, b: float, angle: float
) -> tuple[ShapelyPolygon, ShapelyPolygon]:
    """(outer, inner): a circumscribed and an inscribed polygon of the ellipse.

    Both are affine images of regular polygons about the unit circle, and affine maps keep
    "inscribed" and "circumscribed", so both bounds are exact.
    """
    steps = np.arange(CURVE_SIDES) * (2.0 * math.pi / CURVE_SIDES)
    half = math.pi / CURVE_SIDES
    grow = 1.0 / math.cos(half)
    iu, iv = _rotate(a * np.cos(steps), b * np.sin(steps), angle)
    ou, ov = _rotate(a * grow * np.cos(steps + half), b * grow * np.sin(steps + half), angle)
    inner = shapely.Polygon(np.column_stack([iu + cx, iv + cy]))
    outer = shapely.Polygon(np.column_stack([ou + cx, ov + cy]))
    return outer, inner


def base_outline(base: Base, x: float, y: float, rotation: float) -> Outline:
    """The outline of a base centred at ``(x, y)``, rotated ``rotation`` degrees.

    >>> o = base_outline(CircleBase(25.4), 0.0, 0.0, 0.0)
    >>> o.kind, o.a, o.outer.covers(shapely.Point(0.5, 0)), o.inner.contains(shapely.Point(0.49, 0))
    ('circle', 0.5, True, True)
    >>> r = base_outline(RectBase(50.8, 25.4), 1.0, 1.0, 90.0)
    >>> r.kind, [round(v, 6) for v in r.inner.bounds]
    ('rect', [0.5, 0.0, 1.5, 2.0])
    """
    angle = math.radians(rotation)
    if isinstance(base, CircleBase):
        r = base.radius
        if r <= 0:
            raise GeometryError(f"a round base needs a positive diameter, got {base.diameter}")
        return Outline("circle", x, y, r, r, 0.0)
    if isinstance(base, OvalBase):
        a, b = base.semi_axes
        if a <= 0 or b <= 0:
            raise GeometryError(
                f"an oval base needs positive sizes, got {base.length}x{base.width}"
            )
        return Outline("oval", x, y, a, b, angle)
    if isinstance(base, RectBase):
        a, b = base.half_extents
        if a <= 0 or b <= 0:
            raise GeometryError(
                f"a rectangular base needs positive sizes, got {base.length}x{base.width}"
            )
        return Outline("rect", x, y, a, b, angle)
    raise GeometryError(f"unknown base shape {base!r}")
