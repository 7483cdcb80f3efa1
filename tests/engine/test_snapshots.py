"""Snapshots of the board: take, go back, branch, rename, delete, the tree, round trips through
the file, and every check the reader makes of the section."""

from __future__ import annotations

import copy
import json
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from engine import scenario_io
from engine.errors import RulesError, ScenarioError, UnknownReferenceError
from engine.model import Scenario, Snapshots
from engine.scenario_io import (
    dumps_scenario,
    load_scenario,
    loads_scenario,
    parse_scenario,
    save_scenario,
    scenario_to_json,
)
from engine.snapshots import (
    board_of,
    delete,
    rename,
    restore,
    take_snapshot,
    timeline,
)

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "assets" / "scenarios" / "demo.warplan.json"
T0, T1, T2, T3 = (f"2026-12-01T18:0{n}:00Z" for n in range(4))


@pytest.fixture(scope="module")
def demo() -> Scenario:
    return load_scenario(DEMO)


def unit_x(scenario: Scenario, unit_id: str) -> float:
    return scenario.unit(unit_id).models[0].x


def problems_of(document: dict[str, Any]) -> list[str]:
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(document)
    return [str(p) for p in caught.value.problems]


def branched(demo: Scenario) -> Scenario:
    """snapshot-1 (the demo) -> snapshot-2 (a unit moved 3") and, after going back to
    snapshot-1, snapshot-3 (the unit moved 3" the other way): a tree with one branch point."""
    unit = demo.units[0].id
    first = take_snapshot(demo, "As set up", T0)
    second = take_snapshot(first.with_unit_moved(unit, 3.0, 0.0), "Pushed", T1)
    back = restore(second, "snapshot-1")
    return take_snapshot(back.with_unit_moved(unit, -3.0, 0.0), "Held back", T2)


def test_an_old_file_is_read_and_written_unchanged(demo: Scenario) -> None:
    assert demo.snapshots == Snapshots()
    assert "snapshots" not in scenario_to_json(demo)
    assert json.loads(dumps_scenario(demo)) == json.loads(DEMO.read_text(encoding="utf-8"))


def test_a_snapshot_holds_the_board_and_not_the_files_own_parts(demo: Scenario) -> None:
    titled = replace(demo, title="My plan", extra={"tool": 1})
    taken = take_snapshot(titled, "Start", T0)
    [snap] = taken.snapshots.items
    assert (snap.id, snap.name, snap.parent, snap.taken) == ("snapshot-1", "Start", None, T0)
    assert snap.board == board_of(titled)
    assert snap.board.units == demo.units
    assert snap.board.terrain == demo.terrain
    assert snap.board.game == demo.game
    assert snap.board.options == demo.options
    assert (snap.board.title, dict(snap.board.extra)) == ("", {})
    assert taken.snapshots.current == "snapshot-1"
    # Taking a snapshot changes nothing on the board.
    assert board_of(taken) == board_of(titled)


def test_take_accepts_a_datetime_and_refuses_a_bad_time_or_name(demo: Scenario) -> None:
    at = datetime(2026, 12, 1, 18, 30, tzinfo=UTC)
    taken = take_snapshot(demo, "Now", at)
    assert taken.snapshots.items[0].taken == "2026-12-01T18:30:00+00:00"
    with pytest.raises(RulesError, match="ISO 8601"):
        take_snapshot(demo, "Later", "tomorrow")
    with pytest.raises(RulesError, match="name"):
        take_snapshot(demo, "  ", T0)


def test_go_back_restores_the_board_and_keeps_every_snapshot(demo: Scenario) -> None:
    unit = demo.units[0].id
    first = take_snapshot(demo, "As set up", T0)
    moved = first.with_unit_moved(unit, 3.0, 0.0)
    second = take_snapshot(moved, "Pushed", T1)
    back = restore(replace(second, title="Renamed"), "snapshot-1")
    assert unit_x(back, unit) == unit_x(demo, unit)
    assert board_of(back) == board_of(demo)
    assert back.title == "Renamed"
    assert [s.id for s in back.snapshots.items] == ["snapshot-1", "snapshot-2"]
    assert back.snapshots.current == "snapshot-1"
    forward = restore(back, "snapshot-2")
    assert unit_x(forward, unit) == unit_x(demo, unit) + 3.0


def test_the_next_snapshot_after_going_back_branches(demo: Scenario) -> None:
    tree = branched(demo)
    parents = {s.id: s.parent for s in tree.snapshots.items}
    assert parents == {"snapshot-1": None, "snapshot-2": "snapshot-1", "snapshot-3": "snapshot-1"}
    shown = timeline(tree)
    assert [(e.snapshot.id, e.depth, e.children, e.current) for e in shown.entries] == [
        ("snapshot-1", 0, ("snapshot-2", "snapshot-3"), False),
        ("snapshot-2", 1, (), False),
        ("snapshot-3", 1, (), True),
    ]
    assert shown.board_unchanged
    moved = tree.with_unit_moved(tree.units[0].id, 0.5, 0.0)
    assert not timeline(moved).board_unchanged


def test_a_deep_tree_lists_depth_first_in_the_order_taken(demo: Scenario) -> None:
    s = demo
    for name in ("a", "b", "c"):
        s = take_snapshot(s, name, T0)
    s = restore(s, "snapshot-2")
    s = take_snapshot(s, "d", T1)
    s = restore(s, "snapshot-1")
    s = take_snapshot(s, "e", T2)
    order = [(e.snapshot.name, e.depth) for e in timeline(s).entries]
    assert order == [("a", 0), ("b", 1), ("c", 2), ("d", 2), ("e", 1)]


def test_rename_changes_only_the_name(demo: Scenario) -> None:
    tree = branched(demo)
    renamed = rename(tree, "snapshot-2", "Aggressive")
    before, after = tree.snapshots.get("snapshot-2"), renamed.snapshots.get("snapshot-2")
    assert after is not None
    assert before is not None
    assert after == replace(before, name="Aggressive")
    assert board_of(renamed) == board_of(tree)
    with pytest.raises(RulesError):
        rename(tree, "snapshot-2", "")
    with pytest.raises(UnknownReferenceError, match="snapshot-9"):
        rename(tree, "snapshot-9", "x")


def test_delete_reparents_children_and_moves_current_up(demo: Scenario) -> None:
    tree = branched(demo)
    without_root = delete(tree, "snapshot-1")
    assert {s.id: s.parent for s in without_root.snapshots.items} == {
        "snapshot-2": None,
        "snapshot-3": None,
    }
    assert without_root.snapshots.current == "snapshot-3"
    without_current = delete(tree, "snapshot-3")
    assert without_current.snapshots.current == "snapshot-1"
    assert board_of(without_current) == board_of(tree)
    alone = delete(take_snapshot(demo, "only", T0), "snapshot-1")
    assert alone.snapshots == Snapshots()
    with pytest.raises(UnknownReferenceError):
        delete(tree, "nope")


def test_new_ids_never_reuse_a_live_one(demo: Scenario) -> None:
    s = take_snapshot(take_snapshot(demo, "a", T0), "b", T1)
    s = delete(s, "snapshot-1")
    s = take_snapshot(s, "c", T2)
    assert [x.id for x in s.snapshots.items] == ["snapshot-2", "snapshot-1"]


def test_take_go_back_and_branch_round_trip_through_the_file(
    demo: Scenario, tmp_path: Path
) -> None:
    tree = branched(demo)
    path = tmp_path / "plan.warplan.json"
    save_scenario(tree, path)
    reopened = load_scenario(path)
    assert reopened == tree
    assert timeline(reopened) == timeline(tree)
    back = restore(reopened, "snapshot-2")
    save_scenario(back, path)
    assert load_scenario(path) == back
    assert unit_x(load_scenario(path), demo.units[0].id) == unit_x(demo, demo.units[0].id) + 3.0


def test_a_board_is_its_own_world(demo: Scenario) -> None:
    """Ids inside a board are not the live board's: a live unit may be deleted while a board
    still holds it, and a board's unit may share a live unit's id."""
    unit = demo.units[0].id
    tree = take_snapshot(demo, "with it", T0)
    gone = replace(tree, units=tuple(u for u in tree.units if u.id != unit))
    text = dumps_scenario(gone)
    reopened = loads_scenario(text)
    assert unit not in {u.id for u in reopened.units}
    snap = reopened.snapshots.items[0]
    assert unit in {u.id for u in snap.board.units}
    assert restore(reopened, snap.id).unit(unit) == demo.unit(unit)


def written(demo: Scenario) -> dict[str, Any]:
    return json.loads(dumps_scenario(branched(demo)))


def test_a_duplicate_snapshot_id_is_refused(demo: Scenario) -> None:
    data = written(demo)
    data["snapshots"]["items"][2]["id"] = "snapshot-2"
    data["snapshots"]["current"] = "snapshot-1"
    assert problems_of(data) == [
        'snapshots.items[2].id: duplicate snapshot id "snapshot-2": already used at '
        "snapshots.items[1].id"
    ]


def test_an_unknown_parent_or_current_is_refused(demo: Scenario) -> None:
    data = written(demo)
    data["snapshots"]["items"][1]["parent"] = "snapshot-7"
    data["snapshots"]["current"] = "snapshot-8"
    assert problems_of(data) == [
        'snapshots.items[1].parent: unknown snapshot "snapshot-7"; known: snapshot-1, '
        "snapshot-2, snapshot-3",
        'snapshots.current: unknown snapshot "snapshot-8"; known: snapshot-1, snapshot-2, '
        "snapshot-3",
    ]


def test_a_cycle_of_parents_is_refused_once(demo: Scenario) -> None:
    data = written(demo)
    data["snapshots"]["items"][0]["parent"] = "snapshot-2"
    assert problems_of(data) == [
        'snapshots.items[0].parent: its parents form a cycle: "snapshot-1" -> "snapshot-2" '
        '-> "snapshot-1"'
    ]
    data = written(demo)
    data["snapshots"]["items"][2]["parent"] = "snapshot-3"
    assert problems_of(data) == [
        'snapshots.items[2].parent: its parents form a cycle: "snapshot-3" -> "snapshot-3"'
    ]


def test_a_board_that_would_not_load_names_its_place(demo: Scenario) -> None:
    data = written(demo)
    board = data["snapshots"]["items"][1]["board"]
    board["units"][0]["models"][0]["x"] = "a"
    board["units"][1]["player"] = "green"
    board["title"] = "not a board's"
    problems = problems_of(data)
    assert 'snapshots.items[1].board.units[0].models[0].x: must be a number, got "a"' in problems
    assert any(
        p.startswith('snapshots.items[1].board.units[1].player: unknown player "green"')
        for p in problems
    )
    assert any(p.startswith("snapshots.items[1].board.title: unknown key") for p in problems)
    assert all(p.startswith("snapshots.items[1].board.") for p in problems)


def test_a_board_missing_its_players_or_snapshots_inside_a_board_are_refused(
    demo: Scenario,
) -> None:
    data = written(demo)
    del data["snapshots"]["items"][0]["board"]["players"]
    data["snapshots"]["items"][2]["board"]["snapshots"] = {}
    problems = problems_of(data)
    assert "snapshots.items[0].board.players: missing required key" in problems
    assert any(p.startswith("snapshots.items[2].board.snapshots: unknown key") for p in problems)


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        (
            "taken",
            "yesterday",
            'snapshots.items[0].taken: must be an ISO 8601 date and time, got "yesterday"',
        ),
        ("taken", 5, "snapshots.items[0].taken: must be a string, got 5"),
        ("name", "", "snapshots.items[0].name: must not be empty"),
        ("parent", 3, "snapshots.items[0].parent: must be a string, got 3"),
        (
            "colour",
            "red",
            "snapshots.items[0].colour: unknown key (allowed: id, name, parent, taken, board)",
        ),
    ],
)
def test_each_snapshot_key_is_checked(demo: Scenario, key: str, value: Any, message: str) -> None:
    data = written(demo)
    data["snapshots"]["items"][0][key] = value
    assert message in problems_of(data)


def test_a_parent_written_null_is_a_root(demo: Scenario) -> None:
    data = written(demo)
    data["snapshots"]["items"][0]["parent"] = None
    data["snapshots"]["current"] = None
    reopened = parse_scenario(data)
    assert reopened.snapshots.items[0].parent is None
    assert reopened.snapshots.current is None


def test_a_migration_migrates_each_board(demo: Scenario, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file with snapshots written in version 1 opens once a version 2 exists: the step
    that migrates the document migrates every board the same way."""
    data = written(demo)
    seen: list[dict[str, Any]] = []

    def rename_unit_names(document: dict[str, Any]) -> dict[str, Any]:
        seen.append(copy.deepcopy(document))
        for unit in document.get("units", []):
            unit["name"] = unit.get("name", "") + " (v2)"
        return document

    monkeypatch.setattr(scenario_io, "MIGRATIONS", {0: rename_unit_names})
    data["version"] = 0
    migrated = scenario_io.migrate(data)
    assert migrated["version"] == 1
    assert len(seen) == 4  # three boards, then the document
    assert all(doc["version"] == 0 and doc["format"] == "warplan.scenario" for doc in seen)
    for item in migrated["snapshots"]["items"]:
        assert "format" not in item["board"]
        assert "version" not in item["board"]
        assert all(u["name"].endswith(" (v2)") for u in item["board"]["units"])
    assert all(u["name"].endswith(" (v2)") for u in migrated["units"])
    parse_scenario(migrated)
