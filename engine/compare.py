"""Two boards side by side: what differs between them in objective control, line of sight,
threat, where the units stand and the area each player can stand in unseen.

Every difference is one the engine's own answers give for each board: the objective control of
:func:`engine.evaluate.evaluate`, the visibility of :class:`engine.visibility.VisibilityEngine`
(every ordered pair of opposing units), the odds of :func:`engine.threat.unit_threats`, the
hidden-placement map of :func:`engine.hidden.hidden_map`. Units
are matched by id; a unit on the battlefield of one board only is listed as such (its pairs and
odds have nothing to be compared with). A unit *moved* when some model of it (matched by id)
stands elsewhere, higher or turned; how far is the longest horizontal distance a model's
centre moved. Comparing ``b`` with ``a`` gives the same differences, sides (and labels) swapped
(:meth:`Comparison.mirrored`).

Choices where the rules are silent, for the hidden area: each player's map covers the
player's deployment zone (the table where it has none) on the 0.5" grid, for the base most
of the player's models stand on over *both* boards together and the height most of those
models have (ties: the smaller base, the lower height; counting both boards keeps the
comparison the same either way round); the enemy's models watch when the enemy has a unit on
either board, else every point of the enemy's deployment zone at that height.

>>> from engine.model import CircleBase, Model, Objective, Player, Scenario, Unit
>>> red = Unit("red-u", "red", (Model("red-m", 24.0, 22.0, CircleBase(32)),), move=6)
>>> blue = Unit("blue-u", "blue", (Model("blue-m", 40.0, 22.0, CircleBase(32)),), move=6)
>>> a = Scenario("wh40k-ca2026", (Player("red"), Player("blue")), units=(red, blue),
...              objectives=(Objective("obj", 30.0, 22.0),))
>>> b = a.with_unit_moved("red-u", 4.0, 0.0)
>>> print(compare(a, a).text())
No differences between A and B
>>> result = compare(a, b)
>>> [(c.objective, c.a, c.b) for c in result.control]
[('obj', (), ('red',))]
>>> [(t.unit, t.target, str(t.a.advance), str(t.b.advance)) for t in result.threats]
[('blue-u', 'red-u', '0', '2/3'), ('red-u', 'blue-u', '0', '2/3')]
>>> result.moved[0].unit, result.moved[0].distance
('red-u', 4.0)
>>> compare(b, a, "B", "A") == result.mirrored()
True
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from engine.bases import base_label
from engine.errors import WarplanError
from engine.evaluate import evaluate
from engine.explain import RuleRef, RulingLine, RulingSection, inches, player_names, sections_text
from engine.hidden import HiddenMap, Observers, hidden_map
from engine.model import Base, CircleBase, Scenario, Unit
from engine.objectives import ObjectiveControl
from engine.threat import MOVES_SECTION, Threat, unit_threats
from engine.visibility import PairVisibility, VisibilityEngine

__all__ = [
    "Comparison",
    "ControlChange",
    "HiddenChange",
    "HiddenCounts",
    "SightAnswer",
    "SightChange",
    "ThreatChange",
    "ThreatOdds",
    "UnitMove",
    "common_base",
    "compare",
    "hidden_changes",
]

SIGHT_SECTION = "Line of sight (2.5-D)"
HIDDEN_SECTION = "Hidden-placement map"
HIDDEN_STEP = 0.5
"""The grid the hidden area is measured on (inches)."""


@dataclass(frozen=True)
class ControlChange:
    """An objective whose control differs: who controls it on each board (``None`` where the
    board has no such objective) and the verdict in words."""

    objective: str
    a: tuple[str, ...] | None
    b: tuple[str, ...] | None
    a_verdict: str
    b_verdict: str

    def mirrored(self) -> ControlChange:
        return ControlChange(self.objective, self.b, self.a, self.b_verdict, self.a_verdict)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.objective,
            "a": None if self.a is None else list(self.a),
            "b": None if self.b is None else list(self.b),
            "a_verdict": self.a_verdict,
            "b_verdict": self.b_verdict,
        }


@dataclass(frozen=True)
class SightAnswer:
    """The visibility answer of one ordered pair on one board."""

    visible: bool
    fully_visible: bool
    cover: bool

    @staticmethod
    def of(pair: PairVisibility) -> SightAnswer:
        return SightAnswer(pair.visible, pair.fully_visible, pair.cover)

    def words(self) -> str:
        if not self.visible:
            return "not visible"
        seen = "fully visible" if self.fully_visible else "visible"
        return f"{seen}, in cover" if self.cover else seen

    def to_json(self) -> dict[str, bool]:
        return {"visible": self.visible, "fully_visible": self.fully_visible, "cover": self.cover}


@dataclass(frozen=True)
class SightChange:
    """An ordered pair of opposing units (on both boards) whose answer differs."""

    observer: str
    target: str
    a: SightAnswer
    b: SightAnswer

    def mirrored(self) -> SightChange:
        return SightChange(self.observer, self.target, self.b, self.a)

    def to_json(self) -> dict[str, Any]:
        return {
            "observer": self.observer,
            "target": self.target,
            "a": self.a.to_json(),
            "b": self.b.to_json(),
        }


@dataclass(frozen=True)
class ThreatOdds:
    """A unit's odds of reaching one target on one board, and the distance that matters
    (``None``: beyond any legal move this turn, round the terrain)."""

    distance: float | None
    normal: Fraction | None
    advance: Fraction | None
    charge: Fraction | None

    @staticmethod
    def of(threat: Threat) -> ThreatOdds:
        return ThreatOdds(threat.distance, threat.normal, threat.advance, threat.charge)

    @property
    def odds(self) -> tuple[Fraction | None, Fraction | None, Fraction | None]:
        return self.normal, self.advance, self.charge

    def words(self) -> str:
        away = "beyond any legal move" if self.distance is None else f"{inches(self.distance)} away"
        return (
            f"{away}: normal {self.normal}, advance {self.advance}, "
            f"charge {self.charge}"
        )

    def to_json(self) -> dict[str, Any]:
        def text(p: Fraction | None) -> str | None:
            return None if p is None else str(p)

        return {
            "distance": None if self.distance is None else round(self.distance, 6),
            "normal": text(self.normal),
            "advance": text(self.advance),
            "charge": text(self.charge),
        }


@dataclass(frozen=True)
class ThreatChange:
    """A unit and an enemy unit (both on both boards) whose normal, advance or charge odds
    differ."""

    unit: str
    target: str
    a: ThreatOdds
    b: ThreatOdds

    def mirrored(self) -> ThreatChange:
        return ThreatChange(self.unit, self.target, self.b, self.a)

    def to_json(self) -> dict[str, Any]:
        return {
            "unit": self.unit,
            "target": self.target,
            "a": self.a.to_json(),
            "b": self.b.to_json(),
        }


@dataclass(frozen=True)
class UnitMove:
    """A unit on both boards that stands elsewhere: the longest horizontal distance one of its
    models' centres moved (0 for a unit only raised or turned)."""

    unit: str
    distance: float

    def to_json(self) -> dict[str, Any]:
        return {"unit": self.unit, "distance": round(self.distance, 6)}


@dataclass(frozen=True)
class HiddenCounts:
    """One player's hidden-placement map on one board: its cells by state and the hidden area
    (square inches)."""

    hidden: int
    visible: int
    blocked: int
    area: float

    @staticmethod
    def of(found: HiddenMap) -> HiddenCounts:
        counts = found.counts
        return HiddenCounts(
            counts["hidden"], counts["visible"], counts["blocked"], found.hidden_area
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "hidden": self.hidden,
            "visible": self.visible,
            "blocked": self.blocked,
            "hidden_area": self.area,
        }


@dataclass(frozen=True)
class HiddenChange:
    """Where one player can stand unseen, on each board: the player's most common base and
    height (:func:`common_base`) on the deployment zone's 0.5" grid, the map's counts on each
    board, and how many cells are hidden on one board only."""

    player: str
    base: Base
    height: float
    step: float
    observers: Observers
    a: HiddenCounts
    b: HiddenCounts
    hidden_in_b_only: int
    hidden_in_a_only: int

    def mirrored(self) -> HiddenChange:
        return replace(
            self,
            a=self.b,
            b=self.a,
            hidden_in_b_only=self.hidden_in_a_only,
            hidden_in_a_only=self.hidden_in_b_only,
        )

    def to_json(self) -> dict[str, Any]:
        from engine.format_schema import BASE

        return {
            "player": self.player,
            "base": BASE.write(self.base),
            "height": self.height,
            "step": self.step,
            "observers": self.observers,
            "a": self.a.to_json(),
            "b": self.b.to_json(),
            "hidden_in_a_only": self.hidden_in_a_only,
            "hidden_in_b_only": self.hidden_in_b_only,
        }


@dataclass(frozen=True)
class Comparison:
    """The differences between board ``a`` and board ``b``, each list sorted by id."""

    a_label: str
    b_label: str
    control: tuple[ControlChange, ...]
    sight: tuple[SightChange, ...]
    threats: tuple[ThreatChange, ...]
    moved: tuple[UnitMove, ...]
    only_in_a: tuple[str, ...]
    """Units on the battlefield of ``a`` and not of ``b``."""
    only_in_b: tuple[str, ...]
    hidden: tuple[HiddenChange, ...] = ()
    """Per player whose hidden-placement map differs (none when not asked for)."""
    notes: tuple[str, ...] = ()
    """Why a player has no hidden-area comparison (no models, no deployment zone, ...)."""
    ruleset: str = field(default="", compare=False)
    """The rule system of ``a``, cited by the sections."""
    names: tuple[tuple[str, str], ...] = field(default=(), compare=False)
    """The players' display names (id, name), for the text."""

    @property
    def empty(self) -> bool:
        """Whether the two boards differ in nothing compared."""
        return not (
            self.control
            or self.sight
            or self.threats
            or self.moved
            or self.only_in_a
            or self.only_in_b
            or self.hidden
        )

    def mirrored(self) -> Comparison:
        """The same differences seen from the other side: ``b`` first."""
        return replace(
            self,
            a_label=self.b_label,
            b_label=self.a_label,
            control=tuple(c.mirrored() for c in self.control),
            sight=tuple(s.mirrored() for s in self.sight),
            threats=tuple(t.mirrored() for t in self.threats),
            only_in_a=self.only_in_b,
            only_in_b=self.only_in_a,
            hidden=tuple(h.mirrored() for h in self.hidden),
        )

    def unit_ids(self) -> tuple[str, ...]:
        """Every unit a difference is about, each once, sorted (what the boards highlight)."""
        ids = {m.unit for m in self.moved} | set(self.only_in_a) | set(self.only_in_b)
        ids |= {s.observer for s in self.sight} | {s.target for s in self.sight}
        ids |= {t.unit for t in self.threats} | {t.target for t in self.threats}
        return tuple(sorted(ids))

    def objective_ids(self) -> tuple[str, ...]:
        return tuple(c.objective for c in self.control)

    def to_json(self) -> dict[str, Any]:
        """The ``compare --json`` document."""
        return {
            "a": self.a_label,
            "b": self.b_label,
            "objectives": [c.to_json() for c in self.control],
            "visibility": [s.to_json() for s in self.sight],
            "threats": [t.to_json() for t in self.threats],
            "moved": [m.to_json() for m in self.moved],
            "only_in_a": list(self.only_in_a),
            "only_in_b": list(self.only_in_b),
            "hidden": [h.to_json() for h in self.hidden],
            "notes": list(self.notes),
        }

    def _controller(self, players: tuple[str, ...] | None, verdict: str) -> str:
        if players is None:
            return "no such objective"
        return verdict

    def sections(self) -> tuple[RulingSection, ...]:
        """One ruling section per kind of difference there is (none when the boards agree);
        each line names the units or objective it is about."""
        a, b = self.a_label, self.b_label
        sections: list[RulingSection] = []
        if self.control:
            lines = tuple(
                RulingLine(
                    f"{c.objective}: {self._controller(c.a, c.a_verdict)} in {a}, "
                    f"{self._controller(c.b, c.b_verdict)} in {b}",
                    objective_ids=(c.objective,),
                )
                for c in self.control
            )
            sections.append(
                RulingSection(
                    _count(len(lines), "objective changes", "objectives change") + " hands",
                    lines,
                    RuleRef(self.ruleset, "Objective control"),
                )
            )
        if self.sight:
            lines = tuple(
                RulingLine(
                    f"{s.observer} sees {s.target}: {s.a.words()} in {a}, {s.b.words()} in {b}",
                    unit_ids=(s.observer, s.target),
                )
                for s in self.sight
            )
            sections.append(
                RulingSection(
                    _count(len(lines), "pair of units sees", "pairs of units see") + " differently",
                    lines,
                    RuleRef(self.ruleset, SIGHT_SECTION),
                )
            )
        if self.threats:
            lines = tuple(
                RulingLine(
                    f"{t.unit} on {t.target}: {t.a.words()} in {a}; {t.b.words()} in {b}",
                    unit_ids=(t.unit, t.target),
                )
                for t in self.threats
            )
            sections.append(
                RulingSection(
                    _count(len(lines), "threat changes", "threats change"),
                    lines,
                    RuleRef(self.ruleset, MOVES_SECTION),
                )
            )
        if self.moved:
            lines = tuple(
                RulingLine(f"{m.unit} moved {inches(m.distance)}", unit_ids=(m.unit,))
                for m in self.moved
            )
            sections.append(RulingSection(_count(len(lines), "unit moved", "units moved"), lines))
        if self.hidden:
            names = dict(self.names)
            lines = tuple(
                RulingLine(
                    f"{names.get(h.player, h.player)}, {base_label(h.base)} "
                    f"{inches(h.height)} tall: {h.a.area:g} sq in hidden in {a}, "
                    f"{h.b.area:g} in {b}; {h.hidden_in_a_only} cells hidden in {a} only, "
                    f"{h.hidden_in_b_only} in {b} only"
                )
                for h in self.hidden
            )
            sections.append(
                RulingSection(
                    _count(
                        len(lines), "player's hidden area changes", "players' hidden areas change"
                    ),
                    lines,
                    RuleRef(self.ruleset, HIDDEN_SECTION),
                )
            )
        for label, ids in ((a, self.only_in_a), (b, self.only_in_b)):
            if ids:
                lines = tuple(RulingLine(i, unit_ids=(i,)) for i in ids)
                sections.append(
                    RulingSection(
                        _count(len(ids), "unit is", "units are") + f" on the battlefield of "
                        f"{label} only",
                        lines,
                    )
                )
        return tuple(sections)

    def text(self) -> str:
        """The differences as plain text (one line when there are none)."""
        if self.empty:
            return f"No differences between {self.a_label} and {self.b_label}"
        heading = f"Differences between {self.a_label} and {self.b_label}"
        text = sections_text(heading, self.sections())
        return "\n".join((text, *self.notes)) if self.notes else text


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _control(scenario: Scenario) -> dict[str, ObjectiveControl]:
    return {c.id: c for c in evaluate(scenario, visibility=False).objectives}


def _control_changes(a: Scenario, b: Scenario) -> tuple[ControlChange, ...]:
    in_a, in_b = _control(a), _control(b)
    names_a, names_b = player_names(a), player_names(b)
    changes = []
    for objective in sorted(set(in_a) | set(in_b)):
        ca, cb = in_a.get(objective), in_b.get(objective)
        side_a = None if ca is None else (tuple(sorted(ca.controlled_by)), ca.verdict)
        side_b = None if cb is None else (tuple(sorted(cb.controlled_by)), cb.verdict)
        if side_a == side_b:
            continue
        changes.append(
            ControlChange(
                objective,
                None if side_a is None else side_a[0],
                None if side_b is None else side_b[0],
                "" if ca is None else ca.verdict_text(names_a),
                "" if cb is None else cb.verdict_text(names_b),
            )
        )
    return tuple(changes)


def _units(scenario: Scenario) -> dict[str, Unit]:
    return {u.id: u for u in scenario.units}


def _changed_unit_ids(a: Scenario, b: Scenario) -> set[str]:
    units_a, units_b = _units(a), _units(b)
    changed = set(units_a) ^ set(units_b)
    return changed | {i for i in set(units_a) & set(units_b) if units_a[i] != units_b[i]}


def _sight_changes(a: Scenario, b: Scenario, shared: set[str]) -> tuple[SightChange, ...]:
    engine = VisibilityEngine(a)
    in_a = {(p.observer, p.target): SightAnswer.of(p) for p in engine.matrix()}
    engine.adopt(b, _changed_unit_ids(a, b))
    in_b = {(p.observer, p.target): SightAnswer.of(p) for p in engine.matrix()}
    return tuple(
        SightChange(observer, target, in_a[observer, target], in_b[observer, target])
        for observer, target in sorted(set(in_a) & set(in_b))
        if {observer, target} <= shared and in_a[observer, target] != in_b[observer, target]
    )


def _odds(scenario: Scenario, shared: set[str]) -> dict[tuple[str, str], ThreatOdds]:
    return {
        (unit_id, threat.target): ThreatOdds.of(threat)
        for unit_id in sorted(shared)
        for threat in unit_threats(scenario, unit_id).targets
        if threat.target in shared
    }


def _threat_changes(a: Scenario, b: Scenario, shared: set[str]) -> tuple[ThreatChange, ...]:
    in_a, in_b = _odds(a, shared), _odds(b, shared)
    return tuple(
        ThreatChange(unit, target, in_a[unit, target], in_b[unit, target])
        for unit, target in sorted(set(in_a) & set(in_b))
        if in_a[unit, target].odds != in_b[unit, target].odds
    )


def _moves(a: Scenario, b: Scenario, shared: set[str]) -> tuple[UnitMove, ...]:
    units_a, units_b = _units(a), _units(b)
    moves = []
    for unit_id in sorted(shared):
        models_b = {m.id: m for m in units_b[unit_id].models}
        pairs = [(m, models_b[m.id]) for m in units_a[unit_id].models if m.id in models_b]
        if all((m.x, m.y, m.z, m.rotation) == (n.x, n.y, n.z, n.rotation) for m, n in pairs):
            continue
        distance = max(math.hypot(n.x - m.x, n.y - m.y) for m, n in pairs)
        moves.append(UnitMove(unit_id, distance))
    return tuple(moves)


def _base_order(base: Base) -> tuple[float, str, tuple[float, ...]]:
    sizes = (base.diameter,) if isinstance(base, CircleBase) else (base.length, base.width)
    return base.bounding_radius, type(base).__name__, sizes


def common_base(boards: Sequence[Scenario], player: str) -> tuple[Base, float] | None:
    """The base most of ``player``'s models on the battlefield of ``boards`` stand on (all
    boards counted together), and the height most of those models have; ties go to the smaller
    base and the lower height. ``None`` when the player has no model on any board.

    >>> from engine.model import CircleBase, Model, Player, Scenario, Unit
    >>> models = (Model("a", 1, 1, CircleBase(32)), Model("b", 3, 1, CircleBase(32), height=2.0),
    ...           Model("c", 5, 1, CircleBase(32)), Model("d", 7, 1, CircleBase(60)))
    >>> s = Scenario("wh40k-ca2026", (Player("red"), Player("blue")),
    ...              units=(Unit("u", "red", models),))
    >>> common_base([s], "red"), common_base([s], "blue")
    ((CircleBase(diameter=32), 1.5), None)
    """
    models = [m for board in boards for u in board.units if u.player == player for m in u.models]
    if not models:
        return None
    bases = Counter(m.base for m in models)
    base = min(bases, key=lambda b: (-bases[b], _base_order(b)))
    heights = Counter(m.height for m in models if m.base == base)
    return base, min(heights, key=lambda h: (-heights[h], h))


def hidden_changes(a: Scenario, b: Scenario) -> tuple[tuple[HiddenChange, ...], tuple[str, ...]]:
    """Each player's hidden-placement map on both boards, where they differ (what
    :attr:`Comparison.hidden` holds), and notes for the players that have none (its
    :attr:`Comparison.notes`). The enemy's models are the observers when the enemy has a unit on
    either board, else every point of the enemy's deployment zone at the same height."""
    changes: list[HiddenChange] = []
    notes: list[str] = []
    for player in a.player_ids():
        common = common_base((a, b), player)
        if common is None:
            notes.append(f"{player}: no hidden area compared (no model on either board)")
            continue
        base, height = common
        enemy = a.opponent_of(player)
        deployed = any(u.player == enemy for board in (a, b) for u in board.units)
        observers: Observers = "models" if deployed else "zone"
        try:
            maps = [
                hidden_map(
                    board,
                    player=player,
                    base=base,
                    height=height,
                    step=HIDDEN_STEP,
                    observers=observers,
                )
                for board in (a, b)
            ]
        except WarplanError as refusal:
            notes.append(f"{player}: no hidden area compared ({refusal})")
            continue
        hidden_a, hidden_b = ({(x, y) for x, y, st in m.cells if st == "hidden"} for m in maps)
        counts_a, counts_b = HiddenCounts.of(maps[0]), HiddenCounts.of(maps[1])
        if hidden_a == hidden_b and counts_a == counts_b:
            continue
        changes.append(
            HiddenChange(
                player,
                base,
                height,
                HIDDEN_STEP,
                observers,
                counts_a,
                counts_b,
                len(hidden_b - hidden_a),
                len(hidden_a - hidden_b),
            )
        )
    return tuple(changes), tuple(notes)


def compare(
    a: Scenario, b: Scenario, a_label: str = "A", b_label: str = "B", *, hidden: bool = True
) -> Comparison:
    """The differences between boards ``a`` and ``b`` (see the module's docstring); the labels
    name them in the text. ``hidden=False`` leaves out the hidden areas (the slowest part)."""
    units_a, units_b = _units(a), _units(b)
    shared = set(units_a) & set(units_b)
    found_hidden, notes = hidden_changes(a, b) if hidden and a != b else ((), ())
    return Comparison(
        a_label,
        b_label,
        _control_changes(a, b),
        _sight_changes(a, b, shared),
        _threat_changes(a, b, shared),
        _moves(a, b, shared),
        tuple(sorted(set(units_a) - shared)),
        tuple(sorted(set(units_b) - shared)),
        found_hidden,
        notes,
        a.ruleset,
        tuple(player_names(a).items()),
    )
