"""Day-prefix cuts of the final-garden relaxation (model.PREFIX_DAYS, HorticultureModel._prefix_days).

Validity: every legal game's final garden satisfies them (random legal games re-scored with them on, and the
exhaustive oracle never above the relaxed optimum); and they bite: a garden the plain relaxation takes is cut off.
"""
import random

import pytest
from hypothesis import settings, given, strategies as st
from ortools.sat.python import cp_model

from solver.core.solve import SolveControl
from solver.games.horticulture import model as model_module
from solver.games.horticulture.garden import PathDrawing, Plan
from solver.games.horticulture.model import DaySpec, HorticultureModel
from solver.games.horticulture.optimiser import _exact_score
from solver.games.horticulture.rules import replay
from solver.games.horticulture.scoring import score_sheet
from solver.games.horticulture.state import WINDOW, Setup

from .helpers import C, S, T, U, oracle, tiny_catalog
from .test_model import CAT, PLANTS, random_game


def control(work=20.0):
    return SolveControl(time_limit_s=300.0, deterministic_limit=work, num_workers=1, random_seed=0)


@pytest.fixture(scope="module")
def tiny4(tmp_path_factory):
    return tiny_catalog(tmp_path_factory.mktemp("tiny4x2p"), 4, 2)


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10 ** 6), days=st.integers(4, 16),
       drawing=st.sampled_from([PathDrawing(3, "DDDDDDD"), PathDrawing(1, "DRRDDLDDDD")]))
def test_every_legal_game_satisfies_the_day_prefix_cuts(seed, days, drawing):
    """A random legal game, pinned in the untimed model with a prefix after every day, is feasible and scores
    as the pure scorer (infeasible would raise ModelMismatch: the cut would have removed a legal game)."""
    rng = random.Random(seed)
    gnome = (rng.randrange(6), rng.randrange(7))
    plan = Plan(rng.choice(PLANTS), rng.choice(PLANTS), (rng.choice(PLANTS), rng.choice(PLANTS)))
    setup = Setup("A", drawing, gnome, plan)
    game = random_game(rng, setup, days)
    sheet, violations = replay(CAT, setup, game)
    assert violations == []
    old = model_module.PREFIX_DAYS
    try:
        model_module.PREFIX_DAYS = 1
        assert _exact_score(CAT, "A", drawing, game, gnome, plan, control(), groups="exact") \
            == score_sheet(CAT, sheet).total
    finally:
        model_module.PREFIX_DAYS = old


def _relaxed_value(catalog, drawing, nursery, gnome, plan, prefix, monkeypatch):
    monkeypatch.setattr(model_module, "PREFIX_DAYS", prefix)
    days = [DaySpec((nursery[i], nursery[i + 1])) for i in range(0, len(nursery), 2)]
    model = HorticultureModel(catalog, "T", drawing, days, gnome, plan, timed=False)
    status, solver = control().solve(model.m)
    assert status == cp_model.OPTIMAL
    return solver.objective_value


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_relaxation_with_day_prefixes_never_falls_below_the_oracle(tiny4, seed, monkeypatch):
    rng = random.Random(seed)
    nursery = rng.sample(sorted(tiny4.deck.cards), 4)
    kinds = [S, U, C, T]
    plan = Plan(rng.choice(kinds), rng.choice(kinds), (rng.choice(kinds), rng.choice(kinds)))
    drawing = PathDrawing(*rng.choice([(1, "DD"), (2, "DD"), (2, "DRD")]))
    gnome = (rng.randrange(4), rng.randrange(2))
    best = oracle(tiny4, Setup("T", drawing, gnome, plan), nursery)
    plain = _relaxed_value(tiny4, drawing, nursery, gnome, plan, None, monkeypatch)
    cut = _relaxed_value(tiny4, drawing, nursery, gnome, plan, 1, monkeypatch)
    assert plain >= cut >= best


@pytest.mark.parametrize("prefix", [None, 1])
def test_a_garden_whose_early_plant_has_no_early_lean_is_cut_off(tiny4, prefix, monkeypatch):
    """Day 0 brings topiary + turnip, day 1 carrot + sweet potato. The garden topiary at (3, 0) far from the path,
    carrot at (2, 0), sweet potato at (1, 0) by the path, turnip at (0, 0): the plain relaxation orders the squares
    sweet potato, carrot, topiary; no real game plants it (the topiary comes on day 0, when (2, 0) is still empty),
    and the day-prefix cut sees it (the squares planted before day 1 hold the topiary, so also its lean, a carrot)."""
    monkeypatch.setattr(model_module, "PREFIX_DAYS", prefix)
    drawing, gnome, plan = PathDrawing(1, "DD"), (0, 1), Plan(S, U, (T, C))
    days = [DaySpec((1,)), DaySpec((19,))]
    assert [tiny4.card(c).plants for c in (1, 19)] == [(T, U), (C, S)]
    garden = {(3, 0): T, (2, 0): C, (1, 0): S, (0, 0): U}
    expected = {None: cp_model.OPTIMAL, 1: cp_model.INFEASIBLE}[prefix]
    relaxed = HorticultureModel(tiny4, "T", drawing, days, gnome, plan, timed=False)
    relaxed.fix_final(garden, [], [1, 19], gnome, plan)
    assert control().solve(relaxed.m)[0] == expected
    timed = HorticultureModel(tiny4, "T", drawing, days, gnome, plan)  # the rules agree: no planting exists
    timed.fix_final(garden, [], [1, 19], gnome, plan)
    assert control().solve(timed.m)[0] == cp_model.INFEASIBLE
