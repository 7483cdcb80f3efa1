"""Comparing two boards: a board with itself is empty, a moved unit shows exactly the changes
the engine's own answers give, comparing the other way round mirrors, the CLI's three forms."""

from __future__ import annotations

import io
import json
from dataclasses import replace
from pathlib import Path

import pytest

from engine.cli import EXIT_BAD_INPUT, EXIT_OK, EXIT_USAGE, main
from engine.compare import Comparison, SightAnswer, ThreatOdds, compare
from engine.evaluate import evaluate
from engine.layouts import apply_layout, layout_index
from engine.model import CircleBase, Model, Objective, Player, Scenario, Unit
from engine.scenario_io import load_scenario, save_scenario
from engine.snapshots import take_snapshot
from engine.threat import unit_threats
from engine.visibility import visibility

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "assets" / "scenarios" / "demo.warplan.json"
JUST = 1e-4


@pytest.fixture(scope="module")
def demo() -> Scenario:
    return load_scenario(DEMO)


def expected_differences(a: Scenario, b: Scenario) -> dict[str, object]:
    """The differences worked out straight from the engine's answers for each board."""
    control_a = {o.id: (sorted(o.controlled_by), o.verdict) for o in evaluate(a).objectives}
    control_b = {o.id: (sorted(o.controlled_by), o.verdict) for o in evaluate(b).objectives}
    sight_a = {(p.observer, p.target): SightAnswer.of(p) for p in visibility(a)}
    sight_b = {(p.observer, p.target): SightAnswer.of(p) for p in visibility(b)}
    shared = {u.id for u in a.units} & {u.id for u in b.units}
    odds_a = {
        (u, t.target): ThreatOdds.of(t).odds for u in shared for t in unit_threats(a, u).targets
    }
    odds_b = {
        (u, t.target): ThreatOdds.of(t).odds for u in shared for t in unit_threats(b, u).targets
    }
    return {
        "control": sorted(o for o in control_a if control_a[o] != control_b.get(o)),
        "sight": sorted(k for k in sight_a if k in sight_b and sight_a[k] != sight_b[k]),
        "threats": sorted(k for k in odds_a if k in odds_b and odds_a[k] != odds_b[k]),
    }


def found_differences(result: Comparison) -> dict[str, object]:
    return {
        "control": [c.objective for c in result.control],
        "sight": [(s.observer, s.target) for s in result.sight],
        "threats": [(t.unit, t.target) for t in result.threats],
    }


def test_a_board_compared_with_itself_is_empty(demo: Scenario) -> None:
    result = compare(demo, demo)
    assert result.empty
    assert result.sections() == ()
    assert result.text() == "No differences between A and B"
    assert result.to_json() == {
        "a": "A",
        "b": "B",
        "objectives": [],
        "visibility": [],
        "threats": [],
        "moved": [],
        "only_in_a": [],
        "only_in_b": [],
    }


def test_an_official_layout_compared_with_itself_is_empty(demo: Scenario) -> None:
    board = apply_layout(demo, layout_index()[0].id)
    assert compare(board, board).empty
    # The same board built again (equal, not the same objects) is no different either.
    assert compare(board, apply_layout(demo, layout_index()[0].id)).empty


def test_a_moved_unit_shows_exactly_what_the_engine_answers(demo: Scenario) -> None:
    unit = "red-intercessors"
    moved = demo.with_unit_moved(unit, 3.0, 4.0)
    result = compare(demo, moved)
    assert found_differences(result) == expected_differences(demo, moved)
    assert [(m.unit, m.distance) for m in result.moved] == [(unit, 5.0)]
    assert result.control
    assert result.sight
    assert result.threats
    assert unit in result.unit_ids()


@pytest.mark.parametrize("dx", [4.0, -6.0, 12.0])
def test_every_units_move_matches_the_engine(demo: Scenario, dx: float) -> None:
    for unit in demo.units[:3]:
        moved = demo.with_unit_moved(unit.id, dx, 0.0)
        assert found_differences(compare(demo, moved)) == expected_differences(demo, moved)


def test_comparing_the_other_way_round_mirrors(demo: Scenario) -> None:
    moved = demo.with_unit_moved("red-intercessors", 3.0, 4.0)
    fewer = replace(moved, units=moved.units[1:])
    for a, b in ((demo, moved), (demo, fewer), (fewer, moved)):
        forward = compare(a, b, "first", "second")
        assert compare(b, a, "second", "first") == forward.mirrored()
        assert forward.mirrored().mirrored() == forward


def two_units(red_x: float) -> Scenario:
    red = Unit("red-u", "red", (Model("red-m", red_x, 22.0, CircleBase(25.4)),), move=6)
    blue = Unit("blue-u", "blue", (Model("blue-m", 50.0, 22.0, CircleBase(25.4)),), move=6)
    return Scenario(
        "wh40k-ca2026",
        (Player("red", "Red"), Player("blue", "Blue")),
        units=(red, blue),
        objectives=(Objective("obj", 30.0, 22.0),),
    )


def test_control_changes_exactly_at_the_objective_range() -> None:
    """Chapter Approved holds an objective within 3" of the marker's edge: a base edge 3" from
    it is in range, 3.0001" is not."""
    marker = Objective("obj", 30.0, 22.0).radius
    at_range = 30.0 - marker - 3.0 - 0.5
    far = two_units(10.0)
    assert compare(far, two_units(at_range)).control[0].b == ("red",)
    assert compare(far, two_units(at_range - JUST)).control == ()
    result = compare(two_units(at_range - JUST), two_units(at_range))
    [change] = result.control
    assert (change.a, change.b, change.a_verdict, change.b_verdict) == (
        (),
        ("red",),
        "nobody",
        "Red controls",
    )


def test_threat_changes_exactly_at_a_roll() -> None:
    """red-u 9" from blue-u's engagement range advances there on a 3+ (2/3); 1e-4" further it
    needs a 4+ (1/2); the same distance again is no change."""
    gap_edge = 50.0 - 0.5 - 2.0 - 9.0 - 0.5
    nine, beyond = two_units(gap_edge), two_units(gap_edge - JUST)
    [change, back] = compare(nine, beyond).threats
    assert (change.unit, change.target) == ("blue-u", "red-u")
    assert (str(change.a.advance), str(change.b.advance)) == ("2/3", "1/2")
    assert (back.unit, str(back.a.advance), str(back.b.advance)) == ("red-u", "2/3", "1/2")
    assert compare(nine, two_units(gap_edge)).threats == ()


def test_a_unit_turned_or_raised_in_place_moved_zero(demo: Scenario) -> None:
    unit = demo.unit("red-intercessors")
    turned = replace(unit, models=(replace(unit.models[0], rotation=45.0), *unit.models[1:]))
    [move] = compare(demo, demo.with_unit(turned)).moved
    assert (move.unit, move.distance) == ("red-intercessors", 0.0)


def test_units_on_one_board_only_are_listed(demo: Scenario) -> None:
    fewer = replace(demo, units=demo.units[1:])
    result = compare(demo, fewer)
    assert result.only_in_a == (demo.units[0].id,)
    assert result.only_in_b == ()
    assert demo.units[0].id not in {s.observer for s in result.sight}
    section = result.sections()[-1]
    assert section.verdict == "1 unit is on the battlefield of A only"
    assert section.ids == (demo.units[0].id,)


def test_sections_name_what_each_line_is_about(demo: Scenario) -> None:
    moved = demo.with_unit_moved("red-intercessors", 3.0, 4.0)
    result = compare(demo, moved, "before", "after")
    sections = result.sections()
    verdicts = [s.verdict for s in sections]
    assert verdicts[-1] == "1 unit moved"
    assert sections[-1].lines[0].text == 'red-intercessors moved 5"'
    control = sections[0]
    assert control.ids == tuple(c.objective for c in result.control)
    assert " in before, " in control.lines[0].text
    assert control.lines[0].text.endswith(" in after")
    text = result.text()
    assert text.startswith("Differences between before and after")
    assert all(s.verdict in text for s in sections)


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = main(list(argv), out=out, err=err)
    return status, out.getvalue(), err.getvalue()


@pytest.fixture
def timeline_file(demo: Scenario, tmp_path: Path) -> Path:
    first = take_snapshot(demo, "As set up", "2026-12-01T18:00:00Z")
    moved = first.with_unit_moved("red-intercessors", 3.0, 4.0)
    second = take_snapshot(moved, "Pushed", "2026-12-01T18:05:00Z")
    path = tmp_path / "plan.warplan.json"
    save_scenario(second.with_unit_moved("red-intercessors", 0.0, 1.0), path)
    return path


def test_cli_compares_two_files(demo: Scenario, tmp_path: Path) -> None:
    moved_path = tmp_path / "moved.warplan.json"
    save_scenario(demo.with_unit_moved("red-intercessors", 3.0, 4.0), moved_path)
    status, out, err = run("compare", str(DEMO), str(moved_path), "--json")
    assert status == EXIT_OK, err
    data = json.loads(out)
    expected = compare(demo, load_scenario(moved_path), str(DEMO), str(moved_path)).to_json()
    assert data == expected
    assert data["moved"] == [{"unit": "red-intercessors", "distance": 5.0}]
    status, out, _ = run("compare", str(DEMO), str(DEMO))
    assert (status, out) == (EXIT_OK, f"No differences between {DEMO} and {DEMO}\n")


def test_cli_compares_two_snapshots_or_one_and_the_live_board(timeline_file: Path) -> None:
    path = str(timeline_file)
    status, out, err = run(
        "compare", path, "--snapshot", "snapshot-1", "--snapshot", "snapshot-2", "--json"
    )
    assert status == EXIT_OK, err
    data = json.loads(out)
    assert (data["a"], data["b"]) == ("As set up (snapshot-1)", "Pushed (snapshot-2)")
    assert data["moved"] == [{"unit": "red-intercessors", "distance": 5.0}]
    status, out, err = run("compare", path, "--snapshot", "snapshot-2", "--json")
    assert status == EXIT_OK, err
    data = json.loads(out)
    assert data["b"] == f"{path} (live board)"
    assert data["moved"] == [{"unit": "red-intercessors", "distance": 1.0}]
    status, out, _ = run("compare", path, "--snapshot", "snapshot-1", "--snapshot", "snapshot-2")
    assert out.startswith("Differences between As set up (snapshot-1) and Pushed (snapshot-2)")


def test_cli_refuses_what_it_cannot_compare(timeline_file: Path, tmp_path: Path) -> None:
    path = str(timeline_file)
    status, _, err = run("compare", path, "--snapshot", "snapshot-9")
    assert status == EXIT_BAD_INPUT
    assert err.startswith("error: no snapshot 'snapshot-9'; known: snapshot-1, snapshot-2")
    usage = "error: compare takes two files, or one file and one or two --snapshot ids\n"
    three = ["--snapshot", "snapshot-1"] * 3
    for argv in ([path], [path, path, "--snapshot", "snapshot-1"], [path, *three]):
        assert run("compare", *argv)[::2] == (EXIT_USAGE, usage)
    broken = tmp_path / "broken.warplan.json"
    broken.write_text("{}", encoding="utf-8")
    status, _, err = run("compare", path, str(broken))
    assert status == EXIT_BAD_INPUT
    assert err.startswith(f"{broken}: not a valid scenario")
