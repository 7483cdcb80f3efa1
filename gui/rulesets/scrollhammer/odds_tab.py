"""The Odds tab: the exact charts players decide on (game length, Night Fighting, Reserves)."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from engine.model import Scenario
from engine.rulesets.scrollhammer import (
    game_length_chart,
    night_fighting_chart,
    reserves_chart,
    seize_the_initiative_probability,
)
from engine.rulesets.scrollhammer.game_flow import night_fighting_scheme
from engine.rulesets.scrollhammer.missions import StandardMission
from gui.rulesets.common import (
    Dice,
    ProbabilityChartView,
    RulesetContext,
    percent,
    rich_label,
)


class OddsTab(QWidget):
    """The exact charts players decide on (game length, Night Fighting, Reserves)."""

    def __init__(self, context: RulesetContext, dice: Dice) -> None:
        super().__init__()
        self.context = context
        self.dice = dice
        self._updating = False
        layout = QVBoxLayout(self)
        self.length_chart = ProbabilityChartView("sh-chart-length")
        self.night_chart = ProbabilityChartView("sh-chart-night")
        self.reserves_chart = ProbabilityChartView("sh-chart-reserves")
        self.modifier_spin = QSpinBox()
        self.modifier_spin.setObjectName("sh-reserve-modifier")
        self.modifier_spin.setRange(-3, 3)
        self.modifier_spin.setPrefix("Reserve Roll modifier ")
        self.modifier_spin.valueChanged.connect(lambda _v: self._show_reserve_chart())
        self.odds_text = rich_label(name="sh-odds")
        layout.addWidget(self.odds_text)
        layout.addWidget(self.length_chart)
        layout.addWidget(self.night_chart)
        layout.addWidget(self.modifier_spin)
        layout.addWidget(self.reserves_chart)
        layout.addStretch(1)

    def show_state(self, scenario: Scenario, mission: StandardMission | None) -> None:
        """Show ``scenario``; the widgets' own change signals make no edit meanwhile."""
        self._updating = True
        try:
            self._show(scenario, mission)
        finally:
            self._updating = False

    def _show(self, scenario: Scenario, mission: StandardMission | None) -> None:
        self.length_chart.show_chart(game_length_chart())
        self._show_reserve_chart()
        has_night = mission is not None and night_fighting_scheme(mission) != "none"
        self.night_chart.setVisible(has_night)
        if mission is not None and has_night:
            turn1 = bool(scenario.option("night_fighting_turn1_lasts", False))
            self.night_chart.show_chart(night_fighting_chart(mission, turn1_lasts=turn1))
        self.odds_text.setText(
            "Exact odds from the rules' dice (hover a chart for the rule). Seize the "
            f"Initiative: {percent(seize_the_initiative_probability())}."
        )

    def _show_reserve_chart(self) -> None:
        """Without a modifier, and with the one the player is weighing (if any)."""
        modifier = self.modifier_spin.value()
        self.reserves_chart.show_chart(reserves_chart((0, modifier) if modifier else (0,)))
