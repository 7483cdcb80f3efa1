"""Small builders for Shared Scenario Modules test scenarios (25.4 mm bases: radius 0.5")."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from engine.model import (
    Base,
    Battlefield,
    CircleBase,
    Model,
    Objective,
    Player,
    Scenario,
    Unit,
    freeze,
)

INCH_BASE = CircleBase(25.4)


def model(
    model_id: str, x: float, y: float, base: Base = INCH_BASE, rotation: float = 0.0
) -> Model:
    return Model(model_id, x, y, base, rotation=rotation)


def unit(unit_id: str, player: str, *models: Model, cost: int | None = None, **extra: Any) -> Unit:
    data = dict(extra)
    if cost is not None:
        data["cost"] = cost
    return Unit(unit_id, player, tuple(models), extra=freeze(data))


def scenario(
    *,
    units: Iterable[Unit] = (),
    objectives: Iterable[Objective] = (),
    options: Mapping[str, Any] | None = None,
    game: Mapping[str, Any] | None = None,
    width: float = 60.0,
    depth: float = 44.0,
) -> Scenario:
    return Scenario(
        "shared-modules",
        (Player("red"), Player("blue")),
        Battlefield(width, depth),
        options=freeze(dict(options or {})),
        units=tuple(units),
        objectives=tuple(objectives),
        game=freeze(dict(game)) if game is not None else None,
    )
