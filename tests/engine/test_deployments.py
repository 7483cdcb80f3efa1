"""Deployment maps: the shipped geometry, its variants, territories, and binding to players."""

from __future__ import annotations

import json
import math
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import shapely
from shapely import affinity

from engine.deployments import (
    ARC_TOLERANCE,
    DEPLOYMENTS_DIR,
    deployment_ids,
    load_deployment_map,
    resolve_deployment,
    variant_problems,
)
from engine.errors import UnknownReferenceError
from engine.model import Battlefield, CustomDeployment, DeploymentRegion, Player, Scenario, freeze

IDS = (
    "crucible-of-battle",
    "dawn-of-war",
    "hammer-and-anvil",
    "search-and-destroy",
    "sweeping-engagement",
    "tipping-point",
)
CENTRE = (30.0, 22.0)
TABLE = shapely.box(0, 0, 60, 44)


def raw(map_id: str) -> dict[str, Any]:
    with open(DEPLOYMENTS_DIR / f"{map_id}.json", encoding="utf-8") as handle:
        data: dict[str, Any] = json.load(handle)
    return data


def every_variant() -> list[tuple[str, dict[str, str]]]:
    cases = []
    for map_id in IDS:
        variants = raw(map_id)["variants"]
        for dispute, entry in variants.items():
            for choice in entry["choices"]:
                cases.append((map_id, {dispute: choice}))
    return cases


VARIANTS = every_variant()
VARIANT_IDS = [f"{m}-{next(iter(v.values()))}" for m, v in VARIANTS]


def scenario(
    deployment: Any, players: tuple[Player, Player] | None = None, **options: Any
) -> Scenario:
    return Scenario(
        "wh40k-ca2026",
        players or (Player("red", role="attacker"), Player("blue", role="defender")),
        deployment=deployment,
        options=freeze(options),
    )


def test_the_six_cards_are_shipped() -> None:
    assert deployment_ids() == IDS
    for map_id in IDS:
        data = raw(map_id)
        assert data["id"] == map_id
        assert data["name"] == data["title"].upper()
        assert data["battlefield"] == {"width": 60, "depth": 44}


@pytest.mark.parametrize(("map_id", "variant"), VARIANTS, ids=VARIANT_IDS)
def test_zones_are_valid_counter_clockwise_and_point_symmetric(
    map_id: str, variant: dict[str, str]
) -> None:
    card = load_deployment_map(map_id, variant)
    a, b = card.zones["A"].geometry(), card.zones["B"].geometry()
    for side in ("A", "B"):
        ring = shapely.LinearRing(card.zone_polygon(side))
        assert ring.is_ccw
        assert shapely.Polygon(ring).is_valid
        assert TABLE.covers(card.zones[side].geometry())
    assert a.intersection(b).area == 0.0
    rotated = affinity.rotate(a, 180, origin=CENTRE)
    assert rotated.symmetric_difference(b).area < 1e-9


@pytest.mark.parametrize("map_id", IDS)
def test_areas_and_gaps_match_the_research_notes(map_id: str) -> None:
    card = load_deployment_map(map_id)
    checks = raw(map_id)["reference_checks"]
    a, b = card.zones["A"].geometry(), card.zones["B"].geometry()
    # The notes print two decimals.
    assert a.area == pytest.approx(checks["zone_area_sq_in"], abs=0.05)
    assert a.distance(b) == pytest.approx(checks["min_gap_between_zones_in"], abs=0.005)


def test_search_and_destroy_zone_area_is_the_quarter_less_a_quarter_disc() -> None:
    zone = load_deployment_map("search-and-destroy").zones["A"].geometry()
    exact = 30 * 22 - math.pi * 9**2 / 4
    # Chords lie inside the circle by at most the arc tolerance, along a 14.1" arc.
    assert abs(zone.area - exact) < ARC_TOLERANCE * 15


def test_search_and_destroy_keeps_the_circle_and_draws_it_finely() -> None:
    zone = load_deployment_map("search-and-destroy").zones["A"]
    assert zone.minus_circle == ((30, 22), 9)
    arc = [
        (x, y)
        for x, y in zone.geometry().exterior.coords
        if abs(math.hypot(x - 30, y - 22) - 9) < 1e-6
    ]
    assert len(arc) > 1000
    for (x1, y1), (x2, y2) in zip(arc, arc[1:], strict=False):
        mid = ((x1 + x2) / 2, (y1 + y2) / 2)
        assert 9 - math.hypot(mid[0] - 30, mid[1] - 22) <= ARC_TOLERANCE


def test_search_and_destroy_boundary_just_in_and_just_out() -> None:
    zone = load_deployment_map("search-and-destroy").zones["A"].geometry()
    for degrees in (1.0, 17.0, 45.0, 60.0, 89.0):
        direction = (math.cos(math.radians(degrees)), math.sin(math.radians(degrees)))
        just_out_of_disc = shapely.Point(
            30 + (9 + 1e-4) * direction[0], 22 + (9 + 1e-4) * direction[1]
        )
        just_in_disc = shapely.Point(30 + (9 - 1e-4) * direction[0], 22 + (9 - 1e-4) * direction[1])
        assert zone.contains(just_out_of_disc)
        assert not zone.intersects(just_in_disc)


@pytest.mark.parametrize(("map_id", "variant"), VARIANTS, ids=VARIANT_IDS)
def test_objective_points_lie_where_their_role_says(map_id: str, variant: dict[str, str]) -> None:
    card = load_deployment_map(map_id, variant)
    zones = {side: card.zones[side].geometry() for side in ("A", "B")}
    no_mans_land = TABLE.difference(zones["A"].union(zones["B"]))
    roles = [p.role for p in card.objective_points]
    assert sorted(roles) == ["central", "expansion", "expansion", "home", "home"]
    for point in card.objective_points:
        where = shapely.Point(point.x, point.y)
        if point.role == "central":
            assert (point.x, point.y) == CENTRE
        elif point.role == "home":
            assert point.side is not None
            assert zones[point.side].contains(where)
        else:
            assert no_mans_land.contains(where)
    homes = {p.side: (p.x, p.y) for p in card.objective_points if p.role == "home"}
    assert homes["B"] == (60 - homes["A"][0], 44 - homes["A"][1])


def test_coordinates_are_y_up_with_the_attacker_on_the_south_edge_of_dawn_of_war() -> None:
    card = load_deployment_map("dawn-of-war")
    assert card.zone_polygon("A") == ((0, 0), (60, 0), (60, 12), (0, 12))
    assert card.edges["A"] == ((0, 0), (60, 0))
    assert card.edges["B"] == ((0, 44), (60, 44))
    homes = {p.side: (p.x, p.y) for p in card.objective_points if p.role == "home"}
    assert homes == {"A": (30, 6), "B": (30, 38)}


def test_search_and_destroy_binds_no_battlefield_edge() -> None:
    card = load_deployment_map("search-and-destroy")
    assert dict(card.edges) == {}
    assert card.status["edges"] == "unverified"


@pytest.mark.parametrize(("map_id", "variant"), VARIANTS, ids=VARIANT_IDS)
def test_territories_split_the_battlefield_and_hold_their_zone(
    map_id: str, variant: dict[str, str]
) -> None:
    card = load_deployment_map(map_id, variant)
    a = shapely.Polygon(card.territory_polygon("A"))
    b = shapely.Polygon(card.territory_polygon("B"))
    assert a.area + b.area == pytest.approx(60 * 44)
    assert a.intersection(b).area == pytest.approx(0.0, abs=1e-9)
    assert a.union(b).symmetric_difference(TABLE).area == pytest.approx(0.0, abs=1e-9)
    assert a.covers(card.zones["A"].geometry())
    assert b.covers(card.zones["B"].geometry())


@pytest.mark.parametrize(("map_id", "variant"), VARIANTS, ids=VARIANT_IDS)
def test_central_points_on_a_six_are_six_inches_along_the_line(
    map_id: str, variant: dict[str, str]
) -> None:
    card = load_deployment_map(map_id, variant)
    first, second = card.central_points_on_six()
    line = shapely.LineString(card.territory_line)
    centre_along = line.project(shapely.Point(CENTRE))
    assert line.distance(shapely.Point(first)) < 1e-9
    assert line.distance(shapely.Point(second)) < 1e-9
    along = sorted(abs(line.project(shapely.Point(p)) - centre_along) for p in (first, second))
    assert along == pytest.approx([6.0, 6.0])
    data = raw(map_id)
    line_entry = data["territory_line"]
    dispute = data["variants"].get("territory_line")
    if (
        dispute is not None
        and variant.get("territory_line", dispute["default"]) != dispute["default"]
    ):
        line_entry = dispute["choices"][variant["territory_line"]]["replace"]["territory_line"]
    expected = sorted(tuple(p) for p in line_entry["central_on_six_reference"])
    # The research notes computed these independently and printed two decimals.
    assert [first, second] == [pytest.approx(p, abs=0.006) for p in expected]


def test_variants_by_name_and_by_dispute() -> None:
    assert load_deployment_map("dawn-of-war").chosen == {"zone_depth": "12in", "objectives": "10e"}
    ten = load_deployment_map("dawn-of-war", "10in")
    assert ten.zone_polygon("A") == ((0, 0), (60, 0), (60, 10), (0, 10))
    assert ten.chosen == {"zone_depth": "10in", "objectives": "10e"}
    both = load_deployment_map("dawn-of-war", {"zone_depth": "10in", "objectives": "11e-candidate"})
    homes = {p.side: (p.x, p.y) for p in both.objective_points if p.role == "home"}
    assert homes == {"A": (30, 10), "B": (30, 34)}
    stair = load_deployment_map("tipping-point", {"territory_line": "stair-step"})
    assert stair.territory_line == ((26, 44), (26, 22), (34, 22), (34, 0))
    assert load_deployment_map("tipping-point").territory_line == ((26, 44), (34, 0))


def test_crucible_home_objective_dispute() -> None:
    majority = load_deployment_map("crucible-of-battle")
    forty_kdc = load_deployment_map("crucible-of-battle", "10e-40kdc")
    home = {
        m: {p.side: (p.x, p.y) for p in c.objective_points if p.role == "home"}
        for m, c in (("majority", majority), ("40kdc", forty_kdc))
    }
    assert home["majority"] == {"A": (46, 34), "B": (14, 10)}
    assert home["40kdc"] == {"A": (46, 32), "B": (14, 12)}


def test_every_dispute_records_why_its_default_was_chosen() -> None:
    for map_id in IDS:
        for dispute in load_deployment_map(map_id).disputes.values():
            assert dispute.default in dispute.choices
            assert len(dispute.why) > 40


def test_unknown_maps_and_variants_are_refused() -> None:
    with pytest.raises(UnknownReferenceError, match="unknown deployment 'dawn'"):
        load_deployment_map("dawn")
    with pytest.raises(UnknownReferenceError, match="unknown variant '11in' of dawn-of-war"):
        load_deployment_map("dawn-of-war", "11in")
    with pytest.raises(
        UnknownReferenceError, match="zone_depth: must be one of 12in, 10in; got '9in'"
    ):
        load_deployment_map("dawn-of-war", {"zone_depth": "9in"})
    assert variant_problems("dawn-of-war", ["10in"]) == [
        "must be a variant name or an object of dispute to choice, got list"
    ]
    assert variant_problems("no-such-map", "10in") == []


def test_maps_are_cached() -> None:
    assert load_deployment_map("tipping-point") is load_deployment_map("tipping-point", {})
    assert load_deployment_map("dawn-of-war", "10in") is load_deployment_map(
        "dawn-of-war", {"zone_depth": "10in"}
    )


# ---------------------------------------------------------------------------------------------
# Resolving a scenario's deployment


def test_no_deployment_resolves_to_none() -> None:
    assert resolve_deployment(scenario(None)) is None


def test_side_a_goes_to_the_attacker() -> None:
    resolved = resolve_deployment(scenario("dawn-of-war"))
    assert resolved is not None
    assert dict(resolved.sides) == {"A": "red", "B": "blue"}
    assert [(z.id, z.player) for z in resolved.zones] == [("red-dz", "red"), ("blue-dz", "blue")]
    assert resolved.zone_geometry("red").covers(shapely.Point(30, 6))
    assert resolved.edges["red"] == ((0, 0), (60, 0))
    swapped = scenario(
        "dawn-of-war", (Player("red", role="defender"), Player("blue", role="attacker"))
    )
    resolved_swapped = resolve_deployment(swapped)
    assert resolved_swapped is not None
    assert dict(resolved_swapped.sides) == {"A": "blue", "B": "red"}


def test_without_roles_side_a_goes_to_the_first_player() -> None:
    resolved = resolve_deployment(scenario("hammer-and-anvil", (Player("x"), Player("y"))))
    assert resolved is not None
    assert dict(resolved.sides) == {"A": "x", "B": "y"}
    only_defender = resolve_deployment(
        scenario("hammer-and-anvil", (Player("x", role="defender"), Player("y")))
    )
    assert only_defender is not None
    assert dict(only_defender.sides) == {"A": "y", "B": "x"}


def test_resolved_objective_points_have_ids_and_owners() -> None:
    resolved = resolve_deployment(scenario("dawn-of-war"))
    assert resolved is not None
    found = {(o.id, o.role, o.owner, o.x, o.y) for o in resolved.objective_points}
    assert found == {
        ("obj-centre", "central", None, 30, 22),
        ("obj-home-red", "home", "red", 30, 6),
        ("obj-home-blue", "home", "blue", 30, 38),
        ("obj-expansion-w", "expansion", None, 10, 22),
        ("obj-expansion-e", "expansion", None, 50, 22),
    }
    assert resolved.central_points_on_six == ((24.0, 22.0), (36.0, 22.0))


def test_resolution_uses_the_scenarios_variant_option() -> None:
    resolved = resolve_deployment(scenario("dawn-of-war", deployment_variant="10in"))
    assert resolved is not None
    assert resolved.zone_geometry("red").bounds == (0.0, 0.0, 60.0, 10.0)


def test_no_mans_land_and_territories() -> None:
    resolved = resolve_deployment(scenario("dawn-of-war"))
    assert resolved is not None
    no_mans_land = resolved.no_mans_land(Battlefield())
    assert no_mans_land.area == pytest.approx(60 * 44 - 2 * 720)
    assert no_mans_land.contains(shapely.Point(30, 22))
    assert not no_mans_land.contains(shapely.Point(30, 6))
    assert resolved.territory_geometry("blue").area == pytest.approx(60 * 22)
    assert resolved.territory_geometry("blue").contains(shapely.Point(30, 23))
    assert resolved.territory_geometry("nobody").is_empty


def test_search_and_destroy_regions_carry_the_exact_circle() -> None:
    resolved = resolve_deployment(scenario("search-and-destroy"))
    assert resolved is not None
    zone = resolved.zones[0]
    assert zone.player == "red"
    assert zone.extra["minus_circle"] == {"x": 30, "y": 22, "radius": 9}
    assert zone.extra["side"] == "A"
    assert shapely.Polygon(zone.polygon).is_valid
    assert resolved.edges == {}


def test_maps_scale_to_other_battlefields() -> None:
    small = replace(scenario("search-and-destroy"), battlefield=Battlefield(30, 22))
    resolved = resolve_deployment(small)
    assert resolved is not None
    assert resolved.map is not None
    assert resolved.map.zones["A"].minus_circle == ((15, 11), 4.5)
    assert resolved.zone_geometry("red").area == pytest.approx(
        (30 * 22 - math.pi * 81 / 4) / 4, abs=1e-4
    )
    stretched = resolve_deployment(
        replace(scenario("dawn-of-war"), battlefield=Battlefield(44, 30))
    )
    assert stretched is not None
    assert stretched.zone_geometry("red").bounds == pytest.approx((0, 0, 44, 12 * 30 / 44))
    centre_points = stretched.central_points_on_six
    assert [list(p) for p in centre_points] == [pytest.approx([16, 15]), pytest.approx([28, 15])]


def test_custom_deployment_resolves() -> None:
    zones = (
        DeploymentRegion("red-dz", "red", ((0, 0), (60, 0), (60, 12), (0, 12))),
        DeploymentRegion("red-dz-2", "red", ((0, 40), (10, 40), (10, 44), (0, 44))),
        DeploymentRegion("blue-dz", "blue", ((0, 32), (60, 32), (60, 38), (0, 38))),
    )
    territories = (DeploymentRegion("red-t", "red", ((0, 0), (60, 0), (60, 22), (0, 22))),)
    resolved = resolve_deployment(scenario(CustomDeployment(zones, territories)))
    assert resolved is not None
    assert resolved.id is None
    assert resolved.zones == zones
    assert resolved.zone_geometry("red").area == pytest.approx(720 + 40)
    assert resolved.territory_geometry("red").area == pytest.approx(1320)
    assert resolved.no_mans_land(Battlefield()).area == pytest.approx(2640 - 720 - 40 - 360)
    assert resolved.objective_points == ()
    assert dict(resolved.edges) == {}


def test_shipped_files_are_plain_json_in_the_assets_folder() -> None:
    assert Path(DEPLOYMENTS_DIR).name == "deployments"
    for map_id in IDS:
        text = (DEPLOYMENTS_DIR / f"{map_id}.json").read_text(encoding="utf-8")
        assert text.endswith("}\n")
        assert "y-up" in json.loads(text)["note"]
