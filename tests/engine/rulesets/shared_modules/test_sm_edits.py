"""Shared Scenario Modules bookkeeping edits: ledgers, All-Out War refunds, Scout And Secure."""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import pytest

from engine.errors import RulesError
from engine.geometry import model_distance
from engine.model import Scenario
from engine.rulesets.scrollhammer.battlefield import board_edge, model_edge_distance
from engine.rulesets.shared_modules.edits import (
    end_of_turn_refunds,
    follower_positions,
    lead_onto_edge,
    ledger_edit,
    scout_edit,
)
from engine.rulesets.shared_modules.formations import lead_model_violations
from engine.rulesets.shared_modules.state import ledgers_from_scenario
from engine.scenario_edits import with_game_key, with_option
from engine.scenario_io import load_scenario

FORMATIONS = (
    Path(__file__).resolve().parents[4]
    / "assets/shared-modules/battle-formations-demo.warplan.json"
)


def balances(scenario: Scenario, player: str) -> tuple[int, int]:
    books = ledgers_from_scenario(scenario)[player]
    return books.threat.balance, books.command.balance


def test_ledger_edits_touch_one_ledger_only() -> None:
    s = load_scenario(FORMATIONS)
    assert balances(s, "red") == (10, 3)
    spent = ledger_edit(s, "red", "threat", 2, spend=True, reason="reinforcements")
    assert balances(spent, "red") == (8, 3)
    gained = ledger_edit(spent, "red", "command", 1, spend=False, reason="a card")
    assert balances(gained, "red") == (8, 4)
    with pytest.raises(RulesError):
        ledger_edit(s, "red", "command", 4, spend=True, reason="too much")
    turned = with_game_key(s, "shared_modules", "turn", 3)
    entry = ledgers_from_scenario(ledger_edit(turned, "red", "threat", 1, spend=True, reason="x"))[
        "red"
    ].threat.entries[-1]
    assert (entry.amount, entry.turn) == (-1, 3)


def test_all_out_war_refunds_threat_points_only() -> None:
    s = with_game_key(
        load_scenario(FORMATIONS), "shared_modules", "destroyed_this_turn", ["red-walker"]
    )
    after = end_of_turn_refunds(s)
    assert balances(after, "red") == (14, 3)
    assert ledgers_from_scenario(after)["red"].threat.entries[-1].reason == (
        "All-Out War: red-walker destroyed, cost 5: refund 5 - 1 = 4"
    )
    section = after.game["shared_modules"] if after.game else {}
    assert section["destroyed"] == ("red-walker",)
    assert "destroyed_this_turn" not in section
    with pytest.raises(RulesError, match="no unit is marked destroyed"):
        end_of_turn_refunds(after)


def test_without_all_out_war_destroyed_units_are_not_refunded() -> None:
    s = load_scenario(FORMATIONS)
    modules = [m for m in s.options["modules"] if m != "all-out-war"]
    s = with_game_key(
        with_option(s, "modules", modules), "shared_modules", "destroyed_this_turn", ["red-walker"]
    )
    after = end_of_turn_refunds(s)
    assert balances(after, "red") == (10, 3)
    assert after.game is not None
    assert after.game["shared_modules"]["destroyed"] == ("red-walker",)


def test_scout_and_secure_spends_threat_points_and_places_the_unit() -> None:
    s = load_scenario(FORMATIONS)
    scouted = scout_edit(s, "red-line")
    assert balances(scouted, "red") == (7, 3)
    lead = scouted.model("red-l1")
    assert model_edge_distance(lead, board_edge(scouted.battlefield, "south")) == pytest.approx(
        0.0, abs=1e-9
    )
    assert lead_model_violations(scouted, "red-line", "red-l1") == ()
    unit = scouted.unit("red-line")
    for follower in unit.models[1:]:
        assert model_distance(lead, follower) <= 2.0
    for i, a in enumerate(unit.models):
        for b in unit.models[i + 1 :]:
            assert model_distance(a, b) > 0.0
    assert scouted.game is not None
    assert scouted.game["shared_modules"]["scout_and_secure"]["red-line"]["lead"] == "red-l1"


def test_scout_and_secure_refuses_without_the_threat_points() -> None:
    s = ledger_edit(load_scenario(FORMATIONS), "red", "threat", 9, spend=True, reason="spent")
    with pytest.raises(RulesError):
        scout_edit(s, "red-line")


def test_lead_model_goes_straight_onto_the_edge() -> None:
    s = load_scenario(FORMATIONS)
    model = s.model("blue-l1")
    onto = lead_onto_edge(s, model, "blue")
    assert onto.x == model.x
    assert model_edge_distance(onto, board_edge(s.battlefield, "north")) == pytest.approx(
        0.0, abs=1e-9
    )


def test_followers_ring_the_lead_clear_of_one_another() -> None:
    s = load_scenario(FORMATIONS)
    unit = s.unit("red-line")
    lead = lead_onto_edge(s, unit.models[0], "red")
    many = [replace(unit.models[1], id=f"f{k}") for k in range(8)]
    placed = follower_positions(s, lead, many, "red")
    assert len(placed) == 8
    for follower in placed:
        assert model_distance(lead, follower) <= 2.0
        assert follower.y >= lead.y - 1e-9  # on the table side of the south edge
    for i, a in enumerate(placed):
        for b in placed[i + 1 :]:
            gap = math.hypot(a.x - b.x, a.y - b.y) - 2 * a.base.bounding_radius
            assert gap >= -1e-9
