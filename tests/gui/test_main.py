"""``python -m gui``: the self-test, and the headless fallback that writes a screenshot."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "assets" / "scenarios" / "demo.warplan.json"


def _env(**changes: str | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"DISPLAY", "WAYLAND_DISPLAY"}}
    for key, value in changes.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    return env


@pytest.mark.skipif(not DEMO.exists(), reason="the demo scenario has not landed")
def test_selftest_opens_the_demo_and_evaluates_it(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "gui", "--selftest"],
        cwd=ROOT,
        env=_env(HOME=str(tmp_path)),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "selftest: ok" in result.stdout
    assert "Dawn of War" in result.stdout


def test_selftest_fails_clearly_on_a_broken_file(tmp_path: Path) -> None:
    broken = tmp_path / "broken.warplan.json"
    broken.write_text('{"format": "warplan.scenario", "version": 1}')
    result = subprocess.run(
        [sys.executable, "-m", "gui", str(broken), "--selftest"],
        cwd=ROOT,
        env=_env(HOME=str(tmp_path)),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert "selftest: FAILED" in result.stderr


@pytest.mark.skipif(not DEMO.exists(), reason="the demo scenario has not landed")
def test_no_display_and_no_flags_writes_a_screenshot(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "gui"],
        cwd=tmp_path,
        env=_env(
            HOME=str(tmp_path), QT_QPA_PLATFORM=None, PATH="/usr/bin:/bin", PYTHONPATH=str(ROOT)
        ),
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert result.returncode == 0, result.stderr
    shot = tmp_path / "warplan-screenshot.png"
    assert f"screenshot written to {shot}" in result.stdout
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert shot.stat().st_size > 20_000
