"""The lesson format: reading, refusals naming the step and key, boards built from changes,
answers worked out by the engine, and saving."""

from __future__ import annotations

import copy
import json
import os
from pathlib import Path
from typing import Any

import pytest

from engine.errors import LessonError
from engine.lessons import (
    ASK_KINDS,
    LessonStep,
    Question,
    answer,
    apply_changes,
    board_at,
    build_lesson,
    changes_between,
    choices_for,
    dumps_lesson,
    load_lesson,
    loads_lesson,
    parse_lesson,
    save_lesson,
)
from engine.scenario_io import parse_scenario

LESSONS = Path(__file__).resolve().parents[2] / "assets" / "lessons"
SHIPPED = sorted(LESSONS.glob("*.warplan-lesson.json"))
R32 = 16 / 25.4
R40 = 20 / 25.4


def _board() -> dict[str, Any]:
    return {
        "format": "warplan.scenario",
        "version": 1,
        "ruleset": "wh40k-ca2026",
        "battlefield": {"width": 60, "depth": 44},
        "players": [{"id": "red"}, {"id": "blue"}],
        "units": [
            {
                "id": "red-a",
                "player": "red",
                "oc": 2,
                "keywords": ["INFANTRY"],
                "models": [
                    {"id": "red-a1", "x": 30, "y": 10, "base": {"shape": "circle", "diameter": 32}},
                    {
                        "id": "red-a2",
                        "x": 31.5,
                        "y": 10,
                        "base": {"shape": "circle", "diameter": 32},
                    },
                ],
            },
            {
                "id": "blue-a",
                "player": "blue",
                "models": [
                    {"id": "blue-a1", "x": 30, "y": 40, "base": {"shape": "circle", "diameter": 32}}
                ],
            },
        ],
        "objectives": [{"id": "obj", "x": 30, "y": 22}],
    }


CONTROL = {"kind": "objective-control", "objective": "obj"}


def _lesson_data() -> dict[str, Any]:
    return {
        "format": "warplan.lesson",
        "version": 1,
        "title": "Control",
        "summary": "who holds the marker",
        "ruleset": "wh40k-ca2026",
        "steps": [
            {
                "title": "Far",
                "text": "Nobody is near.",
                "scenario": _board(),
                "overlays": ["objectives"],
                "select": ["red-a"],
                "question": {"prompt": "Who?", "ask": CONTROL, "choices": ["red", "nobody"]},
            },
            {
                "title": "Near",
                "text": 'Red walks up to exactly 3" from the rim.',
                "changes": [{"move": {"id": "red-a", "x": 30, "y": 22 - 3 - R40 - R32}}],
                "question": {"prompt": "Who?", "ask": CONTROL, "choices": ["red", "nobody"]},
            },
            {
                "title": "Shocked",
                "text": "Red is battle-shocked; Blue arrives.",
                "changes": [
                    {"status": {"unit": "red-a", "battle_shocked": True}},
                    {"move": {"id": "blue-a1", "x": 30, "y": 24}},
                ],
                "question": {"prompt": "Who?", "ask": CONTROL, "choices": ["red", "blue"]},
            },
        ],
    }


def _refusal(data: object) -> str:
    with pytest.raises(LessonError) as caught:
        parse_lesson(data)
    return str(caught.value)


def test_answers_come_from_each_steps_board() -> None:
    lesson = parse_lesson(_lesson_data())
    choices = [answer(step, board_at(lesson, k)).choice for k, step in enumerate(lesson.steps)]
    assert choices == ["nobody", "red", "blue"]
    shocked = answer(lesson.steps[2], board_at(lesson, 2)).explanation_text
    assert shocked.startswith("obj: red 0 : blue 1 - blue controls")


def test_a_unit_move_keeps_its_formation_and_a_model_move_places_one_model() -> None:
    lesson = parse_lesson(_lesson_data())
    near = board_at(lesson, 1)
    assert near.model("red-a1").y == pytest.approx(22 - 3 - R40 - R32)
    assert near.model("red-a2").x - near.model("red-a1").x == pytest.approx(1.5)
    assert near.model("red-a2").y == near.model("red-a1").y
    assert board_at(lesson, 2).model("blue-a1").y == 24
    assert board_at(lesson, 2).unit("red-a").status.battle_shocked


def test_round_trip_through_text_and_file(tmp_path: Path) -> None:
    lesson = parse_lesson(_lesson_data())
    again = loads_lesson(dumps_lesson(lesson))
    assert again == lesson
    assert [b for b in again.boards] == [b for b in lesson.boards]
    path = tmp_path / "control.warplan-lesson.json"
    save_lesson(lesson, path)
    assert load_lesson(path) == lesson
    assert [p.name for p in tmp_path.iterdir()] == [path.name]


def test_save_refuses_a_read_only_file_and_leaves_it(tmp_path: Path) -> None:
    path = tmp_path / "locked.warplan-lesson.json"
    path.write_text("old", encoding="utf-8")
    path.chmod(0o444)
    with pytest.raises(PermissionError):
        save_lesson(parse_lesson(_lesson_data()), path)
    assert path.read_text(encoding="utf-8") == "old"


def test_choices_missing_the_engines_answer_are_refused_naming_the_step() -> None:
    data = _lesson_data()
    data["steps"][1]["question"]["choices"] = ["blue", "nobody"]
    message = _refusal(data)
    assert "steps[1].question.choices" in message
    assert "the engine answers 'red'" in message


@pytest.mark.parametrize(
    ("edit", "where"),
    [
        (lambda d: d["steps"][0].pop("scenario"), "steps[0].scenario: the first step must hold"),
        (lambda d: d["steps"][1].pop("title"), "steps[1].title"),
        (
            lambda d: d["steps"][1].update(changes=[{"move": {"id": "nobody", "x": 1, "y": 1}}]),
            "steps[1].changes[0].move.id: no model or unit 'nobody'",
        ),
        (
            lambda d: d["steps"][1].update(changes=[{"teleport": {}}]),
            "steps[1].changes[0]: unknown change",
        ),
        (
            lambda d: d["steps"][1].update(changes=[{"move": {"id": "red-a1", "x": True, "y": 1}}]),
            "steps[1].changes[0].move: x and y must be numbers",
        ),
        (
            lambda d: d["steps"][1].update(
                changes=[{"status": {"unit": "red-a", "battle_shocked": "maybe"}}]
            ),
            "steps[1].changes (the board they make): units[0].status.battle_shocked",
        ),
        (
            lambda d: d["steps"][2]["question"]["ask"].update(objective="obj-x"),
            "steps[2].question.ask.objective: no objective 'obj-x'",
        ),
        (
            lambda d: d["steps"][2]["question"]["ask"].update(kind="tea"),
            "steps[2].question.ask.kind",
        ),
        (lambda d: d["steps"][2]["question"].update(choices=["red"]), "steps[2].question.choices"),
        (lambda d: d["steps"][0].update(select=["ghost"]), "steps[0].select[0]: no 'ghost'"),
        (
            lambda d: d["steps"][0]["scenario"]["units"][0]["models"][0].update(x="a"),
            "steps[0].scenario.units[0].models[0].x",
        ),
        (
            lambda d: d["steps"][0]["scenario"].update(ruleset="scrollhammer"),
            "steps[0].scenario.ruleset",
        ),
        (lambda d: d.update(version=2), "version: lesson format version 2 is newer"),
        (lambda d: d.update(format="warplan.scenario"), "format: must be 'warplan.lesson'"),
        (lambda d: d.update(steps=[]), "steps: must be a non-empty list"),
        (
            lambda d: d["steps"][1].update(scenario=_board()),
            "steps[1]: has both scenario and changes",
        ),
        (lambda d: d["steps"][1].update(colour="red"), "steps[1].colour: is not a key of a step"),
    ],
)
def test_refusals_name_the_step_and_key(edit: Any, where: str) -> None:
    data = _lesson_data()
    edit(data)
    assert where in _refusal(data)


def test_a_file_with_a_duplicate_key_or_not_regular_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "dup.warplan-lesson.json"
    text = json.dumps(_lesson_data())
    path.write_text(text.replace('"title": "Control"', '"title": "Control", "title": "Again"', 1))
    with pytest.raises(LessonError, match="duplicate key"):
        load_lesson(path)
    fifo = tmp_path / "pipe.warplan-lesson.json"
    os.mkfifo(fifo)
    with pytest.raises(LessonError, match="not a regular file"):
        load_lesson(fifo)


def test_changes_between_records_moves_only() -> None:
    before = parse_scenario(_board())
    after = before.with_unit_moved("red-a", 1.0, 2.0)
    moves = changes_between(before, after)
    assert moves == (
        {"move": {"id": "red-a1", "x": 31.0, "y": 12.0}},
        {"move": {"id": "red-a2", "x": 32.5, "y": 12.0}},
    )
    assert apply_changes(before, moves) == after
    assert changes_between(before, before) == ()
    other = copy.deepcopy(_board())
    other["objectives"][0]["x"] = 31
    assert changes_between(before, parse_scenario(other)) is None


def test_build_lesson_checks_like_a_file() -> None:
    board = parse_scenario(_board())
    step = LessonStep("Only", "text", board, question=None)
    assert build_lesson("T", "", "wh40k-ca2026", [step]).steps[0].scenario == board
    with pytest.raises(LessonError):
        build_lesson("", "", "wh40k-ca2026", [step])


@pytest.mark.parametrize("kind", sorted(ASK_KINDS))
def test_every_kind_offers_choices_that_hold_its_answer(kind: str) -> None:
    board = parse_scenario({**_board(), "deployment": "dawn-of-war"})
    ids = {
        "unit": "red-a",
        "with": "blue-a",
        "observer": "red-a",
        "target": "blue-a",
        "objective": "obj",
    }
    ask = {"kind": kind, **{key: ids[key] for key, _ in ASK_KINDS[kind].keys}}
    choices = choices_for(ask, board)
    step = LessonStep("q", "", board)
    result = answer(LessonStep("q", "", board, question=Question("?", ask, choices)), board)
    assert result.choice in choices
    assert result.explanation_text
    with pytest.raises(LessonError):
        answer(step, board)


def test_at_least_the_required_topics_ship() -> None:
    names = {path.name.removesuffix(".warplan-lesson.json") for path in SHIPPED}
    assert {
        "objective-control",
        "engagement",
        "table-quarters",
        "deployment-zones",
        "visibility-and-cover",
        "shared-modules-control",
        "scrollhammer-control",
        "rules-puzzles",
    } <= names


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_every_shipped_lesson_loads_and_every_question_is_answered(path: Path) -> None:
    lesson = load_lesson(path)
    assert lesson.steps[0].scenario is not None
    for k, step in enumerate(lesson.steps):
        if step.question is not None:
            result = answer(step, board_at(lesson, k))
            assert result.choice in step.question.choices
            assert result.explanation_text
    if "puzzles" not in path.name:
        assert 3 <= len(lesson.steps) <= 6
    assert loads_lesson(dumps_lesson(lesson)) == lesson
