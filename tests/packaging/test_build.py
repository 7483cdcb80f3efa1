"""Builds the package once (``bash packaging/build.sh``) and tests the built app.

The build takes about a minute on 2 cores (longer the first time, when it creates its build
venv). Set ``WARPLAN_SKIP_PACKAGING=1`` to skip this module; the skip is reported with its
reason, never silent.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tarfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from packaging_support import (
    DEMO_SCENARIO,
    ROOT,
    first_time_user_env,
    internet_sockets_in_strace_log,
    network_namespace_available,
)

pytestmark = pytest.mark.slow

BUILD_TIMEOUT_SECONDS = 1800
RUN_TIMEOUT_SECONDS = 120
MIME_TYPE = "application/x-warplan-scenario"


@dataclass(frozen=True)
class BuiltPackage:
    folder: Path
    binary: Path
    tarball: Path
    log: str
    # XDG_CACHE_HOME of the build's own --selftest-kernels runs: the compiled kernels.
    kernel_cache_home: Path


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BuiltPackage]:
    if os.environ.get("WARPLAN_SKIP_PACKAGING") == "1":
        pytest.skip(
            "WARPLAN_SKIP_PACKAGING=1: the PyInstaller build and the tests of the built app "
            "are skipped"
        )
    dist = tmp_path_factory.mktemp("dist")
    work = tmp_path_factory.mktemp("pyinstaller-work")
    result = subprocess.run(
        ["bash", str(ROOT / "packaging" / "build.sh"), "--dist", str(dist), "--work", str(work)],
        capture_output=True,
        text=True,
        timeout=BUILD_TIMEOUT_SECONDS,
    )
    log = result.stdout + result.stderr
    if result.returncode != 0:
        pytest.fail(f"packaging/build.sh failed ({result.returncode}):\n{log[-6000:]}")
    tarballs = sorted(dist.glob("warplan-*-linux-*.tar.gz"))
    assert len(tarballs) == 1, log[-3000:]
    yield BuiltPackage(
        dist / "warplan", dist / "warplan" / "warplan", tarballs[0], log, work / "kernel-cache"
    )
    # 200+ MB per build: do not leave it in pytest's kept temporary folders.
    shutil.rmtree(dist, ignore_errors=True)
    shutil.rmtree(work, ignore_errors=True)


def seed_kernel_cache(built: BuiltPackage, home: Path) -> Path:
    """Gives a fresh home the kernels the build compiled, as install.sh leaves a user's cache:
    the app works out line of sight as it starts, and compiling again takes minutes."""
    cache = home / ".cache" / "warplan" / "kernels"
    shutil.copytree(built.kernel_cache_home / "warplan" / "kernels", cache)
    return cache


def user_home(built: BuiltPackage, tmp_path: Path) -> Path:
    """A first-time user's home, holding only the kernels' cache."""
    home = tmp_path / "home"
    seed_kernel_cache(built, home)
    return home


def run_app(
    command: list[str], home: Path, *args: str, prefix: list[str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*(prefix or []), *command, *args],
        env=first_time_user_env(home),
        cwd=home,
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT_SECONDS,
    )


def test_build_makes_an_executable_one_folder_app(built: BuiltPackage) -> None:
    assert built.binary.is_file()
    assert os.access(built.binary, os.X_OK)
    assert (built.folder / "_internal" / "assets" / "scenarios" / "demo.warplan.json").is_file()
    assert "build.sh: done" in built.log


def test_tarball_unpacks_to_the_app_with_its_desktop_integration(built: BuiltPackage) -> None:
    with tarfile.open(built.tarball) as tar:
        members = {m.name: m for m in tar.getmembers()}
    for name in (
        "warplan/warplan",
        "warplan/install.sh",
        "warplan/share/applications/warplan.desktop",
        "warplan/share/mime/packages/warplan.xml",
        "warplan/share/icons/hicolor/256x256/apps/warplan.png",
        f"warplan/share/icons/hicolor/48x48/mimetypes/{MIME_TYPE.replace('/', '-')}.png",
        "warplan/share/doc/warplan/scenario-format.md",
    ):
        assert name in members, name
    assert members["warplan/warplan"].mode & 0o111
    assert members["warplan/install.sh"].mode & 0o111


def test_built_app_ships_its_ui_font(built: BuiltPackage) -> None:
    shipped = sorted((ROOT / "assets" / "fonts").glob("*.ttf"))
    assert shipped, "assets/fonts holds no .ttf"
    for font in shipped:
        bundled = built.folder / "_internal" / "assets" / "fonts" / font.name
        assert bundled.read_bytes() == font.read_bytes()
    licences = list((built.folder / "_internal" / "assets" / "fonts").glob("*LICENSE*"))
    assert licences, "the font's licence must travel with it"


def test_built_app_carries_no_qt_network_code(built: BuiltPackage) -> None:
    names = {p.name for p in built.folder.rglob("*")}
    assert not {"libQt6Network.so.6", "libqvnc.so", "libqtuiotouchplugin.so"} & names
    assert not any(name.startswith("QtNetwork") for name in names)


def test_built_app_has_no_dangling_links(built: BuiltPackage) -> None:
    dangling = [p for p in built.folder.rglob("*") if p.is_symlink() and not p.exists()]
    assert dangling == []


def test_built_app_selftest_passes_offscreen(built: BuiltPackage, tmp_path: Path) -> None:
    result = run_app([str(built.binary)], user_home(built, tmp_path), "--selftest")
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("selftest: ok")


def test_build_compiled_the_kernels_once_then_loaded_them_from_the_cache(
    built: BuiltPackage,
) -> None:
    runs = re.findall(r"(\d+) signatures compiled and (\d+) loaded from the cache", built.log)
    assert len(runs) == 2, built.log[-3000:]
    (cold_compiled, cold_loaded), (warm_compiled, warm_loaded) = (
        (int(compiled), int(loaded)) for compiled, loaded in runs
    )
    assert cold_compiled > 0
    assert cold_loaded == 0
    # Loading needs only the kernels Python calls: their cached code holds the ones they call.
    assert warm_compiled == 0
    assert 0 < warm_loaded <= cold_compiled
    assert built.log.count("selftest: kernels ok - ") == 2




def test_built_app_keeps_its_kernels_in_the_users_cache_not_in_the_package(
    built: BuiltPackage, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    cache = seed_kernel_cache(built, home)
    result = run_app([str(built.binary)], home, "--selftest-kernels")
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.splitlines()[-1].startswith("selftest: kernels ok - ")
    assert warm_up_counts(result.stdout)[0] == 0
    [folder] = cache.iterdir()
    assert f"cache: {folder}\n" in result.stdout
    assert list(folder.glob("sight_kernel.*.nbi"))
    # The kernels' module is a plain source file in the package, and nothing is cached there.
    assert (built.folder / "_internal" / "engine" / "sight_kernel.py").is_file()
    assert list(folder.glob("hidden_kernel.*.nbi"))
    assert (built.folder / "_internal" / "engine" / "hidden_kernel.py").is_file()
    assert not list(built.folder.rglob("*.nbi"))


def warm_up_counts(stdout: str) -> tuple[int, int]:
    """(compiled, loaded) from the warm-up summary line of ``--selftest-kernels``."""
    found = re.search(r"(\d+) signatures compiled and (\d+) loaded from the cache", stdout)
    assert found is not None, stdout
    return int(found.group(1)), int(found.group(2))


def test_built_app_selftest_passes_with_no_network(built: BuiltPackage, tmp_path: Path) -> None:
    if not network_namespace_available():
        pytest.skip("unshare -n is not available here; test_built_app_opens_no_internet_socket")
    home = user_home(built, tmp_path)
    result = run_app([str(built.binary)], home, "--selftest", prefix=["unshare", "-n"])
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("selftest: ok")


def test_built_app_opens_no_internet_socket(built: BuiltPackage, tmp_path: Path) -> None:
    strace = shutil.which("strace")
    if strace is None:
        pytest.skip("strace is not installed (apt-get install strace)")
    log = tmp_path / "strace.log"
    result = run_app(
        [str(built.binary)],
        user_home(built, tmp_path),
        "--selftest",
        prefix=[strace, "-f", "-qq", "-e", "trace=execve,socket,connect", "-o", str(log)],
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "execve(" in log.read_text(), "strace recorded nothing: the trace did not run"
    assert internet_sockets_in_strace_log(log) == []


def test_built_app_opens_a_file_named_on_its_command_line(
    built: BuiltPackage, tmp_path: Path
) -> None:
    # The desktop entry runs "warplan %f": a path with spaces must reach the app whole.
    scenario = tmp_path / "my scenarios" / "turn 2.warplan.json"
    scenario.parent.mkdir()
    shutil.copyfile(DEMO_SCENARIO, scenario)
    home = user_home(built, tmp_path)
    result = run_app([str(built.binary)], home, str(scenario), "--selftest")
    assert result.returncode == 0, result.stdout + result.stderr
    broken = tmp_path / "broken.warplan.json"
    broken.write_text('{"format": "warplan.scenario", "version": 1, "units": [')
    result = run_app([str(built.binary)], home, str(broken), "--selftest")
    assert result.returncode == 1
    assert "broken.warplan.json" in result.stderr
    assert "Traceback" not in result.stderr


def test_built_app_with_no_display_writes_a_screenshot(built: BuiltPackage, tmp_path: Path) -> None:
    # A first run on a machine with no display: no window to show, so a picture of it.
    home = user_home(built, tmp_path)
    env = first_time_user_env(home)
    del env["QT_QPA_PLATFORM"]
    result = subprocess.run(
        [str(built.binary)],
        env=env,
        cwd=home,
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT_SECONDS,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    screenshot = home / "warplan-screenshot.png"
    assert screenshot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert str(screenshot) in result.stdout


def test_built_app_reports_its_first_paint(built: BuiltPackage, tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location(
        "measure_startup", ROOT / "scripts" / "measure_startup.py"
    )
    assert spec is not None
    assert spec.loader is not None
    measure_startup = importlib.util.module_from_spec(spec)
    sys.modules["measure_startup"] = measure_startup
    spec.loader.exec_module(measure_startup)
    home = user_home(built, tmp_path)
    env = measure_startup.fresh_user_environment(home, "offscreen")
    seconds = measure_startup.time_to_first_paint([str(built.binary)], env)
    assert 0.0 < seconds < RUN_TIMEOUT_SECONDS


def test_install_script_registers_the_app_and_the_scenario_type(
    built: BuiltPackage, tmp_path: Path
) -> None:
    prefix = tmp_path / "prefix"
    home = tmp_path / "home"
    env = first_time_user_env(home)
    # The installed copy finds the kernels compiled for the built one: the cache does not
    # depend on the folder the package is in.
    kernel_cache = seed_kernel_cache(built, home)
    subprocess.run(
        ["bash", str(built.folder / "install.sh"), "--prefix", str(prefix)],
        env=env,
        check=True,
        capture_output=True,
        timeout=RUN_TIMEOUT_SECONDS,
    )
    command = prefix / "bin" / "warplan"
    assert command.is_symlink()
    assert command.resolve() == (prefix / "lib" / "warplan" / "warplan").resolve()
    desktop = (prefix / "share" / "applications" / "warplan.desktop").read_text()
    assert f"Exec={command} %f\n" in desktop
    assert f"MimeType={MIME_TYPE};" in desktop
    assert (prefix / "share" / "icons" / "hicolor" / "128x128" / "apps" / "warplan.png").is_file()
    assert (prefix / "share" / "mime" / "packages" / "warplan.xml").is_file()

    result = run_app([str(command)], home, "--selftest")
    assert result.returncode == 0, result.stdout + result.stderr
    # The installed app loads the kernels from this user's cache and compiles nothing.
    result = run_app([str(command)], home, "--selftest-kernels")
    assert result.returncode == 0, result.stdout + result.stderr
    assert warm_up_counts(result.stdout)[0] == 0

    if shutil.which("update-mime-database"):
        globs = (prefix / "share" / "mime" / "globs2").read_text()
        assert f"{MIME_TYPE}:*.warplan.json" in globs
        assert mime_type_of(tmp_path / "x.warplan.json", prefix) == MIME_TYPE

    subprocess.run(
        ["bash", str(built.folder / "install.sh"), "--prefix", str(prefix), "--uninstall"],
        env=env,
        check=True,
        capture_output=True,
        timeout=RUN_TIMEOUT_SECONDS,
    )
    assert not command.exists()
    assert not (prefix / "lib" / "warplan").exists()
    assert not kernel_cache.exists()
    assert not (prefix / "share" / "applications" / "warplan.desktop").exists()


def mime_type_of(path: Path, prefix: Path) -> str:
    """The MIME type Qt's database (the freedesktop one) gives ``path`` with ``prefix`` added."""
    path.write_text(DEMO_SCENARIO.read_text())
    code = (
        "import sys\n"
        "from PySide6.QtCore import QMimeDatabase\n"
        "print(QMimeDatabase().mimeTypeForFile(sys.argv[1]).name())\n"
    )
    env = dict(os.environ, XDG_DATA_DIRS=f"{prefix / 'share'}:/usr/share")
    result = subprocess.run(
        [sys.executable, "-c", code, str(path)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return result.stdout.strip()
