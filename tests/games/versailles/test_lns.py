"""The large neighbourhood search (`solo.improve`): kept tiles fixed in a model copy, plateau moves,
never a worse or illegal garden, never above the exhaustive oracle, deterministic in solve_solo."""
from __future__ import annotations

import random

import pytest

from solver.core.solve import SolveControl
from solver.games.versailles.data import default_catalog
from solver.games.versailles.heuristic import greedy_garden
from solver.games.versailles.model import build_solo_model
from solver.games.versailles.rules import Placement, build_garden
from solver.games.versailles.scoring import solo_checkpoints, solo_points
from solver.games.versailles.solo import Budget, counting_bound, improve

from .helpers import catalog_with, two_deterministic_runs
from .test_model import oracle

CAT = default_catalog()
TILE_IDS = sorted(CAT.tiles)


def _setup(n: int, seed: int, board: int):
    tiles = [CAT.tiles[i] for i in random.Random(seed).sample(TILE_IDS, n)]
    solo = build_solo_model(tiles, CAT, solo_checkpoints(n, CAT), board)
    garden, points = greedy_garden(tiles, CAT, random.Random(seed), board, 2)
    return tiles, solo, garden, points


@pytest.mark.parametrize("seed,small", [(0, False), (1, False), (1, True)])
def test_neighbourhood_steps_keep_a_legal_garden_worth_at_least_as_much(seed, small):
    tiles, solo, garden, points = _setup(9, seed, 8)
    budget = Budget(SolveControl(time_limit_s=60, deterministic_limit=3.0, num_workers=1, random_seed=seed))
    out, out_points = improve(solo, tiles, garden, points, counting_bound(tiles, CAT), random.Random(seed), 4,
                              budget, upto=1.0, step_work=0.5, small=small)
    assert out_points >= points
    build_garden(CAT.tiles, out)  # raises on an illegal placement
    assert solo_points(out, CAT) == out_points
    assert solo.hint_garden(out) == out_points  # still a garden of the model (board, first tile unturned)
    assert 0 < budget.work <= 3.0 + 1e-6


@pytest.mark.parametrize("small", [False, True])
def test_plateau_steps_move_the_garden_and_stay_below_the_exhaustive_optimum(small):
    # three hand-made tiles with many gardens of equal points: a step must move a free tile, and an
    # equal garden is accepted; no garden it returns beats the exhaustive oracle
    cat = catalog_with({1: ("GG", "GB"), 2: ("GG", "GG"), 3: ("BG", "GG")})
    tiles = [cat.tiles[i] for i in (1, 2, 3)]
    solo = build_solo_model(tiles, cat, solo_checkpoints(3, cat), 6)
    garden, points = greedy_garden(tiles, cat, random.Random(0), 6, 2)
    best = oracle(tiles, cat)
    budget = Budget(SolveControl(time_limit_s=60, deterministic_limit=5.0, num_workers=1, random_seed=0))
    seen = {tuple(garden)}
    current = garden
    for step in range(4):
        current, current_points = improve(solo, tiles, current, points, 10**6, random.Random(step), 1, budget,
                                          upto=1.0, step_work=0.5, small=small)
        assert points <= current_points <= best
        assert solo_points(current, cat) == current_points
        points = current_points
        seen.add(tuple(current))
    assert len(seen) > 1  # plateau moves: an equal garden elsewhere is accepted


@pytest.mark.parametrize("lns_model", ["copy", "small"])
def test_solve_solo_with_the_neighbourhood_search_is_deterministic(lns_model):
    # 9 tiles (longer than a stage): greedy, then the neighbourhood search, then the full solve (1 unit: 0.8 to
    # the neighbourhood search, the rest to the full solve; 2 units until 7 Dec, the same steps at twice the cost)
    tiles = [CAT.tiles[i] for i in random.Random(3).sample(TILE_IDS, 9)]
    runs = two_deterministic_runs(tiles, CAT, 1.0, 3, restarts=4, beam_share=0.0, lns_share=0.8,
                                  lns_model=lns_model)
    assert runs[0] == runs[1]
    placements = [Placement(**p) for p in runs[0]["placements"]]
    assert runs[0]["points"] == solo_points(placements, CAT) >= runs[0]["heuristic_points"]


def test_tiles_holding_lost_fields_are_those_with_a_scored_field_outside_its_largest_area():
    from solver.games.versailles.solo import _holding_lost_fields
    cat = catalog_with({1: ("GG", "GG"), 2: ("BB", "BB"), 3: ("GB", "RR")})
    tiles = [cat.tiles[i] for i in (1, 2, 3)]
    # tile 3's G joins tile 1's G area; its B is cut off from tile 2's B area by G and R fields
    garden = [Placement(1, 0, 0, 0), Placement(2, 2, 0, 0), Placement(3, 0, 2, 0)]
    assert _holding_lost_fields(tiles, garden, cat, solo_checkpoints(3, cat)) == [2]
    # turned so that B touches tile 2's area: nothing lost (R is not scored: G 5 and B 5 are)
    joined = [Placement(1, 0, 0, 0), Placement(2, 2, 0, 0), Placement(3, 1, 2, 0)]
    assert _holding_lost_fields(tiles, joined, cat, solo_checkpoints(3, cat)) == []


def test_a_small_step_model_gives_legal_gardens_of_the_full_model_below_the_exhaustive_optimum():
    # every choice of free tiles on three tiles: the step model's best garden is legal, keeps the
    # kept tiles, moves a free one, is a garden of the full model and scores its objective there
    from ortools.sat.python import cp_model

    from solver.games.versailles.lns import step_model
    cat = catalog_with({1: ("GG", "GB"), 2: ("BB", "GG"), 3: ("BG", "RR")})
    tiles = [cat.tiles[i] for i in (1, 2, 3)]
    solo = build_solo_model(tiles, cat, solo_checkpoints(3, cat), 6)
    garden, points = greedy_garden(tiles, cat, random.Random(0), 6, 2)
    best = oracle(tiles, cat)
    found = 0
    for free in ({0}, {1}, {2}, {0, 1}, {0, 2}, {1, 2}):
        step = step_model(solo, tiles, cat, garden, free, 0)
        if step is None:
            continue
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        if solver.solve(step.model) != cp_model.OPTIMAL:
            continue
        g = step.placements(solver)
        assert g != garden  # a free tile moved
        assert [p for i, p in enumerate(g) if i not in free] == [p for i, p in enumerate(garden) if i not in free]
        build_garden(cat.tiles, g)  # legal
        assert solver.objective_value == solo_points(g, cat) == solo.hint_garden(g) <= best
        found += 1
    assert found > 0
