"""The shape every rule system takes: one :class:`Ruleset` object per package.

The core rules modules (:mod:`engine.objectives`, :mod:`engine.engagement`,
:mod:`engine.areas`, :mod:`engine.visibility`, :mod:`engine.evaluate`) ask the scenario's
ruleset (:func:`engine.rulesets.ruleset_for`) for its values and never compare ruleset ids:

- objective control: ranges, measure, the **control strategy** (``summed-oc``,
  ``hold-and-contest``, ``scoring-and-denial``: the one algorithm of
  :mod:`engine.objectives` runs whichever it names), terrain objectives;
- engagement ranges; the sections table quarters and areas are judged by; whether the
  benefit of cover applies to line of sight;
- its options (``option_checks``, the shared keys included) and its ``game`` sections'
  checks (``game_section_checks``), the longest game it plays;
- its deployment sequence (``deployment_procedure``: who sets up first, one unit at a time or
  whole armies, the check of one unit as placed; :mod:`engine.deploy_order` walks it);
- its own report (``report``: violations named by the rules text's sections, VP so far),
  its scoring (``score``) and a new game (``new_game``).

>>> from engine.rulesets import ruleset_for
>>> ca = ruleset_for("wh40k-ca2026")
>>> ca.name, ca.cover_applies, ca.longest_game
('Chapter Approved 2026-27', True, 5)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from engine.engagement import EngagementRules
from engine.explain import Violation
from engine.model import Scenario
from engine.objectives import ObjectiveRules
from engine.options import OptionCheck

if TYPE_CHECKING:
    from engine.arrival import ArrivalRules
    from engine.deploy_order import DeploymentProcedure
    from engine.evaluate import Evaluation
    from engine.game_state import GameCheck


@dataclass(frozen=True)
class RulesetReport:
    """What a rule system checks beyond the shared rules: ``violations`` (set-up and
    deployment rules the board breaks now, named by the rules text's sections) and ``vp``
    (victory points so far; ``None`` where the file records no game). ``details`` is the
    system's own full report (the panels read it)."""

    ruleset: str
    violations: tuple[Violation, ...]
    vp: Mapping[str, int] | None
    details: Any = None

    def to_json(self) -> dict[str, Any]:
        """The ``"ruleset_report"`` of the evaluate JSON."""
        data: dict[str, Any] = {
            "ruleset": self.ruleset,
            "violations": [
                {"rule": v.rule, "ids": sorted(v.items), "message": v.message}
                for v in self.violations
            ],
        }
        if self.vp is not None:
            data["vp"] = dict(self.vp)
        return data


class Score(Protocol):
    """A scoring result: ``to_json()`` is the ``score --json`` contract."""

    def to_json(self) -> dict[str, Any]: ...

    def text(self) -> str: ...


class Ruleset(Protocol):
    """One rule system, as the core and the app use it."""

    @property
    def id(self) -> str:
        """The ``ruleset`` value of the file format."""
        ...

    @property
    def name(self) -> str:
        """The name to show."""
        ...

    @property
    def quarter_section(self) -> str:
        """The section table quarters and the centre are judged by."""
        ...

    @property
    def area_section(self) -> str:
        """The section deployment zones and territories are judged by."""
        ...

    @property
    def cover_applies(self) -> bool:
        """Whether line of sight grants the benefit of cover."""
        ...

    @property
    def longest_game(self) -> int:
        """The last battle round a game can reach."""
        ...

    @property
    def option_checks(self) -> Mapping[str, OptionCheck]:
        """Every ``options`` key this system reads, with how the file reader reads its value
        (shared keys too): the one table of a file's options."""
        ...

    @property
    def game_section_checks(self) -> Mapping[str, GameCheck]:
        """Checks of the ``game`` keys only this system writes (``game.<section>``)."""
        ...

    def objective_rules(self, scenario: Scenario) -> ObjectiveRules:
        """Objective control in force: this system's values, overridden by the options."""
        ...

    def engagement_rules(self, scenario: Scenario) -> EngagementRules:
        """Engagement in force: this system's values, overridden by the options."""
        ...

    def deployment_procedure(self, scenario: Scenario) -> DeploymentProcedure:
        """How this system deploys the armies (:mod:`engine.deploy_order`)."""
        ...

    def arrival_rules(self, scenario: Scenario, player: str) -> ArrivalRules:
        """What a unit of ``player`` arriving from reserves keeps to (:mod:`engine.arrival`):
        the set-up distance from enemy models, the terrain closed to set-up, edge rules."""
        ...

    def report(self, scenario: Scenario, evaluation: Evaluation | None = None) -> RulesetReport:
        """This system's own checks; ``evaluation``: the scenario's, to reuse."""
        ...

    def score(self, scenario: Scenario, evaluation: Evaluation | None = None) -> Score:
        """The victory points of the moment the file's ``game`` describes."""
        ...

    def new_game(self, scenario: Scenario, *, seed: int, **choices: Any) -> Scenario:
        """``scenario`` set up as a new game of this system (seeded; ``choices`` as its
        package's ``new_game`` names them)."""
        ...
