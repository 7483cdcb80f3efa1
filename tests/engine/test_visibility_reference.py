"""The engine's line of sight against the independent brute-force reference (los_reference).

On random small scenes (walls, crates, elevated models, obscuring woods, round, oval and
rectangular bases):

* every "visible" witness is re-checked: endpoints on the bases at the right heights, and the
  1 mm line unblocked by the reference's own segment test;
* for every "not visible" unit pair, every model pair is searched by the reference on 0.05"
  grids over both bases: it must find no sight line with 0.05" clearance;
* every proven "not fully visible" model pair is checked the same way: the reference sees its
  hidden point from no point of the observer's base with 0.05" clearance;
* every "fully visible" verdict's certificate (observer points and the boundary pieces each
  one sees whole) is re-checked point by point, and covers every facing point.
"""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from engine import sight_kernel as kernel
from engine.model import (
    CircleBase,
    Model,
    OvalBase,
    Player,
    RectBase,
    Scenario,
    TerrainFeature,
    TerrainPiece,
    Unit,
)
from engine.sightlines import SEARCH_GROW
from engine.visibility import PairVisibility, SightScene, VisibilityEngine, visibility
from tests.engine import los_reference as ref


def _rotated_box(cx: float, cy: float, w: float, d: float, angle: float) -> tuple:
    c, s = math.cos(angle), math.sin(angle)
    return tuple(
        (round(cx + u * c - v * s, 4), round(cy + u * s + v * c, 4))
        for u, v in ((-w / 2, -d / 2), (w / 2, -d / 2), (w / 2, d / 2), (-w / 2, d / 2))
    )


def random_scene(seed: int) -> Scenario:
    rng = random.Random(seed)
    terrain = []
    for k in range(3):
        shape = _rotated_box(
            rng.uniform(5, 15),
            rng.uniform(3, 9),
            rng.uniform(1.5, 4),
            0.25,
            rng.uniform(0, math.pi),
        )
        top = rng.choice((1.0, 2.0, 3.0, 5.0))
        terrain.append(TerrainPiece(f"wall-{k}", shape, features=(TerrainFeature(shape, top),)))
    crate = _rotated_box(rng.uniform(6, 14), rng.uniform(3, 9), 1.2, 0.8, rng.uniform(0, math.pi))
    terrain.append(TerrainPiece("crate", crate, features=(TerrainFeature(crate, 1.0),)))
    wx, wy = rng.uniform(7, 13), rng.uniform(3, 9)
    woods = tuple(
        (round(wx + 1.6 * math.cos(a), 4), round(wy + 1.6 * math.sin(a), 4))
        for a in np.linspace(0, 2 * math.pi, 6, endpoint=False)
    )
    terrain.append(TerrainPiece("woods", woods, obscuring=True))
    bases = [CircleBase(25), CircleBase(32), OvalBase(60, 35), RectBase(50, 30)]
    units = []
    for player, (x_lo, x_hi) in (("red", (1.5, 6.5)), ("blue", (13.5, 18.5))):
        for u in range(2):
            base = rng.choice(bases)
            models = []
            for m in range(2):
                z = rng.choice((0.0, 0.0, 0.0, 1.0))
                models.append(
                    Model(
                        f"{player}{u}-m{m}",
                        round(rng.uniform(x_lo, x_hi), 3),
                        round(rng.uniform(1.5, 10.5), 3),
                        base,
                        z=z,
                        rotation=round(rng.uniform(0, 180), 1),
                        height=rng.choice((1.2, 1.6, 2.5)),
                    )
                )
            units.append(Unit(f"{player}-{u}", player, tuple(models), keywords=("INFANTRY",)))
    return Scenario(
        "wh40k-ca2026",
        (Player("red"), Player("blue")),
        units=tuple(units),
        terrain=tuple(terrain),
    )


def _on_base(model: Model, x: float, y: float) -> bool:
    shape = ref.model_shape(model)
    return bool(shape.contains(np.array([x]), np.array([y]), slack=1e-6)[0])


SEEDS = range(6)


@pytest.mark.parametrize("seed", SEEDS)
def test_witnesses_and_not_visible_against_the_reference(seed: int) -> None:
    s = random_scene(seed)
    results = visibility(s)
    assert len(results) == 8
    for p in results:
        if p.visible:
            assert ref.witness_confirmed(s, p), p.witness
        else:
            assert "not proven" not in p.explanation
            assert ref.clear_model_pair(s, p) is None


def _facing_covered(points: np.ndarray, fans: list[np.ndarray]) -> bool:
    if not len(points):
        return True
    samples = np.vstack(fans)
    d = np.hypot(points[:, None, 0] - samples[None, :, 0], points[:, None, 1] - samples[None, :, 1])
    return bool((d.min(axis=1) <= 0.03).all())


@pytest.mark.slow
@pytest.mark.parametrize("seed", SEEDS)
def test_fully_visible_verdicts_against_the_reference(seed: int) -> None:
    s = random_scene(seed)
    scene = SightScene(s)
    for red in (u for u in s.units if u.player == "red"):
        for blue in (u for u in s.units if u.player == "blue"):
            for observer, target in ((red, blue), (blue, red)):
                for obs in observer.models:
                    for tgt in target.models:
                        _check_model_pair(s, scene, observer, target, obs, tgt)


def piece_points(outline: np.ndarray, fan: np.ndarray, spacing: float) -> np.ndarray:
    """Points at most ``spacing`` apart along a fan's facing piece (a fan row is ``(x, y,
    is_edge, u0, u1, x0, y0, x1, y1)``; an arc's ``u`` is the eccentric angle of the true
    outline ``(kind, cx, cy, a, b, angle)``, an edge runs from ``(x0, y0)`` to ``(x1, y1)``)."""
    is_edge, u0, u1, x0, y0, x1, y1 = fan[2:]
    if is_edge:
        t = np.linspace(u0, u1, max(9, math.ceil(math.hypot(x1 - x0, y1 - y0) / spacing) + 1))
        return np.column_stack([x0 + t * (x1 - x0), y0 + t * (y1 - y0)])
    _, cx, cy, a, b, angle = outline
    u = np.linspace(u0, u1, max(9, math.ceil(max(a, b) * (u1 - u0) / spacing) + 1))
    c, s = math.cos(angle), math.sin(angle)
    x, y = a * np.cos(u), b * np.sin(u)
    return np.column_stack([cx + x * c - y * s, cy + x * s + y * c])


def _on_rim(model: Model, points: np.ndarray) -> bool:
    """Every point lies on the model's base outline (within a hair of it, not inside it)."""
    return bool(ref.model_shape(model).on_boundary(points[:, 0], points[:, 1]).all())


def _check_model_pair(
    s: Scenario, scene: SightScene, observer: Unit, target: Unit, obs: Model, tgt: Model
) -> None:
    i, j = scene.index[obs.id], scene.index[tgt.id]
    status, hx, hy, _, fans = kernel.model_fully_visible(scene.arrays, i, j, False, SEARCH_GROW)
    blockers = ref.blockers_for(s, observer.id, target.id)
    screens = ref.screens_for(s, tgt)
    h0, h1 = obs.z + obs.height, tgt.z
    if status != kernel.FULLY_SEEN:
        # A proven "hidden" point must be hidden for the reference too; an unproven one is the
        # test's conservative side (it may under-report fully visible), checked elsewhere.
        if status == kernel.FULLY_HIDDEN:
            hidden = np.array([[hx, hy]])
            assert _on_rim(tgt, hidden), (obs.id, tgt.id, hx, hy)
            starts = ref.model_shape(obs).grid()
            seen = ref.point_seen_with_clearance(starts, hidden[0], h0, h1, blockers + screens)
            assert not seen, (obs.id, tgt.id, hx, hy)
        return
    if not len(fans):
        # Nothing relevant anywhere near: the reference must agree the way is clear.
        assert ref.fully_visible_with_clearance(obs, tgt, blockers, screens)
        return
    outline = scene.arrays.model_outline[j]
    samples = []
    for fan in fans:
        assert _on_base(obs, fan[0], fan[1])
        points = piece_points(outline, fan, 0.01)
        assert _on_rim(tgt, points), (obs.id, tgt.id)
        samples.append(points)
        starts = np.repeat(fan[None, :2], len(points), axis=0)
        gaps = ref.segment_gaps(starts, points, h0, h1, blockers + screens, sides=1440)
        assert (gaps > ref.HALF_WIDTH - 1e-7).all(), (obs.id, tgt.id)
    facing = ref.facing_points(obs, tgt, spacing=0.02)
    # Points right at the ends of the facing side are grazing; leave 0.01" for sampling.
    assert _facing_covered(facing, samples)


def _verdicts(pairs: tuple[PairVisibility, ...]) -> list[tuple[str, str, bool, bool, bool]]:
    return [(p.observer, p.target, p.visible, p.fully_visible, p.cover) for p in pairs]


@pytest.mark.parametrize("seed", range(3))
def test_incremental_updates_match_fresh_computations(seed: int) -> None:
    # After a move the engine keeps proofs the move cannot break (a witness no moved base is
    # in the way of, a "not visible" resting on unmoved blockers), so a witness or the list of
    # what is in the way may be another valid one than a fresh search finds first: the
    # verdicts must be equal, and every witness confirmed by the reference.
    rng = random.Random(100 + seed)
    s = random_scene(seed)
    engine = VisibilityEngine(s)
    engine.matrix()
    kept_any = False
    for _ in range(6):
        unit = rng.choice(s.units)
        s = s.with_unit_moved(unit.id, rng.uniform(-2, 2), rng.uniform(-2, 2))
        engine.adopt(s, [unit.id])
        kept_any = kept_any or bool(engine._scene._unit_sight)
        updated = engine.matrix()
        assert _verdicts(updated) == _verdicts(visibility(s))
        for p in updated:
            if p.visible:
                assert ref.witness_confirmed(s, p), (p.observer, p.target, p.witness)
    assert kept_any


def test_the_reference_oval_distance_equals_its_edge_by_edge_measure() -> None:
    # The reference settles most segments near an oval without measuring every edge; the
    # answers must be those of the edge-by-edge measure (capped where the cap allows).
    rng = np.random.default_rng(2)
    oval = ref.RefShape("oval", 1.0, 2.0, 1.4, 0.7, 0.6)
    p0, p1 = rng.uniform(-1.5, 3.5, (4000, 2)), rng.uniform(-1.5, 3.5, (4000, 2))
    exact = ref._segments_polygon_distance(oval.polygon_points(), p0, p1)
    for cap in (math.inf, 0.05, 0.5):
        fast = oval.distance(p0, p1, cap=cap)
        assert np.allclose(np.minimum(fast, cap), np.minimum(exact, cap), atol=1e-12)
    assert (exact == 0).mean() > 0.2
    assert ((exact > 0) & (exact < 0.05)).any()
