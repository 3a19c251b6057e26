"""The hole limit used by the ceiling, the stored shapes, and the searches on fixed shapes."""
from __future__ import annotations

import random
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.gartenbau_optimal import holding as bench_holding
from solver.core.solve import SolveControl
from solver.games.gartenbau import shapes
from solver.games.gartenbau.bound import counting_bound, counting_plan
from solver.games.gartenbau.garden import DIRECTIONS, step
from solver.games.gartenbau.optimiser import Holding, solve_optimal
from solver.games.gartenbau.rules import garden_violations
from solver.games.gartenbau.scoring import holes

from .helpers import CATALOG
from .test_model import CONTROL, brute_force


def polyominoes(n: int):
    """Every fixed polyomino (rook-connected set of cells, up to translation) of 1..n cells, by size."""
    level = {frozenset([(0, 0)])}
    yield 1, level
    for size in range(2, n + 1):
        grown = set()
        for poly in level:
            for cell in poly:
                for d in DIRECTIONS:
                    new = step(cell, d)
                    if new not in poly:
                        cells = poly | {new}
                        r0 = min(r for r, _ in cells)
                        c0 = min(c for _, c in cells)
                        grown.add(frozenset((r - r0, c - c0) for r, c in cells))
        level = grown
        yield size, level


def test_hole_limit_against_every_small_polyomino():
    """max_holes(n) is the most holes any n-space garden has: checked exhaustively up to 9 spaces
    (9,910 polyominoes of 9), where the first hole appears at 7."""
    for size, level in polyominoes(9):
        most = max(len(holes(SimpleNamespace(filled=p))) for p in level)
        assert most == shapes.max_holes(size), size
    assert [shapes.max_holes(n) for n in (22, 23, 30)] == [5, 6, 9]


def _tileable(cells: frozenset) -> bool:
    """A perfect matching of neighbouring spaces (dominoes), by augmenting paths on the chessboard."""
    black = [c for c in cells if (c[0] + c[1]) % 2 == 0]
    if 2 * len(black) != len(cells):
        return False
    mate: dict = {}

    def augment(u, seen):
        for d in DIRECTIONS:
            v = step(u, d)
            if v in cells and v not in seen:
                seen.add(v)
                if v not in mate or augment(mate[v], seen):
                    mate[v] = u
                    return True
        return False

    return all(augment(u, set()) for u in sorted(black))


def test_stored_shapes_are_gardens_with_the_holes_they_claim():
    table = shapes._table()
    assert table, "shapes.json is missing"
    for key, entries in table.items():
        spaces, beds = map(int, key.split("/"))
        for entry in entries:
            cells = frozenset((r, c) for r, row in enumerate(entry["rows"]) for c, ch in enumerate(row) if ch == "#")
            assert len(cells) == spaces and _tileable(cells), key
            assert entry["holes"] == len(holes(SimpleNamespace(filled=cells))) == shapes.count_holes(cells), key
            assert entry["holes"] <= shapes.max_holes(spaces), key
            blocks = [(r, c) for r, c in cells if {(r, c + 1), (r + 1, c), (r + 1, c + 1)} <= cells]
            assert len(blocks) >= beds, key
    assert shapes.candidate_shapes(30, 1)


def test_hole_limit_in_the_ceiling_matches_the_oracle():
    # two seedling tiles: 6 spaces enclose no hole, so the yellow Datura (holes) is worth nothing over
    # its two yellow plants; the old ceiling counted its full chart (28)
    holding = Holding("ST1", "a", ["S02", "S07"], ["P-yellow-1", "P-yellow-2"], ["B-beetle-datura"])
    starter = CATALOG.starter_tiles["ST1"].sides["a"]
    plan = counting_plan(CATALOG, starter, holding.seedlings, holding.plants, holding.flowers, 0, CONTROL)
    assert plan.bound == brute_force(holding, CATALOG) == 3
    sol = solve_optimal(holding, CATALOG, CONTROL)
    assert (sol.status, sol.prestige, sol.bound) == ("optimal", 3, 3)


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_ceiling_never_below_the_optimum(seed):
    rng = random.Random(seed)
    pool = ["S01", "S02", "S07", "S12", "S19", "S14"]
    holding = Holding("ST1", rng.choice("ab"), rng.sample(pool, 2),
                      rng.sample(["P-red-1", "P-yellow-2", "P-yellow-3", "P-orange-3", "P-red-5"], 2),
                      rng.sample(["B-beetle-datura", "B-spider-hybrid-tea-rose", "B-beetle-sweet-william",
                                  "B-bee-carnation", "B-beetle-cornflower"], 2), flower_pot=rng.random() < 0.5)
    starter = CATALOG.starter_tiles["ST1"].sides[holding.side]
    bound = counting_bound(CATALOG, starter, holding.seedlings, holding.plants, holding.flowers,
                           int(holding.flower_pot), CONTROL)
    assert bound >= brute_force(holding, CATALOG)


@pytest.fixture(scope="module")
def holey():
    """A benchmark holding (14 seedling tiles) whose ceiling needs six holes under a flower bed."""
    rng = random.Random(2024 + 14)
    for _ in range(6):
        h = bench_holding(rng, CATALOG, 14)
    return h


def test_a_fixed_shape_garden_meets_the_ceiling_and_is_deterministic(holey):
    starter = CATALOG.starter_tiles[holey.starter].sides[holey.side]
    plan = counting_plan(CATALOG, starter, holey.seedlings, holey.plants, holey.flowers, 0, CONTROL)
    assert plan.holes == 6
    control = SolveControl(time_limit_s=60.0, deterministic_limit=2.0, num_workers=1, random_seed=0)
    sol = solve_optimal(holey, CATALOG, control)
    # "optimal" here is the ceiling met: the pure scorer's prestige equals a bound on every garden
    assert (sol.status, sol.prestige, sol.bound) == ("optimal", plan.bound, plan.bound)
    assert garden_violations(sol.garden, CATALOG) == []
    assert len(holes(sol.garden)) == 6
    again = solve_optimal(holey, CATALOG, SolveControl(time_limit_s=60.0, deterministic_limit=2.0, num_workers=1,
                                                       random_seed=0))
    assert again.garden == sol.garden


def test_a_cancelled_control_stops_the_shape_searches(holey):
    from solver.core.solve import Cancelled
    control = SolveControl(time_limit_s=60.0)
    control.cancel()
    with pytest.raises(Cancelled):
        solve_optimal(holey, CATALOG, control)


def test_same_request_same_garden_in_another_process():
    """Model building must not depend on Python's per-process string hashing (sets of colour pairs
    were iterated in hash order): two processes with different hash seeds return the same garden."""
    import json
    import os
    import subprocess
    import sys
    script = (
        "import json; from solver.core.solve import SolveControl; from solver.games.gartenbau import api\n"
        "h = {'starter': {'id': 'ST1', 'side': 'a'}, 'seedlings': ['S07', 'S02', 'S01', 'S12'],"
        " 'plants': ['P-red-1', 'P-yellow-1', 'P-orange-2'], 'flowers': ['B-beetle-sweet-william', 'B-beetle-datura'],"
        " 'tokens': {'flower_pot': True, 'watering_can': False}}\n"
        "c = SolveControl(time_limit_s=60.0, deterministic_limit=1.0, num_workers=1, random_seed=0)\n"
        "r = api.solve_optimal(h, control=c)\n"
        "print(json.dumps([r['status'], r['prestige'], r['garden']], sort_keys=True))\n")
    outs = []
    for seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=300,
                              cwd=os.getcwd())
        assert done.returncode == 0, done.stderr
        outs.append(json.loads(done.stdout))
    assert outs[0] == outs[1]
