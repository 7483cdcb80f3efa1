"""The main window's plug-in API: a rule system's app part adds docks (shown only for its
ruleset, placed by the first-start layout), extends the ruling and adds a New game page, and
the window names none of them."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

from gui_helpers import duel_scenario
from PySide6.QtCore import Signal
from PySide6.QtWidgets import QLabel, QWidget

from engine.model import Battlefield, Scenario
from engine.rulesets.scrollhammer.setup import new_game
from gui.plugin_api import DockPlace, NewGamePageSpec
from gui.rulesets import RULESET_UIS

ROOT = Path(__file__).resolve().parents[2]
GUI = ROOT / "gui"
HELD_GROUND = ROOT / "assets" / "scrollhammer" / "held-ground-demo.warplan.json"
RULESET_COMPARISON = re.compile(r"ruleset *(==|!=| in | not in )")


def test_a_dock_of_one_ruleset_shows_only_while_the_scenario_uses_it(make_window) -> None:  # type: ignore[no-untyped-def]
    window = make_window()
    dock = window.add_dock(QLabel("x"), "X", "XDock", DockPlace.EXPLANATIONS, ruleset="other")
    window.arrange_default_layout()
    assert not dock.isVisible()
    assert not dock.toggleViewAction().isVisible()
    window.document.load(replace(duel_scenario(), ruleset="other"), None)
    assert dock.isVisible()
    assert dock.toggleViewAction().isVisible()
    window.document.load(duel_scenario(), None)
    assert not dock.isVisible()


def test_a_rule_systems_overlay_toggle_is_offered_for_its_ruleset_and_hides_its_marks(
    make_window,
) -> None:  # type: ignore[no-untyped-def]
    from engine.scenario_io import load_scenario

    window = make_window(load_scenario(HELD_GROUND))
    toggle = window.overlay_actions["scrollhammer"]
    assert toggle.isVisible()
    assert not window.overlay_actions["shared-modules"].isVisible()
    window.plugins["scrollhammer"].context.refresh_now()
    layer = window.plugins["scrollhammer"].overlay.layers["halves"]
    assert layer.keys()
    assert all(item.isVisible() for item in layer.graphics_items())
    toggle.setChecked(False)
    assert not any(item.isVisible() for item in layer.graphics_items())
    window.document.load(duel_scenario(), None)
    assert not toggle.isVisible()


def test_docks_of_one_place_share_a_tab_group(make_window, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window()
    dock = window.add_dock(QLabel("x"), "X", "XDock", DockPlace.GAME)
    window.arrange_default_layout()
    turn = window.docks["TurnLedgerDock"]
    qtbot.waitUntil(lambda: turn in window.tabifiedDockWidgets(dock), timeout=2000)
    assert window.docks["RulingDock"] not in window.tabifiedDockWidgets(dock)


def test_an_extension_adds_to_the_ruling_of_the_selection(make_window, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window()
    window.extend_ruling(
        lambda scenario, selection: "Extra: " + ", ".join(sorted(selection.unit_ids(scenario)))
    )
    window.scene.select_ids({"red-1"})
    qtbot.waitUntil(lambda: "Extra: red-squad" in window.ruling.ruling_text(), timeout=5000)


def test_a_ruling_extension_of_one_ruleset_is_asked_only_for_its_games(make_window, qtbot) -> None:  # type: ignore[no-untyped-def]
    from engine.scenario_io import load_scenario

    window = make_window()
    asked: list[str] = []

    def contribute(scenario: Scenario, _selection: object) -> str:
        asked.append(scenario.ruleset)
        return "Held Ground extra"

    window.extend_ruling(contribute, ruleset="scrollhammer")
    window.scene.select_ids({"red-1"})
    qtbot.waitUntil(lambda: "red-squad" in window.ruling.ruling_text(), timeout=5000)
    assert asked == []
    assert "Held Ground extra" not in window.ruling.ruling_text()
    window.document.load(load_scenario(HELD_GROUND), None)
    qtbot.waitUntil(lambda: "Held Ground extra" in window.ruling.ruling_text(), timeout=5000)
    assert set(asked) == {"scrollhammer"}


def test_an_analysis_of_one_ruleset_runs_only_for_its_games_and_says_so(make_window) -> None:  # type: ignore[no-untyped-def]
    from engine.scenario_io import load_scenario

    window = make_window()
    live = window.live
    analysed: list[str] = []

    def analyse(scenario: Scenario, _evaluation: object) -> str:
        analysed.append(scenario.ruleset)
        return f"report of {scenario.title}"

    live.add_analysis("held ground only", analyse, ruleset="scrollhammer")
    assert live.wait_for_analyses()
    duel = window.document.scenario
    assert not live.serves("held ground only", duel)
    assert live.serves("wh40k-ca2026 score", duel)
    result = live.analysis("held ground only")
    assert result is not None
    assert result.value is None
    assert result.error == ""
    held = load_scenario(HELD_GROUND)
    window.document.load(held, None)
    assert live.wait_for_analyses()
    assert live.serves("held ground only", held)
    assert not live.serves("wh40k-ca2026 score", held)
    result = live.analysis("held ground only")
    assert result is not None
    assert result.value == f"report of {held.title}"
    score = live.analysis("wh40k-ca2026 score")
    assert score is not None
    assert score.value is None
    assert analysed == ["scrollhammer"]


class MarkedPage(QWidget):
    changed = Signal()

    def build(self, base: Scenario, seed: int) -> Scenario:
        built = new_game(base, seed=seed, mission="held-ground")
        return replace(built, title=f"marked {seed}")

    def describe(self, scenario: Scenario) -> str:
        return scenario.title


def test_a_new_game_page_builds_file_new_on_its_table(make_window) -> None:  # type: ignore[no-untyped-def]
    window = make_window()
    table = Battlefield(50.0, 40.0)
    window.add_new_game_page(NewGamePageSpec("marked", "Marked", lambda _s: MarkedPage(), table))

    def choose(dialog) -> bool:  # type: ignore[no-untyped-def]
        assert [s.ruleset for s in dialog.specs][-1] == "marked"
        dialog.ruleset.setCurrentIndex(len(dialog.specs) - 1)
        dialog.seed.setValue(5)
        assert dialog.preview.text().startswith("marked 5")
        return True

    window.run_dialog = choose
    window.document.undo_stack.setClean()
    window.action_new.trigger()
    scenario = window.document.scenario
    assert scenario.battlefield == table
    assert scenario.title == "marked 5"


def test_the_registry_has_every_rule_system_and_no_part_of_the_app_compares_ruleset_ids() -> None:
    assert list(RULESET_UIS) == ["wh40k-ca2026", "scrollhammer", "shared-modules"]
    window_source = (GUI / "main_window.py").read_text()
    for name in ("MissionDock", "ScrollhammerDock", "SharedModulesDock", "SecondaryDock"):
        assert name not in window_source
    comparing = [
        f"{path.relative_to(GUI)}:{number}"
        for path in GUI.rglob("*.py")
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if RULESET_COMPARISON.search(line)
    ]
    assert comparing == []
