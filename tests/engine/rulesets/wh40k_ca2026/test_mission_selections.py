"""WHEN DRAWN selections of one unit or objective: what Beacon and A Tempting Target may pick,
why nothing can be picked, and that :func:`decks.choose` accepts exactly those choices."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from mission_builders import BASE
from mission_builders import dawn_of_war as scenario

from engine.errors import RulesError
from engine.model import Model, Objective, Scenario, Unit
from engine.rulesets.wh40k_ca2026 import decks as d
from engine.rulesets.wh40k_ca2026.cards import secondary_missions

START = d.TurnContext(battle_round=2, moment="start_of_command_phase")
NO_MANS_LAND_SOUTH_EDGE = 12.0
"""Dawn of War: No Man's Land lies between y = 12" and y = 32"."""


def unit(uid: str, player: str, x: float, y: float) -> Unit:
    return Unit(uid, player, (Model(f"{uid}-1", x, y, BASE),))


def with_objectives(*objectives: Objective) -> Scenario:
    return replace(scenario(game={}), objectives=objectives)


def drawn(name: str) -> d.DeckState:
    """A Tactical deck with ``name`` just drawn."""
    rest = [c.name for c in secondary_missions() if c.name != name]
    deck, _ = d.draw(d.DeckState("tactical", (name, *rest), seed=3, shuffles=1), START)
    return deck


def test_beacon_may_pick_any_of_the_players_units_on_the_battlefield() -> None:
    s = scenario(unit("red-a", "red", 10, 5), unit("red-b", "red", 20, 5), game={})
    beacon = d.selection_choices(s, "red", "beacon")
    assert (beacon.card, beacon.choice, beacon.chooser) == ("BEACON", "beacon_unit", "you")
    assert beacon.ids == ("red-a", "red-b")
    assert beacon.reason == ""
    assert beacon.allowed == "one friendly unit on the battlefield"


def test_beacon_without_units_on_the_battlefield_has_no_choice_and_says_why() -> None:
    s = replace(
        scenario(unit("blue-a", "blue", 10, 40), game={}),
        reserves=(unit("red-reserve", "red", 0, 0),),
    )
    beacon = d.selection_choices(s, "red", "BEACON")
    assert beacon.ids == ()
    assert beacon.reason == "red has no unit on the battlefield"


def test_tempting_target_may_pick_objectives_in_no_mans_land_but_not_home_ones() -> None:
    target = d.selection_choices(scenario(game={}), "red", "A TEMPTING TARGET")
    assert (target.choice, target.chooser) == ("tempting_target", "opponent")
    assert target.ids == ("obj-centre", "obj-expansion-w", "obj-expansion-e")
    assert target.reason == ""


def test_tempting_target_at_the_edge_of_no_mans_land() -> None:
    on_edge = Objective("obj-edge", 30, NO_MANS_LAND_SOUTH_EDGE, "expansion")
    inside = replace(on_edge, id="obj-inside", y=NO_MANS_LAND_SOUTH_EDGE + 1e-3)
    target = d.selection_choices(with_objectives(on_edge, inside), "red", "A TEMPTING TARGET")
    assert target.ids == ("obj-inside",)


def test_tempting_target_with_only_a_home_objective_in_no_mans_land_has_no_choice() -> None:
    home = Objective("obj-home-red", 30, 20, "home", "red")
    target = d.selection_choices(with_objectives(home), "blue", "A TEMPTING TARGET")
    assert target.ids == ()
    assert target.reason == "no objective other than a home objective lies within No Man's Land"


def test_tempting_target_without_a_deployment_has_no_choice() -> None:
    s = replace(scenario(game={}), deployment=None)
    target = d.selection_choices(s, "red", "A TEMPTING TARGET")
    assert target.ids == ()
    assert "no deployment" in target.reason


@pytest.mark.parametrize(
    "name",
    [c.name for c in secondary_missions() if c.name not in ("BEACON", "A TEMPTING TARGET")],
)
def test_other_cards_have_no_selection_of_one_unit_or_objective(name: str) -> None:
    with pytest.raises(RulesError, match="no WHEN DRAWN selection of one unit or objective"):
        d.selection_choices(scenario(game={}), "red", name)


@pytest.mark.parametrize("name", ["BEACON", "A TEMPTING TARGET"])
def test_choose_accepts_exactly_the_listed_choices(name: str) -> None:
    s = scenario(unit("red-a", "red", 10, 5), unit("blue-a", "blue", 10, 40), game={})
    selection = d.selection_choices(s, "red", name)
    deck = drawn(name)
    for chosen in selection.ids:
        after, _ = d.choose(deck, name, selection.choice, chosen, scenario=s, player="red")
        assert after.active_card(name).choices[selection.choice] == chosen
    for refused in ("blue-a", "obj-home-red"):
        with pytest.raises(RulesError, match=re.escape(f"must be {selection.allowed}")):
            d.choose(deck, name, selection.choice, refused, scenario=s, player="red")
