"""The joint check's verdict on each child placement (refute.arrangeable's `joint_children`, on by
default): below a node whose joint check passed, a tile placed with more (field, requirement)
pairs out of its requirement's reach than the budget leaves is not searched. Witnesses: a legal
garden's own loss is never refuted for the plans it comes closest to (greedy gardens of 5-6 tiles
with 3-tile stages and of 8 tiles), with and without loss left. Deliberately unsound versions caught here: the prune at pairs == budget
instead of > budget, the tile's own share not taken out of the count, every out-of-reach field
pruned whatever the budget."""
from __future__ import annotations

import pytest

from ._instances import CAT, STAGE3, assert_least_loss_stands, assert_own_losses_stand, eight_tile_instance, stage3_instance


@pytest.mark.parametrize("slack", [False, True], ids=["no loss left", "with loss left"])
@pytest.mark.parametrize("seed", range(12))
def test_a_gardens_own_loss_is_never_refuted(seed, slack):
    tiles, garden = stage3_instance(900, seed)
    assert_own_losses_stand(tiles, STAGE3, garden, 8, 20_000, joint_children=True, joint_slack=slack)


@pytest.mark.parametrize("slack", [False, True], ids=["no loss left", "with loss left"])
@pytest.mark.parametrize("seed", range(4, 6))
def test_an_8_tile_gardens_own_loss_is_never_refuted(seed, slack):
    tiles, garden = eight_tile_instance(seed)
    assert_own_losses_stand(tiles, CAT, garden, 3, 5_000, joint_children=True, joint_slack=slack)



@pytest.mark.parametrize("seed", range(10))
def test_the_least_loss_is_the_same_with_and_without_it(seed):
    tiles, garden = stage3_instance(950, seed)
    assert_least_loss_stands(tiles, STAGE3, garden, 4, 5_000, "joint_children")
