"""Secondary Mission decks: Tactical and Fixed, WHEN DRAWN rules, illegal moves refused."""

from __future__ import annotations

import pytest

from engine.errors import RulesError
from engine.model import CircleBase, JSONValue, Model, Objective, Player, Scenario, Unit
from engine.rulesets.wh40k_ca2026 import decks as d

START = d.TurnContext(battle_round=2, moment="start_of_command_phase")
END_COMMAND = d.TurnContext(battle_round=2, moment="end_of_command_phase")
END_TURN = d.TurnContext(battle_round=2, moment="end_of_turn")


def stacked(*top: str) -> d.DeckState:
    """A tactical deck whose draw pile starts with ``top`` (then the rest in deck order)."""
    rest = [n for n in (m.name for m in d.secondary_missions()) if n not in top]
    return d.DeckState("tactical", (*top, *rest), seed=11, shuffles=1)


def test_tactical_deck_is_a_seeded_shuffle_of_all_18() -> None:
    first = d.new_tactical_deck(5)
    assert sorted(first.draw_pile) == sorted(m.name for m in d.secondary_missions())
    assert d.new_tactical_deck(5) == first
    assert d.new_tactical_deck(6).draw_pile != first.draw_pile


def test_start_of_command_phase_draws_two_and_the_hand_grows() -> None:
    deck = stacked("NO PRISONERS", "CENTRE GROUND", "OUTFLANK", "ASSASSINATION")
    deck, event = d.start_command_phase(deck, START)
    assert deck.active_names() == ("NO PRISONERS", "CENTRE GROUND")
    assert event.cards == ("NO PRISONERS", "CENTRE GROUND")
    third_round = d.TurnContext(3, "start_of_command_phase")
    deck, _ = d.start_command_phase(deck, third_round)
    assert deck.active_names() == ("NO PRISONERS", "CENTRE GROUND", "OUTFLANK", "ASSASSINATION")
    assert len(deck.draw_pile) == 14
    assert [a.drawn_round for a in deck.active] == [2, 2, 3, 3]


def test_drawing_is_refused_out_of_turn_and_for_fixed_decks() -> None:
    with pytest.raises(RulesError, match="start of your Command phase"):
        d.draw(stacked(), END_TURN)
    with pytest.raises(RulesError, match="start of your Command phase"):
        d.draw(stacked(), d.TurnContext(2, "start_of_command_phase", your_turn=False))
    fixed = d.new_fixed_deck(["ASSASSINATION", "BRING IT DOWN"])
    with pytest.raises(RulesError, match="Fixed Missions"):
        d.draw(fixed, START)
    with pytest.raises(RulesError, match="empty"):
        d.draw(d.DeckState("tactical"), START)


def test_fixed_deck_picks_two_fixed_cards_and_never_discards() -> None:
    deck = d.new_fixed_deck(["ENGAGE ON ALL FRONTS", "A GRIEVOUS BLOW"])
    assert deck.active_names() == ("ENGAGE ON ALL FRONTS", "A GRIEVOUS BLOW")
    deck, event = d.achieve(deck, "ENGAGE ON ALL FRONTS", 4, END_TURN)
    assert event.vp == 4
    assert deck.active_names() == ("ENGAGE ON ALL FRONTS", "A GRIEVOUS BLOW")
    with pytest.raises(RulesError, match="cannot be discarded"):
        d.discard_for_cp(deck, ["A GRIEVOUS BLOW"], END_TURN)
    with pytest.raises(RulesError, match="cannot be discarded"):
        d.discard_and_draw_for_cp(deck, "A GRIEVOUS BLOW", 3, END_COMMAND)
    with pytest.raises(RulesError, match="not a Fixed Mission"):
        d.new_fixed_deck(["CENTRE GROUND", "ASSASSINATION"])
    with pytest.raises(RulesError, match="two different"):
        d.new_fixed_deck(["ASSASSINATION", "ASSASSINATION"])
    with pytest.raises(RulesError, match="two different"):
        d.new_fixed_deck(["ASSASSINATION"])


def test_achieving_a_tactical_card_discards_it() -> None:
    deck, _ = d.start_command_phase(stacked("NO PRISONERS", "OUTFLANK"), START)
    deck, event = d.achieve(deck, "no prisoners", 4, END_TURN)
    assert deck.active_names() == ("OUTFLANK",)
    assert deck.discard_pile == ("NO PRISONERS",)
    assert deck.achieved == ("NO PRISONERS",)
    assert event.vp == 4
    with pytest.raises(RulesError, match="end of a turn"):
        d.achieve(deck, "OUTFLANK", 3, END_COMMAND)
    with pytest.raises(RulesError, match="not an active"):
        d.achieve(deck, "NO PRISONERS", 2, END_TURN)


def test_discard_for_cp_at_the_end_of_your_turn_gives_one_cp() -> None:
    deck, _ = d.start_command_phase(stacked("NO PRISONERS", "OUTFLANK", "PLUNDER"), START)
    deck, event = d.discard_for_cp(deck, ["NO PRISONERS", "OUTFLANK"], END_TURN)
    assert event.cp == 1
    assert deck.active == ()
    assert deck.discard_pile == ("NO PRISONERS", "OUTFLANK")
    opponents_turn = d.TurnContext(2, "end_of_turn", your_turn=False)
    deck, _ = d.start_command_phase(deck, START)
    with pytest.raises(RulesError, match="end of your own turn"):
        d.discard_for_cp(deck, [deck.active_names()[0]], opponents_turn)
    with pytest.raises(RulesError, match="one or more"):
        d.discard_for_cp(deck, [], END_TURN)


def test_discard_and_draw_for_one_cp_once_per_battle() -> None:
    deck, _ = d.start_command_phase(stacked("NO PRISONERS", "OUTFLANK", "CENTRE GROUND"), START)
    with pytest.raises(RulesError, match="end of your Command phase"):
        d.discard_and_draw_for_cp(deck, "OUTFLANK", 2, START)
    with pytest.raises(RulesError, match="costs 1CP, you have 0CP"):
        d.discard_and_draw_for_cp(deck, "OUTFLANK", 0, END_COMMAND)
    deck, event = d.discard_and_draw_for_cp(deck, "OUTFLANK", 1, END_COMMAND)
    assert event.cp == -1
    assert deck.active_names() == ("NO PRISONERS", "CENTRE GROUND")
    assert deck.cp_discard_draw_used
    with pytest.raises(RulesError, match="already been used"):
        d.discard_and_draw_for_cp(deck, "NO PRISONERS", 5, END_COMMAND)


def test_defend_stronghold_in_the_first_round_is_replaced_and_shuffled_back() -> None:
    first_round = d.TurnContext(1, "start_of_command_phase")
    deck = stacked("DEFEND STRONGHOLD", "NO PRISONERS", "OUTFLANK")
    deck, event = d.draw(deck, first_round)
    assert deck.active_names() == ("NO PRISONERS",)
    assert "DEFEND STRONGHOLD" in deck.draw_pile
    assert len(deck.draw_pile) == 17
    assert event.cards == ("DEFEND STRONGHOLD", "NO PRISONERS")
    assert deck.shuffles == 2
    later, _ = d.draw(stacked("DEFEND STRONGHOLD"), START)
    assert later.active_names() == ("DEFEND STRONGHOLD",)


@pytest.mark.parametrize("name", ["FORWARD POSITION", "BEHIND ENEMY LINES"])
def test_first_round_cards_may_be_shuffled_back(name: str) -> None:
    first_round = d.TurnContext(1, "start_of_command_phase")
    deck, _ = d.draw(stacked(name, "NO PRISONERS"), first_round)
    assert deck.active_card(name).offers == ("reshuffle_and_draw",)
    kept, _ = d.decline_when_drawn(deck, name)
    assert kept.active_card(name).offers == ()
    swapped, event = d.resolve_when_drawn(deck, name, "reshuffle_and_draw", first_round)
    assert swapped.active_names() == ("NO PRISONERS",)
    assert name in swapped.draw_pile
    assert event.kind == "reshuffle_and_draw"
    second_round, _ = d.draw(stacked(name), START)
    assert second_round.active_card(name).offers == ()
    with pytest.raises(RulesError, match="does not allow"):
        d.resolve_when_drawn(second_round, name, "reshuffle_and_draw", START)


def test_plunder_and_cleanse_swap() -> None:
    deck, _ = d.draw(stacked("CLEANSE", "PLUNDER", "OUTFLANK"), START)
    assert deck.active_card("CLEANSE").offers == ()
    deck, _ = d.draw(deck, START)
    assert deck.active_card("PLUNDER").offers == ("reshuffle_and_draw",)
    deck, _ = d.resolve_when_drawn(deck, "PLUNDER", "reshuffle_and_draw", START)
    assert deck.active_names() == ("CLEANSE", "OUTFLANK")
    assert "PLUNDER" in deck.draw_pile


@pytest.mark.parametrize(
    ("name", "field"),
    [
        ("A GRIEVOUS BLOW", "enemy_has_starting_strength_13"),
        ("BRING IT DOWN", "enemy_has_w10_model"),
    ],
)
def test_no_such_enemy_lets_the_card_be_discarded(name: str, field: str) -> None:
    none_there = d.TurnContext(2, "start_of_command_phase", **{field: False})
    some_there = d.TurnContext(2, "start_of_command_phase", **{field: True})
    deck, _ = d.draw(stacked(name, "NO PRISONERS"), none_there)
    assert deck.active_card(name).offers == ("discard_and_draw",)
    deck, _ = d.resolve_when_drawn(deck, name, "discard_and_draw", none_there)
    assert deck.discard_pile == (name,)
    assert deck.active_names() == ("NO PRISONERS",)
    kept, _ = d.draw(stacked(name), some_there)
    assert kept.active_card(name).offers == ()


def _scenario() -> Scenario:
    base = CircleBase(32)
    red = Unit("red-a", "red", (Model("r1", 10, 5, base),))
    blue = Unit(
        "blue-big",
        "blue",
        tuple(Model(f"b{i}", 10 + i, 40, base) for i in range(13)),
    )
    tank = Unit("blue-tank", "blue", (Model("t1", 50, 40, base, wounds=12),))
    return Scenario(
        "wh40k-ca2026",
        (Player("red", role="attacker"), Player("blue", role="defender")),
        deployment="dawn-of-war",
        units=(red, blue, tank),
        objectives=(
            Objective("obj-centre", 30, 22, "central"),
            Objective("obj-home-red", 30, 6, "home", "red"),
        ),
    )


def _red_chooses(
    deck: d.DeckState, name: str, key: str, value: JSONValue
) -> tuple[d.DeckState, d.DeckEvent]:
    """Red makes a card's choice on the deck test scenario."""
    return d.choose(deck, name, key, value, scenario=_scenario(), player="red")


def test_draw_context_reads_the_enemy_from_the_battlefield() -> None:
    ctx = d.draw_context(_scenario(), "red", 2)
    assert ctx.enemy_has_starting_strength_13
    assert ctx.enemy_has_w10_model
    ctx = d.draw_context(_scenario(), "blue", 2)
    assert not ctx.enemy_has_starting_strength_13
    assert not ctx.enemy_has_w10_model


def test_beacon_needs_a_unit_that_cannot_change() -> None:
    deck, _ = d.draw(stacked("BEACON"), START)
    assert deck.active_card("BEACON").needs == ("beacon_unit",)
    with pytest.raises(RulesError, match="still needs"):
        d.achieve(deck, "BEACON", 3, END_TURN)
    with pytest.raises(RulesError, match="friendly unit on the battlefield"):
        _red_chooses(deck, "BEACON", "beacon_unit", "blue-tank")
    deck, _ = _red_chooses(deck, "BEACON", "beacon_unit", "red-a")
    assert deck.active_card("BEACON").choices["beacon_unit"] == "red-a"
    assert deck.active_card("BEACON").needs == ()
    with pytest.raises(RulesError, match="cannot change"):
        d.choose(deck, "BEACON", "beacon_unit", "red-a")
    with pytest.raises(RulesError, match="no selection"):
        d.choose(deck, "BEACON", "tempting_target", "obj-centre")


def test_tempting_target_is_an_objective_in_no_mans_land_chosen_by_the_opponent() -> None:
    deck, _ = d.draw(stacked("A TEMPTING TARGET"), START)
    assert deck.active_card("A TEMPTING TARGET").needs == ("tempting_target",)
    with pytest.raises(RulesError, match="No Man's Land"):
        _red_chooses(deck, "A TEMPTING TARGET", "tempting_target", "obj-home-red")
    deck, _ = _red_chooses(deck, "A TEMPTING TARGET", "tempting_target", "obj-centre")
    assert deck.active_card("A TEMPTING TARGET").choices["tempting_target"] == "obj-centre"


def test_burden_of_trust_guards_are_optional_and_checked() -> None:
    deck, _ = d.draw(stacked("BURDEN OF TRUST"), START)
    assert deck.active_card("BURDEN OF TRUST").needs == ()
    with pytest.raises(RulesError, match="cannot guard"):
        _red_chooses(deck, "BURDEN OF TRUST", "guards", {"obj-centre": "blue-tank"})
    deck, _ = _red_chooses(deck, "BURDEN OF TRUST", "guards", {"obj-centre": "red-a"})
    deck, _ = _red_chooses(deck, "BURDEN OF TRUST", "guards", {"obj-home-red": "red-a"})
    assert dict(deck.active_card("BURDEN OF TRUST").choices["guards"]) == {"obj-home-red": "red-a"}


def test_operations_never_mutate_and_json_round_trips() -> None:
    before = stacked("BEACON", "NO PRISONERS", "PLUNDER")
    after, _ = d.start_command_phase(before, START)
    assert before.active == ()
    assert len(after.log) == 1
    after, _ = d.choose(after, "BEACON", "beacon_unit", "red-a")
    after, _ = d.achieve(after, "NO PRISONERS", 2, END_TURN)
    assert d.DeckState.from_json(after.to_json()) == after
    fixed = d.new_fixed_deck(["ASSASSINATION", "BRING IT DOWN"])
    assert d.DeckState.from_json(fixed.to_json()) == fixed


def test_a_saved_deck_replays_identically() -> None:
    deck = d.new_tactical_deck(99)
    first_round = d.TurnContext(1, "start_of_command_phase")
    a, _ = d.start_command_phase(deck, first_round)
    b, _ = d.start_command_phase(d.DeckState.from_json(deck.to_json()), first_round)
    assert a == b
