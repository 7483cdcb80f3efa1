"""Names a file gives are checked against the rule systems' data when it is read, and a typo is
answered with the closest valid names."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from engine.cli import main
from engine.errors import ScenarioError
from engine.scenario_io import parse_scenario

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "assets" / "scenarios" / "spec-example.warplan.json"


def spec_document() -> dict[str, Any]:
    document: dict[str, Any] = json.loads(SPEC.read_text(encoding="utf-8"))
    return document


def problems(document: dict[str, Any]) -> list[str]:
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(document)
    return [str(p) for p in caught.value.problems]


def test_a_misspelt_twist_is_refused_by_validate(tmp_path: Path) -> None:
    document = spec_document()
    document["game"]["twist"] = "night-figthing"
    path = tmp_path / "typo.warplan.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    err = io.StringIO()
    assert main(["validate", str(path)], out=io.StringIO(), err=err) == 2
    assert err.getvalue().splitlines()[1:] == [
        'game.twist: unknown twist "night-figthing"; did you mean "night-fighting"?'
    ]


def scrollhammer(mission: object) -> dict[str, Any]:
    document = spec_document()
    document.update(ruleset="scrollhammer", options={"mission": mission})
    document.pop("game")
    document.pop("deployment")
    return document


@pytest.mark.parametrize("mission", ["held-ground", "Held Ground", 2, 6])
def test_a_scrollhammer_mission_is_a_standard_mission(mission: object) -> None:
    assert parse_scenario(scrollhammer(mission)).option("mission") == mission


def test_an_unknown_scrollhammer_mission_is_refused_with_the_closest() -> None:
    assert problems(scrollhammer("held-grund")) == [
        'options.mission: unknown Standard Mission "held-grund"; '
        'did you mean "held-ground" or "Held Ground"?'
    ]
    assert problems(scrollhammer(7))[0].startswith("options.mission: unknown Standard Mission 7")
