"""CP-SAT model of the optimal solo Versailles garden: place a known sequence of tiles, maximise garden points."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Sequence

from ortools.sat.python import cp_model

from solver.core.solve import SolveControl
from solver.games.versailles.data import Catalog, Tile
from solver.games.versailles.rules import Placement, border, distinct_rotations, footprint
from solver.games.versailles.scoring import largest_area_fields

Cell = tuple[int, int]


@dataclass
class AreaVars:
    """Handles of one contiguous-area tree (one garden type at one scoring)."""

    use: cp_model.IntVar
    member: dict[Cell, cp_model.IntVar]
    root: dict[Cell, cp_model.IntVar]
    depth: dict[Cell, cp_model.IntVar]
    parent: dict[tuple[Cell, Cell], cp_model.IntVar]  # (field, its parent field)
    seen: dict[Cell, cp_model.IntVar] = field(default_factory=dict)  # a member at or before this field


@dataclass
class SoloModel:
    """The model and the handles needed to read a solution back."""

    model: cp_model.CpModel
    board: int
    offset: Cell
    options: list[list[tuple[int, int, int]]]  # per tile: (x, y, rotation) on the board
    place: list[list[cp_model.IntVar]]  # per tile: one literal per option
    objective: cp_model.LinearExpr
    tiles: Sequence[Tile] = ()
    regions: dict[tuple[int, str], dict[Cell, cp_model.IntVar]] = field(default_factory=dict)
    before: list[dict[Cell, cp_model.IntVar]] = field(default_factory=list)
    areas: dict[tuple[int, str], AreaVars] = field(default_factory=dict)
    checkpoints: Sequence[tuple[int, int]] = ()
    catalog: Catalog | None = None

    def hint_garden(self, placements: Sequence[Placement]) -> int:
        """Hint a complete assignment built in Python from a legal garden: its placements, the
        covered fields, and for each scoring the largest areas of the k largest types as BFS trees.
        Returns the objective value of that assignment (the garden's solo points)."""
        assert self.catalog is not None
        self.model.clear_hints()
        hints: list[tuple[cp_model.IntVar, int]] = []  # set in one batch below (add_hint per variable was most of the time)
        n = len(self.tiles)
        fields_at: list[dict[Cell, str]] = [{}]
        for i, p in enumerate(placements):
            rotation = canonical_rotation(self.tiles[i], p.rotation)
            want = (p.x + self.offset[0], p.y + self.offset[1], rotation)
            for o, lit in zip(self.options[i], self.place[i]):
                hints.append((lit, o == want))
            after = dict(fields_at[-1])
            after.update(zip(footprint(want[0], want[1]), self.tiles[i].oriented(rotation)))
            fields_at.append(after)
        for i in range(1, n + 1):
            for c, v in self.before[i].items():
                hints.append((v, c in fields_at[i]))
        jokers = set(self.catalog.joker_types)
        value = 0
        for cp, (upto, k) in enumerate(self.checkpoints):
            largest = {}
            for t in self.catalog.garden_types:
                largest[t] = largest_area_fields(fields_at[upto], {t, *jokers})
            chosen = sorted((t for t in largest if (cp, t) in self.areas and largest[t]),
                            key=lambda t: -len(largest[t]))[:k]
            for t in self.catalog.garden_types:
                a = self.areas.get((cp, t))
                if a is None:
                    continue
                group = largest[t] if t in chosen else set()
                value += len(group)
                hints.append((a.use, t in chosen))
                start = min(group, key=lambda c: (c[1], c[0])) if group else None  # first in board order
                dist = {start: 0} if group else {}
                par: dict[Cell, Cell] = {}
                queue = [start] if group else []
                while queue:
                    c = queue.pop(0)
                    x, y = c
                    for d in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                        if d in group and d not in dist:
                            dist[d] = dist[c] + 1
                            par[d] = c
                            queue.append(d)
                for c, v in a.member.items():
                    hints.append((v, c in group))
                    hints.append((a.root[c], c == start))
                    hints.append((a.depth[c], dist.get(c, 0)))
                for (c, d), v in a.parent.items():
                    hints.append((v, par.get(c) == d))
                found = False
                for c, v in a.seen.items():  # board order
                    found = found or c in group
                    hints.append((v, found))
        proto = self.model.proto.solution_hint
        proto.vars.extend(v.index for v, _ in hints)
        proto.values.extend(int(x) for _, x in hints)
        return value

    def placements(self, solver: cp_model.CpSolver, tiles: Sequence[Tile]) -> list[Placement]:
        out = []
        for tile, opts, lits in zip(tiles, self.options, self.place):
            chosen = [o for o, lit in zip(opts, lits) if solver.boolean_value(lit)]
            x, y, r = chosen[0]
            out.append(Placement(tile.id, x - self.offset[0], y - self.offset[1], r))
        return out

    def fix(self, placements: Sequence[Placement]) -> None:
        """Force the given placements (garden coordinates) for the first len(placements) tiles."""
        for i, p in enumerate(placements):
            # a turn that repeats an earlier layout (a symmetric tile) is kept as that layout
            rotation = canonical_rotation(self.tiles[i], p.rotation) if self.tiles else p.rotation
            want = (p.x + self.offset[0], p.y + self.offset[1], rotation)
            hit = False
            for o, lit in zip(self.options[i], self.place[i]):
                if o == want:
                    self.model.add(lit == 1)
                    hit = True
            if not hit:
                # the rotation may be a duplicate of a kept one, or the placement may leave the board
                raise ValueError(f"placements[{i}]: ({p.x}, {p.y}) rotation {p.rotation} is not on the board")


def canonical_rotation(tile: Tile, rotation: int) -> int:
    """The kept rotation with the same field layout as `rotation`."""
    layout = tile.oriented(rotation)
    return next(r for r in distinct_rotations(tile) if tile.oriented(r) == layout)


def build_solo_model(tiles: Sequence[Tile], catalog: Catalog, checkpoints: Sequence[tuple[int, int]],
                     board: int, offset: Cell = (0, 0), break_symmetry: bool = True) -> SoloModel:
    """Tiles in order on a board of board x board fields; objective = sum over checkpoints (n, k) of
    the k largest garden-type areas after the first n tiles.

    break_symmetry: the garden touches the board's top and left edge, and the first tile keeps its
    printed orientation (turning the whole garden a quarter turn maps solutions onto solutions).
    """
    m = cp_model.CpModel()
    n = len(tiles)
    cells = [(x, y) for y in range(board) for x in range(board)]
    options: list[list[tuple[int, int, int]]] = []
    place: list[list[cp_model.IntVar]] = []
    covering: list[dict[Cell, list[tuple[cp_model.IntVar, str]]]] = []
    for i, tile in enumerate(tiles):
        rots = (0,) if (i == 0 and break_symmetry) else distinct_rotations(tile)
        opts = [(x, y, r) for y in range(board - 1) for x in range(board - 1) for r in rots]
        lits = [m.new_bool_var(f"t{i}_{x}_{y}_{r}") for (x, y, r) in opts]
        m.add_exactly_one(lits)
        cov: dict[Cell, list[tuple[cp_model.IntVar, str]]] = {c: [] for c in cells}
        for (x, y, r), lit in zip(opts, lits):
            for c, code in zip(footprint(x, y), tile.oriented(r)):
                cov[c].append((lit, code))
        options.append(opts)
        place.append(lits)
        covering.append(cov)

    # before[i][c]: field c is covered by one of the tiles placed before tile i (bool => no overlap)
    before: list[dict[Cell, cp_model.IntVar]] = [{}]
    for i in range(1, n + 1):
        layer = {}
        for c in cells:
            v = m.new_bool_var(f"b{i}_{c}")
            prev = before[i - 1].get(c, 0)
            m.add(v == prev + sum(lit for lit, _ in covering[i - 1][c]))
            layer[c] = v
        before.append(layer)
    for i in range(1, n):
        for (x, y, _), lit in zip(options[i], place[i]):
            ring = [c for c in border(x, y) if 0 <= c[0] < board and 0 <= c[1] < board]
            m.add_bool_or([before[i][c] for c in ring]).only_enforce_if(lit)
    if break_symmetry:
        m.add_bool_or([before[n][(0, y)] for y in range(board)])
        m.add_bool_or([before[n][(x, 0)] for x in range(board)])

    areas = post_scorings(m, tiles, catalog, checkpoints, cells,
                          lambda upto, counts, c: [lit for j in range(upto) for lit, code in covering[j][c]
                                                   if code in counts])
    regions = {key: area.member for key, area in areas.items()}
    objective_terms = [v for area in areas.values() for v in area.member.values()]
    objective = cp_model.LinearExpr.sum(objective_terms)
    m.maximize(objective)
    return SoloModel(m, board, offset, options, place, objective, tuple(tiles), regions,
                     before=before, areas=areas, checkpoints=tuple(checkpoints), catalog=catalog)


def post_scorings(m: cp_model.CpModel, tiles: Sequence[Tile], catalog: Catalog,
                  checkpoints: Sequence[tuple[int, int]], cells: list[Cell],
                  has_of: Callable[[int, set[str], Cell], list]) -> dict[tuple[int, str], AreaVars]:
    """The scorings' areas: per scoring cp = (n, k) and garden type t with fields among the first n
    tiles, a contiguous area (`_tree_area`) over the fields that may hold a field counting for t
    among the first n tiles (`has_of(n, codes, field)`: literals, or [1] for a field known to hold
    one); at most k areas per scoring, and, stated so propagation sees it, their sizes within the k
    largest field counts. Keyed (cp, t); the full model and the neighbourhood step model share it."""
    jokers = set(catalog.joker_types)
    areas: dict[tuple[int, str], AreaVars] = {}
    for cp, (upto, k) in enumerate(checkpoints):
        uses, totals = [], []
        for t in catalog.garden_types:
            counts = {t, *jokers}
            available = sum(1 for tile in tiles[:upto] for code in tile.fields if code in counts)
            totals.append(available)
            if available == 0:
                continue
            use = m.new_bool_var(f"use{cp}_{t}")
            uses.append(use)
            has = {c: has_of(upto, counts, c) for c in cells}
            areas[(cp, t)] = _tree_area(m, cells, has, use, available, f"a{cp}{t}")
        m.add(sum(uses) <= k)
        m.add(sum(v for (c, _), area in areas.items() if c == cp for v in area.member.values())
              <= sum(sorted(totals, reverse=True)[:k]))
    return areas


ROOT_FIRST = True  # the root of each area tree is its first member in board order (set False to compare)


def _tree_area(m: cp_model.CpModel, cells: list[Cell], has: dict[Cell, list], use, limit: int,
               name: str) -> AreaVars:
    """Choose a contiguous group of fields, each holding a field that counts for the type.

    Spanning tree by parent pointers with depth labels: every member but the root points to a
    member neighbour of smaller depth, so all members hang from the single root.
    """
    z: dict[Cell, cp_model.IntVar] = {}
    for c in cells:
        if not has[c]:
            continue
        z[c] = m.new_bool_var(f"{name}z{c}")
        m.add(z[c] <= sum(has[c]))
        m.add_implication(z[c], use)
    m.add(sum(z.values()) <= limit * use)
    root = {c: m.new_bool_var(f"{name}r{c}") for c in z}
    m.add(sum(root.values()) <= 1)
    if ROOT_FIRST:
        # one tree per area instead of one per choice of root: earlier[c] holds when a member comes
        # before c in board order (cells are listed row by row), and only the first member is root
        earlier = None
        seen = {}
        for c in z:  # z follows `cells`, i.e. board order
            if earlier is not None:
                m.add_implication(root[c], earlier.Not())
                m.add_bool_or([earlier, z[c].Not(), root[c]])
            else:
                m.add_implication(z[c], root[c])
            nxt = seen[c] = m.new_bool_var(f"{name}e{c}")
            m.add_implication(z[c], nxt)
            if earlier is not None:
                m.add_implication(earlier, nxt)
            earlier = nxt
    depth = {c: m.new_int_var(0, limit - 1, f"{name}d{c}") for c in z}
    parent: dict[tuple[Cell, Cell], cp_model.IntVar] = {}
    for c in z:
        m.add_implication(root[c], z[c])
        x, y = c
        parents = []
        for d in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if d not in z:
                continue
            p = m.new_bool_var(f"{name}p{c}{d}")
            m.add_implication(p, z[d])
            m.add(depth[c] >= depth[d] + 1).only_enforce_if(p)
            parents.append(p)
            parent[(c, d)] = p
        m.add_bool_or(parents + [root[c], z[c].Not()])
        for p in parents:
            m.add_implication(p, z[c])
            m.add_implication(p, root[c].Not())
    return AreaVars(use, z, root, depth, parent, seen if ROOT_FIRST else {})


@dataclass
class SoloSolve:
    status: str  # "optimal", "feasible", "infeasible" or "unknown", as CP-SAT reports it
    placements: list[Placement] | None
    objective: int | None
    bound: int | None
    wall_time: float
    branches: int
    work: float = 0.0  # CP-SAT deterministic time spent


STATUS = {cp_model.OPTIMAL: "optimal", cp_model.FEASIBLE: "feasible",
          cp_model.INFEASIBLE: "infeasible", cp_model.UNKNOWN: "unknown", cp_model.MODEL_INVALID: "invalid"}


def search_solver(control: SolveControl, time_limit: float | None, work: float | None, presolve: bool,
                  workers: int | None, check: bool = False) -> cp_model.CpSolver:
    """A solver from `control` with its wall time capped by `time_limit` and its deterministic time by
    `work` (both within the control's own limits), presolve on or off, `workers` if given; `check`:
    settles a found garden (see SolveControl.new_solver)."""
    solver = control.new_solver(time_limit, check=check)
    p = solver.parameters
    if work is not None:
        cap = control.deterministic_limit
        p.max_deterministic_time = max(0.001, work if cap is None else min(work, cap))
    p.cp_model_presolve = presolve
    if workers is not None:
        p.num_workers = workers
    return solver


def run(solo: SoloModel, tiles: Sequence[Tile], control: SolveControl, time_limit: float | None = None,
        work: float | None = None, presolve: bool = True, workers: int | None = None,
        check: bool = False) -> SoloSolve:
    """One CP-SAT search through `control` (so cancelling the control stops it).

    `time_limit` caps its wall time (within control.time_limit_s; ignored when the control is
    deterministic: then no wall clock limits it); `work` caps its deterministic time (within
    control.deterministic_limit). `workers` overrides control.num_workers.
    """
    code, solver = control.solve(solo.model, search_solver(control, time_limit, work, presolve, workers, check))
    status = STATUS[code]
    if status == "invalid":
        raise RuntimeError(f"CP-SAT rejected the Versailles model: {solo.model.validate()}")
    found = code in (cp_model.OPTIMAL, cp_model.FEASIBLE)
    return SoloSolve(
        status,
        solo.placements(solver, tiles) if found else None,
        round(solver.objective_value) if found else None,
        round(solver.best_objective_bound) if code != cp_model.INFEASIBLE else None,
        solver.wall_time, solver.num_branches, solver.deterministic_time)
