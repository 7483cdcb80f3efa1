"""Datasheets: the converted file, name search by awkward names, units made from datasheets,
and the reserves tray (a format extension every rule ignores)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.army_lists import parse_army_list
from engine.army_placement import (
    UNIT_GAP,
    deploy_from_reserves,
    place_army,
    send_to_reserves,
)
from engine.datasheets import (
    DATASHEETS_FILE,
    datasheet,
    datasheets,
    factions,
    named,
    normalize_name,
    search,
    unit_from_datasheet,
)
from engine.deployments import resolve_deployment
from engine.errors import RulesError, ScenarioError, UnknownReferenceError
from engine.evaluate import evaluate
from engine.geometry import model_distance, model_wholly_within
from engine.model import CircleBase, OvalBase, Player, RectBase, Scenario
from engine.scenario_io import dumps_scenario, load_scenario, loads_scenario, save_scenario

LISTS = Path(__file__).resolve().parent / "data" / "army_lists"
COHERENCY = 2.0


def empty(deployment: str | None = None) -> Scenario:
    return Scenario("wh40k-ca2026", (Player("red"), Player("blue")), deployment=deployment)


# ------------------------------------------------------------------------ the converted file


def test_the_file_holds_every_datasheet_once_with_sound_values() -> None:
    sheets = datasheets()
    assert len(sheets) == 1096
    assert len({s.id for s in sheets}) == len(sheets)
    faction_ids = {f.id for f in factions()}
    for sheet in sheets:
        assert sheet.faction in faction_ids
        assert 1 <= sheet.models_min <= sheet.models_max
        assert all(k == k.upper() for k in sheet.keywords + sheet.faction_keywords)
        if isinstance(sheet.base, OvalBase):
            assert sheet.base.length >= sheet.base.width, sheet.id
        if sheet.base is None:
            assert sheet.base_note, sheet.id


def test_the_file_is_small() -> None:
    """No weapons or abilities: well under a megabyte."""
    assert DATASHEETS_FILE.stat().st_size < 1_000_000
    document = json.loads(DATASHEETS_FILE.read_text(encoding="utf-8"))
    assert "weapons" not in document["datasheets"][0]


def test_shared_ids_are_qualified_by_faction() -> None:
    copies = named("Rhino")
    assert {s.id for s in copies} == {"adeptus-astartes/rhino", "grey-knights/rhino"}
    assert datasheet("adeptus-astartes/rhino").faction == "adeptus-astartes"


def test_an_unknown_id_is_an_unknown_reference() -> None:
    with pytest.raises(UnknownReferenceError, match="no datasheet 'no-such-unit'"):
        datasheet("no-such-unit")


def test_bases_come_as_the_data_gives_them_or_not_at_all() -> None:
    assert datasheet("intercessor-squad").base == CircleBase(32)
    assert datasheet("wolf-scouts").base == OvalBase(60, 35.5)  # data: length 35.5, width 60
    assert datasheet("windriders").base == CircleBase(25)  # small flying base
    assert datasheet("falcon").base == OvalBase(120, 92)  # large flying base
    assert datasheet("immolator").base is None
    assert "hull" in datasheet("immolator").base_note


# --------------------------------------------------------------------------------- search


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("Kharn", "Khârn the Betrayer"),
        ("kharn the betrayer", "Khârn the Betrayer"),
        ("KHARN", "Khârn the Betrayer"),
        ("Belakor", "Be’lakor"),
        ("be'lakor", "Be’lakor"),
        ("ardmob boyz", "’Ardmob Boyz"),
        ("tech priest enginseer", "Tech-Priest Enginseer"),
        ("techpriest enginseer", "Tech-Priest Enginseer"),
        ("ctan shard of the nightbringer", "C’tan Shard of the Nightbringer"),
        ("Intercesor Squad", "Intercessor Squad"),
        ("Ghazgkull Thraka", "Ghazghkull Thraka"),
        ("shard void", "C’tan Shard of the Void Dragon"),
    ],
)
def test_search_finds_awkward_names(query: str, expected: str) -> None:
    assert search(query)[0].name == expected


def test_normalize_drops_case_diacritics_punctuation_and_spaces() -> None:
    assert normalize_name("Khârn the Betrayer") == "kharnthebetrayer"
    assert normalize_name("T'au Empire") == normalize_name("tau empire") == "tauempire"
    assert normalize_name("T’au") == "tau"
    assert normalize_name("Be'lakor") == "belakor"


def test_tau_finds_the_tau_faction_by_name() -> None:
    [tau] = [f for f in factions() if normalize_name(f.name).startswith(normalize_name("tau"))]
    assert tau.id == "tau-empire"
    assert all(s.faction == "tau-empire" for s in search("", faction="tau-empire"))


def test_search_ranks_exact_then_prefix_then_words_then_substring() -> None:
    names = [s.name for s in search("captain", faction="adeptus-astartes")]
    assert names[0] == "Captain"
    prefix = names.index("Captain in Gravis Armour")
    substring = names.index("Death Company Captain")
    assert prefix < substring


def test_search_limits_and_filters_by_faction() -> None:
    assert len(search("a", limit=7)) == 7
    found = search("rhino", faction="world-eaters")
    assert found
    assert all(s.faction == "world-eaters" for s in found)


def test_a_chapter_searches_its_parent_factions_datasheets() -> None:
    found = search("intercessor", faction="ultramarines")
    assert found[0].id == "intercessor-squad"
    assert {s.faction for s in found} == {"adeptus-astartes"}


def test_search_of_nonsense_finds_nothing() -> None:
    assert search("qqqqzzzzxxxx") == ()


@given(st.text(max_size=30))
def test_search_never_fails_and_respects_its_limit(query: str) -> None:
    assert len(search(query, limit=10)) <= 10


@given(st.sampled_from([s.name for s in datasheets()]))
def test_every_name_finds_itself_first(name: str) -> None:
    assert normalize_name(search(name)[0].name) == normalize_name(name)


# ---------------------------------------------------------------------- units from datasheets


def _coherent(models: tuple, within: float = COHERENCY) -> bool:
    """Every model within 2" of one other (two others for seven or more models)."""
    needed = 2 if len(models) >= 7 else 1
    if len(models) == 1:
        return True
    return all(
        sum(model_distance(m, o) <= within + 1e-6 for o in models if o is not m) >= needed
        for m in models
    )


@pytest.mark.parametrize("count", [1, 5, 7, 10, 20])
def test_a_unit_arrives_in_coherency_with_its_characteristics(count: int) -> None:
    sheet_id = "boyz" if count > 10 else "intercessor-squad" if count in (5, 7, 10) else "captain"
    scenario, unit_id = unit_from_datasheet(
        empty(), sheet_id, player="red", models=count, centre=(30, 22)
    )
    unit = scenario.unit(unit_id)
    sheet = datasheet(sheet_id)
    assert len(unit.models) == count
    assert _coherent(unit.models)
    assert (unit.name, unit.move, unit.oc, unit.datasheet) == (
        sheet.name,
        sheet.move,
        sheet.oc,
        sheet.id,
    )
    assert set(sheet.keywords) <= set(unit.keywords)
    assert set(sheet.faction_keywords) <= set(unit.keywords)
    assert all(m.base == sheet.base for m in unit.models)
    centre_x = sum(m.x for m in unit.models) / count
    assert math.isclose(centre_x, 30, abs_tol=3)


@pytest.mark.parametrize("count", [4, 11])
def test_a_model_count_outside_the_range_is_refused(count: int) -> None:
    with pytest.raises(RulesError, match=f"Intercessor Squad has 5 to 10 models, not {count}"):
        unit_from_datasheet(empty(), "intercessor-squad", player="red", models=count, centre=(9, 9))


def test_the_range_ends_are_allowed() -> None:
    for count in (5, 10):
        scenario, unit_id = unit_from_datasheet(
            empty(), "intercessor-squad", player="red", models=count, centre=(20, 20)
        )
        assert len(scenario.unit(unit_id).models) == count


def test_a_datasheet_without_a_base_needs_one() -> None:
    with pytest.raises(RulesError, match="Immolator has no base size.*choose a base"):
        unit_from_datasheet(empty(), "immolator", player="red", models=1, centre=(9, 9))
    hull = RectBase(120, 70)
    scenario, unit_id = unit_from_datasheet(
        empty(), "immolator", player="red", models=1, centre=(9, 9), base=hull
    )
    assert scenario.unit(unit_id).models[0].base == hull


def test_the_datasheet_id_round_trips_through_a_saved_file(tmp_path: Path) -> None:
    scenario, unit_id = unit_from_datasheet(
        empty(),
        "adeptus-astartes/rhino",
        player="blue",
        models=1,
        centre=(30, 30),
        base=RectBase(115, 70),
    )
    path = tmp_path / "rhino.warplan.json"
    save_scenario(scenario, path)
    assert '"datasheet": "adeptus-astartes/rhino"' in path.read_text(encoding="utf-8")
    again = load_scenario(path)
    assert again.unit(unit_id).datasheet == "adeptus-astartes/rhino"
    assert again == scenario


def test_old_files_without_datasheets_or_reserves_open_as_before() -> None:
    demo = Path(__file__).resolve().parents[2] / "assets" / "scenarios" / "demo.warplan.json"
    scenario = load_scenario(demo)
    assert scenario.reserves == ()
    assert all(u.datasheet is None for u in scenario.units)
    assert '"reserves"' not in dumps_scenario(scenario)
    assert '"datasheet"' not in dumps_scenario(scenario)


def test_an_empty_datasheet_id_is_refused() -> None:
    scenario, unit_id = unit_from_datasheet(
        empty(), "captain", player="red", models=1, centre=(9, 9)
    )
    text = dumps_scenario(scenario).replace('"datasheet": "captain"', '"datasheet": ""')
    with pytest.raises(ScenarioError, match=r"units\[0\]\.datasheet: must not be empty"):
        loads_scenario(text)


# -------------------------------------------------------------------------------- reserves


def _with_two_units() -> tuple[Scenario, str, str]:
    scenario, near = unit_from_datasheet(
        empty(), "intercessor-squad", player="red", models=5, centre=(30, 20)
    )
    scenario, far = unit_from_datasheet(
        scenario, "boyz", player="blue", models=10, centre=(30, 23.5)
    )
    return scenario, near, far


def test_reserves_round_trip_through_a_file(tmp_path: Path) -> None:
    scenario, near, _ = _with_two_units()
    scenario = send_to_reserves(scenario, near)
    path = tmp_path / "reserves.warplan.json"
    save_scenario(scenario, path)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert [u["id"] for u in data["reserves"]] == [near]
    again = load_scenario(path)
    assert again == scenario
    assert [u.id for u in again.reserves] == [near]


def test_ids_are_unique_across_units_and_reserves() -> None:
    scenario, near, far = _with_two_units()
    data = json.loads(dumps_scenario(send_to_reserves(scenario, near)))
    data["reserves"][0]["id"] = far
    with pytest.raises(ScenarioError, match=f'reserves\\[0\\]\\.id: duplicate id "{far}"'):
        loads_scenario(json.dumps(data))


def test_every_rule_ignores_reserves() -> None:
    scenario, near, far = _with_two_units()
    on_table = evaluate(scenario, visibility=False).to_json()
    assert {u["id"] for u in on_table["units"]} == {near, far}
    assert on_table["engagements"], "the two units start engaged"
    reserved = evaluate(send_to_reserves(scenario, near), visibility=False).to_json()
    assert {u["id"] for u in reserved["units"]} == {far}
    assert not reserved["engagements"]


def test_deploying_from_reserves_places_the_unit_in_coherency() -> None:
    scenario, near, _ = _with_two_units()
    scenario = send_to_reserves(scenario, near)
    scenario = deploy_from_reserves(scenario, near, (10, 10))
    unit = scenario.unit(near)
    assert scenario.reserves == ()
    assert _coherent(unit.models)
    assert math.isclose(sum(m.x for m in unit.models) / 5, 10, abs_tol=1e-9)


def test_unknown_units_are_refused() -> None:
    with pytest.raises(UnknownReferenceError):
        send_to_reserves(empty(), "nobody")
    with pytest.raises(UnknownReferenceError):
        deploy_from_reserves(empty(), "nobody", (1, 1))


# ---------------------------------------------------------------------------- place_army


def _army(name: str):
    return parse_army_list((LISTS / name).read_text(encoding="utf-8"))


def test_an_army_goes_to_the_reserves_tray_whole() -> None:
    army = _army("newrecruit_world_eaters.txt")
    bases = {entry.line: RectBase(115, 70) for entry in army.units if entry.datasheet.base is None}
    placement = place_army(empty(), army, "red", "reserves", bases=bases)
    assert placement.messages == ()
    assert len(placement.scenario.reserves) == len(army.units)
    assert placement.scenario.units == ()
    assert [len(u.models) for u in placement.scenario.reserves] == [e.models for e in army.units]


def test_units_without_a_base_are_reported_not_dropped_silently() -> None:
    army = _army("newrecruit_world_eaters.txt")
    placement = place_army(empty(), army, "red", "reserves")
    baseless = [e for e in army.units if e.datasheet.base is None]
    assert baseless
    assert len(placement.messages) == len(baseless)
    for entry, message in zip(baseless, placement.messages, strict=True):
        assert message.startswith(f"line {entry.line}: {entry.text} not added")


def test_an_army_deploys_wholly_within_its_zone_in_coherency_without_overlap() -> None:
    scenario = empty("tipping-point")
    army = _army("gw_app_space_marines.txt")
    bases = {e.line: RectBase(115, 70) for e in army.units if e.datasheet.base is None}
    placement = place_army(scenario, army, "red", "deployment", bases=bases)
    result = placement.scenario
    zone = resolve_deployment(result).zone_geometry("red")
    assert len(placement.deployed) + len(placement.reserves) == len(army.units)
    assert placement.deployed
    models = [m for u in result.units for m in u.models]
    for unit in result.units:
        assert _coherent(unit.models), unit.id
        assert all(model_wholly_within(m, zone) for m in unit.models), unit.id
    for i, a in enumerate(models):
        owner = result.unit_of_model(a.id).id
        for b in models[i + 1 :]:
            if result.unit_of_model(b.id).id != owner:
                assert model_distance(a, b) >= UNIT_GAP - 1e-6
    assert len([m for m in placement.messages if "does not fit" in m]) == len(placement.reserves)


def test_what_does_not_fit_goes_to_reserves_with_a_message() -> None:
    army = _army("listforge_orks.txt")
    bases = {e.line: RectBase(150, 100) for e in army.units if e.datasheet.base is None}
    crowded = empty("tipping-point")
    for _ in range(3):
        army_again = place_army(crowded, army, "red", "deployment", bases=bases)
        crowded = army_again.scenario
    assert army_again.reserves, "a third copy of a 95-model army cannot fit in one zone"
    fits = [m for m in army_again.messages if "does not fit" in m]
    assert len(fits) == len(army_again.reserves)
    assert {u.id for u in army_again.scenario.reserves} >= set(army_again.reserves)


def test_placing_for_a_stranger_or_without_a_zone_is_refused() -> None:
    army = _army("listforge_orks.txt")
    with pytest.raises(RulesError, match="no player 'green'"):
        place_army(empty("tipping-point"), army, "green")
    with pytest.raises(RulesError, match="red has no deployment zone"):
        place_army(empty(), army, "red", "deployment")
