"""Small edits of a scenario's ``options`` and ``game`` sections, as pure functions.

The rule systems' set-up and bookkeeping steps (a new game, a ledger entry, Scout and Secure)
return new scenarios through these, so the app and scripts make the same edits.

>>> from engine.model import Player, Scenario
>>> s = Scenario("shared-modules", (Player("red"), Player("blue")))
>>> s = with_game_key(s, "shared_modules", "turn", 2)
>>> game_section(s, "shared_modules"), with_game_key(s, "shared_modules", "turn", None).game
({'turn': 2}, None)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from engine.model import EMPTY, Scenario, freeze, thaw


def with_option(scenario: Scenario, key: str, value: Any) -> Scenario:
    """``scenario`` with ``options[key] = value`` (``None`` removes the key)."""
    options = thaw(scenario.options)
    if value is None:
        options.pop(key, None)
    else:
        options[key] = value
    return replace(scenario, options=freeze(options))


def without_options(scenario: Scenario, keys: Iterable[str]) -> Scenario:
    """``scenario`` without the given option keys."""
    options = thaw(scenario.options)
    for key in keys:
        options.pop(key, None)
    return replace(scenario, options=freeze(options))


def game_section(scenario: Scenario, section: str) -> dict[str, Any]:
    """A plain copy of ``game[section]`` (empty when absent)."""
    return dict(thaw((scenario.game or EMPTY).get(section) or {}))


def with_game_section(scenario: Scenario, section: str, values: dict[str, Any]) -> Scenario:
    """``scenario`` with ``game[section]`` replaced by ``values`` (other game keys kept; an
    empty section is removed, and an empty ``game`` with it)."""
    game = thaw(scenario.game or EMPTY)
    if values:
        game[section] = values
    else:
        game.pop(section, None)
    return replace(scenario, game=freeze(game) if game else None)


def with_game_key(scenario: Scenario, section: str, key: str, value: Any) -> Scenario:
    """``scenario`` with ``game[section][key] = value`` (``None`` removes the key)."""
    values = game_section(scenario, section)
    if value is None:
        values.pop(key, None)
    else:
        values[key] = value
    return with_game_section(scenario, section, values)
