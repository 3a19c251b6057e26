"""Simulated annealing over whole solo gardens: a fast primal search for long tile sequences.

The greedy restarts and the beam search build a garden tile by tile and never move a tile once it
is placed; the CP-SAT neighbourhood search re-places four tiles at a time, about one step a unit.
This search walks the space of complete gardens instead, compiled about 380,000 gardens a second at 6 Dec 19:25 and
about 1.3x that since 21:38 (on one machine; measured below):

- a garden is one (x, y, turn) per tile on the solo model's board square (anchors 0..board-2);
  the first tile keeps its printed turn (turning a whole garden keeps every area, as the model's
  symmetry breaking says) and the answer is moved to touch the board's top and left edges, so
  every garden returned is a solution of `model.build_solo_model` on that board;
- a move turns one tile, swaps the places of two tiles (each in a random turn), or puts one tile
  next to another one (a random side, offset by -1, 0 or 1 field, random turn); a move is taken
  only when the garden stays legal: no overlap, and every tile after the first shares a field edge
  with a tile placed before it (the placement rule at every turn);
- a legal move is accepted when it scores at least as much, or with probability
  exp(delta / T), T falling geometrically from T_START to T_END over the run's evaluations;
- the score is the solo points (intermediate + final area points) computed on bit planes: per garden
  type a few 64-bit words, a bit per field, areas by flood fill (`_largest`). `Garden.points`
  is the second face of `scoring.solo_points` and is held against it in the tests; every garden
  this search returns is re-scored by the pure scorer before it is used (`solo._anneal_step`).

Deterministic: the randomness is the `random.Random` given, and the run length is a count of
evaluated gardens (never a clock, unless `stop` says so), so the same call gives the same garden.
Several independent runs from random legal starts ("restarts") keep the best: measured on 14 tiles
(seeds 0-9, docs/versailles.md), one run's result varies by +-2 points with its random seed, the
best of five is within 6 points of the best gardens known over the ten seeds.

Since 6 Dec 19:25 the compiled copy runs about 1.25x faster (300k -> 380k evaluations a second on five 14-tile
sequences; the same gardens, evaluation for evaluation): each random number goes to a typed local before it is
scaled (it was scaled and truncated as Python objects), the Metropolis test calls C's `exp`
(`cython.cimports.libc.math`: the libm function `math.exp` calls, the same floats; Cython, pinned in
requirements.lock, must be installed either way), the arrays are declared contiguous, and the array helpers are
compiled without bounds or negative-index checks. Every index is a tile, word or table entry in range. Checked on
6 Dec with a build whose only change was the bounds checks on (a negative or too large index raises there): the
Versailles tests and 3.6 M evaluations on 60 sequences of 2-14 tiles on four boards, with and without fixed
tiles, raised nothing.

Since 6 Dec 21:38 the helpers take each array as `_ptr(array)` (`_words` for the 64-bit planes): a raw pointer in the
compiled copy, the array itself in pure Python. A typed memoryview argument is a struct of about 200 bytes copied into
every call, and `_points` took 13 arrays, `_top` 5 and `_largest` 3 per call. The arrays are held by the `Garden`,
`run`'s frame and `_run`'s `held` list, and never resized, while the pointers are in use. Measured on one machine
(five 14-tile sequences, 100,000 gardens each, best of 3, three pairs): 180-250k -> 250-320k gardens a second, about
1.3x (this machine ran the 6 Dec copy well below the 380k measured then). The same gardens: hashes of 30 compiled runs
(2-14 tiles, four boards, restarts, ceilings, fixed tiles) and 10 pure runs equal before and after.
"""
from __future__ import annotations

import random
from array import array
from dataclasses import dataclass
from typing import Callable, Sequence

import cython
from cython.cimports.libc.math import exp

from solver.games.versailles.data import Catalog, Tile
from solver.games.versailles.rules import Placement, distinct_rotations, footprint
from solver.games.versailles.scoring import solo_checkpoints

T_START = 2.0  # temperature at the start of each run (points)
T_END = 0.2  # ... and at its end
ROTATE, SWAP = 0.15, 0.35  # cumulative move mix: turn one tile, swap two, else put one next to another
CHECK_EVERY = 256  # tries between two calls of `stop`
RECENTRE_EVERY = 256  # accepted moves between two re-centrings of the garden on the board
TRIES_PER_EVAL = 50  # a run ends after this many tries per evaluation asked for, even with fewer evaluations

Anchor = tuple[int, int, int]  # (x, y, turn) of a tile's top-left field


def _popcount(x: int) -> int:
    """Set bits of a 64-bit word (the same arithmetic in C and in Python)."""
    m64 = 0xFFFFFFFF
    m64 = (m64 << 32) | m64  # built from 32-bit halves: C constants in the compiled copy
    c1 = 0x55555555
    c1 = (c1 << 32) | c1
    c2 = 0x33333333
    c2 = (c2 << 32) | c2
    c4 = 0x0F0F0F0F
    c4 = (c4 << 32) | c4
    h = 0x01010101
    h = (h << 32) | h
    x = x - ((x >> 1) & c1)
    x = (x & c2) + ((x >> 2) & c2)
    x = (x + (x >> 4)) & c4
    return ((x * h) & m64) >> 56


@cython.boundscheck(False)
@cython.wraparound(False)
def _ptr(v):
    """What the helpers below take for an array('q'): in the compiled copy a raw pointer to its first entry (a
    memoryview argument is a struct of about 200 bytes copied into every call); in pure Python the array itself. The
    caller keeps the array alive, and does not resize it, while the pointer is in use."""
    return cython.address(v[0]) if cython.compiled else v


@cython.boundscheck(False)
@cython.wraparound(False)
def _words(v):
    """`_ptr` for an array('Q') of 64-bit words."""
    return cython.address(v[0]) if cython.compiled else v


@cython.boundscheck(False)
@cython.wraparound(False)
def _count(words, base: int, k: int) -> int:
    total = 0
    for j in range(k):
        total += _popcount(words[base + j])
    return total


@cython.boundscheck(False)
@cython.wraparound(False)
def _largest(acc, base: int, k: int, width: int, rows: int, floor: int, mask, group, grown) -> int:
    """The largest orthogonally connected group of the fields set in acc[base:base + k] when it is larger
    than `floor`, else some value <= floor. A field (x, y) is bit (y % rows) * width + x of word
    y // rows; the last bit of each row (x = width - 1) is never set, so a shift by one never joins two
    rows, and a word's last row meets the next word's first. `mask`, `group`, `grown`: scratch words."""
    m64 = 0xFFFFFFFF
    m64 = (m64 << 32) | m64
    lift = (rows - 1) * width
    row = (1 << width) - 1
    for j in range(k):
        mask[j] = acc[base + j]
    left = _count(mask, 0, k)
    best = floor
    while left > best:
        first = 0
        while mask[first] == 0:
            first += 1
        for j in range(k):
            group[j] = 0
        group[first] = mask[first] & ((m64 ^ mask[first]) + 1)  # the lowest set bit
        while True:
            changed = False
            for j in range(k):
                x = group[j]
                y = x | ((x << 1) & m64) | (x >> 1) | ((x << width) & m64) | (x >> width)
                if j + 1 < k:
                    y |= (group[j + 1] & row) << lift
                if j > 0:
                    y |= group[j - 1] >> lift
                y &= mask[j]
                grown[j] = y
                if y != x:
                    changed = True
            for j in range(k):
                group[j] = grown[j]
            if not changed:
                break
        size = _count(group, 0, k)
        if size > best:
            best = size
        left -= size
        for j in range(k):
            mask[j] &= m64 ^ group[j]
    return best


@cython.boundscheck(False)
@cython.wraparound(False)
def _top(acc, types: int, k: int, width: int, rows: int, take: int, counts, sizes, mask, group, grown) -> int:
    """The sum of the `take` largest areas among the types' fields acc[t * k:(t + 1) * k] (a type's
    field count bounds its area, so a type whose count cannot beat the take-th largest area found is
    skipped). Scratch: `counts` (one per type), `sizes` (at least `take`, largest first)."""
    for t in range(types):
        counts[t] = _count(acc, t * k, k)
    found = 0
    for _ in range(types):
        pick = -1
        for t in range(types):
            if counts[t] >= 0 and (pick < 0 or counts[t] > counts[pick]):
                pick = t
        c = counts[pick]
        counts[pick] = -1
        if found < take:
            size = _largest(acc, pick * k, k, width, rows, 0, mask, group, grown)
            found += 1
        else:
            if c <= sizes[take - 1]:
                break
            size = _largest(acc, pick * k, k, width, rows, sizes[take - 1], mask, group, grown)
            if size <= sizes[take - 1]:
                continue
        # insert size among the sizes found, largest first (the smallest drops out when all are taken)
        j = found - 1
        while j > 0 and sizes[j - 1] < size:
            sizes[j] = sizes[j - 1]
            j -= 1
        sizes[j] = size
    total = 0
    for j in range(found):
        total += sizes[j]
    return total


@cython.boundscheck(False)
@cython.wraparound(False)
def _legal(foot, ring, at, n: int, k: int, taken) -> bool:
    """No two tiles on one field, and every tile after the first touches one placed before it;
    at[i]: tile i's anchor index (-1: off the board), foot / ring: per anchor, k words each."""
    for j in range(k):
        taken[j] = 0
    for i in range(n):
        a = at[i]
        if a < 0:
            return False
        touch = i == 0
        for j in range(k):
            f = foot[a * k + j]
            if taken[j] & f:
                return False
            if not touch and ring[a * k + j] & taken[j]:
                touch = True
        if not touch:
            return False
        for j in range(k):
            taken[j] |= foot[a * k + j]
    return True


@cython.boundscheck(False)
@cython.wraparound(False)
def _points(masks, offset, uptos, takes, scorings: int, n: int, types: int, k: int, width: int, rows: int,
            first: int, acc, counts, sizes, mask, group, grown, out) -> int:
    """Solo points of the tiles whose type masks start at masks[offset[i]] (types x k words), scored after
    uptos[c] tiles with the takes[c] largest areas; `first` >= 0 is taken as the first scoring's points (no
    tile of it moved). out[0]: the first scoring's points."""
    for j in range(types * k):
        acc[j] = 0
    total = 0
    done = 0
    for c in range(scorings):
        for i in range(done, uptos[c]):
            o = offset[i]
            for j in range(types * k):
                acc[j] |= masks[o + j]
        done = uptos[c]
        if c == 0 and first >= 0:
            value = first
        else:
            value = _top(acc, types, k, width, rows, takes[c], counts, sizes, mask, group, grown)
        if c == 0:
            out[0] = value
        total += value
    return total


class Garden:
    """The tiles of one sequence on a board square, as words of bits: legality and points of gardens
    given as one anchor (x, y, turn) per tile."""

    def __init__(self, tiles: Sequence[Tile], catalog: Catalog, board: int,
                 turns: Sequence[tuple[int, ...]] | None = None):
        """`turns`: per tile the turns it may take (default: the first tile its printed turn, the others their
        distinct turns); a tile kept in place (see `run`'s `fixed`) is given its own turn only."""
        if board < 2:
            raise ValueError(f"board: at least 2 fields per side, got {board}")
        self.tiles, self.board, self.width = list(tiles), board, board + 1
        self.rows = 64 // self.width  # board rows per 64-bit word
        self.k = -(-board // self.rows)  # words per plane
        self.n = len(tiles)
        self.checkpoints = solo_checkpoints(self.n, catalog)
        self.first_cut = self.checkpoints[0][0]
        counts = [(t, *catalog.joker_types) for t in catalog.garden_types]
        self.types = len(counts)
        self.anchors = [(x, y) for y in range(board - 1) for x in range(board - 1)]
        self.index = {a: j for j, a in enumerate(self.anchors)}
        k = self.k
        self.foot = array("Q", bytes(8 * k * len(self.anchors)))
        self.ring = array("Q", bytes(8 * k * len(self.anchors)))
        for j, (x, y) in enumerate(self.anchors):
            cells = footprint(x, y)
            ring = {(cx + dx, cy + dy) for cx, cy in cells for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))}
            self._set(self.foot, j * k, cells)
            self._set(self.ring, j * k, [c for c in ring - set(cells) if 0 <= c[0] < board and 0 <= c[1] < board])
        self.turns: list[tuple[int, ...]] = (
            [tuple(t) for t in turns] if turns is not None
            else [(0,) if i == 0 else distinct_rotations(t) for i, t in enumerate(tiles)])
        if len(self.turns) != self.n or not all(self.turns):
            raise ValueError("turns: expected a non-empty tuple of turns per tile")
        # masks[_offset(i, r, anchor index):][:types * k]: per garden type, tile i's fields counting for it there
        block = self.types * k
        self.masks = array("Q", bytes(8 * block * 4 * len(self.anchors) * max(1, self.n)))
        for i, tile in enumerate(tiles):
            for r in self.turns[i]:
                codes = tile.oriented(r)
                for a, (x, y) in enumerate(self.anchors):
                    o = _offset(i, r, a, board - 1, block)
                    for t, want in enumerate(counts):
                        self._set(self.masks, o + t * k, [c for c, code in zip(footprint(x, y), codes) if code in want])
        self.acc = array("Q", bytes(8 * block))
        self.scratch = [array("Q", bytes(8 * k)) for _ in range(4)]
        self.counts = array("q", bytes(8 * self.types))
        self.sizes = array("q", bytes(8 * self.types))
        self.uptos = array("q", [upto for upto, _ in self.checkpoints])
        self.takes = array("q", [min(take, self.types) for _, take in self.checkpoints])
        self.out = array("q", [0])

    def _set(self, words, base: int, cells) -> None:
        for x, y in cells:
            words[base + y // self.rows] |= 1 << ((y % self.rows) * self.width + x)

    def _anchors_of(self, garden: Sequence[Anchor]) -> array:
        """The anchor index of each tile of `garden` (-1: off the board), as the helpers read it."""
        return array("q", [self.index.get((x, y), -1) for x, y, _ in garden])

    def legal(self, garden: Sequence[Anchor]) -> bool:
        """No overlap, on the board, and every tile after the first touches one placed before it."""
        return len(garden) == self.n and self._legal_prefix(garden)

    def _legal_prefix(self, garden: Sequence[Anchor]) -> bool:
        at = self._anchors_of(garden)
        return _legal(_words(self.foot), _words(self.ring), _ptr(at), len(at), self.k, _words(self.scratch[3]))

    def points(self, garden: Sequence[Anchor], first: int | None = None) -> tuple[int, int]:
        """(solo points, the first scoring's points) of a legal garden; `first`, when given, is taken
        as the first scoring's points (the caller knows no tile of that scoring moved)."""
        if not self.n:
            return 0, 0
        block = self.types * self.k
        off = array("q", [_offset(i, r, a, self.board - 1, block) if a >= 0 else 0
                          for i, ((_, _, r), a) in enumerate(zip(garden, self._anchors_of(garden)))])
        mask, group, grown, _ = self.scratch
        total = _points(_words(self.masks), _ptr(off), _ptr(self.uptos), _ptr(self.takes), len(self.uptos), self.n,
                        self.types, self.k, self.width, self.rows, -1 if first is None else first, _words(self.acc),
                        _ptr(self.counts), _ptr(self.sizes), _words(mask), _words(group), _words(grown),
                        _ptr(self.out))
        return total, self.out[0]

    def placements(self, garden: Sequence[Anchor]) -> list[Placement]:
        """The garden moved to touch the board's top and left edges, as placements."""
        dx = min(x for x, _, _ in garden)
        dy = min(y for _, y, _ in garden)
        return [Placement(t.id, x - dx, y - dy, r) for t, (x, y, r) in zip(self.tiles, garden)]

    def random_start(self, rng: random.Random) -> list[Anchor]:
        """A legal garden: tile by tile at a random free anchor touching the tiles before it (the
        first in the middle); None is never returned on a board with room for every tile."""
        for _ in range(1000):
            garden: list[Anchor] = []
            for i in range(self.n):
                if not garden:
                    x = y = (self.board - 2) // 2
                else:
                    free = [(x, y) for (x, y) in self.anchors if self._legal_prefix(garden + [(x, y, 0)])]
                    if not free:
                        break
                    x, y = rng.choice(free)
                garden.append((x, y, rng.choice(self.turns[i])))
            if len(garden) == self.n:
                return garden
        raise ValueError(f"no room for {self.n} tiles on a board of {self.board} fields")


@cython.boundscheck(False)
@cython.wraparound(False)
def _recentre(xs, ys, n: int, board: int) -> None:
    """Move the garden (anchors xs, ys) to the middle of the board, in place."""
    lo_x = hi_x = xs[0]
    lo_y = hi_y = ys[0]
    for i in range(1, n):
        lo_x, hi_x = min(lo_x, xs[i]), max(hi_x, xs[i])
        lo_y, hi_y = min(lo_y, ys[i]), max(hi_y, ys[i])
    dx = (board - 2 - hi_x - lo_x) // 2
    dy = (board - 2 - hi_y - lo_y) // 2
    for i in range(n):
        xs[i] += dx
        ys[i] += dy


def _offset(i: int, r: int, a: int, side: int, block: int) -> int:
    """Where tile i's type masks in turn r at anchor index a (y * side + x, `Garden.anchors`' order) start in
    `Garden.masks`: per tile 4 turns of side x side anchors of `block` words."""
    return ((i * 4 + r) * side * side + a) * block


@cython.boundscheck(False)
@cython.wraparound(False)
def _code(xs, ys, rs, at, off, i: int, side: int, block: int) -> None:
    """Tile i's anchor index and mask offset from its anchor (xs, ys, rs)."""
    at[i] = ys[i] * side + xs[i]
    off[i] = _offset(i, rs[i], at[i], side, block)


@cython.boundscheck(False)
@cython.wraparound(False)
def _run(g, xs, ys, rs, turns, counts_of_turns, draw, evals: int, limit: int, ceiling: int, stop, check: int,
         bx, by, br, out, lo: int) -> int:
    """The annealing loop on the garden (xs, ys, rs), in place (see `run`); the best garden goes to
    (bx, by, br) and its points to out[0]; returns the gardens evaluated. turns[4 * i + q]: tile i's q-th
    turn of counts_of_turns[i]. Only tiles lo.. move (the tiles before keep their places relative to each
    other; with lo = 0 the random draws are those of the search before `lo` existed)."""
    n, board, k, block = g.n, g.board, g.k, g.types * g.k
    side = board - 1
    foot = _words(g.foot)
    ring = _words(g.ring)
    masks = _words(g.masks)
    taken = _words(g.scratch[3])
    width, rows, types, cut = g.width, g.rows, g.types, g.first_cut
    uptos = _ptr(g.uptos)
    takes = _ptr(g.takes)
    scorings = len(g.uptos)
    acc = _words(g.acc)
    counts = _ptr(g.counts)
    sizes = _ptr(g.sizes)
    first_out = _ptr(g.out)
    mask = _words(g.scratch[0])
    group = _words(g.scratch[1])
    grown = _words(g.scratch[2])
    rotate, swap, t_start, ratio = ROTATE, SWAP, T_START, T_END / T_START
    held = [array("q", bytes(8 * n)) for _ in range(7)]  # the scratch arrays, held for the run (pointers below)
    at = _ptr(held[0])
    off = _ptr(held[1])
    nat = _ptr(held[2])
    noff = _ptr(held[3])
    nx = _ptr(held[4])
    ny = _ptr(held[5])
    nr = _ptr(held[6])
    _recentre(xs, ys, n, board)
    for i in range(n):
        _code(xs, ys, rs, at, off, i, side, block)
        bx[i], by[i], br[i] = xs[i], ys[i], rs[i]
    current = _points(masks, off, uptos, takes, scorings, n, types, k, width, rows, -1, acc, counts, sizes, mask,
                      group, grown, first_out)
    current_first = first_out[0]
    best = current
    done = tries = accepted = 0
    while done < evals and tries < limit and best < ceiling:
        tries += 1
        if stop is not None and tries % check == 0 and stop():
            break
        for i in range(n):
            nx[i], ny[i], nr[i] = xs[i], ys[i], rs[i]
        kind = draw()
        low = -1
        high = -1
        if kind < rotate:
            u = draw()
            i = lo + int(u * (n - lo))
            c = counts_of_turns[i]
            if c == 1:
                continue
            u = draw()
            q = int(u * (c - 1))  # the q-th of the other turns
            for p in range(c):
                t = turns[4 * i + p]
                if t == rs[i]:
                    continue
                if q == 0:
                    nr[i] = t
                    break
                q -= 1
            low = i
        elif kind < swap:
            if n - lo < 2:
                continue
            u = draw()
            i = lo + int(u * (n - lo))
            u = draw()
            j = lo + int(u * (n - lo - 1))
            if j >= i:
                j += 1
            nx[i], ny[i], nx[j], ny[j] = xs[j], ys[j], xs[i], ys[i]
            u = draw()
            q = int(u * counts_of_turns[i])
            nr[i] = turns[4 * i + q]
            u = draw()
            q = int(u * counts_of_turns[j])
            nr[j] = turns[4 * j + q]
            low, high = min(i, j), max(i, j)
        else:
            u = draw()
            i = lo + int(u * (n - lo))
            u = draw()
            j = int(u * (n - 1))
            if j >= i:
                j += 1
            u = draw()
            where = int(u * 4)
            u = draw()
            shift = int(u * 3) - 1
            if where == 0:
                x, y = xs[j] + 2, ys[j] + shift
            elif where == 1:
                x, y = xs[j] - 2, ys[j] + shift
            elif where == 2:
                x, y = xs[j] + shift, ys[j] + 2
            else:
                x, y = xs[j] + shift, ys[j] - 2
            if x < 0 or y < 0 or x >= side or y >= side:
                continue
            nx[i], ny[i] = x, y
            u = draw()
            q = int(u * counts_of_turns[i])
            nr[i] = turns[4 * i + q]
            if nx[i] == xs[i] and ny[i] == ys[i] and nr[i] == rs[i]:
                continue
            low = i
        for i in range(n):
            nat[i], noff[i] = at[i], off[i]
        _code(nx, ny, nr, nat, noff, low, side, block)
        if high >= 0:
            _code(nx, ny, nr, nat, noff, high, side, block)
        if not _legal(foot, ring, nat, n, k, taken):
            continue
        done += 1
        value = _points(masks, noff, uptos, takes, scorings, n, types, k, width, rows,
                        current_first if low >= cut else -1, acc, counts, sizes, mask, group, grown, first_out)
        accept = value >= current
        if not accept:
            u = draw()
            accept = u < exp((value - current) / (t_start * ratio ** (done / evals)))
        if accept:
            current, current_first = value, first_out[0]
            for i in range(n):
                xs[i], ys[i], rs[i], at[i], off[i] = nx[i], ny[i], nr[i], nat[i], noff[i]
            accepted += 1
            if accepted % RECENTRE_EVERY == 0:
                _recentre(xs, ys, n, board)
                for i in range(n):
                    _code(xs, ys, rs, at, off, i, side, block)
            if current > best:
                best = current
                for i in range(n):
                    bx[i], by[i], br[i] = xs[i], ys[i], rs[i]
    out[0] = best
    return done


def run(g: Garden, start: list[Anchor], rng: random.Random, evals: int,
        stop: Callable[[], bool] | None = None, ceiling: int | None = None,
        fixed: int = 0) -> tuple[list[Anchor], int, int]:
    """One annealing run of `evals` evaluated gardens from the legal garden `start` (ending early at a
    garden worth `ceiling`): (best garden, its points, gardens evaluated). A try is a random move
    (see the module's doc); a legal one is evaluated and accepted by the Metropolis rule. The first
    `fixed` tiles never move relative to each other (the whole garden may be translated on the board)."""
    n = g.n
    if not 0 <= fixed <= n:
        raise ValueError(f"fixed: expected 0 to {n} tiles, got {fixed}")
    if n < 2 or fixed >= n:
        return list(start), g.points(start)[0], 0
    xs = array("q", [x for x, _, _ in start])
    ys = array("q", [y for _, y, _ in start])
    rs = array("q", [r for _, _, r in start])
    turns = array("q", [t[q] if q < len(t) else 0 for t in g.turns for q in range(4)])
    counts_of_turns = array("q", [len(t) for t in g.turns])
    bx, by, br = array("q", xs), array("q", ys), array("q", rs)
    out = array("q", [0])
    # (the arrays are held by this frame and `g`, and none is resized, while `_run` holds pointers)
    done = _run(g, _ptr(xs), _ptr(ys), _ptr(rs), _ptr(turns), _ptr(counts_of_turns), rng.random, evals,
                TRIES_PER_EVAL * evals, 2 ** 62 if ceiling is None else ceiling, stop, CHECK_EVERY, _ptr(bx),
                _ptr(by), _ptr(br), _ptr(out), fixed)
    return [(bx[i], by[i], br[i]) for i in range(n)], out[0], done


@dataclass
class Annealed:
    placements: list[Placement]
    points: int  # by the bit-mask scorer; the caller re-scores with the pure scorer
    evals: int  # gardens evaluated in all runs


def anneal_garden(tiles: Sequence[Tile], catalog: Catalog, board: int, rng: random.Random, evals: int,
                  restarts: int = 1, ceiling: int | None = None,
                  stop: Callable[[], bool] | None = None) -> Annealed:
    """The best garden of `restarts` runs of evals // restarts evaluations each, from random legal
    starts; stops early when a garden meets `ceiling` or `stop()` says so (checked between tries)."""
    g = Garden(tiles, catalog, board)
    best: list[Anchor] | None = None
    best_points = -1
    total = 0
    per_run = max(1, evals // max(1, restarts))
    for _ in range(max(1, restarts)):
        if best is not None and ((ceiling is not None and best_points >= ceiling) or (stop is not None and stop())):
            break
        found, points, done = run(g, g.random_start(rng), rng, per_run, stop, ceiling)
        total += done
        if points > best_points:
            best, best_points = found, points
    return Annealed(g.placements(best), best_points, total)
