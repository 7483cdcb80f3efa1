"""Alternating Terrain: density limits per 2' x 2' section, 3" spacing, live violations.

"Determine how many pieces of terrain can go into each 2' by 2' area of game board by rolling
a D6 for each. On a 1-3, one piece of terrain may be placed there. On a 4-6, up to two pieces
may be placed there." Pieces must be "more than 3\" from other terrain"; a piece straddling
sections "counts towards the terrain density limit in the area in which the majority of the
terrain piece lies".

Density rolls live in ``game.scrollhammer.terrain_density`` (``{section id: D6}``) or are
passed in. Terrain areas are polygons, so the distance between two pieces is exact.

>>> density_limit(3), density_limit(4)
(1, 2)
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

import shapely
from shapely.ops import nearest_points

from engine.errors import RulesError
from engine.explain import Violation, inches
from engine.geometry import TOLERANCE, terrain_area
from engine.model import Scenario, TerrainPiece
from engine.rulesets.scrollhammer._data import standard_rules
from engine.rulesets.scrollhammer.battlefield import SectionGrid, battlefield_sections, is_lethal
from engine.rulesets.scrollhammer.missions import mission_of

RULE = "Alternating Terrain"


def density_limit(roll: int) -> int:
    """The terrain density limit a section's D6 gives."""
    limits = standard_rules()["terrain_density"]["limits"]
    if str(roll) not in limits:
        raise RulesError(f"a terrain density roll is a D6 (1-6), got {roll}")
    return int(limits[str(roll)])


def terrain_spacing() -> float:
    """Inches: terrain must be more than this far from other terrain (3")."""
    return float(standard_rules()["terrain_density"]["spacing"])


def roll_terrain_density(grid: SectionGrid, rng: random.Random) -> dict[str, int]:
    """A seeded D6 for every section, ``{section id: roll}``."""
    return {section.id: rng.randint(1, 6) for section in grid.sections}


def is_fortification(piece: TerrainPiece) -> bool:
    """Fortifications bought with an army are not from the terrain pool (``kind`` fortification)."""
    return piece.kind.lower() == "fortification" or piece.extra.get("fortification") is True


@dataclass(frozen=True)
class SectionCount:
    """A section's density roll, limit and the pieces counted towards it."""

    section_id: str
    roll: int | None
    limit: int | None
    pieces: tuple[str, ...]

    @property
    def full(self) -> bool:
        return self.limit is not None and len(self.pieces) >= self.limit


@dataclass(frozen=True)
class TerrainSetupCheck:
    """Where every piece counts, each section's tally, and what breaks the rules."""

    grid: SectionGrid
    counted_in: Mapping[str, str]
    shares: Mapping[str, Mapping[str, float]]
    sections: tuple[SectionCount, ...]
    violations: tuple[Violation, ...]

    @property
    def ok(self) -> bool:
        return not self.violations


def majority_section(piece: TerrainPiece, grid: SectionGrid) -> tuple[str | None, dict[str, float]]:
    """The section holding most of a piece's area, and the share (0-1) in each section.

    Ties go to the first section in reading order (A1, B1, ..., then row 2): the rulebook does
    not say. A piece wholly off the table counts nowhere.
    """
    area = terrain_area(piece).geometry
    total = float(area.area)
    if total <= 0:
        raise RulesError(f"terrain {piece.id} has no area")
    shares: dict[str, float] = {}
    for section in grid.sections:
        part = float(area.intersection(shapely.Polygon(section.polygon)).area) / total
        if part > 0:
            shares[section.id] = part
    if not shares:
        return None, shares
    best = max(shares.values())
    for section in grid.sections:
        if section.id in shares and shares[section.id] >= best - 1e-12:
            return section.id, shares
    return None, shares


def check_terrain_setup(
    scenario: Scenario,
    densities: Mapping[str, int] | None = None,
) -> TerrainSetupCheck:
    """Check the terrain on the table against the Alternating Terrain rules (live)."""
    grid = battlefield_sections(scenario.battlefield, scenario.option("section_size"))
    if densities is None:
        state = (scenario.game or {}).get("scrollhammer") or {}
        densities = {str(k): int(v) for k, v in (state.get("terrain_density") or {}).items()}
    for section_id in densities:
        grid.section(section_id)
    counted_in: dict[str, str] = {}
    shares: dict[str, Mapping[str, float]] = {}
    per_section: dict[str, list[str]] = {s.id: [] for s in grid.sections}
    violations: list[Violation] = []
    for piece in scenario.terrain:
        home, piece_shares = majority_section(piece, grid)
        shares[piece.id] = piece_shares
        if home is None:
            violations.append(Violation(RULE, f"{piece.id} is not on the battlefield", (piece.id,)))
            continue
        counted_in[piece.id] = home
        if not is_fortification(piece):
            per_section[home].append(piece.id)
    sections = []
    for section in grid.sections:
        roll = densities.get(section.id)
        limit = density_limit(roll) if roll is not None else None
        pieces = tuple(per_section[section.id])
        sections.append(SectionCount(section.id, roll, limit, pieces))
        if limit is not None and len(pieces) > limit:
            violations.append(
                Violation(
                    RULE,
                    f"section {section.id} holds {len(pieces)} pieces ({', '.join(pieces)}) "
                    "but its "
                    f"terrain density limit is {limit} (rolled {roll})",
                    (section.id, *pieces),
                    (_centre(section.polygon),),
                )
            )
    violations.extend(_spacing_violations(scenario.terrain))
    violations.extend(centre_clear_violations(scenario))
    return TerrainSetupCheck(grid, counted_in, shares, tuple(sections), tuple(violations))


def _centre(polygon: Sequence[tuple[float, float]]) -> tuple[float, float]:
    xs = [p[0] for p in polygon]
    ys = [p[1] for p in polygon]
    return (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2


def _spacing_violations(terrain: Sequence[TerrainPiece]) -> list[Violation]:
    limit = terrain_spacing()
    areas = [terrain_area(t).geometry for t in terrain]
    found: list[Violation] = []
    for i, first in enumerate(terrain):
        for j in range(i + 1, len(terrain)):
            second = terrain[j]
            gap = float(areas[i].distance(areas[j]))
            if gap <= limit + TOLERANCE:
                a, b = nearest_points(areas[i], areas[j])
                found.append(
                    Violation(
                        RULE,
                        f"{first.id} is {inches(gap)} from {second.id}: terrain can be placed "
                        f"only where it is more than {inches(limit)} from other terrain",
                        (first.id, second.id),
                        ((float(a.x), float(a.y)), (float(b.x), float(b.y))),
                        gap,
                        limit,
                    )
                )
    return found


def centre_clear_violations(scenario: Scenario) -> list[Violation]:
    """Quest for the Relic and Heart of the Battle: no impassable or lethal terrain at the centre.

    Option ``centre_clear_radius`` (inches, default 0) widens "the center of the table" from
    the centre point to a circle about it.
    """
    mission = mission_of(scenario.option("mission"))
    if mission is None or not mission.centre_clear:
        return []
    cx, cy = scenario.battlefield.centre
    radius = float(scenario.option("centre_clear_radius", 0.0))
    centre = shapely.Point(cx, cy)
    found = []
    for piece in scenario.terrain:
        if not (piece.impassable or is_lethal(piece)):
            continue
        gap = float(terrain_area(piece).geometry.distance(centre))
        if gap <= radius + TOLERANCE:
            found.append(
                Violation(
                    mission.name,
                    f"{piece.id} is impassable or lethal terrain at the center of the table: "
                    "No impassable or lethal terrain may be placed at the center of the table.",
                    (piece.id,),
                    ((cx, cy),),
                    gap,
                    radius,
                )
            )
    return found


def next_terrain_placer(
    first: str,
    second: str,
    placed_by: Sequence[str],
    stopped: Collection[str] = (),
) -> str | None:
    """Whose turn it is to place a piece of terrain (``None``: both players have stopped).

    Players "take it in turns, starting with the player who chose table halves"; if one
    stops, "their opponent is free to keep on placing terrain".

    >>> next_terrain_placer("red", "blue", ["red"])
    'blue'
    >>> next_terrain_placer("red", "blue", ["red", "blue", "red"], stopped={"blue"})
    'red'
    """
    if first in stopped and second in stopped:
        return None
    if first in stopped:
        return second
    if second in stopped:
        return first
    return first if len(placed_by) % 2 == 0 else second


def placement_order_violations(
    first: str, second: str, placed_by: Sequence[tuple[str, str]], stopped_after: Mapping[str, int]
) -> tuple[Violation, ...]:
    """Placements ``(terrain id, player)`` made out of turn.

    ``stopped_after`` maps a player to how many placements had been made when he stopped.
    """
    found = []
    players: list[str] = []
    for index, (terrain_id, player) in enumerate(placed_by):
        stopped = {p for p, after in stopped_after.items() if after <= index}
        expected = next_terrain_placer(first, second, players, stopped)
        if expected is None or player != expected:
            who = "nobody" if expected is None else expected
            found.append(
                Violation(
                    RULE,
                    f"{terrain_id} was placed by {player} but it was {who}'s turn to place "
                    "terrain: players take it in turns, starting with the player who chose table "
                    "halves",
                    (terrain_id,),
                )
            )
        players.append(player)
    return tuple(found)
