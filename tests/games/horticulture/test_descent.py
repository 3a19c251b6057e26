"""Bound descent (optimiser._descend, DESCENT_SHARE): no_game_reaches at the bound, then one lower while it
answers "none". Held against the exhaustive oracle (never below the best game) and against the final-garden
relaxation's optimum R, where the descent must stop exactly: "none" is proven for every target above R and
impossible at R (a garden of the relaxation reaches it), so an off-by-one in either direction fails."""
from __future__ import annotations

import random

import pytest
from ortools.sat.python import cp_model

from solver.core.solve import SolveControl
from solver.games.horticulture import optimiser as optimiser_module
from solver.games.horticulture.model import HorticultureModel
from solver.games.horticulture.state import Setup

from .helpers import oracle, random_instance, tiny_catalog


@pytest.fixture(scope="module")
def tiny4(tmp_path_factory):
    return tiny_catalog(tmp_path_factory.mktemp("descent4x2"), 4, 2)


def control(work=30.0):
    return SolveControl(time_limit_s=300.0, deterministic_limit=work, num_workers=1, random_seed=0)


def instance(catalog, seed):
    return random_instance(catalog, random.Random(200 + seed))


_BEST: dict = {}


def best_game(catalog, seed) -> int:
    """The oracle's optimum of instance(seed), computed once (the oracle takes seconds)."""
    if seed not in _BEST:
        nursery, _, plan, drawing, gnome = instance(catalog, seed)
        _BEST[seed] = oracle(catalog, Setup("T", drawing, gnome, plan), nursery)
    return _BEST[seed]


def relaxed_optimum(catalog, days, plan, drawing, gnome) -> int:
    model = HorticultureModel(catalog, "T", drawing, days, gnome, plan, timed=False)
    status, solver = control().solve(model.m)
    assert status == cp_model.OPTIMAL
    return int(round(solver.objective_value))


# seeds whose oracle is quick (2-4 s; others take 10-60 s)
@pytest.mark.parametrize("seed", [2, 8])
def test_the_descent_stops_at_the_relaxed_optimum_never_below_the_best_game(tiny4, seed):
    nursery, days, plan, drawing, gnome = instance(tiny4, seed)
    best = best_game(tiny4, seed)
    top = relaxed_optimum(tiny4, days, plan, drawing, gnome)
    assert top >= best
    start = top + 3
    bound, cost, gardens = optimiser_module._descend(tiny4, "T", drawing, days, gnome, plan, control(), start,
                                                     best - 2, 30.0)
    assert bound >= best
    assert bound == top  # "none" at top + 3 .. top + 1, "garden" at top
    assert len(gardens) == 1 and gardens[0].objective_value >= top
    # a known garden at `top` stops it there: nothing is asked at or below it
    bound, _, gardens = optimiser_module._descend(tiny4, "T", drawing, days, gnome, plan, control(), start, top, 30.0)
    assert bound == top and not gardens
    # with a first card choice (any) checked first: the same bound
    first = [random.Random(seed).choice(spec.options) for spec in days]
    bound, _, _ = optimiser_module._descend(tiny4, "T", drawing, days, gnome, plan, control(), start, best - 2, 30.0,
                                            first=first)
    assert bound == top


@pytest.mark.parametrize("seed", [8])
def test_solve_with_the_descent_keeps_the_oracle_optimum(tiny4, seed, monkeypatch):
    """DESCENT_SHARE on in the count-first steps (forced on a tiny sheet; BENDERS_GAP 0 so the descent, not the
    Benders check, follows every cards search that ends below the count bound; no cuts in the count steps, so
    that on this seed the count bound, 14, is above the best game, 13, and the descent runs): the count-first
    bound is never below the oracle and solve returns the oracle's optimum, proven."""
    calls = []
    real = optimiser_module._descend

    def spy(*args, **kwargs):
        out = real(*args, **kwargs)
        calls.append((args[7], args[8], out[0]))  # (bound in, top, bound out)
        return out

    for name, value in (("COUNT_FIRST_MIN_DAYS", 1), ("COUNT_CUT_MIN", 0.0), ("BENDERS_GAP", 0),
                        ("DESCENT_SHARE", 0.5), ("BENDERS_SHARE", 0.95), ("CARDS_SHARE", 0.05),
                        ("BOUND_CUTS", frozenset()), ("CLASS_COUNT", False),
                        ("_descend", spy)):
        monkeypatch.setattr(optimiser_module, name, value)
    nursery, days, plan, drawing, gnome = instance(tiny4, seed)
    best = best_game(tiny4, seed)
    relaxed = HorticultureModel(tiny4, "T", drawing, days, gnome, plan, timed=False)
    bound, found, _ = optimiser_module._count_first(relaxed, tiny4, "T", drawing, days, gnome, plan, control(), 30.0,
                                                    10 ** 6)
    assert bound == best and found
    assert calls and all(out >= best for _, _, out in calls)
    assert any(start > out for start, _, out in calls)  # it lowered a bound
    sol = optimiser_module.solve(tiny4, "T", drawing, days, gnome, plan, control())
    assert sol.status == "optimal" and sol.score == sol.bound == best
