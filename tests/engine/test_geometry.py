"""Exact base geometry: closed forms, dense numeric checks, boundaries, vectorised = scalar."""

from __future__ import annotations

import math
import random
from dataclasses import replace

import numpy as np
import pytest
import shapely

from engine.errors import GeometryError
from engine.geometry import (
    KIND_CIRCLE,
    KIND_OVAL,
    KIND_RECT,
    TOLERANCE,
    PreparedArea,
    Shape,
    area_relations,
    base_outline,
    close_pairs,
    closest_points,
    ellipse_point_distance,
    gjk_distance,
    model_circle_distance,
    model_closest_point,
    model_distance,
    model_overlaps,
    model_point_distance,
    model_wholly_within,
    models_overlap,
    overlap_depth,
    point_distances,
    shape_arrays,
    shape_distance,
    shape_of,
    shape_overlaps,
    shape_point_distance,
    shape_wholly_within,
    within,
)
from engine.model import MM_PER_INCH, CircleBase, Model, OvalBase, RectBase

JUST = 1e-4


def dense_outline(shape: Shape, vertices: int = 2_000) -> shapely.Polygon:
    """A very fine polygon of a base: a numeric reference, never used by the engine."""
    if shape.kind == KIND_RECT:
        return shapely.Polygon(shape.corners())
    t = np.linspace(0.0, 2.0 * math.pi, vertices, endpoint=False)
    lx, ly = shape.a * np.cos(t), shape.b * np.sin(t)
    return shapely.Polygon(
        np.column_stack(
            (shape.x + shape.cos * lx - shape.sin * ly, shape.y + shape.sin * lx + shape.cos * ly)
        )
    )


def random_shape(rng: random.Random, kind: int | None = None, spread: float = 3.0) -> Shape:
    kind = rng.choice((KIND_CIRCLE, KIND_OVAL, KIND_RECT)) if kind is None else kind
    a, b = rng.uniform(0.4, 2.0), rng.uniform(0.3, 1.5)
    if kind == KIND_CIRCLE:
        b = a
    theta = rng.uniform(0.0, 2.0 * math.pi) if kind != KIND_CIRCLE else 0.0
    return Shape(
        kind,
        rng.uniform(-spread, spread),
        rng.uniform(-spread, spread),
        a,
        b,
        math.cos(theta),
        math.sin(theta),
    )


# ---------------------------------------------------------------------------------------------
# Known distances


def test_two_32mm_bases_three_inches_apart() -> None:
    a = Model("a", 10.0, 10.0, CircleBase(32))
    b = Model("b", 13.0, 10.0, CircleBase(32))
    assert model_distance(a, b) == pytest.approx(3.0 - 32 / 25.4, abs=1e-12)


def test_overlapping_and_touching_bases_are_zero_apart() -> None:
    a = Model("a", 0.0, 0.0, OvalBase(90, 52))
    b = Model("b", 0.5, 0.2, RectBase(100, 60), rotation=33)
    c = Model("c", 1.0, 0.0, CircleBase(60))
    assert model_distance(a, b) == 0.0
    assert model_distance(a, c) == 0.0
    touching = Model("d", 2.0, 0.0, CircleBase(50.8))
    assert model_distance(Model("e", 0.0, 0.0, CircleBase(50.8)), touching) == pytest.approx(0)


@pytest.mark.parametrize(
    ("px", "py", "expected"),
    [(5.0, 0.0, 3.0), (-4.5, 0.0, 2.5), (0.0, 3.0, 2.0), (0.0, -1.25, 0.25)],
)
def test_ellipse_point_distance_along_the_axes(px: float, py: float, expected: float) -> None:
    assert ellipse_point_distance(2.0, 1.0, px, py) == pytest.approx(expected, abs=1e-12)


def test_ellipse_point_distance_inside_is_zero() -> None:
    assert ellipse_point_distance(2.0, 1.0, 1.9, 0.0) == 0.0
    assert ellipse_point_distance(2.0, 1.0, 0.0, 0.0) == 0.0


def test_ellipse_point_distance_off_axis_matches_a_dense_check() -> None:
    rng = random.Random(11)
    for _ in range(60):
        shape = random_shape(rng, KIND_OVAL)
        px, py = rng.uniform(-6, 6), rng.uniform(-6, 6)
        reference = shapely.distance(dense_outline(shape, 50_000), shapely.Point(px, py))
        assert shape_point_distance(shape, px, py) == pytest.approx(reference, abs=1e-6)


def test_point_near_the_major_axis_inside_the_evolute() -> None:
    # Just off the major axis, near the centre: the closest point is not the vertex.
    shape = Shape(KIND_OVAL, 0.0, 0.0, 2.0, 1.0)
    reference = shapely.distance(dense_outline(shape, 50_000), shapely.Point(0.5, 1.0001))
    assert shape_point_distance(shape, 0.5, 1.0001) == pytest.approx(reference, abs=1e-6)


def test_rotated_rectangles_known_distance() -> None:
    # Two 2" squares turned 45 degrees, corner to corner along x: gap = 5 - 2 * sqrt(2).
    p = Model("p", 0.0, 0.0, RectBase(50.8, 50.8), rotation=45)
    q = Model("q", 5.0, 0.0, RectBase(50.8, 50.8), rotation=45)
    assert model_distance(p, q) == pytest.approx(5.0 - 2.0 * math.sqrt(2.0), abs=1e-12)
    # Edge to edge: the same squares unrotated, 3" between centres: 1" gap.
    r = Model("r", 0.0, 0.0, RectBase(50.8, 50.8))
    s = Model("s", 3.0, 0.5, RectBase(50.8, 50.8))
    assert model_distance(r, s) == pytest.approx(1.0, abs=1e-12)


def test_rect_to_point_beyond_a_corner() -> None:
    m = Model("tank", 0.0, 0.0, RectBase(101.6, 50.8), rotation=90)
    # Turned 90 degrees: half extents 1" along x, 2" along y; corner at (1, 2).
    assert model_point_distance(m, 4.0, 6.0) == pytest.approx(5.0, abs=1e-12)


def test_marker_distance_subtracts_its_radius() -> None:
    m = Model("m", 0.0, 0.0, CircleBase(32))
    marker_radius = 40 / MM_PER_INCH / 2
    d = model_circle_distance(m, 10.0, 0.0, marker_radius)
    assert d == pytest.approx(10.0 - 16 / 25.4 - marker_radius, abs=1e-12)


@pytest.mark.parametrize("seed", range(4))
def test_pair_distances_match_a_dense_check(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(25):
        p, q = random_shape(rng), random_shape(rng)
        # Inscribed 2000-gons overestimate gaps by at most a * pi^2 / (2 * 2000^2) < 3e-6.
        reference = shapely.distance(dense_outline(p), dense_outline(q))
        assert shape_distance(p, q) == pytest.approx(reference, abs=6e-6)


@pytest.mark.parametrize("seed", range(3))
def test_gjk_agrees_with_the_closed_forms(seed: int) -> None:
    rng = random.Random(100 + seed)
    for _ in range(60):
        p, q = random_shape(rng), random_shape(rng)
        assert gjk_distance(p, q) == pytest.approx(shape_distance(p, q), abs=1e-8)


def test_distance_is_symmetric() -> None:
    rng = random.Random(5)
    for _ in range(100):
        p, q = random_shape(rng), random_shape(rng)
        assert shape_distance(p, q) == pytest.approx(shape_distance(q, p), abs=1e-9)


def test_degenerate_base_is_refused() -> None:
    with pytest.raises(GeometryError):
        model_point_distance(Model("m", 0, 0, CircleBase(0)), 1, 1)
    with pytest.raises(GeometryError):
        model_point_distance(Model("m", 0, 0, RectBase(10, -1)), 1, 1)


def test_within_is_inclusive_with_tolerance() -> None:
    assert within(3.0, 3.0)
    assert within(3.0 + TOLERANCE, 3.0)
    assert not within(3.0 + JUST, 3.0)


# ---------------------------------------------------------------------------------------------
# Boundaries: exactly at a range is in, 1e-4" beyond is out, for every base shape


def _place_at_distance(base: object, rotation: float, distance: float) -> Model:
    """A model whose base's closest point is ``distance`` east of the origin."""
    if isinstance(base, CircleBase):
        reach = base.radius
    elif isinstance(base, OvalBase):
        reach = base.semi_axes[0] if rotation in (0.0, 180.0) else base.semi_axes[1]
    else:
        assert isinstance(base, RectBase)
        reach = base.half_extents[0] if rotation in (0.0, 180.0) else base.half_extents[1]
    return Model("m", distance + reach, 0.0, base, rotation=rotation)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("base", "rotation"),
    [
        (CircleBase(32), 0.0),
        (OvalBase(60, 35), 0.0),
        (OvalBase(60, 35), 90.0),
        (RectBase(100, 60), 0.0),
        (RectBase(100, 60), 90.0),
    ],
)
@pytest.mark.parametrize("limit", [2.0, 3.0, 6.0])
def test_point_distance_boundaries(base: object, rotation: float, limit: float) -> None:
    at = _place_at_distance(base, rotation, limit)
    beyond = _place_at_distance(base, rotation, limit + JUST)
    assert within(model_point_distance(at, 0.0, 0.0), limit)
    assert not within(model_point_distance(beyond, 0.0, 0.0), limit)


@pytest.mark.parametrize(
    "other",
    [
        Model("o", 0.0, 0.0, OvalBase(75, 42)),
        Model("o", 0.0, 0.0, RectBase(120, 70)),
        Model("o", 0.0, 0.0, CircleBase(40)),
    ],
)
def test_base_to_base_boundary(other: Model) -> None:
    a, _b = other.base.semi_axes if isinstance(other.base, OvalBase) else (0.0, 0.0)
    reach = (
        other.base.radius
        if isinstance(other.base, CircleBase)
        else a
        if isinstance(other.base, OvalBase)
        else other.base.half_extents[0]
    )
    at = Model("m", reach + 2.0 + 0.5, 0.0, OvalBase(25.4, 12.7), rotation=0.0)
    beyond = at.moved(JUST, 0.0)
    assert within(model_distance(other, at), 2.0)
    assert not within(model_distance(other, beyond), 2.0)


# ---------------------------------------------------------------------------------------------
# Areas

SQUARE = [(0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0)]
TRIANGLE = [(0.0, 0.0), (10.0, 0.0), (0.0, 10.0)]


@pytest.mark.parametrize(
    ("base", "rotation", "reach"),
    [
        (CircleBase(25.4), 0.0, 0.5),
        (OvalBase(50.8, 25.4), 0.0, 1.0),
        (OvalBase(50.8, 25.4), 90.0, 0.5),
        (RectBase(50.8, 25.4), 0.0, 1.0),
        (RectBase(50.8, 25.4), 90.0, 0.5),
    ],
)
def test_overlap_and_wholly_within_boundaries(base: object, rotation: float, reach: float) -> None:
    def at(x: float) -> Model:
        return Model("m", x, 5.0, base, rotation=rotation)  # type: ignore[arg-type]

    # Touching the east edge from outside: within (any part over it), not wholly within.
    assert model_overlaps(at(10.0 + reach), SQUARE)
    assert not model_overlaps(at(10.0 + reach + JUST), SQUARE)
    # Touching the east edge from inside: wholly within; a hair further out: not.
    assert model_wholly_within(at(10.0 - reach), SQUARE)
    assert not model_wholly_within(at(10.0 - reach + JUST), SQUARE)
    assert not model_wholly_within(at(10.0 + reach), SQUARE)


def test_wholly_within_a_slanted_edge() -> None:
    # The hypotenuse x + y = 10: a 1" disc centred at distance 0.5 from it touches from inside.
    offset = 0.5 / math.sqrt(2.0)
    inside = Model("m", 3.0 - offset, 7.0 - offset, CircleBase(25.4))
    assert model_wholly_within(inside, TRIANGLE)
    assert not model_wholly_within(inside.moved(JUST, JUST), TRIANGLE)
    oval = Model("o", 3.0 - offset, 7.0 - offset, OvalBase(25.4, 25.4))
    assert model_wholly_within(oval, TRIANGLE)


def test_oval_overlap_matches_dense_check() -> None:
    rng = random.Random(9)
    area = PreparedArea([(0, 0), (6, 0), (6, 2), (2, 2), (2, 6), (0, 6)])
    for _ in range(60):
        shape = replace(random_shape(rng, KIND_OVAL), x=rng.uniform(-2, 8), y=rng.uniform(-2, 8))
        fine = dense_outline(shape)
        gap = shapely.distance(fine, area.geometry)
        if gap > 1e-5:
            assert not shape_overlaps(shape, area)
        elif shapely.intersects(fine, area.geometry):
            assert shape_overlaps(shape, area)
        outside = shapely.area(shapely.difference(fine, area.geometry))
        if outside > 1e-6:
            assert not shape_wholly_within(shape, area)
        elif shapely.distance(fine.boundary, area.geometry.boundary) > 1e-5:
            assert shape_wholly_within(shape, area)


def test_prepared_area_refuses_invalid_polygons() -> None:
    with pytest.raises(GeometryError):
        PreparedArea([(0, 0), (1, 1), (1, 0), (0, 1)])


# ---------------------------------------------------------------------------------------------
# Vectorised paths equal the scalar functions


def test_point_distances_match_scalar() -> None:
    rng = random.Random(21)
    shapes = [random_shape(rng, spread=8.0) for _ in range(120)]
    arrays = shape_arrays(shapes)
    for _ in range(5):
        px, py = rng.uniform(-8, 8), rng.uniform(-8, 8)
        fast = point_distances(arrays, px, py)
        slow = [shape_point_distance(s, px, py) for s in shapes]
        assert fast == pytest.approx(slow, abs=1e-12)
        bounded = point_distances(arrays, px, py, reach=3.0)
        for got, exact in zip(bounded, slow, strict=True):
            if exact <= 3.0:
                assert got == pytest.approx(exact, abs=1e-12)
            else:
                assert 3.0 < got <= exact + 1e-12


def test_close_pairs_match_scalar() -> None:
    rng = random.Random(22)
    shapes = [random_shape(rng, spread=8.0) for _ in range(80)]
    arrays = shape_arrays(shapes)
    rows = np.repeat(np.arange(40), 40)
    cols = np.tile(np.arange(40, 80), 40)
    i, j, d = close_pairs(arrays, rows, cols, 2.0)
    found = {(int(a), int(b)): float(x) for a, b, x in zip(i, j, d, strict=True)}
    for a, b in zip(rows.tolist(), cols.tolist(), strict=True):
        exact = shape_distance(shapes[a], shapes[b])
        key = (min(a, b), max(a, b))
        if exact <= 2.0:
            assert found[key] == pytest.approx(exact, abs=1e-9)
        elif exact > 2.0 + 1e-6:
            assert key not in found


def test_area_relations_match_scalar() -> None:
    rng = random.Random(23)
    shapes = [random_shape(rng, spread=12.0) for _ in range(150)]
    areas = [
        PreparedArea(SQUARE),
        PreparedArea(TRIANGLE),
        PreparedArea([(-5, -5), (3, -4), (4, 4), (-1, 2), (-6, 3)]),
    ]
    overlaps, wholly = area_relations(shape_arrays(shapes), areas)
    for k, area in enumerate(areas):
        for m, shape in enumerate(shapes):
            assert overlaps[k, m] == shape_overlaps(shape, area)
            assert wholly[k, m] == shape_wholly_within(shape, area)


def test_base_outline_is_for_drawing() -> None:
    outline = base_outline(Model("m", 0, 0, OvalBase(50.8, 25.4)), segments=256)
    assert outline.area == pytest.approx(math.pi * 1.0 * 0.5, rel=1e-3)
    assert base_outline(Model("t", 0, 0, RectBase(50.8, 25.4))).area == pytest.approx(2.0)


# ---------------------------------------------------------------------------------------------
# Closest points and overlap depth


def _random_model(rng: random.Random, name: str, spread: float) -> Model:
    kind = rng.randrange(3)
    base: CircleBase | OvalBase | RectBase
    if kind == 0:
        base = CircleBase(rng.uniform(20, 60))
    elif kind == 1:
        base = OvalBase(rng.uniform(30, 120), rng.uniform(20, 70))
    else:
        base = RectBase(rng.uniform(30, 150), rng.uniform(20, 90))
    return Model(
        name, rng.uniform(0, spread), rng.uniform(0, spread), base, rotation=rng.uniform(0, 360)
    )


def test_closest_points_of_two_circles_lie_on_the_centre_line() -> None:
    a = Model("a", 0.0, 0.0, CircleBase(25.4))
    b = Model("b", 3.0, 4.0, CircleBase(50.8))
    pa, pb = closest_points(a, b)
    assert pa == pytest.approx((0.3, 0.4), abs=1e-12)
    assert pb == pytest.approx((3.0 - 0.6, 4.0 - 0.8), abs=1e-12)
    assert math.dist(pa, pb) == pytest.approx(model_distance(a, b), abs=1e-12)


def test_closest_points_of_an_oval_and_a_circle_are_exact() -> None:
    # An ellipse 2" x 1" (semi-axes 1 and 0.5) facing east; a 1" disc due north of its centre.
    oval = Model("o", 10.0, 10.0, OvalBase(50.8, 25.4))
    disc = Model("d", 10.0, 13.0, CircleBase(25.4))
    pa, pb = closest_points(oval, disc)
    assert pa == pytest.approx((10.0, 10.5), abs=1e-12)
    assert pb == pytest.approx((10.0, 12.5), abs=1e-12)


def test_closest_points_of_rotated_rectangles_find_the_corner() -> None:
    square = Model("s", 0.0, 0.0, RectBase(50.8, 50.8))
    diamond = Model("d", 4.0, 0.0, RectBase(50.8, 50.8), rotation=45.0)
    pa, pb = closest_points(square, diamond)
    assert pa[0] == pytest.approx(1.0, abs=1e-12)
    assert pb == pytest.approx((4.0 - math.sqrt(2.0), 0.0), abs=1e-12)
    assert math.dist(pa, pb) == pytest.approx(model_distance(square, diamond), abs=1e-12)


def test_closest_points_agree_with_model_distance_for_every_pair_of_kinds() -> None:
    rng = random.Random(20261201)
    separated = overlapping = 0
    for k in range(600):
        a, b = _random_model(rng, f"a{k}", 8.0), _random_model(rng, f"b{k}", 8.0)
        pa, pb = closest_points(a, b)
        assert model_point_distance(a, *pa) <= 1e-9
        assert model_point_distance(b, *pb) <= 1e-9
        distance = model_distance(a, b)
        if distance == 0.0:
            overlapping += 1
            assert pa == pb
        else:
            separated += 1
            assert math.dist(pa, pb) == pytest.approx(distance, abs=1e-9)
            # Each point is the closest point of its base to the other point.
            assert model_point_distance(a, *pb) == pytest.approx(distance, abs=1e-9)
            assert model_point_distance(b, *pa) == pytest.approx(distance, abs=1e-9)
    assert separated > 100
    assert overlapping > 100


def test_model_closest_point_to_a_free_point() -> None:
    oval = Model("o", 0.0, 0.0, OvalBase(50.8, 25.4), rotation=90.0)
    assert model_closest_point(oval, 0.0, 5.0) == pytest.approx((0.0, 1.0), abs=1e-12)
    assert model_closest_point(oval, 0.1, 0.1) == (0.1, 0.1)
    rng = random.Random(7)
    for k in range(200):
        m = _random_model(rng, f"m{k}", 4.0)
        x, y = rng.uniform(-4, 8), rng.uniform(-4, 8)
        point = model_closest_point(m, x, y)
        assert math.dist(point, (x, y)) == pytest.approx(model_point_distance(m, x, y), abs=1e-9)


def test_overlap_depth_of_circles_and_squares_in_closed_form() -> None:
    r = 0.5
    assert overlap_depth(
        Shape(KIND_CIRCLE, 0, 0, r, r), Shape(KIND_CIRCLE, 0.9, 0, r, r)
    ) == pytest.approx(0.1, abs=1e-12)
    square = Shape(KIND_RECT, 0.0, 0.0, 1.0, 1.0)
    assert overlap_depth(square, Shape(KIND_RECT, 1.9, 0.3, 1.0, 1.0)) == pytest.approx(
        0.1, abs=1e-9
    )
    # A disc over a square's corner: the shortest escape runs along the diagonal.
    disc = Shape(KIND_CIRCLE, 1.5, 1.5, 1.0, 1.0)
    assert overlap_depth(square, disc) == pytest.approx(1.0 - math.sqrt(0.5), abs=1e-9)
    assert overlap_depth(square, Shape(KIND_RECT, 2.5, 0.0, 1.0, 1.0)) == 0.0


def test_overlap_depth_is_the_shortest_separating_move() -> None:
    rng = random.Random(3)
    checked = 0
    for k in range(300):
        a, b = _random_model(rng, f"a{k}", 3.0), _random_model(rng, f"b{k}", 3.0)
        p, q = shape_of(a), shape_of(b)
        if shape_distance(p, q) > 0:
            continue
        depth = overlap_depth(p, q)
        sweep = min(shape_support_gap(p, q, 2 * math.pi * t / 3600) for t in range(3600))
        # No sampled direction separates them with a shorter move...
        assert depth <= sweep + 1e-12
        # ...and moving ``q`` any less than the depth, in any direction, leaves them touching.
        for t in range(16):
            angle = 2 * math.pi * t / 16
            short = max(depth - 1e-6, 0.0)
            moved = replace(q, x=q.x + short * math.cos(angle), y=q.y + short * math.sin(angle))
            assert shape_distance(p, moved) <= 1e-9
        checked += 1
    assert checked > 50


def shape_support_gap(p: Shape, q: Shape, angle: float) -> float:
    """How far ``q`` must move along ``angle`` to clear ``p`` (the overlap along it)."""
    ux, uy = math.cos(angle), math.sin(angle)
    return _support_dot(p, ux, uy) + _support_dot(q, -ux, -uy)


def _support_dot(shape: Shape, ux: float, uy: float) -> float:
    sx, sy = shape.support(ux, uy)
    return sx * ux + sy * uy


@pytest.mark.parametrize(
    ("base", "rotation"),
    [(CircleBase(32), 0.0), (OvalBase(60, 35), 30.0), (RectBase(80, 50), 0.0)],
)
def test_models_overlap_boundary_contact_is_not_an_overlap(base: object, rotation: float) -> None:
    left = Model("l", 10.0, 10.0, base, rotation=rotation)  # type: ignore[arg-type]
    right = Model("r", 10.0, 10.0, base, rotation=rotation)  # type: ignore[arg-type]
    # Slide ``right`` east until the bases just touch (bisection on the exact distance).
    low, high = 0.0, 10.0
    for _ in range(200):
        mid = (low + high) / 2
        if model_distance(left, right.placed(10.0 + mid, 10.0)) > 0.0:
            high = mid
        else:
            low = mid
    touching = high
    assert not models_overlap(left, right.placed(10.0 + touching, 10.0))
    assert not models_overlap(left, right.placed(10.0 + touching - 0.5e-6, 10.0))
    assert models_overlap(left, right.placed(10.0 + touching - 1e-4, 10.0))
