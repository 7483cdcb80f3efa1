"""The New game dialog: the mission generator for all three rulesets, every choice selectable,
seeded, with a live preview of what the choices give (or the engine's reason they cannot).

``NewGameDialog.build(base)`` turns the dialog's choices into a new scenario (pure functions of
``gui.missions.setups``); the caller makes it a new document (File > New) or one undoable edit
of the open battlefield (the Mission dock's New game...).
"""

from __future__ import annotations

import random
from typing import Any

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from engine.errors import WarplanError
from engine.model import RULESETS, Scenario
from gui.missions import setups

RULESET_NAMES = {
    "wh40k-ca2026": "Chapter Approved 2026-27 Mission Deck",
    "scrollhammer": "Scrollhammer Standard Missions",
    "shared-modules": "Shared Scenario Modules",
}
FROM_DISPOSITIONS = "From the Force Dispositions"
DRAW_CARD = "Draw a card (seeded)"
ROLL = "Roll (seeded)"
MAX_SEED = 999_999


def _combo(items: list[tuple[str, Any]]) -> QComboBox:
    box = QComboBox()
    for text, data in items:
        box.addItem(text, data)
    return box


def select_data(box: QComboBox, data: Any) -> None:
    """Make the item carrying ``data`` current (no change when there is none)."""
    index = box.findData(data)
    if index >= 0:
        box.setCurrentIndex(index)


class NewGameDialog(QDialog):
    """Choose a ruleset and its set-up; ``build(base)`` gives the new scenario."""

    def __init__(self, scenario: Scenario, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("New game")
        self.setObjectName("NewGameDialog")
        self.base = scenario
        players = scenario.player_ids()
        self.names = [p.name or p.id for p in scenario.players]

        self.ruleset = _combo([(RULESET_NAMES[r], r) for r in RULESETS])
        self.seed = QSpinBox()
        self.seed.setRange(0, MAX_SEED)
        self.seed.setValue(random.randrange(MAX_SEED))
        reroll = QPushButton("New seed")
        reroll.clicked.connect(lambda: self.seed.setValue(random.randrange(MAX_SEED)))
        seed_row = QHBoxLayout()
        seed_row.addWidget(self.seed, 1)
        seed_row.addWidget(reroll)
        top = QFormLayout()
        top.addRow("Ruleset", self.ruleset)
        top.addRow("Seed (same seed, same rolls)", seed_row)

        self.pages = QStackedWidget()
        self.pages.addWidget(self._wh40k_page(players))
        self.pages.addWidget(self._scrollhammer_page(players))
        self.pages.addWidget(self._shared_page(players))
        self.ruleset.currentIndexChanged.connect(self._on_ruleset)

        self.preview = QLabel()
        self.preview.setObjectName("new-game-preview")
        self.preview.setWordWrap(True)
        self.preview.setMinimumWidth(420)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.pages)
        layout.addWidget(self.preview)
        layout.addWidget(self.buttons)
        for box in self.findChildren(QComboBox):
            box.currentIndexChanged.connect(lambda _i: self.update_preview())
        for check in self.findChildren(QCheckBox):
            check.toggled.connect(lambda _on: self.update_preview())
        self.seed.valueChanged.connect(lambda _v: self.update_preview())
        if scenario.ruleset in RULESETS:
            select_data(self.ruleset, scenario.ruleset)
        self._on_ruleset()

    # ------------------------------------------------------------------ pages

    def _wh40k_page(self, players: tuple[str, str]) -> QWidget:
        from engine.rulesets.wh40k_ca2026 import force_dispositions, primary_missions, twists
        from engine.rulesets.wh40k_ca2026.cards import deployment_deck, twist

        page = QWidget()
        form = QFormLayout(page)
        dispositions = [(fd.name, fd.name) for fd in force_dispositions()]
        primaries = [(FROM_DISPOSITIONS, None)] + [(c.name, c.name) for c in primary_missions()]
        self.dispositions: list[QComboBox] = []
        self.primaries: list[QComboBox] = []
        for slot, name in enumerate(self.names):
            fd = _combo([*dispositions, ("None (pick the Primary)", None)])
            fd.setCurrentIndex(slot % len(dispositions))
            primary = _combo(primaries)
            self.dispositions.append(fd)
            self.primaries.append(primary)
            form.addRow(f"{name}'s Force Disposition", fd)
            form.addRow(f"{name}'s Primary Mission", primary)
        self.deployment = _combo([(DRAW_CARD, None), *((n, i) for i, n in deployment_deck())])
        self.twist = _combo(
            [("No Twist", "none"), ("Random Twist (seeded)", "random")]
            + [(t.name, t.id) for t in twists()]
        )
        allowed = [str(n) for n in twist("mirrored-world").effect["choices"]]
        self.mirrored = _combo([("Roll a D6, re-rolling 6", None), *((n, n) for n in allowed)])
        self.swap = QCheckBox("Scrambled Communications: exchange the Primary Missions")
        self.swap.setChecked(True)
        self.winner_chooses = _combo(
            [("Roll-off winner is the Attacker", "attacker"), ("... the Defender", "defender")]
        )
        form.addRow("Deployment card", self.deployment)
        form.addRow("Twist", self.twist)
        form.addRow("Mirrored World Primary", self.mirrored)
        form.addRow("", self.swap)
        form.addRow("Attacker / Defender", self.winner_chooses)
        return page

    def _scrollhammer_page(self, players: tuple[str, str]) -> QWidget:
        from engine.rulesets.scrollhammer import standard_missions

        page = QWidget()
        form = QFormLayout(page)
        self.mission = _combo(
            [("Roll on the D6 chart (seeded)", None)]
            + [(m.title, m.id) for m in standard_missions()]
        )
        self.halves = _combo(
            [("The mission's", None), ("Long-edge halves", "long-edge"), ("Diagonal", "diagonal")]
        )
        self.deploys_first_sh = _combo(
            [("Roll-off (seeded)", None), *zip(self.names, players, strict=True)]
        )
        self.seize = QCheckBox("The player deploying second tries to Seize the Initiative (D6)")
        form.addRow("Standard Mission", self.mission)
        form.addRow("Table halves", self.halves)
        form.addRow("Deploys first", self.deploys_first_sh)
        form.addRow("", self.seize)
        return page

    def _shared_page(self, players: tuple[str, str]) -> QWidget:
        from engine.rulesets.shared_modules._data import modules_data
        from engine.rulesets.shared_modules.modules import DEFAULT_MODULES

        page = QWidget()
        form = QFormLayout(page)
        self.module_checks: dict[str, QCheckBox] = {}
        for module in modules_data()["modules"]:
            check = QCheckBox(str(module["name"]))
            check.setChecked(module["id"] in DEFAULT_MODULES)
            check.setToolTip(" ".join(str(t) for t in module["text"]))
            self.module_checks[str(module["id"])] = check
            form.addRow("", check)
        self.deploys_first_sm = _combo(
            [("Roll-off (seeded)", None), *zip(self.names, players, strict=True)]
        )
        form.addRow("Deploys first (and takes the first turn)", self.deploys_first_sm)
        return page

    # ------------------------------------------------------------------ result

    def _on_ruleset(self) -> None:
        self.pages.setCurrentIndex(RULESETS.index(self.chosen_ruleset()))
        self.update_preview()

    def chosen_ruleset(self) -> str:
        return str(self.ruleset.currentData())

    def build(self, base: Scenario) -> Scenario:
        """The new game on ``base`` (raises the engine's error when the choices cannot be)."""
        seed = self.seed.value()
        ruleset = self.chosen_ruleset()
        if ruleset == "wh40k-ca2026":
            return setups.wh40k_game(
                base,
                seed=seed,
                force_dispositions=(
                    self.dispositions[0].currentData(),
                    self.dispositions[1].currentData(),
                ),
                primaries=(self.primaries[0].currentData(), self.primaries[1].currentData()),
                deployment=self.deployment.currentData(),
                twist_request=self.twist.currentData(),
                mirrored_choice=self.mirrored.currentData(),
                swap_primaries=self.swap.isChecked(),
                winner_chooses=str(self.winner_chooses.currentData()),
            )
        if ruleset == "scrollhammer":
            return setups.scrollhammer_game(
                base,
                seed=seed,
                mission=self.mission.currentData(),
                deployed_first=self.deploys_first_sh.currentData(),
                seize_attempt=self.seize.isChecked(),
                table_halves=self.halves.currentData(),
            )
        modules = [m for m, check in self.module_checks.items() if check.isChecked()]
        return setups.shared_modules_game(
            base, seed=seed, modules=modules, deploys_first=self.deploys_first_sm.currentData()
        )

    def update_preview(self) -> None:
        if not hasattr(self, "module_checks"):
            return
        try:
            built = self.build(self.base)
        except WarplanError as error:
            self.preview.setText(f"<b>These choices cannot be set up:</b> {error}")
            self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(False)
            return
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(True)
        self.preview.setText(describe_setup(built))


def describe_setup(scenario: Scenario) -> str:
    """One paragraph saying what a set-up gives (HTML)."""
    game = scenario.game or {}
    setup = game.get("setup") or {}
    names = {p.id: p.name or p.id for p in scenario.players}
    first = names.get(str(game.get("first_player")), game.get("first_player"))
    if scenario.ruleset == "wh40k-ca2026":
        primaries = setup.get("primaries", {})
        attacker = names.get(str(setup.get("attacker")), setup.get("attacker"))
        centrals = "two central objectives" if setup.get("central_roll") == 6 else "one central"
        parts = [
            f"<b>{setup.get('deployment')}</b>"
            + (" (drawn)" if setup.get("deployment_drawn") else ""),
            "Primary: " + "; ".join(f"{names.get(p, p)} <b>{m}</b>" for p, m in primaries.items()),
            f"Twist: {game.get('twist') or 'none'}",
            f"objective D6 {setup.get('central_roll')}: {centrals}",
            f"Attacker: {attacker}",
            f"first turn: {first}",
        ]
        return " \u2022 ".join(parts)
    if scenario.ruleset == "scrollhammer":
        from engine.rulesets.scrollhammer import standard_mission

        mission = standard_mission(str(setup.get("mission")))
        rolled = f" (rolled {setup['mission_roll']})" if "mission_roll" in setup else ""
        return (
            f"<b>{mission.title}</b>{rolled} \u2022 deploys first: "
            f"{names.get(str(setup.get('deployed_first')), '')} \u2022 {setup.get('reason', '')}"
        )
    modules = ", ".join(str(m) for m in setup.get("modules", ()))
    return f"Modules: {modules} \u2022 deploys first and takes the first turn: {first}"
