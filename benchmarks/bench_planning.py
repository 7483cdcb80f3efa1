"""The planning tools' figures beside the hidden map: a unit's movement bands
(:func:`engine.movement.movement_bands`) and its threat to every enemy unit
(:func:`engine.threat.unit_threats`), both measured round terrain, for each unit of the first
player that has a Move characteristic: the median and 90th percentile over those units are what
a player waits for after selecting one of them.

The issue asks for both live as units move; no target is printed yet (they are far from live:
seconds for bands among many ruins), the figures show where they stand.
"""

from __future__ import annotations

from typing import TextIO

from benchmarks.bench import Timing, measure
from engine.model import Scenario
from engine.movement import movement_bands
from engine.threat import unit_threats

QUICK_UNITS = 3
"""With ``--quick``, only this many of the player's units are measured."""


def planning_timings(scenario: Scenario, quick: bool) -> dict[str, Timing]:
    """``movement_bands_ms`` and ``threats_ms``, one sample per unit of the first player with
    M (none when it has no such unit)."""
    player = scenario.player_ids()[0]
    movers = [u.id for u in scenario.units if u.player == player and u.move and u.models]
    if quick:
        movers = movers[:QUICK_UNITS]
    if not movers:
        return {}
    return {
        "movement_bands_ms": measure(
            f"movement bands round terrain, each of {player}'s {len(movers)} units",
            lambda index: movement_bands(scenario, movers[index]),
            len(movers),
        ),
        "threats_ms": measure(
            f"threat round terrain, each of {player}'s {len(movers)} units",
            lambda index: unit_threats(scenario, movers[index]),
            len(movers),
        ),
    }


def bench_planning(out: TextIO, scenario: Scenario, quick: bool) -> None:
    """Print the movement-band and threat figures of ``scenario``."""
    for timing in planning_timings(scenario, quick).values():
        print(timing.line(), file=out)
