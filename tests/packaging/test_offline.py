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
