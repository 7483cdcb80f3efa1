"""The one-call Scrollhammer report: every check and conclusion, JSON-ready."""

from __future__ import annotations

import json

from scrollhammer_builders import model, scenario, square, unit

from engine.model import Objective
from engine.rulesets.scrollhammer import scrollhammer_report


def _held_ground(**game: object):  # type: ignore[no-untyped-def]
    return scenario(
        units=[
            unit("red-core", "red", model("r1", 30, 5)),
            unit("blue-core", "blue", model("b1", 30, 30)),
        ],
        objectives=[Objective("o1", 30, 8), Objective("o2", 40, 8)],
        terrain=[square("a", 10, 20, 14, 24), square("b", 16, 20, 20, 24)],
        options={"mission": "held-ground"},
        game={"scrollhammer": game},
    )


def test_before_the_battle_every_set_up_rule_is_checked() -> None:
    report = scrollhammer_report(_held_ground())
    rules = sorted({v.rule for v in report.violations})
    assert rules == ["Alternating Terrain", "Deploy Forces", "Place Objective Markers"]
    assert report.night_fighting is None
    assert report.victory is not None
    assert report.victory.vp == {"red": 1, "blue": 0}
    text = json.dumps(report.to_json())
    assert '"mission": "held-ground"' in text


def test_during_the_battle_deployment_is_not_checked_and_night_fighting_is_reported() -> None:
    report = scrollhammer_report(_held_ground(turn=5, night_fighting_rolls={"0": 2, "5": 6}))
    assert all(v.rule != "Deploy Forces" for v in report.violations)
    assert report.night_fighting is not None
    assert report.night_fighting.active
    assert report.to_json()["night_fighting"]["active"] is True


def test_without_a_mission_only_the_table_is_checked() -> None:
    report = scrollhammer_report(scenario(units=[unit("r", "red", model("r1", 30, 5))]))
    assert report.mission is None
    assert report.victory is None
    assert report.violations == ()
