"""Movement and threat on open ground (no terrain on the table: the shortest legal move is the
straight one): exact probabilities against enumeration of the dice, boundaries at every
threshold, the distance that matters, the CLI and the ruling section. Around terrain:
tests/engine/test_movement.py."""

from __future__ import annotations

import io
import itertools
import json
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.cli import EXIT_BAD_INPUT, EXIT_OK, main
from engine.errors import RulesError
from engine.geometry import within
from engine.model import CircleBase, Model, OvalBase, Player, RectBase, Scenario, Unit
from engine.scenario_io import save_scenario
from engine.threat import (
    MEASURE_AROUND_TERRAIN,
    MEASURE_OPEN_GROUND,
    NO_MOVE_REASON,
    reach_probabilities,
    threat_section,
    unit_threats,
)

JUST = 1e-4
ONE_INCH_BASE = CircleBase(25.4)
"""A 1"-diameter base: its edge is 0.5" from its centre."""

FACES = range(1, 7)


def enumerated(distance: float, move: float) -> tuple[Fraction, Fraction, Fraction]:
    """The probabilities by listing every outcome: the move alone, each of the 6 advance rolls,
    each of the 36 charge rolls, each judged by the engine's inclusive ``within``."""
    normal = Fraction(1 if within(distance, move) else 0)
    advance = Fraction(sum(within(distance, move + roll) for roll in FACES), 6)
    charge = Fraction(
        sum(within(distance, move + a + b) for a, b in itertools.product(FACES, FACES)), 36
    )
    return normal, advance, charge


def two_units(
    gap: float,
    move: float | None = 6.0,
    ruleset: str = "wh40k-ca2026",
    options: dict[str, float] | None = None,
) -> Scenario:
    """Red (1" base at x = 10) and blue (1" base) with ``gap`` inches between base edges."""
    red = Unit("red-u", "red", (Model("red-m", 10.0, 10.0, ONE_INCH_BASE),), move=move)
    blue = Unit("blue-u", "blue", (Model("blue-m", 11.0 + gap, 10.0, ONE_INCH_BASE),))
    return Scenario(
        ruleset,
        (Player("red"), Player("blue")),
        units=(red, blue),
        options=options or {},
    )


def only_target(scenario: Scenario) -> tuple[float, str, str, str]:
    [target] = unit_threats(scenario, "red-u").targets
    return target.distance, str(target.normal), str(target.advance), str(target.charge)


# --- the dice ----------------------------------------------------------------------------


@pytest.mark.parametrize("move", [0.0, 3.0, 5.5, 6.0, 7.25, 12.0])
def test_probabilities_match_enumeration_of_the_dice(move: float) -> None:
    distances = [step / 8 for step in range(0, 8 * 32)]
    thresholds = [move + total for total in range(0, 13)]
    distances += thresholds + [t + JUST for t in thresholds] + [t - JUST for t in thresholds]
    for distance in distances:
        assert reach_probabilities(distance, move) == enumerated(distance, move), distance


@given(
    distance=st.floats(min_value=0, max_value=40, allow_nan=False),
    move=st.floats(min_value=0, max_value=20, allow_nan=False),
)
def test_probabilities_match_enumeration_anywhere(distance: float, move: float) -> None:
    assert reach_probabilities(distance, move) == enumerated(distance, move)


def test_the_charge_distribution_is_the_2d6_table() -> None:
    """Distance M + n needs n or more on 2D6: 36, 35, 33, 30, 26, 21, 15, 10, 6, 3, 1 of 36."""
    ways = [sum(1 for a in FACES for b in FACES if a + b >= n) for n in range(2, 13)]
    assert ways == [36, 35, 33, 30, 26, 21, 15, 10, 6, 3, 1]
    for n, count in zip(range(2, 13), ways, strict=True):
        assert reach_probabilities(6.0 + n, 6.0)[2] == Fraction(count, 36)
    assert reach_probabilities(6.0 + 13, 6.0) == (0, 0, 0)


# --- boundaries through real bases --------------------------------------------------------


def test_normal_move_boundary() -> None:
    """M 6 and 2" engagement: 8" between base edges is 6" to cover: reached; 1e-4" more: not."""
    assert only_target(two_units(8.0)) == (6.0, "1", "1", "1")
    distance, normal, advance, charge = only_target(two_units(8.0 + JUST))
    assert distance == pytest.approx(6.0 + JUST)
    assert (normal, advance, charge) == ("0", "1", "1")


@pytest.mark.parametrize("roll", range(1, 7))
def test_advance_boundary_at_each_roll(roll: int) -> None:
    """Exactly M + roll away: the rolls from ``roll`` up reach; 1e-4" further: one fewer."""
    gap = 2.0 + 6.0 + roll
    assert only_target(two_units(gap))[2] == str(Fraction(7 - roll, 6))
    assert only_target(two_units(gap + JUST))[2] == str(Fraction(6 - roll, 6))


@pytest.mark.parametrize("total", range(2, 13))
def test_charge_boundary_at_each_total(total: int) -> None:
    gap = 2.0 + 6.0 + total
    at = sum(1 for a in FACES for b in FACES if a + b >= total)
    past = sum(1 for a in FACES for b in FACES if a + b >= total + 1)
    assert only_target(two_units(gap))[3] == str(Fraction(at, 36))
    assert only_target(two_units(gap + JUST))[3] == str(Fraction(past, 36))


def test_a_target_out_of_every_reach() -> None:
    """M 6 + 12 on 2D6 = 18" at most: exactly 18" reaches with 1/36, 1e-4" more never."""
    assert only_target(two_units(2.0 + 18.0)) == (18.0, "0", "0", "1/36")
    assert only_target(two_units(2.0 + 18.0 + JUST))[1:] == ("0", "0", "0")


def test_a_target_within_engagement_range_is_at_distance_zero() -> None:
    """Bases 1" apart are within 2": the distance is 0 (never negative), reached by all."""
    assert only_target(two_units(1.0)) == (0.0, "1", "1", "1")
    assert only_target(two_units(0.0, move=0.0)) == (0.0, "1", "1", "1")


def test_the_engagement_range_is_the_rulesets() -> None:
    """Scrollhammer engages in base contact (1 mm); options override the range."""
    distance = only_target(two_units(10.0, ruleset="scrollhammer"))[0]
    assert distance == pytest.approx(10.0 - 1 / 25.4)
    assert only_target(two_units(10.0, ruleset="shared-modules"))[0] == pytest.approx(8.0)
    overridden = two_units(10.0, options={"engagement_range": 3.0})
    assert only_target(overridden)[0] == pytest.approx(7.0)


def test_the_closest_models_of_the_two_units_count() -> None:
    """Base edge to base edge, the nearest pair of any models: an oval's long axis, a rectangle's
    side, measured exactly."""
    red = Unit(
        "red-u",
        "red",
        (
            Model("red-far", 0.0, 10.0, ONE_INCH_BASE),
            Model("red-oval", 10.0, 10.0, OvalBase(50.8, 25.4)),
        ),
        move=6.0,
    )
    blue = Unit(
        "blue-u",
        "blue",
        (
            Model("blue-far", 40.0, 10.0, ONE_INCH_BASE),
            Model("blue-tank", 21.0 + 2.0, 10.0, RectBase(50.8, 25.4)),
        ),
    )
    scenario = Scenario("wh40k-ca2026", (Player("red"), Player("blue")), units=(red, blue))
    [target] = unit_threats(scenario, "red-u").targets
    # oval's tip at x = 11, the tank's near side at x = 22: 11" apart, less 2".
    assert target.distance == pytest.approx(9.0, abs=1e-9)
    assert (target.normal, target.advance) == (0, Fraction(4, 6))


def test_every_enemy_unit_nearest_first_and_no_friends() -> None:
    red = Unit("red-u", "red", (Model("red-m", 10.0, 10.0, ONE_INCH_BASE),), move=6.0)
    friend = Unit("red-friend", "red", (Model("red-f", 12.0, 10.0, ONE_INCH_BASE),))
    far = Unit("blue-far", "blue", (Model("b1", 40.0, 10.0, ONE_INCH_BASE),))
    near = Unit("blue-near", "blue", (Model("b2", 20.0, 10.0, ONE_INCH_BASE),))
    scenario = Scenario(
        "wh40k-ca2026", (Player("red"), Player("blue")), units=(red, friend, far, near)
    )
    report = unit_threats(scenario, "red-u")
    assert [t.target for t in report.targets] == ["blue-near", "blue-far"]
    assert report.measure == MEASURE_AROUND_TERRAIN
    nothing_blocks = replace(scenario, options={"movement_blocking": "none"})
    assert unit_threats(nothing_blocks, "red-u").measure == MEASURE_OPEN_GROUND


@given(
    gap=st.floats(min_value=0, max_value=30, allow_nan=False),
    closer_by=st.floats(min_value=0, max_value=30, allow_nan=False),
    move=st.floats(min_value=0, max_value=14, allow_nan=False),
)
def test_moving_the_target_closer_never_lowers_a_probability(
    gap: float, closer_by: float, move: float
) -> None:
    before = unit_threats(two_units(gap, move=move), "red-u").targets[0]
    after = unit_threats(two_units(max(gap - closer_by, 0.0), move=move), "red-u").targets[0]
    assert after.distance <= before.distance + 1e-9
    for name in ("normal", "advance", "charge"):
        assert getattr(after, name) >= getattr(before, name), name


# --- a unit without M, a unit not there ---------------------------------------------------


def test_a_unit_without_move_gets_no_probabilities_and_a_reason() -> None:
    report = unit_threats(two_units(5.0, move=None), "red-u")
    [target] = report.targets
    assert (target.normal, target.advance, target.charge) == (None, None, None)
    assert target.distance == pytest.approx(3.0)
    assert report.reason == NO_MOVE_REASON
    assert report.to_json()["targets"] == [
        {"id": "blue-u", "distance": 3.0, "normal": None, "advance": None, "charge": None}
    ]
    section = threat_section(two_units(5.0, move=None), "red-u")
    assert section.verdict == f"Threat unknown: {NO_MOVE_REASON}"


def test_a_unit_not_on_the_battlefield_is_a_rules_error() -> None:
    with pytest.raises(RulesError, match="no-such-unit"):
        unit_threats(two_units(5.0), "no-such-unit")


# --- the ruling section ------------------------------------------------------------------


def test_threat_section_counts_the_reachable_units_and_cites_the_rules() -> None:
    red = Unit("red-u", "red", (Model("red-m", 10.0, 10.0, ONE_INCH_BASE),), move=6.0)
    blues = tuple(
        Unit(f"blue-{gap}", "blue", (Model(f"b-{gap}", 11.0 + gap, 10.0, ONE_INCH_BASE),))
        for gap in (0.0, 8.0, 20.0, 20.0 + JUST)
    )
    scenario = Scenario("wh40k-ca2026", (Player("red"), Player("blue")), units=(red, *blues))
    section = threat_section(scenario, "red-u")
    assert section.verdict == "Can reach 3 enemy units this turn (moving around terrain)"
    assert [line.text for line in section.lines] == [
        'blue-0.0: 0" away: normal 1, advance 1, charge 1',
        'blue-8.0: 6" away: normal 1, advance 1, charge 1',
        'blue-20.0: 18" away: normal 0, advance 0, charge 1/36',
        'blue-20.0001: 18.0001" away: normal 0, advance 0, charge 0',
    ]
    assert section.ids == ("blue-0.0", "blue-8.0", "blue-20.0", "blue-20.0001")
    assert section.rule is not None
    assert section.rule.ruleset == "wh40k-ca2026"
    assert "Advance Move 09.06 (M + D6)" in section.rule.section


# --- the command line --------------------------------------------------------------------


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = main(list(argv), out=out, err=err)
    return status, out.getvalue(), err.getvalue()


def test_cli_json_shape(tmp_path: Path) -> None:
    path = tmp_path / "threat.warplan.json"
    save_scenario(two_units(2.0 + 6.0 + 3.0), path)
    status, out, err = run("threat", str(path), "--unit", "red-u", "--json")
    assert status == EXIT_OK, err
    assert json.loads(out) == {
        "unit": "red-u",
        "measure": "around-terrain",
        "targets": [
            {"id": "blue-u", "distance": 9.0, "normal": "0", "advance": "2/3", "charge": "35/36"}
        ],
    }


def test_cli_table_and_errors(tmp_path: Path) -> None:
    path = tmp_path / "threat.warplan.json"
    save_scenario(two_units(2.0 + 6.0 + 7.0), path)
    status, out, err = run("threat", str(path), "--unit", "red-u")
    assert status == EXIT_OK, err
    assert "around-terrain" in out
    [row] = [line.split() for line in out.splitlines() if line.strip().startswith("blue-u")]
    assert row == ["blue-u", '13"', "0", "0", "7/12"]
    status, _, err = run("threat", str(path), "--unit", "nobody")
    assert status == EXIT_BAD_INPUT
    assert "nobody" in err


def test_cli_for_a_unit_without_move(tmp_path: Path) -> None:
    path = tmp_path / "threat.warplan.json"
    save_scenario(two_units(5.0, move=None), path)
    status, out, err = run("threat", str(path), "--unit", "red-u", "--json")
    assert status == EXIT_OK, err
    document = json.loads(out)
    assert document["reason"] == NO_MOVE_REASON
    assert document["targets"][0]["charge"] is None
    status, out, err = run("threat", str(path), "--unit", "red-u")
    assert status == EXIT_OK, err
    assert f"no probabilities: {NO_MOVE_REASON}" in out
    [row] = [line.split() for line in out.splitlines() if line.strip().startswith("blue-u")]
    assert row == ["blue-u", '3"', "-", "-", "-"]
