"""Where the board's labels go so that none hides another: a greedy placement over candidate
positions around each label's natural place, ranked by how far they move it.

Everything is in screen pixels (labels keep their pixel size at any zoom, so whether two of
them collide depends on the zoom). Labels are placed in order: fixed ones first (they never
move), then each movable one at the nearest candidate that overlaps no label placed before it
and, if one exists, no important mark (a model's base, an objective marker); when every
candidate overlaps a label, the farthest ring is searched again further out. Touching is not
overlapping.

>>> first = LabelBox(rect=(0.0, 0.0, 40.0, 10.0))
>>> second = LabelBox(rect=(10.0, 2.0, 50.0, 12.0))
>>> offsets = place_labels([first, second], marks=())
>>> offsets[0]
(0.0, 0.0)
>>> moved = shifted(second.rect, offsets[1])
>>> overlaps(moved, first.rect)
False
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

Rect = tuple[float, float, float, float]
"""``(left, top, right, bottom)`` in pixels."""

GAP = 2.0
"""Pixels kept between a moved label and what it steps aside from."""
RINGS = 6
"""How many label heights (and half widths) a label may move in each direction per search."""
MAX_SEARCHES = 6


@dataclass(frozen=True)
class LabelBox:
    rect: Rect
    """Where the label would sit unmoved."""
    movable: bool = True


def overlaps(a: Rect, b: Rect) -> bool:
    """Whether two rectangles share interior (touching edges do not).

    >>> overlaps((0, 0, 1, 1), (1, 0, 2, 1)), overlaps((0, 0, 1, 1), (0.5, 0.5, 2, 2))
    (False, True)
    """
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def shifted(rect: Rect, offset: tuple[float, float]) -> Rect:
    dx, dy = offset
    return rect[0] + dx, rect[1] + dy, rect[2] + dx, rect[3] + dy


def candidate_offsets(width: float, height: float, search: int = 0) -> npt.NDArray[np.float64]:
    """Offsets to try for a ``width`` x ``height`` label, best first: unmoved, then steps of
    half its width sideways and its height up or down, nearest first (moving up or down is
    preferred to moving sideways, as a caption reads best over or under what it names)."""
    step_x = width / 2 + GAP
    step_y = height + GAP
    low, high = search * RINGS, (search + 1) * RINGS
    grid = [
        (i * step_x, j * step_y)
        for i in range(-2 * high, 2 * high + 1)
        for j in range(-high, high + 1)
        if max(abs(i) / 2, abs(j)) > low or search == 0
    ]
    offsets = np.array(grid, dtype=float)
    cost = np.hypot(offsets[:, 0] * 1.5, offsets[:, 1])
    # Ties broken towards moving up, then left, so the result does not depend on float noise.
    order = np.lexsort((offsets[:, 0], offsets[:, 1], np.round(cost, 6)))
    result: npt.NDArray[np.float64] = offsets[order]
    return result


def _hits(
    candidates: npt.NDArray[np.float64], taken: npt.NDArray[np.float64]
) -> npt.NDArray[np.int_]:
    """For each candidate rect (rows of left, top, right, bottom), how many ``taken`` it hits."""
    if len(taken) == 0:
        return np.zeros(len(candidates), dtype=int)
    c = candidates[:, None, :]
    t = taken[None, :, :]
    inside = (c[..., 0] < t[..., 2]) & (t[..., 0] < c[..., 2])
    inside &= (c[..., 1] < t[..., 3]) & (t[..., 1] < c[..., 3])
    counts: npt.NDArray[np.int_] = inside.sum(axis=1)
    return counts


def _outside(candidates: npt.NDArray[np.float64], bounds: Rect | None) -> npt.NDArray[np.bool_]:
    if bounds is None:
        return np.zeros(len(candidates), dtype=bool)
    left, top, right, bottom = bounds
    outside: npt.NDArray[np.bool_] = (
        (candidates[:, 0] < left)
        | (candidates[:, 1] < top)
        | (candidates[:, 2] > right)
        | (candidates[:, 3] > bottom)
    )
    return outside


def place_labels(
    boxes: Sequence[LabelBox], marks: Sequence[Rect], bounds: Rect | None = None
) -> list[tuple[float, float]]:
    """The offset (pixels) of each box, in the order given: fixed boxes stay put; each movable
    box takes the best-ranked candidate that overlaps no box placed before it, preferring one
    within ``bounds`` (what the view shows), then one that also clears ``marks``.

    >>> place_labels([LabelBox((0, 0, 10, 10)), LabelBox((0, 0, 10, 10))], (), (0, 0, 100, 100))
    [(0.0, 0.0), (0.0, 12.0)]
    """
    mark_array = np.array(marks, dtype=float).reshape(-1, 4)
    placed: list[Rect] = [box.rect for box in boxes if not box.movable]
    offsets: list[tuple[float, float]] = []
    for box in boxes:
        if not box.movable:
            offsets.append((0.0, 0.0))
            continue
        left, top, right, bottom = box.rect
        placed_array = np.array(placed, dtype=float).reshape(-1, 4)
        chosen: tuple[float, float] | None = None
        # The nearest free place outside ``bounds``, taken if no ring has one inside.
        fallback: tuple[float, float] | None = None
        for search in range(MAX_SEARCHES):
            candidates = candidate_offsets(right - left, bottom - top, search)
            rects = np.column_stack(
                (
                    left + candidates[:, 0],
                    top + candidates[:, 1],
                    right + candidates[:, 0],
                    bottom + candidates[:, 1],
                )
            )
            free = _hits(rects, placed_array) == 0
            shown = free & ~_outside(rects, bounds)
            if not shown.any():
                if fallback is None and free.any():
                    index = int(np.argmax(free))
                    fallback = float(candidates[index, 0]), float(candidates[index, 1])
                continue
            clear = shown & (_hits(rects, mark_array) == 0)
            index = int(np.argmax(clear if clear.any() else shown))
            chosen = float(candidates[index, 0]), float(candidates[index, 1])
            break
        offset = chosen if chosen is not None else fallback if fallback is not None else (0.0, 0.0)
        offsets.append(offset)
        placed.append(shifted(box.rect, offset))
    return offsets
