"""Claims audit, second round (1 Dec 08:15-10:05 UTC): Versailles SolveOptimal on 5-7 tiles and hints
with 4-5 upcoming tiles, against the pruned exact oracle `pruned_versailles.py` (branch and bound,
memo over canonical states, symmetry), itself checked against the plain enumeration of
`oracles_versailles.best_solo` where both run.

The long probes run with GARDENS_CLAIMS_LONG=1 (counts and times in docs/service.md, section
"Claims audit, second round"); without it each runs a few instances."""
from __future__ import annotations

import os
import random
import time

import pytest

from solver.core.solve import SolveControl
from solver.games.versailles import api

from . import oracles_versailles as o
from . import pruned_versailles as pv

TILES = o.tiles()
IDS = sorted(TILES)
LONG = os.environ.get("GARDENS_CLAIMS_LONG") == "1"


def control(seed: int = 0, work: float = 5.0) -> SolveControl:
    return SolveControl(time_limit_s=600.0, num_workers=1, random_seed=seed, deterministic_limit=work)


def test_pruned_oracle_agrees_with_plain_enumeration():
    """3 tiles: plain enumeration = pruned (memo + symmetry + bound + fast last tile) = pruned without
    memo = pruned without the fast last step; on a 4-field board too (the plain one filtered). A
    bound one too low (a wrong pruning) must disagree somewhere, or this test could not fail."""
    rng = random.Random(21)
    wrong = 0
    for trial in range(10):
        seq = rng.sample(IDS, 3)
        plain, _ = o.best_solo(seq, TILES)
        a, garden, _ = pv.best(seq, TILES)
        assert a == plain == pv.best(seq, TILES, memo=False)[0] == pv.best(seq, TILES, fast_last=False)[0], seq
        fields, history = {}, []
        for t, x, y, r in garden:
            assert o.legal(fields, x, y)
            fields = o.add(fields, TILES[t], x, y, r)
            history.append(fields)
        assert o.solo_points(history) == a
        s = pv.Search(seq, TILES)
        low = pv.Search(seq, TILES, bound=lambda i, f, b, s=s: s.field_bound(i, f, b) - 1)
        wrong += low.run()[0] != plain
    assert wrong > 0  # the sabotaged bound is caught by the comparison


def test_pruned_oracle_on_a_board_agrees_with_filtered_enumeration():
    rng = random.Random(22)
    for trial in range(4):
        seq = rng.sample(IDS, 3)
        best = -1
        # plain: every garden of the 3 tiles, kept when its box fits 4 x 4
        def rec(i, fields, history):
            nonlocal best
            if i == len(seq):
                xs = [x for x, _ in fields]
                ys = [y for _, y in fields]
                if max(xs) - min(xs) < 4 and max(ys) - min(ys) < 4:
                    best = max(best, o.solo_points(history))
                return
            for x, y, r in o.placements_of(fields, TILES[seq[i]]):
                nf = o.add(fields, TILES[seq[i]], x, y, r)
                rec(i + 1, nf, history + [nf])
        rec(0, {}, [])
        assert pv.best(seq, TILES, board=4)[0] == best == pv.best(seq, TILES, board=4, fast_last=False)[0], seq


def check_solve(seq, seed, work=5.0, max_nodes=None):
    """One SolveOptimal answer against the oracle: (status, claim, truth any board, truth on board, nodes, s)."""
    res = api.solve_optimal(seq, control=control(seed, work))
    history = pv.replay(res["placements"], TILES)
    assert [p["tile"] for p in res["placements"]] == list(seq)
    pts = o.solo_points(history)
    assert pts == res["points"]
    xs = [x for f in history[-1:] for x, _ in f]
    ys = [y for f in history[-1:] for _, y in f]
    assert max(xs) - min(xs) < res["board"] and max(ys) - min(ys) < res["board"]
    # strictly better than the claim, anywhere / on the board; floor = the claim (a legal garden)
    t0 = time.process_time()
    any_best, _, s1 = pv.best(seq, TILES, floor=pts, max_nodes=max_nodes)
    on_board = pts
    if any_best > pts:
        on_board = pv.best(seq, TILES, floor=pts, board=res["board"], max_nodes=max_nodes)[0]
    secs = time.process_time() - t0
    cut = s1.cut_short
    print(f"  {seq} {res['status']} {res['points']} bound {res['bound']} counting {res['counting_bound']} "
          f"any-board {res['optimal_on_any_board']} | truth any {any_best} board {on_board} nodes {s1.nodes} "
          f"cpu {secs:.1f} cut {cut}", flush=True)
    if not cut:
        if res["status"] == "optimal":
            assert res["points"] == on_board, (seq, res)
        if res["optimal_on_any_board"]:
            assert res["points"] == any_best, (seq, res)
        assert res["bound"] >= on_board and res["counting_bound"] >= any_best, (seq, res)
    return res, any_best, on_board, s1.nodes, secs, cut


def test_solve_optimal_five_tiles_against_the_pruned_oracle():
    rng = random.Random(50)
    rows = []
    for trial in range(24 if LONG else 2):
        seq = rng.sample(IDS, 5)
        rows.append(check_solve(seq, trial, max_nodes=2_000_000 if LONG else None))
    if LONG:
        _report("5 tiles", rows)


@pytest.mark.skipif(not LONG, reason="long probe: GARDENS_CLAIMS_LONG=1")
@pytest.mark.parametrize("n,count", [(6, 6), (7, 3)])
def test_solve_optimal_six_seven_tiles_against_the_pruned_oracle(n, count):
    rng = random.Random(60 + n)
    rows = [check_solve(rng.sample(IDS, n), trial, max_nodes=2_000_000) for trial in range(count)]
    _report(f"{n} tiles", rows)


def _report(what, rows):
    by = {}
    for res, any_best, on_board, nodes, secs, cut in rows:
        key = ("cut short" if cut else res["status"]) + (" any-board" if res["optimal_on_any_board"] else "") + \
            (" =counting" if res["points"] == res["counting_bound"] else "")
        by[key] = by.get(key, 0) + 1
    print(f"\n{what}: {len(rows)} instances {by}; oracle nodes max {max(r[3] for r in rows)}, "
          f"cpu total {sum(r[4] for r in rows):.1f} s, max {max(r[4] for r in rows):.1f} s; "
          f"feasible answers (claim/truth): {[(r[0]['points'], r[1]) for r in rows if r[0]['status'] != 'optimal']}")


def hint_rows(rng, trial, placed, upcoming, top, max_nodes):
    """One hint with `upcoming` known tiles after a random garden of `placed` tiles: every option's
    reachable / status / bound / optimal_on_any_board against the oracle (any board; the searched
    board, rebuilt as hint._reachable builds it, only where an any-board truth exceeds a claim)."""
    seq = rng.sample(IDS, placed + 1 + upcoming)
    placements, history = o.random_garden(rng, seq[:placed], TILES)
    got = api.hint({"placements": placements}, seq[placed], upcoming=seq[placed + 1:], top=top,
                   control=control(trial, 4.0))
    opts = got["placements"]
    margin = 2 * min(upcoming, 3) + 1
    xs = [p["x"] for p in placements] + [g["x"] for g in opts]
    ys = [p["y"] for p in placements] + [g["y"] for g in opts]
    board = max(max(xs) - min(xs), max(ys) - min(ys)) + 2 + 2 * margin
    region = (min(xs) - margin, min(ys) - margin, min(xs) - margin + board - 1, min(ys) - margin + board - 1)
    rows = []
    for g in opts:
        fields = history[-1] if history else {}
        assert o.legal(fields, g["x"], g["y"])
        after = o.add(fields, TILES[seq[placed]], g["x"], g["y"], g["rotation"])
        hist = list(history) + [after]
        t0 = time.process_time()
        s = pv.Search(seq, TILES, max_nodes=max_nodes)
        reach = g["reachable"]
        truth, _ = s.run(hist, floor=-1 if reach is None else reach - 1)  # reach - 1: the claim is reachable
        cut = s.cut_short
        on_board = truth
        if not cut and reach is not None and truth > reach and g["status"] == "optimal":
            s2 = pv.Search(seq, TILES, region=region, max_nodes=max_nodes)
            on_board, _ = s2.run(hist, floor=reach - 1)
            cut = s2.cut_short
        if not cut:
            assert reach is None or reach <= truth, (seq, placements, g, truth)
            if reach is not None:
                assert truth >= reach  # some garden reaches the claim
            if g["status"] == "optimal":
                assert reach == on_board, (seq, placements, g, on_board)
            if g["optimal_on_any_board"]:
                assert reach == truth, (seq, placements, g, truth)
            assert g["bound"] is None or g["bound"] >= on_board, (seq, placements, g, on_board)
        rows.append((g, truth, on_board, s.nodes, time.process_time() - t0, cut))
        print(f"  {seq} opt {g['x'], g['y'], g['rotation']} {g['status']} {reach} bound {g['bound']} "
              f"any {g['optimal_on_any_board']} | truth {truth} board {on_board} nodes {s.nodes} cut {cut}", flush=True)
    return rows


@pytest.mark.skipif(not LONG, reason="long probe (30-45 s of CPU per option): GARDENS_CLAIMS_LONG=1")
def test_hint_with_four_or_five_upcoming_tiles_against_the_pruned_oracle():
    rng = random.Random(45)
    rows = []
    cases = [(1 + t % 2, 4 + (t % 3 == 2)) for t in range(5)]
    for trial, (placed, upcoming) in enumerate(cases):
        rows += hint_rows(rng, trial, placed, upcoming, 3, 400_000)
    by = {}
    for g, truth, on_board, nodes, secs, cut in rows:
        key = ("cut short" if cut else g["status"]) + (" any-board" if g["optimal_on_any_board"] else "")
        by[key] = by.get(key, 0) + 1
    print(f"\nHint, 4-5 upcoming: {len(rows)} options {by}; nodes max {max(r[3] for r in rows)}, cpu total "
          f"{sum(r[4] for r in rows):.1f} s, max {max(r[4] for r in rows):.1f} s; (reachable, truth any board, "
          f"on board, status): {[(r[0]['reachable'], r[1], r[2], r[0]['status']) for r in rows if r[0]['reachable'] != r[1]]}")
