"""The deployment sequence: who sets up next, whether a placement is allowed, the recorded order.

Each rule system describes its deployment as data (:class:`DeploymentProcedure`, from
``Ruleset.deployment_procedure``): the section it is named by, its text, whether the players
take it in turns one unit at a time (Chapter Approved 2026-27 "Deploy Armies") or set up whole
armies one after the other (Scrollhammer "Deploy Forces", the Shared Scenario Modules' "Battle
Formations"), who starts, whether a TITANIC unit skips its player's next turn, and the check of
one unit as placed (the system's own deployment check, reused).

The file records the sequence in ``game.deployment`` (:class:`DeploymentRecord`): ``first``
(the player who set up first), ``reserves`` (the units declared in reserves beforehand: they
stay in the reserves tray) and ``order`` (the unit ids in the order they were set up). A file
without it means what it meant before: no sequence is checked.

>>> from engine.model import CircleBase, Model, Player, Scenario, Unit
>>> def unit(uid, player, *keywords):
...     return Unit(uid, player, (Model(uid + "-m", 0.0, 0.0, CircleBase(32)),),
...                 keywords=keywords)
>>> s = Scenario("wh40k-ca2026", (Player("red", role="attacker"), Player("blue", role="defender")),
...              deployment="dawn-of-war",
...              reserves=(unit("r1", "red"), unit("r2", "red"), unit("b1", "blue", "TITANIC"),
...                        unit("b2", "blue")))
>>> s = start_deployment(s)
>>> nxt = next_to_deploy(s)
>>> nxt.player, nxt.units
('blue', ('b1', 'b2'))
>>> s = set_up_unit(s, "b1", formation_at(s, "b1", (50.0, 40.0)))
>>> next_to_deploy(s).player
'red'
>>> s = set_up_unit(s, "r1", formation_at(s, "r1", (10.0, 10.0)))
>>> print(next_to_deploy(s).reason)
red's turn again: blue set up a TITANIC unit and skips their next turn to set up a unit
>>> check_placement(s, "b2", ((20.0, 40.0),)).reasons
("not blue's turn: red's turn again: blue set up a TITANIC unit and skips their next turn to \
set up a unit",)
>>> undo_last_step(s).game["deployment"]["order"]
('b1',)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine.army_placement import deploy_from_reserves, send_to_reserves
from engine.errors import RulesError, UnknownReferenceError
from engine.explain import Violation
from engine.model import Point, Scenario, Unit
from engine.rulesets import ruleset_for
from engine.scenario_edits import with_game_section

SECTION = "deployment"
"""The key of the sequence's record in ``game``."""
TITANIC = "TITANIC"

PlacementCheck = Callable[[Scenario, str, tuple[str, ...]], tuple[Violation, ...]]
"""A system's check of one unit as it stands in the scenario: ``(scenario, unit id, ids of the
units set up before it)`` to the violations naming that unit."""


@dataclass(frozen=True)
class DeploymentProcedure:
    """How one rule system deploys the armies.

    ``rule`` is the section violations are named by and ``text`` its wording, quoted; ``first``
    the player who sets up first unless the record says otherwise and ``first_reason`` why;
    ``first_fixed``: whether the rules fix that player (a record naming another is a
    violation); ``one_at_a_time``: players take turns one unit at a time (else each sets up
    their entire army in turn); ``titanic_skips``: a TITANIC unit skips its player's next turn;
    ``deploying``: whether the battle is still being set up (the record is checked only then);
    ``placement`` the check of one unit as placed; ``reserves_text`` the wording on reserves;
    ``choices``: what Warplan decided where the
    text is silent.
    """

    ruleset: str
    rule: str
    text: str
    first: str
    first_reason: str
    first_fixed: bool
    one_at_a_time: bool
    titanic_skips: bool
    deploying: bool
    placement: PlacementCheck
    reserves_text: str = ""
    held_back: frozenset[str] = frozenset()
    """Units the system's own state keeps off the table at deployment (Scrollhammer's
    ``game.scrollhammer.reserves``, the Shared Scenario Modules' undeployed units): treated as
    declared reserves."""
    choices: tuple[str, ...] = ()


@dataclass(frozen=True)
class DeploymentRecord:
    """``game.deployment`` as read: ``first`` (None: the procedure's), ``reserves``, ``order``."""

    first: str | None
    reserves: tuple[str, ...]
    order: tuple[str, ...]

    @classmethod
    def of(cls, scenario: Scenario) -> DeploymentRecord | None:
        """The scenario's record, None when the file has none."""
        raw: Mapping[str, Any] | None = (scenario.game or {}).get(SECTION)
        if raw is None:
            return None
        first = raw.get("first")
        return cls(
            None if first is None else str(first),
            tuple(str(u) for u in raw.get("reserves", ())),
            tuple(str(u) for u in raw.get("order", ())),
        )

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"reserves": list(self.reserves), "order": list(self.order)}
        if self.first is not None:
            data["first"] = self.first
        return data


EMPTY_RECORD = DeploymentRecord(None, (), ())


@dataclass(frozen=True)
class DeploymentStep:
    """One recorded step replayed: the unit, its player, whose turn it was and why."""

    index: int
    unit_id: str
    player: str
    turn: str | None
    reason: str
    titanic: bool


@dataclass(frozen=True)
class NextDeployment:
    """Whose turn it is to set up (``player``; None once every unit is set up), the units they
    may set up now, why, and the rule that applies."""

    player: str | None
    units: tuple[str, ...]
    reason: str
    rule: str
    rule_text: str
    steps: tuple[DeploymentStep, ...]

    @property
    def done(self) -> bool:
        return self.player is None

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "units": list(self.units),
            "reason": self.reason,
            "rule": self.rule,
            "steps": [
                {"unit": s.unit_id, "player": s.player, "turn": s.turn, "reason": s.reason}
                for s in self.steps
            ],
        }


@dataclass(frozen=True)
class PlacementVerdict:
    """Whether a unit may be set up where asked, and every reason it may not."""

    unit_id: str
    allowed: bool
    reasons: tuple[str, ...]
    rule: str
    violations: tuple[Violation, ...] = ()


def procedure(scenario: Scenario) -> DeploymentProcedure:
    """The scenario's rule system's deployment procedure."""
    return ruleset_for(scenario).deployment_procedure(scenario)


def is_titanic(unit: Unit) -> bool:
    """Whether the unit has the TITANIC keyword (on the unit or any of its models)."""
    return unit.has_keyword(TITANIC) or any(TITANIC in m.keywords for m in unit.models)


def _army(scenario: Scenario, player: str, reserves: set[str]) -> list[Unit]:
    """The player's units to set up: on the battlefield or in the tray, not declared reserves."""
    return [
        u
        for u in (*scenario.units, *scenario.reserves)
        if u.player == player and u.id not in reserves
    ]


def _all_units(scenario: Scenario) -> dict[str, Unit]:
    return {u.id: u for u in (*scenario.units, *scenario.reserves)}


def _first(scenario: Scenario, rules: DeploymentProcedure, record: DeploymentRecord) -> str:
    return record.first if record.first in scenario.player_ids() else rules.first


class _Turns:
    """Replays whose turn it is, step by step."""

    def __init__(
        self, scenario: Scenario, rules: DeploymentProcedure, record: DeploymentRecord
    ) -> None:
        # The record's first player and reserves; its order is replayed through step().
        self.scenario = scenario
        self.rules = rules
        self.turn = _first(scenario, rules, record)
        self.skips = dict.fromkeys(scenario.player_ids(), 0)
        reserves = set(record.reserves) | rules.held_back
        self.remaining = {
            p: [u.id for u in _army(scenario, p, reserves)] for p in scenario.player_ids()
        }

    def whose(self) -> tuple[str | None, str]:
        """Whose turn it is now and why (consuming skipped turns)."""
        other = self.scenario.opponent_of(self.turn)
        if not self.remaining[self.turn] and not self.remaining[other]:
            return None, "every unit is set up"
        if not self.rules.one_at_a_time:
            if self.remaining[self.turn]:
                return self.turn, self._whole_army_reason(self.turn)
            return other, f"{self.turn} has set up all their units: {other} then sets up theirs"
        skipped: list[str] = []
        while True:
            other = self.scenario.opponent_of(self.turn)
            if not self.remaining[self.turn]:
                return other, (
                    f"{self.turn} has finished setting up their units: {other} sets up the units "
                    "that have not been set up"
                )
            if self.skips[self.turn] and self.remaining[other]:
                self.skips[self.turn] -= 1
                skipped.append(self.turn)
                self.turn = other
                continue
            if skipped:
                return self.turn, self._skipped_reason(skipped)
            if not self.remaining[other]:
                return self.turn, (
                    f"{self.turn}'s turn: {other} has finished setting up their units, so "
                    f"{self.turn} sets up the rest"
                )
            return self.turn, f"{self.turn}'s turn: {self.rules.first_reason}"

    def _skipped_reason(self, skipped: list[str]) -> str:
        if len(skipped) == 1:
            return (
                f"{self.turn}'s turn again: {skipped[0]} set up a TITANIC unit and skips their "
                "next turn to set up a unit"
            )
        return (
            f"{self.turn}'s turn: {' and '.join(skipped)} each set up a TITANIC unit and skip "
            "their next turn to set up a unit"
        )

    def _whole_army_reason(self, player: str) -> str:
        return f"{player} sets up all their units first: {self.rules.first_reason}"

    def step(self, unit: Unit) -> None:
        """Record that ``unit`` was set up now."""
        for waiting in self.remaining.values():
            if unit.id in waiting:
                waiting.remove(unit.id)
        if not self.rules.one_at_a_time:
            return
        if self.rules.titanic_skips and is_titanic(unit):
            self.skips[unit.player] += 1
        self.turn = self.scenario.opponent_of(unit.player)


def _replay(
    scenario: Scenario, rules: DeploymentProcedure, record: DeploymentRecord
) -> tuple[tuple[DeploymentStep, ...], _Turns]:
    turns = _Turns(scenario, rules, record)
    units = _all_units(scenario)
    steps = []
    for index, unit_id in enumerate(record.order):
        unit = units.get(unit_id)
        if unit is None:
            continue
        player, reason = turns.whose()
        steps.append(DeploymentStep(index, unit_id, unit.player, player, reason, is_titanic(unit)))
        turns.step(unit)
    return tuple(steps), turns


def next_to_deploy(scenario: Scenario) -> NextDeployment:
    """Whose turn it is to set up a unit, which units they may set up, and why."""
    rules = procedure(scenario)
    record = DeploymentRecord.of(scenario) or EMPTY_RECORD
    steps, turns = _replay(scenario, rules, record)
    player, reason = turns.whose()
    units = tuple(turns.remaining[player]) if player is not None else ()
    return NextDeployment(player, units, reason, rules.rule, rules.text, steps)


def formation_at(scenario: Scenario, unit_id: str, centre: Point) -> tuple[Point, ...]:
    """The model positions of a unit of the tray set up in coherency about ``centre`` (as the
    reserves tray lays units out)."""
    placed = deploy_from_reserves(scenario, unit_id, centre).unit(unit_id)
    return tuple((m.x, m.y) for m in placed.models)


def _placed(scenario: Scenario, unit_id: str, positions: Sequence[Point]) -> Scenario:
    """``scenario`` with the unit (from the tray or the battlefield) at ``positions``."""
    units = _all_units(scenario)
    unit = units.get(unit_id)
    if unit is None:
        raise UnknownReferenceError(f"no unit {unit_id!r}")
    if len(positions) != len(unit.models):
        raise RulesError(
            f"{unit_id} has {len(unit.models)} models; {len(positions)} positions were given"
        )
    moved = replace(
        unit,
        models=tuple(m.placed(x, y) for m, (x, y) in zip(unit.models, positions, strict=True)),
    )
    return replace(
        scenario,
        units=(*(u for u in scenario.units if u.id != unit_id), moved),
        reserves=tuple(u for u in scenario.reserves if u.id != unit_id),
    )


def check_placement(
    scenario: Scenario, unit_id: str, positions: Sequence[Point]
) -> PlacementVerdict:
    """Whether ``unit_id`` may be set up now with its models at ``positions``: its player's
    turn, not declared in reserves, not set up already, and the rule system's own deployment
    check of the unit as placed (its zone measured exactly, the Battle Formations' spacing)."""
    rules = procedure(scenario)
    record = DeploymentRecord.of(scenario) or EMPTY_RECORD
    tentative = _placed(scenario, unit_id, positions)
    unit = tentative.unit(unit_id)
    reasons: list[str] = []
    if unit_id in record.reserves or unit_id in rules.held_back:
        reasons.append(f"{unit_id} is declared in reserves: units in reserves are not set up now")
    if unit_id in record.order:
        reasons.append(f"{unit_id} is already set up (step {record.order.index(unit_id) + 1})")
    nxt = next_to_deploy(scenario)
    if not reasons and nxt.player is not None and unit.player != nxt.player:
        reasons.append(f"not {unit.player}'s turn: {nxt.reason}")
    before = tuple(u for u in record.order if u in {v.id for v in scenario.units})
    violations = rules.placement(tentative, unit_id, before)
    reasons.extend(v.message for v in violations)
    return PlacementVerdict(unit_id, not reasons, tuple(reasons), rules.rule, violations)


def _with_record(scenario: Scenario, record: DeploymentRecord) -> Scenario:
    return with_game_section(scenario, SECTION, record.to_json())


def start_deployment(
    scenario: Scenario, reserves: Sequence[str] = (), first: str | None = None
) -> Scenario:
    """``scenario`` ready to deploy: every unit of both armies in the reserves tray (positions
    kept), ``reserves`` declared, ``first`` (default: the rule system's) to set up first and
    an empty order."""
    rules = procedure(scenario)
    known = _all_units(scenario)
    unknown = [u for u in reserves if u not in known]
    if unknown:
        raise UnknownReferenceError(f"no unit {', '.join(map(repr, unknown))}")
    if first is not None and first not in scenario.player_ids():
        raise RulesError(f"no player {first!r}")
    result = scenario
    for unit in scenario.units:
        result = send_to_reserves(result, unit.id)
    record = DeploymentRecord(first or rules.first, tuple(dict.fromkeys(reserves)), ())
    return _with_record(result, record)


def declare_reserves(scenario: Scenario, reserves: Sequence[str]) -> Scenario:
    """``scenario`` with the declared reserves replaced; only before the first unit is set up
    (the units in reserves are declared beforehand)."""
    record = DeploymentRecord.of(scenario)
    if record is None:
        raise RulesError("the deployment has not started")
    if record.order:
        raise RulesError(
            "reserves are declared before the armies are deployed: undo every step first"
        )
    known = _all_units(scenario)
    unknown = [u for u in reserves if u not in known]
    if unknown:
        raise UnknownReferenceError(f"no unit {', '.join(map(repr, unknown))}")
    return _with_record(scenario, replace(record, reserves=tuple(dict.fromkeys(reserves))))


def set_up_unit(scenario: Scenario, unit_id: str, positions: Sequence[Point]) -> Scenario:
    """``scenario`` with ``unit_id`` set up at ``positions`` as the next step of the order;
    ``RulesError`` with every reason when :func:`check_placement` refuses it."""
    verdict = check_placement(scenario, unit_id, positions)
    if not verdict.allowed:
        raise RulesError("; ".join(verdict.reasons))
    record = DeploymentRecord.of(scenario) or DeploymentRecord(procedure(scenario).first, (), ())
    placed = _placed(scenario, unit_id, positions)
    return _with_record(placed, replace(record, order=(*record.order, unit_id)))


def deploy_from_tray(scenario: Scenario, unit_id: str, centre: Point) -> Scenario:
    """``scenario`` with ``unit_id`` taken off the reserves tray and set up in coherency about
    ``centre``. While a recorded deployment is under way that is its next step, refused
    (``RulesError`` with every reason) as :func:`set_up_unit` refuses it; before a deployment
    starts, or once every unit is set up (a unit arriving from reserves), the tray simply
    places it.

    >>> from engine.model import CircleBase, Model, Player
    >>> s = start_deployment(Scenario("wh40k-ca2026", (Player("red", role="attacker"),
    ...     Player("blue", role="defender")), deployment="dawn-of-war",
    ...     reserves=(Unit("r1", "red", (Model("r1-m", 0, 0, CircleBase(32)),)),
    ...               Unit("b1", "blue", (Model("b1-m", 0, 0, CircleBase(32)),)))))
    >>> deploy_from_tray(s, "r1", (30.0, 6.0))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    engine.errors.RulesError: not red's turn: blue's turn: ... starting with the Defender (blue)
    >>> DeploymentRecord.of(deploy_from_tray(s, "b1", (30.0, 38.0))).order
    ('b1',)
    """
    if DeploymentRecord.of(scenario) is None or next_to_deploy(scenario).done:
        return deploy_from_reserves(scenario, unit_id, centre)
    return set_up_unit(scenario, unit_id, formation_at(scenario, unit_id, centre))


def undo_last_step(scenario: Scenario) -> Scenario:
    """``scenario`` with the last unit set up back in the reserves tray and off the order."""
    record = DeploymentRecord.of(scenario)
    if record is None or not record.order:
        raise RulesError("no unit has been set up yet")
    unit_id = record.order[-1]
    result = scenario
    if unit_id in {u.id for u in scenario.units}:
        result = send_to_reserves(result, unit_id)
    return _with_record(result, replace(record, order=record.order[:-1]))


def order_violations(scenario: Scenario, rules: DeploymentProcedure) -> tuple[Violation, ...]:
    """What the recorded order breaks, named by ``rules.rule``: who started, units set up out
    of turn, declared reserves set up, units recorded as set up but in the tray, and units on
    the battlefield missing from the order. The units' places are the system's own checks."""
    record = DeploymentRecord.of(scenario)
    if record is None or not rules.deploying:
        return ()
    found: list[Violation] = []
    rule = rules.rule
    if rules.first_fixed and record.first is not None and record.first != rules.first:
        found.append(
            Violation(
                rule,
                f"{record.first} is recorded as setting up first; {rules.first} does "
                f"({rules.first_reason})",
                (record.first, rules.first),
            )
        )
    on_table = {u.id for u in scenario.units}
    declared = set(record.reserves) | rules.held_back
    steps, _ = _replay(scenario, rules, record)
    for step in steps:
        if step.unit_id in declared:
            found.append(
                Violation(
                    rule,
                    f"{step.unit_id} is declared in reserves but set up at step {step.index + 1}",
                    (step.unit_id,),
                )
            )
        elif step.turn is not None and step.player != step.turn:
            found.append(
                Violation(
                    rule,
                    f"{step.unit_id} ({step.player}) was set up at step {step.index + 1} out of "
                    f"turn: {step.reason}",
                    (step.unit_id,),
                )
            )
        if step.unit_id not in on_table:
            found.append(
                Violation(
                    rule,
                    f"{step.unit_id} is recorded as set up (step {step.index + 1}) but is in the "
                    "reserves tray",
                    (step.unit_id,),
                )
            )
    recorded = set(record.order)
    for unit in scenario.units:
        if unit.id in recorded:
            continue
        what = "declared in reserves" if unit.id in declared else "not in the recorded order"
        found.append(Violation(rule, f"{unit.id} is on the battlefield but {what}", (unit.id,)))
    return tuple(found)
