"""Edits as pure functions from one scenario value to the next.

The app's commands are built from these: moving and rotating things, adding a unit in
coherency, adding terrain from a preset or a drawn outline, adding objectives, changing an
objective's role or owner, removing. Every edit returns a document the file format accepts:
removing an element drops the references to it (:func:`engine.references.prune_references`),
a role change fixes the owner, new ids never collide with an id of the document, and an edit
that cannot be made raises :class:`engine.errors.WarplanError` with the reason.

>>> from engine.model import Battlefield, Player, Scenario
>>> s = Scenario("wh40k-ca2026", (Player("red"), Player("blue")), Battlefield())
>>> unique_id(s, "obj")
'obj-1'
>>> [round(x, 3) for x, _ in formation_positions(3, 32 / 25.4, centre=(10, 10))]
[8.24, 10.0, 11.76]
>>> s, objective_id = add_objective(s, (30, 6), role="home")
>>> s.objective(objective_id).owner
'red'
>>> set_objective_role(s, objective_id, "central").objective(objective_id).owner is None
True
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, replace

import shapely
from shapely.errors import ShapelyError

from engine.deployments import resolve_deployment
from engine.errors import GeometryError, RulesError, WarplanError
from engine.game_state import with_departed_units_named
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
from engine.references import element_ids, prune_references

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
        """Every unit of ``scenario`` that has a model in this selection (a selected id the
        scenario no longer has, deleted a moment ago, adds nothing)."""
        return frozenset(self.unit_ids(scenario))


def unique_id(scenario: Scenario, prefix: str, taken: Collection[str] = ()) -> str:
    """The first ``prefix-N`` (N = 1, 2, ...) not used anywhere in the document (deployment
    zones and territories included: the file gives every element one namespace)."""
    used = element_ids(scenario) | set(taken)
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
                other_footprints=tuple(_shift(p, dx, dy) for p in t.other_footprints),
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

    Every reference to what went is dropped in the same edit
    (:func:`engine.references.prune_references`): objectives that name a removed terrain piece
    stay, as marker objectives; the ``game`` section forgets deleted units, models, objectives
    and terrain.
    """
    units = []
    for unit in scenario.units:
        if unit.id in selection.units:
            continue
        models = tuple(m for m in unit.models if m.id not in selection.models)
        if models:
            units.append(unit if len(models) == len(unit.models) else replace(unit, models=models))
    removed = replace(
        scenario,
        units=tuple(units),
        terrain=tuple(t for t in scenario.terrain if t.id not in selection.terrain),
        objectives=tuple(o for o in scenario.objectives if o.id not in selection.objectives),
        markers=tuple(k for k in scenario.markers if k.id not in selection.markers),
    )
    gone = [unit for unit in scenario.units if unit.id not in {u.id for u in units}]
    return prune_references(with_departed_units_named(removed, gone))


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
    plain = unicodedata.normalize("NFKD", name.lower()).encode("ascii", "ignore").decode()
    slug = "".join(c if c.isalnum() else "-" for c in plain).strip("-") or "unit"
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


# ------------------------------------------------------------------------------ drawn outlines


def _distinct(points: Sequence[Point]) -> list[Point]:
    """``points`` without consecutive repeats, nor a last point repeating the first."""
    result: list[Point] = []
    for x, y in points:
        if not result or math.hypot(result[-1][0] - x, result[-1][1] - y) > 1e-9:
            result.append((float(x), float(y)))
    if (
        len(result) > 1
        and math.hypot(result[0][0] - result[-1][0], result[0][1] - result[-1][1]) <= 1e-9
    ):
        result.pop()
    return result


def extend_outline(points: Sequence[Point], point: Point) -> tuple[Point, ...]:
    """The outline being drawn, ``points``, with ``point`` added as its next corner.

    Raises :class:`GeometryError` when the new side would cross a side already drawn (the
    finished area could not be a simple polygon).

    >>> extend_outline([(0, 0), (4, 0), (4, 4)], (0, 4))
    ((0, 0), (4, 0), (4, 4), (0, 4))
    >>> extend_outline([(0, 0), (4, 0), (4, 4)], (0, 0))
    ((0, 0), (4, 0), (4, 4), (0, 0))
    >>> extend_outline([(0, 0), (4, 0), (4, 4)], (4, -2))
    Traceback (most recent call last):
    ...
    engine.errors.GeometryError: this side would cross the outline drawn so far
    """
    drawn = tuple(points)
    if drawn and math.hypot(drawn[-1][0] - point[0], drawn[-1][1] - point[1]) <= 1e-9:
        return drawn
    if len(drawn) >= 2:
        closing = len(drawn) >= 3 and math.dist(drawn[0], point) <= 1e-9
        try:
            side = shapely.LineString([drawn[-1], point])
            # A click back on the first corner closes the outline: the side may meet it there.
            earlier = shapely.LineString(drawn[1:] if closing else drawn)
            touching = side.intersection(earlier)
            crosses = touching.length > 0 or not shapely.Point(drawn[-1]).buffer(1e-9).covers(
                touching
            )
        except ShapelyError as error:
            raise GeometryError(f"this corner cannot be measured: {error}") from None
        if crosses:
            raise GeometryError("this side would cross the outline drawn so far")
    return (*drawn, point)


def closed_outline(points: Sequence[Point]) -> Polygon:
    """The terrain area enclosed by the drawn corners ``points`` (repeats dropped).

    Raises :class:`GeometryError` with the reason when it is not a simple polygon of non-zero
    area: fewer than three corners, all on one line, or sides that cross.

    >>> closed_outline([(0, 0), (4, 0), (4, 4), (4, 4)])
    ((0.0, 0.0), (4.0, 0.0), (4.0, 4.0))
    >>> closed_outline([(0, 0), (2, 2), (4, 4)])
    Traceback (most recent call last):
    ...
    engine.errors.GeometryError: a terrain area needs corners that are not all on one line
    """
    if not all(math.isfinite(c) for point in points for c in point):
        raise GeometryError("a terrain area needs finite corners")
    ring = _distinct(points)
    if len(ring) < 3:
        raise GeometryError(f"a terrain area needs at least 3 corners, got {len(ring)}")
    try:
        shape = shapely.Polygon(ring)
        flat = shape.convex_hull.area <= 1e-9
        reason = "" if shapely.is_valid(shape) else shapely.is_valid_reason(shape)
    except ShapelyError as error:
        raise GeometryError(f"the outline cannot be measured: {error}") from None
    if flat:
        raise GeometryError("a terrain area needs corners that are not all on one line")
    if reason:
        raise GeometryError(f"the outline's sides cross ({reason})")
    return tuple(ring)


def add_drawn_terrain(scenario: Scenario, points: Sequence[Point]) -> tuple[Scenario, str]:
    """``scenario`` with a plain terrain area of the drawn outline (raises like
    :func:`closed_outline`)."""
    piece = TerrainPiece(unique_id(scenario, "area"), closed_outline(points), kind="area")
    return add_terrain(scenario, piece), piece.id


# ------------------------------------------------------------------------------ objectives


def home_owner(scenario: Scenario, point: Point) -> str:
    """The player a new home objective at ``point`` belongs to: the one whose deployment zone
    is nearest (the first player when the scenario has no deployment or a tie)."""
    first = scenario.player_ids()[0]
    try:
        deployment = resolve_deployment(scenario)
    except WarplanError:
        return first
    if deployment is None:
        return first
    where = shapely.Point(point)
    distances = []
    for player in scenario.player_ids():
        zone = deployment.zone_geometry(player)
        if not zone.is_empty:
            distances.append((float(zone.distance(where)), player))
    if not distances:
        return first
    best = min(distances)[0]
    nearest = [player for distance, player in distances if distance <= best + 1e-9]
    return nearest[0] if len(nearest) == 1 else first


def add_objective(
    scenario: Scenario, centre: Point, role: ObjectiveRole = "other", owner: str | None = None
) -> tuple[Scenario, str]:
    """``scenario`` with a new objective marker at ``centre``; a home objective without an
    ``owner`` belongs to :func:`home_owner`, other roles have none."""
    objective_id = unique_id(scenario, "obj")
    if role == "home":
        owner = owner or home_owner(scenario, centre)
    else:
        owner = None
    objective = Objective(objective_id, centre[0], centre[1], role=role, owner=owner)
    return replace(scenario, objectives=(*scenario.objectives, objective)), objective_id


def _with_objective(scenario: Scenario, objective: Objective) -> Scenario:
    return replace(
        scenario,
        objectives=tuple(objective if o.id == objective.id else o for o in scenario.objectives),
    )


def set_objective_role(scenario: Scenario, objective_id: str, role: ObjectiveRole) -> Scenario:
    """The objective's role changed, its owner with it: a home objective keeps its owner or
    gets :func:`home_owner`, any other role has none (the format allows owners on home
    objectives only)."""
    objective = scenario.objective(objective_id)
    if role == "home":
        owner = objective.owner or home_owner(scenario, (objective.x, objective.y))
    else:
        owner = None
    if (role, owner) == (objective.role, objective.owner):
        return scenario
    return _with_objective(scenario, replace(objective, role=role, owner=owner))


def set_objective_owner(scenario: Scenario, objective_id: str, owner: str | None) -> Scenario:
    """The home objective given to ``owner``; raises :class:`RulesError` when the objective
    is not a home one (only home objectives have an owner) or ``owner`` is no player."""
    objective = scenario.objective(objective_id)
    if owner == objective.owner:
        return scenario
    if objective.role != "home":
        raise RulesError(f"only home objectives have an owner; {objective_id} is {objective.role}")
    if owner not in scenario.player_ids():
        raise RulesError(
            f"a home objective needs an owner: one of {', '.join(scenario.player_ids())}"
        )
    return _with_objective(scenario, replace(objective, owner=owner))


def add_marker(
    scenario: Scenario, centre: Point, kind: str = "operation", player: str | None = None
) -> tuple[Scenario, str]:
    marker_id = unique_id(scenario, "marker")
    marker = Marker(marker_id, kind, centre[0], centre[1], player=player)
    return replace(scenario, markers=(*scenario.markers, marker)), marker_id
