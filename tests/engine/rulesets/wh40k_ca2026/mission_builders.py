"""Scenarios the mission tests share: Dawn of War, red attacking, blue defending, its
objectives where the deployment puts them, and 32 mm models measured against 40 mm markers."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from engine.deployments import resolve_deployment
from engine.model import (
    Battlefield,
    CircleBase,
    Marker,
    Model,
    Objective,
    Player,
    Scenario,
    TerrainPiece,
    Unit,
    freeze,
)
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


def duel() -> Scenario:
    """Red's one-model unit 6" south of a 40 mm objective, Blue's 5" north of it (the app's
    tests use it too, as ``gui_helpers.duel_scenario``).

    The objective sits at (30, 22); its rim is 0.787" from its centre, so a 32 mm model
    (radius 0.630") is in range (3" from the rim) while its centre is within 4.417" of the
    objective's centre.
    """
    red = Unit("red-squad", "red", (Model("red-1", 30.0, 16.0, BASE),), name="Red Squad", oc=2)
    blue = Unit("blue-squad", "blue", (Model("blue-1", 30.0, 27.0, BASE),), name="Blue Squad")
    return Scenario(
        "wh40k-ca2026",
        (Player("red", "Red", "attacker"), Player("blue", "Blue", "defender")),
        Battlefield(60.0, 44.0),
        title="Duel",
        units=(red, blue),
        objectives=(Objective("obj-centre", 30.0, 22.0, role="central"),),
    )
