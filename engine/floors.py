"""Upper floors of terrain pieces (ruins' storeys): where a model can stand above the ground.

A model can stand on an upper floor when its whole base is over that floor's footprint (a base
overhanging the floor's edge would be floating); it then stands at the floor's ``z``. Where
floors overlap, the highest one the base fits on is offered first. Putting a model on the
ground sets ``z`` back to 0. The floors come with the official layouts (``engine.layouts``).

>>> from engine.model import (CircleBase, Model, Player, Scenario, TerrainFloor, TerrainPiece,
...                           Unit)
>>> square = ((0.0, 0.0), (4.0, 0.0), (4.0, 4.0), (0.0, 4.0))
>>> ruin = TerrainPiece("ruin", "ruin", square, floors=(TerrainFloor(square, 3.0),))
>>> unit = Unit("u", "red", (Model("m", 2.0, 2.0, CircleBase(32)),))
>>> s = Scenario("wh40k-ca2026", (Player("red"), Player("blue")), units=(unit,), terrain=(ruin,))
>>> [(f.piece, f.z) for f in floors_under(s, s.model("m"))]
[('ruin', 3.0)]
>>> stand_models(s, {"m"}, on_floor=True).model("m").z
3.0
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from engine.errors import RulesError
from engine.geometry import model_wholly_within, prepared_polygon
from engine.model import Model, Scenario


@dataclass(frozen=True)
class FloorSpot:
    """A floor a model fits on: the terrain piece's id and the floor's height."""

    piece: str
    z: float


def floors_under(scenario: Scenario, model: Model) -> tuple[FloorSpot, ...]:
    """The upper floors ``model``'s whole base is over, highest first."""
    spots = [
        FloorSpot(piece.id, floor.z)
        for piece in scenario.terrain
        for floor in piece.floors
        if model_wholly_within(model, prepared_polygon(floor.shape))
    ]
    return tuple(sorted(spots, key=lambda spot: -spot.z))


def stand_models(scenario: Scenario, model_ids: Iterable[str], *, on_floor: bool) -> Scenario:
    """``scenario`` with each model on the highest floor under it (``on_floor``) or on the
    ground; a model asked onto a floor it does not fit on raises :class:`RulesError`."""
    heights: dict[str, float] = {}
    for model_id in model_ids:
        model = scenario.model(model_id)
        if not on_floor:
            heights[model_id] = 0.0
            continue
        spots = floors_under(scenario, model)
        if not spots:
            raise RulesError(
                f"{model_id} is not wholly over an upper floor: move it onto one first"
            )
        heights[model_id] = spots[0].z
    return scenario.with_models(
        replace(scenario.model(model_id), z=z) for model_id, z in heights.items()
    )
