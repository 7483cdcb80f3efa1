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

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal, cast

from engine.errors import Problem, UnknownReferenceError
from engine.format_messages import join as _join
from engine.format_messages import show as _show
from engine.format_messages import unknown_name
from engine.limits import MAX_COUNT, MAX_GAME_LIST, MAX_SEED
from engine.rulesets import RULESET_IDS, ruleset_for

if TYPE_CHECKING:
    from engine.model import Scenario, Unit
    from engine.rulesets.base import Ruleset

TIMINGS = ("start_of_turn", "end_of_command_phase", "end_of_turn", "end_of_battle")
SECONDARY_MODES = ("tactical", "fixed")
BATTLE_ROUNDS = (1, 5)
"""The battle rounds of a ``game`` whose rule system is unknown; a known one's last round is
its ``Ruleset.longest_game``."""

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
    ruleset: str = ""

    def of_kind(self, kind: str) -> frozenset[str]:
        known: frozenset[str] = getattr(self, kind)
        return known


GameCheck = Callable[[object, str, GameIds], list[Problem]]


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
    """An integer in ``lowest..highest`` (up to :data:`~engine.limits.MAX_COUNT` when
    ``highest`` is None)."""
    top = MAX_COUNT if highest is None else highest

    def check(value: object, path: str, ids: GameIds) -> list[Problem]:
        if isinstance(value, bool) or not isinstance(value, int):
            return [Problem(path, f"must be an integer, got {_show(value)}")]
        if value < lowest and highest is None:
            return [Problem(path, f"must be an integer of at least {lowest}, got {value}")]
        if not lowest <= value <= top:
            return [Problem(path, f"must be an integer from {lowest} to {top}, got {_show(value)}")]
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
    label = kind.removesuffix("s")

    def check(value: object, path: str, ids: GameIds) -> list[Problem]:
        known = ids.of_kind(kind)
        if not isinstance(value, str):
            return [Problem(path, f"must be a {label} id (a string), got {_show(value)}")]
        if value not in known:
            listed = ", ".join(sorted(known)) or "none"
            return [Problem(path, f"unknown {label} {_show(value)}; known: {listed}")]
        return []

    return check


def list_check(item: GameCheck, longest: int = MAX_GAME_LIST, distinct: bool = False) -> GameCheck:
    """An array of at most ``longest`` items, each passing ``item`` (and all different when
    ``distinct``)."""

    def check(value: object, path: str, ids: GameIds) -> list[Problem]:
        if not isinstance(value, list | tuple):
            return [Problem(path, f"must be an array, got {_show(value)}")]
        if len(value) > longest:
            return [Problem(path, f"must have at most {longest} items, got {len(value)}")]
        problems: list[Problem] = []
        seen: set[object] = set()
        for i, element in enumerate(value):
            problems.extend(item(element, f"{path}[{i}]", ids))
            if distinct and isinstance(element, str):
                if element in seen:
                    problems.append(Problem(f"{path}[{i}]", f"{_show(element)} is listed twice"))
                seen.add(element)
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
# Check builders for the mission keys (deck contents, events, statuses;
# engine.rulesets.wh40k_ca2026)


def bool_check() -> GameCheck:
    """``true`` or ``false``."""

    def check(value: object, path: str, ids: GameIds) -> list[Problem]:
        if not isinstance(value, bool):
            return [Problem(path, f"must be true or false, got {_show(value)}")]
        return []

    return check


def any_integer_check(low: int = -MAX_COUNT, high: int = MAX_COUNT) -> GameCheck:
    """An integer of any sign within ``low .. high`` (a CP change in a deck's log)."""

    def check(value: object, path: str, ids: GameIds) -> list[Problem]:
        if isinstance(value, bool) or not isinstance(value, int):
            return [Problem(path, f"must be an integer, got {_show(value)}")]
        if not low <= value <= high:
            return [Problem(path, f"must be an integer from {low} to {high}, got {_show(value)}")]
        return []

    return check


def free_object_check() -> GameCheck:
    """Any JSON object (selections a card records, a generator set-up)."""

    def check(value: object, path: str, ids: GameIds) -> list[Problem]:
        if not isinstance(value, Mapping):
            return [Problem(path, f"must be an object, got {_show(value)}")]
        return []

    return check


def secondary_card_check() -> GameCheck:
    """The printed name of a Chapter Approved 2026-27 Secondary Mission."""

    def check(value: object, path: str, ids: GameIds) -> list[Problem]:
        from engine.rulesets.wh40k_ca2026.cards import secondary_missions

        names = [c.name for c in secondary_missions()]
        if not isinstance(value, str) or value not in names:
            if not isinstance(value, str):
                message = f"must be a Secondary Mission name as printed, got {_show(value)}"
                return [Problem(path, message)]
            return [Problem(path, unknown_name("Secondary Mission", value, names))]
        return []

    return check


def card_name_check(kind: str) -> GameCheck:
    """A name the Chapter Approved 2026-27 data knows (``engine.rulesets.wh40k_ca2026.cards``):
    a ``"primary"`` or ``"secondary"`` Mission, a ``"twist"`` or a ``"force disposition"``, as
    the engine looks it up (by printed name or id, in any case)."""

    def check(value: object, path: str, ids: GameIds) -> list[Problem]:
        from engine.errors import UnknownReferenceError
        from engine.rulesets.wh40k_ca2026 import cards

        if not isinstance(value, str) or not value.strip():
            return [Problem(path, f"must be a non-empty string, got {_show(value)}")]
        lookups: dict[str, tuple[Callable[[str], object], Callable[[], list[str]]]] = {
            "Primary Mission": (
                lambda name: cards.card(name, "primary"),
                lambda: [c.name for c in cards.primary_missions()],
            ),
            "Secondary Mission": (
                lambda name: cards.card(name, "secondary"),
                lambda: [c.name for c in cards.secondary_missions()],
            ),
            "twist": (cards.twist, lambda: [t.id for t in cards.twists()]),
            "Force Disposition": (
                cards.force_disposition,
                lambda: [f.name for f in cards.force_dispositions()],
            ),
        }
        find, known = lookups[kind]
        try:
            find(value)
        except UnknownReferenceError:
            return [Problem(path, unknown_name(kind, value, known()))]
        return []

    return check


def card_choices_check() -> GameCheck:
    """An object from Secondary Mission names to the selections made for them (a file without a
    deck records a Beacon unit, a tempting target or guards this way)."""

    def check(value: object, path: str, ids: GameIds) -> list[Problem]:
        if not isinstance(value, Mapping):
            return [Problem(path, f"must be an object, got {_show(value)}")]
        problems: list[Problem] = []
        for name, choices in value.items():
            problems.extend(secondary_card_check()(name, _join(path, str(name)), ids))
            problems.extend(free_object_check()(choices, _join(path, str(name)), ids))
        return problems

    return check


DECK_CARD_KEYS: dict[str, GameCheck] = {
    "card": secondary_card_check(),
    "drawn_round": integer_check(0, BATTLE_ROUNDS[1]),
    "choices": free_object_check(),
    "offers": list_check(choice_check(("reshuffle_and_draw", "discard_and_draw"))),
    "needs": list_check(text_check()),
}

DECK_EVENT_KEYS: dict[str, GameCheck] = {
    "kind": text_check(),
    "cards": list_check(secondary_card_check()),
    "text": text_check(),
    "battle_round": integer_check(0, BATTLE_ROUNDS[1]),
    "cp": any_integer_check(),
    "vp": integer_check(0),
}

DECK_KEYS: dict[str, GameCheck] = {
    "mode": choice_check(SECONDARY_MODES),
    "seed": any_integer_check(-MAX_SEED - 1, MAX_SEED),
    "shuffles": integer_check(0),
    "draw_pile": list_check(secondary_card_check()),
    "active": list_check(object_check(DECK_CARD_KEYS, required=("card",))),
    "discard_pile": list_check(secondary_card_check()),
    "achieved": list_check(secondary_card_check()),
    "cp_discard_draw_used": bool_check(),
    "log": list_check(object_check(DECK_EVENT_KEYS, required=("kind",))),
}
"""``game.players.<id>.deck``: an ``engine.rulesets.wh40k_ca2026.decks.DeckState`` as JSON."""

DESTROYED_UNIT_KEYS: dict[str, GameCheck] = {
    "unit": text_check(),
    "player": reference_check("players"),
    "name": text_check(),
    "by": text_check(),
    "by_within_objective_range": bool_check(),
    "started_within_objective_range": bool_check(),
    "started_within_central_objective_range": bool_check(),
    "started_within_terrain": list_check(reference_check("terrain")),
    "starting_strength": integer_check(1),
}
"""An entry of ``game.destroyed_this_turn``: the unit, its owner (``player``), the unit that
destroyed it, and where it started the turn. The unit may be off the table now and gone from
the file, so ``unit`` is either the id of a unit in the file or comes with the unit's ``name``
(see :func:`destroyed_unit_check`)."""


def _edit_distance(a: str, b: str) -> int:
    """The Levenshtein distance between two ids (insertions, deletions, substitutions)."""
    row = list(range(len(b) + 1))
    for i, char_a in enumerate(a, 1):
        previous, row[0] = row[0], i
        for j, char_b in enumerate(b, 1):
            previous, row[j] = row[j], min(
                row[j] + 1, row[j - 1] + 1, previous + (char_a != char_b)
            )
    return row[-1]


TYPO_DISTANCE = 2
"""How close (in edits) an unknown unit id must be to a unit of the file to be taken for a
typo of it."""


def destroyed_unit_check() -> GameCheck:
    """An entry of ``game.destroyed_this_turn`` / ``destroyed_previous_turn``: its keys, and a
    ``unit`` that is a unit of the file, carries the destroyed unit's ``name``, or is no typo
    of a unit of the file (a destroyed unit may be gone from the table, and files recording one
    open as they did; an id a couple of edits from a unit of the file is taken for a typo).

    >>> ids = GameIds(players=frozenset({"red", "blue"}), units=frozenset({"red-squad"}))
    >>> check = destroyed_unit_check()
    >>> check({"unit": "red-squad", "player": "red"}, "d", ids)
    []
    >>> check({"unit": "red-tank", "player": "red", "name": "Tank"}, "d", ids)
    []
    >>> check({"unit": "tank", "player": "red"}, "d", ids)
    []
    >>> [str(p) for p in check({"unit": "red-sqad", "player": "red"}, "d", ids)]
    ['d.unit: unknown unit "red-sqad"; did you mean "red-squad"? (a unit gone from the file \
needs its "name")']
    """
    keys = object_check(DESTROYED_UNIT_KEYS, required=("unit", "player"))

    def check(value: object, path: str, ids: GameIds) -> list[Problem]:
        problems = keys(value, path, ids)
        if problems or not isinstance(value, Mapping):
            return problems
        unit = value["unit"]
        if unit in ids.units or "name" in value:
            return []
        close = sorted(u for u in ids.units if _edit_distance(unit, u) <= TYPO_DISTANCE)
        if not close:
            return []
        return [
            Problem(
                _join(path, "unit"),
                f"unknown unit {_show(unit)}; did you mean {' or '.join(_show(u) for u in close)}?"
                ' (a unit gone from the file needs its "name")',
            )
        ]

    return check


DESTROYED_MODEL_KEYS: dict[str, GameCheck] = {
    "model": text_check(),
    "player": reference_check("players"),
    "wounds": integer_check(1),
    "keywords": list_check(text_check()),
}
"""An entry of ``game.models_destroyed_this_turn`` (Assassination, Bring It Down)."""

COMPLETED_ACTION_KEYS: dict[str, GameCheck] = {
    "action": text_check(),
    "unit": text_check(),
    "objective": reference_check("objectives"),
    "terrain": reference_check("terrain"),
}
"""An entry of ``game.players.<id>.actions_completed_this_turn``."""

OBJECTIVE_STATUSES = ("decoyed", "triangulated", "consecrated")


# ---------------------------------------------------------------------------------------------
# The tables


PLAYER_KEYS: dict[str, GameCheck] = {
    "force_disposition": card_name_check("Force Disposition"),
    "primary": card_name_check("Primary Mission"),
    "secondary_mode": choice_check(SECONDARY_MODES),
    "secondaries": list_check(card_name_check("Secondary Mission"), longest=20, distinct=True),
    "vp": integer_check(0),
    "cp": integer_check(0),
    "deck": object_check(DECK_KEYS, required=("mode",)),
    "vp_this_round": integer_check(0),
    "controlled_at_start_of_turn": list_check(reference_check("objectives")),
    "actions_completed_this_turn": list_check(
        object_check(COMPLETED_ACTION_KEYS, required=("action",))
    ),
    "objective_status": object_check(
        {
            **{status: list_check(reference_check("objectives")) for status in OBJECTIVE_STATUSES},
            "trapped": list_check(reference_check("terrain")),
        }
    ),
    "condemned": list_check(text_check()),
    "surveilled_this_turn": list_check(text_check()),
    "card_choices": card_choices_check(),
    "all_characters_destroyed": bool_check(),
}
"""Checks of the keys of ``game.players.<player id>``."""


def _check_deployment_record(value: object, path: str, ids: GameIds) -> list[Problem]:
    """``game.deployment`` (:mod:`engine.deploy_order`): ``first`` a player, ``reserves`` and
    ``order`` unit ids, each listed once, no unit both declared in reserves and set up."""
    problems = object_check(DEPLOYMENT_KEYS)(value, path, ids)
    if problems or not isinstance(value, Mapping):
        return problems
    declared = {str(u): i for i, u in enumerate(value.get("reserves", ()))}
    for i, unit_id in enumerate(value.get("order", ())):
        if unit_id in declared:
            problems.append(
                Problem(
                    f"{path}.order[{i}]",
                    f"{_show(unit_id)} is declared in reserves ({path}.reserves"
                    f"[{declared[unit_id]}]) and cannot be set up",
                )
            )
    return problems


DEPLOYMENT_KEYS: dict[str, GameCheck] = {
    "first": reference_check("players"),
    "reserves": list_check(reference_check("units"), distinct=True),
    "order": list_check(reference_check("units"), distinct=True),
}
"""Checks of the keys of ``game.deployment``."""


def _ruleset_of(ids: GameIds) -> Ruleset | None:
    """The rule system the ids belong to (none for a file whose ``ruleset`` is invalid)."""
    try:
        return ruleset_for(ids.ruleset)
    except UnknownReferenceError:
        return None


def _check_battle_round(value: object, path: str, ids: GameIds) -> list[Problem]:
    ruleset = _ruleset_of(ids)
    last = BATTLE_ROUNDS[1] if ruleset is None else ruleset.longest_game
    return integer_check(BATTLE_ROUNDS[0], last)(value, path, ids)


GAME_KEYS: dict[str, GameCheck] = {
    "battle_round": _check_battle_round,
    "active_player": reference_check("players"),
    "timing": choice_check(TIMINGS),
    "twist": card_name_check("twist"),
    "players": _check_players,
    "first_player": reference_check("players"),
    "setup": free_object_check(),
    "destroyed_this_turn": list_check(destroyed_unit_check()),
    "destroyed_previous_turn": list_check(destroyed_unit_check()),
    "models_destroyed_this_turn": list_check(
        object_check(DESTROYED_MODEL_KEYS, required=("model", "player"))
    ),
    "left_battlefield_this_turn": list_check(text_check()),
    "deployment": _check_deployment_record,
}
"""Checks of the keys of ``game`` every rule system shares; a rule system adds its own
sections (``Ruleset.game_section_checks``: ``game.scrollhammer``, ``game.shared_modules``)."""


def validate_game(data: object, path: str, ids: GameIds) -> list[Problem]:
    """Every problem with a ``game`` section at JSON path ``path`` (empty when it is valid):
    the shared keys, and the sections of the rule systems (another system's section is checked
    by that system and kept without effect: a file that changed rule system still opens).

    >>> ids = GameIds(players=frozenset({"red", "blue"}))
    >>> [str(p) for p in validate_game({"players": {"green": {"vp": -1}}}, "game", ids)]
    ['game.players.green: unknown player "green"; known: blue, red', \
'game.players.green.vp: must be an integer of at least 0, got -1']
    >>> ca = GameIds(players=frozenset({"red", "blue"}), ruleset="wh40k-ca2026")
    >>> validate_game({"scrollhammer": {}}, "game", ca)
    []
    """
    own = _ruleset_of(ids)
    if own is None:
        return _check_object(data, path, ids, GAME_KEYS)
    keys = {**GAME_KEYS, **own.game_section_checks}
    for other in map(ruleset_for, RULESET_IDS):
        for key, check in other.game_section_checks.items():
            keys.setdefault(key, check)
    return _check_object(data, path, ids, keys)


def with_departed_units_named(scenario: Scenario, removed: Sequence[Unit]) -> Scenario:
    """``scenario`` whose destroyed-unit records (``game.destroyed_this_turn``,
    ``destroyed_previous_turn``) of the ``removed`` units carry their ``name``, so the record
    stays valid once the unit is gone from the file (its name, or its id if it has none).

    >>> from engine.model import Player, Scenario, Unit, freeze
    >>> gone = Unit("red-u", "red", (), name="Intercessors")
    >>> s = Scenario("wh40k-ca2026", (Player("red"), Player("blue")),
    ...              game=freeze({"destroyed_this_turn": [{"unit": "red-u", "player": "red"}]}))
    >>> with_departed_units_named(s, [gone]).game["destroyed_this_turn"][0]["name"]
    'Intercessors'
    """
    from dataclasses import replace

    from engine.model import freeze, thaw

    names = {unit.id: unit.name.strip() or unit.id for unit in removed}
    game = thaw(scenario.game) if scenario.game is not None else None
    if not isinstance(game, dict) or not names:
        return scenario
    changed = False
    for key in ("destroyed_this_turn", "destroyed_previous_turn"):
        for record in game.get(key) or ():
            if isinstance(record, dict) and record.get("unit") in names and "name" not in record:
                record["name"] = names[record["unit"]]
                changed = True
    return replace(scenario, game=freeze(game)) if changed else scenario


# ---------------------------------------------------------------------------------------------
# Typed views
#
# What the engine reads of ``game``. A list the file does not record is ``None`` (the engine
# counts conditions it cannot decide as not met, and says so), an empty list is a record of
# nothing.


_NO_MAPPING: Mapping[str, Any] = MappingProxyType({})


def _texts(value: Any) -> tuple[str, ...]:
    return tuple(str(item) for item in value or ())


def _recorded(section: Mapping[str, Any], key: str) -> tuple[Mapping[str, Any], ...] | None:
    return tuple(section[key]) if key in section else None


@dataclass(frozen=True)
class DestroyedUnit:
    """An entry of ``game.destroyed_this_turn`` or ``destroyed_previous_turn``."""

    unit: str
    player: str
    name: str | None = None
    """The unit's name, recorded for a unit no longer in the file."""
    by: str | None = None
    by_within_objective_range: bool = False
    started_within_objective_range: bool = False
    started_within_central_objective_range: bool = False
    started_within_terrain: tuple[str, ...] = ()
    starting_strength: int = 0

    @classmethod
    def of(cls, raw: Mapping[str, Any]) -> DestroyedUnit:
        return cls(
            unit=str(raw["unit"]),
            player=str(raw["player"]),
            name=raw.get("name"),
            by=raw.get("by"),
            by_within_objective_range=bool(raw.get("by_within_objective_range", False)),
            started_within_objective_range=bool(raw.get("started_within_objective_range", False)),
            started_within_central_objective_range=bool(
                raw.get("started_within_central_objective_range", False)
            ),
            started_within_terrain=_texts(raw.get("started_within_terrain")),
            starting_strength=int(raw.get("starting_strength", 0)),
        )


@dataclass(frozen=True)
class DestroyedModel:
    """An entry of ``game.models_destroyed_this_turn``."""

    model: str
    player: str
    wounds: int = 0
    keywords: tuple[str, ...] = ()

    @classmethod
    def of(cls, raw: Mapping[str, Any]) -> DestroyedModel:
        return cls(
            str(raw["model"]),
            str(raw["player"]),
            int(raw.get("wounds", 0)),
            _texts(raw.get("keywords")),
        )


@dataclass(frozen=True)
class CompletedAction:
    """An entry of ``game.players.<id>.actions_completed_this_turn``."""

    action: str
    unit: str | None = None
    objective: str | None = None
    terrain: str | None = None

    @classmethod
    def of(cls, raw: Mapping[str, Any]) -> CompletedAction:
        return cls(str(raw["action"]), raw.get("unit"), raw.get("objective"), raw.get("terrain"))


@dataclass(frozen=True)
class PlayerGameState:
    """One player's mission state (``game.players.<id>``)."""

    force_disposition: str | None = None
    primary: str | None = None
    secondary_mode: SecondaryMode | None = None
    secondaries: tuple[str, ...] = ()
    vp: int = 0
    cp: int = 0
    deck: Mapping[str, Any] | None = None
    """The saved Secondary deck's JSON (``engine.rulesets.wh40k_ca2026.decks.DeckState``)."""
    vp_this_round: int = 0
    controlled_at_start_of_turn: tuple[str, ...] | None = None
    actions_completed_this_turn: tuple[CompletedAction, ...] | None = None
    objective_status: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: _NO_MAPPING)
    condemned: tuple[str, ...] | None = None
    surveilled_this_turn: tuple[str, ...] | None = None
    card_choices: Mapping[str, Mapping[str, Any]] = field(default_factory=lambda: _NO_MAPPING)
    all_characters_destroyed: bool = False

    @classmethod
    def of(cls, raw: Mapping[str, Any]) -> PlayerGameState:
        def listed(key: str) -> tuple[str, ...] | None:
            return _texts(raw[key]) if key in raw else None

        actions = raw.get("actions_completed_this_turn")
        return cls(
            force_disposition=raw.get("force_disposition"),
            primary=raw.get("primary"),
            secondary_mode=raw.get("secondary_mode"),
            secondaries=_texts(raw.get("secondaries")),
            vp=int(raw.get("vp", 0)),
            cp=int(raw.get("cp", 0)),
            deck=raw.get("deck"),
            vp_this_round=int(raw.get("vp_this_round", 0)),
            controlled_at_start_of_turn=listed("controlled_at_start_of_turn"),
            actions_completed_this_turn=(
                None if actions is None else tuple(CompletedAction.of(a) for a in actions)
            ),
            objective_status=MappingProxyType(
                {k: _texts(v) for k, v in raw.get("objective_status", {}).items()}
            ),
            condemned=listed("condemned"),
            surveilled_this_turn=listed("surveilled_this_turn"),
            card_choices=MappingProxyType(dict(raw.get("card_choices", {}))),
            all_characters_destroyed=bool(raw.get("all_characters_destroyed", False)),
        )

    def choices_for(self, card_name: str) -> Mapping[str, Any]:
        """What the player chose for an active Secondary (the deck's record first)."""
        if self.deck:
            for active in self.deck.get("active", ()):
                if active.get("card") == card_name:
                    choices: Mapping[str, Any] = active.get("choices", _NO_MAPPING)
                    return choices
        return self.card_choices.get(card_name, _NO_MAPPING)


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
    >>> state.destroyed_this_turn is None
    True
    """

    battle_round: int | None = None
    active_player: str | None = None
    timing: Timing | None = None
    twist: str | None = None
    first_player: str | None = None
    players: Mapping[str, PlayerGameState] = field(default_factory=lambda: MappingProxyType({}))
    destroyed_this_turn: tuple[DestroyedUnit, ...] | None = None
    destroyed_previous_turn: tuple[DestroyedUnit, ...] | None = None
    models_destroyed_this_turn: tuple[DestroyedModel, ...] | None = None
    left_battlefield_this_turn: tuple[str, ...] | None = None
    raw: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    @classmethod
    def from_scenario(cls, scenario: Scenario) -> GameState:
        """The game state of ``scenario`` (all defaults when it has no ``game`` section)."""
        raw: Mapping[str, Any] = scenario.game or _NO_MAPPING
        players_raw: Mapping[str, Mapping[str, Any]] = raw.get("players", _NO_MAPPING)

        def units(key: str) -> tuple[DestroyedUnit, ...] | None:
            entries = _recorded(raw, key)
            return None if entries is None else tuple(DestroyedUnit.of(e) for e in entries)

        models = _recorded(raw, "models_destroyed_this_turn")
        left = raw.get("left_battlefield_this_turn")
        return cls(
            battle_round=raw.get("battle_round"),
            active_player=raw.get("active_player"),
            timing=cast(Timing | None, raw.get("timing")),
            twist=raw.get("twist"),
            first_player=raw.get("first_player"),
            players=MappingProxyType(
                {pid: PlayerGameState.of(entry) for pid, entry in players_raw.items()}
            ),
            destroyed_this_turn=units("destroyed_this_turn"),
            destroyed_previous_turn=units("destroyed_previous_turn"),
            models_destroyed_this_turn=(
                None if models is None else tuple(DestroyedModel.of(e) for e in models)
            ),
            left_battlefield_this_turn=None if left is None else _texts(left),
            raw=raw,
        )

    def player(self, player_id: str) -> PlayerGameState:
        """A player's state; a player the section does not mention has the defaults."""
        return self.players.get(player_id, PlayerGameState())
