"""The optimal solo garden: heuristic hint, CP-SAT proof, and the check against the pure scorer."""
from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from typing import Sequence

from solver.games.versailles.data import Catalog, Tile
from solver.games.versailles.heuristic import greedy_garden
from solver.games.versailles.model import SoloModel, build_solo_model, run
from solver.games.versailles.rules import Placement, build_garden
from solver.games.versailles.scoring import solo_checkpoints, solo_points


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

    def as_dict(self) -> dict:
        return {"status": self.status, "points": self.points, "bound": self.bound, "board": self.board,
                "placements": [p.as_dict() for p in self.placements] if self.placements else None,
                "seconds": round(self.seconds, 3), "heuristic_points": self.heuristic_points}


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


def improve(solo: SoloModel, tiles: Sequence[Tile], placements: list[Placement], points: int, ceiling: int,
            rng: random.Random, steps: int, seed: int, deadline: float) -> tuple[list[Placement], int]:
    """Large neighbourhood search: keep all but a few tiles where they are, let CP-SAT re-place
    those few (a window of consecutive tiles or a random handful), keep any improvement."""
    n = len(tiles)
    for _ in range(steps):
        if points >= ceiling or time.perf_counter() > deadline or n < 3:
            break
        size = min(n - 1, rng.choice((3, 4)))
        if rng.random() < 0.5:
            start = rng.randrange(n - size + 1)
            free = set(range(start, start + size))
        else:
            free = set(rng.sample(range(n), size))
        keep = []
        for i, p in enumerate(placements):
            if i not in free:
                want = (p.x + solo.offset[0], p.y + solo.offset[1], p.rotation)
                keep.extend(lit for o, lit in zip(solo.options[i], solo.place[i]) if o == want)
        solo.model.clear_assumptions()
        solo.model.add_assumptions(keep)
        solo.hint_garden(placements)
        step = run(solo, tiles, max(0.05, min(2.0, deadline - time.perf_counter())), seed,
                   deterministic_limit=1.0, presolve=False)
        if step.placements is not None:
            exact = solo_points(step.placements, solo.catalog)
            if exact > points:
                placements, points = step.placements, exact
    solo.model.clear_assumptions()
    return placements, points


def solve_solo(tiles: Sequence[Tile], catalog: Catalog, time_limit: float = 10.0, seed: int = 0,
               board: int | None = None, restarts: int | None = None, presolve: bool | None = None,
               search_steps: int | None = None) -> SoloResult:
    """Maximise intermediate + final garden points of one player receiving `tiles` in this order.

    Greedy garden -> CP-SAT large neighbourhood search (up to 7 tiles, about half the time) -> full
    CP-SAT solve from the best garden, which proves optimality or reports the best bound.
    """
    started = time.perf_counter()
    board = board or default_board(len(tiles))
    checkpoints = solo_checkpoints(len(tiles), catalog)
    ceiling = counting_bound(tiles, catalog)
    if restarts is None:
        # about 30% of the limit at the measured ~0.0008 s x tiles^2 per restart (0.035 s for 7
        # tiles, 0.15 s for 14); a count, not a clock, so the same request gives the same garden
        restarts = max(8, min(200, round(0.3 * time_limit / (0.0008 * len(tiles) ** 2))))
    # the count decides on an idle machine; the clock only cuts the restarts short under heavy load
    hint, hint_points = greedy_garden(tiles, catalog, random.Random(seed), board, restarts, ceiling,
                                      deadline=started + 0.6 * time_limit)
    solo = build_solo_model(tiles, catalog, checkpoints, board)
    best, best_points = hint, hint_points
    if hint:
        # measured: a neighbourhood step on 14 tiles takes 4-8 s and never improved the greedy
        # garden within 10 s, on 7 tiles it takes ~0.2 s and sometimes does
        small = len(tiles) <= catalog.setup.rounds_per_stage
        steps = search_steps if search_steps is not None else (3 * len(tiles) if small else 0)
        best, best_points = improve(solo, tiles, hint, hint_points, ceiling, random.Random(seed), steps, seed,
                                    started + time_limit / 2)
        # a complete assignment (areas as trees) built from the garden: CP-SAT starts from it at once
        hinted = solo.hint_garden(best)
        if hinted != best_points:
            raise ModelMismatch(f"hint: assignment worth {hinted} != pure scorer {best_points}")
    left = max(0.1, time_limit - (time.perf_counter() - started))
    if presolve is None:
        # measured: presolve pays back on 7 tiles (more proofs) but eats the whole budget on 14,
        # and is wasted when the hint already meets the posted counting bound (proof is immediate)
        presolve = len(tiles) <= catalog.setup.rounds_per_stage and best_points < ceiling
    result = run(solo, tiles, left, seed, presolve=presolve)
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
            points = _rescore(tiles, catalog, checkpoints, board, placements, seed)
    if placements is not None:
        _check(placements, points, catalog, status)
    return SoloResult(status, placements, points, bound, board, time.perf_counter() - started, hint_points)


def _rescore(tiles: Sequence[Tile], catalog: Catalog, checkpoints, board: int, placements: list[Placement],
             seed: int) -> int:
    """The model's value of a garden with its placements fixed, starting from the exact areas."""
    fixed = build_solo_model(tiles, catalog, checkpoints, board)
    fixed.fix(placements)
    fixed.hint_garden(placements)
    res = run(fixed, tiles, 5.0, seed, presolve=False)
    if res.objective is None:
        raise ModelMismatch("the model rejected a garden it had returned")
    return res.objective


def _check(placements: Sequence[Placement] | None, objective: int | None, catalog: Catalog, what: str) -> None:
    """The returned garden must be legal and the objective must equal the pure scorer."""
    assert placements is not None and objective is not None
    build_garden(catalog.tiles, placements)  # raises on any placement rule the model let through
    pure = solo_points(placements, catalog)
    if pure != objective:
        raise ModelMismatch(f"{what}: CP-SAT objective {objective} != pure scorer {pure}")
