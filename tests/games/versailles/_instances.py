"""Random instances shared by the refutation tests: small two-scoring sequences and a greedy garden
of each (a legal garden, so every loss it meets is a witness no sound rule may refute), and the
witness checks the rule tests share."""
from __future__ import annotations

import dataclasses
import random

from solver.games.versailles.data import default_catalog
from solver.games.versailles.heuristic import greedy_garden
from solver.games.versailles.refute import arrangeable, plans, refute_above
from solver.games.versailles.scoring import solo_checkpoints

from .test_model import oracle
from .test_refute import TILE_IDS, TWO_STAGE, _loss

CAT = default_catalog()
IDS = sorted(CAT.tiles)
# stages of 3 tiles: the 2 largest areas score after tile 3, the 3 largest after the last
STAGE3 = dataclasses.replace(CAT, setup=dataclasses.replace(CAT.setup, rounds_per_stage=3))


def stage3_instance(base: int, seed: int):
    """(tiles, greedy garden) of 5 or 6 random tiles (5 for even seeds) under STAGE3: the tiles
    drawn with random.Random(base + seed), the garden with random.Random(seed), one restart."""
    rng = random.Random(base + seed)
    tiles = [STAGE3.tiles[i] for i in rng.sample(IDS, 5 + seed % 2)]
    garden, _ = greedy_garden(tiles, STAGE3, random.Random(seed), None, 1)
    return tiles, garden


def eight_tile_instance(seed: int):
    """(tiles, greedy garden) of 8 random tiles under the real catalog (two scorings of 4 tiles)."""
    tiles = [CAT.tiles[i] for i in random.Random(seed).sample(IDS, 8)]
    garden, _ = greedy_garden(tiles, CAT, random.Random(seed), None, 1)
    return tiles, garden


def own_losses(tiles, cat, garden):
    """[(the garden's loss for the plan, plan, requirements)] for every plan, the plans the garden
    comes closest to first (stable: plans' order)."""
    arrangement = {i: (p.x, p.y, p.rotation) for i, p in enumerate(garden)}
    checkpoints = solo_checkpoints(len(tiles), cat)
    cases = []
    for _, chosen in plans(tiles, cat):
        reqs = [(checkpoints[cp][0], t) for cp, types in enumerate(chosen) for t in types]
        cases.append((_loss(tiles, cat, arrangement, reqs), chosen, reqs))
    cases.sort(key=lambda c: c[0])
    return cases


def assert_own_losses_stand(tiles, cat, garden, count: int, node_limit: int, **flags) -> None:
    """The garden's own loss for each of the `count` plans it comes closest to is not refuted by
    `arrangeable` with `flags` (a legal arrangement meets it)."""
    for loss, chosen, reqs in own_losses(tiles, cat, garden)[:count]:
        out = arrangeable(tiles, cat, reqs, loss, node_limit=node_limit, **flags)
        assert out.status != "infeasible", (chosen, loss)


def least_loss(tiles, cat, reqs, limit: int, **flags):
    """The smallest loss the search finds an arrangement for (None when a search hits the limit)."""
    for loss in range(0, 12):
        out = arrangeable(tiles, cat, reqs, loss, node_limit=limit, **flags)
        if out.status == "unknown":
            return None
        if out.status == "feasible":
            return loss
    return None


def assert_least_loss_stands(tiles, cat, garden, count: int, limit: int, flag: str) -> None:
    """At the least loss the search finds without the rule `flag` (an `arrangeable` keyword) for each
    of the `count` plans the garden comes closest to, the search with it is not infeasible (at a
    plan's least loss only a few arrangements are left: a prune too strict shows here)."""
    for _, chosen, reqs in own_losses(tiles, cat, garden)[:count]:
        off = least_loss(tiles, cat, reqs, limit, **{flag: False})
        if off is None:
            continue
        on = arrangeable(tiles, cat, reqs, off, node_limit=limit, **{flag: True})
        assert on.status != "infeasible", (chosen, off)


def assert_oracle_value_stands(seed: int, monkeypatch, attr: str) -> None:
    """The 3-tile exhaustive oracle's value (`test_model.oracle`, tiles drawn with
    random.Random(seed)) is not refuted with the module flag `attr` of refute.py on."""
    from solver.games.versailles import refute
    monkeypatch.setattr(refute, attr, True)
    tiles = [TWO_STAGE.tiles[i] for i in random.Random(seed).sample(TILE_IDS, 3)]
    best = oracle(tiles, TWO_STAGE)
    assert not refute_above(tiles, TWO_STAGE, best, node_limit=None)[0]


def assert_least_loss_witness(base: int, seed: int, plan, loss: int, limit: int, flag: str) -> None:
    """STAGE3 instance (base, seed), plan `plan`: with and without the rule `flag` an arrangement
    with `loss` is found and none with loss - 1 (the witness sits at the plan's least loss)."""
    tiles, garden = stage3_instance(base, seed)
    reqs = next(reqs for _, chosen, reqs in own_losses(tiles, STAGE3, garden) if chosen == plan)
    for on in (False, True):
        out = arrangeable(tiles, STAGE3, reqs, loss, node_limit=limit, **{flag: on})
        assert out.status == "feasible", on
        if loss:
            below = arrangeable(tiles, STAGE3, reqs, loss - 1, node_limit=limit, **{flag: on})
            assert below.status == "infeasible", on
