"""The joint rule of the refutation search (refute.arrangeable's `joint`: with no loss left, every
unplaced tile needs one fitting place where each of its counting fields lies within reach of its
requirement's one possible largest area; on by default, so the 3-tile oracle tests of
test_refute.py and test_refute_shared.py run with it) against witnesses: a legal garden's own loss
is never refuted for the plans it comes closest to (greedy gardens of 5-6 tiles with 3-tile
stages, and of 8 tiles, where more tiles are left unplaced when the loss budget runs out).
Deliberately unsound versions caught here and by the oracle tests: the reach one field too short
(15 failures here and in test_refute.py), the rule applied with one field of loss left (3); with
joint_slack, a prune at far >= budget (1)."""
from __future__ import annotations

import random

import pytest

from solver.games.versailles.heuristic import greedy_garden
from solver.games.versailles.refute import arrangeable, plans
from solver.games.versailles.scoring import solo_checkpoints

from ._instances import CAT, IDS, STAGE3, stage3_instance
from .test_refute import _loss


def _own_losses(tiles, cat, garden):
    arrangement = {i: (p.x, p.y, p.rotation) for i, p in enumerate(garden)}
    checkpoints = solo_checkpoints(len(tiles), cat)
    cases = []
    for _, chosen in plans(tiles, cat):
        reqs = [(checkpoints[cp][0], t) for cp, types in enumerate(chosen) for t in types]
        cases.append((_loss(tiles, cat, arrangement, reqs), chosen, reqs))
    cases.sort(key=lambda c: c[0])  # the plans this garden comes closest to (stable: plans' order)
    return cases


@pytest.mark.parametrize("slack", [False, True], ids=["no loss left", "with loss left"])
@pytest.mark.parametrize("seed", range(10))
def test_a_gardens_own_loss_is_never_refuted(seed, slack):
    tiles, garden = stage3_instance(700, seed)
    for loss, chosen, reqs in _own_losses(tiles, STAGE3, garden)[:8]:
        out = arrangeable(tiles, STAGE3, reqs, loss, node_limit=20_000, joint=True, joint_slack=slack)
        assert out.status != "infeasible", (chosen, loss)


@pytest.mark.parametrize("slack", [False, True], ids=["no loss left", "with loss left"])
@pytest.mark.parametrize("seed", range(4))
def test_an_8_tile_gardens_own_loss_is_never_refuted(seed, slack):
    tiles = [CAT.tiles[i] for i in random.Random(seed).sample(IDS, 8)]
    garden, _ = greedy_garden(tiles, CAT, random.Random(seed), None, 1)
    for loss, chosen, reqs in _own_losses(tiles, CAT, garden)[:3]:
        out = arrangeable(tiles, CAT, reqs, loss, node_limit=5_000, joint=True, joint_slack=slack)
        assert out.status != "infeasible", (chosen, loss)
