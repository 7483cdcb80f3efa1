"""Helpers for the app's tests: real mouse drags in battlefield inches, small scenarios."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QPoint, QPointF, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QApplication, QWidget

from engine.model import Battlefield, CircleBase, Model, Objective, Player, Scenario, Unit
from gui.shapes import scene_point
from gui.view import BattlefieldView

BASE_32 = CircleBase(32)


def duel_scenario() -> Scenario:
    """Red's one-model unit 6" south of a 40 mm objective, Blue's 5" north of it.

    The objective sits at (30, 22); its rim is 0.787" from its centre, so a 32 mm model
    (radius 0.630") is in range (3" from the rim) while its centre is within 4.417" of the
    objective's centre.
    """
    red = Unit("red-squad", "red", (Model("red-1", 30.0, 16.0, BASE_32),), name="Red Squad", oc=2)
    blue = Unit("blue-squad", "blue", (Model("blue-1", 30.0, 27.0, BASE_32),), name="Blue Squad")
    return Scenario(
        "wh40k-ca2026",
        (Player("red", "Red", "attacker"), Player("blue", "Blue", "defender")),
        Battlefield(60.0, 44.0),
        title="Duel",
        units=(red, blue),
        objectives=(Objective("obj-centre", 30.0, 22.0, role="central"),),
    )


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
