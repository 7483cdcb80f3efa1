"""Write the user guide's pictures of the first-start window at 1280 x 800 and of a readable
ruling (the other pictures: ``packaging/user_guide_screenshots.py``).

Usage: ``.venv/bin/python scripts/window_screenshots.py [OUT_DIR]`` (default ``docs/images``).
The real window, offscreen, on the demo with the first-start layout: the whole window at
1280 x 800 (the smallest size every dock's rows fit), and at 1600 x 1000 the Ruling dock on the
centre objective with its first line clicked (the model outlined on the board).
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QSettings, QStandardPaths  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from gui.app import DEMO_SCENARIO, ensure_application  # noqa: E402
from gui.files import AutosaveStore, read_scenario  # noqa: E402
from gui.main_window import MainWindow  # noqa: E402

SHOTS = (
    ("warplan-window-1280x800.png", 1280, 800, ()),
    ("ruling-sections.png", 1600, 1000, ("obj-centre",)),
)


def main() -> int:
    out_dir = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "images"
    out_dir.mkdir(parents=True, exist_ok=True)
    app = ensure_application()
    QStandardPaths.setTestModeEnabled(True)
    scratch = Path(tempfile.mkdtemp(prefix="warplan-window-"))
    scenario = read_scenario(DEMO_SCENARIO)
    for name, width, height, select in SHOTS:
        window = MainWindow(
            scenario,
            settings=QSettings(str(scratch / f"{name}.ini"), QSettings.Format.IniFormat),
            autosave=AutosaveStore(scratch / "autosave"),
            restore_layout=False,
        )
        window.keep_layout = False
        window.resize(width, height)
        window.show()
        app.processEvents()
        window.view.fit_battlefield()
        if select:
            window.scene.select_ids(set(select))
            window.docks["RulingDock"].raise_()
        window.live.wait_for_analyses(60_000)
        window.live.wait_for_visibility(60_000)
        window.sight.controller.wait(60_000)
        QApplication.processEvents()
        if select:
            window.ruling.activate(0, 0)
        QApplication.processEvents()
        path = out_dir / name
        if not window.grab().save(str(path), "PNG"):
            raise OSError(f"could not write {path}")
        print(path)
        window.close()
        window.deleteLater()
        app.processEvents()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
