"""Garden shapes with many holes, and the proven limit on holes for a number of spaces.

Two uses in the optimiser:

* `max_holes(spaces)`: an upper bound on the holes of *any* garden of that many spaces (used by the
  colour-budget ceiling). It is the smallest-polyomino-with-n-holes sequence (OEIS A118797): Malen
  and Roldan, "Extremal topological and geometric problems for polyominoes", Electron. J. Combin.
  27 (2020) #P2.56, Table 2 / Theorems 3-5. Their polyominoes are rook-connected and a hole is a
  rook-connected group of empty cells that cannot escape: exactly our gardens and holes
  (docs/gartenbau.md, decision 2). Checked in the tests against an exhaustive enumeration of
  small polyominoes.
* `candidate_shapes(spaces, beds)`: precomputed sets of spaces (`shapes.json`, made by
  `python -m solver.games.gartenbau.shapes`) holding many holes and `beds` disjoint filled 2x2
  blocks. The optimiser lays the held tiles onto such a fixed shape first: with the shape fixed,
  the holes are constants and the search is small. A shape is only a place to look; nothing is
  claimed about it, every garden found is scored and checked like any other.
"""
from __future__ import annotations

import argparse
import json
import math
import sys
from functools import lru_cache
from pathlib import Path

from ortools.sat.python import cp_model

from solver.core.grid import components

SHAPES_FILE = Path(__file__).with_name("shapes.json")

# A118797: fewest spaces of a polyomino with n holes, n = 1..35 (Malen and Roldan 2020, Table 2).
FEWEST_SPACES_FOR_HOLES = (7, 11, 14, 17, 19, 23, 25, 28, 30, 33, 35, 38, 40, 43, 45, 48, 50, 53, 55, 57, 59,
                           62, 64, 67, 69, 71, 74, 76, 78, 81, 83, 85, 88, 90, 92)


def max_holes(spaces: int) -> int | None:
    """Most holes a connected garden of `spaces` filled spaces can enclose; None beyond the table."""
    if spaces > FEWEST_SPACES_FOR_HOLES[-1]:
        return None
    return sum(1 for need in FEWEST_SPACES_FOR_HOLES if need <= spaces)


@lru_cache(maxsize=1)
def _table() -> dict[str, list[dict]]:
    if not SHAPES_FILE.exists():
        return {}
    return json.loads(SHAPES_FILE.read_text())["shapes"]


def candidate_shapes(spaces: int, beds: int, holes: int = 0) -> list[frozenset]:
    """Stored shapes of exactly `spaces` spaces with at least `beds` disjoint 2x2 blocks, those with the
    most holes (up to `holes`) first, then those with more blocks (more places for beds). Cells are
    (row, column) with the box anchored at (0, 0)."""
    out = []
    for b in range(beds, 4):
        for entry in _table().get(f"{spaces}/{b}", []):
            cells = frozenset((r, c) for r, row in enumerate(entry["rows"]) for c, ch in enumerate(row) if ch == "#")
            if len(cells) == spaces and len(components(cells)) == 1:  # (the model relies on both)
                out.append((-min(entry["holes"], holes), -b, len(out), cells))
    return [e[-1] for e in sorted(out)]


# ------------------------------------------------------------------------ offline generation

DIRS = ((0, 1), (1, 0), (0, -1), (-1, 0))


def shape_model(spaces: int, beds: int, size: int, cap: int, exclude: list[set] = ()):
    """Connected, domino-tileable sets of `spaces` cells on a size x size board with `beds` disjoint
    filled 2x2 blocks, maximising single-space holes (up to `cap`)."""
    m = cp_model.CpModel()
    cells = [(r, c) for r in range(size) for c in range(size)]

    def on(c):
        return 0 <= c[0] < size and 0 <= c[1] < size

    f = {c: m.new_bool_var(f"f{c}") for c in cells}
    m.add(sum(f.values()) == spaces)
    dominoes = ([((r, c), (r, c + 1)) for r in range(size) for c in range(size - 1)]
                + [((r, c), (r + 1, c)) for r in range(size - 1) for c in range(size)])
    cover = {c: [] for c in cells}
    for p in dominoes:
        v = m.new_bool_var(f"d{p}")
        cover[p[0]].append(v)
        cover[p[1]].append(v)
    for c in cells:
        m.add(sum(cover[c]) == f[c])
    m.add(sum(f[(0, c)] for c in range(size)) >= 1)
    m.add(sum(f[(r, 0)] for r in range(size)) >= 1)
    root = {c: m.new_bool_var(f"root{c}") for c in cells}
    m.add(sum(root.values()) == 1)
    depth = {c: m.new_int_var(0, spaces, f"depth{c}") for c in cells}
    for c in cells:
        m.add(root[c] <= f[c])
        parents = []
        for d in DIRS:
            n = (c[0] + d[0], c[1] + d[1])
            if on(n):
                p = m.new_bool_var(f"p{c}{n}")
                m.add(p <= f[n])
                m.add(depth[c] >= depth[n] + 1).only_enforce_if(p)
                parents.append(p)
        m.add(sum(parents) + root[c] == f[c])

    # single-space holes: an empty space whose four neighbours are filled is a hole of its own (two
    # such spaces are never neighbours), so their number is a lower bound on the holes; exact holes
    # are counted afterwards by the pure scorer
    single = []
    for c in cells:
        nbs = [(c[0] + d[0], c[1] + d[1]) for d in DIRS]
        if not all(on(n) for n in nbs):
            continue
        h = m.new_bool_var(f"hole{c}")
        m.add(h <= 1 - f[c])
        for n in nbs:
            m.add(h <= f[n])
        single.append(h)
    holes = sum(single)
    in_block = {c: [] for c in cells}
    blocks = []
    for r in range(size - 1):
        for c in range(size - 1):
            v = m.new_bool_var(f"b{r},{c}")
            for x in ((r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)):
                m.add(v <= f[x])
                in_block[x].append(v)
            blocks.append(v)
    for c in cells:
        m.add(sum(in_block[c]) <= 1)
    m.add(sum(blocks) == beds)
    for old in exclude:  # another shape: at least one space outside the earlier one
        m.add(sum(f[c] for c in cells if c not in old) >= 1)
    counted = m.new_int_var(0, cap, "counted")
    m.add(counted <= holes)
    m.maximize(counted)
    return m, f


def count_holes(cells: set) -> int:
    """Holes of a set of spaces, counted by the pure scorer's definition."""
    r0, r1 = min(r for r, _ in cells), max(r for r, _ in cells)
    c0, c1 = min(c for _, c in cells), max(c for _, c in cells)
    frame = {(r, c) for r in range(r0 - 1, r1 + 2) for c in range(c0 - 1, c1 + 2)} - set(cells)
    return sum(1 for group in components(frame) if (r0 - 1, c0 - 1) not in group)


def _rows(cells: set) -> list[str]:
    h = max(r for r, _ in cells) + 1
    w = max(c for _, c in cells) + 1
    return ["".join("#" if (r, c) in cells else "." for c in range(w)) for r in range(h)]


def generate(spaces: int, beds: int, count: int, seconds: float, cap: int = 6) -> list[dict]:
    """Up to `count` different shapes, each searched for `seconds` of CP-SAT deterministic time."""
    size = min(spaces, math.ceil(math.sqrt(spaces)) + 3)
    found: list[set] = []
    out = []
    for _ in range(count):
        m, f = shape_model(spaces, beds, size, min(cap, max_holes(spaces) or cap), found)
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        solver.parameters.random_seed = 0
        solver.parameters.max_deterministic_time = seconds  # (the table does not depend on the machine's load)
        status = solver.solve(m)
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            break
        cells = {c for c, v in f.items() if solver.value(v)}
        found.append(cells)
        out.append({"holes": count_holes(cells), "rows": _rows(cells)})
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description="(Re)build shapes.json: garden shapes with many holes.")
    parser.add_argument("--spaces", default=",".join(str(2 * (t + 1)) for t in range(3, 25)))
    parser.add_argument("--beds", default="1,2,3")
    parser.add_argument("--count", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=3.0, help="deterministic time per shape")
    parser.add_argument("--redo", action="store_true", help="recompute keys already in the file")
    args = parser.parse_args()
    doc = json.loads(SHAPES_FILE.read_text()) if SHAPES_FILE.exists() else {
        "_about": "Garden shapes (# = filled space) with many holes and disjoint 2x2 blocks, keyed 'spaces/blocks'; "
                  "made by `python -m solver.games.gartenbau.shapes`. Search aids only: no claim rests on them.",
        "shapes": {}}
    for spaces in map(int, args.spaces.split(",")):
        for beds in map(int, args.beds.split(",")):
            key = f"{spaces}/{beds}"
            if key in doc["shapes"] and not args.redo:
                continue
            doc["shapes"][key] = generate(spaces, beds, args.count, args.seconds)
            print(key, [e["holes"] for e in doc["shapes"][key]], flush=True)
            SHAPES_FILE.write_text(json.dumps(doc, indent=0) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
