"""The Shared Scenario Modules' app part (``ruleset: "shared-modules"``): the Shared Scenario
Modules dock (:mod:`.panel`), its edits (:mod:`.edits`), its board overlay (:mod:`.overlay`),
its ruling lines (:mod:`.report`), what the shared Mission dock and score chart say
(:mod:`.mission`) and its New game page (:mod:`.new_game`).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.edits import Selection
from engine.model import Scenario
from engine.rulesets.shared_modules import SharedModulesReport
from gui.plugin_api import AppHost, DockPlace, NewGamePageSpec, RulesetUI
from gui.rulesets.common import RulesetContext, ruling_section
from gui.rulesets.shared_modules.mission import chart_caption, mission_summary
from gui.rulesets.shared_modules.new_game import TITLE, SharedModulesNewGamePage
from gui.rulesets.shared_modules.overlay import SharedModulesOverlay
from gui.rulesets.shared_modules.panel import SharedModulesPanel
from gui.rulesets.shared_modules.report import REPORT, RULESET, analyse_report, ruling_lines

DOCK_NAME = "SharedModulesDock"
DOCK_TITLE = "Shared Scenario Modules"


@dataclass
class SharedModulesApp:
    """The installed dock and overlay, and the one report per scenario value they share."""

    host: AppHost
    context: RulesetContext
    panel: SharedModulesPanel
    overlay: SharedModulesOverlay

    def report(self) -> tuple[SharedModulesReport | None, str]:
        """The pipeline's report of the current scenario value and why there is none ("" while
        it is being worked out)."""
        result = self.context.result
        if result is None:
            return None, ""
        if result.error:
            return None, f"The Shared Scenario Modules checks cannot run: {result.error}"
        return result.value if isinstance(result.value, SharedModulesReport) else None, ""

    def refresh(self, scenario: Scenario) -> None:
        if not self.context.serves(scenario):
            self.overlay.clear()
            return
        report, error = self.report()
        self.panel.show_report(scenario, report, error)
        if report is not None:
            self.overlay.show_report(scenario, report)

    def ruling(self, scenario: Scenario, selection: Selection) -> str:
        """The modules' rule behind each conclusion about the selection (plain text)."""
        report, error = self.report()
        if report is None:
            return error
        units = selection.unit_ids(scenario)
        objectives = set(selection.objectives)
        lines = ruling_lines(scenario, report, units, objectives) if units or objectives else None
        return ruling_section("Shared Scenario Modules", lines, report.violations)


def install(host: AppHost) -> SharedModulesApp:
    """Add the Shared Scenario Modules dock, overlay, ruling lines and New game page."""
    context = RulesetContext(host.document, host.live, REPORT, analyse_report, RULESET)
    app = SharedModulesApp(
        host, context, SharedModulesPanel(context), SharedModulesOverlay(host.scene)
    )
    host.add_dock(app.panel, DOCK_TITLE, DOCK_NAME, DockPlace.EXPLANATIONS, ruleset=RULESET)
    context.refreshed.connect(app.refresh)
    context.message.connect(host.show_message)
    host.add_overlay(
        RULESET,
        "Shared Modules marks",
        "Deployment bands, Battle Formations problems, Scout and Secure, Reinforced Defenses",
        app.overlay.set_visible,
        ruleset=RULESET,
    )
    host.extend_ruling(app.ruling, ruleset=RULESET)
    host.add_new_game_page(NewGamePageSpec(RULESET, TITLE, SharedModulesNewGamePage))
    app.refresh(host.document.scenario)
    return app


UI = RulesetUI(RULESET, TITLE, install, mission_summary, chart_caption)

__all__ = ["DOCK_NAME", "UI", "SharedModulesApp", "install"]
