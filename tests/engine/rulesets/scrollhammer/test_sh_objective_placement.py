"""Place Objective Markers: 6" from edges, 12" apart, not in impassable terrain; the nudge."""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import pytest
from scrollhammer_builders import scenario, square

from engine.model import Battlefield, Objective, Scenario
from engine.rulesets.scrollhammer.objective_placement import (
    FINE_STEP,
    NUDGE_MARGIN,
    legal_spot,
    objective_placement_violations,
    placement_fix,
    smallest_nudge,
    violations_if_placed,
)
from engine.scenario_io import load_scenario

EPS = 1e-4


@pytest.mark.parametrize(
    ("x", "y", "broken"),
    [
        (6.0, 24.0, True),
        (6.0 + EPS, 24.0, False),
        (66.0, 24.0, True),
        (66.0 - EPS, 24.0, False),
        (30.0, 6.0, True),
        (30.0, 42.0 - EPS, False),
    ],
)
def test_not_within_6_inches_of_an_edge(x: float, y: float, broken: bool) -> None:
    s = scenario(objectives=[Objective("o", x, y)])
    assert bool(objective_placement_violations(s)) is broken


@pytest.mark.parametrize(("gap", "broken"), [(12.0, True), (12.0 + EPS, False)])
def test_not_within_12_inches_of_another_objective(gap: float, broken: bool) -> None:
    s = scenario(
        objectives=[Objective("a", 20, 24), Objective("b", 20 + gap * 0.6, 24 + gap * 0.8)]
    )
    found = objective_placement_violations(s)
    assert bool(found) is broken
    if broken:
        assert found[0].items == ("a", "b")
        assert found[0].distance == pytest.approx(12.0)


def test_measuring_from_the_marker_rim() -> None:
    objectives = [Objective("a", 20, 24, diameter=25.4), Objective("b", 33, 24, diameter=25.4)]
    assert not objective_placement_violations(scenario(objectives=objectives))
    edge = scenario(objectives=objectives, options={"objective_measure": "edge"})
    assert objective_placement_violations(edge)[0].distance == pytest.approx(12.0)


@pytest.mark.parametrize(
    ("terrain_kwargs", "x1", "broken"),
    [
        ({"impassable": True}, 29.5, True),  # the 40 mm marker's rim overlaps
        ({"impassable": True}, 30 - 20 / 25.4 - EPS, False),
        ({"kind": "building"}, 29.5, True),
        ({"kind": "ruin"}, 29.5, False),
    ],
)
def test_not_in_or_on_impassable_terrain_or_buildings(
    terrain_kwargs: dict[str, object], x1: float, broken: bool
) -> None:
    s = scenario(
        objectives=[Objective("o", 30, 24)], terrain=[square("t", 20, 20, x1, 28, **terrain_kwargs)]
    )
    assert bool(objective_placement_violations(s)) is broken


def test_a_candidate_position_is_checked_against_the_others() -> None:
    s = scenario(objectives=[Objective("a", 20, 24)])
    assert violations_if_placed(s, Objective("new", 25, 24))[0].items == ("new", "a")
    assert violations_if_placed(s, Objective("a", 40, 24)) == ()


def test_the_nudge_at_a_chosen_spot_moves_the_blocking_objective_straight_away() -> None:
    s = scenario(
        objectives=[Objective("a", 20, 24), Objective("b", 42, 24), Objective("last", 30, 24)]
    )
    nudge = smallest_nudge(s, "last", at=(30, 24))
    assert nudge is not None
    assert set(nudge.moves) == {"a", "b"}
    (_, (ax, ay)) = nudge.moves["a"]
    assert (ax, ay) == pytest.approx((30 - 12 - NUDGE_MARGIN, 24))
    assert nudge.total == pytest.approx(2 + NUDGE_MARGIN + NUDGE_MARGIN)
    assert objective_placement_violations(nudge.apply(s)) == ()


def test_the_searched_nudge_finds_the_known_optimum_in_a_narrow_strip() -> None:
    # A 30" x 13" table leaves centres a strip x in (6, 24), y in (6, 7): every spot is within
    # 12" of "a", so "a" must move. Best: the last objective in a corner of the strip, 9" along
    # and 0.5" across from "a", which is pushed straight away to just over 12" from it.
    s = scenario(
        objectives=[Objective("a", 15, 6.5), Objective("last", 15, 6.5)], width=30, depth=13
    )
    assert objective_placement_violations(s)
    nudge = smallest_nudge(s, "last")
    assert nudge is not None
    assert nudge.total == pytest.approx(12 + NUDGE_MARGIN - math.hypot(9, 0.5), abs=0.002)
    assert objective_placement_violations(nudge.apply(s)) == ()


def test_the_searched_nudge_is_legal_when_four_objectives_crowd_the_table() -> None:
    corners = [
        Objective("a", 8, 8),
        Objective("b", 24, 8),
        Objective("c", 8, 22),
        Objective("d", 24, 22),
    ]
    s = scenario(objectives=[*corners, Objective("last", 16, 15)], width=32, depth=30)
    assert objective_placement_violations(s)
    nudge = smallest_nudge(s, "last")
    assert nudge is not None
    assert nudge.moves
    assert objective_placement_violations(nudge.apply(s)) == ()
    for (x0, y0), (x1, y1) in nudge.moves.values():
        assert math.hypot(x1 - x0, y1 - y0) > 0
    assert nudge.total == pytest.approx(sum(math.dist(a, b) for a, b in nudge.moves.values()))


def test_no_nudge_when_the_last_objective_already_fits() -> None:
    s = scenario(objectives=[Objective("a", 20, 24), Objective("last", 50, 24)])
    nudge = smallest_nudge(s, "last", at=(50, 24))
    assert nudge is not None
    assert nudge.moves == {}
    assert nudge.total == 0.0
    assert "no nudge needed" in nudge.note


def test_largest_move_metric_and_impossible_spots() -> None:
    s = scenario(
        objectives=[Objective("a", 20, 24), Objective("last", 30, 24)],
        options={"objective_nudge_metric": "largest"},
    )
    nudge = smallest_nudge(s, "last", at=(30, 24))
    assert nudge is not None
    assert nudge.metric == "largest"
    assert nudge.largest == pytest.approx(2 + NUDGE_MARGIN)
    assert smallest_nudge(s, "last", at=(3, 24)) is None


# ---------------------------------------------------------------------------------------------
# One fix per objective


ASSETS = Path(__file__).resolve().parents[4] / "assets"
HELD_GROUND = ASSETS / "scrollhammer" / "held-ground-demo.warplan.json"


def _moved(s: Scenario, objective_id: str, x: float, y: float) -> Scenario:
    return replace(
        s,
        objectives=tuple(replace(o, x=x, y=y) if o.id == objective_id else o for o in s.objectives),
    )


def test_objective_in_impassable_terrain_moves_to_the_nearest_legal_spot() -> None:
    s = _moved(load_scenario(HELD_GROUND), "obj-west", 10.0, 22.0)
    assert any("obj-west is in or on chasm" in v.message for v in objective_placement_violations(s))
    fix = placement_fix(s, "obj-west")
    assert fix is not None
    assert set(fix.positions) == {"obj-west"}
    assert fix.text.startswith("Move obj-west ")
    assert fix.text.endswith("to the nearest legal spot")
    moved = fix.apply(s).objective("obj-west")
    # The chasm spans 8-12 x 20-24; out of it by the marker's radius, the nearest exit is 2"
    # plus 20 mm away, found to the search's 0.01" step.
    shortest = 2.0 + moved.radius
    travelled = math.dist((moved.x, moved.y), (10.0, 22.0))
    assert shortest < travelled <= shortest + FINE_STEP + 1e-3
    assert objective_placement_violations(fix.apply(s)) == ()
    assert legal_spot(s, "obj-west") == fix.positions["obj-west"]


def test_an_objective_too_close_to_another_nudges_the_other() -> None:
    s = scenario(objectives=[Objective("o1", 30.0, 24.0), Objective("o2", 40.0, 24.0)])
    fix = placement_fix(s, "o2")
    assert fix is not None
    assert fix.text.startswith("Nudge o1 ")
    assert fix.text.endswith("so o2 fits here")
    assert fix.positions["o2"] == (40.0, 24.0)
    fixed = fix.apply(s)
    assert objective_placement_violations(fixed) == ()
    # Moved just over 2" (12" apart, plus the nudge margin), no more.
    o1 = fixed.objective("o1")
    assert math.dist((o1.x, o1.y), (30.0, 24.0)) == pytest.approx(2.0 + NUDGE_MARGIN, abs=0.01)


def test_no_fix_when_no_legal_spot_exists() -> None:
    # On a 12" x 12" table no point is more than 6" from every edge.
    tiny = replace(
        scenario(objectives=[Objective("o1", 6.0, 6.0)]), battlefield=Battlefield(12, 12)
    )
    assert placement_fix(tiny, "o1") is None
