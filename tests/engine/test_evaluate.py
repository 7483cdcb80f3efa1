"""evaluate(): the contract JSON, the ruling text, and incremental updates equal to full ones."""

from __future__ import annotations

import dataclasses
import importlib.util
import random
from types import MappingProxyType

import pytest
from deployment_fixtures import RED_SOUTH_BLUE_NORTH

from benchmarks.stress import make_stress_scenario
from engine.evaluate import IncrementalEvaluator, evaluate
from engine.model import (
    CircleBase,
    Model,
    Objective,
    OvalBase,
    Player,
    RectBase,
    Scenario,
    TerrainPiece,
    Unit,
    UnitStatus,
)


def small_scenario() -> Scenario:
    red = Unit(
        "red-intercessors",
        "red",
        (
            Model("red-i2", 28.0, 19.5, CircleBase(32)),
            Model("red-i1", 29.0, 19.5, CircleBase(32)),
        ),
        oc=2,
    )
    bikes = Unit("red-bikes", "red", (Model("red-b1", 10.0, 6.0, OvalBase(75, 42), rotation=30),))
    boyz = Unit(
        "blue-boyz",
        "blue",
        (
            Model("blue-b2", 31.0, 24.5, CircleBase(32)),
            Model("blue-b1", 30.5, 21.0, CircleBase(32)),
        ),
    )
    tank = Unit("blue-tank", "blue", (Model("blue-t1", 45.0, 38.0, RectBase(120, 70)),))
    return Scenario(
        "wh40k-ca2026",
        (Player("red", role="attacker"), Player("blue", role="defender")),
        units=(red, bikes, boyz, tank),
        objectives=(Objective("obj-centre", 30.0, 22.0, role="central"),),
        deployment=RED_SOUTH_BLUE_NORTH,
        terrain=(TerrainPiece("ruin", ((40, 34), (50, 34), (50, 40), (40, 40))),),
    )


def test_contract_json_keys_and_sorted_ids() -> None:
    data = evaluate(small_scenario(), visibility=False).to_json()
    objective = data["objectives"][0]
    assert objective["id"] == "obj-centre"
    assert objective["controlled_by"] == ["red"]
    assert objective["level"] == {"red": 4, "blue": 2}
    assert objective["in_range"] == {"red": ["red-i1", "red-i2"], "blue": ["blue-b1", "blue-b2"]}
    units = {u["id"]: u for u in data["units"]}
    assert set(units) == {"red-intercessors", "red-bikes", "blue-boyz", "blue-tank"}
    for row in data["units"]:
        assert {"id", "quarter", "within_6_of_centre", "engaged_with"} <= set(row)
        assert {"zones_wholly_within", "territory"} <= set(row)
        assert row["engaged_with"] == sorted(row["engaged_with"])
    assert units["red-intercessors"]["engaged_with"] == ["blue-boyz"]
    assert units["red-intercessors"]["within_6_of_centre"] is True
    assert units["red-bikes"]["quarter"] == "SW"
    assert units["red-bikes"]["zones_wholly_within"] == ["red-dz"]
    assert units["red-bikes"]["territory"] == "red"
    assert units["blue-tank"]["zones_wholly_within"] == ["blue-dz"]
    assert units["blue-tank"]["terrain_wholly_within"] == ["ruin"]
    assert "visibility" not in data


def test_ruling_text_explains() -> None:
    text = evaluate(small_scenario(), visibility=False).ruling_text()
    assert "obj-centre: controlled by red" in text
    assert "OC in range: red 4, blue 2 (greater)" in text
    assert "red-intercessors and blue-boyz" in text or "blue-boyz and red-intercessors" in text
    assert text.endswith("\n")


@pytest.mark.skipif(
    importlib.util.find_spec("engine.visibility") is None, reason="engine.visibility not there"
)
def test_visibility_is_included_when_available() -> None:
    scenario = small_scenario()
    data = evaluate(scenario, visibility=True).to_json()
    pairs = {(v["observer"], v["target"]) for v in data["visibility"]}
    assert ("red-intercessors", "blue-boyz") in pairs
    assert ("blue-boyz", "red-intercessors") in pairs
    assert all(scenario.unit(a).player != scenario.unit(b).player for a, b in pairs)


def _random_walk(scenario: Scenario, steps: int, seed: int) -> None:
    rng = random.Random(seed)
    evaluator = IncrementalEvaluator(scenario)
    ids = [u.id for u in scenario.units]
    current = scenario
    for step in range(steps):
        moved = rng.sample(ids, rng.choice((1, 1, 1, 2)))
        for unit_id in moved:
            current = current.with_unit_moved(unit_id, rng.uniform(-3, 3), rng.uniform(-3, 3))
        if step % 7 == 3:
            unit = current.unit(moved[0])
            shocked = not unit.status.battle_shocked
            status = dataclasses.replace(unit.status, battle_shocked=shocked)
            current = current.with_unit(dataclasses.replace(unit, status=status))
        incremental = evaluator.update(current, moved)
        full = evaluate(current, visibility=False)
        assert incremental.to_json() == full.to_json()
        assert incremental.engagements.pairs == full.engagements.pairs
        assert incremental.objectives == full.objectives


@pytest.mark.parametrize(
    ("ruleset", "seed"), [("wh40k-ca2026", 1), ("shared-modules", 2), ("scrollhammer", 3)]
)
def test_incremental_equals_full_on_random_moves(ruleset: str, seed: int) -> None:
    scenario = dataclasses.replace(make_stress_scenario(seed=seed), ruleset=ruleset)
    _random_walk(scenario, steps=25, seed=seed)


def test_incremental_starts_afresh_when_the_layout_changes() -> None:
    scenario = small_scenario()
    evaluator = IncrementalEvaluator(scenario)
    extra = Unit("blue-new", "blue", (Model("blue-n1", 29.0, 23.0, CircleBase(32)),))
    grown = dataclasses.replace(scenario, units=(*scenario.units, extra))
    assert evaluator.update(grown, ()).to_json() == evaluate(grown, visibility=False).to_json()
    options = dataclasses.replace(grown, options=MappingProxyType({"objective_range": 6}))
    assert evaluator.update(options, ()).to_json() == evaluate(options, visibility=False).to_json()
    # A unit changed without being named is still recomputed.
    sneaky = options.with_unit_moved("red-bikes", 30.0, 0.0)
    assert evaluator.update(sneaky, ()).to_json() == evaluate(sneaky, visibility=False).to_json()


def test_battle_shocked_unit_counts_oc_zero_after_an_update() -> None:
    scenario = small_scenario()
    evaluator = IncrementalEvaluator(scenario)
    unit = scenario.unit("red-intercessors")
    shocked = scenario.with_unit(dataclasses.replace(unit, status=UnitStatus(battle_shocked=True)))
    result = evaluator.update(shocked, ("red-intercessors",))
    assert result.objective("obj-centre").controlled_by == ("blue",)
    assert result.unit("red-intercessors").engaged_with == ("blue-boyz",)


def test_naive_baseline_agrees_with_the_exact_rules_away_from_boundaries() -> None:
    from benchmarks.bench_rules import naive_rules

    scenario = make_stress_scenario(seed=2)
    naive = naive_rules(scenario)
    exact = evaluate(scenario, visibility=False)
    exact_pairs = set(exact.engagements.unit_pairs)
    # 32-gons inscribed in the bases overestimate gaps: never more engagements than exact.
    assert set(naive["engaged_units"]) <= exact_pairs
    closest = {}
    for pair in exact.engagements.pairs:
        key = (min(pair.unit_a, pair.unit_b), max(pair.unit_a, pair.unit_b))
        closest[key] = min(closest.get(key, 9.0), pair.distance)
    for missing in exact_pairs - set(naive["engaged_units"]):
        assert closest[missing] > 2.0 - 0.02
    for unit in exact.units:
        if naive["quarters"][unit.id] is not None:
            assert naive["quarters"][unit.id] == unit.quarter
