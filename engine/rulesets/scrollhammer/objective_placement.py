"""Place Objective Markers: the placement rules checked live, and the smallest nudge.

"No objective can be placed within 6\" of any battlefield edge or within 12\" of another
objective. No objective can be placed in, or on, impassible terrain or buildings." When the
last objectives cannot be placed, "simply nudge the other objectives by the smallest distance
necessary to allow the last ones to be placed."

Distances are measured from the objective's centre (option ``objective_measure`` ``"edge"``:
from the marker's rim). "Within" is inclusive, so an objective exactly 6" from an edge, or
exactly 12" from another objective, breaks the rule. "In, or on" terrain means any part of the
marker over an impassable terrain area or a building (terrain ``kind`` ``"building"``).

Options: ``objective_measure``, ``objective_nudge_metric`` (``"total"``, the default: the sum
of the distances the other objectives move; or ``"largest"``: the largest single move).

>>> from engine.model import Battlefield, Objective, Player, Scenario
>>> s = Scenario("scrollhammer", (Player("red"), Player("blue")), Battlefield(72, 48),
...              objectives=(Objective("o1", 6.0, 24.0), Objective("o2", 30.0, 24.0)))
>>> [v.items for v in objective_placement_violations(s)]
[('o1',)]
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

import shapely

from engine.errors import RulesError
from engine.explain import Violation, inches
from engine.geometry import TOLERANCE, terrain_area
from engine.model import Objective, Point, Scenario, TerrainPiece
from engine.rulesets.scrollhammer._data import standard_rules

RULE = "Place Objective Markers"
NUDGE_MARGIN = 1e-3
"""Inches beyond a limit a nudged objective is put, so "more than 12\"" holds with room."""


def _limits() -> tuple[float, float]:
    rule = standard_rules()["objective_placement"]
    return float(rule["edge_distance"]), float(rule["objective_distance"])


def blocks_objectives(piece: TerrainPiece) -> bool:
    """Impassable terrain and buildings may not hold an objective."""
    return piece.impassable or piece.kind.lower() == "building"


@dataclass(frozen=True)
class _Rules:
    width: float
    depth: float
    edge: float
    spacing: float
    by_edge: bool
    blockers: tuple[tuple[str, shapely.Polygon], ...]


def _rules(scenario: Scenario) -> _Rules:
    edge, spacing = _limits()
    measure = scenario.option("objective_measure", "centre")
    if measure not in ("centre", "edge"):
        raise RulesError(f"options.objective_measure is 'centre' or 'edge', got {measure!r}")
    blockers = tuple(
        (t.id, terrain_area(t).geometry) for t in scenario.terrain if blocks_objectives(t)
    )
    return _Rules(
        float(scenario.battlefield.width),
        float(scenario.battlefield.depth),
        edge,
        spacing,
        measure == "edge",
        blockers,
    )


def _violations_at(
    rules: _Rules, objective: Objective, others: Iterable[Objective]
) -> list[Violation]:
    found: list[Violation] = []
    x, y, r = objective.x, objective.y, objective.radius if rules.by_edge else 0.0
    marker = objective.radius
    edges = {"south": y, "north": rules.depth - y, "west": x, "east": rules.width - x}
    for name, to_edge in edges.items():
        gap = to_edge - r
        if gap <= rules.edge + TOLERANCE:
            foot = {
                "south": (x, 0.0),
                "north": (x, rules.depth),
                "west": (0.0, y),
                "east": (rules.width, y),
            }[name]
            found.append(
                Violation(
                    RULE,
                    f"{objective.id} is {inches(gap)} from the {name} battlefield edge: no "
                    "objective "
                    f"can be placed within {inches(rules.edge)} of any battlefield edge",
                    (objective.id,),
                    ((x, y), foot),
                    gap,
                    rules.edge,
                )
            )
    for other in others:
        gap = math.hypot(other.x - x, other.y - y)
        if rules.by_edge:
            gap -= objective.radius + other.radius
        if gap <= rules.spacing + TOLERANCE:
            found.append(
                Violation(
                    RULE,
                    f"{objective.id} is {inches(gap)} from {other.id}: no objective can be placed "
                    f"within {inches(rules.spacing)} of another objective",
                    (objective.id, other.id),
                    ((x, y), (other.x, other.y)),
                    gap,
                    rules.spacing,
                )
            )
    point = shapely.Point(x, y)
    for terrain_id, area in rules.blockers:
        if float(area.distance(point)) <= marker + TOLERANCE:
            found.append(
                Violation(
                    RULE,
                    f"{objective.id} is in or on {terrain_id}: no objective can be placed in, or "
                    "on, impassible terrain or buildings",
                    (objective.id, terrain_id),
                    ((x, y),),
                )
            )
    return found


def objective_placement_violations(
    scenario: Scenario, objective_ids: Iterable[str] | None = None
) -> tuple[Violation, ...]:
    """Every placement rule the (chosen) objectives break, each pair reported once."""
    rules = _rules(scenario)
    chosen = set(objective_ids) if objective_ids is not None else None
    found: list[Violation] = []
    objectives = scenario.objectives
    for index, objective in enumerate(objectives):
        if chosen is not None and objective.id not in chosen:
            continue
        later = [
            o
            for j, o in enumerate(objectives)
            if o.id != objective.id and (j > index or (chosen is not None and o.id not in chosen))
        ]
        found.extend(_violations_at(rules, objective, later))
    return tuple(found)


def violations_if_placed(scenario: Scenario, objective: Objective) -> tuple[Violation, ...]:
    """What placing ``objective`` (new, or moved: same id) would break, against the others."""
    rules = _rules(scenario)
    others = [o for o in scenario.objectives if o.id != objective.id]
    return tuple(_violations_at(rules, objective, others))


@dataclass(frozen=True)
class Nudge:
    """The smallest nudge found: where the last objective goes and how far the others move."""

    objective_id: str
    position: Point
    moves: Mapping[str, tuple[Point, Point]]
    total: float
    largest: float
    metric: str
    note: str

    def apply(self, scenario: Scenario) -> Scenario:
        """The scenario with the nudged objectives and the last one at ``position``."""
        objectives = []
        for objective in scenario.objectives:
            if objective.id == self.objective_id:
                objective = replace(objective, x=self.position[0], y=self.position[1])
            elif objective.id in self.moves:
                (_, (nx, ny)) = self.moves[objective.id]
                objective = replace(objective, x=nx, y=ny)
            objectives.append(objective)
        return replace(scenario, objectives=tuple(objectives))


def smallest_nudge(
    scenario: Scenario,
    objective_id: str,
    *,
    at: Point | None = None,
    step: float = 0.5,
) -> Nudge | None:
    """The smallest nudge of the other objectives that lets ``objective_id`` be placed.

    With ``at``, the last objective goes exactly there (if edges and terrain allow it);
    otherwise Warplan searches the whole table (a ``step``-inch grid, then finer grids around
    the best spot, down to 0.001"). Each other objective that is too close moves straight away
    from the last one to just over 12" (the shortest move out of the 12" circle); a candidate is
    kept only if every nudged objective still obeys every rule. ``None``: no nudge of this kind
    works. Cost: option ``objective_nudge_metric``.
    """
    rules = _rules(scenario)
    metric = scenario.option("objective_nudge_metric", "total")
    if metric not in ("total", "largest"):
        raise RulesError(f"options.objective_nudge_metric is 'total' or 'largest', got {metric!r}")
    last = scenario.objective(objective_id)
    others = tuple(o for o in scenario.objectives if o.id != objective_id)

    def attempt(x: float, y: float) -> tuple[float, Nudge] | None:
        if not _fits(rules, x, y, last.radius, ()):
            return None
        moves: dict[str, tuple[Point, Point]] = {}
        placed: list[tuple[float, float, float]] = []
        for other in others:
            dx, dy = other.x - x, other.y - y
            gap = math.hypot(dx, dy)
            legal = rules.spacing + (last.radius + other.radius if rules.by_edge else 0.0)
            if gap > legal + TOLERANCE:
                placed.append((other.x, other.y, other.radius))
                continue
            if gap == 0.0:
                return None
            scale = (legal + NUDGE_MARGIN) / gap
            target = (x + dx * scale, y + dy * scale)
            moves[other.id] = ((other.x, other.y), target)
            placed.append((target[0], target[1], other.radius))
        for index, (ox, oy, radius) in enumerate(placed):
            rest = [(x, y, last.radius), *placed[index + 1 :]]
            if not _fits(rules, ox, oy, radius, rest):
                return None
        distances = [math.hypot(b[0] - a[0], b[1] - a[1]) for a, b in moves.values()]
        total = sum(distances)
        largest = max(distances, default=0.0)
        nudge = Nudge(
            objective_id,
            (x, y),
            moves,
            total,
            largest,
            metric,
            f"{objective_id} at ({x:.3f}, {y:.3f}); "
            + (
                ", ".join(
                    f"{oid} nudged {inches(d)}" for oid, d in zip(moves, distances, strict=True)
                )
                or "no nudge needed"
            ),
        )
        return (total if metric == "total" else largest, nudge)

    if at is not None:
        found = attempt(*at)
        return found[1] if found else None
    best: tuple[float, Nudge] | None = None
    margin = (rules.edge + (last.radius if rules.by_edge else 0.0)) + 2 * NUDGE_MARGIN
    xs = _grid(margin, rules.width - margin, step)
    ys = _grid(margin, rules.depth - margin, step)
    for x in xs:
        for y in ys:
            found = attempt(x, y)
            if found and (best is None or found[0] < best[0] - 1e-12):
                best = found
            if best is not None and best[0] == 0.0:
                return best[1]
    if best is None:
        return None
    span = step
    while span > 0.001:
        cx, cy = best[1].position
        fine = span / 5
        for i in range(-5, 6):
            for j in range(-5, 6):
                found = attempt(cx + i * fine, cy + j * fine)
                if found and found[0] < best[0] - 1e-12:
                    best = found
        span = fine
    return best[1]


def _fits(
    rules: _Rules,
    x: float,
    y: float,
    radius: float,
    others: Iterable[tuple[float, float, float]],
) -> bool:
    """Whether an objective of marker ``radius`` at ``(x, y)`` obeys every placement rule
    against ``others`` (``(x, y, radius)`` each): :func:`_violations_at` without the words."""
    rim = radius if rules.by_edge else 0.0
    if min(x, y, rules.width - x, rules.depth - y) - rim <= rules.edge + TOLERANCE:
        return False
    for ox, oy, other_radius in others:
        gap = math.hypot(ox - x, oy - y) - (rim + other_radius if rules.by_edge else 0.0)
        if gap <= rules.spacing + TOLERANCE:
            return False
    if rules.blockers:
        point = shapely.Point(x, y)
        return all(float(area.distance(point)) > radius + TOLERANCE for _, area in rules.blockers)
    return True


def _grid(low: float, high: float, step: float) -> list[float]:
    if high < low:
        return []
    count = int((high - low) / step)
    return [low + i * step for i in range(count + 1)]


# ---------------------------------------------------------------------------------------------
# One fix per objective that breaks the rules

SEARCH_STEP = 0.05
"""Inches between candidate points along a search ring."""
COARSE_STEP = 0.25
"""Inches between search rings until one holds a legal spot..."""
FINE_STEP = 0.01
"""...then inches between rings inside that one."""
SEARCH_REACH = 24.0
"""The farthest (inches) the nearest legal spot is looked for."""


@dataclass(frozen=True)
class PlacementFix:
    """A fix for an objective that breaks the placement rules: where objectives go, and why."""

    objective_id: str
    text: str
    positions: Mapping[str, Point]
    """Objective id to its new centre, for every objective the fix moves."""

    def apply(self, scenario: Scenario) -> Scenario:
        """The scenario with the objectives of :attr:`positions` moved there."""
        objectives = tuple(
            replace(o, x=self.positions[o.id][0], y=self.positions[o.id][1])
            if o.id in self.positions
            else o
            for o in scenario.objectives
        )
        return replace(scenario, objectives=objectives)


def placement_fix(scenario: Scenario, objective_id: str) -> PlacementFix | None:
    """The smallest fix for ``objective_id``: when its own spot is legal (only the spacing to
    other objectives fails), nudge the others (:func:`smallest_nudge`); else move it to the
    nearest legal spot (:func:`legal_spot`). ``None`` when neither is found.

    >>> from engine.model import Battlefield, Objective, Player, Scenario
    >>> s = Scenario("scrollhammer", (Player("red"), Player("blue")), Battlefield(72, 48),
    ...              objectives=(Objective("o1", 4.0, 24.0), Objective("o2", 36.0, 24.0)))
    >>> fix = placement_fix(s, "o1")
    >>> fix.text, fix.positions["o1"][0] > 6.0
    ('Move o1 2.001" to the nearest legal spot', True)
    """
    objective = scenario.objective(objective_id)
    objective_ids = {o.id for o in scenario.objectives}
    own = [
        v
        for v in violations_if_placed(scenario, objective)
        if len(v.items) < 2 or v.items[1] not in objective_ids
    ]
    if not own:
        nudge = smallest_nudge(scenario, objective_id, at=(objective.x, objective.y))
        if nudge is not None:
            moved = ", ".join(
                f"{oid} {inches(math.dist(a, b))}" for oid, (a, b) in sorted(nudge.moves.items())
            )
            positions = {oid: to for oid, (_, to) in nudge.moves.items()}
            positions[objective_id] = nudge.position
            return PlacementFix(
                objective_id, f"Nudge {moved} so {objective_id} fits here", positions
            )
    spot = legal_spot(scenario, objective_id)
    if spot is None:
        return None
    distance = math.dist((objective.x, objective.y), spot)
    return PlacementFix(
        objective_id,
        f"Move {objective_id} {inches(round(distance, 4))} to the nearest legal spot",
        {objective_id: spot},
    )


def legal_spot(scenario: Scenario, objective_id: str) -> Point | None:
    """The nearest position where the objective breaks no placement rule (others unmoved).

    First the closed-form pull back inside the edge band; then rings of growing radius around
    it (:data:`COARSE_STEP` apart, then :data:`FINE_STEP` apart inside the first ring that
    holds a legal spot), each candidate checked by the wordless placement test, and the winner
    confirmed by :func:`violations_if_placed`. ``None`` beyond :data:`SEARCH_REACH`.
    """
    objective = scenario.objective(objective_id)
    rules = _rules(scenario)
    rim = objective.radius if rules.by_edge else 0.0
    others = [(o.x, o.y, o.radius) for o in scenario.objectives if o.id != objective_id]
    margin = rules.edge + rim + NUDGE_MARGIN
    start = (
        min(max(objective.x, margin), rules.width - margin),
        min(max(objective.y, margin), rules.depth - margin),
    )

    def fits(x: float, y: float) -> bool:
        return _fits(rules, x, y, objective.radius, others)

    def first_on_ring(radius: float) -> Point | None:
        steps = max(24, int(2 * math.pi * radius / SEARCH_STEP))
        found = [
            (start[0] + radius * math.cos(a), start[1] + radius * math.sin(a))
            for a in (2 * math.pi * k / steps for k in range(steps))
        ]
        legal = [p for p in found if fits(*p)]
        if not legal:
            return None
        return min(legal, key=lambda p: math.dist(p, (objective.x, objective.y)))

    spot: Point | None = start if fits(*start) else None
    radius = COARSE_STEP
    while spot is None and radius <= SEARCH_REACH:
        if first_on_ring(radius) is not None:
            fine = radius - COARSE_STEP
            while spot is None and fine <= radius + 1e-9:
                fine += FINE_STEP
                spot = first_on_ring(fine)
        radius += COARSE_STEP
    if spot is None or violations_if_placed(scenario, replace(objective, x=spot[0], y=spot[1])):
        return None
    return spot
