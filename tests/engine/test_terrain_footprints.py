"""Terrain areas of several footprints: every rule about "within / on / touching the terrain
area" reads all of them (the area is their union), so a model or a point on the second
footprint only counts. Boundaries: touching the second footprint exactly is in; 1e-4" away is
out."""

from __future__ import annotations

import pytest

from engine.areas import unit_positions
from engine.model import (
    Battlefield,
    CircleBase,
    Model,
    Objective,
    Player,
    Polygon,
    Scenario,
    TerrainPiece,
    Unit,
)
from engine.objectives import objective_control
from engine.rulesets.scrollhammer.battlefield import battlefield_sections, deployment_violations
from engine.rulesets.scrollhammer.objective_placement import objective_placement_violations
from engine.rulesets.scrollhammer.terrain_setup import majority_section
from engine.rulesets.wh40k_ca2026.generator import terrain_objectives

EPS = 1e-4
INCH_BASE = CircleBase(25.4)  # radius 0.5"


def box(x0: float, y0: float, x1: float, y1: float) -> Polygon:
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


FIRST = box(10.0, 10.0, 14.0, 14.0)
SECOND = box(30.0, 20.0, 34.0, 24.0)
"""The second footprint's east edge is x = 34."""


def two_footprints(piece_id: str = "ruin", **kwargs: object) -> TerrainPiece:
    return TerrainPiece(piece_id, FIRST, other_footprints=(SECOND,), **kwargs)  # type: ignore[arg-type]


def ca_scenario(**kwargs: object) -> Scenario:
    return Scenario(
        "wh40k-ca2026",
        (Player("red"), Player("blue")),
        Battlefield(60, 44),
        **kwargs,  # type: ignore[arg-type]
    )


def red_unit_at(x: float, y: float = 22.0) -> Unit:
    return Unit("red-u", "red", (Model("red-1", x, y, INCH_BASE),))


@pytest.mark.parametrize(("gap", "within"), [(-0.3, True), (0.0, True), (EPS, False)])
def test_terrain_relations_read_the_second_footprint(gap: float, within: bool) -> None:
    """engine.areas: a unit is within the terrain area when its base touches any footprint."""
    s = ca_scenario(units=(red_unit_at(34.0 + 0.5 + gap),), terrain=(two_footprints(),))
    (position,) = unit_positions(s)
    assert (position.terrain_within == ("ruin",)) is within


@pytest.mark.parametrize(("gap", "controlled"), [(0.0, True), (EPS, False)])
def test_a_terrain_objective_is_held_from_the_second_footprint(
    gap: float, controlled: bool
) -> None:
    """engine.objectives: "within that terrain area" (Chapter Approved terrain objectives)."""
    s = ca_scenario(
        units=(red_unit_at(34.0 + 0.5 + gap),),
        terrain=(two_footprints(),),
        objectives=(Objective("obj", 12.0, 12.0, terrain="ruin"),),
    )
    (control,) = objective_control(s)
    assert (control.controlled_by == ("red",)) is controlled


@pytest.mark.parametrize(("x", "terrain"), [(33.0, "ruin"), (34.0, "ruin"), (34.0 + EPS, None)])
def test_the_generator_finds_terrain_objectives_on_the_second_footprint(
    x: float, terrain: str | None
) -> None:
    """Chapter Approved's generator: the terrain area that covers an objective's point."""
    s = ca_scenario(terrain=(two_footprints(),), objectives=(Objective("obj", x, 22.0),))
    assert terrain_objectives(s).get("obj") == terrain


@pytest.mark.parametrize(("rim_gap", "broken"), [(-0.2, True), (EPS, False)])
def test_no_objective_on_impassable_terrain_of_the_second_footprint(
    rim_gap: float, broken: bool
) -> None:
    """Scrollhammer's Place Objective Markers: not in or on impassable terrain (the 40 mm
    marker's rim against the second footprint's east edge)."""
    radius = 20 / 25.4
    s = Scenario(
        "scrollhammer",
        (Player("red"), Player("blue")),
        Battlefield(72, 48),
        terrain=(two_footprints(impassable=True),),
        objectives=(Objective("o", 34.0 + radius + rim_gap, 22.0),),
    )
    assert bool(objective_placement_violations(s)) is broken


@pytest.mark.parametrize(("gap", "broken"), [(0.0, True), (EPS, False)])
def test_no_model_deploys_on_impassable_terrain_of_the_second_footprint(
    gap: float, broken: bool
) -> None:
    """Scrollhammer's Deploy Forces: no model may be set up on impassable terrain."""
    s = Scenario(
        "scrollhammer",
        (Player("red"), Player("blue")),
        Battlefield(72, 48),
        units=(Unit("red-u", "red", (Model("red-1", 34.0 + 0.5 + gap, 6.0, INCH_BASE),)),),
        terrain=(
            TerrainPiece("rock", FIRST, other_footprints=(box(30, 4, 34, 8),), impassable=True),
        ),
    )
    rocks = [v for v in deployment_violations(s) if "impassable" in v.message]
    assert bool(rocks) is broken


def test_a_sections_share_counts_every_footprint() -> None:
    """Scrollhammer's terrain density: a piece counts in the section holding most of its area,
    the area being all its footprints."""
    grid = battlefield_sections(Battlefield(72, 48), 24.0)
    big_second = TerrainPiece("woods", box(1, 1, 2, 2), other_footprints=(box(50, 30, 58, 38),))
    section, shares = majority_section(big_second, grid)
    assert section is not None
    assert sum(shares.values()) == pytest.approx(1.0)
    assert shares[section] == pytest.approx(64 / 65)
    assert len(shares) == 2
