"""Secondary Mission decks, one per player: Tactical or Fixed, as immutable values.

Every operation takes a :class:`DeckState` and returns ``(new_state, DeckEvent)``; nothing is
mutated, so the app's undo is keeping the previous value. Illegal moves raise
:class:`engine.errors.RulesError` with the reason. Shuffles are seeded (``DeckState.seed`` and
the number of shuffles so far), so a saved deck replays identically.

The rules (seed: mission sequence step 6 and the Mission Generator's manual):

- Fixed: two cards marked Fixed, displayed face-up, never discarded.
- Tactical: the deck is shuffled; at the start of your Command phase draw two (the hand may
  grow); once per battle, at the end of your Command phase, spend 1CP to discard one active card
  and draw a replacement; at the end of a turn an achieved card gives its VP and is discarded;
  at the end of your own turn discard one or more active cards to gain 1CP.
- WHEN DRAWN rules: Defend Stronghold in the first battle round is replaced and shuffled back;
  Forward Position and Behind Enemy Lines in the first round, and Plunder / Cleanse while the
  other is active, *may* be shuffled back for a new card; A Grievous Blow and Bring It Down
  *may* be discarded for a new card when no such enemy exists; Beacon needs a unit, A Tempting
  Target an objective chosen by the opponent, Burden of Trust optional guards
  (:func:`selection_choices` lists the units or objectives a selection may pick).

Where the rules text is silent (also in ``docs/rules-decisions.md``): Beacon's unit may be
"embarked within a TRANSPORT on the battlefield", but the file records no embarked units, so
its choices are the player's units on the battlefield; A Tempting Target's objectives are those
whose centre lies strictly within No Man's Land (none when the scenario has no deployment).

>>> deck = new_tactical_deck(seed=7)
>>> len(deck.draw_pile)
18
>>> ctx = TurnContext(battle_round=2, moment="start_of_command_phase")
>>> deck, event = start_command_phase(deck, ctx)
>>> len(deck.active), event.kind
(2, 'draw')
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from engine.errors import RulesError, UnknownReferenceError
from engine.game_state import GameState
from engine.model import EMPTY, JSONValue, Scenario, freeze, thaw
from engine.rulesets.wh40k_ca2026.cards import MissionCard, SecondaryMode, card, secondary_missions

DeckMoment = Literal["start_of_command_phase", "end_of_command_phase", "end_of_turn"]

WhenDrawnOption = Literal["reshuffle_and_draw", "discard_and_draw"]

CP_DISCARD_DRAW_COST = 1
CP_FOR_END_OF_TURN_DISCARD = 1


@dataclass(frozen=True)
class TurnContext:
    """Where in the battle an operation happens, and the facts WHEN DRAWN rules look at.

    ``enemy_has_starting_strength_13`` / ``enemy_has_w10_model``: whether the opponent has such
    a unit / model on the battlefield (None: unknown, the optional discard is then offered).
    """

    battle_round: int
    moment: DeckMoment
    your_turn: bool = True
    enemy_has_starting_strength_13: bool | None = None
    enemy_has_w10_model: bool | None = None


@dataclass(frozen=True)
class ActiveCard:
    """An active Secondary Mission: the round it was drawn, choices made for it, open offers."""

    name: str
    drawn_round: int = 0
    choices: Mapping[str, JSONValue] = field(default_factory=lambda: EMPTY)
    offers: tuple[WhenDrawnOption, ...] = ()
    needs: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"card": self.name, "drawn_round": self.drawn_round}
        if self.choices:
            out["choices"] = thaw(self.choices)
        if self.offers:
            out["offers"] = list(self.offers)
        if self.needs:
            out["needs"] = list(self.needs)
        return out


@dataclass(frozen=True)
class DeckEvent:
    """One entry of a deck's log: what happened, to which cards, CP and VP gained."""

    kind: str
    cards: tuple[str, ...]
    text: str
    battle_round: int = 0
    cp: int = 0
    vp: int = 0

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "cards": list(self.cards), "text": self.text}
        if self.battle_round:
            out["battle_round"] = self.battle_round
        if self.cp:
            out["cp"] = self.cp
        if self.vp:
            out["vp"] = self.vp
        return out


@dataclass(frozen=True)
class DeckState:
    """One player's Secondary Missions: draw pile (top first), active cards, discards."""

    mode: SecondaryMode
    draw_pile: tuple[str, ...] = ()
    active: tuple[ActiveCard, ...] = ()
    discard_pile: tuple[str, ...] = ()
    achieved: tuple[str, ...] = ()
    cp_discard_draw_used: bool = False
    seed: int = 0
    shuffles: int = 0
    log: tuple[DeckEvent, ...] = ()

    def active_names(self) -> tuple[str, ...]:
        return tuple(a.name for a in self.active)

    def active_card(self, name: str) -> ActiveCard:
        wanted = card(name, "secondary").name
        for a in self.active:
            if a.name == wanted:
                return a
        raise RulesError(f"{wanted} is not an active Secondary Mission")

    def to_json(self) -> dict[str, Any]:
        """The ``game.players.<id>.deck`` JSON."""
        return {
            "mode": self.mode,
            "seed": self.seed,
            "shuffles": self.shuffles,
            "draw_pile": list(self.draw_pile),
            "active": [a.to_json() for a in self.active],
            "discard_pile": list(self.discard_pile),
            "achieved": list(self.achieved),
            "cp_discard_draw_used": self.cp_discard_draw_used,
            "log": [e.to_json() for e in self.log],
        }

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> DeckState:
        """The inverse of :meth:`to_json` (``game_state`` validates the shape first)."""
        return DeckState(
            mode=data["mode"],
            draw_pile=tuple(data.get("draw_pile", ())),
            active=tuple(
                ActiveCard(
                    name=a["card"],
                    drawn_round=int(a.get("drawn_round", 0)),
                    choices=freeze(dict(a.get("choices", {}))),
                    offers=tuple(a.get("offers", ())),
                    needs=tuple(a.get("needs", ())),
                )
                for a in data.get("active", ())
            ),
            discard_pile=tuple(data.get("discard_pile", ())),
            achieved=tuple(data.get("achieved", ())),
            cp_discard_draw_used=bool(data.get("cp_discard_draw_used", False)),
            seed=int(data.get("seed", 0)),
            shuffles=int(data.get("shuffles", 0)),
            log=tuple(
                DeckEvent(
                    kind=e["kind"],
                    cards=tuple(e.get("cards", ())),
                    text=e.get("text", ""),
                    battle_round=int(e.get("battle_round", 0)),
                    cp=int(e.get("cp", 0)),
                    vp=int(e.get("vp", 0)),
                )
                for e in data.get("log", ())
            ),
        )


# ---------------------------------------------------------------------------------------------
# Creating decks


def fixed_cards() -> tuple[str, ...]:
    """Names of the Secondary Missions that can be used as Fixed Missions."""
    return tuple(c.name for c in secondary_missions() if c.fixed)


def new_tactical_deck(seed: int) -> DeckState:
    """A shuffled Tactical deck of all 18 Secondary Missions (same seed, same order)."""
    pile = [c.name for c in secondary_missions()]
    random.Random(f"{seed}:0").shuffle(pile)
    event = DeckEvent("shuffle", (), "Secondary Mission deck shuffled face-down (Tactical)")
    return DeckState("tactical", tuple(pile), seed=seed, shuffles=1, log=(event,))


def new_fixed_deck(chosen: Sequence[str]) -> DeckState:
    """Two Fixed Missions displayed face-up, active for the whole battle.

    >>> new_fixed_deck(["ASSASSINATION", "bring it down"]).active_names()
    ('ASSASSINATION', 'BRING IT DOWN')
    >>> new_fixed_deck(["NO PRISONERS", "ASSASSINATION"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    engine.errors.RulesError: NO PRISONERS is not a Fixed Mission (Fixed: A GRIEVOUS BLOW, ...)
    """
    names = []
    for name in chosen:
        try:
            found = card(name, "secondary")
        except UnknownReferenceError as error:
            raise RulesError(str(error)) from None
        if not found.fixed:
            raise RulesError(
                f"{found.name} is not a Fixed Mission (Fixed: {', '.join(fixed_cards())})"
            )
        names.append(found.name)
    if len(names) != 2 or names[0] == names[1]:
        raise RulesError(f"Fixed Missions are two different cards, got {len(set(names))}")
    event = DeckEvent("select_fixed", tuple(names), "Fixed Missions displayed face-up")
    return DeckState("fixed", active=tuple(ActiveCard(n) for n in names), log=(event,))


# ---------------------------------------------------------------------------------------------
# Helpers


def _require_tactical(state: DeckState, what: str) -> None:
    if state.mode != "tactical":
        raise RulesError(f"Fixed Missions cannot be {what}: they are active throughout the battle")


def _logged(state: DeckState, event: DeckEvent) -> tuple[DeckState, DeckEvent]:
    return replace(state, log=(*state.log, event)), event


def _shuffle_back(state: DeckState, name: str) -> DeckState:
    pile = [*state.draw_pile, name]
    random.Random(f"{state.seed}:{state.shuffles}").shuffle(pile)
    return replace(state, draw_pile=tuple(pile), shuffles=state.shuffles + 1)


def _offers(found: MissionCard, state: DeckState, ctx: TurnContext) -> tuple[WhenDrawnOption, ...]:
    rule = found.when_drawn()
    if rule is None or rule.effect is None:
        return ()
    effect = rule.effect
    kind = effect["kind"]
    if kind == "may_reshuffle_and_draw":
        if "if_battle_round" in effect and ctx.battle_round == effect["if_battle_round"]:
            return ("reshuffle_and_draw",)
        if "if_active" in effect and effect["if_active"] in state.active_names():
            return ("reshuffle_and_draw",)
        return ()
    if kind == "may_discard_and_draw":
        exists = (
            ctx.enemy_has_starting_strength_13
            if effect["if_no_enemy"] == "units_with_starting_strength_13_plus"
            else ctx.enemy_has_w10_model
        )
        return () if exists else ("discard_and_draw",)
    return ()


def _draw_one(state: DeckState, ctx: TurnContext) -> tuple[DeckState, list[str]]:
    """Draw the top card and apply its WHEN DRAWN rule; returns the state and a log of texts."""
    if not state.draw_pile:
        raise RulesError("the Secondary Mission deck is empty: no card can be drawn")
    name, rest = state.draw_pile[0], state.draw_pile[1:]
    found = card(name, "secondary")
    notes = [f"drew {name}"]
    rule = found.when_drawn()
    effect = rule.effect if rule is not None else None
    if (
        effect is not None
        and effect["kind"] == "must_reshuffle_and_draw"
        and (ctx.battle_round == effect["if_battle_round"])
    ):
        state = replace(state, draw_pile=rest)
        if state.draw_pile:
            state, more = _draw_one(state, ctx)
            notes.extend(more)
        state = _shuffle_back(state, name)
        notes.append(f"{name} shuffled back into the deck (WHEN DRAWN, first battle round)")
        return state, notes
    needs: tuple[str, ...] = ()
    if effect is not None and effect["kind"] == "select" and effect["required"]:
        needs = (str(effect["choice"]),)
    active = ActiveCard(name, ctx.battle_round, offers=_offers(found, state, ctx), needs=needs)
    return replace(state, draw_pile=rest, active=(*state.active, active)), notes


def _replace_active(state: DeckState, updated: ActiveCard) -> DeckState:
    return replace(
        state, active=tuple(updated if a.name == updated.name else a for a in state.active)
    )


def _without(state: DeckState, name: str) -> DeckState:
    return replace(state, active=tuple(a for a in state.active if a.name != name))


# ---------------------------------------------------------------------------------------------
# Operations


def draw(state: DeckState, ctx: TurnContext) -> tuple[DeckState, DeckEvent]:
    """Draw one card face-up at the start of your Command phase (the Draw button)."""
    _require_tactical(state, "drawn")
    if ctx.moment != "start_of_command_phase" or not ctx.your_turn:
        raise RulesError("Secondary Missions are drawn at the start of your Command phase")
    state, notes = _draw_one(state, ctx)
    drawn = tuple(n.removeprefix("drew ") for n in notes if n.startswith("drew "))
    return _logged(state, DeckEvent("draw", drawn, "; ".join(notes), ctx.battle_round))


def start_command_phase(state: DeckState, ctx: TurnContext) -> tuple[DeckState, DeckEvent]:
    """Draw two cards (as many as the deck still has); cards held from earlier turns stay."""
    _require_tactical(state, "drawn")
    if ctx.moment != "start_of_command_phase" or not ctx.your_turn:
        raise RulesError("Secondary Missions are drawn at the start of your Command phase")
    if not state.draw_pile:
        raise RulesError("the Secondary Mission deck is empty: no card can be drawn")
    notes: list[str] = []
    for _ in range(2):
        if not state.draw_pile:
            notes.append("the deck is empty")
            break
        state, more = _draw_one(state, ctx)
        notes.extend(more)
    drawn = tuple(n.removeprefix("drew ") for n in notes if n.startswith("drew "))
    return _logged(state, DeckEvent("draw", drawn, "; ".join(notes), ctx.battle_round))


def resolve_when_drawn(
    state: DeckState, name: str, option: WhenDrawnOption, ctx: TurnContext
) -> tuple[DeckState, DeckEvent]:
    """Take a WHEN DRAWN offer: shuffle the card back (or discard it) and draw a new one."""
    held = state.active_card(name)
    if option not in held.offers:
        offered = ", ".join(held.offers) or "nothing"
        raise RulesError(
            f"{held.name}'s WHEN DRAWN rule does not allow {option} now (offers: {offered})"
        )
    state = _without(state, held.name)
    state, notes = _draw_one(state, ctx) if state.draw_pile else (state, ["the deck is empty"])
    if option == "reshuffle_and_draw":
        state = _shuffle_back(state, held.name)
        notes.append(f"{held.name} shuffled back into the deck")
    else:
        state = replace(state, discard_pile=(*state.discard_pile, held.name))
        notes.append(f"{held.name} discarded")
    drawn = tuple(n.removeprefix("drew ") for n in notes if n.startswith("drew "))
    return _logged(
        state, DeckEvent(option, (held.name, *drawn), "; ".join(notes), ctx.battle_round)
    )


def decline_when_drawn(state: DeckState, name: str) -> tuple[DeckState, DeckEvent]:
    """Keep a card whose WHEN DRAWN rule offered a new card."""
    held = state.active_card(name)
    if not held.offers:
        raise RulesError(f"{held.name} has no WHEN DRAWN offer to decline")
    state = _replace_active(state, replace(held, offers=()))
    return _logged(state, DeckEvent("keep", (held.name,), f"kept {held.name}"))


def _check_choice(
    found: MissionCard, key: str, value: JSONValue, scenario: Scenario | None, player: str | None
) -> None:
    if scenario is None or player is None:
        return
    if key in ONE_ID_SELECTIONS:
        selection = selection_choices(scenario, player, found.name)
        if value not in selection.ids:
            listed = ", ".join(selection.ids) or "none"
            raise RulesError(
                f"the {key.replace('_', ' ')} must be {selection.allowed} (allowed: {listed})"
            )
    elif key == "guards":
        if not isinstance(value, Mapping):
            raise RulesError("guards map objective ids to friendly unit ids")
        own = {u.id for u in scenario.units_of(player)}
        objectives = {o.id for o in scenario.objectives}
        for objective_id, unit_id in value.items():
            if objective_id not in objectives or unit_id not in own:
                raise RulesError(f"{unit_id} cannot guard {objective_id}")
        if len(set(value.values())) != len(value):
            raise RulesError("each guard is one unit selected for one objective")


def choose(
    state: DeckState,
    name: str,
    key: str,
    value: JSONValue,
    *,
    scenario: Scenario | None = None,
    player: str | None = None,
) -> tuple[DeckState, DeckEvent]:
    """Record a WHEN DRAWN selection: ``beacon_unit``, ``tempting_target`` (chosen by the
    opponent) or ``guards`` (objective id -> unit id, also re-chosen at the start of your turn).

    With ``scenario`` and ``player`` the choice is checked against the battlefield. A Beacon
    unit cannot be changed once chosen (FAQ).
    """
    held = state.active_card(name)
    found = card(held.name, "secondary")
    rule = found.when_drawn()
    if rule is None or rule.effect is None or rule.effect.get("choice") != key:
        raise RulesError(f"{held.name} has no selection called {key!r}")
    if key == "beacon_unit" and "beacon_unit" in held.choices:
        raise RulesError("the beacon unit was selected when the card was drawn and cannot change")
    _check_choice(found, key, value, scenario, player)
    choices = dict(held.choices)
    choices[key] = value
    updated = replace(held, choices=freeze(choices), needs=tuple(n for n in held.needs if n != key))
    return _logged(
        _replace_active(state, updated),
        DeckEvent("choose", (held.name,), f"{held.name}: {key} = {thaw(value)}"),
    )


def discard_and_draw_for_cp(
    state: DeckState, name: str, cp: int, ctx: TurnContext
) -> tuple[DeckState, DeckEvent]:
    """Once per battle, at the end of your Command phase, spend 1CP: discard one active card and
    draw a new one. ``cp`` is the player's CP now; the event's ``cp`` is ``-1``."""
    _require_tactical(state, "discarded")
    if state.cp_discard_draw_used:
        raise RulesError("the 1CP discard and draw has already been used this battle")
    if ctx.moment != "end_of_command_phase" or not ctx.your_turn:
        raise RulesError("the 1CP discard and draw happens at the end of your Command phase")
    if cp < CP_DISCARD_DRAW_COST:
        raise RulesError(f"the discard and draw costs {CP_DISCARD_DRAW_COST}CP, you have {cp}CP")
    held = state.active_card(name)
    state = replace(
        _without(state, held.name),
        discard_pile=(*state.discard_pile, held.name),
        cp_discard_draw_used=True,
    )
    notes = [f"spent 1CP to discard {held.name}"]
    if state.draw_pile:
        state, more = _draw_one(state, ctx)
        notes.extend(more)
    else:
        notes.append("the deck is empty")
    drawn = tuple(n.removeprefix("drew ") for n in notes if n.startswith("drew "))
    return _logged(
        state,
        DeckEvent(
            "discard_and_draw",
            (held.name, *drawn),
            "; ".join(notes),
            ctx.battle_round,
            cp=-CP_DISCARD_DRAW_COST,
        ),
    )


def achieve(state: DeckState, name: str, vp: int, ctx: TurnContext) -> tuple[DeckState, DeckEvent]:
    """Gain a card's VP at the end of a turn; a Tactical card is then discarded (achieved)."""
    if ctx.moment != "end_of_turn":
        raise RulesError("Secondary Missions are achieved at the end of a turn")
    if vp < 0:
        raise RulesError(f"VP gained cannot be negative, got {vp}")
    held = state.active_card(name)
    if held.needs:
        raise RulesError(
            f"{held.name} still needs its WHEN DRAWN selection: {', '.join(held.needs)}"
        )
    if state.mode == "fixed":
        event = DeckEvent(
            "achieve", (held.name,), f"{held.name} scored {vp}VP", ctx.battle_round, vp=vp
        )
        return _logged(state, event)
    state = replace(
        _without(state, held.name),
        discard_pile=(*state.discard_pile, held.name),
        achieved=(*state.achieved, held.name),
    )
    event = DeckEvent(
        "achieve",
        (held.name,),
        f"{held.name} achieved for {vp}VP and discarded",
        ctx.battle_round,
        vp=vp,
    )
    return _logged(state, event)


def discard_for_cp(
    state: DeckState, names: Iterable[str], ctx: TurnContext
) -> tuple[DeckState, DeckEvent]:
    """At the end of your turn, discard one or more active cards and gain 1CP (once, however
    many cards are discarded: the rule reads 'one or more ... If you do, you gain 1CP')."""
    _require_tactical(state, "discarded")
    if ctx.moment != "end_of_turn" or not ctx.your_turn:
        raise RulesError("cards are discarded for 1CP at the end of your own turn")
    chosen = [state.active_card(n).name for n in names]
    if not chosen:
        raise RulesError("choose one or more active Secondary Missions to discard")
    if len(set(chosen)) != len(chosen):
        raise RulesError("a card can be discarded only once")
    for name in chosen:
        state = _without(state, name)
    state = replace(state, discard_pile=(*state.discard_pile, *chosen))
    event = DeckEvent(
        "discard_for_cp",
        tuple(chosen),
        f"discarded {', '.join(chosen)}: +1CP",
        ctx.battle_round,
        cp=CP_FOR_END_OF_TURN_DISCARD,
    )
    return _logged(state, event)


def draw_context(
    scenario: Scenario,
    player: str,
    battle_round: int,
    moment: DeckMoment = "start_of_command_phase",
) -> TurnContext:
    """A :class:`TurnContext` with the enemy facts WHEN DRAWN rules need, from the battlefield.

    A unit's starting strength is ``unit.extra["starting_strength"]`` when the file records it,
    else its number of models now.
    """
    enemy = scenario.opponent_of(player)
    units = list(scenario.units_of(enemy))
    strength = any(int(u.extra.get("starting_strength", len(u.models))) >= 13 for u in units)
    heavy = any((m.wounds or 0) >= 10 for u in units for m in u.models)
    return TurnContext(battle_round, moment, True, strength, heavy)


# ---------------------------------------------------------------------------------------------
# WHEN DRAWN selections of one unit or objective

ONE_ID_SELECTIONS = ("beacon_unit", "tempting_target")
"""The WHEN DRAWN selections that pick one unit or objective (Beacon, A Tempting Target); Burden
of Trust's ``guards`` pick a unit for each objective instead."""


@dataclass(frozen=True)
class SelectionChoices:
    """What a card's WHEN DRAWN selection of one unit or objective may pick now.

    ``choice`` is the key :func:`choose` records it under; ``chooser`` who selects (``"you"``
    or ``"opponent"``, as the card says); ``allowed`` what may be selected, in the card's words;
    ``ids`` the units or objectives on the battlefield that may be; ``reason`` why none can
    (empty when some can).
    """

    card: str
    choice: str
    chooser: str
    allowed: str
    ids: tuple[str, ...]
    reason: str = ""


def _tempting_targets(found: MissionCard, chooser: str, scenario: Scenario) -> SelectionChoices:
    from engine.rulesets.wh40k_ca2026.scoring import objectives_in_no_mans_land

    ids = tuple(o.id for o in objectives_in_no_mans_land(scenario) if o.role != "home")
    reason = ""
    if scenario.deployment is None:
        reason = "the scenario has no deployment, so No Man's Land is not known"
    elif not ids:
        reason = "no objective other than a home objective lies within No Man's Land"
    allowed = "one objective (excluding home objectives) within No Man's Land"
    return SelectionChoices(found.name, "tempting_target", chooser, allowed, ids, reason)


def selection_choices(scenario: Scenario, player: str, name: str) -> SelectionChoices:
    """The units or objectives ``player``'s card ``name`` may record for its WHEN DRAWN
    selection (the ones :func:`choose` accepts), with the reason when there are none.

    Beacon: the player's units on the battlefield (the file records no unit embarked within a
    TRANSPORT, and the reserves tray is off the battlefield). A Tempting Target: the objectives
    whose centre lies within No Man's Land, excluding home objectives; the opponent selects.
    Raises :class:`engine.errors.RulesError` for a card with no such selection.

    >>> from engine.model import CircleBase, Model, Player, Scenario, Unit
    >>> squad = Unit("red-squad", "red", (Model("r1", 10, 5, CircleBase(32)),))
    >>> s = Scenario("wh40k-ca2026", (Player("red"), Player("blue")), units=(squad,))
    >>> selection_choices(s, "red", "BEACON").ids
    ('red-squad',)
    >>> selection_choices(s, "blue", "beacon").reason
    'blue has no unit on the battlefield'
    >>> selection_choices(s, "red", "A TEMPTING TARGET").reason
    "the scenario has no deployment, so No Man's Land is not known"
    >>> selection_choices(s, "red", "NO PRISONERS")
    Traceback (most recent call last):
    ...
    engine.errors.RulesError: NO PRISONERS has no WHEN DRAWN selection of one unit or objective
    """
    found = card(name, "secondary")
    rule = found.when_drawn()
    effect = rule.effect if rule is not None else None
    choice = str(effect.get("choice")) if effect is not None else ""
    if effect is None or choice not in ONE_ID_SELECTIONS:
        raise RulesError(f"{found.name} has no WHEN DRAWN selection of one unit or objective")
    chooser = str(effect["chooser"])
    if choice == "tempting_target":
        return _tempting_targets(found, chooser, scenario)
    ids = tuple(u.id for u in scenario.units_of(player))
    reason = "" if ids else f"{player} has no unit on the battlefield"
    allowed = "one friendly unit on the battlefield"
    return SelectionChoices(found.name, choice, chooser, allowed, ids, reason)


# ---------------------------------------------------------------------------------------------
# Decks in the scenario's game section


def deck_of(scenario: Scenario, player: str) -> DeckState | None:
    """The player's saved deck (``game.players.<id>.deck``), or None when there is none."""
    raw = GameState.from_scenario(scenario).player(player).deck
    return None if raw is None else DeckState.from_json(thaw(raw))


def with_deck(
    scenario: Scenario, player: str, deck: DeckState, event: DeckEvent | None = None
) -> Scenario:
    """``scenario`` with the player's deck saved in its ``game`` section: ``deck``,
    ``secondary_mode``, ``secondaries`` (the active cards) and, from ``event``, CP and VP."""
    game = thaw(scenario.game or EMPTY)
    entry = game.setdefault("players", {}).setdefault(player, {})
    entry["deck"] = deck.to_json()
    entry["secondary_mode"] = deck.mode
    entry["secondaries"] = list(deck.active_names())
    if event is not None and event.cp:
        entry["cp"] = max(0, int(entry.get("cp", 0)) + event.cp)
    if event is not None and event.vp:
        entry["vp"] = int(entry.get("vp", 0)) + event.vp
        entry["vp_this_round"] = int(entry.get("vp_this_round", 0)) + event.vp
    return replace(scenario, game=freeze(game))
