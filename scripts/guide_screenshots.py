"""Write the user guide's pictures of real armies on an official table.

Usage: ``.venv/bin/python scripts/guide_screenshots.py [OUT_DIR]`` (default ``docs/images``).
The real window, offscreen: a Chapter Approved game on Take and Hold vs Purge the Foe layout A
from the New game dialog, two army lists (the test lists in ``tests/engine/data/army_lists``)
imported into their deployment zones, the import dialog, the Palette finding "kharn", and the
objective-control lesson at its question step in the Lessons dock.
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
from PySide6.QtWidgets import QApplication, QWidget  # noqa: E402

from gui.app import ensure_application  # noqa: E402
from gui.files import AutosaveStore  # noqa: E402
from gui.main_window import MainWindow, blank_scenario  # noqa: E402
from gui.panels.army_import import ArmyImportDialog  # noqa: E402
from gui.panels.new_game import NewGameDialog, select_data  # noqa: E402

LISTS = ROOT / "tests" / "engine" / "data" / "army_lists"
ARMIES = (("red", "gw_app_space_marines.txt"), ("blue", "newrecruit_world_eaters.txt"))


def save(widget: QWidget, path: Path) -> Path:
    QApplication.processEvents()
    if not widget.grab().save(str(path), "PNG"):
        raise OSError(f"could not write {path}")
    return path


def main() -> int:
    out_dir = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "images"
    out_dir.mkdir(parents=True, exist_ok=True)
    app = ensure_application()
    QStandardPaths.setTestModeEnabled(True)
    scratch = Path(tempfile.mkdtemp(prefix="warplan-guide-"))
    window = MainWindow(
        blank_scenario(),
        settings=QSettings(str(scratch / "guide.ini"), QSettings.Format.IniFormat),
        autosave=AutosaveStore(scratch / "autosave"),
        restore_layout=False,
    )
    window.keep_layout = False
    window.resize(1600, 1000)
    window.show()
    app.processEvents()
    written: list[Path] = []

    def new_game(dialog: NewGameDialog) -> bool:
        select_data(dialog.ruleset, "wh40k-ca2026")
        page = dialog.page("wh40k-ca2026")
        select_data(page.dispositions[0], "Take and Hold")
        select_data(page.dispositions[1], "Purge the Foe")
        select_data(page.battlefield, "A")
        dialog.seed.setValue(4)
        dialog.show()
        written.append(save(dialog, out_dir / "warplan-new-game-layout.png"))
        return True

    window.run_dialog = new_game  # type: ignore[assignment]
    window.new_game_here()
    for player, name in ARMIES:
        dialog = ArmyImportDialog(window.document.scenario, window)
        select_data(dialog.player, player)
        dialog.load_file(LISTS / name)
        dialog.to_zone.setChecked(True)
        if player == "blue":
            dialog.resize(1000, 720)
            dialog.show()
            written.append(save(dialog, out_dir / "warplan-import-army.png"))
        placed = dialog.placement(window.document.scenario)
        if placed is None:
            raise RuntimeError(f"{name}: nothing to place")
        window.document.apply(placed.scenario, f"Import {name}")
        dialog.close()
    window.view.fit_battlefield()
    window.live.wait_for_analyses(60_000)
    window.docks["MissionDock"].raise_()
    written.append(save(window, out_dir / "warplan-armies-on-layout.png"))
    window.palette_panel.datasheet_query.setText("kharn")
    window.docks["PaletteDock"].raise_()
    written.append(save(window.docks["PaletteDock"], out_dir / "warplan-datasheet-search.png"))
    window.document.undo_stack.setClean()
    window.palette_panel.datasheet_query.setText("")
    # The right column shows only the lesson, as a teacher would arrange it.
    for name, dock in window.docks.items():
        if name not in ("PaletteDock", "InspectorDock", "ReservesDock", "LessonsDock"):
            dock.hide()
    lessons = window.lessons
    lessons.open_path(ROOT / "assets" / "lessons" / "objective-control.warplan-lesson.json")
    lessons.next()
    lessons.next()
    lessons.choose("blue")
    lessons.reveal()
    window.docks["LessonsDock"].raise_()
    window.view.fit_battlefield()
    window.live.wait_for_analyses(60_000)
    written.append(save(window, out_dir / "teaching-a-lesson.png"))
    window.document.undo_stack.setClean()
    window.close()
    for path in written:
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
