"""Objective control for the three rulesets, with boundaries at every range."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import pytest

from engine.errors import RulesError, UnknownReferenceError
from engine.model import (
    MM_PER_INCH,
    Base,
    CircleBase,
    Model,
    Objective,
    OvalBase,
    Player,
    RectBase,
    Ruleset,
    Scenario,
    TerrainPiece,
    Unit,
    UnitStatus,
)
from engine.objectives import maximum_matching, objective_control, objective_rules

JUST = 1e-4
ROUND_32 = CircleBase(32)
MARKER_RADIUS = 40 / MM_PER_INCH / 2
OBJ = Objective("obj", 30.0, 22.0)


def unit(
    unit_id: str,
    player: str,
    positions: list[tuple[float, float]],
    base: Base = ROUND_32,
    **kwargs: Any,
) -> Unit:
    models = tuple(
        Model(f"{unit_id}-m{k}", x, y, base, z=kwargs.pop("z", 0.0) if k == 0 else 0.0)
        for k, (x, y) in enumerate(positions)
    )
    return Unit(unit_id, player, models, **kwargs)


def scenario(
    ruleset: Ruleset,
    units: tuple[Unit, ...],
    objectives: tuple[Objective, ...] = (OBJ,),
    options: Mapping[str, Any] | None = None,
    terrain: tuple[TerrainPiece, ...] = (),
) -> Scenario:
    return Scenario(
        ruleset,
        (Player("red"), Player("blue")),
        units=units,
        objectives=objectives,
        options=MappingProxyType(dict(options or {})),
        terrain=terrain,
    )


def east_of(objective: Objective, gap: float, base: Base, rotation: float = 0.0) -> float:
    """The x of a model whose base's closest point is ``gap`` east of the objective's centre."""
    if isinstance(base, CircleBase):
        reach = base.radius
    elif isinstance(base, OvalBase):
        reach = base.semi_axes[0] if rotation == 0.0 else base.semi_axes[1]
    else:
        reach = base.half_extents[0] if rotation == 0.0 else base.half_extents[1]
    return objective.x + gap + reach


BASES = [
    (CircleBase(32), 0.0),
    (OvalBase(60, 35), 0.0),
    (OvalBase(60, 35), 90.0),
    (RectBase(100, 60), 0.0),
    (RectBase(100, 60), 90.0),
]


# ---------------------------------------------------------------------------------------------
# wh40k-ca2026


@pytest.mark.parametrize(("base", "rotation"), BASES)
def test_wh40k_three_inches_from_the_marker_edge(base: Base, rotation: float) -> None:
    def control_at(gap: float) -> tuple[str, ...]:
        x = east_of(OBJ, MARKER_RADIUS + gap, base, rotation)
        red = Unit("red-u", "red", (Model("red-m", x, OBJ.y, base, rotation=rotation),))
        return objective_control(scenario("wh40k-ca2026", (red,)))[0].controlled_by

    assert control_at(3.0) == ("red",)
    assert control_at(3.0 + JUST) == ()


def test_wh40k_vertical_five_inches_by_z() -> None:
    def control_at(z: float) -> tuple[str, ...]:
        x = east_of(OBJ, MARKER_RADIUS + 1.0, CircleBase(32))
        red = Unit("red-u", "red", (Model("red-m", x, OBJ.y, CircleBase(32), z=z),))
        return objective_control(scenario("wh40k-ca2026", (red,)))[0].controlled_by

    assert control_at(5.0) == ("red",)
    assert control_at(5.0 + JUST) == ()


def test_wh40k_summed_oc_ties_and_battle_shock() -> None:
    near = OBJ.x + 1.5
    red = unit("red-u", "red", [(near, 22.0), (near, 23.0)], oc=2)
    blue = unit("blue-u", "blue", [(OBJ.x - 1.5, 22.0), (OBJ.x - 1.5, 21.0)], oc=2)
    control = objective_control(scenario("wh40k-ca2026", (red, blue)))[0]
    assert control.level == {"red": 4, "blue": 4}
    assert control.controlled_by == ()
    assert "equal: nobody controls it" in control.explanation.text()

    more_blue = unit("blue-v", "blue", [(OBJ.x, 20.5)])
    control = objective_control(scenario("wh40k-ca2026", (red, blue, more_blue)))[0]
    assert control.controlled_by == ("blue",)
    assert control.level == {"red": 4, "blue": 5}

    shocked = Unit(red.id, red.player, red.models, oc=2, status=UnitStatus(battle_shocked=True))
    control = objective_control(scenario("wh40k-ca2026", (shocked, blue)))[0]
    assert control.level == {"red": 0, "blue": 4}
    assert control.controlled_by == ("blue",)
    assert control.in_range["red"] == ("red-u-m0", "red-u-m1")


def test_wh40k_model_oc_overrides_the_unit() -> None:
    model = Model("red-m", OBJ.x + 1.0, OBJ.y, CircleBase(32), oc=3)
    red = Unit("red-u", "red", (model,), oc=1)
    assert objective_control(scenario("wh40k-ca2026", (red,)))[0].level["red"] == 3


def test_wh40k_terrain_objective_any_part_over_the_area_any_height() -> None:
    ruin = TerrainPiece("ruin", ((20.0, 20.0), (26.0, 20.0), (26.0, 24.0), (20.0, 24.0)))
    objective = Objective("obj-ruin", 23.0, 22.0, terrain="ruin")
    r = 16 / MM_PER_INCH

    def control_at(x: float, z: float = 0.0) -> tuple[str, ...]:
        red = Unit("red-u", "red", (Model("red-m", x, 22.0, CircleBase(32), z=z),))
        s = scenario("wh40k-ca2026", (red,), objectives=(objective,), terrain=(ruin,))
        return objective_control(s)[0].controlled_by

    assert control_at(26.0 + r) == ("red",)
    assert control_at(26.0 + r + JUST) == ()
    assert control_at(24.0, z=9.0) == ("red",)


def test_unknown_terrain_objective_is_an_error() -> None:
    objective = Objective("obj-ruin", 23.0, 22.0, terrain="nowhere")
    red = unit("red-u", "red", [(23.0, 22.0)])
    with pytest.raises(UnknownReferenceError):
        objective_control(scenario("wh40k-ca2026", (red,), objectives=(objective,)))


def test_wh40k_explanation_reads_like_a_ruling() -> None:
    x = east_of(OBJ, MARKER_RADIUS + 2.998, CircleBase(32))
    red = Unit("red-u", "red", (Model("red-i1", x, OBJ.y, CircleBase(32)),))
    text = objective_control(scenario("wh40k-ca2026", (red,)))[0].explanation.text()
    assert text.startswith("obj: controlled by red")
    assert 'red-i1 is 2.998" from obj\'s marker (within 3"), OC 1' in text
    x_out = east_of(OBJ, MARKER_RADIUS + 3.4, CircleBase(32))
    blue = Unit("blue-u", "blue", (Model("blue-b1", x_out, OBJ.y + 5.0, CircleBase(32)),))
    blue_near = Unit("blue-u", "blue", (Model("blue-b1", x_out, OBJ.y, CircleBase(32)),))
    assert "blue-b1" not in objective_control(scenario("wh40k-ca2026", (red, blue)))[0].distances
    text = objective_control(scenario("wh40k-ca2026", (red, blue_near)))[0].explanation.text()
    assert 'blue-b1 is 3.4" from obj\'s marker (just out of 3")' in text


# ---------------------------------------------------------------------------------------------
# shared-modules


@pytest.mark.parametrize(("base", "rotation"), BASES)
def test_shared_modules_hold_three_from_the_centre(base: Base, rotation: float) -> None:
    def control_at(gap: float) -> tuple[str, ...]:
        x = east_of(OBJ, gap, base, rotation)
        red = Unit("red-u", "red", (Model("red-m", x, OBJ.y, base, rotation=rotation),))
        return objective_control(scenario("shared-modules", (red,)))[0].controlled_by

    assert control_at(3.0) == ("red",)
    assert control_at(3.0 + JUST) == ()


def test_shared_modules_contest_two_and_shared_control() -> None:
    red = unit("red-u", "red", [(east_of(OBJ, 2.5, CircleBase(32)), OBJ.y)])

    def blue_at(gap: float) -> Unit:
        return unit("blue-u", "blue", [(OBJ.x - gap - 16 / MM_PER_INCH, OBJ.y)])

    control = objective_control(scenario("shared-modules", (red, blue_at(2.0))))[0]
    assert control.controlled_by == ("blue",)  # red is 2.5" away: holds, but does not contest
    assert control.contesting["blue"] == ("blue-u-m0",)
    control = objective_control(scenario("shared-modules", (red, blue_at(2.0 + JUST))))[0]
    assert control.controlled_by == ("red", "blue")
    assert control.level == {"red": 1, "blue": 1}
    assert control.to_json()["controlled_by"] == ["blue", "red"]


def test_shared_modules_options_override() -> None:
    red = unit("red-u", "red", [(east_of(OBJ, 4.0, CircleBase(32)), OBJ.y)])
    s = scenario("shared-modules", (red,), options={"objective_range": 4})
    assert objective_control(s)[0].controlled_by == ("red",)
    s = scenario("shared-modules", (red,), options={"objective_measure": "edge"})
    assert objective_control(s)[0].controlled_by == ()
    s = scenario(
        "shared-modules", (red,), options={"objective_measure": "edge", "objective_range": 3.3}
    )
    assert objective_rules(s).measure == "edge"
    assert objective_control(s)[0].controlled_by == ("red",)


def test_bad_options_are_refused() -> None:
    red = unit("red-u", "red", [(30.0, 22.0)])
    with pytest.raises(RulesError):
        objective_control(scenario("shared-modules", (red,), options={"objective_range": -1}))
    with pytest.raises(RulesError):
        objective_control(scenario("shared-modules", (red,), options={"objective_measure": "x"}))


# ---------------------------------------------------------------------------------------------
# scrollhammer

A = Objective("obj-a", 20.0, 22.0)
B = Objective("obj-b", 26.0, 22.0)


def core(unit_id: str, player: str, positions: list[tuple[float, float]], **kw: Any) -> Unit:
    return unit(unit_id, player, positions, keywords=("CORE",), **kw)


@pytest.mark.parametrize(("base", "rotation"), BASES)
def test_scrollhammer_three_from_the_centre(base: Base, rotation: float) -> None:
    def control_at(gap: float) -> tuple[str, ...]:
        x = east_of(OBJ, gap, base, rotation)
        m = Model("red-m", x, OBJ.y, base, rotation=rotation)
        red = Unit("red-u", "red", (m,), keywords=("CORE",))
        return objective_control(scenario("scrollhammer", (red,)))[0].controlled_by

    assert control_at(3.0) == ("red",)
    assert control_at(3.0 + JUST) == ()


def test_scrollhammer_edge_measure_option() -> None:
    x = east_of(OBJ, MARKER_RADIUS + 3.0, CircleBase(32))
    red = core("red-u", "red", [(x, OBJ.y)])
    assert objective_control(scenario("scrollhammer", (red,)))[0].controlled_by == ()
    s = scenario("scrollhammer", (red,), options={"objective_measure": "edge"})
    assert objective_control(s)[0].controlled_by == ("red",)


def test_scrollhammer_scoring_and_denial() -> None:
    red = core("red-u", "red", [(OBJ.x + 1.0, OBJ.y)])
    elite = unit("red-elite", "red", [(OBJ.x, OBJ.y + 1.0)])
    assert objective_control(scenario("scrollhammer", (elite,)))[0].controlled_by == ()
    blue_denier = unit("blue-d", "blue", [(OBJ.x - 1.0, OBJ.y)])
    control = objective_control(scenario("scrollhammer", (red, blue_denier)))[0]
    assert control.controlled_by == ()
    assert "denied by enemy denial models blue-d-m0" in control.explanation.text()
    falling = Unit("blue-d", "blue", blue_denier.models, status=UnitStatus(falling_back=True))
    assert objective_control(scenario("scrollhammer", (red, falling)))[0].controlled_by == ("red",)
    not_denial = Unit("blue-d", "blue", blue_denier.models, denial=False)
    assert objective_control(scenario("scrollhammer", (red, not_denial)))[0].controlled_by == (
        "red",
    )
    swarm = unit("red-s", "red", [(OBJ.x + 1.0, OBJ.y)], keywords=("CORE", "SWARMS"))
    assert objective_control(scenario("scrollhammer", (swarm,)))[0].controlled_by == ()


def test_scrollhammer_a_unit_holds_one_objective_and_the_matching_is_maximum() -> None:
    # red-wide stands between A and B (in range of both); red-a only reaches A.
    wide = core("red-wide", "red", [(A.x + 2.0, 22.0), (B.x - 2.0, 22.0)])
    only_a = core("red-a", "red", [(A.x - 1.0, 22.0)])
    s = scenario("scrollhammer", (wide, only_a), objectives=(A, B))
    a, b = objective_control(s)
    assert a.controlled_by == ("red",)
    assert b.controlled_by == ("red",)
    assert a.holders == {"red": "red-a"}
    assert b.holders == {"red": "red-wide"}
    # Alone, the wide unit holds one of the two only (the first, by document order).
    a, b = objective_control(scenario("scrollhammer", (wide,), objectives=(A, B)))
    assert (a.controlled_by, b.controlled_by) == (("red",), ())
    assert "hold other objectives" in b.explanation.text()
    assert a.to_json()["holders"] == {"red": "red-wide"}


def test_maximum_matching_finds_augmenting_paths() -> None:
    edges = [["u1", "u2"], ["u1"], ["u2", "u3"], ["u3"]]
    matching = maximum_matching(edges)
    assert len(set(matching.values())) == len(matching)
    assert len(matching) == 3
    assert maximum_matching([[], ["u1"]]) == {1: "u1"}


def test_level_counts_models_in_range_outside_wh40k() -> None:
    red = core("red-u", "red", [(OBJ.x + 1.0, OBJ.y), (OBJ.x + 2.0, OBJ.y), (OBJ.x + 9, 22)])
    control = objective_control(scenario("scrollhammer", (red,)))[0]
    assert control.level == {"red": 2, "blue": 0}
    assert control.in_range == {"red": ("red-u-m0", "red-u-m1"), "blue": ()}


# ---------------------------------------------------------------------------------------------
# The verdict the app shows


def test_verdicts_in_chapter_approved() -> None:
    red = unit("red", "red", [(30.0, 19.0)], oc=2)
    blue = unit("blue", "blue", [(30.0, 25.0)], oc=2)
    far_blue = unit("blue", "blue", [(50.0, 25.0)], oc=2)
    shocked = unit("blue", "blue", [(30.0, 25.0)], oc=2, status=UnitStatus(battle_shocked=True))
    assert objective_control(scenario("wh40k-ca2026", (red, blue)))[0].verdict == "contested"
    held = objective_control(scenario("wh40k-ca2026", (red, far_blue)))[0]
    assert (held.verdict, held.contested) == ("controlled", False)
    assert held.verdict_text({"red": "Red"}) == "Red controls"
    # A battle-shocked unit in range counts OC 0: it claims nothing, so nobody contests.
    alone = objective_control(scenario("wh40k-ca2026", (red, shocked)))[0]
    assert alone.verdict == "controlled"
    empty = objective_control(scenario("wh40k-ca2026", ()))[0]
    assert (empty.verdict, empty.verdict_text()) == ("uncontrolled", "nobody")
    assert empty.caption() == "obj\nred 0 : blue 0 - nobody"


def test_shared_control_is_its_own_verdict() -> None:
    # Shared Scenario Modules: held within 3" of the centre, contested within 2".
    r = ROUND_32.radius
    red = unit("red", "red", [(30.0, 22.0 - 2.5 - r)])
    blue = unit("blue", "blue", [(30.0, 22.0 + 2.5 + r)])
    both = objective_control(scenario("shared-modules", (red, blue)))[0]
    assert both.controlled_by == ("red", "blue")
    assert (both.verdict, both.verdict_text()) == ("shared", "shared")
    close_blue = unit("blue", "blue", [(30.0, 22.0 + 1.5 + r)])
    # Blue within 2" contests Red; Red at 2.5" holds but cannot contest Blue.
    blue_holds = objective_control(scenario("shared-modules", (red, close_blue)))[0]
    assert (blue_holds.controlled_by, blue_holds.verdict) == (("blue",), "controlled")
    closer_red = unit("red", "red", [(30.0, 22.0 - 1.5 - r)])
    neither = objective_control(scenario("shared-modules", (closer_red, close_blue)))[0]
    assert (neither.controlled_by, neither.verdict) == ((), "contested")
    assert neither.caption({"red": "Red", "blue": "Blue"}) == "obj\nRed 1 : Blue 1 - contested"


def test_scrollhammer_denied_objective_is_contested() -> None:
    red = unit("red", "red", [(30.0, 20.0)], keywords=("CORE",))
    blue = unit("blue", "blue", [(30.0, 24.0)], keywords=("CORE",))
    control = objective_control(scenario("scrollhammer", (red, blue)))[0]
    assert control.controlled_by == ()
    assert control.verdict == "contested"
