"""Small hand-built scenes for the compiled line-of-sight kernel (:mod:`engine.sight_kernel`).

The kernels take a scene as flat arrays (:func:`engine.sight_kernel.scene_arrays`) and end
shapes as ``(cx, cy, r, vertices)``; these helpers build both from plain polygons and discs, so
a test states its geometry and nothing else.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from engine import sight_kernel as kernel

XY = tuple[float, float]


class End(NamedTuple):
    """An end shape of a sight line: a disc (``vertices`` empty; ``r`` may be 0, a point) or a
    convex polygon (counter-clockwise ``vertices``; ``cx, cy`` their mean)."""

    cx: float
    cy: float
    r: float
    vertices: np.ndarray


def disc(cx: float, cy: float, r: float = 0.0) -> End:
    return End(cx, cy, r, np.zeros((0, 2)))


def polygon_end(points: Sequence[XY]) -> End:
    vertices = counter_clockwise(np.asarray(points, dtype=float))
    cx, cy = vertices.mean(axis=0)
    return End(float(cx), float(cy), 0.0, vertices)


def counter_clockwise(points: np.ndarray) -> np.ndarray:
    x, y = points[:, 0], points[:, 1]
    area2 = float(np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y))
    return np.ascontiguousarray(points if area2 >= 0 else points[::-1])


def box(x0: float, y0: float, x1: float, y1: float) -> tuple[XY, ...]:
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


def blocker_scene(
    polygons: Sequence[tuple[Sequence[XY], float]] = (),
    discs: Sequence[tuple[float, float, float, float]] = (),
) -> kernel.SceneArrays:
    """Polygon blockers ``(points, top)`` then disc blockers ``(cx, cy, r, top)``, no models."""
    rings = [counter_clockwise(np.asarray(points, dtype=float)) for points, _ in polygons]
    stops = np.cumsum([len(r) for r in rings], dtype=np.int64)
    starts = stops - [len(r) for r in rings]
    return kernel.scene_arrays(
        blocker_kind=[0] * len(polygons) + [1] * len(discs),
        blocker_top=[top for _, top in polygons] + [top for *_, top in discs],
        blocker_disc=[(0.0, 0.0, 0.0)] * len(polygons) + [(x, y, r) for x, y, r, _ in discs],
        blocker_vertices=np.vstack(rings) if rings else np.zeros((0, 2)),
        blocker_ranges=np.column_stack([starts, stops]) if rings else np.zeros((0, 2)),
    )


def everything(scene: kernel.SceneArrays) -> np.ndarray:
    """Every blocker of the scene, as the index array the kernels take."""
    return np.arange(len(scene.blocker_kind), dtype=np.int32)


def search(
    a: End,
    h_a: float,
    b: End,
    h_b: float,
    scene: kernel.SceneArrays,
    grow: float,
    cheap: bool = False,
    every_line_near_ends: bool = False,
) -> tuple[int, np.ndarray, np.ndarray]:
    """:func:`engine.sight_kernel.pair_search` from ``a`` to ``b`` past every blocker."""
    status, segment, in_the_way = kernel.pair_search(
        *a, h_a, *b, h_b, scene, everything(scene), grow, cheap, every_line_near_ends
    )
    return int(status), segment, in_the_way


def blocked(
    start: XY, end: XY, h_start: float, h_end: float, scene: kernel.SceneArrays, grow: float
) -> bool:
    """Whether the segment is blocked where it is low enough, touching counted as blocked
    (:func:`engine.sight_kernel.segment_blocked` over each blocker's :func:`low_interval`)."""
    count = len(scene.blocker_kind)
    active = np.empty(count, dtype=np.int32)
    lo, hi = np.empty(count), np.empty(count)
    n = 0
    for k in range(count):
        low, t0, t1 = kernel.low_interval(h_start, h_end, scene.blocker_top[k])
        if low:
            active[n], lo[n], hi[n] = k, t0, t1
            n += 1
    return bool(kernel.segment_blocked(*start, *end, scene, active, lo, hi, n, grow, 0.0))
