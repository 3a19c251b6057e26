"""The optimal solo garden: heuristic hint, CP-SAT proof, and the check against the pure scorer."""
from __future__ import annotations

import dataclasses
import math
import random
import time
from dataclasses import dataclass
from typing import Sequence

from solver.core.solve import SolveControl
from solver.games.versailles import anneal, lns, refute
from solver.games.versailles.beam import beam_garden, target_choices
from solver.games.versailles.data import Catalog, Tile
from solver.games.versailles.heuristic import greedy_garden
from solver.games.versailles.model import SoloModel, SoloSolve, build_solo_model, canonical_rotation, run
from solver.games.versailles.rules import Placement, build_garden, placed_fields
from solver.games.versailles.scoring import largest_area_fields, solo_checkpoints, solo_points, top_areas


class ModelMismatch(AssertionError):
    """The CP-SAT objective and the pure scorer disagree: a bug, never a result."""


@dataclass
class SoloResult:
    status: str  # "optimal" (proved by CP-SAT), "feasible" (best found, with bound), "unknown", "infeasible"
    placements: list[Placement] | None
    points: int | None  # pure-scorer points of `placements`
    bound: int | None  # best bound CP-SAT proved: no garden on this board scores more
    board: int
    seconds: float
    heuristic_points: int
    work: float = 0.0  # CP-SAT deterministic time of all searches (load-independent)
    counting_bound: int | None = None  # no garden on any board scores more (field counts)
    # no garden on any board scores more: the counting bound, or lower where the refutation search
    # (refute.py, which ignores the board) proved it; None = the counting bound
    any_board_bound: int | None = None

    @property
    def optimal_on_any_board(self) -> bool:
        """CP-SAT's "optimal" holds among gardens fitting the board square; a garden meeting the
        counting bound, or a bound the refutation search proved, is optimal on any board."""
        bound = self.counting_bound if self.any_board_bound is None else self.any_board_bound
        return self.status == "optimal" and self.points is not None and self.points == bound

    def as_dict(self) -> dict:
        return {"status": self.status, "points": self.points, "bound": self.bound, "board": self.board,
                "counting_bound": self.counting_bound, "optimal_on_any_board": self.optimal_on_any_board,
                "placements": [p.as_dict() for p in self.placements] if self.placements else None,
                "seconds": round(self.seconds, 3), "heuristic_points": self.heuristic_points,
                "deterministic_time": round(self.work, 3)}


def default_board(n_tiles: int) -> int:
    """Fields per side of the square the garden must fit in: room for a roughly square garden
    plus one tile of slack on each axis."""
    return 2 * math.ceil(math.sqrt(n_tiles)) + 2


def counting_bound(tiles: Sequence[Tile], catalog: Catalog) -> int:
    """No garden beats the k largest field counts at each scoring (every field of a type joined)."""
    total = 0
    for n, k in solo_checkpoints(len(tiles), catalog):
        counts = sorted((sum(1 for tile in tiles[:n] for code in tile.fields if code in (t, *catalog.joker_types))
                         for t in catalog.garden_types), reverse=True)
        total += sum(counts[:k])
    return total


class Budget:
    """What is left of one call's limit: wall-clock seconds, or, when the control carries a
    deterministic limit, CP-SAT deterministic time (then no clock is ever read, so the same
    request gives the same garden on any machine)."""

    def __init__(self, control: SolveControl):
        self.control = control
        self.deterministic = control.deterministic_limit is not None
        self.total = control.deterministic_limit if self.deterministic else control.time_limit_s
        self.started = time.perf_counter()
        self.work = 0.0  # deterministic time spent by the searches so far

    def spent(self) -> float:
        return self.work if self.deterministic else time.perf_counter() - self.started

    def left(self, upto: float = 1.0) -> float:
        """What remains until `upto` (a fraction) of the total is spent."""
        return upto * self.total - self.spent()

    def stop(self, upto: float = 1.0) -> bool:
        return self.control.cancelled or self.left(upto) <= 0

    def run(self, solo: SoloModel, tiles: Sequence[Tile], most: float, work: float | None = None,
            presolve: bool = True, workers: int | None = None) -> SoloSolve:
        """One search capped at `most` of the budget's unit (seconds, or deterministic time) and
        at `work` deterministic time, charged to the budget."""
        most = max(0.05, most)
        if self.deterministic:
            work = most if work is None else min(work, most)
        res = run(solo, tiles, self.control, time_limit=most, work=work, presolve=presolve, workers=workers)
        self.work += res.work
        return res


def improve(solo: SoloModel, tiles: Sequence[Tile], placements: list[Placement], points: int, ceiling: int,
            rng: random.Random, steps: int | None, budget: Budget, upto: float = 0.5,
            size: int = 4, step_work: float = 1.0, small: bool = False) -> tuple[list[Placement], int]:
    """Large neighbourhood search: keep all but `size` tiles where they are, let CP-SAT re-place
    those, keep the result when it scores at least as much. Every other step half of them are
    tiles holding a lost field (`_holding_lost_fields`), the rest are drawn at random (measured on
    14 tiles, deterministic 10: seeds 0-9 50.7 vs 50.6 points with random tiles only, held-out
    seeds 10-19 49.5 vs 49.1; without the search 50.2 and 49.0).

    Each step is a copy of the model (`CpModel.clone()`, same variables) with the kept tiles
    fixed as constraints, so presolve removes most of the model, the objective >= the garden's
    points, and at least one free tile off its current place: a solution is a different garden
    worth as much or more (plateau moves let the search walk; measured on 14 tiles they found
    +1 where steps demanding +1 found nothing), INFEASIBLE means no such garden in this
    neighbourhood. Runs until `steps` are done (None: no count), `upto` of the budget is spent
    or the garden meets `ceiling`. The points are the pure scorer's."""
    n = len(tiles)
    done = misses = 0
    while steps is None or done < steps:
        if points >= ceiling or budget.stop(upto) or n < 3:
            break
        done += 1
        k = min(n - 1, size)
        lost = _holding_lost_fields(tiles, placements, solo.catalog, solo.checkpoints) if done % 2 else []
        pick = rng.sample(lost, min(len(lost), k // 2))
        free = set(pick) | set(rng.sample([i for i in range(n) if i not in pick], k - len(pick)))
        if small:
            # a model of the free tiles only (`lns.step_model`): no copy of the full model to presolve
            step_model = lns.step_model(solo, tiles, solo.catalog, placements, free, points)
            if step_model is None:
                misses += 1
                if misses > 100:  # no neighbourhood of this garden is a garden (not seen; a guard)
                    break
                continue
            most = max(0.05, min(step_work, budget.left(upto)))
            found, work = lns.run_step(step_model, budget.control, most, most if budget.deterministic else None)
            budget.work += work
        else:
            found = _copy_step(solo, tiles, placements, free, points, budget, min(step_work, budget.left(upto)))
        if found is not None:
            exact = solo_points(found, solo.catalog)
            if exact >= points:
                placements, points = found, exact
    return placements, points


def _copy_step(solo: SoloModel, tiles: Sequence[Tile], placements: list[Placement], free: set[int], points: int,
               budget: Budget, most: float) -> list[Placement] | None:
    """One neighbourhood step on a copy of the full model with the tiles not in `free` fixed, the
    objective >= `points` and at least one free tile moved: the garden found, or None."""
    part = solo.model.clone()
    part.clear_hints()
    part.clear_assumptions()
    moved = []
    for i, p in enumerate(placements):
        want = (p.x + solo.offset[0], p.y + solo.offset[1], canonical_rotation(tiles[i], p.rotation))
        lits = [lit for o, lit in zip(solo.options[i], solo.place[i]) if o == want]
        if len(lits) != 1:
            raise ModelMismatch(f"neighbourhood search: placements[{i}] is not an option of the model")
        if i in free:
            moved.append(lits[0])
        else:
            part.add(lits[0] == 1)
    part.add(sum(moved) <= len(moved) - 1)
    part.add(solo.objective >= points)
    return budget.run(dataclasses.replace(solo, model=part), tiles, most, workers=1).placements


def _holding_lost_fields(tiles: Sequence[Tile], placements: Sequence[Placement], catalog: Catalog,
                         checkpoints: Sequence[tuple[int, int]]) -> list[int]:
    """Indices of the tiles holding a field of a scored type outside that type's largest area, at
    some scoring: moving them is where points can be won."""
    jokers = set(catalog.joker_types)
    out: set[int] = set()
    for upto, k in checkpoints:
        fields: dict = {}
        owner: dict = {}
        for i, p in enumerate(placements[:upto]):
            for cell, code in placed_fields(tiles[i], p).items():
                fields[cell] = code
                owner[cell] = i
        largest = {t: largest_area_fields(fields, (t, *jokers)) for t in catalog.garden_types}
        for t, _ in top_areas({t: len(a) for t, a in largest.items()}, catalog, k):
            out.update(owner[c] for c, code in fields.items() if code == t and c not in largest[t])
    return sorted(out)


def solve_solo(tiles: Sequence[Tile], catalog: Catalog, control: SolveControl | None = None, *,
               board: int | None = None, restarts: int | None = None, presolve: bool | None = None,
               search_steps: int | None = None, time_limit: float | None = None, seed: int = 0,
               greedy_share: float | None = None, beam_share: float | None = None,
               split_share: float | None = None, lns_share: float | None = None,
               lns_model: str | None = None, refute_share: float | None = None,
               anneal_share: float | None = None) -> SoloResult:
    """Maximise intermediate + final garden points of one player receiving `tiles` in this order.

    Every CP-SAT search runs through `control` (cancel() stops the call); control.time_limit_s
    bounds the whole call's wall time, or, with control.deterministic_limit set, the total
    deterministic time of its searches (with num_workers=1 the result is then reproducible).
    Without a control, one is made from `time_limit` (default 10 s) and `seed` on one worker.

    Greedy garden (+ beam search beyond a stage, + annealing search beyond REFUTE_MAX_TILES: `anneal_share`)
    -> refutation search (8 to REFUTE_MAX_TILES tiles) -> CP-SAT large neighbourhood search (beyond a
    stage: `lns_share` of the budget; up to a stage only with `search_steps`) -> closing refutation (beyond
    REFUTE_MAX_TILES, large budgets) -> full CP-SAT solve from the best garden, which proves optimality or
    reports the best bound.
    """
    if control is None:
        control = SolveControl(time_limit_s=10.0 if time_limit is None else float(time_limit), num_workers=1,
                               random_seed=seed)
    elif not isinstance(control, SolveControl):
        raise TypeError(f"control: expected a SolveControl, got {control!r}")
    budget = Budget(control)
    seed = control.random_seed
    board = board or default_board(len(tiles))
    checkpoints = solo_checkpoints(len(tiles), catalog)
    ceiling = counted = counting_bound(tiles, catalog)  # ceiling may fall below the field counts (refutation)
    long = len(tiles) > catalog.setup.rounds_per_stage
    # a short wall limit on a sequence beyond REFUTE_MAX_TILES: the annealing gets the time (see QUICK_WALL)
    quick = (long and len(tiles) > REFUTE_MAX_TILES and not budget.deterministic and search_steps is None
             and QUICK_WALL is not None and budget.total <= QUICK_WALL)
    if greedy_share is None and quick:
        greedy_share = QUICK_GREEDY_SHARE
    if greedy_share is None and not long and not budget.deterministic and SHORT_REFUTE_SHARE > 0:
        greedy_share = SHORT_GREEDY_SHARE_WALL
    if greedy_share is None:
        # measured on 14 tiles (10 s, load 7-9, interleaved): 0.7 instead of 0.3 improved 2 of 10
        # gardens by 2 points, and CP-SAT never improved a 14-tile greedy garden; 7 tiles: the
        # full solve finds the better gardens, so it keeps most of the budget
        greedy_share = 0.7 if long else 0.3
    # what one greedy restart / one beam plan costs, per tile squared: seconds with a wall-clock
    # limit, a fixed rate per unit of deterministic time otherwise (see the constants below)
    greedy_cost, beam_cost = (GREEDY_PER_UNIT, BEAM_PER_UNIT) if budget.deterministic else (GREEDY_SECONDS,
                                                                                          BEAM_SECONDS)
    if restarts is None:
        # `greedy_share` of the budget; a count, not a clock, so the same request gives the same garden
        restarts = max(8, min(400, round(greedy_share * budget.total / (greedy_cost * len(tiles) ** 2))))
    # a long sequence rarely meets the counting bound (0 of 10 measured) and its model takes
    # seconds to build under load: build it first, so the clock below counts the build and the
    # call ends near its limit; a short one is often proved by the bound alone, so build it later
    solo = build_solo_model(tiles, catalog, checkpoints, board) if long and not quick else None
    # the count decides; in wall-clock mode the clock also cuts the restarts short under heavy
    # load, in deterministic mode only a cancellation does
    hint, hint_points = greedy_garden(tiles, catalog, random.Random(seed), board, restarts, ceiling,
                                      stop=lambda: budget.stop(min(0.9, greedy_share + 0.3)))
    if refute_share is None:
        refute_share = (REFUTE_SHARE if len(tiles) <= REFUTE_MAX_TILES else 0.0) if long else SHORT_REFUTE_SHARE
    heuristic_points = hint_points  # reported as the heuristic's, whatever the refutation adds
    refuted_early = False

    def refuted(garden: list[Placement], points: int, share: float):
        """`_refute_step` from `garden` with `share` of what is left: (garden, points, answer), the answer
        an optimal SoloResult when the garden is proven (or meets the lowered ceiling), else None. The
        ceiling takes the bound the search proved (valid on any board, like the counting bound)."""
        nonlocal ceiling
        proved, garden, points, refuted_bound = _refute_step(tiles, catalog, garden, points, board, budget, share)
        ceiling = min(ceiling, refuted_bound)
        if not (proved or points >= ceiling):
            return garden, points, None
        _check(garden, points, catalog, "refutation")
        return garden, points, SoloResult("optimal", garden, points, points, board,
                                          time.perf_counter() - budget.started, heuristic_points, budget.work,
                                          counted, ceiling)

    if (REFUTE_FIRST_WALL and not budget.deterministic and refute_share > 0 and hint
            and hint_points == ceiling - 1 and not control.cancelled):
        # with a wall limit, a greedy garden 1 below the counting bound goes to the refutation
        # before the beam: its plans lose no field (the cheapest to refute) and the beam would
        # leave it too little time (see REFUTE_FIRST_WALL)
        refuted_early = True
        hint, hint_points, answer = refuted(hint, hint_points, max(refute_share, REFUTE_FIRST_SHARE))
        if answer is not None:
            return answer
    if beam_share is None:
        # beam search (`beam.py`) on sequences longer than a stage only: measured on 14 tiles it
        # finds gardens the greedy restarts miss; short ones are proved by the full solve. With a
        # wall limit 0.35 (4 plans for 14 tiles at 10 s instead of 3: held-out seed 11 +2, no seed
        # of 0-19 lost, measured interleaved at load 1-2.6); deterministic mode keeps its 0.25
        beam_share = (0.25 if budget.deterministic else 0.35) if long and not quick else 0.0
    if beam_share > 0 and hint_points < ceiling:
        # plans of target types (width 32); a count, not a clock, so the same request gives the same garden
        plans = max(1, min(4, round(beam_share * budget.total / (beam_cost * len(tiles) ** 2))))
        for plan in target_choices(tiles, catalog, plans):
            if hint_points >= ceiling or control.cancelled:
                break
            found, found_points = beam_garden(tiles, catalog, plan, board=board,
                                              stop=lambda: budget.stop(min(0.95, greedy_share + beam_share + 0.3)))
            if found and found_points > hint_points:
                hint, hint_points = found, found_points
    if hint and hint_points >= ceiling:
        # the garden meets the counting bound, a valid upper bound for any garden on any board:
        # optimal without a search (the pure replay below still checks it)
        # (or the bound an early refutation proved: valid on any board too)
        _check(hint, hint_points, catalog, "counting bound")
        return SoloResult("optimal", hint, hint_points, ceiling, board, time.perf_counter() - budget.started,
                          hint_points, budget.work, counted, ceiling)
    if anneal_share is None and quick:  # until QUICK_UPTO of the limit
        anneal_share = max(0.0, QUICK_UPTO - budget.spent() / budget.total)
    if anneal_share is None:
        # up to REFUTE_MAX_TILES the refutation search needs the budget for its proofs (see ANNEAL_SHARE)
        anneal_share = (ANNEAL_SHARE_REFUTED if len(tiles) <= REFUTE_MAX_TILES else ANNEAL_SHARE) if long else 0.0
    # beyond REFUTE_MAX_TILES with a large budget the closing refutation follows (see CLOSE_REFUTE_MIN)
    closing = (long and len(tiles) > REFUTE_MAX_TILES and CLOSE_REFUTE_MIN is not None
               and budget.total >= CLOSE_REFUTE_MIN and search_steps is None)
    annealed = False
    if closing and CLOSE_ANNEAL_MAX is not None:
        anneal_share = min(anneal_share, CLOSE_ANNEAL_MAX / budget.total)
    if anneal_share > 0 and hint and hint_points < ceiling and not control.cancelled:
        hint, hint_points = _anneal_step(tiles, catalog, board, hint, hint_points, ceiling, budget, anneal_share,
                                         seed)
        annealed = True
    heuristic_points = max(heuristic_points, hint_points) if refuted_early else hint_points
    if refute_share > 0 and not refuted_early and hint and hint_points < ceiling and not control.cancelled:
        # pure-Python refutation (`refute.py`): every plan of scored types above the garden, with the
        # fields it may lose; a legal arrangement found worth more becomes the garden
        hint, hint_points, answer = refuted(hint, hint_points, refute_share)
        if answer is not None:
            return answer
    if quick and hint:
        # no CP-SAT model: in so little time it neither improves a garden of this length nor lowers the
        # counting bound (the bound reported is the counting bound, valid on any board: a garden meeting it is
        # optimal on any board)
        _check(hint, hint_points, catalog, "annealing")
        return SoloResult("optimal" if hint_points >= ceiling else "feasible", hint, hint_points, ceiling, board,
                          time.perf_counter() - budget.started, heuristic_points, budget.work, counted, ceiling)
    if solo is None:
        solo = build_solo_model(tiles, catalog, checkpoints, board)
    best, best_points = hint, hint_points
    if hint:
        # sequences longer than a stage: LNS_SHARE of the budget (the full solve never improved a
        # 14-tile garden, see docs/versailles.md); up to a stage off unless asked for: there the full
        # solve from the greedy garden found the better gardens 3-4x sooner (7 tiles, deterministic
        # time 2.0 vs 6.0 and 1.5 vs 5.4) and the neighbourhood search found none it missed
        if lns_share is None:
            lns_share = LNS_SHARE if long else 0.0
        if search_steps is not None:
            steps, upto = search_steps, 0.5
        else:
            steps, upto = (None, lns_share) if lns_share > 0 else (0, 0.0)
        if lns_model is None:
            # with a wall limit each step is a small model of its free tiles (`lns.step_model`): the
            # copy's presolve took 0.5-0.9 s of each 1 s step (14 tiles, load 1-3); measured at 10 s
            # wall, interleaved: seeds 0-9 50.8 -> 50.9, held-out 10-19 49.9 -> 50.0, none lost. At
            # deterministic 10 it was even (50.7 / 49.4 vs 50.7 / 49.5), so that mode keeps the
            # copy and its gardens (daily puzzles, goldens) are unchanged
            lns_model = "copy" if budget.deterministic else LNS_MODEL_WALL
        if lns_model not in ("copy", "small"):
            raise ValueError(f"lns_model: expected 'copy' or 'small', got {lns_model!r}")
        if closing:
            # after the annealing the neighbourhood search is skipped (CLOSE_ANNEAL_MAX)
            upto = 0.0 if annealed and CLOSE_ANNEAL_MAX is not None else min(upto, CLOSE_LNS_UPTO)
        best, best_points = improve(solo, tiles, hint, hint_points, ceiling, random.Random(seed), steps, budget,
                                    upto=upto, small=lns_model == "small")
        if best_points >= ceiling:
            _check(best, best_points, catalog, "counting bound")
            return SoloResult("optimal", best, best_points, ceiling, board, time.perf_counter() - budget.started,
                              heuristic_points, budget.work, counted, ceiling)
        if closing and not control.cancelled:
            # beyond REFUTE_MAX_TILES with a large budget: the refutation from the neighbourhood search's
            # garden, with most of what is left (the full solve never improved a 14-tile garden)
            best, best_points, answer = refuted(best, best_points, CLOSE_REFUTE_SHARE)
            if answer is not None:
                return answer
        # a complete assignment (areas as trees) built from the garden: CP-SAT starts from it at once
        hinted = solo.hint_garden(best)
        if hinted != best_points:
            raise ModelMismatch(f"hint: assignment worth {hinted} != pure scorer {best_points}")
    if presolve is None:
        # measured: presolve pays back on 7 tiles (more proofs) but eats the whole budget on 14,
        # and is wasted when the hint already meets the posted counting bound (proof is immediate)
        presolve = len(tiles) <= catalog.setup.rounds_per_stage and best_points < ceiling
    if split_share is None:
        # measured (deterministic 10, one worker): 7 tiles, seed 5 gets a better garden (15, the
        # counting bound) that the full solve alone missed; 14 tiles: no choice is refuted and no
        # garden improves, only wall time is lost (model copies to presolve), so off there
        split_share = 0.0 if long else SPLIT_SHARE
    first = FULL_FIRST if hint and split_share > 0 else 1.0
    result = budget.run(solo, tiles, max(0.1, first * budget.left()), presolve=presolve)
    if first < 1.0 and result.status not in ("optimal", "infeasible") and not budget.stop():
        return _split_phase(solo, tiles, catalog, best, best_points, result, budget, split_share, presolve,
                            board, heuristic_points, ceiling, counted)
    status, placements, points, bound = result.status, result.placements, result.objective, result.bound
    if placements is None and hint:
        # the full solve stopped before it had read its hint back: the hinted garden is a solution
        # of this model (checked below), bounded by the field counts
        status, placements, points = "feasible", best, None
    if status == "feasible":
        # the field-count bound is posted in the model, so a looser CP-SAT bound only means its
        # linear relaxation was not built yet; report the tighter of the two
        bound = ceiling if bound is None or bound <= 0 else min(bound, ceiling)
        exact = solo_points(placements, catalog)
        if points is None or points != exact:
            # the solution may not have its largest areas chosen yet: have CP-SAT accept the
            # garden with its exact areas (placements fixed, exact assignment hinted)
            points = _rescore(solo, tiles, placements, budget)
    if placements is not None:
        _check(placements, points, catalog, status)
    return SoloResult(status, placements, points, bound, board, time.perf_counter() - budget.started, heuristic_points,
                      budget.work, counted, ceiling)


# Restarts and beam plans per unit of budget, per tile squared. With a wall-clock limit: the
# measured cost in seconds (14 tiles, CPU time, load 1.5-4.8: 0.006-0.019 s per greedy restart,
# 0.3-0.85 s per beam plan of width 32, i.e. ~0.00006 and ~0.0027 x 196; rounded up for load).
# With a deterministic limit the rates the first, slower code was calibrated with (0.15 s and
# 2-2.5 s for 14 tiles), kept as they were so a deterministic request keeps its garden (the
# stored daily puzzles and tests depend on it): 45 restarts and 1 plan for 14 tiles at 10 units.
GREEDY_SECONDS = 0.0001
BEAM_SECONDS = 0.004
GREEDY_PER_UNIT = 0.0008
BEAM_PER_UNIT = 0.013
LNS_MODEL_WALL = "small"  # the neighbourhood step model with a wall limit ("copy": the model clone)
LNS_SHARE = 0.9  # of the budget for the neighbourhood search on sequences longer than a stage
FULL_FIRST = 0.4  # of the budget for the first full solve when the split search follows
SPLIT_SHARE = 0.8  # of the budget left after the first full solve, for the search split by scored types


# The annealing search (anneal.py) on sequences longer than a stage, after the beam: ANNEAL_SHARE of the budget
# (ANNEAL_SHARE_REFUTED up to REFUTE_MAX_TILES, where the refutation search follows), in runs of ANNEAL_RUN_EVALS
# gardens; a unit of deterministic time is ANNEAL_EVALS_PER_UNIT evaluated gardens (compiled: ~0.85 s of CPU, like
# CP-SAT's unit; the pure module is ~40x slower, same gardens). Measured 2 Dec (seeds 0-9, deterministic 10 units,
# docs/journal/versailles-issue6.md): 14 tiles 50.7 points -> 51.9 (share 0.3), 52.1 (0.6), gap 4.8 -> 3.4; at 8
# tiles 0.6 cost proofs (6/10 -> 5/10: the refutation got 4 units, not 10); 0.1 kept the 6/10 and 3/10 proofs at 8
# and 10 tiles and their points (37.2, 42.5) but each proof took a unit more, so up to REFUTE_MAX_TILES it is off.
ANNEAL_SHARE = 0.6
# With a wall-clock limit of at most QUICK_WALL seconds on a sequence beyond REFUTE_MAX_TILES (None: never): the
# greedy gets QUICK_GREEDY_SHARE of the budget (at least 8 restarts), no beam search, the annealing runs until
# QUICK_UPTO of the budget, and no CP-SAT model is built. Measured 6 Dec (14 tiles, one worker, quiet machine, sums
# over seeds 0-19, the pipeline -> this): 1 s 1012 -> 1023 points, 2 s 1023 -> 1032, 5 s 1032 -> 1038, 10 s
# 1037 -> 1041; 30 s (seeds 0-9) 524 -> 526; the same bounds (the counting bound: CP-SAT never lowered it), and the
# calls end at 0.95 of the limit instead of 1.13 x 1 s. Deterministic requests keep the pipeline (their gardens are
# the daily puzzles' and the goldens'; at 10 units the annealing alone gave 522 against 521, seeds 0-9).
QUICK_WALL: float | None = 30.0
QUICK_GREEDY_SHARE = 0.05
QUICK_UPTO = 0.95
ANNEAL_SHARE_REFUTED = 0.0
# Before the closing refutation (budgets of CLOSE_REFUTE_MIN and more) the annealing gets at most this many units (or
# seconds) and the neighbourhood search is skipped, so the refutation gets most of the budget (None: no cap, and the
# neighbourhood search up to CLOSE_LNS_UPTO as before the annealing). Measured 2 Dec (14 tiles, 120 units, seeds
# 0, 1, 2, 4, 6 against no cap): seed 6 proven optimal (55, in 109.2 units; open at 55/56 without the cap), seed 2
# proven in 59.2 units instead of 111.2, seeds 0 and 1 the same (51, 50), seed 4 one point lower (52, was 53).
CLOSE_ANNEAL_MAX: float | None = 20.0
ANNEAL_RUN_EVALS = 100_000
ANNEAL_EVALS_PER_UNIT = 200_000
ANNEAL_EVALS_PER_SECOND = 400_000  # with a wall limit only a cap: the clock ends the search
# Of the budget for the refutation search on sequences longer than a stage, up to REFUTE_MAX_TILES. 0.5 until 6 Dec
# (set when the search ran 12-17k nodes a second; it runs ~46k since); 0.8 measured 6 Dec at 10 units, seeds 0-9
# unless said: 8 tiles proven 6 -> 7 (seeds 10-19: 7 -> 7; at 10 s wall 6 -> 7), 10 tiles 3 -> 3 (10 s: 3 -> 3,
# gap 2.5 -> 2.4), 12 tiles 1 -> 2; no average lower.
REFUTE_SHARE = 0.8
REFUTE_MAX_TILES = 13  # (beyond: only the closing refutation below, from CLOSE_REFUTE_MIN)
# Sequences of at most a stage (7 tiles: the intermediate scoring alone) get this share for the refutation search
# before the full CP-SAT solve (0: the solve alone, as until 6 Dec). Measured 6 Dec (7 tiles, seeds 0-19, one
# worker, wall limit): proven 11 -> 18 of 20 at 1 s, 12 -> 19 at 3 s, 15 -> 19 at 10 s (p95 10.0 s -> 2.4 s, 1.1 s
# with the greedy share below); CP-SAT had left seed 7 at 18 / 19 after 10 s, the search raises it to 19 in 131 nodes
# (docs/versailles.md).
SHORT_REFUTE_SHARE = 0.8
# and with a wall limit their greedy restarts get this share instead of 0.3 (the refutation raises the garden):
# at 10 s the 400 restarts took 0.9 s of the 1.0 s the five seeds raised by the search needed, 40 take 0.1 s (the
# same 19 proofs; 18 at 1 s either way). Deterministic requests keep 0.3, so their gardens do not change.
SHORT_GREEDY_SHARE_WALL = 0.03
# Longer sequences with a budget of at least CLOSE_REFUTE_MIN units (or seconds; None: never): the neighbourhood
# search stops at CLOSE_LNS_UPTO of the budget and the refutation gets CLOSE_REFUTE_SHARE of what is left.
CLOSE_REFUTE_MIN: float | None = 100.0
CLOSE_LNS_UPTO = 0.5
CLOSE_REFUTE_SHARE = 0.9
REFUTE_NODES_PER_UNIT = 40_000  # search nodes counted as one unit of deterministic time, set against CP-SAT's own unit in one process (bench/refute_unit.py, 1 Dec 09:12, the compiled search with rec's bound loop as the typed helper _bounds, docs/journal/versailles-issue6.md): honest unit 33,477 / 39,063 / 40,288 / 42,732 / 40,936 over five rounds (median 40,288; CP-SAT 0.78-0.89 s of CPU per unit, the search 42.8-51.6k nodes/s), rounded down; pure Python gives the same deterministic answers, only slower. Was 34,000 (1 Dec 05:36, window-index fields, median 34,327), 25,000 (1 Dec 02:39, per-reach byte arrays and typed helpers, median 25,173), 16,000 (1 Dec 00:36, the state arrays, median 16,289), 10,000 (1 Dec 00:04, int fields without the state arrays, median 10,470), 8,000 (30 Nov 22:35, the tuple-field search), 9,000, 15,000
REFUTE_FIRST_WALL = True  # with a wall limit: refute before the beam when the greedy garden is 1 below the counting bound
REFUTE_FIRST_SHARE = 0.8  # of what is left, for that early refutation
REFUTE_SHARED = True  # refute plans in bulk through a scoring's choice several open plans share (refute._refute_shared)
REFUTE_NODES_PER_SECOND = 46_000  # with a wall-clock limit (the clock stops the search too): the compiled search with rec's bound loop as the typed helper _bounds, 42.8-51.6k/s (median 46.7k) at load 7-8 (bench/refute_unit.py, 1 Dec 09:12; 1.16x the 39,000 build in 14 simultaneous pairs); was 39,000 (1 Dec 05:36), 28,000 (1 Dec 02:39), 20,000


def _anneal_step(tiles: Sequence[Tile], catalog: Catalog, board: int, garden: list[Placement], points: int,
                 ceiling: int, budget: Budget, share: float, seed: int) -> tuple[list[Placement], int]:
    """`anneal.anneal_garden` with `share` of the budget: an evaluation count (ANNEAL_EVALS_PER_UNIT, charged
    to the budget, so a deterministic request gives the same garden) or, with a wall limit, the clock as well.
    Its garden replaces `garden` when it scores more (pure scorer)."""
    if budget.deterministic:
        evals = int(share * budget.total * ANNEAL_EVALS_PER_UNIT)
        stop = lambda: budget.control.cancelled  # noqa: E731
    else:
        evals = int(share * budget.total * ANNEAL_EVALS_PER_SECOND)
        upto = min(1.0, (budget.spent() + share * budget.total) / budget.total)
        stop = lambda: budget.stop(upto)  # noqa: E731
    if evals < 1:
        return garden, points
    restarts = max(1, evals // ANNEAL_RUN_EVALS)
    found = anneal.anneal_garden(tiles, catalog, board, random.Random(f"anneal {seed}"), evals, restarts,
                                 ceiling, stop)
    if budget.deterministic:
        budget.work += found.evals / ANNEAL_EVALS_PER_UNIT
    exact = solo_points(found.placements, catalog)
    if exact != found.points:
        raise ModelMismatch(f"annealing: bit-mask points {found.points} != pure scorer {exact}")
    return (found.placements, exact) if exact > points else (garden, points)


def _refute_step(tiles: Sequence[Tile], catalog: Catalog, garden: list[Placement], points: int, board: int,
                 budget: Budget, share: float) -> tuple[bool, list[Placement], int, int]:
    """`refute.raise_or_refute` within `share` of the budget (a node count, so a deterministic
    request gives the same answer; the nodes are charged to the budget at REFUTE_NODES_PER_UNIT).
    A better garden is taken only when it fits the board (the later CP-SAT searches start from it);
    when the search proves it optimal it is optimal on any board (the refutation does not depend on
    the board), and if it does not fit, its value is only the bound. Returns (proved, garden,
    points, bound): no garden on any board scores more than bound (the largest counting bound of a
    plan left open, or the garden's points)."""
    rate = REFUTE_NODES_PER_UNIT if budget.deterministic else REFUTE_NODES_PER_SECOND
    mine = share * max(0.0, budget.left())
    nodes_budget = max(1000, round(mine * rate))
    # with a wall limit the clock also stops it (a loaded machine runs fewer nodes per second than
    # the rate assumes); a deterministic request stops on its node count only
    until = None if budget.deterministic else time.perf_counter() + mine
    # (raise_or_refute takes an arrangement only when it is a legal garden, at its solo points)
    found, found_points, bound, nodes, proved = refute.raise_or_refute(tiles, catalog, garden, points,
                                                                       nodes_budget, shared=REFUTE_SHARED,
                                                                       stop=lambda: budget.control.cancelled or (
                                                                           until is not None
                                                                           and time.perf_counter() > until))
    if budget.deterministic:
        budget.work += nodes / REFUTE_NODES_PER_UNIT
    fits = all(p.x + 1 < board and p.y + 1 < board for p in found)
    # a proven garden must fit too (until 6 Dec it was returned as it was); when it does not, its value is the bound
    # returned (a proof leaves bound == found_points) and the searches after this one look for a garden that fits
    if fits and (proved or found_points > points):
        return proved, found, found_points, bound
    return False, garden, points, bound


def split_search(solo: SoloModel, tiles: Sequence[Tile], catalog: Catalog, best: list[Placement], best_points: int,
                 budget: Budget, share: float) -> tuple[list[Placement], int, int]:
    """Search split by the scored types: for each choice of types per scoring whose counting bound
    beats the garden (largest first), CP-SAT on a copy of the model with those types fixed as the
    scored ones and the objective >= garden + 1. A solution is a better garden (the target
    rises); an infeasible answer refutes the choice for good (for the target and every higher
    one). The choices still open bound the optimum: returns (garden, points, bound), bound =
    points when every choice was refuted, i.e. the garden is optimal on this board.
    Runs within `share` of what is left of the budget, one worker."""
    plans = refute.plans(tiles, catalog)
    end = budget.spent() + share * max(0.0, budget.left())
    refuted: set[int] = set()
    tried_at: dict[int, int] = {}
    while True:
        todo = [i for i, (count, _) in enumerate(plans)
                if count > best_points and i not in refuted and tried_at.get(i) != best_points + 1]
        if not todo or budget.control.cancelled or budget.spent() >= end:
            break
        i = todo[0]
        count, chosen = plans[i]
        target = best_points + 1
        tried_at[i] = target
        # a copy of the model with the choice and the target as constraints (presolve uses them;
        # as assumptions it could not): same variables, so the solution reads back as usual
        part = solo.model.clone()
        # without the garden's hint: it holds other scored types, and with it seed 5 of the 7-tile
        # bench missed the garden at the counting bound that it finds without (deterministic 10)
        part.clear_hints()
        part.add(solo.objective >= target)
        for cp, types in enumerate(chosen):
            for t in catalog.garden_types:
                area = solo.areas.get((cp, t))
                if area is not None:
                    part.add(area.use == (1 if t in types else 0))
        res = budget.run(dataclasses.replace(solo, model=part), tiles,
                         max(0.05, (end - budget.spent()) / len(todo)), workers=1)
        if res.status == "infeasible":
            refuted.add(i)
        elif res.placements is not None:
            exact = solo_points(res.placements, catalog)
            if exact > best_points:
                best, best_points = res.placements, exact
    bound = max([best_points] + [count for i, (count, _) in enumerate(plans) if i not in refuted])
    return best, best_points, bound


def _split_phase(solo: SoloModel, tiles: Sequence[Tile], catalog: Catalog, best: list[Placement], best_points: int,
                 first: SoloSolve, budget: Budget, share: float, presolve: bool, board: int, hint_points: int,
                 ceiling: int, counted: int) -> SoloResult:
    """After a first full solve that proved nothing: the search split by scored types, then the
    full solve again (hinted with the best garden) with what is left. Points are the pure
    scorer's; the model's value of the returned garden is checked against them (`_rescore`)."""
    bound = ceiling if first.bound is None or first.bound <= 0 else min(first.bound, ceiling)
    if first.placements is not None:
        exact = solo_points(first.placements, catalog)
        if exact > best_points:
            best, best_points = first.placements, exact
    best, best_points, split_bound = split_search(solo, tiles, catalog, best, best_points, budget, share)
    bound = min(bound, split_bound)
    status = "optimal" if bound <= best_points else "feasible"
    if status == "feasible" and not budget.stop():
        if solo.hint_garden(best) != best_points:
            raise ModelMismatch("hint: assignment worth != pure scorer")
        again = budget.run(solo, tiles, max(0.1, budget.left()), presolve=presolve)
        if again.placements is not None:
            exact = solo_points(again.placements, catalog)
            if exact > best_points:
                best, best_points = again.placements, exact
        if again.bound is not None and again.status != "infeasible" and again.bound > 0:
            bound = min(bound, again.bound)
        if again.status == "optimal" or bound <= best_points:
            status, bound = "optimal", best_points
    if _rescore(solo, tiles, best, budget) != best_points:
        raise ModelMismatch(f"type split: the model values the garden differently from the pure scorer {best_points}")
    _check(best, best_points, catalog, status)
    return SoloResult(status, best, best_points, bound, board, time.perf_counter() - budget.started, hint_points,
                      budget.work, counted, ceiling)


def _rescore(solo: SoloModel, tiles: Sequence[Tile], placements: list[Placement], budget: Budget) -> int:
    """The model's value of a garden: the same model with the placements assumed and the exact
    areas hinted (no second model to build), one worker, presolve off."""
    keep = []
    for i, p in enumerate(placements):
        rotation = canonical_rotation(tiles[i], p.rotation)
        want = (p.x + solo.offset[0], p.y + solo.offset[1], rotation)
        keep.extend(lit for o, lit in zip(solo.options[i], solo.place[i]) if o == want)
    if len(keep) != len(placements):
        raise ModelMismatch("a returned garden is not a placement of the model")
    solo.model.clear_assumptions()
    solo.model.add_assumptions(keep)
    solo.hint_garden(placements)
    try:
        res = run(solo, tiles, budget.control, time_limit=5.0, work=5.0, presolve=False, workers=1, check=True)
    finally:
        solo.model.clear_assumptions()
    budget.work += res.work
    if res.objective is None:
        raise ModelMismatch("the model rejected a garden it had returned")
    return res.objective


def _check(placements: Sequence[Placement] | None, objective: int | None, catalog: Catalog, what: str) -> None:
    """The returned garden must be legal and the objective must equal the pure scorer."""
    assert placements is not None and objective is not None
    build_garden(catalog.tiles, placements)  # raises on any placement rule the model let through
    pure = solo_points(placements, catalog)
    if pure != objective:
        raise ModelMismatch(f"{what}: objective {objective} != pure scorer {pure}")
