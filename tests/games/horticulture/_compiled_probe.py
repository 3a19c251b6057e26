"""Run by test_anneal.py in a fresh interpreter (python -m tests.games.horticulture._compiled_probe): a few
annealing runs on seeded 32-, 24- and 16-card games (one with played days, one with the gnome and plan being
chosen), printed as JSON with the file the
module was loaded from."""

import json
import random

from solver.games.horticulture import anneal
from solver.games.horticulture.data import default_catalog
from solver.games.horticulture.garden import PathDrawing, Plan
from solver.games.horticulture.model import DaySpec
from solver.games.horticulture.schedule import play_greedy
from solver.games.horticulture.state import Setup


def main() -> None:
    catalog = default_catalog()
    out = []
    # (the last with the gnome and the plan being chosen too)
    for seed, cards, played, evals, free in ((0, 32, 0, 20_000, False), (4, 16, 3, 10_000, False),
                                             (7, 32, 0, 5_000, False), (2, 24, 0, 20_000, True)):
        rng = random.Random(seed)
        nursery = rng.sample(sorted(catalog.deck.cards), cards)
        plants = list(catalog.plants)
        plan = Plan(rng.choice(plants), rng.choice(plants), (rng.choice(plants), rng.choice(plants)))
        gnome = (rng.randrange(6), rng.randrange(7))
        drawing = PathDrawing.straight(catalog.sheet("A"))
        days = [DaySpec((nursery[i], nursery[i + 1])) for i in range(0, cards, 2)]
        greedy = play_greedy(catalog, Setup("A", drawing, gnome, plan), [d.options for d in days])
        days = [DaySpec((day.chosen,), day.plants) for day in greedy[:played]] + days[played:]
        board = anneal.Board(catalog, "A", drawing, gnome, plan, days, catalog.sheet("A").cells() if free else None,
                             free)
        best, points, used = anneal.anneal_game(board, anneal.from_game(board, days, greedy), random.Random(seed),
                                                evals, 3)
        out.append([points, used, list(best.choice), list(best.kind), list(best.loc), best.gnome, list(best.plan),
                    board.gnome, list(board.plan)])
    print(json.dumps({"file": anneal.__file__, "anneal": out}))


if __name__ == "__main__":
    main()
