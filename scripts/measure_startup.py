"""Start-up time of Warplan, from launch to the first painted frame, and the package's size.

Usage::

    python scripts/measure_startup.py [--runs 7] [--source] [--binary PATH] [--platform P]
                                      [--json]

With neither ``--source`` nor ``--binary`` it measures the source tree (``python -m gui``)
and, when it has been built, the package (``packaging/dist/warplan/warplan``).

How: the script reads ``time.monotonic()`` just before it launches the app; the app, started
with ``WARPLAN_FIRST_PAINT=exit`` (``packaging/startup_probe.py``), prints the same clock
once its main window's first frame is painted, then ends. Every run gets a fresh home
folder (a first-time user: no settings, no recent files, no autosave to offer back). One
warm-up run fills the operating system's file cache and is not counted; the figure reported
is the median of the runs after it. The target is under 1.5 s.

``--platform offscreen`` (the default) needs no display; ``--platform xcb`` starts a private
Xvfb server (when ``Xvfb`` is installed) and measures a real X window.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGING = ROOT / "packaging"
DEFAULT_BINARY = PACKAGING / "dist" / "warplan" / "warplan"
FIRST_PAINT_ENV = "WARPLAN_FIRST_PAINT"
REPORT_PREFIX = "warplan-first-paint"
TARGET_SECONDS = 1.5
RUN_TIMEOUT_SECONDS = 60.0

# ``python -m gui`` with the first-paint probe put in place before the app imports Qt.
SOURCE_PRELUDE = (
    "import runpy, sys\n"
    "sys.path.insert(0, {packaging!r})\n"
    "import startup_probe\n"
    "startup_probe.install()\n"
    "sys.argv = ['gui', *sys.argv[1:]]\n"
    "runpy.run_module('gui', run_name='__main__', alter_sys=True)\n"
)


@dataclass(frozen=True)
class StartupFigures:
    """Seconds from launch to the first painted frame, over ``runs`` counted runs."""

    label: str
    command: list[str]
    platform: str
    runs: int
    median: float
    minimum: float
    maximum: float
    samples: list[float]
    cpu_median: float
    load_average: float

    @property
    def meets_target(self) -> bool:
        return self.median < TARGET_SECONDS


def source_command(python: str = sys.executable) -> list[str]:
    """The command that starts the app from the source tree, as ``python -m gui`` does."""
    return [python, "-c", SOURCE_PRELUDE.format(packaging=str(PACKAGING))]


def fresh_user_environment(home: Path, platform: str) -> dict[str, str]:
    """The environment of a first-time user living in ``home``, with the probe switched on."""
    env = dict(os.environ)
    for name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
        env.pop(name, None)
    env.update(
        HOME=str(home),
        XDG_CONFIG_HOME=str(home / ".config"),
        XDG_DATA_HOME=str(home / ".local" / "share"),
        XDG_STATE_HOME=str(home / ".local" / "state"),
        XDG_CACHE_HOME=str(home / ".cache"),
        QT_QPA_PLATFORM=platform,
        PYTHONDONTWRITEBYTECODE="1",
    )
    env[FIRST_PAINT_ENV] = "exit"
    return env


def time_to_first_paint(command: list[str], env: dict[str, str]) -> float:
    """Launches ``command`` once; seconds from launch to the first painted frame it reports."""
    launched = time.monotonic()
    process = subprocess.Popen(
        command,
        env=env,
        cwd=env["HOME"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        _, stderr = process.communicate(timeout=RUN_TIMEOUT_SECONDS)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        raise RuntimeError(f"no first paint within {RUN_TIMEOUT_SECONDS} s: {command}") from None
    for line in stderr.splitlines():
        if line.startswith(REPORT_PREFIX + " "):
            return float(line.split()[1]) - launched
    raise RuntimeError(
        f"the app exited ({process.returncode}) without reporting a first paint:\n{stderr}"
    )


def children_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def measure(label: str, command: list[str], runs: int, platform: str) -> StartupFigures:
    """One warm-up run, then ``runs`` counted runs, each as a first-time user.

    Besides the wall-clock time it records the processor time (user + system) each run used
    up to its first paint: on a machine shared with other work, the wall time grows with the
    load while the processor time hardly does, so the two together tell the app's own cost.
    """
    samples: list[float] = []
    cpu_samples: list[float] = []
    load_average = os.getloadavg()[0]
    for index in range(runs + 1):
        with tempfile.TemporaryDirectory(prefix="warplan-startup-") as home:
            cpu_before = children_cpu_seconds()
            seconds = time_to_first_paint(command, fresh_user_environment(Path(home), platform))
            cpu_seconds = children_cpu_seconds() - cpu_before
        if index > 0:
            samples.append(seconds)
            cpu_samples.append(cpu_seconds)
    return StartupFigures(
        label=label,
        command=command,
        platform=platform,
        runs=runs,
        median=statistics.median(samples),
        minimum=min(samples),
        maximum=max(samples),
        samples=samples,
        cpu_median=statistics.median(cpu_samples),
        load_average=load_average,
    )


def folder_size_bytes(folder: Path) -> int:
    """Bytes of every regular file under ``folder`` (symbolic links not followed)."""
    return sum(p.lstat().st_size for p in folder.rglob("*") if p.is_file() and not p.is_symlink())


def package_sizes(binary: Path) -> dict[str, int]:
    """Sizes of the one-folder package holding ``binary`` and of its ``.tar.gz``, if built."""
    folder = binary.parent
    sizes = {"folder_bytes": folder_size_bytes(folder)}
    tarballs = sorted(folder.parent.glob("warplan-*.tar.gz"))
    if tarballs:
        sizes["tar_gz_bytes"] = tarballs[-1].stat().st_size
    return sizes


class PrivateXServer:
    """An Xvfb server on a free display number for the duration of a ``with`` block."""

    def __init__(self) -> None:
        self.display = ""
        self._process: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> PrivateXServer:
        xvfb = shutil.which("Xvfb")
        if xvfb is None:
            raise RuntimeError("--platform xcb needs Xvfb (apt-get install xvfb)")
        read_fd, write_fd = os.pipe()
        # -displayfd: Xvfb picks a free display and writes its number when ready.
        self._process = subprocess.Popen(
            [xvfb, "-displayfd", str(write_fd), "-screen", "0", "1920x1080x24", "-nolisten", "tcp"],
            pass_fds=(write_fd,),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(write_fd)
        with os.fdopen(read_fd) as ready:
            number = ready.readline().strip()
        if not number:
            raise RuntimeError("Xvfb did not start")
        self.display = f":{number}"
        return self

    def __exit__(self, *exc: object) -> None:
        if self._process is not None:
            self._process.terminate()
            self._process.wait(timeout=10)


def print_report(figures: list[StartupFigures], sizes: dict[str, int] | None) -> None:
    for f in figures:
        verdict = "meets" if f.meets_target else "MISSES"
        print(
            f"{f.label:<8} {f.platform:<9} median {f.median:.3f} s "
            f"(min {f.minimum:.3f}, max {f.maximum:.3f}, {f.runs} runs; "
            f"processor {f.cpu_median:.3f} s; load {f.load_average:.1f}) "
            f"{verdict} the {TARGET_SECONDS} s target"
        )
    if sizes:
        line = f"package  folder {sizes['folder_bytes'] / 2**20:.1f} MiB"
        if "tar_gz_bytes" in sizes:
            line += f", tar.gz {sizes['tar_gz_bytes'] / 2**20:.1f} MiB"
        print(line)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="counted runs per variant")
    parser.add_argument("--source", action="store_true", help="measure python -m gui")
    parser.add_argument("--binary", type=Path, help="measure this built warplan executable")
    parser.add_argument("--platform", default="offscreen", choices=("offscreen", "xcb"))
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")

    variants: list[tuple[str, list[str]]] = []
    binary: Path | None = args.binary
    if not args.source and binary is None:
        variants.append(("source", source_command()))
        binary = DEFAULT_BINARY if DEFAULT_BINARY.exists() else None
    elif args.source:
        variants.append(("source", source_command()))
    if binary is not None:
        variants.append(("package", [str(binary.resolve())]))

    figures: list[StartupFigures] = []
    if args.platform == "xcb":
        with PrivateXServer() as x_server:
            os.environ["DISPLAY"] = x_server.display
            figures = [measure(lb, cmd, args.runs, "xcb") for lb, cmd in variants]
    else:
        figures = [measure(lb, cmd, args.runs, "offscreen") for lb, cmd in variants]
    sizes = package_sizes(binary) if binary is not None else None

    if args.json:
        report = {
            "target_seconds": TARGET_SECONDS,
            "startup": [asdict(f) | {"meets_target": f.meets_target} for f in figures],
            "package": sizes,
        }
        print(json.dumps(report, indent=2))
    else:
        print_report(figures, sizes)
    return 0


if __name__ == "__main__":
    sys.exit(main())
