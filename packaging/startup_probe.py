"""Reports when the app paints its first frame, for ``scripts/measure_startup.py``.

Start-up time is measured from outside the app: the measuring script notes
``time.monotonic()`` just before it launches the app, and the app, when
``WARPLAN_FIRST_PAINT`` is set, prints the same clock (``CLOCK_MONOTONIC`` is one clock for
every process on Linux) once its first frame is painted::

    warplan-first-paint 12345.678901

With ``WARPLAN_FIRST_PAINT=exit`` the app then ends at once (no autosave, no teardown), so a
run costs no more than the start-up it measures. Without the variable nothing is installed
and nothing changes.

"First painted frame": the first ``Paint`` event of a widget inside a ``QMainWindow`` starts
Qt's synchronous paint of the whole window; a zero-delay timer queued from it fires once that
paint and the flush to the screen are done, and that is when the time is read. The probe does
not need the app's help: it swaps ``QApplication`` for a subclass that installs an
application-wide event filter, before the app imports Qt.

:func:`kernel_selftest` is the package's check of its compiled line-of-sight kernels
(``warplan --selftest-kernels``): numba, llvmlite's library and the kernels' cache must all
work in the frozen app, which the app's own ``--selftest`` does not wait for.
"""

from __future__ import annotations

import os
import sys
import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.model import Scenario

FIRST_PAINT_ENV = "WARPLAN_FIRST_PAINT"
REPORT_PREFIX = "warplan-first-paint"
KERNEL_SELFTEST_PREFIX = "selftest: kernels"


def install() -> None:
    """Makes every ``QApplication`` created from now on report its first painted frame."""
    from PySide6.QtCore import QEvent, QObject, QTimer
    from PySide6.QtWidgets import QApplication, QMainWindow, QWidget

    exit_after_report = os.environ.get(FIRST_PAINT_ENV, "") == "exit"

    class FirstPaintFilter(QObject):
        def __init__(self, parent: QObject) -> None:
            super().__init__(parent)
            self._seen = False

        def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt API)
            if (
                not self._seen
                and event.type() == QEvent.Type.Paint
                and isinstance(watched, QWidget)
                and isinstance(watched.window(), QMainWindow)
            ):
                self._seen = True
                QTimer.singleShot(0, self._report)
            return False

        def _report(self) -> None:
            print(f"{REPORT_PREFIX} {time.monotonic():.6f}", file=sys.stderr, flush=True)
            if exit_after_report:
                os._exit(0)

    class ProbedApplication(QApplication):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._warplan_first_paint_filter = FirstPaintFilter(self)
            self.installEventFilter(self._warplan_first_paint_filter)

    ProbedApplication.__name__ = QApplication.__name__
    import PySide6.QtWidgets

    PySide6.QtWidgets.QApplication = ProbedApplication  # type: ignore[misc]


def install_from_environment() -> bool:
    """``install()`` when ``WARPLAN_FIRST_PAINT`` is set; tells whether it did."""
    if not os.environ.get(FIRST_PAINT_ENV):
        return False
    install()
    return True


def _sight_scene() -> Scenario:
    """Three units on an open table: a red observer, a blue unit behind a 5" wall and a blue
    unit in the open beside it."""
    from engine.model import (
        CircleBase,
        Model,
        Player,
        Scenario,
        TerrainFeature,
        TerrainPiece,
        Unit,
    )

    footprint = ((14.0, 0.0), (15.0, 0.0), (15.0, 20.0), (14.0, 20.0))
    ruin = TerrainPiece("ruin", footprint, features=(TerrainFeature(footprint, 5.0),))
    observer = Unit("observer", "red", (Model("o1", 10.0, 10.0, CircleBase(32)),))
    behind = Unit("behind-wall", "blue", (Model("b1", 20.0, 10.0, CircleBase(32)),))
    in_open = Unit("in-the-open", "blue", (Model("c1", 10.0, 30.0, CircleBase(32)),))
    return Scenario(
        "wh40k-ca2026",
        (Player("red"), Player("blue")),
        units=(observer, behind, in_open),
        terrain=(ruin,),
    )


def kernel_selftest() -> int:
    """Compiles (or loads from the cache) every line-of-sight kernel, then works out line of
    sight on a small scene whose answer is known; prints what it did, returns the exit status."""
    from engine.cli import warm_up_kernels
    from engine.visibility import visibility

    report = warm_up_kernels()
    print(report.text(), end="")
    started = time.perf_counter()
    seen = {(pair.observer, pair.target): pair for pair in visibility(_sight_scene())}
    seconds = time.perf_counter() - started
    behind = seen[("observer", "behind-wall")]
    in_open = seen[("observer", "in-the-open")]
    if behind.visible or behind.blockers != ("ruin",) or not in_open.visible:
        print(
            f"{KERNEL_SELFTEST_PREFIX} FAILED: line of sight gave {behind} and {in_open}",
            file=sys.stderr,
        )
        return 1
    print(
        f"{KERNEL_SELFTEST_PREFIX} ok - {len(report.kernels)} kernels "
        f"({report.compiled} compiled, {report.loaded} loaded) in "
        f"{report.import_seconds + report.compile_seconds:.2f} s; line of sight: the wall hides "
        f"one unit, the other is seen, in {seconds * 1000:.1f} ms"
    )
    return 0
