"""Fixtures for the app's tests: offscreen Qt, settings and autosaves in temporary folders,
small real scenarios built from the engine's values, and a main window that closes quietly.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from gui_helpers import duel_scenario
from PySide6.QtCore import QSettings, QStandardPaths
from PySide6.QtWidgets import QApplication

from engine.model import Scenario
from gui.app import configure_application
from gui.files import AutosaveStore
from gui.main_window import MainWindow


@pytest.fixture(autouse=True, scope="session")
def _qt_test_mode(qapp: QApplication) -> None:
    QStandardPaths.setTestModeEnabled(True)
    configure_application(qapp)


@pytest.fixture
def settings(tmp_path: Path) -> QSettings:
    return QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)


@pytest.fixture
def autosave_store(tmp_path: Path) -> AutosaveStore:
    return AutosaveStore(tmp_path / "autosave")


@pytest.fixture
def make_window(qtbot, settings: QSettings, autosave_store: AutosaveStore) -> Iterator:
    windows: list[MainWindow] = []

    def make(scenario: Scenario | None = None, path: Path | None = None) -> MainWindow:
        window = MainWindow(
            scenario if scenario is not None else duel_scenario(),
            path,
            settings=settings,
            autosave=autosave_store,
            restore_layout=False,
        )
        window.resize(1200, 800)
        window.show()
        qtbot.waitExposed(window)
        window.view.fit_battlefield()
        windows.append(window)
        return window

    yield make
    for window in windows:
        window.live.wait_for_visibility(30_000)
        window.document.undo_stack.setClean()
        window.close()
        window.deleteLater()
