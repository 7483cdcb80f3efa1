"""The one-call Shared Scenario Modules report."""

from __future__ import annotations

import json

from shared_builders import model, scenario, unit

from engine.model import Objective
from engine.rulesets.shared_modules import shared_modules_report


def test_the_report_gathers_formations_control_defenses_annihilation_and_ledgers() -> None:
    s = scenario(
        units=[
            unit("r", "red", model("r1", 30, 5), model("r2", 30, 9)),
            unit("b", "blue", model("b1", 30, 40)),
        ],
        objectives=[Objective("o", 30, 7)],
        options={
            "modules": [
                "battle-formations",
                "objective-control",
                "reinforced-defenses",
                "annihilation",
            ]
        },
        game={
            "shared_modules": {"ledgers": {"red": {"threat": [{"amount": 5, "reason": "start"}]}}}
        },
    )
    report = shared_modules_report(s)
    assert [v.items[0] for v in report.violations] == ["r", "r"]
    data = report.to_json()
    assert data["objectives"][0]["controlled_by"] == ["red"]
    assert data["defenses"] == [{"id": "r", "cover": 3, "objectives": ["o"]}]
    assert data["ledgers"]["red"] == {"threat": 5, "command": 0}
    assert data["annihilation"]["winner"] is None
    json.dumps(data)


def test_formations_are_only_checked_before_the_battle() -> None:
    s = scenario(
        units=[unit("r", "red", model("r1", 30, 30))], game={"shared_modules": {"turn": 2}}
    )
    report = shared_modules_report(s)
    assert report.formations is None
    assert report.violations == ()
