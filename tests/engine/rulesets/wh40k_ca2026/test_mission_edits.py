"""The game's edits the mission docks apply: turn steps, deck moves, ledger, chart data."""

from __future__ import annotations

from dataclasses import replace

import pytest
from mission_builders import duel

from engine.errors import RulesError
from engine.model import Model, freeze, thaw
from engine.rulesets.wh40k_ca2026 import decks, edits
from engine.rulesets.wh40k_ca2026.generator import new_game as wh40k_game


def ca_game(seed: int = 1):  # type: ignore[no-untyped-def]
    return wh40k_game(duel(), seed=seed, force_dispositions=("Take and Hold", "Purge the Foe"))


def at(scenario, battle_round, player, timing):  # type: ignore[no-untyped-def]
    return edits.set_turn(scenario, battle_round, player, timing)


def test_a_whole_battle_is_thirty_moments_then_the_end() -> None:
    s = edits.start_turn_tracking(duel(), "blue")
    seen = [edits.turn_position(s)]
    while edits.turn_position(s).timing != "end_of_battle":
        s = edits.next_step(s)
        seen.append(edits.turn_position(s))
    assert len(seen) == 5 * 2 * 3 + 1
    assert [p.active_player for p in seen[:7]] == ["blue"] * 3 + ["red"] * 3 + ["blue"]
    assert seen[6].battle_round == 2
    assert seen[6].timing == "start_of_turn"
    assert seen[-2] == edits.TurnPosition(5, "red", "end_of_turn", "blue")
    with pytest.raises(RulesError, match="the battle is over"):
        edits.next_step(s)


def test_a_new_round_resets_vp_this_round_and_a_new_turn_moves_the_turn_lists() -> None:
    s = at(ca_game(), 1, "blue", "end_of_turn")
    game = thaw(s.game)
    game["players"]["red"]["vp_this_round"] = 9
    game["destroyed_this_turn"] = [{"unit": "blue-squad", "player": "blue", "by": "red-squad"}]
    game["players"]["red"]["actions_completed_this_turn"] = [{"action": "SENSOR SWEEP"}]
    s = replace(s, game=freeze(game))
    after = edits.next_step(s)
    assert (after.game["battle_round"], after.game["active_player"]) == (2, "red")
    assert after.game["players"]["red"]["vp_this_round"] == 0
    assert after.game["destroyed_previous_turn"][0]["unit"] == "blue-squad"
    assert after.game["destroyed_this_turn"] == ()
    assert after.game["players"]["red"]["actions_completed_this_turn"] == ()
    assert "models_destroyed_this_turn" not in after.game  # not recorded stays not recorded


def test_control_at_the_start_of_a_turn_is_recorded_from_the_engine() -> None:
    s = edits.start_turn_tracking(duel(), "red")
    assert s.game["players"]["red"]["controlled_at_start_of_turn"] == ()
    # The objective's rim is 0.787" from its centre: 3" from the rim plus the 32 mm base's
    # 0.630" radius puts the model's centre in range at 4.417" exactly, out just past it.
    edge = 22.0 - (3.0 + 40 / 25.4 / 2 + 32 / 25.4 / 2)
    inside = duel().with_models([Model("red-1", 30.0, edge, duel().model("red-1").base)])
    outside = inside.with_models([inside.model("red-1").placed(30.0, edge - 1e-4)])
    recorded = edits.start_turn_tracking(inside, "red").game["players"]["red"]
    assert recorded["controlled_at_start_of_turn"] == ("obj-centre",)
    missed = edits.start_turn_tracking(outside, "red").game["players"]["red"]
    assert missed["controlled_at_start_of_turn"] == ()


def test_set_turn_refuses_positions_that_do_not_exist() -> None:
    s = duel()
    with pytest.raises(RulesError, match="1 to 5, got 6"):
        edits.set_turn(s, 6, "red", "end_of_turn")
    with pytest.raises(RulesError, match="no player"):
        edits.set_turn(s, 1, "green", "end_of_turn")


def test_deck_moves_follow_the_moment_and_refuse_with_the_engines_reason() -> None:
    s = edits.new_deck(ca_game(), "red", "tactical")
    with pytest.raises(RulesError, match="start the turn tracker"):
        edits.draw_two(replace(s, game=freeze({"players": thaw(s.game)["players"]})), "red")
    s = at(s, 1, "red", "start_of_turn")
    with pytest.raises(RulesError, match="start of your Command phase"):
        edits.draw_two(at(s, 1, "blue", "start_of_turn"), "red")
    s = edits.draw_two(s, "red")
    hand = decks.deck_of(s, "red").active_names()
    assert len(hand) == 2
    assert s.game["players"]["red"]["secondaries"] == hand
    with pytest.raises(RulesError, match="achieved at the end of a turn"):
        edits.achieve(s, "red", hand[0], 3)
    s = edits.change_cp(at(s, 1, "red", "end_of_command_phase"), "red", 1, "CP gained")
    swapped = edits.discard_and_draw(s, "red", hand[0])
    assert swapped.game["players"]["red"]["cp"] == 0
    held = decks.deck_of(swapped, "red").active_names()[0]
    again = edits.change_cp(swapped, "red", 1, "CP gained")
    with pytest.raises(RulesError, match="already been used this battle"):
        edits.discard_and_draw(again, "red", held)


def test_achieve_and_discard_write_vp_cp_and_the_ledger() -> None:
    s = at(
        edits.draw_two(
            at(edits.new_deck(ca_game(), "red", "tactical"), 1, "red", "start_of_turn"), "red"
        ),
        1,
        "red",
        "end_of_turn",
    )
    first, second = decks.deck_of(s, "red").active_names()
    s = edits.achieve(s, "red", first, 4)
    s = edits.discard_for_cp(s, "red", [second])
    entry = s.game["players"]["red"]
    assert (entry["vp"], entry["vp_this_round"], entry["cp"]) == (4, 4, 1)
    rows = edits.ledger_rows(s)
    assert [(r.kind, r.vp, r.cp, r.battle_round) for r in rows] == [
        ("achieve", 4, 0, 1),
        ("discard_for_cp", 0, 1, 1),
    ]
    assert decks.deck_of(s, "red").discard_pile == (first, second)


def test_primary_vp_is_logged_once_per_moment_and_charted_by_round() -> None:
    s = edits.new_deck(ca_game(), "blue", "fixed", ["ASSASSINATION", "BRING IT DOWN"])
    s = at(s, 2, "blue", "end_of_command_phase")
    s = edits.record_primary(s, "blue", "UNSTOPPABLE FORCE", 5)
    with pytest.raises(RulesError, match="already scored at this moment"):
        edits.record_primary(s, "blue", "UNSTOPPABLE FORCE", 5)
    s = edits.record_primary(at(s, 3, "blue", "end_of_command_phase"), "blue", "X", 3)
    series = edits.vp_by_round(s)
    assert series.rounds == (0, 1, 2, 3)
    assert series.cumulative["blue"] == (0, 0, 5, 8)
    assert series.cumulative["red"] == (0, 0, 0, 0)
    assert series.totals["blue"] == 8
    assert series.unlogged["blue"] == 0


def test_vp_without_a_deck_go_to_the_totals_and_show_as_unlogged() -> None:
    s = at(ca_game(), 1, "red", "end_of_command_phase")
    s = edits.record_primary(s, "red", "IMMOVABLE OBJECT", 6)
    assert s.game["players"]["red"]["vp"] == 6
    series = edits.vp_by_round(s)
    assert series.unlogged["red"] == 6
    assert series.cumulative["red"] == (6, 6)


def test_cp_never_goes_below_zero() -> None:
    with pytest.raises(RulesError, match="has 0CP and cannot spend 1CP"):
        edits.change_cp(ca_game(), "red", -1, "CP spent")
    one = edits.change_cp(ca_game(), "red", 1, "CP gained")
    assert edits.change_cp(one, "red", -1, "CP spent").game["players"]["red"]["cp"] == 0
    with pytest.raises(RulesError, match="has 1CP and cannot spend 2CP"):
        edits.change_cp(one, "red", -2, "CP spent")


def test_each_player_gets_a_differently_shuffled_deck_from_the_setup_seed() -> None:
    s = ca_game(seed=11)
    red = decks.deck_of(edits.new_deck(s, "red", "tactical"), "red")
    blue = decks.deck_of(edits.new_deck(s, "blue", "tactical"), "blue")
    assert (red.seed, blue.seed) == (22, 23)
    assert red.draw_pile != blue.draw_pile
    assert decks.deck_of(edits.new_deck(s, "red", "tactical"), "red") == red


def test_fixed_decks_take_two_fixed_cards_only() -> None:
    with pytest.raises(RulesError, match="is not a Fixed Mission"):
        edits.new_deck(ca_game(), "red", "fixed", ["NO PRISONERS", "ASSASSINATION"])
