"""Versailles daily: the tiles of the day in the order they are received; the proven optimum is stored.

Every Versailles day has a **perfect garden**: one in which, at each scoring, every field of the
most plentiful garden types (Jokers included) lies in one area, so the garden meets the counting
bound (the sum of the k largest field counts), which no garden on any board can beat. The stored
optimum is therefore proven on any board, not only on the square the CP-SAT model searches, and
the player's task is to find a perfect garden.

- easy: the whole first stage, 7 tiles, drawn uniformly; a draw is kept only when the optimiser's
  garden meets the counting bound (one worker, fixed seed, deterministic limit), else redrawn.
- medium (10 tiles: the first stage and 3 of the second) and hard (all 14 tiles of a solo game):
  for a uniform draw the optimiser rarely finds a perfect garden, and proves no 14-tile optimum
  otherwise (issue 6), so the day is **built**: three garden types are drawn as the day's theme,
  then tiles (with at most one field of another garden type) and their placements are drawn one at
  a time, each kept only when the garden stays legal and every theme type stays one area (a
  depth-first search with a node budget, restarted with a new theme when it runs out). The result
  is checked by the pure scorer: its points must equal the counting bound of its tile sequence.
  Only the tiles are published; the built garden is the stored answer.

After the 7th tile the garden is scored with its 2 largest areas, after the last with its 3
largest, as the engine's solo scoring does for any number of tiles. All randomness comes from the
`random.Random` given. The engine is imported on first use.
"""
from __future__ import annotations

import random

from generators.answers import optimum_verdict
from generators.data import REFERENCE, GameData
from generators.effort import puzzle_control
from solver.errors import InputError, under

TILES = {"easy": 7, "medium": 10, "hard": 14}  # with the reference data (2 stages of 7 rounds)
BUILT = ("medium", "hard")  # days built around a perfect garden; the others are uniform draws
SOLVE_LIMIT = 5.0  # deterministic seconds for the optimiser (one call)
ATTEMPTS = 16  # uniform draws per day
THEME_TYPES = 3  # garden types a built day is themed on (the final scoring counts 3 areas)
OFF_THEME_FIELDS = 1  # at most this many fields of other garden types on a built day's tile
BUILD_NODES = 3000  # placements tried per theme before the build restarts with a new theme
BUILD_ATTEMPTS = 100  # themes per day (measured on 100 days of 14 tiles: at most 16 needed, 2.6 s)


def tiles_for(difficulty: str, catalog) -> int:
    """The day's tiles: easy is one stage, hard the whole solo game (stages x rounds per stage in the data's
    set-up: 7 and 14 in the reference data), medium TILES' 10, never more than the whole game."""
    stage, game = catalog.setup.rounds_per_stage, catalog.setup.stages * catalog.setup.rounds_per_stage
    return {"easy": min(stage, game), "hard": game}.get(difficulty, min(TILES[difficulty], game))


class GenerationError(RuntimeError):
    """No draw's optimum could be proven within the attempts."""


def _engine():
    from solver.games.versailles import api, data
    return api, data


def _catalog(data: GameData):
    """The catalog of `data` (the reference one when unset)."""
    mod = _engine()[1]
    return mod.default_catalog() if data.versailles is None else mod.load_catalog(data.versailles)


def draw(difficulty: str, rng: random.Random, data: GameData = REFERENCE) -> list[int]:
    catalog = _catalog(data)
    return rng.sample(sorted(catalog.tiles), tiles_for(difficulty, catalog))


def build(n: int, rng: random.Random, catalog) -> list | None:
    """A sequence of n distinct tiles with a perfect garden, as that garden's placements in order,
    or None when the node budget runs out (see the module's doc). Pure Python, no solver."""
    from solver.games.versailles.rules import legal_placements, placed_fields
    from solver.games.versailles.scoring import components

    jokers = catalog.joker_types
    theme = rng.sample(catalog.garden_types, THEME_TYPES)
    pool = [t for t in sorted(catalog.tiles)
            if sum(code in catalog.garden_types and code not in theme for code in catalog.tiles[t].fields)
            <= OFF_THEME_FIELDS]
    nodes = 0

    def joined(fields) -> bool:
        return all(len(components(fields, (t, *jokers))) <= 1 for t in theme)

    def extend(fields: dict, used: frozenset, placements: list) -> list | None:
        nonlocal nodes
        if len(placements) == n:
            return placements
        candidates = [t for t in pool if t not in used]
        rng.shuffle(candidates)
        for tid in candidates[:8]:
            tile = catalog.tiles[tid]
            options = legal_placements(fields, tile)
            rng.shuffle(options)
            for p in options:
                nodes += 1
                if nodes > BUILD_NODES:
                    return None
                grown = {**fields, **placed_fields(tile, p)}
                if joined(grown):
                    # the first placement that keeps the theme joined is explored; a dead end
                    # moves on to the next tile
                    found = extend(grown, used | {tid}, placements + [p])
                    if found is not None:
                        return found
                    break
        return None

    return extend({}, frozenset(), [])


def _built(difficulty: str, rng: random.Random, catalog) -> dict:
    from solver.games.versailles.scoring import solo_points
    from solver.games.versailles.solo import counting_bound

    n = tiles_for(difficulty, catalog)
    for attempt in range(BUILD_ATTEMPTS):
        placements = build(n, rng, catalog)
        if placements is None:
            continue
        tiles = [p.tile for p in placements]
        points = solo_points(placements, catalog)  # replays the placement rules too
        if points != counting_bound([catalog.tiles[t] for t in tiles], catalog):
            continue   # a non-theme type outnumbers a theme type at a scoring: not perfect
        stage = catalog.setup.rounds_per_stage
        return {"public": {"tiles": tiles, "first_stage_tiles": min(stage, n), "attempts": attempt + 1},
                "answer": {"kind": "optimum", "points": points,
                           "garden": {"placements": [p.as_dict() for p in placements]}}}
    raise GenerationError(f"no {difficulty} Versailles day built in {BUILD_ATTEMPTS} attempts")


def generate(difficulty: str, rng: random.Random, data: GameData = REFERENCE) -> dict:
    if difficulty not in TILES:
        raise InputError("difficulty", f"one of {list(TILES)}", difficulty)
    api = _engine()[0]
    catalog = _catalog(data)
    if difficulty in BUILT:
        return _built(difficulty, rng, catalog)
    for attempt in range(ATTEMPTS):
        tiles = draw(difficulty, rng, data)
        result = api.solve_optimal(tiles, control=puzzle_control(SOLVE_LIMIT), catalog_path=catalog)
        if not result["optimal_on_any_board"] or result["points"] != result["counting_bound"]:
            continue  # (a perfect garden only: since 6 Dec the refutation also proves optima below the bound)
        garden = {"placements": result["placements"]}
        if api.score(garden, catalog)["solo_points"] != result["points"]:
            raise GenerationError("the optimiser's garden does not score its points")
        stage = catalog.setup.rounds_per_stage
        return {"public": {"tiles": tiles, "first_stage_tiles": min(stage, len(tiles)), "attempts": attempt + 1},
                "answer": {"kind": "optimum", "points": result["points"], "garden": garden}}
    raise GenerationError(f"no {difficulty} Versailles draw reaching its counting bound in {ATTEMPTS} attempts")


def check(public: dict, answer: dict, garden, data: GameData = REFERENCE) -> dict:
    """The player's garden: the day's tiles placed in the day's order, each legal at its turn; its
    solo points (intermediate + final) against the optimum."""
    api = _engine()[0]
    catalog = _catalog(data)
    if not isinstance(garden, dict) or not isinstance(garden.get("placements"), list):
        raise InputError("versailles_garden.placements", "must be a list of placements", garden)
    placements = garden["placements"]
    tiles = public["tiles"]
    for i, p in enumerate(placements):
        tid = p.get("tile") if isinstance(p, dict) else None
        if i >= len(tiles):
            raise InputError("versailles_garden.placements", f"the day has {len(tiles)} tiles, not more",
                             len(placements))
        if tid != tiles[i]:
            raise InputError(f"versailles_garden.placements[{i}].tile", f"the day's tile at this turn is {tiles[i]}",
                             tid)
    try:
        verdict = api.validate(garden, catalog)
    except ValueError as exc:  # the engine names the answer's own fields
        raise under("versailles_garden", exc) from None
    if not verdict["valid"]:
        return optimum_verdict(answer["points"], 0, legal=False,
                               violations=[f"{v['field']}: {v['reason']}" for v in verdict["violations"]])
    left = len(tiles) - len(placements)
    return optimum_verdict(answer["points"], api.score(garden, catalog)["solo_points"],
                           missing=f"{left} of the day's tiles {'are' if left > 1 else 'is'} not placed yet" if left else None)
