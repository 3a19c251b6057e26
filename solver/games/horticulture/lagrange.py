"""A Lagrangian bound on a Horticulture solo game, and the region cuts it gives the count relaxation (a bound only).

Every plant brought home goes to the garden or the window box: for each kind t, brought_t = box_t + drawn_t, and
drawn_t is a sum over the regions the path cuts the sheet into (`model.regions`). Pricing each kind at lam_t and
dropping those equalities (and the day-by-day planting order) leaves independent problems:

    L(lam) = sum over days of max over the day's cards of sum of lam over its two plants (a wild: the dearest kind)
           + max over window boxes of (box points - sum of lam over its plants)
           + sum over regions r of V_r(lam),   V_r(lam) = max over plantings of r of (points in r - sum of lam)

For every game and every lam the equalities hold, so the game's score is at most L(lam): each L(lam) is a bound.
V_r is found exactly by `regions.RegionGraph` (groups really connected, exact minimum sizes, the gnome's repeats,
the plan lines and companions square by square), which the count relaxation cannot see; the count relaxation sees
the cards and the integer plant counts, which L only prices. The two are joined by cuts: for every region r, every
garden and every lam, points in r <= V_r(lam) + sum over t of lam_t x (plants of t in r). `ClassCountModel`
takes them on its region parts (`add_region_cuts`), and its proven optimum is then below both bounds.

lam is searched by a box-step cutting-plane method (`solve`): a linear programme (GLOP) over the pieces found so
far, restricted to a box around the best lam, which grows when the programme's answer is inside it and shrinks
after a step that did not descend. Prices are integers in hundredths (`SCALE`), so every value is exact and the
bound is floor(L / SCALE). The work is counted in transitions of the region graphs (building and passes), so a
deterministic request gives the same answer on every machine.

`separate` runs the same search over one region: min over lam of V_r(lam) + lam . n_r is the tightest region cut at
given plant counts n_r (the optimiser's cutting-plane rounds ask it at the count model's optimum, `_cut_rounds`).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ortools.linear_solver import pywraplp

from .data import Catalog
from .garden import Cell, Garden, PathDrawing, Plan
from .model import DaySpec, regions
from . import regions as _regions
from .regions import RegionGraph
from .state import WINDOW

SCALE = 100  # prices in hundredths of a point
START = 250  # the first prices (2.5 points a plant: a 32-card game scores about 90 with 32 plants)
LOW, HIGH = -500, 1500  # prices stay in this range (hundredths)
BOX = 100  # the first box half-width (hundredths)
BOX_MIN = 5
DESCENT = 0.3  # a step is taken when it gains this share of what the programme promised
BUILD_COST = 40  # a transition built costs as much as this many transitions passed (measured, compiled)
MOST = 16_000_000  # transitions built at most, whatever the budget (about 160 MB of tables and 4 s compiled)


def compiled() -> bool:
    """True when the region graphs run as the compiled copy (solver/core/compiled.py), about 30x faster."""
    return not str(_regions.__file__).endswith(".py")


@dataclass
class Lagrangian:
    """The best bound found and the pieces behind it (for `ClassCountModel.add_region_cuts`)."""

    bound: int | None  # floor of the best L(lam) / SCALE (None: the regions are not supported)
    value: int = 0  # the best L(lam), in hundredths
    prices: list[int] = field(default_factory=list)  # its lam (catalog order, hundredths)
    cuts: list[tuple[list[int], list[int]]] = field(default_factory=list)  # (lam, V_r(lam) per region) evaluated
    evaluations: int = 0
    work: int = 0  # transitions built and passed


class LagrangeBound:
    def __init__(self, catalog: Catalog, side: str, drawing: PathDrawing, days: list[DaySpec], gnome: Cell,
                 plan: Plan, most: int | None = None):
        """`most`: at most this many transitions built in all (and never more than MOST); beyond it the building
        stops and the bound is not `supported` (`built` is the work done either way)."""
        self.catalog = catalog
        self.kinds = list(catalog.plants)
        # per day, each card it may bring as its plants' kind indices (None: a wild); a played day has one
        self.options = [[[self.kinds.index(p.plant) for p in spec.fixed]] if spec.fixed is not None else
                        [[None if p == catalog.wild else self.kinds.index(p) for p in catalog.card(cid).plants]
                         for cid in spec.options] for spec in days]
        sheet = catalog.sheet(side)
        garden = Garden(sheet, drawing)
        fixed: dict[Cell, str | None] = {}
        self.fixed_box: set[str] = set()
        for spec in days:
            for planting in spec.fixed or ():
                if planting.at == WINDOW:
                    self.fixed_box.add(planting.plant)
                else:
                    fixed[planting.at] = planting.plant
        self.parts = [[garden.cells[i] for i in part] for part in regions(garden, gnome)]
        self.graphs, self.built = [], 0
        most = MOST if most is None else min(most, MOST)
        for part in self.parts:
            graph = RegionGraph(catalog, garden, part, gnome, plan, fixed, most - self.built)
            self.graphs.append(graph)
            self.built += graph.transitions
            if not graph.supported:
                break
        self.supported = all(g.supported for g in self.graphs)
        self.slots = sheet.window_box_slots
        self.box_points = catalog.scoring.window_box_points_per_plant * SCALE
        self.box_bonus = catalog.scoring.window_box_full_bonus * SCALE

    def evaluate(self, lam: list[int]) -> tuple[int, list[int], list[int]]:
        """L(lam) in hundredths, a subgradient (brought - boxed - drawn per kind) and V_r(lam) per region."""
        n = len(self.kinds)
        total, grad = 0, [0] * n
        dearest = max(range(n), key=lambda k: (lam[k], -k))  # what a wild becomes
        for options in self.options:
            plants = [[dearest if k is None else k for k in card] for card in options]
            best = max(plants, key=lambda ks: sum(lam[k] for k in ks))  # the first of equal options
            total += sum(lam[k] for k in best)
            for k in best:
                grad[k] += 1
        # the window box: the fixed kinds, plus the best others, as many as pays (or all slots, for the bonus)
        must = [k for k in range(n) if self.kinds[k] in self.fixed_box]
        others = sorted((k for k in range(n) if k not in must), key=lambda k: (lam[k], k))
        box_best, box_kinds = None, []
        for extra in range(0, max(0, min(self.slots, n) - len(must)) + 1):
            chosen = must + others[:extra]
            v = sum(self.box_points - lam[k] for k in chosen)
            if self.slots and len(chosen) >= self.slots:
                v += self.box_bonus
            if box_best is None or v > box_best:
                box_best, box_kinds = v, chosen
        total += box_best
        for k in box_kinds:
            grad[k] -= 1
        values = []
        for g in self.graphs:
            v, counts = g.best(lam, SCALE)
            values.append(v)
            total += v
            for k in range(n):
                grad[k] -= counts[k]
        return total, grad, values

    def solve(self, evaluations: int, deadline=None) -> Lagrangian:
        """At most `evaluations` prices tried (fewer when `deadline()` says stop or the method has converged)."""
        if not self.supported:
            return Lagrangian(None)
        out = Lagrangian(None, work=self.built * BUILD_COST)
        pass_cost = self.built

        def run(lam: list[int]) -> tuple[int, list[int]]:
            value, grad, values = self.evaluate(lam)
            out.cuts.append((list(lam), values))
            out.evaluations += 1
            out.work += pass_cost
            return value, grad

        out.value, out.prices = _box_step(len(self.kinds), run, evaluations, deadline)
        out.bound = out.value // SCALE
        return out

    def separate(self, region: int, counts: list[int], evaluations: int, start: list[int] | None = None,
                 deadline=None) -> Separation:
        """The region's tightest cut at `counts` (its plants per kind, catalog order) among at most `evaluations`
        prices: min over lam of V_r(lam) + lam . counts by the same box-step search from `start` (default: START
        everywhere). A cut from any lam is valid; this one is the most violated at `counts` found."""
        graph = self.graphs[region]
        out = Separation(0, [], 0, work=0)

        def run(lam: list[int]) -> tuple[int, list[int]]:
            v, planted = graph.best(lam, SCALE)
            out.evaluations += 1
            out.work += graph.transitions
            value = v + sum(p * c for p, c in zip(lam, counts))
            if out.evaluations == 1 or value < out.value:
                out.value, out.prices, out.region_value = value, list(lam), v
            return value, [c - k for c, k in zip(counts, planted)]

        _box_step(len(self.kinds), run, evaluations, deadline, start)
        return out


@dataclass
class Separation:
    """`LagrangeBound.separate`'s answer: the cut points x SCALE <= region_value + prices . plants (catalog order),
    worth `value` at the counts it was asked at."""

    value: int  # V_r(prices) + prices . counts, in hundredths
    prices: list[int]
    region_value: int  # V_r(prices)
    evaluations: int = 0
    work: int = 0  # transitions passed


def _box_step(n: int, run, evaluations: int, deadline=None, start: list[int] | None = None) -> tuple[int, list[int]]:
    """Minimise a convex piecewise-linear function of n integer prices in [LOW, HIGH], given as `run(lam)` ->
    (value, a subgradient), with at most `evaluations` calls: a box-step cutting-plane method (the linear programme
    over the pieces found so far, restricted to a box around the best lam, which grows when the programme's answer
    is inside it and shrinks after a step that did not descend). Returns the best (value, lam)."""
    lp = pywraplp.Solver.CreateSolver("GLOP")
    lam_v = [lp.NumVar(LOW, HIGH, "") for _ in range(n)]
    z = lp.NumVar(-lp.infinity(), lp.infinity(), "")
    lp.Minimize(z)
    calls = 0

    def call(lam: list[int]) -> int:
        nonlocal calls
        calls += 1
        value, grad = run(lam)
        ct = lp.Constraint(value - sum(g * x for g, x in zip(grad, lam)), lp.infinity())
        ct.SetCoefficient(z, 1)
        for k in range(n):
            ct.SetCoefficient(lam_v[k], -grad[k])
        return value

    center = [START] * n if start is None else [min(HIGH, max(LOW, p)) for p in start]
    best = call(center)
    top = (best, center)
    width = BOX
    while calls < evaluations and not (deadline is not None and deadline()):
        for k in range(n):
            lam_v[k].SetBounds(max(LOW, center[k] - width), min(HIGH, center[k] + width))
        if lp.Solve() != pywraplp.Solver.OPTIMAL:
            break
        promise = z.solution_value()
        lam = [int(round(v.solution_value())) for v in lam_v]
        if best - promise < 1:  # nothing better within the box
            inside = all(abs(lam[k] - center[k]) < width for k in range(n))
            if inside or width >= HIGH - LOW:
                break
            width *= 2
            continue
        if lam == center:
            break
        value = call(lam)
        if value <= best - DESCENT * (best - promise):
            center, best = lam, value
        else:
            width = max(BOX_MIN, int(width * 0.7))
        if best < top[0]:
            top = (best, center)
    return top
