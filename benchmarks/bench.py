"""``python -m engine bench``: the performance benchmark, as medians and ratios.

Runs on the deterministic stress scenario (:mod:`benchmarks.stress`: 200 models, 40 units, 18
terrain pieces, 6 objectives), line of sight also on the ruin layout
(:mod:`benchmarks.ruin_layout`), and prints, for each computation, the median, minimum and 90th
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


def _update_walk(scenario: Scenario, count: int, seed: int) -> Callable[[int], object]:
    """A timed action: the engine's update after each of ``count`` one-unit moves (the moved
    scenarios are made beforehand, and the engine has computed the whole matrix first)."""
    from engine.visibility import VisibilityEngine

    engine = VisibilityEngine(scenario)
    engine.matrix()
    walk = _moved_scenarios(scenario, count + 1, seed)

    def one_move(index: int) -> object:
        moved, unit_id = walk[index + 1]
        return engine.update(moved, (unit_id,))

    return one_move


def bench_visibility(out: TextIO, scenario: Scenario, label: str, quick: bool, naive: bool) -> None:
    """Line of sight on one scene: one observing unit's row (and the naive 16-point sampling
    of the same row, measured in the same run), the whole matrix of opposing unit pairs, and
    the engine's update after one unit moves."""
    from benchmarks.bench_visibility import naive_sampling_visibility
    from engine.visibility import VisibilityEngine, visibility

    observer = scenario.units[0].id
    targets = sum(1 for u in scenario.units if u.player != scenario.units[0].player)
    row = measure(
        f"visibility [{label}]: one observer's row ({targets} pairs)",
        lambda _: visibility(scenario, observers=[observer]),
        3 if quick else 7,
    )
    print(row.line(target_ms=5.0), file=out)
    if naive:
        baseline = measure(
            f"visibility [{label}]: the same row by naive 16-point sampling",
            lambda _: naive_sampling_visibility(scenario, observers=[observer]),
            0,
        )
        print(baseline.line(), file=out)
        print(_ratio_line(baseline, row), file=out)
    if quick:
        print(f"visibility [{label}]: full matrix and updates skipped (--quick)", file=out)
        return
    full = measure(
        f"visibility [{label}]: full matrix of opposing unit pairs",
        lambda _: VisibilityEngine(scenario).matrix(),
        3,
    )
    print(full.line(target_ms=150.0), file=out)
    update = measure(
        f"visibility [{label}]: update after one unit moves",
        _update_walk(scenario, 11, seed=11),
        10,
    )
    print(update.line(target_ms=10.0), file=out)
    if naive:
        print(_ratio_line(baseline, full), file=out)


def _figure(timing: Timing) -> dict[str, float | int]:
    return {"median": timing.median_ms, "p90": timing.p90_ms, "n": timing.repeats}


def bench_scenario(scenario: Scenario, repeats: int = 5) -> dict[str, object]:
    """The ``bench --scenario FILE --json`` figures for any scenario (no baselines)."""
    from engine.evaluate import IncrementalEvaluator, evaluate
    from engine.visibility import VisibilityEngine

    rules_full = measure("rules", lambda _: evaluate(scenario, visibility=False), repeats)
    walk = _moved_scenarios(scenario, repeats + 1, seed=7)
    evaluator = IncrementalEvaluator(scenario)

    def rules_move(index: int) -> object:
        moved, unit_id = walk[index + 1]
        return evaluator.update(moved, (unit_id,))

    rules_update = measure("rules update", rules_move, repeats)
    matrix = measure(
        "visibility", lambda _: VisibilityEngine(scenario).matrix(), max(1, repeats // 2)
    )
    update = measure("visibility update", _update_walk(scenario, repeats, seed=11), repeats)
    from benchmarks.bench_hidden import hidden_timings

    hidden = hidden_timings(scenario, max(1, repeats // 2))
    return {
        "rules_full_ms": _figure(rules_full),
        "rules_update_ms": _figure(rules_update),
        "visibility_matrix_ms": _figure(matrix),
        "visibility_update_ms": _figure(update),
        "models": sum(len(u.models) for u in scenario.units),
        "units": len(scenario.units),
        "terrain": len(scenario.terrain),
        **{key: _figure(timing) for key, timing in hidden.items()},
    }


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
    bench_visibility(out, scenario, "stress", quick, naive_visibility)
    from benchmarks.ruin_layout import make_ruin_layout

    ruins = make_ruin_layout(seed=1)
    print(
        f"Ruin layout seed 1: {sum(len(u.models) for u in ruins.units)} models, "
        f"{len(ruins.units)} units, {len(ruins.terrain)} terrain pieces",
        file=out,
    )
    bench_visibility(out, ruins, "ruins", quick, naive_visibility)
    from benchmarks.official_table import make_official_table

    table = make_official_table()
    print(
        f"Official table (Take and Hold vs Purge the Foe A, two real armies): "
        f"{sum(len(u.models) for u in table.units)} models, {len(table.units)} units, "
        f"{len(table.terrain)} terrain pieces",
        file=out,
    )
    bench_visibility(out, table, "official", quick, naive_visibility)
    from benchmarks.bench_hidden import bench_hidden

    bench_hidden(out, table, quick)
    from benchmarks.bench_planning import bench_planning

    bench_planning(out, table, quick)
    from benchmarks.bench_data import bench_data

    bench_data(out, quick)
