"""The Benders check from the best legal game (optimiser.LEGAL_BENDERS): a legal game within BENDERS_GAP of the
count bound asks `no_game_reaches(game + 1)` before the cards search. Held against the exhaustive oracle on a tiny
sheet: given the optimum as the legal game, the count-first bound comes down to exactly it (the check answers
"none"); given one point less, it never does (a game reaches it), so an off-by-one either way fails. The count
steps run without cuts here, so that the count bound lies above the optimum and the check has something to do."""
from __future__ import annotations

import random

import pytest

from solver.games.horticulture import optimiser
from solver.games.horticulture.model import HorticultureModel
from solver.games.horticulture.state import Setup

from .helpers import control, oracle, random_instance, tiny_sheet_fixture

tiny4 = tiny_sheet_fixture("tiny4", 4)


@pytest.fixture
def checks(monkeypatch):
    """Count-first steps on the tiny sheet with a loose count bound; records (target, answer) of every check."""
    calls = []
    real = optimiser.no_game_reaches

    def spy(*args, **kwargs):
        out = real(*args, **kwargs)
        calls.append((args[6], out[0]))
        return out

    for name, value in (("COUNT_FIRST_MIN_DAYS", 1), ("COUNT_CUT_MIN", 0.0), ("BENDERS_GAP", 100),
                        ("DESCENT_SHARE", 0.0), ("BOUND_CUTS", frozenset()), ("CLASS_COUNT", False),
                        ("LEGAL_BENDERS", True), ("no_game_reaches", spy)):
        monkeypatch.setattr(optimiser, name, value)
    return calls


# seeds whose oracle is quick (2-4 s) and whose count bound without cuts lies above the optimum
@pytest.mark.parametrize("seed", [5, 8])
def test_the_check_from_a_legal_game_proves_the_optimum_and_nothing_lower(tiny4, seed, checks):
    nursery, days, plan, drawing, gnome = random_instance(tiny4, random.Random(200 + seed))
    best = oracle(tiny4, Setup("T", drawing, gnome, plan), nursery)
    relaxed = HorticultureModel(tiny4, "T", drawing, days, gnome, plan, timed=False)

    bound, found, _ = optimiser._count_first(relaxed, tiny4, "T", drawing, days, gnome, plan, control(30.0), 30.0,
                                             10 ** 6, legal=best)
    assert checks == [(best + 1, "none")]  # it ran first, at the optimum + 1, and proved it
    assert bound == best and not found  # solve returns its legal game, proven

    checks.clear()
    bound, found, _ = optimiser._count_first(relaxed, tiny4, "T", drawing, days, gnome, plan, control(30.0), 30.0,
                                             10 ** 6, legal=best - 1)
    assert checks and checks[0] == (best, "garden")  # the optimum's own final garden reaches it
    assert bound > best - 1 and bound >= best
    assert found and all(g.benders and g.objective_value >= best for g in found)


def test_solve_with_the_check_returns_the_oracle_optimum_proven(tiny4, checks):
    nursery, days, plan, drawing, gnome = random_instance(tiny4, random.Random(208))
    best = oracle(tiny4, Setup("T", drawing, gnome, plan), nursery)
    answer = optimiser.solve(tiny4, "T", drawing, days, gnome, plan, control(30.0))
    assert (answer.status, answer.score, answer.bound) == ("optimal", best, best)


def test_off_the_check_waits_for_the_cards_search(tiny4, checks, monkeypatch):
    monkeypatch.setattr(optimiser, "LEGAL_BENDERS", False)
    nursery, days, plan, drawing, gnome = random_instance(tiny4, random.Random(208))
    best = oracle(tiny4, Setup("T", drawing, gnome, plan), nursery)
    relaxed = HorticultureModel(tiny4, "T", drawing, days, gnome, plan, timed=False)
    _, found, _ = optimiser._count_first(relaxed, tiny4, "T", drawing, days, gnome, plan, control(30.0), 30.0,
                                         10 ** 6, legal=best)
    assert any(not g.benders for g in found)  # the cards search ran (on, the check answered first: nothing came back)
