"""Hand-drawn gardens for the Gartenbau tests: one character per space."""
from __future__ import annotations

from solver.games.gartenbau.data import Plant, Seedling, load_catalog
from solver.games.gartenbau.garden import Garden, PlacedFlower, PlacedPlant, PlacedSeedlingTile

CATALOG = load_catalog()
COLOUR = {"r": "red", "y": "yellow", "b": "blue", "o": "orange", "g": "green", "p": "purple"}


def seedling(ch: str) -> Seedling:
    """Lower case: a sprout of that colour; upper case: a leaf."""
    return Seedling(COLOUR[ch.lower()], "sprout" if ch.islower() else "leaf")


def _tile(cells: set) -> list[tuple]:
    """Some domino tiling of `cells` (backtracking), so drawn gardens need not spell out tiles."""
    if not cells:
        return []
    first = min(cells)
    for other in ((first[0], first[1] + 1), (first[0] + 1, first[1])):
        if other in cells:
            rest = _tile(cells - {first, other})
            if rest is not None:
                return [(first, other)] + rest
    return None


def garden(picture: str, plants=(), flowers=(), flower_pot=False, watering_can=False) -> Garden:
    """`plants`: (colour, prestige, cell, cell); `flowers`: (flower id, top-left cell).
    Tokens default to used so that scores only count what the test is about."""
    rows = [r.strip() for r in picture.strip().splitlines()]
    spaces = {(r, c): ch for r, row in enumerate(rows) for c, ch in enumerate(row) if ch != "."}
    dominoes = _tile(set(spaces))
    assert dominoes is not None, "the drawn garden has no domino tiling"
    tiles = [PlacedSeedlingTile(f"T{i}", d, (seedling(spaces[d[0]]), seedling(spaces[d[1]])), starter=i == 0,
                                side="a" if i == 0 else None) for i, d in enumerate(dominoes)]
    placed_plants = [PlacedPlant(Plant(f"P{i}", colour, prestige, 0, 0), (a, b))
                     for i, (colour, prestige, a, b) in enumerate(plants)]
    placed_flowers = [PlacedFlower(CATALOG.flowers[fid], at) for fid, at in flowers]
    return Garden(tiles, placed_plants, placed_flowers, flower_pot, watering_can)


def bed(flower_id: str, at=(0, 0), colour: str = "yellow", prestige: int = 0):
    """Two horizontal plants filling the 2x2 block at `at`, and the flower on them: (plants, flowers)."""
    r, c = at
    return ([(colour, prestige, (r, c), (r, c + 1)), (colour, prestige, (r + 1, c), (r + 1, c + 1))],
            [(flower_id, at)])


def with_beds(picture: str, *beds, plants=(), **tokens) -> Garden:
    """A drawn garden with flower beds (see `bed`) and extra plants."""
    all_plants = list(plants)
    all_flowers = []
    for p, f in beds:
        all_plants += p
        all_flowers += f
    return garden(picture, all_plants, all_flowers, **tokens)
