"""Where a unit arriving from reserves can be set up.

A unit of the arriving player may be set up where each of its models is: wholly on the
battlefield, **more than** the set-up distance (default 9", the rule system's value,
``options.reserves_distance`` overriding it) horizontally from every enemy model, measured base
edge to base edge, not within terrain the rule system reads as closed to set-up, and inside
the rule system's own edge restrictions (:class:`EdgeRestriction`). Each rule system says which
of these apply through :meth:`engine.rulesets.base.Ruleset.arrival_rules`.

Two results:

- :func:`arrival_region`: the area for drawing. A base can be set up where it lies wholly
  inside ``allowed``. The denied bubbles are the enemy bases grown by the distance
  (:func:`engine.rings.grown_base`, vertices on the exact curve of circles and ellipses, chords
  at most :data:`DRAWING_TOLERANCE` inside it), so the drawing errs by at most that much.
- :func:`can_arrive` / :func:`arrival_check`: the exact verdict. Every distance is
  :func:`engine.geometry.model_distance` (closed form for circles, exact for ellipses and
  rectangles); a model exactly at the distance is refused ("more than").

>>> from engine.model import CircleBase, Model, Player, Scenario, Unit
>>> enemy = Unit("blue-u", "blue", (Model("blue-1", 30.0, 22.0, CircleBase(25.4)),))
>>> s = Scenario("wh40k-ca2026", (Player("red"), Player("blue")), units=(enemy,))
>>> at_nine = Model("red-1", 30.0 + 0.5 + 9.0 + 0.5, 22.0, CircleBase(25.4))
>>> can_arrive(s, "red", (at_nine,)).allowed
False
>>> can_arrive(s, "red", (at_nine.moved(1e-4, 0.0),)).allowed
True
>>> region = arrival_region(s, "red")
>>> import math
>>> round(region.denied_by_enemies.area / (math.pi * 9.5**2), 3)
1.0
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal

import numpy as np
import shapely
from shapely.errors import ShapelyError
from shapely.geometry import Polygon as ShapelyPolygon
from shapely.geometry.base import BaseGeometry

from engine.battlefield_edges import (
    EDGE_NAMES,
    BoardEdge,
    board_edge,
    model_edge_distance,
    model_edge_far_distance,
)
from engine.errors import GeometryError, RulesError, UnknownReferenceError
from engine.explain import Explanation, Fact, Measurement, RuleRef, Violation, inches
from engine.geometry import TOLERANCE, model_distance, model_within_terrain, within
from engine.limits import MAX_DISTANCE
from engine.model import Base, Model, Scenario, TerrainPiece, Unit
from engine.rings import CHORD_ERROR, grown_outline
from engine.rulesets import ruleset_for

DRAWING_TOLERANCE = CHORD_ERROR
"""Inches: the most the drawn denied area falls inside the exact one (chords of the curve)."""
DEFAULT_RESERVES_DISTANCE = 9.0
"""The set-up distance from enemy models every rule system uses unless its text says other."""
OPTION = "reserves_distance"
"""The ``options`` key overriding the rule system's set-up distance."""

EdgeKind = Literal["move", "lead"]
BreachKind = Literal["enemy", "table", "terrain", "edge"]


@dataclass(frozen=True)
class EdgeRestriction:
    """A rule system's table-edge rule for arriving units, named as its text names it.

    - ``"move"``: the unit moves on from ``edge``, each model measured from the edge: every
      model lies wholly within the unit's Move characteristic of the edge (Scrollhammer).
    - ``"lead"``: one model is placed onto ``edge`` (its base on the table, touching it) and
      every other model within ``follow`` inches of that one (Scout and Secure).
    """

    rule: str
    kind: EdgeKind
    edge: BoardEdge
    follow: float = 0.0

    def text(self) -> str:
        if self.kind == "move":
            return (
                f"{self.rule}: every model within the unit's Move of the {self.edge.name} "
                "table edge (moved on from it)"
            )
        return (
            f"{self.rule}: one model onto the {self.edge.name} table edge, the others within "
            f"{inches(self.follow)} of it"
        )


@dataclass(frozen=True)
class ArrivalRules:
    """What a rule system asks of a unit arriving from reserves.

    ``rule``: the section cited; ``distance``: the set-up distance from enemy models (before
    ``options.reserves_distance``); ``closed_terrain``: the ids of the terrain pieces no model
    may be set up within, and ``closed_reading`` the reading that chose them;
    ``edges``: the table-edge restrictions.
    """

    ruleset: str
    rule: str
    distance: float
    closed_terrain: tuple[str, ...]
    closed_reading: str
    edges: tuple[EdgeRestriction, ...] = ()


def closed_by_flag(scenario: Scenario) -> tuple[str, ...]:
    """The terrain pieces a file marks ``impassable``: the default reading of closed terrain.

    >>> from engine.model import Player, Scenario, TerrainPiece
    >>> square = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))
    >>> s = Scenario("wh40k-ca2026", (Player("red"), Player("blue")),
    ...              terrain=(TerrainPiece("rock", square, impassable=True),
    ...                       TerrainPiece("ruin", square)))
    >>> closed_by_flag(s)
    ('rock',)
    """
    return tuple(piece.id for piece in scenario.terrain if piece.impassable)


def reserves_distance(scenario: Scenario, rules: ArrivalRules) -> float:
    """The set-up distance in force: ``options.reserves_distance``, else the rule system's."""
    value = scenario.option(OPTION, rules.distance)
    if isinstance(value, bool) or not isinstance(value, int | float) or not value >= 0:
        raise RulesError(f"options.{OPTION} must be a non-negative number, got {value!r}")
    return float(value)


def _distance(scenario: Scenario, rules: ArrivalRules, distance: float | None) -> float:
    if distance is None:
        return reserves_distance(scenario, rules)
    if isinstance(distance, bool) or not 0.0 <= distance <= MAX_DISTANCE:  # refuses NaN too
        raise RulesError(f'a set-up distance is 0 to {MAX_DISTANCE:g}", got {distance!r}')
    return float(distance)


def _arrival_rules(scenario: Scenario, player: str) -> ArrivalRules:
    if player not in scenario.player_ids():
        raise UnknownReferenceError(
            f"no player {player!r}; players: {', '.join(scenario.player_ids())}"
        )
    return ruleset_for(scenario).arrival_rules(scenario, player)


def _enemy_models(scenario: Scenario, player: str) -> list[Model]:
    return [m for u in scenario.units if u.player != player for m in u.models]


def _common_restrictions(rules: ArrivalRules, reach: float) -> tuple[str, ...]:
    return (
        f"more than {inches(reach)} horizontally from every enemy model",
        "wholly on the battlefield",
        f"not within {rules.closed_reading}",
    )


def _closed_pieces(scenario: Scenario, rules: ArrivalRules) -> list[TerrainPiece]:
    closed = set(rules.closed_terrain)
    return [piece for piece in scenario.terrain if piece.id in closed]


# ---------------------------------------------------------------------------------------------
# The region, for drawing


@dataclass(frozen=True)
class ArrivalRegion:
    """Where ``player``'s arriving models can stand: a base wholly inside ``allowed`` can be
    set up there. ``denied_by_enemies``: within ``distance`` of an enemy base (drawn to
    :data:`DRAWING_TOLERANCE`); ``closed_terrain``: the terrain areas closed to set-up;
    ``outside_edges``: the table outside the edge restrictions' bands (empty without any);
    ``restrictions``: every restriction applied, named; ``notes``: what was not drawn and why.
    """

    player: str
    ruleset: str
    rule: str
    distance: float
    allowed: BaseGeometry
    denied_by_enemies: BaseGeometry
    closed_terrain: BaseGeometry
    outside_edges: BaseGeometry
    restrictions: tuple[str, ...]
    notes: tuple[str, ...] = ()

    @property
    def denied(self) -> BaseGeometry:
        """The table where no base can be set up (everything but ``allowed``)."""
        return shapely.union_all([self.denied_by_enemies, self.closed_terrain, self.outside_edges])

    def to_json(self) -> dict[str, Any]:
        """The region's figures: distance, restrictions, areas in square inches."""
        return {
            "player": self.player,
            "rule": self.rule,
            "distance": self.distance,
            "restrictions": list(self.restrictions),
            "notes": list(self.notes),
            "allowed_area": round(float(self.allowed.area), 4),
            "drawing_tolerance": DRAWING_TOLERANCE,
        }


def _table(scenario: Scenario) -> ShapelyPolygon:
    bf = scenario.battlefield
    return shapely.box(0.0, 0.0, float(bf.width), float(bf.depth))


def _band(scenario: Scenario, edge: BoardEdge, depth: float) -> BaseGeometry:
    """The table within ``depth`` inches of ``edge``."""
    bf = scenario.battlefield
    w, d = float(bf.width), float(bf.depth)
    depth = max(0.0, depth)
    boxes = {
        "south": (0.0, 0.0, w, depth),
        "north": (0.0, d - depth, w, d),
        "west": (0.0, 0.0, depth, d),
        "east": (w - depth, 0.0, w, d),
    }
    return shapely.box(*boxes[edge.name]).intersection(_table(scenario))


def _sizing_units(scenario: Scenario, player: str, unit: Unit | None) -> list[Unit]:
    """The units an edge band is sized for: the arriving unit, else the player's reserves
    tray, else the player's units on the battlefield."""
    if unit is not None:
        return [unit]
    tray = [u for u in scenario.reserves if u.player == player]
    return tray or list(scenario.units_of(player))


def _band_depth(
    scenario: Scenario, player: str, restriction: EdgeRestriction, unit: Unit | None
) -> tuple[float | None, str]:
    """How deep the band of an edge restriction is drawn, and what sized it."""
    units = _sizing_units(scenario, player, unit)
    if restriction.kind == "move":
        moves = [float(u.move) for u in units if u.move is not None]
        if not moves:
            return None, (
                f"{restriction.rule}: not drawn: no arriving unit with a Move characteristic"
            )
        return max(moves), f"{restriction.rule}: drawn for a Move of {inches(max(moves))}"
    widest = max((2.0 * m.base.bounding_radius for u in units for m in u.models), default=0.0)
    # The lead model's base touches the edge; a follower within `follow` of it reaches at most
    # one more base and the follow distance further in.
    return restriction.follow + 2.0 * widest, (
        f"{restriction.rule}: drawn for bases up to {inches(widest)} across"
    )


@lru_cache(maxsize=4096)
def _bubble(base: Base, x: float, y: float, rotation: float, reach: float) -> BaseGeometry:
    """An enemy base grown by ``reach``, kept per placed base: while one unit is dragged the
    others' bubbles are reused."""
    outline = grown_outline(Model("", x, y, base, rotation=rotation), reach)
    # One array into shapely's vectorised constructor: building a polygon from Python tuples
    # point by point costs more than the union.
    return shapely.polygons(np.asarray(outline))


def arrival_region(
    scenario: Scenario, player: str, *, distance: float | None = None, unit: Unit | None = None
) -> ArrivalRegion:
    """Where ``player``'s reserves can be set up (``distance`` overrides the set-up distance;
    ``unit``, the arriving unit, sizes the edge bands of rules that depend on it).

    >>> from engine.model import CircleBase, Model, Player, Scenario, Unit
    >>> enemy = Unit("blue-u", "blue", (Model("blue-1", 30.0, 22.0, CircleBase(25.4)),))
    >>> s = Scenario("wh40k-ca2026", (Player("red"), Player("blue")), units=(enemy,))
    >>> region = arrival_region(s, "red", distance=3)
    >>> import math
    >>> round(region.allowed.area, 1) == round(60 * 44 - math.pi * 3.5**2, 1)
    True
    """
    rules = _arrival_rules(scenario, player)
    reach = _distance(scenario, rules, distance)
    table = _table(scenario)
    try:
        bubbles = [
            _bubble(m.base, m.x, m.y, m.rotation, reach) for m in _enemy_models(scenario, player)
        ]
        denied_by_enemies = (
            shapely.union_all(bubbles).intersection(table) if bubbles else ShapelyPolygon()
        )
        # A drawn footprint may cross itself; made valid, it still covers what it encloses.
        closed_polygons = [
            shapely.make_valid(ShapelyPolygon(p))
            for piece in _closed_pieces(scenario, rules)
            for p in piece.footprints
        ]
        closed = (
            shapely.union_all(closed_polygons).intersection(table)
            if closed_polygons
            else ShapelyPolygon()
        )
        notes: list[str] = []
        inside = table
        for restriction in rules.edges:
            depth, note = _band_depth(scenario, player, restriction, unit)
            notes.append(note)
            if depth is not None:
                inside = inside.intersection(_band(scenario, restriction.edge, depth))
        outside_edges = table.difference(inside)
        allowed = inside.difference(denied_by_enemies).difference(closed)
    except (ShapelyError, ValueError) as error:
        raise GeometryError(f"{player}'s arrival area cannot be traced: {error}") from None
    restrictions = (*_common_restrictions(rules, reach), *(r.text() for r in rules.edges))
    return ArrivalRegion(
        player,
        rules.ruleset,
        rules.rule,
        reach,
        allowed,
        denied_by_enemies,
        closed,
        outside_edges,
        restrictions,
        tuple(notes),
    )


# ---------------------------------------------------------------------------------------------
# The exact verdict


@dataclass(frozen=True)
class ArrivalBreach:
    """One model breaking one restriction: the kind, what it is measured against (an enemy
    model, a terrain piece, an edge), the measured distance and the limit."""

    model_id: str
    kind: BreachKind
    against: str
    message: str
    distance: float | None = None
    limit: float | None = None


@dataclass(frozen=True)
class ArrivalVerdict:
    """Whether the models can be set up as ``player``'s arriving unit, each breach, the
    restrictions that could not be judged (``unjudged``) and the explanation."""

    player: str
    rule: str
    distance: float
    allowed: bool
    breaches: tuple[ArrivalBreach, ...]
    explanation: Explanation
    unjudged: tuple[str, ...] = ()

    def violations(self, unit_id: str) -> tuple[Violation, ...]:
        """The breaches as violations of the rule (for a report or the board)."""
        return tuple(
            Violation(
                self.rule,
                b.message,
                tuple(i for i in (unit_id, b.model_id, b.against) if i),
                distance=b.distance,
                limit=b.limit,
            )
            for b in self.breaches
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "rule": self.rule,
            "distance": self.distance,
            "allowed": self.allowed,
            "breaches": [
                {
                    "model": b.model_id,
                    "kind": b.kind,
                    "against": b.against,
                    "distance": b.distance,
                    "limit": b.limit,
                    "message": b.message,
                }
                for b in self.breaches
            ],
            "unjudged": list(self.unjudged),
        }


def _enemy_breaches(
    models: Sequence[Model], enemies: list[Model], reach: float, rule: RuleRef
) -> tuple[list[ArrivalBreach], list[Fact]]:
    breaches: list[ArrivalBreach] = []
    facts: list[Fact] = []
    for model in models:
        closest: tuple[float, Model] | None = None
        for enemy in enemies:
            gap = model_distance(model, enemy)
            if closest is None or gap < closest[0]:
                closest = (gap, enemy)
            if within(gap, reach):
                breaches.append(
                    ArrivalBreach(
                        model.id,
                        "enemy",
                        enemy.id,
                        f"{model.id} is {inches(gap)} from enemy model {enemy.id}: it must be "
                        f"set up more than {inches(reach)} horizontally from every enemy model",
                        gap,
                        reach,
                    )
                )
        if closest is not None:
            gap, enemy = closest
            too_close = within(gap, reach)
            facts.append(
                Fact(
                    f"{model.id} is {inches(gap)} from the closest enemy model, {enemy.id}",
                    rule,
                    {"distance": gap, "limit": reach},
                    (model.id, enemy.id),
                    measured=Measurement(
                        model.id,
                        gap,
                        f"from {enemy.id}",
                        reach,
                        too_close,
                        inside="too close",
                        outside="far enough",
                    ),
                )
            )
    return breaches, facts


def _table_breaches(scenario: Scenario, models: Sequence[Model]) -> list[ArrivalBreach]:
    found: list[ArrivalBreach] = []
    for model in models:
        for name in EDGE_NAMES:
            over = model_edge_distance(model, board_edge(scenario.battlefield, name))
            if over < -TOLERANCE:
                found.append(
                    ArrivalBreach(
                        model.id,
                        "table",
                        name,
                        f"{model.id} is {inches(-over)} over the {name} battlefield edge: it "
                        "must be set up wholly on the battlefield",
                        over,
                        0.0,
                    )
                )
    return found


def _terrain_breaches(
    models: Sequence[Model], pieces: list[TerrainPiece], reading: str
) -> list[ArrivalBreach]:
    return [
        ArrivalBreach(
            model.id,
            "terrain",
            piece.id,
            f"{model.id} is within {piece.id}: no model can be set up within {reading}",
        )
        for model in models
        for piece in pieces
        if model_within_terrain(model, piece)
    ]


def _move_breaches(
    models: Sequence[Model], restriction: EdgeRestriction, move: float
) -> list[ArrivalBreach]:
    found: list[ArrivalBreach] = []
    for model in models:
        far = model_edge_far_distance(model, restriction.edge)
        if not within(far, move):
            found.append(
                ArrivalBreach(
                    model.id,
                    "edge",
                    restriction.edge.name,
                    f"{model.id} reaches {inches(far)} from the {restriction.edge.name} table "
                    f"edge, more than its Move of {inches(move)}: {restriction.rule} units move "
                    "onto the table from their own table edge",
                    far,
                    move,
                )
            )
    return found


def _lead_breaches(models: Sequence[Model], restriction: EdgeRestriction) -> list[ArrivalBreach]:
    edge = restriction.edge
    leads = [m for m in models if abs(model_edge_distance(m, edge)) <= TOLERANCE]
    if not leads:
        nearest = min(models, key=lambda m: model_edge_distance(m, edge))
        gap = model_edge_distance(nearest, edge)
        return [
            ArrivalBreach(
                nearest.id,
                "edge",
                edge.name,
                f"no model touches the {edge.name} table edge ({nearest.id}, the closest, is "
                f"{inches(gap)} from it): {restriction.rule} places one model onto the "
                "controlling player's table edge",
                gap,
                0.0,
            )
        ]

    def strays(lead: Model) -> list[ArrivalBreach]:
        return [
            ArrivalBreach(
                m.id,
                "edge",
                lead.id,
                f"{m.id} is {inches(gap)} from {lead.id}, the model on the table edge: "
                f"{restriction.rule} places the others within {inches(restriction.follow)} of it",
                gap,
                restriction.follow,
            )
            for m in models
            if m.id != lead.id and not within(gap := model_distance(m, lead), restriction.follow)
        ]

    return min((strays(lead) for lead in leads), key=len)


def can_arrive(
    scenario: Scenario,
    player: str,
    arriving: Unit | Sequence[Model],
    *,
    distance: float | None = None,
) -> ArrivalVerdict:
    """Whether models at these positions can be set up as ``player``'s unit arriving from
    reserves (``arriving``: the unit, or its models' positions; a rule that needs the unit's
    Move is unjudged without it). Measured exactly; exactly at the distance is refused.

    >>> from engine.model import CircleBase, Model, Player, Scenario, Unit
    >>> enemy = Unit("blue-u", "blue", (Model("blue-1", 30.0, 22.0, CircleBase(25.4)),))
    >>> s = Scenario("wh40k-ca2026", (Player("red"), Player("blue")), units=(enemy,))
    >>> verdict = can_arrive(s, "red", (Model("red-1", 35.0, 22.0, CircleBase(25.4)),))
    >>> print(verdict.explanation.text())
    red cannot arrive here: 1 breach of Strategic Reserves
      - red-1 is 4" from the closest enemy model, blue-1 [wh40k-ca2026: Strategic Reserves]
    """
    rules = _arrival_rules(scenario, player)
    reach = _distance(scenario, rules, distance)
    unit = arriving if isinstance(arriving, Unit) else None
    models = tuple(arriving.models if isinstance(arriving, Unit) else arriving)
    if not models:
        raise RulesError("an arriving unit has at least one model")
    rule = RuleRef(rules.ruleset, rules.rule)
    own_ids = {m.id for m in models}
    enemies = [m for m in _enemy_models(scenario, player) if m.id not in own_ids]
    breaches, facts = _enemy_breaches(models, enemies, reach, rule)
    breaches += _table_breaches(scenario, models)
    breaches += _terrain_breaches(models, _closed_pieces(scenario, rules), rules.closed_reading)
    unjudged: list[str] = []
    for restriction in rules.edges:
        if restriction.kind == "lead":
            breaches += _lead_breaches(models, restriction)
        elif unit is not None and unit.move is not None:
            breaches += _move_breaches(models, restriction, float(unit.move))
        else:
            unjudged.append(f"{restriction.text()}: unjudged, no Move characteristic")
    for breach in breaches:
        if breach.kind != "enemy":
            facts.append(Fact(breach.message, rule, {}, (breach.model_id,)))
    facts.extend(Fact(text, rule) for text in unjudged)
    allowed = not breaches
    judged = [
        *_common_restrictions(rules, reach),
        *(r.text() for r in rules.edges if r.kind == "lead" or (unit and unit.move is not None)),
    ]
    conclusion = (
        f"{player} can arrive here: {'; '.join(judged)}"
        if allowed
        else f"{player} cannot arrive here: {len(breaches)} breach"
        f"{'' if len(breaches) == 1 else 'es'} of {rules.rule}"
    )
    return ArrivalVerdict(
        player,
        rules.rule,
        reach,
        allowed,
        tuple(breaches),
        Explanation(conclusion, tuple(facts)),
        tuple(unjudged),
    )


def arrival_check(
    scenario: Scenario, unit_id: str, *, distance: float | None = None
) -> ArrivalVerdict:
    """The verdict for a unit on the battlefield just set up from reserves: each model that
    breaks a restriction, with the measured distance.

    >>> from engine.model import CircleBase, Model, Player, Scenario, Unit
    >>> blue = Unit("blue-u", "blue", (Model("blue-1", 30.0, 22.0, CircleBase(25.4)),))
    >>> red = Unit("red-u", "red", (Model("red-1", 30.0, 31.0, CircleBase(25.4)),))
    >>> s = Scenario("wh40k-ca2026", (Player("red"), Player("blue")), units=(blue, red))
    >>> [(b.model_id, b.against, b.distance) for b in arrival_check(s, "red-u").breaches]
    [('red-1', 'blue-1', 8.0)]
    """
    try:
        unit = scenario.unit(unit_id)
    except KeyError:
        raise UnknownReferenceError(f"no unit {unit_id!r} on the battlefield") from None
    return can_arrive(scenario, unit.player, unit, distance=distance)
