"""Claims audit, second round (1 Dec 08:15-10:05 UTC): Gartenbau SolveOptimal on holdings of 4-6
seedling tiles and Hint with 2 known seedling tiles, for holdings without flowers, against
`pruned_gartenbau.py` (a relaxed bound valid on any board, and every connected layout of the tiles
still to lay with its best plants), itself checked against `oracles_gartenbau.best_garden` on 1-2
tiles. Long probes: GARDENS_CLAIMS_LONG=1 (counts in docs/service.md)."""
from __future__ import annotations

import os
import random
import time

from solver.core.solve import SolveControl
from solver.games.gartenbau import api

from . import oracles_gartenbau as o
from . import pruned_gartenbau as pg

LONG = os.environ.get("GARDENS_CLAIMS_LONG") == "1"


def control(seed: int = 0, work: float = 3.0) -> SolveControl:
    return SolveControl(time_limit_s=600.0, num_workers=1, random_seed=seed, deterministic_limit=work)


def placeable(rng, tiles, starter_faces, k, scarce=False):
    """k plants some two of these faces allow; scarce: of the plant colours with the fewest face pairs
    (several such plants compete for few faces: gardens below the relaxed bound, or at it only by
    an exact arrangement)."""
    cols = [c for t in tiles for c, _ in o.TILES[t]] + [c for c, _ in starter_faces]
    pairs = {p: sum(o.allows(o.PLANTS[p][0], cols[i], cols[j]) for i in range(len(cols)) for j in range(i))
             for p in o.PLANTS}
    fits = [p for p in o.PLANTS if pairs[p]]
    if scarce:
        least = sorted({pairs[p] for p in fits})[:2]
        fits = [p for p in fits if pairs[p] in least] or fits
    return rng.sample(fits, min(k, len(fits)))


def test_layouts_oracle_agrees_with_every_garden_enumeration():
    """1-2 tiles, plants only: best_garden (every garden) = layouts <= relaxed bound."""
    rng = random.Random(71)
    for trial in range(6):
        sid, side = rng.choice(sorted(o.STARTERS)), rng.choice("ab")
        tiles = rng.sample(sorted(o.TILES), 1 + trial % 2)
        plants = placeable(rng, tiles, o.STARTERS[sid][side], rng.randint(1, 3))
        toks = {"flower_pot": rng.random() < 0.5, "watering_can": rng.random() < 0.5}
        holding = {"starter": {"id": sid, "side": side}, "seedlings": tiles, "plants": plants, "flowers": [],
                   "tokens": toks}
        g = {"starter": {"id": sid, "side": side, "cells": [[0, 0], [0, 1]]}, "seedlings": [], "plants": [],
             "tokens": toks}
        got, garden = pg.Layouts(g, tiles, plants).run()
        truth = o.best_garden(holding)
        assert got + pg.tokens(g) == truth and o.legal(garden) and o.score(garden)[0] == truth
        assert pg.relaxed_for(g, tiles, plants) >= got


def test_the_relaxed_bound_is_never_below_a_garden_and_can_fail():
    """Random legal gardens without flowers: their plants' prestige <= the relaxed bound of their
    tiles and plants (laid as free); a bound counting only the first plant would be caught."""
    rng = random.Random(72)
    caught = 0
    for trial in range(60):
        g = o.random_garden(rng, rng.randint(1, 5), rng.randint(1, 4), 0)
        st = {"starter": dict(g["starter"]), "seedlings": [], "plants": [], "tokens": g["tokens"]}
        tiles = [t["id"] for t in g["seedlings"]]
        plants = [p["id"] for p in g["plants"]]
        have = sum(o.PLANTS[p][1] for p in plants)
        assert pg.relaxed_for(st, tiles, plants) >= have
        caught += pg.relaxed_for(st, tiles, plants[:1]) < have
    assert caught > 0


def check_solve(rng, trial, n_tiles, max_nodes):
    sid, side = rng.choice(sorted(o.STARTERS)), rng.choice("ab")
    tiles = rng.sample(sorted(o.TILES), n_tiles)
    plants = placeable(rng, tiles, o.STARTERS[sid][side], rng.randint(3, 5), scarce=True)
    toks = {"flower_pot": rng.random() < 0.5, "watering_can": rng.random() < 0.5}
    holding = {"starter": {"id": sid, "side": side}, "seedlings": tiles, "plants": plants, "flowers": [],
               "tokens": toks}
    got = api.solve_optimal(holding, control=control(trial))
    g = got["garden"]
    assert o.legal(g) and o.score(g)[0] == got["prestige"]
    assert sorted(t["id"] for t in g["seedlings"]) == sorted(tiles)
    start = {"starter": {"id": sid, "side": side, "cells": [[0, 0], [0, 1]]}, "seedlings": [], "plants": [],
             "tokens": toks}
    base = pg.tokens(start)
    ceiling = base + pg.relaxed_for(start, tiles, plants)
    assert got["prestige"] <= ceiling
    t0 = time.process_time()
    cut = False
    truth = got["prestige"]
    if got["prestige"] < ceiling:
        # a better garden on the board? every layout, stopping at the ceiling
        L = pg.Layouts(start, tiles, plants, board=got["board"], cap=ceiling - base, max_nodes=max_nodes)
        better, _ = L.run(floor=got["prestige"] - base)
        truth = base + better
        cut = L.cut_short
    secs = time.process_time() - t0
    if not cut:
        assert got["bound"] >= truth, (holding, got["bound"], truth)
        if got["status"] == "optimal":
            assert got["prestige"] == truth, (holding, got["prestige"], truth)
    return got["status"], got["prestige"], truth, ceiling, secs, cut


def test_solve_optimal_four_to_six_tiles_plants_only():
    rng = random.Random(73)
    rows = [check_solve(rng, trial, 4 + trial % 3, 300_000 if LONG else 20_000) for trial in range(30 if LONG else 3)]
    _report("SolveOptimal 4-6 tiles, plants only", rows)


def hint_rows(rng, trial, max_nodes):
    g = o.random_garden(rng, rng.randint(1, 2), rng.randint(0, 1), 0)
    have = {t["id"] for t in g["seedlings"]}
    free = [t for t in sorted(o.TILES) if t not in have]
    tile, *known_tiles = rng.sample(free, 3)
    faces = o.STARTERS[g["starter"]["id"]][g["starter"]["side"]]
    laid = {p["id"] for p in g["plants"]}
    plants = [p for p in placeable(rng, [tile] + known_tiles + sorted(have), faces, 6, scarce=True) if p not in laid][:rng.randint(2, 4)]
    got = api.hint(g, tile, {"seedlings": known_tiles, "plants": plants}, control=control(trial, 3.0))
    rows = []
    for opt in got["options"][:6]:
        after = dict(g, seedlings=g["seedlings"] + [{"id": tile, "cells": opt["placement"]["cells"]}])
        assert o.legal(after)
        cells = [tuple(c) for t in [after["starter"]] + after["seedlings"] for c in t["cells"]]
        rs = [c[0] for c in cells]
        ks = [c[1] for c in cells]
        pad = 2  # min(margin 2, 2 x known tiles)
        size = max(max(rs) - min(rs), max(ks) - min(ks)) + 1 + 2 * pad
        region = (min(rs) - pad, min(ks) - pad, min(rs) - pad + size - 1, min(ks) - pad + size - 1)
        base = pg.tokens(after) + sum(o.PLANTS[p["id"]][1] for p in after["plants"])
        ceiling = pg.relaxed_for(after, known_tiles, plants)
        t0 = time.process_time()
        L = pg.Layouts(after, known_tiles, plants, region=region, cap=ceiling, max_nodes=max_nodes)
        best, garden = L.run()
        truth = base + best
        if garden is not None:
            assert o.legal(garden) and o.score(garden)[0] == truth
        if not L.cut_short:
            assert opt["prestige"] is None or opt["prestige"] <= truth, (g, tile, plants, opt, truth)
            assert opt["bound"] >= truth, (g, tile, plants, opt, truth)
            if opt["status"] == "optimal":
                assert opt["prestige"] == truth, (g, tile, plants, opt, truth)
        rows.append((opt["status"], opt["prestige"], truth, base + ceiling, time.process_time() - t0, L.cut_short))
    return rows


def test_hint_with_two_known_seedling_tiles_plants_only():
    rng = random.Random(74)
    rows = []
    for trial in range(10 if LONG else 1):
        rows += hint_rows(rng, trial, 400_000 if LONG else 40_000)
    _report("Hint, 2 known seedling tiles", rows)


def _report(what, rows):
    by = {}
    for status, claim, truth, ceiling, secs, cut in rows:
        key = ("cut short" if cut else status) + (" =ceiling" if claim == ceiling else "")
        by[key] = by.get(key, 0) + 1
    print(f"\n{what}: {len(rows)} {by}; cpu total {sum(r[4] for r in rows):.1f} s, max "
          f"{max(r[4] for r in rows):.1f} s; below the ceiling (claim, truth, ceiling): "
          f"{[(r[1], r[2], r[3]) for r in rows if r[1] != r[3]]}")
