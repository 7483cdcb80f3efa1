"""The Score chart dock: each player's VP by battle round (pyqtgraph), from the VP/CP ledger.

Round 0 holds the VP the file's totals have that no ledger entry explains, so the last point
always equals the player's VP total. Rulesets without VP per battle round say so instead of
drawing made-up lines (Scrollhammer counts Victory Points when the game ends: the chart's
caption gives that tally "if the game ended now").
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from engine.model import Scenario
from engine.rulesets.wh40k_ca2026 import edits
from gui.lazy_plot import LazyPlot
from gui.rulesets.wh40k_ca2026.cards_view import PLAYER_COLOURS
from gui.rulesets.wh40k_ca2026.context import MissionContext


class ScoreChartPanel(QWidget):
    """VP per player by battle round."""

    def __init__(self, context: MissionContext) -> None:
        super().__init__()
        self.setObjectName("ScoreChartPanel")
        self.context = context
        self.legend: Any = None
        self.chart = LazyPlot("score-plot", self._configure, 160)
        self.caption = QLabel()
        self.caption.setWordWrap(True)
        self.caption.setTextFormat(Qt.TextFormat.RichText)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.chart, 1)
        layout.addWidget(self.caption, 0)
        self.series: edits.ScoreSeries | None = None
        context.refreshed.connect(self.refresh)
        self.refresh(context.scenario)

    def _configure(self, plot: Any) -> None:
        plot.showGrid(x=False, y=True, alpha=0.25)
        plot.setLabel("bottom", "battle round")
        plot.setLabel("left", "VP")
        self.legend = plot.addLegend(offset=(8, 8))

    def plotted(self) -> dict[str, tuple[list[float], list[float]]]:
        """What the chart draws now: player name -> (rounds, cumulative VP); the plot is built
        now if it was not yet."""
        out: dict[str, tuple[list[float], list[float]]] = {}
        for item in self.chart.plot().getPlotItem().listDataItems():
            xs, ys = item.getData()
            if xs is not None:
                out[str(item.name())] = ([float(x) for x in xs], [float(y) for y in ys])
        return out

    def refresh(self, scenario: Scenario) -> None:
        self.series = None
        own_game = self.context.serves(scenario)
        charted = own_game and scenario.game is not None
        self.chart.setVisible(charted)
        self.caption.setAlignment(
            Qt.AlignmentFlag.AlignLeft
            | (Qt.AlignmentFlag.AlignBottom if charted else Qt.AlignmentFlag.AlignTop)
        )
        if not own_game:
            self.chart.draw_with(None)
            ui = self.context.rulesets(scenario.ruleset)
            self.caption.setText(
                ui.chart_caption(scenario)
                if ui is not None and ui.chart_caption is not None
                else f"The {self.context.ruleset_title(scenario.ruleset)} award no Victory "
                "Points by battle round; nothing to chart."
            )
            return
        if scenario.game is None:
            self.chart.draw_with(None)
            self.caption.setText(
                "No game section: no VP are recorded yet. Start a new game (File \u2192 New) "
                "or the turn tracker."
            )
            return
        series = edits.vp_by_round(scenario)
        self.series = series
        names = [(p, edits.player_name(scenario, p)) for p in scenario.player_ids()]
        self.chart.draw_with(lambda plot: self._draw(plot, series, names))
        parts = [
            f"<span style='color:{PLAYER_COLOURS[slot]}'><b>"
            f"{edits.player_name(scenario, p)} {series.totals[p]}VP</b></span>"
            for slot, p in enumerate(scenario.player_ids())
        ]
        note = ""
        if any(series.unlogged.values()):
            note = " Round 0: VP the file records with no battle round."
        self.caption.setText(" \u2022 ".join(parts) + note)

    def _draw(self, plot: Any, series: edits.ScoreSeries, names: list[tuple[str, str]]) -> None:
        import pyqtgraph as pg

        if self.legend is not None:
            self.legend.clear()
        top = 0
        for slot, (player, name) in enumerate(names):
            values = series.cumulative[player]
            top = max(top, *values)
            plot.plot(
                list(series.rounds),
                list(values),
                pen=pg.mkPen(PLAYER_COLOURS[slot], width=2.5),
                symbol="o",
                symbolSize=7,
                symbolBrush=PLAYER_COLOURS[slot],
                symbolPen=None,
                name=name,
            )
        plot.setXRange(0, max(5, series.rounds[-1]), padding=0.04)
        plot.setYRange(0, max(10, top + 2), padding=0)
        plot.getAxis("bottom").setTicks([[(r, str(r)) for r in range(0, 6)]])
