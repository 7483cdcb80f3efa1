"""Table halves, deployment zones (more than 12" from the centre line) and 2' x 2' sections."""

from __future__ import annotations

import math

import pytest
from scrollhammer_builders import model, scenario, square, unit

from engine.battlefield_edges import model_edge_distance
from engine.errors import RulesError
from engine.model import Battlefield, OvalBase, RectBase
from engine.rulesets.scrollhammer.battlefield import (
    battlefield_sections,
    deployment_violations,
    scenario_halves,
    table_halves,
)

EPS = 1e-4


def test_long_edge_halves_split_the_table_along_its_length() -> None:
    halves = table_halves(Battlefield(72, 48), ("red", "blue"))
    assert halves.line == ((0.0, 24.0), (72.0, 24.0))
    assert halves.of("red").edge.name == "south"
    assert halves.of("blue").edge.name == "north"
    assert set(halves.of("blue").zone) == {(0.0, 36.0), (72.0, 36.0), (72.0, 48.0), (0.0, 48.0)}


def test_a_deeper_than_wide_table_has_west_and_east_long_edges() -> None:
    halves = table_halves(Battlefield(48, 72), ("red", "blue"))
    assert halves.line == ((24.0, 0.0), (24.0, 72.0))
    assert (halves.of("red").edge.name, halves.of("blue").edge.name) == ("west", "east")


def test_players_may_swap_long_edges_but_not_take_a_short_one() -> None:
    halves = table_halves(
        Battlefield(72, 48), ("red", "blue"), edges={"red": "north", "blue": "south"}
    )
    assert halves.of("red").edge.name == "north"
    with pytest.raises(RulesError, match="long edge"):
        table_halves(Battlefield(72, 48), ("red", "blue"), edges={"red": "west"})
    with pytest.raises(RulesError, match="both players"):
        table_halves(Battlefield(72, 48), ("red", "blue"), edges={"red": "north"})


@pytest.mark.parametrize(
    ("diagonal", "red_half"),
    [
        ("SW-NE", ((0.0, 0.0), (72.0, 0.0), (72.0, 48.0))),
        ("NW-SE", ((0.0, 0.0), (72.0, 0.0), (0.0, 48.0))),
    ],
)
def test_diagonal_halves_give_each_player_the_triangle_with_his_long_edge(
    diagonal: str, red_half: tuple[tuple[float, float], ...]
) -> None:
    halves = table_halves(Battlefield(72, 48), ("red", "blue"), "diagonal", diagonal=diagonal)  # type: ignore[arg-type]
    assert set(halves.of("red").half) == set(red_half)
    zone = halves.of("red").zone
    for x, y in zone:
        assert halves.signed_distance("red", x, y) >= 12.0 - 1e-9
    assert any(abs(halves.signed_distance("red", x, y) - 12.0) < 1e-9 for x, y in zone)


def test_diagonal_zone_vertices_are_exact() -> None:
    halves = table_halves(Battlefield(72, 48), ("red", "blue"), "diagonal")
    length = math.hypot(72, 48)
    # The zone edge is the diagonal moved 12" into the south-east triangle.
    shift_x = 12 * length / 48
    assert (round(shift_x, 9), 0.0) in halves.of("red").zone


def test_mission_options_choose_the_halves() -> None:
    s = scenario(options={"mission": "held-ground", "diagonal": "NW-SE"})
    halves = scenario_halves(s)
    assert (halves.kind, halves.diagonal) == ("diagonal", "NW-SE")
    assert scenario_halves(scenario(options={"mission": 1})).kind == "long-edge"
    assert (
        scenario_halves(scenario(options={"mission": 2, "table_halves": "long-edge"})).kind
        == "long-edge"
    )


@pytest.mark.parametrize(("offset", "broken"), [(0.0, True), (EPS, False), (-EPS, True)])
def test_a_model_exactly_12_inches_from_the_centre_line_is_outside_the_zone(
    offset: float, broken: bool
) -> None:
    # Base radius 0.5: centre at 24 - 12 - 0.5 puts the base's edge exactly 12" from the line.
    y = 24 - 12 - 0.5 - offset
    s = scenario(units=[unit("red-u", "red", model("r1", 30, y))])
    violations = deployment_violations(s)
    assert bool(violations) is broken
    if broken:
        assert violations[0].rule == "Deploy Forces"
        assert "r1 (red-u)" in violations[0].message
        assert violations[0].limit == 12.0


@pytest.mark.parametrize(("offset", "broken"), [(0.0, True), (EPS, False)])
def test_a_rotated_oval_and_a_rectangle_are_measured_exactly(offset: float, broken: bool) -> None:
    oval = model("o1", 30, 0, OvalBase(101.6, 50.8), rotation=90)  # 2" reach along y
    rect = model("t1", 50, 0, RectBase(101.6, 50.8), rotation=30)
    reach_rect = 2 * math.sin(math.radians(30)) + 1 * math.cos(math.radians(30))
    s = scenario(
        units=[
            unit("ovals", "red", oval.placed(30, 12 - 2 - offset)),
            unit("tanks", "red", rect.placed(50, 12 - reach_rect - offset)),
        ]
    )
    found = {v.items[0] for v in deployment_violations(s)}
    assert found == ({"ovals", "tanks"} if broken else set())


def test_diagonal_deployment_boundary() -> None:
    s = scenario(options={"mission": "blood-at-dawn"}, units=[])
    halves = scenario_halves(s)
    nx, ny = halves.normal_into("red")
    # A point on the diagonal's middle, moved 12.5" into red's half: base edge exactly 12" away.
    for extra, broken in ((0.0, True), (EPS, False)):
        x, y = 36 + nx * (12.5 + extra), 24 + ny * (12.5 + extra)
        placed = scenario(
            options={"mission": "blood-at-dawn"}, units=[unit("u", "red", model("m", x, y))]
        )
        assert bool(deployment_violations(placed)) is broken


def test_models_in_the_enemy_half_off_the_table_or_in_impassable_or_lethal_terrain() -> None:
    s = scenario(
        units=[
            unit("a", "red", model("a1", 10, 40)),
            unit("b", "red", model("b1", 10, -0.2)),
            unit("c", "red", model("c1", 50, 5)),
            unit("d", "red", model("d1", 60, 5)),
            unit("e", "blue", model("e1", 10, 40)),
        ],
        terrain=[
            square("cliff", 49, 2, 52, 4.5 + EPS, impassable=True),
            square("lava", 59, 6, 62, 8, kind="lethal"),
        ],
    )
    messages = {v.items[0]: v.message for v in deployment_violations(s)}
    assert set(messages) == {"a", "b", "c"}
    assert "in the enemy half" in messages["a"]
    assert "over the south battlefield edge" in messages["b"]
    assert "impassable terrain cliff" in messages["c"]


def test_units_in_reserve_are_not_checked() -> None:
    s = scenario(
        units=[unit("a", "red", model("a1", 10, 40))], game={"scrollhammer": {"reserves": ["a"]}}
    )
    assert deployment_violations(s) == ()
    assert len(deployment_violations(s, unit_ids=["a"])) == 1


def test_edge_distance_of_a_base() -> None:
    halves = table_halves(Battlefield(72, 48), ("red", "blue"))
    assert model_edge_distance(model("m", 5, 0.5), halves.of("red").edge) == pytest.approx(0.0)


@pytest.mark.parametrize(
    ("width", "depth", "columns", "rows", "exact"),
    [
        (72, 48, 3, 2, True),
        (48, 48, 2, 2, True),
        (96, 48, 4, 2, True),
        (60, 44, 3, 2, False),
        (44, 30, 2, 1, False),
        (24, 24, 1, 1, True),
        (12, 12, 1, 1, False),
    ],
)
def test_sections_are_2_feet_or_the_closest_equal_split(
    width: float, depth: float, columns: int, rows: int, exact: bool
) -> None:
    grid = battlefield_sections(Battlefield(width, depth))
    assert (grid.columns, grid.rows, grid.exact) == (columns, rows, exact)
    assert len(grid.sections) == columns * rows
    assert sum((s.x1 - s.x0) * (s.y1 - s.y0) for s in grid.sections) == pytest.approx(width * depth)
    assert grid.sections[0].id == "A1"
    if not exact:
        assert "cannot be divided" in grid.note


def test_section_ids_run_east_then_north() -> None:
    grid = battlefield_sections(Battlefield(72, 48))
    assert [s.id for s in grid.sections] == ["A1", "B1", "C1", "A2", "B2", "C2"]
    assert grid.section("C2").polygon == ((48.0, 24.0), (72.0, 24.0), (72.0, 48.0), (48.0, 48.0))
    with pytest.raises(RulesError):
        grid.section("D1")


def test_the_default_table_is_72_by_48_in_six_2_foot_sections() -> None:
    from engine.rulesets.scrollhammer.battlefield import default_battlefield

    grid = battlefield_sections(default_battlefield())
    assert (default_battlefield().width, default_battlefield().depth) == (72.0, 48.0)
    assert (grid.columns, grid.rows, grid.exact) == (3, 2, True)
