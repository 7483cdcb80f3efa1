"""Engagement: which enemy models, and so which units, are engaged with each other.

Two enemy models are engaged when within the rule system's engagement range (Chapter Approved
2" horizontally and 5" vertically; Shared Scenario Modules 2"; Scrollhammer base contact, taken
as within 1 mm, with no vertical limit), overridden by ``options.engagement_range`` and
``options.engagement_vertical_range``; units are engaged when any of their models are.

>>> from engine.model import CircleBase, Model, Player, Scenario, Unit
>>> red = Unit("red-u", "red", (Model("red-m", 10.0, 10.0, CircleBase(32)),))
>>> blue = Unit("blue-u", "blue", (Model("blue-m", 13.25, 10.0, CircleBase(32)),))
>>> e = engagements(Scenario("wh40k-ca2026", (Player("red"), Player("blue")), units=(red, blue)))
>>> e.engaged_with("red-u"), [(p.model_a, p.model_b, round(p.distance, 4)) for p in e.pairs]
(('blue-u',), [('blue-m', 'red-m', 1.9902)])
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType

import numpy as np

from engine.errors import RulesError
from engine.explain import Explanation, Fact, Measurement, RuleRef, id_list, inches
from engine.geometry import TOLERANCE, IntArray, ModelTable, close_pairs, model_table
from engine.model import Scenario
from engine.rulesets import ruleset_for
from engine.spatial import Grid


@dataclass(frozen=True)
class EngagementRules:
    """The engagement range in force: horizontal and (``None``: heights do not count)
    vertical inches, and the rule's section."""

    ruleset: str
    horizontal: float
    vertical: float | None
    section: str = "Engagement"

    @property
    def rule(self) -> RuleRef:
        return RuleRef(self.ruleset, self.section)


def engagement_rules(scenario: Scenario) -> EngagementRules:
    """The engagement range in force: the rule system's, overridden by the options.

    >>> from engine.model import Player, Scenario
    >>> rules = engagement_rules(Scenario("scrollhammer", (Player("a"), Player("b"))))
    >>> round(rules.horizontal * 25.4, 9)
    1.0
    """
    return ruleset_for(scenario).engagement_rules(scenario)


def engagement_with_options(scenario: Scenario, defaults: EngagementRules) -> EngagementRules:
    """A rule system's engagement values overridden by ``options.engagement_range`` and
    ``options.engagement_vertical_range`` (``RulesError`` for a bad value)."""
    horizontal = scenario.option("engagement_range", defaults.horizontal)
    vertical = scenario.option("engagement_vertical_range", defaults.vertical)
    for key, value in (("engagement_range", horizontal), ("engagement_vertical_range", vertical)):
        if value is None and key == "engagement_vertical_range":
            continue
        if isinstance(value, bool) or not isinstance(value, int | float) or not value >= 0:
            raise RulesError(f"options.{key} must be a non-negative number, got {value!r}")
    return EngagementRules(
        defaults.ruleset,
        float(horizontal),
        None if vertical is None else float(vertical),
        defaults.section,
    )


@dataclass(frozen=True)
class EngagedPair:
    """Two enemy models within engagement range (``model_a < model_b`` by id)."""

    model_a: str
    model_b: str
    unit_a: str
    unit_b: str
    distance: float
    vertical: float


@dataclass(frozen=True)
class Engagements:
    """Every engaged model pair, and the engaged units they make."""

    rules: EngagementRules
    pairs: tuple[EngagedPair, ...]
    partners: Mapping[str, tuple[str, ...]] | None = field(default=None, compare=False)
    """Each engaged unit's sorted partners, when the caller keeps them (else worked out)."""

    @cached_property
    def _partners(self) -> Mapping[str, tuple[str, ...]]:
        if self.partners is not None:
            return self.partners
        found: dict[str, set[str]] = {}
        for pair in self.pairs:
            found.setdefault(pair.unit_a, set()).add(pair.unit_b)
            found.setdefault(pair.unit_b, set()).add(pair.unit_a)
        return MappingProxyType({u: tuple(sorted(v)) for u, v in found.items()})

    @property
    def unit_pairs(self) -> tuple[tuple[str, str], ...]:
        """Engaged unit pairs, each sorted, the whole sorted."""
        return tuple(
            sorted({(min(p.unit_a, p.unit_b), max(p.unit_a, p.unit_b)) for p in self.pairs})
        )

    def engaged_with(self, unit_id: str) -> tuple[str, ...]:
        """The sorted ids of the units engaged with ``unit_id``."""
        return self._partners.get(unit_id, ())

    def pairs_of(self, unit_id: str) -> tuple[EngagedPair, ...]:
        return tuple(p for p in self.pairs if unit_id in (p.unit_a, p.unit_b))

    def explain(self, unit_id: str) -> Explanation:
        """Why ``unit_id`` is (or is not) engaged, model pair by model pair."""
        partners = self.engaged_with(unit_id)
        rule = self.rules.rule
        if not partners:
            return Explanation(
                f"{unit_id}: unengaged (no enemy model within {self._range_text()})", ()
            )
        facts = []
        for pair in sorted(self.pairs_of(unit_id), key=lambda p: (p.distance, p.model_a)):
            facts.append(
                Fact(
                    f"{pair.model_a} is {inches(pair.distance)} from {pair.model_b} "
                    f"(within {self._range_text()})",
                    rule,
                    {"distance": pair.distance, "vertical": pair.vertical},
                    (pair.model_a, pair.model_b),
                    (pair.unit_a, pair.unit_b),
                    measured=Measurement(
                        f"{pair.model_a} to {pair.model_b}",
                        pair.distance,
                        "apart",
                        self.rules.horizontal,
                        True,
                        inside="engaged",
                        detail=self._vertical_detail(pair),
                    ),
                )
            )
        return Explanation(f"{unit_id}: engaged with {id_list(list(partners))}", tuple(facts))

    def _vertical_detail(self, pair: EngagedPair) -> str:
        if self.rules.vertical is None:
            return ""
        return f", {inches(pair.vertical)} vertically <= {inches(self.rules.vertical)}"

    def _range_text(self) -> str:
        text = f"{inches(self.rules.horizontal)} horizontally"
        if self.rules.vertical is not None:
            text += f" and {inches(self.rules.vertical)} vertically"
        return text

    def to_json(self) -> list[dict[str, object]]:
        return [
            {
                "models": [p.model_a, p.model_b],
                "units": [p.unit_a, p.unit_b],
                "distance": p.distance,
            }
            for p in self.pairs
        ]


def engagements(scenario: Scenario) -> Engagements:
    """Every engaged enemy model pair of ``scenario``."""
    table = model_table(scenario)
    rules = engagement_rules(scenario)
    return Engagements(rules, engaged_pairs(scenario, table, rules))


def engagement_grid(table: ModelTable, rules: EngagementRules) -> Grid:
    """The grid :func:`engaged_pairs` searches: cells as wide as two of the largest bases plus
    the engagement range."""
    largest = float(table.shapes.bounding.max()) if len(table.model_ids) else 0.0
    return Grid.build(table.shapes.x, table.shapes.y, 2.0 * largest + rules.horizontal + TOLERANCE)


def engaged_pairs(
    scenario: Scenario,
    table: ModelTable,
    rules: EngagementRules,
    rows: Iterable[int] | None = None,
    grid: Grid | None = None,
) -> tuple[EngagedPair, ...]:
    """Engaged pairs among all models, or only those involving ``rows``, sorted by model ids;
    ``grid``: the table's :func:`engagement_grid`, when the caller keeps one."""
    shapes = table.shapes
    queried: IntArray | None = None
    if rows is not None:
        queried = np.asarray(sorted(set(rows)), dtype=np.int64)
        if len(queried) == 0:
            return ()
    # The grid and then bounding circles prune the pairs before any exact measuring.
    i, j = (grid or engagement_grid(table, rules)).pairs(queried)
    enemies = table.player_index[i] != table.player_index[j]
    i, j = i[enemies], j[enemies]
    gap = np.hypot(shapes.x[i] - shapes.x[j], shapes.y[i] - shapes.y[j])
    gap -= shapes.bounding[i] + shapes.bounding[j]
    reachable = gap <= rules.horizontal + TOLERANCE
    return _pairs(scenario, table, rules, i[reachable], j[reachable])


def _pairs(
    scenario: Scenario, table: ModelTable, rules: EngagementRules, left: IntArray, right: IntArray
) -> tuple[EngagedPair, ...]:
    i, j, distance = close_pairs(table.shapes, left, right, rules.horizontal)
    vertical = np.abs(table.z[i] - table.z[j])
    if rules.vertical is not None:
        keep = vertical <= rules.vertical + TOLERANCE
        i, j, distance, vertical = i[keep], j[keep], distance[keep], vertical[keep]
    ids, units, unit_of_row = table.model_ids, table.unit_ids, table.unit_of_row
    found = []
    for a, b, d, v in zip(
        i.tolist(), j.tolist(), distance.tolist(), vertical.tolist(), strict=True
    ):
        if ids[a] > ids[b]:
            a, b = b, a
        found.append(
            EngagedPair(ids[a], ids[b], units[unit_of_row[a]], units[unit_of_row[b]], d, v)
        )
    found.sort(key=lambda p: (p.model_a, p.model_b))
    return tuple(found)
