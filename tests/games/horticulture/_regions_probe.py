"""Run by test_lagrange.py in a fresh interpreter (python -m tests.games.horticulture._regions_probe): the Lagrangian
bound of a seeded game (straight path, 10 of its 12 days played), printed as JSON with the file the
region graphs were loaded from. (4 days played until 7 Dec: 1.4 M transitions, 15 s in the pure module; with 10,
0.53 M and 5 s, the same layers and price passes run: the squares left open take every kind.)"""

import json
import random

from solver.games.horticulture import lagrange, regions
from solver.games.horticulture.data import default_catalog
from solver.games.horticulture.garden import PathDrawing, Plan
from solver.games.horticulture.model import DaySpec
from solver.games.horticulture.schedule import play_greedy
from solver.games.horticulture.state import Setup


def main() -> None:
    catalog = default_catalog()
    out = []
    for seed, drawing, played in ((5, PathDrawing.straight(catalog.sheet("A")), 10),):
        rng = random.Random(seed)
        nursery = rng.sample(sorted(catalog.deck.cards), 24)
        plants = list(catalog.plants)
        plan = Plan(rng.choice(plants), rng.choice(plants), (rng.choice(plants), rng.choice(plants)))
        gnome = (rng.randrange(6), rng.randrange(7))
        days = [DaySpec((nursery[i], nursery[i + 1])) for i in range(0, 24, 2)]
        game = play_greedy(catalog, Setup("A", drawing, gnome, plan), [d.options for d in days])
        days = [DaySpec((day.chosen,), day.plants) for day in game[:played]] + days[played:]
        bound = lagrange.LagrangeBound(catalog, "A", drawing, days, gnome, plan)
        found = bound.solve(3)
        planting = {f"{c[0]},{c[1]}": k for g in bound.graphs for c, k in g.planting(found.prices, lagrange.SCALE).items()}
        out.append([found.bound, found.value, found.prices, found.cuts, bound.built, planting])
    print(json.dumps({"file": regions.__file__, "bounds": out}))


if __name__ == "__main__":
    main()
