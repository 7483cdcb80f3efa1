"""A ruin-heavy scenario for line-of-sight benchmarks and tests: two ~100-model armies.

A 60" x 44" battlefield with a mirrored layout of twelve ruins (obscuring areas, each with a
5"-tall L of solid walls along two sides), four 3"-tall solid containers, four obscuring
barricade areas holding 2" light (not solid) walls, and two armies of 20 units (100 models
each: round infantry, ovals, a few hulls). Some infantry stand on ruin upper floors (``z = 3``
or ``z = 6``) right beside the walls, the setting that once crashed the old search. The same
``seed`` always gives the same scenario; ``assets/scenarios/ruin-layout.warplan.json`` is
``make_ruin_layout(seed=1)`` saved by ``python -m benchmarks.ruin_layout FILE``.

>>> s = make_ruin_layout(seed=1)
>>> len(s.units), sum(len(u.models) for u in s.units), len(s.terrain)
(40, 200, 20)
>>> sorted({m.z for _, m in s.all_models()})
[0.0, 3.0, 6.0]
>>> make_ruin_layout(seed=1) == s
True
"""

from __future__ import annotations

import math
import random
import sys

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
WALL_HEIGHT = 5.0
WALL_THICKNESS = 0.25
FLOOR_HEIGHTS = (3.0, 6.0)


def _turned(points: list[Point], cx: float, cy: float, angle: float) -> Polygon:
    c, s = math.cos(angle), math.sin(angle)
    return tuple((round(cx + x * c - y * s, 4), round(cy + x * s + y * c, 4)) for x, y in points)


def _rect(w: float, d: float) -> list[Point]:
    return [(-w / 2, -d / 2), (w / 2, -d / 2), (w / 2, d / 2), (-w / 2, d / 2)]


def _ruin(index: int, cx: float, cy: float, angle: float) -> TerrainPiece:
    """A 10" x 6" obscuring ruin area with a 5"-tall solid L of walls along two sides."""
    w, d, t = 10.0, 6.0, WALL_THICKNESS
    long_wall = [(-w / 2, -d / 2), (w / 2, -d / 2), (w / 2, -d / 2 + t), (-w / 2, -d / 2 + t)]
    short_wall = [
        (-w / 2, -d / 2 + t),
        (-w / 2 + t, -d / 2 + t),
        (-w / 2 + t, d / 2),
        (-w / 2, d / 2),
    ]
    return TerrainPiece(
        f"ruin-{index:02d}",
        _turned(_rect(w, d), cx, cy, angle),
        kind="ruin",
        obscuring=True,
        features=(
            TerrainFeature(_turned(long_wall, cx, cy, angle), WALL_HEIGHT),
            TerrainFeature(_turned(short_wall, cx, cy, angle), WALL_HEIGHT),
        ),
    )


def _container(index: int, cx: float, cy: float, angle: float) -> TerrainPiece:
    box = _turned(_rect(5.0, 2.5), cx, cy, angle)
    return TerrainPiece(
        f"container-{index:02d}", box, kind="container", features=(TerrainFeature(box, 3.0),)
    )


def _barricades(index: int, cx: float, cy: float, angle: float) -> TerrainPiece:
    """An obscuring 6" x 3" area of 2" light walls (not solid)."""
    walls = tuple(
        TerrainFeature(
            _turned([(x - 1, -0.1), (x + 1, -0.1), (x + 1, 0.1), (x - 1, 0.1)], cx, cy, angle),
            2.0,
            solid=False,
        )
        for x in (-1.6, 1.6)
    )
    return TerrainPiece(
        f"barricade-{index:02d}",
        _turned(_rect(6.0, 3.0), cx, cy, angle),
        kind="barricade",
        obscuring=True,
        features=walls,
    )


def _terrain(rng: random.Random) -> tuple[TerrainPiece, ...]:
    """Pieces placed on one half and mirrored through the centre, as tournament layouts are."""
    half: list[tuple[str, float, float, float]] = []
    for row, y in enumerate((7.0, 16.0)):
        for x in (8.0, 22.0, 38.0):
            angle = rng.choice((0.0, math.pi / 2, math.pi, 3 * math.pi / 2)) + rng.uniform(
                -0.3, 0.3
            )
            half.append(
                ("ruin", x + rng.uniform(-1.5, 1.5) + 4 * row, y + rng.uniform(-1, 1), angle)
            )
    half.append(("container", 30.0 + rng.uniform(-2, 2), 12.0, rng.uniform(0, math.pi)))
    half.append(("container", 52.0, 9.0 + rng.uniform(-1, 1), rng.uniform(0, math.pi)))
    half.append(("barricades", 15.0, 21.0 + rng.uniform(-0.5, 0.5), rng.uniform(0, math.pi)))
    half.append(("barricades", 50.0, 19.0, rng.uniform(0, math.pi)))
    makers = {"ruin": _ruin, "container": _container, "barricades": _barricades}
    pieces: list[TerrainPiece] = []
    for kind, x, y, angle in half:
        for mx, my, ma in ((x, y, angle), (WIDTH - x, DEPTH - y, angle + math.pi)):
            pieces.append(makers[kind](len(pieces) + 1, mx, my, ma))
    return tuple(pieces)


_UNIT_KINDS: tuple[tuple[Base, float, tuple[str, ...], float], ...] = (
    (CircleBase(32), 1.6, ("INFANTRY", "BATTLELINE"), 8.0),
    (CircleBase(28.5), 1.6, ("INFANTRY",), 5.0),
    (CircleBase(40), 1.8, ("INFANTRY",), 3.0),
    (OvalBase(60, 35), 2.4, ("MOUNTED",), 2.0),
    (CircleBase(60), 4.0, ("MONSTER",), 1.0),
    (RectBase(100, 60), 3.0, ("VEHICLE",), 1.0),
)


def _floor_spots(ruin: TerrainPiece) -> list[tuple[float, float, float]]:
    """Upper-floor spots inside a ruin, just inside its L of walls (x, y, rotation)."""
    (x0, y0), (x1, y1), _, (x3, y3) = ruin.area[:4]
    ux, uy = (x1 - x0) / 10.0, (y1 - y0) / 10.0
    vx, vy = (x3 - x0) / 6.0, (y3 - y0) / 6.0
    spots = []
    for along in (1.2, 2.6, 4.0, 5.4, 6.8):
        for inset in (WALL_THICKNESS + 0.7, WALL_THICKNESS + 2.0):
            spots.append((x0 + along * ux + inset * vx, y0 + along * uy + inset * vy, 0.0))
    return spots


def _army(
    rng: random.Random, player: str, y_low: float, y_high: float, ruins: list[TerrainPiece]
) -> tuple[Unit, ...]:
    weights = [w for *_, w in _UNIT_KINDS]
    units: list[Unit] = []
    for index in range(1, 21):
        base, height, keywords, _ = rng.choices(_UNIT_KINDS, weights=weights)[0]
        unit_id = f"{player}-u{index:02d}"
        models: list[Model] = []
        if "INFANTRY" in keywords and index % 4 == 0 and ruins:
            ruin = ruins[(index // 4) % len(ruins)]
            z = FLOOR_HEIGHTS[(index // 4) % 2]
            for k, (x, y, _) in enumerate(_floor_spots(ruin)[:5]):
                models.append(
                    Model(f"{unit_id}-m{k + 1}", round(x, 4), round(y, 4), base, z=z, height=height)
                )
        else:
            spacing = 2.0 * base.bounding_radius + 0.5
            cx = rng.uniform(3, WIDTH - 3 - 4 * spacing)
            cy = rng.uniform(y_low, y_high)
            rotation = 0.0 if isinstance(base, CircleBase) else rng.choice((0.0, 90.0, 35.0))
            for k in range(5):
                models.append(
                    Model(
                        f"{unit_id}-m{k + 1}",
                        round(cx + k * spacing, 4),
                        round(cy + rng.uniform(-0.4, 0.4), 4),
                        base,
                        rotation=rotation,
                        height=height,
                    )
                )
        units.append(
            Unit(
                unit_id, player, tuple(models), name=f"{player.title()} {index}", keywords=keywords
            )
        )
    return tuple(units)


def make_ruin_layout(seed: int = 1) -> Scenario:
    """The ruin layout for ``seed`` (the same seed gives an equal scenario)."""
    rng = random.Random(seed)
    terrain = _terrain(rng)
    ruins = [p for p in terrain if p.kind == "ruin"]
    south = [r for r in ruins if r.area[0][1] < DEPTH / 2]
    north = [r for r in ruins if r.area[0][1] >= DEPTH / 2]
    units = _army(rng, "red", 2.0, 18.0, south) + _army(rng, "blue", 26.0, 42.0, north)
    return Scenario(
        ruleset="wh40k-ca2026",
        players=(Player("red", "Red", "attacker"), Player("blue", "Blue", "defender")),
        battlefield=Battlefield(WIDTH, DEPTH),
        title=f"Ruin layout (seed {seed}): 200 models, ruins with upper floors",
        deployment="dawn-of-war",
        units=units,
        terrain=terrain,
        objectives=(
            Objective("obj-centre", 30, 22, role="central"),
            Objective("obj-home-red", 30, 6, role="home", owner="red"),
            Objective("obj-home-blue", 30, 38, role="home", owner="blue"),
        ),
    )


if __name__ == "__main__":
    from engine.scenario_io import save_scenario

    save_scenario(make_ruin_layout(seed=1), sys.argv[1])
