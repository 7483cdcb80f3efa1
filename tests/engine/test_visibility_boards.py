"""Line of sight on game-scale boards, whole matrices: the stress board, the ruin layout with
upper floors, and an official table (a recommended layout with two ~100-model armies).

Every pair is decided (no "not proven"), a mirrored table gives the mirrored answers, and the
independent reference confirms sampled witnesses and finds no clear line for sampled hidden
pairs.
"""

from __future__ import annotations

import dataclasses
import functools
import random

import numpy as np
import pytest

from benchmarks.official_table import make_official_table
from benchmarks.ruin_layout import make_ruin_layout
from benchmarks.stress import make_stress_scenario
from engine import sight_kernel as kernel
from engine.model import Polygon, Scenario
from engine.visibility import SEARCH_GROW, PairVisibility, SightScene, VisibilityEngine, visibility
from tests.engine import los_reference as ref

BOARDS = {
    "stress": lambda: make_stress_scenario(seed=1),
    "ruins": lambda: make_ruin_layout(seed=1),
    "official": make_official_table,
}


@functools.cache
def board(name: str) -> tuple[Scenario, tuple[PairVisibility, ...]]:
    scenario = BOARDS[name]()
    return scenario, visibility(scenario)


def mirrored(scenario: Scenario) -> Scenario:
    """The table mirrored across its centre line ``x = width / 2``: terrain, models (a base's
    rotation mirrors to its negative) and nothing else that line of sight reads."""
    width = scenario.battlefield.width

    def flip(points: Polygon) -> Polygon:
        return tuple((width - x, y) for x, y in points)

    terrain = tuple(
        dataclasses.replace(
            piece,
            area=flip(piece.area),
            other_footprints=tuple(flip(p) for p in piece.other_footprints),
            features=tuple(dataclasses.replace(f, shape=flip(f.shape)) for f in piece.features),
            floors=tuple(dataclasses.replace(f, shape=flip(f.shape)) for f in piece.floors),
        )
        for piece in scenario.terrain
    )
    units = tuple(
        dataclasses.replace(
            unit,
            models=tuple(
                dataclasses.replace(m, x=width - m.x, rotation=-m.rotation % 360.0)
                for m in unit.models
            ),
        )
        for unit in scenario.units
    )
    return dataclasses.replace(scenario, terrain=terrain, units=units)


@pytest.mark.slow
@pytest.mark.parametrize("name", list(BOARDS))
def test_whole_matrix_is_decided(name: str) -> None:
    scenario, pairs = board(name)
    opposing = sum(
        1 for a in scenario.units for b in scenario.units if a.player != b.player and a.models
    )
    assert len(pairs) == opposing
    undecided = [p for p in pairs if "not proven" in p.explanation]
    assert not undecided, [(p.observer, p.target, p.explanation) for p in undecided[:3]]
    for p in pairs:
        assert p.visible == (p.witness is not None)
        assert p.visible or not (p.fully_visible or p.cover)
    assert any(p.visible for p in pairs)
    assert any(not p.visible for p in pairs)
    assert any(p.visible and not p.fully_visible for p in pairs)


@pytest.mark.slow
@pytest.mark.parametrize("name", list(BOARDS))
def test_mirrored_table_mirrors_every_verdict(name: str) -> None:
    scenario, pairs = board(name)
    mirror = visibility(mirrored(scenario))
    assert [p.to_json() for p in mirror] == [p.to_json() for p in pairs]


@pytest.mark.slow
@pytest.mark.parametrize("name", ["ruins", "official"])
def test_two_threads_answer_every_pair_as_one_thread_does(name: str) -> None:
    """Threads take unit pairs in a different order every run; no answer may depend on it
    (witness, blockers and explanation included), and a row asked after the matrix reads it."""
    scenario = BOARDS[name]()
    one_thread = VisibilityEngine(scenario, threads=1).matrix()
    two_threads = VisibilityEngine(scenario, threads=2)
    assert [p.to_json(extra=True) for p in two_threads.matrix()] == [
        p.to_json(extra=True) for p in one_thread
    ]
    observer = scenario.units[0].id
    assert two_threads.row(observer) == tuple(p for p in one_thread if p.observer == observer)


@pytest.mark.slow
@pytest.mark.parametrize("name", list(BOARDS))
def test_game_board_verdicts_against_the_reference(name: str) -> None:
    scenario, pairs = board(name)
    rng = random.Random(17)
    visible = [p for p in pairs if p.visible]
    hidden = [p for p in pairs if not p.visible and "Night" not in p.explanation]
    for p in rng.sample(visible, min(24, len(visible))):
        assert ref.witness_confirmed(scenario, p), (p.observer, p.target, p.witness)
    checked = 0
    for p in rng.sample(hidden, min(4, len(hidden))):
        observer, target = scenario.unit(p.observer), scenario.unit(p.target)
        model_pairs = [
            (obs, tgt)
            for obs in rng.sample(observer.models, min(2, len(observer.models)))
            for tgt in rng.sample(target.models, min(2, len(target.models)))
        ]
        assert ref.clear_model_pair(scenario, p, model_pairs) is None, (p.observer, p.target)
        checked += len(model_pairs)
    assert checked >= 4


@pytest.mark.slow
@pytest.mark.parametrize("name", list(BOARDS))
def test_not_fully_visible_rests_on_points_the_reference_finds_hidden(name: str) -> None:
    """Cover is asked before "fully visible" and leaves its terrain-alone proofs where the
    question with models reads them (models only hide more), and a target model every observer
    is already proven not to see whole is asked first. Whatever was asked first, the verdict is
    the one a fresh search gives, and every cached proof of a hidden point holds, models and
    all, for the reference."""
    scenario, pairs = board(name)
    scene = SightScene(scenario)
    rng = random.Random(23)
    partly = [p for p in pairs if p.visible and not p.fully_visible]
    checked = 0
    for p in rng.sample(partly, min(6, len(partly))):
        observer, target = scenario.unit(p.observer), scenario.unit(p.target)
        assert not scene.pair(observer, target).fully_visible
        observing, targets = scene.rows_of(observer), scene.rows_of(target)
        fresh = kernel.unit_fully_visible(
            scene.arrays,
            kernel.new_cache(),
            observing,
            targets,
            np.zeros(len(scene.labels), dtype=bool),
            SEARCH_GROW,
        )
        assert not fresh[0]
        cache = scene.slot(observer.id, target.id).full
        blockers = ref.blockers_for(scenario, observer.id, target.id)
        models = len(scene.arrays.model_top)
        for obs in observer.models:
            for tgt in target.models:
                i, j = scene.index[obs.id], scene.index[tgt.id]
                if kernel.known_state(cache, (i * models + j) * 2) != kernel.FULLY_HIDDEN:
                    continue
                status, hx, hy = kernel.full_pair(scene.arrays, cache, i, j, False, SEARCH_GROW)[:3]
                assert status == kernel.FULLY_HIDDEN
                seen = ref.point_seen_with_clearance(
                    ref.model_shape(obs).grid(),
                    np.array([hx, hy]),
                    obs.z + obs.height,
                    tgt.z,
                    blockers + ref.screens_for(scenario, tgt),
                )
                assert not seen, (obs.id, tgt.id, hx, hy)
                checked += 1
    assert checked >= 6
