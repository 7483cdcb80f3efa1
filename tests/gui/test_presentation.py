"""Presentation mode and palettes, used from the real window."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDockWidget

from gui import theme
from gui.overlays.objectives import control_colour
from gui.presentation import PALETTE_SETTING


@pytest.fixture(autouse=True)
def _default_palette_after() -> Iterator[None]:
    yield
    theme.use("default")
    theme.set_label_scale(1.0)
    QApplication.setPalette(QApplication.style().standardPalette())


def shown_docks(window) -> set[str]:
    return {d.objectName() for d in window.findChildren(QDockWidget) if d.isVisible()}


def test_f11_enters_presentation_and_esc_leaves_restoring_the_docks(make_window, qtbot) -> None:
    window = make_window()
    docks_before = shown_docks(window)
    assert docks_before
    window.scene.select_ids({"obj-centre"})
    # The offscreen platform never makes a window active, so shortcuts are not delivered; the
    # actions are checked to carry them and to sit on the window (working with menus hidden).
    assert window.action_presentation.shortcut().toString() == "F11"
    assert window.action_leave_presentation.shortcut().toString() == "Esc"
    assert window.action_presentation in window.actions()
    assert window.action_leave_presentation in window.actions()
    window.action_presentation.trigger()
    assert window.presentation.active
    assert window.action_presentation.isChecked()
    assert shown_docks(window) == set()
    assert not window.menuBar().isVisible()
    assert all(label.scale() == theme.PRESENTATION_LABEL_SCALE for label in window.scene.labels())
    board = window.presentation.ruling_board
    assert board.isVisible()
    assert board.text() == window.ruling.ruling_text().strip()
    assert "obj-centre" in board.text()
    # The table sits in the room left of the ruling: the ruling hides no part of it.
    table_right = window.view.mapFromScene(window.scene.board_rect().topRight()).x()
    assert table_right < board.geometry().left()
    # The ruling follows the selection while presenting.
    window.scene.select_ids({"red-squad"})
    qtbot.waitUntil(lambda: board.text() == window.ruling.ruling_text().strip(), timeout=2000)
    assert window.action_leave_presentation.isEnabled()
    window.action_leave_presentation.trigger()
    assert not window.presentation.active
    assert not window.action_presentation.isChecked()
    assert shown_docks(window) == docks_before
    assert window.menuBar().isVisible()
    assert not board.isVisible()
    assert all(label.scale() == 1.0 for label in window.scene.labels())


def test_esc_outside_presentation_is_left_to_the_view(make_window) -> None:
    window = make_window()
    assert not window.action_leave_presentation.isEnabled()
    window.set_tool("polygon")
    window.view.add_polygon_corner((10.0, 10.0))
    QTest.keyClick(window.view, Qt.Key.Key_Escape)
    assert window.view.tool == "polygon"
    assert not window.presentation.active


def test_palette_menu_redraws_the_board_and_is_remembered(make_window, qtbot, settings) -> None:
    window = make_window()
    window.palette_actions["colour-blind"].trigger()
    palette = theme.current()
    assert palette.id == "colour-blind"
    assert settings.value(PALETTE_SETTING) == "colour-blind"
    model = window.scene.models["red-1"]
    assert model.brush().color().rgb() == theme.COLOUR_BLIND.player(0).rgb()
    assert window.scene.models["blue-1"].brush().color().rgb() == palette.player(1).rgb()
    evaluation = window.live.evaluation
    control = next(c for c in evaluation.objectives if c.id == "obj-centre")
    expected = control_colour(window.document.scenario, control)
    assert expected.name() in {palette.contested, palette.players[0], palette.neutral}
    layer = window.overlays.layers["objectives"]
    assert layer.state(("objective", "obj-centre")).colour == expected.name()
    window.close()
    theme.use("default")
    again = make_window()
    assert theme.current().id == "colour-blind"
    assert again.palette_actions["colour-blind"].isChecked()


def test_dark_palette_darkens_window_and_table(make_window) -> None:
    window = make_window()
    window.palette_actions["dark"].trigger()
    assert QApplication.palette().color(QPalette.ColorRole.Window).lightnessF() < 0.3
    assert theme.current().colour("table").lightnessF() < 0.3
    window.palette_actions["default"].trigger()
    assert QApplication.palette().color(QPalette.ColorRole.Window).lightnessF() > 0.5
