"""The annealing on the count step's card choice (optimiser.ANNEAL_CARDS): it anneals with every open day's card
pinned to the count step's, its game is legal and counts for the answer, and a game at the count bound is the
answer, proven. On tiny sheets (count-first steps forced) solve still returns the exhaustive oracle's optimum."""
from __future__ import annotations

import random

import pytest

from solver.games.horticulture import optimiser
from solver.games.horticulture.data import default_catalog
from solver.games.horticulture.garden import PathDrawing, Plan
from solver.games.horticulture.model import DaySpec
from solver.games.horticulture.state import Setup

from .helpers import control, oracle, random_instance, tiny_sheet_fixture

tiny4 = tiny_sheet_fixture("tiny4", 4)
CAT = default_catalog()


def _spy(monkeypatch):
    """Records the days of every annealing and the count step's card choices."""
    calls, counts = [], []
    real_anneal, real_count = optimiser._anneal_step, optimiser.ClassCountModel

    def anneal_step(catalog, side, drawing, days, *args, **kwargs):
        out = real_anneal(catalog, side, drawing, days, *args, **kwargs)
        calls.append((days, out[0]))
        return out

    class Count(real_count):
        def chosen_cards(self, solver):
            counts.append(super().chosen_cards(solver))
            return counts[-1]

    monkeypatch.setattr(optimiser, "_anneal_step", anneal_step)
    monkeypatch.setattr(optimiser, "ClassCountModel", Count)
    return calls, counts


@pytest.mark.parametrize("seed", [0, 1, 3])  # test_count_cuts's instances (their oracle is asked once)
def test_tiny_games_with_the_annealing_on_the_count_cards_reach_the_oracle(tiny4, seed, monkeypatch):
    monkeypatch.setattr(optimiser, "COUNT_FIRST_MIN_DAYS", 1)
    monkeypatch.setattr(optimiser, "ANNEAL_CARDS", 0.3)
    monkeypatch.setattr(optimiser, "ANNEAL_MIN_DAYS", 1)  # (it anneals games with this many days to play)
    nursery, days, plan, drawing, gnome = random_instance(tiny4, random.Random(seed))
    best = oracle(tiny4, Setup("T", drawing, gnome, plan), nursery)
    calls, counts = _spy(monkeypatch)
    answer = optimiser.solve(tiny4, "T", drawing, days, gnome, plan, control())
    assert (answer.status, answer.score, answer.bound) == ("optimal", best, best)
    pinned = [c for c in calls if all(len(spec.options) == 1 for spec in c[0])]
    assert counts and pinned and [spec.options[0] for spec in pinned[0][0]] == counts[0]
    assert [day.chosen for day in pinned[0][1]] == counts[0]


@pytest.mark.parametrize("share", [0.0, 0.25])
def test_a_long_game_with_the_annealing_on_the_count_cards(share, monkeypatch):
    """24 cards at 3 units: with the step on, it anneals on exactly the count step's cards and the answer is at
    least its game (a game at the bound is returned proven); off, no annealing on pinned cards runs."""
    monkeypatch.setattr(optimiser, "ANNEAL_CARDS", share)
    rng = random.Random(3)
    nursery = rng.sample(sorted(CAT.deck.cards), 24)
    plan = Plan("carrot", "turnip", ("carrot", "flower"))
    days = [DaySpec((nursery[i], nursery[i + 1])) for i in range(0, 24, 2)]
    calls, counts = _spy(monkeypatch)
    answer = optimiser.solve(CAT, "A", PathDrawing.straight(CAT.sheet("A")), days, (1, 2), plan, control(work=3.0))
    pinned = [c for c in calls if all(len(spec.options) == 1 for spec in c[0])]
    assert answer.score <= answer.bound
    if share == 0.0:
        assert counts and not pinned
        return
    assert counts and len(pinned) == 1
    on_cards, game = pinned[0]
    assert [spec.options[0] for spec in on_cards] == counts[0] == [day.chosen for day in game]
    from solver.games.horticulture.rules import replay
    from solver.games.horticulture.scoring import score_sheet
    sheet, violations = replay(CAT, Setup("A", PathDrawing.straight(CAT.sheet("A")), (1, 2), plan), game)
    assert not violations
    assert answer.score >= score_sheet(CAT, sheet).total
