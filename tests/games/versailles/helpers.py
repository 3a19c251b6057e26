"""Shared helpers for the Versailles tests: catalogs with hand-made tiles."""
from __future__ import annotations

import dataclasses

from solver.games.versailles.data import Catalog, default_catalog, parse_tiles


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
