"""The game's moves as scenario edits: the turn tracker, Secondary deck moves at the current
moment, the VP/CP ledger and the score chart's data, each a pure function from one scenario
value to the next.

Every button of the app's Mission, Secondary and Turn docks is one of these followed by one
``ScenarioDocument.apply`` (one undo step that replaces the scenario's ``game`` section). They
raise :class:`engine.errors.RulesError` with the engine's reason for an illegal move, so the
docks can show the reason and change nothing.

Choices made here where the rules text is silent (each also listed in
``docs/rules-decisions.md``, under Chapter Approved 2026-27):

- The game's ``start_of_turn`` is the deck's ``start_of_command_phase`` (the Command phase is a
  turn's first phase; Secondary Missions are drawn at its start).
- The VP/CP ledger of a player is their Secondary deck's log (``game.players.<id>.deck.log``):
  it already records each change of VP and CP with its battle round; Primary VP and manual
  CP changes are logged there too (kinds ``primary`` and ``cp``). A player without a deck
  still gets the VP and CP in the totals; the chart shows them as "not in the log".
- A new turn moves ``destroyed_this_turn`` to ``destroyed_previous_turn`` and empties the
  other "this turn" lists, but only the lists the file already records (an absent list stays
  absent: "not recorded" is not "none"); it records ``controlled_at_start_of_turn`` for both
  players from the engine's objective control. A new battle round sets ``vp_this_round`` to 0.
- A new Tactical deck's shuffle seed is the set-up's seed times two plus the player's slot
  (:func:`deck_seed`), so the two players' decks differ and a set-up replays identically.

>>> from engine.model import Player, Scenario, freeze
>>> s = Scenario("wh40k-ca2026", (Player("red"), Player("blue")),
...              game=freeze({"battle_round": 1, "active_player": "red",
...                           "timing": "end_of_turn", "first_player": "red"}))
>>> after = next_step(s)
>>> after.game["battle_round"], after.game["active_player"], after.game["timing"]
(1, 'blue', 'start_of_turn')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine.errors import RulesError
from engine.evaluate import evaluate
from engine.game_state import BATTLE_ROUNDS, TIMINGS
from engine.model import EMPTY, Scenario, freeze, thaw
from engine.rulesets.wh40k_ca2026 import decks
from engine.rulesets.wh40k_ca2026.decks import (
    DeckEvent,
    DeckMoment,
    DeckState,
    TurnContext,
    WhenDrawnOption,
)

TURN_STEPS = ("start_of_turn", "end_of_command_phase", "end_of_turn")
"""The scoring moments of one player's turn, in order."""

TIMING_LABELS = {
    "start_of_turn": "Start of turn (Command phase)",
    "end_of_command_phase": "End of Command phase",
    "end_of_turn": "End of turn",
    "end_of_battle": "End of the battle",
}

DECK_MOMENTS: Mapping[str, DeckMoment] = {
    "start_of_turn": "start_of_command_phase",
    "end_of_command_phase": "end_of_command_phase",
    "end_of_turn": "end_of_turn",
}

THIS_TURN_LISTS = ("models_destroyed_this_turn", "left_battlefield_this_turn")
PLAYER_THIS_TURN_LISTS = ("actions_completed_this_turn", "surveilled_this_turn")


def game_of(scenario: Scenario) -> dict[str, Any]:
    """A plain, editable copy of the scenario's ``game`` section (empty when it has none)."""
    game: dict[str, Any] = thaw(scenario.game or EMPTY)
    return game


def with_game(scenario: Scenario, game: Mapping[str, Any]) -> Scenario:
    return replace(scenario, game=freeze(dict(game)))


def player_entry(game: dict[str, Any], player: str) -> dict[str, Any]:
    """``game.players.<player>``, created when missing (the dict is the caller's copy)."""
    entry: dict[str, Any] = game.setdefault("players", {}).setdefault(player, {})
    return entry


def player_name(scenario: Scenario, player: str) -> str:
    for p in scenario.players:
        if p.id == player:
            return p.name or p.id
    return player


# ---------------------------------------------------------------------------------------------
# Turn tracker


@dataclass(frozen=True)
class TurnPosition:
    """Where the battle is: round, whose turn, which moment, who went first."""

    battle_round: int
    active_player: str
    timing: str
    first_player: str

    @property
    def label(self) -> str:
        if self.timing == "end_of_battle":
            return "End of the battle"
        return f"Battle round {self.battle_round}: {self.active_player}'s turn, " + (
            TIMING_LABELS[self.timing].lower()
        )


def turn_position(scenario: Scenario) -> TurnPosition | None:
    """The recorded position, or None when the ``game`` section does not say where it is."""
    game = scenario.game or EMPTY
    if game.get("battle_round") is None or game.get("active_player") is None:
        return None
    active = str(game["active_player"])
    return TurnPosition(
        int(game["battle_round"]),
        active,
        str(game.get("timing") or "start_of_turn"),
        str(game.get("first_player") or active),
    )


def start_turn_tracking(scenario: Scenario, first_player: str | None = None) -> Scenario:
    """A ``game`` section at the start of battle round 1 (the first listed player's turn by
    default), keeping everything else the section records."""
    game = game_of(scenario)
    first = first_player or str(game.get("first_player") or scenario.player_ids()[0])
    game.update(battle_round=1, active_player=first, timing="start_of_turn", first_player=first)
    return _record_control_at_start(scenario, game)


def set_turn(scenario: Scenario, battle_round: int, active_player: str, timing: str) -> Scenario:
    """Put the tracker at an exact position (the tracker's fields), without turn bookkeeping."""
    low, high = BATTLE_ROUNDS
    if not low <= battle_round <= high:
        raise RulesError(f"the battle round is {low} to {high}, got {battle_round}")
    if active_player not in scenario.player_ids():
        raise RulesError(f"no player {active_player!r}")
    if timing not in TIMINGS:
        raise RulesError(f"the timing is one of {', '.join(TIMINGS)}; got {timing!r}")
    game = game_of(scenario)
    game.update(battle_round=battle_round, active_player=active_player, timing=timing)
    game.setdefault("first_player", active_player)
    return with_game(scenario, game)


def following_position(position: TurnPosition, players: tuple[str, str]) -> TurnPosition:
    """The next scoring moment: through a turn's steps, to the other player, to the next round;
    after the second player's fifth turn, the end of the battle.

    >>> p = TurnPosition(5, "blue", "end_of_turn", "red")
    >>> following_position(p, ("red", "blue")).timing
    'end_of_battle'
    """
    if position.timing == "end_of_battle":
        raise RulesError("the battle is over: there is no next step")
    index = TURN_STEPS.index(position.timing)
    if index + 1 < len(TURN_STEPS):
        return replace(position, timing=TURN_STEPS[index + 1])
    other = players[1] if position.active_player == players[0] else players[0]
    if position.active_player == position.first_player:
        return replace(position, active_player=other, timing="start_of_turn")
    if position.battle_round >= BATTLE_ROUNDS[1]:
        return replace(position, timing="end_of_battle")
    return replace(
        position,
        battle_round=position.battle_round + 1,
        active_player=position.first_player,
        timing="start_of_turn",
    )


def next_step(scenario: Scenario) -> Scenario:
    """The scenario at the next scoring moment, with the turn bookkeeping of a new turn."""
    position = turn_position(scenario)
    if position is None:
        raise RulesError("the game section does not record a battle round and whose turn it is")
    after = following_position(position, scenario.player_ids())
    game = game_of(scenario)
    game.update(
        battle_round=after.battle_round,
        active_player=after.active_player,
        timing=after.timing,
        first_player=after.first_player,
    )
    if after.battle_round != position.battle_round:
        for entry in game.get("players", {}).values():
            if "vp_this_round" in entry:
                entry["vp_this_round"] = 0
    if after.timing == "start_of_turn":
        _begin_turn(game)
        return _record_control_at_start(scenario, game)
    return with_game(scenario, game)


def _begin_turn(game: dict[str, Any]) -> None:
    if "destroyed_this_turn" in game:
        game["destroyed_previous_turn"] = game["destroyed_this_turn"]
        game["destroyed_this_turn"] = []
    for key in THIS_TURN_LISTS:
        if key in game:
            game[key] = []
    for entry in game.get("players", {}).values():
        for key in PLAYER_THIS_TURN_LISTS:
            if key in entry:
                entry[key] = []


def _record_control_at_start(scenario: Scenario, game: dict[str, Any]) -> Scenario:
    if scenario.ruleset == "wh40k-ca2026" and scenario.objectives:
        controlled: dict[str, list[str]] = {p: [] for p in scenario.player_ids()}
        for row in evaluate(scenario, visibility=False).objectives:
            for player in row.controlled_by:
                controlled.setdefault(player, []).append(row.id)
        for player, ids in controlled.items():
            player_entry(game, player)["controlled_at_start_of_turn"] = sorted(ids)
    return with_game(scenario, game)


# ---------------------------------------------------------------------------------------------
# Secondary decks


def turn_context(scenario: Scenario, player: str) -> TurnContext:
    """The deck's view of now for ``player``: battle round, moment, whether it is their turn,
    and the enemy facts WHEN DRAWN rules look at (from the battlefield)."""
    position = turn_position(scenario)
    if position is None:
        raise RulesError(
            "start the turn tracker first: deck moves happen at a battle round and a moment"
        )
    if position.timing == "end_of_battle":
        raise RulesError("the battle is over: the Secondary decks no longer change")
    moment = DECK_MOMENTS[position.timing]
    context = decks.draw_context(scenario, player, position.battle_round, moment)
    return replace(context, your_turn=position.active_player == player)


def deck_seed(scenario: Scenario, player: str) -> int:
    """The shuffle seed of a new Tactical deck: the set-up's seed, different per player."""
    setup = (scenario.game or EMPTY).get("setup") or EMPTY
    base = int(setup.get("seed", 0))
    return base * 2 + scenario.player_ids().index(player)


def new_deck(
    scenario: Scenario, player: str, mode: str, fixed: Sequence[str] = (), seed: int | None = None
) -> Scenario:
    """``player`` with a fresh Tactical deck (shuffled, seeded) or the two chosen Fixed cards.

    VP and CP logged by the deck being replaced stay in the totals; the log starts again.
    """
    if mode == "tactical":
        deck = decks.new_tactical_deck(deck_seed(scenario, player) if seed is None else seed)
    elif mode == "fixed":
        deck = decks.new_fixed_deck(list(fixed))
    else:
        raise RulesError(f"Secondary Missions are tactical or fixed, got {mode!r}")
    return decks.with_deck(scenario, player, deck)


def require_deck(scenario: Scenario, player: str) -> DeckState:
    deck = decks.deck_of(scenario, player)
    if deck is None:
        raise RulesError(f"{player} has no Secondary deck yet: choose Tactical or Fixed first")
    return deck


def draw_two(scenario: Scenario, player: str) -> Scenario:
    """Start of your Command phase: draw two Secondary Missions."""
    deck, event = decks.start_command_phase(
        require_deck(scenario, player), turn_context(scenario, player)
    )
    return decks.with_deck(scenario, player, deck, event)


def draw_one(scenario: Scenario, player: str) -> Scenario:
    deck, event = decks.draw(require_deck(scenario, player), turn_context(scenario, player))
    return decks.with_deck(scenario, player, deck, event)


def achieve(scenario: Scenario, player: str, card_name: str, vp: int) -> Scenario:
    """A Secondary Mission achieved for ``vp`` at the end of a turn (Tactical: then discarded)."""
    deck, event = decks.achieve(
        require_deck(scenario, player), card_name, vp, turn_context(scenario, player)
    )
    return decks.with_deck(scenario, player, deck, event)


def discard_for_cp(scenario: Scenario, player: str, card_names: Sequence[str]) -> Scenario:
    """End of your turn: discard one or more active cards, gain 1CP."""
    deck, event = decks.discard_for_cp(
        require_deck(scenario, player), card_names, turn_context(scenario, player)
    )
    return decks.with_deck(scenario, player, deck, event)


def discard_and_draw(scenario: Scenario, player: str, card_name: str) -> Scenario:
    """Once per battle, end of your Command phase: spend 1CP, discard a card, draw another."""
    cp = int(game_of(scenario).get("players", {}).get(player, {}).get("cp", 0))
    deck, event = decks.discard_and_draw_for_cp(
        require_deck(scenario, player), card_name, cp, turn_context(scenario, player)
    )
    return decks.with_deck(scenario, player, deck, event)


def when_drawn(scenario: Scenario, player: str, card_name: str, option: str) -> Scenario:
    """Take a WHEN DRAWN offer (``reshuffle_and_draw`` or ``discard_and_draw``) or ``keep``."""
    deck = require_deck(scenario, player)
    if option == "keep":
        deck, event = decks.decline_when_drawn(deck, card_name)
    elif option in ("reshuffle_and_draw", "discard_and_draw"):
        chosen: WhenDrawnOption = "reshuffle_and_draw"
        if option == "discard_and_draw":
            chosen = "discard_and_draw"
        deck, event = decks.resolve_when_drawn(
            deck, card_name, chosen, turn_context(scenario, player)
        )
    else:
        raise RulesError(f"no WHEN DRAWN option {option!r}")
    return decks.with_deck(scenario, player, deck, event)


def choose(scenario: Scenario, player: str, card_name: str, key: str, value: Any) -> Scenario:
    """Record a WHEN DRAWN selection (a Beacon unit, A Tempting Target's objective)."""
    deck, event = decks.choose(
        require_deck(scenario, player), card_name, key, value, scenario=scenario, player=player
    )
    return decks.with_deck(scenario, player, deck, event)


# ---------------------------------------------------------------------------------------------
# VP / CP ledger


def record_primary(scenario: Scenario, player: str, card_name: str, vp: int) -> Scenario:
    """Primary Mission VP scored now: added to the totals (and to the ledger when the player
    has a deck), at the current battle round."""
    if vp < 0:
        raise RulesError(f"VP scored cannot be negative, got {vp}")
    position = turn_position(scenario)
    battle_round = position.battle_round if position else 0
    moment = position.label if position else "no recorded moment"
    text = f"{card_name} scored {vp}VP ({moment})"
    deck = decks.deck_of(scenario, player)
    if deck is not None and any(
        e.kind == "primary" and e.text.endswith(f"({moment})") for e in deck.log
    ):
        raise RulesError(f"{card_name} was already scored at this moment ({moment})")
    event = DeckEvent("primary", (), text, battle_round, vp=vp)
    return _with_ledger_event(scenario, player, event)


def change_cp(scenario: Scenario, player: str, amount: int, reason: str) -> Scenario:
    """Gain (or spend, when negative) CP outside the deck's own moves; CP never goes below 0."""
    game = game_of(scenario)
    cp = int(player_entry(game, player).get("cp", 0))
    if amount == 0:
        raise RulesError("a CP change of 0 changes nothing")
    if cp + amount < 0:
        raise RulesError(f"{player} has {cp}CP and cannot spend {-amount}CP")
    position = turn_position(scenario)
    battle_round = position.battle_round if position else 0
    event = DeckEvent("cp", (), reason, battle_round, cp=amount)
    return _with_ledger_event(scenario, player, event)


def _with_ledger_event(scenario: Scenario, player: str, event: DeckEvent) -> Scenario:
    deck = decks.deck_of(scenario, player)
    if deck is not None:
        return decks.with_deck(scenario, player, replace(deck, log=(*deck.log, event)), event)
    game = game_of(scenario)
    entry = player_entry(game, player)
    if event.cp:
        entry["cp"] = max(0, int(entry.get("cp", 0)) + event.cp)
    if event.vp:
        entry["vp"] = int(entry.get("vp", 0)) + event.vp
        entry["vp_this_round"] = int(entry.get("vp_this_round", 0)) + event.vp
    return with_game(scenario, game)


@dataclass(frozen=True)
class LedgerRow:
    """One line of the VP/CP ledger."""

    player: str
    battle_round: int
    kind: str
    text: str
    vp: int
    cp: int


def ledger_rows(scenario: Scenario) -> tuple[LedgerRow, ...]:
    """Every logged VP or CP change, per player in log order (both players interleaved by
    battle round, first player first)."""
    rows: list[LedgerRow] = []
    for player in scenario.player_ids():
        deck = decks.deck_of(scenario, player)
        for event in deck.log if deck else ():
            if event.vp or event.cp:
                row = LedgerRow(
                    player, event.battle_round, event.kind, event.text, event.vp, event.cp
                )
                rows.append(row)
    order = {p: i for i, p in enumerate(scenario.player_ids())}
    return tuple(sorted(rows, key=lambda r: (r.battle_round, order[r.player])))


@dataclass(frozen=True)
class ScoreSeries:
    """Cumulative VP per player at the end of battle rounds ``0..last_round`` (round 0: VP the
    totals hold that no logged event explains), for the score chart."""

    rounds: tuple[int, ...]
    cumulative: Mapping[str, tuple[int, ...]]
    unlogged: Mapping[str, int]
    totals: Mapping[str, int]


def vp_by_round(scenario: Scenario) -> ScoreSeries:
    """VP per player by battle round, from the ledger; the rounds run to the current one.

    >>> from engine.model import Player, Scenario, freeze
    >>> s = Scenario("wh40k-ca2026", (Player("red"), Player("blue")),
    ...              game=freeze({"battle_round": 2, "players": {"red": {"vp": 4}}}))
    >>> series = vp_by_round(s)
    >>> series.rounds, series.cumulative["red"], series.unlogged["red"]
    ((0, 1, 2), (4, 4, 4), 4)
    """
    game = scenario.game or EMPTY
    position = turn_position(scenario)
    last = position.battle_round if position else int(game.get("battle_round") or 0)
    rows = ledger_rows(scenario)
    last = max([last, *(r.battle_round for r in rows)])
    rounds = tuple(range(0, last + 1))
    cumulative: dict[str, tuple[int, ...]] = {}
    unlogged: dict[str, int] = {}
    totals: dict[str, int] = {}
    for player in scenario.player_ids():
        per_round = [0] * len(rounds)
        for row in rows:
            if row.player == player:
                per_round[row.battle_round] += row.vp
        total = int(dict(game.get("players", EMPTY)).get(player, EMPTY).get("vp", 0))
        before = max(0, total - sum(per_round))
        per_round[0] += before
        running, out = 0, []
        for vp in per_round:
            running += vp
            out.append(running)
        cumulative[player] = tuple(out)
        unlogged[player] = before
        totals[player] = total
    return ScoreSeries(rounds, cumulative, unlogged, totals)
