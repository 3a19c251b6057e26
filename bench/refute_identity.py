"""Identity check of the Versailles refutation search: 382 searches' (status, nodes, fields lost,
arrangement), dumped as one JSON list, to compare two versions of refute.py (pure or compiled)
byte for byte. A change meant to keep "the same nodes in the same order" must give an identical
file; 750,283 nodes in all since 1 Dec (docs/versailles.md).

    .venv/bin/python bench/refute_identity.py OUT.json        # the module as installed (compiled if built)
    GARDENS_PURE=1 .venv/bin/python bench/refute_identity.py OUT.json
    cmp OLD.json OUT.json

The searches: the four unit searches (bench/refute_unit.py's: 8 tiles, seeds 2 at 40, 0 at 37, 5 at
35, 1 at 35, 40k-node cap) plan by plan; 9 tiles seed 1 at 39 and 10 tiles seeds 1 at 42 and 3 at 44
(3 plans each, capped); on 8-tile seeds 0 and 2 (two plans each) each pruning flag off, all off,
ordered=False, connected=False and bridge_bfs=3; 300 small searches with connected=False,
ordered=False (new roots far away). To compare against an older commit, run it from a `git worktree`
of that commit with its own GARDENS_COMPILED_DIR (solver/core/compiled.py).
"""
import json
import os
import random
import sys
import time

sys.path.insert(0, os.getcwd())
from solver.core import compiled  # noqa: E402

compiled.install()
from solver.games.versailles import refute  # noqa: E402
from solver.games.versailles.data import default_catalog  # noqa: E402
from solver.games.versailles.scoring import solo_checkpoints  # noqa: E402

CAT = default_catalog()
IDS = sorted(CAT.tiles)
FLAGS = ["prefix", "bridge", "fewest_spare", "joint", "joint_slack", "joint_children", "joint_tight", "closing",
         "blocking"]


def tiles(seed, n):
    return [CAT.tiles[i] for i in random.Random(seed).sample(IDS, n)]


def main() -> int:
    print("module", refute.__file__, file=sys.stderr)
    out = []

    def run(tag, ts, target, cap, maxplans=None, **kw):
        cps = solo_checkpoints(len(ts), CAT)
        for k, (count, chosen) in enumerate(refute.plans(ts, CAT)):
            if count < target or (maxplans and k >= maxplans):
                break
            reqs = [(cps[cp][0], t) for cp, types in enumerate(chosen) for t in types]
            o = refute.arrangeable(ts, CAT, reqs, count - target, cap, **kw)
            arr = sorted(o.arrangement.items()) if o.arrangement else None
            out.append([tag, k, o.status, o.nodes, o.lost, arr])

    t0 = time.process_time()
    for seed, n, tg in [(2, 8, 40), (0, 8, 37), (5, 8, 35), (1, 8, 35)]:
        run(f"unit{seed}", tiles(seed, n), tg, 40000)
    run("9s1", tiles(1, 9), 39, 60000, 3)
    run("10s1", tiles(1, 10), 42, 30000, 3)
    run("10s3", tiles(3, 10), 44, 30000, 3)
    for seed, tg in [(0, 37), (2, 40)]:
        for fl in FLAGS:
            run(f"off-{fl}-{seed}", tiles(seed, 8), tg, 20000, 2, **{fl: False})
        run(f"alloff-{seed}", tiles(seed, 8), tg, 20000, 2, **{fl: False for fl in FLAGS})
        run(f"unordered-{seed}", tiles(seed, 8), tg, 20000, 2, ordered=False)
        run(f"unconnected-{seed}", tiles(seed, 8), tg, 20000, 2, connected=False)
        run(f"bfs3-{seed}", tiles(seed, 8), tg, 20000, 2, bridge_bfs=3)
    for seed in range(300):
        rng = random.Random(seed)
        n = rng.choice([4, 5, 6])
        ts = [CAT.tiles[i] for i in rng.sample(IDS, n)]
        types = rng.sample(sorted(CAT.garden_types), 2)
        o = refute.arrangeable(ts, CAT, [(n, types[0]), (n, types[1])], 0, 5000, connected=False, ordered=False)
        out.append(["far", seed, o.status, o.nodes, o.lost, sorted(o.arrangement.items()) if o.arrangement else None])
    with open(sys.argv[1], "w") as fh:
        json.dump(out, fh)
    print(len(out), "searches", sum(r[3] for r in out), "nodes", f"{time.process_time() - t0:.1f}s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
