"""Exact Horticulture oracle that prunes (claims audit, second round, 1 Dec 08:15-10:05 UTC).

Written from the rulebook like `oracles_horticulture.py` (whose sheet geometry, planting rule and
scorer it uses; it calls nothing of the engine). `Sheet.best` there keeps every state of every day
and stops at 2 days; this one plays 3-4 days by branch and bound over single plantings:

* A day of card {a, b} is: plant one of a, b, then the other (the rulebook lets both orders; the
  second may lean on the first). Each day's card and each wild's plant are fixed per *assignment*
  (2^days x 6^wilds of them, each searched in turn, one shared incumbent).
* Memo: two nodes of one assignment with the same day, step, plant still to plant, garden and
  window box have the same completions; the second is skipped.
* **Bound** (each part valid for every completion; `bound` below). Let g_p be the plants of type p
  still to come that go to the garden (the rest, at most one per type not yet in the box, go to the
  window box; the bound takes the best such split). Final score = groups + gnome + box + plan:
  - groups of p: a complete group at the end either is a complete group of now (merging two
    complete groups only lowers the count) or contains a new plant; a complete group with a new
    plant and no complete group of now consists of new plants and incomplete groups of now that
    have an empty, plantable neighbour (an *open* group; a group without one can never grow), so
    the groups gained are at most min(g_p, floor((g_p + open incomplete plants of p) / min_p)).
  - gnome: a gnome-adjacent complete group at the end that was not counted now holds a gnome
    neighbour that is empty now (then a new plant of its type p sits there) or holds an incomplete
    group now (of its type q), and distinct groups hold distinct neighbours; so the bonus is at most
    the bonus now + per such neighbour the largest min_p of a type p that may end with a complete
    group (complete now or gaining one) and comes again (empty neighbour), or min_q (incomplete).
  - box: its plants at the end, + 6 when full.
  - border / path: 2 per scoring plant now + 2 per new plant of the planned type (a plant never
    moves, so a scoring one keeps scoring and a non-scoring one never starts).
  - companions: a first-box plant scoring at the end scores now, or is new, or is an old one with
    an empty neighbour (it needs a new companion next to it, which is one of at most 4 neighbours of
    a new second-box plant): 2 x (scoring now + new firsts + min(open old firsts, 4 x new seconds)).
  A node is cut when this is <= the best known (the claim to beat), so no better game is cut.

`tests/claims/test_horticulture_larger.py` checks it against `Sheet.best` on 1-2 day nurseries.
"""
from __future__ import annotations

import itertools

from . import oracles_horticulture as h

MIN = h.MINIMUM
PLANTS = h.PLANTS
WINDOW = h.WINDOW


class Fast:
    """Precomputed geometry of one sheet and gnome, a scorer and the bound."""

    def __init__(self, sheet: h.Sheet, gnome, plan: dict):
        self.sheet, self.gnome, self.plan = sheet, gnome, plan
        self.cells = [c for c in sheet.cells if c != gnome]
        self.adj = {c: sheet.adjacent(c) for c in sheet.cells}
        self.near = {c: [n for n, _ in sheet.around(c)] for c in sheet.cells}  # planting rule: any side
        self.path_ok = {c: sheet.by_path(c) for c in sheet.cells}
        self.border = {c: sheet.border(c) for c in sheet.cells}
        self.gnome_adj = set(self.adj[gnome]) if gnome is not None else set()

    def spots(self, garden: dict, box: frozenset, plant: str):
        out = []
        for c in self.cells:
            if c in garden:
                continue
            if self.path_ok[c] or any(n == self.gnome or n in garden for n in self.near[c]):
                out.append(c)
        if len(box) < 6 and plant not in box:
            out.append(WINDOW)
        return out

    def groups(self, garden: dict):
        seen, out = set(), []
        for cell, plant in garden.items():
            if cell in seen:
                continue
            grp, stack = {cell}, [cell]
            while stack:
                for n in self.adj[stack.pop()]:
                    if n not in grp and garden.get(n) == plant:
                        grp.add(n)
                        stack.append(n)
            seen |= grp
            out.append((plant, grp))
        return out

    def score(self, garden: dict, box) -> int:
        total = 0
        for plant, grp in self.groups(garden):
            if len(grp) >= MIN[plant]:
                total += MIN[plant] * (2 if grp & self.gnome_adj else 1)
        total += len(box) + (6 if len(box) == 6 else 0)
        plan = self.plan
        total += 2 * sum(1 for c, p in garden.items() if p == plan["border"] and self.border[c])
        total += 2 * sum(1 for c, p in garden.items() if p == plan["path"] and self.path_ok[c])
        first, second = plan["companions"]
        total += 2 * sum(1 for c, p in garden.items() if p == first and any(garden.get(n) == second for n in self.adj[c]))
        return total

    def is_open(self, garden: dict, cells) -> bool:
        return any(n not in garden and n != self.gnome for c in cells for n in self.adj[c])

    def bound(self, garden: dict, box: frozenset, rest: dict[str, int]) -> int:
        """Upper bound of the final score with the plants `rest` (type -> count) still to plant."""
        complete = {p: 0 for p in PLANTS}
        open_inc = {p: 0 for p in PLANTS}
        bonus_now = 0
        slot_types = []  # free gnome neighbours: None (empty) or the incomplete group's type
        for plant, grp in self.groups(garden):
            if len(grp) >= MIN[plant]:
                complete[plant] += 1
                if grp & self.gnome_adj:
                    bonus_now += MIN[plant]
            else:
                if self.is_open(garden, grp):
                    open_inc[plant] += len(grp)
                slot_types += [plant] * len(grp & self.gnome_adj)
        slot_types += [None] * sum(1 for n in self.gnome_adj if n not in garden)
        plan = self.plan
        first, second = plan["companions"]
        b_now = 2 * sum(1 for c, p in garden.items() if p == plan["border"] and self.border[c])
        p_now = 2 * sum(1 for c, p in garden.items() if p == plan["path"] and self.path_ok[c])
        c_now = c_open = 0
        for c, p in garden.items():
            if p != first:
                continue
            if any(garden.get(n) == second for n in self.adj[c]):
                c_now += 1
            elif any(n not in garden and n != self.gnome for n in self.adj[c]):
                c_open += 1
        groups_now = sum(MIN[p] * complete[p] for p in PLANTS)
        types = [p for p in PLANTS if rest.get(p)]
        can_box = [p for p in types if p not in box]
        best = -1
        for mask in range(1 << len(can_box)):
            boxed = {p for k, p in enumerate(can_box) if mask >> k & 1}
            if len(box) + len(boxed) > 6:
                continue
            g = {p: rest.get(p, 0) - (p in boxed) for p in PLANTS}
            gain = {p: min(g[p], (g[p] + open_inc[p]) // MIN[p]) for p in PLANTS}
            total = groups_now + sum(MIN[p] * gain[p] for p in PLANTS) + bonus_now
            ends = {p for p in PLANTS if complete[p] + gain[p] >= 1}
            empty_value = max((MIN[p] for p in ends if g[p] >= 1), default=0)
            total += sum(empty_value if q is None else (MIN[q] if q in ends else 0) for q in slot_types)
            nb = len(box) + len(boxed)
            total += nb + (6 if nb == 6 else 0)
            total += b_now + 2 * g[plan["border"]] + p_now + 2 * g[plan["path"]]
            total += 2 * (c_now + g[first] + min(c_open, 4 * g[second]))
            best = max(best, total)
        return best


def assignments(cards_by_day: list[list[tuple[str, str]]]):
    """Every way to pick one card per day and a plant for each wild: lists of (a, b) per day."""
    per_day = []
    for cards in cards_by_day:
        opts = set()
        for card in cards:
            for a in (PLANTS if card[0] == "wild" else [card[0]]):
                for b in (PLANTS if card[1] == "wild" else [card[1]]):
                    opts.add(tuple(sorted((a, b))))
        per_day.append(sorted(opts))
    return [list(x) for x in itertools.product(*per_day)]


class Search:
    def __init__(self, fast: Fast, use_bound: bool = True, memo: bool = True, max_nodes: int | None = None):
        self.fast, self.use_bound, self.memo, self.max_nodes = fast, use_bound, memo, max_nodes
        self.nodes = 0
        self.cut_short = False

    def run(self, garden: dict, box, cards_by_day, floor: int = -1):
        """Best final score > floor over every game of these days (or floor), and one game reaching it."""
        self.best, self.game = floor, None
        for plan in assignments(cards_by_day):
            self.seen = set()
            self.days = plan
            self._rec(0, 0, None, dict(garden), frozenset(box), [])
            if self.cut_short:
                break
        return self.best, self.game

    def _rest(self, d: int, step: int, pending):
        rest: dict[str, int] = {}
        if step == 1:
            rest[pending] = 1
        for a, b in self.days[d + (step == 1):] if step == 1 else self.days[d:]:
            rest[a] = rest.get(a, 0) + 1
            rest[b] = rest.get(b, 0) + 1
        return rest

    def _rec(self, d, step, pending, garden, box, moves):
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            self.cut_short = True
            return
        if d == len(self.days):
            s = self.fast.score(garden, box)
            if s > self.best:
                self.best, self.game = s, list(moves)
            return
        if self.use_bound and self.fast.bound(garden, box, self._rest(d, step, pending)) <= self.best:
            return
        if self.memo:
            key = (d, step, pending, frozenset(garden.items()), box)
            if key in self.seen:
                return
            self.seen.add(key)
        if step == 0:
            a, b = self.days[d]
            for first, second in ((a, b), (b, a)) if a != b else ((a, b),):
                self._plant(d, 1, second, first, garden, box, moves)
        else:
            self._plant(d + 1, 0, None, pending, garden, box, moves)

    def _plant(self, d, step, pending, plant, garden, box, moves):
        for at in self.fast.spots(garden, box, plant):
            if at == WINDOW:
                self._rec(d, step, pending, garden, box | {plant}, moves + [(plant, at)])
            else:
                garden[at] = plant
                self._rec(d, step, pending, dict(garden), box, moves + [(plant, at)])
                del garden[at]
            if self.cut_short:
                return
