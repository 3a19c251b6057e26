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
