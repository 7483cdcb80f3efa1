"""The pure edits behind the app's commands keep every document saveable: deleting drops the
references to what went, a role change fixes the owner, new ids never collide, and a drawn
outline that is not a simple polygon of non-zero area is refused with the reason."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from engine.edits import (
    Selection,
    add_drawn_terrain,
    add_objective,
    closed_outline,
    extend_outline,
    home_owner,
    move_selection,
    remove_selection,
    set_objective_owner,
    set_objective_role,
    unique_id,
)
from engine.errors import GeometryError, RulesError, ScenarioError
from engine.model import (
    Battlefield,
    CustomDeployment,
    DeploymentRegion,
    Player,
    Scenario,
    TerrainPiece,
    freeze,
    thaw,
)
from engine.scenario_io import dumps_scenario, load_scenario, loads_scenario

ASSETS = Path(__file__).resolve().parents[2] / "assets"
DEMO = ASSETS / "scenarios" / "demo.warplan.json"


def _saves(scenario: Scenario) -> bool:
    """True when the file reader accepts ``scenario`` as written."""
    try:
        loads_scenario(dumps_scenario(scenario))
    except ScenarioError:
        return False
    return True


def _demo_after_two_turn_starts() -> Scenario:
    """The demo as the turn tracker leaves it: both players' controlled objectives recorded."""
    demo = load_scenario(DEMO)
    game = thaw(demo.game)
    for player in ("red", "blue"):
        game["players"][player]["controlled_at_start_of_turn"] = ["obj-expansion-e", "obj-centre"]
        game["players"][player]["objective_status"] = {"decoyed": ["obj-expansion-e"]}
    return replace(demo, game=freeze(game))


def test_deleting_an_objective_the_game_section_names_keeps_the_file_saveable() -> None:
    scenario = _demo_after_two_turn_starts()
    selection = Selection(objectives=frozenset({"obj-expansion-e"}))
    naive = replace(
        scenario, objectives=tuple(o for o in scenario.objectives if o.id != "obj-expansion-e")
    )
    assert not _saves(naive)
    removed = remove_selection(scenario, selection)
    assert _saves(removed)
    red = removed.game["players"]["red"]
    assert tuple(red["controlled_at_start_of_turn"]) == ("obj-centre",)
    assert tuple(red["objective_status"]["decoyed"]) == ()


def test_deleting_one_model_keeps_its_unit_and_the_others() -> None:
    demo = load_scenario(DEMO)
    removed = remove_selection(demo, Selection(models=frozenset({"red-hel-3"})))
    assert [m.id for m in removed.unit("red-hellblasters").models] == [
        "red-hel-1",
        "red-hel-2",
        "red-hel-4",
        "red-hel-5",
    ]
    assert _saves(removed)
    with pytest.raises(KeyError):
        removed.model("red-hel-3")


def test_deleting_terrain_keeps_its_objective_as_a_marker() -> None:
    demo = load_scenario(DEMO)
    removed = remove_selection(demo, Selection(terrain=frozenset({"ruin-west"})))
    assert removed.objective("obj-expansion-w").terrain is None
    assert _saves(removed)


def test_selection_of_deleted_models_names_no_unit() -> None:
    demo = load_scenario(DEMO)
    selection = Selection(models=frozenset({"red-hel-3", "red-int-1"}))
    removed = remove_selection(demo, Selection(models=frozenset({"red-hel-3"})))
    assert selection.moved_unit_ids(removed) == frozenset({"red-intercessors"})


@pytest.mark.parametrize(
    ("objective_id", "role", "owner"),
    [
        ("obj-home-red", "central", None),
        ("obj-home-red", "expansion", None),
        ("obj-home-red", "other", None),
        ("obj-home-blue", "home", "blue"),
        ("obj-centre", "home", "red"),
        ("obj-expansion-e", "central", None),
    ],
)
def test_a_role_change_carries_its_owner(objective_id: str, role: str, owner: str | None) -> None:
    demo = load_scenario(DEMO)
    changed = set_objective_role(demo, objective_id, role)  # type: ignore[arg-type]
    assert changed.objective(objective_id).role == role
    assert changed.objective(objective_id).owner == owner
    assert _saves(changed)


def test_a_new_home_objective_belongs_to_the_nearest_deployment_zone() -> None:
    demo = load_scenario(DEMO)
    assert home_owner(demo, (30.0, 4.0)) == "red"
    assert home_owner(demo, (30.0, 40.0)) == "blue"
    # Dawn of War's zones are the south and north 12" strips: the centre is equidistant.
    assert home_owner(demo, (30.0, 22.0)) == "red"
    moved = set_objective_role(
        replace(
            demo,
            objectives=tuple(
                replace(o, y=36.0) if o.id == "obj-expansion-e" else o for o in demo.objectives
            ),
        ),
        "obj-expansion-e",
        "home",
    )
    assert moved.objective("obj-expansion-e").owner == "blue"
    with_objective, objective_id = add_objective(demo, (12.0, 40.0), role="home")
    assert with_objective.objective(objective_id).owner == "blue"
    assert _saves(with_objective)


def test_an_owner_is_only_given_to_home_objectives() -> None:
    demo = load_scenario(DEMO)
    assert set_objective_owner(demo, "obj-home-red", "blue").objective("obj-home-red").owner == (
        "blue"
    )
    assert set_objective_owner(demo, "obj-home-red", "red") is demo
    with pytest.raises(RulesError, match="only home objectives"):
        set_objective_owner(demo, "obj-centre", "red")
    with pytest.raises(RulesError, match="needs an owner"):
        set_objective_owner(demo, "obj-home-red", None)
    assert set_objective_owner(demo, "obj-centre", None) is demo


def test_new_ids_never_collide_with_a_custom_zone() -> None:
    zone = DeploymentRegion("obj-1", "red", ((0, 0), (60, 0), (60, 6), (0, 6)))
    scenario = Scenario(
        "wh40k-ca2026",
        (Player("red"), Player("blue")),
        Battlefield(),
        deployment=CustomDeployment(zones=(zone,)),
    )
    assert unique_id(scenario, "obj") == "obj-2"
    added, objective_id = add_objective(scenario, (30.0, 22.0))
    assert objective_id == "obj-2"
    assert _saves(added)


def test_four_crossing_clicks_are_refused_at_the_fourth() -> None:
    outline = extend_outline((), (10.0, 10.0))
    outline = extend_outline(outline, (20.0, 20.0))
    outline = extend_outline(outline, (20.0, 10.0))
    with pytest.raises(GeometryError, match="cross"):
        extend_outline(outline, (10.0, 20.0 + 1e-4))
    assert extend_outline(outline, (12.0, 8.0)) == (*outline, (12.0, 8.0))


def test_a_side_exactly_touching_the_outline_is_refused() -> None:
    outline = ((0.0, 0.0), (10.0, 0.0), (10.0, 10.0))
    with pytest.raises(GeometryError):
        extend_outline(outline, (5.0, 0.0))
    with pytest.raises(GeometryError):
        extend_outline(outline, (10.0, 5.0))
    assert extend_outline(outline, (5.0, 1e-4))[-1] == (5.0, 1e-4)


def test_three_clicks_on_one_line_make_no_area() -> None:
    with pytest.raises(GeometryError, match="one line"):
        closed_outline([(10.0, 10.0), (15.0, 15.0), (20.0, 20.0)])
    assert len(closed_outline([(10.0, 10.0), (15.0, 15.0 + 1e-4), (20.0, 20.0)])) == 3
    with pytest.raises(GeometryError, match="at least 3"):
        closed_outline([(10.0, 10.0), (15.0, 15.0), (15.0, 15.0)])
    with pytest.raises(GeometryError, match="cross"):
        closed_outline([(10.0, 10.0), (20.0, 20.0), (20.0, 10.0), (10.0, 20.0)])


def test_a_drawn_outline_becomes_a_saveable_area() -> None:
    demo = load_scenario(DEMO)
    scenario, piece_id = add_drawn_terrain(demo, [(1, 1), (5, 1), (5, 4), (5, 4), (1, 1)])
    assert scenario.terrain_piece(piece_id).area == ((1.0, 1.0), (5.0, 1.0), (5.0, 4.0))
    assert _saves(scenario)
    with pytest.raises(GeometryError):
        add_drawn_terrain(demo, [(1, 1), (3, 3), (5, 5)])


def test_an_outline_with_a_non_finite_corner_is_refused() -> None:
    with pytest.raises(GeometryError, match="finite"):
        closed_outline([(0.0, 0.0), (4.0, 0.0), (float("nan"), 4.0)])


def test_moving_terrain_moves_every_footprint_of_its_area() -> None:
    left = ((0.0, 0.0), (2.0, 0.0), (2.0, 2.0), (0.0, 2.0))
    right = ((5.0, 0.0), (7.0, 0.0), (7.0, 2.0), (5.0, 2.0))
    piece = TerrainPiece("split-ruin", left, other_footprints=(right,))
    scenario = Scenario("wh40k-ca2026", (Player("red"), Player("blue")), terrain=(piece,))
    moved = move_selection(scenario, Selection(terrain=frozenset({"split-ruin"})), 1.0, 3.0)
    assert moved.terrain_piece("split-ruin").footprints == (
        ((1.0, 3.0), (3.0, 3.0), (3.0, 5.0), (1.0, 5.0)),
        ((6.0, 3.0), (8.0, 3.0), (8.0, 5.0), (6.0, 5.0)),
    )
    assert _saves(moved)
