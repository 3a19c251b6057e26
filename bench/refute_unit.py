"""Calibrate solo.REFUTE_NODES_PER_UNIT: what one unit of CP-SAT deterministic time costs in CPU
seconds on the Versailles solo models, against the refutation search's nodes per CPU second, both
measured in this one process, interleaved (rates measured at different times on a shared machine
cannot be compared). Prints both and the honest unit (nodes per unit) per round.

    .venv/bin/python bench/refute_unit.py [--rounds 2] [--units 3]

The refutation module is the compiled copy when `make setup` built it for the current source
(solver/core/compiled.py); GARDENS_PURE=1 measures the pure-Python module instead.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ortools.sat.python import cp_model  # noqa: E402

from solver.games.versailles import refute, solo  # noqa: E402
from solver.games.versailles.data import default_catalog  # noqa: E402
from solver.games.versailles.model import build_solo_model  # noqa: E402
from solver.games.versailles.scoring import solo_checkpoints  # noqa: E402

CPSAT = [(2, 8), (0, 8), (5, 8), (1, 8), (0, 10), (3, 10)]  # (seed, tiles) of bench/versailles_optimal.py
REFUTE = [(2, 8, 40), (0, 8, 37), (5, 8, 35), (1, 8, 35)]  # (seed, tiles, target): two proofs, two 40k-node caps


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--units", type=float, default=3.0, help="deterministic time of each CP-SAT run")
    ap.add_argument("--cap", type=int, default=40_000, help="node cap of each refutation search")
    args = ap.parse_args(argv)
    catalog = default_catalog()
    ids = sorted(catalog.tiles)

    def tiles(seed: int, n: int):
        return [catalog.tiles[i] for i in random.Random(seed).sample(ids, n)]

    print(f"refutation module: {refute.__file__}; REFUTE_NODES_PER_UNIT now {solo.REFUTE_NODES_PER_UNIT}")
    for rnd in range(args.rounds):
        cpu = units = 0.0
        for seed, n in CPSAT:
            sm = build_solo_model(tiles(seed, n), catalog, solo_checkpoints(n, catalog), solo.default_board(n))
            s = cp_model.CpSolver()
            s.parameters.num_workers = 1
            s.parameters.random_seed = 0
            s.parameters.max_deterministic_time = args.units
            t = time.process_time()
            s.solve(sm.model)
            cpu += time.process_time() - t
            units += s.deterministic_time
        r_cpu, nodes = 0.0, 0
        for seed, n, target in REFUTE:
            t = time.process_time()
            _, count, _ = refute.refute_above(tiles(seed, n), catalog, target, args.cap)
            r_cpu += time.process_time() - t
            nodes += count
        per_unit, rate = cpu / units, nodes / r_cpu
        print(f"round {rnd}: CP-SAT {per_unit:.3f} s of CPU per unit ({units:.1f} units); refutation {rate:,.0f} "
              f"nodes per CPU second ({nodes:,} nodes); honest unit {rate * per_unit:,.0f} nodes", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
