"""Deployment maps (the Chapter Approved deployment cards) and custom deployments.

A map is one JSON file in ``assets/deployments/`` (``<id>.json``), drawn on a 60" x 44"
battlefield with ``y`` growing north. It has two sides, ``A`` and ``B``: each a deployment zone,
a battlefield edge and a home objective point. A dividing line splits the battlefield into the
two territories. Values the sources disagree on are *disputes*, each with a default choice and
the reason for it; ``options.deployment_variant`` of a scenario picks others.

Binding sides to players (:func:`resolve_deployment`): side A is the Attacker's and goes to the
player whose ``role`` is ``"attacker"``; with no roles, to the first player. Sources disagree on
which zone of a card is the Attacker's; the files follow 40kdc (see their ``note``), which puts
the Attacker on the south edge of Dawn of War, as in the format spec's example.

Other battlefield sizes: a map is scaled to the scenario's battlefield, ``x`` by ``width / 60``
and ``y`` by ``depth / 44``. The Search and Destroy disc stays a circle, its radius scaled by
the smaller of the two factors. The D6 = 6 central points stay 6" either side of the centre
along the scaled dividing line.

>>> hammer = load_deployment_map("hammer-and-anvil")
>>> hammer.name, hammer.zone_polygon("A")
('HAMMER AND ANVIL', ((42, 0), (60, 0), (60, 44), (42, 44)))
>>> load_deployment_map("dawn-of-war", "10in").zone_polygon("A")
((0, 0), (60, 0), (60, 10), (0, 10))
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache, cached_property, lru_cache
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, cast

import shapely
from shapely.geometry import LineString, box
from shapely.geometry.polygon import orient
from shapely.ops import split

from engine.assets import ASSET_ROOT
from engine.errors import GeometryError, UnknownReferenceError
from engine.model import (
    Battlefield,
    CustomDeployment,
    DeploymentRegion,
    JSONValue,
    Objective,
    ObjectiveRole,
    Point,
    Polygon,
    freeze,
)

if TYPE_CHECKING:
    from shapely.geometry.base import BaseGeometry

    from engine.model import Scenario

DEPLOYMENTS_DIR = ASSET_ROOT / "deployments"
SIDES = ("A", "B")
CENTRAL_POINT_OFFSET = 6.0
"""On a D6 roll of 6 the two central points are this far either side of the centre."""

ARC_TOLERANCE = 1e-6
"""Largest gap (inches) between a drawn arc and the true circle (the engine's tolerance)."""

VariantChoice = str | Mapping[str, str] | None


# ---------------------------------------------------------------------------------------------
# Values


@dataclass(frozen=True)
class ZoneShape:
    """A deployment zone: a polygon, less a disc when ``minus_circle`` is set.

    ``minus_circle`` is ``((x, y), radius)``; keep it to test the circle exactly.
    """

    polygon: Polygon
    minus_circle: tuple[Point, float] | None = None

    def geometry(self) -> BaseGeometry:
        """The zone as a shapely polygon (an arc within :data:`ARC_TOLERANCE` of the circle)."""
        return self._geometry

    @cached_property
    def _geometry(self) -> BaseGeometry:
        shape: BaseGeometry = shapely.Polygon(self.polygon)
        if self.minus_circle is not None:
            shape = shape.difference(_disc(*self.minus_circle))
        return shape

    def scaled(self, sx: float, sy: float) -> ZoneShape:
        circle = None
        if self.minus_circle is not None:
            (cx, cy), radius = self.minus_circle
            circle = ((cx * sx, cy * sy), radius * min(sx, sy))
        return ZoneShape(_scale_points(self.polygon, sx, sy), circle)


@dataclass(frozen=True)
class ObjectivePoint:
    """An objective point printed on a card: its role and, for a home objective, its side."""

    role: ObjectiveRole
    x: float
    y: float
    side: str | None = None


@dataclass(frozen=True)
class Dispute:
    """A value the sources disagree on: the choices, the default, and why it is the default."""

    key: str
    label: str
    default: str
    why: str
    choices: Mapping[str, str]
    """Choice id -> label."""


@dataclass(frozen=True)
class DeploymentMap:
    """One deployment card with one choice made for each dispute."""

    id: str
    name: str
    title: str
    width: float
    depth: float
    zones: Mapping[str, ZoneShape]
    edges: Mapping[str, tuple[Point, Point]]
    territory_line: tuple[Point, ...]
    objective_points: tuple[ObjectivePoint, ...]
    disputes: Mapping[str, Dispute]
    chosen: Mapping[str, str]
    status: Mapping[str, str]
    """Part (``zones``, ``edges``, ``territory_line``, ``objectives``) -> how sure it is."""
    notes: tuple[str, ...] = ()

    def zone_polygon(self, side: str) -> Polygon:
        return self.zones[side].polygon

    @cached_property
    def _territories(self) -> Mapping[str, Polygon]:
        return _territories(self)

    def territory_polygon(self, side: str) -> Polygon:
        """The half of the battlefield on ``side``'s side of the dividing line."""
        return self._territories[side]

    def central_points_on_six(self) -> tuple[Point, Point]:
        """The two central points used on a D6 roll of 6: 6" either side along the line.

        >>> load_deployment_map("dawn-of-war").central_points_on_six()
        ((24.0, 22.0), (36.0, 22.0))
        """
        line = LineString(self.territory_line)
        centre = shapely.Point(self.width / 2.0, self.depth / 2.0)
        along = line.project(centre)
        ends = sorted(
            (
                line.interpolate(along - CENTRAL_POINT_OFFSET),
                line.interpolate(along + CENTRAL_POINT_OFFSET),
            ),
            key=lambda p: (p.x, p.y),
        )
        first, second = ((float(p.x), float(p.y)) for p in ends)
        return first, second

    def scaled_to(self, battlefield: Battlefield) -> DeploymentMap:
        """This map stretched onto ``battlefield`` (itself when the size is the same)."""
        sx = battlefield.width / self.width
        sy = battlefield.depth / self.depth
        if sx == 1.0 and sy == 1.0:
            return self
        return DeploymentMap(
            id=self.id,
            name=self.name,
            title=self.title,
            width=battlefield.width,
            depth=battlefield.depth,
            zones=MappingProxyType({s: z.scaled(sx, sy) for s, z in self.zones.items()}),
            edges=MappingProxyType(
                {
                    s: cast(tuple[Point, Point], _scale_points(e, sx, sy))
                    for s, e in self.edges.items()
                }
            ),
            territory_line=_scale_points(self.territory_line, sx, sy),
            objective_points=tuple(
                ObjectivePoint(p.role, p.x * sx, p.y * sy, p.side) for p in self.objective_points
            ),
            disputes=self.disputes,
            chosen=self.chosen,
            status=self.status,
            notes=(*self.notes, f"scaled from 60 x 44 by {sx:g} x {sy:g}"),
        )


@dataclass(frozen=True)
class ResolvedDeployment:
    """A scenario's deployment with its regions bound to player ids."""

    id: str | None
    """Map id, None for a custom deployment."""
    name: str
    zones: tuple[DeploymentRegion, ...]
    territories: tuple[DeploymentRegion, ...]
    edges: Mapping[str, tuple[Point, Point]]
    """Player id -> that player's battlefield edge (empty when the card binds none)."""
    objective_points: tuple[Objective, ...]
    """The card's objective points; home ones have their owner set."""
    central_points_on_six: tuple[Point, ...] = ()
    """The two central points used instead of the centre on a D6 roll of 6 (maps only)."""
    map: DeploymentMap | None = None
    sides: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    """Side (``A``/``B``) -> player id (maps only)."""

    @cached_property
    def _zone_shapes(self) -> Mapping[str, BaseGeometry]:
        return _union_by_player(self.zones)

    @cached_property
    def _territory_shapes(self) -> Mapping[str, BaseGeometry]:
        return _union_by_player(self.territories)

    def zone_geometry(self, player_id: str) -> BaseGeometry:
        """The union of ``player_id``'s deployment zones (empty if none)."""
        return self._zone_shapes.get(player_id, shapely.Polygon())

    def territory_geometry(self, player_id: str) -> BaseGeometry:
        """The union of ``player_id``'s territories (empty if none)."""
        return self._territory_shapes.get(player_id, shapely.Polygon())

    def no_mans_land(self, battlefield: Battlefield) -> BaseGeometry:
        """The battlefield less every deployment zone."""
        table = box(0.0, 0.0, battlefield.width, battlefield.depth)
        zones = [_region_shape(r) for r in self.zones]
        return table.difference(shapely.union_all(zones)) if zones else table


# ---------------------------------------------------------------------------------------------
# Geometry helpers


def _scale_points(points: tuple[Point, ...], sx: float, sy: float) -> tuple[Point, ...]:
    return tuple((x * sx, y * sy) for x, y in points)


def _disc(centre: Point, radius: float) -> BaseGeometry:
    """A polygon whose chords stay within :data:`ARC_TOLERANCE` of the circle."""
    step = 2.0 * math.acos(1.0 - min(ARC_TOLERANCE / radius, 1.0))
    segments_per_quarter = max(1, math.ceil((math.pi / 2.0) / step))
    return shapely.Point(centre).buffer(radius, quad_segs=segments_per_quarter)


def _coords(shape: BaseGeometry) -> Polygon:
    exterior = orient(shape, 1.0).exterior.coords
    return tuple((float(x), float(y)) for x, y in list(exterior)[:-1])


def _zone_outline(zone: ZoneShape) -> Polygon:
    return zone.polygon if zone.minus_circle is None else _coords(zone.geometry())


def _region_shape(region: DeploymentRegion) -> BaseGeometry:
    shape: BaseGeometry = shapely.Polygon(region.polygon)
    return shape


def _union_by_player(regions: tuple[DeploymentRegion, ...]) -> Mapping[str, BaseGeometry]:
    players = dict.fromkeys(r.player for r in regions)
    return {
        player: shapely.union_all([_region_shape(r) for r in regions if r.player == player])
        for player in players
    }


def _territories(deployment: DeploymentMap) -> Mapping[str, Polygon]:
    """Split the battlefield along the dividing line; each side takes the half holding its zone."""
    table = box(0.0, 0.0, deployment.width, deployment.depth)
    halves = list(split(table, LineString(deployment.territory_line)).geoms)
    if len(halves) != 2:
        raise GeometryError(
            f"deployment {deployment.id}: the dividing line does not cut the battlefield in two"
        )
    result: dict[str, Polygon] = {}
    for side in SIDES:
        zone = deployment.zones[side].geometry()
        half = max(halves, key=lambda h: h.intersection(zone).area)
        result[side] = _coords(half)
    return MappingProxyType(result)


# ---------------------------------------------------------------------------------------------
# Loading


def deployment_ids() -> tuple[str, ...]:
    """The ids of the shipped deployment maps, sorted.

    >>> deployment_ids()[:2]
    ('crucible-of-battle', 'dawn-of-war')
    """
    return _deployment_ids()


@lru_cache(maxsize=1)
def _deployment_ids() -> tuple[str, ...]:
    return tuple(sorted(p.name.removesuffix(".json") for p in DEPLOYMENTS_DIR.glob("*.json")))


@cache
def _raw_map(map_id: str) -> Mapping[str, JSONValue]:
    if map_id not in deployment_ids():
        known = ", ".join(deployment_ids())
        raise UnknownReferenceError(f"unknown deployment {map_id!r}; known: {known}")
    with open(DEPLOYMENTS_DIR / f"{map_id}.json", encoding="utf-8") as handle:
        frozen: Mapping[str, JSONValue] = freeze(json.load(handle))
    return frozen


def _disputes(raw: Mapping[str, Any]) -> dict[str, Dispute]:
    return {
        key: Dispute(
            key=key,
            label=entry["label"],
            default=entry["default"],
            why=entry["why"],
            choices=MappingProxyType({c: v["label"] for c, v in entry["choices"].items()}),
        )
        for key, entry in raw.get("variants", {}).items()
    }


def _choose(map_id: str, variant: VariantChoice) -> tuple[dict[str, str], list[str]]:
    """The choice for every dispute of a map, and messages for parts of ``variant`` that fail."""
    disputes = _disputes(_raw_map(map_id))
    chosen = {key: d.default for key, d in disputes.items()}
    problems: list[str] = []
    if variant is None:
        return chosen, problems
    if isinstance(variant, str):
        owners = [key for key, d in disputes.items() if variant in d.choices]
        if owners:
            chosen[owners[0]] = variant
        else:
            known = sorted(c for d in disputes.values() for c in d.choices)
            problems.append(
                f"unknown variant {variant!r} of {map_id}; known: {', '.join(known) or 'none'}"
            )
        return chosen, problems
    if not isinstance(variant, Mapping):
        problems.append(
            "must be a variant name or an object of dispute to choice, "
            f"got {type(variant).__name__}"
        )
        return chosen, problems
    for key, choice in variant.items():
        dispute = disputes.get(key)
        if dispute is None:
            problems.append(
                f"{map_id} has no dispute {key!r}; its disputes: {', '.join(disputes) or 'none'}"
            )
        elif not isinstance(choice, str) or choice not in dispute.choices:
            problems.append(f"{key}: must be one of {', '.join(dispute.choices)}; got {choice!r}")
        else:
            chosen[key] = choice
    return chosen, problems


def variant_problems(map_id: str, variant: object) -> list[str]:
    """What is wrong with ``variant`` as ``options.deployment_variant`` for map ``map_id``.

    >>> variant_problems("dawn-of-war", "10in")
    []
    >>> variant_problems("hammer-and-anvil", {"zone_depth": "10in"})
    ["hammer-and-anvil has no dispute 'zone_depth'; its disputes: objectives"]
    """
    if map_id not in deployment_ids():
        return []
    return _choose(map_id, cast(VariantChoice, variant))[1]


def load_deployment_map(map_id: str, variant: VariantChoice = None) -> DeploymentMap:
    """A shipped map with the default choice for each dispute, or those ``variant`` names.

    ``variant`` is a choice name (``"10in"``) or a mapping of dispute to choice
    (``{"territory_line": "stair-step"}``). Unknown maps or choices raise
    :class:`UnknownReferenceError`. Maps are cached.
    """
    chosen, problems = _choose(map_id, variant)
    if problems:
        raise UnknownReferenceError("; ".join(problems))
    return _load(map_id, tuple(sorted(chosen.items())))


@lru_cache(maxsize=64)
def _load(map_id: str, chosen: tuple[tuple[str, str], ...]) -> DeploymentMap:
    raw: Mapping[str, Any] = _raw_map(map_id)
    parts = dict(raw)
    for dispute, choice in chosen:
        parts.update(raw["variants"][dispute]["choices"][choice]["replace"])
    zones = {
        side: ZoneShape(
            polygon=_ccw(parts["zones"][side]["polygon"]),
            minus_circle=_circle(parts["zones"][side].get("minus_circle")),
        )
        for side in SIDES
    }
    edges = {
        side: cast(tuple[Point, Point], tuple((p[0], p[1]) for p in parts["edges"][side]))
        for side in SIDES
        if parts["edges"].get(side) is not None
    }
    points = tuple(
        ObjectivePoint(p["role"], p["x"], p["y"], p.get("side"))
        for p in parts["objectives"]["points"]
    )
    status = {
        part: str(parts[part]["status"])
        for part in ("zones", "edges", "territory_line", "objectives")
    }
    notes = tuple(
        str(note) for part in ("zones", "objectives") for note in parts[part].get("notes", ())
    )
    return DeploymentMap(
        id=map_id,
        name=raw["name"],
        title=raw["title"],
        width=raw["battlefield"]["width"],
        depth=raw["battlefield"]["depth"],
        zones=MappingProxyType(zones),
        edges=MappingProxyType(edges),
        territory_line=tuple((p[0], p[1]) for p in parts["territory_line"]["points"]),
        objective_points=points,
        disputes=MappingProxyType(_disputes(raw)),
        chosen=MappingProxyType(dict(chosen)),
        status=MappingProxyType(status),
        notes=notes,
    )


def _ccw(points: Any) -> Polygon:
    ring = tuple((p[0], p[1]) for p in points)
    signed = sum(
        x1 * y2 - x2 * y1 for (x1, y1), (x2, y2) in zip(ring, ring[1:] + ring[:1], strict=True)
    )
    return ring if signed > 0 else tuple(reversed(ring))


def _circle(entry: Any) -> tuple[Point, float] | None:
    if entry is None:
        return None
    return (entry["x"], entry["y"]), entry["radius"]


# ---------------------------------------------------------------------------------------------
# Binding to a scenario


def side_players(scenario: Scenario) -> dict[str, str]:
    """Side -> player id: A is the attacker's (or, with no roles, the first player's)."""
    first, second = scenario.players
    if second.role == "attacker" or (first.role == "defender" and second.role != "defender"):
        first, second = second, first
    return {"A": first.id, "B": second.id}


_COMPASS = ("e", "ne", "n", "nw", "w", "sw", "s", "se")


def _compass(x: float, y: float, centre: Point) -> str:
    angle = math.degrees(math.atan2(y - centre[1], x - centre[0])) % 360.0
    return _COMPASS[round(angle / 45.0) % 8]


def _bound_objectives(deployment: DeploymentMap, sides: Mapping[str, str]) -> tuple[Objective, ...]:
    centre = (deployment.width / 2.0, deployment.depth / 2.0)
    objectives = []
    for point in deployment.objective_points:
        if point.role == "home" and point.side is not None:
            owner = sides[point.side]
            objectives.append(Objective(f"obj-home-{owner}", point.x, point.y, "home", owner))
        elif point.role == "central":
            objectives.append(Objective("obj-centre", point.x, point.y, "central"))
        else:
            name = f"obj-{point.role}-{_compass(point.x, point.y, centre)}"
            objectives.append(Objective(name, point.x, point.y, point.role))
    return tuple(objectives)


def _map_region(
    region_id: str, player: str, side: str, polygon: Polygon, circle: tuple[Point, float] | None
) -> DeploymentRegion:
    extra: dict[str, Any] = {"side": side}
    if circle is not None:
        (cx, cy), radius = circle
        extra["minus_circle"] = {"x": cx, "y": cy, "radius": radius}
    return DeploymentRegion(region_id, player, polygon, freeze(extra))


def resolve_deployment(scenario: Scenario) -> ResolvedDeployment | None:
    """The scenario's deployment bound to its players, or None when it has none.

    Zones of a map carry ``extra["side"]`` and, for Search and Destroy,
    ``extra["minus_circle"]`` (``x``, ``y``, ``radius``) so that the disc can be tested exactly;
    their polygon follows the arc within :data:`ARC_TOLERANCE`.
    """
    deployment = scenario.deployment
    if deployment is None:
        return None
    if isinstance(deployment, CustomDeployment):
        return ResolvedDeployment(
            id=None,
            name="Custom deployment",
            zones=deployment.zones,
            territories=deployment.territories,
            edges=MappingProxyType({}),
            objective_points=(),
        )
    variant = cast(VariantChoice, scenario.option("deployment_variant"))
    chosen = load_deployment_map(deployment, variant).chosen
    sides = side_players(scenario)
    return _resolve_map(
        deployment, tuple(sorted(chosen.items())), scenario.battlefield, sides["A"], sides["B"]
    )


@lru_cache(maxsize=32)
def _resolve_map(
    map_id: str,
    chosen: tuple[tuple[str, str], ...],
    battlefield: Battlefield,
    side_a: str,
    side_b: str,
) -> ResolvedDeployment:
    # Cached: an editor resolves the same deployment on every change, and the Search and
    # Destroy arc costs tens of milliseconds to cut.
    card = load_deployment_map(map_id, dict(chosen)).scaled_to(battlefield)
    sides = {"A": side_a, "B": side_b}
    zones = tuple(
        _map_region(
            f"{sides[side]}-dz",
            sides[side],
            side,
            _zone_outline(card.zones[side]),
            card.zones[side].minus_circle,
        )
        for side in SIDES
    )
    territories = tuple(
        _map_region(
            f"{sides[side]}-territory", sides[side], side, card.territory_polygon(side), None
        )
        for side in SIDES
    )
    return ResolvedDeployment(
        id=card.id,
        name=card.name,
        zones=zones,
        territories=territories,
        edges=MappingProxyType({sides[s]: e for s, e in card.edges.items()}),
        objective_points=_bound_objectives(card, sides),
        central_points_on_six=card.central_points_on_six(),
        map=card,
        sides=MappingProxyType(sides),
    )
