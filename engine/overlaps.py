"""Model bases that overlap one another (a placement problem the app flags on the table).

Two bases overlap when they cross by more than :data:`engine.geometry.TOLERANCE`: bases exactly
in contact, or within the tolerance of it, do not. Round pairs are decided in closed form, the
others by the exact overlap depth of :func:`engine.geometry.overlap_depth`. Any two models
count, whoever owns them.

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
    KIND_CIRCLE,
    TOLERANCE,
    IntArray,
    ModelTable,
    model_table,
    overlap_depth,
)
from engine.model import Scenario

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


def overlapping_pairs(
    table: ModelTable, rows: Sequence[int] | None = None
) -> tuple[ModelPair, ...]:
    """The overlapping pairs among a table's models, or only those involving ``rows``."""
    count = len(table.model_ids)
    if rows is None:
        first: IntArray = np.arange(count, dtype=np.int64)
    else:
        first = np.asarray(sorted(set(rows)), dtype=np.int64)
    if len(first) == 0 or count < 2:
        return ()
    i, j = _candidates(table, first)
    shapes = table.shapes
    ids = table.model_ids
    found: set[ModelPair] = set()
    for a, b in zip(i.tolist(), j.tolist(), strict=True):
        if shapes.kind[a] == KIND_CIRCLE and shapes.kind[b] == KIND_CIRCLE:
            overlapping = True
        else:
            overlapping = overlap_depth(shapes.shape(a), shapes.shape(b)) > TOLERANCE
        if overlapping:
            found.add((ids[a], ids[b]) if ids[a] < ids[b] else (ids[b], ids[a]))
    return tuple(sorted(found))


def _candidates(table: ModelTable, first: IntArray) -> tuple[IntArray, IntArray]:
    """Row pairs whose bounding circles cross by more than the tolerance (round pairs: exactly
    the overlapping ones), each pair once, smaller row first."""
    shapes = table.shapes
    gap = np.hypot(
        shapes.x[first][:, None] - shapes.x[None, :], shapes.y[first][:, None] - shapes.y[None, :]
    )
    gap -= shapes.bounding[first][:, None] + shapes.bounding[None, :]
    k, j = np.nonzero(gap < -TOLERANCE)
    i = first[k]
    keep = i != j
    low, high = np.minimum(i[keep], j[keep]), np.maximum(i[keep], j[keep])
    pairs = np.unique(np.stack((low, high), axis=1), axis=0) if len(low) else np.zeros((0, 2))
    return pairs[:, 0].astype(np.int64), pairs[:, 1].astype(np.int64)
