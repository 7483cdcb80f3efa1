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

import importlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

from engine.areas import (
    ModelAreas,
    Regions,
    UnitPosition,
    model_areas,
    positions_of_units,
    regions,
)
from engine.engagement import (
    EngagedPair,
    EngagementRules,
    Engagements,
    engaged_pairs,
    engagement_rules,
)
from engine.explain import Explanation, inches, player_names
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
from engine.overlaps import ModelPair, overlapping_pairs


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
    visibility: tuple[Any, ...] | None = None
    notes: tuple[str, ...] = ()

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
        }
        if self.visibility is not None:
            data["visibility"] = [v.to_json() for v in self.visibility]
        if self.notes:
            data["notes"] = list(self.notes)
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
            for pair in self.visibility:
                data = pair.to_json()
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

    Line of sight comes from ``engine.visibility`` when ``visibility`` is true and that module
    is available; otherwise ``Evaluation.visibility`` is ``None``.
    """
    evaluation = _State(scenario).evaluation()
    if not visibility:
        return evaluation
    try:
        module: Any = importlib.import_module("engine.visibility")
    except ImportError:
        return evaluation
    pairs = tuple(module.visibility(scenario))
    return replace(evaluation, visibility=pairs)


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
        self.pairs: tuple[EngagedPair, ...] = engaged_pairs(
            scenario, self.table, self.engagement_rules
        )
        self.rules = _rules_in_force(self.objective_rules, self.engagement_rules)
        self.overlaps: tuple[ModelPair, ...] = overlapping_pairs(self.table)
        self.player_names = player_names(scenario)
        self.control_cache: ControlCache | None = None
        self.changed_rows: IntArray | None = None
        self.rulings: dict[str, UnitRuling] = {}
        self.positions: list[UnitPosition] = list(
            positions_of_units(
                scenario, self.table, self.regions, self.areas, range(len(scenario.units))
            )
        )

    def update(self, scenario: Scenario, unit_indices: Sequence[int]) -> None:
        self.scenario = scenario
        self.table = self.table.with_units(scenario, unit_indices)
        rows = self.table.rows_of_units(unit_indices)
        self.changed_rows = rows
        if len(rows):
            self.distances = self.distances.copy()
            self.distances[:, rows] = objective_distances(
                scenario, self.table, self.objective_rules, rows.tolist()
            )
            fresh = model_areas(scenario, self.table.shapes.take(rows), self.regions)
            self.areas = self.areas.with_rows(rows, fresh)
            moved_ids = {self.table.model_ids[r] for r in rows.tolist()}
            kept = [
                p for p in self.pairs if p.model_a not in moved_ids and p.model_b not in moved_ids
            ]
            added = set(engaged_pairs(scenario, self.table, self.engagement_rules, rows.tolist()))
            self.pairs = tuple(sorted([*kept, *added], key=lambda p: (p.model_a, p.model_b)))
            untouched = [
                p for p in self.overlaps if p[0] not in moved_ids and p[1] not in moved_ids
            ]
            fresh_overlaps = overlapping_pairs(self.table, rows.tolist())
            self.overlaps = tuple(sorted({*untouched, *fresh_overlaps}))
        fresh_positions = positions_of_units(
            scenario, self.table, self.regions, self.areas, unit_indices
        )
        for u, position in zip(unit_indices, fresh_positions, strict=True):
            self.positions[u] = position

    def _ruling(self, position: UnitPosition, engaged_with: tuple[str, ...]) -> UnitRuling:
        known = self.rulings.get(position.id)
        if known is not None and known.position is position and known.engaged_with == engaged_with:
            return known
        ruling = self.rulings[position.id] = UnitRuling(position, engaged_with)
        return ruling

    def evaluation(self) -> Evaluation:
        engagements = Engagements(self.engagement_rules, self.pairs)
        objectives, self.control_cache = control_from_distances(
            self.scenario,
            self.table,
            self.objective_rules,
            self.distances,
            self.control_cache,
            self.changed_rows,
        )
        units = tuple(self._ruling(p, engagements.engaged_with(p.id)) for p in self.positions)
        notes = (self.regions.note,) if self.regions.note else ()
        return Evaluation(
            objectives,
            units,
            engagements,
            self.rules,
            self.overlaps,
            self.player_names,
            None,
            notes,
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
    if (
        len(old.units) != len(new.units)
        or old.ruleset != new.ruleset
        or old.players != new.players
        or old.battlefield != new.battlefield
        or old.options != new.options
        or old.deployment != new.deployment
        or old.terrain != new.terrain
        or old.objectives != new.objectives
    ):
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
