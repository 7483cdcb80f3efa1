"""Lessons: a rule taught step by step on the board, with questions the engine answers.

A lesson file (``*.warplan-lesson.json``, ``docs/lesson-format.md``) holds steps; each step is a
whole scenario or a list of changes to the previous step's board, a short text, the overlays to
show, the ids to select and optionally a question. The right answer is never stored: the engine
works it out from the step's board (:func:`answer`), and a lesson whose choices miss it is
refused when read.

>>> board = {"format": "warplan.scenario", "version": 1, "ruleset": "wh40k-ca2026",
...          "battlefield": {"width": 60, "depth": 44}, "players": [{"id": "red"}, {"id": "blue"}],
...          "objectives": [{"id": "obj", "x": 30, "y": 22}],
...          "units": [{"id": "r", "player": "red", "oc": 2, "models": [
...              {"id": "r1", "x": 30, "y": 19, "base": {"shape": "circle", "diameter": 32}}]}]}
>>> lesson = parse_lesson({"format": "warplan.lesson", "version": 1, "title": "Control",
...     "ruleset": "wh40k-ca2026", "steps": [
...     {"title": "In range", "text": "Red stands by the marker.", "scenario": board,
...      "question": {"prompt": "Who controls obj?",
...                   "ask": {"kind": "objective-control", "objective": "obj"},
...                   "choices": ["red", "blue", "nobody"]}},
...     {"title": "Out of range", "text": "Red steps back.",
...      "changes": [{"move": {"id": "r1", "x": 30, "y": 10}}],
...      "question": {"prompt": "And now?",
...                   "ask": {"kind": "objective-control", "objective": "obj"},
...                   "choices": ["red", "blue", "nobody"]}}]})
>>> [answer(step, board_at(lesson, k)).choice for k, step in enumerate(lesson.steps)]
['red', 'nobody']
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.areas import regions
from engine.errors import LessonError, Problem, ScenarioError, WarplanError
from engine.evaluate import evaluate
from engine.explain import inches
from engine.format_messages import show
from engine.geometry import model_distance
from engine.model import RULESETS, Scenario, freeze, thaw
from engine.scenario_io import (
    parse_scenario,
    read_json_file,
    scan_json,
    scenario_to_json,
    write_atomically,
)
from engine.visibility import PairVisibility, visibility

LESSON_FORMAT = "warplan.lesson"
LESSON_VERSION = 1
LESSON_SUFFIX = ".warplan-lesson.json"

QUARTERS = ("NE", "NW", "SE", "SW")
YES_NO = ("yes", "no")

CHANGE_KINDS = ("move", "status", "option", "add_unit", "remove", "add_terrain", "game")
"""The changes a step may make to the previous step's board (see ``docs/lesson-format.md``)."""


# ---------------------------------------------------------------------------------------------
# Values


@dataclass(frozen=True)
class Question:
    """A question about the step's board: the prompt, what the engine is asked and the choices
    offered (one of which is the engine's answer)."""

    prompt: str
    ask: Mapping[str, str]
    choices: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"prompt": self.prompt, "ask": dict(self.ask), "choices": list(self.choices)}


@dataclass(frozen=True)
class LessonStep:
    """One step: a whole ``scenario`` (the first step has one) or ``changes`` to the previous
    step's board (frozen JSON, as in the file)."""

    title: str
    text: str
    scenario: Scenario | None = None
    changes: tuple[Mapping[str, Any], ...] = ()
    overlays: tuple[str, ...] = ()
    select: tuple[str, ...] = ()
    question: Question | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"title": self.title, "text": self.text}
        if self.scenario is not None:
            data["scenario"] = scenario_to_json(self.scenario)
        else:
            data["changes"] = [thaw(change) for change in self.changes]
        data["overlays"] = list(self.overlays)
        data["select"] = list(self.select)
        if self.question is not None:
            data["question"] = self.question.to_json()
        return data


@dataclass(frozen=True)
class Lesson:
    """A whole lesson; ``boards`` holds each step's board, worked out when it was read."""

    title: str
    summary: str
    ruleset: str
    steps: tuple[LessonStep, ...]
    boards: tuple[Scenario, ...] = field(repr=False, compare=False)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": LESSON_FORMAT,
            "version": LESSON_VERSION,
            "title": self.title,
            "summary": self.summary,
            "ruleset": self.ruleset,
            "steps": [step.to_json() for step in self.steps],
        }


@dataclass(frozen=True)
class Answer:
    """The engine's answer to a question (one of the choices) and why, as the ruling says it."""

    choice: str
    explanation_text: str


# ---------------------------------------------------------------------------------------------
# Questions: what the engine answers


@dataclass(frozen=True)
class AskKind:
    """One kind of question: the ids it names (``objective``, ``unit``...), optional ones, the
    choices it offers on a board and how the engine answers it."""

    name: str
    description: str
    keys: tuple[tuple[str, str], ...]
    """Each required key and what it names: ``"unit"``, ``"objective"``, ``"zone"``..."""
    optional: tuple[tuple[str, str], ...]
    choices: Callable[[Scenario, Mapping[str, str]], tuple[str, ...]]
    solve: Callable[[Scenario, Mapping[str, str]], Answer]


def _player_choices(scenario: Scenario, ask: Mapping[str, str]) -> tuple[str, ...]:
    return (*scenario.player_ids(), "nobody", "contested", "shared")


def _yes_no(scenario: Scenario, ask: Mapping[str, str]) -> tuple[str, ...]:
    return YES_NO


def _quarter_choices(scenario: Scenario, ask: Mapping[str, str]) -> tuple[str, ...]:
    return YES_NO if "quarter" in ask else (*QUARTERS, "none")


def _zone_choices(scenario: Scenario, ask: Mapping[str, str]) -> tuple[str, ...]:
    if "zone" in ask:
        return YES_NO
    return (*_ids_of("zone", scenario), "none")


def _territory_choices(scenario: Scenario, ask: Mapping[str, str]) -> tuple[str, ...]:
    return (*scenario.player_ids(), "none")


def _solve_control(scenario: Scenario, ask: Mapping[str, str]) -> Answer:
    evaluation = evaluate(scenario, visibility=False)
    control = evaluation.objective(ask["objective"])
    verdict = control.verdict
    choice = {
        "controlled": control.controlled_by[0] if control.controlled_by else "nobody",
        "shared": "shared",
        "contested": "contested",
        "uncontrolled": "nobody",
    }[verdict]
    return Answer(choice, evaluation.objective_ruling_text(control.id))


def _solve_within(scenario: Scenario, ask: Mapping[str, str]) -> Answer:
    evaluation = evaluate(scenario, visibility=False)
    control = evaluation.objective(ask["objective"])
    unit = scenario.unit(ask["unit"])
    measured = [m for m in control.measures if m.unit_id == unit.id]
    inside = [m for m in measured if m.in_range]
    rules = evaluation.rules
    where = "its marker's edge" if rules.measure == "edge" else "its centre"
    if inside:
        closest = min(inside, key=lambda m: m.distance)
        line = (
            f"{unit.id} is within range of {control.id}: {closest.model_id} is "
            f"{inches(closest.distance)} from {where} (within {inches(rules.objective_range)})"
        )
    elif measured:
        closest = min(measured, key=lambda m: m.distance)
        line = (
            f"{unit.id} is not within range of {control.id}: its closest model "
            f"{closest.model_id} is {inches(closest.distance)} from {where}, vertically "
            f"{inches(closest.vertical)} (range {inches(rules.objective_range)})"
        )
    else:
        line = (
            f"{unit.id} is not within range of {control.id}: no model of it is within "
            f"{inches(rules.objective_range)} of {where}"
        )
    choice = "yes" if inside else "no"
    return Answer(choice, f"{line}\n{evaluation.objective_ruling_text(control.id)}")


def _solve_engaged(scenario: Scenario, ask: Mapping[str, str]) -> Answer:
    evaluation = evaluate(scenario, visibility=False)
    first, second = scenario.unit(ask["unit"]).id, scenario.unit(ask["with"]).id
    rules = evaluation.engagements.rules
    limit = f"{inches(rules.horizontal)} horizontally"
    if rules.vertical is not None:
        limit += f" and {inches(rules.vertical)} vertically"
    pairs = [
        pair
        for pair in evaluation.engagements.pairs_of(first)
        if second in (pair.unit_a, pair.unit_b)
    ]
    if pairs:
        closest = min(pairs, key=lambda pair: pair.distance)
        text = (
            f"{first} and {second} are engaged: {closest.model_a} is "
            f"{inches(closest.distance)} from {closest.model_b} (within {limit}) "
            f"[{rules.rule}]"
        )
        return Answer("yes", text)
    distance, vertical, model_a, model_b = min(
        (model_distance(a, b), abs(a.z - b.z), a.id, b.id)
        for a in scenario.unit(first).models
        for b in scenario.unit(second).models
    )
    text = (
        f"{first} and {second} are not engaged: their closest models {model_a} and {model_b} "
        f"are {inches(distance)} apart horizontally and {inches(vertical)} vertically "
        f"(engagement range: within {limit}) [{rules.rule}]"
    )
    return Answer("no", text)


def _sight(scenario: Scenario, ask: Mapping[str, str]) -> PairVisibility:
    observer, target = scenario.unit(ask["observer"]), scenario.unit(ask["target"])
    if observer.player == target.player:
        raise LessonError(
            [Problem("ask", f"{observer.id} and {target.id} belong to the same player")]
        )
    return next(pair for pair in visibility(scenario, (observer.id,)) if pair.target == target.id)


def _solve_sight(attribute: str, words: str) -> Callable[[Scenario, Mapping[str, str]], Answer]:
    def solve(scenario: Scenario, ask: Mapping[str, str]) -> Answer:
        pair = _sight(scenario, ask)
        value = bool(getattr(pair, attribute))
        verdict = f"{pair.target} {'is' if value else 'is not'} {words} {pair.observer}"
        if attribute == "cover":
            verdict = (
                f"{pair.target} {'has' if value else 'does not have'} the benefit of cover "
                f"against {pair.observer}"
            )
        lines = [verdict, pair.explanation] if pair.explanation else [verdict]
        if pair.blockers:
            lines.append(f"in the way: {', '.join(pair.blockers)}")
        return Answer("yes" if value else "no", "\n".join(lines))

    return solve


def _solve_quarter(scenario: Scenario, ask: Mapping[str, str]) -> Answer:
    evaluation = evaluate(scenario, visibility=False)
    ruling = evaluation.unit(scenario.unit(ask["unit"]).id)
    text = ruling.explanation.text()
    if "quarter" in ask:
        return Answer("yes" if ruling.quarter == ask["quarter"] else "no", text)
    return Answer(ruling.quarter or "none", text)


def _solve_zone(scenario: Scenario, ask: Mapping[str, str]) -> Answer:
    evaluation = evaluate(scenario, visibility=False)
    ruling = evaluation.unit(scenario.unit(ask["unit"]).id)
    text = ruling.explanation.text()
    zones = ruling.zones_wholly_within
    if "zone" in ask:
        return Answer("yes" if ask["zone"] in zones else "no", text)
    return Answer(zones[0] if zones else "none", text)


def _solve_territory(scenario: Scenario, ask: Mapping[str, str]) -> Answer:
    evaluation = evaluate(scenario, visibility=False)
    ruling = evaluation.unit(scenario.unit(ask["unit"]).id)
    return Answer(ruling.territory or "none", ruling.explanation.text())


def _solve_centre(scenario: Scenario, ask: Mapping[str, str]) -> Answer:
    evaluation = evaluate(scenario, visibility=False)
    ruling = evaluation.unit(scenario.unit(ask["unit"]).id)
    return Answer("yes" if ruling.within_6_of_centre else "no", ruling.explanation.text())


ASK_KINDS: Mapping[str, AskKind] = {
    kind.name: kind
    for kind in (
        AskKind(
            "objective-control",
            "who controls an objective: a player, nobody, contested or shared",
            (("objective", "objective"),),
            (),
            _player_choices,
            _solve_control,
        ),
        AskKind(
            "within",
            "is a unit within range of an objective (yes/no)",
            (("unit", "unit"), ("objective", "objective")),
            (),
            _yes_no,
            _solve_within,
        ),
        AskKind(
            "engaged",
            "are two units engaged (yes/no)",
            (("unit", "unit"), ("with", "unit")),
            (),
            _yes_no,
            _solve_engaged,
        ),
        AskKind(
            "visible",
            "is the target visible to the observer (yes/no)",
            (("observer", "unit"), ("target", "unit")),
            (),
            _yes_no,
            _solve_sight("visible", "visible to"),
        ),
        AskKind(
            "fully-visible",
            "is the target fully visible to the observer (yes/no)",
            (("observer", "unit"), ("target", "unit")),
            (),
            _yes_no,
            _solve_sight("fully_visible", "fully visible to"),
        ),
        AskKind(
            "cover",
            "does the target have the benefit of cover against the observer (yes/no)",
            (("observer", "unit"), ("target", "unit")),
            (),
            _yes_no,
            _solve_sight("cover", "in cover from"),
        ),
        AskKind(
            "quarter",
            "which table quarter a unit is wholly within (or, with quarter, is it in that one)",
            (("unit", "unit"),),
            (("quarter", "quarter"),),
            _quarter_choices,
            _solve_quarter,
        ),
        AskKind(
            "wholly-within-zone",
            "which deployment zone a unit is wholly within (or, with zone, is it in that one)",
            (("unit", "unit"),),
            (("zone", "zone"),),
            _zone_choices,
            _solve_zone,
        ),
        AskKind(
            "territory",
            "whose territory a unit is in (a player, or none)",
            (("unit", "unit"),),
            (),
            _territory_choices,
            _solve_territory,
        ),
        AskKind(
            "within-centre",
            'is a unit within 6" of the centre of the battlefield (yes/no)',
            (("unit", "unit"),),
            (),
            _yes_no,
            _solve_centre,
        ),
    )
}
"""Every kind of question, by the name a file's ``ask.kind`` gives."""


def choices_for(ask: Mapping[str, str], scenario: Scenario) -> tuple[str, ...]:
    """The choices a question of this kind offers on ``scenario`` (what the editor proposes).

    >>> from engine.model import Player, Scenario
    >>> s = Scenario("wh40k-ca2026", (Player("red"), Player("blue")))
    >>> choices_for({"kind": "objective-control", "objective": "o"}, s)
    ('red', 'blue', 'nobody', 'contested', 'shared')
    """
    return ASK_KINDS[ask["kind"]].choices(scenario, ask)


def answer(step: LessonStep, scenario: Scenario) -> Answer:
    """The engine's answer to ``step``'s question on ``scenario`` (the step's board, from
    :func:`board_at`), with its explanation. ``LessonError`` when the step asks nothing or names
    what the board does not hold."""
    if step.question is None:
        raise LessonError([Problem("question", f"step {step.title!r} asks no question")])
    return solve(step.question.ask, scenario)


def solve(ask: Mapping[str, str], scenario: Scenario) -> Answer:
    """The engine's answer to one ``ask`` on ``scenario``."""
    problems = _ask_problems(ask, scenario, "ask")
    if problems:
        raise LessonError(problems)
    try:
        return ASK_KINDS[ask["kind"]].solve(scenario, ask)
    except LessonError:
        raise
    except WarplanError as error:
        raise LessonError([Problem("ask", f"the engine cannot answer it: {error}")]) from None


def _ask_problems(ask: Mapping[str, Any], scenario: Scenario, path: str) -> list[Problem]:
    kind = ASK_KINDS.get(str(ask.get("kind")))
    if kind is None:
        return [
            Problem(
                f"{path}.kind",
                f"must be one of {', '.join(ASK_KINDS)}, got {show(ask.get('kind'))}",
            )
        ]
    problems: list[Problem] = []
    known = {"kind", *(key for key, _ in kind.keys), *(key for key, _ in kind.optional)}
    for key in ask:
        if key not in known:
            problems.append(Problem(f"{path}.{key}", f"is not a key of a {kind.name} question"))
    for key, names in (*kind.keys, *((k, n) for k, n in kind.optional if k in ask)):
        value = ask.get(key)
        if not isinstance(value, str):
            problems.append(Problem(f"{path}.{key}", f"must name a {names}, got {show(value)}"))
        elif value not in _ids_of(names, scenario):
            problems.append(Problem(f"{path}.{key}", f"no {names} {value!r} on this step's board"))
    return problems


def ids_for(names: str, scenario: Scenario) -> tuple[str, ...]:
    """The ids a question key of this sort may name on ``scenario`` (``"unit"``,
    ``"objective"``, ``"quarter"``, ``"zone"``): what the editor lists."""
    return _ids_of(names, scenario)


def _ids_of(names: str, scenario: Scenario) -> tuple[str, ...]:
    if names == "unit":
        return tuple(unit.id for unit in scenario.units)
    if names == "objective":
        return tuple(objective.id for objective in scenario.objectives)
    if names == "quarter":
        return QUARTERS
    return tuple(region.id for region in regions(scenario).zones)


# ---------------------------------------------------------------------------------------------
# Boards


def board_at(lesson: Lesson, index: int) -> Scenario:
    """The board of step ``index``: its scenario, or the previous board with its changes."""
    if not 0 <= index < len(lesson.steps):
        raise LessonError(
            [Problem("steps", f"no step {index} (the lesson has {len(lesson.steps)})")]
        )
    return lesson.boards[index]


def apply_changes(
    scenario: Scenario, changes: Sequence[Mapping[str, Any]], path: str = "changes"
) -> Scenario:
    """``scenario`` with ``changes`` made (the step format's changes); the result is read back
    as a file would be, so a change that breaks the format is refused with its place."""
    document = scenario_to_json(scenario)
    problems: list[Problem] = []
    for k, change in enumerate(changes):
        place = f"{path}[{k}]"
        if not isinstance(change, Mapping) or len(change) != 1:
            problems.append(
                Problem(place, f"must be an object with one of {', '.join(CHANGE_KINDS)}")
            )
            continue
        ((kind, value),) = change.items()
        if kind not in CHANGE_KINDS:
            problems.append(
                Problem(
                    place, f"unknown change {kind!r}: expected one of {', '.join(CHANGE_KINDS)}"
                )
            )
            continue
        problems.extend(_CHANGES[kind](document, thaw(value), f"{place}.{kind}"))
    if problems:
        raise LessonError(problems)
    try:
        return parse_scenario(document)
    except ScenarioError as error:
        raise LessonError(
            Problem(f"{path} (the board they make): {p.path}", p.message) for p in error.problems
        ) from None


def _move(document: dict[str, Any], value: Any, place: str) -> list[Problem]:
    if not isinstance(value, dict) or not isinstance(value.get("id"), str):
        return [Problem(place, 'must be {"id": MODEL_OR_UNIT, "x": X, "y": Y}')]
    x, y = value.get("x"), value.get("y")
    # bool is an int to Python, never a coordinate to the format.
    if (
        not isinstance(x, int | float)
        or not isinstance(y, int | float)
        or bool in (type(x), type(y))
    ):
        return [Problem(place, f"x and y must be numbers, got {show(x)} and {show(y)}")]
    extras = sorted(set(value) - {"id", "x", "y", "z", "rotation"})
    if extras:
        return [Problem(f"{place}.{extras[0]}", "is not a key of a move")]
    for unit in document.get("units", []):
        if unit["id"] == value["id"] and unit["models"]:
            lead = unit["models"][0]
            dx, dy = float(x) - lead["x"], float(y) - lead["y"]
            for model in unit["models"]:
                model["x"], model["y"] = model["x"] + dx, model["y"] + dy
            return []
        for model in unit["models"]:
            if model["id"] == value["id"]:
                model["x"], model["y"] = float(x), float(y)
                for key in ("z", "rotation"):
                    if key in value:
                        model[key] = value[key]
                return []
    return [Problem(f"{place}.id", f"no model or unit {value['id']!r} on the board")]


def _status(document: dict[str, Any], value: Any, place: str) -> list[Problem]:
    if not isinstance(value, dict) or not isinstance(value.get("unit"), str):
        return [Problem(place, 'must be {"unit": UNIT, "battle_shocked": true|false, ...}')]
    for unit in document.get("units", []):
        if unit["id"] == value["unit"]:
            status = dict(unit.get("status", {}))
            status.update({k: v for k, v in value.items() if k != "unit"})
            unit["status"] = status
            return []
    return [Problem(f"{place}.unit", f"no unit {value['unit']!r} on the board")]


def _option(document: dict[str, Any], value: Any, place: str) -> list[Problem]:
    if not isinstance(value, dict):
        return [Problem(place, "must be an object of option keys and values (null removes)")]
    options = dict(document.get("options", {}))
    for key, option in value.items():
        if option is None:
            options.pop(key, None)
        else:
            options[key] = option
    document["options"] = options
    return []


def _game(document: dict[str, Any], value: Any, place: str) -> list[Problem]:
    if not isinstance(value, dict):
        return [Problem(place, "must be an object of game keys and values (null removes)")]
    game = dict(document.get("game") or {})
    for key, entry in value.items():
        if entry is None:
            game.pop(key, None)
        else:
            game[key] = entry
    document["game"] = game
    return []


def _add(section: str) -> Callable[[dict[str, Any], Any, str], list[Problem]]:
    def add(document: dict[str, Any], value: Any, place: str) -> list[Problem]:
        if not isinstance(value, dict):
            return [Problem(place, f"must be one entry of the scenario's {section}")]
        document.setdefault(section, []).append(value)
        return []

    return add


def _remove(document: dict[str, Any], value: Any, place: str) -> list[Problem]:
    for section in ("units", "terrain", "objectives", "markers"):
        entries = document.get(section, [])
        kept = [entry for entry in entries if entry.get("id") != value]
        if len(kept) != len(entries):
            document[section] = kept
            return []
    return [Problem(place, f"no unit, terrain piece, objective or marker {show(value)}")]


_CHANGES: Mapping[str, Callable[[dict[str, Any], Any, str], list[Problem]]] = {
    "move": _move,
    "status": _status,
    "option": _option,
    "game": _game,
    "add_unit": _add("units"),
    "add_terrain": _add("terrain"),
    "remove": _remove,
}


def changes_between(before: Scenario, after: Scenario) -> tuple[dict[str, Any], ...] | None:
    """The ``move`` changes that turn ``before`` into ``after`` when only models moved (one
    per moved model), else ``None`` (the step must then hold the whole scenario).

    >>> from engine.model import CircleBase, Model, Player, Scenario, Unit
    >>> red = Unit("r", "red", (Model("r1", 1.0, 1.0, CircleBase(32)),))
    >>> s = Scenario("wh40k-ca2026", (Player("red"), Player("blue")), units=(red,))
    >>> changes_between(s, s.with_unit_moved("r", 2.0, 0.0))
    ({'move': {'id': 'r1', 'x': 3.0, 'y': 1.0}},)
    """
    old, new = scenario_to_json(before), scenario_to_json(after)
    old_units, new_units = old.pop("units", []), new.pop("units", [])
    if old != new or len(old_units) != len(new_units):
        return None
    moves: list[dict[str, Any]] = []
    for old_unit, new_unit in zip(old_units, new_units, strict=True):
        old_models, new_models = old_unit.pop("models"), new_unit.pop("models")
        if old_unit != new_unit or len(old_models) != len(new_models):
            return None
        for old_model, new_model in zip(old_models, new_models, strict=True):
            moved = {k: new_model.get(k) for k in ("x", "y")}
            if {**old_model, **moved} != new_model or old_model["id"] != new_model["id"]:
                return None
            if moved != {k: old_model.get(k) for k in ("x", "y")}:
                moves.append({"move": {"id": new_model["id"], **moved}})
    return tuple(moves)


# ---------------------------------------------------------------------------------------------
# Reading


def parse_lesson(data: object, source: str = "") -> Lesson:
    """Validate a decoded lesson document and build it, working out every step's board and
    checking every question against the engine. ``LessonError`` lists every problem, each
    naming the step and key (``steps[2].question.choices: ...``)."""
    scanned = scan_json(data)
    if scanned:
        raise LessonError(scanned)
    if not isinstance(data, Mapping):
        raise LessonError([Problem(source, f"a lesson must be a JSON object, got {show(data)}")])
    problems: list[Problem] = []
    if data.get("format") != LESSON_FORMAT:
        problems.append(
            Problem("format", f"must be {LESSON_FORMAT!r}, got {show(data.get('format'))}")
        )
    version = data.get("version")
    if isinstance(version, int) and not isinstance(version, bool) and version > LESSON_VERSION:
        problems.append(
            Problem(
                "version",
                f"lesson format version {version} is newer than this Warplan reads "
                f"({LESSON_VERSION}): update Warplan",
            )
        )
    elif version != LESSON_VERSION:
        problems.append(Problem("version", f"must be {LESSON_VERSION}, got {show(version)}"))
    known = {"format", "version", "title", "summary", "ruleset", "steps"}
    problems.extend(
        Problem(str(key), "is not a key of a lesson") for key in data if key not in known
    )
    title = _text(data, "title", "", problems, required=True)
    summary = _text(data, "summary", "", problems)
    rule_system = data.get("ruleset")
    if rule_system not in RULESETS:
        problems.append(
            Problem("ruleset", f"must be one of {', '.join(RULESETS)}, got {show(rule_system)}")
        )
    steps_data = data.get("steps")
    if not isinstance(steps_data, list) or not steps_data:
        problems.append(
            Problem("steps", f"must be a non-empty list of steps, got {show(steps_data)}")
        )
        raise LessonError(problems)
    steps: list[LessonStep] = []
    boards: list[Scenario] = []
    for k, step_data in enumerate(steps_data):
        previous = boards[-1] if boards else None
        built = _step(step_data, f"steps[{k}]", previous, rule_system, problems)
        if built is None:
            break
        steps.append(built[0])
        boards.append(built[1])
    if problems:
        raise LessonError(problems)
    return Lesson(title, summary, str(rule_system), tuple(steps), tuple(boards))


def _text(
    data: Mapping[str, Any],
    key: str,
    place: str,
    problems: list[Problem],
    *,
    required: bool = False,
) -> str:
    path = f"{place}.{key}" if place else key
    value = data.get(key)
    if value is None and not required:
        return ""
    if not isinstance(value, str) or (required and not value.strip()):
        problems.append(
            Problem(path, f"must be {'non-empty ' if required else ''}text, got {show(value)}")
        )
        return ""
    return value


def _ids(data: Mapping[str, Any], key: str, place: str, problems: list[Problem]) -> tuple[str, ...]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        problems.append(Problem(f"{place}.{key}", f"must be a list of names, got {show(value)}"))
        return ()
    return tuple(value)


def _step(
    data: object,
    place: str,
    previous: Scenario | None,
    rule_system: object,
    problems: list[Problem],
) -> tuple[LessonStep, Scenario] | None:
    """One step and its board, or ``None`` when no board can be made (later steps, which build
    on it, are then not examined)."""
    if not isinstance(data, Mapping):
        problems.append(Problem(place, f"a step must be an object, got {show(data)}"))
        return None
    known = {"title", "text", "scenario", "changes", "overlays", "select", "question"}
    problems.extend(
        Problem(f"{place}.{key}", "is not a key of a step") for key in data if key not in known
    )
    title = _text(data, "title", place, problems, required=True)
    text = _text(data, "text", place, problems)
    overlays = _ids(data, "overlays", place, problems)
    select = _ids(data, "select", place, problems)
    scenario: Scenario | None = None
    changes: tuple[Mapping[str, Any], ...] = ()
    if "scenario" in data and "changes" in data:
        problems.append(Problem(place, "has both scenario and changes: give one"))
        return None
    if "scenario" in data:
        try:
            scenario = parse_scenario(data["scenario"], f"{place}.scenario")
        except ScenarioError as error:
            problems.extend(
                Problem(f"{place}.scenario.{p.path}" if p.path else f"{place}.scenario", p.message)
                for p in error.problems
            )
            return None
        if rule_system != scenario.ruleset:
            problems.append(
                Problem(
                    f"{place}.scenario.ruleset",
                    f"the lesson is for {show(rule_system)}, this board for {scenario.ruleset!r}",
                )
            )
        board = scenario
    elif previous is None:
        problems.append(Problem(f"{place}.scenario", "the first step must hold a whole scenario"))
        return None
    else:
        raw = data.get("changes")
        if not isinstance(raw, list):
            problems.append(
                Problem(f"{place}.changes", f"must be a list of changes, got {show(raw)}")
            )
            return None
        try:
            board = apply_changes(previous, raw, f"{place}.changes")
        except LessonError as error:
            problems.extend(error.problems)
            return None
        changes = tuple(freeze(change) for change in raw)
    every_id = {
        *(u.id for u in board.units),
        *(m.id for _, m in board.all_models()),
        *(t.id for t in board.terrain),
        *(o.id for o in board.objectives),
        *(m.id for m in board.markers),
    }
    for k, selected in enumerate(select):
        if selected not in every_id:
            problems.append(
                Problem(f"{place}.select[{k}]", f"no {selected!r} on this step's board")
            )
    question = _question(data.get("question"), f"{place}.question", board, problems)
    step = LessonStep(title, text, scenario, changes, overlays, select, question)
    return step, board


def _question(
    data: object, place: str, board: Scenario, problems: list[Problem]
) -> Question | None:
    if data is None:
        return None
    if not isinstance(data, Mapping):
        problems.append(Problem(place, f"must be an object, got {show(data)}"))
        return None
    extras = [key for key in data if key not in ("prompt", "ask", "choices")]
    problems.extend(Problem(f"{place}.{key}", "is not a key of a question") for key in extras)
    prompt = _text(data, "prompt", place, problems, required=True)
    ask = data.get("ask")
    choices = data.get("choices")
    if not isinstance(ask, Mapping):
        problems.append(Problem(f"{place}.ask", f"must be an object, got {show(ask)}"))
        return None
    if (
        not isinstance(choices, list)
        or len(choices) < 2
        or not all(isinstance(c, str) for c in choices)
    ):
        problems.append(
            Problem(
                f"{place}.choices", f"must be a list of at least two choices, got {show(choices)}"
            )
        )
        return None
    if len(set(choices)) != len(choices):
        problems.append(Problem(f"{place}.choices", "lists a choice twice"))
    ask_problems = _ask_problems(ask, board, f"{place}.ask")
    if ask_problems:
        problems.extend(ask_problems)
        return None
    question = Question(prompt, {str(k): str(v) for k, v in ask.items()}, tuple(choices))
    try:
        engine_answer = solve(question.ask, board)
    except LessonError as error:
        problems.extend(Problem(f"{place}.{p.path}", p.message) for p in error.problems)
        return None
    if engine_answer.choice not in question.choices:
        problems.append(
            Problem(
                f"{place}.choices",
                f"the engine answers {engine_answer.choice!r}, which is not among the choices "
                f"({', '.join(question.choices)})",
            )
        )
    return question


def loads_lesson(text: str, source: str = "") -> Lesson:
    """Read a lesson from JSON text."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise LessonError(
            [
                Problem(
                    source,
                    f"not valid JSON: {error.msg} at line {error.lineno} column {error.colno}",
                )
            ]
        ) from None
    return parse_lesson(data, source)


def load_lesson(path: str | os.PathLike[str]) -> Lesson:
    """Read a ``*.warplan-lesson.json`` file (read as scenario files are: regular files only,
    size cap, duplicate keys refused); any failure is a :class:`LessonError`."""
    try:
        data = read_json_file(path)
    except LessonError:
        raise
    except ScenarioError as error:
        raise LessonError(error.problems) from None
    return parse_lesson(data, str(path))


def lesson_title(path: str | os.PathLike[str]) -> str:
    """A lesson file's title, read without working out its questions (which can need line of
    sight): for listing lessons; :func:`load_lesson` checks the whole file when it is opened."""
    try:
        data = read_json_file(path)
    except ScenarioError as error:
        raise LessonError(error.problems) from None
    title = data.get("title") if isinstance(data, dict) else None
    if not isinstance(title, str) or not title:
        raise LessonError([Problem(f"{path}: title", "a lesson needs a title")])
    return title


def dumps_lesson(lesson: Lesson) -> str:
    """The lesson as file text: JSON indented by 2, ending with a newline."""
    return json.dumps(lesson.to_json(), indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def save_lesson(lesson: Lesson, path: str | os.PathLike[str]) -> None:
    """Write ``lesson`` to ``path`` atomically, after reading the text back (a lesson that
    would not open again is never written)."""
    text = dumps_lesson(lesson)
    loads_lesson(text, str(path))
    write_atomically(text, path)


def build_lesson(title: str, summary: str, ruleset: str, steps: Sequence[LessonStep]) -> Lesson:
    """A lesson from steps (as the editor makes them), checked as a file would be."""
    draft = {
        "format": LESSON_FORMAT,
        "version": LESSON_VERSION,
        "title": title,
        "summary": summary,
        "ruleset": ruleset,
        "steps": [step.to_json() for step in steps],
    }
    return parse_lesson(draft)
