"""Pictures of the real main window for the README (offscreen; the same pixels as a screen).

Each shot opens the demo in a fresh window (default layout, no user settings), selects what
the picture is about, waits for line of sight, and grabs the window.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QSettings, QStandardPaths
from PySide6.QtWidgets import QApplication

from gui.app import DEMO_SCENARIO, ensure_application
from gui.files import AutosaveStore, read_scenario


@dataclass(frozen=True)
class Shot:
    name: str
    select: tuple[str, ...]
    zoom_on: tuple[float, float] | None = None
    """Battlefield point to centre a 2x zoom on (None: the whole table)."""


SHOTS = (
    Shot("overview", ()),
    Shot("unit-line-of-sight", ("red-intercessors",)),
    Shot("objective-ruling", ("obj-centre",), zoom_on=(30.0, 22.0)),
)


def take_screenshots(out_dir: Path, width: int = 1600, height: int = 1000) -> list[Path]:
    from gui.main_window import MainWindow
    from gui.shapes import scene_point

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    app = ensure_application()
    QStandardPaths.setTestModeEnabled(True)
    scratch = Path(tempfile.mkdtemp(prefix="warplan-shots-"))
    out_dir.mkdir(parents=True, exist_ok=True)
    scenario = read_scenario(DEMO_SCENARIO)
    written = []
    for shot in SHOTS:
        settings = QSettings(str(scratch / f"{shot.name}.ini"), QSettings.Format.IniFormat)
        window = MainWindow(
            scenario,
            settings=settings,
            autosave=AutosaveStore(scratch / "autosave"),
            restore_layout=False,
        )
        window.keep_layout = False
        window.resize(width, height)
        window.show()
        app.processEvents()
        window.view.fit_battlefield()
        if shot.zoom_on is not None:
            window.view.zoom_by(2.0)
            window.view.centerOn(scene_point(*shot.zoom_on))
        if shot.select:
            window.scene.select_ids(set(shot.select))
            # The Ruling dock shares its tab with the Mission dock: show the ruling.
            window.docks["RulingDock"].raise_()
        window.live.wait_for_analyses(60_000)
        window.live.wait_for_visibility(60_000)
        QApplication.processEvents()
        path = out_dir / f"warplan-{shot.name}.png"
        if not window.grab().save(str(path), "PNG"):
            raise OSError(f"could not write {path}")
        written.append(path)
        window.close()
        window.deleteLater()
        app.processEvents()
    return written
