"""Property tests of the scenario format.

- Round trip: any valid scenario survives ``scenario_to_json``/``parse_scenario`` and
  ``dumps_scenario``/``loads_scenario`` unchanged.
- Fuzz: mutated documents, garbage text and bytes, and deep nesting never raise anything but
  :class:`ScenarioError`, whose problems always say where or what.
"""

from __future__ import annotations

import copy
import json
import math
import string
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.deployments import deployment_ids, load_deployment_map
from engine.errors import ScenarioError
from engine.limits import MAX_BATTLEFIELD, MIN_BATTLEFIELD
from engine.model import (
    Battlefield,
    CircleBase,
    CustomDeployment,
    DeploymentRegion,
    Marker,
    Model,
    Objective,
    OvalBase,
    Player,
    RectBase,
    Scenario,
    TerrainFeature,
    TerrainPiece,
    Unit,
    UnitStatus,
    freeze,
)
from engine.scenario_io import (
    dumps_scenario,
    loads_scenario,
    parse_scenario,
    scenario_to_json,
)

ASSETS = Path(__file__).resolve().parents[2] / "assets" / "scenarios"
FUZZ = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# ---------------------------------------------------------------------------------------------
# Valid scenarios


coordinates = st.one_of(
    st.integers(-200, 200), st.floats(-200, 200, allow_nan=False, allow_infinity=False)
)
sizes = st.one_of(st.integers(1, 300), st.floats(0.5, 300, allow_nan=False))
table_sides = st.one_of(
    st.integers(1, 600), st.floats(MIN_BATTLEFIELD, MAX_BATTLEFIELD, allow_nan=False)
)
heights = st.one_of(st.integers(0, 20), st.floats(0, 20, allow_nan=False))
keywords = st.lists(
    st.text(alphabet=string.ascii_uppercase + " -", min_size=1, max_size=12).filter(
        lambda word: word.strip() != ""
    ),
    max_size=3,
).map(tuple)
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**12), 10**12)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=6), children, max_size=3)
    ),
    max_leaves=8,
)
extras = st.one_of(
    st.just(freeze({})), st.dictionaries(st.text(max_size=6), json_values, max_size=3).map(freeze)
)
bases = st.one_of(
    st.builds(CircleBase, sizes),
    st.builds(OvalBase, sizes, sizes),
    st.builds(RectBase, sizes, sizes),
)


@st.composite
def rectangles(draw: st.DrawFn) -> tuple[tuple[float, float], ...]:
    x = draw(st.integers(-50, 100))
    y = draw(st.integers(-50, 100))
    width = draw(st.sampled_from([0.25, 1, 2.5, 6, 12]))
    depth = draw(st.sampled_from([0.25, 1, 4, 7.5]))
    return ((x, y), (x + width, y), (x + width, y + depth), (x, y + depth))


@st.composite
def scenarios(draw: st.DrawFn) -> Scenario:
    counter = iter(range(10_000))

    def new_id(prefix: str) -> str:
        return f"{prefix}-{next(counter)}{draw(st.sampled_from(['', 'x', 'é', ' A']))}"

    roles = draw(
        st.sampled_from([(None, None), ("attacker", "defender"), ("defender", "attacker")])
    )
    players = (
        Player(new_id("p"), draw(st.text(max_size=8)), roles[0], draw(extras)),
        Player(new_id("p"), draw(st.text(max_size=8)), roles[1], draw(extras)),
    )
    player_ids = [p.id for p in players]
    units = []
    for _ in range(draw(st.integers(0, 3))):
        models = tuple(
            Model(
                new_id("m"),
                draw(coordinates),
                draw(coordinates),
                draw(bases),
                z=draw(heights),
                rotation=draw(coordinates),
                height=draw(heights),
                wounds=draw(st.none() | st.integers(0, 20)),
                oc=draw(st.none() | st.integers(0, 5)),
                keywords=draw(keywords),
                extra=draw(extras),
            )
            for _ in range(draw(st.integers(1, 3)))
        )
        units.append(
            Unit(
                new_id("u"),
                draw(st.sampled_from(player_ids)),
                models,
                name=draw(st.text(max_size=10)),
                keywords=draw(keywords),
                oc=draw(st.integers(0, 4)),
                move=draw(st.none() | sizes),
                status=UnitStatus(draw(st.booleans()), draw(st.booleans()), draw(extras)),
                scoring=draw(st.none() | st.booleans()),
                denial=draw(st.none() | st.booleans()),
                extra=draw(extras),
            )
        )
    terrain = tuple(
        TerrainPiece(
            new_id("t"),
            draw(rectangles()),
            kind=draw(st.sampled_from(["", "ruin", "woods"])),
            obscuring=draw(st.booleans()),
            impassable=draw(st.booleans()),
            features=tuple(
                TerrainFeature(
                    draw(rectangles()),
                    draw(heights),
                    draw(heights),
                    draw(st.booleans()),
                    draw(extras),
                    category=draw(st.sampled_from([None, "dense", "light"])),
                )
                for _ in range(draw(st.integers(0, 2)))
            ),
            extra=draw(extras),
            other_footprints=tuple(draw(rectangles()) for _ in range(draw(st.integers(0, 2)))),
        )
        for _ in range(draw(st.integers(0, 2)))
    )
    objectives = []
    for _ in range(draw(st.integers(0, 3))):
        role = draw(st.sampled_from(["home", "central", "expansion", "other"]))
        objectives.append(
            Objective(
                new_id("o"),
                draw(coordinates),
                draw(coordinates),
                role,
                owner=draw(st.sampled_from(player_ids)) if role == "home" else None,
                diameter=draw(sizes),
                z=draw(heights),
                terrain=draw(st.none() | st.sampled_from([t.id for t in terrain] or [None])),
                extra=draw(extras),
            )
        )
    markers = tuple(
        Marker(
            new_id("k"),
            draw(st.sampled_from(["operation", "beacon"])),
            draw(coordinates),
            draw(coordinates),
            draw(st.none() | st.sampled_from(player_ids)),
            draw(extras),
        )
        for _ in range(draw(st.integers(0, 2)))
    )
    options: dict[str, Any] = draw(
        st.fixed_dictionaries(
            {},
            optional={
                "objective_range": sizes,
                "contest_range": sizes,
                "engagement_range": heights,
                "objective_measure": st.sampled_from(["centre", "edge"]),
            },
        )
    )
    kind = draw(st.sampled_from(["none", "map", "custom"]))
    deployment: str | CustomDeployment | None = None
    if kind == "map":
        deployment = draw(st.sampled_from(deployment_ids()))
        disputes = load_deployment_map(deployment).disputes
        if disputes and draw(st.booleans()):
            dispute = draw(st.sampled_from(sorted(disputes)))
            options["deployment_variant"] = {
                dispute: draw(st.sampled_from(sorted(disputes[dispute].choices)))
            }
    elif kind == "custom":
        deployment = CustomDeployment(
            tuple(
                DeploymentRegion(
                    new_id("z"), draw(st.sampled_from(player_ids)), draw(rectangles()), draw(extras)
                )
                for _ in range(draw(st.integers(0, 2)))
            ),
            tuple(
                DeploymentRegion(new_id("r"), draw(st.sampled_from(player_ids)), draw(rectangles()))
                for _ in range(draw(st.integers(0, 2)))
            ),
            draw(extras),
        )
    game = None
    if draw(st.booleans()):
        game = freeze(
            draw(
                st.fixed_dictionaries(
                    {},
                    optional={
                        "battle_round": st.integers(1, 5),
                        "active_player": st.sampled_from(player_ids),
                        "timing": st.sampled_from(["start_of_turn", "end_of_turn"]),
                        "twist": st.sampled_from(["night-fighting", "nowhere-to-hide"]),
                        "players": st.fixed_dictionaries(
                            {},
                            optional={
                                player_ids[0]: st.fixed_dictionaries(
                                    {},
                                    optional={
                                        "vp": st.integers(0, 100),
                                        "cp": st.integers(0, 20),
                                        "secondary_mode": st.sampled_from(["tactical", "fixed"]),
                                        "secondaries": st.lists(
                                            st.sampled_from(["CENTRE GROUND", "NO PRISONERS"]),
                                            max_size=2,
                                            unique=True,
                                        ),
                                    },
                                )
                            },
                        ),
                    },
                )
            )
        )
    return Scenario(
        ruleset=draw(st.sampled_from(["wh40k-ca2026", "shared-modules", "scrollhammer"])),
        players=players,
        battlefield=Battlefield(draw(table_sides), draw(table_sides)),
        title=draw(st.text(max_size=20)),
        options=freeze(options),
        deployment=deployment,
        units=tuple(units),
        terrain=terrain,
        objectives=tuple(objectives),
        markers=markers,
        game=game,
        extra=draw(extras),
    )


@settings(FUZZ, max_examples=60)
@given(scenarios())
def test_round_trip_of_valid_scenarios(scenario: Scenario) -> None:
    assert parse_scenario(scenario_to_json(scenario)) == scenario
    text = dumps_scenario(scenario)
    assert loads_scenario(text) == scenario
    assert dumps_scenario(loads_scenario(text)) == text


# ---------------------------------------------------------------------------------------------
# Fuzz


def assert_only_scenario_errors(action: Any) -> None:
    """Run ``action``: it may succeed or raise a ScenarioError that says where or what."""
    refused: ScenarioError | None = None
    try:
        action()
    except ScenarioError as error:
        refused = error
    if refused is not None:
        assert refused.problems
        assert all(problem.message for problem in refused.problems)


def paths_of(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(value, dict):
        for key, child in value.items():
            found.extend(paths_of(child, (*prefix, key)))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            found.extend(paths_of(child, (*prefix, index)))
    return found


SPEC_DOCUMENT = json.loads((ASSETS / "spec-example.warplan.json").read_text(encoding="utf-8"))
SPEC_PATHS = paths_of(SPEC_DOCUMENT)[1:]

wild_values = st.one_of(
    json_values,
    st.sampled_from(
        [
            math.nan,
            math.inf,
            -math.inf,
            10**400,
            -(10**400),
            -1,
            0,
            "",
            "\ud800",
            [],
            {},
            [[0, 0]],
            [[0, 0], [1, 1], [1, 0], [0, 1]],
            {"shape": "circle"},
            "dawn-of-war",
            "red",
            "blue",
            True,
        ]
    ),
)


@FUZZ
@given(
    st.lists(
        st.tuples(
            st.sampled_from(SPEC_PATHS), st.sampled_from(["set", "delete", "add"]), wild_values
        ),
        min_size=1,
        max_size=4,
    )
)
def test_mutated_documents_only_raise_scenario_errors(
    mutations: list[tuple[Any, str, Any]],
) -> None:
    document = copy.deepcopy(SPEC_DOCUMENT)
    for path, action, value in mutations:
        parent: Any = document
        try:
            for step in path[:-1]:
                parent = parent[step]
            key = path[-1]
            if action == "set":
                parent[key] = value
            elif action == "delete":
                del parent[key]
            elif isinstance(parent, dict):
                parent[f"new_{key}"] = value
            else:
                parent.append(value)
        except (KeyError, IndexError, TypeError):
            continue  # an earlier mutation removed or replaced this path
    assert_only_scenario_errors(lambda: parse_scenario(document))


@FUZZ
@given(st.binary(max_size=300))
def test_random_bytes_only_raise_scenario_errors(data: bytes) -> None:
    assert_only_scenario_errors(lambda: loads_scenario(data))


@FUZZ
@given(st.text(alphabet='{}[]",: 0123456789.eE-+ntrufalsNIy\\\ud800', max_size=200))
def test_json_like_garbage_only_raises_scenario_errors(text: str) -> None:
    assert_only_scenario_errors(lambda: loads_scenario(text))


@FUZZ
@given(st.integers(1, 3000), st.sampled_from(["[", '{"a":', '[{"b":']), st.booleans())
def test_deep_nesting_only_raises_scenario_errors(depth: int, opener: str, closed: bool) -> None:
    closer = {"[": "]", '{"a":': "}", '[{"b":': "}]"}[opener]
    text = opener * depth + "0" + (closer * depth if closed else "")
    assert_only_scenario_errors(lambda: loads_scenario(text))
    document = copy.deepcopy(SPEC_DOCUMENT)
    nested: Any = 0
    for _ in range(min(depth, 200)):
        nested = [nested]
    document["extra"] = {"deep": nested}
    assert_only_scenario_errors(lambda: parse_scenario(document))
