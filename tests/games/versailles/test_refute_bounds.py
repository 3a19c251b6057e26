"""The refutation search's pruning rules (the prefix rule for the order, the joining-gap rule for
areas the loss budget cannot drop) against witnesses: a legal garden's own arrangement meets, for
every plan, the loss it has for that plan, so the search must never call that plan at that loss
infeasible. Larger than the exhaustive oracle's 3 tiles (5 and 6 tiles, greedy gardens), which is
where a rule too strict by one field shows."""
from __future__ import annotations

import dataclasses
import random

import pytest

from solver.games.versailles.data import default_catalog
from solver.games.versailles.heuristic import greedy_garden
from solver.games.versailles.refute import arrangeable, plans
from solver.games.versailles.scoring import solo_checkpoints

from .test_refute import _loss

CAT = default_catalog()
IDS = sorted(CAT.tiles)
STAGE3 = dataclasses.replace(CAT, setup=dataclasses.replace(CAT.setup, rounds_per_stage=3))


@pytest.mark.parametrize("seed", range(10))
def test_a_gardens_own_loss_is_never_refuted(seed):
    rng = random.Random(700 + seed)
    n = 5 + seed % 2  # 2 largest after tile 3, 3 largest after tile 5 or 6
    tiles = [STAGE3.tiles[i] for i in rng.sample(IDS, n)]
    garden, _ = greedy_garden(tiles, STAGE3, random.Random(seed), None, 1)
    arrangement = {i: (p.x, p.y, p.rotation) for i, p in enumerate(garden)}
    checkpoints = solo_checkpoints(n, STAGE3)
    cases = []
    for _, chosen in plans(tiles, STAGE3):
        reqs = [(checkpoints[cp][0], t) for cp, types in enumerate(chosen) for t in types]
        cases.append((_loss(tiles, STAGE3, arrangement, reqs), chosen, reqs))
    cases.sort(key=lambda c: c[0])  # the plans this garden comes closest to (stable: plans' order)
    for loss, chosen, reqs in cases[:6]:
        out = arrangeable(tiles, STAGE3, reqs, loss, node_limit=20_000)
        assert out.status != "infeasible", (chosen, loss)


def _fewest_tiles_between(dx, dy, reach=9):
    """Breadth-first search over anchors on the open plane: the fewest tiles in a chain of touching
    tiles from a tile at (0, 0) to one at (dx, dy) (overlaps between chain tiles are allowed:
    a lower bound for the real thing, which is all `tiles_between` claims)."""
    steps = [(a, b) for a in range(-2, 3) for b in range(-2, 3)
             if (abs(a) == 2 and abs(b) <= 1) or (abs(b) == 2 and abs(a) <= 1)]
    dist = {(0, 0): 0}
    frontier = [(0, 0)]
    while frontier:
        nxt = []
        for x, y in frontier:
            for a, b in steps:
                c = (x + a, y + b)
                if c not in dist and abs(c[0]) <= reach and abs(c[1]) <= reach:
                    dist[c] = dist[(x, y)] + 1
                    nxt.append(c)
        frontier = nxt
    return dist[(dx, dy)] - 1


def test_tiles_between_is_a_lower_bound_and_tight():
    from solver.games.versailles.refute import tiles_between

    tight = 0
    for dx in range(-6, 7):
        for dy in range(-6, 7):
            if max(abs(dx), abs(dy)) < 2 and (dx, dy) != (0, 0):
                continue  # overlapping tiles
            if (dx, dy) == (0, 0):
                continue
            true = _fewest_tiles_between(dx, dy)
            assert tiles_between(dx, dy) <= true, (dx, dy)
            tight += tiles_between(dx, dy) == true
    assert tight > 100  # a bound one too high fails above


def test_fields_between_is_a_lower_bound_and_exact_for_single_fields():
    from solver.games.versailles.refute import fields_between

    for dx in range(-5, 6):
        for dy in range(-5, 6):
            if abs(dx) + abs(dy) < 2:
                continue  # the same or adjacent fields: one area
            a, b = (0, 0, 0, 0), (dx, dx, dy, dy)
            assert fields_between(a, b) == abs(dx) + abs(dy) - 1
    # boxes: the nearest fields decide; a box around another's field never bounds anything
    assert fields_between((0, 2, 0, 0), (5, 6, 1, 3)) == 3
    assert fields_between((0, 4, 0, 4), (2, 2, 2, 2)) == -1


def test_box_components_groups_by_fields_between():
    # box_components computes the boxes' gap itself (typed arithmetic, 1 Dec); it must group
    # exactly as the closure of "fields_between(boxes) <= spare", group by group in the same order
    from solver.games.versailles.refute import _cell, box_components, fields_between

    def reference(areas, spare):
        boxes = [(min(x for x, _ in a), max(x for x, _ in a), min(y for _, y in a), max(y for _, y in a)) for a in areas]
        groups, grouped = [], set()
        for k in range(len(areas)):
            if k in grouped:
                continue
            grouped.add(k)
            group, stack = [k], [k]
            while stack:
                a = stack.pop()
                for b in range(len(areas)):
                    if b not in grouped and fields_between(boxes[a], boxes[b]) <= spare:
                        grouped.add(b)
                        group.append(b)
                        stack.append(b)
            groups.append(group)
        return groups

    rng = random.Random(5)
    sizes, tight = set(), 0
    for _ in range(400):
        areas = [{(rng.randint(-12, 12), rng.randint(-12, 12)) for _ in range(rng.randint(1, 4))}
                 for _ in range(rng.randint(1, 7))]
        spare = rng.randint(0, 9)
        enc = [{_cell(x, y) for x, y in a} for a in areas]
        index = {id(a): k for k, a in enumerate(enc)}
        got = [[index[id(a)] for a in g] for g in box_components(enc, spare)]
        want = reference(areas, spare)
        assert got == want
        sizes.add(len(want))
        boxes = [(min(x for x, _ in a), max(x for x, _ in a), min(y for _, y in a), max(y for _, y in a)) for a in areas]
        tight += sum(fields_between(p, q) in (spare, spare + 1) for p in boxes for q in boxes if p is not q)
    assert sizes >= {1, 2, 3} and tight > 100  # merged and separate groups, gaps at the limit and one above


def _path_fields(a, b, blocked):
    """Fewest free fields on an orthogonal path from area a to area b (plain BFS over fields)."""
    dist = {c: 0 for c in a}
    queue = list(a)
    for c in queue:
        x, y = c
        for d in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if d in b:
                return dist[c]  # the fields strictly between
            if d not in dist and d not in blocked and abs(d[0]) < 9 and abs(d[1]) < 9:
                dist[d] = dist[c] + 1
                queue.append(d)
    return 10 ** 6


def joined_within(must, areas, label, occ, excluded, spare) -> bool:
    """Can the areas in `must` end in one area, by `path_components` (an area not among `areas`, one
    that cannot grow, joins nothing)?"""
    from solver.games.versailles.refute import path_components

    if any(all(a is not m for a in areas) for m in must):
        return False
    for group in path_components(areas, label, occ, excluded, spare):
        if any(g is must[0] for g in group):
            return all(any(g is m for g in group) for m in must)
    return False


@pytest.mark.parametrize("seed", range(40))
def test_joined_within_against_a_plain_search(seed):
    rng = random.Random(900 + seed)
    cells = [(x, y) for x in range(-3, 4) for y in range(-3, 4)]
    rng.shuffle(cells)
    # three or four one- or two-field areas, apart from each other; some walls; some exclusions
    areas, taken = [], set()
    for c in cells:
        if len(areas) == 3 + seed % 2:
            break
        area = {c}
        nb = (c[0] + 1, c[1])
        if rng.random() < 0.5 and nb in cells:
            area.add(nb)
        near = {(x + dx, y + dy) for x, y in area for dx, dy in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1))}
        if near & taken:
            continue
        areas.append(area)
        taken |= area
    label = {c: a for a in areas for c in a}
    rest = [c for c in cells if c not in taken]
    occ = {c: None for c in rest[: len(rest) // 4]} | {c: None for c in taken}
    excluded = set(rest[len(rest) // 4: len(rest) // 3])
    blocked = set(occ) | excluded
    for spare in range(0, 8):
        must = areas[:2] if seed % 3 else areas
        # reference: areas joined when a path of at most `spare` free fields links them, stepping
        # from area to area
        reach, stack = {0}, [0]
        while stack:
            i = stack.pop()
            for j, b in enumerate(areas):
                if j not in reach and _path_fields(areas[i], b, blocked - areas[i] - b) <= spare:
                    reach.add(j)
                    stack.append(j)
        expect = all(areas.index(m) in reach for m in must)
        assert joined_within(must, areas, label, occ, excluded, spare) == expect, spare
