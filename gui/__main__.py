"""``python -m gui [FILE] [--selftest] [--screenshot PATH]``: start Warplan.

With no display (``DISPLAY`` and ``WAYLAND_DISPLAY`` unset) and no flags, there is nobody to
see a window: Warplan re-runs itself under Xvfb when ``xvfb-run`` exists, else on Qt's
offscreen platform, writes a screenshot of the window, prints where it is, and exits.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

HEADLESS_SCREENSHOT = "warplan-screenshot.png"


def _has_display() -> bool:
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def _parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m gui", description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", help="a .warplan.json scenario (default: the demo)")
    parser.add_argument(
        "--selftest", action="store_true", help="open, evaluate, exit 0 if all is well"
    )
    parser.add_argument("--screenshot", metavar="PATH", help="write a PNG of the window and exit")
    parser.add_argument("--select", metavar="ID", help="select this unit/objective (screenshots)")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = _parse(sys.argv[1:] if argv is None else argv)
    headless = not _has_display() and os.environ.get("QT_QPA_PLATFORM") in (None, "", "xcb")
    if headless and not args.selftest and not args.screenshot:
        screenshot = str(Path.cwd() / HEADLESS_SCREENSHOT)
        passthrough = [args.file] if args.file else []
        xvfb = shutil.which("xvfb-run")
        if xvfb and not os.environ.get("WARPLAN_UNDER_XVFB"):
            print("warplan: no display; running under Xvfb to take a screenshot")
            env = dict(os.environ, WARPLAN_UNDER_XVFB="1")
            command = [
                xvfb,
                "-a",
                sys.executable,
                "-m",
                "gui",
                *passthrough,
                "--screenshot",
                screenshot,
            ]
            return subprocess.call(command, env=env)
        print("warplan: no display; using Qt's offscreen platform to take a screenshot")
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
        args.screenshot = screenshot
    if args.selftest:
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    return run(args)


def run(args: argparse.Namespace) -> int:
    from engine.errors import WarplanError
    from gui.app import DEMO_SCENARIO, ensure_application
    from gui.files import error_text, read_scenario
    from gui.main_window import MainWindow

    app = ensure_application([sys.argv[0]])
    path = Path(args.file) if args.file else DEMO_SCENARIO
    scenario = None
    problem = ""
    try:
        scenario = read_scenario(path)
    except WarplanError as error:
        problem = f"{path}: {error_text(error)}"
    is_demo = args.file is None
    # Screenshots and the self-test show the default layout and leave the user's settings alone.
    fresh = bool(args.screenshot or args.selftest)
    window = MainWindow(
        scenario, None if (is_demo or scenario is None) else path, restore_layout=not fresh
    )
    window.keep_layout = not fresh
    if problem:
        print(f"warplan: could not open {problem}", file=sys.stderr)
        window.statusBar().showMessage(f"Could not open {path.name}: see the details dialog")

    if args.selftest:
        return _selftest(window, scenario, problem)
    if args.screenshot:
        return _screenshot(window, Path(args.screenshot), args.select)
    window.show()
    if problem:
        window.show_error("Cannot open this file", problem)
    window.files.offer_recovery()
    return app.exec()


def _selftest(window: object, scenario: object, problem: str) -> int:
    from gui.main_window import MainWindow

    assert isinstance(window, MainWindow)
    if scenario is None:
        print(f"selftest: FAILED, {problem}", file=sys.stderr)
        return 1
    live = window.live
    if live.evaluation is None:
        print(f"selftest: FAILED, the rules cannot judge it: {live.last_error}", file=sys.stderr)
        return 1
    s = window.document.scenario
    controlled = sum(1 for o in live.evaluation.objectives if o.controlled_by)
    print(
        f"selftest: ok - {s.title or 'scenario'}: {len(s.units)} units, "
        f"{sum(len(u.models) for u in s.units)} models, {len(s.objectives)} objectives "
        f"({controlled} controlled), rules in {live.seconds * 1000:.1f} ms"
    )
    return 0


def _screenshot(window: object, path: Path, select: str | None) -> int:
    from PySide6.QtWidgets import QApplication

    from gui.main_window import MainWindow

    assert isinstance(window, MainWindow)
    window.resize(1600, 1000)
    window.show()
    QApplication.processEvents()
    window.view.fit_battlefield()
    if select:
        window.scene.select_ids({select})
    window.live.wait_for_analyses(60_000)
    window.live.wait_for_visibility(60_000)
    window.sight.controller.wait(60_000)
    QApplication.processEvents()
    path.parent.mkdir(parents=True, exist_ok=True)
    if not window.grab().save(str(path), "PNG"):
        print(f"warplan: could not write {path}", file=sys.stderr)
        return 1
    print(f"warplan: screenshot written to {path}")
    window.document.undo_stack.setClean()
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
