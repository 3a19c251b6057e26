"""The refutation search keeps its fields as ints (refute._cell: (x + BIAS) * SPAN + y + BIAS) since 30 Nov
23:20 UTC: the encoding must keep the (x, y) order (the search picks an area's smallest open field and
sorts the anchors it tries), map the four neighbours to +-SPAN and +-1, and reach the far roots of a search
whose tiles need not all take part (FAR apart). The node pins (test_refute_nodes.py) and the compiled
comparison (test_compiled.py) check the main search; this file pins what they do not reach: searches that
place a new root far away, their nodes and arrangements as found by the tuple-field search before
(5558de8, pure Python)."""
from __future__ import annotations

import random

import pytest

from solver.games.versailles import refute
from solver.games.versailles.data import default_catalog

CAT = default_catalog()
IDS = sorted(CAT.tiles)


def test_the_field_encoding_keeps_order_neighbours_and_inverse():
    xs = list(range(-40, 41)) + [refute.FAR * k + d for k in (1, 2, 14) for d in (-30, -1, 0, 1, 30)]
    rng = random.Random(7)
    cells = [(rng.choice(xs), rng.choice(xs)) for _ in range(3000)] + [(0, 0), (-1, 0), (0, -1), (-1, -1)]
    for x, y in cells:
        c = refute._cell(x, y)
        assert refute._xy(c) == (x, y)
        assert (c + refute.SPAN, c - refute.SPAN, c + 1, c - 1) == (
            refute._cell(x + 1, y), refute._cell(x - 1, y), refute._cell(x, y + 1), refute._cell(x, y - 1))
    assert sorted(cells) == [refute._xy(c) for c in sorted(refute._cell(x, y) for x, y in cells)]


def test_too_many_tiles_for_the_encoding_are_refused():
    tiles = [CAT.tiles[i] for i in IDS] * (refute.SPAN // refute.FAR)
    with pytest.raises(ValueError):
        refute.arrangeable(tiles, CAT, [(len(tiles), "W")], 0, 10)


# (seed, status, nodes, arrangement) of arrangeable(tiles, two types of the last scoring, loss 0,
# connected=False, ordered=False) on random.Random(seed)'s 4-6 tiles: the first two place a tile at a
# new root (FAR, FAR) away
CASES = [
    (10, "feasible", 5, {0: (0, 0, 0), 1: (-2, 1, 1), 2: (-2, -1, 0), 3: (0, 2, 0), 5: (1000, 1000, 0)}),
    (17, "feasible", 4, {0: (0, 0, 0), 3: (-2, 1, 0), 4: (1000, 1000, 0), 5: (1001, 998, 0)}),
    (11, "infeasible", 78, None),
]


@pytest.mark.parametrize("seed, status, nodes, arrangement", CASES)
def test_searches_with_far_roots_are_pinned(seed, status, nodes, arrangement):
    rng = random.Random(seed)
    n = rng.choice([4, 5, 6])
    tiles = [CAT.tiles[i] for i in rng.sample(IDS, n)]
    types = rng.sample(sorted(CAT.garden_types), 2)
    out = refute.arrangeable(tiles, CAT, [(n, types[0]), (n, types[1])], 0, 5000, connected=False, ordered=False)
    assert (out.status, out.nodes, out.arrangement) == (status, nodes, arrangement)
