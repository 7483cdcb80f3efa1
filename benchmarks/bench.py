"""``python -m engine bench``: the performance benchmark, as medians and ratios.

Runs on the deterministic stress scenario (:mod:`benchmarks.stress`: 200 models, 40 units, 18
terrain pieces, 6 objectives) and prints, for each computation, the median, minimum and 90th
percentile of ``time.perf_counter`` over the repeats, the naive baseline measured in the same
run, and their ratio. Targets are printed beside the figures; they are goals, not assertions.
"""

from __future__ import annotations

import gc
import platform
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TextIO

from benchmarks.stress import make_stress_scenario
from engine.model import Scenario


@dataclass(frozen=True)
class Timing:
    """Wall-clock figures of one benchmark, in milliseconds."""

    name: str
    median_ms: float
    min_ms: float
    p90_ms: float
    repeats: int

    def line(self, target_ms: float | None = None) -> str:
        target = f"   target < {target_ms:g} ms" if target_ms is not None else ""
        return (
            f"{self.name:<58} median {self.median_ms:10.3f} ms   min {self.min_ms:9.3f}   "
            f"p90 {self.p90_ms:9.3f}   n={self.repeats}{target}"
        )


def percentile(samples: list[float], fraction: float) -> float:
    """The ``fraction`` quantile (nearest rank) of ``samples``.

    >>> percentile([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0], 0.9)
    9.0
    """
    ordered = sorted(samples)
    rank = max(0, min(len(ordered) - 1, round(fraction * len(ordered)) - 1))
    return ordered[rank]


def measure(name: str, action: Callable[[int], object], repeats: int) -> Timing:
    """Time ``action(i)`` for ``i`` in ``range(repeats)``, after one warm-up call.

    With ``repeats == 0`` the single call is timed itself (for runs too slow to repeat).
    """
    if repeats == 0:
        start = time.perf_counter()
        action(-1)
        elapsed = (time.perf_counter() - start) * 1000.0
        return Timing(name, elapsed, elapsed, elapsed, 1)
    action(-1)
    samples: list[float] = []
    # As timeit does, the cyclic garbage collector is paused while timing, so a collection
    # triggered by earlier allocations is not charged to whichever call it happens in.
    gc.collect()
    gc.disable()
    try:
        for index in range(repeats):
            start = time.perf_counter()
            action(index)
            samples.append((time.perf_counter() - start) * 1000.0)
    finally:
        gc.enable()
    return Timing(name, statistics.median(samples), min(samples), percentile(samples, 0.9), repeats)


def _ratio_line(slow: Timing, fast: Timing) -> str:
    return f"  ratio {slow.name} / {fast.name} = {slow.median_ms / fast.median_ms:.1f}x"


def _random_moves(scenario: Scenario, count: int, seed: int) -> list[tuple[str, float, float]]:
    rng = random.Random(seed)
    ids = [u.id for u in scenario.units]
    return [(rng.choice(ids), rng.uniform(-0.5, 0.5), rng.uniform(-0.5, 0.5)) for _ in range(count)]


def _moved_scenarios(scenario: Scenario, count: int, seed: int) -> list[tuple[Scenario, str]]:
    """A walk of ``count`` one-unit moves from ``scenario``: each scenario and the unit moved."""
    walk: list[tuple[Scenario, str]] = []
    current = scenario
    for unit_id, dx, dy in _random_moves(scenario, count, seed):
        current = current.with_unit_moved(unit_id, dx, dy)
        walk.append((current, unit_id))
    return walk


def bench_rules(out: TextIO, scenario: Scenario, quick: bool) -> None:
    """Objective control, engagement, quarters, zones and territories without line of sight."""
    from benchmarks.bench_rules import naive_rules
    from engine.evaluate import IncrementalEvaluator, evaluate

    repeats = 30 if quick else 200
    naive = measure(
        "rules: naive loop over shapely distances",
        lambda _: naive_rules(scenario),
        5 if quick else 15,
    )
    full = measure(
        "rules: full evaluation (no line of sight)",
        lambda _: evaluate(scenario, visibility=False),
        repeats,
    )
    # The edits are made before timing: the figure is the engine's update, not the document's.
    positions = _moved_scenarios(scenario, repeats + 1, seed=7)
    evaluator = IncrementalEvaluator(scenario)

    def one_move(index: int) -> object:
        moved, unit_id = positions[index + 1]
        return evaluator.update(moved, (unit_id,))

    incremental = measure("rules: update after one unit moves (incremental)", one_move, repeats)
    print(naive.line(), file=out)
    print(full.line(target_ms=2.0), file=out)
    print(incremental.line(target_ms=0.5), file=out)
    print(_ratio_line(naive, full), file=out)
    print(_ratio_line(naive, incremental), file=out)


def bench_visibility(out: TextIO, scenario: Scenario, quick: bool, naive: bool) -> None:
    """Line of sight: one observing unit's row, the whole 40 x 40 matrix, one-unit updates.

    The exact engine proves every answer, which costs minutes on the 200-model scene; the
    repeats are therefore few, and the naive baseline runs on one row (20 ordered pairs), the
    same work as the exact row it is compared with.
    """
    from benchmarks.bench_visibility import naive_sampling_visibility
    from engine.visibility import VisibilityEngine, visibility

    observer = scenario.units[0].id
    row = measure(
        f"visibility: one observer's row ({observer}, 20 pairs, exact)",
        lambda _: visibility(scenario, observers=[observer]),
        1 if quick else 3,
    )
    print(row.line(), file=out)
    if naive:
        baseline = measure(
            "visibility: the same row by naive 16-point sampling",
            lambda _: naive_sampling_visibility(scenario, observers=[observer]),
            1,
        )
        print(baseline.line(), file=out)
        print(_ratio_line(baseline, row), file=out)
    if quick:
        print("visibility: full matrix and updates skipped (--quick)", file=out)
        return
    engine = VisibilityEngine(scenario)
    full = measure("visibility: full 40 x 40 matrix (exact)", lambda _: engine.matrix(), 0)
    print(full.line(target_ms=150.0), file=out)
    moves = _random_moves(scenario, 4, seed=11)
    state = {"scenario": scenario}

    def one_move(index: int) -> object:
        unit_id, dx, dy = moves[index + 1]
        moved = state["scenario"].with_unit_moved(unit_id, dx, dy)
        state["scenario"] = moved
        return engine.update(moved, (unit_id,))

    update = measure("visibility: update after one unit moves", one_move, 2)
    print(update.line(target_ms=10.0), file=out)


def run_benchmarks(out: TextIO, *, quick: bool = False, naive_visibility: bool = True) -> None:
    """Print every benchmark's figures to ``out``."""
    scenario = make_stress_scenario(seed=1)
    models = sum(len(u.models) for u in scenario.units)
    print(
        f"Warplan engine benchmark: stress scenario seed 1, {models} models, "
        f"{len(scenario.units)} units, {len(scenario.terrain)} terrain pieces, "
        f"{len(scenario.objectives)} objectives",
        file=out,
    )
    print(
        f"Python {platform.python_version()} on {platform.machine()}, "
        f"{platform.processor() or 'unknown processor'}",
        file=out,
    )
    bench_rules(out, scenario, quick)
    bench_visibility(out, scenario, quick, naive_visibility)
