"""Moves as the rules measure them: shortest legal moves around terrain and the regions a unit
can reach with a Normal Move, an Advance and a charge.

What a move is (seed 003, "Moving a Model in a Straight Line" and "Rotating a Model"): a
model moves horizontally in straight lines, each measured from the same point of its base, the
lengths adding up; rotating it about its base's centre is free. So a move is the path of the
base's centre, a chain of straight segments. Free rotation is used twice, the same way for
every base: the moving base is treated as the disc of its bounding radius ``R`` (a circle's
radius, an oval's semi-major axis, a hull's half-diagonal). A centre at least ``R`` from every
obstacle lets the base stand there in any facing, so every path found is legal whatever the
facing (conservative for ovals and hulls, which could sometimes pass a gap turned sideways);
at the end the model turns its farthest point towards the target, so it reaches ``R`` beyond
its centre (exact for every shape).

What blocks a move (the option ``movement_blocking``, the seeds are silent: they only say that
dense features are Solid for sight, 13.11, and Scrollhammer's "impassable terrain" that no unit
deploys in):

- ``"solid"`` (the default): impassable terrain areas, and the solid terrain features standing
  on the battlefield (``z`` 0: a wall on an upper floor does not stop a model below it);
- ``"every-feature"``: impassable areas and every feature standing on the battlefield;
- ``"impassable"``: impassable terrain areas only;
- ``"none"``: nothing (open ground).

Models with a keyword of ``movement_passes`` (default ``["FLY"]``; add ``"INFANTRY"`` for
ruin-walls style play) cross terrain features, never impassable areas. Other models never block
(friendly models may be moved through; enemy models are not obstacles here either, the seeds
being silent). A model whose base already overlaps an obstacle ignores that obstacle (it is
moving off it); a base stays on the battlefield (its centre at least ``R`` from each edge).

How it is computed: obstacles are grown by the moving base (configuration space: where the
centre may not go) as *outward* polygons: every vertex of a feature grows an arc of radius
``R`` traced by tangent edges, so the polygon holds the exact grown obstacle and lies within
:data:`ARC_EXCESS` of it; straight sides are exact (a gap exactly as wide as the base is open,
1e-4" narrower is closed). The shortest path is an A* search over the visibility graph of the
grown obstacles' convex corners (only corners a segment is tangent at). It is never shorter
than the true shortest path, and longer by at most ``ARC_EXCESS`` per radian the path turns
around corners (the length of a path wrapped round obstacles grown by ``r`` grows with ``r`` at
the rate of its total turning), plus :data:`GOAL_CHORD_ERROR` where the straight leg to the
goal's nearest point is blocked: under 0.007" for a path turning through a full circle. On open
ground the answer is the straight distance, exactly.

>>> from engine.model import CircleBase, Model, Player, Scenario, TerrainFeature, TerrainPiece
>>> from engine.model import Unit
>>> red = Unit("red", "red", (Model("r", 10.0, 10.0, CircleBase(25.4)),), move=6)
>>> blue = Unit("blue", "blue", (Model("b", 20.0, 10.0, CircleBase(25.4)),))
>>> game = Scenario("wh40k-ca2026", (Player("red"), Player("blue")), units=(red, blue))
>>> goal = engagement_goal(game, red, red.models[0], blue)
>>> path_distance(game, "red", "r", goal)
7.0
>>> wall = TerrainFeature(((14.9, 7.0), (15.1, 7.0), (15.1, 13.0), (14.9, 13.0)), 3.0)
>>> walled = Scenario("wh40k-ca2026", game.players, units=(red, blue),
...                   terrain=(TerrainPiece("wall", wall.shape, features=(wall,)),))
>>> round(path_distance(walled, "red", "r", goal), 3)
9.285
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Literal

import numpy as np
import numpy.typing as npt
import shapely
import shapely.ops
from shapely.errors import ShapelyError
from shapely.geometry.base import BaseGeometry

from engine.engagement import engagement_rules
from engine.errors import GeometryError, RulesError
from engine.geometry import (
    TOLERANCE,
    model_closest_point,
    model_point_distance,
    points_distances,
    shape_arrays,
    shape_of,
)
from engine.model import Model, Polygon, Scenario, Unit
from engine.options import MOVEMENT_BLOCKING_CHOICES

FloatArray = npt.NDArray[np.float64]

BLOCKING_OPTION = "movement_blocking"
BLOCKING_CHOICES = MOVEMENT_BLOCKING_CHOICES
DEFAULT_BLOCKING = "solid"
PASSES_OPTION = "movement_passes"
DEFAULT_PASSES = ("FLY",)

ARC_EXCESS = 0.001
"""Inches: the most a grown obstacle's outward polygon lies outside the exact grown shape, for
the shortest paths (the threat)."""
BAND_ARC_EXCESS = 0.01
"""Inches: the same for the drawn movement bands (fewer corners, faster)."""
BAND_RAYS = 180
"""Rays per corner the reachable region is traced with (besides one ray at every obstacle
corner in reach): between rays the region's round edge falls at most
``r * (1 - cos(pi / BAND_RAYS))`` inside the exact arc, under 0.004" up to 24"."""
DRAWING_TOLERANCE = 0.02
"""Inches: how far a drawn band's outline may stray from the exact region (the outward
obstacles, the traced arcs and the grown bases' chords together)."""

_CORE_EROSION = 1e-7
"""Inches the obstacles are shrunk by to test segments: a path may slide along an obstacle's
edge or touch its corners (contact is not an overlap), never cross it."""
MoveKind = Literal["normal", "advance", "charge"]


# --- what blocks whom --------------------------------------------------------------------


def blocking_polygons(scenario: Scenario, unit: Unit, model: Model) -> tuple[Polygon, ...]:
    """The footprints that block ``model``'s moves, as the options say (module docstring).

    >>> from engine.model import CircleBase, Player, TerrainFeature, TerrainPiece
    >>> square = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))
    >>> piece = TerrainPiece("ruin", square, features=(TerrainFeature(square, 3.0),))
    >>> flyer = Unit("f", "red", (Model("m", 5.0, 5.0, CircleBase(25.4)),), keywords=("FLY",))
    >>> game = Scenario("wh40k-ca2026", (Player("red"), Player("blue")), terrain=(piece,))
    >>> len(blocking_polygons(game, flyer, flyer.models[0]))
    0
    >>> walker = Unit("w", "red", flyer.models)
    >>> len(blocking_polygons(game, walker, walker.models[0]))
    1
    """
    blocking = scenario.option(BLOCKING_OPTION, DEFAULT_BLOCKING)
    if blocking == "none":
        return ()
    passes = scenario.option(PASSES_OPTION, list(DEFAULT_PASSES))
    crosses_features = bool(unit.model_keywords(model) & frozenset(passes or ()))
    polygons: list[Polygon] = []
    for piece in scenario.terrain:
        if piece.impassable:
            polygons.extend(piece.footprints)
        if blocking == "impassable" or crosses_features:
            continue
        polygons.extend(
            feature.shape
            for feature in piece.features
            if feature.z <= TOLERANCE and (feature.solid or blocking == "every-feature")
        )
    return tuple(polygons)


def moving_radius(model: Model) -> float:
    """The radius of the disc the base sweeps when turned freely: its bounding radius."""
    return shape_of(model).bounding_radius


# --- configuration space -----------------------------------------------------------------


def arc_step(radius: float, excess: float) -> float:
    """The widest angle one tangent edge may cover so that its corner lies at most ``excess``
    outside an arc of ``radius`` (``radius / cos(step / 2) - radius == excess``).

    >>> round(arc_step(1.0, 1.0 / math.cos(0.1) - 1.0), 9)
    0.2
    """
    return 2.0 * math.acos(radius / (radius + excess))


def grown_convex(points: Sequence[tuple[float, float]], radius: float, excess: float) -> Polygon:
    """A convex polygon (counter-clockwise) grown by ``radius``, as the outward polygon: each
    side moved out by exactly ``radius``, each corner's arc traced by tangent edges whose corners
    lie at most ``excess`` outside it.

    >>> square = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))
    >>> grown = grown_convex(square, 1.0, 0.01)
    >>> round(min(x for x, _ in grown), 9), round(max(y for _, y in grown), 9)
    (-1.0, 2.0)
    >>> max(math.hypot(x - 1.0, y - 1.0) for x, y in grown if x > 1 and y > 1) <= 1.01
    True
    """
    count = len(points)
    step = arc_step(radius, excess)
    grown: list[tuple[float, float]] = []
    for i in range(count):
        px, py = points[i - 1]
        cx, cy = points[i]
        nx, ny = points[(i + 1) % count]
        start = math.atan2(-(cx - px), cy - py)  # outward normal of the side coming in
        end = math.atan2(-(nx - cx), ny - cy)  # outward normal of the side going out
        turn = (end - start) % (2.0 * math.pi)
        if turn > math.pi:  # a collinear corner rounded the wrong way
            turn = 0.0
        pieces = max(1, math.ceil(turn / step - 1e-12))
        half = turn / (2.0 * pieces)
        reach = radius / math.cos(half)
        for j in range(pieces):
            angle = start + (2 * j + 1) * half
            grown.append((cx + reach * math.cos(angle), cy + reach * math.sin(angle)))
    return tuple(grown)


def _convex_pieces(polygon: Polygon) -> list[tuple[tuple[float, float], ...]]:
    shape = shapely.geometry.Polygon(polygon)
    if not shape.is_valid:
        shape = shapely.make_valid(shape)
    hull = shape.convex_hull
    if abs(hull.area - shape.area) <= 1e-12 * max(1.0, hull.area) and hull.geom_type == "Polygon":
        return [_ccw(hull)]
    triangles = shapely.constrained_delaunay_triangles(shape)
    return [_ccw(t) for t in shapely.get_parts(triangles) if t.area > 0.0]


def _ccw(polygon: BaseGeometry) -> tuple[tuple[float, float], ...]:
    ring = shapely.geometry.polygon.orient(polygon, 1.0).exterior.coords
    return tuple((float(x), float(y)) for x, y in list(ring)[:-1])


@dataclass(frozen=True, eq=False)
class Space:
    """Where a base of bounding radius ``radius`` may put its centre: inside ``table``, outside
    ``obstacles`` (touching allowed); ``corners``: the obstacles' convex corners, the points a
    shortest path bends at."""

    radius: float
    table: BaseGeometry
    obstacles: BaseGeometry
    core: BaseGeometry
    corners: FloatArray
    before: FloatArray
    after: FloatArray

    def tangent(self, point: tuple[float, float]) -> npt.NDArray[np.bool_]:
        """Which corners a line from ``point`` is tangent at (:func:`tangent_at`)."""
        return tangent_at(self.corners, self.before, self.after, point[0], point[1])

    def leaving(self, corner: int) -> npt.NDArray[np.bool_]:
        """Towards which corners a path may leave ``corner`` without entering its obstacle
        (the line is tangent at ``corner`` too)."""
        x, y = self.corners[corner]
        dx, dy = self.corners[:, 0] - x, self.corners[:, 1] - y
        bx, by = self.before[corner, 0] - x, self.before[corner, 1] - y
        ax, ay = self.after[corner, 0] - x, self.after[corner, 1] - y
        result: npt.NDArray[np.bool_] = (dx * by - dy * bx) * (dx * ay - dy * ax) >= -1e-12
        return result

    def clear(self, start: tuple[float, float], ends: FloatArray) -> npt.NDArray[np.bool_]:
        """Which straight segments from ``start`` to each of ``ends`` (rows) cross no obstacle
        (the segments stay on the table whenever their ends are: the table is convex)."""
        if len(ends) == 0 or self.core.is_empty:
            return np.ones(len(ends), dtype=bool)
        coords = np.empty((len(ends), 2, 2))
        coords[:, 0, :] = start
        coords[:, 1, :] = ends
        lines = shapely.linestrings(coords)
        return ~np.asarray(shapely.intersects(self.core, lines), dtype=bool)

    def allows(self, points: FloatArray) -> npt.NDArray[np.bool_]:
        """Which points a centre may stand on (on the table, in no obstacle)."""
        inside = np.asarray(shapely.covers(self.table, shapely.points(points)), dtype=bool)
        if self.core.is_empty:
            return inside
        hit = np.asarray(shapely.intersects(self.core, shapely.points(points)), dtype=bool)
        result: npt.NDArray[np.bool_] = inside & ~hit
        return result


@lru_cache(maxsize=64)
def configuration_space(
    polygons: tuple[Polygon, ...], radius: float, width: float, depth: float, excess: float
) -> Space:
    """The obstacles ``polygons`` grown by a base of bounding radius ``radius`` on a ``width``
    by ``depth`` table (cached: the same terrain and base give the same space)."""
    grow = radius - TOLERANCE
    margin = grow if grow > 0 else 0.0
    table = shapely.box(margin, margin, width - margin, depth - margin)
    try:
        pieces = tuple(
            shapely.geometry.Polygon(grown_convex(piece, grow, excess))
            for polygon in polygons
            for piece in _convex_pieces(polygon)
        )
        obstacles = shapely.union_all(pieces) if pieces else shapely.geometry.Polygon()
        core = obstacles.buffer(-_CORE_EROSION, join_style="mitre") if pieces else obstacles
    except (ShapelyError, ValueError) as error:
        raise GeometryError(f"the terrain cannot be grown by the moving base: {error}") from None
    shapely.prepare(core)
    shapely.prepare(table)
    corners, before, after = _convex_corners(obstacles)
    if len(corners):
        keep = np.asarray(shapely.covers(table, shapely.points(corners)), dtype=bool)
        corners, before, after = corners[keep], before[keep], after[keep]
    return Space(radius, table, obstacles, core, corners, before, after)


def _convex_corners(obstacles: BaseGeometry) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Every convex corner of the obstacles' outlines, with the vertices before and after it
    along its outline."""
    found: list[tuple[FloatArray, FloatArray, FloatArray]] = []
    for ring_points in _rings(obstacles):
        before = np.roll(ring_points, 1, axis=0)
        after = np.roll(ring_points, -1, axis=0)
        incoming, outgoing = ring_points - before, after - ring_points
        turn = incoming[:, 0] * outgoing[:, 1] - incoming[:, 1] * outgoing[:, 0]
        convex = turn > 0  # the obstacle lies on the left: a left turn is a convex corner
        found.append((ring_points[convex], before[convex], after[convex]))
    if not found:
        empty = np.empty((0, 2))
        return empty, empty, empty
    return (
        np.concatenate([f[0] for f in found]),
        np.concatenate([f[1] for f in found]),
        np.concatenate([f[2] for f in found]),
    )


def _rings(obstacles: BaseGeometry) -> list[FloatArray]:
    """The outlines of ``obstacles`` (open rings: no repeated first point), each with the
    obstacle on its left."""
    rings: list[FloatArray] = []
    for part in shapely.get_parts(obstacles):
        if part.geom_type != "Polygon" or part.is_empty:
            continue
        oriented = shapely.geometry.polygon.orient(part, 1.0)
        for ring in (oriented.exterior, *oriented.interiors):
            points = np.asarray(ring.coords)[:-1]
            if len(points) >= 3:
                rings.append(points)
    return rings


def tangent_at(
    corners: FloatArray, before: FloatArray, after: FloatArray, px: float, py: float
) -> npt.NDArray[np.bool_]:
    """Which corners the line from ``(px, py)`` touches without entering their obstacle (both
    outline neighbours on one side of it): the only corners a shortest path bends at."""
    dx, dy = corners[:, 0] - px, corners[:, 1] - py
    side_before = dx * (before[:, 1] - corners[:, 1]) - dy * (before[:, 0] - corners[:, 0])
    side_after = dx * (after[:, 1] - corners[:, 1]) - dy * (after[:, 0] - corners[:, 0])
    result: npt.NDArray[np.bool_] = side_before * side_after >= -1e-12
    return result


def model_space(scenario: Scenario, unit: Unit, model: Model, excess: float = ARC_EXCESS) -> Space:
    """The configuration space ``model`` moves in: its blocking obstacles, less those its base
    already overlaps, grown by its bounding radius."""
    radius = moving_radius(model)
    polygons = tuple(
        polygon
        for polygon in blocking_polygons(scenario, unit, model)
        if shapely.geometry.Polygon(polygon).distance(shapely.geometry.Point(model.x, model.y))
        >= radius - TOLERANCE
    )
    field = scenario.battlefield
    return configuration_space(polygons, radius, field.width, field.depth, excess)


# --- goals -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Goal:
    """Where a move must end: its centre within ``reach`` of the base of one of ``models``
    (exactly; for engagement, ``reach`` is the engagement range plus the moving base's bounding
    radius)."""

    models: tuple[Model, ...]
    reach: float

    def distances(self, points: FloatArray) -> FloatArray:
        """The straight distance from each point (rows) into the goal (0 inside it)."""
        if not self.models:
            return np.full(len(points), math.inf)
        arrays = shape_arrays([shape_of(m) for m in self.models])
        span = np.full(len(points), math.inf)
        found = points_distances(arrays, points[:, 0], points[:, 1], span)
        result: FloatArray = np.maximum(found.min(axis=1) - self.reach, 0.0)
        return result


def engagement_goal(scenario: Scenario, unit: Unit, model: Model, enemy: Unit) -> Goal:
    """Ending within the rule system's engagement range (horizontally) of some model of
    ``enemy``, for ``model`` of ``unit`` turned to reach as far as its base allows."""
    del unit  # the goal depends on the moving base only; the unit is named for symmetry
    return Goal(enemy.models, engagement_rules(scenario).horizontal + moving_radius(model))


# --- shortest paths ----------------------------------------------------------------------


def path_distance(
    scenario: Scenario, unit_id: str, model_id: str, goal: Goal, excess: float = ARC_EXCESS
) -> float | None:
    """The length of the shortest legal move of ``model_id`` (of ``unit_id``) ending in
    ``goal``, around the obstacles that block it; ``None`` when no move reaches it (walled in).
    ``RulesError`` for a unit or model that is not on the battlefield."""
    unit = next((u for u in scenario.units if u.id == unit_id), None)
    if unit is None:
        raise RulesError(f"no unit {unit_id!r} on the battlefield")
    model = next((m for m in unit.models if m.id == model_id), None)
    if model is None:
        raise RulesError(f"no model {model_id!r} in unit {unit_id!r}")
    return shortest_move(model_space(scenario, unit, model, excess), (model.x, model.y), goal)


@dataclass(frozen=True)
class MovePath:
    """A shortest legal move: its length and the centre's path (the start, each corner it
    bends at, the end in the goal)."""

    length: float
    points: tuple[tuple[float, float], ...]


def shortest_move(
    space: Space, start: tuple[float, float], goal: Goal, limit: float = math.inf
) -> float | None:
    """The length of :func:`shortest_path`."""
    path = shortest_path(space, start, goal, limit)
    return None if path is None else path.length


def shortest_path(
    space: Space, start: tuple[float, float], goal: Goal, limit: float = math.inf
) -> MovePath | None:
    """The shortest path in ``space`` from ``start`` into ``goal``: A* over the reduced
    visibility graph of the convex corners (a path bends only at corners its segments are
    tangent at), the straight distance into the goal as its heuristic. ``None`` when no path
    reaches the goal, or none of at most ``limit`` inches (the search stops there)."""
    corners = space.corners
    heuristic = goal.distances(corners) if len(corners) else np.empty(0)
    exits = _GoalExits(space, goal)
    best = math.inf
    cost = np.full(len(corners), math.inf)
    done = np.zeros(len(corners), dtype=bool)
    came: dict[int, int] = {}
    reached, begin = -1, -2
    queue: list[tuple[float, float, int, int, tuple[float, float]]] = [
        (0.0, 0.0, begin, begin, start)
    ]
    while queue:
        estimate, travelled, node, previous, end = heapq.heappop(queue)
        if estimate > limit + TOLERANCE:
            return None
        if node == reached:
            return MovePath(float(travelled), (*_route(came, previous, start, corners), end))
        if node >= 0:
            if done[node]:
                continue
            done[node] = True
            came[node] = previous
        point = start if node < 0 else (float(corners[node, 0]), float(corners[node, 1]))
        came_from = None if node < 0 else _point(previous, start, corners)
        leg, goal_point = exits.leg(point, came_from)
        if travelled + leg < best:
            best = travelled + leg
            heapq.heappush(queue, (best, best, reached, node, goal_point))
        if not len(corners):
            continue
        steps = np.hypot(corners[:, 0] - point[0], corners[:, 1] - point[1])
        through = travelled + steps
        candidates = ~done & (through + heuristic < min(best, limit + TOLERANCE))
        candidates &= (through < cost) & space.tangent(point)
        if node >= 0:
            candidates &= space.leaving(node)
        open_ = np.flatnonzero(candidates)
        if len(open_) == 0:
            continue
        for index in open_[space.clear(point, corners[open_])]:
            cost[index] = through[index]
            entry = (float(through[index] + heuristic[index]), float(through[index]))
            heapq.heappush(queue, (*entry, int(index), node, point))
    return None


def _point(node: int, start: tuple[float, float], corners: FloatArray) -> tuple[float, float]:
    return start if node < 0 else (float(corners[node, 0]), float(corners[node, 1]))


def _route(
    came: dict[int, int], last: int, start: tuple[float, float], corners: FloatArray
) -> tuple[tuple[float, float], ...]:
    nodes: list[int] = []
    while last >= 0:
        nodes.append(last)
        last = came[last]
    return (start, *(_point(n, start, corners) for n in reversed(nodes)))


GOAL_CHORD_ERROR = 0.0005
"""Inches: the most the goal's outline (used only where the straight leg to its nearest point
is blocked) falls inside the exact goal between its vertices."""
_CHUNK = 32


class _GoalExits:
    """The last straight leg of a move into a goal. From a point, the nearest point of the goal
    when that leg is clear (exact); else the nearest clear point among the feet and corners of
    the goal's free part (the goal less the obstacles, on the table) and the point where the
    path's own direction, carried on, enters it (a path grazing a corner on its way in)."""

    def __init__(self, space: Space, goal: Goal) -> None:
        self.space = space
        self.goal = goal
        self._free: BaseGeometry | None = None
        self._edges: FloatArray = np.empty((0, 2, 2))

    def free(self) -> BaseGeometry:
        if self._free is None:
            region = shapely.union_all(
                [
                    shapely.geometry.Polygon(_outline(m, self.goal.reach, GOAL_CHORD_ERROR))
                    for m in self.goal.models
                ]
            )
            self._free = region.intersection(self.space.table).difference(self.space.obstacles)
            rows = [np.stack([ring[:-1], ring[1:]], axis=1) for ring in _closed_rings(self._free)]
            if rows:
                edges = np.concatenate(rows)
                # Along the goal's own outline the nearest point of a goal model is the only
                # local minimum (each model's goal is convex): only the edges where obstacles or
                # the table's edge cut the goal (and their ends) can hold a nearer clear point.
                walls = shapely.union(self.space.obstacles.boundary, self.space.table.boundary)
                middles = shapely.points((edges[:, 0, :] + edges[:, 1, :]) / 2.0)
                self._edges = edges[np.asarray(shapely.dwithin(walls, middles, 1e-9), dtype=bool)]
        return self._free

    def direct(self, point: tuple[float, float]) -> float | None:
        """The straight distance from ``point`` into the goal when the leg to the goal's
        nearest point is clear (then no path is shorter), else ``None``."""
        nearest, clear, _ = self._nearest(point)
        return nearest if clear <= nearest else None

    def _nearest(self, point: tuple[float, float]) -> tuple[float, float, tuple[float, float]]:
        """The straight distance into the goal, the shortest clear leg to the nearest point of
        one of its models (infinite when every such leg is blocked) and where that leg ends."""
        px, py = point
        nearest = math.inf
        best, best_end = math.inf, point
        for target in self.goal.models:
            gap = model_point_distance(target, px, py) - self.goal.reach
            if gap <= 0.0:
                return 0.0, 0.0, point
            nearest = min(nearest, gap)
            qx, qy = model_closest_point(target, px, py)
            span = math.hypot(qx - px, qy - py)
            end = (px + (qx - px) * gap / span, py + (qy - py) * gap / span)
            ends = np.array([end])
            if gap < best and self.space.allows(ends)[0] and self.space.clear(point, ends)[0]:
                best, best_end = gap, end
        return nearest, best, best_end

    def leg(
        self, point: tuple[float, float], came_from: tuple[float, float] | None
    ) -> tuple[float, tuple[float, float]]:
        """The shortest clear straight leg from ``point`` into the goal (infinite if none) and
        where it ends, ``came_from`` the point the path reached ``point`` from."""
        px, py = point
        nearest, best, best_end = self._nearest(point)
        if best <= nearest:
            return best, best_end  # the goal's nearest point is in sight: none is nearer
        free = self.free()
        if free.is_empty:
            return best, best_end
        ends = [self._feet(px, py)]
        if came_from is not None:
            ends.append(self._carried_on(point, came_from, free))
        candidates = np.concatenate(ends)
        lengths = np.hypot(candidates[:, 0] - px, candidates[:, 1] - py)
        order = np.argsort(lengths)
        for first in range(0, len(order), _CHUNK):
            chunk = order[first : first + _CHUNK]
            if lengths[chunk[0]] >= best:
                break
            clear = self.space.clear(point, candidates[chunk])
            if clear.any():
                found = chunk[np.argmax(clear)]
                if lengths[found] < best:
                    return float(lengths[found]), (
                        float(candidates[found, 0]),
                        float(candidates[found, 1]),
                    )
                break
        return best, best_end

    def _feet(self, px: float, py: float) -> FloatArray:
        a, b = self._edges[:, 0, :], self._edges[:, 1, :]
        along = b - a
        squared = np.maximum((along**2).sum(axis=1), 1e-300)
        t = np.clip(((px - a[:, 0]) * along[:, 0] + (py - a[:, 1]) * along[:, 1]) / squared, 0, 1)
        feet: FloatArray = a + along * t[:, None]
        return feet

    def _carried_on(
        self, point: tuple[float, float], came_from: tuple[float, float], free: BaseGeometry
    ) -> FloatArray:
        dx, dy = point[0] - came_from[0], point[1] - came_from[1]
        length = math.hypot(dx, dy)
        if length == 0.0:
            return np.empty((0, 2))
        far = 2.0 * (self.space.table.length + 1.0) / length
        ray = shapely.geometry.LineString([point, (point[0] + dx * far, point[1] + dy * far)])
        crossing = ray.intersection(free)
        if crossing.is_empty:
            return np.empty((0, 2))
        first = shapely.ops.nearest_points(shapely.geometry.Point(point), crossing)[1]
        return np.array([[first.x, first.y]])


def _outline(model: Model, reach: float, chord_error: float) -> Polygon:
    """``model``'s base grown by ``reach`` as a polygon with its vertices on the exact curve and
    its edges at most ``chord_error`` inside it (as :func:`engine.rings.grown_base`)."""
    shape = shape_of(model)
    bound = shape.bounding_radius + reach
    step = math.acos(max(-1.0, 1.0 - chord_error / bound))
    count = 4 * max(16, math.ceil(math.pi / (2.0 * step)))
    points = []
    for k in range(count):
        angle = 2.0 * math.pi * k / count
        ux, uy = math.cos(angle), math.sin(angle)
        sx, sy = shape.support(ux, uy)
        points.append((sx + reach * ux, sy + reach * uy))
    return tuple(points)


def _closed_rings(region: BaseGeometry) -> list[FloatArray]:
    rings: list[FloatArray] = []
    for part in shapely.get_parts(region):
        if part.geom_type != "Polygon" or part.is_empty:
            continue
        for ring in (part.exterior, *part.interiors):
            rings.append(np.asarray(ring.coords))
    return rings


# --- reachable regions --------------------------------------------------------------------


@dataclass(frozen=True)
class MovementBand:
    """The area the unit's bases can cover with one move of up to ``distance`` inches.

    ``region`` is the whole area, ``band`` the part beyond the previous (shorter) band: what is
    drawn. ``probability`` is that of the move reaching this far: 1 for a Normal Move,
    ``P(D6 >= roll)`` for the Advance band of that roll, ``P(2D6 = 12)`` for the charge's
    outer limit."""

    kind: MoveKind
    distance: float
    probability: Fraction
    region: BaseGeometry
    band: BaseGeometry
    roll: int | None = None


def movement_bands(scenario: Scenario, unit_id: str) -> tuple[MovementBand, ...]:
    """The regions ``unit_id``'s models can reach, base edges included: a Normal Move (M), an
    Advance (M + roll for each roll 1 to 6) and a Normal Move then a charge (up to M + 12),
    around the obstacles that block them, within :data:`DRAWING_TOLERANCE`. Empty for a unit
    without M or models; ``RulesError`` for a unit not on the battlefield.

    >>> from engine.model import CircleBase, Model, Player, Scenario, Unit
    >>> red = Unit("red", "red", (Model("r", 30.0, 22.0, CircleBase(25.4)),), move=6)
    >>> game = Scenario("wh40k-ca2026", (Player("red"), Player("blue")), units=(red,))
    >>> bands = movement_bands(game, "red")
    >>> [(b.kind, b.distance, str(b.probability)) for b in bands][:2]
    [('normal', 6.0, '1'), ('advance', 7.0, '1')]
    >>> round(bands[0].region.area / (math.pi * 6.5**2), 3), bands[-1].distance
    (1.0, 18.0)
    """
    unit = next((u for u in scenario.units if u.id == unit_id), None)
    if unit is None:
        raise RulesError(f"no unit {unit_id!r} on the battlefield")
    if unit.move is None or not unit.models:
        return ()
    move = float(unit.move)
    levels: list[tuple[MoveKind, float, Fraction, int | None]] = [
        ("normal", move, Fraction(1), None)
    ]
    levels += [("advance", move + roll, Fraction(7 - roll, 6), roll) for roll in range(1, 7)]
    levels.append(("charge", move + 12.0, Fraction(1, 36), None))
    distances = [level[1] for level in levels]
    # Models moving in the same configuration space (the same base among the same obstacles:
    # most squads) have their centres' regions joined before the base is added round them,
    # once per level (growing a union by a radius is the union of the grown parts).
    starts: dict[int, tuple[Space, list[tuple[float, float]]]] = {}
    for model in unit.models:
        space = model_space(scenario, unit, model, BAND_ARC_EXCESS)
        starts.setdefault(id(space), (space, []))[1].append((model.x, model.y))
    regions: list[list[BaseGeometry]] = [[] for _ in levels]
    for space, points in starts.values():
        for index, area in enumerate(_reachable(space, points, distances)):
            regions[index].append(area.buffer(space.radius, quad_segs=32))
    bands: list[MovementBand] = []
    previous: BaseGeometry = shapely.geometry.Polygon()
    for (kind, distance, probability, roll), pieces in zip(levels, regions, strict=True):
        region = shapely.union_all(pieces)
        bands.append(
            MovementBand(kind, distance, probability, region, region.difference(previous), roll)
        )
        previous = region
    return tuple(bands)


def _reachable(
    space: Space, starts: Sequence[tuple[float, float]], distances: Sequence[float]
) -> list[BaseGeometry]:
    """The centre positions within each of ``distances`` (ascending) of one of ``starts`` by
    legal moves: the union, over each start and every corner a path from it bends at, of what
    that point sees within the distance left."""
    longest = distances[-1]
    # What a corner sees within the distance left is all the less the longer the way to it:
    # only the shortest way to each corner, from whichever start, adds to the union.
    shortest: dict[tuple[float, float], float] = {}
    for start in starts:
        for point, travelled in _corner_distances(space, start, longest):
            if travelled < shortest.get(point, math.inf):
                shortest[point] = travelled
    sources = list(shortest.items())
    stars: list[list[BaseGeometry]] = [[] for _ in distances]
    edges = _obstacle_edges(space)
    for (sx, sy), travelled in sources:
        left = longest - travelled
        angles, hits = _ray_hits(space, edges, (sx, sy), left)
        for index, distance in enumerate(distances):
            remaining = distance - travelled
            if remaining <= 0:
                continue
            lengths = np.minimum(hits, remaining)
            ring = np.column_stack([sx + lengths * np.cos(angles), sy + lengths * np.sin(angles)])
            star = shapely.make_valid(shapely.geometry.Polygon(ring))
            stars[index].append(star)
    try:
        return [shapely.union_all(level).intersection(space.table) for level in stars]
    except (ShapelyError, ValueError) as error:
        raise GeometryError(f"the movement bands cannot be traced: {error}") from None


def _corner_distances(
    space: Space, start: tuple[float, float], longest: float
) -> list[tuple[tuple[float, float], float]]:
    """The start and every corner within ``longest`` of it by legal moves, with that
    distance (Dijkstra over the visibility graph)."""
    corners = space.corners
    cost = np.full(len(corners), math.inf)
    done = np.zeros(len(corners), dtype=bool)
    found: list[tuple[tuple[float, float], float]] = [(start, 0.0)]
    queue: list[tuple[float, int]] = [(0.0, -1)]
    while queue:
        travelled, node = heapq.heappop(queue)
        if node >= 0:
            if done[node]:
                continue
            done[node] = True
            found.append(((float(corners[node, 0]), float(corners[node, 1])), travelled))
        if not len(corners):
            break
        point = start if node < 0 else (float(corners[node, 0]), float(corners[node, 1]))
        through = travelled + np.hypot(corners[:, 0] - point[0], corners[:, 1] - point[1])
        candidates = ~done & (through < longest) & (through < cost) & space.tangent(point)
        if node >= 0:
            candidates &= space.leaving(node)
        open_ = np.flatnonzero(candidates)
        if len(open_) == 0:
            continue
        for index in open_[space.clear(point, corners[open_])]:
            cost[index] = through[index]
            heapq.heappush(queue, (float(through[index]), int(index)))
    return found


def _obstacle_edges(space: Space) -> FloatArray:
    rows: list[FloatArray] = []
    for part in shapely.get_parts(space.core):
        if part.geom_type != "Polygon" or part.is_empty:
            continue
        for ring in (part.exterior, *part.interiors):
            points = np.asarray(ring.coords)
            rows.append(np.stack([points[:-1], points[1:]], axis=1))
    return np.concatenate(rows) if rows else np.empty((0, 2, 2))


def _ray_hits(
    space: Space, edges: FloatArray, origin: tuple[float, float], reach: float
) -> tuple[FloatArray, FloatArray]:
    """Rays from ``origin`` (evenly spaced, plus a pair either side of every corner a line from
    ``origin`` is tangent at within ``reach``: where the region's outline jumps), sorted by
    angle, and how far each runs before an obstacle (``reach`` at most)."""
    ox, oy = origin
    angles = np.linspace(-math.pi, math.pi, BAND_RAYS, endpoint=False)
    corners = space.corners
    if len(corners):
        near = np.hypot(corners[:, 0] - ox, corners[:, 1] - oy) <= reach
        silhouette = corners[near & space.tangent(origin)]
        corner_angles = np.arctan2(silhouette[:, 1] - oy, silhouette[:, 0] - ox)
        angles = np.concatenate([angles, corner_angles - 1e-7, corner_angles + 1e-7])
    angles = np.sort(np.mod(angles + math.pi, 2.0 * math.pi) - math.pi)
    hits = np.full(len(angles), reach)
    if len(edges):
        a, b = edges[:, 0, :], edges[:, 1, :]
        close = _segment_distances(a, b, ox, oy) <= reach
        a, b = a[close], b[close]
        if len(a):
            dx, dy = np.cos(angles)[:, None], np.sin(angles)[:, None]
            ex, ey = (b - a)[:, 0][None, :], (b - a)[:, 1][None, :]
            wx, wy = (a[:, 0] - ox)[None, :], (a[:, 1] - oy)[None, :]
            denominator = dx * ey - dy * ex
            with np.errstate(divide="ignore", invalid="ignore"):
                t = (wx * ey - wy * ex) / denominator
                s = (wx * dy - wy * dx) / denominator
            valid = (np.abs(denominator) > 1e-15) & (t > 0) & (s >= 0) & (s <= 1)
            hits = np.minimum(hits, np.where(valid, t, np.inf).min(axis=1))
    return angles, hits


def _segment_distances(a: FloatArray, b: FloatArray, px: float, py: float) -> FloatArray:
    along = b - a
    squared = np.maximum((along**2).sum(axis=1), 1e-300)
    t = np.clip(((px - a[:, 0]) * along[:, 0] + (py - a[:, 1]) * along[:, 1]) / squared, 0, 1)
    result: FloatArray = np.hypot(a[:, 0] + along[:, 0] * t - px, a[:, 1] + along[:, 1] * t - py)
    return result


def unit_goal_distance(
    scenario: Scenario,
    unit: Unit,
    enemy: Unit,
    limit: float = math.inf,
    excess: float = ARC_EXCESS,
) -> float | None:
    """The shortest legal move of any model of ``unit`` ending within engagement range of some
    model of ``enemy``; ``None`` when none can, or none of at most ``limit`` inches. Models are
    tried nearest first, stopping once the straight distance of the next cannot beat the best
    path found (a path is never shorter than the straight distance)."""
    engagement = engagement_rules(scenario).horizontal
    straight: list[tuple[float, Model]] = []
    for model in unit.models:
        reach = engagement + moving_radius(model)
        gap = min(model_point_distance(e, model.x, model.y) for e in enemy.models) - reach
        straight.append((max(gap, 0.0), model))
    straight.sort(key=lambda pair: (pair[0], pair[1].id))
    if not straight:
        return None
    nearest = straight[0][1]
    nearest_space = model_space(scenario, unit, nearest, excess)
    goal = engagement_goal(scenario, unit, nearest, enemy)
    direct = _GoalExits(nearest_space, goal).direct((nearest.x, nearest.y))
    if direct is not None:
        return direct  # open ground between the nearest models: exact, whatever the limit
    best: float | None = None
    for lower_bound, model in straight:
        if (best is not None and lower_bound >= best) or lower_bound > limit + TOLERANCE:
            break
        space = model_space(scenario, unit, model, excess)
        goal = engagement_goal(scenario, unit, model, enemy)
        found = shortest_move(space, (model.x, model.y), goal, limit)
        if found is not None and (best is None or found < best):
            best = found
    return best
