"""Battle Formations (12" edge, 2" coherency, 2" between units) and Scout And Secure."""

from __future__ import annotations

import pytest
from shared_builders import model, scenario, unit

from engine.errors import RulesError
from engine.model import RectBase
from engine.rulesets.shared_modules.formations import (
    battle_formations,
    deployment_order,
    follower_violations,
    lead_model_violations,
    scout_and_secure,
    targeting_check,
)
from engine.rulesets.shared_modules.ledgers import PlayerLedgers

EPS = 1e-4


@pytest.mark.parametrize(("offset", "broken"), [(0.0, False), (EPS, True), (-EPS, False)])
def test_every_point_of_a_base_within_12_inches_of_the_table_edge(
    offset: float, broken: bool
) -> None:
    s = scenario(units=[unit("red-a", "red", model("a1", 10, 11.5 + offset))])
    violations = battle_formations(s).violations
    assert bool(violations) is broken
    if broken:
        assert violations[0].rule == "Battle Formations"
        assert 'within 12" of their table edge' in violations[0].message


def test_the_second_player_deploys_from_the_north_edge_and_the_any_measure() -> None:
    s = scenario(units=[unit("blue-a", "blue", model("b1", 10, 44 - 11.5 - EPS))])
    assert battle_formations(s).violations
    lenient = scenario(units=s.units, options={"formation_edge_measure": "any"})
    assert not battle_formations(lenient).violations
    assert battle_formations(s).edges == {"red": "south", "blue": "north"}


def test_a_rotated_hull_is_measured_exactly() -> None:
    hull = model("t1", 10, 0, RectBase(101.6, 50.8), rotation=90)  # reaches 2" along y
    fits = scenario(units=[unit("tank", "red", hull.placed(10, 10))])
    assert not battle_formations(fits).violations
    too_far = scenario(units=[unit("tank", "red", hull.placed(10, 10 + EPS))])
    assert battle_formations(too_far).violations


@pytest.mark.parametrize(("gap", "broken"), [(2.0, False), (2.0 + EPS, True)])
def test_models_within_2_inches_of_another_model_of_their_unit(gap: float, broken: bool) -> None:
    s = scenario(units=[unit("red-a", "red", model("a1", 10, 5), model("a2", 11 + gap, 5))])
    found = battle_formations(s).violations
    assert len(found) == (2 if broken else 0)
    if broken:
        assert found[0].items == ("red-a", "a1", "a2")


def test_a_model_alone_needs_no_unit_mate() -> None:
    assert not battle_formations(
        scenario(units=[unit("hero", "red", model("h", 30, 5))])
    ).violations


@pytest.mark.parametrize(("gap", "broken"), [(2.0, False), (2.0 - EPS, True)])
def test_units_at_least_2_inches_apart(gap: float, broken: bool) -> None:
    s = scenario(
        units=[unit("a", "red", model("a1", 10, 5)), unit("b", "red", model("b1", 11 + gap, 5))]
    )
    found = battle_formations(s).violations
    assert bool(found) is broken
    if broken:
        assert found[0].distance == pytest.approx(gap)
        assert found[0].points == ((10, 5), (11 + gap, 5))


def test_off_table_models_and_undeployed_units() -> None:
    s = scenario(
        units=[unit("a", "red", model("a1", 10, 0.3)), unit("b", "red", model("b1", 30, 30))],
        game={"shared_modules": {"undeployed": ["b"]}},
    )
    messages = [v.message for v in battle_formations(s).violations]
    assert len(messages) == 1
    assert "over the south edge" in messages[0]


def test_who_deploys_first() -> None:
    assert deployment_order(scenario()) == ("red", "blue")
    assert deployment_order(scenario(options={"deploys_first": "blue"})) == ("blue", "red")
    with pytest.raises(RulesError):
        deployment_order(scenario(options={"deploys_first": "green"}))


def test_scout_and_secure_spends_threat_points_equal_to_the_cost() -> None:
    scouts = unit("red-scouts", "red", model("s1", 10, 0.5), cost=4)
    ledgers = PlayerLedgers.start("red", threat=5, command=2)
    after = scout_and_secure(ledgers, scouts, turn=2)
    assert (after.threat.balance, after.command.balance) == (1, 2)
    with pytest.raises(RulesError):
        scout_and_secure(after, scouts)
    with pytest.raises(RulesError):
        scout_and_secure(PlayerLedgers.start("blue", threat=9), scouts)


@pytest.mark.parametrize(("y", "broken"), [(0.5, False), (0.5 + EPS, True), (0.5 - EPS, True)])
def test_the_lead_model_goes_onto_the_table_edge(y: float, broken: bool) -> None:
    s = scenario(units=[unit("red-scouts", "red", model("s1", 10, y), model("s2", 10, 3))])
    assert bool(lead_model_violations(s, "red-scouts", "s1")) is broken


@pytest.mark.parametrize(("gap", "broken"), [(2.0, False), (2.0 + EPS, True)])
def test_the_rest_of_the_unit_within_2_inches_of_the_lead(gap: float, broken: bool) -> None:
    s = scenario(
        units=[unit("red-scouts", "red", model("s1", 10, 0.5), model("s2", 10, 1.5 + gap))]
    )
    assert bool(follower_violations(s, "red-scouts", "s1")) is broken


def test_targeting_protection_until_the_first_move() -> None:
    game = {"shared_modules": {"scout_and_secure": {"red-scouts": {"lead": "s1", "moved": False}}}}
    s = scenario(
        units=[unit("red-scouts", "red", model("s1", 10, 0.5), model("s2", 12, 0.5))], game=game
    )
    assert not targeting_check(s, "s1", "direct").allowed
    assert targeting_check(s, "s1", "template", chooses_model_as_target=False).allowed
    assert targeting_check(s, "s1", "template", chooses_model_as_target=False).protected
    assert not targeting_check(s, "s1", "splash", chooses_model_as_target=True).allowed
    assert targeting_check(s, "s2", "direct").allowed
    moved = {"shared_modules": {"scout_and_secure": {"red-scouts": {"lead": "s1", "moved": True}}}}
    assert targeting_check(scenario(units=s.units, game=moved), "s1", "direct").allowed
