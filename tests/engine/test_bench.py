"""The benchmark harness: medians, percentiles and ratio lines (figures are never asserted)."""

from __future__ import annotations

import io

from benchmarks.bench import Timing, bench_rules, measure, percentile
from benchmarks.stress import make_stress_scenario


def test_measure_times_every_repeat_after_a_warm_up() -> None:
    calls: list[int] = []
    timing = measure("count", calls.append, 5)
    assert calls == [-1, 0, 1, 2, 3, 4]
    assert timing.repeats == 5
    assert timing.min_ms <= timing.median_ms <= timing.p90_ms


def test_measure_with_no_repeats_times_the_single_call() -> None:
    calls: list[int] = []
    timing = measure("once", calls.append, 0)
    assert calls == [-1]
    assert timing.repeats == 1
    assert timing.min_ms == timing.median_ms == timing.p90_ms


def test_percentile_is_nearest_rank() -> None:
    assert percentile([5.0], 0.9) == 5.0
    assert percentile([3.0, 1.0, 2.0], 0.5) == 2.0


def test_timing_line_shows_the_target_beside_the_figures() -> None:
    line = Timing("rules", 1.5, 1.0, 2.0, 10).line(target_ms=2.0)
    assert "median" in line
    assert "p90" in line
    assert "target < 2 ms" in line


def test_rules_benchmark_reports_medians_and_ratios_against_the_naive_baseline() -> None:
    out = io.StringIO()
    bench_rules(out, make_stress_scenario(seed=1), quick=True)
    text = out.getvalue()
    assert "rules: naive loop over shapely distances" in text
    assert "rules: full evaluation (no line of sight)" in text
    assert "rules: update after one unit moves (incremental)" in text
    assert text.count("ratio") == 2


def test_scenario_benchmark_reports_the_contract_keys() -> None:
    from benchmarks.bench import bench_scenario
    from engine.model import CircleBase, Model, Player, Scenario, Unit

    units = tuple(
        Unit(f"{p}-{k}", p, (Model(f"{p}-{k}-m", 5.0 + 5 * k, y, CircleBase(32)),))
        for p, y in (("red", 5.0), ("blue", 20.0))
        for k in range(2)
    )
    s = Scenario("wh40k-ca2026", (Player("red"), Player("blue")), units=units)
    figures = bench_scenario(s, repeats=2)
    assert list(figures) == [
        "rules_full_ms",
        "rules_update_ms",
        "visibility_matrix_ms",
        "visibility_update_ms",
        "models",
        "units",
        "terrain",
        "hidden_table_ms",
    ]
    for key in (
        "rules_full_ms",
        "rules_update_ms",
        "visibility_matrix_ms",
        "visibility_update_ms",
        "hidden_table_ms",
    ):
        timing = figures[key]
        assert isinstance(timing, dict)
        assert sorted(timing) == ["median", "n", "p90"]
        assert timing["median"] <= timing["p90"]
    assert (figures["models"], figures["units"], figures["terrain"]) == (4, 4, 0)


def test_planning_benchmark_times_bands_and_threats_for_each_unit_with_a_move() -> None:
    from benchmarks.bench_planning import bench_planning, planning_timings
    from engine.model import CircleBase, Model, Player, Scenario, Unit

    units = (
        Unit("red-a", "red", (Model("ra", 10.0, 10.0, CircleBase(32)),), move=6),
        Unit("red-b", "red", (Model("rb", 10.0, 20.0, CircleBase(32)),), move=5),
        Unit("red-c", "red", (Model("rc", 10.0, 30.0, CircleBase(32)),)),
        Unit("blue-a", "blue", (Model("ba", 30.0, 20.0, CircleBase(32)),), move=6),
    )
    s = Scenario("wh40k-ca2026", (Player("red"), Player("blue")), units=units)
    figures = planning_timings(s, quick=False)
    assert list(figures) == ["movement_bands_ms", "threats_ms"]
    assert all(timing.repeats == 2 for timing in figures.values())
    out = io.StringIO()
    bench_planning(out, s, quick=True)
    assert "movement bands round terrain, each of red's 2 units" in out.getvalue()
    assert "threat round terrain, each of red's 2 units" in out.getvalue()
