"""Model bases that overlap one another (a placement problem the app flags on the table).

Two bases overlap when they cross by more than :data:`engine.geometry.TOLERANCE`: bases exactly
in contact, or within the tolerance of it, do not. Pairs with a round base, and pairs of
rectangles, are decided in closed form (:func:`engine.geometry.overlapping_by_more_than`), the
others by the overlap depth of :func:`engine.geometry.overlap_depth`. Any two models count,
whoever owns them.

>>> from engine.model import CircleBase, Model, Player, Scenario, Unit
>>> red = Unit("red-u", "red", (Model("red-1", 10.0, 10.0, CircleBase(32)),))
>>> blue = Unit("blue-u", "blue", (Model("blue-1", 11.0, 10.0, CircleBase(32)),))
>>> base_overlaps(Scenario("wh40k-ca2026", (Player("red"), Player("blue")), units=(red, blue)))
(('blue-1', 'red-1'),)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from engine.geometry import (
    TOLERANCE,
    IntArray,
    ModelTable,
    model_table,
    overlapping_by_more_than,
)
from engine.model import Scenario
from engine.spatial import Grid

ModelPair = tuple[str, str]
"""Two model ids, the smaller first."""


def base_overlaps(
    scenario: Scenario, only_units: Iterable[str] | None = None
) -> tuple[ModelPair, ...]:
    """Every pair of overlapping bases (sorted ids in each pair, pairs sorted).

    With ``only_units``, only the pairs involving those units' models (a drag step).
    """
    table = model_table(scenario)
    if only_units is None:
        return overlapping_pairs(table)
    wanted = set(only_units)
    indices = [k for k, unit in enumerate(scenario.units) if unit.id in wanted]
    return overlapping_pairs(table, table.rows_of_units(indices).tolist())


def overlap_grid(table: ModelTable) -> Grid:
    """The grid :func:`overlapping_pairs` searches: cells as wide as two of the largest bases."""
    largest = float(table.shapes.bounding.max()) if len(table.model_ids) else 0.0
    return Grid.build(table.shapes.x, table.shapes.y, 2.0 * largest)


def overlapping_pairs(
    table: ModelTable, rows: Sequence[int] | None = None, grid: Grid | None = None
) -> tuple[ModelPair, ...]:
    """The overlapping pairs among a table's models, or only those involving ``rows``;
    ``grid``: the table's :func:`overlap_grid`, when the caller keeps one."""
    count = len(table.model_ids)
    if rows is None:
        first: IntArray = np.arange(count, dtype=np.int64)
    else:
        first = np.asarray(sorted(set(rows)), dtype=np.int64)
    if len(first) == 0 or count < 2:
        return ()
    i, j = _candidates(table, None if rows is None else first, grid or overlap_grid(table))
    if len(i) == 0:
        return ()
    crossing = overlapping_by_more_than(table.shapes, i, j, TOLERANCE)
    ids = table.model_ids
    found = {
        (ids[a], ids[b]) if ids[a] < ids[b] else (ids[b], ids[a])
        for a, b in zip(i[crossing].tolist(), j[crossing].tolist(), strict=True)
    }
    return tuple(sorted(found))


def _candidates(table: ModelTable, rows: IntArray | None, grid: Grid) -> tuple[IntArray, IntArray]:
    """Row pairs whose bounding circles cross by more than the tolerance (round pairs: exactly
    the overlapping ones), each pair once, smaller row first, found through the grid."""
    shapes = table.shapes
    i, j = grid.pairs(rows)
    gap = np.hypot(shapes.x[i] - shapes.x[j], shapes.y[i] - shapes.y[j])
    keep = gap - shapes.bounding[i] - shapes.bounding[j] < -TOLERANCE
    return i[keep], j[keep]
