"""Structured rulings: per conclusion the verdict first, then the measured numbers against their
thresholds, then the rule cited (:class:`engine.explain.RulingSection`), built from the
explanations the rules modules return. The plain-text rulings of :mod:`engine.evaluate` stay as
they are; these are what the app's Ruling dock shows and what Copy as Markdown posts.

>>> from engine.evaluate import evaluate
>>> from engine.model import CircleBase, Model, Objective, Player, Scenario, Unit
>>> red = Unit("red-u", "red", (Model("red-1", 30.0, 19.0, CircleBase(32)),), oc=2)
>>> s = Scenario("wh40k-ca2026", (Player("red", "Red"), Player("blue")), units=(red,),
...              objectives=(Objective("obj", 30.0, 22.0),))
>>> section = evaluate(s, visibility=False).ruling_sections(objective_ids=("obj",))[0]
>>> print(section.text())
Red controls obj
  - red-1: 1.5827" from the marker's rim <= 3", OC 2: in range
  - OC in range: red 2, blue 0 (greater)
  wh40k-ca2026: Objective control
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from typing import TYPE_CHECKING

from engine.engagement import Engagements
from engine.explain import RuleRef, RulingLine, RulingSection, id_list
from engine.model import Scenario
from engine.objectives import ObjectiveControl
from engine.rulesets import ruleset_for

if TYPE_CHECKING:
    from engine.evaluate import Evaluation, UnitRuling


def objective_verdict(control: ObjectiveControl, names: Mapping[str, str]) -> str:
    """The verdict on one objective as one sentence naming the players.

    >>> from engine.model import Objective, Player, Scenario
    >>> from engine.objectives import objective_control
    >>> s = Scenario("shared-modules", (Player("a"), Player("b")),
    ...              objectives=(Objective("obj", 30.0, 22.0),))
    >>> objective_verdict(objective_control(s)[0], {"a": "Ann"})
    'Nobody controls obj'
    """
    verdict = control.verdict
    players = [names.get(p, p) for p in control.controlled_by]
    if verdict == "controlled":
        return f"{players[0]} controls {control.id}"
    if verdict == "shared":
        return f"{id_list(players)} both control {control.id}"
    if verdict == "contested":
        return f"Nobody controls {control.id}: it is contested"
    return f"Nobody controls {control.id}"


def objective_section(control: ObjectiveControl, names: Mapping[str, str]) -> RulingSection:
    """One objective's ruling: who controls it, each model's distance against the range, the
    levels compared, the control rule."""
    lines = tuple(fact.ruling_line() for fact in control.explanation.facts)
    return RulingSection(objective_verdict(control, names), lines, control.rules.rule)


def unit_sections(
    unit: UnitRuling, engagements: Engagements, scenario: Scenario
) -> tuple[RulingSection, ...]:
    """One unit's ruling, one section per conclusion: its table quarter, the centre, whom it
    is engaged with, its deployment zones and terrain areas."""
    position = unit.position
    name = _unit_name(scenario, unit.id)
    if not position.model_ids:
        return (RulingSection(f"{name} has no models on the battlefield, so is in no area"),)
    facts = position.explanation.facts
    quarter_rule, area_rule = position.quarter_rule, position.area_rule
    centre = [f for f in facts if f.measured is not None]
    quarter = [f for f in facts if f.rule == quarter_rule and f.measured is None]
    areas = [f for f in facts if f.rule == area_rule]
    where = (
        f"{name} is wholly within the {unit.quarter} table quarter"
        if unit.quarter is not None
        else f"{name} is in no table quarter (not wholly within one)"
    )
    near = "within" if unit.within_6_of_centre else "not within"
    engagement = engagements.explain(unit.id)
    engaged = (
        f"{name} is engaged with {id_list(list(unit.engaged_with))}"
        if unit.engaged_with
        else f"{name} is not engaged"
    )
    engaged_lines = tuple(f.ruling_line() for f in engagement.facts) or (
        RulingLine(engagement.conclusion.split(": ", 1)[-1], unit_ids=(unit.id,)),
    )
    zones = id_list(list(unit.zones_wholly_within))
    # The first area fact names the zones and territory (the verdict says it); the rest are
    # the terrain areas the unit stands in.
    terrain = areas[1:]
    return (
        RulingSection(where, tuple(f.ruling_line() for f in quarter), quarter_rule),
        RulingSection(
            f'{name} is {near} 6" of the centre',
            tuple(f.ruling_line() for f in centre),
            quarter_rule,
        ),
        RulingSection(engaged, engaged_lines, engagements.rules.rule),
        RulingSection(
            f"{name} is wholly within deployment zones: {zones}; territory: "
            f"{unit.territory or 'none'}",
            tuple(f.ruling_line() for f in terrain),
            area_rule,
        ),
    )


def board_sections(evaluation: Evaluation) -> tuple[RulingSection, ...]:
    """The whole battlefield's ruling: each objective, where each unit stands, each engaged
    pair of units, line of sight where it was evaluated, the notes."""
    names = evaluation.player_names
    sections = [objective_section(control, names) for control in evaluation.objectives]
    quarter_section = ruleset_for(evaluation.scenario).quarter_section
    sections.append(
        RulingSection(
            f"Where the {len(evaluation.units)} units stand",
            tuple(
                RulingLine(
                    f"{_unit_name(evaluation.scenario, u.id)} ({names.get(u.player, u.player)}): "
                    f"quarter {u.quarter or 'none'}; "
                    f'{"within" if u.within_6_of_centre else "not within"} 6" of the centre; '
                    f"zones {id_list(list(u.zones_wholly_within))}; "
                    f"territory {u.territory or 'none'}",
                    unit_ids=(u.id,),
                )
                for u in evaluation.units
            ),
            _rule(evaluation.scenario, quarter_section),
        )
    )
    engagements = evaluation.engagements
    pairs = engagements.unit_pairs
    if not pairs:
        sections.append(RulingSection("No units are engaged", (), engagements.rules.rule))
    for first, second in pairs:
        lines = tuple(
            fact.ruling_line()
            for fact in engagements.explain(first).facts
            if second in fact.unit_ids
        )
        sections.append(
            RulingSection(f"{first} and {second} are engaged", lines, engagements.rules.rule)
        )
    if evaluation.visibility is not None:
        sections.append(
            RulingSection(
                "Line of sight",
                tuple(
                    RulingLine(
                        f"{seen.observer} -> {seen.target}: visible {seen.visible}, "
                        f"fully visible {seen.fully_visible}, cover {seen.cover}",
                        unit_ids=(seen.observer, seen.target),
                    )
                    for seen in evaluation.visibility
                ),
            )
        )
    sections.extend(RulingSection(f"Note: {note}") for note in evaluation.notes)
    return tuple(sections)


def text_section(text: str, scenario: Scenario) -> RulingSection:
    """A ruling written as plain text (a rule system's contribution, a line-of-sight listing)
    as a section: its first line the verdict (a trailing colon dropped), every further line a
    line (a leading ``- `` dropped), each about the models, units and objectives it names.

    >>> from engine.model import CircleBase, Model, Player, Scenario, Unit
    >>> red = Unit("red-u", "red", (Model("red-1", 10.0, 10.0, CircleBase(32)),))
    >>> s = Scenario("scrollhammer", (Player("red"), Player("blue")), units=(red,))
    >>> section = text_section("Scrollhammer rules:\\n- [Deploy] red-1 is too close", s)
    >>> section.verdict, section.lines[0].text, section.lines[0].model_ids
    ('Scrollhammer rules', '[Deploy] red-1 is too close', ('red-1',))
    """
    first, *rest = text.strip("\n").splitlines() or [""]
    models = {m.id for u in scenario.units for m in u.models}
    units = {u.id for u in scenario.units}
    objectives = {o.id for o in scenario.objectives}
    lines = []
    for row in rest:
        body = row.strip()
        if not body:
            continue
        body = body.removeprefix("- ")
        named = _named_ids(body)
        lines.append(
            RulingLine(
                body,
                _in(named, models),
                _in(named, units),
                _in(named, objectives),
            )
        )
    return RulingSection(first.rstrip().removesuffix(":"), tuple(lines))


_ID_TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:-]*[A-Za-z0-9]|[A-Za-z0-9]")


def _named_ids(text: str) -> list[str]:
    return list(dict.fromkeys(_ID_TOKEN.findall(text)))


def _in(named: list[str], known: Collection[str]) -> tuple[str, ...]:
    return tuple(token for token in named if token in known)


def _unit_name(scenario: Scenario, unit_id: str) -> str:
    unit = next((u for u in scenario.units if u.id == unit_id), None)
    return unit.name if unit is not None and unit.name else unit_id


def _rule(scenario: Scenario, section: str) -> RuleRef:
    return RuleRef(scenario.ruleset, section)
