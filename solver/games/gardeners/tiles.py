"""The garden tiles: schema, loading and validation of a tile catalog, and rotation of tile features."""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from solver.core.grid import DIRECTIONS, rotate_direction
from solver.core.datafile import check_top_level, load_data_file
from solver.errors import InputError

DEFAULT_CATALOG = Path(__file__).resolve().parents[2] / "data" / "gardeners" / "tiles.json"

BACKGROUNDS = ("grass", "soil")
TILE_SETS = ("A", "B", "C")
# Element kinds and the colours each may carry (None = the kind has no colour).
ELEMENT_COLOURS = {
    "tree": ("green", "fuchsia"),
    "flower": ("green", "fuchsia", "orange"),
    "bench": (None,),
    "fountain": (None,),
}


@dataclass(frozen=True)
class Element:
    kind: str
    colour: str | None = None
    facing: str | None = None  # benches only: the direction the sitter looks, in the tile's own frame

    def to_dict(self) -> dict:
        d = {"kind": self.kind}
        if self.colour:
            d["colour"] = self.colour
        if self.facing:
            d["facing"] = self.facing
        return d


@dataclass(frozen=True)
class Tile:
    id: str
    set: str
    background: str
    elements: tuple[Element, ...] = ()
    path: frozenset[str] = frozenset()  # the tile edges the white-stone path reaches (unrotated)

    def bench_facings(self, rotation: int) -> tuple[str, ...]:
        return tuple(sorted(rotate_direction(e.facing, rotation) for e in self.elements if e.kind == "bench"))

    def path_edges(self, rotation: int) -> frozenset[str]:
        return frozenset(rotate_direction(d, rotation) for d in self.path)

    def has(self, kind: str, colour: str | None = None) -> bool:
        return any(e.kind == kind and (colour is None or e.colour == colour) for e in self.elements)

    def to_dict(self) -> dict:
        d = {"id": self.id, "set": self.set, "background": self.background,
             "elements": [e.to_dict() for e in self.elements]}
        if self.path:
            d["path"] = [x for x in DIRECTIONS if x in self.path]
        return d


@dataclass(frozen=True)
class Catalog:
    tiles: tuple[Tile, ...]
    digest: str
    source: str
    by_id: dict = field(hash=False, compare=False, default_factory=dict)

    def tile(self, tile_id: str) -> Tile:
        return self.by_id[tile_id]

    def tiles_of(self, sets: str) -> list[Tile]:
        return [t for t in self.tiles if t.set in sets]


def _element(raw, where: str) -> Element:
    if not isinstance(raw, dict):
        raise InputError(where, "an element must be an object", raw)
    unknown = set(raw) - {"kind", "colour", "facing"}
    if unknown:
        raise InputError(where, f"unknown keys {sorted(unknown)}; an element has kind, colour, facing")
    kind = raw.get("kind")
    if not isinstance(kind, str) or kind not in ELEMENT_COLOURS:
        raise InputError(f"{where}.kind", f"must be one of {sorted(ELEMENT_COLOURS)}", kind)
    allowed = ELEMENT_COLOURS[kind]
    colour = raw.get("colour")
    if not (colour is None or isinstance(colour, str)) or colour not in allowed:
        raise InputError(f"{where}.colour", f"a {kind} takes colour {[c for c in allowed]}", colour)
    facing = raw.get("facing")
    if kind == "bench":
        if not isinstance(facing, str) or facing not in DIRECTIONS:
            raise InputError(f"{where}.facing", "a bench must face one of N, E, S, W", facing)
    elif facing is not None:
        raise InputError(f"{where}.facing", f"only benches have a facing, not a {kind}", facing)
    return Element(kind, colour, facing)


# The top-level keys of a tile file besides the notes ("_reference", "_schema_note": any key starting with "_").
SCHEMA = "gardeners-tiles/1"
_TOP_KEYS = {"schema", "tiles"}
_TILE_KEYS = {"id", "set", "background", "elements", "path"}


def parse_catalog(doc, source: str = "<memory>") -> Catalog:
    """Validate a catalog document (the parsed JSON) and build the Catalog; errors name the field."""
    check_top_level(doc, "tiles", _TOP_KEYS, SCHEMA, "tile file")
    tiles = []
    seen = set()
    for i, raw in enumerate(doc["tiles"]):
        where = f"tiles[{i}]"
        if not isinstance(raw, dict):
            raise InputError(where, "a tile must be an object", raw)
        unknown = set(raw) - _TILE_KEYS
        if unknown:
            raise InputError(where, f"unknown keys {sorted(unknown)}")
        tid = raw.get("id")
        if not isinstance(tid, str) or not tid:
            raise InputError(f"{where}.id", "must be a non-empty string", tid)
        if tid in seen:
            raise InputError(f"{where}.id", "duplicate tile id", tid)
        seen.add(tid)
        if not isinstance(raw.get("set"), str) or raw["set"] not in TILE_SETS:
            raise InputError(f"{where}.set", f"must be one of {list(TILE_SETS)}", raw.get("set"))
        if not isinstance(raw.get("background"), str) or raw["background"] not in BACKGROUNDS:
            raise InputError(f"{where}.background", f"must be one of {list(BACKGROUNDS)}", raw.get("background"))
        elements = raw.get("elements", [])
        if not isinstance(elements, list):
            raise InputError(f"{where}.elements", "must be a list", elements)
        elems = tuple(_element(e, f"{where}.elements[{j}]") for j, e in enumerate(elements))
        path = raw.get("path", [])
        if (not isinstance(path, list) or any(not isinstance(p, str) or p not in DIRECTIONS for p in path)
                or len(set(path)) != len(path)):
            raise InputError(f"{where}.path", "must be a list of distinct edges among N, E, S, W", path)
        # A path enters and leaves a tile: one edge (a dead end) or two. Junctions would make
        # "a continuous route" ambiguous, so the schema refuses them.
        if len(path) > 2:
            raise InputError(f"{where}.path", "a tile's path reaches at most two edges", path)
        tiles.append(Tile(tid, raw["set"], raw["background"], elems, frozenset(path)))
    if not tiles:
        raise InputError("tiles", "a catalog needs at least one tile")
    canonical = json.dumps([t.to_dict() for t in tiles], sort_keys=True).encode()
    digest = hashlib.sha256(canonical).hexdigest()[:16]
    return Catalog(tuple(tiles), digest, source, {t.id: t for t in tiles})


def load_catalog(path: str | Path | None = None) -> Catalog:
    """Load and validate a tile catalog file (default: the reference catalog shipped with gardens)."""
    return load_data_file(path, DEFAULT_CATALOG, "catalog", parse_catalog)
