"""Plans refuted in bulk through a scoring's choice of types that several plans share
(refute._refute_shared, on by default in raise_or_refute): never a plan some legal garden meets.
A garden meets plan p at value count_p - (its fields of p's types outside their largest areas),
so at any target no plan the garden meets at that value or more may be refuted (checked on every
bulk step), and with points = its value - 1 raise_or_refute proves nothing. Greedy gardens of
5-6 tiles (larger than the oracle's 3, where a rule too strict by one field shows) and the 3-tile
oracle's optimum."""
from __future__ import annotations

import dataclasses
import random

import pytest

from solver.games.versailles import refute
from solver.games.versailles.scoring import solo_checkpoints, solo_points

from ._instances import CAT, IDS, STAGE3, stage3_instance
from .test_model import oracle
from .test_refute import _loss

TWO_STAGE = dataclasses.replace(CAT, setup=dataclasses.replace(CAT.setup, rounds_per_stage=2))


def _no_garden(placements):
    return None


def _spy(monkeypatch, tiles, cat, garden):
    """Wraps _refute_shared: after each bulk step, no plan the garden meets at the target is refuted.
    Returns the list of plans refuted per step."""
    arrangement = {i: (p.x, p.y, p.rotation) for i, p in enumerate(garden)}
    checkpoints = solo_checkpoints(len(tiles), cat)
    steps = []
    real = refute._refute_shared

    def spy(tiles_, catalog, checkpoints_, all_plans, target, refuted, tried, budget, stop, max_loss=0):
        before = set(refuted)
        spent = real(tiles_, catalog, checkpoints_, all_plans, target, refuted, tried, budget, stop, max_loss)
        for i in refuted - before:
            count, chosen = all_plans[i]
            reqs = [(checkpoints[cp][0], t) for cp, types in enumerate(chosen) for t in types]
            assert count - _loss(tiles, cat, arrangement, reqs) < target, (chosen, target)
        steps.append(len(refuted - before))
        return spent

    monkeypatch.setattr(refute, "_refute_shared", spy)
    return steps


@pytest.mark.parametrize("seed", range(6))
def test_plans_a_greedy_garden_meets_are_never_refuted(seed, monkeypatch):
    tiles, garden = stage3_instance(800, seed)
    value = solo_points(garden, STAGE3)
    steps = _spy(monkeypatch, tiles, STAGE3, garden)
    for points in (value - 1, value):
        _, got, bound, _, proved = refute.raise_or_refute(tiles, STAGE3, garden, points, 5_000, accept=_no_garden,
                                                          shared_loss=3)  # also plans that may lose fields
        assert got == points and bound >= value
        assert not proved or points >= value
    assert steps  # the bulk step ran


def test_bulk_refutations_happen():
    # the rule is exercised: 10-tile seed 0 at 42 (4 plans, both choices of both scorings): the
    # intermediate B+W alone is feasible (~3.5k nodes), B+Y alone is not (~700 nodes): 2 plans fall
    tiles = [CAT.tiles[i] for i in random.Random(0).sample(IDS, 10)]
    checkpoints = solo_checkpoints(10, CAT)
    all_plans = refute.plans(tiles, CAT)
    refuted: set[int] = set()
    tried: dict = {}
    refute._refute_shared(tiles, CAT, checkpoints, all_plans, 42, refuted, tried, 20_000, None)
    assert {all_plans[i][1] for i in refuted} == {(("B", "Y"), ("G", "B", "W")), (("B", "Y"), ("G", "B", "Y"))}
    assert tried == {(0, ("B", "W")): 0}


@pytest.mark.parametrize("seed", range(4))
def test_the_oracle_optimum_is_never_refuted(seed, monkeypatch):
    tiles = [TWO_STAGE.tiles[i] for i in random.Random(1000 + seed).sample(IDS, 3)]
    best = oracle(tiles, TWO_STAGE)
    for shared_loss in (0, 3):
        _, _, bound, _, proved = refute.raise_or_refute(tiles, TWO_STAGE, None, best - 1, 10**6, accept=_no_garden,
                                                        shared_loss=shared_loss)
        assert not proved and bound >= best
    # above the optimum every plan is decided (no node limit): all refuted, in bulk or one by one
    _, _, bound, _, proved = refute.raise_or_refute(tiles, TWO_STAGE, None, best, 10**6, accept=_no_garden)
    assert proved and bound == best
