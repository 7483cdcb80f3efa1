"""A uniform grid over model centres: the range queries of the rules without all-pairs work.

Centres are bucketed in square cells of side ``cell``; every pair of centres within ``cell``
of each other lies in the same or adjacent cells, so the candidates of a query are the rows of
the 3 x 3 cells round each queried row. Built with one sort (numpy), queried with binary
searches; after a move only the moved rows' cells are recomputed, and the sort is redone only
when one of them changed cell, so a drag step costs O(moved models x nearby models).

>>> import numpy as np
>>> x = np.array([0.0, 1.0, 10.0, 10.5])
>>> y = np.array([0.0, 0.0, 0.0, 0.0])
>>> grid = Grid.build(x, y, 2.0)
>>> i, j = grid.pairs()
>>> sorted(zip(i.tolist(), j.tolist()))
[(0, 1), (2, 3)]
>>> i, j = grid.pairs(np.array([2]))
>>> sorted(zip(i.tolist(), j.tolist()))
[(2, 3)]
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine.geometry import FloatArray, IntArray

_SHIFT = np.int64(1 << 32)
_CENTRE = np.int64(1 << 31)
_OFFSETS = np.array([dx * (1 << 32) + dy for dx in (-1, 0, 1) for dy in (-1, 0, 1)], dtype=np.int64)
_FORWARD = np.array([0, 1 << 32, (1 << 32) + 1, (1 << 32) - 1, 1], dtype=np.int64)
"""The own cell and four of the eight neighbours: each pair of cells met once."""


def _keys(x: FloatArray, y: FloatArray, cell: float) -> IntArray:
    cx = np.floor(x / cell).astype(np.int64)
    cy = np.floor(y / cell).astype(np.int64)
    keys: IntArray = cx * _SHIFT + (cy + _CENTRE)
    return keys


@dataclass(frozen=True, eq=False)
class Grid:
    """Rows bucketed by the cell of their centre (``keys``), sorted by cell (``order``)."""

    cell: float
    keys: IntArray
    order: IntArray
    sorted_keys: IntArray

    @classmethod
    def build(cls, x: FloatArray, y: FloatArray, cell: float) -> Grid:
        """The grid of centres ``(x, y)`` with cells of side ``cell`` inches."""
        cell = max(float(cell), 1e-9)
        keys = _keys(x, y, cell)
        order = np.argsort(keys, kind="stable")
        return cls(cell, keys, order, keys[order])

    def moved(self, rows: IntArray, x: FloatArray, y: FloatArray) -> Grid:
        """This grid after ``rows`` moved to ``(x[rows], y[rows])`` (full-length arrays)."""
        fresh = _keys(x[rows], y[rows], self.cell)
        if np.array_equal(fresh, self.keys[rows]):
            return self
        keys = self.keys.copy()
        keys[rows] = fresh
        order = np.argsort(keys, kind="stable")
        return Grid(self.cell, keys, order, keys[order])

    def pairs(self, rows: IntArray | None = None) -> tuple[IntArray, IntArray]:
        """Candidate row pairs ``(i[k], j[k])``, ``i < j``, each once, holding every pair of
        centres within :attr:`cell` of each other; with ``rows`` (sorted, without repeats), only
        pairs with one of them."""
        count = len(self.keys)
        if rows is None:
            queried = np.arange(count, dtype=np.int64)
            offsets = _FORWARD
        else:
            queried = rows
            offsets = _OFFSETS
        if count < 2 or len(queried) == 0:
            empty = np.zeros(0, dtype=np.int64)
            return empty, empty
        wanted = self.keys[queried][:, None] + offsets[None, :]
        low = np.searchsorted(self.sorted_keys, wanted, side="left").ravel()
        counts = np.searchsorted(self.sorted_keys, wanted, side="right").ravel() - low
        total = int(counts.sum())
        first = np.repeat(np.repeat(queried, len(offsets)), counts)
        within = np.arange(total, dtype=np.int64) - np.repeat(np.cumsum(counts) - counts, counts)
        second = self.order[np.repeat(low, counts) + within]
        if rows is None:
            # Forward cells hold each pair once, except the own cell, which holds it twice.
            own_cell = np.repeat(np.tile(offsets == 0, len(queried)), counts)
            keep = ~own_cell | (second > first)
        else:
            # A pair of two queried rows is met from both: keep it from its smaller row.
            is_queried = np.zeros(count, dtype=bool)
            is_queried[queried] = True
            keep = (second != first) & (~is_queried[second] | (second > first))
        first, second = first[keep], second[keep]
        found_i: IntArray = np.minimum(first, second)
        found_j: IntArray = np.maximum(first, second)
        return found_i, found_j
