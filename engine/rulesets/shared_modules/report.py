"""Everything the Shared Scenario Modules panels show, in one call.

Before the battle (``game.shared_modules.turn`` absent) the Battle Formations check runs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.explain import Violation
from engine.model import Scenario
from engine.objectives import ObjectiveControl
from engine.rulesets.shared_modules.formations import FormationCheck, battle_formations
from engine.rulesets.shared_modules.ledgers import PlayerLedgers
from engine.rulesets.shared_modules.modules import modules_in_use, uses_module
from engine.rulesets.shared_modules.objectives import (
    SharedObjective,
    UnitDefense,
    objective_status,
    reinforced_defenses,
)
from engine.rulesets.shared_modules.state import ledgers_from_scenario
from engine.rulesets.shared_modules.victory import AnnihilationResult, annihilation


@dataclass(frozen=True)
class SharedModulesReport:
    """The state of a Shared Scenario Modules battlefield as the rules see it."""

    modules: tuple[str, ...]
    formations: FormationCheck | None
    objectives: tuple[SharedObjective, ...]
    defenses: tuple[UnitDefense, ...]
    annihilation: AnnihilationResult
    ledgers: dict[str, PlayerLedgers]

    @property
    def violations(self) -> tuple[Violation, ...]:
        return self.formations.violations if self.formations else ()

    def to_json(self) -> dict[str, Any]:
        return {
            "modules": list(self.modules),
            "formations": self.formations.to_json() if self.formations else None,
            "objectives": [o.to_json() for o in self.objectives],
            "defenses": [
                {"id": d.unit_id, "cover": d.cover, "objectives": list(d.objectives)}
                for d in self.defenses
                if d.protected
            ],
            "annihilation": self.annihilation.to_json(),
            "ledgers": {
                p: {"threat": books.threat.balance, "command": books.command.balance}
                for p, books in sorted(self.ledgers.items())
            },
        }


def shared_modules_report(
    scenario: Scenario, controls: Sequence[ObjectiveControl] | None = None
) -> SharedModulesReport:
    """All the Shared Scenario Modules checks and conclusions for ``scenario``; ``controls``:
    the evaluation's objective control, to reuse."""
    state = (scenario.game or {}).get("shared_modules") or {}
    deploying = state.get("turn") is None and uses_module(scenario, "battle-formations")
    return SharedModulesReport(
        modules=modules_in_use(scenario),
        formations=battle_formations(scenario) if deploying else None,
        objectives=objective_status(scenario, controls),
        defenses=reinforced_defenses(scenario),
        annihilation=annihilation(scenario),
        ledgers=ledgers_from_scenario(scenario),
    )
