"""Versailles hints with upcoming tiles: the reachable points held against an exhaustive oracle."""
from __future__ import annotations

import pytest

from solver.core.solve import SolveControl
from solver.games.versailles import api
from solver.games.versailles.data import default_catalog
from solver.games.versailles.rules import Placement, legal_placements, placed_fields
from solver.games.versailles.scoring import solo_points


def best_continuation(garden: list[Placement], upcoming: list[int]) -> int:
    """Every legal placement of every upcoming tile, in order: the best solo points."""
    cat = default_catalog()
    if not upcoming:
        return solo_points(garden, cat)
    fields = {}
    for p in garden:
        fields.update(placed_fields(cat.tiles[p.tile], p))
    return max(best_continuation(garden + [p], upcoming[1:]) for p in legal_placements(fields, cat.tiles[upcoming[0]]))


@pytest.mark.parametrize("garden, next_tile, upcoming", [
    ([{"tile": 3, "x": 0, "y": 0}], 8, [10]),  # GR/YW, then YY/RG, then GR/GC
    ([{"tile": 1, "x": 0, "y": 0}, {"tile": 9, "x": 2, "y": 0}], 11, [7]),  # W and B tiles, then BR/BW
])
def test_reachable_points_are_the_best_continuation(garden, next_tile, upcoming):
    control = SolveControl(time_limit_s=60, num_workers=1, deterministic_limit=60)
    out = api.hint(garden, next_tile, upcoming=upcoming, top=5, control=control)
    assert len(out["placements"]) == 5
    fixed = [Placement(p["tile"], p["x"], p["y"], p.get("rotation", 0)) for p in garden]
    reachable = []
    for o in out["placements"]:
        assert o["status"] == "optimal"
        here = Placement(next_tile, o["x"], o["y"], o["rotation"])
        assert o["reachable"] == o["bound"] == best_continuation(fixed + [here], upcoming)
        reachable.append(o["reachable"])
    assert reachable == sorted(reachable, reverse=True)
    assert len(set(reachable)) > 1  # the candidates differ: each search kept its own placement


def test_a_deterministic_hint_gives_the_same_ranking_twice():
    control = lambda: SolveControl(time_limit_s=60, num_workers=1, deterministic_limit=1)  # noqa: E731
    garden = [{"tile": 4, "x": 0, "y": 0}]
    a = api.hint(garden, 5, upcoming=[7, 9], top=3, control=control())
    b = api.hint(garden, 5, upcoming=[7, 9], top=3, control=control())
    assert a == b
