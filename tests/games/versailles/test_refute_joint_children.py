"""The joint check's verdict on each child placement (refute.arrangeable's `joint_children`, on by
default): below a node whose joint check passed, a tile placed with more (field, requirement)
pairs out of its requirement's reach than the budget leaves is not searched. Witnesses: a legal
garden's own loss is never refuted for the plans it comes closest to (greedy gardens of 5-6 tiles
with 3-tile stages and of 8 tiles), with and without loss left. Deliberately unsound versions caught here: the prune at pairs == budget
instead of > budget, the tile's own share not taken out of the count, every out-of-reach field
pruned whatever the budget."""
from __future__ import annotations

import random

import pytest

from solver.games.versailles.heuristic import greedy_garden
from solver.games.versailles.refute import arrangeable

from ._instances import CAT, IDS, STAGE3, stage3_instance
from .test_refute_joint import _own_losses


@pytest.mark.parametrize("slack", [False, True], ids=["no loss left", "with loss left"])
@pytest.mark.parametrize("seed", range(12))
def test_a_gardens_own_loss_is_never_refuted(seed, slack):
    tiles, garden = stage3_instance(900, seed)
    for loss, chosen, reqs in _own_losses(tiles, STAGE3, garden)[:8]:
        out = arrangeable(tiles, STAGE3, reqs, loss, node_limit=20_000, joint_children=True, joint_slack=slack)
        assert out.status != "infeasible", (chosen, loss)


@pytest.mark.parametrize("slack", [False, True], ids=["no loss left", "with loss left"])
@pytest.mark.parametrize("seed", range(4, 6))
def test_an_8_tile_gardens_own_loss_is_never_refuted(seed, slack):
    tiles = [CAT.tiles[i] for i in random.Random(seed).sample(IDS, 8)]
    garden, _ = greedy_garden(tiles, CAT, random.Random(seed), None, 1)
    for loss, chosen, reqs in _own_losses(tiles, CAT, garden)[:3]:
        out = arrangeable(tiles, CAT, reqs, loss, node_limit=5_000, joint_children=True, joint_slack=slack)
        assert out.status != "infeasible", (chosen, loss)



def _least_loss(tiles, cat, reqs, limit, **flags):
    """The smallest loss the search finds an arrangement for (None when a search hits the limit)."""
    for loss in range(0, 12):
        out = arrangeable(tiles, cat, reqs, loss, node_limit=limit, **flags)
        if out.status == "unknown":
            return None
        if out.status == "feasible":
            return loss
    return None


@pytest.mark.parametrize("seed", range(10))
def test_the_least_loss_is_the_same_with_and_without_it(seed):
    # at a plan's least loss only a few arrangements are left: a prune too strict shows here
    tiles, garden = stage3_instance(950, seed)
    for _, chosen, reqs in _own_losses(tiles, STAGE3, garden)[:4]:
        off = _least_loss(tiles, STAGE3, reqs, 5_000, joint_children=False)
        if off is None:
            continue
        on = arrangeable(tiles, STAGE3, reqs, off, node_limit=5_000, joint_children=True)
        assert on.status != "infeasible", (chosen, off)
