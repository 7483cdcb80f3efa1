"""Overlapping bases: exact at the boundary, every base kind, incremental equal to full."""

from __future__ import annotations

import dataclasses
import random

import pytest

from benchmarks.stress import make_stress_scenario
from engine.evaluate import IncrementalEvaluator, evaluate
from engine.geometry import model_distance, models_overlap
from engine.model import CircleBase, Model, OvalBase, Player, RectBase, Scenario, Unit
from engine.overlaps import base_overlaps

DIAMETER = 32 / 25.4


def duel(red_models: tuple[Model, ...], blue_models: tuple[Model, ...]) -> Scenario:
    return Scenario(
        "wh40k-ca2026",
        (Player("red"), Player("blue")),
        units=(Unit("red-squad", "red", red_models), Unit("blue-squad", "blue", blue_models)),
    )


def test_touching_round_bases_do_not_overlap_and_a_tenth_of_a_thou_more_does() -> None:
    red = Model("red-1", 30.0, 16.0, CircleBase(32))
    touching = duel((red,), (Model("blue-1", 30.0 + DIAMETER, 16.0, CircleBase(32)),))
    assert base_overlaps(touching) == ()
    within_tolerance = duel(
        (red,), (Model("blue-1", 30.0 + DIAMETER - 5e-7, 16.0, CircleBase(32)),)
    )
    assert base_overlaps(within_tolerance) == ()
    crossing = duel((red,), (Model("blue-1", 30.0 + DIAMETER - 1e-4, 16.0, CircleBase(32)),))
    assert base_overlaps(crossing) == (("blue-1", "red-1"),)
    assert base_overlaps(crossing, {"red-squad"}) == (("blue-1", "red-1"),)
    assert base_overlaps(crossing, {"nobody"}) == ()


@pytest.mark.parametrize("base", [OvalBase(60, 35), RectBase(80, 50)], ids=["oval", "rectangle"])
def test_non_round_bases_at_the_boundary(base: OvalBase | RectBase) -> None:
    red = Model("red-1", 30.0, 16.0, base)
    half = base.semi_axes[0] if isinstance(base, OvalBase) else base.half_extents[0]
    touching_x = 30.0 + 2 * half
    touching = duel((red,), (Model("blue-1", touching_x, 16.0, base),))
    assert model_distance(touching.model("red-1"), touching.model("blue-1")) == 0.0
    assert base_overlaps(touching) == ()
    crossing = duel((red,), (Model("blue-1", touching_x - 1e-4, 16.0, base),))
    assert base_overlaps(crossing) == (("blue-1", "red-1"),)


def test_models_of_one_unit_overlap_too() -> None:
    squad = (Model("a", 10.0, 10.0, CircleBase(32)), Model("b", 10.5, 10.0, CircleBase(32)))
    assert base_overlaps(duel(squad, ())) == (("a", "b"),)


def test_overlaps_by_brute_force_on_a_crowded_board() -> None:
    rng = random.Random(11)
    bases = [CircleBase(32), OvalBase(75, 42), RectBase(100, 60)]
    models = tuple(
        Model(
            f"m{k:02d}",
            rng.uniform(0, 12),
            rng.uniform(0, 12),
            rng.choice(bases),
            rotation=rng.uniform(0, 360),
        )
        for k in range(40)
    )
    s = duel(models[:20], models[20:])
    expected = tuple(
        sorted(
            (min(a.id, b.id), max(a.id, b.id))
            for i, a in enumerate(models)
            for b in models[i + 1 :]
            if models_overlap(a, b)
        )
    )
    assert expected
    assert base_overlaps(s) == expected


def test_incremental_overlaps_follow_a_drag() -> None:
    scenario = dataclasses.replace(make_stress_scenario(seed=4), ruleset="wh40k-ca2026")
    evaluator = IncrementalEvaluator(scenario)
    rng = random.Random(4)
    ids = [u.id for u in scenario.units]
    current = scenario
    seen = 0
    for _ in range(30):
        unit_id = rng.choice(ids)
        current = current.with_unit_moved(unit_id, rng.uniform(-4, 4), rng.uniform(-4, 4))
        incremental = evaluator.update(current, (unit_id,))
        assert incremental.overlaps == base_overlaps(current)
        assert incremental.overlaps == evaluate(current, visibility=False).overlaps
        seen += len(incremental.overlaps)
    assert seen > 0
