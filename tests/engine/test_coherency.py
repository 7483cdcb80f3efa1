"""Unit coherency: the 2" horizontal and 5" vertical reach at its boundaries, one unit-mate
for units of up to six models and two from seven, ovals measured exactly, the evaluation
(fresh and incremental) and every rule system's report."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.coherency import (
    COHERENCY_HORIZONTAL,
    SECTION,
    coherency,
    coherency_in_force,
    unit_coherency,
)
from engine.errors import RulesError, ScenarioError
from engine.evaluate import IncrementalEvaluator, evaluate
from engine.model import MM_PER_INCH, CircleBase, Model, OvalBase, Player, RectBase, Scenario, Unit
from engine.rulesets import ruleset_for
from engine.scenario_io import parse_scenario, scenario_to_json

RADIUS_32 = 32 / MM_PER_INCH / 2
PITCH = COHERENCY_HORIZONTAL + 2 * RADIUS_32
"""Centre spacing of two 32 mm bases exactly 2" apart."""


def _line(count: int, pitch: float = PITCH, z: float = 0.0) -> Unit:
    models = tuple(Model(f"m{i}", 5.0 + pitch * i, 10.0, CircleBase(32), z=z) for i in range(count))
    return Unit("squad", "red", models)


def _scenario(*units: Unit, ruleset: str = "wh40k-ca2026", on: bool = True) -> Scenario:
    options = {"coherency": True} if on else {}
    return Scenario(ruleset, (Player("red"), Player("blue")), units=units, options=options)


def test_exactly_two_inches_apart_is_in_coherency() -> None:
    result = unit_coherency(_line(2))
    assert result.in_coherency
    assert result.neighbours["m0"][0].distance == pytest.approx(2.0, abs=1e-9)


def test_a_tenth_of_a_thou_beyond_two_inches_is_out() -> None:
    result = unit_coherency(_line(2, PITCH + 1e-4))
    assert result.out_of_coherency == ("m0", "m1")
    assert result.neighbours["m0"][0].distance == pytest.approx(2.0001, abs=1e-9)


def test_five_inches_vertically_is_in_and_beyond_is_out() -> None:
    low = Model("low", 5.0, 5.0, CircleBase(32))
    for z, expected in ((5.0, True), (5.0 + 1e-4, False)):
        high = Model("high", 5.0, 5.0 + PITCH, CircleBase(32), z=z)
        assert unit_coherency(Unit("u", "red", (low, high))).in_coherency is expected


def test_a_chain_of_six_is_in_coherency_but_a_chain_of_seven_loses_its_ends() -> None:
    assert unit_coherency(_line(6)).in_coherency
    seven = unit_coherency(_line(7))
    assert seven.needed == 2
    assert seven.out_of_coherency == ("m0", "m6")


def test_seven_in_a_cluster_each_with_two_mates_is_in_coherency() -> None:
    # Two rows, offset: every model touches at least two others.
    models = tuple(
        Model(
            f"m{i}", 5.0 + PITCH * (i // 2) + (PITCH / 2) * (i % 2), 10.0 + (i % 2), CircleBase(32)
        )
        for i in range(7)
    )
    assert unit_coherency(Unit("mob", "red", models)).in_coherency


def test_a_single_model_is_always_in_coherency() -> None:
    assert unit_coherency(_line(1)).in_coherency


def test_ovals_are_measured_exactly_along_either_axis() -> None:
    # 50.8 x 25.4 mm: semi-axes 1" along the facing (x), 0.5" across (y).
    oval = OvalBase(50.8, 25.4)
    for dx, dy in ((0.0, 3.0), (4.0, 0.0)):
        for extra, expected in ((0.0, True), (1e-4, False)):
            a = Model("a", 10.0, 10.0, oval)
            b = Model(
                "b", 10.0 + dx + (extra if dx else 0.0), 10.0 + dy + (extra if dy else 0.0), oval
            )
            result = unit_coherency(Unit("u", "red", (a, b)))
            assert result.in_coherency is expected, (dx, dy, extra)
            assert result.neighbours["a"][0].distance == pytest.approx(2.0 + extra, abs=1e-7)


def test_the_explanation_lists_each_stray_models_nearest_mates() -> None:
    stray = Model("stray", 30.0, 10.0, CircleBase(32))
    unit = Unit("squad", "red", (*_line(3).models, stray))
    text = unit_coherency(unit, "wh40k-ca2026").explain().text()
    assert text.splitlines()[0].startswith('squad: out of coherency (stray not within 2"')
    nearest = 30.0 - (5.0 + 2 * PITCH) - 2 * RADIUS_32
    assert f'stray is {nearest:.4f}" from m2'.rstrip("0") in text
    assert "[wh40k-ca2026: Unit Coherency]" in text


def test_the_option_is_off_by_default_and_checked() -> None:
    broken = _line(2, PITCH + 1.0)
    assert not coherency_in_force(_scenario(broken, on=False))
    assert coherency(_scenario(broken, on=False)) == {}
    bad = Scenario("wh40k-ca2026", (Player("red"), Player("blue")), options={"coherency": 1})
    with pytest.raises(RulesError):
        coherency_in_force(bad)


def test_the_file_reader_checks_the_option() -> None:
    data = scenario_to_json(_scenario(_line(2)))
    assert parse_scenario(data).options["coherency"] is True
    data["options"] = {"coherency": "yes"}
    with pytest.raises(ScenarioError, match="options.coherency: must be true or false"):
        parse_scenario(data)


@pytest.mark.parametrize("ruleset", ["wh40k-ca2026", "shared-modules", "scrollhammer"])
def test_every_rule_system_reports_units_out_of_coherency(ruleset: str) -> None:
    broken = _line(2, PITCH + 1e-4)
    report = ruleset_for(ruleset).report(_scenario(broken, ruleset=ruleset))
    flagged = [v for v in report.violations if v.rule == SECTION]
    assert [v.items for v in flagged] == [("squad", "m0", "m1")]
    assert flagged[0].distance == pytest.approx(2.0001, abs=1e-9)
    evaluated = evaluate(_scenario(broken, ruleset=ruleset), visibility=False)
    assert [v.rule for v in evaluated.ruleset_report.violations].count(SECTION) == 1
    # In coherency, or with the option off: nothing new.
    for quiet in (
        _scenario(_line(2), ruleset=ruleset),
        _scenario(broken, ruleset=ruleset, on=False),
    ):
        assert SECTION not in [v.rule for v in ruleset_for(ruleset).report(quiet).violations]


def test_the_evaluation_json_gains_a_coherency_key_only_with_the_option() -> None:
    broken = _line(2, PITCH + 1e-4)
    data = evaluate(_scenario(broken), visibility=False).to_json()
    assert data["coherency"] == [{"unit": "squad", "in_coherency": False, "out": ["m0", "m1"]}]
    assert "coherency" not in evaluate(_scenario(broken, on=False), visibility=False).to_json()


def test_incremental_updates_measure_only_moved_units_and_match_a_fresh_evaluation() -> None:
    other = Unit(
        "other",
        "red",
        tuple(Model(f"o{i}", 30.0 + 2.5 * i, 30.0, CircleBase(40)) for i in range(3)),
    )
    before = _scenario(_line(3), other)
    evaluator = IncrementalEvaluator(before)
    kept = evaluator.evaluation.coherency["other"]
    moved_model = before.model("m2").moved(1.0, 0.0)
    after = before.with_models([moved_model])
    updated = evaluator.update(after, ("squad",))
    assert updated.coherency["other"] is kept
    assert updated.coherency == evaluate(after, visibility=False).coherency
    assert updated.coherency["squad"].out_of_coherency == ("m2",)


_BASES = st.one_of(
    st.builds(CircleBase, st.floats(25.0, 130.0)),
    st.builds(OvalBase, st.floats(25.0, 170.0), st.floats(25.0, 105.0)),
    st.builds(RectBase, st.floats(25.0, 170.0), st.floats(25.0, 105.0)),
)


@settings(max_examples=150, deadline=None)
@given(
    base_a=_BASES,
    base_b=_BASES,
    ax=st.floats(0.0, 44.0),
    ay=st.floats(0.0, 60.0),
    angle=st.floats(0.0, 2 * math.pi),
    gap=st.floats(0.0, 2.0),
    rotation_a=st.floats(0.0, 360.0),
    rotation_b=st.floats(0.0, 360.0),
    fraction=st.floats(0.0, 1.0),
)
def test_moving_a_model_towards_its_unit_mate_never_breaks_coherency(
    base_a: CircleBase | OvalBase | RectBase,
    base_b: CircleBase | OvalBase | RectBase,
    ax: float,
    ay: float,
    angle: float,
    gap: float,
    rotation_a: float,
    rotation_b: float,
    fraction: float,
) -> None:
    # Bases are convex, so the gap shrinks as one centre slides towards the other.
    a = Model("a", ax, ay, base_a, rotation=rotation_a)
    b = Model("b", ax, ay, base_b, rotation=rotation_b)
    reach = base_a.bounding_radius + base_b.bounding_radius + gap
    b = b.placed(ax + reach * math.cos(angle), ay + reach * math.sin(angle))
    start = unit_coherency(Unit("u", "red", (a, b)))
    if not start.in_coherency:
        return
    closer = a.placed(a.x + fraction * (b.x - a.x), a.y + fraction * (b.y - a.y))
    moved = unit_coherency(Unit("u", "red", (closer, b)))
    assert moved.in_coherency
    assert moved.neighbours["a"][0].distance <= start.neighbours["a"][0].distance + 1e-9
