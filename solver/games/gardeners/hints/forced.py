"""Gardeners hints, forced placements: what every completion of a garden shares."""
from __future__ import annotations

import time
from dataclasses import dataclass, field

from ortools.sat.python import cp_model

from solver.core.grid import Cell
from solver.core.solve import SolveControl
from solver.games.gardeners import engine
from solver.games.gardeners.cards import Card
from solver.games.gardeners.encodings import impossible, post
from solver.games.gardeners.garden import Garden
from solver.games.gardeners.model import GardenModel
from solver.games.gardeners.modes import Mode
from solver.games.gardeners.tiles import Catalog
from solver.games.gardeners.hints.progress import _check_garden, _tiles

DIVERSE_DETERMINISTIC_TIME = 0.3  # forced placements: budget of the search for a very different completion


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
    if control.out_of_time():   # the call's budget is gone: no model is built
        return Forced(engine.UNKNOWN, seconds=time.perf_counter() - start)
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
        if not candidates or control.out_of_time():
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
        if control.out_of_time():
            # the call's budget is gone: the cells left are not tested (each search would get nothing)
            undecided.append(cell)
            del candidates[cell]
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
