"""CP-SAT model of a solo Horticulture game: card choices, placements, groups, gnome, window box and plan."""
from __future__ import annotations

import logging
import random
import time
from dataclasses import dataclass

from ortools.sat.python import cp_model

from solver.core.solve import SolveControl

from .data import Catalog
from .garden import Cell, Garden, PathDrawing, Plan
from .rules import replay
from .schedule import fit_plan_and_gnome, plant_towards, play_greedy
from .scoring import ScoreSheet, score_sheet
from .state import WINDOW, Day, Planting, Setup

log = logging.getLogger(__name__)
# Measured on seeded nurseries (docs/horticulture.md): patch re-optimisation helps long games but
# steals proof time from short ones, so it only runs from this many days on.
NEIGHBOURHOOD_MIN_DAYS = 7

STATUS = {cp_model.OPTIMAL: "optimal", cp_model.FEASIBLE: "feasible",
          cp_model.INFEASIBLE: "infeasible", cp_model.MODEL_INVALID: "invalid", cp_model.UNKNOWN: "unknown"}


class ModelMismatch(AssertionError):
    """The CP-SAT objective disagrees with the pure scorer: a bug in one of the two faces."""


@dataclass(frozen=True)
class DaySpec:
    options: tuple[int, ...]  # card ids that may be brought home today (one or two)
    fixed: tuple[Planting, ...] | None = None  # plants already drawn (then options == (chosen,))


@dataclass
class Solution:
    status: str  # optimal / feasible / infeasible / unknown
    score: int | None  # pure score of the returned game (== CP-SAT objective, asserted)
    bound: int | None  # best proven upper bound on the score
    days: list[Day]
    gnome: Cell | None
    plan: Plan | None
    score_sheet: ScoreSheet | None
    wall_time: float


class HorticultureModel:
    """One CP-SAT model; gnome and/or plan become decisions when passed as None."""

    def __init__(self, catalog: Catalog, side: str, drawing: PathDrawing, days: list[DaySpec],
                 gnome: Cell | None, plan: Plan | None, timed: bool = True):
        # timed=False drops the day-by-day placement (only the final garden is chosen): a relaxation
        # whose optimum bounds the real game and is usually reachable by some planting order.
        self.timed = timed
        self.catalog, self.side, self.drawing, self.days = catalog, side, drawing, days
        self.sheet = catalog.sheet(side)
        self.garden = Garden(self.sheet, drawing)
        self.m = m = cp_model.CpModel()
        self.types = list(catalog.plants)
        self.minimum = {t: catalog.plants[t].minimum_group_size for t in self.types}
        self.cells = self.garden.cells
        self.n = len(self.cells)
        self.fixed_gnome = gnome
        self._gnome_and_plan(gnome, plan)
        self._plants()
        if timed:
            self._support()
        else:
            self.occupied = [m.new_bool_var(f"occupied{i}") for i in range(self.n)]
            for i in range(self.n):
                m.add(self.occupied[i] + self.gv[i] <= 1)
            self._support_order()
        self._cell_types()
        self._window_box()
        self._groups()
        self._gnome_bonus()
        self._garden_plan()
        self.m.maximize(self.objective)

    # --- decisions -------------------------------------------------------------------------------
    def _gnome_and_plan(self, gnome: Cell | None, plan: Plan | None) -> None:
        m = self.m
        self.gv = [m.new_bool_var(f"gnome_{c}_{r}") for c, r in self.cells]
        m.add_exactly_one(self.gv)
        if gnome is not None:
            m.add(self.gv[self.garden.index[gnome]] == 1)

        def choice(name: str, fixed: str | None) -> dict[str, cp_model.IntVar]:
            v = {t: m.new_bool_var(f"{name}_{t}") for t in self.types}
            m.add_exactly_one(v.values())
            if fixed is not None:
                m.add(v[fixed] == 1)
            return v

        self.plan_border = choice("plan_border", plan.border if plan else None)
        self.plan_path = choice("plan_path", plan.path if plan else None)
        self.plan_first = choice("plan_first", plan.companions[0] if plan else None)
        self.plan_second = choice("plan_second", plan.companions[1] if plan else None)

    def _plants(self) -> None:
        m, wild = self.m, self.catalog.wild
        self.choice: list[list[cp_model.IntVar]] = []
        self.plant_ids: list[tuple[int, int]] = []  # (day, slot)
        self.fixed_cells: dict[int, str] = {}
        self.kind: dict[tuple[int, int], dict[str, cp_model.IntVar]] = {}
        self.at: dict[tuple[int, int], list[cp_model.IntVar]] = {}
        self.window: dict[tuple[int, int], cp_model.IntVar] = {}
        for d, spec in enumerate(self.days):
            ch = [m.new_bool_var(f"day{d}_card{cid}") for cid in spec.options]
            m.add_exactly_one(ch)
            self.choice.append(ch)
            for k in range(2):
                p = (d, k)
                self.plant_ids.append(p)
                t = {ty: m.new_bool_var(f"p{d}_{k}_{ty}") for ty in self.types}
                m.add_exactly_one(t.values())
                at = [m.new_bool_var(f"p{d}_{k}_at{i}") for i in range(self.n)] if self.timed else []
                w = m.new_bool_var(f"p{d}_{k}_window")
                if self.timed:
                    m.add_exactly_one(at + [w])
                self.kind[p], self.at[p], self.window[p] = t, at, w
                if spec.fixed is None:
                    for o, cid in enumerate(spec.options):
                        plant = self.catalog.card(cid).plants[k]
                        if plant != wild:
                            m.add_implication(ch[o], t[plant])
                else:
                    planting = spec.fixed[k]
                    m.add(t[planting.plant] == 1)
                    if planting.at == WINDOW:
                        m.add(w == 1)
                    elif self.timed:
                        m.add(at[self.garden.index[planting.at]] == 1)
                    else:
                        m.add(w == 0)
                        self.fixed_cells[self.garden.index[planting.at]] = planting.plant
        self.box = {}
        for p in self.plant_ids:
            for t in self.types:
                b = m.new_bool_var(f"box_{p}_{t}")
                m.add_bool_and([self.window[p], self.kind[p][t]]).only_enforce_if(b)
                m.add_bool_or([self.window[p].Not(), self.kind[p][t].Not(), b])
                self.box[(p, t)] = b
        if not self.timed:
            return
        for i in range(self.n):
            # a square holds at most one plant, and never the gnome
            m.add(sum(self.at[p][i] for p in self.plant_ids) + self.gv[i] <= 1)

    def _support(self) -> None:
        """Each garden plant touches the path, the gnome or a plant of an earlier day (or its day-mate)."""
        m = self.m
        self.filled: list[list] = []  # filled[d][i]: square i planted by the end of day d
        for d in range(len(self.days)):
            prev = self.filled[-1] if self.filled else [0] * self.n
            now = []
            for i in range(self.n):
                v = m.new_bool_var(f"filled{d}_{i}")
                m.add(v == prev[i] + self.at[(d, 0)][i] + self.at[(d, 1)][i])
                now.append(v)
            self.filled.append(now)
        idx = self.garden.index
        for d in range(len(self.days)):
            prev = self.filled[d - 1] if d else [0] * self.n
            leans = [m.new_bool_var(f"day{d}_lean{k}") for k in range(2)]  # leans only on its day-mate
            m.add(leans[0] + leans[1] <= 1)
            for k in range(2):
                mate = (d, 1 - k)
                for i, cell in enumerate(self.cells):
                    if self.garden.next_to_path(cell):
                        continue
                    around = [idx[n] for n in self.garden.touching(cell)]
                    a = self.at[(d, k)][i]
                    m.add(sum(prev[j] + self.gv[j] for j in around) >= 1).only_enforce_if([a, leans[k].Not()])
                    m.add(sum(self.at[mate][j] for j in around) >= 1).only_enforce_if([a, leans[k]])
        self.occupied = self.filled[-1] if self.filled else [0] * self.n

    def _support_order(self) -> None:
        """Untimed stand-in for the daily rule: plants can be ordered so each leans on an earlier one.

        Any real game orders its plants this way (by planting order), so the relaxation stays valid;
        without it the relaxed garden often has plants the path can never reach.
        """
        m, idx = self.m, self.garden.index
        order = [m.new_int_var(0, self.n, f"order{i}") for i in range(self.n)]
        for i, cell in enumerate(self.cells):
            if self.garden.next_to_path(cell):
                continue
            around = [idx[nb] for nb in self.garden.touching(cell)]
            leans = []
            for j in around:
                v = m.new_bool_var(f"leans{i}_{j}")
                m.add_implication(v, self.occupied[j])
                m.add(order[j] < order[i]).only_enforce_if(v)
                leans.append(v)
            m.add(sum(leans) + sum(self.gv[j] for j in around) >= 1).only_enforce_if(self.occupied[i])

    def _cell_types(self) -> None:
        m = self.m
        self.y = [{t: m.new_bool_var(f"sq{i}_{t}") for t in self.types} for i in range(self.n)]
        for i in range(self.n):
            m.add(sum(self.y[i].values()) == self.occupied[i])
            if i in self.fixed_cells:
                m.add(self.y[i][self.fixed_cells[i]] == 1)
            if self.timed:
                for p in self.plant_ids:
                    for t in self.types:
                        m.add_bool_or([self.at[p][i].Not(), self.kind[p][t].Not(), self.y[i][t]])
        for t in self.types:
            # every plant brought home is drawn somewhere: the garden or the window box
            m.add(sum(self.y[i][t] for i in range(self.n)) + sum(self.box[(p, t)] for p in self.plant_ids)
                  == sum(self.kind[p][t] for p in self.plant_ids))

    def _window_box(self) -> None:
        m = self.m
        slots = self.sheet.window_box_slots
        ws = list(self.window.values())
        m.add(sum(ws) <= slots)
        for t in self.types:
            m.add(sum(self.box[(p, t)] for p in self.plant_ids) <= 1)  # each plant at most once in the box
        self.box_full = m.new_bool_var("box_full")
        m.add(sum(ws) >= slots).only_enforce_if(self.box_full)
        if slots == 0:
            m.add(self.box_full == 0)
        table = self.catalog.scoring
        self.window_points = table.window_box_points_per_plant * sum(ws) + table.window_box_full_bonus * self.box_full

    def _groups(self) -> None:
        """Complete groups: one root per group (labels), a parent tree whose flow proves the size."""
        m, n = self.m, self.n
        idx = self.garden.index
        self.same = {}
        for a, b in self.garden.edges():
            i, j = idx[a], idx[b]
            s = m.new_bool_var(f"same{i}_{j}")
            m.add_implication(s, self.occupied[i])
            for t in self.types:
                m.add_bool_or([self.y[i][t].Not(), self.y[j][t].Not(), s])
                m.add_bool_or([s.Not(), self.y[i][t].Not(), self.y[j][t]])
            self.same[(i, j)] = self.same[(j, i)] = s
        # a group's label is the smallest index among its squares, its root that square
        self.label = [m.new_int_var(0, i, f"label{i}") for i in range(n)]
        self.complete = [m.new_bool_var(f"complete{i}") for i in range(n)]
        self.root = [m.new_bool_var(f"root{i}") for i in range(n)]
        for (i, j), s in self.same.items():
            if i < j:
                m.add(self.label[i] == self.label[j]).only_enforce_if(s)
                m.add(self.complete[i] == self.complete[j]).only_enforce_if(s)
        par, flow = {}, {}
        for (i, j), s in self.same.items():
            par[(i, j)] = m.new_bool_var(f"parent{i}_{j}")
            m.add_implication(par[(i, j)], s)
            flow[(i, j)] = m.new_int_var(0, n, f"flow{i}_{j}")
            m.add(flow[(i, j)] <= n * par[(i, j)])
        out_edges = {i: [] for i in range(n)}
        in_edges = {i: [] for i in range(n)}
        for (i, j) in par:
            out_edges[i].append((i, j))
            in_edges[j].append((i, j))
        self.root_kind = []
        for i in range(n):
            m.add_implication(self.complete[i], self.occupied[i])
            m.add_implication(self.root[i], self.complete[i])
            m.add(self.label[i] == i).only_enforce_if(self.root[i])
            m.add(sum(par[e] for e in out_edges[i]) + self.root[i] == self.complete[i])
            inflow = sum(flow[e] for e in in_edges[i])
            m.add(sum(flow[e] for e in out_edges[i]) == 1 + inflow).only_enforce_if(
                [self.complete[i], self.root[i].Not()])
            rk = {}
            for t in self.types:
                v = m.new_bool_var(f"root{i}_{t}")
                m.add_implication(v, self.y[i][t])
                m.add(1 + inflow >= self.minimum[t]).only_enforce_if(v)
                rk[t] = v
            m.add(sum(rk.values()) == self.root[i])
            self.root_kind.append(rk)
        self.group_count = {}
        for t in self.types:
            # implied cut: each complete group uses at least its minimum of squares
            g = m.new_int_var(0, n // self.minimum[t], f"groups_{t}")
            m.add(g == sum(self.root_kind[i][t] for i in range(n)))
            m.add(self.minimum[t] * g <= sum(self.y[i][t] for i in range(n)))
            self.group_count[t] = g
        self.group_points = sum(self.minimum[t] * self.root_kind[i][t] for i in range(n) for t in self.types)

    def _gnome_bonus(self) -> None:
        """A complete group linked to the gnome counts again: credited at its root, so once per group."""
        m, idx = self.m, self.garden.index
        fixed = self.fixed_gnome
        near_gnome = set(idx[c] for c in self.garden.linked(fixed)) if fixed is not None else set(range(self.n))
        witnesses: dict[int, list] = {r: [] for r in range(self.n)}
        touching: dict[int, object] = {}
        for i in sorted(near_gnome):
            beside = [idx[c] for c in self.garden.linked(self.cells[i])]
            touching[i] = sum(self.gv[j] for j in beside) if fixed is None else 1
            mine = []
            for r in range(i + 1):  # labels never exceed the square's index
                e = m.new_bool_var(f"gnome_sees{i}_root{r}")
                m.add(self.label[i] == r).only_enforce_if(e)
                witnesses[r].append(e)
                mine.append(e)
            # Only a square of a complete group may vouch: its label is then its own group's root
            # (labels of incomplete groups are free and could name any root). One label per square.
            m.add(sum(mine) <= self.complete[i])
            if fixed is None:
                m.add(sum(mine) <= touching[i])
        if fixed is None:
            # gnome_side[i][t]: square i holds t and touches the gnome (product, for the cut below)
            self.gnome_side = {}
            for i in sorted(near_gnome):
                self.gnome_side[i] = {}
                for t in self.types:
                    v = m.new_bool_var(f"beside_gnome{i}_{t}")
                    m.add_implication(v, self.y[i][t])
                    m.add(v <= touching[i])
                    self.gnome_side[i][t] = v
        terms = []
        self.gnome_kind = []
        for r in range(self.n):
            gk = {}
            for t in self.types:
                v = m.new_bool_var(f"gnome_root{r}_{t}")
                m.add_implication(v, self.root_kind[r][t])
                gk[t] = v
                terms.append(self.minimum[t] * v)
            m.add(sum(gk.values()) <= sum(witnesses[r]))
            self.gnome_kind.append(gk)
        for t in self.types:
            # implied cut: a repeated group of t needs a square of t beside the gnome
            beside = [self.gnome_side[i][t] for i in sorted(near_gnome)] if fixed is None else \
                [self.y[i][t] for i in sorted(near_gnome)]
            m.add(sum(self.gnome_kind[r][t] for r in range(self.n)) <= sum(beside))
        self.gnome_points = sum(terms)

    def _garden_plan(self) -> None:
        m, per = self.m, self.catalog.scoring.plan_points_per_plant
        idx = self.garden.index

        def planned(i: int, plan: dict[str, cp_model.IntVar], name: str) -> cp_model.IntVar:
            v = m.new_bool_var(f"{name}{i}")
            for t in self.types:
                m.add_bool_or([v.Not(), plan[t].Not(), self.y[i][t]])
            m.add_implication(v, self.occupied[i])
            return v

        border = [planned(i, self.plan_border, "border") for i, c in enumerate(self.cells) if self.garden.on_border(c)]
        path = [planned(i, self.plan_path, "pathside") for i, c in enumerate(self.cells) if self.garden.next_to_path(c)]
        companions = []
        for i, cell in enumerate(self.cells):
            first = planned(i, self.plan_first, "first")
            mates = [planned(idx[nb], self.plan_second, f"second{i}_") for nb in self.garden.linked(cell)]
            m.add_bool_or([first.Not()] + mates)
            companions.append(first)
        self.plan_points = per * (sum(border) + sum(path) + sum(companions))
        self.objective = self.group_points + self.gnome_points + self.window_points + self.plan_points

    # --- reading a solution ----------------------------------------------------------------------
    def extract(self, solver: cp_model.CpSolver) -> tuple[list[Day], Cell, Plan]:
        def pick(v: dict[str, cp_model.IntVar]) -> str:
            return next(t for t, b in v.items() if solver.value(b))

        days = []
        for d, spec in enumerate(self.days):
            chosen = spec.options[next(o for o, b in enumerate(self.choice[d]) if solver.value(b))]
            plants = []
            for k in range(2):
                p = (d, k)
                at = WINDOW if solver.value(self.window[p]) else \
                    self.cells[next(i for i, b in enumerate(self.at[p]) if solver.value(b))]
                plants.append(Planting(pick(self.kind[p]), at))
            days.append(Day(chosen, tuple(plants), spec.options if len(spec.options) > 1 else None))
        gnome = self.cells[next(i for i, b in enumerate(self.gv) if solver.value(b))]
        plan = Plan(pick(self.plan_border), pick(self.plan_path), (pick(self.plan_first), pick(self.plan_second)))
        return days, gnome, plan

    def extract_garden(self, solver: cp_model.CpSolver) -> tuple[dict[Cell, str], list[str]]:
        garden = {self.cells[i]: t for i in range(self.n) for t in self.types if solver.value(self.y[i][t])}
        box = [t for (p, t), b in self.box.items() if solver.value(b)]
        return garden, box

    def chosen_cards(self, solver: cp_model.CpSolver) -> list[int]:
        return [spec.options[next(o for o, b in enumerate(self.choice[d]) if solver.value(b))]
                for d, spec in enumerate(self.days)]

    def fix_final(self, garden: dict[Cell, str], box: list[str], chosen: list[int], gnome: Cell, plan: Plan) -> None:
        """Pin the final garden, window box, cards, gnome and plan; only the planting order stays free."""
        m = self.m
        for i, cell in enumerate(self.cells):
            for t in self.types:
                m.add(self.y[i][t] == int(garden.get(cell) == t))
            m.add(self.gv[i] == int(cell == gnome))
        for t in self.types:
            m.add(sum(self.box[(p, t)] for p in self.plant_ids) == int(t in box))
        for d, cid in enumerate(chosen):
            m.add(self.choice[d][self.days[d].options.index(cid)] == 1)
        for var, t in ((self.plan_border, plan.border), (self.plan_path, plan.path),
                       (self.plan_first, plan.companions[0]), (self.plan_second, plan.companions[1])):
            m.add(var[t] == 1)

    def assignment(self, days: list[Day], gnome: Cell, plan: Plan) -> list[tuple[cp_model.IntVar, int]]:
        """Decision values of a known legal game (plants listed in card order), for hints or pins."""
        out: list[tuple[cp_model.IntVar, int]] = []
        out += [(b, int(self.cells[i] == gnome)) for i, b in enumerate(self.gv)]
        garden: dict[Cell, str] = {}
        for d, day in enumerate(days):
            out += [(self.choice[d][o], int(cid == day.chosen)) for o, cid in enumerate(self.days[d].options)]
            for k, planting in enumerate(day.plants):
                p = (d, k)
                out += [(b, int(t == planting.plant)) for t, b in self.kind[p].items()]
                out.append((self.window[p], int(planting.at == WINDOW)))
                if self.timed:
                    out += [(b, int(planting.at == self.cells[i])) for i, b in enumerate(self.at[p])]
                if planting.at != WINDOW:
                    garden[planting.at] = planting.plant
        if not self.timed:
            out += [(self.y[i][t], int(garden.get(c) == t)) for i, c in enumerate(self.cells) for t in self.types]
        for var, t in ((self.plan_border, plan.border), (self.plan_path, plan.path),
                       (self.plan_first, plan.companions[0]), (self.plan_second, plan.companions[1])):
            out += [(b, int(ty == t)) for ty, b in var.items()]
        return out


class _Values:
    """A full solution kept as plain values, readable like a CpSolver (value, objective_value)."""

    def __init__(self, values: list[int], objective: float):
        self.values, self.objective_value, self.wall_time = values, objective, 0.0
        self.best_objective_bound = float("inf")

    def value(self, var: cp_model.IntVar) -> int:
        return self.values[var.index] if var.index >= 0 else 1 - self.values[-var.index - 1]


def _start(model: HorticultureModel, pins: list[tuple[cp_model.IntVar, int]], control: SolveControl,
           seconds: float) -> tuple[_Values | None, float]:
    """Complete a known game into a full solution of `model` (all helper variables), or None."""
    sub = model.m.clone()
    sub.clear_hints()
    for var, value in pins:
        sub.add(var == value)
    st, solver = control.solve(sub, _solver(control, seconds))
    if st != cp_model.OPTIMAL:
        return None, _cost(control, solver)
    return _Values(list(solver.response_proto.solution), solver.objective_value), _cost(control, solver)


def _solver(control: SolveControl, seconds: float, linearization: int = 1) -> cp_model.CpSolver:
    """A solver for one step; `seconds` is in deterministic units when the control asks for them."""
    solver = control.new_solver(time_limit_s=seconds)
    if control.deterministic_limit is not None:
        # SolveControl gives each search the whole deterministic limit: give this step its share,
        # with the wall-clock limit kept as a safety net only.
        solver.parameters.max_deterministic_time = max(0.001, seconds)
        solver.parameters.max_time_in_seconds = control.time_limit_s
    solver.parameters.linearization_level = linearization
    return solver


def _budget(control: SolveControl) -> float:
    return control.deterministic_limit if control.deterministic_limit is not None else control.time_limit_s


def _cost(control: SolveControl, solver) -> float:
    """What a step used, in the unit of the budget (deterministic time makes results reproducible)."""
    if isinstance(solver, _Values):
        return 0.0
    return solver.deterministic_time if control.deterministic_limit is not None else solver.wall_time


def solve(catalog: Catalog, side: str, drawing: PathDrawing, days: list[DaySpec], gnome: Cell | None,
          plan: Plan | None, control: SolveControl | None = None) -> Solution:
    """Best final score, keeping every claim honest.

    0. A greedy player's game is the starting point (and the answer if nothing beats it).
    1. The final garden alone is optimised with plants merely orderable outward from the path (no
       day-by-day card matching): a relaxation, so its bound bounds the real game. If it is proven
       optimal and a day-by-day planting of that very garden exists, the game is optimal.
    2. Otherwise the exact day-by-day model is searched (hinted with the relaxed garden); the
       bound reported is the smallest of both bounds and a counting bound, and "optimal" needs
       score == bound.
    The returned game is replayed by the pure rules and scored by the pure scorer; the CP-SAT
    objective must equal that score (ModelMismatch otherwise).
    """
    control = control or SolveControl(time_limit_s=10.0)
    budget = _budget(control)
    clock = time.perf_counter()
    deterministic = control.deterministic_limit is not None

    def spent_so_far(used: float) -> float:
        # on the wall clock, model building and Python steps count against the budget too
        return used if deterministic else max(used, time.perf_counter() - clock)

    rng = random.Random(control.random_seed)
    counted = counting_bound(catalog, side, drawing, days, gnome, plan)
    relaxed = HorticultureModel(catalog, side, drawing, days, gnome, plan, timed=False)
    played = {d: spec for d, spec in enumerate(days) if spec.fixed is not None}
    g0 = gnome if gnome is not None else relaxed.garden.cells[len(relaxed.cells) // 2]
    if plan is None:  # a first guess: plan on the plants the nursery offers most of
        offered = sorted(relaxed.types, key=lambda k: -sum(
            max(sum(x in (k, catalog.wild) for x in catalog.card(c).plants) for c in spec.options)
            for spec in days if spec.fixed is None))
        p0 = Plan(offered[0], offered[0], (offered[1], offered[0]))
    else:
        p0 = plan
    start, used, game0 = None, 0.0, None
    try:  # a greedy game to start from: good on its own, and a slow search still has an answer
        options = [spec.options for spec in days]
        game0 = play_greedy(catalog, Setup(side, drawing, g0, p0), options, played)
        if gnome is None or plan is None:
            # plan/gnome are decisions: fit them to the greedy garden, then play again with them
            g0, p0 = fit_plan_and_gnome(catalog, Setup(side, drawing, g0, p0), game0, plan is None, gnome is None)
            game0 = play_greedy(catalog, Setup(side, drawing, g0, p0), options, played)
        start, used = _start(relaxed, relaxed.assignment(game0, g0, p0), control, max(0.2, budget * 0.1))
    except ValueError:
        pass
    greedy0 = (game0, g0, p0, int(round(start.objective_value))) if start is not None else None
    used = spent_so_far(used)
    st1, s1, spent, bound = _search(relaxed, control, budget * 0.6 - used, rng, start=start)
    used = spent_so_far(used + spent)
    bound = counted if bound is None else min(bound, counted)
    log.debug("relaxed: %s value %s bound %s after %.2f", STATUS.get(st1), s1.objective_value, bound, used)
    if st1 == cp_model.INFEASIBLE:
        return Solution("infeasible", None, None, [], gnome, plan, None, time.perf_counter() - clock)
    if greedy0 is not None and greedy0[3] >= bound:  # the greedy game already meets a proven bound
        return _checked(catalog, side, drawing, "optimal", greedy0[3], bound, *greedy0[:3],
                        time.perf_counter() - clock)
    if st1 in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        garden, box = relaxed.extract_garden(s1)
        chosen = relaxed.chosen_cards(s1)
        g, p = _gnome_plan(relaxed, s1)
    else:  # nothing found yet: aim the greedy planting at an empty garden
        garden, box, chosen = {}, [], [spec.options[0] for spec in days]
        g = gnome if gnome is not None else relaxed.cells[0]
        p = plan or Plan(*([relaxed.types[0]] * 2), (relaxed.types[0],) * 2)
    if st1 == cp_model.OPTIMAL:
        order = HorticultureModel(catalog, side, drawing, days, g, p)
        order.fix_final(garden, box, chosen, g, p)
        st2, s2 = control.solve(order.m, _solver(control, max(0.5, min(budget * 0.2, budget - used))))
        used = spent_so_far(used + _cost(control, s2))
        log.debug("planting order for the relaxed optimum: %s after %.2f", STATUS.get(st2), used)
        if st2 == cp_model.OPTIMAL:
            game, g, p = order.extract(s2)
            objective = int(round(s2.objective_value))
            if objective != int(round(s1.objective_value)):
                raise ModelMismatch(f"relaxed optimum {s1.objective_value} != its garden's score {objective}")
            return _checked(catalog, side, drawing, "optimal", objective, bound, game, g, p, time.perf_counter() - clock)
    # The relaxed garden cannot be planted day by day as it is (or was not proven best): plant
    # towards it greedily (always legal), then let the exact day-by-day model improve that game.
    try:
        game = plant_towards(catalog, Setup(side, drawing, g, p), chosen, garden, box, played)
    except ValueError:
        game = None
    full = HorticultureModel(catalog, side, drawing, days, gnome, plan)
    start = None
    if game is not None:
        start, spent = _start(full, full.assignment(game, g, p), control, max(0.2, budget * 0.1))
        used = spent_so_far(used + spent)
    # (Posting objective <= bound here looks free but slowed the search by 10x in measurements.)
    used = spent_so_far(used)
    st3, s3, spent, b3 = _search(full, control, max(0.5, budget - used), rng, known_bound=bound, start=start)
    used = spent_so_far(used + spent)
    log.debug("day by day: %s value %s bound %s after %.2f", STATUS.get(st3), s3.objective_value, b3, used)
    if st3 == cp_model.INFEASIBLE:
        return Solution("infeasible", None, None, [], gnome, plan, None, time.perf_counter() - clock)
    if st3 in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        bound = min(b for b in (bound, b3) if b is not None) if (bound, b3) != (None, None) else None
        found, fg, fp = full.extract(s3)
        found_score = _exact_score(catalog, side, drawing, found, fg, fp, control)
    else:
        found, found_score = None, -1
    if game is not None:
        # the pinned completion in _start was solved to optimality: its objective is exact
        greedy_score = int(round(start.objective_value)) if start is not None else \
            _exact_score(catalog, side, drawing, game, g, p, control)
        log.debug("greedy planting scores %s, search %s", greedy_score, found_score)
        if greedy_score > found_score:
            found, fg, fp, found_score = game, g, p, greedy_score
    if greedy0 is not None and greedy0[3] > found_score:
        found, fg, fp, found_score = greedy0
        log.debug("the first greedy game stays best: %s", found_score)
    if found is None:
        return Solution("unknown", None, bound, [], gnome, plan, None, time.perf_counter() - clock)
    status = "optimal" if bound is not None and found_score >= bound else "feasible"
    return _checked(catalog, side, drawing, status, found_score, bound, found, fg, fp, time.perf_counter() - clock)


def counting_bound(catalog: Catalog, side: str, drawing: PathDrawing, days: list[DaySpec],
                   gnome: Cell | None, plan: Plan | None) -> int:
    """An upper bound on any game's score by counting alone (valid even when no search ran).

    Groups score at most one point per garden plant, and the window box at most one per plant
    plus its bonus, so together at most (plants + bonus). The gnome repeats at most one group per
    linked square, at most the largest minimum each. Each plan line scores 2 per plant of its kind,
    capped by the squares that can hold it.
    """
    garden = Garden(catalog.sheet(side), drawing)
    table = catalog.scoring
    minimum = max(p.minimum_group_size for p in catalog.plants.values())
    plants = 2 * len(days)
    slots = catalog.sheet(side).window_box_slots
    groups_and_box = plants * max(1, table.window_box_points_per_plant) + (table.window_box_full_bonus if slots else 0)
    if gnome is not None:
        linked = len(garden.linked(gnome))
    else:
        linked = max(len(garden.linked(c)) for c in garden.cells)
    gnome_points = min(plants, linked * minimum)

    def most(kind: str) -> int:
        # the most plants of `kind` any choice of cards (and wilds) can bring home
        total = 0
        for spec in days:
            if spec.fixed is not None:
                total += sum(p.plant == kind for p in spec.fixed)
            else:
                total += max(sum(x in (kind, catalog.wild) for x in catalog.card(c).plants) for c in spec.options)
        return total

    kinds = list(catalog.plants)
    border_cells = sum(garden.on_border(c) for c in garden.cells)
    path_cells = sum(garden.next_to_path(c) for c in garden.cells)
    border = max(min(most(k), border_cells) for k in ([plan.border] if plan else kinds))
    path = max(min(most(k), path_cells) for k in ([plan.path] if plan else kinds))
    first = max(most(k) for k in ([plan.companions[0]] if plan else kinds))
    return groups_and_box + gnome_points + table.plan_points_per_plant * (border + path + first)


class _StopAt(cp_model.CpSolverSolutionCallback):
    """Stops a search once it reaches a score already proven to be the best possible."""

    def __init__(self, target: float | None):
        super().__init__()
        self.target = target

    def on_solution_callback(self) -> None:
        if self.target is not None and self.objective_value >= self.target:
            self.stop_search()


def _search(model: HorticultureModel, control: SolveControl, seconds: float, rng: random.Random,
            known_bound: int | None = None, start: _Values | None = None) -> tuple[int, object, float, int | None]:
    """A first search, then neighbourhood moves, then a hinted run on the whole model.

    One CP-SAT worker finds good gardens slowly (no built-in LNS), so part of the time goes to
    re-optimising one patch of squares at a time with the plants of all other squares pinned.
    Only runs on the whole model give bounds. Returns (status, solver holding the best values,
    seconds spent, bound or None).
    """
    m = model.m
    stop = _StopAt(known_bound)
    m.clear_hints()
    if start is not None:
        _hint_all(m, start.values)  # complete and feasible: the search starts from it at once
    st, first = control.solve(m, _solver(control, seconds * 0.3, linearization=2), stop)
    spent = _cost(control, first)
    if st == cp_model.UNKNOWN and start is None and seconds - spent > 0.1:
        # the stronger LP sometimes finds no first garden in time; the default one always did
        st, first = control.solve(m, _solver(control, (seconds - spent) * 0.5, linearization=1), stop)
        spent += _cost(control, first)
    m.clear_hints()
    if st in (cp_model.OPTIMAL, cp_model.INFEASIBLE, cp_model.MODEL_INVALID):
        bound = int(first.best_objective_bound + 1e-6) if st == cp_model.OPTIMAL else None
        return st, first, spent, bound
    bound = int(first.best_objective_bound + 1e-6) if st == cp_model.FEASIBLE else known_bound
    if known_bound is not None and bound is not None:
        bound = min(bound, known_bound)
    if st == cp_model.FEASIBLE and (start is None or first.objective_value >= start.objective_value):
        best = _Values(list(first.response_proto.solution), first.objective_value)
    elif start is not None:
        best = start
    else:
        return st, first, spent, bound
    best_value = best.objective_value
    values = best.values
    if bound is None:
        bound = 10 ** 9  # nothing proven yet: only the search below can stop early
    lns = len(model.days) >= NEIGHBOURHOOD_MIN_DAYS
    while lns and spent < seconds * 0.8 and best_value < bound:
        sub = m.clone()
        sub.clear_hints()
        for i in _neighbourhood(model, rng, free=rng.choice((6, 9, 12))):
            for t in model.types:
                sub.add(model.y[i][t] == best.value(model.y[i][t]))
        _hint_all(sub, values)
        st2, s2 = control.solve(sub, _solver(control, min(0.5, max(0.05, seconds * 0.8 - spent)), linearization=2),
                                stop)
        spent += _cost(control, s2)
        if st2 in (cp_model.OPTIMAL, cp_model.FEASIBLE) and s2.objective_value > best_value:
            best = _Values(list(s2.response_proto.solution), s2.objective_value)
            best_value, values = best.objective_value, best.values
    if best_value >= bound:
        return cp_model.OPTIMAL, best, spent, bound
    m.clear_hints()
    _hint_all(m, values)
    st3, s3 = control.solve(m, _solver(control, max(0.05, seconds - spent), linearization=2), stop)
    spent += _cost(control, s3)
    m.clear_hints()
    if st3 in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        bound = min(bound, int(s3.best_objective_bound + 1e-6))
        if s3.objective_value >= best_value:
            return st3, s3, spent, bound
    return cp_model.FEASIBLE, best, spent, (bound if bound < 10 ** 9 else None)


def _hint_all(model: cp_model.CpModel, values: list[int]) -> None:
    hint = model.model_proto.solution_hint
    for index, value in enumerate(values):
        hint.vars.append(index)
        hint.values.append(value)


def _neighbourhood(model: HorticultureModel, rng: random.Random, free: int) -> list[int]:
    """Squares to pin: all but a compact patch of about `free` squares around a random centre."""
    cols, rows = model.sheet.columns, model.sheet.rows
    c0, r0 = rng.randrange(cols), rng.randrange(rows)
    near = sorted(range(model.n), key=lambda i: (abs(model.cells[i][0] - c0) + abs(model.cells[i][1] - r0),
                                                 rng.random()))
    return near[free:]


def _gnome_plan(model: HorticultureModel, solver: cp_model.CpSolver) -> tuple[Cell, Plan]:
    def pick(v: dict[str, cp_model.IntVar]) -> str:
        return next(t for t, b in v.items() if solver.value(b))
    gnome = model.cells[next(i for i, b in enumerate(model.gv) if solver.value(b))]
    return gnome, Plan(pick(model.plan_border), pick(model.plan_path),
                       (pick(model.plan_first), pick(model.plan_second)))


def _exact_score(catalog: Catalog, side: str, drawing: PathDrawing, game: list[Day], gnome: Cell, plan: Plan,
                 control: SolveControl, timed: bool = True) -> int:
    """The encoding may under-claim points on a non-optimal game: score the same game exactly in CP-SAT."""
    fixed = [DaySpec((day.chosen,), day.plants) for day in game]
    model = HorticultureModel(catalog, side, drawing, fixed, gnome, plan, timed=timed)
    status, solver = control.solve(model.m, _solver(control, max(1.0, control.time_limit_s)))
    if status != cp_model.OPTIMAL:
        raise ModelMismatch(f"scoring a fixed game did not reach optimality ({STATUS.get(status)})")
    return int(round(solver.objective_value))


def _checked(catalog: Catalog, side: str, drawing: PathDrawing, status: str, objective: int, bound: int | None,
             game: list[Day], gnome: Cell, plan: Plan, wall: float) -> Solution:
    sheet, violations = replay(catalog, Setup(side, drawing, gnome, plan), game)
    if violations:
        raise ModelMismatch(f"CP-SAT game breaks a rule: {violations[0].where}: {violations[0].reason}")
    pure = score_sheet(catalog, sheet)
    if pure.total != objective:
        raise ModelMismatch(f"CP-SAT objective {objective} != pure score {pure.total}")
    if status == "optimal":
        bound = objective
    elif bound is not None and bound < objective:
        raise ModelMismatch(f"proven bound {bound} is below the score {objective} of a legal game")
    # bound stays None when no search proved one: never report the score itself as a bound
    return Solution(status, objective, bound, game, gnome, plan, pure, wall)
