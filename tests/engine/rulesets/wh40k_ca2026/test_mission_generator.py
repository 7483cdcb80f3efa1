"""The mission generator: deterministic set-ups, twists, roll-offs, objectives, changes."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest
import shapely

from engine.deployments import load_deployment_map
from engine.dice import roll_off
from engine.errors import RulesError, UnknownReferenceError
from engine.model import Objective, Player, Scenario, TerrainPiece
from engine.rulesets.wh40k_ca2026 import generator as g
from engine.rulesets.wh40k_ca2026.cards import deployment_deck, twist
from engine.scenario_io import dumps_scenario, loads_scenario

PLAYERS = ("red", "blue")
FDS = ("Take and Hold", "Reconnaissance")


def test_same_seed_same_setup_and_seeds_differ() -> None:
    first = g.generate_mission(PLAYERS, FDS, 42, twist_request="random")
    assert g.generate_mission(PLAYERS, FDS, 42, twist_request="random") == first
    setups = {g.generate_mission(PLAYERS, FDS, s, twist_request="random") for s in range(30)}
    assert len({s.deployment for s in setups}) == 6
    assert len({s.twist for s in setups}) == 6
    assert {s.central_roll for s in setups} == {1, 2, 3, 4, 5, 6}


def test_force_dispositions_give_the_primaries() -> None:
    setup = g.generate_mission(PLAYERS, FDS, 1)
    assert setup.primary_of("red") == "PURGE AND SECURE"
    assert setup.primary_of("blue") == "RECONNAISSANCE SWEEP"
    assert setup.twist is None


def test_any_primary_can_be_picked_per_player() -> None:
    setup = g.generate_mission(PLAYERS, FDS, 1, primaries=("vital link", None))
    assert setup.primary_of("red") == "VITAL LINK"
    assert setup.primary_of("blue") == "RECONNAISSANCE SWEEP"
    assert setup.players[0].chosen
    free = g.generate_mission(PLAYERS, (None, None), 1, primaries=("Sabotage", "Meatgrinder"))
    assert (free.primary_of("red"), free.primary_of("blue")) == ("SABOTAGE", "MEATGRINDER")
    with pytest.raises(RulesError, match="both Force Dispositions"):
        g.generate_mission(PLAYERS, (None, "Disruption"), 1)
    with pytest.raises(UnknownReferenceError):
        g.generate_mission(PLAYERS, FDS, 1, primaries=("NO PRISONERS", None))


def test_deployment_is_drawn_or_chosen() -> None:
    drawn = g.generate_mission(PLAYERS, FDS, 9)
    assert drawn.deployment in {d for d, _ in deployment_deck()}
    assert drawn.deployment_drawn
    chosen = g.generate_mission(PLAYERS, FDS, 9, deployment="crucible-of-battle")
    assert chosen.deployment == "crucible-of-battle"
    assert not chosen.deployment_drawn
    with pytest.raises(UnknownReferenceError, match="dawn-of-war"):
        g.generate_mission(PLAYERS, FDS, 9, deployment="dusk-of-war")


def test_twist_none_chosen_and_unknown() -> None:
    assert g.generate_mission(PLAYERS, FDS, 3, twist_request="none").twist is None
    assert g.generate_mission(PLAYERS, FDS, 3, twist_request="Night Fighting").twist == (
        "night-fighting"
    )
    with pytest.raises(UnknownReferenceError):
        g.generate_mission(PLAYERS, FDS, 3, twist_request="Blood Moon")


def test_mirrored_world_agreed() -> None:
    setup = g.generate_mission(
        PLAYERS, FDS, 3, twist_request="mirrored-world", mirrored_choice="Gather Intel"
    )
    assert setup.primary_of("red") == setup.primary_of("blue") == "GATHER INTEL"
    assert setup.mirrored_rolls == ()
    with pytest.raises(RulesError, match="Mirrored World allows only"):
        g.generate_mission(
            PLAYERS, FDS, 3, twist_request="mirrored-world", mirrored_choice="Vital Link"
        )


def test_mirrored_world_rolls_a_d6_rerolling_sixes() -> None:
    table = [str(n) for n in twist("mirrored-world").effect["choices"]]
    rerolled = False
    for seed in range(60):
        primary, rolls = g.mirrored_world_roll(seed)
        assert rolls[-1] in range(1, 6)
        assert all(r == 6 for r in rolls[:-1])
        assert primary == table[rolls[-1] - 1]
        rerolled = rerolled or len(rolls) > 1
        setup = g.generate_mission(PLAYERS, FDS, seed, twist_request="mirrored-world")
        assert setup.primary_of("red") == setup.primary_of("blue") == primary
    assert rerolled, "some seed in 0..59 rolls a 6 first"


def test_scrambled_communications_swaps_the_primaries() -> None:
    swapped = g.generate_mission(PLAYERS, FDS, 3, twist_request="scrambled-communications")
    assert swapped.primary_of("red") == "RECONNAISSANCE SWEEP"
    assert swapped.primary_of("blue") == "PURGE AND SECURE"
    kept = g.generate_mission(
        PLAYERS, FDS, 3, twist_request="scrambled-communications", swap_primaries=False
    )
    assert kept.primary_of("red") == "PURGE AND SECURE"


def test_roll_offs_reroll_ties_and_the_highest_wins() -> None:
    tied = False
    for seed in range(40):
        result = roll_off(seed, "first-turn", PLAYERS)
        for a, b in result.rolls[:-1]:
            assert a == b
        a, b = result.rolls[-1]
        assert a != b
        assert result.winner == ("red" if a > b else "blue")
        tied = tied or len(result.rolls) > 1
    assert tied


def test_attacker_is_the_winners_choice() -> None:
    setup = g.generate_mission(PLAYERS, FDS, 4)
    assert setup.attacker == setup.attacker_roll.winner
    other = g.generate_mission(PLAYERS, FDS, 4, winner_chooses="defender")
    assert other.defender == setup.attacker_roll.winner
    assert other.first_turn == setup.first_turn


def _scenario(
    deployment: str | None = "dawn-of-war", terrain: tuple[TerrainPiece, ...] = ()
) -> Scenario:
    return Scenario(
        "wh40k-ca2026",
        (Player("red", role="attacker"), Player("blue", role="defender")),
        deployment=deployment,
        terrain=terrain,
    )


@pytest.mark.parametrize("deployment", [d for d, _ in deployment_deck()])
def test_two_central_points_on_a_six_lie_six_inches_along_the_dividing_line(
    deployment: str,
) -> None:
    scenario = _scenario(deployment)
    assert g.central_objective_points(scenario, 5) == ((30.0, 22.0),)
    points = g.central_objective_points(scenario, 6)
    assert len(points) == 2
    line = g.territory_dividing_line(scenario)
    for x, y in points:
        assert line.distance(shapely.Point(x, y)) < 1e-9
    along = sorted(line.project(shapely.Point(x, y)) for x, y in points)
    assert math.isclose(along[1] - along[0], 12.0, abs_tol=1e-9)
    expected = load_deployment_map(deployment).central_points_on_six()
    for ours, theirs in zip(points, sorted(expected), strict=True):
        assert ours == pytest.approx(theirs, abs=1e-9)


def test_central_points_refuse_impossible_rolls() -> None:
    with pytest.raises(RulesError, match="1 to 6"):
        g.central_objective_points(_scenario(), 7)


def test_terrain_objectives_are_the_feature_covering_each_point() -> None:
    big = TerrainPiece("big-ruin", ((20, 15), (40, 15), (40, 30), (20, 30)))
    crater = TerrainPiece("crater", ((28, 20), (32, 20), (32, 24), (28, 24)))
    edge = TerrainPiece("edge-ruin", ((30, 6), (34, 6), (34, 9), (30, 9)))
    scenario = replace(
        _scenario(terrain=(big, crater, edge)),
        objectives=(
            Objective("c", 30, 22, "central"),
            Objective("h", 30, 6, "home", "red"),
            Objective("x", 10, 10, "expansion"),
        ),
    )
    assert g.terrain_objectives(scenario) == {"c": "crater", "h": "edge-ruin"}


def test_apply_setup_builds_a_valid_new_game() -> None:
    setup = g.generate_mission(
        PLAYERS, FDS, 8, deployment="dawn-of-war", twist_request="night-fighting"
    )
    crater = TerrainPiece("crater", ((28, 20), (32, 20), (32, 24), (28, 24)))
    applied = g.apply_setup(setup, _scenario(terrain=(crater,)))
    roles = {p.id: p.role for p in applied.players}
    assert roles[setup.attacker] == "attacker"
    assert roles[setup.defender] == "defender"
    centrals = [o for o in applied.objectives if o.role == "central"]
    assert len(centrals) == (2 if setup.central_roll == 6 else 1)
    assert {o.role for o in applied.objectives} >= {"home", "central"}
    assert applied.game is not None
    assert applied.game["twist"] == "night-fighting"
    assert applied.game["first_player"] == setup.first_turn
    assert applied.game["players"]["red"]["primary"] == setup.primary_of("red")
    reloaded = loads_scenario(dumps_scenario(applied))
    assert reloaded.game == applied.game
    assert g.setup_from_json(reloaded.game["setup"]) == setup


def test_setup_json_round_trips() -> None:
    setup = g.generate_mission(PLAYERS, FDS, 13, twist_request="mirrored-world")
    assert g.setup_from_json(setup.to_json()) == setup


def test_a_change_reports_that_it_would_discard_a_game_in_progress() -> None:
    setup = g.generate_mission(PLAYERS, FDS, 21, deployment="dawn-of-war")
    fresh = g.change_setup(setup, None, deployment="hammer-and-anvil")
    assert not fresh.discards_game_state
    assert fresh.after.deployment == "hammer-and-anvil"
    game = {"battle_round": 2, "players": {"red": {"vp": 6}}}
    change = g.change_setup(setup, game, force_dispositions=("Purge the Foe", "Reconnaissance"))
    assert change.discards_game_state
    assert "force_dispositions" in change.reason
    assert change.after.primary_of("red") == "CONSECRATE"
    assert change.before == setup
    assert change.after.first_turn_roll == setup.first_turn_roll
    assert change.after.central_roll == setup.central_roll
    with pytest.raises(RulesError, match="cannot change"):
        g.change_setup(setup, game, battlefield="big")


def test_game_in_progress() -> None:
    assert not g.game_in_progress(None)
    assert not g.game_in_progress({"battle_round": 1, "players": {"red": {"primary": "X"}}})
    assert g.game_in_progress({"battle_round": 1, "players": {"red": {"deck": {"mode": "fixed"}}}})
    assert g.game_in_progress({"battle_round": 3})
