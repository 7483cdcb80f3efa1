"""The mission docks in the real main window: deck buttons, undo/redo, the Mission dock, new
games for the three rulesets, the score chart, saving the decks, and the docks' layout."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from gui_helpers import duel_scenario
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget

from engine.rulesets.wh40k_ca2026 import decks, primary_mission
from engine.rulesets.wh40k_ca2026.generator import new_game as wh40k_game
from gui.files import read_scenario
from gui.main_window import MainWindow
from gui.panels.new_game import NewGameDialog, select_data
from gui.rulesets.wh40k_ca2026 import DOCK_NAMES


def ca_scenario():  # type: ignore[no-untyped-def]
    return wh40k_game(
        duel_scenario(), seed=1, force_dispositions=("Take and Hold", "Purge the Foe")
    )


def refreshed(window: MainWindow) -> None:
    window.plugins["wh40k-ca2026"].context.refresh_now()


def click(panel, key: str) -> None:  # type: ignore[no-untyped-def]
    panel.buttons[key].click()
    refreshed(panel.window())


def hand_names(panel) -> list[str]:  # type: ignore[no-untyped-def]
    return [panel.hand.item(i).data(Qt.ItemDataRole.UserRole) for i in range(panel.hand.count())]


def select_card(panel, index: int = 0) -> None:  # type: ignore[no-untyped-def]
    panel.hand.clearSelection()
    panel.hand.item(index).setSelected(True)
    panel.hand.setCurrentRow(index)


def test_docks_have_stable_object_names_and_their_layout_is_restored(
    make_window, settings, autosave_store, qtbot
) -> None:  # type: ignore[no-untyped-def]
    window = make_window(ca_scenario())
    for name in DOCK_NAMES:
        dock = window.findChild(QDockWidget, name)
        assert dock is not None
        assert window.docks[name] is dock
    assert window.docks["SecondaryDockPlayer1"].windowTitle() == "Secondary Missions: Red"
    window.docks["ScoreChartDock"].hide()
    window.save_layout()
    again = MainWindow(ca_scenario(), settings=settings, autosave=autosave_store)
    qtbot.addWidget(again)
    again.show()
    assert again.docks["ScoreChartDock"].isHidden()
    assert not again.docks["TurnLedgerDock"].isHidden()
    again.document.undo_stack.setClean()


def test_deck_buttons_draw_achieve_discard_and_refuse_a_second_cp_swap(make_window) -> None:  # type: ignore[no-untyped-def]
    window = make_window(ca_scenario())
    red = window.plugins["wh40k-ca2026"].secondaries[0]
    turn = window.plugins["wh40k-ca2026"].turn
    red.tactical_button.click()
    refreshed(window)
    assert decks.deck_of(window.document.scenario, "red").mode == "tactical"
    assert "18 cards in the deck" in red.summary.text()

    click(red, "draw")
    assert len(hand_names(red)) == 2
    turn.next_button.click()  # end of red's Command phase
    turn.findChild(type(turn.next_button), "cp-0-+1").click()
    refreshed(window)
    first = hand_names(red)[0]
    select_card(red, 0)
    click(red, "cp_swap")
    assert first not in hand_names(red)
    assert window.document.scenario.game["players"]["red"]["cp"] == 0
    steps = window.document.undo_stack.count()
    turn.findChild(type(turn.next_button), "cp-0-+1").click()
    refreshed(window)
    select_card(red, 0)
    click(red, "cp_swap")
    assert "already been used this battle" in red.reason.text()
    assert "already been used this battle" in window.statusBar().currentMessage()
    assert window.document.undo_stack.count() == steps + 1  # only the +1CP

    turn.next_button.click()  # end of red's turn
    refreshed(window)
    red.ask_item = lambda _parent, _title, _prompt, options: options[0]
    for index, held in enumerate(decks.deck_of(window.document.scenario, "red").active):
        if held.needs:  # a WHEN DRAWN selection (Beacon's unit) comes before achieving
            select_card(red, index)
            click(red, "select")
    assert not any(a.needs for a in decks.deck_of(window.document.scenario, "red").active)
    card = hand_names(red)[0]
    select_card(red, 0)
    red.vp_box.setValue(3)
    click(red, "achieve")
    assert red.reason.text() == ""
    assert window.document.scenario.game["players"]["red"]["vp"] == 3
    assert card in decks.deck_of(window.document.scenario, "red").achieved
    select_card(red, 0)
    click(red, "discard")
    assert window.document.scenario.game["players"]["red"]["cp"] == 2
    assert turn.ledger.rowCount() == 5  # +1CP, 1CP swap, +1CP, achieve, discard
    assert turn.ledger.item(3, 3).text() == "+3"


def test_a_deck_step_undoes_and_redoes(make_window) -> None:  # type: ignore[no-untyped-def]
    window = make_window(ca_scenario())
    red = window.plugins["wh40k-ca2026"].secondaries[0]
    red.tactical_button.click()
    click(red, "draw")
    drawn = hand_names(red)
    assert len(drawn) == 2
    window.action_undo.trigger()
    refreshed(window)
    assert hand_names(red) == []
    assert len(decks.deck_of(window.document.scenario, "red").draw_pile) == 18
    window.action_redo.trigger()
    refreshed(window)
    assert hand_names(red) == drawn


def test_a_fixed_deck_and_a_refused_draw(make_window) -> None:  # type: ignore[no-untyped-def]
    window = make_window(ca_scenario())
    blue = window.plugins["wh40k-ca2026"].secondaries[1]
    blue.ask_fixed = lambda _parent, choices: ["ASSASSINATION", "BRING IT DOWN"]
    blue.fixed_button.click()
    refreshed(window)
    assert hand_names(blue) == ["ASSASSINATION", "BRING IT DOWN"]
    assert not blue.buttons["draw"].isVisibleTo(blue)
    blue.draw_two()
    assert "Fixed Missions cannot be drawn" in blue.reason.text()


def test_the_mission_dock_shows_the_primary_of_a_force_disposition_pair(make_window) -> None:  # type: ignore[no-untyped-def]
    window = make_window(ca_scenario())
    mission = window.plugins["wh40k-ca2026"].mission
    refreshed(window)
    assert mission.cards.tabText(0).startswith("Red: IMMOVABLE OBJECT")
    assert mission.cards.tabText(1).startswith("Blue: UNSTOPPABLE FORCE")
    text = mission.card_views[0].toPlainText()
    assert "Scores now" in text
    assert "IMMOVABLE OBJECT" in text
    asked: list[str] = []
    mission.confirm = lambda _p, _t, text: asked.append(text) or True
    select_data(mission.dispositions[1], "Take and Hold")
    refreshed(window)
    assert asked == []  # nothing in progress: nothing to discard, nothing asked
    game = window.document.scenario.game
    assert game["players"]["red"]["primary"] == primary_mission("Take and Hold", "Take and Hold")
    assert game["players"]["blue"]["force_disposition"] == "Take and Hold"
    assert mission.cards.tabText(1).startswith(f"Blue: {game['players']['blue']['primary']}")
    window.action_undo.trigger()
    assert window.document.scenario.game["players"]["red"]["primary"] == "IMMOVABLE OBJECT"


def test_changing_the_setup_of_a_game_in_progress_asks_and_undoes(make_window) -> None:  # type: ignore[no-untyped-def]
    window = make_window(ca_scenario())
    mission = window.plugins["wh40k-ca2026"].mission
    window.plugins["wh40k-ca2026"].secondaries[0].tactical_button.click()
    refreshed(window)
    before = window.document.scenario
    asked: list[str] = []
    mission.confirm = lambda _p, _t, text: asked.append(text) or False
    select_data(mission.deployment, "tipping-point")
    refreshed(window)
    assert "the game in progress is discarded" in asked[0]
    assert window.document.scenario is before
    assert mission.deployment.currentData() == before.deployment
    mission.confirm = lambda _p, _t, _text: True
    select_data(mission.deployment, "tipping-point")
    refreshed(window)
    assert window.document.scenario.deployment == "tipping-point"
    assert decks.deck_of(window.document.scenario, "red") is None
    window.action_undo.trigger()
    assert window.document.scenario is before


def test_new_game_flow_for_each_ruleset(make_window) -> None:  # type: ignore[no-untyped-def]
    window = make_window(ca_scenario())
    docks = window.plugins["wh40k-ca2026"]

    def choose(ruleset: str, **fields):  # type: ignore[no-untyped-def]
        def run(dialog: NewGameDialog) -> bool:
            select_data(dialog.ruleset, ruleset)
            dialog.seed.setValue(7)
            for name, value in fields.items():
                select_data(getattr(dialog.page(ruleset), name), value)
            assert "cannot" not in dialog.preview.text()
            return True

        return run

    window.run_dialog = choose("scrollhammer", mission="quest-for-the-relic")
    assert window.new_game_here()
    s = window.document.scenario
    assert (s.ruleset, s.options["mission"]) == ("scrollhammer", "quest-for-the-relic")
    refreshed(window)
    assert "Quest for the Relic" in docks.mission.text.toPlainText()
    assert "Scrollhammer counts Victory Points when the game ends" in docks.chart.caption.text()
    assert docks.secondaries[0].new_game_button.isVisibleTo(docks.secondaries[0])

    window.run_dialog = choose("shared-modules", deploys_first="blue")
    assert window.new_game_here()
    s = window.document.scenario
    assert (s.ruleset, s.options["deploys_first"], s.game["active_player"]) == (
        "shared-modules",
        "blue",
        "blue",
    )
    refreshed(window)
    assert "Annihilation" in docks.mission.text.toPlainText()

    window.run_dialog = choose("wh40k-ca2026", deployment="search-and-destroy", twist="random")
    assert window.new_game_here()
    s = window.document.scenario
    assert s.ruleset == "wh40k-ca2026"
    assert s.deployment == "search-and-destroy"
    assert s.game["setup"]["seed"] == 7
    assert "mission" not in s.options
    window.action_undo.trigger()
    assert window.document.scenario.ruleset == "shared-modules"

    window.run_dialog = choose("scrollhammer")
    window.document.undo_stack.setClean()  # File > New asks first about unsaved changes
    window.action_new.trigger()
    s = window.document.scenario
    assert s.ruleset == "scrollhammer"
    assert (s.battlefield.width, s.battlefield.depth) == (72, 48)
    assert window.document.undo_stack.count() == 0


def test_the_chart_shows_vp_by_round_after_scoring(make_window) -> None:  # type: ignore[no-untyped-def]
    scenario = ca_scenario()
    blue_on_objective = scenario.model("blue-1").placed(30.0, 26.0)  # 4" < 4.417": in range
    window = make_window(scenario.with_models([blue_on_objective]))
    docks = window.plugins["wh40k-ca2026"]
    docks.secondaries[1].tactical_button.click()
    refreshed(window)
    turn = docks.turn
    turn.round_box.setValue(2)
    select_data(turn.player_box, "blue")
    select_data(turn.timing_box, "end_of_command_phase")
    refreshed(window)
    assert turn.position.text() == "Battle round 2 \u2022 Blue's turn \u2022 End of Command phase"
    assert turn.primary_buttons[1].text() == "Score Primary +4VP"  # UNSTOPPABLE FORCE: 1 x 4VP
    turn.primary_buttons[1].click()
    refreshed(window)
    assert window.document.scenario.game["players"]["blue"]["vp"] == 4
    plotted = docks.chart.plotted()
    assert plotted["Blue"] == ([0.0, 1.0, 2.0], [0.0, 0.0, 4.0])
    assert plotted["Red"] == ([0.0, 1.0, 2.0], [0.0, 0.0, 0.0])
    turn.primary_buttons[1].click()
    assert "already scored at this moment" in window.statusBar().currentMessage()
    assert window.document.scenario.game["players"]["blue"]["vp"] == 4


def test_decks_survive_save_and_reopen(make_window, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    window = make_window(ca_scenario())
    red = window.plugins["wh40k-ca2026"].secondaries[0]
    red.tactical_button.click()
    click(red, "draw")
    path = tmp_path / "game.warplan.json"
    assert window.files.save_to(path)
    reopened = read_scenario(path)
    assert decks.deck_of(reopened, "red") == decks.deck_of(window.document.scenario, "red")
    assert reopened.game == window.document.scenario.game


def test_docks_say_what_is_missing_without_a_game(make_window) -> None:  # type: ignore[no-untyped-def]
    window = make_window(duel_scenario())
    docks = window.plugins["wh40k-ca2026"]
    refreshed(window)
    assert "No Secondary deck recorded for Red" in docks.secondaries[0].summary.text()
    assert "No turn recorded" in docks.turn.position.text()
    assert docks.turn.start_button.isVisibleTo(docks.turn)
    assert "No game section" in docks.chart.caption.text()
    assert docks.chart.plotted() == {}
    docks.turn.start_button.click()
    refreshed(window)
    assert window.document.scenario.game["battle_round"] == 1


def test_when_drawn_offers_reshuffle_discard_or_keep(make_window) -> None:  # type: ignore[no-untyped-def]
    pile = ("FORWARD POSITION", "A GRIEVOUS BLOW", "CENTRE GROUND", "NO PRISONERS", "CLEANSE")
    stacked = decks.with_deck(ca_scenario(), "red", decks.DeckState("tactical", pile, seed=3))
    window = make_window(stacked)
    red = window.plugins["wh40k-ca2026"].secondaries[0]
    click(red, "draw")
    assert hand_names(red) == ["FORWARD POSITION", "A GRIEVOUS BLOW"]
    select_card(red, 0)  # round 1: Forward Position may be shuffled back for a new card
    assert red.buttons["reshuffle"].isVisibleTo(red)
    assert not red.buttons["when_discard"].isVisibleTo(red)
    click(red, "reshuffle")
    deck = decks.deck_of(window.document.scenario, "red")
    assert deck.active_names() == ("A GRIEVOUS BLOW", "CENTRE GROUND")
    assert "FORWARD POSITION" in deck.draw_pile
    select_card(red, 0)  # no enemy unit of starting strength 13+: it may be discarded
    assert red.buttons["when_discard"].isVisibleTo(red)
    click(red, "when_discard")
    deck = decks.deck_of(window.document.scenario, "red")
    assert deck.discard_pile == ("A GRIEVOUS BLOW",)
    assert len(deck.active) == 2
    assert not any(a.offers for a in deck.active if a.name == "CENTRE GROUND")
    select_card(red, hand_names(red).index("CENTRE GROUND"))
    click(red, "keep")
    assert "has no WHEN DRAWN offer to decline" in red.reason.text()


def test_a_when_drawn_selection_offers_the_engines_choices(make_window) -> None:  # type: ignore[no-untyped-def]
    pile = ("A TEMPTING TARGET", "NO PRISONERS", "CLEANSE")
    stacked = decks.with_deck(ca_scenario(), "red", decks.DeckState("tactical", pile, seed=3))
    window = make_window(stacked)
    red = window.plugins["wh40k-ca2026"].secondaries[0]
    asked: list[tuple[str, list[str]]] = []

    def pick_the_last(_parent, _title: str, prompt: str, options: list[str]) -> str:  # type: ignore[no-untyped-def]
        asked.append((prompt, options))
        return options[-1]

    red.ask_item = pick_the_last
    click(red, "draw")
    select_card(red, 0)
    click(red, "select")
    allowed = decks.selection_choices(stacked, "red", "A TEMPTING TARGET")
    assert asked == [(f"Your opponent selects {allowed.allowed}", list(allowed.ids))]
    held = decks.deck_of(window.document.scenario, "red").active_card("A TEMPTING TARGET")
    assert held.choices["tempting_target"] == allowed.ids[-1]


def test_a_when_drawn_selection_with_nothing_to_pick_shows_the_engines_reason(make_window) -> None:  # type: ignore[no-untyped-def]
    game = ca_scenario()
    without_red = replace(game, units=tuple(u for u in game.units if u.player != "red"))
    pile = ("BEACON", "NO PRISONERS", "CLEANSE")
    window = make_window(
        decks.with_deck(without_red, "red", decks.DeckState("tactical", pile, seed=3))
    )
    red = window.plugins["wh40k-ca2026"].secondaries[0]
    red.ask_item = lambda *_: pytest.fail("nothing to ask: red has no unit on the battlefield")
    click(red, "draw")
    select_card(red, 0)
    steps = window.document.undo_stack.count()
    click(red, "select")
    assert red.reason.text() == "BEACON: red has no unit on the battlefield"
    assert window.document.undo_stack.count() == steps


def test_a_card_previews_the_other_scoring_moments_of_the_round(make_window) -> None:  # type: ignore[no-untyped-def]
    scenario = ca_scenario()
    blue_on_objective = scenario.model("blue-1").placed(30.0, 26.0)  # 4" < 4.417": in range
    window = make_window(scenario.with_models([blue_on_objective]))
    docks = window.plugins["wh40k-ca2026"]
    docks.turn.start_button.click()
    docks.turn.round_box.setValue(2)
    select_data(docks.turn.player_box, "blue")
    refreshed(window)
    text = docks.mission.card_views[1].toPlainText()
    assert "If it were another moment of battle round 2" in text
    assert "At the end of your command phase: 4VP" in text  # UNSTOPPABLE FORCE: 1 x 4VP


def test_the_new_game_dialog_refuses_choices_that_cannot_be_set_up(make_window) -> None:  # type: ignore[no-untyped-def]
    window = make_window(ca_scenario())
    dialog = NewGameDialog(window.document.scenario, window.new_game_pages, window)
    ok = dialog.buttons.button(dialog.buttons.StandardButton.Ok)
    select_data(dialog.page().dispositions[0], None)  # no Force Disposition and no Primary picked
    assert "cannot be set up" in dialog.preview.text()
    assert "give both or pick the Primary" in dialog.preview.text()
    assert not ok.isEnabled()
    select_data(dialog.page().primaries[0], "VITAL LINK")
    assert not ok.isEnabled()  # Blue's card still needs Red's Force Disposition
    select_data(dialog.page().primaries[1], "VITAL LINK")
    assert ok.isEnabled()
    assert "Red <b>VITAL LINK</b>" in dialog.preview.text()
    dialog.close()


def test_a_deployment_variant_moves_the_card_points_and_keeps_the_game(make_window) -> None:  # type: ignore[no-untyped-def]
    window = make_window(ca_scenario())
    mission = window.plugins["wh40k-ca2026"].mission
    window.plugins["wh40k-ca2026"].secondaries[0].tactical_button.click()
    refreshed(window)
    before = window.document.scenario
    box = next(b for key, b in mission.variant_boxes.items() if key == "objectives")
    other = next(i for i in range(box.count()) if i != box.currentIndex())
    box.setCurrentIndex(other)
    after = window.document.scenario
    assert after.options["deployment_variant"]["objectives"] == box.itemData(other)
    moved = {(o.id, o.x, o.y) for o in after.objectives}
    assert moved != {(o.id, o.x, o.y) for o in before.objectives}
    assert ("obj-centre", 30.0, 22.0) in moved  # the rolled central point stays
    assert decks.deck_of(after, "red") == decks.deck_of(before, "red")
    window.action_undo.trigger()
    assert window.document.scenario is before


def test_the_score_chart_behind_another_tab_is_built_when_first_on_screen(  # type: ignore[no-untyped-def]
    make_window, qtbot
) -> None:
    window = make_window(ca_scenario())
    window.arrange_default_layout()
    chart = window.plugins["wh40k-ca2026"].chart
    refreshed(window)
    qtbot.wait(200)
    # Behind Turn and ledger in the first-start layout: never painted, so never built.
    assert not chart.chart.built
    window.docks["ScoreChartDock"].raise_()
    qtbot.waitUntil(lambda: chart.chart.built, timeout=5000)
    assert set(chart.plotted()) == {"Red", "Blue"}
