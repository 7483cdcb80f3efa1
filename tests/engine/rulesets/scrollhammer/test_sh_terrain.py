"""Alternating Terrain: density limits, majority sections, 3" spacing, the centre kept clear."""

from __future__ import annotations

import random

import pytest
from scrollhammer_builders import scenario, square

from engine.errors import RulesError
from engine.model import Battlefield
from engine.rulesets.scrollhammer.battlefield import battlefield_sections
from engine.rulesets.scrollhammer.terrain_setup import (
    check_terrain_setup,
    density_limit,
    majority_section,
    next_terrain_placer,
    placement_order_violations,
    roll_terrain_density,
)

EPS = 1e-4


@pytest.mark.parametrize(("roll", "limit"), [(1, 1), (2, 1), (3, 1), (4, 2), (5, 2), (6, 2)])
def test_density_limit_by_roll(roll: int, limit: int) -> None:
    assert density_limit(roll) == limit


@pytest.mark.parametrize("roll", [0, 7])
def test_density_roll_is_a_d6(roll: int) -> None:
    with pytest.raises(RulesError):
        density_limit(roll)


def test_density_rolls_are_seeded_one_per_section() -> None:
    grid = battlefield_sections(Battlefield(72, 48))
    rolls = roll_terrain_density(grid, random.Random(11))
    assert rolls == roll_terrain_density(grid, random.Random(11))
    assert sorted(rolls) == sorted(s.id for s in grid.sections)
    assert all(1 <= r <= 6 for r in rolls.values())


@pytest.mark.parametrize(("gap", "broken"), [(3.0, True), (3.0 + EPS, False), (2.0, True)])
def test_terrain_must_be_more_than_3_inches_apart(gap: float, broken: bool) -> None:
    s = scenario(terrain=[square("a", 2, 2, 6, 6), square("b", 6 + gap, 2, 10 + gap, 6)])
    found = [v for v in check_terrain_setup(s).violations if v.items == ("a", "b")]
    assert bool(found) is broken
    if broken:
        assert found[0].distance == pytest.approx(gap)
        assert found[0].points == ((6.0, 2.0), (6.0 + gap, 2.0)) or found[0].points[0][0] == 6.0
        assert 'more than 3"' in found[0].message


def test_a_straddling_piece_counts_where_most_of_it_lies() -> None:
    grid = battlefield_sections(Battlefield(72, 48))
    piece = square("ruin", 20, 10, 30, 14)  # 4" in A1, 6" in B1
    home, shares = majority_section(piece, grid)
    assert home == "B1"
    assert shares == pytest.approx({"A1": 0.4, "B1": 0.6})
    tie = square("tie", 20, 10, 28, 14)
    assert majority_section(tie, grid)[0] == "A1"


def test_density_limit_violation_and_fortifications_do_not_count() -> None:
    s = scenario(
        terrain=[
            square("wood", 2, 2, 6, 6),
            square("ruin", 12, 12, 16, 16),
            square("fort", 2, 14, 6, 18, kind="fortification"),
        ],
        game={"scrollhammer": {"terrain_density": {"A1": 3, "B1": 4}}},
    )
    check = check_terrain_setup(s)
    a1 = next(c for c in check.sections if c.section_id == "A1")
    assert (a1.roll, a1.limit, a1.pieces, a1.full) == (3, 1, ("wood", "ruin"), True)
    over = [v for v in check.violations if v.items[0] == "A1"]
    assert len(over) == 1
    assert "terrain density limit is 1" in over[0].message
    assert check.counted_in["fort"] == "A1"
    allowed = check_terrain_setup(s, {"A1": 4})
    assert not [v for v in allowed.violations if v.items[0] == "A1"]


def test_terrain_off_the_table_is_reported() -> None:
    s = scenario(terrain=[square("lost", 80, 10, 85, 12)])
    assert check_terrain_setup(s).violations[0].message == "lost is not on the battlefield"


@pytest.mark.parametrize(
    ("mission", "x0", "broken"),
    [
        ("heart-of-the-battle", 36.0, True),
        ("quest-for-the-relic", 36.0, True),
        ("heart-of-the-battle", 36.0 + EPS, False),
        ("season-unending", 36.0, False),
    ],
)
def test_no_impassable_terrain_at_the_centre(mission: str, x0: float, broken: bool) -> None:
    s = scenario(
        terrain=[square("rock", x0, 20, 40, 30, impassable=True)], options={"mission": mission}
    )
    found = [v for v in check_terrain_setup(s).violations if v.items == ("rock",)]
    assert bool(found) is broken


def test_centre_clear_radius_option() -> None:
    s = scenario(
        terrain=[square("rock", 38, 20, 40, 30, impassable=True)],
        options={"mission": "heart-of-the-battle", "centre_clear_radius": 2},
    )
    assert check_terrain_setup(s).violations


def test_players_alternate_starting_with_who_chose_table_halves() -> None:
    assert next_terrain_placer("red", "blue", []) == "red"
    assert next_terrain_placer("red", "blue", ["red"]) == "blue"
    assert next_terrain_placer("red", "blue", ["red", "blue"], stopped={"red"}) == "blue"
    assert next_terrain_placer("red", "blue", [], stopped={"red", "blue"}) is None
    bad = placement_order_violations("red", "blue", [("t1", "red"), ("t2", "red")], {})
    assert [v.items for v in bad] == [("t2",)]
    fine = placement_order_violations(
        "red", "blue", [("t1", "red"), ("t2", "blue"), ("t3", "blue")], {"red": 2}
    )
    assert fine == ()
