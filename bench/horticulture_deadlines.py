"""Benchmark: Horticulture calls on short wall-clock budgets (wall time of the call against its budget).

For SolveBestPlan (`api.best_plan`), SolveOptimal (`api.solve_optimal`) and Hint with `future` (`api.hint`) on
seeded 32-card decks (the decks, plans and gnomes of bench/horticulture_optimal.py), each budget: the call's wall
time, how far past the budget it ended, and its answer (status, score, bound; a hint's best option). In process, as
a gRPC call runs it: by default with a SolveControl whose `ends_at` is the budget from now (the server's control for
a client deadline, less its margin), `--request` puts `time_limit_s` in the request instead (no `ends_at`).
`-v` prints the optimiser's step log, each line with the milliseconds since the call began.
"""
from __future__ import annotations

import argparse
import logging
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from solver.core.solve import SolveControl  # noqa: E402
from solver.games.horticulture import api  # noqa: E402

from bench.horticulture_optimal import instance  # noqa: E402

CALLS = ("best_plan", "solve_optimal", "hint")


class _Since(logging.Formatter):
    """Log lines stamped with the milliseconds since the call began (`start` set before each call)."""

    start = 0.0

    def format(self, record: logging.LogRecord) -> str:
        return f"    {1000 * (record.created - self.start):7.0f} ms  {record.getMessage()}"


def request(call: str, seed: int, cards: int) -> dict:
    cat, days, gnome, plan = instance(seed, cards)
    nursery = [c for spec in days for c in spec.options]
    doc = {"side": "A", "path": {"start": 3, "moves": "DDDDDDD"}}
    if call == "best_plan":
        return dict(doc, nursery=nursery)
    doc.update(gnome=list(gnome), plan={"border": plan.border, "path": plan.path, "companions": list(plan.companions)})
    if call == "solve_optimal":
        return dict(doc, nursery=nursery)
    return dict(doc, days=[], today=nursery[:2], future=nursery[2:])


def answer(call: str, out: dict) -> str:
    if call != "hint":
        return f"{out['status']} {out['score']}/{out['bound']}"
    return "; ".join(f"card {o['card']} {o['status']} {o.get('final_score')}/{o['bound']}" for o in out["options"])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--calls", default=",".join(CALLS), help="comma-separated among " + ", ".join(CALLS))
    ap.add_argument("--budgets", default="0.2,0.3,0.5,1,2", help="seconds, comma-separated")
    ap.add_argument("--seeds", default="0,1,2", help="comma-separated deck seeds")
    ap.add_argument("--cards", type=int, default=32)
    ap.add_argument("--request", action="store_true",
                    help="the budget as the request's time_limit_s (no SolveControl, no ends_at)")
    ap.add_argument("--deterministic", action="store_true",
                    help="the budgets as deterministic limits (units; the wall column stays seconds)")
    ap.add_argument("-v", "--verbose", action="store_true", help="the optimiser's step log under each call")
    args = ap.parse_args(argv)
    formatter = _Since()
    if args.verbose:
        handler = logging.StreamHandler(sys.stdout)
        handler.setFormatter(formatter)
        logger = logging.getLogger("solver.games.horticulture")
        logger.addHandler(handler)
        logger.setLevel(logging.DEBUG)
    calls = args.calls.split(",")
    budgets = [float(b) for b in args.budgets.split(",")]
    seeds = [int(s) for s in args.seeds.split(",")]
    mode = "deterministic" if args.deterministic else \
        "time_limit_s in the request" if args.request else "control ends_at"
    print(f"Horticulture calls on short budgets: {args.cards} cards, seeds {seeds}, {mode}, one worker; "
          f"load average at start {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    summary = []
    for call in calls:
        fn = getattr(api, call)
        for budget in budgets:
            walls = []
            for seed in seeds:
                req = request(call, seed, args.cards)
                formatter.start = time.time()
                t0 = time.perf_counter()
                if args.deterministic:
                    out = fn(req, control=SolveControl(time_limit_s=600.0, deterministic_limit=budget))
                elif args.request:
                    out = fn(dict(req, time_limit_s=budget))
                else:
                    out = fn(req, control=SolveControl(time_limit_s=budget, ends_at=time.monotonic() + budget))
                wall = time.perf_counter() - t0
                walls.append(wall)
                print(f"  {call:13} budget {budget:4.2f} seed {seed:2}: wall {wall:5.2f} s "
                      f"(over {wall - budget:+.2f})  {answer(call, out)}", flush=True)
            summary.append((call, budget, walls))
    print(f"\n{'call':13} {'budget':>6} {'wall p50':>8} {'wall max':>8} {'over max':>8}")
    for call, budget, walls in summary:
        print(f"{call:13} {budget:6.2f} {statistics.median(walls):8.2f} {max(walls):8.2f} {max(walls) - budget:+8.2f}")
    print(f"load average at end {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
