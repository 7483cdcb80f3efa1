"""The rules puzzles shipped in assets/lessons/, each also a test of the engine: the answer below
is derived by hand from the puzzle's board (the arithmetic in the comment), and the engine must
give it. A 32 mm base has a radius of 16/25.4 = 0.629921"; a 40 mm marker 20/25.4 = 0.787402".
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.lessons import Lesson, answer, board_at, load_lesson

LESSONS = Path(__file__).resolve().parents[2] / "assets" / "lessons"

HAND_ANSWERS: dict[str, dict[str, str]] = {
    "rules-puzzles": {
        # Chapter Approved measures from the marker's rim: centre gap 22 - y = 3 + 0.787402 +
        # 0.629921 = 4.417323, so the base edge is 3.000000" from the rim: within 3" -> red (OC 2).
        'Exactly 3" from the rim': "red",
        # 3.0001" > 3" + 1e-6 tolerance: nobody in range -> nobody.
        '3.0001" from the rim': "nobody",
        # Oval 120 x 92 mm: semi-axes 2.362205" (length) and 1.811024" (width). Turned 90 degrees
        # the length points north: gap = 6.0496 - 2.362205 - 0.787402 = 2.899993" <= 3 -> red.
        "A rotated oval (in)": "red",
        # Not turned, the width points north: gap = 6.0496 - 1.811024 - 0.787402 = 3.451174" > 3.
        "The same oval, not turned": "nobody",
        # Red is battle-shocked: its OC counts 0; Blue OC 1 in range (4 - 0.63 - 0.79 = 2.58"):
        # 0 < 1 -> blue.
        "A battle-shocked unit": "blue",
        # Both 2 - 0.63 - 0.79 = 0.58" from the rim, OC 2 each: 2 = 2 -> contested.
        "An OC tie": "contested",
        # Red models at (29, 20), (30.5, 20), (32, 20): centre distances 2.236, 2.062, 2.828;
        # minus 1.417 all <= 3, so 3 x OC 1 = 3 against Blue's 2 -> red.
        "Three OC 1 models against one OC 2": "red",
        # The objective is the ruin's terrain objective; red-a1 at (35, 22) stands inside the
        # area (24..36 x 16..28), 5 - 1.417 = 3.58" from the rim yet holding it -> red.
        "A terrain objective": "red",
        # 1 - 1.417 < 0: the base overlaps the marker in plan; vertically 5 - 0 = 5 <= 5 -> red.
        '5" up': "red",
        # Vertically 5.0001 > 5 + 1e-6 -> out of range -> nobody.
        '5.0001" up': "nobody",
        # Centres 2 x 0.629921 + 2 apart: edge gap exactly 2" -> within 2" -> engaged.
        'Engagement at exactly 2"': "yes",
        # Edge gap 2.0001" > 2" -> not engaged.
        'Engagement at 2.0001"': "no",
        # 1" apart in plan but 6 - 0 = 6" vertically > 5" -> not engaged.
        "Engagement up a ruin": "no",
        # Oval 170 x 105 mm unturned: semi-axis north 105/50.8 = 2.066929"; gap = 3.3 -
        # 2.066929 - 0.629921 = 0.603150" <= 2 -> engaged.
        "An oval's flank": "yes",
        # Centre x = 30 - 0.629921: the base's east edge is at x = 30, inside the 1 mm line
        # (29.980315..30.019685) -> not wholly within any quarter -> none.
        "A base on the 1 mm quarter line": "none",
        # East edge at 30 - 0.019685 - 0.001: a thou clear of the line, south of y = 21.98 -> SW.
        "Clear of the line by a thou": "SW",
        # One model at x = 25 (NW), one at x = 35 (NE), both at y = 35 -> none.
        "A unit astride two quarters": "none",
        # Base edge 6.000000" from the centre point -> within 6" -> yes.
        'Exactly 6" from the centre': "yes",
        # 6.0001" > 6" + 1e-6 -> no.
        '6.0001" from the centre': "no",
        # Dawn of War red-dz is y <= 12; the base's north edge is at 12 - 0.63 + 0.63 = 12 -> yes.
        "Wholly within the deployment zone": "yes",
        # North edge at 12.0001 > 12 -> not wholly within -> no.
        "A toe over the line": "no",
        # A 5" solid wall spans y 10..34 at x 29.5..30.5 between (20, 22) and (40, 22); both
        # models are 1.5" tall, so every line runs at 1.5 < 5 through it -> not visible.
        "A solid wall": "no",
        # A 2" gap (y 21..23) on the line y = 22: the straight line between the centres passes it.
        "A wall with a gap": "yes",
        # A wall x 38..38.5, y 20..22 hides the southern half of blue-a1 (at y = 22) from red-a1
        # (seen along y = 22): part of the facing side is hidden -> not fully visible.
        "Half behind a wall": "no",
        # The obscuring area x 29..31 lies across every line from x = 20 to x = 40 and neither
        # model is within it -> not visible.
        "An obscuring area between": "no",
        # blue-a1 at x = 30 is within the obscuring area, so it does not block -> visible.
        "The target inside an obscuring area": "yes",
        # blue-a is INFANTRY within a terrain area -> the benefit of cover.
        "Cover inside the area": "yes",
        # No terrain at all, not within an area, fully visible -> no cover.
        "No cover in the open": "no",
        # Night Fighting: bases exactly 18.00" apart -> within 18" -> visible.
        'Night Fighting at 18"': "yes",
        # 18.0001" > 18" -> not visible.
        'Night Fighting at 18.0001"': "no",
        # Hull 100 x 60 mm: half-diagonal hypot(1.968504, 1.181102) = 2.295615"; turned 90 -
        # atan2(30, 50) = 59.036243 degrees one corner points due north; centre 0.787402 +
        # 2.295615 + 3 south of the marker -> the corner is exactly 3" from the rim -> yes.
        "A hull's corner": "yes",
        # 3.0001" -> no.
        "The hull a thou back": "no",
    },
    "rules-puzzles-shared-modules": {
        # From the marker's centre: both models 2.5" away: each within 3", neither within 2" of
        # the other side's contest range -> both control -> shared.
        "Shared control": "shared",
        # Red at 1", Blue at exactly 2": Blue is within 2" so Red does not control; Red (1" <= 2")
        # contests Blue too -> nobody controls, both in range -> contested.
        'An enemy exactly 2" away': "contested",
        # Red alone exactly 3" from the centre: within 3" -> red.
        'Exactly 3" from the centre': "red",
        # 3.0001" -> no model within 3" -> nobody.
        '3.0001" from the centre': "nobody",
    },
    "rules-puzzles-scrollhammer": {
        # red-a at (30, 22) is 3" from both markers' centres (27, 22) and (33, 22) and declared to
        # control obj-west; a unit controls one objective at a time, Red has no other scoring
        # unit -> obj-east: nobody.
        "One objective per unit": "nobody",
        # Not CORE -> not a scoring unit -> cannot control -> nobody.
        "A non-scoring unit": "nobody",
        # Red CORE 2" away scores; Blue (not CORE, still a denial unit) 2" away denies ->
        # nobody controls, both present -> contested.
        "Denial": "contested",
        # Blue is falling back: neither scoring nor denial -> Red's CORE unit controls -> red.
        "Falling back": "red",
        # CORE but SWARMS: not a scoring unit -> nobody.
        "Swarms": "nobody",
    },
}


def _lesson(name: str) -> Lesson:
    return load_lesson(LESSONS / f"{name}.warplan-lesson.json")


def _cases() -> list[tuple[str, str, str]]:
    return [
        (name, title, hand)
        for name, titles in HAND_ANSWERS.items()
        for title, hand in titles.items()
    ]


def test_there_are_at_least_thirty_puzzles() -> None:
    assert len(_cases()) >= 30


@pytest.mark.parametrize("name", sorted(HAND_ANSWERS))
def test_every_puzzle_has_a_hand_answer(name: str) -> None:
    titles = [step.title for step in _lesson(name).steps]
    assert sorted(titles) == sorted(HAND_ANSWERS[name])
    assert all(step.question is not None for step in _lesson(name).steps)


@pytest.mark.parametrize(("name", "title", "hand"), _cases())
def test_the_engine_gives_the_hand_derived_answer(name: str, title: str, hand: str) -> None:
    lesson = _lesson(name)
    index = next(k for k, step in enumerate(lesson.steps) if step.title == title)
    result = answer(lesson.steps[index], board_at(lesson, index))
    assert result.choice == hand
    assert result.explanation_text.strip()
