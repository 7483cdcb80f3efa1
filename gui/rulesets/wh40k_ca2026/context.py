"""What the mission docks share: the document, one live score per scenario value, and the way
an edit is made (one undo step, or the engine's reason shown and nothing changed).

The docks refresh from :attr:`MissionContext.refreshed`, emitted shortly after the document
changes (coalesced, and not during a drag: a drag's live scoring waits for the drop, so the
drag never stutters).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from engine.errors import WarplanError
from engine.model import Scenario, freeze, thaw
from gui.document import Change, ScenarioDocument
from gui.panels.context import PanelContext
from gui.plugin_api import RulesetLookup

REFRESH_DELAY_MS = 30
RULESET = "wh40k-ca2026"


class MissionContext(PanelContext):
    """The document seen by the mission docks, and their one door for edits."""

    def __init__(self, document: ScenarioDocument, rulesets: RulesetLookup) -> None:
        super().__init__(document, REFRESH_DELAY_MS)
        self.rulesets = rulesets
        """The other rule systems' app parts (their titles, mission and chart words)."""
        self._score_for: Scenario | None = None
        self._score: Any = None
        self._previews_for: Scenario | None = None
        self._previews: dict[tuple[int, str, str], Any] = {}

    def _on_changed(self, change: Change) -> None:
        if not change.previewing:
            super()._on_changed(change)

    def ruleset_title(self, ruleset: str) -> str:
        ui = self.rulesets(ruleset)
        return ui.title if ui is not None else ruleset

    def score(self) -> Any:
        """``engine.rulesets.wh40k_ca2026.score`` of the current scenario (None when it cannot be
        scored:
        another ruleset, or an error the report explains), computed once per value."""
        scenario = self.document.scenario
        if self._score_for is not scenario:
            self._score_for = scenario
            self._score = None
            if scenario.ruleset == RULESET:
                from engine.rulesets.wh40k_ca2026 import score

                try:
                    self._score = score(scenario)
                except WarplanError as error:
                    self.message.emit(f"Cannot score this moment: {error}")
        return self._score

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
