"""Benchmark: time to a proven optimal solo Versailles garden for seeded sequences of 7 and 14 tiles."""
from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from solver.games.versailles.data import default_catalog  # noqa: E402
from solver.core.solve import SolveControl  # noqa: E402
from solver.games.versailles import refute, solo  # noqa: E402
from solver.games.versailles.solo import solve_solo  # noqa: E402


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="7,14", help="tile sequence lengths (default 7,14)")
    parser.add_argument("--seeds", type=int, default=10, help="sequences per length (seeds 0..N-1)")
    parser.add_argument("--time-limit", type=float, default=10.0, help="seconds per solve")
    parser.add_argument("--presolve", choices=("auto", "on", "off"), default="auto",
                        help="CP-SAT presolve in the full solve (auto: on up to 7 tiles)")
    parser.add_argument("--deterministic", type=float, default=None,
                        help="limit each solve by this much CP-SAT deterministic time instead of the clock")
    parser.add_argument("--greedy-share", type=float, default=None,
                        help="share of the budget for greedy restarts (default: 0.3 up to 7 tiles, else 0.7)")
    parser.add_argument("--beam-share", type=float, default=None,
                        help="share of the budget for beam-search plans (default beyond 7 tiles: 0.35 with a wall limit, "
                             "0.25 with --deterministic; else 0; "
                             "0 = the greedy alone, as before the beam)")
    parser.add_argument("--split-share", type=float, default=None,
                        help="share of the budget after a first full solve for the search split by scored types "
                             "(default: 0.8 up to 7 tiles, else 0; 0 = one full solve, as before the split)")
    parser.add_argument("--lns-share", type=float, default=None,
                        help="share of the budget for the large neighbourhood search from the best heuristic garden "
                             "(default: 0.9 beyond 7 tiles, else 0; 0 = the full solve alone, as before it)")
    parser.add_argument("--lns-model", choices=("auto", "copy", "small"), default="auto",
                        help="neighbourhood step model: a copy of the full model with the kept tiles fixed, or a small "
                             "model of the free tiles only (auto: solo.LNS_MODEL_WALL with a wall limit, copy with --deterministic)")
    parser.add_argument("--refute-share", type=float, default=None,
                        help="share of the budget for the pure-Python refutation search (refute.py; default: "
                             "0.5 for 8-13 tiles, else 0; 0 = off, as before it)")
    parser.add_argument("--anneal-share", type=float, default=None,
                        help="share of the budget for the annealing search (anneal.py; default: solo.ANNEAL_SHARE beyond "
                             "13 tiles, solo.ANNEAL_SHARE_REFUTED (0) for 8-13, else 0; 0 = off, as before it)")
    parser.add_argument("--close-anneal-max", default=None,
                        help="solo.CLOSE_ANNEAL_MAX: units (or seconds) of annealing before the closing refutation, "
                             "the neighbourhood search then skipped; 'none' = no cap, the neighbourhood search as before")
    parser.add_argument("--anneal-run", type=int, default=None,
                        help="evaluated gardens per annealing run (solo.ANNEAL_RUN_EVALS)")
    parser.add_argument("--refute-shared", choices=("on", "off"), default="on",
                        help="refute plans in bulk through a scoring's choice of types several plans share "
                             "(solo.REFUTE_SHARED; off = each plan searched alone, as before)")
    parser.add_argument("--refute-joint", choices=("on", "noslack", "off"), default="on",
                        help="the refutation search's check of the unplaced tiles (refute.JOINT, JOINT_SLACK; "
                             "noslack = only when no loss is left, the search of 1e6213c; off = the search of 17342b2)")
    parser.add_argument("--refute-children", choices=("on", "off"), default="on",
                        help="the joint check's verdict on each child placement (refute.JOINT_CHILDREN; "
                             "off = the search of 714cf10)")
    parser.add_argument("--refute-tight", choices=("on", "off"), default=None,
                        help="in the children's verdict, a tile's joined fields of a requirement within "
                             "spare - |C| + 1 of the group, through a neighbour outside the tile "
                             "(refute.JOINT_TIGHT; default: the module's setting)")
    parser.add_argument("--refute-closing", choices=("on", "off"), default=None,
                        help="children that close an area (its one open field excluded, or covered by a field not "
                             "counting for it) judged at the parent (refute.CLOSING; default: the module's setting; "
                             "off = the search of f0760aa..c03f697)")
    parser.add_argument("--refute-blocking", choices=("on", "off"), default=None,
                        help="placement children whose tile blocks every short path between areas of a requirement's "
                             "group judged at the parent (refute.BLOCKING; default: the module's setting; "
                             "off = the search of 047828b..b897c33)")
    parser.add_argument("--close-refute", type=float, default=None,
                        help="solo.CLOSE_REFUTE_MIN: beyond 13 tiles with at least this budget, the neighbourhood search "
                             "stops at solo.CLOSE_LNS_UPTO and the refutation gets most of the rest (default: the module's)")
    parser.add_argument("--close-lns-upto", type=float, default=None, help="override solo.CLOSE_LNS_UPTO")
    parser.add_argument("--quick-wall", default=None,
                        help="solo.QUICK_WALL: below this wall limit (s) a sequence beyond 13 tiles gets the annealing "
                             "and no CP-SAT model ('none': never; default: the module's)")
    parser.add_argument("--first-seed", type=int, default=0, help="first seed (default 0)")
    parser.add_argument("--seed-list", default=None,
                        help="comma-separated seeds to run instead of --first-seed/--seeds (e.g. 0,2,6)")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args(argv)
    catalog = default_catalog()
    ids = sorted(catalog.tiles)
    solo.REFUTE_SHARED = args.refute_shared == "on"
    if args.close_anneal_max is not None:
        solo.CLOSE_ANNEAL_MAX = None if args.close_anneal_max == "none" else float(args.close_anneal_max)
    if args.anneal_run is not None:
        solo.ANNEAL_RUN_EVALS = args.anneal_run
    if args.quick_wall is not None:
        solo.QUICK_WALL = None if args.quick_wall == "none" else float(args.quick_wall)
    if args.close_refute is not None:
        solo.CLOSE_REFUTE_MIN = args.close_refute
    if args.close_lns_upto is not None:
        solo.CLOSE_LNS_UPTO = args.close_lns_upto
    refute.JOINT = args.refute_joint != "off"
    refute.JOINT_SLACK = args.refute_joint == "on"
    refute.JOINT_CHILDREN = args.refute_children == "on"
    if args.refute_tight is not None:
        refute.JOINT_TIGHT = args.refute_tight == "on"
    if args.refute_closing is not None:
        refute.CLOSING = args.refute_closing == "on"
    if args.refute_blocking is not None:
        refute.BLOCKING = args.refute_blocking == "on"
    print(f"{'tiles':>5} {'runs':>4} {'optimal':>7} {'p50 s':>7} {'p95 s':>7} {'max s':>7} "
          f"{'gap avg':>7} {'heur=opt':>8} {'p50 proved s':>12} {'p50 work':>8} {'pts avg':>7}")
    for n in (int(s) for s in args.sizes.split(",")):
        times, optimal, gaps, heuristic_hits, proved_times, works, points = [], 0, [], 0, [], [], []
        seeds = ([int(x) for x in args.seed_list.split(",")] if args.seed_list
                 else range(args.first_seed, args.first_seed + args.seeds))
        for seed in seeds:
            tiles = [catalog.tiles[i] for i in random.Random(seed).sample(ids, n)]
            control = SolveControl(time_limit_s=args.time_limit, deterministic_limit=args.deterministic,
                                   num_workers=1, random_seed=seed)
            r = solve_solo(tiles, catalog, control, presolve={"auto": None, "on": True, "off": False}[args.presolve],
                           greedy_share=args.greedy_share, beam_share=args.beam_share,
                           split_share=args.split_share, lns_share=args.lns_share,
                           lns_model=None if args.lns_model == "auto" else args.lns_model,
                           refute_share=args.refute_share, anneal_share=args.anneal_share)
            works.append(r.work)
            points.append(r.points or 0)
            times.append(r.seconds)
            optimal += r.status == "optimal"
            if r.status == "optimal":
                proved_times.append(r.seconds)
            gaps.append((r.bound or 0) - (r.points or 0))
            heuristic_hits += r.status == "optimal" and r.heuristic_points == r.points
            if args.verbose:
                print(f"  n={n} seed={seed} {r.status} points={r.points} bound={r.bound} "
                      f"heuristic={r.heuristic_points} {r.seconds:.2f}s work={r.work:.2f}", flush=True)
        print(f"{n:>5} {len(times):>4} {optimal:>7} {percentile(times, .5):>7.2f} {percentile(times, .95):>7.2f} "
              f"{max(times):>7.2f} {statistics.mean(gaps):>7.2f} {heuristic_hits:>8} "
              f"{(f'{percentile(proved_times, .5):.2f}' if proved_times else '-'):>12} "
              f"{percentile(works, .5):>8.2f} {statistics.mean(points):>7.1f}", flush=True)
    print("times include the greedy hint; a run not proved optimal stops at the time limit "
          "(gap = proved bound - points found); work = CP-SAT deterministic time of all searches")
    return 0


if __name__ == "__main__":
    sys.exit(main())
