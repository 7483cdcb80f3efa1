"""The shipped Held Ground demo loads through the file format and obeys every set-up rule."""

from __future__ import annotations

from pathlib import Path

from engine.rulesets.scrollhammer import night_fighting_status, scrollhammer_report
from engine.scenario_io import load_scenario

DEMO = (
    Path(__file__).resolve().parents[4]
    / "assets"
    / "scrollhammer"
    / "held-ground-demo.warplan.json"
)


def test_the_demo_is_a_legal_held_ground_set_up() -> None:
    scenario = load_scenario(DEMO)
    report = scrollhammer_report(scenario)
    assert report.violations == ()
    assert report.halves.kind == "diagonal"
    assert report.control.controlled_by("red") == ("obj-east",)
    assert report.control.controlled_by("blue") == ("obj-north",)
    assert report.victory is not None
    assert report.victory.outcome == "tactical draw"
    assert night_fighting_status("held-ground", {0: 5}, 1).active


def test_moving_a_model_into_the_centre_line_zone_is_caught() -> None:
    scenario = load_scenario(DEMO)
    moved = scenario.with_models([scenario.model("red-l1").placed(40, 20)])
    rules = {v.rule for v in scrollhammer_report(moved).violations}
    assert rules == {"Deploy Forces"}
