"""The Gartenbau engine as plain functions on plain data: what the CLI and a gRPC servicer call."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from solver.core.solve import SolveControl
from solver.errors import Gather, InputError

from . import optimiser
from .data import Catalog, load_catalog
from .garden import Garden, garden_from_dict, garden_to_dict, render, unknown_fields
from .rules import garden_violations, hand_refusals
from .scoring import Score, score as pure_score


MAX_TOP = 1000  # a hint's `top`: more than any tile has placements


def _catalog(catalog_dir: str | Path | Catalog | None) -> Catalog:
    """The reference catalog, a loaded one (a server loads its data once), or the one in a directory."""
    return catalog_dir if isinstance(catalog_dir, Catalog) else load_catalog(catalog_dir)


def _score_dict(s: Score) -> dict:
    return {"total": s.total, "flowers": dict(s.flowers), "plants": s.plants, "tokens": s.tokens,
            "flowers_placed": s.flowers_placed, "plants_showing": s.plants_showing}


def _known_keys(doc: dict, keys: tuple[str, ...], where: str) -> None:
    """Every key of `doc` outside `keys` refused at once (garden.unknown_fields)."""
    gather = Gather()
    gather.errors += unknown_fields(doc, keys, where)
    gather.check()


def _holding(doc: Any, where: str = "holding") -> optimiser.Holding:
    if not isinstance(doc, dict):
        raise InputError(where, "must be an object", doc)
    _known_keys(doc, ("starter", "seedlings", "plants", "flowers", "tokens"), where)
    starter = doc.get("starter")
    if not isinstance(starter, dict):
        raise InputError(f"{where}.starter", "must be an object with id and side", starter)
    _known_keys(starter, ("id", "side"), f"{where}.starter")
    tokens = doc.get("tokens", {})
    if not isinstance(tokens, dict) or any(not isinstance(v, bool) for v in tokens.values()):
        raise InputError(f"{where}.tokens", "must map flower_pot / watering_can to booleans (true = unused)", tokens)
    _known_keys(tokens, ("flower_pot", "watering_can"), f"{where}.tokens")
    return optimiser.Holding(starter.get("id"), starter.get("side"), doc.get("seedlings", []), doc.get("plants", []),
                             doc.get("flowers", []), tokens.get("flower_pot", True), tokens.get("watering_can", True))


def _control(time_limit_s: float, seed: int, control: SolveControl | None) -> SolveControl:
    if control is not None:
        return control
    if not isinstance(time_limit_s, (int, float)) or not 0 < time_limit_s <= 3600:
        raise InputError("time_limit_s", "must be a number of seconds in (0, 3600]", time_limit_s)
    return SolveControl(time_limit_s=float(time_limit_s), random_seed=int(seed))


def validate(garden: dict, catalog_dir: str | Path | None = None) -> dict:
    """Is the garden legal? {"legal": bool, "violations": [{"rule", "message"}]}. Malformed input raises."""
    cat = _catalog(catalog_dir)
    violations = garden_violations(garden_from_dict(garden, cat), cat)
    return {"legal": not violations, "violations": [{"rule": v.rule, "message": v.message} for v in violations]}


def _legal(garden: dict, cat: Catalog, where: str = "garden") -> Garden:
    g = garden_from_dict(garden, cat, where)
    violations = garden_violations(g, cat)
    if violations:
        raise InputError(where, "; ".join(map(str, violations)))
    return g


def score(garden: dict, catalog_dir: str | Path | None = None) -> dict:
    """End-of-season prestige of a legal garden, itemised, with the tie-break key."""
    g = _legal(garden, _catalog(catalog_dir))
    s = pure_score(g)
    return dict(_score_dict(s), tie_break=list(s.tie_break_key()))


def _solution_dict(sol: optimiser.Solution) -> dict:
    out = {"status": sol.status, "prestige": sol.prestige, "bound": sol.bound, "board": sol.board,
           "seconds": round(sol.seconds, 3)}
    if sol.garden is not None:
        out.update(garden=garden_to_dict(sol.garden), score=_score_dict(sol.score), picture=render(sol.garden))
    return out


def solve_optimal(holding: dict, time_limit_s: float = 10.0, board: int | None = None, seed: int = 0,
                  catalog_dir: str | Path | None = None, control: SolveControl | None = None) -> dict:
    """The best garden for the tiles held. "optimal" only when proved; "feasible" carries the bound."""
    cat = _catalog(catalog_dir)
    sol = optimiser.solve_optimal(_holding(holding), cat, _control(time_limit_s, seed, control), board=board)
    return _solution_dict(sol)


def hint(garden: dict, tile: str, known: dict | None = None, time_limit_s: float = 10.0, margin: int = 2,
         seed: int = 0, catalog_dir: str | Path | None = None, control: SolveControl | None = None,
         top: int | None = None, follow: dict | None = None) -> dict:
    """Placements of a newly acquired tile ranked by the best final prestige reachable with the tiles
    known to come (`known`: {"seedlings", "plants", "flowers"} not yet in the garden). `top`: only the best
    `top` placements (the search stops once that many meet the holding's ceiling; optimiser.hint). Each option
    carries the `garden` reaching its prestige, in the garden's coordinates; `follow`: the garden of the previous
    hint's option the player took (it holds this garden as it is, the new tile, and known tiles only): its
    placement of the tile reaches at least that garden's prestige."""
    cat = _catalog(catalog_dir)
    g = _legal(garden, cat)
    known = {} if known is None else known
    if not isinstance(known, dict):
        raise InputError("known", "must be an object with seedlings / plants / flowers lists", known)
    _known_keys(known, ("seedlings", "plants", "flowers"), "known")
    if not isinstance(margin, int) or not 0 <= margin <= 6:
        raise InputError("margin", "must be an integer from 0 to 6", margin)
    if top is not None and (isinstance(top, bool) or not isinstance(top, int) or not 1 <= top <= MAX_TOP):
        raise InputError("top", f"must be an integer from 1 to {MAX_TOP} (unset: every placement)", top)
    future = optimiser.Holding(g.tiles[0].id, g.tiles[0].side, known.get("seedlings", []), known.get("plants", []),
                               known.get("flowers", []))
    gather = Gather()  # every bad tile to come at once
    gather(future.validate, cat, "known", len(g.flowers) + (tile in cat.flowers))
    # each tile exists once: the new tile and the known ones are not in the garden yet (the claims
    # audit of 1 Dec 05:00: a tile already laid got an empty ranking, and a known tile already laid
    # was refused as holding.seedlings[2], an index into the garden's tiles plus the known ones)
    laid = {t.id for t in g.tiles} | {p.plant.id for p in g.plants} | {f.flower.id for f in g.flowers}
    if tile in laid:
        gather.errors.append(InputError("tile", "is already in the garden", tile))
    for key in ("seedlings", "plants", "flowers"):
        ids = getattr(future, key)
        for i, tid in enumerate(ids if isinstance(ids, list) else ()):
            if isinstance(tid, str) and tid in laid:
                gather.errors.append(InputError(f"known.{key}[{i}]", "is already in the garden", tid))
            elif isinstance(tid, str) and tid == tile:
                gather.errors.append(InputError(f"known.{key}[{i}]", "is the tile being placed", tid))
    # the flower being placed and those to come are the garden's player's (one hand, or Advanced): the garden's own
    # flowers (a mix among them is a broken rule of the garden, refused by _legal), else the placed flower, set it
    coming = [tile] if tile in cat.flowers else []
    known_flowers = future.flowers if isinstance(future.flowers, list) else []
    like = g.flowers[0].flower if g.flowers else cat.flowers[tile] if coming else None
    named = {e.field for e in gather.errors}  # (known flowers refused among themselves by future.validate)
    for i, why in hand_refusals(cat, coming + known_flowers, like) if like is not None else ():
        j = i - len(coming)
        error = InputError("tile", why, tile) if j < 0 else InputError(f"known.flowers[{j}]", why, known_flowers[j])
        if error.field not in named:
            gather.errors.append(error)
    gather.check()
    line = None if follow is None else _follow(follow, g, tile, future, cat)
    options = optimiser.hint(g, cat, tile, future, _control(time_limit_s, seed, control), margin, top, line)
    return {"tile": tile, "options": [dict({"placement": o.placement, "status": o.status, "prestige": o.prestige,
                                            "bound": o.bound}, **({"garden": garden_to_dict(o.garden)}
                                                                  if o.garden is not None else {}))
                                      for o in options]}


def _follow(doc: dict, garden: Garden, tile: str, future: optimiser.Holding, cat: Catalog) -> Garden:
    """A hint's `follow`: a legal garden holding `garden` as it is (every tile, plant and flower where it lies), and
    otherwise only the new tile and known tiles."""
    line = _legal(doc, cat, "follow")

    def parts(g: Garden) -> set:
        return ({(t.id, t.cells) for t in g.tiles} | {(p.plant.id, tuple(sorted(p.cells))) for p in g.plants}
                | {(f.flower.id, f.at) for f in g.flowers})
    mine, theirs = parts(garden), parts(line)
    if not mine <= theirs:
        raise InputError("follow", "must hold the garden as it is (every tile where it lies now): "
                         f"{sorted(str(p[0]) for p in mine - theirs)[:3]} are not", None)
    extra = {p[0] for p in theirs - mine}
    allowed = {tile, *future.seedlings, *future.plants, *future.flowers}
    if not extra <= allowed:  # (a line that leaves the new plant or flower out ranks no placement: it is optional)
        raise InputError("follow", f"may add only the tile {tile} and known tiles", sorted(extra - allowed))
    return line
