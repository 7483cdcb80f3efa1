"""Quest for the Relic: seizing, identifying (2D6), carrying, passing, dropping, capturing.

The Relic is a marker of ``kind`` ``"relic"`` (default 25 mm across, option
``relic_diameter``; the rulebook says "a single, small marker") placed at the centre of the
table. Its state lives in ``game.scrollhammer.relic``: ``carrier`` (model id), ``result``
(the 2D6 total), ``seized_turn``, ``passed_this_phase``, ``removed``, ``captured_by``.

Base contact is taken as within 1 mm (option ``base_contact``, inches), as for engagement.

>>> relic_result(6).name
'Ancient Wine'
>>> relic_probability(7)
Fraction(1, 6)
>>> carry_check(6.0).dropped, carry_check(6.0001).dropped
(False, True)
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

import shapely
from shapely.ops import nearest_points

from engine.battlefield_edges import model_edge_distance
from engine.errors import RulesError
from engine.explain import inches
from engine.geometry import TOLERANCE, model_circle_distance, model_distance, shape_of, terrain_area
from engine.model import MM_PER_INCH, Marker, Model, Point, Scenario
from engine.rulesets.scrollhammer._data import load_asset
from engine.rulesets.scrollhammer.battlefield import scenario_halves
from engine.rulesets.scrollhammer.probability import ChartSeries, ProbabilityChart, two_d6

RULE = "The Relic"
CARRY_LIMIT = 6.0
"""Inches: the bearer "can never move more than 6\" in the movement phase"."""
DROP_DISTANCE = 1.0
"""Inches: a dropped Relic is placed "1\" away from the model"."""
DEFAULT_RELIC_DIAMETER = 25.0
DEFAULT_BASE_CONTACT = 1.0 / MM_PER_INCH


@dataclass(frozen=True)
class RelicResult:
    """One line of the 2D6 Relic table."""

    roll: int
    name: str
    text: str
    effects: tuple[str, ...]

    @property
    def removed(self) -> bool:
        return "removed-from-play" in self.effects

    @property
    def no_march_or_charge_while_held(self) -> bool:
        return "no-march-or-charge-while-held" in self.effects

    @property
    def can_drop_voluntarily(self) -> bool:
        return "cannot-drop-voluntarily" not in self.effects


@cache
def relic_table() -> tuple[RelicResult, ...]:
    """The 2D6 table, 2 to 12."""
    return tuple(
        RelicResult(int(r["roll"]), str(r["name"]), str(r["text"]), tuple(r["effects"]))
        for r in load_asset("relic-table.json")["results"]
    )


def relic_result(roll: int) -> RelicResult:
    """The table line for a 2D6 total."""
    for result in relic_table():
        if result.roll == roll:
            return result
    raise RulesError(f"the Relic table is rolled on 2D6 (2-12), got {roll}")


def relic_probability(roll: int) -> Fraction:
    """The exact chance of each Relic table line."""
    relic_result(roll)
    return two_d6()[roll]


def relic_chart() -> ProbabilityChart:
    """The chance of each Relic table result (2D6), for the Relic panel."""
    table = relic_table()
    return ProbabilityChart(
        title="Identifying the Relic (2D6)",
        x_label="2D6",
        categories=tuple(f"{r.roll} {r.name}" for r in table),
        series=(ChartSeries("chance", tuple(relic_probability(r.roll) for r in table), "bar"),),
        notes=(str(load_asset("relic-table.json")["text"]),),
    )


def roll_relic(rng: random.Random) -> RelicResult:
    """Identify the Relic with a seeded 2D6."""
    return relic_result(rng.randint(1, 6) + rng.randint(1, 6))


@dataclass(frozen=True)
class CarryCheck:
    """A move of the Relic's bearer: whether the Relic is dropped, and why."""

    dropped: bool
    reason: str
    distance: float


@dataclass(frozen=True)
class RelicCheck:
    """Whether an action with the Relic is allowed, and why."""

    allowed: bool
    reason: str
    distance: float | None = None


def relic_marker(scenario: Scenario) -> Marker | None:
    """The Relic marker on the table (``kind`` ``"relic"``), if any."""
    return next((m for m in scenario.markers if m.kind == "relic"), None)


def relic_state(scenario: Scenario) -> Mapping[str, Any]:
    state = (scenario.game or {}).get("scrollhammer") or {}
    relic: Mapping[str, Any] = state.get("relic") or {}
    return relic


def _radius(scenario: Scenario) -> float:
    return float(scenario.option("relic_diameter", DEFAULT_RELIC_DIAMETER)) / MM_PER_INCH / 2


def _contact(scenario: Scenario) -> float:
    return float(scenario.option("base_contact", DEFAULT_BASE_CONTACT))


def can_seize(scenario: Scenario, model_id: str) -> RelicCheck:
    """ "A model in a scoring unit or an Independent Character can seize the Relic by moving
    into base contact during the Movement phase"."""
    marker = relic_marker(scenario)
    state = relic_state(scenario)
    if marker is None or state.get("removed"):
        return RelicCheck(False, "the Relic is not on the table")
    if state.get("carrier"):
        return RelicCheck(False, f"the Relic is carried by {state['carrier']}")
    unit = scenario.unit_of_model(model_id)
    model = scenario.model(model_id)
    if not (unit.is_scoring() or unit.has_keyword("INDEPENDENT CHARACTER")):
        return RelicCheck(
            False,
            f"{model_id} ({unit.id}) is neither in a scoring unit nor an Independent Character",
        )
    gap = model_circle_distance(model, marker.x, marker.y, _radius(scenario))
    contact = _contact(scenario)
    if gap > contact + TOLERANCE:
        return RelicCheck(
            False, f"{model_id} is {inches(gap)} from the Relic: not in base contact", gap
        )
    return RelicCheck(
        True,
        f"{model_id} is in base contact with the Relic and picks it up at the end of the "
        "Movement phase",
        gap,
    )


def carry_check(
    distance_moved: float,
    *,
    marched: bool = False,
    charged: bool = False,
    seized_this_turn: bool = False,
    result: RelicResult | None = None,
    transport: bool = False,
) -> CarryCheck:
    """A Movement-phase move of the bearer (or its transport): is the Relic dropped?

    "the model carrying the Relic cannot march or charge the turn it is seized, and can never
    move more than 6\" in the movement phase. If it is forced to do so, the Relic is
    immediately dropped."
    """
    problems = []
    if distance_moved > CARRY_LIMIT + TOLERANCE:
        who = "the transport" if transport else "the bearer"
        problems.append(f"{who} moved {inches(distance_moved)} (more than {inches(CARRY_LIMIT)})")
    if seized_this_turn and (marched or charged):
        problems.append("the bearer cannot march or charge the turn the Relic is seized")
    if result is not None and result.no_march_or_charge_while_held and (marched or charged):
        problems.append(f"{result.name}: its bearer and his unit cannot march or charge")
    if problems:
        return CarryCheck(True, "The Relic is dropped: " + "; ".join(problems), distance_moved)
    return CarryCheck(False, "The Relic stays with its bearer.", distance_moved)


def can_pass(scenario: Scenario, from_model: str, to_model: str) -> RelicCheck:
    """Passing the Relic at the end of the Movement phase: "to any friendly model that is part of
    a scoring unit if the two models end their Movement phase in base contact", once per
    Movement phase."""
    state = relic_state(scenario)
    if state.get("carrier") != from_model:
        return RelicCheck(False, f"{from_model} does not carry the Relic")
    if state.get("passed_this_phase"):
        return RelicCheck(
            False, "the Relic can only be passed to a friendly model once per Movement phase"
        )
    giver, taker = scenario.unit_of_model(from_model), scenario.unit_of_model(to_model)
    if giver.player != taker.player:
        return RelicCheck(False, f"{to_model} is not a friendly model")
    if not taker.is_scoring():
        return RelicCheck(False, f"{to_model} ({taker.id}) is not part of a scoring unit")
    gap = model_distance(scenario.model(from_model), scenario.model(to_model))
    if gap > _contact(scenario) + TOLERANCE:
        return RelicCheck(
            False, f"{from_model} and {to_model} are {inches(gap)} apart: not in base contact", gap
        )
    return RelicCheck(True, f"{from_model} can pass the Relic to {to_model}", gap)


def can_drop(scenario: Scenario, result: RelicResult | None = None) -> RelicCheck:
    """A voluntary drop: not allowed for a Relic that "cannot be voluntarily dropped"."""
    if result is None:
        roll = relic_state(scenario).get("result")
        result = relic_result(int(roll)) if roll is not None else None
    if result is not None and not result.can_drop_voluntarily:
        return RelicCheck(False, f"{result.name}: This Relic cannot be voluntarily dropped.")
    return RelicCheck(True, "The controlling player can choose to drop the Relic at any time.")


def drop_position(scenario: Scenario, model_id: str, direction_degrees: float) -> Point:
    """Where a dropped Relic goes: its centre 1\" from the model's base in the chosen direction,
    moved to the closest point outside impassable terrain (and on the table) if need be."""
    model = scenario.model(model_id)
    ux, uy = math.cos(math.radians(direction_degrees)), math.sin(math.radians(direction_degrees))
    sx, sy = shape_of(model).support(ux, uy)
    reach = (sx - model.x) * ux + (sy - model.y) * uy
    x, y = model.x + ux * (reach + DROP_DISTANCE), model.y + uy * (reach + DROP_DISTANCE)
    return _outside_impassable(scenario, (x, y))


def _outside_impassable(scenario: Scenario, point: Point) -> Point:
    blocked = [terrain_area(t).geometry for t in scenario.terrain if t.impassable]
    table = shapely.box(0.0, 0.0, scenario.battlefield.width, scenario.battlefield.depth)
    free = table.difference(shapely.union_all(blocked)) if blocked else table
    target = shapely.Point(point)
    if free.covers(target):
        return point
    nearest = nearest_points(free, target)[0]
    return float(nearest.x), float(nearest.y)


def capture_check(scenario: Scenario, carrier_id: str) -> RelicCheck:
    """Has the bearer reached its controlling player's board edge (and can move off with it)?

    "A unit that holds the Relic can move off its controlling player's board edge with it, as if
    falling back". Warplan reports the distance from the bearer's base to that edge: 0 means
    the base touches it.
    """
    unit = scenario.unit_of_model(carrier_id)
    edge = scenario_halves(scenario).of(unit.player).edge
    gap = model_edge_distance(scenario.model(carrier_id), edge)
    if gap <= TOLERANCE:
        return RelicCheck(
            True,
            f"{carrier_id} is at {unit.player}'s board edge ({edge.name}): moving off it "
            "captures the Relic",
            gap,
        )
    return RelicCheck(
        False, f"{carrier_id} is {inches(gap)} from {unit.player}'s board edge ({edge.name})", gap
    )


def bearer(scenario: Scenario) -> Model | None:
    """The model carrying the Relic, if any."""
    carrier = relic_state(scenario).get("carrier")
    return scenario.model(str(carrier)) if carrier else None


@dataclass(frozen=True)
class InterruptedCapture:
    """The Relic dropped before the capturing move was complete."""

    unit_id: str
    relic_position: Point
    reason: str


def interrupted_capture(scenario: Scenario, carrier_id: str) -> InterruptedCapture:
    """ "If for whatever reason the Relic is dropped ... before the move is complete, the unit is
    placed into Ongoing Reserves, and the Relic is placed touching the board edge": the Relic
    goes against the controlling player's board edge, level with the bearer."""
    unit = scenario.unit_of_model(carrier_id)
    edge = scenario_halves(scenario).of(unit.player).edge
    model = scenario.model(carrier_id)
    radius = _radius(scenario)
    (x0, y0), (x1, y1) = edge.start, edge.end
    length = math.hypot(x1 - x0, y1 - y0)
    along = ((model.x - x0) * (x1 - x0) + (model.y - y0) * (y1 - y0)) / length
    along = min(max(along, radius), length - radius)
    x = x0 + (x1 - x0) * along / length + edge.inward[0] * radius
    y = y0 + (y1 - y0) * along / length + edge.inward[1] * radius
    return InterruptedCapture(
        unit.id,
        (x, y),
        f"the Relic was dropped before {unit.id}'s move off the {edge.name} edge was complete: "
        f"{unit.id} is placed into Ongoing Reserves and the Relic touches the board edge",
    )
