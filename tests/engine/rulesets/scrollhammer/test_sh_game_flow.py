"""Game flow dice, checked against brute-force enumeration of every die sequence."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest

from engine.errors import RulesError
from engine.rulesets.scrollhammer.game_flow import (
    PRE_DEPLOYMENT,
    first_turn,
    game_end_roll,
    game_length_chart,
    game_length_distribution,
    night_fighting_chart,
    night_fighting_scheme,
    night_fighting_status,
    night_fighting_turns,
    ongoing_reserves_return_turn,
    reserve_arrival_distribution,
    reserve_roll,
    reserves_chart,
    roll_game_end,
    roll_night_fighting,
    roll_reserves,
    seize_the_initiative_probability,
    turn_played_probability,
)

FACES = range(1, 7)


@pytest.mark.parametrize(
    ("turn", "roll", "continues"),
    [(5, 3, True), (5, 2, False), (6, 4, True), (6, 3, False), (4, None, True)],
)
def test_game_end_rolls(turn: int, roll: int | None, continues: bool) -> None:
    assert game_end_roll(turn, roll).continues is continues


def test_the_battle_ends_at_the_close_of_turn_7_and_rolls_are_needed() -> None:
    assert not game_end_roll(7).continues
    with pytest.raises(RulesError, match="needs a D6"):
        game_end_roll(5)
    with pytest.raises(RulesError):
        game_end_roll(5, 7)


def test_game_length_distribution_matches_enumeration() -> None:
    counts: dict[int, int] = {}
    for first, second in itertools.product(FACES, FACES):
        last = 5 if first < 3 else (6 if second < 4 else 7)
        counts[last] = counts.get(last, 0) + 1
    assert game_length_distribution() == {t: Fraction(n, 36) for t, n in counts.items()}
    assert [turn_played_probability(t) for t in (1, 5, 6, 7, 8)] == [
        1,
        1,
        Fraction(2, 3),
        Fraction(1, 3),
        0,
    ]


def test_game_length_chart_and_seeded_roll() -> None:
    chart = game_length_chart()
    assert chart.categories == ("5", "6", "7")
    assert chart.series_named("over by the end of this turn").values[-1] == 1
    assert chart.to_json()["series"][0]["exact"] == ["1/3", "1/3", "1/3"]
    assert roll_game_end(5, random.Random(1)) == roll_game_end(5, random.Random(1))
    assert roll_game_end(3, random.Random(1)).roll is None


def test_seize_the_initiative_and_first_turn() -> None:
    assert seize_the_initiative_probability() == Fraction(1, 6)
    assert first_turn("held-ground", "red", "blue").player == "red"
    assert first_turn("held-ground", "red", "blue", seize_roll=6).player == "blue"
    assert first_turn("held-ground", "red", "blue", seize_roll=5).player == "red"
    stolen = first_turn("blood-at-dawn", "red", "blue", seize_roll=1)
    assert stolen.player == "blue"
    assert "automatically steals" in stolen.reason


def _standard_active(pre: int, later: tuple[int, ...], turn: int) -> bool:
    """The rulebook's Night Fighting, written out plainly for enumeration."""
    if pre >= 4:
        return turn == 1
    if turn < 5:
        return False
    return any(roll >= 4 for roll in later[: turn - 4])


def test_standard_night_fighting_matches_enumeration() -> None:
    expected = {t: Fraction(0) for t in range(1, 8)}
    for pre, *later in itertools.product(FACES, repeat=4):
        for turn in range(1, 8):
            if _standard_active(pre, tuple(later), turn):
                expected[turn] += Fraction(1, 6**4)
    assert night_fighting_turns("season-unending") == expected


def test_shimmer_of_dawn_matches_enumeration() -> None:
    expected = {t: Fraction(0) for t in range(1, 8)}
    for rolls in itertools.product(FACES, repeat=3):
        on = True
        for turn in range(1, 8):
            if turn in (2, 3, 4) and on:
                on = rolls[turn - 2] >= (4, 5, 6)[turn - 2]
            if turn == 5:
                on = False
            if on:
                expected[turn] += Fraction(1, 216)
    assert night_fighting_turns("blood-at-dawn") == expected
    assert [expected[t] for t in (1, 2, 3, 4, 5)] == [
        1,
        Fraction(1, 2),
        Fraction(1, 6),
        Fraction(1, 36),
        0,
    ]


def test_night_fighting_status_follows_the_rolls() -> None:
    due = night_fighting_status("held-ground", {}, 1)
    assert not due.active
    assert due.roll_due is not None
    assert due.roll_due.turn == PRE_DEPLOYMENT
    assert night_fighting_status("held-ground", {0: 4}, 1).active
    assert not night_fighting_status("held-ground", {0: 4}, 5).active
    assert night_fighting_status("held-ground", {0: 4}, 5, turn1_lasts=True).active
    assert not night_fighting_status("held-ground", {0: 3}, 1).active
    assert not night_fighting_status("held-ground", {0: 3, 5: 3}, 5).active
    assert night_fighting_status("held-ground", {0: 3, 5: 3}, 6).roll_due is not None
    assert night_fighting_status("held-ground", {0: 3, 5: 3, 6: 4}, 7).active
    assert not night_fighting_status("field-of-glory", {}, 1).active
    assert night_fighting_status("blood-at-dawn", {}, 1).active
    assert not night_fighting_status("blood-at-dawn", {2: 3}, 2).active
    assert night_fighting_status("blood-at-dawn", {2: 4, 3: 5, 4: 6}, 4).active
    assert not night_fighting_status("blood-at-dawn", {2: 4, 3: 5, 4: 6}, 5).active
    assert night_fighting_scheme("quest-for-the-relic") == "standard"


def test_rolling_night_fighting_is_seeded_and_complete() -> None:
    record, status = roll_night_fighting("season-unending", {}, 7, random.Random(5))
    assert status.roll_due is None
    assert roll_night_fighting("season-unending", {}, 7, random.Random(5))[0] == record
    assert PRE_DEPLOYMENT in record


def test_night_fighting_chart_starts_and_ends() -> None:
    chart = night_fighting_chart("season-unending")
    starts = chart.series_named("starts this turn").values
    assert starts == (
        Fraction(1, 2),
        0,
        0,
        0,
        Fraction(1, 4),
        Fraction(1, 8) * Fraction(2, 3),
        Fraction(1, 16) * Fraction(1, 3),
    )
    assert chart.series_named("ends after this turn").values[0] == Fraction(1, 2)
    shimmer = night_fighting_chart("blood-at-dawn").series_named("ends after this turn").values
    assert shimmer[:4] == (Fraction(1, 2), Fraction(1, 3), Fraction(5, 36), Fraction(1, 36))
    assert sum(shimmer) == 1


@pytest.mark.parametrize(
    ("turn", "roll", "modifier", "arrives"),
    [
        (2, 3, 0, True),
        (2, 2, 0, False),
        (3, 3, 0, True),
        (3, 2, 0, False),
        (2, 1, 5, False),
        (2, 2, 1, True),
        (2, 6, -4, False),
    ],
)
def test_reserve_rolls(turn: int, roll: int, modifier: int, arrives: bool) -> None:
    assert reserve_roll("u", turn, roll, modifier).arrives is arrives


def test_reserves_arrive_automatically_on_turn_4_and_not_on_turn_1() -> None:
    assert reserve_roll("u", 4).arrives
    assert reserve_roll("u", 4).roll is None
    with pytest.raises(RulesError):
        reserve_roll("u", 1, 6)


@pytest.mark.parametrize("modifier", [-3, -1, 0, 1, 4])
def test_reserve_distribution_matches_enumeration(modifier: int) -> None:
    expected = {2: Fraction(0), 3: Fraction(0), 4: Fraction(0)}
    for first, second in itertools.product(FACES, FACES):
        if first != 1 and first + modifier >= 3:
            expected[2] += Fraction(1, 36)
        elif second != 1 and second + modifier >= 3:
            expected[3] += Fraction(1, 36)
        else:
            expected[4] += Fraction(1, 36)
    assert reserve_arrival_distribution(modifier) == expected


def test_reserve_chart_and_seeded_rolls() -> None:
    chart = reserves_chart((0, -1))
    assert chart.series_named("arrived by this turn").values[-1] == 1
    assert chart.series_named("arrives this turn (modifier -1)").values[0] == Fraction(1, 2)
    rolls = roll_reserves(["b", "a"], 2, random.Random(9), {"a": 1})
    assert [r.unit_id for r in rolls] == ["a", "b"]
    assert rolls[0].modifier == 1
    assert rolls == roll_reserves(["a", "b"], 2, random.Random(9), {"a": 1})


def test_ongoing_reserves_return_on_the_controlling_players_next_turn() -> None:
    assert ongoing_reserves_return_turn(2, entered_in_own_turn=True, goes_first=False) == 3
    assert ongoing_reserves_return_turn(2, entered_in_own_turn=False, goes_first=False) == 2
