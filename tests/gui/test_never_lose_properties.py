"""Random runs of every edit the app offers on the three rule systems' demos: after each edit,
undo or redo the document saves, reads back equal, and the scene draws exactly its ids.

Seeded (the seed and step are in every failure message); sized to run in well under a minute:
3 demos x 3 seeds x 32 steps = 288 edits, each saved and read back. Game edits make the ``game``
section name elements (Next step records controlled objectives, Scout and Secure a unit and its
lead model, Scrollhammer reserves and control choices); in every eight edits one is a game edit
and the next deletes something named there, so every run rewrites references.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtWidgets import QComboBox, QDoubleSpinBox, QSpinBox

from engine.edits import TERRAIN_PRESETS
from engine.errors import RulesError
from engine.references import dangling_references, known_ids, references
from engine.rulesets.shared_modules.edits import scout_edit
from engine.scenario_edits import game_section, with_game_key
from engine.scenario_io import load_scenario
from gui.app import DEMO_SCENARIO
from gui.files import read_scenario

ASSETS = Path(__file__).resolve().parents[2] / "assets"
DEMOS = {
    "wh40k-ca2026": DEMO_SCENARIO,
    "shared-modules": ASSETS / "shared-modules" / "battle-formations-demo.warplan.json",
    "scrollhammer": ASSETS / "scrollhammer" / "held-ground-demo.warplan.json",
}
STEPS = 32
SEEDS = (1, 2, 3)
ROLES = ("home", "central", "expansion", "other")


class EditRun:
    """The app's edits, made the way its widgets make them, picked by a seeded generator."""

    def __init__(self, window, rng: random.Random) -> None:  # type: ignore[no-untyped-def]
        self.window = window
        self.rng = rng
        self.referenced_deletions = 0

    @property
    def scenario(self):  # type: ignore[no-untyped-def]
        return self.window.document.scenario

    def _pick(self, ids) -> str | None:  # type: ignore[no-untyped-def]
        ids = sorted(ids)
        return self.rng.choice(ids) if ids else None

    def _select(self, ids: set[str]) -> None:
        self.window.scene.select_ids(ids)

    def edits(self) -> dict[str, Callable[[], object]]:
        return {
            "move unit": self.move_unit,
            "move model": self.move_model,
            "rotate": self.rotate,
            "delete unit": lambda: self.delete("units"),
            "delete model": lambda: self.delete("models"),
            "delete terrain": lambda: self.delete("terrain"),
            "delete objective": lambda: self.delete("objectives"),
            "delete marker": lambda: self.delete("markers"),
            "delete referenced": self.delete_referenced,
            "add unit": self.window.palette_panel.add_unit,
            "add terrain": self.add_terrain,
            "draw terrain": self.draw_terrain,
            "add objective": self.add_objective,
            "add marker": self.window.palette_panel.add_marker,
            "role": self.change_role,
            "owner": self.change_owner,
            "inspector number": self.inspector_number,
            "game edit": self.game_edit,
            "undo": self.window.document.undo_stack.undo,
            "redo": self.window.document.undo_stack.redo,
        }

    def move_unit(self) -> None:
        unit_id = self._pick(known_ids(self.scenario)["units"])
        if unit_id is not None:
            self._select({unit_id})
            self._drag()

    def move_model(self) -> None:
        model_id = self._pick(known_ids(self.scenario)["models"])
        if model_id is not None:
            self._select({model_id})
            self._drag()

    def _drag(self) -> None:
        from engine.edits import move_selection

        document = self.window.document
        selection = self.window.scene.selection()
        origin = document.scenario
        for step in range(1, 4):
            document.preview(move_selection(origin, selection, 0.3 * step, -0.2 * step))
        document.end_drag("Move")

    def rotate(self) -> None:
        model_id = self._pick(known_ids(self.scenario)["models"])
        if model_id is not None:
            self._select({model_id})
            self.window.scene.rotate_selected(self.rng.choice((15.0, -15.0)))

    def delete(self, kind: str) -> None:
        entity_id = self._pick(known_ids(self.scenario)[kind])  # type: ignore[index]
        if entity_id is not None:
            self._select({entity_id})
            self.window.delete_selected()

    def delete_referenced(self) -> None:
        """Delete an element the ``game`` section or an objective names."""
        target = self._pick({ref.target for ref in references(self.scenario)})
        if target is not None and any(target in ids for ids in known_ids(self.scenario).values()):
            self._select({target})
            self.window.delete_selected()
            self.referenced_deletions += 1

    def add_terrain(self) -> None:
        self.window.palette_panel.add_terrain_preset(self.rng.choice(TERRAIN_PRESETS))

    def draw_terrain(self) -> None:
        view = self.window.view
        view.set_tool("polygon")
        for _ in range(self.rng.randint(2, 6)):
            view.add_polygon_corner((self.rng.uniform(2, 58), self.rng.uniform(2, 42)))
        if not view.finish_polygon():
            view.set_tool("select")
        self.window.tool_actions["select"].setChecked(True)

    def add_objective(self) -> None:
        palette = self.window.palette_panel
        palette.objective_role.setCurrentIndex(self.rng.randrange(palette.objective_role.count()))
        palette.add_objective()

    def _objective_field(self, name: str) -> QComboBox | None:
        objective_id = self._pick(known_ids(self.scenario)["objectives"])
        if objective_id is None:
            return None
        self._select({objective_id})
        return self.window.inspector.findChild(QComboBox, f"inspector-{name}")

    def change_role(self) -> None:
        combo = self._objective_field("role")
        if combo is not None:
            combo.setCurrentIndex(combo.findData(self.rng.choice(ROLES)))

    def change_owner(self) -> None:
        combo = self._objective_field("owner")
        if combo is not None:
            combo.setCurrentIndex(self.rng.randrange(combo.count()))

    def inspector_number(self) -> None:
        """A number field of the Inspector set to a random value in its range and committed."""
        known = known_ids(self.scenario)
        kind = self.rng.choice(("models", "units", "objectives", "terrain", "markers"))
        entity_id = self._pick(known[kind])  # type: ignore[index]
        if entity_id is None:
            return
        self._select({entity_id})
        boxes = self.window.inspector.findChildren(
            QDoubleSpinBox
        ) + self.window.inspector.findChildren(QSpinBox)
        if boxes:
            box = self.rng.choice(boxes)
            if isinstance(box, QSpinBox):
                box.setValue(self.rng.randint(box.minimum(), box.maximum()))
            else:
                box.setValue(self.rng.uniform(box.minimum(), box.maximum()))
            box.editingFinished.emit()

    def game_edit(self) -> None:
        """The rule system's bookkeeping: Next step (the turn tracker's button), Scout and
        Secure a unit, or record Scrollhammer reserves and a control choice."""
        scenario = self.scenario
        known = known_ids(scenario)
        if scenario.ruleset == "wh40k-ca2026":
            self.window.plugins["wh40k-ca2026"].turn.next_step()
            return
        unit_id = self._pick(known["units"])
        if unit_id is None:
            return
        if scenario.ruleset == "shared-modules":
            try:
                edited = scout_edit(scenario, unit_id)
            except RulesError:
                return
        else:
            state = game_section(scenario, "scrollhammer")
            edited = with_game_key(
                scenario, "scrollhammer", "reserves", sorted({*state.get("reserves", ()), unit_id})
            )
            objective_id = self._pick(known["objectives"])
            if objective_id is not None:
                choices = {**state.get("control_choices", {}), unit_id: objective_id}
                edited = with_game_key(edited, "scrollhammer", "control_choices", choices)
        self.window.document.apply(edited, "Game edit")


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("ruleset", list(DEMOS))
def test_random_edits_always_save_and_the_scene_follows(  # type: ignore[no-untyped-def]
    make_window, tmp_path: Path, ruleset: str, seed: int
) -> None:
    window = make_window(load_scenario(DEMOS[ruleset]))
    rng = random.Random(f"{ruleset}-{seed}")
    run = EditRun(window, rng)
    edits = run.edits()
    names = sorted(edits)
    path = tmp_path / "run.warplan.json"
    done: list[str] = []
    for step in range(STEPS):
        # In every eight edits, a game edit then the deletion of something named elsewhere;
        # the others are drawn at random.
        name = {6: "game edit", 7: "delete referenced"}.get(step % 8) or rng.choice(names)
        done.append(name)
        where = f"{ruleset} seed {seed} step {step}: {' > '.join(done)}"
        edits[name]()
        scenario = window.document.scenario
        assert dangling_references(scenario) == (), where
        assert window.files.save_to(path), where
        assert read_scenario(path) == scenario, where
        shown = window.scene.shown_ids()
        known = known_ids(scenario)
        for kind in shown:
            assert shown[kind] == known[kind], f"{where}: {kind}"
    # The game sections name units, models and objectives (the demos' own, or recorded by the
    # game edits): the run must have deleted something named there.
    assert run.referenced_deletions > 0
