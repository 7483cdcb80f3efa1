"""The engine's error hierarchy.

Every error the engine raises on purpose derives from :class:`WarplanError`, so callers (the
CLI, the app) can catch one class and show a clear message instead of a traceback.

>>> err = ScenarioError([Problem("units[3].models[0].x", "must be a finite number, got nan")])
>>> str(err)
'units[3].models[0].x: must be a finite number, got nan'
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


class WarplanError(Exception):
    """Base class of every error raised by the engine on purpose."""


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an input, at a JSON path such as ``units[3].models[0].x``."""

    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}" if self.path else self.message


class ScenarioError(WarplanError):
    """A scenario file (or document) that cannot be read or does not follow the format.

    Carries every problem found, one per line in ``str(error)``.
    """

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems: tuple[Problem, ...] = tuple(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


class FormatVersionError(ScenarioError):
    """A file written by a newer Warplan, or with a version this program cannot migrate."""


class UnknownReferenceError(WarplanError):
    """An id (unit, model, deployment card, mission card...) that does not exist."""


class GeometryError(WarplanError):
    """Geometry that cannot be measured: a degenerate base, an invalid polygon."""


class RulesError(WarplanError):
    """A rule cannot be applied as asked (an illegal move, a card played out of turn...)."""


class ArmyListError(WarplanError):
    """An army list that cannot be read: the message names the line (``line 12: ...``)."""

    def __init__(self, line: int, message: str) -> None:
        self.line = line
        super().__init__(f"line {line}: {message}")


class LessonError(ScenarioError):
    """A lesson file that cannot be read or does not follow the lesson format: each problem's
    path names the step and key (``steps[2].question.choices``)."""
