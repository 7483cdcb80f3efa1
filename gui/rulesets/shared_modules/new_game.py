"""The Shared Scenario Modules page of the New game dialog: the modules in use and who deploys
first (and takes the first turn)."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QCheckBox, QComboBox, QFormLayout, QWidget

from engine.model import Scenario
from engine.rulesets import other_systems_options
from engine.rulesets.shared_modules._data import modules_data
from engine.rulesets.shared_modules.modules import DEFAULT_MODULES
from engine.rulesets.shared_modules.setup import new_game

TITLE = "Shared Scenario Modules"


class SharedModulesNewGamePage(QWidget):
    changed = Signal()

    def __init__(self, scenario: Scenario) -> None:
        super().__init__()
        form = QFormLayout(self)
        self.module_checks: dict[str, QCheckBox] = {}
        for module in modules_data()["modules"]:
            check = QCheckBox(str(module["name"]))
            check.setChecked(module["id"] in DEFAULT_MODULES)
            check.setToolTip(" ".join(str(t) for t in module["text"]))
            check.toggled.connect(lambda _on: self.changed.emit())
            self.module_checks[str(module["id"])] = check
            form.addRow("", check)
        self.deploys_first = QComboBox()
        self.deploys_first.addItem("Roll-off (seeded)", None)
        for player in scenario.players:
            self.deploys_first.addItem(player.name or player.id, player.id)
        self.deploys_first.currentIndexChanged.connect(lambda _i: self.changed.emit())
        form.addRow("Deploys first (and takes the first turn)", self.deploys_first)

    def build(self, base: Scenario, seed: int) -> Scenario:
        modules = [m for m, check in self.module_checks.items() if check.isChecked()]
        return new_game(
            base,
            seed=seed,
            modules=modules,
            deploys_first=self.deploys_first.currentData(),
            dropped_options=other_systems_options("shared-modules"),
        )

    def describe(self, scenario: Scenario) -> str:
        game = scenario.game or {}
        setup = game.get("setup") or {}
        names = {p.id: p.name or p.id for p in scenario.players}
        first = names.get(str(game.get("first_player")), game.get("first_player"))
        modules = ", ".join(str(m) for m in setup.get("modules", ()))
        return f"Modules: {modules} \u2022 deploys first and takes the first turn: {first}"
