"""CP-SAT model of the best Gartenbau garden for the tiles a player holds: every scoring rule encoded."""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field

from ortools.sat.python import cp_model

from .data import Catalog, Flower, Seedling
from .garden import DIRECTIONS, FLOWER_FOOTPRINT, MAX_FLOWERS_LAID, Cell, components, flower_plant_pairs, orthogonal, step
from .scoring import TOKEN_PRESTIGE

Position = tuple[Cell, Cell]  # a domino's two spaces


@dataclass
class Pinned:
    """Tiles already in the garden, in board coordinates (the hint fixes them)."""
    tiles: list[tuple[str, Position]] = field(default_factory=list)  # tile id -> seedlings[i] on cells[i]
    plants: list[tuple[str, Position]] = field(default_factory=list)
    flowers: list[tuple[str, Cell]] = field(default_factory=list)


@dataclass
class GardenModel:
    """The CP-SAT model and the handles needed to read a garden back out of a solution."""
    model: cp_model.CpModel
    size: int
    objective: cp_model.LinearExpr
    # layout decisions: (tile ids of the class, position, orientation) -> literal
    tile_vars: dict[tuple[int, Position, int], cp_model.IntVar]
    tile_classes: list[tuple[tuple[Seedling, Seedling], list[str]]]
    plant_vars: dict[tuple[int, Position], cp_model.IntVar]
    plant_classes: list[list[str]]
    flower_vars: dict[tuple[int, Cell, int], cp_model.IntVar]
    flowers: list[Flower]
    layout: list[cp_model.IntVar] = field(default_factory=list)


class _Builder:
    """Builds the model in small named steps; one method per rule family."""

    def __init__(self, catalog: Catalog, size: int, starter: tuple[Seedling, Seedling], seedlings: list[str],
                 plants: list[str], flowers: list[str], tokens: int, pinned: Pinned | None, strips: bool = False,
                 shape: frozenset | None = None):
        self.cat = catalog
        self.n = size
        self.m = cp_model.CpModel()
        self.cells = [(r, c) for r in range(size) for c in range(size)]
        self.positions: list[Position] = (
            [((r, c), (r, c + 1)) for r in range(size) for c in range(size - 1)]
            + [((r, c), (r + 1, c)) for r in range(size - 1) for c in range(size)])
        self.blocks = [(r, c) for r in range(size - 1) for c in range(size - 1)]
        self.pinned = pinned
        self.terms: list = [tokens]
        self.starter = starter
        self.seedling_ids = seedlings
        self.plant_ids = plants
        self.flowers = [catalog.flowers[f] for f in flowers]
        self.total_cells = 2 * (1 + len(seedlings))
        self.strips = strips
        # fixed shapes: the garden fills exactly the spaces of one of them (a selector each)
        self.shapes = [frozenset(shape)] if isinstance(shape, (set, frozenset)) else (list(shape) if shape else None)
        self.shape = frozenset().union(*self.shapes) if self.shapes else None
        if shape is not None:  # tiles, plants and flowers only on the shapes' spaces
            self.positions = [p for p in self.positions if p[0] in self.shape and p[1] in self.shape]
            self.blocks = [b for b in self.blocks
                           if all((b[0] + dr, b[1] + dc) in self.shape for dr, dc in FLOWER_FOOTPRINT)]

    def on_board(self, c: Cell) -> bool:
        return 0 <= c[0] < self.n and 0 <= c[1] < self.n

    def filled_of(self, c: Cell):
        return self.filled[c] if self.on_board(c) else 0

    def bool(self, name: str) -> cp_model.IntVar:
        return self.m.new_bool_var(name)

    def and_upper(self, name: str, *lits) -> cp_model.IntVar:
        """A literal that can only be true when every one of `lits` is (enough where the objective pulls it up)."""
        z = self.bool(name)
        for lit in lits:
            self.m.add(z <= lit)
        return z

    def and_exact(self, name: str, a, b_not) -> cp_model.IntVar:
        """z == a and not b_not, for 0/1 expressions."""
        z = self.bool(name)
        self.m.add(z <= a)
        self.m.add(z <= 1 - b_not)
        self.m.add(z >= a - b_not)
        return z

    # ---------------------------------------------------------------- seedling layer
    def seedling_layer(self) -> None:
        classes: dict[tuple[Seedling, Seedling], list[str]] = defaultdict(list)
        for tid in self.seedling_ids:
            halves = self.cat.seedling_tiles[tid].seedlings
            classes[tuple(sorted(halves, key=lambda s: (s.colour, s.type)))].append(tid)
        # the starter is a class of its own: it roots the garden
        self.tile_classes = [(self.starter, ["@starter"])] + sorted(classes.items(), key=lambda kv: kv[1][0])
        self.kinds = sorted({s for halves, _ in self.tile_classes for s in halves}, key=lambda s: (s.colour, s.type))
        self.x: dict = {}
        cover = defaultdict(list)
        kind_at = defaultdict(list)
        self.one_tile = defaultdict(list)
        for k, (halves, ids) in enumerate(self.tile_classes):
            orients = (0,) if halves[0] == halves[1] else (0, 1)
            for p in self.positions:
                if self.strips and k and not (p[0][1] == p[1][1] and p[0][0] % 2 == 0):
                    continue  # strips: seedling tiles stand upright in row pairs (0-1, 2-3, ...)
                if self.shape is not None and not (p[0] in self.shape and p[1] in self.shape):
                    continue  # a fixed shape: tiles only on its spaces
                for o in orients:
                    v = self.bool(f"x{k}_{p}_{o}")
                    self.x[k, p, o] = v
                    first, second = (halves if o == 0 else halves[::-1])
                    cover[p[0]].append(v)
                    cover[p[1]].append(v)
                    kind_at[p[0], first].append(v)
                    kind_at[p[1], second].append(v)
                    self.one_tile[p].append(v)
            self.m.add(sum(self.x[k, p, o] for p in self.positions for o in orients if (k, p, o) in self.x) == len(ids))
        self.filled = {}
        for c in self.cells:
            f = self.bool(f"filled{c}")
            self.m.add(f == sum(cover[c]))
            self.filled[c] = f
        self.kind = {(c, s): sum(kind_at[c, s]) for c in self.cells for s in self.kinds}
        # named literals (not long sums) for what many constraints read: keeps presolve light
        self.colour = {}
        for c in self.cells:
            for col in self.cat.colours:
                v = self.bool(f"col{c}{col}")
                self.m.add(v == sum(self.kind[c, s] for s in self.kinds if s.colour == col))
                self.colour[c, col] = v
        for p in self.positions:
            v = self.bool(f"onetile{p}")
            self.m.add(v == sum(self.one_tile[p]))
            self.one_tile[p] = v
        if self.pinned:
            for tid, pos in self.pinned.tiles:
                halves = self.starter if tid == "@starter" else self.cat.seedling_tiles[tid].seedlings
                k = next(i for i, (h, ids) in enumerate(self.tile_classes) if tid in ids)
                if pos not in self.one_tile:  # (a dict keyed by the board's positions)
                    pos, halves = pos[::-1], halves[::-1]
                o = 0 if tuple(halves) == tuple(self.tile_classes[k][0]) else 1
                self.m.add(self.x[k, pos, o] == 1)
        else:
            # a garden can slide anywhere: pin its bounding box to the top-left corner
            self.m.add(sum(self.filled[(0, c)] for c in range(self.n)) >= 1)
            self.m.add(sum(self.filled[(r, 0)] for r in range(self.n)) >= 1)
            # and turn it (prestige ignores turns) until the starter lies flat, first seedling on the left
            for (k, p, o), v in self.x.items():
                if k == 0 and (p[0][0] != p[1][0] or o == 1):
                    self.m.add(v == 0)
        self.m.add(sum(self.filled.values()) == self.total_cells)
        if self.shapes is not None:
            self.shape_sel = [self.bool(f"shape{i}") for i in range(len(self.shapes))] if len(self.shapes) > 1 else [1]
            if len(self.shapes) > 1:
                self.m.add_exactly_one(self.shape_sel)
            for c in self.cells:
                self.m.add(self.filled[c] == sum(sel for sel, shape in zip(self.shape_sel, self.shapes) if c in shape))

    def connected(self, member: dict[Cell, object], root: dict[Cell, object], name: str, limit: int) -> None:
        """Cells with `member` form one tree hanging from the cell whose `root` is set: each member
        other than the root points to a neighbour member that is strictly closer to the root."""
        depth = {c: self.m.new_int_var(0, limit, f"{name}_d{c}") for c in member}
        for c in member:
            parents = []
            for d in DIRECTIONS:
                n = step(c, d)
                if n in member:
                    par = self.bool(f"{name}_p{c}{n}")
                    self.m.add(par <= member[n])
                    self.m.add(depth[c] >= depth[n] + 1).only_enforce_if(par)
                    parents.append(par)
            self.m.add(sum(parents) + root.get(c, 0) == member[c])

    def garden_connected(self) -> None:
        """"Your first tile will be placed adjacent to your starter tile" and every later tile next to a placed
        one: the seedling layer is one connected garden, grown from the starter's first seedling."""
        root = defaultdict(list)
        for (k, p, o), v in self.x.items():
            if k == 0:
                root[p[0] if o == 0 else p[1]].append(v)
        self.connected(self.filled, {c: sum(vs) for c, vs in root.items()}, "conn", self.total_cells)

    # ---------------------------------------------------------------- plant and flower layers
    def pair_literal(self, cache: dict, key, colour_a, colour_b):
        if key not in cache:
            cache[key] = self.and_upper(f"pair{key}", colour_a, colour_b)
        return cache[key]

    def plant_layer(self) -> None:
        classes: dict[tuple[str, int], list[str]] = defaultdict(list)
        for pid in self.plant_ids:
            p = self.cat.plants[pid]
            classes[(p.colour, p.prestige)].append(pid)
        self.plant_keys = sorted(classes)
        self.plant_classes = [classes[k] for k in self.plant_keys]
        self.y = {}
        pcover = defaultdict(list)
        cache: dict = {}
        for j, (colour, _) in enumerate(self.plant_keys):
            for p in self.positions:
                v = self.bool(f"y{j}_{p}")
                self.y[j, p] = v
                pcover[p[0]].append(v)
                pcover[p[1]].append(v)
                # "a Plant Tile may not be placed to cover only one Seedling Tile"
                self.m.add(v + self.one_tile[p] <= 1)
                pairs = [self.pair_literal(cache, (p, a, b), self.colour[p[0], a], self.colour[p[1], b])
                         for pair in sorted(self.cat.requirements[colour]) for a, b in sorted({pair, pair[::-1]})]
                self.m.add(v <= sum(pairs))
            self.m.add(sum(self.y[j, p] for p in self.positions) <= len(self.plant_classes[j]))
        self.pcover = {}
        for c in self.cells:
            self.m.add(sum(pcover[c]) <= 1)
            self.pcover[c] = sum(pcover[c])
        self.plant_colour = {(p, col): sum(self.y[j, p] for j, k in enumerate(self.plant_keys) if k[0] == col)
                             for p in self.positions for col in self.cat.colours}
        if self.pinned:
            for pid, pos in self.pinned.plants:
                plant = self.cat.plants[pid]
                j = self.plant_keys.index((plant.colour, plant.prestige))
                key = pos if pos in self.positions else pos[::-1]
                self.m.add(self.y[j, key] == 1)

    def flower_layer(self) -> None:
        self.w = {}
        fcover = defaultdict(list)
        cache: dict = {}
        self.placed = []
        self.at_block = []  # per flower: block -> 0/1 expression
        self.covers = []  # per flower: cell -> 0/1 expression
        for f, flower in enumerate(self.flowers):
            mine = []
            at_block = {}
            covers = defaultdict(list)
            for b in self.blocks:
                here = []
                for o, (p1, p2) in enumerate(flower_plant_pairs(b)):
                    v = self.bool(f"w{f}_{b}_{o}")
                    self.w[f, b, o] = v
                    pairs = [self.pair_literal(cache, (p1, p2, a, c), self.plant_colour[p1, a], self.plant_colour[p2, c])
                             for pair in sorted(self.cat.requirements[flower.colour])
                             for a, c in sorted({pair, pair[::-1]})]
                    self.m.add(v <= sum(pairs))
                    here.append(v)
                at_block[b] = sum(here)
                for dr, dc in FLOWER_FOOTPRINT:
                    covers[(b[0] + dr, b[1] + dc)] += here
                    fcover[(b[0] + dr, b[1] + dc)] += here
                mine += here
            placed = self.bool(f"placed{f}")
            self.m.add(placed == sum(mine))
            self.placed.append(placed)
            self.at_block.append(at_block)
            self.covers.append({c: sum(v) for c, v in covers.items()})
        if len(self.placed) > MAX_FLOWERS_LAID:  # (a holding of up to 8: a player keeps 6 at most)
            self.m.add(sum(self.placed) <= MAX_FLOWERS_LAID)
        self.fcover = {}
        for c in self.cells:
            self.m.add(sum(fcover[c]) <= 1)
            self.fcover[c] = sum(fcover[c])
        if self.pinned:
            for fid, at in self.pinned.flowers:
                f = next(i for i, fl in enumerate(self.flowers) if fl.id == fid)
                self.m.add(self.at_block[f][at] == 1)
        # the ring of spaces next to each flower (off-board spaces included: always empty)
        self.ring = []
        for f in range(len(self.flowers)):
            ring = defaultdict(list)
            for b in self.blocks:
                for c in orthogonal([(b[0] + dr, b[1] + dc) for dr, dc in FLOWER_FOOTPRINT]):
                    ring[c].append(self.at_block[f][b])
            self.ring.append({c: sum(v) for c, v in ring.items()})

    def visibility(self) -> None:
        """Seedlings under no plant and plants under no flower are "visible"."""
        self.visible_colour = {(c, col): self.and_exact(f"vc{c}{col}", self.colour[c, col], self.pcover[c])
                               for c in self.cells for col in self.cat.colours}
        self.visible_seedling = {c: self.filled[c] - self.pcover[c] for c in self.cells}
        self.visible_plant = {}
        for (j, p), v in self.y.items():
            self.visible_plant[j, p] = self.and_exact(f"vp{j}_{p}", v, self.fcover[p[0]])
        for (j, p), v in self.visible_plant.items():
            self.terms.append(self.plant_keys[j][1] * v)  # printed prestige of visible plants

    def counting(self) -> None:
        """Redundant counts that give the LP the colour budget: each placed plant uses one allowed pair
        of seedling colours, each placed flower one allowed pair of plant colours."""
        covered_seedlings = defaultdict(list)
        for j, (colour, _) in enumerate(self.plant_keys):
            placed = sum(self.y[j, p] for p in self.positions)
            uses = []
            for pair in sorted(self.cat.requirements[colour]):
                n = self.m.new_int_var(0, len(self.plant_classes[j]), f"uses{j}{pair}")
                uses.append(n)
                for c in pair:
                    covered_seedlings[c].append(n)
            self.m.add(sum(uses) == placed)
        for col in self.cat.colours:
            covered = sum(self.colour[c, col] - self.visible_colour[c, col] for c in self.cells)
            self.m.add(sum(covered_seedlings[col]) == covered)
        covered_plants = defaultdict(list)
        for f, flower in enumerate(self.flowers):
            uses = []
            for pair in sorted(self.cat.requirements[flower.colour]):
                b = self.bool(f"fuses{f}{pair}")
                uses.append(b)
                for c in pair:
                    covered_plants[c].append(b)
            self.m.add(sum(uses) == self.placed[f])
        for col in self.cat.colours:
            covered = sum(v - self.visible_plant[j, p] for (j, p), v in self.y.items() if self.plant_keys[j][0] == col)
            self.m.add(sum(covered_plants[col]) == covered)

    @property
    def visible_kind(self) -> dict:
        """Visible seedling of each kind (colour and type) per space; built only for rules that read types."""
        if not hasattr(self, "_visible_kind"):
            self._visible_kind = {}
            for c in self.cells:
                for s in self.kinds:
                    v = self.and_upper(f"vk{c}{s.label()}", self.kind[c, s], self.visible_colour[c, s.colour])
                    self.m.add(v >= self.kind[c, s] + self.visible_colour[c, s.colour] - 1)
                    self._visible_kind[c, s] = v
        return self._visible_kind

    def visible_seedlings_of(self, colour: str):
        return sum(self.visible_colour[c, colour] for c in self.cells)

    def visible_plants_of(self, colour: str | None):
        return sum(v for (j, p), v in self.visible_plant.items() if colour is None or self.plant_keys[j][0] == colour)

    # ---------------------------------------------------------------- geometry shared by several rules
    def holes_count(self) -> cp_model.IntVar:
        """Holes (4-connected empty regions enclosed by the garden) from local 2x2 windows: for one
        8-connected garden, holes = 1 - (Q1 - Q3 - 2*QD) / 4 (Gray's bit-quad Euler number)."""
        if hasattr(self, "_holes"):
            return self._holes
        if self.shapes is not None:  # fixed shapes: holes are a constant of the shape chosen
            self.outside()
            self._holes = sum(sel * len(components([c for c in self.cells if c not in shape and not out[c]]))
                              for sel, shape, out in zip(self.shape_sel, self.shapes, self.shape_out))
            return self._holes
        q1, q3, qd = [], [], []
        for r in range(-1, self.n):
            for c in range(-1, self.n):
                a, b, d, e = (self.filled_of(x) for x in ((r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)))
                if all(isinstance(t, int) for t in (a, b, d, e)):
                    continue
                one_hot = [self.bool(f"q{r},{c}={k}") for k in range(5)]
                self.m.add(sum(one_hot) == 1)
                self.m.add(sum(k * h for k, h in enumerate(one_hot)) == a + b + d + e)
                q1.append(one_hot[1])
                q3.append(one_hot[3])
                for x1, x2, y1, y2 in ((a, e, b, d), (b, d, a, e)):
                    if isinstance(x1, int) or isinstance(x2, int):
                        continue  # a diagonal pair needs both of its spaces on the board
                    z = self.bool(f"qd{r},{c}")
                    for lit in (x1, x2):
                        self.m.add(z <= lit)
                    for lit in (y1, y2):
                        self.m.add(z <= 1 - lit)
                    self.m.add(z >= x1 + x2 - y1 - y2 - 1)
                    qd.append(z)
        holes = self.m.new_int_var(0, self.n * self.n, "holes")
        self.m.add(4 * holes == 4 - sum(q1) + sum(q3) + 2 * sum(qd))
        self._holes = holes
        return holes

    def outside(self) -> dict[Cell, object]:
        """Empty spaces reachable from beyond the board through empty spaces (exact: closed under
        empty neighbours, and every outside space leads outward by strictly falling distances)."""
        if hasattr(self, "_outside"):
            return self._outside
        if self.shapes is not None:  # fixed shapes: each one's outside is known
            self.shape_out = []
            for shape in self.shapes:
                todo = [c for c in self.cells if c not in shape
                        and any(not self.on_board(step(c, d)) for d in DIRECTIONS)]
                seen = set(todo)
                while todo:
                    cur = todo.pop()
                    for d in DIRECTIONS:
                        n = step(cur, d)
                        if self.on_board(n) and n not in shape and n not in seen:
                            seen.add(n)
                            todo.append(n)
                self.shape_out.append({c: int(c in seen) for c in self.cells})
            self._outside = {c: sum(sel * out[c] for sel, out in zip(self.shape_sel, self.shape_out))
                             for c in self.cells}
            return self._outside
        out = {c: self.bool(f"out{c}") for c in self.cells}
        dist = {c: self.m.new_int_var(0, self.n * self.n, f"odist{c}") for c in self.cells}
        for c in self.cells:
            self.m.add(out[c] <= 1 - self.filled[c])
            nbs = [step(c, d) for d in DIRECTIONS]
            if any(not self.on_board(n) for n in nbs):
                self.m.add(out[c] == 1 - self.filled[c])
                continue
            supports = []
            for n in nbs:
                self.m.add(out[c] >= out[n] - self.filled[c])  # an empty space next to outside is outside
                sup = self.and_upper(f"osup{c}{n}", out[n])
                self.m.add(dist[c] >= dist[n] + 1).only_enforce_if(sup)
                supports.append(sup)
            self.m.add(sum(supports) >= out[c])
        self._outside = out
        return out

    def hole_spaces(self) -> dict[Cell, object]:
        out = self.outside()
        return {c: 1 - self.filled[c] - out[c] for c in self.cells}

    def closed_connected_selections(self, count: int, candidate, linked, active: list, name: str) -> list[dict]:
        """`count` disjoint selections of spaces; selection i (if `active[i]`) is one whole connected
        group: connected, and holding every candidate neighbour `linked` to one of its spaces."""
        sels = []
        for i in range(count):
            # a placed flower may find no group at all (no hole, no visible seedling)
            group = self.bool(f"{name}{i}group")
            self.m.add(group <= active[i])
            sel = {c: self.bool(f"{name}{i}{c}") for c in self.cells}
            root = {c: self.bool(f"{name}{i}root{c}") for c in self.cells}
            for c in self.cells:
                self.m.add(sel[c] <= candidate(i, c))
                self.m.add(root[c] <= sel[c])
                self.m.add(sel[c] <= group)
            self.m.add(sum(root.values()) == group)
            self.connected(sel, root, f"{name}{i}", self.n * self.n)
            for c in self.cells:
                for d in DIRECTIONS:
                    n = step(c, d)
                    if self.on_board(n):
                        # closure: a selection takes its whole group, so two copies need two groups
                        self.m.add(sel[n] >= sel[c] + linked(i, c, n) - 1)
            sels.append(sel)
        for c in self.cells:
            self.m.add(sum(s[c] for s in sels) <= 1)
        return sels

    def table_choice(self, name: str, table: list, placed, counts: list) -> object:
        """Prestige of a chart for a count bounded by every expression in `counts`; 0 when not placed."""
        steps = [(0, 0)] + [tuple(s) for s in table]
        pick = [self.bool(f"{name}_t{at}") for at, _ in steps]
        self.m.add(sum(pick) == placed)
        for count in counts:
            self.m.add(sum(at * p for (at, _), p in zip(steps, pick)) <= count)
        return sum(v * p for (_, v), p in zip(steps, pick))

    def capped_linear(self, name: str, placed, value, upper: int) -> cp_model.IntVar:
        """`value` when the flower is placed, else 0 (the objective pulls it up to its bound)."""
        v = self.m.new_int_var(0, upper, name)
        self.m.add(v <= value)
        self.m.add(v <= upper * placed)
        return v

    # ---------------------------------------------------------------- flower rules
    def flower_rules(self) -> None:
        by_copy: dict[tuple[str, str], list[int]] = defaultdict(list)
        for f, flower in enumerate(self.flowers):
            rule = flower.scoring.rule
            if rule in ("holes", "largest_hole", "longest_identical_set"):
                by_copy[flower.copy_key].append(f)
            else:
                self.terms.append(getattr(self, f"rule_{rule}")(f, flower, flower.scoring.params))
        for copies in by_copy.values():
            rule = self.flowers[copies[0]].scoring.rule
            self.terms.append(getattr(self, f"shared_{rule}")(copies))

    def rule_fixed(self, f, flower, p):
        return p["prestige"] * self.placed[f]

    def rule_colour_bonus(self, f, flower, p):
        bonus = p["per_seedling"] * self.visible_seedlings_of(p["colour"]) + p["per_plant"] * self.visible_plants_of(p["colour"])
        upper = p["per_seedling"] * self.total_cells + p["per_plant"] * len(self.plant_ids)
        return p["base"] * self.placed[f] + self.capped_linear(f"bonus{f}", self.placed[f], bonus, upper)

    def rule_visible_plants(self, f, flower, p):
        bonus = p["per_plant"] * self.visible_plants_of(None)
        return p["base"] * self.placed[f] + self.capped_linear(f"vplants{f}", self.placed[f], bonus,
                                                               p["per_plant"] * len(self.plant_ids))

    def rule_colour_sets(self, f, flower, p):
        counts = [self.visible_seedlings_of(c) for c in p["colours"]]
        return p["base"] * self.placed[f] + self.table_choice(f"sets{f}", p["table"], self.placed[f], counts)

    def rule_empty_adjacent(self, f, flower, p):
        empties = [self.and_upper(f"empty{f}{c}", ring, 1 - self.filled_of(c))
                   for c, ring in self.ring[f].items()]
        return self.table_choice(f"empty{f}", p["table"], self.placed[f], [sum(empties)])

    def rule_adjacent_flowers(self, f, flower, p):
        neighbours = []
        for g in range(len(self.flowers)):
            if g == f:
                continue
            touches = [self.and_upper(f"touch{f},{g}{c}", ring, self.covers[g][c])
                       for c, ring in self.ring[f].items() if c in self.covers[g]]
            adj = self.bool(f"adj{f},{g}")
            self.m.add(adj <= sum(touches))
            neighbours.append(adj)
        return self.table_choice(f"adjf{f}", p["table"], self.placed[f], [sum(neighbours)])

    def rule_seedlings_adjacent_to_flowers(self, f, flower, p):
        seen = [self.and_upper(f"sadj{g}{c}", ring, self.visible_seedling[c])
                for g in range(len(self.flowers)) for c, ring in self.ring[g].items() if self.on_board(c)]
        return self.table_choice(f"sadj{f}", p["table"], self.placed[f], [sum(seen)])

    def rule_identical_adjacent(self, f, flower, p):
        choose = {s: self.bool(f"idk{f}{s.label()}") for s in self.kinds}
        self.m.add(sum(choose.values()) <= 1)
        same = [self.and_upper(f"idadj{f}{c}{s.label()}", ring, self.visible_kind[c, s], choose[s])
                for c, ring in self.ring[f].items() if self.on_board(c) for s in self.kinds]
        return self.table_choice(f"idadj{f}", p["table"], self.placed[f], [sum(same)])

    def rule_largest_rectangle(self, f, flower, p):
        rects = []
        for top in range(self.n):
            for left in range(self.n):
                for h in range(1, self.n - top + 1):
                    for w in range(1, self.n - left + 1):
                        area = h * w
                        if area > self.total_cells:
                            break
                        r = self.bool(f"rect{f}{top},{left},{h},{w}")
                        inside = [self.filled[(top + i, left + j)] for i in range(h) for j in range(w)]
                        self.m.add(sum(inside) >= area).only_enforce_if(r)
                        rects.append((area, r))
        self.m.add(sum(r for _, r in rects) <= self.placed[f])
        return p["per_space"] * sum(a * r for a, r in rects)

    def rule_outer_edges(self, f, flower, p):
        out = self.outside()

        def outer(c, d):
            n = step(c, d)
            if not self.on_board(c):
                return 0
            if not self.on_board(n):
                return self.filled[c]
            # exact: a side's start reads the previous unit edge negatively
            e = self.and_upper(f"ue{c}{d}", self.filled[c], out[n])
            self.m.add(e >= self.filled[c] + out[n] - 1)
            return e

        back = {(-1, 0): (0, -1), (1, 0): (0, -1), (0, 1): (-1, 0), (0, -1): (-1, 0)}
        unit = {(c, d): outer(c, d) for c in self.cells for d in DIRECTIONS}
        starts = []
        for (c, d), e in unit.items():
            prev = step(c, back[d])
            before = unit.get((prev, d), 0)
            if isinstance(e, int):
                continue
            s = self.and_upper(f"side{c}{d}", e)
            if not isinstance(before, int):
                self.m.add(s <= 1 - before)
            starts.append(s)
        return self.capped_linear(f"edges{f}", self.placed[f], p["per_edge"] * sum(starts), p["max"])

    def rule_identical_pairs(self, f, flower, p):
        matched = defaultdict(list)
        pairs = []
        for a, b in self.positions:
            same = [self.and_upper(f"same{a}{b}{s.label()}", self.visible_kind[a, s], self.visible_kind[b, s])
                    for s in self.kinds]
            m = self.bool(f"match{a}{b}")
            self.m.add(m <= sum(same))
            matched[a].append(m)
            matched[b].append(m)
            pairs.append(m)
        for ms in matched.values():
            self.m.add(sum(ms) <= 1)
        bonus = self.capped_linear(f"pairs{f}", self.placed[f], p["per_pair"] * sum(pairs),
                                   p["per_pair"] * self.total_cells // 2)
        return p["base"] * self.placed[f] + bonus

    def rule_rainbow_sets(self, f, flower, p):
        colours = p["colours"]
        slots = self.total_cells // len(colours)
        active = [self.bool(f"rainbow{f}act{i}") for i in range(slots)]
        for i in range(slots):
            self.m.add(active[i] <= self.placed[f])
            if i:
                self.m.add(active[i] <= active[i - 1])
        sels = []
        for i in range(slots):
            sel = {c: self.bool(f"rb{f}_{i}{c}") for c in self.cells}
            root = {c: self.bool(f"rb{f}_{i}root{c}") for c in self.cells}
            for c in self.cells:
                self.m.add(sel[c] <= self.visible_seedling[c])
                self.m.add(root[c] <= sel[c])
            self.m.add(sum(root.values()) == active[i])
            self.m.add(sum(sel.values()) == len(colours) * active[i])
            for col in colours:
                self.m.add(sum(self.and_upper(f"rb{f}_{i}{c}{col}", sel[c], self.visible_colour[c, col])
                               for c in self.cells) >= active[i])
            self.connected(sel, root, f"rb{f}_{i}", len(colours))
            sels.append(sel)
        for c in self.cells:
            self.m.add(sum(s[c] for s in sels) <= 1)
        return p["base"] * self.placed[f] + p["per_set"] * sum(active)

    def shared_holes(self, copies):
        holes = self.holes_count()
        total = 0
        takes = []
        for f in copies:
            p = self.flowers[f].scoring.params
            steps = [(0, 0)] + [tuple(s) for s in p["table"]]
            pick = [self.bool(f"holes{f}_t{at}") for at, _ in steps]
            self.m.add(sum(pick) == self.placed[f])
            takes.append(sum(at * x for (at, _), x in zip(steps, pick)))
            total += p["base"] * self.placed[f] + sum(v * x for (_, v), x in zip(steps, pick))
        # "Each hole may only be counted once by this flower, even if a player plays two of this flower."
        self.m.add(sum(takes) <= holes)
        return total

    def shared_largest_hole(self, copies):
        hole = self.hole_spaces()
        active = [self.placed[f] for f in copies]
        sels = self.closed_connected_selections(len(copies), lambda i, c: hole[c], lambda i, c, n: hole[n],
                                                active, f"lhole{copies[0]}")
        total = 0
        for f, sel in zip(copies, sels):
            p = self.flowers[f].scoring.params
            total += p["base"] * self.placed[f] + p["per_space"] * sum(sel.values())
        return total

    def shared_longest_identical_set(self, copies):
        chosen = []
        for f in copies:
            choose = {s: self.bool(f"lset{f}{s.label()}") for s in self.kinds}
            self.m.add(sum(choose.values()) <= self.placed[f])
            chosen.append(choose)

        def candidate(i, c):
            z = self.bool(f"lsetc{copies[i]}{c}")
            self.m.add(z <= sum(self.and_upper(f"lsetk{copies[i]}{c}{s.label()}", chosen[i][s], self.visible_kind[c, s])
                                for s in self.kinds))
            return z

        same_kind: dict = {}

        def linked(i, c, n):
            # n shows the chosen kind: a selection holding its neighbour c must take n too
            if (i, n) not in same_kind:
                same_kind[i, n] = sum(self.and_exact(f"lsetl{copies[i]}{n}{s.label()}", self.visible_kind[n, s],
                                                     1 - chosen[i][s]) for s in self.kinds)
            return same_kind[i, n]

        active = [self.placed[f] for f in copies]
        sels = self.closed_connected_selections(len(copies), candidate, linked, active, f"lset{copies[0]}")
        total = 0
        for f, sel in zip(copies, sels):
            p = self.flowers[f].scoring.params
            total += p["base"] * self.placed[f] + p["per_seedling"] * sum(sel.values())
        return total

    def build(self, stop: Callable[[], bool] | None = None) -> GardenModel:
        layers = [self.seedling_layer]
        if self.shapes is None:  # (fixed shapes are connected: made so by shapes.py, checked on loading)
            layers.append(self.garden_connected)
        layers += [self.plant_layer, self.flower_layer, self.visibility, self.counting, self.flower_rules]
        for layer in layers:
            if stop is not None and stop():
                raise OutOfTime()
            layer()
        objective = sum(self.terms)
        self.m.maximize(objective)
        layout = list(self.x.values()) + list(self.y.values()) + list(self.w.values())
        return GardenModel(self.m, self.n, objective, self.x, self.tile_classes, self.y, self.plant_classes,
                           self.w, self.flowers, layout)


class OutOfTime(Exception):
    """`build_model`'s `stop` said so between two layers of the model."""


def build_model(catalog: Catalog, size: int, starter: tuple[Seedling, Seedling], seedlings: list[str],
                plants: list[str], flowers: list[str], unused_tokens: int = 0,
                pinned: Pinned | None = None, strips: bool = False, shape=None,
                stop: Callable[[], bool] | None = None) -> GardenModel:
    """The model of the best garden on a `size` x `size` board for the given tiles. With `strips`, only
    gardens of upright tiles in row pairs; with `shape` (a set of spaces, or a list of such sets),
    only gardens filling exactly those spaces (of one of them): restrictions for finding good
    gardens fast. Shapes must be connected and hold exactly the garden's number of spaces. `stop` is
    asked before each layer (a layer takes up to ~0.5 s at the service's caps): True raises OutOfTime."""
    return _Builder(catalog, size, starter, seedlings, plants, flowers, TOKEN_PRESTIGE * unused_tokens,
                    pinned, strips, shape).build(stop)
