"""The Mission Generator: a deterministic Chapter Approved 2026-27 set-up for a seed.

:func:`generate_mission` follows the mission sequence: Force Dispositions give each player's
Primary Mission (or pick any Primary per player), a Deployment card is drawn or chosen, a Twist
is none / random / chosen (Mirrored World: agreed or a D6 re-rolling 6; Scrambled
Communications: the Primaries are exchanged), a D6 gives one or two central objective points,
and roll-offs decide Attacker/Defender and the first turn. Every random step draws from its own
stream (``seed`` and the step's name), so changing one choice never re-rolls the others.

Instead of a Deployment card the players may take a recommended layout (``layout``: ``"A"``,
``"B"``, ``"C"`` or ``"random"``) for their pair of Force Dispositions (``engine.layouts``): it
brings its own Deployment card, terrain and objectives, so the D6 for the central objective
points is still rolled (and recorded) but does not apply.

Set-ups are frozen values: :func:`change_setup` returns a new one plus whether the change would
discard a game in progress (the generator's manual: changing Force Disposition, Primary,
Deployment or Twist resets both Secondary decks), so the app can ask first and undo is keeping
the old value.

>>> setup = generate_mission(("red", "blue"), ("Take and Hold", "Purge the Foe"), seed=3)
>>> setup.primary_of("red"), setup.primary_of("blue")
('IMMOVABLE OBJECT', 'UNSTOPPABLE FORCE')
>>> generate_mission(("red", "blue"), ("Take and Hold", "Purge the Foe"), seed=3) == setup
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal

import shapely
from shapely.ops import linemerge

from engine.dice import Roll, d6, roll_off, stream
from engine.errors import RulesError, UnknownReferenceError
from engine.geometry import terrain_area
from engine.model import Objective, Point, Scenario, freeze
from engine.rulesets.wh40k_ca2026.cards import (
    card,
    deployment_deck,
    force_disposition,
    primary_mission,
    twist,
    twists,
)
from engine.scenario_edits import with_option, without_options

CENTRAL_OFFSET = 6.0
"""Inches either side of the centre for the two central objective points (D6 roll of 6)."""

TwistRequest = Literal["none", "random"] | str
LayoutRequest = Literal["A", "B", "C", "random"]


@dataclass(frozen=True)
class PlayerSetup:
    """One player's Force Disposition and the Primary Mission on their card (before twists)."""

    player: str
    force_disposition: str | None
    card_primary: str
    chosen: bool

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"player": self.player, "primary": self.card_primary}
        if self.force_disposition is not None:
            out["force_disposition"] = self.force_disposition
        if self.chosen:
            out["primary_chosen"] = True
        return out


@dataclass(frozen=True)
class MissionSetup:
    """A whole set-up. ``primary_of`` gives the Primary each player plays after the Twist."""

    seed: int
    players: tuple[PlayerSetup, PlayerSetup]
    deployment: str
    deployment_drawn: bool
    twist: str | None
    mirrored_primary: str | None
    mirrored_rolls: tuple[int, ...]
    primaries_swapped: bool
    central_roll: int
    attacker_roll: Roll
    attacker: str
    first_turn_roll: Roll
    layout: str | None = None
    """The recommended layout's id, or None for the Deployment card's own objectives."""
    layout_drawn: bool = False

    @property
    def player_ids(self) -> tuple[str, str]:
        return self.players[0].player, self.players[1].player

    @property
    def defender(self) -> str:
        first, second = self.player_ids
        return second if self.attacker == first else first

    @property
    def first_turn(self) -> str:
        return self.first_turn_roll.winner

    @property
    def two_central_objectives(self) -> bool:
        return self.central_roll == 6

    def _player(self, player: str) -> PlayerSetup:
        for p in self.players:
            if p.player == player:
                return p
        raise UnknownReferenceError(f"no player {player!r} in this set-up")

    def primary_of(self, player: str) -> str:
        """The Primary Mission ``player`` plays: the card's, unless a Twist replaced it."""
        if self.mirrored_primary is not None:
            return self.mirrored_primary
        if self.primaries_swapped:
            first, second = self.player_ids
            return self._player(second if player == first else first).card_primary
        return self._player(player).card_primary

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "seed": self.seed,
            "players": [p.to_json() for p in self.players],
            "deployment": self.deployment,
            "deployment_drawn": self.deployment_drawn,
            "central_roll": self.central_roll,
            "attacker_roll": self.attacker_roll.to_json(),
            "attacker": self.attacker,
            "first_turn_roll": self.first_turn_roll.to_json(),
            "primaries": {p: self.primary_of(p) for p in self.player_ids},
        }
        if self.twist is not None:
            out["twist"] = self.twist
        if self.mirrored_primary is not None:
            out["mirrored_primary"] = self.mirrored_primary
            out["mirrored_rolls"] = list(self.mirrored_rolls)
        if self.primaries_swapped:
            out["primaries_swapped"] = True
        if self.layout is not None:
            out["layout"] = self.layout
            out["layout_drawn"] = self.layout_drawn
        return out


# ---------------------------------------------------------------------------------------------
# Dice


def mirrored_world_roll(seed: int) -> tuple[str, tuple[int, ...]]:
    """The Mirrored World D6 table, re-rolling 6: the Primary and every roll made."""
    table = twist("mirrored-world").effect["choices"]
    rng = stream(seed, "mirrored-world")
    rolls: list[int] = []
    while True:
        rolls.append(rng.randint(1, 6))
        if rolls[-1] != 6:
            return str(table[rolls[-1] - 1]), tuple(rolls)


# ---------------------------------------------------------------------------------------------
# Generating


def _player_setup(
    player: str, fd: str | None, opponent_fd: str | None, chosen_primary: str | None
) -> PlayerSetup:
    if chosen_primary is not None:
        name = card(chosen_primary, "primary").name
        canonical = force_disposition(fd).name if fd is not None else None
        return PlayerSetup(player, canonical, name, True)
    if fd is None or opponent_fd is None:
        raise RulesError(
            "a Primary Mission comes from both Force Dispositions; give both or pick the Primary"
        )
    return PlayerSetup(player, force_disposition(fd).name, primary_mission(fd, opponent_fd), False)


def _resolve_twist(seed: int, request: str | None) -> str | None:
    if request is None or request == "none":
        return None
    if request == "random":
        ids = [t.id for t in twists()]
        return ids[stream(seed, "twist").randrange(len(ids))]
    return twist(request).id


def _resolve_layout(
    seed: int, request: str, players: tuple[PlayerSetup, PlayerSetup]
) -> tuple[str, str]:
    """The (layout id, its Deployment card) a layout request gives for the players' pair."""
    from engine.layouts import LETTERS, layout_for

    first, second = (p.force_disposition for p in players)
    if first is None or second is None:
        raise RulesError(
            "a recommended layout is chosen for the pair of Force Dispositions; give both"
        )
    if request == "random":
        letter = LETTERS[stream(seed, "layout").randrange(len(LETTERS))]
    elif request.upper() in LETTERS:
        letter = request.upper()
    else:
        raise RulesError(f"a layout is A, B, C or random, got {request!r}")
    entry = layout_for(first, second, letter)
    return entry.id, entry.deployment


def generate_mission(
    players: tuple[str, str],
    force_dispositions: tuple[str | None, str | None],
    seed: int,
    *,
    primaries: tuple[str | None, str | None] = (None, None),
    deployment: str | None = None,
    layout: str | None = None,
    twist_request: str | None = None,
    mirrored_choice: str | None = None,
    swap_primaries: bool = True,
    winner_chooses: Literal["attacker", "defender"] = "attacker",
) -> MissionSetup:
    """A set-up for two players, the same for the same arguments.

    ``primaries`` picks any Primary per player instead of the Force Disposition's (the
    generator's dropdown); ``deployment`` chooses a Deployment card (else one is drawn);
    ``layout`` takes a recommended layout (A, B, C or ``"random"``, needing both Force
    Dispositions) and its Deployment card instead;
    ``twist_request`` is None / ``"none"``, ``"random"`` or a Twist id or name;
    ``mirrored_choice`` is the Primary both players agreed on under Mirrored World (else a D6
    re-rolling 6); ``swap_primaries`` applies Scrambled Communications' exchange; the roll-off
    winner for Attacker/Defender takes ``winner_chooses``.

    >>> s = generate_mission(("a", "b"), ("Disruption", "Disruption"), 1, twist_request="none")
    >>> s.primary_of("a") == s.primary_of("b") == "OUTMANOEUVRE"
    True
    """
    if players[0] == players[1]:
        raise RulesError("a set-up needs two different players")
    first = _player_setup(players[0], force_dispositions[0], force_dispositions[1], primaries[0])
    second = _player_setup(players[1], force_dispositions[1], force_dispositions[0], primaries[1])
    deck = [d for d, _ in deployment_deck()]
    layout_id: str | None = None
    if layout is not None:
        layout_id, layout_deployment = _resolve_layout(seed, layout, (first, second))
        if deployment is not None and deployment != layout_deployment:
            raise RulesError(
                f"layout {layout_id} brings its own Deployment card ({layout_deployment}), "
                f"not {deployment}"
            )
        deployment = layout_deployment
    if deployment is None:
        chosen_deployment = deck[stream(seed, "deployment").randrange(len(deck))]
    elif deployment in deck:
        chosen_deployment = deployment
    else:
        raise UnknownReferenceError(f"no Deployment card {deployment!r} (known: {', '.join(deck)})")
    twist_id = _resolve_twist(seed, twist_request)
    mirrored: str | None = None
    mirrored_rolls: tuple[int, ...] = ()
    if twist_id == "mirrored-world":
        allowed = tuple(str(n) for n in twist("mirrored-world").effect["choices"])
        if mirrored_choice is not None:
            mirrored = card(mirrored_choice, "primary").name
            if mirrored not in allowed:
                raise RulesError(f"Mirrored World allows only {', '.join(allowed)}")
        else:
            mirrored, mirrored_rolls = mirrored_world_roll(seed)
    attacker_roll = roll_off(seed, "attacker", players)
    loser = players[1] if attacker_roll.winner == players[0] else players[0]
    attacker = attacker_roll.winner if winner_chooses == "attacker" else loser
    return MissionSetup(
        seed=seed,
        players=(first, second),
        deployment=chosen_deployment,
        deployment_drawn=deployment is None and layout is None,
        twist=twist_id,
        mirrored_primary=mirrored,
        mirrored_rolls=mirrored_rolls,
        primaries_swapped=twist_id == "scrambled-communications" and swap_primaries,
        central_roll=d6(seed, "central")[0],
        attacker_roll=attacker_roll,
        attacker=attacker,
        first_turn_roll=roll_off(seed, "first-turn", players),
        layout=layout_id,
        layout_drawn=layout == "random",
    )


# ---------------------------------------------------------------------------------------------
# Changing a set-up


RESETTING_CHANGES = (
    "force_dispositions",
    "primaries",
    "deployment",
    "layout",
    "twist_request",
    "mirrored_choice",
    "swap_primaries",
)
"""Changes the generator's manual says start a new game (both Secondary decks reset)."""


@dataclass(frozen=True)
class SetupChange:
    """The set-up a change gives, and what it would throw away if the app applied it."""

    before: MissionSetup
    after: MissionSetup
    discards_game_state: bool
    reason: str


def _layout_request(setup: MissionSetup) -> str | None:
    """What to ask :func:`generate_mission` for to get ``setup``'s layout again."""
    from engine.layouts import layout

    if setup.layout is None:
        return None
    return "random" if setup.layout_drawn else layout(setup.layout).letter


def game_in_progress(game: Mapping[str, Any] | None) -> bool:
    """Whether a ``game`` section holds progress a reset would lose: a deck, VP, CP, events or
    a battle round past the first."""
    if not game:
        return False
    if int(game.get("battle_round", 1)) > 1:
        return True
    for entry in dict(game.get("players", {})).values():
        if entry.get("deck") or entry.get("vp") or entry.get("secondaries"):
            return True
    return bool(game.get("destroyed_this_turn"))


def change_setup(
    setup: MissionSetup,
    game: Mapping[str, Any] | None,
    *,
    players: tuple[str, str] | None = None,
    **changes: Any,
) -> SetupChange:
    """Regenerate ``setup`` with some arguments of :func:`generate_mission` changed.

    Nothing is applied: the result says whether the change would discard the game in progress
    (``discards_game_state``), so the app asks before swapping ``after`` in.

    >>> s = generate_mission(("r", "b"), ("Take and Hold", "Disruption"), 5,
    ...                      deployment="dawn-of-war")
    >>> change = change_setup(s, {"battle_round": 3}, deployment="tipping-point")
    >>> change.after.deployment, change.discards_game_state
    ('tipping-point', True)
    """
    unknown = set(changes) - set(RESETTING_CHANGES) - {"seed", "winner_chooses"}
    if unknown:
        raise RulesError(f"cannot change {', '.join(sorted(unknown))} of a set-up")
    arguments: dict[str, Any] = {
        "force_dispositions": tuple(p.force_disposition for p in setup.players),
        "primaries": tuple(p.card_primary if p.chosen else None for p in setup.players),
        "deployment": None if setup.deployment_drawn or setup.layout else setup.deployment,
        "layout": _layout_request(setup),
        "twist_request": setup.twist,
        "mirrored_choice": setup.mirrored_primary if not setup.mirrored_rolls else None,
        "swap_primaries": setup.primaries_swapped or setup.twist != "scrambled-communications",
    }
    arguments.update(changes)
    seed = int(arguments.pop("seed", setup.seed))
    after = generate_mission(players or setup.player_ids, seed=seed, **arguments)
    if setup.deployment_drawn and "deployment" not in changes and seed == setup.seed:
        after = replace(after, deployment=setup.deployment, deployment_drawn=True)
    resets = [k for k in RESETTING_CHANGES if k in changes] or (
        ["seed"] if seed != setup.seed else []
    )
    progress = game_in_progress(game)
    discards = progress and bool(resets) and after != setup
    reason = (
        f"changing {', '.join(resets)} starts a new game: both Secondary Mission decks reset and "
        "the game in progress is discarded"
        if discards
        else "no game progress is lost"
    )
    return SetupChange(setup, after, discards, reason)


# ---------------------------------------------------------------------------------------------
# Onto the battlefield


def central_objective_points(scenario: Scenario, roll: int) -> tuple[Point, ...]:
    """The central objective point(s) for a D6 ``roll``: the centre on 1-5; on a 6 two points
    6" either side of it, measured along the line dividing the players' territories."""
    if not 1 <= roll <= 6:
        raise RulesError(f"a D6 roll is 1 to 6, got {roll}")
    cx, cy = scenario.battlefield.centre
    if roll < 6:
        return ((cx, cy),)
    line = territory_dividing_line(scenario)
    centre = shapely.Point(cx, cy)
    along = float(line.project(centre))
    points = []
    for offset in (-CENTRAL_OFFSET, CENTRAL_OFFSET):
        p = line.interpolate(along + offset)
        points.append((round(float(p.x), 9), round(float(p.y), 9)))
    return tuple(sorted(points))


def territory_dividing_line(scenario: Scenario) -> shapely.LineString:
    """The line (possibly stepped) between the two players' territories, inside the battlefield.

    Falls back to the long centre line when the scenario has no resolvable deployment.
    """
    from engine.deployments import resolve_deployment

    resolved = resolve_deployment(scenario)
    width, depth = scenario.battlefield.width, scenario.battlefield.depth
    fallback = shapely.LineString([(0.0, depth / 2.0), (width, depth / 2.0)])
    if resolved is None or len(scenario.players) != 2:
        return fallback
    first, second = scenario.player_ids()
    shared = shapely.intersection(
        resolved.territory_geometry(first).boundary, resolved.territory_geometry(second).boundary
    )
    inner = shapely.intersection(shared, shapely.box(0, 0, width, depth))
    lines = [g for g in getattr(inner, "geoms", [inner]) if isinstance(g, shapely.LineString)]
    if not lines:
        return fallback
    merged = linemerge(lines) if len(lines) > 1 else lines[0]
    if isinstance(merged, shapely.LineString):
        return merged
    centre = shapely.Point(*scenario.battlefield.centre)
    return min(merged.geoms, key=lambda g: g.distance(centre))


def terrain_objectives(scenario: Scenario) -> dict[str, str]:
    """For each objective point, the terrain piece whose area covers it (a terrain objective).

    When several areas cover a point the smallest is taken (it is the feature set up on it).
    """
    found: dict[str, str] = {}
    for objective in scenario.objectives:
        covering = [
            (terrain_area(t).geometry.area, t.id)
            for t in scenario.terrain
            if terrain_area(t).covers_point(objective.x, objective.y)
        ]
        if covering:
            found[objective.id] = min(covering)[1]
    return found


def new_game(
    scenario: Scenario,
    *,
    seed: int,
    force_dispositions: tuple[str | None, str | None],
    primaries: tuple[str | None, str | None] = (None, None),
    deployment: str | None = None,
    layout: str | None = None,
    twist_request: str | None = "none",
    mirrored_choice: str | None = None,
    swap_primaries: bool = True,
    winner_chooses: Literal["attacker", "defender"] = "attacker",
    dropped_options: Iterable[str] = (),
) -> Scenario:
    """``scenario`` set up as a new Chapter Approved 2026-27 game: :func:`generate_mission`
    with these choices, then :func:`apply_setup`; ``dropped_options``: option keys of other
    rule systems to remove. ``layout`` (A, B, C or ``"random"``) puts the game on a
    recommended layout for the two Force Dispositions; None keeps the Deployment card's path.

    >>> from engine.model import Player
    >>> blank = Scenario("scrollhammer", (Player("red"), Player("blue")))
    >>> dispositions = ("Take and Hold", "Purge the Foe")
    >>> game = new_game(blank, seed=3, force_dispositions=dispositions)
    >>> game.ruleset, game.game["battle_round"]
    ('wh40k-ca2026', 1)
    >>> on_table = new_game(blank, seed=3, force_dispositions=dispositions, layout="B")
    >>> on_table.layout.id, on_table.game["setup"]["layout_drawn"]
    ('take-and-hold-vs-purge-the-foe-b', False)
    """
    setup = generate_mission(
        scenario.player_ids(),
        force_dispositions,
        seed,
        primaries=primaries,
        deployment=deployment,
        layout=layout,
        twist_request=twist_request,
        mirrored_choice=mirrored_choice,
        swap_primaries=swap_primaries,
        winner_chooses=winner_chooses,
    )
    staged = replace(without_options(scenario, dropped_options), ruleset="wh40k-ca2026")
    return apply_setup(setup, staged)


def apply_setup(
    setup: MissionSetup, scenario: Scenario, *, terrain_objectives_on: bool = True
) -> Scenario:
    """``scenario`` set up for ``setup``: deployment card, player roles, the card's objective
    points with the rolled central point(s), terrain objectives and the ``game`` section's
    mission keys (a new game: battle round 1, the first player's turn). On a recommended
    layout the layout's terrain, objectives and Deployment card replace the card's points."""
    if set(scenario.player_ids()) != set(setup.player_ids):
        raise RulesError("the set-up's players are not the scenario's players")
    players = tuple(
        replace(p, role="attacker" if p.id == setup.attacker else "defender")
        for p in scenario.players
    )
    staged = replace(scenario, deployment=setup.deployment, players=(players[0], players[1]))
    if setup.layout is not None:
        from engine.layouts import apply_layout

        staged = apply_layout(staged, setup.layout)
    else:
        staged = replace(
            staged, objectives=_card_objectives(staged, setup.central_roll), layout=None
        )
    if terrain_objectives_on and setup.layout is None:
        covering = terrain_objectives(staged)
        staged = replace(
            staged,
            objectives=tuple(
                replace(o, terrain=covering.get(o.id, o.terrain)) for o in staged.objectives
            ),
        )
    game: dict[str, Any] = {
        "battle_round": 1,
        "active_player": setup.first_turn,
        "timing": "start_of_turn",
        "first_player": setup.first_turn,
        "setup": setup.to_json(),
        "players": {},
    }
    if setup.twist is not None:
        game["twist"] = setup.twist
    for p in setup.players:
        entry: dict[str, Any] = {"primary": setup.primary_of(p.player)}
        if p.force_disposition is not None:
            entry["force_disposition"] = p.force_disposition
        game["players"][p.player] = entry
    return replace(staged, game=freeze(game))


def with_deployment_variant(
    scenario: Scenario, chosen: Mapping[str, str], setup: MissionSetup | None = None
) -> Scenario:
    """``scenario`` with ``options.deployment_variant`` set to ``chosen`` (dispute -> choice of
    its Deployment card); with the game's ``setup``, the objectives are placed again as
    :func:`apply_setup` places them for that variant: the card's points for it plus the rolled
    central point(s), or the recommended layout's objectives. Nothing else changes (the game in
    progress is kept). A choice the card does not offer raises :class:`RulesError` naming it.

    >>> from engine.model import Player
    >>> blank = Scenario("wh40k-ca2026", (Player("red"), Player("blue")))
    >>> game = new_game(blank, seed=3, force_dispositions=("Take and Hold", "Purge the Foe"),
    ...                 deployment="dawn-of-war")
    >>> setup = setup_from_json(game.game["setup"])
    >>> after = with_deployment_variant(game, {"objectives": "11e-candidate"}, setup)
    >>> after.options["deployment_variant"]["objectives"], after.game == game.game
    ('11e-candidate', True)
    >>> [(o.id, o.y) for o in after.objectives if o.role == "home"]
    [('obj-home-blue', 10), ('obj-home-red', 34)]
    >>> with_deployment_variant(game, {"objectives": "12e"}, setup)
    Traceback (most recent call last):
    ...
    engine.errors.RulesError: objectives: must be one of 10e, 11e-candidate; got '12e'
    """
    from engine.deployments import deployment_ids, variant_problems

    deployment = scenario.deployment
    if not isinstance(deployment, str) or deployment not in deployment_ids():
        raise RulesError("a deployment variant needs a Deployment card; this scenario has none")
    problems = variant_problems(deployment, dict(chosen))
    if problems:
        raise RulesError("; ".join(problems))
    staged = with_option(scenario, "deployment_variant", dict(chosen))
    if setup is None:
        return staged
    return replace(staged, objectives=apply_setup(setup, staged).objectives)


def _card_objectives(scenario: Scenario, central_roll: int) -> tuple[Objective, ...]:
    from engine.deployments import resolve_deployment

    resolved = resolve_deployment(scenario)
    base = [o for o in (resolved.objective_points if resolved else ()) if o.role != "central"]
    centrals = central_objective_points(scenario, central_roll)
    names = ["obj-centre"] if len(centrals) == 1 else ["obj-centre-1", "obj-centre-2"]
    central = [
        Objective(n, x, y, role="central") for n, (x, y) in zip(names, centrals, strict=True)
    ]
    return tuple(base) + tuple(central)


def setup_from_json(data: Mapping[str, Any]) -> MissionSetup:
    """The inverse of :meth:`MissionSetup.to_json`."""
    players = [
        PlayerSetup(
            p["player"],
            p.get("force_disposition"),
            p["primary"],
            bool(p.get("primary_chosen", False)),
        )
        for p in data["players"]
    ]

    def roll(raw: Mapping[str, Any]) -> Roll:
        return Roll(tuple((int(a), int(b)) for a, b in raw["rolls"]), raw["winner"])

    return MissionSetup(
        seed=int(data["seed"]),
        players=(players[0], players[1]),
        deployment=data["deployment"],
        deployment_drawn=bool(data.get("deployment_drawn", False)),
        twist=data.get("twist"),
        mirrored_primary=data.get("mirrored_primary"),
        mirrored_rolls=tuple(data.get("mirrored_rolls", ())),
        primaries_swapped=bool(data.get("primaries_swapped", False)),
        central_roll=int(data["central_roll"]),
        attacker_roll=roll(data["attacker_roll"]),
        attacker=data["attacker"],
        first_turn_roll=roll(data["first_turn_roll"]),
        layout=data.get("layout"),
        layout_drawn=bool(data.get("layout_drawn", False)),
    )


__all__ = [
    "MissionSetup",
    "PlayerSetup",
    "SetupChange",
    "apply_setup",
    "central_objective_points",
    "change_setup",
    "game_in_progress",
    "generate_mission",
    "mirrored_world_roll",
    "new_game",
    "setup_from_json",
    "terrain_objectives",
    "territory_dividing_line",
    "with_deployment_variant",
]
