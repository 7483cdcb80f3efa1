"""The datasheet converter on a small fixed sample: every kind of base the data has, shared
ids, disagreeing profiles, the hull outline, and what the findings say."""

from __future__ import annotations

from typing import Any

import pytest

from dataimport.fortykdc.datasheets import convert_base, convert_datasheets


def unit(unit_id: str, base: Any, faction: str = "aeldari", **more: Any) -> dict[str, Any]:
    entry = {
        "id": unit_id,
        "name": unit_id.replace("-", " ").title(),
        "faction_id": faction,
        "keywords": ["Infantry", "Fly"],
        "faction_keywords": ["Asuryani"],
        "model_count": {"min": 1, "max": 3},
        "profiles": [{"name": unit_id, "M": 7, "OC": 1}],
        "is_legend": False,
        "points": [
            {"models": 1, "cost": 40, "unit_count_min": 1, "unit_count_max": 2},
            {"models": 2, "models_max": 3, "cost": 80},
            {"models": 1, "cost": 50, "unit_count_min": 3, "unit_count_max": None},
        ],
    }
    if base is not None:
        entry["base_size_mm"] = base
    entry.update(more)
    return entry


SAMPLE: dict[str, Any] = {
    "factions": [
        {"id": "aeldari", "name": "Aeldari", "parent_faction_id": None, "aliases": []},
        {"id": "ynnari", "name": "Ynnari", "parent_faction_id": "aeldari", "aliases": ["Reborn"]},
    ],
    "units": [
        unit("guardians", {"shape": "round", "diameter": 28.5}),
        unit("vypers", {"shape": "oval", "length": 70, "width": 105}),
        unit("wave-serpent", {"shape": "hull", "draft": True}),
        unit("windriders", {"shape": "flying-base", "size": "small", "draft": True}),
        unit(
            "falcon",
            {"shape": "flying-base", "size": "large", "draft": True, "length": 92, "width": 120},
        ),
        unit("wraithseer", {"shape": "unique", "draft": True}),
        unit("lost-unit", None),
        unit("rhino", {"shape": "hull", "draft": True}),
        unit("rhino", {"shape": "hull", "draft": True}, faction="ynnari"),
        unit(
            "storm-guardians",
            {"shape": "round", "diameter": 28.5},
            profiles=[
                {"name": "Storm Guardian", "M": 7, "OC": 2},
                {"name": "Serpent's Scale Platform", "M": 6, "OC": 0},
            ],
        ),
    ],
    "hullShapes": [
        {
            "id": "falcon",
            "name": "Falcon",
            "points": [{"x": -2, "y": -3}, {"x": 2, "y": -3}, {"x": 0, "y": 3}],
            "bounds_width_in": 4,
            "bounds_height_in": 6,
        }
    ],
}


@pytest.fixture(scope="module")
def converted() -> tuple[dict[str, dict[str, Any]], tuple[str, ...], dict[str, Any]]:
    conversion = convert_datasheets(SAMPLE)
    document = conversion.files["datasheets.json"]
    assert list(conversion.files) == ["datasheets.json"]
    return {s["id"]: s for s in document["datasheets"]}, conversion.findings, document


def test_a_round_base_becomes_a_circle(converted: Any) -> None:
    sheets, _, _ = converted
    guardians = sheets["guardians"]
    assert guardians["base"] == {"shape": "circle", "diameter": 28.5}
    assert guardians["base_note"] == ""
    assert guardians["keywords"] == ["INFANTRY", "FLY"]
    assert guardians["faction_keywords"] == ["ASURYANI"]
    assert (guardians["models"], guardians["move"], guardians["oc"]) == (
        {"min": 1, "max": 3},
        7,
        1,
    )
    assert guardians["legend"] is False
    # Only the first unit's costs: the third unit of a datasheet costs more.
    assert guardians["points"] == [
        {"models": 1, "cost": 40},
        {"models": 2, "cost": 80, "models_max": 3},
    ]


def test_a_swapped_oval_is_normalised_and_reported(converted: Any) -> None:
    sheets, findings, _ = converted
    assert sheets["vypers"]["base"] == {"shape": "oval", "length": 105, "width": 70}
    assert "swapped" in sheets["vypers"]["base_note"]
    assert any(
        f.startswith("1 oval bases and 1 large flying bases give the long axis") for f in findings
    )


def test_hull_unique_and_missing_bases_stay_null_with_a_reason(converted: Any) -> None:
    sheets, findings, _ = converted
    for sheet_id, reason in [
        ("wave-serpent", "hull"),
        ("wraithseer", "unique"),
        ("lost-unit", "no base size"),
    ]:
        assert sheets[sheet_id]["base"] is None
        assert reason in sheets[sheet_id]["base_note"]
    assert any(
        "without a base (measured to its hull" in f and "wave-serpent" in f for f in findings
    )
    assert any("without a base (no base size in the data)" in f for f in findings)


def test_flying_bases_become_the_gw_flying_bases(converted: Any) -> None:
    sheets, findings, _ = converted
    assert sheets["windriders"]["base"] == {"shape": "circle", "diameter": 25}
    assert "small flying base" in sheets["windriders"]["base_note"]
    assert sheets["falcon"]["base"] == {"shape": "oval", "length": 120, "width": 92}
    assert any("small flying bases have no size in mm (windriders)" in f for f in findings)


def test_shared_ids_are_qualified_by_faction(converted: Any) -> None:
    sheets, findings, _ = converted
    assert "rhino" not in sheets
    assert sheets["aeldari/rhino"]["faction"] == "aeldari"
    assert sheets["ynnari/rhino"]["faction"] == "ynnari"
    assert any(f.startswith("1 datasheet ids are used by several factions") for f in findings)
    assert any(f.startswith("1 names appear on several datasheets") for f in findings)


def test_disagreeing_profiles_keep_the_slowest_move_and_the_first_oc(converted: Any) -> None:
    sheets, findings, _ = converted
    assert (sheets["storm-guardians"]["move"], sheets["storm-guardians"]["oc"]) == (6, 2)
    [finding] = [f for f in findings if f.startswith("storm-guardians")]
    assert "Storm Guardian M7 OC2, Serpent's Scale Platform M6 OC0" in finding


def test_the_hull_outline_is_reported(converted: Any) -> None:
    _, findings, _ = converted
    [finding] = [f for f in findings if f.startswith("hullShapes")]
    assert "'falcon' (3 points" in finding
    assert "(falcon)" in finding


def test_factions_keep_their_parent_and_other_names(converted: Any) -> None:
    _, _, document = converted
    assert document["factions"][1] == {
        "id": "ynnari",
        "name": "Ynnari",
        "parent": "aeldari",
        "aliases": ["Reborn"],
    }


@pytest.mark.parametrize(
    "raw",
    [
        None,
        {"shape": "round"},
        {"shape": "round", "diameter": -3},
        {"shape": "oval", "length": 40},
        {"shape": "flying-base"},
        {"shape": "hexagon", "diameter": 30},
    ],
)
def test_bases_without_sizes_are_never_invented(raw: Any) -> None:
    base, note = convert_base(raw)
    assert base is None
    assert note
