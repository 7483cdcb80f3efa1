"""``game.shared_modules``: the Shared Scenario Modules state in a scenario file.

Keys (all optional): ``turn`` (integer of at least 1); ``undeployed``, ``destroyed``,
``destroyed_this_turn``: unit ids; ``scout_and_secure``: ``{unit id: {"lead": model id,
"moved": bool}}``; ``ledgers``: ``{player id: {"threat": [entry], "command": [entry]}}`` where
an entry is ``{"amount": integer, "reason": text, "turn": integer}``.

:data:`GAME_SECTION_CHECK` validates it with the checks of :mod:`engine.game_state`;
:func:`ledgers_from_scenario` reads the ledgers.

>>> from engine.game_state import GameIds
>>> ids = GameIds(players=frozenset({"red", "blue"}), units=frozenset({"u1"}))
>>> problems = GAME_SECTION_CHECK({"ledgers": {"red": {"threat": [{"amount": "x"}]}}}, "g", ids)
>>> [p.path for p in problems]
['g.ledgers.red.threat[0].amount', 'g.ledgers.red.threat[0].reason']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.errors import Problem
from engine.game_state import (
    GameCheck,
    GameIds,
    integer_check,
    list_check,
    object_check,
    reference_check,
    text_check,
)
from engine.model import Scenario
from engine.rulesets.shared_modules.ledgers import LedgerEntry, PlayerLedgers, PointsLedger


def _bool_check(value: object, path: str, ids: GameIds) -> list[Problem]:
    return [] if isinstance(value, bool) else [Problem(path, f"must be true or false, got {value}")]


def _signed_integer(value: object, path: str, ids: GameIds) -> list[Problem]:
    if isinstance(value, bool) or not isinstance(value, int):
        return [Problem(path, f"must be an integer, got {value}")]
    return []


def _keyed_by(kind: str, item: GameCheck) -> GameCheck:
    def check(value: object, path: str, ids: GameIds) -> list[Problem]:
        if not isinstance(value, Mapping):
            return [Problem(path, "must be an object")]
        problems: list[Problem] = []
        for key, element in value.items():
            problems.extend(reference_check(kind)(key, f"{path}.{key}", ids))
            problems.extend(item(element, f"{path}.{key}", ids))
        return problems

    return check


_ENTRY = object_check(
    {"amount": _signed_integer, "reason": text_check(), "turn": integer_check(1)},
    required=("amount", "reason"),
)

GAME_SECTION_CHECK: GameCheck = object_check(
    {
        "turn": integer_check(1),
        "undeployed": list_check(reference_check("units")),
        "destroyed": list_check(reference_check("units")),
        "destroyed_this_turn": list_check(reference_check("units")),
        "scout_and_secure": _keyed_by(
            "units",
            object_check({"lead": reference_check("models"), "moved": _bool_check}, ("lead",)),
        ),
        "ledgers": _keyed_by(
            "players", object_check({"threat": list_check(_ENTRY), "command": list_check(_ENTRY)})
        ),
    }
)
"""The check of ``game.shared_modules`` for :data:`engine.game_state.GAME_KEYS`."""


def ledgers_from_scenario(scenario: Scenario) -> dict[str, PlayerLedgers]:
    """Each player's Threat Point and Command Point ledgers as the file records them."""
    raw: Mapping[str, Any] = ((scenario.game or {}).get("shared_modules") or {}).get("ledgers", {})
    result = {}
    for player in scenario.player_ids():
        books = raw.get(player, {})

        def ledger(
            kind: str, player: str = player, books: Mapping[str, Any] = books
        ) -> tuple[LedgerEntry, ...]:
            return tuple(
                LedgerEntry(int(e["amount"]), str(e["reason"]), e.get("turn"))
                for e in books.get(kind, ())
            )

        result[player] = PlayerLedgers(
            player,
            PointsLedger("threat", player, ledger("threat")),
            PointsLedger("command", player, ledger("command")),
        )
    return result
