"""Properties of the rules (hypothesis): monotone ranges, mirror symmetry, player symmetry,
symmetric engagement, incremental = full."""

from __future__ import annotations

import dataclasses
import math

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.areas import unit_positions
from engine.engagement import engagements
from engine.evaluate import IncrementalEvaluator, evaluate
from engine.model import (
    Base,
    Battlefield,
    CircleBase,
    CustomDeployment,
    DeploymentRegion,
    Model,
    Objective,
    OvalBase,
    Player,
    RectBase,
    Ruleset,
    Scenario,
    Unit,
)
from engine.objectives import objective_control

WIDTH, DEPTH = 60.0, 44.0
BASES: list[Base] = [
    CircleBase(25),
    CircleBase(32),
    CircleBase(60),
    OvalBase(60, 35),
    OvalBase(90, 52),
    RectBase(100, 60),
]
ROTATIONS = [0.0, 30.0, 45.0, 90.0, 120.0]
RULESETS: list[Ruleset] = ["wh40k-ca2026", "shared-modules", "scrollhammer"]
QUARTER_MIRROR_X = {"SW": "SE", "SE": "SW", "NW": "NE", "NE": "NW", None: None}
QUARTER_MIRROR_Y = {"SW": "NW", "NW": "SW", "SE": "NE", "NE": "SE", None: None}

PROPERTY_SETTINGS = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)

# Positions on a 1/64" grid, so that mirroring them is exact.
coordinate_x = st.integers(2 * 64, 58 * 64).map(lambda v: v / 64)
coordinate_y = st.integers(2 * 64, 42 * 64).map(lambda v: v / 64)


@st.composite
def models(draw: st.DrawFn, prefix: str) -> Model:
    return Model(
        prefix,
        draw(coordinate_x),
        draw(coordinate_y),
        draw(st.sampled_from(BASES)),
        rotation=draw(st.sampled_from(ROTATIONS)),
        z=draw(st.sampled_from([0.0, 0.0, 3.0, 6.0])),
    )


@st.composite
def scenarios(draw: st.DrawFn) -> Scenario:
    units = []
    for player in ("red", "blue"):
        for u in range(draw(st.integers(1, 3))):
            unit_id = f"{player}-u{u}"
            count = draw(st.integers(1, 3))
            unit_models = tuple(
                dataclasses.replace(draw(models(f"{unit_id}-m{k}")), id=f"{unit_id}-m{k}")
                for k in range(count)
            )
            units.append(
                Unit(
                    unit_id,
                    player,
                    unit_models,
                    oc=draw(st.integers(0, 3)),
                    keywords=draw(st.sampled_from([("CORE",), (), ("CORE", "SWARMS")])),
                )
            )
    objectives = tuple(
        Objective(f"obj-{k}", draw(coordinate_x), draw(coordinate_y))
        for k in range(draw(st.integers(1, 3)))
    )
    deployment = CustomDeployment(
        zones=(
            DeploymentRegion("red-dz", "red", ((0, 0), (20, 0), (14, 44), (0, 44))),
            DeploymentRegion("blue-dz", "blue", ((40, 0), (60, 0), (60, 44), (46, 44))),
        ),
        territories=(
            DeploymentRegion("red-t", "red", ((0, 0), (30, 0), (30, 44), (0, 44))),
            DeploymentRegion("blue-t", "blue", ((30, 0), (60, 0), (60, 44), (30, 44))),
        ),
    )
    return Scenario(
        draw(st.sampled_from(RULESETS)),
        (Player("red"), Player("blue")),
        battlefield=Battlefield(WIDTH, DEPTH),
        units=tuple(units),
        objectives=objectives,
        deployment=deployment,
    )


def mirrored(scenario: Scenario, axis: str) -> Scenario:
    def point(x: float, y: float) -> tuple[float, float]:
        return (WIDTH - x, y) if axis == "x" else (x, DEPTH - y)

    def model(m: Model) -> Model:
        x, y = point(m.x, m.y)
        rotation = (180.0 - m.rotation) if axis == "x" else -m.rotation
        return dataclasses.replace(m, x=x, y=y, rotation=rotation)

    def region(r: DeploymentRegion) -> DeploymentRegion:
        return dataclasses.replace(r, polygon=tuple(point(x, y) for x, y in r.polygon))

    assert isinstance(scenario.deployment, CustomDeployment)
    return dataclasses.replace(
        scenario,
        units=tuple(
            dataclasses.replace(u, models=tuple(model(m) for m in u.models)) for u in scenario.units
        ),
        objectives=tuple(
            dataclasses.replace(o, x=point(o.x, o.y)[0], y=point(o.x, o.y)[1])
            for o in scenario.objectives
        ),
        deployment=CustomDeployment(
            zones=tuple(region(z) for z in scenario.deployment.zones),
            territories=tuple(region(t) for t in scenario.deployment.territories),
        ),
    )


@PROPERTY_SETTINGS
@given(
    scenarios(),
    st.sampled_from(BASES),
    st.sampled_from(ROTATIONS),
    st.floats(0.0, 1.0),
    st.floats(0.0, 2.0 * math.pi),
    st.floats(0.0, 6.0),
)
def test_moving_closer_to_an_objective_never_takes_a_model_out_of_range(
    scenario: Scenario, base: Base, rotation: float, fraction: float, angle: float, gap: float
) -> None:
    objective = scenario.objectives[0]
    x = objective.x + (gap + 2.0) * math.cos(angle)
    y = objective.y + (gap + 2.0) * math.sin(angle)
    probe = Model("probe", x, y, base, rotation=rotation)
    closer = probe.placed(x + fraction * (objective.x - x), y + fraction * (objective.y - y))

    def in_range(m: Model) -> bool:
        unit = Unit("probe-u", "red", (m,))
        s = dataclasses.replace(scenario, units=(unit,), objectives=(objective,))
        return "probe" in objective_control(s)[0].in_range["red"]

    if in_range(probe):
        assert in_range(closer)


@PROPERTY_SETTINGS
@given(scenarios(), st.sampled_from(["x", "y"]))
def test_mirroring_the_table_mirrors_the_results(scenario: Scenario, axis: str) -> None:
    original = evaluate(scenario, visibility=False)
    mirror = evaluate(mirrored(scenario, axis), visibility=False)
    quarter_map = QUARTER_MIRROR_X if axis == "x" else QUARTER_MIRROR_Y
    for a, b in zip(original.objectives, mirror.objectives, strict=True):
        assert a.controlled_by == b.controlled_by
        assert a.in_range == b.in_range
        assert a.level == b.level
    for a_unit, b_unit in zip(original.units, mirror.units, strict=True):
        assert quarter_map[a_unit.quarter] == b_unit.quarter
        assert a_unit.within_6_of_centre == b_unit.within_6_of_centre
        assert a_unit.engaged_with == b_unit.engaged_with
        # Zones and territories are mirrored with the table and keep their ids.
        assert a_unit.zones_wholly_within == b_unit.zones_wholly_within
        assert a_unit.territory == b_unit.territory
        assert a_unit.position.within_no_mans_land == b_unit.position.within_no_mans_land


@PROPERTY_SETTINGS
@given(scenarios())
def test_swapping_the_players_swaps_control(scenario: Scenario) -> None:
    swap = {"red": "blue", "blue": "red"}
    swapped = dataclasses.replace(
        scenario, units=tuple(dataclasses.replace(u, player=swap[u.player]) for u in scenario.units)
    )
    for a, b in zip(objective_control(scenario), objective_control(swapped), strict=True):
        assert sorted(swap[p] for p in a.controlled_by) == sorted(b.controlled_by)
        assert a.level["red"] == b.level["blue"]
        assert a.level["blue"] == b.level["red"]


@PROPERTY_SETTINGS
@given(scenarios())
def test_engagement_is_symmetric(scenario: Scenario) -> None:
    result = engagements(scenario)
    for unit in scenario.units:
        for other in result.engaged_with(unit.id):
            assert unit.id in result.engaged_with(other)
            assert scenario.unit(other).player != unit.player
    positions = unit_positions(scenario)
    assert [p.id for p in positions] == [u.id for u in scenario.units]


@PROPERTY_SETTINGS
@given(
    scenarios(),
    st.lists(
        st.tuples(st.integers(0, 5), st.floats(-4.0, 4.0), st.floats(-4.0, 4.0)),
        min_size=1,
        max_size=4,
    ),
)
def test_incremental_equals_full(scenario: Scenario, moves: list[tuple[int, float, float]]) -> None:
    evaluator = IncrementalEvaluator(scenario)
    current = scenario
    for index, dx, dy in moves:
        unit_id = scenario.units[index % len(scenario.units)].id
        current = current.with_unit_moved(unit_id, dx, dy)
        assert (
            evaluator.update(current, (unit_id,)).to_json()
            == evaluate(current, visibility=False).to_json()
        )
