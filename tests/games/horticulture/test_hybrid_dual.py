"""The hybrid loop as the whole relaxation's dual step (optimiser._hybrid_dual, switch optimiser.HYBRID_DUAL; session of
1 Dec 03:18, docs/horticulture.md). Its bound is the loop's last unrefuted target: never below a legal game (held
against the exhaustive oracle on a 4x2 sheet), and never lowered by a question left open (a simulated open answer
must leave the bound where it was). A real garden it ends on is returned only when planted day by day."""
from __future__ import annotations

import pytest
from ortools.sat.python import cp_model

from solver.games.horticulture import optimiser as optimiser_module
from solver.games.horticulture.rules import replay
from solver.games.horticulture.scoring import score_sheet
from solver.games.horticulture.state import Setup

from .helpers import control, oracle, pairs, tiny_sheet_fixture
from .test_hybrid import count_model, random_game, value

tiny4 = tiny_sheet_fixture("tiny4", 4)

# (seed, count optimum, exact final-garden optimum) on the 4x2 sheet: the count relaxation over-credits
INSTANCES = [(1, 13, 12), (10, 18, 17)]


def kept(catalog, drawing, days, gnome, plan):
    model = count_model(catalog, drawing, days, gnome, plan)
    _, solved = value(model)
    return model, solved


@pytest.mark.parametrize("seed,counted,exact", INSTANCES)
def test_the_dual_step_bounds_every_game_and_its_game_is_legal(tiny4, seed, counted, exact):
    """From the proven count optimum the loop refutes down to the exact final-garden optimum (below the count's), never
    below the oracle's best game; a game it returns replays legally and scores at most that bound."""
    nursery, plan, drawing, gnome = random_game(tiny4, 4, seed)
    days = pairs(nursery)
    best = oracle(tiny4, Setup("T", drawing, gnome, plan), nursery)
    ctl = control()
    meter = optimiser_module._Meter(ctl)
    bound, game = optimiser_module._hybrid_dual(tiny4, "T", drawing, days, kept(tiny4, drawing, days, gnome, plan),
                                                ctl, 10.0, counted, None, meter)
    assert best <= bound == exact < counted
    assert 0 < meter.used < 10.0
    if game is not None:
        played, g, p, score = game
        sheet, violations = replay(tiny4, Setup("T", drawing, g, p), played)
        assert not violations and score_sheet(tiny4, sheet).total == score <= best
        assert score == bound  # the real garden it ended on is at the proven target: optimal when planted


@pytest.mark.parametrize("seed,counted,exact", INSTANCES)
def test_an_open_question_never_lowers_the_bound(tiny4, seed, counted, exact, monkeypatch):
    """Every INFEASIBLE answer is reported as UNKNOWN (a question left open): the bound must stay at the count's
    proven value and no game is returned (a version that took target - 1, or the best solution's value, would
    fall to `exact` or below)."""
    nursery, plan, drawing, gnome = random_game(tiny4, 4, seed)
    days = pairs(nursery)
    ctl = control()
    real = ctl.solve

    def open_solve(model, solver=None, callback=None):
        status, solver = real(model, solver, callback)
        return (cp_model.UNKNOWN if status == cp_model.INFEASIBLE else status), solver

    monkeypatch.setattr(ctl, "solve", open_solve)
    meter = optimiser_module._Meter(ctl)
    bound, game = optimiser_module._hybrid_dual(tiny4, "T", drawing, days, kept(tiny4, drawing, days, gnome, plan),
                                                ctl, 10.0, counted, None, meter)
    assert (bound, game) == (counted, None)


def test_the_flagged_optimiser_stays_between_the_oracle_and_its_bound(tiny4, monkeypatch):
    """optimiser.solve with HYBRID_DUAL on (count-first steps forced onto a 3-day game, cut step allowed): the dual
    step runs, the answer's bound is at or above the oracle's best game, the score at or below it, and "optimal"
    only with score == bound == the oracle's best."""
    seed, counted, exact = INSTANCES[0]
    nursery, plan, drawing, gnome = random_game(tiny4, 4, seed)
    best = oracle(tiny4, Setup("T", drawing, gnome, plan), nursery)
    monkeypatch.setattr(optimiser_module, "HYBRID_DUAL", 0.5)
    monkeypatch.setattr(optimiser_module, "COUNT_FIRST_MIN_DAYS", 3)
    monkeypatch.setattr(optimiser_module, "COUNT_CUT_MIN", 0.1)
    monkeypatch.setattr(optimiser_module, "HYBRID_DUAL_MIN", 0.0)
    calls = []
    dual = optimiser_module._hybrid_dual

    def spy(*args, **kwargs):
        calls.append(dual(*args, **kwargs))
        return calls[-1]

    monkeypatch.setattr(optimiser_module, "_hybrid_dual", spy)
    answer = optimiser_module.solve(tiny4, "T", drawing, pairs(nursery), gnome, plan, control(4.0))
    assert calls and best <= calls[0][0] <= counted
    assert answer.score <= best <= answer.bound
    assert (answer.status == "optimal") == (answer.score == answer.bound)
    if answer.status == "optimal":
        assert answer.score == best


def test_below_its_minimum_room_the_dual_step_is_skipped_and_the_answer_is_the_default(tiny4, monkeypatch):
    """With step 1's room below HYBRID_DUAL_MIN the step does not run and the answer is the flag-off answer."""
    seed, _, _ = INSTANCES[0]
    nursery, plan, drawing, gnome = random_game(tiny4, 4, seed)
    monkeypatch.setattr(optimiser_module, "COUNT_FIRST_MIN_DAYS", 3)
    monkeypatch.setattr(optimiser_module, "COUNT_CUT_MIN", 0.1)
    off = optimiser_module.solve(tiny4, "T", drawing, pairs(nursery), gnome, plan, control(4.0))
    monkeypatch.setattr(optimiser_module, "HYBRID_DUAL", 0.5)
    monkeypatch.setattr(optimiser_module, "HYBRID_DUAL_MIN", 1e9)
    calls = []
    monkeypatch.setattr(optimiser_module, "_hybrid_dual", lambda *a, **k: calls.append(a) or (a[-3], None))
    on = optimiser_module.solve(tiny4, "T", drawing, pairs(nursery), gnome, plan, control(4.0))
    assert not calls
    assert (on.status, on.score, on.bound, on.days) == (off.status, off.score, off.bound, off.days)
