"""Baseline for bench/gardeners_solvability.py, kept out of the product: the model a new user writes.

One boolean per tile x cell x rotation (no classes of interchangeable tiles), single-commodity flow
for every connectivity card, no counting refutations, no fast path, CP-SAT defaults. The card
encodings are otherwise the product's own, so the ratio measures the modelling choices.
"""
from __future__ import annotations

from contextlib import contextmanager

from ortools.sat.python import cp_model

from solver.core.grid import DIRECTIONS, step
from solver.games.gardeners import encodings
from solver.games.gardeners.model import GardenModel


class NaiveGardenModel(GardenModel):
    """Every (tile, rotation) is its own signature and every tile its own class."""

    def __init__(self, cards, mode, tiles):
        super().__init__(cards, mode, tiles, rotation_free=False)  # no symmetry breaking either
        f = self.features
        self.model = cp_model.CpModel()
        self.sig_of = {(t.id, r): f.signature(t, r) + (t.id, r) for t in self.tiles for r in range(4)}
        self.classes = [[t] for t in self.tiles]
        self.signatures = sorted(set(self.sig_of.values()))
        self.sig_class = {s: [t.id for t in self.tiles].index(s[3]) for s in self.signatures}
        m = self.model
        self.y = {(c, s): m.new_bool_var(f"x{c}_{i}") for c in self.cells for i, s in enumerate(self.signatures)}
        for c in self.cells:
            m.add_exactly_one(self.y[(c, s)] for s in self.signatures)
        for k, t in enumerate(self.tiles):
            m.add_exactly_one(self.y[(c, s)] for c in self.cells for s in self.signatures if s[3] == t.id)
        self._feature_lits = {}


def flow_connected_group(model, cells, allowed, enforce, size=None, roots=None, reach=None, link=None, name="g"):
    """Connected group by single-commodity flow: the root emits one unit per other member."""
    cellset = set(cells)
    n = len(cells)
    z = {c: model.new_bool_var(f"{name}_z{c}") for c in cells}
    root_cells = [c for c in (roots if roots is not None else cells)]
    root = {c: model.new_bool_var(f"{name}_r{c}") for c in root_cells}
    model.add(sum(root.values()) == 1).only_enforce_if(enforce)
    model.add(sum(root.values()) <= 1)
    for c in cells:
        model.add_implication(z[c], allowed[c])
    for c, r in root.items():
        model.add_implication(r, z[c])
    flow = {}
    for c in cells:
        for d in DIRECTIONS:
            x = step(c, d)
            if x not in cellset:
                continue
            lk = link(c, x) if link else None
            if link is not None and lk is None:
                continue
            f = model.new_int_var(0, n, f"{name}_f{c}{d}")
            model.add(f == 0).only_enforce_if(z[c].Not())
            model.add(f == 0).only_enforce_if(z[x].Not())
            if lk is not None:
                model.add(f == 0).only_enforce_if(lk.Not())
            flow[(c, x)] = f
    total = sum(z.values())
    for c in cells:
        out_f = sum(f for (a, _), f in flow.items() if a == c)
        in_f = sum(f for (_, b), f in flow.items() if b == c)
        r = root.get(c)
        if r is not None:
            # the root sends one unit to every other member; every other member keeps one
            model.add(out_f - in_f == total - 1).only_enforce_if(r)
            model.add(in_f - out_f == 1).only_enforce_if([r.Not(), z[c]])
        else:
            model.add(in_f - out_f == 1).only_enforce_if(z[c])
        model.add(in_f == 0).only_enforce_if(z[c].Not())
    if size:
        model.add(total == size).only_enforce_if(enforce)
    if reach is not None:
        model.add_bool_or([z[c] for c in reach if c in cellset]).only_enforce_if(enforce)
    return z


@contextmanager
def naive_encodings():
    saved_group, saved_impossible = encodings.connected_group, encodings.impossible
    encodings.connected_group = flow_connected_group
    encodings.impossible = lambda gm, card: None
    try:
        yield
    finally:
        encodings.connected_group, encodings.impossible = saved_group, saved_impossible


def naive_solve(cards, mode, catalog, time_limit_s: float) -> str:
    with naive_encodings():
        gm = NaiveGardenModel(cards, mode, catalog.tiles_of(mode.tile_sets))
        for card in cards:
            encodings.post(gm, card, gm.model.new_constant(1))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = 0
    solver.parameters.max_time_in_seconds = time_limit_s
    status = solver.solve(gm.model)
    return {cp_model.OPTIMAL: "solvable", cp_model.FEASIBLE: "solvable", cp_model.INFEASIBLE: "unsolvable"}.get(
        status, "unknown")
