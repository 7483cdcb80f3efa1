"""Small builders for Scrollhammer test scenarios (25.4 mm bases: radius exactly 0.5")."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from engine.model import (
    Base,
    Battlefield,
    CircleBase,
    Marker,
    Model,
    Objective,
    Player,
    Scenario,
    TerrainPiece,
    Unit,
    UnitStatus,
    freeze,
)

INCH_BASE = CircleBase(25.4)
"""A round base exactly 1" across."""


def model(
    model_id: str, x: float, y: float, base: Base = INCH_BASE, rotation: float = 0.0
) -> Model:
    return Model(model_id, x, y, base, rotation=rotation)


def unit(
    unit_id: str,
    player: str,
    *models: Model,
    keywords: Iterable[str] = ("CORE",),
    falling_back: bool = False,
    scoring: bool | None = None,
    denial: bool | None = None,
    extra: Mapping[str, Any] | None = None,
) -> Unit:
    return Unit(
        unit_id,
        player,
        tuple(models),
        keywords=tuple(keywords),
        status=UnitStatus(falling_back=falling_back),
        scoring=scoring,
        denial=denial,
        extra=freeze(dict(extra or {})),
    )


def square(
    terrain_id: str, x0: float, y0: float, x1: float, y1: float, **kwargs: Any
) -> TerrainPiece:
    return TerrainPiece(terrain_id, ((x0, y0), (x1, y0), (x1, y1), (x0, y1)), **kwargs)


def scenario(
    *,
    units: Iterable[Unit] = (),
    objectives: Iterable[Objective] = (),
    terrain: Iterable[TerrainPiece] = (),
    markers: Iterable[Marker] = (),
    options: Mapping[str, Any] | None = None,
    game: Mapping[str, Any] | None = None,
    width: float = 72.0,
    depth: float = 48.0,
    ruleset: str = "scrollhammer",
) -> Scenario:
    return Scenario(
        ruleset,  # type: ignore[arg-type]
        (Player("red"), Player("blue")),
        Battlefield(width, depth),
        options=freeze(dict(options or {})),
        units=tuple(units),
        objectives=tuple(objectives),
        terrain=tuple(terrain),
        markers=tuple(markers),
        game=freeze(dict(game)) if game is not None else None,
    )
