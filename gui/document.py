"""The document: the single source of truth the whole app mirrors.

``ScenarioDocument`` holds one immutable :class:`engine.model.Scenario` and a ``QUndoStack``.
Every edit is a :class:`ReplaceScenarioCommand` that swaps whole scenario values (cheap: the
values share everything that did not change). A drag previews positions with ``preview`` (no
undo step) and ends with one ``commit`` so one drag is one undo step; ``push()`` runs ``redo()``
at once, which only re-sets the value the document already holds (commands are idempotent).

>>> from benchmarks.stress import make_stress_scenario
>>> doc = ScenarioDocument(make_stress_scenario(seed=1))
>>> moved = doc.scenario.with_unit_moved(doc.scenario.units[0].id, 1.0, 0.0)
>>> doc.apply(moved, "Move unit")
>>> doc.undo_stack.count(), doc.is_modified
(1, True)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from engine.model import Marker, Objective, Scenario, TerrainPiece, Unit

NUDGE_MERGE_ID = 4201


@dataclass(frozen=True)
class Change:
    """What differs between two scenario values, by id (the scene and the rules use it)."""

    units: frozenset[str] = frozenset()
    terrain: frozenset[str] = frozenset()
    objectives: frozenset[str] = frozenset()
    markers: frozenset[str] = frozenset()
    structure: bool = False
    """Players, battlefield, deployment, options, ruleset, game, the reserves tray, the layout's
    provenance or the set of ids changed."""
    previewing: bool = False
    """True while a drag is in progress (the change is not an undo step yet)."""
    removed: frozenset[str] = field(default_factory=frozenset)

    @property
    def only_units_moved(self) -> bool:
        return not (self.terrain or self.objectives or self.markers or self.structure)


Identified = Unit | TerrainPiece | Objective | Marker


def _changed_ids(old: tuple[Identified, ...], new: tuple[Identified, ...]) -> tuple[set[str], bool]:
    old_by_id = {value.id: value for value in old}
    changed = {value.id for value in new if old_by_id.get(value.id) is not value}
    ids_differ = len(old) != len(new) or set(old_by_id) != {value.id for value in new}
    return changed, ids_differ


def diff_scenarios(old: Scenario, new: Scenario) -> Change:
    """The ids whose values are not the very same objects in ``old`` and ``new``.

    Values are immutable and edits share unchanged parts, so identity is exact and cheap.
    """
    units, units_reshaped = _changed_ids(old.units, new.units)
    terrain, terrain_reshaped = _changed_ids(old.terrain, new.terrain)
    objectives, objectives_reshaped = _changed_ids(old.objectives, new.objectives)
    markers, markers_reshaped = _changed_ids(old.markers, new.markers)
    old_ids = {u.id for u in old.units} | {t.id for t in old.terrain}
    old_ids |= {o.id for o in old.objectives} | {m.id for m in old.markers}
    new_ids = {u.id for u in new.units} | {t.id for t in new.terrain}
    new_ids |= {o.id for o in new.objectives} | {m.id for m in new.markers}
    structure = (
        units_reshaped
        or terrain_reshaped
        or objectives_reshaped
        or markers_reshaped
        or old.players is not new.players
        or old.battlefield != new.battlefield
        or old.deployment != new.deployment
        or old.options is not new.options
        or old.game is not new.game
        or old.reserves is not new.reserves
        or old.layout != new.layout
        or (old.ruleset, old.title) != (new.ruleset, new.title)
    )
    return Change(
        units=frozenset(units),
        terrain=frozenset(terrain),
        objectives=frozenset(objectives),
        markers=frozenset(markers),
        structure=structure,
        removed=frozenset(old_ids - new_ids),
    )


class ReplaceScenarioCommand(QUndoCommand):
    """Swap the document's scenario from ``before`` to ``after`` (idempotent)."""

    def __init__(
        self,
        document: ScenarioDocument,
        before: Scenario,
        after: Scenario,
        text: str,
        merge_key: str | None = None,
    ) -> None:
        super().__init__(text)
        self._document = document
        self.before = before
        self.after = after
        self.merge_key = merge_key

    def redo(self) -> None:
        self._document._set_scenario(self.after)

    def undo(self) -> None:
        self._document._set_scenario(self.before)

    def id(self) -> int:
        return NUDGE_MERGE_ID if self.merge_key is not None else -1

    def mergeWith(self, other: QUndoCommand) -> bool:  # noqa: N802 - Qt's name
        if not isinstance(other, ReplaceScenarioCommand) or other.merge_key != self.merge_key:
            return False
        self.after = other.after
        return True


class ScenarioDocument(QObject):
    """The open scenario, its file, its undo history and its unsaved-changes flag."""

    changed = Signal(object)
    """Emitted with a :class:`Change` whenever the scenario value changes."""
    replaced = Signal(object)
    """Emitted with the new scenario when a whole new document is loaded (no diff)."""
    path_changed = Signal(object)
    modified_changed = Signal(bool)

    def __init__(
        self, scenario: Scenario, path: Path | None = None, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self._scenario = scenario
        self._path = path
        self._drag_origin: Scenario | None = None
        self.undo_stack = QUndoStack(self)
        self.undo_stack.cleanChanged.connect(self._on_clean_changed)

    def _on_clean_changed(self, clean: bool) -> None:
        self.modified_changed.emit(not clean)

    @property
    def scenario(self) -> Scenario:
        return self._scenario

    @property
    def path(self) -> Path | None:
        return self._path

    @property
    def is_modified(self) -> bool:
        return not self.undo_stack.isClean()

    @property
    def is_dragging(self) -> bool:
        return self._drag_origin is not None

    def load(self, scenario: Scenario, path: Path | None, *, modified: bool = False) -> None:
        """Start a new document (history cleared); ``modified`` marks a recovered one unsaved."""
        self._drag_origin = None
        self.undo_stack.clear()
        self._scenario = scenario
        self.set_path(path)
        self.replaced.emit(scenario)
        self.undo_stack.setClean()
        if modified:
            # A recovered autosave with no readable file behind it: nothing on disk holds this
            # value, so it is unsaved, yet there is no state to undo back to (no undo step).
            self.undo_stack.resetClean()
        self.modified_changed.emit(self.is_modified)

    def set_path(self, path: Path | None) -> None:
        self._path = path
        self.path_changed.emit(path)

    def mark_saved(self, path: Path) -> None:
        self.set_path(path)
        self.undo_stack.setClean()

    def apply(self, scenario: Scenario, text: str, merge_key: str | None = None) -> None:
        """Make ``scenario`` current as one undo step named ``text``."""
        if scenario is self._scenario:
            return
        self.undo_stack.push(
            ReplaceScenarioCommand(self, self._scenario, scenario, text, merge_key)
        )

    def begin_drag(self) -> None:
        """Remember the scenario a drag starts from (its undo step's ``before``)."""
        if self._drag_origin is None:
            self._drag_origin = self._scenario

    def preview(self, scenario: Scenario) -> None:
        """Show ``scenario`` during a drag without making an undo step."""
        self.begin_drag()
        self._set_scenario(scenario, previewing=True)

    def end_drag(self, text: str) -> None:
        """Finish a drag: one undo step from where it started (none if nothing moved).

        The previews already show the dropped value, so pushing the step changes nothing and
        emits nothing by itself; listeners that skip previews (slow panels) still need to hear
        that the value is final, so ``changed`` is emitted once more, committed, with everything
        the whole drag changed.
        """
        origin, self._drag_origin = self._drag_origin, None
        if origin is None or origin is self._scenario:
            return
        self.undo_stack.push(ReplaceScenarioCommand(self, origin, self._scenario, text))
        self.changed.emit(diff_scenarios(origin, self._scenario))

    def cancel_drag(self) -> None:
        origin, self._drag_origin = self._drag_origin, None
        if origin is not None:
            self._set_scenario(origin)

    def _set_scenario(self, scenario: Scenario, *, previewing: bool = False) -> None:
        if scenario is self._scenario:
            return
        change = diff_scenarios(self._scenario, scenario)
        self._scenario = scenario
        if previewing:
            change = Change(
                units=change.units,
                terrain=change.terrain,
                objectives=change.objectives,
                markers=change.markers,
                structure=change.structure,
                previewing=True,
                removed=change.removed,
            )
        self.changed.emit(change)
