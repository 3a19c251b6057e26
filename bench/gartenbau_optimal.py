"""Benchmark: time to a proven optimal Gartenbau garden for seeded random holdings (one CP-SAT worker)."""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from solver.core.solve import SolveControl  # noqa: E402
from solver.games.gartenbau.data import load_catalog  # noqa: E402
from solver.games.gartenbau.optimiser import Holding, solve_optimal  # noqa: E402


def holding(rng: random.Random, catalog, tiles: int) -> Holding:
    """A random holding: starter side, `tiles` seedling tiles, 6 plants and one Beginner hand of 5 flowers."""
    starter = rng.choice(sorted(catalog.starter_tiles))
    return Holding(starter, rng.choice(sorted(catalog.starter_tiles[starter].sides)),
                   rng.sample(sorted(catalog.seedling_tiles), tiles), rng.sample(sorted(catalog.plants), 6),
                   [f.id for f in catalog.hand(rng.choice(catalog.beginner_hands))])


class Metered(SolveControl):
    """Adds up CP-SAT's deterministic time over every search of one solve (load-independent effort)."""
    effort: float = 0.0

    def solve(self, model, solver=None, callback=None):
        status, solver = super().solve(model, solver, callback)
        self.effort += solver.deterministic_time
        return status, solver


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="10,14,18", help="seedling tiles per holding")
    parser.add_argument("--count", type=int, default=6, help="holdings per size")
    parser.add_argument("--time-limit", type=float, default=20.0, help="seconds per solve")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--deterministic", type=float, default=None,
                        help="CP-SAT deterministic limit per search instead of the wall limit (load-independent)")
    parser.add_argument("--detail", action="store_true", help="one line per holding")
    args = parser.parse_args()
    catalog = load_catalog()
    print(f"Gartenbau optimal garden: {args.count} seeded holdings per size, 6 plants, a Beginner hand; "
          f"1 worker, limit {args.time_limit:g} s"
          + (f", deterministic limit {args.deterministic:g} per search" if args.deterministic else "")
          + f" (times of unproven solves count as the limit); load average {os.getloadavg()[0]:.1f} on "
          f"{os.cpu_count()} cores")
    print(f"{'tiles':>5} {'board':>5} {'optimal':>7} {'feasible':>8} {'none':>4} {'p50 s':>7} {'p95 s':>7} "
          f"{'max s':>7} {'mean gap':>8} {'p50 dtime':>9} {'p95 dtime':>9}")
    for tiles in (int(s) for s in args.sizes.split(",")):
        rng = random.Random(args.seed + tiles)
        times, efforts, gaps, counts, board = [], [], [], {"optimal": 0, "feasible": 0, "none": 0}, 0
        for index in range(args.count):
            h = holding(rng, catalog, tiles)
            start = time.perf_counter()
            control = Metered(time_limit_s=args.time_limit, random_seed=0, deterministic_limit=args.deterministic)
            sol = solve_optimal(h, catalog, control)
            times.append(time.perf_counter() - start)
            efforts.append(control.effort)
            if args.detail:
                print(f"      {tiles}-{index}: {sol.status} {sol.prestige}/{sol.bound} {times[-1]:.2f} s "
                      f"dtime {control.effort:.2f}", flush=True)
            board = sol.board
            key = sol.status if sol.status in counts else "none"
            counts[key] += 1
            if sol.prestige is not None and sol.bound is not None:
                gaps.append((sol.bound - sol.prestige) / max(1, sol.bound))
        print(f"{tiles:>5} {board:>5} {counts['optimal']:>7} {counts['feasible']:>8} {counts['none']:>4} "
              f"{statistics.median(times):>7.2f} {percentile(times, 0.95):>7.2f} {max(times):>7.2f} "
              f"{(statistics.mean(gaps) if gaps else 0):>8.1%} {statistics.median(efforts):>9.2f} "
              f"{percentile(efforts, 0.95):>9.2f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
