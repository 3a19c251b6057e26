"""Gartenbau end-of-season prestige in pure Python: one small function per rule of the rulebook."""
from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from itertools import product

from solver.core.grid import outside
from solver.errors import InputError

from .data import Flower
from .garden import DIRECTIONS, Cell, Garden, PlacedFlower, components, orthogonal, step

TOKEN_PRESTIGE = 2  # "Unused Flower Pot and Watering Can tokens score 2 points each."


def step_value(table: list[tuple[int, int]] | list[list[int]], count: int) -> int:
    """Prestige of a chart: the column of the largest count not above `count` ("up to 6 holes"
    means more holes score the last column; fewer than the first column score nothing)."""
    value = 0
    for at, prestige in table:
        if count >= at:
            value = prestige
    return value


# ---------------------------------------------------------------- garden geometry

def _box(garden: Garden) -> tuple[int, int, int, int]:
    rows = [c[0] for c in garden.filled]
    cols = [c[1] for c in garden.filled]
    return min(rows), max(rows), min(cols), max(cols)


def outside_spaces(garden: Garden) -> set[Cell]:
    """Empty spaces connected (orthogonally, through empty spaces) to the world beyond the garden,
    within the garden's bounding box widened by one."""
    return outside(garden.filled)


def holes(garden: Garden) -> list[set[Cell]]:
    """"A hole is one or more adjacent empty spaces in a garden that are completely surrounded by
    tiles." Adjacency is orthogonal. Largest first."""
    r0, r1, c0, c1 = _box(garden)
    outside = outside_spaces(garden)
    empty = {(r, c) for r in range(r0, r1 + 1) for c in range(c0, c1 + 1)} - garden.filled - outside
    return components(empty)


def outer_edges(garden: Garden) -> int:
    """"An edge is a straight-line boundary created on the outside of a garden by one or more connected
    tiles. Boundaries which are entirely inside a garden are not counted." Counted as the straight
    sides of the garden's outer outline: runs of unit boundary facing the same way on one line."""
    outside = outside_spaces(garden)
    # the step back along a side's line: west for north/south faces, north for east/west faces
    along = {(-1, 0): (0, -1), (1, 0): (0, -1), (0, 1): (-1, 0), (0, -1): (-1, 0)}
    count = 0
    for cell in garden.filled:
        for d in DIRECTIONS:
            if step(cell, d) not in outside:
                continue
            prev = step(cell, along[d])
            if not (prev in garden.filled and step(prev, d) in outside):
                count += 1
    return count


def largest_rectangle(garden: Garden) -> int:
    """Spaces in the largest axis-aligned rectangle containing no empty space."""
    r0, r1, c0, c1 = _box(garden)
    best = 0
    for top in range(r0, r1 + 1):
        for left in range(c0, c1 + 1):
            width_limit = c1 - left + 1
            for bottom in range(top, r1 + 1):
                w = 0
                while w < width_limit and (bottom, left + w) in garden.filled:
                    w += 1
                width_limit = min(width_limit, w)
                if width_limit == 0:
                    break
                best = max(best, width_limit * (bottom - top + 1))
    return best


def identical_sets(garden: Garden) -> list[set[Cell]]:
    """Connected sets of identical (same colour and type) visible seedlings, largest first."""
    vis = garden.visible_seedlings
    return components(vis, lambda a, b: vis[a] == vis[b])


def identical_pairs(garden: Garden) -> int:
    """Most disjoint pairs of adjacent identical visible seedlings ("each eligible seedling may only
    be counted once"): a maximum matching, bipartite because the grid is a chessboard."""
    vis = garden.visible_seedlings
    left = [c for c in vis if (c[0] + c[1]) % 2 == 0]
    mate: dict[Cell, Cell] = {}

    def augment(u: Cell, seen: set[Cell]) -> bool:
        for d in DIRECTIONS:
            v = step(u, d)
            if v in vis and vis[v] == vis[u] and v not in seen:
                seen.add(v)
                if v not in mate or augment(mate[v], seen):
                    mate[v] = u
                    return True
        return False

    return sum(1 for u in sorted(left) if augment(u, set()))


def rainbow_sets(garden: Garden, colours: tuple[str, ...]) -> int:
    """Most disjoint connected sets of visible seedlings holding one seedling of each colour."""
    vis = {c: s.colour for c, s in garden.visible_seedlings.items()}
    need = len(colours)
    found: set[frozenset[Cell]] = set()

    def grow(group: frozenset[Cell], used: frozenset[str]) -> None:
        if len(group) == need:
            found.add(group)
            return
        for n in sorted(orthogonal(group)):
            if n in vis and vis[n] not in used and n > min(group):
                grow(group | {n}, used | {vis[n]})

    for start in sorted(vis):
        grow(frozenset([start]), frozenset([vis[start]]))
    return _most_disjoint(sorted(found, key=sorted), vis, colours)


def _bound(live: list[frozenset[Cell]], vis: dict[Cell, str], colours: tuple[str, ...]) -> tuple[int, Cell | None]:
    """Every set holds one seedling of each colour: the fewest seedlings of one colour that `live` sets cover bound
    how many disjoint ones there are. Also the seedling to branch on: of that scarcest colour, in the fewest sets."""
    cover: dict[Cell, int] = {}
    for group in live:
        for c in group:
            cover[c] = cover.get(c, 0) + 1
    by_colour: dict[str, list[Cell]] = {col: [] for col in colours}
    for c in cover:
        by_colour[vis[c]].append(c)
    scarce = min(colours, key=lambda col: (len(by_colour[col]), col))
    cells = by_colour[scarce]
    return len(cells), (min(cells, key=lambda c: (cover[c], c)) if cells else None)


def _parts(live: list[frozenset[Cell]]) -> list[list[frozenset[Cell]]]:
    """`live` split into groups of sets no two of which, across groups, share a seedling (independent packings)."""
    owner: dict[Cell, int] = {}
    parent = list(range(len(live)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i
    for i, group in enumerate(live):
        for c in group:
            if c in owner:
                parent[root(i)] = root(owner[c])
            else:
                owner[c] = i
    parts: dict[int, list[frozenset[Cell]]] = {}
    for i, group in enumerate(live):
        parts.setdefault(root(i), []).append(group)
    return list(parts.values())


# Search steps of `_most_disjoint` before a garden is refused as too entangled (~150 us a step: ~5 s); random
# colourings of 100+ seedlings need 20,000 and more, the gardens of real games (up to ~30 tiles) a few hundred.
RAINBOW_STEPS = 30_000


def _most_disjoint(sets: list[frozenset[Cell]], vis: dict[Cell, str], colours: tuple[str, ...]) -> int:
    """The most pairwise disjoint sets among `sets`: exact. Independent parts are packed apart and added up, each
    by branch and bound (`_bound`): the scarcest colour's seedling is in one of its sets, or in none. Parts met
    again are remembered. (The plain enumeration of every packing took 11 s for 23 tiles and more than 120 s for
    31: the rules audit of 7 Dec; the service allows 72.)"""
    memo: dict[frozenset, int] = {}
    steps = [0]

    def part(live: list[frozenset[Cell]]) -> int:
        key = frozenset(live)
        if key not in memo:
            best = 0

            def search(live: list[frozenset[Cell]], count: int) -> None:
                nonlocal best
                steps[0] += 1
                if steps[0] > RAINBOW_STEPS:
                    raise InputError("garden", f"its rainbow sets (Garden Rose) overlap too much to be counted exactly "
                                               f"within {RAINBOW_STEPS:,} search steps; no garden of a real game "
                                               "comes near (31 seedling tiles take ~200)")
                pieces = _parts(live)
                if len(pieces) > 1:  # independent: each packed exactly on its own, then the sum
                    best = max(best, count + sum(part(p) for p in pieces))
                    return
                bound, cell = _bound(live, vis, colours)
                if count + bound <= best:
                    return
                if cell is None:
                    best = max(best, count)
                    return
                for group in [g for g in live if cell in g]:
                    search([g for g in live if not g & group], count + 1)
                search([g for g in live if cell not in g], count)  # the seedling in no set

            search(live, 0)
            memo[key] = best
        return memo[key]

    return sum(part(p) for p in _parts(sets))


def visible_colour(garden: Garden, colour: str) -> tuple[int, int]:
    """(visible seedlings, visible plants) of `colour`."""
    return (sum(1 for s in garden.visible_seedlings.values() if s.colour == colour),
            sum(1 for p in garden.visible_plants if p.plant.colour == colour))


# ---------------------------------------------------------------- one function per flower rule

def fixed(flower: Flower, placed: PlacedFlower, garden: Garden) -> int:
    """"Gardener will earn 24 Prestige if the flower is present in their garden at the end of the
    growing season." (and the Beginner flowers' printed prestige)"""
    return flower.scoring.params["prestige"]


def colour_bonus(flower: Flower, placed: PlacedFlower, garden: Garden) -> int:
    """"8 Prestige plus 3 Prestige for each visible green plant and 2 Prestige for each visible green
    seedling" (Beginner: "6 Prestige plus 2 Prestige per orange seedling or plant")."""
    p = flower.scoring.params
    seedlings, plants = visible_colour(garden, p["colour"])
    return p["base"] + p["per_seedling"] * seedlings + p["per_plant"] * plants


def empty_adjacent(flower: Flower, placed: PlacedFlower, garden: Garden) -> int:
    """"Prestige, according to the chart, for the number of empty spaces that are adjacent to this
    flower. An empty space is the size of a single seedling and does not contain any tile.\""""
    empties = sum(1 for c in orthogonal(placed.cells) if c not in garden.filled)
    return step_value(flower.scoring.table(), empties)


def adjacent_flowers(flower: Flower, placed: PlacedFlower, garden: Garden) -> int:
    """"Prestige ... for each other flower that is immediately adjacent to this flower. This includes
    cases where only half of a flower's tile is adjacent but it does not include diagonal adjacency.\""""
    return step_value(flower.scoring.table(), len(flowers_adjacent_to(placed, garden)))


def flowers_adjacent_to(placed: PlacedFlower, garden: Garden) -> list[PlacedFlower]:
    ring = orthogonal(placed.cells)
    return [f for f in garden.flowers if f is not placed and ring & set(f.cells)]


def largest_rectangle_rule(flower: Flower, placed: PlacedFlower, garden: Garden) -> int:
    """"1 Prestige for each filled space in the largest rectangular area in their garden. This area
    must not contain any empty spaces.\""""
    return flower.scoring.params["per_space"] * largest_rectangle(garden)


def outer_edges_rule(flower: Flower, placed: PlacedFlower, garden: Garden) -> int:
    """"1 Prestige for each edge in their garden" "up to a Maximum of 40"."""
    p = flower.scoring.params
    return min(p["max"], p["per_edge"] * outer_edges(garden))


def seedlings_adjacent_to_flowers(flower: Flower, placed: PlacedFlower, garden: Garden) -> int:
    """"Prestige for the seedlings adjacent to each flower according to the chart. A Seedling can be
    counted once for each flower it is adjacent to." The chart's top row is read as thresholds of
    that total (4, 13, 21, 28, 34, 40 seedlings)."""
    total = sum(1 for f in garden.flowers for c in orthogonal(f.cells) if c in garden.visible_seedlings)
    return step_value(flower.scoring.table(), total)


def identical_pairs_rule(flower: Flower, placed: PlacedFlower, garden: Garden) -> int:
    """"12 Prestige ... plus 2 Prestige for each connected pair of identical seedlings ... Each eligible
    seedling may only be counted once for this flower.\""""
    p = flower.scoring.params
    return p["base"] + p["per_pair"] * identical_pairs(garden)


def colour_sets(flower: Flower, placed: PlacedFlower, garden: Garden) -> int:
    """"10 Prestige ... plus Prestige, according to the chart, for up to 5 sets of red, yellow & blue
    seedlings ... Sets of seedlings do not need to be adjacent to each other.\""""
    p = flower.scoring.params
    sets = min(visible_colour(garden, c)[0] for c in p["colours"])
    return p["base"] + step_value(p["table"], sets)


def rainbow_sets_rule(flower: Flower, placed: PlacedFlower, garden: Garden) -> int:
    """"12 Prestige ... plus 12 Prestige per connected set of 1 seedling each of red, yellow, blue,
    orange, purple & green ... Each eligible seedling may only be counted once for this flower.\""""
    p = flower.scoring.params
    return p["base"] + p["per_set"] * rainbow_sets(garden, tuple(p["colours"]))


def visible_plants_rule(flower: Flower, placed: PlacedFlower, garden: Garden) -> int:
    """"8 Prestige ... plus 5 Prestige for each visible plant in their garden.\""""
    p = flower.scoring.params
    return p["base"] + p["per_plant"] * len(garden.visible_plants)


def identical_adjacent(flower: Flower, placed: PlacedFlower, garden: Garden) -> int:
    """"Prestige, according to the chart, for the largest number of identical seedlings that are
    adjacent to this flower. Identical seedlings include seedlings of the same type and color.\""""
    kinds = Counter(garden.visible_seedlings[c] for c in orthogonal(placed.cells) if c in garden.visible_seedlings)
    return step_value(flower.scoring.table(), max(kinds.values(), default=0))


def _split_holes(tables: list[list], holes_count: int) -> list[int]:
    """"Each hole may only be counted once by this flower, even if a player plays two of this flower":
    the copies share the holes; the best split is taken."""
    best: tuple[int, tuple[int, ...]] = (-1, ())
    for split in product(range(holes_count + 1), repeat=len(tables)):
        if sum(split) <= holes_count:
            value = sum(step_value(t, k) for t, k in zip(tables, split))
            if value > best[0]:
                best = (value, split)
    return list(best[1])


def shared_rules(copies: list[PlacedFlower], garden: Garden) -> list[int]:
    """Prestige of the copies of one flower whose rule says two copies need different sets/holes."""
    rule = copies[0].flower.scoring.rule
    params = copies[0].flower.scoring.params
    if rule == "holes":
        # "6 Prestige plus Prestige for Holes (x2) - If you have two of this tile you need two sets of holes."
        split = _split_holes([c.flower.scoring.params["table"] for c in copies], len(holes(garden)))
        return [c.flower.scoring.params["base"] + step_value(c.flower.scoring.params["table"], k)
                for c, k in zip(copies, split)]
    if rule == "largest_hole":
        # "1 Prestige for each empty space in the largest hole ... you need two different holes."
        sizes = [len(h) for h in holes(garden)] + [0] * len(copies)
        return [params["base"] + params["per_space"] * sizes[i] for i in range(len(copies))]
    # longest_identical_set: "2 Prestige for each seedling in their largest connected set of identical
    # seedlings ... If you have two of this tile you need two different sets."
    sizes = [len(s) for s in identical_sets(garden)] + [0] * len(copies)
    return [params["base"] + params["per_seedling"] * sizes[i] for i in range(len(copies))]


SHARED = frozenset({"holes", "largest_hole", "longest_identical_set"})
RULES = {
    "fixed": fixed,
    "colour_bonus": colour_bonus,
    "empty_adjacent": empty_adjacent,
    "adjacent_flowers": adjacent_flowers,
    "largest_rectangle": largest_rectangle_rule,
    "outer_edges": outer_edges_rule,
    "seedlings_adjacent_to_flowers": seedlings_adjacent_to_flowers,
    "identical_pairs": identical_pairs_rule,
    "colour_sets": colour_sets,
    "rainbow_sets": rainbow_sets_rule,
    "visible_plants": visible_plants_rule,
    "identical_adjacent": identical_adjacent,
}


def plant_prestige(garden: Garden) -> int:
    """"Plant Tiles which are visible in your garden score prestige as printed on each tile.\""""
    return sum(p.plant.prestige for p in garden.visible_plants)


def token_prestige(garden: Garden) -> int:
    """"Unused Flower Pot and Watering Can tokens score 2 points each.\""""
    return TOKEN_PRESTIGE * (int(garden.flower_pot) + int(garden.watering_can))


@dataclass(frozen=True)
class Score:
    """Prestige of one garden, itemised. Seedlings and resources score nothing by themselves."""
    total: int
    flowers: dict[str, int] = field(hash=False)
    plants: int = 0
    tokens: int = 0
    flowers_placed: int = 0
    plants_showing: int = 0

    def tie_break_key(self) -> tuple[int, int, int]:
        """Highest prestige; then "the player who has placed the most Flower Tiles"; then "the
        player with the fewest Plant Tiles showing". Larger key wins; equal keys share victory."""
        return (self.total, self.flowers_placed, -self.plants_showing)


def flower_prestige(garden: Garden) -> dict[str, int]:
    """Prestige of each placed flower, by flower id."""
    out: dict[str, int] = {}
    groups: dict[tuple[str, str], list[PlacedFlower]] = defaultdict(list)
    for placed in garden.flowers:
        if placed.flower.scoring.rule in SHARED:
            groups[placed.flower.copy_key].append(placed)
        else:
            out[placed.flower.id] = RULES[placed.flower.scoring.rule](placed.flower, placed, garden)
    for copies in groups.values():
        for placed, value in zip(copies, shared_rules(copies, garden)):
            out[placed.flower.id] = value
    return out


def score(garden: Garden) -> Score:
    """End-of-season prestige of a garden that passed rules.garden_violations."""
    flowers = flower_prestige(garden)
    plants = plant_prestige(garden)
    tokens = token_prestige(garden)
    return Score(sum(flowers.values()) + plants + tokens, flowers, plants, tokens,
                 len(garden.flowers), len(garden.visible_plants))


def ranking(scores: dict[str, Score]) -> list[list[str]]:
    """Players grouped by place, best first; players in one group share that place."""
    places: dict[tuple, list[str]] = defaultdict(list)
    for player, s in scores.items():
        places[s.tie_break_key()].append(player)
    return [sorted(places[k]) for k in sorted(places, reverse=True)]

