"""Unit coherency: whether every model of a unit stands close enough to its unit-mates.

A unit is in coherency when every one of its models is within 2" horizontally and 5"
vertically of at least one other model of its unit, or of at least two other models when the
unit has seven or more models (the core rule as issue 10 states it: none of the three rules
texts in the seeds quotes it, so the option ``coherency`` is off unless a file turns it on).
Distances are between the closest points of the bases, exact for circles and ovals, and
"within" is inclusive with the engine's tolerance. A unit of one model is always in coherency.

>>> from engine.model import CircleBase, Model, Player, Scenario, Unit
>>> at = (10.0, 13.25, 20.0)
>>> models = tuple(Model(f"m{i}", x, 10.0, CircleBase(32)) for i, x in enumerate(at))
>>> unit = Unit("squad", "red", models)
>>> result = unit_coherency(unit, "wh40k-ca2026")
>>> result.in_coherency, result.out_of_coherency
(False, ('m2',))
>>> print(result.explain().text())
squad: out of coherency (m2 not within 2" horizontally and 5" vertically of 1 other model)
  - m2 is 5.4902" from m1, 0" vertically [wh40k-ca2026: Unit Coherency]
  - m2 is 8.7402" from m0, 0" vertically [wh40k-ca2026: Unit Coherency]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from engine.errors import RulesError
from engine.explain import Explanation, Fact, Measurement, RuleRef, Violation, id_list, inches
from engine.geometry import TOLERANCE, closest_points, model_distance
from engine.model import Model, Scenario, Unit

COHERENCY_HORIZONTAL = 2.0
"""Inches: the horizontal reach of coherency (closest points of the bases)."""
COHERENCY_VERTICAL = 5.0
"""Inches: the vertical reach of coherency (difference of the models' heights ``z``)."""
LARGE_UNIT_SIZE = 7
"""Units of this many models or more need two unit-mates in reach, smaller units one."""
SECTION = "Unit Coherency"
"""The section name violations and explanations cite."""
NEIGHBOURS_SHOWN = 2
"""How many nearest unit-mates an out-of-coherency model's explanation lists."""


@dataclass(frozen=True)
class Neighbour:
    """A unit-mate of a model: its id, the horizontal distance between the closest points of
    the two bases, the vertical distance, whether it counts (within both reaches), and the
    closest points (the model's, the neighbour's) the app draws a line between."""

    model_id: str
    distance: float
    vertical: float
    counts: bool
    points: tuple[tuple[float, float], tuple[float, float]]


@dataclass(frozen=True)
class UnitCoherency:
    """One unit's coherency: each model's nearest unit-mates (nearest first) and the models
    with fewer unit-mates in reach than the rule asks (``needed``)."""

    unit_id: str
    ruleset: str
    needed: int
    neighbours: Mapping[str, tuple[Neighbour, ...]]
    out_of_coherency: tuple[str, ...]

    @property
    def in_coherency(self) -> bool:
        return not self.out_of_coherency

    @property
    def rule(self) -> RuleRef:
        return RuleRef(self.ruleset, SECTION)

    def explain(self) -> Explanation:
        """Why the unit is (or is not) in coherency: for each model out of it, its nearest
        unit-mates' distances."""
        reach = (
            f"within {inches(COHERENCY_HORIZONTAL)} horizontally and "
            f"{inches(COHERENCY_VERTICAL)} vertically of {self.needed} other "
            f"model{'s' if self.needed > 1 else ''}"
        )
        if self.in_coherency:
            return Explanation(f"{self.unit_id}: in coherency (every model {reach})", ())
        facts = []
        for model_id in self.out_of_coherency:
            for mate in self.neighbours[model_id][:NEIGHBOURS_SHOWN]:
                facts.append(
                    Fact(
                        f"{model_id} is {inches(mate.distance)} from {mate.model_id}, "
                        f"{inches(mate.vertical)} vertically",
                        self.rule,
                        {"distance": mate.distance, "vertical": mate.vertical},
                        (model_id, mate.model_id),
                        (self.unit_id,),
                        measured=Measurement(
                            f"{model_id} to {mate.model_id}",
                            mate.distance,
                            "apart",
                            COHERENCY_HORIZONTAL,
                            mate.counts,
                            inside="in reach",
                            outside="out of reach",
                            detail=f", {inches(mate.vertical)} vertically",
                        ),
                    )
                )
        return Explanation(
            f"{self.unit_id}: out of coherency ({id_list(list(self.out_of_coherency))} not "
            f"{reach})",
            tuple(facts),
        )

    def violation(self) -> Violation | None:
        """The unit's ``"Unit Coherency"`` violation (``None`` in coherency): the models out of
        it, a line from the first to its nearest unit-mate and that distance."""
        if self.in_coherency:
            return None
        first = self.out_of_coherency[0]
        nearest = self.neighbours[first][0] if self.neighbours[first] else None
        return Violation(
            SECTION,
            f"{self.unit_id}: {id_list(list(self.out_of_coherency))} not within "
            f"{inches(COHERENCY_HORIZONTAL)} of {self.needed} other model"
            f"{'s' if self.needed > 1 else ''} of the unit",
            (self.unit_id, *self.out_of_coherency),
            nearest.points if nearest is not None else (),
            nearest.distance if nearest is not None else None,
            COHERENCY_HORIZONTAL,
        )


def coherency_in_force(scenario: Scenario) -> bool:
    """Whether the file's ``options.coherency`` turns the rule on (off by default: no rules
    text of the three systems states it; ``RulesError`` for a value that is not a boolean).

    >>> from engine.model import Player, Scenario
    >>> coherency_in_force(Scenario("wh40k-ca2026", (Player("a"), Player("b"))))
    False
    """
    value = scenario.option("coherency", False)
    if not isinstance(value, bool):
        raise RulesError(f"options.coherency must be true or false, got {value!r}")
    return value


def required_neighbours(model_count: int) -> int:
    """How many unit-mates each model needs in reach (0 for a unit of one model).

    >>> required_neighbours(1), required_neighbours(6), required_neighbours(7)
    (0, 1, 2)
    """
    if model_count <= 1:
        return 0
    return 2 if model_count >= LARGE_UNIT_SIZE else 1


def unit_coherency(unit: Unit, ruleset: str = "coherency") -> UnitCoherency:
    """The coherency of ``unit`` (``ruleset``: the id explanations cite)."""
    models = unit.models
    needed = required_neighbours(len(models))
    neighbours: dict[str, tuple[Neighbour, ...]] = {}
    out: list[str] = []
    for model in models:
        mates = sorted(
            (_neighbour(model, other) for other in models if other.id != model.id),
            key=lambda n: (n.distance, n.vertical, n.model_id),
        )
        neighbours[model.id] = tuple(mates)
        if sum(1 for n in mates if n.counts) < needed:
            out.append(model.id)
    return UnitCoherency(unit.id, ruleset, needed, MappingProxyType(neighbours), tuple(out))


def _neighbour(model: Model, other: Model) -> Neighbour:
    distance = model_distance(model, other)
    vertical = abs(model.z - other.z)
    counts = distance <= COHERENCY_HORIZONTAL + TOLERANCE and (
        vertical <= COHERENCY_VERTICAL + TOLERANCE
    )
    near, far = closest_points(model, other)
    return Neighbour(other.id, distance, vertical, counts, (near, far))


def coherency(
    scenario: Scenario,
    unit_ids: Iterable[str] | None = None,
    previous: Mapping[str, UnitCoherency] | None = None,
) -> Mapping[str, UnitCoherency]:
    """Each unit's coherency by unit id (empty when the option is off); with ``previous``,
    only the units in ``unit_ids`` (the moved ones) are measured again, the others reused.

    >>> from engine.model import CircleBase, Model, Player, Scenario, Unit
    >>> models = (Model("a", 5, 5, CircleBase(32)), Model("b", 8, 5, CircleBase(32)))
    >>> pair = Unit("pair", "red", models)
    >>> s = Scenario("wh40k-ca2026", (Player("red"), Player("blue")), units=(pair,),
    ...              options={"coherency": True})
    >>> coherency(s)["pair"].in_coherency
    True
    """
    if not coherency_in_force(scenario):
        return MappingProxyType({})
    again = None if previous is None or unit_ids is None else set(unit_ids)
    found: dict[str, UnitCoherency] = {}
    for unit in scenario.units:
        kept = previous.get(unit.id) if previous is not None and again is not None else None
        if kept is not None and again is not None and unit.id not in again:
            found[unit.id] = kept
        else:
            found[unit.id] = unit_coherency(unit, scenario.ruleset)
    return MappingProxyType(found)


def coherency_violations(results: Mapping[str, UnitCoherency]) -> tuple[Violation, ...]:
    """The ``"Unit Coherency"`` violations of ``results``, by unit id."""
    return tuple(v for _, r in sorted(results.items()) if (v := r.violation()) is not None)


def report_violations(
    scenario: Scenario, results: Mapping[str, UnitCoherency] | None = None
) -> tuple[Violation, ...]:
    """The ``"Unit Coherency"`` violations a rule system's report lists: of ``results`` (an
    evaluation's, to reuse) or measured now; none while the option is off."""
    return coherency_violations(coherency(scenario) if results is None else results)
