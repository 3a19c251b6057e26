"""The second audit's findings (docs/service.md, "Second audit, 1 Dec 02:00-03:55 UTC"): each test
fails without its fix. Real servers: `python -m server` subprocesses where signals or start-up
are involved, in-process servers on port 0 over real channels, real SQLite files."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import grpc
import pytest

REPO = Path(__file__).resolve().parents[2]


def _start(*flags: str, env: dict | None = None, stderr_path: Path | None = None) -> tuple[subprocess.Popen, int]:
    """`python -m server` on a free port; its stderr goes to a file (a pipe nobody reads fills up
    under a burst of logged calls and blocks the server)."""
    err = open(stderr_path, "w") if stderr_path else subprocess.DEVNULL
    proc = subprocess.Popen([sys.executable, "-m", "server", "--address", "localhost:0", *flags], cwd=REPO,
                            env={**os.environ, **(env or {})}, stdout=subprocess.PIPE, stderr=err, text=True)
    for line in proc.stdout:
        if line.startswith("LISTENING "):
            return proc, int(line.split()[1])
    raise AssertionError(f"server exited early: {proc.wait()}")


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.kill()
        proc.wait()


# ---- signals ---------------------------------------------------------------------------------

def test_sigint_after_and_during_solves_drains_and_exits_zero(tmp_path):
    """CP-SAT installs a C SIGINT handler during a search and puts SIG_DFL back after it: a Ctrl-C
    after any solve killed the server at once (exit -2, no drain), one during concurrent solves
    aborted it (std::bad_function_call, exit -6). The stop signals are now blocked in every thread
    and taken by the main thread (server/signals.py, block=True)."""
    from server import remote

    log = tmp_path / "server.err"
    proc, port = _start("--workers", "2", "--grace-s", "5", stderr_path=log)
    address = f"localhost:{port}"
    try:
        # one solve done: CP-SAT has installed and removed its SIGINT handler
        assert remote.call(address, "CheckSolvable", {"card_ids": ["S09", "S01"]})["verdict"] == \
            "SOLVABILITY_UNSOLVABLE"
        outcomes, stop = [], threading.Event()

        def solve_in_a_loop():
            with grpc.insecure_channel(address) as ch:
                from gardens.v1 import gardeners_pb2 as gp, gardeners_pb2_grpc as gg
                stub = gg.GardenersServiceStub(ch)
                while not stop.is_set():
                    try:
                        stub.CheckSolvable(gp.CheckSolvableRequest(card_ids=["S09", "S01", "S44", "S02"]), timeout=20)
                        outcomes.append("OK")
                    except grpc.RpcError as err:
                        outcomes.append(err.code().name)
                        if err.code() == grpc.StatusCode.UNAVAILABLE:
                            return

        threads = [threading.Thread(target=solve_in_a_loop) for _ in range(2)]
        for t in threads:
            t.start()
        deadline = time.monotonic() + 30
        while outcomes.count("OK") < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
        proc.send_signal(signal.SIGINT)  # searches are running
        code = proc.wait(timeout=20)
        stop.set()
        for t in threads:
            t.join(timeout=30)
        text = log.read_text()
        assert code == 0, (code, text[-2000:])
        assert "signal SIGINT: draining" in text and "stopped" in text
        # every call the server took finished: only OK (or refusals) in its log
        assert '"code":"INTERNAL"' not in text and '"code":"CANCELLED"' not in text
        assert set(outcomes) <= {"OK", "RESOURCE_EXHAUSTED", "UNAVAILABLE", "CANCELLED"}, outcomes
    finally:
        _stop(proc)
