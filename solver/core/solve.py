"""Running CP-SAT under a limit that callers (a gRPC deadline, a cancelled client) can cut short."""
from __future__ import annotations

import math
import threading
import time
from dataclasses import dataclass, field

from ortools.sat.python import cp_model


class Cancelled(Exception):
    """The caller cancelled the work before or while it was solving."""


# A step (a model built, then searched) is not started with less than this left before a control's end: building
# a model takes 20-130 ms (a Gardeners model of 8 Standard cards), so its search would be cut to nothing, and a
# hint runs up to ~15 such steps, which spent the whole margin and ended calls DEADLINE_EXCEEDED (7 Dec).
MIN_STEP_S = 0.05


@dataclass
class SolveControl:
    """Limits for one request, and a thread-safe way to stop its running searches.

    `time_limit_s` caps the wall time of each CP-SAT search; `deterministic_limit` (when set)
    replaces it by CP-SAT's deterministic time so results do not depend on machine speed.
    `cancel()` may be called from any thread (e.g. a gRPC callback): it stops the running
    search at once and makes every later search return UNKNOWN without starting.
    `ends_at` (a `time.monotonic()` instant, e.g. a client's deadline less a margin) caps every
    wall-clock search at what is left until then, so a call running many searches ends them all
    in time, however it shares its limit out; `seconds_left()` tells a caller how much is left.
    A deterministic control ignores it (its answers must not depend on the clock).
    """

    time_limit_s: float = 10.0
    deterministic_limit: float | None = None
    num_workers: int = 1
    random_seed: int = 0
    ends_at: float | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _running: set = field(default_factory=set, repr=False)
    _cancelled: bool = field(default=False, repr=False)

    def __post_init__(self) -> None:
        # a bad limit is the caller's error, said at once: a negative or NaN limit used to make every
        # search answer "unknown" without trying, and 2^31 as a seed failed inside CP-SAT
        def number(v) -> bool:
            return not isinstance(v, bool) and isinstance(v, (int, float)) and math.isfinite(v)
        if not number(self.time_limit_s) or self.time_limit_s <= 0:
            raise ValueError(f"time_limit_s: expected a positive number of seconds, got {self.time_limit_s!r}")
        if self.deterministic_limit is not None and (not number(self.deterministic_limit)
                                                     or self.deterministic_limit <= 0):
            raise ValueError(f"deterministic_limit: expected a positive number, got {self.deterministic_limit!r}")
        if isinstance(self.num_workers, bool) or not isinstance(self.num_workers, int) or self.num_workers < 0:
            raise ValueError(f"num_workers: expected an integer >= 0 (0: one per core), got {self.num_workers!r}")
        if isinstance(self.random_seed, bool) or not isinstance(self.random_seed, int) \
                or not 0 <= self.random_seed < 2 ** 31:
            raise ValueError(f"random_seed: expected an integer in [0, 2^31), got {self.random_seed!r}")
        if self.ends_at is not None and not number(self.ends_at):
            raise ValueError(f"ends_at: expected a time.monotonic() instant, got {self.ends_at!r}")

    def out_of_time(self, step: float = MIN_STEP_S) -> bool:
        """Whether the call's budget is gone: less than `step` left before `ends_at` (a client's deadline less the
        margin), too little to start a step that builds a model before it searches. Never for a control without an
        end or a deterministic one (its answers must not depend on the clock)."""
        return self.ends_at is not None and self.deterministic_limit is None and self.ends_at - time.monotonic() < step

    def seconds_left(self) -> float:
        """Wall-clock seconds until `ends_at` (never below 0), or the time limit when there is none."""
        if self.ends_at is None:
            return self.time_limit_s
        return max(0.0, min(self.time_limit_s, self.ends_at - time.monotonic()))

    @property
    def cancelled(self) -> bool:
        return self._cancelled

    def cancel(self) -> None:
        with self._lock:
            self._cancelled = True
            running = list(self._running)
        for solver in running:
            solver.stop_search()

    def new_solver(self, time_limit_s: float | None = None, check: bool = False) -> cp_model.CpSolver:
        """A solver within the control's limits. `check=True` marks a search that settles an answer
        already found (a fixed garden's value, checked against the pure scorer before it leaves):
        `ends_at` does not cut it (cut to nothing it would fail the answer instead of delivering it),
        its own limit and cancel() still do."""
        solver = cp_model.CpSolver()
        p = solver.parameters
        # On by default (OR-Tools 9.15): a search then installs a C SIGINT handler of its own and puts
        # SIG_DFL back when it ends, replacing the process's: a server's Ctrl-C after any solve killed
        # it without a drain (exit -2), and one during concurrent searches aborted it (exit -6).
        p.catch_sigint_signal = False
        p.num_workers = self.num_workers
        p.random_seed = self.random_seed
        limit = self.time_limit_s if time_limit_s is None else min(time_limit_s, self.time_limit_s)
        if check and time_limit_s is not None:
            # a settling search keeps its own limit even above a tiny call limit (`--time-limit 0.01` cut the
            # scoring of an already found game to 0.01 s and failed the answer as a model mismatch)
            limit = time_limit_s
        if self.ends_at is not None and not check:
            limit = min(limit, self.ends_at - time.monotonic())
        if self.deterministic_limit is not None:
            p.max_deterministic_time = self.deterministic_limit
        else:
            p.max_time_in_seconds = max(0.001, limit)
        return solver

    def solve(self, model: cp_model.CpModel, solver: cp_model.CpSolver | None = None,
              callback: cp_model.CpSolverSolutionCallback | None = None) -> tuple[int, cp_model.CpSolver]:
        """Solve `model`; returns (status, solver). Raises Cancelled when cancelled before start."""
        solver = solver or self.new_solver()
        with self._lock:
            if self._cancelled:
                raise Cancelled()
            self._running.add(solver)
        try:
            status = solver.solve(model, callback) if callback else solver.solve(model)
        finally:
            with self._lock:
                self._running.discard(solver)
        if self._cancelled and status not in (cp_model.OPTIMAL, cp_model.FEASIBLE, cp_model.INFEASIBLE):
            raise Cancelled()
        return status, solver
