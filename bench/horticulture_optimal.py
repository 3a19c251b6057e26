"""Benchmark: Horticulture solo optimum on seeded nurseries (time to proof, score, bound); prints a table."""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ortools.sat.python import cp_model  # noqa: E402

from solver.core.solve import SolveControl  # noqa: E402
from solver.games.horticulture.data import default_catalog  # noqa: E402
from solver.games.horticulture.garden import PathDrawing, Plan  # noqa: E402
from solver.games.horticulture import model as model_module  # noqa: E402
from solver.games.horticulture.model import DaySpec  # noqa: E402
from solver.games.horticulture import anneal, optimiser  # noqa: E402
from solver.games.horticulture.optimiser import solve  # noqa: E402


@dataclass
class MeteredControl(SolveControl):
    """A SolveControl that adds up the deterministic time of every CP-SAT search it runs (the units used; the
    annealing search's evaluations are added by _metered_anneal, the Lagrangian step's work by _metered_lagrangian)."""

    units: float = 0.0

    def solve(self, model, solver=None, callback=None):
        status, solver = super().solve(model, solver, callback)
        self.units += solver.deterministic_time
        return status, solver


METERED: list[MeteredControl] = []  # the control of the solve running now
_anneal_game = anneal.anneal_game


def _metered_anneal(*args, **kwargs):
    """The annealing search's evaluations count as units too (optimiser.ANNEAL_EVALS_PER_UNIT a unit)."""
    best, points, used = _anneal_game(*args, **kwargs)
    if METERED:
        METERED[-1].units += used / optimiser.ANNEAL_EVALS_PER_UNIT
    return best, points, used


anneal.anneal_game = _metered_anneal
_lagrangian = optimiser._lagrangian


def _metered_lagrangian(*args, **kwargs):
    """The Lagrangian step's work counts too (optimiser.LAGRANGE_WORK_PER_UNIT a unit)."""
    found, priced = _lagrangian(*args, **kwargs)
    if METERED:
        METERED[-1].units += found.work / optimiser.LAGRANGE_WORK_PER_UNIT
    return found, priced


optimiser._lagrangian = _metered_lagrangian
_separate = optimiser._separate


def _metered_separate(*args, **kwargs):
    """So does each region cut round's separation."""
    cut = _separate(*args, **kwargs)
    if METERED:
        METERED[-1].units += cut.work / optimiser.LAGRANGE_WORK_PER_UNIT
    return cut


optimiser._separate = _metered_separate


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def instance(seed: int, cards: int):
    cat = default_catalog()
    rng = random.Random(seed)
    nursery = rng.sample(sorted(cat.deck.cards), cards)
    plants = list(cat.plants)
    plan = Plan(rng.choice(plants), rng.choice(plants), (rng.choice(plants), rng.choice(plants)))
    gnome = (rng.randrange(6), rng.randrange(7))
    days = [DaySpec((nursery[i], nursery[i + 1])) for i in range(0, cards, 2)]
    return cat, days, gnome, plan


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--cards", default="8,16,32", help="nursery sizes (cards), comma-separated")
    ap.add_argument("--time-limit", type=float, default=10.0, help="seconds per solve (one worker)")
    ap.add_argument("--work", type=float, default=None,
                    help="deterministic work limit instead (machine-independent results; the time column stays wall)")
    ap.add_argument("--groups", default=model_module.DEFAULT_GROUPS, choices=["exact", "flow"],
                    help="group encoding of the exact models: witnesses + labels (exact) or the earlier flow one")
    ap.add_argument("--relaxed-first", type=float, default=None, help="override optimiser.RELAXED_FIRST_SHARE")
    ap.add_argument("--relaxed-share", type=float, default=None, help="override optimiser.RELAXED_SHARE")
    ap.add_argument("--param", action="append", default=[], help="CP-SAT parameter name=value for every step, replacing the optimiser's defaults (repeatable)")
    ap.add_argument("--unordered", action="store_true", help="final-garden relaxation without the ordering constraint")
    ap.add_argument("--lagrange-share", type=float, default=None,
                    help="optimiser.LAGRANGE_SHARE: the Lagrangian region cuts before the class count step (0: off)")
    ap.add_argument("--lagrange-rounds", type=int, default=None,
                    help="optimiser.LAGRANGE_ROUNDS: region cut rounds after the Lagrangian step (0: none)")
    ap.add_argument("--lagrange-rounds-share", type=float, default=None,
                    help="optimiser.LAGRANGE_ROUNDS_SHARE: the rounds' share of the budget")
    ap.add_argument("--lagrange-evals", type=int, default=None, help="optimiser.LAGRANGE_EVALS (price vectors)")
    ap.add_argument("--count-ordered", action="store_true",
                    help="the count relaxation with the ordering constraint (as before 3 Dec)")
    ap.add_argument("--order-cuts", type=int, default=None, help="override optimiser.ORDER_CUTS")
    ap.add_argument("--order-cut-share", default=None,
                    help="override optimiser.ORDER_CUT_SHARE (count-first games: the re-solve after an order cut gets "
                         "at most this share of the budget); 'none': the rest of the relaxation's share")
    ap.add_argument("--per-seed", action="store_true", help="also print one line per solve")
    ap.add_argument("--anneal-share", type=float, default=None, help="override optimiser.ANNEAL_SHARE (0: off)")
    ap.add_argument("--anneal-max", type=float, default=None, help="override optimiser.ANNEAL_MAX (units; 0: no cap)")
    ap.add_argument("--anneal-min-days", type=int, default=None, help="override optimiser.ANNEAL_MIN_DAYS")
    ap.add_argument("--short-anneal-min-days", type=int, default=None,
                    help="override optimiser.SHORT_ANNEAL_MIN_DAYS (0 or less: off)")
    ap.add_argument("--short-anneal-share", type=float, default=None, help="override optimiser.SHORT_ANNEAL_SHARE")
    ap.add_argument("--anneal-run", type=int, default=None, help="override optimiser.ANNEAL_RUN_EVALS")
    ap.add_argument("--anneal-near", type=int, default=None, help="override anneal.MOVE_NEAR (of 100; 0: off)")
    ap.add_argument("--anneal-t-start", type=float, default=None, help="override anneal.T_START")
    ap.add_argument("--lns-min-days", type=int, default=None, help="override optimiser.NEIGHBOURHOOD_MIN_DAYS")
    ap.add_argument("--count-first-min-days", type=int, default=None, help="override optimiser.COUNT_FIRST_MIN_DAYS")
    ap.add_argument("--count-share", type=float, default=None, help="override optimiser.COUNT_SHARE")
    ap.add_argument("--count-relaxed-share", type=float, default=None, help="override optimiser.COUNT_RELAXED_SHARE")
    ap.add_argument("--count-greedy-hint", type=int, default=None, help="override optimiser.COUNT_GREEDY_HINT (0/1)")
    ap.add_argument("--count-cut-share", type=float, default=None, help="override optimiser.COUNT_CUT_SHARE")
    ap.add_argument("--count-cut-min", type=float, default=None, help="override optimiser.COUNT_CUT_MIN")
    ap.add_argument("--class-count", type=int, default=None, help="override optimiser.CLASS_COUNT (0/1)")
    ap.add_argument("--benders-garden", type=int, default=None, help="override optimiser.BENDERS_GARDEN (0/1)")
    ap.add_argument("--recard-second", type=int, default=None, help="optimiser.RECARD_SECOND (0/1)")
    ap.add_argument("--late-chain", type=int, default=None,
                    help="optimiser.LATE_CHAIN (0/1): when the share holds one annealing run on the count step's "
                         "cards, a second one after the Lagrangian steps")
    ap.add_argument("--wall-eval-cap", type=int, default=None,
                    help="optimiser.WALL_EVAL_CAP (0/1): with a wall limit, the annealings' evaluations capped as with "
                         "a deterministic one")
    ap.add_argument("--legal-benders", type=int, default=None,
                    help="override optimiser.LEGAL_BENDERS (0/1): the Benders check from a legal game within "
                         "BENDERS_GAP of the count bound, before the cards search")
    ap.add_argument("--class-retry", default=None, help="override optimiser.CLASS_RETRY: none or a CP-SAT search_branching number")
    ap.add_argument("--anneal-cards", type=float, default=None, help="override optimiser.ANNEAL_CARDS (share; 0: off)")
    ap.add_argument("--anneal-cards-max", type=float, default=None, help="override optimiser.ANNEAL_CARDS_MAX (units)")
    ap.add_argument("--class-master", type=int, default=None, help="override optimiser.CLASS_MASTER (0/1)")
    ap.add_argument("--benders-gap", type=int, default=None, help="override optimiser.BENDERS_GAP")
    ap.add_argument("--benders-cut", default=None, choices=["card", "mix", "dominance", "both"],
                    help="override optimiser.BENDERS_CUT (the no-good of no_game_reaches)")
    ap.add_argument("--count-cut-cards", type=int, default=None,
                    help="override optimiser.COUNT_CUT_CARDS (0/1): the cut step replaces the count step")
    ap.add_argument("--count-cut-hint", type=int, default=None, help="override optimiser.COUNT_CUT_HINT (0/1)")
    ap.add_argument("--benders-share", type=float, default=None, help="override optimiser.BENDERS_SHARE")
    ap.add_argument("--cards-share", type=float, default=None, help="override optimiser.CARDS_SHARE")
    ap.add_argument("--count-cuts", default=None,
                    help="cuts of the count relaxation (its cards and bound), comma-separated among regions, reach, "
                         "columns, neighbours, components, or 'none' (default: the model's COUNT_* switches)")
    ap.add_argument("--bound-cuts", default=None, help="override optimiser.BOUND_CUTS (same names as --count-cuts)")
    ap.add_argument("--benders-work", type=float, default=None,
                    help="after each solve left open, this much deterministic work for optimiser.no_game_reaches "
                         "(score + 1): proven optimal when no game reaches it")
    ap.add_argument("--benders-proven", type=int, default=None,
                    help="override optimiser.BENDERS_PROVEN (0/1): a proven cards search below the count bound "
                         "is the Benders check's first no-good")
    ap.add_argument("--master-branching", default=None, choices=["default", "lp"],
                    help="optimiser.MASTER_BRANCHING: CP-SAT search_branching of the Benders master (default: "
                         "AUTOMATIC_SEARCH, lp: LP_SEARCH)")
    ap.add_argument("--count-branching", default=None, choices=["default", "lp"],
                    help="optimiser.COUNT_BRANCHING: search_branching of the count-first steps' count relaxation "
                         "with cuts")
    ap.add_argument("--descent-share", type=float, default=None,
                    help="override optimiser.DESCENT_SHARE: bound descent (no_game_reaches at the count bound, then "
                         "one lower while it answers none) when the cards search ends more than BENDERS_GAP below it")
    ap.add_argument("--descent-min", type=float, default=None, help="override optimiser.DESCENT_MIN")
    ap.add_argument("--descent-cap", default=None,
                    help="override optimiser.DESCENT_CAP: share of the budget for each descent step, which asks the "
                         "Benders master alone; 'none': every step a full check (pinned checks) with all the room")
    ap.add_argument("-v", "--verbose", action="store_true", help="log the optimiser's steps (debug) to stderr")
    ap.add_argument("--random-seed", type=int, default=0, help="CP-SAT random_seed of every solve (default 0)")
    ap.add_argument("--seed-list", default=None, help="explicit comma-separated seeds instead of 0..seeds-1")
    args = ap.parse_args(argv)
    if args.verbose:
        import logging
        logging.basicConfig(level=logging.WARNING, format="%(relativeCreated)8.0f ms %(name)s %(message)s")
        logging.getLogger("solver.games.horticulture").setLevel(logging.DEBUG)
    model_module.DEFAULT_GROUPS = args.groups
    if args.relaxed_first is not None:
        optimiser.RELAXED_FIRST_SHARE = args.relaxed_first
    if args.param:
        optimiser.SEARCH_PARAMETERS.clear()
    for item in args.param:
        name, value = item.split("=", 1)
        optimiser.SEARCH_PARAMETERS[name] = int(value) if value.lstrip("-").isdigit() else \
            {"true": True, "false": False}.get(value.lower(), value)
    if args.lagrange_share is not None:
        optimiser.LAGRANGE = args.lagrange_share > 0
        optimiser.LAGRANGE_SHARE = args.lagrange_share
    if args.unordered:
        model_module.ORDERED_RELAXATION = False
    if args.count_ordered:
        model_module.COUNT_ORDERED = True
    if args.order_cuts is not None:
        optimiser.ORDER_CUTS = args.order_cuts
    if args.order_cut_share is not None:
        optimiser.ORDER_CUT_SHARE = None if args.order_cut_share == "none" else float(args.order_cut_share)
    if args.relaxed_share is not None:
        optimiser.RELAXED_SHARE = args.relaxed_share
    if args.anneal_share is not None:
        optimiser.ANNEAL_SHARE = args.anneal_share
    if args.anneal_max is not None:
        optimiser.ANNEAL_MAX = args.anneal_max or None
    if args.short_anneal_min_days is not None:
        optimiser.SHORT_ANNEAL_MIN_DAYS = args.short_anneal_min_days if args.short_anneal_min_days > 0 else None
    if args.short_anneal_share is not None:
        optimiser.SHORT_ANNEAL_SHARE = args.short_anneal_share
    if args.anneal_min_days is not None:
        optimiser.ANNEAL_MIN_DAYS = args.anneal_min_days
    if args.anneal_run is not None:
        optimiser.ANNEAL_RUN_EVALS = args.anneal_run
    if args.anneal_near is not None:
        anneal.MOVE_NEAR = args.anneal_near
    if args.anneal_t_start is not None:
        anneal.T_START = args.anneal_t_start
    if args.lns_min_days is not None:
        optimiser.NEIGHBOURHOOD_MIN_DAYS = args.lns_min_days
    for name in ("count_first_min_days", "count_share", "cards_share", "count_relaxed_share",
                 "count_greedy_hint", "count_cut_share", "count_cut_min", "benders_gap",
                 "count_cut_cards", "count_cut_hint", "benders_share", "benders_proven", "descent_share",
                 "descent_min", "class_count", "class_master", "benders_garden", "anneal_cards", "anneal_cards_max",
                 "legal_benders", "recard_second", "late_chain", "wall_eval_cap", "lagrange_evals", "lagrange_rounds",
                 "lagrange_rounds_share"):
        if getattr(args, name) is not None:
            setattr(optimiser, name.upper(), getattr(args, name))
    if args.class_retry is not None:
        optimiser.CLASS_RETRY = None if args.class_retry == "none" else int(args.class_retry)
    if args.descent_cap is not None:
        optimiser.DESCENT_CAP = None if args.descent_cap == "none" else float(args.descent_cap)
    names = model_module.COUNT_CUTS  # cut name -> the model's COUNT_* switch
    for option in (args.count_cuts, args.bound_cuts):
        unknown = set() if option in (None, "none") else set(option.split(",")) - set(names)
        if unknown:
            ap.error(f"unknown count cuts {sorted(unknown)}: expected some of {sorted(names)}")
    if args.count_cuts is not None:
        chosen = set() if args.count_cuts == "none" else set(args.count_cuts.split(","))
        for key, name in names.items():
            setattr(model_module, name, key in chosen)
    if args.bound_cuts is not None:
        optimiser.BOUND_CUTS = frozenset() if args.bound_cuts == "none" else frozenset(args.bound_cuts.split(","))
    if args.master_branching is not None:
        optimiser.MASTER_BRANCHING = None if args.master_branching == "default" else cp_model.LP_SEARCH
    if args.count_branching is not None:
        optimiser.COUNT_BRANCHING = None if args.count_branching == "default" else cp_model.LP_SEARCH
    if args.benders_cut is not None:
        optimiser.BENDERS_CUT = args.benders_cut
    seeds = [int(s) for s in args.seed_list.split(",")] if args.seed_list else list(range(args.seeds))
    cuts_on = sorted(model_module.default_count_cuts())
    limit = f"deterministic work {args.work:g}" if args.work else f"{args.time_limit:g} s limit"
    print(f"Horticulture solo optimum, side A, straight path from 3, seeded plan/gnome/nursery; "
          f"1 worker, {limit}, groups={args.groups}, ordered={model_module.ORDERED_RELAXATION} (count {model_module.COUNT_ORDERED}), count cuts {cuts_on}, class count {optimiser.CLASS_COUNT} master {optimiser.CLASS_MASTER} retry {optimiser.CLASS_RETRY} anneal on cards {optimiser.ANNEAL_CARDS} max {optimiser.ANNEAL_CARDS_MAX} late {optimiser.LATE_CHAIN} wall cap {optimiser.WALL_EVAL_CAP}, anneal near {anneal.MOVE_NEAR} t {anneal.T_START:g}, cut bound share {optimiser.COUNT_CUT_SHARE} from {optimiser.COUNT_CUT_MIN:g} with {sorted(optimiser.BOUND_CUTS)}, order cut share {optimiser.ORDER_CUT_SHARE}, descent share {optimiser.DESCENT_SHARE:g} from {optimiser.DESCENT_MIN:g} cap {optimiser.DESCENT_CAP}, benders gap {optimiser.BENDERS_GAP} garden {optimiser.BENDERS_GARDEN} cut {optimiser.BENDERS_CUT} share {optimiser.BENDERS_SHARE:g}, cut step as count step {optimiser.COUNT_CUT_CARDS} hinted {optimiser.COUNT_CUT_HINT}, lagrange {optimiser.LAGRANGE_SHARE if optimiser.LAGRANGE else 0:g} evals {optimiser.LAGRANGE_EVALS} rounds {optimiser.LAGRANGE_ROUNDS} share {optimiser.LAGRANGE_ROUNDS_SHARE:g}, extra {optimiser.SEARCH_PARAMETERS}; load average at start {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    header = f"{'cards':>5} {'n':>3} {'proven':>6} {'p50 s':>7} {'p95 s':>7} {'max s':>7} " \
             f"{'score p50':>9} {'gap p50':>7} {'gap max':>7} {'no bound':>8}"
    print(header)
    print("-" * len(header))
    for cards in [int(c) for c in args.cards.split(",")]:
        times, scores, gaps, proven, unbounded = [], [], [], 0, 0
        for seed in seeds:
            cat, days, gnome, plan = instance(seed, cards)
            t0 = time.perf_counter()
            metered = MeteredControl(time_limit_s=args.time_limit if not args.work else 3600.0,
                                     deterministic_limit=args.work, random_seed=args.random_seed)
            METERED[:] = [metered]
            sol = solve(cat, "A", PathDrawing(3, "DDDDDDD"), days, gnome, plan, metered)
            extra = ""
            if args.benders_work and sol.status != "optimal" and sol.score is not None:
                answer, cost, rounds = optimiser.no_game_reaches(
                    cat, "A", PathDrawing(3, "DDDDDDD"), days, gnome, plan, sol.score + 1,
                    SolveControl(time_limit_s=3600.0, deterministic_limit=args.benders_work,
                                 random_seed=args.random_seed),
                    args.benders_work)
                extra = f" | benders (>= {sol.score + 1}): {answer} after {cost:.2f} units, {rounds} rounds"
                if answer == "none":
                    sol.status, sol.bound = "optimal", sol.score
            times.append(time.perf_counter() - t0)
            if args.per_seed:
                print(f"  cards {cards} seed {seed}: {sol.status} score {sol.score} bound {sol.bound} "
                      f"{times[-1]:.2f} s, {metered.units:.2f} units{extra}", flush=True)
            proven += sol.status == "optimal"
            if sol.score is not None:
                scores.append(sol.score)
            if sol.score is not None and sol.bound is not None:
                gaps.append(sol.bound - sol.score)
            else:
                unbounded += 1
        print(f"{cards:>5} {len(seeds):>3} {proven:>6} {pct(times, .5):>7.2f} {pct(times, .95):>7.2f} "
              f"{max(times):>7.2f} {statistics.median(scores) if scores else '-':>9} "
              f"{statistics.median(gaps) if gaps else '-':>7} {max(gaps) if gaps else '-':>7} {unbounded:>8}")
    print(f"load average at end {os.getloadavg()[0]:.1f}")
    print("gap = proven upper bound - score of the game returned (0 when proven optimal); "
          "no bound = runs where no search proved any bound in time")
    return 0


if __name__ == "__main__":
    sys.exit(main())
