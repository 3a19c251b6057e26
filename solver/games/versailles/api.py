"""Plain-data entry points for Versailles (validate, score, score_game, solve_optimal, hint) for servicers and the CLI."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping, Sequence

from solver.core.solve import SolveControl
from solver.errors import Gather, InputError
from solver.games.versailles.data import Catalog, default_catalog, load_catalog
from solver.games.versailles.game import play
from solver.games.versailles.hint import rank_placements
from solver.games.versailles.rules import Garden, Placement, build_garden, parse_placement, refusal
from solver.games.versailles.scoring import area_points, counted_areas, largest_areas, solo_checkpoints
from solver.games.versailles.solo import solve_solo

MAX_TIME_LIMIT = 600.0
MAX_PLACEMENTS = 100  # a garden holds at most 14 tiles; leave room for other data, refuse floods


def _catalog(catalog_path: str | Path | Catalog | None) -> Catalog:
    """The reference catalog, a loaded one (a server loads its data once), or the one in a directory."""
    if isinstance(catalog_path, Catalog):
        return catalog_path
    return default_catalog() if catalog_path is None else load_catalog(catalog_path)


def _placements(raw: Any, where: str = "placements") -> list[Placement]:
    if isinstance(raw, Mapping):
        raw = raw.get("placements")
    if not isinstance(raw, list):
        raise ValueError(f"{where}: expected a list of placements, got {raw!r}")
    if len(raw) > MAX_PLACEMENTS:
        raise ValueError(f"{where}: at most {MAX_PLACEMENTS} placements, got {len(raw)}")
    gather = Gather()  # every bad placement at once
    out = [gather(parse_placement, p, f"{where}[{i}]") for i, p in enumerate(raw)]
    gather.check()
    return out


def _garden(placements: Sequence[Placement], catalog: Catalog, where: str = "placements") -> Garden:
    garden, gather = Garden(), Gather()  # every bad placement at once (each against the good ones before it)
    for i, p in enumerate(placements):
        tile = catalog.tile(p.tile) if p.tile in catalog.tiles else None
        if tile is None:
            gather.errors.append(InputError(f"{where}[{i}].tile", f"unknown tile id {p.tile!r}"))
            continue
        if any(q.tile == p.tile for q in garden.placements):
            gather.errors.append(InputError(f"{where}[{i}].tile", f"tile {p.tile} is already in this garden"))
            continue
        try:
            garden.place(tile, p)
        except ValueError as exc:
            gather.errors.append(InputError(f"{where}[{i}]", str(exc)))
            continue
        if len(garden.placements) == _most_tiles(catalog) + 1:
            gather.errors.append(InputError(f"{where}[{i}]", _too_many(catalog)))
    gather.check()
    return garden


def _most_tiles(catalog: Catalog) -> int:
    """The tiles a player receives in a game: one a round (7 rounds a stage, 2 stages: 14)."""
    return catalog.setup.rounds_per_stage * catalog.setup.stages


def _too_many(catalog: Catalog) -> str:
    return (f"a garden holds at most {_most_tiles(catalog)} tiles (one a round, {catalog.setup.rounds_per_stage} "
            f"rounds a stage, {catalog.setup.stages} stages)")


def validate(garden: Any, catalog_path: str | Path | None = None) -> dict:
    """Check a garden's placements in order; every refused placement is reported with its reason
    (and left out, so later placements are judged against the legal ones). Unknown tile ids are refused
    (InputError, every one at once) before any rule is looked at."""
    catalog = _catalog(catalog_path)
    placements = _placements(garden)
    gather = Gather()  # an unknown tile id is malformed input, as in Score and the other games' Validate
    for i, p in enumerate(placements):
        if p.tile not in catalog.tiles:
            gather.errors.append(InputError(f"placements[{i}].tile", f"unknown tile id {p.tile!r}"))
    gather.check()
    built = Garden()
    violations = []
    for i, p in enumerate(placements):
        if any(q.tile == p.tile for q in built.placements):
            violations.append({"index": i, "field": f"placements[{i}].tile",
                               "reason": f"tile {p.tile} is already in this garden"})
            continue
        reason = refusal(built.fields, p)
        if reason is not None:
            violations.append({"index": i, "field": f"placements[{i}]", "reason": reason})
            continue
        built.place(catalog.tiles[p.tile], p)
        if len(built.placements) == _most_tiles(catalog) + 1:
            violations.append({"index": i, "field": f"placements[{i}]", "reason": _too_many(catalog)})
    return {"valid": not violations, "violations": violations}


def score(garden: Any, catalog_path: str | Path | None = None) -> dict:
    """Points of one garden on its own: largest areas, the intermediate scoring (the 2 largest areas after the first
    stage's tiles, in placement order; all tiles when there are fewer), the final scoring's area points (the 3 largest
    of the whole garden) and the solo points (intermediate + final once the garden has more than a stage's tiles).
    Before 7 Dec the intermediate fields looked at the whole garden, so beyond 7 tiles they did not add up to the
    solo points."""
    catalog = _catalog(catalog_path)
    placements = _placements(garden)
    built = _garden(placements, catalog)
    areas = largest_areas(built.fields, catalog)
    checkpoints = solo_checkpoints(len(placements), catalog) if placements else []
    # the areas at each scoring: the whole garden's at the last, the first stage's placements' at the intermediate
    at = {n: areas if n == len(placements) else largest_areas(_garden(placements[:n], catalog).fields, catalog)
          for n, _ in checkpoints}
    solo = sum(area_points(at[n], catalog, k) for n, k in checkpoints)
    early = at[checkpoints[0][0]] if checkpoints else areas
    inter_k, final_k = catalog.setup.intermediate_areas, catalog.setup.final_areas
    return {
        "tiles": len(placements),
        "areas": areas,
        "construction_site": max((areas[t] for t in catalog.construction_types), default=0),
        "intermediate_area_points": area_points(early, catalog, inter_k),
        "intermediate_areas": [{"type": t, "size": s} for t, s in counted_areas(early, catalog, inter_k)],
        "final_area_points": area_points(areas, catalog, final_k),
        "final_areas": [{"type": t, "size": s} for t, s in counted_areas(areas, catalog, final_k)],
        "solo_points": solo,
    }


def score_game(record: Any, catalog_path: str | Path | None = None) -> dict:
    """Replay and score a whole game with majority tokens (see game.play for the record format)."""
    return play(record, _catalog(catalog_path)).as_dict()


def _limits(time_limit: Any, seed: Any) -> tuple[float, int]:
    if isinstance(time_limit, bool) or not isinstance(time_limit, (int, float)) or not 0 < time_limit <= MAX_TIME_LIMIT:
        raise ValueError(f"time_limit: expected seconds in (0, {MAX_TIME_LIMIT:g}], got {time_limit!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**31:
        raise ValueError(f"seed: expected an integer in [0, 2^31), got {seed!r}")
    return float(time_limit), seed


def _tile_sequence(tiles: Any, catalog: Catalog, where: str = "tiles", most: int | None = None) -> list:
    if most is None:
        most = catalog.setup.stages * catalog.setup.rounds_per_stage
    if not isinstance(tiles, list) or not 1 <= len(tiles) <= most:
        raise ValueError(f"{where}: expected a list of 1 to {most} tile ids, got {tiles!r}")
    out, gather = [], Gather()  # every unknown or repeated tile at once
    first: dict[int, int] = {}
    for i, t in enumerate(tiles):
        if isinstance(t, bool) or not isinstance(t, int) or t not in catalog.tiles:
            gather.errors.append(InputError(f"{where}[{i}]", f"unknown tile id {t!r}"))
        elif t in first:
            gather.errors.append(InputError(
                f"{where}[{i}]", f"each tile exists once; tile {t} is repeated (first at [{first[t]}])"))
        else:
            first[t] = i
            out.append(catalog.tiles[t])
    gather.check()
    return out


def _control(time_limit: Any, seed: Any, control: SolveControl | None) -> SolveControl:
    """The caller's control, or one worker with a wall-clock `time_limit` and `seed`."""
    if control is not None:
        if not isinstance(control, SolveControl):
            raise TypeError(f"control: expected a SolveControl, got {control!r}")
        return control
    limit, seed = _limits(time_limit, seed)
    return SolveControl(time_limit_s=limit, num_workers=1, random_seed=seed)


def solve_optimal(tiles: Any, time_limit: Any = 10.0, seed: Any = 0, board: Any = None,
                  catalog_path: str | Path | None = None, control: SolveControl | None = None) -> dict:
    """The garden maximising intermediate + final garden points for tiles received in this order
    (each tile touching the garden at its turn), within a square of `board` fields per side.

    status "optimal" only when proved; "feasible" comes with the proved bound. With `control`,
    its limits, workers and seed replace `time_limit` and `seed`, and every search runs through
    it (cancel() stops the call); with control.deterministic_limit and num_workers=1 the answer
    (all but "seconds") is the same on every run.
    """
    catalog = _catalog(catalog_path)
    sequence = _tile_sequence(tiles, catalog)
    control = _control(time_limit, seed, control)
    if board is not None and (isinstance(board, bool) or not isinstance(board, int) or not 2 <= board <= 24):
        raise ValueError(f"board: expected 2 to 24 fields per side, got {board!r}")
    return solve_solo(sequence, catalog, control, board=board).as_dict()


def hint(garden: Any, next_tile: Any, upcoming: Any = None, time_limit: Any = 5.0, seed: Any = 0,
         top: Any = 10, catalog_path: str | Path | None = None, control: SolveControl | None = None,
         follow: Any = None) -> dict:
    """Placements of `next_tile` ranked by the garden points they reach.

    Without `upcoming` tiles, a placement reaches the points of the scoring the next tile belongs to
    (2 largest areas in the first stage, 3 in the second) plus points already banked. With `upcoming`,
    the best `top` of those are re-ranked by the CP-SAT optimum over the known following tiles. `follow`: the
    continuation of the previous hint's option the player took (placements of `next_tile` and of `upcoming`, in
    order, legal after the garden): its first placement is ranked too, reaching at least that garden's points,
    so a player following the hints keeps the line they promised.
    """
    catalog = _catalog(catalog_path)
    placements = _placements(garden, "garden")
    built = _garden(placements, catalog, "garden")
    if isinstance(next_tile, bool) or not isinstance(next_tile, int) or next_tile not in catalog.tiles:
        raise ValueError(f"next_tile: unknown tile id {next_tile!r}")
    if any(p.tile == next_tile for p in placements):
        raise ValueError(f"next_tile: tile {next_tile} is already in the garden")
    if isinstance(top, bool) or not isinstance(top, int) or not 1 <= top <= 200:
        raise ValueError(f"top: expected 1 to 200 placements, got {top!r}")
    control = _control(time_limit, seed, control)
    total = _most_tiles(catalog)
    if len(placements) >= total:
        raise ValueError(f"garden: already holds {len(placements)} tiles, the most a player receives")
    left = total - len(placements) - 1
    if upcoming is not None and not (isinstance(upcoming, list) and 0 <= len(upcoming) <= left):
        raise ValueError(f"upcoming: expected a list of at most {left} tile ids after this one, got {upcoming!r}")
    future = _tile_sequence(upcoming, catalog, "upcoming", left) if upcoming else []
    if any(t.id == next_tile or t.id in {p.tile for p in placements} for t in future):
        raise ValueError("upcoming: a tile is repeated or already in the garden")
    tile = catalog.tiles[next_tile]
    line = None
    if follow is not None:
        line = _placements(follow, "follow")
        if [p.tile for p in line] != [next_tile] + [t.id for t in future]:
            raise ValueError("follow: expected placements of next_tile and then of upcoming, in order (the "
                             "continuation of the previous hint's option)")
        try:
            build_garden(catalog.tiles, list(placements) + line)
        except ValueError as exc:
            raise ValueError(f"follow: not a legal continuation of the garden ({exc})") from None
    ranked = rank_placements(placements, built, tile, future, catalog, control, top, follow=line)
    return {"tile": next_tile, "placements": ranked}
