"""A deterministic stress scenario for benchmarks: 200 models, 40 units, 18 terrain pieces.

Two armies of 20 units x 5 models on a 60" x 44" battlefield, with mixed round, oval and
rectangular (hull) bases, 18 terrain pieces (ruins with solid walls, containers, obscuring
woods) and 6 objectives. The same ``seed`` always gives the same scenario, so figures from
different runs and machines compare.

>>> s = make_stress_scenario(seed=1)
>>> len(s.units), sum(len(u.models) for u in s.units), len(s.terrain), len(s.objectives)
(40, 200, 18, 6)
>>> make_stress_scenario(seed=1) == s
True
"""

from __future__ import annotations

import math
import random
from dataclasses import replace

from engine.model import (
    Base,
    Battlefield,
    CircleBase,
    Model,
    Objective,
    OvalBase,
    Player,
    Point,
    Polygon,
    RectBase,
    Scenario,
    TerrainFeature,
    TerrainPiece,
    Unit,
)

WIDTH = 60.0
DEPTH = 44.0
UNITS_PER_ARMY = 20
MODELS_PER_UNIT = 5
TERRAIN_PIECES = 18

# A realistic mix: mostly infantry rounds, some bikes/cavalry ovals, a few hulls and monsters.
_BASE_CHOICES: tuple[tuple[Base, float, tuple[str, ...]], ...] = (
    (CircleBase(25), 6.0, ("INFANTRY",)),
    (CircleBase(28.5), 6.0, ("INFANTRY",)),
    (CircleBase(32), 8.0, ("INFANTRY", "BATTLELINE")),
    (CircleBase(40), 3.0, ("INFANTRY",)),
    (CircleBase(50), 2.0, ("MONSTER",)),
    (CircleBase(60), 1.0, ("MONSTER",)),
    (OvalBase(60, 35), 2.0, ("MOUNTED",)),
    (OvalBase(75, 42), 1.0, ("MOUNTED",)),
    (OvalBase(90, 52), 1.0, ("MONSTER",)),
    (RectBase(100, 60), 1.0, ("VEHICLE",)),
    (RectBase(120, 70), 0.5, ("VEHICLE",)),
)

_MODEL_HEIGHTS = {
    "INFANTRY": 1.6,
    "BATTLELINE": 1.6,
    "MOUNTED": 2.4,
    "MONSTER": 4.0,
    "VEHICLE": 3.0,
}


def _rotated(points: list[Point], cx: float, cy: float, angle: float) -> Polygon:
    cos_a, sin_a = math.cos(angle), math.sin(angle)
    return tuple(
        (round(cx + x * cos_a - y * sin_a, 4), round(cy + x * sin_a + y * cos_a, 4))
        for x, y in points
    )


def _ruin(rng: random.Random, index: int, cx: float, cy: float) -> TerrainPiece:
    """An L-walled ruin: a rectangular area with two solid walls along two of its sides."""
    w, d = rng.uniform(6, 10), rng.uniform(4, 7)
    angle = rng.choice((0.0, math.pi / 2, rng.uniform(0, math.pi)))
    area = _rotated(
        [(-w / 2, -d / 2), (w / 2, -d / 2), (w / 2, d / 2), (-w / 2, d / 2)], cx, cy, angle
    )
    t = 0.25
    long_wall = [(-w / 2, -d / 2), (w / 2, -d / 2), (w / 2, -d / 2 + t), (-w / 2, -d / 2 + t)]
    short_wall = [(-w / 2, -d / 2), (-w / 2 + t, -d / 2), (-w / 2 + t, d / 2), (-w / 2, d / 2)]
    height = rng.choice((3.0, 5.0, 8.0))
    features = (
        TerrainFeature(_rotated(long_wall, cx, cy, angle), height),
        TerrainFeature(_rotated(short_wall, cx, cy, angle), height),
    )
    return TerrainPiece(f"ruin-{index}", area, kind="ruin", features=features)


def _container(rng: random.Random, index: int, cx: float, cy: float) -> TerrainPiece:
    """A shipping container: a solid block filling its own small area."""
    w, d = 6.0, 2.5
    angle = rng.uniform(0, math.pi)
    box = _rotated(
        [(-w / 2, -d / 2), (w / 2, -d / 2), (w / 2, d / 2), (-w / 2, d / 2)], cx, cy, angle
    )
    return TerrainPiece(
        f"container-{index}", box, kind="container", features=(TerrainFeature(box, 2.5),)
    )


def _woods(rng: random.Random, index: int, cx: float, cy: float) -> TerrainPiece:
    """Woods: a hexagonal obscuring area with no solid features."""
    r = rng.uniform(3.0, 4.5)
    hexagon = [(r * math.cos(k * math.pi / 3), r * math.sin(k * math.pi / 3)) for k in range(6)]
    return TerrainPiece(
        f"woods-{index}",
        _rotated(hexagon, cx, cy, rng.uniform(0, math.pi)),
        kind="woods",
        obscuring=True,
    )


def _terrain(rng: random.Random) -> tuple[TerrainPiece, ...]:
    pieces: list[TerrainPiece] = []
    # A jittered 6 x 3 grid keeps pieces apart, as on a real table.
    for row in range(3):
        for col in range(6):
            cx = (col + 0.5) * WIDTH / 6 + rng.uniform(-2, 2)
            cy = (row + 0.5) * DEPTH / 3 + rng.uniform(-2, 2)
            index = len(pieces) + 1
            kind = rng.choices(("ruin", "container", "woods"), weights=(0.55, 0.2, 0.25))[0]
            maker = {"ruin": _ruin, "container": _container, "woods": _woods}[kind]
            pieces.append(maker(rng, index, cx, cy))
    return tuple(pieces)


def _objectives() -> tuple[Objective, ...]:
    return (
        Objective("obj-centre", 30, 22, role="central"),
        Objective("obj-home-red", 30, 6, role="home", owner="red"),
        Objective("obj-home-blue", 30, 38, role="home", owner="blue"),
        Objective("obj-west", 10, 22, role="expansion"),
        Objective("obj-east", 50, 22, role="expansion"),
        Objective("obj-north-east", 46, 30, role="other"),
    )


def _army(
    rng: random.Random,
    player: str,
    y_low: float,
    y_high: float,
    units_per_army: int = UNITS_PER_ARMY,
    width: float = WIDTH,
) -> tuple[Unit, ...]:
    weights = [w for _, w, _ in _BASE_CHOICES]
    units: list[Unit] = []
    for index in range(1, units_per_army + 1):
        base, _, keywords = rng.choices(_BASE_CHOICES, weights=weights)[0]
        spacing = 2.0 * base.bounding_radius + 0.6
        cx = rng.uniform(4, width - 4 - 4 * spacing)
        cy = rng.uniform(y_low, y_high)
        rotation = rng.choice((0.0, 90.0, rng.uniform(0, 180)))
        height = _MODEL_HEIGHTS[keywords[0]]
        unit_id = f"{player}-u{index:02d}"
        models = tuple(
            Model(
                f"{unit_id}-m{k + 1}",
                round(cx + k * spacing, 4),
                round(cy + rng.uniform(-0.4, 0.4), 4),
                base,
                rotation=0.0 if isinstance(base, CircleBase) else rotation,
                height=height,
            )
            for k in range(MODELS_PER_UNIT)
        )
        units.append(
            Unit(
                unit_id,
                player,
                models,
                name=f"{player.title()} unit {index}",
                keywords=keywords,
                oc=2 if "BATTLELINE" in keywords else 1,
            )
        )
    return tuple(units)


def make_stress_scenario(seed: int = 1) -> Scenario:
    """The benchmark scenario for ``seed`` (the same seed gives an equal scenario)."""
    rng = random.Random(seed)
    terrain = _terrain(rng)
    units = _army(rng, "red", 2.0, 24.0) + _army(rng, "blue", 20.0, 42.0)
    return Scenario(
        ruleset="wh40k-ca2026",
        players=(Player("red", "Red", "attacker"), Player("blue", "Blue", "defender")),
        battlefield=Battlefield(WIDTH, DEPTH),
        title=f"Stress scenario (seed {seed}): 200 models, 40 units",
        deployment="dawn-of-war",
        units=units,
        terrain=terrain,
        objectives=_objectives(),
    )


def make_scaled_scenario(models: int, terrain_pieces: int, seed: int = 1) -> Scenario:
    """A stress scenario grown to ``models`` models (a multiple of 10) and ``terrain_pieces``
    pieces on a battlefield grown with it, so the density of models and of terrain stays that
    of :func:`make_stress_scenario` (its 200 models on 60" x 44"): how each cost grows with
    the number of models, the rest being equal.

    >>> big = make_scaled_scenario(2000, 200)
    >>> sum(len(u.models) for u in big.units), len(big.terrain), round(big.battlefield.width, 1)
    (2000, 200, 189.7)
    """
    if models % (2 * MODELS_PER_UNIT) or models <= 0:
        raise ValueError(f"models must be a positive multiple of {2 * MODELS_PER_UNIT}")
    rng = random.Random(seed)
    scale = math.sqrt(models / (2 * UNITS_PER_ARMY * MODELS_PER_UNIT))
    width, depth = WIDTH * scale, DEPTH * scale
    columns = max(1, round(math.sqrt(terrain_pieces * width / depth)))
    rows = math.ceil(terrain_pieces / columns)
    makers = {"ruin": _ruin, "container": _container, "woods": _woods}
    pieces: list[TerrainPiece] = []
    for index in range(terrain_pieces):
        row, col = divmod(index, columns)
        cx = (col + 0.5) * width / columns + rng.uniform(-2, 2)
        cy = (row + 0.5) * depth / rows + rng.uniform(-2, 2)
        kind = rng.choices(("ruin", "container", "woods"), weights=(0.55, 0.2, 0.25))[0]
        pieces.append(makers[kind](rng, index + 1, cx, cy))
    per_army = models // (2 * MODELS_PER_UNIT)
    half = depth / 2
    units = _army(rng, "red", 2.0, half + 2.0, per_army, width) + _army(
        rng, "blue", half - 2.0, depth - 2.0, per_army, width
    )
    objectives = tuple(replace(o, x=o.x * scale, y=o.y * scale) for o in _objectives())
    return Scenario(
        ruleset="wh40k-ca2026",
        players=(Player("red", "Red", "attacker"), Player("blue", "Blue", "defender")),
        battlefield=Battlefield(width, depth),
        title=f"Scaled stress scenario (seed {seed}): {models} models, {terrain_pieces} pieces",
        deployment="dawn-of-war",
        units=units,
        terrain=tuple(pieces),
        objectives=objectives,
    )
