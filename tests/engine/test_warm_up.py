"""Compiling the line-of-sight kernels ahead of use: ``python -m engine warm-up``.

A cold compile of every kernel takes minutes on a 2-core machine, so these tests start from
the source tree's own cache (``engine/__pycache__``, which set-up's warm-up fills; the first of
them fills it when it is missing, as any test of line of sight would) and never compile all the
kernels again. The cold path is run by set-up itself and by the package's build
(tests/packaging/test_build.py checks that build's log).
"""

from __future__ import annotations

import json
import os
import pickle
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
KERNEL_SOURCE = ROOT / "engine" / "sight_kernel.py"
IN_TREE_CACHE = ROOT / "engine" / "__pycache__"
SCENARIOS = sorted((ROOT / "assets" / "scenarios").glob("*.warplan.json"))
COLD_COMPILE_TIMEOUT_SECONDS = 1800


def environment(cache_dir: Path | None) -> dict[str, str]:
    """This environment with numba's cache in ``cache_dir``, or in the source tree."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_CACHE")}
    if cache_dir is not None:
        env["NUMBA_CACHE_DIR"] = str(cache_dir)
    return env


def warm_up(cache_dir: Path | None, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", "warm-up", *extra],
        cwd=ROOT,
        env=environment(cache_dir),
        capture_output=True,
        text=True,
        timeout=COLD_COMPILE_TIMEOUT_SECONDS,
        check=True,
    )


def warm_up_json(cache_dir: Path | None) -> dict[str, Any]:
    report: dict[str, Any] = json.loads(warm_up(cache_dir, "--json").stdout)
    return report


@pytest.fixture(scope="module")
def in_tree_report() -> dict[str, Any]:
    """The second of two warm-ups with the source tree's cache: the first fills it if needed."""
    if not os.access(IN_TREE_CACHE.parent, os.W_OK):
        pytest.skip("the source tree is read-only: numba caches in the user's cache folder")
    warm_up(None)
    return warm_up_json(None)


def copy_of_the_cache(tmp_path: Path) -> tuple[Path, Path]:
    """A ``NUMBA_CACHE_DIR`` in ``tmp_path`` holding a copy of the source tree's cached kernels
    (with the digest of the sight kernels' source the hidden map's were compiled with: without
    it, they are set aside), and the folder in it where numba looks for them."""
    from numba.core.caching import UserProvidedCacheLocator

    from engine.hidden_kernel import SIGHT_SOURCE_MARKER

    cache = tmp_path / "numba-cache"
    folder = cache / UserProvidedCacheLocator.get_suitable_cache_subpath(str(KERNEL_SOURCE))
    folder.mkdir(parents=True)
    for module in ("sight_kernel", "hidden_kernel"):
        for cached in IN_TREE_CACHE.glob(f"{module}.*.nb[ic]"):
            shutil.copy2(cached, folder / cached.name)
    shutil.copy2(IN_TREE_CACHE / SIGHT_SOURCE_MARKER, folder / SIGHT_SOURCE_MARKER)
    return cache, folder


def test_importing_the_engine_does_not_import_numba() -> None:
    # The app imports these while it starts; numba costs a third of a second to import and
    # the kernels' cache most of a second to load, so both wait until line of sight is first
    # worked out (off the UI thread).
    code = (
        "import sys\n"
        "import engine, engine.cli, engine.evaluate, engine.scenario_io, engine.visibility\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('numba', 'llvmlite')))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"


def test_a_second_warm_up_loads_every_kernel_from_the_cache(
    in_tree_report: dict[str, Any],
) -> None:
    kernels = in_tree_report["kernels"]
    assert kernels, "the kernel module defines no compiled function"
    assert Path(in_tree_report["cache_dir"]) == IN_TREE_CACHE
    assert all(k["compiled"] == 0 for k in kernels)
    assert sum(k["loaded"] for k in kernels) > 0
    assert all(k["loaded"] == len(k["signatures"]) for k in kernels)


def test_text_report_names_each_kernel_and_the_time_taken(
    in_tree_report: dict[str, Any],
) -> None:
    *per_kernel, summary = warm_up(None).stdout.splitlines()
    names = [line.split(": ", 1)[0] for line in per_kernel]
    assert names == [kernel["name"] for kernel in in_tree_report["kernels"]]
    kernels = len(in_tree_report["kernels"])
    assert summary.startswith(f"warm-up: {kernels} kernels, 0 signatures compiled and ")
    assert " s (importing numba and the kernels: " in summary
    assert summary.endswith(f"cache: {IN_TREE_CACHE}")


def test_a_cache_written_by_another_numba_is_recompiled_not_loaded(
    in_tree_report: dict[str, Any], tmp_path: Path
) -> None:
    # Two environments (the app's and the Qt-free one) share engine/__pycache__; numba keys
    # each index by its own version, so an index from another version is set aside. One
    # small kernel's index is made foreign (recompiling them all would take minutes).
    cache, folder = copy_of_the_cache(tmp_path)
    from engine import sight_kernel

    def cached(name: str, suffix: str) -> list[Path]:
        # numba names a kernel's files by its first line: files an older source left behind
        # under other line numbers are not this kernel's.
        line = getattr(sight_kernel, name).py_func.__code__.co_firstlineno
        return sorted(folder.glob(f"sight_kernel.{name}-{line}.*{suffix}"))

    called = {k["name"] for k in in_tree_report["kernels"] if k["loaded"]}
    sizes = {
        name: size
        for name in called
        if hasattr(sight_kernel, name)
        and (size := sum(p.stat().st_size for p in cached(name, ".nbc")))
    }
    foreign = min(sizes, key=lambda name: sizes[name])
    [index] = cached(foreign, ".nbi")
    with index.open("rb") as stream:
        pickle.load(stream)
        rest = stream.read()
    index.write_bytes(pickle.dumps("0.1.0") + rest)

    report = {k["name"]: k for k in warm_up_json(cache)["kernels"]}
    assert report[foreign]["compiled"] > 0
    assert report[foreign]["loaded"] == 0
    assert all(k["compiled"] == 0 for name, k in report.items() if name != foreign)


def test_after_warm_up_line_of_sight_needs_no_new_compile(
    in_tree_report: dict[str, Any],
) -> None:
    # Whatever line of sight calls, warm-up compiled (and so cached) beforehand: the app never
    # compiles on first use, neither for a board nor on the first drag (the kernels that keep
    # proofs across a move). Signatures are compared in one process, whatever the cache holds.
    code = (
        "import sys\n"
        "from engine import sight_kernel\n"
        "from engine.cli import kernel_dispatchers\n"
        "from engine.scenario_io import load_scenario\n"
        "from engine.visibility import VisibilityEngine\n"
        "sight_kernel.warm_up()\n"
        "def signatures():\n"
        "    return {(n, str(s)) for n, d in kernel_dispatchers(sight_kernel)\n"
        "            for s in d.signatures}\n"
        "before = signatures()\n"
        "for path in sys.argv[1:]:\n"
        "    board = load_scenario(path)\n"
        "    engine = VisibilityEngine(board)\n"
        "    engine.matrix()\n"
        "    for unit in board.units:\n"
        "        board = board.with_unit_moved(unit.id, 0.25, 0.0)\n"
        "        engine.update(board, (unit.id,))\n"
        "print(sorted(signatures() - before))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code, *map(str, SCENARIOS)],
        cwd=ROOT,
        env=environment(None),
        capture_output=True,
        text=True,
        timeout=COLD_COMPILE_TIMEOUT_SECONDS,
        check=True,
    )
    assert result.stdout.strip() == "[]"


def test_the_hidden_maps_kernels_compiled_with_other_sight_kernels_are_set_aside(
    in_tree_report: dict[str, Any], tmp_path: Path
) -> None:
    # numba keys the hidden map's cache on its own module's source, but its kernels carry
    # compiled copies of the sight kernels: when the digest kept beside them names another
    # sight source, importing the module removes them before any is loaded, and keeps the
    # sight kernels' own.
    import hashlib

    from engine.hidden_kernel import SIGHT_SOURCE_MARKER

    cache, folder = copy_of_the_cache(tmp_path)
    (folder / SIGHT_SOURCE_MARKER).write_text("0" * 64, encoding="ascii")
    hidden_before = sorted(folder.glob("hidden_kernel.*.nb[ic]"))
    sight_before = sorted(folder.glob("sight_kernel.*.nb[ic]"))
    assert hidden_before
    assert sight_before
    subprocess.run(
        [sys.executable, "-c", "import engine.hidden_kernel"],
        cwd=ROOT,
        env=environment(cache),
        check=True,
        timeout=120,
    )
    assert sorted(folder.glob("hidden_kernel.*.nb[ic]")) == []
    assert sorted(folder.glob("sight_kernel.*.nb[ic]")) == sight_before
    digest = hashlib.sha256(KERNEL_SOURCE.read_bytes()).hexdigest()
    assert (folder / SIGHT_SOURCE_MARKER).read_text(encoding="ascii") == digest
