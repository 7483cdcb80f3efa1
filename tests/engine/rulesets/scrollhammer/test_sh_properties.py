"""Properties: the unit-to-objective matching is maximum; mirrored tables mirror the checks."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st
from scrollhammer_builders import model, scenario, square, unit

from engine.model import Objective
from engine.objectives import maximum_matching
from engine.rulesets.scrollhammer.battlefield import deployment_violations
from engine.rulesets.scrollhammer.control import scrollhammer_control
from engine.rulesets.scrollhammer.objective_placement import _fits, _rules, violations_if_placed

UNITS = [f"u{i}" for i in range(5)]
OBJECTIVES = [f"o{i}" for i in range(4)]


def _brute_force(options: dict[str, list[str]]) -> int:
    best = 0
    units = sorted(options)
    for picks in itertools.product(*[[None, *options[u]] for u in units]):
        chosen = [p for p in picks if p is not None]
        if len(chosen) == len(set(chosen)):
            best = max(best, len(chosen))
    return best


@settings(max_examples=150, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(UNITS), st.lists(st.sampled_from(OBJECTIVES), min_size=1, unique=True)
    )
)
def test_the_matching_is_as_large_as_brute_force(options: dict[str, list[str]]) -> None:
    # The one matching of the core: objectives (left) to the units that may take them.
    edges = [[u for u in sorted(options) if o in options[u]] for o in OBJECTIVES]
    matching = maximum_matching(edges)
    assert len(matching) == _brute_force(options)
    assert len(set(matching.values())) == len(matching)
    for k, unit_id in matching.items():
        assert OBJECTIVES[k] in options[unit_id]


coordinate = st.floats(min_value=1.0, max_value=47.0, allow_nan=False)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(coordinate, coordinate), min_size=1, max_size=4))
def test_mirroring_the_table_swaps_the_players_deployment(
    points: list[tuple[float, float]],
) -> None:
    red = scenario(
        units=[unit(f"r{i}", "red", model(f"m{i}", x, y)) for i, (x, y) in enumerate(points)]
    )
    blue = scenario(
        units=[
            unit(f"r{i}", "blue", model(f"m{i}", 72 - x, 48 - y)) for i, (x, y) in enumerate(points)
        ]
    )
    found = [v.items for v in deployment_violations(red)]
    mirrored = [v.items for v in deployment_violations(blue)]
    assert found == mirrored


@settings(max_examples=60, deadline=None)
@given(
    st.floats(min_value=0.0, max_value=6.0, allow_nan=False),
    st.floats(min_value=0.0, max_value=6.0, allow_nan=False),
)
def test_moving_the_only_scoring_model_closer_never_loses_control(far: float, step: float) -> None:
    objective = [Objective("o", 36, 24)]
    before = scenario(units=[unit("r", "red", model("r1", 36.5 + far, 24))], objectives=objective)
    after = scenario(
        units=[unit("r", "red", model("r1", 36.5 + max(far - step, 0.0), 24))], objectives=objective
    )
    if scrollhammer_control(before).controlled_by("red"):
        assert scrollhammer_control(after).controlled_by("red") == ("o",)


@settings(max_examples=200, deadline=None)
@given(
    st.floats(min_value=0.0, max_value=72.0, allow_nan=False),
    st.floats(min_value=0.0, max_value=48.0, allow_nan=False),
    st.sampled_from(["centre", "edge"]),
)
def test_the_quick_placement_test_agrees_with_the_worded_one(
    x: float, y: float, measure: str
) -> None:

    s = scenario(
        objectives=[Objective("a", 20, 20), Objective("b", 50, 30, diameter=50.8)],
        terrain=[
            square("rock", 30, 10, 36, 16, impassable=True),
            square("hall", 40, 36, 46, 42, kind="building"),
        ],
        options={"objective_measure": measure},
    )
    candidate = Objective("new", x, y, diameter=30)
    others = [(o.x, o.y, o.radius) for o in s.objectives]
    assert _fits(_rules(s), x, y, candidate.radius, others) == (
        not violations_if_placed(s, candidate)
    )
