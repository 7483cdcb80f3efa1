"""The Inspector dock: typed, validated fields for the one selected thing.

Each field commits on its own (a spin box when editing finishes, a check box when toggled) as
one undo step, and only when the value differs from the document's: pressing Enter in an
unchanged field makes no step. Fields refresh from the document when it changes (during a drag
too) without echoing an edit back. An edit the engine refuses (an owner for an objective that
is not a home one) changes nothing and says why under the fields.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from engine.bases import base_label
from engine.edits import Selection, set_objective_owner, set_objective_role
from engine.errors import WarplanError
from engine.floors import floors_under, stand_models
from engine.model import (
    Battlefield,
    Marker,
    Model,
    Objective,
    Scenario,
    TerrainPiece,
    Unit,
)
from engine.rings import parse_rings, rings_text
from gui.document import ScenarioDocument

ROLES = ("home", "central", "expansion", "other")


def describe_base(model: Model) -> str:
    return base_label(model.base)


class InspectorPanel(QWidget):
    """Edits the selected model, unit, objective, terrain piece or marker."""

    def __init__(self, document: ScenarioDocument) -> None:
        super().__init__()
        self.setObjectName("InspectorPanel")
        self.document = document
        self.selection = Selection()
        self._title = QLabel("Nothing selected. Click a model, unit label, objective or terrain.")
        self._title.setWordWrap(True)
        self._form_host = QWidget()
        self._form = QFormLayout(self._form_host)
        self.refusal = QLabel("")
        self.refusal.setObjectName("inspector-refusal")
        self.refusal.setWordWrap(True)
        self.refusal.setStyleSheet("color: #b00020;")
        self.refusal.hide()
        self._refreshers: list[Callable[[Scenario], None]] = []
        self._subject: tuple[str, str] | None = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self._title)
        layout.addWidget(self._form_host)
        layout.addWidget(self.refusal)
        layout.addStretch(1)
        document.changed.connect(lambda _change: self.refresh_values())
        document.replaced.connect(lambda _s: self.set_selection(Selection()))

    # ------------------------------------------------------------------ subject

    def set_selection(self, selection: Selection) -> None:
        self.selection = selection
        subject = self._pick_subject(selection)
        if subject is not None and not self._exists(self.document.scenario, *subject):
            subject = None
        if subject == self._subject:
            self.refresh_values()
            return
        self._subject = subject
        self.refusal.hide()
        self._rebuild()

    @staticmethod
    def _pick_subject(selection: Selection) -> tuple[str, str] | None:
        groups = (
            ("unit", selection.units),
            ("model", selection.models),
            ("objective", selection.objectives),
            ("terrain", selection.terrain),
            ("marker", selection.markers),
        )
        chosen = [(kind, next(iter(ids))) for kind, ids in groups if len(ids) == 1]
        total = sum(len(ids) for _, ids in groups)
        return chosen[0] if total == 1 and chosen else None

    def _rebuild(self) -> None:
        while self._form.rowCount():
            self._form.removeRow(0)
        self._refreshers = []
        if self._subject is None:
            count = sum(
                len(s)
                for s in (
                    self.selection.models,
                    self.selection.units,
                    self.selection.terrain,
                    self.selection.objectives,
                    self.selection.markers,
                )
            )
            self._title.setText(
                f"{count} items selected: drag them together, nudge with the arrow keys."
                if count
                else "Nothing selected. Click a model, unit label, objective or terrain."
            )
            return
        kind, entity_id = self._subject
        scenario = self.document.scenario
        builder = {
            "model": self._build_model,
            "unit": self._build_unit,
            "objective": self._build_objective,
            "terrain": self._build_terrain,
            "marker": self._build_marker,
        }[kind]
        builder(scenario, entity_id)
        self.refresh_values()

    def refresh_values(self) -> None:
        scenario = self.document.scenario
        if self._subject is not None and not self._exists(scenario, *self._subject):
            self._subject = None
            self._rebuild()
            return
        for refresh in self._refreshers:
            refresh(scenario)

    @staticmethod
    def _exists(scenario: Scenario, kind: str, entity_id: str) -> bool:
        try:
            if kind == "model":
                scenario.model(entity_id)
            elif kind == "unit":
                scenario.unit(entity_id)
            elif kind == "objective":
                scenario.objective(entity_id)
            elif kind == "terrain":
                scenario.terrain_piece(entity_id)
            else:
                return any(k.id == entity_id for k in scenario.markers)
        except KeyError:
            return False
        return True

    # ------------------------------------------------------------------ field helpers

    def _row(self, label: str, field: QWidget, refresh: Callable[[Scenario], None]) -> None:
        field.setObjectName(f"inspector-{label}")
        self._refreshers.append(refresh)
        self._form.addRow(label, field)

    def _apply(self, label: str, write: Callable[[Scenario, Any], Scenario], value: Any) -> None:
        """One undo step ``Set <label>``; none when the written document equals the current
        one; a refusal of the engine is shown and the fields go back to the document's."""
        scenario = self.document.scenario
        try:
            edited = write(scenario, value)
        except WarplanError as error:
            self.refusal.setText(f"{label} not changed: {error}")
            self.refusal.show()
            self.refresh_values()
            return
        self.refusal.hide()
        if edited != scenario:
            self.document.apply(edited, f"Set {label}")

    def _spin_row(
        self,
        label: str,
        box: QSpinBox | QDoubleSpinBox,
        read: Callable[[Scenario], Any],
        write: Callable[[Scenario, Any], Scenario],
        differs: Callable[[Any, Any], bool],
    ) -> None:
        """Commit when editing finishes and the value ``differs`` from the document's; a box
        being typed in is not overwritten by a refresh."""
        box.setKeyboardTracking(False)
        # The value the box showed for the document (rounded to its decimals): Enter on it
        # is no edit, even when the document holds more digits than the box shows.
        shown: list[Any] = [None]

        def commit() -> None:
            if box.value() != shown[0] and differs(read(self.document.scenario), box.value()):
                self._apply(label, write, box.value())
            show(self.document.scenario)

        def show(scenario: Scenario) -> None:
            box.blockSignals(True)
            box.setValue(read(scenario))
            box.blockSignals(False)
            shown[0] = box.value()

        def refresh(scenario: Scenario) -> None:
            if not box.hasFocus():
                show(scenario)

        box.editingFinished.connect(commit)
        self._row(label, box, refresh)

    def _number(
        self,
        label: str,
        read: Callable[[Scenario], float],
        write: Callable[[Scenario, float], Scenario],
        *,
        minimum: float,
        maximum: float,
        decimals: int = 2,
        suffix: str = '"',
        step: float = 0.1,
    ) -> QDoubleSpinBox:
        box = QDoubleSpinBox()
        box.setRange(minimum, maximum)
        box.setDecimals(decimals)
        box.setSingleStep(step)
        box.setSuffix(suffix)
        # Below the shown precision a float difference is rounding, not an edit.
        self._spin_row(
            label, box, read, write, lambda old, new: abs(old - new) > 10 ** -(decimals + 1)
        )
        return box

    def _integer(
        self,
        label: str,
        read: Callable[[Scenario], int],
        write: Callable[[Scenario, int], Scenario],
        *,
        minimum: int,
        maximum: int,
        special: str = "",
    ) -> QSpinBox:
        box = QSpinBox()
        box.setRange(minimum, maximum)
        if special:
            box.setSpecialValueText(special)
        self._spin_row(label, box, read, write, lambda old, new: old != new)
        return box

    def _position(
        self,
        read: Callable[[Scenario], Model | Objective | Marker],
        put: Callable[..., Scenario],
        battlefield: Battlefield,
    ) -> None:
        """x and y spin boxes that keep the thing on the battlefield."""
        self._number(
            "x", lambda s: read(s).x, lambda s, v: put(s, x=v), minimum=0, maximum=battlefield.width
        )
        self._number(
            "y", lambda s: read(s).y, lambda s, v: put(s, y=v), minimum=0, maximum=battlefield.depth
        )

    def _flag(
        self,
        label: str,
        read: Callable[[Scenario], bool],
        write: Callable[[Scenario, bool], Scenario],
    ) -> QCheckBox:
        box = QCheckBox()

        def refresh(scenario: Scenario) -> None:
            box.blockSignals(True)
            box.setChecked(read(scenario))
            box.blockSignals(False)

        box.toggled.connect(lambda checked: self._apply(label, write, checked))
        self._row(label, box, refresh)
        return box

    def _text(
        self,
        label: str,
        read: Callable[[Scenario], str],
        write: Callable[[Scenario, str], Scenario],
    ) -> QLineEdit:
        edit = QLineEdit()

        def commit() -> None:
            if read(self.document.scenario) != edit.text():
                self._apply(label, write, edit.text())
            # Show the value as written (trimmed, keywords in capitals), so Enter again is
            # seen as no change.
            edit.setText(read(self.document.scenario))

        def refresh(scenario: Scenario) -> None:
            if not edit.hasFocus():
                edit.setText(read(scenario))

        edit.editingFinished.connect(commit)
        self._row(label, edit, refresh)
        return edit

    def _choice(
        self,
        label: str,
        choices: list[tuple[str, Any]],
        read: Callable[[Scenario], Any],
        write: Callable[[Scenario, Any], Scenario],
    ) -> QComboBox:
        combo = QComboBox()
        for text, value in choices:
            combo.addItem(text, value)

        def refresh(scenario: Scenario) -> None:
            combo.blockSignals(True)
            index = combo.findData(read(scenario))
            combo.setCurrentIndex(max(0, index))
            combo.blockSignals(False)

        combo.currentIndexChanged.connect(lambda _i: self._apply(label, write, combo.currentData()))
        self._row(label, combo, refresh)
        return combo

    def _level(self, model_ids: Callable[[Scenario], list[str]]) -> None:
        """Two buttons: every model onto the upper floor its base is wholly over, or onto the
        ground (the engine says which floors a base fits on)."""
        host = QWidget()
        # Stacked, not side by side: a wider Inspector would widen its dock column mid-click.
        row = QVBoxLayout(host)
        row.setContentsMargins(0, 0, 0, 0)
        ground = QPushButton("On the ground")
        upper = QPushButton("On the upper floor")
        row.addWidget(ground)
        row.addWidget(upper)

        def stand(on_floor: bool) -> None:
            ids = model_ids(self.document.scenario)
            self._apply("level", lambda s, _v: stand_models(s, ids, on_floor=on_floor), on_floor)

        ground.clicked.connect(lambda: stand(False))
        upper.clicked.connect(lambda: stand(True))

        def refresh(scenario: Scenario) -> None:
            models = [scenario.model(m) for m in model_ids(scenario)]
            fits = [floors_under(scenario, m) for m in models]
            upper.setEnabled(bool(models) and all(fits))
            upper.setToolTip(
                f'Stand at z {fits[0][0].z:g}" on {fits[0][0].piece}'
                if models and all(fits)
                else "Only a base wholly over an upper floor can stand on it"
            )
            ground.setEnabled(any(m.z for m in models))

        self._row("level", host, refresh)

    # ------------------------------------------------------------------ per kind

    def _build_model(self, scenario: Scenario, model_id: str) -> None:
        unit = scenario.unit_of_model(model_id)
        model = scenario.model(model_id)
        self._title.setText(
            f"Model {model_id} of {unit.name or unit.id}\nBase: {describe_base(model)}"
        )

        def model_of(s: Scenario) -> Model:
            return s.model(model_id)

        def put(s: Scenario, **changes: Any) -> Scenario:
            return s.with_models([replace(model_of(s), **changes)])

        self._position(model_of, put, scenario.battlefield)
        self._number(
            "z (floor height)",
            lambda s: model_of(s).z,
            lambda s, v: put(s, z=v),
            minimum=0,
            maximum=50,
        )
        self._number(
            "rotation",
            lambda s: model_of(s).rotation,
            lambda s, v: put(s, rotation=v % 360),
            minimum=0,
            maximum=359.9,
            decimals=1,
            suffix="°",
            step=15,
        )
        self._level(lambda _s: [model_id])
        self._number(
            "height",
            lambda s: model_of(s).height,
            lambda s, v: put(s, height=v),
            minimum=0,
            maximum=50,
        )
        self._integer(
            "OC (override)",
            lambda s: -1 if model_of(s).oc is None else int(model_of(s).oc or 0),
            lambda s, v: put(s, oc=None if v < 0 else v),
            minimum=-1,
            maximum=50,
            special="unit's OC",
        )

    def _build_unit(self, scenario: Scenario, unit_id: str) -> None:
        unit = scenario.unit(unit_id)
        self._title.setText(f"Unit {unit_id}: {len(unit.models)} models")

        def unit_of(s: Scenario) -> Unit:
            return s.unit(unit_id)

        def put(s: Scenario, **changes: Any) -> Scenario:
            return s.with_unit(replace(unit_of(s), **changes))

        self._text("name", lambda s: unit_of(s).name, lambda s, v: put(s, name=v.strip()))
        self._choice(
            "player",
            [(p.name or p.id, p.id) for p in scenario.players],
            lambda s: unit_of(s).player,
            lambda s, v: put(s, player=v),
        )
        self._text(
            "keywords",
            lambda s: ", ".join(unit_of(s).keywords),
            lambda s, v: put(
                s,
                keywords=tuple(dict.fromkeys(k.strip().upper() for k in v.split(",") if k.strip())),
            ),
        )
        self._integer(
            "OC", lambda s: unit_of(s).oc, lambda s, v: put(s, oc=v), minimum=0, maximum=50
        )
        self._level(lambda s: [m.id for m in unit_of(s).models])
        self._flag(
            "battle-shocked",
            lambda s: unit_of(s).status.battle_shocked,
            lambda s, v: put(s, status=replace(unit_of(s).status, battle_shocked=v)),
        )
        self._flag(
            "falling back",
            lambda s: unit_of(s).status.falling_back,
            lambda s, v: put(s, status=replace(unit_of(s).status, falling_back=v)),
        )
        self._text(
            "Range rings",
            lambda s: rings_text(unit_of(s).rings),
            lambda s, v: put(s, rings=parse_rings(v)),
        )

    def _build_objective(self, scenario: Scenario, objective_id: str) -> None:
        objective = scenario.objective(objective_id)
        kind = (
            f"terrain objective on {objective.terrain}" if objective.terrain else "marker objective"
        )
        self._title.setText(f"Objective {objective_id} ({kind})")

        def objective_of(s: Scenario) -> Objective:
            return s.objective(objective_id)

        def put(s: Scenario, **changes: Any) -> Scenario:
            new = replace(objective_of(s), **changes)
            return replace(
                s, objectives=tuple(new if o.id == objective_id else o for o in s.objectives)
            )

        self._position(objective_of, put, scenario.battlefield)
        self._choice(
            "role",
            [(r, r) for r in ROLES],
            lambda s: objective_of(s).role,
            lambda s, v: set_objective_role(s, objective_id, v),
        )
        owner = self._choice(
            "owner",
            [("nobody", None)] + [(p.name or p.id, p.id) for p in scenario.players],
            lambda s: objective_of(s).owner,
            lambda s, v: set_objective_owner(s, objective_id, v),
        )
        # Only home objectives have an owner: the engine refuses the others, the box says so.
        self._refreshers.append(lambda s: owner.setEnabled(objective_of(s).role == "home"))
        self._number(
            "diameter",
            lambda s: objective_of(s).diameter,
            lambda s, v: put(s, diameter=v),
            minimum=1,
            maximum=200,
            decimals=0,
            suffix=" mm",
            step=1,
        )

    def _build_terrain(self, scenario: Scenario, terrain_id: str) -> None:
        piece = scenario.terrain_piece(terrain_id)
        self._title.setText(
            f"Terrain {terrain_id}: {piece.kind or 'area'}, {len(piece.features)} features"
        )

        def piece_of(s: Scenario) -> TerrainPiece:
            return s.terrain_piece(terrain_id)

        def put(s: Scenario, **changes: Any) -> Scenario:
            new = replace(piece_of(s), **changes)
            return replace(s, terrain=tuple(new if t.id == terrain_id else t for t in s.terrain))

        self._text("kind", lambda s: piece_of(s).kind, lambda s, v: put(s, kind=v.strip()))
        self._flag("obscuring", lambda s: piece_of(s).obscuring, lambda s, v: put(s, obscuring=v))
        self._flag(
            "impassable", lambda s: piece_of(s).impassable, lambda s, v: put(s, impassable=v)
        )
        if piece.features:
            self._number(
                "wall height",
                lambda s: max(f.height for f in piece_of(s).features),
                lambda s, v: put(
                    s, features=tuple(replace(f, height=v) for f in piece_of(s).features)
                ),
                minimum=0,
                maximum=50,
            )
            self._flag(
                "walls solid",
                lambda s: all(f.solid for f in piece_of(s).features),
                lambda s, v: put(
                    s, features=tuple(replace(f, solid=v) for f in piece_of(s).features)
                ),
            )

    def _build_marker(self, scenario: Scenario, marker_id: str) -> None:
        self._title.setText(f"Marker {marker_id}")

        def marker_of(s: Scenario) -> Marker:
            return next(k for k in s.markers if k.id == marker_id)

        def put(s: Scenario, **changes: Any) -> Scenario:
            new = replace(marker_of(s), **changes)
            return replace(s, markers=tuple(new if k.id == marker_id else k for k in s.markers))

        self._text(
            "kind", lambda s: marker_of(s).kind, lambda s, v: put(s, kind=v.strip() or "operation")
        )
        self._choice(
            "player",
            [("nobody", None)] + [(p.name or p.id, p.id) for p in scenario.players],
            lambda s: marker_of(s).player,
            lambda s, v: put(s, player=v),
        )
        self._position(marker_of, put, scenario.battlefield)
