"""Controlling Objectives with scoring and denial units, one objective per unit.

"You control an objective marker if there is at least one model from one of your scoring
units, and no models from enemy denial units, within 3\" of it." "A unit can only control one
objective at a time. If a unit moves into a position where it could control two objectives,
you must make it clear to your opponent which objective the unit is controlling."

Scoring and denial come from :meth:`engine.model.Unit.is_scoring` / ``is_denial`` (Core, not
Swarms, not falling back; every unit denies unless falling back or marked). Units that are
buildings or terrain are marked ``scoring: false, denial: false`` in the file.

The player's choice: ``game.scrollhammer.control_choices`` (``{unit id: objective id}``) or the
``declared`` argument fixes a unit to one objective; Warplan assigns every other unit so each
player controls as many objectives as possible (the core's one maximum matching,
:func:`engine.objectives.maximum_matching`, deterministic by document order) and shows which
units had a choice.

Options: ``objective_range`` (default 3), ``objective_measure`` (``"centre"``, default, or
``"edge"``: from the marker's rim).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.errors import RulesError
from engine.explain import Violation, inches
from engine.model import Scenario
from engine.objectives import ObjectiveControl, objective_control
from engine.rulesets.scrollhammer._data import standard_rules

RULE = "Controlling Objectives"


@dataclass(frozen=True)
class UnitInRange:
    """A unit with a model within range of an objective: its closest model and distance."""

    unit_id: str
    player: str
    objective_id: str
    model_id: str
    distance: float
    scoring: bool
    denial: bool


@dataclass(frozen=True)
class ObjectiveHolding:
    """Who controls one objective, through which unit, and who denies whom."""

    objective_id: str
    controlled_by: tuple[str, ...]
    holders: Mapping[str, str]
    in_range: tuple[UnitInRange, ...]
    denied_by: Mapping[str, tuple[str, ...]]
    reason: str


@dataclass(frozen=True)
class UnitChoice:
    """A scoring unit's options: the objectives it could control and the one it controls."""

    unit_id: str
    player: str
    could_control: tuple[str, ...]
    controls: str | None
    declared: bool

    @property
    def has_choice(self) -> bool:
        """The unit could control two or more objectives: the player must say which."""
        return len(self.could_control) > 1


@dataclass(frozen=True)
class ScrollhammerControl:
    """Control of every objective, every scoring unit's choice, and bad declarations."""

    objectives: tuple[ObjectiveHolding, ...]
    units: tuple[UnitChoice, ...]
    violations: tuple[Violation, ...]
    range: float

    def holding(self, objective_id: str) -> ObjectiveHolding:
        for holding in self.objectives:
            if holding.objective_id == objective_id:
                return holding
        raise RulesError(f"no objective {objective_id!r}")

    def controlled_by(self, player: str) -> tuple[str, ...]:
        """The ids of the objectives ``player`` controls, sorted."""
        return tuple(sorted(h.objective_id for h in self.objectives if player in h.controlled_by))

    def to_json(self) -> dict[str, Any]:
        return {
            "objectives": [
                {
                    "id": h.objective_id,
                    "controlled_by": sorted(h.controlled_by),
                    "holders": dict(sorted(h.holders.items())),
                    "denied_by": {p: sorted(u) for p, u in sorted(h.denied_by.items())},
                    "reason": h.reason,
                }
                for h in self.objectives
            ],
            "units": [
                {
                    "id": c.unit_id,
                    "player": c.player,
                    "could_control": sorted(c.could_control),
                    "controls": c.controls,
                    "declared": c.declared,
                }
                for c in self.units
            ],
            "violations": [v.to_json() for v in self.violations],
        }


def declared_choices(scenario: Scenario) -> Mapping[str, str]:
    """``game.scrollhammer.control_choices``: the objective each unit is declared to control."""
    state = (scenario.game or {}).get("scrollhammer") or {}
    return {str(k): str(v) for k, v in (state.get("control_choices") or {}).items()}


def scrollhammer_control(
    scenario: Scenario,
    declared: Mapping[str, str] | None = None,
    controls: Sequence[ObjectiveControl] | None = None,
) -> ScrollhammerControl:
    """Control of every objective under the Scrollhammer rules, with the players' choices.

    The control itself is :func:`engine.objectives.objective_control` (the scoring-and-denial
    strategy); this adds each unit's choices, the denials and the bad declarations. Pass the
    evaluation's ``controls`` to reuse them (only without ``declared``).
    """
    choices = declared_choices(scenario) if declared is None else dict(declared)
    if controls is None or declared is not None:
        controls = objective_control(scenario, choices)
    reach = controls[0].rules.objective_range if controls else _default_range(scenario)
    players = scenario.player_ids()
    in_range = {c.id: _units_in_range(scenario, c) for c in controls}
    denied: dict[str, dict[str, tuple[str, ...]]] = {}
    options: dict[str, dict[str, list[str]]] = {p: {} for p in players}
    for control in controls:
        denied[control.id] = {}
        for player in players:
            enemy = scenario.opponent_of(player)
            blockers = tuple(
                sorted({m.unit_id for m in control.measures if m.player == enemy and m.contesting})
            )
            if blockers:
                denied[control.id][player] = blockers
                continue
            for unit_id in control.candidates.get(player, ()):
                options[player].setdefault(unit_id, []).append(control.id)
    violations = _bad_declarations(scenario, choices, options, reach)
    assignment = {unit: c.id for c in controls for unit in c.holders.values()}
    holdings = tuple(
        ObjectiveHolding(
            c.id,
            c.controlled_by,
            dict(c.holders),
            tuple(in_range[c.id]),
            denied[c.id],
            _reason(c.id, c.controlled_by, c.holders, in_range[c.id], denied[c.id], reach),
        )
        for c in controls
    )
    units = tuple(
        UnitChoice(
            unit_id,
            player,
            tuple(sorted(options[player][unit_id])),
            assignment.get(unit_id),
            assignment.get(unit_id) is not None and choices.get(unit_id) == assignment[unit_id],
        )
        for player in players
        for unit_id in sorted(options[player])
    )
    return ScrollhammerControl(holdings, units, violations, reach)


def _default_range(scenario: Scenario) -> float:
    return float(scenario.option("objective_range", standard_rules()["objective_control"]["range"]))


def _units_in_range(scenario: Scenario, control: ObjectiveControl) -> list[UnitInRange]:
    """Each unit with a model in range: its closest model (document order of units)."""
    closest: dict[str, tuple[float, str]] = {}
    for m in control.measures:
        if m.in_range and (m.unit_id not in closest or m.distance < closest[m.unit_id][0]):
            closest[m.unit_id] = (m.distance, m.model_id)
    found = []
    for unit in scenario.units:
        if unit.id in closest:
            distance, model_id = closest[unit.id]
            found.append(
                UnitInRange(
                    unit.id,
                    unit.player,
                    control.id,
                    model_id,
                    distance,
                    unit.is_scoring(),
                    unit.is_denial(),
                )
            )
    return found


def _bad_declarations(
    scenario: Scenario,
    declared: Mapping[str, str],
    options: Mapping[str, Mapping[str, list[str]]],
    reach: float,
) -> tuple[Violation, ...]:
    violations: list[Violation] = []
    for unit_id, objective_id in sorted(declared.items()):
        owner = next((u for u in scenario.units if u.id == unit_id), None)
        if owner is None:
            violations.append(
                Violation(RULE, f"control choice for unknown unit {unit_id}", (unit_id,))
            )
        elif objective_id not in options[owner.player].get(unit_id, []):
            violations.append(
                Violation(
                    RULE,
                    f"{unit_id} is declared to control {objective_id} but cannot: it needs a model "
                    f"within {inches(reach)} of it, to be a scoring unit, and no enemy denial unit "
                    "within range",
                    (unit_id, objective_id),
                )
            )
    return tuple(violations)


def _reason(
    objective_id: str,
    controlled: tuple[str, ...],
    holders: Mapping[str, str],
    in_range: Sequence[UnitInRange],
    denied: Mapping[str, tuple[str, ...]],
    reach: float,
) -> str:
    parts = []
    for r in sorted(in_range, key=lambda r: (r.player, r.unit_id)):
        kind = "scoring" if r.scoring else ("denial" if r.denial else "neither scoring nor denial")
        parts.append(f"{r.unit_id} ({r.player}, {kind}) has {r.model_id} at {inches(r.distance)}")
    for player, blockers in sorted(denied.items()):
        parts.append(f"{player} is denied by {', '.join(blockers)}")
    if controlled:
        parts.append("; ".join(f"{p} controls it with {holders[p]}" for p in controlled))
    elif not in_range:
        parts.append(f"no unit within {inches(reach)}")
    else:
        parts.append("nobody controls it")
    return f"{objective_id}: " + "; ".join(parts)
