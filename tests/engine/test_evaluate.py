"""evaluate(): the contract JSON, the ruling text, and incremental updates equal to full ones."""

from __future__ import annotations

import dataclasses
import importlib.util
import random
from types import MappingProxyType

import pytest
from deployment_fixtures import RED_SOUTH_BLUE_NORTH

from benchmarks.stress import make_stress_scenario
from engine.evaluate import IncrementalEvaluator, evaluate, rules_in_force
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


# ---------------------------------------------------------------------------------------------
# What the app draws and shows


@pytest.mark.parametrize(
    ("ruleset", "options", "expected"),
    [
        ("wh40k-ca2026", {}, (3.0, "edge", None, 5.0, True, 2.0, 5.0)),
        ("shared-modules", {}, (3.0, "centre", 2.0, None, False, 2.0, None)),
        ("scrollhammer", {}, (3.0, "centre", None, None, False, 1 / 25.4, None)),
        (
            "scrollhammer",
            {"objective_measure": "edge", "contest_range": 4, "engagement_range": 0.5},
            (3.0, "edge", 4.0, None, False, 0.5, None),
        ),
        (
            "wh40k-ca2026",
            {"objective_range": 6, "vertical_range": 2, "engagement_vertical_range": 3},
            (6.0, "edge", None, 2.0, True, 2.0, 3.0),
        ),
        ("shared-modules", {"contest_range": 1}, (3.0, "centre", 1.0, None, False, 2.0, None)),
    ],
)
def test_rules_in_force_per_ruleset_and_options(
    ruleset: str, options: dict[str, object], expected: tuple[object, ...]
) -> None:
    scenario = dataclasses.replace(
        small_scenario(), ruleset=ruleset, options=MappingProxyType(options)
    )
    rules = evaluate(scenario, visibility=False).rules
    assert (
        rules.objective_range,
        rules.measure,
        rules.contest_range,
        rules.vertical_range,
        rules.terrain_objectives,
        rules.engagement_horizontal,
        rules.engagement_vertical,
    ) == pytest.approx(expected)
    assert rules == rules_in_force(scenario)
    assert evaluate(scenario, visibility=False).to_json()["rules"]["measure"] == expected[1]


def test_objective_reach_adds_the_marker_when_measured_from_its_edge() -> None:
    scenario = small_scenario()
    objective = scenario.objectives[0]
    rules = rules_in_force(scenario)
    assert rules.objective_reach(objective) == pytest.approx(3.0 + objective.radius)
    centre = rules_in_force(
        dataclasses.replace(scenario, options=MappingProxyType({"objective_measure": "centre"}))
    )
    assert centre.objective_reach(objective) == 3.0


def test_unit_and_objective_ruling_texts() -> None:
    scenario = dataclasses.replace(
        small_scenario(),
        players=(Player("red", "Red", role="attacker"), Player("blue", "Blue", role="defender")),
    )
    evaluation = evaluate(scenario, visibility=False)
    text = evaluation.unit_ruling_text("red-intercessors")
    lines = text.splitlines()
    assert lines[0] == "Table quarter: SW"
    assert "Engaged with: blue-boyz" in lines
    assert lines[5] == evaluation.unit("red-intercessors").explanation.text().splitlines()[0]
    unengaged = evaluation.unit_ruling_text("blue-tank")
    assert "Engaged with: nobody" in unengaged.splitlines()
    objective = evaluation.objective_ruling_text("obj-centre")
    control = evaluation.objective("obj-centre")
    assert objective.splitlines()[0] == control.caption(evaluation.player_names).replace("\n", ": ")
    assert objective.splitlines()[0].startswith("obj-centre: Red ")
    assert objective.endswith(control.explanation.text())


def test_evaluate_json_lists_overlapping_bases() -> None:
    crowded = small_scenario()  # red-i1 and red-i2 stand 1" apart on 32 mm bases
    data = evaluate(crowded, visibility=False).to_json()
    assert data["overlaps"] == [["red-i1", "red-i2"]]
    spaced = crowded.with_models([crowded.model("red-i1").placed(29.5, 19.5)])
    assert evaluate(spaced, visibility=False).to_json()["overlaps"] == []
