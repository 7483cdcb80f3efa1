"""Threat Points and Command Points stay apart; All-Out War refunds cost - 1, minimum 0."""

from __future__ import annotations

import pytest
from shared_builders import model, scenario, unit

from engine.errors import RulesError
from engine.rulesets.shared_modules.ledgers import (
    PlayerLedgers,
    all_out_war_refund,
    all_out_war_refunds,
    apply_refunds,
    unit_cost,
)
from engine.rulesets.shared_modules.state import GAME_SECTION_CHECK, ledgers_from_scenario


def test_spending_one_resource_never_spends_the_other() -> None:
    red = PlayerLedgers.start("red", threat=8, command=2)
    after = red.spend_threat(5, "reinforcements").spend_command(2, "a command")
    assert (after.threat.balance, after.command.balance) == (3, 0)
    assert [e.amount for e in after.threat.entries] == [8, -5]
    assert [e.amount for e in after.command.entries] == [2, -2]
    assert red.threat.balance == 8


def test_overspending_is_refused_and_names_the_ledger() -> None:
    red = PlayerLedgers.start("red", threat=3, command=5)
    with pytest.raises(RulesError, match="3 Threat Points and cannot spend 4"):
        red.spend_threat(4, "too much")
    assert red.spend_threat(3, "exactly all").threat.balance == 0
    with pytest.raises(RulesError):
        red.spend_command(-1, "negative")
    with pytest.raises(RulesError):
        red.gain_threat(-1, "negative")


@pytest.mark.parametrize(("cost", "refund"), [(0, 0), (1, 0), (2, 1), (7, 6)])
def test_all_out_war_refund(cost: int, refund: int) -> None:
    assert all_out_war_refund(cost) == refund


def test_refunds_go_to_the_owner_of_each_destroyed_unit() -> None:
    s = scenario(
        units=[
            unit("red-a", "red", model("a", 5, 5), cost=4),
            unit("red-b", "red", model("b", 7, 5), cost=1),
            unit("blue-c", "blue", model("c", 5, 40), cost=3),
        ]
    )
    refunds = all_out_war_refunds(s, ["blue-c", "red-a", "red-b", "red-a"])
    assert [(r.unit_id, r.player, r.refund) for r in refunds] == [
        ("blue-c", "blue", 2),
        ("red-a", "red", 3),
        ("red-b", "red", 0),
    ]
    assert "minimum 0" not in refunds[0].reason
    assert "cost 1" in refunds[2].reason
    ledgers = {"red": PlayerLedgers.start("red", command=2), "blue": PlayerLedgers.start("blue")}
    after = apply_refunds(ledgers, refunds, turn=3)
    assert after["red"].threat.balance == 3
    assert after["red"].command.balance == 2
    assert after["blue"].threat.balance == 2
    assert after["red"].threat.entries[-1].turn == 3


def test_a_unit_needs_a_cost() -> None:
    with pytest.raises(RulesError, match="extra.cost"):
        unit_cost(unit("u", "red", model("m", 1, 1)))


def test_ledgers_are_read_from_the_game_section_and_validated() -> None:
    from engine.game_state import GameIds

    game = {
        "shared_modules": {
            "ledgers": {
                "red": {
                    "threat": [
                        {"amount": 10, "reason": "start"},
                        {"amount": -4, "reason": "scouts", "turn": 2},
                    ],
                    "command": [{"amount": 3, "reason": "start"}],
                }
            }
        }
    }
    s = scenario(units=[unit("u", "red", model("m", 1, 1))], game=game)
    ledgers = ledgers_from_scenario(s)
    assert (ledgers["red"].threat.balance, ledgers["red"].command.balance) == (6, 3)
    assert ledgers["blue"].threat.balance == 0
    ids = GameIds(
        players=frozenset({"red", "blue"}), units=frozenset({"u"}), models=frozenset({"m"})
    )
    assert GAME_SECTION_CHECK(game["shared_modules"], "game.shared_modules", ids) == []
    bad = {"ledgers": {"green": {}}, "destroyed": ["x"], "scout_and_secure": {"u": {"moved": True}}}
    paths = [p.path for p in GAME_SECTION_CHECK(bad, "g", ids)]
    assert paths == ["g.ledgers.green", "g.destroyed[0]", "g.scout_and_secure.u.lead"]
