"""Makes the pictures and the shortcut table of ``docs/user-guide.md`` from the real app.

Usage::

    python packaging/user_guide_screenshots.py [OUT_DIR]     # PNGs, default docs/images
    python packaging/user_guide_screenshots.py --shortcuts   # the guide's shortcut table

Each picture is the main window on the built-in demo, offscreen, with the overlays and the
selection that the guide's section talks about; one is the picture "Export picture" writes.
Settings and autosaves go to Qt's test locations, never to the user's own.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "docs" / "images"
WINDOW_SIZE = (1600, 1000)
VISIBILITY_TIMEOUT_MS = 60_000
RIGHT_DOCK_WIDTH = 520
SETTLE_ROUNDS = 3
SETTLE_PAUSE_MS = 100


@dataclass(frozen=True)
class Shot:
    """One picture: which overlays are on, what is selected, which docks are shown (by their
    object names; ``None``: the app's default layout)."""

    file_name: str
    overlays: frozenset[str]
    selected: frozenset[str]
    docks: frozenset[str] | None = None


ALL_OVERLAYS = frozenset({"objectives", "engagement", "quarters", "deployment", "visibility"})
SHOTS = (
    Shot("warplan-window.png", ALL_OVERLAYS, frozenset({"red-intercessors"})),
    Shot(
        "planning-a-deployment.png",
        frozenset({"deployment", "quarters"}),
        frozenset({"red-terminators"}),
        frozenset({"PaletteDock", "InspectorDock", "RulingDock"}),
    ),
    Shot(
        "teaching-objective-control.png",
        frozenset({"objectives", "engagement"}),
        frozenset({"obj-centre"}),
        frozenset({"InspectorDock", "RulingDock"}),
    ),
    Shot(
        "presenting-a-ruling.png",
        frozenset({"visibility", "objectives"}),
        frozenset({"red-intercessors"}),
        frozenset({"RulingDock"}),
    ),
)
EXPORT_SHOT = Shot(
    "exported-ruling.png",
    frozenset({"visibility", "objectives"}),
    frozenset({"red-intercessors"}),
    frozenset({"RulingDock"}),
)
EXPORT_CAPTION = "Turn 2: can the Intercessors see the Acolytes?"


def open_demo_window(settings_dir: Path):  # type: ignore[no-untyped-def]
    """The main window on the demo scenario, with settings kept in ``settings_dir``."""
    from PySide6.QtCore import QSettings, QStandardPaths

    from gui.app import DEMO_SCENARIO, ensure_application
    from gui.files import read_scenario
    from gui.main_window import MainWindow

    QStandardPaths.setTestModeEnabled(True)
    ensure_application([sys.argv[0]])
    settings = QSettings(str(settings_dir / "settings.ini"), QSettings.Format.IniFormat)
    window = MainWindow(read_scenario(DEMO_SCENARIO), None, settings=settings, restore_layout=False)
    window.resize(*WINDOW_SIZE)
    window.show()
    return window


def stage(window, shot: Shot) -> None:  # type: ignore[no-untyped-def]
    """Puts the window in the state ``shot`` describes and waits for every overlay."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    for name, action in window.overlay_actions.items():
        action.setChecked(name in shot.overlays)
    for name, dock in window.docks.items():
        dock.setVisible(shot.docks is None or name in shot.docks)
        if shot.docks is not None and name in shot.docks:
            dock.raise_()
    window.scene.select_ids(set(shot.selected))
    if shot.docks is not None:
        shown = [window.docks[name] for name in sorted(shot.docks)]
        right = [
            d for d in shown if window.dockWidgetArea(d) == Qt.DockWidgetArea.RightDockWidgetArea
        ]
        window.resizeDocks(right, [RIGHT_DOCK_WIDTH] * len(right), Qt.Orientation.Horizontal)
    # Selection and line-of-sight requests reach the worker through queued events and
    # timers: let them in, wait for the worker, and repeat until nothing more is asked for.
    for _ in range(SETTLE_ROUNDS):
        QTest.qWait(SETTLE_PAUSE_MS)
        window.live.wait_for_visibility(VISIBILITY_TIMEOUT_MS)
    window.view.fit_battlefield()
    QTest.qWait(SETTLE_PAUSE_MS)


def write_screenshots(out_dir: Path) -> list[Path]:
    """Writes every picture of ``SHOTS`` and the exported ruling into ``out_dir``."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    with tempfile.TemporaryDirectory(prefix="warplan-guide-") as settings_dir:
        window = open_demo_window(Path(settings_dir))
        for shot in SHOTS:
            stage(window, shot)
            target = out_dir / shot.file_name
            if not window.grab().save(str(target), "PNG"):
                raise OSError(f"could not write {target}")
            written.append(target)
        stage(window, EXPORT_SHOT)
        exported = window.export_to(
            out_dir / EXPORT_SHOT.file_name, caption=EXPORT_CAPTION, include_ruling=True
        )
        if exported is None:
            raise OSError(f"could not export {EXPORT_SHOT.file_name}")
        written.append(exported)
        window.document.undo_stack.setClean()
        window.close()
    return written


def shortcut_rows(window) -> list[tuple[str, str]]:  # type: ignore[no-untyped-def]
    """(what, keys) for every action of ``window`` that has a keyboard shortcut, menu order."""
    from PySide6.QtGui import QAction, QKeySequence

    rows: list[tuple[str, str]] = []
    seen: set[str] = set()
    for action in _menu_actions(window.menuBar().actions()):
        assert isinstance(action, QAction)
        keys = ", ".join(
            k.toString(QKeySequence.SequenceFormat.PortableText) for k in action.shortcuts()
        )
        text = action.text().replace("&&", "\0").replace("&", "").replace("\0", "&")
        if keys and text not in seen:
            seen.add(text)
            rows.append((text, keys))
    return rows


def _menu_actions(actions: Iterable[object]) -> Iterable[object]:
    for action in actions:
        menu = action.menu()  # type: ignore[attr-defined]
        if menu is not None:
            yield from _menu_actions(menu.actions())
        elif not action.isSeparator():  # type: ignore[attr-defined]
            yield action


def shortcut_table(rows: list[tuple[str, str]]) -> str:
    """The Markdown table of ``rows`` as the guide shows it."""
    lines = ["| Action | Keys |", "| --- | --- |"]
    lines += [f"| {text} | `{keys}` |" for text, keys in rows]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    if argv == ["--shortcuts"]:
        with tempfile.TemporaryDirectory(prefix="warplan-guide-") as settings_dir:
            window = open_demo_window(Path(settings_dir))
            print(shortcut_table(shortcut_rows(window)))
            window.close()
        return 0
    if len(argv) > 1 or (argv and argv[0].startswith("-")):
        print(__doc__, file=sys.stderr)
        return 1
    for path in write_screenshots(Path(argv[0]) if argv else DEFAULT_OUT):
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
