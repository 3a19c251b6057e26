"""The hybrid relaxation (model.make_exact, model.over_credited, optimiser._connect with cut="exact"): the exact witness
group encoding for only the (kind, region) pairs a count optimum over-credits, the count encoding for the rest.
Held against the exhaustive oracle (never below the best game), against the exact final-garden model (with every
pair exact it is that model's value; the lazy loop ends there), and on fixed gardens of every group shape on a
2x2 region (a line, an L, a block, a scattered pair, two kinds side by side, a group beside the gnome), where an
encoding that forbade a legal group shape or merged two groups would fall below the pure score."""
from __future__ import annotations

import random

import pytest
from ortools.sat.python import cp_model

from solver.games.horticulture import optimiser as optimiser_module
from solver.games.horticulture.garden import PathDrawing, Plan
from solver.games.horticulture.model import HorticultureModel
from solver.games.horticulture.state import Planting, Setup

from .helpers import C, S, T, U, control, fixed_game, oracle, pairs, tiny_sheet_fixture

CUTS = frozenset({"regions", "reach"})

tiny4 = tiny_sheet_fixture("tiny4", 4)
tiny5 = tiny_sheet_fixture("tiny5", 5)


def random_game(catalog, columns: int, seed: int):
    """A random 3-day game (6 cards) on a columns x 2 sheet, straight or winding path, random plan and gnome."""
    rng = random.Random(seed)
    kinds = [S, U, C, T]
    nursery = rng.sample(sorted(catalog.deck.cards), 6)
    plan = Plan(rng.choice(kinds), rng.choice(kinds), (rng.choice(kinds), rng.choice(kinds)))
    drawing = PathDrawing(*rng.choice([(1, "DD"), (2, "DD"), (2, "DRD"), (columns - 1, "DLD")]))
    return nursery, plan, drawing, (rng.randrange(columns), rng.randrange(2))


def count_model(catalog, drawing, days, gnome, plan, exact: bool = False) -> HorticultureModel:
    model = HorticultureModel(catalog, "T", drawing, days, gnome, plan, timed=False, groups="count", count_cuts=CUTS)
    if exact:
        for r in range(len(model.count_regions)):
            for t in model.types:
                model.make_exact(t, r)
    return model


def value(model: HorticultureModel):
    status, solver = control().solve(model.m)
    assert status == cp_model.OPTIMAL
    return int(round(solver.objective_value)), solver


# (columns, seed, count optimum, exact final-garden optimum): instances where the count relaxation over-credits
@pytest.mark.parametrize("columns,seed,counted,exact", [(4, 1, 13, 12), (4, 10, 18, 17), (5, 19, 22, 19),
                                                        (5, 28, 18, 16)])
def test_the_hybrid_between_the_oracle_and_the_count(tiny4, tiny5, columns, seed, counted, exact):
    """With every (kind, region) pair exact the hybrid is the exact final-garden model's value (below the count's);
    the lazy loop from the proven count optimum ends exactly there, having made exact only pairs the solutions
    over-credited; on the 4x2 sheet the oracle (every legal game) is at or below it."""
    catalog = tiny4 if columns == 4 else tiny5
    nursery, plan, drawing, gnome = random_game(catalog, columns, seed)
    days = pairs(nursery)
    assert value(count_model(catalog, drawing, days, gnome, plan))[0] == counted
    assert value(HorticultureModel(catalog, "T", drawing, days, gnome, plan, timed=False, groups="exact"))[0] == exact
    assert value(count_model(catalog, drawing, days, gnome, plan, exact=True))[0] == exact
    model = count_model(catalog, drawing, days, gnome, plan)
    _, solved = value(model)
    first = model.over_credited(solved)
    assert first and set(model.pair_violations(solved)) <= set(first)
    bound, cost = optimiser_module._connect(model, solved, control(), 10.0, cut="exact")
    assert bound == exact and 0 < cost < 10.0
    assert set(first) <= set(model.exact_pairs) and len(model.exact_pairs) < len(model.count_regions) * len(model.types)
    if columns == 4:
        assert oracle(catalog, Setup("T", drawing, gnome, plan), nursery) <= exact


def two_by_two(catalog, plantings, gnome=(3, 1)):
    """Path from line 2 on the 4x2 sheet: the left region is the 2x2 block of columns 0-1. Returns (count model,
    every pair exact model, pure score, index of the left region)."""
    drawing, plan = PathDrawing(2, "DD"), Plan(S, S, (S, S))
    specs, pure = fixed_game(catalog, drawing, gnome, plan, plantings)
    model = count_model(catalog, drawing, specs, gnome, plan)
    left = next(r for r, cells in enumerate(model.count_regions) if model.garden.index[(0, 0)] in cells)
    return model, count_model(catalog, drawing, specs, gnome, plan, exact=True), pure, left


@pytest.mark.parametrize("name,plantings,over", [
    ("line of 2 turnips", [Planting(U, (1, 0)), Planting(U, (1, 1))], 0),
    ("L of 3 carrots", [Planting(C, (1, 0)), Planting(C, (0, 0)), Planting(C, (0, 1)), Planting(S, (2, 0))], 0),
    ("block of 4 turnips", [Planting(U, (1, 0)), Planting(U, (1, 1)), Planting(U, (0, 0)), Planting(U, (0, 1))], 2),
    ("turnips and topiaries side by side", [Planting(U, (1, 0)), Planting(T, (1, 1)), Planting(U, (0, 0)),
                                            Planting(T, (0, 1))], 1),
    ("scattered turnips", [Planting(U, (1, 0)), Planting(T, (1, 1)), Planting(U, (0, 1)), Planting(T, (2, 0))], 2),
])
def test_fixed_gardens_every_pair_exact_is_the_pure_score(tiny4, name, plantings, over):
    """Every group shape of a 2x2 region: the hybrid with every pair exact equals the pure score (an encoding
    forbidding an L or a block, or tying labels across kinds, would fall below it); the count relaxation
    over-credits by `over` points (a block of 4 turnips as 2 groups, two linked topiaries as 2, a diagonal pair
    as 1), and then over_credited names the left region's kinds and the lazy loop ends at the pure score."""
    model, exact, pure, left = two_by_two(tiny4, plantings)
    assert pure > 0 and value(exact)[0] == pure
    counted, solved = value(model)
    assert counted == pure + over
    named = model.over_credited(solved)
    assert bool(named) == bool(over) and all(r == left for _, r in named)
    assert optimiser_module._connect(model, solved, control(), 10.0, cut="exact")[0] == pure


def test_the_gnome_repeats_only_exact_groups(tiny4):
    """The gnome at (3, 1) (right region (2, 0), (3, 0), (2, 1)): two turnips on a diagonal of that region, both
    beside the gnome, are no group, yet the count credits a group and its repeat (4 points); making (turnip, right)
    exact takes both away (the repeat through the witnesses beside the gnome). A pair of turnips down column 2 is a
    group beside the gnome: 2 + 2 kept with every pair exact."""
    drawing, plan, gnome = PathDrawing(2, "DD"), Plan(S, S, (S, S)), (3, 1)
    diagonal = [Planting(U, (2, 1)), Planting(T, (1, 1)), Planting(U, (3, 0)), Planting(S, (1, 0))]
    specs, pure = fixed_game(tiny4, drawing, gnome, plan, diagonal)
    model = count_model(tiny4, drawing, specs, gnome, plan)
    right = next(r for r, cells in enumerate(model.count_regions) if model.garden.index[(3, 0)] in cells)
    counted, solved = value(model)
    assert counted == pure + 4 and model.over_credited(solved) == [(U, right)]
    model.make_exact(U, right)
    assert value(model)[0] == pure
    column = [Planting(U, (2, 1)), Planting(U, (2, 0))]
    specs, pure = fixed_game(tiny4, drawing, gnome, plan, column)
    assert value(count_model(tiny4, drawing, specs, gnome, plan, exact=True))[0] == pure
    assert pure >= 4  # the group (2) and its repeat (2)
