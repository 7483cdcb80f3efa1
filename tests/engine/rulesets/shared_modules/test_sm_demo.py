"""The shipped Battle Formations demo loads through the file format and obeys its modules."""

from __future__ import annotations

from pathlib import Path

from engine.rulesets.shared_modules import (
    follower_violations,
    lead_model_violations,
    shared_modules_report,
    targeting_check,
)
from engine.scenario_io import load_scenario

DEMO = (
    Path(__file__).resolve().parents[4]
    / "assets"
    / "shared-modules"
    / "battle-formations-demo.warplan.json"
)


def test_the_demo_deploys_legally_and_reports_every_module() -> None:
    scenario = load_scenario(DEMO)
    report = shared_modules_report(scenario)
    assert report.violations == ()
    assert {o.objective_id: o.controlled_by for o in report.objectives} == {
        "obj-south": ("red",),
        "obj-centre": (),
        "obj-north": ("blue",),
    }
    protected = {d.unit_id for d in report.defenses if d.protected}
    assert protected == {"red-line", "blue-line"}
    assert report.ledgers["blue"].threat.balance == 8
    assert report.ledgers["blue"].command.balance == 3
    assert lead_model_violations(scenario, "blue-scouts", "blue-s1") == ()
    assert follower_violations(scenario, "blue-scouts", "blue-s1") == ()
    assert not targeting_check(scenario, "blue-s1", "direct").allowed
