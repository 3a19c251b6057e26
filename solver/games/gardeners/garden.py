"""A garden: tiles placed (with a rotation) on the cells of an n x n square; parsing with precise errors."""
from __future__ import annotations

from dataclasses import dataclass, field

from solver.core.grid import Cell
from solver.errors import InputError, InputErrors
from solver.games.gardeners.modes import Mode
from solver.games.gardeners.tiles import Catalog, Tile

MAX_SIZE = 6


@dataclass(frozen=True)
class Placed:
    tile: Tile
    rotation: int  # quarter turns clockwise, 0..3


@dataclass
class Garden:
    size: int
    cells: dict[Cell, Placed]
    # a floating garden's room on the table (hints.frame.room): the shifts (rows, cols) within the frame that keep
    # the whole frame within the table's edge; None: any shift that keeps the tiles in the frame
    room: tuple[range, range] | None = field(default=None, compare=False, repr=False)

    @property
    def complete(self) -> bool:
        return len(self.cells) == self.size * self.size

    def get(self, cell: Cell) -> Placed | None:
        return self.cells.get(cell)

    def to_dict(self) -> dict:
        return {"size": self.size, "placements": [
            {"tile": p.tile.id, "row": r, "col": c, "rotation": p.rotation}
            for (r, c), p in sorted(self.cells.items())]}

    def render(self, detail: bool = False) -> str:
        """The garden as a readable grid: tile id / quarter turns per cell ('.' when empty); with
        `detail`, a second line per row says what each tile shows once turned: background (g/s),
        trees T and flowers F with their colour (g/f/o), benches with the way they face, fountains W,
        and the edges the path reaches (=NESW)."""
        arrows = {"N": "^", "E": ">", "S": "v", "W": "<"}
        rows = []
        for r in range(self.size):
            ids, shows = [], []
            for c in range(self.size):
                p = self.cells.get((r, c))
                ids.append(f"{p.tile.id}/{p.rotation}" if p else "  .  ")
                if detail:
                    shows.append(_show(p, arrows) if p else "")
            rows.append(" ".join(f"{x:10s}" if detail else x for x in ids).rstrip())
            if detail:
                rows.append(" ".join(f"{x:10s}" for x in shows).rstrip())
        return "\n".join(rows)


def parse_garden(doc, catalog: Catalog, mode: Mode | None = None) -> Garden:
    """Build a Garden from {"size": n, "placements": [{"tile", "row", "col", "rotation"}]}.

    Every problem is reported at once, each naming its field: unknown or duplicate tiles, tiles
    outside the mode's sets, cells outside the garden or used twice, rotations outside 0..3.
    """
    if not isinstance(doc, dict):
        raise InputError("garden", "a garden is an object with 'size' and 'placements'", type(doc).__name__)
    unknown = [key for key in doc if key not in ("size", "placements")]
    if unknown:
        # an error, not ignored: {"garden": {...}, ...} (an answer document) would read as an empty garden
        key = "garden" if "garden" in unknown else unknown[0]
        hint = "; this looks like an answer document: pass its 'garden'" if key == "garden" else ""
        value = doc[key] if not isinstance(doc[key], (dict, list)) else type(doc[key]).__name__
        raise InputError(str(key), f"unknown field: a garden has 'size' and 'placements'{hint}", value)
    size = doc.get("size", mode.size if mode else None)
    if isinstance(size, bool) or not isinstance(size, int) or not 1 <= size <= MAX_SIZE:
        raise InputError("size", f"must be an integer from 1 to {MAX_SIZE}", size)
    if mode is not None and size != mode.size:
        raise InputError("size", f"mode {mode.name} plays on a {mode.size}x{mode.size} garden", size)
    placements = doc.get("placements", [])
    if not isinstance(placements, list):
        raise InputError("placements", "must be a list", type(placements).__name__)
    if len(placements) > size * size:
        raise InputError("placements", f"at most {size * size} placements fit a {size}x{size} garden", len(placements))
    errors: list[InputError] = []
    cells: dict[Cell, Placed] = {}
    used: dict[str, int] = {}
    for i, p in enumerate(placements):
        where = f"placements[{i}]"
        if not isinstance(p, dict):
            errors.append(InputError(where, "a placement is an object {tile, row, col, rotation}", p))
            continue
        tid = p.get("tile")
        tile = catalog.by_id.get(tid) if isinstance(tid, str) else None
        if tile is None:
            errors.append(InputError(f"{where}.tile", "unknown tile id", tid))
        elif mode is not None and tile.set not in mode.tile_sets:
            errors.append(InputError(f"{where}.tile", f"tile set {tile.set} is not played in mode {mode.name}", tid))
        elif tid in used:
            errors.append(InputError(f"{where}.tile", f"tile already placed by placements[{used[tid]}]", tid))
        row, col, rot = p.get("row"), p.get("col"), p.get("rotation", 0)
        bad = False
        for name, v, hi in (("row", row, size), ("col", col, size), ("rotation", rot, 4)):
            if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < hi:
                errors.append(InputError(f"{where}.{name}", f"must be an integer from 0 to {hi - 1}", v))
                bad = True
        if bad or tile is None or tid in used:
            continue
        if (row, col) in cells:
            errors.append(InputError(where, f"cell ({row}, {col}) is already taken by {cells[(row, col)].tile.id}"))
            continue
        used[tid] = i
        cells[(row, col)] = Placed(tile, rot)
    if errors:
        raise errors[0] if len(errors) == 1 else InputErrors(errors)
    return Garden(size, cells)


def _show(p: Placed, arrows: dict) -> str:
    bits = [p.tile.background[0]]
    for e in p.tile.elements:
        if e.kind in ("tree", "flower"):
            bits.append(e.kind[0].upper() + e.colour[0])
        elif e.kind == "fountain":
            bits.append("W")
    bits += ["B" + arrows[d] for d in p.tile.bench_facings(p.rotation)]
    edges = p.tile.path_edges(p.rotation)
    if edges:
        bits.append("=" + "".join(d for d in "NESW" if d in edges))
    return "".join(bits)
