"""The deployment sequence (engine.deploy_order): Chapter Approved's Deploy Armies (alternation
from the Defender, TITANIC skips, declared reserves, the remainder), Scrollhammer's Deploy
Forces and the Shared Scenario Modules' Battle Formations (whole armies in turn), their
boundaries, the file's ``game.deployment`` record and its checks."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.deploy_order import (
    DeploymentRecord,
    check_placement,
    declare_reserves,
    formation_at,
    next_to_deploy,
    procedure,
    set_up_unit,
    start_deployment,
    undo_last_step,
)
from engine.edits import Selection, remove_selection
from engine.errors import RulesError, ScenarioError
from engine.model import (
    MM_PER_INCH,
    Battlefield,
    CircleBase,
    Model,
    Player,
    Scenario,
    TerrainPiece,
    Unit,
    freeze,
    thaw,
)
from engine.rulesets import ruleset_for
from engine.scenario_io import dumps_scenario, loads_scenario, parse_scenario

JUST = 1e-4
BASE = CircleBase(32)
RADIUS = 32 / MM_PER_INCH / 2


def unit(uid: str, player: str, *keywords: str, models: int = 1) -> Unit:
    return Unit(
        uid,
        player,
        tuple(Model(f"{uid}-m{i}", 0.0, 0.0, BASE) for i in range(models)),
        keywords=keywords,
    )


def ca(*units: Unit, defender: str | None = "blue") -> Scenario:
    """Chapter Approved on Dawn of War: red's zone y 0-12, blue's y 32-44 (60" wide)."""
    roles = {"red": "attacker", "blue": "defender"} if defender == "blue" else {}
    if defender == "red":
        roles = {"red": "defender", "blue": "attacker"}
    players = (Player("red", role=roles.get("red")), Player("blue", role=roles.get("blue")))  # type: ignore[arg-type]
    return Scenario("wh40k-ca2026", players, deployment="dawn-of-war", reserves=units)


HOME = {"red": (30.0, 6.0), "blue": (30.0, 38.0)}


def place(s: Scenario, unit_id: str, x: float | None = None) -> Scenario:
    """Set the unit up in its player's zone, spread along x so units never touch."""
    player = next(u.player for u in (*s.units, *s.reserves) if u.id == unit_id)
    count = len(s.units)
    centre = (5.0 + 6.0 * count if x is None else x, HOME[player][1])
    return set_up_unit(s, unit_id, formation_at(s, unit_id, centre))


def report_rules(s: Scenario) -> list[tuple[str, str]]:
    return [(v.rule, v.message) for v in ruleset_for(s).report(s).violations]


# ---------------------------------------------------------------------------------------------
# Chapter Approved 2026-27: Deploy Armies


def test_alternation_starts_with_the_defender_one_unit_at_a_time() -> None:
    s = start_deployment(
        ca(unit("r1", "red"), unit("r2", "red"), unit("b1", "blue"), unit("b2", "blue"))
    )
    turns = []
    for unit_id in ("b1", "r1", "b2", "r2"):
        nxt = next_to_deploy(s)
        turns.append(nxt.player)
        assert unit_id in nxt.units
        s = place(s, unit_id)
    assert turns == ["blue", "red", "blue", "red"]
    assert next_to_deploy(s).done
    assert DeploymentRecord.of(s) == DeploymentRecord("blue", (), ("b1", "r1", "b2", "r2"))
    assert report_rules(s) == []


def test_the_defender_starts_whoever_is_listed_first() -> None:
    s = start_deployment(ca(unit("r1", "red"), unit("b1", "blue"), defender="red"))
    assert next_to_deploy(s).player == "red"
    assert "Defender (red)" in next_to_deploy(s).reason


def test_out_of_turn_is_refused_with_the_reason() -> None:
    s = start_deployment(ca(unit("r1", "red"), unit("b1", "blue")))
    verdict = check_placement(s, "r1", formation_at(s, "r1", HOME["red"]))
    assert not verdict.allowed
    assert verdict.reasons[0].startswith("not red's turn: blue's turn")
    with pytest.raises(RulesError, match="not red's turn"):
        set_up_unit(s, "r1", formation_at(s, "r1", HOME["red"]))


def test_titanic_skips_its_players_next_turn_red() -> None:
    s = start_deployment(
        ca(
            unit("r1", "red", "TITANIC"),
            unit("r2", "red"),
            unit("b1", "blue"),
            unit("b2", "blue"),
            unit("b3", "blue"),
        )
    )
    order = []
    while not next_to_deploy(s).done:
        nxt = next_to_deploy(s)
        chosen = nxt.units[0]
        order.append((nxt.player, chosen))
        s = place(s, chosen)
    # blue, red (TITANIC), blue, blue (red's turn skipped), then red
    assert [p for p, _ in order] == ["blue", "red", "blue", "blue", "red"]
    assert report_rules(s) == []


def test_titanic_skip_reason_names_it() -> None:
    s = start_deployment(
        ca(
            unit("r1", "red", "TITANIC"),
            unit("r2", "red"),
            unit("b1", "blue"),
            unit("b2", "blue"),
            unit("b3", "blue"),
        )
    )
    s = place(s, "b1")
    s = place(s, "r1")
    s = place(s, "b2")
    nxt = next_to_deploy(s)
    assert nxt.player == "blue"
    assert nxt.reason == (
        "blue's turn again: red set up a TITANIC unit and skips their next turn to set up a unit"
    )
    refused = check_placement(s, "r2", formation_at(s, "r2", HOME["red"]))
    assert refused.reasons == (f"not red's turn: {nxt.reason}",)


def test_titanic_skip_blue_model_keyword_counts() -> None:
    knight = Unit("b1", "blue", (Model("b1-m", 0, 0, BASE, keywords=("TITANIC",)),))
    s = start_deployment(
        ca(unit("r1", "red"), unit("r2", "red"), unit("r3", "red"), knight, unit("b2", "blue"))
    )
    players = []
    while not next_to_deploy(s).done:
        nxt = next_to_deploy(s)
        players.append(nxt.player)
        s = place(s, nxt.units[0])
    assert players == ["blue", "red", "red", "blue", "red"]


def test_both_titanic_skips_cancel_out() -> None:
    s = start_deployment(
        ca(
            unit("r1", "red", "TITANIC"),
            unit("r2", "red"),
            unit("b1", "blue", "TITANIC"),
            unit("b2", "blue"),
        )
    )
    s = place(s, "b1")
    s = place(s, "r1")
    nxt = next_to_deploy(s)
    assert nxt.player == "blue"
    assert "blue and red each set up a TITANIC unit" in nxt.reason


def test_remainder_the_player_with_units_left_sets_them_all_up() -> None:
    s = start_deployment(
        ca(unit("r1", "red"), unit("b1", "blue"), unit("b2", "blue"), unit("b3", "blue"))
    )
    s = place(s, "b1")
    s = place(s, "r1")
    for expected in ("b2", "b3"):
        nxt = next_to_deploy(s)
        assert nxt.player == "blue"
        assert expected in nxt.units
        assert "red has finished setting up their units" in nxt.reason
        s = place(s, expected)
    assert next_to_deploy(s).done


def test_declared_reserves_are_not_set_up() -> None:
    s = start_deployment(
        ca(unit("r1", "red"), unit("r2", "red"), unit("b1", "blue")), reserves=("r2",)
    )
    s = place(s, "b1")
    assert next_to_deploy(s).units == ("r1",)
    refused = check_placement(s, "r2", formation_at(s, "r2", HOME["red"]))
    assert "r2 is declared in reserves" in refused.reasons[0]
    s = place(s, "r1")
    assert next_to_deploy(s).done
    assert [u.id for u in s.reserves] == ["r2"]


def test_reserves_are_declared_beforehand_only() -> None:
    s = start_deployment(ca(unit("r1", "red"), unit("b1", "blue")))
    s = declare_reserves(s, ("r1",))
    assert DeploymentRecord.of(s).reserves == ("r1",)  # type: ignore[union-attr]
    s = place(declare_reserves(s, ()), "b1")
    with pytest.raises(RulesError, match="declared before"):
        declare_reserves(s, ("r1",))


def test_start_sends_every_unit_to_the_tray_and_undo_brings_the_last_back() -> None:
    on_table = ca(unit("b1", "blue"))
    on_table = set_up_unit(on_table, "b1", formation_at(on_table, "b1", HOME["blue"]))
    s = start_deployment(on_table)
    assert not s.units
    assert [u.id for u in s.reserves] == ["b1"]
    placed = place(s, "b1")
    back = undo_last_step(placed)
    assert not back.units
    assert DeploymentRecord.of(back).order == ()
    with pytest.raises(RulesError, match="no unit has been set up"):
        undo_last_step(back)


def test_recorded_first_player_must_be_the_defender() -> None:
    s = place(start_deployment(ca(unit("r1", "red"), unit("b1", "blue"))), "b1")
    game = thaw(s.game)
    game["deployment"]["first"] = "red"
    messages = report_rules(replace(s, game=freeze(game)))
    assert {rule for rule, _ in messages} == {"Deploy Armies"}
    assert any("red is recorded as setting up first; blue does" in m for _, m in messages)


def test_order_replay_flags_out_of_turn_tray_and_missing_units() -> None:
    base = ca(unit("r1", "red"), unit("b1", "blue"), unit("b2", "blue"))
    s = start_deployment(base)
    s = place(s, "b1")
    s = place(s, "r1")
    game = thaw(s.game)
    game["deployment"]["order"] = ["r1", "b1"]
    swapped = replace(s, game=freeze(game))
    text = "\n".join(m for _, m in report_rules(swapped))
    assert "r1 (red) was set up at step 1 out of turn: blue's turn" in text
    game["deployment"]["order"] = ["b1", "r1", "b2"]
    in_tray = replace(s, game=freeze(game))
    assert any(
        "b2 is recorded as set up (step 3) but is in the reserves tray" in m
        for _, m in report_rules(in_tray)
    )
    game["deployment"]["order"] = ["b1"]
    missing = replace(s, game=freeze(game))
    assert any(
        "r1 is on the battlefield but not in the recorded order" in m
        for _, m in report_rules(missing)
    )


@pytest.mark.parametrize(("offset", "allowed"), [(0.0, True), (JUST, False)])
def test_wholly_within_the_zone_boundary(offset: float, allowed: bool) -> None:
    """Blue's zone (the Defender's) starts at y = 32: a base touching its edge is wholly
    within; 1e-4" past is out."""
    s = start_deployment(ca(unit("r1", "red"), unit("b1", "blue")))
    verdict = check_placement(s, "b1", ((30.0, 32.0 + RADIUS - offset),))
    assert verdict.allowed is allowed
    if not allowed:
        assert verdict.reasons == ("b1 is not set up wholly within blue's deployment zone",)


def test_no_section_means_no_sequence_checked() -> None:
    s = ca(unit("b1", "blue"))
    s = replace(s, units=(Unit("r1", "red", (Model("m", 30, 6, BASE),)),))
    assert DeploymentRecord.of(s) is None
    assert report_rules(s) == []


def test_the_record_is_checked_only_before_the_battle() -> None:
    s = start_deployment(ca(unit("r1", "red"), unit("b1", "blue")))
    s = place(s, "b1")
    game = thaw(s.game)
    game["deployment"]["order"] = []
    game["battle_round"] = 2
    later = replace(s, game=freeze(game))
    assert report_rules(later) == []


# ---------------------------------------------------------------------------------------------
# Scrollhammer: Deploy Forces


def scrollhammer(*units: Unit, terrain: tuple[TerrainPiece, ...] = ()) -> Scenario:
    """72" x 48", long-edge halves: red's zone y 0-12, blue's y 36-48."""
    return Scenario(
        "scrollhammer",
        (Player("red"), Player("blue")),
        Battlefield(72, 48),
        reserves=units,
        terrain=terrain,
    )


def test_scrollhammer_first_player_places_the_entire_army_then_the_opponent() -> None:
    s = start_deployment(scrollhammer(unit("r1", "red"), unit("r2", "red"), unit("b1", "blue")))
    rules = procedure(s)
    assert rules.rule == "Deploy Forces"
    assert not rules.one_at_a_time
    assert next_to_deploy(s).units == ("r1", "r2")
    refused = check_placement(s, "b1", ((30.0, 42.0),))
    assert refused.reasons[0].startswith("not blue's turn: red sets up all their units first")
    s = set_up_unit(s, "r1", ((20.0, 6.0),))
    assert next_to_deploy(s).player == "red"
    s = set_up_unit(s, "r2", ((40.0, 6.0),))
    nxt = next_to_deploy(s)
    assert nxt.player == "blue"
    assert "red has set up all their units: blue then sets up theirs" in nxt.reason
    s = set_up_unit(s, "b1", ((30.0, 42.0),))
    assert next_to_deploy(s).done
    assert [r for r, _ in report_rules(s) if r == "Deploy Forces"] == []


def test_scrollhammer_recorded_first_player_and_reserves_are_its_own() -> None:
    s = scrollhammer(unit("r1", "red"), unit("b1", "blue"), unit("b2", "blue"))
    state = {"deployed_first": "blue", "reserves": ["b2"]}
    s = replace(s, game=freeze({"scrollhammer": state}))
    s = start_deployment(s)
    nxt = next_to_deploy(s)
    assert nxt.player == "blue"
    assert nxt.units == ("b1",)


@pytest.mark.parametrize(("offset", "allowed"), [(0.0, False), (JUST, True)])
def test_scrollhammer_more_than_12_from_the_centre_line(offset: float, allowed: bool) -> None:
    """ "more than 12\" from the central line" (y = 24): exactly 12" is not more than 12"."""
    s = start_deployment(scrollhammer(unit("r1", "red"), unit("b1", "blue")))
    verdict = check_placement(s, "r1", ((30.0, 12.0 - RADIUS - offset),))
    assert verdict.allowed is allowed


def test_scrollhammer_impassable_and_lethal_terrain_refused() -> None:
    pit = TerrainPiece("pit", ((10, 2), (16, 2), (16, 8), (10, 8)), kind="lethal")
    wall = TerrainPiece("wall", ((30, 2), (36, 2), (36, 8), (30, 8)), impassable=True)
    s = start_deployment(scrollhammer(unit("r1", "red"), terrain=(pit, wall)))
    in_pit = check_placement(s, "r1", ((13.0, 5.0),))
    assert any("lethal terrain pit" in r for r in in_pit.reasons)
    on_wall = check_placement(s, "r1", ((33.0, 5.0),))
    assert any("impassable terrain wall" in r for r in on_wall.reasons)
    assert check_placement(s, "r1", ((50.0, 5.0),)).allowed


# ---------------------------------------------------------------------------------------------
# Shared Scenario Modules: Battle Formations


def shared(*units: Unit) -> Scenario:
    """60" x 44": red's table edge south, blue's north (the defaults)."""
    return Scenario("shared-modules", (Player("red"), Player("blue")), reserves=units)


@pytest.mark.parametrize(("offset", "allowed"), [(0.0, True), (JUST, False)])
def test_battle_formations_within_12_of_the_table_edge(offset: float, allowed: bool) -> None:
    """ "within 12\" of their table edge": every point of the base; exactly 12" is within."""
    s = start_deployment(shared(unit("r1", "red"), unit("b1", "blue")))
    verdict = check_placement(s, "r1", ((30.0, 12.0 - RADIUS + offset),))
    assert verdict.allowed is allowed
    assert procedure(s).rule == "Battle Formations"


@pytest.mark.parametrize(("offset", "allowed"), [(0.0, True), (JUST, False)])
def test_battle_formations_units_at_least_2_apart(offset: float, allowed: bool) -> None:
    """ "at least 2\" apart": exactly 2" between the bases is allowed; 1e-4" closer is not."""
    s = start_deployment(shared(unit("r1", "red"), unit("r2", "red"), unit("b1", "blue")))
    s = set_up_unit(s, "r1", ((30.0, 5.0),))
    gap_centres = 2 * RADIUS + 2.0 - offset
    verdict = check_placement(s, "r2", ((30.0 + gap_centres, 5.0),))
    assert verdict.allowed is allowed
    if not allowed:
        assert 'units must be at least 2" apart' in verdict.reasons[0]


def test_battle_formations_whole_armies_in_turn_from_deploys_first() -> None:
    s = shared(unit("r1", "red"), unit("b1", "blue"), unit("b2", "blue"))
    s = replace(s, options=freeze({"deploys_first": "blue"}))
    s = start_deployment(s)
    assert next_to_deploy(s).units == ("b1", "b2")
    s = set_up_unit(s, "b1", ((10.0, 40.0),))
    s = set_up_unit(s, "b2", ((20.0, 40.0),))
    assert next_to_deploy(s).player == "red"
    game = thaw(s.game)
    game["deployment"]["first"] = "red"
    wrong = replace(s, game=freeze(game))
    assert any(
        "red is recorded as setting up first; blue does" in m
        for r, m in report_rules(wrong)
        if r == "Battle Formations"
    )


# ---------------------------------------------------------------------------------------------
# The file


def test_file_round_trip_keeps_the_order() -> None:
    s = start_deployment(
        ca(unit("r1", "red", "TITANIC"), unit("r2", "red"), unit("b1", "blue")), reserves=("r2",)
    )
    s = place(s, "b1")
    s = place(s, "r1")
    again = loads_scenario(dumps_scenario(s))
    assert DeploymentRecord.of(again) == DeploymentRecord("blue", ("r2",), ("b1", "r1"))
    assert next_to_deploy(again) == next_to_deploy(s)


def _document(deployment: object) -> dict[str, object]:
    s = start_deployment(ca(unit("r1", "red"), unit("b1", "blue")))
    data = loads_scenario_json(dumps_scenario(s))
    data["game"] = {"deployment": deployment}
    return data


def loads_scenario_json(text: str) -> dict[str, object]:
    import json

    loaded: dict[str, object] = json.loads(text)
    return loaded


@pytest.mark.parametrize(
    ("deployment", "path", "words"),
    [
        ({"order": ["r9"]}, "game.deployment.order[0]", 'unknown unit "r9"'),
        ({"order": ["r1", "r1"]}, "game.deployment.order[1]", "listed twice"),
        (
            {"reserves": ["r1"], "order": ["r1"]},
            "game.deployment.order[0]",
            "declared in reserves (game.deployment.reserves[0])",
        ),
        ({"first": "green"}, "game.deployment.first", 'unknown player "green"'),
        ({"orders": []}, "game.deployment.orders", "unknown key"),
        ({"order": "r1"}, "game.deployment.order", "must be an array"),
    ],
)
def test_bad_sections_are_named(deployment: object, path: str, words: str) -> None:
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(_document(deployment))
    problems = [p for p in caught.value.problems if p.path == path]
    assert problems, caught.value.problems
    assert words in problems[0].message


def test_deleting_a_unit_keeps_the_file_saveable() -> None:
    s = start_deployment(
        ca(unit("r1", "red"), unit("r2", "red"), unit("b1", "blue")), reserves=("r2",)
    )
    s = place(s, "b1")
    s = place(s, "r1")
    gone = remove_selection(s, Selection(units=frozenset({"r1"})))
    record = DeploymentRecord.of(loads_scenario(dumps_scenario(gone)))
    assert record is not None
    assert record.order == ("b1",)


def test_round_trip_of_all_three_systems_procedures_have_quoted_texts() -> None:
    texts = {
        "wh40k-ca2026": "Players take it in turns to set up their units (excluding those in "
        "strategic reserves) one at a time, wholly within their deployment zone, starting with "
        "the Defender.",
        "scrollhammer": "The player that goes first then places his entire army on the table in "
        "his deployment zone(with the exception of Mission 3, see below for details).",
        "shared-modules": 'The player who deploys first deploys their units within 12" of their '
        "table edge.",
    }
    for ruleset_id, quoted in texts.items():
        s = Scenario(ruleset_id, (Player("red"), Player("blue")))  # type: ignore[arg-type]
        rules = procedure(s)
        assert quoted in rules.text
        assert rules.ruleset == ruleset_id
        assert rules.choices


# ---------------------------------------------------------------------------------------------
# Laws of the alternation


@settings(max_examples=30, deadline=None)
@given(
    red=st.lists(st.booleans(), max_size=4),
    blue=st.lists(st.booleans(), max_size=4),
)
def test_following_the_turns_sets_every_unit_up_once(red: list[bool], blue: list[bool]) -> None:
    """Each flag is one unit, TITANIC when true. Following ``next_to_deploy`` sets every unit
    up exactly once with nothing flagged; the Defender (blue) starts; without a TITANIC unit the
    players alternate until one has none left; after the first TITANIC unit, an opponent with two
    units left whose next is not TITANIC sets up the next two."""
    units = [unit(f"r{i}", "red", *(["TITANIC"] if t else [])) for i, t in enumerate(red)]
    units += [unit(f"b{i}", "blue", *(["TITANIC"] if t else [])) for i, t in enumerate(blue)]
    s = start_deployment(ca(*units))
    steps: list[tuple[str, bool, int]] = []
    while not next_to_deploy(s).done:
        nxt = next_to_deploy(s)
        assert nxt.player is not None
        chosen = nxt.units[0]
        own_left = sum(1 for u in s.reserves if u.player == nxt.player)
        steps.append(
            (nxt.player, chosen in {u.id for u in units if "TITANIC" in u.keywords}, own_left)
        )
        s = place(s, chosen)
    assert len(steps) == len(units)
    assert sorted(DeploymentRecord.of(s).order) == sorted(u.id for u in units)  # type: ignore[union-attr]
    assert report_rules(s) == []
    if blue:
        assert steps[0][0] == "blue"
    if not any(red) and not any(blue):
        alternating = min(len(red), len(blue)) * 2
        players = [p for p, _, _ in steps]
        assert all(players[i] != players[i + 1] for i in range(alternating - 1))
    first_titanic = next((i for i, (_, titanic, _) in enumerate(steps) if titanic), None)
    if first_titanic is not None and first_titanic + 2 < len(steps):
        player = steps[first_titanic][0]
        nxt_player, nxt_titanic, left = steps[first_titanic + 1]
        if nxt_player != player and not nxt_titanic and left >= 2:
            assert steps[first_titanic + 2][0] == nxt_player


def test_the_tray_sets_a_unit_up_as_the_deployments_next_step() -> None:
    from engine.deploy_order import deploy_from_tray

    armies = ca(unit("r1", "red"), unit("r2", "red"), unit("b1", "blue"))
    # Before a deployment starts the tray simply places the unit, and records nothing.
    loose = deploy_from_tray(armies, "r1", HOME["red"])
    assert DeploymentRecord.of(loose) is None
    assert [u.id for u in loose.units] == ["r1"]
    s = start_deployment(armies, reserves=("r2",))
    with pytest.raises(RulesError, match="not red's turn"):
        deploy_from_tray(s, "r1", HOME["red"])
    s = deploy_from_tray(s, "b1", HOME["blue"])
    assert DeploymentRecord.of(s).order == ("b1",)  # type: ignore[union-attr]
    with pytest.raises(RulesError, match="r2 is declared in reserves"):
        deploy_from_tray(s, "r2", HOME["red"])
    with pytest.raises(RulesError, match="wholly within"):
        deploy_from_tray(s, "r1", (30.0, 22.0))
    s = deploy_from_tray(s, "r1", HOME["red"])
    assert next_to_deploy(s).done
    # Once every unit is set up, a declared reserve arrives from the tray as the tray places it.
    arrived = deploy_from_tray(s, "r2", (30.0, 22.0))
    assert DeploymentRecord.of(arrived).order == ("b1", "r1")  # type: ignore[union-attr]
    assert {u.id for u in arrived.units} == {"b1", "r1", "r2"}
