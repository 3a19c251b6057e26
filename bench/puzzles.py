"""Benchmark: time to generate one daily puzzle per kind and difficulty (p50/p95), grade distribution, atlas throughput.

Usage: .venv/bin/python bench/puzzles.py [--days N] [--start YYYY-MM-DD] [--games G ...] [--atlas-cards N] [--skip-atlas]
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
from generators.store import Store  # noqa: E402
from generators.identity import PuzzleId  # noqa: E402


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--days", type=int, default=8)
    ap.add_argument("--start", default="2027-01-01")
    ap.add_argument("--atlas-cards", type=int, default=59, help="pairs and triples of the first N Standard cards "
                    "(59 = the whole deck, ~2 min of CPU)")
    ap.add_argument("--skip-atlas", action="store_true")
    ap.add_argument("--games", nargs="*", help="only these games' puzzles (default: all)")
    args = ap.parse_args()
    start = dt.date.fromisoformat(args.start)
    print(f"load average at start: {os.getloadavg()[0]:.1f} on {len(os.sched_getaffinity(0))} cores\n")

    times: dict[tuple[str, str], list[float]] = {}
    failed: dict[tuple[str, str], int] = {}
    grades: dict[str, list[dict]] = {}
    for i in range(args.days):
        date = start + dt.timedelta(days=i)
        for kind in daily.KINDS.values():
            if args.games and kind.game not in args.games:
                continue
            for difficulty in kind.difficulties:
                pid = PuzzleId(kind.game, kind.variant, difficulty, date)
                key = (f"{kind.game}/{kind.variant}", difficulty)
                t = time.perf_counter()
                try:
                    puzzle = daily.generate(pid)
                except RuntimeError as exc:  # a generator's GenerationError: no provable draw within its attempts
                    failed[key] = failed.get(key, 0) + 1
                    print(f"  {pid}  failed: {exc}", file=sys.stderr)
                    continue
                times.setdefault(key, []).append(time.perf_counter() - t)
                if "grade" in puzzle.public:
                    grades.setdefault(difficulty, []).append(puzzle.public["grade"])
                print(f"  {pid}  {times[key][-1]:.2f} s", file=sys.stderr)

    print(f"generation time per puzzle, {args.days} dates from {start} (seconds)\n")
    print("| puzzle | difficulty | n | failed | p50 | p95 | max |")
    print("|---|---|---|---|---|---|---|")
    for (name, difficulty), xs in times.items():
        print(f"| {name} | {difficulty} | {len(xs)} | {failed.get((name, difficulty), 0)} | {statistics.median(xs):.2f} | "
              f"{pct(xs, 0.95):.2f} | {max(xs):.2f} |")
    for (name, difficulty), n in failed.items():
        if (name, difficulty) not in times:
            print(f"| {name} | {difficulty} | 0 | {n} | - | - | - |")

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
            t, cpu = time.perf_counter(), time.process_time()
            pairs = batch.build_atlas(db, sizes=(2,), ids=ids, stream=open(os.devnull, "w"))
            pair_wall, pair_cpu = time.perf_counter() - t, time.process_time() - cpu
            t, cpu = time.perf_counter(), time.process_time()
            s = batch.build_atlas(db, sizes=(3,), ids=ids, stream=open(os.devnull, "w"))
            seconds, cpu = time.perf_counter() - t, time.process_time() - cpu
            counts = Store(db).atlas_counts()
        n = s.by_size.get(3, 0)
        # One process, one CP-SAT worker: its CPU time is the work of one core; wall time also
        # counts the time other processes held the core (it equals CPU time on a quiet machine).
        print(f"\natlas of the first {len(ids)} Standard cards, one process, one CP-SAT worker "
              f"(load {os.getloadavg()[0]:.1f} at the end)\n")
        print("| size | combinations | unsolvable | unknown | witness gardens | wall s | CPU s | per CPU-second |")
        print("|---|---|---|---|---|---|---|---|")
        for size, summary, wall, used in ((2, pairs, pair_wall, pair_cpu), (3, s, seconds, cpu)):
            total = summary.by_size.get(size, 0)
            print(f"| {size} | {total} | {counts.get((size, 'unsolvable'), 0)} | {counts.get((size, 'unknown'), 0)} | "
                  f"{summary.witnesses} | {wall:.1f} | {used:.1f} | {total / used:.0f} |")
        print(f"\natlas: {n / cpu:.0f} triples per CPU-second (target >= 50 per core); {n / seconds:.0f} per wall second")
    return 0


if __name__ == "__main__":
    sys.exit(main())
