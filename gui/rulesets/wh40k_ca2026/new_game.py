"""The Chapter Approved 2026-27 page of the New game dialog: the mission generator, every
choice selectable, seeded."""

from __future__ import annotations

from html import escape
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QCheckBox, QComboBox, QFormLayout, QWidget

from engine.model import Scenario
from engine.rulesets import other_systems_options
from engine.rulesets.wh40k_ca2026 import force_dispositions, primary_missions, twists
from engine.rulesets.wh40k_ca2026.cards import deployment_deck, twist
from engine.rulesets.wh40k_ca2026.generator import new_game
from gui.rulesets.wh40k_ca2026.context import RULESET

TITLE = "Chapter Approved 2026-27 Mission Deck"
FROM_DISPOSITIONS = "From the Force Dispositions"
DRAW_CARD = "Draw a card (seeded)"
BATTLEFIELDS = [
    ("Custom (Deployment card)", None),
    ("Recommended layout, random (seeded)", "random"),
    ("Recommended layout A", "A"),
    ("Recommended layout B", "B"),
    ("Recommended layout C", "C"),
]


def combo(items: list[tuple[str, Any]]) -> QComboBox:
    box = QComboBox()
    for text, data in items:
        box.addItem(text, data)
    return box


class Wh40kNewGamePage(QWidget):
    """Force Dispositions and Primary Missions per player, Deployment card, Twist, roles."""

    changed = Signal()

    def __init__(self, scenario: Scenario) -> None:
        super().__init__()
        names = [p.name or p.id for p in scenario.players]
        form = QFormLayout(self)
        dispositions = [(fd.name, fd.name) for fd in force_dispositions()]
        primaries = [(FROM_DISPOSITIONS, None)] + [(c.name, c.name) for c in primary_missions()]
        self.dispositions: list[QComboBox] = []
        self.primaries: list[QComboBox] = []
        for slot, name in enumerate(names):
            fd = combo([*dispositions, ("None (pick the Primary)", None)])
            fd.setCurrentIndex(slot % len(dispositions))
            primary = combo(primaries)
            self.dispositions.append(fd)
            self.primaries.append(primary)
            form.addRow(f"{name}'s Force Disposition", fd)
            form.addRow(f"{name}'s Primary Mission", primary)
        self.battlefield = combo(BATTLEFIELDS)
        self.battlefield.setObjectName("ca-battlefield")
        self.battlefield.setToolTip(
            "Custom: draw a Deployment card and place terrain yourself. Recommended: one of the "
            "three layouts (A, B or C) for this pair of Force Dispositions, with its terrain, "
            "objectives and Deployment card."
        )
        self.deployment = combo([(DRAW_CARD, None), *((n, i) for i, n in deployment_deck())])
        self.twist = combo(
            [("No Twist", "none"), ("Random Twist (seeded)", "random")]
            + [(t.name, t.id) for t in twists()]
        )
        allowed = [str(n) for n in twist("mirrored-world").effect["choices"]]
        self.mirrored = combo([("Roll a D6, re-rolling 6", None), *((n, n) for n in allowed)])
        self.swap = QCheckBox("Scrambled Communications: exchange the Primary Missions")
        self.swap.setChecked(True)
        self.winner_chooses = combo(
            [("Roll-off winner is the Attacker", "attacker"), ("... the Defender", "defender")]
        )
        form.addRow("Battlefield", self.battlefield)
        form.addRow("Deployment card", self.deployment)
        form.addRow("Twist", self.twist)
        form.addRow("Mirrored World Primary", self.mirrored)
        form.addRow("", self.swap)
        form.addRow("Attacker / Defender", self.winner_chooses)
        for box in self.findChildren(QComboBox):
            box.currentIndexChanged.connect(lambda _i: self.changed.emit())
        self.swap.toggled.connect(lambda _on: self.changed.emit())
        self.battlefield.currentIndexChanged.connect(self._on_battlefield)

    def _on_battlefield(self, _index: int) -> None:
        # A recommended layout brings its own Deployment card.
        self.deployment.setEnabled(self.battlefield.currentData() is None)

    def build(self, base: Scenario, seed: int) -> Scenario:
        return new_game(
            base,
            seed=seed,
            force_dispositions=(
                self.dispositions[0].currentData(),
                self.dispositions[1].currentData(),
            ),
            primaries=(self.primaries[0].currentData(), self.primaries[1].currentData()),
            deployment=self.deployment.currentData(),
            layout=self.battlefield.currentData(),
            twist_request=self.twist.currentData(),
            mirrored_choice=self.mirrored.currentData(),
            swap_primaries=self.swap.isChecked(),
            winner_chooses=(
                "defender" if self.winner_chooses.currentData() == "defender" else "attacker"
            ),
            dropped_options=other_systems_options(RULESET),
        )

    def describe(self, scenario: Scenario) -> str:
        return describe_setup(scenario)


def layout_source_html(scenario: Scenario) -> str:
    """Where the table's layout comes from: its name, source and revision (HTML; "" without)."""
    found = scenario.layout
    if found is None:
        return ""
    return f"<b>{escape(found.name)}</b> <small>({escape(found.source)})</small>"


def describe_setup(scenario: Scenario) -> str:
    """One paragraph saying what a Chapter Approved set-up gives (HTML)."""
    game = scenario.game or {}
    setup = game.get("setup") or {}
    names = {p.id: p.name or p.id for p in scenario.players}
    first = names.get(str(game.get("first_player")), game.get("first_player"))
    primaries = setup.get("primaries", {})
    attacker = names.get(str(setup.get("attacker")), setup.get("attacker"))
    centrals = "two central objectives" if setup.get("central_roll") == 6 else "one central"
    objectives = f"objective D6 {setup.get('central_roll')}: {centrals}"
    drawn = " (drawn)" if setup.get("deployment_drawn") else ""
    board = f"<b>{setup.get('deployment')}</b>{drawn}"
    if setup.get("layout"):
        picked = " (picked at random)" if setup.get("layout_drawn") else ""
        name = scenario.layout.name if scenario.layout is not None else setup["layout"]
        board = f"layout <b>{escape(str(name))}</b>{picked} on <b>{setup.get('deployment')}</b>"
        objectives = "objectives: the layout's own"
    parts = [
        board,
        "Primary: " + "; ".join(f"{names.get(p, p)} <b>{m}</b>" for p, m in primaries.items()),
        f"Twist: {game.get('twist') or 'none'}",
        objectives,
        f"Attacker: {attacker}",
        f"first turn: {first}",
    ]
    return " \u2022 ".join(parts)
