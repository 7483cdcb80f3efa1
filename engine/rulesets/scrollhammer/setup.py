"""A new Scrollhammer Standard Mission game: the mission (chosen or rolled on the D6 chart),
who deploys first (chosen or a roll-off: the missions say "deploy as normal") and the First
Turn rule with an optional Seize the Initiative roll.

The engine reads the mission from ``options.mission``; the rolls are kept in ``game.setup``.
Every random step draws from its own seeded stream (:mod:`engine.dice`), so the same choices
give the same game.

>>> from engine.model import Player, Scenario
>>> blank = Scenario("wh40k-ca2026", (Player("red"), Player("blue")))
>>> s = new_game(blank, seed=4, mission="held-ground", deployed_first="blue")
>>> s.ruleset, s.options["mission"], s.game["active_player"]
('scrollhammer', 'held-ground', 'blue')
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from engine.dice import roll_off, stream
from engine.errors import RulesError
from engine.model import Battlefield, Scenario, freeze, thaw
from engine.rulesets.scrollhammer.game_flow import first_turn
from engine.rulesets.scrollhammer.missions import roll_mission, standard_mission
from engine.scenario_edits import without_options

BATTLEFIELD = Battlefield(72.0, 48.0)
"""The rulebook's standard 6' x 4' table (its 2' x 2' sections)."""


def new_game(
    scenario: Scenario,
    *,
    seed: int,
    mission: str | None = None,
    deployed_first: str | None = None,
    seize_attempt: bool = False,
    table_halves: str | None = None,
    dropped_options: Iterable[str] = (),
) -> Scenario:
    """``scenario`` as a new Standard Mission game.

    ``mission`` None rolls the D6 chart; ``deployed_first`` None is a roll-off;
    ``seize_attempt`` rolls the D6 for the player who deployed second; ``table_halves``
    overrides the mission's ``long-edge`` / ``diagonal``; ``dropped_options``: option keys
    of other rule systems to remove.
    """
    players = scenario.player_ids()
    setup: dict[str, Any] = {"ruleset": "scrollhammer", "seed": seed}
    if mission is None:
        rolled = roll_mission(stream(seed, "mission"))
        chosen = rolled.mission
        setup["mission_roll"] = rolled.roll
    else:
        chosen = standard_mission(mission)
    setup["mission"] = chosen.id
    if deployed_first is None:
        roll = roll_off(seed, "deploy-first", players)
        deployed_first = roll.winner
        setup["deploy_first_rolls"] = [list(r) for r in roll.rolls]
    elif deployed_first not in players:
        raise RulesError(f"no player {deployed_first!r} to deploy first")
    second = scenario.opponent_of(deployed_first)
    seize_roll = stream(seed, "seize").randint(1, 6) if seize_attempt else None
    turn = first_turn(chosen, deployed_first, second, seize_roll)
    setup.update(deployed_first=deployed_first, first_turn=turn.player, reason=turn.reason)
    if seize_roll is not None:
        setup["seize_roll"] = seize_roll
    options = thaw(without_options(scenario, dropped_options).options)
    options["mission"] = chosen.id
    if table_halves is not None:
        options["table_halves"] = table_halves
    game = {
        "battle_round": 1,
        "active_player": turn.player,
        "timing": "start_of_turn",
        "first_player": turn.player,
        "setup": setup,
    }
    return replace(
        scenario,
        ruleset="scrollhammer",
        options=freeze(options),
        deployment=None,
        game=freeze(game),
    )
