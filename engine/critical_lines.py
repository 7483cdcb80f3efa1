"""Exact sight-line search between two convex footprints by critical lines (numpy, no overlays).

The question: is there a plan segment from a point of the convex shape ``a`` to a point of the
convex shape ``b`` that keeps more than ``grow`` from every blocker (heights aside)? Every shape
is made of *atoms*, discs ``(x, y, r)``: a round base is one disc, a polygon's vertices are discs
of radius ``grow`` (a polygon grown by ``grow`` is the union of its vertex discs and its edge
bands), an end shape's polygon vertices are points (``r = 0``).

Parametrise lines by their normal angle and offset. The lines whose segment between ``a`` and
``b`` is free form a closed set, bounded by curves on which the line is tangent to one atom, or
passes through a point where the boundary of ``a`` or ``b`` meets the boundary of a grown
blocker (or of each other). Each of these curves is a graph ``rho = f(theta)``, so a component of
the free set either meets a fixed direction (we try every line of one fixed direction tangent to
an atom) or has a leftmost point lying on two curves at once: a common tangent of two atoms. So
``a`` sees ``b`` iff one of these finitely many *critical lines* carries a free segment. Each
critical line is tested exactly (segment-to-segment distances, point in polygon), grazing the
grown blockers counting as free; the caller grows blockers by a hair more than it checks, so a
grazing critical line is a witness with real clearance.

Heights enter per blocker as the part ``[lo, hi]`` of the segment low enough to be blocked (see
:func:`engine.sightlines.low_interval`). The argument above is exact when every such part is the
whole segment (a blocker at least as tall as both ends, or an obscuring area); the callers
bracket the other ("mixed") blockers, see :func:`search`.

>>> a, b = Convex.disc(0.0, 0.0, 0.5), Convex.disc(10.0, 0.0, 0.5)
>>> wall = Blocker.polygon("wall", ((4.0, -3.0), (5.0, -3.0), (5.0, 3.0), (4.0, 3.0)), 5.0)
>>> search(a, 1.5, b, 1.5, [wall], 0.02).segment is None, search(a, 1.5, b, 1.5, [], 0.02).proven
(True, True)
>>> gap = [Blocker.polygon("w", ((4, y0), (5, y0), (5, y1), (4, y1)), 5.0)
...        for y0, y1 in ((-3.0, -0.1), (0.1, 3.0))]
>>> found = search(a, 1.5, b, 1.5, gap, 0.02).segment
>>> found is not None and abs(found[0][1]) < 0.1
True
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TypeAlias

import numpy as np
from numpy.typing import NDArray

FloatArray: TypeAlias = NDArray[np.float64]
BoolArray: TypeAlias = NDArray[np.bool_]
XY: TypeAlias = tuple[float, float]

GRAZE = 1e-9
"""Inches: numerical slack. A critical line that penetrates a grown blocker by less than this
is grazing it (free), and a line that misses an end shape by less than this still meets it."""

_CHUNK = 256
"""Critical lines tested per vectorised batch (the search stops at the first free one)."""

HEIGHT_TOLERANCE = 1e-6
"""Heights closer than this (inches) are equal: a line level with a blocker's top is blocked."""


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


# ---------------------------------------------------------------------------------------------
# Shapes


def _ccw(vertices: FloatArray) -> FloatArray:
    x, y = vertices[:, 0], vertices[:, 1]
    area2 = float(np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y))
    return vertices if area2 >= 0 else vertices[::-1].copy()


@dataclass(frozen=True, eq=False)
class Convex:
    """A convex end shape: a disc (``vertices`` empty; ``radius`` may be 0, a point) or a convex
    polygon (``vertices`` counter-clockwise)."""

    cx: float
    cy: float
    radius: float
    vertices: FloatArray = field(repr=False)

    @staticmethod
    def disc(cx: float, cy: float, radius: float) -> Convex:
        return Convex(cx, cy, radius, np.zeros((0, 2)))

    @staticmethod
    def polygon(vertices: FloatArray) -> Convex:
        pts = _ccw(np.asarray(vertices, dtype=float))
        cx, cy = pts.mean(axis=0)
        return Convex(float(cx), float(cy), 0.0, pts)

    @property
    def is_disc(self) -> bool:
        return len(self.vertices) == 0

    @property
    def centre(self) -> XY:
        return self.cx, self.cy

    def atoms(self) -> FloatArray:
        if self.is_disc:
            return np.array([[self.cx, self.cy, self.radius]])
        return np.column_stack([self.vertices, np.zeros(len(self.vertices))])

    def edges(self) -> tuple[FloatArray, FloatArray, FloatArray]:
        """Boundary as capsules ``(e0, e1, radius)``: one degenerate capsule for a disc."""
        if self.is_disc:
            c = np.array([[self.cx, self.cy]])
            return c, c, np.array([self.radius])
        return self.vertices, np.roll(self.vertices, -1, axis=0), np.zeros(len(self.vertices))

    def bounds(self) -> tuple[float, float, float, float]:
        return self._bounds

    @functools.cached_property
    def _bounds(self) -> tuple[float, float, float, float]:
        if self.is_disc:
            r = self.radius
            return self.cx - r, self.cy - r, self.cx + r, self.cy + r
        lo, hi = self.vertices.min(axis=0), self.vertices.max(axis=0)
        return float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1])

    def chord(self, p: FloatArray, d: FloatArray) -> tuple[FloatArray, FloatArray, BoolArray]:
        """Where each line ``p + t d`` (``d`` unit) meets the shape: ``t0 <= t1`` and a mask."""
        wx, wy = p[:, 0] - self.cx, p[:, 1] - self.cy
        along = wx * d[:, 0] + wy * d[:, 1]
        perp = np.abs(wx * d[:, 1] - wy * d[:, 0])
        if self.is_disc:
            ok = perp <= self.radius + GRAZE
            half = np.sqrt(np.maximum(self.radius**2 - perp**2, 0.0))
            return -along - half, -along + half, ok
        t0 = np.zeros(len(p))
        t1 = np.zeros(len(p))
        # Only lines passing within the polygon's bounding circle can meet it.
        near = np.flatnonzero(perp <= self.reach + GRAZE)
        ok = np.zeros(len(p), dtype=bool)
        if len(near) == 0:
            return t0, t1, ok
        nx, ny, offset = self._sides
        pn, dn = p[near], d[near]
        denom = dn[:, :1] * nx + dn[:, 1:] * ny
        num = offset - (pn[:, :1] * nx + pn[:, 1:] * ny)
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = num / denom
        upper = np.where(denom > 0, ratio, np.inf).min(axis=1)
        lower = np.where(denom < 0, ratio, -np.inf).max(axis=1)
        parallel_out = ((denom == 0) & (num < 0)).any(axis=1)
        ok[near] = (lower <= upper) & ~parallel_out
        t0[near] = np.where(np.isfinite(lower), lower, 0.0)
        t1[near] = np.where(np.isfinite(upper), upper, 0.0)
        return t0, t1, ok

    @functools.cached_property
    def reach(self) -> float:
        """The largest distance from the centre to a point of the shape."""
        if self.is_disc:
            return self.radius
        offsets = self.vertices - np.array([self.cx, self.cy])
        return float(np.hypot(offsets[:, 0], offsets[:, 1]).max())

    @functools.cached_property
    def _sides(self) -> tuple[FloatArray, FloatArray, FloatArray]:
        v0 = self.vertices
        edge = np.roll(v0, -1, axis=0) - v0
        length = np.hypot(edge[:, 0], edge[:, 1])
        nx, ny = edge[:, 1] / length, -edge[:, 0] / length
        return nx, ny, nx * v0[:, 0] + ny * v0[:, 1] + GRAZE


@dataclass(frozen=True, eq=False)
class Blocker:
    """A vertical prism blocking sight lines at or below ``top``: a disc or a simple polygon
    (its *core*; the line width is added by the searches). ``label`` names it in explanations."""

    label: str
    top: float
    cx: float
    cy: float
    radius: float
    vertices: FloatArray = field(repr=False)
    convex: bool = True

    @staticmethod
    def disc(label: str, cx: float, cy: float, radius: float, top: float) -> Blocker:
        return Blocker(label, top, cx, cy, radius, np.zeros((0, 2)))

    @staticmethod
    def polygon(label: str, shape: Sequence[XY] | FloatArray, top: float) -> Blocker:
        pts = np.asarray(shape, dtype=float)
        if len(pts) > 1 and np.allclose(pts[0], pts[-1]):
            pts = pts[:-1]
        pts = _ccw(pts)
        cx, cy = pts.mean(axis=0)
        return Blocker(label, top, float(cx), float(cy), 0.0, pts, _is_convex(pts))

    @property
    def is_disc(self) -> bool:
        return len(self.vertices) == 0

    def edges(self) -> tuple[FloatArray, FloatArray, FloatArray]:
        return self._edges

    @functools.cached_property
    def _edges(self) -> tuple[FloatArray, FloatArray, FloatArray]:
        if self.is_disc:
            c = np.array([[self.cx, self.cy]])
            return c, c, np.array([self.radius])
        return self.vertices, np.roll(self.vertices, -1, axis=0), np.zeros(len(self.vertices))

    def atoms(self, grow: float) -> FloatArray:
        if self.is_disc:
            return np.array([[self.cx, self.cy, self.radius + grow]])
        return np.column_stack([self.vertices, np.full(len(self.vertices), grow)])

    def bounds(self) -> tuple[float, float, float, float]:
        return self._bounds

    @functools.cached_property
    def _bounds(self) -> tuple[float, float, float, float]:
        if self.is_disc:
            r = self.radius
            return self.cx - r, self.cy - r, self.cx + r, self.cy + r
        lo, hi = self.vertices.min(axis=0), self.vertices.max(axis=0)
        return float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1])


def _is_convex(pts: FloatArray) -> bool:
    e = np.roll(pts, -1, axis=0) - pts
    turns = e[:, 0] * np.roll(e[:, 1], -1) - e[:, 1] * np.roll(e[:, 0], -1)
    return bool((turns >= -1e-12).all())


# ---------------------------------------------------------------------------------------------
# Distances


def _point_segment(
    xx: FloatArray, xy: FloatArray, s0x: FloatArray, s0y: FloatArray, vx: FloatArray, vy: FloatArray
) -> FloatArray:
    """Distances from points ``(xx, xy)`` to segments from ``(s0x, s0y)`` along ``(vx, vy)``
    (coordinates split so each step is one array operation, broadcast over the arguments)."""
    ll = vx * vx + vy * vy
    proper = ll > 0
    safe = np.where(proper, ll, 1.0)
    t = np.minimum(np.maximum(((xx - s0x) * vx + (xy - s0y) * vy) / safe, 0.0), 1.0)
    t = np.where(proper, t, 0.0)
    return np.asarray(np.hypot(xx - (s0x + t * vx), xy - (s0y + t * vy)), dtype=float)


def _cross(ax: FloatArray, ay: FloatArray, bx: FloatArray, by: FloatArray) -> FloatArray:
    return np.asarray(ax * by - ay * bx, dtype=float)


def segment_distances(p: FloatArray, q: FloatArray, a: FloatArray, b: FloatArray) -> FloatArray:
    """Distances between segments ``p -> q`` and ``a -> b`` (broadcast over leading axes).

    >>> o, x = np.array([0.0, 0.0]), np.array([2.0, 0.0])
    >>> segment_distances(o, x, np.array([1.0, 1.0]), np.array([1.0, 3.0])).tolist()
    1.0
    >>> segment_distances(o, x, np.array([1.0, -1.0]), np.array([1.0, 3.0])).tolist()
    0.0
    """
    px, py, qx, qy = p[..., 0], p[..., 1], q[..., 0], q[..., 1]
    ax, ay, bx, by = a[..., 0], a[..., 1], b[..., 0], b[..., 1]
    d1x, d1y, d2x, d2y = qx - px, qy - py, bx - ax, by - ay
    o1 = d1x * (ay - py) - d1y * (ax - px)
    o2 = d1x * (by - py) - d1y * (bx - px)
    o3 = d2x * (py - ay) - d2y * (px - ax)
    o4 = d2x * (qy - ay) - d2y * (qx - ax)
    crossing = (o1 * o2 < 0) & (o3 * o4 < 0)
    to_second = np.minimum(
        _point_segment(px, py, ax, ay, d2x, d2y), _point_segment(qx, qy, ax, ay, d2x, d2y)
    )
    to_first = np.minimum(
        _point_segment(ax, ay, px, py, d1x, d1y), _point_segment(bx, by, px, py, d1x, d1y)
    )
    nearest = np.minimum(to_second, to_first)
    return np.asarray(np.where(crossing, 0.0, nearest), dtype=float)


def _inside_polygon(points: FloatArray, v0: FloatArray, v1: FloatArray) -> BoolArray:
    """Even-odd test of each point (n, 2) against the polygon with edges ``v0 -> v1``."""
    px, py = points[:, None, 0], points[:, None, 1]
    crosses = (v0[None, :, 1] > py) != (v1[None, :, 1] > py)
    with np.errstate(divide="ignore", invalid="ignore"):
        x_at = v0[None, :, 0] + (py - v0[None, :, 1]) * (v1[None, :, 0] - v0[None, :, 0]) / (
            v1[None, :, 1] - v0[None, :, 1]
        )
    return np.asarray(((crosses & (px < x_at)).sum(axis=1) % 2) == 1)


_BOX_MARGIN = 1e-9
"""Inches: bounding boxes this much further apart than a gap rule out any rounding in the exact
distance test they stand in for."""


def _boxes_apart(
    first: tuple[float, float, float, float], second: tuple[float, float, float, float], gap: float
) -> bool:
    """Whether two bounding boxes are more than ``gap`` apart along an axis: the shapes inside
    them are then further apart than ``gap`` (a cheap exit before the exact distances).

    >>> unit, beside = (0.0, 0.0, 1.0, 1.0), (1.5, 0.0, 2.0, 1.0)
    >>> _boxes_apart(unit, beside, 0.4), _boxes_apart(unit, beside, 0.5)
    (True, False)
    """
    reach = gap + _BOX_MARGIN
    return (
        first[0] - reach > second[2]
        or second[0] - reach > first[2]
        or first[1] - reach > second[3]
        or second[1] - reach > first[3]
    )


def shapes_touch(blocker: Blocker, shape: Convex, grow: float) -> bool:
    """Whether the blocker grown by ``grow`` meets the end shape (touching counts)."""
    if _boxes_apart(blocker.bounds(), shape.bounds(), grow):
        return False
    b0, b1, br = blocker.edges()
    s0, s1, sr = shape.edges()
    gaps = segment_distances(b0[:, None], b1[:, None], s0[None, :], s1[None, :])
    if (gaps <= br[:, None] + sr[None, :] + grow).any():
        return True
    if not shape.is_disc and _inside_polygon(b0[:1], s0, s1)[0]:
        return True
    return not blocker.is_disc and bool(_inside_polygon(s0[:1], b0, b1)[0])


# ---------------------------------------------------------------------------------------------
# Critical lines


def common_tangents(
    atoms: FloatArray, first: FloatArray, second: FloatArray
) -> tuple[FloatArray, FloatArray]:
    """The common tangent lines ``(px, py, dx, dy)`` of atom pairs ``(first[k], second[k])``
    (indices into ``atoms``), two outer and two inner ones where they exist, and for each line
    the index ``k`` of its pair."""
    c1, r1 = atoms[first, :2], atoms[first, 2]
    c2, r2 = atoms[second, :2], atoms[second, 2]
    delta = c1 - c2
    dist = np.hypot(delta[:, 0], delta[:, 1])
    phi = np.arctan2(delta[:, 1], delta[:, 0])
    lines, rows = [], []
    for k in (r2 - r1, -r1 - r2):
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = k / dist
        valid = (dist > 1e-12) & (np.abs(ratio) <= 1.0 + 1e-12)
        spread = np.arccos(np.clip(ratio[valid], -1.0, 1.0))
        for sign in (1.0, -1.0):
            theta = phi[valid] + sign * spread
            nx, ny = np.cos(theta), np.sin(theta)
            rho = nx * c1[valid, 0] + ny * c1[valid, 1] + r1[valid]
            lines.append(np.column_stack([rho * nx, rho * ny, -ny, nx]))
            rows.append(np.flatnonzero(valid))
    if not lines:
        return np.zeros((0, 4)), np.zeros(0, dtype=int)
    return np.vstack(lines), np.concatenate(rows)


def _supports(lines: FloatArray, shape: Convex, vertex: FloatArray) -> BoolArray:
    """Whether each line through the shape's vertex ``vertex[k]`` leaves the whole (convex)
    shape on one side: both neighbouring vertices are on the same side."""
    v = shape.vertices
    count = len(v)
    normal = np.column_stack([-lines[:, 3], lines[:, 2]])
    before = ((v[(vertex - 1) % count] - lines[:, :2]) * normal).sum(axis=1)
    after = ((v[(vertex + 1) % count] - lines[:, :2]) * normal).sum(axis=1)
    return np.asarray(((before <= 1e-9) & (after <= 1e-9)) | ((before >= -1e-9) & (after >= -1e-9)))


def _edge_lines(shape: Convex) -> FloatArray:
    """The lines of a polygon's sides (where its support switches vertices)."""
    if shape.is_disc:
        return np.zeros((0, 4))
    v0 = shape.vertices
    edge = np.roll(v0, -1, axis=0) - v0
    length = np.hypot(edge[:, 0], edge[:, 1])
    return np.column_stack([v0, edge / length[:, None]])


def _tangent_lines(
    a: Convex, b: Convex, free: FloatArray, neighbours: FloatArray | None = None
) -> FloatArray:
    """Common tangents of every pair among the end shapes ``a``, ``b`` (each taken whole) and
    the ``free`` atoms: a line through a polygon end's vertex is kept only if it supports
    that end. ``neighbours`` (``(k, 5)``: the previous and next vertex of a blocker polygon a
    free atom is the vertex disc of, and 1 where that applies) drops lines that cut into the
    grown blocker next to the disc they touch: they are blocked by it."""
    ends = (a, b)
    groups = [a.atoms(), b.atoms(), free]
    offsets = np.cumsum([0] + [len(g) for g in groups])
    atoms = np.vstack(groups)
    group_of = np.repeat(np.arange(3), [len(g) for g in groups])
    i, j = np.triu_indices(len(atoms), k=1)
    keep = (group_of[i] != group_of[j]) | (group_of[i] == 2)
    i, j = i[keep], j[keep]
    lines, rows = common_tangents(atoms, i, j)
    ok = np.ones(len(lines), dtype=bool)
    normal = np.column_stack([-lines[:, 3], lines[:, 2]])
    for side in (i[rows], j[rows]):
        for index, shape in enumerate(ends):
            mine = group_of[side] == index
            if shape.is_disc or not mine.any():
                continue
            local = side[mine] - offsets[index]
            ok[np.flatnonzero(mine)] &= _supports(lines[mine], shape, local)
        if neighbours is None:
            continue
        mine = group_of[side] == 2
        local = side - offsets[2]
        rows_free = np.flatnonzero(mine)
        nb = neighbours[local[mine]]
        has = nb[:, 4] > 0
        if not has.any():
            continue
        rows_free, nb = rows_free[has], nb[has]
        p, n = lines[rows_free, :2], normal[rows_free]
        centre = atoms[side[rows_free], :2]
        radius = atoms[side[rows_free], 2]
        own = ((centre - p) * n).sum(axis=1)
        for first in (0, 2):
            other = ((nb[:, first : first + 2] - p) * n).sum(axis=1)
            clear = (own * other > 0) & (np.abs(other) >= radius - 1e-9)
            ok[rows_free] &= clear
    return np.vstack([lines[ok], _edge_lines(a), _edge_lines(b)])


def _parallel_tangents(atoms: FloatArray, direction: XY) -> FloatArray:
    """Lines of one fixed direction tangent to each atom, on both sides."""
    dx, dy = direction
    nx, ny = -dy, dx
    offsets = atoms[:, 0] * nx + atoms[:, 1] * ny
    rows = []
    for side in (1.0, -1.0):
        rho = offsets + side * atoms[:, 2]
        rows.append(
            np.column_stack([rho * nx, rho * ny, np.full_like(rho, dx), np.full_like(rho, dy)])
        )
    return np.vstack(rows)


def _circle_circle(c1: FloatArray, r1: FloatArray, c2: FloatArray, r2: FloatArray) -> FloatArray:
    """Intersection points of circle pairs (broadcast rows)."""
    delta = c2 - c1
    dist = np.hypot(delta[:, 0], delta[:, 1])
    ok = (dist > 1e-12) & (dist <= r1 + r2) & (dist >= np.abs(r1 - r2))
    if not ok.any():
        return np.zeros((0, 2))
    c1, r1, r2, delta, dist = c1[ok], r1[ok], r2[ok], delta[ok], dist[ok]
    along = (dist**2 + r1**2 - r2**2) / (2 * dist)
    h = np.sqrt(np.maximum(r1**2 - along**2, 0.0))
    u = delta / dist[:, None]
    base = c1 + along[:, None] * u
    perp = np.column_stack([-u[:, 1], u[:, 0]])
    return np.vstack([base + h[:, None] * perp, base - h[:, None] * perp])


def _segment_circle(s0: FloatArray, s1: FloatArray, c: FloatArray, r: FloatArray) -> FloatArray:
    d = s1 - s0
    ll = (d * d).sum(axis=1)
    keep = ll > 0
    s0, d, ll, c, r = s0[keep], d[keep], ll[keep], c[keep], r[keep]
    w = s0 - c
    b = (w * d).sum(axis=1)
    disc = b**2 - ll * ((w * w).sum(axis=1) - r**2)
    ok = disc >= 0
    root = np.sqrt(np.where(ok, disc, 0.0))
    out = []
    for t in ((-b - root) / ll, (-b + root) / ll):
        hit = ok & (t >= 0) & (t <= 1)
        out.append(s0[hit] + t[hit, None] * d[hit])
    return np.vstack(out)


def _segment_segment(p0: FloatArray, p1: FloatArray, q0: FloatArray, q1: FloatArray) -> FloatArray:
    d1, d2 = p1 - p0, q1 - q0
    denom = _cross(d1[:, 0], d1[:, 1], d2[:, 0], d2[:, 1])
    w = q0 - p0
    with np.errstate(divide="ignore", invalid="ignore"):
        t = _cross(w[:, 0], w[:, 1], d2[:, 0], d2[:, 1]) / denom
        u = _cross(w[:, 0], w[:, 1], d1[:, 0], d1[:, 1]) / denom
    hit = (denom != 0) & (t >= 0) & (t <= 1) & (u >= 0) & (u <= 1)
    return np.asarray(p0[hit] + t[hit, None] * d1[hit], dtype=float)


def _boundary_parts(
    e0: FloatArray, e1: FloatArray, radius: FloatArray, polygon: bool
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """A grown shape's boundary pieces: circles ``(centres, radii)`` and segments ``(s0, s1)``."""
    if not polygon:
        return e0, radius, np.zeros((0, 2)), np.zeros((0, 2))
    edge = e1 - e0
    length = np.hypot(edge[:, 0], edge[:, 1])
    safe = np.where(length > 0, length, 1.0)
    normal = np.column_stack([edge[:, 1] / safe, -edge[:, 0] / safe]) * radius[:, None]
    return e0, radius, e0 + normal, e1 + normal


def _all_pairs(n: int, m: int) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
    """Index arrays of every pair ``(i, j)`` with ``i < n``, ``j < m``."""
    return np.repeat(np.arange(n), m), np.tile(np.arange(m), n)


def crossing_points(
    first: tuple[FloatArray, FloatArray, FloatArray, FloatArray],
    second: tuple[FloatArray, FloatArray, FloatArray, FloatArray],
) -> FloatArray:
    """Where the boundaries of two shapes (as :func:`_boundary_parts`) cross."""
    c1, r1, s10, s11 = first
    c2, r2, s20, s21 = second
    found = []
    if len(c1) and len(c2):
        i, j = _all_pairs(len(c1), len(c2))
        found.append(_circle_circle(c1[i], r1[i], c2[j], r2[j]))
    for seg0, seg1, cen, rad in ((s10, s11, c2, r2), (s20, s21, c1, r1)):
        if len(seg0) and len(cen):
            i, j = _all_pairs(len(seg0), len(cen))
            found.append(_segment_circle(seg0[i], seg1[i], cen[j], rad[j]))
    if len(s10) and len(s20):
        i, j = _all_pairs(len(s10), len(s20))
        found.append(_segment_segment(s10[i], s11[i], s20[j], s21[j]))
    return np.vstack(found) if found else np.zeros((0, 2))


# ---------------------------------------------------------------------------------------------
# Testing lines


@dataclass(frozen=True, eq=False)
class _Capsules:
    """Every blocker edge as a capsule, with the blocker's low part of the segment."""

    e0: FloatArray
    e1: FloatArray
    reach: FloatArray
    lo: FloatArray
    hi: FloatArray
    owner: FloatArray
    polygons: tuple[tuple[int, FloatArray, FloatArray, float, float], ...]
    blockers: tuple[Blocker, ...]


@dataclass(frozen=True, eq=False)
class _Corridor:
    """Half-planes ``n . x <= c`` whose intersection holds the hull of both end shapes: every
    segment from one to the other lies inside it."""

    nx: FloatArray
    ny: FloatArray
    c: FloatArray

    def meets(self, points: FloatArray, radius: FloatArray | float) -> BoolArray:
        """Whether discs (``points``, ``radius``) may meet the corridor."""
        beyond = points[:, :1] * self.nx + points[:, 1:] * self.ny - self.c
        return np.asarray((beyond <= np.reshape(radius, (-1, 1)) + GRAZE).all(axis=1))

    def meets_segments(self, e0: FloatArray, e1: FloatArray, reach: FloatArray) -> BoolArray:
        """Whether capsules may meet the corridor (no side has both ends beyond its reach)."""
        b0 = e0[:, :1] * self.nx + e0[:, 1:] * self.ny - self.c
        b1 = e1[:, :1] * self.nx + e1[:, 1:] * self.ny - self.c
        r = reach[:, None] + GRAZE
        return np.asarray(~((b0 > r) & (b1 > r)).any(axis=1))


def _corridor(a: Convex, b: Convex) -> _Corridor:
    points = []
    for shape in (a, b):
        if shape.is_disc:
            k = np.arange(16) * (math.pi / 8)
            r = shape.radius / math.cos(math.pi / 16) + 1e-9
            points.append(np.column_stack([shape.cx + r * np.cos(k), shape.cy + r * np.sin(k)]))
        else:
            points.append(shape.vertices)
    hull = convex_hull(np.vstack(points))
    edge = np.roll(hull, -1, axis=0) - hull
    length = np.hypot(edge[:, 0], edge[:, 1])
    nx, ny = edge[:, 1] / length, -edge[:, 0] / length
    return _Corridor(nx, ny, nx * hull[:, 0] + ny * hull[:, 1])


def convex_hull(points: FloatArray) -> FloatArray:
    """Counter-clockwise hull vertices (monotone chain over the sorted points).

    >>> convex_hull(np.array([[0, 0], [2, 0], [1, 1], [2, 2], [0, 2]], dtype=float)).tolist()
    [[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]]
    """
    order = np.lexsort((points[:, 1], points[:, 0]))
    pts = [(float(x), float(y)) for x, y in points[order]]

    def half(seq: list[tuple[float, float]]) -> list[tuple[float, float]]:
        out: list[tuple[float, float]] = []
        for p in seq:
            while len(out) >= 2:
                (ax, ay), (bx, by) = out[-2], out[-1]
                if (bx - ax) * (p[1] - ay) - (by - ay) * (p[0] - ax) > 0:
                    break
                out.pop()
            out.append(p)
        return out

    return np.asarray(half(pts)[:-1] + half(pts[::-1])[:-1], dtype=float)


def _capsules(
    blockers: Sequence[Blocker],
    parts: Sequence[tuple[float, float]],
    grow: float,
    corridor: _Corridor | None = None,
    inside: XY | None = None,
) -> _Capsules:
    """The blockers' edges as capsules; with a ``corridor``, only those that may meet it, and
    only the polygons whose edges do or that hold the point ``inside`` (a corridor point)."""
    if not blockers:
        empty = np.zeros((0, 2))
        return _Capsules(empty, empty, np.zeros(0), np.zeros(0), np.zeros(0), np.zeros(0), (), ())
    edges = [b.edges() for b in blockers]
    counts = np.array([len(e[0]) for e in edges])
    e0 = np.vstack([e[0] for e in edges])
    e1 = np.vstack([e[1] for e in edges])
    reach = np.concatenate([e[2] for e in edges]) + grow
    owner = np.repeat(np.arange(len(blockers)), counts)
    bounds = np.array(parts, dtype=float)
    lo, hi = bounds[owner, 0], bounds[owner, 1]
    near = np.ones(len(e0), dtype=bool)
    if corridor is not None:
        near = corridor.meets_segments(e0, e1, reach)
    near_owners = set(np.unique(owner[near]).tolist())
    polygons = []
    for index, blocker in enumerate(blockers):
        if blocker.is_disc:
            continue
        v0, v1, _ = edges[index]
        if corridor is not None and index not in near_owners:
            point = np.array([inside if inside is not None else (0.0, 0.0)])
            if inside is None or not _inside_polygon(point, v0, v1)[0]:
                continue
        polygons.append((index, v0, v1, parts[index][0], parts[index][1]))
    return _Capsules(
        e0[near],
        e1[near],
        reach[near],
        lo[near],
        hi[near],
        owner[near].astype(float),
        tuple(polygons),
        tuple(blockers),
    )


def _blocked(p: FloatArray, q: FloatArray, caps: _Capsules, slack: float) -> BoolArray:
    """For each segment ``p[i] -> q[i]``: does its low part come within a capsule's reach (less
    ``slack``, so grazing counts as free when ``slack > 0``), or lie inside a polygon?"""
    n = len(p)
    if len(caps.e0) == 0:
        return np.zeros(n, dtype=bool)
    d = q - p
    limit = caps.reach - slack if slack > 0 else caps.reach + 1e-15
    # A capsule farther from a segment's whole line than its reach cannot touch the segment:
    # that cheap test leaves few (segment, capsule) pairs for the exact distance.
    length = np.hypot(d[:, 0], d[:, 1])
    safe = np.where(length > 0, length, 1.0)
    ux, uy = d[:, 0] / safe, d[:, 1] / safe
    s0 = ux[:, None] * (caps.e0[None, :, 1] - p[:, None, 1]) - uy[:, None] * (
        caps.e0[None, :, 0] - p[:, None, 0]
    )
    s1 = ux[:, None] * (caps.e1[None, :, 1] - p[:, None, 1]) - uy[:, None] * (
        caps.e1[None, :, 0] - p[:, None, 0]
    )
    line_gap = np.where(s0 * s1 <= 0, 0.0, np.minimum(np.abs(s0), np.abs(s1)))
    rows, cols = np.nonzero((line_gap < limit[None, :]) | (length[:, None] == 0))
    hit = np.zeros(n, dtype=bool)
    if len(rows):
        a = p[rows] + caps.lo[cols, None] * d[rows]
        b = p[rows] + caps.hi[cols, None] * d[rows]
        gaps = segment_distances(a, b, caps.e0[cols], caps.e1[cols])
        touching = gaps < limit[cols] if slack > 0 else gaps <= caps.reach[cols]
        hit[rows[touching]] = True
    for _, v0, v1, t0, _ in caps.polygons:
        open_rows = ~hit
        if not open_rows.any():
            break
        start = p[open_rows] + t0 * d[open_rows]
        inside = _inside_polygon(start, v0, v1)
        rows = np.flatnonzero(open_rows)
        hit[rows[inside]] = True
    return hit


def _chords(
    lines: FloatArray, a: Convex, b: Convex
) -> tuple[BoolArray, FloatArray, FloatArray, FloatArray, FloatArray, FloatArray]:
    """Each line's chords of ``a`` and ``b`` in a frame where ``a``'s comes first (``ok`` where
    the line meets both): ``(ok, sign, a0, a1, b0, b1)``."""
    p, d = lines[:, :2], lines[:, 2:]
    a0, a1, oka = a.chord(p, d)
    b0, b1, okb = b.chord(p, d)
    flip = (a0 + a1) > (b0 + b1)
    sign = np.where(flip, -1.0, 1.0)
    a0o, a1o = np.where(flip, -a1, a0), np.where(flip, -a0, a1)
    b0o, b1o = np.where(flip, -b1, b0), np.where(flip, -b0, b1)
    return oka & okb, sign, a0o, a1o, b0o, b1o


def _segments_on(
    lines: FloatArray,
    chords: tuple[BoolArray, FloatArray, FloatArray, FloatArray, FloatArray, FloatArray],
    variant: str,
) -> tuple[FloatArray, FloatArray]:
    """The segment each line carries from ``a`` to ``b``: ``gap`` joins where it leaves ``a`` to
    where it enters ``b``; ``far-b`` runs on to where it leaves ``b``; ``far-a`` starts where it
    enters ``a`` (the best choices for a descending or rising line over a mixed blocker)."""
    _, sign, a0o, a1o, b0o, b1o = chords
    if variant == "gap":
        tp, tq = a1o, b0o
    elif variant == "far-b":
        tp, tq = a1o, b1o
    else:
        tp, tq = a0o, b0o
    overlap = tp > tq
    middle = 0.5 * (np.maximum(a0o, b0o) + np.minimum(a1o, b1o))
    tp = np.where(overlap, middle, tp)
    tq = np.where(overlap, middle, tq)
    p, ds = lines[:, :2], lines[:, 2:] * sign[:, None]
    return p + tp[:, None] * ds, p + tq[:, None] * ds


@dataclass(frozen=True)
class Search:
    """The outcome of :func:`search`: a free ``segment`` (start on ``a``, end on ``b``) or
    ``None``; ``proven`` says a ``None`` is a proof; ``blockers`` label what is in the way."""

    segment: tuple[XY, XY] | None
    proven: bool = True
    blockers: frozenset[str] = frozenset()
    stage: str = ""


def _first_free(
    lines: FloatArray,
    a: Convex,
    b: Convex,
    caps: _Capsules,
    grow_slack: float,
    variants: tuple[str, ...],
) -> tuple[XY, XY] | None:
    chords = _chords(lines, a, b)
    keep = chords[0]
    lines = lines[keep]
    chords = tuple(c[keep] for c in chords)  # type: ignore[assignment]
    for start in range(0, len(lines), _CHUNK):
        chunk = slice(start, start + _CHUNK)
        part = tuple(c[chunk] for c in chords)
        for variant in variants:
            p, q = _segments_on(lines[chunk], part, variant)  # type: ignore[arg-type]
            free = ~_blocked(p, q, caps, grow_slack)
            if free.any():
                k = int(np.argmax(free))
                return (float(p[k, 0]), float(p[k, 1])), (float(q[k, 0]), float(q[k, 1]))
    return None


def _cheap_lines(a: Convex, b: Convex) -> FloatArray:
    """The centre line and the common tangents of the two end shapes."""
    dx, dy = b.cx - a.cx, b.cy - a.cy
    length = math.hypot(dx, dy)
    direction = (dx / length, dy / length) if length > 1e-12 else (1.0, 0.0)
    centre = np.array([[a.cx, a.cy, direction[0], direction[1]]])
    return np.vstack([centre, _tangent_lines(a, b, np.zeros((0, 3)))])


def _critical_lines(
    a: Convex,
    b: Convex,
    blockers: Sequence[Blocker],
    grow: float,
    centres: bool = False,
    corridor: _Corridor | None = None,
) -> FloatArray:
    """Every critical line of the end shapes and blockers (see the module notes); with
    ``centres``, also the lines through either shape's centre tangent to an atom (candidates
    with long chords, for mixed heights). Atoms out of the ``corridor`` are left out: no
    segment between the shapes can touch them."""
    ends = [a, b]
    atoms = [np.zeros((0, 3))]
    if centres:
        atoms.append(np.array([[a.cx, a.cy, 0.0], [b.cx, b.cy, 0.0]]))
    parts = [_boundary_parts(*s.edges(), polygon=not s.is_disc) for s in ends]
    points = [crossing_points(parts[0], parts[1])]
    neighbours = [np.zeros((len(atoms[-1]), 5))]
    for blocker in blockers:
        atoms.append(blocker.atoms(grow))
        e0, e1, radius = blocker.edges()
        grown = _boundary_parts(e0, e1, radius + grow, polygon=not blocker.is_disc)
        bx0, by0, bx1, by1 = blocker.bounds()
        near_an_end = False
        for shape, part in zip(ends, parts, strict=True):
            sx0, sy0, sx1, sy1 = shape.bounds()
            reach = blocker.radius + grow
            if (
                bx0 - reach <= sx1
                and sx0 <= bx1 + reach
                and by0 - reach <= sy1
                and sy0 <= by1 + reach
            ):
                near_an_end = True
                points.append(crossing_points(part, grown))
        rows = np.zeros((len(atoms[-1]), 5))
        if not blocker.is_disc and not near_an_end:
            v = blocker.vertices
            rows = np.column_stack([np.roll(v, 1, axis=0), np.roll(v, -1, axis=0), np.ones(len(v))])
        neighbours.append(rows)
    crossings = np.vstack(points)
    if len(crossings):
        atoms.append(np.column_stack([crossings, np.zeros(len(crossings))]))
        neighbours.append(np.zeros((len(crossings), 5)))
    free = np.vstack(atoms)
    beside = np.vstack(neighbours)
    if corridor is not None:
        near = corridor.meets(free[:, :2], free[:, 2])
        free, beside = free[near], beside[near]
    dx, dy = b.cx - a.cx, b.cy - a.cy
    length = math.hypot(dx, dy)
    direction = (dx / length, dy / length) if length > 1e-12 else (1.0, 0.0)
    ends_parallel = _parallel_tangents(np.vstack([a.atoms(), b.atoms()]), direction)
    return np.vstack(
        [
            _tangent_lines(a, b, free, beside),
            _parallel_tangents(free, direction),
            ends_parallel,
        ]
    )


def _outer_tangent_segments(a: Convex, b: Convex) -> list[tuple[FloatArray, FloatArray]] | None:
    """The two segments of the outer common tangents between their tangent points, or ``None``
    when the shapes are not clearly apart."""
    lines = _tangent_lines(a, b, np.zeros((0, 3)))
    atoms = np.vstack([a.atoms(), b.atoms()])
    normal = np.column_stack([-lines[:, 3], lines[:, 2]])
    side = (atoms[None, :, :2] * normal[:, None, :]).sum(axis=2) - (
        lines[:, None, :2] * normal[:, None, :]
    ).sum(axis=2)
    # Outer: both shapes (discs included, by their radii) on one side of the line.
    below = (side + atoms[None, :, 2] <= 1e-9).all(axis=1)
    above = (side - atoms[None, :, 2] >= -1e-9).all(axis=1)
    outer = np.flatnonzero(below | above)
    if len(outer) < 2:
        return None
    # Keep two distinct lines (the same tangent can come from several vertex pairs).
    first = outer[0]
    others = [
        k
        for k in outer[1:]
        if abs(float(normal[k] @ normal[first])) < 1 - 1e-9
        or abs(float((lines[k, :2] - lines[first, :2]) @ normal[first])) > 1e-9
    ]
    if not others:
        return None
    found: list[tuple[FloatArray, FloatArray]] = []
    for k in (first, others[0]):
        line = lines[k : k + 1]
        chords = _chords(line, a, b)
        if not chords[0][0]:
            return None
        p, q = _segments_on(line, chords, "gap")
        found.append((p[0], q[0]))
    return found


def quick_reject(a: Convex, b: Convex, walls: Sequence[Blocker], grow: float) -> Blocker | None:
    """A convex blocker (as tall as both ends) separating ``a`` from ``b``: it crosses both outer
    common tangents between their tangent points and touches neither shape. Every segment
    from ``a`` to ``b`` then meets it, since inside the hull of the two shapes it walls ``a``'s
    side off from ``b``'s."""
    candidates = [w for w in walls if w.convex]
    if not candidates:
        return None
    tangents = _outer_tangent_segments(a, b)
    if tangents is None:
        return None
    caps = _capsules(candidates, [(0.0, 1.0)] * len(candidates), grow)
    crossing = []
    for p, q in tangents:
        gaps = segment_distances(p[None, :], q[None, :], caps.e0, caps.e1)
        hits = caps.owner[gaps < caps.reach - GRAZE].astype(int)
        crossing.append(set(hits.tolist()))
    for index in sorted(crossing[0] & crossing[1]):
        wall: Blocker = candidates[index]
        if not shapes_touch(wall, a, grow) and not shapes_touch(wall, b, grow):
            return wall
    return None


def search(
    a: Convex,
    h_a: float,
    b: Convex,
    h_b: float,
    blockers: Sequence[Blocker],
    grow: float,
    cheap: bool = False,
) -> Search:
    """Find a segment from ``a`` (at height ``h_a``) to ``b`` (at ``h_b``) whose 1-mm line misses
    every blocker grown by ``grow`` (grazing counts as free), or prove there is none.

    Blockers at least as tall as both ends (and obscuring areas, ``top = inf``) block like
    infinite walls and the critical-line argument is exact for them. A *mixed* blocker (top
    between the two end heights) only blocks the low part of a segment; it is bracketed: a
    segment free with mixed blockers taken as walls is free; no segment free with them left out
    proves "blocked"; in between, every critical line of the combined set is tried with the
    true heights and, on each, with the three end choices that raise the segment most (see
    :func:`_segments_on`), then segments between points spread over both shapes. Only that
    last case can end ``proven = False``.

    With ``cheap``, only the centre line and the common tangents of the two shapes are tried
    (a ``None`` is then no proof).
    """
    walls: list[Blocker] = []
    mixed: list[Blocker] = []
    parts: list[tuple[float, float]] = []
    for blocker in blockers:
        interval = low_interval(h_a, h_b, blocker.top)
        if interval is None:
            continue
        if interval == (0.0, 1.0):
            walls.append(blocker)
        else:
            mixed.append(blocker)
            parts.append(interval)
    corridor = _corridor(a, b)
    inside = a.centre
    labels = frozenset(w.label for w in walls) | frozenset(m.label for m in mixed)
    full = walls + mixed
    as_walls = _capsules(full, [(0.0, 1.0)] * len(full), grow, corridor, inside)
    found = _first_free(_cheap_lines(a, b), a, b, as_walls, GRAZE, ("gap",))
    if found is not None:
        return Search(found, stage="cheap")
    if cheap:
        return Search(None, False, labels, stage="cheap")
    separator = quick_reject(a, b, walls, grow)
    if separator is not None:
        return Search(None, True, frozenset({separator.label}), stage="separated")
    lines = _critical_lines(a, b, full, grow, corridor=corridor)
    found = _first_free(lines, a, b, as_walls, GRAZE, ("gap",))
    if found is not None:
        return Search(found, stage="critical")
    if not mixed:
        return Search(None, True, labels, stage="critical")
    # Pessimistic bracket: mixed blockers left out, except those far enough from the higher
    # end that every segment is already low when it gets there (they block like walls).
    sure = walls + [
        m for m, part in zip(mixed, parts, strict=True) if _always_low(a, b, m, part, grow)
    ]
    only_walls = _capsules(sure, [(0.0, 1.0)] * len(sure), grow, corridor, inside)
    lines = _critical_lines(a, b, sure, grow, corridor=corridor)
    if _first_free(lines, a, b, only_walls, GRAZE, ("gap",)) is None:
        return Search(None, True, frozenset(w.label for w in sure), stage="walls")
    exact = _capsules(full, [(0.0, 1.0)] * len(walls) + parts, grow, corridor, inside)
    lines = np.vstack(
        [_cheap_lines(a, b), _critical_lines(a, b, full, grow, centres=True, corridor=corridor)]
    )
    found = _first_free(lines, a, b, exact, GRAZE, ("gap", "far-b", "far-a"))
    if found is None:
        found = _sampled_segment(a, b, exact)
    if found is not None:
        return Search(found, stage="mixed")
    return Search(None, False, labels, stage="mixed")


def _always_low(
    a: Convex, b: Convex, blocker: Blocker, part: tuple[float, float], grow: float
) -> bool:
    """Whether every segment from ``a`` to ``b`` is low enough to be blocked wherever it meets
    the blocker. A point ``x`` of a segment ``P -> Q`` lies at the fraction
    ``|x - P| / |Q - P|`` of it, at least ``dist(a, x) / L`` where ``L`` bounds every segment's
    length; so when the low part is ``[t0, 1]`` and the blocker is at least ``t0 L`` from
    ``a`` (or the low part is ``[0, t1]`` and it is ``(1 - t1) L`` from ``b``), both plus the
    ``grow`` within which a line meets it, every meeting point is low."""
    t0, t1 = part
    longest = math.hypot(a.cx - b.cx, a.cy - b.cy) + a.reach + b.reach
    e0, e1, radius = blocker.edges()
    for shape, needed in ((a, t0 * longest), (b, (1.0 - t1) * longest)):
        if needed <= 0.0:
            continue
        s0, s1, sr = shape.edges()
        gaps = segment_distances(e0[:, None], e1[:, None], s0[None, :], s1[None, :])
        clear = float((gaps - radius[:, None] - sr[None, :]).min())
        return clear >= needed + grow and not shapes_touch(blocker, shape, 0.0)
    return False


def _spread(shape: Convex, count: int) -> FloatArray:
    """Points over a shape: its centre, and rings at half and full size (vertices of a polygon
    and the midpoints of its sides; ``count`` points round a disc)."""
    if shape.is_disc:
        k = np.arange(count) * (2.0 * math.pi / count)
        ring = np.column_stack([np.cos(k), np.sin(k)]) * shape.radius
        rim = np.array([shape.cx, shape.cy]) + ring
    else:
        v = shape.vertices
        rim = np.vstack([v, 0.5 * (v + np.roll(v, -1, axis=0))])
    centre = np.array([[shape.cx, shape.cy]])
    return np.vstack([centre, rim, 0.5 * (rim + centre)])


def _sampled_segment(a: Convex, b: Convex, caps: _Capsules) -> tuple[XY, XY] | None:
    """The last resort over mixed-height blockers: segments between points spread over both
    shapes (interior ones matter there: a longer segment can pass higher over a blocker)."""
    starts, ends = _spread(a, 32), _spread(b, 32)
    p = np.repeat(starts, len(ends), axis=0)
    q = np.tile(ends, (len(starts), 1))
    for first in range(0, len(p), 4 * _CHUNK):
        chunk = slice(first, first + 4 * _CHUNK)
        free = ~_blocked(p[chunk], q[chunk], caps, GRAZE)
        if free.any():
            k = first + int(np.argmax(free))
            return (float(p[k, 0]), float(p[k, 1])), (float(q[k, 0]), float(q[k, 1]))
    return None


def segments_blocked(
    starts: FloatArray,
    ends: FloatArray,
    h_start: float,
    h_end: float,
    blockers: Sequence[Blocker],
    grow: float,
) -> BoolArray:
    """For each plan segment ``starts[i] -> ends[i]`` (heights ``h_start -> h_end``): does its
    1-mm line touch a blocker grown by ``grow`` where low enough? Touching counts as blocked.

    >>> w = Blocker.polygon("w", ((1, -1), (2, -1), (2, 1), (1, 1)), top=2.0)
    >>> s = np.array([[0.0, 0.0], [0.0, 3.0]]); e = np.array([[3.0, 0.0], [3.0, 3.0]])
    >>> segments_blocked(s, e, 1.0, 1.0, [w], 0.02).tolist()
    [True, False]
    """
    kept, parts = [], []
    for blocker in blockers:
        interval = low_interval(h_start, h_end, blocker.top)
        if interval is not None:
            kept.append(blocker)
            parts.append(interval)
    return _blocked(
        np.asarray(starts, dtype=float),
        np.asarray(ends, dtype=float),
        _capsules(kept, parts, grow),
        0.0,
    )
