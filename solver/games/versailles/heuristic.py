"""Randomised greedy solo gardens: quick good placements that seed the CP-SAT optimiser with a hint."""
from __future__ import annotations

import random
from typing import Sequence

from solver.games.versailles.data import Catalog, Tile
from solver.games.versailles.rules import Cell, Placement, legal_placements, placed_fields
from solver.games.versailles.scoring import area_points, largest_areas, solo_checkpoints


def _value(fields: dict[Cell, str], catalog: Catalog, k: int) -> tuple[int, int]:
    areas = largest_areas(fields, catalog)
    # the k scored areas first; the rest of the garden types break ties, since they may be scored later
    return area_points(areas, catalog, k), sum(areas[t] for t in catalog.garden_types)


def greedy_garden(tiles: Sequence[Tile], catalog: Catalog, rng: random.Random, board: int | None = None,
                  restarts: int = 4) -> tuple[list[Placement], int]:
    """Best of `restarts` randomised greedy runs (one tile at a time, best immediate value).

    With `board`, every garden keeps its bounding box within board x board fields, the first tile
    unturned, and is shifted to touch the top-left corner, so it is a valid hint for the model.
    """
    checkpoints = dict(solo_checkpoints(len(tiles), catalog))
    best: tuple[int, list[Placement]] | None = None
    for _ in range(max(1, restarts)):
        fields: dict[Cell, str] = {}
        placed: list[Placement] = []
        total = 0
        k = catalog.setup.intermediate_areas
        for i, tile in enumerate(tiles):
            # the scoring that comes next decides which areas count
            upcoming = min((n for n in checkpoints if n > i), default=len(tiles))
            k = checkpoints[upcoming]
            options = legal_placements(fields, tile) if i else [Placement(tile.id, 0, 0, 0)]
            scored = []
            for p in options:
                trial = dict(fields)
                trial.update(placed_fields(tile, p))
                if board is not None and not _fits(trial, board):
                    continue
                scored.append((_value(trial, catalog, k), rng.random(), p))
            if not scored:
                break
            scored.sort(key=lambda s: (s[0], s[1]), reverse=True)
            # mostly the best, sometimes the runner-up, so restarts explore
            pick = scored[0] if rng.random() < 0.8 or len(scored) == 1 else scored[1]
            placed.append(pick[2])
            fields.update(placed_fields(tile, pick[2]))
            if i + 1 in checkpoints:
                total += area_points(largest_areas(fields, catalog), catalog, checkpoints[i + 1])
        if len(placed) == len(tiles) and (best is None or total > best[0]):
            best = (total, placed)
    if best is None:
        return [], 0
    placements = best[1]
    dx = min(p.x for p in placements)
    dy = min(p.y for p in placements)
    return [Placement(p.tile, p.x - dx, p.y - dy, p.rotation) for p in placements], best[0]


def _fits(fields: dict[Cell, str], board: int) -> bool:
    xs = [c[0] for c in fields]
    ys = [c[1] for c in fields]
    return max(xs) - min(xs) < board and max(ys) - min(ys) < board
