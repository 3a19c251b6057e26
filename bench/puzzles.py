"""Benchmark: time to generate one daily puzzle per kind and difficulty (p50/p95), grade distribution, atlas throughput.

Usage: .venv/bin/python bench/puzzles.py [--days N] [--start YYYY-MM-DD] [--atlas-cards N] [--skip-atlas]
One process, one CP-SAT worker, deterministic limits (so the puzzles are the real ones; only the
wall times depend on the machine and its load). Prints markdown tables; asserts nothing.
Targets (issue 8): a Gardeners hard decree in p95 <= 10 s; atlas >= 50 triples/s per core.
"""
from __future__ import annotations

import argparse
import datetime as dt
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from generators import atlas, batch, daily  # noqa: E402
from generators.identity import PuzzleId  # noqa: E402


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--days", type=int, default=8)
    ap.add_argument("--start", default="2027-01-01")
    ap.add_argument("--atlas-cards", type=int, default=24, help="triples of the first N Standard cards")
    ap.add_argument("--skip-atlas", action="store_true")
    args = ap.parse_args()
    start = dt.date.fromisoformat(args.start)
    print(f"load average at start: {os.getloadavg()[0]:.1f} on {len(os.sched_getaffinity(0))} cores\n")

    times: dict[tuple[str, str], list[float]] = {}
    grades: dict[str, list[dict]] = {}
    for i in range(args.days):
        date = start + dt.timedelta(days=i)
        for kind in daily.KINDS.values():
            for difficulty in kind.difficulties:
                pid = PuzzleId(kind.game, kind.variant, difficulty, date)
                t = time.perf_counter()
                puzzle = daily.generate(pid)
                times.setdefault((f"{kind.game}/{kind.variant}", difficulty), []).append(time.perf_counter() - t)
                if "grade" in puzzle.public:
                    grades.setdefault(difficulty, []).append(puzzle.public["grade"])
                print(f"  {pid}  {times[(f'{kind.game}/{kind.variant}', difficulty)][-1]:.2f} s", file=sys.stderr)

    print(f"generation time per puzzle, {args.days} dates from {start} (seconds)\n")
    print("| puzzle | difficulty | n | p50 | p95 | max |")
    print("|---|---|---|---|---|---|")
    for (name, difficulty), xs in times.items():
        print(f"| {name} | {difficulty} | {len(xs)} | {statistics.median(xs):.2f} | {pct(xs, 0.95):.2f} | {max(xs):.2f} |")

    print(f"\nGardeners decree grades, {args.days} dates\n")
    print("| difficulty | cards | grade min | grade median | grade max | effort median (det. s) | forced cells (mean) |")
    print("|---|---|---|---|---|---|---|")
    for difficulty, gs in grades.items():
        scores = [g["score"] for g in gs]
        cards = sorted({g["cards"] for g in gs})
        print(f"| {difficulty} | {','.join(map(str, cards))} | {min(scores):.2f} | {statistics.median(scores):.2f} | "
              f"{max(scores):.2f} | {statistics.median(g['effort'] for g in gs):.4f} | "
              f"{statistics.mean(g['forced'] for g in gs):.1f} |")

    if not args.skip_atlas:
        ids = atlas.standard_ids()[:args.atlas_cards]
        with tempfile.TemporaryDirectory() as tmp:
            db = str(Path(tmp) / "atlas.sqlite")
            batch.build_atlas(db, sizes=(2,), ids=ids, stream=open(os.devnull, "w"))
            t = time.perf_counter()
            s = batch.build_atlas(db, sizes=(3,), ids=ids, stream=open(os.devnull, "w"))
            seconds = time.perf_counter() - t
        n = s.by_size.get(3, 0)
        print(f"\natlas: {n} triples of the first {len(ids)} Standard cards in {seconds:.1f} s on one core: "
              f"{n / seconds:.1f} triples/s per core")
    return 0


if __name__ == "__main__":
    sys.exit(main())
