"""An official table for benchmarks and tests: a recommended layout with two real armies.

A Chapter Approved game on one of the 45 recommended layouts (``engine.layouts``), each player
with about ``models`` models of real datasheets (``engine.datasheets``: bases, Move, OC,
keywords), set up by ``engine.army_placement.place_army`` wholly within its deployment zone in
coherency. Red fields Space Marines and Blue Necrons: infantry squads of several base sizes,
characters, a few large ovals. The same arguments always give the same scenario.

``python -m benchmarks.official_table FILE [LETTER]`` saves it (layout A by default).

>>> s = make_official_table()
>>> s.layout.id, len(s.units) > 20, 180 <= sum(len(u.models) for u in s.units) <= 220
('take-and-hold-vs-purge-the-foe-a', True, True)
>>> s.reserves
()
"""

from __future__ import annotations

import sys
from pathlib import Path

from engine.army_lists import ArmyEntry, ArmyList
from engine.army_placement import place_army
from engine.datasheets import datasheet
from engine.model import Battlefield, Player, Scenario
from engine.rulesets.wh40k_ca2026.generator import new_game
from engine.scenario_io import save_scenario

ARMIES: dict[str, tuple[tuple[str, int], ...]] = {
    "red": (
        ("intercessor-squad", 10),
        ("intercessor-squad", 10),
        ("assault-intercessor-squad", 10),
        ("hellblaster-squad", 10),
        ("terminator-squad", 5),
        ("infernus-squad", 10),
        ("eradicator-squad", 6),
        ("scout-squad", 10),
        ("inceptor-squad", 6),
        ("aggressor-squad", 6),
        ("sternguard-veteran-squad", 10),
        ("captain", 1),
        ("lieutenant", 1),
        ("librarian", 1),
        ("apothecary", 1),
        ("redemptor-dreadnought", 1),
        ("ballistus-dreadnought", 1),
        ("outrider-squad", 3),
    ),
    "blue": (
        ("necron-warriors", 20),
        ("necron-warriors", 20),
        ("immortals", 10),
        ("lychguard", 10),
        ("deathmarks", 10),
        ("flayed-ones", 10),
        ("skorpekh-destroyers", 6),
        ("canoptek-scarab-swarms", 6),
        ("overlord", 1),
        ("royal-warden", 1),
        ("technomancer", 1),
        ("chronomancer", 1),
        ("canoptek-wraiths", 3),
    ),
}
"""Datasheet ids and model counts per player (each within its datasheet's range)."""


def army(player: str) -> ArmyList:
    entries = tuple(
        ArmyEntry(line, datasheet(sheet_id).name, datasheet(sheet_id), models)
        for line, (sheet_id, models) in enumerate(ARMIES[player], start=1)
    )
    return ArmyList("gw-app", entries)


def make_official_table(
    layout: str = "A",
    dispositions: tuple[str, str] = ("Take and Hold", "Purge the Foe"),
    seed: int = 4,
) -> Scenario:
    """The layout for ``dispositions`` with both armies set up in their zones."""
    blank = Scenario(
        "wh40k-ca2026",
        (Player("red", "Red"), Player("blue", "Blue")),
        Battlefield(60.0, 44.0),
        title="Official table",
    )
    scenario = new_game(blank, seed=seed, force_dispositions=dispositions, layout=layout)
    for player in ("red", "blue"):
        placed = place_army(scenario, army(player), player, "deployment")
        if placed.reserves or placed.messages:
            raise RuntimeError(f"{player}'s army does not fit: {'; '.join(placed.messages)}")
        scenario = placed.scenario
    return scenario


if __name__ == "__main__":
    target = Path(sys.argv[1])
    save_scenario(make_official_table(sys.argv[2] if len(sys.argv) > 2 else "A"), target)
    sys.stdout.write(f"wrote {target}\n")
