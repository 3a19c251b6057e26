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

from .helpers import oracle, random_instance, record_class_models, tiny_catalog


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


@pytest.mark.parametrize("seed", range(2))  # the instances of the test below and test_count_cuts (one oracle each)
def test_the_master_strategy_keeps_the_oracle_answers(tiny4, seed, monkeypatch):
    nursery, days, plan, drawing, gnome = random_instance(tiny4, random.Random(seed))
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


@pytest.mark.parametrize("seed", [0, 1, 3])  # test_count_cuts's instances (their oracle is asked once)
def test_the_master_over_classes_and_over_squares_give_the_oracle_answers(tiny4, seed, monkeypatch):
    """optimiser.CLASS_MASTER: with the gnome and the plan given and the cuts the class model has, the master is
    classcount.ClassCountModel; either master proves that no game beats the oracle and finds a garden at it, with
    the card no-good and with the card + dominance one. Other cuts keep the square-level master."""
    nursery, days, plan, drawing, gnome = random_instance(tiny4, random.Random(seed))
    best = oracle(tiny4, Setup("T", drawing, gnome, plan), nursery)
    built = record_class_models(monkeypatch)
    for by_class in (True, False):
        monkeypatch.setattr(optimiser_module, "CLASS_MASTER", by_class)
        for cut in ("card", "both"):
            built.clear()
            control = SolveControl(time_limit_s=300.0, deterministic_limit=20.0, num_workers=1, random_seed=0)
            above = optimiser_module.no_game_reaches(tiny4, "T", drawing, days, gnome, plan, best + 1, control,
                                                     20.0, cut=cut)[0]
            at = optimiser_module.no_game_reaches(tiny4, "T", drawing, days, gnome, plan, best, control, 20.0,
                                                  cut=cut)[0]
            assert (above, at) == ("none", "garden")
            assert len(built) == (2 if by_class else 0)
    built.clear()
    monkeypatch.setattr(optimiser_module, "CLASS_MASTER", True)
    control = SolveControl(time_limit_s=300.0, deterministic_limit=20.0, num_workers=1, random_seed=0)
    assert optimiser_module.no_game_reaches(tiny4, "T", drawing, days, gnome, plan, best + 1, control, 20.0,
                                            cuts=frozenset({"regions"}))[0] == "none"
    assert not built
