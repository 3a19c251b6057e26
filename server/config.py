"""Server configuration: embedded defaults, overridden by GARDENS_* environment variables, then flags."""
from __future__ import annotations

import argparse
import ipaddress
import math
import os
import socket
from dataclasses import dataclass, field, fields, replace


def _cores() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


class SettingError(ValueError):
    """A value the server cannot run with; `setting` is the ServerConfig field's name."""

    def __init__(self, setting: str, message: str):
        super().__init__(message)
        self.setting = setting


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
    # Calls gRPC lets wait for a thread (queued, not refused) beyond the threads above. gRPC's own cap
    # (maximum_concurrent_rpcs = threads + this) is a backstop against an unbounded queue: past it,
    # gRPC answers RESOURCE_EXHAUSTED "Concurrent RPC limit exceeded!" before any of the server's
    # code runs, so those refusals are not logged or counted. It was threads alone, and it counted the
    # calls waiting to be refused: 16 clients at once on --workers 1 (9 threads) were mostly refused
    # by gRPC, unseen (408 of 960), and the slot refusal (counted, logged) seldom got a chance.
    max_queued_calls: int = 1000
    time_cap_s: float = 10.0  # cap on any single CP-SAT search
    call_time_cap_s: float = 60.0  # cap on a whole call, which may run many searches
    # Left before the client's deadline for CP-SAT to notice its limit (it overshoots on a loaded
    # machine) and for the answer to travel back.
    deadline_margin_s: float = 0.5  # 0.25 until 1 Dec: 14 Versailles tiles at a 1 s deadline missed it 1 time in 6 (0 with 0.5)
    # A call whose request message has not arrived this long after its handler started waiting for it is cancelled
    # by the server (server/watchdog.py): calls that sent their headers but never their message held a thread each,
    # and 14 of them (one client, no deadline) took every thread of a default server, 2 the health port's.
    receive_timeout_s: float = 5.0
    solver_threads: int = 1  # CP-SAT num_workers per search
    seed: int = 0
    max_request_bytes: int = 64 * 1024
    max_cards: int = 12
    max_garden_size: int = 6
    max_count_cap: int = 1000
    tiles_file: str = ""  # empty = the reference catalog shipped with the solver
    cards_file: str = ""
    # directories holding a game's data files (the layout of solver/data/<game>); empty = the reference data
    gartenbau_data: str = ""
    versailles_data: str = ""
    horticulture_data: str = ""
    puzzles_db: str = ""  # the daily-puzzle SQLite file; empty = var/puzzles.sqlite
    # PuzzleService serves dates from today - past to today + future days (UTC), at most MAX_DAYS;
    # -1 (only here, not as a flag or GARDENS_* value) = unset: server/services/puzzles.py's default (1)
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
    # Not a setting: where each setting given came from, (name, "--flag" or "GARDENS_VAR"), so that a refusal at
    # start-up names what the operator wrote (it named the flag for a variable's value too).
    sources: tuple = ()

    def name_of(self, setting: str) -> str:
        """The flag or variable `setting` came from (the flag when it took its default)."""
        return dict(self.sources).get(setting, "--" + setting.replace("_", "-"))

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
            if not math.isfinite(value) or value < low or (value == low and not low_ok) or value > MAX_SECONDS:
                # past MAX_SECONDS: 1e10 s overflowed every timer (threading's TIMEOUT_MAX is ~9.2e9 s)
                bound = f"{'>=' if low_ok else '>'} {low:g} and at most {MAX_SECONDS:,}"
                raise SettingError(name, f"{name} must be a finite number {bound} (got {value})")

        def integer(name: str, low: int, high: int | None = None, what: str = "") -> None:
            value = getattr(self, name)
            if value < low or (high is not None and value > high):
                bound = f">= {low}" if high is None else f"from {low} to {high}"
                raise SettingError(name, f"{name} must be {bound}{what} (got {value})")

        integer("processes", 1)
        integer("workers", 1)
        integer("light_workers", 0, what=" (0 = 4 x workers)")
        integer("reserve_threads", 0)
        integer("max_queued_calls", 0, 2 ** 20)
        number("time_cap_s", 0, low_ok=False)
        number("call_time_cap_s", 0, low_ok=False)
        number("deadline_margin_s", 0)
        number("grace_s", 0)
        number("receive_timeout_s", 0, low_ok=False)
        integer("solver_threads", 0, what=" (0 = one per core)")
        integer("seed", 0, 2 ** 31 - 1)
        integer("max_request_bytes", 1024, 2 ** 31 - 1)
        from solver.games.gardeners.api import MAX_CARDS  # (the library's own cap: a larger setting never applies)
        integer("max_cards", 1, MAX_CARDS)
        integer("max_garden_size", 1)
        integer("max_count_cap", 1)
        # a date this far away overflowed (OverflowError: every PuzzleService call INTERNAL past ~739,000 days)
        integer("puzzles_past_days", -1, MAX_DAYS, what=" (-1 = unset: the default, 1)")
        integer("puzzles_future_days", -1, MAX_DAYS, what=" (-1 = unset: the default, 1)")
        if self.address.startswith(("unix:", "unix-abstract:")):
            # grpc would listen on a Unix socket, but the port printed, the health port's address and
            # --processes all read a TCP port out of the address (LISTENING 1, a socket file named after
            # the health port, a crash): not supported rather than half supported
            raise SettingError("address", "address must be host:port; Unix sockets are not supported "
                                          f"(got {self.address!r})")
        host, colon, port = self.address.rpartition(":")
        if not colon or not host or not port.isdigit() or int(port) > 65535:
            raise SettingError("address", "address must be host:port with a port from 0 to 65535 "
                                          f"(got {self.address!r})")
        for name in ("metrics_port", "health_port"):
            value = getattr(self, name)
            if not -1 <= value <= 65535:
                raise SettingError(name, f"{name} must be -1 (off), 0 (any free port) or a port (got {value})")
            if value > 0 and value + self.processes - 1 > 65535:
                # each process i of --processes N takes port + i: say so, with the value given (a
                # child process used to refuse "(got 65536)", a port nobody had typed)
                raise SettingError(name, f"{name} must be at most {65536 - self.processes} with processes "
                                         f"{self.processes}: process i listens on {name} + i, up to "
                                         f"{value + self.processes - 1} here (got {value})")
        if bool(self.tls_cert) != bool(self.tls_key):
            raise SettingError("tls_cert", "tls_cert and tls_key go together")
        if self.log_level.upper() not in _LOG_LEVELS:
            raise SettingError("log_level",
                               f"log_level must be one of {', '.join(_LOG_LEVELS)} (got {self.log_level!r})")
        if self.auth_token and not all("!" <= ch <= "~" for ch in self.auth_token):
            # gRPC metadata values are printable ASCII; a token no client can send locks everyone out
            raise SettingError("auth_token", "auth_token must be printable ASCII without spaces")
        from server.prepare import parse_patterns
        try:
            parse_patterns(self.prepare_puzzles)  # a kind that does not exist is refused at start-up
        except ValueError as exc:  # (named then by its flag or variable, as every setting)
            raise SettingError("prepare_puzzles", str(exc)) from None
        return self


_LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
# Largest value of a setting in seconds (time caps, margin, grace): about 11.6 days. Timers and waits
# overflow past ~9.2e9 s (--grace-s 1e10 crashed the drain, --call-time-cap-s 1e10 every call's timer).
MAX_SECONDS = 1_000_000
# Largest PuzzleService window on either side of today: 100 years (dates overflow past ~739,000 days
# back and ~2.9 million ahead; a wider window only makes more days to prepare).
MAX_DAYS = 36_500


def settings() -> list:
    """The configuration's settings: each has a flag and a GARDENS_* variable (`sources` is not one)."""
    return [f for f in fields(ServerConfig) if f.name != "sources"]


def _env_overrides(env: dict[str, str], skip=()) -> dict[str, object]:
    out: dict[str, object] = {}
    for f in settings():
        raw = env.get("GARDENS_" + f.name.upper())
        if f.name in skip:  # given as a flag: the environment's value does not matter, even a bad one
            continue
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
    "max_queued_calls": ("calls that may wait for a thread; past threads + this, gRPC itself refuses "
                         "(RESOURCE_EXHAUSTED, not logged or counted)", None),
    "time_cap_s": ("cap in seconds on any one CP-SAT search", None),
    "call_time_cap_s": ("cap in seconds on a whole call (it may run many searches)", None),
    "deadline_margin_s": ("seconds left before a client's deadline for the answer to be checked and sent", None),
    "receive_timeout_s": ("seconds a call may take to send its request message before the server cancels it "
                          "(its thread is freed; logged and counted as CANCELLED)", None),
    "solver_threads": ("CP-SAT num_workers per search (0 = one per core)", None),
    "seed": ("CP-SAT random_seed (answers are reproducible for a given seed)", None),
    "max_request_bytes": ("larger requests are refused (RESOURCE_EXHAUSTED) before any handler runs", None),
    "max_cards": ("at most this many cards in a Gardeners request (1 to 40)", None),
    "max_garden_size": ("largest Gardeners garden side", None),
    "max_count_cap": ("largest cap of CountSolutions", None),
    "tiles_file": ("Gardeners tile catalog JSON", "the reference catalog"),
    "cards_file": ("Gardeners card decks JSON", "the reference decks"),
    "gartenbau_data": ("directory of Gartenbau data files (as solver/data/gartenbau)", "the reference data"),
    "versailles_data": ("directory of Versailles data files (as solver/data/versailles)", "the reference data"),
    "horticulture_data": ("directory of Horticulture data files (as solver/data/horticulture)", "the reference data"),
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
    for f in settings():
        kind = type(getattr(defaults, f.name))
        what, default = HELP[f.name]
        parser.add_argument(
            "--" + f.name.replace("_", "-"), dest=f.name, type=kind, default=None,
            help=f"{what} (default {default or repr(getattr(defaults, f.name))}; env GARDENS_{f.name.upper()})",
        )


def from_args(args: argparse.Namespace, env: dict[str, str] | None = None) -> ServerConfig:
    """The configuration: flags, then GARDENS_* variables for the settings no flag gave, then the
    defaults. A refused value is named by the flag or the variable it came from."""
    env = dict(os.environ) if env is None else env
    flags = {f.name: getattr(args, f.name) for f in settings()
             if getattr(args, f.name, None) is not None}
    from_env = _env_overrides(env, skip=flags)
    sources = {**{name: "GARDENS_" + name.upper() for name in from_env},
               **{name: "--" + name.replace("_", "-") for name in flags}}
    config = replace(ServerConfig(), **from_env, **flags, sources=tuple(sorted(sources.items())))
    try:
        for name in ("puzzles_past_days", "puzzles_future_days"):
            # -1 is the unset value of ServerConfig, not a value to give: GARDENS_PUZZLES_PAST_DAYS=-1 is
            # refused by the puzzle service, so --puzzles-past-days -1 is refused too
            if name in sources and not 0 <= getattr(config, name) <= MAX_DAYS:
                raise SettingError(name, f"{name} must be from 0 to {MAX_DAYS} (got {getattr(config, name)})")
        return config.validate()
    except SettingError as exc:
        if exc.setting in sources:
            raise SettingError(exc.setting, f"{sources[exc.setting]}: {exc}") from None
        raise


def listen_hosts(host: str) -> list[str]:
    """The addresses to listen on for the host part of an address, each as gRPC takes it ("[::1]",
    "127.0.0.1"); OSError when the name does not resolve to an address of this machine.

    An IP address (or a wildcard, "0.0.0.0", "[::]") is itself. A name is resolved here, and each of
    its addresses is bound and checked one by one (server/app.py): gRPC, given the name, bound
    whichever of its addresses were free, said so only in its own log ("Only 1 addresses added out
    of total 2") and served on the rest, so `localhost` answered on [::1] while another process
    held 127.0.0.1. "localhost" is both loopbacks, as gRPC's resolver makes it even where
    /etc/hosts lists one. Addresses this machine does not have (no IPv6, another machine's
    address) are left out, as gRPC left them out; every other one must be bound."""
    bare = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    try:
        ipaddress.ip_address(bare.split("%", 1)[0])
        return [host]
    except ValueError:
        pass
    found: list[tuple[int, str]] = []
    if bare.lower() == "localhost":
        found += [(socket.AF_INET6, "::1"), (socket.AF_INET, "127.0.0.1")]
    try:
        infos = socket.getaddrinfo(bare, None, socket.AF_UNSPEC, socket.SOCK_STREAM)
    except socket.gaierror as exc:
        if not found:
            raise OSError(f"cannot resolve {bare}: {exc.strerror or exc}") from None
        infos = []
    found += [(family, sockaddr[0]) for family, _, _, _, sockaddr in infos
              if family in (socket.AF_INET, socket.AF_INET6)]
    hosts: list[str] = []
    for family, ip in found:
        name = f"[{ip}]" if family == socket.AF_INET6 else ip
        if name not in hosts and _can_bind(family, ip):
            hosts.append(name)
    if not hosts:
        raise OSError(f"{bare} resolves to no address of this machine ({', '.join(ip for _, ip in found)})")
    return hosts


def _can_bind(family: int, ip: str) -> bool:
    """Whether this machine has the address `ip` (a bind to a free port of it works)."""
    try:
        with socket.socket(family, socket.SOCK_STREAM) as sock:
            sock.bind((ip, 0))
        return True
    except OSError:
        return False


def free_port(hosts: list[str], reuse_port: bool = False, tries: int = 50) -> int:
    """A port free on every one of `hosts` (for port 0 with several addresses: the kernel's choice on
    the first may be taken on another, e.g. by a client connection)."""
    for _ in range(tries):
        socks, port = [], 0
        try:
            for host in hosts:
                sock = bound_socket(host, port, reuse_port)
                socks.append(sock)
                port = sock.getsockname()[1]
            return port
        except OSError:
            continue
        finally:
            for sock in socks:
                sock.close()
    raise OSError(f"no port free on every address of {', '.join(hosts)} after {tries} tries")


def bound_socket(host: str, port: int, reuse_port: bool = False) -> socket.socket:
    """A TCP socket bound (not listening) to host:port, with SO_REUSEADDR as gRPC sets it."""
    bare = host[1:-1] if host.startswith("[") else host
    sock = socket.socket(socket.AF_INET6 if ":" in bare else socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if reuse_port:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        sock.bind((bare or "0.0.0.0", port))
    except OSError:
        sock.close()
        raise
    return sock
