"""Horticulture daily: sheet side, path, gnome, plan and the nursery order of the day; the proven
optimum score is stored.

Everything is drawn with the `random.Random` given: the side, a legal path (a random walk over the
directions the rules allow from a random start position), the gnome square, the plan and the
nursery order (cards 2d and 2d+1 are flipped on day d). The optimiser runs with one worker, a fixed
seed and a deterministic limit; a draw is kept only when its optimum is proven.
"""
from __future__ import annotations

import random

from generators.answers import optimum_verdict
from generators.effort import puzzle_control
from solver.errors import InputError

CARDS = {"easy": 12, "medium": 18, "hard": 24}  # nursery cards (two flipped per day)
SOLVE_LIMIT = 30.0  # deterministic seconds for the optimiser (one call)
ATTEMPTS = 8


class GenerationError(RuntimeError):
    """No draw's optimum could be proven within the attempts."""


def _engine():
    from solver.games.horticulture import api, data, garden, rules
    return api, data, garden, rules


def _path(sheet, rng: random.Random, PathDrawing, valid_directions) -> dict:
    start = rng.choice(sorted(sheet.start_positions))
    moves = ""
    for _ in range(4 * sheet.rows * sheet.columns):
        options = valid_directions(sheet, PathDrawing(start, moves))
        if not options:
            break
        moves += rng.choice(sorted(options))
    return {"start": start, "moves": moves}


def draw(difficulty: str, rng: random.Random) -> dict:
    _, data, garden, rules = _engine()
    catalog = data.default_catalog()
    side = rng.choice(sorted(catalog.sheets))
    sheet = catalog.sheet(side)
    plants = list(catalog.plants)
    first, second = rng.sample(plants, 2)
    setup = {"side": side, "path": _path(sheet, rng, garden.PathDrawing, rules.valid_directions),
             "gnome": list(rng.choice(sorted(sheet.cells()))),
             "plan": {"border": rng.choice(plants), "path": rng.choice(plants), "companions": [first, second]}}
    nursery = rng.sample(sorted(catalog.deck.cards), CARDS[difficulty])
    return {**setup, "nursery": nursery}


def generate(difficulty: str, rng: random.Random) -> dict:
    if difficulty not in CARDS:
        raise InputError("difficulty", f"one of {list(CARDS)}", difficulty)
    api = _engine()[0]
    for attempt in range(ATTEMPTS):
        request = draw(difficulty, rng)
        result = api.solve_optimal(request, control=puzzle_control(SOLVE_LIMIT))
        if result["status"] != "optimal":
            continue
        game = {k: request[k] for k in ("side", "path", "gnome", "plan")} | {"days": result["days"]}
        if api.score(game)["total"] != result["score"]:
            raise GenerationError("the optimiser's game does not score its points")
        return {"public": {"setup": request, "attempts": attempt + 1},
                "answer": {"kind": "optimum", "score": result["score"], "garden": game}}
    raise GenerationError(f"no {difficulty} Horticulture day with a proven optimum in {ATTEMPTS} attempts")


def check(public: dict, answer: dict, game) -> dict:
    """The player's days: the day's setup, each day one of the two cards flipped that day (in the
    nursery order), every planting legal; the score against the optimum."""
    api = _engine()[0]
    setup = public["setup"]
    if not isinstance(game, dict) or not isinstance(game.get("days"), list):
        raise InputError("horticulture_game.days", "must be a list of days", game)
    days = game["days"]
    nursery = setup["nursery"]
    if len(days) > len(nursery) // 2:
        raise InputError("horticulture_game.days", f"the day has {len(nursery) // 2} days", len(days))
    for d, day in enumerate(days):
        chosen = day.get("chosen") if isinstance(day, dict) else None
        if chosen not in nursery[2 * d:2 * d + 2]:
            raise InputError(f"horticulture_game.days[{d}].chosen",
                             f"one of the cards flipped that day, {nursery[2 * d:2 * d + 2]}", chosen)
    full = {k: setup[k] for k in ("side", "path", "gnome", "plan", "nursery")} | {"days": days}
    try:
        verdict = api.validate(full)
    except ValueError as exc:
        raise InputError("horticulture_game", str(exc), None) from None
    if not verdict["legal"]:
        return optimum_verdict(answer["score"], 0, legal=False,
                               violations=[f"{v['where']}: {v['reason']}" for v in verdict["violations"]])
    left = len(nursery) // 2 - len(days)
    return optimum_verdict(answer["score"], verdict["score"]["total"],
                           missing=f"{left} days are not played yet" if left else None)
