"""The compiled loop of the hidden-placement map (:mod:`engine.hidden`): one probe model moved
from cell to cell of a scene built once, each cell asked exactly as :mod:`engine.visibility`
asks a unit pair.

The scene (:func:`engine.sight_kernel.scene_arrays`) holds the probe as one more model of a unit
of its own; a cell changes only the probe's rows (its end shape, its outline and the terrain
areas it is within), so every blocker, box and convex part is built once. A cell is then decided
unit by unit with the engine's own kernels: :func:`engine.sight_kernel.unit_pair_visible` (cheap
lines, then a separator of the unit as a whole, then the exact search per model pair) and, for
"not fully visible", :func:`engine.sight_kernel.unit_fully_visible`. The observing unit that saw
the previous cell is asked first: neighbouring cells are mostly seen by the same unit, and one
unblocked line settles a visible cell.

The loop releases the GIL, so :mod:`engine.hidden` runs parts of the grid on several threads,
each over its own copy of the probe's rows.
"""

from __future__ import annotations

import hashlib
import math
from collections import namedtuple
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, cast

import numpy as np
from numba import njit, types
from numba.typed import Dict

from engine import sight_kernel as kernel
from engine.scenario_io import write_atomically
from engine.sight_kernel import SceneArrays

_Function = TypeVar("_Function", bound=Callable[..., Any])


def _compiled(function: _Function) -> _Function:
    """Compiled on first use (kept in numba's on-disk cache), releasing the GIL while it runs."""
    return cast(_Function, njit(cache=True, nogil=True)(function))


VISIBLE = 0
HIDDEN = 1
BLOCKED = 2

UNPROVEN_SIGHT = 1
CONSERVATIVE_FULLY = 2


@_compiled
def place_probe(
    scene: SceneArrays,
    probe: int,
    disc: np.ndarray,
    vertices: np.ndarray,
    x: float,
    y: float,
    within: np.ndarray,
) -> None:
    """Moves the probe model (row ``probe``) to ``(x, y)``: ``disc`` and ``vertices`` are its end
    shape centred at the origin, ``within`` the terrain pieces its base is within there."""
    scene.model_disc[probe, 0] = disc[0] + x
    scene.model_disc[probe, 1] = disc[1] + y
    scene.model_disc[probe, 2] = disc[2]
    start = scene.model_ranges[probe, 0]
    for q in range(len(vertices)):
        scene.model_vertices[start + q, 0] = vertices[q, 0] + x
        scene.model_vertices[start + q, 1] = vertices[q, 1] + y
    scene.model_outline[probe, 1] = x
    scene.model_outline[probe, 2] = y
    scene.within[probe, :] = within


MAX_BARRIER = 64
"""Blockers of one unit's last separating barrier (or of what blocked its last full search)
kept for the next cell."""


@_compiled
def _separator_among(
    scene: SceneArrays,
    unit_hull: np.ndarray,
    group: np.ndarray,
    probe: int,
    candidates: np.ndarray,
    grow: float,
) -> np.ndarray:
    """:func:`engine.sight_kernel.unit_separator_among` between a unit (its points' hull
    ``unit_hull``, its models ``group``) and the probe, built from ``candidates``: the
    same walls (as tall as every model involved, no obscuring area one of them is within), the
    same proofs (one convex wall, or a barrier)."""
    hull_b = kernel.convex_hull(kernel._unit_points(scene, np.array([probe], dtype=np.int32)))
    return _separator_from(
        scene, unit_hull, group, probe, hull_b, scene.within[probe], candidates, grow
    )


@_compiled
def _separator_from(
    scene: SceneArrays,
    unit_hull: np.ndarray,
    group: np.ndarray,
    probe: int,
    hull_b: np.ndarray,
    probe_within: np.ndarray,
    candidates: np.ndarray,
    grow: float,
) -> np.ndarray:
    """:func:`_separator_among` with the probe anywhere in the convex polygon ``hull_b``, within
    the terrain pieces ``probe_within`` (wherever it stands in it): a separator proves the unit
    sees the probe nowhere in the polygon."""
    tallest = scene.model_top[probe]
    sheltered = probe_within.copy()
    for m in group:
        tallest = max(tallest, scene.model_top[m])
        sheltered |= scene.within[m]
    return kernel.hull_separator(
        scene,
        unit_hull,
        hull_b,
        tallest,
        scene.model_unit[group[0]],
        scene.model_unit[probe],
        sheltered,
        candidates,
        grow,
    )


@_compiled
def _near_segment(
    scene: SceneArrays,
    observer: int,
    probe: int,
    px: float,
    py: float,
    qx: float,
    qy: float,
    reach: float,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`engine.sight_kernel.low_spans` of the blockers
    :func:`engine.sight_kernel.gather` gives between ``observer`` and the probe whose boxes
    come within ``reach`` of the segment ``p -> q``'s: no other one can block it. Cheaper than
    the corridor of both bases for one segment."""
    x0, x1, y0, y1 = min(px, qx), max(px, qx), min(py, qy), max(py, qy)
    h_a, h_b = scene.model_top[observer], scene.model_top[probe]
    units = (scene.model_unit[observer], scene.model_unit[probe])
    count = len(scene.blocker_kind)
    met = np.empty(count, dtype=np.int32)
    lo = np.empty(count)
    hi = np.empty(count)
    n = 0
    for k in range(count):
        kind = scene.blocker_class[k]
        if kind == kernel.MODEL:
            if scene.blocker_unit[k] == units[0] or scene.blocker_unit[k] == units[1]:
                continue
        elif kind == kernel.SCREEN:
            piece = scene.blocker_piece[k]
            if (
                not scene.obscuring_blocks[0]
                or scene.within[observer, piece]
                or scene.within[probe, piece]
            ):
                continue
        margin = scene.blocker_disc[k, 2] + reach + 1e-9
        if (
            scene.blocker_boxes[k, 0] - margin > x1
            or scene.blocker_boxes[k, 2] + margin < x0
            or scene.blocker_boxes[k, 1] - margin > y1
            or scene.blocker_boxes[k, 3] + margin < y0
        ):
            continue
        low, t0, t1 = kernel.low_interval(h_a, h_b, scene.blocker_top[k])
        if low:
            met[n], lo[n], hi[n] = k, t0, t1
            n += 1
    return met[:n], lo[:n], hi[:n]


@_compiled
def _witness_still_free(
    scene: SceneArrays,
    observer: int,
    probe: int,
    witness: np.ndarray,
    dx: float,
    dy: float,
    grow: float,
    line_half_width: float,
) -> bool:
    """Whether a sight line the model ``observer`` had to the probe (``witness``: ``x0, y0, x1,
    y1``, from the observer to the probe) is still unblocked with its probe end moved by
    ``(dx, dy)``, as the probe moved (the scene holds the probe where it now stands). The line
    still starts on the observer's base and ends on the probe's (it moved with it), and it
    must pass both tests a line the search finds passes (blockers grown by ``grow``, a graze
    free; then the 1-mm line, touching blocked), where it is low enough over each blocker: so
    it proves what the search would find."""
    px, py = witness[0], witness[1]
    qx, qy = witness[2] + dx, witness[3] + dy
    met, lo, hi = _near_segment(scene, observer, probe, px, py, qx, qy, max(grow, line_half_width))
    for reach, slack in ((grow, kernel.GRAZE), (line_half_width, 0.0)):
        if kernel.segment_blocked(px, py, qx, qy, scene, met, lo, hi, len(met), reach, slack):
            return False
    return True


@_compiled
def _first_seer(
    scene: SceneArrays,
    probe: int,
    cell: np.ndarray,
    eligible: np.ndarray,
    proven_hidden: np.ndarray,
    model_walled_off: np.ndarray,
    unit_models: np.ndarray,
    seers: np.ndarray,
    witnesses: np.ndarray,
    first: int,
    kept_line: bool,
    grow: float,
    line_half_width: float,
) -> int:
    """The first observing unit (from ``first`` on, round the units) whose model that saw last
    still sees the probe, now at ``cell``, or -1: with ``kept_line``, along the unit's kept
    sight line, its probe end moved with the probe (:func:`_witness_still_free`); else along
    one of the cheap lines of the engine's search (the line found is kept). ``seers[u]`` is
    the column of the unit's model that saw last (-1: none yet), ``eligible`` the cell's row
    of columns taking part; units whose tile is walled off (``proven_hidden[u]``) and models
    walled off from it (``model_walled_off[column]``) are passed over: they see no cell of it."""
    units = len(seers)
    for turn in range(units):
        u = (first + turn) % units
        m = seers[u]
        if m < 0 or not eligible[m] or proven_hidden[u] or model_walled_off[m]:
            continue
        if kept_line:
            row = witnesses[u]
            dx, dy = cell[0] - row[4], cell[1] - row[5]
            if _witness_still_free(
                scene, unit_models[m], probe, row, dx, dy, grow, line_half_width
            ):
                return u
            continue
        status, segment, _ = kernel.model_pair_search(
            scene, unit_models[m], probe, grow, line_half_width, True
        )
        if status == kernel.FOUND:
            _keep_witness(witnesses, u, segment, False, cell[0], cell[1])
            return u
    return -1


@_compiled
def _keep_witness(
    witnesses: np.ndarray, u: int, segment: np.ndarray, from_probe: bool, x: float, y: float
) -> None:
    """Keeps a unit's sight line of the probe at ``(x, y)`` (``segment`` running from the probe
    when ``from_probe``) as ``x0, y0, x1, y1`` from the observer, and the cell."""
    row = witnesses[u]
    if from_probe:
        row[0], row[1], row[2], row[3] = segment[2], segment[3], segment[0], segment[1]
    else:
        row[0], row[1], row[2], row[3] = segment[0], segment[1], segment[2], segment[3]
    row[4], row[5] = x, y


TILE_CELLS = 6
"""A tile of the map is this many cells square: one separator between an observing unit and
every position of the probe in a tile proves the whole tile hidden from that unit. Since the map
is worked out in tall strips (tiles no longer cut by blocks of four rows), 6 and 3 beat the
4 and 2 chosen then (the official table at 0.5" in one sweep on one thread, alternating in one
process: Red's zone 167 -> 153 ms, the whole table 587 -> 535 ms; 8 and 2, 4 and 4, 6 and 2
were slower, 4 and 3 in between)."""

MODEL_TILE_CELLS = 3
"""The tiles a single observing model (or a part of its unit) is walled off from are this many
cells square: smaller than a unit's, since one model's separator from a larger tile mostly
fails where one from a smaller tile holds (see :data:`TILE_CELLS`)."""

Tiles = namedtuple("Tiles", ["of_cell", "boxes", "cells", "within"])
"""The map's tiles: each open cell's tile (``-1`` for a blocked cell), each tile's box of open
cell centres ``(x0, y0, x1, y1)``, its number of open cells, and the terrain pieces the probe
is within at any of them."""


@_compiled
def _tiles(
    cells: np.ndarray, states: np.ndarray, within: np.ndarray, step: float, size: int
) -> Tiles:
    """The open cells grouped into tiles of ``size`` cells of ``step`` square."""
    tile_of = np.full(len(cells), -1, dtype=np.int64)
    boxes = np.empty((len(cells), 4))
    counts = np.zeros(len(cells), dtype=np.int64)
    tile_within = np.zeros((len(cells), within.shape[1]), dtype=np.bool_)
    if len(cells) == 0:
        return Tiles(tile_of, boxes, counts, tile_within)
    side = size * step
    x_min, y_min = cells[:, 0].min(), cells[:, 1].min()
    columns = int((cells[:, 0].max() - x_min) / side) + 1
    keys = Dict.empty(key_type=types.int64, value_type=types.int64)
    count = 0
    for c in range(len(cells)):
        if states[c] == BLOCKED:
            continue
        x, y = cells[c, 0], cells[c, 1]
        key = int((y - y_min) / side + 1e-9) * columns + int((x - x_min) / side + 1e-9)
        if key not in keys:
            keys[key] = count
            boxes[count] = x, y, x, y
            count += 1
        t = keys[key]
        tile_of[c] = t
        counts[t] += 1
        tile_within[t] |= within[c]
        box = boxes[t]
        box[0], box[1] = min(box[0], x), min(box[1], y)
        box[2], box[3] = max(box[2], x), max(box[3], y)
    return Tiles(tile_of, boxes[:count], counts[:count], tile_within[:count])


@_compiled
def _tile_shape(box: np.ndarray, disc: np.ndarray, vertices: np.ndarray) -> np.ndarray:
    """A rectangle holding the probe's base centred anywhere in ``box`` (counter-clockwise)."""
    reach = disc[2]
    for q in range(len(vertices)):
        reach = max(reach, abs(vertices[q, 0]), abs(vertices[q, 1]))
    x0, y0, x1, y1 = box[0] - reach, box[1] - reach, box[2] + reach, box[3] + reach
    return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])


@_compiled
def _tile_separator(
    scene: SceneArrays,
    probe: int,
    shape: np.ndarray,
    tile: int,
    tiles: Tiles,
    eligible: np.ndarray,
    unit_hull: np.ndarray,
    group: np.ndarray,
    first_column: int,
    stop_column: int,
    kept: np.ndarray,
    candidates: np.ndarray,
    grow: float,
) -> np.ndarray:
    """A separator proving the probe anywhere in a tile (``shape``) hidden from a whole
    observing unit (columns ``first_column..stop_column`` of ``eligible``, every one taking part
    at every cell of the tile), or an empty array. Built first from ``kept`` alone (the walls
    that separated the unit from the tile before: the tile next to it is mostly behind the
    same walls, and few candidates cost little), then from ``candidates``."""
    none = np.zeros(0, dtype=np.int32)
    if tiles.cells[tile] < 2:
        return none
    for c in range(len(tiles.of_cell)):
        if tiles.of_cell[c] != tile:
            continue
        for m in range(first_column, stop_column):
            if not eligible[c, m]:
                return none
    within = tiles.within[tile]
    if len(kept):
        separator = _separator_from(scene, unit_hull, group, probe, shape, within, kept, grow)
        if len(separator):
            return separator
    return _separator_from(scene, unit_hull, group, probe, shape, within, candidates, grow)


MODEL_UNTRIED = 0
MODEL_WALLED_OFF = 1
MODEL_NOT_SEPARATED = 2
MODEL_NOT_PROVEN = 3
"""What is known of one observing model and one model tile: nothing tried yet; it sees no cell
of the tile (a separator, or :func:`_hidden_behind_walls`); no separator of it was found; and
neither a separator nor the walls of its last proof prove it."""


@_compiled
def _models_hidden_from_tile(
    scene: SceneArrays,
    probe: int,
    shape: np.ndarray,
    sheltered: np.ndarray,
    unit_models: np.ndarray,
    columns: np.ndarray,
    proofs: np.ndarray,
    candidates: np.ndarray,
    proof_walls: np.ndarray,
    proof_wall_counts: np.ndarray,
    stood_alone: np.ndarray,
    separator_walls: np.ndarray,
    separator_wall_counts: np.ndarray,
    grow: float,
) -> None:
    """For each column ``m`` of ``columns`` whose ``proofs[m]`` is :data:`MODEL_UNTRIED`:
    :data:`MODEL_WALLED_OFF` when the model ``unit_models[m]`` sees the probe nowhere in a tile
    (``shape``, the probe within the pieces ``sheltered`` somewhere in it), else
    :data:`MODEL_NOT_SEPARATED` or :data:`MODEL_NOT_PROVEN`.

    The untried models are halved (:func:`engine.sight_kernel.halving_order`) down to single
    models, and each half asked for one separator: walling off a half walls off each of its
    models, so models behind the same wall cost one search, and every model one search would
    wall off alone still is (its half is halved until it stands alone). The whole is not asked:
    the caller has asked it of the unit. A model no separator walled off at its last model tile
    (``stood_alone[m]``, kept up to date here) is asked alone from the start: it mostly stands
    alone again, and in a half it would fail that half's separator and each smaller one it is
    in (on the whole table at 0.5", 6,481 of 9,543 separators failed; 4,875 of 8,254 so). A
    model no separator walls off is then asked :func:`_hidden_behind_walls` among the walls
    its last proof rested on (``proof_walls[m, :proof_wall_counts[m]]``, updated by a new
    proof). Each separator is first built from the walls of the separators that last walled
    off the models asked (``separator_walls``, ``separator_wall_counts``; the next model tile
    is mostly behind the same walls, and few candidates cost little), then from every
    candidate (Red's zone at 0.5" on one thread, alternating in one process: 175 -> 171 ms)."""
    untried = np.empty(len(columns), dtype=np.int64)
    count = 0
    for m in columns:
        if proofs[m] == MODEL_UNTRIED:
            untried[count] = m
            count += 1
    if count == 0:
        return
    untried = untried[:count]
    untried = untried[kernel.halving_order(scene, unit_models[untried])]
    alone = stood_alone[untried]
    untried = np.concatenate((untried[~alone], untried[alone]))
    halved = count - int(np.count_nonzero(alone))
    pending = [(q, q + 1) for q in range(halved, count)]
    if halved:
        pending.append((0, halved))
    while pending:
        lo, hi = pending.pop()
        if hi - lo == 1 or hi - lo < count:
            group = unit_models[untried[lo:hi]].copy()
            hull = kernel.convex_hull(kernel._unit_points(scene, group))
            kept = _walls_of(
                untried[lo:hi], separator_walls, separator_wall_counts, len(scene.blocker_kind)
            )
            # The same two tries as _tile_separator's, spelt out: one helper for both took
            # Red's zone from 156-161 to 170-174 ms on one thread (alternating in one process).
            separator = np.zeros(0, dtype=np.int32)
            if len(kept):
                separator = _separator_from(scene, hull, group, probe, shape, sheltered, kept, grow)
            if not len(separator):
                separator = _separator_from(
                    scene, hull, group, probe, shape, sheltered, candidates, grow
                )
            if 0 < len(separator) <= MAX_BARRIER:
                for m in untried[lo:hi]:
                    separator_walls[m, : len(separator)] = separator
                    separator_wall_counts[m] = len(separator)
            if len(separator) or hi - lo == 1:
                for m in untried[lo:hi]:
                    proofs[m] = MODEL_WALLED_OFF if len(separator) else MODEL_NOT_SEPARATED
                    stood_alone[m] = not len(separator)
                continue
        middle = lo + (hi - lo) // 2
        pending.append((middle, hi))
        pending.append((lo, middle))
    for m in untried:
        if proofs[m] == MODEL_NOT_SEPARATED and proof_wall_counts[m] > 0:
            _prove_behind_walls(
                scene,
                unit_models[m],
                probe,
                shape,
                sheltered,
                int(m),
                proofs,
                proof_walls,
                proof_wall_counts,
                grow,
            )


@_compiled
def _walls_of(
    columns: np.ndarray, walls: np.ndarray, counts: np.ndarray, blockers: int
) -> np.ndarray:
    """The blockers of the last separators that walled off the models of ``columns`` (rows of
    ``walls``, ``counts`` long), each once."""
    seen = np.zeros(blockers, dtype=np.bool_)
    found = np.empty(len(columns) * walls.shape[1], dtype=np.int32)
    count = 0
    for m in columns:
        for q in range(counts[m]):
            k = walls[m, q]
            if not seen[k]:
                seen[k] = True
                found[count] = k
                count += 1
    return found[:count]


@_compiled
def _prove_behind_walls(
    scene: SceneArrays,
    observer: int,
    probe: int,
    shape: np.ndarray,
    sheltered: np.ndarray,
    column: int,
    proofs: np.ndarray,
    proof_walls: np.ndarray,
    proof_wall_counts: np.ndarray,
    grow: float,
) -> None:
    """:func:`_hidden_behind_walls` for the observing model of ``column`` (row ``observer``),
    its answer kept in ``proofs[column]`` and a proof's walls in ``proof_walls``."""
    walls = _hidden_behind_walls(
        scene,
        observer,
        probe,
        shape,
        sheltered,
        proof_walls[column, : proof_wall_counts[column]].copy(),
        proof_walls[column],
        grow,
    )
    if walls > 0:
        proofs[column] = MODEL_WALLED_OFF
        proof_wall_counts[column] = walls
    else:
        proofs[column] = MODEL_NOT_PROVEN


@_compiled
def _hidden_behind_walls(
    scene: SceneArrays,
    observer: int,
    probe: int,
    shape: np.ndarray,
    sheltered: np.ndarray,
    walls_before: np.ndarray,
    walls_after: np.ndarray,
    grow: float,
) -> int:
    """Whether the model ``observer`` sees the probe nowhere in a tile (``shape``, the probe
    within the pieces ``sheltered`` somewhere in it), proven by the engine's critical lines
    (:func:`engine.sight_kernel.critical_lines`) among ``walls_before`` alone: the blockers the
    model's last proof rested on. Returns how many blockers the new proof rests on (written to
    ``walls_after``), or -1 when there is no such proof.

    A proof among some blockers is a proof among all (a blocker added never frees a line), and
    a tile's shape holds the probe's base at every cell of it, so the proof settles each of the
    tile's cells for this model. A model hidden behind staggered bases that no separator joins
    stays hidden behind the same few bases a cell on: the lines among two or three of them cost
    a fraction of a search among every blocker of the corridor. Blockers of mixed height (low
    over part of a line) are left to the full search: this proof takes walls only."""
    acx, acy, ar, av = kernel.model_end(
        scene.model_disc, scene.model_vertices, scene.model_ranges, observer
    )
    bcx, bcy = 0.0, 0.0
    for q in range(len(shape)):
        bcx += shape[q, 0] / len(shape)
        bcy += shape[q, 1] / len(shape)
    planes = kernel.corridor(acx, acy, ar, av, bcx, bcy, 0.0, shape)
    units = (scene.model_unit[observer], scene.model_unit[probe])
    walls = np.empty(len(walls_before), dtype=np.int32)
    count = 0
    kinds, discs = scene.blocker_kind, scene.blocker_disc
    vertices, ranges = scene.blocker_vertices, scene.blocker_ranges
    for k in walls_before:
        kind = scene.blocker_class[k]
        if kind == kernel.MODEL:
            if scene.blocker_unit[k] == units[0] or scene.blocker_unit[k] == units[1]:
                continue
        elif kind == kernel.SCREEN:
            piece = scene.blocker_piece[k]
            if not scene.obscuring_blocks[0] or scene.within[observer, piece] or sheltered[piece]:
                continue
        low, t0, t1 = kernel.low_interval(
            scene.model_top[observer], scene.model_top[probe], scene.blocker_top[k]
        )
        if not low:
            continue
        if t0 != 0.0 or t1 != 1.0:
            return -1
        if kernel.blocker_meets(kinds, discs, vertices, ranges, k, planes, grow):
            walls[count] = k
            count += 1
    if count == 0:
        return -1
    walls = walls[:count]
    shapes = (acx, acy, ar, av, bcx, bcy, 0.0, shape)
    lines = kernel.critical_lines(*shapes, scene, walls, count, 0, grow, False, planes, False)
    stopping = np.zeros(count, dtype=np.bool_)
    free, _, _, _, _ = kernel.first_free_marking(
        lines, shapes, scene, walls, np.zeros(count), np.ones(count), count, grow, 1, stopping
    )
    if free:
        return -1
    resting = walls[stopping]
    walls_after[: len(resting)] = resting
    return len(resting)


@_compiled
def _keep_proofs(
    scene: SceneArrays,
    sight: Any,
    probe: int,
    observers: np.ndarray,
    columns: np.ndarray,
    shape: np.ndarray,
    sheltered: np.ndarray,
    tile_of_several: bool,
    proofs: np.ndarray,
    proof_walls: np.ndarray,
    proof_wall_counts: np.ndarray,
    grow: float,
) -> None:
    """After a unit-pair search found the probe hidden from ``observers`` (model rows, columns
    ``columns``): the walls each model's proof rests on (its row of ``sight``) are kept, and, on
    a model tile of several cells (``shape``, within ``sheltered``), a model no separator walls
    off from the tile is asked :func:`_prove_behind_walls` at once: proven, it is passed over
    at the tile's other cells."""
    for n in range(len(observers)):
        o = observers[n]
        key = min(o, probe) * len(scene.model_top) + max(o, probe)
        if key not in sight:
            continue
        row = sight[key]
        walls = len(row) - 5
        if row[0] != kernel.HIDDEN_PAIR or not 0 < walls <= MAX_BARRIER:
            continue
        m = columns[n]
        for q in range(walls):
            proof_walls[m, q] = int(row[5 + q])
        proof_wall_counts[m] = walls
        if tile_of_several and proofs[m] == MODEL_NOT_SEPARATED:
            _prove_behind_walls(
                scene, o, probe, shape, sheltered, m, proofs, proof_walls, proof_wall_counts, grow
            )


@_compiled
def _not_walled_off(
    proofs: np.ndarray,
    unit_models: np.ndarray,
    observers: np.ndarray,
    columns: np.ndarray,
    count: int,
) -> int:
    """Moves the first ``count`` observing models (rows ``observers``, columns ``columns`` of
    ``unit_models``) not walled off from the tile (``proofs[column]`` not
    :data:`MODEL_WALLED_OFF`) to the
    front of both arrays, in order; returns how many there are."""
    kept = 0
    for n in range(count):
        if proofs[columns[n]] != MODEL_WALLED_OFF:
            observers[kept] = unit_models[columns[n]]
            columns[kept] = columns[n]
            kept += 1
    return kept


@_compiled
def _likely_seers_first(
    seers: np.ndarray, witnesses: np.ndarray, cell: np.ndarray, last: int
) -> np.ndarray:
    """The observing units in the order a cell asks them: the unit that saw last, then the
    units that have seen the probe, the one whose kept sight line ends at the cell nearest
    ``cell`` first, then the rest (round the units from ``last``). A cell no kept line still
    sees is mostly seen by a unit that saw a cell close by, along a new line, and every unit
    asked before that one must be proven not to see it; a hidden cell asks every unit anyway."""
    units = len(seers)
    distance = np.full(units, np.inf)
    for u in range(units):
        if u == last:
            distance[u] = -1.0
        elif seers[u] >= 0:
            distance[u] = math.hypot(cell[0] - witnesses[u, 4], cell[1] - witnesses[u, 5])
    rotated = (np.arange(units) + last) % units
    return rotated[np.argsort(distance[rotated], kind="mergesort")]


Memory = namedtuple(
    "Memory",
    [
        "barriers",
        "barrier_sizes",
        "part_walls",
        "part_wall_sizes",
        "tile_walls",
        "tile_wall_sizes",
        "seers",
        "witnesses",
        "proof_walls",
        "proof_wall_counts",
        "stood_alone",
        "separator_walls",
        "separator_wall_counts",
        "last",
    ],
)
"""What :func:`hidden_cells` learns about each observing unit and model and carries from one
call to the next (a thread's strips of the map follow one another west to east): per unit, the
barrier that separated it from the last cell, what blocked its last full search, the walls of
its last tile separator, the column of its model that saw last and that model's sight line;
per model, the walls of its last proof and of the last separator that walled it off, and
whether it last stood alone; and the unit that saw last. Neighbouring cells are mostly hidden
behind the same walls and seen along nearly the same lines, so a strip that starts with what
its western neighbour learnt starts warm."""


def new_memory(units: int, columns: int) -> Memory:
    """An empty :class:`Memory` for ``units`` observing units of ``columns`` models."""
    return Memory(
        np.zeros((units, MAX_BARRIER), dtype=np.int32),
        np.zeros(units, dtype=np.int64),
        np.zeros((units, MAX_BARRIER), dtype=np.int32),
        np.zeros(units, dtype=np.int64),
        np.zeros((units, MAX_BARRIER), dtype=np.int32),
        np.zeros(units, dtype=np.int64),
        np.full(units, -1, dtype=np.int64),
        np.zeros((units, 6)),
        np.zeros((columns, MAX_BARRIER), dtype=np.int32),
        np.zeros(columns, dtype=np.int64),
        np.zeros(columns, dtype=np.bool_),
        np.zeros((columns, MAX_BARRIER), dtype=np.int32),
        np.zeros(columns, dtype=np.int64),
        np.zeros(1, dtype=np.int64),
    )


@_compiled
def hidden_cells(
    scene: SceneArrays,
    probe: int,
    disc: np.ndarray,
    vertices: np.ndarray,
    cells: np.ndarray,
    within: np.ndarray,
    eligible: np.ndarray,
    unit_starts: np.ndarray,
    unit_models: np.ndarray,
    fully: bool,
    step: float,
    grow: float,
    line_half_width: float,
    memory: Memory,
    states: np.ndarray,
    undecided: np.ndarray,
) -> None:
    """Decides every cell ``c`` of ``cells`` (rows ``x, y``) whose ``states[c]`` is not
    :data:`BLOCKED`: :data:`HIDDEN` when no observing unit sees the probe there (with ``fully``:
    sees it fully), else :data:`VISIBLE`.

    The observing units are ``unit_models[unit_starts[u]:unit_starts[u + 1]]`` (model rows);
    ``eligible[c, m]`` says whether ``unit_models[m]`` takes part at cell ``c`` (Night Fighting's
    18", the map's own distance filter). ``undecided[c]`` marks an answer resting on an
    unproven step of the engine, whose answer is kept: :data:`UNPROVEN_SIGHT` (a "not visible"
    the search could not prove) or :data:`CONSERVATIVE_FULLY` (a rim piece too small to settle
    counted as not fully visible, the engine's one conservative step).

    Without ``fully``, a cell is first asked of every unit's cheapest evidence: the sight line
    by which the unit last saw the probe, its probe end moved with the probe, if it is still
    unblocked (:func:`_witness_still_free`), then the cheap lines from the unit's model that
    saw last (both :func:`_first_seer`); one free line settles "visible", and a
    cell some unit sees costs no proof about another. Then per unit, in the order of
    :func:`_likely_seers_first` (the unit likeliest to see the cell first): the models of
    the unit walled off from the cell's whole model tile (cells ``step`` apart,
    :data:`MODEL_TILE_CELLS` square) take no part; if some are, what follows is asked of the
    others as a part of the unit. With ``fully``, the unit's kept line. For the whole unit: a
    separator of the whole unit from the cell's tile (:data:`TILE_CELLS` square; tried once
    per tile and unit, first from the walls of the unit's last
    tile separator, a proof for every cell of the tile); the barrier that separated it from the
    previous cell, if it still does (a proof for this cell); with ``fully``, the cheap lines
    from the model that saw last; without ``fully``, for the first unit
    asked, the engine's full search from its model that saw last (most such cells are seen
    along a new line from that model); then, the first time the model tile is reached,
    separators of the unit's models from it, halves first, and for a model none walls off the
    walls its last proof rested on (once per model tile and model,
    :func:`_models_hidden_from_tile`); then a separator of the unit from the cell
    (:func:`_separator_among`, a proof); then the engine's whole unit-pair search over the
    models left (:func:`engine.sight_kernel.unit_pair_visible`, which for the whole unit does
    not look again for the separator just looked for, and builds the separators of parts of
    the unit from what blocked the unit's sight of the last cell it was searched for: a cell
    0.5" on is mostly hidden behind the same walls); a "not visible" there keeps the walls of
    each model's proof and asks them at once of the rest of the model tile
    (:func:`_keep_proofs`). What is learnt about each unit and model (kept lines, walls,
    barriers, the unit that saw last) is read from and left in ``memory`` for the caller's next
    strip. Every conclusion is one the engine's own
    search reaches: the order only changes which proof is found first."""
    scene = kernel._borrowed(scene)
    units = len(unit_starts) - 1
    targets = np.array([probe], dtype=np.int32)
    observers = np.empty(len(unit_models), dtype=np.int32)
    everything = np.arange(len(scene.blocker_kind)).astype(np.int32)
    hulls = np.zeros((units, 16 * len(unit_models) + 16, 2))
    hull_sizes = np.zeros(units, dtype=np.int64)
    for u in range(units):
        hull = kernel.convex_hull(
            kernel._unit_points(scene, unit_models[unit_starts[u] : unit_starts[u + 1]])
        )
        hulls[u, : len(hull)] = hull
        hull_sizes[u] = len(hull)
    barriers, barrier_sizes = memory.barriers, memory.barrier_sizes
    part_walls, part_wall_sizes = memory.part_walls, memory.part_wall_sizes
    tile_walls, tile_wall_sizes = memory.tile_walls, memory.tile_wall_sizes
    seers, witnesses = memory.seers, memory.witnesses
    tiles = _tiles(cells, states, within, step, TILE_CELLS)
    model_tiles = _tiles(cells, states, within, step, MODEL_TILE_CELLS)
    # Per tile and unit: 0 not tried, 1 proven hidden from the unit, 2 tried without a proof;
    # per model tile and observing model (a column of ``unit_models``): the MODEL_* codes.
    tile_proof = np.zeros((len(tiles.boxes), units), dtype=np.int8)
    model_proof = np.zeros((len(model_tiles.boxes), len(unit_models)), dtype=np.int8)
    proof_walls, proof_wall_counts = memory.proof_walls, memory.proof_wall_counts
    stood_alone = memory.stood_alone
    columns = np.empty(len(unit_models), dtype=np.int64)
    last = memory.last[0]
    for c in range(len(cells)):
        if states[c] == BLOCKED:
            continue
        place_probe(scene, probe, disc, vertices, cells[c, 0], cells[c, 1], within[c])
        tile = tiles.of_cell[c]
        small = model_tiles.of_cell[c]
        if not fully:
            # One free line settles a visible cell: every unit's kept line, then every unit's
            # last seer's cheap lines, are tried before any unit's proofs are sought.
            seer = -1
            for kept_line in (True, False):
                if seer < 0:
                    seer = _first_seer(
                        scene,
                        probe,
                        cells[c],
                        eligible[c],
                        tile_proof[tile] == 1,
                        model_proof[small] == MODEL_WALLED_OFF,
                        unit_models,
                        seers,
                        witnesses,
                        last,
                        kept_line,
                        grow,
                        line_half_width,
                    )
            if seer >= 0:
                last = seer
                states[c] = VISIBLE
                continue
        hidden = True
        order = _likely_seers_first(seers, witnesses, cells[c], last)
        for turn in range(units):
            u = order[turn]
            count = 0
            unproven = 0
            whole = True
            for m in range(unit_starts[u], unit_starts[u + 1]):
                if eligible[c, m]:
                    observers[count] = unit_models[m]
                    columns[count] = m
                    count += 1
                    unproven += model_proof[small, m] != MODEL_WALLED_OFF
                else:
                    whole = False
            if unproven == 0 or tile_proof[tile, u] == 1:
                continue
            if unproven < count:
                count = _not_walled_off(model_proof[small], unit_models, observers, columns, count)
                whole = False
            group = observers[:count].copy()
            seen = False
            separated = False
            hull = hulls[u, : hull_sizes[u]]
            if fully and seers[u] >= 0 and eligible[c, seers[u]]:
                seen = _witness_still_free(
                    scene,
                    unit_models[seers[u]],
                    probe,
                    witnesses[u],
                    cells[c, 0] - witnesses[u, 4],
                    cells[c, 1] - witnesses[u, 5],
                    grow,
                    line_half_width,
                )
            # A tile's proof settles up to 36 cells at once; a barrier kept from the
            # previous cell, tried first, would settle this cell alone and keep the tile from
            # being tried while it holds.
            if not seen and whole and tile_proof[tile, u] == 0:
                tile_proof[tile, u] = 2
                separator = _tile_separator(
                    scene,
                    probe,
                    _tile_shape(tiles.boxes[tile], disc, vertices),
                    tile,
                    tiles,
                    eligible,
                    hull,
                    group,
                    unit_starts[u],
                    unit_starts[u + 1],
                    tile_walls[u, : tile_wall_sizes[u]].copy(),
                    everything,
                    grow,
                )
                if 0 < len(separator) <= MAX_BARRIER:
                    tile_walls[u, : len(separator)] = separator
                    tile_wall_sizes[u] = len(separator)
                if len(separator):
                    tile_proof[tile, u] = 1
                    continue
            if not seen and whole and barrier_sizes[u] > 0:
                kept = barriers[u, : barrier_sizes[u]].copy()
                separated = len(_separator_among(scene, hull, group, probe, kept, grow)) > 0
            if fully and not seen and not separated and seers[u] >= 0 and eligible[c, seers[u]]:
                status, segment, _ = kernel.model_pair_search(
                    scene, unit_models[seers[u]], probe, grow, line_half_width, True
                )
                seen = status == kernel.FOUND
                if seen:
                    _keep_witness(witnesses, u, segment, False, cells[c, 0], cells[c, 1])
            sight = Dict.empty(key_type=types.int64, value_type=types.float64[::1])
            if not fully and not separated and not seen and turn == 0 and seers[u] >= 0:
                # The unit asked first mostly saw the previous cell: its model that saw is
                # searched in full before proofs about the whole unit (a "not visible" found is
                # kept in ``sight`` for the unit's search).
                m = seers[u]
                if eligible[c, m] and model_proof[small, m] != MODEL_WALLED_OFF:
                    row = kernel.sight_pair(
                        scene, sight, unit_models[m], probe, False, grow, line_half_width
                    )
                    seen = row[0] == kernel.SEEN_PAIR
                    if seen:
                        from_probe = unit_models[m] > probe
                        _keep_witness(witnesses, u, row[1:5], from_probe, cells[c, 0], cells[c, 1])
            if not separated and not seen and model_tiles.cells[small] >= 2:
                _models_hidden_from_tile(
                    scene,
                    probe,
                    _tile_shape(model_tiles.boxes[small], disc, vertices),
                    model_tiles.within[small],
                    unit_models,
                    columns[:count],
                    model_proof[small],
                    everything,
                    proof_walls,
                    proof_wall_counts,
                    stood_alone,
                    memory.separator_walls,
                    memory.separator_wall_counts,
                    grow,
                )
                remaining = _not_walled_off(
                    model_proof[small], unit_models, observers, columns, count
                )
                if remaining == 0:
                    continue
                if remaining < count:
                    count = remaining
                    group = observers[:count].copy()
                    whole = False
            if not separated and not seen and whole:
                barrier = _separator_among(scene, hull, group, probe, everything, grow)
                separated = len(barrier) > 0
                if separated and len(barrier) <= MAX_BARRIER:
                    barriers[u, : len(barrier)] = barrier
                    barrier_sizes[u] = len(barrier)
            if separated:
                continue
            if not seen:
                in_the_way = np.zeros(len(scene.blocker_kind), dtype=np.bool_)
                walls = (
                    part_walls[u, : part_wall_sizes[u]].copy()
                    if part_wall_sizes[u] > 0
                    else everything
                )
                status, first, _, _ = kernel.unit_pair_visible(
                    scene,
                    group,
                    targets,
                    sight,
                    in_the_way,
                    grow,
                    line_half_width,
                    walls,
                    not whole,
                    False,
                    -1,
                    -1,
                )
                if status == kernel.UNPROVEN:
                    undecided[c] = UNPROVEN_SIGHT
                if status != kernel.FOUND:
                    _keep_proofs(
                        scene,
                        sight,
                        probe,
                        observers[:count],
                        columns[:count],
                        _tile_shape(model_tiles.boxes[small], disc, vertices),
                        model_tiles.within[small],
                        model_tiles.cells[small] >= 2,
                        model_proof[small],
                        proof_walls,
                        proof_wall_counts,
                        grow,
                    )
                    found = np.flatnonzero(in_the_way)
                    if 0 < len(found) <= MAX_BARRIER:
                        part_walls[u, : len(found)] = found
                        part_wall_sizes[u] = len(found)
                    continue
                for m in range(unit_starts[u], unit_starts[u + 1]):
                    if unit_models[m] == first:
                        seers[u] = m
                key = min(first, probe) * len(scene.model_top) + max(first, probe)
                _keep_witness(
                    witnesses, u, sight[key][1:5], first > probe, cells[c, 0], cells[c, 1]
                )
            if fully:
                full = Dict.empty(key_type=types.int64, value_type=types.float64[::1])
                in_the_way = np.zeros(len(scene.blocker_kind), dtype=np.bool_)
                seen_whole, _, _, _, _, proven = kernel.unit_fully_visible(
                    scene, full, group, targets, in_the_way, grow
                )
                if not seen_whole:
                    if not proven and undecided[c] == 0:
                        undecided[c] = CONSERVATIVE_FULLY
                    continue
            hidden = False
            last = u
            break
        states[c] = HIDDEN if hidden else VISIBLE
        if not hidden:
            # Seen by a unit: a unit asked before it whose "not visible" went unproven leaves
            # nothing resting on that.
            undecided[c] = 0
    memory.last[0] = last


def warm_up() -> None:
    """Compiles (or loads from numba's cache) this module's kernels by mapping a small board
    in both modes."""
    from engine.hidden import hidden_map
    from engine.model import CircleBase, Model, Player, Scenario, TerrainFeature, TerrainPiece, Unit

    wall = ((14.0, 0.0), (15.0, 0.0), (15.0, 8.0), (14.0, 8.0))
    board = Scenario(
        "wh40k-ca2026",
        (Player("red"), Player("blue")),
        units=(Unit("blue", "blue", (Model("b1", 20.0, 4.0, CircleBase(32)),)),),
        terrain=(
            TerrainPiece("wall", wall, features=(TerrainFeature(wall, 5.0),)),
            TerrainPiece(
                "woods", ((30.0, 0.0), (34.0, 0.0), (34.0, 8.0), (30.0, 8.0)), obscuring=True
            ),
        ),
    )
    for mode in ("hidden", "not-fully-visible"):
        hidden_map(
            board,
            player="red",
            base=CircleBase(32),
            height=1.5,
            step=4.0,
            region="table",
            mode=mode,
        )


SIGHT_SOURCE_MARKER = "hidden_kernel.sight-source"
"""The file, beside this module's cached kernels, holding the digest of the sight kernels'
source they were compiled with (see :func:`forget_kernels_of_other_sight_source`)."""


def forget_kernels_of_other_sight_source(cache_dir: Path, sight_source: Path) -> bool:
    """Removes this module's cached kernels from ``cache_dir`` when ``sight_source`` (the
    sight kernels' module) is not the source they were compiled with; returns whether it did.

    numba keys a module's cache on that module's source alone, yet each kernel here carries
    compiled copies of the sight kernels it calls: after a change to ``engine/sight_kernel.py``
    alone, the cache would hand back the old ones (a source tree updated in place). The
    digest of the sight kernels' source is kept in :data:`SIGHT_SOURCE_MARKER`; a cache that
    cannot be read or written is left as it is (numba compiles in memory then, or the package's
    cache folder, named after every kernel source's digest, is already the right one).

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> sight = folder / "sight_kernel.py"
    >>> _ = sight.write_text("version 1")
    >>> cached = folder / "hidden_kernel.hidden_cells-725.py311.nbi"
    >>> _ = cached.write_bytes(b"")
    >>> forget_kernels_of_other_sight_source(folder, sight), cached.exists()
    (True, False)
    >>> _ = cached.write_bytes(b"")
    >>> forget_kernels_of_other_sight_source(folder, sight), cached.exists()
    (False, True)
    >>> _ = sight.write_text("version 2")
    >>> forget_kernels_of_other_sight_source(folder, sight), cached.exists()
    (True, False)
    """
    marker = cache_dir / SIGHT_SOURCE_MARKER
    try:
        digest = hashlib.sha256(sight_source.read_bytes()).hexdigest()
        if marker.is_file() and marker.read_text(encoding="ascii") == digest:
            return False
        for stale in (
            *cache_dir.glob("hidden_kernel.*.nbi"),
            *cache_dir.glob("hidden_kernel.*.nbc"),
        ):
            stale.unlink(missing_ok=True)
        write_atomically(digest, marker)
    except OSError:
        return False
    return True


# Before any kernel of this module is loaded from the cache (numba reads it on first call); the
# folder is the one numba chose for this module (the source tree's, or NUMBA_CACHE_DIR).
forget_kernels_of_other_sight_source(
    Path(cast(Any, hidden_cells).stats.cache_path), Path(kernel.__file__)
)
