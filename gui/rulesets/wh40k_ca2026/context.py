"""What the mission docks share: the document, one live score per scenario value, and the way
an edit is made (one undo step, or the engine's reason shown and nothing changed).

The docks refresh from :attr:`MissionContext.refreshed`, emitted once the rules pipeline has
scored the current scenario value, off the UI thread, from the value's one evaluation (not
during a drag: a drag's scoring waits for the drop, so the drag never stutters).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from engine.errors import WarplanError
from engine.evaluate import Evaluation
from engine.model import Scenario, freeze, thaw
from engine.rulesets.wh40k_ca2026 import ScoreReport, score
from gui.document import ScenarioDocument
from gui.live import LiveRules
from gui.panels.context import PanelContext
from gui.plugin_api import RulesetLookup

RULESET = "wh40k-ca2026"
SCORE = "wh40k-ca2026 score"
"""The name of the scoring analysis in the rules pipeline."""


def score_now(scenario: Scenario, _evaluation: Evaluation | None) -> ScoreReport | None:
    """The pipeline's scoring of one scenario value (None for another rule system's game)."""
    return score(scenario) if scenario.ruleset == RULESET else None


class MissionContext(PanelContext):
    """The document seen by the mission docks, and their one door for edits."""

    def __init__(
        self, document: ScenarioDocument, live: LiveRules, rulesets: RulesetLookup
    ) -> None:
        super().__init__(document, live, SCORE, score_now, during_drag=False)
        self.rulesets = rulesets
        """The other rule systems' app parts (their titles, mission and chart words)."""
        self._previews_for: Scenario | None = None
        self._previews: dict[tuple[int, str, str], Any] = {}

    def ruleset_title(self, ruleset: str) -> str:
        ui = self.rulesets(ruleset)
        return ui.title if ui is not None else ruleset

    def score(self) -> ScoreReport | None:
        """The score report of the current scenario value (None while it is being worked out,
        for another ruleset, or when it cannot be scored: the status bar says why)."""
        result = self.result
        value = result.value if result is not None else None
        return value if isinstance(value, ScoreReport) else None

    def score_at(self, battle_round: int, active_player: str, timing: str) -> Any:
        """The score report as if the game were at another moment of the current scenario
        (a preview: "at the end of your turn this card would score..."); None when it cannot be
        scored."""
        scenario = self.document.scenario
        if scenario.ruleset != RULESET or scenario.game is None:
            return None
        key = (battle_round, active_player, timing)
        if self._previews_for is not scenario:
            self._previews_for = scenario
            self._previews = {}
        if key not in self._previews:
            from engine.rulesets.wh40k_ca2026 import score

            game = dict(thaw(scenario.game))
            game.update(battle_round=battle_round, active_player=active_player, timing=timing)
            try:
                self._previews[key] = score(replace(scenario, game=freeze(game)))
            except WarplanError:
                self._previews[key] = None
        return self._previews[key]

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
