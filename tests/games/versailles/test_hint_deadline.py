"""A Versailles hint under a control with `ends_at` (a client's deadline): its searches end by then."""
from __future__ import annotations

import time

from solver.core.solve import SolveControl
from solver.games.versailles import api


def test_a_hint_of_five_searches_ends_by_the_controls_end():
    """Before `ends_at`, each of the five searches (one per candidate, 11 upcoming tiles: never proven)
    took its share of the 60 s limit, so the call ran ~60 s whatever the caller's deadline. With the
    end already reached, every search is cut to nothing (the call costs only its ranking, model build
    and greedy continuations: 2-6 s on this machine, loaded or not), and the answer still carries a
    reachable value (the greedy continuation at least) for every candidate."""
    control = SolveControl(time_limit_s=60, num_workers=1, ends_at=time.monotonic())
    started = time.monotonic()
    out = api.hint([{"tile": 61, "x": 0, "y": 0, "rotation": 0}], 25,
                   upcoming=[70, 72, 55, 44, 68, 27, 56, 15, 47, 32, 2], top=5, control=control)
    elapsed = time.monotonic() - started
    assert elapsed < 30, elapsed  # not the ~60 s of five full shares
    assert len(out["placements"]) == 5
    for o in out["placements"]:
        assert o["reachable"] is not None and o["status"] in ("optimal", "feasible")
        assert o["bound"] is None or o["bound"] >= o["reachable"]


def _plain_continue(fixed, upcoming, catalog, checkpoints, board, offset):
    """hint._continue as it was before 1 Dec: the whole garden's areas searched for every candidate."""
    from solver.games.versailles.rules import legal_placements, placed_fields
    from solver.games.versailles.scoring import area_points, largest_areas
    fields = {}
    for p in fixed:
        fields.update(placed_fields(catalog.tiles[p.tile], p))
    out = list(fixed)
    for tile in upcoming:
        k = next((k for n, k in checkpoints if n > len(out)), checkpoints[-1][1])
        best = None
        for p in legal_placements(fields, tile):
            bx, by = p.x + offset[0], p.y + offset[1]
            if not (0 <= bx <= board - 2 and 0 <= by <= board - 2):
                continue
            after = {**fields, **placed_fields(tile, p)}
            areas = largest_areas(after, catalog)
            value = (area_points(areas, catalog, k), sum(areas[t] for t in catalog.garden_types))
            if best is None or value > best[0]:
                best = (value, p, after)
        if best is None:
            return None
        out.append(best[1])
        fields = best[2]
    return out


def test_the_incremental_continuation_makes_the_plain_versions_choices():
    import random
    from solver.games.versailles import hint
    from solver.games.versailles.data import default_catalog
    from solver.games.versailles.rules import legal_placements
    from solver.games.versailles.scoring import solo_checkpoints
    cat = default_catalog()
    compared = 0
    for seed in range(12):
        rng = random.Random(seed)
        ids = rng.sample(sorted(cat.tiles), 14)
        fixed, fields = [], {}
        for t in ids[:rng.randint(1, 6)]:  # a random legal garden to continue from
            p = rng.choice(legal_placements(fields, cat.tiles[t]))
            fixed.append(p)
            from solver.games.versailles.rules import placed_fields
            fields.update(placed_fields(cat.tiles[t], p))
        upcoming = [cat.tiles[t] for t in ids[len(fixed):]]
        checkpoints = solo_checkpoints(14, cat)
        for board, offset in ((40, (20, 20)), (12, (5, 5))):  # roomy, and tight enough to refuse some
            new = hint._continue(fixed, upcoming, cat, checkpoints, board, offset)
            assert new == _plain_continue(fixed, upcoming, cat, checkpoints, board, offset), (seed, board)
            compared += new is not None
    assert compared >= 12
