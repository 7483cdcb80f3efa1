"""Line of sight in 2.5-D: visible, fully visible and benefit of cover, per ordered unit pair.

The rules are the spec's "Line of sight (2.5-D)" (``docs/scenario-format.md``): a sight line
joins a point of the observer's base at its top (``z + height``) to a point of the target's
base, at its top for *visible* and at its foot ``z`` for *fully visible*; it is 1 mm wide and is
blocked where it crosses (in plan) a solid terrain feature or another model's base while its own
height there is at or below that blocker's top. The geometry lives in :mod:`engine.sightlines`.

Every conclusion can be checked: a *visible* pair carries its sight line (:class:`SightLine`),
and a *not visible* pair names what is in the way. "Not visible" is exact up to a clearance of
0.05" (a line that only squeezes through a narrower gap may be missed; see
``sightlines.MIN_CELL``), unless a model pair's search budget runs out
(``sightlines.MAX_CELL_PAIRS``), which its explanation then says ("not proven"). The same
holds for "not fully visible"; a "fully visible" is proven (observer points each seeing a whole
piece of the facing side).

Choices where the rules are silent (also listed in :data:`RULE_NOTES`):

* **Facing points.** A point of the target's base boundary *faces* the observer when some point
  of the observer's base sees it in plan with only the target's own base in the way. The sight
  lines that see a facing point may pass over the target's own base (the target never blocks
  itself).
* **End points.** A line that meets a blocker's top only at its own lower end point is not
  blocked (a model standing on a crate can be seen down to its foot); a level line exactly at a
  blocker's top is blocked (the spec: "at or below").
* **Night Fighting.** An observing model more than 18" (closest points of bases) from every
  model of the target unit sees none of it; within 18" of one model, it may see them all.
* **Nowhere to Hide** makes features not solid; obscuring areas still stop *fully visible*.
* **Obscuring areas** do not block *visible*; they stop *fully visible* (and so give cover) when
  a line crosses an obscuring area the target is not within, even one the observer stands in.
* **Cover** is ``false`` for a pair whose target is not visible (no observing model sees it), and
  under rulesets other than ``wh40k-ca2026`` (their cover rules are not line-of-sight rules).
* **Unit fully visible** follows the spec: every target model is fully visible to at least one
  observing model (the core rule judges per observing model).

>>> from engine.model import CircleBase, Model, Player, Scenario, Unit
>>> red = Unit("red-a", "red", (Model("r1", 10.0, 10.0, CircleBase(32)),))
>>> blue = Unit("blue-a", "blue", (Model("b1", 20.0, 10.0, CircleBase(32)),))
>>> s = Scenario("wh40k-ca2026", (Player("red"), Player("blue")), units=(red, blue))
>>> [p.to_json() for p in visibility(s, observers=["red-a"])]
[{'observer': 'red-a', 'target': 'blue-a', 'visible': True, 'fully_visible': True, 'cover': False}]
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import shapely

from engine.errors import UnknownReferenceError
from engine.model import Model, Scenario, TerrainPiece, Unit
from engine.rulesets import ruleset_for
from engine.sightlines import (
    HALF_LINE_WIDTH,
    Blocker,
    FullSearch,
    LineSearch,
    Outline,
    base_outline,
    check_fully_visible,
    find_sight_line,
    model_blocker,
    polygon_blocker,
    prove_no_sight_line,
    quick_sight_line,
)

TOLERANCE = 1e-6
"""Inches: "within" is inclusive with this tolerance (the project-wide convention)."""

NIGHT_FIGHTING_RANGE = 18.0
COVER_KEYWORDS = frozenset({"INFANTRY", "BEASTS", "SWARM"})

RULE_NOTES: tuple[str, ...] = (
    "facing: a point of the target's base boundary faces the observer when some point of the "
    "observer's base sees it in plan with only the target's own base in the way",
    "end points: a line meeting a blocker's top only at its own lower end is not blocked; a "
    "level line exactly at a blocker's top is blocked",
    'night-fighting: an observing model more than 18" from every model of the target unit sees '
    "none of it",
    "nowhere-to-hide: features are not solid; obscuring areas still prevent 'fully visible'",
    "obscuring: an obscuring area the target is not within stops 'fully visible' (even one the "
    "observer is within); it never blocks 'visible'",
    "cover: false when the target is not visible, and outside wh40k-ca2026",
    "unit fully visible: every target model fully visible to at least one observing model (spec)",
    "ovals and rectangles: ovals are measured with 64-gon inner/outer bounds, so 'within a "
    'terrain area\' and the 18" range are exact to about 0.002" for ovals',
)


# ---------------------------------------------------------------------------------------------
# Results


@dataclass(frozen=True)
class SightLine:
    """An unblocked sight line: ``start`` on the observing model's base at its top, ``end`` on
    the target model's base (``x, y, z`` inches)."""

    observer_model: str
    target_model: str
    start: tuple[float, float, float]
    end: tuple[float, float, float]

    def to_json(self) -> dict[str, Any]:
        return {
            "observer_model": self.observer_model,
            "target_model": self.target_model,
            "start": list(self.start),
            "end": list(self.end),
        }


@dataclass(frozen=True)
class PairVisibility:
    """What one observing unit can see of one target unit, and why.

    ``blockers`` are the terrain piece ids and unit ids found in the way (sorted).
    """

    observer: str
    target: str
    visible: bool
    fully_visible: bool
    cover: bool
    witness: SightLine | None = None
    blockers: tuple[str, ...] = ()
    explanation: str = ""

    def to_json(self, *, extra: bool = False) -> dict[str, Any]:
        """The contract keys; with ``extra``, also the witness, blockers and explanation."""
        data: dict[str, Any] = {
            "observer": self.observer,
            "target": self.target,
            "visible": self.visible,
            "fully_visible": self.fully_visible,
            "cover": self.cover,
        }
        if extra:
            data["witness"] = None if self.witness is None else self.witness.to_json()
            data["blockers"] = list(self.blockers)
            data["explanation"] = self.explanation
        return data


# ---------------------------------------------------------------------------------------------
# The scene: a scenario's geometry, built once


def _outline_key(model: Model) -> tuple[object, ...]:
    return (model.base, model.x, model.y, model.rotation)


def _twist(scenario: Scenario) -> str | None:
    if scenario.game is None:
        return None
    twist = scenario.game.get("twist")
    return twist if isinstance(twist, str) else None


@dataclass
class _TerrainGeometry:
    blockers: list[Blocker]
    screens: list[tuple[TerrainPiece, Blocker]]
    areas: list[tuple[TerrainPiece, shapely.Geometry]]


def _terrain_geometry(terrain: Sequence[TerrainPiece], solid: bool) -> _TerrainGeometry:
    blockers = []
    if solid:
        for piece in terrain:
            for index, feature in enumerate(piece.features):
                if feature.solid:
                    blockers.append(
                        polygon_blocker(
                            piece.id, feature.shape, feature.top, f"{piece.id} feature {index}"
                        )
                    )
    screens = [
        (piece, polygon_blocker(piece.id, piece.area, math.inf, f"{piece.id} (obscuring)"))
        for piece in terrain
        if piece.obscuring
    ]
    areas = [(piece, shapely.Polygon(piece.area)) for piece in terrain]
    return _TerrainGeometry(blockers, screens, areas)


class _Scene:
    """Geometry of one scenario plus caches of model-pair answers."""

    def __init__(
        self,
        scenario: Scenario,
        outlines: dict[tuple[object, ...], tuple[Outline, Outline]] | None = None,
        terrain: _TerrainGeometry | None = None,
    ) -> None:
        self.scenario = scenario
        twist = _twist(scenario)
        self.night_fighting = twist == "night-fighting"
        self.cover_rules = ruleset_for(scenario).cover_applies
        self.terrain = terrain or _terrain_geometry(scenario.terrain, twist != "nowhere-to-hide")
        known = outlines or {}
        self.outline_cache: dict[tuple[object, ...], tuple[Outline, Outline]] = {}
        self.footprint: dict[str, Outline] = {}
        self.unit_of: dict[str, Unit] = {}
        model_blockers: list[Blocker] = []
        for unit, model in scenario.all_models():
            key = _outline_key(model)
            pair = known.get(key)
            if pair is None:
                pair = (
                    base_outline(model.base, model.x, model.y, model.rotation),
                    base_outline(model.base, model.x, model.y, model.rotation, HALF_LINE_WIDTH),
                )
            self.outline_cache[key] = pair
            self.footprint[model.id] = pair[0]
            self.unit_of[model.id] = unit
            model_blockers.append(model_blocker(unit.id, model.id, pair[1], model.z + model.height))
        self.model_blockers = model_blockers
        self.model_tree = shapely.STRtree([b.outer for b in model_blockers])
        self.terrain_tree = shapely.STRtree([b.outer for b in self.terrain.blockers])
        self._within: dict[str, frozenset[str]] = {}
        self._visible: dict[tuple[str, str], LineSearch] = {}
        self._full: dict[tuple[str, str, bool], FullSearch] = {}
        self._in_range: dict[tuple[str, str], bool] = {}

    # Lookups

    def model(self, model_id: str) -> Model:
        return self.scenario.model(model_id)

    def within_areas(self, model_id: str) -> frozenset[str]:
        """Ids of the terrain areas this model's base overlaps (touching counts)."""
        cached = self._within.get(model_id)
        if cached is None:
            outline = self.footprint[model_id]
            found = set()
            for piece, area in self.terrain.areas:
                if outline.kind == "circle":
                    gap = shapely.distance(shapely.Point(outline.cx, outline.cy), area) - outline.a
                else:
                    gap = shapely.distance(outline.inner, area)
                if gap <= TOLERANCE:
                    found.add(piece.id)
            cached = frozenset(found)
            self._within[model_id] = cached
        return cached

    def _blockers_near(
        self, region: shapely.Geometry, exclude_units: tuple[str, str], models: bool
    ) -> list[Blocker]:
        found = [self.terrain.blockers[i] for i in self.terrain_tree.query(region)]
        if models:
            found.extend(
                self.model_blockers[i]
                for i in self.model_tree.query(region)
                if self.model_blockers[i].label not in exclude_units
            )
        return found

    def _corridor(self, first: Outline, second: Outline) -> shapely.Geometry:
        return shapely.convex_hull(shapely.union(first.outer, second.outer))

    # Model pairs

    def sight_line(self, observer_id: str, target_id: str) -> SightLine | None:
        """An unblocked top-to-top sight line, or ``None`` (symmetric, so cached both ways)."""
        search = self.line_search(observer_id, target_id)
        if search.segment is None:
            return None
        flipped = observer_id > target_id
        (sx, sy), (ex, ey) = search.segment
        if flipped:
            (sx, sy), (ex, ey) = (ex, ey), (sx, sy)
        obs, tgt = self.model(observer_id), self.model(target_id)
        return SightLine(
            observer_id,
            target_id,
            (sx, sy, obs.z + obs.height),
            (ex, ey, tgt.z + tgt.height),
        )

    def quick_line(self, observer_id: str, target_id: str) -> SightLine | None:
        """A sight line found by the cheap first try, or ``None`` (then ask :meth:`sight_line`)."""
        first, second = sorted((observer_id, target_id))
        cached = self._visible.get((first, second))
        if cached is not None:
            return self.sight_line(observer_id, target_id)
        a, b = self.model(first), self.model(second)
        oa, ob = self.footprint[first], self.footprint[second]
        units = (self.unit_of[first].id, self.unit_of[second].id)
        corridor = self._corridor(oa, ob)
        blockers = self._blockers_near(corridor, units, models=True)
        found = quick_sight_line(oa, a.z + a.height, ob, b.z + b.height, blockers)
        if found is None:
            return None
        self._visible[(first, second)] = LineSearch(found)
        return self.sight_line(observer_id, target_id)

    def line_search(self, observer_id: str, target_id: str) -> LineSearch:
        first, second = sorted((observer_id, target_id))
        key = (first, second)
        cached = self._visible.get(key)
        if cached is None:
            a, b = self.model(first), self.model(second)
            oa, ob = self.footprint[first], self.footprint[second]
            units = (self.unit_of[first].id, self.unit_of[second].id)
            blockers = self._blockers_near(self._corridor(oa, ob), units, models=True)
            cached = find_sight_line(oa, a.z + a.height, ob, b.z + b.height, blockers)
            self._visible[key] = cached
        return cached

    def full_search(self, observer_id: str, target_id: str, terrain_only: bool) -> FullSearch:
        key = (observer_id, target_id, terrain_only)
        cached = self._full.get(key)
        if cached is None:
            if not terrain_only and self._full.get((observer_id, target_id, True)) is not None:
                # Models can only add blockers: not fully visible with terrain alone settles it.
                alone = self._full[(observer_id, target_id, True)]
                if not alone.fully_visible:
                    self._full[key] = alone
                    return alone
            obs, tgt = self.model(observer_id), self.model(target_id)
            oo, ot = self.footprint[observer_id], self.footprint[target_id]
            units = (self.unit_of[observer_id].id, self.unit_of[target_id].id)
            corridor = self._corridor(oo, ot)
            blockers = self._blockers_near(corridor, units, models=not terrain_only)
            inside = self.within_areas(target_id)
            screens = [
                screen
                for piece, screen in self.terrain.screens
                if piece.id not in inside and screen.outer.intersects(corridor)
            ]
            cached = check_fully_visible(oo, obs.z + obs.height, ot, tgt.z, blockers, screens)
            self._full[key] = cached
            if terrain_only and cached.fully_visible is False:
                self._full.setdefault((observer_id, target_id, False), cached)
        return cached

    def in_range(self, observer_id: str, target_unit: Unit) -> bool:
        """Night Fighting: is the observing model within 18" of some model of the unit?"""
        if not self.night_fighting:
            return True
        key = (observer_id, target_unit.id)
        cached = self._in_range.get(key)
        if cached is None:
            outline = self.footprint[observer_id]
            cached = any(
                outline.distance_to(self.footprint[m.id]) <= NIGHT_FIGHTING_RANGE + TOLERANCE
                for m in target_unit.models
            )
            self._in_range[key] = cached
        return cached

    def takes_cover_in_terrain(self, unit: Unit, model: Model) -> bool:
        return bool(unit.model_keywords(model) & COVER_KEYWORDS) and bool(
            self.within_areas(model.id)
        )

    # Unit pairs

    def pair(self, observer: Unit, target: Unit) -> PairVisibility:
        eligible = [m for m in observer.models if self.in_range(m.id, target)]
        if not eligible:
            reason = (
                f'Night Fighting: no model of {observer.id} is within 18" of {target.id}'
                if observer.models and target.models
                else "one of the units has no models"
            )
            return PairVisibility(observer.id, target.id, False, False, False, None, (), reason)
        witness = next(
            (
                line
                for obs in eligible
                for tgt in target.models
                if (line := self.quick_line(obs.id, tgt.id)) is not None
            ),
            None,
        )
        if witness is None:
            proof = self._unit_proof(eligible, target)
            if proof is not None:
                names = ", ".join(sorted(proof)) or "nothing"
                text = (
                    f"{target.id} is not visible to {observer.id}: the blockers wall off every "
                    f"sight line between the two units; in the way: {names}"
                )
                return PairVisibility(
                    observer.id, target.id, False, False, False, None, tuple(sorted(proof)), text
                )
        in_the_way: set[str] = set()
        unproven = gave_up = False
        for obs in eligible if witness is None else ():
            for tgt in target.models:
                line = self.sight_line(obs.id, tgt.id)
                if line is not None:
                    witness = line
                    break
                search = self.line_search(obs.id, tgt.id)
                in_the_way |= search.blockers
                unproven |= not search.proven
                gave_up |= search.gave_up
            if witness is not None:
                break
        if witness is None:
            limit = ""
            if gave_up:
                limit = " (not proven: the search budget ran out)"
            elif unproven:
                limit = ' (no line with 0.05" clearance either)'
            names = ", ".join(sorted(in_the_way)) or "nothing"
            text = (
                f"{target.id} is not visible to {observer.id}: every sight line is blocked"
                f"{limit}; in the way: {names}"
            )
            return PairVisibility(
                observer.id, target.id, False, False, False, None, tuple(sorted(in_the_way)), text
            )
        seen = _describe_line(witness)
        fully, full_text, full_blockers = self._unit_fully_visible(eligible, target)
        cover, cover_text = self._cover(eligible, target)
        explanation = f"{seen}. {full_text}. {cover_text}."
        return PairVisibility(
            observer.id,
            target.id,
            True,
            fully,
            cover,
            witness,
            tuple(sorted(full_blockers)),
            explanation,
        )

    def _unit_proof(self, eligible: Sequence[Model], target: Unit) -> frozenset[str] | None:
        """A proof that no eligible observing model sees any model of the target unit, made
        once for the hulls of the two groups of bases (when each group shares one top height)."""
        tops_o = {round(m.z + m.height, 9) for m in eligible}
        tops_t = {round(m.z + m.height, 9) for m in target.models}
        if len(tops_o) != 1 or len(tops_t) != 1:
            return None
        area_o = _hull_of([self.footprint[m.id] for m in eligible])
        area_t = _hull_of([self.footprint[m.id] for m in target.models])
        units = (self.unit_of[eligible[0].id].id, target.id)
        blockers = self._blockers_near(shapely.convex_hull(area_o.union(area_t)), units, True)
        return prove_no_sight_line(area_o, tops_o.pop(), area_t, tops_t.pop(), blockers)

    def _unit_fully_visible(
        self, eligible: Sequence[Model], target: Unit
    ) -> tuple[bool, str, set[str]]:
        for tgt in target.models:
            reasons = []
            blockers: set[str] = set()
            for obs in eligible:
                search = self.full_search(obs.id, tgt.id, terrain_only=False)
                if search.fully_visible:
                    break
                blockers |= search.blockers
                reasons.append((obs.id, search))
            else:
                obs_id, search = reasons[0]
                assert search.hidden is not None
                x, y = search.hidden
                how = "hidden" if search.proven else 'not seen by any line with 0.05" clearance'
                if search.gave_up:
                    how = "not seen (not proven: the search budget ran out)"
                names = ", ".join(sorted(search.blockers)) or "nothing"
                text = (
                    f"not fully visible: {tgt.id}'s facing point ({x:.3f}, {y:.3f}) is {how} "
                    f"from {obs_id} (in the way: {names})"
                )
                return False, text, blockers
        return True, f"fully visible: every model of {target.id} is fully visible", set()

    def _cover(self, eligible: Sequence[Model], target: Unit) -> tuple[bool, str]:
        if not self.cover_rules:
            return False, f"no benefit of cover under {self.scenario.ruleset}"
        sheltered = [m for m in target.models if self.takes_cover_in_terrain(target, m)]
        exposed = [m for m in target.models if not self.takes_cover_in_terrain(target, m)]
        if not exposed:
            return True, (
                f"cover: every model of {target.id} is INFANTRY/BEASTS/SWARM within a terrain area"
            )
        for obs in eligible:
            for tgt in exposed:
                if not self.full_search(obs.id, tgt.id, terrain_only=True).fully_visible:
                    continue
                if any(self.sight_line(obs.id, m.id) is not None for m in target.models):
                    return False, (
                        f"no cover against {obs.id}: it sees {tgt.id} fully with terrain alone"
                    )
                break
        parts = []
        if sheltered:
            parts.append(f"{', '.join(m.id for m in sheltered)} within terrain areas")
        parts.append(f"{', '.join(m.id for m in exposed)} not fully visible because of terrain")
        return True, "cover against every observing model that sees it: " + "; ".join(parts)


def _hull_of(outlines: Sequence[Outline]) -> shapely.Geometry:
    points = np.vstack([np.asarray(o.outer.exterior.coords) for o in outlines])
    return shapely.convex_hull(shapely.multipoints(points))


def _describe_line(line: SightLine) -> str:
    sx, sy, sz = line.start
    ex, ey, ez = line.end
    return (
        f"{line.observer_model} sees {line.target_model} along "
        f"({sx:.3f}, {sy:.3f}, {sz:.2f}) -> ({ex:.3f}, {ey:.3f}, {ez:.2f})"
    )


# ---------------------------------------------------------------------------------------------
# Public API


def _ordered_pairs(scenario: Scenario, observers: Iterable[str] | None) -> list[tuple[Unit, Unit]]:
    wanted = None if observers is None else set(observers)
    if wanted is not None:
        known = {u.id for u in scenario.units}
        unknown = sorted(wanted - known)
        if unknown:
            raise UnknownReferenceError(f"no unit with id {', '.join(unknown)}")
    units = sorted(scenario.units, key=lambda u: u.id)
    return [
        (obs, tgt)
        for obs in units
        if wanted is None or obs.id in wanted
        for tgt in units
        if tgt.player != obs.player
    ]


def visibility(
    scenario: Scenario, observers: Iterable[str] | None = None
) -> tuple[PairVisibility, ...]:
    """Visibility for every ordered pair of units of opposing players, sorted by observer then
    target; ``observers`` restricts the observing units.

    >>> from engine.model import CircleBase, Model, Player, Scenario, TerrainFeature
    >>> from engine.model import TerrainPiece, Unit
    >>> wall = TerrainFeature(((14.0, 0.0), (15.0, 0.0), (15.0, 20.0), (14.0, 20.0)), 5.0)
    >>> ruin = TerrainPiece("ruin", ((14.0, 0.0), (15.0, 0.0), (15.0, 20.0), (14.0, 20.0)),
    ...                     features=(wall,))
    >>> red = Unit("red", "red", (Model("r1", 10.0, 10.0, CircleBase(32)),))
    >>> blue = Unit("blue", "blue", (Model("b1", 20.0, 10.0, CircleBase(32)),))
    >>> s = Scenario("wh40k-ca2026", (Player("red"), Player("blue")), units=(red, blue),
    ...              terrain=(ruin,))
    >>> pair = visibility(s)[0]
    >>> pair.visible, pair.blockers
    (False, ('ruin',))
    """
    return VisibilityEngine(scenario).matrix(observers)


@dataclass
class VisibilityEngine:
    """Visibility for one scenario, kept up to date as units move.

    :meth:`update` recomputes only the unit pairs a move can change: pairs involving a moved
    unit, and pairs whose sight corridor (the hull of both units' bases) the moved units' old
    or new bases touch, since a model can block or unblock other units' sight lines.
    """

    scenario: Scenario
    _scene: _Scene = field(init=False, repr=False)
    _results: dict[tuple[str, str], PairVisibility] = field(init=False, repr=False)
    _corridors: dict[tuple[str, str], shapely.Geometry] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._scene = _Scene(self.scenario)
        self._results = {}
        self._corridors = {}

    def matrix(self, observers: Iterable[str] | None = None) -> tuple[PairVisibility, ...]:
        """Every ordered pair of opposing units (optionally only these observers)."""
        out = []
        for obs, tgt in _ordered_pairs(self.scenario, observers):
            key = (obs.id, tgt.id)
            result = self._results.get(key)
            if result is None:
                result = self._scene.pair(obs, tgt)
                self._results[key] = result
            out.append(result)
        return tuple(out)

    def update(
        self, new_scenario: Scenario, moved_unit_ids: Iterable[str]
    ) -> tuple[PairVisibility, ...]:
        """Adopt ``new_scenario`` (the old one with ``moved_unit_ids`` moved) and return the
        whole matrix, recomputing only the pairs the move can affect. Any other difference
        (terrain, twist, ruleset, units added or changed) is detected and handled too."""
        old = self.scenario
        old_scene = self._scene
        same_setting = (
            old.terrain == new_scenario.terrain
            and _twist(old) == _twist(new_scenario)
            and ruleset_for(old) is ruleset_for(new_scenario)
            and old.players == new_scenario.players
        )
        old_units = {u.id: u for u in old.units}
        new_units = {u.id: u for u in new_scenario.units}
        changed = set(moved_unit_ids) | (set(old_units) ^ set(new_units))
        changed |= {
            uid for uid, unit in new_units.items() if uid in old_units and old_units[uid] != unit
        }
        self.scenario = new_scenario
        if not same_setting:
            self.__post_init__()
            return self.matrix()
        self._scene = _Scene(
            new_scenario, outlines=old_scene.outline_cache, terrain=old_scene.terrain
        )
        moved_shapes = [
            b.outer
            for scene in (old_scene, self._scene)
            for b in scene.model_blockers
            if b.label in changed
        ]
        moved_region = shapely.union_all(moved_shapes) if moved_shapes else None
        kept: dict[tuple[str, str], PairVisibility] = {}
        for key, result in self._results.items():
            if key[0] in changed or key[1] in changed:
                continue
            if key[0] not in new_units or key[1] not in new_units:
                continue
            if moved_region is not None and self._corridor(key).intersects(moved_region):
                continue
            kept[key] = result
        self._corridors = {
            k: v for k, v in self._corridors.items() if k[0] not in changed and k[1] not in changed
        }
        self._results = kept
        return self.matrix()

    def _corridor(self, key: tuple[str, str]) -> shapely.Geometry:
        """The hull of both units' bases: every sight line between them lies inside it."""
        ordered = (min(key), max(key))
        corridor = self._corridors.get(ordered)
        if corridor is None:
            scene = self._scene
            points = np.vstack(
                [
                    np.asarray(scene.footprint[m.id].outer.exterior.coords)
                    for uid in ordered
                    for m in self.scenario.unit(uid).models
                ]
            )
            corridor = shapely.convex_hull(shapely.multipoints(points))
            self._corridors[ordered] = corridor
        return corridor
