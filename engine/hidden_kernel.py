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

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numpy as np
from numba import njit, types
from numba.typed import Dict

from engine import sight_kernel as kernel
from engine.sight_kernel import SceneArrays

_Function = TypeVar("_Function", bound=Callable[..., Any])


def _compiled(function: _Function) -> _Function:
    """Compiled on first use (kept in numba's on-disk cache), releasing the GIL while it runs."""
    return cast(_Function, njit(cache=True, nogil=True)(function))


VISIBLE = 0
HIDDEN = 1
BLOCKED = 2


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
    grow: float,
    line_half_width: float,
    states: np.ndarray,
    undecided: np.ndarray,
) -> None:
    """Decides every cell ``c`` of ``cells`` (rows ``x, y``) whose ``states[c]`` is not
    :data:`BLOCKED`: :data:`HIDDEN` when no observing unit sees the probe there (with ``fully``:
    sees it fully), else :data:`VISIBLE`.

    The observing units are ``unit_models[unit_starts[u]:unit_starts[u + 1]]`` (model rows);
    ``eligible[c, m]`` says whether ``unit_models[m]`` takes part at cell ``c`` (Night Fighting's
    18", the map's own distance filter). ``undecided[c]`` is set where an answer rests on an
    unproven step of the engine (a "not visible" the search could not prove, a rim piece too
    small to settle): the engine's answer is kept, and counted by the caller."""
    units = len(unit_starts) - 1
    targets = np.array([probe], dtype=np.int32)
    observers = np.empty(len(unit_models), dtype=np.int32)
    last = 0
    for c in range(len(cells)):
        if states[c] == BLOCKED:
            continue
        place_probe(scene, probe, disc, vertices, cells[c, 0], cells[c, 1], within[c])
        hidden = True
        for step in range(units):
            u = (last + step) % units
            count = 0
            for m in range(unit_starts[u], unit_starts[u + 1]):
                if eligible[c, m]:
                    observers[count] = unit_models[m]
                    count += 1
            if count == 0:
                continue
            group = observers[:count].copy()
            sight = Dict.empty(key_type=types.int64, value_type=types.float64[::1])
            in_the_way = np.zeros(len(scene.blocker_kind), dtype=np.bool_)
            status, _, _, _ = kernel.unit_pair_visible(
                scene, group, targets, sight, in_the_way, grow, line_half_width
            )
            if status == kernel.UNPROVEN:
                undecided[c] = True
            if status != kernel.FOUND:
                continue
            if fully:
                full = Dict.empty(key_type=types.int64, value_type=types.float64[::1])
                seen_whole, _, _, _, _, proven = kernel.unit_fully_visible(
                    scene, full, group, targets, in_the_way, grow
                )
                if not seen_whole:
                    if not proven:
                        undecided[c] = True
                    continue
            hidden = False
            last = u
            break
        states[c] = HIDDEN if hidden else VISIBLE


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
