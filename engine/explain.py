"""Explanations behind the engine's conclusions: which rule, which models, which distances.

Every result the rules modules return carries an :class:`Explanation`: a conclusion and the
facts that lead to it, each citing the rule it applies, worded so a judge could read it aloud.

>>> rule = RuleRef("wh40k-ca2026", "Objective control")
>>> text = 'red-i1 is 2.9985" from obj-centre\\'s marker (within 3")'
>>> fact = Fact(text, rule, {"distance": 2.9985})
>>> print(Explanation("obj-centre: controlled by red", (fact,)).text())
obj-centre: controlled by red
  - red-i1 is 2.9985" from obj-centre's marker (within 3") [wh40k-ca2026: Objective control]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from engine.model import Scenario


@dataclass(frozen=True)
class RuleRef:
    """The rule a fact applies: the ruleset id and the section (or card) name."""

    ruleset: str
    section: str

    def __str__(self) -> str:
        return f"{self.ruleset}: {self.section}"


@dataclass(frozen=True)
class Measurement:
    """A measured number against the threshold it is judged by, read as a judge checks it:
    the subject, the distance (``at_least``: a lower bound, the true distance is beyond), what
    it is measured from, the comparison with the limit and the outcome.

    >>> print(Measurement("red-1", 2.9995, "from the marker's rim", 3.0, True).line())
    red-1: 2.9995" from the marker's rim <= 3": in range
    >>> print(Measurement("red-2", 3.0001, "from the marker's rim", 3.0, False).line())
    red-2: 3.0001" from the marker's rim > 3": out of range
    >>> print(Measurement("red-3", 8.0, "from the centre", 6.0, False, at_least=True).line())
    red-3: at least 8" from the centre > 6": out of range
    """

    subject: str
    distance: float
    reference: str
    limit: float
    within: bool
    at_least: bool = False
    inside: str = "in range"
    outside: str = "out of range"
    detail: str = ""
    """Said after the comparison, before the outcome (``", OC 2"``, a vertical distance)."""

    def line(self) -> str:
        bound = "at least " if self.at_least else ""
        comparison = "<=" if self.within else ">"
        outcome = self.inside if self.within else self.outside
        return (
            f"{self.subject}: {bound}{inches(self.distance)} {self.reference} {comparison} "
            f"{inches(self.limit)}{self.detail}: {outcome}"
        )


@dataclass(frozen=True)
class Fact:
    """One observation behind a conclusion, with the numbers it rests on, the ids of the
    models, units and objectives it is about, and (for a distance judged against a range) the
    :class:`Measurement` a structured ruling shows instead of the sentence."""

    text: str
    rule: RuleRef | None = None
    values: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    model_ids: tuple[str, ...] = ()
    unit_ids: tuple[str, ...] = ()
    objective_ids: tuple[str, ...] = ()
    measured: Measurement | None = None

    def line(self) -> str:
        return f"{self.text} [{self.rule}]" if self.rule is not None else self.text

    def ruling_line(self) -> RulingLine:
        """This fact as a line of a structured ruling: the measured numbers against their
        threshold where there are some, else the sentence."""
        text = self.measured.line() if self.measured is not None else self.text
        return RulingLine(text, self.model_ids, self.unit_ids, self.objective_ids)


@dataclass(frozen=True)
class RulingLine:
    """One line of a structured ruling and the ids it is about (what clicking it shows)."""

    text: str
    model_ids: tuple[str, ...] = ()
    unit_ids: tuple[str, ...] = ()
    objective_ids: tuple[str, ...] = ()

    @property
    def ids(self) -> tuple[str, ...]:
        """Every id the line is about: models, then units, then objectives."""
        return (*self.model_ids, *self.unit_ids, *self.objective_ids)


@dataclass(frozen=True)
class RulingSection:
    """One conclusion of a ruling, readable at a glance: the verdict first (one line), then
    the lines it rests on (measured numbers against their thresholds), then the rule cited.

    >>> rule = RuleRef("wh40k-ca2026", "Objective control")
    >>> line = RulingLine('red-1: 2.9995" from the rim <= 3": in range', ("red-1",))
    >>> section = RulingSection("Red controls obj-centre", (line,), rule)
    >>> print(section.text())
    Red controls obj-centre
      - red-1: 2.9995" from the rim <= 3": in range
      wh40k-ca2026: Objective control
    >>> section.ids
    ('red-1',)
    """

    verdict: str
    lines: tuple[RulingLine, ...] = ()
    rule: RuleRef | None = None

    @property
    def ids(self) -> tuple[str, ...]:
        """Every id the section's lines are about, each once, in order (what clicking the
        verdict shows)."""
        return tuple(dict.fromkeys(i for line in self.lines for i in line.ids))

    def text(self) -> str:
        """The verdict, one indented line per line, the rule cited."""
        rows = [self.verdict, *(f"  - {line.text}" for line in self.lines)]
        if self.rule is not None:
            rows.append(f"  {self.rule}")
        return "\n".join(rows)


def sections_text(heading: str, sections: tuple[RulingSection, ...]) -> str:
    """A structured ruling as plain text: the heading, then each section, a blank line apart.

    >>> print(sections_text("Ruling", (RulingSection("Nobody controls obj"),)))
    Ruling
    <BLANKLINE>
    Nobody controls obj
    """
    return "\n\n".join([heading, *(section.text() for section in sections)])


_MARKDOWN_SPECIAL = str.maketrans({c: f"\\{c}" for c in "\\`*_[]~"})


def markdown_escape(text: str) -> str:
    """``text`` with Markdown's special characters escaped (ids such as ``obj_1`` stay as
    written in a forum post).

    >>> print(markdown_escape("obj_1 *is* <= 3"))
    obj\\_1 \\*is\\* <= 3
    """
    return text.translate(_MARKDOWN_SPECIAL)


def sections_markdown(heading: str, sections: tuple[RulingSection, ...]) -> str:
    """A structured ruling as Markdown for a forum post: the heading, each verdict in bold,
    its lines as bullets, the rule in italics.

    >>> rule = RuleRef("wh40k-ca2026", "Objective control")
    >>> line = RulingLine('red-1: 2.9995" from the rim <= 3": in range')
    >>> print(sections_markdown("Ruling: obj_centre",
    ...                         (RulingSection("Red controls obj_centre", (line,), rule),)))
    ### Ruling: obj\\_centre
    <BLANKLINE>
    **Red controls obj\\_centre**
    <BLANKLINE>
    - red-1: 2.9995" from the rim <= 3": in range
    <BLANKLINE>
    *wh40k-ca2026: Objective control*
    <BLANKLINE>
    """
    blocks = [f"### {markdown_escape(heading)}"]
    for section in sections:
        blocks.append(f"**{markdown_escape(section.verdict)}**")
        if section.lines:
            blocks.append("\n".join(f"- {markdown_escape(line.text)}" for line in section.lines))
        if section.rule is not None:
            blocks.append(f"*{markdown_escape(str(section.rule))}*")
    return "\n\n".join(blocks) + "\n"


@dataclass(frozen=True)
class Explanation:
    """A conclusion and the facts that support it."""

    conclusion: str
    facts: tuple[Fact, ...] = ()

    def text(self) -> str:
        """The conclusion, then one indented line per fact."""
        return "\n".join([self.conclusion, *(f"  - {fact.line()}" for fact in self.facts)])


def inches(value: float) -> str:
    """A distance as a judge reads it aloud: four decimals (a tenth of a thou, the finest
    boundary the rules are tested at), trailing zeros dropped, with the inch mark.

    >>> inches(3.0), inches(2.99849), inches(12.0004), inches(2.99999), inches(-0.00001)
    ('3"', '2.9985"', '12.0004"', '3"', '0"')
    """
    text = f"{value:.4f}".rstrip("0").rstrip(".")
    return f'{"0" if text == "-0" else text}"'


@dataclass(frozen=True)
class Violation:
    """One broken rule, ready for the app to draw and the ruling to show: the rule (named as
    its rules text titles the section), a message naming the items and the rule, the ids
    involved, the points to draw (the closest points of two things too close, say) and the
    measured distance against the rule's limit.

    >>> v = Violation("Alternating Terrain", 'ruin-1 is 2.5" from wood-2 (must be more than 3")',
    ...               ("wood-2", "ruin-1"), distance=2.5, limit=3.0)
    >>> v.to_json()["items"]
    ['ruin-1', 'wood-2']
    """

    rule: str
    message: str
    items: tuple[str, ...] = ()
    points: tuple[tuple[float, float], ...] = ()
    distance: float | None = None
    limit: float | None = None

    def to_json(self) -> dict[str, Any]:
        """Plain JSON for the ruling (ids sorted, points as ``[x, y]`` lists)."""
        return {
            "rule": self.rule,
            "message": self.message,
            "items": sorted(self.items),
            "points": [[x, y] for x, y in self.points],
            "distance": self.distance,
            "limit": self.limit,
        }


def id_list(ids: tuple[str, ...] | list[str]) -> str:
    """Ids joined for a sentence.

    >>> id_list(["a"]), id_list(["a", "b", "c"]), id_list([])
    ('a', 'a, b and c', 'none')
    """
    if not ids:
        return "none"
    if len(ids) == 1:
        return ids[0]
    return f"{', '.join(ids[:-1])} and {ids[-1]}"


def player_names(scenario: Scenario) -> Mapping[str, str]:
    """Each player's display name by id (the id where the file gives no name).

    >>> from engine.model import Player, Scenario
    >>> dict(player_names(Scenario("scrollhammer", (Player("red", "Red"), Player("blue")))))
    {'red': 'Red', 'blue': 'blue'}
    """
    return MappingProxyType({p.id: p.name or p.id for p in scenario.players})
