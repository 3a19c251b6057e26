"""Benchmark: Gardeners solvability verdicts and conflict explanations on a fixed set, against the naive baseline.

Usage: .venv/bin/python bench/gardeners_solvability.py [--naive-sample N] [--limit S] [--skip-naive]
The set (bench/gardeners_set.json) holds the 17 training cards in their modes, every Standard card
alone, and 300 seeded random 2- and 3-card Standard combinations in Normal mode. One solver worker,
fixed seed. Prints a table; asserts nothing.
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.naive_gardeners import naive_solve  # noqa: E402
from solver.core.solve import SolveControl  # noqa: E402
from solver.games.gardeners import engine  # noqa: E402
from solver.games.gardeners.cards import load_cards  # noqa: E402
from solver.games.gardeners.modes import MODES  # noqa: E402
from solver.games.gardeners.tiles import load_catalog  # noqa: E402

SET_FILE = Path(__file__).with_name("gardeners_set.json")


def build_set() -> list[dict]:
    deck = load_cards()
    items = [{"group": "training", "mode": "training-" + c.deck[-1], "cards": [c.id]}
             for c in deck.cards if c.deck.startswith("training")]
    items += [{"group": "standard-1", "mode": "normal", "cards": [c.id]} for c in deck.of("standard")]
    rng = random.Random(20261129)
    ids = [c.id for c in deck.of("standard")]
    for _ in range(300):
        k = rng.choice([2, 3])
        items.append({"group": f"standard-{k}", "mode": "normal", "cards": sorted(rng.sample(ids, k))})
    return items


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


def row(name, xs):
    if not xs:
        return f"{name:28s} {'-':>6s}"
    return (f"{name:28s} {len(xs):6d} {1000 * statistics.median(xs):9.1f} {1000 * pct(xs, 0.95):9.1f} "
            f"{1000 * max(xs):9.1f}")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--limit", type=float, default=10.0)
    ap.add_argument("--naive-sample", type=int, default=40, help="instances (seeded sample) run with the baseline")
    ap.add_argument("--naive-limit", type=float, default=10.0)
    ap.add_argument("--skip-naive", action="store_true")
    args = ap.parse_args()
    if not SET_FILE.exists():
        SET_FILE.write_text(json.dumps(build_set(), indent=0) + "\n")
    items = json.loads(SET_FILE.read_text())
    catalog, deck = load_catalog(), load_cards()

    # machine noise: the same instance 15 times
    probe = [deck.get(i) for i in ("S16", "S33")]
    noise = []
    for _ in range(15):
        t = time.perf_counter()
        engine.solve(probe, MODES["normal"], catalog, SolveControl(time_limit_s=args.limit))
        noise.append(time.perf_counter() - t)
    print(f"machine noise: S16+S33 x15  median {1000 * statistics.median(noise):.1f} ms, "
          f"stdev {1000 * statistics.stdev(noise):.1f} ms ({100 * statistics.stdev(noise) / statistics.mean(noise):.0f}%)")

    results = []
    for it in items:
        cards = [deck.get(i) for i in it["cards"]]
        t = time.perf_counter()
        r = engine.solve(cards, MODES[it["mode"]], catalog, SolveControl(time_limit_s=args.limit))
        results.append((it, r.verdict, time.perf_counter() - t))
    verdicts = {v: sum(1 for _, x, _ in results if x == v) for v in ("solvable", "unsolvable", "unknown")}
    print(f"\nverdicts at a {args.limit:.0f} s limit: {verdicts}")
    print(f"\n{'group':28s} {'n':>6s} {'p50 ms':>9s} {'p95 ms':>9s} {'max ms':>9s}")
    print(row("all", [t for _, _, t in results]))
    for g in ("training", "standard-1", "standard-2", "standard-3"):
        print(row(g, [t for it, _, t in results if it["group"] == g]))
    for v in ("solvable", "unsolvable"):
        print(row(f"  verdict {v}", [t for _, x, t in results if x == v]))

    unsat3 = [it for it, v, _ in results if v == "unsolvable" and it["group"] == "standard-3"]
    triples = json.loads(SET_FILE.with_name("gardeners_unsolvable_triples.json").read_text())["sets"]
    extra = [{"group": "pair+1", "mode": "normal", "cards": t} for t in triples]
    unsat = [it for it, v, _ in results if v == "unsolvable"] + extra
    times = []
    for it in unsat:
        cards = [deck.get(i) for i in it["cards"]]
        t = time.perf_counter()
        ex = engine.explain(cards, MODES[it["mode"]], catalog, SolveControl(time_limit_s=args.limit))
        times.append((it, time.perf_counter() - t, ex))
    print(f"\nconflict explanation (all minimal conflicting subsets + discards), unsolvable sets:")
    print(row("  3-card sets of the set", [t for it, t, _ in times if it in unsat3]))
    print(row("  unsolvable pair + 1 card", [t for it, t, _ in times if it["group"] == "pair+1"]))
    print(row("  all", [t for _, t, _ in times]))
    wrong = [it["cards"] for it, _, ex in times if ex.verdict != "unsolvable" or not ex.complete]
    if wrong:
        print(f"    NOT PROVEN UNSOLVABLE / INCOMPLETE: {wrong}")
    for it, t, ex in times[:5]:
        print(f"    {'+'.join(it['cards']):16s} conflicts {ex.conflicts} discard one of {ex.discards}")

    if not args.skip_naive:
        rng = random.Random(7)
        sample = rng.sample(results, min(args.naive_sample, len(results)))
        print(f"\nnaive baseline on a seeded sample of {len(sample)} instances ({args.naive_limit:.0f} s limit):")
        print(f"{'group':28s} {'n':>6s} {'ours p50':>9s} {'naive p50':>9s} {'ratio':>7s} {'naive unknown':>14s}")
        rows = {"solvable": [], "unsolvable": []}
        for it, v, ours in sample:
            cards = [deck.get(i) for i in it["cards"]]
            t = time.perf_counter()
            nv = naive_solve(cards, MODES[it["mode"]], catalog, args.naive_limit)
            naive = time.perf_counter() - t
            if nv not in ("unknown", v):
                print(f"    DISAGREEMENT on {it['cards']}: ours {v}, naive {nv}")
            if v in rows:
                rows[v].append((ours, naive, nv == "unknown"))
        for v, xs in rows.items():
            if xs:
                o = statistics.median(a for a, _, _ in xs)
                n = statistics.median(b for _, b, _ in xs)
                print(f"{'  ' + v:28s} {len(xs):6d} {1000 * o:9.1f} {1000 * n:9.1f} {n / o:7.1f} "
                      f"{sum(1 for *_, u in xs if u):14d}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
