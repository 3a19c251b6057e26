"""Normal-mode supplies in hints: which tiles a player can lay now, and whether the additions of a route
can come in the order the players' stacks release them.

Rulebook (Normal mode, "Adding a Tile"): a player adds only tiles from their personal supply: the top
tile of their face-up stack, or any tile beside it (tiles other players removed from the garden and
handed over). A tile goes next to the garden. There are no turns (everyone plays at once), so "whose
move it is" is simply the player asking for the hint; the others act as the route needs.

Decisions (docs/hints.md):
- The route is the Normal route of hints.next_move: the fewest removals (in a legal order) followed
  by the additions of the target garden. Its length, removals + additions, is a lower bound for any
  route whatever the supplies, so when the supplies let the additions come in some order, the route is
  still shortest (proven when the repair was).
- A removed tile goes to the next player's loose tiles (anyone may then lay it at any time).
- The order check is greedy over tiles the cards cannot tell apart (a tile may fill any target cell
  whose features it can show, turned as needed): lay any available tile on any fitting cell next to
  the garden, until the garden is full. Available tiles and open cells only grow, so with the tiles
  bound to cells this greedy finds an order whenever one exists; with interchangeable tiles it can
  miss one, and then the hint says "unknown" with the bound instead of claiming a route.
- The player's move is the first step of a completed greedy order that starts with one of their own
  tiles; when none of their tiles can come first the hint is "wait", naming a player who can move.
"""
from __future__ import annotations

from dataclasses import dataclass

from solver.core.grid import DIRECTIONS, Cell, step
from solver.errors import InputError
from solver.games.gardeners import moves
from solver.games.gardeners.cards import Card
from solver.games.gardeners.garden import Garden
from solver.games.gardeners.model import Features
from solver.games.gardeners.modes import Mode
from solver.games.gardeners.tiles import Catalog

MAX_PLAYERS = 8


def parse_supplies(doc, garden: Garden, mode: Mode, catalog: Catalog, player: int = 0) -> list[moves.Supply]:
    """Supplies from plain data [{"stack": [top, ...], "loose": [...]}, ...]: every tile of the mode lies
    exactly once in the garden or in one supply; at least two players (a removed tile goes to another
    player); `player` indexes them. Errors name the field."""
    if not isinstance(doc, list):
        raise InputError("supplies", "must be a list of {stack, loose}", type(doc).__name__)
    if not 2 <= len(doc) <= MAX_PLAYERS:
        raise InputError("supplies", f"Normal mode is played by 2 to {MAX_PLAYERS} players", len(doc))
    if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < len(doc):
        raise InputError("player", f"must index the supplies (0 to {len(doc) - 1})", player)
    allowed = {t.id for t in catalog.tiles_of(mode.tile_sets)}
    seen = {p.tile.id: "garden" for p in garden.cells.values()}
    out = []
    for i, s in enumerate(doc):
        if not isinstance(s, dict):
            raise InputError(f"supplies[{i}]", "must be an object {stack, loose}", s)
        lists = {}
        for name in ("stack", "loose"):
            items = s.get(name, [])
            if not isinstance(items, list):
                raise InputError(f"supplies[{i}].{name}", "must be a list of tile ids", items)
            for j, tid in enumerate(items):
                where = f"supplies[{i}].{name}[{j}]"
                if tid not in allowed:
                    raise InputError(where, f"not a tile of mode {mode.name}", tid)
                if tid in seen:
                    raise InputError(where, f"the tile is already in {seen[tid]}", tid)
                seen[tid] = where
            lists[name] = list(items)
        out.append(moves.Supply(lists["stack"], lists["loose"]))
    missing = sorted(allowed - set(seen))
    if missing:
        raise InputError("supplies", f"every tile lies in the garden or a supply; missing {missing}")
    return out


@dataclass(frozen=True)
class Step:
    player: int
    tile: str
    cell: Cell
    rotation: int


class _Fit:
    """Which tile can fill which target cell: it shows the cell's features in some rotation."""

    def __init__(self, cards: list[Card], catalog: Catalog, target: Garden):
        f = Features.of(cards)
        self.catalog = catalog
        self.need = {c: f.signature(p.tile, p.rotation) for c, p in target.cells.items()}
        self._sig = {}
        self.f = f

    def rotation(self, tid: str, cell: Cell) -> int | None:
        for r in range(4):
            key = (tid, r)
            if key not in self._sig:
                self._sig[key] = self.f.signature(self.catalog.tile(tid), r)
            if self._sig[key] == self.need[cell]:
                return r
        return None


def _open_cells(filled: set[Cell], target: Garden) -> list[Cell]:
    empty = [c for c in sorted(target.cells) if c not in filled]
    if not filled:
        return empty
    return [c for c in empty if any(step(c, d) in filled for d in DIRECTIONS)]


def add_order(filled: dict, target: Garden, supplies: list[moves.Supply], fit: _Fit,
              first: Step | None = None) -> list[Step] | None:
    """Additions filling every empty cell of `target` from the supplies (stack tops in order, loose
    tiles any time), each next to the garden; `first` is made first. None when the greedy gets stuck."""
    cells = set(filled)
    stacks = [list(s.stack) for s in supplies]
    loose = [list(s.loose) for s in supplies]
    out: list[Step] = []

    def lay(st: Step) -> None:
        if stacks[st.player] and stacks[st.player][0] == st.tile:
            stacks[st.player].pop(0)
        else:
            loose[st.player].remove(st.tile)
        cells.add(st.cell)
        out.append(st)
    if first is not None:
        lay(first)
    total = len(target.cells)
    while len(cells) < total:
        found = None
        open_cells = _open_cells(cells, target)
        for p in range(len(supplies)):
            for tid in ([stacks[p][0]] if stacks[p] else []) + sorted(loose[p]):
                for c in open_cells:
                    r = fit.rotation(tid, c)
                    if r is not None:
                        found = Step(p, tid, c, r)
                        break
                if found:
                    break
            if found:
                break
        if found is None:
            return None
        lay(found)
    return out


@dataclass
class SupplyPlan:
    status: str                       # "move" (the player's move), "wait" (someone else moves first), "stuck"
    move: moves.Move | None = None
    other: Step | None = None         # wait: a player who can lay a tile now
    additions: int = 0
    target: Garden | None = None      # the valid garden the route reaches


MAX_TARGET_ROUNDS = 8   # other target gardens tried when the stacks block the additions of the first


def stuck_at(filled: dict, target: Garden, supplies: list[moves.Supply], fit: _Fit):
    """Where the greedy stops: (open cells, tiles available there), or None when it completes."""
    cells = set(filled)
    stacks = [list(s.stack) for s in supplies]
    loose = [list(s.loose) for s in supplies]
    while len(cells) < len(target.cells):
        open_cells = _open_cells(cells, target)
        avail = [(p, tid) for p in range(len(supplies))
                 for tid in ([stacks[p][0]] if stacks[p] else []) + sorted(loose[p])]
        found = next(((p, tid, c) for p, tid in avail for c in open_cells if fit.rotation(tid, c) is not None), None)
        if found is None:
            return open_cells, [tid for _, tid in avail]
        p, tid, c = found
        if stacks[p] and stacks[p][0] == tid:
            stacks[p].pop(0)
        else:
            loose[p].remove(tid)
        cells.add(c)
    return None


def targets(kept: Garden, first: Garden, cards: list[Card], mode: Mode, catalog: Catalog, control,
            supplies: list[moves.Supply], want_player: int | None = None, shift: tuple[int, int] = (0, 0)):
    """Valid gardens keeping `kept` in place, `first` then others: each time the stacks block the
    additions, the next one is asked to show, on a cell where the garden stopped growing, what some
    available tile shows (a heuristic search among completions; nothing is claimed from it).
    Gardens are in the player's coordinates; `shift` moves them into the frame (floating gardens).
    Yields target gardens."""
    from ortools.sat.python import cp_model

    from solver.games.gardeners import engine
    from solver.games.gardeners.encodings import post
    from solver.games.gardeners.model import GardenModel
    yield first
    if control.out_of_time():   # the call's budget is gone: no other target is searched for
        return
    dr, dc = shift
    gm = GardenModel(cards, mode, catalog.tiles_of(mode.tile_sets), rotation_free=False)
    engine.fix_placements(gm, Garden(kept.size, {(r + dr, c + dc): p for (r, c), p in kept.cells.items()}))
    for card in cards:
        post(gm, card, gm.model.new_constant(1))
    current = first
    fit = _Fit(cards, catalog, current)
    for _ in range(MAX_TARGET_ROUNDS):
        fit = _Fit(cards, catalog, current)
        where = stuck_at(dict(kept.cells), current, supplies, fit)
        if where is None and want_player is None:
            return
        if where is None:
            open_cells, avail = _open_cells(set(kept.cells), current), supplies[want_player].playable()
        else:
            open_cells, avail = where
        shows = {gm.sig_of[(tid, r)] for tid in avail for r in range(4)}
        lits = [gm.y[((r + dr, c + dc), sig)] for r, c in open_cells for sig in shows
                if ((r + dr, c + dc), sig) in gm.y]
        if not lits:
            return
        gm.model.add_bool_or(lits)
        if control.out_of_time():
            return
        status, solver = control.solve(gm.model, engine.tuned_solver(control))
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return
        prefer = {(r + dr, c + dc): (p.tile.id, p.rotation) for (r, c), p in kept.cells.items()}
        done = engine.verified(gm.to_garden(gm.chosen(solver), prefer), cards)
        current = Garden(done.size, {(r - dr, c - dc): p for (r, c), p in done.cells.items()})
        if any(current.get(c) != p for c, p in kept.cells.items()):
            raise engine.EngineError("a completion moved a kept tile")
        yield current


def plan(garden: Garden, candidates, remove: list[Cell], supplies: list[moves.Supply], player: int,
         cards: list[Card], catalog: Catalog, prefer=None) -> SupplyPlan:
    """The player's move on the route: the first removal (the tile goes to the next player), or a tile
    of theirs laid on a fitting cell next to the garden such that the rest can still come in order
    (cells tried in the order of `prefer(cell)`, a sort key). `candidates` yields target gardens
    (all keeping the same tiles, so every route has the same length); the first that lets the player
    move wins, else the first that lets anyone move ("wait"), else "stuck"."""
    best = SupplyPlan("stuck")
    for target in candidates:
        got = _plan_one(garden, target, remove, supplies, player, cards, catalog, prefer)
        got.target = target
        if got.status == "move":
            return got
        if best.status == "stuck":
            best = got
    return best


def handed_over(garden: Garden, remove: list[Cell], supplies: list[moves.Supply], player: int) -> list[moves.Supply]:
    """The supplies once the removed tiles went to the next player's loose tiles."""
    handed = [moves.Supply(list(s.stack), list(s.loose)) for s in supplies]
    handed[(player + 1) % len(supplies)].loose += [garden.get(c).tile.id for c in remove]
    return handed


def _plan_one(garden, target, remove, supplies, player, cards, catalog, prefer) -> SupplyPlan:
    fit = _Fit(cards, catalog, target)
    receiver = (player + 1) % len(supplies)
    if remove:
        after = {c: p for c, p in garden.cells.items() if c not in remove}
        handed = handed_over(garden, remove, supplies, player)
        order = add_order(after, target, handed, fit)
        if order is None:
            return SupplyPlan("stuck")
        first = remove[0]
        return SupplyPlan("move", moves.Move(moves.REMOVE, player, garden.get(first).tile.id, first,
                                             to_player=receiver), additions=len(order))
    filled = dict(garden.cells)
    mine = supplies[player].playable()
    for c in sorted(_open_cells(set(filled), target), key=prefer):
        for tid in mine:
            r = fit.rotation(tid, c)
            if r is None:
                continue
            order = add_order(filled, target, supplies, fit, Step(player, tid, c, r))
            if order is not None:
                return SupplyPlan("move", moves.Move(moves.ADD, player, tid, c, r), additions=len(order))
    order = add_order(filled, target, supplies, fit)
    if not order:
        return SupplyPlan("stuck")
    return SupplyPlan("wait", other=order[0], additions=len(order))


def hint(garden: dict, card_ids, mode: str | None = None, supplies=None, player: int = 0, rules: str | None = None,
         removal_rules: bool = True, control=None, catalog: str | None = None, cards: str | None = None,
         floating: bool = False):
    """api.hint with the players' supplies (plain data, as the service and CLI pass them)."""
    from solver.games.gardeners import api, hints
    from solver.games.gardeners.hints import frame
    rules = api.move_rules(mode, rules)
    (g, chosen, m, cat), offset = api.floating_args(garden, card_ids, mode, catalog, cards,
                                                    floating and rules == "normal")
    if rules != "normal":
        raise InputError("supplies", "supplies are for the Normal rules (Solo has a pool)", rules)
    parsed = parse_supplies(supplies, g, m, cat, player)
    return frame.hint_back(hints.next_move(g, chosen, m, cat, control, rules=rules, removal_rules=removal_rules,
                                           floating=floating, supplies=parsed, player=player), offset)
