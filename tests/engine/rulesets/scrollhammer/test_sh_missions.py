"""The six Standard Missions and the D6 chart, checked against the rulebook's wording."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine.errors import UnknownReferenceError
from engine.rulesets.scrollhammer.missions import (
    mission_for_roll,
    mission_ids,
    roll_mission,
    standard_mission,
    standard_missions,
)

SEED = Path(__file__).resolve().parents[5] / "shared" / "seeds" / "004_0693111af212ce66.txt"


def test_the_chart_gives_the_six_missions_in_order() -> None:
    names = [mission_for_roll(roll).name for roll in range(1, 7)]
    assert names == [
        "Season Unending",
        "Held Ground",
        "Blood at Dawn",
        "Quest for the Relic",
        "Heart of the Battle",
        "Field of Glory",
    ]
    assert [m.number for m in standard_missions()] == [1, 2, 3, 4, 5, 6]


@pytest.mark.parametrize("roll", [0, 7])
def test_the_chart_has_no_other_results(roll: int) -> None:
    with pytest.raises(UnknownReferenceError):
        mission_for_roll(roll)


def test_a_mission_is_found_by_id_name_or_number() -> None:
    assert standard_mission("held-ground") is standard_mission("Held Ground") is standard_mission(2)
    with pytest.raises(UnknownReferenceError, match="known"):
        standard_mission("Cleanse and Capture")


def test_rolling_the_chart_is_seeded_and_covers_every_mission() -> None:
    first = [roll_mission(random.Random(seed)).mission.id for seed in range(60)]
    again = [roll_mission(random.Random(seed)).mission.id for seed in range(60)]
    assert first == again
    assert set(first) == set(mission_ids())
    rolled = roll_mission(random.Random(3))
    assert rolled.mission == mission_for_roll(rolled.roll)
    assert rolled.text.startswith(f"Rolled {rolled.roll} on the D6 chart: Scenario ")


@pytest.mark.parametrize(
    ("mission_id", "halves", "rules", "first_turn"),
    [
        (
            "season-unending",
            "long-edge",
            ("Night Fighting", "Reserves", "Variable Game Length"),
            "deployed-first",
        ),
        (
            "held-ground",
            "diagonal",
            ("Night Fighting", "Reserves", "Variable Game Length"),
            "deployed-first",
        ),
        (
            "blood-at-dawn",
            "diagonal",
            ("Reserves", "Variable Game Length", "The Shimmer of Dawn"),
            "deployed-second-steals",
        ),
        (
            "quest-for-the-relic",
            "long-edge",
            ("Night Fighting", "Reserves", "Variable Game Length", "The Relic"),
            "deployed-first",
        ),
        (
            "heart-of-the-battle",
            "long-edge",
            ("Night Fighting", "Reserves", "Variable Game Length"),
            "deployed-first",
        ),
        ("field-of-glory", "long-edge", ("Reserves", "Variable Game Length"), "deployed-first"),
    ],
)
def test_each_mission_has_its_battlefield_rules_and_first_turn(
    mission_id: str, halves: str, rules: tuple[str, ...], first_turn: str
) -> None:
    mission = standard_mission(mission_id)
    assert mission.halves == halves
    assert mission.special_rules == rules
    assert mission.first_turn_rule == first_turn


def test_objectives_and_scoring_per_mission() -> None:
    assert standard_mission("held-ground").objective_count == 4
    assert standard_mission("held-ground").scoring == ("objectives-held",)
    heart = standard_mission("heart-of-the-battle")
    assert (heart.objective_count, heart.objective_placement, heart.centre_objective_vp) == (
        1,
        "centre",
        4,
    )
    assert heart.centre_clear
    assert standard_mission("quest-for-the-relic").centre_clear
    assert not standard_mission("season-unending").centre_clear
    assert standard_mission("field-of-glory").scoring == ("enemy-units", "standards", "challenges")
    assert standard_mission(4).title == "Scenario IV: Quest for the Relic"


@pytest.mark.skipif(not SEED.exists(), reason="the rules seed is not beside the repository")
def test_every_quoted_text_appears_in_the_rulebook() -> None:
    text = " ".join(SEED.read_text(encoding="utf-8").split())
    for mission in standard_missions():
        assert f"Scenario {mission.numeral}: {mission.name}" in text
        quotes = [mission.battlefield_text, mission.deployment_text, mission.first_turn_text]
        quotes += list(mission.victory_text)
        if mission.objective_text:
            quotes.append(mission.objective_text)
        for quote in quotes:
            assert " ".join(quote.split()) in text, quote
