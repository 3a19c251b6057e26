"""Versailles hints with upcoming tiles: the reachable points held against an exhaustive oracle."""
from __future__ import annotations

import pytest

from solver.core.solve import SolveControl
from solver.games.versailles import api
from solver.games.versailles.data import default_catalog
from solver.games.versailles.rules import Placement, build_garden, legal_placements, placed_fields
from solver.games.versailles.scoring import area_points, largest_areas, solo_checkpoints, solo_points


def best_continuation(garden: list[Placement], upcoming: list[int]) -> int:
    """Every legal placement of every upcoming tile, in order: the best solo points.

    Each continuation's solo points as `solo_points` counts them (its scorings: the area points of the fields
    placed by then), a scoring that falls within `garden` counted once for every continuation, and each placement
    legal by construction (`legal_placements`) rather than replayed; the best continuation is then scored by
    `solo_points` itself, which must agree. (Until 7 Dec every continuation was replayed and scored whole: the
    same answers, 3 times the time.)"""
    cat = default_catalog()
    if not upcoming:
        return solo_points(garden, cat)
    n = len(garden) + len(upcoming)
    scorings = dict(solo_checkpoints(n, cat))  # tiles placed -> areas scored
    fields: dict = {}
    banked = 0
    for i, p in enumerate(garden):
        fields.update(placed_fields(cat.tiles[p.tile], p))
        if i + 1 in scorings:
            banked += area_points(largest_areas(fields, cat), cat, scorings[i + 1])

    def best(fields: dict, placed: int) -> tuple[int, list[Placement]]:
        """The best points the scorings after `placed` tiles add, and the placements that reach them."""
        if placed == n:
            return 0, []
        top, line = -1, []
        for p in legal_placements(fields, cat.tiles[upcoming[placed - len(garden)]]):
            after = {**fields, **placed_fields(cat.tiles[p.tile], p)}
            gain = area_points(largest_areas(after, cat), cat, scorings[placed + 1]) if placed + 1 in scorings else 0
            rest, then = best(after, placed + 1)
            if gain + rest > top:
                top, line = gain + rest, [p] + then
        return top, line

    value, line = best(fields, len(garden))
    assert solo_points(garden + line, cat) == banked + value
    return banked + value


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
        assert o["status"] == "optimal" and o["optimal_on_any_board"]  # (up to 3 upcoming: every continuation fits)
        here = Placement(next_tile, o["x"], o["y"], o["rotation"])
        assert o["reachable"] == o["bound"] == best_continuation(fixed + [here], upcoming)
        reachable.append(o["reachable"])
        # the garden that reaches it, placed in order, is legal at every turn and scores it
        whole = fixed + [here] + [Placement(p["tile"], p["x"], p["y"], p["rotation"]) for p in o["continuation"]]
        assert [p["tile"] for p in o["continuation"]] == upcoming
        build_garden(default_catalog().tiles, whole)
        assert solo_points(whole, default_catalog()) == o["reachable"]
    assert reachable == sorted(reachable, reverse=True)
    # with one upcoming tile every placement is re-ranked: the first option reaches the best of the whole sequence
    # (only the best 5 by points now were, and the docs' example recommended 7 where 8 was reachable)
    assert reachable[0] == best_continuation(fixed, [next_tile] + upcoming)
    assert len({(o["x"], o["y"], o["rotation"]) for o in out["placements"]}) == 5  # five different placements


def test_the_docs_example_hint_recommends_a_placement_that_reaches_the_best():
    """docs/games-service.md's Hint: tile 7 then tile 9 after tiles 4 and 5. Every option returned reached 7; a
    placement worth 5 now reaches 8 (Validate and Score agree, and so does every continuation tried)."""
    garden = [{"tile": 4, "x": 0, "y": 0}, {"tile": 5, "x": 2, "y": 0}]
    out = api.hint(garden, 7, upcoming=[9], top=2, control=SolveControl(time_limit_s=60, deterministic_limit=5))
    fixed = [Placement(p["tile"], p["x"], p["y"], 0) for p in garden]
    assert best_continuation(fixed, [7, 9]) == 8
    assert [o["reachable"] for o in out["placements"]] == [8, 8]


def test_a_deterministic_hint_gives_the_same_ranking_twice():
    control = lambda: SolveControl(time_limit_s=60, num_workers=1, deterministic_limit=1)  # noqa: E731
    garden = [{"tile": 4, "x": 0, "y": 0}]
    a = api.hint(garden, 5, upcoming=[7, 9], top=3, control=control())
    b = api.hint(garden, 5, upcoming=[7, 9], top=3, control=control())
    assert a == b
    # the CP-SAT path's continuations: legal at every turn, worth the option's reachable
    for o in a["placements"]:
        whole = [Placement(4, 0, 0, 0), Placement(5, o["x"], o["y"], o["rotation"])] + \
            [Placement(p["tile"], p["x"], p["y"], p["rotation"]) for p in o["continuation"]]
        assert [p.tile for p in whole] == [4, 5, 7, 9]
        build_garden(default_catalog().tiles, whole)
        assert solo_points(whole, default_catalog()) == o["reachable"]


def test_with_four_upcoming_tiles_optimal_on_any_board_needs_the_counting_bound():
    """With more than 3 upcoming tiles a continuation may leave the searched board (room for 3 tiles
    in a line on every side), so an option's OPTIMAL holds on any board only when its garden meets
    the counting bound (valid on any board); here both options do."""
    from solver.games.versailles.solo import counting_bound
    cat = default_catalog()
    sequence = [8, 12, 11, 47, 22, 40]
    control = SolveControl(time_limit_s=60, num_workers=1, deterministic_limit=10)
    out = api.hint([{"tile": 8, "x": 0, "y": 0}], 12, upcoming=sequence[2:], top=2, control=control)
    ceiling = counting_bound([cat.tiles[i] for i in sequence], cat)
    assert out["placements"]
    for o in out["placements"]:
        assert o["optimal_on_any_board"] == (o["status"] == "optimal" and o["reachable"] == ceiling)
    assert any(o["optimal_on_any_board"] for o in out["placements"])
