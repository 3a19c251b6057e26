"""Exact best plantings of one region at given plant prices: a layered graph of partial plantings (a bound only).

The path splits a sheet into regions (`model.regions`): groups, the gnome's repeats, companions and the plan's
border and path squares never look across it, so the score of a garden, window box aside, is a sum over regions.
For prices lam (one per kind) the best value of a region, max over its plantings of (its points - the sum of lam
over its plants), is found exactly by dynamic programming over its squares in row order, the state being what the
squares still to come can see of the squares done (the *frontier*: the done squares with a linked square still to
come): per frontier square its kind, its group's label and, for a first-companion plant, whether it still waits for
a second-companion neighbour; per label the group's size so far (capped at the kind's minimum) and whether it
touches the gnome. A group's points are credited as soon as it is complete and taken back when it merges into
another, so every path through the layers adds up to the planting's score exactly (`scoring.score_sheet`, held in
tests/games/horticulture/test_lagrange.py).

The reachable states do not depend on the prices, so the layers are built once (`RegionGraph`) as flat transition
tables (from, to, kind, points); a price vector is then one max-plus pass over them (`RegionGraph.best`), which
also returns the kinds of a best planting (the subgradient of the Lagrangian bound, `lagrange.py`). Prices are
integers (hundredths of a point, `lagrange.SCALE`), so values are exact.

The tables are `array`s and the hot loops take them as arguments, so that the compiled copy (solver/core/compiled.py
with regions.pxd) runs them as C loops over typed memoryviews; the pure module runs the same program, slower. Since 6
Dec 21:49 the two loops are compiled without bounds or negative-index checks and their arrays are declared contiguous:
every index is a slot of the frontier (< MAX_FRONT + 2), a label, a kind code (0 empty, 1..6) or a transition or state
of the tables built, never negative. Until then every compiled build had the checks on, and no test or benchmark run
ever raised; the same graphs and values came out (bounds, prices, cuts and work of seeds 0-5 compared), a price
vector's pass about 2x faster and building about 10 % faster. A state is packed in one 64-bit integer: 7 bits per
frontier square (kind 3, label 3, waiting 1) and 4 per label (size 3, gnome 1). Regions with a frontier wider than
MAX_FRONT = 4 squares (a path drawn on a sheet's second or second-to-last line) are not handled
(`RegionGraph.supported`): their graphs grow about 70x per square of width.
"""
from __future__ import annotations

from array import array

import cython

from .data import Catalog
from .garden import Cell, Garden, Plan

# Squares in a frontier: 5 would fit the packing (7 bits a square plus 4 a label: 55 bits), but a region 5 squares
# wide (side A's path drawn on its first or last line) has about 0.9 billion transitions (434 s and ~9 GB to build);
# 4 wide (a winding path) has up to ~12 M (2.8 s), 3 wide (the straight path) ~1 M.
MAX_FRONT = 4
NEG = -(1 << 60)


@cython.boundscheck(False)
@cython.wraparound(False)
def _step(keys, index, in_w: int, prev, nprev: int, out_src, out_w: int, allowed, nallowed: int, mins,
          border_kind: int, path_kind: int, c1: int, c2: int, per: int, onb: int, ntp: int, ing: int,
          src, dst, kinds_out, points_out, at: int, kinds_, labels_, needs_, sizes_, gn_, canon, merged):
    """Expand one layer: every state of `keys` (packed, in layer order) by every kind allowed on the square; new
    states get the next index in `index` (dict packed -> index, insertion order is the layer order). Writes one
    transition per (state, kind) to src/dst/kinds_out/points_out from index `at` on (the caller has made room for
    len(keys) x nallowed); returns the next layer's keys."""
    nxt = []
    for s_i in range(len(keys)):
        key = keys[s_i]
        for t_i in range(nallowed):
            t = allowed[t_i]
            # decode the frontier (slot in_w is the new square)
            for s in range(in_w):
                v = (key >> (7 * s)) & 127
                kinds_[s] = v & 7
                labels_[s] = (v >> 3) & 7
                needs_[s] = v >> 6
            for lab in range(in_w):
                c = (key >> (7 * in_w + 4 * lab)) & 15
                sizes_[lab] = c & 7
                gn_[lab] = c >> 3
            pts = 0
            kinds_[in_w] = t
            labels_[in_w] = in_w
            needs_[in_w] = 0
            if t > 0:
                if t == border_kind and onb:
                    pts += per
                if t == path_kind and ntp:
                    pts += per
                if t == c1:
                    found = 0
                    for p in range(nprev):
                        if kinds_[prev[p]] == c2:
                            found = 1
                    if found:
                        pts += per
                    else:
                        needs_[in_w] = 1
                if t == c2:
                    for p in range(nprev):
                        s = prev[p]
                        if kinds_[s] == c1 and needs_[s]:
                            pts += per
                            needs_[s] = 0
                m = mins[t]
                size = 1
                g = ing
                nm = 0
                for p in range(nprev):
                    s = prev[p]
                    if kinds_[s] != t:
                        continue
                    lab = labels_[s]
                    seen = 0
                    for q in range(nm):
                        if merged[q] == lab:
                            seen = 1
                    if seen:
                        continue
                    merged[nm] = lab
                    nm += 1
                    if sizes_[lab] >= m:
                        pts -= m * (1 + gn_[lab])
                    size += sizes_[lab]
                    g = g | gn_[lab]
                if size > m:
                    size = m
                if size >= m:
                    pts += m * (1 + g)
                for s in range(in_w):
                    if kinds_[s] == t:
                        for q in range(nm):
                            if labels_[s] == merged[q]:
                                labels_[s] = in_w
                sizes_[in_w] = size
                gn_[in_w] = g
            # encode the next frontier, labels renumbered by first appearance
            for lab in range(in_w + 1):
                canon[lab] = -1
            out = 0
            nl = 0
            comps = 0
            for o in range(out_w):
                s = out_src[o]
                k = kinds_[s]
                if k == 0:
                    continue
                lab = labels_[s]
                if canon[lab] < 0:
                    canon[lab] = nl
                    comps |= (sizes_[lab] | (gn_[lab] << 3)) << (4 * nl)
                    nl += 1
                w = needs_[s] if k == c1 else 0
                out |= (k | (canon[lab] << 3) | (w << 6)) << (7 * o)
            out |= comps << (7 * out_w)
            j = index.get(out)
            if j is None:
                j = len(nxt)
                index[out] = j
                nxt.append(out)
            src[at] = s_i
            dst[at] = j
            kinds_out[at] = t
            points_out[at] = pts
            at += 1
    return nxt


@cython.boundscheck(False)
@cython.wraparound(False)
def _best(nsteps: int, step_off, state_off, src, dst, kinds, points, lam, scale: int, val, arg) -> int:
    """One max-plus pass: val[state] = best of (points * scale - lam[kind]) summed along a path to it; arg = the
    transition reaching it first at that value. Returns the value of the last layer's (only) state."""
    neg = NEG
    n = state_off[nsteps + 1]
    for i in range(n):
        val[i] = neg
    val[0] = 0
    for i in range(nsteps):
        base_in = state_off[i]
        base_out = state_off[i + 1]
        for j in range(step_off[i], step_off[i + 1]):
            v = val[base_in + src[j]]
            if v == neg:
                continue
            v += points[j] * scale - lam[kinds[j]]
            d = base_out + dst[j]
            if v > val[d]:
                val[d] = v
                arg[d] = j
    return val[state_off[nsteps]]


class RegionGraph:
    """The layered graph of one region's plantings (squares in row order; `fixed` squares hold a given kind, or
    None for a square that must stay empty)."""

    def __init__(self, catalog: Catalog, garden: Garden, cells: list[Cell], gnome: Cell | None, plan: Plan,
                 fixed: dict[Cell, str | None] | None = None, most: int | None = None):
        """`most`: stop building (and be not `supported`) once more than this many transitions are built; the
        `transitions` built so far stay readable (the work done)."""
        fixed = fixed or {}
        self.kinds = list(catalog.plants)
        code = {t: i + 1 for i, t in enumerate(self.kinds)}
        order = sorted(cells, key=lambda c: (c[1], c[0]))
        pos = {c: i for i, c in enumerate(order)}
        prev_of = [[pos[n] for n in garden.linked(c) if n in pos and pos[n] < i] for i, c in enumerate(order)]
        last = [max([pos[n] for n in garden.linked(c) if n in pos] + [i]) for i, c in enumerate(order)]
        fronts = [[p for p in range(i) if last[p] >= i] for i in range(len(order) + 1)]
        self.width = max((len(f) for f in fronts), default=0)
        self.supported = self.width <= MAX_FRONT
        self.cells = order
        self.nsteps = len(order)
        self.transitions = 0
        if not self.supported:
            return
        gnome_next = set(garden.linked(gnome)) if gnome is not None else set()
        mins = array("q", [0] + [catalog.plants[t].minimum_group_size for t in self.kinds])
        c1, c2 = (code[k] for k in plan.companions)
        per = catalog.scoring.plan_points_per_plant
        self.src, self.dst, self.kind, self.points = array("i"), array("i"), array("b"), array("b")
        step_off, state_off = [0], [0, 1]
        scratch = [array("q", [0] * (MAX_FRONT + 2)) for _ in range(7)]
        keys = [0]
        for i, c in enumerate(order):
            in_front, out_front = fronts[i], fronts[i + 1]
            slot = {p: s for s, p in enumerate(in_front)}
            slot[i] = len(in_front)
            prev = array("q", [slot[p] for p in prev_of[i]])
            out_src = array("q", [slot[p] for p in out_front])
            if c in fixed:
                allowed = array("q", [code[fixed[c]] if fixed[c] is not None else 0])
            else:
                allowed = array("q", range(len(self.kinds) + 1))
            at = len(self.src)
            grow = len(keys) * len(allowed)
            self.src.extend(array("i", [0]) * grow)
            self.dst.extend(array("i", [0]) * grow)
            self.kind.extend(array("b", [0]) * grow)
            self.points.extend(array("b", [0]) * grow)
            keys = _step(keys, {}, len(in_front), prev, len(prev), out_src, len(out_front), allowed, len(allowed),
                         mins, code[plan.border], code[plan.path], c1, c2, per, int(garden.on_border(c)),
                         int(garden.next_to_path(c)), int(c in gnome_next), self.src, self.dst, self.kind,
                         self.points, at, *scratch)
            step_off.append(len(self.src))
            state_off.append(state_off[-1] + len(keys))
            if most is not None and len(self.src) > most:
                self.supported = False
                self.transitions = len(self.src)
                return
        self.step_off = array("q", step_off)
        self.state_off = array("q", state_off)
        self.states = state_off[-1]
        self.transitions = len(self.src)
        self._val = array("q", [0] * self.states)
        self._arg = array("q", [0] * self.states)

    def best(self, lam: list[int], scale: int) -> tuple[int, list[int]]:
        """max over the region's plantings of (points * scale - sum of lam[kind] over its plants), and the number
        of plants of each kind (catalog order) of the first best planting found."""
        prices = array("q", [0] + list(lam))
        value = _best(self.nsteps, self.step_off, self.state_off, self.src, self.dst, self.kind, self.points,
                      prices, scale, self._val, self._arg)
        counts = [0] * len(self.kinds)
        for kind in self._path():
            if kind:
                counts[kind - 1] += 1
        return value, counts

    def _path(self) -> list[int]:
        """The kind codes (0: empty) of the last `best` pass's planting, square by square in `cells` order."""
        out = [0] * self.nsteps
        d = self.states - 1
        for i in range(self.nsteps - 1, -1, -1):
            j = self._arg[d]
            out[i] = self.kind[j]
            d = self.state_off[i] + self.src[j]
        return out

    def planting(self, lam: list[int], scale: int) -> dict[Cell, str]:
        """A best planting of the region at prices `lam` (the one `best` counts): square -> kind."""
        self.best(lam, scale)
        return {c: self.kinds[k - 1] for c, k in zip(self.cells, self._path()) if k}
