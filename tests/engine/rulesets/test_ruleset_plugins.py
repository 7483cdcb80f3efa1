"""The rule systems as plug-ins: the registry, the protocol, each system's report (named by its
rules text's sections) and score, scoped options, and the evaluate / score JSON."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from engine.cli import main
from engine.errors import UnknownReferenceError
from engine.evaluate import evaluate
from engine.model import Objective, Scenario
from engine.options import COMMON_OPTION_CHECKS
from engine.rulesets import RULESET_IDS, ruleset_for
from engine.rulesets.base import Ruleset
from engine.scenario_edits import with_game_key, with_game_section
from engine.scenario_io import load_scenario

ASSETS = Path(__file__).resolve().parents[3] / "assets"
HELD_GROUND = ASSETS / "scrollhammer" / "held-ground-demo.warplan.json"
FORMATIONS = ASSETS / "shared-modules" / "battle-formations-demo.warplan.json"
DEMO = ASSETS / "scenarios" / "demo.warplan.json"


def report_json(scenario: Scenario) -> dict[str, object]:
    data = evaluate(scenario, visibility=False).to_json()["ruleset_report"]
    assert isinstance(data, dict)
    return data


def rules_broken(scenario: Scenario) -> list[str]:
    violations = report_json(scenario)["violations"]
    assert isinstance(violations, list)
    return [v["rule"] for v in violations]


def test_the_registry_knows_every_ruleset_and_refuses_others() -> None:
    for ruleset_id in RULESET_IDS:
        ruleset: Ruleset = ruleset_for(ruleset_id)
        assert ruleset.id == ruleset_id
        assert ruleset is ruleset_for(ruleset_id)
        assert set(COMMON_OPTION_CHECKS) <= set(ruleset.option_checks)
    with pytest.raises(UnknownReferenceError, match="unknown ruleset"):
        ruleset_for("chess")


def test_options_are_scoped_per_ruleset() -> None:
    ca, sm, sh = (ruleset_for(r) for r in ("wh40k-ca2026", "shared-modules", "scrollhammer"))
    assert "mission" in sh.option_checks
    assert "mission" not in ca.option_checks
    assert "modules" in sm.option_checks
    assert "modules" not in sh.option_checks
    assert "table_edges" in sm.option_checks
    assert "table_edges" in sh.option_checks
    assert ca.cover_applies
    assert not sh.cover_applies
    assert not sm.cover_applies
    assert (ca.longest_game, sh.longest_game) == (5, 7)
    assert set(sh.game_section_checks) == {"scrollhammer"}
    assert set(sm.game_section_checks) == {"shared_modules"}


def test_the_control_strategy_comes_from_the_ruleset() -> None:
    scenario = load_scenario(DEMO)
    strategies = {
        r: ruleset_for(r).objective_rules(replace(scenario, ruleset=r)).strategy
        for r in RULESET_IDS
    }
    assert strategies == {
        "wh40k-ca2026": "summed-oc",
        "shared-modules": "hold-and-contest",
        "scrollhammer": "scoring-and-denial",
    }


# ------------------------------------------------------------------------------ Scrollhammer


def test_scrollhammer_report_names_the_rulebook_sections() -> None:
    demo = load_scenario(HELD_GROUND)
    assert rules_broken(demo) == []
    near_edge = replace(
        demo,
        objectives=tuple(replace(o, x=5.0) if o.id == "obj-north" else o for o in demo.objectives),
    )
    assert rules_broken(near_edge) == ["Place Objective Markers"]
    placed = report_json(near_edge)["violations"]
    assert isinstance(placed, list)
    assert placed[0]["ids"] == ["obj-north"]
    assert "obj-north" in placed[0]["message"]
    knights = demo.unit("red-knights")
    forward = demo.with_unit(knights.moved(0.0, 20.0))
    assert "Deploy Forces" in rules_broken(forward)
    # The wood put 1" east of the ruin (x 28-34): terrain must be more than 3" apart.
    beside_ruin = ((35.0, 30.0), (37.0, 30.0), (37.0, 32.0), (35.0, 32.0))
    crowded = replace(
        demo,
        terrain=tuple(replace(t, area=beside_ruin) if t.id == "wood" else t for t in demo.terrain),
    )
    terrain = [
        v["ids"] for v in report_json(crowded)["violations"] if v["rule"] == "Alternating Terrain"
    ]
    # Too close to each other, and now two pieces in section B2 (density limit 1, rolled 1).
    assert terrain == [["B2", "ruin", "wood"], ["ruin", "wood"]]


def test_scrollhammer_vp_so_far_and_absent_without_a_game() -> None:
    demo = load_scenario(HELD_GROUND)
    assert report_json(demo)["vp"] == {"red": 1, "blue": 1}
    assert "vp" not in report_json(replace(demo, game=None))


def test_scrollhammer_score_json_has_the_contract_shape() -> None:
    demo = load_scenario(HELD_GROUND)
    data = evaluate(demo, visibility=False).score().to_json()
    assert set(data) >= {"battle_round", "active_player", "timing", "players"}
    red = data["players"]["red"]
    assert red["vp"] == 1
    lines = red["cards"]["Held Ground"]["lines"]
    assert lines[0]["vp"] == 1
    assert "obj-east" in lines[0]["reason"]
    assert data["outcome"]


def test_scrollhammer_declared_choice_moves_control() -> None:
    # red-legionaries stand by obj-east; declared onto an objective they cannot reach, the
    # declaration is refused and reported, and control stays as matched.
    demo = load_scenario(HELD_GROUND)
    bad = with_game_key(demo, "scrollhammer", "control_choices", {"red-legionaries": "obj-north"})
    assert "Controlling Objectives" in rules_broken(bad)
    assert evaluate(bad, visibility=False).objective("obj-east").controlled_by == ("red",)


# ------------------------------------------------------------------------------ Shared Modules


def test_shared_modules_report_names_the_modules_sections() -> None:
    demo = load_scenario(FORMATIONS)
    deploying = with_game_section(demo, "shared_modules", {})
    assert rules_broken(deploying) == []
    forward = deploying.with_unit(deploying.unit("red-walker").moved(0.0, 15.0))
    assert "Battle Formations" in rules_broken(forward)
    assert "vp" not in report_json(forward)
    scouted_off = demo.with_models([demo.model("blue-s1").placed(50.0, 30.0)])
    assert "Scout And Secure" in rules_broken(scouted_off)


def test_shared_modules_score_reports_annihilation() -> None:
    data = evaluate(load_scenario(FORMATIONS), visibility=False).score().to_json()
    assert data["players"]["red"]["vp"] == 0
    assert data["players"]["red"]["cards"]["Annihilation"]["lines"][0]["holds"] is False
    assert data["winner"] is None


# ------------------------------------------------------------------------------ Chapter Approved


def test_chapter_approved_deploy_armies() -> None:
    demo = load_scenario(DEMO)
    assert report_json(demo)["vp"] == {"red": 7, "blue": 5}
    setting_up = replace(demo, game=None)
    assert "vp" not in report_json(setting_up)
    before = {v["ids"][0] for v in report_json(setting_up)["violations"]}
    unit = next(u for u in setting_up.units if u.id not in before)
    centre = setting_up.battlefield.centre
    moved = setting_up.with_models([m.placed(*centre) for m in unit.models[:1]])
    after = report_json(moved)["violations"]
    assert isinstance(after, list)
    assert {v["ids"][0] for v in after} == before | {unit.id}
    assert all(v["rule"] == "Deploy Armies" for v in after)


def test_evaluate_and_score_from_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["evaluate", str(HELD_GROUND), "--json", "--no-visibility"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["ruleset_report"] == {
        "ruleset": "scrollhammer",
        "violations": [],
        "vp": {"red": 1, "blue": 1},
    }
    for path in (HELD_GROUND, FORMATIONS, DEMO):
        assert main(["score", str(path), "--json"]) == 0
        scored = json.loads(capsys.readouterr().out)
        assert set(scored["players"]) == {"red", "blue"}


def test_objectives_far_apart_in_a_new_scrollhammer_game_break_nothing() -> None:
    game = ruleset_for("scrollhammer").new_game(
        load_scenario(HELD_GROUND), seed=3, mission="held-ground", deployed_first="red"
    )
    assert game.ruleset == "scrollhammer"
    assert "Place Objective Markers" not in rules_broken(
        replace(game, objectives=(Objective("o1", 30.0, 24.0), Objective("o2", 50.0, 24.0)))
    )


ENGINE = Path(__file__).resolve().parents[3] / "engine"


def test_no_rule_system_imports_another() -> None:
    packages = [p.name for p in (ENGINE / "rulesets").iterdir() if (p / "ruleset.py").exists()]
    assert sorted(packages) == ["scrollhammer", "shared_modules", "wh40k_ca2026"]
    for package in packages:
        for path in (ENGINE / "rulesets" / package).glob("*.py"):
            text = path.read_text()
            for other in packages:
                if other != package:
                    assert f"engine.rulesets.{other}" not in text, (path, other)


def test_the_core_never_compares_ruleset_ids() -> None:
    import re

    comparison = re.compile(r"ruleset\s*(==|!=|\bin\b|\bnot in\b)")
    for path in ENGINE.rglob("*.py"):
        if "rulesets" in path.relative_to(ENGINE).parts:
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            assert not comparison.search(line), f"{path.name}:{number}: {line.strip()}"


def test_score_takes_the_one_evaluation() -> None:
    from engine.rulesets.wh40k_ca2026 import score

    demo = load_scenario(DEMO)
    evaluation = evaluate(demo, visibility=False)
    assert score(demo, evaluation).to_json() == score(demo).to_json()
    assert evaluation.score().to_json() == score(demo).to_json()


def test_a_new_game_drops_the_other_systems_options() -> None:
    scrollhammer = load_scenario(HELD_GROUND)
    assert "mission" in scrollhammer.options
    ca = ruleset_for("wh40k-ca2026").new_game(
        scrollhammer, seed=2, force_dispositions=("Take and Hold", "Purge the Foe")
    )
    assert "mission" not in ca.options
    assert "diagonal" not in ca.options
    shared = ruleset_for("shared-modules").new_game(scrollhammer, seed=2)
    assert "mission" not in shared.options
    assert shared.options["deploys_first"] in ("red", "blue")
