"""``game.scrollhammer``: the Scrollhammer mission state in a scenario file.

Keys (all optional):

- ``turn`` (1-7): the game turn; ``deployed_first``, ``first_player``: player ids.
- ``destroyed``, ``reserves``, ``ongoing_reserves``, ``arrived_from_reserve``: unit ids.
- ``control_choices``: ``{unit id: objective id}``, the objective a unit is declared to control.
- ``terrain_density``: ``{section id: D6}``; ``night_fighting_rolls``: ``{"0": D6, "5": D6}``
  (``"0"`` is the roll before deployment, ``"t"`` the roll at the start of game turn t).
- ``standards_taken``: ``[{"player": id, "bearer": unit or model id}]``.
- ``challenges``: ``[{"winner": unit or model id, "loser": unit or model id, "slain": bool}]``.
- ``relic``: ``{"carrier": model id, "result": 2-12, "seized_turn": t, "passed_this_phase":
  bool, "removed": bool, "captured_by": player id}``.
- ``conceded``: the id of a player who conceded.

:data:`GAME_SECTION_CHECK` validates it with the checks of :mod:`engine.game_state`.

>>> from engine.game_state import GameIds
>>> ids = GameIds(players=frozenset({"red", "blue"}), units=frozenset({"u1"}))
>>> problems = GAME_SECTION_CHECK({"turn": 8, "destroyed": ["u2"]}, "game.scrollhammer", ids)
>>> [p.path for p in problems]
['game.scrollhammer.turn', 'game.scrollhammer.destroyed[0]']
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from engine.errors import Problem
from engine.game_state import (
    GameCheck,
    GameIds,
    integer_check,
    list_check,
    object_check,
    reference_check,
)
from engine.model import Scenario


def _bool_check(value: object, path: str, ids: GameIds) -> list[Problem]:
    if not isinstance(value, bool):
        return [Problem(path, f"must be true or false, got {value!r}")]
    return []


def _unit_or_model(value: object, path: str, ids: GameIds) -> list[Problem]:
    if isinstance(value, str) and (value in ids.units or value in ids.models):
        return []
    return [Problem(path, f"must be a unit or model id, got {value!r}")]


def _map_check(key: GameCheck, item: GameCheck) -> GameCheck:
    def check(value: object, path: str, ids: GameIds) -> list[Problem]:
        if not isinstance(value, Mapping):
            return [Problem(path, "must be an object")]
        problems: list[Problem] = []
        for k, v in value.items():
            problems.extend(key(k, f"{path}.{k}", ids))
            problems.extend(item(v, f"{path}.{k}", ids))
        return problems

    return check


def _any_text(value: object, path: str, ids: GameIds) -> list[Problem]:
    return [] if isinstance(value, str) and value else [Problem(path, "must be a non-empty key")]


def _turn_key(value: object, path: str, ids: GameIds) -> list[Problem]:
    if isinstance(value, str) and value.isdigit() and 0 <= int(value) <= 7:
        return []
    return [Problem(path, "must be '0' (before deployment) or a game turn '1'-'7'")]


GAME_SECTION_CHECK: GameCheck = object_check(
    {
        "turn": integer_check(1, 7),
        "deployed_first": reference_check("players"),
        "first_player": reference_check("players"),
        "destroyed": list_check(reference_check("units")),
        "reserves": list_check(reference_check("units")),
        "ongoing_reserves": list_check(reference_check("units")),
        "arrived_from_reserve": list_check(reference_check("units")),
        "control_choices": _map_check(reference_check("units"), reference_check("objectives")),
        "terrain_density": _map_check(_any_text, integer_check(1, 6)),
        "night_fighting_rolls": _map_check(_turn_key, integer_check(1, 6)),
        "standards_taken": list_check(
            object_check(
                {"player": reference_check("players"), "bearer": _unit_or_model},
                required=("player", "bearer"),
            )
        ),
        "challenges": list_check(
            object_check(
                {"winner": _unit_or_model, "loser": _unit_or_model, "slain": _bool_check},
                required=("winner", "loser"),
            )
        ),
        "relic": object_check(
            {
                "carrier": reference_check("models"),
                "result": integer_check(2, 12),
                "seized_turn": integer_check(1, 7),
                "passed_this_phase": _bool_check,
                "removed": _bool_check,
                "captured_by": reference_check("players"),
            }
        ),
        "conceded": reference_check("players"),
    }
)
"""The check of ``game.scrollhammer`` for :data:`engine.game_state.GAME_KEYS`."""


@dataclass(frozen=True)
class Challenge:
    """A challenge fought in Field of Glory: who won, who lost, whether the loser was slain."""

    winner: str
    loser: str
    slain: bool = True


@dataclass(frozen=True)
class ScrollhammerState:
    """A typed view of ``game.scrollhammer`` (every key optional)."""

    turn: int | None = None
    deployed_first: str | None = None
    first_player: str | None = None
    destroyed: frozenset[str] = frozenset()
    reserves: frozenset[str] = frozenset()
    ongoing_reserves: frozenset[str] = frozenset()
    arrived_from_reserve: frozenset[str] = frozenset()
    control_choices: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    terrain_density: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    night_fighting_rolls: Mapping[int, int] = field(default_factory=lambda: MappingProxyType({}))
    standards_taken: tuple[tuple[str, str], ...] = ()
    challenges: tuple[Challenge, ...] = ()
    relic: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    conceded: str | None = None

    @classmethod
    def from_scenario(cls, scenario: Scenario) -> ScrollhammerState:
        raw: Mapping[str, Any] = (scenario.game or {}).get("scrollhammer") or {}
        return cls(
            turn=raw.get("turn"),
            deployed_first=raw.get("deployed_first"),
            first_player=raw.get("first_player"),
            destroyed=frozenset(raw.get("destroyed", ())),
            reserves=frozenset(raw.get("reserves", ())),
            ongoing_reserves=frozenset(raw.get("ongoing_reserves", ())),
            arrived_from_reserve=frozenset(raw.get("arrived_from_reserve", ())),
            control_choices=MappingProxyType(dict(raw.get("control_choices", {}))),
            terrain_density=MappingProxyType(
                {str(k): int(v) for k, v in raw.get("terrain_density", {}).items()}
            ),
            night_fighting_rolls=MappingProxyType(
                {int(k): int(v) for k, v in raw.get("night_fighting_rolls", {}).items()}
            ),
            standards_taken=tuple(
                (str(s["player"]), str(s["bearer"])) for s in raw.get("standards_taken", ())
            ),
            challenges=tuple(
                Challenge(str(c["winner"]), str(c["loser"]), bool(c.get("slain", True)))
                for c in raw.get("challenges", ())
            ),
            relic=MappingProxyType(dict(raw.get("relic", {}))),
            conceded=raw.get("conceded"),
        )
