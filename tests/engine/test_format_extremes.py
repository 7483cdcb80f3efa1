"""Extreme but legal JSON never crashes the engine: every file ``validate`` accepts, ``evaluate``
and ``score`` can judge.

Each number of the shipped scenarios is replaced in turn by an extreme value (``1e308``,
``5e-324``, ``2**63``, ``-2**63 - 1``...) and by the values exactly at the documented limits of
``engine.limits``. The extremes must be refused by reading; the files at the limits that read
are run through ``python -m engine evaluate --json`` and ``score --json`` in a separate process
(a crash in native code kills that process, not the test run): every exit status is 0 or 2.

``WARPLAN_FUZZ_FILES`` sets how many files at the limits go through the subprocess (default 12,
drawn from the spec example; more are drawn from the demo too: a few hundred is a thorough run).
"""

from __future__ import annotations

import copy
import json
import os
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine import limits
from engine.errors import ScenarioError
from engine.scenario_io import parse_scenario

ROOT = Path(__file__).resolve().parents[2]
ASSETS = ROOT / "assets" / "scenarios"
SHIPPED = ("spec-example.warplan.json", "demo.warplan.json")

EXTREMES: tuple[float | int, ...] = (1e308, -1e308, 2**63, -(2**63) - 1, 10**400, 1e20, -1e20)
AT_THE_LIMITS: tuple[float | int, ...] = (
    0,
    -0.0,
    5e-324,
    1e-9,
    limits.MIN_BASE_MM,
    limits.MIN_BATTLEFIELD,
    limits.MAX_BATTLEFIELD,
    limits.MAX_BASE_MM,
    limits.MAX_COORDINATE,
    -limits.MAX_COORDINATE,
    limits.MAX_HEIGHT,
    limits.MAX_ROTATION,
    limits.MAX_COUNT,
)


def number_paths(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """The path of every number in a JSON value (outside ``extra``)."""
    if isinstance(value, dict):
        for key, child in value.items():
            if key != "extra":
                yield from number_paths(child, (*path, key))
    elif isinstance(value, list):
        for i, child in enumerate(value):
            yield from number_paths(child, (*path, i))
    elif isinstance(value, int | float) and not isinstance(value, bool):
        yield path


def replaced(document: dict[str, Any], path: tuple[Any, ...], value: float | int) -> Any:
    changed = copy.deepcopy(document)
    holder: Any = changed
    for step in path[:-1]:
        holder = holder[step]
    holder[path[-1]] = value
    return changed


def shipped() -> list[dict[str, Any]]:
    return [json.loads((ASSETS / name).read_text(encoding="utf-8")) for name in SHIPPED]


def reads(document: Any) -> bool:
    try:
        parse_scenario(document)
    except ScenarioError:
        return False
    return True


def test_the_spec_example_with_a_model_at_1e308_is_refused() -> None:
    document = json.loads((ASSETS / "spec-example.warplan.json").read_text(encoding="utf-8"))
    document["units"][0]["models"][0]["x"] = 1e308
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(document)
    assert [str(p) for p in caught.value.problems] == [
        "units[0].models[0].x: must be a number from -1200.0 to 1200.0 (inches), got 1e+308"
    ]


def sampled_paths(document: dict[str, Any], most: int) -> list[tuple[Any, ...]]:
    """Every number's path, or ``most`` of them drawn at random (seeded) from a large file."""
    paths = list(number_paths(document))
    return paths if len(paths) <= most else random.Random(7).sample(paths, most)


def test_no_extreme_number_is_read_anywhere() -> None:
    accepted = []
    tried = 0
    for document in shipped():
        for path in sampled_paths(document, 100):
            for value in EXTREMES:
                tried += 1
                if reads(replaced(document, path, value)):
                    accepted.append((path, value))
    assert tried > 1000
    assert accepted == []


@pytest.mark.parametrize(
    ("path", "value", "valid"),
    [
        (("units", 0, "models", 0, "base", "diameter"), limits.MIN_BASE_MM, True),
        (("units", 0, "models", 0, "base", "diameter"), limits.MIN_BASE_MM - 1e-4, False),
        (("units", 0, "models", 0, "base", "diameter"), limits.MAX_BASE_MM, True),
        (("units", 0, "models", 0, "base", "diameter"), limits.MAX_BASE_MM + 1e-4, False),
        (("units", 0, "models", 0, "x"), limits.MAX_COORDINATE, True),
        (("units", 0, "models", 0, "x"), limits.MAX_COORDINATE + 1e-4, False),
        (("units", 0, "models", 0, "y"), -limits.MAX_COORDINATE, True),
        (("units", 0, "models", 0, "y"), -limits.MAX_COORDINATE - 1e-4, False),
        (("units", 0, "models", 0, "height"), limits.MAX_HEIGHT, True),
        (("units", 0, "models", 0, "height"), limits.MAX_HEIGHT + 1e-4, False),
        (("battlefield", "width"), limits.MAX_BATTLEFIELD, True),
        (("battlefield", "width"), limits.MAX_BATTLEFIELD + 1e-4, False),
        (("battlefield", "depth"), limits.MIN_BATTLEFIELD, True),
        (("battlefield", "depth"), limits.MIN_BATTLEFIELD - 1e-4, False),
        (("units", 0, "oc"), limits.MAX_COUNT, True),
        (("units", 0, "oc"), limits.MAX_COUNT + 1, False),
    ],
)
def test_each_limit_is_inclusive(path: tuple[Any, ...], value: float, valid: bool) -> None:
    document = shipped()[0]
    assert reads(replaced(document, path, value)) is valid


def test_an_integer_too_large_for_a_float_is_refused_with_its_place() -> None:
    document = replaced(shipped()[0], ("units", 0, "models", 0, "y"), -(2**63) - 1)
    with pytest.raises(ScenarioError, match=r"units\[0\]\.models\[0\]\.y: must be a number from"):
        parse_scenario(document)


def test_a_polygon_too_thin_to_measure_is_refused() -> None:
    document = shipped()[0]
    document["terrain"][0]["area"] = [[0, 0], [10, 0], [10, 1e-9]]
    with pytest.raises(ScenarioError, match=r"terrain\[0\]\.area: must enclose at least 1e-06"):
        parse_scenario(document)


_RUNNER = """
import sys, io
from engine.cli import main
for name in sys.argv[1:]:
    print(name, flush=True)
    for command in (["evaluate", name, "--json"], ["score", name, "--json"]):
        status = main(command, out=io.StringIO(), err=io.StringIO())
        if status not in (0, 2):
            print(f"EXIT {status} {command}", flush=True)
            sys.exit(3)
print("ALL DONE", flush=True)
"""


def test_files_at_the_limits_evaluate_and_score_without_crashing(tmp_path: Path) -> None:
    wanted = int(os.environ.get("WARPLAN_FUZZ_FILES", "12"))
    candidates = []
    for document in shipped()[: 1 if wanted <= 12 else 2]:
        for path in number_paths(document):
            for value in AT_THE_LIMITS:
                candidates.append((path, value, document))
    rng = random.Random(20261201)
    rng.shuffle(candidates)
    files = []
    for path, value, original in candidates:
        if len(files) == wanted:
            break
        document = replaced(original, path, value)
        if reads(document):
            target = tmp_path / f"case-{len(files)}.warplan.json"
            target.write_text(json.dumps(document), encoding="utf-8")
            files.append(str(target))
    assert len(files) == wanted
    run = subprocess.run(
        [sys.executable, "-c", _RUNNER, *files],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=1800,
        check=False,
    )
    last = run.stdout.strip().splitlines()[-2:] if run.stdout.strip() else []
    assert run.returncode == 0, (run.returncode, last, run.stderr[-2000:])
    assert run.stdout.strip().endswith("ALL DONE")
