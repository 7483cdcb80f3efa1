"""Structured rulings: the verdict first, the measured numbers against their thresholds, the rule
cited; the ids each line is about; Markdown for a forum post; the plain texts unchanged."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.evaluate import evaluate
from engine.explain import RuleRef, RulingLine, RulingSection, sections_markdown, sections_text
from engine.model import CircleBase, Model, Objective, Player, Scenario, Unit
from engine.ruling import text_section
from engine.scenario_io import load_scenario

BASE = CircleBase(32)
BASE_RADIUS = 32 / 25.4 / 2
DEMO = Path(__file__).resolve().parents[2] / "assets" / "scenarios" / "demo.warplan.json"


def one_model_at(gap: float, ruleset: str = "wh40k-ca2026") -> Scenario:
    """A red model whose base is ``gap`` inches from the marker's rim (east of it)."""
    objective = Objective("obj-centre", 30.0, 22.0)
    x = 30.0 + objective.radius + gap + BASE_RADIUS
    red = Unit("red-u", "red", (Model("red-1", x, 22.0, BASE),), oc=2, name="Red Squad")
    players = (Player("red", "Red"), Player("blue", "Blue"))
    return Scenario(ruleset, players, units=(red,), objectives=(objective,))


def test_a_model_exactly_at_the_range_is_in_and_its_line_says_so() -> None:
    section = evaluate(one_model_at(3.0), visibility=False).ruling_sections(["obj-centre"])[0]
    assert section.verdict == "Red controls obj-centre"
    assert section.lines[0].text == "red-1: 3\" from the marker's rim <= 3\", OC 2: in range"
    assert section.lines[0].model_ids == ("red-1",)
    assert section.lines[0].unit_ids == ("red-u",)
    assert section.lines[0].objective_ids == ("obj-centre",)
    assert section.rule == RuleRef("wh40k-ca2026", "Objective control")


def test_a_model_a_tenth_of_a_thou_beyond_is_out_and_its_line_says_so() -> None:
    section = evaluate(one_model_at(3.0001), visibility=False).ruling_sections(["obj-centre"])[0]
    assert section.verdict == "Nobody controls obj-centre"
    assert section.lines[0].text == "red-1: 3.0001\" from the marker's rim > 3\": out of range"


def test_measured_from_the_centre_under_the_shared_modules() -> None:
    scenario = one_model_at(1.0, "shared-modules")
    section = evaluate(scenario, visibility=False).ruling_sections(["obj-centre"])[0]
    assert "from the marker's centre" in section.lines[0].text
    assert section.rule is not None
    assert section.rule.ruleset == "shared-modules"


def test_the_plain_rulings_keep_their_wording() -> None:
    evaluation = evaluate(one_model_at(3.0), visibility=False)
    assert evaluation.objective_ruling_text("obj-centre").splitlines()[:3] == [
        "obj-centre: Red 2 : Blue 0 - Red controls",
        "obj-centre: controlled by red",
        "  - red-1 is 3\" from obj-centre's marker (within 3\"), OC 2 "
        "[wh40k-ca2026: Objective control]",
    ]


def test_a_unit_gets_one_section_per_conclusion_each_with_its_rule() -> None:
    evaluation = evaluate(one_model_at(3.0), visibility=False)
    sections = evaluation.ruling_sections(unit_ids=["red-u"])
    assert [s.verdict for s in sections] == [
        "Red Squad is in no table quarter (not wholly within one)",
        'Red Squad is within 6" of the centre',
        "Red Squad is not engaged",
        "Red Squad is wholly within deployment zones: none; territory: none",
    ]
    assert all(s.rule is not None for s in sections)
    assert sections[0].lines[0].model_ids == ("red-1",)
    assert "touches a 1 mm quarter line" in sections[0].lines[0].text
    centre = sections[1].lines[0]
    assert centre.text.startswith("red-1: ")
    assert centre.text.endswith('<= 6": within')
    assert centre.model_ids == ("red-1",)


def test_every_id_a_line_names_is_on_the_board() -> None:
    scenario = load_scenario(DEMO)
    evaluation = evaluate(scenario, visibility=False)
    models = {m.id for u in scenario.units for m in u.models}
    units = {u.id for u in scenario.units}
    objectives = {o.id for o in scenario.objectives}
    every = [
        *evaluation.ruling_sections(),
        *evaluation.ruling_sections([o.id for o in scenario.objectives], units),
    ]
    assert every
    for section in every:
        for line in section.lines:
            assert set(line.model_ids) <= models
            assert set(line.unit_ids) <= units
            assert set(line.objective_ids) <= objectives
    engaged = [s for s in every if s.verdict.endswith("are engaged")]
    assert engaged
    assert all(s.ids for s in engaged)


def test_unknown_ids_are_left_out() -> None:
    evaluation = evaluate(one_model_at(1.0), visibility=False)
    assert evaluation.ruling_sections(["nowhere"], ["nobody"]) == ()


def test_markdown_has_the_heading_bold_verdicts_bullets_and_the_rule_in_italics() -> None:
    evaluation = evaluate(one_model_at(3.0), visibility=False)
    markdown = sections_markdown("Ruling: obj-centre", evaluation.ruling_sections(["obj-centre"]))
    assert markdown.splitlines() == [
        "### Ruling: obj-centre",
        "",
        "**Red controls obj-centre**",
        "",
        "- red-1: 3\" from the marker's rim <= 3\", OC 2: in range",
        "- OC in range: red 2, blue 0 (greater)",
        "",
        "*wh40k-ca2026: Objective control*",
    ]


@pytest.mark.parametrize("special", ["_", "*", "`", "[", "]", "~", "\\"])
def test_markdown_escapes_what_would_change_the_post(special: str) -> None:
    section = RulingSection(f"a{special}b", (RulingLine(f"c{special}d"),), RuleRef("r", "s"))
    markdown = sections_markdown("h", (section,))
    assert f"**a\\{special}b**" in markdown
    assert f"- c\\{special}d" in markdown


def test_plain_sections_text() -> None:
    section = RulingSection("v", (RulingLine("one"),), RuleRef("r", "s"))
    assert sections_text("H", (section,)) == "H\n\nv\n  - one\n  r: s"


def test_a_contributed_text_becomes_a_section_about_the_ids_it_names() -> None:
    scenario = one_model_at(1.0, "scrollhammer")
    section = text_section(
        "Scrollhammer rules:\n- [Scrollhammer: Deploy Forces] red-1 of red-u near obj-centre\n"
        "- red-10 is not a model here",
        scenario,
    )
    assert section.verdict == "Scrollhammer rules"
    first, second = section.lines
    assert first.text == "[Scrollhammer: Deploy Forces] red-1 of red-u near obj-centre"
    assert (first.model_ids, first.unit_ids, first.objective_ids) == (
        ("red-1",),
        ("red-u",),
        ("obj-centre",),
    )
    assert second.ids == ()
