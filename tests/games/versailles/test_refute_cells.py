"""The refutation search keeps its fields as ints since 30 Nov 23:20 UTC; since 1 Dec 05:00 UTC a field is its
index in the search's window (refute._cell(x, y, reach, w): (x + reach) * w + y + reach around the first root,
one block of w * w per far root; before, (x + 4096) * 65536 + y + 4096 looked up through refute._ix). The
encoding must keep the (x, y) order (the search picks an area's smallest open field and sorts the anchors it
tries), map the four neighbours to +-w and +-1, and reach the far roots of a search whose tiles need not all
take part (FAR apart). The node pins (test_refute_nodes.py) and the compiled
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
    # a window of reach 40 (w = 81): the fields within 40 of the first root and of far roots 1, 2 and
    # 14 (the window-index encoding holds only a window's fields; the neighbour test keeps off its edge)
    reach = 40
    w = 2 * reach + 1
    rng = random.Random(7)
    cells = [(refute.FAR * k + rng.randint(-reach, reach), refute.FAR * k + rng.randint(-reach, reach))
             for k in [0] * 1500 + [rng.choice((1, 2, 14)) for _ in range(1500)]]
    cells += [(0, 0), (-1, 0), (0, -1), (-1, -1), (reach, reach), (-reach, -reach), (-reach, reach)]
    for x, y in cells:
        c = refute._cell(x, y, reach, w)
        assert refute._xy(c, reach, w) == (x, y)
        k = round(x / refute.FAR)
        if max(abs(x - refute.FAR * k), abs(y - refute.FAR * k)) < reach:
            assert (c + w, c - w, c + 1, c - 1) == (
                refute._cell(x + 1, y, reach, w), refute._cell(x - 1, y, reach, w), refute._cell(x, y + 1, reach, w),
                refute._cell(x, y - 1, reach, w))
    assert sorted(cells) == [refute._xy(c, reach, w) for c in sorted(refute._cell(x, y, reach, w) for x, y in cells)]
    # the default window (no search: tests, `box_components`' default) is the same encoding
    assert refute._cell(3, -5) == refute._cell(3, -5, refute.CELL_REACH, 2 * refute.CELL_REACH + 1)


def test_too_many_tiles_for_the_encoding_are_refused():
    tiles = [CAT.tiles[i] for i in IDS] * (refute.MAX_TILES // len(IDS) + 1)
    with pytest.raises(ValueError):
        refute.arrangeable(tiles, CAT, [(len(tiles), "W")], 0, 10)
    with pytest.raises(ValueError):  # the limit itself: one tile more than MAX_TILES (60: bytes of the state arrays)
        refute.arrangeable(tiles[:refute.MAX_TILES + 1], CAT, [(4, "W")], 0, 10)
    assert refute.arrangeable(tiles[:refute.MAX_TILES], CAT, [(4, "W")], 0, 10).status in ("feasible", "unknown")


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


# The state array (1 Dec 00:17 UTC): a field's entry lies in a window of 2 * reach + 1 fields a side around
# each root, reach = 2 * tiles + bridge_bfs + WINDOW_MARGIN; the module doc argues every field the search reads
# lies within 2 * tiles + bridge_bfs + 2 of its root. A field outside would silently read another field's entry
# (a neighbour step off a row lands on the next row; a negative index wraps), so the claim is checked on real
# searches: the pure module (loaded from the source, so the check runs with or without a compiled copy) with
# its byte arrays replaced by ones that record every index read or written. Since the fields are the window
# indices themselves (1 Dec 05:00), the probe widens the window (WINDOW_MARGIN 30: a read up to 28 fields past
# the bound still decodes to its true distance; the window decides no answer) and decodes each index of a
# plane-sized array back to the field's distance from its block's root (before, it wrapped `_ix`, which no
# longer exists: the same reads, recorded at the array instead of at the index function).
def _pure_refute():
    from tests.compiled_probe import pure_source

    return pure_source(refute.__name__)


# Per reader (1 Dec 06:17 UTC): the overall maximum alone could not fail for a breadth-first search run too
# far (`_reach` 1, 3 or 12 layers, `_path_groups` 1 or 4, `_corridor` 1, a joint or bridge search let past
# `bridge_bfs`: each passed), since some other read already set it. So each reader whose
# extent its own arguments bound is wrapped, its reads (of any plane-sized byte array, the fields themselves:
# index mod the plane) attributed to its call, and checked against the fields it starts from, in steps
# (Manhattan distance in the window, no obstacles: a lower bound of any breadth-first path, so every field a
# search of L layers reads lies within L steps of its sources):
# - `_reach(group, .., spare, ..)`: layer 1 is the areas' free neighbours, layer `length` is read while
#   length <= spare, so every read lies within `spare` steps of the group's areas, and spare <= bridge_bfs
#   (the joint check skips a requirement with spare > bridge_bfs);
# - `_path_groups(areas, .., spare, ..)`: fields enter while their distance is at most reach = (spare + 1) // 2
#   (every field of a link path of at most spare fields lies within that of one end), and the last layer's
#   neighbours are read to find the links: within reach + 1 steps of the areas; spare <= bridge_bfs (the bridge
#   bound and `blocking` run it only then);
# - `_corridor(areas, .., steps)`: layer 1 and steps - 1 more: within `steps` steps, steps = (spare + 1) // 2
#   <= (bridge_bfs + 1) // 2 (built for the blocking entries, whose spare passed the bridge bound's cap);
# - `_open_count(comp, ..)`: the area's neighbours f (1 step) and, through `_fillable` / `_clear`, the fields of
#   a tile covering f (2 x 2: within 2 steps of f): within 3 steps of the area.
# Every bound a reader is called with is also reached exactly by some call (so a search cut a layer short, an
# invalid pruning, fails too: it reads less); a reader run a layer too far reads a field one step beyond its bound.
# The rest (1 Dec 06:46 UTC), by the tile's geometry: EXTENT = 2, the farthest field of a tile from its anchor
# (OFFSETS (1, 1)), and SPAN = 2, the farthest two fields of one tile lie apart (both in steps):
# - `_far_fields(pairs, reaches, ..)`: each place it judges is an anchor a = p - off, p in the reach fields of one
#   of the tile's held pairs (`_fewest_far` on the smallest set, `_fewest_far_any` on their union), and it reads
#   mark[a], the distances at a + off' (the other pairs) and, through `_clear`, a + off' for every field off' of
#   the tile: p + (off' - off), so within SPAN steps of the reach fields of the requirements of `pairs`
#   (those reach fields themselves are `_reach`'s, checked above);
# - `_fewest_far(places, ox, ..)`, `_fewest_far_any(offs, fields, ..)`: the same, from `places` / every `fields[q]`;
# - `_clear(chk, a, ..)`: the fields a + off of the tile's footprint: within EXTENT steps of a;
# - `_touches_earlier(a, ..)`, `_stranded(a, ..)`: the tile's RING, its fields' edge neighbours: within 1 step of
#   the tile's four fields;
# - `_can_touch(a, ..)`: the RING fields c (1 step) and, through `_clear`, the footprint of a tile anchored at
#   c - off for each footprint offset off (which covers c): within 1 + SPAN steps of the tile's fields; and
#   every `_clear` it calls anchors a tile covering one of the RING fields (a wrong anchor c + off stayed within
#   1 + SPAN on these runs: the three offsets tried before the far one fit first);
# - `_prefix_ok`: works on anchors as (x, y) and its own scratch of n entries: it reads no field at all (bound
#   None: any read of a plane-sized array fails).
# - `_doomed(hold, built, cl, i, a)` (1 Dec 09:05, `joint_children`'s tight test, moved out of the search's
#   closure `doomed`): the reach distances at the tile's cluster fields a + off and at their neighbours outside
#   the tile: within EXTENT + 1 steps of the anchor a.
# `_join` reads the label list, not a byte array: `test_join_reads_only_the_new_fields_neighbours` below.
EXTENT = max(abs(dx) + abs(dy) for dx, dy in refute.OFFSETS)
SPAN = max(abs(ax - bx) + abs(ay - by) for ax, ay in refute.OFFSETS for bx, by in refute.OFFSETS)


def _footprint(a, w):
    return [{a + dx * w + dy for dx, dy in refute.OFFSETS}]


def _held_reaches(pairs, reaches):
    got = {id(reaches[ri][0]): reaches[ri][0] for t in pairs for _, ri in t if reaches[ri] is not None}
    return list(got.values())


READERS = {
    "_reach": (lambda a, w: (a[0], a[4]), lambda a, bfs: a[4] <= bfs),
    "_path_groups": (lambda a, w: (a[0], (a[4] + 1) // 2 + 1 if a[4] > 0 and len(a[0]) > 1 else 0),
                     lambda a, bfs: a[4] <= bfs),
    "_corridor": (lambda a, w: (a[0], a[5]), lambda a, bfs: a[5] <= (bfs + 1) // 2),
    "_open_count": (lambda a, w: ([a[0]], 3), lambda a, bfs: True),
    "_far_fields": (lambda a, w: (_held_reaches(a[0], a[1]), SPAN), lambda a, bfs: True),
    "_fewest_far": (lambda a, w: ([a[0]], SPAN), lambda a, bfs: True),
    "_fewest_far_any": (lambda a, w: (a[1], SPAN), lambda a, bfs: True),
    "_clear": (lambda a, w: ([{a[1]}], EXTENT), lambda a, bfs: True),
    "_touches_earlier": (lambda a, w: (_footprint(a[0], w), 1), lambda a, bfs: True),
    "_stranded": (lambda a, w: (_footprint(a[0], w), 1), lambda a, bfs: True),
    "_can_touch": (lambda a, w: (_footprint(a[0], w), 1 + SPAN), lambda a, bfs: True),
    "_prefix_ok": (lambda a, w: ([], None), lambda a, bfs: True),
    "_doomed": (lambda a, w: ([{a[4]}], EXTENT + 1), lambda a, bfs: True),
}


def _ball(areas, steps: int, w: int) -> tuple[set, set]:
    """The fields within `steps` steps (+-w, +-1, no obstacles) of the fields of `areas`, and those at exactly
    `steps` (the empty set when steps is 0: the areas themselves)."""
    ball = {c for comp in areas for c in comp}
    layer = ball
    for _ in range(steps):
        layer = {c + s for c in layer for s in (w, -w, 1, -1)} - ball
        ball |= layer
    return ball, (layer if steps else set())


def test_every_field_the_search_reads_lies_in_its_window():
    mod = _pure_refute()
    mod.WINDOW_MARGIN = 30
    made = []  # (reach, w, plane size) of the current search's window
    seen = []  # every field read or written (an index mod the plane), decoded to distances after the run
    calls = []  # the open reader calls: [name, reads (fields), args]
    inner_state = mod._state

    def state(reach, blocks, planes):
        st, w = inner_state(reach, blocks, planes)
        made.append((reach, w, w * w * blocks))
        return Recording(st), w

    def distances():
        """The distance of each field read or written in the run from its block's root (one search per run,
        so one window: asserted)."""
        reach, w, _ = made[-1]
        return [max(abs(r // w - reach), abs(r % w - reach)) for r in {d % (w * w) for d in seen}]

    class Recording(bytearray):
        # (the note is written out in both methods, not called: these run millions of times)
        def __getitem__(self, j):
            if type(j) is int and made:
                plane = made[-1][2]
                if len(self) % plane == 0:  # a plane-sized array (state, reach distances, scratch); not `here`
                    d = j % plane
                    seen.append(d)
                    if calls:
                        calls[-1][1].add(d)
            return bytearray.__getitem__(self, j)

        def __setitem__(self, j, v):
            if type(j) is int and made:
                plane = made[-1][2]
                if len(self) % plane == 0:
                    d = j % plane
                    seen.append(d)
                    if calls:
                        calls[-1][1].add(d)
            bytearray.__setitem__(self, j, v)

    bfs = [8]  # the current search's bridge_bfs
    over = []  # (reader, fields past its bound, args' cap kept)
    cache = {}  # (reach lists' ids, bound) -> (the lists, ball, rim)
    hit = {}  # per reader, the bounds some call's reads reached exactly
    called = {}  # per reader, the bounds of its calls

    def wrap(name, inner):
        sources, capped = READERS[name]

        def reader(*a):
            calls.append([name, set(), a])
            try:
                return inner(*a)
            finally:
                reads = calls.pop()[1]
                w = made[-1][1]
                areas, bound = sources(a, w)
                if bound is None:  # a reader of no field
                    ball, rim = set(), set()
                else:
                    # reach lists (never changed once built) are balled once per run: the cache keeps
                    # them alive, so their ids stay theirs
                    listed = bool(areas) and type(areas[0]) is list
                    key = (tuple(map(id, areas)), bound)
                    got = cache.get(key) if listed else None
                    if got is None:
                        got = (areas, *_ball(areas, bound, w))
                        if listed:
                            cache[key] = got
                    ball, rim = got[1], got[2]
                if reads - ball or not capped(a, bfs[0]):
                    over.append((name, len(reads - ball), capped(a, bfs[0])))
                called.setdefault(name, set()).add(bound)
                if reads & rim or bound is None:
                    hit.setdefault(name, set()).add(bound)
                if calls:  # a reader inside a reader: its reads are the outer one's too
                    calls[-1][1].update(reads)
                    if name == "_clear" and calls[-1][0] == "_can_touch":
                        # a tile `_can_touch` tries covers a free edge neighbour of its tile (else a
                        # wrong anchor could stay within 1 + SPAN steps on these runs, as c + off did)
                        t = calls[-1][2]
                        if not {a[1] + f for f in _footprint(0, w)[0]} & {t[0] + r for r in t[5]}:
                            over.append(("_can_touch's tile", a[1], t[0]))
        return reader

    for name in READERS:
        setattr(mod, name, wrap(name, getattr(mod, name)))
    mod._state = state
    mod.bytearray = Recording  # the module's own byte arrays (reach distances, stamps, scratch) record too
    runs = [(2, 8, 40, {}), (5, 8, 35, {}), (0, 8, 37, {"bridge_bfs": 3}), (1, 8, 35, {"bridge_bfs": 12}),
            (4, 6, 30, {"connected": False, "ordered": False})]
    for seed, n, target, kw in runs:
        tiles = [CAT.tiles[i] for i in random.Random(seed).sample(IDS, n)]
        cps = mod.solo_checkpoints(n, CAT)
        bfs[0] = kw.get("bridge_bfs", 8)
        for count_, chosen in mod.plans(tiles, CAT)[:2]:
            reqs = [(cps[cp][0], t) for cp, types in enumerate(chosen) for t in types]
            seen.clear()
            made.clear()
            cache.clear()
            # (400 nodes a search: every reader still reaches its own bound exactly, below, as at 250; 800 until
            # 7 Dec, twice the time: every byte read goes through Python)
            mod.arrangeable(tiles, CAT, reqs, max(0, count_ - target), 400, **kw)
            assert len(made) == 1 and len(seen) > 1000
            bound = 2 * n + bfs[0] + 2
            far = max(distances())
            assert far <= bound  # (the farthest read stays 11-19 fields inside it on these runs)
            assert not over, over[:5]
    # the window adds WINDOW_MARGIN >= 2 beyond the bound. (A check that the bound was met exactly, max(0, far -
    # bound) == 0, could not fail and was dropped, the test audit of 7 Dec; a window cut too small is caught by
    # each reader's own bound, reached exactly on some call, below.)
    assert refute.WINDOW_MARGIN >= 2
    # every reader ran, and reached its own bound exactly on some call
    assert set(called) == set(READERS) and hit == called, (called, hit)


def test_the_state_index_is_one_to_one_over_the_windows():
    mod = _pure_refute()
    reach, blocks = 5, 3
    st, w = mod._state(reach, blocks, 1)
    got = set()
    for k in range(blocks):
        for x in range(-reach, reach + 1):
            for y in range(-reach, reach + 1):
                j = mod._cell(mod.FAR * k + x, mod.FAR * k + y, reach, w)
                assert 0 <= j < len(st)
                got.add(j)
    assert len(got) == len(st)


def test_join_reads_only_the_new_fields_neighbours():
    """`_join(c, ri, lab, ..)` (1 Dec 06:46 UTC) indexes the label list (one entry per window field, not a byte
    array, so the window test above does not see it): it reads lab at c's four neighbours c +- w, c +- 1 (every
    call: the bound 1 step is met exactly) and writes lab at c and at the fields of the areas it merges, all of
    which end in the area now labelled at c. A neighbour step of the wrong size, or a merge that writes beside an
    area's field, reads or writes another field's label and fails here."""
    mod = _pure_refute()
    inner = mod._join
    bad = []
    calls = [0]

    class Lab:
        def __init__(self, lab):
            self.lab, self.got, self.put = lab, set(), set()

        def __getitem__(self, j):
            self.got.add(j)
            return self.lab[j]

        def __setitem__(self, j, v):
            self.put.add(j)
            self.lab[j] = v

    def join(c, ri, lab, cm, steps, w):
        rec = Lab(lab)
        inner(c, ri, rec, cm, steps, w)
        calls[0] += 1
        if rec.got != {c + w, c - w, c + 1, c - 1} or not rec.put <= lab[c] | {c}:
            bad.append((c, w, sorted(rec.got), sorted(rec.put - lab[c])))

    mod._join = join
    for seed, n, target, kw in [(2, 8, 40, {}), (4, 6, 30, {"connected": False, "ordered": False})]:
        tiles = [CAT.tiles[i] for i in random.Random(seed).sample(IDS, n)]
        cps = mod.solo_checkpoints(n, CAT)
        count_, chosen = mod.plans(tiles, CAT)[0]
        reqs = [(cps[cp][0], t) for cp, types in enumerate(chosen) for t in types]
        mod.arrangeable(tiles, CAT, reqs, max(0, count_ - target), 300, **kw)
    assert calls[0] > 500 and not bad, (calls[0], bad[:3])
