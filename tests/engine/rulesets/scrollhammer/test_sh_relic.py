"""Quest for the Relic: the 2D6 table, seizing, carrying, passing, dropping, capturing."""

from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path

import pytest
from scrollhammer_builders import model, scenario, square, unit

from engine.errors import RulesError
from engine.geometry import model_point_distance
from engine.model import MM_PER_INCH, Marker
from engine.rulesets.scrollhammer.relic import (
    can_drop,
    can_pass,
    can_seize,
    capture_check,
    carry_check,
    drop_position,
    relic_probability,
    relic_result,
    relic_table,
    roll_relic,
)

EPS = 1e-4
CONTACT = 1 / MM_PER_INCH
RELIC_RADIUS = 25 / MM_PER_INCH / 2
SEED = Path(__file__).resolve().parents[5] / "shared" / "seeds" / "004_0693111af212ce66.txt"


def test_the_table_runs_from_2_to_12_with_exact_chances() -> None:
    assert [r.roll for r in relic_table()] == list(range(2, 13))
    assert sum(relic_probability(r.roll) for r in relic_table()) == 1
    assert relic_probability(2) == Fraction(1, 36)
    assert relic_probability(7) == Fraction(1, 6)
    assert relic_result(2).removed
    assert relic_result(6).no_march_or_charge_while_held
    assert not relic_result(11).can_drop_voluntarily
    with pytest.raises(RulesError):
        relic_result(13)
    assert roll_relic(random.Random(4)) == roll_relic(random.Random(4))


@pytest.mark.skipif(not SEED.exists(), reason="the rules seed is not beside the repository")
def test_relic_names_are_quoted_from_the_rulebook() -> None:
    text = SEED.read_text(encoding="utf-8")
    for result in relic_table():
        assert f"*{result.roll}- " in text
        assert result.name.split(" The ")[0] in text


def _relic_scenario(x: float, *, keywords: tuple[str, ...] = ("CORE",), game: dict | None = None):  # type: ignore[no-untyped-def,type-arg]
    return scenario(
        units=[
            unit("red-core", "red", model("r1", x, 24), model("r2", x + 0.5, 26), keywords=keywords)
        ],
        markers=[Marker("relic", "relic", 36, 24)],
        options={"mission": "quest-for-the-relic"},
        game={"scrollhammer": game or {}},
    )


@pytest.mark.parametrize(("gap", "allowed"), [(0.0, True), (CONTACT, True), (CONTACT + EPS, False)])
def test_seizing_needs_base_contact(gap: float, allowed: bool) -> None:
    s = _relic_scenario(36 - RELIC_RADIUS - 0.5 - gap)
    assert can_seize(s, "r1").allowed is allowed


def test_who_may_seize() -> None:
    x = 36 - RELIC_RADIUS - 0.5
    assert not can_seize(_relic_scenario(x, keywords=("ELITE",)), "r1").allowed
    assert can_seize(_relic_scenario(x, keywords=("INDEPENDENT CHARACTER",)), "r1").allowed
    carried = _relic_scenario(x, game={"relic": {"carrier": "r2"}})
    assert "carried by r2" in can_seize(carried, "r1").reason
    removed = _relic_scenario(x, game={"relic": {"removed": True}})
    assert not can_seize(removed, "r1").allowed


@pytest.mark.parametrize(("moved", "dropped"), [(6.0, False), (6.0 + EPS, True)])
def test_the_bearer_never_moves_more_than_6_inches(moved: float, dropped: bool) -> None:
    assert carry_check(moved).dropped is dropped
    assert carry_check(moved, transport=True).dropped is dropped


def test_no_march_or_charge_the_turn_it_is_seized_nor_with_ancient_wine() -> None:
    assert carry_check(4, marched=True, seized_this_turn=True).dropped
    assert not carry_check(4, marched=True).dropped
    wine = relic_result(6)
    assert carry_check(4, charged=True, result=wine).dropped
    assert "Ancient Wine" in carry_check(4, charged=True, result=wine).reason


def test_passing_once_per_movement_phase_to_a_scoring_model_in_contact() -> None:
    base = {"relic": {"carrier": "r1"}}
    s = scenario(
        units=[
            unit("red-core", "red", model("r1", 10, 10), model("r2", 11 + CONTACT, 10)),
            unit("red-elite", "red", model("e1", 9 - CONTACT, 10), keywords=("ELITE",)),
            unit("blue-core", "blue", model("b1", 10, 11 + CONTACT)),
        ],
        game={"scrollhammer": base},
    )
    assert can_pass(s, "r1", "r2").allowed
    assert not can_pass(s, "r1", "e1").allowed
    assert not can_pass(s, "r1", "b1").allowed
    assert not can_pass(s, "r2", "r1").allowed
    moved = s.with_models([s.model("r2").moved(EPS, 0)])
    assert not can_pass(moved, "r1", "r2").allowed
    passed = scenario(
        units=s.units,
        game={"scrollhammer": {"relic": {"carrier": "r1", "passed_this_phase": True}}},
    )
    assert "once per Movement phase" in can_pass(passed, "r1", "r2").reason


def test_dropping_voluntarily_and_where_the_relic_goes() -> None:
    s = _relic_scenario(20, game={"relic": {"carrier": "r1", "result": 11}})
    assert not can_drop(s).allowed
    assert "Staff of Everscamp" in can_drop(s).reason
    assert can_drop(s, relic_result(4)).allowed
    x, y = drop_position(s, "r1", 0.0)
    assert (x, y) == pytest.approx((21.5, 24.0))
    assert model_point_distance(s.model("r1"), x, y) == pytest.approx(1.0)
    blocked = scenario(
        units=s.units,
        terrain=[square("pit", 21, 23, 23, 25, impassable=True)],
    )
    bx, by = drop_position(blocked, "r1", 0.0)
    assert (bx, by) == pytest.approx((21.0, 24.0))


@pytest.mark.parametrize(("gap", "at_edge"), [(0.0, True), (EPS, False)])
def test_capturing_needs_the_bearer_at_its_own_board_edge(gap: float, at_edge: bool) -> None:
    s = scenario(
        units=[unit("red-core", "red", model("r1", 20, 0.5 + gap))],
        options={"mission": "quest-for-the-relic"},
    )
    check = capture_check(s, "r1")
    assert check.allowed is at_edge
    assert "south" in check.reason


def test_relic_chart() -> None:
    from engine.rulesets.scrollhammer.relic import relic_chart

    chart = relic_chart()
    assert chart.categories[0] == "2 Dust and Mothballs"
    assert sum(chart.series[0].values) == 1
    assert chart.series[0].values[5] == Fraction(1, 6)
