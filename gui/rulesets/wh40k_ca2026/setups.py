"""New games for the three rulesets, as pure functions (no Qt): the New game dialog's work.

- ``wh40k-ca2026``: :func:`engine.rulesets.wh40k_ca2026.generate_mission` (seeded, every choice
  selectable)
  and :func:`engine.rulesets.wh40k_ca2026.generator.apply_setup` (deployment, roles, objectives,
  ``game``).
- ``scrollhammer``: a Standard Mission chosen or rolled on the D6 chart
  (:func:`engine.rulesets.scrollhammer.roll_mission`), who deploys first (chosen or a roll-off), the
  First Turn rule with an optional Seize the Initiative roll
  (:func:`engine.rulesets.scrollhammer.first_turn`). The engine reads the mission from
  ``options.mission``; the rolls are kept in ``game.setup``.
- ``shared-modules``: the modules in use (``options.modules``) and who deploys first
  (``options.deploys_first``, chosen or a roll-off); the player who deploys first takes the
  first turn (the modules do not say; a choice, recorded in ``game.setup.note``).

Every random step draws from its own seeded stream, so the same choices give the same game.

>>> from engine.model import Player, Scenario
>>> blank = Scenario("wh40k-ca2026", (Player("red"), Player("blue")))
>>> s = scrollhammer_game(blank, seed=4, mission="held-ground", deployed_first="blue")
>>> s.ruleset, s.options["mission"], s.game["active_player"]
('scrollhammer', 'held-ground', 'blue')
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from engine.errors import RulesError
from engine.model import Battlefield, Scenario, freeze, thaw
from engine.rulesets.wh40k_ca2026 import generate_mission
from engine.rulesets.wh40k_ca2026.generator import apply_setup, roll_off

SCROLLHAMMER_BATTLEFIELD = Battlefield(72.0, 48.0)
"""The Scrollhammer rulebook's standard 6' x 4' table (its 2' x 2' sections)."""


def wh40k_game(
    scenario: Scenario,
    *,
    seed: int,
    force_dispositions: tuple[str | None, str | None],
    primaries: tuple[str | None, str | None] = (None, None),
    deployment: str | None = None,
    twist_request: str | None = "none",
    mirrored_choice: str | None = None,
    swap_primaries: bool = True,
    winner_chooses: str = "attacker",
) -> Scenario:
    """``scenario`` set up as a new Chapter Approved 2026-27 game (the generator's choices)."""
    setup = generate_mission(
        scenario.player_ids(),
        force_dispositions,
        seed,
        primaries=primaries,
        deployment=deployment,
        twist_request=twist_request,
        mirrored_choice=mirrored_choice,
        swap_primaries=swap_primaries,
        winner_chooses="defender" if winner_chooses == "defender" else "attacker",
    )
    staged = replace(scenario, ruleset="wh40k-ca2026", options=_without(scenario, _FOREIGN))
    return apply_setup(setup, staged)


_FOREIGN = ("mission", "table_halves", "modules", "deploys_first")
"""Options of the other rulesets, dropped when a game of another ruleset starts."""


def _without(scenario: Scenario, keys: Sequence[str]) -> Any:
    options = thaw(scenario.options)
    for key in keys:
        options.pop(key, None)
    return freeze(options)


def _roll_off_first(seed: int, step: str, players: tuple[str, str]) -> tuple[str, list[list[int]]]:
    roll = roll_off(seed, step, players)
    return roll.winner, [list(r) for r in roll.rolls]


def scrollhammer_game(
    scenario: Scenario,
    *,
    seed: int,
    mission: str | None = None,
    deployed_first: str | None = None,
    seize_attempt: bool = False,
    table_halves: str | None = None,
) -> Scenario:
    """``scenario`` as a new Scrollhammer Standard Mission game.

    ``mission`` None rolls the D6 chart; ``deployed_first`` None is a roll-off (the rulebook's
    missions say "deploy as normal"); ``seize_attempt`` rolls the D6 for the player who deployed
    second; ``table_halves`` overrides the mission's ``long-edge`` / ``diagonal``.
    """
    from engine.rulesets.scrollhammer import first_turn, roll_mission, standard_mission

    players = scenario.player_ids()
    setup: dict[str, Any] = {"ruleset": "scrollhammer", "seed": seed}
    if mission is None:
        rolled = roll_mission(random.Random(f"{seed}:mission"))
        chosen = rolled.mission
        setup["mission_roll"] = rolled.roll
    else:
        chosen = standard_mission(mission)
    setup["mission"] = chosen.id
    if deployed_first is None:
        deployed_first, rolls = _roll_off_first(seed, "deploy-first", players)
        setup["deploy_first_rolls"] = rolls
    elif deployed_first not in players:
        raise RulesError(f"no player {deployed_first!r} to deploy first")
    second = players[1] if deployed_first == players[0] else players[0]
    seize_roll = random.Random(f"{seed}:seize").randint(1, 6) if seize_attempt else None
    turn = first_turn(chosen, deployed_first, second, seize_roll)
    setup.update(deployed_first=deployed_first, first_turn=turn.player, reason=turn.reason)
    if seize_roll is not None:
        setup["seize_roll"] = seize_roll
    options = thaw(_without(scenario, _FOREIGN))
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


def shared_modules_game(
    scenario: Scenario,
    *,
    seed: int,
    modules: Sequence[str] | None = None,
    deploys_first: str | None = None,
) -> Scenario:
    """``scenario`` as a new Shared Scenario Modules game: modules in use and deployment order."""
    from engine.rulesets.shared_modules.modules import DEFAULT_MODULES, module_ids

    players = scenario.player_ids()
    setup: dict[str, Any] = {"ruleset": "shared-modules", "seed": seed}
    known = module_ids()
    chosen = tuple(modules) if modules is not None else DEFAULT_MODULES
    unknown = [m for m in chosen if m not in known]
    if unknown:
        raise RulesError(f"unknown module(s) {', '.join(unknown)} (known: {', '.join(known)})")
    if deploys_first is None:
        deploys_first, rolls = _roll_off_first(seed, "deploy-first", players)
        setup["deploy_first_rolls"] = rolls
    elif deploys_first not in players:
        raise RulesError(f"no player {deploys_first!r} to deploy first")
    setup.update(
        modules=list(chosen),
        deploys_first=deploys_first,
        note="the player who deploys first takes the first turn (the modules do not say)",
    )
    options = thaw(_without(scenario, _FOREIGN))
    options["deploys_first"] = deploys_first
    if tuple(chosen) != DEFAULT_MODULES:
        options["modules"] = list(chosen)
    game = {
        "battle_round": 1,
        "active_player": deploys_first,
        "timing": "start_of_turn",
        "first_player": deploys_first,
        "setup": setup,
    }
    return replace(scenario, ruleset="shared-modules", options=freeze(options), game=freeze(game))
