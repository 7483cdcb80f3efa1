"""What the mission docks share: the document, one live score per scenario value, and the way
an edit is made (one undo step, or the engine's reason shown and nothing changed).

The docks refresh from :attr:`MissionContext.refreshed`, emitted once the rules pipeline has
scored the current scenario value, off the UI thread, from the value's one evaluation (not
during a drag: a drag's scoring waits for the drop, so the drag never stutters).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

from engine.errors import WarplanError
from engine.evaluate import Evaluation
from engine.model import EMPTY, Scenario, freeze, thaw
from engine.rulesets.wh40k_ca2026 import ScoreReport, score
from engine.rulesets.wh40k_ca2026.edits import turn_position
from gui.document import ScenarioDocument
from gui.live import LiveRules
from gui.panels.context import PanelContext
from gui.plugin_api import RulesetLookup

RULESET = "wh40k-ca2026"
SCORE = "wh40k-ca2026 score"
"""The name of the scoring analysis in the rules pipeline."""


SCORING_MOMENTS = ("end_of_command_phase", "end_of_turn")
"""The moments of each player's turn the cards score at (the previews' moments)."""

Moment = tuple[int, str, str]
"""Battle round, active player, timing."""


@dataclass(frozen=True)
class Scores:
    """The score report of one scenario value, and as if the game were at each other scoring
    moment of its battle round (the cards' "at the end of your turn this would score...")."""

    now: ScoreReport
    at: Mapping[Moment, ScoreReport | None]


def _at_moment(
    scenario: Scenario, moment: Moment, evaluation: Evaluation | None
) -> ScoreReport | None:
    battle_round, active_player, timing = moment
    game = dict(thaw(scenario.game or EMPTY))
    game.update(battle_round=battle_round, active_player=active_player, timing=timing)
    try:
        # The evaluation judges the battlefield, which another moment of the game leaves as it
        # is: the one evaluation serves every moment.
        return score(replace(scenario, game=freeze(game)), evaluation)
    except WarplanError:
        return None


def score_now(scenario: Scenario, evaluation: Evaluation | None) -> Scores | None:
    """The pipeline's scoring of one scenario value, from its one evaluation (None for another
    rule system's game)."""
    if scenario.ruleset != RULESET:
        return None
    now = score(scenario, evaluation)
    position = turn_position(scenario)
    at: dict[Moment, ScoreReport | None] = {}
    if position is not None and position.timing != "end_of_battle":
        for player in scenario.player_ids():
            for timing in SCORING_MOMENTS:
                if (player, timing) != (position.active_player, position.timing):
                    moment = (position.battle_round, player, timing)
                    at[moment] = _at_moment(scenario, moment, evaluation)
    return Scores(now, at)


class MissionContext(PanelContext):
    """The document seen by the mission docks, and their one door for edits."""

    def __init__(
        self, document: ScenarioDocument, live: LiveRules, rulesets: RulesetLookup
    ) -> None:
        super().__init__(document, live, SCORE, score_now, during_drag=False)
        self.rulesets = rulesets
        """The other rule systems' app parts (their titles, mission and chart words)."""

    def ruleset_title(self, ruleset: str) -> str:
        ui = self.rulesets(ruleset)
        return ui.title if ui is not None else ruleset

    def score(self) -> ScoreReport | None:
        """The score report of the current scenario value (None while it is being worked out,
        for another ruleset, or when it cannot be scored: the status bar says why)."""
        scores = self._scores()
        return scores.now if scores is not None else None

    def score_at(self, battle_round: int, active_player: str, timing: str) -> ScoreReport | None:
        """The score report as if the game were at another scoring moment of the current
        battle round (worked out with the score, off the UI thread); None when it cannot be
        scored."""
        scores = self._scores()
        return scores.at.get((battle_round, active_player, timing)) if scores else None

    def _scores(self) -> Scores | None:
        result = self.result
        return result.value if result is not None and isinstance(result.value, Scores) else None

    def edit(self, make: Callable[[Scenario], Scenario], text: str) -> bool:
        """Apply ``make(scenario)`` as one undo step named ``text``; on an illegal move show the
        engine's reason, change nothing and return False."""
        try:
            after = make(self.document.scenario)
        except WarplanError as error:
            self.message.emit(f"{text}: {error}")
            return False
        self.document.apply(after, text)
        self.message.emit(text)
        return True
