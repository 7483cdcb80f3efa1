"""What the mission docks share: the document, one live score per scenario value, and the way
an edit is made (one undo step, or the engine's reason shown and nothing changed).

The docks refresh from :attr:`MissionContext.refreshed`, emitted once the rules pipeline has
scored the current scenario value, off the UI thread, from the value's one evaluation (not
during a drag: a drag's scoring waits for the drop, so the drag never stutters). What is
scored, now and at the battle round's other scoring moments, is the engine's
(:func:`engine.rulesets.wh40k_ca2026.moments.score_round`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from engine.errors import WarplanError
from engine.evaluate import Evaluation
from engine.model import Scenario
from engine.rulesets.wh40k_ca2026 import ScoreReport
from engine.rulesets.wh40k_ca2026.moments import RoundMoment, RoundScores, score_round
from gui.document import ScenarioDocument
from gui.live import LiveRules
from gui.panels.context import PanelContext
from gui.plugin_api import RulesetLookup

RULESET = "wh40k-ca2026"
SCORE = "wh40k-ca2026 score"
"""The name of the scoring analysis in the rules pipeline."""


def score_now(scenario: Scenario, evaluation: Evaluation | None) -> RoundScores:
    """The pipeline's analysis of one scenario value: the engine's score now and at the battle
    round's other scoring moments, from the value's one evaluation (the pipeline runs it for
    Chapter Approved games only; another system's docks show their own)."""
    return score_round(scenario, evaluation)


class MissionContext(PanelContext):
    """The document seen by the mission docks, and their one door for edits."""

    def __init__(
        self, document: ScenarioDocument, live: LiveRules, rulesets: RulesetLookup
    ) -> None:
        super().__init__(document, live, SCORE, score_now, during_drag=False, ruleset=RULESET)
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

    def scores_at_other_moments(self) -> Mapping[RoundMoment, ScoreReport | None]:
        """The score reports as if the game were at each other scoring moment of the current
        battle round, in the order they happen (worked out with the score, off the UI thread;
        empty while it is being worked out)."""
        scores = self._scores()
        return scores.at if scores is not None else {}

    def _scores(self) -> RoundScores | None:
        result = self.result
        return (
            result.value if result is not None and isinstance(result.value, RoundScores) else None
        )

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
