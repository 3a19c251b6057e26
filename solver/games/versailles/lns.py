"""A small CP-SAT model for one neighbourhood step: only the free tiles are placed, the kept
tiles' fields are constants.

The step of `solo.improve` used to copy the whole solo model (13,303 variables for 14 tiles) and
fix the kept tiles; presolve then spent 0.5-0.9 s (one worker, load 0.8) throwing away what the
fixed tiles decide, about half of each 1-unit step. This model is built in Python from the
garden instead:

- free tile i: one literal per option (x, y, turn) on the board that overlaps no kept field and
  touches a kept field (or is its current place); exactly one;
- no two free tiles on one field (at most one literal per field); `cov[i][c]` = free tile i
  covers field c;
- turn rule, for every tile i > 0 (free or kept) whose place does not already touch a kept tile
  placed before it: one of its border fields is covered by a free tile placed before it;
- the garden touches the board's top and left edge (as the full model's symmetry breaking);
- per scoring (n, k) and type: the full model's contiguous-area trees (`post_scorings`) over
  the fields a kept tile before n holds (constant) or a free tile before n may cover;
- objective >= the garden's points, and at least one free tile off its current place.

Proof sketch that a solution is a legal garden of the full model worth its objective: the kept
tiles keep their places, the free tiles take places on the board with no overlap (filtered
against kept fields, at most one free tile per field), and every tile's turn rule holds (either
by a kept tile before it, checked in Python, or by the clause over free tiles before it); the
first tile keeps the turns the full model allows it (its options' turns), and the edge clauses
are the full model's. The area trees are the full model's constraints with the kept literals
replaced by their values, so the objective is at most the garden's points (the full model's
objective of the same placements); the pure scorer re-scores every step anyway
(`solo.improve`). The neighbourhood is smaller than the copied model's (free tiles must touch a
kept tile), so it is a different search, not the same one made faster.
"""
from __future__ import annotations

from typing import Sequence

from ortools.sat.python import cp_model

from solver.games.versailles.data import Catalog, Tile
from solver.games.versailles.model import SoloModel, canonical_rotation, post_scorings, search_solver
from solver.games.versailles.rules import Placement, border, footprint

Cell = tuple[int, int]


class StepModel:
    """The model of one step and what is needed to read its garden back."""

    def __init__(self, model: cp_model.CpModel, free: list[int], options: dict[int, list[tuple[int, int, int]]],
                 lits: dict[int, list[cp_model.IntVar]], placements: Sequence[Placement], offset: Cell,
                 tiles: Sequence[Tile]):
        self.model, self.free, self.options, self.lits = model, free, options, lits
        self.start, self.offset, self.tiles = list(placements), offset, tiles

    def placements(self, solver: cp_model.CpSolver) -> list[Placement]:
        out = list(self.start)
        for i in self.free:
            (x, y, r), = [o for o, lit in zip(self.options[i], self.lits[i]) if solver.boolean_value(lit)]
            out[i] = Placement(self.tiles[i].id, x - self.offset[0], y - self.offset[1], r)
        return out


def step_model(solo: SoloModel, tiles: Sequence[Tile], catalog: Catalog, placements: Sequence[Placement],
               free: set[int], points: int) -> StepModel | None:
    """The neighbourhood of `placements` with the tiles in `free` re-placed (see the module
    docstring); None when no garden of it can exist (a kept tile would lose its turn rule)."""
    board, (ox, oy) = solo.board, solo.offset
    n = len(tiles)
    at: list[tuple[int, int, int]] = []
    for i, p in enumerate(placements):
        at.append((p.x + ox, p.y + oy, canonical_rotation(tiles[i], p.rotation)))
    kept_owner: dict[Cell, int] = {}
    kept_code: dict[Cell, str] = {}
    for i in range(n):
        if i in free:
            continue
        x, y, r = at[i]
        for c, code in zip(footprint(x, y), tiles[i].oriented(r)):
            kept_owner[c] = i
            kept_code[c] = code
    m = cp_model.CpModel()
    order = sorted(free)
    options: dict[int, list[tuple[int, int, int]]] = {}
    lits: dict[int, list[cp_model.IntVar]] = {}
    covering: dict[int, dict[Cell, list[tuple[cp_model.IntVar, str]]]] = {}
    for i in order:
        rots = sorted({r for _, _, r in solo.options[i]})
        opts, ls, cov = [], [], {}
        for y in range(board - 1):
            for x in range(board - 1):
                cells = footprint(x, y)
                if any(c in kept_owner for c in cells):
                    continue
                touches = any(c in kept_owner for c in border(x, y))
                for r in rots:
                    if not touches and (x, y, r) != at[i]:
                        continue
                    lit = m.new_bool_var(f"f{i}_{x}_{y}_{r}")
                    opts.append((x, y, r))
                    ls.append(lit)
                    for c, code in zip(cells, tiles[i].oriented(r)):
                        cov.setdefault(c, []).append((lit, code))
        if at[i] not in opts:
            return None  # its current place is off the board of this model: not a garden of it
        m.add_exactly_one(ls)
        options[i], lits[i], covering[i] = opts, ls, cov
    # covered[i][c]: free tile i covers field c
    covered: dict[int, dict[Cell, cp_model.IntVar]] = {}
    for i in order:
        covered[i] = {}
        for c, pairs in covering[i].items():
            v = m.new_bool_var(f"c{i}_{c}")
            m.add(v == sum(lit for lit, _ in pairs))
            covered[i][c] = v
    for c in {c for i in order for c in covered[i]}:
        on = [covered[i][c] for i in order if c in covered[i]]
        if len(on) > 1:
            m.add_at_most_one(on)

    def earlier_free_cover(i: int, ring) -> list[cp_model.IntVar]:
        return [covered[j][c] for j in order if j < i for c in ring if c in covered[j]]

    def kept_before(i: int, ring) -> bool:
        return any(kept_owner.get(c, n) < i for c in ring)

    for i in range(1, n):
        if i in free:
            for (x, y, _), lit in zip(options[i], lits[i]):
                ring = border(x, y)
                if kept_before(i, ring):
                    continue
                alts = earlier_free_cover(i, ring)
                if alts:
                    m.add_bool_or(alts).only_enforce_if(lit)
                else:
                    m.add(lit == 0)
        else:
            ring = border(at[i][0], at[i][1])
            if kept_before(i, ring):
                continue
            alts = earlier_free_cover(i, ring)
            if not alts:
                return None
            m.add_bool_or(alts)
    for edge in ([(0, y) for y in range(board)], [(x, 0) for x in range(board)]):
        if not any(c in kept_owner for c in edge):
            alts = [covered[j][c] for j in order for c in edge if c in covered[j]]
            if not alts:
                return None
            m.add_bool_or(alts)

    def has_of(upto: int, counts: set[str], c: Cell) -> list:
        if c in kept_owner:
            return [1] if kept_owner[c] < upto and kept_code[c] in counts else []
        return [lit for j in order if j < upto for lit, code in covering[j].get(c, ()) if code in counts]

    cells = [(x, y) for y in range(board) for x in range(board)]
    areas = post_scorings(m, tiles, catalog, solo.checkpoints, cells, has_of)
    terms = [v for area in areas.values() for v in area.member.values()]
    objective = cp_model.LinearExpr.sum(terms)
    m.add(objective >= points)
    m.add_bool_or([lit.Not() for i in order for o, lit in zip(options[i], lits[i]) if o == at[i]])
    m.maximize(objective)
    return StepModel(m, order, options, lits, placements, (ox, oy), tiles)


def run_step(step: StepModel, control, time_limit: float, work: float | None,
             presolve: bool = True) -> tuple[list[Placement] | None, float]:
    """One search of a step model on one worker through `control`: (garden or None, deterministic time)."""
    code, solver = control.solve(step.model, search_solver(control, time_limit, work, presolve, workers=1))
    if code == cp_model.MODEL_INVALID:
        raise RuntimeError(f"CP-SAT rejected a neighbourhood model: {step.model.validate()}")
    found = code in (cp_model.OPTIMAL, cp_model.FEASIBLE)
    return (step.placements(solver) if found else None), solver.deterministic_time
