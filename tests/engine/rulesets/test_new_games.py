"""New games for the three rule systems: seeded, every choice honoured, unknown choices refused."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.errors import RulesError, UnknownReferenceError
from engine.model import Battlefield, CircleBase, Model, Player, Scenario, Unit, freeze
from engine.rulesets.scrollhammer.setup import new_game as scrollhammer_game
from engine.rulesets.shared_modules.setup import new_game as shared_modules_game
from engine.rulesets.wh40k_ca2026.generator import new_game as wh40k_game


def blank() -> Scenario:
    units = (
        Unit("red-squad", "red", (Model("red-1", 30.0, 12.0, CircleBase(32)),)),
        Unit("blue-squad", "blue", (Model("blue-1", 30.0, 32.0, CircleBase(32)),)),
    )
    return Scenario(
        "wh40k-ca2026", (Player("red"), Player("blue")), Battlefield(72.0, 48.0), units=units
    )


def test_chapter_approved_game_is_seeded() -> None:
    dispositions = ("Take and Hold", "Purge the Foe")
    ca = wh40k_game(blank(), seed=5, force_dispositions=dispositions)
    assert ca == wh40k_game(blank(), seed=5, force_dispositions=dispositions)
    assert ca.ruleset == "wh40k-ca2026"
    assert ca.game is not None
    assert ca.game["players"]["red"]["primary"] == "IMMOVABLE OBJECT"


def test_scrollhammer_game_rolls_the_chart_and_the_first_turn() -> None:
    sh = scrollhammer_game(blank(), seed=2)
    assert sh == scrollhammer_game(blank(), seed=2)
    assert sh.ruleset == "scrollhammer"
    assert sh.deployment is None
    assert sh.game is not None
    assert sh.options["mission"] == sh.game["setup"]["mission"]
    assert 1 <= sh.game["setup"]["mission_roll"] <= 6
    assert sh.game["active_player"] == sh.game["setup"]["first_turn"]
    rolls = sh.game["setup"]["deploy_first_rolls"]
    assert all(a == b for a, b in rolls[:-1])
    assert rolls[-1][0] != rolls[-1][1]
    relic = scrollhammer_game(blank(), seed=2, mission="blood-at-dawn", deployed_first="red")
    assert relic.game is not None
    assert relic.game["first_player"] == "blue"  # deployed second steals the initiative
    halves = scrollhammer_game(blank(), seed=2, mission="held-ground", table_halves="diagonal")
    assert halves.options["table_halves"] == "diagonal"
    seized = [
        scrollhammer_game(blank(), seed=s, mission="held-ground", seize_attempt=True)
        for s in range(12)
    ]
    assert all(g.game is not None and 1 <= g.game["setup"]["seize_roll"] <= 6 for g in seized)
    with pytest.raises(UnknownReferenceError):
        scrollhammer_game(blank(), seed=2, mission="no-such-mission")
    with pytest.raises(RulesError):
        scrollhammer_game(blank(), seed=2, deployed_first="green")


def test_shared_modules_game_records_modules_and_deployment_order() -> None:
    sm = shared_modules_game(blank(), seed=2, modules=["annihilation"], deploys_first="blue")
    assert sm.options["modules"] == ("annihilation",)
    assert sm.game is not None
    assert sm.game["active_player"] == "blue"
    default = shared_modules_game(blank(), seed=2)
    assert "modules" not in default.options
    assert default == shared_modules_game(blank(), seed=2)
    with pytest.raises(RulesError, match="unknown module"):
        shared_modules_game(blank(), seed=2, modules=["nope"])


def test_new_games_drop_the_other_systems_options() -> None:
    other = replace(blank(), options=freeze({"mission": "held-ground", "objective_range": 3}))
    sm = shared_modules_game(other, seed=1, dropped_options=("mission",))
    assert "mission" not in sm.options
    assert sm.options["objective_range"] == 3
    kept = shared_modules_game(other, seed=1)
    assert kept.options["mission"] == "held-ground"
