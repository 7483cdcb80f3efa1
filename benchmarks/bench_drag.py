"""The drag benchmark: real mouse events dragging a unit across the 200-model stress scenario.

Each step is one mouse-move event with the button held, handled exactly as a user's (the scene
previews the moved scenario on the document, the live rules update incrementally, overlays
rebuild their changed items), followed by the repaint the event loop does for it. Line of
sight for the dragged unit runs on its worker thread meanwhile, as in the app. Reported per
step: the whole step, the event handling (scene update, rules, overlays) and the repaint.
"""

from __future__ import annotations

import math
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, QPoint, QPointF, QSettings, QStandardPaths, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QApplication

from gui.app import ensure_application
from gui.files import AutosaveStore
from gui.shapes import scene_point


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, math.ceil(fraction * len(ordered)) - 1))
    return ordered[index]


def _mouse(
    kind: QEvent.Type,
    widget: Any,
    point: QPoint,
    button: Qt.MouseButton,
    buttons: Qt.MouseButton,
    modifiers: Qt.KeyboardModifier,
) -> None:
    event = QMouseEvent(
        kind, QPointF(point), QPointF(widget.mapToGlobal(point)), button, buttons, modifiers
    )
    QApplication.sendEvent(widget, event)


def run_drag_benchmark(
    steps: int = 300,
    seed: int = 1,
    unit_index: int = 7,
    width: int = 1600,
    height: int = 1000,
    line_of_sight: bool = True,
    board_only: bool = False,
    board: str = "stress",
) -> dict[str, Any]:
    """Drag one unit of a board for ``steps`` mouse moves; timings in ms. ``board`` is
    ``"stress"`` (``make_stress_scenario(seed)``) or ``"official"`` (the official table of
    :mod:`benchmarks.official_table`: an official layout with two real armies)."""
    from benchmarks.official_table import make_official_table
    from benchmarks.stress import make_stress_scenario
    from gui.main_window import MainWindow

    if board not in ("stress", "official"):
        raise ValueError(f"board: {board!r} is not 'stress' or 'official'")

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    app = ensure_application()
    QStandardPaths.setTestModeEnabled(True)
    scratch = Path(tempfile.mkdtemp(prefix="warplan-bench-"))
    settings = QSettings(str(scratch / "settings.ini"), QSettings.Format.IniFormat)
    window = MainWindow(
        make_stress_scenario(seed=seed) if board == "stress" else make_official_table(),
        settings=settings,
        autosave=AutosaveStore(scratch / "autosave"),
        restore_layout=False,
    )
    window.set_overlay("visibility", line_of_sight)
    if board_only:
        # The worst case for repaints: the battlefield fills the whole window.
        for dock in window.docks.values():
            dock.hide()
    window.resize(width, height)
    window.show()
    app.processEvents()
    window.view.fit_battlefield()
    app.processEvents()
    view = window.view
    viewport = view.viewport()
    scenario = window.document.scenario
    unit = scenario.units[unit_index]
    grab = unit.models[0]
    start = view.mapFromScene(scene_point(grab.x, grab.y))
    shift = Qt.KeyboardModifier.ShiftModifier
    left = Qt.MouseButton.LeftButton
    _mouse(QEvent.Type.MouseButtonPress, viewport, start, left, left, shift)
    app.processEvents()
    window.live.wait_for_visibility(60_000)

    handle_ms: list[float] = []
    paint_ms: list[float] = []
    total_ms: list[float] = []
    rules_ms: list[float] = []
    visibility_results = 0
    window.live.visibility_ready.connect(lambda _r: None)
    ppi = view.pixels_per_inch()
    for step in range(1, steps + 1):
        # A loop 8" wide and 5" deep around the start, one pixel-ish move per step.
        angle = 2 * math.pi * step / steps
        dx = 8.0 * math.sin(angle)
        dy = 5.0 * (1 - math.cos(angle)) * (1 if grab.y < scenario.battlefield.depth / 2 else -1)
        point = start + QPoint(round(dx * ppi), round(-dy * ppi))
        began = time.perf_counter()
        _mouse(QEvent.Type.MouseMove, viewport, point, Qt.MouseButton.NoButton, left, shift)
        handled = time.perf_counter()
        app.processEvents()
        painted = time.perf_counter()
        handle_ms.append((handled - began) * 1000)
        paint_ms.append((painted - handled) * 1000)
        total_ms.append((painted - began) * 1000)
        if window.live.evaluation is not None:
            rules_ms.append(window.live.seconds * 1000)
        if (
            window.live.visibility is not None
            and window.live.visibility.scenario is window.document.scenario
        ):
            visibility_results += 1
    _mouse(QEvent.Type.MouseButtonRelease, viewport, point, left, Qt.MouseButton.NoButton, shift)
    app.processEvents()
    undo_steps = window.document.undo_stack.count()
    window.live.wait_for_visibility(60_000)
    window.document.undo_stack.setClean()
    window.keep_layout = False
    window.close()

    def summary(values: list[float]) -> dict[str, float]:
        return {
            "median": statistics.median(values) if values else float("nan"),
            "p90": _percentile(values, 0.9) if values else float("nan"),
            "max": max(values) if values else float("nan"),
        }

    models = sum(len(u.models) for u in scenario.units)
    return {
        "models": models,
        "units": len(scenario.units),
        "steps": steps,
        "dragged_unit": unit.id,
        "window": f"{width}x{height}" + (" (docks hidden)" if board_only else ""),
        "pixels_per_inch": round(ppi, 2),
        "step_ms": summary(total_ms),
        "handling_ms": summary(handle_ms),
        "repaint_ms": summary(paint_ms),
        "rules_ms": summary(rules_ms),
        "undo_steps_after_drag": undo_steps,
        "line_of_sight_results_applied_during_drag": visibility_results,
    }


def format_report(result: dict[str, Any]) -> str:
    lines = [
        f"Drag benchmark: {result['models']} models / {result['units']} units, dragging "
        f"{result['dragged_unit']} for {result['steps']} mouse moves, window {result['window']}, "
        f"{result['pixels_per_inch']} px per inch "
        f"(Qt platform {os.environ.get('QT_QPA_PLATFORM', 'default')})",
    ]
    for key, label in (
        ("step_ms", "whole step (event + repaint)"),
        ("handling_ms", "  event: scene update, rules, overlays"),
        ("repaint_ms", "  repaint"),
        ("rules_ms", "  of which rules (IncrementalEvaluator)"),
    ):
        s = result[key]
        lines.append(
            f"{label:<42} median {s['median']:7.2f} ms   p90 {s['p90']:7.2f} ms"
            f"   max {s['max']:7.2f} ms"
        )
    lines.append(
        f"undo steps after the drag: {result['undo_steps_after_drag']} (one drag = one step)"
    )
    lines.append(
        "line-of-sight results applied during the drag: "
        f"{result['line_of_sight_results_applied_during_drag']}"
    )
    return "\n".join(lines)
