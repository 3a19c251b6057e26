"""Horticulture solo: simulated annealing over whole games (the primal search before the CP-SAT steps).

A game is held as flat integer arrays: per day the card brought home (`choice`), per plant slot (two a
day, slot 2d + j is plant j of day d's card) its kind (a wild's chosen kind) and its square (`loc`, a
square index or WIN for the window box), and per square the kind planted there (`ck`, -1 when empty).

The planting rule, on those arrays: a plant on day d stands on a square next to the path or the gnome, or
touching a plant of an earlier day, or touching the other plant of its own day when that one stands so
(the two plants of a day may be drawn in either order); the window box holds each kind at most once and
at most its slots. Whether a game is legal depends only on which square holds a plant of which day, never
on the kinds, so a change of card keeps the squares' legality (only the window box is checked again).

Moves (each on a day that is not already played): put a plant on another square or in the window box
(swapping with the plant there, if any), bring the day's other card home (its plants on the same squares,
a wild at a random kind), change a wild's kind; when they are decisions (the best-plan question), also move
the gnome to an empty square allowed (`Board(gnome_squares=...)`) or change one of the plan's four kinds
(`free_plan`). Metropolis acceptance at a temperature falling from
T_START to T_END over a run; every run starts from the best game so far. A move's legality and points are
worked out from the squares it changes (`INCREMENTAL`; the whole game's check and score give the same answers,
so the same games, held together by the tests). Budgets count evaluations, so a
deterministic request gives the same game on every machine. The score is the pure scorer's rules
(scoring.score_sheet) written over the arrays; the caller re-scores the returned game with the pure
scorer and replays it with the pure rules (optimiser._anneal_step).

The tables and arrays are `array('q')` and the hot helpers take them as arguments, so that the compiled copy
(solver/core/compiled.py with anneal.pxd) runs them as C loops; the pure module runs the same program (same games from
the same seed), only slower. Every value held in them is a small count, index, kind or point total. Since 6 Dec 21:20
the helpers take each array as `_ptr(array)`: a raw pointer in the compiled copy, the array itself in pure Python (a
typed memoryview argument is a struct of about 200 bytes, copied into every call: `perf` put a quarter of a run's time
in those copies). The arrays are held by the caller's states, the board and `anneal_game`'s frame, and never resized,
while `_run` holds pointers into them.

Since 6 Dec 19:10 the compiled copy runs faster (measured in anneal.pxd), with three changes that keep the two
modules one program and the games the same, evaluation for evaluation:
- a run draws its random numbers from the caller's generator's own Mersenne Twister state (`getstate`), stepped
  in the loop by a port of CPython's (`_twist`, `_random`: the numbers `random.Random.random` gives, and the state
  handed back advanced), instead of calling `random.random` 4-5 times an evaluation;
- the Metropolis test calls C's `exp` (`cython.cimports.libc.math`: the same libm function as `math.exp` in the
  pure module, so the same floats; Cython, pinned in requirements.lock, must be installed either way);
- the array helpers are compiled without bounds or negative-index checks (`boundscheck`/`wraparound` off). Every
  index is a square, slot, day, table or twister entry in range, and a negative one is never used as such (the
  -1 and WIN markers are tested before indexing). Checked on 6 Dec with a build whose only change was the checks
  on (a negative or too large index raises there): the 304 Horticulture tests and 8 M evaluations on 40 games of
  8-32 cards, half of them with the gnome and plan moving, raised nothing.

Since 6 Dec 21:37, also with the same games (hashes of 40 compiled runs of 200,000 evaluations and 12 pure runs of
20,000, on 8-32 cards, some days played, a third with the gnome and plan moving, some with a ceiling, equal before and
after, down to the generator's state handed back): the pointers above; a move's squares gathered once, not before and
after it; and a move that may break a rule (squares change hands, or kinds go into the window box) made and checked
before its points are worked out (`_do`, `_undo`), so that the third of them that are illegal cost no points. Measured
on the same machine, 5 greedy 32-card games x 1 M evaluations, best of 3: 1.5 -> 2.4 M evaluations a second with the
pointers, 2.8 M with the check first (this machine ran the 6 Dec copy at 1.5 M, not the 2.5 M measured then).
"""
from __future__ import annotations

import random
from array import array

import cython
from cython.cimports.libc.math import exp

from .data import Catalog
from .garden import Cell, Garden, PathDrawing, Plan
from .state import WINDOW, Day, Planting

WIN = -2  # `loc` of a plant in the window box
T_START = 2.0
T_END = 0.2
# move mix (of 100): put a plant elsewhere (or swap it) below MOVE_PLACE, bring the other card home below
# MOVE_CARD, change a wild's kind up to 100; with the gnome or plan free the roll goes to 110 (100-104 the gnome,
# 105-109 a plan kind), so the games of a fixed setup do not change with them
MOVE_PLACE = 70
MOVE_CARD = 90
# of the placing moves, this share (of 100) aims at a square linked to a plant of the same kind (0: every target
# drawn uniformly)
MOVE_NEAR = 60
# a move's legality and points from the squares it changes, not the whole game (`_run`): the same games, faster
INCREMENTAL = True


def _q(values) -> array:
    return array("q", values)


class Board:
    """The fixed facts of one instance as integer tables (neighbours four to a square, -1 where none)."""

    def __init__(self, catalog: Catalog, side: str, drawing: PathDrawing, gnome: Cell, plan: Plan, days: list,
                 gnome_squares: list[Cell] | None = None, free_plan: bool = False):
        """`gnome_squares`: the squares the gnome may be moved to (None: it stays); `free_plan`: the plan's
        four kinds may change too (the best-plan question)."""
        sheet = catalog.sheet(side)
        garden = Garden(sheet, drawing)
        self.cells = list(garden.cells)
        index = {c: i for i, c in enumerate(self.cells)}
        self.index = index
        n = self.n = len(self.cells)
        self.kinds = list(catalog.plants)
        kid = {k: i for i, k in enumerate(self.kinds)}
        self.kid = kid
        self.nk = len(self.kinds)
        self.minimum = _q(catalog.plants[k].minimum_group_size for k in self.kinds)

        def four(of) -> array:
            out = []
            for c in self.cells:
                near = [index[m] for m in of(c)]
                out.extend(near + [-1] * (4 - len(near)))
            return _q(out)

        self.lk = four(garden.linked)  # linked: groups, gnome and companions (not across the path)
        self.tc = four(garden.touching)  # touching: the planting rule
        self.path = _q(int(garden.next_to_path(c)) for c in self.cells)
        self.border = _q(int(garden.on_border(c)) for c in self.cells)
        g = self.gnome = index[gnome]
        self.free = _q(self.path)  # plantable at any time: next to the path, and (below) next to the gnome
        self.gl = _q([0] * n)  # linked to the gnome
        _gnome_tables(_ptr(self.free), _ptr(self.gl), _ptr(self.path), _ptr(self.tc), _ptr(self.lk), g, g)
        self.plan = (kid[plan.border], kid[plan.path], kid[plan.companions[0]], kid[plan.companions[1]])
        self.gnome_ok = _q(int(gnome_squares is not None and c in gnome_squares) for c in self.cells)
        self.free_plan = free_plan
        self.slots = sheet.window_box_slots
        table = catalog.scoring
        self.window_points, self.window_bonus = table.window_box_points_per_plant, table.window_box_full_bonus
        self.per = table.plan_points_per_plant
        # per day: the cards that may come home, each as (card id, kind of plant 0, kind of plant 1; -1 wild)
        self.options: list[list[tuple[int, int, int]]] = []
        fixed = []
        for spec in days:
            opts = []
            for cid in spec.options:
                a, b = catalog.card(cid).plants
                opts.append((cid, -1 if a == catalog.wild else kid[a], -1 if b == catalog.wild else kid[b]))
            self.options.append(opts)
            fixed.append(int(spec.fixed is not None))
        self.fixed = _q(fixed)
        # the option tables of the loop: per day its count (0 when played) and kinds [d * 4 + 2 * option + j]
        self.nopt = _q(0 if fixed[d] else len(o) for d, o in enumerate(self.options))
        self.optk = _q(k for o in self.options for c in range(2) for k in (o[c][1:] if c < len(o) else (-1, -1)))
        self.mark = _q([0] * n)  # scratch of the scorer
        self.stack = _q([0] * n)
        self.near = _q([0] * n)  # scratch of the aimed placing move: the squares of the plants of one kind
        self.squares = _q(range(n))  # every square, for `_points`
        self.cand = _q([0] * 10)  # scratch of the annealing's points of a move: two squares and those linked to them
        self.check = _q([0] * 18)  # scratch of `_legal_near`: the slots whose planting rule a move may break
        self.gen = 0


@cython.boundscheck(False)
@cython.wraparound(False)
def _gnome_tables(free, gl, path, tc, lk, old: int, new: int) -> None:
    """Move the gnome from square old to new in the tables `free` (plantable at any time) and `gl` (linked to
    the gnome): only the squares touching either change."""
    for g in (old, new):
        for j in range(4 * g, 4 * g + 4):
            y = tc[j]
            if y >= 0:
                near = 0
                for i in range(4 * y, 4 * y + 4):
                    if tc[i] == new:
                        near = 1
                free[y] = 1 if path[y] else near
                link = 0
                for i in range(4 * y, 4 * y + 4):
                    if lk[i] == new:
                        link = 1
                gl[y] = link


class State:
    def __init__(self, board: Board, choice, kind, loc, gnome: int | None = None, plan: tuple | None = None):
        self.choice, self.kind, self.loc = _q(choice), _q(kind), _q(loc)
        self.gnome = board.gnome if gnome is None else gnome  # a square index
        self.plan = board.plan if plan is None else tuple(plan)  # kinds: border, path, first and second companion
        self.ck = _q([-1] * board.n)  # the kind on each square
        self.at = _q([-1] * board.n)  # the slot on each square
        for s, x in enumerate(self.loc):
            if x >= 0:
                self.ck[x] = self.kind[s]
                self.at[x] = s

    def copy(self, board: Board) -> "State":
        return State(board, self.choice, self.kind, self.loc, self.gnome, self.plan)

    def gnome_cell(self, board: Board) -> Cell:
        return board.cells[self.gnome]

    def plan_of(self, board: Board) -> Plan:
        pb, pp, c1, c2 = (board.kinds[k] for k in self.plan)
        return Plan(pb, pp, (c1, c2))


def from_game(board: Board, days: list, game: list[Day]) -> State | None:
    """The arrays of a legal game (e.g. the greedy player's); None when it does not fit them (a day with
    other than two plants, or more than two cards to choose from, or a catalog of more than 62 plant kinds)."""
    if board.nk > 62:  # the window box's kinds are a 64-bit mask in the compiled copy
        return None
    choice, kind, loc = [], [], []
    for d, day in enumerate(game):
        opts = board.options[d]
        ids = [o[0] for o in opts]
        if len(day.plants) != 2 or len(opts) > 2 or day.chosen not in ids:
            return None
        c = ids.index(day.chosen)
        _, ka, kb = opts[c]
        p = list(day.plants)
        k0, k1 = board.kid[p[0].plant], board.kid[p[1].plant]
        if (ka >= 0 and ka != k0) or (kb >= 0 and kb != k1):
            p.reverse()
            k0, k1 = k1, k0
        choice.append(c)
        for pl, k in zip(p, (k0, k1)):
            kind.append(k)
            loc.append(WIN if pl.at == WINDOW else board.index[pl.at])
    return State(board, choice, kind, loc)


def to_game(board: Board, days: list, state: State) -> list[Day]:
    out = []
    for d, spec in enumerate(days):
        if spec.fixed is not None:
            out.append(Day(spec.options[0], tuple(spec.fixed)))
            continue
        cid = board.options[d][state.choice[d]][0]
        plants = tuple(Planting(board.kinds[state.kind[s]],
                                WINDOW if state.loc[s] == WIN else board.cells[state.loc[s]])
                       for s in (2 * d, 2 * d + 1))
        out.append(Day(cid, plants))
    return out


@cython.boundscheck(False)
@cython.wraparound(False)
def _ptr(v):
    """What the helpers below take for an array: in the compiled copy a raw pointer to its first entry (a memoryview
    argument is a struct of about 200 bytes copied into every call, about a quarter of a run's time, measured 6 Dec);
    in pure Python the array itself. The caller keeps the array alive, and does not resize it, while the pointer is
    in use."""
    return cython.address(v[0]) if cython.compiled else v


@cython.boundscheck(False)
@cython.wraparound(False)
def _base(free, tc, at, x: int, d: int) -> bool:
    """A plant of day d on square x stands without its partner: next to the path or the gnome, or
    touching a plant of an earlier day."""
    if free[x]:
        return True
    for j in range(4 * x, 4 * x + 4):
        y = tc[j]
        if y >= 0:
            t = at[y]
            if t >= 0 and (t >> 1) < d:
                return True
    return False


@cython.boundscheck(False)
@cython.wraparound(False)
def _slot_ok(loc, at, free, tc, s: int) -> bool:
    """Slot s's planting rule (a plant in the window box: the box's own rule, `_window_ok`)."""
    x = loc[s]
    if x < 0:
        return True
    d = s >> 1
    if _base(free, tc, at, x, d):
        return True
    y = loc[s ^ 1]
    if y >= 0:
        for j in range(4 * x, 4 * x + 4):
            if tc[j] == y:
                return _base(free, tc, at, y, d)
    return False


@cython.boundscheck(False)
@cython.wraparound(False)
def _window_ok(loc, kind, slots: int, nslot: int) -> bool:
    """The window box holds each kind at most once and at most its slots (`nslot` plants: `len(loc)`)."""
    win = WIN
    seen = 0
    count = 0
    for s in range(nslot):
        if loc[s] == win:
            bit = 1 << kind[s]
            if seen & bit:
                return False
            seen |= bit
            count += 1
    return count <= slots


@cython.boundscheck(False)
@cython.wraparound(False)
def _legal(loc, at, kind, free, tc, slots: int, nslot: int) -> bool:
    for s in range(nslot):
        if not _slot_ok(loc, at, free, tc, s):
            return False
    return _window_ok(loc, kind, slots, nslot)


@cython.boundscheck(False)
@cython.wraparound(False)
def _legal_near(loc, at, free, tc, scratch, s: int, t: int, x: int, y: int) -> bool:
    """After slots s and t (t = -1: none) moved off squares x and y (or the window box, WIN) of a legal game,
    the planting rule where it may now fail: the moved slots, and the plants on squares touching x, y or the
    moved slots' new squares (`_base` reads those squares). Any other plant's own square reads no changed square;
    if it stood through its partner, that partner stood next to it, so either the partner moved (off x or y, which
    the plant touches) or it stays on a square touching a changed one and, if it falls, is caught itself (it cannot
    stand through the plant in turn). So this is `_legal`'s answer but for the window box (`_window_ok`'s).
    `_slot_ok`'s rule is written out: a call per plant costs more than the check in the compiled copy. `scratch`
    holds 18."""
    many = 0
    for e in range(4):
        if e == 0:
            z = s
        elif e == 1:
            z = t
        elif e == 2:
            z = x
        else:
            z = y
        if z < 0:
            continue
        if e < 2:  # a moved slot, then the squares touching its new square
            scratch[many] = z
            many += 1
            z = loc[z]
            if z < 0:
                continue
        for j in range(4 * z, 4 * z + 4):
            w = tc[j]
            if w >= 0:
                u = at[w]
                if u >= 0:
                    scratch[many] = u
                    many += 1
    for i in range(many):
        u = scratch[i]
        q = loc[u]
        if q < 0:
            continue
        d = u >> 1
        p = loc[u ^ 1]
        for e in range(2):  # the plant's own square, then (when touching it) its partner's
            if e == 1:
                if p < 0:
                    return False
                near = False
                for j in range(4 * q, 4 * q + 4):
                    if tc[j] == p:
                        near = True
                if not near:
                    return False
                q = p
            if free[q]:
                break
            stands = False
            for j in range(4 * q, 4 * q + 4):
                w = tc[j]
                if w >= 0 and at[w] >= 0 and (at[w] >> 1) < d:
                    stands = True
            if stands:
                break
        else:
            return False
    return True


def legal(board: Board, state: State) -> bool:
    return _legal(_ptr(state.loc), _ptr(state.at), _ptr(state.kind), _ptr(board.free), _ptr(board.tc), board.slots,
                  len(state.loc))


@cython.boundscheck(False)
@cython.wraparound(False)
def _points(ck, loc, lk, path, border, gl, minimum, mark, stack, squares, gen: int, pb: int, pp: int, c1: int,
            c2: int, per: int, window_points: int, window_bonus: int, slots: int, n: int, nslot: int) -> int:
    """The final score (scoring.score_sheet's rules): the window box, and `_scored` over every square (`squares`
    holds 0 .. n - 1; `n` squares, `nslot` plants). `mark` holds no entry equal to gen."""
    return _window(loc, window_points, window_bonus, slots, nslot) + _scored(ck, lk, path, border, gl, minimum, mark,
                                                                             stack, squares, n, gen, pb, pp, c1, c2,
                                                                             per)


@cython.boundscheck(False)
@cython.wraparound(False)
def _scored(ck, lk, path, border, gl, minimum, mark, stack, squares, many: int, gen: int, pb: int, pp: int, c1: int,
            c2: int, per: int) -> int:
    """The points of the groups holding a square among squares[:many] (each group once), and those squares' plan
    points (border, path, companions). Over every square: the score but for the window box; over the squares a move
    changes and the squares linked to them, before and after the move: the change of the score (`_run`). `mark`
    holds no entry equal to gen."""
    total = 0
    for i in range(many):
        x = squares[i]
        k = ck[x]
        if k < 0:
            continue
        if k == pb and border[x]:
            total += per
        if k == pp and path[x]:
            total += per
        if k == c1:
            for j in range(4 * x, 4 * x + 4):
                z = lk[j]
                if z >= 0 and ck[z] == c2:
                    total += per
                    break
        if mark[x] == gen:
            continue
        mark[x] = gen
        stack[0] = x
        top = 1
        size = 0
        gnomed = False
        while top:
            top -= 1
            y = stack[top]
            size += 1
            if gl[y]:
                gnomed = True
            for j in range(4 * y, 4 * y + 4):
                z = lk[j]
                if z >= 0 and ck[z] == k and mark[z] != gen:
                    mark[z] = gen
                    stack[top] = z
                    top += 1
        m = minimum[k]
        if size >= m:
            total += m
            if gnomed:
                total += m
    return total


@cython.boundscheck(False)
@cython.wraparound(False)
def _window(loc, window_points: int, window_bonus: int, slots: int, nslot: int) -> int:
    """The window box's points (`_points`'s first part; `nslot` plants)."""
    win = WIN
    count = 0
    for s in range(nslot):
        if loc[s] == win:
            count += 1
    total = count * window_points
    if slots and count >= slots:
        total += window_bonus
    return total


def points(board: Board, state: State) -> int:
    """The state's points; its gnome must be the board's (the tables are the board's gnome's)."""
    if state.gnome != board.gnome:
        raise ValueError("the state's gnome is not the board's")
    board.gen += 1
    pb, pp, c1, c2 = state.plan
    return _points(_ptr(state.ck), _ptr(state.loc), _ptr(board.lk), _ptr(board.path), _ptr(board.border),
                   _ptr(board.gl), _ptr(board.minimum), _ptr(board.mark), _ptr(board.stack), _ptr(board.squares),
                   board.gen, pb, pp, c1, c2, board.per, board.window_points, board.window_bonus, board.slots, board.n,
                   len(state.loc))


@cython.boundscheck(False)
@cython.wraparound(False)
def _place(loc, ck, at, kind, s: int, x: int) -> None:
    """Put slot s on x (a free square or WIN)."""
    old = loc[s]
    if old >= 0:
        ck[old] = -1
        at[old] = -1
    loc[s] = x
    if x >= 0:
        ck[x] = kind[s]
        at[x] = s


def place(state: State, s: int, x: int) -> None:
    _place(_ptr(state.loc), _ptr(state.ck), _ptr(state.at), _ptr(state.kind), s, x)


@cython.boundscheck(False)
@cython.wraparound(False)
def _swap(loc, ck, at, kind, s: int, t: int) -> None:
    a = loc[s]
    b = loc[t]
    loc[s] = b
    loc[t] = a
    if b >= 0:
        ck[b] = kind[s]
        at[b] = s
    if a >= 0:
        ck[a] = kind[t]
        at[a] = t


@cython.boundscheck(False)
@cython.wraparound(False)
def _set_kind(loc, ck, kind, s: int, k: int) -> None:
    kind[s] = k
    x = loc[s]
    if x >= 0:
        ck[x] = k


@cython.boundscheck(False)
@cython.wraparound(False)
def _do(loc, ck, at, kind, choice, move: int, a: int, b: int, target: int, ka: int, kb: int, k: int) -> None:
    """Make `_run`'s move 1-4: 1 put slot a on target (a free square or WIN), 2 swap slots a and b, 3 bring day a's
    other card home (kinds ka and kb on the same squares, the two swapped when b), 4 give slot a kind k."""
    if move == 1:
        _place(loc, ck, at, kind, a, target)
    elif move == 2:
        _swap(loc, ck, at, kind, a, b)
    elif move == 3:
        choice[a] = 1 - choice[a]
        _set_kind(loc, ck, kind, 2 * a, ka)
        _set_kind(loc, ck, kind, 2 * a + 1, kb)
        if b:
            _swap(loc, ck, at, kind, 2 * a, 2 * a + 1)
    else:
        _set_kind(loc, ck, kind, a, k)


@cython.boundscheck(False)
@cython.wraparound(False)
def _undo(loc, ck, at, kind, choice, move: int, a: int, b: int, old: int, was0: int, was1: int) -> None:
    """Undo `_do`'s move: `old` is slot a's square (1), day a's card (3) or slot a's kind (4) before it, was0 and
    was1 day a's kinds before it (3)."""
    if move == 1:
        _place(loc, ck, at, kind, a, old)
    elif move == 2:
        _swap(loc, ck, at, kind, a, b)
    elif move == 3:
        if b:
            _swap(loc, ck, at, kind, 2 * a, 2 * a + 1)
        choice[a] = old
        _set_kind(loc, ck, kind, 2 * a, was0)
        _set_kind(loc, ck, kind, 2 * a + 1, was1)
    elif move == 4:
        _set_kind(loc, ck, kind, a, old)


# CPython's Mersenne Twister (MT19937, Modules/_randommodule.c), so that a run draws exactly the numbers
# `random.Random.random` would: the state is the generator's own (`getstate`), and is handed back advanced.
MT_N = 624
MT_M = 397
MT_A = 0x9908B0DF
MT_UPPER = 0x80000000
MT_LOWER = 0x7FFFFFFF
MT_B = 0x9D2C5680
MT_C = 0xEFC60000


@cython.boundscheck(False)
@cython.wraparound(False)
def _twist(mt) -> None:
    """The next 624 words of the twister in `mt` (624 words and the index of the next), in place, as CPython's
    genrand_uint32 makes them; the index goes back to 0."""
    for k in range(MT_N - 1):  # (the words from k + MT_M on are the old ones, those before it already new)
        y = (mt[k] & MT_UPPER) | (mt[k + 1] & MT_LOWER)
        m = k + MT_M if k < MT_N - MT_M else k + MT_M - MT_N
        mt[k] = mt[m] ^ (y >> 1) ^ (MT_A if y & 1 else 0)
    y = (mt[MT_N - 1] & MT_UPPER) | (mt[0] & MT_LOWER)
    mt[MT_N - 1] = mt[MT_M - 1] ^ (y >> 1) ^ (MT_A if y & 1 else 0)
    mt[MT_N] = 0


@cython.boundscheck(False)
@cython.wraparound(False)
def _random(mt) -> float:
    """`random.Random.random` on the twister in `mt` (advanced): two tempered 32-bit words, 53 random bits in
    [0, 1). (Written out rather than a word helper called twice: the compiled copy copies the memoryview per call.)"""
    if mt[MT_N] >= MT_N:
        _twist(mt)
    i = mt[MT_N]
    y = mt[i]
    y ^= y >> 11
    y ^= (y << 7) & MT_B
    y ^= (y << 15) & MT_C
    y ^= y >> 18
    a = y >> 5
    i += 1
    if i >= MT_N:
        _twist(mt)
        i = 0
    y = mt[i]
    y ^= y >> 11
    y ^= (y << 7) & MT_B
    y ^= (y << 15) & MT_C
    y ^= y >> 18
    mt[MT_N] = i + 1
    return (a * 67108864.0 + (y >> 6)) * (1.0 / 9007199254740992.0)


@cython.boundscheck(False)
@cython.wraparound(False)
def _run(board: Board, loc, ck, at, kind, choice, best_loc, best_kind, best_choice, movable, mt, evals: int,
         per_run: int, current: int, ceiling: int, stop, out, incremental: bool, nslot: int, nmov: int) -> int:
    """The annealing loop on the arrays of the current state (legal, scoring `current`); the best state is kept
    in best_* (out[0] its points). Returns the evaluations used.

    `incremental`: a move's legality and points are worked out from the squares it changes (`_legal_near`,
    `_scored` over them, `_window`) instead of the whole game (`_legal`, `_points`); both give the same answers
    from a legal state (the tests hold them together), so the games are the same, only found faster. Moving the
    gnome or changing the plan is always worked out in full."""
    win = WIN
    move_place = MOVE_PLACE
    move_card = MOVE_CARD
    move_near = MOVE_NEAR
    n = board.n
    nk = board.nk
    slots = board.slots
    gnome = board.gnome
    free = _ptr(board.free)
    tc = _ptr(board.tc)
    lk = _ptr(board.lk)
    path = _ptr(board.path)
    border = _ptr(board.border)
    gl = _ptr(board.gl)
    minimum = _ptr(board.minimum)
    mark = _ptr(board.mark)
    stack = _ptr(board.stack)
    fixed = _ptr(board.fixed)
    nopt = _ptr(board.nopt)
    optk = _ptr(board.optk)
    near = _ptr(board.near)
    cand = _ptr(board.cand)
    squares = _ptr(board.squares)
    check = _ptr(board.check)
    gnome_ok = _ptr(board.gnome_ok)
    days = len(board.nopt)
    pb, pp, c1, c2 = board.plan
    per, window_points, window_bonus = board.per, board.window_points, board.window_bonus
    moves = 100  # the move roll: 0-99 as above; 100-104 the gnome, 105-109 a plan kind (when they may change)
    for x in range(n):
        if gnome_ok[x]:
            moves = 110
    if board.free_plan:
        moves = 110
    free_plan = board.free_plan
    best_gnome = gnome
    best_pb = pb
    best_pp = pp
    best_c1 = c1
    best_c2 = c2
    flippable = 0
    for d in range(days):
        if nopt[d] > 1:
            flippable += 1
    best = current
    gen = board.gen
    used = 0
    while used < evals:
        if used:  # a new run from the best state
            for s in range(nslot):
                loc[s] = best_loc[s]
                kind[s] = best_kind[s]
            for d in range(days):
                choice[d] = best_choice[d]
            for x in range(n):
                ck[x] = -1
                at[x] = -1
            for s in range(nslot):
                if loc[s] >= 0:
                    ck[loc[s]] = kind[s]
                    at[loc[s]] = s
            if gnome != best_gnome:
                _gnome_tables(free, gl, path, tc, lk, gnome, best_gnome)
                gnome = best_gnome
            pb = best_pb
            pp = best_pp
            c1 = best_c1
            c2 = best_c2
            current = best
        length = min(per_run, evals - used)
        cool = (T_END / T_START) ** (1.0 / max(1, length))
        temp = T_START
        for _ in range(length):
            used += 1
            temp *= cool
            if stop is not None and not used & 255 and stop():
                break
            u = _random(mt)
            r = int(u * moves)
            move = 0  # 1 place, 2 swap, 3 card, 4 kind
            a = 0
            b = 0
            c = 0
            old = 0
            was0 = 0
            was1 = 0
            target = 0  # (what `_do` reads of the moves that do not set them)
            ka = 0
            kb = 0
            k = 0
            sx = -1  # the squares whose kind the move changes (-1: none)
            sy = -1
            wcount = False  # the move changes the window box's count
            wkinds = False  # the move puts a plant in the window box, or changes a kind there
            before = 0
            if r < move_place:
                u = _random(mt)
                i = int(u * nmov)
                a = movable[i]
                aimed = False
                if move_near:
                    u = _random(mt)
                    i = int(u * 100)  # a typed local: a C cast, not a Python int
                    aimed = i < move_near
                if aimed:
                    k = kind[a]
                    pick = 0
                    for s in range(nslot):
                        if s != a and kind[s] == k and loc[s] >= 0:
                            near[pick] = loc[s]
                            pick += 1
                    if not pick:
                        continue
                    u = _random(mt)
                    i = int(u * pick)
                    x = near[i]
                    u = _random(mt)
                    i = int(u * 4)
                    target = lk[4 * x + i]
                    if target < 0:
                        continue
                else:
                    u = _random(mt)
                    target = int(u * (n + 1))
                if target == n:  # the window box
                    if loc[a] == win or not slots:
                        continue
                    inside = 0
                    for s in range(nslot):
                        if loc[s] == win:
                            inside += 1
                    if inside < slots:
                        move = 1
                        old = loc[a]
                        sx = old
                        target = win
                        wcount = True
                        wkinds = True
                    else:
                        u = _random(mt)
                        pick = int(u * inside)
                        b = -1
                        for s in range(nslot):
                            if loc[s] == win:
                                if pick == 0:
                                    b = s
                                    break
                                pick -= 1
                        if fixed[b >> 1] or kind[b] == kind[a]:
                            continue
                        move = 2
                        sx = loc[a]
                        wkinds = True
                else:
                    if target == gnome or target == loc[a]:
                        continue
                    b = at[target]
                    sx = loc[a]
                    sy = target
                    if sx == win:
                        sx = -1
                        wcount = b < 0  # a plant leaves the window box (or another takes its place)
                        wkinds = b >= 0
                    if b < 0:
                        move = 1
                        old = loc[a]
                    else:
                        if fixed[b >> 1] or kind[b] == kind[a]:
                            continue
                        move = 2
            elif r < move_card:
                if not flippable:
                    continue
                u = _random(mt)
                pick = int(u * flippable)
                a = -1
                for d in range(days):
                    if nopt[d] > 1:
                        if pick == 0:
                            a = d
                            break
                        pick -= 1
                old = choice[a]
                c = 1 - old
                ka = optk[4 * a + 2 * c]
                kb = optk[4 * a + 2 * c + 1]
                if ka < 0:
                    u = _random(mt)
                    ka = int(u * nk)
                if kb < 0:
                    u = _random(mt)
                    kb = int(u * nk)
                u = _random(mt)
                b = int(u * 2)  # the new plants on the old squares, either way round
                move = 3
                sx = loc[2 * a]
                sy = loc[2 * a + 1]
                if sx == win:
                    sx = -1
                    wkinds = True
                if sy == win:
                    sy = -1
                    wkinds = True
            elif r < 100:
                u = _random(mt)
                i = int(u * nmov)
                a = movable[i]
                d = a >> 1
                if optk[4 * d + 2 * choice[d] + (a & 1)] >= 0:
                    continue  # not a wild
                u = _random(mt)
                k = int(u * (nk - 1))
                if k >= kind[a]:
                    k += 1
                move = 4
                old = kind[a]
                sx = loc[a]
                if sx == win:
                    sx = -1
                    wkinds = True
            elif r < 105:
                u = _random(mt)
                target = int(u * n)
                if not gnome_ok[target] or target == gnome or at[target] >= 0:
                    continue
                move = 5
                old = gnome
                _gnome_tables(free, gl, path, tc, lk, gnome, target)
                gnome = target
            else:
                if not free_plan:
                    continue
                u = _random(mt)
                a = int(u * 4)
                u = _random(mt)
                k = int(u * nk)
                move = 6
                if a == 0:
                    old = pb
                    pb = k
                elif a == 1:
                    old = pp
                    pp = k
                elif a == 2:
                    old = c1
                    c1 = k
                else:
                    old = c2
                    c2 = k
                if old == k:
                    continue
            ok = True
            value = 0
            many = 0
            if incremental and 0 < move <= 4:
                # The groups holding a square among sx, sy and the squares linked to them, and those squares' plan
                # points: every other group and plan point is the same before and after the move, so the change of
                # this sum (and of the window box's points, when its count changes) is the change of `_points`.
                # (The squares, `cand[:many]`, are the same before and after the move.)
                for e in range(2):
                    z = sx if e == 0 else sy
                    if z < 0:
                        continue
                    for j in range(-1, 4):
                        w = z if j < 0 else lk[4 * z + j]
                        if w < 0:
                            continue
                        seen = False
                        for i in range(many):
                            if cand[i] == w:
                                seen = True
                                break
                        if not seen:
                            cand[many] = w
                            many += 1
            if 0 < move <= 4:
                if move == 3:
                    was0 = kind[2 * a]  # the old kinds, to undo
                    was1 = kind[2 * a + 1]
                if not incremental:
                    _do(loc, ck, at, kind, choice, move, a, b, target, ka, kb, k)
                else:
                    # A move that may break a rule (squares change hands, or kinds go into the window box) is made
                    # and checked first, and undone for its points before it when legal: about a third are not, and
                    # their points are then never worked out.
                    if move <= 2 or wkinds:
                        _do(loc, ck, at, kind, choice, move, a, b, target, ka, kb, k)
                        if move <= 2:  # squares changed hands: the planting rule near them (from a legal game)
                            ok = _legal_near(loc, at, free, tc, check, a, b if move == 2 else -1,
                                             old if move == 1 else sx, -1 if move == 1 else sy)
                        if ok and wkinds:
                            ok = _window_ok(loc, kind, slots, nslot)
                        if ok:
                            _undo(loc, ck, at, kind, choice, move, a, b, old, was0, was1)
                    if ok:
                        for phase in range(2):  # the points on the changed squares before the move, then after it
                            gen += 1
                            part = _scored(ck, lk, path, border, gl, minimum, mark, stack, cand, many, gen, pb, pp,
                                           c1, c2, per)
                            if wcount:
                                part += _window(loc, window_points, window_bonus, slots, nslot)
                            if phase == 0:
                                before = part
                                _do(loc, ck, at, kind, choice, move, a, b, target, ka, kb, k)
                        value = current - before + part
            if not incremental or move > 4:
                ok = _legal(loc, at, kind, free, tc, slots, nslot)
                if ok:
                    gen += 1
                    value = _points(ck, loc, lk, path, border, gl, minimum, mark, stack, squares, gen, pb, pp, c1, c2,
                                    per, window_points, window_bonus, slots, n, nslot)
            if ok:
                delta = value - current
                if delta < 0:
                    u = _random(mt)
                    ok = u < exp(delta / temp)
            if ok:
                current = value
                if current > best:
                    best = current
                    for s in range(nslot):
                        best_loc[s] = loc[s]
                        best_kind[s] = kind[s]
                    for d in range(days):
                        best_choice[d] = choice[d]
                    best_gnome = gnome
                    best_pb = pb
                    best_pp = pp
                    best_c1 = c1
                    best_c2 = c2
                    if ceiling >= 0 and best >= ceiling:
                        break
                continue
            if move <= 4:
                _undo(loc, ck, at, kind, choice, move, a, b, old, was0, was1)
            elif move == 5:
                _gnome_tables(free, gl, path, tc, lk, gnome, old)
                gnome = old
            elif a == 0:
                pb = old
            elif a == 1:
                pp = old
            elif a == 2:
                c1 = old
            else:
                c2 = old
        else:
            continue  # the run ended: the next one starts from the best state
        break  # stopped, or the ceiling reached
    if gnome != board.gnome:  # the tables back at the board's gnome
        _gnome_tables(free, gl, path, tc, lk, gnome, board.gnome)
    board.gen = gen
    out[0] = best
    out[1] = best_gnome
    out[2] = best_pb
    out[3] = best_pp
    out[4] = best_c1
    out[5] = best_c2
    return used


def anneal_game(board: Board, start: State, rng: random.Random, evals: int, runs: int, ceiling: int | None = None,
                stop=None) -> tuple[State, int, int]:
    """Best state found from `start` (legal), its points and the evaluations used. Stops early on reaching
    `ceiling` (a proven bound) or when `stop()` is true (asked every 256 evaluations)."""
    if start.plan != board.plan:
        raise ValueError("the start's plan is not the board's")
    state = start.copy(board)
    best = start.copy(board)
    current = points(board, state)
    movable = _q(s for s in range(len(state.loc)) if not board.fixed[s >> 1])
    if not len(movable) or evals < 1:
        return best, current, 0
    out = _q([current, 0, 0, 0, 0, 0])
    version, words, gauss = rng.getstate()
    mt = _q(words)
    # (the arrays are held by state, best, board and this frame, and none is resized, while `_run` holds pointers)
    used = _run(board, _ptr(state.loc), _ptr(state.ck), _ptr(state.at), _ptr(state.kind), _ptr(state.choice),
                _ptr(best.loc), _ptr(best.kind), _ptr(best.choice), _ptr(movable), _ptr(mt), evals,
                max(1, evals // max(1, runs)), current, -1 if ceiling is None else ceiling, stop, _ptr(out),
                INCREMENTAL and legal(board, state), len(state.loc), len(movable))
    rng.setstate((version, tuple(mt), gauss))  # advanced as if the run had called rng.random()
    return State(board, best.choice, best.kind, best.loc, out[1], out[2:6]), out[0], used
