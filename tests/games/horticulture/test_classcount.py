"""The count relaxation over classes of squares (classcount.ClassCountModel): the same optimum as the square-level
count relaxation with the regions + reach cuts, never below the best game (exhaustive oracle), every real game a
solution of it, played days kept, and in the optimiser the bound of the count step."""
from __future__ import annotations

import random

import pytest
from ortools.sat.python import cp_model

from solver.games.horticulture import optimiser
from solver.games.horticulture.classcount import ClassCountModel
from solver.games.horticulture.data import default_catalog
from solver.games.horticulture.garden import PathDrawing, Plan
from solver.games.horticulture.model import DaySpec, HorticultureModel
from solver.games.horticulture.rules import replay
from solver.games.horticulture.schedule import play_greedy
from solver.games.horticulture.scoring import score_sheet
from solver.games.horticulture.state import WINDOW, Planting, Setup

from .helpers import (C, S, T, U, control, oracle, pairs, proven_optimum, record_class_models,
                      tiny_sheet_fixture)

tiny4 = tiny_sheet_fixture("tiny4", 4)
tiny5 = tiny_sheet_fixture("tiny5", 5)
CAT = default_catalog()


def _square_level(catalog, side, drawing, days, gnome, plan) -> float:
    return proven_optimum(HorticultureModel(catalog, side, drawing, days, gnome, plan, timed=False, groups="count",
                                            count_cuts=optimiser.BOUND_CUTS))


# (seeds 2 and 8, 3-day games with a wild on the last day, were dropped on 7 Dec: two thirds of the oracle's time,
# and every mutant of the class model tried that they caught, the others caught too; seed 4 keeps a wild, the
# only seed to catch a wild read as a fixed kind)
@pytest.mark.parametrize("seed", [0, 1, 3, 4, 5, 6, 7, 9])
def test_the_classes_give_the_square_level_optimum_and_never_fall_below_the_best_game(tiny4, tiny5, seed):
    """Tiny sheets, straight and winding paths, random plans (companions of one kind or two) and gnomes."""
    rng = random.Random(seed)
    catalog, columns = (tiny4, 4) if seed % 2 == 0 else (tiny5, 5)
    kinds = [S, U, C, T]
    nursery = rng.sample(sorted(catalog.deck.cards), 6 if columns == 4 else 4)
    plan = Plan(rng.choice(kinds), rng.choice(kinds), (rng.choice(kinds), rng.choice(kinds)))
    drawing = PathDrawing(*rng.choice([(1, "DD"), (2, "DD"), (2, "DRD"), (columns - 1, "DLD")]))
    gnome = (rng.randrange(columns), rng.randrange(2))
    best = oracle(catalog, Setup("T", drawing, gnome, plan), nursery)
    days = pairs(nursery)
    classes = proven_optimum(ClassCountModel(catalog, "T", drawing, days, gnome, plan))
    assert best <= classes == _square_level(catalog, "T", drawing, days, gnome, plan)


def _instance(seed: int, cards: int):
    rng = random.Random(seed)
    nursery = rng.sample(sorted(CAT.deck.cards), cards)
    plants = list(CAT.plants)
    plan = Plan(rng.choice(plants), rng.choice(plants), (rng.choice(plants), rng.choice(plants)))
    gnome = (rng.randrange(6), rng.randrange(7))
    drawing = rng.choice([PathDrawing.straight(CAT.sheet("A")), PathDrawing(2, "DRDDDLDDD"), PathDrawing(4, "DDLDDRDDD")])
    return [DaySpec((nursery[i], nursery[i + 1])) for i in range(0, cards, 2)], gnome, plan, drawing


@pytest.mark.parametrize("seed", range(6))
def test_every_real_game_is_a_solution_scoring_at_least_its_points(seed):
    """The greedy player's game pinned (cards, kinds, box, class counts, companion squares): feasible, and the
    relaxation's best for it is at least the pure score."""
    days, gnome, plan, drawing = _instance(seed, 16)
    setup = Setup("A", drawing, gnome, plan)
    game = play_greedy(CAT, setup, [d.options for d in days])
    points = score_sheet(CAT, replay(CAT, setup, game)[0]).total
    model = ClassCountModel(CAT, "A", drawing, days, gnome, plan)
    for var, value in model.assignment(game, gnome, plan):
        model.m.add(var == value)
    assert proven_optimum(model) >= points


@pytest.mark.parametrize("seed", range(3))
def test_the_same_optimum_as_the_square_level_relaxation_on_eight_card_sheets(seed):
    days, gnome, plan, drawing = _instance(seed, 8)
    assert proven_optimum(ClassCountModel(CAT, "A", drawing, days, gnome, plan)) == \
        _square_level(CAT, "A", drawing, days, gnome, plan)


def test_played_days_are_kept(tiny4):
    """A played day's plants stay where they are: its optimum is the square-level one with the same day played,
    and the played window-box plant cannot leave the box."""
    nursery, drawing, gnome = [4, 6, 53, 24, 11, 48], PathDrawing(2, "DD"), (3, 1)
    plan = Plan(T, C, (U, S))
    a, b = (T if p == tiny4.wild else p for p in tiny4.card(nursery[0]).plants)
    fixed = (Planting(a, (0, 0)), Planting(b, WINDOW))
    days = [DaySpec((nursery[0],), fixed)] + pairs(nursery)[1:]
    assert proven_optimum(ClassCountModel(tiny4, "T", drawing, days, gnome, plan)) == \
        _square_level(tiny4, "T", drawing, days, gnome, plan)
    wrong = ClassCountModel(tiny4, "T", drawing, days, gnome, plan)
    wrong.m.add(wrong.box[b] == 0)
    status, _ = control().solve(wrong.m)
    assert status == cp_model.INFEASIBLE


def test_it_needs_the_gnome_and_the_plan(tiny4):
    with pytest.raises(ValueError):
        ClassCountModel(tiny4, "T", PathDrawing(2, "DD"), pairs([4, 6]), None, Plan(T, C, (U, S)))


def test_the_optimiser_counts_over_classes_only_with_the_gnome_and_the_plan_given(monkeypatch):
    """A 24-card game (a count step runs) at 2 units: the count step is the class relaxation, and the answer's
    bound is at most its proven bound; the best-plan question (gnome and plan decisions) keeps the squares."""
    days, gnome, plan, drawing = _instance(1, 24)
    built, bounds = record_class_models(monkeypatch), []
    real_solve = optimiser.SolveControl.solve

    def solve(self, model, *args, **kwargs):
        status, solver = real_solve(self, model, *args, **kwargs)
        if built and model is built[-1].m and status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            bounds.append(int(solver.best_objective_bound + 1e-6))
        return status, solver

    monkeypatch.setattr(optimiser.SolveControl, "solve", solve)
    answer = optimiser.solve(CAT, "A", drawing, days, gnome, plan, control(work=2.0))
    assert len(built) == 1 and bounds and answer.score <= answer.bound <= bounds[0]
    built.clear()
    optimiser.solve(CAT, "A", drawing, days, None, None, control(work=1.0))
    assert not built


def test_an_unproven_class_count_step_runs_again_with_the_retry_branching(monkeypatch):
    """optimiser.CLASS_RETRY: when the class count step is not proven in its share (here a tiny one), it runs
    again from its best solution with the retry branching; the answer's bound is at most both runs' bounds.
    Without a retry the step runs once."""
    days, gnome, plan, drawing = _instance(1, 24)
    monkeypatch.setattr(optimiser, "COUNT_SHARE", 0.01)
    built, runs = record_class_models(monkeypatch), []
    real_solve = optimiser.SolveControl.solve

    def solve(self, model, solver=None, callback=None):
        status, result = real_solve(self, model, solver, callback)
        if built and model is built[0].m:
            runs.append((solver.parameters.search_branching, len(model.model_proto.solution_hint.vars) > 0,
                         status, int(result.best_objective_bound + 1e-6)))
        return status, result

    monkeypatch.setattr(optimiser.SolveControl, "solve", solve)
    for retry in (cp_model.LP_SEARCH, None):
        monkeypatch.setattr(optimiser, "CLASS_RETRY", retry)
        built.clear()
        runs.clear()
        answer = optimiser.solve(CAT, "A", drawing, days, gnome, plan, control(work=3.0))
        assert runs and runs[0][2] == cp_model.FEASIBLE  # the first run is not proven in 0.03 units
        if retry is None:
            assert len(runs) == 1
        else:
            assert len(runs) == 2 and runs[1][:2] == (retry, True)
        assert answer.score <= answer.bound <= min(r[3] for r in runs)
