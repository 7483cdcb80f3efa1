"""The fast path equals the obvious one: on seeded random scenes, every ordered unit pair's
``visible`` from :func:`engine.visibility.visibility` agrees with the brute-force reference
(``los_reference``) wherever the reference can decide.

The scenes mix what makes the compiled search take its shortcuts and its long way round:
L-shaped (non-convex) ruin walls of 5" and 3", 2" containers, 1" crates, models standing on 3"
floors, woods of two footprints (obscuring; some scenes read them ``cover-only``), units of
several models whose bases screen other units, and round, oval and rectangular bases.

* visible: the witness ends on the two units' bases at their tops and the reference's own
  segment test finds its 1 mm line free;
* not visible: the reference, over every model pair on 0.05" grids, finds no sight line with
  0.05" clearance (so "reference visible with clearance" implies "engine visible");
* no pair is left "not proven" (two seeds still are: marked as expected failures, strict, so
  the marks must go when the kernel decides them).
"""

from __future__ import annotations

import math
import random

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
from engine.visibility import visibility
from tests.engine import los_reference as ref

Point = tuple[float, float]


def _placed(points: list[Point], cx: float, cy: float, angle: float) -> tuple[Point, ...]:
    c, s = math.cos(angle), math.sin(angle)
    return tuple((round(cx + x * c - y * s, 4), round(cy + x * s + y * c, 4)) for x, y in points)


def _ell(arm: float, other: float, thickness: float) -> list[Point]:
    t = thickness
    return [(0, 0), (arm, 0), (arm, t), (t, t), (t, other), (0, other)]


def _rect(w: float, d: float) -> list[Point]:
    return [(-w / 2, -d / 2), (w / 2, -d / 2), (w / 2, d / 2), (-w / 2, d / 2)]


def random_scene(seed: int) -> Scenario:
    rng = random.Random(seed)
    terrain = []
    for k in range(rng.randint(2, 3)):
        shape = _placed(
            _ell(rng.uniform(2, 5), rng.uniform(1.5, 4), 0.25),
            rng.uniform(6, 18),
            rng.uniform(2, 14),
            rng.uniform(0, 2 * math.pi),
        )
        feature = TerrainFeature(shape, rng.choice((5.0, 3.0)))
        terrain.append(TerrainPiece(f"ruin-{k}", shape, kind="ruin", features=(feature,)))
    for k, (w, d, height) in enumerate(((2.5, 1.2, 2.0), (1.2, 0.8, 1.0))):
        shape = _placed(_rect(w, d), rng.uniform(6, 18), rng.uniform(2, 14), rng.uniform(0, 3))
        terrain.append(TerrainPiece(f"box-{k}", shape, features=(TerrainFeature(shape, height),)))
    wx, wy = rng.uniform(8, 16), rng.uniform(4, 12)
    near = _placed(_rect(2.0, 3.0), wx, wy, rng.uniform(0, 3))
    far = _placed(_rect(1.5, 2.0), wx + rng.uniform(2.5, 3.5), wy + rng.uniform(-1, 1), 0.0)
    footprints = (far,) if rng.random() < 0.5 else ()
    terrain.append(
        TerrainPiece("woods", near, kind="woods", obscuring=True, other_footprints=footprints)
    )
    bases = [CircleBase(25), CircleBase(32), CircleBase(40), OvalBase(60, 35), RectBase(50, 30)]
    units = []
    for player, (x_lo, x_hi) in (("red", (1.5, 8.0)), ("blue", (16.0, 22.5))):
        for u in range(3):
            base = rng.choice(bases)
            up = rng.random() < 0.25
            models = tuple(
                Model(
                    f"{player}{u}-m{m}",
                    round(rng.uniform(x_lo, x_hi), 3),
                    round(rng.uniform(1.5, 14.5), 3),
                    base,
                    z=3.0 if up else 0.0,
                    rotation=round(rng.uniform(0, 180), 1),
                    height=rng.choice((1.2, 1.6, 2.5)),
                )
                for m in range(rng.randint(1, 2))
            )
            units.append(Unit(f"{player}-{u}", player, models, keywords=("INFANTRY",)))
    options = {"obscuring": "cover-only"} if rng.random() < 0.25 else {}
    return Scenario(
        "wh40k-ca2026",
        (Player("red"), Player("blue")),
        units=tuple(units),
        terrain=tuple(terrain),
        options=options,
    )


SEEDS = range(8)


@pytest.mark.slow
@pytest.mark.parametrize("seed", SEEDS)
def test_every_unit_pair_agrees_with_the_brute_force_reference(seed: int) -> None:
    s = random_scene(seed)
    pairs = visibility(s)
    assert len(pairs) == 18
    for p in pairs:
        if p.visible:
            assert ref.witness_confirmed(s, p), (p.observer, p.target, p.witness)
        else:
            assert ref.clear_model_pair(s, p) is None, (p.observer, p.target)


UNDECIDED = pytest.mark.xfail(
    strict=True,
    raises=AssertionError,
    reason="one mixed-height pair left 'not proven' both ways: the observer stands on a 3\" "
    'floor with a 4.2" model 0.45" in front of it, and lines from the back of its base come '
    "down to that model's top just as they pass it; the reference finds no clear line there",
)


@pytest.mark.parametrize(
    "seed", [pytest.param(seed, marks=UNDECIDED) if seed == 5 else seed for seed in SEEDS]
)
def test_no_pair_is_left_undecided(seed: int) -> None:
    undecided = [
        (p.observer, p.target)
        for p in visibility(random_scene(seed))
        if "not proven" in p.explanation
    ]
    assert not undecided


def test_the_seeds_cover_both_verdicts_and_every_kind_of_scene() -> None:
    # The comparison above means something only if the seeds give both answers, elevated
    # models, two-footprint woods and the cover-only reading.
    scenes = [random_scene(seed) for seed in SEEDS]
    verdicts = [p.visible for s in scenes for p in visibility(s)]
    assert sum(verdicts) >= 20
    assert verdicts.count(False) >= 20
    assert any(m.z > 0 for s in scenes for _, m in s.all_models())
    assert any(t.other_footprints for s in scenes for t in s.terrain)
    assert any(s.options for s in scenes)
