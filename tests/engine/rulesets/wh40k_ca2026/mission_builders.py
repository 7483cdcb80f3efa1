"""Scenarios the mission tests share: Dawn of War, red attacking, blue defending, its
objectives where the deployment puts them, and 32 mm models measured against 40 mm markers."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from engine.deployments import resolve_deployment
from engine.model import CircleBase, Marker, Player, Scenario, TerrainPiece, Unit, freeze
from engine.scenario_io import loads_scenario, scenario_to_json

BASE = CircleBase(32)
R = BASE.radius
MARKER_R = 40 / 25.4 / 2
IN_RANGE = 3 + R + MARKER_R
"""Centre distance of a 32 mm model exactly 3" from a 40 mm marker's rim."""


def dawn_of_war(
    *units: Unit,
    game: Mapping[str, Any],
    markers: tuple[Marker, ...] = (),
    terrain: tuple[TerrainPiece, ...] = (),
) -> Scenario:
    base = Scenario(
        "wh40k-ca2026",
        (Player("red", role="attacker"), Player("blue", role="defender")),
        deployment="dawn-of-war",
    )
    resolved = resolve_deployment(base)
    assert resolved is not None
    built = replace(
        base,
        objectives=resolved.objective_points,
        units=units,
        markers=markers,
        terrain=terrain,
        game=freeze(dict(game)),
    )
    # Through the file format and back, so every scenario is a valid file: the game keys pass
    # engine.game_state.
    return loads_scenario(json.dumps(scenario_to_json(built)))
