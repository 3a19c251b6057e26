"""The cheaper bound descent (optimiser.DESCENT_CAP): each step asks the Benders master alone
(no_game_reaches(checks=0)) and the descent stops where the master finds cards. On tiny sheets where the count
relaxation with cuts (optimum C) is above the final-garden relaxation's optimum R (>= the best game): the master
alone answers "none" exactly above C (an off-by-one either way fails), never at or below R; the capped descent stops
at C with no pinned check, never below R (with `reaches` it asks nothing at C); solve with it forced keeps the
oracle's optimum."""
from __future__ import annotations

import random

import pytest
from ortools.sat.python import cp_model

from solver.core.solve import SolveControl
from solver.games.horticulture import optimiser as optimiser_module
from solver.games.horticulture.model import HorticultureModel
from solver.games.horticulture.state import Setup

from .helpers import oracle, random_instance, tiny_catalog


def control(work=30.0):
    return SolveControl(time_limit_s=300.0, deterministic_limit=work, num_workers=1, random_seed=0)


@pytest.fixture(scope="module")
def sheets(tmp_path_factory):
    return {(c, r): tiny_catalog(tmp_path_factory.mktemp(f"cap{c}x{r}"), c, r) for c, r in ((4, 2), (4, 3))}


def optimum(model: HorticultureModel) -> int:
    status, solver = control().solve(model.m)
    assert status == cp_model.OPTIMAL
    return int(round(solver.objective_value))


def checks_asked(monkeypatch) -> list:
    """Spies on optimiser.no_game_reaches: the list gets each call's `checks` (None: pinned checks allowed)."""
    calls = []
    real = optimiser_module.no_game_reaches

    def spy(*args, **kwargs):
        calls.append(kwargs.get("checks"))
        return real(*args, **kwargs)

    monkeypatch.setattr(optimiser_module, "no_game_reaches", spy)
    return calls


# (columns, rows, seed): instances where C > R (found by scanning seeds 0-39: R 16 / 11 / 16, C 18 / 13 / 20)
CASES = [(4, 2, 5), (4, 2, 24), (4, 3, 17)]


@pytest.mark.parametrize("columns,rows,seed", CASES)
def test_master_alone_and_the_capped_descent(sheets, columns, rows, seed, monkeypatch):
    catalog = sheets[(columns, rows)]
    nursery, days, plan, drawing, gnome = random_instance(catalog, random.Random(200 + seed))
    relaxed = optimum(HorticultureModel(catalog, "T", drawing, days, gnome, plan, timed=False))
    counted = optimum(HorticultureModel(catalog, "T", drawing, days, gnome, plan, timed=False, groups="count",
                                        count_cuts=optimiser_module.BOUND_CUTS))
    assert counted > relaxed
    for target in range(relaxed - 1, counted + 3):
        answer, _, rounds = optimiser_module.no_game_reaches(catalog, "T", drawing, days, gnome, plan, target,
                                                             control(), 30.0, checks=0,
                                                             first=[spec.options[0] for spec in days])
        assert rounds == 0  # no pinned check, not even of `first`
        assert answer == ("none" if target > counted else "open")
    calls = checks_asked(monkeypatch)
    start = counted + 2
    # no round with pinned checks: the master alone stops at C
    bound, _, gardens = optimiser_module._descend(catalog, "T", drawing, days, gnome, plan, control(), start,
                                                  relaxed - 3, 30.0, cap=30.0)
    assert bound == counted and not gardens and calls and set(calls) == {0}
    # a cap of 0: nothing is searched, the bound stays
    assert optimiser_module._descend(catalog, "T", drawing, days, gnome, plan, control(), start, relaxed - 3, 30.0,
                                     cap=0.0)[:2] == (start, 0.0)
    # `reaches`: `first` (here the count relaxation's optimum, a master solution at C) answers the first step: no
    # question at C at all, the same bound; without `reaches` the master alone is asked once and finds cards
    count = HorticultureModel(catalog, "T", drawing, days, gnome, plan, timed=False, groups="count",
                              count_cuts=optimiser_module.BOUND_CUTS)
    status, solver = control().solve(count.m)
    first = count.chosen_cards(solver)
    for reaches, asked in ((True, []), (False, [0])):
        calls.clear()
        bound, _, _ = optimiser_module._descend(catalog, "T", drawing, days, gnome, plan, control(), counted,
                                                relaxed - 3, 30.0, first=first, cap=30.0, reaches=reaches)
        assert bound == counted and calls == asked
    # the uncapped descent (cap None) goes further, to R exactly (test_descent.py), at more cost
    calls.clear()
    full, full_cost, _ = optimiser_module._descend(catalog, "T", drawing, days, gnome, plan, control(), start,
                                                   relaxed - 3, 30.0)
    assert full == relaxed <= bound and None in calls


def test_solve_with_the_capped_descent_keeps_the_oracle_optimum(sheets, monkeypatch):
    """As test_descent's solve test (4x2 seed 8: count bound without cuts 14, best game 13), with DESCENT_CAP set:
    the count-first bound stays >= the oracle and solve returns the oracle's optimum, proven."""
    catalog = sheets[(4, 2)]
    calls = []
    real = optimiser_module._descend

    def spy(*args, **kwargs):
        out = real(*args, **kwargs)
        calls.append((args[7], kwargs.get("cap"), out[0]))
        return out

    for name, value in (("COUNT_FIRST_MIN_DAYS", 1), ("COUNT_CUT_MIN", 0.0), ("BENDERS_GAP", 0),
                        ("DESCENT_SHARE", 0.5), ("DESCENT_CAP", 0.1), ("BENDERS_SHARE", 0.95),
                        ("CARDS_SHARE", 0.05), ("BOUND_CUTS", frozenset()), ("CLASS_COUNT", False),
                        ("_descend", spy)):
        monkeypatch.setattr(optimiser_module, name, value)
    nursery, days, plan, drawing, gnome = random_instance(catalog, random.Random(208))
    best = oracle(catalog, Setup("T", drawing, gnome, plan), nursery)
    relaxed = HorticultureModel(catalog, "T", drawing, days, gnome, plan, timed=False)
    bound, found, _ = optimiser_module._count_first(relaxed, catalog, "T", drawing, days, gnome, plan, control(), 30.0,
                                                    10 ** 6)
    assert found and bound >= best
    assert calls and all(cap == pytest.approx(3.0) and out >= best for _, cap, out in calls)
    sol = optimiser_module.solve(catalog, "T", drawing, days, gnome, plan, control())
    assert sol.status == "optimal" and sol.score == sol.bound == best
