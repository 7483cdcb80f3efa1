"""Engagement range: boundaries per base shape and ruleset, vertical range, unit pairs."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import pytest

from engine.engagement import engagement_rules, engagements
from engine.errors import RulesError
from engine.model import (
    MM_PER_INCH,
    Base,
    CircleBase,
    Model,
    OvalBase,
    Player,
    RectBase,
    Ruleset,
    Scenario,
    Unit,
)

JUST = 1e-4


def reach_east(base: Base, rotation: float) -> float:
    if isinstance(base, CircleBase):
        return base.radius
    if isinstance(base, OvalBase):
        return base.semi_axes[0] if rotation == 0.0 else base.semi_axes[1]
    return base.half_extents[0] if rotation == 0.0 else base.half_extents[1]


def pair_scenario(
    ruleset: Ruleset,
    base_a: Base,
    rot_a: float,
    base_b: Base,
    rot_b: float,
    gap: float,
    z_b: float = 0.0,
    options: Mapping[str, Any] | None = None,
) -> Scenario:
    """Red's base at the origin side, blue's base ``gap`` inches east of it along y = 10."""
    xa = 10.0
    xb = xa + reach_east(base_a, rot_a) + gap + reach_east(base_b, rot_b)
    red = Unit("red-u", "red", (Model("red-m", xa, 10.0, base_a, rotation=rot_a),))
    blue = Unit("blue-u", "blue", (Model("blue-m", xb, 10.0, base_b, rotation=rot_b, z=z_b),))
    return Scenario(
        ruleset,
        (Player("red"), Player("blue")),
        units=(red, blue),
        options=MappingProxyType(dict(options or {})),
    )


SHAPES = [
    (CircleBase(32), 0.0),
    (OvalBase(75, 42), 0.0),
    (OvalBase(75, 42), 90.0),
    (RectBase(120, 70), 0.0),
    (RectBase(120, 70), 90.0),
]


@pytest.mark.parametrize(("base_a", "rot_a"), SHAPES)
@pytest.mark.parametrize(("base_b", "rot_b"), SHAPES)
def test_wh40k_two_inches_boundary(base_a: Base, rot_a: float, base_b: Base, rot_b: float) -> None:
    at = engagements(pair_scenario("wh40k-ca2026", base_a, rot_a, base_b, rot_b, 2.0))
    beyond = engagements(pair_scenario("wh40k-ca2026", base_a, rot_a, base_b, rot_b, 2.0 + JUST))
    assert at.engaged_with("red-u") == ("blue-u",)
    assert at.pairs[0].distance == pytest.approx(2.0, abs=1e-9)
    assert beyond.engaged_with("red-u") == ()


def test_wh40k_five_inches_vertically() -> None:
    base = CircleBase(32)
    at = engagements(pair_scenario("wh40k-ca2026", base, 0, base, 0, 1.0, z_b=5.0))
    beyond = engagements(pair_scenario("wh40k-ca2026", base, 0, base, 0, 1.0, z_b=5.0 + JUST))
    assert at.unit_pairs == (("blue-u", "red-u"),)
    assert beyond.unit_pairs == ()


def test_other_rulesets_ignore_height_and_use_their_ranges() -> None:
    base = CircleBase(32)
    s = pair_scenario("shared-modules", base, 0, base, 0, 2.0, z_b=20.0)
    assert engagements(s).engaged_with("blue-u") == ("red-u",)
    assert not engagements(pair_scenario("shared-modules", base, 0, base, 0, 2.0 + JUST)).pairs
    one_mm = 1.0 / MM_PER_INCH
    assert engagements(pair_scenario("scrollhammer", base, 0, base, 0, one_mm)).pairs
    assert not engagements(pair_scenario("scrollhammer", base, 0, base, 0, one_mm + JUST)).pairs
    assert engagements(pair_scenario("scrollhammer", base, 0, base, 0, 0.0)).pairs


def test_engagement_range_option() -> None:
    base = OvalBase(60, 35)
    s = pair_scenario("scrollhammer", base, 0, base, 90, 1.0, options={"engagement_range": 1})
    assert engagements(s).pairs
    s = pair_scenario(
        "scrollhammer", base, 0, base, 90, 1.0 + JUST, options={"engagement_range": 1}
    )
    assert not engagements(s).pairs
    s = pair_scenario(
        "shared-modules", base, 0, base, 0, 0.5, z_b=3, options={"engagement_vertical_range": 2}
    )
    assert not engagements(s).pairs
    with pytest.raises(RulesError):
        engagement_rules(
            pair_scenario(
                "shared-modules", base, 0, base, 0, 1, options={"engagement_range": "far"}
            )
        )


def test_friendly_models_are_never_engaged_and_pairs_are_symmetric() -> None:
    red = Unit(
        "red-u",
        "red",
        (Model("red-1", 10, 10, CircleBase(32)), Model("red-2", 11, 10, CircleBase(32))),
    )
    red2 = Unit("red-v", "red", (Model("red-3", 12, 10, CircleBase(32)),))
    blue = Unit("blue-u", "blue", (Model("blue-1", 13.2, 10, CircleBase(32)),))
    e = engagements(
        Scenario("wh40k-ca2026", (Player("red"), Player("blue")), units=(red, red2, blue))
    )
    assert e.engaged_with("red-u") == ("blue-u",)
    assert e.engaged_with("red-v") == ("blue-u",)
    assert e.engaged_with("blue-u") == ("red-u", "red-v")
    assert all(p.unit_a != p.unit_b for p in e.pairs)
    assert [(p.model_a, p.model_b) for p in e.pairs] == [
        ("blue-1", "red-1"),
        ("blue-1", "red-2"),
        ("blue-1", "red-3"),
    ]
    text = e.explain("blue-u").text()
    assert text.startswith("blue-u: engaged with red-u and red-v")
    assert 'blue-1 is 0" from red-3 (within 2" horizontally and 5" vertically)' in text
    assert e.explain("nobody").conclusion.startswith("nobody: unengaged")
