"""Comparing two boards: a board with itself is empty, a moved unit shows exactly the changes
the engine's own answers give, comparing the other way round mirrors, the CLI's three forms."""

from __future__ import annotations

import io
import json
from dataclasses import replace
from pathlib import Path

import pytest

from engine.cli import EXIT_BAD_INPUT, EXIT_OK, EXIT_USAGE, main
from engine.compare import Comparison, HiddenCounts, SightAnswer, ThreatOdds, common_base, compare
from engine.evaluate import evaluate
from engine.hidden import hidden_map
from engine.layouts import apply_layout, layout_index
from engine.model import (
    CircleBase,
    CustomDeployment,
    DeploymentRegion,
    Model,
    Objective,
    OvalBase,
    Player,
    Scenario,
    TerrainFeature,
    TerrainPiece,
    Unit,
)
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


def expected_differences(a: Scenario, b: Scenario, *, hidden: bool = True) -> dict[str, object]:
    """The differences worked out straight from the engine's answers for each board (the
    hidden areas on the 0.5" grid, each player's most common base, when asked)."""
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
    found_hidden = []
    for player in a.player_ids() if hidden else ():
        common = common_base((a, b), player)
        assert common is not None
        base, height = common
        maps = [
            hidden_map(board, player=player, base=base, height=height, step=0.5) for board in (a, b)
        ]
        if {c for c in maps[0].cells if c[2] == "hidden"} != {
            c for c in maps[1].cells if c[2] == "hidden"
        } or HiddenCounts.of(maps[0]) != HiddenCounts.of(maps[1]):
            found_hidden.append((player, HiddenCounts.of(maps[0]), HiddenCounts.of(maps[1])))
    return {
        **({"hidden": found_hidden} if hidden else {}),
        "control": sorted(o for o in control_a if control_a[o] != control_b.get(o)),
        "sight": sorted(k for k in sight_a if k in sight_b and sight_a[k] != sight_b[k]),
        "threats": sorted(k for k in odds_a if k in odds_b and odds_a[k] != odds_b[k]),
    }


def found_differences(result: Comparison, *, hidden: bool = True) -> dict[str, object]:
    return {
        **({"hidden": [(h.player, h.a, h.b) for h in result.hidden]} if hidden else {}),
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
        "hidden": [],
        "notes": [],
    }


def test_an_official_layout_compared_with_itself_is_empty(demo: Scenario) -> None:
    board = apply_layout(demo, layout_index()[0].id)
    assert compare(board, board).empty
    # The same board built again (equal, not the same objects) is no different either.
    assert compare(board, apply_layout(demo, layout_index()[0].id)).empty


def test_a_moved_unit_shows_exactly_what_the_engine_answers(demo: Scenario) -> None:
    unit = "red-intercessors"
    moved = demo.with_unit_moved(unit, 3.0, 4.0)
    result = compare(demo, moved, hidden=False)
    expected = expected_differences(demo, moved, hidden=False)
    assert found_differences(result, hidden=False) == expected
    assert [(m.unit, m.distance) for m in result.moved] == [(unit, 5.0)]
    assert result.control
    assert result.sight
    assert result.threats
    assert unit in result.unit_ids()


@pytest.mark.parametrize("dx", [4.0, -6.0, 12.0])
def test_every_units_move_matches_the_engine(demo: Scenario, dx: float) -> None:
    for unit in demo.units[:3]:
        moved = demo.with_unit_moved(unit.id, dx, 0.0)
        expected = expected_differences(demo, moved, hidden=False)
        assert found_differences(compare(demo, moved, hidden=False), hidden=False) == expected


def test_comparing_the_other_way_round_mirrors(demo: Scenario) -> None:
    moved = demo.with_unit_moved("red-intercessors", 3.0, 4.0)
    fewer = replace(moved, units=moved.units[1:])
    for a, b in ((demo, moved), (demo, fewer), (fewer, moved)):
        forward = compare(a, b, "first", "second", hidden=False)
        assert compare(b, a, "second", "first", hidden=False) == forward.mirrored()
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
    assert compare(far, two_units(at_range), hidden=False).control[0].b == ("red",)
    assert compare(far, two_units(at_range - JUST), hidden=False).control == ()
    result = compare(two_units(at_range - JUST), two_units(at_range), hidden=False)
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
    [change, back] = compare(nine, beyond, hidden=False).threats
    assert (change.unit, change.target) == ("blue-u", "red-u")
    assert (str(change.a.advance), str(change.b.advance)) == ("2/3", "1/2")
    assert (back.unit, str(back.a.advance), str(back.b.advance)) == ("red-u", "2/3", "1/2")
    assert compare(nine, two_units(gap_edge), hidden=False).threats == ()


def test_a_unit_turned_or_raised_in_place_moved_zero(demo: Scenario) -> None:
    unit = demo.unit("red-intercessors")
    turned = replace(unit, models=(replace(unit.models[0], rotation=45.0), *unit.models[1:]))
    [move] = compare(demo, demo.with_unit(turned), hidden=False).moved
    assert (move.unit, move.distance) == ("red-intercessors", 0.0)


def test_units_on_one_board_only_are_listed(demo: Scenario) -> None:
    fewer = replace(demo, units=demo.units[1:])
    result = compare(demo, fewer, hidden=False)
    assert result.only_in_a == (demo.units[0].id,)
    assert result.only_in_b == ()
    assert demo.units[0].id not in {s.observer for s in result.sight}
    section = result.sections()[-1]
    assert section.verdict == "1 unit is on the battlefield of A only"
    assert section.ids == (demo.units[0].id,)


def test_sections_name_what_each_line_is_about(demo: Scenario) -> None:
    moved = demo.with_unit_moved("red-intercessors", 3.0, 4.0)
    result = compare(demo, moved, "before", "after", hidden=False)
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


WALL = ((20.0, 0.0), (21.0, 0.0), (21.0, 44.0), (20.0, 44.0))


def walled(blue_at: tuple[float, float]) -> Scenario:
    """A 5" wall from edge to edge at x = 20; Red's 12" x 12" zone west of it, Blue's east;
    Red's unit in its zone, Blue's at ``blue_at``."""

    def zone(player: str, x0: float) -> DeploymentRegion:
        square = ((x0, 16.0), (x0 + 12.0, 16.0), (x0 + 12.0, 28.0), (x0, 28.0))
        return DeploymentRegion(f"{player}-zone", player, square)

    red = Unit("red-u", "red", (Model("red-m", 6.0, 22.0, CircleBase(32)),), move=6)
    blue = Unit("blue-u", "blue", (Model("blue-m", *blue_at, CircleBase(32)),), move=6)
    return Scenario(
        "wh40k-ca2026",
        (Player("red", "Red"), Player("blue", "Blue")),
        deployment=CustomDeployment(zones=(zone("red", 0.0), zone("blue", 48.0))),
        units=(red, blue),
        terrain=(TerrainPiece("wall", WALL, features=(TerrainFeature(WALL, 5.0),)),),
    )


def test_hidden_area_is_the_engines_map_of_each_board() -> None:
    """Blue behind the wall sees none of Red's zone; Blue come round the wall sees most of it:
    Red's hidden area is exactly what the hidden-placement map of each board gives."""
    behind, round_the_wall = walled((54.0, 22.0)), walled((14.0, 40.0))
    result = compare(behind, round_the_wall)
    assert found_differences(result) == expected_differences(behind, round_the_wall)
    maps = [
        hidden_map(board, player="red", base=CircleBase(32), height=1.5, step=0.5)
        for board in (behind, round_the_wall)
    ]
    red = next(h for h in result.hidden if h.player == "red")
    assert (red.base, red.height, red.step, red.observers) == (CircleBase(32), 1.5, 0.5, "models")
    assert (red.a, red.b) == (HiddenCounts.of(maps[0]), HiddenCounts.of(maps[1]))
    hidden = [{(x, y) for x, y, state in m.cells if state == "hidden"} for m in maps]
    assert red.hidden_in_a_only == len(hidden[0] - hidden[1]) > 0
    assert red.hidden_in_b_only == len(hidden[1] - hidden[0])
    assert red.a.area == red.a.hidden * 0.25
    assert red.a.area > red.b.area
    assert compare(round_the_wall, behind, "B", "A") == result.mirrored()
    section = next(s for s in result.sections() if "hidden" in s.verdict)
    assert any(line.text.startswith('Red, round 32 mm 1.5" tall: ') for line in section.lines)
    [red_json] = [d for d in result.to_json()["hidden"] if d["player"] == "red"]
    assert red_json == {
        "player": "red",
        "base": {"shape": "circle", "diameter": 32},
        "height": 1.5,
        "step": 0.5,
        "observers": "models",
        "a": red.a.to_json(),
        "b": red.b.to_json(),
        "hidden_in_a_only": red.hidden_in_a_only,
        "hidden_in_b_only": red.hidden_in_b_only,
    }


def test_a_player_with_no_model_has_a_note_not_a_hidden_area() -> None:
    lonely = walled((54.0, 22.0))
    no_blue = replace(lonely, units=lonely.units[:1])
    result = compare(no_blue, replace(no_blue, units=(no_blue.units[0].moved(1.0, 0.0),)))
    assert result.notes == ("blue: no hidden area compared (no model on either board)",)
    assert "blue" not in [h.player for h in result.hidden]
    assert result.text().endswith("blue: no hidden area compared (no model on either board)")


def test_the_common_base_is_the_one_most_models_stand_on() -> None:
    def board(*bases: tuple[float, float]) -> Scenario:
        models = tuple(
            Model(f"m{i}", 2.0 * i, 1.0, CircleBase(d), height=h) for i, (d, h) in enumerate(bases)
        )
        return Scenario(
            "wh40k-ca2026", (Player("red"), Player("blue")), units=(Unit("u", "red", models),)
        )

    assert common_base([board((32, 1.5), (32, 2.0), (32, 2.0), (60, 3.0))], "red") == (
        CircleBase(32),
        2.0,
    )
    # Counted over both boards together, so the comparison is the same either way round.
    first, second = board((60, 3.0), (60, 3.0)), board((32, 1.5), (32, 1.5), (32, 1.5))
    assert common_base([first, second], "red") == common_base([second, first], "red")
    assert common_base([first, second], "red") == (CircleBase(32), 1.5)
    # Ties: the smaller base, then the lower height.
    assert common_base([board((60, 3.0), (32, 2.0))], "red") == (CircleBase(32), 2.0)
    assert common_base([board((32, 2.0), (32, 1.5))], "red") == (CircleBase(32), 1.5)
    oval = replace(
        board((32, 1.5)), units=(Unit("u", "red", (Model("o", 1, 1, OvalBase(60, 35)),)),)
    )
    assert common_base([oval], "red") == (OvalBase(60, 35), 1.5)


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
    status, out, err = run("compare", str(DEMO), str(moved_path), "--json", "--no-hidden")
    assert status == EXIT_OK, err
    data = json.loads(out)
    moved = load_scenario(moved_path)
    assert data == compare(demo, moved, str(DEMO), str(moved_path), hidden=False).to_json()
    assert data["moved"] == [{"unit": "red-intercessors", "distance": 5.0}]
    behind, round_the_wall = tmp_path / "behind.warplan.json", tmp_path / "round.warplan.json"
    save_scenario(walled((54.0, 22.0)), behind)
    save_scenario(walled((14.0, 40.0)), round_the_wall)
    status, out, err = run("compare", str(behind), str(round_the_wall), "--json")
    assert status == EXIT_OK, err
    expected = compare(walled((54.0, 22.0)), walled((14.0, 40.0)), str(behind), str(round_the_wall))
    assert json.loads(out) == expected.to_json()
    assert json.loads(out)["hidden"]
    status, out, _ = run("compare", str(DEMO), str(DEMO))
    assert (status, out) == (EXIT_OK, f"No differences between {DEMO} and {DEMO}\n")


def test_cli_compares_two_snapshots_or_one_and_the_live_board(timeline_file: Path) -> None:
    path = str(timeline_file)
    status, out, err = run(
        "compare",
        path,
        "--snapshot",
        "snapshot-1",
        "--snapshot",
        "snapshot-2",
        "--json",
        "--no-hidden",
    )
    assert status == EXIT_OK, err
    data = json.loads(out)
    assert (data["a"], data["b"]) == ("As set up (snapshot-1)", "Pushed (snapshot-2)")
    assert data["moved"] == [{"unit": "red-intercessors", "distance": 5.0}]
    status, out, err = run("compare", path, "--snapshot", "snapshot-2", "--json", "--no-hidden")
    assert status == EXIT_OK, err
    data = json.loads(out)
    assert data["hidden"] == []
    assert data["b"] == f"{path} (live board)"
    assert data["moved"] == [{"unit": "red-intercessors", "distance": 1.0}]
    status, out, _ = run(
        "compare", path, "--snapshot", "snapshot-1", "--snapshot", "snapshot-2", "--no-hidden"
    )
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
