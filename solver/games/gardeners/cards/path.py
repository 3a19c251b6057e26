"""Path: the white-stone paths must form a closed route around an element, a route of at least N
tiles, or every path must connect to another.

Two neighbouring tiles are connected when both their paths reach the edge they share. Each tile's
path reaches one or two edges (the catalog schema refuses junctions), so a route, the connected
tiles of one path, is either an open chain or a closed loop.
Decisions: a closed route "surrounds" a tile when the tile is strictly inside the loop (tiles on the
loop itself are not surrounded), tested by the parity of loop segments crossed by a ray; "connected to
at least one other path" means the tile's path meets a neighbour's path on at least one edge.
"""
from __future__ import annotations

from dataclasses import dataclass

from solver.core.grid import DIRECTIONS, OPPOSITE, Cell, components, step
from solver.errors import InputError
from solver.games.gardeners.cards.verdict import check_keys, existential, int_param, universal
from solver.games.gardeners.selectors import Selector, parse_selector

SHAPES = ("loop", "route", "connected")


@dataclass(frozen=True)
class Spec:
    shape: str
    min: int = 0
    around: Selector | None = None


def parse(params: dict, field: str) -> Spec:
    shape = params.get("shape")
    if shape == "loop":
        check_keys(params, {"shape", "around"}, field)
        return Spec("loop", around=parse_selector(params.get("around"), f"{field}.around"))
    if shape == "route":
        check_keys(params, {"shape", "min"}, field)
        return Spec("route", min=int_param(params, "min", field, 2, 36))
    if shape == "connected":
        check_keys(params, {"shape"}, field)
        return Spec("connected")
    raise InputError(f"{field}.shape", f"must be one of {list(SHAPES)}", shape)


def describe(spec: Spec) -> str:
    if spec.shape == "loop":
        return (f"Some paths must be connected to form a continuous closed route surrounding at least one "
                f"{spec.around.describe(plural=False)}.")
    if spec.shape == "route":
        return f"Some paths must be connected to form a continuous open or closed path of at least {spec.min} tiles."
    return "Each path must be connected to at least one other path."


def path_edges(garden) -> dict[Cell, frozenset[str]]:
    return {cell: p.tile.path_edges(p.rotation) for cell, p in garden.cells.items() if p.tile.path}


def connected(edges: dict[Cell, frozenset[str]], a: Cell, b: Cell) -> bool:
    for d in edges.get(a, ()):
        if step(a, d) == b:
            return OPPOSITE[d] in edges.get(b, ())
    return False


def routes(garden) -> list[set[Cell]]:
    edges = path_edges(garden)
    return components(edges, lambda a, b: connected(edges, a, b))


def is_loop(route: set[Cell], edges) -> bool:
    return len(route) >= 4 and all(
        sum(1 for d in DIRECTIONS if connected(edges, c, step(c, d))) == 2 for c in route)


def enclosed(loop: set[Cell], edges, cell: Cell) -> bool:
    """Is `cell` strictly inside the loop? Count loop segments between columns c and c+1 above the
    cell: a vertical ray just right of the cell's centre crosses exactly those (Jordan curve test)."""
    if cell in loop:
        return False
    r0, c0 = cell
    crossings = sum(1 for r in range(r0) if (r, c0) in loop and connected(edges, (r, c0), (r, c0 + 1)))
    return crossings % 2 == 1


def check(garden, spec: Spec):
    edges = path_edges(garden)
    if spec.shape == "connected":
        violations, at_risk = [], []
        for cell, ds in sorted(edges.items()):
            if any(connected(edges, cell, step(cell, d)) for d in ds):
                continue
            open_edge = any(0 <= (n := step(cell, d))[0] < garden.size and 0 <= n[1] < garden.size
                            and garden.get(n) is None for d in ds)
            (at_risk if open_edge else violations).append(cell)
        return universal(garden, violations, at_risk, "a path is not connected to any other path")
    rs = components(edges, lambda a, b: connected(edges, a, b))
    if spec.shape == "route":
        best = rs[0] if rs else set()
        witness = best if len(best) >= spec.min else None
        return existential(garden, witness, list(best), f"longest route has {len(best)} tiles, needs {spec.min}")
    for route in rs:
        if is_loop(route, edges):
            inner = [c for c, p in garden.cells.items() if spec.around.matches(p.tile) and enclosed(route, edges, c)]
            if inner:
                return existential(garden, list(route) + inner, [], "")
    return existential(garden, None, [], f"no closed route surrounds a {spec.around.describe(plural=False)}")
