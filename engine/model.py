"""Immutable values describing one battlefield at one moment.

These mirror the scenario file format (``docs/scenario-format.md``): lengths in inches, base
sizes in millimetres, ``y`` growing north. Every value is a frozen dataclass; edits make new
values (``dataclasses.replace`` or the helpers here), so a snapshot can be handed to a worker
thread while the app goes on editing.

>>> base = CircleBase(32)
>>> round(base.radius, 4)
0.6299
>>> m = Model("m1", 10.0, 5.0, base)
>>> m.moved(1.0, 0.0).x
11.0
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from types import MappingProxyType
from typing import Any, Literal, TypeAlias

MM_PER_INCH = 25.4

JSONValue: TypeAlias = Any
"""A frozen JSON value: ``MappingProxyType`` for objects, ``tuple`` for arrays."""

EMPTY: Mapping[str, JSONValue] = MappingProxyType({})

RULESETS = ("wh40k-ca2026", "shared-modules", "scrollhammer")
Ruleset = Literal["wh40k-ca2026", "shared-modules", "scrollhammer"]
Point: TypeAlias = tuple[float, float]
Polygon: TypeAlias = tuple[Point, ...]


def freeze(value: Any) -> JSONValue:
    """Deep-freeze a JSON value (dicts become read-only mappings, lists tuples).

    >>> frozen = freeze({"a": [1, {"b": 2}]})
    >>> frozen["a"][1]["b"]
    2
    """
    if isinstance(value, Mapping):
        return MappingProxyType({str(k): freeze(v) for k, v in value.items()})
    if isinstance(value, list | tuple):
        return tuple(freeze(v) for v in value)
    return value


def thaw(value: JSONValue) -> Any:
    """The plain JSON (dicts and lists) of a frozen value.

    >>> thaw(freeze({"a": (1, 2)}))
    {'a': [1, 2]}
    """
    if isinstance(value, Mapping):
        return {k: thaw(v) for k, v in value.items()}
    if isinstance(value, tuple | list):
        return [thaw(v) for v in value]
    return value


# ---------------------------------------------------------------------------------------------
# Bases


@dataclass(frozen=True)
class CircleBase:
    """A round base, ``diameter`` in millimetres."""

    diameter: float

    @property
    def radius(self) -> float:
        """Radius in inches."""
        return self.diameter / MM_PER_INCH / 2.0

    @property
    def bounding_radius(self) -> float:
        """Radius in inches of the smallest circle about the centre holding the base."""
        return self.radius


@dataclass(frozen=True)
class OvalBase:
    """An oval (true ellipse) base: ``length`` along the model's facing, ``width`` across (mm)."""

    length: float
    width: float

    @property
    def semi_axes(self) -> tuple[float, float]:
        """Half the length and half the width, in inches."""
        return self.length / MM_PER_INCH / 2.0, self.width / MM_PER_INCH / 2.0

    @property
    def bounding_radius(self) -> float:
        return max(self.semi_axes)


@dataclass(frozen=True)
class RectBase:
    """A rectangular base or hull footprint, ``length`` by ``width`` millimetres."""

    length: float
    width: float

    @property
    def half_extents(self) -> tuple[float, float]:
        """Half the length and half the width, in inches."""
        return self.length / MM_PER_INCH / 2.0, self.width / MM_PER_INCH / 2.0

    @property
    def bounding_radius(self) -> float:
        return math.hypot(*self.half_extents)


Base: TypeAlias = CircleBase | OvalBase | RectBase


# ---------------------------------------------------------------------------------------------
# Armies


@dataclass(frozen=True)
class Model:
    """One model: its base centre ``x, y`` (inches), the height ``z`` it stands at, and more."""

    id: str
    x: float
    y: float
    base: Base
    z: float = 0.0
    rotation: float = 0.0
    height: float = 1.5
    wounds: int | None = None
    oc: int | None = None
    keywords: tuple[str, ...] = ()
    extra: Mapping[str, JSONValue] = field(default_factory=lambda: EMPTY)

    def moved(self, dx: float, dy: float) -> Model:
        """This model displaced by ``(dx, dy)`` inches."""
        return replace(self, x=self.x + dx, y=self.y + dy)

    def placed(self, x: float, y: float) -> Model:
        """This model with its base centre at ``(x, y)``."""
        return replace(self, x=x, y=y)


@dataclass(frozen=True)
class UnitStatus:
    """Conditions that change what a unit counts for."""

    battle_shocked: bool = False
    falling_back: bool = False
    extra: Mapping[str, JSONValue] = field(default_factory=lambda: EMPTY)


@dataclass(frozen=True)
class Unit:
    """A unit of one player: its models and its characteristics."""

    id: str
    player: str
    models: tuple[Model, ...]
    name: str = ""
    keywords: tuple[str, ...] = ()
    oc: int = 1
    move: float | None = None
    status: UnitStatus = UnitStatus()
    scoring: bool | None = None
    denial: bool | None = None
    extra: Mapping[str, JSONValue] = field(default_factory=lambda: EMPTY)
    datasheet: str | None = None
    """The id of the datasheet (``engine.datasheets``) the unit was made from, if any."""
    rings: tuple[float, ...] = ()
    """Range rings to draw around the unit: radii in inches from the base edges
    (:mod:`engine.rings`)."""

    def has_keyword(self, keyword: str) -> bool:
        return keyword.upper() in self.keywords

    def model_keywords(self, model: Model) -> frozenset[str]:
        """The keywords a model has: its unit's plus its own."""
        return frozenset(self.keywords) | frozenset(model.keywords)

    def model_oc(self, model: Model) -> int:
        """A model's Objective Control (0 while the unit is battle-shocked)."""
        if self.status.battle_shocked:
            return 0
        return self.oc if model.oc is None else model.oc

    def moved(self, dx: float, dy: float) -> Unit:
        """The whole unit displaced by ``(dx, dy)`` inches."""
        return replace(self, models=tuple(m.moved(dx, dy) for m in self.models))

    def is_scoring(self) -> bool:
        """Scrollhammer: scoring unless falling back; by default CORE and not SWARMS."""
        if self.status.falling_back:
            return False
        if self.scoring is not None:
            return self.scoring
        return "CORE" in self.keywords and "SWARMS" not in self.keywords

    def is_denial(self) -> bool:
        """Scrollhammer: every unit denies unless falling back or marked otherwise."""
        if self.status.falling_back:
            return False
        return True if self.denial is None else self.denial


@dataclass(frozen=True)
class Player:
    id: str
    name: str = ""
    role: Literal["attacker", "defender"] | None = None
    extra: Mapping[str, JSONValue] = field(default_factory=lambda: EMPTY)


# ---------------------------------------------------------------------------------------------
# Terrain, objectives, markers, deployment


TerrainCategory = Literal["dense", "light"]
TERRAIN_CATEGORIES: tuple[TerrainCategory, ...] = ("dense", "light")


@dataclass(frozen=True)
class TerrainFeature:
    """A part of a terrain piece that can block sight (a wall, a container).

    ``category`` is the label official layouts print (dense or light terrain). It only sets the
    file's defaults (a dense feature is solid, a light one is not), already resolved into
    ``solid`` here; it is kept so that a file saves as it was written.
    """

    shape: Polygon
    height: float
    z: float = 0.0
    solid: bool = True
    extra: Mapping[str, JSONValue] = field(default_factory=lambda: EMPTY)
    category: TerrainCategory | None = None

    @property
    def top(self) -> float:
        return self.z + self.height

    @property
    def solid_by_default(self) -> bool:
        """What ``solid`` is when the file does not say: false only for light terrain."""
        return self.category != "light"


@dataclass(frozen=True)
class TerrainFloor:
    """An upper floor of a terrain piece: a footprint ``shape`` at height ``z`` (inches).

    A model placed over it may stand at that ``z``.
    """

    shape: Polygon
    z: float


@dataclass(frozen=True)
class TerrainPiece:
    """A terrain area and the features standing in it.

    The area is one polygon (``area``) or several footprints forming one terrain area: ``area``
    is then the first of them and ``other_footprints`` the rest. Code that judges "within the
    terrain area" uses :attr:`footprints` (``engine.geometry.model_within_terrain`` does).

    >>> left = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))
    >>> right = ((3.0, 0.0), (4.0, 0.0), (4.0, 1.0), (3.0, 1.0))
    >>> piece = TerrainPiece("ruin", left, other_footprints=(right,))
    >>> len(piece.footprints), piece.area == left
    (2, True)
    """

    id: str
    area: Polygon
    kind: str = ""
    obscuring: bool = False
    impassable: bool = False
    features: tuple[TerrainFeature, ...] = ()
    extra: Mapping[str, JSONValue] = field(default_factory=lambda: EMPTY)
    other_footprints: tuple[Polygon, ...] = ()
    floors: tuple[TerrainFloor, ...] = ()

    @property
    def footprints(self) -> tuple[Polygon, ...]:
        """Every polygon of the terrain area: ``area`` first, then ``other_footprints``."""
        return (self.area, *self.other_footprints)

    @property
    def obscuring_by_default(self) -> bool:
        """What ``obscuring`` is when the file does not say: true once a feature has a category."""
        return any(feature.category is not None for feature in self.features)


ObjectiveRole = Literal["home", "central", "expansion", "other"]


@dataclass(frozen=True)
class Objective:
    """An objective marker (``diameter`` mm) or, with ``terrain``, a terrain objective."""

    id: str
    x: float
    y: float
    role: ObjectiveRole = "other"
    owner: str | None = None
    diameter: float = 40.0
    z: float = 0.0
    terrain: str | None = None
    extra: Mapping[str, JSONValue] = field(default_factory=lambda: EMPTY)

    @property
    def radius(self) -> float:
        """Marker radius in inches."""
        return self.diameter / MM_PER_INCH / 2.0


@dataclass(frozen=True)
class Marker:
    """An operation marker or other token."""

    id: str
    kind: str
    x: float
    y: float
    player: str | None = None
    extra: Mapping[str, JSONValue] = field(default_factory=lambda: EMPTY)


ANNOTATION_KINDS = ("arrow", "text", "measure")
"""What an annotation is: an arrow, a text callout, or a measured distance kept on the board."""


@dataclass(frozen=True)
class Annotation:
    """A mark drawn on the board to present a ruling; no rule reads it.

    ``(x, y)`` is an arrow's tail, a callout's point and a ruler's start; ``(to_x, to_y)`` an
    arrow's head and a ruler's end (a callout's text box sits there when given). A ruler's end
    may be a model's base (``from_model``, ``to_model``): it then measures between closest
    points of the bases wherever the models stand.
    """

    id: str
    kind: str
    x: float
    y: float
    to_x: float | None = None
    to_y: float | None = None
    text: str = ""
    from_model: str | None = None
    to_model: str | None = None
    extra: Mapping[str, JSONValue] = field(default_factory=lambda: EMPTY)

    @property
    def end(self) -> Point | None:
        if self.to_x is None or self.to_y is None:
            return None
        return self.to_x, self.to_y


@dataclass(frozen=True)
class DeploymentRegion:
    """A deployment zone or a territory: a polygon belonging to one player."""

    id: str
    player: str
    polygon: Polygon
    extra: Mapping[str, JSONValue] = field(default_factory=lambda: EMPTY)


@dataclass(frozen=True)
class CustomDeployment:
    """Deployment zones and territories given in the file itself."""

    zones: tuple[DeploymentRegion, ...] = ()
    territories: tuple[DeploymentRegion, ...] = ()
    extra: Mapping[str, JSONValue] = field(default_factory=lambda: EMPTY)


@dataclass(frozen=True)
class Battlefield:
    width: float = 60.0
    depth: float = 44.0

    @property
    def centre(self) -> Point:
        return self.width / 2.0, self.depth / 2.0


# ---------------------------------------------------------------------------------------------
# The document


@dataclass(frozen=True)
class LayoutProvenance:
    """Where a scenario's table came from: an official layout's id, name, source and revision."""

    id: str
    name: str
    source: str
    revision: str


FORMAT_NAME = "warplan.scenario"
FORMAT_VERSION = 1


@dataclass(frozen=True)
class Snapshot:
    """A named moment of the board kept in the file (:mod:`engine.snapshots`).

    ``board`` is the whole document as it was when the snapshot was ``taken`` (an ISO 8601
    time), without its title, its ``extra`` or its snapshots: a world of its own whose ids are
    no references of the live board. ``parent`` is the snapshot the board descended from then.
    """

    id: str
    name: str
    parent: str | None
    taken: str
    board: Scenario


@dataclass(frozen=True)
class Snapshots:
    """The file's branching timeline: every snapshot, and ``current``, the one the live board
    descends from (``None`` before the first is taken, or once it is deleted at a root)."""

    current: str | None = None
    items: tuple[Snapshot, ...] = ()

    def get(self, snapshot_id: str) -> Snapshot | None:
        return next((s for s in self.items if s.id == snapshot_id), None)


@dataclass(frozen=True)
class Scenario:
    """One battlefield at one moment: the whole document of a ``.warplan.json`` file."""

    ruleset: Ruleset
    players: tuple[Player, Player]
    battlefield: Battlefield = Battlefield()
    title: str = ""
    options: Mapping[str, JSONValue] = field(default_factory=lambda: EMPTY)
    deployment: str | CustomDeployment | None = None
    units: tuple[Unit, ...] = ()
    terrain: tuple[TerrainPiece, ...] = ()
    objectives: tuple[Objective, ...] = ()
    markers: tuple[Marker, ...] = ()
    game: Mapping[str, JSONValue] | None = None
    extra: Mapping[str, JSONValue] = field(default_factory=lambda: EMPTY)
    version: int = field(default=FORMAT_VERSION)
    layout: LayoutProvenance | None = None
    reserves: tuple[Unit, ...] = ()
    """Units of the armies kept off the battlefield (the reserves tray): no rule sees them."""
    annotations: tuple[Annotation, ...] = ()
    """Arrows, callouts and kept measurements for presenting a ruling: no rule sees them."""
    snapshots: Snapshots = Snapshots()
    """Named snapshots of the board, a branching timeline (:mod:`engine.snapshots`): no rule
    sees them."""

    # Lookups, computed once per value (the dataclass is frozen, so they never go stale).

    @cached_property
    def _units_by_id(self) -> Mapping[str, Unit]:
        return {u.id: u for u in self.units}

    @cached_property
    def _model_owner(self) -> Mapping[str, tuple[Unit, Model]]:
        return {m.id: (u, m) for u in self.units for m in u.models}

    @cached_property
    def _terrain_by_id(self) -> Mapping[str, TerrainPiece]:
        return {t.id: t for t in self.terrain}

    @cached_property
    def _objectives_by_id(self) -> Mapping[str, Objective]:
        return {o.id: o for o in self.objectives}

    def unit(self, unit_id: str) -> Unit:
        return self._units_by_id[unit_id]

    def unit_of_model(self, model_id: str) -> Unit:
        return self._model_owner[model_id][0]

    def model(self, model_id: str) -> Model:
        return self._model_owner[model_id][1]

    def terrain_piece(self, terrain_id: str) -> TerrainPiece:
        return self._terrain_by_id[terrain_id]

    def objective(self, objective_id: str) -> Objective:
        return self._objectives_by_id[objective_id]

    def player_ids(self) -> tuple[str, str]:
        return self.players[0].id, self.players[1].id

    def opponent_of(self, player_id: str) -> str:
        first, second = self.player_ids()
        return second if player_id == first else first

    def units_of(self, player_id: str) -> Iterator[Unit]:
        return (u for u in self.units if u.player == player_id)

    def all_models(self) -> Iterator[tuple[Unit, Model]]:
        for unit in self.units:
            for model in unit.models:
                yield unit, model

    def option(self, key: str, default: JSONValue = None) -> JSONValue:
        return self.options.get(key, default)

    # Edits return new scenarios.

    def with_unit(self, unit: Unit) -> Scenario:
        """This scenario with the unit of the same id replaced."""
        return replace(self, units=tuple(unit if u.id == unit.id else u for u in self.units))

    def with_models(self, models: Iterable[Model]) -> Scenario:
        """This scenario with each given model replacing the model of the same id."""
        by_id = {m.id: m for m in models}
        units = tuple(
            replace(u, models=tuple(by_id.get(m.id, m) for m in u.models))
            if any(m.id in by_id for m in u.models)
            else u
            for u in self.units
        )
        return replace(self, units=units)

    def with_unit_moved(self, unit_id: str, dx: float, dy: float) -> Scenario:
        return self.with_unit(self.unit(unit_id).moved(dx, dy))
