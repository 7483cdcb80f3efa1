"""Private geometry behind :mod:`engine.visibility`: outlines, blockers and exact sight searches.

Everything here works in plan (``x, y`` inches) with heights carried alongside. A sight line
is a straight 3-D segment from ``(start, h_start)`` to ``(end, h_end)``; a blocker is a vertical
prism ``footprint x (-inf, top]``. The 1 mm line width is handled by growing every blocker by
half a millimetre (:data:`HALF_LINE_WIDTH`), so sight lines themselves are infinitely thin.

Curved outlines (round and oval bases) carry two polygons: ``outer`` contains the true shape
and ``inner`` lies inside it. A claim that something is *seen* uses endpoints inside ``inner``
and blockers as ``outer`` (or exact circles), so it never overstates visibility; a proof that
something is *hidden* uses observer/target cells as ``outer`` and blockers as ``inner``, so it
never overstates blocking. The two searches here combine both with subdivision:

* :func:`find_sight_line` looks for one unblocked segment between two outlines (visible);
* :func:`check_fully_visible` checks that every facing point of a target's base is seen down
  to its foot (fully visible).

>>> from engine.model import CircleBase
>>> a = base_outline(CircleBase(32), 0.0, 0.0, 0.0)
>>> b = base_outline(CircleBase(32), 10.0, 0.0, 0.0)
>>> wall = polygon_blocker("wall", ((4.0, -3.0), (5.0, -3.0), (5.0, 3.0), (4.0, 3.0)), top=5.0)
>>> find_sight_line(a, 1.5, b, 1.5, [wall]).segment is None
True
>>> find_sight_line(a, 1.5, b, 1.5, []).segment
((0.0, 0.0), (10.0, 0.0))
"""

from __future__ import annotations

import functools
import math
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal, TypeAlias

import numpy as np
import shapely
from numpy.typing import NDArray
from shapely.geometry import Polygon as ShapelyPolygon
from shapely.ops import polylabel

from engine.errors import GeometryError
from engine.model import MM_PER_INCH, Base, CircleBase, OvalBase, RectBase

FloatArray: TypeAlias = NDArray[np.float64]
BoolArray: TypeAlias = NDArray[np.bool_]
XY: TypeAlias = tuple[float, float]

HALF_LINE_WIDTH = 0.5 / MM_PER_INCH
"""Half of the 1 mm sight-line width, in inches: every blocker is grown by this much."""

HEIGHT_TOLERANCE = 1e-6
"""Heights closer than this (inches) are equal: a line level with a blocker's top is blocked."""

MIN_CELL = 0.03
"""Searches stop subdividing below this size (inches) and report 'not seen'. Any sight line
with 0.05" of clearance from every blocker would have been found by then."""

MAX_CELL_PAIRS = 120
"""A hard cap on subdivision work per model pair, so a pathological scene cannot hang the app.
A search stopped by it reports ``gave_up`` (its "not seen" is then not proven)."""

CURVE_SIDES = 64
"""Sides of the inscribed and circumscribed polygons of round and oval outlines."""

OutlineKind = Literal["circle", "oval", "rect", "polygon"]


# ---------------------------------------------------------------------------------------------
# Outlines


@dataclass(frozen=True, eq=False)
class Outline:
    """A convex base footprint: exact parameters plus an outer and an inner polygon.

    ``a, b`` are the semi-axes (circle: both the radius; rect: half length and half width) in
    the frame rotated by ``angle`` radians about ``(cx, cy)``.
    """

    kind: OutlineKind
    cx: float
    cy: float
    a: float
    b: float
    angle: float
    outer: ShapelyPolygon
    inner: ShapelyPolygon

    @property
    def centre(self) -> XY:
        return self.cx, self.cy

    @property
    def bounding_radius(self) -> float:
        if self.kind == "rect":
            return math.hypot(self.a, self.b)
        return max(self.a, self.b)

    def support(self, nx: FloatArray, ny: FloatArray) -> FloatArray:
        """The support function ``max p.n`` over the outline, for unit directions ``n``."""
        cos_a, sin_a = math.cos(self.angle), math.sin(self.angle)
        nu = nx * cos_a + ny * sin_a
        nv = -nx * sin_a + ny * cos_a
        offset = nx * self.cx + ny * self.cy
        if self.kind == "rect":
            return np.asarray(offset + self.a * np.abs(nu) + self.b * np.abs(nv), dtype=float)
        return np.asarray(offset + np.hypot(self.a * nu, self.b * nv), dtype=float)

    def coarse_outer(self) -> ShapelyPolygon:
        """A polygon of few vertices containing the outline (an octagon for curved ones)."""
        if self.kind in ("rect", "polygon"):
            return self.outer
        steps = (np.arange(8) + 0.5) * (math.pi / 4)
        grow = 1.0 / math.cos(math.pi / 8)
        u, v = _rotate(self.a * grow * np.cos(steps), self.b * grow * np.sin(steps), self.angle)
        return shapely.Polygon(np.column_stack([u + self.cx, v + self.cy]))

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


def base_outline(base: Base, x: float, y: float, rotation: float, grow: float = 0.0) -> Outline:
    """The outline of a base centred at ``(x, y)``, rotated ``rotation`` degrees, grown by ``grow``.

    >>> o = base_outline(CircleBase(25.4), 0.0, 0.0, 0.0, grow=0.5)
    >>> o.kind, o.a, o.outer.covers(shapely.Point(1, 0)), o.inner.contains(shapely.Point(0.99, 0))
    ('circle', 1.0, True, True)
    """
    angle = math.radians(rotation)
    if isinstance(base, CircleBase):
        r = base.radius + grow
        if r <= 0:
            raise GeometryError(f"a round base needs a positive diameter, got {base.diameter}")
        outer, inner = _ellipse_polygons(x, y, r, r, 0.0)
        return Outline("circle", x, y, r, r, 0.0, outer, inner)
    if isinstance(base, OvalBase):
        a, b = base.semi_axes
        if a <= 0 or b <= 0:
            raise GeometryError(
                f"an oval base needs positive sizes, got {base.length}x{base.width}"
            )
        outer, inner = _ellipse_polygons(x, y, a, b, angle)
        if grow > 0:
            outer = shapely.buffer(outer, grow, join_style="mitre")
            inner = shapely.buffer(inner, grow, quad_segs=4)
        return Outline("oval", x, y, a + grow, b + grow, angle, outer, inner)
    if isinstance(base, RectBase):
        a, b = base.half_extents
        if a <= 0 or b <= 0:
            raise GeometryError(
                f"a rectangular base needs positive sizes, got {base.length}x{base.width}"
            )
        u, v = _rotate(np.array([-a, a, a, -a]), np.array([-b, -b, b, b]), angle)
        rect = shapely.Polygon(np.column_stack([u + x, v + y]))
        outer = shapely.buffer(rect, grow, join_style="mitre") if grow > 0 else rect
        inner = shapely.buffer(rect, grow, quad_segs=4) if grow > 0 else rect
        return Outline("rect", x, y, a + grow, b + grow, angle, outer, inner)
    raise GeometryError(f"unknown base shape {base!r}")


# ---------------------------------------------------------------------------------------------
# Blockers


def _convex_parts(polygon: ShapelyPolygon) -> tuple[FloatArray, ...]:
    """Vertex arrays of convex pieces whose union is ``polygon``."""
    if polygon.is_empty:
        return ()
    hull = polygon.convex_hull
    if hull.area - polygon.area <= 1e-12 * max(1.0, hull.area):
        return (np.asarray(polygon.exterior.coords, dtype=float)[:-1],)
    triangles = shapely.get_parts(shapely.constrained_delaunay_triangles(polygon))
    return tuple(np.asarray(t.exterior.coords, dtype=float)[:-1] for t in triangles)


@dataclass(frozen=True, eq=False)
class Blocker:
    """A vertical prism that blocks sight lines at or below ``top`` (grown by half a line).

    ``label`` names what the blocker belongs to in explanations (a terrain piece or a unit id);
    ``circle`` is the exact grown circle ``(cx, cy, r)`` of a round base.
    """

    label: str
    source: str
    top: float
    outer: ShapelyPolygon
    inner: ShapelyPolygon
    circle: tuple[float, float, float] | None = None
    outer_parts: tuple[FloatArray, ...] = field(default=(), repr=False)
    inner_parts: tuple[FloatArray, ...] = field(default=(), repr=False)
    outer_shapes: tuple[ShapelyPolygon, ...] = field(default=(), repr=False)
    inner_shapes: tuple[ShapelyPolygon, ...] = field(default=(), repr=False)

    @staticmethod
    def make(
        label: str,
        source: str,
        top: float,
        outer: ShapelyPolygon,
        inner: ShapelyPolygon,
        circle: tuple[float, float, float] | None = None,
    ) -> Blocker:
        shapely.prepare(outer)
        outer_parts, inner_parts = _convex_parts(outer), _convex_parts(inner)
        return Blocker(
            label,
            source,
            top,
            outer,
            inner,
            circle,
            outer_parts,
            inner_parts,
            tuple(shapely.Polygon(p) for p in outer_parts),
            tuple(shapely.Polygon(p) for p in inner_parts),
        )


def polygon_blocker(
    label: str, shape: Sequence[XY], top: float, source: str = "", grow: float = HALF_LINE_WIDTH
) -> Blocker:
    """A terrain feature (or obscuring area, ``top = inf``) as a grown blocker."""
    polygon = shapely.Polygon(shape)
    if not polygon.is_valid or polygon.area <= 0:
        raise GeometryError(f"{label}: a blocking shape must be a simple polygon with area")
    outer = shapely.buffer(polygon, grow, join_style="mitre") if grow > 0 else polygon
    inner = shapely.buffer(polygon, grow, quad_segs=4) if grow > 0 else polygon
    return Blocker.make(label, source or label, top, outer, inner)


def model_blocker(label: str, source: str, outline: Outline, top: float) -> Blocker:
    """A model's base (already grown by half a line) as a blocker up to ``top``."""
    circle = (outline.cx, outline.cy, outline.a) if outline.kind == "circle" else None
    return Blocker.make(label, source, top, outline.outer, outline.inner, circle)


# ---------------------------------------------------------------------------------------------
# Heights


def low_interval(h_start: float, h_end: float, top: float) -> tuple[float, float] | None:
    """The parameters ``t`` in ``[0, 1]`` where the line from ``h_start`` to ``h_end`` is at or
    below ``top``, or ``None`` when it never is (touching only at the lower end point counts as
    standing on the blocker, not as being blocked by it).

    >>> low_interval(3.0, 1.0, 2.0)
    (0.5, 1.0)
    >>> low_interval(1.5, 1.5, 1.5), low_interval(2.0, 1.0, 1.0)
    ((0.0, 1.0), None)
    """
    if math.isinf(top):
        return (0.0, 1.0)
    rise = h_end - h_start
    if abs(rise) <= HEIGHT_TOLERANCE:
        return (0.0, 1.0) if top >= max(h_start, h_end) - HEIGHT_TOLERANCE else None
    if top <= min(h_start, h_end) + HEIGHT_TOLERANCE:
        return None
    if top >= max(h_start, h_end):
        return (0.0, 1.0)
    crossing = (top - h_start) / rise
    return (crossing, 1.0) if rise < 0 else (0.0, crossing)


def relevant_blockers(
    blockers: Sequence[Blocker], region: ShapelyPolygon, h_start: float, h_end: float
) -> list[Blocker]:
    """The blockers that can block some line between those heights inside ``region``."""
    return [
        b
        for b in blockers
        if low_interval(h_start, h_end, b.top) is not None and b.outer.intersects(region)
    ]


# ---------------------------------------------------------------------------------------------
# The exact segment test


def segments_blocked(
    starts: FloatArray,
    ends: FloatArray,
    h_start: float,
    h_end: float,
    blockers: Sequence[Blocker],
) -> BoolArray:
    """For each plan segment ``starts[i] -> ends[i]`` (heights ``h_start -> h_end``): is it
    blocked? Exact for round blockers, conservative (outer polygon) for the rest.

    >>> w = polygon_blocker("w", ((1, -1), (2, -1), (2, 1), (1, 1)), top=2.0)
    >>> s = np.array([[0.0, 0.0], [0.0, 3.0]]); e = np.array([[3.0, 0.0], [3.0, 3.0]])
    >>> segments_blocked(s, e, 1.0, 1.0, [w]).tolist()
    [True, False]
    """
    blocked = np.zeros(len(starts), dtype=bool)
    if len(starts) == 0:
        return blocked
    delta = ends - starts
    for blocker in blockers:
        interval = low_interval(h_start, h_end, blocker.top)
        if interval is None:
            continue
        t0, t1 = interval
        open_rows = ~blocked
        if not open_rows.any():
            break
        p0 = starts[open_rows] + t0 * delta[open_rows]
        p1 = starts[open_rows] + t1 * delta[open_rows]
        if blocker.circle is not None:
            cx, cy, r = blocker.circle
            hits = _point_segment_distance(cx, cy, p0, p1) <= r
        else:
            lines = shapely.linestrings(np.stack([p0, p1], axis=1))
            hits = shapely.intersects(lines, blocker.outer)
        rows = np.flatnonzero(open_rows)
        blocked[rows[hits]] = True
    return blocked


def _point_segment_distance(cx: float, cy: float, p0: FloatArray, p1: FloatArray) -> FloatArray:
    d = p1 - p0
    length2 = np.einsum("ij,ij->i", d, d)
    safe = np.where(length2 > 0, length2, 1.0)
    t = np.clip(((cx - p0[:, 0]) * d[:, 0] + (cy - p0[:, 1]) * d[:, 1]) / safe, 0.0, 1.0)
    t = np.where(length2 > 0, t, 0.0)
    return np.asarray(
        np.hypot(p0[:, 0] + t * d[:, 0] - cx, p0[:, 1] + t * d[:, 1] - cy), dtype=float
    )


# ---------------------------------------------------------------------------------------------
# Blocked regions seen from one point


def _largest_part(geometry: shapely.Geometry) -> ShapelyPolygon | None:
    parts = [
        g for g in shapely.get_parts(geometry) if isinstance(g, ShapelyPolygon) and g.area > 1e-12
    ]
    if not parts:
        return None
    return max(parts, key=lambda g: g.area)


def _diameter(polygon: ShapelyPolygon) -> float:
    x0, y0, x1, y1 = polygon.bounds
    return float(math.hypot(x1 - x0, y1 - y0))


def _reach(origin: XY, area: ShapelyPolygon) -> float:
    x0, y0, x1, y1 = area.bounds
    ox, oy = origin
    return max(math.hypot(x - ox, y - oy) for x, y in ((x0, y0), (x0, y1), (x1, y0), (x1, y1)))


@dataclass(frozen=True)
class _Region:
    """Far ends seen from an origin: the ones a blocker's convex part stops, and its label."""

    polygon: shapely.Geometry
    label: str
    part: int


def _blocked_regions(
    origin: XY,
    h_origin: float,
    h_far: float,
    reach: float,
    blockers: Sequence[Blocker],
    use_inner: bool,
) -> list[_Region] | None:
    """For lines from ``origin`` (height ``h_origin``) to far ends at height ``h_far`` no more
    than ``reach`` away: the far ends each convex blocker part stops, or ``None`` when a
    blocker stops them all (the origin stands inside it where the line is low enough).

    A blocker point ``q`` stops the line to ``e`` exactly when ``q = origin + t (e - origin)``
    with ``t`` in the blocker's low interval ``[t0, t1]``; so the stopped ends are the part
    scaled about the origin by every factor in ``[1/t1, 1/t0]``, whose union is the convex hull
    of the two extreme copies (the part is convex). ``1/t0`` is capped where the copy lies past
    ``reach``.
    """
    ox, oy = origin
    here = shapely.Point(ox, oy)
    centre = np.array([ox, oy])
    coords: list[FloatArray] = []
    indices: list[int] = []
    meta: list[tuple[str, int]] = []
    candidates: list[tuple[Blocker, float, float, int, FloatArray]] = []
    shapes: list[ShapelyPolygon] = []
    for blocker in blockers:
        interval = low_interval(h_origin, h_far, blocker.top)
        if interval is None:
            continue
        t0, t1 = interval
        parts = blocker.inner_parts if use_inner else blocker.outer_parts
        candidates.extend((blocker, t0, t1, k, part) for k, part in enumerate(parts))
        shapes.extend(blocker.inner_shapes if use_inner else blocker.outer_shapes)
    if not candidates:
        return []
    clearances = shapely.distance(here, np.array(shapes, dtype=object))
    for (blocker, t0, t1, k, part), shape, clearance in zip(
        candidates, shapes, clearances, strict=True
    ):
        if (
            clearance <= 0.0
            and t0 <= 1e-12
            and float(shapely.distance(here, shape.exterior)) > 1e-9
        ):
            return None
        far = (reach + 1.0) / max(float(clearance), 1e-4)
        low = 1.0 / t1
        high = far if t0 <= 1e-12 else min(far, 1.0 / t0)
        if high <= low:
            continue
        coords.append(centre + low * (part - centre))
        coords.append(centre + high * (part - centre))
        indices.extend([len(meta)] * (2 * len(part)))
        meta.append((blocker.label, k))
    if not meta:
        return []
    hulls = shapely.convex_hull(shapely.multipoints(np.vstack(coords), indices=np.array(indices)))
    return [_Region(h, label, k) for h, (label, k) in zip(hulls, meta, strict=True)]


def _seen_area(
    origin: XY,
    h_origin: float,
    h_far: float,
    area: ShapelyPolygon,
    blockers: Sequence[Blocker],
    use_inner: bool,
) -> tuple[shapely.Geometry, set[str]]:
    """The part of ``area`` whose points the line from ``origin`` reaches unblocked, and the
    labels of the blockers whose stopped regions touch ``area``."""
    regions = _blocked_regions(origin, h_origin, h_far, _reach(origin, area), blockers, use_inner)
    if regions is None:
        inside = {b.label for b in blockers if b.outer.covers(shapely.Point(*origin))}
        return shapely.Polygon(), inside
    if not regions:
        return area, set()
    polygons = [r.polygon for r in regions]
    touching = shapely.intersects(np.array(polygons, dtype=object), area)
    labels = {r.label for r, hit in zip(regions, touching, strict=True) if hit}
    return shapely.difference(area, shapely.union_all(polygons)), labels


def _umbra_cover(
    cell: ShapelyPolygon,
    h_cell: float,
    h_far: float,
    area: ShapelyPolygon,
    blockers: Sequence[Blocker],
) -> frozenset[str] | None:
    """Labels of the blockers proving that no line from any point of the convex ``cell`` reaches
    any point of ``area`` unblocked, or ``None`` when this does not prove it.

    For a far end ``e`` the observer positions a convex part stops form a convex set, so ``e``
    is stopped from every point of the cell as soon as it is stopped from every vertex: the
    umbra of a part is the intersection of its stopped regions seen from the cell's vertices.
    ``area`` covered by the union of the umbrae proves it. Blockers are taken at their inner
    bounds, so the proof never overstates blocking.

    Points of the cell inside a blocker that is high enough right at the cell end see nothing,
    so they are set aside first and the umbrae are taken from the hull of the rest.
    """
    standing_in = [
        b
        for b in blockers
        if (interval := low_interval(h_cell, h_far, b.top)) is not None
        and interval[0] <= 1e-12
        and b.inner.intersects(cell)
    ]
    inside_labels = set()
    if standing_in:
        rest = shapely.difference(cell, shapely.union_all([b.inner for b in standing_in]))
        inside_labels = {b.label for b in standing_in}
        if _largest_part(rest) is None:
            return frozenset(inside_labels)
        hull = shapely.convex_hull(rest)
        if isinstance(hull, ShapelyPolygon) and hull.area > 0:
            cell = hull
    vertices = np.asarray(cell.exterior.coords, dtype=float)[:-1]
    reach = max(_reach((float(x), float(y)), area) for x, y in vertices)
    per_part: dict[tuple[str, int], list[shapely.Geometry]] = {}
    for x, y in vertices:
        regions = _blocked_regions((float(x), float(y)), h_cell, h_far, reach, blockers, True)
        if regions is None:
            # The vertex stands inside a blocker; other vertices may not, so no umbra from it.
            return None
        seen_here = set()
        for region in regions:
            key = (region.label, region.part)
            seen_here.add(key)
            per_part.setdefault(key, []).append(region.polygon)
        for key in list(per_part):
            if key not in seen_here:
                del per_part[key]
    umbrae = []
    labels = set()
    count = len(vertices)
    for (label, _), polygons in per_part.items():
        if len(polygons) != count:
            continue
        umbra = shapely.intersection_all(polygons)
        if umbra.is_empty or not umbra.intersects(area):
            continue
        umbrae.append(umbra)
        labels.add(label)
    if not umbrae:
        return None
    left = shapely.difference(area, shapely.union_all(umbrae))
    if _largest_part(left) is not None:
        return None
    return frozenset(labels | inside_labels)


# ---------------------------------------------------------------------------------------------
# Visible: one unblocked sight line between two outlines


@dataclass(frozen=True)
class LineSearch:
    """The outcome of :func:`find_sight_line`.

    ``segment`` is an unblocked plan segment (start on the first outline, end on the second),
    or ``None``. ``blockers`` are the labels of what was found in the way. ``proven`` is true
    when "no line" was proven everywhere, false when part of it rests on the clearance limit.
    """

    segment: tuple[XY, XY] | None
    blockers: frozenset[str] = frozenset()
    proven: bool = True
    cells: int = 0
    gave_up: bool = False


def _hull(*polygons: ShapelyPolygon) -> ShapelyPolygon:
    return shapely.convex_hull(shapely.union_all(polygons))


def _halves(cell: ShapelyPolygon) -> list[ShapelyPolygon]:
    x0, y0, x1, y1 = cell.bounds
    if x1 - x0 >= y1 - y0:
        mid = 0.5 * (x0 + x1)
        boxes = [(x0, y0, mid, y1), (mid, y0, x1, y1)]
    else:
        mid = 0.5 * (y0 + y1)
        boxes = [(x0, y0, x1, mid), (x0, mid, x1, y1)]
    parts = [shapely.clip_by_rect(cell, *box) for box in boxes]
    return [p for p in parts if isinstance(p, ShapelyPolygon) and not p.is_empty and p.area > 0]


def _inside_point(cell: ShapelyPolygon, footprint: ShapelyPolygon) -> XY | None:
    """A point of ``cell`` inside ``footprint`` (its centroid when it is), or ``None``."""
    centre = cell.centroid
    if footprint.contains(centre):
        return float(centre.x), float(centre.y)
    usable = _largest_part(shapely.intersection(cell, footprint))
    if usable is None:
        return None
    point = usable.representative_point()
    return float(point.x), float(point.y)


def _try_segments(
    starts: FloatArray,
    ends: FloatArray,
    h_start: float,
    h_end: float,
    blockers: Sequence[Blocker],
) -> tuple[XY, XY] | None:
    if len(starts) == 0 or len(ends) == 0:
        return None
    s = np.repeat(starts, len(ends), axis=0)
    e = np.tile(ends, (len(starts), 1))
    free = ~segments_blocked(s, e, h_start, h_end, blockers)
    if not free.any():
        return None
    i = int(np.flatnonzero(free)[0])
    return (float(s[i, 0]), float(s[i, 1])), (float(e[i, 0]), float(e[i, 1]))


_CHORD = 1.0 / math.cos(math.pi / 64)


def _max_distance(a: ShapelyPolygon, b: ShapelyPolygon) -> float:
    pa = np.asarray(a.exterior.coords)
    pb = np.asarray(b.exterior.coords)
    return float(np.sqrt(((pa[:, None, :] - pb[None, :, :]) ** 2).sum(axis=2).max()))


def _separation(
    cell_a: ShapelyPolygon,
    cell_b: ShapelyPolygon,
    h_a: float,
    h_b: float,
    blockers: Sequence[Blocker],
) -> frozenset[str] | None:
    """Labels of blockers that together wall ``cell_a`` off from ``cell_b``, or ``None``.

    Every segment between the cells lies in their hull. From each blocker keep the part where
    every such segment is surely low enough to be stopped (for a line descending towards
    ``cell_b`` that is the part far enough from ``cell_a``, and the other way round); remove
    those parts from the hull. An unblocked segment would be a path through what is left, so if
    no piece of it touches both cells, there is none.
    """
    hull = _hull(cell_a, cell_b)
    far = _max_distance(cell_a, cell_b)
    walls = []
    labels = set()
    for blocker in blockers:
        interval = low_interval(h_a, h_b, blocker.top)
        if interval is None:
            continue
        t0, t1 = interval
        wall = blocker.inner
        # Buffers are drawn with chords; growing the distance keeps them around the true disc.
        if t0 > 0:
            wall = shapely.difference(wall, shapely.buffer(cell_a, t0 * far * _CHORD, quad_segs=16))
        elif t1 < 1:
            wall = shapely.difference(
                wall, shapely.buffer(cell_b, (1 - t1) * far * _CHORD, quad_segs=16)
            )
        if wall.is_empty or not wall.intersects(hull):
            continue
        walls.append(wall)
        labels.add(blocker.label)
    if not walls:
        return None
    free = shapely.difference(hull, shapely.union_all(walls))
    for piece in shapely.get_parts(free):
        if piece.area > 0 and piece.intersects(cell_a) and piece.intersects(cell_b):
            return None
    return frozenset(labels)


def prove_no_sight_line(
    observer_area: ShapelyPolygon,
    h_observer: float,
    target_area: ShapelyPolygon,
    h_target: float,
    blockers: Sequence[Blocker],
) -> frozenset[str] | None:
    """Labels of blockers proving that no line from any point of the convex ``observer_area``
    reaches any point of ``target_area`` (heights as given), or ``None`` without a proof.

    Used on whole units at once: the hulls of two units' bases contain every base, so a proof
    for the hulls settles every model pair between them.
    """
    local = relevant_blockers(blockers, _hull(observer_area, target_area), h_observer, h_target)
    if not local:
        return None
    proof = _separation(observer_area, target_area, h_observer, h_target, local)
    if proof is None:
        proof = _umbra_cover(observer_area, h_observer, h_target, target_area, local)
    return proof


def quick_sight_line(
    observer: Outline,
    h_observer: float,
    target: Outline,
    h_target: float,
    blockers: Sequence[Blocker],
) -> tuple[XY, XY] | None:
    """A cheap first try: segments between the centres and eight rim points of each base."""
    ends = []
    for outline in (observer, target):
        rim = np.asarray(outline.inner.exterior.coords, dtype=float)[:-1]
        picks = rim[np.linspace(0, len(rim), 8, endpoint=False).astype(int)]
        centre = np.array(outline.centre)
        ends.append(np.vstack([centre, picks + 1e-9 * (centre - picks)]))
    return _try_segments(ends[0], ends[1], h_observer, h_target, blockers)


def find_sight_line(
    observer: Outline,
    h_observer: float,
    target: Outline,
    h_target: float,
    blockers: Sequence[Blocker],
) -> LineSearch:
    """Search for an unblocked sight line from ``observer`` (at height ``h_observer``) to
    ``target`` (at ``h_target``).

    Three-valued search over cells of the observer's base. For a cell, the target points seen
    from one point of it are computed exactly (the target minus every blocker's stopped region)
    and a seen point gives a sight line, checked again segment by segment; or the blockers'
    umbrae from the whole cell cover the target, which proves the cell sees nothing; or the
    cell is split. Below :data:`MIN_CELL` a cell is given up as blocked (``proven`` becomes
    false): any line with more clearance would have been seen from the cell's point.
    """
    hull = _hull(observer.outer, target.outer)
    relevant = relevant_blockers(blockers, hull, h_observer, h_target)
    centres = np.array([observer.centre]), np.array([target.centre])
    witness = _try_segments(*centres, h_observer, h_target, relevant)
    if witness is not None:
        return LineSearch(witness, cells=0)
    labels: set[str] = set()
    proven = True
    stack = [observer.coarse_outer()]
    cells = 0
    while stack:
        cell = stack.pop()
        cells += 1
        if cells > MAX_CELL_PAIRS:
            labels |= {b.label for b in relevant}
            return LineSearch(None, frozenset(labels), False, cells, gave_up=True)
        local = relevant_blockers(relevant, _hull(cell, target.outer), h_observer, h_target)
        start = _inside_point(cell, observer.inner)
        if start is not None:
            seen, _ = _seen_area(start, h_observer, h_target, target.inner, local, False)
            end_area = _largest_part(seen)
            if end_area is not None:
                end = polylabel(end_area, tolerance=1e-4)
                found = _try_segments(
                    np.array([start]), np.array([[end.x, end.y]]), h_observer, h_target, local
                )
                if found is not None:
                    return LineSearch(found, cells=cells)
        proof = _separation(cell, target.outer, h_observer, h_target, local)
        if proof is None:
            proof = _umbra_cover(cell, h_observer, h_target, target.outer, local)
        if proof is not None:
            labels |= proof
            continue
        if _diameter(cell) < MIN_CELL:
            proven = False
            labels |= {b.label for b in local}
            continue
        stack.extend(_halves(cell))
    return LineSearch(None, frozenset(labels), proven, cells)


# Fully visible: every facing point of the target seen down to its foot


@dataclass(frozen=True)
class FacingPiece:
    """A piece of a target outline's boundary: an arc (``u`` = eccentric angle) or an edge."""

    outline: Outline
    edge: tuple[XY, XY] | None
    u0: float
    u1: float

    def point(self, u: float) -> XY:
        if self.edge is not None:
            (x0, y0), (x1, y1) = self.edge
            return x0 + u * (x1 - x0), y0 + u * (y1 - y0)
        o = self.outline
        x, y = _rotate(np.array([o.a * math.cos(u)]), np.array([o.b * math.sin(u)]), o.angle)
        return o.cx + float(x[0]), o.cy + float(y[0])

    @property
    def middle(self) -> XY:
        return self.point(0.5 * (self.u0 + self.u1))

    @property
    def length(self) -> float:
        (x0, y0), (x1, y1) = self.point(self.u0), self.point(self.u1)
        if self.edge is not None:
            return math.hypot(x1 - x0, y1 - y0)
        return max(self.outline.a, self.outline.b) * (self.u1 - self.u0)

    def hull_points(self) -> FloatArray:
        """A convex polygon's vertices containing this piece (chord plus tangent apex)."""
        if self.edge is not None:
            return np.array([self.point(self.u0), self.point(self.u1)])
        o = self.outline
        half = 0.5 * (self.u1 - self.u0)
        mid = 0.5 * (self.u0 + self.u1)
        reach = 1.0 / math.cos(half)
        u = np.array([math.cos(self.u0), reach * math.cos(mid), math.cos(self.u1)])
        v = np.array([math.sin(self.u0), reach * math.sin(mid), math.sin(self.u1)])
        x, y = _rotate(o.a * u, o.b * v, o.angle)
        return np.column_stack([x + o.cx, y + o.cy])

    def halves(self) -> tuple[FacingPiece, FacingPiece]:
        mid = 0.5 * (self.u0 + self.u1)
        return (
            FacingPiece(self.outline, self.edge, self.u0, mid),
            FacingPiece(self.outline, self.edge, mid, self.u1),
        )


@functools.lru_cache(maxsize=8192)
def facing_pieces(target: Outline, observer: Outline) -> list[FacingPiece]:
    """The parts of ``target``'s boundary that face ``observer``.

    A boundary point faces the observer when some point of the observer's base sees it in plan
    with only the target's own base in the way, i.e. when the observer reaches at least as far
    as the target along that point's outward normal: ``h_O(n) >= n . p``.
    """
    if target.kind == "rect":
        return _facing_edges(target, observer)
    samples = 720
    u = np.linspace(0.0, 2.0 * math.pi, samples, endpoint=False)
    gap = _facing_gap(target, observer, u)
    facing = gap >= -1e-12
    if facing.all():
        return _split_arc(target, 0.0, 2.0 * math.pi)
    if not facing.any():
        return []
    # Walk the samples from a non-facing one, so that no run of facing samples wraps around.
    first_off = int(np.flatnonzero(~facing)[0])
    step = 2.0 * math.pi / samples
    ordered = facing[(np.arange(samples) + first_off) % samples]
    pieces: list[FacingPiece] = []
    k = 0
    while k < samples:
        if not ordered[k]:
            k += 1
            continue
        start = k
        while k < samples and ordered[k]:
            k += 1
        last = k - 1
        lo = _refine_edge(
            target, observer, (first_off + start - 1) * step, (first_off + start) * step
        )
        hi = _refine_edge(
            target, observer, (first_off + last + 1) * step, (first_off + last) * step
        )
        pieces.extend(_split_arc(target, lo, hi))
    return pieces


def _facing_gap(target: Outline, observer: Outline, u: FloatArray) -> FloatArray:
    """``h_O(n(u)) - n(u).p(u)`` for the target's boundary points ``p(u)``."""
    nx, ny = _rotate(target.b * np.cos(u), target.a * np.sin(u), target.angle)
    norm = np.hypot(nx, ny)
    nx, ny = nx / norm, ny / norm
    px, py = _rotate(target.a * np.cos(u), target.b * np.sin(u), target.angle)
    px, py = px + target.cx, py + target.cy
    return np.asarray(observer.support(nx, ny) - (nx * px + ny * py), dtype=float)


def _refine_edge(target: Outline, observer: Outline, outside: float, inside: float) -> float:
    """Bisect between a non-facing and a facing parameter; returns a facing side value."""
    # Bracket the change of sign with one vectorised pass, then bisect the last step.
    for _ in range(3):
        u = np.linspace(outside, inside, 33)
        facing = _facing_gap(target, observer, u) >= -1e-12
        first = int(np.argmax(facing))
        outside, inside = float(u[first - 1]), float(u[first])
    return inside


def _split_arc(target: Outline, u0: float, u1: float) -> list[FacingPiece]:
    count = max(1, math.ceil((u1 - u0) / (math.pi / 4)))
    edges = np.linspace(u0, u1, count + 1)
    return [
        FacingPiece(target, None, float(a), float(b))
        for a, b in zip(edges[:-1], edges[1:], strict=True)
    ]


def _facing_edges(target: Outline, observer: Outline) -> list[FacingPiece]:
    corners_u = np.array([-target.a, target.a, target.a, -target.a])
    corners_v = np.array([-target.b, -target.b, target.b, target.b])
    x, y = _rotate(corners_u, corners_v, target.angle)
    corners = [(target.cx + float(x[i]), target.cy + float(y[i])) for i in range(4)]
    pieces = []
    for i in range(4):
        (x0, y0), (x1, y1) = corners[i], corners[(i + 1) % 4]
        length = math.hypot(x1 - x0, y1 - y0)
        nx, ny = (y1 - y0) / length, -(x1 - x0) / length
        reach = float(observer.support(np.array([nx]), np.array([ny]))[0])
        if reach >= nx * x0 + ny * y0 - 1e-12:
            pieces.append(FacingPiece(target, ((x0, y0), (x1, y1)), 0.0, 1.0))
    return pieces


@dataclass(frozen=True)
class FullSearch:
    """The outcome of :func:`check_fully_visible`.

    ``hidden`` is a facing point that no sight line reaches (``None`` when fully visible);
    ``proven`` says whether that was proven or rests on the clearance limit; ``fans`` is the
    certificate of a "fully visible": observer points and the boundary pieces each one sees
    whole (the hull of the point and the piece is clear).
    """

    fully_visible: bool
    hidden: XY | None = None
    blockers: frozenset[str] = frozenset()
    proven: bool = True
    fans: tuple[tuple[XY, FacingPiece], ...] = ()
    gave_up: bool = False


def _fan_is_clear(
    source: XY,
    piece: FacingPiece,
    h_observer: float,
    z_target: float,
    blockers: Sequence[Blocker],
) -> bool:
    """Whether every line from ``source`` (at ``h_observer``) to every point of the piece (at
    ``z_target``) is unblocked: the part of the fan low enough for each blocker is the hull of
    the piece's bounding polygon scaled about the source between the two ends of the low
    interval, and it must miss the blocker."""
    hull_pts = piece.hull_points()
    s = np.asarray(source, dtype=float)
    coords = []
    indices = []
    targets: list[ShapelyPolygon] = []
    for blocker in blockers:
        interval = low_interval(h_observer, z_target, blocker.top)
        if interval is None:
            continue
        t0, t1 = interval
        coords.append(s + t0 * (hull_pts - s))
        coords.append(s + t1 * (hull_pts - s))
        indices.extend([len(targets)] * (2 * len(hull_pts)))
        targets.append(blocker.outer)
    if not targets:
        return True
    fans = shapely.convex_hull(shapely.multipoints(np.vstack(coords), indices=np.array(indices)))
    return not bool(np.any(shapely.intersects(fans, np.array(targets, dtype=object))))


def check_fully_visible(
    observer: Outline,
    h_observer: float,
    target: Outline,
    z_target: float,
    blockers: Sequence[Blocker],
    screens: Sequence[Blocker] = (),
) -> FullSearch:
    """Whether every facing point of ``target`` is seen at its foot ``z_target`` from some
    point of ``observer`` at ``h_observer``, by a line that meets no blocker and no screen
    (an obscuring area: a blocker with an infinite top).

    Facing boundary pieces are checked one by one: from the piece's middle point, the observer
    positions that see it are computed exactly; the best of them is tried as the apex of a fan
    covering the whole piece. A clear fan settles the piece; a middle point no observer position
    sees proves "not fully visible"; otherwise the piece is split, down to :data:`MIN_CELL`.
    """
    hull = _hull(observer.outer, target.outer)
    relevant = relevant_blockers(blockers, hull, h_observer, z_target)
    relevant += [s for s in screens if s.outer.intersects(hull)]
    if not relevant:
        return FullSearch(True)
    fans: list[tuple[XY, FacingPiece]] = []
    # Breadth first: every part of the facing side is looked at before any is refined, so a
    # hidden point anywhere is found early.
    queue = deque(list(facing_pieces(target, observer)))
    steps = 0
    while queue:
        piece = queue.popleft()
        steps += 1
        point = piece.middle
        seen, _ = _seen_area(point, z_target, h_observer, observer.inner, relevant, False)
        area = _largest_part(seen)
        if area is not None:
            source = polylabel(area, tolerance=1e-3)
            xy = (float(source.x), float(source.y))
            if _fan_is_clear(xy, piece, h_observer, z_target, relevant):
                fans.append((xy, piece))
                continue
        else:
            maybe, in_the_way = _seen_area(
                point, z_target, h_observer, observer.outer, relevant, True
            )
            if _largest_part(maybe) is None:
                return FullSearch(False, point, frozenset(in_the_way), True)
        if piece.length < MIN_CELL or steps > MAX_CELL_PAIRS:
            labels = {b.label for b in relevant}
            return FullSearch(
                False, point, frozenset(labels), False, gave_up=steps > MAX_CELL_PAIRS
            )
        queue.extend(piece.halves())
    return FullSearch(True, fans=tuple(fans))
