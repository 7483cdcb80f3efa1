"""Army-list importers: a 2000-point list in each format, broken lists whose messages name
the line, unknown units kept with suggestions, and the ``import-army`` command's JSON."""

from __future__ import annotations

import base64
import gzip
import io
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.army_lists import (
    MAX_MODELS,
    ArmyList,
    detect_format,
    load_army_list,
    parse_army_list,
)
from engine.cli import EXIT_BAD_INPUT, EXIT_OK, main
from engine.errors import ArmyListError, WarplanError

LISTS = Path(__file__).resolve().parent / "data" / "army_lists"


def read(name: str) -> str:
    return (LISTS / name).read_text(encoding="utf-8")


def lines_of(army: ArmyList) -> list[tuple[int, str, int]]:
    return [(u.line, u.datasheet.id, u.models) for u in army.units]


# -------------------------------------------------------------------- one list per format


def test_gw_app_export() -> None:
    army = load_army_list(LISTS / "gw_app_space_marines.txt")
    assert (army.format, army.faction, army.name) == (
        "gw-app",
        "adeptus-astartes",
        "Hammer of Macragge",
    )
    assert army.unresolved == ()
    assert lines_of(army)[:4] == [
        (10, "captain-in-gravis-armour", 1),
        (16, "librarian", 1),
        (21, "apothecary", 1),
        (28, "intercessor-squad", 10),
    ]
    by_name = {u.datasheet.name: u for u in army.units}
    assert by_name["Hellblaster Squad"].models == 10
    assert by_name["Eradicator Squad"].models == 3
    assert by_name["Redemptor Dreadnought"].models == 1
    # The list's faction picks its own copy of a datasheet several factions share.
    assert by_name["Rhino"].datasheet.id == "adeptus-astartes/rhino"
    assert sum(u.points or 0 for u in army.units) == 1955
    assert len(army.units) == 15


def test_listforge_text_export() -> None:
    army = load_army_list(LISTS / "listforge_orks.txt")
    assert (army.format, army.faction, army.name) == ("listforge-text", "orks", "Da Green Tide")
    assert army.unresolved == ()
    counts = [(u.datasheet.name, u.models) for u in army.units]
    assert counts[:5] == [
        ("Ghazghkull Thraka", 1),
        ("Warboss", 1),
        ("Painboy", 1),
        ("Boyz", 20),
        ("Boyz", 10),
    ]
    assert ("Meganobz", 4) in counts
    assert ("Gretchin", 11) in counts
    assert sum(u.models for u in army.units) == 95
    assert sum(u.points or 0 for u in army.units) == 2010


def test_listforge_json_export() -> None:
    army = load_army_list(LISTS / "listforge_necrons.json")
    assert (army.format, army.faction) == ("listforge-json", "necrons")
    assert army.name == "Sautekh Vanguard"
    assert army.unresolved == ()
    assert lines_of(army)[0][1:] == ("imotekh-the-stormlord", 1)
    assert {u.datasheet.name: u.models for u in army.units}["Lychguard"] == 10
    warriors = [u for u in army.units if u.datasheet.name == "Necron Warriors"]
    assert [u.models for u in warriors] == [20, 10]
    text = read("listforge_necrons.json").splitlines()
    for unit in army.units:
        assert f'"name": "{unit.text}"' in text[unit.line - 1]
    assert len(army.units) == 19


def test_newrecruit_json_export() -> None:
    army = load_army_list(LISTS / "newrecruit_tau.json")
    assert (army.format, army.faction, army.name) == (
        "newrecruit-json",
        "tau-empire",
        "Kauyon Gunline",
    )
    assert army.unresolved == ()
    models = {u.datasheet.name: u.models for u in army.units}
    assert models["Strike Team"] == 10
    assert models["Stealth Battlesuits"] == 5
    assert models["Commander Shadowsun"] == 1
    assert len(army.units) == 19


def test_newrecruit_text_export() -> None:
    army = load_army_list(LISTS / "newrecruit_world_eaters.txt")
    assert (army.format, army.faction) == ("newrecruit-text", "world-eaters")
    assert army.unresolved == ()
    assert lines_of(army)[:2] == [(12, "angron", 1), (14, "kharn-the-betrayer", 1)]
    models = {u.datasheet.name: u.models for u in army.units}
    assert models["Khorne Berzerkers"] == 10
    assert models["Goremongers"] == 8
    assert models["Chaos Spawn"] == 2
    rhinos = [u for u in army.units if u.datasheet.name == "Chaos Rhino"]
    assert [u.datasheet.id for u in rhinos] == ["world-eaters/chaos-rhino"] * 2
    assert sum(u.points or 0 for u in army.units) == 1970


def test_a_pasted_list_reads_as_its_file() -> None:
    for name in LISTS.iterdir():
        assert parse_army_list(name.read_text(encoding="utf-8")) == load_army_list(name)


def test_windows_line_ends_and_a_byte_order_mark_change_nothing(tmp_path: Path) -> None:
    for name in sorted(LISTS.iterdir()):
        pasted = "\ufeff" + name.read_text(encoding="utf-8").replace("\n", "\r\n")
        assert parse_army_list(pasted) == load_army_list(name)
        saved = tmp_path / name.name
        saved.write_bytes(pasted.encode("utf-8"))
        assert load_army_list(saved) == load_army_list(name)


def test_a_listforge_share_string_reads_as_its_json() -> None:
    payload = base64.b64encode(gzip.compress(read("listforge_necrons.json").encode())).decode()
    for shared in (payload, f"https://listforge.app/#/listforge/{payload}"):
        army = parse_army_list(shared)
        assert army.format == "listforge-json"
        assert [u.datasheet.id for u in army.units] == [
            u.datasheet.id for u in load_army_list(LISTS / "listforge_necrons.json").units
        ]


def test_the_older_framed_gw_export_gives_its_faction() -> None:
    text = (
        "++++++++++++++++++++++++++++++++++++++++\n"
        "+ FACTION KEYWORD: Xenos - Necrons\n"
        "+ DETACHMENT: Awakened Dynasty\n"
        "+ TOTAL ARMY POINTS: 2000pts\n"
        "++++++++++++++++++++++++++++++++++++++++\n"
        "\n"
        "Overlord (90 pts)\n"
        "  • 1x Tachyon arrow\n"
        "\n"
        "Necron Warriors (190 pts)\n"
        "  • 20x Necron Warrior\n"
        "     ◦ 20x Gauss flayer\n"
    )
    army = parse_army_list(text)
    assert (army.format, army.faction) == ("gw-app", "necrons")
    assert lines_of(army) == [(7, "overlord", 1), (10, "necron-warriors", 20)]


# ---------------------------------------------------------------- unresolved, never dropped


def test_an_unknown_unit_is_kept_with_its_line_and_the_closest_names() -> None:
    text = (
        read("gw_app_space_marines.txt")
        .replace("Librarian (65 Points)", "Librarain (65 Points)")
        .replace("Apothecary (50 Points)", "Veteran Sergeant Fluffy (50 Points)")
    )
    army = parse_army_list(text)
    assert len(army.units) == 13
    [typo, stranger] = army.unresolved
    assert (typo.line, typo.text, typo.models) == (16, "Librarain", 1)
    assert typo.suggestions[0] == "Librarian"
    assert (stranger.line, stranger.text) == (21, "Veteran Sergeant Fluffy")
    assert 0 < len(stranger.suggestions) <= 5


def test_a_count_outside_the_datasheet_is_kept_with_the_problem() -> None:
    text = read("newrecruit_world_eaters.txt").replace(
        "• 7x Goremongers: 7x Bloodletting blades", "• 9x Goremongers: 9x Bloodletting blades"
    )
    [goremongers] = [u for u in parse_army_list(text).units if u.datasheet.name == "Goremongers"]
    assert goremongers.models == 10
    assert goremongers.problem == "the list gives 10 models; the datasheet has 8"


# --------------------------------------------------------------------------- broken lists


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "line 1: the army list is empty"),
        ("\n  \n\t\n", "line 1: the army list is empty"),
        ("Just some notes\nabout my army\n", "line 1: 'Just some notes' does not start an army"),
        ('{"roster": {"forces": [', "line 1: not valid JSON"),
        ('{"name": "x"}', "line 1: JSON without roster.forces"),
    ],
)
def test_broken_input_names_the_line(text: str, message: str) -> None:
    with pytest.raises(ArmyListError) as caught:
        parse_army_list(text)
    assert str(caught.value).startswith(message)


def test_truncated_json_names_the_line_it_stops_at() -> None:
    text = read("newrecruit_tau.json")
    cut = "\n".join(text.splitlines()[:120])
    with pytest.raises(ArmyListError, match=r"^line 12[01]: not valid JSON") as caught:
        parse_army_list(cut)
    assert caught.value.line in (120, 121)


def test_a_gw_model_line_without_a_count_names_its_line() -> None:
    text = read("gw_app_space_marines.txt").replace("  • 9x Hellblaster\n", "  • Hellblaster\n")
    line = text.splitlines().index("  • Hellblaster") + 1
    with pytest.raises(
        ArmyListError, match=rf"^line {line}: model line 'Hellblaster' has no count"
    ):
        parse_army_list(text)


def test_a_newrecruit_model_line_without_a_count_names_its_line() -> None:
    text = read("newrecruit_world_eaters.txt").replace(
        "• 2x Chaos Spawn: 2x Hideous mutations", "• Chaos Spawn: Hideous mutations"
    )
    line = text.splitlines().index("• Chaos Spawn: Hideous mutations") + 1
    with pytest.raises(ArmyListError, match=rf"^line {line}: model line .* has no count"):
        parse_army_list(text)


def test_a_unit_line_without_its_points_names_its_line() -> None:
    text = read("listforge_orks.txt").replace("Nobz (105 pts)", "Nobz")
    line = text.splitlines().index("Nobz") + 1
    with pytest.raises(ArmyListError, match=rf"^line {line}: unit 'Nobz' has no points"):
        parse_army_list(text)


def test_a_newrecruit_line_that_is_neither_unit_nor_model_names_its_line() -> None:
    text = read("newrecruit_world_eaters.txt").replace("Helbrute [120pts]:", "Helbrute 120pts:")
    line = text.splitlines().index("Helbrute 120pts: Helbrute fist, Twin lascannon") + 1
    with pytest.raises(ArmyListError, match=rf"^line {line}: .* is neither a unit"):
        parse_army_list(text)


def test_a_list_of_no_units_is_refused() -> None:
    with pytest.raises(ArmyListError, match="has no units"):
        parse_army_list(json.dumps({"roster": {"forces": []}}))


def test_files_that_cannot_be_read(tmp_path: Path) -> None:
    with pytest.raises(ArmyListError, match="^line 1: cannot read"):
        load_army_list(tmp_path / "missing.txt")
    latin = tmp_path / "latin.txt"
    latin.write_bytes("Army (100 Points)\n\nKh\xe2rn (1 pts)\n".encode("latin-1"))
    with pytest.raises(ArmyListError, match="^line 3: not UTF-8"):
        load_army_list(latin)
    assert issubclass(ArmyListError, WarplanError)


def test_detection_tells_the_formats_apart() -> None:
    assert [detect_format(p.read_text(encoding="utf-8")) for p in sorted(LISTS.iterdir())] == [
        "gw-app",
        "listforge-json",
        "listforge-text",
        "newrecruit-json",
        "newrecruit-text",
    ]


# ------------------------------------------------------------------------------- the CLI


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = main(list(argv), out=out, err=err)
    return status, out.getvalue(), err.getvalue()


def test_import_army_prints_the_contract_json() -> None:
    status, out, err = run(
        "import-army", str(LISTS / "newrecruit_world_eaters.txt"), "--player", "red", "--json"
    )
    assert status == EXIT_OK, err
    data = json.loads(out)
    assert list(data) == ["format", "units", "unresolved"]
    assert data["format"] == "newrecruit-text"
    assert all(
        list(u) == ["name", "datasheet", "models", "base", "move", "oc"] for u in data["units"]
    )
    kharn = data["units"][1]
    assert kharn == {
        "name": "Khârn the Betrayer",
        "datasheet": "kharn-the-betrayer",
        "models": 1,
        "base": {"shape": "circle", "diameter": 40},
        "move": 8,
        "oc": 1,
    }
    rhino = next(u for u in data["units"] if u["name"] == "Chaos Rhino")
    assert rhino["base"] is None
    assert data["unresolved"] == []


def test_import_army_lists_the_unresolved(tmp_path: Path) -> None:
    path = tmp_path / "typo.txt"
    path.write_text(read("listforge_orks.txt").replace("Painboy (45 pts)", "Painboi (45 pts)"))
    status, out, _ = run("import-army", str(path), "--player", "blue", "--json")
    assert status == EXIT_OK
    [unresolved] = json.loads(out)["unresolved"]
    assert list(unresolved) == ["line", "text", "suggestions"]
    assert (unresolved["line"], unresolved["text"]) == (16, "Painboi")
    assert unresolved["suggestions"][0] == "Painboy"


def test_import_army_reports_a_broken_list_by_line(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"roster":\n {"forces": [\n')
    status, out, err = run("import-army", str(path), "--json")
    assert status == EXIT_BAD_INPUT
    assert out == ""
    assert err.startswith("error: line 3: not valid JSON")


# -------------------------------------------------------------------- robustness (a law)

EXPORTS = sorted(p.read_text(encoding="utf-8") for p in LISTS.iterdir())


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(EXPORTS),
    st.integers(min_value=0),
    st.integers(min_value=0, max_value=300),
    st.text(max_size=12),
)
def test_a_damaged_list_reads_or_is_refused_by_line(
    text: str, where: int, cut: int, inserted: str
) -> None:
    """Any edit of a real export either reads or raises ArmyListError: no other exception."""
    where %= len(text) + 1
    damaged = text[:where] + inserted + text[where + cut :]
    refused_at: int | None = None
    try:
        army = parse_army_list(damaged)
    except ArmyListError as error:
        refused_at = error.line
    if refused_at is not None:
        assert 1 <= refused_at <= max(1, len(damaged.splitlines()) + 1)
    else:
        assert all(1 <= u.models <= MAX_MODELS for u in army.units)


@pytest.mark.parametrize(
    ("selection", "message"),
    [
        ({"type": "unit", "name": 5}, "a unit selection without a name"),
        ({"type": "unit", "name": "Boyz", "number": 10**9}, "is not a unit's model count"),
    ],
)
def test_odd_roster_values_are_refused(selection: dict[str, object], message: str) -> None:
    text = json.dumps({"roster": {"forces": [{"selections": [selection]}]}})
    with pytest.raises(ArmyListError, match=message):
        parse_army_list(text)


def test_odd_roster_values_that_do_not_matter_are_ignored() -> None:
    text = json.dumps(
        {
            "roster": {
                "forces": [
                    {
                        "catalogueName": 5,
                        "selections": [
                            {
                                "type": "unit",
                                "name": "Boyz",
                                "categories": 7,
                                "costs": [{"name": "pts", "value": float("inf")}],
                                "selections": [{"type": "model", "number": 10}],
                            }
                        ],
                    }
                ]
            }
        }
    )
    [boyz] = parse_army_list(text).units
    assert (boyz.models, boyz.points) == (10, None)


def test_names_resolve_without_their_article_or_a_trailing_note() -> None:
    roster = {
        "roster": {
            "forces": [
                {
                    "catalogueName": "Xenos - Necrons",
                    "selections": [
                        {
                            "type": "unit",
                            "name": "Silent King",
                            "number": 1,
                            "selections": [
                                {"type": "model", "name": "Szarekh", "number": 1},
                                {"type": "model", "name": "Menhir", "number": 2},
                            ],
                        },
                        {"type": "model", "name": "Overlord (Warlord)", "number": 1},
                    ],
                }
            ]
        }
    }
    army = parse_army_list(json.dumps(roster, indent=1))
    assert [(u.datasheet.id, u.models) for u in army.units] == [
        ("the-silent-king", 3),
        ("overlord", 1),
    ]
    assert army.faction == "necrons"  # from the catalogue name, the roster having no categories
