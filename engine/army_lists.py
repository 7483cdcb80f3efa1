"""Army lists from the list builders, resolved to datasheets (``engine.datasheets``).

Formats, told apart by their content (:func:`detect_format`):

- ``gw-app``: the GW app's text export (a title ``Name (2000 Points)``, the faction, the
  detachment and the battle size, then ALL-CAPS sections and units ``Name (N Points)`` whose
  ``• Nx Model`` bullets with indented wargear give the model count); the older framed export
  whose header says ``+ FACTION KEYWORD: ...`` too.
- ``listforge-text``: ``List - Faction - Detachment (N Points)``, ``Section:`` lines, units
  ``Name (N pts)`` with ``•`` bullets (a bullet with indented ones under it is a model group).
- ``listforge-json`` and ``newrecruit-json``: a roster ``{"roster": {"forces": [...]}}`` of
  nested selections (``type`` ``unit``/``model``, ``number``); NewRecruit's carries its
  ``xmlns`` or a ``generatedBy`` at newrecruit. ListForge's share string (a gzip payload in
  base64, alone or in a ``/listforge/`` link) is read too.
- ``newrecruit-text``: ``... - Faction - List - [N pts]``, ``## Section [N pts]`` headings,
  units ``Name [N pts]: wargear`` and model lines ``• Nx Model: wargear``.

Every unit of a list is resolved to a datasheet (by name, within the list's faction first)
or kept as unresolved with its line, its text and the closest names; none is dropped. Input
that cannot be read raises :class:`ArmyListError` naming the line.

>>> text = '''Red Fist (85 Points)
...
... Space Marines
... Gladius Task Force
... Strike Force (2,000 Points)
...
... BATTLELINE
...
... Intercessor Squad (85 Points)
...   • 1x Intercessor Sergeant
...     ◦ 1x Bolt rifle
...   • 4x Intercessor
...     ◦ 4x Bolt rifle
... '''
>>> army = parse_army_list(text)
>>> army.format, army.faction, [(u.datasheet.id, u.models, u.line) for u in army.units]
('gw-app', 'adeptus-astartes', [('intercessor-squad', 5, 9)])
"""

from __future__ import annotations

import base64
import binascii
import gzip
import json
import math
import os
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal

from engine.datasheets import (
    Datasheet,
    closest,
    faction_family,
    factions,
    named,
    normalize_name,
)
from engine.errors import ArmyListError

ArmyFormat = Literal[
    "gw-app", "listforge-text", "listforge-json", "newrecruit-json", "newrecruit-text"
]
MAX_LIST_BYTES = 4 * 1024 * 1024
"""An army list is a few kilobytes; anything past this is not one."""
SUGGESTIONS = 5
MAX_MODELS = 1000
"""More models than any unit has: a count past it is a broken list, not a big unit."""


@dataclass(frozen=True)
class ArmyEntry:
    """One unit of a list resolved to its datasheet: the list's line, text and model count.

    ``problem`` says why it cannot be placed as listed (a model count outside the datasheet's
    range), empty when it can."""

    line: int
    text: str
    datasheet: Datasheet
    models: int
    points: int | None = None
    problem: str = ""


@dataclass(frozen=True)
class UnresolvedEntry:
    """A unit of a list no datasheet is named after, with the closest names."""

    line: int
    text: str
    models: int
    suggestions: tuple[str, ...]


@dataclass(frozen=True)
class ArmyList:
    """A whole list: its format, its faction (an id, or None when none was recognised), the
    units resolved and those not."""

    format: ArmyFormat
    units: tuple[ArmyEntry, ...]
    unresolved: tuple[UnresolvedEntry, ...] = ()
    faction: str | None = None
    name: str = ""

    def resolved_as(self, line: int, name: str) -> ArmyList:
        """This list with the unresolved entry of ``line`` taken as the datasheet ``name``
        (one of its suggestions, say), its model count checked against that datasheet.

        >>> army = parse_army_list(
        ...     "Red Fist (85 Points)\\n\\nSpace Marines\\nGladius Task Force\\n"
        ...     "Strike Force (2,000 Points)\\n\\nBATTLELINE\\n\\nIntercesor Squad (85 Points)\\n"
        ...     "  \u2022 5x Intercessor\\n    \u25e6 5x Bolt rifle\\n")
        >>> [(u.line, u.text, u.models) for u in army.unresolved]
        [(9, 'Intercesor Squad', 5)]
        >>> fixed = army.resolved_as(9, army.unresolved[0].suggestions[0])
        >>> [(u.datasheet.id, u.models, u.problem) for u in fixed.units], fixed.unresolved
        ([('intercessor-squad', 5, '')], ())
        """
        entry = next((u for u in self.unresolved if u.line == line), None)
        if entry is None:
            raise ArmyListError(line, "no unresolved entry on this line")
        chosen = _resolve_one(_Listed(line, name, entry.models), faction_family(self.faction))
        if not isinstance(chosen, ArmyEntry):
            raise ArmyListError(line, f"no datasheet is named {name!r}")
        chosen = replace(chosen, text=entry.text)
        units = tuple(sorted((*self.units, chosen), key=lambda u: u.line))
        unresolved = tuple(u for u in self.unresolved if u.line != line)
        return replace(self, units=units, unresolved=unresolved)

    def to_json(self) -> dict[str, Any]:
        """The ``import-army --json`` contract."""
        return {
            "format": self.format,
            "units": [
                {
                    "name": u.datasheet.name,
                    "datasheet": u.datasheet.id,
                    "models": u.models,
                    "base": base_json(u.datasheet),
                    "move": u.datasheet.move,
                    "oc": u.datasheet.oc,
                }
                for u in self.units
            ],
            "unresolved": [
                {"line": u.line, "text": u.text, "suggestions": list(u.suggestions)}
                for u in self.unresolved
            ],
        }


def base_json(sheet: Datasheet) -> dict[str, Any] | None:
    """A datasheet's base as the scenario format writes it (``None`` when it has none)."""
    from engine.format_schema import BASE

    return None if sheet.base is None else BASE.write(sheet.base)


@dataclass(frozen=True)
class _Listed:
    """A unit as a list gives it, before resolution."""

    line: int
    name: str
    models: int
    points: int | None = None

    def __post_init__(self) -> None:
        if not 1 <= self.models <= MAX_MODELS:
            raise ArmyListError(
                self.line, f"{self.name}: {self.models} models is not a unit's model count"
            )


@dataclass(frozen=True)
class _Parsed:
    format: ArmyFormat
    faction_name: str | None
    units: tuple[_Listed, ...]
    name: str = ""


# ------------------------------------------------------------------------------- text lines

_PTS = r"([\d][\d,.'’\u00a0\u202f ]*)"
_GW_HEADER = re.compile(rf"^(.+?)\s*\(\s*{_PTS}\s*(?:pts?|points?)\s*\)\s*$", re.IGNORECASE)
_LF_FIRST = re.compile(rf"^(.+)\s\(\s*{_PTS}\s*points?\s*\)\s*$", re.IGNORECASE)
_NR_FIRST = re.compile(r"^(.+)\s-\s\[\s*(\d+)\s*pts?\s*(?:,[^\]]*)?\]\s*$", re.IGNORECASE)
_NR_ROSTER = re.compile(r"^#\s*\+\+\s*Army Roster\s*\+\+", re.IGNORECASE)
_NR_SECTION = re.compile(r"^##\s*(.+?)(?:\s*\[[^\]]*\])?\s*$")
_NR_UNIT = re.compile(r"^(.+?)\s*\[\s*(\d+)\s*pts?\s*(?:,[^\]]*)?\](?:\s*:\s*(.*))?$", re.I)
_BULLET = re.compile(r"^([\t \u00a0]*)[•◦*]\s*(.*?)\s*$")
_COUNT = re.compile(r"^(\d+)\s*[x×]\s+(.+)$", re.IGNORECASE)
_CAPS_SECTION = re.compile(r"^[A-Z][A-Z0-9 \-/&]+$")
_COLON_SECTION = re.compile(r"^[A-Za-z][\w /&'-]*:\s*$")
_FACTION_KEYWORD = re.compile(r"^\+\s*FACTION KEYWORD:\s*(.+?)\s*$", re.IGNORECASE)
_FENCE_LINE = re.compile(r"^\+")
_BATTLE_SIZES = {"combatpatrol", "incursion", "strikeforce", "onslaught"}
_FREE_TEXT = re.compile(r"^(exported with|created with|generated by)\b", re.IGNORECASE)


def _lines(text: str) -> list[str]:
    return text.splitlines()


def _first_line(lines: Sequence[str]) -> tuple[int, str] | None:
    for number, line in enumerate(lines, start=1):
        if line.strip():
            return number, line.strip()
    return None


def _points(raw: str) -> int | None:
    digits = re.sub(r"\D", "", raw)
    return int(digits) if digits else None


@dataclass(frozen=True)
class _Bullet:
    line: int
    indent: int
    text: str


def _indent(prefix: str) -> int:
    return len(prefix.replace("\t", "    "))


def _model_count(bullets: Sequence[_Bullet], *, count_required: bool) -> int:
    """Models of a unit from its bullets: each bullet with deeper bullets under it is a model
    group (``• 4x Intercessor`` over its wargear); a unit with none is one model."""
    if not bullets:
        return 1
    top = min(b.indent for b in bullets)
    total = 0
    for index, bullet in enumerate(bullets):
        if bullet.indent != top:
            continue
        following = bullets[index + 1] if index + 1 < len(bullets) else None
        if following is None or following.indent <= bullet.indent:
            continue
        counted = _COUNT.match(bullet.text)
        if counted is None:
            if count_required:
                raise ArmyListError(
                    bullet.line,
                    f"model line {bullet.text!r} has no count (expected '• 5x {bullet.text}')",
                )
            total += 1
        else:
            total += int(counted.group(1))
    return total or 1


def _bulleted_units(
    lines: Sequence[str], start: int, *, count_required: bool, is_section: Callable[[str], bool]
) -> tuple[_Listed, ...]:
    """The units of a GW-app or ListForge text body (from line index ``start``)."""
    units: list[_Listed] = []
    current: tuple[int, str, int | None] | None = None
    bullets: list[_Bullet] = []

    def finish() -> None:
        if current is not None:
            number, name, points = current
            units.append(
                _Listed(number, name, _model_count(bullets, count_required=count_required), points)
            )

    for index in range(start, len(lines)):
        raw = lines[index]
        line = raw.strip()
        number = index + 1
        if not line:
            continue
        bullet = _BULLET.match(raw)
        if bullet is not None:
            if current is None:
                raise ArmyListError(number, f"{line!r} is not under a unit")
            bullets.append(_Bullet(number, _indent(bullet.group(1)), bullet.group(2)))
            continue
        header = _GW_HEADER.match(line)
        if header is not None and normalize_name(header.group(1)) not in _BATTLE_SIZES:
            finish()
            current, bullets = (number, header.group(1).strip(), _points(header.group(2))), []
            continue
        if is_section(line) or _FREE_TEXT.match(line) or _FENCE_LINE.match(line):
            finish()
            current, bullets = None, []
            continue
        following = next((lines[k] for k in range(index + 1, len(lines)) if lines[k].strip()), "")
        if _BULLET.match(following):
            raise ArmyListError(number, f"unit {line!r} has no points (expected '{line} (N pts)')")
        finish()
        current, bullets = None, []
    finish()
    return tuple(units)


def _is_gw_section(line: str) -> bool:
    return bool(_CAPS_SECTION.match(line)) or line.casefold().startswith("attached unit")


def _parse_gw(lines: Sequence[str]) -> _Parsed:
    """The GW app's export: the units start at the first section or unit header after the
    title; the lines before them hold the faction (or ``+ FACTION KEYWORD:``)."""
    first = _first_line(lines)
    assert first is not None
    faction_name: str | None = None
    title = ""
    body = len(lines)
    for index, raw in enumerate(lines):
        line = raw.strip()
        keyword = _FACTION_KEYWORD.match(line)
        if keyword is not None:
            faction_name = keyword.group(1).split(" - ")[-1].strip()
            continue
        if not line or _FENCE_LINE.match(line):
            continue
        header = _GW_HEADER.match(line)
        if index + 1 == first[0] and header is not None:
            title = header.group(1).strip()
            continue
        if _is_gw_section(line) or (
            header is not None and normalize_name(header.group(1)) not in _BATTLE_SIZES
        ):
            body = index
            break
        if faction_name is None and _faction_id(line) is not None:
            faction_name = line
    units = _bulleted_units(lines, body, count_required=True, is_section=_is_gw_section)
    return _Parsed("gw-app", faction_name, units, title)


def _parse_listforge_text(lines: Sequence[str]) -> _Parsed:
    first = _first_line(lines)
    assert first is not None
    match = _LF_FIRST.match(first[1])
    assert match is not None
    parts = [p.strip() for p in match.group(1).split(" - ")]

    def is_section(line: str) -> bool:
        return bool(_COLON_SECTION.match(line))

    units = _bulleted_units(lines, first[0], count_required=False, is_section=is_section)
    return _Parsed("listforge-text", parts[1], units, parts[0])


def _parse_newrecruit_text(lines: Sequence[str]) -> _Parsed:
    first = _first_line(lines)
    assert first is not None
    match = _NR_FIRST.match(first[1])
    assert match is not None
    parts = [p.strip() for p in match.group(1).split(" - ") if p.strip()]
    faction_name = parts[-2] if len(parts) >= 2 else None
    units: list[_Listed] = []
    current: list[Any] | None = None
    configuration = False
    for index in range(first[0], len(lines)):
        raw = lines[index]
        line = raw.strip()
        number = index + 1
        if not line or _NR_ROSTER.match(line):
            continue
        section = _NR_SECTION.match(line)
        if section is not None:
            configuration = section.group(1).strip().casefold() == "configuration"
            current = None
            continue
        bullet = _BULLET.match(raw)
        if bullet is not None:
            if current is None:
                if configuration:
                    continue
                raise ArmyListError(number, f"{line!r} is not under a unit")
            counted = _COUNT.match(bullet.group(2))
            if counted is None:
                raise ArmyListError(
                    number, f"model line {line!r} has no count (expected '• 5x Model')"
                )
            unit_entry = units[current[0]]
            models = int(counted.group(1)) + (unit_entry.models if current[1] else 0)
            units[current[0]] = _Listed(unit_entry.line, unit_entry.name, models, unit_entry.points)
            current[1] = True
            continue
        unit = _NR_UNIT.match(line)
        if unit is not None:
            configuration = False
            units.append(_Listed(number, unit.group(1).strip(), 1, int(unit.group(2))))
            current = [len(units) - 1, False]
            continue
        if configuration:
            key, _, value = line.partition(":")
            if key.strip().casefold() == "faction" and value.strip():
                faction_name = value.strip()
            continue
        raise ArmyListError(number, f"{line!r} is neither a unit ('Name [N pts]') nor a model")
    return _Parsed("newrecruit-text", faction_name, tuple(units), parts[-1] if parts else "")


# ------------------------------------------------------------------------------------ JSON

_NEWRECRUIT_XMLNS = "http://www.battlescribe.net/schema/rosterSchema"
_FACTION_CATEGORY = re.compile(r"^Faction:\s*(.+)$")


def _selections(node: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    children = node.get("selections")
    return [c for c in children if isinstance(c, Mapping)] if isinstance(children, list) else []


def _walk(node: Mapping[str, Any]) -> Iterator[Mapping[str, Any]]:
    yield node
    for child in _selections(node):
        yield from _walk(child)


def _number(node: Mapping[str, Any]) -> int:
    value = node.get("number")
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 1


def _cost(node: Mapping[str, Any]) -> int | None:
    for cost in node.get("costs", ()) if isinstance(node.get("costs"), list) else ():
        if isinstance(cost, Mapping) and cost.get("name") == "pts":
            value = cost.get("value")
            if isinstance(value, int | float) and not isinstance(value, bool):
                return int(value) if math.isfinite(value) else None
    return None


def _json_line(text: str, name: str, start: int) -> tuple[int, int]:
    """The line of the next ``"name": <name>`` at or after ``start``, and where it ends."""
    found = None
    for spelled in (json.dumps(name, ensure_ascii=False), json.dumps(name)):
        found = found or re.compile(r'"name"\s*:\s*' + re.escape(spelled)).search(text, start)
    if found is None:
        return text.count("\n", 0, start) + 1, start
    return text.count("\n", 0, found.start()) + 1, found.end()


def _roster(data: Any) -> tuple[Mapping[str, Any], list[Any], ArmyFormat]:
    """The roster of a decoded export, its forces, and whose export it is."""
    roster = data.get("roster") if isinstance(data, Mapping) else None
    forces = roster.get("forces") if isinstance(roster, Mapping) else None
    if not isinstance(roster, Mapping) or not isinstance(forces, list):
        raise ArmyListError(1, "JSON without roster.forces: not a ListForge or NewRecruit export")
    generated = data.get("generatedBy") or roster.get("generatedBy") or ""
    newrecruit = roster.get("xmlns") == _NEWRECRUIT_XMLNS or (
        isinstance(generated, str) and generated.casefold().startswith("https://newrecruit")
    )
    return roster, forces, "newrecruit-json" if newrecruit else "listforge-json"


def _parse_roster(data: Any, text: str) -> _Parsed:
    roster, forces, kind = _roster(data)
    newrecruit = kind == "newrecruit-json"
    units: list[_Listed] = []
    faction_name: str | None = None
    catalogue_faction: str | None = None
    offset = 0
    for force in forces:
        if not isinstance(force, Mapping):
            continue
        catalogue = force.get("catalogueName")
        if catalogue_faction is None and isinstance(catalogue, str):
            catalogue_faction = catalogue.split(" - ")[-1].strip()
        if faction_name is None and newrecruit:
            faction_name = catalogue_faction
        for selection in _selections(force):
            for node in _walk(selection):
                categories = node.get("categories")
                for category in categories if isinstance(categories, list) else ():
                    found = (
                        _FACTION_CATEGORY.match(str(category.get("name", "")))
                        if isinstance(category, Mapping)
                        else None
                    )
                    if found is not None and faction_name is None:
                        faction_name = found.group(1).strip()
            if selection.get("type") not in ("unit", "model"):
                continue
            name = selection.get("name")
            if not isinstance(name, str) or not name.strip():
                line, _ = _json_line(text, "", offset)
                raise ArmyListError(line, "a unit selection without a name")
            line, offset = _json_line(text, name, offset)
            models = sum(_number(n) for n in _walk(selection) if n.get("type") == "model")
            units.append(
                _Listed(line, name.strip(), models or _number(selection), _cost(selection))
            )
    title = data.get("name") if isinstance(data.get("name"), str) else roster.get("name", "")
    # ListForge names the faction in its categories; its catalogue name is the fallback.
    return _Parsed(kind, faction_name or catalogue_faction, tuple(units), str(title or ""))


def _decode_json(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise ArmyListError(error.lineno, f"not valid JSON: {error.msg}") from None
    except RecursionError:
        raise ArmyListError(1, "JSON nested too deeply") from None


def _share_payload(text: str) -> str | None:
    """The JSON text of a ListForge share string (gzip in base64, maybe in a link)."""
    segment = text.strip()
    marker = segment.find("/listforge/")
    if marker >= 0:
        segment = segment[marker + len("/listforge/") :]
    elif re.match(r"^https?://", segment):
        segment = segment.rsplit("/", 1)[-1]
    if not segment.startswith("H4sI"):
        return None
    try:
        raw = gzip.decompress(base64.b64decode(segment + "=" * (-len(segment) % 4)))
        return raw.decode("utf-8")
    except (binascii.Error, OSError, EOFError, UnicodeDecodeError, ValueError) as error:
        raise ArmyListError(
            1, f"a ListForge share string that cannot be decoded: {error}"
        ) from None


# ------------------------------------------------------------------------------ detection


def detect_format(text: str) -> ArmyFormat:
    """Which export ``text`` is; raises :class:`ArmyListError` when it is none of them.

    >>> detect_format('My Orks - Orks - War Horde (1000 Points)\\n\\nCharacters:\\n'
    ...               'Warboss (75 pts)\\n  • Warlord')
    'listforge-text'
    """
    first = _first_line(_lines(text))
    if first is None:
        raise ArmyListError(1, "the army list is empty")
    number, line = first
    if line.startswith(("{", "[")):
        return _roster(_decode_json(text))[2]
    payload = _share_payload(text)
    if payload is not None:
        return _roster(_decode_json(payload))[2]
    has_bullets = any(_BULLET.match(raw) for raw in _lines(text))
    if _NR_FIRST.match(line) and (
        any(_NR_ROSTER.match(raw.strip()) for raw in _lines(text))
        or any(raw.startswith("##") for raw in _lines(text))
    ):
        return "newrecruit-text"
    listforge = _LF_FIRST.match(line)
    if listforge is not None and len(listforge.group(1).split(" - ")) >= 3 and has_bullets:
        return "listforge-text"
    if has_bullets and (_GW_HEADER.match(line) or _FACTION_KEYWORD.search(text)):
        return "gw-app"
    if _FENCE_LINE.match(line) and any(_FACTION_KEYWORD.match(r.strip()) for r in _lines(text)):
        return "gw-app"
    raise ArmyListError(
        number,
        f"{line[:60]!r} does not start an army list Warplan reads (the GW app's text export, "
        "ListForge JSON or text, NewRecruit JSON or text)",
    )


def _parse(text: str) -> _Parsed:
    kind = detect_format(text)
    if kind in ("listforge-json", "newrecruit-json"):
        payload = _share_payload(text) if not text.lstrip().startswith(("{", "[")) else None
        source = payload if payload is not None else text
        try:
            return _parse_roster(_decode_json(source), source)
        except RecursionError:
            raise ArmyListError(1, "selections nested too deeply") from None
    lines = _lines(text)
    if kind == "newrecruit-text":
        return _parse_newrecruit_text(lines)
    if kind == "listforge-text":
        return _parse_listforge_text(lines)
    return _parse_gw(lines)


# ----------------------------------------------------------------------------- resolution


def _faction_id(name: str | None) -> str | None:
    """The faction a list names (its name or another name of it, any case or accent)."""
    if not name:
        return None
    wanted = normalize_name(name)
    for faction in factions():
        if wanted in {normalize_name(n) for n in (faction.name, faction.id, *faction.aliases)}:
            return faction.id
    return None


def _name_forms(name: str) -> tuple[str, ...]:
    """The name and the forms lists write it in: without a trailing ``(...)``, and each of
    those without a leading "The" or with one.

    >>> _name_forms("The Silent King (Warlord)")
    ('The Silent King (Warlord)', 'The Silent King', 'Silent King (Warlord)', 'Silent King')
    """
    bare = re.sub(r"\s*\([^)]*\)\s*$", "", name).strip()
    stems = [name] if not bare or bare == name else [name, bare]
    articled = [s[4:] if s.casefold().startswith("the ") else f"The {s}" for s in stems]
    return tuple(dict.fromkeys(stems + articled))


def _resolve_one(listed: _Listed, family: tuple[str, ...]) -> ArmyEntry | UnresolvedEntry:
    for form in _name_forms(listed.name):
        candidates = named(form)
        if not candidates:
            continue
        preferred = next(
            (s for faction in family for s in candidates if s.faction == faction), candidates[0]
        )
        problem = ""
        if not preferred.models_min <= listed.models <= preferred.models_max:
            span = (
                f"{preferred.models_min}"
                if preferred.models_min == preferred.models_max
                else f"{preferred.models_min} to {preferred.models_max}"
            )
            problem = f"the list gives {listed.models} models; the datasheet has {span}"
        return ArmyEntry(listed.line, listed.name, preferred, listed.models, listed.points, problem)
    suggestions = closest(listed.name, family[0] if family else None, SUGGESTIONS)
    return UnresolvedEntry(
        listed.line, listed.name, listed.models, tuple(dict.fromkeys(s.name for s in suggestions))
    )


def parse_army_list(text: str) -> ArmyList:
    """The army list ``text`` holds (any of the formats), resolved to datasheets (a pasted
    byte-order mark and Windows line ends are fine)."""
    text = text.removeprefix("\ufeff")
    parsed = _parse(text)
    faction = _faction_id(parsed.faction_name)
    family = faction_family(faction)
    resolved: list[ArmyEntry] = []
    unresolved: list[UnresolvedEntry] = []
    for listed in parsed.units:
        entry = _resolve_one(listed, family)
        if isinstance(entry, ArmyEntry):
            resolved.append(entry)
        else:
            unresolved.append(entry)
    if not resolved and not unresolved:
        raise ArmyListError(len(_lines(text)) or 1, "the army list has no units")
    return ArmyList(parsed.format, tuple(resolved), tuple(unresolved), faction, parsed.name)


def load_army_list(path: str | os.PathLike[str]) -> ArmyList:
    """The army list in the file ``path`` (UTF-8, a byte-order mark allowed)."""
    source = Path(path)
    try:
        if source.stat().st_size > MAX_LIST_BYTES:
            raise ArmyListError(1, f"{source.name} is too large for an army list")
        data = source.read_bytes()
    except OSError as error:
        raise ArmyListError(1, f"cannot read {source}: {error.strerror or error}") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise ArmyListError(line, "not UTF-8 text") from None
    return parse_army_list(text)
