"""Objective actions of the Mission Deck: which units can start one now, and whether a set of
starts respects the card's use limit.

The printed fields stay on :class:`engine.rulesets.wh40k_ca2026.cards.ObjectiveAction`; this module
reads its
``structured`` form. Positions come from the engine's geometry: a unit is within range of an
objective when the objective control evaluation lists one of its models in range; a unit is
within a terrain area when any part of a model's base is over it; a terrain area is within a
deployment zone or territory when any part of it is (area overlap, not touching).

>>> from engine.model import Player, Scenario
>>> s = Scenario("wh40k-ca2026", (Player("red"), Player("blue")), deployment="dawn-of-war")
>>> action_options(s, "red", "TRIANGULATE", battle_round=1).refusal
'TRIANGULATE starts in your Shooting phase from battle round 2'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.errors import RulesError, UnknownReferenceError
from engine.geometry import terrain_area
from engine.model import Scenario, TerrainPiece, Unit
from engine.rulesets.wh40k_ca2026.cards import ObjectiveAction, primary_missions, secondary_missions
from engine.rulesets.wh40k_ca2026.scoring import Facts

AREA_EPSILON = 1e-9
"""Square inches: a terrain area overlapping a region by less than this is only touching it."""


@dataclass(frozen=True)
class ActionOption:
    """One way a unit can start the action: the objective or terrain area it would use."""

    unit: str
    objective: str | None = None
    terrain: str | None = None


@dataclass(frozen=True)
class ActionOptions:
    """Every unit of ``player`` that can start ``action`` now, and why others cannot."""

    action: str
    options: tuple[ActionOption, ...]
    refused: Mapping[str, str]
    refusal: str | None = None

    def units(self) -> tuple[str, ...]:
        return tuple(sorted({o.unit for o in self.options}))


def objective_action(name: str) -> ObjectiveAction:
    """An objective action by its printed name (SENSOR SWEEP is printed on two cards)."""
    for mission in (*primary_missions(), *secondary_missions()):
        for action in mission.actions:
            if action.name == name.upper():
                return action
    raise UnknownReferenceError(f"no objective action named {name!r}")


def _area_within(piece: TerrainPiece, region: Any) -> bool:
    if region is None or region.is_empty:
        return False
    return bool(terrain_area(piece).geometry.intersection(region).area > AREA_EPSILON)


def _statuses(facts: Facts, player: str, status: str) -> frozenset[str]:
    listed = facts.player_state(player).objective_status.get(status, ())
    return frozenset(str(s) for s in listed)


def _objective_options(
    facts: Facts, player: str, unit: Unit, rule: Mapping[str, Any]
) -> list[ActionOption]:
    options: list[ActionOption] = []
    markers = facts.operation_markers(player)
    for objective in facts.scenario.objectives:
        if unit.id not in facts.in_range_units.get(objective.id, ()):
            continue
        if rule.get("exclude_home") and objective.role == "home" and objective.owner == player:
            continue
        if rule.get("role") == "central" and objective.role != "central":
            continue
        if "not_status" in rule and objective.id in _statuses(facts, player, rule["not_status"]):
            continue
        if rule.get("no_own_markers") and any(
            facts.marker_within_range(m, objective) for m in markers
        ):
            continue
        if rule.get("needs_terrain_area"):
            options.extend(
                ActionOption(unit.id, objective.id, piece.id)
                for piece in facts.scenario.terrain
                if facts.unit_within(unit, terrain_area(piece).geometry)
            )
            continue
        options.append(ActionOption(unit.id, objective.id, None))
    return options


def _terrain_options(
    facts: Facts, player: str, unit: Unit, rule: Mapping[str, Any]
) -> list[ActionOption]:
    options: list[ActionOption] = []
    opponent = facts.scenario.opponent_of(player)
    for piece in facts.scenario.terrain:
        if not facts.unit_within(unit, terrain_area(piece).geometry):
            continue
        if rule.get("not_within") == "deployment_zone" and _area_within(piece, facts.zone(player)):
            continue
        if rule.get("not_within") == "territory" and _area_within(piece, facts.territory(player)):
            continue
        if rule.get("within") == "opponent_territory" and not _area_within(
            piece, facts.territory(opponent)
        ):
            continue
        options.append(ActionOption(unit.id, None, piece.id))
    return options


def action_options(
    scenario: Scenario, player: str, action_name: str, *, battle_round: int | None = None
) -> ActionOptions:
    """The units of ``player`` that can start ``action_name`` in their Shooting phase now.

    ``battle_round`` defaults to the ``game`` section's. Restrictions printed on the card (a
    Sensor Sweep needs two or more operation markers on the battlefield) and statuses recorded in
    ``game.players.<id>.objective_status`` (decoyed objectives, trapped terrain areas) apply.
    """
    action = objective_action(action_name)
    rules = action.structured
    facts = Facts(scenario)
    recorded_round = facts.state.battle_round
    round_now = battle_round if battle_round is not None else recorded_round or 1
    first = int(rules["from_battle_round"])
    if int(round_now) < first:
        return ActionOptions(
            action.name,
            (),
            {},
            f"{action.name} starts in your Shooting phase from battle round {first}",
        )
    restriction = rules.get("restriction") or {}
    if "min_operation_markers" in restriction:
        on_table = [m for m in scenario.markers if m.kind == "operation"]
        if len(on_table) < int(restriction["min_operation_markers"]):
            return ActionOptions(action.name, (), {}, f"RESTRICTIONS: {action.restrictions}")
    trapped = _statuses(facts, player, str(rules.get("not_status", "")))
    options: list[ActionOption] = []
    refused: dict[str, str] = {}
    for unit in facts.units(player):
        found: list[ActionOption] = []
        alternatives = rules["eligible"]
        if not alternatives:
            found.append(ActionOption(unit.id))
        for alternative in alternatives:
            if "objective" in alternative:
                found.extend(_objective_options(facts, player, unit, alternative["objective"]))
            if "terrain_area" in alternative:
                found.extend(_terrain_options(facts, player, unit, alternative["terrain_area"]))
        found = [o for o in found if o.terrain is None or o.terrain not in trapped]
        unique = sorted(set(found), key=lambda o: (o.objective or "", o.terrain or ""))
        if unique:
            options.extend(unique)
        else:
            refused[unit.id] = f"not eligible: {action.units}"
    return ActionOptions(action.name, tuple(options), refused)


def check_starts(action_name: str, starts: Sequence[ActionOption]) -> None:
    """Refuse a set of starts in one phase that breaks the action's USE LIMIT.

    >>> check_starts("SABOTAGE", [ActionOption("a", "obj-1"), ActionOption("b", "obj-1")])
    ... # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    engine.errors.RulesError: SABOTAGE: each unit that starts it this phase must use a different...
    """
    action = objective_action(action_name)
    limit = action.structured["use_limit"]
    if limit.get("max") is not None and len(starts) > int(limit["max"]):
        raise RulesError(f"{action.name}: USE LIMIT {action.use_limit}")
    if len({s.unit for s in starts}) != len(starts):
        raise RulesError(f"{action.name}: a unit starts an action at most once a phase")
    distinct = limit.get("distinct")
    if distinct == "objective" and len({s.objective for s in starts}) != len(starts):
        raise RulesError(
            f"{action.name}: each unit that starts it this phase must use a different objective"
        )
    if distinct == "terrain_area" and len({s.terrain for s in starts}) != len(starts):
        raise RulesError(
            f"{action.name}: each unit that starts it this phase must be within a different "
            "terrain area"
        )


# ---------------------------------------------------------------------------------------------
# START OF YOUR TURN / START OF THE BATTLE selections


def condemn_candidates(scenario: Scenario, player: str) -> tuple[tuple[str, ...], bool]:
    """Punishment, start of your turn: the enemy units ``player`` may condemn, and whether they
    are the card's first choice (within range of objectives and/or destroyed friendly units in
    the previous turn, per ``game.destroyed_previous_turn[].by``) or its fallback (any enemy
    unit on the battlefield, one only)."""
    facts = Facts(scenario)
    enemy = scenario.opponent_of(player)
    in_range = {u for units in facts.in_range_units.values() for u in units}
    killers = {
        e.by for e in facts.state.destroyed_previous_turn or () if e.player == player and e.by
    }
    on_table = [u.id for u in facts.units(enemy)]
    first = tuple(sorted(u for u in on_table if u in in_range or u in killers))
    return (first, True) if first else (tuple(sorted(on_table)), False)


def check_condemned(scenario: Scenario, player: str, chosen: Sequence[str]) -> None:
    """Refuse a Punishment selection the card does not allow (one to three eligible units, or
    one enemy unit when none is eligible)."""
    candidates, preferred = condemn_candidates(scenario, player)
    most = 3 if preferred else 1
    if not 1 <= len(chosen) <= most or len(set(chosen)) != len(chosen):
        raise RulesError(f"select 1 to {most} different enemy units, got {len(chosen)}")
    wrong = [u for u in chosen if u not in candidates]
    if wrong:
        raise RulesError(
            f"{', '.join(wrong)} cannot be condemned (eligible: {', '.join(candidates) or 'none'})"
        )


def locate_and_deny_areas(scenario: Scenario, player: str) -> tuple[str, ...]:
    """Locate and Deny, start of the battle: the terrain areas not within ``player``'s deployment
    zone (select five of them; with five or fewer, each of them gets an operation marker)."""
    facts = Facts(scenario)
    zone = facts.zone(player)
    return tuple(t.id for t in scenario.terrain if not _area_within(t, zone))
