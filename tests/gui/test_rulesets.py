"""The Scrollhammer and Shared Scenario Modules panels and overlays in the real main window:
they appear only for their ruleset, their checks follow edits live, their fixes and ledger
moves are undoable edits, their charts hold the engine's exact odds, and the Night Fighting
bands and Battle Formations violations are drawn at the rules' boundaries."""

from __future__ import annotations

import random
from dataclasses import replace
from html import escape
from pathlib import Path

import pytest
from gui_helpers import duel_scenario
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPushButton

from engine.battlefield_edges import board_edge, model_edge_distance
from engine.model import MM_PER_INCH, CircleBase, Model, Player, Scenario, Unit
from engine.rulesets.scrollhammer import (
    game_length_chart,
    night_fighting_chart,
    night_fighting_view,
    relic_chart,
    reserves_chart,
)
from engine.rulesets.shared_modules import ledgers_from_scenario
from engine.scenario_io import load_scenario
from gui.main_window import MainWindow
from gui.rulesets.scrollhammer import DOCK_NAME as SCROLLHAMMER_DOCK
from gui.rulesets.shared_modules import DOCK_NAME as SHARED_MODULES_DOCK
from gui.shapes import scene_point

ROOT = Path(__file__).resolve().parents[2]
HELD_GROUND = ROOT / "assets" / "scrollhammer" / "held-ground-demo.warplan.json"
FORMATIONS = ROOT / "assets" / "shared-modules" / "battle-formations-demo.warplan.json"
RADIUS_32MM = 32 / MM_PER_INCH / 2


def refreshed(window: MainWindow) -> None:
    for ruleset in ("scrollhammer", "shared-modules"):
        window.plugins[ruleset].context.refresh_now()


def layer_keys(window: MainWindow, ruleset: str, layer: str) -> list:  # type: ignore[type-arg]
    return window.plugins[ruleset].overlay.layers[layer].keys()


def moved_objective(scenario: Scenario, objective_id: str, x: float, y: float) -> Scenario:
    return replace(
        scenario,
        objectives=tuple(
            replace(o, x=x, y=y) if o.id == objective_id else o for o in scenario.objectives
        ),
    )


# ------------------------------------------------------------------------------ switching


def test_each_ruleset_shows_only_its_own_dock_and_overlays(make_window) -> None:  # type: ignore[no-untyped-def]
    window = make_window(duel_scenario())
    sh_dock = window.docks[SCROLLHAMMER_DOCK]
    sm_dock = window.docks[SHARED_MODULES_DOCK]
    refreshed(window)
    assert not sh_dock.isVisible()
    assert not sm_dock.isVisible()
    assert not sh_dock.toggleViewAction().isVisible()
    assert not layer_keys(window, "scrollhammer", "violations")

    window.document.load(load_scenario(HELD_GROUND), None)
    refreshed(window)
    assert sh_dock.isVisible()
    assert not sm_dock.isVisible()
    assert sh_dock.toggleViewAction().isVisible()
    assert not sm_dock.toggleViewAction().isVisible()
    assert layer_keys(window, "scrollhammer", "halves")
    assert len(layer_keys(window, "scrollhammer", "sections")) == 6

    shared = replace(window.document.scenario, ruleset="shared-modules", options={}, game=None)
    window.document.apply(shared, "Switch to Shared Scenario Modules")
    refreshed(window)
    assert sm_dock.isVisible()
    assert not sh_dock.isVisible()
    assert not layer_keys(window, "scrollhammer", "halves")
    assert not layer_keys(window, "scrollhammer", "sections")
    assert layer_keys(window, "shared-modules", "bands")

    window.document.undo_stack.undo()
    refreshed(window)
    assert sh_dock.isVisible()
    assert not sm_dock.isVisible()
    assert not layer_keys(window, "shared-modules", "bands")
    assert layer_keys(window, "scrollhammer", "halves")


def test_overlay_paint_never_calls_the_engine(make_window, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    window = make_window(load_scenario(HELD_GROUND))
    window.scene.select_ids({"red-legionaries"})
    refreshed(window)
    assert layer_keys(window, "scrollhammer", "night")

    def refuse(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("the engine was called while painting")

    import gui.rulesets.scrollhammer.overlay as overlay_module
    import gui.rulesets.scrollhammer.report as report_module
    import gui.rulesets.scrollhammer.setup_tab as setup_module

    for module, name in (
        (report_module, "scrollhammer_report"),
        (overlay_module, "night_fighting_view"),
        (setup_module, "placement_fix"),
    ):
        monkeypatch.setattr(module, name, refuse)
    image = window.view.grab()
    assert not image.isNull()


# ------------------------------------------------------------------------------ Scrollhammer


def test_objective_too_close_to_an_edge_is_shown_and_nudged_back(make_window, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(load_scenario(HELD_GROUND))
    panel = window.plugins["scrollhammer"].panel
    refreshed(window)
    assert panel.setup.checks.item(0).text().startswith("\u2713")
    assert not layer_keys(window, "scrollhammer", "violations")

    window.document.apply(moved_objective(window.document.scenario, "obj-west", 20.0, 6.0), "m")
    refreshed(window)
    texts = [panel.setup.checks.item(i).text() for i in range(panel.setup.checks.count())]
    assert any('obj-west is 6" from the south battlefield edge' in t for t in texts)
    assert layer_keys(window, "scrollhammer", "violations")
    button = panel.findChild(QPushButton, "sh-fix-obj-west")
    assert button is not None
    assert "Move obj-west" in button.text()

    steps = window.document.undo_stack.count()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    refreshed(window)
    fixed = window.document.scenario.objective("obj-west")
    assert (fixed.x, fixed.y) == pytest.approx((20.0, 6.001), abs=1e-9)
    assert window.document.undo_stack.count() == steps + 1
    assert panel.setup.checks.item(0).text().startswith("\u2713")
    assert not layer_keys(window, "scrollhammer", "violations")

    window.document.undo_stack.undo()
    refreshed(window)
    assert window.document.scenario.objective("obj-west").y == 6.0
    assert layer_keys(window, "scrollhammer", "violations")


def test_objectives_too_close_together_are_fixed_by_nudging_the_other(make_window) -> None:  # type: ignore[no-untyped-def]
    window = make_window(load_scenario(HELD_GROUND))
    panel = window.plugins["scrollhammer"].panel
    moved = moved_objective(window.document.scenario, "obj-west", 26.0, 20.0)
    window.document.apply(moved, "m")
    refreshed(window)
    assert panel.setup.fixes, "a fix is offered"
    fix = next(f for f in panel.setup.fixes if f.objective_id == "obj-west")
    assert fix.text.startswith("Nudge obj-centre")
    assert panel.setup.apply_fix(fix)
    refreshed(window)
    scenario = window.document.scenario
    west, centre = scenario.objective("obj-west"), scenario.objective("obj-centre")
    assert (west.x, west.y) == (26.0, 20.0)
    gap = ((west.x - centre.x) ** 2 + (west.y - centre.y) ** 2) ** 0.5
    assert 12.0 < gap <= 12.0011
    assert panel.setup.checks.item(0).text().startswith("\u2713")


def night_scenario(gaps: dict[str, float]) -> Scenario:
    """A shooter at (10, 24) and one enemy unit per gap, each base edge to base edge."""
    base = CircleBase(32)
    shooter = Unit("shooter", "red", (Model("s1", 10.0, 24.0, base),), keywords=("CORE",))
    targets = []
    for index, (unit_id, gap) in enumerate(gaps.items()):
        x = 10.0 + 2 * RADIUS_32MM + gap
        y = 24.0 + (index - len(gaps) / 2) * 0.0
        targets.append(Unit(unit_id, "blue", (Model(f"{unit_id}-1", x, y, base),)))
    return Scenario(
        "scrollhammer",
        (Player("red", "Red"), Player("blue", "Blue")),
        load_scenario(HELD_GROUND).battlefield,
        options={"mission": "season-unending"},
        units=(shooter, *targets),
    )


@pytest.mark.parametrize(
    ("gap", "band"),
    [
        (11.9999, "Normal"),
        (12.0, "Stealth (+1)"),
        (24.0, "Stealth (+1)"),
        (24.0001, "Stealth (+2)"),
        (36.0, "Stealth (+2)"),
        (36.0001, "Hidden"),
    ],
)
def test_night_fighting_bands_are_drawn_at_the_rulebook_distances(make_window, gap, band) -> None:  # type: ignore[no-untyped-def]
    scenario = night_scenario({"target": gap})
    window = make_window(scenario)
    window.scene.select_ids({"shooter"})
    refreshed(window)
    labels = window.plugins["scrollhammer"].overlay.layers["night"].label_texts()
    assert labels[("target", "target")].startswith(f"{band}:")
    engine_view = night_fighting_view(scenario, "shooter")
    assert engine_view.target("target").band.name == band


def test_night_fighting_band_areas_hold_points_on_the_right_side_of_each_limit(make_window) -> None:  # type: ignore[no-untyped-def]
    window = make_window(night_scenario({"target": 20.0}))
    window.scene.select_ids({"shooter"})
    refreshed(window)
    layer = window.plugins["scrollhammer"].overlay.layers["night"]
    edge_x = 10.0 + RADIUS_32MM
    for name, inside, outside in (
        ("Stealth (+1)", 12.05, 11.95),
        ("Stealth (+2)", 24.05, 23.95),
        ("Hidden", 36.05, 35.95),
    ):
        item = layer.item(("band", name))
        assert item is not None
        path = item._strokes[0].path
        assert path.contains(scene_point(edge_x + inside, 24.0)), name
        assert not path.contains(scene_point(edge_x + outside, 24.0)), name
    window.scene.select_ids(set())
    refreshed(window)
    assert not layer.keys()


def test_ruling_names_scrollhammer_rules_for_the_selected_unit(make_window) -> None:  # type: ignore[no-untyped-def]
    window = make_window(load_scenario(HELD_GROUND))
    window.scene.select_ids({"red-legionaries"})
    refreshed(window)
    text = window.ruling.ruling_text()
    assert "[Scrollhammer: Controlling Objectives] red-legionaries is a scoring unit" in text
    assert "[Scrollhammer: Night Fighting] red-legionaries shooting at blue-spears is" in text


def test_charts_hold_the_engines_exact_probabilities(make_window) -> None:  # type: ignore[no-untyped-def]
    window = make_window(load_scenario(HELD_GROUND))
    refreshed(window)
    panel = window.plugins["scrollhammer"].panel
    expected = {
        panel.odds.length_chart: game_length_chart(),
        panel.odds.night_chart: night_fighting_chart("held-ground"),
        panel.odds.reserves_chart: reserves_chart((0,)),
        panel.relic.relic_chart: relic_chart(),
    }
    for view, chart in expected.items():
        assert view.chart == chart
        drawn = view.plotted()
        assert drawn == {s.name: [float(v) for v in s.values] for s in chart.series}
    assert drawn["chance"][5] == 1 / 6
    panel.odds.modifier_spin.setValue(-1)
    assert panel.odds.reserves_chart.chart == reserves_chart((0, -1))
    drawn = panel.odds.reserves_chart.plotted()
    assert drawn["arrives this turn (modifier -1)"] == [0.5, 0.25, 0.25]


def test_mission_roll_and_dice_are_undoable_edits(make_window) -> None:  # type: ignore[no-untyped-def]
    window = make_window(load_scenario(HELD_GROUND))
    panel = window.plugins["scrollhammer"].panel
    panel.rng = random.Random(3)
    before = window.document.scenario
    assert panel.setup.roll_mission()
    refreshed(window)
    rolled = window.document.scenario.option("mission")
    assert panel.setup.mission_box.currentData() == rolled
    assert panel.setup.roll_terrain()
    density = window.document.scenario.game["scrollhammer"]["terrain_density"]
    assert set(density) == {"A1", "B1", "C1", "A2", "B2", "C2"}
    window.document.undo_stack.undo()
    window.document.undo_stack.undo()
    assert window.document.scenario is before


# ------------------------------------------------------------- Shared Scenario Modules


def with_red_line_at(scenario: Scenario, far_edge: float) -> Scenario:
    """Red's Line Squad moved north so its farthest base point is ``far_edge`` from south."""
    unit = scenario.unit("red-line")
    y = far_edge - RADIUS_32MM
    return scenario.with_models([m.placed(m.x, y) for m in unit.models])


def test_battle_formations_violation_at_12_01_clears_at_12(make_window) -> None:  # type: ignore[no-untyped-def]
    window = make_window(load_scenario(FORMATIONS))
    panel = window.plugins["shared-modules"].panel
    start = window.document.scenario
    window.document.apply(with_red_line_at(start, 12.01), "too far")
    refreshed(window)
    texts = [panel.formation_list.item(i).text() for i in range(panel.formation_list.count())]
    assert any("reaches 12.01\" from red's table edge" in t for t in texts)
    assert layer_keys(window, "shared-modules", "violations")

    window.document.apply(with_red_line_at(start, 12.0), "exactly 12")
    refreshed(window)
    assert panel.formation_list.item(0).text().startswith("\u2713")
    assert not layer_keys(window, "shared-modules", "violations")


def click(qtbot, panel, name: str) -> None:  # type: ignore[no-untyped-def]
    qtbot.mouseClick(panel.findChild(QPushButton, name), Qt.MouseButton.LeftButton)


def balances(window: MainWindow, player: str) -> tuple[int, int]:
    books = ledgers_from_scenario(window.document.scenario)[player]
    return books.threat.balance, books.command.balance


def test_threat_and_command_points_stay_separate(make_window, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(load_scenario(FORMATIONS))
    panel = window.plugins["shared-modules"].panel
    refreshed(window)
    assert balances(window, "red") == (10, 3)
    panel.amount.setValue(2)
    click(qtbot, panel, "sm-spend-red-threat")
    assert balances(window, "red") == (8, 3)
    qtbot.mouseClick(
        panel.findChild(QPushButton, "sm-spend-red-command"), Qt.MouseButton.LeftButton
    )
    assert balances(window, "red") == (8, 1)
    qtbot.mouseClick(
        panel.findChild(QPushButton, "sm-gain-blue-command"), Qt.MouseButton.LeftButton
    )
    assert balances(window, "blue") == (8, 5)
    refreshed(window)
    assert "Threat Points: <b style='font-size:13pt'>8</b>" in (
        panel.ledger_labels[("red", "threat")].text()
    )

    steps = window.document.undo_stack.count()
    panel.amount.setValue(2)
    assert not panel.change_points("red", "command", spend=True)
    assert window.document.undo_stack.count() == steps
    assert balances(window, "red") == (8, 1)
    window.document.undo_stack.undo()
    window.document.undo_stack.undo()
    assert balances(window, "red") == (8, 3)


def test_all_out_war_refunds_threat_points_only(make_window) -> None:  # type: ignore[no-untyped-def]
    window = make_window(load_scenario(FORMATIONS))
    panel = window.plugins["shared-modules"].panel
    refreshed(window)
    item = next(
        panel.destroyed_list.item(i)
        for i in range(panel.destroyed_list.count())
        if panel.destroyed_list.item(i).data(Qt.ItemDataRole.UserRole) == "red-walker"
    )
    item.setCheckState(Qt.CheckState.Checked)
    refreshed(window)
    assert "red-walker destroyed, cost 5: refund 5 - 1 = 4" in panel.refund_text.text()
    assert panel.refund()
    assert balances(window, "red") == (14, 3)
    assert window.document.scenario.game["shared_modules"]["destroyed"] == ("red-walker",)


def test_scout_and_secure_spends_threat_points_and_places_the_unit(make_window) -> None:  # type: ignore[no-untyped-def]
    window = make_window(load_scenario(FORMATIONS))
    panel = window.plugins["shared-modules"].panel
    refreshed(window)
    panel.scout_box.setCurrentIndex(panel.scout_box.findData("red-line"))
    assert panel.scout()
    refreshed(window)
    scenario = window.document.scenario
    assert balances(window, "red") == (7, 3)
    lead = scenario.model("red-l1")
    south = board_edge(scenario.battlefield, "south")
    assert model_edge_distance(lead, south) == pytest.approx(0.0, abs=1e-9)
    assert "red-l1 cannot be chosen as the direct target" in panel.scout_text.text()
    assert ("scout", "red-line") in layer_keys(window, "shared-modules", "status")
    window.scene.select_ids({"red-line"})
    assert "[Shared Scenario Modules: Scout And Secure] red-l1" in window.ruling.ruling_text()
    assert panel.lead_moved()
    refreshed(window)
    assert ("scout", "red-line") not in layer_keys(window, "shared-modules", "status")
    window.document.undo_stack.undo()
    window.document.undo_stack.undo()
    assert balances(window, "red") == (10, 3)


def test_shared_control_is_shown_as_shared(make_window) -> None:  # type: ignore[no-untyped-def]
    scenario = load_scenario(FORMATIONS)
    centre = scenario.objective("obj-centre")
    red = scenario.unit("red-line")
    blue = scenario.unit("blue-line")
    placed = scenario.with_models(
        [
            red.models[0].placed(centre.x - 2.9, centre.y),
            blue.models[0].placed(centre.x + 2.9, centre.y),
        ]
    )
    window = make_window(placed)
    refreshed(window)
    text = window.plugins["shared-modules"].panel.objective_text.text()
    assert "<b>obj-centre</b>: shared: " in text


def test_objective_in_impassable_terrain_moves_to_the_nearest_legal_spot(make_window) -> None:  # type: ignore[no-untyped-def]
    window = make_window(load_scenario(HELD_GROUND))
    panel = window.plugins["scrollhammer"].panel
    window.document.apply(moved_objective(window.document.scenario, "obj-west", 10.0, 22.0), "m")
    refreshed(window)
    texts = [panel.setup.checks.item(i).text() for i in range(panel.setup.checks.count())]
    assert any("obj-west is in or on chasm" in t for t in texts)
    fix = next(f for f in panel.setup.fixes if f.objective_id == "obj-west")
    assert panel.setup.apply_fix(fix)
    moved = window.document.scenario.objective("obj-west")
    # The chasm spans 8-12 x 20-24; out of it by the marker's radius, the nearest exit is 2"
    # plus 20 mm away, found to the search's 0.01" step.
    shortest = 2.0 + moved.radius
    travelled = ((moved.x - 10.0) ** 2 + (moved.y - 22.0) ** 2) ** 0.5
    assert shortest < travelled <= shortest + 0.011
    refreshed(window)
    assert panel.setup.checks.item(0).text().startswith("\u2713")


def test_blood_at_dawn_shows_the_shimmer_of_dawn_schedule_and_rolls_it(make_window) -> None:  # type: ignore[no-untyped-def]
    from engine.rulesets.scrollhammer import night_fighting_status

    scenario = load_scenario(HELD_GROUND)
    scenario = replace(
        scenario,
        options={"mission": "blood-at-dawn"},
        game={"scrollhammer": {"turn": 2, "deployed_first": "red"}},
    )
    window = make_window(scenario)
    panel = window.plugins["scrollhammer"].panel
    panel.rng = random.Random(11)
    refreshed(window)
    text = panel.battle.night_text.text()
    assert "<b>The Shimmer of Dawn</b> schedule" in text
    assert panel.battle.night_roll.isEnabled()
    assert panel.battle.roll_night()
    refreshed(window)
    rolls = {
        int(k): v
        for k, v in window.document.scenario.game["scrollhammer"]["night_fighting_rolls"].items()
    }
    status = night_fighting_status("blood-at-dawn", rolls, 2)
    assert status.roll_due is None
    assert escape(status.reason) in panel.battle.night_text.text()
    window.document.undo_stack.undo()
    assert "night_fighting_rolls" not in window.document.scenario.game["scrollhammer"]


def test_a_restored_layout_never_shows_another_rulesets_dock(
    qtbot, settings, autosave_store
) -> None:  # type: ignore[no-untyped-def]
    first = MainWindow(
        load_scenario(HELD_GROUND), settings=settings, autosave=autosave_store, restore_layout=False
    )
    first.show()
    qtbot.waitExposed(first)
    assert first.docks[SCROLLHAMMER_DOCK].isVisible()
    first.save_layout()
    first.close()
    first.deleteLater()

    second = MainWindow(duel_scenario(), settings=settings, autosave=autosave_store)
    second.show()
    qtbot.waitExposed(second)
    qtbot.wait(10)
    assert not second.docks[SCROLLHAMMER_DOCK].isVisible()
    assert not second.docks[SHARED_MODULES_DOCK].isVisible()
    second.close()
    second.deleteLater()


def test_battle_formations_are_checked_live_during_a_drag(make_window, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(load_scenario(FORMATIONS))
    refreshed(window)
    start = window.document.scenario
    window.document.preview(with_red_line_at(start, 12.01))
    qtbot.waitUntil(lambda: bool(layer_keys(window, "shared-modules", "violations")), timeout=2000)
    window.document.preview(with_red_line_at(start, 12.0))
    qtbot.waitUntil(lambda: not layer_keys(window, "shared-modules", "violations"), timeout=2000)
    window.document.end_drag("Move Line Squad")
    assert window.document.undo_stack.count() == 1


def test_starting_the_battle_ends_the_deployment_check(make_window) -> None:  # type: ignore[no-untyped-def]
    window = make_window(with_red_line_at(load_scenario(FORMATIONS), 13.0))
    panel = window.plugins["shared-modules"].panel
    refreshed(window)
    assert layer_keys(window, "shared-modules", "bands")
    assert layer_keys(window, "shared-modules", "violations")
    panel.turn_spin.setValue(1)
    refreshed(window)
    assert window.document.scenario.game["shared_modules"]["turn"] == 1
    assert not layer_keys(window, "shared-modules", "bands")
    assert not layer_keys(window, "shared-modules", "violations")
    assert panel.formation_text.text().startswith("Not checked: the battle has started")


def test_the_relic_is_placed_and_identified_as_undoable_edits(make_window) -> None:  # type: ignore[no-untyped-def]
    from engine.rulesets.scrollhammer.relic import relic_marker, relic_result

    scenario = replace(load_scenario(HELD_GROUND), options={"mission": "quest-for-the-relic"})
    window = make_window(scenario)
    panel = window.plugins["scrollhammer"].panel
    panel.rng = random.Random(2)
    assert panel.relic.place_relic()
    marker = relic_marker(window.document.scenario)
    assert marker is not None
    assert (marker.x, marker.y) == (36.0, 24.0)
    assert not panel.relic.place_relic()
    assert panel.relic.roll_relic()
    refreshed(window)
    roll = window.document.scenario.game["scrollhammer"]["relic"]["result"]
    identified = f"Identified: <b>{roll} {escape(relic_result(roll).name)}</b>"
    assert identified in panel.relic.relic_text.text()
    window.document.undo_stack.undo()
    window.document.undo_stack.undo()
    assert relic_marker(window.document.scenario) is None
