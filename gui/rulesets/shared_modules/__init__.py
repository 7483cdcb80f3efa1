"""The Shared Scenario Modules' app part (``ruleset: "shared-modules"``): the Shared Scenario
Modules dock (:mod:`.panel`), its edits (:mod:`.edits`), its board overlay (:mod:`.overlay`),
its ruling lines (:mod:`.report`), what the shared Mission dock and score chart say
(:mod:`.mission`) and its New game page (:mod:`.new_game`).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.model import Scenario
from engine.rulesets.shared_modules import SharedModulesReport
from gui.edits import Selection
from gui.plugin_api import AppHost, DockPlace, NewGamePageSpec, RulesetUI
from gui.rulesets.common import RulesetContext
from gui.rulesets.shared_modules.mission import chart_caption, mission_summary
from gui.rulesets.shared_modules.new_game import TITLE, SharedModulesNewGamePage
from gui.rulesets.shared_modules.overlay import SharedModulesOverlay
from gui.rulesets.shared_modules.panel import SharedModulesPanel
from gui.rulesets.shared_modules.report import compute_report, ruling_lines

RULESET = "shared-modules"
DOCK_NAME = "SharedModulesDock"


@dataclass
class SharedModulesApp:
    """The installed dock and overlay, and the one report per scenario value they share."""

    host: AppHost
    context: RulesetContext
    panel: SharedModulesPanel
    overlay: SharedModulesOverlay
    _report_for: Scenario | None = None
    _report: SharedModulesReport | None = None
    _error: str = ""

    def report(self, scenario: Scenario) -> tuple[SharedModulesReport | None, str]:
        """The report for ``scenario`` (computed once per value)."""
        if self._report_for is not scenario:
            self._report_for = scenario
            self._report, self._error = compute_report(scenario)
        return self._report, self._error

    def refresh(self, scenario: Scenario) -> None:
        if scenario.ruleset != RULESET:
            self.overlay.clear()
            return
        report, error = self.report(scenario)
        self.panel.show_report(scenario, report, error)
        if report is not None:
            self.overlay.show_report(scenario, report)

    def ruling(self, scenario: Scenario, selection: Selection) -> str:
        """The modules' rule behind each conclusion about the selection (plain text)."""
        if scenario.ruleset != RULESET:
            return ""
        report, error = self.report(scenario)
        if report is None:
            return error
        units = selection.unit_ids(scenario)
        objectives = set(selection.objectives)
        if units or objectives:
            lines = ruling_lines(scenario, report, units, objectives)
        else:
            lines = [f"[Shared Scenario Modules: {v.rule}] {v.message}" for v in report.violations]
        if not lines:
            return ""
        return "Shared Scenario Modules rules:\n" + "\n".join(f"- {line}" for line in lines)


def install(host: AppHost) -> SharedModulesApp:
    """Add the Shared Scenario Modules dock, overlay, ruling lines and New game page."""
    context = RulesetContext(host.document)
    app = SharedModulesApp(
        host, context, SharedModulesPanel(context), SharedModulesOverlay(host.scene)
    )
    host.add_dock(app.panel, TITLE, DOCK_NAME, DockPlace.EXPLANATIONS, ruleset=RULESET)
    context.refreshed.connect(app.refresh)
    context.message.connect(host.show_message)
    host.extend_ruling(app.ruling)
    host.add_new_game_page(NewGamePageSpec(RULESET, TITLE, SharedModulesNewGamePage))
    app.refresh(host.document.scenario)
    return app


UI = RulesetUI(RULESET, TITLE, install, mission_summary, chart_caption)

__all__ = ["DOCK_NAME", "UI", "SharedModulesApp", "install"]
