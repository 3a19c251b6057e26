"""The cheaper bound descent (optimiser.DESCENT_CAP): each step asks the Benders master alone
(no_game_reaches(checks=0)), and one capped no_game_reaches with pinned checks runs where the master first finds
cards. On tiny sheets where the count relaxation with cuts (optimum C) is above the final-garden relaxation's
optimum R (>= the best game): the master alone answers "none" exactly above C (an off-by-one either way fails), never
at or below R; the capped descent stops at C without a pinned check (DESCENT_CHECKED off) and at C - 1 with one,
never below R, and runs exactly one pinned-check call; solve with it forced keeps the oracle's optimum."""
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
        seen: list = []
        answer, _, rounds = optimiser_module.no_game_reaches(catalog, "T", drawing, days, gnome, plan, target,
                                                             control(), 30.0, checks=0, master_cards=seen,
                                                             first=[spec.options[0] for spec in days])
        assert rounds == 0  # no pinned check, not even of `first`
        assert answer == ("none" if target > counted else "open")
        if answer == "open":
            assert len(seen) == 1 and all(c in spec.options for c, spec in zip(seen[0], days))
    calls = checks_asked(monkeypatch)
    start = counted + 2
    # no round with pinned checks: the master alone stops at C
    monkeypatch.setattr(optimiser_module, "DESCENT_CHECKED", False)
    bound, _, gardens = optimiser_module._descend(catalog, "T", drawing, days, gnome, plan, control(), start,
                                                  relaxed - 3, 30.0, cap=30.0)
    assert bound == counted and not gardens and None not in calls
    # the ascent (DESCENT_ASCENT's step) after it: from a best garden at R, "none" at R + 1 proves R; from below R a
    # garden is found and the bound stays C
    bound, _, gardens = optimiser_module._descend(catalog, "T", drawing, days, gnome, plan, control(), start,
                                                  relaxed, 30.0, cap=30.0, ascent=30.0)
    assert bound == relaxed and not gardens
    bound, _, gardens = optimiser_module._descend(catalog, "T", drawing, days, gnome, plan, control(), start,
                                                  relaxed - 3, 30.0, cap=30.0, ascent=30.0)
    assert bound == counted and len(gardens) == 1 and relaxed - 2 <= gardens[0].objective_value <= relaxed
    # a cap of 0: nothing is asked
    calls.clear()
    assert optimiser_module._descend(catalog, "T", drawing, days, gnome, plan, control(), start, relaxed - 3, 30.0,
                                     cap=0.0)[0] == start
    monkeypatch.setattr(optimiser_module, "DESCENT_CHECKED", True)
    # with room: one capped round proves C - 1 (its checks refute the master's cards), then the master alone finds
    # cards at C - 1 again and the descent stops
    calls.clear()
    bound, cost, _ = optimiser_module._descend(catalog, "T", drawing, days, gnome, plan, control(), start,
                                               relaxed - 3, 30.0, cap=30.0)
    assert relaxed <= bound == counted - 1
    assert calls.count(None) == 1
    # `reaches`: `first` (here the count relaxation's optimum, a master solution at C) is the first step's card
    # choice, no master search at C: the same bound, and the checked call is the first call
    calls.clear()
    count = HorticultureModel(catalog, "T", drawing, days, gnome, plan, timed=False, groups="count",
                              count_cuts=optimiser_module.BOUND_CUTS)
    status, solver = control().solve(count.m)
    first = count.chosen_cards(solver)
    bound, _, _ = optimiser_module._descend(catalog, "T", drawing, days, gnome, plan, control(), counted,
                                            relaxed - 3, 30.0, first=first, cap=30.0, reaches=True)
    assert relaxed <= bound == counted - 1 and calls[0] is None and calls.count(None) == 1
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
                        ("CARDS_SHARE", 0.05), ("BOUND_CUTS", frozenset()), ("_descend", spy)):
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


@pytest.mark.parametrize("columns,rows,seed", CASES[:2])
def test_checked_round_only_where_the_budget_allows_it(sheets, columns, rows, seed, monkeypatch):
    """DESCENT_CHECKED off, `spare` set (DESCENT_CHECKED_KEEP's condition): with `reaches` the first step asks no
    master (nothing spent before the decision), so the checked round (limit `round_cap`) runs exactly when
    spare >= round_cap: then it proves C - 1 (one pinned-check call), else the descent stops at C with none; the
    bound is never below R. spare = round_cap runs it, spare a hair below does not (an off-by-one either way
    fails)."""
    catalog = sheets[(columns, rows)]
    nursery, days, plan, drawing, gnome = random_instance(catalog, random.Random(200 + seed))
    relaxed = optimum(HorticultureModel(catalog, "T", drawing, days, gnome, plan, timed=False))
    count = HorticultureModel(catalog, "T", drawing, days, gnome, plan, timed=False, groups="count",
                              count_cuts=optimiser_module.BOUND_CUTS)
    status, solver = control().solve(count.m)
    assert status == cp_model.OPTIMAL
    counted, first = int(round(solver.objective_value)), count.chosen_cards(solver)
    assert counted > relaxed
    calls = checks_asked(monkeypatch)
    monkeypatch.setattr(optimiser_module, "DESCENT_CHECKED", False)
    for spare, expected in ((20.0, counted - 1), (20.0 - 1e-3, counted), (-1.0, counted), (None, counted)):
        calls.clear()
        bound, _, _ = optimiser_module._descend(catalog, "T", drawing, days, gnome, plan, control(), counted,
                                                relaxed - 3, 30.0, first=first, cap=1.0, reaches=True,
                                                round_cap=20.0, spare=spare)
        assert relaxed <= bound == expected, (spare, bound)
        assert calls.count(None) == (1 if expected < counted else 0)
        if expected < counted:
            assert calls[0] is None  # the checked round, with `first`, before any master alone
