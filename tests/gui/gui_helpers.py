"""Helpers for the app's tests: real mouse drags in battlefield inches, small scenarios."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QPoint, QPointF, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QApplication, QWidget

from engine.model import CircleBase
from gui.shapes import scene_point
from gui.view import BattlefieldView
from tests.engine.rulesets.wh40k_ca2026.mission_builders import duel

BASE_32 = CircleBase(32)

duel_scenario = duel
"""Red's one-model unit 6" south of a 40 mm objective, Blue's 5" north of it: the engine's
mission tests' Qt-free duel, shared so the two never drift apart."""


def view_pos(view: BattlefieldView, x: float, y: float) -> QPoint:
    """The viewport pixel showing battlefield point ``(x, y)``."""
    return view.mapFromScene(scene_point(x, y))


def drag(
    qtbot,
    view: BattlefieldView,
    start: tuple[float, float],
    end: tuple[float, float],
    steps: int = 8,
    modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier,
) -> None:
    """Press at ``start``, move in ``steps`` real mouse moves, release at ``end`` (inches)."""
    viewport = view.viewport()
    a = QPointF(view_pos(view, *start))
    b = QPointF(view_pos(view, *end))
    qtbot.mousePress(viewport, Qt.MouseButton.LeftButton, modifier, a.toPoint())
    for i in range(1, steps + 1):
        point = (a + (b - a) * (i / steps)).toPoint()
        move_pressed(viewport, point, modifier)
    qtbot.mouseRelease(viewport, Qt.MouseButton.LeftButton, modifier, b.toPoint())


def move_pressed(
    widget: QWidget,
    point: QPoint,
    modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier,
) -> None:
    """A real mouse-move event with the left button held (QTest's moves carry no buttons)."""
    local = QPointF(point)
    event = QMouseEvent(
        QEvent.Type.MouseMove,
        local,
        QPointF(widget.mapToGlobal(point)),
        Qt.MouseButton.NoButton,
        Qt.MouseButton.LeftButton,
        modifier,
    )
    QApplication.sendEvent(widget, event)
