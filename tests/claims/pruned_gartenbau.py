"""Exact Gartenbau oracle for holdings without flowers (claims audit, second round, 1 Dec 08:15-10:05 UTC).

Written from the rulebook like `oracles_gartenbau.py` (whose data, colour rule `allows`, legality and
scorer it uses; it calls nothing of the engine). Without flowers the prestige of a garden is the
unused tokens (2 each) plus the prestige of its plants (none is hidden: only flowers hide plants),
so the best garden is the layout letting the heaviest set of held plants lie on disjoint pairs of
adjacent seedlings of two different tiles with the colours the plant needs.

* `relaxed`: an upper bound valid on any board. Any garden's plants occupy disjoint pairs of
  seedling faces of two different tiles whose colours the plant allows; dropping "adjacent" (faces
  of tiles still to be laid may end next to anything) can only allow more, so the heaviest such
  assignment of plants to faces bounds every garden. Faces of two laid tiles count only when they
  are adjacent already (laid tiles never move).
* `Layouts`: every connected layout of the tiles still to be laid (any order: a state is the set of
  tiles laid and their cells, so every connected garden is reached whatever order connects it),
  within a region or a bounding box; states merged when equal (no symmetry: the laid garden is
  fixed in place). Each layout's best plants by exhaustive search (`best_plants`); the search stops
  when a layout meets the relaxed bound (no layout can beat it).
"""
from __future__ import annotations

from itertools import combinations

from . import oracles_gartenbau as o


def faces_of(garden: dict) -> tuple[dict, dict]:
    """cell -> (tile index, (colour, type)) of a garden dict; and cell -> plant id for laid plants."""
    st = garden["starter"]
    seed = {}
    for i, t in enumerate([st] + garden.get("seedlings", [])):
        faces = o.STARTERS[t["id"]][st["side"]] if i == 0 else o.TILES[t["id"]]
        for c, face in zip(t["cells"], faces):
            seed[tuple(c)] = (i, face)
    laid = {tuple(c): p["id"] for p in garden.get("plants", []) for c in p["cells"]}
    return seed, laid


def best_plants(seed: dict, used: set, plants: list) -> tuple[int, list]:
    """Heaviest subset of `plants` on disjoint adjacent free cell pairs of two different tiles."""
    pairs = [(a, b) for a in seed for b in o.nbrs(a) if b in seed and a < b and seed[a][0] != seed[b][0]
             and a not in used and b not in used]
    order = sorted(plants, key=lambda p: -o.PLANTS[p][1])
    rest = [sum(o.PLANTS[p][1] for p in order[j:]) for j in range(len(order) + 1)]
    best = [0, []]

    def rec(j, taken, got, chosen):
        if got > best[0]:
            best[0], best[1] = got, list(chosen)
        if j == len(order) or got + rest[j] <= best[0]:
            return
        pid = order[j]
        colour = o.PLANTS[pid][0]
        for a, b in pairs:
            if a not in taken and b not in taken and o.allows(colour, seed[a][1][0], seed[b][1][0]):
                rec(j + 1, taken | {a, b}, got + o.PLANTS[pid][1], chosen + [(pid, a, b)])
        rec(j + 1, taken, got, chosen)

    rec(0, frozenset(), 0, [])
    return best[0], best[1]


def relaxed(fixed_faces: list, fixed_adjacent: set, free_faces: list, plants: list) -> int:
    """Heaviest subset of `plants` on disjoint face pairs of different tiles, colours allowed: a pair
    of two fixed faces only when it is in `fixed_adjacent`. Faces: (key, tile, colour)."""
    faces = fixed_faces + free_faces
    fixed_keys = {f[0] for f in fixed_faces}
    pairs = [(f, g) for f, g in combinations(faces, 2) if f[1] != g[1]
             and (not (f[0] in fixed_keys and g[0] in fixed_keys) or frozenset((f[0], g[0])) in fixed_adjacent)]
    order = sorted(plants, key=lambda p: -o.PLANTS[p][1])
    best = [0]

    def rec(j, taken, got):
        best[0] = max(best[0], got)
        if j == len(order):
            return
        pid = order[j]
        for f, g in pairs:
            if f[0] not in taken and g[0] not in taken and o.allows(o.PLANTS[pid][0], f[2], g[2]):
                rec(j + 1, taken | {f[0], g[0]}, got + o.PLANTS[pid][1])
        rec(j + 1, taken, got)

    rec(0, frozenset(), 0)
    return best[0]


def tokens(garden: dict) -> int:
    return 2 * sum(bool(v) for v in garden.get("tokens", {"flower_pot": True, "watering_can": True}).values())


def relaxed_for(garden: dict, tiles: list, plants: list) -> int:
    """The relaxed bound (plants only) of `garden` with `tiles` still to lay and `plants` to plant."""
    seed, laid = faces_of(garden)
    fixed = [(c, i, face[0]) for c, (i, face) in seed.items() if c not in laid]
    adjacent = {frozenset((a, b)) for a in seed for b in o.nbrs(a) if b in seed}
    free = [(("free", k, j), 100 + k, face[0]) for k, t in enumerate(tiles) for j, face in enumerate(o.TILES[t])]
    return relaxed(fixed, adjacent, free, plants)


class Layouts:
    """Best plants over every connected layout of `tiles` added to `garden` (cells in `region`
    (r0, c0, r1, c1) inclusive, or the whole garden's bounding box at most `board` per side)."""

    def __init__(self, garden: dict, tiles: list, plants: list, region=None, board=None, cap=None,
                 max_nodes=None):
        self.garden, self.tiles, self.plants = garden, list(tiles), list(plants)
        self.region, self.board, self.cap, self.max_nodes = region, board, cap, max_nodes
        self.nodes = 0
        self.cut_short = False

    def ok(self, cells) -> bool:
        if self.region is not None:
            r0, c0, r1, c1 = self.region
            if not all(r0 <= r <= r1 and c0 <= c <= c1 for r, c in cells):
                return False
        if self.board is not None:
            rs = [c[0] for c in cells]
            ks = [c[1] for c in cells]
            if max(rs) - min(rs) >= self.board or max(ks) - min(ks) >= self.board:
                return False
        return True

    def run(self, floor: int = -1):
        """(best plant prestige > floor or floor, the garden dict reaching it or None)."""
        seed, laid = faces_of(self.garden)
        self.base_seed, self.used = seed, set(laid)
        self.best, self.best_garden = floor, None
        self.seen = set()
        self._rec(dict(seed), frozenset(), [])
        return self.best, self.best_garden

    def _rec(self, seed, placed, extra):
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            self.cut_short = True
            return
        if self.cap is not None and self.best >= self.cap:
            return
        if len(placed) == len(self.tiles):
            got, chosen = best_plants(seed, self.used, self.plants)
            if got > self.best:
                g = dict(self.garden, seedlings=self.garden.get("seedlings", []) + extra,
                         plants=self.garden.get("plants", []) + [{"id": p, "cells": [list(a), list(b)]}
                                                                 for p, a, b in chosen])
                self.best, self.best_garden = got, g
            return
        key = frozenset(seed.items())
        if key in self.seen:
            return
        self.seen.add(key)
        cells = set(seed)
        spots = sorted({n for c in cells for n in o.nbrs(c)} - cells)
        for k, tid in enumerate(self.tiles):
            if k in placed:
                continue
            for a in spots:
                for b in o.nbrs(a):
                    if b in cells:
                        continue
                    for pair in ((a, b), (b, a)):
                        if not self.ok(list(cells) + list(pair)):
                            continue
                        ns = dict(seed)
                        for c, face in zip(pair, o.TILES[tid]):
                            ns[c] = (100 + k, face)
                        self._rec(ns, placed | {k}, extra + [{"id": tid, "cells": [list(pair[0]), list(pair[1])]}])
                        if self.cut_short:
                            return
