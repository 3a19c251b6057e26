"""Gardeners hints, repair: the fewest tiles to take off (in a legal order) so that the cards can still be met."""
from __future__ import annotations

import time
from dataclasses import dataclass, field

from ortools.sat.python import cp_model

from solver.core.connectivity import connected_group
from solver.core.grid import DIRECTIONS, Cell, components, step
from solver.core.solve import SolveControl
from solver.errors import InputError
from solver.games.gardeners import engine, moves
from solver.games.gardeners.cards import Card
from solver.games.gardeners.encodings import impossible, post
from solver.games.gardeners.garden import Garden
from solver.games.gardeners.model import GardenModel
from solver.games.gardeners.modes import Mode
from solver.games.gardeners.tiles import Catalog
from solver.games.gardeners.hints.progress import _check_garden, _tiles, complete_floating, offsets

MAX_REPAIR_ROUNDS = 25   # re-solves after refusing a removal set that cannot be removed in order
MAX_ORDER_SEARCH = 20000  # states explored when looking for a legal removal order


# ---- repair ---------------------------------------------------------------------------------

@dataclass
class Repair:
    verdict: str                      # "optimal" (proven minimal), "feasible" (best found), "unsolvable", "unknown"
    remove: list[Cell] = field(default_factory=list)  # in an order that is legal when removal rules apply
    kept: int = 0
    bound: int = 0                    # proven lower bound on the tiles to remove
    witness: Garden | None = None     # a checked valid garden keeping every tile not removed
    removal_rules: bool = False
    seconds: float = 0.0
    shift: tuple[int, int] = (0, 0)   # the witness holds the kept tile of cell (r, c) at (r + shift)
    # With removal rules: a proven lower bound on the tiles any route must take off when additions may
    # come between removals (the optimum without the order rules). None: the same as `bound`.
    free_bound: int | None = None

    @property
    def proven(self) -> bool:
        return self.verdict == "optimal"


class OrderSearchLimit(Exception):
    """The search for a legal removal order gave up: neither an order nor a proof of none."""


def check_one_piece(garden: Garden) -> None:
    """Under Normal removal rules a garden is one piece: tiles are added next to it and never split off it, so
    no Normal game reaches a split garden (repair and next_move refuse one up front)."""
    if garden.cells and len(components(set(garden.cells))) > 1:
        raise InputError("garden", "under Normal removal rules the garden must be one piece")


def removal_order(garden_cells: set[Cell], remove: set[Cell],
                  control: SolveControl | None = None) -> list[Cell] | None:
    """An order in which `remove` can leave the garden one tile at a time under the Normal-mode rules
    (from the edge, never splitting), or None when there is none (exhaustive search over subsets;
    OrderSearchLimit past MAX_ORDER_SEARCH states, or once `control`'s end is near)."""
    failed: set[frozenset] = set()
    budget = [MAX_ORDER_SEARCH]

    def search(cur: frozenset, left: frozenset) -> list[Cell] | None:
        if not left:
            return []
        if left in failed:
            return None
        if budget[0] <= 0 or (control is not None and budget[0] % 64 == 0 and control.out_of_time()):
            raise OrderSearchLimit()
        budget[0] -= 1
        for cell in sorted(left):
            if moves.removable(set(cur), cell).legal:
                rest = search(cur - {cell}, left - {cell})
                if rest is not None:
                    return [cell] + rest
        failed.add(left)
        return None
    return search(frozenset(garden_cells), frozenset(remove))


def enclosure_cuts(placed: set[Cell], kept: set[Cell], gone: set[Cell]) -> list[tuple[Cell, list[Cell]]]:
    """Tiles to remove that the kept tiles wall in: (tile, the kept tiles around its pocket).

    A tile in a pocket that kept tiles close off can never reach the garden's edge while those wall
    tiles stay, whatever else is kept or taken off (keeping more only narrows the pocket), so
    "keep the tile, or take off one tile of the wall" is a valid cut for every such tile.
    """
    rows = [r for r, _ in placed]
    cols = [c for _, c in placed]
    r0, r1, c0, c1 = min(rows) - 1, max(rows) + 1, min(cols) - 1, max(cols) + 1
    out, done = [], set()
    for t in sorted(gone):
        if t in done:
            continue
        pocket, wall, stack, escapes = {t}, set(), [t], False
        while stack:
            cur = stack.pop()
            if cur[0] in (r0, r1) or cur[1] in (c0, c1):
                escapes = True
            for d in DIRECTIONS:
                n = step(cur, d)
                if not (r0 <= n[0] <= r1 and c0 <= n[1] <= c1):
                    continue
                if n in kept:
                    wall.add(n)
                elif n not in pocket:
                    pocket.add(n)
                    stack.append(n)
        done |= pocket
        if not escapes:
            out += [(x, sorted(wall)) for x in sorted(pocket & gone)]
    return out


def _post_escape(m: cp_model.CpModel, placed: set[Cell], keep: dict) -> None:
    """Every tile taken off must reach the outside through cells left open (tiles taken off, empty
    cells): a necessary condition of a legal order, posted as reachability from the ring around the
    garden's box with depth labels (each reached cell has an open neighbour one step nearer the ring)."""
    rows = [r for r, _ in placed]
    cols = [c for _, c in placed]
    r0, r1, c0, c1 = min(rows) - 1, max(rows) + 1, min(cols) - 1, max(cols) + 1
    box = [(r, c) for r in range(r0, r1 + 1) for c in range(c0, c1 + 1)]
    ring = {x for x in box if x[0] in (r0, r1) or x[1] in (c0, c1)}
    inner = [x for x in box if x not in ring]
    reach = {x: m.new_bool_var("") for x in inner}
    depth = {x: m.new_int_var(1, len(inner), "") for x in inner}
    for x in inner:
        if x in placed:
            m.add_implication(reach[x], keep[x].Not())
            m.add_implication(keep[x].Not(), reach[x])
        via = []
        for d in DIRECTIONS:
            n = step(x, d)
            if n in ring:
                via.append(reach[x])   # next to the ring: reached as soon as it is open
                continue
            p = m.new_bool_var("")
            m.add_implication(p, reach[n])
            m.add(depth[n] < depth[x]).only_enforce_if(p)
            via.append(p)
        m.add_bool_or(via).only_enforce_if(reach[x])


def _keep_model(garden: Garden, cards: list[Card], mode: Mode, catalog: Catalog, floating: bool = False):
    gm = GardenModel(cards, mode, _tiles(mode, catalog), rotation_free=False)
    if any(impossible(gm, c) for c in cards):
        return gm, None, {}
    m = gm.model
    for card in cards:
        post(gm, card, m.new_constant(1))
    # keep[c] = the tile stays (its cell shows its signature). A tile that goes may come back as another
    # tile of its class: under removal rules a tile can have to leave only to clear the way.
    shifts = {o: m.new_bool_var("") for o in offsets(garden)} if floating else {(0, 0): m.new_constant(1)}
    m.add_exactly_one(list(shifts.values()))
    keep = {}
    for (r, c), p in sorted(garden.cells.items()):
        keep[(r, c)] = m.new_bool_var("")
        sig = gm.sig_of[(p.tile.id, p.rotation)]
        for (dr, dc), lit in shifts.items():
            m.add_bool_or([keep[(r, c)].Not(), lit.Not(), gm.y[((r + dr, c + dc), sig)]])
    return gm, keep, shifts


def repair(garden: Garden, cards: list[Card], mode: Mode, catalog: Catalog, control: SolveControl | None = None,
           removal_rules: bool = False, unordered_first: bool = True, _completion_checked: bool = False,
           floating: bool = False, _free_bound: int | None = None) -> Repair:
    """The fewest tiles to take off so that the rest can be completed into a valid garden.

    CP-SAT maximises the tiles kept (same cell, same signature) with the current garden as hints.
    With `removal_rules` the kept tiles must stay one connected piece (posted), and the removed set
    must be removable one tile at a time from the edge without splitting (checked exactly in Python;
    a refused set is cut off with a no-good and the model re-solved, so the optimum stays proven).
    The optimum without the rules is tried first: when it happens to have a legal order it is also
    the optimum with them (the rules only take solutions away).
    """
    control = control or SolveControl()
    _check_garden(garden, mode, catalog)
    start = time.perf_counter()
    placed = set(garden.cells)
    if removal_rules:
        check_one_piece(garden)
    # each step below builds a model and searches it: none starts once the call's budget is gone
    if control.out_of_time():
        return Repair("unknown", removal_rules=removal_rules, seconds=time.perf_counter() - start)
    if unordered_first and not _completion_checked:
        # Most gardens can still be completed: one feasibility solve with the tiles fixed (strong
        # presolve) proves "nothing to remove" faster than the optimisation would.
        done, shift = (complete_floating(garden, cards, mode, catalog, control) if floating else
                       (engine.complete(garden, cards, mode, catalog, control), (0, 0)))
        if done.verdict == engine.SOLVABLE:
            return Repair("optimal", [], len(placed), 0, done.garden, removal_rules, time.perf_counter() - start,
                          shift)
        if control.out_of_time():
            return Repair("unknown", removal_rules=removal_rules, seconds=time.perf_counter() - start)
    gm, keep, shifts = _keep_model(garden, cards, mode, catalog, floating)
    if keep is None:
        return Repair("unsolvable", removal_rules=removal_rules, seconds=time.perf_counter() - start)
    m = gm.model
    connected = False
    if removal_rules and keep and not unordered_first:
        connected = True
        cells = sorted(placed)
        any_kept = m.new_bool_var("")
        m.add_max_equality(any_kept, list(keep.values()))
        z = connected_group(m, cells, keep, any_kept, name="kept")
        for c in cells:
            m.add(z[c] == keep[c])
        _post_escape(m, placed, keep)
    for lit in keep.values():
        m.add_hint(lit, 1)
    m.maximize(cp_model.LinearExpr.sum(list(keep.values())))
    verdict, order, solver = "unknown", [], None
    for _ in range(MAX_REPAIR_ROUNDS):
        if control.out_of_time():
            return Repair("unknown", removal_rules=removal_rules, seconds=time.perf_counter() - start)
        status, solver = control.solve(m, engine.tuned_solver(control))
        if status == cp_model.INFEASIBLE:
            return Repair("unsolvable", removal_rules=removal_rules, seconds=time.perf_counter() - start)
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return Repair("unknown", bound=0, removal_rules=removal_rules, seconds=time.perf_counter() - start)
        kept = {c for c, lit in keep.items() if solver.boolean_value(lit)}
        gone = placed - kept
        if not removal_rules:
            order = sorted(gone)
            break
        try:
            found = removal_order(placed, gone, control)
        except OrderSearchLimit:
            return Repair("unknown", removal_rules=removal_rules, seconds=time.perf_counter() - start)
        if found is not None:
            order = found
            break
        if not connected:
            # the optimum without the rules has no legal order: solve again with them posted
            # (what this optimum proved stays a lower bound for routes that add tiles before removing)
            return repair(garden, cards, mode, catalog, control, removal_rules=True, unordered_first=False,
                          floating=floating, _free_bound=max(0, len(placed) - round(solver.best_objective_bound)))
        cuts = enclosure_cuts(placed, kept, gone)
        for t, frontier in cuts:
            m.add_bool_or([keep[t]] + [keep[f].Not() for f in frontier])
        if not cuts:
            # no legal order for exactly this removal set: forbid it and ask again
            m.add_bool_or([keep[c].Not() for c in kept] + [keep[c] for c in gone])
        status = None
    else:
        return Repair("unknown", removal_rules=removal_rules, seconds=time.perf_counter() - start)
    verdict = "optimal" if status == cp_model.OPTIMAL else "feasible"
    prefer = {cell: (p.tile.id, p.rotation) for cell, p in garden.cells.items()}
    stay = placed - set(order)
    dr, dc = shift = next(o for o, lit in shifts.items() if solver.boolean_value(lit))
    witness = engine.verified(gm.to_garden(gm.chosen(solver), {(r + dr, c + dc): prefer[(r, c)] for r, c in stay}),
                             cards)
    kept = {(r, c) for r, c in placed if witness.get((r + dr, c + dc)) == garden.get((r, c))}
    if not stay <= kept:
        raise engine.EngineError("the repaired garden does not keep the tiles the model kept")
    bound = len(placed) - round(solver.best_objective_bound)
    return Repair(verdict, order, len(stay), max(0, bound), witness, removal_rules, time.perf_counter() - start,
                  shift, _free_bound)
