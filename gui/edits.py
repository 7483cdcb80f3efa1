"""Edits as pure functions from one scenario value to the next (no Qt, easy to test).

The app's commands are built from these: moving and rotating things, adding a unit in
coherency, adding terrain from a preset or a drawn polygon, adding objectives, removing.

>>> from engine.model import Battlefield, Player, Scenario
>>> s = Scenario("wh40k-ca2026", (Player("red"), Player("blue")), Battlefield())
>>> unique_id(s, "obj")
'obj-1'
>>> [round(x, 3) for x, _ in formation_positions(3, 32 / 25.4, centre=(10, 10))]
[8.24, 10.0, 11.76]
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable
from dataclasses import dataclass, replace

from engine.model import (
    Base,
    Marker,
    Model,
    Objective,
    ObjectiveRole,
    Point,
    Polygon,
    Scenario,
    TerrainFeature,
    TerrainPiece,
    Unit,
)

COHERENCY_GAP = 0.5
"""Gap between neighbouring bases of a new unit: well inside the 2" coherency distance."""
MODELS_PER_ROW = 5


@dataclass(frozen=True)
class Selection:
    """Ids of what a drag, nudge or delete acts on."""

    models: frozenset[str] = frozenset()
    units: frozenset[str] = frozenset()
    terrain: frozenset[str] = frozenset()
    objectives: frozenset[str] = frozenset()
    markers: frozenset[str] = frozenset()

    def is_empty(self) -> bool:
        return not (self.models or self.units or self.terrain or self.objectives or self.markers)

    def unit_ids(self, scenario: Scenario) -> set[str]:
        """The selected units and the units of the selected models; a model no longer in
        ``scenario`` (deleted a moment ago) adds nothing."""
        units = set(self.units)
        for model_id in self.models:
            try:
                units.add(scenario.unit_of_model(model_id).id)
            except KeyError:
                continue
        return units

    def moved_unit_ids(self, scenario: Scenario) -> frozenset[str]:
        """Every unit that has a model in this selection."""
        return self.units | {scenario.unit_of_model(m).id for m in self.models}


def all_ids(scenario: Scenario) -> set[str]:
    ids = {u.id for u in scenario.units} | {p.id for p in scenario.players}
    ids |= {m.id for _, m in scenario.all_models()}
    ids |= {t.id for t in scenario.terrain} | {o.id for o in scenario.objectives}
    ids |= {k.id for k in scenario.markers}
    return ids


def unique_id(scenario: Scenario, prefix: str, taken: Collection[str] = ()) -> str:
    """The first ``prefix-N`` (N = 1, 2, ...) not used anywhere in the document."""
    used = all_ids(scenario) | set(taken)
    n = 1
    while f"{prefix}-{n}" in used:
        n += 1
    return f"{prefix}-{n}"


def _shift(points: Polygon, dx: float, dy: float) -> Polygon:
    return tuple((x + dx, y + dy) for x, y in points)


def move_selection(scenario: Scenario, selection: Selection, dx: float, dy: float) -> Scenario:
    """``scenario`` with everything in ``selection`` displaced by ``(dx, dy)`` inches.

    A terrain objective (one naming a terrain piece) moves with its terrain piece.
    """
    result = scenario
    whole_units = selection.units
    loose_models = {m for m in selection.models if scenario.unit_of_model(m).id not in whole_units}
    if whole_units or loose_models:
        units = tuple(
            u.moved(dx, dy)
            if u.id in whole_units
            else replace(
                u, models=tuple(m.moved(dx, dy) if m.id in loose_models else m for m in u.models)
            )
            if any(m.id in loose_models for m in u.models)
            else u
            for u in result.units
        )
        result = replace(result, units=units)
    if selection.terrain:
        terrain = tuple(
            replace(
                t,
                area=_shift(t.area, dx, dy),
                features=tuple(replace(f, shape=_shift(f.shape, dx, dy)) for f in t.features),
            )
            if t.id in selection.terrain
            else t
            for t in result.terrain
        )
        result = replace(result, terrain=terrain)
    moved_objectives = set(selection.objectives) | {
        o.id for o in result.objectives if o.terrain is not None and o.terrain in selection.terrain
    }
    if moved_objectives:
        objectives = tuple(
            replace(o, x=o.x + dx, y=o.y + dy) if o.id in moved_objectives else o
            for o in result.objectives
        )
        result = replace(result, objectives=objectives)
    if selection.markers:
        markers = tuple(
            replace(k, x=k.x + dx, y=k.y + dy) if k.id in selection.markers else k
            for k in result.markers
        )
        result = replace(result, markers=markers)
    return result


def rotate_models(scenario: Scenario, model_ids: Iterable[str], degrees: float) -> Scenario:
    """Each model turned ``degrees`` counter-clockwise about its own centre (kept in [0, 360))."""
    models = [
        replace(m, rotation=(m.rotation + degrees) % 360.0)
        for m in (scenario.model(i) for i in model_ids)
    ]
    return scenario.with_models(models)


def remove_selection(scenario: Scenario, selection: Selection) -> Scenario:
    """``scenario`` without the selected things; a unit left with no models goes too.

    Objectives that name a removed terrain piece stay, as marker objectives (their ``terrain``
    reference is dropped), so the file stays valid.
    """
    units = []
    for unit in scenario.units:
        if unit.id in selection.units:
            continue
        models = tuple(m for m in unit.models if m.id not in selection.models)
        if models:
            units.append(unit if len(models) == len(unit.models) else replace(unit, models=models))
    objectives = tuple(
        replace(o, terrain=None) if o.terrain in selection.terrain else o
        for o in scenario.objectives
        if o.id not in selection.objectives
    )
    return replace(
        scenario,
        units=tuple(units),
        terrain=tuple(t for t in scenario.terrain if t.id not in selection.terrain),
        objectives=objectives,
        markers=tuple(k for k in scenario.markers if k.id not in selection.markers),
    )


def base_footprint(base: Base) -> tuple[float, float]:
    """Width and depth in inches of the unrotated base's bounding box."""
    radius = base.bounding_radius
    semi = getattr(base, "semi_axes", None) or getattr(base, "half_extents", None)
    if semi is None:
        return 2 * radius, 2 * radius
    return 2 * semi[0], 2 * semi[1]


def formation_positions(count: int, base: Base | float, centre: Point) -> list[Point]:
    """Base centres for ``count`` models in a block about ``centre``, ``COHERENCY_GAP`` apart.

    Rows of up to five, left-aligned, so every model has a neighbour beside it and, from the
    second row on, one straight above it: the coherency rule's one model within 2" (two for
    units of seven or more; the 0.5" gap keeps diagonal neighbours within 2" too). ``base``
    may be a diameter in inches for round bases.
    """
    width, depth = (base, base) if isinstance(base, float | int) else base_footprint(base)
    rows = math.ceil(count / MODELS_PER_ROW)
    columns = math.ceil(count / rows) if count else 0
    step_x, step_y = width + COHERENCY_GAP, depth + COHERENCY_GAP
    cx, cy = centre
    positions = []
    for index in range(count):
        row, column = divmod(index, columns)
        x = cx + (column - (columns - 1) / 2) * step_x
        y = cy - (row - (rows - 1) / 2) * step_y
        positions.append((x, y))
    return positions


def add_unit(
    scenario: Scenario,
    *,
    name: str,
    player: str,
    keywords: Iterable[str],
    oc: int,
    model_count: int,
    base: Base,
    centre: Point,
    height: float = 1.5,
) -> tuple[Scenario, str]:
    """``scenario`` with a new unit of ``model_count`` models in coherency about ``centre``."""
    slug = "".join(c if c.isalnum() else "-" for c in name.lower()).strip("-") or "unit"
    unit_id = unique_id(scenario, f"{player}-{slug}")
    taken = {unit_id}
    models = []
    for x, y in formation_positions(model_count, base, centre):
        model_id = unique_id(scenario, unit_id, taken)
        taken.add(model_id)
        models.append(Model(model_id, x, y, base, height=height))
    unit = Unit(
        unit_id,
        player,
        tuple(models),
        name=name,
        keywords=tuple(sorted({k.strip().upper() for k in keywords if k.strip()})),
        oc=oc,
    )
    return replace(scenario, units=(*scenario.units, unit)), unit_id


def _rect(x0: float, y0: float, x1: float, y1: float) -> Polygon:
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


def _ellipse(cx: float, cy: float, rx: float, ry: float, sides: int = 16) -> Polygon:
    return tuple(
        (cx + rx * math.cos(2 * math.pi * i / sides), cy + ry * math.sin(2 * math.pi * i / sides))
        for i in range(sides)
    )


TERRAIN_PRESETS = ("ruin", "woods", "crater", "container", "barricade")
"""Terrain the palette adds with one click (sizes are common tournament-table pieces)."""


def terrain_preset(kind: str, centre: Point, piece_id: str) -> TerrainPiece:
    """A terrain piece of preset ``kind`` centred on ``centre``.

    - ruin: a 10" x 6" area with two 5"-high solid walls in an L (0.25" thick).
    - woods: an 8" x 6" obscuring area with no walls.
    - crater: a 5" x 4" area, no features.
    - container: a 5" x 2.5" solid block 2.5" high, its area the same footprint.
    - barricade: a 6" x 1" area with a 1"-high solid wall 0.25" thick along it.
    """
    cx, cy = centre
    if kind == "ruin":
        x0, y0, x1, y1 = cx - 5, cy - 3, cx + 5, cy + 3
        walls = (
            TerrainFeature(_rect(x0, y0, x1, y0 + 0.25), height=5.0),
            TerrainFeature(_rect(x0, y0, x0 + 0.25, y1), height=5.0),
        )
        return TerrainPiece(piece_id, _rect(x0, y0, x1, y1), kind="ruin", features=walls)
    if kind == "woods":
        return TerrainPiece(piece_id, _ellipse(cx, cy, 4.0, 3.0), kind="woods", obscuring=True)
    if kind == "crater":
        return TerrainPiece(piece_id, _ellipse(cx, cy, 2.5, 2.0), kind="crater")
    if kind == "container":
        block = _rect(cx - 2.5, cy - 1.25, cx + 2.5, cy + 1.25)
        return TerrainPiece(
            piece_id, block, kind="container", features=(TerrainFeature(block, height=2.5),)
        )
    if kind == "barricade":
        area = _rect(cx - 3, cy - 0.5, cx + 3, cy + 0.5)
        wall = TerrainFeature(_rect(cx - 3, cy - 0.125, cx + 3, cy + 0.125), height=1.0)
        return TerrainPiece(piece_id, area, kind="barricade", features=(wall,))
    raise ValueError(f"unknown terrain preset {kind!r}; known: {', '.join(TERRAIN_PRESETS)}")


def add_terrain(scenario: Scenario, piece: TerrainPiece) -> Scenario:
    return replace(scenario, terrain=(*scenario.terrain, piece))


def add_objective(
    scenario: Scenario, centre: Point, role: ObjectiveRole = "other", owner: str | None = None
) -> tuple[Scenario, str]:
    objective_id = unique_id(scenario, "obj")
    objective = Objective(objective_id, centre[0], centre[1], role=role, owner=owner)
    return replace(scenario, objectives=(*scenario.objectives, objective)), objective_id


def add_marker(
    scenario: Scenario, centre: Point, kind: str = "operation", player: str | None = None
) -> tuple[Scenario, str]:
    marker_id = unique_id(scenario, "marker")
    marker = Marker(marker_id, kind, centre[0], centre[1], player=player)
    return replace(scenario, markers=(*scenario.markers, marker)), marker_id
