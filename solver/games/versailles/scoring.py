"""Pure-Python scoring for Versailles: contiguous areas, garden points, majority tokens, end of game."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Mapping, Sequence

from solver.games.versailles.data import Catalog
from solver.games.versailles.rules import Cell, Placement, build_garden, neighbours, placed_fields


def components(fields: Mapping[Cell, str], counts: Iterable[str]) -> list[set[Cell]]:
    """The orthogonally contiguous groups of fields whose code is in `counts`."""
    wanted = set(counts)
    return cell_groups({c for c, code in fields.items() if code in wanted})


def cell_groups(todo: set[Cell]) -> list[set[Cell]]:
    """The orthogonally contiguous groups of the cells in `todo` (the set is used up)."""
    groups = []
    while todo:
        start = todo.pop()
        group, stack = {start}, [start]
        while stack:
            for n in neighbours(stack.pop()):
                if n in todo:
                    todo.discard(n)
                    group.add(n)
                    stack.append(n)
        groups.append(group)
    return groups


def largest_area(fields: Mapping[Cell, str], counts: Iterable[str]) -> int:
    return max((len(g) for g in components(fields, counts)), default=0)


def largest_area_fields(fields: Mapping[Cell, str], counts: Iterable[str]) -> set[Cell]:
    """The fields of the largest area of fields whose code is in `counts` (empty when there is
    none). Among equally large areas the one whose sorted fields come last: an answer that does
    not depend on the order `components` happens to find them in."""
    return max(components(fields, counts), key=lambda g: (len(g), sorted(g)), default=set())


def largest_areas(fields: Mapping[Cell, str], catalog: Catalog) -> dict[str, int]:
    """Largest contiguous area per garden type (Jokers count in every type at once) and per
    construction type (Construction Sites count only among themselves, Jokers not)."""
    jokers = catalog.joker_types
    out = {t: largest_area(fields, (t, *jokers)) for t in catalog.garden_types}
    for t in catalog.construction_types:
        out[t] = largest_area(fields, (t,))
    return out


def top_areas(areas: Mapping[str, int], catalog: Catalog, k: int) -> list[tuple[str, int]]:
    """The k largest garden-type areas, largest first (ties in catalog order; only the sizes count)."""
    order = {t: i for i, t in enumerate(catalog.garden_types)}
    ranked = sorted(((t, areas[t]) for t in catalog.garden_types), key=lambda ts: (-ts[1], order[ts[0]]))
    return ranked[:k]


def counted_areas(areas: Mapping[str, int], catalog: Catalog, k: int) -> list[tuple[str, int]]:
    """The areas a scoring counts, as answers list them: top_areas without the empty ones (a type the garden lacks
    scores nothing; listed, it read as "counted")."""
    return [(t, size) for t, size in top_areas(areas, catalog, k) if size > 0]


def area_points(areas: Mapping[str, int], catalog: Catalog, k: int) -> int:
    """1 point per field of the k largest garden types."""
    return sum(size for _, size in top_areas(areas, catalog, k))


def solo_checkpoints(n_tiles: int, catalog: Catalog) -> list[tuple[int, int]]:
    """(tiles placed, areas scored) at which a lone garden of n_tiles is scored: the intermediate
    scoring after the first stage's tiles and the final scoring after the last tile."""
    rounds = catalog.setup.rounds_per_stage
    points = [(min(n_tiles, rounds), catalog.setup.intermediate_areas)]
    if n_tiles > rounds:
        points.append((n_tiles, catalog.setup.final_areas))
    return points


def solo_points(placements: Sequence[Placement], catalog: Catalog) -> int:
    """Garden points of one player's placements in order: intermediate + final area points, no tokens.

    This is the quantity the solo optimiser maximises.
    """
    garden = build_garden(catalog.tiles, placements)
    total = 0
    for n, k in solo_checkpoints(len(placements), catalog):
        fields: dict[Cell, str] = {}
        for p in garden.placements[:n]:
            fields.update(placed_fields(catalog.tiles[p.tile], p))
        total += area_points(largest_areas(fields, catalog), catalog, k)
    return total


@dataclass
class Transfer:
    """A large majority token changing hands (from None when first taken)."""

    type: str
    to: str
    previous: str | None
    size: int
    stage: int
    round: int

    def as_dict(self) -> dict:
        return {"type": self.type, "to": self.to, "from": self.previous, "size": self.size,
                "stage": self.stage, "round": self.round}


@dataclass
class Majorities:
    """Who holds each large majority token, as a running state over a game."""

    catalog: Catalog
    holders: dict[str, str | None] = field(default_factory=dict)
    log: list[Transfer] = field(default_factory=list)

    def __post_init__(self) -> None:
        for tok in self.catalog.tokens.large:
            self.holders.setdefault(tok.type, None)

    def after_placement(self, player: str, areas: Mapping[str, Mapping[str, int]],
                        stage: int = 1, round: int = 1) -> list[Transfer]:
        """Check `player`'s areas after a placement: take a token at >= threshold fields, or from
        its holder only with strictly more fields than the holder's area has now."""
        moved = []
        for t, holder in self.holders.items():
            size = areas[player][t]
            if holder == player or size < self.catalog.tokens.threshold:
                continue
            if holder is None or size > areas[holder][t]:
                self.holders[t] = player
                moved.append(Transfer(t, player, holder, size, stage, round))
        self.log.extend(moved)
        return moved

    def held_by(self, player: str) -> list[str]:
        return [t for t, h in self.holders.items() if h == player]


@dataclass
class StageScore:
    areas_counted: list[tuple[str, int]]
    area_points: int
    large_tokens: list[str]
    large_token_points: int
    small_tokens: list[str] = field(default_factory=list)
    small_token_points: int = 0

    @property
    def total(self) -> int:
        return self.area_points + self.large_token_points + self.small_token_points

    def as_dict(self) -> dict:
        return {"areas_counted": [{"type": t, "size": s} for t, s in self.areas_counted],
                "area_points": self.area_points, "large_tokens": self.large_tokens,
                "large_token_points": self.large_token_points, "small_tokens": self.small_tokens,
                "small_token_points": self.small_token_points, "total": self.total}


def intermediate_score(player: str, areas: Mapping[str, int], majorities: Majorities) -> StageScore:
    cat = majorities.catalog
    counted = counted_areas(areas, cat, cat.setup.intermediate_areas)
    held = majorities.held_by(player)
    points = {tok.type: tok.stage1_points for tok in cat.tokens.large}
    return StageScore(counted, sum(s for _, s in counted), held, sum(points[t] for t in held))


def small_token_winners(areas: Mapping[str, Mapping[str, int]], majorities: Majorities,
                        small_tokens: bool) -> dict[str, str | None]:
    """Who gets each small token at the end. A garden type's token goes to the single player with
    the largest area among all but the large token's holder (nobody if that is tied or if nobody holds
    the large token). The Construction Site token goes to the single player with the largest Construction Site;
    ties award nothing. With `small_tokens` off (the 2-player game) nobody gets any: "The Small Majority Tokens
    (worth 3 points) are not used in a 2-player game", and the site award is one of the six small tokens (until
    7 Dec it was still given there)."""
    cat = majorities.catalog
    winners: dict[str, str | None] = {}
    for tok in cat.tokens.small:
        if not small_tokens:
            winners[tok.type] = None
            continue
        kind = cat.field_types[tok.type].kind
        if kind == "construction":
            contenders = list(areas)
        else:
            holder = majorities.holders.get(tok.type)
            if holder is None:
                winners[tok.type] = None
                continue
            contenders = [p for p in areas if p != holder]
        best = max((areas[p][tok.type] for p in contenders), default=0)
        top = [p for p in contenders if areas[p][tok.type] == best]
        winners[tok.type] = top[0] if best > 0 and len(top) == 1 else None
    return winners


def final_score(player: str, areas: Mapping[str, int], majorities: Majorities,
                small_winners: Mapping[str, str | None]) -> StageScore:
    cat = majorities.catalog
    counted = counted_areas(areas, cat, cat.setup.final_areas)
    held = majorities.held_by(player)
    large_points = {tok.type: tok.stage2_points for tok in cat.tokens.large}
    small_points = {tok.type: tok.points for tok in cat.tokens.small}
    small = [t for t, w in small_winners.items() if w == player]
    return StageScore(counted, sum(s for _, s in counted), held, sum(large_points[t] for t in held),
                      small, sum(small_points[t] for t in small))


def winners(totals: Mapping[str, int], largest_single_area: Mapping[str, int]) -> list[str]:
    """Most points wins; among those tied, the largest single garden area; still tied: shared."""
    best = max(totals.values())
    tied = [p for p in totals if totals[p] == best]
    best_area = max(largest_single_area[p] for p in tied)
    return [p for p in tied if largest_single_area[p] == best_area]


# --- incremental areas (the optimiser's heuristics; `components` above is the specification) ---

# cell j of a tile anchored at (x, y) is (x + TILE_CELLS[j][0], y + TILE_CELLS[j][1]), footprint order
TILE_CELLS = ((0, 0), (1, 0), (0, 1), (1, 1))
# the fields orthogonally next to cell j that lie outside the tile (two per cell of a 2x2 tile)
OUTSIDE = (((-1, 0), (0, -1)), ((2, 0), (1, -1)), ((-1, 1), (0, 2)), ((2, 1), (1, 2)))


def _tile_groups(mask: int) -> tuple[tuple[int, ...], ...]:
    """The contiguous groups, within one 2x2 tile, of the cells whose bits are set (cell j is bit
    j; 0-1, 0-2, 1-3 and 2-3 touch, the diagonals do not), each listed from its first cell."""
    links = {0: (1, 2), 1: (0, 3), 2: (0, 3), 3: (1, 2)}
    todo = [j for j in range(4) if mask >> j & 1]
    out = []
    while todo:
        group, stack = [todo[0]], [todo[0]]
        while stack:
            for k in links[stack.pop()]:
                if k in todo and k not in group:
                    group.append(k)
                    stack.append(k)
        todo = [j for j in todo if j not in group]
        out.append(tuple(sorted(group)))
    return tuple(out)


TILE_GROUPS = tuple(_tile_groups(m) for m in range(16))  # per bit mask of a tile's cells


def joined_size(groups: Sequence[tuple[int, ...]], near: Sequence[set[int]], size: Mapping[int, int]) -> int:
    """Largest area through a tile's groups of counting cells: a group joins the areas next to it
    (`near`, labels; `size` per label), and the two groups of a diagonal pair are one area when
    they touch a common area."""
    if len(groups) == 2 and near[0] & near[1]:
        return 2 + sum(size[lab] for lab in near[0] | near[1])
    best = 0
    for group, seen in zip(groups, near):
        s = len(group)
        for lab in seen:
            s += size[lab]
        if s > best:
            best = s
    return best


class IncrementalAreas:
    """Contiguous areas per garden type grown one tile at a time (what `components` finds, kept
    up to date instead of recomputed): `label[t]` maps every field counting for type t to its
    area's label, `members[t][label]` lists the area's fields, `largest[t]` is the size of t's
    largest area. Areas only ever merge as tiles are added, so a union of labels suffices.

    `counts` maps each type to the codes that count for it (the type itself and the Jokers).
    `joined` answers, without adding anything, how large the area through a tile's cells would
    be; the greedy and the beam search score every candidate placement with it."""

    __slots__ = ("counts", "label", "members", "largest", "_next")

    def __init__(self, counts: Mapping[str, frozenset[str]]):
        self.counts = dict(counts)
        self.label: dict[str, dict[Cell, int]] = {t: {} for t in counts}
        self.members: dict[str, dict[int, list[Cell]]] = {t: {} for t in counts}
        self.largest: dict[str, int] = {t: 0 for t in counts}
        self._next = 0

    @classmethod
    def for_catalog(cls, catalog: Catalog) -> "IncrementalAreas":
        jokers = set(catalog.joker_types)
        return cls({t: frozenset({t, *jokers}) for t in catalog.garden_types})

    @classmethod
    def of_fields(cls, fields: Mapping[Cell, str], counts: Mapping[str, frozenset[str]]) -> "IncrementalAreas":
        """The areas of a finished set of fields (labelled by `components`)."""
        out = cls(counts)
        for t, codes in out.counts.items():
            for group in components(fields, codes):
                out._next += 1
                out.members[t][out._next] = list(group)
                for c in group:
                    out.label[t][c] = out._next
                out.largest[t] = max(out.largest[t], len(group))
        return out

    def mask(self, t: str, layout: Sequence[str]) -> int:
        """Bit j set when cell j of the tile layout counts for type t."""
        codes = self.counts[t]
        return sum(1 << j for j, code in enumerate(layout) if code in codes)

    @staticmethod
    def _near(label: dict[Cell, int], x: int, y: int, group: tuple[int, ...]) -> set[int]:
        """Labels of the areas orthogonally next to a group of cells of a tile anchored at (x, y)."""
        seen = set()
        for j in group:
            for dx, dy in OUTSIDE[j]:
                lab = label.get((x + dx, y + dy))
                if lab is not None:
                    seen.add(lab)
        return seen

    def joined(self, t: str, x: int, y: int, mask: int) -> int:
        """Size of the largest area of type t that holds a cell of `mask` once a tile anchored at
        (x, y) with those cells counting for t is added (0 for an empty mask)."""
        members = self.members[t]
        near = [self._near(self.label[t], x, y, group) for group in TILE_GROUPS[mask]]
        return joined_size(TILE_GROUPS[mask], near, {lab: len(members[lab]) for seen in near for lab in seen})

    def add(self, x: int, y: int, layout: Sequence[str]) -> None:
        """Add a tile anchored at (x, y) (its fields must be free) and merge the areas it joins."""
        for t, codes in self.counts.items():
            mask = sum(1 << j for j, code in enumerate(layout) if code in codes)
            if not mask:
                continue
            label = self.label[t]
            members = self.members[t]
            for group in TILE_GROUPS[mask]:
                seen = self._near(label, x, y, group)
                cells = [(x + TILE_CELLS[j][0], y + TILE_CELLS[j][1]) for j in group]
                if seen:
                    keep = max(seen, key=lambda lab: (len(members[lab]), -lab))
                    seen.discard(keep)
                else:
                    self._next += 1
                    keep = self._next
                    members[keep] = []
                into = members[keep]
                for lab in seen:
                    for c in members.pop(lab):
                        label[c] = keep
                        into.append(c)
                for c in cells:
                    label[c] = keep
                    into.append(c)
                if len(into) > self.largest[t]:
                    self.largest[t] = len(into)
