"""Files on disk: reading only regular files, in linear memory; showing a capped list of
problems; saving through links, refusing read-only files, long names, leftovers of interrupted
saves, and a save killed at any moment."""

from __future__ import annotations

import io
import json
import os
import random
import signal
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import scenario_io
from engine.cli import main
from engine.errors import Problem, ScenarioError
from engine.format_messages import capped
from engine.limits import MAX_PROBLEMS_SHOWN
from engine.model import Scenario
from engine.scenario_io import (
    dumps_scenario,
    load_scenario,
    loads_scenario,
    parse_scenario,
    save_scenario,
    validate_path,
)

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "assets" / "scenarios" / "spec-example.warplan.json"
POSIX = os.name == "posix"


def spec() -> Scenario:
    return load_scenario(SPEC)


def spec_document() -> dict[str, Any]:
    document: dict[str, Any] = json.loads(SPEC.read_text(encoding="utf-8"))
    return document


# ---------------------------------------------------------------------------------------------
# Reading: regular files only


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_a_fifo_named_like_a_scenario_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "x.warplan.json"
    os.mkfifo(fifo)
    found: list[list[Problem]] = []
    reader = threading.Thread(target=lambda: found.append(validate_path(fifo)), daemon=True)
    reader.start()
    reader.join(timeout=20)
    assert not reader.is_alive(), "reading a FIFO blocked"
    assert found == [[Problem(str(fifo), "cannot read the file: not a regular file")]]


def test_a_folder_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "folder.warplan.json"
    folder.mkdir()
    problems = validate_path(folder)
    assert len(problems) == 1
    assert problems[0].path == str(folder)
    assert problems[0].message.startswith("cannot read the file")


@pytest.mark.parametrize("kind", ["plain", "escapes"])
def test_a_long_string_is_read_in_linear_memory(kind: str) -> None:
    """One 8 MB title: the old nesting pre-scan needed about 1 GB here; now a few copies."""
    document = spec_document()
    document["title"] = "x" * 8_000_000 if kind == "plain" else '\\"' * 4_000_000
    text = json.dumps(document).encode()
    script = (
        "import resource, sys\n"
        "from engine.scenario_io import loads_scenario\n"
        "text = sys.stdin.buffer.read()\n"
        "before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "loads_scenario(text)\n"
        "after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "print((after - before) * 1024)\n"
    )
    if not POSIX:
        pytest.skip("resource is POSIX")
    run = subprocess.run(
        [sys.executable, "-c", script],
        input=text,
        capture_output=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=300,
        check=True,
    )
    grew = int(run.stdout.decode().split()[-1])
    assert grew < 16 * len(text), f"{grew / len(text):.1f} bytes per byte"


def test_many_models_at_one_point_read_quickly() -> None:
    document = spec_document()
    first = document["units"][0]["models"][0]
    document["units"][0]["models"] = [dict(first, id=f"m{i}") for i in range(48)]
    text = json.dumps(document)
    started = time.perf_counter()
    scenario = loads_scenario(text)
    assert len(scenario.units[0].models) == 48
    # Not a timing target: a guard against a pathological reader (seconds, not milliseconds).
    assert time.perf_counter() - started < 30


# ---------------------------------------------------------------------------------------------
# Problems are shown capped


def test_the_shown_problems_are_capped_with_a_count_of_the_rest() -> None:
    problems = [
        Problem(f"units[{i}].id", "must not be empty") for i in range(MAX_PROBLEMS_SHOWN + 7)
    ]
    lines = capped(problems)
    assert lines[:MAX_PROBLEMS_SHOWN] == [str(p) for p in problems[:MAX_PROBLEMS_SHOWN]]
    assert lines[MAX_PROBLEMS_SHOWN:] == ["... and 7 more problems"]
    assert capped(problems[:MAX_PROBLEMS_SHOWN]) == [str(p) for p in problems[:MAX_PROBLEMS_SHOWN]]
    assert capped(problems[: MAX_PROBLEMS_SHOWN + 1])[-1] == "... and 1 more problem"


@pytest.mark.parametrize("command", ["validate", "evaluate"])
def test_the_cli_shows_at_most_the_cap(tmp_path: Path, command: str) -> None:
    document = spec_document()
    document["units"][0]["models"] = [
        {"id": "", "x": 0, "y": 0, "base": {"shape": "circle", "diameter": 32}} for _ in range(500)
    ]
    path = tmp_path / "flood.warplan.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    err = io.StringIO()
    assert main([command, str(path)], out=io.StringIO(), err=err) == 2
    lines = err.getvalue().splitlines()
    assert lines[0] == f"{path}: not a valid scenario"
    assert len(lines) == 1 + MAX_PROBLEMS_SHOWN + 1
    assert lines[-1] == f"... and {500 - MAX_PROBLEMS_SHOWN} more problems"


# ---------------------------------------------------------------------------------------------
# Saving


def temporaries(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


@pytest.mark.skipif(not POSIX, reason="symbolic links need privileges on Windows")
def test_saving_through_a_symlink_writes_the_file_it_points_to(tmp_path: Path) -> None:
    real = tmp_path / "store" / "real.warplan.json"
    real.parent.mkdir()
    real.write_text("old", encoding="utf-8")
    link = tmp_path / "link.warplan.json"
    link.symlink_to(real)
    save_scenario(spec(), link)
    assert link.is_symlink()
    assert load_scenario(real) == spec()
    assert temporaries(tmp_path) == []
    assert temporaries(real.parent) == []


def test_a_read_only_file_is_refused(tmp_path: Path) -> None:
    target = tmp_path / "locked.warplan.json"
    target.write_text("the old document", encoding="utf-8")
    os.chmod(target, 0o444)
    with pytest.raises(PermissionError, match="read-only"):
        save_scenario(spec(), target)
    assert target.read_text(encoding="utf-8") == "the old document"
    assert temporaries(tmp_path) == []


@pytest.mark.parametrize("length", [242, 250, 255])
def test_names_up_to_255_bytes_save(tmp_path: Path, length: int) -> None:
    suffix = ".warplan.json"
    name = "é" * ((length - len(suffix)) // 2) + "a" * ((length - len(suffix)) % 2) + suffix
    assert len(name.encode()) == length
    target = tmp_path / name
    save_scenario(spec(), target)
    assert load_scenario(target) == spec()
    assert temporaries(tmp_path) == []


def test_leftovers_of_interrupted_saves_are_removed_on_the_next_save(tmp_path: Path) -> None:
    ours_old_style = tmp_path / ".battle.warplan.json.ab12cd34.tmp"
    ours = tmp_path / ".warplan-0123abcd.tmp"
    not_ours = tmp_path / ".notes.txt.ab12cd34.tmp"
    for leftover in (ours_old_style, ours, not_ours):
        leftover.write_text("partial", encoding="utf-8")
    save_scenario(spec(), tmp_path / "other.warplan.json")
    assert temporaries(tmp_path) == [not_ours.name]


@pytest.mark.skipif(not POSIX, reason="advisory locks are POSIX")
def test_a_temporary_file_in_use_is_left_alone(tmp_path: Path) -> None:
    import fcntl

    busy = tmp_path / ".warplan-deadbeef.tmp"
    with open(busy, "wb") as handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        save_scenario(spec(), tmp_path / "s.warplan.json")
        assert busy.exists()
    save_scenario(spec(), tmp_path / "s.warplan.json")
    assert not busy.exists()


_SAVER = """
import sys
from engine.scenario_io import load_scenario, save_scenario
from engine.model import Scenario
import dataclasses
target = sys.argv[1]
base = load_scenario(sys.argv[2])
versions = [dataclasses.replace(base, title="A" * 200_000), dataclasses.replace(base, title="B")]
print("ready", flush=True)
i = 0
while True:
    save_scenario(versions[i % 2], target)
    i += 1
"""


@pytest.mark.skipif(not POSIX, reason="SIGKILL is POSIX")
def test_a_save_killed_at_any_moment_leaves_the_old_or_the_new_file(tmp_path: Path) -> None:
    target = tmp_path / "s.warplan.json"
    save_scenario(spec(), target)
    titles = {spec().title, "A" * 200_000, "B"}
    rng = random.Random(12)
    for _ in range(12):
        saver = subprocess.Popen(
            [sys.executable, "-c", _SAVER, str(target), str(SPEC)],
            stdout=subprocess.PIPE,
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        assert saver.stdout is not None
        assert saver.stdout.readline().strip() == b"ready"
        time.sleep(rng.uniform(0.0, 0.3))
        saver.send_signal(signal.SIGKILL)
        saver.wait()
        assert load_scenario(target).title in titles
    save_scenario(spec(), target)
    assert temporaries(tmp_path) == []
    assert stat.S_ISREG(os.stat(target).st_mode)


def test_a_scenario_that_does_not_read_back_is_not_saved(tmp_path: Path) -> None:
    target = tmp_path / "s.warplan.json"
    target.write_text("the old document", encoding="utf-8")
    broken = parse_scenario(spec_document()).with_models(
        [spec().units[0].models[0].placed(1e308, 0.0)]
    )
    with pytest.raises(ScenarioError, match="must be a number from"):
        save_scenario(broken, target)
    assert target.read_text(encoding="utf-8") == "the old document"
    assert dumps_scenario(spec()) == SPEC.read_text(encoding="utf-8")


# ---------------------------------------------------------------------------------------------
# The nesting pre-scan agrees with the JSON parser, across chunk boundaries


def json_depth(value: Any) -> int:
    if isinstance(value, dict):
        return 1 + max((json_depth(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((json_depth(v) for v in value), default=0)
    return 0


tricky_text = st.text(alphabet='[]{}"\\ ab\n', max_size=12)
nested_json = st.recursive(
    st.none() | st.integers(-5, 5) | tricky_text,
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(tricky_text, children, max_size=3)
    ),
    max_leaves=30,
)


@settings(max_examples=300, deadline=None)
@given(value=nested_json, limit=st.integers(0, 8), chunk=st.sampled_from([1, 2, 3, 7, 1 << 20]))
def test_the_nesting_scan_measures_what_the_parser_reads(
    value: Any, limit: int, chunk: int
) -> None:
    raw = json.dumps(value).encode()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(scenario_io, "_DEPTH_SCAN_CHUNK", chunk)
        assert scenario_io._nesting_exceeds(raw, limit) is (json_depth(value) > limit)
