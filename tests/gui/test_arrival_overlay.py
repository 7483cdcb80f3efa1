"""The reserves arrival overlay and its controls in the real window: the engine's region drawn,
rebuilt only when what it depends on changes, live while an enemy is dragged, every palette,
the controls' player, distance and shading, the View-menu toggle."""

from __future__ import annotations

import doctest
from dataclasses import replace

import pytest
from gui_helpers import duel_scenario
from PySide6.QtCore import QPointF
from PySide6.QtGui import QAction

from engine.arrival import arrival_region
from engine.edits import Selection, move_selection
from gui import theme
from gui.main_window import MainWindow
from gui.overlays.arrival import ArrivalOverlay, ArrivalSettings
from gui.panels import arrival_controls
from gui.panels.arrival_controls import RULES_DISTANCE, ArrivalControls

KEY_RED = ("arrival", "red")


def _shown(window: MainWindow) -> ArrivalOverlay:
    window.arrival_controls.set_shown(True)
    return window.overlays.arrival


def _arrival_action(window: MainWindow) -> QAction:
    return next(a for a in window.findChildren(QAction) if a.objectName() == "overlay-arrival")


def _path_contains(overlay: ArrivalOverlay, key: object, x: float, y: float) -> bool:
    item = overlay.layer.item(key)
    assert item is not None
    return any(stroke.path.contains(QPointF(x, -y)) for stroke in item._strokes)


def test_hidden_at_first_then_shaded_from_the_engines_region(make_window) -> None:  # type: ignore[no-untyped-def]
    window = make_window(duel_scenario())
    overlay = window.overlays.arrival
    assert overlay.layer.keys() == []
    arrival_action = _arrival_action(window)
    assert not arrival_action.isChecked()
    _shown(window)
    assert overlay.layer.keys() == [KEY_RED]
    expected = arrival_region(window.document.scenario, "red")
    assert overlay.region is not None
    assert overlay.region.allowed.equals(expected.allowed)
    # Blue's model at (30, 27): its bubble is denied to red, the far corner is open.
    assert not _path_contains(overlay, KEY_RED, 30.0, 27.0 + 9.5)
    assert _path_contains(overlay, KEY_RED, 30.0, 27.0 + 10.5)
    assert _path_contains(overlay, KEY_RED, 2.0, 2.0)
    assert overlay.layer.label_texts()[KEY_RED].startswith("Red's reserves can arrive here")
    assert arrival_action.isChecked()
    arrival_action.setChecked(False)
    assert overlay.layer.keys() == []
    assert not window.arrival_controls.show_box.isChecked()


def test_rebuilt_only_when_enemies_terrain_or_options_change(make_window) -> None:  # type: ignore[no-untyped-def]
    window = make_window(duel_scenario())
    overlay = _shown(window)
    builds = overlay.builds
    document = window.document
    own_moved = move_selection(document.scenario, Selection(units=frozenset({"red-squad"})), 3, 0)
    document.apply(own_moved, "Move")
    assert overlay.builds == builds
    enemy_moved = move_selection(
        document.scenario, Selection(units=frozenset({"blue-squad"})), 0, 5
    )
    document.apply(enemy_moved, "Move")
    assert overlay.builds == builds + 1
    assert not _path_contains(overlay, KEY_RED, 30.0, 32.0 + 9.5)
    document.apply(replace(document.scenario, options={"reserves_distance": 3}), "Option")
    assert overlay.builds == builds + 2
    assert overlay.region is not None
    assert overlay.region.distance == 3.0
    assert _path_contains(overlay, KEY_RED, 30.0, 32.0 + 4.0)


def test_live_during_an_enemy_drag_preview(make_window) -> None:  # type: ignore[no-untyped-def]
    window = make_window(duel_scenario())
    overlay = _shown(window)
    document = window.document
    selection = Selection(units=frozenset({"blue-squad"}))
    document.begin_drag()
    document.preview(move_selection(document.scenario, selection, 0, -10))
    assert overlay.region is not None
    assert overlay.region.allowed.equals(arrival_region(document.scenario, "red").allowed)
    assert not _path_contains(overlay, KEY_RED, 30.0, 17.0 + 9.0)
    document.end_drag("Move")


@pytest.mark.parametrize("palette_id", sorted(theme.PALETTES))
def test_every_palette_shades_in_its_players_colours(make_window, palette_id: str) -> None:  # type: ignore[no-untyped-def]
    window = make_window(duel_scenario())
    overlay = _shown(window)
    try:
        palette = theme.use(palette_id)
        window.overlays.apply_palette()
        item = overlay.layer.item(KEY_RED)
        assert item is not None
        colour = item._strokes[1].brush.color()  # type: ignore[union-attr]
        assert colour.name() == palette.players[0]
        overlay.configure(replace(overlay.settings, shading="denied"))
        item = overlay.layer.item(KEY_RED)
        assert item is not None
        assert item._strokes[1].brush.color().name() == palette.players[1]  # type: ignore[union-attr]
    finally:
        theme.use("default")


def test_the_controls_choose_player_distance_and_shading(qtbot, make_window) -> None:  # type: ignore[no-untyped-def]
    window = make_window(duel_scenario())
    overlay = window.overlays.arrival
    controls = ArrivalControls(overlay)
    qtbot.addWidget(controls)
    assert [controls.player_box.itemText(i) for i in range(2)] == ["Red", "Blue"]
    assert controls.account.text() == "Hidden."
    controls.show_box.setChecked(True)
    assert 'Strategic Reserves (9")' in controls.account.text()
    assert 'more than 9" horizontally from every enemy model' in controls.account.text()
    controls.player_box.setCurrentIndex(1)
    assert overlay.layer.keys() == [("arrival", "blue")]
    assert overlay.region is not None
    assert overlay.region.player == "blue"
    controls.distance_box.setValue(4.5)
    assert overlay.settings.distance == 4.5
    assert overlay.region.distance == 4.5
    controls.distance_box.setValue(RULES_DISTANCE)
    assert overlay.settings.distance is None
    controls.shading_box.setCurrentIndex(1)
    assert overlay.settings.shading == "denied"
    assert "clear of the shaded area" in controls.account.text()
    assert overlay.layer.label_texts()[("arrival", "blue")].startswith(
        "Blue's reserves cannot arrive here"
    )


def test_a_bad_option_shows_the_engines_refusal_and_draws_nothing(make_window) -> None:  # type: ignore[no-untyped-def]
    window = make_window(duel_scenario())
    overlay = window.overlays.arrival
    overlay.configure(ArrivalSettings(visible=True, player="green"))
    assert overlay.layer.keys() == [KEY_RED]  # an unknown player falls back to the first
    overlay.configure(ArrivalSettings(visible=True, distance=float("nan")))
    assert overlay.layer.keys() == []
    assert "set-up distance" in overlay.error


def test_the_controls_docstring_examples_run(qapp) -> None:  # type: ignore[no-untyped-def]
    result = doctest.testmod(arrival_controls)
    assert result.attempted > 0
    assert result.failed == 0
