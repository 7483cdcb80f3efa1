"""Benchmark helpers for the rules: the naive baseline and the fast paths it is measured against.

``naive_rules`` is the obvious implementation: every base drawn as a 32-gon, then Python loops
over shapely's scalar distances and predicates. It is the baseline ``python -m engine bench``
compares with ``evaluate(scenario, visibility=False)`` (closed-form numpy for round bases,
exact solvers for the rest after a bounding-circle prefilter) and with
``IncrementalEvaluator.update`` (only the moved units' rows).

``scaling_table`` times the full evaluation and the update after one unit moves on boards of
200 to 2,000 models (:func:`benchmarks.stress.make_scaled_scenario`), each against the
200-model board of the same run; ``python -m benchmarks.bench_rules`` prints it.

>>> from benchmarks.stress import make_stress_scenario
>>> naive = naive_rules(make_stress_scenario(seed=1))
>>> sorted(naive)
['engaged_units', 'objective_level', 'quarters', 'zones']
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TextIO

import shapely

from benchmarks.stress import make_scaled_scenario
from engine.areas import QUARTER_LINE_WIDTH, QUARTERS, regions
from engine.evaluate import IncrementalEvaluator, evaluate
from engine.geometry import TOLERANCE, base_outline
from engine.model import Scenario
from engine.objectives import objective_rules

SCALES = ((200, 20), (500, 50), (1000, 100), (2000, 200))
"""(models, terrain pieces) of the scaling table's boards."""


def naive_rules(scenario: Scenario) -> dict[str, Any]:
    """Objective levels, engaged unit pairs, quarters and zones the slow way (32-gon bases).

    Polygons inscribed in round bases overestimate gaps slightly, so at exact boundaries this
    can disagree with :func:`engine.evaluate.evaluate`; it is a timing baseline, not a referee.
    """
    rules = objective_rules(scenario)
    outlines = {m.id: (u, base_outline(m, segments=32)) for u, m in scenario.all_models()}
    level: dict[str, dict[str, float]] = {}
    for objective in scenario.objectives:
        marker = shapely.Point(objective.x, objective.y)
        radius = objective.radius if rules.measure == "edge" else 0.0
        sums = {p: 0.0 for p in scenario.player_ids()}
        for unit, outline in outlines.values():
            if shapely.distance(outline, marker) - radius <= rules.objective_range + TOLERANCE:
                sums[unit.player] += 1
        level[objective.id] = sums
    engaged: set[tuple[str, str]] = set()
    items = list(outlines.values())
    for i, (unit_a, outline_a) in enumerate(items):
        for unit_b, outline_b in items[i + 1 :]:
            if unit_a.player == unit_b.player:
                continue
            if shapely.distance(outline_a, outline_b) <= 2.0 + TOLERANCE:
                engaged.add(tuple(sorted((unit_a.id, unit_b.id))))  # type: ignore[arg-type]
    width, depth = scenario.battlefield.width, scenario.battlefield.depth
    half = QUARTER_LINE_WIDTH / 2
    boxes = (
        shapely.box(0, 0, width / 2 - half, depth / 2 - half),
        shapely.box(width / 2 + half, 0, width, depth / 2 - half),
        shapely.box(0, depth / 2 + half, width / 2 - half, depth),
        shapely.box(width / 2 + half, depth / 2 + half, width, depth),
    )
    quarters: dict[str, str | None] = {}
    zones: dict[str, list[str]] = {}
    zone_polygons = [(z.id, shapely.Polygon(z.polygon)) for z in regions(scenario).zones]
    for unit in scenario.units:
        polygons = [outlines[m.id][1] for m in unit.models]
        quarters[unit.id] = next(
            (
                name
                for name, box in zip(QUARTERS, boxes, strict=True)
                if all(box.contains(p) for p in polygons)
            ),
            None,
        )
        zones[unit.id] = [
            zone_id for zone_id, zone in zone_polygons if all(zone.covers(p) for p in polygons)
        ]
    return {
        "objective_level": level,
        "engaged_units": sorted(engaged),
        "quarters": quarters,
        "zones": zones,
    }


def median_ms(action: Callable[[int], object], repeats: int) -> float:
    """The median wall time of ``action(i)`` over ``repeats`` calls, in milliseconds."""
    samples = []
    for index in range(repeats):
        start = time.perf_counter()
        action(index)
        samples.append(time.perf_counter() - start)
    return statistics.median(samples) * 1000.0


def rules_timings(scenario: Scenario, repeats: int = 100, seed: int = 7) -> dict[str, float]:
    """Median milliseconds of the naive baseline, a full evaluation without line of sight, and
    the update after one unit moves by up to half an inch (random units, ``seed``)."""
    rng = random.Random(seed)
    ids = [u.id for u in scenario.units]
    moves = [
        (rng.choice(ids), rng.uniform(-0.5, 0.5), rng.uniform(-0.5, 0.5)) for _ in range(repeats)
    ]
    evaluator = IncrementalEvaluator(scenario)
    state = {"scenario": scenario}

    def one_move(index: int) -> object:
        unit_id, dx, dy = moves[index]
        state["scenario"] = state["scenario"].with_unit_moved(unit_id, dx, dy)
        return evaluator.update(state["scenario"], (unit_id,))

    return {
        "naive_ms": median_ms(lambda _: naive_rules(scenario), max(3, repeats // 20)),
        "full_ms": median_ms(lambda _: evaluate(scenario, visibility=False), repeats),
        "update_ms": median_ms(one_move, repeats),
    }


@dataclass(frozen=True)
class ScaleRow:
    """One board of the scaling table: its size and the two medians (milliseconds)."""

    models: int
    terrain: int
    full_ms: float
    update_ms: float


def scaling_table(
    scales: Sequence[tuple[int, int]] = SCALES, repeats: int = 60, seed: int = 7
) -> tuple[ScaleRow, ...]:
    """Median full evaluation and one-unit update on each board of ``scales`` (garbage
    collection paused while timing; the moves are made beforehand, so only the engine is
    timed)."""
    return tuple(_scale_row(models, terrain, repeats, seed) for models, terrain in scales)


def _scale_row(models: int, terrain: int, repeats: int, seed: int) -> ScaleRow:
    scenario = make_scaled_scenario(models, terrain, seed=1)
    evaluate(scenario, visibility=False)
    full = _paused(lambda _: evaluate(scenario, visibility=False), max(5, repeats * 50 // models))
    rng = random.Random(seed)
    ids = [u.id for u in scenario.units]
    walk = []
    current = scenario
    for _ in range(repeats):
        unit_id = rng.choice(ids)
        current = current.with_unit_moved(unit_id, rng.uniform(-0.5, 0.5), rng.uniform(-0.5, 0.5))
        walk.append((current, unit_id))
    evaluator = IncrementalEvaluator(scenario)
    update = _paused(lambda i: evaluator.update(walk[i][0], (walk[i][1],)), repeats)
    return ScaleRow(models, terrain, full, update)


def _paused(action: Callable[[int], object], repeats: int) -> float:
    enabled = gc.isenabled()
    gc.disable()
    try:
        return median_ms(action, repeats)
    finally:
        if enabled:
            gc.enable()


def print_scaling_table(rows: Sequence[ScaleRow], out: TextIO) -> None:
    """The table, each cost also as a multiple of the first (smallest) board's."""
    first = rows[0]
    print("models  terrain   full ms  (x first)   update ms  (x first)", file=out)
    for row in rows:
        full = f"{row.full_ms:>8.2f}  ({row.full_ms / first.full_ms:>5.1f})"
        update = f"{row.update_ms:>9.3f}  ({row.update_ms / first.update_ms:>5.1f})"
        print(f"{row.models:>6}  {row.terrain:>7}  {full}   {update}", file=out)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_rules")
    parser.add_argument("--repeats", type=int, default=60, help="updates timed per board")
    args = parser.parse_args(argv)
    print_scaling_table(scaling_table(repeats=args.repeats), sys.stdout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
