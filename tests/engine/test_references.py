"""References to deleted elements: the table of places that hold ids covers every reference the
file reader checks, and pruning leaves a document the reader accepts."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.edits import Selection, remove_selection
from engine.errors import ScenarioError
from engine.model import (
    Battlefield,
    CircleBase,
    CustomDeployment,
    DeploymentRegion,
    Model,
    Objective,
    Player,
    Scenario,
    TerrainPiece,
    Unit,
    freeze,
    thaw,
)
from engine.references import (
    EVERY_VALUE,
    GAME_REFERENCES,
    KEYS,
    dangling_references,
    element_ids,
    known_ids,
    prune_references,
    references,
)
from engine.rulesets import RULESET_IDS, ruleset_for
from engine.rulesets.wh40k_ca2026.cards import secondary_missions
from engine.scenario_io import dumps_scenario, load_scenario, loads_scenario

ASSETS = Path(__file__).resolve().parents[2] / "assets"
BASE = CircleBase(32)
SQUARE = ((0.0, 0.0), (4.0, 0.0), (4.0, 4.0), (0.0, 4.0))


def _reader_problems(scenario: Scenario) -> list[str]:
    """The paths the file reader rejects when ``scenario`` is saved and read back as each rule
    system in turn (``game`` sections are scoped per rule system, so each reading keeps the
    shared keys and that system's own sections; options are those of the scenario's own
    system, so the other readings drop them)."""
    sections = {key for r in RULESET_IDS for key in ruleset_for(r).game_section_checks}
    found: list[str] = []
    for ruleset_id in RULESET_IDS:
        foreign = sections - set(ruleset_for(ruleset_id).game_section_checks)
        game = {k: v for k, v in thaw(scenario.game or {}).items() if k not in foreign}
        options = scenario.options if ruleset_id == scenario.ruleset else freeze({})
        as_system = replace(scenario, ruleset=ruleset_id, game=freeze(game), options=options)
        try:
            loads_scenario(dumps_scenario(as_system))
        except ScenarioError as error:
            found.extend(p.path for p in error.problems if p.path not in found)
    return found


def _everything_referenced() -> Scenario:
    """A scenario whose ``game`` section names a missing element at every place that can.

    The ids starting ``gone-`` name nothing; the others exist.
    """
    card = secondary_missions()[0].name
    squad = Unit("squad", "red", (Model("squad-1", 5, 5, BASE), Model("squad-2", 7, 5, BASE)))
    choices = {
        "beacon_unit": "gone-unit",
        "tempting_target": "gone-obj",
        "guards": {"gone-obj": "squad", "obj-a": "gone-unit"},
    }
    loss = {
        "unit": "x",
        "player": "red",
        "name": "A unit gone from the file",
        "started_within_terrain": ["gone-ruin", "ruin"],
    }
    game = {
        "players": {
            "red": {
                "controlled_at_start_of_turn": ["obj-a", "gone-obj"],
                "objective_status": {
                    "decoyed": ["gone-obj"],
                    "triangulated": ["obj-a", "gone-obj"],
                    "consecrated": ["gone-obj"],
                    "trapped": ["gone-ruin", "ruin"],
                },
                "actions_completed_this_turn": [
                    {"action": "Cleanse", "objective": "gone-obj", "terrain": "gone-ruin"}
                ],
                "deck": {"mode": "tactical", "active": [{"card": card, "choices": choices}]},
                "card_choices": {card: dict(choices)},
            }
        },
        "destroyed_this_turn": [loss],
        "destroyed_previous_turn": [loss],
        "deployment": {"first": "red", "reserves": ["gone-unit"], "order": ["squad"]},
        "shared_modules": {
            "undeployed": ["gone-unit", "squad"],
            "destroyed": ["gone-unit"],
            "destroyed_this_turn": ["gone-unit"],
            "scout_and_secure": {
                "gone-unit": {"lead": "gone-model"},
                "squad": {"lead": "gone-model", "moved": False},
            },
        },
        "scrollhammer": {
            "destroyed": ["gone-unit"],
            "reserves": ["gone-unit", "squad"],
            "ongoing_reserves": ["gone-unit"],
            "arrived_from_reserve": ["gone-unit"],
            "control_choices": {"gone-unit": "obj-a", "squad": "gone-obj"},
            "standards_taken": [
                {"player": "red", "bearer": "gone-model"},
                {"player": "blue", "bearer": "squad-1"},
            ],
            "challenges": [
                {"winner": "gone-unit", "loser": "squad", "slain": True},
                {"winner": "squad", "loser": "gone-model"},
                {"winner": "squad-2", "loser": "squad"},
            ],
            "relic": {"carrier": "gone-model", "result": 7},
        },
    }
    return Scenario(
        "wh40k-ca2026",
        (Player("red"), Player("blue")),
        Battlefield(),
        units=(squad,),
        terrain=(TerrainPiece("ruin", SQUARE),),
        objectives=(Objective("obj-a", 10, 10), Objective("obj-b", 2, 2, terrain="gone-ruin")),
        game=freeze(game),
    )


def test_the_table_finds_every_reference_the_reader_rejects() -> None:
    scenario = _everything_referenced()
    rejected = set(_reader_problems(scenario))
    dangling = {ref.path for ref in dangling_references(scenario)}
    assert rejected, "the fixture must name missing elements the reader checks"
    assert rejected <= dangling
    # Selections of Secondary Missions are free objects to the reader, but name elements too.
    assert "game.players.red.deck.active[0].choices.beacon_unit" in dangling - rejected


def test_every_rule_of_the_table_finds_something_in_the_fixture() -> None:
    found = {ref.rule for ref in references(_everything_referenced()) if ref.rule is not None}
    assert set(GAME_REFERENCES) == found


def test_pruning_leaves_a_document_the_reader_accepts() -> None:
    scenario = _everything_referenced()
    pruned = prune_references(scenario)
    assert _reader_problems(pruned) == []
    assert dangling_references(pruned) == ()
    assert prune_references(pruned) is pruned
    game = thaw(pruned.game)
    red = game["players"]["red"]
    assert red["controlled_at_start_of_turn"] == ["obj-a"]
    assert red["objective_status"] == {
        "decoyed": [],
        "triangulated": ["obj-a"],
        "consecrated": [],
        "trapped": ["ruin"],
    }
    assert red["actions_completed_this_turn"] == [{"action": "Cleanse"}]
    active = red["deck"]["active"][0]
    assert active["choices"] == {"guards": {}}
    assert active["needs"] == ["beacon_unit", "tempting_target"]
    assert red["card_choices"][secondary_missions()[0].name] == {"guards": {}}
    assert game["destroyed_this_turn"][0]["started_within_terrain"] == ["ruin"]
    shared = game["shared_modules"]
    assert shared["undeployed"] == ["squad"]
    assert shared["scout_and_secure"] == {"squad": {"lead": "squad-1", "moved": False}}
    scroll = game["scrollhammer"]
    assert scroll["reserves"] == ["squad"]
    assert scroll["control_choices"] == {}
    assert scroll["standards_taken"] == [{"player": "blue", "bearer": "squad-1"}]
    assert scroll["challenges"] == [{"winner": "squad-2", "loser": "squad"}]
    assert scroll["relic"] == {"result": 7}
    assert pruned.objective("obj-b").terrain is None
    assert pruned.units is scenario.units


def test_a_scenario_with_nothing_dangling_is_returned_unchanged() -> None:
    scenario = load_scenario(ASSETS / "scenarios" / "demo.warplan.json")
    assert dangling_references(scenario) == ()
    assert prune_references(scenario) is scenario


def test_the_deleted_scout_unit_leaves_scout_and_secure() -> None:
    demo = load_scenario(ASSETS / "shared-modules" / "battle-formations-demo.warplan.json")
    without = replace(demo, units=tuple(u for u in demo.units if u.id != "blue-scouts"))
    assert "game.shared_modules.scout_and_secure.blue-scouts" in _reader_problems(without)
    pruned = prune_references(without)
    assert _reader_problems(pruned) == []
    assert pruned.game["shared_modules"]["scout_and_secure"] == {}
    assert pruned.game["shared_modules"]["ledgers"] == demo.game["shared_modules"]["ledgers"]


@pytest.mark.parametrize("lead_index", [0, 1])
def test_a_deleted_lead_model_hands_the_lead_to_the_first_remaining(lead_index: int) -> None:
    demo = load_scenario(ASSETS / "shared-modules" / "battle-formations-demo.warplan.json")
    scouts = demo.unit("blue-scouts")
    lead = scouts.models[lead_index].id
    game = thaw(demo.game)
    game["shared_modules"]["scout_and_secure"]["blue-scouts"]["lead"] = lead
    kept = tuple(m for m in scouts.models if m.id != lead)
    edited = replace(demo, game=freeze(game)).with_unit(replace(scouts, models=kept))
    pruned = prune_references(edited)
    entry = pruned.game["shared_modules"]["scout_and_secure"]["blue-scouts"]
    assert entry["lead"] == kept[0].id
    assert entry["moved"] is False


def test_element_ids_include_custom_deployment_regions() -> None:
    zone = DeploymentRegion("obj-1", "red", SQUARE)
    scenario = Scenario(
        "wh40k-ca2026",
        (Player("red"), Player("blue")),
        deployment=CustomDeployment(zones=(zone,)),
    )
    assert "obj-1" in element_ids(scenario)


def _everything_present() -> Scenario:
    """The fixture above with every ``gone-`` id naming an element that exists."""
    names = {
        "gone-unit": "squad2",
        "gone-model": "squad2-1",
        "gone-obj": "obj-b",
        "gone-ruin": "ruin2",
    }

    def rename(value: object) -> object:
        if isinstance(value, dict):
            return {names.get(k, k): rename(v) for k, v in value.items()}
        if isinstance(value, list):
            return [rename(v) for v in value]
        return names.get(value, value) if isinstance(value, str) else value

    base = _everything_referenced()
    second = Unit("squad2", "blue", (Model("squad2-1", 9, 9, BASE), Model("squad2-2", 11, 9, BASE)))
    return replace(
        base,
        units=(*base.units, second),
        terrain=(*base.terrain, TerrainPiece("ruin2", tuple((x + 20, y) for x, y in SQUARE))),
        objectives=(Objective("obj-a", 10, 10), Objective("obj-b", 2, 2, terrain="ruin2")),
        game=freeze(rename(thaw(base.game))),
    )


DELETABLE = ("squad", "squad2", "squad-1", "squad-2", "squad2-1", "squad2-2", "obj-a", "obj-b")
DELETABLE += ("ruin", "ruin2")


@settings(max_examples=120, deadline=None)
@given(st.sets(st.sampled_from(DELETABLE)))
def test_deleting_any_elements_keeps_the_document_saveable(deleted: set[str]) -> None:
    """Law: after any deletion nothing dangles, the file reads back, and every reference to a
    surviving element stays, except where it shares an entry with a deleted one (a challenge's
    winner and loser; an object entry's key and value, such as a guard's objective and unit) or
    hands the lead on."""
    scenario = _everything_present()
    assert _reader_problems(scenario) == []
    known = known_ids(scenario)
    selection = Selection(
        units=frozenset(deleted & known["units"]),
        models=frozenset(deleted & known["models"]),
        objectives=frozenset(deleted & known["objectives"]),
        terrain=frozenset(deleted & known["terrain"]),
    )
    after = remove_selection(scenario, selection)
    assert dangling_references(after) == ()
    assert _reader_problems(after) == []
    surviving = {
        (ref.rule, ref.target)
        for ref in references(scenario)
        if ref.rule is not None
        and ref.rule.removal not in ("drop-holder", "next-lead")
        and ref.rule.pattern[-1] not in (KEYS, EVERY_VALUE)
        and any(ref.target in ids for ids in known_ids(after).values())
    }
    kept = {(ref.rule, ref.target) for ref in references(after)}
    assert surviving <= kept
