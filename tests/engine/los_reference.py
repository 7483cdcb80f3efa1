"""An independent brute-force line-of-sight reference for the tests (never used by the engine).

It shares no code with ``engine/visibility.py`` or ``engine/sight_kernel.py``: footprints are
sampled on grids, distances are plain numpy point/segment algebra, and the rules are read
from the spec ("Line of sight (2.5-D)") and the engine's documented choices:

* a line from height ``h0`` to ``h1`` is *low* over a blocker of top ``T`` where its height is at
  or below ``T``; meeting the top only at the line's own lower end point does not count, and a
  level line exactly at ``T`` is low;
* the line is 1 mm wide: it is blocked when its low part comes within 0.5 mm of a footprint;
* "with clearance c": the low part stays at least ``c`` from every blocker footprint.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from engine.model import CircleBase, Model, OvalBase, RectBase, Scenario

if TYPE_CHECKING:
    from engine.visibility import PairVisibility

MM = 1.0 / 25.4
HALF_WIDTH = 0.5 * MM
CLEARANCE = 0.05
SPACING = 0.05


@dataclass(frozen=True)
class RefShape:
    """A footprint: ``kind`` circle (a = b = r), oval (semi-axes) or polygon (``points``)."""

    kind: str
    cx: float
    cy: float
    a: float = 0.0
    b: float = 0.0
    angle: float = 0.0
    points: tuple[tuple[float, float], ...] = ()

    def contains(self, x: np.ndarray, y: np.ndarray, slack: float = 0.0) -> np.ndarray:
        if self.kind == "polygon":
            return _in_polygon(np.asarray(self.points), x, y) | (
                _polygon_distance(np.asarray(self.points), x, y) <= slack
            )
        c, s = math.cos(self.angle), math.sin(self.angle)
        u = (x - self.cx) * c + (y - self.cy) * s
        v = -(x - self.cx) * s + (y - self.cy) * c
        if self.kind == "circle":
            return np.hypot(u, v) <= self.a + slack
        return (u / (self.a + slack)) ** 2 + (v / (self.b + slack)) ** 2 <= 1.0

    def on_boundary(self, x: np.ndarray, y: np.ndarray, tolerance: float = 1e-6) -> np.ndarray:
        """Whether each point lies within ``tolerance`` of the footprint's outline."""
        if self.kind == "polygon":
            return _polygon_distance(np.asarray(self.points), x, y) <= tolerance
        return self.contains(x, y, slack=tolerance) & ~self.contains(x, y, slack=-tolerance)

    def boundary(self, spacing: float) -> tuple[np.ndarray, np.ndarray]:
        """Boundary points about ``spacing`` apart and their outward unit normals."""
        if self.kind == "polygon":
            pts = np.asarray(self.points, dtype=float)
            out_p, out_n = [], []
            area2 = sum(
                pts[i, 0] * pts[(i + 1) % len(pts), 1] - pts[(i + 1) % len(pts), 0] * pts[i, 1]
                for i in range(len(pts))
            )
            sign = 1.0 if area2 > 0 else -1.0
            for i in range(len(pts)):
                p0, p1 = pts[i], pts[(i + 1) % len(pts)]
                length = float(np.hypot(*(p1 - p0)))
                n = max(2, math.ceil(length / spacing) + 1)
                t = np.linspace(0, 1, n)
                out_p.append(p0 + t[:, None] * (p1 - p0))
                normal = sign * np.array([p1[1] - p0[1], -(p1[0] - p0[0])]) / length
                out_n.append(np.repeat(normal[None, :], n, axis=0))
            return np.vstack(out_p), np.vstack(out_n)
        perimeter = 2 * math.pi * max(self.a, self.b)
        n = max(64, math.ceil(perimeter / spacing))
        t = np.linspace(0, 2 * math.pi, n, endpoint=False)
        c, s = math.cos(self.angle), math.sin(self.angle)
        u, v = self.a * np.cos(t), self.b * np.sin(t)
        nu, nv = self.b * np.cos(t), self.a * np.sin(t)
        norm = np.hypot(nu, nv)
        points = np.column_stack([self.cx + u * c - v * s, self.cy + u * s + v * c])
        normals = np.column_stack([(nu * c - nv * s) / norm, (nu * s + nv * c) / norm])
        return points, normals

    def grid(self, spacing: float = SPACING) -> np.ndarray:
        """Points inside the footprint on a grid of ``spacing``, plus boundary points."""
        x0, y0, x1, y1 = self.bounds()
        xs = np.arange(x0, x1 + spacing, spacing)
        ys = np.arange(y0, y1 + spacing, spacing)
        gx, gy = np.meshgrid(xs, ys)
        gx, gy = gx.ravel(), gy.ravel()
        inside = self.contains(gx, gy)
        boundary, normals = self.boundary(spacing)
        # Boundary samples pulled in by a hair stay inside the footprint.
        pulled = boundary - 1e-7 * normals
        return np.vstack([np.column_stack([gx[inside], gy[inside]]), pulled])

    def bounds(self) -> tuple[float, float, float, float]:
        if self.kind == "polygon":
            pts = np.asarray(self.points)
            return pts[:, 0].min(), pts[:, 1].min(), pts[:, 0].max(), pts[:, 1].max()
        r = max(self.a, self.b) if self.kind != "rect" else math.hypot(self.a, self.b)
        return self.cx - r, self.cy - r, self.cx + r, self.cy + r

    def distance(
        self, p0: np.ndarray, p1: np.ndarray, sides: int = 96, cap: float = math.inf
    ) -> np.ndarray:
        """Plan distance from each segment ``p0[i] -> p1[i]`` to this footprint (0 if touching);
        a distance of ``cap`` or more may be reported as ``cap``.

        Ovals are measured as an inscribed ``sides``-gon, so the figure may exceed the truth by
        ``a (1 - cos(pi / sides))`` (under 0.001" at 96 sides for bases up to 170 mm). In the
        oval's own frame scaled to a unit circle the polygon is regular: a segment passing within
        ``cos(pi / sides)`` of the centre there meets it, one staying ``d`` from the centre there
        is at least ``min(a, b) (d - 1)`` from it; only the others are measured edge by edge."""
        if self.kind == "circle":
            return np.maximum(0.0, _point_segment(self.cx, self.cy, p0, p1) - self.a)
        if self.kind == "polygon":
            return _segments_polygon_distance(self.polygon_points(sides), p0, p1)
        c, s = math.cos(self.angle), math.sin(self.angle)
        scale = np.array([[c / self.a, -s / self.b], [s / self.a, c / self.b]])
        centre = np.array([self.cx, self.cy])
        scaled = _point_segment(0.0, 0.0, (p0 - centre) @ scale, (p1 - centre) @ scale)
        out = np.full(len(p0), np.nan)
        out[min(self.a, self.b) * (scaled - 1.0) >= cap] = cap
        out[scaled <= math.cos(math.pi / sides)] = 0.0
        rest = np.isnan(out)
        out[rest] = _segments_polygon_distance(self.polygon_points(sides), p0[rest], p1[rest])
        return out

    def polygon_points(self, sides: int = 96) -> np.ndarray:
        if self.kind == "polygon":
            return np.asarray(self.points, dtype=float)
        t = np.linspace(0, 2 * math.pi, sides, endpoint=False)
        c, s = math.cos(self.angle), math.sin(self.angle)
        u, v = self.a * np.cos(t), self.b * np.sin(t)
        return np.column_stack([self.cx + u * c - v * s, self.cy + u * s + v * c])


def model_shape(model: Model) -> RefShape:
    angle = math.radians(model.rotation)
    if isinstance(model.base, CircleBase):
        r = model.base.diameter * MM / 2
        return RefShape("circle", model.x, model.y, r, r)
    if isinstance(model.base, OvalBase):
        a, b = model.base.length * MM / 2, model.base.width * MM / 2
        return RefShape("oval", model.x, model.y, a, b, angle)
    assert isinstance(model.base, RectBase)
    a, b = model.base.length * MM / 2, model.base.width * MM / 2
    c, s = math.cos(angle), math.sin(angle)
    corners = tuple(
        (model.x + u * c - v * s, model.y + u * s + v * c)
        for u, v in ((-a, -b), (a, -b), (a, b), (-a, b))
    )
    return RefShape("polygon", model.x, model.y, points=corners)


def _point_segment(cx: float, cy: float, p0: np.ndarray, p1: np.ndarray) -> np.ndarray:
    d = p1 - p0
    ll = (d**2).sum(axis=1)
    t = np.where(
        ll > 0, ((cx - p0[:, 0]) * d[:, 0] + (cy - p0[:, 1]) * d[:, 1]) / np.where(ll > 0, ll, 1), 0
    )
    t = np.clip(t, 0, 1)
    return np.hypot(p0[:, 0] + t * d[:, 0] - cx, p0[:, 1] + t * d[:, 1] - cy)


def _in_polygon(poly: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    inside = np.zeros(np.shape(x), dtype=bool)
    n = len(poly)
    for i in range(n):
        xi, yi = poly[i]
        xj, yj = poly[(i + 1) % n]
        crosses = (yi > y) != (yj > y)
        with np.errstate(divide="ignore", invalid="ignore"):
            xcross = xi + (y - yi) * (xj - xi) / (yj - yi)
        inside ^= crosses & (x < xcross)
    return inside


def _polygon_distance(poly: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    best = np.full(np.shape(x), np.inf)
    pts = np.column_stack([np.ravel(x), np.ravel(y)])
    for i in range(len(poly)):
        a, b = poly[i], poly[(i + 1) % len(poly)]
        d = _point_segment_many(pts, a, b).reshape(np.shape(x))
        best = np.minimum(best, d)
    return best


def _point_segment_many(pts: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    d = b - a
    ll = float(d @ d)
    t = np.clip(((pts - a) @ d) / ll, 0, 1) if ll > 0 else np.zeros(len(pts))
    proj = a + t[:, None] * d
    return np.hypot(*(pts - proj).T)


def _segments_polygon_distance(poly: np.ndarray, p0: np.ndarray, p1: np.ndarray) -> np.ndarray:
    """Distance from each segment to a (possibly non-convex) polygon, 0 when they meet."""
    inside = _in_polygon(poly, p0[:, 0], p0[:, 1])
    best = np.full(len(p0), np.inf)
    for i in range(len(poly)):
        a, b = poly[i], poly[(i + 1) % len(poly)]
        best = np.minimum(best, _segment_segment(p0, p1, a, b))
    return np.where(inside, 0.0, best)


def _cross(ax: np.ndarray, ay: np.ndarray, bx: np.ndarray, by: np.ndarray) -> np.ndarray:
    return ax * by - ay * bx


def _segment_segment(p0: np.ndarray, p1: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    d1 = _cross(p1[:, 0] - p0[:, 0], p1[:, 1] - p0[:, 1], a[0] - p0[:, 0], a[1] - p0[:, 1])
    d2 = _cross(p1[:, 0] - p0[:, 0], p1[:, 1] - p0[:, 1], b[0] - p0[:, 0], b[1] - p0[:, 1])
    d3 = _cross(b[0] - a[0], b[1] - a[1], p0[:, 0] - a[0], p0[:, 1] - a[1])
    d4 = _cross(b[0] - a[0], b[1] - a[1], p1[:, 0] - a[0], p1[:, 1] - a[1])
    proper = (np.sign(d1) * np.sign(d2) < 0) & (np.sign(d3) * np.sign(d4) < 0)
    dist = np.minimum.reduce(
        [
            _point_segment(a[0], a[1], p0, p1),
            _point_segment(b[0], b[1], p0, p1),
            _point_segment_many(p0, a, b),
            _point_segment_many(p1, a, b),
        ]
    )
    return np.where(proper, 0.0, dist)


def low_part(h0: float, h1: float, top: float) -> tuple[float, float] | None:
    """Where (as fractions from the start) the line is at or below ``top``; independent code."""
    if math.isinf(top):
        return 0.0, 1.0
    if math.isclose(h0, h1, abs_tol=1e-6):
        return (0.0, 1.0) if top >= h0 - 1e-6 else None
    lo_h, hi_h = min(h0, h1), max(h0, h1)
    if top <= lo_h + 1e-6:
        return None
    if top >= hi_h:
        return 0.0, 1.0
    f = (top - h0) / (h1 - h0)
    return (f, 1.0) if h1 < h0 else (0.0, f)


@dataclass(frozen=True)
class RefBlocker:
    name: str
    shape: RefShape
    top: float


def blockers_for(scenario: Scenario, observer_unit: str, target_unit: str) -> list[RefBlocker]:
    """Solid features (unless Nowhere to Hide) and models of other units."""
    twist = (scenario.game or {}).get("twist")
    out = []
    if twist != "nowhere-to-hide":
        for piece in scenario.terrain:
            for feature in piece.features:
                if feature.solid:
                    out.append(
                        RefBlocker(
                            piece.id,
                            RefShape("polygon", 0, 0, points=feature.shape),
                            feature.z + feature.height,
                        )
                    )
    for unit in scenario.units:
        if unit.id in (observer_unit, target_unit):
            continue
        for model in unit.models:
            out.append(RefBlocker(unit.id, model_shape(model), model.z + model.height))
    return out


def terrain_blockers(scenario: Scenario) -> list[RefBlocker]:
    return [b for b in blockers_for(scenario, "", "") if b.name in {t.id for t in scenario.terrain}]


def _within(model: Model, polygons: tuple) -> bool:
    """The base overlaps one of the polygons (sampled base points, or a polygon vertex inside
    the base, so thin areas are caught too)."""
    shape = model_shape(model)
    pts = shape.grid(0.02)
    for points in polygons:
        area = RefShape("polygon", 0, 0, points=points)
        if area.contains(pts[:, 0], pts[:, 1], slack=1e-6).any():
            return True
        corners = np.asarray(points, dtype=float)
        if shape.contains(corners[:, 0], corners[:, 1], slack=1e-6).any():
            return True
    return False


def screens_for(
    scenario: Scenario, target: Model, observer: Model | None = None
) -> list[RefBlocker]:
    """Obscuring areas (as blockers at any height) the target model is not within; with an
    ``observer``, only those neither model is within (the ones that block a sight line)."""
    if observer is not None and scenario.options.get("obscuring", "block") == "cover-only":
        return []
    out = []
    for piece in scenario.terrain:
        if not piece.obscuring:
            continue
        polygons = piece.footprints
        if _within(target, polygons) or (observer is not None and _within(observer, polygons)):
            continue
        out.extend(
            RefBlocker(piece.id, RefShape("polygon", 0, 0, points=p), math.inf) for p in polygons
        )
    return out


def segment_gaps(
    starts: np.ndarray,
    ends: np.ndarray,
    h0: float,
    h1: float,
    blockers: list[RefBlocker],
    sides: int = 96,
    cap: float = 1.0,
) -> np.ndarray:
    """For each segment, the smallest plan distance from its low parts to a blocker (``cap``
    when none comes closer than ``cap``)."""
    gaps = np.full(len(starts), cap)
    x0 = min(starts[:, 0].min(), ends[:, 0].min()) - cap
    x1 = max(starts[:, 0].max(), ends[:, 0].max()) + cap
    y0 = min(starts[:, 1].min(), ends[:, 1].min()) - cap
    y1 = max(starts[:, 1].max(), ends[:, 1].max()) + cap
    for blocker in blockers:
        part = low_part(h0, h1, blocker.top)
        if part is None:
            continue
        bx0, by0, bx1, by1 = blocker.shape.bounds()
        if bx1 < x0 or bx0 > x1 or by1 < y0 or by0 > y1:
            continue
        f0, f1 = part
        p0 = starts + f0 * (ends - starts)
        p1 = starts + f1 * (ends - starts)
        gaps = np.minimum(gaps, blocker.shape.distance(p0, p1, sides, cap))
    return gaps


def segment_is_free(start, end, h0, h1, blockers) -> bool:  # noqa: ANN001 - test helper
    """The 1 mm line from ``start`` to ``end`` meets no blocker (ovals as 1440-gons)."""
    s, e = np.array([start], dtype=float), np.array([end], dtype=float)
    gap = segment_gaps(s, e, h0, h1, blockers, sides=1440)[0]
    return bool(gap > HALF_WIDTH - 1e-7)


def sees_with_clearance(
    observer: Model, target: Model, blockers: list[RefBlocker], chunk: int = 250_000
) -> bool:
    """Some top-to-top segment between the two footprints (every pair of their grid points,
    ``SPACING`` apart) keeps ``CLEARANCE`` from every blocker."""
    a = model_shape(observer).grid()
    b = model_shape(target).grid()
    blockers = _near(blockers, np.vstack([a, b]))
    h0, h1 = observer.z + observer.height, target.z + target.height
    rows_per_chunk = max(1, chunk // len(b))
    for i in range(0, len(a), rows_per_chunk):
        block = a[i : i + rows_per_chunk]
        starts = np.repeat(block, len(b), axis=0)
        ends = np.tile(b, (len(block), 1))
        if any_clear(starts, ends, h0, h1, blockers):
            return True
    return False


def any_clear(
    starts: np.ndarray, ends: np.ndarray, h0: float, h1: float, blockers: list[RefBlocker]
) -> bool:
    """Whether some segment keeps ``CLEARANCE`` from every blocker. Each blocker in turn drops
    the segments it comes too close to (measuring only those whose box comes near its box),
    the blockers that drop most of a sample first, so most segments meet one blocker."""
    sample = np.linspace(0, len(starts) - 1, min(len(starts), 512)).astype(int)
    first, last = starts[sample], ends[sample]
    kills = [
        -int((segment_gaps(first, last, h0, h1, [b], cap=CLEARANCE) < CLEARANCE).sum())
        for b in blockers
    ]
    for k in np.argsort(kills, kind="stable"):
        blocker = blockers[k]
        x0, y0, x1, y1 = blocker.shape.bounds()
        near = (
            (np.minimum(starts[:, 0], ends[:, 0]) <= x1 + CLEARANCE)
            & (np.maximum(starts[:, 0], ends[:, 0]) >= x0 - CLEARANCE)
            & (np.minimum(starts[:, 1], ends[:, 1]) <= y1 + CLEARANCE)
            & (np.maximum(starts[:, 1], ends[:, 1]) >= y0 - CLEARANCE)
        )
        if near.any():
            clear = ~near
            gaps = segment_gaps(starts[near], ends[near], h0, h1, [blocker], cap=CLEARANCE)
            clear[near] = gaps >= CLEARANCE
            starts, ends = starts[clear], ends[clear]
        if not len(starts):
            return False
    return True


def _near(blockers: list[RefBlocker], points: np.ndarray) -> list[RefBlocker]:
    """Blockers whose box meets the box of ``points`` grown by the clearance."""
    x0, y0 = points.min(axis=0) - CLEARANCE
    x1, y1 = points.max(axis=0) + CLEARANCE
    out = []
    for b in blockers:
        bx0, by0, bx1, by1 = b.shape.bounds()
        if not (bx1 < x0 or bx0 > x1 or by1 < y0 or by0 > y1):
            out.append(b)
    return out


def facing_points(observer: Model, target: Model, spacing: float = SPACING) -> np.ndarray:
    """Boundary points of the target that some observer point sees with only the target's own
    base in the way (for a convex base: the observer reaches the outer side of the tangent)."""
    points, normals = model_shape(target).boundary(spacing)
    obs = model_shape(observer).grid(spacing)
    reach = (obs @ normals.T).max(axis=0)
    own = (points * normals).sum(axis=1)
    return points[reach >= own - 1e-9]


def fully_visible_with_clearance(
    observer: Model, target: Model, blockers: list[RefBlocker], screens: list[RefBlocker]
) -> bool:
    """Every facing point is seen at its foot by some line keeping ``CLEARANCE`` from every
    blocker and screen."""
    obs = model_shape(observer).grid()
    h0, h1 = observer.z + observer.height, target.z
    near = _near(blockers + screens, np.vstack([obs, model_shape(target).grid()]))
    return all(
        point_seen_with_clearance(obs, p, h0, h1, near) for p in facing_points(observer, target)
    )


def point_seen_with_clearance(
    starts: np.ndarray, point: np.ndarray, h0: float, h1: float, blockers: list[RefBlocker]
) -> bool:
    """Some segment from one of ``starts`` (at ``h0``) to ``point`` (at ``h1``) keeps
    ``CLEARANCE`` from every blocker."""
    ends = np.repeat(np.asarray(point, dtype=float)[None, :], len(starts), axis=0)
    return any_clear(starts, ends, h0, h1, blockers)


# ---------------------------------------------------------------------------------------------
# Checking the engine's unit-pair answers


def witness_confirmed(scenario: Scenario, pair: PairVisibility) -> bool:
    """A visible pair's witness joins a model of the observing unit at its top to a model of
    the target unit at its top, both ends on the bases, and its 1 mm line is free for the
    reference (other units' models, solid features, obscuring areas neither end model is
    within)."""
    w = pair.witness
    if w is None:
        return False
    obs, tgt = scenario.model(w.observer_model), scenario.model(w.target_model)
    if scenario.unit_of_model(obs.id).id != pair.observer:
        return False
    if scenario.unit_of_model(tgt.id).id != pair.target:
        return False
    for model, (x, y, z) in ((obs, w.start), (tgt, w.end)):
        if not model_shape(model).contains(np.array([x]), np.array([y]), slack=1e-6)[0]:
            return False
        if abs(z - (model.z + model.height)) > 1e-9:
            return False
    sight = blockers_for(scenario, pair.observer, pair.target) + screens_for(scenario, tgt, obs)
    return segment_is_free(w.start[:2], w.end[:2], w.start[2], w.end[2], sight)


def clear_model_pair(
    scenario: Scenario, pair: PairVisibility, model_pairs: list[tuple[Model, Model]] | None = None
) -> tuple[str, str] | None:
    """A model pair (of ``model_pairs``, default every pair of the two units) the reference
    sees with ``CLEARANCE``: proof that the engine's "not visible" is wrong. ``None`` when it
    finds none."""
    observer, target = scenario.unit(pair.observer), scenario.unit(pair.target)
    if model_pairs is None:
        model_pairs = [(o, t) for o in observer.models for t in target.models]
    blockers = blockers_for(scenario, observer.id, target.id)
    for obs, tgt in model_pairs:
        if sees_with_clearance(obs, tgt, blockers + screens_for(scenario, tgt, obs)):
            return obs.id, tgt.id
    return None
