"""The ``game`` section: its table of checks, the bounds of each key, and the typed view."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine import game_state
from engine.errors import Problem
from engine.game_state import (
    GAME_KEYS,
    PLAYER_KEYS,
    GameIds,
    GameState,
    PlayerGameState,
    integer_check,
    list_check,
    reference_check,
    validate_game,
)
from engine.model import Player, Scenario, freeze
from engine.scenario_io import load_scenario

IDS = GameIds(
    players=frozenset({"red", "blue"}),
    units=frozenset({"red-intercessors"}),
    objectives=frozenset({"obj-centre"}),
)
SPEC_GAME: dict[str, Any] = {
    "battle_round": 2,
    "active_player": "red",
    "timing": "end_of_command_phase",
    "twist": "night-fighting",
    "players": {
        "red": {
            "force_disposition": "Take and Hold",
            "primary": "BATTLEFIELD DOMINANCE",
            "secondary_mode": "tactical",
            "secondaries": ["CENTRE GROUND"],
            "vp": 7,
            "cp": 2,
        },
        "blue": {
            "force_disposition": "Purge the Foe",
            "primary": "MEATGRINDER",
            "secondary_mode": "fixed",
            "secondaries": ["ASSASSINATION", "BRING IT DOWN"],
        },
    },
}


def messages(data: object) -> list[str]:
    return [str(p) for p in validate_game(data, "game", IDS)]


def test_the_specs_example_is_valid() -> None:
    assert validate_game(SPEC_GAME, "game", IDS) == []


def test_an_empty_section_is_valid() -> None:
    assert validate_game({}, "game", IDS) == []


@pytest.mark.parametrize(("battle_round", "valid"), [(0, False), (1, True), (5, True), (6, False)])
def test_battle_round_bounds(battle_round: int, valid: bool) -> None:
    found = messages({"battle_round": battle_round})
    if valid:
        assert found == []
    else:
        assert found == [f"game.battle_round: must be an integer from 1 to 5, got {battle_round}"]


@pytest.mark.parametrize("value", [2.0, "2", True, None])
def test_battle_round_must_be_an_integer(value: object) -> None:
    assert len(messages({"battle_round": value})) == 1
    assert messages({"battle_round": value})[0].startswith("game.battle_round: must be an integer")


@pytest.mark.parametrize(
    "timing", ["start_of_turn", "end_of_command_phase", "end_of_turn", "end_of_battle"]
)
def test_every_timing_of_the_spec_is_accepted(timing: str) -> None:
    assert messages({"timing": timing}) == []


def test_unknown_timing() -> None:
    assert messages({"timing": "end_of_phase"}) == [
        "game.timing: must be one of start_of_turn, end_of_command_phase, end_of_turn, "
        'end_of_battle; got "end_of_phase"'
    ]


@pytest.mark.parametrize(("key", "value"), [("vp", -1), ("cp", -1), ("vp", 0.5)])
def test_points_are_non_negative_integers(key: str, value: object) -> None:
    found = messages({"players": {"red": {key: value}}})
    assert len(found) == 1
    assert found[0].startswith(f"game.players.red.{key}: must be an integer")


def test_zero_points_are_allowed() -> None:
    assert messages({"players": {"red": {"vp": 0, "cp": 0}}}) == []


def test_secondaries_are_a_list_of_names() -> None:
    assert messages({"players": {"blue": {"secondaries": "ASSASSINATION"}}}) == [
        'game.players.blue.secondaries: must be an array, got "ASSASSINATION"'
    ]
    assert messages({"players": {"blue": {"secondaries": ["ASSASSINATION", ""]}}}) == [
        'game.players.blue.secondaries[1]: must be a non-empty string, got ""'
    ]


def test_secondary_mode() -> None:
    assert messages({"players": {"red": {"secondary_mode": "random"}}}) == [
        'game.players.red.secondary_mode: must be one of tactical, fixed; got "random"'
    ]


def test_unknown_keys_are_errors_at_both_levels() -> None:
    found = messages({"round": 2, "players": {"red": {"victory_points": 3}}})
    assert len(found) == 2
    # Other streams add keys to the tables, so only the spec's keys are pinned here.
    assert found[0].startswith(
        "game.round: unknown key (allowed: battle_round, active_player, timing, twist, players"
    )
    assert found[1].startswith(
        "game.players.red.victory_points: unknown key (allowed: force_disposition, primary, "
        "secondary_mode, secondaries, vp, cp"
    )


def test_references_to_players() -> None:
    assert messages({"active_player": "green"}) == [
        'game.active_player: unknown player "green"; known: blue, red'
    ]
    assert messages({"players": {"green": {}}}) == [
        'game.players.green: unknown player "green"; known: blue, red'
    ]


def test_section_must_be_an_object() -> None:
    assert messages([1]) == ["game: must be an object, got an array"]


def test_a_new_key_is_one_table_entry(monkeypatch: pytest.MonkeyPatch) -> None:
    """How H4 (and anyone after) extends the section: add an entry, get validation."""
    monkeypatch.setitem(GAME_KEYS, "destroyed_units", list_check(reference_check("units")))
    monkeypatch.setitem(PLAYER_KEYS, "turn_vp", integer_check(0, 15))
    assert (
        messages({"destroyed_units": ["red-intercessors"], "players": {"red": {"turn_vp": 15}}})
        == []
    )
    assert messages({"destroyed_units": ["nobody"], "players": {"red": {"turn_vp": 16}}}) == [
        'game.destroyed_units[0]: unknown unit "nobody"; known: red-intercessors',
        "game.players.red.turn_vp: must be an integer from 0 to 15, got 16",
    ]


def test_problems_are_problems() -> None:
    assert validate_game({"twist": ""}, "x", IDS) == [
        Problem("x.twist", 'must be a non-empty string, got ""')
    ]


def test_typed_view_of_the_specs_example() -> None:
    scenario = Scenario("wh40k-ca2026", (Player("red"), Player("blue")), game=freeze(SPEC_GAME))
    state = GameState.from_scenario(scenario)
    assert state.battle_round == 2
    assert state.active_player == "red"
    assert state.timing == "end_of_command_phase"
    assert state.twist == "night-fighting"
    assert state.player("red") == PlayerGameState(
        "Take and Hold", "BATTLEFIELD DOMINANCE", "tactical", ("CENTRE GROUND",), 7, 2
    )
    assert state.player("blue").vp == 0
    assert state.player("blue").secondaries == ("ASSASSINATION", "BRING IT DOWN")
    assert state.raw["twist"] == "night-fighting"


def test_typed_view_without_a_game_section() -> None:
    state = GameState.from_scenario(Scenario("wh40k-ca2026", (Player("red"), Player("blue"))))
    assert state == GameState()
    assert state.player("red") == PlayerGameState()


def test_the_demo_game_section() -> None:
    demo = load_scenario(
        Path(game_state.__file__).resolve().parents[1]
        / "assets"
        / "scenarios"
        / "demo.warplan.json"
    )
    state = GameState.from_scenario(demo)
    assert (state.battle_round, state.active_player) == (2, "red")
    assert state.player("red").force_disposition == "Take and Hold"
    assert state.player("blue").force_disposition == "Purge the Foe"


def test_ruleset_sections_are_checked_by_their_modules() -> None:
    players, units = frozenset({"red", "blue"}), frozenset({"u1"})
    sh = GameIds(players=players, units=units, ruleset="scrollhammer")
    sm = GameIds(players=players, units=units, ruleset="shared-modules")
    assert validate_game({"scrollhammer": {"turn": 3, "destroyed": ["u1"]}}, "game", sh) == []
    paths = [p.path for p in validate_game({"scrollhammer": {"turn": 8}}, "game", sh)]
    assert paths == ["game.scrollhammer.turn"]
    assert validate_game({"shared_modules": []}, "game", sm) != []


def test_a_section_of_another_rule_system_is_checked_by_it_and_kept() -> None:
    """The rule systems' sections come from ``Ruleset.game_section_checks``; a file that changed
    rule system keeps its old section (it opens as it did), still checked by its system."""
    players = frozenset({"red", "blue"})
    sh = GameIds(players=players, ruleset="scrollhammer")
    ca = GameIds(players=players, ruleset="wh40k-ca2026")
    assert validate_game({"shared_modules": {}}, "game", sh) == []
    assert [str(p) for p in validate_game({"scrollhammer": {}, "battle_round": 6}, "g", ca)] == [
        "g.battle_round: must be an integer from 1 to 5, got 6",
    ]
    assert validate_game({"scrollhammer": {"nonsense": 1}}, "g", ca)


def test_a_destroyed_unit_is_a_unit_of_the_file_or_carries_its_name() -> None:
    """Issue 12 case 7: a destroyed unit may be gone from the file, so an unknown id is kept
    when the record names the unit or is no typo of a unit of the file; an id within two edits
    of a unit of the file and no name is refused with the suggestion (files recording a unit
    gone from the table open as they did)."""
    ok = {"unit": "red-intercessors", "player": "red"}
    named = {"unit": "red-terminators", "player": "red", "name": "Terminator Squad"}
    assert messages({"destroyed_this_turn": [ok, named], "destroyed_previous_turn": [named]}) == []
    two_edits = {"unit": "red-intercesors!", "player": "red"}
    three_edits = {"unit": "red-intrcesors!", "player": "red"}
    both = {"destroyed_this_turn": [two_edits], "destroyed_previous_turn": [three_edits]}
    assert messages(both) == [
        'game.destroyed_this_turn[0].unit: unknown unit "red-intercesors!"; did you mean '
        '"red-intercessors"? (a unit gone from the file needs its "name")',
    ]
    assert messages({"destroyed_this_turn": [{**two_edits, "name": "Intercessors"}]}) == []
    assert messages({"destroyed_this_turn": [{**named, "name": ""}]}) == [
        'game.destroyed_this_turn[0].name: must be a non-empty string, got ""'
    ]


def test_scrollhammer_battles_last_up_to_seven_rounds() -> None:
    """Scrollhammer's Variable Game Length ends at the close of game turn 7 at the latest."""
    import json
    from pathlib import Path

    from engine.errors import ScenarioError
    from engine.scenario_io import parse_scenario

    root = Path(__file__).resolve().parents[2]
    document = json.loads((root / "assets/scrollhammer/held-ground-demo.warplan.json").read_text())
    document.setdefault("game", {})["battle_round"] = 7
    assert parse_scenario(document).game is not None
    document["game"]["battle_round"] = 8
    with pytest.raises(ScenarioError, match="game.battle_round: must be an integer from 1 to 7"):
        parse_scenario(document)
    chapter_approved = json.loads((root / "assets/scenarios/demo.warplan.json").read_text())
    chapter_approved["game"]["battle_round"] = 6
    with pytest.raises(ScenarioError, match="from 1 to 5, got 6"):
        parse_scenario(chapter_approved)


# ---------------------------------------------------------------------------------------------
# Names are checked against the ruleset's data, with the closest valid names; sizes are bounded


def test_a_misspelt_twist_is_refused_with_the_name_meant() -> None:
    assert messages({"twist": "night-figthing"}) == [
        'game.twist: unknown twist "night-figthing"; did you mean "night-fighting"?'
    ]
    assert messages({"twist": "night-fighting"}) == []
    assert messages({"twist": "Night Fighting"}) == []


def test_unknown_primary_and_force_disposition_are_refused() -> None:
    found = messages({"players": {"red": {"primary": "BATTLEFIELD DOMINANSE"}}})
    assert found == [
        'game.players.red.primary: unknown Primary Mission "BATTLEFIELD DOMINANSE"; '
        'did you mean "BATTLEFIELD DOMINANCE"?'
    ]
    found = messages({"players": {"red": {"force_disposition": "Take and Holt"}}})
    assert found == [
        'game.players.red.force_disposition: unknown Force Disposition "Take and Holt"; '
        'did you mean "Take and Hold"?'
    ]


def test_secondaries_must_be_known_distinct_and_few() -> None:
    assert messages({"players": {"red": {"secondaries": ["CENTRE GROUNDS"]}}}) == [
        'game.players.red.secondaries[0]: unknown Secondary Mission "CENTRE GROUNDS"; '
        'did you mean "CENTRE GROUND"?'
    ]
    assert messages({"players": {"red": {"secondaries": ["CENTRE GROUND"] * 2}}}) == [
        'game.players.red.secondaries[1]: "CENTRE GROUND" is listed twice'
    ]
    flood = {"players": {"red": {"secondaries": ["CENTRE GROUND"] * 10**6}}}
    assert messages(flood) == [
        "game.players.red.secondaries: must have at most 20 items, got 1000000"
    ]


@pytest.mark.parametrize(
    ("value", "valid"), [(10_000, True), (10_001, False), (10**400, False), (-1, False)]
)
def test_points_are_bounded(value: int, valid: bool) -> None:
    found = messages({"players": {"red": {"vp": value}}})
    assert (found == []) is valid
    if not valid:
        assert found[0].startswith("game.players.red.vp: must be an integer")


def test_a_deck_seed_is_a_signed_64_bit_integer() -> None:
    for seed, valid in ((2**63 - 1, True), (-(2**63), True), (2**63, False), (-(2**63) - 1, False)):
        found = messages({"players": {"red": {"deck": {"mode": "tactical", "seed": seed}}}})
        assert (found == []) is valid, (seed, found)


def test_game_lists_are_bounded() -> None:
    entry = {"unit": "gone", "player": "red", "name": "Gone Squad"}
    assert messages({"destroyed_this_turn": [entry] * 1000}) == []
    assert messages({"destroyed_this_turn": [entry] * 1001}) == [
        "game.destroyed_this_turn: must have at most 1000 items, got 1001"
    ]


# ---------------------------------------------------------------------------------------------
# Typed views: what the engine reads of the game section


def state_of(game: dict[str, Any]) -> GameState:
    from engine.scenario_io import parse_scenario

    document = {
        "format": "warplan.scenario",
        "version": 1,
        "ruleset": "wh40k-ca2026",
        "battlefield": {"width": 60, "depth": 44},
        "players": [{"id": "red"}, {"id": "blue"}],
        "objectives": [{"id": "obj-centre", "x": 30, "y": 22}],
        "game": game,
    }
    return GameState.from_scenario(parse_scenario(document))


def test_a_list_not_recorded_is_none_and_an_empty_one_is_a_record_of_nothing() -> None:
    absent = state_of({})
    assert absent.destroyed_this_turn is None
    assert absent.models_destroyed_this_turn is None
    assert absent.player("red").condemned is None
    empty = state_of(
        {
            "destroyed_this_turn": [],
            "models_destroyed_this_turn": [],
            "players": {"red": {"condemned": []}},
        }
    )
    assert empty.destroyed_this_turn == ()
    assert empty.models_destroyed_this_turn == ()
    assert empty.player("red").condemned == ()


def test_destroyed_units_and_models_are_typed() -> None:
    state = state_of(
        {
            "destroyed_this_turn": [
                {
                    "unit": "gone",
                    "player": "blue",
                    "name": "Gone Squad",
                    "by": "red-1",
                    "starting_strength": 10,
                }
            ],
            "models_destroyed_this_turn": [
                {"model": "m", "player": "blue", "wounds": 4, "keywords": ["CHARACTER"]}
            ],
        }
    )
    assert state.destroyed_this_turn is not None
    (unit,) = state.destroyed_this_turn
    assert (unit.unit, unit.player, unit.name, unit.by, unit.starting_strength) == (
        "gone",
        "blue",
        "Gone Squad",
        "red-1",
        10,
    )
    assert unit.started_within_terrain == ()
    assert state.models_destroyed_this_turn is not None
    (model,) = state.models_destroyed_this_turn
    assert (model.wounds, model.keywords) == (4, ("CHARACTER",))


def test_card_choices_come_from_the_deck_first() -> None:
    state = state_of(
        {
            "players": {
                "red": {
                    "card_choices": {"BEACON": {"target": "from-choices"}},
                    "deck": {
                        "mode": "tactical",
                        "active": [
                            {"card": "BEACON", "choices": {"target": "from-deck"}}
                        ],
                    },
                },
                "blue": {"card_choices": {"BEACON": {"target": "only"}}},
            }
        }
    )
    assert state.player("red").choices_for("BEACON") == {"target": "from-deck"}
    assert state.player("blue").choices_for("BEACON") == {"target": "only"}
    assert state.player("blue").choices_for("ASSASSINATION") == {}
