"""Terrain in the file format: multi-part areas, dense and light categories, their defaults, the
``obscuring`` option, and "within a terrain area" across every footprint."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from engine.errors import ScenarioError
from engine.geometry import TOLERANCE, model_within_terrain, terrain_area
from engine.model import CircleBase, Model, OvalBase, RectBase, TerrainPiece
from engine.scenario_io import dumps_scenario, loads_scenario, parse_scenario, scenario_to_json

LEFT = [[20, 14], [30, 14], [30, 20], [20, 20]]
RIGHT = [[34, 14], [40, 14], [40, 20], [34, 20]]
WALL = [[20, 14], [30, 14], [30, 14.25], [20, 14.25]]


def document(**terrain: Any) -> dict[str, Any]:
    piece = {"id": "ruin-1", "area": LEFT, **terrain}
    return {
        "format": "warplan.scenario",
        "version": 1,
        "ruleset": "wh40k-ca2026",
        "battlefield": {"width": 60, "depth": 44},
        "players": [{"id": "red"}, {"id": "blue"}],
        "terrain": [copy.deepcopy(piece)],
    }


def problems(data: dict[str, Any]) -> list[str]:
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(data)
    return [str(p) for p in caught.value.problems]


def saved_piece(data: dict[str, Any]) -> dict[str, Any]:
    """The terrain piece as it is written after reading ``data`` (and the reading round-trips)."""
    scenario = parse_scenario(data)
    assert loads_scenario(dumps_scenario(scenario)) == scenario
    piece: dict[str, Any] = scenario_to_json(scenario)["terrain"][0]
    return piece


# ---------------------------------------------------------------------------------------------
# Multi-part areas


def test_an_area_of_two_polygons_is_one_terrain_area() -> None:
    piece = parse_scenario(document(area=[LEFT, RIGHT])).terrain[0]
    assert piece.area == tuple(tuple(map(float, p)) for p in LEFT)
    assert piece.footprints == (piece.area, tuple(tuple(map(float, p)) for p in RIGHT))
    assert saved_piece(document(area=[LEFT, RIGHT]))["area"] == [LEFT, RIGHT]


def test_a_single_polygon_area_saves_as_it_did() -> None:
    piece = parse_scenario(document()).terrain[0]
    assert piece.footprints == (piece.area,)
    assert piece.other_footprints == ()
    assert saved_piece(document())["area"] == LEFT


def test_a_list_of_one_polygon_is_that_polygon() -> None:
    assert parse_scenario(document(area=[LEFT])) == parse_scenario(document())


def test_each_polygon_of_a_multi_part_area_is_checked_with_its_own_path() -> None:
    assert problems(document(area=[LEFT, [[0, 0], [1, 1]]])) == [
        "terrain[0].area[1]: must have at least 3 points, got 2"
    ]
    assert problems(document(area=[LEFT, [[0, 0], [1, 1, 1], [1, 0]]])) == [
        "terrain[0].area[1][1]: must be a point [x, y], got an array of 3 values"
    ]
    assert problems(document(area=[[[0, 0], [10, 10], [10, 0], [0, 10]], LEFT])) == [
        "terrain[0].area[0]: must be a valid polygon: Self-intersection[5 5]"
    ]
    assert problems(document(area=[LEFT, [1, 2]])) == [
        "terrain[0].area[1][0]: must be an array, got 1",
        "terrain[0].area[1][1]: must be an array, got 2",
    ]


def test_a_flat_list_that_is_not_a_polygon_is_still_named_as_a_polygon() -> None:
    assert problems(document(area=[[0, 0], [1, 1]])) == [
        "terrain[0].area: must have at least 3 points, got 2"
    ]
    assert problems(document(area=[])) == ["terrain[0].area: must have at least 3 points, got 0"]


# ---------------------------------------------------------------------------------------------
# Categories and their defaults


def test_without_categories_a_file_means_and_saves_what_it_did() -> None:
    data = document(features=[{"shape": WALL, "height": 5}])
    piece = parse_scenario(data).terrain[0]
    assert (piece.obscuring, piece.features[0].solid, piece.features[0].category) == (
        False,
        True,
        None,
    )
    assert saved_piece(data) == {
        "id": "ruin-1",
        "area": LEFT,
        "features": [{"shape": WALL, "height": 5}],
    }


def test_a_dense_feature_is_solid_and_makes_its_area_obscuring() -> None:
    data = document(features=[{"shape": WALL, "height": 5, "category": "dense"}])
    piece = parse_scenario(data).terrain[0]
    assert piece.obscuring is True
    assert piece.features[0].solid is True
    assert piece.features[0].category == "dense"
    assert saved_piece(data) == {
        "id": "ruin-1",
        "area": LEFT,
        "features": [{"shape": WALL, "height": 5, "category": "dense"}],
    }


def test_a_light_feature_is_not_solid_and_makes_its_area_obscuring() -> None:
    data = document(features=[{"shape": WALL, "height": 5, "category": "light"}])
    piece = parse_scenario(data).terrain[0]
    assert piece.obscuring is True
    assert piece.features[0].solid is False
    assert saved_piece(data)["features"] == [{"shape": WALL, "height": 5, "category": "light"}]
    assert "obscuring" not in saved_piece(data)


def test_what_the_file_says_wins_over_the_category_and_is_kept() -> None:
    data = document(
        obscuring=False,
        features=[
            {"shape": WALL, "height": 5, "category": "light", "solid": True},
            {"shape": WALL, "height": 3, "category": "dense", "solid": False},
        ],
    )
    piece = parse_scenario(data).terrain[0]
    assert piece.obscuring is False
    assert [f.solid for f in piece.features] == [True, False]
    assert saved_piece(data) == data["terrain"][0]


def test_values_equal_to_the_category_default_are_not_written() -> None:
    data = document(
        obscuring=True,
        features=[
            {"shape": WALL, "height": 5, "category": "light", "solid": False},
            {"shape": WALL, "height": 3, "category": "dense", "solid": True},
        ],
    )
    assert saved_piece(data) == {
        "id": "ruin-1",
        "area": LEFT,
        "features": [
            {"shape": WALL, "height": 5, "category": "light"},
            {"shape": WALL, "height": 3, "category": "dense"},
        ],
    }


def test_an_explicit_obscuring_area_without_categories_is_kept() -> None:
    assert saved_piece(document(obscuring=True))["obscuring"] is True
    assert "obscuring" not in saved_piece(document(obscuring=False))


def test_an_unknown_category_is_refused() -> None:
    assert problems(document(features=[{"shape": WALL, "height": 5, "category": "Dense"}])) == [
        'terrain[0].features[0].category: must be one of dense, light; got "Dense"'
    ]


def test_the_obscuring_option_is_block_or_cover_only() -> None:
    for value in ("block", "cover-only"):
        data = document()
        data["options"] = {"obscuring": value}
        assert parse_scenario(data).option("obscuring") == value
    data = document()
    data["options"] = {"obscuring": "none"}
    assert problems(data) == ['options.obscuring: must be one of block, cover-only; got "none"']


# ---------------------------------------------------------------------------------------------
# Within a terrain area: every footprint counts, edges inclusive


def two_part_piece() -> TerrainPiece:
    return parse_scenario(document(area=[LEFT, RIGHT])).terrain[0]


@pytest.mark.parametrize(
    ("base", "reach"),
    [
        (CircleBase(25.4), 0.5),
        (OvalBase(50.8, 25.4), 1.0),
        (RectBase(50.8, 25.4), 1.0),
    ],
)
def test_a_model_touching_the_second_footprint_is_within_the_area(base: Any, reach: float) -> None:
    piece = two_part_piece()
    # RIGHT's west edge is x = 34: a base whose edge reaches it exactly is within.
    at_edge = Model("m", 34.0 - reach, 17.0, base)
    assert model_within_terrain(at_edge, piece)
    assert not model_within_terrain(at_edge.moved(-1e-4, 0.0), piece)
    # Between the footprints (30 < x < 34) is not within the area.
    assert not model_within_terrain(Model("m", 32.0, 17.0, CircleBase(25.4)), piece)
    assert model_within_terrain(Model("m", 25.0, 17.0, base), piece)


def test_exactly_at_the_tolerance() -> None:
    piece = two_part_piece()
    assert model_within_terrain(Model("m", 33.5 - TOLERANCE / 2, 17.0, CircleBase(25.4)), piece)


def test_the_terrain_area_of_adjoining_footprints_has_no_seam() -> None:
    left = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))
    right = ((1.0, 0.0), (2.0, 0.0), (2.0, 1.0), (1.0, 1.0))
    area = terrain_area(TerrainPiece("t", left, other_footprints=(right,)))
    assert area.bounds == (0.0, 0.0, 2.0, 1.0)
    assert area.geometry.geom_type == "Polygon"
