"""The engine's line of sight against the independent brute-force reference (los_reference).

On random small scenes (walls, crates, elevated models, obscuring woods, round, oval and
rectangular bases):

* every "visible" witness is re-checked: endpoints on the bases at the right heights, and the
  1 mm line unblocked by the reference's own segment test;
* for every "not visible" unit pair, one model pair (chosen by the seed) is searched by the
  reference on 0.05" grids over both bases: it must find no sight line with 0.05" clearance;
* every "not fully visible" verdict is checked the same way on densely sampled facing points;
* every "fully visible" verdict's certificate (observer points and the boundary pieces each
  one sees whole) is re-checked point by point, and covers every facing point.
"""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

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
from engine.visibility import _Scene, visibility
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
        observer, target = s.unit(p.observer), s.unit(p.target)
        blockers = ref.blockers_for(s, observer.id, target.id)
        if p.visible:
            w = p.witness
            assert w is not None
            obs, tgt = s.model(w.observer_model), s.model(w.target_model)
            assert s.unit_of_model(obs.id) is observer
            assert s.unit_of_model(tgt.id) is target
            assert _on_base(obs, w.start[0], w.start[1])
            assert _on_base(tgt, w.end[0], w.end[1])
            assert w.start[2] == pytest.approx(obs.z + obs.height)
            assert w.end[2] == pytest.approx(tgt.z + tgt.height)
            sight = blockers + ref.screens_for(s, tgt, obs)
            assert ref.segment_is_free(w.start[:2], w.end[:2], w.start[2], w.end[2], sight)
        else:
            assert "not proven" not in p.explanation
            # One model pair per hidden unit pair, chosen by the seed, keeps the brute force
            # affordable; over the seeds every kind of base and blocker comes up.
            rng = random.Random(f"{seed}-{p.observer}-{p.target}")
            obs, tgt = rng.choice(observer.models), rng.choice(target.models)
            sight = blockers + ref.screens_for(s, tgt, obs)
            assert not ref.sees_with_clearance(obs, tgt, sight), (obs.id, tgt.id)


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
    scene = _Scene(s)
    for red in (u for u in s.units if u.player == "red"):
        for blue in (u for u in s.units if u.player == "blue"):
            for observer, target in ((red, blue), (blue, red)):
                for obs in observer.models:
                    for tgt in target.models:
                        _check_model_pair(s, scene, observer, target, obs, tgt)


def _check_model_pair(
    s: Scenario, scene: _Scene, observer: Unit, target: Unit, obs: Model, tgt: Model
) -> None:
    verdict = scene.full_search(obs.id, tgt.id, terrain_only=False)
    blockers = ref.blockers_for(s, observer.id, target.id)
    screens = ref.screens_for(s, tgt)
    if not verdict.fully_visible:
        # A proven "hidden" point must be hidden for the reference too; an unproven one is the
        # test's conservative side (it may under-report fully visible), checked elsewhere.
        if verdict.proven:
            assert not ref.fully_visible_with_clearance(obs, tgt, blockers, screens), (
                obs.id,
                tgt.id,
            )
        return
    h0, h1 = obs.z + obs.height, tgt.z
    samples = []
    for (sx, sy), piece in verdict.fans:
        assert _on_base(obs, sx, sy)
        u = np.linspace(piece.u0, piece.u1, max(9, math.ceil(piece.length / 0.01)))
        points = np.array([piece.point(float(v)) for v in u])
        samples.append(points)
        starts = np.repeat([[sx, sy]], len(points), axis=0)
        gaps = ref.segment_gaps(starts, points, h0, h1, blockers + screens, sides=1440)
        assert (gaps > ref.HALF_WIDTH - 1e-7).all(), (obs.id, tgt.id)
    if not verdict.fans:
        # Nothing relevant anywhere near: the reference must agree the way is clear.
        assert ref.fully_visible_with_clearance(obs, tgt, blockers, screens)
        return
    facing = ref.facing_points(obs, tgt, spacing=0.02)
    # Points right at the ends of the facing side are grazing; leave 0.01" for sampling.
    assert _facing_covered(facing, samples)


@pytest.mark.parametrize("seed", range(3))
def test_incremental_updates_match_fresh_computations(seed: int) -> None:
    from engine.visibility import VisibilityEngine

    rng = random.Random(100 + seed)
    s = random_scene(seed)
    engine = VisibilityEngine(s)
    engine.matrix()
    for _ in range(4):
        unit = rng.choice(s.units)
        s = s.with_unit_moved(unit.id, rng.uniform(-2, 2), rng.uniform(-2, 2))
        assert engine.update(s, [unit.id]) == visibility(s)
