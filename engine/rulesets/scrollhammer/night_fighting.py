"""Night Fighting range bands from a selected shooting unit, for the board and the ruling dock.

"The shooting unit cannot pick a target more than 36\" away - such units are completely hidden
in the darkness. Units between 24\" and 36\" inches away are treated as having the
Stealth(+2) special rule. Units between 12\" and up to 24\" away are instead treated as having
the Stealth(+1) special rule. Units less than 12\" away can be shot at normally."

Band edges (tolerance 1e-6"): under 12" normal; 12" to 24" inclusive Stealth (+1); over 24" to
36" inclusive Stealth (+2); over 36" hidden. The distance to a target unit is measured between
the closest points of the two units' bases (option ``night_fighting_measure``: ``"closest"``,
the default, or ``"farthest"``: to the target's farthest model, the stricter reading).

>>> [night_fighting_band(d).name for d in (11.9999, 12.0, 24.0, 24.0001, 36.0, 36.0001)]
['Normal', 'Stealth (+1)', 'Stealth (+1)', 'Stealth (+2)', 'Stealth (+2)', 'Hidden']
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

import shapely
from shapely.geometry.base import BaseGeometry
from shapely.ops import nearest_points

from engine.errors import RulesError
from engine.explain import inches
from engine.geometry import TOLERANCE, base_outline, model_distance
from engine.model import Point, Scenario, Unit
from engine.rulesets.scrollhammer._data import standard_rules


@dataclass(frozen=True)
class Band:
    """A Night Fighting range band: up to ``up_to`` inches (``None``: no upper end)."""

    name: str
    up_to: float | None
    inclusive: bool
    stealth: int | None
    text: str

    @property
    def hidden(self) -> bool:
        return self.up_to is None


@cache
def night_fighting_bands() -> tuple[Band, ...]:
    """The four bands, nearest first."""
    return tuple(
        Band(
            str(b["name"]),
            None if b["up_to"] is None else float(b["up_to"]),
            bool(b["inclusive"]),
            None if b["stealth"] is None else int(b["stealth"]),
            str(b["text"]),
        )
        for b in standard_rules()["night_fighting"]["bands"]
    )


def night_fighting_band(distance: float) -> Band:
    """The band a target ``distance`` inches away falls in."""
    if distance < 0:
        raise RulesError(f"a distance cannot be negative, got {distance}")
    for band in night_fighting_bands():
        if band.up_to is None:
            return band
        if band.inclusive and distance <= band.up_to + TOLERANCE:
            return band
        if not band.inclusive and distance < band.up_to - TOLERANCE:
            return band
    raise RulesError("the Night Fighting bands end without an open band")


@dataclass(frozen=True)
class TargetBand:
    """One enemy unit seen from the shooter under Night Fighting."""

    target_id: str
    distance: float
    band: Band
    shooter_model: str
    target_model: str
    points: tuple[Point, Point]

    @property
    def text(self) -> str:
        return f"{self.target_id} is {inches(self.distance)} away: {self.band.name}"


@dataclass(frozen=True)
class BandArea:
    """Where a band lies on the table around the shooter (a shapely geometry, drawing only)."""

    band: Band
    geometry: BaseGeometry


@dataclass(frozen=True)
class NightFightingView:
    """The bands drawn around a shooting unit and every enemy unit's band."""

    shooter_id: str
    measure: str
    areas: tuple[BandArea, ...]
    targets: tuple[TargetBand, ...]

    def target(self, unit_id: str) -> TargetBand:
        for target in self.targets:
            if target.target_id == unit_id:
                return target
        raise RulesError(f"{unit_id} is not an enemy unit of {self.shooter_id}")

    def to_json(self) -> dict[str, Any]:
        return {
            "shooter": self.shooter_id,
            "measure": self.measure,
            "targets": [
                {
                    "id": t.target_id,
                    "distance": t.distance,
                    "band": t.band.name,
                    "stealth": t.band.stealth,
                    "hidden": t.band.hidden,
                    "models": [t.shooter_model, t.target_model],
                }
                for t in self.targets
            ],
        }


def night_fighting_view(scenario: Scenario, shooter_id: str) -> NightFightingView:
    """Night Fighting bands from ``shooter_id``: areas to draw, and each enemy unit's band."""
    measure = scenario.option("night_fighting_measure", "closest")
    if measure not in ("closest", "farthest"):
        raise RulesError(
            f"options.night_fighting_measure is 'closest' or 'farthest', got {measure!r}"
        )
    shooter = scenario.unit(shooter_id)
    if not shooter.models:
        raise RulesError(f"{shooter_id} has no models on the table")
    targets = tuple(
        _target_band(shooter, enemy, measure)
        for enemy in scenario.units
        if enemy.player != shooter.player and enemy.models
    )
    return NightFightingView(shooter_id, measure, _areas(scenario, shooter), targets)


def _target_band(shooter: Unit, target: Unit, measure: str) -> TargetBand:
    per_target_model = []
    for target_model in target.models:
        nearest = min(
            ((model_distance(m, target_model), m) for m in shooter.models), key=lambda t: t[0]
        )
        per_target_model.append((nearest[0], nearest[1], target_model))
    pick = max if measure == "farthest" else min
    distance, shooter_model, target_model = pick(per_target_model, key=lambda t: t[0])
    a, b = nearest_points(base_outline(shooter_model), base_outline(target_model))
    return TargetBand(
        target.id,
        distance,
        night_fighting_band(distance),
        shooter_model.id,
        target_model.id,
        ((float(a.x), float(a.y)), (float(b.x), float(b.y))),
    )


def _areas(scenario: Scenario, shooter: Unit) -> tuple[BandArea, ...]:
    """Band areas clipped to the table: rings about the union of the shooter's bases."""
    table = shapely.box(0.0, 0.0, scenario.battlefield.width, scenario.battlefield.depth)
    footprint = shapely.union_all([base_outline(m) for m in shooter.models])
    areas = []
    inner: BaseGeometry = shapely.Polygon()
    for band in night_fighting_bands():
        outer = table if band.up_to is None else footprint.buffer(band.up_to, quad_segs=32)
        ring = outer.intersection(table).difference(inner)
        areas.append(BandArea(band, ring))
        inner = outer
    return tuple(areas)
