"""The Coherency and Range rings overlays in the real window, and the Inspector's Range rings
field (one undo step, a bad list refused and the field restored)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from gui_helpers import BASE_32, duel_scenario
from PySide6.QtWidgets import QLineEdit, QWidget

from engine.edits import Selection
from engine.model import MM_PER_INCH, Model, Scenario, Unit
from gui.main_window import MainWindow

PITCH = 2.0 + 32 / MM_PER_INCH
"""Centre spacing of two 32 mm bases exactly 2" apart."""


def _squad_scenario(gap: float, rings: tuple[float, ...] = ()) -> Scenario:
    models = (
        Model("sq-1", 10.0, 10.0, BASE_32),
        Model("sq-2", 10.0 + PITCH, 10.0, BASE_32),
        Model("sq-3", 10.0 + 2 * PITCH + gap, 10.0, BASE_32),
    )
    squad = Unit("squad", "red", models, name="Squad", rings=rings)
    base = duel_scenario()
    return replace(base, units=(*base.units, squad), options={"coherency": True})


def _stray_keys(window: MainWindow) -> list[object]:
    return sorted(window.overlays.layers["coherency"].keys(), key=str)


def test_the_coherency_overlay_outlines_a_stray_model_and_clears_when_it_returns(
    make_window, qtbot
) -> None:  # type: ignore[no-untyped-def]
    window = make_window(_squad_scenario(1e-4))
    qtbot.waitUntil(lambda: bool(window.overlays.layers["coherency"].keys()), timeout=5_000)
    assert _stray_keys(window) == [("stray", "squad", "sq-3")]
    labels = window.overlays.layers["coherency"].label_texts()
    assert labels[("stray", "squad", "sq-3")] == '2.0001" to sq-2'
    assert "Unit Coherency" in [v.rule for v in window.live.evaluation.ruleset_report.violations]
    # Back exactly 2" away: in coherency, nothing drawn.
    back = window.document.scenario.with_models(
        [window.document.scenario.model("sq-3").moved(-1e-4, 0.0)]
    )
    window.document.apply(back, "Move")
    qtbot.waitUntil(lambda: not window.overlays.layers["coherency"].keys(), timeout=5_000)
    action = window.overlay_actions["coherency"]
    assert action.text() == "Coherency"
    assert not action.icon().isNull()


def test_the_range_rings_overlay_draws_each_units_rings(make_window, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(_squad_scenario(0.0, rings=(6, 12)))
    layer = window.overlays.layers["rings"]
    qtbot.waitUntil(lambda: layer.keys() == [("rings", "squad")], timeout=5_000)
    item = layer.item(("rings", "squad"))
    assert item is not None
    # The 12" ring reaches 12" beyond the outer bases' edges (scene y is the table's -y).
    bounds = item.boundingRect()
    assert abs(bounds.left() + 0.5 - (10.0 - 16 / MM_PER_INCH - 12.0)) < 0.01
    assert abs(bounds.right() - 0.5 - (10.0 + 2 * PITCH + 16 / MM_PER_INCH + 12.0)) < 0.01
    assert not window.overlay_actions["rings"].icon().isNull()
    window.overlay_actions["rings"].trigger()
    assert not item.isVisible()


def test_the_inspector_writes_a_units_rings_in_one_undo_step(make_window, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(_squad_scenario(0.0))
    window.inspector.set_selection(Selection(units=frozenset({"squad"})))
    field = window.inspector.findChild(QWidget, "inspector-Range rings")
    assert isinstance(field, QLineEdit)
    assert field.text() == ""
    field.setText('6, 9.5 12"')
    field.editingFinished.emit()
    assert window.document.scenario.unit("squad").rings == (6, 9.5, 12)
    assert field.text() == "6, 9.5, 12"
    qtbot.waitUntil(
        lambda: window.overlays.layers["rings"].keys() == [("rings", "squad")], timeout=5_000
    )
    field.setText("6, -1")
    field.editingFinished.emit()
    assert window.document.scenario.unit("squad").rings == (6, 9.5, 12)
    assert "Range rings not changed" in window.inspector.refusal.text()
    window.action_undo.trigger()
    assert window.document.scenario.unit("squad").rings == ()
    qtbot.waitUntil(lambda: not window.overlays.layers["rings"].keys(), timeout=5_000)


def test_a_screenshot_of_both_overlays(make_window, qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    window = make_window(_squad_scenario(0.5, rings=(3, 6)))
    qtbot.waitUntil(lambda: bool(window.overlays.layers["coherency"].keys()), timeout=5_000)
    window.view.fitInView(window.view.sceneRect().adjusted(0, 0, -30, -20))
    image = window.view.grab()
    path = tmp_path / "coherency.png"
    assert image.save(str(path))
    assert path.stat().st_size > 10_000
