"""Gardeners hints, check so far: how far a garden is, card by card, and gardens that may still slide in their frame."""
from __future__ import annotations

import time
from dataclasses import dataclass

from ortools.sat.python import cp_model

from solver.core.grid import Cell
from solver.core.solve import SolveControl
from solver.errors import InputError
from solver.games.gardeners import engine
from solver.games.gardeners.cards import Card
from solver.games.gardeners.cards.verdict import OPEN, SATISFIED, VIOLATED
from solver.games.gardeners.checker import check
from solver.games.gardeners.encodings import impossible, post
from solver.games.gardeners.garden import Garden
from solver.games.gardeners.model import GardenModel
from solver.games.gardeners.modes import Mode
from solver.games.gardeners.tiles import Catalog

SATISFIED_NOW = "satisfied"   # holds whatever is added later (pure checker)
BROKEN = "broken"             # fails whatever is added later (pure checker), with the cells
BLOCKED = "blocked"           # open, but no completion of this garden meets this card (CP-SAT proof)
POSSIBLE = "possible"         # open, and some completion meets it (a checked witness exists)
UNKNOWN = "unknown"           # the limit was reached before either was shown


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
    if control.out_of_time():
        return engine.Solved(engine.UNKNOWN, None, 0.0)
    if engine.has_loop(cards):
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
    if control.out_of_time():
        return engine.Solved(engine.UNKNOWN, None, 0.0)
    return engine.complete(garden, cards, mode, catalog, control)


def offsets(garden: Garden) -> list[tuple[int, int]]:
    """The shifts (rows, cols) that keep every tile of the garden inside the frame, (0, 0) first; of a floating
    garden near the table's edge, only those in its `room` (the frame stays on the table)."""
    if not garden.cells:
        return [(0, 0)]
    rows = [r for r, _ in garden.cells]
    cols = [c for _, c in garden.cells]
    n = garden.size
    out = [(dr, dc) for dr in range(-min(rows), n - max(rows)) for dc in range(-min(cols), n - max(cols))
           if garden.room is None or (dr in garden.room[0] and dc in garden.room[1])]
    return sorted(out, key=lambda o: (o != (0, 0), o))


def shifted(garden: Garden, offset: tuple[int, int]) -> Garden:
    dr, dc = offset
    return Garden(garden.size, {(r + dr, c + dc): p for (r, c), p in garden.cells.items()})


def complete_floating(garden: Garden, cards: list[Card], mode: Mode, catalog: Catalog,
                      control: SolveControl | None = None) -> tuple[engine.Solved, tuple[int, int] | None]:
    """A completion of the garden slid anywhere in the frame (Normal mode: the garden floats on the
    table until it is a full square), one model with a literal per shift; or a proof that none exists."""
    control = control or SolveControl()
    if control.out_of_time():
        return engine.Solved(engine.UNKNOWN, None, 0.0), None
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
