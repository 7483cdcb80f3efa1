"""Compiled kernels of the exact line-of-sight search (numba), over the flat arrays of a scene.

:mod:`engine.visibility` states the rules; this module decides the geometry. The question: is
there a plan segment from a point of the convex shape ``a`` to a point of the convex shape ``b``
that keeps more than ``grow`` from every blocker? Every shape is made of *atoms*, discs
``(x, y, r)``: a round base is one disc, a polygon's vertices are discs of radius ``grow`` (a
polygon grown by ``grow`` is the union of its vertex discs and its edge bands), an end shape's
polygon vertices are points. Parametrise lines by their normal angle and offset. The lines whose
segment between ``a`` and ``b`` is free form a closed set, bounded by curves on which the line is
tangent to one atom or passes through a point where the boundary of ``a`` or ``b`` meets the
boundary of a grown blocker (or of each other). Each such curve is a graph ``rho = f(theta)``, so
a component of the free set either meets a fixed direction (every line of one direction tangent
to an atom is tried) or has a leftmost point on two curves at once: a common tangent of two
atoms. A curve of a polygon's vertex disc bounds the free set only where the line touches the
grown polygon's boundary: where the line cuts into the polygon beside the touching point, that
point lies inside it, blocked wherever the segment holds it. So ``a`` sees ``b`` iff one of these
finitely many *critical lines* carries a free segment; each is tested exactly, grazing counting
as free (the callers grow blockers a hair more than the witness check does, so a grazing witness
still has room). Cheaper proofs come first
(the centre line and common tangents for "visible"; one convex wall, or a barrier of walls,
across both outer tangents for "not visible").

Everything runs as compiled loops over plain arrays, one call per unit pair: numpy's per-call
overhead on arrays of a few dozen edges had dominated the cost by three orders of magnitude.
Each function is compiled once and kept in numba's on-disk cache (``python -m engine warm-up``
fills it ahead of the first use).

Shapes. An *end shape* is a disc (``cx, cy, r`` and an empty ``(0, 2)`` vertex array; ``r`` may be
0: a point) or a convex polygon (counter-clockwise vertices; ``cx, cy`` their mean). A blocker is a
vertical prism over a disc or a simple polygon (its core; searches grow it by ``grow``), blocking
a sight line where the line is at or below its ``top``.

Heights. A sight line from height ``h_a`` to ``h_b`` is low over a blocker on the parameter
interval :func:`low_interval` gives; a blocker low over the whole line is a *wall* for it, one
low over part of it is *mixed*.

Results are status codes: :data:`FOUND` (a free segment, returned), :data:`NONE` (proven: no free
segment) and :data:`UNPROVEN` (no free segment found, no proof either: only the cheap stage, or
mixed heights the bracket could not settle).

>>> import numpy as np
>>> wall = scene_arrays(blocker_kind=[0], blocker_top=[5.0], blocker_disc=[(0, 0, 0)],
...                     blocker_vertices=[(4, -3), (5, -3), (5, 3), (4, 3)],
...                     blocker_ranges=[(0, 4)])
>>> point_free = np.zeros((0, 2))
>>> def search(top: float) -> int:
...     status, _, _ = pair_search(0.0, 0.0, 0.5, point_free, top, 10.0, 0.0, 0.5, point_free, top,
...                                wall, np.array([0], dtype=np.int32), 0.02, False, False)
...     return int(status)
>>> search(1.5) == NONE, search(6.0) == FOUND
(True, True)
"""

from __future__ import annotations

import functools
import math
from collections import namedtuple
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple, TypeVar, cast

import numpy as np
import shapely
from numba import njit, types
from numba.extending import intrinsic
from numba.np import arrayobj
from numba.typed import Dict, List

GRAZE = 1e-9
"""Inches: numerical slack. A critical line that penetrates a grown blocker by less than this is
grazing it (free), and a line that misses an end shape by less than this still meets it."""

_SKIP_MARGIN = 1e-7
"""Inches: an edge is skipped by the cheap tests of :func:`_blocks` only when it is farther
than the reach by this much, far beyond any rounding of the exact distance."""

HEIGHT_TOLERANCE = 1e-6
"""Heights closer than this (inches) are equal: a line level with a blocker's top is blocked."""

ANGLE_SLACK = 1e-7
"""Radians: directions closer than this are not told apart when candidate lines are passed
over for running the wrong way (the pass-over errs toward trying a line)."""

_Function = TypeVar("_Function", bound=Callable[..., Any])


def _compiled(function: _Function) -> _Function:
    """Compiled to machine code on first use (kept in numba's on-disk cache), releasing the GIL
    while it runs; typed as the Python function it compiles."""
    return cast(_Function, njit(cache=True, nogil=True)(function))


_LEAF_OPTIONS: dict[str, Any] = {"cache": True, "nogil": True, "_nrt": False}


def _compiled_leaf(function: _Function) -> _Function:
    """As :func:`_compiled`, without numba's reference counting: for hot helpers that read
    arrays and neither make nor keep one. Counting the references of an array argument takes
    two atomic operations a call, which the compiler keeps wherever the array is used beyond
    the function's first block (in a loop, say); for a helper called for every blocker against
    every line tried, they took a third of a matrix's time, and more on two threads (both
    count on the same arrays)."""
    return cast(_Function, njit(**_LEAF_OPTIONS)(function))


def _compiled_inline(function: _Function) -> _Function:
    """As :func:`_compiled`, and inlined into its callers (small helpers of hot loops)."""
    return cast(_Function, njit(cache=True, nogil=True, inline="always")(function))


def _without_owners(typing_context: Any, value: Any) -> Any:
    """The typing and the code of :data:`_borrowed`: every array of ``value`` rebuilt with the
    same data, shape and strides and no owner (a null meminfo, whose reference counting is a
    test and no atomic operation)."""
    arrays: Any = arrayobj

    def borrow(context: Any, builder: Any, kind: Any, given: Any) -> Any:
        if isinstance(kind, types.Array):
            owned = arrays.make_array(kind)(context, builder, value=given)
            free = arrays.make_array(kind)(context, builder)
            arrays.populate_array(
                free,
                data=owned.data,
                shape=owned.shape,
                strides=owned.strides,
                itemsize=owned.itemsize,
                meminfo=None,
            )
            return free._getvalue()
        if isinstance(kind, types.BaseTuple):
            members: Any = kind
            borrowed = [
                borrow(context, builder, member, builder.extract_value(given, k))
                for k, member in enumerate(members)
            ]
            return context.make_tuple(builder, kind, borrowed)
        return given

    def generate(context: Any, builder: Any, signature: Any, arguments: Any) -> Any:
        return borrow(context, builder, value, arguments[0])

    return value(value), generate


_borrowed = cast(Callable[..., Any], intrinsic(_without_owners))
"""In compiled code, ``_borrowed(value)`` is ``value`` (an array, or a tuple of arrays and
numbers such as :class:`SceneArrays`) with its arrays' references no longer counted. A compiled
function counts the references of every array it is handed and of every view it takes (two
atomic operations each, which the compiler keeps wherever the array is used beyond one block):
on a scene's 22 arrays, at each call of a search helper, they took a quarter of the compiled
code's time. A kernel called from Python borrows its scene and its read-only arguments once;
the caller keeps the arrays alive until the kernel returns, so nothing it returns or caches may
be a view of them (none is: its answers are new arrays)."""


FOUND = 1
NONE = 0
UNPROVEN = 2

STAGE_CHEAP = 0
STAGE_SEPARATED = 1
STAGE_CRITICAL = 2
STAGE_WALLS = 3
STAGE_MIXED = 4

_SPREAD_COUNT = 32
"""Points round a disc end in the last-resort sampled stage over mixed-height blockers."""

SceneArrays = namedtuple(
    "SceneArrays",
    [
        "blocker_kind",  # int8 (K,): 0 polygon, 1 disc
        "blocker_top",  # float (K,): inf for obscuring areas
        "blocker_disc",  # float (K, 3): cx, cy, r (polygons: vertex mean, r = 0)
        "blocker_vertices",  # float (V, 2): every polygon's vertices, counter-clockwise
        "blocker_ranges",  # int32 (K, 2): a polygon's rows of blocker_vertices
        "blocker_boxes",  # float (K, 4): x0, y0, x1, y1 of the core
        "blocker_convex",  # bool (K,)
        "blocker_class",  # int8 (K,): FEATURE, SCREEN (obscuring area) or MODEL
        "blocker_piece",  # int32 (K,): the terrain piece of a feature or screen, else -1
        "blocker_unit",  # int32 (K,): the unit of a model blocker, else -1
        "model_disc",  # float (M, 3): a round end's cx, cy, r; a polygon end's vertex mean, 0
        "model_vertices",  # float (W, 2): polygon ends' vertices, counter-clockwise
        "model_ranges",  # int32 (M, 2): a polygon end's rows of model_vertices (empty: a disc)
        "model_top",  # float (M,): z + height
        "model_foot",  # float (M,): z
        "model_unit",  # int32 (M,)
        "within",  # bool (M, P): the model's base is within terrain piece p
        "obscuring_blocks",  # bool (1,): options.obscuring is "block"
        "model_outline",  # float (M, 6): kind (OUTLINE_*), cx, cy, a, b, angle: the true base
        "part_vertices",  # float (Q, 2): convex parts of polygon blockers, counter-clockwise
        "part_ranges",  # int32 (N, 2): a part's rows of part_vertices
        "blocker_parts",  # int32 (K, 2): a blocker's rows of part_ranges (discs: none)
    ],
)
"""A scene's blockers and models as flat arrays (built by :func:`scene_arrays`)."""

FEATURE = 0
SCREEN = 1
MODEL = 2

OUTLINE_CIRCLE = 0
OUTLINE_OVAL = 1
OUTLINE_RECT = 2


@_compiled
def _derive_blockers(
    kind: np.ndarray, disc: np.ndarray, vertices: np.ndarray, ranges: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Each blocker's box and convexity; a polygon's centre (its vertex mean) into ``disc``."""
    count = len(kind)
    boxes = np.zeros((count, 4))
    convex = np.ones(count, dtype=np.bool_)
    for k in range(count):
        if kind[k] == 1:
            cx, cy, r = disc[k, 0], disc[k, 1], disc[k, 2]
            boxes[k, 0], boxes[k, 1], boxes[k, 2], boxes[k, 3] = cx - r, cy - r, cx + r, cy + r
            continue
        pts = vertices[ranges[k, 0] : ranges[k, 1]]
        n = len(pts)
        boxes[k, 0], boxes[k, 1] = pts[:, 0].min(), pts[:, 1].min()
        boxes[k, 2], boxes[k, 3] = pts[:, 0].max(), pts[:, 1].max()
        disc[k, 0], disc[k, 1], disc[k, 2] = pts[:, 0].mean(), pts[:, 1].mean(), 0.0
        for e in range(n):
            f, g = (e + 1) % n, (e + 2) % n
            ex, ey = pts[f, 0] - pts[e, 0], pts[f, 1] - pts[e, 1]
            gx, gy = pts[g, 0] - pts[f, 0], pts[g, 1] - pts[f, 1]
            if ex * gy - ey * gx < -1e-12:
                convex[k] = False
                break
    return boxes, convex


def _ints(values: Any, columns: int = 0) -> np.ndarray:
    array = np.ascontiguousarray(values, dtype=np.int32)
    return array.reshape(-1, columns) if columns else array.reshape(-1)


def _floats(values: Any, columns: int = 0) -> np.ndarray:
    array = np.ascontiguousarray(values, dtype=np.float64)
    return array.reshape(-1, columns) if columns else array.reshape(-1)


def scene_arrays(
    *,
    blocker_kind: Any,
    blocker_top: Any,
    blocker_disc: Any,
    blocker_vertices: Any,
    blocker_ranges: Any,
    blocker_class: Any = None,
    blocker_piece: Any = None,
    blocker_unit: Any = None,
    model_disc: Any = (),
    model_vertices: Any = (),
    model_ranges: Any = (),
    model_top: Any = (),
    model_foot: Any = (),
    model_unit: Any = (),
    within: Any = None,
    obscuring_blocks: bool = True,
    model_outline: Any = (),
    leading_parts: ConvexParts | None = None,
) -> SceneArrays:
    """The arrays in the dtypes the kernels take, with each blocker's box and convexity (and a
    polygon's ``blocker_disc`` centre: its vertex mean) derived, and every polygon cut into
    convex parts. ``leading_parts`` are the parts of the first ``len(leading_parts.counts)``
    blockers, all polygons, as :func:`convex_parts_of` cuts them (a battlefield's terrain, cut
    once for every scene of it); the other polygons are cut here."""
    kind = np.ascontiguousarray(blocker_kind, dtype=np.int8).reshape(-1)
    count = len(kind)
    disc = _floats(blocker_disc, 3).copy()
    vertices = _floats(blocker_vertices, 2)
    ranges = _ints(blocker_ranges, 2)
    boxes, convex = _derive_blockers(kind, disc, vertices, ranges)
    models = len(_floats(model_top))
    known = leading_parts if leading_parts is not None else _NO_PARTS
    first = len(known.counts)
    # A disc has no parts: its rows of blocker_parts are an empty range where the parts of the
    # polygons before it end (only the polygons are walked: most blockers are round bases).
    polygons = first + np.flatnonzero(kind[first:] == 0)
    rest = _parts_table(
        [vertices[ranges[k, 0] : ranges[k, 1]] for k in polygons.tolist()], convex[polygons]
    )
    parts_before = np.zeros(count + 1, dtype=np.int32)
    parts_before[1 : first + 1] = known.counts
    parts_before[polygons + 1] = rest.counts
    part_vertices = np.concatenate([known.vertices, rest.vertices])
    part_ranges = np.concatenate([known.ranges, rest.ranges + len(known.vertices)])
    ends = np.cumsum(parts_before, dtype=np.int32)
    blocker_parts = np.column_stack([ends[:-1], ends[1:]]).astype(np.int32)
    return SceneArrays(
        kind,
        _floats(blocker_top),
        disc,
        vertices,
        ranges,
        boxes,
        convex,
        np.ascontiguousarray(
            np.zeros(count) if blocker_class is None else blocker_class, dtype=np.int8
        ),
        _ints(np.full(count, -1) if blocker_piece is None else blocker_piece),
        _ints(np.full(count, -1) if blocker_unit is None else blocker_unit),
        _floats(model_disc, 3),
        _floats(model_vertices, 2),
        _ints(model_ranges, 2),
        _floats(model_top),
        _floats(model_foot),
        _ints(model_unit),
        np.ascontiguousarray(
            np.zeros((models, 0), dtype=np.bool_) if within is None else within, dtype=np.bool_
        ).reshape(models, -1 if models else 0),
        np.array([obscuring_blocks], dtype=np.bool_),
        _floats(model_outline, 6),
        _floats(part_vertices, 2),
        _ints(part_ranges, 2),
        blocker_parts,
    )


class ConvexParts(NamedTuple):
    """Polygons cut into convex parts as :class:`SceneArrays` holds them: the parts' corners,
    counter-clockwise (``vertices``), each part's rows of them (``ranges``), and how many
    parts each polygon has (``counts``)."""

    vertices: np.ndarray
    ranges: np.ndarray
    counts: np.ndarray


def _parts_table(polygons: Sequence[np.ndarray], convex: np.ndarray) -> ConvexParts:
    """``polygons`` as their convex parts: one marked ``convex`` is its own single part, any
    other is cut up by :func:`convex_parts`."""
    chunks: list[np.ndarray] = []
    counts = np.zeros(len(polygons), dtype=np.int32)
    for n, polygon in enumerate(polygons):
        parts = (polygon,) if convex[n] else convex_parts(polygon)
        chunks.extend(parts)
        counts[n] = len(parts)
    return ConvexParts(*_stacked(chunks), counts)


def _stacked(polygons: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Polygons as one array of their corners and each one's rows of it."""
    lengths = np.fromiter(map(len, polygons), dtype=np.int64, count=len(polygons))
    stops = np.cumsum(lengths)
    return (
        _floats(np.vstack(polygons) if len(polygons) else np.zeros((0, 2)), 2),
        _ints(np.column_stack([stops - lengths, stops]), 2),
    )


def convex_parts_of(polygons: Sequence[np.ndarray]) -> ConvexParts:
    """Simple polygons (counter-clockwise) cut into convex parts as :func:`scene_arrays` cuts
    its polygon blockers, for its ``leading_parts``: a polygon a scene finds convex is its own
    part, any other is cut by :func:`convex_parts`.

    >>> ell = np.array([[0, 0], [4, 0], [4, 1], [1, 1], [1, 4], [0, 4]], dtype=float)
    >>> square = np.array([[5, 0], [6, 0], [6, 1], [5, 1]], dtype=float)
    >>> parts = convex_parts_of([ell, square])
    >>> parts.counts.tolist(), parts.ranges[-1].tolist()
    ([2, 1], [8, 12])
    """
    _, convex = _derive_blockers(
        np.zeros(len(polygons), dtype=np.int8), np.zeros((len(polygons), 3)), *_stacked(polygons)
    )
    return _parts_table(polygons, convex)


_NO_PARTS = ConvexParts(np.zeros((0, 2)), np.zeros((0, 2), dtype=np.int32), np.zeros(0, np.int32))
"""The leading parts of a scene given none."""


Point = tuple[float, float]


def _turns_left(polygon: list[Point]) -> bool:
    """Whether a polygon's every corner turns left or goes straight (it is convex)."""
    n = len(polygon)
    for k in range(n):
        (ax, ay), (bx, by), (cx, cy) = polygon[k - 1], polygon[k], polygon[(k + 1) % n]
        if (bx - ax) * (cy - by) - (by - ay) * (cx - bx) < 0:
            return False
    return True


def _merged_across(first: list[Point], second: list[Point], a: Point, b: Point) -> list[Point]:
    """Two counter-clockwise polygons joined across their shared edge (``a`` to ``b`` in
    ``first``, ``b`` to ``a`` in ``second``)."""
    k, m = first.index(a), second.index(b)
    from_b = [first[(k + 1 + t) % len(first)] for t in range(len(first))]
    from_a = [second[(m + 1 + t) % len(second)] for t in range(len(second))]
    return from_b + from_a[1:-1]


@functools.lru_cache(maxsize=4096)
def _parts_of(flat: bytes) -> tuple[np.ndarray, ...]:
    outline = np.frombuffer(flat, dtype=np.float64).reshape(-1, 2)
    triangles = shapely.get_parts(shapely.constrained_delaunay_triangles(shapely.Polygon(outline)))
    pieces: dict[int, list[Point]] = {}
    for triangle in triangles:
        if triangle.area <= 0:
            continue
        ring = np.asarray(triangle.exterior.coords, dtype=float)[:-1]
        area2 = float(
            np.sum(ring[:, 0] * np.roll(ring[:, 1], -1) - np.roll(ring[:, 0], -1) * ring[:, 1])
        )
        ccw = ring if area2 >= 0 else ring[::-1]
        pieces[len(pieces)] = [(float(x), float(y)) for x, y in ccw]
    owner: dict[tuple[Point, Point], int] = {}
    for index, piece in pieces.items():
        for k, corner in enumerate(piece):
            owner[corner, piece[(k + 1) % len(piece)]] = index
    diagonals = [(a, b) for a, b in owner if a < b and (b, a) in owner]
    diagonals.sort(key=lambda edge: -math.dist(*edge))
    for a, b in diagonals:
        first, second = owner[a, b], owner[b, a]
        joined = _merged_across(pieces[first], pieces[second], a, b)
        if not _turns_left(joined):
            continue
        del pieces[second], owner[a, b], owner[b, a]
        pieces[first] = joined
        for k, corner in enumerate(joined):
            owner[corner, joined[(k + 1) % len(joined)]] = first
    return tuple(np.array(piece) for piece in pieces.values())


def convex_parts(outline: np.ndarray) -> tuple[np.ndarray, ...]:
    """A simple polygon cut into convex pieces whose union is the polygon: the triangles of its
    constrained triangulation, joined across shared edges (longest first) wherever the join
    stays convex (Hertel and Mehlhorn: at most four times the fewest pieces possible). The
    barrier search clips and pairs every piece, so fewer pieces make it cheaper; a traced
    terrain outline of 101 corners is 99 triangles but about 35 pieces.

    >>> ell = np.array([[0, 0], [4, 0], [4, 1], [1, 1], [1, 4], [0, 4]], dtype=float)
    >>> parts = convex_parts(ell)
    >>> len(parts), sum(shapely.Polygon(p).area for p in parts)
    (2, 7.0)
    """
    return _parts_of(np.ascontiguousarray(outline, dtype=np.float64).tobytes())


# ---------------------------------------------------------------------------------------------
# Heights


@_compiled
def low_interval(h_start: float, h_end: float, top: float) -> tuple[bool, float, float]:
    """``(low, t0, t1)``: where the line from ``h_start`` to ``h_end`` is at or below ``top``
    (touching only at the lower end point counts as standing on the blocker)."""
    if math.isinf(top):
        return True, 0.0, 1.0
    rise = h_end - h_start
    if abs(rise) <= HEIGHT_TOLERANCE:
        if top >= max(h_start, h_end) - HEIGHT_TOLERANCE:
            return True, 0.0, 1.0
        return False, 0.0, 0.0
    if top <= min(h_start, h_end) + HEIGHT_TOLERANCE:
        return False, 0.0, 0.0
    if top >= max(h_start, h_end):
        return True, 0.0, 1.0
    crossing = (top - h_start) / rise
    if rise < 0:
        return True, crossing, 1.0
    return True, 0.0, crossing


@_compiled
def low_spans(
    scene: SceneArrays, blockers: np.ndarray, h_start: float, h_end: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(met, lo, hi)``: of ``blockers``, those a sight line from height ``h_start`` to
    ``h_end`` is low enough over to meet, each with the stretch ``[lo, hi]`` of the line that is
    (:func:`low_interval`)."""
    n = len(blockers)
    lo = np.empty(n)
    hi = np.empty(n)
    met = np.empty(n, dtype=np.int32)
    count = 0
    for m in range(n):
        low, t0, t1 = low_interval(h_start, h_end, scene.blocker_top[blockers[m]])
        if low:
            met[count] = blockers[m]
            lo[count] = t0
            hi[count] = t1
            count += 1
    return met[:count], lo[:count], hi[:count]


# ---------------------------------------------------------------------------------------------
# Distances


@_compiled_inline
def _point_segment_squared(x: float, y: float, ax: float, ay: float, vx: float, vy: float) -> float:
    """The squared distance from ``(x, y)`` to the segment ``a -> a + v``."""
    ll = vx * vx + vy * vy
    t = 0.0
    if ll > 0:
        t = min(max(((x - ax) * vx + (y - ay) * vy) / ll, 0.0), 1.0)
    gx, gy = x - (ax + t * vx), y - (ay + t * vy)
    return gx * gx + gy * gy


@_compiled_inline
def _length(x: float, y: float) -> float:
    """The length of the vector ``(x, y)``: the square root of its square. glibc's
    ``math.hypot`` guards against an overflow that inches on a table never reach, and cost
    7-9% of a matrix's time; the root may differ from it in the last bit."""
    return math.sqrt(x * x + y * y)


@_compiled_inline
def _point_segment(x: float, y: float, ax: float, ay: float, vx: float, vy: float) -> float:
    """The distance from ``(x, y)`` to the segment ``a -> a + v``: a square root, not
    ``math.hypot``, whose care against overflow (not needed for inches on a table) made it a
    tenth of a matrix's time."""
    return math.sqrt(_point_segment_squared(x, y, ax, ay, vx, vy))


@_compiled
def segment_distance(
    px: float, py: float, qx: float, qy: float, ax: float, ay: float, bx: float, by: float
) -> float:
    """The distance between segments ``p -> q`` and ``a -> b`` (0 when they cross)."""
    d1x, d1y, d2x, d2y = qx - px, qy - py, bx - ax, by - ay
    o1 = d1x * (ay - py) - d1y * (ax - px)
    o2 = d1x * (by - py) - d1y * (bx - px)
    o3 = d2x * (py - ay) - d2y * (px - ax)
    o4 = d2x * (qy - ay) - d2y * (qx - ax)
    if o1 * o2 < 0 and o3 * o4 < 0:
        return 0.0
    # The nearest of the four end-to-segment distances, compared squared: one root a call.
    nearest = min(
        min(
            _point_segment_squared(px, py, ax, ay, d2x, d2y),
            _point_segment_squared(qx, qy, ax, ay, d2x, d2y),
        ),
        min(
            _point_segment_squared(ax, ay, px, py, d1x, d1y),
            _point_segment_squared(bx, by, px, py, d1x, d1y),
        ),
    )
    return math.sqrt(nearest)


@_compiled_leaf
def inside_polygon(x: float, y: float, vertices: np.ndarray) -> bool:
    """Even-odd test of a point against a polygon's vertices."""
    return _inside_rows(x, y, vertices, 0, len(vertices))


@_compiled_leaf
def _inside_rows(x: float, y: float, rows: np.ndarray, start: int, stop: int) -> bool:
    """:func:`inside_polygon` for the polygon in rows ``start`` to ``stop`` of ``rows``, read in
    place (see :func:`_blocks`)."""
    odd = False
    for e in range(start, stop):
        x0, y0 = rows[e, 0], rows[e, 1]
        f = e + 1 if e + 1 < stop else start
        x1, y1 = rows[f, 0], rows[f, 1]
        if (y0 > y) != (y1 > y):
            x_at = x0 + (y - y0) * (x1 - x0) / (y1 - y0)
            if x < x_at:
                odd = not odd
    return odd


# ---------------------------------------------------------------------------------------------
# Blocked segments


@_compiled_leaf
def _blocks(
    px: float,
    py: float,
    dx: float,
    dy: float,
    kinds: np.ndarray,
    discs: np.ndarray,
    boxes: np.ndarray,
    all_vertices: np.ndarray,
    ranges: np.ndarray,
    k: int,
    lo: float,
    hi: float,
    grow: float,
    slack: float,
) -> bool:
    """Whether blocker ``k`` (rows of the scene's blocker arrays, taken one by one: see
    :func:`_rows`) blocks the low part ``[lo, hi]`` of the segment ``p -> p + d``."""
    ax, ay = px + lo * dx, py + lo * dy
    bx, by = px + hi * dx, py + hi * dy
    reach = discs[k, 2] + grow
    x0, y0, x1, y1 = boxes[k, 0], boxes[k, 1], boxes[k, 2], boxes[k, 3]
    if (
        min(ax, bx) > x1 + reach
        or max(ax, bx) < x0 - reach
        or min(ay, by) > y1 + reach
        or max(ay, by) < y0 - reach
    ):
        return False
    if kinds[k] == 1:
        gap = _point_segment(discs[k, 0], discs[k, 1], ax, ay, bx - ax, by - ay)
        result: bool = (gap < reach - slack) if slack > 0 else (gap <= reach)
        return result
    # The polygon's rows are read in place: a leaf (see :func:`_compiled_leaf`) makes no view,
    # and this runs for every blocker against every line tried.
    start = ranges[k, 0]
    n = ranges[k, 1] - start
    # An edge whose ends both lie on one side of the segment's line, farther from it than the
    # reach (or whose box is farther than the reach from the segment's box), is farther than
    # the reach from the segment: the exact distance is only worked out for the other edges.
    # The margin keeps a rounding difference from ever skipping an edge the distance counts.
    sx, sy = bx - ax, by - ay
    far = (reach + _SKIP_MARGIN) * _length(sx, sy)
    x_lo, x_hi = min(ax, bx) - reach - _SKIP_MARGIN, max(ax, bx) + reach + _SKIP_MARGIN
    y_lo, y_hi = min(ay, by) - reach - _SKIP_MARGIN, max(ay, by) + reach + _SKIP_MARGIN
    for e in range(n):
        f = start + e + 1 if e + 1 < n else start
        ex, ey = all_vertices[start + e, 0], all_vertices[start + e, 1]
        fx, fy = all_vertices[f, 0], all_vertices[f, 1]
        side_e = sx * (ey - ay) - sy * (ex - ax)
        side_f = sx * (fy - ay) - sy * (fx - ax)
        if (side_e > far and side_f > far) or (side_e < -far and side_f < -far):
            continue
        if max(ex, fx) < x_lo or min(ex, fx) > x_hi or max(ey, fy) < y_lo or min(ey, fy) > y_hi:
            continue
        gap = segment_distance(ax, ay, bx, by, ex, ey, fx, fy)
        if (gap < reach - slack) if slack > 0 else (gap <= reach):
            return True
    if ax < x0 or ax > x1 or ay < y0 or ay > y1:
        return False
    return _inside_rows(ax, ay, all_vertices, start, start + n)


@_compiled_leaf
def blocking(
    px: float,
    py: float,
    qx: float,
    qy: float,
    scene: SceneArrays,
    active: np.ndarray,
    lo: np.ndarray,
    hi: np.ndarray,
    count: int,
    grow: float,
    slack: float,
    first: int,
) -> int:
    """The position in ``active`` of a blocker in the way of segment ``p -> q`` (its low part
    ``[lo, hi]`` comes within ``grow`` of the blocker's core, or starts inside a polygon), or
    -1. Position ``first`` is tried first: the blocker that stopped the previous line of a
    search usually stops the next. With ``slack > 0`` a line penetrating by less than ``slack``
    grazes (free); with ``slack = 0`` touching counts as blocked."""
    dx, dy = qx - px, qy - py
    kinds, discs, boxes = scene.blocker_kind, scene.blocker_disc, scene.blocker_boxes
    vertices, ranges = scene.blocker_vertices, scene.blocker_ranges
    if 0 <= first < count:
        k = active[first]
        if _blocks(
            px,
            py,
            dx,
            dy,
            kinds,
            discs,
            boxes,
            vertices,
            ranges,
            k,
            lo[first],
            hi[first],
            grow,
            slack,
        ):
            return first
    for m in range(count):
        k = active[m]
        if m != first and _blocks(
            px, py, dx, dy, kinds, discs, boxes, vertices, ranges, k, lo[m], hi[m], grow, slack
        ):
            return m
    return -1


@_compiled_leaf
def segment_blocked(
    px: float,
    py: float,
    qx: float,
    qy: float,
    scene: SceneArrays,
    active: np.ndarray,
    lo: np.ndarray,
    hi: np.ndarray,
    count: int,
    grow: float,
    slack: float,
) -> bool:
    """Whether some active blocker is in the way of segment ``p -> q`` (see :func:`blocking`)."""
    return blocking(px, py, qx, qy, scene, active, lo, hi, count, grow, slack, -1) >= 0


# ---------------------------------------------------------------------------------------------
# End shapes and lines


@_compiled
def _end_edges(cx: float, cy: float, v: np.ndarray) -> tuple[float, np.ndarray]:
    """What :func:`_chord` needs of an end shape on every line, worked out once for the many
    lines of a search: a polygon's reach from its centre and its edges as rows ``(nx, ny,
    offset)``, the outward unit normal and ``n . x`` of the edge moved out by ``GRAZE``. A disc
    has no edges."""
    n = len(v)
    edges = np.empty((n, 3))
    reach = 0.0
    for k in range(n):
        reach = max(reach, _length(v[k, 0] - cx, v[k, 1] - cy))
    for k in range(n):
        f = (k + 1) % n
        ex, ey = v[f, 0] - v[k, 0], v[f, 1] - v[k, 1]
        length = _length(ex, ey)
        nx, ny = ey / length, -ex / length
        edges[k, 0], edges[k, 1] = nx, ny
        edges[k, 2] = nx * v[k, 0] + ny * v[k, 1] + GRAZE
    return reach, edges


@_compiled_leaf
def _chord(
    px: float,
    py: float,
    dx: float,
    dy: float,
    cx: float,
    cy: float,
    r: float,
    reach: float,
    edges: np.ndarray,
) -> tuple[bool, float, float]:
    """Where the line ``p + t d`` (``d`` a unit vector) meets an end shape (a disc, or a polygon
    given by :func:`_end_edges`): ``(ok, t0, t1)``."""
    wx, wy = px - cx, py - cy
    along = wx * dx + wy * dy
    perp = abs(wx * dy - wy * dx)
    if len(edges) == 0:
        if perp > r + GRAZE:
            return False, 0.0, 0.0
        half = math.sqrt(max(r * r - perp * perp, 0.0))
        return True, -along - half, -along + half
    if perp > reach + GRAZE:
        return False, 0.0, 0.0
    upper, lower = math.inf, -math.inf
    for k in range(len(edges)):
        nx, ny = edges[k, 0], edges[k, 1]
        denom = dx * nx + dy * ny
        num = edges[k, 2] - (px * nx + py * ny)
        if denom > 0:
            upper = min(upper, num / denom)
        elif denom < 0:
            lower = max(lower, num / denom)
        elif num < 0:
            return False, 0.0, 0.0
    if lower > upper:
        return False, 0.0, 0.0
    return True, lower if math.isfinite(lower) else 0.0, upper if math.isfinite(upper) else 0.0


@_compiled
def _line_segments(
    lines: np.ndarray,
    acx: float,
    acy: float,
    ar: float,
    av: np.ndarray,
    bcx: float,
    bcy: float,
    br: float,
    bv: np.ndarray,
) -> tuple[bool, np.ndarray]:
    """The segments ``(x0, y0, x1, y1)`` that :func:`_segment_on` (variant 0) finds on each of
    ``lines`` between end shapes given as ``(cx, cy, r, vertices)`` (the ends' edges worked out
    once for all the lines), or ``False`` when one of the lines misses an end."""
    a_reach, a_edges = _end_edges(acx, acy, av)
    b_reach, b_edges = _end_edges(bcx, bcy, bv)
    a_end, b_end = (acx, acy, ar, a_reach), (bcx, bcy, br, b_reach)
    segments = np.zeros((len(lines), 4))
    for s in range(len(lines)):
        line = (lines[s, 0], lines[s, 1], lines[s, 2], lines[s, 3])
        ok, x0, y0, x1, y1 = _segment_on(*line, a_end, a_edges, b_end, b_edges, 0)
        if not ok:
            return False, segments
        segments[s, 0], segments[s, 1], segments[s, 2], segments[s, 3] = x0, y0, x1, y1
    return True, segments


@_compiled_leaf
def _segment_on(
    px: float,
    py: float,
    dx: float,
    dy: float,
    a_end: tuple[float, float, float, float],
    a_edges: np.ndarray,
    b_end: tuple[float, float, float, float],
    b_edges: np.ndarray,
    variant: int,
) -> tuple[bool, float, float, float, float]:
    """The segment the line ``p + t d`` carries from ``a`` to ``b`` (each ``(cx, cy, r,
    reach)`` with its edges: a disc, or a polygon given by :func:`_end_edges`): variant 0
    joins where it leaves ``a`` to where it enters ``b``; 1 runs on to where it leaves ``b``; 2
    starts where it enters ``a`` (the best choices for a descending or rising line over a
    mixed blocker)."""
    oka, a0, a1 = _chord(px, py, dx, dy, a_end[0], a_end[1], a_end[2], a_end[3], a_edges)
    if not oka:
        return False, 0.0, 0.0, 0.0, 0.0
    okb, b0, b1 = _chord(px, py, dx, dy, b_end[0], b_end[1], b_end[2], b_end[3], b_edges)
    if not okb:
        return False, 0.0, 0.0, 0.0, 0.0
    sign = 1.0
    if (a0 + a1) > (b0 + b1):
        sign = -1.0
        a0, a1, b0, b1 = -a1, -a0, -b1, -b0
    if variant == 0:
        tp, tq = a1, b0
    elif variant == 1:
        tp, tq = a1, b1
    else:
        tp, tq = a0, b0
    if tp > tq:
        middle = 0.5 * (max(a0, b0) + min(a1, b1))
        tp = tq = middle
    sx, sy = dx * sign, dy * sign
    return True, px + tp * sx, py + tp * sy, px + tq * sx, py + tq * sy


@_compiled_leaf
def _tangents_of(
    c1x: float, c1y: float, r1: float, c2x: float, c2y: float, r2: float, out: np.ndarray
) -> int:
    """The common tangents ``(px, py, dx, dy)`` of two discs (two outer, two inner where they
    exist) written to ``out``; returns how many."""
    ddx, ddy = c1x - c2x, c1y - c2y
    dist = _length(ddx, ddy)
    if dist <= 1e-12:
        return 0
    # A tangent's unit normal n meets n . (c1 - c2) = k: it makes an angle whose cosine is
    # k / dist with the direction between the centres, either way round. Its cosine and sine
    # are worked out from those of the direction, without trigonometric functions (which took
    # 2% of a matrix's time here).
    ux, uy = ddx / dist, ddy / dist
    count = 0
    for k in (r2 - r1, -r1 - r2):
        ratio = k / dist
        if abs(ratio) > 1.0 + 1e-12:
            continue
        ratio = min(max(ratio, -1.0), 1.0)
        across = math.sqrt(1.0 - ratio * ratio)
        for sign in (1.0, -1.0):
            nx = ux * ratio - sign * uy * across
            ny = uy * ratio + sign * ux * across
            rho = nx * c1x + ny * c1y + r1
            out[count, 0] = rho * nx
            out[count, 1] = rho * ny
            out[count, 2] = -ny
            out[count, 3] = nx
            count += 1
    return count


@_compiled_inline
def _supports(px: float, py: float, dx: float, dy: float, v: np.ndarray, vertex: int) -> bool:
    """Whether the line ``p + t d`` through a convex polygon's vertex leaves the polygon on one
    side."""
    n = len(v)
    nx, ny = -dy, dx
    before = (v[(vertex - 1) % n, 0] - px) * nx + (v[(vertex - 1) % n, 1] - py) * ny
    after = (v[(vertex + 1) % n, 0] - px) * nx + (v[(vertex + 1) % n, 1] - py) * ny
    result: bool = (before <= 1e-9 and after <= 1e-9) or (before >= -1e-9 and after >= -1e-9)
    return result


@_compiled
def _side_lengths(v: np.ndarray) -> np.ndarray:
    """Per vertex of a polygon, the lengths of its sides to the previous and the next vertex."""
    n = len(v)
    lengths = np.empty((n, 2))
    for k in range(n):
        f = (k + 1) % n
        side = _length(v[f, 0] - v[k, 0], v[f, 1] - v[k, 1])
        lengths[k, 1] = side
        lengths[f, 0] = side
    return lengths


@_compiled_inline
def _turns_onto_a_side(
    x: float,
    y: float,
    toward_x: float,
    toward_y: float,
    reach: float,
    ax: float,
    ay: float,
    side_a: float,
    bx: float,
    by: float,
    side_b: float,
) -> bool:
    """Whether some line through the corner ``(x, y)`` (its sides run to ``a`` and ``b``, of
    lengths ``side_a`` and ``side_b``), turned from the direction towards ``toward`` by at most
    the angle whose sine is ``reach`` over that distance, can leave both sides on one side of
    it: the line towards ``toward`` does, or the turn can bring it onto a side's direction."""
    ux, uy = toward_x - x, toward_y - y
    distance = _length(ux, uy)
    if distance <= reach + 1e-12 or side_a <= 0 or side_b <= 0:
        return True
    ux, uy = ux / distance, uy / distance
    across_a = (ux * (ay - y) - uy * (ax - x)) / side_a
    across_b = (ux * (by - y) - uy * (bx - x)) / side_b
    if across_a * across_b >= 0:
        return True
    turn = reach / distance + 1e-9
    near_a_side: bool = abs(across_a) <= turn or abs(across_b) <= turn
    return near_a_side


@_compiled_inline
def _may_support(
    v: np.ndarray, sides: np.ndarray, vertex: int, atoms: np.ndarray, atom: int
) -> bool:
    """Whether some line through the convex polygon's ``vertex`` and touching the disc
    ``atoms[atom]`` ``(x, y, r)`` can leave the polygon on one side (``sides``:
    :func:`_side_lengths` of the polygon): such a line turns from the direction towards the
    disc's centre by at most the disc's angular radius."""
    n = len(v)
    before, after = (vertex - 1) % n, (vertex + 1) % n
    return _turns_onto_a_side(
        v[vertex, 0],
        v[vertex, 1],
        atoms[atom, 0],
        atoms[atom, 1],
        atoms[atom, 2],
        v[before, 0],
        v[before, 1],
        sides[vertex, 0],
        v[after, 0],
        v[after, 1],
        sides[vertex, 1],
    )


@_compiled_inline
def _may_support_beside(
    atoms: np.ndarray,
    atom: int,
    other: int,
    neighbours: np.ndarray,
    lengths: np.ndarray,
    row: int,
) -> bool:
    """Whether a common tangent of a blocker's vertex disc ``atoms[atom]`` and the disc
    ``atoms[other]`` can leave the blocker on one side (``neighbours[row]``: the vertex's
    neighbours, as :func:`tangent_lines` takes them; ``lengths[row]``: the sides to them): a
    common tangent turns from the direction between the centres by at most the angle whose
    sine is the sum of the radii over their distance."""
    return _turns_onto_a_side(
        atoms[atom, 0],
        atoms[atom, 1],
        atoms[other, 0],
        atoms[other, 1],
        atoms[atom, 2] + atoms[other, 2],
        neighbours[row, 0],
        neighbours[row, 1],
        lengths[row, 0],
        neighbours[row, 2],
        neighbours[row, 3],
        lengths[row, 1],
    )


@_compiled_inline
def _may_support_within(
    x: float,
    y: float,
    ax: float,
    ay: float,
    side_a: float,
    bx: float,
    by: float,
    side_b: float,
    ux: float,
    uy: float,
    spread: tuple[float, float, float],
) -> bool:
    """Whether some line through the corner ``(x, y)`` (its sides run to ``a`` and ``b``, of
    lengths ``side_a`` and ``side_b``) that leaves both sides on one side of it, as
    :func:`tangent_lines` keeps them, can run within ``spread`` (the angle, its sine and its
    cosine) of the direction ``(ux, uy)``. Such a line's normal towards the corner lies within
    a right angle of both sides (the corner's normal cone: centred on the sum of the sides'
    directions, half as wide as the turn between them); a line so running has its normal
    within ``spread`` of the normal of ``(ux, uy)``, either way round. Errs towards "can": a
    corner whose sides run almost straight on, or a spread near a right angle, is not judged.

    With ``a`` the angle between the cone's centre and that normal and ``b`` half the turn,
    the test is ``a + b <= pi / 2 + spread + slack``, compared through cosines (``cos(a + b)
    >= -sin(spread + slack)``; both sides lie within a half turn): the cosines and sines of
    ``a`` and ``b`` come from the sides' directions, with no trigonometric function (an arc
    tangent and an arc cosine for every corner took 3% of a matrix's time)."""
    angle, sin_spread, cos_spread = spread
    if angle >= 0.5 * math.pi - 1e-3 or side_a <= 0 or side_b <= 0:
        return True
    e1x, e1y = (ax - x) / side_a, (ay - y) / side_a
    e2x, e2y = (bx - x) / side_b, (by - y) / side_b
    sx, sy = e1x + e2x, e1y + e2y
    middle = _length(sx, sy)
    if middle <= 1e-6:
        return True
    slack = ANGLE_SLACK + 4 * GRAZE / min(side_a, side_b)
    if angle + slack >= 0.5 * math.pi:
        return True
    if slack < 1e-4:
        # The series to the cube: what is left is below the last bit of either.
        sin_slack, cos_slack = slack - slack * slack * slack / 6.0, 1.0 - 0.5 * slack * slack
    else:
        sin_slack, cos_slack = math.sin(slack), math.cos(slack)
    reach = sin_spread * cos_slack + cos_spread * sin_slack
    along = min(1.0, abs(sy * ux - sx * uy) / (middle * _length(ux, uy)))
    half_turn_sine = 0.5 * _length(e1x - e2x, e1y - e2y)
    return along * 0.5 * middle - math.sqrt(1.0 - along * along) * half_turn_sine >= -reach


@_compiled
def _end_atoms(cx: float, cy: float, r: float, v: np.ndarray) -> np.ndarray:
    if len(v) == 0:
        atoms = np.empty((1, 3))
        atoms[0, 0], atoms[0, 1], atoms[0, 2] = cx, cy, r
        return atoms
    atoms = np.zeros((len(v), 3))
    atoms[:, :2] = v
    return atoms


@_compiled_leaf
def _atom_pair_lines(
    atoms: np.ndarray,
    i: int,
    j: int,
    na: int,
    nb: int,
    av: np.ndarray,
    bv: np.ndarray,
    a_sides: np.ndarray,
    b_sides: np.ndarray,
    neighbours: np.ndarray,
    beside: np.ndarray,
    ux: float,
    uy: float,
    spread: tuple[float, float, float],
    limit: tuple[float, float],
    scratch: np.ndarray,
    lines: np.ndarray,
    count: int,
) -> int:
    """:func:`tangent_lines` for one pair of atoms ``i < j`` (the first ``na`` are ``a``'s, the
    next ``nb`` ``b``'s, the rest free): the common tangents it keeps, written to ``lines`` from
    row ``count``; returns the new count. A function of its own, compiled without reference
    counting (see :func:`_compiled_leaf`): it runs for every pair of atoms. ``limit`` is the
    cosine and sine of ``spread``'s angle plus :data:`ANGLE_SLACK`."""
    gi = 0 if i < na else (1 if i < na + nb else 2)
    gj = 0 if j < na else (1 if j < na + nb else 2)
    if gi == gj and gi != 2:
        return count
    if gj == 2 and spread[0] < 0.5 * math.pi:
        ex, ey = atoms[j, 0] - atoms[i, 0], atoms[j, 1] - atoms[i, 1]
        between = _length(ex, ey)
        if between > atoms[i, 2] + atoms[j, 2]:
            # The pair's own spread (whose sine is the radii over the distance) and the limit
            # together: past it when the cosine of the turn from ``u`` (both under a right
            # angle) is below the cosine of their sum, worked out without trigonometry.
            sin_own = (atoms[i, 2] + atoms[j, 2]) / between
            cos_own = math.sqrt(1.0 - sin_own * sin_own)
            cos_sum = limit[0] * cos_own - limit[1] * sin_own
            if cos_sum > 0 and abs(ux * ex + uy * ey) < cos_sum * _length(ux, uy) * between:
                return count
    # A line through a polygon end's vertex must support the polygon there: most
    # vertex/atom pairs cannot, and are passed over before their tangents are made.
    if gi == 0 and len(av) > 0 and not _may_support(av, a_sides, i, atoms, j):
        return count
    if gi == 1 and len(bv) > 0 and not _may_support(bv, b_sides, i - na, atoms, j):
        return count
    if gj == 1 and len(bv) > 0 and not _may_support(bv, b_sides, j - na, atoms, i):
        return count
    # So must a line touching a blocker's vertex disc, where its neighbours are given.
    fi, fj = i - na - nb, j - na - nb
    if (
        gi == 2
        and neighbours[fi, 4] > 0
        and not _may_support_beside(atoms, i, j, neighbours, beside, fi)
    ):
        return count
    if (
        gj == 2
        and neighbours[fj, 4] > 0
        and not _may_support_beside(atoms, j, i, neighbours, beside, fj)
    ):
        return count
    found = _tangents_of(
        atoms[i, 0],
        atoms[i, 1],
        atoms[i, 2],
        atoms[j, 0],
        atoms[j, 1],
        atoms[j, 2],
        scratch,
    )
    for s in range(found):
        px, py, dx, dy = scratch[s, 0], scratch[s, 1], scratch[s, 2], scratch[s, 3]
        ok = True
        for side, group in ((i, gi), (j, gj)):
            if group == 0 and len(av) > 0:
                ok = ok and _supports(px, py, dx, dy, av, side)
            elif group == 1 and len(bv) > 0:
                ok = ok and _supports(px, py, dx, dy, bv, side - na)
            elif group == 2 and neighbours[side - na - nb, 4] > 0:
                row = side - na - nb
                nx, ny = -dy, dx
                own = (atoms[side, 0] - px) * nx + (atoms[side, 1] - py) * ny
                for first in (0, 2):
                    across = (neighbours[row, first] - px) * nx
                    other = across + (neighbours[row, first + 1] - py) * ny
                    if not (own * other > 0 and abs(other) >= atoms[side, 2] - 1e-9):
                        ok = False
        if ok:
            lines[count, 0], lines[count, 1], lines[count, 2], lines[count, 3] = px, py, dx, dy
            count += 1
    return count


@_compiled_inline
def _corner_may_carry(
    v: np.ndarray,
    sides: np.ndarray,
    corner: int,
    ux: float,
    uy: float,
    spread: tuple[float, float, float],
) -> bool:
    """Whether a line through corner ``corner`` of the polygon end ``v`` (``sides`` as
    :func:`_side_lengths`) may leave it on one side and run within ``spread`` of the direction
    ``u`` (:func:`_may_support_within`); always for a disc end (``v`` empty)."""
    n = len(v)
    return n == 0 or _may_support_within(
        v[corner, 0],
        v[corner, 1],
        v[(corner - 1) % n, 0],
        v[(corner - 1) % n, 1],
        sides[corner, 0],
        v[(corner + 1) % n, 0],
        v[(corner + 1) % n, 1],
        sides[corner, 1],
        ux,
        uy,
        spread,
    )


@_compiled_leaf
def _kept_atoms(
    na: int,
    nb: int,
    av: np.ndarray,
    bv: np.ndarray,
    a_sides: np.ndarray,
    b_sides: np.ndarray,
    free: np.ndarray,
    neighbours: np.ndarray,
    beside: np.ndarray,
    ux: float,
    uy: float,
    spread: tuple[float, float, float],
    kept: np.ndarray,
) -> int:
    """The atoms of :func:`tangent_lines` (``a``'s ``na``, ``b``'s ``nb``, then the ``free``
    ones) that may carry a line, in order, into ``kept``: their count. Every line kept through
    a polygon end's corner, or a blocker's vertex disc where its neighbours are given, leaves
    the polygon on one side there; a line meeting both ends runs within ``spread`` of the
    direction between them. A corner that cannot have both carries no line to try and is
    passed over before its pairs are made: of an oval's 64 corners, a handful on each side
    stay. (A leaf: choosing between the ends' arrays, and a row's view, took reference counts
    for every atom.)"""
    n_kept = 0
    for i in range(na):
        if _corner_may_carry(av, a_sides, i, ux, uy, spread):
            kept[n_kept] = i
            n_kept += 1
    for i in range(nb):
        if _corner_may_carry(bv, b_sides, i, ux, uy, spread):
            kept[n_kept] = na + i
            n_kept += 1
    for f in range(len(free)):
        if neighbours[f, 4] > 0 and not _may_support_within(
            free[f, 0],
            free[f, 1],
            neighbours[f, 0],
            neighbours[f, 1],
            beside[f, 0],
            neighbours[f, 2],
            neighbours[f, 3],
            beside[f, 1],
            ux,
            uy,
            spread,
        ):
            continue
        kept[n_kept] = na + nb + f
        n_kept += 1
    return n_kept


@_compiled_inline
def _no_free_atoms() -> tuple[np.ndarray, np.ndarray, int, bool]:
    """The last four arguments of :func:`tangent_lines` between two ends alone."""
    return np.zeros((0, 3)), np.zeros((0, 5)), 0, False


@_compiled
def tangent_lines(
    acx: float,
    acy: float,
    ar: float,
    av: np.ndarray,
    bcx: float,
    bcy: float,
    br: float,
    bv: np.ndarray,
    free: np.ndarray,
    neighbours: np.ndarray,
    old_atoms: int,
    ends_old: bool,
) -> np.ndarray:
    """Common tangents of every pair among the ends ``a``, ``b`` (each taken whole) and the
    ``free`` atoms ``(x, y, r)``; a line through a polygon end's vertex is kept only if it
    supports that end, and a line touching a blocker's vertex disc only if it does not cut into
    the grown blocker beside it (``neighbours`` rows: previous and next vertex, and 1 where that
    applies). Then the sides of polygon ends whose lines can meet the other end.

    Lines of two old atoms are left out: one of the first ``old_atoms`` free atoms, or, with
    ``ends_old``, an end's (and then the sides of polygon ends too): those of a search's
    earlier round (:func:`critical_lines` with ``fresh``)."""
    atoms_a = _end_atoms(acx, acy, ar, av)
    atoms_b = _end_atoms(bcx, bcy, br, bv)
    na, nb, nf = len(atoms_a), len(atoms_b), len(free)
    total = na + nb + nf
    atoms = np.empty((total, 3))
    atoms[:na] = atoms_a
    atoms[na : na + nb] = atoms_b
    atoms[na + nb :] = free
    pairs = na * nb + (na + nb) * nf + nf * (nf - 1) // 2
    lines = np.empty((4 * pairs + len(av) + len(bv), 4))
    scratch = np.empty((4, 4))
    count = 0
    # A line meeting both ends runs within ``spread`` of the direction between their centres
    # (its distances from the two centres differ by at most the sum of their reaches); a common
    # tangent of two atoms runs within its own spread of the direction between them. Pairs of
    # atoms whose directions differ by more than both spreads carry no line to try.
    ux, uy = bcx - acx, bcy - acy
    apart = _length(ux, uy)
    reaches = _reach(acx, acy, ar, av) + _reach(bcx, bcy, br, bv) + 2 * GRAZE
    sin_spread = min(1.0, reaches / apart) if apart > 0 else 1.0
    angle = math.asin(sin_spread) if apart > 0 else 0.5 * math.pi
    spread = (angle, sin_spread, math.sqrt(1.0 - sin_spread * sin_spread))
    limit = angle + ANGLE_SLACK
    cos_limit, sin_limit = math.cos(limit), math.sin(limit)
    a_sides, b_sides = _side_lengths(av), _side_lengths(bv)
    beside = np.zeros((nf, 2))
    for f in range(nf):
        if neighbours[f, 4] > 0:
            beside[f, 0] = _length(neighbours[f, 0] - free[f, 0], neighbours[f, 1] - free[f, 1])
            beside[f, 1] = _length(neighbours[f, 2] - free[f, 0], neighbours[f, 3] - free[f, 1])
    kept = np.empty(total, dtype=np.int64)
    n_kept = _kept_atoms(
        na, nb, av, bv, a_sides, b_sides, free, neighbours, beside, ux, uy, spread, kept
    )
    for first_kept in range(n_kept):
        i = kept[first_kept]
        i_old = ends_old if i < na + nb else i < na + nb + old_atoms
        for second_kept in range(first_kept + 1, n_kept):
            j = kept[second_kept]
            if i_old and (ends_old if j < na + nb else j < na + nb + old_atoms):
                continue
            count = _atom_pair_lines(
                atoms,
                i,
                j,
                na,
                nb,
                av,
                bv,
                a_sides,
                b_sides,
                neighbours,
                beside,
                ux,
                uy,
                spread,
                (cos_limit, sin_limit),
                scratch,
                lines,
                count,
            )
    side_limited = limit < 0.5 * math.pi
    for v in (av, bv):
        if ends_old:
            break
        n = len(v)
        for k in range(n):
            f = (k + 1) % n
            ex, ey = v[f, 0] - v[k, 0], v[f, 1] - v[k, 1]
            # Most sides of a many-sided end (an oval's 64) turn too far from the direction
            # between the ends for their line to meet the other end: by more than the limit,
            # an angle below a right angle, when the cross product over the dot product exceeds
            # its tangent.
            if (
                side_limited
                and abs(ux * ey - uy * ex) * cos_limit > abs(ux * ex + uy * ey) * sin_limit
            ):
                continue
            length = _length(ex, ey)
            lines[count, 0], lines[count, 1] = v[k, 0], v[k, 1]
            lines[count, 2], lines[count, 3] = ex / length, ey / length
            count += 1
    return lines[:count]


@_compiled
def _parallel_tangents(atoms: np.ndarray, dx: float, dy: float) -> np.ndarray:
    """Lines of direction ``(dx, dy)`` tangent to each atom, on both sides."""
    nx, ny = -dy, dx
    n = len(atoms)
    lines = np.empty((2 * n, 4))
    for k in range(n):
        offset = atoms[k, 0] * nx + atoms[k, 1] * ny
        for s, side in enumerate((1.0, -1.0)):
            rho = offset + side * atoms[k, 2]
            row = lines[2 * k + s]
            row[0], row[1], row[2], row[3] = rho * nx, rho * ny, dx, dy
    return lines


@_compiled
def _direction(acx: float, acy: float, bcx: float, bcy: float) -> tuple[float, float]:
    dx, dy = bcx - acx, bcy - acy
    length = _length(dx, dy)
    if length > 1e-12:
        return dx / length, dy / length
    return 1.0, 0.0


@_compiled
def cheap_lines(
    acx: float,
    acy: float,
    ar: float,
    av: np.ndarray,
    bcx: float,
    bcy: float,
    br: float,
    bv: np.ndarray,
) -> np.ndarray:
    """The centre line and the common tangents of the two end shapes."""
    dx, dy = _direction(acx, acy, bcx, bcy)
    if len(av) == 0 and len(bv) == 0:
        # Two discs, the common case: their tangents made directly, the lines (and their
        # order) :func:`tangent_lines` finds, without the arrays its general case makes.
        lines = np.empty((5, 4))
        lines[0, 0], lines[0, 1], lines[0, 2], lines[0, 3] = acx, acy, dx, dy
        found = _tangents_of(acx, acy, ar, bcx, bcy, br, lines[1:])
        return lines[: 1 + found]
    tangents = tangent_lines(acx, acy, ar, av, bcx, bcy, br, bv, *_no_free_atoms())
    lines = np.empty((len(tangents) + 1, 4))
    lines[0, 0], lines[0, 1], lines[0, 2], lines[0, 3] = acx, acy, dx, dy
    lines[1:] = tangents
    return lines


@_compiled_inline
def first_free(
    lines: np.ndarray,
    acx: float,
    acy: float,
    ar: float,
    av: np.ndarray,
    bcx: float,
    bcy: float,
    br: float,
    bv: np.ndarray,
    scene: SceneArrays,
    active: np.ndarray,
    lo: np.ndarray,
    hi: np.ndarray,
    count: int,
    grow: float,
    variants: int,
) -> tuple[bool, float, float, float, float]:
    """The first line (in order) carrying a free segment, trying the first ``variants`` segment
    choices of :func:`_segment_on` on each (the ends' edges worked out once for all lines)."""
    stopping = np.zeros(count, dtype=np.bool_)
    return first_free_marking(
        lines,
        (acx, acy, ar, av, bcx, bcy, br, bv),
        scene,
        active,
        lo,
        hi,
        count,
        grow,
        variants,
        stopping,
    )


@_compiled_inline
def first_free_marking(
    lines: np.ndarray,
    shapes: tuple[float, float, float, np.ndarray, float, float, float, np.ndarray],
    scene: SceneArrays,
    active: np.ndarray,
    lo: np.ndarray,
    hi: np.ndarray,
    count: int,
    grow: float,
    variants: int,
    stopping: np.ndarray,
) -> tuple[bool, float, float, float, float]:
    """:func:`first_free` for the two ends ``shapes`` (``acx, acy, ar, av, bcx, bcy, br, bv``,
    one tuple: numba inlines no call with star arguments), marking in ``stopping`` (by position
    in ``active``) each blocker found in the way of a segment tried. When no line is free, the
    marked blockers alone block every line tried: a proof that rests on them, not on the
    others.

    Inlined, as :func:`first_free` is: the lines are tried by :func:`_first_free_line`, a leaf,
    so no call on the way counts the scene's 22 arrays in and out (a search's stages call this
    up to five times; it was the most frequent caller of the reference counts)."""
    acx, acy, ar, av, bcx, bcy, br, bv = shapes
    a_reach, a_edges = _end_edges(acx, acy, av)
    b_reach, b_edges = _end_edges(bcx, bcy, bv)
    return _first_free_line(
        lines,
        (acx, acy, ar, a_reach),
        a_edges,
        (bcx, bcy, br, b_reach),
        b_edges,
        scene,
        active,
        lo,
        hi,
        count,
        grow,
        variants,
        stopping,
    )


@_compiled_leaf
def _first_free_line(
    lines: np.ndarray,
    a_end: tuple[float, float, float, float],
    a_edges: np.ndarray,
    b_end: tuple[float, float, float, float],
    b_edges: np.ndarray,
    scene: SceneArrays,
    active: np.ndarray,
    lo: np.ndarray,
    hi: np.ndarray,
    count: int,
    grow: float,
    variants: int,
    stopping: np.ndarray,
) -> tuple[bool, float, float, float, float]:
    """:func:`first_free_marking` given each end as ``(cx, cy, r, reach)`` and its edges
    (:func:`_end_edges`)."""
    hint = -1
    for k in range(len(lines)):
        px, py, dx, dy = lines[k, 0], lines[k, 1], lines[k, 2], lines[k, 3]
        for variant in range(variants):
            ok, sx, sy, ex, ey = _segment_on(
                px, py, dx, dy, a_end, a_edges, b_end, b_edges, variant
            )
            if not ok:
                break
            found = blocking(sx, sy, ex, ey, scene, active, lo, hi, count, grow, GRAZE, hint)
            if found < 0:
                return True, sx, sy, ex, ey
            stopping[found] = True
            hint = found
    return False, 0.0, 0.0, 0.0, 0.0


# ---------------------------------------------------------------------------------------------
# Shapes touching


@_compiled_leaf
def _shape_bounds(
    cx: float, cy: float, r: float, v: np.ndarray
) -> tuple[float, float, float, float]:
    """The box ``(x0, y0, x1, y1)`` of a disc (``v`` empty) or of a polygon, in one pass."""
    if len(v) == 0:
        return cx - r, cy - r, cx + r, cy + r
    x0, y0 = v[0, 0], v[0, 1]
    x1, y1 = x0, y0
    for k in range(1, len(v)):
        x0, x1 = min(x0, v[k, 0]), max(x1, v[k, 0])
        y0, y1 = min(y0, v[k, 1]), max(y1, v[k, 1])
    return x0, y0, x1, y1


@_compiled_inline
def _rows(rows: np.ndarray, ranges: np.ndarray, k: int) -> np.ndarray:
    """Rows ``ranges[k]`` of ``rows`` (a polygon's vertices, say). Hot loops take the scene's
    arrays one by one: handing a helper the whole scene, inlined or not, copies its references
    to all of its arrays, which costs more than most tests per blocker."""
    result: np.ndarray = rows[ranges[k, 0] : ranges[k, 1]]
    return result


@_compiled_leaf
def _edge_gap(
    kind: int, disc: np.ndarray, polygon: np.ndarray, cx: float, cy: float, r: float, v: np.ndarray
) -> float:
    """The smallest distance between a blocker's core boundary (its ``kind``, ``disc`` and
    ``polygon``: see :func:`shapes_touch`) and the shape's boundary, less both radii (a disc
    is measured from its centre)."""
    ns = len(v)
    if kind == 1:
        px, py, br = disc[0], disc[1], disc[2]
        if ns == 0:
            alone: float = _length(px - cx, py - cy) - r - br
            return alone
        best = math.inf
        for s in range(ns):
            t = (s + 1) % ns
            gap = _point_segment(px, py, v[s, 0], v[s, 1], v[t, 0] - v[s, 0], v[t, 1] - v[s, 1])
            best = min(best, gap - br)
        return best
    best = math.inf
    nb = len(polygon)
    for e in range(nb):
        f = (e + 1) % nb
        if ns == 0:
            gap = segment_distance(
                polygon[e, 0], polygon[e, 1], polygon[f, 0], polygon[f, 1], cx, cy, cx, cy
            )
            best = min(best, gap - r)
            continue
        for s in range(ns):
            t = (s + 1) % ns
            gap = _edge_distance(polygon, e, f, v, s, t)
            best = min(best, gap)
    return best


@_compiled_inline
def _edge_distance(p: np.ndarray, e: int, f: int, v: np.ndarray, s: int, t: int) -> float:
    """The distance between the edge from row ``e`` to row ``f`` of ``p`` and the edge from row
    ``s`` to row ``t`` of ``v`` (:func:`segment_distance`)."""
    return segment_distance(p[e, 0], p[e, 1], p[f, 0], p[f, 1], v[s, 0], v[s, 1], v[t, 0], v[t, 1])


@_compiled_inline
def _edge_box(v: np.ndarray, e: int, f: int, reach: float) -> tuple[float, float, float, float]:
    """The box of the edge from row ``e`` to row ``f`` of ``v``, grown by ``reach`` and a
    margin far beyond rounding (:data:`_SKIP_MARGIN`): an edge outside it
    (:func:`_edge_outside`) is farther than ``reach`` from this one."""
    grown = reach + _SKIP_MARGIN
    return (
        min(v[e, 0], v[f, 0]) - grown,
        min(v[e, 1], v[f, 1]) - grown,
        max(v[e, 0], v[f, 0]) + grown,
        max(v[e, 1], v[f, 1]) + grown,
    )


@_compiled_inline
def _edge_outside(v: np.ndarray, s: int, t: int, box: tuple[float, float, float, float]) -> bool:
    """Whether the edge from row ``s`` to row ``t`` of ``v`` lies wholly past one side of
    ``box`` ``(x0, y0, x1, y1)``."""
    x0, y0, x1, y1 = box
    outside: bool = (
        max(v[s, 0], v[t, 0]) < x0
        or min(v[s, 0], v[t, 0]) > x1
        or max(v[s, 1], v[t, 1]) < y0
        or min(v[s, 1], v[t, 1]) > y1
    )
    return outside


@_compiled_leaf
def _edges_within(
    kind: int,
    disc: np.ndarray,
    polygon: np.ndarray,
    cx: float,
    cy: float,
    r: float,
    v: np.ndarray,
    limit: float,
) -> bool:
    """Whether :func:`_edge_gap` is at most ``limit``, the first pair of edges that close
    ending the search: for two polygons, :func:`_edges_close`, which passes over the pairs of
    edges whose boxes lie farther apart than the limit (of a blocker's sides against a swept
    region's 48, most)."""
    if kind == 1 or len(v) == 0:
        return _edge_gap(kind, disc, polygon, cx, cy, r, v) <= limit
    return _edges_close(polygon, v, limit)


@_compiled_leaf
def _outside_an_edge(
    kind: int, disc: np.ndarray, bv: np.ndarray, v: np.ndarray, grow: float
) -> bool:
    """Whether a blocker (see :func:`shapes_touch`) grown by ``grow`` lies wholly beyond one
    side of the convex polygon ``v`` (counter-clockwise): then they cannot touch (a cheap exit
    before distances)."""
    n = len(v)
    for e in range(n):
        f = (e + 1) % n
        ex, ey = v[f, 0] - v[e, 0], v[f, 1] - v[e, 1]
        length = _length(ex, ey)
        if length <= 1e-9:
            # Repeated vertices (a rectangle's corners in a support polygon) give no direction.
            continue
        nx, ny = ey / length, -ex / length
        offset = nx * v[e, 0] + ny * v[e, 1] + grow + 1e-9
        if kind == 1:
            if nx * disc[0] + ny * disc[1] - disc[2] > offset:
                return True
            continue
        beyond = True
        for s in range(len(bv)):
            if nx * bv[s, 0] + ny * bv[s, 1] <= offset:
                beyond = False
                break
        if beyond:
            return True
    return False


@_compiled_leaf
def shapes_touch(
    kind: int,
    disc: np.ndarray,
    box: np.ndarray,
    bv: np.ndarray,
    cx: float,
    cy: float,
    r: float,
    v: np.ndarray,
    grow: float,
) -> bool:
    """Whether a blocker grown by ``grow`` meets the convex shape (touching counts). The
    blocker is given by its rows of the scene's arrays (see :func:`_rows`): ``kind``, ``disc``,
    ``box`` and ``bv``, its vertices (none for a disc)."""
    sx0, sy0, sx1, sy1 = _shape_bounds(cx, cy, r, v)
    reach = grow + 1e-9
    if box[0] - reach > sx1 or sx0 - reach > box[2] or box[1] - reach > sy1 or sy0 - reach > box[3]:
        return False
    if len(v) >= 3 and _outside_an_edge(kind, disc, bv, v, grow):
        return False
    if _edges_within(kind, disc, bv, cx, cy, r, v, grow):
        return True
    polygon = kind == 0
    if polygon:
        first_x, first_y = bv[0, 0], bv[0, 1]
    else:
        first_x, first_y = disc[0], disc[1]
    if len(v) > 0 and inside_polygon(first_x, first_y, v):
        return True
    if polygon:
        px, py = (v[0, 0], v[0, 1]) if len(v) > 0 else (cx, cy)
        return inside_polygon(px, py, bv)
    return False


@_compiled_inline
def _touches_convex(
    kinds: np.ndarray,
    discs: np.ndarray,
    boxes: np.ndarray,
    vertices: np.ndarray,
    ranges: np.ndarray,
    k: int,
    shape: np.ndarray,
    grow: float,
) -> bool:
    """Whether blocker ``k`` of the scene's blocker arrays (see :func:`_rows`) grown by ``grow``
    meets the convex polygon ``shape`` (:func:`shapes_touch`)."""
    return shapes_touch(
        kinds[k],
        discs[k],
        boxes[k],
        _rows(vertices, ranges, k),
        shape[:, 0].mean(),
        shape[:, 1].mean(),
        0.0,
        shape,
        grow,
    )


# ---------------------------------------------------------------------------------------------
# Corridors and hulls


SMALL_SORT = 48
"""Point sets up to this size are put in order by insertion alone (see :func:`_hull_indices`)."""


@_compiled_leaf
def _insert_in_order(points: np.ndarray, order: np.ndarray, start: int, stop: int) -> None:
    """Sorts ``order[start:stop]`` (rows of ``points``) by x, then y, then row, by insertion in
    place."""
    for m in range(start + 1, stop):
        row = order[m]
        k = m
        while k > start and not _before(points, order[k - 1], row):
            order[k] = order[k - 1]
            k -= 1
        order[k] = row


@_compiled_leaf
def _equal_x_in_order(points: np.ndarray, order: np.ndarray) -> None:
    """Puts each run of rows of ``order`` with the same x (``order`` sorted by x) in order of
    y, then row."""
    n = len(order)
    start = 0
    while start < n:
        stop = start + 1
        while stop < n and points[order[stop], 0] == points[order[start], 0]:
            stop += 1
        if stop - start > 1:
            _insert_in_order(points, order, start, stop)
        start = stop


@_compiled
def _lexicographic_order(points: np.ndarray) -> np.ndarray:
    """The rows of ``points`` by x, then y, then row: the order two stable sorts (by y, then by
    x) give, without the four arrays they allocated. Most point sets here are a few dozen
    points, sorted by insertion; a larger set is sorted by x and its runs of equal x put in
    order."""
    n = len(points)
    if n <= SMALL_SORT:
        order = np.arange(n)
        _insert_in_order(points, order, 0, n)
    else:
        order = np.argsort(points[:, 0])
        _equal_x_in_order(points, order)
    return order


@_compiled
def _monotone_chain(points: np.ndarray, order: np.ndarray) -> np.ndarray:
    """The rows of ``points`` on their convex hull, counter-clockwise from the first of
    ``order`` (every row, by x, then y, then row); collinear points dropped."""
    n = len(order)
    hull = np.empty(2 * n + 1, dtype=np.int64)
    count = 0
    for sweep in range(2):
        start = count
        for idx in range(n):
            k = order[idx if sweep == 0 else n - 1 - idx]
            x, y = points[k, 0], points[k, 1]
            while count - start >= 2:
                a, b = hull[count - 2], hull[count - 1]
                ax, ay, bx, by = points[a, 0], points[a, 1], points[b, 0], points[b, 1]
                if (bx - ax) * (y - ay) - (by - ay) * (x - ax) > 0:
                    break
                count -= 1
            hull[count] = k
            count += 1
        count -= 1
    return hull[:count].copy()


@_compiled
def _hull_indices(points: np.ndarray) -> np.ndarray:
    """The rows of ``points`` on their convex hull, counter-clockwise (monotone chain;
    collinear points dropped). Hulls are made many times a search: see
    :func:`_lexicographic_order`."""
    return _monotone_chain(points, _lexicographic_order(points))


@_compiled_inline
def _before(points: np.ndarray, r: int, s: int) -> bool:
    """Whether row ``r`` of ``points`` comes before row ``s`` by x, then y, then row."""
    xr, xs = points[r, 0], points[s, 0]
    if xr != xs:
        return bool(xr < xs)
    yr, ys = points[r, 1], points[s, 1]
    if yr != ys:
        return bool(yr < ys)
    return r < s


@_compiled_leaf
def _convex_run_in_order(
    points: np.ndarray, start: int, stop: int, out: np.ndarray, at: int
) -> None:
    """Writes rows ``start`` to ``stop`` of ``points``, a convex polygon counter-clockwise, to
    ``out`` from ``at`` by x, then y, then row: its two chains from its first corner in that
    order to its last each run that way, and are merged. For other rows the result is some
    order of them (the caller checks it)."""
    n = stop - start
    if n == 0:
        return
    first = last = start
    for r in range(start + 1, stop):
        if _before(points, r, first):
            first = r
        if _before(points, last, r):
            last = r
    out[at] = first
    forward = first + 1 if first + 1 < stop else start
    backward = first - 1 if first > start else stop - 1
    forward_left = (last - first) % n
    backward_left = n - 1 - forward_left
    k = at + 1
    while forward_left > 0 or backward_left > 0:
        if backward_left == 0 or (forward_left > 0 and _before(points, forward, backward)):
            out[k] = forward
            forward = forward + 1 if forward + 1 < stop else start
            forward_left -= 1
        else:
            out[k] = backward
            backward = backward - 1 if backward > start else stop - 1
            backward_left -= 1
        k += 1


@_compiled_leaf
def _merge_in_order(
    points: np.ndarray, order: np.ndarray, middle: int, stop: int, scratch: np.ndarray
) -> None:
    """Merges ``order[:middle]`` and ``order[middle:stop]`` (each by x, then y, then row) in
    place, through ``scratch``."""
    i, j = 0, middle
    for k in range(stop):
        if j == stop or (i < middle and _before(points, order[i], order[j])):
            scratch[k] = order[i]
            i += 1
        else:
            scratch[k] = order[j]
            j += 1
    for k in range(stop):
        order[k] = scratch[k]


@_compiled_leaf
def _in_order(points: np.ndarray, order: np.ndarray) -> bool:
    """Whether ``order`` runs by x, then y, then row."""
    k = 0
    while k + 1 < len(order) and _before(points, order[k], order[k + 1]):
        k += 1
    return k + 1 >= len(order)


@_compiled
def _hull_indices_of_runs(points: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """:func:`_hull_indices` of points given as runs (rows ``starts[r]`` to ``starts[r + 1]``),
    each a convex polygon counter-clockwise (or a segment): a pair's corridor is the hull of two
    end shapes, a barrier's region that of two shapes and two tangents. Each run is put in
    order along its two chains and the runs merged, in time linear in the points, without a
    sort; the order is checked, and sorted afresh where a run was no such polygon. The same
    order either way, so the same hull."""
    n = len(points)
    order = np.empty(n, dtype=np.int64)
    for r in range(len(starts) - 1):
        _convex_run_in_order(points, starts[r], starts[r + 1], order, starts[r])
    scratch = np.empty(n, dtype=np.int64)
    for r in range(1, len(starts) - 1):
        _merge_in_order(points, order, starts[r], starts[r + 1], scratch)
    if not _in_order(points, order):
        order = _lexicographic_order(points)
    return _monotone_chain(points, order)


@_compiled
def convex_hull(points: np.ndarray) -> np.ndarray:
    """Counter-clockwise hull vertices of the points (:func:`_hull_indices`)."""
    hull: np.ndarray = points[_hull_indices(points)]
    return hull


_SIXTEENTHS = np.array(
    [(math.cos(k * (math.pi / 8)), math.sin(k * (math.pi / 8))) for k in range(16)]
)
"""The unit circle's points at every sixteenth of a turn: a disc is taken as a 16-gon, inside
it or around it, wherever a unit's hull is made or a barrier cut from parts (the table spares
32 cosines and sines each time)."""

_EIGHTHS = _SIXTEENTHS[::2].copy()
"""The unit circle's points at every eighth of a turn: a round base taken as the octagon around
it, where a proof between two units' hulls is looked for (:func:`proof_hull`)."""


@_compiled
def _shape_points(cx: float, cy: float, r: float, v: np.ndarray) -> np.ndarray:
    return _points_around(cx, cy, r, v, _SIXTEENTHS)


@_compiled_inline
def _points_around(cx: float, cy: float, r: float, v: np.ndarray, circle: np.ndarray) -> np.ndarray:
    """A polygon end's corners, or the polygon around the disc ``(cx, cy, r)`` with a corner at
    each of the unit ``circle``'s points (evenly spaced round it)."""
    if len(v) > 0:
        return v
    sides = len(circle)
    pts = np.empty((sides, 2))
    grown = r / math.cos(math.pi / sides) + 1e-9
    for k in range(sides):
        pts[k, 0], pts[k, 1] = cx + grown * circle[k, 0], cy + grown * circle[k, 1]
    return pts


@_compiled
def corridor(
    acx: float,
    acy: float,
    ar: float,
    av: np.ndarray,
    bcx: float,
    bcy: float,
    br: float,
    bv: np.ndarray,
) -> np.ndarray:
    """Half-planes ``(nx, ny, c)``, ``n . x <= c``, whose intersection holds the hull of both
    end shapes: every segment from one to the other lies inside it."""
    first = _shape_points(acx, acy, ar, av)
    second = _shape_points(bcx, bcy, br, bv)
    points = np.empty((len(first) + len(second), 2))
    points[: len(first)] = first
    points[len(first) :] = second
    starts = np.array([0, len(first), len(points)])
    hull = points[_hull_indices_of_runs(points, starts)]
    n = len(hull)
    planes = np.empty((n, 3))
    for k in range(n):
        f = (k + 1) % n
        ex, ey = hull[f, 0] - hull[k, 0], hull[f, 1] - hull[k, 1]
        length = _length(ex, ey)
        nx, ny = ey / length, -ex / length
        planes[k, 0], planes[k, 1], planes[k, 2] = nx, ny, nx * hull[k, 0] + ny * hull[k, 1]
    return planes


@_compiled_inline
def _disc_meets(planes: np.ndarray, x: float, y: float, r: float) -> bool:
    for k in range(len(planes)):
        if planes[k, 0] * x + planes[k, 1] * y - planes[k, 2] > r + GRAZE:
            return False
    return True


@_compiled_inline
def blocker_meets(
    kinds: np.ndarray,
    discs: np.ndarray,
    vertices: np.ndarray,
    ranges: np.ndarray,
    k: int,
    planes: np.ndarray,
    grow: float,
) -> bool:
    """Whether blocker ``k`` of the scene's blocker arrays (see :func:`_rows`) grown by
    ``grow`` may meet the corridor (no side has every point of it beyond reach)."""
    if kinds[k] == 1:
        return _disc_meets(planes, discs[k, 0], discs[k, 1], discs[k, 2] + grow)
    # The polygon's rows are read in place: gather runs this for most blockers of every pair.
    for p in range(len(planes)):
        nx, ny, c = planes[p, 0], planes[p, 1], planes[p, 2]
        beyond = True
        for s in range(ranges[k, 0], ranges[k, 1]):
            if nx * vertices[s, 0] + ny * vertices[s, 1] - c <= grow + GRAZE:
                beyond = False
                break
        if beyond:
            return False
    return True


# ---------------------------------------------------------------------------------------------
# Critical lines


@_compiled
def _room_for(buffer: np.ndarray, count: int, more: int) -> np.ndarray:
    """``buffer``, or a larger copy of its first ``count`` rows, with room for ``more`` rows
    past them."""
    if count + more <= len(buffer):
        return buffer
    bigger = np.empty((max(2 * len(buffer) + 8, count + more), 2))
    bigger[:count] = buffer[:count]
    return bigger


@_compiled_inline
def _circle_circle(
    buffer: np.ndarray, count: int, x1: float, y1: float, r1: float, x2: float, y2: float, r2: float
) -> int:
    """Where two circles cross, written from row ``count`` of ``buffer`` (which has room for
    two rows more): the new count."""
    dx, dy = x2 - x1, y2 - y1
    dist = _length(dx, dy)
    if not (dist > 1e-12 and dist <= r1 + r2 and dist >= abs(r1 - r2)):
        return count
    along = (dist * dist + r1 * r1 - r2 * r2) / (2 * dist)
    h = math.sqrt(max(r1 * r1 - along * along, 0.0))
    ux, uy = dx / dist, dy / dist
    bx, by = x1 + along * ux, y1 + along * uy
    buffer[count, 0], buffer[count, 1] = bx - h * uy, by + h * ux
    buffer[count + 1, 0], buffer[count + 1, 1] = bx + h * uy, by - h * ux
    return count + 2


@_compiled_inline
def _segment_circle(
    buffer: np.ndarray,
    count: int,
    s0x: float,
    s0y: float,
    s1x: float,
    s1y: float,
    cx: float,
    cy: float,
    r: float,
) -> int:
    """Where a segment crosses a circle, as :func:`_circle_circle`."""
    dx, dy = s1x - s0x, s1y - s0y
    ll = dx * dx + dy * dy
    if ll <= 0:
        return count
    wx, wy = s0x - cx, s0y - cy
    b = wx * dx + wy * dy
    disc = b * b - ll * (wx * wx + wy * wy - r * r)
    if disc < 0:
        return count
    root = math.sqrt(disc)
    for t in ((-b - root) / ll, (-b + root) / ll):
        if 0 <= t <= 1:
            buffer[count, 0], buffer[count, 1] = s0x + t * dx, s0y + t * dy
            count += 1
    return count


@_compiled_inline
def _segment_segment(
    buffer: np.ndarray,
    count: int,
    p0x: float,
    p0y: float,
    p1x: float,
    p1y: float,
    q0x: float,
    q0y: float,
    q1x: float,
    q1y: float,
) -> int:
    """Where two segments cross, as :func:`_circle_circle`."""
    d1x, d1y, d2x, d2y = p1x - p0x, p1y - p0y, q1x - q0x, q1y - q0y
    denom = d1x * d2y - d1y * d2x
    if denom == 0:
        return count
    wx, wy = q0x - p0x, q0y - p0y
    t = (wx * d2y - wy * d2x) / denom
    u = (wx * d1y - wy * d1x) / denom
    if 0 <= t <= 1 and 0 <= u <= 1:
        buffer[count, 0], buffer[count, 1] = p0x + t * d1x, p0y + t * d1y
        count += 1
    return count


@_compiled_leaf
def _circle_crossings(
    buffer: np.ndarray, count: int, circles1: np.ndarray, circles2: np.ndarray
) -> int:
    """Where each of ``circles1`` crosses each of ``circles2``, written from row ``count``
    (``buffer`` has room for two rows a pair): the new count. This and the two below are
    leaves: no reference counts for each pair of pieces of two boundaries."""
    for i in range(len(circles1)):
        x, y, r = circles1[i, 0], circles1[i, 1], circles1[i, 2]
        for j in range(len(circles2)):
            count = _circle_circle(
                buffer, count, x, y, r, circles2[j, 0], circles2[j, 1], circles2[j, 2]
            )
    return count


@_compiled_leaf
def _segment_circle_crossings(
    buffer: np.ndarray, count: int, segments: np.ndarray, circles: np.ndarray
) -> int:
    """Where each of ``segments`` crosses each of ``circles``, as :func:`_circle_crossings`."""
    for i in range(len(segments)):
        x0, y0, x1, y1 = segments[i, 0], segments[i, 1], segments[i, 2], segments[i, 3]
        for j in range(len(circles)):
            count = _segment_circle(
                buffer, count, x0, y0, x1, y1, circles[j, 0], circles[j, 1], circles[j, 2]
            )
    return count


@_compiled_leaf
def _segment_crossings(
    buffer: np.ndarray, count: int, segments1: np.ndarray, segments2: np.ndarray
) -> int:
    """Where each of ``segments1`` crosses each of ``segments2`` (room for one row a pair), as
    :func:`_circle_crossings`."""
    for i in range(len(segments1)):
        x0, y0, x1, y1 = segments1[i, 0], segments1[i, 1], segments1[i, 2], segments1[i, 3]
        for j in range(len(segments2)):
            count = _segment_segment(
                buffer,
                count,
                x0,
                y0,
                x1,
                y1,
                segments2[j, 0],
                segments2[j, 1],
                segments2[j, 2],
                segments2[j, 3],
            )
    return count


@_compiled
def _boundary(cx: float, cy: float, r: float, v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A shape's boundary pieces: circles ``(x, y, r)`` and segments ``(x0, y0, x1, y1)``."""
    if len(v) == 0:
        circles = np.empty((1, 3))
        circles[0, 0], circles[0, 1], circles[0, 2] = cx, cy, r
        return circles, np.zeros((0, 4))
    n = len(v)
    circles = np.zeros((n, 3))
    circles[:, :2] = v
    segments = np.empty((n, 4))
    for k in range(n):
        f = (k + 1) % n
        segments[k, 0], segments[k, 1] = v[k, 0], v[k, 1]
        segments[k, 2], segments[k, 3] = v[f, 0], v[f, 1]
    return circles, segments


@_compiled
def _grown_boundary(scene: SceneArrays, k: int, grow: float) -> tuple[np.ndarray, np.ndarray]:
    """Blocker ``k`` grown by ``grow``: vertex circles and edges moved out by ``grow``."""
    if scene.blocker_kind[k] == 1:
        d = scene.blocker_disc[k]
        circles = np.empty((1, 3))
        circles[0, 0], circles[0, 1], circles[0, 2] = d[0], d[1], d[2] + grow
        return circles, np.zeros((0, 4))
    v = _rows(scene.blocker_vertices, scene.blocker_ranges, k)
    n = len(v)
    circles = np.empty((n, 3))
    segments = np.empty((n, 4))
    for e in range(n):
        f = (e + 1) % n
        circles[e, 0], circles[e, 1], circles[e, 2] = v[e, 0], v[e, 1], grow
        ex, ey = v[f, 0] - v[e, 0], v[f, 1] - v[e, 1]
        length = _length(ex, ey)
        if length <= 0:
            length = 1.0
        nx, ny = ey / length * grow, -ex / length * grow
        segments[e, 0], segments[e, 1] = v[e, 0] + nx, v[e, 1] + ny
        segments[e, 2], segments[e, 3] = v[f, 0] + nx, v[f, 1] + ny
    return circles, segments


@_compiled
def _crossings(
    buffer: np.ndarray,
    count: int,
    circles1: np.ndarray,
    segments1: np.ndarray,
    circles2: np.ndarray,
    segments2: np.ndarray,
) -> tuple[np.ndarray, int]:
    """Where two boundaries (as :func:`_boundary`) cross, appended to ``buffer`` (grown here
    once, to hold what every pair of pieces can add). An array reassigned in a loop has its
    references counted at every turn, so the buffer is not grown row by row."""
    most = 2 * len(circles1) * len(circles2) + 2 * len(segments1) * len(circles2)
    most += 2 * len(segments2) * len(circles1) + len(segments1) * len(segments2)
    buffer = _room_for(buffer, count, most)
    count = _circle_crossings(buffer, count, circles1, circles2)
    count = _segment_circle_crossings(buffer, count, segments1, circles2)
    count = _segment_circle_crossings(buffer, count, segments2, circles1)
    count = _segment_crossings(buffer, count, segments1, segments2)
    return buffer, count


@_compiled_inline
def _keep_atoms(
    planes: np.ndarray,
    atoms: np.ndarray,
    beside: np.ndarray,
    first: int,
    stop: int,
    free: np.ndarray,
    near: np.ndarray,
    kept: int,
) -> int:
    """Copies the rows ``first`` to ``stop`` of ``atoms`` (with ``beside``) that meet the
    corridor ``planes`` into ``free`` (and ``near``) from row ``kept``; returns the new count."""
    for m in range(first, stop):
        if _disc_meets(planes, atoms[m, 0], atoms[m, 1], atoms[m, 2]):
            free[kept] = atoms[m]
            near[kept] = beside[m]
            kept += 1
    return kept


@_compiled_inline
def _keep_crossings(
    planes: np.ndarray, crossings: np.ndarray, first: int, stop: int, free: np.ndarray, kept: int
) -> int:
    """:func:`_keep_atoms` for crossing points (atoms of radius 0, no neighbours)."""
    for m in range(first, stop):
        if _disc_meets(planes, crossings[m, 0], crossings[m, 1], 0.0):
            free[kept, 0], free[kept, 1], free[kept, 2] = crossings[m, 0], crossings[m, 1], 0.0
            kept += 1
    return kept


@_compiled
def critical_lines(
    acx: float,
    acy: float,
    ar: float,
    av: np.ndarray,
    bcx: float,
    bcy: float,
    br: float,
    bv: np.ndarray,
    scene: SceneArrays,
    blockers: np.ndarray,
    count: int,
    fresh: int,
    grow: float,
    centres: bool,
    planes: np.ndarray,
    every_line_near_ends: bool,
) -> np.ndarray:
    """Every critical line of the end shapes and the first ``count`` of ``blockers`` (see
    the module notes); with ``centres``, also the lines through either shape's
    centre tangent to an atom. Atoms outside the corridor ``planes`` are left out.

    A line touching a blocker's vertex is kept only where it leaves the grown blocker on one
    side: one that cuts into it there is blocked wherever the touching point lies on its
    segment, and bounds no free line where it does not (the module notes). With
    ``every_line_near_ends`` such lines are kept for the blockers near an end, where the
    segment can stop short of the touching point: for the true-height search over mixed
    blockers (a line may cross one where it runs high) and for the fully-visible search (its
    witness seeds the fans that settle a facing piece; a different witness can leave a piece
    to the conservative step).

    The lines that only the ends and the first ``fresh`` blockers make are left out: a search
    that has tried those and grown its blockers by the rest needs only the lines a new
    blocker's atoms take part in (with ``fresh`` 0, every line)."""
    size = 2
    for m in range(count):
        k = blockers[m]
        size += (
            1
            if scene.blocker_kind[k] == 1
            else scene.blocker_ranges[k, 1] - scene.blocker_ranges[k, 0]
        )
    atoms = np.empty((size, 3))
    beside = np.zeros((size, 5))
    ends_old = fresh > 0
    n = 0
    if centres:
        atoms[0, 0], atoms[0, 1], atoms[0, 2] = acx, acy, 0.0
        atoms[1, 0], atoms[1, 1], atoms[1, 2] = bcx, bcy, 0.0
        n = 2
    ends_circles_a, ends_segments_a = _boundary(acx, acy, ar, av)
    ends_circles_b, ends_segments_b = _boundary(bcx, bcy, br, bv)
    crossings = np.empty((16, 2))
    crossed = 0
    crossings, crossed = _crossings(
        crossings, crossed, ends_circles_a, ends_segments_a, ends_circles_b, ends_segments_b
    )
    # Atoms and crossings are made blocker by blocker, after the ends' own: with ``fresh`` >
    # 0, the old ones are those made before the first new blocker's.
    old_atoms, old_crossings = 0, 0
    bounds_a = _shape_bounds(acx, acy, ar, av)
    bounds_b = _shape_bounds(bcx, bcy, br, bv)
    boxes, discs = scene.blocker_boxes, scene.blocker_disc
    vertices, ranges = scene.blocker_vertices, scene.blocker_ranges
    for m in range(count):
        if m == fresh and fresh > 0:
            old_atoms, old_crossings = n, crossed
        k = blockers[m]
        reach = discs[k, 2] + grow
        near_a = not (
            boxes[k, 0] - reach > bounds_a[2]
            or bounds_a[0] > boxes[k, 2] + reach
            or boxes[k, 1] - reach > bounds_a[3]
            or bounds_a[1] > boxes[k, 3] + reach
        )
        near_b = not (
            boxes[k, 0] - reach > bounds_b[2]
            or bounds_b[0] > boxes[k, 2] + reach
            or boxes[k, 1] - reach > bounds_b[3]
            or bounds_b[1] > boxes[k, 3] + reach
        )
        near_an_end = near_a or near_b
        # The grown outline is only made for a blocker near an end, where it may cross one.
        if near_an_end:
            grown_circles, grown_segments = _grown_boundary(scene, k, grow)
            if near_a:
                crossings, crossed = _crossings(
                    crossings,
                    crossed,
                    ends_circles_a,
                    ends_segments_a,
                    grown_circles,
                    grown_segments,
                )
            if near_b:
                crossings, crossed = _crossings(
                    crossings,
                    crossed,
                    ends_circles_b,
                    ends_segments_b,
                    grown_circles,
                    grown_segments,
                )
        if scene.blocker_kind[k] == 1:
            atoms[n, 0], atoms[n, 1], atoms[n, 2] = discs[k, 0], discs[k, 1], discs[k, 2] + grow
            n += 1
            continue
        first, stop = ranges[k, 0], ranges[k, 1]
        for e in range(first, stop):
            atoms[n, 0], atoms[n, 1], atoms[n, 2] = vertices[e, 0], vertices[e, 1], grow
            if not (near_an_end and every_line_near_ends):
                before = e - 1 if e > first else stop - 1
                after = e + 1 if e + 1 < stop else first
                beside[n, 0], beside[n, 1] = vertices[before, 0], vertices[before, 1]
                beside[n, 2], beside[n, 3] = vertices[after, 0], vertices[after, 1]
                beside[n, 4] = 1.0
            n += 1
    if fresh >= count > 0:
        old_atoms, old_crossings = n, crossed
    # The atoms the corridor keeps: the old ones first, then the new.
    free = np.empty((n + crossed, 3))
    near = np.zeros((n + crossed, 5))
    kept = _keep_atoms(planes, atoms, beside, 0, old_atoms, free, near, 0)
    kept = _keep_crossings(planes, crossings, 0, old_crossings, free, kept)
    kept_old = kept
    kept = _keep_atoms(planes, atoms, beside, old_atoms, n, free, near, kept)
    kept = _keep_crossings(planes, crossings, old_crossings, crossed, free, kept)
    free = free[:kept]
    near = near[:kept]
    dx, dy = _direction(acx, acy, bcx, bcy)
    tangents = tangent_lines(acx, acy, ar, av, bcx, bcy, br, bv, free, near, kept_old, ends_old)
    parallel = _parallel_tangents(free[kept_old:], dx, dy)
    ends_a = _end_atoms(acx, acy, ar, av)
    ends_b = _end_atoms(bcx, bcy, br, bv)
    end_atoms = np.empty((0 if ends_old else len(ends_a) + len(ends_b), 3))
    if not ends_old:
        end_atoms[: len(ends_a)] = ends_a
        end_atoms[len(ends_a) :] = ends_b
    ends_parallel = _parallel_tangents(end_atoms, dx, dy)
    lines = np.empty((len(tangents) + len(parallel) + len(ends_parallel), 4))
    lines[: len(tangents)] = tangents
    lines[len(tangents) : len(tangents) + len(parallel)] = parallel
    lines[len(tangents) + len(parallel) :] = ends_parallel
    return lines


# ---------------------------------------------------------------------------------------------
# Proofs of "blocked" that need no critical line


@_compiled
def _bridges(av: np.ndarray, bv: np.ndarray) -> tuple[int, np.ndarray]:
    """The edges of the hull of two convex polygons that join a corner of one to a corner of
    the other, as lines ``(px, py, dx, dy)``: ``(2, lines)`` when there are exactly two (the
    outer common tangents of two polygons neither of which holds the other), else a count
    other than 2."""
    points = np.empty((len(av) + len(bv), 2))
    points[: len(av)] = av
    points[len(av) :] = bv
    hull = _hull_indices_of_runs(points, np.array([0, len(av), len(points)]))
    lines = np.zeros((2, 4))
    n = len(hull)
    if n < 3:
        return 0, lines
    found = 0
    for k in range(n):
        i, j = hull[k], hull[(k + 1) % n]
        if (i < len(av)) == (j < len(av)):
            continue
        dx, dy = points[j, 0] - points[i, 0], points[j, 1] - points[i, 1]
        length = _length(dx, dy)
        if found == 2 or length <= 1e-12:
            return 0, lines
        lines[found, 0], lines[found, 1] = points[i, 0], points[i, 1]
        lines[found, 2], lines[found, 3] = dx / length, dy / length
        found += 1
    return found, lines


@_compiled
def outer_tangents(
    acx: float,
    acy: float,
    ar: float,
    av: np.ndarray,
    bcx: float,
    bcy: float,
    br: float,
    bv: np.ndarray,
) -> tuple[bool, np.ndarray]:
    """The two outer common tangents' segments between their tangent points ``(x0, y0, x1,
    y1)``, or ``False`` when the shapes are not clearly apart. Two polygons' tangents are the
    two edges of the hull of both that bridge from one to the other (a hull of ``n + m``
    corners, where trying every line through a corner of each costs ``n m (n + m)``)."""
    if len(av) and len(bv):
        count, bridges = _bridges(av, bv)
        if count == 2:
            return _line_segments(bridges, acx, acy, ar, av, bcx, bcy, br, bv)
    lines = tangent_lines(acx, acy, ar, av, bcx, bcy, br, bv, *_no_free_atoms())
    ends_a = _end_atoms(acx, acy, ar, av)
    ends_b = _end_atoms(bcx, bcy, br, bv)
    atoms = np.empty((len(ends_a) + len(ends_b), 3))
    atoms[: len(ends_a)] = ends_a
    atoms[len(ends_a) :] = ends_b
    chosen = np.empty(2, dtype=np.int64)
    found = 0
    for k in range(len(lines)):
        nx, ny = -lines[k, 3], lines[k, 2]
        below = True
        above = True
        for s in range(len(atoms)):
            side = (atoms[s, 0] - lines[k, 0]) * nx + (atoms[s, 1] - lines[k, 1]) * ny
            below = below and side + atoms[s, 2] <= 1e-9
            above = above and side - atoms[s, 2] >= -1e-9
        if not (below or above):
            continue
        if found == 1:
            first = chosen[0]
            fx, fy = -lines[first, 3], lines[first, 2]
            same_direction = abs(nx * fx + ny * fy) >= 1 - 1e-9
            offset = (lines[k, 0] - lines[first, 0]) * fx + (lines[k, 1] - lines[first, 1]) * fy
            if same_direction and abs(offset) <= 1e-9:
                continue
        chosen[found] = k
        found += 1
        if found == 2:
            break
    if found < 2:
        return False, np.zeros((2, 4))
    return _line_segments(lines[chosen], acx, acy, ar, av, bcx, bcy, br, bv)


@_compiled_leaf
def _crosses(kind: int, disc: np.ndarray, v: np.ndarray, segment: np.ndarray, grow: float) -> bool:
    """Whether an edge of a blocker (see :func:`shapes_touch`) grown by ``grow`` comes within
    reach of the segment by more than the graze."""
    x0, y0, x1, y1 = segment[0], segment[1], segment[2], segment[3]
    if kind == 1:
        d = disc
        result: bool = _point_segment(d[0], d[1], x0, y0, x1 - x0, y1 - y0) < d[2] + grow - GRAZE
        return result
    # An edge whose box lies farther than ``grow`` from the segment's is not measured.
    grown = grow + _SKIP_MARGIN
    box = (min(x0, x1) - grown, min(y0, y1) - grown, max(x0, x1) + grown, max(y0, y1) + grown)
    n = len(v)
    for e in range(n):
        f = (e + 1) % n
        if _edge_outside(v, e, f, box):
            continue
        if segment_distance(x0, y0, x1, y1, v[e, 0], v[e, 1], v[f, 0], v[f, 1]) < grow - GRAZE:
            return True
    return False


@_compiled_inline
def _boxes_apart(box: np.ndarray, other: np.ndarray) -> bool:
    """Whether two boxes ``(x0, y0, x1, y1)`` share no point."""
    apart: bool = box[0] > other[2] or box[2] < other[0] or box[1] > other[3] or box[3] < other[1]
    return apart


@_compiled_inline
def _row_apart_from(boxes: np.ndarray, k: int, x0: float, y0: float, x1: float, y1: float) -> bool:
    """Whether row ``boxes[k]`` and the box ``(x0, y0, x1, y1)`` share no point, read in place."""
    apart: bool = boxes[k, 0] > x1 or boxes[k, 2] < x0 or boxes[k, 1] > y1 or boxes[k, 3] < y0
    return apart


@_compiled_inline
def _row_apart(boxes: np.ndarray, k: int, others: np.ndarray, m: int) -> bool:
    """:func:`_boxes_apart` for rows ``boxes[k]`` and ``others[m]``, read in place: most boxes
    tested in a loop over blockers are apart, and a row's view costs two reference counts."""
    apart: bool = (
        boxes[k, 0] > others[m, 2]
        or boxes[k, 2] < others[m, 0]
        or boxes[k, 1] > others[m, 3]
        or boxes[k, 3] < others[m, 1]
    )
    return apart


@_compiled
def _has_convex(scene: SceneArrays, walls: np.ndarray, count: int) -> bool:
    """Whether one of the first ``count`` walls is convex (one could stand across alone)."""
    found = False
    for m in range(count):
        found = found or scene.blocker_convex[walls[m]]
    return found


@_compiled_leaf
def wall_across(
    acx: float,
    acy: float,
    ar: float,
    av: np.ndarray,
    bcx: float,
    bcy: float,
    br: float,
    bv: np.ndarray,
    tangents: np.ndarray,
    scene: SceneArrays,
    walls: np.ndarray,
    count: int,
    grow: float,
) -> int:
    """A convex wall separating ``a`` from ``b`` (its index), or -1, given the two shapes'
    outer common tangents (:func:`outer_tangents`): it crosses both between their tangent
    points and touches neither shape, so inside the hull of the two it walls ``a``'s side off
    from ``b``'s and every segment between them meets it. A leaf, compiled without
    reference counting (see :func:`_compiled_leaf`): it runs for every wall tried, and counting
    the scene's arrays on the way in and out cost more than most of its tests."""
    t0, t1 = tangents[0], tangents[1]
    ax0, ay0 = min(t0[0], t0[2]) - grow, min(t0[1], t0[3]) - grow
    ax1, ay1 = max(t0[0], t0[2]) + grow, max(t0[1], t0[3]) + grow
    bx0, by0 = min(t1[0], t1[2]) - grow, min(t1[1], t1[3]) - grow
    bx1, by1 = max(t1[0], t1[2]) + grow, max(t1[1], t1[3]) + grow
    best = -1
    boxes = scene.blocker_boxes
    for m in range(count):
        k = walls[m]
        if not scene.blocker_convex[k]:
            continue
        if _row_apart_from(boxes, k, ax0, ay0, ax1, ay1) or _row_apart_from(
            boxes, k, bx0, by0, bx1, by1
        ):
            continue
        box = boxes[k]
        kind, disc = scene.blocker_kind[k], scene.blocker_disc[k]
        polygon = _rows(scene.blocker_vertices, scene.blocker_ranges, k)
        if not (
            _crosses(kind, disc, polygon, t0, grow) and _crosses(kind, disc, polygon, t1, grow)
        ):
            continue
        if shapes_touch(kind, disc, box, polygon, acx, acy, ar, av, grow) or shapes_touch(
            kind, disc, box, polygon, bcx, bcy, br, bv, grow
        ):
            continue
        if best < 0 or k < best:
            best = k
    return best


@_compiled
def _reach(cx: float, cy: float, r: float, v: np.ndarray) -> float:
    if len(v) == 0:
        return r
    best = 0.0
    for k in range(len(v)):
        best = max(best, _length(v[k, 0] - cx, v[k, 1] - cy))
    return best


@_compiled
def _always_low(
    acx: float,
    acy: float,
    ar: float,
    av: np.ndarray,
    bcx: float,
    bcy: float,
    br: float,
    bv: np.ndarray,
    scene: SceneArrays,
    k: int,
    t0: float,
    t1: float,
    grow: float,
) -> bool:
    """Whether every segment from ``a`` to ``b`` is low enough to be blocked wherever it meets
    blocker ``k`` (the blocker is far enough
    from the higher end that every segment has come down when it gets there)."""
    longest = _length(acx - bcx, acy - bcy) + _reach(acx, acy, ar, av) + _reach(bcx, bcy, br, bv)
    kind, disc, box = scene.blocker_kind[k], scene.blocker_disc[k], scene.blocker_boxes[k]
    polygon = _rows(scene.blocker_vertices, scene.blocker_ranges, k)
    for side in range(2):
        needed = t0 * longest if side == 0 else (1.0 - t1) * longest
        if needed <= 0.0:
            continue
        if side == 0:
            clear = _edge_gap(kind, disc, polygon, acx, acy, ar, av)
            return clear >= needed + grow and not shapes_touch(
                kind, disc, box, polygon, acx, acy, ar, av, 0.0
            )
        clear = _edge_gap(kind, disc, polygon, bcx, bcy, br, bv)
        return clear >= needed + grow and not shapes_touch(
            kind, disc, box, polygon, bcx, bcy, br, bv, 0.0
        )
    return False


@_compiled
def _spread(cx: float, cy: float, r: float, v: np.ndarray) -> np.ndarray:
    """Points over a shape: its centre, and rings at full and half size (a polygon's vertices
    and side midpoints; points round a disc)."""
    if len(v) == 0:
        rim = np.empty((_SPREAD_COUNT, 2))
        for k in range(_SPREAD_COUNT):
            angle = k * (2.0 * math.pi / _SPREAD_COUNT)
            rim[k, 0], rim[k, 1] = cx + r * math.cos(angle), cy + r * math.sin(angle)
    else:
        n = len(v)
        rim = np.empty((2 * n, 2))
        rim[:n] = v
        for k in range(n):
            f = (k + 1) % n
            rim[n + k, 0] = 0.5 * (v[k, 0] + v[f, 0])
            rim[n + k, 1] = 0.5 * (v[k, 1] + v[f, 1])
    m = len(rim)
    points = np.empty((2 * m + 1, 2))
    points[0, 0], points[0, 1] = cx, cy
    points[1 : m + 1] = rim
    for k in range(m):
        points[m + 1 + k, 0] = 0.5 * (rim[k, 0] + cx)
        points[m + 1 + k, 1] = 0.5 * (rim[k, 1] + cy)
    return points


@_compiled_leaf
def _beyond_a_plane(points: np.ndarray, planes: np.ndarray) -> bool:
    """Whether every point lies beyond (``n . x > c``) one of the half-planes ``n . x <= c``."""
    for p in range(len(planes)):
        nx, ny, c = planes[p, 0], planes[p, 1], planes[p, 2]
        beyond = True
        for k in range(len(points)):
            if nx * points[k, 0] + ny * points[k, 1] - c <= 0:
                beyond = False
                break
        if beyond:
            return True
    return False


_CLIP_INSIDE = 0
_CLIP_CUTS = 1
_CLIP_OUTSIDE = 2


@_compiled_leaf
def _clip_side(
    points: np.ndarray,
    planes: np.ndarray,
    p: int,
    middle_x: float,
    middle_y: float,
    radius: float,
) -> int:
    """Where a convex polygon lies against half-plane ``p`` of ``planes`` (``n . x <= c``):
    inside it (the circle of ``radius`` about ``middle``, round the polygon's box, is, or
    every vertex is), wholly outside, or cut by it."""
    nx, ny, c = planes[p, 0], planes[p, 1], planes[p, 2]
    if nx * middle_x + ny * middle_y - c + radius < 0:
        return _CLIP_INSIDE
    outside = 0
    inside = 0
    for k in range(len(points)):
        if nx * points[k, 0] + ny * points[k, 1] - c > 0:
            outside += 1
        else:
            inside += 1
        if outside and inside:
            return _CLIP_CUTS
    return _CLIP_OUTSIDE if outside else _CLIP_INSIDE


@_compiled
def _clip(points: np.ndarray, planes: np.ndarray) -> np.ndarray:
    """A convex polygon clipped to the half-planes ``n . x <= c`` (``n`` of unit length;
    Sutherland-Hodgman). A polygon wholly outside one half-plane or inside all of them (most
    parts, when a barrier is looked for) is settled by its vertices alone, without building a
    clipped copy; a half-plane holding the circle about the polygon's box holds it without its
    vertices being read (most sides of a hull lie far from a part)."""
    x0, y0, x1, y1 = _shape_bounds(0.0, 0.0, 0.0, points)
    middle_x, middle_y = 0.5 * (x0 + x1), 0.5 * (y0 + y1)
    radius = 0.5 * _length(x1 - x0, y1 - y0) + _SKIP_MARGIN
    cuts = 0
    for p in range(len(planes)):
        side = _clip_side(points, planes, p, middle_x, middle_y, radius)
        if side == _CLIP_OUTSIDE:
            return points[:0]
        if side == _CLIP_CUTS:
            cuts += 1
    if cuts == 0:
        return points
    # A half-plane holding every vertex holds every point the clip makes (they lie on the
    # polygon): only the half-planes some vertex lies outside cut it (found again, the same
    # way, rather than listed in an array most calls would not need).
    current = points.copy()
    for p in range(len(planes)):
        if _clip_side(points, planes, p, middle_x, middle_y, radius) != _CLIP_CUTS:
            continue
        nx, ny, c = planes[p, 0], planes[p, 1], planes[p, 2]
        n = len(current)
        if n == 0:
            break
        out = np.empty((2 * n, 2))
        count = 0
        for k in range(n):
            f = (k + 1) % n
            x0, y0 = current[k, 0], current[k, 1]
            x1, y1 = current[f, 0], current[f, 1]
            d0 = nx * x0 + ny * y0 - c
            d1 = nx * x1 + ny * y1 - c
            if d0 <= 0:
                out[count, 0], out[count, 1] = x0, y0
                count += 1
            if (d0 < 0 < d1) or (d1 < 0 < d0):
                t = d0 / (d0 - d1)
                out[count, 0], out[count, 1] = x0 + t * (x1 - x0), y0 + t * (y1 - y0)
                count += 1
        current = out[:count]
    return current


@_compiled_leaf
def _close_to(p: np.ndarray, cx: float, cy: float, r: float, v: np.ndarray, limit: float) -> bool:
    """Whether a (possibly degenerate) convex polygon comes within ``limit`` of a convex end
    shape (or holds a point of it). The boxes of the two settle most far pairs, and the first
    close edge pair ends the search."""
    n = len(p)
    x0, y0, x1, y1 = _shape_bounds(0.0, 0.0, 0.0, p)
    if len(v) == 0:
        if x0 - (cx + r) > limit or cx - r - x1 > limit or y0 - (cy + r) > limit:
            return False
        if cy - r - y1 > limit:
            return False
        if n >= 3 and inside_polygon(cx, cy, p):
            return True
        for e in range(n):
            f = (e + 1) % n
            gap = _point_segment(cx, cy, p[e, 0], p[e, 1], p[f, 0] - p[e, 0], p[f, 1] - p[e, 1])
            if gap - r <= limit:
                return True
        return False
    u0, w0, u1, w1 = _shape_bounds(0.0, 0.0, 0.0, v)
    if x0 - u1 > limit or u0 - x1 > limit or y0 - w1 > limit or w0 - y1 > limit:
        return False
    if (n >= 3 and inside_polygon(v[0, 0], v[0, 1], p)) or inside_polygon(p[0, 0], p[0, 1], v):
        return True
    return _polygons_close(p, v, limit)


@_compiled_leaf
def _nearest_on(polygon: np.ndarray, x: float, y: float) -> tuple[float, float, float]:
    """The point of a polygon's boundary (a segment or a point when degenerate) nearest to
    ``(x, y)``, and its squared distance."""
    n = len(polygon)
    best = math.inf
    bx, by = polygon[0, 0], polygon[0, 1]
    for e in range(n):
        f = e + 1 if e + 1 < n else 0
        ax, ay = polygon[e, 0], polygon[e, 1]
        vx, vy = polygon[f, 0] - ax, polygon[f, 1] - ay
        ll = vx * vx + vy * vy
        t = 0.0
        if ll > 0:
            t = min(max(((x - ax) * vx + (y - ay) * vy) / ll, 0.0), 1.0)
        nx, ny = ax + t * vx, ay + t * vy
        gap = (x - nx) * (x - nx) + (y - ny) * (y - ny)
        if gap < best:
            best, bx, by = gap, nx, ny
    return bx, by, best


@_compiled_leaf
def _polygons_close(p: np.ndarray, v: np.ndarray, limit: float) -> bool:
    """Whether two convex polygons (either possibly a segment or a point) whose boundaries are
    the only place they can meet come within ``limit`` of each other.

    Comparing every edge of one with every edge of the other settles it, but most pairs are
    settled sooner by a proof: from a point of ``v``, the nearest point of ``p``, then the
    nearest point of ``v`` to that, and so on (between two convex shapes apart these close in
    on a closest pair within a few steps). A pair found within the limit is two points of the
    shapes that near (a proof they are close); else the direction between the last pair is
    tried as a separating axis: every vertex projected on it, the two shapes' spans more than
    the limit apart prove them farther than it. Only when neither proof holds (the limit lies
    between the pair's gap and the spans', or the boundaries cross) are the edges compared."""
    n, m = len(p), len(v)
    if n <= 2 or m <= 2:
        return _edges_close(p, v, limit)
    squared_limit = limit * limit
    qx, qy = v[0, 0], v[0, 1]
    px, py = p[0, 0], p[0, 1]
    for _ in range(4):
        px, py, _ = _nearest_on(p, qx, qy)
        nx, ny, gap = _nearest_on(v, px, py)
        if gap <= squared_limit:
            return True
        if nx == qx and ny == qy:
            break
        qx, qy = nx, ny
    dx, dy = qx - px, qy - py
    length = _length(dx, dy)
    if length > 0:
        dx, dy = dx / length, dy / length
        top = -math.inf
        for k in range(n):
            top = max(top, dx * p[k, 0] + dy * p[k, 1])
        bottom = math.inf
        for k in range(m):
            bottom = min(bottom, dx * v[k, 0] + dy * v[k, 1])
        if bottom - top > limit:
            return False
    return _edges_close(p, v, limit)


@_compiled_leaf
def _edges_close(p: np.ndarray, v: np.ndarray, limit: float) -> bool:
    """Whether some edge of polygon ``p`` comes within ``limit`` of some edge of ``v`` (each
    possibly a segment or a point), every pair compared. Two edges whose boxes are farther
    apart than the limit along an axis are farther apart than that (most pairs of a part and
    a unit's hull): only the others are measured."""
    n, m = len(p), len(v)
    for e in range(n):
        f = e + 1 if e + 1 < n else 0
        box = _edge_box(p, e, f, limit)
        for s in range(m):
            t = s + 1 if s + 1 < m else 0
            if _edge_outside(v, s, t, box):
                continue
            gap = _edge_distance(p, e, f, v, s, t)
            if gap <= limit:
                return True
    return False


@_compiled
def _far_planes(cx: float, cy: float, r: float, v: np.ndarray, limit: float) -> np.ndarray:
    """The half-planes ``n . x <= c`` of a convex polygon end's sides pushed out by
    ``limit`` and a margin far beyond rounding: a shape wholly beyond one of them is farther
    than ``limit`` from the end (see :func:`_beyond_a_plane`). A disc end gets none (the exact
    test is cheap for it)."""
    n = len(v)
    turning = 0.0
    for k in range(n):
        f = (k + 1) % n
        turning += v[k, 0] * v[f, 1] - v[f, 0] * v[k, 1]
    outward = 1.0 if turning >= 0 else -1.0
    planes = np.empty((n, 3))
    count = 0
    for k in range(n):
        f = (k + 1) % n
        ex, ey = v[f, 0] - v[k, 0], v[f, 1] - v[k, 1]
        length = _length(ex, ey)
        if length <= 0:
            continue
        nx, ny = outward * ey / length, -outward * ex / length
        planes[count, 0], planes[count, 1] = nx, ny
        planes[count, 2] = nx * v[k, 0] + ny * v[k, 1] + limit + _SKIP_MARGIN
        count += 1
    return planes[:count]


@_compiled
def _disc_part(cx: float, cy: float, r: float) -> np.ndarray:
    """A 16-gon inscribed in a disc: a convex part of it."""
    points = np.empty((16, 2))
    for k in range(16):
        points[k, 0], points[k, 1] = cx + r * _SIXTEENTHS[k, 0], cy + r * _SIXTEENTHS[k, 1]
    return points


@_compiled
def separator_between(
    acx: float,
    acy: float,
    ar: float,
    av: np.ndarray,
    bcx: float,
    bcy: float,
    br: float,
    bv: np.ndarray,
    scene: SceneArrays,
    walls: np.ndarray,
    count: int,
    grow: float,
) -> np.ndarray:
    """Walls standing between ``a`` and ``b``: one convex wall (:func:`wall_across`), else a
    barrier of several (:func:`barrier_across`), both from one pair of outer tangents; empty
    when neither is found."""
    empty = np.zeros(0, dtype=np.int32)
    if count == 0:
        return empty
    ok, tangents = outer_tangents(acx, acy, ar, av, bcx, bcy, br, bv)
    if not ok:
        return empty
    if _has_convex(scene, walls, count):
        wall = wall_across(acx, acy, ar, av, bcx, bcy, br, bv, tangents, scene, walls, count, grow)
        if wall >= 0:
            return np.array([wall], dtype=np.int32)
    return barrier_across(acx, acy, ar, av, bcx, bcy, br, bv, tangents, scene, walls, count, grow)


@_compiled_inline
def _part_of(
    kind: int, disc: np.ndarray, part_vertices: np.ndarray, part_ranges: np.ndarray, row: int
) -> np.ndarray:
    """A convex part of a blocker: a disc's inscribed 16-gon, or rows ``part_ranges[row]`` of
    ``part_vertices`` (the scene's arrays taken one by one: see :func:`_rows`)."""
    if kind == 1:
        return _disc_part(disc[0], disc[1], disc[2])
    return _rows(part_vertices, part_ranges, row)


@_compiled
def barrier_across(
    acx: float,
    acy: float,
    ar: float,
    av: np.ndarray,
    bcx: float,
    bcy: float,
    br: float,
    bv: np.ndarray,
    tangents: np.ndarray,
    scene: SceneArrays,
    walls: np.ndarray,
    count: int,
    grow: float,
) -> np.ndarray:
    """Walls joined into one barrier across the hull of ``a`` and ``b``, given the two shapes'
    outer common tangents (:func:`outer_tangents`; ``count > 0``): the blockers of the barrier,
    or an empty array.

    Let ``H`` be the hull of the two shapes, bounded by the two outer common tangents and an arc
    of each shape. A connected blocked set inside ``H`` that meets both tangents and neither
    shape cuts ``H`` in two, ``a``'s arc on one side and ``b``'s on the other, so every segment
    from ``a`` to ``b`` crosses it. The barrier is built from convex parts of the walls (every
    point within ``grow`` of a wall's core blocks) clipped to a polygon inside ``H`` (the
    tangent points and polygons inscribed in the shapes): two clipped parts closer than twice
    the reach are joined by a blocked segment inside ``H``, a part within reach of a tangent
    meets it there."""
    empty = np.zeros(0, dtype=np.int32)
    first = av if len(av) else _disc_part(acx, acy, ar)
    second = bv if len(bv) else _disc_part(bcx, bcy, br)
    points = np.empty((len(first) + len(second) + 4, 2))
    points[: len(first)] = first
    points[len(first) : len(first) + len(second)] = second
    for s in range(2):
        row = len(first) + len(second) + 2 * s
        points[row, 0], points[row, 1] = tangents[s, 0], tangents[s, 1]
        points[row + 1, 0], points[row + 1, 1] = tangents[s, 2], tangents[s, 3]
    ends = len(first) + len(second)
    hull = points[
        _hull_indices_of_runs(points, np.array([0, len(first), ends, ends + 2, ends + 4]))
    ]
    n_hull = len(hull)
    if n_hull < 3:
        return empty
    planes = np.empty((n_hull, 3))
    lengths = np.empty(n_hull)
    for k in range(n_hull):
        f = (k + 1) % n_hull
        ex, ey = hull[f, 0] - hull[k, 0], hull[f, 1] - hull[k, 1]
        length = _length(ex, ey)
        if length <= 0:
            return empty
        nx, ny = ey / length, -ex / length
        planes[k, 0], planes[k, 1], planes[k, 2] = nx, ny, nx * hull[k, 0] + ny * hull[k, 1]
        lengths[k] = length
    # The hull's two longest sides are (nearly always) the outer tangents, and most parts that
    # pass the box test but lie outside the hull lie beyond one of them: those two planes are
    # tried first, before the clip tries every side in turn.
    sides = np.argsort(lengths)
    long_sides = planes[sides[-2:]]
    # A part beyond a side of an end by more than ``grow`` cannot touch it: the exact distance
    # (every side of the part against every side of the end: a unit's hull has dozens) is only
    # worked out for the others.
    far_from_a = _far_planes(acx, acy, ar, av, grow)
    far_from_b = _far_planes(bcx, bcy, br, bv, grow)
    reach = grow - 2 * GRAZE
    # A segment is a polygon of two corners: its two planes are its line, seen from each side.
    tangent_segments = (tangents[0].reshape(2, 2).copy(), tangents[1].reshape(2, 2).copy())
    far_from_tangent = (
        _far_planes(0.0, 0.0, 0.0, tangent_segments[0], reach),
        _far_planes(0.0, 0.0, 0.0, tangent_segments[1], reach),
    )
    hull_x0, hull_y0 = hull[:, 0].min(), hull[:, 1].min()
    hull_x1, hull_y1 = hull[:, 0].max(), hull[:, 1].max()
    reach_box = np.array([[hull_x0 - grow, hull_y0 - grow, hull_x1 + grow, hull_y1 + grow]])
    # Most parts lie outside the hull's box or beyond an outer tangent: those are passed over
    # before room is made for the clipped copies of the others.
    total = 0
    for m in range(count):
        k = walls[m]
        if not _row_apart(scene.blocker_boxes, k, reach_box, 0):
            total += (
                1
                if scene.blocker_kind[k] == 1
                else scene.blocker_parts[k, 1] - scene.blocker_parts[k, 0]
            )
    inside_wall = np.empty(total, dtype=np.int32)
    inside_piece = np.empty(total, dtype=np.int64)
    n_inside = 0
    discs = scene.blocker_disc
    for m in range(count):
        k = walls[m]
        if _row_apart(scene.blocker_boxes, k, reach_box, 0):
            continue
        pieces = (
            1
            if scene.blocker_kind[k] == 1
            else scene.blocker_parts[k, 1] - scene.blocker_parts[k, 0]
        )
        for piece in range(pieces):
            if scene.blocker_kind[k] == 1:
                # A disc's part, its inscribed 16-gon, has the disc's box, and every corner of
                # it lies beyond a side the disc's centre is more than its radius beyond (a
                # part beyond a side while its disc is not is cut away whole by the clip): the
                # polygon is only made for the parts kept.
                dx, dy, dr = discs[k, 0], discs[k, 1], discs[k, 2]
                if dx + dr < hull_x0 or dx - dr > hull_x1 or dy + dr < hull_y0 or dy - dr > hull_y1:
                    continue
                beyond = False
                for p in range(len(long_sides)):
                    beyond = beyond or (
                        long_sides[p, 0] * dx + long_sides[p, 1] * dy - long_sides[p, 2] > dr
                    )
                if beyond:
                    continue
            else:
                row = scene.blocker_parts[k, 0] + piece
                part = scene.part_vertices[scene.part_ranges[row, 0] : scene.part_ranges[row, 1]]
                px0, py0, px1, py1 = _shape_bounds(0.0, 0.0, 0.0, part)
                if px1 < hull_x0 or px0 > hull_x1 or py1 < hull_y0 or py0 > hull_y1:
                    continue
                if _beyond_a_plane(part, long_sides):
                    continue
            inside_wall[n_inside] = k
            inside_piece[n_inside] = piece
            n_inside += 1
    clipped = np.empty((n_inside, 128, 2))
    sizes = np.zeros(n_inside, dtype=np.int64)
    owner = np.empty(n_inside, dtype=np.int32)
    boxes = np.empty((n_inside, 4))
    touches = np.zeros((n_inside, 2), dtype=np.bool_)
    kept = 0
    for n in range(n_inside):
        k = inside_wall[n]
        part = _part_of(
            scene.blocker_kind[k],
            scene.blocker_disc[k],
            scene.part_vertices,
            scene.part_ranges,
            scene.blocker_parts[k, 0] + inside_piece[n],
        )
        q = _clip(part, planes)
        if len(q) == 0 or len(q) > 128:
            continue
        if not _beyond_a_plane(q, far_from_a) and _close_to(q, acx, acy, ar, av, grow):
            continue
        if not _beyond_a_plane(q, far_from_b) and _close_to(q, bcx, bcy, br, bv, grow):
            continue
        for s in range(2):
            touches[kept, s] = not _beyond_a_plane(q, far_from_tangent[s]) and _close_to(
                q, 0.0, 0.0, 0.0, tangent_segments[s], reach
            )
        clipped[kept, : len(q)] = q
        sizes[kept] = len(q)
        owner[kept] = k
        boxes[kept, 0], boxes[kept, 1], boxes[kept, 2], boxes[kept, 3] = _shape_bounds(
            0.0, 0.0, 0.0, q
        )
        kept += 1
    if kept == 0 or not touches[:kept, 0].any() or not touches[:kept, 1].any():
        return empty
    # The parts joined to a part on the first tangent are found one group at a time, in the
    # order of that part, and only those groups: most parts are never compared with others.
    group = np.full(kept, -1, dtype=np.int64)
    queue = np.empty(kept, dtype=np.int64)
    for start in range(kept):
        if not touches[start, 0] or group[start] >= 0:
            continue
        group[start] = start
        queue[0] = start
        head, tail = 0, 1
        crosses = False
        while head < tail:
            i = queue[head]
            head += 1
            crosses = crosses or touches[i, 1]
            qi = clipped[i, : sizes[i]]
            for j in range(kept):
                if group[j] >= 0 or (
                    boxes[i, 0] - 2 * reach > boxes[j, 2]
                    or boxes[j, 0] - 2 * reach > boxes[i, 2]
                    or boxes[i, 1] - 2 * reach > boxes[j, 3]
                    or boxes[j, 1] - 2 * reach > boxes[i, 3]
                ):
                    continue
                if _close_to(qi, 0.0, 0.0, 0.0, clipped[j, : sizes[j]], 2 * reach):
                    group[j] = start
                    queue[tail] = j
                    tail += 1
        if crosses:
            members = np.zeros(len(scene.blocker_kind), dtype=np.bool_)
            for m in range(tail):
                members[owner[queue[m]]] = True
            return np.flatnonzero(members).astype(np.int32)
    return empty


# ---------------------------------------------------------------------------------------------
# The search of one pair of end shapes


_CUT_DISC_SIDES = 64
"""Sides of the polygon standing in for a disc blocker cut to where sight lines are low over it:
inscribed where the cut part must lie inside the blocker, circumscribed where it must cover it
(64 sides: the two differ by 0.1% of the radius)."""


@_compiled
def _disc_polygon(cx: float, cy: float, r: float, covering: bool) -> np.ndarray:
    """A regular polygon inscribed in the disc, or (``covering``) circumscribed about it."""
    sides = _CUT_DISC_SIDES
    radius = r / math.cos(math.pi / sides) if covering else r
    points = np.empty((sides, 2))
    for k in range(sides):
        angle = (k + 0.5) * (2.0 * math.pi / sides) if covering else k * (2.0 * math.pi / sides)
        points[k, 0], points[k, 1] = cx + radius * math.cos(angle), cy + radius * math.sin(angle)
    return points


@_compiled
def _extent(
    cx: float, cy: float, r: float, v: np.ndarray, ux: float, uy: float
) -> tuple[float, float]:
    """The least and greatest ``u . x`` over an end shape."""
    if len(v) == 0:
        centre = ux * cx + uy * cy
        return centre - r, centre + r
    lowest, highest = math.inf, -math.inf
    for k in range(len(v)):
        along = ux * v[k, 0] + uy * v[k, 1]
        lowest, highest = min(lowest, along), max(highest, along)
    return lowest, highest


@_compiled
def _low_parts(
    acx: float,
    acy: float,
    ar: float,
    av: np.ndarray,
    bcx: float,
    bcy: float,
    br: float,
    bv: np.ndarray,
    scene: SceneArrays,
    mixed: np.ndarray,
    mixed_lo: np.ndarray,
    mixed_hi: np.ndarray,
    count: int,
    grow: float,
    covering: bool,
) -> tuple[bool, np.ndarray, np.ndarray]:
    """The convex parts of the first ``count`` mixed-height blockers, cut to where segments from
    ``a`` to ``b`` are low over them: ``(apart, vertices, ranges)``.

    Project on ``u``, the unit vector from ``a``'s centre to ``b``'s. A point ``x`` of segment
    ``p -> q`` is at parameter ``t`` with ``u.x = u.p + t (u.q - u.p)``, so a segment low up to
    ``t1`` is low over ``x`` exactly when ``u.x <= (1 - t1) u.p + t1 u.q``. Taking the least
    ``u.p`` and ``u.q`` over the shapes (less ``grow``) bounds where *every* segment is low over
    the grown blocker: those parts, grown, only ever block segments that are blocked. With
    ``covering``, taking the greatest (plus ``grow``) bounds where *some* segment may be low:
    those parts, grown, cover every place a segment is low over the grown blocker, so a
    segment they leave free is free. Blockers low from ``t0`` to ``b`` mirror this. The bounds
    need every segment to run forward along ``u``; ``apart`` is false (no parts) when the shapes
    overlap along it."""
    dx, dy = bcx - acx, bcy - acy
    length = _length(dx, dy)
    if length == 0.0:
        return False, np.empty((0, 2)), np.empty((0, 2), dtype=np.int32)
    ux, uy = dx / length, dy / length
    a_lo, a_hi = _extent(acx, acy, ar, av, ux, uy)
    b_lo, b_hi = _extent(bcx, bcy, br, bv, ux, uy)
    if b_lo <= a_hi:
        return False, np.empty((0, 2)), np.empty((0, 2), dtype=np.int32)
    rows = 0
    parts = 0
    for m in range(count):
        k = mixed[m]
        if scene.blocker_kind[k] == 1:
            rows += _CUT_DISC_SIDES + 1
            parts += 1
            continue
        for p in range(scene.blocker_parts[k, 0], scene.blocker_parts[k, 1]):
            rows += scene.part_ranges[p, 1] - scene.part_ranges[p, 0] + 1
            parts += 1
    vertices = np.empty((rows, 2))
    ranges = np.empty((parts, 2), dtype=np.int32)
    rows = 0
    parts = 0
    plane = np.empty((1, 3))
    for m in range(count):
        k = mixed[m]
        t0, t1 = mixed_lo[m], mixed_hi[m]
        if t0 == 0.0:
            if covering:
                bound = (1.0 - t1) * a_hi + t1 * b_hi + grow
            else:
                bound = (1.0 - t1) * a_lo + t1 * b_lo - grow
            plane[0, 0], plane[0, 1], plane[0, 2] = ux, uy, bound
        else:
            if covering:
                bound = (1.0 - t0) * a_lo + t0 * b_lo - grow
            else:
                bound = (1.0 - t0) * a_hi + t0 * b_hi + grow
            plane[0, 0], plane[0, 1], plane[0, 2] = -ux, -uy, -bound
        if scene.blocker_kind[k] == 1:
            d = scene.blocker_disc[k]
            first, last = 0, 1
        else:
            first, last = scene.blocker_parts[k, 0], scene.blocker_parts[k, 1]
        for p in range(first, last):
            if scene.blocker_kind[k] == 1:
                part = _disc_polygon(d[0], d[1], d[2], covering)
            else:
                part = scene.part_vertices[scene.part_ranges[p, 0] : scene.part_ranges[p, 1]]
            cut = _clip(part, plane)
            if len(cut) < 3:
                continue
            vertices[rows : rows + len(cut)] = cut
            ranges[parts, 0], ranges[parts, 1] = rows, rows + len(cut)
            rows += len(cut)
            parts += 1
    return True, vertices[:rows], ranges[:parts]


@_compiled
def _with_walls(
    scene: SceneArrays, vertices: np.ndarray, ranges: np.ndarray
) -> tuple[SceneArrays, np.ndarray]:
    """The scene with convex polygons (``ranges`` rows of ``vertices``) added as blockers that
    are walls for every sight line, and the indices they take."""
    old = len(scene.blocker_kind)
    added = len(ranges)
    total = old + added
    kind = np.zeros(total, dtype=np.int8)
    kind[:old] = scene.blocker_kind
    top = np.full(total, math.inf)
    top[:old] = scene.blocker_top
    disc = np.zeros((total, 3))
    disc[:old] = scene.blocker_disc
    rows = len(scene.blocker_vertices)
    all_vertices = np.empty((rows + len(vertices), 2))
    all_vertices[:rows] = scene.blocker_vertices
    all_vertices[rows:] = vertices
    all_ranges = np.empty((total, 2), dtype=np.int32)
    all_ranges[:old] = scene.blocker_ranges
    all_ranges[old:] = ranges + rows
    boxes = np.empty((total, 4))
    boxes[:old] = scene.blocker_boxes
    boxes[old:], _ = _derive_blockers(kind[old:], disc[old:], all_vertices, all_ranges[old:])
    convex = np.ones(total, dtype=np.bool_)
    convex[:old] = scene.blocker_convex
    kinds = np.zeros(total, dtype=np.int8)
    kinds[:old] = scene.blocker_class
    piece = np.full(total, -1, dtype=np.int32)
    piece[:old] = scene.blocker_piece
    unit = np.full(total, -1, dtype=np.int32)
    unit[:old] = scene.blocker_unit
    part_rows = len(scene.part_vertices)
    part_vertices = np.empty((part_rows + len(vertices), 2))
    part_vertices[:part_rows] = scene.part_vertices
    part_vertices[part_rows:] = vertices
    old_parts = len(scene.part_ranges)
    part_ranges = np.empty((old_parts + added, 2), dtype=np.int32)
    part_ranges[:old_parts] = scene.part_ranges
    part_ranges[old_parts:] = ranges + part_rows
    blocker_parts = np.empty((total, 2), dtype=np.int32)
    blocker_parts[:old] = scene.blocker_parts
    for m in range(added):
        blocker_parts[old + m, 0], blocker_parts[old + m, 1] = old_parts + m, old_parts + m + 1
    extended = SceneArrays(
        kind,
        top,
        disc,
        all_vertices,
        all_ranges,
        boxes,
        convex,
        kinds,
        piece,
        unit,
        scene.model_disc,
        scene.model_vertices,
        scene.model_ranges,
        scene.model_top,
        scene.model_foot,
        scene.model_unit,
        scene.within,
        scene.obscuring_blocks,
        scene.model_outline,
        part_vertices,
        part_ranges,
        blocker_parts,
    )
    return extended, np.arange(old, total).astype(np.int32)


@_compiled
def _free_past_cut_parts(
    acx: float,
    acy: float,
    ar: float,
    av: np.ndarray,
    bcx: float,
    bcy: float,
    br: float,
    bv: np.ndarray,
    scene: SceneArrays,
    walls: np.ndarray,
    n_walls: int,
    mixed: np.ndarray,
    mixed_lo: np.ndarray,
    mixed_hi: np.ndarray,
    n_mixed: int,
    grow: float,
    covering: bool,
    planes: np.ndarray,
) -> tuple[int, float, float, float, float]:
    """The walls and the mixed-height blockers cut by :func:`_low_parts`, all taken as walls: a
    plan search, exact by the critical-line argument. ``(-1, ...)`` when the shapes overlap
    along their axis; else ``(1, x0, y0, x1, y1)`` with a free segment or ``(0, ...)``."""
    apart, vertices, ranges = _low_parts(
        acx,
        acy,
        ar,
        av,
        bcx,
        bcy,
        br,
        bv,
        scene,
        mixed,
        mixed_lo,
        mixed_hi,
        n_mixed,
        grow,
        covering,
    )
    if not apart:
        return -1, 0.0, 0.0, 0.0, 0.0
    extended, cut = _with_walls(scene, vertices, ranges)
    count = n_walls + len(cut)
    active = np.empty(count, dtype=np.int32)
    active[:n_walls] = walls[:n_walls]
    active[n_walls:] = cut
    lo = np.zeros(count)
    hi = np.ones(count)
    lines = critical_lines(
        acx, acy, ar, av, bcx, bcy, br, bv, extended, active, count, 0, grow, False, planes, False
    )
    ok, x0, y0, x1, y1 = first_free(
        lines, acx, acy, ar, av, bcx, bcy, br, bv, extended, active, lo, hi, count, grow, 1
    )
    return (1 if ok else 0), x0, y0, x1, y1


@_compiled
def pair_search(
    acx: float,
    acy: float,
    ar: float,
    av: np.ndarray,
    h_a: float,
    bcx: float,
    bcy: float,
    br: float,
    bv: np.ndarray,
    h_b: float,
    scene: SceneArrays,
    blockers: np.ndarray,
    grow: float,
    cheap: bool,
    every_line_near_ends: bool,
) -> tuple[int, np.ndarray, np.ndarray]:
    """Find a segment from ``a`` (at height ``h_a``) to ``b`` (at ``h_b``) whose line misses
    every blocker grown by ``grow`` (grazing counts as free), or prove there is none.

    Returns ``(status, segment, in_the_way)``: ``segment`` is ``(x0, y0, x1, y1)`` when found;
    ``in_the_way`` the blockers a "not found" rests on: for a proof by critical lines, those
    that stop one (without any other, the critical lines are fewer and each still stopped; a
    blocker added elsewhere never frees a line), so a cached proof outlives the moves of every
    other model. The stages, the bracket of mixed-height blockers and when a "none" is a proof:
    walls and obscuring areas make the critical-line argument exact; a mixed blocker is left
    out unless every segment is low over all of it (no segment free then is a proof: most
    pairs that get this far are hidden, so this comes first), then taken as a wall (a segment
    free then is free), then cut to where every segment is surely low over it
    (:func:`_low_parts`: no segment free then is a proof too). In between, every
    critical line is tried at the true heights with three end choices, then segments between
    points spread over both shapes, and last the plan search past the blockers cut to where a
    segment may be low (a segment free then is free). Only a pair these leave open is
    :data:`UNPROVEN`. ``every_line_near_ends`` is passed to the stage that takes mixed
    blockers as walls (see :func:`critical_lines`): the one whose witness a caller may use
    beyond its being free."""
    segment = np.zeros(4)
    # The blockers low somewhere along the segments, in one array: the walls (low all along)
    # first, then the mixed ones, each in their given order (two passes, so that no array is
    # made for each kind: a search is run for every model pair).
    low_blockers = np.empty(len(blockers), dtype=np.int32)
    n_walls = 0
    n_mixed = 0
    for m in range(len(blockers)):
        low, t0, t1 = low_interval(h_a, h_b, scene.blocker_top[blockers[m]])
        if low and t0 == 0.0 and t1 == 1.0:
            low_blockers[n_walls] = blockers[m]
            n_walls += 1
        elif low:
            n_mixed += 1
    both = n_walls + n_mixed
    mixed_lo = np.empty(n_mixed)
    mixed_hi = np.empty(n_mixed)
    placed = n_walls
    for m in range(len(blockers) if n_mixed > 0 else 0):
        low, t0, t1 = low_interval(h_a, h_b, scene.blocker_top[blockers[m]])
        if low and not (t0 == 0.0 and t1 == 1.0):
            low_blockers[placed] = blockers[m]
            mixed_lo[placed - n_walls] = t0
            mixed_hi[placed - n_walls] = t1
            placed += 1
    full = low_blockers[:both]
    walls = full[:n_walls]
    mixed = full[n_walls:]
    whole_lo = np.zeros(both)
    whole_hi = np.ones(both)
    in_the_way = full
    lines = cheap_lines(acx, acy, ar, av, bcx, bcy, br, bv)
    ok, x0, y0, x1, y1 = first_free(
        lines, acx, acy, ar, av, bcx, bcy, br, bv, scene, full, whole_lo, whole_hi, both, grow, 1
    )
    if ok:
        segment[0], segment[1], segment[2], segment[3] = x0, y0, x1, y1
        return FOUND, segment, in_the_way[:0]
    if cheap:
        return UNPROVEN, segment, in_the_way
    planes = corridor(acx, acy, ar, av, bcx, bcy, br, bv)
    barrier = separator_between(acx, acy, ar, av, bcx, bcy, br, bv, scene, walls, n_walls, grow)
    if len(barrier):
        return NONE, segment, barrier
    shapes = (acx, acy, ar, av, bcx, bcy, br, bv)
    if n_mixed > 0:
        # The walls and the mixed blockers every segment is low over decide "not visible" on
        # their own; most pairs that get this far are hidden, so the proof comes first.
        sure = np.empty(both, dtype=np.int32)
        sure[:n_walls] = walls[:n_walls]
        n_sure = n_walls
        for m in range(n_mixed):
            if _always_low(*shapes, scene, mixed[m], mixed_lo[m], mixed_hi[m], grow):
                sure[n_sure] = mixed[m]
                n_sure += 1
        lines = critical_lines(*shapes, scene, sure, n_sure, 0, grow, False, planes, False)
        stopping = np.zeros(n_sure, dtype=np.bool_)
        ok, _, _, _, _ = first_free_marking(
            lines, shapes, scene, sure, whole_lo, whole_hi, n_sure, grow, 1, stopping
        )
        if not ok:
            proof = sure[:n_sure][stopping] if stopping.any() else sure[:n_sure].copy()
            return NONE, segment, proof
    lines = critical_lines(*shapes, scene, full, both, 0, grow, False, planes, every_line_near_ends)
    stopping = np.zeros(both, dtype=np.bool_)
    ok, x0, y0, x1, y1 = first_free_marking(
        lines, shapes, scene, full, whole_lo, whole_hi, both, grow, 1, stopping
    )
    if ok:
        segment[0], segment[1], segment[2], segment[3] = x0, y0, x1, y1
        return FOUND, segment, in_the_way[:0]
    if n_mixed == 0:
        return NONE, segment, full[stopping] if stopping.any() else in_the_way
    cut = (acx, acy, ar, av, bcx, bcy, br, bv, scene, walls, n_walls, mixed, mixed_lo, mixed_hi)
    free, _, _, _, _ = _free_past_cut_parts(*cut, n_mixed, grow, False, planes)
    if free == 0:
        return NONE, segment, in_the_way
    exact_lo = np.zeros(both)
    exact_hi = np.ones(both)
    exact_lo[n_walls:] = mixed_lo[:n_mixed]
    exact_hi[n_walls:] = mixed_hi[:n_mixed]
    first = cheap_lines(acx, acy, ar, av, bcx, bcy, br, bv)
    rest = critical_lines(
        acx, acy, ar, av, bcx, bcy, br, bv, scene, full, both, 0, grow, True, planes, True
    )
    lines = np.empty((len(first) + len(rest), 4))
    lines[: len(first)] = first
    lines[len(first) :] = rest
    ok, x0, y0, x1, y1 = first_free(
        lines, acx, acy, ar, av, bcx, bcy, br, bv, scene, full, exact_lo, exact_hi, both, grow, 3
    )
    if not ok:
        starts = _spread(acx, acy, ar, av)
        ends = _spread(bcx, bcy, br, bv)
        for s in range(len(starts)):
            for e in range(len(ends)):
                sx, sy, ex, ey = starts[s, 0], starts[s, 1], ends[e, 0], ends[e, 1]
                if not segment_blocked(
                    sx, sy, ex, ey, scene, full, exact_lo, exact_hi, both, grow, GRAZE
                ):
                    ok, x0, y0, x1, y1 = True, sx, sy, ex, ey
                    break
            if ok:
                break
    if not ok:
        free, x0, y0, x1, y1 = _free_past_cut_parts(*cut, n_mixed, grow, True, planes)
        ok = free == 1
    if ok:
        segment[0], segment[1], segment[2], segment[3] = x0, y0, x1, y1
        return FOUND, segment, in_the_way[:0]
    return UNPROVEN, segment, in_the_way


# ---------------------------------------------------------------------------------------------
# Model pairs and unit pairs of a scene

UNKNOWN_PAIR = 0
SEEN_PAIR = 1
HIDDEN_PAIR = 2
UNPROVEN_PAIR = 3
CHEAP_FAILED_PAIR = 4
MOVED_PROOF_PAIR = 5
"""A "hidden" whose proof rests on a blocker or an end that has moved since: its blockers are
kept and tried alone first when the pair is searched again (a small move seldom takes a model
out from behind what hid it). Never an answer by itself."""


@_compiled_inline
def model_end(
    discs: np.ndarray, vertices: np.ndarray, ranges: np.ndarray, i: int
) -> tuple[float, float, float, np.ndarray]:
    """Model ``i``'s base as an end shape ``(cx, cy, r, vertices)``, from the scene's
    ``model_disc``, ``model_vertices`` and ``model_ranges`` (see :func:`_rows`)."""
    return discs[i, 0], discs[i, 1], discs[i, 2], _rows(vertices, ranges, i)


@_compiled
def gather(scene: SceneArrays, i: int, j: int, mode: int, grow: float) -> np.ndarray:
    """The blockers that may stand between models ``i`` and ``j``, in order: ``mode`` 0 for
    *visible* (models of other units, features, obscuring areas neither model is within, when
    they block), 1 for *fully visible* seen by ``i`` (obscuring areas ``j`` is not within), 2
    the same with terrain alone."""
    everything = np.arange(len(scene.blocker_kind), dtype=np.int32)
    return gather_from(scene, i, j, mode, grow, everything)


@_compiled
def gather_from(
    scene: SceneArrays, i: int, j: int, mode: int, grow: float, candidates: np.ndarray
) -> np.ndarray:
    """:func:`gather` among ``candidates`` (blocker rows), in their order: with every blocker
    :func:`blockers_near` offers for two units, the same blockers as :func:`gather` for any
    model pair of them, found among a few dozen rows rather than the whole scene's."""
    return _gathered(scene, i, j, mode, grow, candidates, True)


@_compiled_inline
def _gathered(
    scene: SceneArrays,
    i: int,
    j: int,
    mode: int,
    grow: float,
    candidates: np.ndarray,
    in_corridor: bool,
) -> np.ndarray:
    """:func:`gather_from`; without ``in_corridor`` the blockers that pass the box and reach
    tests, the exact test against the corridor's sides (and the corridor itself) left out:
    a blocker those sides would turn away lies farther than ``grow`` from every segment
    between the two bases, so no segment test finds it in the way."""
    acx, acy, ar, av = model_end(scene.model_disc, scene.model_vertices, scene.model_ranges, i)
    bcx, bcy, br, bv = model_end(scene.model_disc, scene.model_vertices, scene.model_ranges, j)
    ax0, ay0, ax1, ay1 = _shape_bounds(acx, acy, ar, av)
    bx0, by0, bx1, by1 = _shape_bounds(bcx, bcy, br, bv)
    x0, y0 = min(ax0, bx0) - grow, min(ay0, by0) - grow
    x1, y1 = max(ax1, bx1) + grow, max(ay1, by1) + grow
    # Each end lies in the disc round its box, so the corridor lies within the larger disc's
    # radius of the segment joining their centres: a blocker whose box's disc is farther than
    # that from the segment cannot meet it, and the exact test (its planes) is spared.
    sx, sy = (ax0 + ax1) / 2, (ay0 + ay1) / 2
    vx, vy = (bx0 + bx1) / 2 - sx, (by0 + by1) / 2 - sy
    reach = max(_length(ax1 - ax0, ay1 - ay0), _length(bx1 - bx0, by1 - by0)) / 2
    reach += grow + GRAZE
    planes = np.empty((0, 3))
    units = (scene.model_unit[i], scene.model_unit[j])
    kinds, discs = scene.blocker_kind, scene.blocker_disc
    vertices, ranges = scene.blocker_vertices, scene.blocker_ranges
    found = np.empty(len(candidates), dtype=np.int32)
    count = 0
    for m in range(len(candidates)):
        k = candidates[m]
        kind = scene.blocker_class[k]
        if kind == MODEL:
            if mode == 2 or scene.blocker_unit[k] == units[0] or scene.blocker_unit[k] == units[1]:
                continue
        elif kind == SCREEN:
            piece = scene.blocker_piece[k]
            if mode == 0:
                if (
                    not scene.obscuring_blocks[0]
                    or scene.within[i, piece]
                    or scene.within[j, piece]
                ):
                    continue
            elif scene.within[j, piece]:
                continue
        # The box's numbers are read one by one, not through a view of its row (whose
        # references numba counts: see :func:`_compiled_leaf`).
        bx0, by0 = scene.blocker_boxes[k, 0], scene.blocker_boxes[k, 1]
        bx1, by1 = scene.blocker_boxes[k, 2], scene.blocker_boxes[k, 3]
        if bx0 > x1 or bx1 < x0 or by0 > y1 or by1 < y0:
            continue
        qx, qy = (bx0 + bx1) / 2, (by0 + by1) / 2
        if _point_segment(qx, qy, sx, sy, vx, vy) > reach + _length(bx1 - bx0, by1 - by0) / 2:
            continue
        if in_corridor:
            if len(planes) == 0:
                planes = corridor(acx, acy, ar, av, bcx, bcy, br, bv)
            if not blocker_meets(kinds, discs, vertices, ranges, k, planes, grow):
                continue
        found[count] = k
        count += 1
    return found[:count]


@_compiled_inline
def checked_search(
    acx: float,
    acy: float,
    ar: float,
    av: np.ndarray,
    h_a: float,
    bcx: float,
    bcy: float,
    br: float,
    bv: np.ndarray,
    h_b: float,
    scene: SceneArrays,
    blockers: np.ndarray,
    grow: float,
    line_half_width: float,
    cheap: bool,
) -> tuple[int, np.ndarray, np.ndarray]:
    """:func:`pair_search`, its witness re-checked: the 1-mm line (``line_half_width`` either
    side) touches no blocker where low enough, touching counted as blocked. The search lets
    lines graze blockers grown a hair more than this, so a failed check only comes from
    rounding; the answer then stays "not found", unproven."""
    status, segment, in_the_way = pair_search(
        acx, acy, ar, av, h_a, bcx, bcy, br, bv, h_b, scene, blockers, grow, cheap, False
    )
    if status != FOUND:
        return status, segment, in_the_way
    relevant, lo, hi = low_spans(scene, blockers, h_a, h_b)
    if segment_blocked(
        segment[0],
        segment[1],
        segment[2],
        segment[3],
        scene,
        relevant,
        lo,
        hi,
        len(relevant),
        line_half_width,
        0.0,
    ):
        return UNPROVEN, segment, relevant.copy()
    return FOUND, segment, in_the_way


@_compiled
def model_pair_search(
    scene: SceneArrays, i: int, j: int, grow: float, line_half_width: float, cheap: bool
) -> tuple[int, np.ndarray, np.ndarray]:
    """The top-to-top search between models ``i`` and ``j`` (see :func:`checked_search`)."""
    scene = _borrowed(scene)
    return _search_past(scene, i, j, gather(scene, i, j, 0, grow), grow, line_half_width, cheap)


@_compiled
def model_pair_search_near(
    scene: SceneArrays,
    i: int,
    j: int,
    grow: float,
    line_half_width: float,
    cheap: bool,
    nearby: np.ndarray,
) -> tuple[int, np.ndarray, np.ndarray]:
    """:func:`model_pair_search`, its blockers gathered from ``nearby`` (the
    :func:`blockers_near` of two groups holding both models): the same search. The cheap
    stage alone (``cheap``) tries its few lines against the blockers the box and reach tests
    keep: the corridor's exact test would cost more than the lines' tests it spares, and finds
    no blocker any of them meets (the cheap stage's failure records no proof)."""
    blockers = _gathered(scene, i, j, 0, grow, nearby, not cheap)
    return _search_past(scene, i, j, blockers, grow, line_half_width, cheap)


@_compiled_inline
def _search_past(
    scene: SceneArrays,
    i: int,
    j: int,
    blockers: np.ndarray,
    grow: float,
    line_half_width: float,
    cheap: bool,
) -> tuple[int, np.ndarray, np.ndarray]:
    """The top-to-top search between models ``i`` and ``j`` past ``blockers`` alone."""
    acx, acy, ar, av = model_end(scene.model_disc, scene.model_vertices, scene.model_ranges, i)
    bcx, bcy, br, bv = model_end(scene.model_disc, scene.model_vertices, scene.model_ranges, j)
    return checked_search(
        acx,
        acy,
        ar,
        av,
        scene.model_top[i],
        bcx,
        bcy,
        br,
        bv,
        scene.model_top[j],
        scene,
        blockers,
        grow,
        line_half_width,
        cheap,
    )


@_compiled
def _unit_points(scene: SceneArrays, models: np.ndarray) -> np.ndarray:
    points, _ = _unit_runs(scene, models, _SIXTEENTHS)
    return points


@_compiled
def _unit_runs(
    scene: SceneArrays, models: np.ndarray, circle: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The points of ``models``' bases (a polygon base's corners; a round base's polygon
    around it, with a corner at each of the unit ``circle``'s points), and where each base's
    run of them starts (with the end as a last start)."""
    total = 0
    for m in models:
        total += max(len(circle), scene.model_ranges[m, 1] - scene.model_ranges[m, 0])
    points = np.empty((total, 2))
    starts = np.empty(len(models) + 1, dtype=np.int64)
    count = 0
    for n in range(len(models)):
        cx, cy, r, v = model_end(
            scene.model_disc, scene.model_vertices, scene.model_ranges, models[n]
        )
        pts = _points_around(cx, cy, r, v, circle)
        starts[n] = count
        points[count : count + len(pts)] = pts
        count += len(pts)
    starts[len(models)] = count
    return points[:count], starts


@_compiled
def unit_hull(scene: SceneArrays, models: np.ndarray) -> np.ndarray:
    """The hull of ``models``' bases, counter-clockwise: :func:`convex_hull` of
    :func:`_unit_points`, made by merging each base's polygon (convex, counter-clockwise) as a
    run (:func:`_hull_indices_of_runs`) rather than sorting loose points: the same hull, made
    for every part of every unit pair a separator is looked for between."""
    points, starts = _unit_runs(scene, models, _SIXTEENTHS)
    hull: np.ndarray = points[_hull_indices_of_runs(points, starts)]
    return hull


@_compiled
def proof_hull(scene: SceneArrays, models: np.ndarray) -> np.ndarray:
    """:func:`unit_hull` with each round base taken as the octagon around it, not the 16-gon:
    the hulls a proof between two groups (:func:`hulls_hidden_growing`) draws its critical
    lines from. Every segment between two bases still runs between the two hulls, so a proof
    for them is one for the bases; with half the corners, a proof tries about a sixth fewer
    lines (on the stress board's unit pairs, 15% less time, and no proof lost on the three
    benchmark boards: the octagon stands at most 8% of the radius off the base)."""
    points, starts = _unit_runs(scene, models, _EIGHTHS)
    hull: np.ndarray = points[_hull_indices_of_runs(points, starts)]
    return hull


NEAR_MARGIN = 1e-7
"""Slack of :func:`blockers_near`'s distance test over :func:`gather`'s, for rounding: a
blocker is left out only when it is surely out of reach of every model pair."""


@_compiled
def blockers_near(
    scene: SceneArrays,
    observers: np.ndarray,
    targets: np.ndarray,
    hull_a: np.ndarray,
    hull_b: np.ndarray,
    grow: float,
) -> np.ndarray:
    """Every blocker :func:`gather` may offer (for *visible*) between a model of
    ``observers`` and one of ``targets``, whose bases' hulls are ``hull_a`` and ``hull_b``, in
    row order: :func:`gather`'s own tests made once for every pair. A blocker whose box misses
    the box of every base grown by ``grow`` misses each pair's; one farther from the hull of
    both hulls than the widest base's reach plus its own (the hull's sides bound a point's
    distance to it from below) is as far from the segment joining any two bases' centres.
    The models of the two units are left out; obscuring areas are left to each pair (a model
    may be within one).

    >>> import numpy as np
    >>> walls = scene_arrays(
    ...     blocker_kind=[0, 0], blocker_top=[5.0, 5.0], blocker_disc=[(0, 0, 0)] * 2,
    ...     blocker_vertices=[(4, -3), (5, -3), (5, 3), (4, 3),
    ...                       (4, 9), (5, 9), (5, 12), (4, 12)],
    ...     blocker_ranges=[(0, 4), (4, 8)],
    ...     model_disc=[(0, 0, 0.5), (10, 0, 0.5)], model_vertices=np.zeros((0, 2)),
    ...     model_ranges=[(0, 0)] * 2, model_top=[1.5] * 2, model_foot=[0.0] * 2,
    ...     model_unit=[0, 1])
    >>> one, other = np.array([0]), np.array([1])
    >>> hull_a, hull_b = unit_hull(walls, one), unit_hull(walls, other)
    >>> blockers_near(walls, one, other, hull_a, hull_b, 0.02)
    array([0], dtype=int32)
    """
    x0, y0, x1, y1 = math.inf, math.inf, -math.inf, -math.inf
    reach = 0.0
    for group in (observers, targets):
        for m in group:
            cx, cy, r, v = model_end(scene.model_disc, scene.model_vertices, scene.model_ranges, m)
            bx0, by0, bx1, by1 = _shape_bounds(cx, cy, r, v)
            x0, y0, x1, y1 = min(x0, bx0), min(y0, by0), max(x1, bx1), max(y1, by1)
            reach = max(reach, _length(bx1 - bx0, by1 - by0) / 2)
    x0, y0, x1, y1 = x0 - grow, y0 - grow, x1 + grow, y1 + grow
    reach += grow + GRAZE + NEAR_MARGIN
    acx, acy = hull_a[:, 0].mean(), hull_a[:, 1].mean()
    bcx, bcy = hull_b[:, 0].mean(), hull_b[:, 1].mean()
    planes = corridor(acx, acy, 0.0, hull_a, bcx, bcy, 0.0, hull_b)
    units = (scene.model_unit[observers[0]], scene.model_unit[targets[0]])
    found = np.empty(len(scene.blocker_kind), dtype=np.int32)
    count = 0
    for k in range(len(scene.blocker_kind)):
        if scene.blocker_class[k] == MODEL and (
            scene.blocker_unit[k] == units[0] or scene.blocker_unit[k] == units[1]
        ):
            continue
        if _row_apart_from(scene.blocker_boxes, k, x0, y0, x1, y1):
            continue
        bx0, by0 = scene.blocker_boxes[k, 0], scene.blocker_boxes[k, 1]
        bx1, by1 = scene.blocker_boxes[k, 2], scene.blocker_boxes[k, 3]
        qx, qy = (bx0 + bx1) / 2, (by0 + by1) / 2
        limit = reach + _length(bx1 - bx0, by1 - by0) / 2
        far = False
        for p in range(len(planes)):
            if planes[p, 0] * qx + planes[p, 1] * qy - planes[p, 2] > limit:
                far = True
                break
        if far:
            continue
        found[count] = k
        count += 1
    return found[:count]


@_compiled
def unit_separator_among(
    scene: SceneArrays,
    observers: np.ndarray,
    targets: np.ndarray,
    candidates: np.ndarray,
    grow: float,
) -> np.ndarray:
    """Blockers among ``candidates`` (every blocker, or say the barrier that separated the two
    units before one of them moved) standing between two groups of bases as a whole: one
    convex blocker (see :func:`wall_across`) or a barrier of several
    (:func:`barrier_across`), each at least as tall as every model involved and in the way of
    every model pair (no obscuring area any of them is within); empty when none is found."""
    scene = _borrowed(scene)
    return _separator_of_hulls(
        scene,
        observers,
        targets,
        unit_hull(scene, observers),
        unit_hull(scene, targets),
        candidates,
        grow,
    )


@_compiled
def _separator_of_hulls(
    scene: SceneArrays,
    observers: np.ndarray,
    targets: np.ndarray,
    hull_a: np.ndarray,
    hull_b: np.ndarray,
    candidates: np.ndarray,
    grow: float,
) -> np.ndarray:
    """:func:`unit_separator_among` with the hulls of the two groups' bases given."""
    tallest, sheltered = _tallest_and_sheltered(scene, observers, targets)
    return hull_separator(
        scene,
        hull_a,
        hull_b,
        tallest,
        scene.model_unit[observers[0]],
        scene.model_unit[targets[0]],
        sheltered,
        candidates,
        grow,
    )


@_compiled
def _tallest_and_sheltered(
    scene: SceneArrays, observers: np.ndarray, targets: np.ndarray
) -> tuple[float, np.ndarray]:
    """The top of the tallest model of both groups, and the pieces any of them is within."""
    tallest = -math.inf
    sheltered = np.zeros(scene.within.shape[1], dtype=np.bool_)
    for group in (observers, targets):
        for m in group:
            tallest = max(tallest, scene.model_top[m])
            sheltered |= scene.within[m]
    return tallest, sheltered


@_compiled
def walls_between_hulls(
    scene: SceneArrays,
    hull_a: np.ndarray,
    hull_b: np.ndarray,
    tallest: float,
    unit_a: int,
    unit_b: int,
    sheltered: np.ndarray,
    candidates: np.ndarray,
    grow: float,
) -> np.ndarray:
    """The blockers among ``candidates`` that are walls for every sight line from the convex
    polygon ``hull_a`` to ``hull_b`` no higher than ``tallest`` and may stand between them (their
    boxes meet the two hulls' box grown by ``grow``): at least ``tallest`` high, no model of the
    units ``unit_a`` and ``unit_b``, and no obscuring area of a piece marked in ``sheltered``
    (one a model of either side is within)."""
    x0 = min(hull_a[:, 0].min(), hull_b[:, 0].min()) - grow
    y0 = min(hull_a[:, 1].min(), hull_b[:, 1].min()) - grow
    x1 = max(hull_a[:, 0].max(), hull_b[:, 0].max()) + grow
    y1 = max(hull_a[:, 1].max(), hull_b[:, 1].max()) + grow
    walls = np.empty(len(candidates), dtype=np.int32)
    count = 0
    for k in candidates:
        if scene.blocker_top[k] < tallest:
            continue
        kind = scene.blocker_class[k]
        if kind == MODEL and (scene.blocker_unit[k] == unit_a or scene.blocker_unit[k] == unit_b):
            continue
        if kind == SCREEN and (not scene.obscuring_blocks[0] or sheltered[scene.blocker_piece[k]]):
            continue
        if (
            scene.blocker_boxes[k, 0] > x1
            or scene.blocker_boxes[k, 2] < x0
            or scene.blocker_boxes[k, 1] > y1
            or scene.blocker_boxes[k, 3] < y0
        ):
            continue
        walls[count] = k
        count += 1
    return walls[:count]


@_compiled
def hull_separator(
    scene: SceneArrays,
    hull_a: np.ndarray,
    hull_b: np.ndarray,
    tallest: float,
    unit_a: int,
    unit_b: int,
    sheltered: np.ndarray,
    candidates: np.ndarray,
    grow: float,
) -> np.ndarray:
    """Blockers among ``candidates`` that wall every point of the convex polygon ``hull_a`` off
    from every point of ``hull_b``, for sight lines no higher than ``tallest``: one convex
    blocker (:func:`wall_across`) or a barrier of several (:func:`barrier_across`); empty when
    none is found. Only blockers at least ``tallest`` high take part, no model of the units
    ``unit_a`` and ``unit_b``, and no obscuring area of a piece marked in ``sheltered`` (one a
    model of either side is within): see :func:`walls_between_hulls`."""
    walls = walls_between_hulls(
        scene, hull_a, hull_b, tallest, unit_a, unit_b, sheltered, candidates, grow
    )
    if len(walls) == 0:
        return walls
    a, b = hull_a, hull_b
    acx, acy, bcx, bcy = a[:, 0].mean(), a[:, 1].mean(), b[:, 0].mean(), b[:, 1].mean()
    return separator_between(acx, acy, 0.0, a, bcx, bcy, 0.0, b, scene, walls, len(walls), grow)


# numba's typed containers compile their own methods on first use from Python, in every
# process (about 0.6 s for an empty dict, an empty list, an append and a length, holding the
# GIL); made, grown and measured in compiled functions instead, they load from the cache.
_DICT_TYPE: Any = types.DictType
_CACHE_TYPE = _DICT_TYPE(types.int64, types.float64[::1])


@_compiled
def new_cache() -> Any:
    """An empty cache of model-pair answers for :func:`unit_pair_visible` and the fully-visible
    kernels: each key a model pair (and question), each value ``[state, ...]`` as the kernels
    write it."""
    return Dict.empty(key_type=types.int64, value_type=types.float64[::1])


@_compiled
def new_cache_list() -> Any:
    """An empty list of :func:`new_cache` caches, for kernels that work through many at once
    (:func:`forget_moved_in`)."""
    return List.empty_list(_CACHE_TYPE)


@_compiled
def new_slot(caches: Any) -> tuple[Any, Any]:
    """Two new caches (:func:`new_cache`), for a unit pair's sight and fully-visible answers,
    appended to ``caches`` in that order: one call where four took three times as long (a
    fresh scene makes one per unit pair it is asked about)."""
    sight = new_cache()
    full = new_cache()
    caches.append(sight)
    caches.append(full)
    return sight, full


@_compiled
def _record(status: int, numbers: np.ndarray, blockers: np.ndarray) -> np.ndarray:
    row = np.empty(1 + len(numbers) + len(blockers))
    row[0] = status
    row[1 : 1 + len(numbers)] = numbers
    for m in range(len(blockers)):
        row[1 + len(numbers) + m] = blockers[m]
    return row


@_compiled
def _mark_from(in_the_way: np.ndarray, row: np.ndarray, start: int) -> None:
    for m in range(start, len(row)):
        in_the_way[int(row[m])] = True


@_compiled
def sight_pair(
    scene: SceneArrays, cache: Any, i: int, j: int, cheap: bool, grow: float, line_half_width: float
) -> np.ndarray:
    """The cached top-to-top answer for models ``i`` and ``j``: ``[state, x0, y0, x1, y1,
    blockers...]`` with the segment running from the lower index's model. With ``cheap`` only
    the cheap stage runs for a pair not yet known (state :data:`CHEAP_FAILED_PAIR` if it finds
    nothing)."""
    scene = _borrowed(scene)
    everything = np.arange(len(scene.blocker_kind), dtype=np.int32)
    return sight_pair_near(scene, cache, i, j, cheap, grow, line_half_width, everything)


@_compiled
def sight_pair_near(
    scene: SceneArrays,
    cache: Any,
    i: int,
    j: int,
    cheap: bool,
    grow: float,
    line_half_width: float,
    nearby: np.ndarray,
) -> np.ndarray:
    """:func:`sight_pair`, a search it runs gathering its blockers from ``nearby`` (every
    blocker, or the :func:`blockers_near` of two groups holding both models): the same
    answer."""
    lo, hi = min(i, j), max(i, j)
    key = lo * len(scene.model_top) + hi
    if key in cache:
        row = cache[key]
        if row[0] == MOVED_PROOF_PAIR and not cheap:
            proven = _proven_again(scene, lo, hi, row, grow, line_half_width)
            if len(proven):
                cache[key] = proven
                return proven
        elif row[0] != CHEAP_FAILED_PAIR or cheap:
            result: np.ndarray = row
            return result
    status, segment, blocking = model_pair_search_near(
        scene, lo, hi, grow, line_half_width, cheap, nearby
    )
    if status == FOUND:
        state = SEEN_PAIR
    elif cheap:
        state = CHEAP_FAILED_PAIR
    elif status == NONE:
        state = HIDDEN_PAIR
    else:
        state = UNPROVEN_PAIR
    row = _record(state, segment, blocking if state != SEEN_PAIR else blocking[:0])
    cache[key] = row
    return row


@_compiled_inline
def _open_to_a_proof(cache: Any, key: int) -> bool:
    """Whether a proof of "hidden" found for a whole group of model pairs is news for pair
    ``key``: it has no answer yet, or only a failed cheap stage or a proof a move shook."""
    return (
        key not in cache or cache[key][0] == CHEAP_FAILED_PAIR or cache[key][0] == MOVED_PROOF_PAIR
    )


@_compiled
def _proven_again(
    scene: SceneArrays, i: int, j: int, row: np.ndarray, grow: float, line_half_width: float
) -> np.ndarray:
    """A :data:`MOVED_PROOF_PAIR` row's blockers, where they stand now, searched alone between
    models ``i < j``: the new "hidden" row when no line passes them (other blockers only block
    more, so that is a proof), else an empty row (the pair needs its full search). Of the
    row's blockers, those :func:`gather` no longer offers (an obscuring area a moved end is now
    within, one that left the corridor) are left out."""
    return hidden_behind(scene, i, j, row[5:].astype(np.int32), grow, line_half_width)


@_compiled
def hidden_behind(
    scene: SceneArrays,
    i: int,
    j: int,
    candidates: np.ndarray,
    grow: float,
    line_half_width: float,
) -> np.ndarray:
    """The "hidden" row (see :func:`sight_pair`) of models ``i < j`` when no line passes the
    blockers ``candidates`` alone (others only block more, so that is a proof), else an empty
    row. Of the candidates, those :func:`gather` does not offer for this pair (an obscuring
    area one of the models is within, a blocker off their corridor) are left out."""
    blockers = gather_from(scene, i, j, 0, grow, candidates)
    if len(blockers) == 0:
        return np.zeros(0)
    status, segment, blocking = _search_past(scene, i, j, blockers, grow, line_half_width, False)
    if status != NONE:
        return np.zeros(0)
    return _record(HIDDEN_PAIR, segment, blocking)


CLOSEST_TRIED_FIRST = 1
"""Sight between two units: the cheap stage of this many closest model pairs runs before the
separator of the two units is looked for. A visible unit pair is most often seen along its
closest pair (70 of the stress board's 159 pairs seen in the cheap stage); a walled-off one
then skips the cheap stage of its other pairs (on the official table, 162 of 234 unit pairs
are walled off; trying 4 first cost them 10% more than trying 1)."""

CHEAP_BEFORE_PARTS = 16
"""Sight between two units no separator walls off whole: the cheap stage of this many closest
model pairs runs before separators of parts of the units are looked for (they cost more than a
cheap stage, and save the cheap stages of the pairs they settle)."""


PART_SEPARATOR_PAIRS = 4
"""Sight between two units no separator walls off whole: separators are looked for between
parts of them with at least this many model pairs. A smaller part's pairs are settled one by
one, each first searched past the blockers that proved its neighbours hidden (most often the
same walls, and a search past a few blockers costs less than a separator that mostly fails:
on the stress board 211 of 296 part separators failed). With 4 rather than 2 (every part down
to single models), one observer's row took 19% less on the stress board and 17% less on the
official table, and 12% more on the ruin layout, whose walls wall off small parts cheaply."""


@_compiled
def unit_pair_visible(
    scene: SceneArrays,
    observers: np.ndarray,
    targets: np.ndarray,
    cache: Any,
    in_the_way: np.ndarray,
    grow: float,
    line_half_width: float,
    part_walls: np.ndarray,
    try_whole: bool,
    try_hulls: bool,
    seen_before_observer: int,
    seen_before_target: int,
) -> tuple[int, int, int, bool]:
    """Whether some observing model sees some target model: ``(status, observer, target,
    separated)``. The model pair ``seen_before_observer``, ``seen_before_target`` (the two
    models of the units' witness before a move, in either order; -1 for none) is searched in
    full first, and named while it still sees: any model pair that sees settles "visible". Then
    the model pairs are tried closest first, with the cheap stage for every pair
    before the full search of any (most visible unit pairs settle there). Separators settle
    the pairs no line joins on the way: of the two groups as a whole (``separated``) once the
    :data:`CLOSEST_TRIED_FIRST` closest pairs' cheap stages found nothing, of parts of them
    (:func:`walled_off_groups`, built from ``part_walls``: every blocker, or the walls that
    stood between the two units before one moved) after :data:`CHEAP_BEFORE_PARTS`, down to
    parts of :data:`PART_SEPARATOR_PAIRS` model pairs; the pairs no separator settled then are
    searched past the blockers of every proof found so far alone (:func:`hidden_behind`) and,
    where a line passes those, in full. Pairs whose cached answer is a proof of
    "hidden" (a separator's, kept across a move that left its walls standing) are settled
    already: with every pair so settled, no separator is looked for. The pair found is the one
    trying every pair in order would find (a separator only settles pairs no line joins, so
    which walls are offered changes the time taken, never the answer). Without ``try_whole``
    no separator of the two groups as a whole is looked for (the caller has just looked for
    one among every blocker). With ``try_hulls``, one proof between the hulls of the two
    groups (:func:`hulls_hidden_growing`, among the blockers near them) is looked for right
    after the separator of the two groups, and one for the hulls of the models the separators
    of parts leave; when a line between the two hulls passes every wall, no separator of parts
    is looked for. Pairs whose proofs a move shook are tried again first
    (:func:`_shaken_proven_again`: one by one when they are few, else, with ``try_hulls``, by
    one proof for their hulls). ``in_the_way`` collects what blocks a pair found not
    visible."""
    scene = _borrowed(scene)
    observers, targets, in_the_way, part_walls = _borrowed(
        (observers, targets, in_the_way, part_walls)
    )
    count = len(observers) * len(targets)
    distance = np.empty(count)
    first = np.empty(count, dtype=np.int64)
    second = np.empty(count, dtype=np.int64)
    n = 0
    for o in observers:
        for t in targets:
            distance[n] = _length(
                scene.model_disc[o, 0] - scene.model_disc[t, 0],
                scene.model_disc[o, 1] - scene.model_disc[t, 1],
            )
            first[n] = o
            second[n] = t
            n += 1
    known = _known_hidden(scene, cache, observers, targets)
    if not known.all():
        _shaken_proven_again(
            scene, cache, observers, targets, known, in_the_way, grow, line_half_width, try_hulls
        )
    if known.all():
        _mark_known(scene, cache, observers, targets, known, in_the_way)
        return NONE, -1, -1, False
    if seen_before_observer >= 0:
        # Its proof, should it no longer see, is cached but left out of ``known``: the pairs
        # go on to the separators as a fresh search's do, and are explained the same way.
        row = sight_pair(
            scene, cache, seen_before_observer, seen_before_target, False, grow, line_half_width
        )
        if row[0] == SEEN_PAIR:
            return FOUND, seen_before_observer, seen_before_target, False
    order = np.argsort(distance, kind="mergesort")
    walled_off = known.copy()
    stops = (min(CLOSEST_TRIED_FIRST, count), min(CHEAP_BEFORE_PARTS, count), count)
    start = 0
    # Until the closest pair's cheap stage has failed, every blocker is offered (most visible
    # unit pairs settle there); then the few near the two units, for every search after it.
    every_blocker = np.arange(len(scene.blocker_kind), dtype=np.int32)
    nearby = every_blocker
    seen_through = False
    for stage in range(3):
        for idx in order[start : stops[stage]]:
            if walled_off[idx // len(targets), idx % len(targets)]:
                continue
            row = sight_pair_near(
                scene, cache, first[idx], second[idx], True, grow, line_half_width, nearby
            )
            if row[0] == SEEN_PAIR:
                return FOUND, first[idx], second[idx], False
        start = stops[stage]
        if stage == 0:
            hull_a = unit_hull(scene, observers)
            hull_b = unit_hull(scene, targets)
            if try_whole:
                barrier = _separator_of_hulls(
                    scene, observers, targets, hull_a, hull_b, nearby, grow
                )
                if len(barrier):
                    for k in barrier:
                        in_the_way[k] = True
                    return NONE, -1, -1, True
            nearby = blockers_near(scene, observers, targets, hull_a, hull_b, grow)
            if try_hulls:
                proof, seen_through = hulls_hidden_growing(
                    scene, observers, targets, grow, nearby, nearby[:0]
                )
                if len(proof):
                    _settle_by_hull_proof(
                        scene, cache, observers, targets, known, in_the_way, proof
                    )
                    _mark_known(scene, cache, observers, targets, known, in_the_way)
                    return NONE, -1, -1, False
        elif stage == 1 and not seen_through:
            # A line between the two hulls passes every wall: some model most likely sees
            # another, and separators of parts would mostly be looked for in vain (on the
            # stress board's row, its visible unit pairs took half the time without them).
            # Every blocker a separator of parts could take meets the two units' hull, so it is
            # among the blockers near them.
            walled_off = walled_off_groups(
                scene,
                cache,
                observers,
                targets,
                in_the_way,
                nearby if len(part_walls) == len(scene.blocker_kind) else part_walls,
                grow,
                known,
                PART_SEPARATOR_PAIRS,
            )
            walled_off |= known
            proof = (
                _open_pairs_hidden(scene, observers, targets, walled_off, grow, nearby, nearby[:0])
                if try_hulls
                else nearby[:0]
            )
            if len(proof):
                _settle_by_hull_proof(
                    scene, cache, observers, targets, walled_off, in_the_way, proof
                )
                _mark_known(scene, cache, observers, targets, known, in_the_way)
                return NONE, -1, -1, False
    _mark_known(scene, cache, observers, targets, known, in_the_way)
    # Neighbouring model pairs are mostly hidden by the same blockers: every proof found so far
    # (and every separator's walls) is tried alone on the next pair before its own search, a
    # search past a few blockers in place of one past all in the pair's corridor.
    in_proof = in_the_way.copy()
    proof = np.empty(len(in_the_way), dtype=np.int32)
    n_proof = 0
    for k in range(len(in_the_way)):
        if in_proof[k]:
            proof[n_proof] = k
            n_proof += 1
    span = len(scene.model_top)
    unproven = False
    for idx in order:
        if walled_off[idx // len(targets), idx % len(targets)]:
            continue
        lo, hi = min(first[idx], second[idx]), max(first[idx], second[idx])
        key = lo * span + hi
        if n_proof > 0 and (key not in cache or cache[key][0] == CHEAP_FAILED_PAIR):
            row = hidden_behind(scene, lo, hi, proof[:n_proof], grow, line_half_width)
            if len(row):
                cache[key] = row
                _mark_from(in_the_way, row, 5)
                continue
        row = sight_pair_near(
            scene, cache, first[idx], second[idx], False, grow, line_half_width, nearby
        )
        if row[0] == SEEN_PAIR:
            return FOUND, first[idx], second[idx], False
        unproven = unproven or row[0] == UNPROVEN_PAIR
        _mark_from(in_the_way, row, 5)
        if row[0] != HIDDEN_PAIR:
            continue
        for p in range(5, len(row)):
            k = int(row[p])
            if not in_proof[k]:
                in_proof[k] = True
                proof[n_proof] = k
                n_proof += 1
    return (UNPROVEN if unproven else NONE), -1, -1, False


@_compiled
def unit_pair_sight(
    scene: SceneArrays, observers: np.ndarray, targets: np.ndarray, cache: Any, *rest: Any
) -> tuple[int, int, int, bool, np.ndarray]:
    """:func:`unit_pair_visible` (``rest``: its arguments after ``cache``), and the witness
    segment ``(x0, y0, x1, y1)`` from the observing model to the target model it names (zeros
    when none sees): what the engine asks of a unit pair in one call, where reading the witness
    from the cache took a second. Each call from Python hands the GIL over on the way in and
    takes it back on the way out; with two threads, a thread coming back while the other runs
    Python sleeps until woken."""
    scene = _borrowed(scene)
    status, seen_by, seen, separated = unit_pair_visible(scene, observers, targets, cache, *rest)
    segment = np.zeros(4)
    if status == FOUND:
        row = cache[min(seen_by, seen) * len(scene.model_top) + max(seen_by, seen)]
        # The cached segment runs from the lower row's model.
        first = 1 if seen_by < seen else 3
        segment[0], segment[1] = row[first], row[first + 1]
        segment[2], segment[3] = row[4 - first], row[5 - first]
    return status, seen_by, seen, separated, segment


@_compiled
def hulls_hidden(
    scene: SceneArrays, observers: np.ndarray, targets: np.ndarray, grow: float
) -> np.ndarray:
    """The blockers that prove no model of ``observers`` sees any of ``targets``, by the
    critical lines between the convex hulls of the two groups' bases (every segment from a base
    to a base runs from hull to hull); empty when there is no such proof
    (:func:`hulls_hidden_growing` among every blocker).

    Only walls for every pair take part, as for :func:`unit_separator_among`: blockers at least as
    tall as every model of both groups, no model of either unit, no obscuring area one of the
    models is within. Hulls that meet or come within a line's width of each other (two units
    mingled, a model inside the other unit's hull) are not asked: the proof is left to the
    pairs' own searches.

    Two 1" bases a side, 10" apart, a 6" long 5" tall wall between: hidden, until one
    observer steps out to y = 5.

    >>> import numpy as np
    >>> def two_pairs(observer_y: float) -> SceneArrays:
    ...     return scene_arrays(
    ...         blocker_kind=[0], blocker_top=[5.0], blocker_disc=[(0, 0, 0)],
    ...         blocker_vertices=[(4, -3), (5, -3), (5, 3), (4, 3)], blocker_ranges=[(0, 4)],
    ...         model_disc=[(0, -1, 0.5), (0, observer_y, 0.5), (10, -1, 0.5), (10, 1, 0.5)],
    ...         model_vertices=np.zeros((0, 2)), model_ranges=[(0, 0)] * 4,
    ...         model_top=[1.5] * 4, model_foot=[0.0] * 4, model_unit=[0, 0, 1, 1])
    >>> observers, targets = np.array([0, 1]), np.array([2, 3])
    >>> hulls_hidden(two_pairs(1.0), observers, targets, 0.02)
    array([0], dtype=int32)
    >>> len(hulls_hidden(two_pairs(5.0), observers, targets, 0.02))
    0
    """
    everything = np.arange(len(scene.blocker_kind), dtype=np.int32)
    proof, _ = hulls_hidden_growing(scene, observers, targets, grow, everything, everything[:0])
    return proof


GROWN_PROOF_LINES = 4000
"""The most critical lines :func:`hulls_hidden_growing` tries before it gives up (the rounds'
lines added up): a proof that needs more rests on so many blockers that the model pairs' own
searches, each past the few in its corridor, cost less."""


@_compiled
def hulls_hidden_growing(
    scene: SceneArrays,
    observers: np.ndarray,
    targets: np.ndarray,
    grow: float,
    candidates: np.ndarray,
    start: np.ndarray,
) -> tuple[np.ndarray, bool]:
    """The blockers that prove no model of ``observers`` sees any of ``targets`` by the
    critical lines between the two groups' hulls (their :func:`proof_hull`; as
    :func:`hulls_hidden`, the same walls for every pair taking part), found without taking
    every blocker among ``candidates`` into the critical lines: the proof is looked for among
    a few blockers (``start``, say an earlier proof's, else none), and each critical line of
    those few that none of them stops is tried against every candidate. A blocker in its way
    joins the few, and the lines its atoms make with theirs are tried next (those of the
    others were tried already, and are stopped still), until no line of the few passes them
    (a proof: no line passes every blocker if none passes some of them) or one passes every
    candidate (no proof: empty). A crowd of blockers near two units then costs the few that
    hide them, not the square of all of them. Returns the proof and whether a line between the
    hulls passes every candidate (most often, then, some model sees another: the caller need
    not look for proofs of parts of the two groups).

    Two 1" bases a side, 10" apart, a 6" long 5" tall wall between and a second wall off to
    the side: the proof names the wall between alone.

    >>> import numpy as np
    >>> between, aside = [(4, -3), (5, -3), (5, 3), (4, 3)], [(4, 9), (5, 9), (5, 12), (4, 12)]
    >>> bases = [(0, -1, 0.5), (0, 1, 0.5), (10, -1, 0.5), (10, 1, 0.5)]
    >>> scene = scene_arrays(
    ...     blocker_kind=[0, 0], blocker_top=[5.0, 5.0], blocker_disc=[(0, 0, 0)] * 2,
    ...     blocker_vertices=between + aside, blocker_ranges=[(0, 4), (4, 8)],
    ...     model_disc=bases, model_vertices=np.zeros((0, 2)), model_ranges=[(0, 0)] * 4,
    ...     model_top=[1.5] * 4, model_foot=[0.0] * 4, model_unit=[0, 0, 1, 1])
    >>> observers, targets = np.array([0, 1]), np.array([2, 3])
    >>> every = np.arange(2, dtype=np.int32)
    >>> none = np.zeros(0, dtype=np.int32)
    >>> hulls_hidden_growing(scene, observers, targets, 0.02, every, none)
    (array([0], dtype=int32), False)
    >>> hulls_hidden_growing(scene, observers, targets, 0.02, every[1:], none)
    (array([], dtype=int32), True)
    """
    none = np.zeros(0, dtype=np.int32)
    hull_a, hull_b = proof_hull(scene, observers), proof_hull(scene, targets)
    if (
        _polygons_close(hull_a, hull_b, 2 * grow)
        or inside_polygon(hull_a[0, 0], hull_a[0, 1], hull_b)
        or inside_polygon(hull_b[0, 0], hull_b[0, 1], hull_a)
    ):
        return none, False
    tallest, sheltered = _tallest_and_sheltered(scene, observers, targets)
    walls = walls_between_hulls(
        scene,
        hull_a,
        hull_b,
        tallest,
        scene.model_unit[observers[0]],
        scene.model_unit[targets[0]],
        sheltered,
        candidates,
        grow,
    )
    acx, acy = hull_a[:, 0].mean(), hull_a[:, 1].mean()
    bcx, bcy = hull_b[:, 0].mean(), hull_b[:, 1].mean()
    planes = corridor(acx, acy, 0.0, hull_a, bcx, bcy, 0.0, hull_b)
    kinds, discs = scene.blocker_kind, scene.blocker_disc
    vertices, ranges = scene.blocker_vertices, scene.blocker_ranges
    count = 0
    for k in walls:
        if blocker_meets(kinds, discs, vertices, ranges, k, planes, grow):
            walls[count] = k
            count += 1
    if count == 0:
        # No wall stands between the hulls: every line between them passes.
        return none, True
    walls = walls[:count]
    few = np.empty(count, dtype=np.int32)
    # Where each wall stands among the few (-1: not taken).
    place = np.full(count, -1, dtype=np.int64)
    n_few = 0
    for k in start:
        for m in range(count):
            if walls[m] == k and place[m] < 0:
                place[m] = n_few
                few[n_few] = k
                n_few += 1
    lo = np.zeros(count)
    hi = np.ones(count)
    shapes = (acx, acy, 0.0, hull_a, bcx, bcy, 0.0, hull_b)
    a_reach, a_edges = _end_edges(acx, acy, hull_a)
    b_reach, b_edges = _end_edges(bcx, bcy, hull_b)
    a_end, b_end = (acx, acy, 0.0, a_reach), (bcx, bcy, 0.0, b_reach)
    tried = 0
    fresh = 0
    stopping = np.zeros(count, dtype=np.bool_)
    while tried <= GROWN_PROOF_LINES:
        lines = critical_lines(*shapes, scene, few, n_few, fresh, grow, False, planes, False)
        added = 0
        hint = -1
        for s in range(len(lines)):
            ok, sx, sy, ex, ey = _segment_on(
                lines[s, 0],
                lines[s, 1],
                lines[s, 2],
                lines[s, 3],
                a_end,
                a_edges,
                b_end,
                b_edges,
                0,
            )
            if not ok:
                continue
            tried += 1
            found = blocking(sx, sy, ex, ey, scene, few, lo, hi, n_few, grow, GRAZE, hint)
            if found >= 0:
                stopping[found] = True
                hint = found
                continue
            other = blocking(sx, sy, ex, ey, scene, walls, lo, hi, count, grow, GRAZE, -1)
            if other < 0:
                return none, True
            if place[other] < 0:
                # It joins the few; one added earlier this round stops this line too (the
                # lines of either come next round).
                place[other] = n_few + added
                few[n_few + added] = walls[other]
                added += 1
            stopping[place[other]] = True
        if added == 0:
            proof: np.ndarray = few[:n_few][stopping[:n_few]]
            return (proof if len(proof) else few[:n_few].copy()), False
        fresh = n_few
        n_few += added
    return none, False


@_compiled
def _open_pairs_hidden(
    scene: SceneArrays,
    observers: np.ndarray,
    targets: np.ndarray,
    settled: np.ndarray,
    grow: float,
    candidates: np.ndarray,
    start: np.ndarray,
) -> np.ndarray:
    """The walls of a proof between the hulls of the models of the pairs ``settled`` leaves
    open (:func:`hulls_hidden_growing` among ``candidates``, from ``start``): empty when there
    is none, or fewer than two pairs are open (a pair's own search costs less)."""
    rows = np.zeros(len(observers), dtype=np.bool_)
    columns = np.zeros(len(targets), dtype=np.bool_)
    pairs = 0
    for a in range(len(observers)):
        for b in range(len(targets)):
            if not settled[a, b]:
                rows[a] = True
                columns[b] = True
                pairs += 1
    if pairs < 2:
        return np.zeros(0, dtype=np.int32)
    seeing, seen = observers[rows], targets[columns]
    proof, _ = hulls_hidden_growing(scene, seeing, seen, grow, candidates, start)
    return proof


@_compiled
def _settle_by_hull_proof(
    scene: SceneArrays,
    cache: Any,
    observers: np.ndarray,
    targets: np.ndarray,
    walled_off: np.ndarray,
    in_the_way: np.ndarray,
    walls: np.ndarray,
) -> None:
    """Marks a proof between hulls (``walls``) in ``in_the_way`` and caches it as the answer of
    every model pair ``walled_off`` leaves open (a proof for the hulls is one for every pair of
    bases inside them)."""
    for k in walls:
        in_the_way[k] = True
    row = _record(HIDDEN_PAIR, np.zeros(4), walls)
    span = len(scene.model_top)
    for a in range(len(observers)):
        for b in range(len(targets)):
            if walled_off[a, b]:
                continue
            i, j = observers[a], targets[b]
            key = min(i, j) * span + max(i, j)
            if _open_to_a_proof(cache, key):
                cache[key] = row.copy()


@_compiled
def halving_order(scene: SceneArrays, models: np.ndarray) -> np.ndarray:
    """Positions in ``models`` ordered so that the whole, each half of it, each half of a half
    and so on down to single models hold bases near one another: a range is sorted along the
    longer side of its centres' box before it is halved (a k-d tree laid out flat)."""
    order = np.arange(len(models))
    ranges = [(0, len(models))]
    while ranges:
        lo, hi = ranges.pop()
        if hi - lo < 2:
            continue
        centres = scene.model_disc[models[order[lo:hi]], :2]
        spread_x = centres[:, 0].max() - centres[:, 0].min()
        spread_y = centres[:, 1].max() - centres[:, 1].min()
        axis = 0 if spread_x >= spread_y else 1
        order[lo:hi] = order[lo:hi][np.argsort(centres[:, axis], kind="mergesort")]
        middle = lo + (hi - lo) // 2
        ranges.append((lo, middle))
        ranges.append((middle, hi))
    return order


@_compiled
def _known_hidden(
    scene: SceneArrays, cache: Any, observers: np.ndarray, targets: np.ndarray
) -> np.ndarray:
    """Model pairs (by position) whose cached top-to-top answer is a proof of "hidden" (kept
    from before a move, say): neither a separator nor a search need settle them again."""
    known = np.zeros((len(observers), len(targets)), dtype=np.bool_)
    span = len(scene.model_top)
    for a in range(len(observers)):
        for b in range(len(targets)):
            i, j = observers[a], targets[b]
            key = min(i, j) * span + max(i, j)
            known[a, b] = key in cache and cache[key][0] == HIDDEN_PAIR
    return known


SHAKEN_PROOFS_TRIED_FIRST = 8
"""A unit pair whose model pairs are all proven hidden but for this many proofs or fewer that a
move shook has those tried again first, one by one (:func:`_shaken_proven_again`); with more,
one by one is slower than separators. On the stress board's moves, a unit pair with one to
five shaken proofs took 56-223 us that way against 157-396 us by separators, and one with
twelve or more 270-490 us against 215-300 us. With more, one proof for the hulls of the
shaken pairs' models among their proofs' blockers is asked before the separators: an update
took 8-14% less on the stress board, 10-17% on the ruin layout and the official table."""


@_compiled
def _shaken_proven_again(
    scene: SceneArrays,
    cache: Any,
    observers: np.ndarray,
    targets: np.ndarray,
    known: np.ndarray,
    in_the_way: np.ndarray,
    grow: float,
    line_half_width: float,
    by_hulls: bool,
) -> None:
    """When every model pair not ``known`` to be hidden holds a proof a move shook
    (:data:`MOVED_PROOF_PAIR`), tries those proofs again, marking in ``known`` the pairs they
    settle. At most :data:`SHAKEN_PROOFS_TRIED_FIRST` are tried one by one past their own
    blockers (:func:`_proven_again`, as the search would), until one fails: after a small step
    most stand and the unit pair is settled without separators or searches, its pairs cached
    as the search would cache them, so the rest of the search answers as it would have. More of
    them (a moved unit's own pairs: each of its models stepped) are asked, with ``by_hulls``,
    for one proof for the hulls of their models grown from the blockers of the shaken proofs
    (:func:`_open_pairs_hidden`; its walls are marked in ``in_the_way``): the walls that hid
    each model pair mostly still hide the two groups whole, and one search between two hulls
    past a few blockers costs less than the proofs one by one, or separators."""
    span = len(scene.model_top)
    shaken = 0
    for a in range(len(observers)):
        for b in range(len(targets)):
            if known[a, b]:
                continue
            key = min(observers[a], targets[b]) * span + max(observers[a], targets[b])
            if key not in cache or cache[key][0] != MOVED_PROOF_PAIR:
                return
            shaken += 1
    if shaken > SHAKEN_PROOFS_TRIED_FIRST:
        if by_hulls:
            offered = np.zeros(len(scene.blocker_kind), dtype=np.bool_)
            _mark_known(scene, cache, observers, targets, ~known, offered)
            every_blocker = np.arange(len(scene.blocker_kind), dtype=np.int32)
            start = np.flatnonzero(offered).astype(np.int32)
            proof = _open_pairs_hidden(scene, observers, targets, known, grow, every_blocker, start)
            if len(proof):
                _settle_by_hull_proof(scene, cache, observers, targets, known, in_the_way, proof)
                known[:, :] = True
        return
    for a in range(len(observers)):
        for b in range(len(targets)):
            if known[a, b]:
                continue
            lo, hi = min(observers[a], targets[b]), max(observers[a], targets[b])
            proven = _proven_again(scene, lo, hi, cache[lo * span + hi], grow, line_half_width)
            if len(proven) == 0:
                return
            cache[lo * span + hi] = proven
            known[a, b] = True


@_compiled
def _mark_known(
    scene: SceneArrays,
    cache: Any,
    observers: np.ndarray,
    targets: np.ndarray,
    known: np.ndarray,
    in_the_way: np.ndarray,
) -> None:
    """Marks in ``in_the_way`` the blockers the cached proofs of the ``known`` pairs rest on."""
    span = len(scene.model_top)
    for a in range(len(observers)):
        for b in range(len(targets)):
            if known[a, b]:
                i, j = observers[a], targets[b]
                _mark_from(in_the_way, cache[min(i, j) * span + max(i, j)], 5)


@_compiled
def _all_settled(settled: np.ndarray, rows: np.ndarray, columns: np.ndarray) -> bool:
    """Whether ``settled`` holds every pair of ``rows`` and ``columns``."""
    for a in rows:
        for b in columns:
            if not settled[a, b]:
                return False
    return True


@_compiled
def _part_hull(scene: SceneArrays, hulls: Any, key: int, models: np.ndarray) -> np.ndarray:
    """The hull of ``models``' bases, kept in ``hulls`` under ``key`` (a part's place in its
    unit's halving order)."""
    if key not in hulls:
        hulls[key] = unit_hull(scene, models)
    hull: np.ndarray = hulls[key]
    return hull


@_compiled
def walled_off_groups(
    scene: SceneArrays,
    cache: Any,
    observers: np.ndarray,
    targets: np.ndarray,
    in_the_way: np.ndarray,
    candidates: np.ndarray,
    grow: float,
    settled: np.ndarray,
    smallest: int,
) -> np.ndarray:
    """Model pairs (by position in ``observers`` and ``targets``) proven hidden by a wall or
    barrier standing between a part of one unit and a part of the other, when none stands
    between the two units whole: the larger side is halved (see :func:`halving_order`) until
    a separator is found, or the two parts hold fewer than ``smallest`` model pairs (at least
    2: no separator is looked for between two single models, the pair's own search starts with
    one; the pairs left are settled by their searches), or every model pair of the two parts is
    ``settled`` already (by position, as the result). Separators are built from
    ``candidates`` (blocker rows); the walls of every one found are marked in ``in_the_way``
    and cached as the answer of each model pair it walls off (:func:`sight_pair`'s row,
    "hidden" resting on those walls): after a move that leaves them standing the proof holds,
    and the pair is settled without a separator."""
    walled_off = np.zeros((len(observers), len(targets)), dtype=np.bool_)
    span = len(scene.model_top)
    observer_order = halving_order(scene, observers)
    target_order = halving_order(scene, targets)
    pending = [(0, len(observer_order), 0, len(target_order))]
    # Halving one side leaves the other's part as it was: each part's hull is made once.
    observer_hulls = Dict.empty(key_type=types.int64, value_type=types.float64[:, ::1])
    target_hulls = Dict.empty(key_type=types.int64, value_type=types.float64[:, ::1])
    while pending:
        a0, a1, b0, b1 = pending.pop()
        if _all_settled(settled, observer_order[a0:a1], target_order[b0:b1]):
            continue
        whole = a0 == 0 and a1 == len(observer_order) and b0 == 0 and b1 == len(target_order)
        if (a1 - a0) * (b1 - b0) < smallest:
            continue
        if not whole:
            observer_part = observers[observer_order[a0:a1]]
            target_part = targets[target_order[b0:b1]]
            barrier = _separator_of_hulls(
                scene,
                observer_part,
                target_part,
                _part_hull(scene, observer_hulls, a0 * (span + 1) + a1, observer_part),
                _part_hull(scene, target_hulls, b0 * (span + 1) + b1, target_part),
                candidates,
                grow,
            )
            if len(barrier):
                for k in barrier:
                    in_the_way[k] = True
                row = _record(HIDDEN_PAIR, np.zeros(4), barrier)
                for a in observer_order[a0:a1]:
                    for b in target_order[b0:b1]:
                        walled_off[a, b] = True
                        i, j = observers[a], targets[b]
                        key = min(i, j) * span + max(i, j)
                        if _open_to_a_proof(cache, key):
                            cache[key] = row.copy()
                continue
        if a1 - a0 >= b1 - b0 and a1 - a0 > 1:
            middle = a0 + (a1 - a0) // 2
            pending.append((middle, a1, b0, b1))
            pending.append((a0, middle, b0, b1))
        elif b1 - b0 > 1:
            middle = b0 + (b1 - b0) // 2
            pending.append((a0, a1, middle, b1))
            pending.append((a0, a1, b0, middle))
    return walled_off


# ---------------------------------------------------------------------------------------------
# Fully visible: every facing point of the target seen down to its foot

MIN_PIECE = 0.03
"""Fully visible: a facing piece of the target's rim shorter than this that no single observer
point sees whole is given up as hidden (the one conservative step)."""

MAX_PIECES = 96
"""Fully visible: at most this many facing pieces are examined per model pair."""

_REGION_DIRECTIONS = 48
_FACING_SAMPLES = 720
_FACING_STRIDE = 8
"""Facing pieces of an oval or rectangular pair: every 8th of the 720 samples is read first, and
the ones between only where two read samples differ. Two bases apart face each other along one
arc tens of degrees wide (two outer common tangents bound it), so no run of samples shorter
than the stride hides between two equal ones: the samples are the 720 read one by one, at a
ninth of the work."""
_REGION_COS = np.array(
    [math.cos(k * (2.0 * math.pi / _REGION_DIRECTIONS)) for k in range(_REGION_DIRECTIONS)]
)
_REGION_SIN = np.array(
    [math.sin(k * (2.0 * math.pi / _REGION_DIRECTIONS)) for k in range(_REGION_DIRECTIONS)]
)
"""The directions of :func:`_swept_region`'s sides, worked out once (as the loop did)."""

FULLY_UNKNOWN = 0
FULLY_SEEN = 1
FULLY_HIDDEN = 2
FULLY_UNPROVEN = 3
FULLY_MOVED_PROOF = 4
"""A "not fully visible" with models whose proof (a facing point no line reaches) rests on a
blocker that has moved since, between two models that did not: the point and the blockers are
kept and tried alone first when the pair is asked again. Never an answer by itself."""


@_compiled
def outline_support(outline: np.ndarray, nx: float, ny: float) -> float:
    """The support function ``max p . n`` of a true base outline for a unit direction."""
    kind, cx, cy, a, b, angle = (
        outline[0],
        outline[1],
        outline[2],
        outline[3],
        outline[4],
        outline[5],
    )
    cos_a, sin_a = math.cos(angle), math.sin(angle)
    nu = nx * cos_a + ny * sin_a
    nv = -nx * sin_a + ny * cos_a
    offset = nx * cx + ny * cy
    result: float = offset
    if kind == OUTLINE_RECT:
        result += a * abs(nu) + b * abs(nv)
    else:
        result += _length(a * nu, b * nv)
    return result


@_compiled
def _outline_point(outline: np.ndarray, u: float, reach: float) -> tuple[float, float]:
    """The point at eccentric angle ``u`` of an ellipse outline, scaled by ``reach``."""
    cx, cy, a, b, angle = outline[1], outline[2], outline[3], outline[4], outline[5]
    x, y = a * reach * math.cos(u), b * reach * math.sin(u)
    cos_a, sin_a = math.cos(angle), math.sin(angle)
    return cx + x * cos_a - y * sin_a, cy + x * sin_a + y * cos_a


_SAMPLE_COS = np.cos(np.arange(_FACING_SAMPLES) * (2.0 * math.pi / _FACING_SAMPLES))
_SAMPLE_SIN = np.sin(np.arange(_FACING_SAMPLES) * (2.0 * math.pi / _FACING_SAMPLES))


@_compiled_inline
def _gap_at(
    target: np.ndarray,
    observer: np.ndarray,
    cos_t: float,
    sin_t: float,
    cos_o: float,
    sin_o: float,
    cos_u: float,
    sin_u: float,
) -> float:
    """``h_O(n) - n . p`` at the target ellipse's point of eccentric angle ``u`` (given by its
    cosine and sine), ``n`` the outward normal there; ``cos_t, sin_t`` and ``cos_o, sin_o``
    turn the target's and the observer's frames."""
    a, b = target[3], target[4]
    x, y = b * cos_u, a * sin_u
    nx, ny = x * cos_t - y * sin_t, x * sin_t + y * cos_t
    norm = _length(nx, ny)
    nx, ny = nx / norm, ny / norm
    u, v = a * cos_u, b * sin_u
    px, py = target[1] + u * cos_t - v * sin_t, target[2] + u * sin_t + v * cos_t
    nu = nx * cos_o + ny * sin_o
    nv = -nx * sin_o + ny * cos_o
    reach = nx * observer[1] + ny * observer[2]
    if observer[0] == OUTLINE_RECT:
        reach += observer[3] * abs(nu) + observer[4] * abs(nv)
    else:
        reach += _length(observer[3] * nu, observer[4] * nv)
    result: float = reach - (nx * px + ny * py)
    return result


@_compiled
def _refine_edge(target: np.ndarray, observer: np.ndarray, outside: float, inside: float) -> float:
    """Bisects a change from not facing (``outside``) to facing (``inside``); returns a facing
    parameter."""
    cos_t, sin_t = math.cos(target[5]), math.sin(target[5])
    cos_o, sin_o = math.cos(observer[5]), math.sin(observer[5])
    for _ in range(24):
        middle = 0.5 * (outside + inside)
        gap = _gap_at(
            target, observer, cos_t, sin_t, cos_o, sin_o, math.cos(middle), math.sin(middle)
        )
        if gap >= -1e-12:
            inside = middle
        else:
            outside = middle
    return inside


@_compiled
def facing_pieces(target: np.ndarray, observer: np.ndarray) -> np.ndarray:
    """The parts of the target outline's boundary that face the observer outline, as rows
    ``(is_edge, u0, u1, x0, y0, x1, y1)``: an arc of eccentric angles ``u0..u1`` (at most a
    quarter turn each) or a side from ``(x0, y0)`` to ``(x1, y1)`` (``u`` from 0 to 1 along it).
    A boundary point faces the observer when the observer reaches at least as far along the
    point's outward normal: ``h_O(n) >= n . p``."""
    if target[0] == OUTLINE_RECT:
        cx, cy, a, b, angle = target[1], target[2], target[3], target[4], target[5]
        cos_a, sin_a = math.cos(angle), math.sin(angle)
        corners = np.empty((4, 2))
        for k, (u, v) in enumerate(((-a, -b), (a, -b), (a, b), (-a, b))):
            corners[k, 0], corners[k, 1] = cx + u * cos_a - v * sin_a, cy + u * sin_a + v * cos_a
        rows = np.empty((4, 7))
        count = 0
        for k in range(4):
            x0, y0 = corners[k, 0], corners[k, 1]
            x1, y1 = corners[(k + 1) % 4, 0], corners[(k + 1) % 4, 1]
            length = _length(x1 - x0, y1 - y0)
            nx, ny = (y1 - y0) / length, -(x1 - x0) / length
            if outline_support(observer, nx, ny) >= nx * x0 + ny * y0 - 1e-12:
                row = rows[count]
                row[0], row[1], row[2] = 1.0, 0.0, 1.0
                row[3], row[4], row[5], row[6] = x0, y0, x1, y1
                count += 1
        return rows[:count]
    if target[0] == OUTLINE_CIRCLE and observer[0] == OUTLINE_CIRCLE:
        spans = _circle_facing(target, observer)
        if len(spans) == 0:
            return np.zeros((0, 7))
        return _arc_pieces(spans)
    step = 2.0 * math.pi / _FACING_SAMPLES
    facing = np.empty(_FACING_SAMPLES, dtype=np.bool_)
    cos_t, sin_t = math.cos(target[5]), math.sin(target[5])
    cos_o, sin_o = math.cos(observer[5]), math.sin(observer[5])
    for k in range(0, _FACING_SAMPLES, _FACING_STRIDE):
        gap = _gap_at(target, observer, cos_t, sin_t, cos_o, sin_o, _SAMPLE_COS[k], _SAMPLE_SIN[k])
        facing[k] = gap >= -1e-12
    for k in range(0, _FACING_SAMPLES, _FACING_STRIDE):
        same = facing[k] == facing[(k + _FACING_STRIDE) % _FACING_SAMPLES]
        for f in range(k + 1, k + _FACING_STRIDE):
            if same:
                facing[f] = facing[k]
            else:
                gap = _gap_at(
                    target, observer, cos_t, sin_t, cos_o, sin_o, _SAMPLE_COS[f], _SAMPLE_SIN[f]
                )
                facing[f] = gap >= -1e-12
    if facing.all():
        spans = np.array([[0.0, 2.0 * math.pi]])
    elif not facing.any():
        return np.zeros((0, 7))
    else:
        first_off = int(np.flatnonzero(~facing)[0])
        spans = np.empty((_FACING_SAMPLES, 2))
        n_spans = 0
        k = 0
        while k < _FACING_SAMPLES:
            if not facing[(k + first_off) % _FACING_SAMPLES]:
                k += 1
                continue
            start = k
            while k < _FACING_SAMPLES and facing[(k + first_off) % _FACING_SAMPLES]:
                k += 1
            last = k - 1
            lo = _refine_edge(
                target, observer, (first_off + start - 1) * step, (first_off + start) * step
            )
            hi = _refine_edge(
                target, observer, (first_off + last + 1) * step, (first_off + last) * step
            )
            spans[n_spans, 0], spans[n_spans, 1] = lo, hi
            n_spans += 1
        spans = spans[:n_spans]
    return _arc_pieces(spans)


@_compiled
def _circle_facing(target: np.ndarray, observer: np.ndarray) -> np.ndarray:
    """The facing arc of a round target seen by a round observer, exactly: the outward normal
    ``n`` at a point faces when ``n . (c_O - c_T) >= r_T - r_O``."""
    dx, dy = observer[1] - target[1], observer[2] - target[2]
    distance = _length(dx, dy)
    need = target[3] - observer[3]
    if distance <= 1e-12:
        if need <= 1e-12:
            return np.array([[0.0, 2.0 * math.pi]])
        return np.zeros((0, 2))
    ratio = need / distance
    if ratio > 1.0:
        return np.zeros((0, 2))
    if ratio <= -1.0:
        return np.array([[0.0, 2.0 * math.pi]])
    toward = math.atan2(dy, dx)
    spread = math.acos(ratio)
    return np.array([[toward - spread, toward + spread]])


@_compiled
def _arc_pieces(spans: np.ndarray) -> np.ndarray:
    """Facing arcs cut into pieces of at most a quarter turn (rows as :func:`facing_pieces`)."""
    total = 0
    for k in range(len(spans)):
        total += max(1, math.ceil((spans[k, 1] - spans[k, 0]) / (math.pi / 4)))
    rows = np.zeros((total, 7))
    count = 0
    for k in range(len(spans)):
        u0, u1 = spans[k, 0], spans[k, 1]
        parts = max(1, math.ceil((u1 - u0) / (math.pi / 4)))
        for p in range(parts):
            rows[count, 1] = u0 + (u1 - u0) * p / parts
            rows[count, 2] = u0 + (u1 - u0) * (p + 1) / parts
            count += 1
    return rows


@_compiled
def _piece_point(target: np.ndarray, piece: np.ndarray, u: float) -> tuple[float, float]:
    if piece[0] > 0:
        return piece[3] + u * (piece[5] - piece[3]), piece[4] + u * (piece[6] - piece[4])
    return _outline_point(target, u, 1.0)


@_compiled
def _piece_length(target: np.ndarray, piece: np.ndarray) -> float:
    if piece[0] > 0:
        x0, y0 = _piece_point(target, piece, piece[1])
        x1, y1 = _piece_point(target, piece, piece[2])
        return _length(x1 - x0, y1 - y0)
    result: float = max(target[3], target[4]) * (piece[2] - piece[1])
    return result


@_compiled
def _piece_hull(target: np.ndarray, piece: np.ndarray) -> np.ndarray:
    """A convex polygon's vertices holding the piece: its chord, and for an arc the apex where
    the tangents at its ends meet."""
    if piece[0] > 0:
        points = np.empty((2, 2))
        points[0] = _piece_point(target, piece, piece[1])
        points[1] = _piece_point(target, piece, piece[2])
        return points
    half = 0.5 * (piece[2] - piece[1])
    points = np.empty((3, 2))
    points[0] = _outline_point(target, piece[1], 1.0)
    points[1] = _outline_point(target, piece[1] + half, 1.0 / math.cos(half))
    points[2] = _outline_point(target, piece[2], 1.0)
    return points


@_compiled
def _swept_region(observer: np.ndarray, target: np.ndarray, t0: float, t1: float) -> np.ndarray:
    """A polygon holding every point at a fraction ``t0..t1`` along a segment from the observer's
    base to the target's: its support is the larger of ``(1 - t) h_O + t h_T`` at both ends
    (vertices where consecutive sides meet)."""
    n = _REGION_DIRECTIONS
    normals = np.empty((n, 2))
    support = np.empty(n)
    for k in range(n):
        nx, ny = _REGION_COS[k], _REGION_SIN[k]
        h_o, h_t = outline_support(observer, nx, ny), outline_support(target, nx, ny)
        normals[k, 0], normals[k, 1] = nx, ny
        support[k] = max((1 - t0) * h_o + t0 * h_t, (1 - t1) * h_o + t1 * h_t)
    vertices = np.empty((n, 2))
    for k in range(n):
        f = (k + 1) % n
        det = normals[k, 0] * normals[f, 1] - normals[k, 1] * normals[f, 0]
        vertices[k, 0] = (support[k] * normals[f, 1] - support[f] * normals[k, 1]) / det
        vertices[k, 1] = (normals[k, 0] * support[f] - normals[f, 0] * support[k]) / det
    return vertices


@_compiled
def _polygon_area(v: np.ndarray) -> float:
    area = 0.0
    n = len(v)
    for k in range(n):
        f = (k + 1) % n
        area += v[k, 0] * v[f, 1] - v[f, 0] * v[k, 1]
    return 0.5 * area


@_compiled
def _fan_is_clear(
    sx: float,
    sy: float,
    target: np.ndarray,
    piece: np.ndarray,
    h_observer: float,
    z_target: float,
    scene: SceneArrays,
    blockers: np.ndarray,
    grow: float,
) -> bool:
    """Whether every line from ``(sx, sy)`` at ``h_observer`` to every point of the piece at
    ``z_target`` is unblocked: for each blocker, the low part of that fan is the hull of the
    piece's bounding polygon scaled about the source between the ends of the low interval."""
    corners = _piece_hull(target, piece)
    n = len(corners)
    kinds, discs, boxes = scene.blocker_kind, scene.blocker_disc, scene.blocker_boxes
    vertices, ranges = scene.blocker_vertices, scene.blocker_ranges
    region = np.empty((2 * n, 2))
    for m in range(len(blockers)):
        k = blockers[m]
        low, t0, t1 = low_interval(h_observer, z_target, scene.blocker_top[k])
        if not low:
            continue
        for c in range(n):
            for s, t in enumerate((t0, t1)):
                region[2 * c + s, 0] = sx + t * (corners[c, 0] - sx)
                region[2 * c + s, 1] = sy + t * (corners[c, 1] - sy)
        hull = convex_hull(region)
        if len(hull) < 3 or _polygon_area(hull) <= 0:
            return False
        if _touches_convex(kinds, discs, boxes, vertices, ranges, k, hull, grow):
            return False
    return True


@_compiled
def _walled_off_point(
    acx: float,
    acy: float,
    ar: float,
    av: np.ndarray,
    h_observer: float,
    z_target: float,
    target: np.ndarray,
    pieces: np.ndarray,
    scene: SceneArrays,
    candidates: np.ndarray,
    grow: float,
) -> tuple[np.ndarray, float, float]:
    """A facing piece's middle point that walls hide from the whole observing base, from the
    base at its top to the point at the target's foot, over the blockers low along the whole
    line: one convex wall (:func:`wall_across`, tried for every piece first) or a barrier of
    several (:func:`barrier_across`, such as the parts of an obscuring area). Returns the
    walls and the point, or no walls. Most model pairs on a crowded board are not fully
    visible, and this settles them before the swept regions and the exact searches: the proofs
    :func:`pair_search` would reach, found directly.

    Either proof is looked for only where the three lines it must block (from the base's
    centre, and both outer tangents) each come within reach of a wall. Half the questions of
    the stress board's matrix find neither proof, and looking took them 30 us each, most of it
    clipping walls for a barrier beside a clear line."""
    walls = np.empty(len(candidates), dtype=np.int32)
    n_walls = 0
    for m in range(len(candidates)):
        k = candidates[m]
        low, t0, t1 = low_interval(h_observer, z_target, scene.blocker_top[k])
        if low and t0 == 0.0 and t1 == 1.0:
            walls[n_walls] = k
            n_walls += 1
    if n_walls == 0:
        return walls[:0], 0.0, 0.0
    no_vertices = np.zeros((0, 2))
    points = np.empty((len(pieces), 2))
    tangents = np.empty((len(pieces), 2, 4))
    # A wall or barrier across the observing base and a point meets every line between them:
    # the one from the base's centre and both outer tangents. Where one of those keeps farther
    # than the reach from every wall, neither is there, and neither is looked for.
    possible = np.zeros(len(pieces), dtype=np.bool_)
    whole_line = np.zeros(n_walls), np.ones(n_walls)
    reach = grow + _SKIP_MARGIN
    any_convex = _has_convex(scene, walls, n_walls)
    for p in range(len(pieces)):
        px, py = _piece_point(target, pieces[p], 0.5 * (pieces[p, 1] + pieces[p, 2]))
        points[p, 0], points[p, 1] = px, py
        if not segment_blocked(acx, acy, px, py, scene, walls, *whole_line, n_walls, reach, 0.0):
            continue
        ok, lines = outer_tangents(acx, acy, ar, av, px, py, 0.0, no_vertices)
        if not ok:
            continue
        tangents[p] = lines
        possible[p] = True
        for s in range(2):
            x0, y0, x1, y1 = lines[s, 0], lines[s, 1], lines[s, 2], lines[s, 3]
            if not segment_blocked(x0, y0, x1, y1, scene, walls, *whole_line, n_walls, reach, 0.0):
                possible[p] = False
                break
        if possible[p] and any_convex:
            wall = wall_across(
                acx, acy, ar, av, px, py, 0.0, no_vertices, lines, scene, walls, n_walls, grow
            )
            if wall >= 0:
                return np.array([wall], dtype=np.int32), px, py
    for p in range(len(pieces)):
        if not possible[p]:
            continue
        px, py = points[p, 0], points[p, 1]
        barrier = barrier_across(
            acx, acy, ar, av, px, py, 0.0, no_vertices, tangents[p], scene, walls, n_walls, grow
        )
        if len(barrier):
            return barrier, px, py
    return walls[:0], 0.0, 0.0


@_compiled
def model_fully_visible(
    scene: SceneArrays, i: int, j: int, terrain_only: bool, grow: float
) -> tuple[int, float, float, np.ndarray, np.ndarray]:
    """Whether every facing point of model ``j``'s base is seen at its foot from some point of
    model ``i``'s base at its top, by a line meeting no blocker (obscuring areas ``j`` is not
    within included): ``(status, hidden_x, hidden_y, in_the_way, fans)`` with status
    :data:`FULLY_SEEN`, :data:`FULLY_HIDDEN` (a facing point no line reaches) or
    :data:`FULLY_UNPROVEN` (a piece too small to settle: the conservative answer). ``fans``
    certify a "seen": rows ``(x, y, piece...)``, an observer point and a facing piece (rows as
    :func:`facing_pieces`) every line between which is clear; empty when the swept hull of both
    bases is clear of every blocker.

    First walls hiding a facing piece's middle from the whole observing base prove "not fully
    visible" (:func:`_walled_off_point`). Then the hull of both bases, swept by each
    blocker's low part: clear of every blocker, every line is free. Otherwise facing pieces are
    settled one by one: the exact search looks for a sight line from the observer's base to the
    piece's middle point; none proves "not fully visible"; one gives an observer point, and a
    clear fan from it (or from the observer's centre, or half-way) to the whole piece settles
    the piece; else the piece is split, and its halves are settled before the next piece. A
    piece no single observer point sees whole (seen through a narrow gap, each of its points
    from another point of the observer) reaches :data:`MIN_PIECE` in a few splits that way,
    where settling every piece of one size before any smaller took some eighty searches. The
    order changes neither a "fully visible" (every piece is settled in any order) nor a "not"
    (some piece is not), only which point a "not" names, unless :data:`MAX_PIECES` runs out."""
    observer = scene.model_outline[i]
    target = scene.model_outline[j]
    h_observer = scene.model_top[i]
    z_target = scene.model_foot[j]
    candidates = gather(scene, i, j, 2 if terrain_only else 1, 2.0 * grow)
    acx, acy, ar, av = model_end(scene.model_disc, scene.model_vertices, scene.model_ranges, i)
    pieces = facing_pieces(target, observer)
    walls, px, py = _walled_off_point(
        acx, acy, ar, av, h_observer, z_target, target, pieces, scene, candidates, grow
    )
    if len(walls):
        return FULLY_HIDDEN, px, py, walls, np.empty((0, 9))
    touching = np.empty(len(candidates), dtype=np.int32)
    n_touching = 0
    seen_intervals = np.empty((len(candidates), 2))
    regions = np.empty((len(candidates), _REGION_DIRECTIONS, 2))
    n_regions = 0
    kinds, discs, boxes = scene.blocker_kind, scene.blocker_disc, scene.blocker_boxes
    vertices, ranges = scene.blocker_vertices, scene.blocker_ranges
    for m in range(len(candidates)):
        k = candidates[m]
        low, t0, t1 = low_interval(h_observer, z_target, scene.blocker_top[k])
        if not low:
            continue
        found = -1
        for r in range(n_regions):
            if seen_intervals[r, 0] == t0 and seen_intervals[r, 1] == t1:
                found = r
                break
        if found < 0:
            found = n_regions
            seen_intervals[found, 0], seen_intervals[found, 1] = t0, t1
            regions[found] = _swept_region(observer, target, t0, t1)
            n_regions += 1
        region = regions[found]
        if _touches_convex(kinds, discs, boxes, vertices, ranges, k, region, grow):
            touching[n_touching] = k
            n_touching += 1
    touching = touching[:n_touching]
    if n_touching == 0:
        return FULLY_SEEN, 0.0, 0.0, touching, np.empty((0, 9))
    stack = np.empty((len(pieces) + MAX_PIECES + 2, 7))
    for p in range(len(pieces)):
        stack[p] = pieces[len(pieces) - 1 - p]
    top = len(pieces)
    steps = 0
    no_vertices = np.zeros((0, 2))
    fans = np.empty((len(stack), 9))
    n_fans = 0
    while top > 0:
        top -= 1
        piece = stack[top].copy()
        steps += 1
        if _fan_is_clear(acx, acy, target, piece, h_observer, z_target, scene, touching, grow):
            fans[n_fans, 0], fans[n_fans, 1] = acx, acy
            fans[n_fans, 2:] = piece
            n_fans += 1
            continue
        px, py = _piece_point(target, piece, 0.5 * (piece[1] + piece[2]))
        status, segment, in_the_way = pair_search(
            acx,
            acy,
            ar,
            av,
            h_observer,
            px,
            py,
            0.0,
            no_vertices,
            z_target,
            scene,
            touching,
            grow,
            False,
            True,
        )
        if status != FOUND:
            hidden = FULLY_HIDDEN if status == NONE else FULLY_UNPROVEN
            return hidden, px, py, in_the_way, fans[:0]
        sources = np.empty((3, 2))
        sources[0, 0], sources[0, 1] = segment[0], segment[1]
        sources[1, 0], sources[1, 1] = acx, acy
        sources[2, 0], sources[2, 1] = 0.5 * (segment[0] + acx), 0.5 * (segment[1] + acy)
        settled = False
        for s in range(3):
            if _fan_is_clear(
                sources[s, 0],
                sources[s, 1],
                target,
                piece,
                h_observer,
                z_target,
                scene,
                touching,
                grow,
            ):
                fans[n_fans, 0], fans[n_fans, 1] = sources[s, 0], sources[s, 1]
                fans[n_fans, 2:] = piece
                n_fans += 1
                settled = True
                break
        if settled:
            continue
        if _piece_length(target, piece) < MIN_PIECE or steps >= MAX_PIECES:
            return FULLY_UNPROVEN, px, py, touching, fans[:0]
        middle = 0.5 * (piece[1] + piece[2])
        stack[top] = piece
        stack[top, 1] = middle
        stack[top + 1] = piece
        stack[top + 1, 2] = middle
        top += 2
    return FULLY_SEEN, 0.0, 0.0, touching[:0], fans[:n_fans].copy()


ON_OUTLINE = 1e-9
"""How far (inches) a carried hidden point may lie from its base's outline and still be taken
as the outline's point: a translation's rounding is some 1e-14."""


@_compiled
def _facing_point_at(
    target: np.ndarray, observer: np.ndarray, x: float, y: float
) -> tuple[bool, float, float]:
    """Whether ``(x, y)`` lies on the target outline's boundary (within :data:`ON_OUTLINE`) at
    a point facing the observer outline (as :func:`facing_pieces` judges it: ``h_O(n) >= n .
    p``), and that point put exactly on the boundary. A hidden facing point carried along with
    its moved base is checked so before its proof is tried again."""
    cx, cy, a, b, angle = target[1], target[2], target[3], target[4], target[5]
    cos_t, sin_t = math.cos(angle), math.sin(angle)
    lu = (x - cx) * cos_t + (y - cy) * sin_t
    lv = -(x - cx) * sin_t + (y - cy) * cos_t
    if target[0] == OUTLINE_RECT:
        for side in range(4):
            # The sides as facing_pieces walks them: bottom, right, top, left.
            horizontal = side % 2 == 0
            sign = -1.0 if side == 0 or side == 3 else 1.0
            along, across, half, reach = (lu, lv, a, b) if horizontal else (lv, lu, b, a)
            if abs(across - sign * reach) > ON_OUTLINE or abs(along) > half + ON_OUTLINE:
                continue
            nu, nv = (0.0, sign) if horizontal else (sign, 0.0)
            nx, ny = nu * cos_t - nv * sin_t, nu * sin_t + nv * cos_t
            along = min(max(along, -half), half)
            su, sv = (along, sign * reach) if horizontal else (sign * reach, along)
            px, py = cx + su * cos_t - sv * sin_t, cy + su * sin_t + sv * cos_t
            if outline_support(observer, nx, ny) >= nx * px + ny * py - 1e-12:
                return True, px, py
        return False, x, y
    u = math.atan2(lv / b, lu / a)
    px, py = _outline_point(target, u, 1.0)
    if _length(px - x, py - y) > ON_OUTLINE:
        return False, x, y
    cos_o, sin_o = math.cos(observer[5]), math.sin(observer[5])
    gap = _gap_at(target, observer, cos_t, sin_t, cos_o, sin_o, math.cos(u), math.sin(u))
    return gap >= -1e-12, px, py


@_compiled
def _point_hidden_again(
    scene: SceneArrays, i: int, j: int, row: np.ndarray, terrain_only: bool, grow: float
) -> np.ndarray:
    """A :data:`FULLY_MOVED_PROOF` row's point of model ``j``, where a move left or carried
    it, searched from model ``i``'s base past the row's blockers alone, where they stand now:
    the new "not fully visible" row when the point is still a facing point of ``j``'s base and
    no line reaches it (other blockers only block more), else an empty row. Of the row's
    blockers, an obscuring area ``j`` now stands within is left out (it no longer hides
    ``j``), and with ``terrain_only`` any model."""
    on, hx, hy = _facing_point_at(scene.model_outline[j], scene.model_outline[i], row[1], row[2])
    if not on:
        return np.zeros(0)
    blockers = np.empty(len(row) - 3, dtype=np.int32)
    count = 0
    for p in range(3, len(row)):
        k = int(row[p])
        kind = scene.blocker_class[k]
        if (kind == MODEL and terrain_only) or (
            kind == SCREEN and scene.within[j, scene.blocker_piece[k]]
        ):
            continue
        blockers[count] = k
        count += 1
    if count == 0:
        return np.zeros(0)
    acx, acy, ar, av = model_end(scene.model_disc, scene.model_vertices, scene.model_ranges, i)
    status, _, in_the_way = pair_search(
        acx,
        acy,
        ar,
        av,
        scene.model_top[i],
        hx,
        hy,
        0.0,
        np.zeros((0, 2)),
        scene.model_foot[j],
        scene,
        blockers[:count],
        grow,
        False,
        True,
    )
    if status != NONE:
        return np.zeros(0)
    return _record(FULLY_HIDDEN, np.array([hx, hy]), in_the_way)


@_compiled_inline
def _settle_moved_proof(
    scene: SceneArrays, cache: Any, i: int, j: int, key: int, grow: float
) -> None:
    """Replaces a :data:`FULLY_MOVED_PROOF` at ``key`` (model ``i`` observing ``j``) by the
    proof tried again (:func:`_point_hidden_again`), or deletes it when that fails. Inlined:
    :func:`full_pair` asks it twice a call, and a call would count the scene's arrays in and
    out each time."""
    if key in cache and cache[key][0] == FULLY_MOVED_PROOF:
        proven = _point_hidden_again(scene, i, j, cache[key], key % 2 == 1, grow)
        if len(proven):
            cache[key] = proven
        else:
            cache.pop(key)


@_compiled
def full_pair(
    scene: SceneArrays, cache: Any, i: int, j: int, terrain_only: bool, grow: float
) -> np.ndarray:
    """The cached :func:`model_fully_visible` answer ``[status, hidden_x, hidden_y,
    blockers...]`` for observing model ``i`` and target model ``j``. Models can only add
    blockers, so "not fully visible" with terrain alone settles it with models too: the
    question with models is asked only after terrain alone found the target fully visible (a
    proof that a point is hidden costs far less among a few terrain blockers than among every
    model as well, and the answer is the same whichever question is asked first). A proof a
    move shook is tried again first (:func:`_settle_moved_proof`)."""
    base = (i * len(scene.model_top) + j) * 2
    key = base + (1 if terrain_only else 0)
    _settle_moved_proof(scene, cache, i, j, key, grow)
    if key in cache:
        known: np.ndarray = cache[key]
        return known
    if not terrain_only:
        _settle_moved_proof(scene, cache, i, j, base + 1, grow)
        if base + 1 not in cache:
            status, hx, hy, in_the_way, _ = model_fully_visible(scene, i, j, True, grow)
            cache[base + 1] = _record(status, np.array([hx, hy]), in_the_way)
        alone: np.ndarray = cache[base + 1]
        if alone[0] != FULLY_SEEN:
            cache[key] = alone
            return alone
    status, hx, hy, in_the_way, _ = model_fully_visible(scene, i, j, terrain_only, grow)
    row = _record(status, np.array([hx, hy]), in_the_way)
    cache[key] = row
    if terrain_only and status != FULLY_SEEN and base not in cache:
        cache[base] = row
    return row


@_compiled
def _full_pair_past(
    scene: SceneArrays, cache: Any, i: int, j: int, terrain_only: bool, grow: float, hint: int
) -> np.ndarray:
    """:func:`full_pair`'s answer for observing model ``i`` and target model ``j``; while
    neither of the pair's answers is known, the point that hides ``j`` from another model of
    ``i``'s unit (the "not fully visible" cached at ``hint``; none when negative) is tried
    first, past that proof's blockers alone (:func:`_point_hidden_again`). Models of one unit
    stand close together, so one point mostly hides behind the same walls from each of them,
    and one point tried past a few blockers costs a fraction of a search for one. Any facing
    point that no line reaches settles "not fully visible", so the answer is the search's but
    for the point and blockers it names. The proof is cached as :func:`full_pair` would cache
    it: under terrain alone too when it rests on terrain alone (the models of both units take
    no part in either question, so the other model's blockers are never these bases)."""
    base = (i * len(scene.model_top) + j) * 2
    if (
        hint >= 0
        and base not in cache
        and base + 1 not in cache
        and hint in cache
        and cache[hint][0] == FULLY_HIDDEN
    ):
        proven = _point_hidden_again(scene, i, j, cache[hint], terrain_only, grow)
        if len(proven):
            terrain = True
            for p in range(3, len(proven)):
                terrain = terrain and scene.blocker_class[int(proven[p])] != MODEL
            if terrain:
                cache[base + 1] = proven
            cache[base] = proven
            return proven
    return full_pair(scene, cache, i, j, terrain_only, grow)


@_compiled
def unit_fully_visible(
    scene: SceneArrays,
    cache: Any,
    observers: np.ndarray,
    targets: np.ndarray,
    in_the_way: np.ndarray,
    grow: float,
) -> tuple[bool, int, int, float, float, bool]:
    """Whether every target model is fully visible to at least one observing model:
    ``(fully, target, observer, hidden_x, hidden_y, proven)``, naming on failure the first
    target model no observer sees whole and what the first observer misses of it (``proven``:
    a point no line reaches, not a piece too small to settle). ``in_the_way`` collects what
    hides that target from every observer. The point hiding a target from one observer is
    tried first for the next (:func:`_full_pair_past`).

    Targets are asked in order of how many observers' cached answers already prove them not
    seen whole (:func:`_most_hidden_first`): cover, asked first, leaves terrain alone's proofs
    where this question reads them (models only hide more), and a target hidden from every
    observer settles "not" with no search. Most of the stress board's calls answer "not", and a
    search of a target some observer sees whole can cost many times what proving another
    hidden does (fully visible in its matrix, one thread: 84 against 114 ms)."""
    scene = _borrowed(scene)
    observers, targets, in_the_way = _borrowed((observers, targets, in_the_way))
    models = len(scene.model_top)
    for t in _most_hidden_first(cache, observers, targets, models):
        seen = False
        hint = -1
        for o in observers:
            status = _full_pair_past(scene, cache, o, t, False, grow, hint)[0]
            if status == FULLY_SEEN:
                seen = True
                break
            if status == FULLY_HIDDEN:
                hint = (o * models + t) * 2
        if not seen:
            for o in observers:
                _mark_from(in_the_way, full_pair(scene, cache, o, t, False, grow), 3)
            row = full_pair(scene, cache, observers[0], t, False, grow)
            return False, t, observers[0], row[1], row[2], row[0] == FULLY_HIDDEN
    return True, -1, -1, 0.0, 0.0, True


@_compiled
def _most_hidden_first(
    cache: Any, observers: np.ndarray, targets: np.ndarray, models: int
) -> np.ndarray:
    """``targets`` ordered by how many observers' cached answers, with models, prove them
    hidden (a terrain-alone proof is kept there too: :func:`full_pair`), most first; ties keep
    their order."""
    hidden = np.zeros(len(targets), dtype=np.int64)
    for b in range(len(targets)):
        for o in observers:
            key = (o * models + targets[b]) * 2
            if key in cache and cache[key][0] == FULLY_HIDDEN:
                hidden[b] -= 1
    return targets[np.argsort(hidden, kind="mergesort")]


@_compiled
def seen_whole_by_terrain(
    scene: SceneArrays,
    full_cache: Any,
    sight_cache: Any,
    observers: np.ndarray,
    exposed: np.ndarray,
    targets: np.ndarray,
    seer: int,
    seen: int,
    grow: float,
    line_half_width: float,
) -> tuple[int, int, int, np.ndarray]:
    """Benefit of cover: an observing model that sees the target unit and sees one of its
    ``exposed`` models (those not taking cover within terrain) fully with terrain alone, that
    model, and the target model the observer sees; ``-1`` for all three when there is none.
    Also which observers (``blind``, by position in ``observers``) see an exposed model whole
    with terrain alone but see no target model: with no such observer found, the cover rests
    on their top-to-top answers being "not visible" and on terrain. The models of the unit
    pair's witness line (``seer`` sees ``seen``) are asked first: that observer sees the unit,
    and on a crowded board that target model, when exposed, is most often seen whole with
    terrain alone (216 of the stress board's 319 visible pairs without cover). Then whether an
    observer sees the unit is asked with the cheap lines for every observer before any exact
    search (which, for a model the others hide, must prove a negative). The point terrain
    hides an exposed model at from one observer is tried first for the next
    (:func:`_full_pair_past`)."""
    scene = _borrowed(scene)
    observers, exposed, targets = _borrowed((observers, exposed, targets))
    blind = np.zeros(len(observers), dtype=np.bool_)
    for e in range(len(exposed)):
        if (
            exposed[e] == seen
            and full_pair(scene, full_cache, seer, seen, True, grow)[0] == FULLY_SEEN
        ):
            return seer, seen, seen, blind
    models = len(scene.model_top)
    hints = np.full(len(exposed), -1, dtype=np.int64)
    for cheap in (True, False):
        for n in range(len(observers)):
            o = observers[n]
            for e in range(len(exposed)):
                t = exposed[e]
                status = _full_pair_past(scene, full_cache, o, t, True, grow, hints[e])[0]
                if status == FULLY_HIDDEN:
                    hints[e] = (o * models + t) * 2 + 1
                if status != FULLY_SEEN:
                    continue
                for m in targets:
                    if (
                        sight_pair(scene, sight_cache, o, m, cheap, grow, line_half_width)[0]
                        == SEEN_PAIR
                    ):
                        return o, t, m, blind
                blind[n] = True
                break
    return -1, -1, -1, blind


@_compiled
def cover_and_fully_visible(
    scene: SceneArrays,
    full_cache: Any,
    sight_cache: Any,
    observers: np.ndarray,
    exposed: np.ndarray,
    targets: np.ndarray,
    seer: int,
    seen: int,
    fully_targets: np.ndarray,
    in_the_way: np.ndarray,
    grow: float,
    line_half_width: float,
) -> tuple[int, int, int, np.ndarray, bool, int, int, float, float, bool]:
    """What a visible unit pair's answer needs besides its witness, in one call (see
    :func:`unit_pair_sight`): :func:`seen_whole_by_terrain` of the ``exposed`` target models
    (asked only when there are some), then :func:`unit_fully_visible` of the target models in
    the order ``fully_targets``; the two answers, one after the other. Cover comes first: it
    asks terrain alone about the exposed models, and a model terrain alone hides from every
    observer settles "not fully visible" at once."""
    scene = _borrowed(scene)
    if len(exposed) > 0:
        observer, model, sighted, blind = seen_whole_by_terrain(
            scene,
            full_cache,
            sight_cache,
            observers,
            exposed,
            targets,
            seer,
            seen,
            grow,
            line_half_width,
        )
    else:
        observer, model, sighted = -1, -1, -1
        blind = np.zeros(len(observers), dtype=np.bool_)
    fully, hidden, first_observer, x, y, proven = unit_fully_visible(
        scene, full_cache, observers, fully_targets, in_the_way, grow
    )
    return observer, model, sighted, blind, fully, hidden, first_observer, x, y, proven


def warm_up() -> None:
    """Compiles (or loads from numba's cache) every kernel the line-of-sight engine calls, by
    working out a small board that reaches each stage: round, oval and rectangular bases, a wall,
    a low crate under taller models, an L-shaped ruin wall, an obscuring area and cover; then
    moves the units one after the other, as a drag does, so the kernels that keep proofs across
    a move (and try a kept barrier first) are compiled too, not on the app's first drag."""
    from engine.model import (
        CircleBase,
        Model,
        OvalBase,
        Player,
        RectBase,
        Scenario,
        TerrainFeature,
        TerrainPiece,
        Unit,
    )
    from engine.visibility import VisibilityEngine

    def square(x: float, y: float, w: float, d: float) -> tuple[tuple[float, float], ...]:
        return ((x, y), (x + w, y), (x + w, y + d), (x, y + d))

    ell = ((20.0, 10.0), (26.0, 10.0), (26.0, 10.5), (20.5, 10.5), (20.5, 16.0), (20.0, 16.0))
    terrain = (
        TerrainPiece(
            "wall", square(14, 0, 1, 8), features=(TerrainFeature(square(14, 0, 1, 8), 5.0),)
        ),
        TerrainPiece(
            "crate", square(14, 12, 1, 2), features=(TerrainFeature(square(14, 12, 1, 2), 2.0),)
        ),
        TerrainPiece("ruin", square(20, 10, 6, 6), features=(TerrainFeature(ell, 5.0),)),
        TerrainPiece("woods", square(30, 0, 4, 20), obscuring=True),
        TerrainPiece(
            "bunker", square(4, 25, 1, 10), features=(TerrainFeature(square(4, 25, 1, 10), 5.0),)
        ),
    )
    red = Unit(
        "red",
        "red",
        (
            Model("r1", 10.0, 4.0, CircleBase(32), height=1.5),
            Model("r2", 10.0, 13.0, OvalBase(60, 35), height=3.0),
            Model("r3", 22.0, 14.0, CircleBase(32), height=1.5),
        ),
        keywords=("INFANTRY",),
    )
    blue = Unit(
        "blue",
        "blue",
        (
            Model("b1", 18.0, 4.0, CircleBase(32), height=1.5),
            Model("b2", 18.0, 13.0, RectBase(50, 30), height=2.5),
            Model("b3", 40.0, 10.0, CircleBase(40), height=1.5),
        ),
    )
    # Walled off from each other by the bunker: after either moves, their barrier is kept.
    scout = Unit("scout", "red", (Model("s1", 2.0, 30.0, CircleBase(25)),))
    sniper = Unit("sniper", "blue", (Model("n1", 7.5, 30.0, CircleBase(25)),))
    board = Scenario(
        "wh40k-ca2026",
        (Player("red"), Player("blue")),
        units=(red, blue, scout, sniper),
        terrain=terrain,
    )
    engine = VisibilityEngine(board)
    engine.matrix()
    for unit in board.units:
        board = board.with_unit_moved(unit.id, 0.0, 0.25)
        engine.update(board, (unit.id,))
    # An update tests a unit pair's corridor (the hull of its units' hulls) against the moved
    # bases only when it cannot keep the pair's answer otherwise, which this board's moves may
    # never need: compiled here all the same, with the arrays an update hands them.
    unit_hull = bases_hull(
        np.array([[OUTLINE_CIRCLE, 0.0, 0.0, 1.0, 1.0, 0.0]]), np.zeros(1, dtype=np.int32)
    )
    corridor = convex_hull(np.concatenate((unit_hull, unit_hull + 3.0)))
    hull_meets_boxes(corridor, np.zeros((1, 4)))
    # So are the lookups of a kept witness's answer, and of what a kept "not fully visible"
    # and its cover rest on, asked only after a move deleted some answer between their units.
    known_state(new_cache(), 0)
    no_rows = np.zeros(0, dtype=np.int32)
    answers_stand(new_cache(), new_cache(), no_rows, 0, 1, no_rows, no_rows, True)


@_compiled
def _rests_on_moved(row: np.ndarray, start: int, moved: np.ndarray, offset: int) -> bool:
    """Whether a proof's blockers (``row[start:]``) include a model of ``moved`` (model ``m``
    is blocker ``offset + m``)."""
    for p in range(start, len(row)):
        k = int(row[p])
        if k >= offset and moved[k - offset]:
            return True
    return False


@_compiled
def _witness_meets_moved(
    scene: SceneArrays, i: int, j: int, row: np.ndarray, moved_rows: np.ndarray, grow: float
) -> bool:
    """Whether a moved model (rows ``moved_rows``), where it stands now, is in the way of the
    witness segment of a :func:`sight_pair` answer for models ``i < j`` (the search's own
    test, graze included)."""
    offset = len(scene.blocker_kind) - len(scene.model_top)
    px, py = row[1], row[2]
    dx, dy = row[3] - px, row[4] - py
    for m in moved_rows:
        k = offset + m
        low, t0, t1 = low_interval(scene.model_top[i], scene.model_top[j], scene.blocker_top[k])
        if low and _blocks(
            px,
            py,
            dx,
            dy,
            scene.blocker_kind,
            scene.blocker_disc,
            scene.blocker_boxes,
            scene.blocker_vertices,
            scene.blocker_ranges,
            k,
            t0,
            t1,
            grow,
            GRAZE,
        ):
            return True
    return False


@_compiled
def _hull_meets(
    scene: SceneArrays, i: int, j: int, boxes: np.ndarray, reach: np.ndarray, margin: float
) -> bool:
    """Whether a box of ``boxes`` meets the hull of models ``i`` and ``j``'s bases grown by
    ``margin``. ``reach`` is the box holding all of ``boxes``, grown by ``margin``: bases whose
    blockers' boxes (never smaller than the bases) stay apart from it meet none of them, told
    without making their end shapes."""
    offset = len(scene.blocker_kind) - len(scene.model_top)
    bases = scene.blocker_boxes
    if (
        min(bases[offset + i, 0], bases[offset + j, 0]) > reach[2]
        or max(bases[offset + i, 2], bases[offset + j, 2]) < reach[0]
        or min(bases[offset + i, 1], bases[offset + j, 1]) > reach[3]
        or max(bases[offset + i, 3], bases[offset + j, 3]) < reach[1]
    ):
        return False
    acx, acy, ar, av = model_end(scene.model_disc, scene.model_vertices, scene.model_ranges, i)
    bcx, bcy, br, bv = model_end(scene.model_disc, scene.model_vertices, scene.model_ranges, j)
    ax0, ay0, ax1, ay1 = _shape_bounds(acx, acy, ar, av)
    bx0, by0, bx1, by1 = _shape_bounds(bcx, bcy, br, bv)
    x0, y0 = min(ax0, bx0) - margin, min(ay0, by0) - margin
    x1, y1 = max(ax1, bx1) + margin, max(ay1, by1) + margin
    first = 0
    while first < len(boxes) and _row_apart_from(boxes, first, x0, y0, x1, y1):
        first += 1
    if first == len(boxes):
        return False
    # The corridor is made once, for the first box near the pair's box: made in the loop, it
    # would be an array reassigned there, its references counted at every turn.
    planes = corridor(acx, acy, ar, av, bcx, bcy, br, bv)
    for b in range(first, len(boxes)):
        if _row_apart_from(boxes, b, x0, y0, x1, y1):
            continue
        apart = False
        for p in range(len(planes)):
            nx, ny, c = planes[p, 0], planes[p, 1], planes[p, 2]
            nearest = min(nx * boxes[b, 0], nx * boxes[b, 2]) + min(
                ny * boxes[b, 1], ny * boxes[b, 3]
            )
            if nearest - c > margin:
                apart = True
                break
        if not apart:
            return True
    return False


@_compiled
def known_state(cache: Any, key: int) -> int:
    """The state of a cached model-pair answer, :data:`UNKNOWN_PAIR` when there is none. A
    compiled lookup, kept in the on-disk cache: the typed dictionary's own methods, called from
    Python, are compiled afresh in every process (over a second, on the first move)."""
    if key in cache:
        return int(cache[key][0])
    return UNKNOWN_PAIR


@_compiled
def answers_stand(
    full: Any,
    sight: Any,
    observers: np.ndarray,
    hidden: int,
    models: int,
    basis_observers: np.ndarray,
    basis_targets: np.ndarray,
    seen: bool,
) -> bool:
    """Whether a unit pair's "not fully visible" and its benefit of cover still read as they
    were worked out, in one call (each lookup from Python pays for handing a typed dictionary
    over): in ``full``, every observing model (rows ``observers``) still misses the target
    model ``hidden`` (hidden or unproven), and in ``sight`` every top-to-top answer between
    ``basis_observers`` and ``basis_targets`` is still seen (``seen``) or still not (hidden or
    unproven). ``models`` is the scene's number of models, which keys the caches.

    >>> cache = new_cache()
    >>> cache[(0 * 2 + 1) * 2] = np.array([float(FULLY_HIDDEN)])
    >>> rows = np.array([0], dtype=np.int32)
    >>> answers_stand(cache, new_cache(), rows, 1, 2, rows[:0], rows[:0], True)
    True
    >>> answers_stand(new_cache(), new_cache(), rows, 1, 2, rows[:0], rows[:0], True)
    False
    """
    for row in observers:
        state = known_state(full, (row * models + hidden) * 2)
        if state != FULLY_HIDDEN and state != FULLY_UNPROVEN:
            return False
    for one in basis_observers:
        for other in basis_targets:
            state = known_state(sight, min(one, other) * models + max(one, other))
            stands = state == SEEN_PAIR if seen else state in (HIDDEN_PAIR, UNPROVEN_PAIR)
            if not stands:
                return False
    return True


@_compiled
def bases_hull(outlines: np.ndarray, models: np.ndarray) -> np.ndarray:
    """A convex polygon holding the true bases of ``models`` (rows of ``outlines``, a scene's
    ``model_outline``; counter-clockwise): the hull of a 16-gon circumscribing each round or
    oval base (the image of a regular one under the map taking the unit circle to the oval)
    and of each rectangle's corners. It takes the one array it reads: handing Python's whole
    scene to compiled code costs more than the hull of two units' bases."""
    points = np.empty((16 * len(models), 2))
    n = 0
    reach = 1.0 / math.cos(math.pi / 16)
    for m in models:
        outline = outlines[m]
        if outline[0] == OUTLINE_RECT:
            cx, cy, a, b, angle = outline[1], outline[2], outline[3], outline[4], outline[5]
            cos_a, sin_a = math.cos(angle), math.sin(angle)
            for sx, sy in ((1.0, 1.0), (-1.0, 1.0), (-1.0, -1.0), (1.0, -1.0)):
                x, y = sx * a, sy * b
                points[n, 0], points[n, 1] = cx + x * cos_a - y * sin_a, cy + x * sin_a + y * cos_a
                n += 1
        else:
            for k in range(16):
                points[n, 0], points[n, 1] = _outline_point(outline, k * math.pi / 8, reach)
                n += 1
    return convex_hull(points[:n])


@_compiled
def hull_meets_boxes(hull: np.ndarray, boxes: np.ndarray) -> bool:
    """Whether a box ``(x0, y0, x1, y1)`` of ``boxes`` meets the convex polygon ``hull``
    (counter-clockwise): a box and the polygon are apart exactly when an axis or an edge's
    outward normal separates them."""
    x0, y0, x1, y1 = _shape_bounds(0.0, 0.0, 0.0, hull)
    n = len(hull)
    for b in range(len(boxes)):
        box = boxes[b]
        if box[0] > x1 or box[2] < x0 or box[1] > y1 or box[3] < y0:
            continue
        apart = False
        for k in range(n):
            f = (k + 1) % n
            nx, ny = hull[f, 1] - hull[k, 1], hull[k, 0] - hull[f, 0]
            nearest = min(nx * box[0], nx * box[2]) + min(ny * box[1], ny * box[3])
            if nearest > nx * hull[k, 0] + ny * hull[k, 1]:
                apart = True
                break
        if not apart:
            return True
    return False


@_compiled
def forget_moved(
    scene: SceneArrays,
    cache: Any,
    moved: np.ndarray,
    shift: np.ndarray,
    carried: np.ndarray,
    boxes: np.ndarray,
    grow: float,
    full: bool,
    touched: np.ndarray,
) -> int:
    """Deletes from ``cache`` (a :func:`sight_pair` cache, or with ``full`` a :func:`full_pair`
    one) every answer a move may have changed, keeping the rest for the moved scene. ``scene``
    is the new scene, whose models keep the old rows; ``boxes`` are where the moved models'
    bases stood and stand, grown by what can block. Returns how many answers were kept; marks
    in ``touched`` (units by units, both ways round) the units of each answer deleted or
    shaken: a unit pair none of whose answers is marked reads what it read before.

    A top-to-top "not visible" proven with blockers none of which moved, between models that
    did not move, stays proven, since other blockers only block more; one that rests on a moved
    blocker or end becomes a :data:`MOVED_PROOF_PAIR`, its blockers tried again first. A point
    no line reaches (the proof of "not fully visible", with models or terrain alone) about a
    moved model becomes a :data:`FULLY_MOVED_PROOF` when the target's base was ``carried`` (moved
    by a translation alone, ``shift``, which carries the point with it) or did not move: a small
    step seldom takes a base out from behind its wall. Any other answer about a moved model
    goes. An answer judged with terrain alone about two models that did not move stays: no
    other model takes part in it. Of the others, moving blockers can only break what rests on
    them: a point no line reaches proven with blockers none of which moved stays proven (one
    resting on a moved blocker becomes a :data:`FULLY_MOVED_PROOF`); a witness line no moved
    base stands in the way of now stays free, since a blocker that left cannot block it. Any
    other answer (cheap stage failed, seen whole, unproven) stays only if no box meets the hull
    of the pair's bases."""
    models = len(scene.model_top)
    offset = len(scene.blocker_kind) - models
    margin = 2.0 * grow
    moved_rows = np.flatnonzero(moved)
    reach = np.array([math.inf, math.inf, -math.inf, -math.inf])
    for b in range(len(boxes)):
        for side in range(2):
            reach[side] = min(reach[side], boxes[b, side] - margin)
            reach[side + 2] = max(reach[side + 2], boxes[b, side + 2] + margin)
    stale = np.empty(len(cache), dtype=np.int64)
    n_stale = 0
    shaken = np.empty(len(cache), dtype=np.int64)
    n_shaken = 0
    for key, row in cache.items():
        if full:
            i, j = (key // 2) // models, (key // 2) % models
        else:
            i, j = key // models, key % models
        state = int(row[0])
        if not full and state in (HIDDEN_PAIR, MOVED_PROOF_PAIR):
            if state == HIDDEN_PAIR and (
                moved[i] or moved[j] or _rests_on_moved(row, 5, moved, offset)
            ):
                # Shaken in place: a top-to-top row is its answer's own (a proof shared by
                # several model pairs is stored as a copy for each), and no one reads it
                # meanwhile.
                _mark_units(scene, touched, key, models, full)
                row[0] = MOVED_PROOF_PAIR
            continue
        ends_moved = moved[i] or moved[j]
        if full and state in (FULLY_HIDDEN, FULLY_MOVED_PROOF):
            if ends_moved:
                try_again = carried[j] or not moved[j]
            else:
                try_again = state == FULLY_HIDDEN and key % 2 == 0
                try_again = try_again and _rests_on_moved(row, 3, moved, offset)
            if try_again:
                shaken[n_shaken] = key
                n_shaken += 1
            if try_again or not ends_moved:
                continue
        if ends_moved:
            stale[n_stale] = key
            n_stale += 1
            continue
        if full and key % 2 == 1:
            continue
        if not full and state == SEEN_PAIR:
            keep = not _witness_meets_moved(scene, i, j, row, moved_rows, grow)
        else:
            keep = not _hull_meets(scene, i, j, boxes, reach, margin)
        if not keep:
            stale[n_stale] = key
            n_stale += 1
    for m in range(n_stale):
        _mark_units(scene, touched, stale[m], models, full)
        cache.pop(stale[m])
    for m in range(n_shaken):
        # A copy each: the answers with models and with terrain alone may share a row.
        _mark_units(scene, touched, shaken[m], models, full)
        row = cache[shaken[m]].copy()
        row[0] = FULLY_MOVED_PROOF
        j = (shaken[m] // 2) % models
        row[1] += shift[j, 0]
        row[2] += shift[j, 1]
        cache[shaken[m]] = row
    return len(cache)


@_compiled_leaf
def _mark_units(scene: SceneArrays, touched: np.ndarray, key: int, models: int, full: bool) -> None:
    """Marks in ``touched`` the two units of a cache ``key``'s model pair, both ways round."""
    pair = key // 2 if full else key
    one, other = scene.model_unit[pair // models], scene.model_unit[pair % models]
    touched[one, other] = True
    touched[other, one] = True


@_compiled
def forget_moved_in(
    scene: SceneArrays,
    caches: Any,
    moved: np.ndarray,
    shift: np.ndarray,
    carried: np.ndarray,
    boxes: np.ndarray,
    grow: float,
    touched: np.ndarray,
    first: int,
    step: int,
) -> None:
    """:func:`forget_moved` for the slots ``first``, ``first + step``, ... of ``caches`` (a
    :func:`new_cache_list` list holding each slot's :func:`sight_pair` cache, then its
    :func:`full_pair` one), in one call: the scene's arrays are handed to compiled code once,
    not once a cache (about half the time of a call from Python goes to that). Threads given
    the same ``step`` and different ``first`` share the slots out; each marks its own
    ``touched``."""
    scene = _borrowed(scene)
    moved, shift, carried, boxes, touched = _borrowed((moved, shift, carried, boxes, touched))
    for slot in range(first, len(caches) // 2, step):
        forget_moved(scene, caches[2 * slot], moved, shift, carried, boxes, grow, False, touched)
        forget_moved(scene, caches[2 * slot + 1], moved, shift, carried, boxes, grow, True, touched)
