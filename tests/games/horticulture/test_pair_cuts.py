"""Lazy connectivity cuts of the count relaxation (model.add_pair_cut, optimiser._connect, CONNECT_SHARE: after every
other step, in its own share of the budget):
(min(t) - 1) x groups of t in a region <= linked pairs there with t on both squares. Held against the exhaustive
oracle (never below the best game), shown to bite on a scattered pair, and tight on a group of exactly min(t)
squares in a line (a cut with min(t) instead of min(t) - 1 would fall below the pure score there)."""
from __future__ import annotations

import random
from dataclasses import dataclass, field

import pytest
from ortools.sat.python import cp_model

from solver.core.solve import SolveControl
from solver.games.horticulture import optimiser as optimiser_module
from solver.games.horticulture.garden import PathDrawing, Plan
from solver.games.horticulture.model import HorticultureModel
from solver.games.horticulture.state import Planting, Setup

from .helpers import (C, S, T, U, control, fixed_game, force_count_first, oracle, pairs, tiny_sheet_fixture,
                      two_day_instance)

CUTS = frozenset({"regions", "reach"})

tiny4 = tiny_sheet_fixture("tiny4", 4)
tiny5 = tiny_sheet_fixture("tiny5", 5)


def count_model(catalog, drawing, days, gnome, plan, every_cut: bool):
    model = HorticultureModel(catalog, "T", drawing, days, gnome, plan, timed=False, groups="count", count_cuts=CUTS)
    if every_cut:
        for r in range(len(model.count_regions)):
            for t in model.types:
                if model.minimum[t] > 1:
                    model.add_pair_cut(t, r)
    return model


def count_value(catalog, drawing, days, gnome, plan, every_cut: bool) -> float:
    model = count_model(catalog, drawing, days, gnome, plan, every_cut)
    status, solver = control().solve(model.m)
    assert status == cp_model.OPTIMAL
    return solver.objective_value


@pytest.mark.parametrize("seed", range(6))
def test_pair_cuts_never_fall_below_the_best_game(tiny4, tiny5, seed):
    """Random 2-3 day games on 4x2 and 5x2 sheets, straight and winding paths: the count relaxation with the
    regions + reach cuts and every pair cut stays at or above the oracle, and at or below it without them;
    the lazy loop from the proven cut relaxation too."""
    rng = random.Random(seed)
    catalog = tiny4 if seed % 2 == 0 else tiny5
    columns = 4 if seed % 2 == 0 else 5
    kinds = [S, U, C, T]
    nursery = rng.sample(sorted(catalog.deck.cards), 6 if columns == 4 else 4)
    plan = Plan(rng.choice(kinds), rng.choice(kinds), (rng.choice(kinds), rng.choice(kinds)))
    drawing = PathDrawing(*rng.choice([(1, "DD"), (2, "DD"), (2, "DRD"), (columns - 1, "DLD")]))
    gnome = (rng.randrange(columns), rng.randrange(2))
    best = oracle(catalog, Setup("T", drawing, gnome, plan), nursery)
    plain = count_value(catalog, drawing, pairs(nursery), gnome, plan, False)
    cut = count_value(catalog, drawing, pairs(nursery), gnome, plan, True)
    assert best <= cut <= plain
    model = count_model(catalog, drawing, pairs(nursery), gnome, plan, False)
    status, solver = control().solve(model.m)
    assert status == cp_model.OPTIMAL
    bound, _ = optimiser_module._connect(model, solver, control(), 10.0)
    assert best <= bound <= plain


def test_a_scattered_pair_is_no_group_and_a_line_of_min_squares_is_one(tiny4):
    """Left of the path from line 2 (a 2x2 region, two topiaries beside them): two turnips on a diagonal are no group, but the count
    relaxation credits one (2 points) and the pair cut takes it away (the pure score); the loop's violation
    list names exactly (turnip, that region). A line of exactly min(t) = 2 turnips, and of 3 carrots round a
    corner, are groups with min(t) - 1 linked pairs: the cut keeps their points (with min(t) x groups it
    would not: 2 <= 1 and 6 <= 2 fail), so the count with every pair cut equals the pure score there."""
    drawing, gnome, plan = PathDrawing(2, "DD"), (3, 1), Plan(T, T, (T, T))
    scattered = [Planting(U, (1, 0)), Planting(T, (1, 1)), Planting(U, (0, 1)), Planting(T, (2, 0))]
    specs, pure = fixed_game(tiny4, drawing, gnome, plan, scattered)
    assert count_value(tiny4, drawing, specs, gnome, plan, False) == pure + 2
    assert count_value(tiny4, drawing, specs, gnome, plan, True) == pure
    model = count_model(tiny4, drawing, specs, gnome, plan, False)
    status, solver = control().solve(model.m)
    assert status == cp_model.OPTIMAL
    left = next(r for r, cells in enumerate(model.count_regions) if model.garden.index[(0, 0)] in cells)
    assert model.pair_violations(solver) == [(U, left)]
    bound, _ = optimiser_module._connect(model, solver, control(), 10.0)
    assert bound == pure
    # CONNECT_BROKEN's limit: one broken cut is within 1 (asked, as above) and over 0 (not asked: the count's
    # value stays, at no cost)
    model = count_model(tiny4, drawing, specs, gnome, plan, False)
    status, solver = control().solve(model.m)
    assert optimiser_module._connect(model, solver, control(), 10.0, broken=0) == (pure + 2, 0.0)
    model = count_model(tiny4, drawing, specs, gnome, plan, False)
    status, solver = control().solve(model.m)
    assert optimiser_module._connect(model, solver, control(), 10.0, broken=1)[0] == pure
    lines = [[Planting(U, (1, 0)), Planting(U, (1, 1))],
             [Planting(C, (1, 0)), Planting(C, (0, 0)), Planting(C, (0, 1)), Planting(T, (2, 0))]]
    for game in lines:
        specs, pure = fixed_game(tiny4, drawing, gnome, plan, game)
        assert pure > 0
        assert count_value(tiny4, drawing, specs, gnome, plan, True) == pure


@pytest.mark.parametrize("seed", [0, 1])
def test_count_first_keeps_its_proven_count_optimum_for_the_loop(tiny4, seed, monkeypatch):
    """The count-first steps forced on a tiny sheet with the cut step: with `keep` they hand out the proven count
    relaxation with cuts (model and solution, proven optimal) and change nothing else (same bound, same gardens);
    the loop from it stays at or above the oracle."""
    force_count_first(monkeypatch)
    nursery, plan, drawing, gnome = two_day_instance(tiny4, seed)
    best = oracle(tiny4, Setup("T", drawing, gnome, plan), nursery)
    runs = []
    for keep in (None, []):
        relaxed = HorticultureModel(tiny4, "T", drawing, pairs(nursery), gnome, plan, timed=False)
        bound, found, cost = optimiser_module._count_first(relaxed, tiny4, "T", drawing, pairs(nursery), gnome, plan,
                                                           control(), 20.0, 10 ** 6, keep=keep)
        runs.append((bound, [g.objective_value for g in found], cost))
    assert runs[0] == runs[1] and runs[0][0] >= best
    (model, solved), = keep
    assert model.count_cuts == CUTS and int(solved.best_objective_bound + 1e-6) == int(solved.objective_value)
    bound, _ = optimiser_module._connect(model, solved, control(), 10.0)
    assert best <= bound <= runs[0][0]


def test_the_loop_s_first_target_and_its_floor(tiny4):
    """The scattered pair (count = pure + 2, pure with the pair cut): a first target above the count's proven
    optimum is capped at it (asked nothing with broken=0: the count's value); a lower first target is asked
    directly; the questions stop at the floor (a known game's score) and not before it."""
    drawing, gnome, plan = PathDrawing(2, "DD"), (3, 1), Plan(T, T, (T, T))
    scattered = [Planting(U, (1, 0)), Planting(T, (1, 1)), Planting(U, (0, 1)), Planting(T, (2, 0))]
    specs, pure = fixed_game(tiny4, drawing, gnome, plan, scattered)

    def connect(**options):
        model = count_model(tiny4, drawing, specs, gnome, plan, False)
        status, solver = control().solve(model.m)
        assert status == cp_model.OPTIMAL and solver.objective_value == pure + 2
        return optimiser_module._connect(model, solver, control(), 10.0, **options)[0]

    assert connect(target=pure + 5, broken=0) == pure + 2
    assert connect(target=pure + 1) == pure
    assert connect(floor=pure) == pure
    assert connect(floor=pure + 1) == pure + 1  # stops once the target meets the floor
    assert connect(target=pure + 1, floor=pure + 1) == pure + 1  # nothing asked


def pair_instance(catalog, columns: int, seed: int):
    """A random 2-3 day game on a columns x 2 sheet (the generator of the oracle test above)."""
    rng = random.Random(seed)
    kinds = [S, U, C, T]
    nursery = rng.sample(sorted(catalog.deck.cards), 6 if columns == 4 else 4)
    plan = Plan(rng.choice(kinds), rng.choice(kinds), (rng.choice(kinds), rng.choice(kinds)))
    drawing = PathDrawing(*rng.choice([(1, "DD"), (2, "DD"), (2, "DRD"), (columns - 1, "DLD")]))
    return nursery, plan, drawing, (rng.randrange(columns), rng.randrange(2))


def no_search(model, control, seconds, rng, known_bound=None, start=None, first_share=0.3):
    """optimiser._search doing nothing (as with no time left): the start stands, with the known bound."""
    return (cp_model.FEASIBLE, start, 0.0, known_bound) if start is not None else \
        (cp_model.UNKNOWN, None, 0.0, known_bound)


@pytest.mark.parametrize("columns,seed,without,with_loop", [(4, 5, 11, 10), (5, 10, 11, 11), (4, 0, 13, 13)])
def test_the_loop_after_every_step_in_solve(tiny4, tiny5, columns, seed, without, with_loop, monkeypatch):
    """solve with the count-first steps forced and both searches doing nothing (so the answer is the count step's
    cards' garden, left unproven at the count bound): with CONNECT_SHARE the loop runs after every other step and
    lowers the bound, never below the oracle. Pinned: 4x2 seed 5 is 10 with bound 11 without the loop and proven
    (10 = the oracle) with it; 5x2 seed 10 keeps 11 (the loop lowers nothing there; its oracle is 10)."""
    force_count_first(monkeypatch)
    monkeypatch.setattr(optimiser_module, "_search", no_search)
    catalog = tiny4 if columns == 4 else tiny5
    nursery, plan, drawing, gnome = pair_instance(catalog, columns, seed)
    best = oracle(catalog, Setup("T", drawing, gnome, plan), nursery)
    answers = []
    for share in (None, 0.1):
        monkeypatch.setattr(optimiser_module, "CONNECT_SHARE", share)
        sol = optimiser_module.solve(catalog, "T", drawing, pairs(nursery), gnome, plan, control(1.0))
        assert sol.score <= best <= sol.bound
        answers.append((sol.score, sol.bound))
    assert answers == [(answers[0][0], without), (answers[0][0], with_loop)]


@dataclass
class Recording(SolveControl):
    """A control that records each CP-SAT call: its deterministic limit, status, objective and time used."""

    calls: list = field(default_factory=list)

    def solve(self, model, solver=None, callback=None):
        status, solver = super().solve(model, solver, callback)
        self.calls.append((solver.parameters.max_deterministic_time, status, solver.objective_value,
                           solver.deterministic_time))
        return status, solver


@pytest.mark.parametrize("columns,seed", [(4, 5), (5, 10)])
def test_the_steps_before_the_loop_are_the_default_run_at_the_smaller_budget(tiny4, tiny5, columns, seed,
                                                                             monkeypatch):
    """With CONNECT_SHARE = e and budget W x (1 + e), every CP-SAT call before the loop is the default run's at W:
    the same deterministic limits, statuses, objectives and work (a version giving the steps the whole budget
    fails on the limits). Work 0.5: the exact re-scoring's own limit (max(1, budget)) is 1 in both runs."""
    force_count_first(monkeypatch)
    catalog = tiny4 if columns == 4 else tiny5
    nursery, plan, drawing, gnome = pair_instance(catalog, columns, seed)
    runs = []
    for share, work in ((None, 0.5), (0.25, 0.625)):
        monkeypatch.setattr(optimiser_module, "CONNECT_SHARE", share)
        recording = Recording(time_limit_s=300.0, deterministic_limit=work, num_workers=1, random_seed=0)
        sol = optimiser_module.solve(catalog, "T", drawing, pairs(nursery), gnome, plan, recording)
        runs.append((recording.calls, sol.score, sol.bound))
    (default, score, bound), (loop, score2, bound2) = runs
    assert loop[:len(default)] == default and score2 == score and bound2 <= bound


def component_model(catalog, drawing, days, gnome, plan):
    model = HorticultureModel(catalog, "T", drawing, days, gnome, plan, timed=False, groups="count", count_cuts=CUTS)
    for r in range(len(model.count_regions)):
        for t in model.types:
            if model.minimum[t] > 1:
                model.add_component_cut(t, r)
    return model


@pytest.mark.parametrize("seed", range(6))
def test_lazy_component_cuts_never_fall_below_the_best_game(tiny4, tiny5, seed):
    """The components cut added per (kind, region) (model.add_component_cut, CONNECT_CUT "components"): the count
    relaxation with it everywhere stays at or above the oracle and at or below the count without it; the loop
    with it (and with both cuts, CONNECT_CUT "both") from the proven cut relaxation too."""
    catalog = tiny4 if seed % 2 == 0 else tiny5
    nursery, plan, drawing, gnome = pair_instance(catalog, 4 if seed % 2 == 0 else 5, seed)
    best = oracle(catalog, Setup("T", drawing, gnome, plan), nursery)
    plain = count_value(catalog, drawing, pairs(nursery), gnome, plan, False)
    status, solver = control().solve(component_model(catalog, drawing, pairs(nursery), gnome, plan).m)
    assert status == cp_model.OPTIMAL and best <= solver.objective_value <= plain
    model = count_model(catalog, drawing, pairs(nursery), gnome, plan, False)
    status, solver = control().solve(model.m)
    bound, _ = optimiser_module._connect(model, solver, control(), 10.0, cut="components")
    assert best <= bound <= plain
    model = count_model(catalog, drawing, pairs(nursery), gnome, plan, False)
    status, solver = control().solve(model.m)
    bound, _ = optimiser_module._connect(model, solver, control(), 10.0, cut="both")
    assert best <= bound <= plain


def test_the_components_cut_on_a_scattered_pair_and_a_block(tiny4):
    """The scattered turnips (count = pure + 2): component_violations names exactly (turnip, that region) and the
    loop with the components cut ends at the pure score. A 2x2 block of carrots (min 3) is one group: the cut keeps
    its points (with every linked pair as the forest, 4 squares - 4 pairs = 0 groups, it would not), and so does
    an L of 3 carrots."""
    drawing, gnome, plan = PathDrawing(2, "DD"), (3, 1), Plan(T, T, (T, T))
    scattered = [Planting(U, (1, 0)), Planting(T, (1, 1)), Planting(U, (0, 1)), Planting(T, (2, 0))]
    specs, pure = fixed_game(tiny4, drawing, gnome, plan, scattered)
    model = count_model(tiny4, drawing, specs, gnome, plan, False)
    status, solver = control().solve(model.m)
    assert status == cp_model.OPTIMAL and solver.objective_value == pure + 2
    left = next(r for r, cells in enumerate(model.count_regions) if model.garden.index[(0, 0)] in cells)
    assert model.component_violations(solver) == [(U, left)]
    assert optimiser_module._connect(model, solver, control(), 10.0, cut="components")[0] == pure
    # "both": the pair and the components cut broken on (turnip, left) count once for the limit
    model = count_model(tiny4, drawing, specs, gnome, plan, False)
    status, solver = control().solve(model.m)
    assert optimiser_module._connect(model, solver, control(), 10.0, cut="both", broken=1)[0] == pure
    block = [Planting(C, (1, 0)), Planting(C, (0, 0)), Planting(C, (0, 1)), Planting(C, (1, 1))]
    corner = [Planting(C, (1, 0)), Planting(C, (0, 0)), Planting(C, (0, 1)), Planting(T, (2, 0))]
    for game in (block, corner):
        specs, pure = fixed_game(tiny4, drawing, gnome, plan, game)
        assert pure > 0
        status, solver = control().solve(component_model(tiny4, drawing, specs, gnome, plan).m)
        assert status == cp_model.OPTIMAL and solver.objective_value == pure
