"""Where the packaged app keeps numba's cache of its kernels, and the package's kernel check,
both run from the source tree (fast; the built package is tested in test_build.py)."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGING = ROOT / "packaging"


@pytest.fixture(scope="module")
def kernel_cache() -> ModuleType:
    spec = importlib.util.spec_from_file_location("kernel_cache", PACKAGING / "kernel_cache.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def bundle_with_kernels(folder: Path, source: str) -> Path:
    (folder / "engine").mkdir(parents=True)
    (folder / "engine" / "sight_kernel.py").write_text(source)
    (folder / "assets").mkdir()
    (folder / "assets" / "not-a-kernel.py").write_text("ignored = True\n")
    return folder


def test_cache_lives_in_the_users_xdg_cache_folder(
    kernel_cache: ModuleType, tmp_path: Path
) -> None:
    bundle = bundle_with_kernels(tmp_path / "bundle", "x = 1\n")
    environ = {"HOME": str(tmp_path / "home"), "XDG_CACHE_HOME": str(tmp_path / "xdg")}
    folder = kernel_cache.configure(environ, bundle)
    assert environ["NUMBA_CACHE_DIR"] == str(folder)
    assert environ["NUMBA_CACHE_LOCATOR_CLASSES"] == "kernel_locator.FolderCacheLocator"
    assert folder.parent == tmp_path / "xdg" / "warplan" / "kernels"
    assert folder.is_dir()


def test_without_xdg_cache_home_the_cache_is_under_home(
    kernel_cache: ModuleType, tmp_path: Path
) -> None:
    bundle = bundle_with_kernels(tmp_path / "bundle", "x = 1\n")
    for xdg in ({}, {"XDG_CACHE_HOME": ""}, {"XDG_CACHE_HOME": "relative/cache"}):
        environ = {"HOME": str(tmp_path / "home"), **xdg}
        folder = kernel_cache.configure(environ, bundle)
        assert folder.parent == tmp_path / "home" / ".cache" / "warplan" / "kernels"


def test_changed_kernel_source_gets_a_new_cache_folder(
    kernel_cache: ModuleType, tmp_path: Path
) -> None:
    environ = {"HOME": str(tmp_path / "home")}
    first = kernel_cache.configure(environ, bundle_with_kernels(tmp_path / "one", "x = 1\n"))
    same = kernel_cache.configure(environ, bundle_with_kernels(tmp_path / "two", "x = 1\n"))
    changed = kernel_cache.configure(environ, bundle_with_kernels(tmp_path / "three", "x = 2\n"))
    assert first == same
    assert changed != first
    assert changed.parent == first.parent


def test_only_engine_sources_are_kernel_sources(kernel_cache: ModuleType, tmp_path: Path) -> None:
    bundle = bundle_with_kernels(tmp_path / "bundle", "x = 1\n")
    assert kernel_cache.kernel_sources(bundle) == [bundle / "engine" / "sight_kernel.py"]


@pytest.mark.skipif(os.geteuid() == 0, reason="root can write into a read-only folder")
def test_unwritable_cache_home_falls_back_to_the_temporary_folder(
    kernel_cache: ModuleType, tmp_path: Path
) -> None:
    read_only = tmp_path / "read-only"
    read_only.mkdir()
    read_only.chmod(0o500)
    try:
        bundle = bundle_with_kernels(tmp_path / "bundle", "x = 1\n")
        folder = kernel_cache.configure({"XDG_CACHE_HOME": str(read_only)}, bundle)
    finally:
        read_only.chmod(0o700)
    assert not folder.is_relative_to(read_only)
    assert folder.parent.name == f"warplan-kernels-{os.getuid()}"


def test_unwritable_cache_home_as_a_file_falls_back_too(
    kernel_cache: ModuleType, tmp_path: Path
) -> None:
    # A file where the cache folder should be: no folder can be made there, even by root.
    blocked = tmp_path / "cache-is-a-file"
    blocked.write_text("")
    bundle = bundle_with_kernels(tmp_path / "bundle", "x = 1\n")
    folder = kernel_cache.configure({"XDG_CACHE_HOME": str(blocked)}, bundle)
    assert not folder.is_relative_to(blocked)
    assert folder.parent.name == f"warplan-kernels-{os.getuid()}"


TINY_KERNEL = """
from numba import njit


@njit(cache=True)
def twice(x):
    return 2 * x
"""

CALL_TINY_KERNEL = """
import sys
sys.path[:0] = [sys.argv[1], {packaging!r}]
import tiny_kernel
assert tiny_kernel.twice(21) == 42
stats = tiny_kernel.twice.stats
print(sum(stats.cache_misses.values()), sum(stats.cache_hits.values()))
"""


def test_folder_locator_caches_in_the_folder_itself_wherever_the_source_is(
    kernel_cache: ModuleType, tmp_path: Path
) -> None:
    # The same kernel source in two folders (a package unpacked, then installed elsewhere).
    folders = [tmp_path / "unpacked", tmp_path / "installed"]
    for folder in folders:
        folder.mkdir()
        (folder / "tiny_kernel.py").write_text(TINY_KERNEL)
    cache = tmp_path / "cache"
    environ = {
        "NUMBA_CACHE_DIR": str(cache),
        kernel_cache.NUMBA_LOCATOR_ENV: kernel_cache.FOLDER_LOCATOR,
    }
    counts = []
    for folder in folders:
        result = subprocess.run(
            [sys.executable, "-c", CALL_TINY_KERNEL.format(packaging=str(PACKAGING)), str(folder)],
            env=dict(os.environ, **environ),
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert result.returncode == 0, result.stdout + result.stderr
        counts.append(tuple(int(n) for n in result.stdout.split()))
    assert counts == [(1, 0), (0, 1)]  # (compiled, loaded): compiled once, then found
    assert [p.name for p in cache.iterdir() if p.suffix == ".nbi"] == [
        f"tiny_kernel.twice-5.py{sys.version_info.major}{sys.version_info.minor}.nbi"
    ]


def test_kernel_selftest_from_the_source_tree_passes() -> None:
    # The source tree's own numba cache (filled by set-up's warm-up), as the app uses it.
    code = f"import sys; sys.path.insert(0, {str(PACKAGING)!r}); import startup_probe; " + (
        "sys.exit(startup_probe.kernel_selftest())"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=600
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.splitlines()[-1].startswith("selftest: kernels ok - ")
    assert "line of sight: the wall hides one unit, the other is seen" in result.stdout
