"""A player's Gartenbau garden: three layers of domino tiles on a square grid, and its plain-data form."""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from solver.core.datafile import named
from solver.core.grid import components  # noqa: F401  (re-exported: rules and scoring group spaces with it)
from solver.errors import Gather, InputError, InputErrors

from .data import Catalog, Flower, Plant, Seedling

Cell = tuple[int, int]  # (row, column); the garden has no fixed origin, any integers are fine

# The one place the flower footprint is decided: a flower covers two parallel, directly adjacent
# plants, i.e. a 2x2 block whose top-left cell is `at`. That gives the 8 adjacent spaces
# ("each flower will have a maximum of 8 adjacent seedlings") the rulebook implies.
FLOWER_FOOTPRINT: tuple[Cell, ...] = ((0, 0), (0, 1), (1, 0), (1, 1))


DIRECTIONS = ((-1, 0), (0, 1), (1, 0), (0, -1))  # N, E, S, W


def step(cell: Cell, direction: tuple[int, int]) -> Cell:
    return (cell[0] + direction[0], cell[1] + direction[1])


def flower_cells(at: Cell) -> tuple[Cell, ...]:
    return tuple((at[0] + dr, at[1] + dc) for dr, dc in FLOWER_FOOTPRINT)


def flower_plant_pairs(at: Cell) -> tuple[tuple[tuple[Cell, Cell], tuple[Cell, Cell]], ...]:
    """The two ways two plants fill a flower's block: two horizontal plants, or two vertical ones."""
    r, c = at
    return ((((r, c), (r, c + 1)), ((r + 1, c), (r + 1, c + 1))),
            (((r, c), (r + 1, c)), ((r, c + 1), (r + 1, c + 1))))


def orthogonal(cells: tuple[Cell, ...] | list[Cell] | set[Cell]) -> set[Cell]:
    """Cells orthogonally next to the group but not in it."""
    group = set(cells)
    return {step(c, d) for c in group for d in DIRECTIONS} - group


def adjacent(a: Cell, b: Cell) -> bool:
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


@dataclass(frozen=True)
class PlacedSeedlingTile:
    """A seedling (or the starter) tile: `seedlings[i]` lies on `cells[i]`."""
    id: str
    cells: tuple[Cell, Cell]
    seedlings: tuple[Seedling, Seedling]
    starter: bool = False
    side: str | None = None


@dataclass(frozen=True)
class PlacedPlant:
    plant: Plant
    cells: tuple[Cell, Cell]


@dataclass(frozen=True)
class PlacedFlower:
    flower: Flower
    at: Cell

    @property
    def cells(self) -> tuple[Cell, ...]:
        return flower_cells(self.at)


@dataclass
class Garden:
    """The end-of-season (or current) garden. `tiles[0]` is the starter tile."""
    tiles: list[PlacedSeedlingTile]
    plants: list[PlacedPlant] = field(default_factory=list)
    flowers: list[PlacedFlower] = field(default_factory=list)
    flower_pot: bool = True  # True while the token is unused (worth 2 at the end)
    watering_can: bool = True

    # Views below assume a garden that passed rules.garden_violations (no overlaps).
    @cached_property
    def seedling_at(self) -> dict[Cell, tuple[int, Seedling]]:
        return {c: (i, t.seedlings[k]) for i, t in enumerate(self.tiles) for k, c in enumerate(t.cells)}

    @cached_property
    def plant_at(self) -> dict[Cell, int]:
        return {c: i for i, p in enumerate(self.plants) for c in p.cells}

    @cached_property
    def flower_at(self) -> dict[Cell, int]:
        return {c: i for i, f in enumerate(self.flowers) for c in f.cells}

    @cached_property
    def filled(self) -> frozenset[Cell]:
        """Spaces holding any tile ("a filled space may contain a seedling, plant, and/or flower")."""
        return frozenset(self.seedling_at) | frozenset(self.plant_at) | frozenset(self.flower_at)

    @cached_property
    def visible_seedlings(self) -> dict[Cell, Seedling]:
        """Seedlings not covered by a plant (a plant's flower covers the plant, so also covered)."""
        return {c: s for c, (_, s) in self.seedling_at.items() if c not in self.plant_at}

    @cached_property
    def visible_plants(self) -> list[PlacedPlant]:
        """Plants not covered by a flower: "those Plant Tiles do not score"."""
        return [p for p in self.plants if p.cells[0] not in self.flower_at]


# A garden of 60-odd tiles spans a few dozen spaces; coordinates are bounded so that a hint's neighbouring spaces
# (one step beyond the garden) still fit the wire's 32-bit integers (a starter at row 2^31 - 1 failed inside the
# hint's answer with an empty field name).
MAX_COORDINATE = 10_000
# The flowers a player keeps: a preset Beginner hand of 5, or 5 Advanced flowers drafted (6 in a 2-player game, which
# drafts 8 and discards 2). A holding may hold 8 (the draft's hand before its discard; a hint counts its garden's
# flowers, the new tile and the flowers to come together); a garden lays at most 6 (the rule `hand` of
# rules.garden_violations, and the model's cap in GardenModel.flower_layer).
MAX_FLOWERS_LAID = 6
MAX_FLOWERS_HELD = 8


def _cell(value: Any, where: str) -> Cell:
    if (not isinstance(value, (list, tuple)) or len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        raise InputError(where, "must be a [row, column] pair of integers", value)
    if not all(-MAX_COORDINATE <= v <= MAX_COORDINATE for v in value):
        raise InputError(where, f"row and column must lie within +-{MAX_COORDINATE}", value)
    return (value[0], value[1])


def _pair(value: Any, where: str) -> tuple[Cell, Cell]:
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        raise InputError(where, "must list exactly two cells", value)
    return (_cell(value[0], f"{where}[0]"), _cell(value[1], f"{where}[1]"))


def _obj(value: Any, where: str) -> dict:
    if not isinstance(value, dict):
        raise InputError(where, "must be an object", value)
    return value


def unknown_fields(doc: dict, keys: tuple[str, ...], where: str) -> list[InputError]:
    """An error per key of `doc` outside `keys`: a misspelt key ("seedling", "flowerpot") is refused, not read as
    its default."""
    return [InputError(f"{where}.{k}", f"unknown field; expected some of {', '.join(keys)}")
            for k in sorted(str(k) for k in doc if k not in keys)]


def garden_from_dict(doc: Any, catalog: Catalog, where: str = "garden") -> Garden:
    """Parse the plain-data garden (ids refer to the catalog); shape errors name the field."""
    doc = _obj(doc, where)
    # A garden holds each tile at most once, so no list is longer than the catalog's: checked before any rule
    # runs, which bounds the work and the violations a Validate answer can list (a 60 KB request of one
    # seedling tile 3,500 times answered 7,001 violations, 385 KB).
    for key, name, size in (("seedlings", "seedling", len(catalog.seedling_tiles)),
                            ("plants", "plant", len(catalog.plants)), ("flowers", "flower", len(catalog.flowers))):
        items = doc.get(key) or []
        if isinstance(items, list) and len(items) > size:
            raise InputError(f"{where}.{key}", f"at most {size}: the game has {size} {name} tiles, each used once",
                             len(items))
    gather = Gather()  # every bad tile, plant, flower and token at once

    def starter() -> PlacedSeedlingTile:
        st = _obj(doc.get("starter"), f"{where}.starter")
        sid = st.get("id")
        if sid not in catalog.starter_tiles:
            raise InputError(f"{where}.starter.id", "unknown starter tile", sid)
        side = named(st.get("side"), catalog.starter_tiles[sid].sides)  # ("A" for "a")
        if side not in catalog.starter_tiles[sid].sides:
            raise InputError(f"{where}.starter.side", f"must be one of {sorted(catalog.starter_tiles[sid].sides)}",
                             side)
        return PlacedSeedlingTile(sid, _pair(st.get("cells"), f"{where}.starter.cells"),
                                  catalog.starter_tiles[sid].sides[side], True, side)

    def seedling(t: Any, w: str) -> PlacedSeedlingTile:
        t = _obj(t, w)
        tid = t.get("id")
        if tid not in catalog.seedling_tiles:
            raise InputError(f"{w}.id", "unknown seedling tile", tid)
        return PlacedSeedlingTile(tid, _pair(t.get("cells"), f"{w}.cells"), catalog.seedling_tiles[tid].seedlings)

    def plant(p: Any, w: str) -> PlacedPlant:
        p = _obj(p, w)
        pid = p.get("id")
        if pid not in catalog.plants:
            raise InputError(f"{w}.id", "unknown plant tile", pid)
        return PlacedPlant(catalog.plants[pid], _pair(p.get("cells"), f"{w}.cells"))

    def flower(f: Any, w: str) -> PlacedFlower:
        f = _obj(f, w)
        fid = f.get("id")
        if fid not in catalog.flowers:
            raise InputError(f"{w}.id", "unknown flower tile", fid)
        return PlacedFlower(catalog.flowers[fid], _cell(f.get("at"), f"{w}.at"))

    def token_state() -> dict:
        tokens = _obj(doc.get("tokens", {}), f"{where}.tokens")
        bad = [InputError(f"{where}.tokens.{key}", "tokens are flower_pot / watering_can, true while unused",
                          tokens[key])
               for key in tokens if key not in ("flower_pot", "watering_can") or not isinstance(tokens[key], bool)]
        if bad:
            raise bad[0] if len(bad) == 1 else InputErrors(bad)
        return tokens

    # (a misspelt "seedling" list was read as no seedling tiles at all)
    gather.errors += unknown_fields(doc, ("starter", "seedlings", "plants", "flowers", "tokens"), where)
    tiles = [gather(starter)]
    tiles += [gather(seedling, t, f"{where}.seedlings[{i}]") for i, t in enumerate(doc.get("seedlings", []) or [])]
    plants = [gather(plant, x, f"{where}.plants[{i}]") for i, x in enumerate(doc.get("plants", []) or [])]
    flowers = [gather(flower, x, f"{where}.flowers[{i}]") for i, x in enumerate(doc.get("flowers", []) or [])]
    tokens = gather(token_state)
    gather.check()
    return Garden(tiles, plants, flowers, tokens.get("flower_pot", True), tokens.get("watering_can", True))


def garden_to_dict(garden: Garden) -> dict:
    starter = garden.tiles[0]
    return {
        "starter": {"id": starter.id, "side": starter.side, "cells": [list(c) for c in starter.cells]},
        "seedlings": [{"id": t.id, "cells": [list(c) for c in t.cells]} for t in garden.tiles[1:]],
        "plants": [{"id": p.plant.id, "cells": [list(c) for c in p.cells]} for p in garden.plants],
        "flowers": [{"id": f.flower.id, "at": list(f.at)} for f in garden.flowers],
        "tokens": {"flower_pot": garden.flower_pot, "watering_can": garden.watering_can},
    }


def render(garden: Garden) -> str:
    """A text picture: per space the visible layer's colour initial (lower: seedling, upper: plant,
    '*' flower), '.' empty. Rows/columns shifted so the picture starts at the garden's corner."""
    if not garden.filled:
        return ""
    rows = [c[0] for c in garden.filled]
    cols = [c[1] for c in garden.filled]
    lines = []
    for r in range(min(rows), max(rows) + 1):
        line = []
        for c in range(min(cols), max(cols) + 1):
            cell = (r, c)
            if cell in garden.flower_at:
                line.append("*")
            elif cell in garden.plant_at:
                line.append(garden.plants[garden.plant_at[cell]].plant.colour[0].upper())
            elif cell in garden.seedling_at:
                line.append(garden.seedling_at[cell][1].colour[0])
            else:
                line.append(".")
        lines.append("".join(line))
    return "\n".join(lines)
