"""Mission-specific set-up checks: objectives per mission, Blood at Dawn's deployment, and
units arriving from reserve.

- Held Ground: "the players take it in turns ... to place 4 objective markers".
- Heart of the Battle: "place a single objective marker at the center of the table".
- Quest for the Relic: "place a single, small marker at the center of the table" (the Relic).
- Blood at Dawn: "The player who deploys first must always deploy or Inflitrate at least half of
  his units (Independent Characters count as units ...), not counting units that must always be
  placed in reserves." "The player who deploys second must deploy one Hero and one Core unit if
  possible ... may also deploy number of other units with either Infiltrate or Scout. All other
  units in his army must be kept in reserve."
- Reserves: "it must move fully onto the table from the controlling player's own table edge ...
  Each model's move is measured from the edge of the battlefield".

Keywords read: ``HERO``, ``CORE``, ``INFILTRATE``, ``SCOUTS`` (or ``SCOUT``); a unit that must
always be placed in reserve has ``extra.always_in_reserve`` true.
"""

from __future__ import annotations

import math

from engine.battlefield_edges import (
    EDGE_NAMES,
    board_edge,
    model_edge_distance,
    model_edge_far_distance,
)
from engine.errors import RulesError
from engine.explain import Violation, inches
from engine.geometry import TOLERANCE
from engine.model import Scenario, Unit
from engine.rulesets.scrollhammer.battlefield import scenario_halves
from engine.rulesets.scrollhammer.missions import StandardMission, mission_of
from engine.rulesets.scrollhammer.relic import relic_marker
from engine.rulesets.scrollhammer.state import ScrollhammerState


def mission_setup_violations(scenario: Scenario) -> tuple[Violation, ...]:
    """The chosen mission's own objective and marker set-up, and Blood at Dawn's deployment."""
    mission = mission_of(scenario.option("mission"))
    if mission is None:
        return ()
    found: list[Violation] = []
    if (
        mission.objective_placement == "alternating"
        and len(scenario.objectives) > mission.objective_count
    ):
        found.append(
            Violation(
                mission.name,
                f"{len(scenario.objectives)} objective markers: {mission.name} places "
                f"{mission.objective_count}",
                tuple(o.id for o in scenario.objectives),
            )
        )
    if mission.objective_placement == "centre":
        found.extend(_centre_objective(scenario, mission))
    if mission.objective_placement == "relic" and relic_marker(scenario) is None:
        found.append(
            Violation(
                mission.name,
                "no Relic marker (a marker of kind 'relic'): place a single, small marker at the "
                "center of the table",
            )
        )
    if mission.deployment_rule == "blood-at-dawn":
        found.extend(blood_at_dawn_violations(scenario))
    return tuple(found)


def _centre_objective(scenario: Scenario, mission: StandardMission) -> list[Violation]:
    cx, cy = scenario.battlefield.centre
    if len(scenario.objectives) != 1:
        return [
            Violation(
                mission.name,
                f"{len(scenario.objectives)} objective markers: {mission.name} places a single "
                "objective marker at the center of the table",
                tuple(o.id for o in scenario.objectives),
            )
        ]
    objective = scenario.objectives[0]
    off = math.hypot(objective.x - cx, objective.y - cy)
    if off > TOLERANCE:
        return [
            Violation(
                mission.name,
                f"{objective.id} is {inches(off)} from the center of the table, where the single "
                "objective marker is placed",
                (objective.id,),
                ((objective.x, objective.y), (cx, cy)),
                off,
                0.0,
            )
        ]
    return []


def _has(unit: Unit, *keywords: str) -> bool:
    return any(unit.has_keyword(k) for k in keywords)


def blood_at_dawn_violations(scenario: Scenario) -> tuple[Violation, ...]:
    """Blood at Dawn's deployment limits for both players (reserves: ``game.scrollhammer``)."""
    state = ScrollhammerState.from_scenario(scenario)
    first = state.deployed_first or scenario.player_ids()[0]
    second = scenario.opponent_of(first)
    rule = "Blood at Dawn"
    found: list[Violation] = []
    counted = [u for u in scenario.units_of(first) if u.extra.get("always_in_reserve") is not True]
    deployed = [u for u in counted if u.id not in state.reserves]
    if 2 * len(deployed) < len(counted):
        found.append(
            Violation(
                rule,
                f"{first} deployed first and deployed {len(deployed)} of {len(counted)} units: "
                "the player who deploys first must always deploy or Infiltrate at least half of "
                "his units",
                tuple(u.id for u in counted if u.id in state.reserves),
            )
        )
    army = list(scenario.units_of(second))
    on_table = [u for u in army if u.id not in state.reserves]
    free = [u for u in on_table if not _has(u, "INFILTRATE", "SCOUTS", "SCOUT")]
    for keyword, word in (("HERO", "Hero"), ("CORE", "Core")):
        if any(u.has_keyword(keyword) for u in army) and not any(
            u.has_keyword(keyword) for u in on_table
        ):
            found.append(
                Violation(
                    rule,
                    f"{second} deployed no {word} unit: the player who deploys second must deploy "
                    "one Hero and one Core unit if possible",
                    tuple(u.id for u in army if u.has_keyword(keyword)),
                )
            )
    if not _fits_one_hero_one_core(free):
        found.append(
            Violation(
                rule,
                f"{second} deployed {', '.join(u.id for u in free)} without Infiltrate or Scout: "
                "beyond one Hero and one Core unit, all other units in his army must be kept in "
                "reserve",
                tuple(u.id for u in free),
            )
        )
    return tuple(found)


def _fits_one_hero_one_core(units: list[Unit]) -> bool:
    """Whether the units can be the one Hero and the one Core unit (each used once)."""
    if len(units) > 2:
        return False
    if len(units) == 1:
        return _has(units[0], "HERO", "CORE")
    if len(units) == 2:
        a, b = units
        return (a.has_keyword("HERO") and b.has_keyword("CORE")) or (
            a.has_keyword("CORE") and b.has_keyword("HERO")
        )
    return True


def reserve_arrival_violations(
    scenario: Scenario, unit_id: str, move: float | None = None
) -> tuple[Violation, ...]:
    """A unit arriving from reserve: every model fully on the table, no farther from its
    player's own table edge than its move (each model's move is measured from the edge, as if
    it had stood just off the board)."""
    unit = scenario.unit(unit_id)
    move = unit.move if move is None else move
    if move is None:
        raise RulesError(f"{unit_id} has no move characteristic")
    edge = scenario_halves(scenario).of(unit.player).edge
    found = []
    for model in unit.models:
        for name in EDGE_NAMES:
            over = model_edge_distance(model, board_edge(scenario.battlefield, name))
            if over < -TOLERANCE:
                found.append(
                    Violation(
                        "Reserves",
                        f"{model.id} is {inches(-over)} over the {name} edge: a Reserves unit must "
                        "move fully onto the table",
                        (unit_id, model.id),
                        ((model.x, model.y),),
                        over,
                        0.0,
                    )
                )
        travelled = model_edge_far_distance(model, edge)
        if travelled > move + TOLERANCE:
            found.append(
                Violation(
                    "Reserves",
                    f"{model.id} would have moved {inches(travelled)} from {unit.player}'s table "
                    f"edge ({edge.name}); its move is {inches(move)}",
                    (unit_id, model.id),
                    ((model.x, model.y),),
                    travelled,
                    move,
                )
            )
    return tuple(found)
