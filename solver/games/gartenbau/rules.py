"""Gartenbau placement legality in pure Python: every refusal comes with the rule it breaks."""
from __future__ import annotations

from dataclasses import dataclass, replace

from solver.errors import InputError

from .data import Catalog, Flower, Plant
from .garden import (MAX_FLOWERS_LAID, Cell, Garden, components, PlacedFlower, PlacedPlant, PlacedSeedlingTile,
                     adjacent, flower_cells, flower_plant_pairs, orthogonal)

RESOURCE_LIMIT = 10  # "At the end of your turn, you may only hold a maximum of 10 total resources."


@dataclass(frozen=True)
class Violation:
    """One broken rule: `rule` is a stable name, `message` says where and why."""
    rule: str
    message: str

    def __str__(self) -> str:
        return f"{self.rule}: {self.message}"


class IllegalPlacement(InputError):
    """A move the rules refuse; `violations` lists every reason."""

    def __init__(self, field: str, violations: list[Violation]):
        self.violations = violations
        super().__init__(field, "; ".join(str(v) for v in violations))


def _domino(cells: tuple[Cell, Cell], what: str) -> list[Violation]:
    if not adjacent(*cells):
        return [Violation("domino", f"{what} must cover two orthogonally adjacent spaces, got {list(cells)}")]
    return []


def seedling_refusals(garden: Garden, tile_id: str, cells: tuple[Cell, Cell]) -> list[Violation]:
    """"All Seedling Tiles may be placed anywhere in your garden, as long as the tile being placed is
    adjacent to at least one previously placed tile." Colours need not match."""
    out = _domino(cells, f"seedling tile {tile_id}")
    if any(t.id == tile_id for t in garden.tiles):
        out.append(Violation("unique_tile", f"seedling tile {tile_id} is already in the garden"))
    taken = [c for c in cells if c in garden.seedling_at]
    if taken:
        out.append(Violation("overlap", f"space {list(taken[0])} already holds a seedling"))
    elif not set(cells) & orthogonal(garden.seedling_at.keys()):
        out.append(Violation("adjacency", f"seedling tile {tile_id} at {list(cells)} touches no placed tile"))
    return out


def _colour_refusal(catalog: Catalog, colour: str, below: tuple[str, str], what: str, under: str) -> list[Violation]:
    if catalog.allows(colour, below):
        return []
    options = " or ".join("+".join(p) for p in sorted(catalog.requirements[colour]))
    return [Violation("colour", f"{what} ({colour}) needs {under} {options}, found {below[0]}+{below[1]}")]


def plant_refusals(garden: Garden, catalog: Catalog, plant: Plant, cells: tuple[Cell, Cell]) -> list[Violation]:
    """"A Plant Tile must be placed in your own garden, directly covering two seedlings. The seedling
    colour requirements for the Plant Tile must be met" and it "must cross two Seedling Tiles"
    (the starter tile counts as one tile)."""
    what = f"plant {plant.id}"
    out = _domino(cells, what)
    if any(p.plant.id == plant.id for p in garden.plants):
        out.append(Violation("unique_tile", f"{what} is already in the garden"))
    missing = [c for c in cells if c not in garden.seedling_at]
    if missing:
        out.append(Violation("needs_seedlings", f"{what}: space {list(missing[0])} holds no seedling"))
        return out
    covered = [c for c in cells if c in garden.plant_at]
    if covered:
        out.append(Violation("overlap", f"{what}: seedling at {list(covered[0])} is already covered by a plant"))
    if garden.seedling_at[cells[0]][0] == garden.seedling_at[cells[1]][0]:
        tile = garden.tiles[garden.seedling_at[cells[0]][0]]
        out.append(Violation("two_tiles", f"{what} covers both halves of {'starter ' if tile.starter else ''}"
                                          f"tile {tile.id}; it must cross two seedling tiles"))
    below = tuple(garden.seedling_at[c][1].colour for c in cells)
    out += _colour_refusal(catalog, plant.colour, below, what, "seedlings")
    return out


def flower_refusals(garden: Garden, catalog: Catalog, flower: Flower, at: Cell,
                    hand: list[str] | None = None) -> list[Violation]:
    """"You must meet the plant color and location requirements for the Flower Tile being played":
    a flower covers two directly adjacent (parallel) plants filling its 2x2 block. With `hand`
    given, the flower must come from it."""
    what = f"flower {flower.id}"
    out = []
    if hand is not None and flower.id not in hand:
        out.append(Violation("hand", f"{what} is not in the hand"))
    if any(f.flower.id == flower.id for f in garden.flowers):
        out.append(Violation("unique_tile", f"{what} is already in the garden"))
    block = flower_cells(at)
    covered = [c for c in block if c in garden.flower_at]
    if covered:
        out.append(Violation("overlap", f"{what}: space {list(covered[0])} already holds a flower"))
    plants = None
    for pair in flower_plant_pairs(at):
        idx = [garden.plant_at.get(pair[k][0]) for k in (0, 1)]
        if all(i is not None and set(garden.plants[i].cells) == set(pair[k]) for k, i in enumerate(idx)):
            plants = [garden.plants[i] for i in idx]
    if plants is None:
        out.append(Violation("two_plants", f"{what} at {list(at)} must cover exactly two parallel plants filling "
                                           f"spaces {[list(c) for c in block]}"))
        return out
    out += _colour_refusal(catalog, flower.colour, (plants[0].plant.colour, plants[1].plant.colour), what, "plants")
    return out


def purchase_refusals(resources: dict[str, int], plant: Plant) -> list[Violation]:
    """"Pay the resource cost indicated on the tile." `resources` holds "sun" and "water"."""
    out = []
    for kind, cost in (("sun", plant.sun), ("water", plant.water)):
        if resources.get(kind, 0) < cost:
            out.append(Violation("resources", f"plant {plant.id} costs {cost} {kind}, only {resources.get(kind, 0)} held"))
    return out


def resource_limit_refusals(resources: dict[str, int]) -> list[Violation]:
    """"At the end of your turn, you may only hold a maximum of 10 total resources." """
    total = sum(resources.values())
    return [] if total <= RESOURCE_LIMIT else [
        Violation("resource_limit", f"{total} resources held at the end of the turn, at most {RESOURCE_LIMIT}")]


def _connected(garden: Garden) -> list[Violation]:
    parts = components(garden.seedling_at.keys())
    if len(parts) > 1:
        return [Violation("connected", f"the garden falls into {len(parts)} parts; space {list(min(parts[1]))} "
                                       "is cut off (each seedling tile is placed \"adjacent to at least one "
                                       "previously placed tile\", and the Watering Can \"may not break your garden "
                                       "into two gardens\")")]
    return []


def _hand_kind(flower: Flower) -> str:
    return f"a Beginner flower of the {flower.hand} hand" if flower.level == "beginner" else "an Advanced flower"


def hand_refusals(catalog: Catalog, flower_ids: list, like: Flower | None = None) -> list[tuple[int, str]]:
    """(index, why) for each flower that no player could hold with the others: "There are 2 possible ways to do
    this. Please choose ONE": one preset hand of Beginner flowers, or Advanced flowers drafted. The player's kind is
    `like`'s when given (a garden's own flowers), else the kind most of them share (the first on a tie), so the odd
    ones out are refused. Unknown ids are left to the caller's own check."""
    known = [(i, catalog.flowers[fid]) for i, fid in enumerate(flower_ids)
             if isinstance(fid, str) and fid in catalog.flowers]
    if not known:
        return []
    kinds = [_hand_kind(f) for _, f in known]
    main = _hand_kind(like) if like is not None else max(kinds, key=lambda k: (kinds.count(k), -kinds.index(k)))
    first = like if like is not None else next(f for _, f in known if _hand_kind(f) == main)
    return [(i, f"{f.id} is {_hand_kind(f)} and {first.id} {main}: a player holds one preset Beginner hand or "
                "Advanced flowers, not both") for i, f in known if _hand_kind(f) != main]


def garden_violations(garden: Garden, catalog: Catalog) -> list[Violation]:
    """Every rule a finished garden must satisfy, checked from scratch (no move history needed):
    one starter, tiles used once, no overlaps, one connected garden, plants over two seedling
    tiles of the right colours, flowers over two parallel plants of the right colours."""
    out: list[Violation] = []
    if not garden.tiles or not garden.tiles[0].starter or any(t.starter for t in garden.tiles[1:]):
        out.append(Violation("starter", "the garden needs exactly one starter tile, listed first"))
    ids = [t.id for t in garden.tiles] + [p.plant.id for p in garden.plants] + [f.flower.id for f in garden.flowers]
    for tid in sorted({i for i in ids if ids.count(i) > 1}):
        out.append(Violation("unique_tile", f"tile {tid} is used more than once"))
    seen: dict[Cell, str] = {}
    for t in garden.tiles:
        out += _domino(t.cells, f"seedling tile {t.id}")
        for c in t.cells:
            if c in seen:
                out.append(Violation("overlap", f"tiles {seen[c]} and {t.id} both lie on space {list(c)}"))
            seen[c] = t.id
    hand = [Violation("hand", why) for _, why in hand_refusals(catalog, [f.flower.id for f in garden.flowers])]
    if len(garden.flowers) > MAX_FLOWERS_LAID:
        hand.append(Violation("hand", f"{len(garden.flowers)} flowers laid: a player keeps at most {MAX_FLOWERS_LAID} "
                                      "(5, or 6 in a 2-player Advanced game)"))
    if out:
        return out + hand  # the layers above need a sound seedling layer to be checked meaningfully
    out += _connected(garden)
    partial = Garden(garden.tiles)
    for p in garden.plants:
        out += plant_refusals(partial, catalog, p.plant, p.cells)
        partial = replace(partial, plants=partial.plants + [p])
    for f in garden.flowers:
        out += flower_refusals(partial, catalog, f.flower, f.at)
        partial = replace(partial, flowers=partial.flowers + [f])
    return out + hand


def _raise_if(field: str, violations: list[Violation]) -> None:
    if violations:
        raise IllegalPlacement(field, violations)


def place_seedling(garden: Garden, catalog: Catalog, tile_id: str, cells: tuple[Cell, Cell]) -> Garden:
    """The garden with seedling tile `tile_id` added (`seedlings[i]` of the tile on `cells[i]`)."""
    if tile_id not in catalog.seedling_tiles:
        raise InputError("tile", "unknown seedling tile", tile_id)
    _raise_if("cells", seedling_refusals(garden, tile_id, cells))
    tile = PlacedSeedlingTile(tile_id, tuple(cells), catalog.seedling_tiles[tile_id].seedlings)
    return replace(garden, tiles=garden.tiles + [tile])


def place_plant(garden: Garden, catalog: Catalog, plant_id: str, cells: tuple[Cell, Cell]) -> Garden:
    if plant_id not in catalog.plants:
        raise InputError("tile", "unknown plant tile", plant_id)
    plant = catalog.plants[plant_id]
    _raise_if("cells", plant_refusals(garden, catalog, plant, cells))
    return replace(garden, plants=garden.plants + [PlacedPlant(plant, tuple(cells))])


def place_flower(garden: Garden, catalog: Catalog, flower_id: str, at: Cell, hand: list[str] | None = None) -> Garden:
    if flower_id not in catalog.flowers:
        raise InputError("tile", "unknown flower tile", flower_id)
    flower = catalog.flowers[flower_id]
    _raise_if("at", flower_refusals(garden, catalog, flower, at, hand))
    return replace(garden, flowers=garden.flowers + [PlacedFlower(flower, tuple(at))])


def watering_can_refusals(garden: Garden, tile_ids: list[str], new_cells: tuple[Cell, Cell] | None) -> list[Violation]:
    """"Once per game you may surrender this token to move one uncovered Seedling Tile from one location
    in your garden to another location OR to trade locations of two uncovered Seedling Tiles in your
    garden. You may not break your garden into two gardens." `tile_ids` holds one tile (with
    `new_cells`) or two tiles to swap."""
    out = []
    if not garden.watering_can:
        out.append(Violation("token_used", "the watering can token has already been surrendered"))
    by_id = {t.id: t for t in garden.tiles}
    if len(tile_ids) not in (1, 2) or (len(tile_ids) == 2) == (new_cells is not None) or len(set(tile_ids)) != len(tile_ids):
        return out + [Violation("watering_can", "move one tile to new cells, or swap two different tiles")]
    for tid in tile_ids:
        if tid not in by_id:
            out.append(Violation("watering_can", f"tile {tid} is not in the garden"))
        elif any(c in garden.plant_at for c in by_id[tid].cells):
            out.append(Violation("uncovered", f"tile {tid} is covered by a plant and cannot be moved"))
    if out:
        return out
    moved = _watering_can_tiles(garden, tile_ids, new_cells)
    if new_cells is not None:
        out += _domino(new_cells, f"seedling tile {tile_ids[0]}")
        if set(map(tuple, new_cells)) == set(by_id[tile_ids[0]].cells):
            # "to another location": turning the tile round on its own spaces is no move (rules lawyer, 7 Dec)
            out.append(Violation("watering_can", f"tile {tile_ids[0]} must move to another location, not turn on "
                                                 "its own spaces"))
        others = {c for t in garden.tiles if t.id != tile_ids[0] for c in t.cells}
        if set(new_cells) & others:
            out.append(Violation("overlap", f"space {list(sorted(set(new_cells) & others)[0])} is taken"))
    if not out:
        out += _connected(Garden(moved))
    return out


def _watering_can_tiles(garden: Garden, tile_ids: list[str], new_cells) -> list[PlacedSeedlingTile]:
    if new_cells is not None:
        return [replace(t, cells=tuple(new_cells)) if t.id == tile_ids[0] else t for t in garden.tiles]
    a, b = (next(t for t in garden.tiles if t.id == i) for i in tile_ids)
    swap = {a.id: b.cells, b.id: a.cells}
    return [replace(t, cells=swap[t.id]) if t.id in swap else t for t in garden.tiles]


def use_watering_can(garden: Garden, tile_ids: list[str], new_cells: tuple[Cell, Cell] | None = None) -> Garden:
    _raise_if("watering_can", watering_can_refusals(garden, tile_ids, new_cells))
    return replace(garden, tiles=_watering_can_tiles(garden, tile_ids, new_cells), watering_can=False)
