"""Server configuration: embedded defaults, overridden by GARDENS_* environment variables, then flags."""
from __future__ import annotations

import argparse
import os
from dataclasses import dataclass, field, fields, replace


def _cores() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


@dataclass(frozen=True)
class ServerConfig:
    """Everything `create_server` needs; every field has a flag `--name-with-dashes` and env `GARDENS_NAME`."""

    address: str = "localhost:50051"
    # Server processes sharing the address (SO_REUSEPORT): the GIL caps one process's pure-Python
    # throughput; connections, not calls, are spread over processes. Slots below are per process.
    processes: int = 1
    # Solver slots: CPU-bound RPCs running at once. Past this, RESOURCE_EXHAUSTED at once (no queue).
    workers: int = field(default_factory=_cores)
    # Slots for cheap pure-Python RPCs (CheckGarden, ListTiles, ...), also rejected when full.
    light_workers: int = 0  # 0 = 4 x workers
    # Extra threads kept for health, reflection and rejections, so they answer while all slots are busy.
    reserve_threads: int = 4
    time_cap_s: float = 10.0  # cap on any single CP-SAT search
    call_time_cap_s: float = 60.0  # cap on a whole call, which may run many searches
    # Left before the client's deadline for CP-SAT to notice its limit (it overshoots on a loaded
    # machine) and for the answer to travel back.
    deadline_margin_s: float = 0.25
    solver_threads: int = 1  # CP-SAT num_workers per search
    seed: int = 0
    max_request_bytes: int = 64 * 1024
    max_cards: int = 12
    max_garden_size: int = 6
    max_count_cap: int = 1000
    tiles_file: str = ""  # empty = the reference catalog shipped with the solver
    cards_file: str = ""
    puzzles_db: str = ""  # the daily-puzzle SQLite file; empty = var/puzzles.sqlite
    # PuzzleService serves dates from today - past to today + future days (UTC); -1 = its default (1)
    puzzles_past_days: int = -1
    puzzles_future_days: int = -1
    metrics_port: int = -1  # -1 = no metrics endpoint; 0 = any free port
    # A second gRPC port serving only grpc.health.v1 (the same statuses), on its own threads: probes
    # answer even when a burst of calls fills the main port's cap (which counts health checks too).
    # -1 = health on the main port only; 0 = any free port; bound on the main address's host.
    health_port: int = -1
    metrics_address: str = "localhost"
    tls_cert: str = ""
    tls_key: str = ""
    auth_token: str = ""  # empty = no authentication
    grace_s: float = 10.0
    log_level: str = "INFO"

    @property
    def light_slots(self) -> int:
        return self.light_workers if self.light_workers > 0 else 4 * self.workers

    @property
    def threads(self) -> int:
        return self.workers + self.light_slots + self.reserve_threads

    def validate(self) -> "ServerConfig":
        if self.processes < 1:
            raise ValueError(f"processes must be >= 1 (got {self.processes})")
        if self.workers < 1:
            raise ValueError(f"workers must be >= 1 (got {self.workers})")
        if self.time_cap_s <= 0:
            raise ValueError(f"time_cap_s must be > 0 (got {self.time_cap_s})")
        if bool(self.tls_cert) != bool(self.tls_key):
            raise ValueError("tls_cert and tls_key go together")
        if not -1 <= self.health_port <= 65535:
            raise ValueError(f"health_port must be -1 (off), 0 (any free port) or a port (got {self.health_port})")
        if self.max_request_bytes < 1024:
            raise ValueError(f"max_request_bytes must be >= 1024 (got {self.max_request_bytes})")
        return self


def _env_overrides(env: dict[str, str]) -> dict[str, object]:
    out: dict[str, object] = {}
    for f in fields(ServerConfig):
        raw = env.get("GARDENS_" + f.name.upper())
        if raw is None:
            continue
        out[f.name] = _coerce(f, raw)
    return out


def _coerce(f, raw: str):
    kind = type(getattr(ServerConfig(), f.name))
    try:
        return kind(raw)
    except ValueError as exc:
        raise ValueError(f"GARDENS_{f.name.upper()}: expected {kind.__name__}, got {raw!r}") from exc


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Adds one flag per config field; unset flags keep the env/default value (default=None)."""
    defaults = ServerConfig()
    for f in fields(ServerConfig):
        kind = type(getattr(defaults, f.name))
        parser.add_argument(
            "--" + f.name.replace("_", "-"), dest=f.name, type=kind, default=None,
            help=f"(env GARDENS_{f.name.upper()}, default {getattr(defaults, f.name)!r})",
        )


def from_args(args: argparse.Namespace, env: dict[str, str] | None = None) -> ServerConfig:
    env = dict(os.environ) if env is None else env
    config = replace(ServerConfig(), **_env_overrides(env))
    flags = {f.name: getattr(args, f.name) for f in fields(ServerConfig)
             if getattr(args, f.name, None) is not None}
    return replace(config, **flags).validate()
