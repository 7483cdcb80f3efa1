"""Objective actions: who can start them, restrictions, statuses and use limits."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest
from mission_builders import BASE, IN_RANGE, dawn_of_war

from engine.errors import RulesError, UnknownReferenceError
from engine.model import Marker, Model, Scenario, TerrainPiece, Unit
from engine.rulesets.wh40k_ca2026.actions import (
    ActionOption,
    action_options,
    check_starts,
    locate_and_deny_areas,
    objective_action,
)


def unit(uid: str, x: float, y: float, player: str = "red") -> Unit:
    return Unit(uid, player, (Model(f"{uid}-m", x, y, BASE),))


def scenario(
    *units: Unit,
    game: Mapping[str, Any] | None = None,
    markers: tuple[Marker, ...] = (),
    terrain: tuple[TerrainPiece, ...] = (),
) -> Scenario:
    """Actions are judged in battle round 2 unless the test says otherwise."""
    return dawn_of_war(*units, game=game or {"battle_round": 2}, markers=markers, terrain=terrain)


def square(tid: str, x0: float, y0: float, x1: float, y1: float) -> TerrainPiece:
    return TerrainPiece(tid, ((x0, y0), (x1, y0), (x1, y1), (x0, y1)))


def test_triangulate_from_the_second_round_excluding_the_home_objective() -> None:
    s = scenario(unit("red-w", 10, 22 - IN_RANGE), unit("red-h", 30, 6 + IN_RANGE))
    assert action_options(s, "red", "TRIANGULATE", battle_round=1).options == ()
    found = action_options(s, "red", "TRIANGULATE")
    assert found.options == (ActionOption("red-w", "obj-expansion-w"),)
    assert "red-h" in found.refused
    past = scenario(unit("red-w", 10, 22 - IN_RANGE - 1e-4))
    assert action_options(past, "red", "TRIANGULATE").options == ()


def test_sensor_sweep_needs_two_operation_markers() -> None:
    at_centre = unit("red-c", 30, 22 - IN_RANGE)
    one = scenario(at_centre, markers=(Marker("m1", "operation", 5, 5, "blue"),))
    assert action_options(one, "red", "SENSOR SWEEP").refusal == (
        "RESTRICTIONS: A unit cannot start this action if there is only one operation marker on "
        "the battlefield."
    )
    two = scenario(
        at_centre,
        markers=(Marker("m1", "operation", 5, 5, "blue"), Marker("m2", "operation", 6, 6, "red")),
    )
    assert action_options(two, "red", "SENSOR SWEEP").units() == ("red-c",)


def test_decoyed_and_marked_objectives_are_not_eligible() -> None:
    game = {
        "battle_round": 2,
        "players": {"red": {"objective_status": {"decoyed": ["obj-centre"]}}},
    }
    s = scenario(unit("red-c", 30, 22 - IN_RANGE), game=game)
    assert action_options(s, "red", "DECOY").options == ()
    assert action_options(s, "red", "SABOTAGE").units() == ("red-c",)
    marked = scenario(
        unit("red-c", 30, 22 - IN_RANGE), markers=(Marker("m", "operation", 30, 22, "red"),)
    )
    assert action_options(marked, "red", "EXTRACT INTELLIGENCE").options == ()
    theirs = scenario(
        unit("red-c", 30, 22 - IN_RANGE), markers=(Marker("m", "operation", 30, 22, "blue"),)
    )
    assert action_options(theirs, "red", "EXTRACT INTELLIGENCE").units() == ("red-c",)


def test_plunder_terrain_area_must_not_be_within_your_territory() -> None:
    touching = square("touching", 40, 22, 46, 28)
    crossing = square("crossing", 40, 21.99, 46, 28)
    for piece, allowed in ((touching, True), (crossing, False)):
        s = scenario(unit("red-p", 43, 25), terrain=(piece,))
        assert bool(action_options(s, "red", "PLUNDER").options) is allowed, piece.id
    vanguard = scenario(unit("red-v", 43, 25), terrain=(touching,))
    assert action_options(vanguard, "red", "VANGUARD OPERATION").options == (
        ActionOption("red-v", None, "touching"),
    )
    home_side = scenario(unit("red-v", 43, 18), terrain=(square("south", 40, 15, 46, 22),))
    assert action_options(home_side, "red", "VANGUARD OPERATION").options == ()


def test_booby_trap_needs_an_untrapped_terrain_area() -> None:
    in_zone = square("zone-ruin", 27, 9, 33, 11.5)
    s = scenario(unit("red-t", 30, 10), terrain=(in_zone,))
    assert action_options(s, "red", "BOOBY TRAP").options == ()
    nml = square("nml-ruin", 5, 15, 15, 20)
    t = scenario(unit("red-t", 10, 17), terrain=(nml,))
    assert action_options(t, "red", "BOOBY TRAP").options == (
        ActionOption("red-t", None, "nml-ruin"),
    )
    game = {"battle_round": 2, "players": {"red": {"objective_status": {"trapped": ["nml-ruin"]}}}}
    trapped = scenario(unit("red-t", 10, 17), terrain=(nml,), game=game)
    assert action_options(trapped, "red", "BOOBY TRAP").options == ()


def test_use_limits() -> None:
    check_starts("SECURE ASSET", [ActionOption("a", "o1")])
    with pytest.raises(RulesError, match="Once per turn"):
        check_starts("SECURE ASSET", [ActionOption("a", "o1"), ActionOption("b", "o2")])
    check_starts("SABOTAGE", [ActionOption("a", "o1"), ActionOption("b", "o2")])
    with pytest.raises(RulesError, match="different objective"):
        check_starts("CLEANSE", [ActionOption("a", "o1"), ActionOption("b", "o1")])
    with pytest.raises(RulesError, match="different terrain area"):
        check_starts("BOOBY TRAP", [ActionOption("a", None, "t"), ActionOption("b", None, "t")])
    with pytest.raises(RulesError, match="at most once"):
        check_starts("SURVEIL THE FOE", [ActionOption("a"), ActionOption("a")])
    with pytest.raises(UnknownReferenceError):
        objective_action("DANCE")


def test_punishment_condemns_units_at_objectives_or_that_killed() -> None:
    from engine.rulesets.wh40k_ca2026.actions import check_condemned, condemn_candidates

    game = {
        "battle_round": 2,
        "destroyed_previous_turn": [
            {"unit": "red-x", "player": "red", "name": "Red X", "by": "blue-k"}
        ],
    }
    s = scenario(
        unit("blue-o", 10, 22 + IN_RANGE, "blue"),
        unit("blue-k", 50, 40, "blue"),
        unit("blue-far", 5, 40, "blue"),
        game=game,
    )
    assert condemn_candidates(s, "red") == (("blue-k", "blue-o"), True)
    check_condemned(s, "red", ["blue-k", "blue-o"])
    with pytest.raises(RulesError, match="cannot be condemned"):
        check_condemned(s, "red", ["blue-far"])
    quiet = scenario(unit("blue-far", 5, 40, "blue"), unit("blue-b", 6, 41, "blue"))
    assert condemn_candidates(quiet, "red") == (("blue-b", "blue-far"), False)
    with pytest.raises(RulesError, match="select 1 to 1"):
        check_condemned(quiet, "red", ["blue-far", "blue-b"])


def test_locate_and_deny_terrain_outside_your_zone() -> None:
    from engine.rulesets.wh40k_ca2026.actions import locate_and_deny_areas

    pieces = (
        square("in-zone", 27, 9, 33, 11.5),
        square("touching", 27, 12, 33, 14),
        square("far", 5, 35, 9, 40),
    )
    s = scenario(terrain=pieces)
    assert locate_and_deny_areas(s, "red") == ("touching", "far")
    assert locate_and_deny_areas(s, "blue") == ("in-zone", "touching")


@pytest.mark.parametrize(("gap", "eligible"), [(0.0, True), (1e-4, False)])
def test_booby_trap_from_the_second_footprint_of_a_terrain_area(
    gap: float, eligible: bool
) -> None:
    """"Within one terrain area": any of its footprints; the unit's base touches only the
    second one (its east edge at x = 15)."""
    first, second = square("p", 40, 25, 45, 30).area, square("p", 5, 15, 15, 20).area
    piece = TerrainPiece("two-part", first, other_footprints=(second,))
    radius = BASE.bounding_radius
    s = scenario(unit("red-t", 15 + radius + gap, 17), terrain=(piece,))
    expected = (ActionOption("red-t", None, "two-part"),) if eligible else ()
    assert action_options(s, "red", "BOOBY TRAP").options == expected


def test_a_terrain_area_is_within_a_zone_when_its_second_footprint_is() -> None:
    """Locate and Deny: a terrain area is within a zone when any part of any footprint is."""
    nml, in_zone = square("p", 5, 15, 9, 20).area, square("p", 27, 9, 33, 11.5).area
    piece = TerrainPiece("two-part", nml, other_footprints=(in_zone,))
    s = scenario(terrain=(piece,))
    assert locate_and_deny_areas(s, "red") == ()
    assert locate_and_deny_areas(s, "blue") == ("two-part",)
