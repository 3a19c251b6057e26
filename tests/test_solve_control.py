"""SolveControl.out_of_time: the one rule every multi-step call uses before it builds another model."""
from __future__ import annotations

import time

from solver.core.solve import MIN_STEP_S, SolveControl


def test_out_of_time_only_near_the_end_of_a_wall_clock_budget():
    now = time.monotonic()
    assert SolveControl(time_limit_s=5, ends_at=now - 1).out_of_time()          # past the end
    assert SolveControl(time_limit_s=5, ends_at=now + MIN_STEP_S / 2).out_of_time()  # too little for a step
    assert not SolveControl(time_limit_s=5, ends_at=now + 60).out_of_time()
    assert SolveControl(time_limit_s=5, ends_at=now + 0.5).out_of_time(step=1.0)
    assert not SolveControl(time_limit_s=5).out_of_time()                       # no end: the CLI's limits
    # a deterministic control never reads the clock (its answers must not depend on it)
    assert not SolveControl(time_limit_s=5, deterministic_limit=1.0, ends_at=now - 1).out_of_time()


def test_a_settling_search_keeps_its_own_limit_under_a_tiny_call_limit():
    control = SolveControl(time_limit_s=0.01)
    assert control.new_solver(1.0).parameters.max_time_in_seconds == 0.01
    assert control.new_solver(1.0, check=True).parameters.max_time_in_seconds == 1.0


def test_tiny_time_limits_give_answers_not_model_mismatches():
    """`--time-limit 0.01` cut the scoring of an already found game (Horticulture) and the check of a returned
    garden (Versailles) to the call's limit; both raised ModelMismatch (7 Dec, a CLI walkthrough)."""
    import json
    from pathlib import Path

    from solver.games.horticulture import api as horticulture
    from solver.games.versailles import api as versailles

    request = json.loads((Path(__file__).resolve().parents[1] / "solver/data/horticulture/examples/solve.json")
                         .read_text())
    for limit in (0.01, 0.02):
        out = horticulture.solve_optimal({**request, "time_limit_s": limit})
        assert out["status"] in ("feasible", "optimal", "unknown")
    for limit in (0.001, 0.005, 0.01):
        out = versailles.solve_optimal([5, 17, 23, 30, 7, 9, 10], time_limit=limit)
        assert out["status"] in ("feasible", "optimal", "unknown", "infeasible")
