"""Putting armies on the table: the reserves tray, deploying from it, placing a whole list.

A scenario's ``reserves`` hold units that belong to an army but are not on the battlefield;
no rule sees them (they are not in ``units``). Units come off the tray in coherency, as
:func:`engine.edits.add_unit` lays them out, and a whole imported list can go to the tray or
into its player's deployment zone: every unit wholly within the zone, in coherency, without
overlapping any model already there. What does not fit goes to the tray, with a message.

>>> from engine.model import Player, Scenario
>>> from engine.datasheets import unit_from_datasheet
>>> s = Scenario("wh40k-ca2026", (Player("red"), Player("blue")))
>>> s, unit_id = unit_from_datasheet(s, "intercessor-squad", player="red", models=5,
...                                  centre=(10, 10))
>>> s = send_to_reserves(s, unit_id)
>>> len(s.units), [u.id for u in s.reserves]
(0, ['red-intercessor-squad-1'])
>>> s = deploy_from_reserves(s, unit_id, (30, 20))
>>> len(s.units), len(s.reserves), round(s.units[0].models[2].x, 3)
(1, 0, 30.0)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Literal

import numpy as np
import numpy.typing as npt
import shapely
import shapely.affinity
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry

from engine.army_lists import ArmyEntry, ArmyList
from engine.datasheets import unit_from_datasheet
from engine.deployments import resolve_deployment
from engine.edits import COHERENCY_GAP, formation_positions
from engine.errors import RulesError, UnknownReferenceError
from engine.geometry import PreparedArea, base_outline, model_distance, model_wholly_within
from engine.model import Base, Model, Point, Scenario, Unit

PlacementTarget = Literal["reserves", "deployment"]
FloatArray = npt.NDArray[np.float64]
PLACEMENT_STEP = 0.5
"""Spacing in inches of the unit centres tried when setting a unit up in its zone."""
UNIT_GAP = COHERENCY_GAP
"""Least gap kept between a new unit's bases and any other model, so units stay apart."""


def _reserve(scenario: Scenario, unit_id: str) -> Unit:
    for unit in scenario.reserves:
        if unit.id == unit_id:
            return unit
    raise UnknownReferenceError(f"no unit {unit_id!r} in reserves")


def send_to_reserves(scenario: Scenario, unit_id: str) -> Scenario:
    """``scenario`` with the unit on the battlefield moved to the reserves tray (its models
    keep their positions; references to it in the ``game`` section stay valid)."""
    try:
        unit = scenario.unit(unit_id)
    except KeyError:
        raise UnknownReferenceError(f"no unit {unit_id!r} on the battlefield") from None
    return replace(
        scenario,
        units=tuple(u for u in scenario.units if u.id != unit_id),
        reserves=(*scenario.reserves, unit),
    )


def _largest_base(unit: Unit) -> Base:
    return max((m.base for m in unit.models), key=lambda base: base.bounding_radius)


def _formed(unit: Unit, centre: Point) -> Unit:
    """The unit's models laid out in coherency about ``centre`` (as ``add_unit`` does)."""
    positions = formation_positions(len(unit.models), _largest_base(unit), centre)
    return replace(
        unit, models=tuple(m.placed(x, y) for m, (x, y) in zip(unit.models, positions, strict=True))
    )


def deploy_from_reserves(scenario: Scenario, unit_id: str, centre: Point) -> Scenario:
    """``scenario`` with the reserve unit on the battlefield, in coherency about ``centre``."""
    unit = _formed(_reserve(scenario, unit_id), centre)
    return replace(
        scenario,
        units=(*scenario.units, unit),
        reserves=tuple(u for u in scenario.reserves if u.id != unit_id),
    )


@dataclass(frozen=True)
class ArmyPlacement:
    """What :func:`place_army` did: the scenario, the new units' ids (on the battlefield and
    in reserves) and one message per unit not set up as asked."""

    scenario: Scenario
    deployed: tuple[str, ...]
    reserves: tuple[str, ...]
    messages: tuple[str, ...]


def _zone(scenario: Scenario, player: str) -> PreparedArea:
    deployment = resolve_deployment(scenario)
    zone = None if deployment is None else deployment.zone_geometry(player)
    if zone is None or zone.is_empty:
        raise RulesError(f"{player} has no deployment zone in this scenario")
    return PreparedArea(zone)


def _clear_of(models: tuple[Model, ...], others: list[Model]) -> bool:
    """Whether every model is at least :data:`UNIT_GAP` from every one of ``others``."""
    for model in models:
        for other in others:
            reach = model.base.bounding_radius + other.base.bounding_radius + UNIT_GAP
            if abs(model.x - other.x) > reach or abs(model.y - other.y) > reach:
                continue
            if model_distance(model, other) < UNIT_GAP - 1e-9:
                return False
    return True


def _candidate_centres(zone: PreparedArea, towards: Point) -> tuple[FloatArray, FloatArray]:
    """Centres on a :data:`PLACEMENT_STEP` grid over the zone, farthest from ``towards`` (the
    battlefield's centre) first: units fill the zone from its back."""
    minx, miny, maxx, maxy = zone.bounds
    xs, ys = np.meshgrid(
        np.arange(minx, maxx + 1e-9, PLACEMENT_STEP), np.arange(miny, maxy + 1e-9, PLACEMENT_STEP)
    )
    xs, ys = xs.ravel(), ys.ravel()
    order = np.lexsort((ys, xs, -np.hypot(xs - towards[0], ys - towards[1])))
    return xs[order], ys[order]


def _feasible_centres(
    unit: Unit, zone: PreparedArea, occupied: BaseGeometry, centres: tuple[FloatArray, FloatArray]
) -> Iterator[Point]:
    """The candidate centres where, judged by each base's bounding circle, the formed unit
    is inside the zone and clear of ``occupied``: a filter, each is then checked exactly."""
    formed = _formed(unit, (0.0, 0.0))
    inside = zone.geometry
    blocked: list[BaseGeometry] = []
    by_radius: dict[float, tuple[BaseGeometry, BaseGeometry]] = {}
    for model in formed.models:
        radius = model.base.bounding_radius
        if radius not in by_radius:
            by_radius[radius] = (
                zone.geometry.buffer(-radius + 1e-6),
                occupied.buffer(radius + UNIT_GAP - 1e-6) if not occupied.is_empty else occupied,
            )
        shrunk, grown = by_radius[radius]
        inside = inside.intersection(shapely.affinity.translate(shrunk, -model.x, -model.y))
        if not grown.is_empty:
            blocked.append(shapely.affinity.translate(grown, -model.x, -model.y))
    feasible = inside.difference(shapely.union_all(blocked)) if blocked else inside
    if feasible.is_empty:
        return
    xs, ys = centres
    mask = shapely.intersects_xy(feasible, xs, ys)
    yield from zip(xs[mask].tolist(), ys[mask].tolist(), strict=True)


def _fit(
    unit: Unit,
    zone: PreparedArea,
    placed: list[Model],
    centres: tuple[FloatArray, FloatArray],
) -> Unit | None:
    """The unit formed about the first centre where it is wholly within the zone and at least
    :data:`UNIT_GAP` from every placed model (both checked exactly), or None."""
    occupied = shapely.union_all([base_outline(m) for m in placed]) if placed else Polygon()
    for centre in _feasible_centres(unit, zone, occupied, centres):
        formed = _formed(unit, centre)
        if all(model_wholly_within(m, zone) for m in formed.models) and _clear_of(
            formed.models, placed
        ):
            return formed
    return None


def place_army(
    scenario: Scenario,
    army: ArmyList,
    player: str,
    where: PlacementTarget = "reserves",
    bases: Mapping[int, Base] | None = None,
) -> ArmyPlacement:
    """``scenario`` with every resolved unit of ``army`` added for ``player``: to the reserves
    tray, or set up wholly within the player's deployment zone (``where="deployment"``) in
    coherency and clear of every model already on the battlefield, the largest units first.

    ``bases`` gives a base for entries (by their line in the list) whose datasheet has none.
    A unit that cannot be made (no base, a model count the datasheet does not allow) or is
    unresolved is not added, and a message says so; a unit that does not fit in the zone goes
    to reserves, with a message.
    """
    if player not in scenario.player_ids():
        raise RulesError(f"no player {player!r}; players: {', '.join(scenario.player_ids())}")
    chosen = dict(bases or {})
    messages: list[str] = []
    made: list[tuple[ArmyEntry, str]] = []
    result = scenario
    centre = scenario.battlefield.centre
    for entry in army.units:
        if entry.problem:
            messages.append(f"line {entry.line}: {entry.text} not added: {entry.problem}")
            continue
        try:
            result, unit_id = unit_from_datasheet(
                result,
                entry.datasheet.id,
                player=player,
                models=entry.models,
                centre=centre,
                base=chosen.get(entry.line),
            )
        except RulesError as error:
            messages.append(f"line {entry.line}: {entry.text} not added: {error}")
            continue
        result = send_to_reserves(result, unit_id)
        made.append((entry, unit_id))
    for unresolved in army.unresolved:
        hint = f" (closest: {', '.join(unresolved.suggestions)})" if unresolved.suggestions else ""
        messages.append(
            f"line {unresolved.line}: {unresolved.text} not added: no datasheet of that name{hint}"
        )
    if where == "reserves":
        return ArmyPlacement(result, (), tuple(u for _, u in made), tuple(messages))
    zone = _zone(result, player)
    centres = _candidate_centres(zone, centre)
    placed = [m for u in result.units for m in u.models]
    deployed: list[str] = []
    waiting: list[str] = []

    def footprint(item: tuple[ArmyEntry, str]) -> float:
        unit = _reserve(result, item[1])
        return -sum(m.base.bounding_radius**2 for m in unit.models)

    for entry, unit_id in sorted(made, key=footprint):
        fitted = _fit(_reserve(result, unit_id), zone, placed, centres)
        if fitted is None:
            waiting.append(unit_id)
            messages.append(
                f"line {entry.line}: {entry.text} does not fit in {player}'s deployment zone "
                "beside the units already there: left in reserves"
            )
            continue
        result = replace(
            result,
            units=(*result.units, fitted),
            reserves=tuple(u for u in result.reserves if u.id != unit_id),
        )
        placed.extend(fitted.models)
        deployed.append(unit_id)
    return ArmyPlacement(result, tuple(deployed), tuple(waiting), tuple(messages))
