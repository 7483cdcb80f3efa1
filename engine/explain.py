"""Explanations behind the engine's conclusions: which rule, which models, which distances.

Every result the rules modules return carries an :class:`Explanation`: a conclusion and the
facts that lead to it, each citing the rule it applies, worded so a judge could read it aloud.

>>> rule = RuleRef("wh40k-ca2026", "Objective control")
>>> text = 'red-i1 is 2.998" from obj-centre\\'s marker (within 3")'
>>> fact = Fact(text, rule, {"distance": 2.998})
>>> print(Explanation("obj-centre: controlled by red", (fact,)).text())
obj-centre: controlled by red
  - red-i1 is 2.998" from obj-centre's marker (within 3") [wh40k-ca2026: Objective control]
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
    """A distance for a sentence: three decimals, trailing zeros dropped, with the inch mark.

    >>> inches(3.0), inches(2.99849), inches(0.0)
    ('3"', '2.998"', '0"')
    """
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return f'{"0" if text == "-0" else text}"'


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
