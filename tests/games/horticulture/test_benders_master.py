"""The Benders master's search strategy (optimiser.MASTER_BRANCHING): the master searches run with it, and
no_game_reaches gives the exhaustive oracle's answers with it and with CP-SAT's default, on several random
seeds (a search strategy may change the cost, never the answer)."""
from __future__ import annotations

import random

import pytest
from ortools.sat.python import cp_model

from solver.core.solve import SolveControl
from solver.games.horticulture import optimiser as optimiser_module
from solver.games.horticulture.state import Setup

from .helpers import oracle, random_instance, tiny_catalog


@pytest.fixture(scope="module")
def tiny4(tmp_path_factory):
    return tiny_catalog(tmp_path_factory.mktemp("master4x2"), 4, 2)


class Spy(SolveControl):
    """A control that records the search_branching of every search it runs."""

    def __init__(self, random_seed: int):
        super().__init__(time_limit_s=300.0, deterministic_limit=20.0, num_workers=1, random_seed=random_seed)
        self.branchings: list[int] = []

    def solve(self, model, solver=None, callback=None):
        self.branchings.append(solver.parameters.search_branching if solver is not None else None)
        return super().solve(model, solver, callback)


@pytest.mark.parametrize("seed", range(2))
def test_the_master_strategy_keeps_the_oracle_answers(tiny4, seed, monkeypatch):
    nursery, days, plan, drawing, gnome = random_instance(tiny4, random.Random(100 + seed))
    best = oracle(tiny4, Setup("T", drawing, gnome, plan), nursery)
    for branching in (cp_model.LP_SEARCH, None):
        monkeypatch.setattr(optimiser_module, "MASTER_BRANCHING", branching)
        for random_seed in ((0, 1) if branching is not None else (0,)):
            spy = Spy(random_seed)
            above, _, rounds = optimiser_module.no_game_reaches(tiny4, "T", drawing, days, gnome, plan, best + 1,
                                                                spy, 20.0)
            assert above == "none"
            # master searches alternate with pinned checks: master, check, master, ..., master (infeasible)
            masters = spy.branchings[::2]
            assert len(masters) == rounds + 1
            want = branching if branching is not None else cp_model.AUTOMATIC_SEARCH
            assert all(b == want for b in masters)
            assert all(b == cp_model.AUTOMATIC_SEARCH for b in spy.branchings[1::2])  # checks: the default
            at, _, _ = optimiser_module.no_game_reaches(tiny4, "T", drawing, days, gnome, plan, best, Spy(random_seed),
                                                        20.0)
            assert at == "garden"
