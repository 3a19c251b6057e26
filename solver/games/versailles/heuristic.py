"""Randomised greedy solo gardens: quick good placements that seed the CP-SAT optimiser with a hint."""
from __future__ import annotations

import random
from typing import Callable, Sequence

from solver.games.versailles.data import Catalog, Tile
from solver.games.versailles.rules import Cell, Placement, distinct_rotations, footprint
from solver.games.versailles.scoring import IncrementalAreas, area_points, solo_checkpoints


def _targets(tiles: Sequence[Tile], catalog: Catalog, upto: int, k: int, rng: random.Random) -> list[str]:
    """The k garden types with most fields among the first `upto` tiles (ties broken at random):
    the areas a scoring after `upto` tiles can count in full."""
    jokers = set(catalog.joker_types)
    counts = {t: sum(1 for tile in tiles[:upto] for c in tile.fields if c == t or c in jokers)
              for t in catalog.garden_types}
    order = sorted(counts, key=lambda t: (-counts[t], rng.random()))
    return order[:k]


def greedy_garden(tiles: Sequence[Tile], catalog: Catalog, rng: random.Random, board: int | None = None,
                  restarts: int = 4, ceiling: int | None = None,
                  stop: Callable[[], bool] | None = None) -> tuple[list[Placement], int]:
    """Best of `restarts` randomised greedy runs: each tile goes where it most enlarges the areas of
    the garden types the coming scoring is likely to count (those with the most fields).

    With `board`, every garden keeps its bounding box within board x board fields and the first tile
    unturned; the result is shifted to touch the top-left corner, so it is a valid model hint.
    Stops early once a garden reaches `ceiling` points or `stop()` says so (the caller's clock or
    cancellation; restarts are counted, never timed, here, and all randomness comes from `rng`).

    A candidate's value is sum over types of weight x (the type's largest area once the tile is
    down); the areas come from `IncrementalAreas` (union of labels, a tile's cells joined to the
    areas next to them) instead of a search of the whole garden per candidate, and the candidates
    are the free anchors whose tile touches the garden (`_anchors`, the same set and order as
    `rules.legal_placements`): the same values, the same random draws, the same gardens as the
    plain version kept in tests/games/versailles/reference.py (checked in test_fast_heuristics.py);
    14 tiles: 0.066 -> 0.011 s per restart (median of 5 sequences, CPU time, load 4.8).
    """
    checkpoints = solo_checkpoints(len(tiles), catalog)
    types = list(catalog.garden_types)
    jokers = set(catalog.joker_types)
    counts = {t: frozenset({t, *jokers}) for t in types}
    scored_at = {upto: k for upto, k in checkpoints}

    def masks(layout: tuple[str, ...]) -> tuple[int, ...]:
        return tuple(sum(1 << j for j, code in enumerate(layout) if code in counts[t]) for t in types)

    shapes = [[(r, tile.oriented(r), masks(tile.oriented(r))) for r in distinct_rotations(tile)] for tile in tiles]
    first_shape = [(0, tiles[0].oriented(0), masks(tiles[0].oriented(0)))] if tiles else []
    nt = range(len(types))
    best: tuple[int, list[Placement]] | None = None
    for attempt in range(max(1, restarts)):
        if best is not None and ((ceiling is not None and best[0] >= ceiling)
                                 or (stop is not None and stop())):
            break  # nothing left to gain, or the caller says stop
        # weights per type for each tile index: types of the next scoring count most
        plan = []
        for upto, k in checkpoints:
            plan.append((upto, _targets(tiles, catalog, upto, k, rng)))
        fields: dict[Cell, str] = {}
        areas = IncrementalAreas(counts)
        largest = areas.largest
        joined = areas.joined
        placed: list[Placement] = []
        total = 0
        noise = 0.0 if attempt == 0 else 0.6
        x0 = x1 = y0 = y1 = 0
        for i, tile in enumerate(tiles):
            stage_targets = next(tg for upto, tg in plan if upto > i)
            later = set().union(*(set(tg) for upto, tg in plan if upto > i))
            weight = [4.0 if t in stage_targets else 1.5 if t in later else 0.2 for t in types]
            current = [largest[t] for t in types]
            chosen = None
            top = 0.0
            for ax, ay in (_anchors(fields) if i else [(0, 0)]):
                if board is not None and (
                        (max(x1, ax + 1) - min(x0, ax) >= board or max(y1, ay + 1) - min(y0, ay) >= board)
                        if i else board <= 1):
                    continue
                for shape in (shapes[i] if i else first_shape):
                    ms = shape[2]
                    value = 0.0
                    for k in nt:
                        size = current[k]
                        if ms[k]:
                            s = joined(types[k], ax, ay, ms[k])
                            if s > size:
                                size = s
                        value += weight[k] * size
                    value = value + noise * rng.random()
                    if chosen is None or value > top:
                        top, chosen = value, (ax, ay, shape)
            if chosen is None:
                break
            ax, ay, (r, layout, _) = chosen
            placed.append(Placement(tile.id, ax, ay, r))
            fields.update(zip(footprint(ax, ay), layout))
            areas.add(ax, ay, layout)
            if i:
                x0, x1, y0, y1 = min(x0, ax), max(x1, ax + 1), min(y0, ay), max(y1, ay + 1)
            else:
                x0, x1, y0, y1 = ax, ax + 1, ay, ay + 1
            if i + 1 in scored_at:
                total += area_points(largest, catalog, scored_at[i + 1])
        if len(placed) == len(tiles) and (best is None or total > best[0]):
            best = (total, placed)
    if best is None:
        return [], 0
    placements = best[1]
    dx = min(p.x for p in placements)
    dy = min(p.y for p in placements)
    return [Placement(p.tile, p.x - dx, p.y - dy, p.rotation) for p in placements], best[0]


def _anchors(fields: dict[Cell, str]) -> list[Cell]:
    """Anchors of every legal tile position next to the garden, sorted by (y, x) as
    `rules.legal_placements` lists them: a free 2x2 footprint is legal exactly when one of its
    cells is a free field orthogonally next to the garden."""
    frontier = set()
    for (x, y) in fields:
        for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if n not in fields:
                frontier.add(n)
    anchors = {(fx - dx, fy - dy) for (fx, fy) in frontier for dx in (0, 1) for dy in (0, 1)}
    return sorted(((x, y) for (x, y) in anchors
                   if (x, y) not in fields and (x + 1, y) not in fields
                   and (x, y + 1) not in fields and (x + 1, y + 1) not in fields),
                  key=lambda a: (a[1], a[0]))
