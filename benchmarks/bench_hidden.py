"""The hidden-placement map's figures (:mod:`engine.hidden`): the player's deployment zone and
the whole table at 0.5", for a 32 mm model 1.5" tall, on both cores.

Targets, on an official table with about 100 enemy models: the zone under 100 ms, the table
under 400 ms (medians; goals printed beside the figures, never asserted).
"""

from __future__ import annotations

from typing import TextIO

from benchmarks.bench import Timing, measure
from engine.hidden import Region, hidden_map
from engine.model import CircleBase, Scenario

ZONE_TARGET_MS = 100.0
TABLE_TARGET_MS = 400.0


def hidden_timings(scenario: Scenario, repeats: int) -> dict[str, Timing]:
    """``hidden_zone_ms`` (when the first player has a deployment zone) and
    ``hidden_table_ms`` for the first player of ``scenario``."""
    from engine.deployments import resolve_deployment

    player = scenario.player_ids()[0]
    deployment = resolve_deployment(scenario)
    regions: list[Region] = ["table"]
    if deployment is not None and not deployment.zone_geometry(player).is_empty:
        regions.insert(0, "zone")
    timings = {}
    for region in regions:

        def one_map(_: int, region: Region = region) -> object:
            return hidden_map(
                scenario, player=player, base=CircleBase(32), height=1.5, region=region
            )

        label = f'hidden map, {player}\'s {region} at 0.5" (32 mm, 1.5")'
        timings[f"hidden_{region}_ms"] = measure(label, one_map, repeats)
    return timings


def bench_hidden(out: TextIO, scenario: Scenario, quick: bool) -> None:
    """Print the hidden-map figures of ``scenario`` with their targets."""
    targets = {"hidden_zone_ms": ZONE_TARGET_MS, "hidden_table_ms": TABLE_TARGET_MS}
    for key, timing in hidden_timings(scenario, 1 if quick else 3).items():
        print(timing.line(target_ms=targets[key]), file=out)
