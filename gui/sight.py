"""Line of sight for the whole board, kept up to date while units move.

``SightController`` owns one ``engine.visibility.VisibilityEngine`` and feeds it, on a worker
thread, immutable snapshots (``Scenario`` values) of the document. The engine is incremental:
after a move it recomputes only the moved units' rows and columns (and the pairs whose sight
corridor a moved base touches), so a drag step costs one unit's row and column. It is the
app's one line-of-sight computation: each view asks for the pairs it needs
(:meth:`SightController.demand`) and all of them read the one result.

Threading, in short:

* Every document change makes a *request* with a new generation number. Requests coalesce:
  while the worker is busy, only the newest snapshot waits (the moved unit ids of the
  requests it replaces are merged into it), so a fast drag never queues work.
* One task runs at a time, so the engine is only ever used by one thread.
* A finished result is shown only if its generation is still the newest; otherwise it is
  dropped (it describes a position the unit has already left) and the waiting request starts.
* Nothing here blocks the UI thread: a mouse move only records the request.
* During a drag, a new request starts at once only while the engine's updates are quick (under
  :data:`LIVE_UPDATE_BUDGET_S`); when they are slower (a big board), it starts once the pointer
  rests for :data:`REST_MS`, since an answer for a position already left is thrown away and
  computing it would only take processor time from the drag.

The words shown to the player (verdicts, explanations) are the engine's; this module only
indexes the engine's pairs for the app (who sees whom, per unit).
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, QRunnable, QThreadPool, QTimer, Signal, Slot

from engine.model import Scenario
from engine.visibility import SIGHT_THREADS, VisibilityEngine
from gui.document import Change, ScenarioDocument

LIVE_UPDATE_BUDGET_S = 0.05
"""An incremental update quicker than this follows a drag step by step."""
REST_MS = 120
"""Otherwise the update for a drag starts when the pointer has rested this long."""


def sight_line_of(pair: Any) -> Any:
    """The pair's witness sight line (``SightLine`` or ``None``): the one place that reads it.

    The engine names the field ``witness``; should it become ``line``, change this line only.
    """
    return pair.witness


def blockers_of(pair: Any) -> tuple[str, ...]:
    """The ids of what is in the way (terrain pieces, units, models): the one place that
    reads ``PairVisibility.blockers``."""
    return tuple(pair.blockers)


@dataclass(frozen=True)
class SightResult:
    """The engine's whole visibility matrix for one scenario value, indexed by unit.

    >>> from engine.model import CircleBase, Model, Player, Scenario, Unit
    >>> from engine.visibility import visibility
    >>> red = Unit("red-a", "red", (Model("r1", 10.0, 10.0, CircleBase(32)),), name="Alpha")
    >>> blue = Unit("blue-a", "blue", (Model("b1", 20.0, 10.0, CircleBase(32)),))
    >>> s = Scenario("wh40k-ca2026", (Player("red"), Player("blue")), units=(red, blue))
    >>> result = SightResult(s, 1, visibility(s), 0.0)
    >>> result.seen_by_counts()
    {'red-a': 1, 'blue-a': 1}
    >>> result.pair("blue-a", "red-a").fully_visible
    True
    >>> [p.observer for p in result.seen_by("red-a")]
    ['blue-a']
    """

    scenario: Scenario
    generation: int
    pairs: tuple[Any, ...]
    seconds: float
    error: str = ""
    incremental: bool = False
    """Made by updating the previous matrix (not computed from scratch)."""
    scope: SightScope = field(default_factory=lambda: SightScope())
    """Which pairs it holds (the whole board unless told)."""
    _by_key: dict[tuple[str, str], Any] = field(
        init=False, repr=False, compare=False, default_factory=dict
    )
    _rows: dict[str, list[Any]] = field(init=False, repr=False, compare=False, default_factory=dict)
    _columns: dict[str, list[Any]] = field(
        init=False, repr=False, compare=False, default_factory=dict
    )

    def __post_init__(self) -> None:
        for p in self.pairs:
            self._by_key[(p.observer, p.target)] = p
            self._rows.setdefault(p.observer, []).append(p)
            self._columns.setdefault(p.target, []).append(p)

    def pair(self, observer: str, target: str) -> Any | None:
        """What ``observer`` sees of ``target`` (``None`` for units of the same player)."""
        return self._by_key.get((observer, target))

    def row(self, unit_id: str) -> tuple[Any, ...]:
        """What ``unit_id`` sees of every enemy unit."""
        return tuple(self._rows.get(unit_id, ()))

    def column(self, unit_id: str) -> tuple[Any, ...]:
        """What every enemy unit sees of ``unit_id``."""
        return tuple(self._columns.get(unit_id, ()))

    def seen_by(self, unit_id: str) -> tuple[Any, ...]:
        """The pairs whose observer can see ``unit_id`` (sorted by observer)."""
        return tuple(p for p in self.column(unit_id) if p.visible)

    def seen_by_counts(self) -> dict[str, int]:
        """Unit id -> how many enemy units can see it, for every unit of the scenario."""
        counts = {u.id: 0 for u in self.scenario.units}
        for p in self.pairs:
            if p.visible and p.target in counts:
                counts[p.target] += 1
        return counts


@dataclass(frozen=True)
class SightScope:
    """Which pairs a view needs: the whole board (Who sees whom), or only what some units see
    and what sees them (the selected unit's line of sight), so a large board pays for one unit's
    pairs when nothing shows the rest.

    >>> alpha, bravo = SightScope(False, frozenset({"a"})), SightScope(False, frozenset({"b"}))
    >>> sorted(SightScope.joined([alpha, bravo]).focus)
    ['a', 'b']
    >>> SightScope.joined([alpha, WHOLE_BOARD]).whole_board
    True
    """

    whole_board: bool = True
    focus: frozenset[str] = frozenset()

    @staticmethod
    def joined(scopes: Iterable[SightScope]) -> SightScope:
        """The one scope that serves every view's: the whole board if any needs it, else the
        focus units of all of them."""
        scopes = tuple(scopes)
        if any(scope.whole_board for scope in scopes):
            return WHOLE_BOARD
        return SightScope(False, frozenset().union(*(scope.focus for scope in scopes)))

    def within(self, other: SightScope) -> bool:
        """Whether ``other``'s pairs hold all of this scope's.

        >>> SightScope(False, frozenset({"a"})).within(WHOLE_BOARD)
        True
        >>> WHOLE_BOARD.within(SightScope(False, frozenset({"a"})))
        False
        """
        return other.whole_board or (not self.whole_board and self.focus <= other.focus)

    def covers(self, unit_id: str) -> bool:
        """Whether the pairs of this scope hold everything ``unit_id`` sees and what sees it."""
        return self.whole_board or unit_id in self.focus

    def pairs(self, engine: Any) -> tuple[Any, ...]:
        if self.whole_board:
            return tuple(engine.matrix())
        present = {u.id for u in engine.scenario.units}
        return tuple(engine.around(self.focus & present))


WHOLE_BOARD = SightScope()


@dataclass(frozen=True)
class SightRequest:
    scenario: Scenario
    moved_unit_ids: frozenset[str]
    generation: int
    fresh: bool
    """Start a new engine (a new document) instead of updating the current one."""
    scope: SightScope = field(default_factory=lambda: WHOLE_BOARD)
    dragging: bool = False
    """Asked during a drag: the engine then keeps to one thread, leaving a core to the window."""


class _EngineHolder:
    """The one ``VisibilityEngine``; touched only by the single running task."""

    def __init__(self) -> None:
        self.engine: Any = None


class _TaskSignals(QObject):
    finished = Signal(object)


class _SightTask(QRunnable):
    def __init__(self, request: SightRequest, holder: _EngineHolder, signals: _TaskSignals):
        super().__init__()
        self._request = request
        self._holder = holder
        self._signals = signals
        self.setAutoDelete(True)

    def run(self) -> None:
        request = self._request
        started = time.perf_counter()
        error = ""
        pairs: tuple[Any, ...] = ()
        incremental = False
        try:
            if request.fresh or self._holder.engine is None:
                self._holder.engine = VisibilityEngine(request.scenario)
            else:
                incremental = True
                self._holder.engine.adopt(request.scenario, sorted(request.moved_unit_ids))
            self._holder.engine.threads = 1 if request.dragging else SIGHT_THREADS
            pairs = request.scope.pairs(self._holder.engine)
        except Exception as problem:  # noqa: BLE001 - reported to the user, never a crash
            # The engine's state is unknown after a failure: the next request starts afresh.
            self._holder.engine = None
            error = f"{type(problem).__name__}: {problem}"
        result = SightResult(
            request.scenario,
            request.generation,
            pairs,
            time.perf_counter() - started,
            error,
            incremental,
            request.scope,
        )
        try:
            self._signals.finished.emit(result)
        except RuntimeError:
            # The window closed while this ran: nobody is waiting for the result.
            return


class SightController(QObject):
    """Keeps the newest :class:`SightResult` for the document while some view needs it: the
    app's one line-of-sight computation (:class:`gui.live.LiveRules` owns it; the ruling, the
    overlays and Who sees whom read its results)."""

    sight_ready = Signal(object)
    """A :class:`SightResult` for the document's current scenario."""
    sight_stale = Signal()
    """The scenario changed; the shown result describes an older position."""

    def __init__(self, document: ScenarioDocument, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.result: SightResult | None = None
        self.generation = 0
        self.dropped = 0
        """How many finished results were dropped as stale (the newest request had moved on)."""
        self.active = False
        """Some view needs line of sight (:meth:`demand`)."""
        self.scope = WHOLE_BOARD
        """The pairs every view needs, joined."""
        self._demands: dict[str, SightScope] = {}
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(1)
        self._holder = _EngineHolder()
        self._signals = _TaskSignals()
        self._signals.finished.connect(self._on_finished)
        self._in_flight = False
        self.held = True
        """Nothing starts before :meth:`release` (the window's first frame)."""
        self._pending: SightRequest | None = None
        self.live_update_budget_s = LIVE_UPDATE_BUDGET_S
        self.last_update_seconds = 0.0
        """How long the latest incremental update took (it decides how a drag is followed)."""
        self._rest_timer = QTimer(self)
        self._rest_timer.setSingleShot(True)
        self._rest_timer.setInterval(REST_MS)
        self._rest_timer.timeout.connect(self._start_pending)
        document.changed.connect(self._on_changed)
        document.replaced.connect(self._on_replaced)

    def demand(self, view: str, scope: SightScope | None) -> None:
        """Ask, on behalf of ``view``, for the pairs of ``scope`` (None: that view needs none).

        The controller computes while some view needs pairs, the scopes of all of them joined
        (:meth:`SightScope.joined`), so every view reads the one result. The first scope, or one
        that needs pairs the last did not, asks at once (the engine's update finds whatever
        changed while nothing ran); a narrower one waits for the next change."""
        if scope is None:
            self._demands.pop(view, None)
        else:
            self._demands[view] = scope
        was_active, old_scope = self.active, self.scope
        self.active = bool(self._demands)
        self.scope = SightScope.joined(self._demands.values()) if self.active else WHOLE_BOARD
        if self.active and (not was_active or not self.scope.within(old_scope)):
            self.request()

    def request(self, moved_unit_ids: Iterable[str] = (), *, fresh: bool = False) -> int:
        """Ask for the current scenario's matrix; returns the request's generation.

        The newest request replaces a waiting one (their moved units are merged).
        """
        self.generation += 1
        moved = frozenset(moved_unit_ids)
        if self._pending is not None:
            moved |= self._pending.moved_unit_ids
            fresh = fresh or self._pending.fresh
        self._pending = SightRequest(
            self.document.scenario,
            moved,
            self.generation,
            fresh,
            self.scope,
            self.document.is_dragging,
        )
        self.sight_stale.emit()
        if self.document.is_dragging and self.last_update_seconds > self.live_update_budget_s:
            self._rest_timer.start()
        else:
            self._rest_timer.stop()
            self._start_pending()
        return self.generation

    def is_current(self) -> bool:
        """The shown result is for the document's current scenario."""
        return self.result is not None and self.result.scenario is self.document.scenario

    def wait(self, timeout_ms: int = 30_000) -> bool:
        """Block until no request is queued or running (tests, screenshots, closing)."""
        deadline = time.monotonic() + timeout_ms / 1000
        self.held = False
        if self._rest_timer.isActive():
            self._rest_timer.stop()
        self._start_pending()
        while (self._in_flight or self._pending is not None) and time.monotonic() < deadline:
            self._pool.waitForDone(20)
            QCoreApplication.processEvents()
        return not (self._in_flight or self._pending is not None)

    def _on_changed(self, change: Change) -> None:
        if self.active:
            self.request(change.units)

    def _on_replaced(self, _scenario: object = None) -> None:
        self.result = None
        if self.active:
            self.request(fresh=True)

    def release(self) -> None:
        """Start computing: the window calls this once its first frame is on screen, so that
        loading the compiled kernels never delays it."""
        self.held = False
        self._start_pending()

    def _start_pending(self) -> None:
        if self._in_flight or self._pending is None or self.held:
            return
        if self._rest_timer.isActive():
            return
        request, self._pending = self._pending, None
        self._in_flight = True
        self._pool.start(_SightTask(request, self._holder, self._signals))

    @Slot(object)
    def _on_finished(self, result: SightResult) -> None:
        self._in_flight = False
        if result.incremental and not result.error:
            self.last_update_seconds = result.seconds
        if result.generation == self.generation:
            self.result = result
            self.sight_ready.emit(result)
        else:
            self.dropped += 1
        self._start_pending()
