"""The document as a dock's panels see it: one ``refreshed`` report once the rules pipeline's
analysis for the current scenario value is ready (after a burst of changes, a drag's drop, an
undo, a file opened), and a ``message`` for the status bar."""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from engine.model import Scenario
from gui.document import ScenarioDocument
from gui.live import Analyse, AnalysisResult, LiveRules


class PanelContext(QObject):
    """Refreshes its panels from the pipeline's analysis ``name`` (registered here), which runs
    off the UI thread on each new scenario value with the value's one evaluation."""

    refreshed = Signal(object)
    """Emitted with the scenario once the panels should show it."""
    message = Signal(str)
    """A sentence for the status bar: what was done, or why a move was refused."""

    def __init__(
        self,
        document: ScenarioDocument,
        live: LiveRules,
        name: str,
        analyse: Analyse,
        *,
        during_drag: bool,
        ruleset: str | None = None,
    ) -> None:
        # A child of the document, so a refresh still pending when the window (and with it
        # the document) is deleted dies with them instead of reaching deleted docks.
        super().__init__(document)
        self.document = document
        self.live = live
        self.name = name
        live.analysed.connect(self._on_analysed)
        live.add_analysis(name, analyse, during_drag=during_drag, ruleset=ruleset)

    @property
    def scenario(self) -> Scenario:
        return self.document.scenario

    def serves(self, scenario: Scenario) -> bool:
        """Whether ``scenario`` is a game of the rule system this context's analysis is for
        (the pipeline decides; the panels show their own view or another system's words)."""
        return self.live.serves(self.name, scenario)

    @property
    def result(self) -> AnalysisResult | None:
        """The analysis of the current scenario value (None while it is being worked out)."""
        return self.live.analysis(self.name)

    def _on_analysed(self, result: AnalysisResult) -> None:
        if result.name == self.name:
            if result.error:
                self.message.emit(result.error)
            self.refreshed.emit(result.scenario)

    def refresh_now(self) -> None:
        """Finish the analyses under way and show the current scenario (after a button's edit,
        so the panel answers the click at once)."""
        self.live.wait_for_analyses()
        self.refreshed.emit(self.document.scenario)
