"""Hints for Versailles: where to put the next tile, ranked by the garden points each placement reaches."""
from __future__ import annotations

import random
import time
from dataclasses import replace
from typing import Sequence

from solver.core.solve import SolveControl
from solver.games.versailles import anneal
from solver.games.versailles.data import Catalog, Tile
from solver.games.versailles.model import build_solo_model, canonical_rotation, run
from solver.games.versailles.rules import (Cell, Garden, Placement, build_garden, distinct_rotations, legal_placements,
                                           placed_fields)
from solver.games.versailles.scoring import (IncrementalAreas, area_points, largest_areas, solo_checkpoints,
                                             solo_points)
from solver.games.versailles.solo import (ANNEAL_EVALS_PER_SECOND, ANNEAL_EVALS_PER_UNIT, ModelMismatch,
                                          counting_bound, default_board)

# On sequences longer than a stage with at least HINT_ANNEAL_MIN upcoming tiles (None: never), a candidate's
# reachable points are its greedy continuation improved by an annealing run that moves only the upcoming tiles, with
# no CP-SAT model: measured on 14-tile sequences at 5 s (docs/versailles.md), CP-SAT never lowered the counting bound
# with 2 or more upcoming tiles and its answers stayed 1-7 points below gardens known to be reachable. Up to a stage
# the model is small and proves its answers, so it stays.
HINT_ANNEAL_MIN: int | None = 2
# With exactly one upcoming tile, every placement of it is tried and scored by the pure scorer (about 150 per
# candidate, 0.03 s on 14 tiles): the exact best continuation on any board, where CP-SAT left 14-tile answers
# unproven at 5 s (False: the CP-SAT search as before).
EXHAUSTIVE_LAST = True


def game_checkpoints(catalog: Catalog) -> list[tuple[int, int]]:
    rounds = catalog.setup.rounds_per_stage
    return [(rounds, catalog.setup.intermediate_areas), (catalog.setup.stages * rounds, catalog.setup.final_areas)]


def points_now(prefix: Sequence[dict[Cell, str]], catalog: Catalog) -> int:
    """Points banked at scorings already passed plus the next scoring's points if it came now.

    prefix[i] holds the garden's fields after i + 1 tiles. The tile just placed belongs to the first
    scoring at or after it: the 7th tile to the intermediate one (2 largest areas), not also to the
    final one (the claims audit of 1 Dec 05:00 found the 7th tile's points counting both).
    """
    total = 0
    placed = len(prefix)
    for n, k in game_checkpoints(catalog):
        if n < placed:
            total += area_points(largest_areas(prefix[n - 1], catalog), catalog, k)
        else:
            return total + area_points(largest_areas(prefix[-1], catalog), catalog, k)
    return total


def rank_placements(placements: Sequence[Placement], garden: Garden, tile: Tile, upcoming: Sequence[Tile],
                    catalog: Catalog, control: SolveControl, top: int,
                    follow: Sequence[Placement] | None = None) -> list[dict]:
    """Legal placements of `tile` ranked by points now; with `upcoming` tiles, the best `top` are
    re-ranked by the CP-SAT optimum over them, every search through `control` (see `_reachable`). With one upcoming
    tile every placement is re-ranked (exactly), and the best `top` of them are returned. `follow` (a legal
    continuation of the garden placing `tile` and then `upcoming`: the previous hint's, checked by the caller): its
    placement of `tile` is re-ranked too, its search starting from that garden, so it reaches at least its points
    (following the top hint lost the line a previous hint promised: 52 promised, 51 reached, the puzzle
    walkthrough of 7 Dec)."""
    prefix: list[dict[Cell, str]] = []
    fields: dict[Cell, str] = {}
    for p in placements:
        fields = {**fields, **placed_fields(catalog.tiles[p.tile], p)}
        prefix.append(fields)
    ranked = []
    for p in legal_placements(garden.fields, tile):
        after = {**garden.fields, **placed_fields(tile, p)}
        areas = largest_areas(after, catalog)
        ranked.append({"placement": p, "points": points_now(prefix + [after], catalog),
                       "areas": sum(areas[t] for t in catalog.garden_types)})
    # more points first; then larger areas overall (they may count later), then position for stability
    ranked.sort(key=lambda r: (-r["points"], -r["areas"], r["placement"].y, r["placement"].x,
                               r["placement"].rotation))
    # With one upcoming tile every placement is re-ranked (its reachable value is exact and cheap: every legal
    # placement of the last tile, scored), so a placement worth less now but more at the end is found: with only
    # the best `top` by points now, the docs' own example recommended 7 where 8 was reachable (the rules audit of
    # 7 Dec). Longer futures re-rank the best `top` by points now (each a search of its own).
    exhaustive = bool(upcoming) and EXHAUSTIVE_LAST and len(upcoming) == 1
    every = ranked
    if not exhaustive:
        ranked = ranked[:top]
    lines = {}
    if upcoming and follow:
        here = placed_fields(tile, follow[0])
        item = next(r for r in every if placed_fields(tile, r["placement"]) == here)  # (legal: the caller checked)
        if item not in ranked:
            ranked.append(item)
        lines[id(item)] = list(placements) + list(follow)
    if upcoming:
        _reachable(ranked, placements, tile, upcoming, catalog, control, every, lines)
        ranked.sort(key=lambda r: (-(r["reachable"] if r["reachable"] is not None else -1), -r["points"],
                                   -r["areas"]))
        ranked = ranked[:top]
    out = []
    for r in ranked:
        item = {**r["placement"].as_dict(), "points": r["points"]}
        if upcoming:
            item.update({"reachable": r["reachable"], "status": r["status"], "bound": r["bound"],
                         "optimal_on_any_board": r["optimal_on_any_board"]})
            if r.get("continuation") is not None and r["reachable"] is not None:
                item["continuation"] = [p.as_dict() for p in _checked(r, placements, tile, upcoming, catalog)]
        out.append(item)
    return out


def _checked(r: dict, placements: Sequence[Placement], tile: Tile, upcoming: Sequence[Tile],
             catalog: Catalog) -> list[Placement]:
    """The option's continuation (the upcoming tiles' placements of the garden that reaches its value), checked by
    the pure rules (each placement legal at its turn) and scorer (worth `reachable`) before it leaves: a client
    following it reaches that value. (Without it a bot told "36 reachable" could not find the garden: the next
    hint, re-ranking other candidates, said 35; the bot walkthrough of 7 Dec.)"""
    whole = list(placements) + [r["placement"]] + list(r["continuation"])
    if [p.tile for p in r["continuation"]] != [t.id for t in upcoming]:
        raise ModelMismatch("hint: a continuation does not place the upcoming tiles in order")
    try:
        build_garden(catalog.tiles, whole)
    except ValueError as exc:  # (IllegalPlacement: an engine bug, not the request's: never INVALID_ARGUMENT)
        raise ModelMismatch(f"hint: a continuation breaks a placement rule: {exc}") from None
    if solo_points(whole, catalog) != r["reachable"]:
        raise ModelMismatch(f"hint: a continuation scores {solo_points(whole, catalog)}, not {r['reachable']}")
    return list(r["continuation"])


def _reachable(ranked: list[dict], placements: Sequence[Placement], tile: Tile, upcoming: Sequence[Tile],
               catalog: Catalog, control: SolveControl, every: Sequence[dict] = (),
               lines: dict[int, list[Placement]] | None = None) -> None:
    """Sets r["reachable"], r["status"], r["bound"] for each ranked placement of `tile`: the best
    solo points over the whole sequence with the garden and that placement kept (CP-SAT). The annealing path
    (`_annealed`) may add to `ranked` a placement of `every` (all the legal placements, ranked by points now) that
    its free run found better. `lines` maps a candidate (by id) to a whole garden known for it (`follow`): its
    search starts from that garden when the greedy continuation reaches less.

    One model serves every candidate (building it is the slow part on long sequences): the garden
    is fixed, the candidate is an assumption on the tile's placement, and each search starts from a
    greedy continuation, so a garden is known before it begins. Each search gets an equal share of
    the control's limit: of the wall time left once the model is built, or of the deterministic time
    when the control is deterministic (then the clock plays no part).
    """
    started = time.perf_counter()
    fixed = list(placements)
    tiles = [catalog.tiles[p.tile] for p in fixed] + [tile] + list(upcoming)
    # room for up to 3 upcoming tiles in a line on any side: each tile reaches at most 2 fields beyond
    # the garden it touches, so with up to 3 every continuation fits the board (a search's status and
    # bound hold on any board); with more, only an option whose garden meets the counting bound is known
    # optimal on any board
    margin = 2 * min(len(upcoming), 3) + 1
    every_continuation_fits = len(upcoming) <= 3
    xs = [p.x for p in fixed] + [r["placement"].x for r in ranked]
    ys = [p.y for p in fixed] + [r["placement"].y for r in ranked]
    board = max(max(xs) - min(xs), max(ys) - min(ys)) + 2 + 2 * margin
    offset = (margin - min(xs), margin - min(ys))
    checkpoints = solo_checkpoints(len(tiles), catalog)
    # no garden of these tiles beats the counting bound (on any board): it caps a search's bound, which
    # a search cut short leaves at its LP value (319-343 for a 5-tile hint worth 7-8, claims audit of 1 Dec)
    ceiling = counting_bound(tiles, catalog)
    if EXHAUSTIVE_LAST and len(upcoming) == 1:
        _exhaustive_last(ranked, fixed, tile, upcoming[0], catalog, control, started, ceiling)
        return
    # every candidate's greedy continuation first, so the searches share only what is left after them
    starts = [_continue(fixed + [r["placement"]], upcoming, catalog, checkpoints, board, offset) for r in ranked]
    annealing = (HINT_ANNEAL_MIN is not None and len(upcoming) >= HINT_ANNEAL_MIN
                 and len(tiles) > catalog.setup.rounds_per_stage)
    known = {}  # candidate index -> its line's garden (its placement as ranked, the rest as the line lays them)
    for k, r in enumerate(ranked):
        if id(r) in (lines or {}):
            known[k] = fixed + [r["placement"]] + list(lines[id(r)][len(fixed) + 1:])
            # (a CP-SAT search starts from it only on its board; the annealing from any legal garden)
            fits = annealing or all(0 <= p.x + offset[0] <= board - 2 and 0 <= p.y + offset[1] <= board - 2
                                    for p in known[k])
            if fits and (starts[k] is None or solo_points(known[k], catalog) > solo_points(starts[k], catalog)):
                starts[k] = known[k]
    if annealing:
        _annealed(ranked, starts, len(fixed) + 1, tiles, catalog, control, ceiling, started, every)
        return
    solo = build_solo_model(tiles, catalog, checkpoints, board, offset, break_symmetry=False)
    solo.fix(fixed)
    work = control.deterministic_limit / max(1, len(ranked)) if control.deterministic_limit is not None else None
    i = len(fixed)
    for k, (r, start) in enumerate(zip(ranked, starts)):
        # wall clock: what is left of the limit (and of the call, when it has a deadline) after the
        # build and the earlier candidates, shared out
        share = _time_left(control, started) / (len(ranked) - k)
        p = r["placement"]
        want = (p.x + offset[0], p.y + offset[1], canonical_rotation(tile, p.rotation))
        solo.model.clear_assumptions()
        solo.model.add_assumptions([lit for o, lit in zip(solo.options[i], solo.place[i]) if o == want])
        solo.model.clear_hints()
        if start is not None:
            solo.hint_garden(start)  # a complete assignment: CP-SAT starts from this garden at once
        # assumptions: one worker (the core machinery is single-threaded)
        res = run(solo, tiles, control, time_limit=max(0.05, share), work=work, presolve=False, workers=1)
        found = res.placements or start
        if k in known and (found is None or solo_points(known[k], catalog) > solo_points(found, catalog)):
            found, res = known[k], replace(res, status="feasible", placements=None)  # (its line: off the board)
        if found is None:
            r.update({"reachable": None, "status": res.status, "optimal_on_any_board": False,
                      "bound": None if res.bound is None else min(res.bound, ceiling)})
            continue
        pure = solo_points(found, catalog)
        if res.status == "optimal" and pure != res.objective:
            raise ModelMismatch(f"hint: CP-SAT objective {res.objective} != pure scorer {pure}")
        r["continuation"] = list(found[i + 1:])
        status = res.status if res.placements else "feasible"
        bound = min(res.bound, ceiling) if res.bound is not None and res.bound >= pure else ceiling
        if bound == pure:
            status = "optimal"  # the garden meets a proven bound
        r.update({"reachable": pure, "status": status, "bound": bound,
                  "optimal_on_any_board": status == "optimal" and (every_continuation_fits or pure == ceiling)})
    solo.model.clear_assumptions()


def _exhaustive_last(ranked: list[dict], fixed: list[Placement], tile: Tile, last: Tile, catalog: Catalog,
                     control: SolveControl, started: float, ceiling: int) -> None:
    """`_reachable` with one upcoming tile: for each candidate, every legal placement of the last tile (the
    placement rule at its turn: no overlap, touching the garden), scored by the pure scorer. The best is the exact
    optimum on any board: "optimal", bound = reachable. With a wall limit, candidates the clock leaves no time for
    are "unknown" (reachable None, the counting bound); a deterministic request tries them all."""
    fields: dict[Cell, str] = {}
    for p in fixed:
        fields.update(placed_fields(catalog.tiles[p.tile], p))
    deterministic = control.deterministic_limit is not None
    for r in ranked:
        if control.cancelled or (not deterministic and _time_left(control, started) <= 0):
            r.update({"reachable": None, "status": "unknown", "bound": ceiling, "optimal_on_any_board": False})
            continue
        here = r["placement"]
        after = {**fields, **placed_fields(tile, here)}
        garden = fixed + [here]
        best = max(((solo_points(garden + [q], catalog), q) for q in legal_placements(after, last)),
                   key=lambda found: found[0], default=None)
        if best is None:  # (no legal placement: not on an unbounded plane, kept for safety)
            r.update({"reachable": None, "status": "infeasible", "bound": None, "optimal_on_any_board": False})
            continue
        r.update({"reachable": best[0], "status": "optimal", "bound": best[0], "optimal_on_any_board": True,
                  "continuation": [best[1]]})


# The annealing path's free run (`_annealed`): one more run, from the best candidate's garden, that moves the new
# tile too, so that a first move outside the best `top` by points now can be found (False: the candidates only)
FREE_RUN = True


def _annealed(ranked: list[dict], starts: list[list[Placement] | None], kept: int, tiles: list[Tile],
              catalog: Catalog, control: SolveControl, ceiling: int, started: float,
              every: Sequence[dict] = ()) -> None:
    """`_reachable` by annealing: each candidate's greedy continuation (`starts`, the garden and the candidate
    its first `kept` tiles), then one annealing run moving only the upcoming tiles (`anneal_continuation`) with an
    equal share of what is left of the limit (an evaluation count with a deterministic limit,
    ANNEAL_EVALS_PER_UNIT a unit; the clock too otherwise). The bound is the counting bound (valid on any board);
    "optimal" only for a garden that meets it.

    Then the free run (FREE_RUN, with `every` given and a garden to keep): one more share, annealing the best
    candidate's garden with the new tile free to move too. When it ends above every candidate, its placement of the
    new tile (an item of `every`) joins `ranked` with that garden, or raises its candidate's value: the candidates
    are the best by points now, and a move worth less now may reach more (hints followed to the end of a 14-tile
    game lost to the best garden known, see docs/versailles.md)."""
    deterministic = control.deterministic_limit is not None
    free = FREE_RUN and bool(every) and kept > 1
    runs = len(ranked) + int(free)

    def budget(k: int) -> tuple[int, float | None]:
        """Evaluations and end time of the k-th run of `runs`."""
        if deterministic:
            return int(control.deterministic_limit / runs * ANNEAL_EVALS_PER_UNIT), None
        share = max(0.0, _time_left(control, started)) / (runs - k)
        return int(share * ANNEAL_EVALS_PER_SECOND), time.perf_counter() + share

    def annealed(start: list[Placement], keep: int, k: int, seed: str) -> tuple[int, list[Placement]]:
        evals, until = budget(k)
        pure, found = solo_points(start, catalog), start
        if not control.cancelled:
            better = anneal_continuation(tiles, catalog, start, keep, evals,
                                         random.Random(f"hint {control.random_seed} {seed}"), ceiling,
                                         lambda: control.cancelled or (until is not None and time.perf_counter() > until))
            if better is not None and solo_points(better, catalog) > pure:
                pure, found = solo_points(better, catalog), better
        return pure, found

    def settle(r: dict, pure: int, found: list[Placement]) -> None:
        r["continuation"] = list(found[kept:])
        status = "optimal" if pure >= ceiling else "feasible"
        r.update({"reachable": pure, "status": status, "bound": ceiling, "optimal_on_any_board": status == "optimal"})

    gardens = []
    for k, (r, start) in enumerate(zip(ranked, starts)):
        if start is None:
            r.update({"reachable": None, "status": "unknown", "bound": ceiling, "optimal_on_any_board": False})
            continue
        pure, found = annealed(start, kept, k, str(k))
        settle(r, pure, found)
        gardens.append((pure, k, found))
    if not free or not gardens or max(gardens)[0] >= ceiling:
        return
    best, _, garden = max(gardens, key=lambda g: (g[0], -g[1]))
    pure, found = annealed(garden, kept - 1, len(ranked), "free")
    if pure <= best:
        return
    tile = tiles[kept - 1]
    moved = placed_fields(tile, found[kept - 1])
    item = next((r for r in ranked if placed_fields(tile, r["placement"]) == moved), None)
    if item is None:
        item = next((dict(r) for r in every if placed_fields(tile, r["placement"]) == moved), None)
        if item is None:  # (every legal placement is in `every`: the annealing's rules are the same)
            raise ModelMismatch("hint: the free run placed the new tile where no legal placement lies")
        item["placement"] = found[kept - 1]
        ranked.append(item)
    settle(item, pure, found)


def _time_left(control: SolveControl, started: float) -> float:
    """Seconds left of the hint's wall limit (counted from `started`) and of the call's deadline, if it has one."""
    return min(control.time_limit_s - (time.perf_counter() - started), control.seconds_left())


def _continue(fixed: list[Placement], upcoming: Sequence[Tile], catalog: Catalog,
              checkpoints: list[tuple[int, int]], board: int, offset: Cell) -> list[Placement] | None:
    """Greedy continuation: each upcoming tile where it gives the most points at the next scoring
    (ties: the larger garden-type areas in all, then the first in `legal_placements`' order). The
    areas come from `IncrementalAreas` (a candidate's areas from the tile's cells joined to the areas
    next to them) instead of a search of the whole garden per candidate: the same choices as the
    plain version kept in tests/games/versailles/test_hint_deadline.py."""
    fields: dict[Cell, str] = {}
    for p in fixed:
        fields.update(placed_fields(catalog.tiles[p.tile], p))
    areas = IncrementalAreas.of_fields(fields, IncrementalAreas.for_catalog(catalog).counts)
    types = catalog.garden_types
    out = list(fixed)
    for tile in upcoming:
        k = next((k for n, k in checkpoints if n > len(out)), checkpoints[-1][1])
        best = None
        for p in legal_placements(fields, tile):
            bx, by = p.x + offset[0], p.y + offset[1]
            if not (0 <= bx <= board - 2 and 0 <= by <= board - 2):
                continue
            layout = tile.oriented(p.rotation)
            sizes = {}
            for t in types:
                mask = areas.mask(t, layout)
                sizes[t] = max(areas.largest[t], areas.joined(t, p.x, p.y, mask)) if mask else areas.largest[t]
            value = (area_points(sizes, catalog, k), sum(sizes.values()))
            if best is None or value > best[0]:
                best = (value, p, layout)
        if best is None:
            return None
        _, p, layout = best
        out.append(p)
        fields.update(placed_fields(tile, p))
        areas.add(p.x, p.y, layout)
    return out


def anneal_continuation(tiles: Sequence[Tile], catalog: Catalog, start: Sequence[Placement], fixed: int, evals: int,
                        rng: random.Random, ceiling: int | None = None, stop=None) -> list[Placement] | None:
    """`start` (a legal garden of all `tiles`, in order) improved by one annealing run (`anneal.run`) that moves
    only the tiles after the first `fixed`: the best garden found, in `start`'s coordinates (the first `fixed`
    tiles exactly where they were), checked legal by the pure rules; None when nothing could move."""
    n = len(tiles)
    if not 0 < fixed < n or evals < 1 or len(start) != n:
        return None
    xs, ys = [p.x for p in start], [p.y for p in start]
    span = max(max(xs) - min(xs), max(ys) - min(ys)) + 2
    # room around the start for the tiles to move out to (the search re-centres the garden as it goes)
    board = max(default_board(n), span + 4)
    pad_x = (board - 2 - (max(xs) - min(xs))) // 2 - min(xs)
    pad_y = (board - 2 - (max(ys) - min(ys))) // 2 - min(ys)
    turns = [(p.rotation,) if i < fixed else tuple(sorted({*distinct_rotations(t), p.rotation}))
             for i, (t, p) in enumerate(zip(tiles, start))]
    g = anneal.Garden(tiles, catalog, board, turns)
    anchors = [(p.x + pad_x, p.y + pad_y, p.rotation) for p in start]
    if not g.legal(anchors):
        raise ModelMismatch("hint: the continuation is not a legal garden of the annealing search")
    best, _, _ = anneal.run(g, anchors, rng, evals, stop, ceiling, fixed)
    dx, dy = start[0].x - best[0][0], start[0].y - best[0][1]
    out = [Placement(t.id, x + dx, y + dy, r) for t, (x, y, r) in zip(tiles, best)]
    if out[:fixed] != list(start[:fixed]):
        raise ModelMismatch("hint: the annealing moved a tile it was to keep")
    build_garden(catalog.tiles, out)  # raises on any placement rule broken
    return out
