"""The Shared Scenario Modules data quotes its seed; every option read has a check."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.format_schema import Reader
from engine.rulesets.shared_modules._data import number
from engine.rulesets.shared_modules.modules import module_ids
from engine.rulesets.shared_modules.options import OPTION_CHECKS
from engine.rulesets.shared_modules.ruleset import RULESET

ROOT = Path(__file__).resolve().parents[4]
SEED = ROOT.parent / "shared" / "seeds" / "000_c27cd715ee51f0e3.txt"
DATA = ROOT / "assets" / "shared-modules" / "modules.json"


def test_the_seven_modules_and_their_numbers() -> None:
    assert module_ids() == (
        "threat-and-command-points",
        "battle-formations",
        "scout-and-secure",
        "objective-control",
        "reinforced-defenses",
        "annihilation",
        "all-out-war",
    )
    assert number("battle-formations", "edge_depth") == 12
    assert number("objective-control", "hold_range") == 3
    assert number("objective-control", "contest_range") == 2
    assert number("reinforced-defenses", "cover") == 3


@pytest.mark.skipif(not SEED.exists(), reason="the rules seed is not beside the repository")
def test_every_module_text_is_quoted_from_the_seed() -> None:
    text = " ".join(SEED.read_text(encoding="utf-8").split())
    data = json.loads(DATA.read_text(encoding="utf-8"))
    for record in data["modules"]:
        assert record["name"] in text
        for line in record["text"]:
            assert " ".join(line.split()) in text, line


def test_option_checks_cover_every_option_key_the_modules_read() -> None:
    read = set()
    for path in (ROOT / "engine" / "rulesets" / "shared_modules").glob("*.py"):
        for part in path.read_text(encoding="utf-8").split('scenario.option("')[1:]:
            read.add(part.split('"')[0])
    assert read
    assert read <= set(RULESET.option_checks)
    assert set(OPTION_CHECKS) <= set(RULESET.option_checks)

    def refusals(key: str, value: object) -> list[str]:
        reader = Reader()
        RULESET.option_checks[key].read(reader, value, f"options.{key}")
        return [str(p) for p in reader.problems]

    assert refusals("modules", ["all-out-war"]) == []
    assert refusals("modules", ["all-in-war"]) != []
    assert refusals("deploys_first", "") != []
