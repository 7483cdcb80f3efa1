"""Private geometry behind :mod:`engine.visibility`: base outlines, blockers, fully visible.

Everything here works in plan (``x, y`` inches) with heights carried alongside. A sight line
is a straight 3-D segment from ``(start, h_start)`` to ``(end, h_end)``; a blocker is a vertical
prism ``footprint x (-inf, top]``. The 1 mm line width is handled by growing every blocker by
half a millimetre (:data:`HALF_LINE_WIDTH`), so sight lines themselves are infinitely thin.

Searches grow blockers by :data:`SEARCH_GROW` (half a line and the 1e-6" tolerance) and let a
line graze them; witnesses are then re-checked against blockers grown by half a line with
touching counted as blocked (:func:`segment_is_free`). So a reported sight line has real
clearance, and "no sight line" means none with more than 1e-6" to spare.

Round bases are exact discs. Rectangular bases are exact polygons. Oval bases are polygons of
:data:`CURVE_SIDES` sides: inscribed where the oval is an end of a sight line (a witness ends
on the true base), circumscribed where it blocks (a witness misses the true base); so an
answer about an oval can only err by the polygons' gap, under ``0.0012`` times the semi-axis
(0.002" on the largest 170 mm oval), and always towards "not visible".

>>> from engine.model import CircleBase
>>> a = base_outline(CircleBase(32), 0.0, 0.0, 0.0)
>>> b = base_outline(CircleBase(32), 10.0, 0.0, 0.0)
>>> wall = polygon_blocker("wall", ((4.0, -3.0), (5.0, -3.0), (5.0, 3.0), (4.0, 3.0)), top=5.0)
>>> find_sight_line(a, 1.5, b, 1.5, [wall]).segment is None
True
>>> (sx, sy), (ex, ey) = find_sight_line(a, 1.5, b, 1.5, []).segment
>>> round(sx, 4), round(sy, 4), round(ex, 4), round(ey, 4)
(0.6299, 0.0, 9.3701, 0.0)
"""

from __future__ import annotations

import functools
import math
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, TypeAlias

import numpy as np
import shapely
from numpy.typing import NDArray
from shapely.geometry import Polygon as ShapelyPolygon

from engine.critical_lines import (
    Blocker,
    Convex,
    Search,
    low_interval,
    search,
    segments_blocked,
    shapes_touch,
)
from engine.errors import GeometryError
from engine.model import MM_PER_INCH, Base, CircleBase, OvalBase, RectBase

FloatArray: TypeAlias = NDArray[np.float64]
XY: TypeAlias = tuple[float, float]

HALF_LINE_WIDTH = 0.5 / MM_PER_INCH
"""Half of the 1 mm sight-line width, in inches: every blocker is grown by this much."""

TOLERANCE = 1e-6
"""Inches: a sight line passing within this of touching a grown blocker counts as touching."""

SEARCH_GROW = HALF_LINE_WIDTH + TOLERANCE
"""How much the searches grow blockers (they let lines graze them)."""

MIN_PIECE = 0.03
"""Fully visible: a facing piece of the target's rim shorter than this that no single observer
point sees whole is given up as hidden (the one conservative step; see
:func:`check_fully_visible`)."""

MAX_PIECES = 96
"""Fully visible: at most this many facing pieces are examined per model pair."""

CURVE_SIDES = 64
"""Sides of the inscribed and circumscribed polygons of oval outlines."""

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


def end_shape(outline: Outline) -> Convex:
    """The outline as the end of a sight line: exact for discs and rectangles, the inscribed
    polygon for ovals (every point of it is on the base)."""
    if outline.kind == "circle":
        return Convex.disc(outline.cx, outline.cy, outline.a)
    return Convex.polygon(np.asarray(outline.inner.exterior.coords, dtype=float)[:-1])


# ---------------------------------------------------------------------------------------------
# Blockers


def polygon_blocker(label: str, shape: Sequence[XY], top: float) -> Blocker:
    """A terrain feature (or obscuring area, ``top = inf``) as a blocker."""
    polygon = shapely.Polygon(shape)
    if not polygon.is_valid or polygon.area <= 0:
        raise GeometryError(f"{label}: a blocking shape must be a simple polygon with area")
    return Blocker.polygon(label, np.asarray(polygon.exterior.coords, dtype=float)[:-1], top)


def model_blocker(label: str, outline: Outline, top: float) -> Blocker:
    """A model's base as a blocker up to ``top``: the exact disc or rectangle, the
    circumscribed polygon of an oval (never smaller than the base)."""
    if outline.kind == "circle":
        return Blocker.disc(label, outline.cx, outline.cy, outline.a, top)
    coords = outline.inner if outline.kind == "rect" else outline.outer
    return Blocker.polygon(label, np.asarray(coords.exterior.coords, dtype=float)[:-1], top)


def segment_is_free(
    start: XY, end: XY, h_start: float, h_end: float, blockers: Sequence[Blocker]
) -> bool:
    """The independent check of a witness: its 1-mm line touches no blocker where low enough."""
    blocked = segments_blocked(
        np.array([start]), np.array([end]), h_start, h_end, blockers, HALF_LINE_WIDTH
    )
    return not bool(blocked[0])


def find_sight_line(
    observer: Outline,
    h_observer: float,
    target: Outline,
    h_target: float,
    blockers: Sequence[Blocker],
    cheap: bool = False,
) -> Search:
    """An unblocked sight line from ``observer`` (top ``h_observer``) to ``target`` (top
    ``h_target``), re-checked by :func:`segment_is_free`, or the proof that there is none
    (with ``cheap``, only the centre line and common tangents are tried)."""
    found = search(
        end_shape(observer), h_observer, end_shape(target), h_target, blockers, SEARCH_GROW, cheap
    )
    return _checked(found, h_observer, h_target, blockers)


def _checked(found: Search, h_start: float, h_end: float, blockers: Sequence[Blocker]) -> Search:
    if found.segment is None:
        return found
    start, end = found.segment
    if segment_is_free(start, end, h_start, h_end, blockers):
        return found
    # The search lets lines graze blockers grown a hair more than the check does, so this
    # only happens through rounding; the answer then stays "not visible", marked unproven.
    return Search(None, False, found.blockers, stage="check")


# ---------------------------------------------------------------------------------------------
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

    ``hidden`` is a facing point found not seen (``None`` when fully visible); ``proven`` says
    that no sight line reaches it (false when the search gave up on a piece too small to
    settle: then "not fully visible" may be an under-report). ``fans`` certify a "fully
    visible": observer points and the rim pieces each sees whole (empty when the hull of both
    bases is clear of every blocker).
    """

    fully_visible: bool
    hidden: XY | None = None
    blockers: frozenset[str] = frozenset()
    proven: bool = True
    fans: tuple[tuple[XY, FacingPiece], ...] = ()


_REGION_DIRECTIONS = 48


def _region_polygon(normals: FloatArray, support: FloatArray) -> Convex:
    """The polygon ``n_k . x <= support_k`` for unit normals in angular order: it contains
    every convex set with those support values (vertices where consecutive sides meet)."""
    n0, n1 = normals, np.roll(normals, -1, axis=0)
    h0, h1 = support, np.roll(support, -1)
    det = n0[:, 0] * n1[:, 1] - n0[:, 1] * n1[:, 0]
    x = (h0 * n1[:, 1] - h1 * n0[:, 1]) / det
    y = (n0[:, 0] * h1 - n1[:, 0] * h0) / det
    return Convex.polygon(np.column_stack([x, y]))


def _swept_region(observer: Outline, target: Outline, t0: float, t1: float) -> Convex:
    """A polygon holding every point at a fraction ``t0..t1`` along a segment from the observer's
    base to the target's: its support is the larger of ``(1 - t) h_O + t h_T`` at both ends."""
    angles = np.arange(_REGION_DIRECTIONS) * (2.0 * math.pi / _REGION_DIRECTIONS)
    nx, ny = np.cos(angles), np.sin(angles)
    h_o, h_t = observer.support(nx, ny), target.support(nx, ny)
    support = np.maximum((1 - t0) * h_o + t0 * h_t, (1 - t1) * h_o + t1 * h_t)
    return _region_polygon(np.column_stack([nx, ny]), support)


def _fan_is_clear(
    source: XY,
    piece: FacingPiece,
    h_observer: float,
    z_target: float,
    blockers: Sequence[Blocker],
) -> bool:
    """Whether every line from ``source`` (at ``h_observer``) to every point of the piece (at
    ``z_target``) is unblocked: the low part of the fan for each blocker is the hull of the
    piece's bounding polygon scaled about the source between the ends of the low interval."""
    hull_pts = piece.hull_points()
    s = np.asarray(source, dtype=float)
    # Blockers of one height share their low part of the fan.
    fans: dict[tuple[float, float], Convex] = {}
    for blocker in blockers:
        interval = low_interval(h_observer, z_target, blocker.top)
        if interval is None:
            continue
        shape = fans.get(interval)
        if shape is None:
            t0, t1 = interval
            region = np.vstack([s + t0 * (hull_pts - s), s + t1 * (hull_pts - s)])
            hull = shapely.convex_hull(shapely.multipoints(region))
            if not isinstance(hull, ShapelyPolygon) or hull.area <= 0:
                return False
            shape = fans[interval] = Convex.polygon(
                np.asarray(hull.exterior.coords, dtype=float)[:-1]
            )
        if shapes_touch(blocker, shape, SEARCH_GROW):
            return False
    return True


def check_fully_visible(
    observer: Outline,
    h_observer: float,
    target: Outline,
    z_target: float,
    blockers: Sequence[Blocker],
) -> FullSearch:
    """Whether every facing point of ``target`` is seen at its foot ``z_target`` from some
    point of ``observer`` at ``h_observer``, by a line that meets no blocker (obscuring areas
    are blockers with an infinite top).

    First the hull of both bases (swept by each blocker's low part): clear of every blocker,
    every line is free. Otherwise facing rim pieces are settled one by one: the exact search
    looks for a sight line from the observer's base to the piece's middle point; none proves
    "not fully visible"; one gives an observer point, and a clear fan from it (or from the
    observer's centre) to the whole piece settles the piece; else the piece is split. A piece
    shorter than :data:`MIN_PIECE` (or past :data:`MAX_PIECES`) that is still unsettled is
    reported hidden *without proof*: the test errs only towards "not fully visible", i.e. it
    may over-report cover, never under-report it.
    """
    relevant = [(b, iv) for b in blockers if (iv := low_interval(h_observer, z_target, b.top))]
    # Blockers of one height share their low part, hence their swept region.
    regions: dict[tuple[float, float], Convex] = {}
    touching = []
    for b, interval in relevant:
        region = regions.get(interval)
        if region is None:
            region = regions[interval] = _swept_region(observer, target, *interval)
        if shapes_touch(b, region, SEARCH_GROW):
            touching.append(b)
    if not touching:
        return FullSearch(True)
    start = end_shape(observer)
    labels = frozenset(b.label for b in touching)
    fans: list[tuple[XY, FacingPiece]] = []
    queue = deque(facing_pieces(target, observer))
    steps = 0
    while queue:
        piece = queue.popleft()
        steps += 1
        if _fan_is_clear(observer.centre, piece, h_observer, z_target, touching):
            fans.append((observer.centre, piece))
            continue
        point = piece.middle
        found = search(
            start, h_observer, Convex.disc(point[0], point[1], 0.0), z_target, touching, SEARCH_GROW
        )
        if found.segment is None:
            return FullSearch(False, point, found.blockers, found.proven)
        seen_from = found.segment[0]
        sources = (
            seen_from,
            observer.centre,
            (0.5 * (seen_from[0] + observer.cx), 0.5 * (seen_from[1] + observer.cy)),
        )
        clear = next(
            (s for s in sources if _fan_is_clear(s, piece, h_observer, z_target, touching)), None
        )
        if clear is not None:
            fans.append((clear, piece))
            continue
        if piece.length < MIN_PIECE or steps >= MAX_PIECES:
            return FullSearch(False, point, labels, False)
        queue.extend(piece.halves())
    return FullSearch(True, fans=tuple(fans))
