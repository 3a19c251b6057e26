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


# The state array (1 Dec 00:17 UTC): `_ix` maps a field to its entry in a window of 2 * reach + 1
# fields a side around each root, reach = 2 * tiles + bridge_bfs + WINDOW_MARGIN; the module doc
# argues every field the search reads lies within 2 * tiles + bridge_bfs + 2 of its root. A field
# outside would silently read another field's entry (a negative index wraps), so the claim is
# checked on real searches: the pure module (loaded from the source, so the check runs with or
# without a compiled copy) with `_ix` wrapped to record how far from its root each field read lies.
def _pure_refute():
    import importlib.util
    import sys

    from solver.core import compiled

    spec = importlib.util.spec_from_file_location("_refute_window_probe", compiled.source_path(refute.__name__))
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # dataclasses look their module up there
    spec.loader.exec_module(mod)
    return mod


def test_every_field_the_search_reads_lies_in_its_window():
    mod = _pure_refute()
    inner = mod._ix
    seen = []

    def probe(d, lo, w):
        x, y = mod._xy(d)
        k = round(x / mod.FAR)  # its root: (FAR * k, FAR * k)
        seen.append(max(abs(x - mod.FAR * k), abs(y - mod.FAR * k)))
        return inner(d, lo, w)

    mod._ix = probe
    worst = {}
    runs = [(2, 8, 40, {}), (5, 8, 35, {}), (0, 8, 37, {"bridge_bfs": 3}), (1, 8, 35, {"bridge_bfs": 12}),
            (4, 6, 30, {"connected": False, "ordered": False})]
    for seed, n, target, kw in runs:
        tiles = [CAT.tiles[i] for i in random.Random(seed).sample(IDS, n)]
        cps = mod.solo_checkpoints(n, CAT)
        for count, chosen in mod.plans(tiles, CAT)[:2]:
            reqs = [(cps[cp][0], t) for cp, types in enumerate(chosen) for t in types]
            seen.clear()
            mod.arrangeable(tiles, CAT, reqs, max(0, count - target), 800, **kw)
            bound = 2 * n + kw.get("bridge_bfs", 8) + 2
            assert max(seen) <= bound
            worst[(seed, kw.get("bridge_bfs", 8))] = max(worst.get((seed, kw.get("bridge_bfs", 8)), 0), max(seen) - bound)
    # the bound is met exactly in every run (so a window cut below it would be caught here), and
    # the window adds WINDOW_MARGIN >= 2 beyond it
    assert set(worst.values()) == {0}
    assert mod.WINDOW_MARGIN >= 2


def test_the_state_index_is_one_to_one_over_the_windows():
    mod = _pure_refute()
    reach, blocks = 5, 3
    st, lo, w = mod._state(reach, blocks, 1)
    got = set()
    for k in range(blocks):
        for x in range(-reach, reach + 1):
            for y in range(-reach, reach + 1):
                j = mod._ix(mod._cell(mod.FAR * k + x, mod.FAR * k + y), lo, w)
                assert 0 <= j < len(st)
                got.add(j)
    assert len(got) == len(st)
