"""Helpers of the packaging tests: a first-time user's environment and network checks."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEMO_SCENARIO = ROOT / "assets" / "scenarios" / "demo.warplan.json"


def first_time_user_env(home: Path) -> dict[str, str]:
    """A minimal environment of a user who never ran Warplan, offscreen, living in ``home``."""
    home.mkdir(parents=True, exist_ok=True)
    return {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_DATA_HOME": str(home / ".local" / "share"),
        "XDG_STATE_HOME": str(home / ".local" / "state"),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "QT_QPA_PLATFORM": "offscreen",
        "LANG": "C.UTF-8",
    }


def network_namespace_available() -> bool:
    """Whether ``unshare -n`` can run a command with no network (needs root or user namespaces)."""
    unshare = shutil.which("unshare")
    if unshare is None:
        return False
    return subprocess.run([unshare, "-n", "true"], capture_output=True).returncode == 0


def internet_sockets_in_strace_log(log: Path) -> list[str]:
    """Lines of an ``strace -e trace=execve,socket,connect`` log that open or reach an IP socket."""
    return [
        line
        for line in log.read_text().splitlines()
        if "AF_INET" in line or "sin_port" in line or "sin6_port" in line
    ]
