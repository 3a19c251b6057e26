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
