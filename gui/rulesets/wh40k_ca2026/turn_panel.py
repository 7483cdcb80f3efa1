"""The Turn & Ledger dock: where the battle is (battle round, whose turn, which moment), the
step to the next scoring moment, each player's VP and CP, and the VP/CP ledger.

Every change is one undo step replacing the ``game`` section.
"""

from __future__ import annotations

from functools import partial

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from engine.game_state import BATTLE_ROUNDS, TIMINGS
from engine.model import EMPTY, Scenario
from engine.rulesets.wh40k_ca2026 import edits
from engine.score_report import ScoreReport
from gui.panels.compact import compact_combo
from gui.rulesets.wh40k_ca2026.cards_view import PLAYER_COLOURS, card_result
from gui.rulesets.wh40k_ca2026.context import MissionContext

LEDGER_COLUMNS = ("Round", "Player", "What", "VP", "CP")


class TurnLedgerPanel(QWidget):
    """Turn tracker, VP/CP totals and the ledger of every logged change."""

    new_game_requested = Signal()

    def __init__(self, context: MissionContext) -> None:
        super().__init__()
        self.setObjectName("TurnLedgerPanel")
        self.context = context
        self._updating = False

        self.position = QLabel()
        self.position.setObjectName("turn-position")
        font = self.position.font()
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.15)
        self.position.setFont(font)
        self.position.setWordWrap(True)
        self.missing = QLabel()
        self.missing.setWordWrap(True)
        self.start_button = QPushButton("Start turn tracking")
        self.start_button.clicked.connect(self.start_tracking)
        self.new_game_button = QPushButton("New game...")
        self.new_game_button.clicked.connect(self.new_game_requested.emit)

        self.round_box = QSpinBox()
        self.round_box.setRange(*BATTLE_ROUNDS)
        self.round_box.setPrefix("Round ")
        self.player_box = compact_combo()
        self.timing_box = compact_combo()
        for timing in TIMINGS:
            self.timing_box.addItem(edits.TIMING_LABELS[timing], timing)
        self.round_box.valueChanged.connect(lambda _v: self._set_from_fields())
        self.player_box.currentIndexChanged.connect(lambda _i: self._set_from_fields())
        self.timing_box.currentIndexChanged.connect(lambda _i: self._set_from_fields())
        self.next_button = QPushButton("Next step \u25b6")
        self.next_button.setObjectName("turn-next")
        self.next_button.setToolTip(
            "Start of turn \u2192 end of Command phase \u2192 end of turn \u2192 the other "
            "player's turn \u2192 next battle round"
        )
        self.next_button.clicked.connect(self.next_step)
        # Two rows keep the dock narrow enough to share the window with the battlefield.
        fields = QGridLayout()
        fields.addWidget(self.round_box, 0, 0)
        fields.addWidget(self.player_box, 0, 1)
        fields.addWidget(self.timing_box, 1, 0, 1, 2)
        fields.addWidget(self.next_button, 1, 2)
        fields.setColumnStretch(1, 1)
        self.tracker = QWidget()
        tracker_layout = QVBoxLayout(self.tracker)
        tracker_layout.setContentsMargins(0, 0, 0, 0)
        tracker_layout.addLayout(fields)

        # Each player's totals on a line of their own, the buttons below: side by side they
        # made the dock wider than the column it shares with the battlefield.
        self.totals = QGridLayout()
        self.total_labels: list[QLabel] = []
        self.primary_buttons: list[QPushButton] = []
        for slot in range(2):
            label = QLabel()
            label.setTextFormat(Qt.TextFormat.RichText)
            self.total_labels.append(label)
            self.totals.addWidget(label, 2 * slot, 0, 1, 3)
            for column, (text, amount) in enumerate((("+1CP", 1), ("-1CP", -1))):
                button = QPushButton(text)
                button.setObjectName(f"cp-{slot}-{amount:+d}")
                button.clicked.connect(partial(self.change_cp, slot, amount))
                self.totals.addWidget(button, 2 * slot + 1, column)
            score = QPushButton("Score Primary")
            score.setObjectName(f"score-primary-{slot}")
            score.setToolTip("Add what the Primary Mission scores now to the VP and the ledger")
            score.clicked.connect(partial(self.score_primary, slot))
            self.primary_buttons.append(score)
            self.totals.addWidget(score, 2 * slot + 1, 2)
        self.totals.setColumnStretch(2, 1)

        self.ledger = QTableWidget(0, len(LEDGER_COLUMNS))
        self.ledger.setObjectName("ledger")
        self.ledger.setHorizontalHeaderLabels(LEDGER_COLUMNS)
        self.ledger.verticalHeader().setVisible(False)
        self.ledger.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        header = self.ledger.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        self.ledger_note = QLabel()
        self.ledger_note.setWordWrap(True)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.position)
        layout.addWidget(self.missing)
        buttons = QHBoxLayout()
        buttons.addWidget(self.start_button)
        buttons.addWidget(self.new_game_button)
        buttons.addStretch(1)
        layout.addLayout(buttons)
        layout.addWidget(self.tracker)
        self.scores = QWidget()
        scores_layout = QVBoxLayout(self.scores)
        scores_layout.setContentsMargins(0, 0, 0, 0)
        scores_layout.addLayout(self.totals)
        scores_layout.addWidget(QLabel("VP/CP ledger:"))
        scores_layout.addWidget(self.ledger, 1)
        scores_layout.addWidget(self.ledger_note)
        self.other_ruleset = QLabel()
        self.other_ruleset.setWordWrap(True)
        layout.addWidget(self.scores, 1)
        layout.addWidget(self.other_ruleset)
        layout.addStretch(0)
        context.refreshed.connect(self.refresh)
        self.refresh(context.scenario)

    # ------------------------------------------------------------------ display

    def refresh(self, scenario: Scenario) -> None:
        self._updating = True
        try:
            self._refresh(scenario)
        finally:
            self._updating = False

    def _refresh(self, scenario: Scenario) -> None:
        position = edits.turn_position(scenario)
        players = scenario.player_ids()
        self.player_box.clear()
        for player in players:
            self.player_box.addItem(edits.player_name(scenario, player), player)
        tracked = position is not None
        self.tracker.setVisible(tracked)
        self.start_button.setVisible(not tracked)
        self.new_game_button.setVisible(not tracked)
        if position is None:
            self.position.setText("No turn recorded")
            self.missing.setText(
                "The scenario's game section does not say which battle round it is or whose "
                "turn. Start tracking at battle round 1, or start a new game from the mission "
                "generator."
            )
        else:
            self.missing.setText("")
            who = edits.player_name(scenario, position.active_player)
            if position.timing == "end_of_battle":
                self.position.setText("End of the battle")
            else:
                self.position.setText(
                    f"Battle round {position.battle_round} \u2022 {who}'s turn \u2022 "
                    f"{edits.TIMING_LABELS[position.timing]}"
                )
            self.round_box.setValue(position.battle_round)
            self.player_box.setCurrentIndex(players.index(position.active_player))
            self.timing_box.setCurrentIndex(TIMINGS.index(position.timing))
            self.next_button.setEnabled(position.timing != "end_of_battle")
        mission_deck = self.context.serves(scenario)
        self.scores.setVisible(mission_deck)
        self.other_ruleset.setVisible(not mission_deck)
        self.other_ruleset.setText(
            ""
            if mission_deck
            else "The VP/CP ledger follows the Chapter Approved 2026-27 missions; this game "
            f"uses the {self.context.ruleset_title(scenario.ruleset)}, whose points "
            "the ruleset's own dock counts."
        )
        game = scenario.game or EMPTY
        report = self.context.score()
        for slot, player in enumerate(players):
            entry = dict(game.get("players", EMPTY)).get(player, EMPTY)
            colour = PLAYER_COLOURS[slot]
            this_round = entry.get("vp_this_round")
            extra = f" ({this_round} this round)" if this_round is not None else ""
            self.total_labels[slot].setText(
                f"<b style='color:{colour}'>{edits.player_name(scenario, player)}</b>: "
                f"<b>{int(entry.get('vp', 0))}VP</b>{extra}, {int(entry.get('cp', 0))}CP"
            )
            button = self.primary_buttons[slot]
            primary = entry.get("primary")
            now = _primary_now(report, player, primary)
            button.setVisible(mission_deck)
            button.setEnabled(bool(primary) and now is not None)
            button.setText(f"Score Primary +{now}VP" if now is not None else "Score Primary")
        rows = edits.ledger_rows(scenario)
        self.ledger.setRowCount(len(rows))
        for index, row in enumerate(rows):
            cells = (
                str(row.battle_round or "-"),
                edits.player_name(scenario, row.player),
                row.text,
                f"+{row.vp}" if row.vp else "",
                f"{row.cp:+d}" if row.cp else "",
            )
            for column, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(row.text)
                self.ledger.setItem(index, column, item)
        series = edits.vp_by_round(scenario)
        unlogged = [
            f"{edits.player_name(scenario, p)} {vp}VP" for p, vp in series.unlogged.items() if vp
        ]
        self.ledger_note.setText(
            "VP in the totals that no ledger entry explains (recorded in the file without a "
            f"battle round): {', '.join(unlogged)}."
            if unlogged
            else ""
        )

    # ------------------------------------------------------------------ edits

    def _set_from_fields(self) -> None:
        if self._updating:
            return
        battle_round = self.round_box.value()
        player = str(self.player_box.currentData())
        timing = str(self.timing_box.currentData())
        self.context.edit(
            lambda s: edits.set_turn(s, battle_round, player, timing),
            f"Turn: round {battle_round}, {player}, {edits.TIMING_LABELS[timing].lower()}",
        )

    def start_tracking(self) -> bool:
        return self.context.edit(edits.start_turn_tracking, "Start turn tracking")

    def next_step(self) -> bool:
        return self.context.edit(edits.next_step, "Next step")

    def change_cp(self, slot: int, amount: int) -> bool:
        player = self.context.scenario.player_ids()[slot]
        reason = "CP gained" if amount > 0 else "CP spent"
        return self.context.edit(
            lambda s: edits.change_cp(s, player, amount, reason), f"{player}: {amount:+d}CP"
        )

    def score_primary(self, slot: int) -> bool:
        scenario = self.context.scenario
        player = scenario.player_ids()[slot]
        primary = dict(dict((scenario.game or EMPTY).get("players", EMPTY)).get(player, EMPTY))
        name = primary.get("primary")
        vp = _primary_now(self.context.score(), player, name)
        if not name or vp is None:
            self.context.message.emit(f"{player}: no Primary Mission scores at this moment")
            return False
        return self.context.edit(
            lambda s: edits.record_primary(s, player, str(name), vp),
            f"{player}: {name} scored {vp}VP",
        )


def _primary_now(report: ScoreReport | None, player: str, primary: object) -> int | None:
    """The VP the Primary Mission gives now, or None when nothing on it scores now."""
    if report is None or not primary:
        return None
    result = card_result(report, player, str(primary))
    if result is None or not result.lines:
        return None
    return int(result.vp)
