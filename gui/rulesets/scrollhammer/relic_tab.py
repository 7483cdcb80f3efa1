"""The Relic tab: where the Relic is, who carries it, identifying it (2D6) and the table."""

from __future__ import annotations

from dataclasses import replace
from html import escape

from PySide6.QtWidgets import (
    QVBoxLayout,
    QWidget,
)

from engine.explain import inches
from engine.model import Marker, Scenario
from engine.rulesets.scrollhammer import (
    relic_chart,
    relic_table,
    roll_relic,
)
from engine.rulesets.scrollhammer.relic import CARRY_LIMIT, DROP_DISTANCE, relic_marker, relic_state
from engine.scenario_edits import game_section, with_game_key
from gui.rulesets.common import (
    Dice,
    ProbabilityChartView,
    RulesetContext,
    action_button,
    player_html,
    rich_label,
)
from gui.rulesets.scrollhammer.report import SECTION


class RelicTab(QWidget):
    """Where the Relic is, who carries it, identifying it (2D6) and the table."""

    def __init__(self, context: RulesetContext, dice: Dice) -> None:
        super().__init__()
        self.context = context
        self.dice = dice
        self._updating = False
        layout = QVBoxLayout(self)
        self.relic_text = rich_label(name="sh-relic")
        layout.addWidget(self.relic_text)
        # One under the other: side by side they made the tab wider than the dock column.
        row = QVBoxLayout()
        place = action_button("Place the Relic at the centre", "sh-relic-place", self.place_relic)
        identify = action_button("Identify the Relic (2D6)", "sh-relic-roll", self.roll_relic)
        row.addWidget(place)
        row.addWidget(identify)
        layout.addLayout(row)
        self.relic_chart = ProbabilityChartView("sh-chart-relic", height=190)
        layout.addWidget(self.relic_chart)
        self.relic_table_text = rich_label(name="sh-relic-table")
        layout.addWidget(self.relic_table_text)
        layout.addStretch(1)

    def show_state(self, scenario: Scenario) -> None:
        """Show ``scenario``; the widgets' own change signals make no edit meanwhile."""
        self._updating = True
        try:
            self._show(scenario)
        finally:
            self._updating = False

    def _show(self, scenario: Scenario) -> None:
        marker = relic_marker(scenario)
        state = relic_state(scenario)
        lines = []
        if marker is None:
            lines.append("No Relic marker on the table (kind 'relic').")
        else:
            lines.append(f"The Relic is at ({marker.x:.2f}, {marker.y:.2f}).")
        if state.get("carrier"):
            lines.append(f"Carried by <b>{escape(str(state['carrier']))}</b>.")
        if state.get("result") is not None:
            result = next(r for r in relic_table() if r.roll == int(state["result"]))
            lines.append(
                f"Identified: <b>{result.roll} {escape(result.name)}</b>: {escape(result.text)}"
            )
        if state.get("captured_by"):
            lines.append(f"Captured by {player_html(scenario, str(state['captured_by']))}.")
        lines.append(
            f"Carrying: the bearer cannot march or charge the turn it is seized and never moves "
            f"more than {inches(CARRY_LIMIT)} in the Movement phase, or the Relic is dropped; a "
            f"dropped Relic is placed {inches(DROP_DISTANCE)} from the model."
        )
        self.relic_text.setText(" ".join(lines))
        self.relic_chart.show_chart(relic_chart())
        self.relic_table_text.setText(
            "<br>".join(
                f"<b>{r.roll} {escape(r.name)}</b>: {escape(r.text)}" for r in relic_table()
            )
        )

    def place_relic(self) -> bool:
        scenario = self.context.scenario
        if relic_marker(scenario) is not None:
            self.context.message.emit("The Relic is already on the table.")
            return False
        cx, cy = scenario.battlefield.centre
        taken = {m.id for m in scenario.markers}
        marker_id = "relic" if "relic" not in taken else f"relic-{len(taken)}"
        marker = Marker(marker_id, "relic", cx, cy)
        return self.context.edit(
            lambda s: replace(s, markers=(*s.markers, marker)), "Place the Relic at the centre"
        )

    def roll_relic(self) -> bool:
        result = roll_relic(self.dice.rng)

        def make(s: Scenario) -> Scenario:
            relic = dict(game_section(s, SECTION).get("relic", {}))
            relic["result"] = result.roll
            return with_game_key(s, SECTION, "relic", relic)

        return self.context.edit(make, f"The Relic is {result.roll}: {result.name}")
