"""How problems with a file name places and values, and how many of them are shown.

Shared by the file format (``engine.scenario_io``, ``engine.format_schema``) and the ``game``
section (``engine.game_state``), so every message renders values the same way.

>>> show(float("nan")), show(10**400), len(show("x" * 10**6))
('NaN', 'a huge integer', 61)
>>> join("units[0]", "x"), index("units", 3)
('units[0].x', 'units[3]')
"""

from __future__ import annotations

import difflib
import json
import math
from collections.abc import Iterable, Mapping, Sequence

from engine.errors import Problem
from engine.limits import MAX_PROBLEMS_SHOWN


def join(path: str, key: str) -> str:
    """The path of ``key`` inside the object at ``path``."""
    return f"{path}.{key}" if path else key


def index(path: str, position: int) -> str:
    """The path of item ``position`` of the array at ``path``."""
    return f"{path}[{position}]"


def show(value: object) -> str:
    """A short JSON-like rendering of a value for a message."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        if math.isinf(value):
            return "Infinity" if value > 0 else "-Infinity"
        return repr(value)
    if isinstance(value, int):
        return str(value) if value.bit_length() < 200 else "a huge integer"
    if isinstance(value, str):
        shown = json.dumps(value[:80], ensure_ascii=False) if is_encodable(value) else repr(value)
        return shown if len(shown) <= 60 else shown[:57] + '..."'
    if isinstance(value, Mapping):
        return "an object"
    if isinstance(value, list | tuple):
        return "an array"
    return f"a {type(value).__name__}"


def is_encodable(text: str) -> bool:
    """Whether ``text`` is valid Unicode (no lone surrogate)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def listing(options: Iterable[str]) -> str:
    """Sorted names, comma-separated."""
    return ", ".join(sorted(options))


def unknown_name(kind: str, value: object, known: Sequence[str]) -> str:
    """A message for a name that is not one of ``known``, suggesting the closest ones.

    >>> unknown_name("twist", "night-figthing", ["night-fighting", "nowhere-to-hide"])
    'unknown twist "night-figthing"; did you mean "night-fighting"?'
    >>> unknown_name("card", "X", ["A", "B"])
    'unknown card "X"; known: A, B'
    """
    if isinstance(value, str):
        close = difflib.get_close_matches(value, list(known), n=3, cutoff=0.6)
        if not close:
            close = difflib.get_close_matches(value.upper(), [k.upper() for k in known], n=3)
            close = [k for k in known if k.upper() in close]
        if close:
            options = " or ".join(show(name) for name in close)
            return f"unknown {kind} {show(value)}; did you mean {options}?"
    return f"unknown {kind} {show(value)}; known: {', '.join(known) or 'none'}"


def capped(problems: Sequence[Problem], limit: int = MAX_PROBLEMS_SHOWN) -> list[str]:
    """The lines that show ``problems``: the first ``limit``, then "... and N more problems".

    >>> capped([Problem(f"p{i}", "bad") for i in range(4)], limit=2)
    ['p0: bad', 'p1: bad', '... and 2 more problems']
    >>> capped([Problem("p", "bad")] * 2, limit=2)
    ['p: bad', 'p: bad']
    """
    lines = [str(p) for p in problems[:limit]]
    rest = len(problems) - limit
    if rest > 0:
        lines.append(f"... and {rest} more problem{'s' if rest > 1 else ''}")
    return lines
