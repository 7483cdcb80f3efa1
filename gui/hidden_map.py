"""The hidden-placement map, kept up to date as the board changes, off the UI thread.

``HiddenMapController`` works out :mod:`engine.hidden`'s map for the current settings on a
worker thread, over an immutable snapshot (the document's ``Scenario``), a few strips of grid
columns at a time, west to east: each step is shown as it is done (``progress``). Every
document change or new setting starts a new *generation*; the worker checks it between steps
and stops when its work is stale, and a late result of an old generation is dropped, so a drag
restarts the map and never queues work. One task runs at a time.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

from engine.errors import WarplanError
from engine.hidden import STRIP_COLUMNS, HiddenMap, HiddenMapper, Mode, Observers, Region
from engine.model import Base, CircleBase, Scenario
from gui.document import ScenarioDocument

COLUMNS_PER_STEP = 2 * STRIP_COLUMNS
"""Grid columns worked out between two looks at the generation (and two partial maps shown):
whole strips of the engine's, so no tile of the map is cut in two."""


@dataclass(frozen=True)
class HiddenSettings:
    """What the map is asked for (the arguments of :class:`engine.hidden.HiddenMapper`);
    ``player`` ``None`` means the scenario's first player."""

    player: str | None = None
    base: Base = CircleBase(32)
    height: float = 1.5
    step: float = 0.5
    region: Region | None = None
    within: float | None = None
    mode: Mode = "hidden"
    observers: Observers = "models"
    observer_height: float | None = None
    lift_unit: str | None = None


@dataclass(frozen=True)
class HiddenProgress:
    """The map of one generation so far: the grid columns done out of all, or the engine's
    error."""

    generation: int
    result: HiddenMap | None
    columns_done: int
    columns_total: int
    seconds: float
    error: str = ""

    @property
    def finished(self) -> bool:
        return bool(self.error) or self.columns_done >= self.columns_total


class _Signals(QObject):
    progress = Signal(object)


class _MapTask(QRunnable):
    def __init__(
        self,
        controller: HiddenMapController,
        scenario: Scenario,
        settings: HiddenSettings,
        generation: int,
    ) -> None:
        super().__init__()
        self._controller = controller
        self._scenario = scenario
        self._settings = settings
        self._generation = generation
        self._signals = controller._signals
        self.setAutoDelete(True)

    def _stale(self) -> bool:
        return self._controller.generation != self._generation

    def run(self) -> None:
        if self._stale():
            return
        started = time.perf_counter()
        settings = self._settings
        try:
            mapper = HiddenMapper(
                self._scenario,
                player=settings.player or self._scenario.player_ids()[0],
                base=settings.base,
                height=settings.height,
                step=settings.step,
                region=settings.region,
                within=settings.within,
                mode=settings.mode,
                observers=settings.observers,
                observer_height=settings.observer_height,
                lift_unit=settings.lift_unit,
            )
        except WarplanError as error:
            self._signals.progress.emit(
                HiddenProgress(self._generation, None, 0, 0, 0.0, str(error))
            )
            return
        workspace, memory = mapper.workspace(), mapper.memory()
        states: list[np.ndarray] = []
        flags: list[np.ndarray] = []
        for first in range(0, mapper.columns, COLUMNS_PER_STEP):
            if self._stale():
                return
            stop = min(first + COLUMNS_PER_STEP, mapper.columns)
            block, undecided = mapper.decide(first, stop, workspace, memory)
            states.append(block)
            flags.append(undecided)
            result = mapper.result(np.concatenate(states), np.concatenate(flags))
            self._signals.progress.emit(
                HiddenProgress(
                    self._generation, result, stop, mapper.columns, time.perf_counter() - started
                )
            )
        if mapper.columns == 0:
            empty = np.zeros(0, dtype=np.int8)
            self._signals.progress.emit(
                HiddenProgress(self._generation, mapper.result(empty, empty), 0, 0, 0.0)
            )


class HiddenMapController(QObject):
    """Works out the map while it is shown; ``progress`` carries each newest partial map."""

    progress = Signal(object)

    def __init__(self, document: ScenarioDocument, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.settings = HiddenSettings()
        self.enabled = False
        self.generation = 0
        self.latest: HiddenProgress | None = None
        self._signals = _Signals()
        self._signals.progress.connect(self._on_progress)
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(1)
        document.changed.connect(lambda _change: self.restart())
        document.replaced.connect(lambda _scenario: self.restart())

    def set_enabled(self, enabled: bool) -> None:
        self.enabled = enabled
        self.restart()

    def set_settings(self, settings: HiddenSettings) -> None:
        if settings != self.settings:
            self.settings = settings
            self.restart()

    def restart(self) -> None:
        """A new generation: the running task stops at its next block; the new one queues."""
        self.generation += 1
        self.latest = None
        if not self.enabled:
            self.progress.emit(None)
            return
        task = _MapTask(self, self.document.scenario, self.settings, self.generation)
        self._pool.start(task)

    def wait(self, milliseconds: int = 60_000) -> bool:
        """Wait for the worker to be idle (tests and the screenshot tool)."""
        return bool(self._pool.waitForDone(milliseconds))

    def _on_progress(self, progress: HiddenProgress) -> None:
        if progress.generation != self.generation or not self.enabled:
            return
        self.latest = progress
        self.progress.emit(progress)
