"""CP-SAT model of a solo Horticulture game: card choices, placements, groups, gnome, window box and plan."""
from __future__ import annotations

from dataclasses import dataclass

from ortools.sat.python import cp_model

from .data import Catalog
from .garden import Cell, Garden, PathDrawing, Plan
from .scoring import ScoreSheet
from .state import WINDOW, Day, Planting


STATUS = {cp_model.OPTIMAL: "optimal", cp_model.FEASIBLE: "feasible",
          cp_model.INFEASIBLE: "infeasible", cp_model.MODEL_INVALID: "invalid", cp_model.UNKNOWN: "unknown"}


# exact: witnesses + labels (default); flow: the earlier labels + parent-tree flow encoding (exact,
# slower); packing: witnesses without labels and count: counts only (relaxations, bounds only).
GROUP_MODES = ("exact", "flow", "packing", "count")
DEFAULT_GROUPS = "exact"  # what HorticultureModel(groups=None) uses (the bench can switch it to compare)
# Cuts of the count relaxation (groups="count"), see _group_counts; the optimiser asks for both by name
# (optimiser.BOUND_CUTS). Other cuts were built, measured slower or no gain, and removed on 1 Dec 2026 (neighbours,
# components, columns, lines, witness cliques; the lazy pair/component cuts and the hybrid relaxation of the
# optimiser): their code is in git at 27ab5d1, their measurements in docs/journal/horticulture-issue7.md.
COUNT_REGIONS = False  # group counts per region the path (and a given gnome) separates
COUNT_GNOME_REACH = False  # a repeated group's squares lie within min(t) - 1 links of the gnome's
COUNT_CUTS = {"regions": "COUNT_REGIONS", "reach": "COUNT_GNOME_REACH"}


def default_count_cuts() -> frozenset[str]:
    return frozenset(key for key, name in COUNT_CUTS.items() if globals()[name])


def connected_subsets(garden: Garden, k: int) -> list[tuple[int, ...]]:
    """Every connected set of k squares (linked squares, the path separates), as sorted square indices.

    Enumerated once each (Wernicke's ESU: grown from its smallest square, extended only by squares
    that are larger and not next to the part already grown). A 6 x 7 sheet with a straight path has
    64 / 140 / 304 / 652 / 1364 such sets of 2 / 3 / 4 / 5 / 6 squares.
    """
    idx = garden.index
    adj = [[idx[c] for c in garden.linked(cell)] for cell in garden.cells]
    out: list[tuple[int, ...]] = []

    def grow(part: set[int], border: set[int], extension: list[int], anchor: int) -> None:
        if len(part) == k:
            out.append(tuple(sorted(part)))
            return
        extension = list(extension)
        while extension:
            w = extension.pop()
            more = extension + [u for u in adj[w] if u > anchor and u not in border and u not in extension]
            grow(part | {w}, border | set(adj[w]) | {w}, more, anchor)

    for a in range(len(garden.cells)):
        grow({a}, set(adj[a]) | {a}, [u for u in adj[a] if u > a], a)
    return out


# The final-garden relaxation keeps "plants can be ordered outward from the path" (a valid but
# costly constraint); without it the optimiser's cut loop rejects unplantable gardens instead.
ORDERED_RELAXATION = True
# ... but not the count relaxation (groups="count"): dropping a constraint keeps it a relaxation, and on 32-card
# seeds 0-19 its proven optimum was the same on every seed (sum 1836) in 20.6 units instead of 47.6 (with the
# regions + reach cuts: 1800, 19 of 20 proven within 20 units each; session of 3 Dec 11:40).
COUNT_ORDERED = False
# Left/right mirror symmetry breaking (gnome in the left half) when gnome is a decision, no day is
# fixed and the path is its own mirror image.
MIRROR_BREAKING = True
# (Removed in the session of 30 Nov 20:30: PREFIX_DAYS, day-prefix cuts of the untimed relaxation; valid, but as
# constraints of the search they lost seed 1's proof and seed 2's cards search at 32 cards, and as a filter
# (optimiser PREFIX_REASON) they changed no answer. docs/horticulture.md, sessions of 30 Nov 17:45 and 19:00.)


def mirror_symmetric(garden: Garden) -> bool:
    """Whether the drawn path is its own mirror image (then so is every rule on the sheet)."""
    cols = garden.sheet.columns
    return frozenset(frozenset((cols - x, y) for x, y in seg) for seg in garden.segments) == garden.segments


def mirror_half(garden: Garden, gnome: Cell | None, days: list[DaySpec]) -> bool:
    """Whether the model keeps a gnome being chosen in the left half (MIRROR_BREAKING): no day fixed, the path its
    own mirror image."""
    return MIRROR_BREAKING and gnome is None and all(d.fixed is None for d in days) and mirror_symmetric(garden)


def mirror_cell(cell: Cell, columns: int) -> Cell:
    return (columns - 1 - cell[0], cell[1])


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
                 gnome: Cell | None, plan: Plan | None, timed: bool = True, groups: str | None = None,
                 count_cuts: frozenset[str] | None = None):
        # timed=False drops the day-by-day placement (only the final garden is chosen): a relaxation
        # whose optimum bounds the real game and is usually reachable by some planting order.
        # groups="count" drops group connectivity (see _group_counts): a further relaxation, whose
        # objective is only an upper bound on the garden's score.
        groups = groups or DEFAULT_GROUPS
        if groups not in GROUP_MODES:
            raise ValueError(f"groups: expected one of {GROUP_MODES}, got {groups!r}")
        self.timed, self.group_mode = timed, groups
        # cuts of groups="count" (see _group_counts), by default the module's COUNT_* switches
        self.count_cuts = default_count_cuts() if count_cuts is None else frozenset(count_cuts)
        if self.count_cuts - set(COUNT_CUTS):
            raise ValueError(f"count_cuts: expected some of {sorted(COUNT_CUTS)}, got {sorted(self.count_cuts)}")
        self.catalog, self.side, self.drawing, self.days = catalog, side, drawing, days
        self.sheet = catalog.sheet(side)
        self.garden = Garden(self.sheet, drawing)
        self.m = m = cp_model.CpModel()
        self.types = list(catalog.plants)
        self.minimum = {t: catalog.plants[t].minimum_group_size for t in self.types}
        self.cells = self.garden.cells
        self.n = len(self.cells)
        self.fixed_gnome, self.fixed_plan = gnome, plan  # as given (None: a decision)
        self._gnome_and_plan(gnome, plan)
        self._plants()
        if timed:
            self._support()
        else:
            self.occupied = [m.new_bool_var(f"occupied{i}") for i in range(self.n)]
            for i in range(self.n):
                m.add(self.occupied[i] + self.gv[i] <= 1)
            if ORDERED_RELAXATION and (groups != "count" or COUNT_ORDERED):
                self._support_order()
        self._cell_types()
        self._window_box()
        if groups == "flow":
            self._groups()
            self._gnome_bonus()
        elif groups == "count":
            self._group_counts()
        else:
            self._witness_groups(separate=groups == "exact")
        self._garden_plan()
        self.m.maximize(self.objective)

    # --- decisions -------------------------------------------------------------------------------
    def _gnome_and_plan(self, gnome: Cell | None, plan: Plan | None) -> None:
        m = self.m
        self.gv = [m.new_bool_var(f"gnome_{c}_{r}") for c, r in self.cells]
        m.add_exactly_one(self.gv)
        if gnome is not None:
            m.add(self.gv[self.garden.index[gnome]] == 1)
        # Mirroring a game left/right keeps it legal and its score (path, border, plan and the window
        # box are all mirror-blind when the path is symmetric), so the gnome may be kept in the left half.
        self.mirror_half = mirror_half(self.garden, gnome, self.days)
        if self.mirror_half:
            cols = self.sheet.columns
            for i, (c, r) in enumerate(self.cells):
                if 2 * c > cols - 1:
                    m.add(self.gv[i] == 0)

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
        self.box_kind = {}  # box_kind[t]: a plant of kind t is in the window box
        for t in self.types:
            self.box_kind[t] = m.new_bool_var(f"box_has_{t}")
            m.add(self.box_kind[t] == sum(self.box[(p, t)] for p in self.plant_ids))
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

    def _witness_groups(self, separate: bool) -> None:
        """Complete groups by witnesses: a complete group is credited through one connected set of
        exactly min(t) of its squares (every group of >= k linked squares contains one, through any
        square of it). With `separate`, labels equal along linked same-kind squares and a witness
        fixes the label of its smallest square to that square's index, so two witnesses never sit
        in one group: exact. Without, witnesses are only disjoint: a relaxation (bound only).

        Gnome: a group linked to the gnome square contains a witness that holds a square linked to
        the gnome (grow it from that square), so the repeat is credited through such witnesses.
        """
        m, n, idx = self.m, self.n, self.garden.index
        fixed = self.fixed_gnome
        linked_to_gnome = set(idx[c] for c in self.garden.linked(fixed)) if fixed is not None else None
        touching = None
        if fixed is None:
            touching = [sum(self.gv[idx[c]] for c in self.garden.linked(cell)) for cell in self.cells]
        subsets = {k: connected_subsets(self.garden, k) for k in sorted(set(self.minimum.values()))}
        self.witness: dict[tuple[str, tuple[int, ...]], cp_model.IntVar] = {}
        covering: list[list] = [[] for _ in range(n)]
        group_terms, gnome_terms = [], []
        gnome_by_type: dict[str, list] = {t: [] for t in self.types}
        for t in self.types:
            k = self.minimum[t]
            if self.most_plants(t) < k:
                continue  # the cards can never bring home a complete group of t
            for part in subsets[k]:
                w = m.new_bool_var(f"witness_{t}_{'_'.join(map(str, part))}")
                for i in part:
                    covering[i].append((t, w))
                self.witness[(t, part)] = w
                group_terms.append(k * w)
                if fixed is not None:
                    if linked_to_gnome.intersection(part):
                        gnome_terms.append(k * w)
                        gnome_by_type[t].append(w)
                else:
                    g = m.new_bool_var(f"gnome_{t}_{'_'.join(map(str, part))}")
                    m.add_implication(g, w)
                    m.add(g <= sum(touching[i] for i in part))
                    gnome_terms.append(k * g)
                    gnome_by_type[t].append(g)
        for i in range(n):
            # a square of kind t lies in at most one witness, and only in witnesses of kind t
            for t in self.types:
                mine = [w for ty, w in covering[i] if ty == t]
                if mine:
                    m.add(sum(mine) <= self.y[i][t])
        self.group_count = {}
        for t in self.types:
            # implied cut: each complete group uses at least its minimum of squares
            g = m.new_int_var(0, n // self.minimum[t], f"groups_{t}")
            m.add(g == sum(w for (ty, _), w in self.witness.items() if ty == t))  # 0 when none were built
            m.add(self.minimum[t] * g <= sum(self.y[i][t] for i in range(n)))
            self.group_count[t] = g
            # a repeated group holds a square of its kind linked to the gnome, a different one per group
            if fixed is not None:
                m.add(sum(gnome_by_type[t]) <= sum(self.y[i][t] for i in sorted(linked_to_gnome)))
        if separate:
            self.label = [m.new_int_var(0, n - 1, f"label{i}") for i in range(n)]
            for a, b in self.garden.edges():
                i, j = idx[a], idx[b]
                s = m.new_bool_var(f"same{i}_{j}")
                for t in self.types:
                    m.add_bool_or([self.y[i][t].Not(), self.y[j][t].Not(), s])
                m.add(self.label[i] == self.label[j]).only_enforce_if(s)
            anchored: dict[int, list] = {}
            for (t, part), w in self.witness.items():
                anchored.setdefault(part[0], []).append(w)
            for a, ws in anchored.items():
                r = m.new_bool_var(f"anchor{a}")
                m.add(self.label[a] == a).only_enforce_if(r)
                for w in ws:
                    m.add_implication(w, r)
        self.group_points = sum(group_terms)
        self.gnome_points = sum(gnome_terms)

    def most_plants(self, kind: str) -> int:
        """The most plants of `kind` any choice of cards (and wilds) can bring home."""
        wild, total = self.catalog.wild, 0
        for spec in self.days:
            if spec.fixed is not None:
                total += sum(p.plant == kind for p in spec.fixed)
            else:
                total += max(sum(x in (kind, wild) for x in self.catalog.card(c).plants) for c in spec.options)
        return total

    def _group_counts(self) -> None:
        """Groups and gnome bonus by counting only (an upper bound, valid for every garden).

        A complete group of t holds at least min(t) squares of t, and different groups hold
        different squares: at most floor(squares of t / min(t)) complete groups of t. A group the
        gnome repeats is a complete group with a square of its own linked to the gnome square, so
        the repeated groups of t are at most those groups and at most the squares of t linked to
        the gnome. Connectivity and separation are ignored, so the objective over-counts some
        gardens; it is only ever used as a bound.

        Cuts (`count_cuts`, by default the module's COUNT_* switches). Each keeps every real garden's
        values feasible, so the bound stays valid; tests/games/horticulture/test_count_cuts.py holds
        them against the exhaustive oracle:
        * regions (COUNT_REGIONS): a group is linked square to square, so it lies in one region
          (`regions`: the linked squares' connected parts; the path splits the sheet, a given gnome's
          square holds no plant): per region R, min(t) * groups of t in R <= squares of t in R. A
          repeated group holds a square linked to the gnome, so it lies in a region holding such a
          square (one, or several when the gnome's square splits a region): repeats of t <= groups
          of t there.
        * reach (COUNT_GNOME_REACH, given gnome): a repeated group of t contains a connected set of
          min(t) of its squares holding a square linked to the gnome (grow it from that square), so
          all of them lie within min(t) - 1 links of a square linked to the gnome (`near_gnome`), and
          repeated groups are disjoint: min(t) * repeats of t <= squares of t there.
        """
        m, n, idx = self.m, self.n, self.garden.index
        fixed = self.fixed_gnome
        self.group_count, gnome_count = {}, {}
        cuts = self.count_cuts
        regions = self.regions() if "regions" in cuts else [list(range(n))]
        region_count: list[dict] = [{} for _ in regions]
        squares = {t: [self.y[i][t] for i in range(n)] for t in self.types}
        for t in self.types:
            g = m.new_int_var(0, n // self.minimum[t], f"groups_{t}")
            m.add(self.minimum[t] * g <= sum(squares[t]))
            if len(regions) > 1:
                for r, cells in enumerate(regions):
                    gr = m.new_int_var(0, len(cells) // self.minimum[t], f"groups_{t}_region{r}")
                    m.add(self.minimum[t] * gr <= sum(squares[t][i] for i in cells))
                    region_count[r][t] = gr
                m.add(g == sum(region_count[r][t] for r in range(len(regions))))
            self.group_count[t] = g
        if fixed is not None:
            near = [idx[c] for c in self.garden.linked(fixed)]
            beside = {t: [self.y[i][t] for i in near] for t in self.types}
        else:
            beside = {t: [] for t in self.types}
            for i, cell in enumerate(self.cells):
                touching = sum(self.gv[idx[c]] for c in self.garden.linked(cell))
                for t in self.types:
                    v = m.new_bool_var(f"beside_gnome{i}_{t}")
                    m.add_implication(v, self.y[i][t])
                    m.add(v <= touching)
                    beside[t].append(v)
        home = None  # the regions holding a square linked to the gnome (several when its square splits one)
        if fixed is not None and len(regions) > 1:
            near_fixed = {idx[c] for c in self.garden.linked(fixed)}
            home = [r for r, cells in enumerate(regions) if near_fixed.intersection(cells)]
        for t in self.types:
            r = m.new_int_var(0, 4, f"gnome_groups_{t}")
            m.add(r <= self.group_count[t])
            m.add(r <= sum(beside[t]))
            if home is not None:
                m.add(r <= sum(region_count[h][t] for h in home))  # a repeated group lies beside the gnome
            if "reach" in cuts and fixed is not None and self.minimum[t] > 1:
                # each repeated group holds min(t) squares of t within reach of the gnome, different ones
                reach = self.near_gnome(fixed, self.minimum[t] - 1)
                m.add(self.minimum[t] * r <= sum(squares[t][i] for i in reach))
            gnome_count[t] = r
        self.group_points = sum(self.minimum[t] * self.group_count[t] for t in self.types)
        self.gnome_points = sum(self.minimum[t] * gnome_count[t] for t in self.types)

    def regions(self) -> list[list[int]]:
        """The squares split into the parts no group can cross (see `regions`)."""
        return regions(self.garden, self.fixed_gnome)

    def near_gnome(self, gnome: Cell, steps: int) -> list[int]:
        """Squares at most `steps` links (never through the gnome's square) from a square linked to it."""
        return near_gnome(self.garden, gnome, steps)

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

    def card_literals(self, cards: list[int]) -> list[cp_model.IntVar]:
        """Per day, the literal of bringing home that day's card in `cards`."""
        return [self.choice[d][spec.options.index(cid)] for d, (spec, cid) in enumerate(zip(self.days, cards))]

    def fix_final(self, garden: dict[Cell, str], box: list[str], chosen: list[int], gnome: Cell, plan: Plan) -> None:
        """Pin the final garden, window box, cards, gnome and plan; only the planting order stays free."""
        m = self.m
        for i, cell in enumerate(self.cells):
            for t in self.types:
                m.add(self.y[i][t] == int(garden.get(cell) == t))
            m.add(self.gv[i] == int(cell == gnome))
        for t in self.types:
            m.add(sum(self.box[(p, t)] for p in self.plant_ids) == int(t in box))
        for lit in self.card_literals(chosen):
            m.add(lit == 1)
        for var, t in ((self.plan_border, plan.border), (self.plan_path, plan.path),
                       (self.plan_first, plan.companions[0]), (self.plan_second, plan.companions[1])):
            m.add(var[t] == 1)

    def final_literals(self) -> list:
        """The literals that fix a final garden: squares' kinds, gnome, window box kinds, cards and plan."""
        literals = [self.y[i][t] for i in range(self.n) for t in self.types] + list(self.gv)
        literals += [self.box_kind[t] for t in self.types] + [b for ch in self.choice for b in ch]
        for var in (self.plan_border, self.plan_path, self.plan_first, self.plan_second):
            literals += [var[t] for t in self.types]
        return literals

    def exclude_final(self, solver) -> None:
        """Forbid the final garden, window box, cards, gnome and plan of `solver`'s solution (a no-good)."""
        self.m.add_bool_or([lit.Not() if solver.value(lit) else lit for lit in self.final_literals()])

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


def regions(garden: Garden, skip: Cell | None) -> list[list[int]]:
    """The squares (indices) split into the parts no group can cross: connected parts of the linked squares
    (the path separates them), without the square `skip` (a given gnome's) when it is given."""
    idx = garden.index
    seen, out = set(), []
    for cell in garden.cells:
        if cell in seen or cell == skip:
            continue
        part, todo = [], [cell]
        seen.add(cell)
        while todo:
            cur = todo.pop()
            part.append(idx[cur])
            for nb in garden.linked(cur):
                if nb not in seen and nb != skip:
                    seen.add(nb)
                    todo.append(nb)
        out.append(sorted(part))
    return out


def near_gnome(garden: Garden, gnome: Cell, steps: int) -> list[int]:
    """Squares (indices) at most `steps` links (never through the gnome's square) from a square linked to it."""
    frontier = list(garden.linked(gnome))
    seen = set(frontier)
    for _ in range(steps):
        nxt = []
        for cur in frontier:
            for nb in garden.linked(cur):
                if nb not in seen and nb != gnome:
                    seen.add(nb)
                    nxt.append(nb)
        frontier = nxt
    return sorted(garden.index[c] for c in seen)
