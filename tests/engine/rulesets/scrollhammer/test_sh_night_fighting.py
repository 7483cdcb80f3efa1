"""Night Fighting range bands from a shooting unit: 12", 24", 36" edges, areas to draw."""

from __future__ import annotations

import pytest
import shapely
from scrollhammer_builders import model, scenario, unit

from engine.errors import RulesError
from engine.rulesets.scrollhammer.night_fighting import night_fighting_band, night_fighting_view

EPS = 1e-4


@pytest.mark.parametrize(
    ("gap", "band", "stealth"),
    [
        (0.0, "Normal", 0),
        (12 - EPS, "Normal", 0),
        (12.0, "Stealth (+1)", 1),
        (24.0, "Stealth (+1)", 1),
        (24 + EPS, "Stealth (+2)", 2),
        (36.0, "Stealth (+2)", 2),
        (36 + EPS, "Hidden", None),
    ],
)
def test_bands_between_two_units_at_the_edges(gap: float, band: str, stealth: int | None) -> None:
    # Bases of radius 0.5: centres gap + 1 apart leave exactly ``gap`` between the bases.
    s = scenario(
        units=[
            unit("red-shooters", "red", model("r1", 4, 24), model("r2", 2, 24)),
            unit("blue-target", "blue", model("b1", 4 + gap + 1, 24), model("b2", 4 + gap + 3, 24)),
        ]
    )
    target = night_fighting_view(s, "red-shooters").target("blue-target")
    assert target.band.name == band
    assert target.band.stealth == stealth
    assert target.distance == pytest.approx(gap)
    assert (target.shooter_model, target.target_model) == ("r1", "b1")
    assert target.points[0] == pytest.approx((4.5, 24.0))


def test_the_farthest_measure_option_is_stricter() -> None:
    s = scenario(
        units=[
            unit("red", "red", model("r1", 4, 24)),
            unit("blue", "blue", model("b1", 15, 24), model("b2", 17, 24)),
        ],
        options={"night_fighting_measure": "farthest"},
    )
    target = night_fighting_view(s, "red").target("blue")
    assert target.target_model == "b2"
    assert target.distance == pytest.approx(12.0)
    assert target.band.name == "Stealth (+1)"


def test_band_areas_ring_the_shooter_and_cover_the_table() -> None:
    s = scenario(
        units=[unit("red", "red", model("r1", 36, 24)), unit("blue", "blue", model("b1", 70, 24))]
    )
    view = night_fighting_view(s, "red")
    names = [a.band.name for a in view.areas]
    assert names == ["Normal", "Stealth (+1)", "Stealth (+2)", "Hidden"]
    total = sum(a.geometry.area for a in view.areas)
    assert total == pytest.approx(72 * 48, rel=1e-6)
    normal = view.areas[0].geometry
    assert normal.contains(shapely.Point(36 + 12, 24))
    assert not view.areas[3].geometry.is_empty
    assert view.to_json()["targets"][0]["band"] == "Stealth (+2)"  # 33" between the bases


def test_negative_distance_and_unknown_targets() -> None:
    with pytest.raises(RulesError):
        night_fighting_band(-1)
    s = scenario(
        units=[unit("red", "red", model("r1", 36, 24)), unit("friend", "red", model("r2", 40, 24))]
    )
    with pytest.raises(RulesError):
        night_fighting_view(s, "red").target("friend")
