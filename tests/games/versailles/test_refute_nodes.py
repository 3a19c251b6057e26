"""The refutation search's node sequence is pinned: a change meant to make it faster (incremental
areas) must visit the same nodes, in the same order (tie-breaks included); a change meant to visit
fewer nodes has to update these numbers on purpose. Without the prefix and joining-gap rules
(prefix=False, bridge=False, fewest_spare=False) the search is the one of 73291b8..da5e5e4, node for
node; without fewest_spare alone, the one of e0df93a..36ece6d (ties between requirements' areas
went to the first requirement); without joint (the check of the unplaced tiles when no loss is
left), the one of e50f2fc..17342b2; without joint_slack (the same check with loss left), the one
of 1e6213c..16d9db0; without joint_children (the check's verdict on each child placement), the one
of 7195aec..0fb6c67; without joint_tight (a placed tile's joined fields counted by clusters), the
one of a0619fb..6c422b0; without closing (children closing an area judged at the parent), the one
of f0760aa..c03f697; without blocking (children whose tile blocks another requirement's short
paths judged at the parent), the one of 047828b..b897c33."""
from __future__ import annotations

import random

import pytest

from solver.games.versailles.data import default_catalog
from solver.games.versailles.refute import arrangeable

CAT = default_catalog()
IDS = sorted(CAT.tiles)

CASES = [
    # 8 tiles seed 0 at its counting bound 37, second plan (B+Y / G+B+W): refuted
    (0, [(7, "B"), (7, "Y"), (8, "G"), (8, "B"), (8, "W")], 0, "infeasible", 4293, 478, 360, 289, 289, 264, 199, 134, 98),
    # 8 tiles seed 6 at its counting bound 42, first plan (G+B / G+B+W): refuted
    (6, [(7, "G"), (7, "B"), (8, "G"), (8, "B"), (8, "W")], 0, "infeasible", 9184, 450, 448, 398, 398, 272, 203, 151, 104),
    # 8 tiles seed 1 at 34 (bound 37: loss 3), first plan (G+W / G+W+Y): a garden found
    (1, [(7, "G"), (7, "W"), (8, "G"), (8, "W"), (8, "Y")], 3, "feasible", 17949, 2235, 1953, 1244, 944, 707, 623, 549, 543),
]


@pytest.mark.parametrize("rules", ["before", "ties to the first requirement", "without joint", "without joint_slack", "without joint_children", "without joint_tight", "without closing", "without blocking", "now"])
@pytest.mark.parametrize("seed, reqs, loss, status, before, first, nojoint, noslack, nochildren, notight, noclosing, noblocking, now", CASES)
def test_node_counts_are_pinned(seed, reqs, loss, status, before, first, nojoint, noslack, nochildren, notight,
                                noclosing, noblocking, now, rules):
    tiles = [CAT.tiles[i] for i in random.Random(seed).sample(IDS, 8)]
    flags, expect = {
        "before": ({"prefix": False, "bridge": False, "fewest_spare": False, "joint": False, "closing": False, "blocking": False}, before),
        "ties to the first requirement": ({"fewest_spare": False, "joint": False, "closing": False, "blocking": False}, first),
        "without joint": ({"joint": False, "closing": False, "blocking": False}, nojoint),
        "without joint_slack": ({"joint_slack": False, "joint_children": False, "closing": False, "blocking": False}, noslack),
        "without joint_children": ({"joint_children": False, "closing": False, "blocking": False}, nochildren),
        "without joint_tight": ({"joint_tight": False, "closing": False, "blocking": False}, notight),
        "without closing": ({"closing": False, "blocking": False}, noclosing),
        "without blocking": ({"blocking": False}, noblocking),
        "now": ({}, now),
    }[rules]
    out = arrangeable(tiles, CAT, reqs, loss, node_limit=None, **flags)
    assert (out.status, out.nodes) == (status, expect)
