"""The optimiser heuristics as first written (one search of the garden per candidate), kept as the
specification the fast versions in solver/games/versailles/{heuristic,beam}.py must match
gardens-for-gardens (same placements, same points, same random draws): see test_fast_heuristics.py.
Copied from the commit before the incremental areas; not used by the solver."""
from __future__ import annotations

import random
from typing import Callable, Sequence

from solver.games.versailles.beam import _bank
from solver.games.versailles.data import Catalog, Tile
from solver.games.versailles.heuristic import _targets
from solver.games.versailles.rules import (Cell, Placement, distinct_rotations, footprint, legal_placements,
                                           neighbours, placed_fields)
from solver.games.versailles.scoring import area_points, largest_areas, solo_checkpoints

_STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1))


def _component_size(fields: dict[Cell, str], start: list[Cell], counts: set[str]) -> int:
    """Size of the largest contiguous group of `counts` fields touching any of `start`."""
    seen: set[Cell] = set()
    best = 0
    for s in start:
        if s in seen or fields.get(s) not in counts:
            continue
        group = {s}
        stack = [s]
        while stack:
            for n in neighbours(stack.pop()):
                if n not in group and fields.get(n) in counts:
                    group.add(n)
                    stack.append(n)
        seen |= group
        best = max(best, len(group))
    return best


def greedy_garden_plain(tiles: Sequence[Tile], catalog: Catalog, rng: random.Random, board: int | None = None,
                  restarts: int = 4, ceiling: int | None = None,
                  stop: Callable[[], bool] | None = None) -> tuple[list[Placement], int]:
    """Best of `restarts` randomised greedy runs: each tile goes where it most enlarges the areas of
    the garden types the coming scoring is likely to count (those with the most fields).

    With `board`, every garden keeps its bounding box within board x board fields and the first tile
    unturned; the result is shifted to touch the top-left corner, so it is a valid model hint.
    Stops early once a garden reaches `ceiling` points or `stop()` says so (the caller's clock or
    cancellation; restarts are counted, never timed, here, and all randomness comes from `rng`).
    """
    checkpoints = solo_checkpoints(len(tiles), catalog)
    jokers = set(catalog.joker_types)
    best: tuple[int, list[Placement]] | None = None
    for attempt in range(max(1, restarts)):
        if best is not None and ((ceiling is not None and best[0] >= ceiling)
                                 or (stop is not None and stop())):
            break  # nothing left to gain, or the caller says stop
        # weights per type for each tile index: types of the next scoring count most
        plan = []
        for upto, k in checkpoints:
            plan.append((upto, _targets(tiles, catalog, upto, k, rng)))
        fields: dict[Cell, str] = {}
        areas = {t: 0 for t in catalog.garden_types}
        placed: list[Placement] = []
        total = 0
        noise = 0.0 if attempt == 0 else 0.6
        for i, tile in enumerate(tiles):
            stage_targets = next(tg for upto, tg in plan if upto > i)
            later = set().union(*(set(tg) for upto, tg in plan if upto > i))
            weight = {t: (4.0 if t in stage_targets else 1.5 if t in later else 0.2) for t in catalog.garden_types}
            options = legal_placements(fields, tile) if i else [Placement(tile.id, 0, 0, 0)]
            scored = []
            for p in options:
                new = placed_fields(tile, p)
                if board is not None and not _fits(fields, new, board):
                    continue
                trial = {**fields, **new}
                value = 0.0
                for t in catalog.garden_types:
                    counts = {t} | jokers
                    if any(c in counts for c in new.values()):
                        size = max(areas[t], _component_size(trial, list(new), counts))
                    else:
                        size = areas[t]
                    value += weight[t] * size
                scored.append((value + noise * rng.random(), p, new))
            if not scored:
                break
            _, p, new = max(scored, key=lambda s: s[0])
            placed.append(p)
            fields.update(new)
            for t in catalog.garden_types:
                counts = {t} | jokers
                if any(c in counts for c in new.values()):
                    areas[t] = max(areas[t], _component_size(fields, list(new), counts))
            for upto, k in checkpoints:
                if upto == i + 1:
                    total += area_points(largest_areas(fields, catalog), catalog, k)
        if len(placed) == len(tiles) and (best is None or total > best[0]):
            best = (total, placed)
    if best is None:
        return [], 0
    placements = best[1]
    dx = min(p.x for p in placements)
    dy = min(p.y for p in placements)
    return [Placement(p.tile, p.x - dx, p.y - dy, p.rotation) for p in placements], best[0]


def _fits(fields: dict[Cell, str], new: dict[Cell, str], board: int) -> bool:
    xs = [c[0] for c in fields] + [c[0] for c in new]
    ys = [c[1] for c in fields] + [c[1] for c in new]
    return max(xs) - min(xs) < board and max(ys) - min(ys) < board


def beam_garden_plain(tiles: Sequence[Tile], catalog: Catalog, targets: Sequence[Sequence[str]], width: int = 32,
                board: int | None = None, later_weight: float = 0.5, room_weight: float = 0.2, per_parent: int | None = 3,
                stop: Callable[[], bool] | None = None) -> tuple[list[Placement], int]:
    """Best garden of a beam search aiming at `targets` (one type set per scoring, as
    `solo_checkpoints`). Returns (placements shifted to the top-left corner, solo points), or
    ([], 0) when stopped early or nothing fits the board."""
    checkpoints = solo_checkpoints(len(tiles), catalog)
    jokers = set(catalog.joker_types)
    types = list(catalog.garden_types)
    counts_for = {t: {t, *jokers} for t in types}
    layouts = [[(r, tile.oriented(r)) for r in distinct_rotations(tile)] for tile in tiles]

    def weights(i: int) -> dict[str, float]:
        """Weight of each type's largest area when ranking gardens of i+1 tiles."""
        w = {t: 0.0 for t in types}
        first = True
        for (upto, _), tg in zip(checkpoints, targets):
            if upto <= i:
                continue
            for t in tg:
                w[t] = max(w[t], 1.0 if first else later_weight)
            first = False
        return w

    def area_of(fields: dict[Cell, str], start: Sequence[Cell], t: str) -> tuple[int, int]:
        """(size, free neighbouring fields) of the largest group of type t touching `start`."""
        counts = counts_for[t]
        seen: set[Cell] = set()
        best = (0, 0)
        for s in start:
            if s in seen or fields.get(s) not in counts:
                continue
            group = {s}
            stack = [s]
            free: set[Cell] = set()
            while stack:
                x, y = stack.pop()
                for dx, dy in _STEPS:
                    n = (x + dx, y + dy)
                    code = fields.get(n)
                    if code is None:
                        free.add(n)
                    elif code in counts and n not in group:
                        group.add(n)
                        stack.append(n)
            seen |= group
            best = max(best, (len(group), len(free)))
        return best

    # a beam entry: (fields, placements, largest area per type, anchor of the largest area per type, banked)
    first_states = []
    for r, layout in (layouts[0][:1] if board is not None else layouts[0]):
        fields = dict(zip(footprint(0, 0), layout))
        largest, where = {}, {}
        for t in types:
            cells = [c for c, code in fields.items() if code in counts_for[t]]
            size, _ = area_of(fields, cells, t) if cells else (0, 0)
            largest[t] = size
            where[t] = next((c for c in cells), None)
        first_states.append((fields, [Placement(tiles[0].id, 0, 0, r)], largest, where, 0))
    beam = first_states
    beam = _bank(beam, 1, checkpoints, targets)
    for i in range(1, len(tiles)):
        if stop is not None and stop():
            return [], 0
        w = weights(i)
        wanted = [t for t in types if w[t] > 0]
        candidates = []
        keys: set = set()
        for parent, (fields, placed, largest, where, banked) in enumerate(beam):
            xs = [c[0] for c in fields]
            ys = [c[1] for c in fields]
            x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
            frontier = set()
            for (x, y) in fields:
                for dx, dy in _STEPS:
                    n = (x + dx, y + dy)
                    if n not in fields:
                        frontier.add(n)
            anchors = {(fx - dx, fy - dy) for (fx, fy) in frontier for dx in (0, 1) for dy in (0, 1)}
            for ax, ay in sorted(anchors):
                if board is not None and (max(x1, ax + 1) - min(x0, ax) >= board
                                          or max(y1, ay + 1) - min(y0, ay) >= board):
                    continue
                cells = footprint(ax, ay)
                if any(c in fields for c in cells):
                    continue
                for r, layout in layouts[i]:
                    trial = dict(fields)
                    trial.update(zip(cells, layout))
                    new_largest = dict(largest)
                    new_where = dict(where)
                    value = banked
                    room = 0
                    for t in types:
                        counts = counts_for[t]
                        touched = [c for c, code in zip(cells, layout) if code in counts]
                        if touched:
                            size, _ = area_of(trial, touched, t)
                            if size > new_largest[t]:
                                new_largest[t] = size
                                new_where[t] = touched[0]
                    for t in wanted:
                        value += w[t] * new_largest[t]
                        if room_weight and new_where[t] is not None:
                            room += w[t] * area_of(trial, [new_where[t]], t)[1]
                    value += room_weight * room
                    mx = min(x0, ax)
                    my = min(y0, ay)
                    key = frozenset(((c[0] - mx, c[1] - my), code) for c, code in trial.items())
                    if key in keys:
                        continue
                    keys.add(key)
                    candidates.append((value, len(candidates), trial, placed, Placement(tiles[i].id, ax, ay, r),
                                       new_largest, new_where, banked, parent))
        if not candidates:
            return [], 0
        candidates.sort(key=lambda c: (-c[0], c[1]))
        if per_parent:
            kept, children = [], {}
            for c in candidates:
                if children.get(c[-1], 0) < per_parent:
                    children[c[-1]] = children.get(c[-1], 0) + 1
                    kept.append(c)
                    if len(kept) == width:
                        break
        else:
            kept = candidates[:width]
        beam = [(trial, placed + [p], lg, wh, banked) for _, _, trial, placed, p, lg, wh, banked, _ in kept]
        beam = _bank(beam, i + 1, checkpoints, targets)
    best = max(beam, key=lambda s: s[4])
    placements = best[1]
    dx = min(p.x for p in placements)
    dy = min(p.y for p in placements)
    return [Placement(p.tile, p.x - dx, p.y - dy, p.rotation) for p in placements], best[4]
