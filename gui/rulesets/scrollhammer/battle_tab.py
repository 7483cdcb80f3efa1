"""The Battle tab: game turn, objective control and declared choices, Night Fighting, Seize the
Initiative, Variable Game Length, Reserves, Victory Points if the game ended now."""

from __future__ import annotations

from html import escape
from typing import Any

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QListWidget,
    QListWidgetItem,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from engine.errors import WarplanError
from engine.explain import inches
from engine.model import Scenario
from engine.rulesets.scrollhammer import (
    ScrollhammerReport,
    first_turn,
    night_fighting_status,
    roll_game_end,
    roll_night_fighting,
    roll_reserves,
    seize_the_initiative_probability,
)
from engine.rulesets.scrollhammer.game_flow import night_fighting_scheme
from engine.rulesets.scrollhammer.missions import StandardMission, mission_of
from engine.rulesets.scrollhammer.state import ScrollhammerState
from engine.scenario_edits import game_section, with_game_key
from gui.panels.compact import compact_combo
from gui.rulesets.common import (
    Dice,
    RulesetContext,
    action_button,
    add_section,
    checked_unit,
    fill_unit_checklist,
    heading,
    percent,
    player_html,
    rich_label,
    with_listed,
)
from gui.rulesets.scrollhammer.report import SECTION


class BattleTab(QWidget):
    """Game turn, objective control and declared choices, Night Fighting, Seize the"""

    def __init__(self, context: RulesetContext, dice: Dice) -> None:
        super().__init__()
        self.context = context
        self.dice = dice
        self._updating = False
        layout = QVBoxLayout(self)
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
        # One under the other: side by side they made the tab wider than the dock column.
        night_row = QVBoxLayout()
        self.night_roll = action_button(
            "Roll the Night Fighting die due", "sh-night-roll", self.roll_night
        )
        self.bands_box = QCheckBox("Draw Night Fighting bands")
        self.bands_box.setToolTip("The Night Fighting bands round the selected unit, on the board")
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

    def show_state(self, scenario: Scenario, report: ScrollhammerReport) -> None:
        """Show ``scenario``; the widgets' own change signals make no edit meanwhile."""
        self._updating = True
        try:
            self._show(scenario, report)
        finally:
            self._updating = False

    def _show(self, scenario: Scenario, report: ScrollhammerReport) -> None:
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
            self.dice.rng,
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
        decided = first_turn(mission, state.deployed_first, second, self.dice.rng.randint(1, 6))
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
        result = roll_game_end(state.turn, self.dice.rng)
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
            rolls = roll_reserves(state.reserves, turn, self.dice.rng)
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


def _select(box: QComboBox, value: Any) -> None:
    index = box.findData(value)
    box.setCurrentIndex(index if index >= 0 else 0)
