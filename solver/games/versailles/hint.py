"""Hints for Versailles: where to put the next tile, ranked by the garden points each placement reaches."""
from __future__ import annotations

from typing import Sequence

from solver.games.versailles.data import Catalog, Tile
from solver.games.versailles.model import build_solo_model, run
from solver.games.versailles.rules import Cell, Garden, Placement, legal_placements, placed_fields
from solver.games.versailles.scoring import area_points, largest_areas, solo_points
from solver.games.versailles.solo import ModelMismatch


def game_checkpoints(catalog: Catalog) -> list[tuple[int, int]]:
    rounds = catalog.setup.rounds_per_stage
    return [(rounds, catalog.setup.intermediate_areas), (catalog.setup.stages * rounds, catalog.setup.final_areas)]


def points_now(prefix: Sequence[dict[Cell, str]], catalog: Catalog) -> int:
    """Points banked at scorings already passed plus the next scoring's points if it came now.

    prefix[i] holds the garden's fields after i + 1 tiles.
    """
    total = 0
    placed = len(prefix)
    for n, k in game_checkpoints(catalog):
        if n <= placed:
            total += area_points(largest_areas(prefix[n - 1], catalog), catalog, k)
        else:
            return total + area_points(largest_areas(prefix[-1], catalog), catalog, k)
    return total


def rank_placements(placements: Sequence[Placement], garden: Garden, tile: Tile, upcoming: Sequence[Tile],
                    catalog: Catalog, time_limit: float, seed: int, top: int) -> list[dict]:
    prefix: list[dict[Cell, str]] = []
    fields: dict[Cell, str] = {}
    for p in placements:
        fields = {**fields, **placed_fields(catalog.tiles[p.tile], p)}
        prefix.append(fields)
    ranked = []
    for p in legal_placements(garden.fields, tile):
        after = {**garden.fields, **placed_fields(tile, p)}
        areas = largest_areas(after, catalog)
        ranked.append({"placement": p, "points": points_now(prefix + [after], catalog),
                       "areas": sum(areas[t] for t in catalog.garden_types)})
    # more points first; then larger areas overall (they may count later), then position for stability
    ranked.sort(key=lambda r: (-r["points"], -r["areas"], r["placement"].y, r["placement"].x,
                               r["placement"].rotation))
    ranked = ranked[:top]
    if upcoming:
        share = time_limit / max(1, len(ranked))
        for r in ranked:
            r.update(_reachable(list(placements) + [r["placement"]], upcoming, catalog, share, seed))
        ranked.sort(key=lambda r: (-(r["reachable"] if r["reachable"] is not None else -1), -r["points"],
                                   -r["areas"]))
    out = []
    for r in ranked:
        item = {**r["placement"].as_dict(), "points": r["points"]}
        if upcoming:
            item.update({"reachable": r["reachable"], "status": r["status"], "bound": r["bound"]})
        out.append(item)
    return out


def _reachable(fixed: list[Placement], upcoming: Sequence[Tile], catalog: Catalog, time_limit: float,
               seed: int) -> dict:
    """Best solo points over the whole sequence with `fixed` kept where it is (CP-SAT)."""
    tiles = [catalog.tiles[p.tile] for p in fixed] + list(upcoming)
    margin = 2 * len(upcoming) + 1  # room for every upcoming tile on any side
    xs = [p.x for p in fixed]
    ys = [p.y for p in fixed]
    board = max(max(xs) - min(xs), max(ys) - min(ys)) + 2 + 2 * margin
    offset = (margin - min(xs), margin - min(ys))
    n = len(tiles)
    rounds = catalog.setup.rounds_per_stage
    checkpoints = [(min(n, rounds), catalog.setup.intermediate_areas)]
    if n > rounds:
        checkpoints.append((n, catalog.setup.final_areas))
    solo = build_solo_model(tiles, catalog, checkpoints, board, offset, break_symmetry=False)
    solo.fix(fixed)
    res = run(solo, tiles, max(0.05, time_limit), seed)
    if res.placements is None:
        return {"reachable": None, "status": res.status, "bound": res.bound}
    pure = solo_points(res.placements, catalog)
    if res.status == "optimal" and pure != res.objective:
        raise ModelMismatch(f"hint: CP-SAT objective {res.objective} != pure scorer {pure}")
    return {"reachable": pure, "status": res.status, "bound": res.bound}
