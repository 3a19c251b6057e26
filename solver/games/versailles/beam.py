"""Beam search for solo Versailles gardens: grow the areas of the types each scoring will count.

The greedy (`heuristic.py`) commits to one placement per tile. Here every tile is tried at every
legal position of the `width` best partial gardens kept so far; partial gardens are ranked by the
areas of the target types (the k types with most fields at each coming scoring) and, as a tie
break, by the free fields around those areas (room to grow). Gardens with the same fields (up to
translation) are kept once. Pure Python, no clock: the same call gives the same garden.

Speed: a candidate is scored without building its garden. Per kept garden the areas are labelled
once (`scoring.IncrementalAreas`); a candidate's area sizes are its tile's groups joined to the
labelled areas next to them (`scoring.joined_size`), the free fields around an area are the
cached ones of the areas it joins minus the tile's fields (`_free_count`), and equal gardens are
found by a translation-normalised polynomial hash checked by the exact key (`_fresh`); only the
kept gardens are built. The same values, order and gardens as the first version (kept in
tests/games/versailles/reference.py, compared in test_fast_heuristics.py); 14 tiles, width 32:
3.1 -> 0.53 s per plan (median of 5 sequences, CPU time, load 4.8).
"""
from __future__ import annotations

from itertools import combinations
from typing import Callable, Sequence

from solver.games.versailles.data import Catalog, Tile
from solver.games.versailles.rules import Cell, Placement, distinct_rotations, footprint
from solver.games.versailles.scoring import OUTSIDE, TILE_GROUPS, IncrementalAreas, joined_size, solo_checkpoints

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
    counts = {t: frozenset(counts_for[t]) for t in types}
    # per tile, per kept rotation: (rotation, layout, bit mask of the cells counting per type,
    # hash coefficient per cell)
    shapes = [[(r, layout, tuple(sum(1 << j for j, code in enumerate(layout) if code in counts[t]) for t in types),
                tuple(_code(code) for code in layout))
               for r, layout in per_tile] for per_tile in layouts]
    nt = range(len(types))
    for i in range(1, len(tiles)):
        if stop is not None and stop():
            return [], 0
        w = weights(i)
        wanted = [k for k in nt if w[types[k]] > 0]
        wk = [w[t] for t in types]
        present = [k for k in nt if any(shape[2][k] for shape in shapes[i])]  # types the tile can join
        candidates = []
        seen_keys: dict[int, list[tuple]] = {}
        for parent, (fields, placed, largest, where, banked) in enumerate(beam):
            areas = IncrementalAreas.of_fields(fields, counts)
            labels = [areas.label[t] for t in types]
            sizes = [{lab: len(cells) for lab, cells in areas.members[t].items()} for t in types]
            free_of: dict[tuple[int, int], set[Cell]] = {}  # (type index, area label) -> free fields around it
            cur_largest = [largest[t] for t in types]
            cur_where = [where[t] for t in types]
            # the area each wanted type's anchor field lies in, and the free fields around it
            home = {}
            for k in wanted:
                if cur_where[k] is not None:
                    lab = labels[k][cur_where[k]]
                    home[k] = (lab, _free_around(areas, free_of, fields, k, types[k], lab))
            x0, x1 = min(c[0] for c in fields), max(c[0] for c in fields)
            y0, y1 = min(c[1] for c in fields), max(c[1] for c in fields)
            frontier = set()
            for (x, y) in fields:
                for dx, dy in _STEPS:
                    n = (x + dx, y + dy)
                    if n not in fields:
                        frontier.add(n)
            anchors = {(fx - dx, fy - dy) for (fx, fy) in frontier for dx in (0, 1) for dy in (0, 1)}
            parent_sum = sum(_code(code) * _pow_a(x) % _P * _pow_b(y) for (x, y), code in fields.items()) % _P
            for ax, ay in sorted(anchors):
                if board is not None and (max(x1, ax + 1) - min(x0, ax) >= board
                                          or max(y1, ay + 1) - min(y0, ay) >= board):
                    continue
                cells = footprint(ax, ay)
                if any(c in fields for c in cells):
                    continue
                mx = min(x0, ax)
                my = min(y0, ay)
                shift = _pow_a(-mx) * _pow_b(-my) % _P
                p0, p1, p2, p3 = (_pow_a(x) * _pow_b(y) % _P for x, y in cells)
                # per type the tile can join: the labels of the areas next to each of its cells
                adjacent: list = [None] * len(types)
                for k in present:
                    label = labels[k]
                    per_cell = []
                    for j in range(4):
                        near = set()
                        for dx, dy in OUTSIDE[j]:
                            lab = label.get((ax + dx, ay + dy))
                            if lab is not None:
                                near.add(lab)
                        per_cell.append(near)
                    adjacent[k] = per_cell
                # per wanted type: the free fields around its area once the tile covers some of
                # them, and the tile's cells next to that area (bit mask: a counting one joins it)
                room_of = {}
                home_mask = {}
                for k, (lab, around) in home.items():
                    room_of[k] = len(around) - ((cells[0] in around) + (cells[1] in around)
                                                + (cells[2] in around) + (cells[3] in around))
                    near = adjacent[k]
                    home_mask[k] = 0 if near is None else (
                        (lab in near[0]) | (lab in near[1]) << 1 | (lab in near[2]) << 2 | (lab in near[3]) << 3)
                for r, layout, ms, (c0, c1, c2, c3) in shapes[i]:
                    new_largest = new_where = None  # copies of the parent's, made on the first change
                    links: list = [None] * len(types)  # per type: the labels next to each group of the tile
                    for k in present:
                        m = ms[k]
                        if m:
                            near = adjacent[k]
                            size_of = sizes[k]
                            groups = TILE_GROUPS[m]
                            if len(groups) == 1:
                                group = groups[0]
                                seen = near[group[0]] if len(group) == 1 else set().union(*(near[j] for j in group))
                                per_group = [seen]
                                size = len(group)
                                for lab in seen:
                                    size += size_of[lab]
                            else:  # a diagonal pair: one area when both touch a common area
                                per_group = [near[j] for j, in groups]
                                size = joined_size(groups, per_group, size_of)
                            links[k] = per_group
                            if size > (cur_largest if new_largest is None else new_largest)[k]:
                                if new_largest is None:
                                    new_largest, new_where = cur_largest[:], cur_where[:]
                                new_largest[k] = size
                                new_where[k] = cells[_LOWEST[m]]
                    if new_largest is None:
                        new_largest, new_where = cur_largest, cur_where  # shared, never changed in place
                    value = banked
                    room = 0
                    for k in wanted:
                        value += wk[k] * new_largest[k]
                        if room_weight and new_where[k] is not None:
                            if new_where[k] == cur_where[k] and not ms[k] & home_mask[k]:
                                room += wk[k] * room_of[k]  # the tile does not join that area
                            else:
                                room += wk[k] * _free_count(areas, free_of, fields, k, types[k], new_where[k],
                                                            ax, ay, cells, ms[k], links[k])
                    value += room_weight * room
                    # gardens equal up to translation are kept once (`_fresh`)
                    h = (parent_sum + c0 * p0 + c1 * p1 + c2 * p2 + c3 * p3) % _P * shift % _P
                    if not _fresh(seen_keys, h, (fields, ax, ay, layout, mx, my)):
                        continue
                    candidates.append((value, len(candidates), parent, ax, ay, r, layout, new_largest, new_where))
        if not candidates:
            return [], 0
        candidates.sort(key=lambda c: (-c[0], c[1]))
        if per_parent:
            kept, children = [], {}
            for c in candidates:
                if children.get(c[2], 0) < per_parent:
                    children[c[2]] = children.get(c[2], 0) + 1
                    kept.append(c)
                    if len(kept) == width:
                        break
        else:
            kept = candidates[:width]
        nxt = []
        for _, _, parent, ax, ay, r, layout, new_largest, new_where in kept:
            fields, placed, _, _, banked = beam[parent]
            trial = dict(fields)
            trial.update(zip(footprint(ax, ay), layout))
            nxt.append((trial, placed + [Placement(tiles[i].id, ax, ay, r)], dict(zip(types, new_largest)),
                        dict(zip(types, new_where)), banked))
        beam = _bank(nxt, i + 1, checkpoints, targets)
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



_LOWEST = tuple(next((j for j in range(4) if m >> j & 1), 0) for m in range(16))  # first cell of a bit mask


def _free_count(areas: IncrementalAreas, free_of: dict, fields: dict[Cell, str], k: int, t: str, start: Cell,
                ax: int, ay: int, cells: Sequence[Cell], mask: int, links: list[set[int]] | None) -> int:
    """Free fields next to the area of type t holding `start` once the tile (cells `cells`, those
    of `mask` counting for t, `links` the labels of the areas next to each of its groups) is
    down: the free fields around the areas it joins (the tile's own fields no longer free) and
    around the tile's joining cells. What a search of the garden with the tile in it counts."""
    groups = TILE_GROUPS[mask]
    if start in cells:
        j = cells.index(start)
        in_groups = {next(g for g, group in enumerate(groups) if j in group)}
        in_labels = set(links[next(iter(in_groups))])
    else:
        in_groups = set()
        in_labels = {areas.label[t][start]}
    while links:
        more = [g for g in range(len(groups)) if g not in in_groups and links[g] & in_labels]
        if not more:
            break
        for g in more:
            in_groups.add(g)
            in_labels |= links[g]
    free: set[Cell] = set()
    for lab in in_labels:
        free |= _free_around(areas, free_of, fields, k, t, lab)
    for g in in_groups:
        for j in groups[g]:
            for dx, dy in OUTSIDE[j]:
                n = (ax + dx, ay + dy)
                if n not in fields:
                    free.add(n)
    return len(free) - sum(1 for c in cells if c in free)


def _free_around(areas: IncrementalAreas, free_of: dict, fields: dict[Cell, str], k: int, t: str,
                 lab: int) -> set[Cell]:
    """The free fields next to area `lab` of type t (index k), cached per garden in `free_of`."""
    around = free_of.get((k, lab))
    if around is None:
        around = free_of[(k, lab)] = {n for (x, y) in areas.members[t][lab]
                                      for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1))
                                      if n not in fields}
    return around


# Gardens equal up to translation are kept once in a beam step. A garden's key is the set of its
# (field relative to the top-left corner, code) pairs; its hash is sum code_coefficient x A^x x
# B^y mod a prime, shifted to the corner by multiplying with A^-min_x B^-min_y, computed per
# candidate from the parent's sum and the tile's four fields. Gardens with equal hashes are
# compared by their keys, so "seen" means exactly "same fields up to translation" (a collision
# only costs a comparison).
_P = (1 << 61) - 1  # a prime
_A, _B = 1_000_003, 998_244_353
_POW_A: dict[int, int] = {}
_POW_B: dict[int, int] = {}
_CODE: dict[str, int] = {}


def _pow_a(e: int) -> int:
    v = _POW_A.get(e)
    if v is None:
        v = _POW_A[e] = pow(_A, e, _P)
    return v


def _pow_b(e: int) -> int:
    v = _POW_B.get(e)
    if v is None:
        v = _POW_B[e] = pow(_B, e, _P)
    return v


def _code(code: str) -> int:
    """A fixed coefficient per field code (the same on every run: no `hash()` of strings)."""
    v = _CODE.get(code)
    if v is None:
        v = _CODE[code] = int.from_bytes(code.encode().ljust(8, b"\0")[:8], "big") * 0x9E3779B97F4A7C15 % _P + 1
    return v


def _fresh(seen: dict[int, list[tuple]], h: int, entry: tuple) -> bool:
    """True the first time the garden of `entry` (parent fields, anchor, layout, corner) is seen."""
    same = seen.get(h)
    if same is None:
        seen[h] = [entry]
        return True
    mine = _exact(entry)
    if any(_exact(other) == mine for other in same):
        return False
    same.append(entry)
    return True


def _exact(entry: tuple) -> frozenset:
    fields, ax, ay, layout, mx, my = entry
    trial = dict(fields)
    trial.update(zip(footprint(ax, ay), layout))
    return frozenset(((c[0] - mx, c[1] - my), code) for c, code in trial.items())
