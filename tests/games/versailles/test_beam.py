"""The beam search for solo gardens: legal gardens, exact points, determinism, and its use in solve_solo."""
from __future__ import annotations

import random

import pytest

from solver.core.solve import SolveControl
from solver.games.versailles.beam import beam_garden, target_choices, type_counts
from solver.games.versailles.data import default_catalog
from solver.games.versailles.rules import build_garden, parse_placement, placed_fields
from solver.games.versailles.scoring import solo_checkpoints, solo_points
from solver.games.versailles.solo import counting_bound, default_board, solve_solo

from .helpers import catalog_with, two_deterministic_runs
from .test_model import oracle

CAT = default_catalog()
TILE_IDS = sorted(CAT.tiles)


@pytest.mark.parametrize("n,seed", [(3, 0), (7, 1), (9, 2), (14, 3)])
def test_a_beam_garden_is_legal_fits_the_board_and_scores_what_it_says(n, seed):
    tiles = [CAT.tiles[i] for i in random.Random(seed).sample(TILE_IDS, n)]
    board = default_board(n)
    plan = target_choices(tiles, CAT, 1)[0]
    placements, points = beam_garden(tiles, CAT, plan, width=4, board=board)
    assert [p.tile for p in placements] == [t.id for t in tiles]
    garden = build_garden(CAT.tiles, placements)  # raises on any refused placement
    assert points == solo_points(placements, CAT)
    fields = {}
    for p in garden.placements:
        fields.update(placed_fields(CAT.tiles[p.tile], p))
    xs = [c[0] for c in fields]
    ys = [c[1] for c in fields]
    assert min(xs) == 0 and min(ys) == 0 and max(xs) < board and max(ys) < board  # a valid model hint
    assert placements[0].rotation == 0
    assert points <= counting_bound(tiles, CAT)
    # no clock and no randomness: the same call gives the same garden
    assert beam_garden(tiles, CAT, plan, width=4, board=board) == (placements, points)


@pytest.mark.parametrize("seed", range(4))
def test_a_beam_garden_never_beats_the_exhaustive_oracle(seed):
    tiles = [CAT.tiles[i] for i in random.Random(100 + seed).sample(TILE_IDS, 3)]
    best = oracle(tiles)
    for plan in target_choices(tiles, CAT, 4):
        placements, points = beam_garden(tiles, CAT, plan)
        assert points == solo_points(placements, CAT) <= best


def test_the_beam_joins_two_colour_bands():
    # GG/BB twice: both colours joined side by side, 8 points (the counting bound)
    cat = catalog_with({1: ("GG", "BB"), 2: ("GG", "BB")})
    tiles = [cat.tiles[1], cat.tiles[2]]
    placements, points = beam_garden(tiles, cat, target_choices(tiles, cat, 1)[0], board=6)
    assert points == 8 == solo_points(placements, cat)


def test_target_plans_start_with_the_types_of_the_counting_bound():
    tiles = [CAT.tiles[i] for i in random.Random(0).sample(TILE_IDS, 14)]
    plans = target_choices(tiles, CAT, 4)
    assert 1 <= len(plans) <= 4 and len(set(plans)) == len(plans)
    total = 0
    for (upto, k), chosen in zip(solo_checkpoints(14, CAT), plans[0]):
        counts = type_counts(tiles, CAT, upto)
        assert len(chosen) == k
        total += sum(counts[t] for t in chosen)
    assert total == counting_bound(tiles, CAT)


def test_solve_solo_with_the_beam_is_deterministic_and_checked():
    # a sequence longer than a stage: greedy restarts, the beam and the full solve run; with a
    # deterministic limit on one worker two runs agree exactly, and the beam can only add
    tiles = [CAT.tiles[i] for i in random.Random(7).sample(TILE_IDS, 9)]
    outs = two_deterministic_runs(tiles, CAT, 0.5, 3)
    assert repr(outs[0]) == repr(outs[1])
    control = SolveControl(time_limit_s=120, deterministic_limit=0.5, num_workers=1, random_seed=3)
    without = solve_solo(tiles, CAT, control, beam_share=0.0)
    assert outs[0]["heuristic_points"] >= without.heuristic_points
    assert outs[0]["points"] == solo_points([parse_placement(p) for p in outs[0]["placements"]], CAT)
