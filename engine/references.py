"""Which parts of a scenario name other elements by id, and how to drop a reference when the
element it names is deleted.

The ``game`` section (:mod:`engine.game_state` and the rulesets' state modules) holds unit,
model, objective and terrain ids: the deployment sequence's reserves and order, objectives
controlled at the start of the turn, objective
statuses, completed actions, Secondary Mission choices, Shared Scenario Modules' undeployed and
Scout and Secure units, Scrollhammer's reserves, control choices, standards, challenges and the
relic. :data:`GAME_REFERENCES` lists them, one :class:`ReferenceRule` per place, with what
deleting the named element does to the entry:

- ``drop``: the id goes (an array item, an object's field, or an object's entry when the id is
  the key);
- ``drop-holder``: the whole entry holding the id goes (a challenge whose winner was deleted);
- ``next-lead``: a Scout and Secure unit whose lead model was deleted leads with its first
  remaining model (the unit keeps the protection and stays undeployed);
- ``ask-again``: a Secondary Mission's selection goes and the card asks for it again (its
  ``needs`` list gets the key back).

:func:`prune_references` applies them, so that deleting an element never leaves a document
that cannot be saved.

>>> from engine.model import Battlefield, Objective, Player, Scenario, freeze
>>> s = Scenario("wh40k-ca2026", (Player("red"), Player("blue")), Battlefield(),
...     objectives=(Objective("obj-a", 10, 10),),
...     game=freeze({"players": {"red": {"controlled_at_start_of_turn": ["obj-a", "obj-b"]}}}))
>>> [(r.path, r.target) for r in references(s)]
[('game.players.red.controlled_at_start_of_turn[0]', 'obj-a'), \
('game.players.red.controlled_at_start_of_turn[1]', 'obj-b')]
>>> pruned = prune_references(s)
>>> pruned.game["players"]["red"]["controlled_at_start_of_turn"]
('obj-a',)
>>> prune_references(pruned) is pruned
True
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal

from engine.game_state import OBJECTIVE_STATUSES
from engine.model import CustomDeployment, Scenario, freeze, thaw

Kind = Literal["units", "models", "objectives", "terrain", "markers", "players", "annotations"]
Removal = Literal["drop", "drop-holder", "next-lead", "ask-again"]
Step = str | int
EVERY_VALUE = "*"
"""A path step: every value of an object."""
EVERY_ITEM = "[]"
"""A path step: every item of an array."""
KEYS = "<key>"
"""A last path step: the keys of the object are the references."""


@dataclass(frozen=True)
class ReferenceRule:
    """One place of the ``game`` section that holds ids of ``kinds``.

    ``pattern`` is a path from ``game``: object keys, :data:`EVERY_VALUE`, :data:`EVERY_ITEM`,
    and :data:`KEYS` as the last step when the object's keys are the ids.
    """

    pattern: tuple[str, ...]
    kinds: tuple[Kind, ...]
    removal: Removal = "drop"


@dataclass(frozen=True)
class Reference:
    """One id found in a scenario: where (``steps`` from the document root), what it names."""

    steps: tuple[Step, ...]
    target: str
    rule: ReferenceRule | None
    """The rule of the ``game`` section that found it (None for an objective's terrain)."""

    @property
    def path(self) -> str:
        """The JSON path, as the file reader reports problems (``game.players.red.vp``)."""
        text = ""
        for step in self.steps:
            if isinstance(step, int):
                text += f"[{step}]"
            else:
                text += f".{step}" if text else step
        return text


def _choices_rules(prefix: tuple[str, ...], removal: Removal) -> tuple[ReferenceRule, ...]:
    """The selections a Secondary Mission records (``engine.rulesets.wh40k_ca2026.decks``)."""
    return (
        ReferenceRule((*prefix, "beacon_unit"), ("units",), removal),
        ReferenceRule((*prefix, "tempting_target"), ("objectives",), removal),
        ReferenceRule((*prefix, "guards", KEYS), ("objectives",)),
        ReferenceRule((*prefix, "guards", EVERY_VALUE), ("units",)),
    )


_PLAYER = ("players", EVERY_VALUE)

CORE_REFERENCES: tuple[ReferenceRule, ...] = (
    ReferenceRule((*_PLAYER, "controlled_at_start_of_turn", EVERY_ITEM), ("objectives",)),
    *(
        ReferenceRule((*_PLAYER, "objective_status", status, EVERY_ITEM), ("objectives",))
        for status in OBJECTIVE_STATUSES
    ),
    ReferenceRule((*_PLAYER, "objective_status", "trapped", EVERY_ITEM), ("terrain",)),
    ReferenceRule(
        (*_PLAYER, "actions_completed_this_turn", EVERY_ITEM, "objective"), ("objectives",)
    ),
    ReferenceRule((*_PLAYER, "actions_completed_this_turn", EVERY_ITEM, "terrain"), ("terrain",)),
    *_choices_rules((*_PLAYER, "deck", "active", EVERY_ITEM, "choices"), "ask-again"),
    *_choices_rules((*_PLAYER, "card_choices", EVERY_VALUE), "drop"),
    *(
        ReferenceRule((key, EVERY_ITEM, "started_within_terrain", EVERY_ITEM), ("terrain",))
        for key in ("destroyed_this_turn", "destroyed_previous_turn")
    ),
    *(ReferenceRule(("deployment", key, EVERY_ITEM), ("units",)) for key in ("reserves", "order")),
)
"""``game`` keys of :mod:`engine.game_state` (Chapter Approved 2026-27 mission state, and the
deployment sequence every system records)."""

SHARED_MODULES_REFERENCES: tuple[ReferenceRule, ...] = (
    *(
        ReferenceRule(("shared_modules", key, EVERY_ITEM), ("units",))
        for key in ("undeployed", "destroyed", "destroyed_this_turn")
    ),
    ReferenceRule(("shared_modules", "scout_and_secure", KEYS), ("units",)),
    ReferenceRule(
        ("shared_modules", "scout_and_secure", EVERY_VALUE, "lead"), ("models",), "next-lead"
    ),
)
"""``game.shared_modules`` (:mod:`engine.rulesets.shared_modules.state`)."""

SCROLLHAMMER_REFERENCES: tuple[ReferenceRule, ...] = (
    *(
        ReferenceRule(("scrollhammer", key, EVERY_ITEM), ("units",))
        for key in ("destroyed", "reserves", "ongoing_reserves", "arrived_from_reserve")
    ),
    ReferenceRule(("scrollhammer", "control_choices", KEYS), ("units",)),
    ReferenceRule(("scrollhammer", "control_choices", EVERY_VALUE), ("objectives",)),
    ReferenceRule(
        ("scrollhammer", "standards_taken", EVERY_ITEM, "bearer"),
        ("units", "models"),
        "drop-holder",
    ),
    *(
        ReferenceRule(
            ("scrollhammer", "challenges", EVERY_ITEM, side), ("units", "models"), "drop-holder"
        )
        for side in ("winner", "loser")
    ),
    ReferenceRule(("scrollhammer", "relic", "carrier"), ("models",)),
)
"""``game.scrollhammer`` (:mod:`engine.rulesets.scrollhammer.state`)."""

GAME_REFERENCES: tuple[ReferenceRule, ...] = (
    CORE_REFERENCES + SHARED_MODULES_REFERENCES + SCROLLHAMMER_REFERENCES
)
"""Every place of the ``game`` section that holds a unit, model, objective or terrain id."""


def known_ids(scenario: Scenario) -> dict[Kind, frozenset[str]]:
    """The ids of each kind of element in ``scenario``."""
    return {
        "players": frozenset(scenario.player_ids()),
        "units": frozenset(u.id for u in (*scenario.units, *scenario.reserves)),
        "models": frozenset(
            m.id for u in (*scenario.units, *scenario.reserves) for m in u.models
        ),
        "objectives": frozenset(o.id for o in scenario.objectives),
        "terrain": frozenset(t.id for t in scenario.terrain),
        "markers": frozenset(k.id for k in scenario.markers),
        "annotations": frozenset(a.id for a in scenario.annotations),
    }


def element_ids(scenario: Scenario) -> frozenset[str]:
    """Every id of the document: players, units, models, terrain, objectives, markers and the
    custom deployment's zones and territories (the file format gives them one namespace).

    >>> from engine.model import Battlefield, Player, Scenario
    >>> sorted(element_ids(Scenario("wh40k-ca2026", (Player("red"), Player("blue")))))
    ['blue', 'red']
    """
    ids: set[str] = set()
    for kind_ids in known_ids(scenario).values():
        ids |= kind_ids
    if isinstance(scenario.deployment, CustomDeployment):
        ids |= {r.id for r in scenario.deployment.zones + scenario.deployment.territories}
    return frozenset(ids)


def _walk(
    value: Any, pattern: tuple[str, ...], steps: tuple[Step, ...]
) -> Iterator[tuple[tuple[Step, ...], Any]]:
    """The values (or, after :data:`KEYS`, the keys) at ``pattern`` under ``value``."""
    if not pattern:
        yield steps, value
        return
    step, rest = pattern[0], pattern[1:]
    if step == KEYS:
        if isinstance(value, Mapping):
            for key in value:
                yield (*steps, key), key
    elif step == EVERY_VALUE:
        if isinstance(value, Mapping):
            for key, element in value.items():
                yield from _walk(element, rest, (*steps, key))
    elif step == EVERY_ITEM:
        if isinstance(value, list | tuple):
            for index, element in enumerate(value):
                yield from _walk(element, rest, (*steps, index))
    elif isinstance(value, Mapping) and step in value:
        yield from _walk(value[step], rest, (*steps, step))


def references(scenario: Scenario) -> tuple[Reference, ...]:
    """Every id the scenario's objectives, annotations and ``game`` section name, in document
    order."""
    found = [
        Reference(("objectives", index, "terrain"), o.terrain, None)
        for index, o in enumerate(scenario.objectives)
        if o.terrain is not None
    ]
    for index, annotation in enumerate(scenario.annotations):
        for key in ("from_model", "to_model"):
            target = getattr(annotation, key)
            if target is not None:
                found.append(Reference(("annotations", index, key), target, None))
    game = scenario.game
    if game is not None:
        for rule in GAME_REFERENCES:
            for steps, target in _walk(game, rule.pattern, ("game",)):
                if isinstance(target, str):
                    found.append(Reference(steps, target, rule))
    return tuple(found)


def dangling_references(scenario: Scenario) -> tuple[Reference, ...]:
    """The references naming no element of ``scenario`` (the reader rejects such a file)."""
    known = known_ids(scenario)
    return tuple(
        ref
        for ref in references(scenario)
        if not any(ref.target in known[kind] for kind in _kinds_named(ref))
    )


def _kinds_named(ref: Reference) -> tuple[Kind, ...]:
    if ref.rule is not None:
        return ref.rule.kinds
    # Outside ``game``: an objective names a terrain piece, a ruler's end a model.
    return ("terrain",) if ref.steps[0] == "objectives" else ("models",)


def prune_references(scenario: Scenario) -> Scenario:
    """``scenario`` with every reference to a missing element dropped as its rule says.

    An objective on a deleted terrain piece stays as a marker objective; a kept ruler whose
    model was deleted goes (it measured to that model, nothing else). Returns ``scenario``
    itself when nothing dangles (so an edit that deletes nothing referenced keeps the very same
    ``game`` value).
    """
    dangling = dangling_references(scenario)
    if not dangling:
        return scenario
    result = scenario
    outside_game = [ref for ref in dangling if ref.rule is None]
    rulers_gone = {ref.steps[1] for ref in outside_game if ref.steps[0] == "annotations"}
    if rulers_gone:
        result = replace(
            result,
            annotations=tuple(
                a for index, a in enumerate(result.annotations) if index not in rulers_gone
            ),
        )
    if any(ref.steps[0] == "objectives" for ref in outside_game):
        gone = {ref.steps[1] for ref in outside_game if ref.steps[0] == "objectives"}
        result = replace(
            result,
            objectives=tuple(
                replace(o, terrain=None) if index in gone else o
                for index, o in enumerate(result.objectives)
            ),
        )
    in_game = [(ref.steps[1:], ref.rule.removal) for ref in dangling if ref.rule is not None]
    if in_game:
        game = thaw(result.game)
        _rewrite(game, in_game, result)
        result = replace(result, game=freeze(game))
    return result


def _rewrite(
    game: dict[str, Any], dangling: list[tuple[tuple[Step, ...], Removal]], scenario: Scenario
) -> None:
    """Apply each dangling reference's removal (``steps`` from ``game``) to the plain JSON
    ``game``, deepest first so that array indices of later deletions stay right."""
    deletions: set[tuple[Step, ...]] = set()
    for steps, removal in dangling:
        if removal == "drop":
            deletions.add(steps)
        elif removal == "drop-holder":
            deletions.add(steps[:-1])
        elif removal == "next-lead":
            unit_id = str(steps[-2])
            try:
                remaining = scenario.unit(unit_id).models
            except KeyError:
                remaining = ()
            if remaining:
                _container(game, steps[:-1])["lead"] = remaining[0].id
            else:
                deletions.add(steps[:-1])
        else:
            card = _container(game, steps[:-2])
            needs = list(card.get("needs", ()))
            if steps[-1] not in needs:
                card["needs"] = [*needs, steps[-1]]
            deletions.add(steps)
    for steps in sorted(deletions, key=_sort_key, reverse=True):
        parent = _container(game, steps[:-1])
        if parent is not None:
            last = steps[-1]
            if isinstance(parent, list) and isinstance(last, int) and last < len(parent):
                del parent[last]
            elif isinstance(parent, dict):
                parent.pop(last, None)


def _sort_key(steps: tuple[Step, ...]) -> tuple[tuple[int, int | str], ...]:
    return tuple((0, s) if isinstance(s, int) else (1, s) for s in steps)


def _container(game: Any, steps: tuple[Step, ...]) -> Any:
    value = game
    for step in steps:
        try:
            value = value[step]
        except (KeyError, IndexError, TypeError):
            return None
    return value
