"""The Set-up tab: mission, table halves, live set-up checks with one-click nudges, terrain
density per 2' x 2' section."""

from __future__ import annotations

from html import escape
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from engine.errors import WarplanError
from engine.explain import Violation, inches
from engine.model import Scenario
from engine.rulesets.scrollhammer import (
    PlacementFix,
    ScrollhammerReport,
    battlefield_sections,
    placement_fix,
    roll_mission,
    roll_terrain_density,
    standard_missions,
)
from engine.rulesets.scrollhammer.objective_placement import RULE as PLACEMENT_RULE
from engine.scenario_edits import with_game_key, with_option
from gui.panels.compact import compact_combo
from gui.rulesets.common import (
    Dice,
    RulesetContext,
    action_button,
    add_section,
    heading,
    player_html,
    rich_label,
)
from gui.rulesets.scrollhammer.report import SECTION


class SetupTab(QWidget):
    """Mission, table halves, live set-up checks with one-click nudges, terrain"""

    def __init__(self, context: RulesetContext, dice: Dice) -> None:
        super().__init__()
        self.context = context
        self.dice = dice
        self._updating = False
        self.fixes: list[PlacementFix] = []
        self._fix_inputs: tuple[Any, ...] | None = None
        self._fix_cache: dict[str, PlacementFix | None] = {}
        layout = QVBoxLayout(self)
        form = QFormLayout()
        self.mission_box = compact_combo()
        self.mission_box.setObjectName("sh-mission")
        self.mission_box.addItem("(no mission chosen)", None)
        for mission in standard_missions():
            self.mission_box.addItem(f"{mission.numeral}. {mission.name}", mission.id)
        self.mission_box.currentIndexChanged.connect(self._on_mission)
        roll = action_button("Roll the D6 chart", "sh-roll-mission", self.roll_mission)
        # One control a row: side by side they made the tab wider than the dock column.
        form.addRow("Mission", self.mission_box)
        form.addRow("", roll)
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
        form.addRow("Table halves", self.halves_box)
        form.addRow("", self.diagonal_box)
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

    def show_state(self, scenario: Scenario, report: ScrollhammerReport) -> None:
        """Show ``scenario``; the widgets' own change signals make no edit meanwhile."""
        self._updating = True
        try:
            self._show(scenario, report)
        finally:
            self._updating = False

    def _show(self, scenario: Scenario, report: ScrollhammerReport) -> None:
        mission = report.mission
        _select(self.mission_box, mission.id if mission else None)
        _select(self.halves_box, scenario.option("table_halves"))
        _select(self.diagonal_box, scenario.option("diagonal", "SW-NE"))
        self.diagonal_box.setEnabled(report.halves.kind == "diagonal")
        violations = report.violations
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
        rolled = roll_mission(self.dice.rng)
        return self.context.edit(
            lambda s: with_option(s, "mission", rolled.mission.id),
            f"Rolled {rolled.roll} on the mission chart: {rolled.mission.title}",
        )

    def roll_terrain(self) -> bool:
        grid = battlefield_sections(
            self.context.scenario.battlefield, self.context.scenario.option("section_size")
        )
        rolls = roll_terrain_density(grid, self.dice.rng)
        text = ", ".join(f"{k} {v}" for k, v in rolls.items())
        return self.context.edit(
            lambda s: with_game_key(s, SECTION, "terrain_density", rolls),
            f"Terrain density rolled: {text}",
        )

    def apply_fix(self, fix: PlacementFix) -> bool:
        return self.context.edit(fix.apply, fix.text)


def _select(box: QComboBox, value: Any) -> None:
    index = box.findData(value)
    box.setCurrentIndex(index if index >= 0 else 0)
