"""The first-start window at real screen sizes: every row of every dock is at least as tall as
it needs (or scrolls), the battlefield takes the room the docks leave, every toolbar action has
an icon."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QTabWidget,
    QToolBar,
    QWidget,
)

from engine.scenario_io import load_scenario
from gui.app import DEMO_SCENARIO
from gui.files import AutosaveStore
from gui.main_window import MainWindow

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = {
    "wh40k-ca2026": DEMO_SCENARIO,
    "scrollhammer": ROOT / "assets" / "scrollhammer" / "held-ground-demo.warplan.json",
    "shared-modules": ROOT / "assets" / "shared-modules" / "battle-formations-demo.warplan.json",
}
ROWS = (QLabel, QComboBox, QPushButton, QLineEdit)


def first_start(qtbot, tmp_path: Path, ruleset: str, width: int, height: int) -> MainWindow:  # type: ignore[no-untyped-def]
    """The window as a first start lays it out (no saved layout) at ``width`` x ``height``."""
    window = MainWindow(
        load_scenario(SCENARIOS[ruleset]),
        settings=QSettings(str(tmp_path / f"{ruleset}.ini"), QSettings.Format.IniFormat),
        autosave=AutosaveStore(tmp_path / "autosave"),
        restore_layout=False,
    )
    window.keep_layout = False
    qtbot.addWidget(window)
    window.resize(width, height)
    window.show()
    qtbot.waitExposed(window)
    window.live.wait_for_analyses(60_000)
    QApplication.processEvents()
    return window


def scrolls(widget: QWidget) -> bool:
    """Whether ``widget`` sits in a scroll area (which shows what does not fit)."""
    parent = widget.parentWidget()
    while parent is not None:
        if isinstance(parent, QAbstractScrollArea):
            return True
        parent = parent.parentWidget()
    return False


def needed_height(widget: QWidget) -> int:
    """The height a row needs: its minimum size hint, or for wrapped text the height of its
    lines at its width."""
    hint = widget.minimumSizeHint().height()
    if widget.hasHeightForWidth():
        hint = max(hint, widget.heightForWidth(widget.width()))
    return hint


def sideways(name: str, parent: QWidget) -> list[str]:
    """The panels under ``parent`` too wide for their dock (scrolling sideways cuts every row
    short on its right)."""
    return [
        f"{name}: {area.objectName() or type(area.widget()).__name__} scrolls sideways"
        for area in parent.findChildren(QScrollArea)
        if area.isVisible() and area.horizontalScrollBar().isVisible()
    ]


def clipped_rows(window: MainWindow) -> list[str]:
    clipped = []
    for name, dock in window.docks.items():
        if not dock.toggleViewAction().isVisible():
            continue
        dock.show()
        dock.raise_()
        QApplication.processEvents()
        for tabs in dock.findChildren(QTabWidget):
            for index in range(tabs.count()):
                tabs.setCurrentIndex(index)
                QApplication.processEvents()
                clipped.extend(sideways(name, tabs))
        clipped.extend(sideways(name, dock))
        for row in dock.findChildren(QWidget):
            if not isinstance(row, ROWS) or not row.isVisibleTo(dock) or scrolls(row):
                continue
            if isinstance(row.parentWidget(), QAbstractSpinBox | QComboBox):
                continue  # a spin box's or combo box's own editor: its box is the row
            if row.height() < needed_height(row):
                text = getattr(row, "text", lambda: "")()
                clipped.append(f"{name}: {type(row).__name__} {text!r} {row.height()}px")
    return clipped


@pytest.mark.parametrize("size", [(1280, 800), (1920, 1080)])
@pytest.mark.parametrize("ruleset", sorted(SCENARIOS))
def test_no_dock_row_is_clipped(qtbot, tmp_path: Path, ruleset: str, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    window = first_start(qtbot, tmp_path, ruleset, *size)
    # A real screen of this size holds the window: the docks must not push it taller.
    assert window.height() <= size[1]
    assert window.width() <= size[0]
    assert clipped_rows(window) == []


def test_the_battlefield_takes_the_room_the_docks_leave(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    window = first_start(qtbot, tmp_path, "wh40k-ca2026", 1600, 1000)
    view = window.view
    share = view.width() * view.height() / (window.width() * window.height())
    assert share >= 0.55
    shown = [d for d in window.docks.values() if not d.visibleRegion().isEmpty()]
    left = [d for d in shown if d.x() < view.x()]
    right = [d for d in shown if d.x() > view.x()]
    assert left
    assert right
    # The docks keep no more than their preferred widths.
    assert max(d.width() for d in left) <= 300
    assert max(d.width() for d in right) <= 400


def test_the_first_start_is_maximised_on_the_available_screen(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    window = MainWindow(
        load_scenario(DEMO_SCENARIO),
        settings=QSettings(str(tmp_path / "first.ini"), QSettings.Format.IniFormat),
        autosave=AutosaveStore(tmp_path / "autosave"),
        restore_layout=False,
    )
    window.keep_layout = False
    qtbot.addWidget(window)
    window.maximise_first_start = True
    window.show()
    qtbot.waitExposed(window)
    qtbot.waitUntil(lambda: window.isMaximized(), timeout=2000)
    available = window.screen().availableGeometry()
    qtbot.waitUntil(lambda: window.frameGeometry().size() == available.size(), timeout=2000)
    # The offscreen screen is small (under 1280 wide): the columns give up room in proportion.
    assert window.view.width() >= window.width() * 0.45


def test_a_saved_layout_is_not_maximised_again(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    settings = QSettings(str(tmp_path / "saved.ini"), QSettings.Format.IniFormat)
    first = MainWindow(load_scenario(DEMO_SCENARIO), settings=settings, restore_layout=False)
    qtbot.addWidget(first)
    first.resize(700, 600)
    first.show()
    qtbot.waitExposed(first)
    first.save_layout()
    again = MainWindow(load_scenario(DEMO_SCENARIO), settings=settings)
    again.keep_layout = False
    qtbot.addWidget(again)
    again.maximise_first_start = True
    again.show()
    qtbot.waitExposed(again)
    assert not again.isMaximized()
    assert again.size().toTuple() == (700, 600)


def test_every_toolbar_action_has_an_icon(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    window = first_start(qtbot, tmp_path, "wh40k-ca2026", 1600, 1000)
    bars = window.findChildren(QToolBar)
    assert bars
    for bar in bars:
        for action in bar.actions():
            if action.isSeparator():
                continue
            assert not action.icon().isNull(), action.objectName()
            assert action.text() or action.toolTip()
