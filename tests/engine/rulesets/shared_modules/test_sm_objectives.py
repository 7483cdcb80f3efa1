"""Objective Control (3" hold, 2" contest, from the centre, shared control), Reinforced Defenses,
Annihilation."""

from __future__ import annotations

import pytest
from shared_builders import model, scenario, unit

from engine.model import Objective, OvalBase
from engine.rulesets.shared_modules.modules import modules_in_use
from engine.rulesets.shared_modules.objectives import (
    charge_target_check,
    objective_status,
    reinforced_defenses,
    removed_target_lock_rolls,
)
from engine.rulesets.shared_modules.victory import annihilation

EPS = 1e-4
OBJ = Objective("o", 30, 22)


@pytest.mark.parametrize(("offset", "held"), [(0.0, True), (EPS, False)])
def test_a_model_exactly_3_inches_from_the_centre_holds(offset: float, held: bool) -> None:
    s = scenario(units=[unit("r", "red", model("r1", 30 + 3.5 + offset, 22))], objectives=[OBJ])
    assert objective_status(s)[0].controlled_by == (("red",) if held else ())


@pytest.mark.parametrize(("offset", "contested"), [(0.0, True), (EPS, False)])
def test_an_enemy_exactly_2_inches_from_the_centre_contests(offset: float, contested: bool) -> None:
    s = scenario(
        units=[
            unit("r", "red", model("r1", 32.5, 22)),
            unit("b", "blue", model("b1", 30 - 2.5 - offset, 22)),
        ],
        objectives=[OBJ],
    )
    status = objective_status(s)[0]
    assert ("red" in status.controlled_by) is not contested
    if contested:
        assert 'red is contested: enemy b1 is 2"' in status.reason


def test_both_players_can_control_at_once_and_it_is_shown_as_shared() -> None:
    s = scenario(
        units=[unit("r", "red", model("r1", 32.7, 22)), unit("b", "blue", model("b1", 27.3, 22))],
        objectives=[OBJ],
    )
    status = objective_status(s)[0]
    assert status.controlled_by == ("red", "blue")
    assert status.shared
    assert status.to_json()["shared"] is True
    assert "shared control" in status.reason


def test_an_oval_base_and_range_options() -> None:
    oval = model("r1", 30, 22 + 3 + 1, OvalBase(50.8, 25.4), rotation=90)
    s = scenario(units=[unit("r", "red", oval)], objectives=[OBJ])
    assert objective_status(s)[0].controlled_by == ("red",)
    narrow = scenario(units=s.units, objectives=[OBJ], options={"objective_range": 2})
    assert objective_status(narrow)[0].controlled_by == ()


def test_agrees_with_the_evaluator() -> None:
    objectives_module = pytest.importorskip("engine.objectives")
    s = scenario(
        units=[
            unit("r", "red", model("r1", 32.7, 22), model("r2", 10, 10)),
            unit("b", "blue", model("b1", 27.3, 22), model("b2", 11.5, 10)),
        ],
        objectives=[OBJ, Objective("p", 10, 12), Objective("q", 50, 30)],
    )
    mine = {o.objective_id: set(o.controlled_by) for o in objective_status(s)}
    theirs = {c.id: set(c.controlled_by) for c in objectives_module.objective_control(s)}
    assert mine == theirs


@pytest.mark.parametrize(("offset", "protected"), [(0.0, True), (EPS, False)])
def test_reinforced_defenses_cover_within_3_inches(offset: float, protected: bool) -> None:
    s = scenario(
        units=[unit("r", "red", model("r1", 30 + 3.5 + offset, 22), model("r2", 40, 22))],
        objectives=[OBJ],
        options={"modules": ["objective-control", "reinforced-defenses"]},
    )
    defense = reinforced_defenses(s)[0]
    assert defense.protected is protected
    assert defense.cover == (3 if protected else 0)
    check = charge_target_check(s, "r", uses_move_value=False, charge_name="Run")
    assert check.allowed is not protected
    assert charge_target_check(s, "r", uses_move_value=True).allowed


def test_reinforced_defenses_only_when_the_scenario_uses_it() -> None:
    s = scenario(units=[unit("r", "red", model("r1", 31, 22))], objectives=[OBJ])
    assert "reinforced-defenses" not in modules_in_use(s)
    defense = reinforced_defenses(s)[0]
    assert not defense.protected
    assert defense.objectives == ("o",)
    assert "does not use" in defense.reason


def test_cover_3_removes_target_lock_rolls_1_to_3() -> None:
    assert removed_target_lock_rolls() == (1, 2, 3)
    assert removed_target_lock_rolls(0) == ()


def test_annihilation_wins_immediately() -> None:
    units = [
        unit("r", "red", model("r1", 5, 5)),
        unit("b", "blue", model("b1", 5, 40)),
        unit("b2", "blue", model("b3", 6, 40)),
    ]
    assert annihilation(scenario(units=units)).winner is None
    destroyed = scenario(units=units, game={"shared_modules": {"destroyed": ["b", "b2"]}})
    result = annihilation(destroyed)
    assert result.winner == "red"
    assert "no units remaining that can be issued commands" in result.reason
    waiting = scenario(
        units=units, game={"shared_modules": {"destroyed": ["b"], "undeployed": ["b2"]}}
    )
    assert annihilation(waiting).winner == "red"
    counted = scenario(
        units=units,
        game={"shared_modules": {"destroyed": ["b"], "undeployed": ["b2"]}},
        options={"annihilation_counts_undeployed": True},
    )
    assert annihilation(counted).winner is None
    off = scenario(units=[units[0], unit("b", "blue", model("b1", 5, 50))])
    assert annihilation(off).winner == "red"
    removed = scenario(units=off.units, options={"modules": ["objective-control"]})
    assert annihilation(removed).winner is None
