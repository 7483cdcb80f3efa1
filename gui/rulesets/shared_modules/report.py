"""The Shared Scenario Modules report the panel, the overlay and the ruling share, and its
ruling lines.
"""

from __future__ import annotations

from engine.evaluate import Evaluation
from engine.model import Scenario
from engine.rulesets.shared_modules import (
    SharedModulesReport,
    shared_modules_report,
)
from engine.rulesets.shared_modules.edits import SECTION
from engine.scenario_edits import game_section

RULESET = "shared-modules"
REPORT = "shared-modules report"
"""The name of the report analysis in the rules pipeline."""


def analyse_report(scenario: Scenario, evaluation: Evaluation | None) -> SharedModulesReport:
    """The pipeline's report of one scenario value, reusing its evaluation's objective control
    (the pipeline runs it for this rule system's games only)."""
    controls = evaluation.objectives if evaluation is not None else None
    return shared_modules_report(scenario, controls)


def ruling_lines(
    scenario: Scenario,
    report: SharedModulesReport | None,
    unit_ids: set[str],
    objective_ids: set[str],
) -> list[str]:
    """The Shared Scenario Modules rule behind each conclusion about the selection."""
    if report is None:
        return []
    lines: list[str] = []
    for objective in report.objectives:
        if objective.objective_id in objective_ids:
            shared = " (shared control)" if objective.shared else ""
            lines.append(f"[Shared Scenario Modules: Objective Control] {objective.reason}{shared}")
    for unit_id in sorted(unit_ids):
        for violation in report.violations:
            if unit_id in violation.items:
                lines.append(f"[Shared Scenario Modules: {violation.rule}] {violation.message}")
        for defense in report.defenses:
            if defense.unit_id == unit_id and defense.protected:
                lines.append(f"[Shared Scenario Modules: Reinforced Defenses] {defense.reason}")
        scouted = game_section(scenario, SECTION).get("scout_and_secure", {}).get(unit_id)
        if scouted and not scouted.get("moved"):
            lines.append(
                f"[Shared Scenario Modules: Scout And Secure] {scouted.get('lead')} cannot be "
                "chosen as the direct target of enemy attacks or effects until it moves"
            )
    if unit_ids or objective_ids:
        lines.append(f"[Shared Scenario Modules: Annihilation] {report.annihilation.reason}")
    return lines
