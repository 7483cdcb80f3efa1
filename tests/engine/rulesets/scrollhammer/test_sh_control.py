"""Controlling Objectives: scoring vs denial units, 3" inclusive, one objective per unit."""

from __future__ import annotations

import pytest
from scrollhammer_builders import model, scenario, unit

from engine.model import Objective, OvalBase, Scenario
from engine.rulesets.scrollhammer.control import ScrollhammerControl, scrollhammer_control

EPS = 1e-4


def _control(s: Scenario) -> ScrollhammerControl:
    return scrollhammer_control(s)


@pytest.mark.parametrize(("offset", "held"), [(0.0, True), (EPS, False), (-EPS, True)])
def test_a_scoring_model_exactly_3_inches_away_controls(offset: float, held: bool) -> None:
    # Base radius 0.5: centre 3.5" from the objective puts the closest point at 3".
    s = scenario(
        units=[unit("red-core", "red", model("r1", 30 + 3.5 + offset, 24))],
        objectives=[Objective("o", 30, 24)],
    )
    assert _control(s).holding("o").controlled_by == (("red",) if held else ())


@pytest.mark.parametrize(("offset", "denied"), [(0.0, True), (EPS, False)])
def test_an_enemy_denial_model_exactly_3_inches_away_denies(offset: float, denied: bool) -> None:
    s = scenario(
        units=[
            unit("red-core", "red", model("r1", 31, 24)),
            unit("blue-elite", "blue", model("b1", 30 - 3.5 - offset, 24), keywords=("ELITE",)),
        ],
        objectives=[Objective("o", 30, 24)],
    )
    holding = _control(s).holding("o")
    assert holding.controlled_by == (() if denied else ("red",))
    if denied:
        assert holding.denied_by["red"] == ("blue-elite",)
        assert "red is denied by blue-elite" in holding.reason


def test_only_core_units_score_swarms_deny_and_falling_back_does_neither() -> None:
    objectives = [Objective("o1", 20, 24), Objective("o2", 50, 24)]
    s = scenario(
        units=[
            unit("red-elite", "red", model("r1", 21, 24), keywords=("ELITE",)),
            unit("red-core", "red", model("r3", 20, 21.5)),
            unit("red-swarm", "red", model("r2", 51, 24), keywords=("CORE", "SWARMS")),
            unit("blue-runner", "blue", model("b1", 19, 24), falling_back=True),
        ],
        objectives=objectives,
    )
    control = _control(s)
    assert control.holding("o1").controlled_by == ("red",)
    assert control.holding("o1").holders == {"red": "red-core"}
    assert control.holding("o2").controlled_by == ()
    runner = unit("blue-core", "blue", model("b2", 49, 24))
    s2 = scenario(units=[*s.units, runner], objectives=objectives)
    assert _control(s2).holding("o2").controlled_by == ()
    assert _control(s2).holding("o2").denied_by["blue"] == ("red-swarm",)


def test_a_unit_controls_one_objective_and_the_choice_is_shown() -> None:
    # One unit straddles two objectives 5" apart: it can control only one of them.
    s = scenario(
        units=[unit("red-core", "red", model("r1", 22.5, 24))],
        objectives=[Objective("o1", 20, 24), Objective("o2", 25, 24)],
    )
    control = _control(s)
    assert len(control.controlled_by("red")) == 1
    choice = control.units[0]
    assert choice.has_choice
    assert choice.could_control == ("o1", "o2")
    assert not choice.declared


def test_the_declared_choice_is_honoured_and_a_bad_one_reported() -> None:
    s = scenario(
        units=[unit("red-core", "red", model("r1", 22.5, 24))],
        objectives=[Objective("o1", 20, 24), Objective("o2", 25, 24), Objective("far", 60, 24)],
        game={"scrollhammer": {"control_choices": {"red-core": "o2"}}},
    )
    control = scrollhammer_control(s)
    assert control.controlled_by("red") == ("o2",)
    assert control.units[0].declared
    bad = scrollhammer_control(s, {"red-core": "far"})
    assert bad.violations[0].items == ("red-core", "far")
    assert len(bad.controlled_by("red")) == 1


def test_units_are_matched_so_the_player_holds_as_many_as_possible() -> None:
    # "a" could hold o1 or o2, "b" only o1: the maximum is both, a on o2 and b on o1.
    s = scenario(
        units=[
            unit("a", "red", model("a1", 22.5, 24)),
            unit("b", "red", model("b1", 17.5, 24)),
        ],
        objectives=[Objective("o1", 20, 24), Objective("o2", 25, 24)],
    )
    control = _control(s)
    assert control.controlled_by("red") == ("o1", "o2")
    assert control.holding("o1").holders == {"red": "b"}
    assert control.holding("o2").holders == {"red": "a"}


def test_edge_measure_and_range_options() -> None:
    objective = Objective("o", 30, 24, diameter=50.8)  # 1" radius
    s = scenario(units=[unit("r", "red", model("r1", 34.5, 24))], objectives=[objective])
    assert _control(s).holding("o").controlled_by == ()
    edge = scenario(units=s.units, objectives=[objective], options={"objective_measure": "edge"})
    assert _control(edge).holding("o").controlled_by == ("red",)
    wide = scenario(units=s.units, objectives=[objective], options={"objective_range": 4})
    assert _control(wide).holding("o").controlled_by == ("red",)


def test_an_oval_base_is_measured_exactly() -> None:
    oval = model("r1", 30, 24 + 3 + 1, OvalBase(50.8, 25.4), rotation=90)  # 1" semi-axis along y
    s = scenario(units=[unit("r", "red", oval)], objectives=[Objective("o", 30, 24)])
    assert _control(s).holding("o").controlled_by == ("red",)
    further = scenario(
        units=[unit("r", "red", oval.moved(0, EPS))], objectives=[Objective("o", 30, 24)]
    )
    assert _control(further).holding("o").controlled_by == ()


def test_without_choices_the_counts_agree_with_the_evaluator() -> None:
    objectives_module = pytest.importorskip("engine.objectives")
    s = scenario(
        units=[
            unit("a", "red", model("a1", 22.5, 24)),
            unit("b", "red", model("b1", 17.5, 24)),
            unit("c", "blue", model("c1", 50, 24)),
            unit("d", "blue", model("d1", 41, 30), keywords=("ELITE",)),
        ],
        objectives=[
            Objective("o1", 20, 24),
            Objective("o2", 25, 24),
            Objective("o3", 50, 26),
            Objective("o4", 40, 30),
        ],
    )
    mine = _control(s)
    theirs = objectives_module.objective_control(s)
    for player in ("red", "blue"):
        assert len(mine.controlled_by(player)) == sum(player in c.controlled_by for c in theirs)
