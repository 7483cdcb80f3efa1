"""Write the user guide's pictures of presenting a ruling.

Usage: ``.venv/bin/python scripts/presentation_screenshots.py [OUT_DIR]`` (default
``docs/images``). The real window, offscreen, 1600 x 1000: the official table with two armies
(``benchmarks/official_table.py``) with an arrow, a callout and a kept ruler, in the default,
dark and colour-blind palettes, the annotations close up, and presentation mode with an
objective's ruling shown.
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

from benchmarks.official_table import make_official_table  # noqa: E402
from engine.annotations import add_annotation  # noqa: E402
from engine.model import Scenario  # noqa: E402
from gui.app import ensure_application  # noqa: E402
from gui.files import AutosaveStore  # noqa: E402
from gui.main_window import MainWindow  # noqa: E402
from gui.shapes import scene_point  # noqa: E402


def save(widget: QWidget, path: Path) -> Path:
    QApplication.processEvents()
    if not widget.grab().save(str(path), "PNG"):
        raise OSError(f"could not write {path}")
    return path


def annotated_table() -> Scenario:
    """The official table with a ruler between two real models, an arrow and a callout."""
    scenario = make_official_table()
    red = next(u for u in scenario.units if u.player == "red")
    blue = next(u for u in scenario.units if u.player == "blue")
    objective = scenario.objectives[len(scenario.objectives) // 2]
    first, second = red.models[0], blue.models[0]
    scenario = add_annotation(
        scenario,
        "measure",
        (first.x, first.y),
        (second.x, second.y),
        from_model=first.id,
        to_model=second.id,
    )
    scenario = add_annotation(
        scenario,
        "arrow",
        (objective.x - 9.0, objective.y - 6.0),
        (objective.x - 1.5, objective.y - 1.0),
        text="advance here",
    )
    return add_annotation(
        scenario,
        "text",
        (objective.x, objective.y),
        (objective.x + 7.0, objective.y + 5.0),
        text="3\" from the marker's rim: in range",
    )


def main() -> int:
    out_dir = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "images"
    out_dir.mkdir(parents=True, exist_ok=True)
    app = ensure_application()
    QStandardPaths.setTestModeEnabled(True)
    scratch = Path(tempfile.mkdtemp(prefix="warplan-guide-"))
    scenario = annotated_table()
    window = MainWindow(
        scenario,
        settings=QSettings(str(scratch / "guide.ini"), QSettings.Format.IniFormat),
        autosave=AutosaveStore(scratch / "autosave"),
        restore_layout=False,
    )
    window.keep_layout = False
    window.resize(1600, 1000)
    window.show()
    app.processEvents()
    window.view.fit_battlefield()
    window.live.wait_for_analyses(60_000)
    window.scene.select_ids({scenario.objectives[len(scenario.objectives) // 2].id})
    written: list[Path] = []
    for palette_id, name in (
        ("default", "presenting-palette-default.png"),
        ("dark", "presenting-palette-dark.png"),
        ("colour-blind", "presenting-palette-colour-blind.png"),
    ):
        window.palette_actions[palette_id].trigger()
        window.scene.place_labels()
        written.append(save(window, out_dir / name))
    window.palette_actions["default"].trigger()
    centre = scenario.objectives[len(scenario.objectives) // 2]
    window.view.fit_battlefield()
    window.view.zoom_by(2.2)
    window.view.centerOn(scene_point(centre.x + 1.0, centre.y + 1.0))
    window.scene.place_labels()
    written.append(save(window.view, out_dir / "presenting-annotations.png"))
    window.set_presentation(True)
    window.scene.place_labels()
    written.append(save(window, out_dir / "presenting-mode.png"))
    window.set_presentation(False)
    window.document.undo_stack.setClean()
    window.close()
    for path in written:
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
