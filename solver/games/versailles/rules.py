"""Placement legality and tile distribution for Versailles, in pure Python with a reason for every refusal."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from solver.games.versailles.data import Tile

Cell = tuple[int, int]  # (x, y) of one field; x grows to the right, y downwards

ROTATIONS = (0, 1, 2, 3)  # quarter turns clockwise; the rulebook does not forbid turning a square tile


class IllegalPlacement(ValueError):
    """A tile placement that breaks the rules; the message says which rule."""


@dataclass(frozen=True)
class Placement:
    """Tile `tile` with its top-left field at (x, y) after `rotation` quarter turns clockwise."""

    tile: int
    x: int
    y: int
    rotation: int = 0

    def as_dict(self) -> dict:
        return {"tile": self.tile, "x": self.x, "y": self.y, "rotation": self.rotation}


def footprint(x: int, y: int) -> tuple[Cell, Cell, Cell, Cell]:
    """The four fields a tile anchored at (x, y) covers, in Tile.fields order."""
    return ((x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1))


def neighbours(cell: Cell) -> tuple[Cell, Cell, Cell, Cell]:
    x, y = cell
    return ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1))


def border(x: int, y: int) -> set[Cell]:
    """Fields orthogonally adjacent to a tile anchored at (x, y), outside the tile."""
    inside = set(footprint(x, y))
    return {n for c in inside for n in neighbours(c)} - inside


def placed_fields(tile: Tile, placement: Placement) -> dict[Cell, str]:
    return dict(zip(footprint(placement.x, placement.y), tile.oriented(placement.rotation)))


ANSWER_FIELDS = ("points", "reachable", "status", "bound", "optimal_on_any_board")  # hint.rank_placements


def parse_placement(raw: Any, where: str = "placement") -> Placement:
    """A Placement from {"tile", "x"?, "y"?, "rotation"?} (a missing x, y or rotation is 0, as in proto3's JSON);
    ValueError naming the bad field otherwise."""
    if isinstance(raw, Placement):
        return raw
    if not isinstance(raw, Mapping):
        raise ValueError(f"{where}: expected an object with tile, x, y and rotation, got {raw!r}")
    # a misspelt "rotaton" was read as rotation 0: other fields are refused, except those a hint's answer adds to
    # its placements (ignored, so that an answer's placement can be sent back as it is)
    unknown = sorted(str(k) for k in raw if k not in ("tile", "x", "y", "rotation") and k not in ANSWER_FIELDS)
    if unknown:
        raise ValueError(f"{where}.{unknown[0]}: unknown field; a placement has tile, x, y and rotation")
    values = {}
    for key in ("tile", "x", "y", "rotation"):
        if key not in raw:
            if key != "tile":  # (proto3's JSON leaves zeros out: a garden rendered by MessageToDict or protojson)
                values[key] = 0
                continue
            raise ValueError(f"{where}: missing field {key!r}")
        v = raw[key]
        if isinstance(v, bool) or not isinstance(v, int):
            raise ValueError(f"{where}.{key}: expected an integer, got {v!r}")
        values[key] = v
    if values["rotation"] not in ROTATIONS:
        raise ValueError(f"{where}.rotation: must be 0, 1, 2 or 3 quarter turns, got {values['rotation']}")
    for key in ("x", "y"):
        if abs(values[key]) > 10_000:
            raise ValueError(f"{where}.{key}: must lie within +-10000, got {values[key]}")
    return Placement(values["tile"], values["x"], values["y"], values["rotation"])


def refusal(fields: Mapping[Cell, str], placement: Placement) -> str | None:
    """Why `placement` may not join a garden whose fields are `fields`; None when it may."""
    if placement.rotation not in ROTATIONS:
        return f"rotation must be 0, 1, 2 or 3 quarter turns, got {placement.rotation}"
    cells = footprint(placement.x, placement.y)
    taken = [c for c in cells if c in fields]
    if taken:
        return f"tile {placement.tile} overlaps the garden at field(s) {', '.join(map(str, taken))}"
    if not fields:
        return None  # the first tile starts the garden anywhere
    if any(n in fields for n in border(placement.x, placement.y)):
        return None
    x, y = placement.x, placement.y
    corners = ((x - 1, y - 1), (x + 2, y - 1), (x - 1, y + 2), (x + 2, y + 2))
    if any(c in fields for c in corners):
        return (f"tile {placement.tile} at ({x}, {y}) touches the garden only diagonally; "
                f"it must share a field edge with it")
    return f"tile {placement.tile} at ({x}, {y}) does not touch the garden; it must share a field edge with it"


@dataclass
class Garden:
    """One player's garden: the placements in the order they were made and the resulting fields."""

    placements: list[Placement] = field(default_factory=list)
    fields: dict[Cell, str] = field(default_factory=dict)

    def place(self, tile: Tile, placement: Placement) -> None:
        if placement.tile != tile.id:
            raise IllegalPlacement(f"tile {placement.tile} does not match the tile {tile.id}")
        if any(p.tile == tile.id for p in self.placements):
            raise IllegalPlacement(f"tile {tile.id} is already in this garden")
        reason = refusal(self.fields, placement)
        if reason is not None:
            raise IllegalPlacement(reason)
        self.placements.append(placement)
        self.fields.update(placed_fields(tile, placement))

    def copy(self) -> "Garden":
        return Garden(list(self.placements), dict(self.fields))


def build_garden(tiles: Mapping[int, Tile], placements: Iterable[Placement]) -> Garden:
    """Replay placements in order; IllegalPlacement names the first one that breaks a rule."""
    garden = Garden()
    for i, p in enumerate(placements):
        if p.tile not in tiles:
            raise ValueError(f"placements[{i}].tile: unknown tile id {p.tile!r}")
        try:
            garden.place(tiles[p.tile], p)
        except IllegalPlacement as exc:
            raise IllegalPlacement(f"placements[{i}]: {exc}") from None
    return garden


def distinct_rotations(tile: Tile) -> tuple[int, ...]:
    """Rotations giving different field layouts (a tile of one type has only one)."""
    seen: dict[tuple[str, ...], int] = {}
    for r in ROTATIONS:
        seen.setdefault(tile.oriented(r), r)
    return tuple(sorted(seen.values()))


def legal_placements(fields: Mapping[Cell, str], tile: Tile) -> list[Placement]:
    """Every legal placement of `tile` next to the garden, one per distinct field layout."""
    if not fields:
        return [Placement(tile.id, 0, 0, r) for r in distinct_rotations(tile)]
    anchors: set[Cell] = set()
    for (cx, cy) in fields:
        for dx in range(-2, 2):
            for dy in range(-2, 2):
                anchors.add((cx + dx, cy + dy))
    out = []
    for (x, y) in sorted(anchors, key=lambda a: (a[1], a[0])):
        for r in distinct_rotations(tile):
            p = Placement(tile.id, x, y, r)
            if refusal(fields, p) is None:
                out.append(p)
    return out


def distribute(cards: Mapping[str, int], group: list[int]) -> list[tuple[str, int]]:
    """Who gets which tile of this round's group: ascending cards take the tiles in row order.

    The returned order is also the order in which the players place their tiles.
    """
    if len(group) != len(cards):
        raise ValueError(f"row: this round's group has {len(group)} tiles for {len(cards)} played cards")
    values = list(cards.values())
    if len(set(values)) != len(values):
        dup = sorted({v for v in values if values.count(v) > 1})
        raise ValueError(f"cards: each number card exists once; played twice this round: {dup}")
    order = sorted(cards, key=lambda seat: cards[seat])
    return [(seat, group[k]) for k, seat in enumerate(order)]
