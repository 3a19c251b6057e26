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


def _long_game():
    """The long game of the tests below: 24 cards (12 days), side A's straight path (the gnome goes on (1, 2))."""
    rng = random.Random(3)
    nursery = rng.sample(sorted(CAT.deck.cards), 24)
    plan = Plan("carrot", "turnip", ("carrot", "flower"))
    days = [DaySpec((nursery[i], nursery[i + 1])) for i in range(0, 24, 2)]
    return days, plan, PathDrawing.straight(CAT.sheet("A"))


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
    least its game (a game at the bound is returned proven); off, no annealing on pinned cards runs. (One run: the
    late second run, LATE_CHAIN, has a test of its own.)"""
    monkeypatch.setattr(optimiser, "ANNEAL_CARDS", share)
    monkeypatch.setattr(optimiser, "LATE_CHAIN", False)
    days, plan, drawing = _long_game()
    calls, counts = _spy(monkeypatch)
    answer = optimiser.solve(CAT, "A", drawing, days, (1, 2), plan, control(work=3.0))
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
    sheet, violations = replay(CAT, Setup("A", drawing, (1, 2), plan), game)
    assert not violations
    assert answer.score >= score_sheet(CAT, sheet).total


def test_recard_plants_the_new_cards_on_the_same_squares():
    """optimiser._recard: each day whose card differs gets the new card's two plants on the day's two squares (a
    wild keeps the kind that stood there); the other days stay as they were."""
    from solver.games.horticulture.schedule import play_greedy

    rng = random.Random(5)
    nursery = rng.sample(sorted(CAT.deck.cards), 24)
    days = [DaySpec((nursery[i], nursery[i + 1])) for i in range(0, 24, 2)]
    setup = Setup("A", PathDrawing.straight(CAT.sheet("A")), (1, 2), Plan("carrot", "turnip", ("carrot", "flower")))
    game = play_greedy(CAT, setup, [spec.options for spec in days], {})
    other = [spec.options[1] if day.chosen == spec.options[0] else spec.options[0] for spec, day in zip(days, game)]
    cards = [c if d % 3 else game[d].chosen for d, c in enumerate(other)]  # every third day keeps its card
    out = optimiser._recard(CAT, game, cards)
    assert [day.chosen for day in out] == cards
    for old, new, cid in zip(game, out, cards):
        if old.chosen == cid:
            assert new == old
            continue
        assert sorted(map(str, (p.at for p in new.plants))) == sorted(map(str, (p.at for p in old.plants)))
        kinds = list(CAT.card(cid).plants)
        for p in new.plants:
            if p.plant in kinds:
                kinds.remove(p.plant)
            else:  # only a wild may stand for another kind, and it keeps the kind that stood on its square
                assert CAT.wild in kinds and p.plant == next(q.plant for q in old.plants if q.at == p.at)
                kinds.remove(CAT.wild)
        assert not kinds


def test_a_second_run_from_the_recarded_game_when_the_share_holds_two(monkeypatch):
    """RECARD_SECOND: with room for two runs of ANNEAL_CARDS_MAX, a second annealing on the count step's cards
    starts from the annealed game re-carded (legal), and the answer is at least the better of the two."""
    from solver.games.horticulture.rules import replay
    from solver.games.horticulture.scoring import score_sheet

    monkeypatch.setattr(optimiser, "ANNEAL_CARDS", 0.25)
    monkeypatch.setattr(optimiser, "ANNEAL_CARDS_MAX", 0.3)  # 0.25 x 3 units holds two runs of 0.3
    monkeypatch.setattr(optimiser, "RECARD_SECOND", True)
    starts = []
    real = optimiser._anneal_step

    def anneal_step(catalog, side, drawing, days, game, *args, **kwargs):
        out = real(catalog, side, drawing, days, game, *args, **kwargs)
        starts.append((days, game, out[0]))
        return out

    monkeypatch.setattr(optimiser, "_anneal_step", anneal_step)
    days, plan, drawing = _long_game()
    answer = optimiser.solve(CAT, "A", drawing, days, (1, 2), plan, control(work=3.0))
    pinned = [s for s in starts if all(len(spec.options) == 1 for spec in s[0])]
    assert len(pinned) == 2
    (cards1, start1, game1), (cards2, start2, game2) = pinned
    assert cards1 == cards2 and start1 != start2
    assert [day.chosen for day in start2] == [spec.options[0] for spec in cards2]
    setup = Setup("A", drawing, (1, 2), plan)
    assert not replay(CAT, setup, start2)[1]
    assert answer.score >= max(score_sheet(CAT, replay(CAT, setup, g)[0]).total for g in (game1, game2))
    assert answer.score <= answer.bound


@pytest.mark.parametrize("late", [True, False])
def test_a_late_second_run_after_the_lagrangian_steps_when_the_share_holds_one(monkeypatch, late):
    """LATE_CHAIN: when the share holds one run of ANNEAL_CARDS_MAX only, the second annealing on the count step's
    cards (from the annealed game re-carded, legal) runs after the Lagrangian steps, whose bound is its ceiling;
    switched off, there is one run. The answer is at least the better game, and never above its bound."""
    from solver.games.horticulture.rules import replay
    from solver.games.horticulture.scoring import score_sheet

    monkeypatch.setattr(optimiser, "ANNEAL_CARDS", 0.25)
    monkeypatch.setattr(optimiser, "ANNEAL_CARDS_MAX", 0.5)  # 0.25 x 3 units holds one run of 0.5, not two
    monkeypatch.setattr(optimiser, "RECARD_SECOND", True)
    monkeypatch.setattr(optimiser, "LATE_CHAIN", late)
    events = []
    real_anneal, real_lagrangian = optimiser._anneal_step, optimiser._lagrangian

    def anneal_step(catalog, side, drawing, days, game, *args, **kwargs):
        out = real_anneal(catalog, side, drawing, days, game, *args, **kwargs)
        events.append(("anneal", days, game, out[0], args[5]))  # (args[5]: the ceiling)
        return out

    def lagrangian(*args, **kwargs):
        found, priced = real_lagrangian(*args, **kwargs)
        events.append(("lagrangian", found.bound))
        return found, priced

    monkeypatch.setattr(optimiser, "_anneal_step", anneal_step)
    monkeypatch.setattr(optimiser, "_lagrangian", lagrangian)
    days, plan, drawing = _long_game()
    answer = optimiser.solve(CAT, "A", drawing, days, (1, 2), plan, control(work=3.0))
    pinned = [i for i, e in enumerate(events) if e[0] == "anneal" and all(len(s.options) == 1 for s in e[1])]
    lagrange_at = [i for i, e in enumerate(events) if e[0] == "lagrangian"]
    assert len(lagrange_at) == 1 and pinned and pinned[0] < lagrange_at[0]  # (the instance reaches that step)
    setup = Setup("A", drawing, (1, 2), plan)
    if not late:
        assert len(pinned) == 1
    else:
        assert len(pinned) == 2 and pinned[1] > lagrange_at[0]
        (_, cards1, start1, game1, _), (_, cards2, start2, game2, ceiling) = (events[i] for i in pinned)
        assert cards1 == cards2 and start1 != start2
        assert [day.chosen for day in start2] == [spec.options[0] for spec in cards2]
        assert not replay(CAT, setup, start2)[1]
        assert ceiling <= events[pinned[0]][4]  # the bound after the Lagrangian steps, never above the first run's
    games = [events[i][3] for i in pinned]
    assert answer.score >= max(score_sheet(CAT, replay(CAT, setup, g)[0]).total for g in games)
    assert answer.score <= answer.bound
