"""One description of the scenario file format: every entity's fields, their types, defaults,
bounds and meaning.

The same tables drive the reader (:meth:`Reader.entity`, collecting every problem with its JSON
path), the writer (:func:`write_entity`, leaving out values equal to their default) and the
field tables of ``docs/scenario-format.md`` (:func:`field_tables`). A new field is one
:class:`Field` line in one table.

>>> reader = Reader()
>>> reader.entity(OBJECTIVE, {"id": "o1", "x": 30, "y": 22, "role": "central"}, "objectives[0]")
Objective(id='o1', x=30, y=22, role='central', owner=None, diameter=40.0, z=0.0, terrain=None, \
extra=mappingproxy({}))
>>> write_entity(OBJECTIVE, _)
{'id': 'o1', 'x': 30, 'y': 22, 'role': 'central'}
>>> reader.entity(OBJECTIVE, {"id": "o2", "x": 1e308, "y": 0}, "objectives[1]")
>>> [str(p) for p in reader.problems]
['objectives[1].x: must be a number from -1200.0 to 1200.0 (inches), got 1e+308']
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache
from typing import Any, Final, Literal, TypeAlias, cast

import shapely

from engine.errors import Problem
from engine.format_messages import index, join, listing, show
from engine.limits import (
    MAX_BASE_MM,
    MAX_BATTLEFIELD,
    MAX_COORDINATE,
    MAX_COUNT,
    MAX_DISTANCE,
    MAX_HEIGHT,
    MAX_RING_RADIUS,
    MAX_RINGS,
    MAX_ROTATION,
    MIN_BASE_MM,
    MIN_BATTLEFIELD,
)
from engine.model import (
    ANNOTATION_KINDS,
    EMPTY,
    FORMAT_NAME,
    RULESETS,
    TERRAIN_CATEGORIES,
    Annotation,
    Battlefield,
    CircleBase,
    CustomDeployment,
    DeploymentRegion,
    LayoutProvenance,
    Marker,
    Model,
    Objective,
    OvalBase,
    Player,
    Point,
    Polygon,
    RectBase,
    Snapshot,
    Snapshots,
    TerrainFeature,
    TerrainFloor,
    TerrainPiece,
    Unit,
    UnitStatus,
    freeze,
    thaw,
)
from engine.rulesets import RULESET_IDS, ruleset_for

MIN_POLYGON_AREA = 1e-6
"""Square inches: the smallest area a polygon may enclose (a 0.001" square)."""

OBJECTIVE_ROLES = ("home", "central", "expansion", "other")
PLAYER_ROLES = ("attacker", "defender")
BASE_SHAPES = ("circle", "oval", "rect")


class _Invalid:
    """The result of reading a value that has a problem (the problem is already recorded)."""

    def __repr__(self) -> str:
        return "INVALID"


INVALID: Final = _Invalid()
Sign = Literal["any", "non-negative", "positive"]
_SIGN_WORD = {"any": "a", "non-negative": "a non-negative", "positive": "a positive"}


# ---------------------------------------------------------------------------------------------
# The reader's state and its primitive checks


@dataclass
class Reader:
    """Collects the problems, ids and references met while reading one document."""

    problems: list[Problem] = field(default_factory=list)
    ids: dict[str, str] = field(default_factory=dict)
    references: list[tuple[str, str, str]] = field(default_factory=list)
    read: dict[str, Any] = field(default_factory=dict)
    """Values of the document read so far, for checks that depend on them (``options``)."""

    def problem(self, path: str, message: str) -> None:
        self.problems.append(Problem(path, message))

    def obj(
        self, value: object, path: str, allowed: tuple[str, ...], required: Sequence[str] = ()
    ) -> Mapping[str, Any] | None:
        if not isinstance(value, Mapping):
            self.problem(path, f"must be an object, got {show(value)}")
            return None
        if not value.keys() <= _key_set(allowed):
            for key in value:
                if isinstance(key, str) and key not in allowed:
                    self.problem(join(path, key), f"unknown key (allowed: {', '.join(allowed)})")
        for key in required:
            if key not in value:
                self.problem(join(path, key), "missing required key")
        return value

    def array(self, value: object, path: str) -> Sequence[Any] | None:
        if not isinstance(value, list | tuple):
            self.problem(path, f"must be an array, got {show(value)}")
            return None
        return value

    def entity(self, entity: Entity, value: object, path: str) -> Any:
        """The model value ``entity`` describes, read from ``value``; None if it has problems."""
        result = entity.read(self, value, path)
        return None if result is INVALID else result

    def check_references(self) -> None:
        """Report references to ids that do not exist (once every id is known)."""
        # Ids of elements that failed validation still count, so that one problem does not
        # cascade into "unknown" references to it.
        known: dict[str, set[str]] = {}
        for ident, path in self.ids.items():
            kind = path.split("[", 1)[0]
            known.setdefault(_ID_KINDS.get(kind, ""), set()).add(ident)
        for ref, path, kind in self.references:
            if ref not in known.get(kind, ()):
                self.problem(
                    path,
                    f"unknown {kind} {show(ref)}; known: {listing(known.get(kind, ())) or 'none'}",
                )


@lru_cache(maxsize=256)
def _key_set(allowed: tuple[str, ...]) -> frozenset[str]:
    return frozenset(allowed)


_ID_KINDS = {"players": "player", "terrain": "terrain"}
"""Kinds of ids that other elements refer to, by the top-level list that defines them."""


# ---------------------------------------------------------------------------------------------
# Kinds of values: each reads (collecting problems), writes and describes itself


class Kind:
    """A kind of JSON value in the file."""

    def read(self, reader: Reader, value: object, path: str) -> Any:
        raise NotImplementedError

    def write(self, value: Any) -> Any:
        return value

    def describe(self) -> str:
        raise NotImplementedError


@dataclass(frozen=True)
class Text(Kind):
    non_empty: bool = False

    def read(self, reader: Reader, value: object, path: str) -> Any:
        if not isinstance(value, str):
            reader.problem(path, f"must be a string, got {show(value)}")
            return INVALID
        if self.non_empty and not value.strip():
            reader.problem(path, "must not be empty")
            return INVALID
        return value

    def describe(self) -> str:
        return "non-empty string" if self.non_empty else "string"


@dataclass(frozen=True)
class Flag(Kind):
    def read(self, reader: Reader, value: object, path: str) -> Any:
        if not isinstance(value, bool):
            reader.problem(path, f"must be true or false, got {show(value)}")
            return INVALID
        return value

    def describe(self) -> str:
        return "true or false"


@dataclass(frozen=True)
class Choice(Kind):
    options: tuple[str, ...]

    def read(self, reader: Reader, value: object, path: str) -> Any:
        if not isinstance(value, str) or value not in self.options:
            reader.problem(path, f"must be one of {', '.join(self.options)}; got {show(value)}")
            return INVALID
        return value

    def describe(self) -> str:
        return " or ".join(f'`"{option}"`' for option in self.options)


@dataclass(frozen=True)
class Number(Kind):
    """A finite number of a sign, within ``low .. high`` (in ``unit``).

    Kept as given (an int stays an int) so a file saves as it was written; the bounds make every
    accepted int exactly a float.
    """

    sign: Sign
    low: float
    high: float
    unit: str

    def read(self, reader: Reader, value: object, path: str) -> Any:
        if isinstance(value, bool) or not isinstance(value, int | float):
            reader.problem(path, f"must be {_SIGN_WORD[self.sign]} number, got {show(value)}")
            return INVALID
        if isinstance(value, float) and not math.isfinite(value):
            reader.problem(path, f"must be a finite number, got {show(value)}")
            return INVALID
        if (self.sign == "positive" and value <= 0) or (self.sign == "non-negative" and value < 0):
            reader.problem(path, f"must be {_SIGN_WORD[self.sign]} number, got {show(value)}")
            return INVALID
        if not self.low <= value <= self.high:
            reader.problem(
                path,
                f"must be a number from {self.low!r} to {self.high!r} ({self.unit}), "
                f"got {show(value)}",
            )
            return INVALID
        return value

    def describe(self) -> str:
        low = "more than 0" if self.sign == "positive" and self.low <= 0 else f"{self.low:g}"
        return f"number, {self.unit}, {low} to {self.high:g}"


@dataclass(frozen=True)
class Integer(Kind):
    low: int
    high: int

    def read(self, reader: Reader, value: object, path: str) -> Any:
        if isinstance(value, bool) or not isinstance(value, int):
            reader.problem(path, f"must be an integer, got {show(value)}")
            return INVALID
        if value < self.low:
            reader.problem(path, f"must be an integer of at least {self.low}, got {show(value)}")
            return INVALID
        if value > self.high:
            reader.problem(
                path, f"must be an integer from {self.low} to {self.high}, got {show(value)}"
            )
            return INVALID
        return value

    def describe(self) -> str:
        return f"integer, {self.low} to {self.high}"


@dataclass(frozen=True)
class Keywords(Kind):
    def read(self, reader: Reader, value: object, path: str) -> Any:
        items = reader.array(value, path)
        if items is None:
            return INVALID
        words: list[str] = []
        for i, item in enumerate(items):
            word = Text(non_empty=True).read(reader, item, index(path, i))
            if word is INVALID:
                continue
            if word != word.upper():
                reader.problem(index(path, i), f"keywords are upper case, got {show(word)}")
                continue
            words.append(word)
        return tuple(words)

    def write(self, value: Any) -> Any:
        return list(value)

    def describe(self) -> str:
        return "array of upper-case strings"


@dataclass(frozen=True)
class Extra(Kind):
    def read(self, reader: Reader, value: object, path: str) -> Any:
        if not isinstance(value, Mapping):
            reader.problem(path, f"must be an object, got {show(value)}")
            return INVALID
        return freeze(value)

    def write(self, value: Any) -> Any:
        return thaw(value)

    def describe(self) -> str:
        return "object, kept as written"


@dataclass(frozen=True)
class Identifier(Kind):
    def read(self, reader: Reader, value: object, path: str) -> Any:
        ident = Text(non_empty=True).read(reader, value, path)
        if ident is INVALID:
            return INVALID
        first = reader.ids.get(ident)
        if first is not None:
            reader.problem(path, f"duplicate id {show(ident)}: already used at {first}")
        else:
            reader.ids[ident] = path
        return ident

    def describe(self) -> str:
        return "id, unique in the document"


@dataclass(frozen=True)
class Reference(Kind):
    """The id of an element of ``kind`` (checked once every id is known)."""

    kind: str

    def read(self, reader: Reader, value: object, path: str) -> Any:
        ref = Text(non_empty=True).read(reader, value, path)
        if ref is not INVALID:
            reader.references.append((ref, path, self.kind))
        return ref

    def describe(self) -> str:
        return f"{self.kind} id"


@dataclass(frozen=True)
class PolygonKind(Kind):
    """``[[x, y], ...]``: not self-intersecting, closed or open (stored open)."""

    def read(self, reader: Reader, value: object, path: str) -> Any:
        items = reader.array(value, path)
        if items is None:
            return INVALID
        points = [_point(reader, item, index(path, i)) for i, item in enumerate(items)]
        if any(p is INVALID for p in points):
            return INVALID
        ring = cast(list[Point], points)
        # A ring written closed (last point = first) is the same polygon; store it open.
        if len(ring) > 1 and ring[0] == ring[-1]:
            ring = ring[:-1]
        if len(ring) < 3:
            reader.problem(path, f"must have at least 3 points, got {len(ring)}")
            return INVALID
        shape = shapely.Polygon(ring)
        if shape.convex_hull.area <= 0.0:
            reader.problem(path, "must enclose a non-zero area (its points lie on one line)")
            return INVALID
        if not shapely.is_valid(shape):
            reader.problem(path, f"must be a valid polygon: {shapely.is_valid_reason(shape)}")
            return INVALID
        if shape.area < MIN_POLYGON_AREA:
            reader.problem(
                path,
                f"must enclose at least {MIN_POLYGON_AREA:g} square inches, got {shape.area:.3g}",
            )
            return INVALID
        return tuple(ring)

    def write(self, value: Any) -> Any:
        return [[x, y] for x, y in value]

    def describe(self) -> str:
        return "polygon `[[x, y], ...]`, inches"


COORDINATE = Number("any", -MAX_COORDINATE, MAX_COORDINATE, "inches")
POLYGON = PolygonKind()


def _point(reader: Reader, value: object, path: str) -> Any:
    pair = reader.array(value, path)
    if pair is None:
        return INVALID
    if len(pair) != 2:
        reader.problem(path, f"must be a point [x, y], got an array of {len(pair)} values")
        return INVALID
    x = COORDINATE.read(reader, pair[0], index(path, 0))
    y = COORDINATE.read(reader, pair[1], index(path, 1))
    if x is INVALID or y is INVALID:
        return INVALID
    return (x, y)


def is_polygon_list(items: Sequence[Any]) -> bool:
    """Whether a terrain ``area`` array lists polygons (its first item is an array of arrays)."""
    if not items:
        return False
    first = items[0]
    return isinstance(first, list | tuple) and bool(first) and isinstance(first[0], list | tuple)


@dataclass(frozen=True)
class TerrainAreaKind(Kind):
    """One polygon, or a list of polygons forming one terrain area (each checked alone)."""

    def read(self, reader: Reader, value: object, path: str) -> Any:
        items = reader.array(value, path)
        if items is None:
            return INVALID
        if not is_polygon_list(items):
            polygon = POLYGON.read(reader, items, path)
            return INVALID if polygon is INVALID else (polygon,)
        polygons = [POLYGON.read(reader, item, index(path, i)) for i, item in enumerate(items)]
        if any(p is INVALID for p in polygons):
            return INVALID
        return tuple(polygons)

    def write(self, value: Any) -> Any:
        footprints = cast(tuple[Polygon, ...], value)
        if len(footprints) == 1:
            return POLYGON.write(footprints[0])
        return [POLYGON.write(polygon) for polygon in footprints]

    def describe(self) -> str:
        return "polygon, or array of polygons forming one area"


@dataclass(frozen=True)
class Nested(Kind):
    """An object described by another entity."""

    entity: Entity

    def read(self, reader: Reader, value: object, path: str) -> Any:
        return self.entity.read(reader, value, path)

    def write(self, value: Any) -> Any:
        return write_entity(self.entity, value)

    def describe(self) -> str:
        return f"object ({self.entity.title})"


@dataclass(frozen=True)
class ListOf(Kind):
    """An array of one kind; items with problems are left out (their problems are recorded)."""

    item: Kind
    non_empty: str = ""
    """When set, the message for an empty array."""
    most: int | None = None
    """When set, the most items the array may hold."""

    def read(self, reader: Reader, value: object, path: str) -> Any:
        items = reader.array(value, path)
        if items is None:
            return INVALID
        if self.non_empty and not items:
            reader.problem(path, self.non_empty)
            return INVALID
        if self.most is not None and len(items) > self.most:
            reader.problem(path, f"must hold at most {self.most} items, got {len(items)}")
            return INVALID
        read = [self.item.read(reader, item, index(path, i)) for i, item in enumerate(items)]
        kept = tuple(item for item in read if item is not INVALID)
        if self.non_empty and not kept:
            return INVALID
        return kept

    def write(self, value: Any) -> Any:
        return [self.item.write(item) for item in value]

    def describe(self) -> str:
        most = f" (at most {self.most})" if self.most is not None else ""
        return f"array{most} of {self.item.describe()}"


@dataclass(frozen=True)
class Variants(Kind):
    """An object whose ``tag`` key picks the entity describing it (a base's ``shape``)."""

    tag: str
    entities: Mapping[str, Entity]
    types: Mapping[type, str]

    def read(self, reader: Reader, value: object, path: str) -> Any:
        if not isinstance(value, Mapping):
            reader.problem(path, f"must be an object, got {show(value)}")
            return INVALID
        if self.tag not in value:
            reader.problem(join(path, self.tag), "missing required key")
            return INVALID
        entity = self.entities.get(value[self.tag]) if isinstance(value[self.tag], str) else None
        if entity is None:
            Choice(tuple(self.entities)).read(reader, value[self.tag], join(path, self.tag))
            return INVALID
        return entity.read(reader, value, path)

    def write(self, value: Any) -> Any:
        return write_entity(self.entities[self.types[type(value)]], value)

    def describe(self) -> str:
        return f"object, by `{self.tag}`: " + ", ".join(f"`{tag}`" for tag in self.entities)


# ---------------------------------------------------------------------------------------------
# Fields and entities


class _Required:
    def __repr__(self) -> str:
        return "REQUIRED"


REQUIRED: Final = _Required()
Getter: TypeAlias = Callable[[str], Any]


@dataclass(frozen=True)
class Derived:
    """A default that depends on other fields of the same object (``get(attribute)``)."""

    compute: Callable[[Getter], Any]
    doc: str


@dataclass(frozen=True)
class Field:
    """One key of an object: its kind, its default (or :data:`REQUIRED`) and its meaning."""

    key: str
    kind: Kind
    doc: str
    default: Any = REQUIRED
    attribute: str = ""
    """The model attribute holding the value (the key itself when empty)."""
    fixed: Any = None
    """A value the key must have (``"shape": "circle"``); written as is."""
    phase: int = 0
    """When the field is read: :data:`AFTER_DEPLOYMENT` or :data:`AFTER_IDS` (later fields need
    earlier ones: a deployment variant needs the deployment, the ``game`` section every id)."""

    @property
    def name(self) -> str:
        return self.attribute or self.key


AFTER_DEPLOYMENT = 1
AFTER_IDS = 2
Check: TypeAlias = Callable[[Reader, Mapping[str, Any], dict[str, Any], str], None]


@dataclass(frozen=True)
class Entity:
    """An object of the file and the model value it becomes."""

    title: str
    fields: tuple[Field, ...]
    build: Callable[..., Any]
    check: Check | None = None
    """Checks across fields, run once every field is read (a home objective has an owner)."""
    shares_values: bool = False
    """Whether later fields' kinds see the values read so far (``Reader.read``): the document."""
    keys: tuple[str, ...] = ()
    required: tuple[str, ...] = ()
    plan: tuple[tuple[str, str, Callable[[Reader, object, str], Any], Any, int, int], ...] = ()
    """Per field, in reading order: key, attribute, its kind's reader, default, how, phase."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "keys", tuple(f.key for f in self.fields))
        required = tuple(f.key for f in self.fields if f.default is REQUIRED)
        object.__setattr__(self, "required", required)
        plan = []
        for spec in sorted(self.fields, key=lambda f: f.phase):
            how = (
                _FIXED
                if spec.fixed is not None
                else _REQUIRED
                if spec.default is REQUIRED
                else _DERIVED
                if isinstance(spec.default, Derived)
                else _DEFAULT
            )
            default = spec.fixed if how == _FIXED else spec.default
            plan.append((spec.key, spec.name, spec.kind.read, default, how, spec.phase))
        object.__setattr__(self, "plan", tuple(plan))

    def read(self, reader: Reader, value: object, path: str) -> Any:
        entry = reader.obj(value, path, self.keys, self.required)
        if entry is None:
            return INVALID
        values: dict[str, Any] = {}
        if self.shares_values:
            reader.read = values
        derived: list[tuple[str, Derived]] = []
        sound = True
        prefix = f"{path}." if path else ""
        ids_known = False
        for key, name, read, default, how, phase in self.plan:
            if phase >= AFTER_IDS and not ids_known:
                reader.check_references()
                ids_known = True
            if key in entry:
                if how == _FIXED:
                    if entry[key] != default:
                        shown = show(entry[key])
                        reader.problem(prefix + key, f'must be "{default}", got {shown}')
                    continue
                got = read(reader, entry[key], prefix + key)
                if got is INVALID:
                    sound = False
                values[name] = got
            elif how == _DEFAULT:
                values[name] = default
            elif how == _DERIVED:
                derived.append((name, default))
            elif how == _REQUIRED:
                sound = False
        if self.shares_values and not ids_known:
            reader.check_references()
        if self.check is not None:
            self.check(reader, entry, values, path)
        if not sound:
            return INVALID
        for name, rule in derived:
            values[name] = rule.compute(values.__getitem__)
        return self.build(**values)


_DEFAULT, _REQUIRED, _DERIVED, _FIXED = range(4)


def write_entity(entity: Entity, value: Any) -> dict[str, Any]:
    """The JSON object of a model value: fields in the table's order, defaults left out."""
    out: dict[str, Any] = {}
    get: Getter = lambda name: getattr(value, name)  # noqa: E731
    for spec in entity.fields:
        if spec.fixed is not None:
            out[spec.key] = spec.fixed
            continue
        current = get(spec.name)
        if spec.default is not REQUIRED:
            default = (
                spec.default.compute(get) if isinstance(spec.default, Derived) else spec.default
            )
            if current == default:
                continue
        out[spec.key] = spec.kind.write(current)
    return out


# ---------------------------------------------------------------------------------------------
# The tables


def _inches(sign: Sign, high: float, low: float | None = None) -> Number:
    return Number(sign, 0.0 if low is None else low, high, "inches")


HEIGHT = _inches("non-negative", MAX_HEIGHT)
BASE_SIZE = Number("positive", MIN_BASE_MM, MAX_BASE_MM, "mm")
COUNT = Integer(0, MAX_COUNT)
TABLE_SIDE = _inches("positive", MAX_BATTLEFIELD, MIN_BATTLEFIELD)
EXTRA = Field("extra", Extra(), "anything, for tools", default=EMPTY)


BATTLEFIELD = Entity(
    "battlefield",
    (
        Field("width", TABLE_SIDE, "along x (the long edge)"),
        Field("depth", TABLE_SIDE, "along y"),
    ),
    Battlefield,
)

PLAYER = Entity(
    "player",
    (
        Field("id", Identifier(), "the player's id"),
        Field("name", Text(), "shown in the app", default=""),
        Field("role", Choice(PLAYER_ROLES), "where the ruleset has roles", default=None),
        EXTRA,
    ),
    Player,
)

STATUS = Entity(
    "unit status",
    (
        Field("battle_shocked", Flag(), "its models count OC 0", default=False),
        Field("falling_back", Flag(), "neither scoring nor denial (Scrollhammer)", default=False),
        EXTRA,
    ),
    UnitStatus,
)

CIRCLE = Entity(
    "round base",
    (
        Field("shape", Choice(BASE_SHAPES), "", fixed="circle"),
        Field("diameter", BASE_SIZE, "diameter"),
    ),
    CircleBase,
)
OVAL = Entity(
    "oval base",
    (
        Field("shape", Choice(BASE_SHAPES), "", fixed="oval"),
        Field("length", BASE_SIZE, "along the model's facing"),
        Field("width", BASE_SIZE, "across"),
    ),
    OvalBase,
)
RECT = Entity(
    "rectangular base or hull",
    (
        Field("shape", Choice(BASE_SHAPES), "", fixed="rect"),
        Field("length", BASE_SIZE, "along the model's facing"),
        Field("width", BASE_SIZE, "across"),
    ),
    RectBase,
)
BASE = Variants(
    "shape",
    {"circle": CIRCLE, "oval": OVAL, "rect": RECT},
    {CircleBase: "circle", OvalBase: "oval", RectBase: "rect"},
)

MODEL = Entity(
    "model",
    (
        Field("id", Identifier(), "the model's id"),
        Field("x", COORDINATE, "base centre"),
        Field("y", COORDINATE, "base centre"),
        Field("z", HEIGHT, "height of the surface it stands on", default=0.0),
        Field(
            "rotation",
            Number("any", -MAX_ROTATION, MAX_ROTATION, "degrees"),
            "counter-clockwise; 0 = the base's length along x",
            default=0.0,
        ),
        Field("base", BASE, "its base (sizes in mm)"),
        Field("height", HEIGHT, "how tall it stands above its base", default=1.5),
        Field("wounds", COUNT, "wounds left", default=None),
        Field("oc", COUNT, "overrides the unit's OC", default=None),
        Field("keywords", Keywords(), "added to its unit's", default=()),
        EXTRA,
    ),
    Model,
)

UNIT = Entity(
    "unit",
    (
        Field("id", Identifier(), "the unit's id"),
        Field("player", Reference("player"), "the player it belongs to"),
        Field("name", Text(), "shown in the app", default=""),
        Field("keywords", Keywords(), "e.g. INFANTRY, BATTLELINE", default=()),
        Field("oc", COUNT, "Objective Control of each model", default=1),
        Field("move", _inches("non-negative", MAX_DISTANCE), "Move characteristic", default=None),
        Field("status", Nested(STATUS), "conditions", default=UnitStatus()),
        Field("scoring", Flag(), "Scrollhammer: overrides the keyword default", default=None),
        Field("denial", Flag(), "Scrollhammer: overrides the default (true)", default=None),
        Field(
            "models",
            ListOf(Nested(MODEL), non_empty="a unit must have at least one model"),
            "at least one",
        ),
        EXTRA,
        Field("datasheet", Text(non_empty=True), "the datasheet it was made from", default=None),
        Field(
            "rings",
            ListOf(_inches("positive", MAX_RING_RADIUS), most=MAX_RINGS),
            "range rings to draw, radii from the base edges",
            default=(),
        ),
    ),
    Unit,
)

FEATURE = Entity(
    "terrain feature",
    (
        Field("shape", POLYGON, "its footprint"),
        Field("height", HEIGHT, "above its base level z"),
        Field("z", HEIGHT, "its base level", default=0.0),
        Field(
            "category",
            Choice(TERRAIN_CATEGORIES),
            "as official layouts label it; sets the defaults of `solid` and `obscuring`",
            default=None,
        ),
        Field(
            "solid",
            Flag(),
            "blocks sight lines at or below its top",
            default=Derived(lambda get: get("category") != "light", "false if light, else true"),
        ),
        EXTRA,
    ),
    TerrainFeature,
)


FLOOR = Entity(
    "terrain floor",
    (
        Field("shape", POLYGON, "its footprint"),
        Field("z", HEIGHT, "its height; a model placed on it stands at this z"),
    ),
    TerrainFloor,
)


def _terrain_piece(area: tuple[Polygon, ...], **values: Any) -> TerrainPiece:
    first, *others = area
    return TerrainPiece(area=first, other_footprints=tuple(others), **values)


TERRAIN = Entity(
    "terrain piece",
    (
        Field("id", Identifier(), "the piece's id"),
        Field("kind", Text(), "ruin, woods, ...", default=""),
        Field("area", TerrainAreaKind(), "its terrain area", attribute="footprints"),
        Field(
            "obscuring",
            Flag(),
            "sight lines crossing it are blocked (see Line of sight)",
            default=Derived(
                lambda get: any(f.category is not None for f in get("features")),
                "true if a feature has a category, else false",
            ),
        ),
        Field("impassable", Flag(), "models may not be placed on it", default=False),
        Field("features", ListOf(Nested(FEATURE)), "what blocks sight", default=()),
        Field("floors", ListOf(Nested(FLOOR)), "upper floors models may stand on", default=()),
        EXTRA,
    ),
    lambda footprints, **values: _terrain_piece(footprints, **values),
)


def _check_owner(
    reader: Reader, entry: Mapping[str, Any], values: dict[str, Any], path: str
) -> None:
    role = values.get("role")
    if role == "home" and "owner" not in entry:
        reader.problem(join(path, "owner"), "a home objective needs an owner (a player id)")
    if role not in (INVALID, "home") and "owner" in entry:
        reader.problem(join(path, "owner"), f"only home objectives have an owner, this is {role}")


OBJECTIVE = Entity(
    "objective",
    (
        Field("id", Identifier(), "the objective's id"),
        Field("x", COORDINATE, "marker centre"),
        Field("y", COORDINATE, "marker centre"),
        Field("z", HEIGHT, "height of the marker", default=0.0),
        Field("role", Choice(OBJECTIVE_ROLES), "what the mission calls it", default="other"),
        Field("owner", Reference("player"), "a home objective's player", default=None),
        Field("diameter", BASE_SIZE, "marker diameter", default=40.0),
        Field("terrain", Reference("terrain"), "a terrain objective's piece", default=None),
        EXTRA,
    ),
    Objective,
    check=_check_owner,
)

MARKER = Entity(
    "marker",
    (
        Field("id", Identifier(), "the marker's id"),
        Field("kind", Text(non_empty=True), "operation, ..."),
        Field("player", Reference("player"), "whose it is", default=None),
        Field("x", COORDINATE, "centre"),
        Field("y", COORDINATE, "centre"),
        EXTRA,
    ),
    Marker,
)


def _check_annotation(
    reader: Reader, entry: Mapping[str, Any], values: dict[str, Any], path: str
) -> None:
    """What each kind needs: an arrow and a ruler an end, a callout its text; only a ruler's
    ends name models; an arrow or a ruler between two free points is not a point."""
    kind = values.get("kind")
    prefix = f"{path}." if path else ""
    if kind in ("arrow", "measure"):
        for key in ("to_x", "to_y"):
            if key not in entry:
                reader.problem(prefix + key, f"an annotation of kind {show(kind)} needs it")
        linked = "from_model" in entry or "to_model" in entry
        start, end = (values.get("x"), values.get("y")), (values.get("to_x"), values.get("to_y"))
        if not linked and "to_x" in entry and "to_y" in entry and start == end:
            reader.problem(prefix + "to_x", f"an {kind} must not end where it starts")
    if kind == "text" and not str(values.get("text", "")).strip():
        reader.problem(prefix + "text", "a text callout needs its text")
    if kind != "measure":
        for key in ("from_model", "to_model"):
            if key in entry:
                reader.problem(prefix + key, "only a measure's ends name models")


ANNOTATION = Entity(
    "annotation",
    (
        Field("id", Identifier(), "the annotation's id"),
        Field("kind", Choice(ANNOTATION_KINDS), "an arrow, a text callout or a kept ruler"),
        Field("x", COORDINATE, "an arrow's tail, a callout's point, a ruler's start"),
        Field("y", COORDINATE, "an arrow's tail, a callout's point, a ruler's start"),
        Field("to_x", COORDINATE, "an arrow's head, a ruler's end, a callout's box", default=None),
        Field("to_y", COORDINATE, "an arrow's head, a ruler's end, a callout's box", default=None),
        Field("text", Text(), "a callout's text; a caption for an arrow or a ruler", default=""),
        Field(
            "from_model",
            Text(non_empty=True),
            "a ruler's start on this model's base (closest points)",
            default=None,
        ),
        Field(
            "to_model",
            Text(non_empty=True),
            "a ruler's end on this model's base (closest points)",
            default=None,
        ),
        EXTRA,
    ),
    Annotation,
    check=_check_annotation,
)


def _check_document(
    reader: Reader, entry: Mapping[str, Any], values: dict[str, Any], path: str
) -> None:
    """A ruler's ends name models on the battlefield (not in reserve, not units)."""
    models = {m.id for u in _valid(values.get("units")) for m in u.models}
    items = entry.get("annotations")
    if not isinstance(items, list | tuple):
        return
    for i, item in enumerate(items):
        if not isinstance(item, Mapping):
            continue
        for key in ("from_model", "to_model"):
            ref = item.get(key)
            if isinstance(ref, str) and ref.strip() and ref not in models:
                reader.problem(
                    f"annotations[{i}].{key}",
                    f"unknown model {show(ref)} on the battlefield",
                )


LAYOUT = Entity(
    "layout provenance",
    (
        Field("id", Text(non_empty=True), "the official layout's id (`python -m engine layouts`)"),
        Field("name", Text(), "shown in the app"),
        Field("source", Text(), "where the layout's data comes from"),
        Field("revision", Text(), "what the data says of its revision"),
    ),
    LayoutProvenance,
)

REGION = Entity(
    "deployment zone or territory",
    (
        Field("id", Identifier(), "the region's id"),
        Field("player", Reference("player"), "whose it is"),
        Field("polygon", POLYGON, "its outline"),
        EXTRA,
    ),
    DeploymentRegion,
)

CUSTOM_DEPLOYMENT = Entity(
    "custom deployment",
    (
        Field("zones", ListOf(Nested(REGION)), "deployment zones", default=()),
        Field("territories", ListOf(Nested(REGION)), "territories", default=()),
        EXTRA,
    ),
    CustomDeployment,
)


# ---------------------------------------------------------------------------------------------
# Options


EDGE_NAMES = ("south", "north", "west", "east")


@dataclass(frozen=True)
class TableEdgesKind(Kind):
    """An object from player ids to table edges."""

    def read(self, reader: Reader, value: object, path: str) -> Any:
        if not isinstance(value, Mapping):
            reader.problem(path, f"must map player ids to edges, got {show(value)}")
            return INVALID
        for player, edge in value.items():
            reader.references.append((str(player), join(path, str(player)), "player"))
            Choice(EDGE_NAMES).read(reader, edge, join(path, str(player)))
        return value

    def describe(self) -> str:
        return "object, player id to edge"


@dataclass(frozen=True)
class DeploymentVariantKind(Kind):
    """Disputed values of the deployment map (``engine.deployments``): needs the deployment."""

    def read(self, reader: Reader, value: object, path: str) -> Any:
        deployment = reader.read.get("deployment")
        if not isinstance(deployment, str):
            reader.problem(path, "applies only to a deployment map given by its id")
            return INVALID
        from engine.deployments import variant_problems

        problems = variant_problems(deployment, value)
        for message in problems:
            reader.problem(path, message)
        return INVALID if problems else value

    def describe(self) -> str:
        return "variant name, or object dispute to choice"


DISTANCE = _inches("non-negative", MAX_DISTANCE)
POSITIVE_DISTANCE = _inches("positive", MAX_DISTANCE)


@dataclass(frozen=True)
class OptionsKind(Kind):
    """The ``options`` of the file's rule system (``Ruleset.option_checks``). A key only another
    rule system reads is checked by that system and kept without effect here: a file that
    changed rule system carries its old options, and files that open today open tomorrow."""

    def read(self, reader: Reader, value: object, path: str) -> Any:
        ruleset_id = reader.read.get("ruleset")
        if not isinstance(value, Mapping):
            reader.problem(path, f"must be an object, got {show(value)}")
            return INVALID
        if not isinstance(ruleset_id, str):
            return freeze(value)  # the ruleset's own problem is reported; its keys are unknown
        checks = ruleset_for(ruleset_id).option_checks
        for key, option in value.items():
            check = checks.get(key) or next(
                (
                    other.option_checks[key]
                    for other in map(ruleset_for, RULESET_IDS)
                    if key in other.option_checks
                ),
                None,
            )
            if check is not None:
                check.read(reader, option, join(path, key))
            else:
                reader.problem(join(path, str(key)), f"unknown key (allowed: {', '.join(checks)})")
        return freeze(value)

    def write(self, value: Any) -> Any:
        return thaw(value)

    def describe(self) -> str:
        return "object (see `options`)"


# ---------------------------------------------------------------------------------------------
# Snapshots: the branching timeline


NOT_ON_A_BOARD = ("format", "version", "title", "extra", "snapshots")
"""The document's keys a snapshot's board does not hold: the file's own, not the board's."""


@dataclass(frozen=True)
class OptionalId(Kind):
    """A non-empty id, or ``null`` for none."""

    def read(self, reader: Reader, value: object, path: str) -> Any:
        return None if value is None else Text(non_empty=True).read(reader, value, path)

    def describe(self) -> str:
        return "snapshot id or null"


@dataclass(frozen=True)
class IsoTime(Kind):
    """An ISO 8601 date and time (``2026-12-01T18:30:00Z``), kept as written."""

    def read(self, reader: Reader, value: object, path: str) -> Any:
        text = Text(non_empty=True).read(reader, value, path)
        if text is INVALID:
            return INVALID
        try:
            datetime.fromisoformat(text)
        except ValueError:
            reader.problem(path, f"must be an ISO 8601 date and time, got {show(text)}")
            return INVALID
        return text

    def describe(self) -> str:
        return "ISO 8601 date and time"


@lru_cache(maxsize=1)
def board_entity() -> Entity:
    """A snapshot's board: the document's fields but those of :data:`NOT_ON_A_BOARD`, read
    with a reader of its own (its ids are its own world, not the live board's)."""
    document = document_entity(FORMAT_NAME, RULESETS)
    return Entity(
        "snapshot board",
        tuple(f for f in document.fields if f.key not in NOT_ON_A_BOARD),
        _scenario,
        check=_check_document,
        shares_values=True,
    )


@dataclass(frozen=True)
class BoardKind(Kind):
    """A snapshot's board, read as a document of its own; its problems keep their place
    inside it (``snapshots.items[0].board.units[2].models[0].x``)."""

    def read(self, reader: Reader, value: object, path: str) -> Any:
        own = Reader()
        board = own.entity(board_entity(), value, "")
        for problem in own.problems:
            reader.problem(join(path, problem.path) if problem.path else path, problem.message)
        return INVALID if board is None or own.problems else board

    def write(self, value: Any) -> Any:
        return write_entity(board_entity(), value)

    def describe(self) -> str:
        keys = ", ".join(f"`{key}`" for key in NOT_ON_A_BOARD)
        return f"object: the document's keys but {keys}"


SNAPSHOT = Entity(
    "snapshot",
    (
        Field("id", Text(non_empty=True), "the snapshot's id, unique among the snapshots"),
        Field("name", Text(non_empty=True), "shown in the timeline"),
        Field("parent", OptionalId(), "the snapshot the board branched from", default=None),
        Field("taken", IsoTime(), "when it was taken"),
        Field("board", BoardKind(), "the board as it was (see Snapshots)"),
    ),
    Snapshot,
)


def _snapshot_entries(entry: Mapping[str, Any]) -> list[tuple[int, Mapping[str, Any]]]:
    items = entry.get("items")
    if not isinstance(items, list | tuple):
        return []
    return [(i, item) for i, item in enumerate(items) if isinstance(item, Mapping)]


def _check_timeline(
    reader: Reader, entry: Mapping[str, Any], values: dict[str, Any], path: str
) -> None:
    """Snapshot ids are unique, every parent and ``current`` names a snapshot, and no chain of
    parents comes back to where it started. Snapshots with other problems still count, so one
    problem does not cascade."""
    first_at: dict[str, str] = {}
    parents: dict[str, tuple[object, str]] = {}
    for i, item in _snapshot_entries(entry):
        where = f"{path}.items[{i}]"
        ident = item.get("id")
        if not isinstance(ident, str) or not ident.strip():
            continue
        if ident in first_at:
            reader.problem(
                f"{where}.id",
                f"duplicate snapshot id {show(ident)}: already used at {first_at[ident]}",
            )
            continue
        first_at[ident] = f"{where}.id"
        parents[ident] = (item.get("parent"), f"{where}.parent")
    known = listing(first_at) or "none"
    for parent, where in parents.values():
        if isinstance(parent, str) and parent.strip() and parent not in first_at:
            reader.problem(where, f"unknown snapshot {show(parent)}; known: {known}")
    current = entry.get("current")
    if isinstance(current, str) and current.strip() and current not in first_at:
        reader.problem(f"{path}.current", f"unknown snapshot {show(current)}; known: {known}")
    reported: set[str] = set()
    for start in parents:
        chain = [start]
        parent = parents[start][0]
        while isinstance(parent, str) and parent in parents and parent not in chain:
            chain.append(parent)
            parent = parents[parent][0]
        if parent == start and not reported & set(chain):
            reported |= set(chain)
            loop = " -> ".join(show(ident) for ident in [*chain, start])
            reader.problem(parents[start][1], f"its parents form a cycle: {loop}")


SNAPSHOTS = Entity(
    "snapshots",
    (
        Field(
            "current",
            OptionalId(),
            "the snapshot the live board descends from (the next one taken branches from it)",
            default=None,
        ),
        Field("items", ListOf(Nested(SNAPSHOT)), "every snapshot, in the order taken", default=()),
    ),
    Snapshots,
    check=_check_timeline,
)


# ---------------------------------------------------------------------------------------------
# The document


@dataclass(frozen=True)
class PlayersKind(Kind):
    """Exactly two players, not of the same role."""

    def read(self, reader: Reader, value: object, path: str) -> Any:
        items = reader.array(value, path)
        if items is None:
            return INVALID
        players = [PLAYER.read(reader, item, index(path, i)) for i, item in enumerate(items)]
        if len(players) != 2:
            reader.problem(path, f"must list exactly two players, got {len(items)}")
            return INVALID
        first, second = players
        if first is INVALID or second is INVALID:
            return INVALID
        if first.role is not None and first.role == second.role:
            reader.problem(index(path, 1) + ".role", f'both players cannot be the "{first.role}"')
        return (first, second)

    def write(self, value: Any) -> Any:
        return [write_entity(PLAYER, player) for player in value]

    def describe(self) -> str:
        return "array of two players"


@dataclass(frozen=True)
class DeploymentKind(Kind):
    """A deployment map's id (``assets/deployments``) or a custom deployment object."""

    def read(self, reader: Reader, value: object, path: str) -> Any:
        if isinstance(value, str):
            from engine.deployments import deployment_ids

            known = deployment_ids()
            if value not in known:
                reader.problem(path, f"unknown deployment {show(value)}; known: {', '.join(known)}")
                return INVALID
            return value
        if not isinstance(value, Mapping):
            reader.problem(
                path,
                f"must be a deployment id or an object of zones and territories, got {show(value)}",
            )
            return INVALID
        return CUSTOM_DEPLOYMENT.read(reader, value, path)

    def write(self, value: Any) -> Any:
        return value if isinstance(value, str) else write_entity(CUSTOM_DEPLOYMENT, value)

    def describe(self) -> str:
        return "deployment map id, or object (custom deployment)"


@dataclass(frozen=True)
class GameKind(Kind):
    """The ``game`` section, checked by ``engine.game_state`` against every id of the file."""

    def read(self, reader: Reader, value: object, path: str) -> Any:
        from engine.game_state import GameIds, validate_game

        got = reader.read
        units = _valid(got.get("units")) + _valid(got.get("reserves"))
        players = got.get("players")
        ruleset = got.get("ruleset")
        ids = GameIds(
            ruleset=ruleset if isinstance(ruleset, str) else "",
            players=frozenset(p.id for p in players) if isinstance(players, tuple) else frozenset(),
            units=frozenset(u.id for u in units),
            models=frozenset(m.id for u in units for m in u.models),
            objectives=frozenset(o.id for o in _valid(got.get("objectives"))),
            markers=frozenset(m.id for m in _valid(got.get("markers"))),
            terrain=frozenset(t.id for t in _valid(got.get("terrain"))),
        )
        problems = validate_game(value, path, ids)
        reader.problems.extend(problems)
        if problems or not isinstance(value, Mapping):
            return INVALID
        return freeze(value)

    def write(self, value: Any) -> Any:
        return thaw(value)

    def describe(self) -> str:
        return "object (see Game state)"


def _valid(value: Any) -> tuple[Any, ...]:
    return value if isinstance(value, tuple) else ()


def _scenario(**values: Any) -> Any:
    from engine.model import Scenario

    return Scenario(**values)


def document_entity(format_name: str, ruleset_ids: tuple[str, ...]) -> Entity:
    """The whole document (its ``format`` name and rulesets given by ``engine.model``)."""
    return Entity(
        "document",
        (
            Field("format", Text(), "always", fixed=format_name),
            Field("version", Integer(1, MAX_COUNT), "the format's version"),
            Field("title", Text(), "shown in the app", default=""),
            Field("ruleset", Choice(ruleset_ids), "the rule system"),
            Field(
                "options",
                OptionsKind(),
                "ruleset parameters",
                default=EMPTY,
                phase=AFTER_DEPLOYMENT,
            ),
            Field("battlefield", Nested(BATTLEFIELD), "its size"),
            Field("deployment", DeploymentKind(), "the deployment", default=None),
            Field("players", PlayersKind(), "exactly two"),
            Field("units", ListOf(Nested(UNIT)), "both armies", default=()),
            Field(
                "reserves",
                ListOf(Nested(UNIT)),
                "units of the armies off the battlefield; no rule sees them",
                default=(),
            ),
            Field("terrain", ListOf(Nested(TERRAIN)), "terrain pieces", default=()),
            Field("objectives", ListOf(Nested(OBJECTIVE)), "objective markers", default=()),
            Field("markers", ListOf(Nested(MARKER)), "operation markers, tokens", default=()),
            Field(
                "annotations",
                ListOf(Nested(ANNOTATION)),
                "arrows, callouts and kept rulers for presenting a ruling; no rule reads them",
                default=(),
            ),
            Field("layout", Nested(LAYOUT), "the official layout the table is", default=None),
            Field(
                "game", GameKind(), "the moment and mission state", default=None, phase=AFTER_IDS
            ),
            EXTRA,
            Field(
                "snapshots",
                Nested(SNAPSHOTS),
                "named snapshots of the board, a branching timeline; no rule reads them",
                default=Snapshots(),
            ),
        ),
        _scenario,
        check=_check_document,
        shares_values=True,
    )


ENTITIES: tuple[Entity, ...] = (
    BATTLEFIELD,
    PLAYER,
    UNIT,
    STATUS,
    MODEL,
    CIRCLE,
    OVAL,
    RECT,
    TERRAIN,
    FEATURE,
    FLOOR,
    OBJECTIVE,
    MARKER,
    ANNOTATION,
    LAYOUT,
    CUSTOM_DEPLOYMENT,
    REGION,
    SNAPSHOTS,
    SNAPSHOT,
)
"""Every entity of the file, in the order the documentation lists them."""


# ---------------------------------------------------------------------------------------------
# Documentation


def _default_text(spec: Field) -> str:
    if spec.default is REQUIRED:
        return "required"
    if isinstance(spec.default, Derived):
        return spec.default.doc
    if isinstance(spec.default, UnitStatus):
        return "all false"
    if isinstance(spec.default, Snapshots):
        return "none"
    return f"`{json.dumps(_as_json(spec.default))}`" if spec.default is not None else "absent"


def _as_json(value: Any) -> Any:
    """A default as the JSON it would be written as."""
    return thaw(value) if isinstance(value, Mapping | tuple) else value


def _table(title: str, rows: list[str], header: str) -> str:
    ruler = "| " + " | ".join("---" for _ in header.split("|")[1:-1]) + " |"
    return "\n".join([f"#### {title}", "", header, ruler, *rows])


GameRow: TypeAlias = tuple[str, str, str, str]
"""One documented key of a ``game`` section: key, type, default, meaning."""

GAME_SECTION_ROWS: tuple[tuple[str, tuple[GameRow, ...]], ...] = (
    (
        "Game: deployment sequence (`game.deployment`)",
        (
            (
                "first",
                "player id",
                "the rule system's (CA: the Defender)",
                "the player who set up first",
            ),
            (
                "reserves",
                "array of unit ids, each once",
                "`[]`",
                "units declared in reserves before deployment: they stay in the reserves tray "
                "and are not set up",
            ),
            (
                "order",
                "array of unit ids, each once, none of `reserves`",
                "`[]`",
                "the units in the order they were set up (checked against the rule system's "
                "sequence: alternating one at a time, or whole armies)",
            ),
        ),
    ),
)
"""The documented keys of the ``game`` sections whose checks live in :mod:`engine.game_state`
(the section absent: no sequence is recorded or checked)."""


def field_tables(document: Entity) -> str:
    """The Markdown field tables of the document and every entity, and the ``options`` keys:
    the generated part of ``docs/scenario-format.md``."""
    header = "| key | type | default | meaning |"
    blocks: list[str] = []
    for entity in (document, *ENTITIES):
        rows = []
        for spec in entity.fields:
            kind = f'`"{spec.fixed}"`' if spec.fixed is not None else spec.kind.describe()
            rows.append(f"| `{spec.key}` | {kind} | {_default_text(spec)} | {spec.doc} |")
        blocks.append(_table(entity.title[0].upper() + entity.title[1:], rows, header))
    for title, game_rows in GAME_SECTION_ROWS:
        rows = [
            f"| `{key}` | {kind} | {default} | {doc} |" for key, kind, default, doc in game_rows
        ]
        blocks.append(_table(title, rows, header))
    blocks.append(_table("Options", _option_rows(), "| key | type | rule systems |"))
    return "\n\n".join(blocks) + "\n"


def _option_rows() -> list[str]:
    """One row per ``options`` key of any rule system, naming the systems that read it."""
    readers: dict[str, list[str]] = {}
    kinds: dict[str, Kind] = {}
    for ruleset_id in RULESET_IDS:
        for key, kind in ruleset_for(ruleset_id).option_checks.items():
            readers.setdefault(key, []).append(f"`{ruleset_id}`")
            kinds.setdefault(key, kind)
    return [
        f"| `{key}` | {kinds[key].describe()} | "
        f"{'all' if len(systems) == len(RULESET_IDS) else ', '.join(systems)} |"
        for key, systems in readers.items()
    ]


DOCS_BEGIN = "<!-- field tables: generated from engine/format_schema.py, do not edit -->"
DOCS_END = "<!-- end of the generated field tables -->"


def with_field_tables(text: str, document: Entity) -> str:
    """``text`` (the format's documentation) with its generated section brought up to date."""
    start = text.index(DOCS_BEGIN) + len(DOCS_BEGIN)
    end = text.index(DOCS_END)
    return text[:start] + "\n\n" + field_tables(document) + "\n" + text[end:]
