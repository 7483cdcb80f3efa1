"""The hidden-placement map: where a model of a given base and height could stand unseen.

For every cell of a grid over a region (a player's deployment zone, or the whole table), the
answer for one model of that base and height centred on the cell, standing on the ground:

* ``"blocked"``: the base cannot stand there: not wholly on the table, or overlapping (by more
  than the 1e-6" tolerance: contact is not overlap) the footprint of a solid terrain feature or
  another model's base;
* ``"hidden"``: no enemy model can see it, by exactly the rules of :mod:`engine.visibility`
  (obscuring areas, heights, solid features, Night Fighting); in mode ``"not-fully-visible"``,
  no enemy model sees it *fully* (it is unseen or in the engine's sense not fully visible);
* ``"visible"`` otherwise.

Each cell is the engine's own answer for a real model placed there, as a unit of its own: the
scene is built once with such a probe model, and each cell moves only the probe's rows before
the compiled kernels (:mod:`engine.hidden_kernel`) ask every enemy unit as
:meth:`engine.visibility.VisibilityEngine.row` would. Nothing is sampled.

The grid. Cell centres lie on the lattice ``((i + 0.5) * step, (j + 0.5) * step)`` from the
table's south-west corner, so maps of different regions line up and a mirrored table mirrors
the map; a cell belongs to the region when its centre is in the region (its edge included).
``origin`` is the centre of the south-west cell of the map's box; cells are listed row by row
from south to north, each row from west to east (they are worked out column by column).

Observers. ``observers="models"``: the enemy's models on the table (only the units with a model
within ``within`` inches of the probe's base, if given). ``observers="zone"``, before the enemy
has deployed: every point of the enemy's deployment zone at ``observer_height``; the enemy's
models are lifted off. A point of the zone within an obscuring area sees through that area as a
model within it would: the zone is cut along every obscuring area's outline, each part within
the areas it lies in, and cut into triangles (exact convex pieces the kernels take as sight-line
ends).

Choices where the rules are silent (also :data:`RULE_NOTES`).

>>> from engine.model import CircleBase, Model, Player, Scenario, TerrainFeature
>>> from engine.model import TerrainPiece, Unit
>>> wall = ((20.0, 0.0), (21.0, 0.0), (21.0, 44.0), (20.0, 44.0))
>>> board = Scenario("wh40k-ca2026", (Player("red"), Player("blue")),
...                  units=(Unit("blue-a", "blue", (Model("b1", 40.0, 22.0, CircleBase(32)),)),),
...                  terrain=(TerrainPiece("wall", wall, features=(TerrainFeature(wall, 5.0),)),))
>>> seen = hidden_map(board, player="red", base=CircleBase(32), height=1.5, step=4.0,
...                   region="table")
>>> seen.counts["hidden"] > 0, seen.undecided
(True, 0)
>>> state = {(x, y): s for x, y, s in seen.to_json()["cells"]}
>>> state[(10.0, 22.0)], state[(30.0, 22.0)], state[(22.0, 2.0)]
('hidden', 'visible', 'visible')
"""

from __future__ import annotations

import dataclasses
import math
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, get_args

import numpy as np
import shapely
from numpy.typing import NDArray

from engine.bases import standard_bases
from engine.deployments import resolve_deployment
from engine.errors import GeometryError, RulesError, UnknownReferenceError
from engine.geometry import (
    KIND_CIRCLE,
    KIND_OVAL,
    KIND_RECT,
    TOLERANCE,
    PreparedArea,
    ShapeArrays,
    close_pairs,
    models_shape_arrays,
    overlapping_by_more_than,
    overlaps_many,
    prepared_polygon,
    terrain_area,
    wholly_within_many,
)
from engine.model import Base, CircleBase, Model, OvalBase, RectBase, Scenario, Unit
from engine.sightlines import HALF_LINE_WIDTH, SEARCH_GROW
from engine.spatial import Grid
from engine.visibility import NIGHT_FIGHTING_RANGE, SightScene, twist_of

if TYPE_CHECKING:
    from engine import hidden_kernel
    from engine.sight_kernel import SceneArrays

Region = Literal["zone", "table"]
Mode = Literal["hidden", "not-fully-visible"]
Observers = Literal["models", "zone"]
CellState = Literal["hidden", "visible", "blocked"]

MIN_STEP = 0.1
MAX_STEP = 4.0
DEFAULT_STEP = 0.5

STATE_NAMES: tuple[CellState, CellState, CellState] = ("visible", "hidden", "blocked")
"""Cell states by the codes of :mod:`engine.hidden_kernel` (``VISIBLE, HIDDEN, BLOCKED``)."""
_STATE_NAME_ARRAY = np.array(STATE_NAMES, dtype=object)

STRIP_COLUMNS = 6
"""Grid columns a thread takes at a time: a strip is one column of the map's tiles
(:data:`engine.hidden_kernel.TILE_CELLS` square, each two model tiles across), asked column by
column, each column south to north. A thread goes on eastwards from strip to strip while the
next one is free, carrying what it learnt (:class:`engine.hidden_kernel.Memory`): the whole
official table in one sweep on one thread cost 589 ms, in blocks of four rows each starting
afresh 875 ms."""

THREADS = 2

RULE_NOTES: tuple[str, ...] = (
    "hidden map: the model stands on the ground (z = 0) at the cell's centre, as a unit of its "
    "own of the chosen player; every other model on the table stays and blocks as usual",
    "hidden map: a cell belongs to the region when its centre does (the base may reach out of "
    "the deployment zone)",
    "hidden map: 'blocked' means not wholly on the table, or overlapping a solid feature's "
    "footprint or another model's base by more than 1e-6\" (contact is not overlap); Nowhere "
    "to Hide makes features not solid for sight, not for standing",
    'hidden map: "within X" keeps the enemy units with a model within X" (closest points of '
    "the bases) of the model at the cell",
    "hidden map, zone observers: every point of the enemy deployment zone at the observer "
    "height; a point within an obscuring area sees through that area; Night Fighting keeps a "
    'piece of the zone when some point of it is within 18" of the base (erring towards '
    "'visible'); 'not fully visible' and 'within' need model observers",
    "hidden map: a cell whose answer rests on an unproven step of the engine keeps the "
    "engine's answer and is counted: 'undecided' (a 'not visible' not proven) or "
    "'conservative' (not fully visible by the engine's rim-piece step)",
)


def _catalogue_bounds() -> tuple[float, float]:
    sizes = [
        size
        for entry in standard_bases()
        for size in (
            (entry.base.diameter,)
            if isinstance(entry.base, CircleBase)
            else (entry.base.length, entry.base.width)
        )
    ]
    return min(sizes), max(sizes)


def _base_sizes(base: Base) -> tuple[float, ...]:
    if isinstance(base, CircleBase):
        return (base.diameter,)
    return (base.length, base.width)


@dataclass(frozen=True)
class HiddenMap:
    """The map: settings, grid and one state per cell (row by row, south to north, west to
    east), with counts and the hidden area (square inches: hidden cells times ``step``²)."""

    player: str
    base: Base
    height: float
    step: float
    region: Region
    mode: Mode
    observers: Observers
    origin: tuple[float, float]
    cells: tuple[tuple[float, float, CellState], ...] = field(repr=False)
    undecided: int = 0
    """Cells whose "hidden" rests on a "not visible" the engine could not prove (0 on every
    scene the tests and benchmarks build)."""
    conservative: int = 0
    """Mode "not-fully-visible": cells counted hidden because a rim piece under 0.03" could not
    be settled (the engine's conservative step: "fully visible" is under-reported)."""

    @property
    def counts(self) -> dict[CellState, int]:
        found: dict[CellState, int] = {"hidden": 0, "visible": 0, "blocked": 0}
        for _, _, state in self.cells:
            found[state] += 1
        return found

    @property
    def hidden_area(self) -> float:
        return self.counts["hidden"] * self.step * self.step

    def to_json(self) -> dict[str, Any]:
        """``{"step", "origin", "cells": [[x, y, state], ...]}`` and the settings, counts,
        hidden area and undecided count."""
        return {
            "step": self.step,
            "origin": list(self.origin),
            "cells": [[x, y, state] for x, y, state in self.cells],
            "player": self.player,
            "height": self.height,
            "region": self.region,
            "mode": self.mode,
            "observers": self.observers,
            "counts": self.counts,
            "hidden_area": self.hidden_area,
            "undecided": self.undecided,
            "conservative": self.conservative,
        }

    def text(self) -> str:
        counts = self.counts
        return (
            f'hidden map for {self.player} ({self.region}, step {self.step:g}", {self.mode}, '
            f"observers: {self.observers}): {counts['hidden']} hidden, {counts['visible']} "
            f"visible, {counts['blocked']} blocked cells; hidden area "
            f"{self.hidden_area:.2f} sq in; {self.undecided} undecided, {self.conservative} "
            "conservative\n"
        )


FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]
IntArray = NDArray[np.int64]


def _check_choice(name: str, value: object, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise RulesError(f"{name}: must be one of {', '.join(allowed)}, got {value!r}")


def _finite(name: str, value: float, low: float, high: float) -> float:
    if not isinstance(value, int | float) or not low <= float(value) <= high:
        raise RulesError(f"{name}: must be a number from {low:g} to {high:g}, got {value!r}")
    return float(value)


class HiddenMapper:
    """One map prepared on one scenario: the grid, the blocked cells and the scene with its
    probe model, decided strip by strip of columns (:meth:`decide`) on as many threads as
    wanted, each with its own :meth:`workspace` and :meth:`memory`. :func:`hidden_map` is the
    one-call form; the app decides strips progressively and drops stale work between them."""

    def __init__(
        self,
        scenario: Scenario,
        *,
        player: str,
        base: Base,
        height: float,
        step: float = DEFAULT_STEP,
        region: Region | None = None,
        within: float | None = None,
        mode: Mode = "hidden",
        observers: Observers = "models",
        observer_height: float | None = None,
        rotation: float = 0.0,
        lift_unit: str | None = None,
    ) -> None:
        players = scenario.player_ids()
        if player not in players:
            raise UnknownReferenceError(
                f"player: no player {player!r} (the players are {', '.join(players)})"
            )
        self.step = _finite("step", step, MIN_STEP, MAX_STEP)
        low, high = _catalogue_bounds()
        if not isinstance(base, CircleBase | OvalBase | RectBase) or not all(
            low <= size <= high for size in _base_sizes(base)
        ):
            raise GeometryError(
                f"base: sizes must lie within the catalogue's {low:g}-{high:g} mm, got {base!r}"
            )
        self.height = _finite("height", height, 0.0, 1200.0)
        _check_choice("mode", mode, get_args(Mode))
        _check_choice("observers", observers, get_args(Observers))
        if region is not None:
            _check_choice("region", region, get_args(Region))
        if within is not None:
            within = _finite("within", within, 0.0, 1200.0)
        if observers == "zone" and mode != "hidden":
            raise RulesError("mode: 'not-fully-visible' needs observers 'models'")
        if observers == "zone" and within is not None:
            raise RulesError("within: needs observers 'models'")
        eye = self.height if observer_height is None else observer_height
        self.observer_height = _finite("observer_height", eye, 0.0, 1200.0)
        if lift_unit is not None:
            if lift_unit not in {u.id for u in scenario.units}:
                raise UnknownReferenceError(f"lift_unit: no unit with id {lift_unit}")
            scenario = dataclasses.replace(
                scenario, units=tuple(u for u in scenario.units if u.id != lift_unit)
            )
        self.player, self.base, self.mode, self.observers = player, base, mode, observers
        self.rotation = rotation
        enemy = scenario.opponent_of(player)
        deployment = resolve_deployment(scenario)
        zone = None if deployment is None else deployment.zone_geometry(player)
        if region is None:
            region = "zone" if zone is not None and not zone.is_empty else "table"
        self.region: Region = region
        table = shapely.box(0.0, 0.0, scenario.battlefield.width, scenario.battlefield.depth)
        if region == "zone":
            if zone is None or zone.is_empty:
                raise RulesError(f"region: player {player} has no deployment zone")
            area = zone
        else:
            area = table
        enemy_zone = None
        if observers == "zone":
            enemy_zone = None if deployment is None else deployment.zone_geometry(enemy)
            if enemy_zone is None or enemy_zone.is_empty:
                raise RulesError(f"observers: player {enemy} has no deployment zone")
            scenario = dataclasses.replace(
                scenario, units=tuple(u for u in scenario.units if u.player != enemy)
            )
        self.origin, self.centres, self.column_starts = _grid(area, self.step)
        shapes = _probe_shapes(base, rotation, self.centres)
        self.states = np.where(_blocked(scenario, shapes, table), 2, 0).astype(np.int8)
        self._prepare_scene(scenario, player, base, rotation, enemy_zone)
        # Only where the base can stand: the kernels never place the probe on a blocked cell.
        standing = np.flatnonzero(self.states != 2)
        self._within_areas = np.zeros((len(shapes), len(scenario.terrain)), dtype=np.bool_)
        self._within_areas[standing] = _areas_within(
            scenario, shapes.take(standing), self._obscuring_columns
        )
        self._shapes = shapes
        self._within_filter = within
        self._night_fighting = twist_of(scenario) == "night-fighting"
        self._lock = threading.Lock()

    # Preparation

    def _prepare_scene(
        self,
        scenario: Scenario,
        player: str,
        base: Base,
        rotation: float,
        enemy_zone: shapely.Geometry | None,
    ) -> None:
        taken = {u.id for u in scenario.units} | {m.id for _, m in scenario.all_models()}
        probe_id = "hidden-map-probe"
        while probe_id in taken:
            probe_id += "-"
        probe = Model(probe_id, 0.0, 0.0, base, rotation=rotation, height=self.height)
        with_probe = dataclasses.replace(
            scenario, units=(*scenario.units, Unit(probe_id, player, (probe,)))
        )
        scene = SightScene(with_probe)
        arrays = scene.arrays
        self.probe = scene.index[probe_id]
        self._probe_disc = arrays.model_disc[self.probe].copy()
        rows = arrays.model_ranges[self.probe]
        self._probe_vertices = arrays.model_vertices[rows[0] : rows[1]].copy()
        pieces = {piece.id: k for k, piece in enumerate(with_probe.terrain)}
        self._obscuring_columns = [
            (pieces[piece.id], piece) for piece in with_probe.terrain if piece.obscuring
        ]
        enemy = with_probe.opponent_of(player)
        if enemy_zone is None:
            units = [u for u in with_probe.units if u.player == enemy and u.models]
            groups = [[scene.index[m.id] for m in u.models] for u in units]
            self._observer_models = [m for u in units for m in u.models]
            self._zone_parts: list[shapely.Geometry] = []
        else:
            arrays, groups, self._zone_parts = _with_zone_observers(
                arrays, with_probe, enemy_zone, self.observer_height
            )
            self._observer_models = []
        self.arrays = arrays
        self._unit_starts = np.cumsum([0] + [len(g) for g in groups]).astype(np.int64)
        self._unit_models = np.array([m for g in groups for m in g], dtype=np.int32)
        self._unit_of_column = np.repeat(np.arange(len(groups)), [len(g) for g in groups])

    # Deciding

    @property
    def columns(self) -> int:
        """Grid columns holding cells, west to east (:meth:`decide` takes ranges of them)."""
        return len(self.column_starts) - 1

    def strips(self) -> list[tuple[int, int]]:
        """The map's strips of :data:`STRIP_COLUMNS` columns, west to east."""
        return [
            (first, min(first + STRIP_COLUMNS, self.columns))
            for first in range(0, self.columns, STRIP_COLUMNS)
        ]

    def memory(self) -> hidden_kernel.Memory:
        """An empty memory for one thread's strips (see :meth:`decide`)."""
        from engine import hidden_kernel

        return hidden_kernel.new_memory(len(self._unit_starts) - 1, len(self._unit_models))

    def workspace(self) -> SceneArrays:
        """A copy of the scene's probe rows for one thread (the rest is shared, read only)."""
        return self.arrays._replace(
            model_disc=self.arrays.model_disc.copy(),
            model_vertices=self.arrays.model_vertices.copy(),
            model_outline=self.arrays.model_outline.copy(),
            within=self.arrays.within.copy(),
        )

    def decide(
        self,
        first_column: int,
        stop_column: int,
        workspace: SceneArrays | None = None,
        memory: hidden_kernel.Memory | None = None,
    ) -> tuple[NDArray[np.int8], NDArray[np.int8]]:
        """The states (codes of :data:`STATE_NAMES`) and undecided codes (0, or
        :mod:`engine.hidden_kernel`'s ``UNPROVEN_SIGHT``, ``CONSERVATIVE_FULLY``) of the cells of
        columns ``first_column`` up to ``stop_column`` (excluded), column by column, each
        south to north. ``memory`` (:meth:`memory`) carries what one call learnt to the next:
        pass the same one to a thread's calls, each strip east of the last. The answers never
        depend on it, only the time taken."""
        from engine import hidden_kernel

        start, stop = int(self.column_starts[first_column]), int(self.column_starts[stop_column])
        states = self.states[start:stop].copy()
        undecided = np.zeros(stop - start, dtype=np.int8)
        if stop == start or len(self._unit_models) == 0:
            states[states != hidden_kernel.BLOCKED] = hidden_kernel.HIDDEN
            return states, undecided
        if memory is None:
            memory = self.memory()
        elif len(memory.seers) != len(self._unit_starts) - 1 or len(memory.stood_alone) != len(
            self._unit_models
        ):
            # The compiled loop indexes the memory without bounds checks.
            raise ValueError("memory: made for another map (use this mapper's memory())")
        # Column by column: each cell is asked right after a neighbour, whose kept sight lines
        # and barriers mostly still hold, and a tile's cells come one after another.
        hidden_kernel.hidden_cells(
            workspace if workspace is not None else self.workspace(),
            self.probe,
            self._probe_disc,
            self._probe_vertices,
            self.centres[start:stop],
            self._within_areas[start:stop],
            self._eligible(start, stop),
            self._unit_starts,
            self._unit_models,
            self.mode == "not-fully-visible",
            self.step,
            SEARCH_GROW,
            HALF_LINE_WIDTH,
            memory,
            states,
            undecided,
        )
        return states, undecided

    def _eligible(self, start: int, stop: int) -> BoolArray:
        """Which observing rows take part at each cell: the ``within`` filter by unit, Night
        Fighting's 18" by observing model (the engine's measure, bases' closest points)."""
        columns = len(self._unit_models)
        eligible = np.ones((stop - start, columns), dtype=np.bool_)
        if self._within_filter is None and not self._night_fighting:
            return eligible
        cells = self._shapes.take(np.arange(start, stop))
        if self._zone_parts:
            eligible &= _parts_near(self._zone_parts, cells, self.base, NIGHT_FIGHTING_RANGE)
            return eligible
        if self._within_filter is not None:
            near = _models_near(self._observer_models, cells, self._within_filter)
            units = len(self._unit_starts) - 1
            by_unit = np.zeros((stop - start, units), dtype=np.bool_)
            for u in range(units):
                lo, hi = self._unit_starts[u], self._unit_starts[u + 1]
                by_unit[:, u] = near[:, lo:hi].any(axis=1)
            eligible &= by_unit[:, self._unit_of_column]
        if self._night_fighting:
            eligible &= _models_near_outline(
                self._observer_models, cells, self.base, self.rotation, NIGHT_FIGHTING_RANGE
            )
        return eligible

    def result(self, states: NDArray[np.int8], undecided: NDArray[np.int8]) -> HiddenMap:
        """The map of ``states``: the first cells, column by column, as :meth:`decide` gives
        them (every cell, or the columns decided so far), listed row by row."""
        centres = self.centres[: len(states)]
        rows = np.lexsort((centres[:, 0], centres[:, 1]))
        centres = centres[rows]
        cells = tuple(
            zip(
                centres[:, 0].tolist(),
                centres[:, 1].tolist(),
                _STATE_NAME_ARRAY[states[rows]].tolist(),
                strict=True,
            )
        )
        return HiddenMap(
            self.player,
            self.base,
            self.height,
            self.step,
            self.region,
            self.mode,
            self.observers,
            self.origin,
            cells,
            int(np.count_nonzero(undecided == 1)),
            int(np.count_nonzero(undecided == 2)),
        )

    def run(self, threads: int = THREADS) -> HiddenMap:
        """Every strip, on ``threads`` threads. Each thread goes eastwards from strip to strip
        with its own memory; when the next strip is taken it starts afresh in the middle of the
        longest run of strips still free (the first thread at the west end), so the threads
        finish together and each mostly continues where it was."""
        strips = self.strips()
        parts: list[tuple[NDArray[np.int8], NDArray[np.int8]] | None] = [None] * len(strips)
        claims = _StripClaims(len(strips))

        def sweep() -> None:
            workspace, memory = self.workspace(), self.memory()
            strip = claims.next(None)
            while strip is not None:
                parts[strip] = self.decide(*strips[strip], workspace, memory)
                strip = claims.next(strip)

        if threads > 1 and len(strips) > 1:
            with ThreadPoolExecutor(max_workers=threads) as pool:
                for done in [pool.submit(sweep) for _ in range(min(threads, len(strips)))]:
                    done.result()
        else:
            sweep()
        decided = [part for part in parts if part is not None]
        if not decided:
            return self.result(np.zeros(0, dtype=np.int8), np.zeros(0, dtype=np.int8))
        states = np.concatenate([p[0] for p in decided])
        undecided = np.concatenate([p[1] for p in decided])
        return self.result(states, undecided)


class _StripClaims:
    """Which strips of a map threads have taken: a thread takes the strip east of its last
    while it is free, else the middle of the longest run still free (the west end of the
    first run)."""

    def __init__(self, count: int) -> None:
        self._taken = [False] * count
        self._lock = threading.Lock()

    def next(self, last: int | None) -> int | None:
        """The strip a thread whose last strip was ``last`` takes next, or ``None``."""
        with self._lock:
            taken = self._taken
            if last is not None and last + 1 < len(taken) and not taken[last + 1]:
                strip = last + 1
            else:
                free = _free_runs(taken)
                if not free:
                    return None
                first, stop = max(free, key=lambda run: run[1] - run[0])
                strip = first if first == 0 else first + (stop - first) // 2
            taken[strip] = True
            return strip


def _free_runs(taken: Sequence[bool]) -> list[tuple[int, int]]:
    """``(first, stop)`` of every run of strips not ``taken``.

    >>> _free_runs([True, False, False, True, False])
    [(1, 3), (4, 5)]
    """
    runs, first = [], None
    for index, done in enumerate([*taken, True]):
        if not done and first is None:
            first = index
        elif done and first is not None:
            runs.append((first, index))
            first = None
    return runs


def unit_probe(unit: Unit) -> tuple[Base, float]:
    """The base and height a map made for ``unit`` uses: its widest base (bounding radius, then
    the catalogue's order of shapes: the first model's on a tie) and its tallest model's height.

    >>> from engine.model import CircleBase, Model, OvalBase, Unit
    >>> squad = Unit("u", "red", (Model("a", 0, 0, CircleBase(32), height=1.5),
    ...                            Model("b", 2, 0, OvalBase(60, 35), height=2.5)))
    >>> unit_probe(squad)
    (OvalBase(length=60, width=35), 2.5)
    """
    if not unit.models:
        raise RulesError(f"unit: {unit.id} has no models")
    widest = max(unit.models, key=lambda m: m.base.bounding_radius)
    return widest.base, max(m.height for m in unit.models)


def hidden_map(
    scenario: Scenario,
    *,
    player: str,
    base: Base,
    height: float,
    step: float = DEFAULT_STEP,
    region: Region | None = None,
    within: float | None = None,
    mode: Mode = "hidden",
    observers: Observers = "models",
    observer_height: float | None = None,
    rotation: float = 0.0,
    lift_unit: str | None = None,
    threads: int = THREADS,
) -> HiddenMap:
    """The hidden-placement map (see the module's docstring).

    ``region``: ``"zone"`` (the player's deployment zone), ``"table"``, or ``None``: the zone
    when the scenario gives the player one, else the table. ``within``: only enemy units with a
    model within that many inches of the base count. ``observer_height``: the eye height of
    zone observers (default: ``height``). ``rotation``: the base's facing in degrees (ovals
    and rectangles). ``lift_unit``: a unit taken off the table first (the one being planned:
    its models neither block nor occupy cells).

    Errors name the argument: :class:`~engine.errors.UnknownReferenceError` for a player or
    unit that does not exist, :class:`~engine.errors.GeometryError` for a base outside the
    catalogue's sizes, :class:`~engine.errors.RulesError` for the rest (a step outside
    0.1-4", a region the scenario does not have).
    """
    return HiddenMapper(
        scenario,
        player=player,
        base=base,
        height=height,
        step=step,
        region=region,
        within=within,
        mode=mode,
        observers=observers,
        observer_height=observer_height,
        rotation=rotation,
        lift_unit=lift_unit,
    ).run(threads)


# ---------------------------------------------------------------------------------------------
# The grid and the cells a base cannot stand on


def _grid(
    area: shapely.Geometry, step: float
) -> tuple[tuple[float, float], FloatArray, NDArray[np.int64]]:
    """``(origin, centres, column_starts)``: the lattice cells whose centre the area covers,
    column by column (west to east, each column south to north); ``column_starts[c]`` the first
    cell of grid column ``c`` (columns without cells skipped)."""
    x0, y0, x1, y1 = (float(v) for v in area.bounds)
    i0, i1 = math.ceil(x0 / step - 0.5), math.floor(x1 / step - 0.5)
    j0, j1 = math.ceil(y0 / step - 0.5), math.floor(y1 / step - 0.5)
    origin = ((i0 + 0.5) * step, (j0 + 0.5) * step)
    xs = (np.arange(i0, i1 + 1) + 0.5) * step
    ys = (np.arange(j0, j1 + 1) + 0.5) * step
    gx, gy = np.meshgrid(xs, ys, indexing="ij")
    gx, gy = gx.ravel(), gy.ravel()
    shapely.prepare(area)
    inside = shapely.intersects_xy(area, gx, gy)
    centres = np.column_stack([gx[inside], gy[inside]])
    column_of = np.round(centres[:, 0] / step - 0.5).astype(np.int64)
    changes = np.flatnonzero(np.diff(column_of)) + 1 if len(column_of) else np.zeros(0, np.int64)
    column_starts = np.concatenate([[0], changes, [len(centres)]]).astype(np.int64)
    return origin, centres, column_starts


def _probe_shapes(base: Base, rotation: float, centres: FloatArray) -> ShapeArrays:
    one = models_shape_arrays([Model("probe", 0.0, 0.0, base, rotation=rotation)])
    many = one.take(np.zeros(len(centres), dtype=np.int64))
    return dataclasses.replace(many, x=centres[:, 0].copy(), y=centres[:, 1].copy())


def _concatenate(first: ShapeArrays, second: ShapeArrays) -> ShapeArrays:
    return ShapeArrays(
        *(
            np.concatenate([getattr(first, f.name), getattr(second, f.name)])
            for f in dataclasses.fields(ShapeArrays)
        )
    )


def _blocked(scenario: Scenario, shapes: ShapeArrays, table: shapely.Geometry) -> BoolArray:
    """Cells where the base is not wholly on the table, or overlaps a solid feature's footprint
    or another model's base by more than the tolerance."""
    blocked = ~wholly_within_many(shapes, PreparedArea(table))
    for piece in scenario.terrain:
        for feature in piece.features:
            if feature.solid:
                blocked |= _overlapping_polygon(shapes, prepared_polygon(feature.shape))
    models = [m for _, m in scenario.all_models()]
    if models and len(shapes):
        others = models_shape_arrays(models)
        cell, model = _bounding_circles_meeting(shapes, others)
        both = _concatenate(shapes, others)
        crossing = overlapping_by_more_than(both, cell, model + len(shapes), TOLERANCE)
        blocked[cell[crossing]] = True
    return blocked


def _bounding_circles_meeting(cells: ShapeArrays, models: ShapeArrays) -> tuple[IntArray, IntArray]:
    """``(cell, model)`` for every cell base and model base whose bounding circles overlap
    (centres closer than the two radii together), through the rules' grid of centres
    (:class:`engine.spatial.Grid`, cells and models in one, the models queried): a whole
    table's cells against every model would be millions of distances, nearly all far.

    >>> one = models_shape_arrays([Model("m", 5.0, 5.0, CircleBase(25.4))])
    >>> grid = _probe_shapes(CircleBase(25.4), 0.0, np.array([[5.5, 5.0], [6.0, 5.0], [9.0, 5.0]]))
    >>> _bounding_circles_meeting(grid, one)
    (array([0]), array([0]))
    """
    if len(cells) == 0 or len(models) == 0:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty
    first = len(cells)
    reach = float(cells.bounding.max()) + float(models.bounding.max())
    grid = Grid.build(
        np.concatenate([cells.x, models.x]), np.concatenate([cells.y, models.y]), reach
    )
    cell, other = grid.pairs(np.arange(first, first + len(models), dtype=np.int64))
    # A model is queried against every row; only the cells are wanted (rows before the models).
    cell, model = cell[cell < first], other[cell < first] - first
    gap = np.hypot(cells.x[cell] - models.x[model], cells.y[cell] - models.y[model])
    near = gap < cells.bounding[cell] + models.bounding[model]
    return cell[near], model[near]


def _overlapping_polygon(shapes: ShapeArrays, area: PreparedArea) -> BoolArray:
    """Whether each base overlaps the polygon by more than the tolerance (exact for circles and
    ellipses; a rectangle as its corners)."""
    found = np.zeros(len(shapes), dtype=bool)
    minx, miny, maxx, maxy = area.bounds
    near = np.flatnonzero(
        (shapes.x + shapes.half_x > minx)
        & (shapes.x - shapes.half_x < maxx)
        & (shapes.y + shapes.half_y > miny)
        & (shapes.y - shapes.half_y < maxy)
    )
    if len(near) == 0:
        return found
    kind = shapes.kind[near]
    circles = near[kind == KIND_CIRCLE]
    if len(circles):
        gap = shapely.distance(area.geometry, shapely.points(shapes.x[circles], shapes.y[circles]))
        found[circles] = gap < shapes.a[circles] - TOLERANCE
    for i in near[kind == KIND_OVAL]:
        shape = shapes.shape(int(i))
        slack = TOLERANCE / min(shape.a, shape.b)
        found[i] = area.covers_point(shape.x, shape.y) or (
            area.unit_circle_clearance(shape) < 1.0 - slack
        )
    rects = near[kind == KIND_RECT]
    if len(rects):
        a = shapes.a[rects, None] - TOLERANCE
        b = shapes.b[rects, None] - TOLERANCE
        lx, ly = np.array([1.0, -1.0, -1.0, 1.0]) * a, np.array([1.0, 1.0, -1.0, -1.0]) * b
        c, s = shapes.cos[rects, None], shapes.sin[rects, None]
        corners = np.stack(
            [shapes.x[rects, None] + c * lx - s * ly, shapes.y[rects, None] + s * lx + c * ly],
            axis=-1,
        )
        found[rects] = shapely.intersects(area.geometry, shapely.polygons(corners))
    return found


def _areas_within(
    scenario: Scenario, shapes: ShapeArrays, columns: Sequence[tuple[int, Any]]
) -> BoolArray:
    """Per cell, the terrain pieces (columns of the scene's ``within``) whose area the base is
    within: the obscuring ones, the only ones the sight kernels read for a probe."""
    within = np.zeros((len(shapes), len(scenario.terrain)), dtype=np.bool_)
    for column, piece in columns:
        within[:, column] = overlaps_many(shapes, terrain_area(piece))
    return within


def _with_zone_observers(
    arrays: SceneArrays, scenario: Scenario, zone: shapely.Geometry, eye: float
) -> tuple[SceneArrays, list[list[int]], list[shapely.Geometry]]:
    """The scene with the enemy zone's triangles as observing "models" (one unit, never
    blockers), each within the obscuring areas it lies in."""
    pieces = {piece.id: k for k, piece in enumerate(scenario.terrain)}
    parts: list[tuple[shapely.Geometry, frozenset[str]]] = [(zone, frozenset())]
    for piece in scenario.terrain:
        if not piece.obscuring:
            continue
        area = terrain_area(piece).geometry
        cut: list[tuple[shapely.Geometry, frozenset[str]]] = []
        for geometry, inside in parts:
            for shape, within in (
                (shapely.intersection(geometry, area), inside | {piece.id}),
                (shapely.difference(geometry, area), inside),
            ):
                if shape.area > 1e-12:
                    cut.append((shape, within))
        parts = cut
    triangles: list[tuple[np.ndarray, frozenset[str]]] = []
    for geometry, within in parts:
        for polygon in shapely.get_parts(geometry):
            if polygon.geom_type != "Polygon" or polygon.area <= 1e-12:
                continue
            for triangle in shapely.get_parts(shapely.constrained_delaunay_triangles(polygon)):
                if triangle.area <= 1e-12:
                    continue
                ring = np.asarray(triangle.exterior.coords, dtype=float)[:-1]
                if shapely.is_ccw(triangle.exterior):
                    triangles.append((ring, within))
                else:
                    triangles.append((ring[::-1].copy(), within))
    first = len(arrays.model_top)
    unit = int(arrays.model_unit.max(initial=-1)) + 1
    start = len(arrays.model_vertices)
    ranges = []
    for ring, _ in triangles:
        ranges.append((start, start + len(ring)))
        start += len(ring)
    rows_within = np.zeros((len(triangles), arrays.within.shape[1]), dtype=np.bool_)
    for row, (_, within) in enumerate(triangles):
        for piece_id in within:
            rows_within[row, pieces[piece_id]] = True
    count = len(triangles)
    extended = arrays._replace(
        model_disc=np.vstack(
            [arrays.model_disc]
            + [np.array([[r[:, 0].mean(), r[:, 1].mean(), 0.0]]) for r, _ in triangles]
        ),
        model_vertices=np.vstack([arrays.model_vertices] + [r for r, _ in triangles]),
        model_ranges=np.vstack(
            [arrays.model_ranges, np.array(ranges, dtype=np.int32).reshape(-1, 2)]
        ).astype(np.int32),
        model_top=np.concatenate([arrays.model_top, np.full(count, eye)]),
        model_foot=np.concatenate([arrays.model_foot, np.zeros(count)]),
        model_unit=np.concatenate([arrays.model_unit, np.full(count, unit, dtype=np.int32)]),
        within=np.vstack([arrays.within, rows_within]),
        model_outline=np.vstack([arrays.model_outline, np.zeros((count, 6))]),
    )
    groups = [list(range(first, first + count))]
    return extended, groups, [shapely.Polygon(r) for r, _ in triangles]


# ---------------------------------------------------------------------------------------------
# Distances from the base at each cell


def _models_near(models: Sequence[Model], cells: ShapeArrays, limit: float) -> BoolArray:
    """Per cell and model, whether the bases are within ``limit`` (closest points, inclusive)."""
    others = models_shape_arrays(models)
    both = _concatenate(cells, others)
    rows = np.repeat(np.arange(len(cells)), len(others))
    cols = np.tile(np.arange(len(others)), len(cells)) + len(cells)
    first, second, _ = close_pairs(both, rows, cols, limit)
    near = np.zeros((len(cells), len(others)), dtype=np.bool_)
    cell = np.minimum(first, second)
    near[cell, np.maximum(first, second) - len(cells)] = True
    return near


def _models_near_outline(
    models: Sequence[Model], cells: ShapeArrays, base: Base, rotation: float, limit: float
) -> BoolArray:
    """Night Fighting's test, measured as :mod:`engine.visibility` measures it
    (:meth:`engine.sightlines.Outline.distance_to`: discs in closed form, other bases by their
    inscribed polygons)."""
    from engine.sightlines import base_outline

    near = np.zeros((len(cells), len(models)), dtype=np.bool_)
    for column, model in enumerate(models):
        other = base_outline(model.base, model.x, model.y, model.rotation)
        centre = np.hypot(cells.x - other.cx, cells.y - other.cy)
        if cells.kind[0] == KIND_CIRCLE and other.kind == "circle":
            gap = np.maximum(centre - cells.a - other.a, 0.0)
        else:
            gap = np.full(len(cells), math.inf)
            maybe = np.flatnonzero(
                centre - cells.bounding - model.base.bounding_radius <= limit + TOLERANCE
            )
            for row in maybe:
                probe = base_outline(base, float(cells.x[row]), float(cells.y[row]), rotation)
                gap[row] = probe.distance_to(other)
        near[:, column] = gap <= limit + TOLERANCE
    return near


def _parts_near(
    parts: Sequence[shapely.Geometry], cells: ShapeArrays, base: Base, limit: float
) -> BoolArray:
    """Night Fighting with zone observers: whether some point of each zone piece is within
    ``limit`` of the base at each cell (the base as a disc of its bounding radius: erring
    towards "visible")."""
    points = shapely.points(cells.x, cells.y)
    near = np.zeros((len(cells), len(parts)), dtype=np.bool_)
    for column, part in enumerate(parts):
        near[:, column] = shapely.distance(part, points) - cells.bounding <= limit + TOLERANCE
    return near
