"""What services share at run time: config, metrics, domain back ends, worker slots and solve controls."""
from __future__ import annotations

import importlib
import itertools
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import grpc

from server.config import ServerConfig
from server.errors import ServiceError
from server.metrics import Metrics
from solver.core.solve import SolveControl

# Where each game's domain API lives; a test may replace any of them through Runtime(domains=...).
DOMAIN_MODULES = {
    "gardeners": "solver.games.gardeners.api",
    "gartenbau": "solver.games.gartenbau.api",
    "versailles": "solver.games.versailles.api",
    "horticulture": "solver.games.horticulture.api",
}

# A deadline shorter than the margin allows leaves this share of itself to the searches, and none under MIN_SEARCH_S
# (DEADLINE_EXCEEDED at once: a deadline under ~0.07 s)
SHORT_DEADLINE_SHARE = 0.3
MIN_SEARCH_S = 0.02
SOLVE = "solve"  # CPU-bound (CP-SAT) calls
LIGHT = "light"  # quick pure-Python calls
FREE = "free"  # health, reflection: never refused for lack of slots


class Slots:
    """A fixed number of slots taken without waiting: a full pool refuses instead of queueing."""

    def __init__(self, name: str, size: int, metrics: Metrics):
        self.name = name
        self.size = size
        self._sem = threading.BoundedSemaphore(size)
        self._gauge = metrics.in_use.labels(name)
        self.in_use = 0
        self._count_lock = threading.Lock()

    def try_acquire(self) -> bool:
        if self._sem.acquire(blocking=False):
            with self._count_lock:
                self.in_use += 1
            self._gauge.inc()
            return True
        return False

    @property
    def busy(self) -> str:
        """The refusal when every slot is taken (RESOURCE_EXHAUSTED)."""
        return f"all {self.size} {self.name} slots are busy; retry later"

    def release(self) -> None:
        self._sem.release()
        with self._count_lock:
            self.in_use -= 1
        self._gauge.dec()


@dataclass
class Runtime:
    config: ServerConfig
    domains: dict[str, Any] = field(default_factory=dict)
    metrics: Metrics = field(default_factory=Metrics)
    # full method name ("/gardens.v1.GardenersService/Solve") -> SOLVE or LIGHT; others are FREE
    method_pools: dict[str, str] = field(default_factory=dict)
    service_names: list[str] = field(default_factory=list)
    health: Any = None
    # time.monotonic() from which a stop cancels what still runs (shutdown(): start + grace); None
    # while serving. A call cancelled from then on was cancelled by the server, not by its client.
    stop_cancels_at: float | None = None

    def __post_init__(self) -> None:
        self.pools = {
            SOLVE: Slots(SOLVE, self.config.workers, self.metrics),
            LIGHT: Slots(LIGHT, self.config.light_slots, self.metrics),
        }
        self._lock = threading.Lock()
        self._local = threading.local()  # per handler thread: the current call's budget flag
        self._in_flight: dict[int, object] = {}  # unary calls inside the interceptor, until their line is written
        self._call_ids = itertools.count()
        self._in_flight_lock = threading.Lock()

    def domain(self, game: str):
        """The domain API module of `game` (imported on first use); UNIMPLEMENTED if it has not landed."""
        with self._lock:
            if game not in self.domains:
                try:
                    self.domains[game] = importlib.import_module(DOMAIN_MODULES[game])
                except ImportError as exc:
                    raise ServiceError(grpc.StatusCode.UNIMPLEMENTED,
                                       f"the {game} engine is not available: {exc}") from exc
            return self.domains[game]

    def function(self, game: str, name: str):
        """A function of the domain API; UNIMPLEMENTED (not a fake answer) while it does not exist."""
        fn = getattr(self.domain(game), name, None)
        if fn is None:
            raise ServiceError(grpc.StatusCode.UNIMPLEMENTED, f"{game}.{name} is not implemented yet")
        return fn

    def add_service(self, name: str, solve_methods: list[str] = (), light_methods: list[str] = ()) -> None:
        self.service_names.append(name)
        for m in solve_methods:
            self.method_pools[f"/{name}/{m}"] = SOLVE
        for m in light_methods:
            self.method_pools[f"/{name}/{m}"] = LIGHT

    def pool_for(self, method: str) -> Slots | None:
        kind = self.method_pools.get(method)
        return self.pools.get(kind) if kind else None

    @contextmanager
    def solve_slot(self, method: str):
        """A solve slot for the CPU-bound part of a light call (a daily puzzle generated on first request), refused
        as the interceptor refuses a solve call: RESOURCE_EXHAUSTED, counted as `method`'s rejection."""
        pool = self.pools[SOLVE]
        if not pool.try_acquire():
            self.metrics.rejected.labels(method).inc()
            raise ServiceError(grpc.StatusCode.RESOURCE_EXHAUSTED, pool.busy)
        try:
            yield
        finally:
            pool.release()

    def cancelled_by_stop(self) -> bool:
        """Whether a call cancelled now was cancelled by the server's stop (its grace has run out)."""
        at = self.stop_cancels_at
        return at is not None and time.monotonic() >= at

    @property
    def calls_in_flight(self) -> int:
        return len(self._in_flight)

    def begin_call(self, abandon=None) -> int:
        """A call enters the interceptor; `abandon()` writes its line if the server exits without waiting for it
        (`abandon_calls`). Returns the call's token for `end_call`."""
        self._local.expired = None
        with self._in_flight_lock:
            token = next(self._call_ids)
            self._in_flight[token] = abandon
        return token

    def end_call(self, token: int | None = None) -> None:
        """The call's line is logged and counted (after begin_call, once)."""
        with self._in_flight_lock:
            self._in_flight.pop(token, None)

    def abandon_calls(self) -> int:
        """At an exit that does not wait for them: each call still running writes its line (UNAVAILABLE) and is
        counted once. Returns how many there were (the slots they held counted a daily puzzle's call twice: a
        light slot and a solve slot; and they had no line)."""
        with self._in_flight_lock:
            calls, self._in_flight = list(self._in_flight.values()), {}
        for abandon in calls:
            if abandon is not None:
                abandon()
        return len(calls)

    def budget_expired(self) -> bool:
        """Whether the current call (this thread's) was cancelled because its time budget ran out."""
        flag = getattr(self._local, "expired", None)
        return flag is not None and flag.is_set()

    def control(self, context: grpc.ServicerContext) -> SolveControl:
        """A SolveControl bounded by the server cap and the client's deadline, cancelled with the call.

        Each CP-SAT search gets min(time cap, deadline - margin), so it can answer "unknown" in
        time. A call may run many searches (explanations, counting); when the client's deadline
        passes gRPC ends the call and its callbacks cancel the control. Without a deadline (or with
        one beyond the call cap) the call cap is the deadline, and a timer cancels the work that does not watch the
        clock once the cap has passed.
        """
        config = self.config
        limit, ends_at = config.time_cap_s, None
        remaining = context.time_remaining()
        if remaining is not None and remaining <= config.call_time_cap_s:
            # a short deadline keeps SHORT_DEADLINE_SHARE of itself for the searches (one under the margin was
            # refused at once, a 5 ms Solve at 0.3 s too: the load walkthrough of 7 Dec); from 0.71 s on (margin
            # 0.5) the margin rules, as before
            left = max(remaining - config.deadline_margin_s, remaining * SHORT_DEADLINE_SHARE)
            if left < MIN_SEARCH_S:
                raise ServiceError(grpc.StatusCode.DEADLINE_EXCEEDED, "the deadline leaves no time to solve")
            limit, ends_at = min(limit, left), time.monotonic() + left
        else:
            # no deadline, or one past the call cap: the cap is the call's deadline, so that its searches end in
            # time with what they found (the timer below only stopped them: a 2 s cap gave CountSolutions,
            # Horticulture's SolveOptimal and Hint DEADLINE_EXCEEDED where a 2 s deadline gave their partial
            # answers, the load walkthrough of 7 Dec); the margin, as before a deadline, but never all of the cap
            left = max(config.call_time_cap_s - config.deadline_margin_s, config.call_time_cap_s / 2)
            limit, ends_at = min(limit, left), time.monotonic() + left
        control = SolveControl(time_limit_s=limit, num_workers=config.solver_threads, random_seed=config.seed,
                               ends_at=ends_at)
        callbacks = [control.cancel]
        if remaining is None or remaining > config.call_time_cap_s:
            expired = self._local.expired = threading.Event()

            def expire():
                expired.set()
                control.cancel()

            timer = threading.Timer(config.call_time_cap_s, expire)
            timer.daemon = True
            timer.start()
            callbacks.append(timer.cancel)
        # add_callback returns False when the call has already ended: then nobody is waiting.
        for callback in callbacks:
            if not context.add_callback(callback):
                for cb in callbacks:
                    cb()
                break
        return control


class GameServicer:
    """What every game's servicer shares: the runtime, its config, and the game's domain functions.
    A subclass names its game in `game` (the domain key of Runtime.function)."""

    game: str

    def __init__(self, runtime: Runtime):
        self.rt = runtime
        self.config = runtime.config

    def _fn(self, name: str):
        return self.rt.function(self.game, name)
