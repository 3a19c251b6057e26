"""Shortest move routes to a valid garden: Solo mode (place / swap / rotate / remove) and the order in
which Normal-mode supplies let tiles come into the garden.

Solo edit distance (rulebook, Solo mode: "you simply place, swap, rotate... the tiles freely within the
garden"; moves.py: add a pool tile to an empty cell in any rotation, remove a tile to the pool, rotate a
tile in place, swap the contents of two cells of which at least one holds a tile; a swap keeps rotations).
A valid Solo garden is complete, so every tile ends in some cell. For a current garden A (with its pool)
and a complete target B, each tile of A goes from its cell to its cell in B: the arrows cell -> target
cell form fixed points, cycles through occupied cells only, and chains that start with a pool tile and
end at a cell that is empty in A. Then

    distance(A, B) = G - C + P + R

G = tiles in the garden, P = tiles in the pool, C = cycles of the arrows counting fixed points (a cycle
of L tiles takes L - 1 swaps, a chain of k cells k moves: k - 1 swaps into the hole and one placement),
R = garden tiles whose rotation in B differs from their rotation now (one turn each; placed tiles take
any rotation for free). It is a lower bound because each move changes (cells and pool seen as
positions, empty cells as blanks) the number of cycles by at most one or fixes one rotation; a tile that
visits the pool to be turned for free costs at least as much as one turn. `distance` computes it and the
tests check it against breadth-first search over move sequences on 2x2 and 3x3 gardens.

`solo_route` minimises it over every valid garden B (and over which of several interchangeable tiles
goes where) with CP-SAT: per garden tile a literal per target cell, and cycles counted as cells that
are the representative of their cycle (a label propagates along the arrows; a chain carries the label
of its empty end, so it has no representative; a cycle can have one representative only, the cell
whose index is the label).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

from ortools.sat.python import cp_model

from solver.core.grid import Cell
from solver.core.solve import SolveControl
from solver.errors import InputError
from solver.games.gardeners import engine, moves
from solver.games.gardeners.cards import Card
from solver.games.gardeners.checker import check
from solver.games.gardeners.encodings import impossible, post
from solver.games.gardeners.garden import Garden, Placed
from solver.games.gardeners.model import GardenModel
from solver.games.gardeners.modes import Mode
from solver.games.gardeners.tiles import Catalog

State = dict  # cell -> (tile id, rotation)
SOLO_LINEARIZATION = 1   # see solo_route


# ---- the pure side: exact distance to one target, and a route realising it -------------------

def arrows(current: State, target: State) -> dict[Cell, Cell]:
    """cell of A -> cell of B for every tile in the garden now (the target holds every tile)."""
    where = {tid: cell for cell, (tid, _) in target.items()}
    return {cell: where[tid] for cell, (tid, _) in current.items()}


def cycles(current: State, target: State) -> int:
    """Cycles of the arrows, fixed points included (a chain ends at an empty cell and is no cycle)."""
    go = arrows(current, target)
    seen: set[Cell] = set()
    count = 0
    for start in sorted(go):
        if start in seen:
            continue
        path, cur = [], start
        while cur in go and cur not in seen:
            seen.add(cur)
            path.append(cur)
            cur = go[cur]
        if cur == start:
            count += 1
    return count


def distance(current: State, pool: list[str], target: State) -> int:
    """The fewest Solo moves turning the garden `current` (with `pool` aside) into the complete `target`."""
    if sorted([t for t, _ in current.values()] + list(pool)) != sorted(t for t, _ in target.values()):
        raise ValueError("the target must hold exactly the tiles of the garden and the pool")
    tgt = {tid: rot for tid, rot in target.values()}
    turns = sum(1 for tid, rot in current.values() if tgt[tid] != rot)
    return len(current) - cycles(current, target) + len(pool) + turns


def route(current: State, pool: list[str], target: State) -> list[moves.Move]:
    """A route of exactly `distance` moves: turns first, then each cycle closed by swaps, then each
    chain filled from its empty end with a placement last."""
    where = {tid: cell for cell, (tid, _) in target.items()}
    tgt_rot = {tid: rot for tid, rot in target.values()}
    out: list[moves.Move] = []
    cur = dict(current)
    for cell, (tid, rot) in sorted(cur.items()):
        if tgt_rot[tid] != rot:
            out.append(moves.Move(moves.ROTATE, tile=tid, cell=cell, rotation=tgt_rot[tid]))
            cur[cell] = (tid, tgt_rot[tid])
    for start in sorted(cur):
        # a cycle through `start`: swap the tile at start into its place until start holds its own
        while start in cur and where[cur[start][0]] != start:
            b = where[cur[start][0]]
            if b not in cur:
                break   # a chain, handled below
            out.append(moves.Move(moves.SWAP, tile=cur[start][0], cell=start, other=b))
            cur[start], cur[b] = cur[b], cur[start]
    # chains: an empty cell e is filled by the tile meant for it (from a cell, or from the pool)
    left = sorted(pool)
    while True:
        empty = sorted(c for c in target if c not in cur)
        if not empty:
            break
        e = empty[0]
        tid = target[e][0]
        src = next((c for c, (t, _) in cur.items() if t == tid), None)
        while src is not None:
            out.append(moves.Move(moves.SWAP, tile=tid, cell=src, other=e))
            cur[e] = cur.pop(src)
            e = src
            tid = target[e][0]
            src = next((c for c, (t, _) in cur.items() if t == tid), None)
        out.append(moves.Move(moves.ADD, tile=tid, cell=e, rotation=target[e][1]))
        left.remove(tid)
        cur[e] = target[e]
    if cur != target:
        raise AssertionError("the route does not reach the target")
    return out


def first_moves(current: State, pool: list[str], target: State) -> list[moves.Move]:
    """Every move that puts one tile in its place in `target` (so shortens the distance by exactly one):
    a turn of a tile into its target rotation, a swap sending a tile to its target cell (closing part
    of a cycle or a chain; the tile keeps its rotation), a placement of a pool tile into its empty target cell."""
    where = {tid: cell for cell, (tid, _) in target.items()}
    out = []
    for cell, (tid, rot) in sorted(current.items()):
        if target[where[tid]][1] != rot:
            out.append(moves.Move(moves.ROTATE, tile=tid, cell=cell, rotation=target[where[tid]][1]))
        if where[tid] != cell:
            out.append(moves.Move(moves.SWAP, tile=tid, cell=cell, other=where[tid]))
    for tid in sorted(pool):
        b = where[tid]
        if b not in current:
            out.append(moves.Move(moves.ADD, tile=tid, cell=b, rotation=target[b][1]))
    return out


def apply_solo(state: State, pool: list[str], move: moves.Move) -> tuple[State, list[str]]:
    """The garden and pool after a Solo move (the move must be legal)."""
    g, p = dict(state), list(pool)
    if move.kind == moves.ADD:
        g[move.cell] = (move.tile, move.rotation)
        p.remove(move.tile)
    elif move.kind == moves.REMOVE:
        p.append(g.pop(move.cell)[0])
    elif move.kind == moves.ROTATE:
        g[move.cell] = (g[move.cell][0], move.rotation)
    elif move.kind == moves.SWAP:
        a, b = g.pop(move.cell, None), g.pop(move.other, None)
        if a is not None:
            g[move.other] = a
        if b is not None:
            g[move.cell] = b
    return g, sorted(p)


# ---- CP-SAT: the nearest valid garden in Solo moves ------------------------------------------

@dataclass
class SoloRoute:
    # "optimal" (proven shortest), "feasible" (best found + bound), "unsolvable", "unknown"
    verdict: str
    length: int = 0                 # moves of the route to `target` (exact for that target)
    bound: int = 0                  # proven lower bound on the moves of any route
    target: Garden | None = None    # the valid garden the route reaches, checked by the pure checker
    steps: list[moves.Move] = field(default_factory=list)
    seconds: float = 0.0
    deterministic_time: float = 0.0
    branches: int = 0


def _state(garden: Garden) -> State:
    return {c: (p.tile.id, p.rotation) for c, p in garden.cells.items()}


def check_known(known: Garden, cards: list[Card], mode: Mode, catalog: Catalog) -> None:
    """A previous Solo hint's target handed back: a valid garden of every tile of the mode for these cards."""
    tiles = sorted(t.id for t in catalog.tiles_of(mode.tile_sets))
    if sorted(p.tile.id for p in known.cells.values()) != tiles or not check(known, cards).valid:
        raise InputError("target", "must be a valid garden of every tile of the mode for these cards (a previous "
                                   "Solo hint's target)")


def solo_route(garden: Garden, cards: list[Card], mode: Mode, catalog: Catalog,
               control: SolveControl | None = None, layout: Garden | None = None,
               kept_max: int | None = None, known: Garden | None = None) -> SoloRoute:
    """The fewest Solo moves from `garden` (every tile of the mode not in it lies in the pool) to a
    valid garden; proven shortest when the verdict is "optimal", else the best found with a bound.
    `layout`: a valid garden whose features start the search (e.g. the repair witness); `kept_max`:
    a proven maximum of tiles that can stay in place showing the same (the repair optimum); `known`: a valid
    garden of every tile of the mode (a previous hint's target, checked by `check_known`), whose route is kept
    unless a shorter one is found, so that following the hints never lengthens the route."""
    control = control or SolveControl()
    start = time.perf_counter()
    tiles = catalog.tiles_of(mode.tile_sets)
    gm = GardenModel(cards, mode, tiles, rotation_free=False)
    if any(impossible(gm, c) for c in cards):
        return SoloRoute("unsolvable", seconds=time.perf_counter() - start)
    m = gm.model
    cur = _state(garden)
    used = {tid for tid, _ in cur.values()}
    pool = sorted(t.id for t in tiles if t.id not in used)
    g, p = len(cur), len(pool)
    # a proven lower bound: every pool tile is placed once, and a tile that is not kept where it
    # stands, showing the same, costs half a move at least (a swap puts two tiles in place)
    bound = p if kept_max is None else p + (g - kept_max + 1) // 2
    if kept_max is not None and kept_max < g:
        bound = max(bound, p + 1)
    best, best_len = None, None
    if layout is not None:
        same = lambda t1, r1, t2, r2: gm.sig_of[(t1, r1)] == gm.sig_of[(t2, r2)]  # noqa: E731
        best = engine.verified(assign(garden, layout, same), cards)
        best_len = distance(cur, pool, _state(best))
    if known is not None:
        known_len = distance(cur, pool, _state(known))
        if best is None or known_len < best_len:
            best, best_len = known, known_len
    if best is not None and best_len <= bound:
        # the heuristic (or the known) route meets the proven bound: no search needed
        return _done("optimal", cur, pool, best, best_len, bound, start, 0.0, 0)
    if control.out_of_time():
        # the call's budget is gone: no search (it would get nothing), the layout's route if there is one
        if best is None:
            return SoloRoute("unknown", bound=bound, seconds=time.perf_counter() - start)
        return _done("feasible", cur, pool, best, best_len, bound, start, 0.0, 0)
    for card in cards:
        post(gm, card, m.new_constant(1))
    cells = list(gm.cells)
    index = {c: i for i, c in enumerate(cells)}
    n_cells = len(cells)
    items = sorted(cur.items())
    occupied = [c for c, _ in items]
    values = sorted(index[c] for c in occupied) + [n_cells]
    label = {c: m.new_int_var_from_domain(cp_model.Domain.from_values(values), "") for c in occupied}
    for c in cells:
        if c not in cur:
            label[c] = m.new_constant(n_cells)
    x, ok = _assignment(gm, cur)
    for (a, b), lit in x.items():
        m.add(label[a] == label[b]).only_enforce_if(lit)
    rep = {a: m.new_bool_var("") for a in occupied}
    for a in occupied:
        m.add(label[a] == index[a]).only_enforce_if(rep[a])
        # a representative stays put or starts a cycle of at least two, through occupied cells
    if occupied:
        # fixed points are cycles of one; every other cycle holds two tiles at least, and tiles on a
        # chain (label of an empty cell) are on no cycle
        chain = {a: m.new_bool_var("") for a in occupied}
        for a in occupied:
            m.add(label[a] == n_cells).only_enforce_if(chain[a])
            m.add(label[a] != n_cells).only_enforce_if(chain[a].Not())
            m.add_implication(rep[a], chain[a].Not())
        m.add(2 * sum(rep.values()) <= len(occupied) + sum(x[(a, a)] for a in occupied) - sum(chain.values()))
        if kept_max is not None:
            # proven elsewhere (repair): no valid garden keeps more tiles in place showing the same
            m.add(sum(ok[(a, a)] for a in occupied) <= kept_max)
    gain = sum(rep.values()) + sum(ok.values()) if occupied else 0
    if best is not None:
        _hint_model(m, gm, garden, best, x, ok, rep, label, index, n_cells)
        # look for a strictly shorter route only: "infeasible" then proves the known one shortest
        m.add(gain >= 2 * g + p - best_len + 1)
        # implied (moves >= P + (not kept) / 2), posted so that search starts from the kept tiles
        if occupied:
            m.add(sum(ok[(a, a)] for a in occupied) >= g - 2 * (best_len - 1 - p))
    if occupied:
        m.add(gain <= 2 * g + p - bound)   # the proven bound: reaching it ends the search
    m.maximize(gain)
    solver = engine.tuned_solver(control)
    # Measured on the bench's Solo searches (deterministic time, load-independent): with the LP
    # relaxation at level 1 the 5 searches took 0.43 s in all instead of 3.5 s (level 2: one search
    # timed out); the counting of kept tiles and cycles is linear, where the LP bound helps.
    solver.parameters.linearization_level = SOLO_LINEARIZATION
    status, solver = control.solve(m, solver)
    dtime, branches = solver.deterministic_time, solver.num_branches
    if status == cp_model.INFEASIBLE:
        if best is None:
            return SoloRoute("unsolvable", seconds=time.perf_counter() - start, deterministic_time=dtime,
                             branches=branches)
        return _done("optimal", cur, pool, best, best_len, best_len, start, dtime, branches)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        if best is None:
            return SoloRoute("unknown", bound=bound, seconds=time.perf_counter() - start, deterministic_time=dtime,
                             branches=branches)
        return _done("feasible", cur, pool, best, best_len, bound, start, dtime, branches)
    target = engine.verified(_target(gm, solver, cur, pool, x, ok), cards)
    length = distance(cur, pool, _state(target))
    promised = 2 * g + p - round(solver.objective_value)   # G - C + P + (G - kept rotations)
    if length > promised or (status == cp_model.OPTIMAL and length != promised):
        raise engine.EngineError(f"the Solo route takes {length} moves, the model promised {promised}")
    bound = max(bound, 2 * g + p - int(solver.best_objective_bound + 1e-6))
    verdict = "optimal" if status == cp_model.OPTIMAL or bound >= length else "feasible"
    return _done(verdict, cur, pool, target, length, bound, start, dtime, branches)


def _assignment(gm: GardenModel, cur: State):
    """x[a, b]: the tile at a ends at b (a cell of its class); ok[a, b]: and shows there what it shows
    now (no turn). Each tile ends somewhere, each cell takes one tile at most; the dominance rule."""
    m = gm.model
    by_class: dict[int, list] = {}
    for s in gm.signatures:
        by_class.setdefault(gm.sig_class[s], []).append(s)
    cls_lit: dict = {}

    def is_class(b: Cell, k: int):
        if (b, k) not in cls_lit:
            ys = [gm.y[(b, s)] for s in by_class[k]]
            lit = m.new_bool_var("")
            m.add_bool_or([lit.Not()] + ys)
            for y in ys:
                m.add_implication(y, lit)
            cls_lit[(b, k)] = lit
        return cls_lit[(b, k)]
    x, ok = {}, {}
    for a, (tid, rot) in sorted(cur.items()):
        sig = gm.sig_of[(tid, rot)]
        k = gm.sig_class[sig]
        for b in gm.cells:
            x[(a, b)] = lit = m.new_bool_var("")
            m.add_implication(lit, is_class(b, k))
            ok[(a, b)] = o = m.new_bool_var("")
            m.add_implication(o, lit)
            m.add_implication(o, gm.y[(b, sig)])
        m.add_exactly_one([x[(a, b)] for b in gm.cells])
        # Dominance: a tile showing what the target needs where it stands may stay. If it went to b
        # while u came in, u can go to b instead (same class): a becomes a cycle of its own (one
        # move less) and at most u has to turn (one move more), so some shortest route keeps it.
        m.add_implication(gm.y[(a, sig)], ok[(a, a)])
    if cur:
        for b in gm.cells:
            m.add_at_most_one([x[(a, b)] for a in sorted(cur)])
    return x, ok


def _done(verdict, cur, pool, target, length, bound, start, dtime, branches) -> SoloRoute:
    steps = route(cur, pool, _state(target))
    if len(steps) != length:
        raise engine.EngineError(f"a route of {len(steps)} moves for a distance of {length}")
    return SoloRoute(verdict, length, min(bound, length), target, steps, time.perf_counter() - start, dtime, branches)


def _target(gm: GardenModel, solver, cur: State, pool: list[str], x, ok) -> Garden:
    by_id = {t.id: t for t in gm.tiles}
    chosen = gm.chosen(solver)
    out: dict[Cell, Placed] = {}
    for (a, b), lit in x.items():
        if solver.boolean_value(lit):
            tid, rot = cur[a]
            if not solver.boolean_value(ok[(a, b)]):
                rot = next(r for r in range(4) if gm.sig_of[(tid, r)] == chosen[b])
            out[b] = Placed(by_id[tid], rot)
    free = {k: [t for t in pool if gm.sig_class[gm.sig_of[(t, 0)]] == k] for k in range(len(gm.classes))}
    for c in gm.cells:
        if c in out:
            continue
        s = chosen[c]
        tid = free[gm.sig_class[s]].pop(0)
        out[c] = Placed(by_id[tid], next(r for r in range(4) if gm.sig_of[(tid, r)] == s))
    return Garden(gm.size, out)


def assign(garden: Garden, layout: Garden, same) -> Garden:
    """A concrete target on `layout`'s features that the current tiles reach in few Solo moves: tiles
    showing what the layout needs where they stand stay; then pairs of misplaced tiles that fit each
    other's cells swap; then a tile turns in place; the rest move to a cell of their kind (empty ones
    first) and the pool fills what is left. `same(tile_a, rot_a, tile_b, rot_b)`: the cards see the
    same in both; `kin(a, b)`: one tile can show the other's features once turned. A heuristic start
    for the search, never a claim."""
    cur = _state(garden)
    want = _state(layout)
    out: State = {}
    taken_tiles: set[str] = set()

    def kin(t1: str, t2: str) -> bool:
        return any(same(t1, r, t2, 0) for r in range(4))
    for c, (tid, rot) in sorted(cur.items()):
        if same(tid, rot, *want[c]):
            out[c] = (tid, rot)
            taken_tiles.add(tid)
    loose = [c for c in sorted(cur) if c not in out]
    for a in loose:
        if cur[a][0] in taken_tiles:
            continue
        for b in loose:
            if b != a and b not in out and a not in out and cur[b][0] not in taken_tiles \
                    and same(*cur[a], *want[b]) and same(*cur[b], *want[a]):
                out[b], out[a] = cur[a], cur[b]
                taken_tiles |= {cur[a][0], cur[b][0]}
                break
    for a in loose:
        tid, _ = cur[a]
        if a not in out and tid not in taken_tiles and kin(tid, want[a][0]):
            out[a] = (tid, next(r for r in range(4) if same(tid, r, *want[a])))
            taken_tiles.add(tid)
    for a in loose:
        tid, _ = cur[a]
        if tid in taken_tiles:
            continue
        spots = sorted((b for b in want if b not in out and kin(tid, want[b][0])),
                       key=lambda b: (b in cur, not same(*cur[a], *want[b]), b))
        b = spots[0]
        rot = cur[a][1] if same(*cur[a], *want[b]) else next(r for r in range(4) if same(tid, r, *want[b]))
        out[b] = (tid, rot)
        taken_tiles.add(tid)
    spare = sorted(tid for tid, _ in want.values() if tid not in taken_tiles)
    spare += sorted(tid for tid, _ in cur.values() if tid not in taken_tiles and tid not in spare)
    by_id = {p.tile.id: p.tile for p in layout.cells.values()}
    for b in sorted(want):
        if b in out:
            continue
        tid = next(t for t in spare if kin(t, want[b][0]))
        spare.remove(tid)
        out[b] = (tid, next(r for r in range(4) if same(tid, r, *want[b])))
    return Garden(layout.size, {c: Placed(by_id[t], r) for c, (t, r) in out.items()})


def _hint_model(m, gm, garden: Garden, hint: Garden, x, ok, rep, label, index, n_cells) -> None:
    """Hint the search with the route to a known valid garden (tiles found by id)."""
    where = {p.tile.id: c for c, p in hint.cells.items()}
    for c in gm.cells:
        p = hint.get(c)
        sig = gm.sig_of[(p.tile.id, p.rotation)]
        for s in gm.signatures:
            m.add_hint(gm.y[(c, s)], s == sig)
    cur = _state(garden)
    tgt = {where[tid]: (tid, hint.get(where[tid]).rotation) for tid in where}
    go = arrows(cur, tgt)
    for (a, b), lit in x.items():
        m.add_hint(lit, go[a] == b)
        m.add_hint(ok[(a, b)], go[a] == b and gm.sig_of[cur[a]] == gm.sig_of[(tgt[b][0], tgt[b][1])])
    # labels: a cycle takes its smallest cell's index, a chain the empty end's label
    for a in sorted(go):
        path, c = [], a
        while c in go and c not in path:
            path.append(c)
            c = go[c]
        lab = index[min(path)] if c == a else n_cells
        m.add_hint(label[a], lab)
        m.add_hint(rep[a], c == a and a == min(path))
