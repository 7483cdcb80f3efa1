"""The base catalogue: every size the brief lists, unique ids, real shapes and labels."""

from __future__ import annotations

import json

import pytest

from engine.bases import BASES_FILE, base_by_id, catalogue_note, standard_bases
from engine.errors import UnknownReferenceError
from engine.model import MM_PER_INCH, CircleBase, OvalBase, RectBase

ROUND_MM = (25, 28, 28.5, 32, 40, 50, 60, 80, 90, 100, 130, 160, 170)
OVAL_MM = ((60, 35), (75, 42), (90, 52), (105, 70), (120, 92), (150, 95), (170, 105))


def test_every_standard_round_size_is_there() -> None:
    rounds = [e.base.diameter for e in standard_bases() if e.group == "round"]
    assert [float(d) for d in rounds] == [float(d) for d in ROUND_MM]
    assert all(isinstance(e.base, CircleBase) for e in standard_bases() if e.group == "round")


def test_every_standard_oval_size_is_there() -> None:
    ovals = [
        (e.base.length, e.base.width)
        for e in standard_bases()
        if isinstance(e.base, OvalBase) and e.group == "oval"
    ]
    assert ovals == list(OVAL_MM)


def test_large_flying_bases_are_labelled_ovals() -> None:
    flying = {e.id: e for e in standard_bases() if e.group == "flying"}
    assert base_by_id("flying-large-120x92").base == OvalBase(120, 92)
    assert base_by_id("flying-large-170x105").base == OvalBase(170, 105)
    assert all("flying base" in e.label.lower() for e in flying.values())
    assert isinstance(flying["flying-small-round-25"].base, CircleBase)


def test_hulls_are_rectangles_longer_than_wide() -> None:
    hulls = [e for e in standard_bases() if e.group == "hull"]
    assert len(hulls) >= 3
    for entry in hulls:
        assert isinstance(entry.base, RectBase)
        assert entry.base.length > entry.base.width > 0
        assert entry.note


def test_ids_are_unique_and_labels_name_the_size() -> None:
    entries = standard_bases()
    assert len({e.id for e in entries}) == len(entries)
    for entry in entries:
        if isinstance(entry.base, CircleBase):
            assert f"{entry.base.diameter:g} mm" in entry.label
        else:
            assert f"{entry.base.length:g} x {entry.base.width:g} mm" in entry.label


def test_sizes_are_millimetres() -> None:
    assert base_by_id("round-32").base.bounding_radius == pytest.approx(16 / MM_PER_INCH)
    assert base_by_id("round-28_5").base == CircleBase(28.5)


def test_unknown_base() -> None:
    with pytest.raises(UnknownReferenceError, match="no standard base 'round-33'"):
        base_by_id("round-33")


def test_the_catalogue_holds_bases_only_and_points_to_the_datasheets() -> None:
    data = json.loads(BASES_FILE.read_text(encoding="utf-8"))
    assert set(data) == {"note", "bases"}
    assert "datasheets" in catalogue_note()
    assert "Powered by 40kdc-data" in catalogue_note()
