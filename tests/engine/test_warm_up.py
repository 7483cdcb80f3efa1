"""Compiling the line-of-sight kernels ahead of use: ``python -m engine warm-up``.

Each run is a child process with a numba cache folder of the test's own (``NUMBA_CACHE_DIR``),
so the first run compiles for real and nothing is left in the source tree's cache.
"""

from __future__ import annotations

import json
import os
import pickle
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
WARM_UP_TIMEOUT_SECONDS = 600


def warm_up(cache_dir: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", "warm-up", *extra],
        cwd=ROOT,
        env=dict(os.environ, NUMBA_CACHE_DIR=str(cache_dir)),
        capture_output=True,
        text=True,
        timeout=WARM_UP_TIMEOUT_SECONDS,
        check=True,
    )


def warm_up_json(cache_dir: Path) -> dict[str, Any]:
    report: dict[str, Any] = json.loads(warm_up(cache_dir, "--json").stdout)
    return report


def test_importing_the_engine_does_not_import_numba() -> None:
    # The app imports these while it starts; numba costs a third of a second to import, so
    # it waits until line of sight is first worked out (off the UI thread).
    code = (
        "import sys\n"
        "import engine, engine.cli, engine.evaluate, engine.scenario_io, engine.visibility\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('numba', 'llvmlite')))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"


@dataclass(frozen=True)
class ColdCache:
    """A numba cache folder filled by one first run, and that run's report."""

    folder: Path
    report: dict[str, Any]


@pytest.fixture(scope="module")
def cold_cache(tmp_path_factory: pytest.TempPathFactory) -> ColdCache:
    # Compiling every kernel takes seconds: once for the module; tests work on copies.
    folder = tmp_path_factory.mktemp("numba-cache")
    return ColdCache(folder, warm_up_json(folder))


def copy_of(cache: ColdCache, tmp_path: Path) -> Path:
    copy = tmp_path / "numba-cache"
    shutil.copytree(cache.folder, copy)
    return copy


def test_first_run_compiles_every_kernel_and_the_second_loads_them(
    cold_cache: ColdCache, tmp_path: Path
) -> None:
    cold = cold_cache.report
    assert cold["kernels"], "the kernel module defines no compiled function"
    assert Path(cold["cache_dir"]).is_relative_to(cold_cache.folder)
    assert sum(k["compiled"] for k in cold["kernels"]) > 0
    assert all(k["loaded"] == 0 for k in cold["kernels"])
    assert list(cold_cache.folder.rglob("sight_kernel.*.nbi"))

    warm = warm_up_json(copy_of(cold_cache, tmp_path))
    assert [k["name"] for k in warm["kernels"]] == [k["name"] for k in cold["kernels"]]
    assert all(k["compiled"] == 0 for k in warm["kernels"])
    assert sum(k["loaded"] for k in warm["kernels"]) > 0


def test_a_cache_written_by_another_numba_is_recompiled_not_loaded(
    cold_cache: ColdCache, tmp_path: Path
) -> None:
    # Two environments (the app's and the Qt-free one) share engine/__pycache__; numba keys
    # each index by its own version, so an index from another version is set aside.
    cache = copy_of(cold_cache, tmp_path)
    indexes = list(cache.rglob("sight_kernel.*.nbi"))
    assert indexes
    for index in indexes:
        with index.open("rb") as stream:
            pickle.load(stream)
            rest = stream.read()
        index.write_bytes(pickle.dumps("0.1.0") + rest)

    again = warm_up_json(cache)
    assert sum(k["compiled"] for k in again["kernels"]) > 0
    assert all(k["loaded"] == 0 for k in again["kernels"])


def test_text_report_names_each_kernel_and_the_time_taken(
    cold_cache: ColdCache, tmp_path: Path
) -> None:
    cache = copy_of(cold_cache, tmp_path)
    text = warm_up(cache).stdout
    for kernel in cold_cache.report["kernels"]:
        assert text.count(f"{kernel['name']}: ") == 1
    summary = text.splitlines()[-1]
    kernels = len(cold_cache.report["kernels"])
    assert summary.startswith(f"warm-up: {kernels} kernels, 0 signatures compiled")
    assert " s (importing numba and the kernels: " in summary
    assert str(cache) in summary
