"""The CP-SAT model against the pure scorer on hand-built gardens that hold the shapes the random gardens rarely do.

Each garden is pinned (`test_model.solve_fixed`) and the model's value must be the pure prestige. They come from the
mutation audit of 7 Dec: each test's docstring names the encoding change it catches, which the random pinned gardens
(`test_fixed_random_gardens_score_the_same_in_both_faces`, 5 examples) caught only by chance or not at all.
"""
from __future__ import annotations

from solver.games.gartenbau.garden import Garden, PlacedSeedlingTile
from solver.games.gartenbau.rules import garden_violations, place_flower, place_plant, place_seedling
from solver.games.gartenbau.scoring import holes, identical_pairs, rainbow_sets, score

from .test_model import anything_goes, solve_fixed  # noqa: F401 (the fixture)


def build(catalog, seedlings, flower, bed=(0, 0)) -> Garden:
    """The first starter tile at (0, 0)-(0, 1), then `seedlings` [(id, cells)], two plants upright under the 2x2
    block at `bed` and `flower` on them (the permissive catalog lets any plant lie on any pair of colours)."""
    starter = sorted(catalog.starter_tiles)[0]
    side = sorted(catalog.starter_tiles[starter].sides)[0]
    g = Garden([PlacedSeedlingTile(starter, ((0, 0), (0, 1)), catalog.starter_tiles[starter].sides[side], True,
                                   side)])
    for tid, cells in seedlings:
        g = place_seedling(g, catalog, tid, cells)
    r, c = bed
    first, second = sorted(catalog.plants)[:2]
    g = place_plant(g, catalog, first, ((r, c), (r + 1, c)))
    g = place_plant(g, catalog, second, ((r, c + 1), (r + 1, c + 1)))
    g = place_flower(g, catalog, flower, bed)
    assert garden_violations(g, catalog) == []
    return g


def both_faces(garden, catalog) -> int:
    sol = solve_fixed(garden, catalog)
    assert sol.status == "optimal"
    assert sol.prestige == score(garden).total
    return sol.prestige


def test_empty_spaces_next_to_a_lone_bed_count_off_the_board(anything_goes):
    """Calla Lily alone on its bed: every space around the garden is empty, including those beyond the search
    board's edge (kills counting only on-board spaces as empty: 4 against 50)."""
    g = build(anything_goes, [("S13", ((1, 0), (1, 1)))], "A01-calla-lily")
    assert both_faces(g, anything_goes) == score(g).total >= 40


def test_identical_adjacent_chooses_one_group(anything_goes):
    """Sweet William (A19a) scores one group of identical adjacent seedlings: the model must choose one (kills
    dropping `sum(choose) <= 1`: 12 against 4)."""
    g = build(anything_goes, [("S13", ((1, 0), (1, 1))), ("S01", ((2, 0), (2, 1))), ("S03", ((3, 0), (3, 1)))],
              "A19a-sweet-william")
    both_faces(g, anything_goes)


def test_a_diagonal_pair_around_a_hole_counts_in_the_euler_number(anything_goes):
    """Datura's holes by Gray's bit-quad Euler number: a hole whose neighbours meet at a corner (a diagonal quad)
    counts once (kills the QD term's sign flipped: 4 against 9)."""
    g = build(anything_goes, [("S05", ((0, 2), (0, 3))), ("S07", ((1, 0), (1, 1))), ("S10", ((2, 0), (3, 0))),
                              ("S11", ((3, 1), (3, 2))), ("S12", ((2, 2), (2, 3)))], "B-beetle-datura")
    assert holes(g)
    both_faces(g, anything_goes)


def test_the_largest_rectangle_reaches_the_last_row(anything_goes):
    """A 3 x 2 garden filled to its last row: the largest-rectangle encoding must try rectangles ending there (kills
    `range(1, n - top)`: 8 against 10)."""
    g = build(anything_goes, [("S07", ((1, 0), (1, 1))), ("S03", ((2, 0), (2, 1)))], "A03-datura")
    both_faces(g, anything_goes)


def test_a_seedling_is_counted_in_one_identical_pair_only(anything_goes):
    """Forget-me-not: "each eligible seedling may only be counted once" (kills the matching's `sum(ms) <= 1`
    dropped, a seedling in two pairs: 20 against 18)."""
    g = build(anything_goes, [("S07", ((1, 0), (1, 1))), ("S03", ((2, 0), (2, 1))), ("S39", ((2, 2), (2, 3)))],
              "A11-forget-me-not")
    assert identical_pairs(g) >= 1
    both_faces(g, anything_goes)


def test_rainbow_sets_do_not_share_a_seedling(anything_goes):
    """Garden Rose: a row red, yellow, blue, orange, green, purple, red holds two overlapping six-colour sets but
    only one disjoint one (kills the rainbow sets allowed to overlap: 40 against 28)."""
    g = build(anything_goes, [("S13", ((1, 0), (1, 1))), ("S07", ((2, 0), (2, 1))), ("S09", ((2, 2), (2, 3))),
                              ("S11", ((2, 4), (2, 5))), ("S12", ((2, 7), (2, 6)))], "A13-garden-rose")
    row = [next(s.colour for t in g.tiles for c, s in zip(t.cells, t.seedlings) if c == (2, col)) for col in range(7)]
    assert row == ["red", "yellow", "blue", "orange", "green", "purple", "red"]
    assert rainbow_sets(g, tuple(anything_goes.flowers["A13-garden-rose"].scoring.params["colours"])) == 1
    both_faces(g, anything_goes)


def test_the_model_lays_at_most_six_flowers():
    """A player keeps 6 flowers at most (rules: `hand`); a holding may hold 8 (the 2-player draft), so the model caps
    the flowers it lays at 6, and the checker refuses a 7th (the rules lawyer of 7 Dec). The cap is read from the
    model itself: with 7 flowers held, every assignment laying all 7 breaks one linear constraint over the flowers'
    placed literals; with 6 held there is none."""
    from solver.games.gartenbau.data import load_catalog
    from solver.games.gartenbau.garden import MAX_FLOWERS_LAID
    from solver.games.gartenbau.model import build_model

    cat = load_catalog()
    advanced = sorted(f for f, flower in cat.flowers.items() if flower.level == "advanced")
    starter = cat.starter_tiles["ST1"].sides["a"]

    def caps(n: int) -> list:
        proto = build_model(cat, 4, starter, ["S01"], [], advanced[:n]).model.Proto()
        placed = {i for i, v in enumerate(proto.variables) if v.name.startswith("placed")}
        assert len(placed) == n
        return [list(c.linear.domain)[-1] for c in proto.constraints
                if c.has_linear() and set(c.linear.vars) == placed and len(placed) > 1
                and all(k == 1 for k in c.linear.coeffs)]

    assert MAX_FLOWERS_LAID == 6
    assert caps(7) == [6]
    assert caps(6) == []


def test_the_checker_refuses_a_seventh_flower():
    from solver.games.gartenbau import api
    from solver.games.gartenbau.data import load_catalog

    advanced = sorted(f for f, flower in load_catalog().flowers.items() if flower.level == "advanced")
    garden = {"starter": {"id": "ST1", "side": "a", "cells": [[0, 0], [0, 1]]},
              "flowers": [{"id": f, "at": [2 * i, 0]} for i, f in enumerate(advanced[:7])]}
    assert [v["rule"] for v in api.validate(garden)["violations"]].count("hand") == 1
    garden["flowers"] = garden["flowers"][:6]  # (the beds are still missing: other rules, not `hand`)
    assert "hand" not in [v["rule"] for v in api.validate(garden)["violations"]]
