"""Builds the gRPC server (create_server) and runs it until SIGTERM with a graceful drain (serve)."""
from __future__ import annotations

import argparse
import faulthandler
import logging
import os
import signal
import ssl
import sys
import threading
import time
from concurrent import futures
from pathlib import Path

import grpc
from google.protobuf import descriptor_pool
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from server import config as config_mod
from server.config import ServerConfig
from server.interceptor import CallInterceptor, ReceiveGuard, ReceiveInterceptor
from server.runtime import Runtime
from server.signals import StopSignals
from server.services import register_all
from server.watchdog import Watchdog

log = logging.getLogger("gardens.server")


class _MethodSymbols:
    """The descriptor pool reflection reads, also finding the file of a method's full name
    ("gardens.v1.GardenersService.Solve", as `grpcurl describe` asks): protobuf's Python pool answers NOT_FOUND
    for methods, unlike the C++ and Go servers' reflection (the client walkthrough of 7 Dec)."""

    def __init__(self, pool):
        self._pool = pool

    def FindFileContainingSymbol(self, name: str):  # noqa: N802 (the pool's own method name)
        try:
            return self._pool.FindFileContainingSymbol(name)
        except KeyError:
            service, _, method = name.rpartition(".")
            try:
                found = self._pool.FindServiceByName(service)
            except KeyError:
                found = None
            if found is None or method not in found.methods_by_name:
                raise
            return found.file

    def __getattr__(self, name):
        return getattr(self._pool, name)


class _MetadataNotUtf8(logging.Filter):
    """gRPC core logs an ERROR with a whole traceback, per call, for every metadata value that is not
    UTF-8 (an HTTP/1.1 header in Latin-1 through Envoy, `x-request-id: café`), though the call is served
    (the value decoded as Latin-1): a client could fill the log at will. One WARNING line instead."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.getMessage().startswith("Invalid encoding on"):
            record.levelno, record.levelname = logging.WARNING, "WARNING"
            record.msg, record.args = "%s (a metadata value that is not UTF-8; the call is served)", (
                record.getMessage(),)
            record.exc_info = record.exc_text = None
        return True


logging.getLogger("grpc._cython.cygrpc").addFilter(_MetadataNotUtf8())


def create_server(config: ServerConfig, runtime: Runtime | None = None,
                  extra_services=(), reuse_port: bool = False) -> tuple[grpc.Server, int]:
    """A started-ready (not started) server bound to `config.address`; returns (server, bound port).

    `runtime` lets a caller keep a handle on metrics, health and domain back ends (tests inject
    slow or failing domains there); `extra_services` are more `register(server, runtime)` callables.
    `reuse_port` lets several processes share the address (see server.processes).
    """
    config.validate()
    runtime = runtime or Runtime(config)
    # One thread per slot plus a reserve: an admitted call never waits for a thread, and health,
    # reflection and refusals still find one while every slot is busy. The grpc-level cap is that
    # plus max_queued_calls, so a burst waits a moment for a thread to answer it (served, or refused
    # by its pool: logged and counted) while nothing queues without bound.
    executor = futures.ThreadPoolExecutor(max_workers=config.threads, thread_name_prefix="rpc")
    options = [
        ("grpc.max_receive_message_length", config.max_request_bytes),
        # Off by default so that a second server on a taken address fails instead of sharing it.
        ("grpc.so_reuseport", 1 if reuse_port else 0),
    ]
    # One thread for the server (both ports) that cancels calls whose request message does not come in time
    watchdog = Watchdog()
    interceptor = CallInterceptor(runtime, watchdog)
    server = grpc.server(executor, interceptors=[interceptor], options=options,
                         maximum_concurrent_rpcs=config.threads + config.max_queued_calls)

    register_all(server, runtime)
    for register in extra_services:
        register(server, runtime)

    runtime.health = health.HealthServicer(
        experimental_non_blocking=True,
        experimental_thread_pool=futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="health"))
    health_pb2_grpc.add_HealthServicer_to_server(runtime.health, server)
    runtime.health.set("", health_pb2.HealthCheckResponse.SERVING)
    for name in runtime.service_names:
        runtime.health.set(name, health_pb2.HealthCheckResponse.SERVING)
    reflection.enable_server_reflection(
        [*runtime.service_names, health.SERVICE_NAME, reflection.SERVICE_NAME], server,
        pool=_MethodSymbols(descriptor_pool.Default()))

    credentials = _tls_credentials(config) if config.tls_cert else None
    port = _listen(server, config.address, credentials, setting="--address", reuse_port=reuse_port)
    if config.metrics_port >= 0:
        runtime.metrics_port = runtime.metrics.serve_http(config.metrics_address, config.metrics_port,
                                                          config.name_of("metrics_address"),
                                                          config.name_of("metrics_port"))
    if config.health_port >= 0:
        _add_health_port(server, runtime, config,
                         ReceiveGuard(watchdog, min(config.receive_timeout_s, HEALTH_RECEIVE_TIMEOUT_S),
                                      interceptor._record, " (health port)"))
    _close_with(server, watchdog)
    server.runtime = runtime  # so serve() and tests reach health and metrics of this server
    server.watchdog = watchdog
    return server, port


def _close_with(server: grpc.Server, watchdog: Watchdog) -> None:
    """The watchdog's thread ends once `server` (and its health port) has stopped: until then it still cancels
    the calls that never send their message, so they do not hold the drain for the whole grace."""
    stop = server.stop

    def stop_then_close(grace):
        done = stop(grace)

        def close():
            done.wait()
            watchdog.close()

        threading.Thread(target=close, name="watchdog-close", daemon=True).start()
        return done

    server.stop = stop_then_close


def _tls_credentials(config: ServerConfig) -> grpc.ServerCredentials:
    """The server's TLS credentials; ValueError naming the flag when a file is missing or the two are
    not a PEM certificate chain and its private key (grpc said only "cannot listen on ADDRESS: the
    address is taken or not allowed", after logging TSI_INVALID_ARGUMENT)."""
    files = {}
    cert, key = config.name_of("tls_cert"), config.name_of("tls_key")  # the flags, or the variables given
    for setting, path in (("tls_cert", config.tls_cert), ("tls_key", config.tls_key)):
        try:
            files[setting] = Path(path).read_bytes()
        except OSError as exc:
            raise ValueError(f"{config.name_of(setting)} {path}: {exc.strerror or exc}") from None
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    try:
        context.load_cert_chain(config.tls_cert, config.tls_key)
    except ssl.SSLError as exc:
        raise ValueError(f"{cert} {config.tls_cert} / {key} {config.tls_key}: not a PEM certificate "
                         f"chain and its matching private key ({exc.reason or exc})") from None
    return grpc.ssl_server_credentials([(files["tls_key"], files["tls_cert"])])


def _listen(server: grpc.Server, address: str, credentials=None, setting: str = "--address",
            reuse_port: bool = False) -> int:
    """Binds `server` to every address of `address`'s host (config.listen_hosts; TLS with
    `credentials`), each bind checked; the bound port, or OSError naming `setting` when any
    address cannot be bound (a server on half of `localhost` is refused, not started)."""
    host, _, port_text = address.rpartition(":")
    try:
        hosts = config_mod.listen_hosts(host)
    except OSError as exc:
        raise OSError(f"{setting} {address}: {exc}") from None
    port = int(port_text)
    if port == 0 and len(hosts) > 1:
        port = config_mod.free_port(hosts, reuse_port)
    for host in hosts:
        target = f"{host}:{port}"
        try:
            bound = (server.add_secure_port(target, credentials) if credentials is not None
                     else server.add_insecure_port(target))
        except RuntimeError:  # grpc reports a failed bind this way
            bound = 0
        if bound == 0:
            of = f" (one of the addresses {address} names: {', '.join(hosts)})" if len(hosts) > 1 else ""
            raise OSError(f"cannot listen on {target}{of}: the address is taken or not allowed ({setting} {address})")
        port = bound
    return port


# The health port's own receive timeout and threads: a probe's request is a few bytes sent with its headers, and
# orchestrators give probes ~1 s (Kubernetes' default timeout); at the main port's 5 s, 2 stuck calls failed every
# probe for 5 s, and a client reopening them kept the port frozen (the QA walkthrough of 7 Dec)
HEALTH_RECEIVE_TIMEOUT_S = 1.0
HEALTH_PORT_THREADS = 4


def _add_health_port(server: grpc.Server, runtime: Runtime, config: ServerConfig, guard: ReceiveGuard) -> None:
    """A second server with only the health service (the same servicer, so the same statuses) and
    HEALTH_PORT_THREADS threads of its own, started and stopped with `server`: the main port's concurrency cap counts
    health checks, so under a burst of calls they were refused (RESOURCE_EXHAUSTED) or queued
    behind the refusals; here nothing else competes for its threads or its cap. Its calls read their
    message under the watchdog (`guard`): 2 calls that never sent one froze it, answering nothing."""
    probe = grpc.server(futures.ThreadPoolExecutor(max_workers=HEALTH_PORT_THREADS, thread_name_prefix="health-port"),
                        interceptors=[ReceiveInterceptor(guard)],
                        options=[("grpc.so_reuseport", 0)], maximum_concurrent_rpcs=64)
    health_pb2_grpc.add_HealthServicer_to_server(runtime.health, probe)
    runtime.health_port = _listen(probe, f"{config.address.rsplit(':', 1)[0]}:{config.health_port}",
                                  setting="--health-port")
    start, stop = server.start, server.stop

    def start_both():
        start()
        probe.start()

    def stop_both(grace):
        # the health port goes after the main port has drained, so that during the drain a probe
        # sees NOT_SERVING (shutdown() sets it) rather than a closed port; the event returned is set
        # once both are stopped
        done, both = stop(grace), threading.Event()

        def finish():
            done.wait()
            probe.stop(None).wait()
            both.set()

        threading.Thread(target=finish, name="health-port-stop", daemon=True).start()
        return both

    server.start, server.stop = start_both, stop_both


def shutdown(server: grpc.Server, grace_s: float) -> None:
    """Health turns NOT_SERVING, in-flight calls get `grace_s` to finish, then the rest are cancelled."""
    runtime: Runtime = server.runtime
    runtime.health.enter_graceful_shutdown()
    # before stop(): gRPC cancels the calls still running no earlier than this
    runtime.stop_cancels_at = time.monotonic() + grace_s
    server.stop(grace_s).wait()
    runtime.metrics.close()


# The interpreter's thread switch interval while serving (Python's default is 5 ms). A light call or a refusal needs
# the GIL a few times between the solver threads' turns: with two 14-tile Versailles solves holding the slots, 28
# concurrent CheckSolvable calls at a 0.3 s deadline got 11-14 DEADLINE_EXCEEDED (refusals up to 0.3 s) at 5 ms and
# 28 RESOURCE_EXHAUSTED within 0.07-0.09 s at 1 ms (the chaos walkthrough of 7 Dec); four concurrent solves took
# the same time either way (13-16 s, within noise).
SWITCH_INTERVAL_S = 0.001


# Seconds past the grace after which a drain that has not ended is cut short: stacks on stderr, exit 1 (serve()).
# The drain's own steps after the grace take about a second (the cancelled calls end, then the rest is abandoned).
HARD_STOP_S = 5.0


def serve(config: ServerConfig, reuse_port: bool = False, ready=None) -> int:
    """Serves until SIGTERM/SIGINT, then drains; `ready(port)` is called once serving (default: print it)."""
    # `kill -USR1` prints every thread's stack to stderr (a server that does not stop or answer can be looked into
    # without a debugger; the processes of --processes inherit it)
    faulthandler.register(signal.SIGUSR1, all_threads=True)
    if config.processes > 1 and not reuse_port:
        from server.processes import serve_processes
        return serve_processes(config)
    sys.setswitchinterval(SWITCH_INTERVAL_S)
    server, port = create_server(config, reuse_port=reuse_port)
    stop = StopSignals()  # before start(): a signal from then on is never lost
    server.start()
    preparer = None
    if config.prepare_puzzles and getattr(server.runtime, "puzzles", None) is not None:
        from server.prepare import Preparer, parse_patterns
        preparer = Preparer(server.runtime.puzzles, parse_patterns(config.prepare_puzzles)).start()
    host = config.address.rsplit(":", 1)[0]
    metrics = getattr(server.runtime, "metrics_port", None)
    probe = getattr(server.runtime, "health_port", None)
    log.info("serving gardens.v1 on %s:%d (tls=%s, auth=%s, workers=%d%s%s)", host, port,
             bool(config.tls_cert), bool(config.auth_token), config.workers,
             f", metrics on :{metrics}" if metrics else "", f", health on :{probe}" if probe else "")
    if ready is None:
        # Printed for scripts and tests that start the server on port 0 and need the real port.
        print(f"LISTENING {port}", flush=True)
    else:
        ready(port)
    signum = stop.wait()
    # The net under the drain: if the process still runs HARD_STOP_S after the grace (the drain itself stuck, not
    # a call: calls are cancelled, then abandoned below), faulthandler's own thread, which needs no GIL, prints
    # every thread's stack to stderr and exits 1, so a supervisor's stop never has to end in SIGKILL
    faulthandler.dump_traceback_later(config.grace_s + HARD_STOP_S, exit=True)
    log.info("signal %s: draining for up to %.1fs", signal.Signals(signum).name, config.grace_s)
    if preparer is not None:
        preparer.stop()
    shutdown(server, config.grace_s)  # a second signal meanwhile changes nothing
    stop.close()
    # The calls cancelled at the end of the grace stop their searches within tens of milliseconds:
    # up to a second for them to end and write their line (leaving at once lost it)
    settle = time.monotonic() + 1.0
    while server.runtime.calls_in_flight and time.monotonic() < settle:
        time.sleep(0.01)
    running = server.runtime.calls_in_flight
    preparing = preparer is not None and preparer.busy
    if preparing:
        log.warning("the puzzle being prepared is abandoned (nothing of it is stored)")
    if running or preparing:
        # Calls past the grace were cancelled, but work that does not watch the call (a daily
        # puzzle's generation, ~10-25 s) kept its thread, and the interpreter waits for every
        # executor thread at exit: the process outlived the grace by the rest of it (14.5 s after
        # SIGTERM with --grace-s 1). Nothing is half-written by leaving now: the store writes a
        # puzzle in one transaction once it is complete.
        if running:
            # each writes its access line and is counted (UNAVAILABLE): they had neither
            running = server.runtime.abandon_calls()
            log.warning("stopped; %d call(s) still running after the grace are abandoned", running)
        logging.shutdown()
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(0)
    faulthandler.cancel_dump_traceback_later()
    log.info("stopped")
    return 0


def build_parser(prog: str = "python -m server") -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=prog, description="Serve the gardens.v1 gRPC API.")
    config_mod.add_arguments(parser)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        config = config_mod.from_args(args)
    except ValueError as exc:
        print(f"server: error: {exc}", file=sys.stderr)
        return 2
    logging.basicConfig(level=config.log_level.upper(), stream=sys.stderr,
                        format="%(asctime)s %(levelname)s %(name)s %(message)s")
    try:
        return serve(config)
    except (ValueError, OSError) as exc:  # bad data files, an address already taken
        print(f"server: error: {exc}", file=sys.stderr)
        return 2
