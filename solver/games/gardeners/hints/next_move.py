"""Gardeners hints, next move (levels 1-3): built on the check so far and the repair."""
from __future__ import annotations

import time
from dataclasses import dataclass


from solver.core.grid import DIRECTIONS, Cell, step
from solver.core.solve import SolveControl
from solver.errors import InputError
from solver.games.gardeners import engine, moves
from solver.games.gardeners.cards import Card
from solver.games.gardeners.garden import Garden
from solver.games.gardeners.modes import Mode
from solver.games.gardeners.tiles import Catalog
from solver.games.gardeners.hints.progress import (BLOCKED, BROKEN, POSSIBLE, SATISFIED_NOW, UNKNOWN,
                                                   CardProgress, Progress, _tiles, check_progress)
from solver.games.gardeners.hints.repair import Repair, check_one_piece, repair

NORMAL_RULES, SOLO_RULES = "normal", "solo"


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
    target: Garden | None = None      # Solo routes: the valid garden the route ends in (hand it back as `target`)

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
            if self.target is not None:
                out["target"] = self.target
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
              supplies: list[moves.Supply] | None = None, player: int = 0, target: Garden | None = None) -> Hint:
    """A legal move on a shortest add/remove route to a valid garden, with the card it serves.

    Route length = removals + additions = (placed - kept) + (n*n - kept), so a route is shortest when
    `kept` is the repair optimum. Normal rules: the removals come first, in a legal order (when
    `removal_rules`), then additions next to the garden. Solo rules: when the garden cannot be completed
    as it stands, a move on a shortest place / swap / rotate / remove route (see _solo_hint and
    routes.py), proven shortest or the best found with a proven bound.
    Normal rules with `supplies` (each player's stack, top first, and loose tiles): the move is one
    `player` can make now, and the route's additions must come in an order the stacks allow (see
    supplies.py); "wait" when another player has to lay a tile first.
    `target` (Solo rules): a previous hint's target garden; its route is kept unless a shorter one is found, so
    a player who follows the hints sees the route shorten by one each move (the search alone, within its limit,
    could find a longer one the next time).
    """
    if rules not in (NORMAL_RULES, SOLO_RULES):
        raise InputError("rules", "must be 'normal' or 'solo'", rules)
    if target is not None:
        if rules != SOLO_RULES:
            raise InputError("target", "is for Solo rules (a previous Solo hint's target garden)")
        from solver.games.gardeners import routes
        routes.check_known(target, cards, mode, catalog)
    control = control or SolveControl()
    start = time.perf_counter()
    if rules == NORMAL_RULES and removal_rules:
        check_one_piece(garden)  # whether or not the hint would need a removal, as SuggestRepair does
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
        return _solo_hint(garden, cards, mode, catalog, control, progress, rep, start, target)
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
                      f"{count} that {'make' if len(rep.remove) > 1 else 'makes'} the garden completable again.")
        else:
            reason = (f"Remove {placed.tile.id} from {cell} for card {card.card_id} ({card.kind}): {count} "
                      f"that {'make' if len(rep.remove) > 1 else 'makes'} the garden completable again, and this one "
                      "comes first.")
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
    hint = _hint(card, cell, move, reason, length, proven, start, bound)
    if rules == SOLO_RULES:
        hint.target = target  # (a Solo route of placements only: proven shortest, the target is its end)
    return hint


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
    kept = Garden(garden.size, {c: p for c, p in garden.cells.items() if c not in remove}, garden.room)
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
                  f"{'(proven fewest)' if proven else '(the fewest found)'} "
                  f"{'make' if len(remove) > 1 else 'makes'} the garden completable again.")
    else:
        card = _serving_card(progress, cards, move.cell, catalog.tile(move.tile))
        where = "the top of your stack" if supplies[player].stack[:1] == [move.tile] else "your loose tiles"
        reason = (f"Lay {move.tile} from {where} at {move.cell} in rotation {move.rotation}: it serves card "
                  f"{card.card_id} ({card.kind}) and the other tiles can still come in order.")
    return _hint(card, move.cell, move, reason, length, proven, start, bound)


def _solo_hint(garden: Garden, cards: list[Card], mode: Mode, catalog: Catalog, control: SolveControl,
               progress: Progress, rep: Repair, start: float, known: Garden | None = None) -> Hint:
    """Solo rules, garden not completable as it stands: a move on a shortest route (routes.solo_route:
    CP-SAT over every valid garden, proven or best found + bound). Every move that brings one tile
    to its place in the route's target garden (a turn, a swap closing a cycle, a move into the empty
    end of a chain, a placement from the pool) shortens the route to that garden by exactly one, so
    it lies on a route of `length` moves; among them the hint takes the one a card is most about."""
    from solver.games.gardeners import routes
    sr = routes.solo_route(garden, cards, mode, catalog, control, layout=rep.witness,
                           kept_max=rep.kept if rep.proven else None, known=known)
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
    hint = _hint(card, cell, move, reason, sr.length, sr.verdict == "optimal", start, sr.bound)
    hint.target = sr.target
    return hint


def _hint(card: CardProgress, cell: Cell, move, reason: str, length: int, proven: bool, start: float,
          bound: int = 0) -> Hint:
    # the region shows every cell the move touches (a swap: both), so level 3 never points outside level 2
    touched = {c for c in (cell, getattr(move, "cell", None), getattr(move, "other", None)) if c is not None}
    region = tuple(sorted(touched | set(card.cells)))
    return Hint("move", card.card_id, card.kind, card.status, region, move, reason, length, proven,
                time.perf_counter() - start, length if proven else min(bound, length))
