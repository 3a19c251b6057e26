"""CP-SAT encodings of connectivity on a grid: a connected group of chosen cells, and closed loops.

Both are generic over the grid (cells + which neighbour pairs may be linked) and are posted behind
an enforcement literal, so a card using them can be assumed, relaxed and explained.
"""
from __future__ import annotations

from collections.abc import Callable

from ortools.sat.python import cp_model

from solver.core.grid import DIRECTIONS, Cell, step

Lit = cp_model.IntVar  # a boolean variable or its negation


def connected_group(model: cp_model.CpModel, cells: list[Cell], allowed: dict[Cell, Lit], enforce: Lit,
                    size: int | None = None, roots: list[Cell] | None = None, reach: list[Cell] | None = None,
                    link: Callable[[Cell, Cell], Lit | None] | None = None, name: str = "g",
                    at_most: int | None = None) -> dict[Cell, Lit]:
    """Choose a group of cells, each `allowed`, connected through orthogonal neighbours (and only
    through pairs whose `link` literal is true, when given). Under `enforce`: the group is non-empty,
    has exactly `size` cells (when given) or at most `at_most`, is rooted in `roots` (when given) and
    meets `reach`.

    Encoding: a spanning tree by parent pointers with depth labels (depth of a cell > depth of its
    parent), which excludes cycles, so every member is tied to the single root. With no `roots` the
    root is the group's first cell in row-major order, which removes the choice of root as a symmetry.
    Returns the membership literals.
    """
    index = {c: i for i, c in enumerate(cells)}
    cellset = set(cells)
    max_depth = (size - 1) if size else (at_most - 1) if at_most else len(cells) - 1
    z = {c: model.new_bool_var("") for c in cells}
    depth = {c: model.new_int_var(0, max_depth, "") for c in cells}
    root_cells = [c for c in (roots if roots is not None else cells) if c in cellset]
    root = {c: model.new_bool_var("") for c in root_cells}
    model.add(sum(root.values()) == 1).only_enforce_if(enforce)
    model.add(sum(root.values()) <= 1)
    for c in cells:
        model.add_implication(z[c], allowed[c])
    if roots is None:
        # The root is the group's first member in row-major order: `before[i]` says some cell
        # earlier than cells[i] is a member (a running OR, linear in the number of cells).
        before = [model.new_constant(0)]
        for i in range(1, len(cells)):
            b = model.new_bool_var("")
            model.add_bool_or([before[i - 1], z[cells[i - 1]], b.Not()])
            model.add_implication(before[i - 1], b)
            model.add_implication(z[cells[i - 1]], b)
            before.append(b)
        for c, r in root.items():
            model.add_implication(r, before[index[c]].Not())
    for c, r in root.items():
        model.add_implication(r, z[c])
        model.add(depth[c] == 0).only_enforce_if(r)
    for c in cells:
        parents = []
        for d in DIRECTIONS:
            n = step(c, d)
            if n not in cellset:
                continue
            lk = link(c, n) if link else None
            if link is not None and lk is None:
                continue
            p = model.new_bool_var("")
            model.add_implication(p, z[n])
            if lk is not None:
                model.add_implication(p, lk)
            model.add(depth[c] >= depth[n] + 1).only_enforce_if(p)
            parents.append(p)
        model.add(sum(parents) + (root[c] if c in root else 0) == z[c])
    if size:
        model.add(sum(z.values()) == size).only_enforce_if(enforce)
    if at_most:
        model.add(sum(z.values()) <= at_most).only_enforce_if(enforce)
    if reach is not None:
        model.add_bool_or([z[c] for c in reach if c in cellset]).only_enforce_if(enforce)
    return z


def closed_loop(model: cp_model.CpModel, cells: list[Cell], link: Callable[[Cell, Cell], Lit | None],
                enforce: Lit, name: str = "loop") -> tuple[dict[Cell, Lit], dict[tuple[Cell, Cell], Lit]]:
    """One closed loop through neighbouring cells, only along pairs whose `link` literal holds.

    `add_circuit` with a self-loop per cell (self-loop = the cell is not on the loop); 2-cycles are
    forbidden so the loop has at least four cells. Without `enforce` the loop is empty.
    Returns (on_loop literal per cell, undirected edge literal per ordered pair (a, b) with a < b).
    """
    index = {c: i for i, c in enumerate(cells)}
    on = {c: model.new_bool_var("") for c in cells}
    arcs = [(index[c], index[c], on[c].Not()) for c in cells]
    arc = {}
    for c in cells:
        model.add_implication(on[c], enforce)
        for d in DIRECTIONS:
            n = step(c, d)
            if n not in index:
                continue
            lk = link(c, n)
            if lk is None:
                continue
            a = model.new_bool_var("")
            model.add_implication(a, lk)
            arc[(c, n)] = a
            arcs.append((index[c], index[n], a))
    edges = {}
    for (c, n), a in arc.items():
        if c < n:
            back = arc.get((n, c))
            e = model.new_bool_var("")
            if back is not None:
                model.add_bool_or([a.Not(), back.Not()])
                model.add(a + back == e)
            else:
                model.add(a == e)
            edges[(c, n)] = e
    model.add_circuit(arcs)
    return on, edges


def enclosed_by(model: cp_model.CpModel, cell: Cell, on: dict[Cell, Lit], edges: dict[tuple[Cell, Cell], Lit],
                name: str = "in") -> Lit:
    """A literal true exactly when `cell` is strictly inside the loop: the loop is not through it
    and an odd number of loop segments between columns c and c+1 lie above it (ray parity)."""
    r0, c0 = cell
    crossing = [edges[((r, c0), (r, c0 + 1))] for r in range(r0) if ((r, c0), (r, c0 + 1)) in edges]
    parity = model.new_bool_var("")
    if crossing:
        model.add_bool_xor(crossing + [parity.Not()])
    else:
        model.add(parity == 0)
    inside = model.new_bool_var("")
    model.add_bool_and([parity, on[cell].Not()]).only_enforce_if(inside)
    model.add_bool_or([parity.Not(), on[cell], inside])
    return inside
