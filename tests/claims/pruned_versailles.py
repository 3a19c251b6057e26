"""Exact Versailles solo oracle that prunes (claims audit, second round, 1 Dec 08:15-10:05 UTC).

Written from the rulebook like `oracles_versailles.py` (whose rotation, placement rule and areas it
uses; it calls nothing of the engine). `best_solo` there enumerates every garden and stops at about
4 tiles; this one reaches 5-7 tiles and hints with 4-5 upcoming tiles by three devices, each valid:

1. **Branch and bound with a field-count bound per area.** Fields never change once laid. At a
   checkpoint c (tiles n_c, k_c largest areas scored) the largest area of type t is one connected
   set of t-or-Joker fields. If it holds no field laid after now, it is an area that exists now,
   so it is at most the largest area of t now. Otherwise it is new fields plus the areas of now
   that those fields touch; an area of now with no empty edge-neighbour cell can touch no later
   field, so it is at most the sum of the *open* areas of t now plus the t-or-Joker fields of the
   tiles still to come before n_c. Hence area_t <= b_t = max(largest_t, open_t + rest_t), and the
   points of c are at most the k_c largest b_t (the areas scored are k_c distinct types). Banked
   points plus these bounds over the checkpoints not yet passed cap every completion of the node;
   a node is cut only when that cap is <= the best garden already known (or the target), so no
   garden scoring more than the target is cut.
2. **Memo over canonical states.** Everything that decides a completion's legality and points is
   the set of laid fields (types and positions), the tiles still to come, and the points already
   banked. Two nodes at the same depth with the same (fields, banked) have the same completions,
   so the second is skipped (its subtree was searched with a cut no weaker than now).
3. **Symmetry.** Without a fixed region, placement legality (no overlap, an edge shared with the
   garden) and areas are invariant under translating or rotating the whole garden by quarter turns
   (each tile may take any of its 4 rotations; field types have no direction), and a square board
   (the garden's bounding box at most `board` per side) is too. So states are keyed by the
   lexicographically least of the 4 rotated, translated-to-origin field lists. With a fixed region
   (the hint's searched board, absolute coordinates) only exact field sets are merged.

`tests/claims/test_versailles_larger.py` checks this oracle against the plain enumeration on 3-4
tiles (where both run), including the bound alone (no memo) and with a deliberately wrong bound.
"""
from __future__ import annotations

from typing import Iterable, Sequence

from . import oracles_versailles as o

GARDEN = o.GARDEN
STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1))


def checkpoints(n: int) -> list[tuple[int, int]]:
    """(tiles placed, areas scored): 2 largest after tile min(n, 7), 3 largest after tile n > 7."""
    out = [(min(n, 7), 2)]
    if n > 7:
        out.append((n, 3))
    return out


def type_counts(codes: str) -> dict[str, int]:
    return {t: sum(1 for c in codes if c in (t, "J")) for t in GARDEN}


def area_stats(fields: dict) -> dict[str, tuple[int, int]]:
    """type -> (largest area, sum of the areas with an empty edge-neighbour cell)."""
    out = {}
    for t in GARDEN:
        todo = {c for c, code in fields.items() if code == t or code == "J"}
        largest = open_sum = 0
        while todo:
            stack = [todo.pop()]
            size, is_open = 0, False
            while stack:
                cx, cy = stack.pop()
                size += 1
                for dx, dy in STEPS:
                    n = (cx + dx, cy + dy)
                    if n in todo:
                        todo.discard(n)
                        stack.append(n)
                    elif not is_open and n not in fields:
                        is_open = True
            largest = max(largest, size)
            if is_open:
                open_sum += size
        out[t] = (largest, open_sum)
    return out


def canonical(fields: dict, banked: int):
    best = None
    cells = list(fields.items())
    for _ in range(4):
        mx = min(c[0] for c, _ in cells)
        my = min(c[1] for c, _ in cells)
        key = tuple(sorted((x - mx, y - my, code) for (x, y), code in cells))
        if best is None or key < best:
            best = key
        cells = [((-y, x), code) for (x, y), code in cells]
    return best, banked


def origins(fields: dict) -> Iterable[tuple[int, int]]:
    """Every tile origin (top-left field) legal next to `fields`: no overlap, an edge shared."""
    if not fields:
        return [(0, 0)]
    cand = set()
    for (cx, cy) in fields:
        for dx, dy in STEPS:
            e = (cx + dx, cy + dy)
            if e in fields:
                continue
            for ox in (0, 1):
                for oy in (0, 1):
                    cand.add((e[0] - ox, e[1] - oy))
    return sorted(c for c in cand if not any(q in fields for q in o.cells(*c)))


class Search:
    """Best solo points of `seq` (tile ids in order) from a garden whose first len(history) tiles are
    laid (`history[i]` = fields after i + 1 tiles), strictly above `floor`.

    board: the bounding box of every garden at most this many fields per side (SolveOptimal's square).
    region: (x0, y0, x1, y1) every field inside, absolute (the hint's searched board).
    bound: replaces the per-area bound (tests: a wrong bound must be caught by the cross-check).
    memo: merge equal states (device 2/3 above).
    fast_last: the last tile's placements scored from the areas of the garden before it (`_last`)
    instead of a search of the whole garden per placement (same points; tests compare both)."""

    def __init__(self, seq: Sequence[int], catalog: dict[int, str], board: int | None = None,
                 region: tuple[int, int, int, int] | None = None, memo: bool = True, bound=None,
                 max_nodes: int | None = None, fast_last: bool = True):
        self.seq, self.catalog, self.board, self.region, self.memo = list(seq), catalog, board, region, memo
        self.cps = checkpoints(len(seq))
        self.counts = [type_counts(catalog[t]) for t in seq]
        self.bound = bound or self.field_bound
        self.nodes = 0
        self.max_nodes = max_nodes
        self.cut_short = False
        self.fast_last = fast_last

    def field_bound(self, i: int, fields: dict, banked: int) -> int:
        stats = area_stats(fields) if fields else {t: (0, 0) for t in GARDEN}
        total = banked
        for n, k in self.cps:
            if n <= i:
                continue  # banked (i < len(seq) here: the last checkpoint is scored at the leaf)
            b = []
            for t in GARDEN:
                rest = sum(self.counts[j][t] for j in range(i, n))
                b.append(max(stats[t][0], stats[t][1] + rest))
            total += sum(sorted(b, reverse=True)[:k])
        return total

    def fits(self, fields: dict) -> bool:
        if self.region is not None:
            x0, y0, x1, y1 = self.region
            if not all(x0 <= x <= x1 and y0 <= y <= y1 for x, y in fields):
                return False
        if self.board is not None:
            xs = [x for x, _ in fields]
            ys = [y for _, y in fields]
            if max(xs) - min(xs) >= self.board or max(ys) - min(ys) >= self.board:
                return False
        return True

    def run(self, history: Sequence[dict] = (), floor: int = -1):
        """(best points > floor or floor, one garden's placements after the given ones or None)."""
        self.best, self.garden = floor, None
        self.seen = [set() for _ in range(len(self.seq) + 1)]
        banked = 0
        for n, k in self.cps:
            if n <= len(history) and n != len(self.seq):
                banked += o.top(o.areas(history[n - 1]), k)
        fields = history[-1] if history else {}
        self._rec(len(history), fields, banked, [])
        return self.best, self.garden

    def _rec(self, i: int, fields: dict, banked: int, placed: list):
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            self.cut_short = True
            return
        if i == len(self.seq):
            pts = banked + o.top(o.areas(fields), self.cps[-1][1])
            if pts > self.best:
                self.best, self.garden = pts, list(placed)
            return
        if self.bound(i, fields, banked) <= self.best:
            return
        if i == len(self.seq) - 1 and self.fast_last and fields:
            self._last(fields, banked, placed)
            return
        if self.memo and fields:
            key = (frozenset(fields.items()), banked) if self.region is not None else canonical(fields, banked)
            if key in self.seen[i]:
                return
            self.seen[i].add(key)
        tile = self.seq[i]
        codes = self.catalog[tile]
        for x, y in origins(fields):
            layouts = {}
            for r in range(4):
                layouts.setdefault(o.turn(codes, r), r)
            for lay, r in layouts.items():
                nf = o.add(fields, codes, x, y, r)
                if not self.fits(nf):
                    continue
                nb = banked
                for n, k in self.cps:
                    if n == i + 1 and n != len(self.seq):
                        nb += o.top(o.areas(nf), k)
                self._rec(i + 1, nf, nb, placed + [(tile, x, y, r)])
                if self.cut_short:
                    return


def labelled(fields: dict):
    """type -> ({cell: area label}, [area sizes], largest) over t-or-Joker fields."""
    out = {}
    for t in GARDEN:
        todo = {c for c, code in fields.items() if code == t or code == "J"}
        label, sizes = {}, []
        while todo:
            start = todo.pop()
            stack, n = [start], len(sizes)
            label[start] = n
            size = 0
            while stack:
                cx, cy = stack.pop()
                size += 1
                for dx, dy in STEPS:
                    q = (cx + dx, cy + dy)
                    if q in todo:
                        todo.discard(q)
                        label[q] = n
                        stack.append(q)
            sizes.append(size)
        out[t] = (label, sizes, max(sizes, default=0))
    return out


def _last_method(self, fields: dict, banked: int, placed: list):
    """Every placement of the last tile, its areas from the garden's labelled areas: an area
    holding a new field is the tile's t-fields linked through the tile or through a shared old area,
    plus those old areas; every other area is an old one."""
    i = len(self.seq) - 1
    tile = self.seq[i]
    codes = self.catalog[tile]
    k = self.cps[-1][1]
    lab = labelled(fields)
    xs = [x for x, _ in fields]
    ys = [y for _, y in fields]
    box = (min(xs), min(ys), max(xs), max(ys))
    for x, y in origins(fields):
        own = o.cells(x, y)
        if self.region is not None:
            x0, y0, x1, y1 = self.region
            if not (x0 <= x and x + 1 <= x1 and y0 <= y and y + 1 <= y1):
                continue
        if self.board is not None:
            if max(box[2], x + 1) - min(box[0], x) >= self.board or max(box[3], y + 1) - min(box[1], y) >= self.board:
                continue
        layouts = {}
        for r in range(4):
            layouts.setdefault(o.turn(codes, r), r)
        self.nodes += len(layouts)  # each placement of the last tile counts as a node (node caps)
        for lay, r in layouts.items():
            sizes = []
            for t in GARDEN:
                label, asz, largest = lab[t]
                mine = [c for c, code in zip(own, lay) if code == t or code == "J"]
                if not mine:
                    sizes.append(largest)
                    continue
                touch = [{label[q] for q in ((c[0] + dx, c[1] + dy) for dx, dy in STEPS) if q in label} for c in mine]
                group = list(range(len(mine)))  # union of tile fields: adjacent, or touching a shared old area

                def find(a):
                    while group[a] != a:
                        a = group[a]
                    return a
                for a in range(len(mine)):
                    for b in range(a + 1, len(mine)):
                        (ax, ay), (bx, by) = mine[a], mine[b]
                        if abs(ax - bx) + abs(ay - by) == 1 or touch[a] & touch[b]:
                            group[find(a)] = find(b)
                best_t = largest
                roots = {}
                for a in range(len(mine)):
                    roots.setdefault(find(a), []).append(a)
                for members in roots.values():
                    olds = set().union(*(touch[a] for a in members))
                    best_t = max(best_t, len(members) + sum(asz[n] for n in olds))
                sizes.append(best_t)
            pts = banked + sum(sorted(sizes, reverse=True)[:k])
            if pts > self.best:
                self.best, self.garden = pts, placed + [(tile, x, y, r)]


Search._last = _last_method


def best(seq: Sequence[int], catalog: dict[int, str], floor: int = -1, **kw):
    s = Search(seq, catalog, **kw)
    pts, garden = s.run(floor=floor)
    return pts, garden, s


def replay(placements: Sequence[dict], catalog: dict[int, str]) -> list[dict]:
    """Fields after each placement (legality asserted)."""
    fields, history = {}, []
    for p in placements:
        assert o.legal(fields, p["x"], p["y"]), p
        fields = o.add(fields, catalog[p["tile"]], p["x"], p["y"], p["rotation"])
        history.append(fields)
    return history
