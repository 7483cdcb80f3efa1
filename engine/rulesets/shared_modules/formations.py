"""Battle Formations (deployment) and Scout And Secure (reinforcements), checked live.

Battle Formations: "The player who deploys first deploys their units within 12\" of their table
edge. Models must remain within 2\" of at least one other model in their unit unless that model
is alone. Units must be at least 2\" apart from other units during deployment. The opposing
player then deploys their units using the same restrictions."

Scout And Secure: spend Threat Points equal to the unit's cost, place one model "onto the
controlling player's table edge"; until it "completes its first movement or placement step,
enemy units cannot choose that model as the direct target of attacks or effects" (templates,
area and splash effects still apply unless they require choosing it as a target); then "place
all other models from the unit within 2\" of that deployed model".

Options: ``table_edges`` (``{player id: edge}``; default the first listed player south, the
second north), ``deploys_first`` (default the first listed player), ``formation_edge_depth``
(12), ``formation_coherency`` (2), ``formation_unit_spacing`` (2), ``formation_edge_measure``
(``"wholly"``, the default: every point of the base within 12"; ``"any"``: some point).
State: ``game.shared_modules.undeployed`` (units not on the table yet) and
``game.shared_modules.scout_and_secure`` (``{unit id: {"lead": model id, "moved": bool}}``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from engine.battlefield_edges import (
    EDGE_NAMES,
    BoardEdge,
    board_edge,
    model_edge_distance,
    model_edge_far_distance,
)
from engine.errors import RulesError
from engine.explain import Violation, inches
from engine.geometry import TOLERANCE, model_distance
from engine.model import Model, Scenario, Unit
from engine.rulesets.shared_modules._data import number
from engine.rulesets.shared_modules.ledgers import PlayerLedgers, unit_cost

FORMATIONS = "Battle Formations"
SCOUT = "Scout And Secure"


def _state(scenario: Scenario) -> Mapping[str, Any]:
    state: Mapping[str, Any] = (scenario.game or {}).get("shared_modules") or {}
    return state


def player_edge(scenario: Scenario, player: str) -> BoardEdge:
    """A player's table edge (``options.table_edges``, else south / north by listing order)."""
    players = scenario.player_ids()
    if player not in players:
        raise RulesError(f"no player {player!r}")
    chosen = scenario.option("table_edges") or {}
    default = "south" if player == players[0] else "north"
    name = chosen.get(player, default)
    if name not in EDGE_NAMES:
        raise RulesError(f"options.table_edges.{player}: an edge is one of {EDGE_NAMES}")
    return board_edge(scenario.battlefield, name)


def deployment_order(scenario: Scenario) -> tuple[str, str]:
    """Who deploys first and second (``options.deploys_first``, else the first listed)."""
    players = scenario.player_ids()
    first = scenario.option("deploys_first", players[0])
    if first not in players:
        raise RulesError(f"options.deploys_first must be a player id, got {first!r}")
    return first, scenario.opponent_of(first)


@dataclass(frozen=True)
class FormationCheck:
    """The Battle Formations check: deployment order, edges, and every violation."""

    deploys_first: str
    deploys_second: str
    edges: Mapping[str, str]
    violations: tuple[Violation, ...]

    @property
    def ok(self) -> bool:
        return not self.violations

    def to_json(self) -> dict[str, Any]:
        return {
            "deploys_first": self.deploys_first,
            "deploys_second": self.deploys_second,
            "edges": dict(self.edges),
            "violations": [v.to_json() for v in self.violations],
        }


def battle_formations(scenario: Scenario, unit_ids: Iterable[str] | None = None) -> FormationCheck:
    """Check the deployed units (default: every unit not listed as undeployed)."""
    depth = float(
        scenario.option("formation_edge_depth", number("battle-formations", "edge_depth"))
    )
    coherency = float(
        scenario.option("formation_coherency", number("battle-formations", "coherency"))
    )
    spacing = float(
        scenario.option("formation_unit_spacing", number("battle-formations", "unit_spacing"))
    )
    measure: Literal["wholly", "any"] = scenario.option("formation_edge_measure", "wholly")
    if measure not in ("wholly", "any"):
        raise RulesError(f"options.formation_edge_measure is 'wholly' or 'any', got {measure!r}")
    state = _state(scenario)
    undeployed = set(state.get("undeployed", ())) | set(state.get("scout_and_secure", {}))
    chosen = set(unit_ids) if unit_ids is not None else None
    units = [
        u
        for u in scenario.units
        if u.models and (u.id in chosen if chosen is not None else u.id not in undeployed)
    ]
    first, second = deployment_order(scenario)
    violations: list[Violation] = []
    for unit in units:
        edge = player_edge(scenario, unit.player)
        violations.extend(_edge_violations(scenario, unit, edge, depth, measure))
        violations.extend(_coherency_violations(unit, coherency))
    for index, unit in enumerate(units):
        for other in units[index + 1 :]:
            gap, a, b = _closest_models(unit, other)
            if gap < spacing - TOLERANCE:
                violations.append(
                    Violation(
                        FORMATIONS,
                        f"{unit.id} and {other.id} are {inches(gap)} apart ({a.id} to {b.id}): "
                        f"units must be at least {inches(spacing)} apart from other units during "
                        "deployment",
                        (unit.id, other.id, a.id, b.id),
                        ((a.x, a.y), (b.x, b.y)),
                        gap,
                        spacing,
                    )
                )
    edges = {p: player_edge(scenario, p).name for p in scenario.player_ids()}
    return FormationCheck(first, second, edges, tuple(violations))


def _edge_violations(
    scenario: Scenario, unit: Unit, edge: BoardEdge, depth: float, measure: str
) -> list[Violation]:
    found = []
    for model in unit.models:
        for name in EDGE_NAMES:
            over = model_edge_distance(model, board_edge(scenario.battlefield, name))
            if over < -TOLERANCE:
                found.append(
                    Violation(
                        FORMATIONS,
                        f"{model.id} ({unit.id}) is {inches(-over)} over the {name} edge: "
                        "models deploy on the battlefield",
                        (unit.id, model.id),
                        ((model.x, model.y),),
                        over,
                        0.0,
                    )
                )
        reach = (
            model_edge_far_distance(model, edge)
            if measure == "wholly"
            else model_edge_distance(model, edge)
        )
        if reach > depth + TOLERANCE:
            found.append(
                Violation(
                    FORMATIONS,
                    f"{model.id} ({unit.id}) reaches {inches(reach)} from {unit.player}'s table "
                    f"edge ({edge.name}): units deploy within {inches(depth)} of their table edge",
                    (unit.id, model.id),
                    ((model.x, model.y),),
                    reach,
                    depth,
                )
            )
    return found


def _coherency_violations(unit: Unit, coherency: float) -> list[Violation]:
    if len(unit.models) < 2:
        return []
    found = []
    for model in unit.models:
        nearest = min(
            ((model_distance(model, other), other) for other in unit.models if other is not model),
            key=lambda pair: pair[0],
        )
        if nearest[0] > coherency + TOLERANCE:
            other = nearest[1]
            found.append(
                Violation(
                    FORMATIONS,
                    f"{model.id} ({unit.id}) is {inches(nearest[0])} from its nearest unit-mate "
                    f"{other.id}: models must remain within {inches(coherency)} of at least one "
                    "other model in their unit",
                    (unit.id, model.id, other.id),
                    ((model.x, model.y), (other.x, other.y)),
                    nearest[0],
                    coherency,
                )
            )
    return found


def _closest_models(a: Unit, b: Unit) -> tuple[float, Model, Model]:
    return min(
        ((model_distance(x, y), x, y) for x in a.models for y in b.models), key=lambda t: t[0]
    )


# ---------------------------------------------------------------------------------------------
# Scout And Secure


def scout_and_secure(ledgers: PlayerLedgers, unit: Unit, turn: int | None = None) -> PlayerLedgers:
    """Spend Threat Points equal to the unit's cost (Command Points untouched)."""
    if unit.player != ledgers.player:
        raise RulesError(f"{unit.id} belongs to {unit.player}, not {ledgers.player}")
    return ledgers.spend_threat(unit_cost(unit), f"Scout and Secure: {unit.id}", turn)


def lead_model_violations(scenario: Scenario, unit_id: str, lead_id: str) -> tuple[Violation, ...]:
    """The first model must be placed onto its controlling player's table edge.

    Read as: its whole base on the battlefield, touching that edge (within 1e-6").
    """
    unit = scenario.unit(unit_id)
    lead = scenario.model(lead_id)
    if scenario.unit_of_model(lead_id).id != unit_id:
        raise RulesError(f"{lead_id} is not a model of {unit_id}")
    edge = player_edge(scenario, unit.player)
    found = []
    for name in EDGE_NAMES:
        over = model_edge_distance(lead, board_edge(scenario.battlefield, name))
        if over < -TOLERANCE:
            found.append(
                Violation(
                    SCOUT,
                    f"{lead_id} ({unit_id}) is {inches(-over)} over the {name} edge: place it onto "
                    "the table edge, on the battlefield",
                    (unit_id, lead_id),
                    ((lead.x, lead.y),),
                    over,
                    0.0,
                )
            )
    gap = model_edge_distance(lead, edge)
    if gap > TOLERANCE:
        found.append(
            Violation(
                SCOUT,
                f"{lead_id} ({unit_id}) is {inches(gap)} from {unit.player}'s table edge "
                f"({edge.name}): place one model from that unit onto the controlling player's "
                "table edge",
                (unit_id, lead_id),
                ((lead.x, lead.y),),
                gap,
                0.0,
            )
        )
    return tuple(found)


def follower_violations(scenario: Scenario, unit_id: str, lead_id: str) -> tuple[Violation, ...]:
    """Every other model of the unit must be placed within 2\" of the deployed model."""
    limit = float(
        scenario.option("scout_follow_distance", number("scout-and-secure", "follow_distance"))
    )
    unit = scenario.unit(unit_id)
    lead = scenario.model(lead_id)
    found = []
    for model in unit.models:
        if model.id == lead_id:
            continue
        gap = model_distance(model, lead)
        if gap > limit + TOLERANCE:
            found.append(
                Violation(
                    SCOUT,
                    f"{model.id} is {inches(gap)} from {lead_id}: place all other models from the "
                    f"unit within {inches(limit)} of that deployed model",
                    (unit_id, model.id, lead_id),
                    ((model.x, model.y), (lead.x, lead.y)),
                    gap,
                    limit,
                )
            )
    return tuple(found)


EffectKind = Literal["direct", "template", "area", "splash"]


@dataclass(frozen=True)
class TargetingCheck:
    """Whether an enemy attack or effect may affect a model, and why."""

    allowed: bool
    protected: bool
    reason: str


def targeting_check(
    scenario: Scenario, model_id: str, effect: EffectKind, *, chooses_model_as_target: bool = True
) -> TargetingCheck:
    """Scout And Secure's temporary targeting protection against an enemy attack or effect.

    ``effect`` ``"direct"``: the model is chosen as the direct target. Templates, area and
    splash effects still apply "unless that effect requires choosing that model as a target"
    (``chooses_model_as_target``).
    """
    unit = scenario.unit_of_model(model_id)
    entry = _state(scenario).get("scout_and_secure", {}).get(unit.id)
    protected = bool(entry) and entry.get("lead") == model_id and not entry.get("moved", False)
    if not protected:
        return TargetingCheck(True, False, f"{model_id} has no Scout and Secure protection")
    if effect == "direct" or chooses_model_as_target:
        return TargetingCheck(
            False,
            True,
            f"{model_id} has not completed its first movement or placement step: enemy units "
            "cannot choose that model as the direct target of attacks or effects",
        )
    return TargetingCheck(
        True,
        True,
        f"{model_id} is protected from being targeted, but this targeting protection does not "
        f"prevent {effect} effects from affecting the model",
    )
