"""Versailles daily: the tiles of the day in the order they are received; the proven optimum is stored.

A day is the start of a solo game: 5 tiles (easy), the whole first stage of 7 tiles (medium), or the
first stage and one tile of the second (hard, 8 tiles). After the 7th tile the garden is scored with
its 2 largest areas, at the end with its 3 largest, as the engine's solo scoring does for any number
of tiles. Whole 14-tile days wait for an optimiser that proves 14-tile optima (issue 6: none of 10
seeded sequences is proven today); 10 tiles already fail 1 day in 4 within the attempts.

The optimum must hold on any board, not only on the square the CP-SAT model searches, so a draw is
kept only when the best garden found meets the counting bound (every field of each of the 2 most
plentiful types, Jokers included, in one area): no garden anywhere scores more. The tiles are
drawn with the `random.Random` given; the optimiser runs with one worker, a fixed seed and a
deterministic limit. The engine is imported on first use.
"""
from __future__ import annotations

import random

from generators.answers import optimum_verdict
from generators.effort import puzzle_control
from solver.errors import InputError

TILES = {"easy": 5, "medium": 7, "hard": 8}
SOLVE_LIMIT = 5.0  # deterministic seconds for the optimiser (one call)
ATTEMPTS = 16


class GenerationError(RuntimeError):
    """No draw's optimum could be proven within the attempts."""


def _engine():
    from solver.games.versailles import api, data
    return api, data


def draw(difficulty: str, rng: random.Random) -> list[int]:
    catalog = _engine()[1].default_catalog()
    return rng.sample(sorted(catalog.tiles), TILES[difficulty])


def generate(difficulty: str, rng: random.Random) -> dict:
    if difficulty not in TILES:
        raise InputError("difficulty", f"one of {list(TILES)}", difficulty)
    api, data = _engine()
    catalog = data.default_catalog()
    for attempt in range(ATTEMPTS):
        tiles = draw(difficulty, rng)
        result = api.solve_optimal(tiles, control=puzzle_control(SOLVE_LIMIT))
        if not result["optimal_on_any_board"]:
            continue
        garden = {"placements": result["placements"]}
        if api.score(garden)["solo_points"] != result["points"]:
            raise GenerationError("the optimiser's garden does not score its points")
        stage = catalog.setup.rounds_per_stage
        return {"public": {"tiles": tiles, "first_stage_tiles": min(stage, len(tiles)), "attempts": attempt + 1},
                "answer": {"kind": "optimum", "points": result["points"], "garden": garden}}
    raise GenerationError(f"no {difficulty} Versailles draw reaching its counting bound in {ATTEMPTS} attempts")


def check(public: dict, answer: dict, garden) -> dict:
    """The player's garden: the day's tiles placed in the day's order, each legal at its turn; its
    solo points (intermediate + final) against the optimum."""
    api = _engine()[0]
    if not isinstance(garden, dict) or not isinstance(garden.get("placements"), list):
        raise InputError("versailles_garden.placements", "must be a list of placements", garden)
    placements = garden["placements"]
    tiles = public["tiles"]
    for i, p in enumerate(placements):
        tid = p.get("tile") if isinstance(p, dict) else None
        if i >= len(tiles) or tid != tiles[i]:
            want = tiles[i] if i < len(tiles) else "no more tiles"
            raise InputError(f"versailles_garden.placements[{i}].tile", f"the day's tile at this turn is {want}", tid)
    try:
        verdict = api.validate(garden)
    except ValueError as exc:
        raise InputError("versailles_garden", str(exc), None) from None
    if not verdict["valid"]:
        return optimum_verdict(answer["points"], 0, legal=False,
                               violations=[f"{v['field']}: {v['reason']}" for v in verdict["violations"]])
    left = len(tiles) - len(placements)
    return optimum_verdict(answer["points"], api.score(garden)["solo_points"],
                           missing=f"{left} of the day's tiles are not placed yet" if left else None)
