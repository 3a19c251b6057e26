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

import pytest

from ._instances import CAT, STAGE3, assert_own_losses_stand, eight_tile_instance, stage3_instance


@pytest.mark.parametrize("slack", [False, True], ids=["no loss left", "with loss left"])
@pytest.mark.parametrize("seed", range(10))
def test_a_gardens_own_loss_is_never_refuted(seed, slack):
    tiles, garden = stage3_instance(700, seed)
    assert_own_losses_stand(tiles, STAGE3, garden, 8, 20_000, joint=True, joint_slack=slack)


@pytest.mark.parametrize("slack", [False, True], ids=["no loss left", "with loss left"])
@pytest.mark.parametrize("seed", range(4))
def test_an_8_tile_gardens_own_loss_is_never_refuted(seed, slack):
    tiles, garden = eight_tile_instance(seed)
    assert_own_losses_stand(tiles, CAT, garden, 3, 5_000, joint=True, joint_slack=slack)
