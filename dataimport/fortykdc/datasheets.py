"""Datasheets: every unit of the dataset reduced to what Warplan places on a table.

:func:`convert_datasheets` writes ``datasheets.json``: the factions (with their parent faction
and other names) and, per datasheet, its name, faction, keywords (upper case, as the scenario
format writes them), model counts, base in the scenario format's base JSON (or ``null`` when
the data gives no dimensions), Move, OC, the Legends flag and the points of the first unit of
it. Weapons and abilities are left out.

What the checks find is returned as findings; every normalisation is also written on the
datasheet itself (``base_note``), so the app can show why a base is what it is.

>>> sample = {"factions": [{"id": "orks", "name": "Orks"}], "units": [
...     {"id": "boyz", "name": "Boyz", "faction_id": "orks", "keywords": ["Infantry"],
...      "faction_keywords": ["Orks"], "model_count": {"min": 10, "max": 20},
...      "base_size_mm": {"shape": "round", "diameter": 32},
...      "profiles": [{"name": "Boy", "M": 6, "OC": 2}], "is_legend": False,
...      "points": [{"models": 10, "cost": 80}]}]}
>>> sheet = convert_datasheets(sample).files["datasheets.json"]["datasheets"][0]
>>> sheet["keywords"], sheet["base"], sheet["move"], sheet["oc"]
(['INFANTRY'], {'shape': 'circle', 'diameter': 32}, 6, 2)
"""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any

from dataimport.fortykdc.writing import Conversion

FLYING_BASES: dict[str, dict[str, Any]] = {
    "small": {"shape": "circle", "diameter": 25},
    "large": {"shape": "oval", "length": 120, "width": 92},
}
"""The GW flying bases ``assets/bases.json`` lists (``flying-small-round-25`` and
``flying-large-120x92``): a small flying stand is measured as its 25 mm round base."""


def _number(value: Any) -> float | int | None:
    if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
        return None
    return value


def _oval(length: Any, width: Any) -> tuple[dict[str, Any] | None, bool]:
    """The oval base JSON (length the long axis) and whether the data had the axes swapped."""
    long_side, short_side = _number(length), _number(width)
    if long_side is None or short_side is None:
        return None, False
    swapped = short_side > long_side
    if swapped:
        long_side, short_side = short_side, long_side
    return {"shape": "oval", "length": long_side, "width": short_side}, swapped


def convert_base(raw: Any) -> tuple[dict[str, Any] | None, str]:
    """The scenario format's base for a ``base_size_mm`` entry, and a note saying why it is
    ``None`` or what was normalised (empty when taken as is).

    >>> base, note = convert_base({"shape": "oval", "length": 42, "width": 75})
    >>> base, "swapped" in note
    ({'shape': 'oval', 'length': 75, 'width': 42}, True)
    >>> convert_base({"shape": "hull", "draft": True})
    (None, 'measured to its hull; the data gives no dimensions')
    """
    if not isinstance(raw, dict):
        return None, "no base size in the data"
    shape = raw.get("shape")
    if shape == "round":
        diameter = _number(raw.get("diameter"))
        if diameter is None:
            return None, "round base without a diameter in the data"
        return {"shape": "circle", "diameter": diameter}, ""
    if shape == "oval":
        base, swapped = _oval(raw.get("length"), raw.get("width"))
        if base is None:
            return None, "oval base without both sizes in the data"
        note = "oval given with its long axis as width: length and width swapped" if swapped else ""
        return base, note
    if shape == "flying-base":
        size = raw.get("size")
        if "length" in raw or "width" in raw:
            base, swapped = _oval(raw.get("length"), raw.get("width"))
            if base is not None:
                note = f"{size or 'flying'} flying base, sizes marked provisional in the data"
                if swapped:
                    note += "; length and width swapped (long axis given as width)"
                return base, note
        if isinstance(size, str) and size in FLYING_BASES:
            base = dict(FLYING_BASES[size])
            return base, f"{size} flying base without sizes in the data: the GW {size} flying base"
        return None, "flying base of unknown size; the data gives no dimensions"
    if shape == "hull":
        return None, "measured to its hull; the data gives no dimensions"
    if shape == "unique":
        return None, "a unique base; the data gives no dimensions"
    return None, f"unknown base shape {shape!r} in the data"


def _characteristic(profiles: list[dict[str, Any]], key: str) -> list[int]:
    return [
        p[key] for p in profiles if isinstance(p.get(key), int) and not isinstance(p[key], bool)
    ]


def _points(raw: Any) -> list[dict[str, int]]:
    """The cost of the first unit of this datasheet at each model count."""
    tiers: list[dict[str, int]] = []
    for tier in raw if isinstance(raw, list) else ():
        if not isinstance(tier, dict) or (tier.get("unit_count_min") or 1) != 1:
            continue
        keys = (
            ("models", "cost", "models_max")
            if tier.get("models_max") is not None
            else (
                "models",
                "cost",
            )
        )
        values = {key: tier.get(key) for key in keys}
        if all(isinstance(v, int) and not isinstance(v, bool) for v in values.values()):
            tiers.append({key: int(v) for key, v in values.items() if isinstance(v, int)})
    return tiers


def convert_datasheets(bundle: dict[str, Any]) -> Conversion:
    """``datasheets.json`` from the dataset's ``units`` and ``factions``, with findings."""
    findings: list[str] = []
    factions = [
        {
            "id": f["id"],
            "name": f["name"],
            "parent": f.get("parent_faction_id"),
            "aliases": [a for a in f.get("aliases", ()) if isinstance(a, str)],
        }
        for f in bundle.get("factions", ())
        if isinstance(f, dict) and isinstance(f.get("id"), str)
    ]
    units = [u for u in bundle.get("units", ()) if isinstance(u, dict) and "id" in u]
    id_counts = Counter(u["id"] for u in units)
    duplicated = sorted(i for i, n in id_counts.items() if n > 1)
    if duplicated:
        findings.append(
            f"{len(duplicated)} datasheet ids are used by several factions (the same datasheet "
            f"in each, points may differ): {', '.join(duplicated)}. Warplan names every copy "
            "'<faction>/<id>' so that ids stay unique and no faction's copy is preferred."
        )
    name_factions: dict[str, set[str]] = defaultdict(set)
    for unit in units:
        name_factions[str(unit.get("name", "")).casefold()].add(str(unit.get("faction_id")))
    same_name = Counter(str(u.get("name", "")).casefold() for u in units)
    repeated_names = sorted(n for n, count in same_name.items() if count > 1)
    if repeated_names:
        findings.append(
            f"{len(repeated_names)} names appear on several datasheets (one per faction): "
            "search shows each with its faction, and a list resolves to its own faction's copy"
        )
    swapped: Counter[str] = Counter()
    no_base: dict[str, list[str]] = defaultdict(list)
    small_flying: list[str] = []
    large_flying = 0
    sheets = []
    for unit in units:
        base, note = convert_base(unit.get("base_size_mm"))
        if "swapped" in note:
            swapped["flying" if "flying" in note else "oval"] += 1
        if base is None:
            no_base[note].append(unit["id"])
        elif note.startswith("small flying"):
            small_flying.append(unit["id"])
        elif "flying" in note:
            large_flying += 1
        profiles = [p for p in unit.get("profiles", ()) if isinstance(p, dict)]
        moves = _characteristic(profiles, "M")
        ocs = _characteristic(profiles, "OC")
        if len(set(moves)) > 1 or len(set(ocs)) > 1:
            shown = ", ".join(f"{p.get('name')} M{p.get('M')} OC{p.get('OC')}" for p in profiles)
            findings.append(
                f"{unit['id']}: profiles disagree ({shown}); Warplan keeps the slowest Move "
                f'({min(moves) if moves else None}", a unit moves no faster than its slowest '
                f"model) and the first profile's OC ({ocs[0] if ocs else None}, its leading "
                "model's)"
            )
        counts = unit.get("model_count") or {}
        sheet: dict[str, Any] = {
            "id": f"{unit['faction_id']}/{unit['id']}" if unit["id"] in duplicated else unit["id"],
            "name": unit.get("name", ""),
            "faction": unit.get("faction_id"),
            "keywords": [str(k).upper() for k in unit.get("keywords", ())],
            "faction_keywords": [str(k).upper() for k in unit.get("faction_keywords", ())],
            "models": {"min": counts.get("min", 1), "max": counts.get("max", counts.get("min", 1))},
            "base": base,
            "base_note": note,
            "move": min(moves) if moves else None,
            "oc": ocs[0] if ocs else None,
            "legend": bool(unit.get("is_legend", False)),
        }
        points = _points(unit.get("points"))
        if points:
            sheet["points"] = points
        sheets.append(sheet)
    if swapped:
        findings.append(
            f"{swapped['oval']} oval bases and {swapped['flying']} large flying bases give the "
            "long axis as 'width' (every oval in the data): normalised to Warplan's "
            "length >= width, the length along the model's facing"
        )
    if large_flying:
        findings.append(
            f"{large_flying} large flying bases carry 120 x 92 mm marked provisional ('draft'): "
            "used as the GW large flying base, oval 120 x 92 mm"
        )
    if small_flying:
        findings.append(
            f"{len(small_flying)} small flying bases have no size in mm "
            f"({', '.join(small_flying)}): given the GW small flying base, round 25 mm "
            "(assets/bases.json 'flying-small-round-25')"
        )
    for note, ids in sorted(no_base.items()):
        findings.append(
            f"{len(ids)} datasheets without a base ({note}): base null, the user picks one "
            f"when placing them ({', '.join(ids[:8])}{', ...' if len(ids) > 8 else ''})"
        )
    hull_shapes = [h for h in bundle.get("hullShapes", ()) if isinstance(h, dict)]
    for hull in hull_shapes:
        users = [u["id"] for u in units if hull.get("id") in (u.get("hull_shape_id"), u.get("id"))]
        findings.append(
            f"hullShapes has one outline, {hull.get('id')!r} ({len(hull.get('points', ()))} "
            f'points, {hull.get("bounds_width_in")}" x {hull.get("bounds_height_in")}"), '
            f"referenced by no datasheet field; the datasheet of that name "
            f"({', '.join(users) or 'none'}) stands on a large flying base, which Warplan "
            "keeps (models on a base are measured to it); the outline is not converted"
        )
    document = {"factions": factions, "datasheets": sheets}
    return Conversion("datasheets", {"datasheets.json": document}, tuple(findings))
