"""Mission set-up (objectives, the Relic, Blood at Dawn's deployment) and reserve arrival."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from scrollhammer_builders import model, scenario, unit

from engine.errors import RulesError
from engine.format_schema import Reader
from engine.model import Marker, Objective
from engine.rulesets.scrollhammer.mission_rules import (
    blood_at_dawn_violations,
    mission_setup_violations,
    reserve_arrival_violations,
)
from engine.rulesets.scrollhammer.options import OPTION_CHECKS
from engine.rulesets.scrollhammer.relic import interrupted_capture
from engine.rulesets.scrollhammer.ruleset import RULESET

EPS = 1e-4
ROOT = Path(__file__).resolve().parents[4]
SEED = ROOT.parent / "shared" / "seeds" / "004_0693111af212ce66.txt"


def test_held_ground_places_four_objectives() -> None:
    four = [Objective(f"o{i}", 10 + 14 * i, 24) for i in range(4)]
    assert (
        mission_setup_violations(scenario(objectives=four, options={"mission": "held-ground"}))
        == ()
    )
    five = [*four, Objective("o5", 36, 40)]
    found = mission_setup_violations(scenario(objectives=five, options={"mission": "held-ground"}))
    assert len(found) == 1
    assert "places 4" in found[0].message


@pytest.mark.parametrize(("x", "broken"), [(36.0, False), (36.0 + EPS, True)])
def test_heart_of_the_battle_objective_at_the_centre(x: float, broken: bool) -> None:
    s = scenario(
        objectives=[Objective("centre", x, 24)], options={"mission": "heart-of-the-battle"}
    )
    assert bool(mission_setup_violations(s)) is broken
    two = scenario(
        objectives=[Objective("a", 36, 24), Objective("b", 20, 24)], options={"mission": 5}
    )
    assert "a single objective marker" in mission_setup_violations(two)[0].message


def test_quest_for_the_relic_needs_the_relic_marker() -> None:
    assert mission_setup_violations(scenario(options={"mission": "quest-for-the-relic"}))
    with_relic = scenario(markers=[Marker("relic", "relic", 36, 24)], options={"mission": 4})
    assert mission_setup_violations(with_relic) == ()
    assert mission_setup_violations(scenario()) == ()


def _army(reserves: list[str], **game: Any):  # type: ignore[no-untyped-def]
    return scenario(
        units=[
            unit("r1", "red", model("a", 60, 5)),
            unit("r2", "red", model("b", 62, 5)),
            unit("r3", "red", model("c", 64, 5)),
            unit("r4", "red", model("d", 66, 5), extra={"always_in_reserve": True}),
            unit("hero", "blue", model("e", 10, 43), keywords=("HERO",)),
            unit("core", "blue", model("f", 12, 43), keywords=("CORE",)),
            unit("scouts", "blue", model("g", 14, 43), keywords=("CORE", "SCOUTS")),
            unit("brutes", "blue", model("h", 16, 43), keywords=("ELITE",)),
        ],
        options={"mission": "blood-at-dawn"},
        game={"scrollhammer": {"deployed_first": "red", "reserves": reserves, **game}},
    )


def test_blood_at_dawn_first_player_deploys_at_least_half() -> None:
    # r4 must always be in reserve and is not counted: 2 of the other 3 is at least half.
    assert blood_at_dawn_violations(_army(["r3", "r4", "brutes"])) == ()
    found = blood_at_dawn_violations(_army(["r2", "r3", "r4", "brutes"]))
    assert len(found) == 1
    assert "at least half" in found[0].message


def test_blood_at_dawn_second_player_deploys_a_hero_and_a_core_unit_and_scouts() -> None:
    found = blood_at_dawn_violations(_army(["r4", "brutes", "hero"]))
    assert [v.message.split(":")[0] for v in found] == ["blue deployed no Hero unit"]
    extra = blood_at_dawn_violations(_army(["r4"]))
    assert len(extra) == 1
    assert "without Infiltrate or Scout" in extra[0].message
    assert set(extra[0].items) == {"hero", "core", "brutes"}
    assert mission_setup_violations(_army(["r4", "brutes"])) == ()


@pytest.mark.parametrize(("offset", "broken"), [(0.0, False), (EPS, True)])
def test_reserves_move_onto_the_table_from_their_own_edge(offset: float, broken: bool) -> None:
    # Move 6: the far side of a 1" base may be at most 6" from the south edge.
    s = scenario(units=[unit("r", "red", model("m", 30, 5.5 + offset))])
    s = s.with_unit(replace(s.unit("r"), move=6.0))
    assert bool(reserve_arrival_violations(s, "r")) is broken
    assert reserve_arrival_violations(s, "r", move=7) == ()
    off = scenario(units=[unit("r", "red", model("m", 30, 0.4))])
    assert "over the south edge" in reserve_arrival_violations(off, "r", move=6)[0].message
    with pytest.raises(RulesError):
        reserve_arrival_violations(off, "r")


def test_an_interrupted_capture_puts_the_relic_against_the_edge() -> None:
    s = scenario(
        units=[unit("r", "red", model("m", 30, 0.8))], options={"mission": "quest-for-the-relic"}
    )
    result = interrupted_capture(s, "m")
    radius = 25 / 25.4 / 2
    assert result.relic_position == pytest.approx((30.0, radius))
    assert "Ongoing Reserves" in result.reason
    corner = interrupted_capture(scenario(units=[unit("r", "red", model("m", 0.2, 0.8))]), "m")
    assert corner.relic_position == pytest.approx((radius, radius))


def test_option_checks_cover_every_option_key_the_modules_read() -> None:
    package = ROOT / "engine" / "rulesets" / "scrollhammer"
    read = set()
    for path in package.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        for part in text.split('scenario.option("')[1:]:
            read.add(part.split('"')[0])
    assert read <= set(RULESET.option_checks)
    assert set(OPTION_CHECKS) <= set(RULESET.option_checks)

    def refusals(key: str, value: object) -> list[str]:
        reader = Reader()
        RULESET.option_checks[key].read(reader, value, f"options.{key}")
        return [str(p) for p in reader.problems]

    assert refusals("mission", 4) == []
    assert refusals("mission", 7) != []
    assert refusals("table_edges", {"red": "up"}) != []
    assert refusals("relic_diameter", 0) != []


@pytest.mark.skipif(not SEED.exists(), reason="the rules seed is not beside the repository")
def test_rules_data_quotes_the_rulebook() -> None:
    text = " ".join(SEED.read_text(encoding="utf-8").split())
    data = json.loads((ROOT / "assets" / "scrollhammer" / "standard-rules.json").read_text())
    quotes = []
    for section in data.values():
        if isinstance(section, dict):
            for key, value in section.items():
                if key.endswith("text"):
                    quotes.extend(value if isinstance(value, list) else [value])
            for band in section.get("bands", []):
                quotes.append(band["text"])
    assert len(quotes) > 15
    for quote in quotes:
        assert " ".join(quote.split()) in text, quote
    relic = json.loads((ROOT / "assets" / "scrollhammer" / "relic-table.json").read_text())
    for line in relic["results"]:
        assert " ".join(line["text"].split()) in text, line["name"]
