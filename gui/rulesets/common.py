"""What the ruleset panels share: their view of the document, the one door for edits, probability
charts, and violation strokes for the board (the game-section and option edits themselves are
the engine's, :mod:`engine.scenario_edits`).

Charts draw the engine's exact :class:`engine.rulesets.scrollhammer.ProbabilityChart` values: the
widget keeps the chart it was given (fractions) and plots their floats, so a test can compare
what is drawn with what the engine computed, to the last digit.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Hashable, Iterable
from dataclasses import dataclass
from fractions import Fraction
from html import escape
from typing import Any

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QBrush, QColor, QPainterPath
from PySide6.QtWidgets import (
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from engine.errors import WarplanError
from engine.explain import Violation, inches
from engine.model import Scenario, Unit
from engine.rulesets.scrollhammer.probability import ProbabilityChart
from engine.scenario_edits import game_section, with_game_key
from gui.document import ScenarioDocument
from gui.items import cosmetic_pen
from gui.lazy_plot import LazyPlot
from gui.live import Analyse, LiveRules
from gui.overlays.layer import LabelSpec, OverlayLayer, Stroke
from gui.panels.context import PanelContext
from gui.shapes import circle_path, player_colour, scene_point, translucent

VIOLATION_COLOUR = QColor("#d0021b")
SERIES_COLOURS = ("#1f6fb2", "#e67e22", "#27ae60", "#8e44ad", "#7f8c8d", "#c0392b")


@dataclass
class Dice:
    """The random source a panel's rolls share (tests give a seeded one)."""

    rng: random.Random


class RulesetContext(PanelContext):
    """The document as a ruleset panel sees it: refreshed once the pipeline has its report of
    the current scenario value (during a drag too, once the pointer rests, so the board's rule
    marks follow the drag). The report runs only for ``ruleset``'s games; for another game the
    result is None and :meth:`serves` is False."""

    def __init__(
        self,
        document: ScenarioDocument,
        live: LiveRules,
        name: str,
        analyse: Analyse,
        ruleset: str,
    ) -> None:
        super().__init__(document, live, name, analyse, during_drag=True, ruleset=ruleset)

    def edit(self, make: Callable[[Scenario], Scenario], text: str) -> bool:
        """Apply ``make(scenario)`` as one undo step named ``text``; an engine refusal is shown
        and nothing changes. The panels refresh at once (no waiting for the timer)."""
        try:
            after = make(self.document.scenario)
        except WarplanError as error:
            self.message.emit(f"{text}: {error}")
            return False
        if after is self.document.scenario:
            return False
        self.document.apply(after, text)
        self.message.emit(text)
        self.refresh_now()
        return True


def with_listed(scenario: Scenario, section: str, key: str, member: str, listed: bool) -> Scenario:
    """``scenario`` with ``member`` added to (``listed``) or taken from the sorted list
    ``game[section][key]``; an empty list removes the key."""
    members = set(game_section(scenario, section).get(key, []))
    if listed:
        members.add(member)
    else:
        members.discard(member)
    return with_game_key(scenario, section, key, sorted(members) or None)


def ruling_section(
    system: str, selection_lines: list[str] | None, violations: Iterable[Violation]
) -> str:
    """A rule system's part of the ruling: its lines about the selection, or (nothing selected:
    ``selection_lines`` is None) every set-up problem it reports, each tagged with its rule.

    >>> ruling_section("Scrollhammer", None, [Violation("Deploy Forces", "too close", ())])
    'Scrollhammer rules:\\n- [Scrollhammer: Deploy Forces] too close'
    >>> ruling_section("Scrollhammer", [], [])
    ''
    """
    if selection_lines is None:
        selection_lines = [f"[{system}: {v.rule}] {v.message}" for v in violations]
    if not selection_lines:
        return ""
    return f"{system} rules:\n" + "\n".join(f"- {line}" for line in selection_lines)


def player_name(scenario: Scenario, player_id: str | None) -> str:
    for player in scenario.players:
        if player.id == player_id:
            return player.name or player.id
    return player_id or "nobody"


def player_html(scenario: Scenario, player_id: str | None) -> str:
    """The player's name in bold, in the player's colour."""
    ids = scenario.player_ids()
    colour = player_colour(scenario, player_id).name() if player_id in ids else "#555555"
    return f"<b style='color:{colour}'>{player_name(scenario, player_id)}</b>"


def percent(value: Fraction) -> str:
    """``Fraction(1, 3)`` as ``"33.3% (1/3)"``: a player reads the percentage, a judge the
    exact fraction."""
    exact = f"{value.numerator}/{value.denominator}" if value.denominator != 1 else str(value)
    return f"{float(value) * 100:.1f}% ({exact})"


def heading(text: str) -> QLabel:
    label = QLabel(f"<b>{text}</b>")
    label.setTextFormat(Qt.TextFormat.RichText)
    return label


def rich_label(text: str = "", name: str = "") -> QLabel:
    label = QLabel(text)
    label.setTextFormat(Qt.TextFormat.RichText)
    label.setWordWrap(True)
    if name:
        label.setObjectName(name)
    return label


def add_section(layout: QVBoxLayout, title: str, name: str) -> QLabel:
    """A heading and, under it, the rich text label a panel fills on each refresh."""
    layout.addWidget(heading(title))
    text = rich_label(name=name)
    layout.addWidget(text)
    return text


def action_button(text: str, name: str, on_click: Callable[..., object]) -> QPushButton:
    """A push button, named for tests, that calls ``on_click`` when clicked."""
    button = QPushButton(text)
    button.setObjectName(name)
    button.clicked.connect(on_click)
    return button


def scrolled(widget: QWidget) -> QScrollArea:
    """``widget`` in a scroll area that resizes it, so a tall panel fits a short dock."""
    area = QScrollArea()
    area.setWidgetResizable(True)
    area.setWidget(widget)
    return area


def error_html(error: str) -> str:
    """Why a ruleset's checks cannot run, in red."""
    return f"<span style='color:{VIOLATION_COLOUR.name()}'>{escape(error)}</span>"


def fill_unit_checklist(
    checklist: QListWidget,
    scenario: Scenario,
    units: Iterable[Unit],
    checked: Collection[str],
    suffix: str = "",
) -> None:
    """One checkable row per unit (its id as the row's data), ticked where the unit is in
    ``checked``. Signals are blocked while filling, so showing state is not taken as an edit."""
    checklist.blockSignals(True)
    checklist.clear()
    for unit in units:
        item = QListWidgetItem(
            f"{unit.name or unit.id} ({player_name(scenario, unit.player)}){suffix}"
        )
        item.setData(Qt.ItemDataRole.UserRole, unit.id)
        item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
        item.setCheckState(Qt.CheckState.Checked if unit.id in checked else Qt.CheckState.Unchecked)
        checklist.addItem(item)
    checklist.blockSignals(False)


def checked_unit(item: QListWidgetItem) -> tuple[str, bool]:
    """The unit id of a :func:`fill_unit_checklist` row and whether it is now ticked."""
    return str(item.data(Qt.ItemDataRole.UserRole)), item.checkState() == Qt.CheckState.Checked


# ------------------------------------------------------------------------------ charts


class ProbabilityChartView(QWidget):
    """A pyqtgraph chart of one engine :class:`ProbabilityChart`: bars and lines over
    categories, each bar labelled with its percentage (the plot built when first shown)."""

    def __init__(self, object_name: str, height: int = 170) -> None:
        super().__init__()
        self.setObjectName(object_name)
        self.chart: ProbabilityChart | None = None
        self.canvas = LazyPlot(
            f"{object_name}-plot", lambda plot: plot.showGrid(x=False, y=True, alpha=0.25), height
        )
        self.title = QLabel()
        self.title.setWordWrap(True)
        # The key sits under the plot, not inside it, where it would hide bars and lines.
        self.key = rich_label(name=f"{object_name}-key")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 2, 0, 2)
        layout.addWidget(self.title)
        layout.addWidget(self.canvas)
        layout.addWidget(self.key)
        self._items: dict[str, Any] = {}

    def show_chart(self, chart: ProbabilityChart) -> None:
        if chart == self.chart:
            return
        self.chart = chart
        self.title.setText(f"<b>{chart.title}</b>")
        key: list[str] = []
        for index, series in enumerate(chart.series):
            colour = SERIES_COLOURS[index % len(SERIES_COLOURS)]
            mark = "\u25a0" if series.style == "bar" else "\u25cf\u2014"
            key.append(f"<span style='color:{colour}'>{mark}</span>&nbsp;{series.name}")
        self.key.setText("<small>" + " &nbsp; ".join(key) + "</small>")
        self.canvas.draw_with(lambda plot: self._draw(plot, chart))

    def _draw(self, plot: Any, chart: ProbabilityChart) -> None:
        import pyqtgraph as pg

        self._items = {}
        xs = list(range(len(chart.categories)))
        bars = [s for s in chart.series if s.style == "bar"]
        width = 0.8 / max(1, len(bars))
        for index, series in enumerate(chart.series):
            colour = SERIES_COLOURS[index % len(SERIES_COLOURS)]
            values = [float(v) for v in series.values]
            if series.style == "bar":
                offset = (bars.index(series) - (len(bars) - 1) / 2) * width
                item: Any = pg.BarGraphItem(
                    x=[x + offset for x in xs],
                    height=values,
                    width=width * 0.92,
                    brush=translucent(QColor(colour), 170),
                    pen=pg.mkPen(colour),
                )
                plot.addItem(item)
                for x, value in zip(xs, values, strict=True):
                    if value > 0:
                        text = pg.TextItem(f"{value * 100:.0f}%", color="#333", anchor=(0.5, 1))
                        text.setPos(x + offset, value)
                        plot.addItem(text)
            else:
                item = plot.plot(
                    xs,
                    values,
                    pen=pg.mkPen(colour, width=2),
                    symbol="o",
                    symbolSize=6,
                    symbolBrush=colour,
                    symbolPen=None,
                )
            self._items[series.name] = item
        axis = plot.getAxis("bottom")
        axis.setTicks(
            [[(x, tick_label(label)) for x, label in zip(xs, chart.categories, strict=True)]]
        )
        plot.setLabel("bottom", chart.x_label)
        plot.setXRange(-0.6, len(xs) - 0.4, padding=0)
        # Room above the tallest value for its percentage; a whole 0-1 scale would flatten a
        # chart of small chances (the Relic table's 2D6).
        top = max((float(v) for series in chart.series for v in series.values), default=1.0)
        plot.setYRange(0, min(1.12, top * 1.2 + 0.02), padding=0)
        plot.setToolTip("\n".join(chart.notes))

    def plotted(self) -> dict[str, list[float]]:
        """What is drawn: series name -> the heights (bars) or y values (lines); the plot is
        built now if it was not yet."""
        import pyqtgraph as pg

        self.canvas.plot()
        drawn: dict[str, list[float]] = {}
        for name, item in self._items.items():
            if isinstance(item, pg.BarGraphItem):
                drawn[name] = [float(v) for v in item.opts["height"]]
            else:
                _xs, ys = item.getData()
                drawn[name] = [float(v) for v in ys]
        return drawn


def tick_label(category: str) -> str:
    """A short axis label: ``"7 Stone of Barenziah"`` -> ``"7"`` (the name is in the table)."""
    first = category.split(" ", 1)[0]
    return first if first.isdigit() else category


# ------------------------------------------------------------------------------ board strokes


def short_violation(violation: Violation) -> str:
    """A board tag: the rule and, where measured, the distance against the limit."""
    if violation.distance is not None and violation.limit is not None:
        return (
            f"{violation.rule}: {inches(abs(violation.distance))} (limit {inches(violation.limit)})"
        )
    return violation.rule


def violation_groups(violations: tuple[Violation, ...]) -> list[tuple[Violation, ...]]:
    """Violations grouped by rule, first item (the unit or objective) and limit, so a unit
    whose three models break the same rule gets one tag, not three stacked ones."""
    groups: dict[tuple[str, str, float | None], list[Violation]] = {}
    for violation in violations:
        if not violation.points:
            continue
        first = violation.items[0] if violation.items else violation.message
        groups.setdefault((violation.rule, first, violation.limit), []).append(violation)
    return [tuple(group) for group in groups.values()]


def group_caption(group: tuple[Violation, ...]) -> str:
    """One tag for a group: the rule and the worst measure against the limit."""
    if len(group) == 1:
        return short_violation(group[0])
    measured = [v for v in group if v.distance is not None]
    if not measured or group[0].limit is None:
        return f"{group[0].rule}: {len(group)} problems"
    worst = max(measured, key=lambda v: abs((v.distance or 0.0) - (v.limit or 0.0)))
    return (
        f"{group[0].rule}: {len(group)} problems, worst {inches(abs(worst.distance or 0.0))} "
        f"(limit {inches(group[0].limit)})"
    )


def put_violations(
    layer: OverlayLayer, violations: tuple[Violation, ...], key_prefix: Hashable
) -> None:
    """Red marks for every violation: a line between its two points (the two things too close
    or too far apart) or a dashed ring at its one point; one tag per group, under its marks,
    naming the rule and the measure against the limit."""
    for group in violation_groups(violations):
        first = group[0]
        key = (key_prefix, first.rule, first.items[0] if first.items else first.message)
        signature = tuple((v.points, v.message) for v in group)

        def build(group: tuple[Violation, ...] = group) -> tuple[list[Stroke], LabelSpec]:
            pen = cosmetic_pen(VIOLATION_COLOUR, 2.4)
            strokes: list[Stroke] = []
            for v in group:
                if len(v.points) >= 2:
                    path = QPainterPath(scene_point(*v.points[0]))
                    for point in v.points[1:]:
                        path.lineTo(scene_point(*point))
                    strokes.append(Stroke(path, pen))
                    for point in v.points[:2]:
                        dot = circle_path(point[0], point[1], 0.3)
                        strokes.append(Stroke(dot, pen, QBrush(VIOLATION_COLOUR)))
                else:
                    ring = circle_path(v.points[0][0], v.points[0][1], 1.0)
                    strokes.append(
                        Stroke(
                            ring,
                            cosmetic_pen(VIOLATION_COLOUR, 2.0, Qt.PenStyle.DashLine),
                            QBrush(translucent(VIOLATION_COLOUR, 35)),
                        )
                    )
            points = [p for v in group for p in v.points]
            x = sum(p[0] for p in points) / len(points)
            bottom = min(p[1] for p in points) - 1.1
            label = LabelSpec(
                group_caption(group),
                QPointF(scene_point(x, bottom)),
                QColor("white"),
                translucent(VIOLATION_COLOUR, 230),
                anchor="below",
            )
            return strokes, label

        layer.put(key, signature, build)


class RulesetOverlay:
    """A ruleset's marks on the board: named layers that are cleared and shown together, one
    of them (``"violations"``) for the red marks of :func:`put_violations`."""

    def __init__(self, layers: dict[str, OverlayLayer]) -> None:
        self.layers = layers

    def clear(self) -> None:
        for layer in self.layers.values():
            layer.clear()

    def set_visible(self, visible: bool) -> None:
        for layer in self.layers.values():
            layer.set_visible(visible)

    def show_violations(self, violations: tuple[Violation, ...], key_prefix: Hashable) -> None:
        layer = self.layers["violations"]
        layer.begin()
        put_violations(layer, violations, key_prefix)
        layer.end()


def geometry_path(geometry: Any) -> QPainterPath:
    """A shapely (multi)polygon as a painter path, holes included (odd-even fill)."""
    path = QPainterPath()
    path.setFillRule(Qt.FillRule.OddEvenFill)
    _add_geometry(path, geometry)
    return path


def _add_geometry(path: QPainterPath, geometry: Any) -> None:
    if geometry.is_empty:
        return
    if geometry.geom_type == "Polygon":
        for ring in (geometry.exterior, *geometry.interiors):
            points = list(ring.coords)
            path.moveTo(scene_point(*points[0]))
            for x, y in points[1:]:
                path.lineTo(scene_point(x, y))
            path.closeSubpath()
    elif hasattr(geometry, "geoms"):
        for part in geometry.geoms:
            _add_geometry(path, part)
