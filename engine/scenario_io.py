"""The scenario file format (``docs/scenario-format.md``): read, validate, migrate, write.

Reading collects every problem it finds, each with the JSON path of the offending value, and
raises one :class:`~engine.errors.ScenarioError` carrying them all. Writing is atomic: a file on
disk is either the old document or the new one, never half of each.

Choices made where the spec is silent (each is enforced and tested):

- A polygon written closed (last point = first) is accepted and stored open; polygons need
  three points, a non-zero area and no self-intersection (shapely says why).
- A UTF-8 byte-order mark is ignored. Files over 32 MiB, or nested over 64 levels, are refused.
- Keywords must be upper case (``"Infantry"`` is refused, not silently changed).
- A unit has at least one model. Heights, ``z`` and ranges are >= 0; base sizes, objective
  diameters and the battlefield are > 0.
- A ``home`` objective needs an ``owner``; other roles may not have one.
- The two players may not have the same ``role``.
- ``options`` keys are those of :data:`OPTION_CHECKS` (a typo is an error there too);
  ``options.deployment_variant`` picks disputed deployment values (see ``engine.deployments``).
- Ids are non-empty strings, unique across the whole document (deployment regions included).

>>> text = '''{"format": "warplan.scenario", "version": 1, "ruleset": "wh40k-ca2026",
...   "battlefield": {"width": 60, "depth": 44},
...   "players": [{"id": "red"}, {"id": "blue"}]}'''
>>> scenario = loads_scenario(text)
>>> scenario.player_ids()
('red', 'blue')
>>> scenario_to_json(scenario)["players"]
[{'id': 'red'}, {'id': 'blue'}]
>>> try:
...     loads_scenario(text.replace('"width": 60', '"width": -60'))
... except ScenarioError as error:
...     print(error)
battlefield.width: must be a positive number, got -60
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import re
import stat
import tempfile
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, TypeVar, cast

import numpy as np
import shapely

from engine.deployments import deployment_ids, variant_problems
from engine.errors import FormatVersionError, Problem, ScenarioError
from engine.game_state import GameIds, validate_game
from engine.model import (
    EMPTY,
    FORMAT_NAME,
    FORMAT_VERSION,
    RULESETS,
    TERRAIN_CATEGORIES,
    Base,
    Battlefield,
    CircleBase,
    CustomDeployment,
    DeploymentRegion,
    JSONValue,
    Marker,
    Model,
    Objective,
    ObjectiveRole,
    OvalBase,
    Player,
    Point,
    Polygon,
    RectBase,
    Ruleset,
    Scenario,
    TerrainCategory,
    TerrainFeature,
    TerrainPiece,
    Unit,
    UnitStatus,
    freeze,
    thaw,
)

MAX_FILE_BYTES = 32 * 1024 * 1024
"""Files larger than this are refused before they are read in full."""

MAX_DEPTH = 64
"""Objects and arrays nested deeper than this are refused (a file is a table, not a tree)."""

Migration = Callable[[dict[str, Any]], dict[str, Any]]

MIGRATIONS: dict[int, Migration] = {}
"""``MIGRATIONS[n]`` turns a version ``n`` document into a version ``n + 1`` one, in memory.

Version 1 is the first version, so the registry is empty today.
"""

OBJECTIVE_ROLES: tuple[ObjectiveRole, ...] = ("home", "central", "expansion", "other")
PLAYER_ROLES = ("attacker", "defender")
DEFAULT_MODEL_HEIGHT = 1.5
DEFAULT_OBJECTIVE_DIAMETER = 40.0

_DEPTH_SCAN_CHUNK = 1 << 20
_T = TypeVar("_T")
Minimum = Literal["any", "non-negative", "positive"]


# ---------------------------------------------------------------------------------------------
# Messages and paths


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _index(path: str, index: int) -> str:
    return f"{path}[{index}]"


def _show(value: object) -> str:
    """A short JSON-like rendering of a value for a message."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        if math.isinf(value):
            return "Infinity" if value > 0 else "-Infinity"
        return repr(value)
    if isinstance(value, int):
        return str(value) if value.bit_length() < 200 else "a huge integer"
    if isinstance(value, str):
        shown = json.dumps(value, ensure_ascii=False) if _is_encodable(value) else repr(value)
        return shown if len(shown) <= 60 else shown[:57] + '..."'
    if isinstance(value, Mapping):
        return "an object"
    if isinstance(value, list | tuple):
        return "an array"
    return f"a {type(value).__name__}"


def _is_encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _choices(options: Iterable[str]) -> str:
    return ", ".join(sorted(options))


def _dedupe(problems: Iterable[Problem]) -> list[Problem]:
    return list(dict.fromkeys(problems))


# ---------------------------------------------------------------------------------------------
# Raw JSON: text checks, duplicate keys, the generic tree walk


class _JSONObject(dict[str, Any]):
    """A decoded JSON object that remembers keys it saw twice."""

    duplicate_keys: tuple[str, ...] = ()


def _object_from_pairs(pairs: list[tuple[str, Any]]) -> _JSONObject:
    obj = _JSONObject()
    duplicates = []
    for key, value in pairs:
        if key in obj:
            duplicates.append(key)
        obj[key] = value
    if duplicates:
        obj.duplicate_keys = tuple(duplicates)
    return obj


def _parse_constant(name: str) -> float:
    # NaN and Infinity literals are not JSON; keep them as floats so the tree walk reports them
    # with their path instead of failing the whole parse with no location.
    return {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}[name]


_JSON_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)


def _nesting_exceeds(raw: bytes, limit: int) -> bool:
    """Whether brackets outside strings nest deeper than ``limit``: linear, no recursion."""
    stripped = _JSON_STRING.sub(b'""', raw)
    data = np.frombuffer(stripped, dtype=np.uint8)
    depth = 0
    for start in range(0, data.size, _DEPTH_SCAN_CHUNK):
        chunk = data[start : start + _DEPTH_SCAN_CHUNK]
        steps = ((chunk == ord("[")) | (chunk == ord("{"))).astype(np.int64) - (
            (chunk == ord("]")) | (chunk == ord("}"))
        ).astype(np.int64)
        running = np.cumsum(steps) + depth
        if running.size and int(running.max()) > limit:
            return True
        if running.size:
            depth = int(running[-1])
    return False


def _decode_text(data: str | bytes, source: str) -> str:
    if isinstance(data, str):
        if len(data) > MAX_FILE_BYTES:
            raise ScenarioError([Problem(source, _too_big(len(data)))])
        return data.removeprefix("\ufeff")
    if len(data) > MAX_FILE_BYTES:
        raise ScenarioError([Problem(source, _too_big(len(data)))])
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        bad = data[error.start : error.start + 1].hex()
        raise ScenarioError(
            [Problem(source, f"not UTF-8 text: invalid byte 0x{bad} at offset {error.start}")]
        ) from None
    # Windows editors like to start UTF-8 files with a byte-order mark; it carries no data.
    return text.removeprefix("\ufeff")


def _too_big(size: int) -> str:
    return f"file too large: {size} bytes, the limit is {MAX_FILE_BYTES} bytes (32 MiB)"


def _decode_json(text: str, source: str) -> Any:
    raw = text.encode("utf-8", errors="surrogatepass")
    if _nesting_exceeds(raw, MAX_DEPTH):
        raise ScenarioError(
            [Problem(source, f"nested deeper than {MAX_DEPTH} levels of objects and arrays")]
        )
    try:
        return json.loads(
            text, object_pairs_hook=_object_from_pairs, parse_constant=_parse_constant
        )
    except json.JSONDecodeError as error:
        raise ScenarioError(
            [
                Problem(
                    source,
                    f"not valid JSON: {error.msg} at line {error.lineno} column {error.colno}",
                )
            ]
        ) from None
    except (ValueError, RecursionError) as error:
        raise ScenarioError([Problem(source, f"not valid JSON: {error}")]) from None


def _is_polygon_list(items: Sequence[Any]) -> bool:
    """Whether a terrain ``area`` array lists polygons (its first item is an array of arrays)."""
    if not items:
        return False
    first = items[0]
    return isinstance(first, list | tuple) and bool(first) and isinstance(first[0], list | tuple)


def _non_finite(value: float) -> str:
    return f"must be a finite number, got {_show(value)}"


def _scan_tree(data: object, problems: list[Problem]) -> bool:
    """Walk any value without recursion, checking that it is plain, finite, shallow JSON.

    Reports duplicate keys, non-finite numbers, lone surrogates, non-JSON values and excessive
    nesting. Returns False when the value cannot be examined further (too deep, not JSON).
    """
    sound = True
    stack: list[tuple[object, str, int]] = [(data, "", 1)]
    while stack:
        value, path, depth = stack.pop()
        if isinstance(value, Mapping | list | tuple) and depth > MAX_DEPTH:
            problems.append(
                Problem(path, f"nested deeper than {MAX_DEPTH} levels of objects and arrays")
            )
            sound = False
            continue
        if isinstance(value, Mapping):
            for key in getattr(value, "duplicate_keys", ()):
                problems.append(Problem(_join(path, key), "duplicate key in one JSON object"))
            children: list[tuple[object, str, int]] = []
            for key, child in value.items():
                if not isinstance(key, str):
                    problems.append(Problem(path, f"object keys must be text, got {_show(key)}"))
                    sound = False
                    continue
                if not _is_encodable(key):
                    problems.append(Problem(path, "object key is not valid Unicode text"))
                    continue
                children.append((child, _join(path, key), depth + 1))
            stack.extend(reversed(children))
        elif isinstance(value, list | tuple):
            stack.extend(
                (child, _index(path, i), depth + 1) for i, child in reversed(list(enumerate(value)))
            )
        elif isinstance(value, str):
            if not _is_encodable(value):
                problems.append(Problem(path, "must be valid Unicode text (lone surrogate)"))
        elif isinstance(value, float):
            if not math.isfinite(value):
                problems.append(Problem(path, _non_finite(value)))
        elif value is None or isinstance(value, bool | int):
            continue
        else:
            problems.append(Problem(path, f"is not a JSON value, got {_show(value)}"))
            sound = False
    return sound


# ---------------------------------------------------------------------------------------------
# Versions


def migrate(data: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of ``data`` migrated in memory to this program's format version.

    Raises :class:`FormatVersionError` for a newer version or one with no migration path.

    >>> migrate({"format": "warplan.scenario", "version": 1})["version"]
    1
    """
    document: dict[str, Any] = thaw(data)
    version = document.get("version")
    if isinstance(version, bool) or not isinstance(version, int):
        raise FormatVersionError([Problem("version", f"must be an integer, got {_show(version)}")])
    if version > FORMAT_VERSION:
        raise FormatVersionError(
            [
                Problem(
                    "version",
                    f"written by a newer Warplan: version {version}, this program reads up to "
                    f"{FORMAT_VERSION}",
                )
            ]
        )
    while version < FORMAT_VERSION:
        step = MIGRATIONS.get(version)
        if step is None:
            raise FormatVersionError(
                [
                    Problem(
                        "version",
                        f"cannot read version {version}: no migration from it to version "
                        f"{version + 1}",
                    )
                ]
            )
        try:
            document = step(document)
        except Exception as error:
            # A migration reads an old file nobody has validated yet: whatever goes wrong in it
            # is a problem with that file, reported as such rather than as a crash.
            raise FormatVersionError(
                [
                    Problem(
                        "version",
                        f"cannot migrate version {version} to version {version + 1}: "
                        f"{type(error).__name__}: {error}",
                    )
                ]
            ) from error
        version += 1
        document["version"] = version
    return document


# ---------------------------------------------------------------------------------------------
# Typed reading


@dataclass
class _Reader:
    """Validates a (migrated) document and builds the model, collecting every problem."""

    problems: list[Problem] = field(default_factory=list)
    ids: dict[str, str] = field(default_factory=dict)
    references: list[tuple[str, str, str]] = field(default_factory=list)

    def problem(self, path: str, message: str) -> None:
        self.problems.append(Problem(path, message))

    # Primitive values ---------------------------------------------------------------------

    def obj(
        self, value: object, path: str, allowed: Sequence[str], required: Sequence[str] = ()
    ) -> Mapping[str, Any] | None:
        if not isinstance(value, Mapping):
            self.problem(path, f"must be an object, got {_show(value)}")
            return None
        for key in value:
            if isinstance(key, str) and key not in allowed:
                self.problem(_join(path, key), f"unknown key (allowed: {', '.join(allowed)})")
        for key in required:
            if key not in value:
                self.problem(_join(path, key), "missing required key")
        return value

    def array(self, value: object, path: str) -> Sequence[Any] | None:
        if not isinstance(value, list | tuple):
            self.problem(path, f"must be an array, got {_show(value)}")
            return None
        return value

    def text(self, value: object, path: str, *, non_empty: bool = False) -> str | None:
        if not isinstance(value, str):
            self.problem(path, f"must be a string, got {_show(value)}")
            return None
        if non_empty and not value.strip():
            self.problem(path, "must not be empty")
            return None
        return value

    def choice(self, value: object, path: str, options: Sequence[str]) -> str | None:
        if not isinstance(value, str) or value not in options:
            self.problem(path, f"must be one of {', '.join(options)}; got {_show(value)}")
            return None
        return value

    def flag(self, value: object, path: str) -> bool | None:
        if not isinstance(value, bool):
            self.problem(path, f"must be true or false, got {_show(value)}")
            return None
        return value

    def number(self, value: object, path: str, minimum: Minimum = "any") -> float | None:
        """A finite number; ``minimum`` is ``"any"``, ``"non-negative"`` or ``"positive"``."""
        kind = {"any": "a", "non-negative": "a non-negative", "positive": "a positive"}[minimum]
        if isinstance(value, bool) or not isinstance(value, int | float):
            self.problem(path, f"must be {kind} number, got {_show(value)}")
            return None
        try:
            finite = math.isfinite(value)
        except OverflowError:
            finite = False
        if not finite:
            self.problem(path, f"must be a finite number, got {_show(value)}")
            return None
        if (minimum == "positive" and value <= 0) or (minimum == "non-negative" and value < 0):
            self.problem(path, f"must be {kind} number, got {_show(value)}")
            return None
        # Kept as given (an int stays an int), so a file round-trips to the same text.
        return value

    def integer(
        self, value: object, path: str, lowest: int | None = None, highest: int | None = None
    ) -> int | None:
        if isinstance(value, bool) or not isinstance(value, int):
            self.problem(path, f"must be an integer, got {_show(value)}")
            return None
        if (lowest is not None and value < lowest) or (highest is not None and value > highest):
            if highest is None:
                self.problem(path, f"must be an integer of at least {lowest}, got {value}")
            else:
                self.problem(path, f"must be an integer from {lowest} to {highest}, got {value}")
            return None
        return value

    def keywords(self, value: object, path: str) -> tuple[str, ...] | None:
        items = self.array(value, path)
        if items is None:
            return None
        words: list[str] = []
        for i, item in enumerate(items):
            word = self.text(item, _index(path, i), non_empty=True)
            if word is None:
                continue
            if word != word.upper():
                self.problem(_index(path, i), f"keywords are upper case, got {_show(word)}")
                continue
            words.append(word)
        return tuple(words)

    def extra(self, value: object, path: str) -> Mapping[str, JSONValue]:
        if not isinstance(value, Mapping):
            self.problem(path, f"must be an object, got {_show(value)}")
            return EMPTY
        frozen: Mapping[str, JSONValue] = freeze(value)
        return frozen

    def identifier(self, value: object, path: str) -> str | None:
        ident = self.text(value, path, non_empty=True)
        if ident is None:
            return None
        first = self.ids.get(ident)
        if first is not None:
            self.problem(path, f"duplicate id {_show(ident)}: already used at {first}")
        else:
            self.ids[ident] = path
        return ident

    def reference(self, value: object, path: str, kind: str) -> str | None:
        """A reference to an id of ``kind`` (checked once every id is known)."""
        ref = self.text(value, path, non_empty=True)
        if ref is not None:
            self.references.append((ref, path, kind))
        return ref

    def point(self, value: object, path: str) -> Point | None:
        pair = self.array(value, path)
        if pair is None:
            return None
        if len(pair) != 2:
            self.problem(path, f"must be a point [x, y], got an array of {len(pair)} values")
            return None
        x = self.number(pair[0], _index(path, 0))
        y = self.number(pair[1], _index(path, 1))
        if x is None or y is None:
            return None
        return (x, y)

    def polygon(self, value: object, path: str) -> Polygon | None:
        items = self.array(value, path)
        if items is None:
            return None
        points = [self.point(item, _index(path, i)) for i, item in enumerate(items)]
        if any(p is None for p in points):
            return None
        ring = cast(list[Point], points)
        # A ring written closed (last point = first) is the same polygon; store it open.
        if len(ring) > 1 and ring[0] == ring[-1]:
            ring = ring[:-1]
        if len(ring) < 3:
            self.problem(path, f"must have at least 3 points, got {len(ring)}")
            return None
        shape = shapely.Polygon(ring)
        if shape.convex_hull.area <= 0.0:
            self.problem(path, "must enclose a non-zero area (its points lie on one line)")
            return None
        if not shapely.is_valid(shape):
            self.problem(path, f"must be a valid polygon: {shapely.is_valid_reason(shape)}")
            return None
        return tuple(ring)

    # Whole documents ----------------------------------------------------------------------

    def document(self, data: Mapping[str, Any]) -> Scenario | None:
        doc = self.obj(data, "", DOCUMENT_KEYS, required=REQUIRED_DOCUMENT_KEYS)
        if doc is None:
            return None
        if "format" in doc and doc["format"] != FORMAT_NAME:
            self.problem("format", f'must be "{FORMAT_NAME}", got {_show(doc["format"])}')
        title = self.text(doc.get("title", ""), "title") or ""
        ruleset = self.choice(doc.get("ruleset"), "ruleset", RULESETS) if "ruleset" in doc else None
        battlefield = self.battlefield(doc["battlefield"]) if "battlefield" in doc else None
        players = self.players(doc["players"]) if "players" in doc else None
        deployment = self.deployment(doc["deployment"]) if "deployment" in doc else None
        options = self.options(doc.get("options", {}), deployment)
        units = self.each(doc.get("units", []), "units", self.unit)
        terrain = self.each(doc.get("terrain", []), "terrain", self.terrain_piece)
        objectives = self.each(doc.get("objectives", []), "objectives", self.objective)
        markers = self.each(doc.get("markers", []), "markers", self.marker)
        extra = self.extra(doc["extra"], "extra") if "extra" in doc else EMPTY
        self.check_references()
        game: Mapping[str, JSONValue] | None = None
        if "game" in doc:
            game = self.game(
                doc["game"], players, units, objectives, markers, terrain, ruleset
            )
        if self.problems or ruleset is None or battlefield is None or players is None:
            return None
        return Scenario(
            ruleset=cast(Ruleset, ruleset),
            players=players,
            battlefield=battlefield,
            title=title,
            options=options,
            deployment=deployment,
            units=units,
            terrain=terrain,
            objectives=objectives,
            markers=markers,
            game=game,
            extra=extra,
            version=FORMAT_VERSION,
        )

    def each(
        self, value: object, path: str, read: Callable[[object, str], _T | None]
    ) -> tuple[_T, ...]:
        items = self.array(value, path)
        if items is None:
            return ()
        read_items = [read(item, _index(path, i)) for i, item in enumerate(items)]
        return tuple(item for item in read_items if item is not None)

    def battlefield(self, value: object) -> Battlefield | None:
        table = self.obj(value, "battlefield", ("width", "depth"), ("width", "depth"))
        if table is None or "width" not in table or "depth" not in table:
            return None
        width = self.number(table["width"], "battlefield.width", "positive")
        depth = self.number(table["depth"], "battlefield.depth", "positive")
        if width is None or depth is None:
            return None
        return Battlefield(width, depth)

    def players(self, value: object) -> tuple[Player, Player] | None:
        items = self.array(value, "players")
        if items is None:
            return None
        players = [self.player(item, _index("players", i)) for i, item in enumerate(items)]
        if len(items) != 2:
            self.problem("players", f"must list exactly two players, got {len(items)}")
            return None
        first, second = players
        if first is None or second is None:
            return None
        if first.role is not None and first.role == second.role:
            self.problem("players[1].role", f'both players cannot be the "{first.role}"')
        return first, second

    def player(self, value: object, path: str) -> Player | None:
        entry = self.obj(value, path, ("id", "name", "role", "extra"), ("id",))
        if entry is None:
            return None
        ident = self.identifier(entry["id"], _join(path, "id")) if "id" in entry else None
        name = self.text(entry.get("name", ""), _join(path, "name"))
        role = None
        if "role" in entry:
            role = self.choice(entry["role"], _join(path, "role"), PLAYER_ROLES)
        extra = self.extra(entry["extra"], _join(path, "extra")) if "extra" in entry else EMPTY
        if ident is None or name is None:
            return None
        return Player(ident, name, cast(Any, role), extra)

    def deployment(self, value: object) -> str | CustomDeployment | None:
        if isinstance(value, str):
            known = deployment_ids()
            if value not in known:
                self.problem(
                    "deployment",
                    f"unknown deployment {_show(value)}; known: {', '.join(known)}",
                )
                return None
            return value
        if not isinstance(value, Mapping):
            self.problem(
                "deployment",
                f"must be a deployment id or an object of zones and territories, "
                f"got {_show(value)}",
            )
            return None
        custom = self.obj(value, "deployment", ("zones", "territories", "extra"))
        if custom is None:
            return None
        zones = self.each(custom.get("zones", []), "deployment.zones", self.region)
        territories = self.each(
            custom.get("territories", []), "deployment.territories", self.region
        )
        extra = self.extra(custom["extra"], "deployment.extra") if "extra" in custom else EMPTY
        return CustomDeployment(zones, territories, extra)

    def region(self, value: object, path: str) -> DeploymentRegion | None:
        entry = self.obj(
            value, path, ("id", "player", "polygon", "extra"), ("id", "player", "polygon")
        )
        if entry is None:
            return None
        ident = self.identifier(entry["id"], _join(path, "id")) if "id" in entry else None
        player = self.reference(entry.get("player"), _join(path, "player"), "player")
        polygon = self.polygon(entry.get("polygon"), _join(path, "polygon"))
        extra = self.extra(entry["extra"], _join(path, "extra")) if "extra" in entry else EMPTY
        if ident is None or player is None or polygon is None:
            return None
        return DeploymentRegion(ident, player, polygon, extra)

    def options(
        self, value: object, deployment: str | CustomDeployment | None
    ) -> Mapping[str, JSONValue]:
        options = self.obj(value, "options", tuple(OPTION_CHECKS))
        if options is None:
            return EMPTY
        for key, option in options.items():
            check = OPTION_CHECKS.get(key)
            if check is not None:
                check(self, option, _join("options", key))
        if "deployment_variant" in options:
            self.deployment_variant(options["deployment_variant"], deployment)
        frozen: Mapping[str, JSONValue] = freeze(options)
        return frozen

    def deployment_variant(self, value: object, deployment: str | CustomDeployment | None) -> None:
        path = "options.deployment_variant"
        if not isinstance(deployment, str):
            self.problem(path, "applies only to a deployment map given by its id")
            return
        for message in variant_problems(deployment, value):
            self.problem(path, message)

    def unit(self, value: object, path: str) -> Unit | None:
        entry = self.obj(value, path, UNIT_KEYS, ("id", "player", "models"))
        if entry is None:
            return None
        at = _join
        ident = self.identifier(entry["id"], at(path, "id")) if "id" in entry else None
        player = self.reference(entry.get("player"), at(path, "player"), "player")
        name = self.text(entry.get("name", ""), at(path, "name"))
        keywords = self.keywords(entry.get("keywords", []), at(path, "keywords"))
        oc = self.integer(entry.get("oc", 1), at(path, "oc"), lowest=0)
        move = (
            self.number(entry["move"], at(path, "move"), "non-negative")
            if "move" in entry
            else None
        )
        status = self.status(entry.get("status", {}), at(path, "status"))
        scoring = self.flag(entry["scoring"], at(path, "scoring")) if "scoring" in entry else None
        denial = self.flag(entry["denial"], at(path, "denial")) if "denial" in entry else None
        extra = self.extra(entry["extra"], at(path, "extra")) if "extra" in entry else EMPTY
        models: tuple[Model, ...] = ()
        if "models" in entry:
            listed = self.array(entry["models"], at(path, "models"))
            if listed is not None and not listed:
                self.problem(at(path, "models"), "a unit must have at least one model")
            models = self.each(entry["models"], at(path, "models"), self.model)
        if None in (ident, player, name, keywords, oc, status) or not models:
            return None
        return Unit(
            id=cast(str, ident),
            player=cast(str, player),
            models=models,
            name=cast(str, name),
            keywords=cast(tuple[str, ...], keywords),
            oc=cast(int, oc),
            move=move,
            status=cast(UnitStatus, status),
            scoring=scoring,
            denial=denial,
            extra=extra,
        )

    def status(self, value: object, path: str) -> UnitStatus | None:
        entry = self.obj(value, path, ("battle_shocked", "falling_back", "extra"))
        if entry is None:
            return None
        shocked = self.flag(entry.get("battle_shocked", False), _join(path, "battle_shocked"))
        falling_back = self.flag(entry.get("falling_back", False), _join(path, "falling_back"))
        extra = self.extra(entry["extra"], _join(path, "extra")) if "extra" in entry else EMPTY
        if shocked is None or falling_back is None:
            return None
        return UnitStatus(shocked, falling_back, extra)

    def model(self, value: object, path: str) -> Model | None:
        entry = self.obj(value, path, MODEL_KEYS, ("id", "x", "y", "base"))
        if entry is None:
            return None
        at = _join
        ident = self.identifier(entry["id"], at(path, "id")) if "id" in entry else None
        x = self.number(entry.get("x"), at(path, "x")) if "x" in entry else None
        y = self.number(entry.get("y"), at(path, "y")) if "y" in entry else None
        base = self.base(entry["base"], at(path, "base")) if "base" in entry else None
        z = self.number(entry.get("z", 0.0), at(path, "z"), "non-negative")
        rotation = self.number(entry.get("rotation", 0.0), at(path, "rotation"))
        height = self.number(
            entry.get("height", DEFAULT_MODEL_HEIGHT), at(path, "height"), "non-negative"
        )
        wounds = self.integer(entry["wounds"], at(path, "wounds"), 0) if "wounds" in entry else None
        oc = self.integer(entry["oc"], at(path, "oc"), 0) if "oc" in entry else None
        keywords = self.keywords(entry.get("keywords", []), at(path, "keywords"))
        extra = self.extra(entry["extra"], at(path, "extra")) if "extra" in entry else EMPTY
        if None in (ident, x, y, base, z, rotation, height, keywords):
            return None
        if ("wounds" in entry and wounds is None) or ("oc" in entry and oc is None):
            return None
        return Model(
            id=cast(str, ident),
            x=cast(float, x),
            y=cast(float, y),
            base=cast(Base, base),
            z=cast(float, z),
            rotation=cast(float, rotation),
            height=cast(float, height),
            wounds=wounds,
            oc=oc,
            keywords=cast(tuple[str, ...], keywords),
            extra=extra,
        )

    def base(self, value: object, path: str) -> Base | None:
        if not isinstance(value, Mapping):
            self.problem(path, f"must be an object, got {_show(value)}")
            return None
        shape = value.get("shape")
        if shape == "circle":
            entry = self.obj(value, path, ("shape", "diameter"), ("diameter",))
            if entry is None or "diameter" not in entry:
                return None
            diameter = self.number(entry["diameter"], _join(path, "diameter"), "positive")
            return None if diameter is None else CircleBase(diameter)
        if shape in ("oval", "rect"):
            entry = self.obj(value, path, ("shape", "length", "width"), ("length", "width"))
            if entry is None or "length" not in entry or "width" not in entry:
                return None
            length = self.number(entry["length"], _join(path, "length"), "positive")
            width = self.number(entry["width"], _join(path, "width"), "positive")
            if length is None or width is None:
                return None
            return OvalBase(length, width) if shape == "oval" else RectBase(length, width)
        if "shape" not in value:
            self.problem(_join(path, "shape"), "missing required key")
        else:
            self.choice(shape, _join(path, "shape"), ("circle", "oval", "rect"))
        return None

    def terrain_piece(self, value: object, path: str) -> TerrainPiece | None:
        entry = self.obj(value, path, TERRAIN_KEYS, ("id", "area"))
        if entry is None:
            return None
        at = _join
        ident = self.identifier(entry["id"], at(path, "id")) if "id" in entry else None
        footprints = self.terrain_area(entry["area"], at(path, "area")) if "area" in entry else None
        kind = self.text(entry.get("kind", ""), at(path, "kind"))
        impassable = self.flag(entry.get("impassable", False), at(path, "impassable"))
        features = self.each(entry.get("features", []), at(path, "features"), self.feature)
        # An area holding light or dense terrain is obscuring unless the file says otherwise.
        categorised = any(f.category is not None for f in features)
        obscuring = self.flag(entry.get("obscuring", categorised), at(path, "obscuring"))
        extra = self.extra(entry["extra"], at(path, "extra")) if "extra" in entry else EMPTY
        if None in (ident, footprints, kind, obscuring, impassable):
            return None
        first, *others = cast(tuple[Polygon, ...], footprints)
        return TerrainPiece(
            id=cast(str, ident),
            area=first,
            kind=cast(str, kind),
            obscuring=cast(bool, obscuring),
            impassable=cast(bool, impassable),
            features=features,
            extra=extra,
            other_footprints=tuple(others),
        )

    def terrain_area(self, value: object, path: str) -> tuple[Polygon, ...] | None:
        """One polygon, or a list of polygons forming one terrain area (each checked alone)."""
        items = self.array(value, path)
        if items is None:
            return None
        if not _is_polygon_list(items):
            polygon = self.polygon(items, path)
            return None if polygon is None else (polygon,)
        polygons = [self.polygon(item, _index(path, i)) for i, item in enumerate(items)]
        if any(p is None for p in polygons):
            return None
        return tuple(cast(list[Polygon], polygons))

    def feature(self, value: object, path: str) -> TerrainFeature | None:
        entry = self.obj(
            value, path, ("shape", "height", "z", "solid", "category", "extra"), ("shape", "height")
        )
        if entry is None:
            return None
        at = _join
        shape = self.polygon(entry["shape"], at(path, "shape")) if "shape" in entry else None
        height = (
            self.number(entry["height"], at(path, "height"), "non-negative")
            if "height" in entry
            else None
        )
        z = self.number(entry.get("z", 0.0), at(path, "z"), "non-negative")
        category = (
            self.choice(entry["category"], at(path, "category"), TERRAIN_CATEGORIES)
            if "category" in entry
            else None
        )
        # Light terrain does not block sight by default; dense terrain (and no label) does.
        solid = self.flag(entry.get("solid", category != "light"), at(path, "solid"))
        extra = self.extra(entry["extra"], at(path, "extra")) if "extra" in entry else EMPTY
        if shape is None or height is None or z is None or solid is None:
            return None
        if "category" in entry and category is None:
            return None
        return TerrainFeature(
            shape, height, z, solid, extra, category=cast(TerrainCategory | None, category)
        )

    def objective(self, value: object, path: str) -> Objective | None:
        entry = self.obj(value, path, OBJECTIVE_KEYS, ("id", "x", "y"))
        if entry is None:
            return None
        at = _join
        ident = self.identifier(entry["id"], at(path, "id")) if "id" in entry else None
        x = self.number(entry["x"], at(path, "x")) if "x" in entry else None
        y = self.number(entry["y"], at(path, "y")) if "y" in entry else None
        role = self.choice(entry.get("role", "other"), at(path, "role"), OBJECTIVE_ROLES)
        owner = (
            self.reference(entry["owner"], at(path, "owner"), "player")
            if "owner" in entry
            else None
        )
        if role == "home" and "owner" not in entry:
            self.problem(at(path, "owner"), "a home objective needs an owner (a player id)")
        if role not in (None, "home") and "owner" in entry:
            self.problem(at(path, "owner"), f"only home objectives have an owner, this is {role}")
        diameter = self.number(
            entry.get("diameter", DEFAULT_OBJECTIVE_DIAMETER), at(path, "diameter"), "positive"
        )
        z = self.number(entry.get("z", 0.0), at(path, "z"), "non-negative")
        terrain = (
            self.reference(entry["terrain"], at(path, "terrain"), "terrain")
            if "terrain" in entry
            else None
        )
        extra = self.extra(entry["extra"], at(path, "extra")) if "extra" in entry else EMPTY
        if None in (ident, x, y, role, diameter, z):
            return None
        return Objective(
            id=cast(str, ident),
            x=cast(float, x),
            y=cast(float, y),
            role=cast(ObjectiveRole, role),
            owner=owner,
            diameter=cast(float, diameter),
            z=cast(float, z),
            terrain=terrain,
            extra=extra,
        )

    def marker(self, value: object, path: str) -> Marker | None:
        entry = self.obj(
            value, path, ("id", "kind", "player", "x", "y", "extra"), ("id", "kind", "x", "y")
        )
        if entry is None:
            return None
        at = _join
        ident = self.identifier(entry["id"], at(path, "id")) if "id" in entry else None
        kind = (
            self.text(entry["kind"], at(path, "kind"), non_empty=True) if "kind" in entry else None
        )
        x = self.number(entry["x"], at(path, "x")) if "x" in entry else None
        y = self.number(entry["y"], at(path, "y")) if "y" in entry else None
        player = (
            self.reference(entry["player"], at(path, "player"), "player")
            if "player" in entry
            else None
        )
        extra = self.extra(entry["extra"], at(path, "extra")) if "extra" in entry else EMPTY
        if ident is None or kind is None or x is None or y is None:
            return None
        return Marker(ident, kind, x, y, player, extra)

    def game(
        self,
        value: object,
        players: tuple[Player, Player] | None,
        units: tuple[Unit, ...],
        objectives: tuple[Objective, ...],
        markers: tuple[Marker, ...],
        terrain: tuple[TerrainPiece, ...],
        ruleset: str | None = None,
    ) -> Mapping[str, JSONValue] | None:
        ids = GameIds(
            ruleset=ruleset or "",
            players=frozenset(p.id for p in players or ()),
            units=frozenset(u.id for u in units),
            models=frozenset(m.id for u in units for m in u.models),
            objectives=frozenset(o.id for o in objectives),
            markers=frozenset(m.id for m in markers),
            terrain=frozenset(t.id for t in terrain),
        )
        self.problems.extend(validate_game(value, "game", ids))
        if not isinstance(value, Mapping):
            return None
        frozen: Mapping[str, JSONValue] = freeze(value)
        return frozen

    def check_references(self) -> None:
        # Ids of elements that failed validation still count, so that one problem does not
        # cascade into "unknown" references to it.
        known = {
            kind: {ident for ident, path in self.ids.items() if pattern.fullmatch(path)}
            for kind, pattern in _ID_PATHS.items()
        }
        for ref, path, kind in self.references:
            if ref not in known[kind]:
                self.problem(
                    path,
                    f"unknown {kind} {_show(ref)}; known: {_choices(known[kind]) or 'none'}",
                )


_ID_PATHS = {
    "player": re.compile(r"players\[\d+\]\.id"),
    "terrain": re.compile(r"terrain\[\d+\]\.id"),
}


OptionCheck = Callable[[_Reader, object, str], None]


def _distance(reader: _Reader, value: object, path: str) -> None:
    reader.number(value, path, "non-negative")


def _positive(reader: _Reader, value: object, path: str) -> None:
    reader.number(value, path, "positive")


def _flag(reader: _Reader, value: object, path: str) -> None:
    reader.flag(value, path)


def _player(reader: _Reader, value: object, path: str) -> None:
    reader.reference(value, path, "player")


def _one_of(*options: str) -> OptionCheck:
    def check(reader: _Reader, value: object, path: str) -> None:
        reader.choice(value, path, options)

    return check


def _mission(reader: _Reader, value: object, path: str) -> None:
    if isinstance(value, bool) or not isinstance(value, str | int):
        reader.problem(path, f"must be a mission id, name or number, got {_show(value)}")


def _names(reader: _Reader, value: object, path: str) -> None:
    items = reader.array(value, path)
    for i, item in enumerate(items or ()):
        reader.text(item, _index(path, i), non_empty=True)


def _table_edges(reader: _Reader, value: object, path: str) -> None:
    if not isinstance(value, Mapping):
        reader.problem(path, f"must map player ids to edges, got {_show(value)}")
        return
    for player, edge in value.items():
        reader.references.append((str(player), _join(path, str(player)), "player"))
        reader.choice(edge, _join(path, str(player)), EDGE_NAMES)


def _checked_with_the_deployment(reader: _Reader, value: object, path: str) -> None:
    """Checked once the deployment is known (the choices depend on the map)."""


EDGE_NAMES = ("south", "north", "west", "east")

OPTION_CHECKS: dict[str, OptionCheck] = {
    # Shared by the rulesets (docs/scenario-format.md).
    "objective_range": _distance,
    "contest_range": _distance,
    "engagement_range": _distance,
    "objective_measure": _one_of("centre", "edge"),
    "vertical_range": _distance,
    "engagement_vertical_range": _distance,
    # Deployment maps (engine.deployments).
    "deployment_variant": _checked_with_the_deployment,
    # Scrollhammer (engine.rulesets.scrollhammer).
    "mission": _mission,
    "table_halves": _one_of("long-edge", "diagonal"),
    "diagonal": _one_of("SW-NE", "NW-SE"),
    "table_edges": _table_edges,
    "night_fighting_measure": _one_of("closest", "farthest"),
    "objective_nudge_metric": _one_of("total", "largest"),
    "section_size": _positive,
    "relic_diameter": _positive,
    "base_contact": _distance,
    "night_fighting_turn1_lasts": _flag,
    "centre_clear_radius": _distance,
    # Shared Scenario Modules (engine.rulesets.shared_modules).
    "modules": _names,
    "deploys_first": _player,
    "defense_range": _distance,
    "formation_edge_depth": _distance,
    "formation_coherency": _distance,
    "formation_unit_spacing": _distance,
    "formation_edge_measure": _one_of("wholly", "any"),
    "scout_follow_distance": _distance,
    "annihilation_counts_undeployed": _flag,
    # Line of sight (engine.visibility): whether obscuring terrain areas block sight.
    "obscuring": _one_of("block", "cover-only"),
}
"""Known ``options`` keys and their checks; a new ruleset parameter is one entry here.

Values the rules modules define (a mission's id, which modules exist) are checked there; here
only their type, so that a typo in a key or a wrong type is caught when the file is read.
"""

DOCUMENT_KEYS = (
    "format",
    "version",
    "title",
    "ruleset",
    "options",
    "battlefield",
    "deployment",
    "players",
    "units",
    "terrain",
    "objectives",
    "markers",
    "game",
    "extra",
)
REQUIRED_DOCUMENT_KEYS = ("format", "version", "ruleset", "battlefield", "players")
UNIT_KEYS = (
    "id",
    "player",
    "name",
    "keywords",
    "oc",
    "move",
    "status",
    "scoring",
    "denial",
    "models",
    "extra",
)
MODEL_KEYS = (
    "id",
    "x",
    "y",
    "z",
    "rotation",
    "base",
    "height",
    "wounds",
    "oc",
    "keywords",
    "extra",
)
TERRAIN_KEYS = ("id", "kind", "area", "obscuring", "impassable", "features", "extra")
OBJECTIVE_KEYS = ("id", "x", "y", "z", "role", "owner", "diameter", "terrain", "extra")


# ---------------------------------------------------------------------------------------------
# Public reading API


def parse_scenario(data: object, source: str = "") -> Scenario:
    """Validate a decoded JSON document (or the same structure in Python) and build it.

    ``source`` names where the data came from; it is the path of problems about the whole
    document. Raises :class:`ScenarioError` listing every problem, or
    :class:`FormatVersionError` for a file from a newer Warplan.
    """
    problems: list[Problem] = []
    if not _scan_tree(data, problems):
        raise ScenarioError(_dedupe(problems))
    if not isinstance(data, Mapping):
        problems.append(Problem(source, f"the document must be a JSON object, got {_show(data)}"))
        raise ScenarioError(problems)
    if "version" not in data:
        problems.append(Problem("version", "missing required key"))
        raise ScenarioError(_dedupe(problems))
    try:
        document = migrate(data)
    except FormatVersionError as error:
        raise FormatVersionError(_dedupe([*problems, *error.problems])) from None
    reader = _Reader(problems=problems)
    scenario = reader.document(document)
    if scenario is None or reader.problems:
        if not reader.problems:
            reader.problem(source, "not a valid scenario")
        raise ScenarioError(_dedupe(reader.problems))
    return scenario


def loads_scenario(text: str | bytes, source: str = "") -> Scenario:
    """Read a scenario from JSON text (``str``, or ``bytes`` that must be UTF-8)."""
    return parse_scenario(_decode_json(_decode_text(text, source), source), source)


def load_scenario(path: str | os.PathLike[str]) -> Scenario:
    """Read a ``.warplan.json`` file; any failure to read it is a :class:`ScenarioError`."""
    source = str(path)
    try:
        with open(path, "rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            if size > MAX_FILE_BYTES:
                raise ScenarioError([Problem(source, _too_big(size))])
            # Read one byte past the limit: a file that grows (or lies about its size) is caught.
            raw = handle.read(MAX_FILE_BYTES + 1)
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise ScenarioError([Problem(source, f"cannot read the file: {reason}")]) from None
    return loads_scenario(raw, source)


def validate_path(path: str | os.PathLike[str]) -> list[Problem]:
    """Every problem with the scenario file at ``path`` (an empty list when it is valid)."""
    try:
        load_scenario(path)
    except ScenarioError as error:
        return list(error.problems)
    return []


# ---------------------------------------------------------------------------------------------
# Writing


def _points(polygon: Polygon) -> list[list[float]]:
    return [[x, y] for x, y in polygon]


def _with_extra(entry: dict[str, Any], extra: Mapping[str, JSONValue]) -> dict[str, Any]:
    if extra:
        entry["extra"] = thaw(extra)
    return entry


def _base_json(base: Base) -> dict[str, Any]:
    if isinstance(base, CircleBase):
        return {"shape": "circle", "diameter": base.diameter}
    shape = "oval" if isinstance(base, OvalBase) else "rect"
    return {"shape": shape, "length": base.length, "width": base.width}


def _model_json(model: Model) -> dict[str, Any]:
    entry: dict[str, Any] = {"id": model.id, "x": model.x, "y": model.y}
    if model.z != 0:
        entry["z"] = model.z
    if model.rotation != 0:
        entry["rotation"] = model.rotation
    entry["base"] = _base_json(model.base)
    if model.height != DEFAULT_MODEL_HEIGHT:
        entry["height"] = model.height
    if model.wounds is not None:
        entry["wounds"] = model.wounds
    if model.oc is not None:
        entry["oc"] = model.oc
    if model.keywords:
        entry["keywords"] = list(model.keywords)
    return _with_extra(entry, model.extra)


def _unit_json(unit: Unit) -> dict[str, Any]:
    entry: dict[str, Any] = {"id": unit.id, "player": unit.player}
    if unit.name:
        entry["name"] = unit.name
    if unit.keywords:
        entry["keywords"] = list(unit.keywords)
    if unit.oc != 1:
        entry["oc"] = unit.oc
    if unit.move is not None:
        entry["move"] = unit.move
    status: dict[str, Any] = {}
    if unit.status.battle_shocked:
        status["battle_shocked"] = True
    if unit.status.falling_back:
        status["falling_back"] = True
    _with_extra(status, unit.status.extra)
    if status:
        entry["status"] = status
    if unit.scoring is not None:
        entry["scoring"] = unit.scoring
    if unit.denial is not None:
        entry["denial"] = unit.denial
    entry["models"] = [_model_json(m) for m in unit.models]
    return _with_extra(entry, unit.extra)


def _terrain_json(piece: TerrainPiece) -> dict[str, Any]:
    entry: dict[str, Any] = {"id": piece.id}
    if piece.kind:
        entry["kind"] = piece.kind
    if piece.other_footprints:
        entry["area"] = [_points(polygon) for polygon in piece.footprints]
    else:
        entry["area"] = _points(piece.area)
    if piece.obscuring != piece.obscuring_by_default:
        entry["obscuring"] = piece.obscuring
    if piece.impassable:
        entry["impassable"] = True
    if piece.features:
        features = []
        for feature in piece.features:
            item: dict[str, Any] = {"shape": _points(feature.shape), "height": feature.height}
            if feature.z != 0:
                item["z"] = feature.z
            if feature.category is not None:
                item["category"] = feature.category
            if feature.solid != feature.solid_by_default:
                item["solid"] = feature.solid
            features.append(_with_extra(item, feature.extra))
        entry["features"] = features
    return _with_extra(entry, piece.extra)


def _objective_json(objective: Objective) -> dict[str, Any]:
    entry: dict[str, Any] = {"id": objective.id, "x": objective.x, "y": objective.y}
    if objective.z != 0:
        entry["z"] = objective.z
    if objective.role != "other":
        entry["role"] = objective.role
    if objective.owner is not None:
        entry["owner"] = objective.owner
    if objective.diameter != DEFAULT_OBJECTIVE_DIAMETER:
        entry["diameter"] = objective.diameter
    if objective.terrain is not None:
        entry["terrain"] = objective.terrain
    return _with_extra(entry, objective.extra)


def _marker_json(marker: Marker) -> dict[str, Any]:
    entry: dict[str, Any] = {"id": marker.id, "kind": marker.kind}
    if marker.player is not None:
        entry["player"] = marker.player
    entry["x"] = marker.x
    entry["y"] = marker.y
    return _with_extra(entry, marker.extra)


def _region_json(region: DeploymentRegion) -> dict[str, Any]:
    entry = {"id": region.id, "player": region.player, "polygon": _points(region.polygon)}
    return _with_extra(entry, region.extra)


def _player_json(player: Player) -> dict[str, Any]:
    entry: dict[str, Any] = {"id": player.id}
    if player.name:
        entry["name"] = player.name
    if player.role is not None:
        entry["role"] = player.role
    return _with_extra(entry, player.extra)


def scenario_to_json(scenario: Scenario) -> dict[str, Any]:
    """The plain JSON of a scenario: keys in the spec's order, optional defaults left out."""
    doc: dict[str, Any] = {"format": FORMAT_NAME, "version": FORMAT_VERSION}
    if scenario.title:
        doc["title"] = scenario.title
    doc["ruleset"] = scenario.ruleset
    if scenario.options:
        doc["options"] = thaw(scenario.options)
    doc["battlefield"] = {"width": scenario.battlefield.width, "depth": scenario.battlefield.depth}
    if isinstance(scenario.deployment, str):
        doc["deployment"] = scenario.deployment
    elif isinstance(scenario.deployment, CustomDeployment):
        custom: dict[str, Any] = {}
        if scenario.deployment.zones:
            custom["zones"] = [_region_json(r) for r in scenario.deployment.zones]
        if scenario.deployment.territories:
            custom["territories"] = [_region_json(r) for r in scenario.deployment.territories]
        doc["deployment"] = _with_extra(custom, scenario.deployment.extra)
    doc["players"] = [_player_json(p) for p in scenario.players]
    sections: tuple[tuple[str, Sequence[Any], Callable[[Any], dict[str, Any]]], ...] = (
        ("units", scenario.units, _unit_json),
        ("terrain", scenario.terrain, _terrain_json),
        ("objectives", scenario.objectives, _objective_json),
        ("markers", scenario.markers, _marker_json),
    )
    for key, items, to_json in sections:
        if items:
            doc[key] = [to_json(item) for item in items]
    if scenario.game is not None:
        doc["game"] = thaw(scenario.game)
    return _with_extra(doc, scenario.extra)


_LEAF_ARRAY = re.compile(r"\[\n\s*([^\[\]{}]*?)\n\s*\]")


def _one_line(match: re.Match[str]) -> str:
    # Only whitespace holding a newline is touched, and JSON strings never hold a raw newline,
    # so this cannot change a value.
    return "[" + re.sub(r",\n\s*", ", ", match.group(1)) + "]"


def dumps_scenario(scenario: Scenario) -> str:
    """The scenario as file text: JSON indented by 2, ending with a newline.

    Arrays of plain values (a point, a keyword list) stay on one line.
    """
    try:
        text = json.dumps(scenario_to_json(scenario), indent=2, ensure_ascii=False, allow_nan=False)
    except ValueError as error:
        raise ScenarioError([Problem("", f"cannot be written as JSON: {error}")]) from None
    return _LEAF_ARRAY.sub(_one_line, text) + "\n"


def save_scenario(scenario: Scenario, path: str | os.PathLike[str]) -> None:
    """Write ``scenario`` to ``path`` atomically.

    The text is validated by reading it back first. It goes to a temporary file in the same
    folder, flushed and synced to disk, then renamed over ``path``: on any error the old file is
    untouched and no temporary file is left behind.
    """
    text = dumps_scenario(scenario)
    loads_scenario(text, str(path))
    data = text.encode("utf-8")
    target = Path(path)
    folder = target.parent
    handle, temp_name = tempfile.mkstemp(dir=folder, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as temp:
            temp.write(data)
            temp.flush()
            os.fsync(temp.fileno())
        try:
            mode = stat.S_IMODE(os.stat(target).st_mode)
        except FileNotFoundError:
            mode = 0o644
        os.chmod(temp_name, mode)
        os.replace(temp_name, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp_name)
        raise
    _sync_folder(folder)


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable (POSIX); folders cannot be opened this way on Windows."""
    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)
