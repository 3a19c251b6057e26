"""Shared helpers for the Versailles tests: catalogs with hand-made tiles."""
from __future__ import annotations

import dataclasses

from solver.core.solve import SolveControl
from solver.games.versailles.data import Catalog, default_catalog, parse_tiles
from solver.games.versailles.solo import solve_solo


def catalog_with(tiles: dict[int, tuple[str, str]]) -> Catalog:
    """The reference catalog with its tiles replaced by `tiles` (id -> two rows of two codes)."""
    base = default_catalog()
    doc = {
        "field_types": {c: {"name": f.name, "colour": f.colour, "kind": f.kind}
                        for c, f in base.field_types.items()},
        "tiles": [{"id": i, "fields": list(rows)} for i, rows in tiles.items()],
    }
    types, parsed = parse_tiles(doc, "test tiles")
    return dataclasses.replace(base, field_types=types, tiles=parsed)


def two_deterministic_runs(tiles, catalog: Catalog, work: float, seed: int, **options) -> list[dict]:
    """`solve_solo` twice under the same deterministic one-worker control: both answers without
    the measured `seconds` (callers assert they are identical)."""
    outs = []
    for _ in range(2):
        control = SolveControl(time_limit_s=120, deterministic_limit=work, num_workers=1, random_seed=seed)
        out = solve_solo(tiles, catalog, control, **options).as_dict()
        out.pop("seconds")
        outs.append(out)
    return outs
