"""The panels and board overlays of the other two rule systems: Scrollhammer Standard Missions
and the Shared Scenario Modules (the app half of issue 6).

``install_ruleset_panels(window)`` adds one dock per rule system through the window's
``add_dock`` (stable object names ``ScrollhammerDock`` / ``SharedModulesDock``) and its
overlay layers to the scene. A ruleset's dock and overlays appear when the scenario's
``ruleset`` is theirs and disappear otherwise (the View menu's entry for the dock too). The
Ruling dock gets, after the engine's ruling, the ruleset's own rule for each conclusion about
the selected units and objectives.

Reports are computed once per scenario value (the panels, the overlays and the ruling share
them) and never inside ``paint()``: the overlay items paint cached paths.

Modules: :mod:`.common` (context, edits, charts, violation strokes), :mod:`.scrollhammer`,
:mod:`.shared_modules`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QDockWidget

from engine.errors import WarplanError
from engine.model import Scenario
from gui.rulesets import scrollhammer as sh
from gui.rulesets import shared_modules as sm
from gui.rulesets.common import RulesetContext

if TYPE_CHECKING:
    from gui.main_window import MainWindow

DOCK_NAMES = {"scrollhammer": "ScrollhammerDock", "shared-modules": "SharedModulesDock"}
DOCK_TITLES = {"scrollhammer": "Scrollhammer", "shared-modules": "Shared Scenario Modules"}
DOCK_WIDTH = 440


@dataclass
class RulesetPanels:
    """The installed panels and overlays, and the one report per scenario value they share."""

    window: MainWindow
    context: RulesetContext
    scrollhammer: sh.ScrollhammerPanel
    shared: sm.SharedModulesPanel
    scrollhammer_overlay: sh.ScrollhammerOverlay
    shared_overlay: sm.SharedModulesOverlay
    docks: dict[str, QDockWidget] = field(default_factory=dict)
    active: str | None = None
    _report_for: Scenario | None = None
    _report: Any = None
    _error: str = ""
    _night_key: tuple[Scenario, str | None] | None = None
    _night: Any = None

    def report(self, scenario: Scenario) -> tuple[Any, str]:
        """The active ruleset's report for ``scenario`` (computed once per value)."""
        if self._report_for is not scenario:
            self._report_for = scenario
            if scenario.ruleset == "scrollhammer":
                self._report, self._error = sh.compute_report(scenario)
            elif scenario.ruleset == "shared-modules":
                self._report, self._error = sm.compute_report(scenario)
            else:
                self._report, self._error = None, ""
        return self._report, self._error

    def night_view(self, scenario: Scenario) -> Any:
        """Night Fighting bands for the selected unit (Scrollhammer), once per value."""
        unit_id = self.window.scene.selected_unit_id()
        if not self.scrollhammer.bands_box.isChecked() or scenario.ruleset != "scrollhammer":
            return None
        key = (scenario, unit_id)
        if (
            self._night_key is None
            or self._night_key[0] is not scenario
            or key[1] != self._night_key[1]
        ):
            self._night_key = key
            try:
                self._night = sh.night_view_for(scenario, unit_id)
            except WarplanError as error:
                self.context.message.emit(f"Night Fighting bands: {error}")
                self._night = None
        return self._night

    def refresh(self, scenario: Scenario) -> None:
        ruleset = scenario.ruleset if scenario.ruleset in DOCK_NAMES else None
        self._switch(ruleset)
        report, error = self.report(scenario)
        if ruleset == "scrollhammer":
            self.scrollhammer.show_report(scenario, report, error)
            if report is not None:
                self.scrollhammer_overlay.show_report(scenario, report)
            self.scrollhammer_overlay.show_night(scenario, self.night_view(scenario))
        elif ruleset == "shared-modules":
            self.shared.show_report(scenario, report, error)
            if report is not None:
                self.shared_overlay.show_report(scenario, report)

    def _switch(self, ruleset: str | None) -> None:
        # A restored window layout may show a dock whose ruleset is not the scenario's.
        for name, dock in self.docks.items():
            if name != ruleset and not dock.isHidden():
                dock.hide()
        if ruleset == self.active:
            return
        self.active = ruleset
        overlays: dict[str, sh.ScrollhammerOverlay | sm.SharedModulesOverlay] = {
            "scrollhammer": self.scrollhammer_overlay,
            "shared-modules": self.shared_overlay,
        }
        for name, dock in self.docks.items():
            on = name == ruleset
            dock.toggleViewAction().setVisible(on)
            dock.setVisible(on)
            if on:
                dock.raise_()
            if not on:
                overlays[name].clear()
            overlays[name].set_visible(on)

    def on_selection(self) -> None:
        scenario = self.context.scenario
        if scenario.ruleset == "scrollhammer":
            self.scrollhammer_overlay.show_night(scenario, self.night_view(scenario))

    def ruling_appendix(self) -> str:
        """The ruleset's own rule behind each conclusion about the selection (plain text)."""
        scenario = self.context.scenario
        if scenario.ruleset not in DOCK_NAMES:
            return ""
        selection = self.window.scene.selection()
        units = selection.unit_ids(scenario)
        objectives = set(selection.objectives)
        report, error = self.report(scenario)
        if report is None:
            return error
        if scenario.ruleset == "scrollhammer":
            lines = sh.ruling_lines(scenario, report, units, objectives, self.night_view(scenario))
            if not units and not objectives:
                lines = [f"[Scrollhammer: {v.rule}] {v.message}" for v in report.violations]
            title = "Scrollhammer rules"
        else:
            lines = sm.ruling_lines(scenario, report, units, objectives)
            if not units and not objectives:
                lines = [
                    f"[Shared Scenario Modules: {v.rule}] {v.message}" for v in report.violations
                ]
            title = "Shared Scenario Modules rules"
        return f"{title}:\n" + "\n".join(f"- {line}" for line in lines) if lines else ""


def install_ruleset_panels(window: MainWindow) -> RulesetPanels:
    """Add the Scrollhammer and Shared Scenario Modules docks and overlays to ``window``."""
    context = RulesetContext(window.document)
    installed = RulesetPanels(
        window,
        context,
        sh.ScrollhammerPanel(context),
        sm.SharedModulesPanel(context),
        sh.ScrollhammerOverlay(window.scene),
        sm.SharedModulesOverlay(window.scene),
    )
    right = Qt.DockWidgetArea.RightDockWidgetArea
    for ruleset, panel in (
        ("scrollhammer", installed.scrollhammer),
        ("shared-modules", installed.shared),
    ):
        dock = window.add_dock(panel, DOCK_TITLES[ruleset], DOCK_NAMES[ruleset], right)
        installed.docks[ruleset] = dock
        anchor = window.docks.get("MissionDock") or window.docks.get("RulingDock")
        if anchor is not None:
            window.tabifyDockWidget(anchor, dock)
        dock.setVisible(False)
        dock.toggleViewAction().setVisible(False)
    installed.active = None
    context.refreshed.connect(installed.refresh)
    context.message.connect(lambda text: window.statusBar().showMessage(text, 8_000))
    window.scene.selection_changed_ids.connect(lambda _s: installed.on_selection())
    installed.scrollhammer.bands_box.toggled.connect(lambda _on: installed.on_selection())
    if hasattr(window.ruling, "appendix"):
        window.ruling.appendix = installed.ruling_appendix
    installed.refresh(window.document.scenario)
    # Once the window has restored its saved layout (later in its constructor), apply again.
    QTimer.singleShot(0, context, context.refresh_now)
    return installed


__all__ = ["DOCK_NAMES", "RulesetPanels", "install_ruleset_panels"]
