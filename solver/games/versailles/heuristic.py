"""Randomised greedy solo gardens: quick good placements that seed the CP-SAT optimiser with a hint."""
from __future__ import annotations

import random
from typing import Callable, Sequence

from solver.games.versailles.data import Catalog, Tile
from solver.games.versailles.rules import Cell, Placement, legal_placements, neighbours, placed_fields
from solver.games.versailles.scoring import area_points, largest_areas, solo_checkpoints


def _component_size(fields: dict[Cell, str], start: list[Cell], counts: set[str]) -> int:
    """Size of the largest contiguous group of `counts` fields touching any of `start`."""
    seen: set[Cell] = set()
    best = 0
    for s in start:
        if s in seen or fields.get(s) not in counts:
            continue
        group = {s}
        stack = [s]
        while stack:
            for n in neighbours(stack.pop()):
                if n not in group and fields.get(n) in counts:
                    group.add(n)
                    stack.append(n)
        seen |= group
        best = max(best, len(group))
    return best


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
    """
    checkpoints = solo_checkpoints(len(tiles), catalog)
    jokers = set(catalog.joker_types)
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
        areas = {t: 0 for t in catalog.garden_types}
        placed: list[Placement] = []
        total = 0
        noise = 0.0 if attempt == 0 else 0.6
        for i, tile in enumerate(tiles):
            stage_targets = next(tg for upto, tg in plan if upto > i)
            later = set().union(*(set(tg) for upto, tg in plan if upto > i))
            weight = {t: (4.0 if t in stage_targets else 1.5 if t in later else 0.2) for t in catalog.garden_types}
            options = legal_placements(fields, tile) if i else [Placement(tile.id, 0, 0, 0)]
            scored = []
            for p in options:
                new = placed_fields(tile, p)
                if board is not None and not _fits(fields, new, board):
                    continue
                trial = {**fields, **new}
                value = 0.0
                for t in catalog.garden_types:
                    counts = {t} | jokers
                    if any(c in counts for c in new.values()):
                        size = max(areas[t], _component_size(trial, list(new), counts))
                    else:
                        size = areas[t]
                    value += weight[t] * size
                scored.append((value + noise * rng.random(), p, new))
            if not scored:
                break
            _, p, new = max(scored, key=lambda s: s[0])
            placed.append(p)
            fields.update(new)
            for t in catalog.garden_types:
                counts = {t} | jokers
                if any(c in counts for c in new.values()):
                    areas[t] = max(areas[t], _component_size(fields, list(new), counts))
            for upto, k in checkpoints:
                if upto == i + 1:
                    total += area_points(largest_areas(fields, catalog), catalog, k)
        if len(placed) == len(tiles) and (best is None or total > best[0]):
            best = (total, placed)
    if best is None:
        return [], 0
    placements = best[1]
    dx = min(p.x for p in placements)
    dy = min(p.y for p in placements)
    return [Placement(p.tile, p.x - dx, p.y - dy, p.rotation) for p in placements], best[0]


def _fits(fields: dict[Cell, str], new: dict[Cell, str], board: int) -> bool:
    xs = [c[0] for c in fields] + [c[0] for c in new]
    ys = [c[1] for c in fields] + [c[1] for c in new]
    return max(xs) - min(xs) < board and max(ys) - min(ys) < board
