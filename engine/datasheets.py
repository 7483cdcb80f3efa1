"""Datasheets from 40kdc-data (``assets/40kdc/datasheets.json``): lookup, search, new units.

Every datasheet of the dataset with what a table needs: name, faction, keywords, model counts,
base (``None`` where the data gives no dimensions), Move and OC. Names are compared through
:func:`normalize_name`, insensitive to case, diacritics, punctuation and spaces, so a plain
keyboard finds every name:

>>> normalize_name("Khârn the Betrayer"), normalize_name("Be'lakor"), normalize_name("T’au")
('kharnthebetrayer', 'belakor', 'tau')
>>> search("Kharn")[0].name
'Khârn the Betrayer'
>>> search("belakor")[0].name
'Be’lakor'
>>> datasheet("intercessor-squad").models_min, datasheet("intercessor-squad").base
(5, CircleBase(diameter=32))

Data: 40kdc-data (CC BY 4.0), "Powered by 40kdc-data", https://40kdc.alpacasoft.dev.
"""

from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from engine.assets import ASSET_ROOT
from engine.bases import base_from_json
from engine.edits import add_unit
from engine.errors import RulesError, UnknownReferenceError
from engine.model import Base, Point, Scenario

DATASHEETS_FILE = ASSET_ROOT / "40kdc" / "datasheets.json"
FUZZY_THRESHOLD = 0.35
"""Least trigram similarity (Dice coefficient, 0..1) of a name offered for a mistyped query."""


@dataclass(frozen=True)
class Faction:
    """A faction; a chapter names its ``parent`` (Ultramarines: adeptus-astartes)."""

    id: str
    name: str
    parent: str | None = None
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class Datasheet:
    """One datasheet: a kind of unit as its army list names it."""

    id: str
    name: str
    faction: str
    keywords: tuple[str, ...]
    faction_keywords: tuple[str, ...]
    models_min: int
    models_max: int
    base: Base | None
    base_note: str = ""
    move: float | None = None
    oc: int | None = None
    legend: bool = False
    points: tuple[tuple[int, int], ...] = ()
    """(models, cost) of the first unit of this datasheet, by model count."""

    @property
    def all_keywords(self) -> tuple[str, ...]:
        """Its keywords and faction keywords, sorted, as a unit of it carries them."""
        return tuple(sorted(set(self.keywords) | set(self.faction_keywords)))


def normalize_name(text: str) -> str:
    """The comparison key of a name: case-folded, without diacritics, punctuation or spaces.

    >>> normalize_name("  Tech-Priest  Enginseer ")
    'techpriestenginseer'
    """
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if c.isalnum() and not unicodedata.combining(c))


def name_words(text: str) -> tuple[str, ...]:
    """The normalised words of a name (split at spaces and hyphens; apostrophes join).

    >>> name_words("Tech-Priest Enginseer"), name_words("’Ardmob Boyz")
    (('tech', 'priest', 'enginseer'), ('ardmob', 'boyz'))
    """
    spaced = "".join(" " if c.isspace() or c in "-–—/_" else c for c in text)
    return tuple(word for word in (normalize_name(part) for part in spaced.split()) if word)


def _trigrams(key: str) -> frozenset[str]:
    padded = f"  {key} "
    return frozenset(padded[i : i + 3] for i in range(len(padded) - 2))


def similarity(query: str, name: str) -> float:
    """Trigram Dice similarity (0..1) of two names' keys: how alike a typo is to a name.

    >>> round(similarity("Intercesor Squad", "Intercessor Squad"), 2)
    0.91
    """
    return _dice(_trigrams(normalize_name(query)), _trigrams(normalize_name(name)))


def _dice(a: frozenset[str], b: frozenset[str]) -> float:
    return 2 * len(a & b) / (len(a) + len(b)) if a and b else 0.0


def _sheet(item: dict[str, Any]) -> Datasheet:
    raw_base = item.get("base")
    return Datasheet(
        id=item["id"],
        name=item["name"],
        faction=item["faction"],
        keywords=tuple(item.get("keywords", ())),
        faction_keywords=tuple(item.get("faction_keywords", ())),
        models_min=int(item["models"]["min"]),
        models_max=int(item["models"]["max"]),
        base=None if raw_base is None else base_from_json(raw_base),
        base_note=item.get("base_note", ""),
        move=item.get("move"),
        oc=item.get("oc"),
        legend=bool(item.get("legend", False)),
        points=tuple((int(p["models"]), int(p["cost"])) for p in item.get("points", ())),
    )


@cache
def _data() -> tuple[tuple[Faction, ...], tuple[Datasheet, ...]]:
    with open(DATASHEETS_FILE, encoding="utf-8") as handle:
        data = json.load(handle)
    factions = tuple(
        Faction(f["id"], f["name"], f.get("parent"), tuple(f.get("aliases", ())))
        for f in data["factions"]
    )
    return factions, tuple(_sheet(item) for item in data["datasheets"])


def factions() -> tuple[Faction, ...]:
    """Every faction of the dataset, in its order."""
    return _data()[0]


def datasheets() -> tuple[Datasheet, ...]:
    """Every datasheet, in the dataset's order (grouped by faction)."""
    return _data()[1]


def faction_family(faction_id: str | None) -> tuple[str, ...]:
    """The faction and its parent: a chapter's armies use the Space Marine datasheets.

    >>> faction_family("ultramarines"), faction_family("orks"), faction_family(None)
    (('ultramarines', 'adeptus-astartes'), ('orks',), ())
    """
    if faction_id is None:
        return ()
    parent = next((f.parent for f in factions() if f.id == faction_id), None)
    return (faction_id,) if parent is None else (faction_id, parent)


@cache
def _by_id() -> dict[str, Datasheet]:
    return {sheet.id: sheet for sheet in datasheets()}


def datasheet(datasheet_id: str) -> Datasheet:
    """The datasheet ``datasheet_id``; raises :class:`UnknownReferenceError` if there is none."""
    sheet = _by_id().get(datasheet_id)
    if sheet is None:
        raise UnknownReferenceError(f"no datasheet {datasheet_id!r}")
    return sheet


@dataclass(frozen=True)
class _Entry:
    sheet: Datasheet
    key: str
    words: tuple[str, ...]
    trigrams: frozenset[str]


@cache
def _index() -> tuple[_Entry, ...]:
    """Every datasheet with its name's key, words and trigrams, computed once."""
    return tuple(
        _Entry(sheet, key, name_words(sheet.name), _trigrams(key))
        for sheet in datasheets()
        for key in (normalize_name(sheet.name),)
    )


def _rank(entry: _Entry, key: str, words: tuple[str, ...]) -> int | None:
    """0 exact, 1 prefix, 2 every query word starts a word of the name, 3 substring."""
    if entry.key == key:
        return 0
    if entry.key.startswith(key):
        return 1
    if words and all(any(w.startswith(q) for w in entry.words) for q in words):
        return 2
    if key in entry.key:
        return 3
    return None


def search(query: str, faction: str | None = None, limit: int = 50) -> tuple[Datasheet, ...]:
    """Datasheets whose names match ``query``, best first (within ``faction`` if given).

    Ranked: the exact name, names starting with it, names each of whose query words starts a
    word, names containing it; then names most alike to it (for typos, trigram similarity of
    at least :data:`FUZZY_THRESHOLD`). Ties keep the dataset's order. An empty query lists the
    datasheets in order. A chapter's ``faction`` includes its parent's datasheets.

    >>> [s.name for s in search("intercesor squad", limit=1)]
    ['Intercessor Squad']
    >>> {s.faction for s in search("rhino", faction="world-eaters")}
    {'world-eaters'}
    """
    key = normalize_name(query)
    family = faction_family(faction)
    entries = [e for e in _index() if not family or e.sheet.faction in family]
    if not key:
        return tuple(e.sheet for e in entries[:limit])
    words = name_words(query)
    ranked: list[tuple[int, float, int, Datasheet]] = []
    unmatched: list[tuple[int, _Entry]] = []
    for order, entry in enumerate(entries):
        rank = _rank(entry, key, words)
        if rank is None:
            unmatched.append((order, entry))
        else:
            ranked.append((rank, 0.0, order, entry.sheet))
    if len(ranked) < limit:
        grams = _trigrams(key)
        for order, entry in unmatched:
            score = _dice(grams, entry.trigrams)
            if score >= FUZZY_THRESHOLD:
                ranked.append((4, -score, order, entry.sheet))
    ranked.sort(key=lambda item: item[:3])
    return tuple(item[3] for item in ranked[:limit])


def closest(query: str, faction: str | None = None, limit: int = 5) -> tuple[Datasheet, ...]:
    """The ``limit`` datasheets most alike to ``query`` by name similarity alone (for
    suggestions where no name matches), within ``faction`` first, then anywhere."""
    family = faction_family(faction)
    pool = [e for e in _index() if not family or e.sheet.faction in family]
    grams = _trigrams(normalize_name(query))
    if not grams:
        return ()
    scored = sorted(
        ((_dice(grams, e.trigrams), -i, e.sheet) for i, e in enumerate(pool)),
        key=lambda item: item[:2],
        reverse=True,
    )
    found = tuple(sheet for score, _, sheet in scored[:limit] if score > 0)
    if faction is not None and len(found) < limit:
        rest = [s for s in closest(query, None, limit) if s not in found]
        found = (*found, *rest[: limit - len(found)])
    return found


def check_model_count(sheet: Datasheet, models: int) -> None:
    """Raise :class:`RulesError` unless ``models`` is within the datasheet's range."""
    if not sheet.models_min <= models <= sheet.models_max:
        span = (
            str(sheet.models_min)
            if sheet.models_min == sheet.models_max
            else f"{sheet.models_min} to {sheet.models_max}"
        )
        raise RulesError(f"{sheet.name} has {span} models, not {models}")


def unit_from_datasheet(
    scenario: Scenario,
    datasheet_id: str,
    *,
    player: str,
    models: int,
    centre: Point,
    base: Base | None = None,
) -> tuple[Scenario, str]:
    """``scenario`` with a new unit of ``datasheet_id`` in coherency about ``centre`` (as
    :func:`engine.edits.add_unit` places it) and the new unit's id.

    The unit has the datasheet's name, keywords (faction keywords included), OC and Move, and
    records the datasheet's id. ``base`` overrides the datasheet's base and is required when
    it has none; a model count outside the datasheet's range raises :class:`RulesError`.

    >>> from engine.model import Player
    >>> s = Scenario("wh40k-ca2026", (Player("red"), Player("blue")))
    >>> s, unit_id = unit_from_datasheet(s, "intercessor-squad", player="red", models=5,
    ...                                  centre=(10, 10))
    >>> unit = s.unit(unit_id)
    >>> len(unit.models), unit.move, unit.oc, unit.datasheet
    (5, 6, 2, 'intercessor-squad')
    """
    sheet = datasheet(datasheet_id)
    check_model_count(sheet, models)
    chosen = base if base is not None else sheet.base
    if chosen is None:
        raise RulesError(
            f"{sheet.name} has no base size in the data ({sheet.base_note}): choose a base"
        )
    result, unit_id = add_unit(
        scenario,
        name=sheet.name,
        player=player,
        keywords=sheet.all_keywords,
        oc=sheet.oc if sheet.oc is not None else 1,
        model_count=models,
        base=chosen,
        centre=centre,
    )
    unit = replace(result.unit(unit_id), move=sheet.move, datasheet=sheet.id)
    return result.with_unit(unit), unit_id


@cache
def _by_key() -> dict[str, tuple[Datasheet, ...]]:
    table: dict[str, list[Datasheet]] = {}
    for entry in _index():
        table.setdefault(entry.key, []).append(entry.sheet)
    return {key: tuple(sheets) for key, sheets in table.items()}


def named(name: str) -> tuple[Datasheet, ...]:
    """Every datasheet (one per faction that has it) whose name is ``name`` once normalised.

    >>> sorted(s.faction for s in named("Land Raider"))
    ['adeptus-astartes', 'grey-knights']
    """
    return _by_key().get(normalize_name(name), ())
