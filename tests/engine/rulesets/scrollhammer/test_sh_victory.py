"""Victory Points per Standard Mission, crushing victories, draws and automatic wins."""

from __future__ import annotations

from typing import Any

import pytest
from scrollhammer_builders import model, scenario, unit

from engine.errors import RulesError
from engine.model import Objective, Scenario
from engine.rulesets.scrollhammer.victory import victory_points


def _armies(**game: Any) -> Scenario:
    return scenario(
        units=[
            unit("red-a", "red", model("ra", 10, 5)),
            unit("red-hero", "red", model("rh", 12, 5), keywords=("INDEPENDENT CHARACTER",)),
            unit("blue-a", "blue", model("ba", 10, 43)),
            unit("blue-b", "blue", model("bb", 20, 43), falling_back=True),
            unit("blue-c", "blue", model("bc", 30, 43)),
            unit("blue-d", "blue", model("bd", 40, 43)),
            unit("blue-gone", "blue", model("bg", 80, 43)),
        ],
        options={"mission": "season-unending"},
        game={"scrollhammer": game},
    )


def test_enemy_units_destroyed_falling_back_or_off_the_board() -> None:
    s = _armies(destroyed=["blue-a", "red-hero"], ongoing_reserves=["blue-c"], reserves=["blue-d"])
    result = victory_points(s)
    reasons = {line.items[0]: line.reason for line in result.lines}
    assert result.vp == {"red": 5, "blue": 1}
    assert "completely destroyed" in reasons["blue-a"]
    assert "falling back" in reasons["blue-b"]
    assert "Ongoing Reserves" in reasons["blue-c"]
    assert "in reserve" in reasons["blue-d"]
    assert "not on the board" in reasons["blue-gone"]
    assert "Independent Character red-hero" in reasons["red-hero"]
    assert (result.winner, result.outcome) == ("red", "crushing victory")


def test_a_victory_short_of_twice_and_a_draw() -> None:
    s = _armies(destroyed=["red-a", "red-hero", "blue-a"])
    result = victory_points(s)
    assert result.vp == {"red": 3, "blue": 2}
    assert (result.winner, result.outcome) == ("red", "victory")
    level = victory_points(
        _armies(destroyed=["red-a", "red-hero", "blue-a", "blue-d"], reserves=[]), "held-ground"
    )
    assert level.vp == {"red": 0, "blue": 0}
    assert level.outcome == "tactical draw"
    assert level.winner is None


def test_held_ground_scores_each_objective_held() -> None:
    s = scenario(
        units=[
            unit("r", "red", model("r1", 20, 10)),
            unit("r2", "red", model("r3", 40, 10)),
            unit("b", "blue", model("b1", 60, 40)),
        ],
        objectives=[Objective("o1", 20, 12), Objective("o2", 40, 12), Objective("o3", 60, 38)],
        options={"mission": "held-ground"},
    )
    result = victory_points(s)
    assert result.vp == {"red": 2, "blue": 1}
    assert [line.source for line in result.lines] == ["objectives held", "objectives held"]


def test_heart_of_the_battle_centre_objective_is_worth_4() -> None:
    s = scenario(
        units=[
            unit("r", "red", model("r1", 36, 26)),
            unit("b", "blue", model("b1", 10, 43), keywords=("ELITE",)),
        ],
        objectives=[Objective("centre", 36, 24, role="central")],
        options={"mission": "heart-of-the-battle"},
        game={"scrollhammer": {"destroyed": []}},
    )
    assert victory_points(s).vp == {"red": 4, "blue": 0}
    contested = s.with_models([s.model("b1").placed(36, 21)])
    assert victory_points(contested).vp == {"red": 0, "blue": 0}


def test_field_of_glory_standards_and_challenges() -> None:
    s = scenario(
        units=[
            unit("red-lord", "red", model("rl", 10, 5)),
            unit("red-champ", "red", model("rc", 12, 5)),
            unit("blue-lord", "blue", model("bl", 10, 43)),
        ],
        options={"mission": "field-of-glory"},
        game={
            "scrollhammer": {
                "standards_taken": [{"player": "blue", "bearer": "red-champ"}],
                "challenges": [
                    {"winner": "red-lord", "loser": "blue-lord", "slain": False},
                    {"winner": "red-lord", "loser": "blue-lord", "slain": True},
                    {"winner": "bl", "loser": "rc", "slain": False},
                ],
            }
        },
    )
    result = victory_points(s)
    by_source = {(line.player, line.source): line.vp for line in result.lines}
    assert by_source[("blue", "standards")] == 1
    assert by_source[("red", "challenges")] == 1
    assert by_source[("red", "most challenges won")] == 1
    tie = scenario(
        units=s.units,
        options={"mission": "field-of-glory"},
        game={
            "scrollhammer": {
                "challenges": [
                    {"winner": "red-lord", "loser": "blue-lord", "slain": False},
                    {"winner": "blue-lord", "loser": "red-lord", "slain": False},
                ]
            }
        },
    )
    assert all(line.source != "most challenges won" for line in victory_points(tie).lines)


def test_automatic_wins() -> None:
    conceded = _armies(conceded="red")
    assert (victory_points(conceded).winner, victory_points(conceded).outcome) == (
        "blue",
        "crushing victory",
    )
    relic = scenario(
        units=_armies().units,
        options={"mission": "quest-for-the-relic"},
        game={"scrollhammer": {"relic": {"captured_by": "blue"}}},
    )
    assert victory_points(relic).winner == "blue"
    wiped = scenario(
        units=_armies().units,
        options={"mission": "season-unending"},
        game={"timing": "end_of_turn", "scrollhammer": {"destroyed": ["red-a", "red-hero"]}},
    )
    assert victory_points(wiped).winner == "blue"
    assert "no models on the battlefield" in victory_points(wiped).reason


def test_blood_at_dawn_raiders_wiped_out_before_reserves_arrive() -> None:
    units = _armies().units
    base = {
        "deployed_first": "red",
        "destroyed": ["blue-a", "blue-b", "blue-gone"],
        "reserves": ["blue-c", "blue-d"],
    }
    s = scenario(units=units, options={"mission": "blood-at-dawn"}, game={"scrollhammer": base})
    result = victory_points(s)
    assert result.winner == "red"
    assert "arrived from reserve" in result.reason
    arrived = scenario(
        units=units,
        options={"mission": "blood-at-dawn"},
        game={"scrollhammer": {**base, "arrived_from_reserve": ["blue-c"]}},
    )
    assert "arrived from reserve" not in victory_points(arrived).reason


def test_a_mission_is_needed() -> None:
    with pytest.raises(RulesError, match="options.mission"):
        victory_points(scenario())
    assert victory_points(_armies(), "field-of-glory").mission_id == "field-of-glory"
    assert victory_points(_armies()).to_json()["vp"] == {"blue": 0, "red": 2}
