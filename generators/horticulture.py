"""Horticulture daily: sheet side, path, gnome, plan and the nursery order of the day; the proven
optimum score is stored.

Everything comes from the `random.Random` given: the side, a legal path (a random walk over the
directions the rules allow from a random start position), the gnome square, the plan and the
nursery order (cards 2d and 2d+1 are flipped on day d).

- easy (12 cards) and medium (18 cards) are drawn uniformly; the optimiser runs with one worker, a
  fixed seed and a deterministic limit, and a draw is kept only when its optimum is proven.
- hard is the whole solo game, 32 cards (16 days). The optimiser proves no such optimum within
  minutes (issue 7), so the day is **built around a perfect game**: one that reaches the counting
  bound (`solver.games.horticulture.bounds.counting_bound`), which no game can beat. The plan's
  three scoring kinds are different plants; the gnome sits on a square with at most 2 linked
  squares; the window box is either full (one plant of each kind) or holds a few plants of
  unplanned kinds. The garden is laid out as groups of exactly their minimum size, never touching
  a group of their kind: a group of the largest minimum on each square linked to the gnome, border
  plants on the border, path plants next to the path, every first companion linked to a second
  one, each group reachable from the path or the gnome. Then a card a day (no wild cards) plants it
  in a legal order, and each day's other card is matched (augmenting paths) among cards that bring
  no more of a planned kind than the chosen one, so the bound counts exactly the chosen cards. The
  built game is replayed by the pure rules and its score must equal the bound. Any dead end starts a
  new try; the nursery has no wild cards.
"""
from __future__ import annotations

import random
from collections import Counter

from generators.answers import optimum_verdict
from generators.data import REFERENCE, GameData
from generators.effort import puzzle_control
from solver.errors import InputError, under

CARDS = {"easy": 12, "medium": 18, "hard": 32}  # nursery cards (two flipped per day) with the reference data
BUILT = ("hard",)  # days built around a perfect game; the others are drawn and solved
SOLVE_LIMIT = 30.0  # deterministic seconds for the optimiser (one call)
ATTEMPTS = 8
BUILD_ATTEMPTS = 5000  # tries per built day (each a few ms; measured: see docs/puzzles.md)
MAX_GNOME_LINKS = 2  # a built day's gnome has at most this many linked squares (a group on each)


def cards_for(difficulty: str, catalog) -> int:
    """The nursery's cards: hard is the whole solo game (the data's deck size for one gardener, 32 in the reference
    data), the others CARDS, never more than that."""
    solo = catalog.deck.size_for(1)
    return solo if difficulty == "hard" else min(CARDS[difficulty], solo)


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


def _catalog(data: GameData):
    """The catalog of `data` (the reference one when unset)."""
    mod = _engine()[1]
    return mod.default_catalog() if data.horticulture is None else mod.load_catalog(data.horticulture)


def draw(difficulty: str, rng: random.Random, data: GameData = REFERENCE) -> dict:
    _, _, garden, rules = _engine()
    catalog = _catalog(data)
    side = rng.choice(sorted(catalog.sheets))
    sheet = catalog.sheet(side)
    plants = list(catalog.plants)
    first, second = rng.sample(plants, 2)
    setup = {"side": side, "path": _path(sheet, rng, garden.PathDrawing, rules.valid_directions),
             "gnome": list(rng.choice(sorted(sheet.cells()))),
             "plan": {"border": rng.choice(plants), "path": rng.choice(plants), "companions": [first, second]}}
    nursery = rng.sample(sorted(catalog.deck.cards), cards_for(difficulty, catalog))
    return {**setup, "nursery": nursery}


def build(n_cards: int, rng: random.Random, catalog) -> dict | None:
    """A Horticulture day of `n_cards` (two flipped per day) built around a perfect game, or None
    when this try dead-ends (see the module's doc). Pure Python, no solver: returns the setup with
    its nursery and the perfect game's days."""
    _, _, garden_mod, rules = _engine()

    side = rng.choice(sorted(catalog.sheets))
    sheet = catalog.sheet(side)
    path = _path(sheet, rng, garden_mod.PathDrawing, rules.valid_directions)
    g = garden_mod.Garden(sheet, garden_mod.PathDrawing(path["start"], path["moves"]))
    kinds = list(catalog.plants)
    size = {k: catalog.plants[k].minimum_group_size for k in kinds}
    largest = max(size.values())
    border_kind, path_kind, first = rng.sample(kinds, 3)
    second = rng.choice([k for k in kinds if k != first])
    plan_kinds = (border_kind, path_kind, first)
    gnomes = [c for c in g.cells if len(g.linked(c)) <= MAX_GNOME_LINKS]
    gnome = rng.choice(gnomes)
    plants = n_cards  # one card of each day's two comes home, with two plants
    slots = sheet.window_box_slots
    # the window box: full with one plant of every kind, or a few plants of unplanned kinds
    free_kinds = [k for k in kinds if k not in plan_kinds]
    if slots >= len(kinds) and rng.random() < 0.5:
        box = list(kinds)
    else:
        box = rng.sample(free_kinds, rng.randint(0, min(slots - 1, len(free_kinds))))
    layout: dict = {}

    def allowed(cell, kind, group) -> bool:
        if cell == gnome or cell in layout or cell in group:
            return False
        if kind == border_kind and not g.on_border(cell):
            return False
        if kind == path_kind and not g.next_to_path(cell):
            return False
        if kind == first and not any(layout.get(n) == second for n in g.linked(cell)):
            return False   # every first companion is linked to a second one
        # a group never touches another group of its kind (they would merge)
        return not any(layout.get(n) == kind for n in g.linked(cell))

    def grow(kind: str, seed) -> list | None:
        if not (allowed(seed, kind, ()) and _plantable(g, gnome, seed, layout)):
            return None
        group = [seed]
        while len(group) < size[kind]:
            frontier = sorted({n for c in group for n in g.linked(c) if allowed(n, kind, group)})
            if not frontier:
                return None
            group.append(rng.choice(frontier))
        return group

    # the gnome repeats one group per linked square: a largest-minimum group on each
    for cell in sorted(g.linked(gnome)):
        kind = rng.choice([k for k in kinds if size[k] == largest])
        group = grow(kind, cell)
        if group is None:
            return None
        layout.update(dict.fromkeys(group, kind))
    left = plants - len(box) - len(layout)
    misses = 0
    while left > 0 and misses < 200:
        kind = rng.choice([k for k in kinds + list(plan_kinds) if size[k] <= left])   # planned kinds twice as often
        seeds = [c for c in g.cells if c not in layout and c != gnome]
        group = grow(kind, rng.choice(seeds))
        if group is None:
            misses += 1
            continue
        layout.update(dict.fromkeys(group, kind))
        left -= len(group)
    if left:
        return None
    days = _plant_days(g, gnome, layout, box, plants // 2, rng, catalog, plan_kinds)
    if days is None:
        return None
    decoys = _decoys([d["chosen"] for d in days], plan_kinds, rng, catalog)
    if decoys is None:
        return None
    nursery = []
    for day, decoy in zip(days, decoys):
        pair = [day["chosen"], decoy]
        rng.shuffle(pair)
        nursery += pair
    setup = {"side": side, "path": path, "gnome": list(gnome),
             "plan": {"border": border_kind, "path": path_kind, "companions": [first, second]}}
    return {**setup, "nursery": nursery, "days": days}


def _plantable(g, gnome, cell, occupied) -> bool:
    """The planting rule's adjacency (rules.planting_refusal) on plain squares: next to the path,
    or touching the gnome or an occupied square."""
    return g.next_to_path(cell) or any(n == gnome or n in occupied for n in g.touching(cell))


def _plant_days(g, gnome, layout: dict, box: list, n_days: int, rng: random.Random, catalog,
                plan_kinds: tuple) -> list | None:
    """Cards and a planting order that plant exactly `layout` and `box`, each plant legal at its
    turn (next to the path, the gnome or a plant already there), each card once; None if the
    random order dead-ends."""
    cards = [c for c in sorted(catalog.deck.cards) if catalog.wild not in catalog.card(c).plants]
    planted: set = set()
    todo = dict(layout)
    box_left = Counter(box)
    days = []

    def spots(kind: str) -> list:
        out = [c for c, k in todo.items() if k == kind and _plantable(g, gnome, c, planted)]
        if box_left[kind]:
            out.append("window")
        return out

    for _ in range(n_days):
        rng.shuffle(cards)
        # a card without a planned plant needs a second card without one for the day (see
        # _decoys), and those are few: try cards with a planned plant first
        cards.sort(key=lambda c: not any(p in plan_kinds for p in catalog.card(c).plants))
        found = None
        for cid in cards:
            a, b = catalog.card(cid).plants
            for x, y in ((a, b), (b, a)):
                for sx in spots(x):
                    # plant x, then look for y's square
                    if sx == "window":
                        box_left[x] -= 1
                    else:
                        planted.add(sx)
                        del todo[sx]
                    ys = spots(y)
                    sy = rng.choice(ys) if ys else None
                    if sy is not None:
                        found = (cid, [(x, sx), (y, sy)])
                        break
                    if sx == "window":
                        box_left[x] += 1
                    else:
                        planted.discard(sx)
                        todo[sx] = x
                if found:
                    break
            if found:
                break
        if not found:
            return None
        cid, plantings = found
        y, sy = plantings[1]
        if sy == "window":
            box_left[y] -= 1
        else:
            planted.add(sy)
            del todo[sy]
        cards.remove(cid)
        days.append({"chosen": cid, "plants": [{"plant": k, "at": s if s == "window" else list(s)}
                                               for k, s in plantings]})
    return days if not todo and not +box_left else None


def _decoys(chosen: list, plan_kinds: tuple, rng: random.Random, catalog) -> list | None:
    """A second card for each day that never brings home more of a planned kind than the day's
    chosen card (wilds count as every kind), so the counting bound counts the chosen cards: a
    matching of days to spare cards (augmenting paths, in a random order), or None."""
    def count(cid, kind):
        return sum(p in (kind, catalog.wild) for p in catalog.card(cid).plants)

    spare = [c for c in sorted(catalog.deck.cards) if c not in chosen]
    fits = []
    for cid in chosen:
        options = [d for d in spare if all(count(d, k) <= count(cid, k) for k in plan_kinds)]
        rng.shuffle(options)
        fits.append(options)
    owner: dict = {}   # spare card -> day

    def augment(day: int, seen: set) -> bool:
        for card in fits[day]:
            if card not in seen:
                seen.add(card)
                if card not in owner or augment(owner[card], seen):
                    owner[card] = day
                    return True
        return False

    days = list(range(len(chosen)))
    rng.shuffle(days)
    if not all(augment(day, set()) for day in days):
        return None
    by_day = {day: card for card, day in owner.items()}
    return [by_day[day] for day in range(len(chosen))]


def _built(difficulty: str, rng: random.Random, data: GameData = REFERENCE) -> dict:
    from solver.games.horticulture.bounds import counting_bound
    from solver.games.horticulture.model import DaySpec

    api, _, garden_mod, _ = _engine()
    catalog = _catalog(data)
    for attempt in range(BUILD_ATTEMPTS):
        day = build(cards_for(difficulty, catalog), rng, catalog)
        if day is None:
            continue
        game = {k: day[k] for k in ("side", "path", "gnome", "plan")} | {"days": day["days"]}
        score = api.score(game, catalog)["total"]   # replays the pure rules: raises on an illegal game
        nursery = day["nursery"]
        plan = garden_mod.Plan(day["plan"]["border"], day["plan"]["path"], tuple(day["plan"]["companions"]))
        bound = counting_bound(catalog, day["side"], garden_mod.PathDrawing(day["path"]["start"], day["path"]["moves"]),
                               [DaySpec((nursery[i], nursery[i + 1])) for i in range(0, len(nursery), 2)],
                               tuple(day["gnome"]), plan)
        if score != bound:
            continue   # not perfect after all (none seen in 100 days): the bound proves nothing
        setup = {k: day[k] for k in ("side", "path", "gnome", "plan", "nursery")}
        return {"public": {"setup": setup, "attempts": attempt + 1},
                "answer": {"kind": "optimum", "score": score, "garden": game}}
    raise GenerationError(f"no {difficulty} Horticulture day built in {BUILD_ATTEMPTS} attempts")


def generate(difficulty: str, rng: random.Random, data: GameData = REFERENCE) -> dict:
    if difficulty not in CARDS:
        raise InputError("difficulty", f"one of {list(CARDS)}", difficulty)
    api = _engine()[0]
    if difficulty in BUILT:
        return _built(difficulty, rng, data)
    catalog = _catalog(data)
    for attempt in range(ATTEMPTS):
        request = draw(difficulty, rng, data)
        result = api.solve_optimal(request, catalog, control=puzzle_control(SOLVE_LIMIT))
        if result["status"] != "optimal":
            continue
        game = {k: request[k] for k in ("side", "path", "gnome", "plan")} | {"days": result["days"]}
        if api.score(game, catalog)["total"] != result["score"]:
            raise GenerationError("the optimiser's game does not score its points")
        return {"public": {"setup": request, "attempts": attempt + 1},
                "answer": {"kind": "optimum", "score": result["score"], "garden": game}}
    raise GenerationError(f"no {difficulty} Horticulture day with a proven optimum in {ATTEMPTS} attempts")


def check(public: dict, answer: dict, game, data: GameData = REFERENCE) -> dict:
    """The player's days: the day's setup, each day one of the two cards flipped that day (in the
    nursery order), every planting legal; the score against the optimum."""
    api = _engine()[0]
    setup = public["setup"]
    if not isinstance(game, dict) or not isinstance(game.get("days"), list):
        raise InputError("horticulture_game.days", "must be a list of days", game)
    days = game["days"]
    nursery = setup["nursery"]
    if len(days) > len(nursery) // 2:
        raise InputError("horticulture_game.days", f"the puzzle has {len(nursery) // 2} days, not more", len(days))
    for d, day in enumerate(days):
        if not isinstance(day, dict):
            raise InputError(f"horticulture_game.days[{d}]", "must be an object {chosen, plants}", day)
        chosen = day.get("chosen")
        if chosen not in nursery[2 * d:2 * d + 2]:
            raise InputError(f"horticulture_game.days[{d}].chosen",
                             f"one of the cards flipped that day, {nursery[2 * d:2 * d + 2]}", chosen)
    full = {k: setup[k] for k in ("side", "path", "gnome", "plan", "nursery")} | {"days": days}
    try:
        verdict = api.validate(full, _catalog(data))
    except ValueError as exc:  # the engine names the answer's own fields
        raise under("horticulture_game", exc) from None
    if not verdict["legal"]:
        return optimum_verdict(answer["score"], 0, legal=False,
                               violations=[f"{v['where']}: {v['reason']}" for v in verdict["violations"]])
    left = len(nursery) // 2 - len(days)
    return optimum_verdict(answer["score"], verdict["score"]["total"],
                           missing=f"{left} {'days are' if left > 1 else 'day is'} not played yet" if left else None)
