"""Range rings: the area within a distance of a unit, measured from its models' base edges.

A unit's ring of radius ``r`` is every point within ``r`` inches horizontally of the edge of
at least one of its bases: each base grown by ``r`` (the Minkowski sum of the base and a disc,
traced through the base's support points, so ovals and rectangles keep their shape and gain
round corners), the grown bases unioned. The outline is a polygon whose vertices lie on the
exact curve, at most :data:`CHORD_ERROR` inside it between vertices.

>>> from engine.model import CircleBase, Model, Unit
>>> unit = Unit("squad", "red", (Model("m", 10.0, 10.0, CircleBase(25.4)),), rings=(6.0,))
>>> (ring,) = ring_outlines(unit)
>>> ring.radius, len(ring.polygons), round(ring.area / (math.pi * 6.5**2), 3)
(6.0, 1, 1.0)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import shapely
from shapely.errors import ShapelyError
from shapely.geometry import MultiPolygon
from shapely.geometry import Polygon as ShapelyPolygon

from engine.errors import GeometryError
from engine.geometry import KIND_RECT, shape_of
from engine.limits import MAX_RING_RADIUS, MAX_RINGS
from engine.model import Model, Polygon, Unit

CHORD_ERROR = 0.005
"""Inches: the most an outline's straight edge falls inside the exact curve."""
MIN_VERTICES = 64
"""The fewest vertices a grown base's outline has (small rings stay round)."""


@dataclass(frozen=True)
class RingPolygon:
    """One piece of a ring: its outer boundary and the holes inside it (counter-clockwise
    outer boundary, table inches)."""

    exterior: Polygon
    holes: tuple[Polygon, ...] = ()


@dataclass(frozen=True)
class RingOutline:
    """A unit's ring of one radius: the pieces of its outline and their area."""

    unit_id: str
    radius: float
    polygons: tuple[RingPolygon, ...]
    area: float


def grown_base(model: Model, radius: float) -> Polygon:
    """The outline of ``model``'s base grown by ``radius`` inches, counter-clockwise.

    >>> from engine.model import RectBase
    >>> square = grown_base(Model("m", 0.0, 0.0, RectBase(50.8, 50.8)), 1.0)
    >>> round(max(x for x, _ in square), 6), round(max(y for _, y in square), 6)
    (2.0, 2.0)
    """
    _check_radius(radius)
    return grown_outline(model, radius)


def grown_outline(model: Model, radius: float) -> Polygon:
    """:func:`grown_base` for any radius of 0 or more, unbounded by the rings' limit (areas
    such as the set-up distance from enemy models, which a file may set beyond it).

    >>> from engine.model import CircleBase
    >>> outline = grown_outline(Model("m", 0.0, 0.0, CircleBase(25.4)), 200.0)
    >>> round(max(x for x, _ in outline), 6)
    200.5
    """
    shape = shape_of(model)
    reach = shape.bounding_radius + radius
    step = math.acos(max(-1.0, 1.0 - CHORD_ERROR / reach)) if reach > 0 else math.pi
    # A multiple of four, so the outline reaches the exact extremes along both axes.
    count = 4 * max(MIN_VERTICES // 4, math.ceil(math.pi / (2.0 * step)))
    angles = 2.0 * math.pi * np.arange(count) / count
    ux, uy = np.cos(angles), np.sin(angles)
    # The base's support point in each direction (Shape.support, for every direction at once).
    lx, ly = shape.cos * ux + shape.sin * uy, -shape.sin * ux + shape.cos * uy
    if shape.kind == KIND_RECT:
        sx, sy = np.where(lx >= 0, shape.a, -shape.a), np.where(ly >= 0, shape.b, -shape.b)
    else:
        norm = np.hypot(shape.a * lx, shape.b * ly)
        sx, sy = shape.a * shape.a * lx / norm, shape.b * shape.b * ly / norm
    xs = shape.x + shape.cos * sx - shape.sin * sy + radius * ux
    ys = shape.y + shape.sin * sx + shape.cos * sy + radius * uy
    return tuple(zip(xs.tolist(), ys.tolist(), strict=True))


def ring_outline(unit: Unit, radius: float) -> RingOutline:
    """The ring of ``radius`` inches around ``unit``'s bases (``GeometryError`` for a radius
    that is not a positive number up to :data:`engine.limits.MAX_RING_RADIUS`)."""
    _check_radius(radius)
    try:
        union = shapely.union_all([ShapelyPolygon(grown_base(m, radius)) for m in unit.models])
    except (ShapelyError, ValueError) as error:
        raise GeometryError(f'{unit.id}: the {radius:g}" ring cannot be traced: {error}') from None
    pieces = list(union.geoms) if isinstance(union, MultiPolygon) else [union]
    polygons = tuple(
        RingPolygon(
            _loop(shapely.geometry.polygon.orient(piece).exterior.coords),
            tuple(_loop(hole.coords) for hole in shapely.geometry.polygon.orient(piece).interiors),
        )
        for piece in pieces
        if isinstance(piece, ShapelyPolygon) and not piece.is_empty
    )
    return RingOutline(unit.id, float(radius), polygons, float(union.area))


def ring_outlines(unit: Unit) -> tuple[RingOutline, ...]:
    """The unit's rings, one per radius of ``unit.rings``, in the file's order."""
    return tuple(ring_outline(unit, radius) for radius in unit.rings)


def parse_rings(text: str) -> tuple[float, ...]:
    """Ring radii typed as a list (``"6, 9, 12"``, commas or spaces, an optional ``"``), as
    the file's ``rings`` holds them; ``GeometryError`` naming the first bad entry.

    >>> parse_rings('6, 9.5 12"'), parse_rings("  ")
    ((6, 9.5, 12), ())
    """
    words = text.replace(",", " ").split()
    if len(words) > MAX_RINGS:
        raise GeometryError(f"at most {MAX_RINGS} rings, got {len(words)}")
    radii: list[float] = []
    for word in words:
        number = word.rstrip('"')
        try:
            value = float(number)
        except ValueError:
            raise GeometryError(f"a ring radius must be a number, got {word!r}") from None
        _check_radius(value)
        radii.append(int(value) if value.is_integer() else value)
    return tuple(radii)


def rings_text(rings: tuple[float, ...]) -> str:
    """Ring radii as :func:`parse_rings` reads them.

    >>> rings_text((6, 9.5, 12.0))
    '6, 9.5, 12'
    """
    return ", ".join(f"{float(radius):.10g}" for radius in rings)


def _loop(coords: object) -> Polygon:
    # Shapely closes every ring by repeating the first point; the engine's polygons do not.
    points = [(float(x), float(y)) for x, y in coords]  # type: ignore[attr-defined]
    return tuple(points[:-1])


def _check_radius(radius: float) -> None:
    if isinstance(radius, bool) or not isinstance(radius, int | float):
        raise GeometryError(f"a ring radius must be a number, got {radius!r}")
    if not 0.0 < radius <= MAX_RING_RADIUS:  # also refuses NaN
        raise GeometryError(
            f'a ring radius must be more than 0 and at most {MAX_RING_RADIUS:g}", got {radius!r}'
        )
