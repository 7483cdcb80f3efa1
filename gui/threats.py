"""What each selected unit can reach this turn (:func:`engine.threat.threat_section`), worked
out off the UI thread.

The engine measures every move round the terrain in the way (:mod:`engine.movement`): up to
about a second per unit on a full official table, too long for the Ruling dock to wait for.
:class:`ThreatController` keeps the sections it has for the current board, hands the missing
ones to a worker (one task at a time, over the immutable ``Scenario``), and emits ``ready`` as
each arrives. Any change of the document makes a new board: its sections start afresh, and a
task whose board is no longer current stops before its next unit, so a drag never queues work.
Nothing is asked while a drag is in progress: a move round terrain is mostly Python and shapely,
and a worker busy with one took the interpreter from the window often enough to double each
drag step (8 -> 22 ms in `scripts/bench_drag.py`). The sections follow at the drop.
"""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

from engine.errors import WarplanError
from engine.explain import RulingSection
from engine.model import Scenario
from engine.threat import threat_section
from gui.document import ScenarioDocument

PENDING = RulingSection("What this unit can reach this turn: being worked out...")
"""Shown in a unit's ruling until its threat arrives."""


class _Signals(QObject):
    done = Signal(int, str, object)


class _ThreatTask(QRunnable):
    def __init__(
        self, controller: ThreatController, scenario: Scenario, unit_ids: list[str], board: int
    ) -> None:
        super().__init__()
        self._controller = controller
        self._scenario = scenario
        self._unit_ids = unit_ids
        self._board = board
        self._signals = controller._signals
        self.setAutoDelete(True)

    def run(self) -> None:
        for unit_id in self._unit_ids:
            if self._controller.board != self._board:
                return
            try:
                section = threat_section(self._scenario, unit_id)
            except WarplanError as error:
                section = RulingSection(f"What {unit_id} can reach this turn: {error}")
            try:
                self._signals.done.emit(self._board, unit_id, section)
            except RuntimeError:
                # The window closed while this ran: nobody is waiting for the section.
                return


class ThreatController(QObject):
    """The threat sections of the document's current board, worked out when first asked."""

    ready = Signal()

    def __init__(self, document: ScenarioDocument, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.board = 0
        """Counts the boards seen; a task's results count only for the board it was given."""
        self._scenario: Scenario | None = None
        self._done: dict[str, RulingSection] = {}
        self._asked: set[str] = set()
        self._signals = _Signals()
        self._signals.done.connect(self._on_done)
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(1)

    def sections(self, unit_ids: Iterable[str]) -> dict[str, RulingSection]:
        """The sections already worked out for ``unit_ids`` on the document's board; the
        others are asked of the worker (``ready`` follows each), unless a drag is in progress."""
        scenario = self.document.scenario
        if scenario is not self._scenario:
            self._scenario = scenario
            self.board += 1
            self._done = {}
            self._asked = set()
        wanted = list(dict.fromkeys(unit_ids))
        missing = [u for u in wanted if u not in self._done and u not in self._asked]
        if missing and not self.document.is_dragging:
            self._asked.update(missing)
            self._pool.start(_ThreatTask(self, scenario, missing, self.board))
        return {u: self._done[u] for u in wanted if u in self._done}

    def wait(self, milliseconds: int = 60_000) -> bool:
        """Wait for the worker to be idle (tests and the screenshot tools)."""
        return bool(self._pool.waitForDone(milliseconds))

    def _on_done(self, board: int, unit_id: str, section: RulingSection) -> None:
        if board == self.board:
            self._done[unit_id] = section
            self.ready.emit()
