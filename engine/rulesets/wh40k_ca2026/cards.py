"""The Chapter Approved 2026-27 Mission Deck as data: Force Dispositions, Primary and Secondary
Missions, Twists, the Deployment deck's names and the FAQ.

Everything is read from ``assets/wh40k-ca2026/*.json`` once and handed out as frozen values.
Card text is kept verbatim (``MissionCard.text``) for display; the scoring structure (battle
rounds, timing, each line's VP, OR-alternatives, CUMULATIVE bonuses, caps, FIXED/TACTICAL
values, the measure the engine evaluates) sits beside it.

>>> primary_mission("Take and Hold", "Purge the Foe")
'IMMOVABLE OBJECT'
>>> card("no prisoners").lines()[0].up_to
5
>>> [c.name for c in secondary_missions() if c.fixed][:2]
['A GRIEVOUS BLOW', 'ENGAGE ON ALL FRONTS']
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal

from engine.assets import ASSET_ROOT
from engine.errors import UnknownReferenceError
from engine.model import JSONValue, freeze

ASSET_DIR = ASSET_ROOT / "wh40k-ca2026"

SecondaryMode = Literal["tactical", "fixed"]
Moment = Literal[
    "end_of_your_turn",
    "end_of_your_command_phase",
    "end_of_a_turn",
    "end_of_your_opponents_turn",
    "end_of_the_battle",
]


def _load(name: str) -> Any:
    with (ASSET_DIR / name).open(encoding="utf-8") as handle:
        return json.load(handle)


def _key(name: str) -> str:
    """Lookup key of a card or card-set name: case, apostrophes and punctuation ignored.

    >>> _key("Destroyer’s Wrath") == _key("DESTROYER'S WRATH") == _key("destroyers-wrath")
    True
    """
    return re.sub(r"[^a-z0-9]+", "-", re.sub(r"['’]", "", name.lower())).strip("-")


@dataclass(frozen=True)
class FaqEntry:
    """One question and answer of the seed's FAQ, with the cards or core rule it rules on."""

    id: str
    question: str
    answer: str
    cards: tuple[str, ...]
    rule: str | None


@dataclass(frozen=True)
class ScoringLine:
    """One VP line of a card.

    ``vp`` is the printed value; a card printing separate values has ``fixed_vp`` and
    ``tactical_vp``; ``mode`` limits a line to one way of using Secondary Missions.
    ``alternative_to`` is the index of the line an OR line replaces (score the best that holds),
    ``requires_line`` the line a CUMULATIVE bonus adds to (it scores only when that one does).
    """

    index: int
    text: str
    printed: str
    vp: int | None
    fixed_vp: int | None
    tactical_vp: int | None
    mode: SecondaryMode | None
    up_to: int | None
    score: Literal["each", "once"]
    measure: Mapping[str, JSONValue]
    alternative_to: int | None
    requires_line: int | None

    @property
    def cumulative(self) -> bool:
        return self.requires_line is not None

    def value(self, mode: SecondaryMode | None) -> int | None:
        """The VP of this line for a player using ``mode`` (None: the line does not apply).

        >>> line = card("BRING IT DOWN").lines()[0]
        >>> line.value("fixed"), line.value("tactical")
        (4, 5)
        """
        if self.mode is not None and mode is not None and self.mode != mode:
            return None
        if self.vp is not None:
            return self.vp
        return self.fixed_vp if mode == "fixed" else self.tactical_vp


@dataclass(frozen=True)
class Timing:
    """When a group of lines is scored: ``moment``, and in the fifth round maybe another one."""

    when: str | None
    moment: Moment
    fifth_round_moment: Moment | None
    or_end_of_fifth_battle_round: bool
    lines: tuple[ScoringLine, ...]


@dataclass(frozen=True)
class Section:
    """A heading of a card (``SECOND BATTLE ROUND ONWARDS``) and its timings.

    ``battle_rounds`` is None for ``END OF THE BATTLE``.
    """

    heading: str
    battle_rounds: tuple[int, ...] | None
    timings: tuple[Timing, ...]


@dataclass(frozen=True)
class ObjectiveAction:
    """An OBJECTIVE ACTION printed on a card, field by field, verbatim, and ``structured``: the
    engine's reading (``from_battle_round``, ``eligible`` alternatives, ``use_limit``,
    ``completes``, ``restriction``; see ``engine.rulesets.wh40k_ca2026.actions``)."""

    name: str
    starts: str
    units: str
    use_limit: str
    completes: str
    effect: str
    restrictions: str | None
    structured: Mapping[str, JSONValue]


@dataclass(frozen=True)
class CardRule:
    """A rule paragraph of a card: WHEN DRAWN, START OF YOUR TURN, START OF THE BATTLE or plain.

    ``effect`` is the engine's reading of a WHEN DRAWN rule (see
    ``engine.rulesets.wh40k_ca2026.decks``).
    """

    kind: str
    text: str
    effect: Mapping[str, JSONValue] | None


@dataclass(frozen=True)
class MissionCard:
    """A Primary or Secondary Mission card."""

    id: str
    name: str
    kind: Literal["primary", "secondary"]
    flavour: str
    rules: tuple[CardRule, ...]
    sections: tuple[Section, ...]
    actions: tuple[ObjectiveAction, ...]
    faq: tuple[FaqEntry, ...]
    text: str
    fixed: bool
    designers_notes: tuple[str, ...]
    note: str | None

    def timings(self) -> tuple[tuple[Section, Timing], ...]:
        return tuple((s, t) for s in self.sections for t in s.timings)

    def lines(self) -> tuple[ScoringLine, ...]:
        return tuple(line for _, t in self.timings() for line in t.lines)

    def when_drawn(self) -> CardRule | None:
        """The card's WHEN DRAWN rule, if it has one."""
        return next((r for r in self.rules if r.kind.startswith("when_drawn")), None)


@dataclass(frozen=True)
class ForceDisposition:
    """A Force Disposition card: its five Primary Missions, by opponent column."""

    id: str
    name: str
    flavour: str
    missions: tuple[str, ...]
    note: str | None


@dataclass(frozen=True)
class Twist:
    """A Twist card and the engine's reading of its effect (``effect["kind"]``)."""

    id: str
    name: str
    flavour: str
    text: str
    designers_note: str
    effect: Mapping[str, JSONValue]
    table: Mapping[str, JSONValue] | None
    note: str | None


def _line(index: int, raw: Mapping[str, Any]) -> ScoringLine:
    vp = raw["vp"]
    return ScoringLine(
        index=index,
        text=raw["text"],
        printed=raw["printed"],
        vp=vp if isinstance(vp, int) else None,
        fixed_vp=vp["fixed"] if isinstance(vp, Mapping) else None,
        tactical_vp=vp["tactical"] if isinstance(vp, Mapping) else None,
        mode=raw.get("mode"),
        up_to=raw.get("up_to"),
        score=raw["score"],
        measure=freeze(raw["measure"]),
        alternative_to=raw.get("alternative_to"),
        requires_line=raw.get("requires_line"),
    )


def _card(raw: Mapping[str, Any], faq_by_id: Mapping[str, FaqEntry]) -> MissionCard:
    sections = tuple(
        Section(
            heading=s["heading"],
            battle_rounds=None if s["battle_rounds"] is None else tuple(s["battle_rounds"]),
            timings=tuple(
                Timing(
                    when=t["when"],
                    moment=t["moment"],
                    fifth_round_moment=t.get("fifth_round_moment"),
                    or_end_of_fifth_battle_round=bool(t.get("or_end_of_fifth_battle_round")),
                    lines=tuple(_line(i, line) for i, line in enumerate(t["lines"])),
                )
                for t in s["timings"]
            ),
        )
        for s in raw["sections"]
    )
    return MissionCard(
        id=raw["id"],
        name=raw["name"],
        kind=raw["kind"],
        flavour=raw["flavour"],
        rules=tuple(
            CardRule(r["kind"], r["text"], freeze(r["effect"]) if "effect" in r else None)
            for r in raw["rules"]
        ),
        sections=sections,
        actions=tuple(
            ObjectiveAction(
                name=a["name"],
                starts=a["starts"],
                units=a["units"],
                use_limit=a["use_limit"],
                completes=a["completes"],
                effect=a["effect"],
                restrictions=a.get("restrictions"),
                structured=freeze(a["structured"]),
            )
            for a in raw["actions"]
        ),
        faq=tuple(faq_by_id[f] for f in raw["faq"]),
        text=raw["text"],
        fixed=bool(raw.get("fixed", False)),
        designers_notes=tuple(raw.get("designers_notes", ())),
        note=raw.get("note"),
    )


@lru_cache(maxsize=1)
def faq() -> tuple[FaqEntry, ...]:
    """Every FAQ entry of the seed, card rulings and core-rule ones."""
    return tuple(
        FaqEntry(e["id"], e["q"], e["a"], tuple(e["cards"]), e.get("rule"))
        for e in _load("faq.json")["entries"]
    )


@lru_cache(maxsize=1)
def primary_missions() -> tuple[MissionCard, ...]:
    """The 25 Primary Missions, in the order of the deck listing."""
    by_id = {f.id: f for f in faq()}
    return tuple(_card(c, by_id) for c in _load("primary-missions.json")["cards"])


@lru_cache(maxsize=1)
def secondary_missions() -> tuple[MissionCard, ...]:
    """The 18 Secondary Missions, in the order of the deck listing."""
    by_id = {f.id: f for f in faq()}
    return tuple(_card(c, by_id) for c in _load("secondary-missions.json")["cards"])


@lru_cache(maxsize=1)
def _cards_by_key() -> Mapping[str, MissionCard]:
    table: dict[str, MissionCard] = {}
    for c in primary_missions():
        table[_key(c.name)] = c
    for c in secondary_missions():
        table[_key(c.name)] = c
    return table


def card(name: str, kind: Literal["primary", "secondary"] | None = None) -> MissionCard:
    """A Primary or Secondary Mission card by its printed name or id (case-insensitive).

    SABOTAGE is only a Primary Mission; a name on both decks does not occur in this deck.

    >>> card("Vital Link").kind
    'primary'
    """
    found = _cards_by_key().get(_key(name))
    if found is None or (kind is not None and found.kind != kind):
        what = f"{kind} mission" if kind else "mission card"
        raise UnknownReferenceError(
            f"no {what} named {name!r} in the Chapter Approved 2026-27 deck"
        )
    return found


@lru_cache(maxsize=1)
def _disposition_data() -> Mapping[str, Any]:
    data: Mapping[str, Any] = _load("force-dispositions.json")
    return data


@lru_cache(maxsize=1)
def force_dispositions() -> tuple[ForceDisposition, ...]:
    """The five Force Disposition cards."""
    return tuple(
        ForceDisposition(c["id"], c["name"], c["flavour"], tuple(c["missions"]), c.get("note"))
        for c in _disposition_data()["cards"]
    )


def opponent_columns() -> tuple[str, ...]:
    """The Force Disposition ids in the order of the opponent symbols on every card."""
    return tuple(_disposition_data()["opponent_columns"])


def force_disposition(name: str) -> ForceDisposition:
    """A Force Disposition card by name or id (case-insensitive).

    >>> force_disposition("purge the foe").id
    'purge-the-foe'
    """
    for fd in force_dispositions():
        if _key(name) in (fd.id, _key(fd.name)):
            return fd
    known = ", ".join(fd.name for fd in force_dispositions())
    raise UnknownReferenceError(f"no Force Disposition named {name!r} (known: {known})")


def primary_mission(player_fd: str, opponent_fd: str) -> str:
    """The Primary Mission (name as printed) a player gets from the pair of Force Dispositions.

    >>> primary_mission("Reconnaissance", "Reconnaissance")
    'GATHER INTEL'
    >>> primary_mission("priority-assets", "disruption")
    'EXTRACT RELIC'
    """
    mine = force_disposition(player_fd)
    column = opponent_columns().index(force_disposition(opponent_fd).id)
    return mine.missions[column]


@lru_cache(maxsize=1)
def twists() -> tuple[Twist, ...]:
    """The six Twist cards."""
    return tuple(
        Twist(
            id=t["id"],
            name=t["name"],
            flavour=t["flavour"],
            text=t["text"],
            designers_note=t["designers_note"],
            effect=freeze(t["effect"]),
            table=freeze(t["table"]) if "table" in t else None,
            note=t.get("note"),
        )
        for t in _load("twists.json")["cards"]
    )


def twist(name: str) -> Twist:
    """A Twist by id or printed name (case-insensitive).

    >>> twist("Night Fighting").effect["range"]
    18
    """
    for t in twists():
        if _key(name) in (t.id, _key(t.name)):
            return t
    known = ", ".join(t.id for t in twists())
    raise UnknownReferenceError(f"no Twist named {name!r} (known: {known})")


@lru_cache(maxsize=1)
def deployment_deck() -> tuple[tuple[str, str], ...]:
    """The Deployment cards as ``(id, printed name)``, ids as in ``engine.deployments``."""
    return tuple((c["id"], c["name"]) for c in _load("deployment-deck.json")["cards"])
