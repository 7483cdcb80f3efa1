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
player controls as many objectives as possible (a maximum matching, deterministic by id) and
shows which units had a choice.

Options: ``objective_range`` (default 3), ``objective_measure`` (``"centre"``, default, or
``"edge"``: from the marker's rim).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.errors import RulesError
from engine.geometry import TOLERANCE, model_circle_distance, model_point_distance
from engine.model import Model, Objective, Scenario, Unit
from engine.rulesets.scrollhammer._data import standard_rules
from engine.rulesets.scrollhammer.violations import Violation, inches

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


def objective_distance(scenario: Scenario, model: Model, objective: Objective) -> float:
    """Distance from an objective to a model's base, per ``options.objective_measure``."""
    measure = scenario.option("objective_measure", "centre")
    if measure == "edge":
        return model_circle_distance(model, objective.x, objective.y, objective.radius)
    if measure != "centre":
        raise RulesError(f"options.objective_measure is 'centre' or 'edge', got {measure!r}")
    return model_point_distance(model, objective.x, objective.y)


def _closest(scenario: Scenario, unit: Unit, objective: Objective) -> tuple[Model, float] | None:
    best: tuple[Model, float] | None = None
    for model in unit.models:
        gap = objective_distance(scenario, model, objective)
        if best is None or gap < best[1]:
            best = (model, gap)
    return best


def scrollhammer_control(
    scenario: Scenario, declared: Mapping[str, str] | None = None
) -> ScrollhammerControl:
    """Control of every objective under the Scrollhammer rules, with the players' choices."""
    reach = float(
        scenario.option("objective_range", standard_rules()["objective_control"]["range"])
    )
    if declared is None:
        state = (scenario.game or {}).get("scrollhammer") or {}
        declared = {str(k): str(v) for k, v in (state.get("control_choices") or {}).items()}
    in_range: dict[str, list[UnitInRange]] = {o.id: [] for o in scenario.objectives}
    for objective in scenario.objectives:
        for unit in scenario.units:
            found = _closest(scenario, unit, objective)
            if found is None or found[1] > reach + TOLERANCE:
                continue
            model, gap = found
            in_range[objective.id].append(
                UnitInRange(
                    unit.id,
                    unit.player,
                    objective.id,
                    model.id,
                    gap,
                    unit.is_scoring(),
                    unit.is_denial(),
                )
            )
    players = scenario.player_ids()
    denied: dict[str, dict[str, tuple[str, ...]]] = {}
    options: dict[str, dict[str, list[str]]] = {p: {} for p in players}
    for objective in scenario.objectives:
        denied[objective.id] = {}
        for player in players:
            blockers = tuple(
                sorted(r.unit_id for r in in_range[objective.id] if r.player != player and r.denial)
            )
            if blockers:
                denied[objective.id][player] = blockers
                continue
            for r in in_range[objective.id]:
                if r.player == player and r.scoring:
                    options[player].setdefault(r.unit_id, []).append(objective.id)
    violations: list[Violation] = []
    assignment: dict[str, str] = {}
    declared_ok: set[str] = set()
    for unit_id, objective_id in sorted(declared.items()):
        owner = next((u for u in scenario.units if u.id == unit_id), None)
        if owner is None:
            violations.append(
                Violation(RULE, f"control choice for unknown unit {unit_id}", (unit_id,))
            )
            continue
        if objective_id not in options[owner.player].get(unit_id, []):
            violations.append(
                Violation(
                    RULE,
                    f"{unit_id} is declared to control {objective_id} but cannot: it needs a model "
                    f"within {inches(reach)} of it, to be a scoring unit, and no enemy denial unit "
                    "within range",
                    (unit_id, objective_id),
                )
            )
            continue
        assignment[unit_id] = objective_id
        declared_ok.add(unit_id)
    for player in players:
        free_units = {u: objs for u, objs in options[player].items() if u not in declared_ok}
        taken = {assignment[u] for u in declared_ok if u in options[player]}
        assignment.update(maximum_matching(free_units, taken))
    holdings = []
    for objective in scenario.objectives:
        holders: dict[str, str] = {}
        for unit_id, objective_id in sorted(assignment.items()):
            if objective_id == objective.id:
                player = scenario.unit(unit_id).player
                holders.setdefault(player, unit_id)
        controlled = tuple(p for p in players if p in holders)
        holdings.append(
            ObjectiveHolding(
                objective.id,
                controlled,
                holders,
                tuple(in_range[objective.id]),
                denied[objective.id],
                _reason(objective, controlled, holders, in_range, denied, reach),
            )
        )
    choices = []
    for player in players:
        for unit_id in sorted(options[player]):
            choices.append(
                UnitChoice(
                    unit_id,
                    player,
                    tuple(sorted(options[player][unit_id])),
                    assignment.get(unit_id),
                    unit_id in declared_ok,
                )
            )
    return ScrollhammerControl(tuple(holdings), tuple(choices), tuple(violations), reach)


def maximum_matching(options: Mapping[str, list[str]], taken: set[str]) -> dict[str, str]:
    """Units to distinct objectives, as many as possible (augmenting paths, by sorted ids)."""
    owner: dict[str, str] = {}

    def augment(unit: str, seen: set[str]) -> bool:
        for objective in sorted(options[unit]):
            if objective in taken or objective in seen:
                continue
            seen.add(objective)
            if objective not in owner or augment(owner[objective], seen):
                owner[objective] = unit
                return True
        return False

    for unit in sorted(options):
        augment(unit, set())
    return {unit: objective for objective, unit in owner.items()}


def _reason(
    objective: Objective,
    controlled: tuple[str, ...],
    holders: Mapping[str, str],
    in_range: Mapping[str, list[UnitInRange]],
    denied: Mapping[str, Mapping[str, tuple[str, ...]]],
    reach: float,
) -> str:
    parts = []
    for r in sorted(in_range[objective.id], key=lambda r: (r.player, r.unit_id)):
        kind = "scoring" if r.scoring else ("denial" if r.denial else "neither scoring nor denial")
        parts.append(f"{r.unit_id} ({r.player}, {kind}) has {r.model_id} at {inches(r.distance)}")
    for player, blockers in sorted(denied[objective.id].items()):
        parts.append(f"{player} is denied by {', '.join(blockers)}")
    if controlled:
        parts.append("; ".join(f"{p} controls it with {holders[p]}" for p in controlled))
    elif not in_range[objective.id]:
        parts.append(f"no unit within {inches(reach)}")
    else:
        parts.append("nobody controls it")
    return f"{objective.id}: " + "; ".join(parts)
