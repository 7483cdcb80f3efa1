"""Scrollhammer battlefields: table halves, board edges, deployment zones and 2' x 2' sections.

A Standard Mission divides the table by a centre line, either "from short end to short end"
(``long-edge``) or "across a diagonal" (``diagonal``, from one corner to the opposite one). A
player's deployment zone is "anywhere in their own table half that is more than 12\" from the
central line". Distances from a base to a line are exact for every base shape: the signed
distance of the base's centre minus the base's reach (support function) towards the line.

Scenario options read here (all optional):

- ``mission``: a Standard Mission id, name or number (its halves rule is the default).
- ``table_halves``: ``"long-edge"`` or ``"diagonal"``.
- ``diagonal``: ``"SW-NE"`` (default) or ``"NW-SE"``, the corners the centre line joins.
- ``table_edges``: ``{player id: "south" | "north" | "west" | "east"}``, each player's board
  edge (a long edge). Default: the first listed player south, the second north (west and east
  when the table is deeper than wide).
- ``section_size``: inches, default 24 (2').

>>> from engine.model import Battlefield
>>> halves = table_halves(Battlefield(72, 48), ("red", "blue"))
>>> halves.of("red").zone
((0.0, 0.0), (72.0, 0.0), (72.0, 12.0), (0.0, 12.0))
>>> grid = battlefield_sections(Battlefield(72, 48))
>>> (grid.columns, grid.rows, grid.exact)
(3, 2, True)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

import shapely

from engine.battlefield_edges import (
    EDGE_NAMES,
    BoardEdge,
    EdgeName,
    board_edge,
    model_edge_distance,
    model_reach,
)
from engine.errors import Problem, RulesError, ScenarioError
from engine.explain import Violation, inches
from engine.geometry import TOLERANCE, model_within_terrain
from engine.model import Battlefield, Model, Point, Polygon, Scenario, TerrainPiece, Unit
from engine.rulesets.scrollhammer._data import standard_rules
from engine.rulesets.scrollhammer.missions import Halves, mission_of

Diagonal = Literal["SW-NE", "NW-SE"]


def default_battlefield() -> Battlefield:
    """Warplan's default Scrollhammer table, 72" x 48" (three by two 2' x 2' sections).

    >>> default_battlefield()
    Battlefield(width=72.0, depth=48.0)
    """
    size = standard_rules()["battlefield"]
    return Battlefield(float(size["default_width"]), float(size["default_depth"]))


# ---------------------------------------------------------------------------------------------
# Table halves and deployment zones


@dataclass(frozen=True)
class PlayerHalf:
    """A player's table half, board edge and deployment zone (polygons for drawing)."""

    player: str
    edge: BoardEdge
    half: Polygon
    zone: Polygon


@dataclass(frozen=True)
class TableHalves:
    """The dividing centre line and both players' halves."""

    battlefield: Battlefield
    kind: Halves
    diagonal: Diagonal | None
    line: tuple[Point, Point]
    zone_distance: float
    players: tuple[PlayerHalf, PlayerHalf]

    def of(self, player: str) -> PlayerHalf:
        """The half of ``player`` (``RulesError`` for an unknown player)."""
        for half in self.players:
            if half.player == player:
                return half
        raise RulesError(f"no table half for player {player!r}")

    def normal_into(self, player: str) -> Point:
        """The unit normal of the centre line pointing into ``player``'s half."""
        (x0, y0), (x1, y1) = self.line
        length = math.hypot(x1 - x0, y1 - y0)
        nx, ny = -(y1 - y0) / length, (x1 - x0) / length
        ex, ey = _centroid(self.of(player).half)
        if (ex - x0) * nx + (ey - y0) * ny < 0:
            nx, ny = -nx, -ny
        return nx, ny

    def signed_distance(self, player: str, x: float, y: float) -> float:
        """Distance of a point from the centre line, positive inside ``player``'s half.

        >>> halves = table_halves(Battlefield(72, 48), ("red", "blue"))
        >>> halves.signed_distance("red", 10, 6), halves.signed_distance("blue", 10, 6)
        (18.0, -18.0)
        """
        nx, ny = self.normal_into(player)
        x0, y0 = self.line[0]
        return (x - x0) * nx + (y - y0) * ny

    def model_line_distance(self, player: str, model: Model) -> float:
        """Signed distance from the centre line to the base's point closest to it."""
        nx, ny = self.normal_into(player)
        return self.signed_distance(player, model.x, model.y) - model_reach(model, -nx, -ny)

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "diagonal": self.diagonal,
            "line": [list(p) for p in self.line],
            "zone_distance": self.zone_distance,
            "players": {
                h.player: {
                    "edge": h.edge.name,
                    "half": [list(p) for p in h.half],
                    "zone": [list(p) for p in h.zone],
                }
                for h in self.players
            },
        }


def long_edges(battlefield: Battlefield) -> tuple[EdgeName, EdgeName]:
    """The two long edges: south and north, unless the table is deeper than wide."""
    if battlefield.depth > battlefield.width:
        return "west", "east"
    return "south", "north"


def table_halves(
    battlefield: Battlefield,
    players: tuple[str, str],
    kind: Halves = "long-edge",
    *,
    diagonal: Diagonal = "SW-NE",
    edges: Mapping[str, str] | None = None,
    zone_distance: float | None = None,
) -> TableHalves:
    """Divide the table for ``players`` (each gets the half holding his long board edge).

    >>> halves = table_halves(Battlefield(72, 48), ("red", "blue"), "diagonal")
    >>> halves.line
    ((0.0, 0.0), (72.0, 48.0))
    >>> halves.of("red").half
    ((0.0, 0.0), (72.0, 0.0), (72.0, 48.0))
    """
    w, d = float(battlefield.width), float(battlefield.depth)
    if zone_distance is None:
        zone_distance = float(standard_rules()["deployment"]["centre_line_distance"])
    allowed = long_edges(battlefield)
    chosen = dict(edges or {})
    names: list[EdgeName] = []
    for index, player in enumerate(players):
        wanted = chosen.get(player, allowed[index])
        matching = [edge for edge in allowed if edge == wanted]
        if not matching:
            raise RulesError(
                f"{player}'s board edge must be a long edge ({' or '.join(allowed)}), "
                f"got {wanted!r}"
            )
        names.append(matching[0])
    if names[0] == names[1]:
        raise RulesError(f"both players cannot have the {names[0]} board edge")
    corners = {"SW": (0.0, 0.0), "SE": (w, 0.0), "NE": (w, d), "NW": (0.0, d)}
    line: tuple[Point, Point]
    if kind == "long-edge":
        if allowed == ("south", "north"):
            line = ((0.0, d / 2), (w, d / 2))
        else:
            line = ((w / 2, 0.0), (w / 2, d))
    elif kind == "diagonal":
        if diagonal not in ("SW-NE", "NW-SE"):
            raise RulesError(f"a diagonal joins SW-NE or NW-SE, got {diagonal!r}")
        start, end = diagonal.split("-")
        line = (corners[start], corners[end])
    else:
        raise RulesError(f"table halves are 'long-edge' or 'diagonal', got {kind!r}")
    table: Polygon = (corners["SW"], corners["SE"], corners["NE"], corners["NW"])
    result = []
    for player, name in zip(players, names, strict=True):
        edge = board_edge(battlefield, name)
        mid = ((edge.start[0] + edge.end[0]) / 2, (edge.start[1] + edge.end[1]) / 2)
        nx, ny = _line_normal(line, mid)
        half = _clip(table, line[0], (nx, ny), 0.0)
        zone = _clip(half, line[0], (nx, ny), zone_distance)
        result.append(PlayerHalf(player, edge, half, zone))
    return TableHalves(
        battlefield,
        kind,
        diagonal if kind == "diagonal" else None,
        line,
        zone_distance,
        (result[0], result[1]),
    )


def scenario_halves(scenario: Scenario) -> TableHalves:
    """The table halves of a Scrollhammer scenario, from its options and mission."""
    mission = mission_of(scenario.option("mission"))
    kind = scenario.option("table_halves", mission.halves if mission else "long-edge")
    edges = scenario.option("table_edges")
    if edges is not None and not isinstance(edges, Mapping):
        raise ScenarioError([Problem("options.table_edges", "must map player ids to edges")])
    return table_halves(
        scenario.battlefield,
        scenario.player_ids(),
        kind,
        diagonal=scenario.option("diagonal", "SW-NE"),
        edges=edges,
    )


def _line_normal(line: tuple[Point, Point], towards: Point) -> Point:
    (x0, y0), (x1, y1) = line
    length = math.hypot(x1 - x0, y1 - y0)
    nx, ny = -(y1 - y0) / length, (x1 - x0) / length
    if (towards[0] - x0) * nx + (towards[1] - y0) * ny < 0:
        return -nx, -ny
    return nx, ny


def _clip(polygon: Polygon, origin: Point, normal: Point, offset: float) -> Polygon:
    """The part of a convex polygon where ``(p - origin) . normal >= offset`` (exact)."""

    def side(p: Point) -> float:
        return (p[0] - origin[0]) * normal[0] + (p[1] - origin[1]) * normal[1] - offset

    out: list[Point] = []
    for index, current in enumerate(polygon):
        following = polygon[(index + 1) % len(polygon)]
        a, b = side(current), side(following)
        if a >= 0:
            out.append(current)
        if (a >= 0) != (b >= 0):
            t = a / (a - b)
            out.append(
                (
                    current[0] + t * (following[0] - current[0]),
                    current[1] + t * (following[1] - current[1]),
                )
            )
    cleaned: list[Point] = []
    for point in out:
        rounded = (round(point[0], 9) + 0.0, round(point[1], 9) + 0.0)
        if not cleaned or cleaned[-1] != rounded:
            cleaned.append(rounded)
    if len(cleaned) > 1 and cleaned[0] == cleaned[-1]:
        cleaned.pop()
    return tuple(cleaned)


def _centroid(polygon: Polygon) -> Point:
    point = shapely.Polygon(polygon).centroid
    return float(point.x), float(point.y)


# ---------------------------------------------------------------------------------------------
# Deployment


def is_lethal(piece: TerrainPiece) -> bool:
    """Lethal terrain: ``kind`` ``"lethal"`` or ``extra.lethal`` true (the format has no flag)."""
    return piece.kind.lower() == "lethal" or piece.extra.get("lethal") is True


def deployment_violations(
    scenario: Scenario,
    halves: TableHalves | None = None,
    *,
    unit_ids: Iterable[str] | None = None,
) -> tuple[Violation, ...]:
    """Models outside their player's deployment zone, or in impassable or lethal terrain.

    Checks the given units (default: every unit not recorded in reserve in
    ``game.scrollhammer.reserves``). A model is in its zone when its whole base is on the table
    and more than 12" (the zone distance) from the centre line, on its own side.
    """
    halves = halves or scenario_halves(scenario)
    reserved = set(_game_list(scenario, "reserves"))
    chosen = set(unit_ids) if unit_ids is not None else None
    violations: list[Violation] = []
    blocked = [t for t in scenario.terrain if t.impassable or is_lethal(t)]
    for unit in scenario.units:
        if chosen is not None and unit.id not in chosen:
            continue
        if chosen is None and unit.id in reserved:
            continue
        violations.extend(_unit_deployment(unit, halves, blocked))
    return tuple(violations)


def _unit_deployment(
    unit: Unit, halves: TableHalves, blocked: list[TerrainPiece]
) -> list[Violation]:
    found: list[Violation] = []
    limit = halves.zone_distance
    rule = "Deploy Forces"
    for model in unit.models:
        for name in EDGE_NAMES:
            edge = board_edge(halves.battlefield, name)
            over = model_edge_distance(model, edge)
            if over < -TOLERANCE:
                found.append(
                    Violation(
                        rule,
                        f"{model.id} ({unit.id}) is {inches(-over)} over the {name} battlefield "
                        "edge: armies are placed within the owning player's deployment zone",
                        (unit.id, model.id),
                        ((model.x, model.y),),
                        over,
                        0.0,
                    )
                )
        gap = halves.model_line_distance(unit.player, model)
        if gap <= limit + TOLERANCE:
            nx, ny = halves.normal_into(unit.player)
            reach = model_reach(model, -nx, -ny)
            near = (model.x - nx * reach, model.y - ny * reach)
            foot = (near[0] - nx * gap, near[1] - ny * gap)
            where = "in the enemy half" if gap < 0 else "from the centre line"
            found.append(
                Violation(
                    rule,
                    f"{model.id} ({unit.id}) is {inches(abs(gap))} {where}: {unit.player}'s "
                    f"deployment zone is their own table half more than {inches(limit)} from the "
                    "central line",
                    (unit.id, model.id),
                    (near, foot),
                    gap,
                    limit,
                )
            )
        for piece in blocked:
            if model_within_terrain(model, piece):
                what = "impassable" if piece.impassable else "lethal"
                found.append(
                    Violation(
                        rule,
                        f"{model.id} ({unit.id}) is in {what} terrain {piece.id}: units cannot "
                        "deploy in impassible terrain or lethal terrain",
                        (unit.id, model.id, piece.id),
                        ((model.x, model.y),),
                    )
                )
    return found


def _game_list(scenario: Scenario, key: str) -> tuple[str, ...]:
    state = (scenario.game or {}).get("scrollhammer") or {}
    return tuple(str(v) for v in state.get(key, ()))


# ---------------------------------------------------------------------------------------------
# 2' x 2' sections


@dataclass(frozen=True)
class Section:
    """One section of the battlefield: ``A1`` is the south-west one (letters run east)."""

    id: str
    column: int
    row: int
    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def polygon(self) -> Polygon:
        return ((self.x0, self.y0), (self.x1, self.y0), (self.x1, self.y1), (self.x0, self.y1))


@dataclass(frozen=True)
class SectionGrid:
    """The battlefield divided into equal sections as close to 2' by 2' as possible."""

    columns: int
    rows: int
    section_width: float
    section_depth: float
    sections: tuple[Section, ...]
    exact: bool
    note: str

    def section(self, section_id: str) -> Section:
        for section in self.sections:
            if section.id == section_id:
                return section
        raise RulesError(f"no battlefield section {section_id!r}")


def _count_along(length: float, size: float) -> int:
    """How many equal parts of ``length`` come closest to ``size`` (by ratio; ties: fewer)."""
    if length <= 0:
        raise RulesError(f"a battlefield needs a positive size, got {length}")
    best = max(1, math.floor(length / size))
    candidates = {best, best + 1}
    return min(candidates, key=lambda n: (abs(math.log(length / n / size)), n))


def battlefield_sections(battlefield: Battlefield, size: float | None = None) -> SectionGrid:
    """Split the table into sections for the terrain density limit.

    >>> grid = battlefield_sections(Battlefield(60, 44))
    >>> (grid.columns, grid.rows, round(grid.section_width, 3), grid.section_depth, grid.exact)
    (3, 2, 20.0, 22.0, False)
    """
    size = float(size if size is not None else standard_rules()["battlefield"]["section_size"])
    w, d = float(battlefield.width), float(battlefield.depth)
    columns, rows = _count_along(w, size), _count_along(d, size)
    sw, sd = w / columns, d / rows
    exact = math.isclose(sw, size) and math.isclose(sd, size)
    sections = tuple(
        Section(f"{_column_letter(c)}{r + 1}", c, r, c * sw, r * sd, (c + 1) * sw, (r + 1) * sd)
        for r in range(rows)
        for c in range(columns)
    )
    note = (
        f"{columns} x {rows} sections of {inches(size)} by {inches(size)}."
        if exact
        else f"{inches(w)} x {inches(d)} cannot be divided into {inches(size)} squares: "
        f"{columns} x {rows} equal sections of {inches(sw)} by {inches(sd)}, the counts whose "
        "sizes are closest to 2' (by ratio; ties take fewer sections)."
    )
    return SectionGrid(columns, rows, sw, sd, sections, exact, note)


def _column_letter(index: int) -> str:
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters
