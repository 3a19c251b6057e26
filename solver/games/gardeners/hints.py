"""Gardeners hints from a player's current garden: check so far, repair, next move (levels 1-3), forced placements.

Every claim ("can no longer be completed", "minimal", "forced", "shortest") is made only when CP-SAT
proved it; otherwise the answer says unknown (or gives the best found with `proven=False`). Gardens
here are laid in the mode's n x n frame (cells 0..n-1), as in CheckGarden; with `floating` a
Normal-mode garden may still slide within it. See docs/hints.md.
"""
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
from solver.games.gardeners.cards.verdict import OPEN, SATISFIED, VIOLATED
from solver.games.gardeners.checker import check
from solver.games.gardeners.encodings import impossible, post
from solver.games.gardeners.garden import Garden
from solver.games.gardeners.model import GardenModel
from solver.games.gardeners.modes import Mode
from solver.games.gardeners.tiles import Catalog

# Per-card progress statuses.
SATISFIED_NOW = "satisfied"   # holds whatever is added later (pure checker)
BROKEN = "broken"             # fails whatever is added later (pure checker), with the cells
BLOCKED = "blocked"           # open, but no completion of this garden meets this card (CP-SAT proof)
POSSIBLE = "possible"         # open, and some completion meets it (a checked witness exists)
UNKNOWN = "unknown"           # the limit was reached before either was shown

NORMAL_RULES, SOLO_RULES = "normal", "solo"
MAX_REPAIR_ROUNDS = 25   # re-solves after refusing a removal set that cannot be removed in order
MAX_ORDER_SEARCH = 20000  # states explored when looking for a legal removal order
DIVERSE_DETERMINISTIC_TIME = 0.3  # forced placements: budget of the search for a very different completion


# ---- check so far ---------------------------------------------------------------------------

@dataclass
class CardProgress:
    card_id: str
    kind: str
    status: str
    cells: tuple[Cell, ...] = ()
    reason: str = ""


@dataclass
class Progress:
    completable: str                 # engine.SOLVABLE / UNSOLVABLE (proven) / UNKNOWN
    cards: list[CardProgress]
    witness: Garden | None = None    # a checked completion when completable
    complete: bool = False           # every cell holds a tile
    valid: bool = False              # complete and every card satisfied
    seconds: float = 0.0
    shift: tuple[int, int] | None = None  # how the witness shifted the garden (always (0, 0) unless floating)


def _tiles(mode: Mode, catalog: Catalog):
    return catalog.tiles_of(mode.tile_sets)


def _check_garden(garden: Garden, mode: Mode, catalog: Catalog) -> None:
    engine.check_fit(mode, catalog)
    if garden.size != mode.size:
        raise InputError("size", f"mode {mode.name} plays on a {mode.size}x{mode.size} garden", garden.size)
    allowed = {t.id for t in _tiles(mode, catalog)}
    for cell, p in sorted(garden.cells.items()):
        if p.tile.id not in allowed:
            raise InputError("placements", f"tile {p.tile.id} is not played in mode {mode.name}", p.tile.id)


def _complete(garden: Garden, cards: list[Card], mode: Mode, catalog: Catalog, control: SolveControl) -> engine.Solved:
    """engine.complete, after a short try with closed routes restricted to rectangular rings (as in
    engine.solve): a ring witness is a real, checked completion; failing to find one proves nothing."""
    if any(c.kind == "path" and c.spec.shape == "loop" for c in cards):
        start = time.perf_counter()
        gm = GardenModel(cards, mode, _tiles(mode, catalog), rotation_free=False)
        if not any(impossible(gm, c) for c in cards):
            engine.fix_placements(gm, garden)
            for card in cards:
                post(gm, card, gm.model.new_constant(1), rings_only=True)
            status, solver = control.solve(gm.model, engine.tuned_solver(control, engine.FAST_PATH_DETERMINISTIC_TIME))
            if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
                prefer = {c: (p.tile.id, p.rotation) for c, p in garden.cells.items()}
                witness = engine.verified(gm.to_garden(gm.chosen(solver), prefer), cards)
                if any(witness.get(c) != p for c, p in garden.cells.items()):
                    raise engine.EngineError("a ring completion moved a tile of the garden")
                return engine.Solved(engine.SOLVABLE, witness, time.perf_counter() - start)
    return engine.complete(garden, cards, mode, catalog, control)


def offsets(garden: Garden) -> list[tuple[int, int]]:
    """The shifts (rows, cols) that keep every tile of the garden inside the frame, (0, 0) first."""
    if not garden.cells:
        return [(0, 0)]
    rows = [r for r, _ in garden.cells]
    cols = [c for _, c in garden.cells]
    n = garden.size
    out = [(dr, dc) for dr in range(-min(rows), n - max(rows)) for dc in range(-min(cols), n - max(cols))]
    return sorted(out, key=lambda o: (o != (0, 0), o))


def shifted(garden: Garden, offset: tuple[int, int]) -> Garden:
    dr, dc = offset
    return Garden(garden.size, {(r + dr, c + dc): p for (r, c), p in garden.cells.items()})


def complete_floating(garden: Garden, cards: list[Card], mode: Mode, catalog: Catalog,
                      control: SolveControl | None = None) -> tuple[engine.Solved, tuple[int, int] | None]:
    """A completion of the garden slid anywhere in the frame (Normal mode: the garden floats on the
    table until it is a full square), one model with a literal per shift; or a proof that none exists."""
    control = control or SolveControl()
    start = time.perf_counter()
    gm = GardenModel(cards, mode, _tiles(mode, catalog), rotation_free=False)
    for card in cards:
        reason = impossible(gm, card)
        if reason:
            return engine.Solved(engine.UNSOLVABLE, None, time.perf_counter() - start, f"{card.id}: {reason}"), None
    m = gm.model
    shifts = offsets(garden)
    lits = [m.new_bool_var("") for _ in shifts]
    m.add_exactly_one(lits)
    for (dr, dc), lit in zip(shifts, lits):
        for (r, c), p in garden.cells.items():
            m.add_implication(lit, gm.y[((r + dr, c + dc), gm.sig_of[(p.tile.id, p.rotation)])])
    for card in cards:
        post(gm, card, m.new_constant(1))
    status, solver = control.solve(m, engine.tuned_solver(control))
    elapsed = time.perf_counter() - start
    if status == cp_model.INFEASIBLE:
        return engine.Solved(engine.UNSOLVABLE, None, elapsed), None
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return engine.Solved(engine.UNKNOWN, None, elapsed), None
    shift = next(o for o, lit in zip(shifts, lits) if solver.boolean_value(lit))
    moved = shifted(garden, shift)
    prefer = {cell: (p.tile.id, p.rotation) for cell, p in moved.cells.items()}
    witness = engine.verified(gm.to_garden(gm.chosen(solver), prefer), cards)
    if any(witness.get(c) != p for c, p in moved.cells.items()):
        raise engine.EngineError("a floating completion moved a tile of the garden")
    return engine.Solved(engine.SOLVABLE, witness, elapsed), shift


def _floating_verdict(card: Card, garden: Garden, shifts):
    """The checker's verdict wherever the garden ends up: satisfied (or violated) only if it is so
    at every shift; the cells and reason are those of the garden where it lies now."""
    here = card.check(garden)
    statuses = {card.check(shifted(garden, o)).status for o in shifts[1:]} | {here.status}
    if len(statuses) == 1:
        return here
    from solver.games.gardeners.cards.verdict import Verdict
    return Verdict(OPEN, here.cells, here.reason)


def check_progress(garden: Garden, cards: list[Card], mode: Mode, catalog: Catalog,
                   control: SolveControl | None = None, floating: bool = False) -> Progress:
    """Per card: satisfied / broken now (cells) / blocked (proven: no completion meets it) / possible.

    With `floating` (Normal mode) the garden may still slide within the frame: a card is satisfied or
    broken only if it is so wherever the garden ends up, and completions may shift the garden
    (`Progress.shift` says how the witness shifted it)."""
    control = control or SolveControl()
    _check_garden(garden, mode, catalog)
    start = time.perf_counter()
    shift: tuple[int, int] | None = (0, 0)
    if floating:
        shifts = offsets(garden)
        report = check(garden, cards)
        verdicts = [_floating_verdict(c, garden, shifts) for c in cards]
        from solver.games.gardeners.checker import CardReport, CheckReport
        report = CheckReport(report.complete, tuple(CardReport(c.id, c.kind, v.status, v.cells, v.reason)
                                                    for c, v in zip(cards, verdicts)))

        def completer(chosen):
            return complete_floating(garden, chosen, mode, catalog, control)
    else:
        report = check(garden, cards)

        def completer(chosen):
            return _complete(garden, chosen, mode, catalog, control), (0, 0)
    broken = [c.id for c, v in zip(cards, report.verdicts) if v.status == VIOLATED]
    others = [c for c, v in zip(cards, report.verdicts) if v.status == OPEN]
    rest = None
    if broken:
        # The pure checker's "violated" is final (no tile added can mend it), so the garden cannot be
        # completed; one solve of the open cards together can still vouch for all of them.
        joint = engine.Solved(engine.UNSOLVABLE, reason=f"card {broken[0]} is broken for good")
        if others:
            rest, _ = completer(others)
    else:
        joint, shift = completer(cards)
        rest = joint
    out = []
    for card, v in zip(cards, report.verdicts):
        if v.status == SATISFIED:
            out.append(CardProgress(card.id, card.kind, SATISFIED_NOW, v.cells, ""))
        elif v.status == VIOLATED:
            out.append(CardProgress(card.id, card.kind, BROKEN, v.cells, v.reason))
        elif rest is not None and rest.verdict == engine.SOLVABLE:
            # a witness meets every open card together, so each of them is still possible
            out.append(CardProgress(card.id, card.kind, POSSIBLE, v.cells, v.reason))
        else:
            alone = rest if len(others) == 1 and rest is not None else completer([card])[0]
            status = {engine.SOLVABLE: POSSIBLE, engine.UNSOLVABLE: BLOCKED}.get(alone.verdict, UNKNOWN)
            why = v.reason
            if status == BLOCKED:
                why = alone.reason or "no way of completing this garden meets this card"
            out.append(CardProgress(card.id, card.kind, status, v.cells, why))
    # a complete garden fills the frame, so it cannot slide: `valid` means the same with `floating`
    return Progress(joint.verdict, out, joint.garden, report.complete, report.valid, time.perf_counter() - start,
                    shift if joint.verdict == engine.SOLVABLE else None)


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


def removal_order(garden_cells: set[Cell], remove: set[Cell]) -> list[Cell] | None:
    """An order in which `remove` can leave the garden one tile at a time under the Normal-mode rules
    (from the edge, never splitting), or None when there is none (exhaustive search over subsets;
    OrderSearchLimit past MAX_ORDER_SEARCH states)."""
    failed: set[frozenset] = set()
    budget = [MAX_ORDER_SEARCH]

    def search(cur: frozenset, left: frozenset) -> list[Cell] | None:
        if not left:
            return []
        if left in failed:
            return None
        if budget[0] <= 0:
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
    if removal_rules and placed and len(components(placed)) > 1:
        raise InputError("garden", "under Normal removal rules the garden must be one piece")
    if unordered_first and not _completion_checked:
        # Most gardens can still be completed: one feasibility solve with the tiles fixed (strong
        # presolve) proves "nothing to remove" faster than the optimisation would.
        done, shift = (complete_floating(garden, cards, mode, catalog, control) if floating else
                       (engine.complete(garden, cards, mode, catalog, control), (0, 0)))
        if done.verdict == engine.SOLVABLE:
            return Repair("optimal", [], len(placed), 0, done.garden, removal_rules, time.perf_counter() - start,
                          shift)
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
            found = removal_order(placed, gone)
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


# ---- next move ------------------------------------------------------------------------------

@dataclass
class Hint:
    """One computed hint; every level is a view of it, so levels never contradict each other."""
    # "move", "wait" (Normal supplies: another player moves first), "done", "unsolvable", "unknown"
    status: str
    card_id: str = ""                 # the card the move serves (level 1)
    card_kind: str = ""
    card_status: str = ""             # its progress status (satisfied/broken/blocked/possible)
    cells: tuple[Cell, ...] = ()      # the region to look at (level 2)
    move: moves.Move | None = None    # the exact move (level 3)
    reason: str = ""                  # one sentence naming the card
    route_length: int = 0             # moves left on the route this move starts
    proven: bool = False              # route_length is proven shortest for the move rules
    seconds: float = 0.0
    route_bound: int = 0              # a proven lower bound on the moves of any route (= route_length when proven)

    def at_level(self, level: int) -> dict:
        """What a player sees at `level` (1: the card at risk, 2: + the cells, 3: + the move)."""
        if level not in (1, 2, 3):
            raise InputError("level", "must be 1, 2 or 3", level)
        out = {"status": self.status, "card_id": self.card_id, "card_kind": self.card_kind,
               "card_status": self.card_status, "text": self.text(level)}
        if level >= 2:
            out["cells"] = list(self.cells)
        if level >= 3:
            out.update(move=self.move, reason=self.reason, route_length=self.route_length, proven=self.proven,
                       route_bound=self.route_bound)
        return out

    def text(self, level: int) -> str:
        if self.status == "wait":
            first = (f"Wait: on a shortest route another player lays a tile first; it is about card "
                     f"{self.card_id} ({self.card_kind}), which is {_STATUS_WORDS[self.card_status]}.")
            if level == 1:
                return first
            second = f"{first} Look at {', '.join(f'({r}, {c})' for r, c in self.cells)}."
            return second if level == 2 else f"{second} {self.reason}"
        if self.status != "move":
            return self.reason
        first = f"Look at card {self.card_id} ({self.card_kind}): it is {_STATUS_WORDS[self.card_status]}."
        if level == 1:
            return first
        where = ", ".join(f"({r}, {c})" for r, c in self.cells)
        second = f"{first} Look at {where}."
        return second if level == 2 else f"{second} {self.reason}"


_STATUS_WORDS = {SATISFIED_NOW: "satisfied but the garden around it still has to be finished",
                 BROKEN: "broken now", BLOCKED: "out of reach with the tiles as they are",
                 POSSIBLE: "still open", UNKNOWN: "undecided"}


def _unplaced(garden: Garden, mode: Mode, catalog: Catalog) -> list[str]:
    used = {p.tile.id for p in garden.cells.values()}
    return sorted(t.id for t in _tiles(mode, catalog) if t.id not in used)


def state_for(garden: Garden, mode: Mode, catalog: Catalog, rules: str):
    """The move-rule state the hint's move is legal in: every tile not in the garden is available
    (Normal: in player 0's loose supply, player 1 receives removed tiles; Solo: the pool)."""
    g = {c: (p.tile.id, p.rotation) for c, p in garden.cells.items()}
    if rules == SOLO_RULES:
        return moves.SoloState(garden.size, g, _unplaced(garden, mode, catalog))
    return moves.NormalState(garden.size, g, [moves.Supply([], _unplaced(garden, mode, catalog)), moves.Supply([], [])])


def _reads(card: Card, tile) -> bool:
    from solver.games.gardeners.model import card_selectors
    if card.kind == "path":
        return bool(tile.path)
    if card.kind == "panorama" and tile.has("bench"):
        return True
    return any(s.matches(tile) for s in card_selectors([card]))


def _serving_card(progress: Progress, cards: list[Card], cell: Cell, tile) -> CardProgress:
    by_id = {p.card_id: p for p in progress.cards}
    order = {BROKEN: 0, BLOCKED: 1, POSSIBLE: 2, UNKNOWN: 3, SATISFIED_NOW: 4}
    ranked = sorted(cards, key=lambda c: (cell not in by_id[c.id].cells, not _reads(c, tile),
                                          order[by_id[c.id].status], cards.index(c)))
    return by_id[ranked[0].id]


def next_move(garden: Garden, cards: list[Card], mode: Mode, catalog: Catalog, control: SolveControl | None = None,
              rules: str = NORMAL_RULES, removal_rules: bool = True, floating: bool = False,
              supplies: list[moves.Supply] | None = None, player: int = 0) -> Hint:
    """A legal move on a shortest add/remove route to a valid garden, with the card it serves.

    Route length = removals + additions = (placed - kept) + (n*n - kept), so a route is shortest when
    `kept` is the repair optimum. Normal rules: the removals come first, in a legal order (when
    `removal_rules`), then additions next to the garden. Solo rules: when the garden cannot be completed
    as it stands, a move on a shortest place / swap / rotate / remove route (see _solo_hint and
    routes.py), proven shortest or the best found with a proven bound.
    Normal rules with `supplies` (each player's stack, top first, and loose tiles): the move is one
    `player` can make now, and the route's additions must come in an order the stacks allow (see
    supplies.py); "wait" when another player has to lay a tile first.
    """
    if rules not in (NORMAL_RULES, SOLO_RULES):
        raise InputError("rules", "must be 'normal' or 'solo'", rules)
    control = control or SolveControl()
    start = time.perf_counter()
    floating = floating and rules == NORMAL_RULES   # a Solo garden has a fixed frame
    progress = check_progress(garden, cards, mode, catalog, control, floating=floating)
    if progress.valid:
        return Hint("done", reason="The garden is complete and meets every card.",
                    seconds=time.perf_counter() - start)
    if progress.completable == engine.SOLVABLE:
        # nothing has to go: every route adds the missing tiles one by one, so it is shortest
        rep = Repair("optimal", [], len(garden.cells), 0, progress.witness, shift=progress.shift or (0, 0))
    else:
        rep = repair(garden, cards, mode, catalog, control, removal_rules=removal_rules and rules == NORMAL_RULES,
                     _completion_checked=progress.completable == engine.UNSOLVABLE, floating=floating)
    if rep.verdict == "unsolvable":
        return Hint("unsolvable", reason="No valid garden exists for these cards (proven).",
                    seconds=time.perf_counter() - start)
    if rules == SOLO_RULES and rep.remove and rep.witness is not None:
        return _solo_hint(garden, cards, mode, catalog, control, progress, rep, start)
    if rep.witness is None:
        return Hint("unknown", reason="The solver reached its limit before finding a route.",
                    seconds=time.perf_counter() - start)
    n2 = garden.size * garden.size
    length = len(rep.remove) + (n2 - rep.kept)
    # A route may lay tiles before it takes one off (a tile can then leave without splitting the
    # garden), so under removal rules only the optimum without them bounds every route's removals.
    free = rep.bound if rep.free_bound is None else min(rep.bound, rep.free_bound)
    fewest = rep.proven and len(rep.remove) <= free   # no route of any order removes fewer tiles
    proven = fewest and (rules == NORMAL_RULES or not rep.remove)
    # every removal is followed by one more placement, so the removals bound bounds the route
    bound = n2 - len(garden.cells) + 2 * free
    # the valid garden in the player's coordinates (a floating garden may end up shifted in the frame)
    dr, dc = rep.shift
    target = Garden(garden.size, {(r - dr, c - dc): p for (r, c), p in rep.witness.cells.items()})
    if rules == NORMAL_RULES and supplies is not None:
        return _supply_hint(garden, cards, mode, catalog, control, progress, rep, target, supplies, player,
                            removal_rules,
                            length, proven, bound, start)
    if rep.remove:
        first = rep.remove[0]
        if rules == NORMAL_RULES and not removal_rules:
            # any order is as short, so start with a tile the rules let go now (if there is one)
            cells = set(garden.cells)
            first = next((c for c in rep.remove if moves.removable(cells, c).legal), first)
        cell = first
        placed = garden.get(cell)
        card = _serving_card(progress, cards, cell, placed.tile)
        move = (moves.Move(moves.REMOVE, tile=placed.tile.id, cell=cell) if rules == SOLO_RULES else
                moves.Move(moves.REMOVE, 0, placed.tile.id, cell, to_player=1))
        count = (f"{len(rep.remove)} removal{'s' if len(rep.remove) > 1 else ''} "
                 f"{'are' if len(rep.remove) > 1 else 'is'} the fewest" if fewest else
                 f"{len(rep.remove)} removal{'s' if len(rep.remove) > 1 else ''} (the fewest found)")
        if card.status == BROKEN and cell in card.cells:
            reason = (f"Remove {placed.tile.id} from {cell}: it breaks card {card.card_id} ({card.kind}); "
                      f"{count} that make the garden completable again.")
        else:
            reason = (f"Remove {placed.tile.id} from {cell} for card {card.card_id} ({card.kind}): {count} "
                      f"that make the garden completable again, and this one comes first.")
        return _hint(card, cell, move, reason, length, proven, start, bound)
    empty = [c for c in sorted(target.cells) if c not in garden.cells]
    if rules == NORMAL_RULES and garden.cells:
        empty = [c for c in empty if any(step(c, d) in garden.cells for d in DIRECTIONS)]
    # prefer the cell whose tile an unfinished card reads, so the hint teaches something
    def rank(c):
        card = _serving_card(progress, cards, c, target.get(c).tile)
        return (card.status == SATISFIED_NOW, not _reads(next(x for x in cards if x.id == card.card_id),
                                                          target.get(c).tile), c)
    cell = min(empty, key=rank)
    aim = target.get(cell)
    card = _serving_card(progress, cards, cell, aim.tile)
    move = (moves.Move(moves.ADD, tile=aim.tile.id, cell=cell, rotation=aim.rotation) if rules == SOLO_RULES else
            moves.Move(moves.ADD, 0, aim.tile.id, cell, aim.rotation))
    reason = (f"Place {aim.tile.id} at {cell} in rotation {aim.rotation}: it serves card {card.card_id} "
              f"({card.kind}) and keeps the garden completable.")
    return _hint(card, cell, move, reason, length, proven, start, bound)


def _supply_hint(garden: Garden, cards: list[Card], mode: Mode, catalog: Catalog, control: SolveControl,
                 progress: Progress, rep: Repair,
                 target: Garden, supplies: list[moves.Supply], player: int, removal_rules: bool, length: int,
                 proven: bool, bound: int, start: float) -> Hint:
    from solver.games.gardeners import supplies as sup
    remove = list(rep.remove)
    if remove and not removal_rules:
        # any order is as short, so start with a tile the rules let go now (if there is one)
        cells = set(garden.cells)
        first = next((c for c in remove if moves.removable(cells, c).legal), remove[0])
        remove = [first] + [c for c in remove if c != first]

    def prefer(c):
        card = _serving_card(progress, cards, c, target.get(c).tile)
        return (card.status == SATISFIED_NOW, not _reads(next(x for x in cards if x.id == card.card_id),
                                                          target.get(c).tile), c)
    kept = Garden(garden.size, {c: p for c, p in garden.cells.items() if c not in remove})
    candidates = sup.targets(kept, target, cards, mode, catalog, control, supplies if not remove else
                             sup.handed_over(garden, remove, supplies, player), want_player=None if remove else player,
                             shift=rep.shift)
    plan = sup.plan(garden, candidates, remove, supplies, player, cards, catalog, prefer)
    target = plan.target or target
    if plan.status == "stuck":
        return Hint("unknown", reason=(f"No order found in which the players' stacks let the tiles of the nearest "
                                       f"valid garden come in; any route takes at least {bound} moves."),
                    seconds=time.perf_counter() - start, route_bound=bound)
    if plan.status == "wait":
        o = plan.other
        card = _serving_card(progress, cards, o.cell, catalog.tile(o.tile))
        return Hint("wait", card.card_id, card.kind, card.status, tuple(sorted({o.cell, *card.cells})), None,
                    (f"Player {player}, none of your tiles fits next to the garden yet on a shortest route: "
                     f"player {o.player} can lay {o.tile} at {o.cell} first."),
                    length, proven, time.perf_counter() - start, length if proven else min(bound, length))
    move = plan.move
    if move.kind == moves.REMOVE:
        card = _serving_card(progress, cards, move.cell, catalog.tile(move.tile))
        reason = (f"Remove {move.tile} from {move.cell} and hand it to player {move.to_player}, for card "
                  f"{card.card_id} ({card.kind}): {len(remove)} removal{'s' if len(remove) > 1 else ''} "
                  f"{'(proven fewest)' if proven else '(the fewest found)'} make the garden completable again.")
    else:
        card = _serving_card(progress, cards, move.cell, catalog.tile(move.tile))
        where = "the top of your stack" if supplies[player].stack[:1] == [move.tile] else "your loose tiles"
        reason = (f"Lay {move.tile} from {where} at {move.cell} in rotation {move.rotation}: it serves card "
                  f"{card.card_id} ({card.kind}) and the other tiles can still come in order.")
    return _hint(card, move.cell, move, reason, length, proven, start, bound)


def _solo_hint(garden: Garden, cards: list[Card], mode: Mode, catalog: Catalog, control: SolveControl,
               progress: Progress, rep: Repair, start: float) -> Hint:
    """Solo rules, garden not completable as it stands: a move on a shortest route (routes.solo_route:
    CP-SAT over every valid garden, proven or best found + bound). Every move that brings one tile
    to its place in the route's target garden (a turn, a swap closing a cycle, a move into the empty
    end of a chain, a placement from the pool) shortens the route to that garden by exactly one, so
    it lies on a route of `length` moves; among them the hint takes the one a card is most about."""
    from solver.games.gardeners import routes
    sr = routes.solo_route(garden, cards, mode, catalog, control, layout=rep.witness,
                           kept_max=rep.kept if rep.proven else None)
    if sr.verdict == "unsolvable":
        return Hint("unsolvable", reason="No valid garden exists for these cards (proven).",
                    seconds=time.perf_counter() - start)
    if sr.target is None:
        return Hint("unknown", reason="The solver reached its limit before finding a route.",
                    seconds=time.perf_counter() - start, route_bound=sr.bound)
    cur = routes._state(garden)
    target = routes._state(sr.target)
    pool = _unplaced(garden, mode, catalog)
    firsts = routes.first_moves(cur, pool, target)
    order = {BROKEN: 0, BLOCKED: 1, POSSIBLE: 2, UNKNOWN: 3, SATISFIED_NOW: 4}
    kinds = {moves.SWAP: 0, moves.ROTATE: 1, moves.ADD: 2}

    def dest(mv):
        return mv.other if mv.kind == moves.SWAP else mv.cell

    def rank(mv):
        card = _serving_card(progress, cards, dest(mv), catalog.tile(mv.tile))
        return (order[card.status], dest(mv) not in card.cells, kinds[mv.kind], mv.cell, mv.other or (0, 0))
    move = min(firsts, key=rank)
    cell = dest(move)
    card = _serving_card(progress, cards, cell, catalog.tile(move.tile))
    if sr.verdict == "optimal":
        count = f"{sr.length} move{'s' if sr.length != 1 else ''} is the fewest (proven)"
    else:
        count = f"a route of {sr.length} moves (the fewest found; at least {sr.bound} are needed)"
    if move.kind == moves.SWAP:
        what = "with the tile there" if cell in cur else "to the empty cell"
        reason = f"Move {move.tile} from {move.cell} to {cell} ({what}) for card {card.card_id} ({card.kind}): {count}."
    elif move.kind == moves.ROTATE:
        reason = (f"Turn {move.tile} at {cell} to rotation {move.rotation} for card {card.card_id} ({card.kind}): "
                  f"{count}.")
    else:
        reason = (f"Place {move.tile} at {cell} in rotation {move.rotation} for card {card.card_id} ({card.kind}): "
                  f"{count}.")
    return _hint(card, cell, move, reason, sr.length, sr.verdict == "optimal", start, sr.bound)


def _hint(card: CardProgress, cell: Cell, move, reason: str, length: int, proven: bool, start: float,
          bound: int = 0) -> Hint:
    # the region shows every cell the move touches (a swap: both), so level 3 never points outside level 2
    touched = {c for c in (cell, getattr(move, "cell", None), getattr(move, "other", None)) if c is not None}
    region = tuple(sorted(touched | set(card.cells)))
    return Hint("move", card.card_id, card.kind, card.status, region, move, reason, length, proven,
                time.perf_counter() - start, length if proven else min(bound, length))


# ---- forced placements ----------------------------------------------------------------------

@dataclass
class ForcedCell:
    cell: Cell
    tiles: tuple[str, ...]            # the tiles that may stand there: those of one class (all alike for the cards) not yet laid
    rotations: dict[str, tuple[int, ...]]  # per tile, the rotations showing the forced features

    @property
    def tile(self) -> str | None:
        """The tile itself when the class holds a single tile."""
        return self.tiles[0] if len(self.tiles) == 1 else None


@dataclass
class Forced:
    verdict: str                      # engine.SOLVABLE (list is exact), UNSOLVABLE, UNKNOWN
    cells: list[ForcedCell] = field(default_factory=list)
    undecided: list[Cell] = field(default_factory=list)  # cells whose test hit the limit
    seconds: float = 0.0


def forced_placements(garden: Garden, cards: list[Card], mode: Mode, catalog: Catalog,
                      control: SolveControl | None = None) -> Forced:
    """The empty cells whose content is the same in every valid completion, as far as the cards can see.

    Backbone: solve once; for each empty cell assume the negation of its witness signature. Infeasible
    proves the cell forced; a new witness drops every cell it shows differently from the candidates.
    """
    control = control or SolveControl()
    _check_garden(garden, mode, catalog)
    start = time.perf_counter()
    gm = GardenModel(cards, mode, _tiles(mode, catalog), rotation_free=False)
    if any(impossible(gm, c) for c in cards):
        return Forced(engine.UNSOLVABLE, seconds=time.perf_counter() - start)
    engine.fix_placements(gm, garden)
    for card in cards:
        post(gm, card, gm.model.new_constant(1))
    m = gm.model
    status, solver = control.solve(m, engine.tuned_solver(control))
    if status == cp_model.INFEASIBLE:
        return Forced(engine.UNSOLVABLE, seconds=time.perf_counter() - start)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return Forced(engine.UNKNOWN, seconds=time.perf_counter() - start)
    witness = gm.chosen(solver)
    engine.verified(gm.to_garden(witness, {c: (p.tile.id, p.rotation) for c, p in garden.cells.items()}), cards)
    candidates = {c: s for c, s in witness.items() if c not in garden.cells}
    # A short search for a completion differing from the witness on as many candidates as possible
    # clears most non-forced cells at once; only feasible solutions are used, nothing is claimed.
    for _ in range(2):
        if not candidates:
            break
        m.minimize(cp_model.LinearExpr.sum([gm.y[(c, s)] for c, s in candidates.items()]))
        diverse = engine.tuned_solver(control, DIVERSE_DETERMINISTIC_TIME)
        status, solver = control.solve(m, diverse)
        m.clear_objective()
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            break
        other = gm.chosen(solver)
        before = len(candidates)
        candidates = {c: s for c, s in candidates.items() if other[c] == s}
        witness = other
        if status == cp_model.OPTIMAL or len(candidates) == before:
            break
    forced, undecided = [], []
    laid = {p.tile.id for p in garden.cells.values()}
    for cell in sorted(candidates):
        if cell not in candidates:
            continue
        sig = candidates[cell]
        m.clear_assumptions()
        m.clear_hints()
        for c, s in witness.items():
            m.add_hint(gm.y[(c, s)], 1)
        m.add_assumptions([gm.y[(cell, sig)].Not()])
        status, solver = control.solve(m, engine.tuned_solver(control))
        if status == cp_model.INFEASIBLE:
            # the class's tiles still to lay: one already in the garden cannot stand here too
            tiles = [t for t in gm.classes[gm.sig_class[sig]] if t.id not in laid]
            rotations = {t.id: tuple(r for r in range(4) if gm.sig_of[(t.id, r)] == sig) for t in tiles}
            forced.append(ForcedCell(cell, tuple(t.id for t in tiles), rotations))
        elif status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            other = gm.chosen(solver)
            for c in list(candidates):
                if other[c] != candidates[c]:
                    del candidates[c]
            witness = other
        else:
            undecided.append(cell)
            del candidates[cell]
    m.clear_assumptions()
    verdict = engine.SOLVABLE if not undecided else engine.UNKNOWN
    return Forced(verdict, forced, undecided, time.perf_counter() - start)
