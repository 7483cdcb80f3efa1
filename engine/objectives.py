"""Objective control: one algorithm, parametrised by each rule system's control strategy.

A model is in range of a marker objective within the objective range horizontally (from the
marker's centre, or from its closest point with measure ``"edge"``) and, where the rules say, a
vertical range; of a terrain objective (where the rule system has them) while any part of its
base is over that terrain area, at any height. Then the rule system's strategy decides:

- ``summed-oc`` (Chapter Approved): the player with the greater summed OC in range controls
  it; equal sums: nobody. A battle-shocked unit's models count OC 0.
- ``hold-and-contest`` (Shared Scenario Modules): a player controls it with a friendly model in
  range and no enemy model within the contest range (so both players can control it at once).
- ``scoring-and-denial`` (Scrollhammer): models of scoring units in range and no models of
  enemy denial units within the contest range; a unit controls at most one objective, so each
  player's units are assigned to objectives by one maximum bipartite matching (declared
  choices first; the rest so the player holds as many as possible; ties by document order).

The values come from the rule system's :class:`engine.rulesets.base.Ruleset`; options
``objective_range``, ``contest_range``, ``objective_measure`` (``"edge"`` or ``"centre"``) and
``vertical_range`` override them.

>>> from engine.model import CircleBase, Model, Objective, Player, Scenario, Unit
>>> red = Unit("red-u", "red", (Model("red-m", 30.0, 19.0, CircleBase(32)),), oc=2)
>>> s = Scenario("wh40k-ca2026", (Player("red"), Player("blue")), units=(red,),
...              objectives=(Objective("obj", 30.0, 22.0),))
>>> control = objective_control(s)[0]
>>> control.controlled_by, dict(control.level), dict(control.in_range)
(('red',), {'red': 2, 'blue': 0}, {'red': ('red-m',), 'blue': ()})
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from types import MappingProxyType
from typing import Any, Literal

import numpy as np

from engine.errors import RulesError, UnknownReferenceError
from engine.explain import Explanation, Fact, Measurement, RuleRef, id_list, inches
from engine.geometry import (
    TOLERANCE,
    BoolArray,
    FloatArray,
    IntArray,
    ModelTable,
    PreparedArea,
    model_table,
    overlaps_many,
    points_distances,
    terrain_area,
)
from engine.model import Objective, Scenario
from engine.rulesets import ruleset_for

NEAR_MARGIN = 1.0
"""Models this much beyond a range are reported as "just out" in explanations (inches)."""

Verdict = Literal["controlled", "shared", "contested", "uncontrolled"]
ControlStrategy = Literal["summed-oc", "hold-and-contest", "scoring-and-denial"]
Measure = Literal["edge", "centre"]


@dataclass(frozen=True)
class ObjectiveDefaults:
    """A rule system's objective-control values before options: what a ruleset declares."""

    ruleset: str
    section: str
    strategy: ControlStrategy
    objective_range: float
    measure: Measure
    contest_range: float | None = None
    """``None``: contested at the objective range itself."""
    vertical_range: float | None = None
    terrain_objectives: bool = False


@dataclass(frozen=True)
class ObjectiveRules:
    """The objective-control parameters in force for a scenario."""

    ruleset: str
    objective_range: float
    contest_range: float
    measure: str
    vertical_range: float | None
    strategy: ControlStrategy = "summed-oc"
    section: str = "Objective control"
    terrain_objectives: bool = False
    declared: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    """Scoring and denial: the objective each unit is declared to control (unit id to id)."""

    @property
    def rule(self) -> RuleRef:
        return RuleRef(self.ruleset, self.section)

    @property
    def separate_contest_range(self) -> float | None:
        """The range enemy models contest (or deny) from, where it is not the objective range
        itself: always under hold-and-contest; under scoring-and-denial only when set apart
        (``options.contest_range``); never under summed OC (OC in range decides)."""
        if self.strategy == "hold-and-contest":
            return self.contest_range
        if self.strategy == "scoring-and-denial" and self.contest_range != self.objective_range:
            return self.contest_range
        return None


def objective_rules(scenario: Scenario) -> ObjectiveRules:
    """The rule system's values, overridden by the scenario's options.

    >>> from engine.model import Player, Scenario
    >>> rules = objective_rules(Scenario("shared-modules", (Player("a"), Player("b"))))
    >>> rules.objective_range, rules.contest_range, rules.measure, rules.strategy
    (3.0, 2.0, 'centre', 'hold-and-contest')
    """
    return ruleset_for(scenario).objective_rules(scenario)


def rules_with_options(scenario: Scenario, defaults: ObjectiveDefaults) -> ObjectiveRules:
    """A rule system's :class:`ObjectiveDefaults` overridden by the scenario's options
    (``RulesError`` for a bad value)."""
    objective_range = _number(scenario, "objective_range", defaults.objective_range)
    contest_default = (
        objective_range if defaults.contest_range is None else defaults.contest_range
    )
    measure = scenario.option("objective_measure", defaults.measure)
    if measure not in ("edge", "centre"):
        raise RulesError(f'options.objective_measure must be "edge" or "centre", got {measure!r}')
    vertical = scenario.option("vertical_range", defaults.vertical_range)
    if vertical is not None:
        vertical = _number(scenario, "vertical_range", float(vertical))
    return ObjectiveRules(
        defaults.ruleset,
        objective_range,
        _number(scenario, "contest_range", contest_default),
        str(measure),
        vertical,
        defaults.strategy,
        defaults.section,
        defaults.terrain_objectives,
    )


def _number(scenario: Scenario, key: str, default: float) -> float:
    value = scenario.option(key, default)
    if isinstance(value, bool) or not isinstance(value, int | float) or not value >= 0:
        raise RulesError(f"options.{key} must be a non-negative number, got {value!r}")
    return float(value)


@dataclass(frozen=True)
class ModelMeasure:
    """One model measured against one objective."""

    model_id: str
    unit_id: str
    player: str
    distance: float
    vertical: float
    in_range: bool
    contesting: bool
    oc: int


@dataclass(frozen=True)
class ObjectiveControl:
    """Who controls one objective, who is in range, and why.

    ``level`` is the summed OC in range (``wh40k-ca2026``) or the number of models in range;
    ``distances`` maps each model in range or just out of it to its horizontal distance;
    ``holders`` (Scrollhammer) names the unit each controlling player holds it with.
    """

    id: str
    rules: ObjectiveRules
    players: tuple[str, str]
    controlled_by: tuple[str, ...]
    level: Mapping[str, int]
    in_range: Mapping[str, tuple[str, ...]]
    contesting: Mapping[str, tuple[str, ...]]
    distances: Mapping[str, float]
    measures: tuple[ModelMeasure, ...]
    terrain: str | None = None
    holders: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    candidates: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: MappingProxyType({}))

    @property
    def verdict(self) -> Verdict:
        """``"controlled"`` (one player), ``"shared"`` (both at once), ``"contested"`` (nobody,
        though both players count something in range) or ``"uncontrolled"``."""
        if len(self.controlled_by) == 1:
            return "controlled"
        if self.controlled_by:
            return "shared"
        if all(self.level[p] for p in self.players):
            return "contested"
        return "uncontrolled"

    @property
    def contested(self) -> bool:
        return self.verdict == "contested"

    def verdict_text(self, names: Mapping[str, str] | None = None) -> str:
        """The verdict in words: ``"red controls"``, ``"shared"``, ``"contested"``, ``"nobody"``;
        players by ``names`` (id to display name, the id where missing)."""
        verdict = self.verdict
        if verdict == "controlled":
            return f"{_name(names, self.controlled_by[0])} controls"
        return "nobody" if verdict == "uncontrolled" else verdict

    def caption(self, names: Mapping[str, str] | None = None) -> str:
        """The objective, the levels in range and the verdict, on two lines.

        >>> from engine.model import CircleBase, Model, Objective, Player, Scenario, Unit
        >>> red = Unit("r", "red", (Model("r1", 30.0, 20.0, CircleBase(32)),), oc=2)
        >>> s = Scenario("wh40k-ca2026", (Player("red", "Red"), Player("blue")), units=(red,),
        ...              objectives=(Objective("obj", 30.0, 22.0),))
        >>> print(objective_control(s)[0].caption({"red": "Red"}))
        obj
        Red 2 : blue 0 - Red controls
        """
        first, second = self.players
        levels = (
            f"{_name(names, first)} {self.level[first]:g} : "
            f"{_name(names, second)} {self.level[second]:g}"
        )
        return f"{self.id}\n{levels} - {self.verdict_text(names)}"

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": self.id,
            "controlled_by": sorted(self.controlled_by),
            "level": {p: self.level[p] for p in self.players},
            "in_range": {p: sorted(self.in_range[p]) for p in self.players},
        }
        if self.rules.strategy == "scoring-and-denial":
            data["holders"] = {p: self.holders[p] for p in sorted(self.holders)}
        return data

    @cached_property
    def explanation(self) -> Explanation:
        return _explain(self)


def _name(names: Mapping[str, str] | None, player: str) -> str:
    return names.get(player, player) if names is not None else player


def objective_control(
    scenario: Scenario, declared: Mapping[str, str] | None = None
) -> tuple[ObjectiveControl, ...]:
    """Control of every objective of ``scenario``, in document order; ``declared`` (scoring
    and denial) replaces the file's declared choices of which unit controls which objective."""
    table = model_table(scenario)
    rules = objective_rules(scenario)
    if declared is not None:
        rules = replace(rules, declared=MappingProxyType(dict(declared)))
    return control_from_distances(
        scenario, table, rules, objective_distances(scenario, table, rules)
    )[0]


def objective_distances(
    scenario: Scenario, table: ModelTable, rules: ObjectiveRules, rows: Sequence[int] | None = None
) -> FloatArray:
    """Horizontal distance from each objective (row) to each model (column), as the ruleset
    measures it (exact up to the largest range plus :data:`NEAR_MARGIN`, a lower bound beyond);
    for a ``wh40k-ca2026`` terrain objective 0 over its area, ``inf`` elsewhere.

    With ``rows``, only those models' columns (in that order).
    """
    shapes = table.shapes
    if rows is not None:
        shapes = shapes.take(rows)
    objectives = scenario.objectives
    reach = max(rules.objective_range, rules.contest_range) + NEAR_MARGIN + TOLERANCE
    marker = np.array(
        [o.radius if rules.measure == "edge" else 0.0 for o in objectives], dtype=np.float64
    )
    result = points_distances(
        shapes,
        np.array([o.x for o in objectives], dtype=np.float64),
        np.array([o.y for o in objectives], dtype=np.float64),
        reach + marker,
    ).reshape(len(objectives), len(shapes.x))
    result = np.maximum(result - marker[:, None], 0.0)
    for k, objective in enumerate(objectives):
        if objective.terrain is not None and rules.terrain_objectives:
            area = _terrain_area(scenario, objective)
            result[k] = np.where(overlaps_many(shapes, area), 0.0, math.inf)
    return result


def _terrain_area(scenario: Scenario, objective: Objective) -> PreparedArea:
    assert objective.terrain is not None
    try:
        piece = scenario.terrain_piece(objective.terrain)
    except KeyError:
        raise UnknownReferenceError(
            f"objective {objective.id} names terrain {objective.terrain!r}, which does not exist"
        ) from None
    return terrain_area(piece)


def control_from_distances(
    scenario: Scenario,
    table: ModelTable,
    rules: ObjectiveRules,
    distances: FloatArray,
    previous: ControlCache | None = None,
    changed_rows: IntArray | None = None,
) -> tuple[tuple[ObjectiveControl, ...], ControlCache]:
    """Objective control from the distance matrix of :func:`objective_distances`.

    With the ``previous`` cache and the rows that changed since, objectives none of those rows
    is near (before or after) keep their previous result, and the others keep the measures of
    the rows that did not change (their models and distances are the same).
    """
    players = scenario.player_ids()
    reach = max(rules.objective_range, rules.contest_range) + NEAR_MARGIN + TOLERANCE
    per_objective: list[list[ModelMeasure]] = []
    fresh: list[bool] = []
    touched: list[bool] = [True] * len(scenario.objectives)
    changed: set[int] = set()
    if previous is not None and changed_rows is not None:
        near_rows: BoolArray = (previous.distances[:, changed_rows] <= reach) | (
            distances[:, changed_rows] <= reach
        )
        touched = [bool(t) for t in np.any(near_rows, axis=1).tolist()]
        changed = set(changed_rows.tolist())
    ids = table.model_ids
    for k, objective in enumerate(scenario.objectives):
        if not touched[k]:
            assert previous is not None
            per_objective.append(previous.measures[k])
            fresh.append(False)
            continue
        kept = (
            {m.model_id: m for m in previous.measures[k]}
            if previous is not None and changed_rows is not None
            else {}
        )
        near = np.flatnonzero(distances[k] <= reach).tolist()
        per_objective.append(
            [
                kept[ids[i]]
                if i not in changed and ids[i] in kept
                else _measure(scenario, table, rules, objective, i, float(distances[k, i]))
                for i in near
            ]
        )
        fresh.append(True)
    if previous is not None and not any(fresh):
        return previous.controls, ControlCache(distances, per_objective, previous.controls)
    holders = (
        _matched_holders(scenario, rules, per_objective)
        if rules.strategy == "scoring-and-denial"
        else None
    )
    controls = tuple(
        _control(scenario, rules, players, objective, measures, holders, k)
        if previous is None or fresh[k] or holders is not None
        else previous.controls[k]
        for k, (objective, measures) in enumerate(
            zip(scenario.objectives, per_objective, strict=True)
        )
    )
    return controls, ControlCache(distances, per_objective, controls)


@dataclass(frozen=True, eq=False)
class ControlCache:
    """What :func:`control_from_distances` computed, to be reused after a small change."""

    distances: FloatArray
    measures: list[list[ModelMeasure]]
    controls: tuple[ObjectiveControl, ...]


def _measure(
    scenario: Scenario,
    table: ModelTable,
    rules: ObjectiveRules,
    objective: Objective,
    row: int,
    distance: float,
) -> ModelMeasure:
    unit_index = int(table.unit_of_row[row])
    unit = scenario.units[unit_index]
    model = unit.models[row - table.unit_rows[unit_index].start]
    vertical = abs(model.z - objective.z)
    # A terrain objective is held from anywhere in its area, at any height.
    terrain_objective = objective.terrain is not None and rules.terrain_objectives
    level_ok = (
        terrain_objective
        or rules.vertical_range is None
        or vertical <= rules.vertical_range + TOLERANCE
    )
    in_range = level_ok and distance <= rules.objective_range + TOLERANCE
    if rules.strategy == "hold-and-contest":
        contesting = level_ok and distance <= rules.contest_range + TOLERANCE
    elif rules.strategy == "scoring-and-denial":
        contesting = level_ok and distance <= rules.contest_range + TOLERANCE and unit.is_denial()
    else:
        contesting = in_range
    return ModelMeasure(
        model.id,
        unit.id,
        unit.player,
        distance,
        vertical,
        in_range,
        contesting,
        unit.model_oc(model),
    )


def _control(
    scenario: Scenario,
    rules: ObjectiveRules,
    players: tuple[str, str],
    objective: Objective,
    measures: list[ModelMeasure],
    holders: list[dict[str, str]] | None,
    k: int,
) -> ObjectiveControl:
    in_range = {
        p: tuple(sorted(m.model_id for m in measures if m.in_range and m.player == p))
        for p in players
    }
    contesting = {
        p: tuple(sorted(m.model_id for m in measures if m.contesting and m.player == p))
        for p in players
    }
    held: dict[str, str] = {}
    candidates: dict[str, tuple[str, ...]] = {}
    if rules.strategy == "summed-oc":
        level = {p: sum(m.oc for m in measures if m.in_range and m.player == p) for p in players}
        first, second = players
        if level[first] > level[second]:
            controlled: tuple[str, ...] = (first,)
        elif level[second] > level[first]:
            controlled = (second,)
        else:
            controlled = ()
    elif rules.strategy == "hold-and-contest":
        level = {p: len(in_range[p]) for p in players}
        controlled = tuple(
            p for p in players if in_range[p] and not contesting[scenario.opponent_of(p)]
        )
    else:
        assert holders is not None
        level = {p: len(in_range[p]) for p in players}
        held = {
            p: holders[i][objective.id] for i, p in enumerate(players) if objective.id in holders[i]
        }
        controlled = tuple(p for p in players if p in held)
        candidates = {p: _scoring_units(scenario, measures, p) for p in players}
    distances = {m.model_id: m.distance for m in measures}
    return ObjectiveControl(
        objective.id,
        rules,
        players,
        controlled,
        MappingProxyType(level),
        MappingProxyType(in_range),
        MappingProxyType(contesting),
        MappingProxyType(distances),
        tuple(measures),
        objective.terrain if rules.terrain_objectives else None,
        MappingProxyType(held),
        MappingProxyType(candidates),
    )


def _scoring_units(
    scenario: Scenario, measures: list[ModelMeasure], player: str
) -> tuple[str, ...]:
    return tuple(
        sorted(
            {
                m.unit_id
                for m in measures
                if m.in_range and m.player == player and scenario.unit(m.unit_id).is_scoring()
            }
        )
    )


def _matched_holders(
    scenario: Scenario, rules: ObjectiveRules, per_objective: list[list[ModelMeasure]]
) -> list[dict[str, str]]:
    """Per player (in ``players`` order): objective id -> the unit holding it. Each declared
    choice a unit can make stands; the player's other scoring units are matched to the other
    objectives no enemy denial unit denies, by :func:`maximum_matching`."""
    result: list[dict[str, str]] = []
    objectives = scenario.objectives
    for player in scenario.player_ids():
        edges: list[list[str]] = []
        for measures in per_objective:
            denied = any(m.contesting and m.player != player for m in measures)
            edges.append([] if denied else list(_scoring_units(scenario, measures, player)))
        held: dict[str, str] = {}
        for unit_id, objective_id in sorted(rules.declared.items()):
            k = next((k for k, o in enumerate(objectives) if o.id == objective_id), None)
            if k is not None and unit_id in edges[k] and objective_id not in held:
                held[objective_id] = unit_id
        fixed_units = set(held.values())
        free = [
            [] if objectives[k].id in held else [u for u in units if u not in fixed_units]
            for k, units in enumerate(edges)
        ]
        held.update({objectives[k].id: unit for k, unit in maximum_matching(free).items()})
        result.append(held)
    return result


def maximum_matching(edges: Sequence[Sequence[str]]) -> dict[int, str]:
    """A maximum matching of left vertices ``0..n-1`` to right vertices (unit ids), where
    ``edges[k]`` lists the right vertices left vertex ``k`` may take (Kuhn's augmenting paths;
    deterministic: earlier left vertices and earlier-listed right vertices are tried first).

    >>> maximum_matching([["u1", "u2"], ["u1"]])
    {0: 'u2', 1: 'u1'}
    >>> maximum_matching([["u1"], ["u1"], []])
    {0: 'u1'}
    """
    owner: dict[str, int] = {}

    def augment(k: int, seen: set[str]) -> bool:
        for unit in edges[k]:
            if unit in seen:
                continue
            seen.add(unit)
            if unit not in owner or augment(owner[unit], seen):
                owner[unit] = k
                return True
        return False

    for k in range(len(edges)):
        augment(k, set())
    return dict(sorted((k, unit) for unit, k in owner.items()))


# ---------------------------------------------------------------------------------------------
# Explanations


def _explain(control: ObjectiveControl) -> Explanation:
    rules = control.rules
    rule = rules.rule
    who = id_list(list(control.controlled_by)) if control.controlled_by else "nobody"
    conclusion = f"{control.id}: controlled by {who}"
    facts: list[Fact] = []
    if control.terrain is not None:
        place = f"{control.id} (a terrain objective: within terrain area {control.terrain})"
    elif rules.measure == "edge":
        place = f"{control.id}'s marker"
    else:
        place = f"the centre of {control.id}"
    for m in sorted(control.measures, key=lambda m: (m.distance, m.model_id)):
        facts.append(_measure_fact(control, m, place, rule))
    first, second = control.players
    about = (control.id,)
    if rules.strategy == "summed-oc":
        a, b = control.level[first], control.level[second]
        verdict = "greater" if a != b else "equal: nobody controls it"
        facts.append(
            Fact(
                f"OC in range: {first} {a}, {second} {b} ({verdict})",
                rule,
                {first: a, second: b},
                tuple(sorted(m for p in control.players for m in control.in_range[p])),
                objective_ids=about,
            )
        )
    elif rules.strategy == "hold-and-contest":
        for p in control.players:
            enemy = second if p == first else first
            facts.append(
                Fact(
                    f"{p}: {len(control.in_range[p])} model(s) within "
                    f"{inches(rules.objective_range)}"
                    f", enemy models within {inches(rules.contest_range)}: "
                    f"{id_list(list(control.contesting[enemy]))}",
                    rule,
                    {
                        "holding": len(control.in_range[p]),
                        "contesting": len(control.contesting[enemy]),
                    },
                    (*control.in_range[p], *control.contesting[enemy]),
                    objective_ids=about,
                )
            )
    else:
        for p in control.players:
            enemy = second if p == first else first
            denied = control.contesting[enemy]
            holder = control.holders.get(p)
            if holder is not None:
                text = f"{p} holds it with scoring unit {holder} (each unit holds one objective)"
            elif denied:
                text = f"{p} is denied by enemy denial models {id_list(list(denied))}"
            elif control.candidates.get(p):
                text = (
                    f"{p}'s scoring units {id_list(list(control.candidates[p]))} in range "
                    "hold other objectives"
                )
            else:
                text = f"{p} has no scoring unit in range"
            facts.append(
                Fact(
                    text,
                    rule,
                    {"holder": holder},
                    denied if holder is None else (),
                    (holder,) if holder is not None else control.candidates.get(p, ()),
                    about,
                )
            )
    return Explanation(conclusion, tuple(facts))


def _measure_fact(control: ObjectiveControl, m: ModelMeasure, place: str, rule: RuleRef) -> Fact:
    rules = control.rules
    values: dict[str, Any] = {"distance": m.distance, "vertical": m.vertical, "oc": m.oc}
    models, units, objectives = (m.model_id,), (m.unit_id,), (control.id,)
    if control.terrain is not None:
        return Fact(
            f"{m.model_id} ({m.player}, OC {m.oc}) is within {place}",
            rule,
            values,
            models,
            units,
            objectives,
        )
    limit = rules.objective_range
    state = "within" if m.distance <= limit + TOLERANCE else "just out of"
    text = f"{m.model_id} is {inches(m.distance)} from {place} ({state} {inches(limit)})"
    detail = ""
    if rules.vertical_range is not None and m.vertical > rules.vertical_range + TOLERANCE:
        beyond = f"{inches(m.vertical)} away vertically (beyond {inches(rules.vertical_range)})"
        text += f", but {beyond}"
        detail += f", but {beyond}"
    if rules.strategy == "summed-oc" and m.in_range:
        text += f", OC {m.oc}"
        detail += f", OC {m.oc}"
    if rules.strategy == "hold-and-contest" and m.contesting:
        text += f", contesting (within {inches(rules.contest_range)})"
        detail += f", contesting (within {inches(rules.contest_range)})"
    reference = "from the marker's rim" if rules.measure == "edge" else "from the marker's centre"
    measured = Measurement(
        m.model_id, m.distance, reference, limit, m.distance <= limit + TOLERANCE, detail=detail
    )
    if not m.in_range and measured.within:
        measured = replace(measured, inside="out of range (vertically)")
    return Fact(text, rule, values, models, units, objectives, measured)
