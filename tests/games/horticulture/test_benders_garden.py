"""solve's wiring of the Benders check's garden (optimiser.BENDERS_GARDEN): a garden of a "garden" answer that
reaches the count-first bound is planted day by day at once, and when it can be, it is the answer, proven; one
below the bound is neither planted nor used as a start. The count-first steps are replaced by a stand-in that
returns a real full solution of the final-garden relaxation (the proven optimum's game) flagged as such."""
from __future__ import annotations

import random

from solver.games.horticulture import optimiser
from solver.games.horticulture.model import HorticultureModel
from solver.games.horticulture.state import Setup

from .helpers import control, oracle, random_instance, tiny_sheet_fixture

tiny4 = tiny_sheet_fixture("tiny4", 4)


def _benders_garden(seed: int, tiny4):
    nursery, days, plan, drawing, gnome = random_instance(tiny4, random.Random(seed))
    best = oracle(tiny4, Setup("T", drawing, gnome, plan), nursery)
    answer = optimiser.solve(tiny4, "T", drawing, days, gnome, plan, control())
    assert (answer.status, answer.score) == ("optimal", best)
    relaxed = HorticultureModel(tiny4, "T", drawing, days, gnome, plan, timed=False)
    garden, _ = optimiser._start(relaxed, relaxed.assignment(answer.days, answer.gnome, answer.plan), control(), 5.0)
    assert garden is not None and int(round(garden.objective_value)) == best
    garden.benders = True
    return days, plan, drawing, gnome, best, garden


def _spies(monkeypatch, bound, garden):
    planted, searched = [], []
    real_planting, real_search = optimiser._planting, optimiser._search

    def planting(*args, **kwargs):
        planted.append(args[4])  # the garden asked for
        return real_planting(*args, **kwargs)

    def search(*args, **kwargs):
        searched.append(kwargs.get("start"))
        return real_search(*args, **kwargs)

    monkeypatch.setattr(optimiser, "COUNT_FIRST_MIN_DAYS", 1)
    monkeypatch.setattr(optimiser, "ANNEAL_SHARE", 0.0)
    monkeypatch.setattr(optimiser, "_count_first", lambda *args, **kwargs: (bound, [garden], 0.0))
    monkeypatch.setattr(optimiser, "_planting", planting)
    monkeypatch.setattr(optimiser, "_search", search)
    return planted, searched


def test_a_benders_garden_at_the_bound_is_planted_and_returned_proven(tiny4, monkeypatch):
    for seed in (0, 1, 3):
        days, plan, drawing, gnome, best, garden = _benders_garden(seed, tiny4)
        planted, searched = _spies(monkeypatch, best, garden)
        answer = optimiser.solve(tiny4, "T", drawing, days, gnome, plan, control())
        assert (answer.status, answer.score, answer.bound) == ("optimal", best, best)
        if planted:  # (else the greedy game met the bound before the count-first steps)
            assert not searched  # answered before the relaxed search
            break
    else:
        raise AssertionError("the greedy game met the bound on every instance: nothing tested")


def test_a_benders_garden_below_the_bound_is_dropped(tiny4, monkeypatch):
    days, plan, drawing, gnome, best, garden = _benders_garden(0, tiny4)
    planted, searched = _spies(monkeypatch, best + 1, garden)  # best + 1: still a valid bound
    answer = optimiser.solve(tiny4, "T", drawing, days, gnome, plan, control())
    assert answer.score == best and best <= answer.bound <= best + 1
    assert searched and all(start is not garden for start in searched)
    assert all(asked is not garden for asked in planted)
