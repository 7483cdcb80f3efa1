"""The command line: exit statuses, messages naming places, and the contract JSON."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.cli import EXIT_BAD_INPUT, EXIT_OK, EXIT_USAGE, main

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).resolve().parent / "data"
DEMO = ROOT / "assets" / "scenarios" / "demo.warplan.json"
SPEC_EVALUATE = DATA / "spec-evaluate-example.warplan.json"


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = main(list(argv), out=out, err=err)
    return status, out.getvalue(), err.getvalue()


def test_validate_accepts_the_demo() -> None:
    status, out, err = run("validate", str(DEMO))
    assert status == EXIT_OK, err
    assert "valid" in out


def test_evaluate_reproduces_the_spec_example() -> None:
    """The spec's evaluate example, made concrete, gives exactly the spec's values."""
    status, out, err = run("evaluate", str(SPEC_EVALUATE), "--json")
    assert status == EXIT_OK, err
    result = json.loads(out)
    [centre] = result["objectives"]
    assert centre["id"] == "obj-centre"
    assert centre["controlled_by"] == ["red"]
    assert centre["level"] == {"red": 4, "blue": 0}
    assert centre["in_range"] == {"red": ["red-i1", "red-i2"], "blue": []}
    intercessors = next(u for u in result["units"] if u["id"] == "red-intercessors")
    assert intercessors["quarter"] == "SW"
    assert intercessors["within_6_of_centre"] is False
    assert intercessors["engaged_with"] == ["blue-boyz"]
    assert intercessors["zones_wholly_within"] == ["red-dz"]
    assert intercessors["territory"] == "red"
    pair = next(
        v
        for v in result["visibility"]
        if v["observer"] == "red-intercessors" and v["target"] == "blue-boyz"
    )
    assert (pair["visible"], pair["fully_visible"], pair["cover"]) == (True, False, True)


def test_evaluate_json_lists_every_opposing_ordered_pair() -> None:
    status, out, _ = run("evaluate", str(DEMO), "--json")
    assert status == EXIT_OK
    result = json.loads(out)
    units = json.loads(DEMO.read_text())["units"]
    players = {u["id"]: u["player"] for u in units}
    expected = sorted((a, b) for a in players for b in players if players[a] != players[b])
    got = sorted((v["observer"], v["target"]) for v in result["visibility"])
    assert got == expected
    for objective in result["objectives"]:
        for ids in objective["in_range"].values():
            assert ids == sorted(ids)


def test_evaluate_prints_a_readable_ruling() -> None:
    status, out, _ = run("evaluate", str(DEMO), "--no-visibility")
    assert status == EXIT_OK
    assert "obj-centre" in out
    assert '"' in out  # distances are given in inches


@pytest.mark.parametrize("command", ["validate", "evaluate", "score"])
def test_bad_file_exits_2_naming_the_place(tmp_path: Path, command: str) -> None:
    document = json.loads(DEMO.read_text())
    document["units"][3]["models"][0]["base"]["diameter"] = -32
    bad = tmp_path / "bad.warplan.json"
    bad.write_text(json.dumps(document))
    before = bad.read_bytes()
    status, out, err = run(command, str(bad))
    assert status == EXIT_BAD_INPUT
    assert "units[3].models[0].base.diameter" in err
    assert "-32" in err
    assert out == ""
    assert bad.read_bytes() == before


@pytest.mark.parametrize(
    "content", [b"not json at all", b"", b"[1, 2, 3]", b"{" * 5000, b"\xff\xfe\x00"]
)
def test_unreadable_input_exits_2_without_traceback(tmp_path: Path, content: bytes) -> None:
    bad = tmp_path / "bad.warplan.json"
    bad.write_bytes(content)
    status, _, err = run("evaluate", str(bad))
    assert status == EXIT_BAD_INPUT
    assert "Traceback" not in err
    assert err.strip()


def test_missing_file_exits_2(tmp_path: Path) -> None:
    status, _, err = run("validate", str(tmp_path / "nowhere.warplan.json"))
    assert status == EXIT_BAD_INPUT
    assert "nowhere.warplan.json" in err


def test_unknown_command_is_a_usage_error() -> None:
    status, _, _ = run("frobnicate")
    assert status == EXIT_USAGE


def test_primary_prints_the_card_name() -> None:
    status, out, _ = run("primary", "Purge the Foe", "Purge the Foe")
    assert status == EXIT_OK
    assert out.strip() == "MEATGRINDER"


def test_primary_rejects_an_unknown_force_disposition() -> None:
    status, _, err = run("primary", "Take and Hold", "Nonsense")
    assert status == EXIT_BAD_INPUT
    assert "Nonsense" in err


def test_score_json_has_the_contract_keys() -> None:
    status, out, err = run("score", str(DEMO), "--json")
    assert status == EXIT_OK, err
    result = json.loads(out)
    assert {"battle_round", "active_player", "timing", "players"} <= result.keys()
    for player in result["players"].values():
        assert {"vp", "cards"} <= player.keys()
        assert player["vp"] == sum(card["vp"] for card in player["cards"].values())
        for card in player["cards"].values():
            for line in card["lines"]:
                assert {"text", "holds", "vp", "reason"} <= line.keys()


def test_module_entry_point_runs_as_a_process() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "engine", "validate", str(DEMO)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert result.returncode == EXIT_OK, result.stderr
