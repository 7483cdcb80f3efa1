"""Where units stand: table quarters, the centre, deployment zones, territories, No Man's Land
and terrain areas.

- Table quarters: lines 1 mm thick through the centre, lengthwise and widthwise, split the
  battlefield; a base touching either line is in no quarter; a unit is in a quarter when every
  model is wholly within it.
- Within 6" of the centre: any model's base is.
- Deployment zones (per zone id), a player's territory, No Man's Land, terrain areas: a unit is
  *wholly within* when every model is; *within* when any model is (any part of its base over it).

>>> from engine.model import CircleBase, Model, Player, Scenario, Unit
>>> unit = Unit("u", "red", (Model("m", 10.0, 10.0, CircleBase(32)),))
>>> p = unit_positions(Scenario("wh40k-ca2026", (Player("red"), Player("blue")), units=(unit,)))[0]
>>> p.quarter, p.within_6_of_centre, p.wholly_within_no_mans_land
('SW', False, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
import shapely

from engine.deployments import resolve_deployment
from engine.explain import Explanation, Fact, Measurement, RuleRef, id_list, inches
from engine.geometry import (
    TOLERANCE,
    BoolArray,
    FloatArray,
    IntArray,
    ModelTable,
    PreparedArea,
    ShapeArrays,
    area_relations,
    model_table,
    point_distances,
    terrain_area,
)
from engine.model import MM_PER_INCH, DeploymentRegion, Scenario
from engine.rulesets import ruleset_for

QUARTERS = ("SW", "SE", "NW", "NE")
QUARTER_LINE_WIDTH = 1.0 / MM_PER_INCH
CENTRE_RANGE = 6.0
NEAR_CENTRE = 1.0
"""Distances to the centre are exact up to 7"; beyond, a lower bound ("at least")."""


@dataclass(frozen=True, eq=False)
class Regions:
    """The areas of a scenario that do not move with the models, prepared for testing."""

    zones: tuple[DeploymentRegion, ...]
    zone_areas: tuple[PreparedArea, ...]
    territory_players: tuple[str, ...]
    territory_areas: tuple[PreparedArea, ...]
    no_mans_land: PreparedArea | None
    terrain_ids: tuple[str, ...]
    terrain_areas: tuple[PreparedArea, ...]
    note: str = ""
    zone_discs: tuple[tuple[float, float, float] | None, ...] = ()


_REGIONS_CACHE: list[tuple[tuple[Any, ...], Regions]] = []


def regions(scenario: Scenario) -> Regions:
    """The deployment zones, territories, No Man's Land and terrain areas of ``scenario``.

    Deployment maps named by id are resolved by :func:`engine.deployments.resolve_deployment`.
    The last few results are kept, keyed by the very (immutable) values they were built from.
    """
    key = (
        scenario.terrain,
        scenario.deployment,
        scenario.battlefield,
        scenario.players,
        scenario.options,
        scenario.ruleset,
    )
    for cached_key, cached in _REGIONS_CACHE:
        if all(a is b for a, b in zip(cached_key, key, strict=True)):
            return cached
    found = _build_regions(scenario)
    _REGIONS_CACHE.insert(0, (key, found))
    del _REGIONS_CACHE[8:]
    return found


def _build_regions(scenario: Scenario) -> Regions:
    zones, territories, note = _deployment_regions(scenario)
    players = scenario.player_ids()
    territory_players: list[str] = []
    territory_areas: list[PreparedArea] = []
    for player in players:
        polygons = [shapely.Polygon(t.polygon) for t in territories if t.player == player]
        if polygons:
            territory_players.append(player)
            territory_areas.append(PreparedArea(shapely.union_all(polygons)))
    battlefield = shapely.box(0.0, 0.0, scenario.battlefield.width, scenario.battlefield.depth)
    land = shapely.difference(
        battlefield, shapely.union_all([shapely.Polygon(z.polygon) for z in zones])
    )
    no_mans_land = PreparedArea(land) if not land.is_empty else None
    return Regions(
        zones,
        tuple(PreparedArea(z.polygon) for z in zones),
        tuple(territory_players),
        tuple(territory_areas),
        no_mans_land,
        tuple(t.id for t in scenario.terrain),
        tuple(terrain_area(t) for t in scenario.terrain),
        note,
        tuple(_minus_circle(z) for z in zones),
    )


def _minus_circle(zone: DeploymentRegion) -> tuple[float, float, float] | None:
    """The disc a zone excludes (Search and Destroy), kept to be tested exactly: the zone's
    polygon follows the arc only within a tolerance."""
    circle = zone.extra.get("minus_circle")
    if circle is None:
        return None
    return float(circle["x"]), float(circle["y"]), float(circle["radius"])


def _deployment_regions(
    scenario: Scenario,
) -> tuple[tuple[DeploymentRegion, ...], tuple[DeploymentRegion, ...], str]:
    resolved = resolve_deployment(scenario)
    if resolved is None:
        return (), (), "no deployment: the whole battlefield is No Man's Land"
    return tuple(resolved.zones), tuple(resolved.territories), ""


@dataclass(frozen=True, eq=False)
class ModelAreas:
    """Per model (rows of a :class:`ModelTable`): quarter code (-1: none), distance to the
    centre, and for each region whether the base is wholly within / over it."""

    quarter: IntArray
    centre_distance: FloatArray
    zone_wholly: BoolArray
    territory_wholly: BoolArray
    no_mans_land_within: BoolArray
    no_mans_land_wholly: BoolArray
    terrain_within: BoolArray
    terrain_wholly: BoolArray

    def with_rows(self, rows: IntArray, fresh: ModelAreas) -> ModelAreas:
        """A copy with ``rows`` taken from ``fresh`` (computed for those rows only)."""
        columns = []
        for name in (
            "quarter",
            "centre_distance",
            "zone_wholly",
            "territory_wholly",
            "no_mans_land_within",
            "no_mans_land_wholly",
            "terrain_within",
            "terrain_wholly",
        ):
            column = getattr(self, name).copy()
            if column.ndim == 1:
                column[rows] = getattr(fresh, name)
            else:
                column[:, rows] = getattr(fresh, name)
            columns.append(column)
        return ModelAreas(*columns)


def model_areas(scenario: Scenario, shapes: ShapeArrays, found: Regions) -> ModelAreas:
    """The per-model area facts for the bases in ``shapes``."""
    width, depth = scenario.battlefield.width, scenario.battlefield.depth
    cx, cy = width / 2.0, depth / 2.0
    zones, territories = len(found.zone_areas), len(found.territory_areas)
    land = [found.no_mans_land] if found.no_mans_land is not None else []
    everything = [*found.zone_areas, *found.territory_areas, *land, *found.terrain_areas]
    overlaps, wholly = area_relations(shapes, everything)
    land_end = zones + territories + len(land)
    none = np.zeros(len(shapes), dtype=bool)
    for k, disc in enumerate(found.zone_discs):
        if disc is not None:
            clear = point_distances(shapes, disc[0], disc[1]) >= disc[2] - TOLERANCE
            wholly[k] &= clear
    return ModelAreas(
        quarter_codes(shapes, width, depth),
        point_distances(shapes, cx, cy, CENTRE_RANGE + NEAR_CENTRE),
        wholly[:zones],
        wholly[zones : zones + territories],
        overlaps[zones + territories] if land else none,
        wholly[zones + territories] if land else none,
        overlaps[land_end:],
        wholly[land_end:],
    )


def quarter_codes(shapes: ShapeArrays, width: float, depth: float) -> IntArray:
    """Each base's quarter (index into :data:`QUARTERS`), or -1 when it touches a quarter line
    or is not wholly on the battlefield. Exact: the lines and quarters are axis-aligned, so a
    base's exact bounding box decides."""
    half_line = QUARTER_LINE_WIDTH / 2.0
    cx, cy = width / 2.0, depth / 2.0
    left, right = shapes.x - shapes.half_x, shapes.x + shapes.half_x
    low, high = shapes.y - shapes.half_y, shapes.y + shapes.half_y
    west = cx - half_line - right > TOLERANCE
    east = left - (cx + half_line) > TOLERANCE
    south = cy - half_line - high > TOLERANCE
    north = low - (cy + half_line) > TOLERANCE
    on_table = (
        (left >= -TOLERANCE)
        & (right <= width + TOLERANCE)
        & (low >= -TOLERANCE)
        & (high <= depth + TOLERANCE)
    )
    code = np.full(len(shapes), -1, dtype=np.int64)
    code[west & south] = 0
    code[east & south] = 1
    code[west & north] = 2
    code[east & north] = 3
    code[~on_table] = -1
    return code


@dataclass(frozen=True)
class UnitPosition:
    """Where one unit stands."""

    id: str
    player: str
    quarter: str | None
    within_6_of_centre: bool
    zones_wholly_within: tuple[str, ...]
    territory: str | None
    within_no_mans_land: bool
    wholly_within_no_mans_land: bool
    terrain_within: tuple[str, ...]
    terrain_wholly_within: tuple[str, ...]
    model_ids: tuple[str, ...]
    model_quarters: tuple[str | None, ...]
    centre_distances: tuple[float, ...]
    ruleset: str

    @property
    def quarter_rule(self) -> RuleRef:
        """The rule quarters and the centre are judged by, in this unit's ruleset."""
        return RuleRef(self.ruleset, ruleset_for(self.ruleset).quarter_section)

    @property
    def area_rule(self) -> RuleRef:
        """The rule deployment zones and territories are judged by, in this ruleset."""
        return RuleRef(self.ruleset, ruleset_for(self.ruleset).area_section)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "quarter": self.quarter,
            "within_6_of_centre": self.within_6_of_centre,
            "zones_wholly_within": sorted(self.zones_wholly_within),
            "territory": self.territory,
            "within_no_mans_land": self.within_no_mans_land,
            "wholly_within_no_mans_land": self.wholly_within_no_mans_land,
            "terrain_within": sorted(self.terrain_within),
            "terrain_wholly_within": sorted(self.terrain_wholly_within),
        }

    @cached_property
    def explanation(self) -> Explanation:
        if not self.model_ids:
            return Explanation(f"{self.id}: no models on the battlefield, so in no area", ())
        facts: list[Fact] = []
        if self.quarter is not None:
            facts.append(
                Fact(
                    f"every model is wholly within the {self.quarter} quarter",
                    self.quarter_rule,
                    unit_ids=(self.id,),
                )
            )
        else:
            for model_id, quarter in zip(self.model_ids, self.model_quarters, strict=True):
                if quarter is None:
                    facts.append(
                        Fact(
                            f"{model_id} touches a 1 mm quarter line or the battlefield edge",
                            self.quarter_rule,
                            model_ids=(model_id,),
                        )
                    )
            quarters = sorted({q for q in self.model_quarters if q is not None})
            if len(quarters) > 1:
                facts.append(
                    Fact(
                        f"its models are in {id_list(quarters)}",
                        self.quarter_rule,
                        unit_ids=(self.id,),
                    )
                )
        nearest = min(range(len(self.model_ids)), key=lambda k: self.centre_distances[k])
        d = self.centre_distances[nearest]
        state = "within" if d <= CENTRE_RANGE + TOLERANCE else "not within"
        bound = "" if d <= CENTRE_RANGE + NEAR_CENTRE else "at least "
        facts.append(
            Fact(
                f"{self.model_ids[nearest]} is {bound}{inches(d)} from the centre of the "
                f'battlefield ({state} 6")',
                self.quarter_rule,
                {"distance": d},
                (self.model_ids[nearest],),
                (self.id,),
                measured=Measurement(
                    self.model_ids[nearest],
                    d,
                    "from the centre of the battlefield",
                    CENTRE_RANGE,
                    d <= CENTRE_RANGE + TOLERANCE,
                    at_least=bool(bound),
                    inside="within",
                    outside="not within",
                ),
            )
        )
        facts.append(
            Fact(
                f"wholly within deployment zones: {id_list(list(self.zones_wholly_within))}; "
                f"territory: {self.territory or 'none'}",
                self.area_rule,
                unit_ids=(self.id,),
            )
        )
        facts.append(
            Fact(
                f"within terrain areas: {id_list(list(self.terrain_within))}; wholly within: "
                f"{id_list(list(self.terrain_wholly_within))}",
                self.area_rule,
                unit_ids=(self.id,),
            )
        )
        conclusion = (
            f"{self.id}: quarter {self.quarter or 'none'}, "
            f'{"within" if self.within_6_of_centre else "not within"} 6" of the centre'
        )
        return Explanation(conclusion, tuple(facts))


def unit_positions(scenario: Scenario) -> tuple[UnitPosition, ...]:
    """Where every unit stands, in document order."""
    table = model_table(scenario)
    found = regions(scenario)
    areas = model_areas(scenario, table.shapes, found)
    return positions_of_units(scenario, table, found, areas, range(len(scenario.units)))


def positions_of_units(
    scenario: Scenario,
    table: ModelTable,
    found: Regions,
    areas: ModelAreas,
    unit_indices: Sequence[int],
) -> tuple[UnitPosition, ...]:
    """The :class:`UnitPosition` of each of ``unit_indices``, from per-model area facts (all
    units' aggregates at once: every model for "wholly within", any model for "within")."""
    indices = [u for u in unit_indices if len(table.unit_rows[u])]
    aggregates: dict[int, tuple[Any, ...]] = {}
    if indices:
        rows = np.concatenate(
            [np.arange(r.start, r.stop) for r in (table.unit_rows[u] for u in indices)]
        )
        starts = np.cumsum([0] + [len(table.unit_rows[u]) for u in indices[:-1]])
        # Every row in table order (a full evaluation): the per-model columns serve as they are.
        every_row = len(rows) == len(table.model_ids) and indices == sorted(indices)
        q_low = np.minimum.reduceat(areas.quarter[rows], starts).tolist()
        q_high = np.maximum.reduceat(areas.quarter[rows], starts).tolist()
        centre = np.minimum.reduceat(areas.centre_distance[rows], starts).tolist()
        zone_ids = tuple(z.id for z in found.zones)
        zones = _ids_per_unit(
            _all_rows(areas.zone_wholly, rows, starts, every_row), zone_ids, len(indices)
        )
        territory = _ids_per_unit(
            _all_rows(areas.territory_wholly, rows, starts, every_row),
            found.territory_players,
            len(indices),
        )
        land_any = np.logical_or.reduceat(areas.no_mans_land_within[rows], starts).tolist()
        land_all = np.logical_and.reduceat(areas.no_mans_land_wholly[rows], starts).tolist()
        terrain_any = _ids_per_unit(
            _any_rows(areas.terrain_within, rows, starts, every_row),
            found.terrain_ids,
            len(indices),
        )
        terrain_all = _ids_per_unit(
            _all_rows(areas.terrain_wholly, rows, starts, every_row),
            found.terrain_ids,
            len(indices),
        )
        for k, u in enumerate(indices):
            aggregates[u] = (
                q_low[k],
                q_high[k],
                centre[k],
                zones[k],
                territory[k][0] if territory[k] else None,
                land_any[k],
                land_all[k],
                terrain_any[k],
                terrain_all[k],
            )
    return tuple(_position(scenario, table, areas, u, aggregates.get(u)) for u in unit_indices)


def _all_rows(flags: BoolArray, rows: IntArray, starts: IntArray, every_row: bool) -> BoolArray:
    if flags.shape[0] == 0:
        return np.zeros((0, len(starts)), dtype=bool)
    columns = flags if every_row else flags[:, rows]
    result: BoolArray = np.logical_and.reduceat(columns, starts, axis=1)
    return result


def _any_rows(flags: BoolArray, rows: IntArray, starts: IntArray, every_row: bool) -> BoolArray:
    if flags.shape[0] == 0:
        return np.zeros((0, len(starts)), dtype=bool)
    columns = flags if every_row else flags[:, rows]
    result: BoolArray = np.logical_or.reduceat(columns, starts, axis=1)
    return result


def _ids_per_unit(flags: BoolArray, ids: Sequence[str], units: int) -> list[list[str]]:
    """For a (region x unit) flag matrix: each unit's region ids, in region order."""
    found: list[list[str]] = [[] for _ in range(units)]
    region, unit = np.nonzero(flags)
    for r, u in zip(region.tolist(), unit.tolist(), strict=True):
        found[u].append(ids[r])
    return found


def _position(
    scenario: Scenario,
    table: ModelTable,
    areas: ModelAreas,
    unit_index: int,
    aggregate: tuple[Any, ...] | None,
) -> UnitPosition:
    unit = scenario.units[unit_index]
    rows = table.unit_rows[unit_index]
    codes = areas.quarter[rows.start : rows.stop].tolist()
    distances = tuple(areas.centre_distance[rows.start : rows.stop].tolist())
    if aggregate is None:
        return UnitPosition(
            unit.id,
            unit.player,
            None,
            False,
            (),
            None,
            False,
            False,
            (),
            (),
            (),
            (),
            (),
            scenario.ruleset,
        )
    q_low, q_high, centre, zones, territory, land_any, land_all, t_any, t_all = aggregate
    return UnitPosition(
        unit.id,
        unit.player,
        QUARTERS[q_low] if q_low == q_high and q_low >= 0 else None,
        centre <= CENTRE_RANGE + TOLERANCE,
        tuple(sorted(zones)),
        territory,
        bool(land_any),
        bool(land_all),
        tuple(sorted(t_any)),
        tuple(sorted(t_all)),
        table.model_ids[rows.start : rows.stop],
        tuple(QUARTERS[c] if c >= 0 else None for c in codes),
        distances,
        scenario.ruleset,
    )
