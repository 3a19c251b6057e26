"""Run by test_compiled.py in a fresh interpreter (python -m tests.games.versailles._compiled_probe):
a few refutation searches and annealing runs, printed as JSON with the files the modules were loaded from."""

import json
import random

from solver.games.versailles import anneal, refute
from solver.games.versailles.data import default_catalog


def main() -> None:
    catalog = default_catalog()
    ids = sorted(catalog.tiles)
    results = []
    # (seed, tiles, target, node cap, joint_tight): two proofs, the quick one again with a flag set on
    # the module object (the benchmarks and tests do that; it changes the node count), a capped search.
    # (The first proof: seed 12's, 2898 nodes, one plan; seed 2's until 7 Dec, 12255 nodes and 4 s of the pure run.)
    for seed, n, target, cap, tight in ((12, 8, 37, 40_000, True), (0, 8, 37, 40_000, True),
                                        (0, 8, 37, 40_000, False), (5, 8, 35, 6_000, True)):
        refute.JOINT_TIGHT = tight
        tiles = [catalog.tiles[i] for i in random.Random(seed).sample(ids, n)]
        ok, nodes, report = refute.refute_above(tiles, catalog, target, cap)
        results.append([ok, nodes, [[list(map(list, plan)), status] for plan, status in report]])
    annealed = []
    # boards of 2 and 12 words a plane (14 tiles on 10 fields a side, 6 tiles on 24)
    for seed, n, board, evals in ((1, 14, 10, 3000), (3, 9, 8, 2000), (4, 6, 24, 1000)):
        tiles = [catalog.tiles[i] for i in random.Random(seed).sample(ids, n)]
        found = anneal.anneal_garden(tiles, catalog, board, random.Random(seed), evals, restarts=2)
        annealed.append([found.points, found.evals, [p.as_dict() for p in found.placements]])
    # a run keeping its first 5 tiles (the hints' continuations), from a legal start of 10 tiles on 12 fields
    tiles = [catalog.tiles[i] for i in random.Random(7).sample(ids, 10)]
    g = anneal.Garden(tiles, catalog, 12)
    start = g.random_start(random.Random(7))
    best, points, done = anneal.run(g, start, random.Random(8), 2000, fixed=5)
    annealed.append([points, done, [list(a) for a in best], [list(a) for a in start]])
    print(json.dumps({"file": refute.__file__, "results": results, "anneal_file": anneal.__file__,
                      "anneal": annealed}))


if __name__ == "__main__":
    main()
