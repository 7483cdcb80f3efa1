"""The app starts with no network access and never reaches for it (from the source tree)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from packaging_support import (
    DEMO_SCENARIO,
    ROOT,
    first_time_user_env,
    internet_sockets_in_strace_log,
    network_namespace_available,
)

RUN_TIMEOUT_SECONDS = 120
NETWORK_MODULES = (
    "PySide6.QtNetwork",
    "ssl",
    "http.client",
    "urllib.request",
    "socketserver",
    "ftplib",
    "smtplib",
    "xmlrpc.client",
    "requests",
    "urllib3",
)

# ``python -m gui --selftest`` under an audit hook that refuses every Internet socket, then a
# list of the network modules that start-up imported.
GUARDED_SELFTEST = """
import json, runpy, socket, sys

def refuse_internet(event, args):
    if event == "socket.__new__" and args[1] in (socket.AF_INET, socket.AF_INET6):
        raise RuntimeError("Warplan opened an Internet socket at start-up")
    if event in ("socket.connect", "socket.bind", "socket.getaddrinfo", "socket.gethostbyname"):
        raise RuntimeError(f"Warplan used the network at start-up: {{event}} {{args}}")

sys.addaudithook(refuse_internet)
sys.argv = ["gui", "--selftest"]
try:
    runpy.run_module("gui", run_name="__main__", alter_sys=True)
except SystemExit as stop:
    code = stop.code
else:
    code = 0
print(json.dumps({{"exit": code, "network_modules": sorted(set({modules!r}) & set(sys.modules))}}))
"""


def run_source(
    home: Path, *args: str, prefix: list[str] | None = None
) -> subprocess.CompletedProcess[str]:
    env = first_time_user_env(home)
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.run(
        [*(prefix or []), sys.executable, *args],
        env=env,
        cwd=home,
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT_SECONDS,
    )


def test_demo_scenario_exists() -> None:
    assert json.loads(DEMO_SCENARIO.read_text())["format"] == "warplan.scenario"


def test_selftest_opens_no_internet_socket_and_imports_no_network_module(tmp_path: Path) -> None:
    code = GUARDED_SELFTEST.format(modules=NETWORK_MODULES)
    result = run_source(tmp_path / "home", "-c", code)
    assert result.returncode == 0, result.stdout + result.stderr
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert report == {"exit": 0, "network_modules": []}, result.stdout + result.stderr


def test_selftest_passes_with_no_network(tmp_path: Path) -> None:
    if not network_namespace_available():
        pytest.skip("unshare -n is not available here; the audit-hook test covers Python code")
    result = run_source(tmp_path / "home", "-m", "gui", "--selftest", prefix=["unshare", "-n"])
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("selftest: ok")


def test_selftest_opens_no_internet_socket_from_qt_either(tmp_path: Path) -> None:
    strace = shutil.which("strace")
    if strace is None:
        pytest.skip("strace is not installed (apt-get install strace)")
    log = tmp_path / "strace.log"
    result = run_source(
        tmp_path / "home",
        "-m",
        "gui",
        "--selftest",
        prefix=[strace, "-f", "-qq", "-e", "trace=execve,socket,connect", "-o", str(log)],
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "execve(" in log.read_text(), "strace recorded nothing: the trace did not run"
    assert internet_sockets_in_strace_log(log) == []


# The app's window on a machine with no fonts at all (fontconfig finds none): which families
# Qt knows, which one the app uses, and any character of the window's texts that font lacks.
NO_SYSTEM_FONTS_PROBE = """
import json, sys
from PySide6.QtCore import QSettings, QStandardPaths
from PySide6.QtGui import QAction, QFontDatabase, QFontInfo, QFontMetrics
from PySide6.QtWidgets import QAbstractButton, QDockWidget, QLabel
from gui.app import DEMO_SCENARIO, ensure_application
from gui.files import read_scenario
from gui.main_window import MainWindow

QStandardPaths.setTestModeEnabled(True)
app = ensure_application(["warplan"])
settings = QSettings(sys.argv[1], QSettings.Format.IniFormat)
window = MainWindow(read_scenario(DEMO_SCENARIO), None, settings=settings, restore_layout=False)
texts = [a.text() for a in window.findChildren(QAction)]
texts += [w.text() for w in window.findChildren(QLabel) + window.findChildren(QAbstractButton)]
texts += [d.windowTitle() for d in window.findChildren(QDockWidget)]
metrics = QFontMetrics(app.font())
characters = {c for t in texts for c in t if c.isprintable()}
missing = sorted(c for c in characters if not metrics.inFontUcs4(ord(c)))
print(json.dumps({
    "families": QFontDatabase.families(),
    "app_family": QFontInfo(app.font()).family(),
    "characters": sum(len(t) for t in texts),
    "missing": missing,
}))
window.document.undo_stack.setClean()
"""


def test_window_text_renders_in_the_shipped_font_with_no_system_fonts(tmp_path: Path) -> None:
    fonts_conf = tmp_path / "fonts.conf"
    fonts_conf.write_text(
        '<?xml version="1.0"?>\n<fontconfig>\n'
        f"  <dir>{tmp_path / 'no-fonts-here'}</dir>\n  <cachedir>{tmp_path / 'cache'}</cachedir>\n"
        "</fontconfig>\n"
    )
    home = tmp_path / "home"
    env = first_time_user_env(home)
    env.update(PYTHONPATH=str(ROOT), FONTCONFIG_FILE=str(fonts_conf))
    result = subprocess.run(
        [sys.executable, "-c", NO_SYSTEM_FONTS_PROBE, str(tmp_path / "settings.ini")],
        env=env,
        cwd=home,
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT_SECONDS,
    )
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout.strip().splitlines()[-1])
    # Only the fonts the app ships exist (besides fontconfig's generic names, which then have
    # nothing behind them), so everything drawn comes from them.
    assert set(report["families"]) - {"Monospace", "Sans Serif", "Serif"} == {"DejaVu Sans"}
    assert report["app_family"] == "DejaVu Sans"
    assert report["characters"] > 500
    assert report["missing"] == []
