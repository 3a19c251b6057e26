"""A Versailles hint's `bound` is capped by the counting bound (valid for any garden of the tiles, on any
board), and a reachable value meeting it is optimal. Before (claims audit, 1 Dec): a search cut short
left its LP bound, 624-644 points for a 5-tile continuation worth 12, and called it only "feasible"."""
from __future__ import annotations

from solver.core.solve import SolveControl
from solver.games.versailles import api
from solver.games.versailles.data import default_catalog
from solver.games.versailles.solo import counting_bound


def test_a_cut_short_hint_reports_the_counting_bound_and_proves_what_meets_it():
    cat = default_catalog()
    control = SolveControl(time_limit_s=60, num_workers=1, deterministic_limit=0.01)  # every search cut short
    out = api.hint([{"tile": 61, "x": 0, "y": 0, "rotation": 0}], 25, upcoming=[70, 72, 55], top=5, control=control)
    ceiling = counting_bound([cat.tiles[t] for t in (61, 25, 70, 72, 55)], cat)
    assert len(out["placements"]) == 5
    for o in out["placements"]:
        assert o["reachable"] <= o["bound"] <= ceiling
        assert (o["status"] == "optimal") == (o["reachable"] == o["bound"])
    assert any(o["status"] == "optimal" for o in out["placements"])  # 12 of 12 here
