"""Real armies and official tables in the real window: the palette's datasheet search, File >
Import army list..., the Reserves dock, a recommended layout from the New game dialog and the
Mission dock, upper floors in the Inspector, and the data's credit in the About box."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from gui_helpers import duel_scenario
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QComboBox, QPushButton, QWidget

from engine.deployments import resolve_deployment
from engine.geometry import model_wholly_within
from engine.model import CircleBase, Scenario
from engine.rulesets.wh40k_ca2026.generator import new_game
from gui.main_window import MainWindow
from gui.panels.about import AboutDialog, about_html
from gui.panels.army_import import ArmyImportDialog
from gui.panels.new_game import NewGameDialog, select_data

LISTS = Path(__file__).resolve().parents[1] / "engine" / "data" / "army_lists"
TYPO_LIST = """Red Fist (500 Points)

Space Marines
Gladius Task Force
Incursion (1,000 Points)

BATTLELINE

Intercesor Squad (80 Points)
  \u2022 1x Intercessor Sergeant
    \u25e6 1x Bolt rifle
  \u2022 4x Intercessor
    \u25e6 4x Bolt rifle
"""


def on_layout(letter: str = "A") -> Scenario:
    return new_game(
        duel_scenario(),
        seed=2,
        force_dispositions=("Take and Hold", "Purge the Foe"),
        layout=letter,
    )


def refreshed(window: MainWindow) -> None:
    window.plugins["wh40k-ca2026"].context.refresh_now()


def test_palette_finds_a_datasheet_by_an_awkward_name_and_adds_it(make_window) -> None:  # type: ignore[no-untyped-def]
    window = make_window()
    palette = window.palette_panel
    palette.datasheet_query.setText("kharn")
    assert palette.datasheet_results.item(0).text().startswith("Khârn the Betrayer")
    assert palette.chosen_datasheet is not None
    assert palette.chosen_datasheet.id == "kharn-the-betrayer"
    assert (palette.unit_models.minimum(), palette.unit_models.maximum()) == (1, 1)
    assert not palette.unit_base.isEnabled()
    before = len(window.document.scenario.units)
    palette.add_unit()
    scenario = window.document.scenario
    added = scenario.units[-1]
    assert len(scenario.units) == before + 1
    assert added.id == "red-kharn-the-betrayer-1"
    assert (added.datasheet, added.name, added.move, added.oc) == (
        "kharn-the-betrayer",
        "Khârn the Betrayer",
        8,
        1,
    )
    assert added.models[0].base == CircleBase(40)
    assert "WORLD EATERS" in added.keywords
    window.action_undo.trigger()
    assert len(window.document.scenario.units) == before


def test_palette_model_count_stays_in_the_datasheet_range_and_a_hull_needs_a_base(  # type: ignore[no-untyped-def]
    make_window,
) -> None:
    window = make_window()
    palette = window.palette_panel
    palette.datasheet_query.setText("Intercessor Squad")
    assert palette.chosen_datasheet is not None
    assert palette.chosen_datasheet.id == "intercessor-squad"
    assert (palette.unit_models.minimum(), palette.unit_models.maximum()) == (5, 10)
    palette.unit_models.setValue(10)
    palette.add_unit()
    assert len(window.document.scenario.units[-1].models) == 10

    palette.datasheet_query.setText("Immolator")
    assert palette.chosen_datasheet is not None
    assert palette.chosen_datasheet.base is None
    assert palette.unit_base.isEnabled()
    assert "choose one" in palette.datasheet_summary.text()
    palette.add_unit()
    hull = window.document.scenario.units[-1]
    assert hull.datasheet == "immolator"
    assert hull.models[0].base == palette.unit_base.currentData()

    palette.datasheet_query.setText("")
    assert palette.chosen_datasheet is None
    assert palette.unit_name.isEnabled()


def test_import_army_into_the_deployment_zone_then_through_the_reserves(make_window) -> None:  # type: ignore[no-untyped-def]
    window = make_window(on_layout())

    def run(dialog: ArmyImportDialog) -> bool:
        select_data(dialog.player, "red")
        dialog.load_file(LISTS / "gw_app_space_marines.txt")
        assert "gw-app" in dialog.status.text()
        assert dialog.resolved.rowCount() >= 14
        dialog.to_zone.setChecked(True)
        return True

    window.run_dialog = run
    told: list[str] = []
    window.inform = lambda _parent, _title, text: told.append(text)
    assert window.import_army_dialog()
    assert any("Rhino not added" in text and "choose a base" in text for text in told)
    scenario = window.document.scenario
    zone = resolve_deployment(scenario).zone_geometry("red")  # type: ignore[union-attr]
    red = [u for u in scenario.units if u.player == "red" and u.datasheet]
    assert len(red) >= 14
    for unit in red:
        assert all(model_wholly_within(m, zone) for m in unit.models), unit.id
    assert window.document.undo_stack.undoText().startswith("Import army list")

    reserves = window.reserves
    window.scene.select_ids({red[0].id})
    reserves.send_selected()
    assert red[0].id in {u.id for u in window.document.scenario.reserves}
    assert red[0].id not in {u.id for u in window.document.scenario.units}
    top = reserves.tree.topLevelItem(0)
    assert top.text(0).startswith("Red: 1 units")
    top.child(0).setSelected(True)
    assert reserves.deploy_chosen() == red[0].id
    assert red[0].id in {u.id for u in window.document.scenario.units}
    assert not window.document.scenario.reserves


def test_import_lists_every_entry_and_a_broken_list_names_its_line(make_window) -> None:  # type: ignore[no-untyped-def]
    window = make_window()
    dialog = ArmyImportDialog(window.document.scenario, window)
    dialog.text.setPlainText(TYPO_LIST)
    dialog.read_text()
    assert dialog.unresolved.rowCount() == 1
    assert dialog.unresolved.item(0, 1).text() == "Intercesor Squad"
    pick = dialog.unresolved.cellWidget(0, 2)
    assert isinstance(pick, QComboBox)
    assert pick.itemText(0) == "Leave it out"
    placed = dialog.placement(window.document.scenario)
    assert placed is not None
    assert not placed.reserves
    assert any("Intercesor Squad not added" in m for m in placed.messages)
    select_data(pick, "Intercessor Squad")
    placed = dialog.placement(window.document.scenario)
    assert placed is not None
    waiting = {u.id: u for u in placed.scenario.reserves}
    assert [waiting[u].datasheet for u in placed.reserves] == ["intercessor-squad"]

    dialog.text.setPlainText('{"roster": {"forces": [')
    dialog.read_text()
    assert "line 1" in dialog.status.text()
    assert not dialog.buttons.buttons()[0].isEnabled()
    dialog.close()


def test_new_game_on_a_recommended_layout_and_changing_it_in_the_mission_dock(make_window) -> None:  # type: ignore[no-untyped-def]
    window = make_window()

    def run(dialog: NewGameDialog) -> bool:
        select_data(dialog.ruleset, "wh40k-ca2026")
        page = dialog.page("wh40k-ca2026")
        select_data(page.dispositions[0], "Take and Hold")
        select_data(page.dispositions[1], "Purge the Foe")
        select_data(page.battlefield, "B")
        assert not page.deployment.isEnabled()
        assert "Take and Hold vs Purge the Foe B" in dialog.preview.text()
        return True

    window.run_dialog = run
    assert window.new_game_here()
    scenario = window.document.scenario
    assert scenario.layout is not None
    assert scenario.layout.id == "take-and-hold-vs-purge-the-foe-b"
    assert len(scenario.terrain) > 10
    assert any(o.terrain for o in scenario.objectives)
    refreshed(window)
    mission = window.plugins["wh40k-ca2026"].mission
    assert mission.battlefield.currentData() == "B"
    assert "Take and Hold vs Purge the Foe B" in mission.layout_source.text()
    assert not mission.deployment.isEnabled()

    select_data(mission.battlefield, "C")
    refreshed(window)
    assert window.document.scenario.layout.id == "take-and-hold-vs-purge-the-foe-c"  # type: ignore[union-attr]
    window.action_undo.trigger()
    assert window.document.scenario.layout.id == "take-and-hold-vs-purge-the-foe-b"  # type: ignore[union-attr]


def test_a_model_over_an_upper_floor_can_stand_on_it(make_window) -> None:  # type: ignore[no-untyped-def]
    scenario = on_layout()
    piece = next(t for t in scenario.terrain if t.floors)
    xs, ys = zip(*piece.floors[0].shape, strict=True)
    centre = (sum(xs) / len(xs), sum(ys) / len(ys))
    model = scenario.units[0].models[0]
    scenario = scenario.with_models([replace(model, x=centre[0], y=centre[1])])
    window = make_window(scenario)
    window.scene.select_ids({model.id})
    inspector = window.inspector
    level = inspector.findChild(QWidget, "inspector-level")
    upper = next(b for b in level.findChildren(QPushButton) if b.text() == "On the upper floor")
    assert upper.isEnabled()
    upper.click()
    assert window.document.scenario.model(model.id).z == piece.floors[0].z == 3.0
    window.action_undo.trigger()
    assert window.document.scenario.model(model.id).z == 0


def test_the_about_box_credits_the_data_as_its_licence_asks(make_window) -> None:  # type: ignore[no-untyped-def]
    window = make_window()
    shown: list[str] = []
    window.run_dialog = lambda dialog: shown.append(dialog.text.text()) or False
    window.findChild(QAction, "action-about").trigger()
    assert shown
    assert "Powered by 40kdc-data" in shown[0]
    assert 'href="https://40kdc.alpacasoft.dev"' in about_html()
    assert "CC BY 4.0" in about_html()
    AboutDialog(window).close()


def test_clearing_the_search_goes_back_to_a_unit_described_by_hand(make_window) -> None:  # type: ignore[no-untyped-def]
    window = make_window()
    palette = window.palette_panel
    palette.datasheet_query.setText("kharn")
    assert not palette.unit_base.isEnabled()
    palette.datasheet_query.setText("")
    assert palette.chosen_datasheet is None
    assert palette.datasheet_results.count() == 0
    assert palette.unit_base.isEnabled()
    assert palette.unit_name.isEnabled()
    assert palette.add_unit_button.text() == "Add unit"
