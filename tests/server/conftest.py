"""Fixtures: a real server on port 0 with a real channel, stopped after each test."""
from __future__ import annotations

import os
import subprocess
import sys
import time
import types
from dataclasses import dataclass, field
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from server.app import create_server
from server.config import ServerConfig
from server.runtime import Runtime
import server_probe as probe

REPO = Path(__file__).resolve().parents[2]


@dataclass
class Running:
    server: grpc.Server
    port: int
    runtime: Runtime
    channels: list = field(default_factory=list)

    @property
    def target(self) -> str:
        return f"localhost:{self.port}"

    def channel(self, credentials=None) -> grpc.Channel:
        ch = (grpc.secure_channel(self.target, credentials) if credentials
              else grpc.insecure_channel(self.target))
        self.channels.append(ch)
        return ch

    def probe(self, method: str, channel=None):
        return (channel or self.channel()).unary_unary(f"/{probe.SERVICE}/{method}")

    def health(self, service: str = "", channel=None, timeout: float = 5):
        stub = health_pb2_grpc.HealthStub(channel or self.channel())
        return stub.Check(health_pb2.HealthCheckRequest(service=service), timeout=timeout).status

    def stop(self, grace=0):
        for ch in self.channels:
            ch.close()
        self.server.stop(grace).wait()
        self.runtime.metrics.close()


def assert_refused_at_start_up(cases, timeout: float) -> None:
    """Starts `python -m server` once per case (extra flags, extra environment, the store, the message) all at
    once: each must exit 2 before listening, naming `puzzles_db <store>` and the message, with no traceback."""
    procs = [subprocess.Popen([sys.executable, "-m", "server", "--address", "localhost:0", *flags], cwd=REPO,
                              env={**os.environ, **env}, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for flags, env, _, _ in cases]
    try:
        for proc, (_, _, db, message) in zip(procs, cases):
            try:
                out, err = proc.communicate(timeout=timeout)
            except subprocess.TimeoutExpired:
                raise AssertionError(f"the server started on the unusable store {db}") from None
            assert proc.returncode == 2 and f"puzzles_db {db}" in err and message in err, err
            assert "Traceback" not in err and "LISTENING" not in out
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.communicate(timeout=30)


@pytest.fixture
def start_server():
    running: list[Running] = []

    def start(domains=None, with_probe=True, **overrides) -> Running:
        config = ServerConfig(address="localhost:0", **overrides)
        runtime = Runtime(config, domains=dict(domains or {}))
        server, port = create_server(config, runtime=runtime,
                                     extra_services=[probe.register] if with_probe else [])
        server.start()
        r = Running(server, port, runtime)
        running.append(r)
        return r

    yield start
    for r in running:
        r.stop()


def as_doc(garden) -> dict:
    """A gardens.v1.Garden message as the domain's garden dict."""
    return {"size": garden.size, "placements": [
        {"tile": p.tile, "row": p.row, "col": p.col, "rotation": p.rotation} for p in garden.placements]}


def wait_until(predicate, timeout: float = 10.0, step: float = 0.002) -> float:
    """Polls `predicate` until true; returns the seconds it took (fails the test on timeout)."""
    start = time.perf_counter()
    while not predicate():
        if time.perf_counter() - start > timeout:
            raise AssertionError(f"condition not met within {timeout}s")
        time.sleep(step)
    return time.perf_counter() - start


def cancel_a_search(start_server, game: str, service: str, engine_solve, stub_class, request):
    """Serves `game` with its real `solve_optimal` behind a recorder (one solve slot, caps far above
    the test's waits), cancels a SolveOptimal call once the engine has its control, and checks that
    the cancel reached the engine and freed the slot. Returns a stub on the still-running server."""
    controls = []

    def solve_optimal(*args, control=None, **kwargs):
        controls.append(control)
        return engine_solve(*args, control=control, **kwargs)

    srv = start_server(with_probe=False, workers=1, time_cap_s=120, call_time_cap_s=300,
                       domains={game: types.SimpleNamespace(solve_optimal=solve_optimal)})
    stub = stub_class(srv.channel())
    future = stub.SolveOptimal.future(request, timeout=300)
    wait_until(lambda: controls)
    future.cancel()
    wait_until(lambda: controls[0].cancelled)
    # Model building does not watch the control, the search does: the slot is back long before the cap.
    wait_until(lambda: srv.runtime.pools["solve"].in_use == 0, timeout=60)
    # the interceptor records the call after the handler has given its slot back: wait for it too
    cancelled = srv.runtime.metrics.calls.labels(f"/gardens.v1.{service}/SolveOptimal", "CANCELLED")
    wait_until(lambda: cancelled._value.get() >= 1)
    assert cancelled._value.get() == 1
    return stub
