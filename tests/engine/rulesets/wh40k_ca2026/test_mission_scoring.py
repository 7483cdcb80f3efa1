"""Live scoring on real Dawn of War scenarios: timing, geometry boundaries, caps, events."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from mission_builders import BASE, IN_RANGE, MARKER_R, R
from mission_builders import dawn_of_war as scenario

from engine.model import (
    CircleBase,
    Marker,
    Model,
    OvalBase,
    Scenario,
    TerrainPiece,
    Unit,
    UnitStatus,
    freeze,
)
from engine.rulesets.wh40k_ca2026.scoring import ROUND_VP_LIMIT, score

NUDGE = 1e-4


def unit(uid: str, player: str, *points: tuple[float, float], **kw: Any) -> Unit:
    models = tuple(
        Model(f"{uid}-{i}", x, y, kw.pop("base", BASE)) for i, (x, y) in enumerate(points)
    )
    return Unit(uid, player, models, **kw)


def moment(round_: int, active: str, timing: str, **players: Any) -> dict[str, Any]:
    return {
        "battle_round": round_,
        "active_player": active,
        "timing": timing,
        "first_player": "red",
        "players": players,
    }


def lines(report: Any, player: str, card: str) -> list[dict[str, Any]]:
    result: list[dict[str, Any]] = report.to_json()["players"][player]["cards"][card]["lines"]
    return result


def card_vp(report: Any, player: str, card: str) -> int:
    vp: int = report.to_json()["players"][player]["cards"][card]["vp"]
    return vp


# ---------------------------------------------------------------------------------------------
# Objective control and timing


def dominance(dx: float) -> Scenario:
    """Red holds its home objective and is ``dx`` inches past range of the west expansion."""
    return scenario(
        unit("red-home", "red", (30, 6 + IN_RANGE)),
        unit("red-west", "red", (10, 22 - IN_RANGE - dx)),
        game=moment(2, "red", "end_of_command_phase", red={"primary": "BATTLEFIELD DOMINANCE"}),
    )


def test_battlefield_dominance_at_the_objective_range_boundary() -> None:
    exactly = score(dominance(0.0))
    assert card_vp(exactly, "red", "BATTLEFIELD DOMINANCE") == 3 * 2 + 2 * 1
    assert "obj-expansion-w" in lines(exactly, "red", "BATTLEFIELD DOMINANCE")[0]["reason"]
    past = score(dominance(NUDGE))
    assert card_vp(past, "red", "BATTLEFIELD DOMINANCE") == 3
    assert lines(past, "red", "BATTLEFIELD DOMINANCE")[1]["holds"] is False


def test_lines_score_only_at_their_timing_and_rounds() -> None:
    s = dominance(0.0)
    assert score(s).player("blue").vp == 0
    third_round = replace(s, game=freeze(dict(s.game or {}, battle_round=3, timing="end_of_turn")))
    assert lines(score(third_round), "red", "BATTLEFIELD DOMINANCE") == []
    for round_ in (1, 2):
        end = replace(s, game=freeze(dict(s.game or {}, battle_round=round_, timing="end_of_turn")))
        scored = lines(score(end), "red", "BATTLEFIELD DOMINANCE")
        assert [line["text"] for line in scored] == [
            "You control more objectives than your opponent."
        ]
        assert scored[0]["vp"] == 2


def test_fifth_round_command_phase_lines_move_to_the_end_of_your_turn() -> None:
    s = dominance(0.0)
    command = replace(s, game=freeze(dict(s.game or {}, battle_round=5)))
    assert card_vp(score(command), "red", "BATTLEFIELD DOMINANCE") == 0
    end = replace(s, game=freeze(dict(s.game or {}, battle_round=5, timing="end_of_turn")))
    assert card_vp(score(end), "red", "BATTLEFIELD DOMINANCE") == 8
    immovable_game = dict(s.game or {}, battle_round=5)
    immovable_game["players"] = {"red": {"primary": "IMMOVABLE OBJECT"}}
    immovable = replace(s, game=freeze(immovable_game))
    assert card_vp(score(immovable), "red", "IMMOVABLE OBJECT") == 0


def test_end_of_the_battle_lines() -> None:
    s = scenario(
        unit("red-raid", "red", (30, 38 - IN_RANGE)),
        game=moment(5, "blue", "end_of_battle", red={"primary": "VITAL LINK"}),
    )
    scored = lines(score(s), "red", "VITAL LINK")
    assert [line["vp"] for line in scored] == [10]
    assert "end of the battle" in scored[0]["reason"]


def test_determined_acquisition_counts_objectives_newly_controlled() -> None:
    game = moment(
        3,
        "red",
        "end_of_turn",
        red={
            "primary": "DETERMINED ACQUISITION",
            "controlled_at_start_of_turn": ["obj-expansion-w"],
        },
    )
    s = scenario(
        unit("red-w", "red", (10, 22 - IN_RANGE)),
        unit("red-c", "red", (30, 22 - IN_RANGE)),
        game=game,
    )
    scored = lines(score(s), "red", "DETERMINED ACQUISITION")
    assert scored[0]["vp"] == 2
    assert "obj-centre" in scored[0]["reason"]
    unrecorded = dict(game, players={"red": {"primary": "DETERMINED ACQUISITION"}})
    scored = lines(score(replace(s, game=freeze(unrecorded))), "red", "DETERMINED ACQUISITION")
    assert scored[0]["holds"] is False
    assert "not recorded in the file" in scored[0]["reason"]


# ---------------------------------------------------------------------------------------------
# Positions


def centre_ground(friend_gap: float, enemy_gap: float) -> Scenario:
    """Red's model base edge ``friend_gap``" from the centre, Blue's ``enemy_gap``"."""
    return scenario(
        unit("red-c", "red", (30 - R - friend_gap, 22)),
        unit("blue-c", "blue", (30 + R + enemy_gap, 22)),
        game=moment(
            2,
            "red",
            "end_of_turn",
            red={"primary": "MEATGRINDER", "secondaries": ["CENTRE GROUND"]},
        ),
    )


def test_centre_ground_or_alternatives_at_the_boundaries() -> None:
    assert card_vp(score(centre_ground(3.0, 6.0 + NUDGE)), "red", "CENTRE GROUND") == 5
    assert card_vp(score(centre_ground(3.0, 6.0)), "red", "CENTRE GROUND") == 3
    assert card_vp(score(centre_ground(3.0, 3.0)), "red", "CENTRE GROUND") == 0
    assert card_vp(score(centre_ground(3.0 + NUDGE, 10)), "red", "CENTRE GROUND") == 0
    both = lines(score(centre_ground(3.0, 8.0)), "red", "CENTRE GROUND")
    assert [(line["holds"], line["vp"]) for line in both] == [(True, 0), (True, 5)]
    assert "OR" in both[0]["reason"]


def test_centre_ground_ignores_battle_shocked_and_aircraft() -> None:
    shocked = centre_ground(1.0, 10.0)
    shaken = replace(shocked.units[0], status=UnitStatus(battle_shocked=True))
    assert card_vp(score(shocked.with_unit(shaken)), "red", "CENTRE GROUND") == 0
    flying = replace(shocked.units[0], keywords=("AIRCRAFT",))
    assert card_vp(score(shocked.with_unit(flying)), "red", "CENTRE GROUND") == 0


def outflank(gap_west: float, east: float | None = None, base: Any = BASE) -> Scenario:
    west = Unit("red-w", "red", (Model("w", 0, 27, base),))
    half = base.radius if isinstance(base, CircleBase) else base.semi_axes[0]
    west = replace(west, models=(Model("w", gap_west + half, 27, base),))
    units = [west]
    if east is not None:
        units.append(unit("red-e", "red", (60 - R - east, 16)))
    return scenario(
        *units,
        game=moment(
            2, "red", "end_of_turn", red={"primary": "MEATGRINDER", "secondaries": ["OUTFLANK"]}
        ),
    )


def test_outflank_edge_distance_is_exact_for_round_and_oval_bases() -> None:
    assert card_vp(score(outflank(6.0)), "red", "OUTFLANK") == 3
    assert card_vp(score(outflank(6.0 + NUDGE)), "red", "OUTFLANK") == 0
    oval = OvalBase(90, 52)
    assert card_vp(score(outflank(6.0, base=oval)), "red", "OUTFLANK") == 3
    assert card_vp(score(outflank(6.0 + NUDGE, base=oval)), "red", "OUTFLANK") == 0


def test_outflank_opposite_edges() -> None:
    assert card_vp(score(outflank(2.0, east=6.0)), "red", "OUTFLANK") == 5
    assert card_vp(score(outflank(2.0, east=6.0 + NUDGE)), "red", "OUTFLANK") == 3


def test_behind_enemy_lines_is_capped_at_five() -> None:
    s = scenario(
        unit("red-a", "red", (10, 40)),
        unit("red-b", "red", (20, 32 + R)),
        unit("red-c", "red", (40, 32 + R - NUDGE)),
        game=moment(
            3,
            "red",
            "end_of_turn",
            red={"primary": "MEATGRINDER", "secondaries": ["BEHIND ENEMY LINES"]},
        ),
    )
    scored = lines(score(s), "red", "BEHIND ENEMY LINES")[0]
    assert scored["vp"] == 5
    assert "2 x 3VP" in scored["reason"]
    assert "UP TO 5VP" in scored["reason"]


def test_engage_on_all_fronts_fixed_and_tactical_values() -> None:
    quarters = [(5, 5), (55, 5), (5, 39), (55, 39)]
    units = [unit(f"red-{i}", "red", p) for i, p in enumerate(quarters)]
    tactical = moment(
        2,
        "red",
        "end_of_turn",
        red={
            "primary": "MEATGRINDER",
            "secondary_mode": "tactical",
            "secondaries": ["ENGAGE ON ALL FRONTS"],
        },
    )
    assert card_vp(score(scenario(*units, game=tactical)), "red", "ENGAGE ON ALL FRONTS") == 5
    fixed = dict(
        tactical, players={"red": {**tactical["players"]["red"], "secondary_mode": "fixed"}}
    )
    assert card_vp(score(scenario(*units, game=fixed)), "red", "ENGAGE ON ALL FRONTS") == 4
    three = scenario(*units[:3], game=fixed)
    assert card_vp(score(three), "red", "ENGAGE ON ALL FRONTS") == 2


def test_display_of_might_counts_units_wholly_within_no_mans_land() -> None:
    game = moment(
        2,
        "blue",
        "end_of_turn",
        red={"primary": "MEATGRINDER", "secondaries": ["DISPLAY OF MIGHT"]},
    )
    s = scenario(
        unit("red-a", "red", (10, 20)),
        unit("red-b", "red", (20, 12 + R)),
        unit("blue-a", "blue", (40, 20)),
        game=game,
    )
    assert card_vp(score(s), "red", "DISPLAY OF MIGHT") == 5
    nudged = s.with_unit(unit("red-b", "red", (20, 12 + R - NUDGE)))
    assert card_vp(score(nudged), "red", "DISPLAY OF MIGHT") == 0


def test_defend_stronghold_cumulative_and_from_the_second_round() -> None:
    game = moment(
        2,
        "blue",
        "end_of_turn",
        red={"primary": "MEATGRINDER", "secondaries": ["DEFEND STRONGHOLD"]},
    )
    guard = unit("red-home", "red", (30, 6 + IN_RANGE))
    clear = scenario(guard, unit("blue-x", "blue", (10, 12 + R + NUDGE)), game=game)
    assert card_vp(score(clear), "red", "DEFEND STRONGHOLD") == 5
    touching = scenario(guard, unit("blue-x", "blue", (10, 12 + R)), game=game)
    assert card_vp(score(touching), "red", "DEFEND STRONGHOLD") == 3
    first = scenario(guard, game=dict(game, battle_round=1))
    assert card_vp(score(first), "red", "DEFEND STRONGHOLD") == 0
    own_turn = scenario(guard, game=dict(game, active_player="red"))
    assert lines(score(own_turn), "red", "DEFEND STRONGHOLD") == []


# ---------------------------------------------------------------------------------------------
# Events recorded in the game section


def destroyed(*entries: tuple[str, str], **flags: Any) -> list[dict[str, Any]]:
    """Records of destroyed units gone from the file (so each carries the unit's name)."""
    return [{"unit": u, "player": p, "name": u.title(), **flags} for u, p in entries]


def test_no_prisoners_scores_at_the_end_of_either_turn_with_its_cap() -> None:
    game = moment(
        2, "blue", "end_of_turn", red={"primary": "MEATGRINDER", "secondaries": ["NO PRISONERS"]}
    )
    game["destroyed_this_turn"] = destroyed(
        ("blue-1", "blue"), ("blue-2", "blue"), ("blue-3", "blue")
    )
    scored = lines(score(scenario(game=game)), "red", "NO PRISONERS")[0]
    assert scored["vp"] == 5
    game["destroyed_this_turn"] = destroyed(("blue-1", "blue"), ("red-1", "red"))
    assert card_vp(score(scenario(game=game)), "red", "NO PRISONERS") == 2


def test_unrecorded_events_count_as_not_met() -> None:
    game = moment(2, "red", "end_of_turn", red={"primary": "UNSTOPPABLE FORCE"})
    scored = lines(score(scenario(game=game)), "red", "UNSTOPPABLE FORCE")
    assert scored[0]["holds"] is False
    assert "not recorded in the file" in scored[0]["reason"]


def test_meatgrinder_compares_with_the_previous_turn() -> None:
    game = moment(3, "red", "end_of_turn", red={"primary": "MEATGRINDER"})
    game["destroyed_this_turn"] = destroyed(("blue-1", "blue"), ("blue-2", "blue"))
    game["destroyed_previous_turn"] = destroyed(("red-1", "red"))
    scored = lines(score(scenario(game=game)), "red", "MEATGRINDER")
    assert [line["vp"] for line in scored] == [3, 5, 0]
    game["destroyed_previous_turn"] = destroyed(("red-1", "red"), ("red-2", "red"))
    assert [line["vp"] for line in lines(score(scenario(game=game)), "red", "MEATGRINDER")] == [
        3,
        0,
        0,
    ]


def test_bring_it_down_and_assassination_by_mode() -> None:
    models = [
        {"model": "b-lord", "player": "blue", "wounds": 5, "keywords": ["CHARACTER"]},
        {"model": "b-sage", "player": "blue", "wounds": 3, "keywords": ["CHARACTER", "INFANTRY"]},
        {"model": "b-tank", "player": "blue", "wounds": 12, "keywords": ["VEHICLE"]},
    ]
    fixed = moment(
        2,
        "red",
        "end_of_turn",
        red={
            "primary": "MEATGRINDER",
            "secondary_mode": "fixed",
            "secondaries": ["ASSASSINATION", "BRING IT DOWN"],
        },
    )
    fixed["models_destroyed_this_turn"] = models
    report = score(scenario(game=fixed))
    assert card_vp(report, "red", "ASSASSINATION") == 3 * 2 + 1
    assert card_vp(report, "red", "BRING IT DOWN") == 4
    tactical = dict(
        fixed, players={"red": {**fixed["players"]["red"], "secondary_mode": "tactical"}}
    )
    report = score(scenario(game=tactical))
    assert card_vp(report, "red", "ASSASSINATION") == 5
    assert [line["text"][:8] for line in lines(report, "red", "ASSASSINATION")] == ["One or m"]
    assert card_vp(report, "red", "BRING IT DOWN") == 5


def test_punishment_condemned_units_leaving_at_the_end_of_a_turn() -> None:
    game = moment(2, "blue", "end_of_turn", red={"primary": "PUNISHMENT", "condemned": ["blue-1"]})
    game["left_battlefield_this_turn"] = ["blue-1"]
    assert card_vp(score(scenario(game=game)), "red", "PUNISHMENT") == 5
    game["left_battlefield_this_turn"] = ["blue-2"]
    assert card_vp(score(scenario(game=game)), "red", "PUNISHMENT") == 0


# ---------------------------------------------------------------------------------------------
# Operation markers and statuses


def test_decoyed_status_needs_its_marker_in_range() -> None:
    status = {"decoyed": ["obj-expansion-w", "obj-home-blue"]}
    game = moment(
        2, "red", "end_of_turn", red={"primary": "SMOKE AND MIRRORS", "objective_status": status}
    )
    near_home = Marker("m1", "operation", 30, 38 + 3 + MARKER_R, "red")
    near_west = Marker("m2", "operation", 10, 22 - 3 - MARKER_R, "red")
    both = score(scenario(game=game, markers=(near_home, near_west)))
    assert [line["vp"] for line in lines(both, "red", "SMOKE AND MIRRORS")] == [4, 2]
    far = Marker("m2", "operation", 10, 22 - 3 - MARKER_R - NUDGE, "red")
    lost = lines(score(scenario(game=game, markers=(near_home, far))), "red", "SMOKE AND MIRRORS")
    assert [line["vp"] for line in lost] == [2, 2]
    assert "no longer decoyed" in lost[0]["reason"]


def test_vital_link_counts_markers_on_controlled_central_objectives() -> None:
    game = moment(1, "red", "end_of_turn", red={"primary": "VITAL LINK"})
    markers = (
        Marker("m1", "operation", 31, 22, "red"),
        Marker("m2", "operation", 29, 22, "red"),
        Marker("m3", "operation", 10, 22, "red"),
    )
    held = scenario(unit("red-c", "red", (30, 22 - IN_RANGE)), game=game, markers=markers)
    assert [line["vp"] for line in lines(score(held), "red", "VITAL LINK")] == [2, 2]
    lost = scenario(game=game, markers=markers)
    assert [line["vp"] for line in lines(score(lost), "red", "VITAL LINK")] == [0, 0]


def test_locate_and_deny_sole_marker_in_a_held_terrain_area() -> None:
    ruin = TerrainPiece("ruin", ((40, 14), (46, 14), (46, 20), (40, 20)))
    game = moment(2, "red", "end_of_turn", red={"primary": "LOCATE AND DENY"})
    marker = Marker("m1", "operation", 43, 17, "red")
    mine = unit("red-r", "red", (40 - R, 17))
    held = scenario(mine, game=game, markers=(marker,), terrain=(ruin,))
    assert [line["vp"] for line in lines(score(held), "red", "LOCATE AND DENY")][-1] == 4
    outside = scenario(
        unit("red-r", "red", (40 - R - NUDGE, 17)), game=game, markers=(marker,), terrain=(ruin,)
    )
    assert lines(score(outside), "red", "LOCATE AND DENY")[-1]["vp"] == 0
    contested = scenario(
        mine, unit("blue-r", "blue", (43, 19)), game=game, markers=(marker,), terrain=(ruin,)
    )
    assert lines(score(contested), "red", "LOCATE AND DENY")[-1]["vp"] == 0
    two = scenario(
        mine, game=game, markers=(marker, Marker("m2", "operation", 5, 5, "red")), terrain=(ruin,)
    )
    assert lines(score(two), "red", "LOCATE AND DENY")[-1]["vp"] == 0


def test_surveil_the_foe_unless_every_surveilled_unit_is_at_a_marked_objective() -> None:
    marker = Marker("m1", "operation", 10, 22, "blue")
    game = moment(
        2,
        "red",
        "end_of_turn",
        red={"primary": "SURVEIL THE FOE", "surveilled_this_turn": ["blue-w"]},
    )
    shielded = scenario(unit("blue-w", "blue", (10, 22 + IN_RANGE)), game=game, markers=(marker,))
    assert lines(score(shielded), "red", "SURVEIL THE FOE")[0]["vp"] == 0
    exposed = scenario(
        unit("blue-w", "blue", (10, 22 + IN_RANGE + NUDGE)), game=game, markers=(marker,)
    )
    first = lines(score(exposed), "red", "SURVEIL THE FOE")
    assert first[0]["vp"] == 4
    assert first[-1]["holds"] is False  # "None of your opponent's operation markers ..."


def test_actions_completed_this_turn() -> None:
    actions = [{"action": "SABOTAGE", "unit": "red-s"}, {"action": "SABOTAGE", "unit": "red-t"}]
    game = moment(
        2, "red", "end_of_turn", red={"primary": "SABOTAGE", "actions_completed_this_turn": actions}
    )
    s = scenario(
        unit("red-s", "red", (30, 38 - IN_RANGE)),
        unit("red-t", "red", (10, 22 - IN_RANGE)),
        game=game,
    )
    assert [line["vp"] for line in lines(score(s), "red", "SABOTAGE")] == [6, 2]


# ---------------------------------------------------------------------------------------------
# Secondary decks and card choices


def test_active_cards_and_choices_come_from_the_deck() -> None:
    deck = {
        "mode": "tactical",
        "draw_pile": [],
        "active": [
            {"card": "BEACON", "drawn_round": 2, "choices": {"beacon_unit": "red-b"}},
            {
                "card": "A TEMPTING TARGET",
                "drawn_round": 2,
                "choices": {"tempting_target": "obj-expansion-e"},
            },
        ],
    }
    game = moment(2, "blue", "end_of_turn", red={"primary": "MEATGRINDER", "deck": deck})
    s = scenario(unit("red-b", "red", (20, 22 + R + NUDGE)), game=game)
    report = score(s)
    assert card_vp(report, "red", "BEACON") == 5
    assert lines(report, "red", "A TEMPTING TARGET") == []
    in_territory = s.with_unit(unit("red-b", "red", (20, 22 + R)))
    assert card_vp(score(in_territory), "red", "BEACON") == 3
    red_turn = dict(game, active_player="red")
    s = scenario(unit("red-t", "red", (50, 22 - IN_RANGE)), game=red_turn)
    assert card_vp(score(s), "red", "A TEMPTING TARGET") == 5


def test_beacon_at_the_end_of_the_fifth_battle_round() -> None:
    def at(drawn: int, active: str) -> int:
        deck = {
            "mode": "tactical",
            "active": [
                {"card": "BEACON", "drawn_round": drawn, "choices": {"beacon_unit": "blue-b"}}
            ],
        }
        game = moment(5, active, "end_of_turn", blue={"primary": "MEATGRINDER", "deck": deck})
        return card_vp(
            score(scenario(unit("blue-b", "blue", (20, 10)), game=game)), "blue", "BEACON"
        )

    assert at(5, "blue") == 5
    assert at(4, "blue") == 0
    assert at(4, "red") == 5


def test_burden_of_trust_guards() -> None:
    choices = {"BURDEN OF TRUST": {"guards": {"obj-centre": "red-c", "obj-expansion-w": "red-x"}}}
    game = moment(
        3,
        "blue",
        "end_of_turn",
        red={"primary": "MEATGRINDER", "secondaries": ["BURDEN OF TRUST"], "card_choices": choices},
    )
    s = scenario(
        unit("red-c", "red", (30, 22 - IN_RANGE)), unit("red-x", "red", (10, 30)), game=game
    )
    assert card_vp(score(s), "red", "BURDEN OF TRUST") == 2


# ---------------------------------------------------------------------------------------------
# Limits, report shape


def test_fifteen_vp_per_battle_round_limit_except_at_the_end_of_the_battle() -> None:
    s = dominance(0.0)
    game = dict(s.game or {})
    game["players"] = {"red": {"primary": "BATTLEFIELD DOMINANCE", "vp_this_round": 12}}
    limited = score(replace(s, game=freeze(game)))
    assert limited.player("red").vp == ROUND_VP_LIMIT - 12
    card = limited.to_json()["players"]["red"]["cards"]["BATTLEFIELD DOMINANCE"]
    assert card["vp"] == 3
    assert "15VP per battle round" in card["note"]
    end = dict(game, timing="end_of_battle", battle_round=5)
    end["players"] = {"red": {"primary": "VITAL LINK", "vp_this_round": 15}}
    raid = s.with_unit(unit("red-west", "red", (30, 38 - IN_RANGE)))
    assert score(replace(raid, game=freeze(end))).player("red").vp == 10


def test_report_json_contract_and_text() -> None:
    report = score(dominance(0.0))
    data = report.to_json()
    assert set(data) == {"battle_round", "active_player", "timing", "players"}
    assert data["players"]["red"]["vp"] == 8
    line = data["players"]["red"]["cards"]["BATTLEFIELD DOMINANCE"]["lines"][0]
    assert set(line) == {"text", "holds", "vp", "reason"}
    text = report.text()
    assert "BATTLEFIELD DOMINANCE" in text
    assert "8VP" in text


def test_other_rulesets_and_missing_moment_are_reported() -> None:
    s = dominance(0.0)
    other = replace(s, ruleset="scrollhammer")
    assert "wh40k-ca2026" in score(other).problems[0]
    no_time = replace(s, game=freeze({"players": {}}))
    assert score(no_time).problems
    unknown = replace(s, game=freeze(dict(s.game or {}, players={"red": {"primary": "NOPE"}})))
    assert "NOPE" in score(unknown).problems[0]


@pytest.mark.parametrize("card_name", ["ASSASSINATION", "OUTFLANK", "CLEANSE", "PLUNDER"])
def test_every_secondary_scores_without_error(card_name: str) -> None:
    game = moment(
        2, "red", "end_of_turn", red={"primary": "MEATGRINDER", "secondaries": [card_name]}
    )
    report = score(scenario(unit("red-a", "red", (5, 5)), game=game))
    assert card_name in report.to_json()["players"]["red"]["cards"]
