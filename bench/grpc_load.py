"""Loopback load on gardens.v1: throughput and latency percentiles, and the gRPC overhead over in-process calls.

Starts `python -m server` on a free port (a separate process, so the load generator does not share its
GIL), then for CheckGarden and CheckSolvable: (1) the in-process domain call, (2) one gRPC client in
sequence, (3) N concurrent clients (grpc.aio) for a bounded time. Prints a table; asserts nothing. With
`--rounds R` the load is repeated R times and the started server's resident memory (VmRSS, Linux) is
printed after each method's load: a soak that shows whether memory grows under a sustained burst.

    .venv/bin/python bench/grpc_load.py [--seconds 20] [--clients 8] [--rounds 1] [--address HOST:PORT]
"""
from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import grpc

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from gardens.v1 import common_pb2, gardeners_pb2, gardeners_pb2_grpc  # noqa: E402
from server import convert  # noqa: E402
from server.config import ServerConfig  # noqa: E402

# A complete 6x6 Normal-mode garden and three Standard cards: a realistic CheckGarden.
CARDS = ["S01", "S09", "S44"]
SOLVABLE_CARDS = ["S01", "S44"]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def start_server(workers: int, processes: int) -> tuple[subprocess.Popen, str]:
    # The production setting: one access-log line per call (written to a discarded stderr).
    env = {**os.environ, "GARDENS_LOG_LEVEL": "INFO"}
    proc = subprocess.Popen([sys.executable, "-m", "server", "--address", "localhost:0", "--workers", str(workers),
                             "--processes", str(processes)],
                            cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    for line in proc.stdout:
        if line.startswith("LISTENING "):
            return proc, f"localhost:{line.split()[1]}"
    raise SystemExit(f"server did not start (exit {proc.wait()})")


def requests(stub) -> dict[str, tuple]:
    """(request, in-process callable) per method; the witness of a solve is the garden to check."""
    solvable = gardeners_pb2.CheckSolvableRequest(card_ids=SOLVABLE_CARDS, mode=gardeners_pb2.GAME_MODE_NORMAL)
    witness = stub.CheckSolvable(solvable, timeout=60).witness
    check = gardeners_pb2.CheckGardenRequest(garden=witness, card_ids=CARDS, mode=gardeners_pb2.GAME_MODE_NORMAL)

    from solver.core.solve import SolveControl
    from solver.games.gardeners import api

    garden_doc = convert.garden(witness, ServerConfig())
    return {
        "CheckGarden": (check, lambda: api.check_garden(garden_doc, CARDS, "normal")),
        "CheckSolvable": (solvable, lambda: api.check_solvable(SOLVABLE_CARDS, "normal", control=SolveControl())),
    }


def interleaved(a, b, seconds: float, at_least: int = 20) -> tuple[list[float], list[float]]:
    """Alternates calls of `a` and `b` so both see the same machine load (it is shared and noisy)."""
    out_a, out_b = [], []
    end = time.perf_counter() + seconds
    while time.perf_counter() < end or len(out_a) < at_least:
        for fn, out in ((a, out_a), (b, out_b)):
            t = time.perf_counter()
            fn()
            out.append(time.perf_counter() - t)
    return out_a, out_b


async def load(address: str, method: str, request, clients: int, seconds: float) -> tuple[list[float], int]:
    latencies: list[float] = []
    errors = 0
    end = time.perf_counter() + seconds

    async def client():
        nonlocal errors
        # One connection per client (a local subchannel pool), so SO_REUSEPORT can spread clients
        # over server processes; a shared connection would pin them all to one process.
        options = [("grpc.use_local_subchannel_pool", 1)]
        async with grpc.aio.insecure_channel(address, options=options) as channel:
            rpc = getattr(gardeners_pb2_grpc.GardenersServiceStub(channel), method)
            while time.perf_counter() < end:
                t = time.perf_counter()
                try:
                    await rpc(request, timeout=30)
                    latencies.append(time.perf_counter() - t)
                except grpc.aio.AioRpcError:
                    errors += 1  # RESOURCE_EXHAUSTED when the clients outnumber the slots

    await asyncio.gather(*(client() for _ in range(clients)))
    return latencies, errors


def rss_mb(pid: int | None) -> str:
    """The resident memory of process `pid` in MB ("-" when unknown: another server, not Linux)."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return f"{int(line.split()[1]) / 1024:.1f}"
    except (OSError, TypeError, ValueError):
        pass
    return "-"


def ms(x: float) -> str:
    return f"{x * 1000:8.3f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="total load time, split across methods")
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--address", default=None, help="use a running server instead of starting one")
    parser.add_argument("--workers", type=int, default=2, help="solver slots per process of the started server")
    parser.add_argument("--processes", type=int, default=1, help="server processes (SO_REUSEPORT)")
    parser.add_argument("--rounds", type=int, default=1, help="repeat the load; the server's RSS after each")
    args = parser.parse_args()

    proc = None
    address = args.address
    if address is None:
        proc, address = start_server(args.workers, args.processes)
    try:
        with grpc.insecure_channel(address) as channel:
            stub = gardeners_pb2_grpc.GardenersServiceStub(channel)
            cases = requests(stub)
            per = args.seconds / len(cases)
            print(f"gardens.v1 loopback load: {per:.0f} s per method, {os.cpu_count()} cores, "
                  f"load average {os.getloadavg()[0]:.1f} before the run, server {address} "
                  f"({args.processes} process(es) x {args.workers} solver slots)")
            pid = proc.pid if proc is not None and args.processes == 1 else None
            print(f"server RSS after start-up and one solve: {rss_mb(pid)} MB")
            print(f"{'method':14} {'in-proc p50':>12} {'grpc p50':>9} {'overhead':>9} {'ratio':>6} | "
                  f"{'clients':>7} {'calls/s':>8} {'p50':>8} {'p95':>8} {'p99':>8} {'refused':>7} {'RSS MB':>7}"
                  "   (times in ms)")
            for method, (request, local) in [item for _ in range(args.rounds) for item in cases.items()]:
                rpc = getattr(stub, method)
                for _ in range(5):  # warm caches on both sides before timing
                    local()
                    rpc(request, timeout=30)
                inproc, single = interleaved(local, lambda: rpc(request, timeout=30), min(4.0, per / 2))
                p50_local, p50_single = statistics.median(inproc), statistics.median(single)
                # Solver calls beyond the slots are refused by design; load them with one client per slot.
                clients = args.clients if method == "CheckGarden" else args.workers * args.processes
                latencies, errors = asyncio.run(load(address, method, request, clients, per))
                rate = len(latencies) / per
                print(f"{method:14} {ms(p50_local):>12} {ms(p50_single):>9} {ms(p50_single - p50_local):>9} "
                      f"{p50_single / p50_local:6.1f} | {clients:7d} {rate:8.0f} {ms(percentile(latencies, .5))} "
                      f"{ms(percentile(latencies, .95))} {ms(percentile(latencies, .99))} {errors:7d} {rss_mb(pid):>7}")
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(timeout=30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
