"""Named snapshots of the board kept in the file: a branching timeline.

A snapshot holds the whole document as it was when it was taken, except the file's own parts:
its title, its ``extra`` and the snapshots themselves (:data:`engine.format_schema.NOT_ON_A_BOARD`).
So it holds the units, the reserves tray, terrain, objectives, markers, annotations, the
deployment, the layout's provenance, the options, the ``game`` section (the moment, the
deployment sequence), the players, the battlefield and the rule system. **Going back**
(:func:`restore`) makes all of these the snapshot's again; the title, ``extra`` and every
snapshot are kept, and the snapshot becomes ``current``: the board descends from it, so the
next snapshot taken is its child (a branch, when it already has one).

Every function is pure: the time a snapshot is taken is given by the caller, never read from a
clock here.

>>> from engine.model import CircleBase, Model, Player, Scenario, Unit
>>> red = Unit("red-u", "red", (Model("red-m", 10.0, 10.0, CircleBase(32)),))
>>> board = Scenario("wh40k-ca2026", (Player("red"), Player("blue")), units=(red,))
>>> first = take_snapshot(board, "Refused flank", "2026-12-01T18:00:00Z")
>>> moved = first.with_unit_moved("red-u", 5.0, 0.0)
>>> second = take_snapshot(moved, "Centre push", "2026-12-01T18:05:00Z")
>>> back = restore(second, "snapshot-1")
>>> back.unit("red-u").models[0].x, back.snapshots.current
(10.0, 'snapshot-1')
>>> branch = take_snapshot(back, "Castle", "2026-12-01T18:09:00Z")
>>> [(e.snapshot.id, e.depth, e.children) for e in timeline(branch).entries]
[('snapshot-1', 0, ('snapshot-2', 'snapshot-3')), ('snapshot-2', 1, ()), ('snapshot-3', 1, ())]
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

from engine.errors import RulesError, UnknownReferenceError
from engine.model import EMPTY, FORMAT_VERSION, Scenario, Snapshot, Snapshots

__all__ = [
    "Timeline",
    "TimelineEntry",
    "board_of",
    "delete",
    "rename",
    "restore",
    "snapshot",
    "take_snapshot",
    "timeline",
]

ID_PREFIX = "snapshot"


def board_of(scenario: Scenario) -> Scenario:
    """What a snapshot of ``scenario`` holds: the document without its title, ``extra`` and
    snapshots (those are the file's, not the board's)."""
    return replace(scenario, title="", extra=EMPTY, version=FORMAT_VERSION, snapshots=Snapshots())


def _taken_text(taken: datetime | str) -> str:
    if isinstance(taken, datetime):
        return taken.isoformat(timespec="seconds")
    try:
        datetime.fromisoformat(taken)
    except ValueError:
        raise RulesError(f"a snapshot's time must be ISO 8601, got {taken!r}") from None
    return taken


def _name(name: str) -> str:
    if not name.strip():
        raise RulesError("a snapshot needs a name")
    return name


def _new_id(snapshots: Snapshots) -> str:
    used = {s.id for s in snapshots.items}
    n = 1
    while f"{ID_PREFIX}-{n}" in used:
        n += 1
    return f"{ID_PREFIX}-{n}"


def snapshot(scenario: Scenario, snapshot_id: str) -> Snapshot:
    """The snapshot ``snapshot_id`` of ``scenario`` (``UnknownReferenceError`` if none)."""
    found = scenario.snapshots.get(snapshot_id)
    if found is None:
        known = ", ".join(s.id for s in scenario.snapshots.items) or "none"
        raise UnknownReferenceError(f"no snapshot {snapshot_id!r}; known: {known}")
    return found


def take_snapshot(scenario: Scenario, name: str, taken: datetime | str) -> Scenario:
    """``scenario`` with a new snapshot of its board named ``name``, taken at ``taken`` (a
    ``datetime`` or ISO 8601 text), a child of ``current``; the new snapshot becomes current.

    >>> from engine.model import Player, Scenario
    >>> s = take_snapshot(Scenario("wh40k-ca2026", (Player("a"), Player("b"))), "Start",
    ...                   "2026-12-01T18:00:00+00:00")
    >>> s.snapshots.current, s.snapshots.items[0].parent, s.snapshots.items[0].taken
    ('snapshot-1', None, '2026-12-01T18:00:00+00:00')
    """
    timeline_now = scenario.snapshots
    new = Snapshot(
        _new_id(timeline_now),
        _name(name),
        timeline_now.current,
        _taken_text(taken),
        board_of(scenario),
    )
    return replace(scenario, snapshots=Snapshots(new.id, (*timeline_now.items, new)))


def restore(scenario: Scenario, snapshot_id: str) -> Scenario:
    """Go back: the board becomes the snapshot's (everything :func:`board_of` keeps), the
    title, ``extra`` and every snapshot stay, and ``current`` is the snapshot."""
    chosen = snapshot(scenario, snapshot_id)
    return replace(
        chosen.board,
        title=scenario.title,
        extra=scenario.extra,
        version=scenario.version,
        snapshots=replace(scenario.snapshots, current=chosen.id),
    )


def rename(scenario: Scenario, snapshot_id: str, name: str) -> Scenario:
    """``scenario`` with the snapshot renamed (its board, parent and time unchanged)."""
    chosen = snapshot(scenario, snapshot_id)
    renamed = replace(chosen, name=_name(name))
    items = tuple(renamed if s.id == snapshot_id else s for s in scenario.snapshots.items)
    return replace(scenario, snapshots=replace(scenario.snapshots, items=items))


def delete(scenario: Scenario, snapshot_id: str) -> Scenario:
    """``scenario`` without the snapshot. Its children are re-parented to its parent (a root's
    children become roots), and a board that descended from it descends from its parent.

    >>> from engine.model import Player, Scenario
    >>> s = Scenario("wh40k-ca2026", (Player("a"), Player("b")))
    >>> for name in ("one", "two", "three"):
    ...     s = take_snapshot(s, name, "2026-12-01T18:00:00")
    >>> s = delete(s, "snapshot-2")
    >>> [(x.id, x.parent) for x in s.snapshots.items], s.snapshots.current
    ([('snapshot-1', None), ('snapshot-3', 'snapshot-1')], 'snapshot-3')
    """
    gone = snapshot(scenario, snapshot_id)
    items = tuple(
        replace(s, parent=gone.parent) if s.parent == gone.id else s
        for s in scenario.snapshots.items
        if s.id != gone.id
    )
    current = scenario.snapshots.current
    return replace(
        scenario,
        snapshots=Snapshots(gone.parent if current == gone.id else current, items),
    )


@dataclass(frozen=True)
class TimelineEntry:
    """One snapshot in the tree: how deep it is (a root is 0), its children's ids (in the order
    taken), and whether the live board descends from it."""

    snapshot: Snapshot
    depth: int
    children: tuple[str, ...]
    current: bool


@dataclass(frozen=True)
class Timeline:
    """The snapshot tree in the order the app lists it (depth first, each branch in the order
    taken), and whether the live board still equals its current snapshot's."""

    entries: tuple[TimelineEntry, ...]
    current: str | None
    board_unchanged: bool

    def entry(self, snapshot_id: str) -> TimelineEntry:
        for entry in self.entries:
            if entry.snapshot.id == snapshot_id:
                return entry
        raise UnknownReferenceError(f"no snapshot {snapshot_id!r}")


def timeline(scenario: Scenario) -> Timeline:
    """The tree of ``scenario``'s snapshots (the reader guarantees it is a tree).

    >>> from engine.model import Player, Scenario
    >>> s = take_snapshot(Scenario("wh40k-ca2026", (Player("a"), Player("b"))), "one",
    ...                   "2026-12-01T18:00:00")
    >>> tree = timeline(s)
    >>> tree.current, tree.board_unchanged, tree.entries[0].current
    ('snapshot-1', True, True)
    >>> timeline(replace(s, title="renamed")).board_unchanged  # the title is not the board's
    True
    >>> timeline(replace(s, options={"coherency": True})).board_unchanged
    False
    """
    items = scenario.snapshots.items
    known = {s.id for s in items}
    children: dict[str | None, list[Snapshot]] = {}
    for item in items:
        children.setdefault(item.parent if item.parent in known else None, []).append(item)
    current = scenario.snapshots.current
    entries: list[TimelineEntry] = []
    stack = [(root, 0) for root in reversed(children.get(None, []))]
    while stack:
        item, depth = stack.pop()
        below = children.get(item.id, [])
        entries.append(TimelineEntry(item, depth, tuple(c.id for c in below), item.id == current))
        stack.extend((child, depth + 1) for child in reversed(below))
    chosen = scenario.snapshots.get(current) if current is not None else None
    unchanged = chosen is not None and chosen.board == board_of(scenario)
    return Timeline(tuple(entries), current, unchanged)
