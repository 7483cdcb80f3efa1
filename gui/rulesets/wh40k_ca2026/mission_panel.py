"""The Mission dock: the ruleset and its set-up, the Primary cards and what they score now.

Chapter Approved 2026-27: Force Dispositions, Primary Missions (with override), Deployment card
(and variant), Twist, the rolled set-up (central objectives, Attacker/Defender, first turn), each
player's Primary card text with its live score. Changing a set-up choice goes through
:func:`engine.rulesets.wh40k_ca2026.change_setup`: when it would discard the game in progress the
dock asks first. A deployment variant goes through
:func:`engine.rulesets.wh40k_ca2026.generator.with_deployment_variant`, which places the objectives
for it (a choice it refuses: its reason is shown, nothing changes). Every change is one undo
step. Scrollhammer: the Standard Mission, its set-up and the tally "if the game ended now".
Shared Scenario Modules: the modules in use and their text.
"""

from __future__ import annotations

from html import escape
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTabWidget,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from engine.errors import WarplanError
from engine.layouts import layout
from engine.model import EMPTY, Scenario, thaw
from engine.rulesets.wh40k_ca2026 import edits
from gui.panels.compact import compact_combo
from gui.panels.new_game import select_data
from gui.rulesets.wh40k_ca2026.cards_view import (
    PLAYER_COLOURS,
    card_result,
    card_text_html,
    preview_html,
    scoring_html,
)
from gui.rulesets.wh40k_ca2026.context import MissionContext
from gui.rulesets.wh40k_ca2026.new_game import BATTLEFIELDS, describe_setup, layout_source_html
from gui.rulesets.wh40k_ca2026.secondary_panel import Confirm, ask_yes_no

DEFAULT_VARIANT = "(default)"


class MissionPanel(QWidget):
    """The mission of the open scenario, for whichever ruleset it uses."""

    new_game_requested = Signal()

    def __init__(self, context: MissionContext) -> None:
        super().__init__()
        self.setObjectName("MissionPanel")
        self.context = context
        self.rulesets = context.rulesets
        self.confirm: Confirm = ask_yes_no
        self._updating = False

        self.heading = QLabel()
        self.heading.setTextFormat(Qt.TextFormat.RichText)
        self.heading.setWordWrap(True)
        self.new_game_button = QPushButton("New game...")
        self.new_game_button.setToolTip(
            "Set up a new game on this battlefield with the mission generator (undoable)"
        )
        self.new_game_button.clicked.connect(self.new_game_requested.emit)
        self.reroll_button = QPushButton("Re-roll (new seed)")
        self.reroll_button.setToolTip("The same choices with a new seed: new dice, new deployment")
        self.reroll_button.clicked.connect(self.reroll)
        # The heading above its buttons, the variants one under another: side by side they
        # made the dock wider than the column it shares with the battlefield.
        top = QVBoxLayout()
        top.addWidget(self.heading)
        buttons = QHBoxLayout()
        buttons.addWidget(self.reroll_button)
        buttons.addWidget(self.new_game_button)
        buttons.addStretch(1)
        top.addLayout(buttons)

        self.setup_form_host = QWidget()
        form = QFormLayout(self.setup_form_host)
        form.setContentsMargins(0, 0, 0, 0)
        players_grid = QGridLayout()
        players_grid.setContentsMargins(0, 0, 0, 0)
        players_grid.addWidget(QLabel("Force Disposition"), 0, 1)
        players_grid.addWidget(QLabel("Primary Mission override"), 0, 2)
        self.dispositions: list[QComboBox] = []
        self.primaries: list[QComboBox] = []
        self.player_labels: list[QLabel] = []
        for slot in range(2):
            fd, primary = compact_combo(), compact_combo()
            fd.setObjectName(f"disposition-{slot}")
            primary.setObjectName(f"primary-{slot}")
            fd.currentIndexChanged.connect(lambda _i: self._on_setup_field("force_dispositions"))
            primary.currentIndexChanged.connect(lambda _i: self._on_setup_field("primaries"))
            self.dispositions.append(fd)
            self.primaries.append(primary)
            label = QLabel()
            label.setTextFormat(Qt.TextFormat.RichText)
            self.player_labels.append(label)
            players_grid.addWidget(label, slot + 1, 0)
            players_grid.addWidget(fd, slot + 1, 1)
            players_grid.addWidget(primary, slot + 1, 2)
        players_grid.setColumnStretch(1, 1)
        players_grid.setColumnStretch(2, 1)
        form.addRow(players_grid)
        self.battlefield = compact_combo()
        self.battlefield.setObjectName("battlefield")
        self.battlefield.setToolTip(
            "Custom: the Deployment card, terrain placed by hand. Recommended: layout A, B or C "
            "for the two Force Dispositions, with its terrain and objectives."
        )
        self.battlefield.currentIndexChanged.connect(lambda _i: self._on_setup_field("layout"))
        self.layout_source = QLabel()
        self.layout_source.setObjectName("layout-source")
        self.layout_source.setWordWrap(True)
        self.deployment = compact_combo()
        self.deployment.setObjectName("deployment")
        self.deployment.currentIndexChanged.connect(lambda _i: self._on_setup_field("deployment"))
        self.variant_host = QWidget()
        self.variant_layout = QVBoxLayout(self.variant_host)
        self.variant_layout.setContentsMargins(0, 0, 0, 0)
        self.variant_boxes: dict[str, QComboBox] = {}
        self.twist = compact_combo()
        self.twist.setObjectName("twist")
        self.twist.currentIndexChanged.connect(lambda _i: self._on_setup_field("twist_request"))
        self.rolled = QLabel()
        self.rolled.setObjectName("rolled-setup")
        self.rolled.setWordWrap(True)
        self.rolled.setTextFormat(Qt.TextFormat.RichText)
        form.addRow("Battlefield", self.battlefield)
        form.addRow(self.layout_source)
        form.addRow("Deployment card", self.deployment)
        form.addRow("Variant", self.variant_host)
        form.addRow("Twist", self.twist)
        form.addRow(self.rolled)

        self.info = QLabel()
        self.info.setObjectName("mission-info")
        self.info.setWordWrap(True)
        self.info.setTextFormat(Qt.TextFormat.RichText)
        self.cards = QTabWidget()
        self.cards.setObjectName("primary-cards")
        self.card_views = [QTextBrowser(), QTextBrowser()]
        for view in self.card_views:
            self.cards.addTab(view, "")
        self.text = QTextBrowser()
        self.text.setObjectName("mission-text")

        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addLayout(top)
        layout.addWidget(self.setup_form_host)
        layout.addWidget(self.info)
        layout.addWidget(self.cards, 1)
        layout.addWidget(self.text, 1)
        self._updating = True
        self._fill_static_choices()
        self._updating = False
        context.refreshed.connect(self.refresh)
        self.refresh(context.scenario)

    def _fill_static_choices(self) -> None:
        from engine.rulesets.wh40k_ca2026 import force_dispositions, primary_missions, twists
        from engine.rulesets.wh40k_ca2026.cards import deployment_deck

        for box in self.dispositions:
            box.addItem("None (Primary picked)", None)
            for fd in force_dispositions():
                box.addItem(fd.name, fd.name)
        for box in self.primaries:
            box.addItem("From the Force Dispositions", None)
            for found in primary_missions():
                box.addItem(found.name, found.name)
        for deployment_id, name in deployment_deck():
            self.deployment.addItem(name, deployment_id)
        for text, request in BATTLEFIELDS:
            self.battlefield.addItem(text, request)
        self.twist.addItem("No Twist", "none")
        for twist_card in twists():
            self.twist.addItem(twist_card.name, twist_card.id)

    # ------------------------------------------------------------------ display

    def refresh(self, scenario: Scenario) -> None:
        self._updating = True
        try:
            self.heading.setText(
                f"<b>{escape(self.context.ruleset_title(scenario.ruleset))}</b>"
                f" <small>({scenario.ruleset})</small>"
            )
            if self.context.serves(scenario):
                self._refresh_wh40k(scenario)
            else:
                self._refresh_other(scenario)
        finally:
            self._updating = False

    def setup(self) -> Any:
        """The recorded generator set-up (``engine.rulesets.wh40k_ca2026.generator.MissionSetup``)
        or None."""
        raw = (self.context.scenario.game or EMPTY).get("setup")
        if not raw or "players" not in raw:
            return None
        from engine.rulesets.wh40k_ca2026.generator import setup_from_json

        try:
            return setup_from_json(thaw(raw))
        except (KeyError, TypeError, ValueError, WarplanError):
            return None

    def _refresh_wh40k(self, scenario: Scenario) -> None:
        self.setup_form_host.setVisible(True)
        self.cards.setVisible(True)
        self.text.setVisible(False)
        game = scenario.game or EMPTY
        setup = self.setup()
        for widget in (*self.dispositions, *self.primaries, self.battlefield, self.twist):
            widget.setEnabled(setup is not None)
        on_layout = setup is not None and setup.layout is not None
        self.deployment.setEnabled(setup is not None and not on_layout)
        request = None
        if on_layout:
            request = "random" if setup.layout_drawn else layout(setup.layout).letter
        select_data(self.battlefield, request)
        self.layout_source.setText(layout_source_html(scenario))
        self.layout_source.setToolTip(scenario.layout.revision if scenario.layout else "")
        self.layout_source.setVisible(scenario.layout is not None)
        self.reroll_button.setEnabled(setup is not None)
        players = scenario.player_ids()
        entries = dict(game.get("players", EMPTY))
        for slot, player in enumerate(players):
            name = edits.player_name(scenario, player)
            self.player_labels[slot].setText(
                f"<b style='color:{PLAYER_COLOURS[slot]}'>{escape(name)}</b>"
            )
            entry = entries.get(player, EMPTY)
            select_data(self.dispositions[slot], entry.get("force_disposition"))
            chosen = None
            if setup is not None and setup.players[slot].chosen:
                chosen = setup.players[slot].card_primary
            select_data(self.primaries[slot], chosen)
        if isinstance(scenario.deployment, str):
            select_data(self.deployment, scenario.deployment)
        select_data(self.twist, game.get("twist") or "none")
        self._refresh_variants(scenario)
        if setup is None:
            self.rolled.setText(
                "<i>No generator set-up is recorded in this game section: the choices above "
                "show the file's values. Use New game... to set up with the generator.</i>"
                if scenario.game is not None
                else "<i>No game section: no mission is set up. Use New game...</i>"
            )
        else:
            self.rolled.setText(f"<b>Rolled</b> (seed {setup.seed}): " + describe_setup(scenario))
        report = self.context.score()
        problems = list(report.problems) if report is not None else []
        self.info.setText(
            "<span style='color:#a04000'>" + escape("; ".join(problems)) + "</span>"
            if problems
            else ""
        )
        for slot, player in enumerate(players):
            name = edits.player_name(scenario, player)
            primary = entries.get(player, EMPTY).get("primary")
            view = self.card_views[slot]
            if not primary:
                self.cards.setTabText(slot, f"{name}: no Primary")
                view.setHtml(f"<p><i>No Primary Mission recorded for {escape(name)}.</i></p>")
                continue
            result = card_result(report, player, str(primary))
            vp = f" \u2022 now {result.vp}VP" if result is not None else ""
            self.cards.setTabText(slot, f"{name}: {primary}{vp}")
            colour = PLAYER_COLOURS[slot]
            view.setHtml(
                f"<p style='color:{colour}'><b>{escape(name)}</b></p>"
                + scoring_html(result)
                + preview_html(self.context, player, str(primary))
                + "<hr>"
                + card_text_html(str(primary), "primary")
            )

    def _refresh_variants(self, scenario: Scenario) -> None:
        from engine.deployments import load_deployment_map

        for box in self.variant_boxes.values():
            self.variant_layout.removeWidget(box)
            box.deleteLater()
        self.variant_boxes = {}
        if not isinstance(scenario.deployment, str):
            return
        try:
            disputes = load_deployment_map(scenario.deployment).disputes
        except WarplanError:
            return
        current = scenario.option("deployment_variant") or {}
        if isinstance(current, str):
            current = {k: current for k, d in disputes.items() if current in d.choices}
        for key, dispute in disputes.items():
            box = compact_combo()
            box.setObjectName(f"variant-{key}")
            box.setToolTip(f"{dispute.label}: {dispute.why}")
            for choice, label in dispute.choices.items():
                suffix = " (default)" if choice == dispute.default else ""
                box.addItem(f"{label}{suffix}", choice)
            select_data(box, current.get(key, dispute.default))
            box.currentIndexChanged.connect(lambda _i: self._on_variant())
            self.variant_layout.addWidget(box)
            self.variant_boxes[key] = box

    def _refresh_other(self, scenario: Scenario) -> None:
        """Another rule system's mission: its summary and text, as its app part words them."""
        self.setup_form_host.setVisible(False)
        self.cards.setVisible(False)
        self.text.setVisible(True)
        ui = self.rulesets(scenario.ruleset)
        info, text = (
            ui.mission_summary(scenario)
            if ui is not None and ui.mission_summary is not None
            else (f"No mission view for the ruleset {escape(scenario.ruleset)}.", "")
        )
        self.info.setText(info)
        self.text.setHtml(text)

    # ------------------------------------------------------------------ set-up changes

    def _on_setup_field(self, field: str) -> None:
        if self._updating:
            return
        if field == "force_dispositions":
            value: Any = tuple(box.currentData() for box in self.dispositions)
        elif field == "primaries":
            value = tuple(box.currentData() for box in self.primaries)
        elif field == "deployment":
            value = self.deployment.currentData()
        elif field == "layout":
            value = self.battlefield.currentData()
        else:
            value = self.twist.currentData()
        self.change_setup(**{field: value})

    def reroll(self) -> bool:
        import random

        return self.change_setup(seed=random.randrange(1_000_000))

    def change_setup(self, **changes: Any) -> bool:
        """Regenerate the set-up with ``changes``; ask first when the game in progress would be
        discarded; one undo step. False when nothing changed (refused, declined, the same)."""
        from engine.rulesets.wh40k_ca2026 import change_setup
        from engine.rulesets.wh40k_ca2026.generator import apply_setup

        setup = self.setup()
        scenario = self.context.scenario
        if setup is None:
            self.context.message.emit("No generator set-up to change: use New game...")
            return False
        try:
            change = change_setup(setup, thaw(scenario.game or EMPTY), **changes)
        except WarplanError as error:
            self.context.message.emit(f"Cannot change the set-up: {error}")
            self.refresh(scenario)
            return False
        if change.after == change.before:
            return False
        if change.discards_game_state and not self.confirm(
            self,
            "Discard the game in progress?",
            f"{change.reason[0].upper()}{change.reason[1:]}.\n\nYou can undo this change.",
        ):
            self.refresh(scenario)
            return False
        what = ", ".join(f"{k.replace('_', ' ')}" for k in changes)

        def apply(s: Scenario) -> Scenario:
            return apply_setup(change.after, s)

        return self.context.edit(apply, f"Change set-up: {what}")

    def _on_variant(self) -> None:
        """The chosen variant through the engine (which places the objectives for it); a choice
        the engine refuses shows its reason and the boxes go back to the scenario's."""
        from engine.rulesets.wh40k_ca2026.generator import with_deployment_variant

        if self._updating:
            return
        chosen = {key: box.currentData() for key, box in self.variant_boxes.items()}
        setup = self.setup()
        if not self.context.edit(
            lambda s: with_deployment_variant(s, chosen, setup), "Deployment variant"
        ):
            self.refresh(self.context.scenario)
