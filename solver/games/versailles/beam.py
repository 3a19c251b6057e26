"""Beam search for solo Versailles gardens: grow the areas of the types each scoring will count.

The greedy (`heuristic.py`) commits to one placement per tile. Here every tile is tried at every
legal position of the `width` best partial gardens kept so far; partial gardens are ranked by the
areas of the target types (the k types with most fields at each coming scoring) and, as a tie
break, by the free fields around those areas (room to grow). Gardens with the same fields (up to
translation) are kept once. Pure Python, no clock: the same call gives the same garden.
"""
from __future__ import annotations

from itertools import combinations
from typing import Callable, Sequence

from solver.games.versailles.data import Catalog, Tile
from solver.games.versailles.rules import Cell, Placement, distinct_rotations, footprint
from solver.games.versailles.scoring import solo_checkpoints

_STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1))


def type_counts(tiles: Sequence[Tile], catalog: Catalog, upto: int) -> dict[str, int]:
    jokers = set(catalog.joker_types)
    return {t: sum(1 for tile in tiles[:upto] for c in tile.fields if c == t or c in jokers)
            for t in catalog.garden_types}


def target_choices(tiles: Sequence[Tile], catalog: Catalog, limit: int = 4) -> list[tuple[tuple[str, ...], ...]]:
    """Target type sets per scoring, best counting bound first: for each scoring the k-sets of
    types whose field counts sum to the largest or next-largest total (at most `limit` plans)."""
    per_checkpoint = []
    order = {t: i for i, t in enumerate(catalog.garden_types)}
    for upto, k in solo_checkpoints(len(tiles), catalog):
        counts = type_counts(tiles, catalog, upto)
        sets = sorted(combinations(sorted(counts, key=order.get), k),
                      key=lambda s: (-sum(counts[t] for t in s), [order[t] for t in s]))
        best = sum(counts[t] for t in sets[0])
        per_checkpoint.append([(best - sum(counts[t] for t in s), s) for s in sets
                               if sum(counts[t] for t in s) >= best - 1])
    plans: list[tuple[int, tuple[tuple[str, ...], ...]]] = [(0, ())]
    for options in per_checkpoint:
        plans = [(loss + extra, plan + (s,)) for loss, plan in plans for extra, s in options]
    plans.sort(key=lambda lp: lp[0])
    return [plan for _, plan in plans[:limit]]


def beam_garden(tiles: Sequence[Tile], catalog: Catalog, targets: Sequence[Sequence[str]], width: int = 32,
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


def _bank(beam, placed: int, checkpoints, targets):
    """Add the points of a scoring taken after `placed` tiles: the k largest areas of any types."""
    out = []
    for fields, plc, largest, where, banked in beam:
        for upto, k in checkpoints:
            if upto == placed:
                banked += sum(sorted(largest.values(), reverse=True)[:k])
        out.append((fields, plc, largest, where, banked))
    return out

