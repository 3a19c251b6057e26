"""Random instances shared by the refutation tests: small two-scoring sequences and a greedy garden
of each (a legal garden, so every loss it meets is a witness no sound rule may refute), and the
witness checks the rule tests share."""
from __future__ import annotations

import dataclasses
import random

from solver.games.versailles.data import default_catalog
from solver.games.versailles.heuristic import greedy_garden
from solver.games.versailles.refute import arrangeable, plans
from solver.games.versailles.scoring import solo_checkpoints

from .test_refute import _loss

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
