"""The Gardeners engine: solve, prove unsolvable, explain conflicts, count solutions, closest garden.

Every garden this module returns has been re-checked by the pure checker; a disagreement is a bug
and raises EngineError instead of leaving the process. Verdicts are only "solvable"/"unsolvable"
when CP-SAT proved them, "unknown" otherwise.
"""
from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field

from ortools.sat.python import cp_model

from solver.core.solve import SolveControl
from solver.games.gardeners.cards import Card
from solver.games.gardeners.cards.verdict import SATISFIED
from solver.games.gardeners.checker import check
from solver.games.gardeners.encodings import impossible, post
from solver.games.gardeners.garden import Garden
from solver.games.gardeners.model import GardenModel
from solver.games.gardeners.modes import Mode
from solver.games.gardeners.tiles import Catalog

SOLVABLE, UNSOLVABLE, UNKNOWN = "solvable", "unsolvable", "unknown"
MAX_ENUMERATED_CARDS = 8
FAST_PATH_DETERMINISTIC_TIME = 0.5


class EngineError(RuntimeError):
    """The solver and the pure checker disagree: never let such an answer out."""


@dataclass
class Solved:
    verdict: str
    garden: Garden | None = None
    seconds: float = 0.0
    reason: str = ""  # for a refutation found before search: the counting argument


@dataclass
class Explanation:
    verdict: str
    garden: Garden | None = None
    conflicts: list[list[str]] = field(default_factory=list)   # minimal unsolvable subsets, smallest first
    discards: list[list[str]] = field(default_factory=list)    # minimal sets whose removal makes the rest solvable
    complete: bool = True        # conflicts list every minimal conflicting set
    unknown_subsets: int = 0     # subsets whose verdict stayed unknown within the limit
    seconds: float = 0.0
    discards_complete: bool | None = None   # discards list every minimal discard set; None = as `complete`

    def __post_init__(self) -> None:
        if self.discards_complete is None:
            self.discards_complete = self.complete


def tuned_solver(control: SolveControl, deterministic_s: float | None = None) -> cp_model.CpSolver:
    """A CP-SAT solver with the control's limits, workers and seed, and the parameters measured best
    for Gardeners models (hints and anything else solving a GardenModel should use it too)."""
    solver = control.new_solver()
    if deterministic_s is not None:
        # a budget in CP-SAT's deterministic time, so whether it suffices does not depend on load
        solver.parameters.max_deterministic_time = deterministic_s
    # Measured on the benchmark set (ABBA-interleaved runs, so machine load cancels out): on these
    # small models presolve costs more than it saves, and so does the LP relaxation; without both,
    # solvable sets take 0.66x the time and unsolvable ones are no slower (max 0.28 s vs 0.25 s).
    solver.parameters.cp_model_presolve = False
    solver.parameters.linearization_level = 0
    # CP-SAT's own symmetry detection finds little here (the class model already merged the tiles)
    # and costs ~12% on both sides.
    solver.parameters.symmetry_level = 0
    # The probing pass at the start of search took a third of a typical loop solve (86 of 272 ms);
    # without it: 0.80x the time on the set, unsolvable sets 0.80x too.
    solver.parameters.cp_model_probing_level = 0
    # SAT inprocessing (vivification etc.) made thousands of decisions on near-conflict-free searches:
    # without it 0.64x on the set, 0.57x on Standard+Expert triples, unsolvable sets 0.9x.
    solver.parameters.use_sat_inprocessing = False
    return solver


def verified(garden: Garden, cards: list[Card]) -> Garden:
    """The garden, once the pure checker confirms it is complete and meets every card."""
    report = check(garden, cards)
    if not report.complete or any(v.status != SATISFIED for v in report.verdicts):
        raise EngineError(f"solver garden fails the checker on {report.broken}:\n{garden.render()}")
    return garden


def _tiles(mode: Mode, catalog: Catalog):
    return catalog.tiles_of(mode.tile_sets)


def check_fit(mode: Mode, catalog: Catalog) -> None:
    from solver.errors import InputError
    need = mode.size * mode.size
    have = len(_tiles(mode, catalog))
    if have != need:
        raise InputError("catalog", f"mode {mode.name} fills {need} cells but the catalog has {have} tiles "
                                    f"in sets {mode.tile_sets}")


def has_loop(cards: list[Card]) -> bool:
    return any(c.kind == "path" and c.spec.shape == "loop" for c in cards)


def rings_first(cards: list[Card], mode: Mode, catalog: Catalog, control: SolveControl,
                gm: GardenModel | None = None) -> Garden | None:
    """The fast path for closed routes: loops restricted to rectangular rings, within
    FAST_PATH_DETERMINISTIC_TIME. A garden found here is a real solution (checked like any other);
    None (infeasible or the limit) proves nothing. `solve` and `explain` both take it first, so
    CheckSolvable says solvable whenever Solve does. `gm`: a fresh model of `cards` whose cards
    `impossible` has already cleared (solve's; it is spent here), instead of a new one."""
    if gm is None:
        check_fit(mode, catalog)
        gm = GardenModel(cards, mode, _tiles(mode, catalog))
        if any(impossible(gm, card) for card in cards):
            return None
    for card in cards:
        post(gm, card, gm.model.new_constant(1), rings_only=True)
    status, solver = control.solve(gm.model, tuned_solver(control, FAST_PATH_DETERMINISTIC_TIME))
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return verified(gm.to_garden(gm.chosen(solver)), cards)
    return None


def solve(cards: list[Card], mode: Mode, catalog: Catalog, control: SolveControl | None = None) -> Solved:
    """A complete garden meeting every card, a proof that none exists, or unknown within the limit."""
    control = control or SolveControl()
    check_fit(mode, catalog)
    start = time.perf_counter()
    gm = GardenModel(cards, mode, _tiles(mode, catalog))
    for card in cards:
        reason = impossible(gm, card)
        if reason:
            return Solved(UNSOLVABLE, None, time.perf_counter() - start, f"{card.id}: {reason}")
    if has_loop(cards):
        garden = rings_first(cards, mode, catalog, control, gm)  # (its model: the full one is built anew)
        if garden is not None:
            return Solved(SOLVABLE, garden, time.perf_counter() - start)
        gm = GardenModel(cards, mode, _tiles(mode, catalog))
    for card in cards:
        post(gm, card, gm.model.new_constant(1))
    status, solver = control.solve(gm.model, tuned_solver(control))
    elapsed = time.perf_counter() - start
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return Solved(SOLVABLE, verified(gm.to_garden(gm.chosen(solver)), cards), elapsed)
    if status == cp_model.INFEASIBLE:
        return Solved(UNSOLVABLE, None, elapsed)
    return Solved(UNKNOWN, None, elapsed)


class _Oracle:
    """Solvability of subsets of a card list, cached; a found garden also vouches for every subset of
    the cards it happens to satisfy, and an unsolvable subset (or the core CP-SAT names for it) for
    every superset.

    One model holds every card behind its own literal and each question is a solve under
    assumptions (the cards of the subset), so the model is built once however many subsets are
    asked. With presolve off, CP-SAT's core (sufficient assumptions for infeasibility) is a proven
    unsolvable subset, never a guess at a minimal one.
    """

    def __init__(self, cards, mode, catalog, control):
        self.cards, self.mode, self.catalog, self.control = cards, mode, catalog, control
        self.solvable_sets: list[frozenset[int]] = []
        self.unsolvable_sets: list[frozenset[int]] = []
        self.unknown: set[frozenset[int]] = set()
        self.gardens: dict[frozenset[int], Garden] = {}
        self._gm: GardenModel | None = None
        self._lits: list = []

    def _model(self) -> GardenModel:
        if self._gm is None:
            check_fit(self.mode, self.catalog)
            gm = GardenModel(self.cards, self.mode, _tiles(self.mode, self.catalog))
            self._lits = [gm.model.new_bool_var(f"card{i}") for i in range(len(self.cards))]
            for card, lit in zip(self.cards, self._lits):
                post(gm, card, lit)
            self._gm = gm
        return self._gm

    def _solved(self, subset: frozenset[int], garden: Garden) -> str:
        report = check(garden, self.cards)
        happy = frozenset(i for i, v in enumerate(report.verdicts) if v.status == SATISFIED)
        self.solvable_sets.append(happy)
        self.gardens[subset] = garden
        return SOLVABLE

    def __call__(self, subset: frozenset[int]) -> str:
        if any(subset <= s for s in self.solvable_sets):
            return SOLVABLE
        if any(u <= subset for u in self.unsolvable_sets):
            return UNSOLVABLE
        if subset in self.unknown:
            return UNKNOWN
        chosen = [self.cards[i] for i in sorted(subset)]
        if len(chosen) == len(self.cards) and has_loop(chosen):
            # the fast path `solve` takes first, for the whole set (the verdict CheckSolvable shares with
            # Solve): without it the one model below can spend its whole limit on a set that rectangular
            # rings solve at once. Not for the subsets: on every one of an explanation it doubled the p95
            # (bench/gardeners_solvability.py, 7 Dec: 94 -> 177 ms)
            garden = rings_first(chosen, self.mode, self.catalog, self.control)
            if garden is not None:
                return self._solved(subset, garden)
        gm = self._model()
        gm.model.clear_assumptions()
        gm.model.add_assumptions([self._lits[i] for i in sorted(subset)])
        status, solver = self.control.solve(gm.model, tuned_solver(self.control))
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return self._solved(subset, verified(gm.to_garden(gm.chosen(solver)), chosen))
        if status == cp_model.INFEASIBLE:
            index = {lit.index: i for i, lit in enumerate(self._lits)}
            core = frozenset(index[v] for v in solver.sufficient_assumptions_for_infeasibility() if v in index)
            self.unsolvable_sets.append(core if core and core <= subset else subset)
            return UNSOLVABLE
        self.unknown.add(subset)
        return UNKNOWN


def explain(cards: list[Card], mode: Mode, catalog: Catalog, control: SolveControl | None = None) -> Explanation:
    """Solvable with a witness, or unsolvable with every minimal conflicting subset of cards (each
    unsolvable, every proper subset solvable) and every minimal set of cards to discard.

    Subsets are visited by increasing size; an unsolvable subset that contains no smaller conflict is
    minimal (any unsolvable proper subset would contain a conflict found earlier). Supersets of a
    known conflict and subsets of a satisfied set are never solved. With more than
    MAX_ENUMERATED_CARDS cards one minimal conflict is found from a solver core (see _explain_one)
    and `complete` is False.
    """
    control = control or SolveControl()
    start = time.perf_counter()
    oracle = _Oracle(cards, mode, catalog, control)
    everything = frozenset(range(len(cards)))
    whole = oracle(everything)
    if whole != UNSOLVABLE:
        # unknown: the whole set is the one subset left undecided, so nothing is listed and
        # nothing is complete
        return Explanation(whole, oracle.gardens.get(everything), seconds=time.perf_counter() - start,
                           complete=whole == SOLVABLE, unknown_subsets=int(whole == UNKNOWN),
                           discards_complete=whole == SOLVABLE)
    if len(cards) > MAX_ENUMERATED_CARDS:
        return _explain_one(cards, mode, catalog, control, oracle, start)
    limit = len(cards)
    if len(cards) <= MAX_ENUMERATED_CARDS:
        # Drop-one-card sets first: their witnesses vouch for most smaller subsets at once, so the
        # bottom-up pass below rarely needs to solve anything else.
        for i in range(len(cards)):
            oracle(everything - {i})
    conflicts: list[frozenset[int]] = []
    unknown = 0
    for k in range(1, limit + 1):
        for combo in itertools.combinations(range(len(cards)), k):
            subset = frozenset(combo)
            if any(c <= subset for c in conflicts):
                continue
            verdict = oracle(subset)
            if verdict == UNSOLVABLE:
                conflicts.append(subset)
            elif verdict == UNKNOWN:
                unknown += 1
    complete = unknown == 0
    # Minimal discard sets are the minimal hitting sets of the conflicts (each conflict must lose a card).
    discards: list[frozenset[int]] = []
    if complete:
        for k in range(1, len(cards) + 1):
            for combo in itertools.combinations(range(len(cards)), k):
                hit = frozenset(combo)
                if any(d <= hit for d in discards):
                    continue
                if all(hit & c for c in conflicts):
                    discards.append(hit)
    ids = lambda s: [cards[i].id for i in sorted(s)]  # noqa: E731
    order = lambda s: (len(s), sorted(s))  # noqa: E731
    return Explanation(UNSOLVABLE, None, [ids(c) for c in sorted(conflicts, key=order)],
                       [ids(d) for d in sorted(discards, key=order)], complete, unknown,
                       time.perf_counter() - start)


def _explain_one(cards, mode, catalog, control, oracle, start) -> Explanation:
    """Many cards: one minimal conflicting subset (the solver's core for the whole set, shrunk by a
    deletion loop, each step re-solved), and the single cards of it whose discard is proven to make the
    rest solvable. The conflicts are not complete (complete=False); the discards are proven complete
    only when every card of that conflict is one (`discards_complete`). A subset whose verdict stayed
    unknown keeps its card, and then the subset is not reported as minimal."""
    core = min(oracle.unsolvable_sets, key=len)   # the core CP-SAT named for the whole set
    mus, unknown = set(core), 0
    for i in sorted(core):
        verdict = oracle(frozenset(mus - {i}))
        if verdict == UNSOLVABLE:
            mus.discard(i)
        elif verdict == UNKNOWN:
            unknown += 1
    everything = frozenset(range(len(cards)))
    conflicts = [[cards[i].id for i in sorted(mus)]] if unknown == 0 else []
    discards = []
    for i in sorted(mus):
        verdict = oracle(everything - {i})
        if verdict == SOLVABLE:
            discards.append([cards[i].id])
        elif verdict == UNKNOWN:
            unknown += 1
    # `mus` is a proven conflict however the deletions ended, so every discard set holds one of its
    # cards: when each of them alone is a discard set, no other minimal discard set exists.
    return Explanation(UNSOLVABLE, None, conflicts, discards, False, unknown, time.perf_counter() - start,
                       discards_complete=len(discards) == len(mus))


@dataclass
class Count:
    count: int
    complete: bool   # True when every solution was counted (count < cap and the search finished)
    gardens: list[Garden] = field(default_factory=list)


def count_solutions(cards: list[Card], mode: Mode, catalog: Catalog, cap: int,
                    control: SolveControl | None = None) -> Count:
    """Distinct solutions up to `cap`. Distinct means: a different arrangement of what the cards can
    see (tiles identical for every active card are one class; a tile's rotation matters only if a
    card reads benches or paths), counted once for all 4 rotations of the whole garden."""
    control = control or SolveControl()
    check_fit(mode, catalog)
    gm = GardenModel(cards, mode, _tiles(mode, catalog))
    if any(impossible(gm, c) for c in cards):
        return Count(0, True)
    for card in cards:
        post(gm, card, gm.model.new_constant(1))
    found: list[Garden] = []
    while len(found) < cap:
        status, solver = control.solve(gm.model, tuned_solver(control))
        if status == cp_model.INFEASIBLE:
            return Count(len(found), True, found)
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return Count(len(found), False, found)
        chosen = gm.chosen(solver)
        found.append(verified(gm.to_garden(chosen), cards))
        gm.block(chosen)
    return Count(len(found), False, found)


@dataclass
class Closest:
    verdict: str              # "optimal" (proven), "feasible" (best found, bound given), "unsolvable", "unknown"
    garden: Garden | None = None
    kept: int = 0             # tiles of the current garden left in place with the same rotation
    changed: int = 0          # tiles of the current garden moved, turned or removed
    bound: int = 0            # proven upper bound on tiles that can be kept
    seconds: float = 0.0


def closest_solution(current: Garden, cards: list[Card], mode: Mode, catalog: Catalog,
                     control: SolveControl | None = None) -> Closest:
    """A valid garden keeping as many of the current garden's tiles in place (same cell, same
    rotation) as possible; proven optimal when the verdict says so."""
    control = control or SolveControl()
    check_fit(mode, catalog)
    start = time.perf_counter()
    gm = GardenModel(cards, mode, _tiles(mode, catalog), rotation_free=False)
    if any(impossible(gm, c) for c in cards):
        return Closest("unsolvable", bound=0, seconds=time.perf_counter() - start)
    for card in cards:
        post(gm, card, gm.model.new_constant(1))
    keep = []
    for cell, placed in current.cells.items():
        lit = gm.y[(cell, gm.sig_of[(placed.tile.id, placed.rotation)])]
        keep.append(lit)
        gm.model.add_hint(lit, 1)
    gm.model.maximize(sum(keep))
    status, solver = control.solve(gm.model, tuned_solver(control))
    elapsed = time.perf_counter() - start
    if status == cp_model.INFEASIBLE:
        return Closest("unsolvable", seconds=elapsed)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return Closest("unknown", bound=len(keep), seconds=elapsed)
    prefer = {cell: (p.tile.id, p.rotation) for cell, p in current.cells.items()}
    garden = verified(gm.to_garden(gm.chosen(solver), prefer), cards)
    kept = sum(1 for cell, p in current.cells.items()
               if (g := garden.get(cell)) and g.tile.id == p.tile.id and g.rotation == p.rotation)
    objective = round(solver.objective_value)
    if kept != objective:
        raise EngineError(f"kept {kept} tiles but the model promised {objective}")
    verdict = "optimal" if status == cp_model.OPTIMAL else "feasible"
    return Closest(verdict, garden, kept, len(current.cells) - kept, round(solver.best_objective_bound), elapsed)


def complete(partial: Garden, cards: list[Card], mode: Mode, catalog: Catalog,
             control: SolveControl | None = None) -> Solved:
    """A completion of `partial` (its tiles stay where they are, same rotation) meeting every card,
    a proof that none exists, or unknown within the limit."""
    control = control or SolveControl()
    check_fit(mode, catalog)
    start = time.perf_counter()
    gm = GardenModel(cards, mode, _tiles(mode, catalog), rotation_free=not partial.cells)
    for card in cards:
        reason = impossible(gm, card)
        if reason:
            return Solved(UNSOLVABLE, None, time.perf_counter() - start, f"{card.id}: {reason}")
    fix_placements(gm, partial)
    for card in cards:
        post(gm, card, gm.model.new_constant(1))
    status, solver = control.solve(gm.model, tuned_solver(control))
    elapsed = time.perf_counter() - start
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        prefer = {cell: (p.tile.id, p.rotation) for cell, p in partial.cells.items()}
        garden = verified(gm.to_garden(gm.chosen(solver), prefer), cards)
        if any(garden.get(c) != p for c, p in partial.cells.items()):
            raise EngineError("a completion moved a tile of the partial garden")
        return Solved(SOLVABLE, garden, elapsed)
    if status == cp_model.INFEASIBLE:
        return Solved(UNSOLVABLE, None, elapsed)
    return Solved(UNKNOWN, None, elapsed)


def fix_placements(gm: GardenModel, partial: Garden) -> None:
    """Keep the partial garden's tiles in place: each cell shows its tile's signature. The class
    counts then leave exactly the remaining tiles for the other cells."""
    if partial.size != gm.size:
        from solver.errors import InputError
        raise InputError("size", f"the garden is {partial.size}x{partial.size}, the mode plays {gm.size}x{gm.size}")
    for cell, placed in partial.cells.items():
        gm.model.add(gm.y[(cell, gm.sig_of[(placed.tile.id, placed.rotation)])] == 1)
