"""Server configuration: embedded defaults, overridden by GARDENS_* environment variables, then flags."""
from __future__ import annotations

import argparse
import math
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
    deadline_margin_s: float = 0.5  # 0.25 until 1 Dec: 14 Versailles tiles at a 1 s deadline missed it 1 time in 6 (0 with 0.5)
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
    # Make the window's missing daily puzzles in a background thread at start-up and after each UTC
    # midnight (server/prepare.py): "" = off (each is made on its first request), "all", or a comma
    # list of game[/variant[/difficulty]] prefixes. `make run` sets "all".
    prepare_puzzles: str = ""
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
        """Refuses values the server cannot run with, at start-up and by name: a NaN cap, a negative
        grace or a seed CP-SAT refuses used to start a server whose every solve failed (and as the
        client's INVALID_ARGUMENT), a port of -1 or 99999 was bound modulo 65536 (65535, 34463), and
        a log level or a port past 65535 failed with a traceback."""
        def number(name: str, low: float, low_ok: bool = True) -> None:
            value = getattr(self, name)
            if not math.isfinite(value) or value < low or (value == low and not low_ok):
                raise ValueError(f"{name} must be a finite number {'>=' if low_ok else '>'} {low:g} (got {value})")

        def integer(name: str, low: int, high: int | None = None, what: str = "") -> None:
            value = getattr(self, name)
            if value < low or (high is not None and value > high):
                bound = f">= {low}" if high is None else f"from {low} to {high}"
                raise ValueError(f"{name} must be {bound}{what} (got {value})")

        integer("processes", 1)
        integer("workers", 1)
        integer("light_workers", 0, what=" (0 = 4 x workers)")
        integer("reserve_threads", 0)
        number("time_cap_s", 0, low_ok=False)
        number("call_time_cap_s", 0, low_ok=False)
        number("deadline_margin_s", 0)
        number("grace_s", 0)
        integer("solver_threads", 0, what=" (0 = one per core)")
        integer("seed", 0, 2 ** 31 - 1)
        integer("max_request_bytes", 1024, 2 ** 31 - 1)
        integer("max_cards", 1)
        integer("max_garden_size", 1)
        integer("max_count_cap", 1)
        integer("puzzles_past_days", -1, what=" (-1 = the default)")
        integer("puzzles_future_days", -1, what=" (-1 = the default)")
        if not self.address.startswith(("unix:", "unix-abstract:")):
            host, colon, port = self.address.rpartition(":")
            if not colon or not host or not port.isdigit() or int(port) > 65535:
                raise ValueError(f"address must be host:port with a port from 0 to 65535 (got {self.address!r})")
        if not -1 <= self.metrics_port <= 65535:
            raise ValueError(f"metrics_port must be -1 (off), 0 (any free port) or a port (got {self.metrics_port})")
        if bool(self.tls_cert) != bool(self.tls_key):
            raise ValueError("tls_cert and tls_key go together")
        if not -1 <= self.health_port <= 65535:
            raise ValueError(f"health_port must be -1 (off), 0 (any free port) or a port (got {self.health_port})")
        if self.log_level.upper() not in _LOG_LEVELS:
            raise ValueError(f"log_level must be one of {', '.join(_LOG_LEVELS)} (got {self.log_level!r})")
        if self.auth_token and not all("!" <= ch <= "~" for ch in self.auth_token):
            # gRPC metadata values are printable ASCII; a token no client can send locks everyone out
            raise ValueError("auth_token must be printable ASCII without spaces")
        from server.prepare import parse_patterns
        parse_patterns(self.prepare_puzzles)  # a kind that does not exist is refused at start-up
        return self


_LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


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


# What each flag does and its default in words (`--help`; docs/service.md has the long form). A default given in
# words replaces the raw value where that is a sentinel ("" or -1 meaning "the default" or "off").
HELP: dict[str, tuple[str, str | None]] = {
    "address": ("where to listen (host:0 picks a free port, printed as LISTENING <port>)", None),
    "processes": ("server processes sharing the port (SO_REUSEPORT); slots below are per process", None),
    "workers": ("solver slots: CPU-bound calls running at once; past it, RESOURCE_EXHAUSTED", "the usable cores"),
    "light_workers": ("slots for the quick calls (CheckGarden, ListTiles, Validate, ...)", "4 x workers"),
    "reserve_threads": ("threads kept for health, reflection and refusals", None),
    "time_cap_s": ("cap in seconds on any one CP-SAT search", None),
    "call_time_cap_s": ("cap in seconds on a whole call (it may run many searches)", None),
    "deadline_margin_s": ("seconds left before a client's deadline for the answer to be checked and sent", None),
    "solver_threads": ("CP-SAT num_workers per search (0 = one per core)", None),
    "seed": ("CP-SAT random_seed (answers are reproducible for a given seed)", None),
    "max_request_bytes": ("larger requests are refused (RESOURCE_EXHAUSTED) before any handler runs", None),
    "max_cards": ("at most this many cards in a Gardeners request", None),
    "max_garden_size": ("largest Gardeners garden side", None),
    "max_count_cap": ("largest cap of CountSolutions", None),
    "tiles_file": ("Gardeners tile catalog JSON", "the reference catalog"),
    "cards_file": ("Gardeners card decks JSON", "the reference decks"),
    "puzzles_db": ("the daily-puzzle SQLite store", "var/puzzles.sqlite"),
    "puzzles_past_days": ("days before today (UTC) PuzzleService serves", "1"),
    "puzzles_future_days": ("days after today (UTC) PuzzleService serves", "1"),
    "prepare_puzzles": ("make the served days' missing puzzles in the background: 'all' or comma-separated "
                        "game[/variant[/difficulty]] prefixes", "off (make run: all)"),
    "metrics_port": ("Prometheus /metrics port (0 = any free port)", "off"),
    "health_port": ("a second port serving only grpc.health.v1, for probes under load (0 = any free port)", "off"),
    "metrics_address": ("host of the metrics endpoint", None),
    "tls_cert": ("serve TLS with this certificate (PEM; with --tls-key)", "off"),
    "tls_key": ("the TLS key (PEM; with --tls-cert)", "off"),
    "auth_token": ("require 'authorization: Bearer <token>' on every call but health", "off"),
    "grace_s": ("seconds in-flight calls get after SIGTERM/SIGINT before the server exits", None),
    "log_level": ("log level; one access line per call (gardens.server.access)", None),
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Adds one flag per config field; unset flags keep the env/default value (default=None)."""
    defaults = ServerConfig()
    for f in fields(ServerConfig):
        kind = type(getattr(defaults, f.name))
        what, default = HELP[f.name]
        parser.add_argument(
            "--" + f.name.replace("_", "-"), dest=f.name, type=kind, default=None,
            help=f"{what} (default {default or repr(getattr(defaults, f.name))}; env GARDENS_{f.name.upper()})",
        )


def from_args(args: argparse.Namespace, env: dict[str, str] | None = None) -> ServerConfig:
    env = dict(os.environ) if env is None else env
    config = replace(ServerConfig(), **_env_overrides(env))
    flags = {f.name: getattr(args, f.name) for f in fields(ServerConfig)
             if getattr(args, f.name, None) is not None}
    return replace(config, **flags).validate()
