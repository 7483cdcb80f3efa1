"""Everything the rules engine concludes about a scenario, at once: objective control, where
each unit stands, engagement and (optionally) line of sight; the ``evaluate`` JSON; fast updates
while a unit is dragged.

>>> from engine.model import CircleBase, Model, Objective, Player, Scenario, Unit
>>> red = Unit("red-u", "red", (Model("red-m", 29.0, 19.0, CircleBase(32)),))
>>> s = Scenario("wh40k-ca2026", (Player("red"), Player("blue")), units=(red,),
...              objectives=(Objective("obj", 30.0, 22.0),))
>>> data = evaluate(s, visibility=False).to_json()
>>> data["objectives"][0]["controlled_by"], data["units"][0]["quarter"]
(['red'], 'SW')
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from types import MappingProxyType
from typing import Any, Generic, TypeVar

from engine.areas import (
    ModelAreas,
    Regions,
    UnitPosition,
    model_areas,
    positions_of_units,
    regions,
)
from engine.coherency import UnitCoherency, coherency
from engine.engagement import (
    EngagedPair,
    EngagementRules,
    Engagements,
    engaged_pairs,
    engagement_grid,
    engagement_rules,
)
from engine.explain import Explanation, RulingSection, inches, player_names
from engine.geometry import FloatArray, IntArray, ModelTable, model_table
from engine.model import Objective, Scenario
from engine.objectives import (
    ControlCache,
    ObjectiveControl,
    ObjectiveRules,
    control_from_distances,
    objective_distances,
    objective_rules,
)
from engine.overlaps import ModelPair, overlap_grid, overlapping_pairs
from engine.rulesets import ruleset_for
from engine.rulesets.base import RulesetReport, Score
from engine.ruling import board_sections, objective_section, unit_sections
from engine.visibility import PairVisibility
from engine.visibility import visibility as line_of_sight


@dataclass(frozen=True)
class RulesInForce:
    """The ranges and measures the scenario plays by (its ruleset's, overridden by options):
    what the app draws its rings with.

    ``measure`` is ``"edge"`` (from the marker's closest point) or ``"centre"``;
    ``contest_range`` is ``None`` where the ruleset contests at the objective range itself;
    ``vertical_range`` and ``engagement_vertical`` are ``None`` where heights do not count;
    ``terrain_objectives``: whether an objective placed on terrain is held from its area.

    >>> from engine.model import Player, Scenario
    >>> rules = rules_in_force(Scenario("shared-modules", (Player("a"), Player("b"))))
    >>> rules.objective_range, rules.measure, rules.contest_range, rules.terrain_objectives
    (3.0, 'centre', 2.0, False)
    """

    ruleset: str
    objective_range: float
    measure: str
    contest_range: float | None
    vertical_range: float | None
    terrain_objectives: bool
    engagement_horizontal: float
    engagement_vertical: float | None

    def objective_reach(self, objective: Objective) -> float:
        """How far from the objective's centre its range reaches (inches)."""
        return self.objective_range + (objective.radius if self.measure == "edge" else 0.0)

    def to_json(self) -> dict[str, Any]:
        return {
            "objective_range": self.objective_range,
            "measure": self.measure,
            "contest_range": self.contest_range,
            "vertical_range": self.vertical_range,
            "terrain_objectives": self.terrain_objectives,
            "engagement_range": self.engagement_horizontal,
            "engagement_vertical_range": self.engagement_vertical,
        }


def rules_in_force(scenario: Scenario) -> RulesInForce:
    """The :class:`RulesInForce` of ``scenario`` (raises ``RulesError`` on a bad option)."""
    return _rules_in_force(objective_rules(scenario), engagement_rules(scenario))


def _rules_in_force(objectives: ObjectiveRules, engagement: EngagementRules) -> RulesInForce:
    return RulesInForce(
        objectives.ruleset,
        objectives.objective_range,
        objectives.measure,
        objectives.separate_contest_range,
        objectives.vertical_range,
        objectives.terrain_objectives,
        engagement.horizontal,
        engagement.vertical,
    )


@dataclass(frozen=True)
class UnitRuling:
    """One unit's row of the evaluation: where it stands and whom it is engaged with."""

    position: UnitPosition
    engaged_with: tuple[str, ...]

    @property
    def id(self) -> str:
        return self.position.id

    @property
    def player(self) -> str:
        return self.position.player

    @property
    def quarter(self) -> str | None:
        return self.position.quarter

    @property
    def within_6_of_centre(self) -> bool:
        return self.position.within_6_of_centre

    @property
    def zones_wholly_within(self) -> tuple[str, ...]:
        return self.position.zones_wholly_within

    @property
    def territory(self) -> str | None:
        return self.position.territory

    @property
    def within_no_mans_land(self) -> bool:
        return self.position.within_no_mans_land

    @property
    def wholly_within_no_mans_land(self) -> bool:
        return self.position.wholly_within_no_mans_land

    @property
    def terrain_within(self) -> tuple[str, ...]:
        return self.position.terrain_within

    @property
    def terrain_wholly_within(self) -> tuple[str, ...]:
        return self.position.terrain_wholly_within

    @property
    def explanation(self) -> Explanation:
        return self.position.explanation

    def ruling_text(self) -> str:
        """What the rules say about this unit, one fact a line, then the reasons.

        >>> from engine.model import CircleBase, Model, Player, Scenario, Unit
        >>> red = Unit("red-u", "red", (Model("red-m", 10.0, 10.0, CircleBase(32)),))
        >>> s = Scenario("wh40k-ca2026", (Player("red"), Player("blue")), units=(red,))
        >>> print(evaluate(s, visibility=False).unit("red-u").ruling_text().splitlines()[0])
        Table quarter: SW
        """
        facts = [
            f"Table quarter: {self.quarter or 'none (not wholly within one quarter)'}",
            f'Within 6" of the centre: {"yes" if self.within_6_of_centre else "no"}',
            f"Engaged with: {', '.join(self.engaged_with) or 'nobody'}",
            f"Wholly within deployment zones: {', '.join(self.zones_wholly_within) or 'none'}",
            f"Territory: {self.territory or 'none'}",
        ]
        return "\n".join([*facts, self.explanation.text()])

    def to_json(self) -> dict[str, Any]:
        data = self.position.to_json()
        data["engaged_with"] = sorted(self.engaged_with)
        order = ("id", "quarter", "within_6_of_centre", "engaged_with")
        return {**{k: data[k] for k in order}, **{k: v for k, v in data.items() if k not in order}}


@dataclass(frozen=True)
class Evaluation:
    """The engine's conclusions about one scenario."""

    objectives: tuple[ObjectiveControl, ...]
    units: tuple[UnitRuling, ...]
    engagements: Engagements
    rules: RulesInForce
    overlaps: tuple[ModelPair, ...]
    """Pairs of models whose bases overlap (see :mod:`engine.overlaps`), sorted."""
    player_names: Mapping[str, str]
    scenario: Scenario = field(repr=False, compare=False)
    visibility: tuple[PairVisibility, ...] | None = None
    notes: tuple[str, ...] = ()
    coherency: Mapping[str, UnitCoherency] = field(default_factory=lambda: MappingProxyType({}))
    """Each unit's coherency by id (:mod:`engine.coherency`); empty while ``options.coherency``
    is off."""

    @cached_property
    def ruleset_report(self) -> RulesetReport:
        """The rule system's own report (:meth:`engine.rulesets.base.Ruleset.report`), worked
        out on first use from this evaluation."""
        return ruleset_for(self.scenario).report(self.scenario, self)

    def score(self) -> Score:
        """The rule system's score of the moment the file's ``game`` describes."""
        return ruleset_for(self.scenario).score(self.scenario, self)

    def objective(self, objective_id: str) -> ObjectiveControl:
        return next(o for o in self.objectives if o.id == objective_id)

    def unit(self, unit_id: str) -> UnitRuling:
        return next(u for u in self.units if u.id == unit_id)

    def objective_ruling_text(self, objective_id: str) -> str:
        """One objective's verdict line (``"obj: Red 4 : Blue 2 - Red controls"``), then why."""
        control = self.objective(objective_id)
        caption = control.caption(self.player_names).replace("\n", ": ", 1)
        return f"{caption}\n{control.explanation.text()}"

    def unit_ruling_text(self, unit_id: str) -> str:
        """One unit's ruling: see :meth:`UnitRuling.ruling_text`."""
        return self.unit(unit_id).ruling_text()

    def ruling_sections(
        self, objective_ids: Iterable[str] = (), unit_ids: Iterable[str] = ()
    ) -> tuple[RulingSection, ...]:
        """The structured ruling (:class:`engine.explain.RulingSection`, one per conclusion)
        about the given objectives and units, in that order (ids this evaluation does not
        judge are left out); nothing given: the whole battlefield's.

        >>> from engine.model import CircleBase, Model, Player, Scenario, Unit
        >>> red = Unit("red-u", "red", (Model("red-m", 10.0, 10.0, CircleBase(32)),))
        >>> s = Scenario("wh40k-ca2026", (Player("red"), Player("blue")), units=(red,))
        >>> [s.verdict for s in evaluate(s, visibility=False).ruling_sections(unit_ids=["red-u"])]
        ['red-u is wholly within the SW table quarter', 'red-u is not within 6" of the centre', \
'red-u is not engaged', 'red-u is wholly within deployment zones: none; territory: none']
        """
        objectives, units = list(objective_ids), list(unit_ids)
        if not objectives and not units:
            return board_sections(self)
        judged_objectives = {o.id: o for o in self.objectives}
        judged_units = {u.id: u for u in self.units}
        sections = [
            objective_section(judged_objectives[i], self.player_names)
            for i in objectives
            if i in judged_objectives
        ]
        for unit_id in units:
            if unit_id in judged_units:
                sections.extend(
                    unit_sections(judged_units[unit_id], self.engagements, self.scenario)
                )
        return tuple(sections)

    def to_json(self) -> dict[str, Any]:
        """The contract JSON of ``python -m engine evaluate FILE --json`` (sorted id lists).

        ``visibility`` is present only when line of sight was evaluated.
        """
        data: dict[str, Any] = {
            "objectives": [o.to_json() for o in self.objectives],
            "units": [u.to_json() for u in self.units],
            "engagements": self.engagements.to_json(),
            "rules": self.rules.to_json(),
            "overlaps": [list(pair) for pair in self.overlaps],
            "ruleset_report": self.ruleset_report.to_json(),
        }
        if self.visibility is not None:
            data["visibility"] = [v.to_json() for v in self.visibility]
        if self.notes:
            data["notes"] = list(self.notes)
        if self.coherency:
            data["coherency"] = [
                {
                    "unit": unit_id,
                    "in_coherency": result.in_coherency,
                    "out": sorted(result.out_of_coherency),
                }
                for unit_id, result in sorted(self.coherency.items())
            ]
        return data

    def ruling_text(self) -> str:
        """A readable summary: each objective and unit with the reasons behind it."""
        return self._ruling_text

    @cached_property
    def _ruling_text(self) -> str:
        lines: list[str] = ["Objectives"]
        for control in self.objectives:
            lines.extend("  " + line for line in control.explanation.text().splitlines())
        lines.append("Units")
        for unit in self.units:
            engaged = ", ".join(unit.engaged_with) if unit.engaged_with else "none"
            zones = ", ".join(unit.zones_wholly_within) if unit.zones_wholly_within else "none"
            lines.append(
                f"  {unit.id} ({unit.player}): quarter {unit.quarter or 'none'}; "
                f'{"within" if unit.within_6_of_centre else "not within"} 6" of the centre; '
                f"zones {zones}; territory {unit.territory or 'none'}; engaged with {engaged}"
            )
        lines.append("Engagement")
        pairs = self.engagements.unit_pairs
        if not pairs:
            lines.append("  no units are engaged")
        for first, second in pairs:
            lines.append(f"  {first} and {second} are engaged")
            for pair in self.engagements.pairs_of(first):
                if second in (pair.unit_a, pair.unit_b):
                    lines.append(
                        f"    - {pair.model_a} is {inches(pair.distance)} from {pair.model_b}"
                    )
        if self.visibility is not None:
            lines.append("Visibility")
            for seen in self.visibility:
                data = seen.to_json()
                lines.append(
                    f"  {data.get('observer')} -> {data.get('target')}: "
                    f"visible {data.get('visible')}, fully visible {data.get('fully_visible')}, "
                    f"cover {data.get('cover')}"
                )
        for note in self.notes:
            lines.append(f"Note: {note}")
        return "\n".join(lines) + "\n"


def evaluate(scenario: Scenario, *, visibility: bool = True) -> Evaluation:
    """Everything the engine concludes about ``scenario``.

    Line of sight (:func:`engine.visibility.visibility`) only when ``visibility`` is true;
    otherwise ``Evaluation.visibility`` is ``None``.
    """
    evaluation = _State(scenario).evaluation()
    if not visibility:
        return evaluation
    return replace(evaluation, visibility=tuple(line_of_sight(scenario)))


PairValue = TypeVar("PairValue")


class _SortedPairs(Generic[PairValue]):
    """Values keyed by a pair of model ids, kept sorted by key, with each model's keys indexed,
    so that removing a moved model's pairs and adding its new ones costs O(its pairs + log)."""

    def __init__(self, items: Iterable[tuple[ModelPair, PairValue]]) -> None:
        self.by_key: dict[ModelPair, PairValue] = dict(items)
        self.keys: list[ModelPair] = sorted(self.by_key)
        self.of_model: dict[str, set[ModelPair]] = {}
        for key in self.keys:
            self._index(key)
        self.values: tuple[PairValue, ...] = tuple(map(self.by_key.__getitem__, self.keys))

    def _index(self, key: ModelPair) -> None:
        for model_id in key:
            self.of_model.setdefault(model_id, set()).add(key)

    def replace(
        self, models: Iterable[str], fresh: Iterable[tuple[ModelPair, PairValue]]
    ) -> list[PairValue]:
        """Drop every pair of ``models``, add ``fresh``; the dropped values. Keys present both
        before and after keep their place (only the keys that come or go touch the order)."""
        incoming = dict(fresh)
        outgoing: set[ModelPair] = set()
        for model_id in models:
            outgoing |= self.of_model.get(model_id, set())
        dropped = [self.by_key[key] for key in outgoing]
        for key in outgoing - incoming.keys():
            del self.by_key[key]
            del self.keys[bisect.bisect_left(self.keys, key)]
            for model_id in key:
                self.of_model[model_id].discard(key)
        for key, value in incoming.items():
            if key not in self.by_key:
                bisect.insort(self.keys, key)
                self._index(key)
            self.by_key[key] = value
        self.values = tuple(map(self.by_key.__getitem__, self.keys))
        return dropped


class _State:
    """Everything needed to answer for one scenario, kept so it can be updated in part."""

    def __init__(self, scenario: Scenario) -> None:
        self.scenario = scenario
        self.table: ModelTable = model_table(scenario)
        self.objective_rules: ObjectiveRules = objective_rules(scenario)
        self.engagement_rules: EngagementRules = engagement_rules(scenario)
        self.regions: Regions = regions(scenario)
        self.distances: FloatArray = objective_distances(scenario, self.table, self.objective_rules)
        self.areas: ModelAreas = model_areas(scenario, self.table.shapes, self.regions)
        self._grids()
        self.pairs = _SortedPairs(
            ((p.model_a, p.model_b), p)
            for p in engaged_pairs(
                scenario, self.table, self.engagement_rules, grid=self.engagement_grid
            )
        )
        self.rules = _rules_in_force(self.objective_rules, self.engagement_rules)
        self.overlaps = _SortedPairs(
            (p, p) for p in overlapping_pairs(self.table, grid=self.overlap_grid)
        )
        self.player_names = player_names(scenario)
        self.control_cache: ControlCache | None = None
        self.changed_rows: IntArray | None = None
        self.positions: list[UnitPosition] = list(
            positions_of_units(
                scenario, self.table, self.regions, self.areas, range(len(scenario.units))
            )
        )
        self.unit_index = {u.id: k for k, u in enumerate(scenario.units)}
        self.links: dict[str, dict[str, int]] = {}
        self._link(self.pairs.values, 1)
        self.partners: dict[str, tuple[str, ...]] = {
            u: tuple(sorted(v)) for u, v in self.links.items()
        }
        self.rulings: list[UnitRuling] = [
            UnitRuling(p, self.partners.get(p.id, ())) for p in self.positions
        ]
        self.coherency: Mapping[str, UnitCoherency] = coherency(scenario)

    def _grids(self) -> None:
        shapes = self.table.shapes
        self.largest_base = float(shapes.bounding.max()) if len(shapes) else 0.0
        self.engagement_grid = engagement_grid(self.table, self.engagement_rules)
        self.overlap_grid = overlap_grid(self.table)

    def _link(self, pairs: Iterable[EngagedPair], change: int) -> None:
        """Count (``change`` +1) or uncount (-1) each pair in its units' engagement links."""
        for pair in pairs:
            for unit, other in ((pair.unit_a, pair.unit_b), (pair.unit_b, pair.unit_a)):
                links = self.links.setdefault(unit, {})
                links[other] = links.get(other, 0) + change
                if links[other] == 0:
                    del links[other]
                if not links:
                    del self.links[unit]

    def update(self, scenario: Scenario, unit_indices: Sequence[int]) -> None:
        self.scenario = scenario
        self.table = self.table.with_units(scenario, unit_indices)
        rows = self.table.rows_of_units(unit_indices)
        self.changed_rows = rows
        touched: set[str] = set()
        if len(rows):
            shapes = self.table.shapes
            if float(shapes.bounding[rows].max()) > self.largest_base:
                self._grids()
            else:
                self.engagement_grid = self.engagement_grid.moved(rows, shapes.x, shapes.y)
                self.overlap_grid = self.overlap_grid.moved(rows, shapes.x, shapes.y)
            self.distances = self.distances.copy()
            self.distances[:, rows] = objective_distances(
                scenario, self.table, self.objective_rules, rows.tolist()
            )
            fresh = model_areas(scenario, shapes.take(rows), self.regions)
            self.areas = self.areas.with_rows(rows, fresh)
            moved_ids = [self.table.model_ids[r] for r in rows.tolist()]
            added = engaged_pairs(
                scenario, self.table, self.engagement_rules, rows.tolist(), self.engagement_grid
            )
            dropped = self.pairs.replace(moved_ids, (((p.model_a, p.model_b), p) for p in added))
            self._link(dropped, -1)
            self._link(added, 1)
            touched = {u for p in (*dropped, *added) for u in (p.unit_a, p.unit_b)}
            for unit in touched:
                self.partners[unit] = tuple(sorted(self.links.get(unit, {})))
            fresh_overlaps = overlapping_pairs(self.table, rows.tolist(), self.overlap_grid)
            self.overlaps.replace(moved_ids, ((p, p) for p in fresh_overlaps))
        fresh_positions = positions_of_units(
            scenario, self.table, self.regions, self.areas, unit_indices
        )
        for u, position in zip(unit_indices, fresh_positions, strict=True):
            self.positions[u] = position
        # Only the moved units and those whose engagement changed get a new row.
        for u in {*unit_indices, *(self.unit_index[unit] for unit in touched)}:
            position = self.positions[u]
            self.rulings[u] = UnitRuling(position, self.partners.get(position.id, ()))
        moved_units = [scenario.units[u].id for u in unit_indices]
        self.coherency = coherency(scenario, moved_units, self.coherency)

    def evaluation(self) -> Evaluation:
        engagements = Engagements(self.engagement_rules, self.pairs.values, self.partners)
        objectives, self.control_cache = control_from_distances(
            self.scenario,
            self.table,
            self.objective_rules,
            self.distances,
            self.control_cache,
            self.changed_rows,
        )
        units = tuple(self.rulings)
        notes = (self.regions.note,) if self.regions.note else ()
        return Evaluation(
            objectives,
            units,
            engagements,
            self.rules,
            self.overlaps.values,
            self.player_names,
            self.scenario,
            None,
            notes,
            self.coherency,
        )


class IncrementalEvaluator:
    """Evaluations (without line of sight) kept up to date as units move.

    >>> from engine.model import CircleBase, Model, Player, Scenario, Unit
    >>> red = Unit("red-u", "red", (Model("red-m", 10.0, 10.0, CircleBase(32)),))
    >>> s = Scenario("wh40k-ca2026", (Player("red"), Player("blue")), units=(red,))
    >>> evaluator = IncrementalEvaluator(s)
    >>> moved = s.with_unit_moved("red-u", 25.0, 0.0)
    >>> evaluator.update(moved, ("red-u",)).units[0].quarter
    'SE'
    """

    def __init__(self, scenario: Scenario) -> None:
        self._state = _State(scenario)
        self._evaluation = self._state.evaluation()

    @property
    def evaluation(self) -> Evaluation:
        return self._evaluation

    def update(self, scenario: Scenario, moved_unit_ids: Iterable[str]) -> Evaluation:
        """The evaluation of ``scenario``, which differs from the last one only in the units
        ``moved_unit_ids`` (anything else changed, and it starts afresh); only those units'
        rows are recomputed. Equal to ``evaluate(scenario, visibility=False)``."""
        old = self._state.scenario
        changed = _changed_units(old, scenario, set(moved_unit_ids))
        if changed is None:
            self._state = _State(scenario)
        else:
            self._state.update(scenario, changed)
        self._evaluation = self._state.evaluation()
        return self._evaluation


def _changed_units(old: Scenario, new: Scenario, moved: set[str]) -> list[int] | None:
    """Indices of units to recompute, or ``None`` when the layout changed (start afresh)."""
    if len(old.units) != len(new.units) or _setting(old) != _setting(new):
        return None
    changed: list[int] = []
    for index, (before, after) in enumerate(zip(old.units, new.units, strict=True)):
        if before is after:
            continue
        if before.id != after.id or before.player != after.player:
            return None
        if len(before.models) != len(after.models) or any(
            a.id != b.id for a, b in zip(before.models, after.models, strict=True)
        ):
            return None
        if after.id in moved or before != after:
            changed.append(index)
    return changed


def _setting(scenario: Scenario) -> tuple[object, ...]:
    """Everything but the units: when any of it changes, an update starts afresh."""
    return (
        scenario.ruleset,
        scenario.players,
        scenario.battlefield,
        scenario.options,
        scenario.deployment,
        scenario.terrain,
        scenario.objectives,
        scenario.game,
    )
