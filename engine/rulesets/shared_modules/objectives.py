"""Objective Control (3" to hold, 2" to contest, from the marker's centre) and Reinforced
Defenses (Cover +3 within 3" of an objective).

"A player controls an objective if both of the following are true: At least one friendly model
is within 3\" of that objective. No enemy model is within 2\" of that objective." Both can be
true for both players at once (each has a model between 2" and 3" and none closer): Warplan
shows the objective as **shared**, controlled by both.

Options: ``objective_range`` (3), ``contest_range`` (2), ``defense_range`` (3).

>>> from engine.model import CircleBase, Model, Objective, Player, Scenario, Unit
>>> red = Unit("r", "red", (Model("r1", 12.8, 10.0, CircleBase(25.4)),))
>>> blue = Unit("b", "blue", (Model("b1", 7.2, 10.0, CircleBase(25.4)),))
>>> s = Scenario("shared-modules", (Player("red"), Player("blue")),
...              units=(red, blue), objectives=(Objective("o", 10.0, 10.0),))
>>> status = objective_status(s)[0]
>>> status.controlled_by, status.shared
(('red', 'blue'), True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.errors import RulesError
from engine.explain import inches
from engine.geometry import TOLERANCE, model_point_distance
from engine.model import Scenario
from engine.objectives import ObjectiveControl, objective_control
from engine.rulesets.shared_modules._data import number
from engine.rulesets.shared_modules.modules import uses_module


@dataclass(frozen=True)
class ModelReach:
    """A model's distance from an objective's centre."""

    model_id: str
    unit_id: str
    player: str
    distance: float


@dataclass(frozen=True)
class SharedObjective:
    """One objective: who holds it (3"), who contests it (2"), who controls it, and why."""

    objective_id: str
    controlled_by: tuple[str, ...]
    holding: tuple[ModelReach, ...]
    contesting: tuple[ModelReach, ...]
    reason: str

    @property
    def shared(self) -> bool:
        """Both players control it at once."""
        return len(self.controlled_by) == 2

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.objective_id,
            "controlled_by": sorted(self.controlled_by),
            "shared": self.shared,
            "in_range": sorted(r.model_id for r in self.holding),
            "contesting": sorted(r.model_id for r in self.contesting),
            "reason": self.reason,
        }


def objective_status(
    scenario: Scenario, controls: Sequence[ObjectiveControl] | None = None
) -> tuple[SharedObjective, ...]:
    """Control of every objective, measured from its centre to each model's closest point:
    :func:`engine.objectives.objective_control` (the hold-and-contest strategy) in the modules'
    words; ``controls``: the evaluation's, to reuse."""
    if controls is None:
        controls = objective_control(scenario)
    players = scenario.player_ids()
    result = []
    for control in controls:
        hold, contest = control.rules.objective_range, control.rules.contest_range
        reaches = [
            ModelReach(m.model_id, m.unit_id, m.player, m.distance) for m in control.measures
        ]
        holding = tuple(r for r, m in zip(reaches, control.measures, strict=True) if m.in_range)
        contesting = tuple(
            r for r, m in zip(reaches, control.measures, strict=True) if m.contesting
        )
        parts = []
        for player in players:
            mine = [r for r in holding if r.player == player]
            enemy = [r for r in contesting if r.player != player]
            if player in control.controlled_by:
                closest = min(mine, key=lambda r: r.distance)
                parts.append(
                    f"{player} controls it: {closest.model_id} is {inches(closest.distance)} "
                    f"(within {inches(hold)}) and no enemy model is within {inches(contest)}"
                )
            elif mine:
                closest = min(enemy, key=lambda r: r.distance)
                parts.append(
                    f"{player} is contested: enemy {closest.model_id} is "
                    f"{inches(closest.distance)} (within {inches(contest)})"
                )
            else:
                parts.append(f"{player} has no model within {inches(hold)}")
        if len(control.controlled_by) == 2:
            parts.append("shared control: both players control it")
        result.append(
            SharedObjective(
                control.id,
                control.controlled_by,
                holding,
                contesting,
                f"{control.id}: " + "; ".join(parts),
            )
        )
    return tuple(result)


# ---------------------------------------------------------------------------------------------
# Reinforced Defenses


REINFORCED = "Reinforced Defenses"


@dataclass(frozen=True)
class UnitDefense:
    """Whether a unit has Cover +3 from Reinforced Defenses, and from which objectives."""

    unit_id: str
    protected: bool
    cover: int
    objectives: tuple[str, ...]
    reason: str


def removed_target_lock_rolls(cover: int = 3) -> tuple[int, ...]:
    """ "Cover +3 removes successful Target Lock rolls of 1, 2, and 3."

    >>> removed_target_lock_rolls()
    (1, 2, 3)
    """
    if cover < 0:
        raise RulesError(f"Cover cannot be negative, got {cover}")
    return tuple(range(1, cover + 1))


def reinforced_defenses(scenario: Scenario) -> tuple[UnitDefense, ...]:
    """Each unit's Reinforced Defenses: Cover +3 when any model is within 3\" of an objective."""
    cover = int(number("reinforced-defenses", "cover"))
    reach = float(scenario.option("defense_range", number("reinforced-defenses", "range")))
    in_use = uses_module(scenario, "reinforced-defenses")
    result = []
    for unit in scenario.units:
        near: list[tuple[str, float]] = []
        for objective in scenario.objectives:
            gap = min(
                (model_point_distance(m, objective.x, objective.y) for m in unit.models),
                default=None,
            )
            if gap is not None and gap <= reach + TOLERANCE:
                near.append((objective.id, gap))
        if not in_use:
            reason = "this scenario does not use Reinforced Defenses"
        elif near:
            where = ", ".join(f"{oid} ({inches(gap)})" for oid, gap in near)
            reason = f"{unit.id} is within {inches(reach)} of {where}: Cover +{cover}"
        else:
            reason = f"{unit.id} is not within {inches(reach)} of an objective"
        protected = in_use and bool(near)
        result.append(
            UnitDefense(
                unit.id,
                protected,
                cover if protected else 0,
                tuple(oid for oid, _ in near),
                reason,
            )
        )
    return tuple(result)


@dataclass(frozen=True)
class ChargeCheck:
    allowed: bool
    reason: str


def charge_target_check(
    scenario: Scenario, target_id: str, *, uses_move_value: bool, charge_name: str = "Charge"
) -> ChargeCheck:
    """May ``target_id`` be declared the target of a Charge?

    A protected unit "may only be declared as the target of a Charge if the charging command
    or rule uses the charging unit's Move value for charge movement" (not Run, Overrun, or
    another value).
    """
    defense = next((d for d in reinforced_defenses(scenario) if d.unit_id == target_id), None)
    if defense is None:
        raise RulesError(f"no unit {target_id!r}")
    if not defense.protected:
        return ChargeCheck(True, f"{target_id} is not protected by Reinforced Defenses")
    if uses_move_value:
        return ChargeCheck(
            True, f"{charge_name} uses the charging unit's Move value: {target_id} may be targeted"
        )
    return ChargeCheck(
        False,
        f"{target_id} is protected by Reinforced Defenses: it cannot be declared as the target "
        f"of a Charge made with {charge_name}, which does not use the charging unit's Move value",
    )
