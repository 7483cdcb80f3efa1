"""A uniform grid over model centres: the range queries of the rules without all-pairs work.

Centres are bucketed in square cells of side ``reach``; every pair of centres within ``reach``
of each other lies in the same or adjacent cells, so the candidates of a query are the rows of
the 3 x 3 cells round each queried row. Built with one sort (numpy), queried with binary
searches, so a drag step costs O(moved models x nearby models).

>>> import numpy as np
>>> x = np.array([0.0, 1.0, 10.0, 10.5])
>>> y = np.array([0.0, 0.0, 0.0, 0.0])
>>> i, j = near_pairs(x, y, 2.0)
>>> sorted(zip(i.tolist(), j.tolist()))
[(0, 1), (2, 3)]
>>> i, j = near_pairs(x, y, 2.0, np.array([2]))
>>> sorted(zip(i.tolist(), j.tolist()))
[(2, 3)]
"""

from __future__ import annotations

import numpy as np

from engine.geometry import FloatArray, IntArray

_OFFSETS = np.array([(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)], dtype=np.int64)


def near_pairs(
    x: FloatArray, y: FloatArray, reach: float, rows: IntArray | None = None
) -> tuple[IntArray, IntArray]:
    """Candidate row pairs ``(i[k], j[k])`` holding every pair of centres within ``reach`` of
    each other (and some farther ones): each unordered pair once, ``i < j``. With ``rows``,
    only the pairs with at least one of those rows."""
    count = len(x)
    if count < 2:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty
    cell = max(float(reach), 1e-9)
    cx = np.floor((x - x.min()) / cell).astype(np.int64)
    cy = np.floor((y - y.min()) / cell).astype(np.int64)
    depth = int(cy.max()) + 1
    keys = cx * depth + cy
    order = np.argsort(keys, kind="stable")
    sorted_keys = keys[order]
    queried = np.arange(count, dtype=np.int64) if rows is None else np.unique(rows)
    qx = cx[queried][:, None] + _OFFSETS[None, :, 0]
    qy = cy[queried][:, None] + _OFFSETS[None, :, 1]
    valid = (qy >= 0) & (qy < depth)
    wanted = np.where(valid, qx * depth + qy, -1)
    low = np.searchsorted(sorted_keys, wanted, side="left")
    high = np.searchsorted(sorted_keys, wanted, side="right")
    counts = np.where(valid, high - low, 0).ravel()
    total = int(counts.sum())
    first = np.repeat(np.repeat(queried, len(_OFFSETS)), counts)
    starts = np.repeat(low.ravel(), counts)
    within = np.arange(total, dtype=np.int64) - np.repeat(np.cumsum(counts) - counts, counts)
    second = order[starts + within]
    low_row, high_row = np.minimum(first, second), np.maximum(first, second)
    distinct = low_row != high_row
    codes = np.unique(low_row[distinct] * count + high_row[distinct])
    found_i: IntArray = codes // count
    found_j: IntArray = codes % count
    return found_i, found_j
