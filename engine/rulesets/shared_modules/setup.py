"""A new Shared Scenario Modules game: the modules in use (``options.modules``) and who
deploys first (``options.deploys_first``, chosen or a seeded roll-off).

Choice (the modules are silent): the player who deploys first takes the first turn; the
choice is recorded in ``game.setup.note``.

>>> from engine.model import Player, Scenario
>>> blank = Scenario("wh40k-ca2026", (Player("red"), Player("blue")))
>>> s = new_game(blank, seed=2, modules=["annihilation"], deploys_first="blue")
>>> s.ruleset, s.options["deploys_first"], s.game["first_player"]
('shared-modules', 'blue', 'blue')
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from engine.dice import roll_off
from engine.errors import RulesError
from engine.model import Scenario, freeze, thaw
from engine.rulesets.shared_modules.modules import DEFAULT_MODULES, module_ids
from engine.scenario_edits import without_options

FIRST_TURN_NOTE = "the player who deploys first takes the first turn (the modules do not say)"


def new_game(
    scenario: Scenario,
    *,
    seed: int,
    modules: Sequence[str] | None = None,
    deploys_first: str | None = None,
    dropped_options: Iterable[str] = (),
) -> Scenario:
    """``scenario`` as a new game with ``modules`` (``None``: the default set) in use;
    ``deploys_first`` None is a roll-off; ``dropped_options``: option keys of other rule
    systems to remove."""
    players = scenario.player_ids()
    setup: dict[str, Any] = {"ruleset": "shared-modules", "seed": seed}
    known = module_ids()
    chosen = tuple(modules) if modules is not None else DEFAULT_MODULES
    unknown = [m for m in chosen if m not in known]
    if unknown:
        raise RulesError(f"unknown module(s) {', '.join(unknown)} (known: {', '.join(known)})")
    if deploys_first is None:
        roll = roll_off(seed, "deploy-first", players)
        deploys_first = roll.winner
        setup["deploy_first_rolls"] = [list(r) for r in roll.rolls]
    elif deploys_first not in players:
        raise RulesError(f"no player {deploys_first!r} to deploy first")
    setup.update(modules=list(chosen), deploys_first=deploys_first, note=FIRST_TURN_NOTE)
    options = thaw(without_options(scenario, dropped_options).options)
    options["deploys_first"] = deploys_first
    if chosen != DEFAULT_MODULES:
        options["modules"] = list(chosen)
    game = {
        "battle_round": 1,
        "active_player": deploys_first,
        "timing": "start_of_turn",
        "first_player": deploys_first,
        "setup": setup,
    }
    return replace(scenario, ruleset="shared-modules", options=freeze(options), game=freeze(game))
