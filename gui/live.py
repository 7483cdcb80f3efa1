"""Live rules: the one pipeline from a document change to everything the app shows.

``LiveRules`` listens to the document. After every change it evaluates once (never from a
``paint()``): during a drag, ``IncrementalEvaluator.update`` for the moved units only; after
other edits, a full ``evaluate`` (without line of sight). That one evaluation feeds the
overlays, the Ruling dock and every *analysis* the rule systems' app parts register
(:meth:`LiveRules.add_analysis`: mission scoring, a ruleset's report), which take it as input
instead of evaluating again.

Heavy work runs on worker threads over the immutable scenario. Analyses: one job in flight at
a time, a newer request replaces an older pending one, a result for a scenario that is no longer
current is dropped; during a drag they start once the pointer rests (their results would be
stale on arrival otherwise, and they hold the interpreter for milliseconds each), and those that
do not follow previews wait for the drop. Line of sight: one incremental engine for the whole
app (:attr:`LiveRules.sight`, a :class:`gui.sight.SightController`); the selected unit's row
for the Ruling dock is read from the same result the sight overlays draw, so a pair is worked
out once a change and explained the same way everywhere.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QObject, QRunnable, QThreadPool, QTimer, Signal, Slot

from engine.errors import WarplanError
from engine.evaluate import Evaluation, IncrementalEvaluator, evaluate
from engine.model import Scenario
from engine.visibility import PairVisibility
from gui.document import Change, ScenarioDocument
from gui.sight import SightController, SightResult, SightScope

RULING_VIEW = "ruling"
"""The name under which the Ruling dock's line of sight asks the sight controller for pairs."""
REST_BEFORE_ANALYSES_MS = 40
"""During a drag, the analyses that follow previews start once the pointer has rested this long
(about a frame, so the board's rule marks keep up with a slow drag)."""

Analyse = Callable[[Scenario, Evaluation | None], object]
"""An analysis: the scenario and its one evaluation (None when the rules could not judge it) to
a result; raises :class:`engine.errors.WarplanError` when the rules refuse."""


@dataclass(frozen=True)
class Analysis:
    name: str
    analyse: Analyse
    during_drag: bool
    """Whether it follows a drag's previews (else it waits for the drop)."""


@dataclass(frozen=True)
class AnalysisResult:
    """One analysis of one scenario value."""

    name: str
    scenario: Scenario
    value: object
    error: str
    seconds: float


@dataclass(frozen=True)
class VisibilityResult:
    """Line of sight from one observing unit, for one scenario value."""

    scenario: Scenario
    observer: str
    pairs: tuple[PairVisibility, ...]
    seconds: float
    error: str = ""


class _WorkerSignals(QObject):
    analysed = Signal(object)
    analyses_done = Signal(object)


class _AnalysesTask(QRunnable):
    """Runs analyses of one scenario value in turn, publishing each result as it is ready."""

    def __init__(
        self,
        scenario: Scenario,
        evaluation: Evaluation | None,
        analyses: tuple[Analysis, ...],
        serving: frozenset[str],
        signals: _WorkerSignals,
    ) -> None:
        super().__init__()
        self._scenario = scenario
        self._evaluation = evaluation
        self._analyses = analyses
        self._serving = serving
        self._signals = signals
        self.setAutoDelete(True)

    def run(self) -> None:
        try:
            for analysis in self._analyses:
                started = time.perf_counter()
                value: object = None
                error = ""
                try:
                    if analysis.name in self._serving:
                        value = analysis.analyse(self._scenario, self._evaluation)
                except WarplanError as refusal:
                    error = str(refusal)
                except Exception as failure:  # noqa: BLE001 - reported to the user, never a crash
                    error = f"{type(failure).__name__}: {failure}"
                self._signals.analysed.emit(
                    AnalysisResult(
                        analysis.name,
                        self._scenario,
                        value,
                        error,
                        time.perf_counter() - started,
                    )
                )
            self._signals.analyses_done.emit(self._scenario)
        except RuntimeError:
            # The window closed while this ran: nobody is waiting for the results.
            return


class LiveRules(QObject):
    """Keeps the engine's :class:`Evaluation` of the document's scenario, its analyses and
    line-of-sight results."""

    evaluated = Signal(object)
    """The new :class:`Evaluation` (``None`` when the rules cannot judge the scenario: see
    :attr:`last_error`)."""
    overlaps_changed = Signal(object)
    """The ids of the models whose bases overlap another's (from the evaluation)."""
    visibility_ready = Signal(object)
    """A :class:`VisibilityResult` for the current scenario and observer."""
    visibility_stale = Signal()
    """The scenario or observer changed; the shown line of sight is out of date."""
    analysed = Signal(object)
    """An :class:`AnalysisResult` for the current scenario."""

    def __init__(
        self,
        document: ScenarioDocument,
        *,
        thread_pool: QThreadPool | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.document = document
        self.evaluation: Evaluation | None = None
        """The engine's conclusions about the current scenario (None: see ``last_error``)."""
        self.seconds = 0.0
        """How long the last evaluation took."""
        self.last_error = ""
        self.overlapping: frozenset[str] = frozenset()
        self.visibility: VisibilityResult | None = None
        """What the observer sees, from :attr:`sight`'s latest result."""
        self.observer: str | None = None
        self.visibility_enabled = True
        self.sight = SightController(document, parent=self)
        """The app's one line-of-sight computation: the observer's row for the ruling and every
        sight view (:mod:`gui.sight_overlay`) read its results. It waits for
        :meth:`release_visibility` (the window's first frame)."""
        self.sight.sight_ready.connect(self._on_sight_ready)
        self.sight.sight_stale.connect(self.visibility_stale)
        self._incremental: IncrementalEvaluator | None = None
        self._pool = thread_pool or QThreadPool.globalInstance()
        self._signals = _WorkerSignals()
        self._analyses: list[Analysis] = []
        self._serving: dict[str | None, set[str]] = {}
        """Analysis names by the rule system they are for (None: every game): for another
        system's game an analysis never runs and its result is None, so it never asks which
        game it has."""
        self._results: dict[str, AnalysisResult] = {}
        self._analyses_in_flight: tuple[Scenario, frozenset[str]] | None = None
        """The scenario value and the analyses the worker is running now."""
        self._analyses_pending: tuple[Scenario, Evaluation | None, tuple[Analysis, ...]] | None
        self._analyses_pending = None
        self._signals.analysed.connect(self._on_analysed)
        self._signals.analyses_done.connect(self._on_analyses_done)
        self._analyses_timer = QTimer(self)
        self._analyses_timer.setSingleShot(True)
        self._analyses_timer.setInterval(REST_BEFORE_ANALYSES_MS)
        self._analyses_timer.timeout.connect(self._start_analyses)
        document.changed.connect(self._on_changed)
        document.replaced.connect(self._on_replaced)
        self._evaluate(None)

    def refresh(self) -> None:
        """Evaluate the current scenario from scratch."""
        self._incremental = None
        self._evaluate(None)
        self.request_analyses()

    def _on_replaced(self, _scenario: Scenario) -> None:
        self.refresh()

    def _on_changed(self, change: Change) -> None:
        self._evaluate(change.units if change.only_units_moved else None)
        self.request_analyses()

    def _evaluate(self, moved_units: frozenset[str] | None) -> None:
        scenario = self.document.scenario
        started = time.perf_counter()
        try:
            if moved_units is not None and self._incremental is not None:
                evaluation = self._incremental.update(scenario, tuple(sorted(moved_units)))
            else:
                evaluation = evaluate(scenario, visibility=False)
                self._incremental = IncrementalEvaluator(scenario)
        except WarplanError as error:
            # A scenario the rules cannot judge (say, a degenerate base) is still editable:
            # the overlays show nothing and the status bar says why.
            self._incremental = None
            self.evaluation = None
            self.last_error = str(error)
            self._publish_overlaps(frozenset())
            self.evaluated.emit(None)
            return
        self.seconds = time.perf_counter() - started
        self.last_error = ""
        self.evaluation = evaluation
        self._publish_overlaps(frozenset(m for pair in evaluation.overlaps for m in pair))
        self.evaluated.emit(evaluation)

    def _publish_overlaps(self, flagged: frozenset[str]) -> None:
        if flagged != self.overlapping:
            self.overlapping = flagged
            self.overlaps_changed.emit(flagged)

    # ------------------------------------------------------------------ analyses

    def add_analysis(
        self,
        name: str,
        analyse: Analyse,
        *,
        during_drag: bool = False,
        ruleset: str | None = None,
    ) -> None:
        """Run ``analyse`` on every new scenario value with its one evaluation, off the UI
        thread; each result arrives through :attr:`analysed` (``name`` tells them apart).
        ``during_drag``: also while a drag previews (once the pointer rests), for what the
        board shows as it moves; otherwise it waits for the drop. ``ruleset``: only for that
        rule system's games (another game's result is None, published all the same, so the
        panels that follow it learn of the switch)."""
        self._analyses.append(Analysis(name, analyse, during_drag))
        self._serving.setdefault(ruleset, set()).add(name)
        self.request_analyses()

    def serving(self, scenario: Scenario) -> frozenset[str]:
        """The names of the analyses that run for ``scenario``'s rule system."""
        return frozenset((*self._serving.get(None, ()), *self._serving.get(scenario.ruleset, ())))

    def serves(self, name: str, scenario: Scenario) -> bool:
        """Whether the analysis ``name`` runs for ``scenario``'s rule system."""
        return name in self.serving(scenario)

    def analysis(self, name: str) -> AnalysisResult | None:
        """The latest result of ``name`` if it is for the current scenario, else None."""
        result = self._results.get(name)
        return result if result is not None and result.scenario is self.document.scenario else None

    def request_analyses(self) -> None:
        """Queue the analyses the current scenario has no result of yet (latest request wins)."""
        scenario = self.document.scenario
        dragging = self.document.is_dragging
        running: frozenset[str] = frozenset()
        if self._analyses_in_flight is not None and self._analyses_in_flight[0] is scenario:
            running = self._analyses_in_flight[1]
        due = tuple(
            a
            for a in self._analyses
            if (a.during_drag or not dragging)
            and a.name not in running
            and self.analysis(a.name) is None
        )
        if not due:
            return
        self._analyses_pending = (scenario, self.evaluation, due)
        if dragging:
            self._analyses_timer.start()
            return
        self._analyses_timer.stop()
        self._start_analyses()

    def _start_analyses(self) -> None:
        if self._analyses_in_flight is not None or self._analyses_pending is None:
            return
        scenario, evaluation, due = self._analyses_pending
        self._analyses_pending = None
        self._analyses_in_flight = (scenario, frozenset(a.name for a in due))
        self._pool.start(
            _AnalysesTask(scenario, evaluation, due, self.serving(scenario), self._signals)
        )

    @Slot(object)
    def _on_analysed(self, result: AnalysisResult) -> None:
        if result.scenario is self.document.scenario:
            self._results[result.name] = result
            self.analysed.emit(result)

    @Slot(object)
    def _on_analyses_done(self, _scenario: Scenario) -> None:
        self._analyses_in_flight = None
        self._start_analyses()

    def wait_for_analyses(self, timeout_ms: int = 30000) -> bool:
        """Block until every queued analysis has published (tests, screenshots, a button's
        edit that should show at once)."""
        from PySide6.QtCore import QCoreApplication

        deadline = time.monotonic() + timeout_ms / 1000
        if self._analyses_timer.isActive():
            self._analyses_timer.stop()
            self._start_analyses()
        while (
            self._analyses_in_flight is not None or self._analyses_pending is not None
        ) and time.monotonic() < deadline:
            self._pool.waitForDone(20)
            QCoreApplication.processEvents()
        return self._analyses_in_flight is None and self._analyses_pending is None

    # ------------------------------------------------------------------ line of sight

    def set_observer(self, unit_id: str | None) -> None:
        """Follow what ``unit_id`` sees (None: no unit is selected)."""
        if unit_id == self.observer:
            return
        self.observer = unit_id
        self.visibility = None
        self.visibility_stale.emit()
        self._ask_for_visibility()

    def set_visibility_enabled(self, enabled: bool) -> None:
        """Switch the observer's line of sight on or off (the Line of sight toggle)."""
        if enabled == self.visibility_enabled:
            return
        self.visibility_enabled = enabled
        if not enabled:
            self.visibility = None
        self._ask_for_visibility()

    def _ask_for_visibility(self) -> None:
        observer = self.observer if self.visibility_enabled else None
        scope = (
            None if observer is None else SightScope(whole_board=False, focus=frozenset({observer}))
        )
        self.sight.demand(RULING_VIEW, scope)
        if scope is not None and self.sight.result is not None:
            # Another view's result may hold the observer's pairs already (Who sees whom).
            self._on_sight_ready(self.sight.result)

    def release_visibility(self) -> None:
        """Start line of sight: the window calls this once its first frame is on screen, so
        that loading the compiled kernels never delays it."""
        self.sight.release()

    @Slot(object)
    def _on_sight_ready(self, result: SightResult) -> None:
        observer = self.observer
        if (
            observer is None
            or not self.visibility_enabled
            or result.scenario is not self.document.scenario
            or not result.scope.covers(observer)
            or not any(u.id == observer for u in result.scenario.units)
        ):
            return
        self.visibility = VisibilityResult(
            result.scenario, observer, result.row(observer), result.seconds, result.error
        )
        self.visibility_ready.emit(self.visibility)

    def wait_for_visibility(self, timeout_ms: int = 30000) -> bool:
        """Block until no line-of-sight work is queued (tests and screenshots)."""
        return self.sight.wait(timeout_ms)
