"""Where reserves can arrive: boundaries (exactly at the distance is refused), ovals measured
exactly, the table edge, closed terrain, each rule system's edge rules, the option, and the
region's laws (mirrored table, moving an enemy away never shrinks it)."""

from __future__ import annotations

import json
import math
from dataclasses import replace

import pytest
import shapely
import shapely.affinity
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.arrival import (
    DEFAULT_RESERVES_DISTANCE,
    DRAWING_TOLERANCE,
    arrival_check,
    arrival_region,
    can_arrive,
)
from engine.errors import RulesError, ScenarioError, UnknownReferenceError
from engine.geometry import model_distance
from engine.layouts import apply_layout
from engine.model import (
    MM_PER_INCH,
    CircleBase,
    Model,
    OvalBase,
    Player,
    RectBase,
    Scenario,
    TerrainPiece,
    Unit,
)
from engine.scenario_io import loads_scenario, scenario_to_json

R25 = 25.4 / MM_PER_INCH / 2  # 0.5": the radius of a 25.4 mm base
PLAYERS = (Player("red"), Player("blue"))


def _board(ruleset: str = "wh40k-ca2026", *enemies: Model, **fields: object) -> Scenario:
    blue = Unit("blue-u", "blue", enemies or (Model("blue-1", 30.0, 22.0, CircleBase(25.4)),))
    return replace(Scenario(ruleset, PLAYERS, units=(blue,)), **fields)  # type: ignore[arg-type]


def _red(x: float, y: float, base: object = None, **fields: object) -> Model:
    return Model("red-1", x, y, base or CircleBase(25.4), **fields)  # type: ignore[arg-type]


# Boundaries ------------------------------------------------------------------------------------


def test_exactly_nine_inches_is_refused_and_a_tenth_of_a_thou_more_is_allowed() -> None:
    s = _board()
    at = 30.0 + R25 + 9.0 + R25
    refused = can_arrive(s, "red", (_red(at, 22.0),))
    assert not refused.allowed
    (breach,) = refused.breaches
    assert (breach.kind, breach.against, breach.limit) == ("enemy", "blue-1", 9.0)
    assert breach.distance == pytest.approx(9.0, abs=1e-12)
    assert can_arrive(s, "red", (_red(at + 1e-4, 22.0),)).allowed
    assert not can_arrive(s, "red", (_red(at - 1e-4, 22.0),)).allowed


@pytest.mark.parametrize("rotation", [0.0, 30.0, 90.0, 137.0])
def test_an_oval_enemy_is_measured_exactly_along_any_direction(rotation: float) -> None:
    oval = Model("blue-1", 30.0, 22.0, OvalBase(170.0, 105.0), rotation=rotation)
    s = _board("wh40k-ca2026", oval)
    # Towards the oval's minor axis: its edge is the semi-minor axis (52.5 mm) from its centre.
    angle = math.radians(rotation + 90.0)
    reach = 52.5 / MM_PER_INCH + 9.0 + R25
    x, y = 30.0 + reach * math.cos(angle), 22.0 + reach * math.sin(angle)
    assert model_distance(_red(x, y), oval) == pytest.approx(9.0, abs=1e-9)
    assert not can_arrive(s, "red", (_red(x, y),)).allowed
    step = 1e-4
    assert can_arrive(
        s, "red", (_red(x + step * math.cos(angle), y + step * math.sin(angle)),)
    ).allowed


def test_an_oval_arriving_model_is_measured_exactly_too() -> None:
    s = _board()
    oval = _red(0.0, 22.0, OvalBase(120.0, 92.0), rotation=0.0)
    at = 30.0 + R25 + 9.0 + 60.0 / MM_PER_INCH
    assert not can_arrive(s, "red", (oval.placed(at, 22.0),)).allowed
    assert can_arrive(s, "red", (oval.placed(at + 1e-4, 22.0),)).allowed


def test_a_rectangular_base_is_measured_by_its_corner() -> None:
    s = _board()
    square = RectBase(50.8, 50.8)  # 2" x 2": its corner is sqrt(2)" from its centre
    d = (9.0 + R25 + math.sqrt(2.0)) / math.sqrt(2.0)
    corner_on = _red(30.0 + d, 22.0 + d, square)
    assert model_distance(corner_on, s.model("blue-1")) == pytest.approx(9.0, abs=1e-9)
    assert not can_arrive(s, "red", (corner_on,)).allowed
    assert can_arrive(s, "red", (corner_on.moved(1e-4, 1e-4),)).allowed


def test_the_option_overrides_the_distance_and_an_argument_overrides_both() -> None:
    s = _board()
    six = replace(s, options={"reserves_distance": 6})
    at_seven = _red(30.0 + R25 + 7.0 + R25, 22.0)
    assert not can_arrive(s, "red", (at_seven,)).allowed
    assert can_arrive(six, "red", (at_seven,)).allowed
    assert not can_arrive(six, "red", (at_seven,), distance=7.0).allowed
    assert arrival_region(six, "red").distance == 6.0


def test_the_option_is_read_and_checked_by_the_file_reader_in_every_rule_system() -> None:
    for ruleset in ("wh40k-ca2026", "shared-modules", "scrollhammer"):
        data = scenario_to_json(replace(_board(ruleset), options={"reserves_distance": 12}))
        assert loads_scenario(_dumps(data)).option("reserves_distance") == 12
        data["options"] = {"reserves_distance": -1}
        with pytest.raises(ScenarioError, match="options.reserves_distance"):
            loads_scenario(_dumps(data))


def _dumps(data: object) -> str:
    return json.dumps(data)


def test_bad_distances_and_players_are_refused_with_engine_errors() -> None:
    s = _board()
    with pytest.raises(RulesError):
        arrival_region(s, "red", distance=float("nan"))
    with pytest.raises(RulesError):
        can_arrive(s, "red", (_red(5, 5),), distance=-1.0)
    with pytest.raises(UnknownReferenceError):
        arrival_region(s, "green")
    with pytest.raises(UnknownReferenceError):
        arrival_check(s, "no-such-unit")
    with pytest.raises(RulesError):
        can_arrive(s, "red", ())


# The region ------------------------------------------------------------------------------------


def test_the_denied_bubble_is_the_grown_base_within_the_drawing_tolerance() -> None:
    region = arrival_region(_board(), "red")
    exact = math.pi * (9.0 + R25) ** 2
    assert region.denied_by_enemies.area <= exact
    # Chords fall at most DRAWING_TOLERANCE inside the exact circle.
    assert region.denied_by_enemies.area >= math.pi * (9.0 + R25 - DRAWING_TOLERANCE) ** 2
    assert region.allowed.area == pytest.approx(60 * 44 - region.denied_by_enemies.area)


def test_points_of_the_region_agree_with_the_exact_verdict_away_from_the_boundary() -> None:
    oval = Model("blue-1", 20.0, 20.0, OvalBase(170.0, 105.0), rotation=30.0)
    s = _board("wh40k-ca2026", oval, Model("blue-2", 40.0, 30.0, CircleBase(32)))
    region = arrival_region(s, "red", distance=3.0)
    tiny = 0.1  # a 0.1 mm base: nearly a point
    for x in range(1, 60, 2):
        for y in range(1, 44, 2):
            model = _red(float(x), float(y), CircleBase(tiny))
            clearance = min(model_distance(model, m) for _, m in s.all_models()) - 3.0
            if abs(clearance) < 2 * DRAWING_TOLERANCE:
                continue
            inside = region.allowed.contains(shapely.Point(x, y))
            assert inside == can_arrive(s, "red", (model,), distance=3.0).allowed, (x, y)


def test_a_mirrored_table_mirrors_the_region() -> None:
    enemies = (
        Model("blue-1", 12.0, 30.0, CircleBase(40)),
        Model("blue-2", 41.0, 9.0, OvalBase(120.0, 92.0), rotation=20.0),
    )
    rock = TerrainPiece("rock", ((25.0, 15.0), (31.0, 15.0), (31.0, 19.0), (25.0, 19.0)))
    s = _board("wh40k-ca2026", *enemies, terrain=(replace(rock, impassable=True),))
    mirrored = replace(
        s,
        units=(
            Unit(
                "blue-u",
                "blue",
                tuple(replace(m, x=60.0 - m.x, rotation=180.0 - m.rotation) for m in enemies),
            ),
        ),
        terrain=(replace(rock, area=tuple((60.0 - x, y) for x, y in rock.area), impassable=True),),
    )
    region = arrival_region(s, "red").allowed
    flipped = shapely.affinity.scale(arrival_region(mirrored, "red").allowed, -1, 1, origin=(30, 0))
    assert region.symmetric_difference(flipped).area < 60 * DRAWING_TOLERANCE


@settings(max_examples=30, deadline=None)
@given(
    x=st.floats(2.0, 58.0),
    y=st.floats(2.0, 42.0),
    dx=st.floats(-20.0, 20.0),
    dy=st.floats(-20.0, 20.0),
)
def test_moving_an_enemy_away_never_shrinks_the_region(
    x: float, y: float, dx: float, dy: float
) -> None:
    near = Model("blue-1", x, y, CircleBase(32))
    other = Model("blue-2", 30.0, 22.0, OvalBase(120.0, 92.0), rotation=45.0)
    before = arrival_region(_board("wh40k-ca2026", near, other), "red").allowed
    # "Away" from every point of the table: off the battlefield beyond the nearest edge.
    far = near.placed(x + dx, -30.0 - abs(dy)) if y < 22 else near.placed(x + dx, 74.0 + abs(dy))
    after = arrival_region(_board("wh40k-ca2026", far, other), "red").allowed
    assert before.difference(after).area < 1e-6


@settings(max_examples=60, deadline=None)
@given(
    px=st.floats(1.0, 59.0),
    py=st.floats(1.0, 43.0),
    ex=st.floats(1.0, 59.0),
    ey=st.floats(1.0, 43.0),
    rotation=st.floats(0.0, 180.0),
    away=st.floats(0.0, 15.0),
)
def test_moving_an_enemy_straight_away_from_a_model_never_refuses_it(
    px: float, py: float, ex: float, ey: float, rotation: float, away: float
) -> None:
    arriving = (_red(px, py),)
    enemy = Model("blue-1", ex, ey, OvalBase(120.0, 92.0), rotation=rotation)
    length = math.hypot(ex - px, ey - py)
    if length < 1e-3:
        return
    moved = enemy.moved(away * (ex - px) / length, away * (ey - py) / length)
    before = can_arrive(_board("wh40k-ca2026", enemy), "red", arriving)
    after = can_arrive(_board("wh40k-ca2026", moved), "red", arriving)
    if before.allowed:
        assert after.allowed


def test_with_no_enemy_the_whole_table_is_open() -> None:
    s = Scenario("wh40k-ca2026", PLAYERS)
    region = arrival_region(s, "red")
    assert region.allowed.area == pytest.approx(60 * 44)
    assert region.to_json()["distance"] == DEFAULT_RESERVES_DISTANCE


def test_a_huge_distance_beyond_the_rings_limit_still_traces() -> None:
    region = arrival_region(_board(), "red", distance=500.0)
    assert region.allowed.is_empty


# Table edge and terrain ------------------------------------------------------------------------


def test_a_model_over_the_table_edge_is_refused_and_touching_it_is_allowed() -> None:
    s = _board()
    touching = _red(R25, 5.0)
    assert can_arrive(s, "red", (touching,)).allowed
    over = can_arrive(s, "red", (touching.moved(-1e-4, 0.0),))
    assert [(b.kind, b.against) for b in over.breaches] == [("table", "west")]


def test_impassable_terrain_is_closed_and_an_ordinary_area_is_not() -> None:
    area = ((40.0, 30.0), (50.0, 30.0), (50.0, 40.0), (40.0, 40.0))
    s = _board(terrain=(TerrainPiece("rock", area, impassable=True),))
    inside = _red(45.0, 35.0)
    verdict = can_arrive(s, "red", (inside,))
    assert [(b.kind, b.against) for b in verdict.breaches] == [("terrain", "rock")]
    assert can_arrive(s, "red", (inside.placed(50.0 + R25 + 1e-4, 35.0),)).allowed
    open_area = _board(terrain=(TerrainPiece("ruin", area),))
    assert can_arrive(open_area, "red", (inside,)).allowed
    region = arrival_region(s, "red")
    assert region.closed_terrain.area == pytest.approx(100.0)
    assert not region.allowed.contains(shapely.Point(45.0, 35.0))


def test_a_self_crossing_impassable_footprint_is_still_closed() -> None:
    bow_tie = ((40.0, 30.0), (50.0, 40.0), (50.0, 30.0), (40.0, 40.0))
    s = _board(terrain=(TerrainPiece("rock", bow_tie, impassable=True),))
    region = arrival_region(s, "red")
    assert region.closed_terrain.area == pytest.approx(50.0)
    assert not region.allowed.contains(shapely.Point(42.0, 35.0))


def test_scrollhammer_closes_lethal_terrain_too() -> None:
    area = ((40.0, 30.0), (50.0, 30.0), (50.0, 40.0), (40.0, 40.0))
    lethal = TerrainPiece("pit", area, kind="lethal")
    inside = _red(45.0, 35.0)
    assert can_arrive(_board(terrain=(lethal,)), "red", (inside,)).allowed
    verdict = can_arrive(_board("scrollhammer", terrain=(lethal,)), "red", (inside,))
    assert ("terrain", "pit") in [(b.kind, b.against) for b in verdict.breaches]


# Each rule system ------------------------------------------------------------------------------


def test_chapter_approved_has_no_edge_rule() -> None:
    region = arrival_region(_board(), "red")
    assert region.rule == "Strategic Reserves"
    assert region.outside_edges.is_empty
    assert len(region.restrictions) == 3


def test_scrollhammer_reserves_move_on_from_their_own_edge_within_their_move() -> None:
    # Default halves: the first listed player (red) has the south edge.
    s = _board("scrollhammer", Model("blue-1", 30.0, 40.0, CircleBase(25.4)))
    reach = 6.0 - R25  # the base's far point exactly 6" from the south edge
    unit = Unit("red-u", "red", (_red(5.0, reach),), move=6)
    assert can_arrive(s, "red", unit).allowed
    too_far = can_arrive(s, "red", replace(unit, models=(_red(5.0, reach + 1e-4),)))
    assert [(b.kind, b.against) for b in too_far.breaches] == [("edge", "south")]
    assert too_far.breaches[0].distance == pytest.approx(6.0 + 1e-4)
    positions_only = can_arrive(s, "red", (_red(5.0, 30.0),))
    assert positions_only.allowed
    assert positions_only.unjudged
    region = arrival_region(s, "red", unit=unit)
    assert region.outside_edges.area == pytest.approx(60 * (44 - 6))
    assert region.allowed.bounds[3] == pytest.approx(6.0)


def test_scrollhammer_region_without_a_move_says_so() -> None:
    region = arrival_region(_board("scrollhammer"), "red")
    assert region.outside_edges.is_empty
    assert "not drawn" in region.notes[0]
    tray = replace(_board("scrollhammer"), reserves=(Unit("red-r", "red", (_red(0, 0),), move=8),))
    assert arrival_region(tray, "red").allowed.bounds[3] == pytest.approx(8.0)


def test_shared_modules_scout_and_secure_needs_one_model_on_the_edge_and_the_rest_close() -> None:
    s = _board("shared-modules", Model("blue-1", 30.0, 40.0, CircleBase(25.4)))
    lead = Model("red-1", 10.0, R25, CircleBase(25.4))
    follower = Model("red-2", 10.0, R25 + 2 * R25 + 2.0, CircleBase(25.4))  # 2" in from it
    unit = Unit("red-u", "red", (lead, follower))
    assert can_arrive(s, "red", unit).allowed
    strayed = can_arrive(s, "red", replace(unit, models=(lead, follower.moved(0.0, 1e-4))))
    assert [(b.model_id, b.against) for b in strayed.breaches] == [("red-2", "red-1")]
    lifted = can_arrive(s, "red", replace(unit, models=(lead.moved(0, 1e-4), follower)))
    assert [b.kind for b in lifted.breaches] == ["edge"]
    region = arrival_region(s, "red", unit=unit)
    assert region.allowed.bounds[3] == pytest.approx(2.0 + 4 * R25)


def test_each_rule_system_names_its_rule() -> None:
    rulesets = ("wh40k-ca2026", "shared-modules", "scrollhammer")
    names = {r: arrival_region(_board(r), "red").rule for r in rulesets}
    assert names == {
        "wh40k-ca2026": "Strategic Reserves",
        "shared-modules": "Scout And Secure",
        "scrollhammer": "Reserves",
    }


# A unit just set up ----------------------------------------------------------------------------


def test_arrival_check_names_each_model_that_breaks_it_with_the_distance() -> None:
    blue = Unit("blue-u", "blue", (Model("blue-1", 30.0, 22.0, CircleBase(25.4)),))
    red = Unit(
        "red-u",
        "red",
        (
            Model("red-1", 30.0, 22.0 + 2 * R25 + 5.0, CircleBase(25.4)),
            Model("red-2", 30.0, 22.0 + 2 * R25 + 9.5, CircleBase(25.4)),
        ),
    )
    s = Scenario("wh40k-ca2026", PLAYERS, units=(blue, red))
    verdict = arrival_check(s, "red-u")
    assert [(b.model_id, round(b.distance or 0, 9)) for b in verdict.breaches] == [("red-1", 5.0)]
    text = verdict.explanation.text()
    assert 'red-1: 5" from blue-1 <= 9": too close' in [
        f.measured.line() for f in verdict.explanation.facts if f.measured
    ]
    assert "Strategic Reserves" in text
    (violation,) = verdict.violations("red-u")
    assert violation.rule == "Strategic Reserves"
    assert set(violation.items) >= {"red-1", "blue-1"}
    assert verdict.to_json()["breaches"][0]["model"] == "red-1"


def test_on_an_official_layout_the_region_lies_outside_the_enemy_bubbles_and_terrain() -> None:
    blank = Scenario("wh40k-ca2026", PLAYERS)
    table = apply_layout(blank, "take-and-hold-vs-purge-the-foe-a")
    blue = Unit(
        "blue-u",
        "blue",
        tuple(Model(f"blue-{i}", 10.0 + 4 * i, 38.0, CircleBase(32)) for i in range(10)),
    )
    s = replace(table, units=(blue,))
    region = arrival_region(s, "red")
    assert 0 < region.allowed.area < 60 * 44
    assert region.allowed.intersection(region.denied_by_enemies).area < 1e-9
    assert region.allowed.buffer(-1e-6).within(shapely.box(0, 0, 60, 44))
