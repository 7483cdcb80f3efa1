"""Twists wired into the engine: Night Fighting's 18", Nowhere to Hide's non-solid features,
and decks saved in the scenario's game section."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from engine.model import (
    CircleBase,
    Model,
    Player,
    Scenario,
    TerrainFeature,
    TerrainPiece,
    Unit,
    freeze,
)
from engine.rulesets.wh40k_ca2026 import decks as d
from engine.rulesets.wh40k_ca2026.cards import twist
from engine.scenario_io import loads_scenario, scenario_to_json
from engine.visibility import visibility

BASE = CircleBase(32)


def pair(gap: float, twist_id: str | None, wall: bool = False) -> Scenario:
    """Two single-model units whose bases are ``gap`` inches apart, maybe a wall between."""
    r = BASE.radius
    red = Unit("red-u", "red", (Model("r1", 10.0, 10.0, BASE),))
    blue = Unit("blue-u", "blue", (Model("b1", 10.0 + 2 * r + gap, 10.0, BASE),))
    terrain: tuple[TerrainPiece, ...] = ()
    if wall:
        x = 10.0 + r + gap / 2
        shape = ((x - 0.1, 0.0), (x + 0.1, 0.0), (x + 0.1, 20.0), (x - 0.1, 20.0))
        terrain = (TerrainPiece("wall", shape, features=(TerrainFeature(shape, 5.0),)),)
    game = {"twist": twist_id} if twist_id else None
    return Scenario(
        "wh40k-ca2026",
        (Player("red"), Player("blue")),
        units=(red, blue),
        terrain=terrain,
        game=None if game is None else freeze(game),
    )


def seen(s: Scenario) -> bool:
    row = next(v for v in visibility(s) if v.observer == "red-u")
    return row.visible


def test_night_fighting_range_comes_from_the_card() -> None:
    limit = float(twist("night-fighting").effect["range"])
    assert limit == 18.0
    assert seen(pair(limit, "night-fighting"))
    assert not seen(pair(limit + 1e-4, "night-fighting"))
    assert seen(pair(limit + 10, None))


def test_nowhere_to_hide_makes_features_not_solid() -> None:
    assert twist("nowhere-to-hide").effect["kind"] == "terrain_features_not_solid"
    assert not seen(pair(6.0, None, wall=True))
    assert seen(pair(6.0, "nowhere-to-hide", wall=True))


def test_a_deck_saved_in_the_game_section_validates_and_reloads() -> None:
    base = pair(3.0, None)
    deck = d.new_tactical_deck(4)
    ctx = d.TurnContext(2, "start_of_command_phase")
    deck, _ = d.start_command_phase(deck, ctx)
    saved = d.with_deck(base, "red", deck)
    reloaded = loads_scenario(json.dumps(scenario_to_json(saved)))
    assert d.deck_of(reloaded, "red") == deck
    assert reloaded.game is not None
    assert list(reloaded.game["players"]["red"]["secondaries"]) == list(deck.active_names())
    assert d.deck_of(reloaded, "blue") is None
    end = d.TurnContext(2, "end_of_turn")
    after, event = d.discard_for_cp(deck, [deck.active_names()[0]], end)
    with_cp = d.with_deck(saved, "red", after, event)
    assert with_cp.game is not None
    assert with_cp.game["players"]["red"]["cp"] == 1
    assert saved.game is not None
    assert "cp" not in saved.game["players"]["red"], "the earlier value is untouched (undo)"


def test_a_corrupt_deck_is_refused_with_its_path() -> None:
    base = pair(3.0, None)
    data = scenario_to_json(
        replace(
            base,
            game=freeze(
                {"players": {"red": {"deck": {"mode": "tactical", "draw_pile": ["NO SUCH CARD"]}}}}
            ),
        )
    )
    from engine.errors import ScenarioError

    with pytest.raises(ScenarioError, match=r"game\.players\.red\.deck\.draw_pile\[0\]"):
        loads_scenario(json.dumps(data))
