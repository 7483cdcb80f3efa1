"""Write the user guide's picture of two deployments compared side by side.

Usage: ``.venv/bin/python scripts/compare_screenshots.py [OUT_FILE]`` (default
``docs/images/compare-deployments.png``). The real window, offscreen: a Chapter Approved game
on Take and Hold vs Purge the Foe layout A, the two test army lists set up in their deployment
zones, a snapshot taken, three Red units moved 6" towards Blue's army, a second snapshot, and
the two compared from the Timeline dock.
"""

from __future__ import annotations

import math
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QSettings, QStandardPaths  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from engine.army_lists import load_army_list  # noqa: E402
from engine.army_placement import place_army  # noqa: E402
from engine.layouts import layout  # noqa: E402
from engine.model import Battlefield, Player, Scenario  # noqa: E402
from engine.rulesets.wh40k_ca2026.generator import new_game  # noqa: E402
from engine.snapshots import take_snapshot  # noqa: E402
from gui.app import ensure_application  # noqa: E402
from gui.files import AutosaveStore  # noqa: E402
from gui.main_window import MainWindow  # noqa: E402

LISTS = ROOT / "tests" / "engine" / "data" / "army_lists"
ARMIES = (("red", "gw_app_space_marines.txt"), ("blue", "newrecruit_world_eaters.txt"))
LAYOUT = "take-and-hold-vs-purge-the-foe-a"
PUSH = 6.0


def two_deployments() -> Scenario:
    """The armies deep in their zones (snapshot-1), then three Red units 6" forward
    (snapshot-2)."""
    chosen = layout(LAYOUT)
    players = (Player("red", "Red"), Player("blue", "Blue"))
    blank = Scenario("wh40k-ca2026", players, Battlefield(), title=chosen.name)
    game = new_game(blank, seed=4, force_dispositions=chosen.pairing, layout=chosen.letter)
    for player, name in ARMIES:
        game = place_army(game, load_army_list(LISTS / name), player, "deployment").scenario
    game = take_snapshot(game, "Deep in the zone", "2026-12-01T18:00:00Z")
    blue = [m for u in game.units if u.player == "blue" for m in u.models]
    centre_x = sum(m.x for m in blue) / len(blue)
    centre_y = sum(m.y for m in blue) / len(blue)
    for unit in [u for u in game.units if u.player == "red"][:3]:
        dx, dy = centre_x - unit.models[0].x, centre_y - unit.models[0].y
        length = math.hypot(dx, dy)
        game = game.with_unit_moved(unit.id, PUSH * dx / length, PUSH * dy / length)
    return take_snapshot(game, "Three units forward", "2026-12-01T18:10:00Z")


def main() -> int:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs/images/compare-deployments.png"
    app = ensure_application()
    QStandardPaths.setTestModeEnabled(True)
    scratch = Path(tempfile.mkdtemp(prefix="warplan-compare-"))
    window = MainWindow(
        two_deployments(),
        settings=QSettings(str(scratch / "compare.ini"), QSettings.Format.IniFormat),
        autosave=AutosaveStore(scratch / "autosave"),
        restore_layout=False,
    )
    window.keep_layout = False
    window.resize(1600, 1000)
    window.show()
    app.processEvents()
    window.timeline.choose("snapshot-1", "snapshot-2")
    started = time.perf_counter()
    window.timeline.compare_chosen()
    shown = window.comparison
    if shown is None:
        raise RuntimeError("no comparison window")
    while shown.comparison is None and not shown.error:
        app.processEvents()
        time.sleep(0.05)
    if shown.error:
        raise RuntimeError(shown.error)
    print(f"compared in {time.perf_counter() - started:.1f} s")
    for board in shown.boards:
        board.view.fit_battlefield()
    QApplication.processEvents()
    if not shown.grab().save(str(out), "PNG"):
        raise OSError(f"could not write {out}")
    print(f"wrote {out}")
    window.document.undo_stack.setClean()
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
