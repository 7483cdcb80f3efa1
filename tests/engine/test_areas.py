"""Table quarters, the centre, deployment zones, territories, No Man's Land, terrain areas."""

from __future__ import annotations

import pytest
from deployment_fixtures import RED_SOUTH_BLUE_NORTH

from engine.areas import QUARTER_LINE_WIDTH, regions, unit_positions
from engine.errors import UnknownReferenceError
from engine.model import (
    MM_PER_INCH,
    Base,
    CircleBase,
    Model,
    OvalBase,
    Player,
    RectBase,
    Scenario,
    TerrainPiece,
    Unit,
)

JUST = 1e-4
HALF_LINE = QUARTER_LINE_WIDTH / 2
RUIN = TerrainPiece("ruin", ((40, 30), (46, 30), (43, 36)))


def scenario(*units: Unit, deployment: object = RED_SOUTH_BLUE_NORTH) -> Scenario:
    return Scenario(
        "wh40k-ca2026",
        (Player("red"), Player("blue")),
        units=units,
        deployment=deployment,  # type: ignore[arg-type]
        terrain=(RUIN,),
    )


ROUND_32 = CircleBase(32)


def one(x: float, y: float, base: Base = ROUND_32, rotation: float = 0.0) -> Unit:
    return Unit("u", "red", (Model("m", x, y, base, rotation=rotation),))


def reach(base: Base, rotation: float, axis: str) -> float:
    if isinstance(base, CircleBase):
        return base.radius
    half = base.semi_axes if isinstance(base, OvalBase) else base.half_extents
    along_x = rotation == 0.0
    return half[0] if (axis == "x") == along_x else half[1]


BASES = [
    (CircleBase(32), 0.0),
    (OvalBase(90, 52), 0.0),
    (OvalBase(90, 52), 90.0),
    (RectBase(100, 60), 0.0),
    (RectBase(100, 60), 90.0),
]


@pytest.mark.parametrize(("base", "rotation"), BASES)
def test_touching_a_quarter_line_is_in_no_quarter(base: Base, rotation: float) -> None:
    # The line x = 30 is 1 mm thick; a base touching its west face is in no quarter.
    touching_x = 30.0 - HALF_LINE - reach(base, rotation, "x")
    position = unit_positions(scenario(one(touching_x, 10.0, base, rotation)))[0]
    assert position.quarter is None
    apart = unit_positions(scenario(one(touching_x - JUST, 10.0, base, rotation)))[0]
    assert apart.quarter == "SW"
    touching_y = 22.0 + HALF_LINE + reach(base, rotation, "y")
    assert unit_positions(scenario(one(40.0, touching_y, base, rotation)))[0].quarter is None
    assert unit_positions(scenario(one(40.0, touching_y + JUST, base, rotation)))[0].quarter == "NE"


def test_every_quarter_and_a_unit_across_two() -> None:
    names = [
        unit_positions(scenario(one(x, y)))[0].quarter
        for x, y in ((10, 10), (50, 10), (10, 34), (50, 34))
    ]
    assert names == ["SW", "SE", "NW", "NE"]
    split = Unit(
        "u", "red", (Model("a", 10, 10, CircleBase(32)), Model("b", 50, 10, CircleBase(32)))
    )
    position = unit_positions(scenario(split))[0]
    assert position.quarter is None
    assert "its models are in SE and SW" in position.explanation.text()


def test_overhanging_the_battlefield_edge_is_in_no_quarter() -> None:
    r = 16 / MM_PER_INCH
    assert unit_positions(scenario(one(r, 10)))[0].quarter == "SW"
    assert unit_positions(scenario(one(r - JUST, 10)))[0].quarter is None


@pytest.mark.parametrize(("base", "rotation"), BASES)
def test_within_six_of_the_centre(base: Base, rotation: float) -> None:
    x = 30.0 + 6.0 + reach(base, rotation, "x")
    assert unit_positions(scenario(one(x, 22.0, base, rotation)))[0].within_6_of_centre
    assert not unit_positions(scenario(one(x + JUST, 22.0, base, rotation)))[0].within_6_of_centre


@pytest.mark.parametrize(("base", "rotation"), BASES)
def test_deployment_zone_and_territory_wholly_within(base: Base, rotation: float) -> None:
    y = 12.0 - reach(base, rotation, "y")
    inside = unit_positions(scenario(one(20.0, y, base, rotation)))[0]
    assert inside.zones_wholly_within == ("red-dz",)
    assert inside.territory == "red"
    assert inside.within_no_mans_land  # its edge touches No Man's Land
    assert not unit_positions(scenario(one(20.0, y - JUST, base, rotation)))[0].within_no_mans_land
    poking = unit_positions(scenario(one(20.0, y + JUST, base, rotation)))[0]
    assert poking.zones_wholly_within == ()
    assert poking.territory == "red"
    assert poking.within_no_mans_land
    assert not poking.wholly_within_no_mans_land


def test_territory_needs_every_model() -> None:
    across = Unit(
        "u", "red", (Model("a", 10, 20, CircleBase(32)), Model("b", 10, 24, CircleBase(32)))
    )
    assert unit_positions(scenario(across))[0].territory is None
    blue_side = Unit("u", "red", (Model("a", 10, 30, CircleBase(32)),))
    assert unit_positions(scenario(blue_side))[0].territory == "blue"


def test_no_mans_land() -> None:
    middle = unit_positions(scenario(one(20.0, 22.0)))[0]
    assert middle.within_no_mans_land
    assert middle.wholly_within_no_mans_land
    # Without a deployment the whole battlefield is No Man's Land.
    assert unit_positions(scenario(one(20.0, 2.0), deployment=None))[0].wholly_within_no_mans_land


def test_unknown_deployment_map_is_an_error() -> None:
    with pytest.raises(UnknownReferenceError):
        regions(scenario(one(1, 1), deployment="no-such-map-anywhere"))


def test_a_shipped_deployment_map_resolves() -> None:
    found = regions(scenario(one(1, 1), deployment="dawn-of-war"))
    assert len(found.zones) == 2
    assert set(found.territory_players) == {"red", "blue"}


@pytest.mark.parametrize(("base", "rotation"), BASES)
def test_terrain_within_and_wholly_within(base: Base, rotation: float) -> None:
    # The ruin's south edge is y = 30 between x = 40 and 46.
    below = 30.0 - reach(base, rotation, "y")
    touching = unit_positions(scenario(one(43.0, below, base, rotation)))[0]
    assert touching.terrain_within == ("ruin",)
    assert touching.terrain_wholly_within == ()
    apart = unit_positions(scenario(one(43.0, below - JUST, base, rotation)))[0]
    assert apart.terrain_within == ()
    small = Unit("u", "red", (Model("m", 43.0, 31.0, CircleBase(25)),))
    assert unit_positions(scenario(small))[0].terrain_wholly_within == ("ruin",)


def test_positions_json_and_explanation() -> None:
    position = unit_positions(scenario(one(10.0, 6.0)))[0]
    assert position.to_json() == {
        "id": "u",
        "quarter": "SW",
        "within_6_of_centre": False,
        "zones_wholly_within": ["red-dz"],
        "territory": "red",
        "within_no_mans_land": False,
        "wholly_within_no_mans_land": False,
        "terrain_within": [],
        "terrain_wholly_within": [],
    }
    text = position.explanation.text()
    assert "every model is wholly within the SW quarter" in text
    assert "m is at least 24." in text


def test_search_and_destroy_zone_excludes_its_disc_exactly() -> None:
    s = Scenario(
        "wh40k-ca2026",
        (Player("red", role="attacker"), Player("blue")),
        deployment="search-and-destroy",
    )
    found = regions(s)
    discs = [d for d in found.zone_discs if d is not None]
    assert discs, "Search and Destroy zones exclude a disc about the centre"
    cx, cy, radius = discs[0]
    zone_index = next(k for k, d in enumerate(found.zone_discs) if d is not None)
    zone = found.zones[zone_index]
    r = 16 / MM_PER_INCH
    # Walk from the centre towards the zone's own corner until just clear of the disc.
    corner_x = 0.0 if zone.polygon[0][0] < cx or all(p[0] <= cx for p in zone.polygon) else 60.0
    corner_y = 0.0 if all(p[1] <= cy for p in zone.polygon) else 44.0
    ux, uy = corner_x - cx, corner_y - cy
    norm = (ux * ux + uy * uy) ** 0.5
    ux, uy = ux / norm, uy / norm
    for gap, expected in ((0.0, True), (-JUST, False)):
        d = radius + r + gap
        model = Model("m", cx + ux * d, cy + uy * d, CircleBase(32))
        position = unit_positions(
            Scenario(
                s.ruleset,
                s.players,
                units=(Unit("u", zone.player, (model,)),),
                deployment="search-and-destroy",
            )
        )[0]
        assert (zone.id in position.zones_wholly_within) is expected


def test_a_unit_without_models_is_nowhere() -> None:
    empty = Unit("gone", "red", ())
    position = unit_positions(scenario(empty, one(10.0, 10.0)))[0]
    assert position.quarter is None
    assert not position.within_6_of_centre
    assert position.zones_wholly_within == ()
    assert not position.wholly_within_no_mans_land
    assert position.explanation.conclusion == "gone: no models on the battlefield, so in no area"


def test_unit_explanations_cite_the_scenarios_own_ruleset() -> None:
    """The ruling dock names each ruleset's own rule, never Chapter Approved's for the others."""
    import json
    from pathlib import Path

    from engine.areas import unit_positions
    from engine.scenario_io import parse_scenario

    root = Path(__file__).resolve().parents[2]
    for path, ruleset in (
        ("assets/scrollhammer/held-ground-demo.warplan.json", "scrollhammer"),
        ("assets/shared-modules/battle-formations-demo.warplan.json", "shared-modules"),
        ("assets/scenarios/demo.warplan.json", "wh40k-ca2026"),
    ):
        scenario = parse_scenario(json.loads((root / path).read_text()))
        for position in unit_positions(scenario):
            rules = {fact.rule.ruleset for fact in position.explanation.facts if fact.rule}
            assert rules == {ruleset}, (path, position.id, rules)
