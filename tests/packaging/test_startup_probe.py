"""The first-paint probe and the start-up measuring script, on a small real Qt program."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGING = ROOT / "packaging"

# A window that waits ``delay`` seconds after QApplication exists before it shows itself, and
# prints the monotonic clock just before show(): the probe's time must come after that mark.
WINDOW_PROGRAM = """
import sys, time
sys.path.insert(0, {packaging!r})
import startup_probe
startup_probe.install_from_environment()
from PySide6.QtWidgets import QApplication, QLabel, QMainWindow
app = QApplication(sys.argv)
window = QMainWindow()
window.setCentralWidget(QLabel("first frame"))
time.sleep({delay})
print("shown", time.monotonic(), file=sys.stderr, flush=True)
window.show()
if len(sys.argv) > 1 and sys.argv[1] == "--quit-soon":
    from PySide6.QtCore import QTimer
    QTimer.singleShot(300, app.quit)
sys.exit(app.exec())
"""


def load_measure_startup() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "measure_startup", ROOT / "scripts" / "measure_startup.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["measure_startup"] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def measure_startup() -> ModuleType:
    return load_measure_startup()


def program(delay: float) -> list[str]:
    return [sys.executable, "-c", WINDOW_PROGRAM.format(packaging=str(PACKAGING), delay=delay)]


def test_probe_reports_after_the_window_is_shown_and_exits(
    measure_startup: ModuleType, tmp_path: Path
) -> None:
    env = measure_startup.fresh_user_environment(tmp_path, "offscreen")
    result = subprocess.run(
        program(0.2), env=env, capture_output=True, text=True, timeout=60, cwd=tmp_path
    )
    assert result.returncode == 0, result.stderr
    lines = dict(line.split(" ", 1) for line in result.stderr.splitlines() if " " in line)
    shown = float(lines["shown"])
    painted = float(lines[measure_startup.REPORT_PREFIX])
    assert painted > shown
    assert painted - shown < 5.0


def test_probe_without_the_variable_changes_nothing(
    measure_startup: ModuleType, tmp_path: Path
) -> None:
    env = measure_startup.fresh_user_environment(tmp_path, "offscreen")
    del env[measure_startup.FIRST_PAINT_ENV]
    result = subprocess.run(
        [*program(0.0), "--quit-soon"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert measure_startup.REPORT_PREFIX not in result.stderr


def test_time_to_first_paint_counts_from_launch(
    measure_startup: ModuleType, tmp_path: Path
) -> None:
    # The program sleeps 0.4 s before showing its window: launch-to-paint includes the sleep.
    env = measure_startup.fresh_user_environment(tmp_path, "offscreen")
    seconds = measure_startup.time_to_first_paint(program(0.4), env)
    assert 0.4 < seconds < 30.0


def test_time_to_first_paint_fails_loudly_without_a_report(
    measure_startup: ModuleType, tmp_path: Path
) -> None:
    env = measure_startup.fresh_user_environment(tmp_path, "offscreen")
    with pytest.raises(RuntimeError, match="without reporting a first paint"):
        measure_startup.time_to_first_paint([sys.executable, "-c", "pass"], env)


def test_fresh_user_environment_isolates_settings(measure_startup: ModuleType) -> None:
    env = measure_startup.fresh_user_environment(Path("/tmp/somebody"), "xcb")
    assert env["HOME"] == "/tmp/somebody"
    assert env["XDG_CONFIG_HOME"] == "/tmp/somebody/.config"
    assert env["XDG_STATE_HOME"] == "/tmp/somebody/.local/state"
    assert env["QT_QPA_PLATFORM"] == "xcb"
    assert env[measure_startup.FIRST_PAINT_ENV] == "exit"


def test_measure_discards_the_warm_up_and_takes_the_median(
    measure_startup: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    timings = iter([9.0, 0.5, 0.3, 0.4])
    monkeypatch.setattr(measure_startup, "time_to_first_paint", lambda cmd, env: next(timings))
    figures = measure_startup.measure("source", ["app"], runs=3, platform="offscreen")
    assert figures.samples == [0.5, 0.3, 0.4]
    assert figures.median == 0.4
    assert (figures.minimum, figures.maximum) == (0.3, 0.5)
    assert figures.meets_target


def test_target_is_strictly_under_one_and_a_half_seconds(measure_startup: ModuleType) -> None:
    def figures(median: float) -> object:
        return measure_startup.StartupFigures(
            "package", ["app"], "offscreen", 1, median, median, median, [median], 0.1, 0.0
        )

    assert figures(1.4999).meets_target  # type: ignore[attr-defined]
    assert not figures(1.5).meets_target  # type: ignore[attr-defined]


def test_folder_size_counts_files_not_links(measure_startup: ModuleType, tmp_path: Path) -> None:
    (tmp_path / "a").write_bytes(b"x" * 1000)
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b").write_bytes(b"y" * 24)
    (tmp_path / "link").symlink_to(tmp_path / "a")
    assert measure_startup.folder_size_bytes(tmp_path) == 1024
