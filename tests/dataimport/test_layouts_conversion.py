"""The layout converter on a small bundle written by hand: exact vertices after a mirrored and
rotated area carrying a wall part, heights from the GW templates, objectives and their sides,
and the checks that report (and fix) what is wrong in the data."""

from __future__ import annotations

import copy
import math
from typing import Any

import pytest

from dataimport.fortykdc.layouts import (
    FLOOR_HEIGHT,
    centroid,
    convert_layouts,
    letter_of,
    orient,
    pairing_of,
    warplan_id,
)

WALL_PART = "bm-part-long-barrier-0123456789"
RUIN_PART = "bm-part-gh-0123456789"
GENERATOR_PART = "bm-part-generator-0123456789"


def _rect(width: float, height: float) -> dict[str, Any]:
    return {"type": "rectangle", "width": width, "height": height}


def _gw(template_id: str, height: float, category: str) -> dict[str, Any]:
    return {
        "id": template_id,
        "kind": "feature",
        "footprint": _rect(1, 1),
        "default_height_inches": height,
        "terrain_category": category,
    }


GW_TEMPLATES = [
    _gw("corner-ruin-balanced-left", 5, "dense"),
    _gw("corner-ruin-left", 5, "dense"),
    _gw("gantry", 3, "dense"),
    _gw("generator", 3, "dense"),
    _gw("pipe", 2, "light"),
    _gw("barricade", 2, "light"),
    _gw("corner-short", 5, "light"),
    _gw("corner-tiny", 5, "light"),
]


def _piece(
    piece_id: str,
    template: str,
    position: tuple[float, float],
    rotation: float,
    **more: Any,
) -> dict[str, Any]:
    return {
        "id": piece_id,
        "name": "Sample",
        "piece_type": "area",
        "template": template,
        "position": {"x": position[0], "y": position[1]},
        "rotation_degrees": rotation,
        **more,
    }


def sample_bundle() -> dict[str, Any]:
    """One composite area (4" x 2") with one wall part (a 2" barrier, 0.5" thick) set 1" along
    its local x; placed mirrored and turned 90 degrees at (10, 5) (y down), and its half-turn
    partner at (50, 39). Each area is a home objective; a King of the Colosseum layout rides
    along."""
    wall = {
        "id": WALL_PART,
        "kind": "feature",
        "footprint": {
            "type": "polygon",
            "points": [
                {"x": 0, "y": 0},
                {"x": 2, "y": 0},
                {"x": 2, "y": -0.5},
                {"x": 0, "y": -0.5},
            ],
        },
        "walls": [{"points": [{"x": 0, "y": 0}, {"x": 2, "y": 0}], "thickness": 0.5}],
        "terrain_category": "light",
    }
    composite = {
        "id": "bm-composite-sample-0123456789",
        "kind": "area",
        "footprint": _rect(4, 2),
        "features": [{"id": "feature-1", "template": WALL_PART, "position": {"x": 1, "y": 0}}],
    }
    dawn = {
        "id": "dawn-of-war",
        "zones": [
            {"player": "defender", "shape": _rect(60, 12), "position": {"x": 0, "y": 0}},
            {"player": "attacker", "shape": _rect(60, 12), "position": {"x": 0, "y": 32}},
        ],
    }
    home = {"objective_role": "home", "is_objective": True}
    layout = {
        "id": "bm-take-vs-purge-02",
        "name": "Sample",
        "mission_matchup_id": "take-and-hold-vs-purge-the-foe",
        "deployment_pattern_id": "dawn-of-war",
        "game_version": {"edition": "11th", "dataslate": "pre-launch-provisional"},
        "pieces": [
            _piece(
                "area-01",
                composite["id"],
                (10, 5),
                90,
                mirror="horizontal",
                objective={"position": {"x": 10, "y": 5}},
                **home,
            ),
            _piece(
                "area-02",
                composite["id"],
                (50, 39),
                270,
                mirror="horizontal",
                objective={"position": {"x": 50, "y": 39}},
                **home,
            ),
        ],
    }
    colosseum = {"id": "kotc-colosseum", "deployment_pattern_id": "kotc-colosseum", "pieces": []}
    return {
        "terrainTemplates": [*GW_TEMPLATES, wall, composite],
        "terrainLayouts": [layout, colosseum],
        "deploymentPatterns": [dawn],
    }


def _vertex_set(polygon: list[list[float]]) -> set[tuple[float, float]]:
    return {(x, y) for x, y in polygon}


def test_the_sample_converts_to_exact_vertices() -> None:
    conversion = convert_layouts(sample_bundle())
    assert sorted(conversion.files) == [
        "layouts/index.json",
        "layouts/take-and-hold-vs-purge-the-foe-b.json",
    ]
    document = conversion.files["layouts/take-and-hold-vs-purge-the-foe-b.json"]
    first, second = document["terrain"]
    # Mirror (x -> -x), then a clockwise quarter turn in the y-down frame, about the centroid
    # (2, 1) of the 4" x 2" area, moved to (10, 5); then y north = 44 - y down.
    assert _vertex_set(first["area"]) == {(11, 37), (11, 41), (9, 41), (9, 37)}
    [wall] = first["features"]
    # The wall (0, 0)-(2, 0) of a part centred on (1, -0.25), set at (1, 0) in the area frame,
    # lands on x = 9.75 from y = 39 to 41; 0.25" each side, flat ends.
    assert _vertex_set(wall["shape"]) == {(9.5, 39), (10, 39), (10, 41), (9.5, 41)}
    assert wall["height"] == 2
    assert wall["category"] == "light"
    assert "solid" not in wall
    assert "obscuring" not in first
    assert _vertex_set(second["area"]) == {(49, 3), (49, 7), (51, 7), (51, 3)}
    assert _vertex_set(second["features"][0]["shape"]) == {(50, 3), (50.5, 3), (50.5, 5), (50, 5)}


def test_the_sample_keeps_counterclockwise_outlines() -> None:
    document = convert_layouts(sample_bundle()).files[
        "layouts/take-and-hold-vs-purge-the-foe-b.json"
    ]
    for piece in document["terrain"]:
        for polygon in (piece["area"], *(f["shape"] for f in piece["features"])):
            twice_area = sum(
                ax * by - bx * ay
                for (ax, ay), (bx, by) in zip(polygon, [*polygon[1:], polygon[0]], strict=True)
            )
            assert twice_area > 0


def test_the_sample_index_objectives_and_provenance() -> None:
    conversion = convert_layouts(sample_bundle())
    [entry] = conversion.files["layouts/index.json"]
    assert entry == {
        "id": "take-and-hold-vs-purge-the-foe-b",
        "name": "Take and Hold vs Purge the Foe B",
        "pairing": ["Take and Hold", "Purge the Foe"],
        "letter": "B",
        "deployment": "dawn-of-war",
        "source": "40kdc-data 1.4.5, imported by 40kdc from Battlemaster bm-take-vs-purge-02",
        "revision": entry["revision"],
    }
    assert "2 objectives" in entry["revision"]
    document = conversion.files["layouts/take-and-hold-vs-purge-the-foe-b.json"]
    homes = {o["home_of"]: (o["x"], o["y"], o["terrain"]) for o in document["objectives"]}
    # Dawn of War: side A, the Attacker's, is the south zone of Warplan's card.
    assert homes == {"defender": (10, 39, "area-01"), "attacker": (50, 5, "area-02")}
    assert document["symmetry_mismatch"] == 0
    findings = "\n".join(conversion.findings)
    assert "kotc-colosseum: skipped" in findings
    assert "2 of 2 inside the zone of Warplan's card" in findings
    assert "not 180-degree symmetric" not in findings


def test_an_asymmetric_layout_is_reported() -> None:
    bundle = sample_bundle()
    bundle["terrainLayouts"][0]["pieces"][1]["position"] = {"x": 49, "y": 39}
    conversion = convert_layouts(bundle)
    document = conversion.files["layouts/take-and-hold-vs-purge-the-foe-b.json"]
    assert document["symmetry_mismatch"] == pytest.approx(1.0, abs=1e-4)
    assert any("not 180-degree symmetric: largest mismatch 1.000" in f for f in conversion.findings)


def test_a_home_objective_outside_the_cards_zones_goes_to_the_nearest() -> None:
    bundle = sample_bundle()
    bundle["terrainLayouts"][0]["pieces"][0]["objective"] = {"position": {"x": 10, "y": 20}}
    conversion = convert_layouts(bundle)
    document = conversion.files["layouts/take-and-hold-vs-purge-the-foe-b.json"]
    home = next(o for o in document["objectives"] if (o["x"], o["y"]) == (10, 24))
    assert home["home_of"] == "defender"
    assert any("lies in no zone of Warplan's card" in f for f in conversion.findings)


def test_a_repeated_piece_is_dropped() -> None:
    bundle = sample_bundle()
    pieces = bundle["terrainLayouts"][0]["pieces"]
    twin = copy.deepcopy(pieces[0])
    twin.update(id="area-03", is_objective=False)
    twin.pop("objective_role")
    pieces.append(twin)
    conversion = convert_layouts(bundle)
    document = conversion.files["layouts/take-and-hold-vs-purge-the-foe-b.json"]
    assert [p["id"] for p in document["terrain"]] == ["area-01", "area-02"]
    assert any("area-03 repeats area-01" in f for f in conversion.findings)


def test_linked_areas_form_one_piece_and_one_objective() -> None:
    bundle = sample_bundle()
    for piece in bundle["terrainLayouts"][0]["pieces"]:
        piece.update(objective_role="center", link_group="objective-center")
    document = convert_layouts(bundle).files["layouts/take-and-hold-vs-purge-the-foe-b.json"]
    [piece] = document["terrain"]
    assert piece["id"] == "area-01+area-02"
    assert len(piece["area"]) == 2
    assert len(piece["features"]) == 2
    [objective] = document["objectives"]
    assert objective == {
        "id": "obj-centre",
        "x": 30,
        "y": 22,
        "role": "central",
        "terrain": "area-01+area-02",
    }


def test_a_wall_poking_out_of_its_area_is_clipped() -> None:
    bundle = sample_bundle()
    wall = bundle["terrainTemplates"][-2]
    # A closed ring around the whole 2" x 0.5" part: buffered, its outer edge stands 0.25"
    # beyond the area's edge.
    wall["walls"] = [
        {
            "points": [
                {"x": 0, "y": 0},
                {"x": 2, "y": 0},
                {"x": 2, "y": -0.5},
                {"x": 0, "y": -0.5},
                {"x": 0, "y": 0},
            ],
            "thickness": 0.5,
        }
    ]
    conversion = convert_layouts(bundle)
    document = conversion.files["layouts/take-and-hold-vs-purge-the-foe-b.json"]
    shape = document["terrain"][0]["features"][0]["shape"]
    # The ring lands on x 9.75..10.25, y 39..41; buffered, x 9.5..10.5 and y 38.75..41.25,
    # then clipped to the area (y at most 41).
    assert _vertex_set(shape) == {(9.5, 38.75), (10.5, 38.75), (10.5, 41), (9.5, 41)}
    assert any("outside its area; clipped to the area" in f for f in conversion.findings)


def test_a_part_mirrored_about_its_corner_is_put_back_in_its_area() -> None:
    bundle = sample_bundle()
    bundle["terrainTemplates"].append(
        {
            "id": GENERATOR_PART,
            "kind": "feature",
            "footprint": {
                "type": "polygon",
                "points": [
                    {"x": 0, "y": 0},
                    {"x": 1, "y": 0},
                    {"x": 1, "y": -1},
                    {"x": 0, "y": -1},
                ],
            },
            "terrain_category": "dense",
        }
    )
    composite = bundle["terrainTemplates"][-2]
    composite["features"] = [
        {
            "id": "feature-1",
            "template": GENERATOR_PART,
            "position": {"x": -1.0, "y": 0},
            "mirror": "horizontal",
        }
    ]
    composite["footprint"] = _rect(1.2, 1.2)
    conversion = convert_layouts(bundle)
    assert any("mirrored about its corner" in f for f in conversion.findings)
    document = conversion.files["layouts/take-and-hold-vs-purge-the-foe-b.json"]
    [feature] = document["terrain"][0]["features"]
    assert feature["height"] == 3
    # Shifted by its 1" width to the area's centre: the 1" square centred on (10, 39).
    assert _vertex_set(feature["shape"]) == {(9.5, 38.5), (10.5, 38.5), (10.5, 39.5), (9.5, 39.5)}


def test_upper_floors_stand_at_three_inches_per_floor() -> None:
    bundle = sample_bundle()
    bundle["terrainTemplates"].append(
        {
            "id": RUIN_PART,
            "kind": "feature",
            "footprint": {
                "type": "polygon",
                "points": [
                    {"x": 0, "y": 0},
                    {"x": 2, "y": 0},
                    {"x": 2, "y": -1},
                    {"x": 0, "y": -1},
                ],
            },
            "walls": [
                {
                    "points": [{"x": 2, "y": 0}, {"x": 0, "y": 0}, {"x": 0, "y": -1}],
                    "thickness": 0.5,
                }
            ],
            "terrain_category": "dense",
            "upper_floor": {
                "footprint": {
                    "type": "polygon",
                    "points": [
                        {"x": 0, "y": 0},
                        {"x": 1, "y": 0},
                        {"x": 1, "y": -1},
                        {"x": 0, "y": -1},
                    ],
                },
                "floor": 1,
            },
        }
    )
    composite = bundle["terrainTemplates"][-2]
    composite["features"] = [{"id": "f", "template": RUIN_PART, "position": {"x": 0, "y": 0}}]
    document = convert_layouts(bundle).files["layouts/take-and-hold-vs-purge-the-foe-b.json"]
    piece = document["terrain"][0]
    [floor] = piece["floors"]
    assert floor["z"] == FLOOR_HEIGHT == 3
    assert piece["features"][0]["height"] == 5
    # The floor (0, 0)-(1, -1) of the part, centred on (1, -0.5), then through the area's
    # mirror and quarter turn: x 9.5..10.5, y 38..39 (y north).
    assert _vertex_set(floor["shape"]) == {(9.5, 38), (10.5, 38), (10.5, 39), (9.5, 39)}


def test_the_resolver_helpers() -> None:
    assert centroid([(0.0, 0.0), (2.0, 0.0), (0.0, 2.0)]) == pytest.approx((2 / 3, 2 / 3))
    assert centroid([(0.0, 0.0), (1.0, 1.0), (2.0, 2.0)]) == (1.0, 1.0)
    x, y = orient((1.0, 0.0), 90, "none")
    assert (x, y) == pytest.approx((0.0, 1.0))
    assert orient((1.0, 2.0), 0, "vertical") == (1.0, -2.0)
    turned = orient((1.0, 2.0), 180, "horizontal")
    assert turned == pytest.approx((1.0, -2.0))
    assert math.isclose(math.hypot(*orient((3.0, 4.0), 37, "none")), 5.0)
    assert pairing_of("disruption-vs-priority-assets") == ("Disruption", "Priority Assets")
    with pytest.raises(ValueError, match="two Force Dispositions"):
        pairing_of("kotc-vs-colosseum")
    assert letter_of({"id": "bm-take-vs-prio-02"}) == "B"
    with pytest.raises(ValueError, match="1 to 3"):
        letter_of({"id": "bm-x-04"})
    assert warplan_id(("Purge the Foe", "Priority Assets"), "C") == (
        "purge-the-foe-vs-priority-assets-c"
    )
