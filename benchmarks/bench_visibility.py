"""The naive line-of-sight baseline the benchmark compares :mod:`engine.visibility` against.

:func:`naive_sampling_visibility` is what a first implementation usually does: 16 points on each
base's rim plus its centre, every segment between them tested against every blocker in Python
loops with scalar shapely calls. It misses sight lines that squeeze between the samples and can
call a model "fully visible" when a blocker hides the rim between two samples, which is why the
engine does not use it; it is kept as the speed baseline (``python -m engine bench``).

>>> from engine.model import CircleBase, Model, Player, Scenario, Unit
>>> red = Unit("red-a", "red", (Model("r1", 10.0, 10.0, CircleBase(32)),))
>>> blue = Unit("blue-a", "blue", (Model("b1", 20.0, 10.0, CircleBase(32)),))
>>> s = Scenario("wh40k-ca2026", (Player("red"), Player("blue")), units=(red, blue))
>>> [(p.visible, p.fully_visible, p.cover) for p in naive_sampling_visibility(s)]
[(True, True, False), (True, True, False)]
"""

from __future__ import annotations

import math
from collections.abc import Collection

import shapely
from shapely.geometry import LineString
from shapely.prepared import prep

from engine.model import MM_PER_INCH, CircleBase, Model, OvalBase, Scenario
from engine.visibility import COVER_KEYWORDS, NIGHT_FIGHTING_RANGE, PairVisibility

RIM_SAMPLES = 16
_HALF_LINE = 0.5 / MM_PER_INCH


def _rim(model: Model) -> list[tuple[float, float, float, float]]:
    """Rim points with their outward normals ``(x, y, nx, ny)``, 16 per base."""
    angle = math.radians(model.rotation)
    c, s = math.cos(angle), math.sin(angle)
    out = []
    for k in range(RIM_SAMPLES):
        t = 2 * math.pi * k / RIM_SAMPLES
        if isinstance(model.base, CircleBase):
            a = b = model.base.radius
            u, v, nu, nv = a * math.cos(t), b * math.sin(t), math.cos(t), math.sin(t)
        elif isinstance(model.base, OvalBase):
            a, b = model.base.semi_axes
            u, v, nu, nv = a * math.cos(t), b * math.sin(t), b * math.cos(t), a * math.sin(t)
        else:
            a, b = model.base.half_extents
            # Walk the rectangle's perimeter evenly.
            perimeter = 4 * (a + b)
            d = perimeter * k / RIM_SAMPLES
            if d < 2 * a:
                u, v, nu, nv = -a + d, -b, 0.0, -1.0
            elif d < 2 * a + 2 * b:
                u, v, nu, nv = a, -b + (d - 2 * a), 1.0, 0.0
            elif d < 4 * a + 2 * b:
                u, v, nu, nv = a - (d - 2 * a - 2 * b), b, 0.0, 1.0
            else:
                u, v, nu, nv = -a, b - (d - 4 * a - 2 * b), -1.0, 0.0
        norm = math.hypot(nu, nv)
        out.append(
            (
                model.x + u * c - v * s,
                model.y + u * s + v * c,
                (nu * c - nv * s) / norm,
                (nu * s + nv * c) / norm,
            )
        )
    return out


def _footprint(model: Model) -> shapely.Geometry:
    return shapely.Polygon([(x, y) for x, y, _, _ in _rim(model)]).buffer(_HALF_LINE)


def _low(h0: float, h1: float, top: float) -> tuple[float, float] | None:
    if math.isinf(top):
        return 0.0, 1.0
    if abs(h1 - h0) <= 1e-6:
        return (0.0, 1.0) if top >= h0 - 1e-6 else None
    if top <= min(h0, h1) + 1e-6:
        return None
    if top >= max(h0, h1):
        return 0.0, 1.0
    f = (top - h0) / (h1 - h0)
    return (f, 1.0) if h1 < h0 else (0.0, f)


def _free(
    start: tuple[float, float],
    end: tuple[float, float],
    h0: float,
    h1: float,
    blockers: list[tuple[object, float]],
) -> bool:
    for shape, top in blockers:
        part = _low(h0, h1, top)
        if part is None:
            continue
        f0, f1 = part
        a = (start[0] + f0 * (end[0] - start[0]), start[1] + f0 * (end[1] - start[1]))
        b = (start[0] + f1 * (end[0] - start[0]), start[1] + f1 * (end[1] - start[1]))
        if shape.intersects(LineString([a, b])):  # type: ignore[attr-defined]
            return False
    return True


def naive_sampling_visibility(
    scenario: Scenario, observers: Collection[str] | None = None
) -> tuple[PairVisibility, ...]:
    """Visibility by sampling (the benchmark's baseline; not exact, see the module notes).

    ``observers`` limits the rows (observing unit ids), as :func:`engine.visibility.visibility`.
    """
    twist = (scenario.game or {}).get("twist")
    terrain: list[tuple[object, float]] = []
    if twist != "nowhere-to-hide":
        terrain = [
            (prep(shapely.Polygon(f.shape).buffer(_HALF_LINE)), f.top)
            for piece in scenario.terrain
            for f in piece.features
            if f.solid
        ]
    footprints = {m.id: _footprint(m) for _, m in scenario.all_models()}
    samples = {
        m.id: [(m.x, m.y)] + [(x, y) for x, y, _, _ in _rim(m)] for _, m in scenario.all_models()
    }
    areas = [(piece, shapely.Polygon(piece.area)) for piece in scenario.terrain]
    within = {
        m.id: {p.id for p, area in areas if area.intersects(footprints[m.id])}
        for _, m in scenario.all_models()
    }
    screens = [(piece.id, prep(area)) for piece, area in areas if piece.obscuring]
    results = []
    units = sorted(scenario.units, key=lambda u: u.id)
    for observer in units:
        if observers is not None and observer.id not in observers:
            continue
        for target in units:
            if target.player == observer.player:
                continue
            others = [
                (prep(footprints[m.id]), m.z + m.height)
                for u in scenario.units
                if u.id not in (observer.id, target.id)
                for m in u.models
            ]

            def sees(obs: Model, tgt: Model, blockers: list[tuple[object, float]]) -> bool:
                h0, h1 = obs.z + obs.height, tgt.z + tgt.height
                return any(
                    _free(a, b, h0, h1, blockers) for a in samples[obs.id] for b in samples[tgt.id]
                )

            def fully(obs: Model, tgt: Model, blockers: list[tuple[object, float]]) -> bool:
                h0, h1 = obs.z + obs.height, tgt.z
                lines = blockers + [
                    (shape, math.inf)
                    for piece_id, shape in screens
                    if piece_id not in within[tgt.id]
                ]
                for x, y, nx, ny in _rim(tgt):
                    if (obs.x - x) * nx + (obs.y - y) * ny < 0:
                        continue
                    if not any(_free(a, (x, y), h0, h1, lines) for a in samples[obs.id]):
                        return False
                return True

            eligible = [
                m
                for m in observer.models
                if twist != "night-fighting"
                or any(
                    footprints[m.id].distance(footprints[t.id])
                    <= NIGHT_FIGHTING_RANGE + 2 * _HALF_LINE
                    for t in target.models
                )
            ]
            blockers = terrain + others
            visible = any(sees(m, t, blockers) for m in eligible for t in target.models)
            fully_visible = visible and all(
                any(fully(m, t, blockers) for m in eligible) for t in target.models
            )
            cover = False
            if visible and scenario.ruleset == "wh40k-ca2026":
                cover = True
                for m in eligible:
                    if not any(sees(m, t, blockers) for t in target.models):
                        continue
                    exposed = [
                        t
                        for t in target.models
                        if not (target.model_keywords(t) & COVER_KEYWORDS and within[t.id])
                    ]
                    if any(fully(m, t, terrain) for t in exposed):
                        cover = False
                        break
            results.append(
                PairVisibility(
                    observer.id,
                    target.id,
                    visible,
                    fully_visible,
                    cover,
                    explanation="naive 16-point sampling (baseline)",
                )
            )
    return tuple(results)
