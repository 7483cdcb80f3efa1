"""The Shared Scenario Modules panel and its board overlays (``ruleset: "shared-modules"``).

The panel reads one :func:`engine.rulesets.shared_modules.shared_modules_report` per scenario value:
Threat Points and Command Points as two separate ledgers per player (spend and gain each on
its own, All-Out War refunds at the end of a turn), Battle Formations as a live deployment
check, Scout and Secure (spend the unit's cost in Threat Points, lead model onto the table
edge, protected until it moves, the rest within 2"), objective control (shared control shown
as such), Reinforced Defenses and Annihilation. Every change is one undoable document edit,
written to ``game.shared_modules``.

The overlay draws, while deploying, each player's 12" deployment band along their table edge
and every Battle Formations violation (red, with the measure against the limit); in battle,
the Scout and Secure lead models' protection and the units with Reinforced Defenses' Cover +3.

Choices (where the rules are silent):

- Scout and Secure places the lead model straight onto the edge from where it stands (its
  base touching the edge) and the other models in rings around it, 0.25" apart, so every one
  is within 2" of the lead; the player can then drag them.
- Ledger entries record the game turn when ``game.shared_modules.turn`` is set.
"""

from __future__ import annotations

from html import escape
from typing import Literal

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from engine.errors import RulesError, WarplanError
from engine.explain import inches
from engine.model import Scenario
from engine.rulesets.shared_modules import (
    SharedModulesReport,
    all_out_war_refunds,
    removed_target_lock_rolls,
    unit_cost,
    uses_module,
)
from engine.rulesets.shared_modules._data import number
from engine.rulesets.shared_modules.edits import (
    SECTION,
    current_turn,
    end_of_turn_refunds,
    ledger_edit,
    scout_edit,
)
from engine.scenario_edits import game_section, with_game_key
from gui.panels.compact import compact_combo
from gui.rulesets.common import (
    RulesetContext,
    action_button,
    add_section,
    checked_unit,
    error_html,
    fill_unit_checklist,
    heading,
    player_html,
    player_name,
    rich_label,
    scrolled,
    with_listed,
)


class SharedModulesPanel(QWidget):
    """Ledgers, deployment, Scout and Secure, objectives, defenses and Annihilation."""

    def __init__(self, context: RulesetContext) -> None:
        super().__init__()
        self.setObjectName("SharedModulesPanel")
        self.context = context
        self.report: SharedModulesReport | None = None
        self._updating = False
        inner = QWidget()
        layout = QVBoxLayout(inner)
        self.summary = rich_label(name="sm-summary")
        layout.addWidget(self.summary)
        turn_row = QHBoxLayout()
        self.turn_spin = QSpinBox()
        self.turn_spin.setObjectName("sm-turn")
        self.turn_spin.setRange(0, 99)
        self.turn_spin.setSpecialValueText("deploying (before the first turn)")
        self.turn_spin.setPrefix("turn ")
        self.turn_spin.valueChanged.connect(self._on_turn)
        turn_row.addWidget(QLabel("Game turn"))
        turn_row.addWidget(self.turn_spin, 1)
        layout.addLayout(turn_row)

        # A short title: a group box's title does not wrap, and a long one widened the panel.
        self.ledger_box = QGroupBox("Threat and Command Points")
        self.ledger_box.setToolTip("Two separate ledgers per player")
        self.ledger_grid = QGridLayout(self.ledger_box)
        self.ledger_labels: dict[tuple[str, str], QLabel] = {}
        self.amount = QSpinBox()
        self.amount.setObjectName("sm-amount")
        self.amount.setRange(1, 50)
        layout.addWidget(self.ledger_box)

        layout.addWidget(heading("All-Out War"))
        self.destroyed_list = QListWidget()
        self.destroyed_list.setObjectName("sm-destroyed")
        self.destroyed_list.setMaximumHeight(100)
        self.destroyed_list.itemChanged.connect(self._on_destroyed_toggled)
        layout.addWidget(self.destroyed_list)
        self.refund_text = rich_label(name="sm-refunds")
        layout.addWidget(self.refund_text)
        refund = action_button("End of turn: refund destroyed units", "sm-refund", self.refund)
        refund.setToolTip("All-Out War: refund the units destroyed this turn")
        layout.addWidget(refund)

        self.formation_text = add_section(
            layout, "Battle Formations (live deployment check)", "sm-formations"
        )
        self.formation_list = QListWidget()
        self.formation_list.setObjectName("sm-formation-violations")
        self.formation_list.setWordWrap(True)
        self.formation_list.setMaximumHeight(120)
        layout.addWidget(self.formation_list)

        self.scout_text = add_section(layout, "Scout and Secure", "sm-scout")
        scout_row = QHBoxLayout()
        self.scout_box = compact_combo()
        self.scout_box.setObjectName("sm-scout-unit")
        scout = action_button("Scout and Secure", "sm-scout", self.scout)
        moved = action_button("Lead model has moved", "sm-scout-moved", self.lead_moved)
        layout.addWidget(self.scout_box)
        scout_row.addWidget(scout)
        scout_row.addWidget(moved)
        layout.addLayout(scout_row)

        self.objective_text = add_section(layout, "Objective control", "sm-objectives")
        self.defense_text = add_section(layout, "Reinforced Defenses", "sm-defenses")
        self.annihilation_text = add_section(layout, "Annihilation", "sm-annihilation")
        layout.addStretch(1)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(4, 4, 4, 4)
        outer.addWidget(scrolled(inner))
        self._ledger_players: tuple[str, ...] = ()

    # ------------------------------------------------------------------ refresh

    def show_report(
        self, scenario: Scenario, report: SharedModulesReport | None, error: str
    ) -> None:
        self._updating = True
        try:
            self.report = report
            if report is None:
                self.summary.setText(error_html(error))
                return
            self._show_summary(scenario, report)
            self.turn_spin.setValue(current_turn(scenario) or 0)
            self._show_ledgers(scenario, report)
            self._show_refunds(scenario)
            self._show_formations(scenario, report)
            self._show_scout(scenario)
            self._show_objectives(scenario, report)
        finally:
            self._updating = False

    def _show_summary(self, scenario: Scenario, report: SharedModulesReport) -> None:
        phase = "deploying" if report.formations is not None else "in battle"
        problems = len(report.violations)
        verdict = (
            f"<span style='color:#d0021b'>{problems} deployment problem(s)</span>"
            if problems
            else "<span style='color:#1e8449'>no rule broken</span>"
        )
        modules = ", ".join(report.modules)
        self.summary.setText(
            f"<b>Shared Scenario Modules</b> ({phase}) \u2022 {verdict}<br>"
            f"<small>Modules: {escape(modules)}</small>"
        )

    def _show_ledgers(self, scenario: Scenario, report: SharedModulesReport) -> None:
        players = scenario.player_ids()
        if players != self._ledger_players:
            self._build_ledger_grid(scenario)
        for player in players:
            books = report.ledgers[player]
            for kind, ledger in (("threat", books.threat), ("command", books.command)):
                entries = "".join(
                    f"<br><small>{e.amount:+d} {escape(e.reason)}"
                    f"{'' if e.turn is None else f' (turn {e.turn})'}</small>"
                    for e in ledger.entries[-4:]
                )
                self.ledger_labels[(player, kind)].setText(
                    f"{player_html(scenario, player)} {ledger.name}: "
                    f"<b style='font-size:13pt'>{ledger.balance}</b>{entries}"
                )

    def _build_ledger_grid(self, scenario: Scenario) -> None:
        while self.ledger_grid.count():
            item = self.ledger_grid.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None and widget is not self.amount:
                widget.deleteLater()
        self.ledger_labels = {}
        self.ledger_grid.addWidget(QLabel("Amount"), 0, 0)
        self.ledger_grid.addWidget(self.amount, 0, 1)
        for column, player in enumerate(scenario.player_ids()):
            for row, kind in enumerate(("threat", "command")):
                label = rich_label(name=f"sm-ledger-{player}-{kind}")
                label.setAlignment(Qt.AlignmentFlag.AlignTop)
                self.ledger_labels[(player, kind)] = label
                short = "TP" if kind == "threat" else "CP"
                spend = action_button(
                    f"Spend {short}",
                    f"sm-spend-{player}-{kind}",
                    lambda _c=False, p=player, k=kind: self.change_points(p, k, spend=True),
                )
                gain = action_button(
                    f"Gain {short}",
                    f"sm-gain-{player}-{kind}",
                    lambda _c=False, p=player, k=kind: self.change_points(p, k, spend=False),
                )
                buttons = QHBoxLayout()
                buttons.addWidget(spend)
                buttons.addWidget(gain)
                holder = QWidget()
                holder_layout = QVBoxLayout(holder)
                holder_layout.setContentsMargins(0, 0, 0, 0)
                holder_layout.addWidget(label)
                holder_layout.addLayout(buttons)
                # Each ledger on rows of its own: side by side the players' ledgers made the
                # panel wider than the dock column.
                self.ledger_grid.addWidget(holder, 1 + 2 * column + row, 0, 1, 2)
        self._ledger_players = scenario.player_ids()

    def _show_refunds(self, scenario: Scenario) -> None:
        section = game_section(scenario, SECTION)
        marked = set(section.get("destroyed_this_turn", []))
        gone = set(section.get("destroyed", []))
        fill_unit_checklist(
            self.destroyed_list,
            scenario,
            [u for u in scenario.units if u.id not in gone],
            marked,
            suffix=" destroyed this turn",
        )
        if not uses_module(scenario, "all-out-war"):
            self.refund_text.setText("This scenario does not use All-Out War: no refunds.")
            return
        try:
            refunds = all_out_war_refunds(scenario, marked)
        except WarplanError as error:
            self.refund_text.setText(escape(str(error)))
            return
        preview = "; ".join(escape(r.reason) for r in refunds) or "no unit destroyed this turn"
        self.refund_text.setText(
            "At the end of each turn each player regains Threat Points for their units destroyed "
            f"that turn: cost - 1, minimum 0 (Command Points are not refunded). Due: {preview}."
        )

    def _show_formations(self, scenario: Scenario, report: SharedModulesReport) -> None:
        self.formation_list.clear()
        formations = report.formations
        if formations is None:
            why = (
                "the battle has started (game.shared_modules.turn)"
                if uses_module(scenario, "battle-formations")
                else "this scenario does not use Battle Formations"
            )
            self.formation_text.setText(f"Not checked: {why}.")
            return
        depth = float(
            scenario.option("formation_edge_depth", number("battle-formations", "edge_depth"))
        )
        edges = "; ".join(
            f"{player_html(scenario, p)}: within {inches(depth)} of the {e} edge"
            for p, e in formations.edges.items()
        )
        self.formation_text.setText(
            f"{player_html(scenario, formations.deploys_first)} deploys first, then "
            f'{player_html(scenario, formations.deploys_second)}. {edges}. Models within 2" of '
            'another model of their unit; units at least 2" apart.'
        )
        for violation in formations.violations:
            item = QListWidgetItem(f"\u2717 {violation.message}")
            item.setForeground(QColor("#b00020"))
            self.formation_list.addItem(item)
        if formations.ok:
            item = QListWidgetItem("\u2713 Every deployed unit follows Battle Formations.")
            item.setForeground(QColor("#1e8449"))
            self.formation_list.addItem(item)

    def _show_scout(self, scenario: Scenario) -> None:
        scouted = game_section(scenario, SECTION).get("scout_and_secure", {})
        current = self.scout_box.currentData()
        self.scout_box.clear()
        for unit in scenario.units:
            try:
                cost = f"{unit_cost(unit)} TP"
            except WarplanError:
                cost = "no cost"
            self.scout_box.addItem(
                f"{unit.name or unit.id} ({player_name(scenario, unit.player)}, {cost})", unit.id
            )
        index = self.scout_box.findData(current)
        if index >= 0:
            self.scout_box.setCurrentIndex(index)
        lines = []
        for unit_id, entry in sorted(scouted.items()):
            lead = entry.get("lead")
            if entry.get("moved"):
                lines.append(f"{escape(unit_id)}: {escape(str(lead))} has moved: no protection")
            else:
                lines.append(
                    f"{escape(unit_id)}: <b>{escape(str(lead))} cannot be chosen as the direct "
                    "target of enemy attacks or effects</b> until it completes its first movement "
                    "or placement step (templates, area and splash effects still apply)"
                )
        self.scout_text.setText(
            "Spend Threat Points equal to the unit's cost; place one model onto your table edge, "
            'then the rest within 2" of it.<br>' + ("<br>".join(lines) or "No unit scouted yet.")
        )

    def _show_objectives(self, scenario: Scenario, report: SharedModulesReport) -> None:
        rows = []
        for objective in report.objectives:
            if objective.shared:
                who = "shared: " + " and ".join(
                    player_html(scenario, p) for p in objective.controlled_by
                )
            else:
                who = (
                    " and ".join(player_html(scenario, p) for p in objective.controlled_by)
                    or "nobody"
                )
            rows.append(
                f"<li><b>{escape(objective.objective_id)}</b>: {who}. "
                f"<small>{escape(objective.reason)}</small></li>"
            )
        self.objective_text.setText(
            'A player controls an objective with a model within 3" of its centre and no enemy '
            'model within 2" (both players can control it at once).'
            f"<ul>{''.join(rows)}</ul>"
        )
        protected = [d for d in report.defenses if d.protected]
        if not uses_module(scenario, "reinforced-defenses"):
            self.defense_text.setText("This scenario does not use Reinforced Defenses.")
        else:
            rolls = ", ".join(str(r) for r in removed_target_lock_rolls())
            items = "".join(
                f"<li>{escape(d.unit_id)}: Cover +{d.cover} ({escape(d.reason)})</li>"
                for d in protected
            )
            self.defense_text.setText(
                f'Units with a model within 3" of an objective have Cover +3 (removes successful '
                f"Target Lock rolls of {rolls}) and may only be charged with the charger's Move "
                f"value.<ul>{items or '<li>no unit protected</li>'}</ul>"
            )
        result = report.annihilation
        winner = (
            f"{player_html(scenario, result.winner)} wins. " if result.winner is not None else ""
        )
        counts = "; ".join(
            f"{player_html(scenario, p)}: {len(units)} unit(s) that can be commanded"
            for p, units in sorted(result.commandable.items())
        )
        self.annihilation_text.setText(f"{winner}{escape(result.reason)}. {counts}.")

    # ------------------------------------------------------------------ edits

    def _on_turn(self, value: int) -> None:
        if self._updating:
            return
        self.context.edit(
            lambda s: with_game_key(s, SECTION, "turn", value or None),
            f"Game turn {value}" if value else "Back to deployment",
        )

    def change_points(
        self, player: str, kind: Literal["threat", "command"], *, spend: bool
    ) -> bool:
        amount = self.amount.value()
        name = "Threat Points" if kind == "threat" else "Command Points"
        verb = "spends" if spend else "gains"
        reason = f"{'spent' if spend else 'gained'} in the app"
        return self.context.edit(
            lambda s: ledger_edit(s, player, kind, amount, spend=spend, reason=reason),
            f"{player_name(self.context.scenario, player)} {verb} {amount} {name}",
        )

    def _on_destroyed_toggled(self, item: QListWidgetItem) -> None:
        if self._updating:
            return
        unit_id, marked = checked_unit(item)
        self.context.edit(
            lambda s: with_listed(s, SECTION, "destroyed_this_turn", unit_id, marked),
            f"{unit_id} {'destroyed' if marked else 'not destroyed'} this turn",
        )

    def refund(self) -> bool:
        return self.context.edit(end_of_turn_refunds, "End of turn: All-Out War refunds")

    def scout(self) -> bool:
        unit_id = self.scout_box.currentData()
        if unit_id is None:
            return False
        return self.context.edit(lambda s: scout_edit(s, unit_id), f"Scout and Secure: {unit_id}")

    def lead_moved(self) -> bool:
        unit_id = self.scout_box.currentData()

        def make(s: Scenario) -> Scenario:
            scouted = dict(game_section(s, SECTION).get("scout_and_secure", {}))
            if unit_id not in scouted:
                raise RulesError(f"{unit_id} has not used Scout and Secure")
            scouted[unit_id] = {**scouted[unit_id], "moved": True}
            return with_game_key(s, SECTION, "scout_and_secure", scouted)

        return self.context.edit(make, f"{unit_id}: lead model moved (protection ends)")
