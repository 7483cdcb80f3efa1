"""One rules pipeline: a drop made with the real mouse reaches every dock through the docks'
own timers and signals (nothing here calls ``refresh_now``)."""

from __future__ import annotations

import pytest
from gui_helpers import drag

from gui.app import DEMO_SCENARIO
from gui.files import read_scenario
from gui.shapes import scene_point

CENTRE_CAPTION = ("objective", "obj-centre")


def primary_tab(window) -> str:  # type: ignore[no-untyped-def]
    return window.plugins["wh40k-ca2026"].mission.cards.tabText(0)


def test_every_dock_follows_a_drop_made_with_the_mouse(qtbot, make_window) -> None:  # type: ignore[no-untyped-def]
    window = make_window(read_scenario(DEMO_SCENARIO))
    docks = window.plugins["wh40k-ca2026"]
    qtbot.waitUntil(lambda: "now 8VP" in primary_tab(window), timeout=5000)
    # Zoomed in, so the press lands on the base and not on the nearby unit label.
    window.view.zoom_by(3.0)
    window.view.centerOn(scene_point(23.0, 24.6))
    assert window.scene.entity_item_at(scene_point(27.5, 24.6)).entity_id == "blue-neo-1"
    assert "Score Primary +8VP" in docks.turn.primary_buttons[0].text()
    captions = window.overlays.layers["objectives"].label_texts()
    assert "Red 2 : Blue 2 - contested" in captions[CENTRE_CAPTION]

    # blue-neo-1 is Blue's only model in obj-centre's range: dragged 9.5" west it leaves it.
    with qtbot.waitSignal(docks.context.refreshed, timeout=5000):
        drag(qtbot, window.view, (27.5, 24.6), (18.0, 24.6), steps=12)

    moved = window.document.scenario.model("blue-neo-1")
    assert moved.x == pytest.approx(18.0, abs=2 / window.view.pixels_per_inch())
    assert window.document.undo_stack.count() == 1
    captions = window.overlays.layers["objectives"].label_texts()
    assert "Red 2 : Blue 0 - Red controls" in captions[CENTRE_CAPTION]
    assert "now 13VP" in primary_tab(window)
    assert "Score Primary +13VP" in docks.turn.primary_buttons[0].text()
