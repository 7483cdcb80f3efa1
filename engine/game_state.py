"""The ``game`` section of a scenario: the moment in the battle and the mission state.

Validation is table-driven: :data:`GAME_KEYS` maps each key of ``game`` to its check, and
:data:`PLAYER_KEYS` each key of ``game.players.<id>``. A new key is one entry in a table, made
from the small check builders below (or any function ``(value, path, ids) -> list[Problem]``).
Unknown keys are errors.

>>> ids = GameIds(players=frozenset({"red", "blue"}))
>>> validate_game({"battle_round": 2, "active_player": "red"}, "game", ids)
[]
>>> [str(p) for p in validate_game({"battle_round": 6}, "game", ids)]
['game.battle_round: must be an integer from 1 to 5, got 6']
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal, cast

from engine.errors import Problem

if TYPE_CHECKING:
    from engine.model import Scenario

TIMINGS = ("start_of_turn", "end_of_command_phase", "end_of_turn", "end_of_battle")
SECONDARY_MODES = ("tactical", "fixed")
BATTLE_ROUNDS = (1, 5)

Timing = Literal["start_of_turn", "end_of_command_phase", "end_of_turn", "end_of_battle"]
SecondaryMode = Literal["tactical", "fixed"]


@dataclass(frozen=True)
class GameIds:
    """The ids a ``game`` section may refer to, by kind."""

    players: frozenset[str]
    units: frozenset[str] = frozenset()
    models: frozenset[str] = frozenset()
    objectives: frozenset[str] = frozenset()
    markers: frozenset[str] = frozenset()
    terrain: frozenset[str] = frozenset()

    def of_kind(self, kind: str) -> frozenset[str]:
        known: frozenset[str] = getattr(self, kind)
        return known


GameCheck = Callable[[object, str, GameIds], list[Problem]]


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _show(value: object) -> str:
    if isinstance(value, str):
        return repr(value) if len(value) <= 40 else repr(value[:37] + "...")
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Mapping):
        return "an object"
    if isinstance(value, list | tuple):
        return "an array"
    if isinstance(value, float) and not math.isfinite(value):
        return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
    return str(value)


# ---------------------------------------------------------------------------------------------
# Check builders


def text_check() -> GameCheck:
    """A non-empty string."""

    def check(value: object, path: str, ids: GameIds) -> list[Problem]:
        if not isinstance(value, str) or not value.strip():
            return [Problem(path, f"must be a non-empty string, got {_show(value)}")]
        return []

    return check


def integer_check(lowest: int, highest: int | None = None) -> GameCheck:
    """An integer in ``lowest..highest`` (no upper bound when ``highest`` is None)."""

    def check(value: object, path: str, ids: GameIds) -> list[Problem]:
        if isinstance(value, bool) or not isinstance(value, int):
            return [Problem(path, f"must be an integer, got {_show(value)}")]
        if value < lowest or (highest is not None and value > highest):
            if highest is None:
                return [Problem(path, f"must be an integer of at least {lowest}, got {value}")]
            return [Problem(path, f"must be an integer from {lowest} to {highest}, got {value}")]
        return []

    return check


def choice_check(options: Sequence[str]) -> GameCheck:
    """One of ``options``."""

    def check(value: object, path: str, ids: GameIds) -> list[Problem]:
        if not isinstance(value, str) or value not in options:
            return [Problem(path, f"must be one of {', '.join(options)}; got {_show(value)}")]
        return []

    return check


def reference_check(kind: str) -> GameCheck:
    """The id of an element of ``kind`` (``players``, ``units``, ``objectives``...)."""

    def check(value: object, path: str, ids: GameIds) -> list[Problem]:
        known = ids.of_kind(kind)
        if not isinstance(value, str) or value not in known:
            listed = ", ".join(sorted(known)) or "none"
            return [Problem(path, f"must be one of the {kind} ids ({listed}); got {_show(value)}")]
        return []

    return check


def list_check(item: GameCheck) -> GameCheck:
    """An array whose every item passes ``item``."""

    def check(value: object, path: str, ids: GameIds) -> list[Problem]:
        if not isinstance(value, list | tuple):
            return [Problem(path, f"must be an array, got {_show(value)}")]
        problems: list[Problem] = []
        for i, element in enumerate(value):
            problems.extend(item(element, f"{path}[{i}]", ids))
        return problems

    return check


def object_check(keys: Mapping[str, GameCheck], required: Sequence[str] = ()) -> GameCheck:
    """An object whose keys are all in ``keys``, each passing its check."""

    def check(value: object, path: str, ids: GameIds) -> list[Problem]:
        return _check_object(value, path, ids, keys, required)

    return check


def _check_object(
    value: object,
    path: str,
    ids: GameIds,
    keys: Mapping[str, GameCheck],
    required: Sequence[str] = (),
) -> list[Problem]:
    if not isinstance(value, Mapping):
        return [Problem(path, f"must be an object, got {_show(value)}")]
    problems: list[Problem] = []
    for key, element in value.items():
        check = keys.get(key)
        if check is None:
            allowed = ", ".join(keys)
            problems.append(Problem(_join(path, str(key)), f"unknown key (allowed: {allowed})"))
            continue
        problems.extend(check(element, _join(path, key), ids))
    problems.extend(
        Problem(_join(path, k), "missing required key") for k in required if k not in value
    )
    return problems


def _check_players(value: object, path: str, ids: GameIds) -> list[Problem]:
    if not isinstance(value, Mapping):
        return [Problem(path, f"must be an object keyed by player id, got {_show(value)}")]
    problems: list[Problem] = []
    for player_id, entry in value.items():
        entry_path = _join(path, str(player_id))
        if player_id not in ids.players:
            listed = ", ".join(sorted(ids.players)) or "none"
            problems.append(
                Problem(entry_path, f"unknown player {_show(player_id)}; known: {listed}")
            )
        problems.extend(_check_object(entry, entry_path, ids, PLAYER_KEYS))
    return problems


# ---------------------------------------------------------------------------------------------
# The tables


PLAYER_KEYS: dict[str, GameCheck] = {
    "force_disposition": text_check(),
    "primary": text_check(),
    "secondary_mode": choice_check(SECONDARY_MODES),
    "secondaries": list_check(text_check()),
    "vp": integer_check(0),
    "cp": integer_check(0),
}
"""Checks of the keys of ``game.players.<player id>``."""

GAME_KEYS: dict[str, GameCheck] = {
    "battle_round": integer_check(*BATTLE_ROUNDS),
    "active_player": reference_check("players"),
    "timing": choice_check(TIMINGS),
    "twist": text_check(),
    "players": _check_players,
}
"""Checks of the keys of ``game``."""


def validate_game(data: object, path: str, ids: GameIds) -> list[Problem]:
    """Every problem with a ``game`` section at JSON path ``path`` (empty when it is valid).

    >>> ids = GameIds(players=frozenset({"red", "blue"}))
    >>> [str(p) for p in validate_game({"players": {"green": {"vp": -1}}}, "game", ids)]
    ["game.players.green: unknown player 'green'; known: blue, red", \
'game.players.green.vp: must be an integer of at least 0, got -1']
    """
    return _check_object(data, path, ids, GAME_KEYS)


# ---------------------------------------------------------------------------------------------
# Typed view


@dataclass(frozen=True)
class PlayerGameState:
    """One player's mission state."""

    force_disposition: str | None = None
    primary: str | None = None
    secondary_mode: SecondaryMode | None = None
    secondaries: tuple[str, ...] = ()
    vp: int = 0
    cp: int = 0


@dataclass(frozen=True)
class GameState:
    """A typed view of a scenario's (already validated) ``game`` section.

    ``raw`` is the whole frozen section, including keys this view does not type.

    >>> from engine.model import Player, Scenario, freeze
    >>> s = Scenario("wh40k-ca2026", (Player("red"), Player("blue")),
    ...              game=freeze({"battle_round": 2, "players": {"red": {"vp": 7}}}))
    >>> state = GameState.from_scenario(s)
    >>> state.battle_round, state.player("red").vp, state.player("blue").vp
    (2, 7, 0)
    """

    battle_round: int | None = None
    active_player: str | None = None
    timing: Timing | None = None
    twist: str | None = None
    players: Mapping[str, PlayerGameState] = field(default_factory=lambda: MappingProxyType({}))
    raw: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    @classmethod
    def from_scenario(cls, scenario: Scenario) -> GameState:
        """The game state of ``scenario`` (all defaults when it has no ``game`` section)."""
        raw: Mapping[str, Any] = scenario.game or MappingProxyType({})
        players_raw: Mapping[str, Mapping[str, Any]] = raw.get("players", {})
        players = {
            player_id: PlayerGameState(
                force_disposition=entry.get("force_disposition"),
                primary=entry.get("primary"),
                secondary_mode=entry.get("secondary_mode"),
                secondaries=tuple(entry.get("secondaries", ())),
                vp=entry.get("vp", 0),
                cp=entry.get("cp", 0),
            )
            for player_id, entry in players_raw.items()
        }
        return cls(
            battle_round=raw.get("battle_round"),
            active_player=raw.get("active_player"),
            timing=cast(Timing | None, raw.get("timing")),
            twist=raw.get("twist"),
            players=MappingProxyType(players),
            raw=raw,
        )

    def player(self, player_id: str) -> PlayerGameState:
        """A player's state; a player the section does not mention has the defaults."""
        return self.players.get(player_id, PlayerGameState())
