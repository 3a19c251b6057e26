"""Calls that send their headers but never their request message are cancelled after --receive-timeout-s.

Each such call held a server thread for as long as its client kept the connection (the interceptor serves unary
methods as stream-unary and waited in next(requests); the health port waited in grpc's own unary read): 14 took
every thread of a default server and 2 the health port's, which went on answering nothing while the metrics showed
no slot in use (the QA load walkthrough). The server's watchdog (server/watchdog.py) cancels them, frees their
threads, and logs and counts them as CANCELLED, the code their clients see."""
from __future__ import annotations

import json
import logging
import math
import threading
import types

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from conftest import wait_until
from gardens.v1 import gardeners_pb2, gardeners_pb2_grpc
from server import config as config_mod
from server.config import ServerConfig
from server.watchdog import Watchdog

SERVING = health_pb2.HealthCheckResponse.SERVING
NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING
CHECK_GARDEN = "/gardens.v1.GardenersService/CheckGarden"
HEALTH_CHECK = "/grpc.health.v1.Health/Check"
HEALTH_WATCH = "/grpc.health.v1.Health/Watch"
TIMEOUT_S = 0.5
WAIT = 30  # generous: the stuck calls end ~TIMEOUT_S after they reach a thread, a few rounds of threads here


class Stuck:
    """Calls that open (headers sent) and never send their request message until `release()`."""

    def __init__(self):
        self.released = threading.Event()
        self.started = 0
        self._lock = threading.Lock()

    def requests(self):
        with self._lock:
            self.started += 1  # the client has started the call (its headers are on the way)
        self.released.wait(120)
        return
        yield  # (a generator that yields nothing)

    def unary(self, channel: grpc.Channel, method: str, n: int) -> list[grpc.Future]:
        call = channel.stream_unary(method)  # raw bytes: the message never goes anyway
        return [call.future(self.requests()) for _ in range(n)]

    def release(self):
        self.released.set()


def _check_garden_request() -> gardeners_pb2.CheckGardenRequest:
    request = gardeners_pb2.CheckGardenRequest(mode="GAME_MODE_TRAINING_A", card_ids=["A3"])
    request.garden.placements.add(tile="A01", row=0, col=0)
    return request


def _health_check(channel: grpc.Channel) -> int:
    return health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=WAIT).status


def _access_lines(caplog, method: str) -> list[dict]:
    return [json.loads(r.getMessage()) for r in caplog.records
            if r.name == "gardens.server.access" and f'"{method}"' in r.getMessage()]


def _small_server(start_server):
    """A server of 3 threads on the main port (1 solve + 1 light + 1 reserve) and a health port, receive timeout
    TIMEOUT_S: (server, main channel, health-port channel)."""
    srv = start_server(workers=1, light_workers=1, reserve_threads=1, receive_timeout_s=TIMEOUT_S, health_port=0)
    probe = grpc.insecure_channel(f"localhost:{srv.runtime.health_port}")
    srv.channels.append(probe)
    return srv, srv.channel(), probe


def test_calls_that_never_send_their_message_are_cancelled_and_free_every_thread(start_server, caplog):
    # 3 threads on the main port, 4 on the health port: more stuck calls than that
    srv, channel, probe = _small_server(start_server)
    stuck = Stuck()
    try:
        with caplog.at_level(logging.INFO, logger="gardens.server.access"):
            main_calls = stuck.unary(channel, CHECK_GARDEN, 5)
            probe_calls = stuck.unary(probe, HEALTH_CHECK, 5)  # (the health port has 4 threads)
            wait_until(lambda: stuck.started == 10)
            # Without the watchdog every thread of both ports stays held until the clients let go (120 s here):
            # these calls then end DEADLINE_EXCEEDED. With it, the stuck calls are cancelled and these are served.
            answer = gardeners_pb2_grpc.GardenersServiceStub(channel).CheckGarden(_check_garden_request(),
                                                                                  timeout=WAIT)
            assert [v.card_id for v in answer.verdicts] == ["A3"]
            assert _health_check(channel) == SERVING
            assert _health_check(probe) == SERVING
            for future in main_calls + probe_calls:
                with pytest.raises(grpc.RpcError) as err:
                    future.result(timeout=WAIT)
                assert err.value.code() == grpc.StatusCode.CANCELLED
            # (the health port logs only these cancels; the main port every call)
            wait_until(lambda: len(_access_lines(caplog, CHECK_GARDEN)) == 6
                       and len(_access_lines(caplog, HEALTH_CHECK)) == 6, timeout=WAIT)
    finally:
        stuck.release()
    main_lines = _access_lines(caplog, CHECK_GARDEN)
    cancelled = [line for line in main_lines if line["code"] == "CANCELLED"]
    assert len(cancelled) == 5 and [line["code"] for line in main_lines].count("OK") == 1
    for line in cancelled:
        assert line["error"] == "no request message within 0.5 s; cancelled by the server"
        assert line["peer"]  # read before the cancel (it is empty after it)
    probe_lines = [line for line in _access_lines(caplog, HEALTH_CHECK) if line["code"] == "CANCELLED"]
    assert len(probe_lines) == 5
    assert {line["error"] for line in probe_lines} == {
        "no request message within 0.5 s (health port); cancelled by the server"}
    calls = srv.runtime.metrics.calls
    assert calls.labels(CHECK_GARDEN, "CANCELLED")._value.get() == 5
    assert calls.labels(CHECK_GARDEN, "OK")._value.get() == 1
    assert calls.labels(HEALTH_CHECK, "CANCELLED")._value.get() == 5
    assert srv.runtime.pools["light"].in_use == 0


def test_health_watch_streams_outlive_the_receive_timeout_and_stuck_ones_end(start_server, caplog):
    """A Watch whose request came streams for as long as its client wants (on both ports); one whose request never
    comes is cancelled like a unary call (the main port served Watch through grpc's own unary read)."""
    srv, channel, probe = _small_server(start_server)
    stuck = Stuck()
    try:
        with caplog.at_level(logging.INFO, logger="gardens.server.access"):
            watches = [health_pb2_grpc.HealthStub(ch).Watch(health_pb2.HealthCheckRequest(), timeout=120)
                       for ch in (channel, probe)]
            assert [next(w).status for w in watches] == [SERVING, SERVING]
            # (a deadline far past the timeout, so that without the watchdog this fails, DEADLINE_EXCEEDED, not hangs)
            stuck_watches = [ch.stream_stream(HEALTH_WATCH)(stuck.requests(), timeout=WAIT) for ch in (channel, probe)]
            for call in stuck_watches:
                with pytest.raises(grpc.RpcError) as err:
                    next(call)
                assert err.value.code() == grpc.StatusCode.CANCELLED
            # the stuck ones were cancelled after the receive timeout: the open streams are older, and still stream
            srv.runtime.health.set("", NOT_SERVING)
            assert [next(w).status for w in watches] == [NOT_SERVING, NOT_SERVING]
            for w in watches:
                w.cancel()
            wait_until(lambda: len(_access_lines(caplog, HEALTH_WATCH)) == 2, timeout=WAIT)
    finally:
        stuck.release()
    lines = _access_lines(caplog, HEALTH_WATCH)
    assert sorted(line["error"] for line in lines) == [
        "no request message within 0.5 s (health port); cancelled by the server",
        "no request message within 0.5 s; cancelled by the server"]
    assert {line["code"] for line in lines} == {"CANCELLED"}


def test_a_call_whose_message_comes_is_never_cancelled():
    """The watchdog's own contract: it cancels a watched call only if `finish` has not come first."""
    watchdog = Watchdog()
    try:
        done, late = (types.SimpleNamespace(cancelled=0, peer=lambda: "ipv4:x") for _ in range(2))
        for context in (done, late):
            context.cancel = (lambda c: lambda: setattr(c, "cancelled", c.cancelled + 1))(context)
        on_time = watchdog.watch(done, 0.05)
        stuck = watchdog.watch(late, 0.05)
        assert on_time.finish(watchdog) is False
        wait_until(lambda: late.cancelled == 1)
        assert stuck.finish(watchdog) is True and stuck.peer == "ipv4:x"
        wait_until(lambda: watchdog.pending == 0)  # the finished watch leaves the heap at its deadline
        assert (done.cancelled, late.cancelled, watchdog.cancelled) == (0, 1, 1)
    finally:
        watchdog.close()
    closed = watchdog.watch(done, 0.0)  # after close: nothing is watched any more
    assert closed.finish(watchdog) is False and watchdog.pending == 0


def test_the_receive_timeout_setting():
    assert ServerConfig().receive_timeout_s == 5.0
    parser = config_mod.argparse.ArgumentParser()
    config_mod.add_arguments(parser)
    assert config_mod.from_args(parser.parse_args([]), env={"GARDENS_RECEIVE_TIMEOUT_S": "2.5"}).receive_timeout_s == 2.5
    assert config_mod.from_args(parser.parse_args(["--receive-timeout-s", "1"]),
                                env={"GARDENS_RECEIVE_TIMEOUT_S": "2.5"}).receive_timeout_s == 1.0
    for bad in (0.0, -1.0, math.nan, math.inf, 2e6):
        with pytest.raises(ValueError, match="receive_timeout_s must be a finite number > 0"):
            ServerConfig(receive_timeout_s=bad).validate()
    with pytest.raises(ValueError, match="^--receive-timeout-s: receive_timeout_s"):
        config_mod.from_args(parser.parse_args(["--receive-timeout-s", "0"]), env={})


def test_the_health_port_cancels_stuck_calls_within_a_probes_second_at_the_default_timeout(start_server):
    """At the main port's default 5 s, 2 stuck calls failed every probe of the health port for 5 s (a Kubernetes
    probe waits 1 s by default), and a client reopening them kept it frozen (the QA walkthrough of 7 Dec): the
    health port's own receive timeout is at most 1 s (app.HEALTH_RECEIVE_TIMEOUT_S)."""
    from server import app
    srv = start_server(workers=1, health_port=0)
    assert srv.runtime.config.receive_timeout_s == 5.0
    probe = grpc.insecure_channel(f"localhost:{srv.runtime.health_port}")
    srv.channels.append(probe)
    stuck = Stuck()
    try:
        calls = stuck.unary(probe, HEALTH_CHECK, app.HEALTH_PORT_THREADS + 1)
        wait_until(lambda: stuck.started == app.HEALTH_PORT_THREADS + 1)
        # a probe with a 4 s deadline: served once the stuck calls are cancelled after 1 s (at 5 s it failed)
        assert health_pb2_grpc.HealthStub(probe).Check(health_pb2.HealthCheckRequest(), timeout=4).status == SERVING
        for future in calls:
            with pytest.raises(grpc.RpcError) as err:
                future.result(timeout=WAIT)
            assert err.value.code() == grpc.StatusCode.CANCELLED
    finally:
        stuck.release()
