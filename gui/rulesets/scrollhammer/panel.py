"""The Scrollhammer panel and its board overlays (``ruleset: "scrollhammer"``).

The panel reads one :func:`engine.rulesets.scrollhammer.scrollhammer_report` per scenario value and
shows it in four tabs: Set-up (mission, table halves, terrain density, live set-up checks
with one-click nudges), Battle (turn, control, Night Fighting, Seize the Initiative,
Variable Game Length, Reserves, Victory Points), Odds (the exact charts players decide on)
and Relic. Every change it makes is one undoable document edit; dice are rolled with the
panel's ``rng`` (tests give a seeded one) and the result is stored in ``game.scrollhammer``
where the format has a key for it.

The overlay draws the centre line, both deployment zones, the 2' x 2' terrain sections with
their density, every set-up violation (red, with the measure against the limit) and, for the
selected unit, the Night Fighting range bands with each enemy unit's band.

Choices (where the rules are silent):

- The rulebook's nudge moves the *other* objectives so the last one fits; an objective that
  itself breaks the edge or terrain rule is offered the nearest legal spot instead (the
  smallest move of that objective, found by the engine's own placement check).
- Night Fighting bands are drawn whenever a unit is selected and the mission uses Night
  Fighting or The Shimmer of Dawn (the "Draw Night Fighting bands" box turns them off).
"""

from __future__ import annotations

import random
from html import escape

from PySide6.QtWidgets import QTabWidget, QVBoxLayout, QWidget

from engine.model import Scenario
from engine.rulesets.scrollhammer import ScrollhammerReport
from gui.rulesets.common import Dice, RulesetContext, error_html, rich_label, scrolled
from gui.rulesets.scrollhammer.battle_tab import BattleTab
from gui.rulesets.scrollhammer.odds_tab import OddsTab
from gui.rulesets.scrollhammer.relic_tab import RelicTab
from gui.rulesets.scrollhammer.setup_tab import SetupTab


class ScrollhammerPanel(QWidget):
    """Mission, set-up checks, battle state, odds and the Relic for a Scrollhammer game: a
    summary line over four tabs, each its own widget over the same context and dice."""

    def __init__(self, context: RulesetContext) -> None:
        super().__init__()
        self.setObjectName("ScrollhammerPanel")
        self.context = context
        self.dice = Dice(random.Random())
        self.report: ScrollhammerReport | None = None
        self.setup = SetupTab(context, self.dice)
        self.battle = BattleTab(context, self.dice)
        self.odds = OddsTab(context, self.dice)
        self.relic = RelicTab(context, self.dice)
        self.tabs = QTabWidget()
        self.tabs.addTab(scrolled(self.setup), "Set-up")
        self.tabs.addTab(scrolled(self.battle), "Battle")
        self.tabs.addTab(scrolled(self.odds), "Odds")
        self.tabs.addTab(scrolled(self.relic), "Relic")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        self.summary = rich_label(name="sh-summary")
        layout.addWidget(self.summary)
        layout.addWidget(self.tabs)

    @property
    def rng(self) -> random.Random:
        """The dice every tab rolls with (tests give a seeded one)."""
        return self.dice.rng

    @rng.setter
    def rng(self, rng: random.Random) -> None:
        self.dice.rng = rng

    def show_report(
        self, scenario: Scenario, report: ScrollhammerReport | None, error: str
    ) -> None:
        self.report = report
        if report is None:
            self.summary.setText(error_html(error))
            return
        violations = report.violations
        verdict = (
            "<span style='color:#1e8449'>set-up legal</span>"
            if not violations
            else f"<span style='color:#d0021b'>{len(violations)} set-up problem(s)</span>"
        )
        title = report.mission.title if report.mission else "no mission chosen"
        self.summary.setText(f"<b>Scrollhammer: {escape(title)}</b> \u2022 {verdict}")
        for tab in (self.setup, self.battle):
            tab.show_state(scenario, report)
        self.odds.show_state(scenario, report.mission)
        self.relic.show_state(scenario)
