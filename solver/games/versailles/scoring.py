"""Pure-Python scoring for Versailles: contiguous areas, garden points, majority tokens, end of game."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Mapping, Sequence

from solver.games.versailles.data import Catalog
from solver.games.versailles.rules import Cell, Placement, build_garden, neighbours, placed_fields


def components(fields: Mapping[Cell, str], counts: Iterable[str]) -> list[set[Cell]]:
    """The orthogonally contiguous groups of fields whose code is in `counts`."""
    wanted = set(counts)
    todo = {c for c, code in fields.items() if code in wanted}
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
    counted = top_areas(areas, cat, cat.setup.intermediate_areas)
    held = majorities.held_by(player)
    points = {tok.type: tok.stage1_points for tok in cat.tokens.large}
    return StageScore(counted, sum(s for _, s in counted), held, sum(points[t] for t in held))


def small_token_winners(areas: Mapping[str, Mapping[str, int]], majorities: Majorities,
                        second_places: bool) -> dict[str, str | None]:
    """Who gets each small token at the end. A garden type's token goes to the single player with
    the largest area among all but the large token's holder (nobody if that is tied, if nobody holds
    the large token, or if `second_places` is off, as in the 2-player game). The Construction Site
    token goes to the single player with the largest Construction Site; ties award nothing."""
    cat = majorities.catalog
    winners: dict[str, str | None] = {}
    for tok in cat.tokens.small:
        kind = cat.field_types[tok.type].kind
        if kind == "construction":
            contenders = list(areas)
        else:
            holder = majorities.holders.get(tok.type)
            if not second_places or holder is None:
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
    counted = top_areas(areas, cat, cat.setup.final_areas)
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
