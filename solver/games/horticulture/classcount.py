"""The count relaxation with its regions + reach cuts, over classes of squares (a bound only).

`model.HorticultureModel(timed=False, groups="count", count_cuts={"regions", "reach"})` (without the ordering
constraint, model.COUNT_ORDERED) has a variable per square and kind. But in it a square matters only through
its region, whether it is on the border, whether it is next to the path, whether it is linked to the gnome, and
whether it lies within the gnome's reach for each minimum group size. The two companion kinds are the exception:
"a first-companion plant linked to a second-companion plant" looks at the squares themselves. So here the squares
fall into classes of equal facts (18-23 on side A with a straight path), with an integer count per class and kind
(their sum at most the class's size), and square variables only for the companion kinds. Any solution of this
model spreads back onto the squares (the other kinds fill the class's free squares in any order) with the same
objective, and any garden gives a solution. So the optimum is the square model's, without its symmetry. Measured on
32-card seeds 0-19 (one worker): the same proven bound on every seed (sum 1800), 20.5 deterministic units in all
against 84 for the square model.

It needs the gnome square and the plan given. `tests/games/horticulture/test_classcount.py` holds it against the
square-level relaxation and against the exhaustive oracle.
"""
from __future__ import annotations

from ortools.sat.python import cp_model

from .data import Catalog
from .garden import Cell, Garden, PathDrawing, Plan
from .model import DaySpec, near_gnome, regions
from .state import WINDOW, Day


class ClassCountModel:
    def __init__(self, catalog: Catalog, side: str, drawing: PathDrawing, days: list[DaySpec], gnome: Cell,
                 plan: Plan):
        if gnome is None or plan is None:
            raise ValueError("ClassCountModel needs the gnome square and the plan")
        self.days = days
        garden = self.garden = Garden(catalog.sheet(side), drawing)
        self.cells, idx = garden.cells, garden.index
        types = self.types = list(catalog.plants)
        mn = {t: catalog.plants[t].minimum_group_size for t in types}
        m = self.m = cp_model.CpModel()
        parts = regions(garden, gnome)
        region_of = {i: r for r, part in enumerate(parts) for i in part}
        linked = {idx[c] for c in garden.linked(gnome)}
        sizes = sorted({k for k in mn.values() if k > 1})
        reach = {k: set(near_gnome(garden, gnome, k - 1)) for k in sizes}
        companions = set(plan.companions)
        # the plants: a card per day, a kind per plant (a card's printed plant, or any for a wild)
        self.choice, self.kind = [], []
        brought = {t: [] for t in types}
        fixed_sq: dict[int, str] = {}  # played days: square -> kind
        fixed_box: list[str] = []
        for spec in days:
            ch = [m.new_bool_var("") for _ in spec.options]
            m.add_exactly_one(ch)
            self.choice.append(ch)
            kinds = []
            for k in range(2):
                kv = {t: m.new_bool_var("") for t in types}
                m.add_exactly_one(kv.values())
                if spec.fixed is None:
                    for o, cid in enumerate(spec.options):
                        printed = catalog.card(cid).plants[k]
                        if printed != catalog.wild:
                            m.add_implication(ch[o], kv[printed])
                else:
                    planting = spec.fixed[k]
                    m.add(kv[planting.plant] == 1)
                    if planting.at == WINDOW:
                        fixed_box.append(planting.plant)
                    else:
                        fixed_sq[idx[planting.at]] = planting.plant
                for t in types:
                    brought[t].append(kv[t])
                kinds.append(kv)
            self.kind.append(kinds)
        # classes of squares with the same facts (the gnome's square holds no plant)
        classes: dict[tuple, list[int]] = {}
        for i, c in enumerate(self.cells):
            if c == gnome:
                continue
            key = (region_of[i], garden.on_border(c), garden.next_to_path(c), i in linked,
                   tuple(i in reach[k] for k in sizes))
            classes.setdefault(key, []).append(i)
        self.classes = classes
        self.x = {key: {t: m.new_int_var(0, len(cells), "") for t in types} for key, cells in classes.items()}
        for key, cells in classes.items():
            m.add(sum(self.x[key].values()) <= len(cells))
            for t in types:
                pinned = sum(fixed_sq.get(i) == t for i in cells)
                if pinned:
                    m.add(self.x[key][t] >= pinned)
        self.sq: dict[tuple[int, str], cp_model.IntVar] = {}  # companion kinds square by square
        for t in sorted(companions):
            for key, cells in classes.items():
                ys = [m.new_bool_var("") for _ in cells]
                for i, y in zip(cells, ys):
                    self.sq[(i, t)] = y
                    if i in fixed_sq:
                        m.add(y == int(fixed_sq[i] == t))
                m.add(self.x[key][t] == sum(ys))
        if len(companions) == 2:
            c1, c2 = plan.companions
            for i in range(len(self.cells)):
                if (i, c1) in self.sq:
                    m.add(self.sq[(i, c1)] + self.sq[(i, c2)] <= 1)
        # the window box: each kind at most once, at most its slots
        slots, table = catalog.sheet(side).window_box_slots, catalog.scoring
        self.box = {t: m.new_bool_var("") for t in types}
        for t in fixed_box:
            m.add(self.box[t] == 1)
        m.add(sum(self.box.values()) <= slots)
        full = m.new_bool_var("")
        m.add(sum(self.box.values()) >= slots).only_enforce_if(full)
        if slots == 0:
            m.add(full == 0)
        drawn = {t: sum(self.x[key][t] for key in classes) for t in types}
        for t in types:  # every plant brought home is drawn: in the garden or the window box
            m.add(sum(brought[t]) == self.box[t] + drawn[t])
        # groups (counted per region) and the gnome's repeats, as model._group_counts with regions + reach
        home = {key[0] for key in classes if key[3]}
        # the repeats are counted per kind, not per region: the region cuts need them in one region (a gnome
        # square that splits a one-square-wide part of a region links two)
        self.cuttable = len(home) <= 1
        groups, repeats = [], []
        # each region's own points and plant counts (the window box aside), for add_region_cuts; the gnome's
        # repeats belong to the region of the squares linked to it (one: the path never separates them)
        self.region_points: list[list] = [[] for _ in parts]
        self.region_counts = [{t: sum(self.x[key][t] for key in classes if key[0] == r) for t in types}
                              for r in range(len(parts))]
        for t in types:
            per_region = []
            for r, part in enumerate(parts):
                g = m.new_int_var(0, len(part) // mn[t], "")
                m.add(mn[t] * g <= sum(self.x[key][t] for key in classes if key[0] == r))
                per_region.append(g)
                self.region_points[r].append(mn[t] * g)
            rep = m.new_int_var(0, 4, "")
            m.add(rep <= sum(per_region))
            m.add(rep <= sum(self.x[key][t] for key in classes if key[3]))
            m.add(rep <= sum(g for r, g in enumerate(per_region) if r in home))
            if mn[t] > 1:
                j = sizes.index(mn[t])
                m.add(mn[t] * rep <= sum(self.x[key][t] for key in classes if key[4][j]))
            groups.append(mn[t] * sum(per_region))
            repeats.append(mn[t] * rep)
            for r in home:
                self.region_points[r].append(mn[t] * rep)
        # the plan
        border = sum(self.x[key][plan.border] for key in classes if key[1])
        path = sum(self.x[key][plan.path] for key in classes if key[2])
        per = table.plan_points_per_plant
        for r in range(len(parts)):
            self.region_points[r].append(per * sum(self.x[key][plan.border] for key in classes if key[1] and key[0] == r))
            self.region_points[r].append(per * sum(self.x[key][plan.path] for key in classes if key[2] and key[0] == r))
        c1, c2 = plan.companions
        comp = []
        for i, c in enumerate(self.cells):
            if (i, c1) not in self.sq:
                continue
            f = m.new_bool_var("")
            m.add_implication(f, self.sq[(i, c1)])
            mates = [self.sq[(idx[nb], c2)] for nb in garden.linked(c) if (idx[nb], c2) in self.sq]
            m.add_bool_or([f.Not()] + mates)
            comp.append(f)
            self.region_points[region_of[i]].append(per * f)
        self.objective = (sum(groups) + sum(repeats) + table.window_box_points_per_plant * sum(self.box.values())
                          + table.window_box_full_bonus * full
                          + table.plan_points_per_plant * (border + path + sum(comp)))
        m.maximize(self.objective)

    def add_region_cuts(self, cuts: list[tuple[list[int], list[int]]], scale: int,
                        model: cp_model.CpModel | None = None) -> None:
        """For each (lam, V) of `lagrange.Lagrangian.cuts`: region r's points x scale <= V[r] + sum of lam_t x its
        plants of kind t (lam in catalog order). Valid for every garden (V[r] is the region's best value at those
        prices, `lagrange.py`), so the optimum stays a bound. Not added when the gnome's repeats span two regions
        (`cuttable`). `model`: a clone of this model to add them to (default: this one)."""
        if not self.cuttable:
            return
        for lam, values in cuts:
            for r, value in enumerate(values):
                if value is not None:  # (None: no cut on that region at these prices, as a separation's)
                    self.add_region_cut(r, lam, value, scale, model)

    def add_region_cut(self, region: int, lam: list[int], value: int, scale: int,
                       model: cp_model.CpModel | None = None) -> None:
        """One cut of `add_region_cuts`: the region's points x scale <= value + sum of lam_t x its plants of kind t,
        `value` being the region's best value at the prices lam (catalog order)."""
        model = self.m if model is None else model
        model.add(scale * sum(self.region_points[region])
                  <= value + sum(p * self.region_counts[region][t] for p, t in zip(lam, self.types)))

    def region_solution(self, solver: cp_model.CpSolver) -> list[tuple[list[int], int]]:
        """Per region, in a solution: its plants per kind (catalog order) and its points (the cuts' two sides)."""
        return [([int(solver.value(self.region_counts[r][t])) for t in self.types],
                 int(solver.value(sum(self.region_points[r])))) for r in range(len(self.region_points))]

    def chosen_cards(self, solver: cp_model.CpSolver) -> list[int]:
        return [next(cid for cid, v in zip(spec.options, ch) if solver.boolean_value(v))
                for spec, ch in zip(self.days, self.choice)]

    def card_literals(self, cards: list[int]) -> list[cp_model.IntVar]:
        """Per day, the literal of bringing home that day's card in `cards` (as model.HorticultureModel's)."""
        return [self.choice[d][spec.options.index(cid)] for d, (spec, cid) in enumerate(zip(self.days, cards))]

    def assignment(self, days: list[Day], gnome: Cell, plan: Plan) -> list[tuple[cp_model.IntVar, int]]:
        """Values of a known legal game (plants in card order) for hints or pins: cards, kinds, box, counts."""
        out: list[tuple[cp_model.IntVar, int]] = []
        garden: dict[int, str] = {}
        boxed = set()
        for d, day in enumerate(days):
            out += [(v, int(cid == day.chosen)) for cid, v in zip(self.days[d].options, self.choice[d])]
            for k, planting in enumerate(day.plants):
                out += [(v, int(t == planting.plant)) for t, v in self.kind[d][k].items()]
                if planting.at == WINDOW:
                    boxed.add(planting.plant)
                else:
                    garden[self.garden.index[planting.at]] = planting.plant
        out += [(v, int(t in boxed)) for t, v in self.box.items()]
        for key, cells in self.classes.items():
            out += [(v, sum(garden.get(i) == t for i in cells)) for t, v in self.x[key].items()]
        out += [(v, int(garden.get(i) == t)) for (i, t), v in self.sq.items()]
        return out
