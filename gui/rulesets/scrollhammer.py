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

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from html import escape
from typing import Any

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QBrush, QColor, QPainterPath
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSpinBox,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)
from shapely.geometry.base import BaseGeometry

from engine.errors import WarplanError
from engine.explain import Violation, inches
from engine.model import Marker, Scenario
from engine.rulesets.scrollhammer import (
    ScrollhammerReport,
    battlefield_sections,
    first_turn,
    game_length_chart,
    night_fighting_chart,
    night_fighting_status,
    night_fighting_view,
    relic_chart,
    relic_table,
    reserves_chart,
    roll_game_end,
    roll_mission,
    roll_night_fighting,
    roll_relic,
    roll_reserves,
    roll_terrain_density,
    scrollhammer_report,
    seize_the_initiative_probability,
    smallest_nudge,
    standard_missions,
    violations_if_placed,
)
from engine.rulesets.scrollhammer.game_flow import night_fighting_scheme
from engine.rulesets.scrollhammer.missions import StandardMission, mission_of
from engine.rulesets.scrollhammer.night_fighting import NightFightingView
from engine.rulesets.scrollhammer.objective_placement import NUDGE_MARGIN
from engine.rulesets.scrollhammer.objective_placement import RULE as PLACEMENT_RULE
from engine.rulesets.scrollhammer.objective_placement import _fits as placement_fits
from engine.rulesets.scrollhammer.objective_placement import _rules as placement_rules
from engine.rulesets.scrollhammer.relic import CARRY_LIMIT, DROP_DISTANCE, relic_marker, relic_state
from engine.rulesets.scrollhammer.state import ScrollhammerState
from gui.compact import compact_combo
from gui.items import Z_DEPLOYMENT, Z_OVERLAY_HIGH, Z_OVERLAY_LOW, cosmetic_pen
from gui.overlays import LabelSpec, OverlayLayer, Stroke
from gui.rulesets.common import (
    ProbabilityChartView,
    RulesetContext,
    RulesetOverlay,
    action_button,
    add_section,
    checked_unit,
    error_html,
    fill_unit_checklist,
    game_section,
    geometry_path,
    heading,
    percent,
    player_html,
    player_name,
    rich_label,
    scrolled,
    with_game_key,
    with_listed,
    with_option,
)
from gui.shapes import player_colour, polygon_path, scene_point, translucent

SECTION = "scrollhammer"
NIGHT_COLOURS = {
    "Normal": QColor(255, 255, 255, 0),
    "Stealth (+1)": QColor(40, 50, 90, 45),
    "Stealth (+2)": QColor(25, 30, 70, 95),
    "Hidden": QColor(10, 10, 30, 150),
}
NUDGE_SEARCH_STEP = 0.05
"""Inches between candidate points along a search ring."""
NUDGE_COARSE_STEP = 0.25
NUDGE_FINE_STEP = 0.01
NUDGE_SEARCH_REACH = 24.0


# ------------------------------------------------------------------------------ fixes


@dataclass(frozen=True)
class PlacementFix:
    """A one-click fix for an objective that breaks the placement rules."""

    objective_id: str
    text: str
    apply: Callable[[Scenario], Scenario]


def _moved_objective(scenario: Scenario, objective_id: str, x: float, y: float) -> Scenario:
    objectives = tuple(
        replace(o, x=x, y=y) if o.id == objective_id else o for o in scenario.objectives
    )
    return replace(scenario, objectives=objectives)


def _legal_spot(scenario: Scenario, objective_id: str) -> tuple[float, float] | None:
    """The nearest position where the objective breaks no placement rule (others unmoved).

    First the closed-form pull back inside the 6" edge band; then rings of growing radius
    around it (0.25" apart, then 0.01" apart inside the first ring that holds a legal spot),
    each candidate checked by the engine's wordless placement test, and the winner confirmed
    by ``violations_if_placed``.
    """
    objective = scenario.objective(objective_id)
    rules = placement_rules(scenario)
    rim = objective.radius if rules.by_edge else 0.0
    others = [(o.x, o.y, o.radius) for o in scenario.objectives if o.id != objective_id]
    margin = rules.edge + rim + NUDGE_MARGIN
    bf = scenario.battlefield
    start = (
        min(max(objective.x, margin), bf.width - margin),
        min(max(objective.y, margin), bf.depth - margin),
    )

    def fits(x: float, y: float) -> bool:
        return placement_fits(rules, x, y, objective.radius, others)

    def first_on_ring(radius: float) -> tuple[float, float] | None:
        steps = max(24, int(2 * math.pi * radius / NUDGE_SEARCH_STEP))
        found = [
            (start[0] + radius * math.cos(a), start[1] + radius * math.sin(a))
            for a in (2 * math.pi * k / steps for k in range(steps))
        ]
        legal = [p for p in found if fits(*p)]
        if not legal:
            return None
        return min(legal, key=lambda p: math.dist(p, (objective.x, objective.y)))

    spot: tuple[float, float] | None = start if fits(*start) else None
    coarse = NUDGE_COARSE_STEP
    radius = coarse
    while spot is None and radius <= NUDGE_SEARCH_REACH:
        if first_on_ring(radius) is not None:
            fine = radius - coarse
            while spot is None and fine <= radius + 1e-9:
                fine += NUDGE_FINE_STEP
                spot = first_on_ring(fine)
        radius += coarse
    if spot is None or violations_if_placed(scenario, replace(objective, x=spot[0], y=spot[1])):
        return None
    return spot


def placement_fix(scenario: Scenario, objective_id: str) -> PlacementFix | None:
    """The smallest fix for ``objective_id``: nudge the others if its own spot is legal, else
    move it to the nearest legal spot."""
    objective = scenario.objective(objective_id)
    own = [
        v
        for v in violations_if_placed(scenario, objective)
        if len(v.items) < 2 or v.items[1] not in {o.id for o in scenario.objectives}
    ]
    if not own:
        nudge = smallest_nudge(scenario, objective_id, at=(objective.x, objective.y))
        if nudge is not None:
            moved = ", ".join(
                f"{oid} {inches(math.dist(a, b))}" for oid, (a, b) in sorted(nudge.moves.items())
            )
            return PlacementFix(
                objective_id, f"Nudge {moved} so {objective_id} fits here", nudge.apply
            )
    spot = _legal_spot(scenario, objective_id)
    if spot is None:
        return None
    distance = math.dist((objective.x, objective.y), spot)
    return PlacementFix(
        objective_id,
        f"Move {objective_id} {inches(round(distance, 4))} to the nearest legal spot",
        lambda s: _moved_objective(s, objective_id, *spot),
    )


# ------------------------------------------------------------------------------ the panel


class ScrollhammerPanel(QWidget):
    """Mission, set-up checks, battle state, odds and the Relic for a Scrollhammer game."""

    def __init__(self, context: RulesetContext) -> None:
        super().__init__()
        self.setObjectName("ScrollhammerPanel")
        self.context = context
        self.rng: random.Random = random.Random()
        self.report: ScrollhammerReport | None = None
        self.fixes: list[PlacementFix] = []
        self._fix_inputs: tuple[Any, ...] | None = None
        self._fix_cache: dict[str, PlacementFix | None] = {}
        self._updating = False
        self.tabs = QTabWidget()
        self.tabs.addTab(scrolled(self._setup_tab()), "Set-up")
        self.tabs.addTab(scrolled(self._battle_tab()), "Battle")
        self.tabs.addTab(scrolled(self._odds_tab()), "Odds")
        self.tabs.addTab(scrolled(self._relic_tab()), "Relic")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        self.summary = rich_label(name="sh-summary")
        layout.addWidget(self.summary)
        layout.addWidget(self.tabs)

    # ------------------------------------------------------------------ tabs

    def _setup_tab(self) -> QWidget:
        page = QWidget()
        layout = QVBoxLayout(page)
        form = QFormLayout()
        self.mission_box = compact_combo()
        self.mission_box.setObjectName("sh-mission")
        self.mission_box.addItem("(no mission chosen)", None)
        for mission in standard_missions():
            self.mission_box.addItem(f"{mission.numeral}. {mission.name}", mission.id)
        self.mission_box.currentIndexChanged.connect(self._on_mission)
        roll = action_button("Roll the D6 chart", "sh-roll-mission", self.roll_mission)
        row = QHBoxLayout()
        row.addWidget(self.mission_box, 1)
        row.addWidget(roll)
        form.addRow("Mission", row)
        self.halves_box = compact_combo()
        self.halves_box.setObjectName("sh-halves")
        self.halves_box.addItem("as the mission says", None)
        self.halves_box.addItem("long edge", "long-edge")
        self.halves_box.addItem("diagonal", "diagonal")
        self.halves_box.currentIndexChanged.connect(
            lambda _i: self._set_option("table_halves", self.halves_box.currentData())
        )
        self.diagonal_box = compact_combo()
        self.diagonal_box.setObjectName("sh-diagonal")
        for corners in ("SW-NE", "NW-SE"):
            self.diagonal_box.addItem(f"diagonal {corners}", corners)
        self.diagonal_box.currentIndexChanged.connect(
            lambda _i: self._set_option("diagonal", self.diagonal_box.currentData())
        )
        halves_row = QHBoxLayout()
        halves_row.addWidget(self.halves_box, 1)
        halves_row.addWidget(self.diagonal_box, 1)
        form.addRow("Table halves", halves_row)
        layout.addLayout(form)
        self.halves_text = rich_label(name="sh-halves-text")
        layout.addWidget(self.halves_text)

        layout.addWidget(heading("Set-up checks (live)"))
        self.checks = QListWidget()
        self.checks.setObjectName("sh-checks")
        self.checks.setWordWrap(True)
        self.checks.setMinimumHeight(90)
        layout.addWidget(self.checks)
        self.fix_host = QVBoxLayout()
        layout.addLayout(self.fix_host)
        self.fix_buttons: list[QPushButton] = []

        self.terrain_text = add_section(layout, "Terrain density per 2' x 2' section", "sh-terrain")
        roll_terrain = action_button(
            "Roll terrain density (a D6 per section)", "sh-roll-terrain", self.roll_terrain
        )
        layout.addWidget(roll_terrain)
        layout.addStretch(1)
        return page

    def _battle_tab(self) -> QWidget:
        page = QWidget()
        layout = QVBoxLayout(page)
        form = QFormLayout()
        self.turn_spin = QSpinBox()
        self.turn_spin.setObjectName("sh-turn")
        self.turn_spin.setRange(0, 7)
        self.turn_spin.setSpecialValueText("before the battle (deploying)")
        self.turn_spin.valueChanged.connect(self._on_turn)
        form.addRow("Game turn", self.turn_spin)
        layout.addLayout(form)

        self.control_text = add_section(layout, "Controlling objectives", "sh-control")
        self.choice_host = QFormLayout()
        layout.addLayout(self.choice_host)
        self.choice_boxes: dict[str, QComboBox] = {}

        self.night_text = add_section(layout, "Night Fighting", "sh-night")
        night_row = QHBoxLayout()
        self.night_roll = action_button(
            "Roll the Night Fighting die due", "sh-night-roll", self.roll_night
        )
        self.bands_box = QCheckBox("Draw Night Fighting bands for the selected unit")
        self.bands_box.setObjectName("sh-bands")
        self.bands_box.setChecked(True)
        night_row.addWidget(self.night_roll)
        night_row.addWidget(self.bands_box)
        layout.addLayout(night_row)

        self.seize_text = add_section(layout, "First turn: Seize the Initiative", "sh-seize")
        seize = action_button("Try to Seize the Initiative (D6)", "sh-seize-roll", self.roll_seize)
        layout.addWidget(seize)

        self.length_text = add_section(layout, "Variable Game Length", "sh-length")
        end_roll = action_button("End this game turn (roll if due)", "sh-end-turn", self.end_turn)
        layout.addWidget(end_roll)

        layout.addWidget(heading("Reserves"))
        self.reserve_list = QListWidget()
        self.reserve_list.setObjectName("sh-reserves")
        self.reserve_list.setMaximumHeight(110)
        self.reserve_list.itemChanged.connect(self._on_reserve_toggled)
        layout.addWidget(self.reserve_list)
        self.reserve_text = rich_label(name="sh-reserve-text")
        layout.addWidget(self.reserve_text)
        reserve_roll = action_button(
            "Make the Reserve Rolls for this turn", "sh-reserve-roll", self.roll_reserves
        )
        layout.addWidget(reserve_roll)

        self.vp_text = add_section(layout, "Victory Points (if the game ended now)", "sh-vp")
        layout.addStretch(1)
        return page

    def _odds_tab(self) -> QWidget:
        page = QWidget()
        layout = QVBoxLayout(page)
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
        return page

    def _relic_tab(self) -> QWidget:
        page = QWidget()
        layout = QVBoxLayout(page)
        self.relic_text = rich_label(name="sh-relic")
        layout.addWidget(self.relic_text)
        row = QHBoxLayout()
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
        return page

    # ------------------------------------------------------------------ refresh

    def show_report(
        self, scenario: Scenario, report: ScrollhammerReport | None, error: str
    ) -> None:
        self._updating = True
        try:
            self.report = report
            if report is None:
                self.summary.setText(error_html(error))
                return
            self._show_setup(scenario, report)
            self._show_battle(scenario, report)
            self._show_odds(scenario, report.mission)
            self._show_relic(scenario)
        finally:
            self._updating = False

    def _show_setup(self, scenario: Scenario, report: ScrollhammerReport) -> None:
        mission = report.mission
        _select(self.mission_box, mission.id if mission else None)
        _select(self.halves_box, scenario.option("table_halves"))
        _select(self.diagonal_box, scenario.option("diagonal", "SW-NE"))
        self.diagonal_box.setEnabled(report.halves.kind == "diagonal")
        violations = report.violations
        verdict = (
            "<span style='color:#1e8449'>set-up legal</span>"
            if not violations
            else f"<span style='color:#d0021b'>{len(violations)} set-up problem(s)</span>"
        )
        title = mission.title if mission else "no mission chosen"
        self.summary.setText(f"<b>Scrollhammer: {escape(title)}</b> \u2022 {verdict}")
        halves = report.halves
        edges = "; ".join(
            f"{player_html(scenario, h.player)}: {h.edge.name} board edge" for h in halves.players
        )
        kind = "diagonal " + str(halves.diagonal) if halves.kind == "diagonal" else "long edge"
        self.halves_text.setText(
            f"Centre line: {kind}. {edges}. Deployment zones: more than "
            f"{inches(halves.zone_distance)} from the centre line."
        )
        self.checks.clear()
        for violation in violations:
            item = QListWidgetItem(f"\u2717 {violation.rule}: {violation.message}")
            item.setForeground(QColor("#b00020"))
            item.setData(Qt.ItemDataRole.UserRole, violation)
            self.checks.addItem(item)
        if not violations:
            item = QListWidgetItem(
                "\u2713 Deployment, terrain density and spacing, objective placement and the "
                "mission's set-up all pass."
            )
            item.setForeground(QColor("#1e8449"))
            self.checks.addItem(item)
        self._show_fixes(scenario, report.objective_placement)
        rows = []
        for count in report.terrain.sections:
            over = count.limit is not None and len(count.pieces) > count.limit
            colour = "#d0021b" if over else "#222"
            roll = "-" if count.roll is None else str(count.roll)
            limit = "-" if count.limit is None else str(count.limit)
            rows.append(
                f"<tr style='color:{colour}'><td>{count.section_id}</td><td>{roll}</td>"
                f"<td>{limit}</td><td>{escape(', '.join(count.pieces) or '-')}</td></tr>"
            )
        self.terrain_text.setText(
            "<table cellspacing='4'><tr><th>section</th><th>D6</th><th>max</th>"
            f"<th>pieces</th></tr>{''.join(rows)}</table>"
        )

    def _show_fixes(self, scenario: Scenario, placement: tuple[Violation, ...]) -> None:
        for button in self.fix_buttons:
            self.fix_host.removeWidget(button)
            button.deleteLater()
        self.fix_buttons = []
        self.fixes = []
        offenders: list[str] = []
        for violation in placement:
            if violation.rule == PLACEMENT_RULE and violation.items:
                first = violation.items[0]
                if first not in offenders:
                    offenders.append(first)
        # Fixes depend on the objectives, terrain, table and options only: a unit dragged
        # across the table must not re-run the search on every step.
        inputs = (scenario.objectives, scenario.terrain, scenario.battlefield, scenario.options)
        if self._fix_inputs is None or any(
            a is not b for a, b in zip(inputs, self._fix_inputs, strict=True)
        ):
            self._fix_inputs = inputs
            self._fix_cache = {}
        for objective_id in offenders:
            if objective_id not in self._fix_cache:
                try:
                    self._fix_cache[objective_id] = placement_fix(scenario, objective_id)
                except WarplanError as error:
                    self.context.message.emit(f"No nudge for {objective_id}: {error}")
                    self._fix_cache[objective_id] = None
            fix = self._fix_cache[objective_id]
            if fix is None:
                continue
            button = action_button(
                f"Fix: {fix.text}",
                f"sh-fix-{objective_id}",
                lambda _c=False, fix=fix: self.apply_fix(fix),
            )
            button.setToolTip(
                "The smallest nudge that makes the placement legal (one undoable edit)."
            )
            self.fix_host.addWidget(button)
            self.fix_buttons.append(button)
            self.fixes.append(fix)

    def _show_battle(self, scenario: Scenario, report: ScrollhammerReport) -> None:
        state = ScrollhammerState.from_scenario(scenario)
        self.turn_spin.setValue(state.turn or 0)
        control = report.control
        rows = []
        for holding in control.objectives:
            who = " and ".join(player_html(scenario, p) for p in holding.controlled_by) or "nobody"
            held = ", ".join(f"{escape(u)}" for u in holding.holders.values()) or "-"
            rows.append(
                f"<tr><td>{escape(holding.objective_id)}</td><td>{who}</td><td>{held}</td></tr>"
            )
        units = []
        for choice in control.units:
            target = choice.controls or "nothing"
            how = "declared" if choice.declared else "assigned by Warplan"
            options = ", ".join(choice.could_control) or "none in range"
            units.append(
                f"<li>{escape(choice.unit_id)} ({player_html(scenario, choice.player)}, scoring) "
                f"holds <b>{escape(target)}</b> ({how}; could hold: {escape(options)})</li>"
            )
        self.control_text.setText(
            f"Scoring units within {inches(control.range)} control an objective unless an enemy "
            "denial unit is also within range; each unit controls one objective."
            "<table cellspacing='4'><tr><th>objective</th><th>controlled by</th>"
            f"<th>held by</th></tr>{''.join(rows)}</table><ul>{''.join(units)}</ul>"
        )
        self._show_choices(scenario, report)
        self._show_night(scenario, report.mission, state)
        self._show_seize(scenario, report.mission, state)
        self._show_length(state)
        self._show_reserves(scenario, state)
        victory = report.victory
        if victory is None:
            self.vp_text.setText("Choose a mission to count Victory Points.")
        else:
            tally = " : ".join(
                f"{player_html(scenario, p)} {victory.vp.get(p, 0)}VP"
                for p in scenario.player_ids()
            )
            lines = "".join(
                f"<li>{player_html(scenario, line.player)} +{line.vp}: {escape(line.source)} "
                f"({escape(line.reason)})</li>"
                for line in victory.lines
            )
            self.vp_text.setText(
                f"{tally} \u2014 <b>{escape(victory.outcome)}</b> ({escape(victory.reason)})"
                f"<ul>{lines}</ul>"
            )

    def _show_choices(self, scenario: Scenario, report: ScrollhammerReport) -> None:
        while self.choice_host.rowCount():
            self.choice_host.removeRow(0)
        self.choice_boxes = {}
        for choice in report.control.units:
            if not choice.has_choice:
                continue
            box = compact_combo()
            box.setObjectName(f"sh-choice-{choice.unit_id}")
            box.addItem("let Warplan choose (most objectives)", None)
            for objective_id in choice.could_control:
                box.addItem(objective_id, objective_id)
            _select(box, choice.controls if choice.declared else None)
            box.currentIndexChanged.connect(
                lambda _i, unit=choice.unit_id, box=box: self._declare(unit, box.currentData())
            )
            self.choice_host.addRow(f"{choice.unit_id} controls", box)
            self.choice_boxes[choice.unit_id] = box

    def _show_night(
        self, scenario: Scenario, mission: StandardMission | None, state: ScrollhammerState
    ) -> None:
        if mission is None:
            self.night_text.setText("Choose a mission: Night Fighting depends on it.")
            self.night_roll.setEnabled(False)
            return
        scheme = night_fighting_scheme(mission)
        if scheme == "none":
            self.night_text.setText(f"{escape(mission.name)} does not use Night Fighting.")
            self.night_roll.setEnabled(False)
            return
        turn1 = bool(scenario.option("night_fighting_turn1_lasts", False))
        rows = []
        due = None
        runs: list[tuple[int, int, str, str]] = []
        for turn in range(1, 8):
            status = night_fighting_status(
                mission, state.night_fighting_rolls, turn, turn1_lasts=turn1
            )
            if status.roll_due is not None and due is None:
                due = status.roll_due
            mark = "\u263e night" if status.active else ("? roll due" if status.roll_due else "day")
            if runs and runs[-1][2:] == (mark, status.reason):
                runs[-1] = (runs[-1][0], turn, mark, status.reason)
            else:
                runs.append((turn, turn, mark, status.reason))
        for first, last, mark, reason in runs:
            turns = f"turn {first}" if first == last else f"turns {first}-{last}"
            current = state.turn is not None and first <= state.turn <= last
            bold = "font-weight:bold;" if current else ""
            rows.append(
                f"<tr style='{bold}'><td>{turns}</td><td>{mark}</td><td>{escape(reason)}</td></tr>"
            )
        rolls = (
            ", ".join(
                f"{'before deployment' if k == 0 else f'turn {k}'}: {v}"
                for k, v in sorted(state.night_fighting_rolls.items())
            )
            or "none yet"
        )
        name = "The Shimmer of Dawn" if scheme == "shimmer-of-dawn" else "Night Fighting"
        due_text = "No roll is due."
        if due is not None:
            when = "before deployment" if due.turn == 0 else f"at the start of turn {due.turn}"
            due_text = f"Due now: a D6 {when} ({due.needed}+: {escape(due.effect)})."

        self.night_text.setText(
            f"<b>{name}</b> schedule. Rolls: {escape(rolls)}. {due_text}"
            f"<table cellspacing='3'>{''.join(rows)}</table>"
            'Bands from the selected unit: under 12" normal; 12"-24" Stealth (+1); '
            '24"-36" Stealth (+2); over 36" hidden.'
        )
        self.night_roll.setEnabled(due is not None)

    def _show_seize(
        self, scenario: Scenario, mission: StandardMission | None, state: ScrollhammerState
    ) -> None:
        chance = seize_the_initiative_probability()
        first = state.deployed_first
        if mission is None or first is None:
            self.seize_text.setText(
                f"The player who deployed second seizes the initiative on a 6: {percent(chance)}. "
                "Record who deployed first (New game) to decide the first turn."
            )
            return
        second = scenario.opponent_of(first)
        decided = first_turn(mission, first, second)
        goes = state.first_player or decided.player
        self.seize_text.setText(
            f"{player_html(scenario, first)} deployed first. {escape(decided.reason)} "
            f"Chance to seize: {percent(chance)}. First turn: {player_html(scenario, goes)}."
        )

    def _show_length(self, state: ScrollhammerState) -> None:
        from engine.rulesets.scrollhammer.game_flow import game_length_distribution

        odds = ", ".join(
            f"ends after turn {t}: {percent(p)}" for t, p in game_length_distribution().items()
        )
        turn = state.turn
        now = f"Game turn {turn}." if turn else "The battle has not started."
        self.length_text.setText(f"{now} From the start: {odds}.")

    def _show_reserves(self, scenario: Scenario, state: ScrollhammerState) -> None:
        fill_unit_checklist(self.reserve_list, scenario, scenario.units, state.reserves)
        from engine.rulesets.scrollhammer.game_flow import reserve_arrival_distribution

        odds = ", ".join(
            f"turn {t}: {percent(p)}" for t, p in reserve_arrival_distribution().items()
        )
        arrived = ", ".join(sorted(state.arrived_from_reserve)) or "none"
        self.reserve_text.setText(
            f"Tick the units held in reserve. A unit arrives (from its own board edge) {odds}. "
            f"Arrived so far: {escape(arrived)}."
        )

    def _show_odds(self, scenario: Scenario, mission: StandardMission | None) -> None:
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

    def _show_relic(self, scenario: Scenario) -> None:
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

    # ------------------------------------------------------------------ edits

    def _set_option(self, key: str, value: Any) -> None:
        if self._updating:
            return
        self.context.edit(lambda s: with_option(s, key, value), f"Scrollhammer: {key} {value}")

    def _on_mission(self, _index: int) -> None:
        if self._updating:
            return
        mission = self.mission_box.currentData()
        name = self.mission_box.currentText()
        self.context.edit(lambda s: with_option(s, "mission", mission), f"Mission: {name}")

    def roll_mission(self) -> bool:
        rolled = roll_mission(self.rng)
        return self.context.edit(
            lambda s: with_option(s, "mission", rolled.mission.id),
            f"Rolled {rolled.roll} on the mission chart: {rolled.mission.title}",
        )

    def roll_terrain(self) -> bool:
        grid = battlefield_sections(
            self.context.scenario.battlefield, self.context.scenario.option("section_size")
        )
        rolls = roll_terrain_density(grid, self.rng)
        text = ", ".join(f"{k} {v}" for k, v in rolls.items())
        return self.context.edit(
            lambda s: with_game_key(s, SECTION, "terrain_density", rolls),
            f"Terrain density rolled: {text}",
        )

    def apply_fix(self, fix: PlacementFix) -> bool:
        return self.context.edit(fix.apply, fix.text)

    def _on_turn(self, value: int) -> None:
        if self._updating:
            return
        self.context.edit(
            lambda s: with_game_key(s, SECTION, "turn", value or None),
            f"Game turn {value}" if value else "Before the battle",
        )

    def _declare(self, unit_id: str, objective_id: str | None) -> None:
        if self._updating:
            return

        def make(s: Scenario) -> Scenario:
            choices = dict(game_section(s, SECTION).get("control_choices", {}))
            if objective_id is None:
                choices.pop(unit_id, None)
            else:
                choices[unit_id] = objective_id
            return with_game_key(s, SECTION, "control_choices", choices or None)

        self.context.edit(make, f"{unit_id} controls {objective_id or '(Warplan chooses)'}")

    def roll_night(self) -> bool:
        scenario = self.context.scenario
        mission = mission_of(scenario.option("mission"))
        if mission is None:
            return False
        state = ScrollhammerState.from_scenario(scenario)
        turn = state.turn or 1
        record, status = roll_night_fighting(
            mission,
            state.night_fighting_rolls,
            turn,
            self.rng,
            turn1_lasts=bool(scenario.option("night_fighting_turn1_lasts", False)),
        )
        stored = {str(k): v for k, v in sorted(record.items())}
        return self.context.edit(
            lambda s: with_game_key(s, SECTION, "night_fighting_rolls", stored),
            f"Night Fighting rolled: {status.reason}",
        )

    def roll_seize(self) -> bool:
        scenario = self.context.scenario
        mission = mission_of(scenario.option("mission"))
        state = ScrollhammerState.from_scenario(scenario)
        if mission is None or state.deployed_first is None:
            self.context.message.emit("Choose a mission and who deployed first before seizing.")
            return False
        second = scenario.opponent_of(state.deployed_first)
        decided = first_turn(mission, state.deployed_first, second, self.rng.randint(1, 6))
        return self.context.edit(
            lambda s: with_game_key(s, SECTION, "first_player", decided.player), decided.reason
        )

    def end_turn(self) -> bool:
        scenario = self.context.scenario
        state = ScrollhammerState.from_scenario(scenario)
        if state.turn is None:
            return self.context.edit(
                lambda s: with_game_key(s, SECTION, "turn", 1), "The battle begins: game turn 1"
            )
        result = roll_game_end(state.turn, self.rng)
        self.length_text.setText(escape(result.reason))
        if not result.continues:
            self.context.message.emit(result.reason)
            return False
        following = state.turn + 1
        return self.context.edit(
            lambda s: with_game_key(s, SECTION, "turn", following),
            f"{result.reason} Game turn {following}.",
        )

    def _on_reserve_toggled(self, item: QListWidgetItem) -> None:
        if self._updating:
            return
        unit_id, held = checked_unit(item)
        self.context.edit(
            lambda s: with_listed(s, SECTION, "reserves", unit_id, held),
            f"{unit_id} {'held in' if held else 'not in'} reserve",
        )

    def roll_reserves(self) -> bool:
        scenario = self.context.scenario
        state = ScrollhammerState.from_scenario(scenario)
        if not state.reserves:
            self.context.message.emit("No unit is held in reserve.")
            return False
        turn = max(state.turn or 2, 2)
        try:
            rolls = roll_reserves(state.reserves, turn, self.rng)
        except WarplanError as error:
            self.context.message.emit(str(error))
            return False
        arrived = sorted(r.unit_id for r in rolls if r.arrives)
        text = " ".join(r.reason for r in rolls)
        self.reserve_text.setText(escape(text))

        def make(s: Scenario) -> Scenario:
            section = game_section(s, SECTION)
            left = sorted(set(section.get("reserves", [])) - set(arrived))
            came = sorted(set(section.get("arrived_from_reserve", [])) | set(arrived))
            staged = with_game_key(s, SECTION, "reserves", left or None)
            return with_game_key(staged, SECTION, "arrived_from_reserve", came or None)

        if not arrived:
            self.context.message.emit(text)
            return False
        return self.context.edit(make, text)

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
        result = roll_relic(self.rng)

        def make(s: Scenario) -> Scenario:
            relic = dict(game_section(s, SECTION).get("relic", {}))
            relic["result"] = result.roll
            return with_game_key(s, SECTION, "relic", relic)

        return self.context.edit(make, f"The Relic is {result.roll}: {result.name}")


def _zone_label_point(zone: Any, inward: tuple[float, float]) -> tuple[float, float]:
    """Where a zone's name goes: the middle of its side on the board edge, 1.5" inside (the
    middle of the zone is where models stand)."""
    ix, iy = inward
    depth = [p[0] * ix + p[1] * iy for p in zone]
    edge_points = [p for p, d in zip(zone, depth, strict=True) if d <= min(depth) + 1e-6]
    x = sum(p[0] for p in edge_points) / len(edge_points)
    y = sum(p[1] for p in edge_points) / len(edge_points)
    return x + ix * 1.5, y + iy * 1.5


def _select(box: QComboBox, value: Any) -> None:
    index = box.findData(value)
    box.setCurrentIndex(index if index >= 0 else 0)


# ------------------------------------------------------------------------------ the overlay


class ScrollhammerOverlay(RulesetOverlay):
    """Centre line, deployment zones, terrain sections, violations and Night Fighting bands."""

    def __init__(self, scene: Any) -> None:
        super().__init__(
            {
                "halves": OverlayLayer(scene, Z_DEPLOYMENT + 0.1),
                "sections": OverlayLayer(scene, Z_OVERLAY_LOW - 0.2),
                "night": OverlayLayer(scene, Z_OVERLAY_LOW - 0.1),
                "violations": OverlayLayer(scene, Z_OVERLAY_HIGH + 0.4),
            }
        )
        self.night_view: NightFightingView | None = None

    def clear(self) -> None:
        super().clear()
        self.night_view = None

    def show_report(self, scenario: Scenario, report: ScrollhammerReport) -> None:
        self._halves(scenario, report)
        self._sections(report)
        self.show_violations(report.violations, "sh")

    def _halves(self, scenario: Scenario, report: ScrollhammerReport) -> None:
        layer = self.layers["halves"]
        layer.begin()
        halves = report.halves
        (x0, y0), (x1, y1) = halves.line

        def build_line() -> tuple[list[Stroke], LabelSpec]:
            path = QPainterPath(scene_point(x0, y0))
            path.lineTo(scene_point(x1, y1))
            pen = cosmetic_pen(QColor("#37474f"), 1.6, Qt.PenStyle.DashDotLine)
            mid = scene_point((x0 + x1) / 2, (y0 + y1) / 2)
            return [Stroke(path, pen)], LabelSpec(
                "centre line", QPointF(mid), QColor("#37474f"), QColor(255, 255, 255, 200)
            )

        layer.put("line", halves.line, build_line)
        for half in halves.players:
            colour = player_colour(scenario, half.player)
            text = f"{player_name(scenario, half.player)} deployment zone ({half.edge.name} edge)"
            anchor = _zone_label_point(half.zone, half.edge.inward)

            def build_zone(
                zone: Any = half.zone,
                colour: QColor = colour,
                text: str = text,
                anchor: tuple[float, float] = anchor,
            ) -> tuple[list[Stroke], LabelSpec]:
                path = polygon_path(zone)
                return [
                    Stroke(path, cosmetic_pen(colour, 1.5), QBrush(translucent(colour, 38)))
                ], LabelSpec(text, scene_point(*anchor), colour.darker(160), None, bold=True)

            layer.put(("zone", half.player), (half.zone, colour.name(), text), build_zone)
        layer.end()

    def _sections(self, report: ScrollhammerReport) -> None:
        layer = self.layers["sections"]
        layer.begin()
        counts = {c.section_id: c for c in report.terrain.sections}
        for section in report.terrain.grid.sections:
            count = counts.get(section.id)
            pieces = len(count.pieces) if count else 0
            limit = count.limit if count else None
            over = limit is not None and pieces > limit
            text = (
                f"{section.id}: {pieces}/{limit} pieces"
                if limit is not None
                else f"{section.id}: {pieces} pieces (no D6 yet)"
            )
            signature = (section.polygon, text, over)

            def build(
                polygon: Any = section.polygon, text: str = text, over: bool = over
            ) -> tuple[list[Stroke], LabelSpec]:
                colour = QColor("#d0021b") if over else QColor(60, 60, 60, 110)
                path = polygon_path(polygon)
                xs = [p[0] for p in polygon]
                ys = [p[1] for p in polygon]
                corner = scene_point(min(xs) + 0.3, max(ys) - 0.3)
                return [Stroke(path, cosmetic_pen(colour, 1.0, Qt.PenStyle.DotLine))], LabelSpec(
                    text,
                    QPointF(corner.x() + 2.2, corner.y()),
                    QColor("white") if over else QColor("#444444"),
                    translucent(colour, 220) if over else QColor(255, 255, 255, 150),
                    anchor="below",
                )

            layer.put(("section", section.id), signature, build)
        layer.end()

    def show_night(self, scenario: Scenario, view: NightFightingView | None) -> None:
        """Band areas around the shooter and each enemy unit's band (``None``: nothing)."""
        layer = self.layers["night"]
        self.night_view = view
        layer.begin()
        if view is not None:
            for area in view.areas:
                if area.geometry.is_empty:
                    continue
                name = area.band.name

                def build(
                    geometry: BaseGeometry = area.geometry, name: str = name
                ) -> tuple[list[Stroke], None]:
                    fill = NIGHT_COLOURS.get(name, QColor(0, 0, 0, 60))
                    edge = cosmetic_pen(QColor(20, 30, 80, 170), 1.0, Qt.PenStyle.DashLine)
                    return [Stroke(geometry_path(geometry), edge, QBrush(fill))], None

                layer.put(("band", name), (view.shooter_id, area.geometry.wkb), build)
            for target in view.targets:
                try:
                    unit = scenario.unit(target.target_id)
                except KeyError:
                    continue
                text = f"{target.band.name}: {inches(round(target.distance, 3))}"

                def build_target(
                    unit: Any = unit, text: str = text, points: Any = target.points
                ) -> tuple[list[Stroke], LabelSpec]:
                    path = QPainterPath(scene_point(*points[0]))
                    path.lineTo(scene_point(*points[1]))
                    pen = cosmetic_pen(QColor("#1a237e"), 1.4, Qt.PenStyle.DotLine)
                    top = max(m.y + m.base.bounding_radius for m in unit.models)
                    mean_x = sum(m.x for m in unit.models) / len(unit.models)
                    # Above the unit's own name tag, which sits just over its bases.
                    return [Stroke(path, pen)], LabelSpec(
                        text,
                        scene_point(mean_x, top + 1.5),
                        QColor("white"),
                        QColor(26, 35, 126, 225),
                        anchor="above",
                    )

                layer.put(
                    ("target", target.target_id),
                    (text, target.points, tuple((m.x, m.y) for m in unit.models)),
                    build_target,
                )
            self._band_marks(layer, view)
        layer.end()

    def _band_marks(self, layer: OverlayLayer, view: NightFightingView) -> None:
        """Tags on each band's outer edge ("12\"", "24\"", "36\"")."""
        for area in view.areas:
            limit = area.band.up_to
            if limit is None or area.geometry.is_empty:
                continue
            bounds = area.geometry.bounds
            text = f"{area.band.name} to {inches(limit)}"

            def build(bounds: Any = bounds, text: str = text) -> tuple[list[Stroke], LabelSpec]:
                x = (bounds[0] + bounds[2]) / 2
                return [], LabelSpec(
                    text,
                    scene_point(x, bounds[3]),
                    QColor("#1a237e"),
                    QColor(255, 255, 255, 190),
                    anchor="below",
                )

            layer.put(("mark", area.band.name), (bounds, text), build)


def night_view_for(scenario: Scenario, unit_id: str | None) -> NightFightingView | None:
    """The Night Fighting bands to draw for the selected unit, when the mission has them."""
    if unit_id is None:
        return None
    mission = mission_of(scenario.option("mission"))
    if mission is not None and night_fighting_scheme(mission) == "none":
        return None
    try:
        unit = scenario.unit(unit_id)
    except KeyError:
        return None
    if not unit.models:
        return None
    return night_fighting_view(scenario, unit_id)


def compute_report(scenario: Scenario) -> tuple[ScrollhammerReport | None, str]:
    try:
        return scrollhammer_report(scenario), ""
    except WarplanError as error:
        return None, f"The Scrollhammer checks cannot run: {error}"


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
