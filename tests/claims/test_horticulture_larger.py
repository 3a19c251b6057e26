"""Claims audit, second round (1 Dec 08:15-10:05 UTC): Horticulture SolveOptimal on 3-4 day nurseries
and Hint with 2-3 known future days, against the pruned exact oracle `pruned_horticulture.py`
(branch and bound over single plantings, memo), itself checked against `Sheet.best` (every state of
every day) where both run. Long probes: GARDENS_CLAIMS_LONG=1 (counts in docs/service.md)."""
from __future__ import annotations

import os
import random
import time

import pytest

from solver.games.horticulture import api

from . import oracles_horticulture as h
from . import pruned_horticulture as ph
from .test_horticulture_claims import as_days, control, setup

DECK = h.deck()
LONG = os.environ.get("GARDENS_CLAIMS_LONG") == "1"


def test_pruned_oracle_agrees_with_every_state_enumeration():
    """One-day nurseries from 0-2 random past days: Sheet.best = pruned = unpruned; the fast scorer =
    the oracle's on the games found. A bound one too low must disagree somewhere (the test can fail)."""
    rng = random.Random(41)
    wrong = 0
    for trial in range(8):
        sheet, gnome, plan, req = setup(rng)
        cards = rng.sample(sorted(DECK), 2 + 2 * (trial % 3))
        garden, box = {}, []
        for d in range(trial % 3):
            _, garden, box = h.random_day(rng, sheet, garden, box, gnome, DECK[cards[2 + 2 * d]])
        day = [[DECK[cards[0]], DECK[cards[1]]]]
        truth = sheet.best(garden, box, gnome, plan, day)
        fast = ph.Fast(sheet, gnome, plan)
        got, game = ph.Search(fast).run(garden, box, day)
        assert got == truth == ph.Search(fast, use_bound=False, memo=False).run(garden, box, day)[0]
        g, b = dict(garden), list(box)
        for plant, at in game:
            assert sheet.may_plant(g, b, gnome, plant, at)
            if at == h.WINDOW:
                b.append(plant)
            else:
                g[at] = plant
        assert sheet.score(g, b, gnome, plan) == fast.score(g, b) == got
        low = ph.Search(fast)
        low.fast = type("Low", (), {"bound": lambda s, *a: fast.bound(*a) - 4, "score": fast.score,
                                    "spots": fast.spots})()
        wrong += low.run(garden, box, day)[0] != truth
    assert wrong > 0


def solve_row(rng, days, trial, max_nodes):
    sheet, gnome, plan, req = setup(rng)
    nursery = rng.sample(sorted(DECK), 2 * days)
    cards = [[DECK[nursery[2 * d]], DECK[nursery[2 * d + 1]]] for d in range(days)]
    got = api.solve_optimal(dict(req, nursery=nursery), control=control(trial, 4.0))
    end = h.replay(sheet, gnome, got["days"])
    assert end is not None and sheet.score(*end, gnome, plan) == got["score"]
    for i, day in enumerate(got["days"]):
        assert day["chosen"] in nursery[2 * i:2 * i + 2]
        assert h.card_matches(DECK[day["chosen"]], [p["plant"] for p in day["plants"]])
    t0 = time.process_time()
    s = ph.Search(ph.Fast(sheet, gnome, plan), max_nodes=max_nodes)
    truth, _ = s.run({}, [], cards, floor=got["score"])
    secs = time.process_time() - t0
    if not s.cut_short:
        assert got["bound"] >= truth, (req, nursery, got["bound"], truth)
        if got["status"] == "optimal":
            assert got["score"] == truth, (req, nursery, got["score"], truth)
    return got["status"], got["score"], truth, s.nodes, secs, s.cut_short


def test_solve_optimal_three_days_against_the_pruned_oracle():
    rng = random.Random(33)
    rows = [solve_row(rng, 3 if LONG else 2, trial, 3_000_000) for trial in range(24 if LONG else 3)]
    _report("SolveOptimal 3 days" if LONG else "SolveOptimal 2 days", rows)


@pytest.mark.skipif(not LONG, reason="long probe: GARDENS_CLAIMS_LONG=1")
def test_solve_optimal_four_days_against_the_pruned_oracle():
    rng = random.Random(34)
    _report("SolveOptimal 4 days", [solve_row(rng, 4, trial, 3_000_000) for trial in range(8)])


def hint_rows(rng, trial, future_days, max_nodes):
    sheet, gnome, plan, req = setup(rng)
    past_days = rng.randint(0, 2)
    cards = rng.sample(sorted(DECK), 2 * (past_days + 1 + future_days))
    garden, box, played = {}, [], []
    for d in range(past_days):
        cid = rng.choice(cards[2 * d:2 * d + 2])
        plants, garden, box = h.random_day(rng, sheet, garden, box, gnome, DECK[cid])
        played.append((cid, plants))
    today = cards[2 * past_days:2 * past_days + 2]
    future = cards[2 * past_days + 2:]
    later = [[DECK[future[2 * d]], DECK[future[2 * d + 1]]] for d in range(future_days)]
    got = api.hint(dict(req, days=as_days(played), today=today, future=future), control=control(trial, 4.0))
    assert got["ranked_by"] == "final_score" and {o["card"] for o in got["options"]} == set(today)
    rows = []
    fast = ph.Fast(sheet, gnome, plan)
    for option in got["options"]:
        claim = option.get("final_score")
        t0 = time.process_time()
        s = ph.Search(fast, max_nodes=max_nodes)
        truth, _ = s.run(garden, box, [[DECK[option["card"]]]] + later, floor=-1 if claim is None else claim)
        cut = s.cut_short
        if claim is not None:
            end = h.replay(sheet, gnome, as_days(played) + [{"plants": option["plants"]}])
            assert end is not None and h.card_matches(DECK[option["card"]], [p["plant"] for p in option["plants"]])
            # the option's plants, then the best continuation, reach its final score
            s2 = ph.Search(fast, max_nodes=max_nodes)
            reach, _ = s2.run(end[0], end[1], later, floor=claim - 1)
            cut = cut or s2.cut_short
            assert s2.cut_short or reach >= claim, (req, option)
        if not cut:
            assert option["bound"] >= truth, (req, option, truth)
            if option["status"] == "optimal":
                assert claim == truth, (req, option, truth)
        rows.append((option["status"], claim, truth, s.nodes, time.process_time() - t0, cut))
    return rows


def test_hint_with_two_known_future_days_against_the_pruned_oracle():
    rng = random.Random(35)
    rows = []
    for trial in range(12 if LONG else 1):
        rows += hint_rows(rng, trial, 2 if LONG else 1, 3_000_000)
    _report("Hint, 2 future days" if LONG else "Hint, 1 future day", rows)


def _report(what, rows):
    by = {}
    for status, claim, truth, nodes, secs, cut in rows:
        key = "cut short" if cut else status
        by[key] = by.get(key, 0) + 1
    print(f"\n{what}: {len(rows)} {by}; nodes max {max(r[3] for r in rows)}, cpu total "
          f"{sum(r[4] for r in rows):.1f} s, max {max(r[4] for r in rows):.1f} s; "
          f"not optimal (claim, truth): {[(r[1], r[2]) for r in rows if r[0] != 'optimal']}")
