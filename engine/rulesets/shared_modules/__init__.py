"""Shared Scenario Modules (``ruleset: "shared-modules"``): the engine side.

From the Shared Scenario Modules document (seed ``000``). Pure functions over the frozen
:class:`engine.model.Scenario`; every check returns
:class:`engine.explain.Violation` values naming the items and the rule.

- :mod:`.modules`: which modules a scenario uses (``options.modules``).
- :mod:`.ledgers`: Threat Points and Command Points as separate ledgers; All-Out War refunds
  (cost - 1, minimum 0, per destroyed unit, at the end of each turn).
- :mod:`.formations`: Battle Formations as a live deployment check (12" from the table edge,
  2" coherency, units 2" apart, who deploys first); Scout And Secure (Threat Point cost, the lead
  model on the table edge, targeting protection, the rest within 2").
- :mod:`.objectives`: Objective Control (3" hold, 2" contest, from the marker's centre,
  inclusive, shared control shown as such); Reinforced Defenses (Cover +3 within 3", removed
  Target Lock rolls, which charges may target a protected unit).
- :mod:`.victory`: Annihilation's immediate win.
- :mod:`.state`: ``game.shared_modules`` (validation check, ledgers).
- :mod:`.report`: ``shared_modules_report(scenario)`` runs everything at once for the panels.
- :mod:`.options`: the option keys with value checks (``OPTION_CHECKS``).

Options: ``modules``, ``table_edges``, ``deploys_first``, ``formation_edge_depth``,
``formation_coherency``, ``formation_unit_spacing``, ``formation_edge_measure``,
``scout_follow_distance``, ``objective_range``, ``contest_range``, ``defense_range``,
``annihilation_counts_undeployed``. Unit costs: ``unit.extra.cost``.
"""

from engine.rulesets.shared_modules.formations import (
    FormationCheck,
    TargetingCheck,
    battle_formations,
    deployment_order,
    follower_violations,
    lead_model_violations,
    player_edge,
    scout_and_secure,
    targeting_check,
)
from engine.rulesets.shared_modules.ledgers import (
    LedgerEntry,
    PlayerLedgers,
    PointsLedger,
    Refund,
    all_out_war_refund,
    all_out_war_refunds,
    apply_refunds,
    unit_cost,
)
from engine.rulesets.shared_modules.modules import modules_in_use, uses_module
from engine.rulesets.shared_modules.objectives import (
    SharedObjective,
    UnitDefense,
    charge_target_check,
    objective_status,
    reinforced_defenses,
    removed_target_lock_rolls,
)
from engine.rulesets.shared_modules.options import OPTION_CHECKS
from engine.rulesets.shared_modules.report import SharedModulesReport, shared_modules_report
from engine.rulesets.shared_modules.state import GAME_SECTION_CHECK, ledgers_from_scenario
from engine.rulesets.shared_modules.victory import AnnihilationResult, annihilation

__all__ = [
    "GAME_SECTION_CHECK",
    "OPTION_CHECKS",
    "AnnihilationResult",
    "FormationCheck",
    "LedgerEntry",
    "PlayerLedgers",
    "PointsLedger",
    "Refund",
    "SharedModulesReport",
    "SharedObjective",
    "TargetingCheck",
    "UnitDefense",
    "all_out_war_refund",
    "all_out_war_refunds",
    "annihilation",
    "apply_refunds",
    "battle_formations",
    "charge_target_check",
    "deployment_order",
    "follower_violations",
    "lead_model_violations",
    "ledgers_from_scenario",
    "modules_in_use",
    "objective_status",
    "player_edge",
    "reinforced_defenses",
    "removed_target_lock_rolls",
    "scout_and_secure",
    "shared_modules_report",
    "targeting_check",
    "unit_cost",
    "uses_module",
]
