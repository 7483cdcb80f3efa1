"""The Scrollhammer report the panel, the overlay and the ruling share, and its ruling lines."""

from __future__ import annotations

from engine.errors import WarplanError
from engine.evaluate import Evaluation
from engine.model import Scenario
from engine.rulesets.scrollhammer import (
    ScrollhammerReport,
    scrollhammer_report,
)
from engine.rulesets.scrollhammer.night_fighting import NightFightingView

RULESET = "scrollhammer"
SECTION = "scrollhammer"
"""The key of this rule system's part of the ``game`` section."""
REPORT = "scrollhammer report"
"""The name of the report analysis in the rules pipeline."""


def analyse_report(scenario: Scenario, evaluation: Evaluation | None) -> ScrollhammerReport:
    """The pipeline's report of one scenario value, reusing its evaluation's objective control
    (the pipeline runs it for this rule system's games only)."""
    controls = evaluation.objectives if evaluation is not None else None
    return scrollhammer_report(scenario, controls)


def ruling_lines(
    scenario: Scenario,
    report: ScrollhammerReport | None,
    unit_ids: set[str],
    objective_ids: set[str],
    night: NightFightingView | None,
) -> list[str]:
    """The Scrollhammer rule behind each conclusion about the selected units and objectives."""
    if report is None:
        return []
    lines: list[str] = []
    for objective_id in sorted(objective_ids):
        try:
            holding = report.control.holding(objective_id)
        except WarplanError:
            continue
        lines.append(f"[Scrollhammer: Controlling Objectives] {holding.reason}")
        for violation in report.violations:
            if objective_id in violation.items:
                lines.append(f"[Scrollhammer: {violation.rule}] {violation.message}")
    for unit_id in sorted(unit_ids):
        for choice in report.control.units:
            if choice.unit_id == unit_id:
                lines.append(
                    f"[Scrollhammer: Controlling Objectives] {unit_id} is a scoring unit and "
                    f"controls {choice.controls or 'no objective'}"
                    + (
                        f" (could control {', '.join(choice.could_control)})"
                        if choice.has_choice
                        else ""
                    )
                )
        for violation in report.violations:
            if unit_id in violation.items:
                lines.append(f"[Scrollhammer: {violation.rule}] {violation.message}")
        if night is not None and night.shooter_id == unit_id:
            for target in night.targets:
                lines.append(f"[Scrollhammer: Night Fighting] {unit_id} shooting at {target.text}")
    return lines
