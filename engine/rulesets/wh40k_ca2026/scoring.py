"""Live scoring: every Primary and active Secondary line whose timing is the moment the
scenario's ``game`` section describes, with the VP it gives and the reason.

Position-based conditions use the engine's geometry (objective control from
``engine.evaluate``, deployment zones, territories and No Man's Land from
``engine.deployments``, exact base extents for battlefield edges and the centre). Events the
battlefield cannot show (units destroyed this turn, actions completed, statuses) come from the
``game`` section's keys (``docs/scenario-format.md`` and ``engine.game_state``); when a key is
absent the condition counts as not met and its reason says so.

Caps: a line's ``(UP TO nVP)``; FIXED or TACTICAL values by the player's ``secondary_mode``; OR
alternatives score only the best that holds; CUMULATIVE bonuses only with their base line; and
the FAQ's 15VP per battle round limit (VP scored at the end of the battle are exempt), applied
to all mission VP a player scores in one battle round, with ``players.<id>.vp_this_round`` as
the VP already scored this round.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import shapely
from shapely.geometry.base import BaseGeometry

from engine.errors import UnknownReferenceError
from engine.evaluate import Evaluation, evaluate
from engine.game_state import DestroyedUnit, GameState, PlayerGameState
from engine.geometry import (
    PreparedArea,
    model_overlaps,
    model_point_distance,
    model_wholly_within,
    shape_of,
    terrain_area,
    within,
)
from engine.model import Marker, Objective, Scenario, Unit
from engine.rulesets.wh40k_ca2026.cards import MissionCard, ScoringLine, SecondaryMode, Timing, card
from engine.score_report import CardResult, LineResult, PlayerResult, ScoreReport

ROUND_VP_LIMIT = 15
"""The FAQ's 15VP per battle round scoring limit."""

OBJECTIVE_RANGE = 3.0
"""Inches from an objective marker's closest point: 'within range' of an objective."""

GAME_TIMINGS = ("start_of_turn", "end_of_command_phase", "end_of_turn", "end_of_battle")


# ---------------------------------------------------------------------------------------------
# What the battlefield and the game section say


def _ids(items: Iterable[str]) -> str:
    listed = sorted(items)
    return ", ".join(listed) if listed else "none"


@dataclass(frozen=True)
class Measured:
    """A measure's value: a count (1/0 for yes/no), decided or not, and the reason."""

    count: int
    reason: str
    decided: bool = True


UNDECIDED_PREFIX = "not recorded in the file"


def _undecided(what: str) -> Measured:
    return Measured(0, f"{UNDECIDED_PREFIX}: {what}; counted as not met", False)


class Facts:
    """Lazy facts about one scenario for one scoring moment."""

    def __init__(self, scenario: Scenario, evaluation: Evaluation | None = None) -> None:
        self.scenario = scenario
        self.state = GameState.from_scenario(scenario)
        self._evaluation = evaluation

    # -- the engine's conclusions ---------------------------------------------------------

    @cached_property
    def evaluation(self) -> Evaluation:
        """The one evaluation of the scenario: the caller's, else worked out now."""
        if self._evaluation is not None:
            return self._evaluation
        return evaluate(self.scenario, visibility=False)

    @cached_property
    def controlled(self) -> Mapping[str, frozenset[str]]:
        """Player id -> ids of the objectives they control."""
        table: dict[str, set[str]] = {p: set() for p in self.scenario.player_ids()}
        for row in self.evaluation.objectives:
            for player in row.controlled_by:
                table.setdefault(player, set()).add(row.id)
        return {p: frozenset(ids) for p, ids in table.items()}

    @cached_property
    def in_range_units(self) -> Mapping[str, frozenset[str]]:
        """Objective id -> ids of the units with a model in range of it (either player)."""
        table: dict[str, set[str]] = {}
        for row in self.evaluation.objectives:
            units = table.setdefault(row.id, set())
            for model_ids in row.in_range.values():
                units.update(self.scenario.unit_of_model(m).id for m in model_ids)
        return {k: frozenset(v) for k, v in table.items()}

    @cached_property
    def unit_rows(self) -> Mapping[str, Any]:
        return {row.id: row for row in self.evaluation.units}

    @cached_property
    def deployment(self) -> Any:
        from engine.deployments import resolve_deployment

        return resolve_deployment(self.scenario)

    def zone(self, player: str) -> BaseGeometry | None:
        return None if self.deployment is None else self.deployment.zone_geometry(player)

    def territory(self, player: str) -> BaseGeometry | None:
        return None if self.deployment is None else self.deployment.territory_geometry(player)

    @cached_property
    def no_mans_land(self) -> BaseGeometry | None:
        if self.deployment is None:
            return None
        nml: BaseGeometry = self.deployment.no_mans_land(self.scenario.battlefield)
        return nml

    # -- objectives ------------------------------------------------------------------------

    def home_of(self, player: str) -> Objective | None:
        return next(
            (o for o in self.scenario.objectives if o.role == "home" and o.owner == player), None
        )

    def objective_point_within(self, objective: Objective, area: BaseGeometry | None) -> bool:
        """An objective is within an area when its centre point is inside it. A point on the
        edge is not: an objective on the line between the territories (Dawn of War's central and
        flank objectives) is in neither territory."""
        return area is not None and bool(
            shapely.contains(area, shapely.Point(objective.x, objective.y))
        )

    def marker_within_range(self, marker: Marker, objective: Objective) -> bool:
        """A marker (a point) is within range of an objective: within 3" of the objective
        marker's closest point, or within the terrain area of a terrain objective."""
        if objective.terrain is not None:
            area = terrain_area(self.scenario.terrain_piece(objective.terrain))
            return area.covers_point(marker.x, marker.y)
        gap = ((marker.x - objective.x) ** 2 + (marker.y - objective.y) ** 2) ** 0.5
        return within(gap - objective.radius, OBJECTIVE_RANGE)

    def operation_markers(self, player: str) -> tuple[Marker, ...]:
        return tuple(
            m for m in self.scenario.markers if m.kind == "operation" and m.player == player
        )

    # -- units -----------------------------------------------------------------------------

    def units(self, player: str, excluding: Sequence[str] = ()) -> tuple[Unit, ...]:
        out = []
        for unit in self.scenario.units_of(player):
            if "AIRCRAFT" in excluding and (
                unit.has_keyword("AIRCRAFT") or any("AIRCRAFT" in m.keywords for m in unit.models)
            ):
                continue
            if "battle-shocked" in excluding and unit.status.battle_shocked:
                continue
            if unit.models:
                out.append(unit)
        return tuple(out)

    def unit_within(self, unit: Unit, area: BaseGeometry | None) -> bool:
        """Any part of the unit over the area ('within' an area)."""
        if area is None or area.is_empty:
            return False
        prepared = PreparedArea(area)
        return any(model_overlaps(m, prepared) for m in unit.models)

    def unit_wholly_within(self, unit: Unit, area: BaseGeometry | None) -> bool:
        if area is None or area.is_empty:
            return False
        prepared = PreparedArea(area)
        return all(model_wholly_within(m, prepared) for m in unit.models)

    def unit_near_centre(self, unit: Unit, distance: float) -> bool:
        cx, cy = self.scenario.battlefield.centre
        return any(within(model_point_distance(m, cx, cy), distance) for m in unit.models)

    def edges_near(self, unit: Unit, distance: float) -> frozenset[str]:
        """The battlefield edges (``N``, ``S``, ``E``, ``W``) some model of the unit is within
        ``distance`` of, measured exactly from the base's extent."""
        width, depth = self.scenario.battlefield.width, self.scenario.battlefield.depth
        near: set[str] = set()
        for model in unit.models:
            shape = shape_of(model)
            hx, hy = shape.half_extents()
            gaps = {
                "W": shape.x - hx,
                "E": width - (shape.x + hx),
                "S": shape.y - hy,
                "N": depth - (shape.y + hy),
            }
            near.update(edge for edge, gap in gaps.items() if within(max(gap, 0.0), distance))
        return frozenset(near)

    # -- the game section ------------------------------------------------------------------

    def player_state(self, player: str) -> PlayerGameState:
        return self.state.player(player)

    def destroyed(self, owner: str) -> list[DestroyedUnit] | None:
        if self.state.destroyed_this_turn is None:
            return None
        return [e for e in self.state.destroyed_this_turn if e.player == owner]

    def card_choices(self, player: str, card_name: str) -> Mapping[str, Any]:
        return self.state.player(player).choices_for(card_name)


# ---------------------------------------------------------------------------------------------
# Measures: one function per kind of condition printed on the cards


@dataclass(frozen=True)
class Ask:
    """Who asks, about what: the scoring player, their opponent, the card and the measure."""

    facts: Facts
    player: str
    opponent: str
    card: MissionCard
    measure: Mapping[str, Any]


def _controlled_filtered(ask: Ask) -> tuple[list[Objective], list[str]]:
    f, m = ask.facts, ask.measure
    mine = f.controlled.get(ask.player, frozenset())
    notes: list[str] = []
    chosen = [o for o in f.scenario.objectives if o.id in mine]
    if m.get("exclude_home"):
        chosen = [o for o in chosen if not (o.role == "home" and o.owner == ask.player)]
        notes.append("excluding your home objective")
    if m.get("role") == "central":
        chosen = [o for o in chosen if o.role == "central"]
        notes.append("central")
    where = m.get("within")
    if where == "opponent_territory":
        chosen = [o for o in chosen if f.objective_point_within(o, f.territory(ask.opponent))]
        notes.append("within your opponent's territory")
    elif where == "no_mans_land":
        chosen = [o for o in chosen if f.objective_point_within(o, f.no_mans_land)]
        notes.append("within No Man's Land")
    return chosen, notes


def m_objectives_controlled(ask: Ask) -> Measured:
    chosen, notes = _controlled_filtered(ask)
    if ask.measure.get("requires_own_home"):
        home = ask.facts.home_of(ask.player)
        if home is None:
            return Measured(0, "you have no home objective on the battlefield")
        if home.id not in ask.facts.controlled.get(ask.player, frozenset()):
            return Measured(0, f"you do not control your home objective {home.id}")
    qualifier = f" ({', '.join(notes)})" if notes else ""
    return Measured(len(chosen), f"controls{qualifier}: {_ids(o.id for o in chosen)}")


def m_more_objectives_than_opponent(ask: Ask) -> Measured:
    mine = len(ask.facts.controlled.get(ask.player, ()))
    theirs = len(ask.facts.controlled.get(ask.opponent, ()))
    return Measured(int(mine > theirs), f"you control {mine}, your opponent {theirs}")


def m_controls_home_objective(ask: Ask) -> Measured:
    whose = ask.player if ask.measure["whose"] == "own" else ask.opponent
    home = ask.facts.home_of(whose)
    label = "your" if whose == ask.player else "your opponent's"
    if home is None:
        return Measured(0, f"{label} home objective is not on the battlefield")
    held = home.id in ask.facts.controlled.get(ask.player, frozenset())
    return Measured(
        int(held),
        f"{label} home objective {home.id} is "
        + ("controlled by you" if held else "not controlled by you"),
    )


def m_central_and_expansion(ask: Ask) -> Measured:
    mine = ask.facts.controlled.get(ask.player, frozenset())
    objectives = ask.facts.scenario.objectives
    central = [o.id for o in objectives if o.role == "central" and o.id in mine]
    expansion = [o.id for o in objectives if o.role == "expansion" and o.id in mine]
    return Measured(
        int(bool(central) and bool(expansion)),
        f"central controlled: {_ids(central)}; expansion controlled: {_ids(expansion)}",
    )


def m_opponent_home_or_each_expansion(ask: Ask) -> Measured:
    mine = ask.facts.controlled.get(ask.player, frozenset())
    home = ask.facts.home_of(ask.opponent)
    expansion = [o.id for o in ask.facts.scenario.objectives if o.role == "expansion"]
    home_held = home is not None and home.id in mine
    each = bool(expansion) and all(e in mine for e in expansion)
    return Measured(
        int(home_held or each),
        f"opponent's home objective {'controlled' if home_held else 'not controlled'}; "
        f"expansion objectives {_ids(expansion)}, controlled: "
        f"{_ids(e for e in expansion if e in mine)}",
    )


def m_objectives_newly_controlled(ask: Ask) -> Measured:
    controlled = ask.facts.player_state(ask.player).controlled_at_start_of_turn
    if controlled is None:
        return _undecided(
            "objectives you controlled at the start of the turn "
            "(players.<id>.controlled_at_start_of_turn)"
        )
    before = set(controlled)
    chosen, _ = _controlled_filtered(ask)
    new = [o.id for o in chosen if o.id not in before]
    return Measured(len(new), f"controlled now but not at the start of the turn: {_ids(new)}")


def _status_objectives(ask: Ask, status: str) -> tuple[list[Objective], list[str]]:
    """Objectives with ``status`` that still have one of the player's operation markers in
    range (FAQ: removing the marker removes the status)."""
    f = ask.facts
    listed = f.player_state(ask.player).objective_status.get(status, ())
    markers = f.operation_markers(ask.player)
    kept, lost = [], []
    for objective in f.scenario.objectives:
        if objective.id not in listed:
            continue
        if any(f.marker_within_range(mk, objective) for mk in markers):
            kept.append(objective)
        else:
            lost.append(objective.id)
    return kept, lost


def m_objectives_with_status(ask: Ask) -> Measured:
    status = str(ask.measure["status"])
    if status not in ask.facts.player_state(ask.player).objective_status:
        return _undecided(f"objectives {status} (players.<id>.objective_status.{status})")
    kept, lost = _status_objectives(ask, status)
    if ask.measure.get("role") == "opponent_home":
        home = ask.facts.home_of(ask.opponent)
        kept = [o for o in kept if home is not None and o.id == home.id]
    if ask.measure.get("within") == "opponent_territory":
        kept = [
            o
            for o in kept
            if ask.facts.objective_point_within(o, ask.facts.territory(ask.opponent))
        ]
    reason = f"{status}: {_ids(o.id for o in kept)}"
    if lost:
        reason += f" (no longer {status}, their operation marker is gone: {_ids(lost)})"
    return Measured(len(kept), reason)


def m_enemy_units_destroyed(ask: Ask) -> Measured:
    entries = ask.facts.destroyed(ask.opponent)
    if entries is None:
        return _undecided("units destroyed this turn (game.destroyed_this_turn)")
    m = ask.measure
    kept = list(entries)
    notes = []
    if m.get("by_unit_within_objective_range"):
        kept = [e for e in kept if e.by_within_objective_range]
        notes.append("by a unit within range of an objective")
    started = m.get("started_within")
    if started == "objective_range":
        kept = [e for e in kept if e.started_within_objective_range]
        notes.append("that started the turn within range of an objective")
    elif started == "central_objective_range":
        kept = [e for e in kept if e.started_within_central_objective_range]
        notes.append("that started the turn within range of a central objective")
    elif started == "terrain_area":
        kept = [e for e in kept if e.started_within_terrain]
        notes.append("that started the turn within a terrain area")
    elif started == "trapped_terrain_area":
        trapped = set(_trapped_areas(ask))
        kept = [e for e in kept if trapped & set(e.started_within_terrain)]
        notes.append(f"that started the turn within a trapped terrain area ({_ids(trapped)})")
    if "min_starting_strength" in m:
        limit = int(m["min_starting_strength"])
        kept = [e for e in kept if e.starting_strength >= limit]
        notes.append(f"with a starting strength of {limit}+")
    qualifier = f" {' and '.join(notes)}" if notes else ""
    return Measured(
        len(kept),
        f"enemy units destroyed this turn{qualifier}: {_ids(e.unit for e in kept)}",
    )


def _trapped_areas(ask: Ask) -> list[str]:
    """Terrain areas the player trapped that still hold one of their operation markers."""
    f = ask.facts
    listed = f.player_state(ask.player).objective_status.get("trapped", ())
    markers = f.operation_markers(ask.player)
    kept = []
    for terrain_id in listed:
        area = terrain_area(f.scenario.terrain_piece(terrain_id))
        if any(area.covers_point(mk.x, mk.y) for mk in markers):
            kept.append(terrain_id)
    return kept


def m_more_destroyed_than_lost_previous_turn(ask: Ask) -> Measured:
    entries = ask.facts.destroyed(ask.opponent)
    previous = ask.facts.state.destroyed_previous_turn
    if entries is None or previous is None:
        return _undecided(
            "units destroyed this turn and in the previous turn "
            "(game.destroyed_this_turn, game.destroyed_previous_turn)"
        )
    lost = [e for e in previous if e.player == ask.player]
    return Measured(
        int(len(entries) > len(lost)),
        f"{len(entries)} enemy units destroyed this turn, {len(lost)} friendly units "
        "destroyed in the previous turn",
    )


def m_enemy_models_destroyed(ask: Ask) -> Measured:
    destroyed = ask.facts.state.models_destroyed_this_turn
    if destroyed is None:
        return _undecided("models destroyed this turn (game.models_destroyed_this_turn)")
    kept = [e for e in destroyed if e.player == ask.opponent]
    notes = []
    keyword = ask.measure.get("keyword")
    if keyword:
        kept = [e for e in kept if keyword in e.keywords]
        notes.append(keyword)
    if "min_wounds" in ask.measure:
        limit = int(ask.measure["min_wounds"])
        kept = [e for e in kept if e.wounds >= limit]
        notes.append(f"W {limit}+")
    return Measured(
        len(kept),
        f"enemy {' '.join(notes)} models destroyed this turn: {_ids(e.model for e in kept)}",
    )


def m_character_destroyed_or_all_gone(ask: Ask) -> Measured:
    destroyed = ask.facts.state.models_destroyed_this_turn
    this_turn = [
        e for e in destroyed or () if e.player == ask.opponent and "CHARACTER" in e.keywords
    ]
    if this_turn:
        return Measured(
            1,
            f"enemy CHARACTER models destroyed this turn: {_ids(e.model for e in this_turn)}",
        )
    if ask.facts.player_state(ask.opponent).all_characters_destroyed:
        return Measured(1, "all enemy CHARACTER models have been destroyed during the battle")
    if destroyed is None:
        return _undecided("models destroyed this turn (game.models_destroyed_this_turn)")
    return Measured(
        0,
        "no enemy CHARACTER model destroyed this turn, and the file does not "
        "record all of them destroyed (players.<enemy>.all_characters_destroyed)",
    )


def m_condemned_left_battlefield(ask: Ask) -> Measured:
    condemned = ask.facts.player_state(ask.player).condemned
    state = ask.facts.state
    if condemned is None:
        return _undecided("your condemned units (players.<id>.condemned)")
    if state.left_battlefield_this_turn is None and state.destroyed_this_turn is None:
        return _undecided(
            "units that left the battlefield this turn (game.left_battlefield_this_turn)"
        )
    gone = set(state.left_battlefield_this_turn or ())
    gone.update(e.unit for e in state.destroyed_this_turn or ())
    left = sorted(set(condemned) & gone)
    return Measured(
        int(bool(left)),
        f"condemned: {_ids(condemned)}; left the battlefield: {_ids(left)}",
    )


def m_actions_completed(ask: Ask) -> Measured:
    completed = ask.facts.player_state(ask.player).actions_completed_this_turn
    if completed is None:
        return _undecided("actions completed this turn (players.<id>.actions_completed_this_turn)")
    action = str(ask.measure["action"])
    done = [a for a in completed if a.action == action]
    if ask.measure.get("unit_within_range_of") == "opponent_territory_objective":
        f = ask.facts
        targets = [
            o
            for o in f.scenario.objectives
            if f.objective_point_within(o, f.territory(ask.opponent))
        ]
        done = [a for a in done if any(a.unit in f.in_range_units.get(o.id, ()) for o in targets)]
        return Measured(
            len(done),
            f"{action} units within range of an objective in your "
            f"opponent's territory: {_ids(str(a.unit) for a in done)}",
        )
    return Measured(
        len(done), f"{action} completed this turn by: {_ids(str(a.unit) for a in done)}"
    )


def m_operation_markers(ask: Ask) -> Measured:
    owner = ask.player if ask.measure["owner"] == "own" else ask.opponent
    markers = ask.facts.operation_markers(owner)
    label = "your" if owner == ask.player else "your opponent's"
    count = len(markers)
    if "max" in ask.measure and "min" not in ask.measure:
        return Measured(
            int(count <= int(ask.measure["max"])),
            f"{count} of {label} operation markers on the battlefield",
        )
    return Measured(
        count, f"{label} operation markers on the battlefield: {_ids(m.id for m in markers)}"
    )


def m_operation_markers_within_range(ask: Ask) -> Measured:
    f = ask.facts
    markers = f.operation_markers(ask.player)
    if ask.measure["objectives"] == "opponent_home":
        home = f.home_of(ask.opponent)
        targets = [home] if home is not None else []
    else:
        mine = f.controlled.get(ask.player, frozenset())
        targets = [o for o in f.scenario.objectives if o.role == "central" and o.id in mine]
    kept = [mk.id for mk in markers if any(f.marker_within_range(mk, o) for o in targets)]
    return Measured(
        len(kept),
        f"your operation markers within range of {_ids(o.id for o in targets)}: {_ids(kept)}",
    )


def m_sole_operation_marker_held(ask: Ask) -> Measured:
    f = ask.facts
    owner = ask.player if ask.measure["owner"] == "own" else ask.opponent
    markers = f.operation_markers(owner)
    if len(markers) != 1:
        return Measured(0, f"{len(markers)} such operation markers are on the battlefield, not one")
    marker = markers[0]
    areas = [t for t in f.scenario.terrain if terrain_area(t).covers_point(marker.x, marker.y)]
    if not areas:
        return Measured(0, f"{marker.id} is in no terrain area")
    for piece in areas:
        polygon = terrain_area(piece).geometry
        friends = [u.id for u in f.units(ask.player) if f.unit_within(u, polygon)]
        enemies = [u.id for u in f.units(ask.opponent) if f.unit_within(u, polygon)]
        if friends and not enemies:
            return Measured(
                1,
                f"{marker.id} is alone, in {piece.id}, with your {_ids(friends)} and no enemy unit",
            )
    piece = areas[0]
    polygon = terrain_area(piece).geometry
    friends = [u.id for u in f.units(ask.player) if f.unit_within(u, polygon)]
    enemies = [u.id for u in f.units(ask.opponent) if f.unit_within(u, polygon)]
    return Measured(
        0, f"{marker.id} in {piece.id}: your units {_ids(friends)}, enemy units {_ids(enemies)}"
    )


def m_enemy_units_surveilled(ask: Ask) -> Measured:
    f = ask.facts
    recorded = f.player_state(ask.player).surveilled_this_turn
    if recorded is None:
        return _undecided("enemy units surveilled this turn (players.<id>.surveilled_this_turn)")
    surveilled = list(recorded)
    if not surveilled:
        return Measured(0, "no enemy unit was surveilled this turn")
    every_marker = [m for m in f.scenario.markers if m.kind == "operation"]
    marked = [
        o.id
        for o in f.scenario.objectives
        if any(f.marker_within_range(mk, o) for mk in every_marker)
    ]
    shielded = [u for u in surveilled if any(u in f.in_range_units.get(o, ()) for o in marked)]
    holds = len(shielded) < len(surveilled)
    return Measured(
        int(holds),
        f"surveilled: {_ids(surveilled)}; within range of an objective "
        f"with an operation marker: {_ids(shielded)}",
    )


def m_table_quarters_held(ask: Ask) -> Measured:
    f = ask.facts
    quarters: dict[str, list[str]] = {}
    for unit in f.units(ask.player, ask.measure.get("excluding", ())):
        row = f.unit_rows.get(unit.id)
        if row is None or row.quarter is None or row.within_6_of_centre:
            continue
        quarters.setdefault(row.quarter, []).append(unit.id)
    detail = "; ".join(f"{q}: {_ids(us)}" for q, us in sorted(quarters.items())) or "none"
    return Measured(
        len(quarters),
        f'table quarters held (units wholly within, not within 6" of the centre): {detail}',
    )


def m_more_units_wholly_within_no_mans_land(ask: Ask) -> Measured:
    f = ask.facts
    if f.no_mans_land is None:
        return _undecided("the deployment (No Man's Land)")
    excluding = ask.measure.get("excluding", ())
    mine = [u.id for u in f.units(ask.player, excluding) if f.unit_wholly_within(u, f.no_mans_land)]
    theirs = [
        u.id for u in f.units(ask.opponent, excluding) if f.unit_wholly_within(u, f.no_mans_land)
    ]
    return Measured(
        int(len(mine) > len(theirs)),
        f"wholly within No Man's Land: yours {_ids(mine)}, enemy {_ids(theirs)}",
    )


OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}


def m_near_battlefield_edges(ask: Ask) -> Measured:
    f = ask.facts
    distance = float(ask.measure["distance"])
    territory = f.territory(ask.player)
    if territory is None:
        return _undecided("the deployment (your territory)")
    rows = []
    for unit in f.units(ask.player, ask.measure.get("excluding", ())):
        edges = f.edges_near(unit, distance)
        if edges:
            rows.append((unit.id, edges, not f.unit_within(unit, territory)))
    described = (
        "; ".join(
            f"{uid} near {''.join(sorted(e))}{' outside your territory' if out else ''}"
            for uid, e, out in rows
        )
        or 'no unit within 6" of an edge'
    )
    if not ask.measure.get("opposite_edges"):
        return Measured(int(any(out for _, _, out in rows)), described)
    for i, (a, edges_a, out_a) in enumerate(rows):
        for b, edges_b, out_b in rows[i + 1 :]:
            if any(OPPOSITE[e] in edges_b for e in edges_a) and (out_a or out_b):
                return Measured(1, f"{a} and {b} are near opposite edges; {described}")
    return Measured(0, described)


def m_centre_ground(ask: Ask) -> Measured:
    f = ask.facts
    near = float(ask.measure["friendly_distance"])
    far = float(ask.measure["enemy_distance"])
    friends = [
        u.id
        for u in f.units(ask.player, ask.measure.get("excluding", ()))
        if f.unit_near_centre(u, near)
    ]
    enemies = [u.id for u in f.units(ask.opponent) if f.unit_near_centre(u, far)]
    return Measured(
        int(bool(friends) and not enemies),
        f'yours within {near:g}" of the centre: {_ids(friends)}; enemy within '
        f'{far:g}": {_ids(enemies)}',
    )


def m_units_wholly_within_opponent_deployment_zone(ask: Ask) -> Measured:
    f = ask.facts
    zone = f.zone(ask.opponent)
    if zone is None:
        return _undecided("the deployment (your opponent's deployment zone)")
    kept = [
        u.id
        for u in f.units(ask.player, ask.measure.get("excluding", ()))
        if f.unit_wholly_within(u, zone)
    ]
    return Measured(len(kept), f"wholly within your opponent's deployment zone: {_ids(kept)}")


def m_no_enemy_units_within_own_deployment_zone(ask: Ask) -> Measured:
    f = ask.facts
    zone = f.zone(ask.player)
    if zone is None:
        return _undecided("the deployment (your deployment zone)")
    inside = [u.id for u in f.units(ask.opponent) if f.unit_within(u, zone)]
    return Measured(int(not inside), f"enemy units within your deployment zone: {_ids(inside)}")


def m_no_enemy_units_wholly_within_own_territory(ask: Ask) -> Measured:
    f = ask.facts
    territory = f.territory(ask.player)
    if territory is None:
        return _undecided("the deployment (your territory)")
    inside = [u.id for u in f.units(ask.opponent) if f.unit_wholly_within(u, territory)]
    return Measured(int(not inside), f"enemy units wholly within your territory: {_ids(inside)}")


def m_beacon_unit_not_within(ask: Ask) -> Measured:
    f = ask.facts
    chosen = f.card_choices(ask.player, ask.card.name).get("beacon_unit")
    if chosen is None:
        return _undecided("your beacon unit (the card's beacon_unit choice)")
    unit = next((u for u in f.scenario.units_of(ask.player) if u.id == chosen), None)
    if unit is None or not unit.models:
        return Measured(0, f"beacon unit {chosen} is not on the battlefield")
    area_kind = str(ask.measure["area"])
    area = f.zone(ask.player) if area_kind == "deployment_zone" else f.territory(ask.player)
    if area is None:
        return _undecided("the deployment")
    inside = f.unit_within(unit, area)
    label = "deployment zone" if area_kind == "deployment_zone" else "territory"
    return Measured(
        int(not inside),
        f"beacon unit {chosen} is {'within' if inside else 'not within'} your {label}",
    )


def m_controls_chosen_objective(ask: Ask) -> Measured:
    key = str(ask.measure["choice"])
    chosen = ask.facts.card_choices(ask.player, ask.card.name).get(key)
    if chosen is None:
        return _undecided(f"your {key.replace('_', ' ')} (the card's {key} choice)")
    held = chosen in ask.facts.controlled.get(ask.player, frozenset())
    return Measured(
        int(held),
        f"{key.replace('_', ' ')} {chosen} is "
        + ("controlled by you" if held else "not controlled by you"),
    )


def m_objectives_guarded(ask: Ask) -> Measured:
    f = ask.facts
    guards = f.card_choices(ask.player, ask.card.name).get("guards")
    if guards is None:
        return _undecided("the guards you selected (the card's guards choice)")
    mine = f.controlled.get(ask.player, frozenset())
    kept = [o for o, u in dict(guards).items() if o in mine and u in f.in_range_units.get(o, ())]
    return Measured(len(kept), f"guarded (guard in range and objective controlled): {_ids(kept)}")


MEASURES = {
    "objectives_controlled": m_objectives_controlled,
    "more_objectives_than_opponent": m_more_objectives_than_opponent,
    "controls_home_objective": m_controls_home_objective,
    "central_and_expansion": m_central_and_expansion,
    "opponent_home_or_each_expansion": m_opponent_home_or_each_expansion,
    "objectives_newly_controlled": m_objectives_newly_controlled,
    "objectives_with_status": m_objectives_with_status,
    "enemy_units_destroyed": m_enemy_units_destroyed,
    "more_destroyed_than_lost_previous_turn": m_more_destroyed_than_lost_previous_turn,
    "enemy_models_destroyed": m_enemy_models_destroyed,
    "character_destroyed_or_all_gone": m_character_destroyed_or_all_gone,
    "condemned_left_battlefield": m_condemned_left_battlefield,
    "actions_completed": m_actions_completed,
    "operation_markers": m_operation_markers,
    "operation_markers_within_range": m_operation_markers_within_range,
    "sole_operation_marker_held": m_sole_operation_marker_held,
    "enemy_units_surveilled": m_enemy_units_surveilled,
    "table_quarters_held": m_table_quarters_held,
    "more_units_wholly_within_no_mans_land": m_more_units_wholly_within_no_mans_land,
    "near_battlefield_edges": m_near_battlefield_edges,
    "centre_ground": m_centre_ground,
    "units_wholly_within_opponent_deployment_zone": m_units_wholly_within_opponent_deployment_zone,
    "no_enemy_units_within_own_deployment_zone": m_no_enemy_units_within_own_deployment_zone,
    "no_enemy_units_wholly_within_own_territory": m_no_enemy_units_wholly_within_own_territory,
    "beacon_unit_not_within": m_beacon_unit_not_within,
    "controls_chosen_objective": m_controls_chosen_objective,
    "objectives_guarded": m_objectives_guarded,
}
"""Measure kind (``assets/wh40k-ca2026`` ``measure.kind``) -> its evaluation."""


def objectives_in_no_mans_land(scenario: Scenario) -> tuple[Objective, ...]:
    """The objectives whose centre point lies in No Man's Land (A Tempting Target's choice)."""
    facts = Facts(scenario)
    return tuple(
        o for o in scenario.objectives if facts.objective_point_within(o, facts.no_mans_land)
    )


# ---------------------------------------------------------------------------------------------
# Timing


@dataclass(frozen=True)
class Moment:
    battle_round: int
    active_player: str
    timing: str
    first_player: str | None


def timing_applies(
    timing: Timing,
    battle_rounds: tuple[int, ...] | None,
    moment: Moment,
    player: str,
    drawn_round: int | None = None,
) -> tuple[bool, str]:
    """Whether a card timing scores for ``player`` at ``moment``, and the words saying when.

    >>> from engine.rulesets.wh40k_ca2026.cards import card
    >>> section = card("BATTLEFIELD DOMINANCE").sections[1]
    >>> now = Moment(2, "red", "end_of_command_phase", "red")
    >>> timing_applies(section.timings[0], section.battle_rounds, now, "red")[0]
    True
    >>> timing_applies(section.timings[0], section.battle_rounds, now, "blue")[0]
    False
    """
    if timing.moment == "end_of_the_battle":
        return moment.timing == "end_of_battle", "end of the battle"
    if moment.timing == "end_of_battle" or battle_rounds is None:
        return False, ""
    if moment.battle_round not in battle_rounds:
        return False, ""
    yours = moment.active_player == player
    kind: str = timing.moment
    if moment.battle_round == 5 and timing.fifth_round_moment is not None:
        kind = timing.fifth_round_moment
    if kind == "end_of_your_command_phase":
        return moment.timing == "end_of_command_phase" and yours, "end of your Command phase"
    if kind == "end_of_your_turn":
        return moment.timing == "end_of_turn" and yours, "end of your turn"
    if kind == "end_of_a_turn":
        return moment.timing == "end_of_turn", "end of a turn"
    if kind == "end_of_your_opponents_turn":
        if moment.timing != "end_of_turn":
            return False, ""
        if not yours:
            return True, "end of your opponent's turn"
        last_turn_of_round_5 = (
            timing.or_end_of_fifth_battle_round
            and moment.battle_round == 5
            and moment.first_player is not None
            and moment.active_player != moment.first_player
        )
        drawn_this_round = drawn_round is None or drawn_round == 5
        return last_turn_of_round_5 and drawn_this_round, "end of the fifth battle round"
    return False, ""


# ---------------------------------------------------------------------------------------------
# Scoring


def _score_timing(
    ask_base: Ask, timing: Timing, mode: SecondaryMode | None, when: str
) -> list[LineResult]:
    results: dict[int, LineResult] = {}
    values: dict[int, int] = {}
    for line in timing.lines:
        value = line.value(mode)
        if value is None:
            continue
        values[line.index] = value
        results[line.index] = _score_line(ask_base, line, value, results, when)
    _best_alternatives(timing.lines, results)
    return [results[i] for i in sorted(results)]


def _score_line(
    ask_base: Ask, line: ScoringLine, value: int, earlier: Mapping[int, LineResult], when: str
) -> LineResult:
    if line.requires_line is not None:
        base = earlier.get(line.requires_line)
        if base is None or not base.holds:
            return LineResult(
                line.text, False, 0, f"{when}: CUMULATIVE with a line that is not met"
            )
    ask = Ask(ask_base.facts, ask_base.player, ask_base.opponent, ask_base.card, line.measure)
    measured = MEASURES[str(line.measure["kind"])](ask)
    if line.score == "each":
        holds = measured.count > 0
        vp = value * measured.count
        reason = f"{when}: {measured.count} x {value}VP; {measured.reason}"
    else:
        low = int(line.measure.get("min", 1))
        high = line.measure.get("max")
        holds = measured.count >= low and (high is None or measured.count <= int(high))
        if "max" in line.measure and "min" not in line.measure:
            holds = measured.count >= 1
        vp = value if holds else 0
        reason = f"{when}: {measured.reason}"
    if line.up_to is not None and vp > line.up_to:
        reason += f"; capped: UP TO {line.up_to}VP"
        vp = line.up_to
    return LineResult(line.text, holds, vp, reason, measured.decided)


def _best_alternatives(lines: Sequence[ScoringLine], results: dict[int, LineResult]) -> None:
    """OR lines: of a chain of alternatives only the best holding one scores."""
    groups: dict[int, list[int]] = {}
    for line in lines:
        if line.index not in results:
            continue
        root = line.index
        parent = lines[root].alternative_to
        while parent is not None:
            root, parent = parent, lines[parent].alternative_to
        groups.setdefault(root, []).append(line.index)
    for members in groups.values():
        if len(members) < 2:
            continue
        best = max(members, key=lambda i: (results[i].vp, -i))
        for i in members:
            if i != best and results[i].vp > 0:
                r = results[i]
                results[i] = LineResult(
                    r.text,
                    r.holds,
                    0,
                    f"{r.reason}; OR: the better alternative is scored instead",
                    r.decided,
                )


def _active_secondaries(
    facts: Facts, player: str
) -> tuple[list[tuple[str, int | None]], SecondaryMode | None]:
    state = facts.player_state(player)
    deck = state.deck
    mode: SecondaryMode | None = state.secondary_mode
    if deck:
        mode = deck.get("mode", mode)
        return [(a["card"], a.get("drawn_round")) for a in deck.get("active", ())], mode
    return [(name, None) for name in state.secondaries], mode


def score(scenario: Scenario, evaluation: Evaluation | None = None) -> ScoreReport:
    """Score the moment ``scenario.game`` describes, for both players (``wh40k-ca2026``).

    ``evaluation``: the scenario's evaluation (line of sight not needed), so the app evaluates
    once per change; without it, one is worked out here.
    """
    state = GameState.from_scenario(scenario)
    problems: list[str] = []
    if scenario.ruleset != "wh40k-ca2026":
        problems.append(
            f"scoring is for wh40k-ca2026 missions; this scenario is {scenario.ruleset}"
        )
    battle_round = state.battle_round
    active = state.active_player
    timing = state.timing
    if battle_round is None or active is None or timing is None:
        problems.append(
            "game.battle_round, game.active_player and game.timing are needed to "
            "know what scores now"
        )
    if problems:
        return ScoreReport(
            battle_round,
            active,
            timing,
            tuple(PlayerResult(p, 0, ()) for p in scenario.player_ids()),
            tuple(problems),
        )
    facts = Facts(scenario, evaluation)
    moment = Moment(int(battle_round or 0), str(active), str(timing), state.first_player)
    players = []
    for player in scenario.player_ids():
        players.append(_score_player(facts, moment, player, problems))
    return ScoreReport(
        moment.battle_round, moment.active_player, moment.timing, tuple(players), tuple(problems)
    )


def _score_player(facts: Facts, moment: Moment, player: str, problems: list[str]) -> PlayerResult:
    opponent = facts.scenario.opponent_of(player)
    primary = facts.player_state(player).primary
    cards: list[tuple[MissionCard, SecondaryMode | None, int | None]] = []
    if primary:
        try:
            cards.append((card(primary, "primary"), None, None))
        except UnknownReferenceError as error:
            problems.append(f"game.players.{player}.primary: {error}")
    secondaries, mode = _active_secondaries(facts, player)
    for name, drawn in secondaries:
        try:
            cards.append((card(name, "secondary"), mode, drawn))
        except UnknownReferenceError as error:
            problems.append(f"game.players.{player}.secondaries: {error}")
    results = []
    for found, card_mode, drawn in cards:
        lines: list[LineResult] = []
        base = Ask(facts, player, opponent, found, {})
        for section, timing in found.timings():
            applies, when = timing_applies(timing, section.battle_rounds, moment, player, drawn)
            if applies:
                lines.extend(_score_timing(base, timing, card_mode, when))
        results.append(CardResult(found.name, found.kind, sum(r.vp for r in lines), tuple(lines)))
    return _round_limit(facts, moment, player, results)


def _round_limit(
    facts: Facts, moment: Moment, player: str, results: list[CardResult]
) -> PlayerResult:
    total = sum(c.vp for c in results)
    if moment.timing == "end_of_battle":
        return PlayerResult(player, total, tuple(results))
    already = facts.player_state(player).vp_this_round
    room = max(0, ROUND_VP_LIMIT - already)
    if total <= room:
        return PlayerResult(player, total, tuple(results))
    cut = total - room
    limited = list(results)
    for i in range(len(limited) - 1, -1, -1):
        if cut == 0:
            break
        c = limited[i]
        take = min(cut, c.vp)
        if take:
            cut -= take
            limited[i] = CardResult(
                c.name,
                c.kind,
                c.vp - take,
                c.lines,
                f"{take}VP over the {ROUND_VP_LIMIT}VP per battle round limit "
                f"({already}VP already scored this round)",
            )
    return PlayerResult(player, room, tuple(limited))
