"""The scoring moments of a battle round, and the live score as if the game were at each of them
(the app's "at the end of your turn this card would score ..." previews).

The cards' WHEN lines score at the end of your Command phase, the end of your turn, the end of
a turn, the end of your opponent's turn (or of the fifth battle round) and the end of the
battle: within a battle round, cards score at the end of each player's Command phase and at the
end of each player's turn (:data:`ROUND_SCORING_TIMINGS`); the end of the battle closes the
last round.

Where the rules text is silent (also in ``docs/rules-decisions.md``): a score at another moment
changes only the moment (battle round, active player, timing). Everything else the file records
stays as it is: the battlefield, so one evaluation serves every moment, and the game section's
records (VP already scored this round, units destroyed this turn, actions completed), so it
answers "what would this card score then if nothing else changed".

>>> from engine.model import Player, Scenario, freeze
>>> s = Scenario("wh40k-ca2026", (Player("red"), Player("blue")),
...              game=freeze({"battle_round": 2, "active_player": "blue",
...                           "timing": "end_of_command_phase", "first_player": "red"}))
>>> for moment in round_scoring_moments(s):
...     print(moment.battle_round, moment.active_player, moment.timing)
2 red end_of_command_phase
2 red end_of_turn
2 blue end_of_command_phase
2 blue end_of_turn
>>> scores = score_round(s)
>>> scores.now.active_player, scores.now.timing
('blue', 'end_of_command_phase')
>>> [(moment.active_player, moment.timing) for moment in scores.at]
[('red', 'end_of_command_phase'), ('red', 'end_of_turn'), ('blue', 'end_of_turn')]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import NamedTuple

from engine.errors import WarplanError
from engine.evaluate import Evaluation, evaluate
from engine.model import EMPTY, Scenario, freeze, thaw
from engine.rulesets.wh40k_ca2026.edits import turn_position
from engine.rulesets.wh40k_ca2026.scoring import score
from engine.score_report import ScoreReport

ROUND_SCORING_TIMINGS = ("end_of_command_phase", "end_of_turn")
"""The moments of each player's turn at which cards score, in the order they happen."""


class RoundMoment(NamedTuple):
    """A scoring moment of a battle round: the round, whose turn it is, and the timing."""

    battle_round: int
    active_player: str
    timing: str


def round_scoring_moments(scenario: Scenario) -> tuple[RoundMoment, ...]:
    """The scoring moments of the battle round the ``game`` section is in, in the order they
    happen (the first player's turn, then the other's); none when it does not say where the
    battle is, or at the end of the battle.

    >>> from engine.model import Player, Scenario, freeze
    >>> ended = Scenario("wh40k-ca2026", (Player("red"), Player("blue")),
    ...                  game=freeze({"battle_round": 5, "active_player": "blue",
    ...                               "timing": "end_of_battle"}))
    >>> round_scoring_moments(ended)
    ()
    """
    position = turn_position(scenario)
    if position is None or position.timing == "end_of_battle":
        return ()
    first, second = scenario.player_ids()
    if position.first_player == second:
        first, second = second, first
    return tuple(
        RoundMoment(position.battle_round, player, timing)
        for player in (first, second)
        for timing in ROUND_SCORING_TIMINGS
    )


def score_at(
    scenario: Scenario, moment: RoundMoment, evaluation: Evaluation | None = None
) -> ScoreReport | None:
    """The score as if the game were at ``moment``, all else as the file records it; None when
    the scenario cannot be scored then.

    ``evaluation``: the scenario's evaluation, which another moment leaves as it is (the
    battlefield does not change); without it, one is worked out here.
    """
    game = dict(thaw(scenario.game or EMPTY))
    game.update(
        battle_round=moment.battle_round, active_player=moment.active_player, timing=moment.timing
    )
    try:
        return score(replace(scenario, game=freeze(game)), evaluation)
    except WarplanError:
        return None


@dataclass(frozen=True)
class RoundScores:
    """The score now, and as if the game were at each other scoring moment of the battle round
    (in the order they happen; None where it cannot be scored)."""

    now: ScoreReport
    at: Mapping[RoundMoment, ScoreReport | None]


def score_round(scenario: Scenario, evaluation: Evaluation | None = None) -> RoundScores:
    """The score of the moment the ``game`` section describes and of the battle round's other
    scoring moments, all from one evaluation (the caller's, else worked out once here)."""
    if evaluation is None:
        evaluation = evaluate(scenario, visibility=False)
    position = turn_position(scenario)
    current = (
        None
        if position is None
        else RoundMoment(position.battle_round, position.active_player, position.timing)
    )
    at = {
        moment: score_at(scenario, moment, evaluation)
        for moment in round_scoring_moments(scenario)
        if moment != current
    }
    return RoundScores(score(scenario, evaluation), at)
