"""The scoring moments of a battle round, and scores as if the game were at another of them."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from mission_builders import BASE, IN_RANGE
from mission_builders import dawn_of_war as scenario

from engine.errors import GeometryError
from engine.game_state import TIMINGS
from engine.model import Model, Scenario, Unit, freeze
from engine.rulesets.wh40k_ca2026 import scoring
from engine.rulesets.wh40k_ca2026.cards import primary_missions, secondary_missions
from engine.rulesets.wh40k_ca2026.moments import (
    ROUND_SCORING_TIMINGS,
    RoundMoment,
    round_scoring_moments,
    score_at,
    score_round,
)
from engine.rulesets.wh40k_ca2026.scoring import score, timing_applies


def dominance(timing: str, **game: Any) -> Scenario:
    """Red holds its home objective and the west expansion in battle round 2: BATTLEFIELD
    DOMINANCE gives 3 x 2 + 2 x 1 VP at the end of red's Command phase."""
    units = (
        Unit("red-home", "red", (Model("red-home-1", 30, 6 + IN_RANGE, BASE),)),
        Unit("red-west", "red", (Model("red-west-1", 10, 22 - IN_RANGE, BASE),)),
    )
    return scenario(
        *units,
        game={
            "battle_round": 2,
            "active_player": "red",
            "timing": timing,
            "first_player": "red",
            "players": {"red": {"primary": "BATTLEFIELD DOMINANCE"}},
            **game,
        },
    )


def red_vp(report: Any) -> int:
    vp: int = report.player("red").vp
    return vp


def test_cards_score_in_a_round_only_at_the_round_scoring_timings() -> None:
    scored_at: set[str] = set()
    for found in (*primary_missions(), *secondary_missions()):
        for section, timing in found.timings():
            for battle_round in range(1, 6):
                for active in ("red", "blue"):
                    for game_timing in TIMINGS:
                        if game_timing == "end_of_battle":
                            continue
                        moment = scoring.Moment(battle_round, active, game_timing, "red")
                        if timing_applies(timing, section.battle_rounds, moment, "red")[0]:
                            scored_at.add(game_timing)
    assert scored_at == set(ROUND_SCORING_TIMINGS)


def test_the_round_moments_follow_the_turn_order() -> None:
    blue_first = dominance("start_of_turn", first_player="blue")
    assert round_scoring_moments(blue_first) == (
        RoundMoment(2, "blue", "end_of_command_phase"),
        RoundMoment(2, "blue", "end_of_turn"),
        RoundMoment(2, "red", "end_of_command_phase"),
        RoundMoment(2, "red", "end_of_turn"),
    )


@pytest.mark.parametrize(
    "game",
    [{}, {"battle_round": 5, "active_player": "red", "timing": "end_of_battle"}],
    ids=["no recorded moment", "end of the battle"],
)
def test_no_round_moments_without_a_moment_or_after_the_battle(game: dict[str, Any]) -> None:
    s = scenario(game=game)
    assert round_scoring_moments(s) == ()
    assert score_round(s).at == {}


def test_the_round_scores_every_other_moment_as_the_score_at_that_moment() -> None:
    s = dominance("start_of_turn")
    scores = score_round(s)
    assert list(scores.at) == list(round_scoring_moments(s))
    assert red_vp(scores.now) == 0
    command = RoundMoment(2, "red", "end_of_command_phase")
    moved = dominance("end_of_command_phase")
    assert scores.at[command] is not None
    assert scores.at[command].to_json() == score(moved).to_json()
    assert red_vp(scores.at[command]) == 3 * 2 + 2 * 1


def test_the_moment_now_is_not_among_the_other_moments() -> None:
    scores = score_round(dominance("end_of_command_phase"))
    assert RoundMoment(2, "red", "end_of_command_phase") not in scores.at
    assert red_vp(scores.now) == 3 * 2 + 2 * 1
    assert len(scores.at) == len(ROUND_SCORING_TIMINGS) * 2 - 1


def test_another_moment_keeps_the_rest_of_the_game_section() -> None:
    """13VP already scored this round leave room for 2VP at the end of the Command phase."""
    s = dominance("start_of_turn")
    game = dict(s.game or {})
    game["players"] = {"red": {"primary": "BATTLEFIELD DOMINANCE", "vp_this_round": 13}}
    capped = score_at(replace(s, game=freeze(game)), RoundMoment(2, "red", "end_of_command_phase"))
    assert capped is not None
    assert red_vp(capped) == 2


def test_a_moment_that_cannot_be_scored_is_none(monkeypatch: pytest.MonkeyPatch) -> None:
    def unmeasurable(_ask: scoring.Ask) -> scoring.Measured:
        raise GeometryError("the objective's area cannot be measured")

    monkeypatch.setitem(scoring.MEASURES, "objectives_controlled", unmeasurable)
    scores = score_round(dominance("start_of_turn"))
    assert scores.at[RoundMoment(2, "red", "end_of_command_phase")] is None
    assert scores.at[RoundMoment(2, "red", "end_of_turn")] is not None
