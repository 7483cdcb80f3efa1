"""A deployment variant chosen for the game: the option, and the objectives placed for it."""

from __future__ import annotations

import pytest
from mission_builders import duel

from engine.deployments import load_deployment_map, resolve_deployment
from engine.errors import RulesError
from engine.model import Scenario
from engine.rulesets.wh40k_ca2026.cards import deployment_deck
from engine.rulesets.wh40k_ca2026.generator import (
    MissionSetup,
    new_game,
    setup_from_json,
    with_deployment_variant,
)
from engine.scenario_io import dumps_scenario

DISPOSITIONS = ("Take and Hold", "Purge the Foe")


def on_card(deployment: str | None, seed: int = 1, layout: str | None = None) -> Scenario:
    return new_game(
        duel(), seed=seed, force_dispositions=DISPOSITIONS, deployment=deployment, layout=layout
    )


def recorded_setup(scenario: Scenario) -> MissionSetup:
    assert scenario.game is not None
    return setup_from_json(scenario.game["setup"])


def placed(scenario: Scenario, which: str = "all") -> set[tuple[str, float, float, str]]:
    """The objectives as (id, x, y, role): ``all``, the ``central`` ones, or the ``card``'s."""
    return {
        (o.id, o.x, o.y, o.role)
        for o in scenario.objectives
        if which == "all" or (o.role == "central") == (which == "central")
    }


CHOICES = [
    (deployment, key, choice)
    for deployment, _name in deployment_deck()
    for key, dispute in load_deployment_map(deployment).disputes.items()
    for choice in dispute.choices
]


@pytest.mark.parametrize(("deployment", "key", "choice"), CHOICES)
def test_each_variant_a_card_offers_places_its_objectives(
    deployment: str, key: str, choice: str
) -> None:
    game = on_card(deployment)
    after = with_deployment_variant(game, {key: choice}, recorded_setup(game))
    assert after.options["deployment_variant"] == {key: choice}
    resolved = resolve_deployment(after)
    assert resolved is not None
    card_points = {
        (o.id, o.x, o.y, o.role) for o in resolved.objective_points if o.role != "central"
    }
    assert placed(after, "card") == card_points  # the card's points for this variant
    assert placed(after, "central") == placed(game, "central")  # the rolled central point(s)
    assert after.game == game.game  # the game in progress is kept
    assert (after.deployment, after.players, after.units) == (
        game.deployment,
        game.players,
        game.units,
    )


def test_the_11th_edition_candidate_moves_dawn_of_war_s_points() -> None:
    game = on_card("dawn-of-war")
    after = with_deployment_variant(game, {"objectives": "11e-candidate"}, recorded_setup(game))
    assert placed(after) != placed(game)
    back = with_deployment_variant(after, {"objectives": "10e"}, recorded_setup(game))
    assert placed(back) == placed(game)


def test_without_a_set_up_only_the_option_changes() -> None:
    game = on_card("dawn-of-war")
    after = with_deployment_variant(game, {"objectives": "11e-candidate"})
    assert after.options["deployment_variant"] == {"objectives": "11e-candidate"}
    assert after.objectives == game.objectives


def test_on_a_recommended_layout_the_objectives_stay_the_layout_s() -> None:
    game = on_card(None, layout="B")
    assert game.layout is not None
    assert isinstance(game.deployment, str)
    key, dispute = next(iter(load_deployment_map(game.deployment).disputes.items()))
    other = next(c for c in dispute.choices if c != dispute.default)
    after = with_deployment_variant(game, {key: other}, recorded_setup(game))
    assert after.options["deployment_variant"] == {key: other}
    assert after.objectives == game.objectives


@pytest.mark.parametrize(
    ("chosen", "named"),
    [
        ({"objectives": "12e-final"}, "12e-final"),
        ({"zone_depth": "9in"}, "9in"),
        ({"no_such_dispute": "10e"}, "no_such_dispute"),
    ],
)
def test_a_variant_the_card_does_not_offer_is_refused_and_nothing_changes(
    chosen: dict[str, str], named: str
) -> None:
    game = on_card("dawn-of-war")
    before = dumps_scenario(game)
    with pytest.raises(RulesError, match=named):
        with_deployment_variant(game, chosen, recorded_setup(game))
    with pytest.raises(RulesError, match=named):
        with_deployment_variant(game, chosen)
    assert dumps_scenario(game) == before
    assert "deployment_variant" not in game.options


def test_a_scenario_without_a_deployment_card_has_no_variant() -> None:
    with pytest.raises(RulesError, match="needs a Deployment card"):
        with_deployment_variant(duel(), {"objectives": "10e"})
