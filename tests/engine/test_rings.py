"""Range rings: saved in the file and read back, bounded, and traced from the base edges
(a 32 mm base's ring of radius r covers pi * (r + 0.63)^2; ovals and rectangles keep their
shape; rings of models far apart are separate pieces, of models close together one)."""

from __future__ import annotations

import math

import pytest
from shapely.geometry import Point as ShapelyPoint
from shapely.geometry import Polygon as ShapelyPolygon

from engine.errors import GeometryError, ScenarioError
from engine.geometry import model_point_distance
from engine.limits import MAX_RING_RADIUS, MAX_RINGS
from engine.model import MM_PER_INCH, CircleBase, Model, OvalBase, Player, RectBase, Scenario, Unit
from engine.rings import CHORD_ERROR, grown_base, ring_outline, ring_outlines
from engine.scenario_io import dumps_scenario, loads_scenario, parse_scenario, scenario_to_json


def _scenario(rings: tuple[float, ...]) -> Scenario:
    unit = Unit("squad", "red", (Model("m", 10.0, 10.0, CircleBase(32)),), rings=rings)
    return Scenario("wh40k-ca2026", (Player("red"), Player("blue")), units=(unit,))


def test_rings_round_trip_through_the_file() -> None:
    scenario = _scenario((6, 9.5, 12))
    text = dumps_scenario(scenario)
    assert '"rings": [6, 9.5, 12]' in text
    assert loads_scenario(text) == scenario
    assert loads_scenario(text).units[0].rings == (6, 9.5, 12)


def test_a_unit_without_rings_saves_as_before() -> None:
    assert "rings" not in dumps_scenario(_scenario(()))


@pytest.mark.parametrize(
    ("rings", "message"),
    [
        ([0], "units[0].rings[0]: must be a positive number, got 0"),
        ([-6], "units[0].rings[0]: must be a positive number"),
        ([MAX_RING_RADIUS + 1e-4], "units[0].rings[0]: must be a number from 0.0 to 120.0"),
        (["6"], "units[0].rings[0]: must be a positive number"),
        ("6, 9", "units[0].rings: must be an array"),
        (list(range(1, MAX_RINGS + 2)), f"units[0].rings: must hold at most {MAX_RINGS} items"),
    ],
)
def test_bad_rings_are_refused_with_their_path(rings: object, message: str) -> None:
    data = scenario_to_json(_scenario((6,)))
    data["units"][0]["rings"] = rings
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(data)
    assert message in str(caught.value)


def test_the_largest_ring_and_the_most_rings_are_accepted() -> None:
    data = scenario_to_json(_scenario((6,)))
    data["units"][0]["rings"] = [MAX_RING_RADIUS] * MAX_RINGS
    assert parse_scenario(data).units[0].rings == (MAX_RING_RADIUS,) * MAX_RINGS


@pytest.mark.parametrize("radius", [1.0, 6.0, 9.0, 12.0, 18.0, 24.0])
def test_a_ring_around_a_32mm_base_has_the_area_of_the_grown_disc(radius: float) -> None:
    (ring,) = ring_outlines(
        Unit("u", "red", (Model("m", 10.0, 10.0, CircleBase(32)),), rings=(radius,))
    )
    assert ring.area == pytest.approx(math.pi * (radius + 0.63) ** 2, rel=0.01)
    # The vertices lie on the circle: the polygon falls short by under 2 * CHORD_ERROR / reach.
    reach = radius + 16 / MM_PER_INCH
    assert ring.area <= math.pi * reach**2
    assert ring.area == pytest.approx(math.pi * reach**2, rel=2 * CHORD_ERROR / reach)


@pytest.mark.parametrize(
    "model",
    [
        Model("oval", 20.0, 20.0, OvalBase(120, 92), rotation=30.0),
        Model("rect", 20.0, 20.0, RectBase(100, 50), rotation=-15.0),
    ],
)
def test_every_vertex_of_a_grown_base_is_exactly_the_radius_from_its_edge(model: Model) -> None:
    outline = grown_base(model, 6.0)
    for x, y in outline:
        assert model_point_distance(model, x, y) == pytest.approx(6.0, abs=1e-6)
    # Between vertices the outline stays within the chord error of the curve.
    polygon = ShapelyPolygon(outline)
    for k in range(len(outline)):
        (x0, y0), (x1, y1) = outline[k], outline[(k + 1) % len(outline)]
        midpoint = ((x0 + x1) / 2, (y0 + y1) / 2)
        assert 6.0 - CHORD_ERROR - 1e-9 <= model_point_distance(model, *midpoint) <= 6.0 + 1e-9
    assert polygon.is_valid


def test_a_point_exactly_at_the_radius_is_inside_the_ring_and_beyond_it_is_out() -> None:
    model = Model("m", 10.0, 10.0, CircleBase(32))
    ring = ring_outline(Unit("u", "red", (model,)), 6.0)
    polygon = ShapelyPolygon(ring.polygons[0].exterior)
    edge = 10.0 + 16 / MM_PER_INCH + 6.0
    assert polygon.buffer(1e-9).covers(ShapelyPoint(edge, 10.0))
    assert not polygon.covers(ShapelyPoint(edge + 1e-4, 10.0))


def test_rings_of_models_far_apart_are_separate_pieces_and_of_close_models_one() -> None:
    far = Unit(
        "u", "red", (Model("a", 5.0, 5.0, CircleBase(32)), Model("b", 30.0, 5.0, CircleBase(32)))
    )
    assert len(ring_outline(far, 6.0).polygons) == 2
    assert len(ring_outline(far, 12.0).polygons) == 1


def test_a_ring_can_have_a_hole() -> None:
    # Eight models 7.65" apart on a circle of radius 10": their 4" rings join round the middle
    # and leave it empty.
    models = tuple(
        Model(
            f"m{k}",
            30.0 + 10 * math.cos(k * math.pi / 4),
            30.0 + 10 * math.sin(k * math.pi / 4),
            CircleBase(32),
        )
        for k in range(8)
    )
    (piece,) = ring_outline(Unit("ring", "red", models), 4.0).polygons
    assert len(piece.holes) == 1
    hole = ShapelyPolygon(piece.holes[0])
    assert hole.covers(ShapelyPoint(30.0, 30.0))


@pytest.mark.parametrize("radius", [0.0, -1.0, math.inf, math.nan, MAX_RING_RADIUS + 1])
def test_a_bad_radius_is_a_geometry_error(radius: float) -> None:
    with pytest.raises(GeometryError):
        ring_outline(Unit("u", "red", (Model("m", 1.0, 1.0, CircleBase(32)),)), radius)
