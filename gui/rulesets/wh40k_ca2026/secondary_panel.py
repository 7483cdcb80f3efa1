"""The Secondary Missions dock of one player: Tactical or Fixed, the hand with each card's live
"scores now", the deck and discard pile, and the deck's moves.

Every move is one undo step replacing the ``game`` section (the engine's
:mod:`engine.rulesets.wh40k_ca2026.edits`); an illegal move shows the engine's reason under
the buttons and in the status bar, and changes nothing.
Buttons stay enabled whenever the move needs nothing more from the user, so the rules (not a
greyed-out button) say why a move is refused. What a WHEN DRAWN selection may pick is the
engine's (:func:`engine.rulesets.wh40k_ca2026.decks.selection_choices`): the dock only asks.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGridLayout,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPushButton,
    QSpinBox,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from engine.errors import WarplanError
from engine.model import EMPTY, Scenario
from engine.rulesets.wh40k_ca2026 import decks, edits
from gui.panels.compact import compact_combo
from gui.rulesets.wh40k_ca2026.cards_view import (
    PLAYER_COLOURS,
    card_result,
    card_text_html,
    preview_html,
    scoring_html,
)
from gui.rulesets.wh40k_ca2026.context import MissionContext

AskFixed = Callable[[QWidget, tuple[str, ...]], list[str] | None]
Confirm = Callable[[QWidget, str, str], bool]


def ask_fixed_cards(parent: QWidget, choices: tuple[str, ...]) -> list[str] | None:
    """Two Fixed Missions picked in a small dialog (None: cancelled)."""
    dialog = QDialog(parent)
    dialog.setWindowTitle("Fixed Missions")
    form = QFormLayout(dialog)
    boxes = []
    for index in range(2):
        box = compact_combo()
        box.addItems(choices)
        box.setCurrentIndex(min(index, len(choices) - 1))
        form.addRow(f"Fixed Mission {index + 1}", box)
        boxes.append(box)
    buttons = QDialogButtonBox(
        QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
    )
    buttons.accepted.connect(dialog.accept)
    buttons.rejected.connect(dialog.reject)
    form.addRow(buttons)
    if dialog.exec() != QDialog.DialogCode.Accepted:
        return None
    return [b.currentText() for b in boxes]


def ask_yes_no(parent: QWidget, title: str, text: str) -> bool:
    answer = QMessageBox.question(
        parent,
        title,
        text,
        QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
        QMessageBox.StandardButton.No,
    )
    return answer == QMessageBox.StandardButton.Yes


class SecondaryPanel(QWidget):
    """One player's Secondary Missions."""

    new_game_requested = Signal()

    def __init__(self, context: MissionContext, slot: int) -> None:
        super().__init__()
        self.context = context
        self.slot = slot
        self.setObjectName(f"SecondaryPanel{slot + 1}")
        self.ask_fixed: AskFixed = ask_fixed_cards
        self.confirm: Confirm = ask_yes_no
        self.ask_item: Callable[[QWidget, str, str, list[str]], str | None] = _ask_item

        self.heading = QLabel()
        self.heading.setTextFormat(Qt.TextFormat.RichText)
        self.heading.setWordWrap(True)
        self.summary = QLabel()
        self.summary.setWordWrap(True)

        self.tactical_button = QPushButton("Tactical deck")
        self.tactical_button.setToolTip("Shuffle all 18 Secondary Missions (seeded) face-down")
        self.fixed_button = QPushButton("Fixed Missions...")
        self.fixed_button.setToolTip("Display two Fixed Missions face-up for the whole battle")
        self.new_game_button = QPushButton("New game...")
        self.tactical_button.clicked.connect(lambda: self.start_deck("tactical"))
        self.fixed_button.clicked.connect(lambda: self.start_deck("fixed"))
        self.new_game_button.clicked.connect(self.new_game_requested.emit)
        mode_row = QHBoxLayout()
        mode_row.addWidget(self.tactical_button)
        mode_row.addWidget(self.fixed_button)
        mode_row.addWidget(self.new_game_button)

        self.hand = QListWidget()
        self.hand.setObjectName("hand")
        self.hand.setSelectionMode(QListWidget.SelectionMode.ExtendedSelection)
        self.hand.setMaximumHeight(110)
        self.hand.currentItemChanged.connect(lambda *_: self._show_card())
        self.hand.itemSelectionChanged.connect(self._show_card)
        self.card_view = QTextBrowser()
        self.card_view.setMinimumHeight(120)

        self.vp_box = QSpinBox()
        self.vp_box.setRange(0, 15)
        self.vp_box.setSuffix(" VP")
        self.vp_box.setToolTip(
            "VP gained when achieved: what the engine says the card scores now; change it for "
            "conditions the file does not record"
        )
        self.buttons: dict[str, QPushButton] = {}
        grid = QGridLayout()
        actions = (
            ("draw", "Draw 2", "Start of your Command phase: draw two cards", self.draw_two),
            ("draw_one", "Draw 1", "Draw one card (start of your Command phase)", self.draw_one),
            (
                "achieve",
                "Achieve",
                "End of a turn: gain the VP; a Tactical card is discarded",
                self.achieve,
            ),
            (
                "discard",
                "Discard +1CP",
                "End of your turn: discard the selected cards, gain 1CP",
                self.discard,
            ),
            (
                "cp_swap",
                "1CP Discard && Draw",
                "Once per battle, end of your Command phase: spend 1CP, discard, draw a new card",
                self.discard_and_draw,
            ),
            (
                "reshuffle",
                "Reshuffle",
                "WHEN DRAWN: shuffle this card back into the deck and draw a new one",
                partial(self.when_drawn, "reshuffle_and_draw"),
            ),
            (
                "when_discard",
                "Discard && draw (WHEN DRAWN)",
                "WHEN DRAWN: discard this card and draw a new one",
                partial(self.when_drawn, "discard_and_draw"),
            ),
            ("keep", "Keep", "Decline the WHEN DRAWN offer", partial(self.when_drawn, "keep")),
            ("select", "Select...", "Make the card's WHEN DRAWN selection", self.select),
        )
        for index, (key, text, tip, slot_fn) in enumerate(actions):
            button = QPushButton(text)
            button.setObjectName(f"deck-{key}")
            button.setToolTip(tip)
            button.clicked.connect(lambda _c=False, fn=slot_fn: fn())
            self.buttons[key] = button
            grid.addWidget(button, index // 3, index % 3)
        achieve_row = QHBoxLayout()
        achieve_row.addWidget(QLabel("VP if achieved:"))
        achieve_row.addWidget(self.vp_box)
        achieve_row.addStretch(1)

        self.discards = QLabel()
        self.discards.setWordWrap(True)
        self.reason = QLabel()
        self.reason.setObjectName("reason")
        self.reason.setWordWrap(True)
        self.reason.setStyleSheet("color: #b03a2e")

        self.hand_label = QLabel("Hand (active Secondary Missions):")
        self.deck_widgets = QWidget()
        deck_layout = QVBoxLayout(self.deck_widgets)
        deck_layout.setContentsMargins(0, 0, 0, 0)
        deck_layout.addLayout(achieve_row)
        deck_layout.addLayout(grid)
        deck_layout.addWidget(self.discards)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.heading)
        layout.addWidget(self.summary)
        layout.addLayout(mode_row)
        layout.addWidget(self.hand_label)
        layout.addWidget(self.hand)
        layout.addWidget(self.deck_widgets)
        layout.addWidget(self.reason)
        layout.addWidget(self.card_view, 1)
        layout.addStretch(0)
        context.refreshed.connect(self.refresh)
        self.refresh(context.scenario)

    # ------------------------------------------------------------------ state

    @property
    def player(self) -> str:
        return self.context.scenario.player_ids()[self.slot]

    def deck(self) -> decks.DeckState | None:
        return decks.deck_of(self.context.scenario, self.player)

    def selected_cards(self) -> list[str]:
        names = [item.data(Qt.ItemDataRole.UserRole) for item in self.hand.selectedItems()]
        if not names and self.hand.currentItem() is not None:
            names = [self.hand.currentItem().data(Qt.ItemDataRole.UserRole)]
        return [str(n) for n in names]

    def _one_card(self, what: str) -> str | None:
        names = self.selected_cards()
        if len(names) != 1:
            self._refuse(f"{what}: select one card in the hand first")
            return None
        return names[0]

    # ------------------------------------------------------------------ display

    def refresh(self, scenario: Scenario) -> None:
        player = scenario.player_ids()[self.slot]
        name = edits.player_name(scenario, player)
        colour = PLAYER_COLOURS[self.slot]
        deck = decks.deck_of(scenario, player)
        is_mission_deck = self.context.serves(scenario)
        entry = dict((scenario.game or EMPTY).get("players", EMPTY)).get(player, EMPTY)
        title = f"<b style='color:{colour}'>{name}</b>"
        if deck is not None:
            mode = "Tactical" if deck.mode == "tactical" else "Fixed"
            title += f": {mode} Secondary Missions"
        self.heading.setText(title)
        self.tactical_button.setVisible(is_mission_deck)
        self.fixed_button.setVisible(is_mission_deck)
        self.new_game_button.setVisible(not is_mission_deck)
        self.deck_widgets.setVisible(deck is not None)
        previous = set(self.selected_cards())
        self.hand.blockSignals(True)
        self.hand.clear()
        if not is_mission_deck:
            self.summary.setText(
                f"Secondary Missions are a Chapter Approved 2026-27 rule; this game is "
                f"{scenario.ruleset}. Start a Chapter Approved game to use the decks."
            )
        elif deck is None:
            listed = entry.get("secondaries") or ()
            text = f"No Secondary deck recorded for {name}."
            if listed:
                text = (
                    f"No deck recorded; the file lists {', '.join(listed)} as active (scored "
                    "below). Start a deck to draw and achieve."
                )
            else:
                text += " Choose Tactical (shuffled deck) or Fixed (two cards for the battle)."
            self.summary.setText(text)
        else:
            used = "used" if deck.cp_discard_draw_used else "available"
            self.summary.setText(
                f"{len(deck.draw_pile)} cards in the deck, {len(deck.active)} in hand, "
                f"{len(deck.discard_pile)} discarded ({len(deck.achieved)} achieved). "
                f"CP {int(entry.get('cp', 0))}; 1CP discard & draw: {used}."
            )
            self.discards.setText("Discard pile: " + (", ".join(deck.discard_pile) or "empty"))
            tactical = deck.mode == "tactical"
            for key in ("draw", "draw_one", "discard", "cp_swap"):
                self.buttons[key].setVisible(tactical)
        report = self.context.score()
        names = deck.active_names() if deck is not None else tuple(entry.get("secondaries") or ())
        for card_name in names:
            result = card_result(report, player, card_name)
            label = card_name
            if deck is not None:
                held = next(a for a in deck.active if a.name == card_name)
                if held.drawn_round:
                    label += f"  (round {held.drawn_round})"
                if held.needs:
                    label += "  - needs a selection"
                if held.offers:
                    label += "  - WHEN DRAWN offer"
            if result is not None:
                label += f"  - now {result.vp}VP"
            item = QListWidgetItem(label)
            item.setData(Qt.ItemDataRole.UserRole, card_name)
            self.hand.addItem(item)
            if card_name in previous:
                item.setSelected(True)
                self.hand.setCurrentItem(item)
        if self.hand.currentItem() is None and self.hand.count():
            self.hand.setCurrentRow(0)
        self.hand.blockSignals(False)
        self.hand.setVisible(bool(names))
        self.hand_label.setVisible(bool(names))
        self.card_view.setVisible(bool(names))
        self._show_card()

    def _show_card(self) -> None:
        names = self.selected_cards()
        if not names:
            for key in ("reshuffle", "when_discard", "keep", "select"):
                self.buttons[key].setVisible(False)
            self.card_view.setHtml("<p><i>Select a card in the hand to read it.</i></p>")
            return
        name = names[0]
        deck = self.deck()
        held = next((a for a in deck.active if a.name == name), None) if deck else None
        offers = held.offers if held is not None else ()
        self.buttons["reshuffle"].setVisible("reshuffle_and_draw" in offers)
        self.buttons["when_discard"].setVisible("discard_and_draw" in offers)
        self.buttons["keep"].setVisible(bool(offers))
        self.buttons["select"].setVisible(held is not None and bool(held.needs))
        result = card_result(self.context.score(), self.player, name)
        self.vp_box.setValue(result.vp if result is not None else 0)
        preview = preview_html(self.context, self.player, name)
        self.card_view.setHtml(
            scoring_html(result) + preview + "<hr>" + card_text_html(name, "secondary")
        )

    def _refuse(self, text: str) -> None:
        self.reason.setText(text)
        self.context.message.emit(text)

    # ------------------------------------------------------------------ moves

    def _do(self, make: Callable[[Scenario], Scenario], text: str) -> bool:
        name = edits.player_name(self.context.scenario, self.player)
        label = f"{name}: {text}"
        try:
            after = make(self.context.scenario)
        except WarplanError as error:
            self._refuse(f"{label} refused: {error}")
            return False
        self.reason.setText("")
        self.context.document.apply(after, label)
        self.context.message.emit(label)
        return True

    def start_deck(self, mode: str) -> bool:
        """Start a Tactical deck or display two Fixed Missions (asks before replacing a deck)."""
        player = self.player
        if self.deck() is not None and not self.confirm(
            self,
            "Replace the Secondary deck?",
            f"{edits.player_name(self.context.scenario, player)} already has a deck. Replacing "
            "it starts a new one (VP and CP scored so far stay in the totals). You can undo.",
        ):
            return False
        if mode == "fixed":
            chosen = self.ask_fixed(self, decks.fixed_cards())
            if chosen is None:
                return False
            return self._do(
                lambda s: edits.new_deck(s, player, "fixed", chosen),
                f"Fixed Missions {', '.join(chosen)}",
            )
        return self._do(lambda s: edits.new_deck(s, player, "tactical"), "Tactical deck shuffled")

    def draw_two(self) -> bool:
        return self._do(lambda s: edits.draw_two(s, self.player), "draw Secondary Missions")

    def draw_one(self) -> bool:
        return self._do(lambda s: edits.draw_one(s, self.player), "draw a Secondary Mission")

    def achieve(self) -> bool:
        name = self._one_card("Achieve")
        if name is None:
            return False
        vp = self.vp_box.value()
        return self._do(
            lambda s: edits.achieve(s, self.player, name, vp), f"achieve {name} for {vp}VP"
        )

    def discard(self) -> bool:
        names = self.selected_cards()
        if not names:
            self._refuse("Discard: select one or more cards in the hand first")
            return False
        return self._do(
            lambda s: edits.discard_for_cp(s, self.player, names),
            f"discard {', '.join(names)} for 1CP",
        )

    def discard_and_draw(self) -> bool:
        name = self._one_card("1CP Discard & Draw")
        if name is None:
            return False
        return self._do(
            lambda s: edits.discard_and_draw(s, self.player, name),
            f"spend 1CP to discard {name} and draw",
        )

    def when_drawn(self, option: str) -> bool:
        name = self._one_card("WHEN DRAWN")
        if name is None:
            return False
        words = {
            "reshuffle_and_draw": f"shuffle {name} back and draw",
            "discard_and_draw": f"discard {name} (WHEN DRAWN) and draw",
            "keep": f"keep {name}",
        }
        return self._do(lambda s: edits.when_drawn(s, self.player, name, option), words[option])

    def select(self) -> bool:
        name = self._one_card("Select")
        if name is None:
            return False
        try:
            selection = decks.selection_choices(self.context.scenario, self.player, name)
        except WarplanError as error:
            self._refuse(f"Select refused: {error}")
            return False
        if not selection.ids:
            self._refuse(f"{selection.card}: {selection.reason}")
            return False
        who = "Your opponent selects" if selection.chooser == "opponent" else "Select"
        value = self.ask_item(
            self, selection.card, f"{who} {selection.allowed}", list(selection.ids)
        )
        if value is None:
            return False
        key = selection.choice
        return self._do(
            lambda s: edits.choose(s, self.player, name, key, value), f"{name}: {key} = {value}"
        )


def _ask_item(parent: QWidget, title: str, prompt: str, options: list[str]) -> str | None:
    value, ok = QInputDialog.getItem(parent, title, prompt, options, 0, False)
    return str(value) if ok else None
