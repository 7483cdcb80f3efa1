"""Line of sight in 2.5-D: visible, fully visible and benefit of cover, per ordered unit pair.

The rules are the spec's "Line of sight (2.5-D)" (``docs/scenario-format.md``): a sight
line joins a point of the observer's base at its top (``z + height``) to a point of the target's
base, at its top for *visible* and at its foot ``z`` for *fully visible*; it is 1 mm wide and is
blocked where it crosses (in plan) a solid terrain feature or another model's base while its own
height there is at or below that blocker's top, or where it crosses an obscuring terrain area
neither end model is within (``options.obscuring = "block"``, the default; ``"cover-only"``
keeps the older reading where obscuring areas never block). The geometry lives in
:mod:`engine.sightlines` and :mod:`engine.sight_kernel`.

Every conclusion can be checked: a *visible* pair carries its sight line (:class:`SightLine`),
re-checked against every blocker, and a *not visible* pair names what is in the way. "Not
visible" is a proof (critical lines, exact up to the 1e-6" tolerance; ovals up to their
64-gons, see :mod:`engine.sightlines`), never the end of a search budget. "Fully visible" is
proven by fans of clear lines; "not fully visible" is proven (a facing point no line reaches)
or, rarely, the conservative answer for a rim piece under 0.03" that no one observer point sees
whole: fully visible can be under-reported (cover over-reported), never over-reported.

Choices where the rules are silent (also listed in :data:`RULE_NOTES`):

* **Facing points.** A point of the target's base boundary *faces* the observer when some point
  of the observer's base sees it in plan with only the target's own base in the way. The sight
  lines that see a facing point may pass over the target's own base (the target never blocks
  itself).
* **End points.** A line that meets a blocker's top only at its own lower end point is not
  blocked (a model standing on a crate can be seen down to its foot); a level line exactly at a
  blocker's top is blocked (the spec: "at or below").
* **Night Fighting.** An observing model more than 18" (closest points of bases) from every
  model of the target unit sees none of it; within 18" of one model, it may see them all.
* **Nowhere to Hide** makes features not solid; obscuring areas still block and stop *fully
  visible*.
* **Obscuring areas** block like walls of any height, 1 mm line included (a line within half a
  millimetre of the area crosses it). For *fully visible*, every obscuring area the target is
  not within counts, even one the observer stands in. An area of several footprints is one
  area: within one footprint is within all of it.
* **Cover** is ``false`` for a pair whose target is not visible (no observing model sees it), and
  under rulesets other than ``wh40k-ca2026`` (their cover rules are not line-of-sight rules).
* **Unit fully visible** follows the spec: every target model is fully visible to at least one
  observing model (the core rule judges per observing model).

>>> from engine.model import CircleBase, Model, Player, Scenario, Unit
>>> red = Unit("red-a", "red", (Model("r1", 10.0, 10.0, CircleBase(32)),))
>>> blue = Unit("blue-a", "blue", (Model("b1", 20.0, 10.0, CircleBase(32)),))
>>> s = Scenario("wh40k-ca2026", (Player("red"), Player("blue")), units=(red, blue))
>>> [p.to_json() for p in visibility(s, observers=["red-a"])]
[{'observer': 'red-a', 'target': 'blue-a', 'visible': True, 'fully_visible': True, 'cover': False}]
"""

from __future__ import annotations

import contextlib
import functools
import math
import os
import threading
import zlib
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple, TypeAlias, TypeGuard

import numpy as np
import shapely

from engine.errors import GeometryError, UnknownReferenceError
from engine.geometry import area_relations, shape_arrays, shape_of, terrain_area
from engine.model import CircleBase, Model, Scenario, TerrainPiece, Unit
from engine.rulesets import ruleset_for
from engine.sightlines import HALF_LINE_WIDTH, SEARCH_GROW, Outline, OutlineKind, base_outline

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from engine import sight_kernel as kernel

# The compiled kernels (and numba, 0.5 s to import) load on the first line-of-sight question,
# not with the engine: each function below that calls them imports them itself.

TOLERANCE = 1e-6
"""Inches: "within" is inclusive with this tolerance (the project-wide convention)."""

NIGHT_FIGHTING_RANGE = 18.0

CACHE_SLOTS = 16
"""Model-pair answers live in this many caches, each unit pair's always in the same one (by
the two ids), so that threads can work out different unit pairs at once: a compiled cache
must not be written by two threads together, and a unit pair's answers never need another's."""

SIGHT_THREADS = max(1, min(2, os.cpu_count() or 1))
"""Threads working out a matrix (the kernels release the GIL)."""

_pool_lock = threading.Lock()
_pools: dict[int, ThreadPoolExecutor] = {}


def _sight_pool(threads: int) -> ThreadPoolExecutor:
    """The process's pool of ``threads`` threads working out unit pairs, started on first use
    and kept: starting two threads for every update cost about 0.4 ms of its 10. The pools'
    tasks never wait on one another (see :class:`_SlotQueue`), so every engine may share them."""
    with _pool_lock:
        pool = _pools.get(threads)
        if pool is None:
            pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="warplan-sight")
            _pools[threads] = pool
        return pool


class _SlotQueue:
    """Unit pairs to work out (each with its cache slot), handed to the asking thread and the
    pool's in their order, skipping any whose slot another thread is working in: a thread never
    waits on another. A thread that finds every pair left in a busy slot stops; the thread
    holding that slot takes them next. Tasks, not slots, are handed out, so one slot's many
    pairs no longer keep one thread busy while the other idles (a row's three largest pairs
    shared a slot)."""

    def __init__(self, tasks: Sequence[tuple[int, Sequence[tuple[Unit, Unit]]]]) -> None:
        self._pending = list(tasks)
        self._busy: set[int] = set()
        self._lock = threading.Lock()

    def take(self, finished: int | None) -> tuple[int, Sequence[tuple[Unit, Unit]]] | None:
        """The next task whose slot is free, its slot now busy (``finished``, the slot of the
        caller's last task, free again); ``None`` when none is left for this thread."""
        with self._lock:
            if finished is not None:
                self._busy.discard(finished)
            for position, (slot, task) in enumerate(self._pending):
                if slot not in self._busy:
                    del self._pending[position]
                    self._busy.add(slot)
                    return slot, task
            return None


COVER_KEYWORDS = frozenset({"INFANTRY", "BEASTS", "SWARM"})

RULE_NOTES: tuple[str, ...] = (
    "facing: a point of the target's base boundary faces the observer when some point of the "
    "observer's base sees it in plan with only the target's own base in the way",
    "end points: a line meeting a blocker's top only at its own lower end is not blocked; a "
    "level line exactly at a blocker's top is blocked",
    'night-fighting: an observing model more than 18" from every model of the target unit sees '
    "none of it",
    "nowhere-to-hide: features are not solid; obscuring areas still block and prevent 'fully "
    "visible'",
    "obscuring (options.obscuring = 'block', the default): an obscuring area blocks a sight "
    "line that crosses it unless the observing or the target model is within it; under "
    "'cover-only' it never blocks; either way an obscuring area the target is not within stops "
    "'fully visible' (even one the observer is within)",
    "obscuring width: the 1 mm line crosses an obscuring area when it comes within half a "
    "millimetre of it, as for features",
    "cover: false when the target is not visible, and outside wh40k-ca2026",
    "unit fully visible: every target model fully visible to at least one observing model (spec)",
    'fully visible is conservative: a facing rim piece shorter than 0.03" that no single '
    "observer point sees whole counts as hidden, so 'fully visible' can be under-reported (cover "
    "over-reported), never the reverse",
    "ovals: measured as 64-gons (inscribed as sight-line ends, circumscribed as blockers), so "
    "answers about ovals are exact to 0.0012 x the semi-axis, erring towards 'not visible'",
)


# ---------------------------------------------------------------------------------------------
# Results


@dataclass(frozen=True)
class SightLine:
    """An unblocked sight line: ``start`` on the observing model's base at its top, ``end`` on
    the target model's base (``x, y, z`` inches)."""

    observer_model: str
    target_model: str
    start: tuple[float, float, float]
    end: tuple[float, float, float]

    def reversed(self) -> SightLine:
        """The same line seen from its other end (sight between two tops is symmetric)."""
        return SightLine(self.target_model, self.observer_model, self.end, self.start)

    def to_json(self) -> dict[str, Any]:
        return {
            "observer_model": self.observer_model,
            "target_model": self.target_model,
            "start": list(self.start),
            "end": list(self.end),
        }


@dataclass(frozen=True)
class PairVisibility:
    """What one observing unit can see of one target unit, and why.

    ``blockers`` are the terrain piece ids and unit ids found in the way (sorted).
    """

    observer: str
    target: str
    visible: bool
    fully_visible: bool
    cover: bool
    witness: SightLine | None = None
    blockers: tuple[str, ...] = ()
    explanation: str = ""

    def to_json(self, *, extra: bool = False) -> dict[str, Any]:
        """The contract keys; with ``extra``, also the witness, blockers and explanation."""
        data: dict[str, Any] = {
            "observer": self.observer,
            "target": self.target,
            "visible": self.visible,
            "fully_visible": self.fully_visible,
            "cover": self.cover,
        }
        if extra:
            data["witness"] = None if self.witness is None else self.witness.to_json()
            data["blockers"] = list(self.blockers)
            data["explanation"] = self.explanation
        return data


# ---------------------------------------------------------------------------------------------
# The scene: a scenario's geometry, built once


def _outline_key(model: Model) -> tuple[object, ...]:
    return (model.base, model.x, model.y, model.rotation)


def twist_of(scenario: Scenario) -> str | None:
    """The game's twist (``game.twist``), or ``None``: Night Fighting limits sight to 18", and
    Nowhere to Hide makes every feature not solid."""
    if scenario.game is None:
        return None
    twist = scenario.game.get("twist")
    return twist if isinstance(twist, str) else None


def _obscuring_blocks(scenario: Scenario) -> bool:
    """``options.obscuring``: ``"block"`` (the default) or ``"cover-only"``."""
    return bool(scenario.option("obscuring", "block") != "cover-only")


def _counter_clockwise(points: np.ndarray) -> np.ndarray:
    x, y = points[:, 0], points[:, 1]
    area2 = float(np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y))
    return points if area2 >= 0 else points[::-1].copy()


def _polygon_rows(label: str, shape: Sequence[tuple[float, float]]) -> np.ndarray:
    """A blocking polygon's vertices, counter-clockwise, or the reason it cannot block."""
    polygon = shapely.Polygon(shape)
    if not polygon.is_valid or polygon.area <= 0:
        raise GeometryError(f"{label}: a blocking shape must be a simple polygon with area")
    return _counter_clockwise(np.asarray(polygon.exterior.coords, dtype=float)[:-1])


@dataclass(frozen=True)
class _TerrainBlocker:
    """A solid feature or an obscuring area (``top = inf``) as a polygon blocker."""

    label: str
    kind: int
    vertices: np.ndarray = field(repr=False)
    top: float


class _TerrainBlockers(tuple[_TerrainBlocker, ...]):
    """A battlefield's terrain as blockers, with their convex parts (:attr:`parts`) cut once:
    every fresh scene of the battlefield takes them as they are (the official table's 33
    polygons make 349 parts, whose cutting and stacking took a third of a fresh scene's
    build)."""

    parts: kernel.ConvexParts

    def __new__(cls, blockers: Iterable[_TerrainBlocker]) -> _TerrainBlockers:
        from engine import sight_kernel as kernel

        made = super().__new__(cls, blockers)
        made.parts = kernel.convex_parts_of([blocker.vertices for blocker in made])
        return made


def _terrain_blockers(terrain: Sequence[TerrainPiece], solid: bool) -> _TerrainBlockers:
    """Every solid feature (none when features are not solid), then every obscuring area's
    footprints."""
    from engine import sight_kernel as kernel

    features = [
        _TerrainBlocker(
            piece.id, kernel.FEATURE, _polygon_rows(piece.id, feature.shape), feature.top
        )
        for piece in terrain
        if solid
        for feature in piece.features
        if feature.solid
    ]
    screens = [
        _TerrainBlocker(piece.id, kernel.SCREEN, _polygon_rows(piece.id, footprint), math.inf)
        for piece in terrain
        if piece.obscuring
        for footprint in piece.footprints
    ]
    return _TerrainBlockers((*features, *screens))


_KeptTerrain: TypeAlias = tuple[tuple[TerrainPiece, ...], _TerrainBlockers]
_RECENT_TERRAIN: dict[tuple[int, bool], _KeptTerrain] = {}
_RECENT_TERRAIN_LOCK = threading.Lock()
_RECENT_TERRAIN_KEPT = 8


def _terrain_blockers_cached(terrain: tuple[TerrainPiece, ...], solid: bool) -> _TerrainBlockers:
    """:func:`_terrain_blockers`, kept for the last few terrain tuples: a scenario edited by
    moving units shares its terrain tuple, so the line-of-sight questions asked of each new
    version (a row, a hidden-placement map) find its blockers made. Keyed by identity, the
    entry holding the tuple itself so its id cannot be reused while it is kept."""
    key = (id(terrain), solid)
    with _RECENT_TERRAIN_LOCK:
        entry = _RECENT_TERRAIN.get(key)
    if entry is not None and entry[0] is terrain:
        return entry[1]
    blockers = _terrain_blockers(terrain, solid)
    with _RECENT_TERRAIN_LOCK:
        while len(_RECENT_TERRAIN) >= _RECENT_TERRAIN_KEPT:
            del _RECENT_TERRAIN[next(iter(_RECENT_TERRAIN))]
        _RECENT_TERRAIN[key] = (terrain, blockers)
    return blockers


_WithinCache: TypeAlias = dict[tuple[object, ...], frozenset[str]]
_RECENT_WITHIN: dict[int, tuple[tuple[TerrainPiece, ...], _WithinCache]] = {}
_WITHIN_KEPT_BASES = 20_000
"""Bases (by shape and place) whose terrain areas are kept per battlefield: a long drag adds one
per unit model per step; past this many the battlefield's record starts again."""


def _areas_known_within(terrain: tuple[TerrainPiece, ...]) -> _WithinCache:
    """A copy of what earlier scenes of this battlefield (the same terrain tuple: a scenario
    edited by moving units shares it) found of which areas each base is within: the hidden map
    and the line of sight of each new version of a board find most bases known. A copy, so
    no scene's record changes under it while other threads read it."""
    with _RECENT_TERRAIN_LOCK:
        entry = _RECENT_WITHIN.get(id(terrain))
        return dict(entry[1]) if entry is not None and entry[0] is terrain else {}


def _remember_areas_within(terrain: tuple[TerrainPiece, ...], found: _WithinCache) -> None:
    """Adds what a scene found to its battlefield's record (:func:`_areas_known_within`)."""
    with _RECENT_TERRAIN_LOCK:
        entry = _RECENT_WITHIN.get(id(terrain))
        if entry is None or entry[0] is not terrain:
            _RECENT_WITHIN.pop(id(terrain), None)
            while len(_RECENT_WITHIN) >= _RECENT_TERRAIN_KEPT:
                del _RECENT_WITHIN[next(iter(_RECENT_WITHIN))]
            entry = _RECENT_WITHIN[id(terrain)] = (terrain, {})
        elif len(entry[1]) > _WITHIN_KEPT_BASES:
            entry = _RECENT_WITHIN[id(terrain)] = (terrain, {})
        entry[1].update(found)


_NO_VERTICES = np.zeros((0, 2))


@functools.cache
def _outline_kinds() -> dict[str, int]:
    """The kernel's code for each kind of base outline (the kernel is imported when first
    needed: compiling or loading it is not free)."""
    from engine import sight_kernel as kernel

    return {
        "circle": kernel.OUTLINE_CIRCLE,
        "oval": kernel.OUTLINE_OVAL,
        "rect": kernel.OUTLINE_RECT,
    }


def _end_disc(outline: Outline) -> tuple[float, float, float]:
    """A base's ``model_disc`` row: a round end's centre and radius, else its centre and 0."""
    return (outline.cx, outline.cy, outline.a if outline.kind == "circle" else 0.0)


def _outline_row(outline: Outline) -> tuple[float, ...]:
    """A base's ``model_outline`` row: its kind's code, centre, semi-axes and angle."""
    return (
        _outline_kinds()[outline.kind],
        outline.cx,
        outline.cy,
        outline.a,
        outline.b,
        outline.angle,
    )


def _polygons_of(outline: Outline) -> tuple[np.ndarray, np.ndarray]:
    """A base as a blocker (a round base: its disc, no polygon; a rectangle: itself; an oval:
    its circumscribed polygon, never smaller than the base) and as an end of sight lines (a
    disc: none; otherwise the inscribed polygon, every point of it on the base).

    The polygons about the base's centre are made once per shape, size and angle and moved to
    the centre: the same numbers as polygons made in place (a coordinate is its offset plus
    the centre either way), without a shapely polygon for every base of every scene.
    """
    blocker, end = _polygons_of_shape(outline)
    if outline.kind == "circle":
        return blocker, end
    centre = np.array([outline.cx, outline.cy])
    if outline.kind == "rect":
        moved = end + centre
        return moved, moved
    return blocker + centre, end + centre


def _polygons_of_shape(outline: Outline) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_polygons_of` about the origin rather than the base's centre (read-only)."""
    if outline.kind == "circle":
        return _NO_VERTICES, _NO_VERTICES
    return _polygons_about_centre(outline.kind, outline.a, outline.b, outline.angle)


def _moved_to_centres(polygons: Sequence[np.ndarray], centres: np.ndarray) -> np.ndarray:
    """Polygons made about the origin, stacked, each moved to its row of ``centres`` (one row
    per polygon, empty polygons included): the numbers of moving each polygon on its own."""
    lengths = np.fromiter(map(len, polygons), dtype=np.int64, count=len(polygons))
    moved: np.ndarray = _stack(polygons) + np.repeat(centres, lengths, axis=0)
    return moved


@functools.lru_cache(maxsize=1024)
def _polygons_about_centre(
    kind: OutlineKind, a: float, b: float, angle: float
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_polygons_of` for a base of this shape centred on the origin (read-only)."""
    outline = Outline(kind, 0.0, 0.0, a, b, angle)
    end = _counter_clockwise(np.asarray(outline.inner.exterior.coords, dtype=float)[:-1])
    blocker = (
        end
        if kind == "rect"
        else _counter_clockwise(np.asarray(outline.outer.exterior.coords, dtype=float)[:-1])
    )
    end.flags.writeable = False
    blocker.flags.writeable = False
    return blocker, end


def _read_off_model(base: object) -> TypeGuard[CircleBase]:
    """Whether a scene reads this base's rows off its model (a round base of some size) rather
    than off its outline, which it then makes when the scene is built."""
    return type(base) is CircleBase and base.diameter > 0


class _Outlines(dict[str, Outline]):
    """Each model's base outline by model id, made when first asked for: a fresh scene's
    arrays read round bases off their models, so a board of round bases makes few."""

    def __init__(self, scenario: Scenario, known: Mapping[str, Outline] | None = None) -> None:
        super().__init__(known or {})
        self._scenario = scenario

    def __missing__(self, model_id: str) -> Outline:
        model = self._scenario.model(model_id)
        outline = self[model_id] = base_outline(model.base, model.x, model.y, model.rotation)
        return outline


class _UnitSight(NamedTuple):
    """A unit pair's top-to-top answer, kept for both directions."""

    status: int
    witness_models: tuple[str, str]
    separated: bool
    """Proven by a barrier between the two units as a whole (``blockers``)."""
    names: tuple[str, ...]
    blockers: NDArray[np.int32]
    witness: SightLine | None
    """The sight line from the first witness model to the second (kept with the answer: the
    cached model-pair answer it was read from stays while the answer is kept)."""


class MoveOfBases(NamedTuple):
    """A move as :func:`engine.sight_kernel.forget_moved` takes it, per model row: whether its
    base ``moved``; the ``shift`` of its centre; whether it was ``carried`` (moved by that
    translation alone: same shape, same turn); and the ``boxes`` where the moved bases stood
    and stand, grown by what can block."""

    moved: NDArray[np.bool_]
    shift: NDArray[np.float64]
    carried: NDArray[np.bool_]
    boxes: NDArray[np.float64]


class _CoverBasis(NamedTuple):
    """What an ordered unit pair's benefit of cover rests on besides terrain, the two units'
    models and its witness line: the top-to-top answers of every pair of ``observers`` and
    ``targets`` (model rows), which must still read "visible" (``seen``: the observing model
    that sees the unit and sees an exposed model whole with terrain alone, no cover, and the
    target model it sees) or still read "not visible" (the observing models that would take
    the cover away if they saw the unit, and every target model). Terrain-alone answers about
    models that did not move do not change; these answers can."""

    seen: bool
    observers: NDArray[np.int32]
    targets: NDArray[np.int32]


_NO_ROWS = np.zeros(0, dtype=np.int32)

_ON_ITS_OWN = _CoverBasis(True, _NO_ROWS, _NO_ROWS)
"""Cover resting on nothing a move of other units can change: no cover rules, every target
model sheltered within terrain, or the witness's own models (the witness's observer sees its
target model fully with terrain alone)."""

_NO_SEGMENT = np.zeros(4)
"""The witness segment of a unit pair no model pair of which sees (read only when one does)."""


class _WallsBefore(NamedTuple):
    """What stood between two units before one of them moved: their separator (``separated``),
    or the walls of the separators of their parts and of the model pairs' proofs. A small move
    seldom takes a unit past its walls, so they are tried first: the separator of the whole
    units, then the separators of parts built from these walls alone (any wall settles only
    pairs no line joins, so the answer is the same; a model pair they do not settle gets its
    own full search)."""

    walls: NDArray[np.int32]
    separated: bool


@dataclass(frozen=True)
class _CacheSlot:
    """One slot of model-pair answers: top-to-top sight, fully visible, and the lock a thread
    holds while it works out a unit pair of this slot."""

    sight: Any
    full: Any
    lock: threading.RLock


@functools.lru_cache(maxsize=4096)
def slot_number(one_unit_id: str, other_unit_id: str) -> int:
    """The cache slot of a unit pair, the same for both orders and in every process (kept:
    an update asks it a few hundred times)."""
    first, second = sorted((one_unit_id, other_unit_id))
    return zlib.crc32(f"{first}\0{second}".encode()) % CACHE_SLOTS


class SightScene:
    """One scenario as the compiled search's arrays, plus its caches of model-pair answers (the
    hidden-placement map builds one with its probe model in it)."""

    def __init__(
        self,
        scenario: Scenario,
        terrain: _TerrainBlockers | None = None,
        within: dict[tuple[object, ...], frozenset[str]] | None = None,
        moved_from: tuple[SightScene, frozenset[str]] | None = None,
    ) -> None:
        """``terrain`` and ``within`` are what an earlier scene of the same battlefield worked
        out (``within`` is taken over, not copied: that scene is done with); ``moved_from`` is
        that scene and the units that changed since, when only they did: the other models'
        outlines and its arrays are taken, the changed models' rows rewritten."""
        self.scenario = scenario
        twist = twist_of(scenario)
        self.night_fighting = twist == "night-fighting"
        self.cover_rules = ruleset_for(scenario).cover_applies
        self.obscuring_blocks = _obscuring_blocks(scenario)
        self.terrain = (
            terrain
            if terrain is not None
            else _terrain_blockers_cached(scenario.terrain, twist != "nowhere-to-hide")
        )
        before, changed = moved_from if moved_from is not None else (None, frozenset[str]())
        self.footprint: _Outlines
        self.unit_of: dict[str, Unit]
        self.index: dict[str, int]
        if before is not None and before.ids == [m.id for _, m in scenario.all_models()]:
            # The same models in the same rows: only the changed units' are placed anew (a
            # drag step's scene is built in a fraction of the time).
            self.footprint = _Outlines(scenario, before.footprint)
            self.unit_of = dict(before.unit_of)
            self.index = dict(before.index)
            placed = [
                (unit, m) for unit in scenario.units if unit.id in changed for m in unit.models
            ]
            for _, model in placed:
                self.footprint.pop(model.id, None)
        else:
            self.footprint, self.unit_of = _Outlines(scenario), {}
            placed = list(scenario.all_models())
            self.index = {model.id: row for row, (_, model) in enumerate(placed)}
        for unit, model in placed:
            self.unit_of[model.id] = unit
            if not _read_off_model(model.base):
                # Made now, as the arrays need it, and so that a base of no size is reported
                # before anything else reads the model.
                self.footprint[model.id] = base_outline(
                    model.base, model.x, model.y, model.rotation
                )
        self.ids: list[str] = list(self.index)
        self.within_cache: _WithinCache
        if within is None:
            self.within_cache = _areas_known_within(scenario.terrain)
        elif len(within) > _WITHIN_KEPT_BASES:
            # A drag adds a place for each moved base at every step: past this many, only the
            # places of the bases standing now are kept.
            self.within_cache = {
                key: within[key]
                for key in (_outline_key(model) for _, model in scenario.all_models())
                if key in within
            }
        else:
            self.within_cache = within
        if moved_from is not None:
            self._find_areas_within([model for _, model in placed])
        self.labels = [b.label for b in self.terrain] + [self.unit_of[m].id for m in self.ids]
        rewritten = self._arrays_after_move(*moved_from) if moved_from is not None else None
        self.arrays = rewritten if rewritten is not None else self._arrays()
        self._slots: dict[int, _CacheSlot] = {}
        self._slots_lock = threading.Lock()
        self._caches: Any = None
        """Every slot's two caches in one compiled list (sight, then fully visible), made with
        the first slot."""
        self._unit_sight: dict[frozenset[str] | None, _UnitSight] = {}
        self._named_in: dict[str, set[frozenset[str]]] = {}
        """Per name (a terrain piece's label, a unit's id), the unit pairs whose top-to-top
        answer named it in the way when worked out (some worked out again since): where
        :meth:`take_over` looks for the answers a moved unit stood in the way of."""
        self._unsettled: set[frozenset[str]] = set()
        """The unit pairs whose top-to-top answer, when worked out, was neither a witness nor
        a proof of "not visible" (never kept across a move)."""
        self._walls_before: dict[frozenset[str] | None, _WallsBefore] = {}
        """Per unit pair a move touched, the walls that stood between its units before."""
        self._seen_before: dict[frozenset[str] | None, tuple[int, int]] = {}
        """Per unit pair seen before a move that is worked out again, the rows of its witness's
        two models: asked first (a small step seldom blocks the line, or every line, between
        two models that saw each other)."""
        self.touched_unit_pairs: frozenset[frozenset[str]] | None = None
        """The unit pairs some of whose cached model-pair answers :meth:`take_over` deleted or
        marked as shaken; any other pair of units that did not change, asked again, reads what
        it read before. ``None`` when no answers were taken over."""
        self._every_blocker = np.arange(len(self.labels), dtype=np.int32)
        self._in_range: dict[tuple[str, str], bool] = {}
        self._rows_of: dict[str, NDArray[np.int32]] = {}
        self._rows_first: dict[tuple[str, str], NDArray[np.int32]] = {}
        self._cover_split: dict[str, tuple[tuple[Model, ...], tuple[Model, ...], np.ndarray]] = {}
        """Per unit, its models taking cover within terrain, the others, and their rows."""
        self._not_seen_whole: dict[tuple[str, str], str] = {}
        """Per ordered unit pair, the target model last found not fully visible: asked first
        (after a move, its proofs are the likeliest to stand)."""
        self._cover_rests_on: dict[tuple[str, str], _CoverBasis] = {}
        """Per ordered unit pair, the top-to-top answers its benefit of cover rests on besides
        terrain, the two units' models and the witness (see :class:`_CoverBasis`)."""

    def _arrays(self) -> kernel.SceneArrays:
        """The scene as the flat arrays the compiled search takes: features, then obscuring
        areas, then models as blockers (a round base as its disc, a rectangle as itself, an oval
        as its circumscribed polygon: never smaller than the base); every base as an end shape
        (exact for discs and rectangles, the inscribed polygon of an oval: every point of it is
        on the base) and as its true outline."""
        from engine import sight_kernel as kernel

        pieces = {piece.id: k for k, piece in enumerate(self.scenario.terrain)}
        units = {unit.id: k for k, unit in enumerate(self.scenario.units)}
        codes = _outline_kinds()
        # The models' numbers go into one table, made an array once and cut into the kernel's
        # columns: a fresh scene is built for every row asked of a new board, and turning a
        # list of tuples into an array costs about as much per list as the rest of the build.
        numbers = []
        terrain_polygons = [b.vertices for b in self.terrain]
        # Each base's polygons are made about its centre (one per shape, size and angle) and
        # every base moved to its centre by one addition after the loop, where moving each
        # polygon in the loop took two small array operations per oval or rectangular base.
        blockers = []
        ends = []
        within = np.zeros((len(self.ids), len(pieces)), dtype=bool)
        circle = codes["circle"]
        placed = list(self.scenario.all_models())
        areas_within = self._find_areas_within([model for _, model in placed])
        # Rows in the scenario's order of models, which :attr:`ids` keeps. A round base's row
        # is read off the model (the numbers its outline holds), no outline made: most bases
        # are round, and making each one's outline took a fifth of a fresh scene's build.
        for row, (unit, model) in enumerate(placed):
            if _read_off_model(model.base):
                radius = model.base.radius
                shape: tuple[float, ...] = (circle, model.x, model.y, radius, radius, 0.0)
                blocker = end = _NO_VERTICES
            else:
                outline = self.footprint[model.id]
                shape = _outline_row(outline)
                blocker, end = _polygons_of_shape(outline)
            numbers.append((*shape, model.z, model.z + model.height, units[unit.id]))
            blockers.append(blocker)
            ends.append(end)
            for piece_id in areas_within[row]:
                within[row, pieces[piece_id]] = True
        table = np.array(numbers, dtype=float).reshape(-1, 9)
        round_bases = table[:, 0] == kernel.OUTLINE_CIRCLE
        model_disc = table[:, 1:4].copy()
        model_disc[~round_bases, 2] = 0.0
        terrain_count, model_count = len(self.terrain), len(table)
        model_units = table[:, 8].astype(np.int32)
        centres = table[:, 1:3]
        return kernel.scene_arrays(
            blocker_kind=np.concatenate(
                [np.zeros(terrain_count, dtype=np.int8), round_bases.astype(np.int8)]
            ),
            blocker_top=np.concatenate([[b.top for b in self.terrain], table[:, 7]]),
            blocker_disc=np.vstack([np.zeros((terrain_count, 3)), table[:, 1:4]]),
            blocker_vertices=np.concatenate(
                [_stack(terrain_polygons), _moved_to_centres(blockers, centres)]
            ),
            blocker_ranges=_ranges(terrain_polygons + blockers),
            blocker_class=[b.kind for b in self.terrain] + [kernel.MODEL] * model_count,
            blocker_piece=[pieces[b.label] for b in self.terrain] + [-1] * model_count,
            blocker_unit=np.concatenate([np.full(terrain_count, -1, np.int32), model_units]),
            model_disc=model_disc,
            model_vertices=_moved_to_centres(ends, centres),
            model_ranges=_ranges(ends),
            model_top=table[:, 7].copy(),
            model_foot=table[:, 6].copy(),
            model_unit=model_units,
            within=within,
            obscuring_blocks=self.obscuring_blocks,
            model_outline=table[:, :6].copy(),
            leading_parts=self.terrain.parts,
        )

    def _arrays_after_move(
        self, before: SightScene, changed: frozenset[str]
    ) -> kernel.SceneArrays | None:
        """:meth:`_arrays` for a scene that differs from ``before`` only where the ``changed``
        units' models stand: ``before``'s arrays with those models' rows rewritten (the same
        numbers a fresh build gives), or ``None`` when the rows do not line up (models or units
        added, removed or reordered, a base whose outline or convex pieces changed shape)."""
        from engine import sight_kernel as kernel

        if (
            before.terrain is not self.terrain
            or before.labels != self.labels
            or before.obscuring_blocks != self.obscuring_blocks
            or [u.id for u in before.scenario.units] != [u.id for u in self.scenario.units]
            or [p.id for p in before.scenario.terrain] != [p.id for p in self.scenario.terrain]
        ):
            return None
        old = before.arrays
        offset = len(self.terrain)
        rows = [
            row for row, model_id in enumerate(self.ids) if self.unit_of[model_id].id in changed
        ]
        new = {
            name: getattr(old, name).copy()
            for name in (
                "blocker_top",
                "blocker_disc",
                "blocker_vertices",
                "blocker_boxes",
                "blocker_convex",
                "model_disc",
                "model_vertices",
                "model_top",
                "model_foot",
                "within",
                "model_outline",
                "part_vertices",
            )
        }
        pieces = {piece.id: k for k, piece in enumerate(self.scenario.terrain)}
        for row in rows:
            model_id = self.ids[row]
            model, outline = self.model(model_id), self.footprint[model_id]
            blocker, end = _polygons_of(outline)
            k = offset + row
            kind = 1 if outline.kind == "circle" else 0
            start, stop = old.blocker_ranges[k]
            end_start, end_stop = old.model_ranges[row]
            if (
                kind != old.blocker_kind[k]
                or stop - start != len(blocker)
                or end_stop - end_start != len(end)
                or old.model_outline[row, 0] != _outline_kinds()[outline.kind]
            ):
                return None
            new["blocker_top"][k] = model.z + model.height
            new["blocker_disc"][k] = (outline.cx, outline.cy, outline.a)
            new["blocker_vertices"][start:stop] = blocker
            new["model_disc"][row] = _end_disc(outline)
            new["model_vertices"][end_start:end_stop] = end
            new["model_top"][row] = model.z + model.height
            new["model_foot"][row] = model.z
            new["model_outline"][row] = _outline_row(outline)
            new["within"][row] = False
            for piece_id in self.within_areas(model_id):
                new["within"][row, pieces[piece_id]] = True
        if rows:
            blockers = offset + np.array(rows)
            discs = new["blocker_disc"][blockers]
            boxes, convex = kernel._derive_blockers(
                old.blocker_kind[blockers],
                discs,
                new["blocker_vertices"],
                old.blocker_ranges[blockers],
            )
            new["blocker_disc"][blockers] = discs
            new["blocker_boxes"][blockers] = boxes
            new["blocker_convex"][blockers] = convex
            for k in blockers[old.blocker_kind[blockers] == 0]:
                # A convex base is its own single convex piece; anything else is cut up anew.
                first, last = old.blocker_parts[k]
                start, stop = old.blocker_ranges[k]
                if not new["blocker_convex"][k] or last - first != 1:
                    return None
                part_start, part_stop = old.part_ranges[first]
                if part_stop - part_start != stop - start:
                    return None
                new["part_vertices"][part_start:part_stop] = new["blocker_vertices"][start:stop]
        return old._replace(**new)

    def move_since(self, old: SightScene, changed: Collection[str]) -> MoveOfBases:
        """What moving the ``changed`` units did to the bases since ``old`` (the same models,
        in the same rows), as :func:`engine.sight_kernel.forget_moved` takes it."""
        moved = np.array([self.unit_of[m].id in changed for m in self.ids], dtype=bool)
        rows = len(self.terrain) + np.flatnonzero(moved)
        boxes = np.vstack([old.arrays.blocker_boxes[rows], self.arrays.blocker_boxes[rows]])
        # Outline rows: kind, centre, semi-axes, angle. A base whose row changed only in its
        # centre was carried by a translation.
        before, after = old.arrays.model_outline, self.arrays.model_outline
        return MoveOfBases(
            moved,
            np.where(moved[:, None], after[:, 1:3] - before[:, 1:3], 0.0),
            moved & (after[:, [0, 3, 4, 5]] == before[:, [0, 3, 4, 5]]).all(axis=1),
            boxes + np.array([-SEARCH_GROW, -SEARCH_GROW, SEARCH_GROW, SEARCH_GROW]),
        )

    def take_over(self, old: SightScene, changed: set[str], threads: int = 1) -> None:
        """Takes the model-pair caches of ``old`` (the same models, in the same rows; ``old`` is
        done with) after deleting what moving the ``changed`` units can change (see
        :func:`engine.sight_kernel.forget_moved`; on ``threads`` threads, each with its share of
        the slots), and its unit-pair answers that still hold: a witness whose model pair is
        still seen, a "not visible" resting on no changed unit. What stood between the units of
        a pair the move touched is kept (:class:`_WallsBefore`), tried first when the pair is
        asked again (a small move seldom takes a unit past its walls); so are the two models of
        the witness of a pair that was seen (a small move seldom blocks every line between
        them)."""
        from engine import sight_kernel as kernel

        move = self.move_since(old, changed)
        unit_count = len(self.scenario.units)
        shares = [np.zeros((unit_count, unit_count), dtype=bool) for _ in range(max(1, threads))]
        if old._caches is not None:
            with contextlib.ExitStack() as holding:
                for slot in old._slots.values():
                    holding.enter_context(slot.lock)
                forget = functools.partial(
                    kernel.forget_moved_in, self.arrays, old._caches, *move, SEARCH_GROW
                )
                # The calling thread holds every slot's lock and works through its own share;
                # the pool's threads take the others (the kernel releases the GIL).
                helpers = [
                    _sight_pool(len(shares)).submit(forget, shares[k], k, len(shares))
                    for k in range(1, len(shares))
                ]
                forget(shares[0], 0, len(shares))
                for helper in helpers:
                    helper.result()
        touched = np.logical_or.reduce(shares)
        listed = self.scenario.units
        self.touched_unit_pairs = frozenset(
            frozenset((listed[one].id, listed[other].id))
            for one, other in np.argwhere(np.triu(touched)).tolist()
        )
        with self._slots_lock:
            self._slots = dict(old._slots)
            self._caches = old._caches
        self._not_seen_whole = dict(old._not_seen_whole)
        # The same models stand in the same rows; which models of a unit take cover within
        # terrain changes only when the unit does.
        self._rows_of = dict(old._rows_of)
        self._rows_first = dict(old._rows_first)
        self._cover_split = {
            unit_id: split for unit_id, split in old._cover_split.items() if unit_id not in changed
        }
        unit_ids = [unit.id for unit in listed]
        self._cover_rests_on = dict(old._cover_rests_on)
        for key in _ordered_pairs_with(changed, unit_ids):
            self._cover_rests_on.pop(key, None)
        models = len(self.ids)
        touched_pairs = self.touched_unit_pairs
        # Every answer is kept but those a move may have changed: of a unit pair with a changed
        # unit, naming one in its way, some of whose model pairs' answers the move touched, or
        # never settled.
        self._unit_sight = dict(old._unit_sight)
        self._named_in, self._unsettled = old._named_in, old._unsettled
        asked = self._unsettled | touched_pairs
        for unit_id in changed:
            asked.update(old._named_in.get(unit_id, ()))
            asked.update(frozenset((unit_id, other)) for other in unit_ids if other != unit_id)
        for units in asked:
            known = old._unit_sight.get(units)
            if known is None:
                continue
            status, (one, other), separated, found, blockers, _ = known
            unit_changed = not changed.isdisjoint(units)
            wall_changed = not changed.isdisjoint(found)
            if len(blockers) and (unit_changed or wall_changed):
                self._walls_before[units] = _WallsBefore(blockers, separated)
            if unit_changed:
                still = False
            elif status == kernel.FOUND:
                # The witness's answer can only have gone if an answer between the two units
                # did (the table marks each one deleted or shaken).
                first, second = sorted((self.index[one], self.index[other]))
                still = units not in touched_pairs or (
                    kernel.known_state(self.slot(*units).sight, first * models + second)
                    == kernel.SEEN_PAIR
                )
            else:
                still = status == kernel.NONE and not wall_changed
            if still:
                continue
            del self._unit_sight[units]
            if status == kernel.FOUND:
                self._seen_before[units] = (self.index[one], self.index[other])

    def standing_unit_sight(self) -> frozenset[frozenset[str]]:
        """The unit pairs (either order) whose answer :meth:`take_over` kept: a witness still
        seen, or a "not visible" resting on no unit that moved."""
        return frozenset(units for units in self._unit_sight if units is not None)

    def still_answers(self, observer: Unit, target: Unit, answer: PairVisibility) -> bool:
        """Whether ``answer``, worked out before :meth:`take_over` for two units that did not
        move and whose witness stands, would be worked out the same now though a move deleted
        or shook some answers between them: it is "not fully visible", every observing model's
        answer about the target model it names (asked first, so again the one that settles
        it) is still there as it was, and the top-to-top answers its benefit of cover rests on
        (:class:`_CoverBasis`) still read as they did."""
        from engine import sight_kernel as kernel

        key = (observer.id, target.id)
        hidden = self._not_seen_whole.get(key)
        basis = self._cover_rests_on.get(key)
        if self.night_fighting or answer.fully_visible or hidden is None or basis is None:
            return False
        slot = self.slot(*key)
        return bool(
            kernel.answers_stand(
                slot.full,
                slot.sight,
                self.rows_of(observer),
                self.index[hidden],
                len(self.ids),
                basis.observers,
                basis.targets,
                basis.seen,
            )
        )

    # Caches

    def slot_numbered(self, number: int) -> _CacheSlot:
        """The caches of the unit pair numbered ``number`` (:func:`slot_number`), made when
        missing."""
        with self._slots_lock:
            slot = self._slots.get(number)
            if slot is None:
                from engine import sight_kernel as kernel

                if self._caches is None:
                    self._caches = kernel.new_cache_list()
                slot = _CacheSlot(*kernel.new_slot(self._caches), threading.RLock())
                self._slots[number] = slot
            return slot

    def slot(self, one_unit_id: str, other_unit_id: str) -> _CacheSlot:
        """The caches holding this unit pair's model-pair answers (either order)."""
        return self.slot_numbered(slot_number(one_unit_id, other_unit_id))

    # Lookups

    def model(self, model_id: str) -> Model:
        return self.scenario.model(model_id)

    def within_areas(self, model_id: str) -> frozenset[str]:
        """Ids of the terrain areas this model's base overlaps (touching counts)."""
        return self.within_cache[_outline_key(self.model(model_id))]

    def _find_areas_within(self, models: Sequence[Model]) -> list[frozenset[str]]:
        """The ids of the terrain areas each of ``models``' bases is within, in their order.
        The bases :attr:`within_cache` does not hold yet are added to it, every terrain area
        tested against all of them at once (after a move, only the moved bases are new)."""
        keys = [_outline_key(model) for model in models]
        known = [self.within_cache.get(key) for key in keys]
        missing = {
            key: model
            for key, model, areas in zip(keys, models, known, strict=True)
            if areas is None
        }
        if missing:
            self._add_areas_within(missing)
        cache = self.within_cache
        return [
            cache[key] if areas is None else areas for key, areas in zip(keys, known, strict=True)
        ]

    def _add_areas_within(self, missing: Mapping[tuple[object, ...], Model]) -> None:
        """Adds the bases ``missing`` (one model each, by :func:`_outline_key`) to
        :attr:`within_cache` and to their battlefield's record."""
        shapes = shape_arrays([shape_of(model) for model in missing.values()])
        areas = [terrain_area(piece) for piece in self.scenario.terrain]
        overlaps, _ = area_relations(shapes, areas)
        found = [set[str]() for _ in missing]
        for piece, row in zip(*np.nonzero(overlaps), strict=True):
            found[row].add(self.scenario.terrain[piece].id)
        new = {key: frozenset(pieces) for key, pieces in zip(missing, found, strict=True)}
        self.within_cache.update(new)
        _remember_areas_within(self.scenario.terrain, new)

    def _indices(self, models: Iterable[Model]) -> np.ndarray:
        return np.array([self.index[m.id] for m in models], dtype=np.int32)

    def rows_of(self, unit: Unit) -> NDArray[np.int32]:
        """The rows of ``unit``'s models in the scene's arrays, in the unit's order (made once:
        an update asks for them again for every unit pair it recomputes)."""
        rows = self._rows_of.get(unit.id)
        if rows is None:
            rows = self._rows_of[unit.id] = self._indices(unit.models)
        return rows

    def _rows_from(self, unit: Unit, first_id: str) -> NDArray[np.int32]:
        """:meth:`rows_of`, model ``first_id``'s row first (made once per scene: every observing
        unit asks the target model it last found not fully visible first)."""
        key = (unit.id, first_id)
        rows = self._rows_first.get(key)
        if rows is None:
            rows, first = self.rows_of(unit), self.index[first_id]
            rows = self._rows_first[key] = np.concatenate(([first], rows[rows != first])).astype(
                np.int32
            )
        return rows

    def _names(self, marked: np.ndarray) -> tuple[str, ...]:
        labels = self.labels
        return tuple(sorted({labels[k] for k in np.flatnonzero(marked).tolist()}))

    # Model pairs

    def _sight_line_along(
        self, observer_id: str, target_id: str, segment: NDArray[np.float64]
    ) -> SightLine:
        """The sight line along ``segment`` ``(x0, y0, x1, y1)``, from the observing model's
        top to the target model's."""
        sx, sy, ex, ey = (float(v) for v in segment)
        obs, tgt = self.model(observer_id), self.model(target_id)
        return SightLine(
            observer_id,
            target_id,
            (sx, sy, obs.z + obs.height),
            (ex, ey, tgt.z + tgt.height),
        )

    def in_range(self, observer_id: str, target_unit: Unit) -> bool:
        """Night Fighting: is the observing model within 18" of some model of the unit?"""
        if not self.night_fighting:
            return True
        key = (observer_id, target_unit.id)
        cached = self._in_range.get(key)
        if cached is None:
            outline = self.footprint[observer_id]
            cached = any(
                outline.distance_to(self.footprint[m.id]) <= NIGHT_FIGHTING_RANGE + TOLERANCE
                for m in target_unit.models
            )
            self._in_range[key] = cached
        return cached

    def takes_cover_in_terrain(self, unit: Unit, model: Model) -> bool:
        return bool(unit.model_keywords(model) & COVER_KEYWORDS) and bool(
            self.within_areas(model.id)
        )

    # Unit pairs

    def pair(self, observer: Unit, target: Unit) -> PairVisibility:
        """What ``observer`` sees of ``target``, worked out with their cache slot held (the
        witness line's lookup takes it again, so the lock is re-entrant)."""
        slot = self.slot(observer.id, target.id)
        with slot.lock:
            return self._pair(observer, target, slot)

    def _pair(self, observer: Unit, target: Unit, slot: _CacheSlot) -> PairVisibility:
        from engine import sight_kernel as kernel

        eligible = (
            [m for m in observer.models if self.in_range(m.id, target)]
            if self.night_fighting
            else list(observer.models)
        )
        if not eligible or not target.models:
            reason = (
                f'Night Fighting: no model of {observer.id} is within 18" of {target.id}'
                if observer.models and target.models
                else "one of the units has no models"
            )
            return PairVisibility(observer.id, target.id, False, False, False, None, (), reason)
        # Top-to-top sight is symmetric: with every model of both units taking part, the answer
        # for one direction is the answer for the other.
        both_ways = frozenset((observer.id, target.id)) if not self.night_fighting else None
        known = self._unit_sight.get(both_ways) if both_ways is not None else None
        if known is None:
            in_the_way = np.zeros(len(self.labels), dtype=bool)
            observers, targets = self._observer_rows(observer, eligible), self.rows_of(target)
            before = self._walls_before.get(both_ways)
            seen_before = self._seen_before.get(both_ways)
            barrier = (
                kernel.unit_separator_among(
                    self.arrays, observers, targets, before.walls, SEARCH_GROW
                )
                if before is not None and before.separated
                else ()
            )
            segment = _NO_SEGMENT
            if len(barrier):
                in_the_way[barrier] = True
                status, seen_by, seen, separated = kernel.NONE, -1, -1, True
            else:
                status, seen_by, seen, separated, segment = kernel.unit_pair_sight(
                    self.arrays,
                    observers,
                    targets,
                    slot.sight,
                    in_the_way,
                    SEARCH_GROW,
                    HALF_LINE_WIDTH,
                    self._every_blocker if before is None else before.walls,
                    True,
                    True,
                    *(seen_before if seen_before is not None else (-1, -1)),
                )
            pair = (self.ids[seen_by], self.ids[seen]) if seen_by >= 0 else ("", "")
            known = _UnitSight(
                int(status),
                pair,
                bool(separated),
                self._names(in_the_way),
                np.flatnonzero(in_the_way).astype(np.int32),
                self._sight_line_along(*pair, segment) if status == kernel.FOUND else None,
            )
            if both_ways is not None:
                self._unit_sight[both_ways] = known
                for name in known.names:
                    self._named_in.setdefault(name, set()).add(both_ways)
                if known.status not in (kernel.FOUND, kernel.NONE):
                    self._unsettled.add(both_ways)
        status, (one, other), separated, found, _, line = known
        if separated:
            verb = "stands" if len(found) == 1 else "stand"
            walls = "walls" if len(found) == 1 else "wall"
            text = (
                f"{target.id} is not visible to {observer.id}: {' and '.join(found)} {verb} "
                f"between the two units and {walls} off every sight line"
            )
            return PairVisibility(observer.id, target.id, False, False, False, None, found, text)
        if status != kernel.FOUND:
            limit = (
                " (not proven: a line over mixed-height blockers may exist)"
                if status == kernel.UNPROVEN
                else ""
            )
            text = (
                f"{target.id} is not visible to {observer.id}: every sight line is blocked"
                f"{limit}; in the way: {', '.join(found) or 'nothing'}"
            )
            return PairVisibility(observer.id, target.id, False, False, False, None, found, text)
        assert line is not None
        witness = line if self.unit_of[one].id == observer.id else line.reversed()
        observing = self._observer_rows(observer, eligible)
        cover, cover_text, fully, full_text, full_blockers = self._cover_and_fully_visible(
            slot, observer.id, observing, target, witness
        )
        explanation = f"{_describe_line(witness)}. {full_text}. {cover_text}."
        return PairVisibility(
            observer.id, target.id, True, fully, cover, witness, full_blockers, explanation
        )

    def _observer_rows(self, observer: Unit, eligible: Sequence[Model]) -> NDArray[np.int32]:
        """The rows of ``eligible``, the observing models taking part (all of the unit's but
        under Night Fighting)."""
        return self._indices(eligible) if self.night_fighting else self.rows_of(observer)

    def _cover_and_fully_visible(
        self,
        slot: _CacheSlot,
        observer_id: str,
        observing: NDArray[np.int32],
        target: Unit,
        witness: SightLine,
    ) -> tuple[bool, str, bool, str, tuple[str, ...]]:
        """Benefit of cover, then whether every model of ``target`` is fully visible to an
        observing model (rows ``observing``), asked of the kernel in one call: ``(cover,
        cover_text, fully, full_text, blockers)``. Cover first: it asks terrain alone about the
        target's exposed models, and a model that terrain alone hides from every observer
        settles "not fully visible" at once. For "fully visible", the models already proven
        not seen whole by the most observers are asked first, then the model last found not
        fully visible: any one such model settles "not", so the order changes only which model
        the explanation names."""
        from engine import sight_kernel as kernel

        units = (observer_id, target.id)
        # Worked out afresh each time: a pair worked out again with a new witness may now rest
        # on more.
        self._cover_rests_on.pop(units, None)
        settled_cover, exposed_rows = self._cover_question(target)
        in_the_way = np.zeros(len(self.labels), dtype=bool)
        last = self._not_seen_whole.get(units)
        (
            observer,
            model,
            sighted,
            blind,
            fully,
            hidden_model,
            first_observer,
            x,
            y,
            proven,
        ) = kernel.cover_and_fully_visible(
            self.arrays,
            slot.full,
            slot.sight,
            observing,
            exposed_rows,
            self.rows_of(target),
            self.index[witness.observer_model],
            self.index[witness.target_model],
            self.rows_of(target) if last is None else self._rows_from(target, last),
            in_the_way,
            SEARCH_GROW,
            HALF_LINE_WIDTH,
        )
        if settled_cover is not None:
            self._cover_rests_on[units] = _ON_ITS_OWN
            cover, cover_text = settled_cover
        else:
            cover, cover_text = self._cover_answer(
                units, observing, target, witness, (observer, model, sighted, blind)
            )
        if fully:
            full_text = f"fully visible: every model of {target.id} is fully visible"
            return cover, cover_text, True, full_text, ()
        self._not_seen_whole[units] = self.ids[hidden_model]
        found = self._names(in_the_way)
        how = "hidden" if proven else "not seen whole from any one observer point"
        full_text = (
            f"not fully visible: {self.ids[hidden_model]}'s facing point ({x:.3f}, {y:.3f}) is "
            f"{how} from {self.ids[first_observer]} (in the way: {', '.join(found) or 'nothing'})"
        )
        return cover, cover_text, False, full_text, found

    def _cover_question(self, target: Unit) -> tuple[tuple[bool, str] | None, NDArray[np.int32]]:
        """What benefit of cover asks of the kernel about ``target``: the answer when none is
        needed (no cover under the ruleset, or every model takes cover within terrain), and
        the rows of its models not taking cover within terrain (none when the answer is
        settled)."""
        if not self.cover_rules:
            return (False, f"no benefit of cover under {self.scenario.ruleset}"), _NO_ROWS
        split = self._cover_split.get(target.id)
        if split is None:
            sheltered = tuple(m for m in target.models if self.takes_cover_in_terrain(target, m))
            exposed = tuple(m for m in target.models if not self.takes_cover_in_terrain(target, m))
            split = self._cover_split[target.id] = (sheltered, exposed, self._indices(exposed))
        _, exposed, exposed_rows = split
        if not exposed:
            settled = (
                True,
                f"cover: every model of {target.id} is INFANTRY/BEASTS/SWARM within a terrain area",
            )
            return settled, _NO_ROWS
        return None, exposed_rows

    def _cover_answer(
        self,
        units: tuple[str, str],
        observing: NDArray[np.int32],
        target: Unit,
        witness: SightLine,
        found: tuple[int, int, int, NDArray[np.bool_]],
    ) -> tuple[bool, str]:
        """Benefit of cover from the kernel's answer ``found`` (the observing model that sees
        an exposed model whole with terrain alone, that model, the target model it sees, and
        the observers seeing an exposed model whole but no target model), noting what it rests
        on for the next move."""
        observer, model, sighted, blind = found
        sheltered, exposed, _ = self._cover_split[target.id]
        if observer >= 0 and (self.ids[observer], self.ids[model]) == (
            witness.observer_model,
            witness.target_model,
        ):
            # The kernel asks the witness's models first, with terrain alone: asked again, it
            # answers the same while the witness and the two models stay.
            self._cover_rests_on[units] = _ON_ITS_OWN
        elif observer >= 0:
            self._cover_rests_on[units] = _CoverBasis(
                True, np.array([observer], dtype=np.int32), np.array([sighted], dtype=np.int32)
            )
        else:
            self._cover_rests_on[units] = _CoverBasis(False, observing[blind], self.rows_of(target))
        if observer >= 0:
            return False, (
                f"no cover against {self.ids[observer]}: it sees {self.ids[model]} fully with "
                "terrain alone"
            )
        parts = []
        if sheltered:
            parts.append(f"{', '.join(m.id for m in sheltered)} within terrain areas")
        parts.append(f"{', '.join(m.id for m in exposed)} not fully visible because of terrain")
        return True, "cover against every observing model that sees it: " + "; ".join(parts)


def _ordered_pairs_with(units: Iterable[str], others: Sequence[str]) -> Iterator[tuple[str, str]]:
    """Every ordered pair of a unit of ``units`` and another of ``others``, both ways round
    (twice when both are among ``units``): the keys a change of ``units`` can make stale,
    found without reading every key.

    >>> sorted(_ordered_pairs_with({"a"}, ["a", "b", "c"]))
    [('a', 'b'), ('a', 'c'), ('b', 'a'), ('c', 'a')]
    """
    for one in units:
        for other in others:
            if other != one:
                yield one, other
                yield other, one


def _stack(polygons: Sequence[np.ndarray]) -> np.ndarray:
    filled = [p for p in polygons if len(p)]
    return np.vstack(filled) if filled else np.zeros((0, 2))


def _ranges(polygons: Sequence[np.ndarray]) -> np.ndarray:
    lengths = np.fromiter(map(len, polygons), dtype=np.int64, count=len(polygons))
    stops = np.cumsum(lengths)
    return np.column_stack([stops - lengths, stops])


def _describe_line(line: SightLine) -> str:
    sx, sy, sz = line.start
    ex, ey, ez = line.end
    return (
        f"{line.observer_model} sees {line.target_model} along "
        f"({sx:.3f}, {sy:.3f}, {sz:.2f}) -> ({ex:.3f}, {ey:.3f}, {ez:.2f})"
    )


# ---------------------------------------------------------------------------------------------
# Public API


def _ordered_pairs(scenario: Scenario, observers: Iterable[str] | None) -> list[tuple[Unit, Unit]]:
    wanted = None if observers is None else set(observers)
    if wanted is not None:
        known = {u.id for u in scenario.units}
        unknown = sorted(wanted - known)
        if unknown:
            raise UnknownReferenceError(f"no unit with id {', '.join(unknown)}")
    units = sorted(scenario.units, key=lambda u: u.id)
    return [
        (obs, tgt)
        for obs in units
        if wanted is None or obs.id in wanted
        for tgt in units
        if tgt.player != obs.player
    ]


def visibility(
    scenario: Scenario, observers: Iterable[str] | None = None
) -> tuple[PairVisibility, ...]:
    """Visibility for every ordered pair of units of opposing players, sorted by observer then
    target; ``observers`` restricts the observing units.

    >>> from engine.model import CircleBase, Model, Player, Scenario, TerrainFeature
    >>> from engine.model import TerrainPiece, Unit
    >>> wall = TerrainFeature(((14.0, 0.0), (15.0, 0.0), (15.0, 20.0), (14.0, 20.0)), 5.0)
    >>> ruin = TerrainPiece("ruin", ((14.0, 0.0), (15.0, 0.0), (15.0, 20.0), (14.0, 20.0)),
    ...                     features=(wall,))
    >>> red = Unit("red", "red", (Model("r1", 10.0, 10.0, CircleBase(32)),))
    >>> blue = Unit("blue", "blue", (Model("b1", 20.0, 10.0, CircleBase(32)),))
    >>> s = Scenario("wh40k-ca2026", (Player("red"), Player("blue")), units=(red, blue),
    ...              terrain=(ruin,))
    >>> pair = visibility(s)[0]
    >>> pair.visible, pair.blockers
    (False, ('ruin',))
    """
    return VisibilityEngine(scenario).matrix(observers)


@dataclass
class VisibilityEngine:
    """Visibility for one scenario, kept up to date as units move.

    :meth:`update` recomputes only the unit pairs a move can change: pairs involving a moved
    unit, and pairs whose sight corridor (the hull of both units' bases) the moved units' old
    or new bases touch, since a model can block or unblock other units' sight lines (unless
    the pair is hidden by a proof no moved unit is part of, or seen along a witness still free
    with none of its model pairs' cached answers forgotten: those answers stand).

    For a unit being dragged, call :meth:`update` with it, then :meth:`row` (what it sees) and
    :meth:`column` (what sees it); both read the cache :meth:`update` has filled.
    """

    scenario: Scenario
    threads: int = SIGHT_THREADS
    """Threads working out missing pairs (1 leaves the other cores free, say for a drag)."""
    _scene: SightScene = field(init=False, repr=False)
    _results: dict[tuple[str, str], PairVisibility] = field(init=False, repr=False)
    _corridors: dict[tuple[str, str], NDArray[np.float64]] = field(init=False, repr=False)
    _unit_hulls: dict[str, NDArray[np.float64]] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._scene = SightScene(self.scenario)
        self._results = {}
        self._corridors = {}
        self._unit_hulls = {}

    def _answer(self, observer: Unit, target: Unit) -> PairVisibility:
        key = (observer.id, target.id)
        result = self._results.get(key)
        if result is None:
            result = self._scene.pair(observer, target)
            self._results[key] = result
        return result

    def matrix(self, observers: Iterable[str] | None = None) -> tuple[PairVisibility, ...]:
        """Every ordered pair of opposing units (optionally only these observers)."""
        pairs = _ordered_pairs(self.scenario, observers)
        results = self._results
        self._work_out([(o, t) for o, t in pairs if (o.id, t.id) not in results])
        return tuple(results[o.id, t.id] for o, t in pairs)

    def _work_out(self, pairs: Sequence[tuple[Unit, Unit]]) -> None:
        """Answers ``pairs`` on :attr:`threads` threads. A unit pair's two orders run on one
        thread in their given order (the second reads the first's answer); no other unit
        pair's answers need them, so every answer is the one a single thread would give."""
        both_orders: dict[frozenset[str], list[tuple[Unit, Unit]]] = {}
        for observer, target in pairs:
            both_orders.setdefault(frozenset((observer.id, target.id)), []).append(
                (observer, target)
            )
        if self.threads < 2 or len(both_orders) < 2:
            for task in both_orders.values():
                self._answer_all(task)
            return
        # The unit pairs likely to take longest first, so the last to finish is a quick one: a
        # unit pair's work grows with its number of model pairs.
        ordered = sorted(
            both_orders.values(),
            key=lambda task: sum(len(o.models) * len(t.models) for o, t in task),
            reverse=True,
        )
        slots = [slot_number(task[0][0].id, task[0][1].id) for task in ordered]
        # The slots are made before the threads start: making one hands the GIL over with the
        # scene's lock of slots held, and a thread waiting on either sleeps until woken (a
        # fresh row's 15 slots made on its two threads cost it about 5%).
        for number in slots:
            self._scene.slot_numbered(number)
        queue = _SlotQueue(list(zip(slots, ordered, strict=True)))
        # The calling thread works through the queue too: it starts at once, where a pool thread
        # may take a while to wake, and a helper that has not started when the queue runs dry
        # is called off rather than waited for.
        helpers = [
            _sight_pool(self.threads).submit(self._work_through, queue)
            for _ in range(self.threads - 1)
        ]
        try:
            self._work_through(queue)
        finally:
            for helper in helpers:
                if not helper.cancel():
                    helper.result()

    def _work_through(self, queue: _SlotQueue) -> None:
        finished = None
        while (taken := queue.take(finished)) is not None:
            finished, task = taken
            self._answer_all(task)

    def _answer_all(self, pairs: Sequence[tuple[Unit, Unit]]) -> None:
        for observer, target in pairs:
            self._answer(observer, target)

    def around(self, unit_ids: Iterable[str]) -> tuple[PairVisibility, ...]:
        """What some units see and what sees them: each unit's row, then the rest of its
        column (the pairs whose observer is not among ``unit_ids``), units in id order. The
        missing pairs are worked out together, so both orders of a unit pair run on one thread
        (the second reads the first's answer) and the threads share all of them, where a row
        and then a column would wait for each other.

        >>> from engine.model import CircleBase, Model, Player, Scenario, Unit
        >>> red = Unit("red", "red", (Model("r1", 10.0, 10.0, CircleBase(32)),))
        >>> blue = Unit("blue", "blue", (Model("b1", 20.0, 10.0, CircleBase(32)),))
        >>> s = Scenario("wh40k-ca2026", (Player("red"), Player("blue")), units=(red, blue))
        >>> [(p.observer, p.target) for p in VisibilityEngine(s).around(["red"])]
        [('red', 'blue'), ('blue', 'red')]
        """
        focus = sorted(set(unit_ids))
        pairs = _ordered_pairs(self.scenario, focus)
        for unit_id in focus:
            pairs += self._column_pairs(self.scenario.unit(unit_id), leaving_out=set(focus))
        self._work_out([(o, t) for o, t in pairs if (o.id, t.id) not in self._results])
        return tuple(self._answer(o, t) for o, t in pairs)

    def row(self, observer_unit_id: str) -> tuple[PairVisibility, ...]:
        """What one unit sees: its pairs as the observer, sorted by target."""
        return self.matrix([observer_unit_id])

    def column(self, target_unit_id: str) -> tuple[PairVisibility, ...]:
        """What sees one unit: its pairs as the target, sorted by observer."""
        try:
            target = self.scenario.unit(target_unit_id)
        except KeyError:
            raise UnknownReferenceError(f"no unit with id {target_unit_id}") from None
        pairs = self._column_pairs(target)
        self._work_out([(o, t) for o, t in pairs if (o.id, t.id) not in self._results])
        return tuple(self._answer(o, t) for o, t in pairs)

    def _column_pairs(
        self, target: Unit, leaving_out: Collection[str] = ()
    ) -> list[tuple[Unit, Unit]]:
        """The ordered pairs of every opposing unit (by id, but those ``leaving_out``) and
        ``target``."""
        return [
            (observer, target)
            for observer in sorted(self.scenario.units, key=lambda u: u.id)
            if observer.player != target.player and observer.id not in leaving_out
        ]

    def update(
        self, new_scenario: Scenario, moved_unit_ids: Iterable[str]
    ) -> tuple[PairVisibility, ...]:
        """Adopt ``new_scenario`` (the old one with ``moved_unit_ids`` moved) and return the
        whole matrix, recomputing only the pairs the move can affect. Any other difference
        (terrain, twist, ruleset, options, units added or changed) is detected and handled too."""
        self.adopt(new_scenario, moved_unit_ids)
        return self.matrix()

    def adopt(self, new_scenario: Scenario, moved_unit_ids: Iterable[str]) -> None:
        """Take ``new_scenario`` as :meth:`update` does, but compute nothing yet: the pairs
        the change can affect are forgotten and worked out when asked for (:meth:`row`,
        :meth:`column`, :meth:`matrix`), so a view that shows one unit's sight pays for its
        pairs only."""
        from engine import sight_kernel as kernel

        old = self.scenario
        old_scene = self._scene
        same_setting = (
            old.terrain == new_scenario.terrain
            and twist_of(old) == twist_of(new_scenario)
            and ruleset_for(old) is ruleset_for(new_scenario)
            and old.players == new_scenario.players
            and old.options == new_scenario.options
        )
        old_units = {u.id: u for u in old.units}
        new_units = {u.id: u for u in new_scenario.units}
        changed = set(moved_unit_ids) | (set(old_units) ^ set(new_units))
        changed |= {
            uid
            for uid, unit in new_units.items()
            if uid in old_units and old_units[uid] is not unit and old_units[uid] != unit
        }
        self.scenario = new_scenario
        if not same_setting:
            self.__post_init__()
            return
        self._scene = SightScene(
            new_scenario,
            terrain=old_scene.terrain,
            within=old_scene.within_cache,
            moved_from=(old_scene, frozenset(changed)),
        )
        if old_scene.ids == self._scene.ids:
            self._scene.take_over(old_scene, changed, self.threads)
        # The moved bases' boxes, before and after, and for each moved unit the box holding
        # its bases' (a unit's bases stand close together).
        grow = np.array([-SEARCH_GROW, -SEARCH_GROW, SEARCH_GROW, SEARCH_GROW])
        unit_bases = [
            np.array([scene.footprint[model.id].bounds for model in unit.models]) + grow
            for scene in (old_scene, self._scene)
            for unit in scene.scenario.units
            if unit.id in changed and unit.models
        ]
        moved_boxes = np.concatenate([np.zeros((0, 4)), *unit_bases])
        unit_boxes = np.array(
            [[*boxes[:, :2].min(axis=0), *boxes[:, 2:].max(axis=0)] for boxes in unit_bases]
        )
        # A unit gone from the scenario is among the changed ones.
        with_changed = list(_ordered_pairs_with(changed, list(old_units)))
        stale = {key for key in with_changed if key in self._results}
        for key in with_changed:
            self._corridors.pop(key, None)
        for unit_id in changed:
            self._unit_hulls.pop(unit_id, None)
        if len(moved_boxes):
            # A pair found not visible keeps its answer when its proof stands (the scene kept
            # its unit sight: no moved unit is among what hid it); the answer reads nothing else.
            # A visible pair keeps its answer when its witness is still seen and no answer of its
            # model pairs was forgotten or shaken: every question would read the same answers.
            standing = self._scene.standing_unit_sight()
            touched = self._scene.touched_unit_pairs

            def keeps(key: tuple[str, str]) -> bool:
                units = frozenset(key)
                answer = self._results[key]
                if units in standing and (
                    not answer.visible
                    or (
                        touched is not None
                        and (
                            units not in touched
                            or self._scene.still_answers(
                                new_units[key[0]], new_units[key[1]], answer
                            )
                        )
                    )
                ):
                    return True
                return not kernel.hull_meets_boxes(self._corridor(key), moved_boxes)

            stale.update(
                key
                for key in self._pairs_near(new_scenario, unit_boxes, changed)
                if key in self._results and not keeps(key)
            )
        for key in stale:
            del self._results[key]

    def _pairs_near(
        self, scenario: Scenario, boxes: np.ndarray, changed: Collection[str]
    ) -> list[tuple[str, str]]:
        """The ordered pairs of two units of ``scenario``, neither of them ``changed``, whose
        reaches' box (:meth:`_unit_reach`) meets one of ``boxes`` (rows ``(x0, y0, x1, y1)``,
        each holding the bases of a moved unit). Only a corridor whose box meets a moved base's
        box can meet the base, so the exact test (one compiled call each) runs for these pairs
        alone; the boxes of every pair are compared at once.

        >>> from engine.model import CircleBase, Model, Player, Scenario, Unit
        >>> def unit(uid, player, x):
        ...     return Unit(uid, player, (Model(uid + "1", x, 10.0, CircleBase(32)),))
        >>> s = Scenario("wh40k-ca2026", (Player("red"), Player("blue")),
        ...              units=(unit("a", "red", 5.0), unit("b", "blue", 15.0),
        ...                     unit("c", "blue", 40.0)))
        >>> engine = VisibilityEngine(s)
        >>> engine._pairs_near(s, np.array([[9.0, 9.0, 11.0, 11.0]]), set())
        [('a', 'b'), ('a', 'c'), ('b', 'a'), ('c', 'a')]
        >>> engine._pairs_near(s, np.array([[9.0, 9.0, 11.0, 11.0]]), {"b"})
        [('a', 'c'), ('c', 'a')]
        """
        reach = self._unit_reach(scenario)
        near = np.zeros((len(reach), len(reach)), dtype=bool)
        for x0, y0, x1, y1 in boxes.tolist():
            # A pair's box runs from the lower of its units' lows to the higher of their
            # highs: it reaches x1 when either unit's low does, and so on for each side (a
            # unit without models has a box of NaNs, never below nor above anything: its
            # pairs' boxes are the other unit's).
            below_x1 = reach[:, 0] <= x1
            above_x0 = reach[:, 2] >= x0
            below_y1 = reach[:, 1] <= y1
            above_y0 = reach[:, 3] >= y0
            near |= (
                (below_x1[:, None] | below_x1[None, :])
                & (above_x0[:, None] | above_x0[None, :])
                & (below_y1[:, None] | below_y1[None, :])
                & (above_y0[:, None] | above_y0[None, :])
            )
        units = scenario.units
        moved = np.array([unit.id in changed for unit in units], dtype=bool)
        near &= ~(moved[:, None] | moved[None, :])
        np.fill_diagonal(near, False)
        return [(units[one].id, units[other].id) for one, other in np.argwhere(near).tolist()]

    def _unit_reach(self, scenario: Scenario) -> np.ndarray:
        """Per unit of ``scenario``, in its order, a box ``(x0, y0, x1, y1)`` holding every point
        :func:`engine.sight_kernel.bases_hull` can put round its bases: a rectangle's corners,
        an oval's circumscribed 16-gon (within ``max(a, b) / cos(pi / 16)`` of its centre; a
        hair more is added). A unit without models has a box of NaNs (a pair's box is then its
        other unit's: ``np.fmin`` and ``np.fmax`` pass NaNs over)."""
        outline = self._scene.arrays.model_outline
        unit = self._scene.arrays.model_unit
        from engine import sight_kernel as kernel

        radius = (
            np.where(
                outline[:, 0] == kernel.OUTLINE_RECT,
                np.hypot(outline[:, 3], outline[:, 4]),
                np.maximum(outline[:, 3], outline[:, 4]) / math.cos(math.pi / 16),
            )
            + 1e-6
        )
        reach = np.full((len(scenario.units), 4), np.nan)
        lows = np.full((len(scenario.units), 2), np.inf)
        highs = np.full((len(scenario.units), 2), -np.inf)
        np.minimum.at(lows, unit, outline[:, 1:3] - radius[:, None])
        np.maximum.at(highs, unit, outline[:, 1:3] + radius[:, None])
        filled = np.isfinite(lows[:, 0])
        reach[filled, :2] = lows[filled]
        reach[filled, 2:] = highs[filled]
        return reach

    def _corridor(self, key: tuple[str, str]) -> NDArray[np.float64]:
        """A convex polygon holding both units' bases (:func:`engine.sight_kernel.bases_hull`):
        every sight line between them lies inside it. It is the hull of the two units' own
        hulls (the same polygon as the hull of all their bases' points), and a unit's hull is
        kept until the unit moves: after a move, most pairs asked about pair units that did
        not move, each of them part of many pairs."""
        ordered = key if key[0] <= key[1] else (key[1], key[0])
        corridor = self._corridors.get(ordered)
        if corridor is None:
            from engine import sight_kernel as kernel

            corridor = kernel.convex_hull(
                np.concatenate([self._unit_hull(ordered[0]), self._unit_hull(ordered[1])])
            )
            self._corridors[ordered] = corridor
        return corridor

    def _unit_hull(self, unit_id: str) -> NDArray[np.float64]:
        """The hull of one unit's bases (:func:`engine.sight_kernel.bases_hull`), kept until
        the unit moves."""
        hull = self._unit_hulls.get(unit_id)
        if hull is None:
            from engine import sight_kernel as kernel

            scene = self._scene
            rows = scene.rows_of(self.scenario.unit(unit_id))
            hull = self._unit_hulls[unit_id] = kernel.bases_hull(scene.arrays.model_outline, rows)
        return hull
