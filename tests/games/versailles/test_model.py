"""The CP-SAT solo model against the pure rules and scorer, and against an exhaustive oracle."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

from solver.core.solve import SolveControl
from solver.games.versailles.data import Tile, default_catalog
from solver.games.versailles.model import build_solo_model, run
from solver.games.versailles.rules import Placement, legal_placements, placed_fields, refusal
from solver.games.versailles.scoring import area_points, largest_areas, solo_checkpoints, solo_points
from solver.games.versailles.solo import solve_solo

from .helpers import catalog_with

CAT = default_catalog()
TILE_IDS = sorted(CAT.tiles)


_ORACLE: dict = {}  # (tiles, catalog) -> the oracle's answer, for this test process


def oracle(tiles: list[Tile], catalog=CAT) -> int:
    """Best solo points by trying every legal placement sequence (first tile in all 4 rotations).

    The answer is remembered for the rest of the test process under the tiles (ids and fields) and the catalog's
    setup and field types: some tests ask about the same instance (test_refute.py: 6 of its 3-tile sets, about a
    second each)."""
    key = (tuple((t.id, t.fields) for t in tiles), repr(catalog.setup), repr(catalog.field_types),
           repr(catalog.joker_types), repr(catalog.garden_types), repr(catalog.construction_types))
    if key not in _ORACLE:
        _ORACLE[key] = _oracle(tiles, catalog)
    return _ORACLE[key]


def _oracle(tiles: list[Tile], catalog) -> int:
    checkpoints = dict(solo_checkpoints(len(tiles), catalog))
    best = 0

    def rec(i: int, fields: dict, banked: int) -> None:
        nonlocal best
        if i == len(tiles):
            best = max(best, banked)
            return
        options = legal_placements(fields, tiles[i]) if i else [Placement(tiles[0].id, 0, 0, r) for r in range(4)]
        for p in options:
            after = {**fields, **placed_fields(tiles[i], p)}
            gain = area_points(largest_areas(after, catalog), catalog, checkpoints[i + 1]) if i + 1 in checkpoints else 0
            rec(i + 1, after, banked + gain)
    rec(0, {}, 0)
    return best


def test_hand_made_pair_reaches_eight_side_by_side():
    # "GG/BB" twice: side by side both colours join, 4 + 4 = 8 (the counting bound), so optimal
    cat = catalog_with({1: ("GG", "BB"), 2: ("GG", "BB")})
    result = solve_solo([cat.tiles[1], cat.tiles[2]], cat, time_limit=10)
    assert (result.status, result.points, result.bound) == ("optimal", 8, 8)


def test_hand_made_diagonal_pair_cannot_join_everything():
    # "GB/BG" twice: each tile's G fields touch only corner to corner, and a second tile can join at
    # most one field of each colour per shared edge. By hand: the best is a G area of 3 (one tile's
    # G pair bridged by... ) -- we let the oracle count and check the model agrees exactly.
    cat = catalog_with({1: ("GB", "BG"), 2: ("GB", "BG")})
    tiles = [cat.tiles[1], cat.tiles[2]]
    best = oracle(tiles, cat)
    assert best < 8
    result = solve_solo(tiles, cat, time_limit=10)
    assert result.status == "optimal" and result.points == best


@settings(max_examples=6, deadline=None)
@given(st.lists(st.sampled_from(TILE_IDS), min_size=2, max_size=2, unique=True))
def test_two_tile_optimum_equals_the_exhaustive_oracle(ids):
    tiles = [CAT.tiles[i] for i in ids]
    result = solve_solo(tiles, CAT, time_limit=20)
    assert result.status == "optimal"
    assert result.points == oracle(tiles) == solo_points(result.placements, CAT)


def test_three_tile_result_and_bound_enclose_the_exhaustive_oracle():
    # proving 3 tiles takes CP-SAT a few seconds on an idle machine; under load it may stop at
    # the limit, so check what must hold either way: points <= true optimum <= bound
    rng = random.Random(7)
    tiles = [CAT.tiles[i] for i in rng.sample(TILE_IDS, 3)]
    result = solve_solo(tiles, CAT, time_limit=8)
    best = oracle(tiles)
    assert result.points <= best <= result.bound
    if result.status == "optimal":
        assert result.points == best


def random_sequence(rng: random.Random, n: int, wild: bool) -> list[Placement]:
    """Placements in order: legal ones grown from the garden, or (wild) anywhere near it."""
    ids = rng.sample(TILE_IDS, n)
    fields: dict = {}
    out = []
    for i, t in enumerate(ids):
        tile = CAT.tiles[t]
        if wild or not fields:
            p = Placement(t, rng.randrange(0, 6), rng.randrange(0, 6), rng.randrange(4))
        else:
            p = rng.choice(legal_placements(fields, tile))
        out.append(p)
        fields.update(placed_fields(tile, p))
    return out


def _fixed_model(placements: list[Placement]):
    tiles = [CAT.tiles[p.tile] for p in placements]
    xs, ys = [p.x for p in placements], [p.y for p in placements]
    board = max(max(xs) - min(xs), max(ys) - min(ys)) + 2
    solo = build_solo_model(tiles, CAT, solo_checkpoints(len(tiles), CAT), board,
                            offset=(-min(xs), -min(ys)), break_symmetry=False)
    solo.fix(placements)  # a turn repeating a layout (symmetric tile) is fixed as that layout
    return solo, tiles


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 10**6), st.integers(2, 9))
def test_model_objective_equals_pure_scorer_on_fixed_legal_gardens(seed, n):
    placements = random_sequence(random.Random(seed), n, wild=False)
    solo, tiles = _fixed_model(placements)
    res = run(solo, tiles, SolveControl(time_limit_s=20))
    assert res.status == "optimal"
    assert res.objective == solo_points(placements, CAT)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**6), st.integers(2, 4))
def test_model_feasible_exactly_when_the_pure_rules_accept(seed, n):
    placements = random_sequence(random.Random(seed), n, wild=True)
    fields: dict = {}
    legal = True
    for p in placements:
        if refusal(fields, p) is not None:
            legal = False
            break
        fields.update(placed_fields(CAT.tiles[p.tile], p))
    solo, tiles = _fixed_model(placements)
    res = run(solo, tiles, SolveControl(time_limit_s=20))
    assert res.status == ("optimal" if legal else "infeasible")


def test_a_disagreement_between_model_and_scorer_is_raised_not_returned(monkeypatch):
    import solver.games.versailles.solo as solo_module
    from solver.games.versailles.solo import ModelMismatch
    monkeypatch.setattr(solo_module, "solo_points", lambda placements, catalog: -1)
    with pytest.raises(ModelMismatch, match="!= pure scorer -1"):
        solve_solo([CAT.tiles[4], CAT.tiles[5]], CAT, time_limit=10)


def test_feasible_results_carry_a_bound_no_garden_beats():
    # 9 tiles (two scorings) in a short budget: rarely proved; whatever comes back must be legal,
    # scored exactly, and bounded (one deterministic unit; until 7 Dec a 3 s wall limit, waited out in full)
    rng = random.Random(3)
    tiles = [CAT.tiles[i] for i in rng.sample(TILE_IDS, 9)]
    result = solve_solo(tiles, CAT, SolveControl(time_limit_s=60, deterministic_limit=1.0, num_workers=1,
                                                 random_seed=1))
    assert result.status in ("optimal", "feasible")
    assert result.points == solo_points(result.placements, CAT) <= result.bound
    from solver.games.versailles.solo import counting_bound
    assert result.bound <= counting_bound(tiles, CAT)


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 10))
def test_assignment_built_in_python_is_a_solution_of_the_model(seed, n):
    # the hint the optimiser starts from: every variable set from the garden, worth its solo points
    placements = random_sequence(random.Random(seed), n, wild=False)
    solo, tiles = _fixed_model(placements)
    value = solo.hint_garden(placements)
    assert value == solo_points(placements, CAT)
    from ortools.sat.python import cp_model
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.fix_variables_to_their_hinted_value = True
    solver.parameters.max_time_in_seconds = 20
    assert solver.solve(solo.model) == cp_model.OPTIMAL
    assert round(solver.objective_value) == value


def test_a_deterministic_control_gives_the_same_answer_every_time():
    # 7 tiles: greedy restarts, neighbourhood search and the full solve all run; with a
    # deterministic limit on one worker no clock decides anything, so two runs agree exactly
    from solver.games.versailles import api
    ids = random.Random(11).sample(TILE_IDS, 7)
    runs = []
    for _ in range(2):
        control = SolveControl(time_limit_s=60, deterministic_limit=0.6, num_workers=1, random_seed=5)
        out = api.solve_optimal(ids, control=control)
        out.pop("seconds")  # wall time is the one field that is measured, not computed
        runs.append(repr(out))
    assert runs[0] == runs[1]
    # the neighbourhood search (off by default) counts its steps and charges deterministic time too
    tiles = [CAT.tiles[i] for i in ids[:5]]
    again = []
    for _ in range(2):
        control = SolveControl(time_limit_s=60, deterministic_limit=0.6, num_workers=1, random_seed=5)
        out = solve_solo(tiles, CAT, control, search_steps=3).as_dict()
        out.pop("seconds")
        again.append(repr(out))
    assert again[0] == again[1]


def test_a_cancelled_control_stops_the_search():
    from solver.core.solve import Cancelled
    control = SolveControl(time_limit_s=60)
    control.cancel()
    with pytest.raises(Cancelled):
        solve_solo([CAT.tiles[i] for i in TILE_IDS[:7]], CAT, control)


def test_cancelling_a_running_search_ends_the_call():
    # what a cancelled gRPC call does: cancel() from another thread while CP-SAT searches 14 tiles
    import threading
    import time
    from solver.core.solve import Cancelled
    tiles = [CAT.tiles[i] for i in random.Random(1).sample(TILE_IDS, 14)]
    control = SolveControl(time_limit_s=300)
    timer = threading.Timer(1.0, control.cancel)
    timer.start()
    started = time.perf_counter()
    try:
        result = solve_solo(tiles, CAT, control)
        assert result.status in ("feasible", "optimal")  # stopped with the garden it had: still checked
    except Cancelled:
        pass
    timer.cancel()
    assert time.perf_counter() - started < 120  # far below the 300 s limit it would otherwise use


@settings(max_examples=10, deadline=None)
@given(st.lists(st.sampled_from(TILE_IDS), min_size=2, max_size=3, unique=True))
def test_counting_bound_is_never_below_the_exhaustive_optimum(ids):
    # solve_solo answers "optimal" without a search when a garden meets this bound
    from solver.games.versailles.solo import counting_bound
    tiles = [CAT.tiles[i] for i in ids]
    assert oracle(tiles) <= counting_bound(tiles, CAT)


def test_a_garden_at_the_counting_bound_is_optimal_and_checked():
    # GG/BB twice: the greedy joins both colours (8 = counting bound) and no search is needed
    cat = catalog_with({1: ("GG", "BB"), 2: ("GG", "BB")})
    result = solve_solo([cat.tiles[1], cat.tiles[2]], cat, time_limit=10)
    assert (result.status, result.points, result.bound) == ("optimal", 8, 8)
    assert result.work == 0  # proved by the bound, not by CP-SAT
    assert solo_points(result.placements, cat) == 8


def test_rescoring_a_garden_in_the_search_model_gives_its_pure_points():
    # the path for a search stopped before it read its hint back: the same model, placements
    # assumed, must value the garden exactly as the pure scorer does
    from solver.games.versailles.heuristic import greedy_garden
    from solver.games.versailles.solo import Budget, _rescore, default_board
    tiles = [CAT.tiles[i] for i in random.Random(5).sample(TILE_IDS, 7)]
    board = default_board(7)
    garden, points = greedy_garden(tiles, CAT, random.Random(0), board, 4)
    solo = build_solo_model(tiles, CAT, solo_checkpoints(7, CAT), board)
    assert _rescore(solo, tiles, garden, Budget(SolveControl(time_limit_s=30))) == points == solo_points(garden, CAT)


def test_optimal_on_any_board_only_when_the_counting_bound_is_met():
    from solver.games.versailles import api
    from solver.games.versailles.data import default_catalog
    from solver.games.versailles.solo import counting_bound
    catalog = default_catalog()
    for tiles in ([1, 2], [3, 9, 27], [5, 17, 23, 40]):
        r = api.solve_optimal(tiles, time_limit=5.0)
        assert r["counting_bound"] == counting_bound([catalog.tile(t) for t in tiles], catalog)
        assert r["points"] <= r["counting_bound"]
        assert r["optimal_on_any_board"] == (r["status"] == "optimal" and r["points"] == r["counting_bound"])
