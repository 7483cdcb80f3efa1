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
class Fact:
    """One observation behind a conclusion, with the numbers it rests on."""

    text: str
    rule: RuleRef | None = None
    values: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    def line(self) -> str:
        return f"{self.text} [{self.rule}]" if self.rule is not None else self.text


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
