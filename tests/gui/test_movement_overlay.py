"""The Movement overlay in the real window: the selected unit's bands drawn from the engine's
geometries in the palette's three move colours, traced off the UI thread, traced again only
when the unit, the terrain or the options change, and gone with no unit selected."""

from __future__ import annotations

from dataclasses import replace

import shapely
from gui_helpers import BASE_32, duel_scenario

from engine.model import Model, Scenario, TerrainFeature, TerrainPiece, Unit
from engine.movement import movement_bands
from gui import theme
from gui.main_window import MainWindow
from gui.overlays.movement import BAND_COLOURS, band_inputs, geometry_path


def _scenario() -> Scenario:
    base = duel_scenario()
    mover = Unit("mover", "red", (Model("mover-1", 20.0, 20.0, BASE_32),), name="Mover", move=6)
    square = ((24.0, 14.0), (25.0, 14.0), (25.0, 26.0), (24.0, 26.0))
    ruin = TerrainPiece("ruin", square, features=(TerrainFeature(square, 5.0),))
    return replace(base, units=(*base.units, mover), terrain=(*base.terrain, ruin))


def _select(window: MainWindow, unit_id: str) -> None:
    window.scene.select_ids({unit_id})


def test_the_selected_units_bands_are_drawn_from_the_engines_geometry(make_window, qtbot) -> None:  # type: ignore[no-untyped-def]
    scenario = _scenario()
    window = make_window(scenario)
    layer = window.overlays.layers["movement"]
    assert layer.keys() == []
    _select(window, "mover")
    qtbot.waitUntil(lambda: len(layer.keys()) == 8, timeout=30_000)
    bands = movement_bands(window.document.scenario, "mover")
    normal = layer.item(("band", "normal", None))
    assert normal is not None
    expected = geometry_path(bands[0].region).boundingRect()
    assert normal.boundingRect().adjusted(0.5, 0.5, -0.5, -0.5) == expected
    labels = layer.label_texts()
    assert labels[("band", "normal", None)] == 'Move 6"'
    assert labels[("band", "charge", None)] == 'Charge up to 18"'
    assert labels[("band", "advance", 6)] == 'Advance up to 12" (1/6)'
    # Behind the ruin the Normal Move does not reach; round it, the charge does.
    assert not bands[0].region.contains(shapely.Point(26.0, 20.0))
    assert bands[-1].region.contains(shapely.Point(26.0, 20.0))
    action = window.overlay_actions["movement"]
    assert action.text() == "Movement"
    assert not action.icon().isNull()


def test_bands_are_traced_again_only_when_their_inputs_change(make_window, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(_scenario())
    overlay = window.overlays.movement
    _select(window, "mover")
    qtbot.waitUntil(lambda: len(overlay.layer.keys()) == 8, timeout=30_000)
    generation = overlay.generation
    # Another unit moving changes nothing the bands depend on.
    other = next(u for u in window.document.scenario.units if u.id != "mover")
    window.document.apply(window.document.scenario.with_unit_moved(other.id, 0.5, 0.0), "Move")
    qtbot.wait(200)
    assert overlay.generation == generation
    # The unit moving does.
    with qtbot.waitSignal(overlay.drawn, timeout=30_000):
        window.document.apply(window.document.scenario.with_unit_moved("mover", 1.0, 0.0), "Move")
    assert overlay.generation == generation + 1
    # No unit selected: nothing drawn.
    window.scene.select_ids(set())
    qtbot.waitUntil(lambda: overlay.layer.keys() == [], timeout=5_000)


def test_the_toggle_hides_and_stops_the_bands(make_window, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(_scenario())
    window.overlay_actions["movement"].setChecked(False)
    _select(window, "mover")
    qtbot.wait(300)
    assert window.overlays.layers["movement"].keys() == []
    window.overlay_actions["movement"].setChecked(True)
    qtbot.waitUntil(lambda: len(window.overlays.layers["movement"].keys()) == 8, timeout=30_000)


def test_band_inputs_ignore_other_units_and_see_terrain_and_options() -> None:
    scenario = _scenario()
    before = band_inputs(scenario, "mover")
    assert band_inputs(scenario, None) is None
    assert band_inputs(scenario, "nobody") is None
    other = next(u for u in scenario.units if u.id != "mover")
    assert band_inputs(scenario.with_unit_moved(other.id, 1.0, 0.0), "mover") == before
    assert band_inputs(replace(scenario, terrain=()), "mover") != before
    assert band_inputs(replace(scenario, options={"movement_blocking": "none"}), "mover") != before


def test_each_move_has_its_own_colour_in_every_palette() -> None:
    for palette in theme.PALETTES.values():
        colours = {getattr(palette, name) for name in BAND_COLOURS.values()}
        assert len(colours) == 3, palette.id
