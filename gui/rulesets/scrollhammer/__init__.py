"""Scrollhammer Standard Missions' app part (``ruleset: "scrollhammer"``): the Scrollhammer dock
(:mod:`.panel`), its board overlay (:mod:`.overlay`), its ruling lines (:mod:`.report`), the
one-click placement fixes (:mod:`.placement`), what the shared Mission dock and score chart say
(:mod:`.mission`) and its New game page (:mod:`.new_game`).

The dock and the overlay follow one report per scenario value (the panel, the overlay and the
ruling share it), never computed inside ``paint()``: the overlay items paint cached paths.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.edits import Selection
from engine.errors import WarplanError
from engine.model import Scenario
from engine.rulesets.scrollhammer import ScrollhammerReport
from engine.rulesets.scrollhammer.night_fighting import NightFightingView
from engine.rulesets.scrollhammer.setup import BATTLEFIELD
from gui.plugin_api import AppHost, DockPlace, NewGamePageSpec, RulesetUI
from gui.rulesets.common import RulesetContext, ruling_section
from gui.rulesets.scrollhammer.mission import chart_caption, mission_summary
from gui.rulesets.scrollhammer.new_game import TITLE, ScrollhammerNewGamePage
from gui.rulesets.scrollhammer.overlay import ScrollhammerOverlay, night_view_for
from gui.rulesets.scrollhammer.panel import ScrollhammerPanel
from gui.rulesets.scrollhammer.report import REPORT, RULESET, analyse_report, ruling_lines

DOCK_NAME = "ScrollhammerDock"
DOCK_TITLE = "Scrollhammer"


@dataclass
class ScrollhammerApp:
    """The installed dock and overlay, and the one report per scenario value they share."""

    host: AppHost
    context: RulesetContext
    panel: ScrollhammerPanel
    overlay: ScrollhammerOverlay
    _night_key: tuple[Scenario, str | None] | None = None
    _night: NightFightingView | None = None

    def report(self) -> tuple[ScrollhammerReport | None, str]:
        """The pipeline's report of the current scenario value and why there is none ("" while
        it is being worked out)."""
        result = self.context.result
        if result is None:
            return None, ""
        if result.error:
            return None, f"The Scrollhammer checks cannot run: {result.error}"
        return result.value if isinstance(result.value, ScrollhammerReport) else None, ""

    def night_view(self, scenario: Scenario) -> NightFightingView | None:
        """Night Fighting bands for the selected unit, once per value and selection."""
        if not self.panel.battle.bands_box.isChecked():
            return None
        unit_id = self.host.scene.selected_unit_id()
        key = (scenario, unit_id)
        if (
            self._night_key is None
            or self._night_key[0] is not scenario
            or (self._night_key[1] != unit_id)
        ):
            self._night_key = key
            try:
                self._night = night_view_for(scenario, unit_id)
            except WarplanError as error:
                self.context.message.emit(f"Night Fighting bands: {error}")
                self._night = None
        return self._night

    def refresh(self, scenario: Scenario) -> None:
        if not self.context.serves(scenario):
            self.overlay.clear()
            return
        report, error = self.report()
        self.panel.show_report(scenario, report, error)
        if report is not None:
            self.overlay.show_report(scenario, report)
        self.overlay.show_night(scenario, self.night_view(scenario))

    def on_selection(self) -> None:
        scenario = self.context.scenario
        if self.context.serves(scenario):
            self.overlay.show_night(scenario, self.night_view(scenario))

    def ruling(self, scenario: Scenario, selection: Selection) -> str:
        """The Scrollhammer rule behind each conclusion about the selection (plain text)."""
        report, error = self.report()
        if report is None:
            return error
        units = selection.unit_ids(scenario)
        objectives = set(selection.objectives)
        lines = (
            ruling_lines(scenario, report, units, objectives, self.night_view(scenario))
            if units or objectives
            else None
        )
        return ruling_section("Scrollhammer", lines, report.violations)


def install(host: AppHost) -> ScrollhammerApp:
    """Add the Scrollhammer dock, overlay, ruling lines and New game page to ``host``."""
    context = RulesetContext(host.document, host.live, REPORT, analyse_report, RULESET)
    app = ScrollhammerApp(
        host, context, ScrollhammerPanel(context), ScrollhammerOverlay(host.scene)
    )
    host.add_dock(app.panel, DOCK_TITLE, DOCK_NAME, DockPlace.EXPLANATIONS, ruleset=RULESET)
    context.refreshed.connect(app.refresh)
    context.message.connect(host.show_message)
    host.scene.selection_changed_ids.connect(lambda _s: app.on_selection())
    app.panel.battle.bands_box.toggled.connect(lambda _on: app.on_selection())
    host.add_overlay(
        RULESET,
        "Scrollhammer marks",
        "The centre line, deployment zones, terrain sections, set-up problems, Night Fighting",
        app.overlay.set_visible,
        ruleset=RULESET,
    )
    host.extend_ruling(app.ruling, ruleset=RULESET)
    host.add_new_game_page(
        NewGamePageSpec(RULESET, TITLE, ScrollhammerNewGamePage, new_table=BATTLEFIELD)
    )
    app.refresh(host.document.scenario)
    return app


UI = RulesetUI(RULESET, TITLE, install, mission_summary, chart_caption)

__all__ = ["DOCK_NAME", "UI", "ScrollhammerApp", "install"]
