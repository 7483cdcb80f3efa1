"""The scenario file format: what it accepts, what it refuses (and how it says so), versions,
round trips and atomic saving."""

from __future__ import annotations

import copy
import json
import os
import stat
from pathlib import Path
from typing import Any

import pytest
import shapely
from shapely import affinity

from engine import scenario_io
from engine.errors import FormatVersionError, Problem, ScenarioError
from engine.model import CircleBase, Model, OvalBase, Scenario, freeze
from engine.rulesets import ruleset_for
from engine.scenario_io import (
    MAX_DEPTH,
    dumps_scenario,
    load_scenario,
    loads_scenario,
    parse_scenario,
    save_scenario,
    scenario_to_json,
    validate_path,
)

ASSETS = Path(__file__).resolve().parents[2] / "assets" / "scenarios"
DATA = Path(__file__).resolve().parent / "data"
SHIPPED = ("demo.warplan.json", "spec-example.warplan.json")


def minimal() -> dict[str, Any]:
    return {
        "format": "warplan.scenario",
        "version": 1,
        "ruleset": "wh40k-ca2026",
        "battlefield": {"width": 60, "depth": 44},
        "players": [{"id": "red", "role": "attacker"}, {"id": "blue", "role": "defender"}],
        "units": [
            {
                "id": "red-intercessors",
                "player": "red",
                "models": [
                    {
                        "id": "red-i1",
                        "x": 12.0,
                        "y": 6.5,
                        "base": {"shape": "circle", "diameter": 32},
                    }
                ],
            }
        ],
        "terrain": [{"id": "ruin-1", "area": [[20, 14], [30, 14], [30, 20], [20, 20]]}],
        "objectives": [{"id": "obj-home-red", "x": 30, "y": 6, "role": "home", "owner": "red"}],
        "markers": [{"id": "op-1", "kind": "operation", "player": "red", "x": 5, "y": 5}],
    }


def problems_of(document: object) -> list[str]:
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(document)
    assert caught.value.problems, "a ScenarioError always carries its problems"
    return [str(p) for p in caught.value.problems]


def mutated(change: Any) -> dict[str, Any]:
    document = minimal()
    change(document)
    return document


# ---------------------------------------------------------------------------------------------
# Shipped files and round trips


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_scenarios_validate(name: str) -> None:
    assert validate_path(ASSETS / name) == []
    scenario = load_scenario(ASSETS / name)
    assert scenario.deployment == "dawn-of-war"
    assert {p.role for p in scenario.players} == {"attacker", "defender"}


@pytest.mark.parametrize("name", SHIPPED)
def test_round_trip_of_shipped_files(name: str, tmp_path: Path) -> None:
    text = (ASSETS / name).read_text(encoding="utf-8")
    scenario = loads_scenario(text)
    assert parse_scenario(scenario_to_json(scenario)) == scenario
    # The shipped files were written by this module, so saving gives the very same text.
    assert dumps_scenario(scenario) == text
    save_scenario(scenario, tmp_path / name)
    assert (tmp_path / name).read_text(encoding="utf-8") == text


def test_demo_has_what_the_brief_promises() -> None:
    demo = load_scenario(ASSETS / "demo.warplan.json")
    assert 8 <= len(demo.units) <= 10
    assert all(3 <= len(u.models) <= 10 for u in demo.units)
    shapes = {type(m.base).__name__ for _, m in demo.all_models()}
    assert shapes == {"CircleBase", "OvalBase", "RectBase"}
    kinds = {t.kind for t in demo.terrain}
    assert {"ruin", "woods", "crater", "container"} <= kinds
    assert any(t.obscuring for t in demo.terrain if t.kind == "woods")
    assert any(o.terrain for o in demo.objectives)
    assert demo.game is not None
    assert demo.game["battle_round"] == 2
    assert demo.game["active_player"] == "red"


def test_defaults_are_left_out_and_key_order_is_the_specs() -> None:
    scenario = parse_scenario(minimal())
    written = scenario_to_json(scenario)
    assert list(written) == [
        "format",
        "version",
        "ruleset",
        "battlefield",
        "players",
        "units",
        "terrain",
        "objectives",
        "markers",
    ]
    model = written["units"][0]["models"][0]
    assert model == {
        "id": "red-i1",
        "x": 12.0,
        "y": 6.5,
        "base": {"shape": "circle", "diameter": 32},
    }
    assert (
        "role"
        not in scenario_to_json(
            parse_scenario(
                mutated(
                    lambda d: (
                        d["objectives"][0].update(role="other", owner=None)
                        or d["objectives"][0].pop("owner")
                    )
                )
            )
        )["objectives"][0]
    )


def test_numbers_are_kept_as_given() -> None:
    scenario = parse_scenario(minimal())
    model = scenario.units[0].models[0]
    assert type(model.x) is float
    assert type(scenario.battlefield.width) is int
    text = dumps_scenario(scenario)
    assert '"width": 60,' in text
    assert '"x": 12.0,' in text
    assert text.endswith("}\n")


def test_extra_objects_are_kept_verbatim_and_round_trip() -> None:
    extra = {"tool": {"Weird Key!": [1, 2.5, None, True, {"deep": "x"}]}, "colour": "#ff0000"}
    document = mutated(lambda d: d["units"][0]["models"][0].update(extra=extra))
    document["extra"] = {"made_by": "a test"}
    scenario = parse_scenario(document)
    assert scenario_to_json(scenario)["units"][0]["models"][0]["extra"] == extra
    assert scenario_to_json(scenario)["extra"] == {"made_by": "a test"}
    assert loads_scenario(dumps_scenario(scenario)) == scenario


def test_a_closed_ring_is_the_same_polygon() -> None:
    closed = mutated(lambda d: d["terrain"][0]["area"].append([20, 14]))
    assert parse_scenario(closed) == parse_scenario(minimal())


# ---------------------------------------------------------------------------------------------
# Refusals: each names the place and the problem


REFUSALS: list[tuple[str, Any, str]] = [
    (
        "negative diameter",
        lambda d: d["units"][0]["models"][0]["base"].update(diameter=-32),
        "units[0].models[0].base.diameter: must be a positive number, got -32",
    ),
    (
        "zero diameter",
        lambda d: d["units"][0]["models"][0]["base"].update(diameter=0),
        "units[0].models[0].base.diameter: must be a positive number, got 0",
    ),
    (
        "zero-width oval",
        lambda d: d["units"][0]["models"][0].update(
            base={"shape": "oval", "length": 60, "width": 0}
        ),
        "units[0].models[0].base.width: must be a positive number, got 0",
    ),
    (
        "unknown base shape",
        lambda d: d["units"][0]["models"][0].update(base={"shape": "hex", "diameter": 3}),
        'units[0].models[0].base.shape: must be one of circle, oval, rect; got "hex"',
    ),
    (
        "zero battlefield",
        lambda d: d["battlefield"].update(depth=0),
        "battlefield.depth: must be a positive number, got 0",
    ),
    (
        "negative height",
        lambda d: d["units"][0]["models"][0].update(height=-1),
        "units[0].models[0].height: must be a non-negative number, got -1",
    ),
    (
        "negative feature height",
        lambda d: d["terrain"][0].update(
            features=[{"shape": [[0, 0], [1, 0], [1, 1]], "height": -0.5}]
        ),
        "terrain[0].features[0].height: must be a non-negative number, got -0.5",
    ),
    (
        "string coordinate",
        lambda d: d["units"][0]["models"][0].update(x="12"),
        'units[0].models[0].x: must be a number, got "12"',
    ),
    (
        "boolean is not a number",
        lambda d: d["units"][0]["models"][0].update(y=True),
        "units[0].models[0].y: must be a number, got true",
    ),
    (
        "infinite number",
        lambda d: d["units"][0]["models"][0].update(x=float("inf")),
        "units[0].models[0].x: must be a finite number, got Infinity",
    ),
    (
        "fractional OC",
        lambda d: d["units"][0].update(oc=1.5),
        "units[0].oc: must be an integer, got 1.5",
    ),
    (
        "negative OC",
        lambda d: d["units"][0].update(oc=-1),
        "units[0].oc: must be an integer of at least 0, got -1",
    ),
    (
        "unknown key",
        lambda d: d["units"][0]["models"][0].update(colour="red"),
        "units[0].models[0].colour: unknown key (allowed: id, x, y, z, rotation, base, height, "
        "wounds, oc, keywords, extra)",
    ),
    (
        "unknown top-level key",
        lambda d: d.update(notes="x"),
        "notes: unknown key (allowed: format, version, title, ruleset, options, battlefield, "
        "deployment, players, units, reserves, terrain, objectives, markers, annotations, "
        "layout, game, extra, snapshots)",
    ),
    (
        "missing required key",
        lambda d: d["units"][0]["models"][0].pop("base"),
        "units[0].models[0].base: missing required key",
    ),
    (
        "missing battlefield",
        lambda d: d.pop("battlefield"),
        "battlefield: missing required key",
    ),
    (
        "wrong container type",
        lambda d: d.update(units={"a": 1}),
        "units: must be an array, got an object",
    ),
    (
        "lower-case keyword",
        lambda d: d["units"][0].update(keywords=["Infantry"]),
        'units[0].keywords[0]: keywords are upper case, got "Infantry"',
    ),
    (
        "unit without models",
        lambda d: d["units"][0].update(models=[]),
        "units[0].models: a unit must have at least one model",
    ),
    (
        "dangling unit player",
        lambda d: d["units"][0].update(player="green"),
        'units[0].player: unknown player "green"; known: blue, red',
    ),
    (
        "dangling objective owner",
        lambda d: d["objectives"][0].update(owner="green"),
        'objectives[0].owner: unknown player "green"; known: blue, red',
    ),
    (
        "dangling objective terrain",
        lambda d: (
            d["objectives"][0].update(role="central", terrain="ruin-9")
            or d["objectives"][0].pop("owner")
        ),
        'objectives[0].terrain: unknown terrain "ruin-9"; known: ruin-1',
    ),
    (
        "dangling marker player",
        lambda d: d["markers"][0].update(player="green"),
        'markers[0].player: unknown player "green"; known: blue, red',
    ),
    (
        "dangling deployment region player",
        lambda d: d.update(
            deployment={
                "zones": [{"id": "z", "player": "green", "polygon": [[0, 0], [60, 0], [60, 12]]}]
            }
        ),
        'deployment.zones[0].player: unknown player "green"; known: blue, red',
    ),
    (
        "dangling active player",
        lambda d: d.update(game={"active_player": "green"}),
        'game.active_player: unknown player "green"; known: blue, red',
    ),
    (
        "dangling game player",
        lambda d: d.update(game={"players": {"green": {}}}),
        'game.players.green: unknown player "green"; known: blue, red',
    ),
    (
        "home objective without owner",
        lambda d: d["objectives"][0].pop("owner"),
        "objectives[0].owner: a home objective needs an owner (a player id)",
    ),
    (
        "owner on a central objective",
        lambda d: d["objectives"][0].update(role="central"),
        "objectives[0].owner: only home objectives have an owner, this is central",
    ),
    (
        "too few points",
        lambda d: d["terrain"][0].update(area=[[0, 0], [1, 1]]),
        "terrain[0].area: must have at least 3 points, got 2",
    ),
    (
        "bad point",
        lambda d: d["terrain"][0].update(area=[[0, 0], [1, 1, 1], [1, 0]]),
        "terrain[0].area[1]: must be a point [x, y], got an array of 3 values",
    ),
    (
        "self-intersecting polygon",
        lambda d: d["terrain"][0].update(area=[[0, 0], [10, 10], [10, 0], [0, 10]]),
        "terrain[0].area: must be a valid polygon: Self-intersection[5 5]",
    ),
    (
        "unknown ruleset",
        lambda d: d.update(ruleset="wh40k-10e"),
        'ruleset: must be one of wh40k-ca2026, shared-modules, scrollhammer; got "wh40k-10e"',
    ),
    (
        "three players",
        lambda d: d["players"].append({"id": "green"}),
        "players: must list exactly two players, got 3",
    ),
    (
        "same role twice",
        lambda d: d["players"][1].update(role="attacker"),
        'players[1].role: both players cannot be the "attacker"',
    ),
    (
        "unknown deployment",
        lambda d: d.update(deployment="dawn-of-peace"),
        'deployment: unknown deployment "dawn-of-peace"; known: crucible-of-battle, dawn-of-war, '
        "hammer-and-anvil, search-and-destroy, sweeping-engagement, tipping-point",
    ),
    (
        "wrong format",
        lambda d: d.update(format="warplan.army"),
        'format: must be "warplan.scenario", got "warplan.army"',
    ),
    (
        "unknown option",
        lambda d: d.update(options={"objective_rnage": 3}),
        "options.objective_rnage: unknown key (allowed: "
        f"{', '.join(ruleset_for('wh40k-ca2026').option_checks)})",
    ),
    (
        "bad option value",
        lambda d: d.update(options={"objective_measure": "rim"}),
        'options.objective_measure: must be one of centre, edge; got "rim"',
    ),
    (
        "variant of a custom deployment",
        lambda d: d.update(options={"deployment_variant": "10in"}),
        "options.deployment_variant: applies only to a deployment map given by its id",
    ),
    (
        "unknown variant",
        lambda d: d.update(deployment="dawn-of-war", options={"deployment_variant": "11in"}),
        "options.deployment_variant: unknown variant '11in' of dawn-of-war; known: 10e, 10in, "
        "11e-candidate, 12in",
    ),
    (
        "variant of a dispute the map does not have",
        lambda d: d.update(
            deployment="hammer-and-anvil", options={"deployment_variant": {"zone_depth": "10in"}}
        ),
        "options.deployment_variant: hammer-and-anvil has no dispute 'zone_depth'; its "
        "disputes: objectives",
    ),
    (
        "option naming an unknown player",
        lambda d: d.update(ruleset="shared-modules", options={"deploys_first": "green"}),
        'options.deploys_first: unknown player "green"; known: blue, red',
    ),
    (
        "table edge of an unknown player",
        lambda d: d.update(
            ruleset="scrollhammer", options={"table_edges": {"red": "south", "green": "north"}}
        ),
        'options.table_edges.green: unknown player "green"; known: blue, red',
    ),
    (
        "table edge that is no edge",
        lambda d: d.update(ruleset="shared-modules", options={"table_edges": {"red": "up"}}),
        'options.table_edges.red: must be one of south, north, west, east; got "up"',
    ),
    (
        "mission of the wrong type",
        lambda d: d.update(ruleset="scrollhammer", options={"mission": [1]}),
        "options.mission: must be a mission id, name or number, got an array",
    ),
    (
        "modules not a list of names",
        lambda d: d.update(ruleset="shared-modules", options={"modules": ["objective-control", 3]}),
        "options.modules[1]: must be a string, got 3",
    ),
    (
        "empty id",
        lambda d: d["markers"][0].update(id=" "),
        "markers[0].id: must not be empty",
    ),
]


@pytest.mark.parametrize(
    ("change", "expected"), [r[1:] for r in REFUSALS], ids=[r[0] for r in REFUSALS]
)
def test_refusals_name_the_place_and_the_problem(change: Any, expected: str) -> None:
    assert expected in problems_of(mutated(change))


def test_duplicate_ids_name_both_places() -> None:
    document = minimal()
    document["markers"][0]["id"] = "red-i1"
    assert problems_of(document) == [
        'markers[0].id: duplicate id "red-i1": already used at units[0].models[0].id'
    ]


def test_every_problem_is_collected() -> None:
    document = minimal()
    document["units"][0]["models"][0]["base"]["diameter"] = -32
    document["terrain"][0]["area"] = [[0, 0], [1, 1]]
    document["markers"][0]["player"] = "green"
    document["battlefield"]["width"] = "wide"
    assert len(problems_of(document)) == 4


def test_feature_height_zero_and_model_height_zero_are_allowed() -> None:
    document = minimal()
    document["units"][0]["models"][0]["height"] = 0
    document["terrain"][0]["features"] = [{"shape": [[20, 14], [30, 14], [30, 14.25]], "height": 0}]
    scenario = parse_scenario(document)
    assert scenario.units[0].models[0].height == 0
    assert scenario.terrain[0].features[0].height == 0


def test_zero_area_polygon_is_refused() -> None:
    messages = problems_of(mutated(lambda d: d["terrain"][0].update(area=[[0, 0], [1, 0], [2, 0]])))
    assert messages == [
        "terrain[0].area: must enclose a non-zero area (its points lie on one line)"
    ]


OPTIONS_BY_RULESET: dict[str, dict[str, Any]] = {
    "wh40k-ca2026": {
        "objective_range": 3,
        "objective_measure": "edge",
        "engagement_vertical_range": 5,
        "obscuring": "cover-only",
    },
    "scrollhammer": {
        "objective_range": 3,
        "mission": 3,
        "table_halves": "diagonal",
        "diagonal": "NW-SE",
        "table_edges": {"red": "south", "blue": "north"},
        "section_size": 24,
    },
    "shared-modules": {
        "contest_range": 2,
        "modules": ["objective-control"],
        "deploys_first": "blue",
        "table_edges": {"red": "south", "blue": "north"},
        "formation_edge_measure": "any",
        "annihilation_counts_undeployed": True,
    },
}


@pytest.mark.parametrize("ruleset", sorted(OPTIONS_BY_RULESET))
def test_options_of_each_ruleset_are_accepted_in_its_files(ruleset: str) -> None:
    """Options are "ruleset parameters" (the format's spec): each system's own are read."""
    options = OPTIONS_BY_RULESET[ruleset]
    scenario = parse_scenario(mutated(lambda d: d.update(ruleset=ruleset, options=options)))
    assert scenario_to_json(scenario)["options"] == options


@pytest.mark.parametrize(
    ("ruleset", "key", "value", "owners"),
    [
        ("wh40k-ca2026", "mission", 3, "Scrollhammer"),
        ("wh40k-ca2026", "modules", ["objective-control"], "Shared Scenario Modules"),
        ("scrollhammer", "deploys_first", "red", "Shared Scenario Modules"),
        ("shared-modules", "relic_diameter", 25, "Scrollhammer"),
        ("wh40k-ca2026", "table_edges", {}, "Shared Scenario Modules and Scrollhammer"),
        ("wh40k-ca2026", "night_fighting_measure", "closest", "Scrollhammer"),
    ],
)
def test_another_systems_option_is_kept_as_that_system_checks_it(
    ruleset: str, key: str, value: Any, owners: str
) -> None:
    """A file that changed rule system keeps its old options: files that open today open
    tomorrow. The option is still checked by the system that reads it."""
    assert owners
    document = mutated(lambda d: d.update(ruleset=ruleset, options={key: value}))
    assert scenario_to_json(parse_scenario(document))["options"] == {key: value}


def test_another_systems_option_with_a_bad_value_is_an_error() -> None:
    messages = problems_of(
        mutated(
            lambda d: d.update(ruleset="wh40k-ca2026", options={"night_fighting_measure": 3})
        )
    )
    assert len(messages) == 1
    assert messages[0].startswith("options.night_fighting_measure: ")


def test_an_option_no_system_reads_is_an_error_listing_the_own_options() -> None:
    own = ruleset_for("wh40k-ca2026")
    messages = problems_of(mutated(lambda d: d.update(options={"objective_rnage": 3})))
    allowed = ", ".join(own.option_checks)
    assert messages == [f"options.objective_rnage: unknown key (allowed: {allowed})"]


def test_deployment_variants_are_accepted() -> None:
    for variant in ("10in", {"zone_depth": "10in", "objectives": "11e-candidate"}):
        document = mutated(
            lambda d, v=variant: d.update(
                deployment="dawn-of-war", options={"deployment_variant": v}
            )
        )
        assert parse_scenario(document).option("deployment_variant") == freeze(variant)


def test_custom_deployment_round_trips() -> None:
    zones = [
        {"id": "red-dz", "player": "red", "polygon": [[0, 0], [60, 0], [60, 12], [0, 12]]},
        {"id": "blue-dz", "player": "blue", "polygon": [[0, 32], [60, 32], [60, 44], [0, 44]]},
    ]
    document = mutated(lambda d: d.update(deployment={"zones": zones, "extra": {"why": "test"}}))
    scenario = parse_scenario(document)
    assert scenario_to_json(scenario)["deployment"] == {"zones": zones, "extra": {"why": "test"}}


def test_region_ids_share_the_document_id_space() -> None:
    zones = [{"id": "red-i1", "player": "red", "polygon": [[0, 0], [60, 0], [60, 12]]}]
    messages = problems_of(mutated(lambda d: d.update(deployment={"zones": zones})))
    assert messages == [
        'units[0].models[0].id: duplicate id "red-i1": already used at deployment.zones[0].id'
    ]


# ---------------------------------------------------------------------------------------------
# Text and files


def text_problems(text: str | bytes) -> list[str]:
    with pytest.raises(ScenarioError) as caught:
        loads_scenario(text, "f.json")
    return [str(p) for p in caught.value.problems]


def test_not_json() -> None:
    assert text_problems('{"format": ') == [
        "f.json: not valid JSON: Expecting value at line 1 column 12"
    ]


def test_not_utf8() -> None:
    assert text_problems(b'{"title": "caf\xe9"}') == [
        "f.json: not UTF-8 text: invalid byte 0xe9 at offset 14"
    ]


def test_a_byte_order_mark_is_ignored() -> None:
    text = json.dumps(minimal())
    assert loads_scenario(b"\xef\xbb\xbf" + text.encode()) == loads_scenario(text)


def test_top_level_must_be_an_object() -> None:
    assert text_problems("[1, 2]") == ["f.json: the document must be a JSON object, got an array"]


def test_duplicate_keys_are_refused_with_their_path() -> None:
    text = json.dumps(minimal()).replace('"x": 12.0', '"x": 12.0, "x": 13.0')
    assert text_problems(text) == ["units[0].models[0].x: duplicate key in one JSON object"]


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity"])
def test_non_finite_literals_are_refused_with_their_path(literal: str) -> None:
    text = json.dumps(minimal()).replace('"x": 12.0', f'"x": {literal}')
    assert text_problems(text) == [f"units[0].models[0].x: must be a finite number, got {literal}"]


def test_overflowing_number_is_refused() -> None:
    text = json.dumps(minimal()).replace('"x": 12.0', '"x": 1e999')
    assert text_problems(text) == ["units[0].models[0].x: must be a finite number, got Infinity"]


def nested_extra(levels: int) -> str:
    """A valid document whose deepest array sits at nesting level ``levels``."""
    document = minimal()
    # The document is level 1 and ``extra`` level 2; the arrays inside make up the rest.
    inner = "[" * (levels - 2) + "]" * (levels - 2)
    return json.dumps(document)[:-1] + f', "extra": {{"deep": {inner}}}}}'


def test_nesting_exactly_at_the_limit_is_accepted() -> None:
    scenario = loads_scenario(nested_extra(MAX_DEPTH))
    assert "deep" in scenario.extra


def test_nesting_one_past_the_limit_is_refused() -> None:
    assert text_problems(nested_extra(MAX_DEPTH + 1)) == [
        f"f.json: nested deeper than {MAX_DEPTH} levels of objects and arrays"
    ]


def test_very_deep_nesting_is_refused_without_recursion() -> None:
    assert text_problems("[" * 200_000 + "]" * 200_000) == [
        f"f.json: nested deeper than {MAX_DEPTH} levels of objects and arrays"
    ]


def test_brackets_inside_strings_do_not_count_as_nesting() -> None:
    document = minimal()
    document["title"] = "[{" * 100 + '\\"'
    assert loads_scenario(json.dumps(document)).title == document["title"]


def test_deep_python_structures_are_refused_too() -> None:
    deep: list[Any] = []
    for _ in range(MAX_DEPTH + 5):
        deep = [deep]
    document = minimal()
    document["extra"] = {"deep": deep}
    messages = problems_of(document)
    assert len(messages) == 1
    assert messages[0].endswith("nested deeper than 64 levels of objects and arrays")


def test_size_limit_boundary(monkeypatch: pytest.MonkeyPatch) -> None:
    text = json.dumps(minimal())
    monkeypatch.setattr(scenario_io, "MAX_FILE_BYTES", len(text))
    assert loads_scenario(text).title == ""
    monkeypatch.setattr(scenario_io, "MAX_FILE_BYTES", len(text) - 1)
    assert text_problems(text) == [
        f"f.json: file too large: {len(text)} bytes, the limit is {len(text) - 1} bytes (32 MiB)"
    ]


def test_huge_file_is_refused_before_it_is_read(tmp_path: Path) -> None:
    huge = tmp_path / "huge.warplan.json"
    with open(huge, "wb") as handle:
        handle.truncate(scenario_io.MAX_FILE_BYTES + 1)  # sparse: nothing is written
    problems = validate_path(huge)
    assert problems == [
        Problem(
            str(huge),
            f"file too large: {scenario_io.MAX_FILE_BYTES + 1} bytes, the limit is "
            f"{scenario_io.MAX_FILE_BYTES} bytes (32 MiB)",
        )
    ]


def test_missing_file_is_a_scenario_error(tmp_path: Path) -> None:
    missing = tmp_path / "nope.warplan.json"
    assert validate_path(missing) == [
        Problem(str(missing), "cannot read the file: No such file or directory")
    ]


@pytest.mark.parametrize("name", sorted(p.name for p in DATA.glob("bad-*.json")))
def test_bad_files_in_test_data_are_refused(name: str) -> None:
    expected = (DATA / name).with_suffix(".expected").read_text(encoding="utf-8").splitlines()
    found = [str(p).replace(str(DATA / name), "{file}") for p in validate_path(DATA / name)]
    assert found == expected


# ---------------------------------------------------------------------------------------------
# Versions


def test_newer_version_is_refused_clearly() -> None:
    with pytest.raises(FormatVersionError) as caught:
        parse_scenario(mutated(lambda d: d.update(version=2)))
    assert (
        str(caught.value)
        == "version: written by a newer Warplan: version 2, this program reads up to 1"
    )


@pytest.mark.parametrize("version", ["1", 1.0, True, None])
def test_version_must_be_an_integer(version: object) -> None:
    with pytest.raises(FormatVersionError, match="version: must be an integer"):
        parse_scenario(mutated(lambda d: d.update(version=version)))


def test_version_without_a_migration_is_refused() -> None:
    with pytest.raises(FormatVersionError) as caught:
        parse_scenario(mutated(lambda d: d.update(version=0)))
    assert str(caught.value) == "version: cannot read version 0: no migration from it to version 1"


def test_migrations_are_chained_in_order(monkeypatch: pytest.MonkeyPatch) -> None:
    steps: list[int] = []

    def one_to_two(document: dict[str, Any]) -> dict[str, Any]:
        steps.append(1)
        document["title"] = document.pop("caption")
        return document

    def two_to_three(document: dict[str, Any]) -> dict[str, Any]:
        steps.append(2)
        document["title"] = document["title"].upper()
        return document

    monkeypatch.setattr(scenario_io, "FORMAT_VERSION", 3)
    monkeypatch.setitem(scenario_io.MIGRATIONS, 1, one_to_two)
    monkeypatch.setitem(scenario_io.MIGRATIONS, 2, two_to_three)
    original = mutated(lambda d: d.update(caption="old title"))
    kept = copy.deepcopy(original)
    scenario = parse_scenario(original)
    assert steps == [1, 2]
    assert scenario.title == "OLD TITLE"
    assert scenario.version == 3
    assert original == kept, "migrations work on a copy"
    assert scenario_to_json(scenario)["version"] == 3
    # A version 2 file takes only the last step.
    steps.clear()
    assert parse_scenario(mutated(lambda d: d.update(version=2, title="mid"))).title == "MID"
    assert steps == [2]


# ---------------------------------------------------------------------------------------------
# Atomic save


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def test_save_writes_a_file_that_loads_back(tmp_path: Path) -> None:
    scenario = parse_scenario(minimal())
    target = tmp_path / "new.warplan.json"
    save_scenario(scenario, target)
    assert load_scenario(target) == scenario
    assert leftovers(tmp_path) == []


def test_save_keeps_the_permissions_of_the_file_it_replaces(tmp_path: Path) -> None:
    target = tmp_path / "s.warplan.json"
    target.write_text("old", encoding="utf-8")
    os.chmod(target, 0o640)
    save_scenario(parse_scenario(minimal()), target)
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o640


def test_save_syncs_the_data_before_renaming(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    events: list[str] = []
    real_fsync, real_replace = os.fsync, os.replace
    monkeypatch.setattr(os, "fsync", lambda fd: (events.append("fsync"), real_fsync(fd))[1])
    monkeypatch.setattr(
        os, "replace", lambda a, b: (events.append("replace"), real_replace(a, b))[1]
    )
    save_scenario(parse_scenario(minimal()), tmp_path / "s.warplan.json")
    assert events[:2] == ["fsync", "replace"]


def test_failed_save_leaves_the_old_file_and_no_temporary_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "s.warplan.json"
    target.write_text("the old document", encoding="utf-8")

    def broken_replace(source: str, destination: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError, match="No space left"):
        save_scenario(parse_scenario(minimal()), target)
    assert target.read_text(encoding="utf-8") == "the old document"
    assert leftovers(tmp_path) == []


def test_invalid_scenario_is_not_saved(tmp_path: Path) -> None:
    target = tmp_path / "s.warplan.json"
    target.write_text("the old document", encoding="utf-8")
    scenario = parse_scenario(minimal())
    broken = scenario.with_models([Model("red-i1", float("nan"), 1.0, CircleBase(32))])
    with pytest.raises(ScenarioError):
        save_scenario(broken, target)
    negative = scenario.with_models([Model("red-i1", 1.0, 1.0, CircleBase(-32))])
    with pytest.raises(ScenarioError, match="diameter: must be a positive number, got -32"):
        save_scenario(negative, target)
    assert target.read_text(encoding="utf-8") == "the old document"
    assert leftovers(tmp_path) == []


def test_scenario_type_is_unchanged_by_saving(tmp_path: Path) -> None:
    scenario = load_scenario(ASSETS / "demo.warplan.json")
    save_scenario(scenario, tmp_path / "copy.warplan.json")
    assert isinstance(load_scenario(tmp_path / "copy.warplan.json"), Scenario)
    assert load_scenario(tmp_path / "copy.warplan.json") == scenario


def test_a_failing_migration_is_a_format_error(monkeypatch: pytest.MonkeyPatch) -> None:
    def needs_caption(document: dict[str, Any]) -> dict[str, Any]:
        document["title"] = document.pop("caption")
        return document

    monkeypatch.setattr(scenario_io, "FORMAT_VERSION", 2)
    monkeypatch.setitem(scenario_io.MIGRATIONS, 1, needs_caption)
    with pytest.raises(FormatVersionError) as caught:
        parse_scenario(minimal())
    assert (
        str(caught.value) == "version: cannot migrate version 1 to version 2: KeyError: 'caption'"
    )


def base_shape(model: Model) -> Any:
    """A fine outline of a base, independent of engine.geometry (for layout checks only)."""
    base = model.base
    if isinstance(base, CircleBase):
        shape = shapely.Point(0, 0).buffer(base.radius, quad_segs=64)
    elif isinstance(base, OvalBase):
        shape = affinity.scale(shapely.Point(0, 0).buffer(1, quad_segs=64), *base.semi_axes)
    else:
        half_length, half_width = base.half_extents
        shape = shapely.box(-half_length, -half_width, half_length, half_width)
    shape = affinity.rotate(shape, model.rotation, origin=(0, 0))
    return affinity.translate(shape, model.x, model.y)


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_layouts_have_no_overlapping_bases_or_models_in_walls(name: str) -> None:
    scenario = load_scenario(ASSETS / name)
    bases = [(m.id, base_shape(m)) for _, m in scenario.all_models()]
    table = shapely.box(0, 0, scenario.battlefield.width, scenario.battlefield.depth)
    for index, (model_id, shape) in enumerate(bases):
        assert table.covers(shape), model_id
        for other_id, other in bases[index + 1 :]:
            assert not shape.intersects(other), (model_id, other_id)
        for piece in scenario.terrain:
            for feature in piece.features:
                assert not shape.intersects(shapely.Polygon(feature.shape)), (model_id, piece.id)
            if piece.impassable:
                assert not shape.intersects(shapely.Polygon(piece.area)), (model_id, piece.id)


def test_demo_shows_the_overlays_it_promises() -> None:
    evaluate = pytest.importorskip("engine.evaluate").evaluate
    result = evaluate(load_scenario(ASSETS / "demo.warplan.json"), visibility=False).to_json()
    control = {o["id"]: o["controlled_by"] for o in result["objectives"]}
    assert control == {
        "obj-centre": [],
        "obj-home-red": ["red"],
        "obj-home-blue": ["blue"],
        "obj-expansion-w": ["red"],
        "obj-expansion-e": ["blue"],
    }
    centre = next(o for o in result["objectives"] if o["id"] == "obj-centre")
    assert centre["level"] == {"red": 2, "blue": 2}
    engaged = {u["id"]: u["engaged_with"] for u in result["units"] if u["engaged_with"]}
    assert engaged == {
        "red-intercessors": ["blue-neophytes"],
        "blue-neophytes": ["red-intercessors"],
    }
    deployed = {u["id"] for u in result["units"] if u["zones_wholly_within"]}
    assert deployed
    assert deployed != {u["id"] for u in result["units"]}


def test_spec_example_concludes_what_the_spec_prints() -> None:
    evaluate = pytest.importorskip("engine.evaluate").evaluate
    result = evaluate(
        load_scenario(ASSETS / "spec-example.warplan.json"), visibility=False
    ).to_json()
    intercessors = next(u for u in result["units"] if u["id"] == "red-intercessors")
    assert intercessors["quarter"] == "SW"
    assert intercessors["engaged_with"] == ["blue-boyz"]
    assert intercessors["zones_wholly_within"] == ["red-dz"]
    assert intercessors["territory"] == "red"


def test_one_line_arrays_never_change_a_string() -> None:
    tricky = ["A]B", "[", ", ", "X\nY", '"],\n  ["', "\\", "é ✓"]
    document = minimal()
    document["units"][0]["keywords"] = [word.upper() for word in tricky]
    document["extra"] = {"strings": tricky, "nested": [tricky, {"k": tricky}]}
    scenario = parse_scenario(document)
    text = dumps_scenario(scenario)
    assert loads_scenario(text) == scenario
    assert json.loads(text)["extra"] == document["extra"]
    assert '"area": [\n        [20, 14],\n' in text
