"""Move rules while arranging the garden: Normal mode (add from your supply, remove from the edge
without splitting, hand the tile on) and Solo mode (free placement, swap, rotate, remove)."""
from __future__ import annotations

from dataclasses import dataclass, field

from solver.core.grid import DIRECTIONS, Cell, components, outside, step
from solver.errors import InputError
from solver.games.gardeners.tiles import Catalog

TABLE_EDGE = 64  # a Normal-mode garden's cells lie within +-TABLE_EDGE (the table's edge: a move beyond it is illegal)

ADD, REMOVE, SWAP, ROTATE = "add", "remove", "swap", "rotate"


@dataclass
class Supply:
    stack: list[str]                 # the player's face-up stack, top first
    loose: list[str] = field(default_factory=list)  # tiles handed over by other players

    def playable(self) -> list[str]:
        return ([self.stack[0]] if self.stack else []) + sorted(self.loose)


@dataclass
class NormalState:
    """Normal mode: the garden floats on the table, so cells are free integer coordinates; it must
    always fit within size x size."""
    size: int
    garden: dict[Cell, tuple[str, int]]  # cell -> (tile id, rotation)
    supplies: list[Supply]


@dataclass
class SoloState:
    """Solo mode: a fixed size x size frame; tiles not in the garden lie in the pool."""
    size: int
    garden: dict[Cell, tuple[str, int]]
    pool: list[str]


@dataclass(frozen=True)
class Move:
    kind: str
    player: int = 0
    tile: str | None = None
    cell: Cell | None = None
    rotation: int = 0
    to_player: int | None = None   # Normal-mode remove: whose supply receives the tile
    other: Cell | None = None      # Solo swap: the second cell


@dataclass(frozen=True)
class MoveVerdict:
    legal: bool
    reason: str = ""


def on_table(cell: Cell) -> bool:
    """Within the table's edge: a garden with a tile there is accepted again (parse_state)."""
    return abs(cell[0]) <= TABLE_EDGE and abs(cell[1]) <= TABLE_EDGE


def _bbox_ok(cells, size: int) -> bool:
    rows = [r for r, _ in cells]
    cols = [c for _, c in cells]
    return max(rows) - min(rows) < size and max(cols) - min(cols) < size


def _named_tile(garden: dict, move: "Move") -> MoveVerdict | None:
    """A refusal when the move names a tile other than the one at its cell (no tile named: the one there)."""
    here = garden.get(move.cell)
    if move.tile and here is not None and here[0] != move.tile:
        return MoveVerdict(False, f"the tile at {move.cell} is {here[0]}, not {move.tile}")
    return None


def removable(garden_cells: set[Cell], cell: Cell) -> MoveVerdict:
    """A tile may leave only from the garden's edge (touching the outside, not an enclosed hole),
    and only if the rest of the garden stays in one piece."""
    if cell not in garden_cells:
        return MoveVerdict(False, f"no tile at {cell}")
    beyond = outside(garden_cells)
    if not any(step(cell, d) in beyond for d in DIRECTIONS):
        return MoveVerdict(False, f"the tile at {cell} is enclosed: remove the tiles toward the edge first")
    rest = garden_cells - {cell}
    if rest and len(components(rest)) > 1:
        return MoveVerdict(False, f"removing the tile at {cell} would split the garden")
    return MoveVerdict(True)


def validate_normal(state: NormalState, move: Move) -> MoveVerdict:
    if not 0 <= move.player < len(state.supplies):
        return MoveVerdict(False, f"no player {move.player}")
    cells = set(state.garden)
    if move.kind == ADD:
        supply = state.supplies[move.player]
        if move.tile not in supply.playable():
            if move.tile in supply.stack:
                return MoveVerdict(False, f"{move.tile} is not the top of player {move.player}'s stack")
            return MoveVerdict(False, f"{move.tile} is not in player {move.player}'s supply")
        if move.cell is None or move.cell in cells:
            return MoveVerdict(False, f"cell {move.cell} is not empty")
        if not 0 <= move.rotation <= 3:
            return MoveVerdict(False, f"rotation {move.rotation} is not 0..3")
        if not on_table(move.cell):
            return MoveVerdict(False, f"{move.cell} is beyond the table's edge (cells lie within "
                                      f"+-{TABLE_EDGE}, so that the garden can be sent again)")
        if cells and not any(step(move.cell, d) in cells for d in DIRECTIONS):
            return MoveVerdict(False, f"{move.cell} is not orthogonally adjacent to the garden")
        if not _bbox_ok(cells | {move.cell}, state.size):
            return MoveVerdict(False, f"the garden would exceed {state.size} x {state.size}")
        return MoveVerdict(True)
    if move.kind == REMOVE:
        if move.to_player is None or move.to_player == move.player or not 0 <= move.to_player < len(state.supplies):
            return MoveVerdict(False, "a removed tile goes to another player's supply")
        return _named_tile(state.garden, move) or removable(cells, move.cell)
    return MoveVerdict(False, f"Normal mode allows add and remove, not {move.kind} (no moving or rotating in place)")


def legal_normal(state: NormalState) -> list[Move]:
    cells = set(state.garden)
    if cells:
        targets = sorted({step(c, d) for c in cells for d in DIRECTIONS} - cells)
        targets = [t for t in targets if on_table(t) and _bbox_ok(cells | {t}, state.size)]
    else:
        targets = [(0, 0)]  # the first tile: where on the table does not matter
    moves = []
    for p, supply in enumerate(state.supplies):
        for tile in supply.playable():
            for cell in targets:
                moves += [Move(ADD, p, tile, cell, r) for r in range(4)]
    players = range(len(state.supplies))
    for cell in sorted(cells):
        if removable(cells, cell).legal:
            moves += [Move(REMOVE, p, state.garden[cell][0], cell, to_player=q)
                      for p in players for q in players if q != p]
    return moves


def validate_solo(state: SoloState, move: Move) -> MoveVerdict:
    def in_frame(c):
        return c is not None and 0 <= c[0] < state.size and 0 <= c[1] < state.size
    if move.kind == ADD:
        if move.tile not in state.pool:
            return MoveVerdict(False, f"{move.tile} is not in the pool")
        if not in_frame(move.cell) or move.cell in state.garden:
            return MoveVerdict(False, f"cell {move.cell} is not an empty cell of the garden")
        if not 0 <= move.rotation <= 3:
            return MoveVerdict(False, f"rotation {move.rotation} is not 0..3")
        return MoveVerdict(True)
    if move.kind in (REMOVE, ROTATE):
        if move.cell not in state.garden:
            return MoveVerdict(False, f"no tile at {move.cell}")
        if move.kind == ROTATE and not 0 <= move.rotation <= 3:
            return MoveVerdict(False, f"rotation {move.rotation} is not 0..3")
        if move.kind == ROTATE and state.garden[move.cell][1] == move.rotation:
            return MoveVerdict(False, f"the tile at {move.cell} already lies in rotation {move.rotation}")
        return _named_tile(state.garden, move) or MoveVerdict(True)
    if move.kind == SWAP:
        if not in_frame(move.cell) or not in_frame(move.other) or move.cell == move.other:
            return MoveVerdict(False, "a swap needs two different cells of the garden")
        if move.cell not in state.garden and move.other not in state.garden:
            return MoveVerdict(False, "a swap needs at least one tile")
        # a named tile must be one of the two swapped (hints name the one that moves); it was ignored
        there = [state.garden[c][0] for c in (move.cell, move.other) if c in state.garden]
        if move.tile and move.tile not in there:
            return MoveVerdict(False, f"the tiles at {move.cell} and {move.other} are "
                                      f"{' and '.join(there) if len(there) == 2 else there[0] + ' and none'}"
                                      f", not {move.tile}")
        return MoveVerdict(True)
    return MoveVerdict(False, f"unknown move kind {move.kind}")


def parse_state(doc, catalog: Catalog):
    """A Normal or Solo state from plain data; errors name the field."""
    if not isinstance(doc, dict):
        raise InputError("state", "must be an object")
    mode = doc.get("mode", "normal")
    size = doc.get("size", 6)
    if isinstance(size, bool) or not isinstance(size, int) or not 1 <= size <= 6:
        raise InputError("state.size", "must be an integer from 1 to 6", size)
    garden: dict[Cell, tuple[str, int]] = {}
    seen: set[str] = set()

    def tile_id(v, where):
        if not isinstance(v, str) or v not in catalog.by_id:
            raise InputError(where, "unknown tile id", v)
        if v in seen:
            raise InputError(where, "tile appears twice in the state", v)
        seen.add(v)
        return v

    def listed(v, where):
        # (a string was read letter by letter: "stack": "A02" answered "stack[0]: unknown tile id 'A'")
        if not isinstance(v, list):
            raise InputError(where, "must be a list", v)
        return v
    for i, p in enumerate(listed(doc.get("garden", []), "state.garden")):
        where = f"state.garden[{i}]"
        if not isinstance(p, dict):
            raise InputError(where, "a placement is an object {tile, row, col, rotation}", p)
        r, c, rot = p.get("row"), p.get("col"), p.get("rotation", 0)
        for name, v in (("row", r), ("col", c)):
            if isinstance(v, bool) or not isinstance(v, int) or abs(v) > TABLE_EDGE:
                raise InputError(f"{where}.{name}", f"must be an integer from -{TABLE_EDGE} to {TABLE_EDGE}", v)
        if isinstance(rot, bool) or not isinstance(rot, int) or not 0 <= rot <= 3:
            raise InputError(f"{where}.rotation", "must be an integer from 0 to 3", rot)
        if (r, c) in garden:
            raise InputError(where, f"cell ({r}, {c}) is used twice")
        garden[(r, c)] = (tile_id(p.get("tile"), f"{where}.tile"), rot)
    # the other mode's field is a contradiction, not something to ignore
    if mode == "solo" and doc.get("supplies"):
        raise InputError("state.supplies", "Solo mode has a pool, not players' supplies")
    if mode == "normal" and doc.get("pool"):
        raise InputError("state.pool", "Normal mode has the players' supplies, not a pool")
    if mode == "solo":
        for (r, c) in garden:
            if not (0 <= r < size and 0 <= c < size):
                raise InputError("state.garden", f"cell ({r}, {c}) is outside the {size}x{size} garden")
        pool = [tile_id(t, f"state.pool[{i}]") for i, t in enumerate(listed(doc.get("pool", []), "state.pool"))]
        return SoloState(size, garden, pool)
    if mode != "normal":
        raise InputError("state.mode", "must be 'normal' or 'solo'", mode)
    if garden and not _bbox_ok(set(garden), size):
        raise InputError("state.garden", f"the garden does not fit {size} x {size}")
    if garden and len(components(set(garden))) > 1:
        raise InputError("state.garden", "the garden is split into separate parts")
    supplies = []
    for i, s in enumerate(listed(doc.get("supplies", []), "state.supplies")):
        if not isinstance(s, dict):
            raise InputError(f"state.supplies[{i}]", "must be an object {stack, loose}", s)
        stack = [tile_id(t, f"state.supplies[{i}].stack[{j}]")
                 for j, t in enumerate(listed(s.get("stack", []), f"state.supplies[{i}].stack"))]
        loose = [tile_id(t, f"state.supplies[{i}].loose[{j}]")
                 for j, t in enumerate(listed(s.get("loose", []), f"state.supplies[{i}].loose"))]
        supplies.append(Supply(stack, loose))
    if not supplies:
        raise InputError("state.supplies", "Normal mode needs at least one player's supply")
    return NormalState(size, garden, supplies)


def parse_move(doc) -> Move:
    if not isinstance(doc, dict):
        raise InputError("move", "must be an object")
    kind = doc.get("kind")
    if kind not in (ADD, REMOVE, SWAP, ROTATE):
        raise InputError("move.kind", "must be add, remove, swap or rotate", kind)

    def cell(name):
        v = doc.get(name)
        if v is None:
            return None
        if not (isinstance(v, (list, tuple)) and len(v) == 2 and all(isinstance(x, int) and not isinstance(x, bool) for x in v)):
            raise InputError(f"move.{name}", "must be [row, col]", v)
        return (v[0], v[1])
    def integer(name, default):
        # (int() read 0.7 as player 0 and true as player 1, and raised TypeError on null or a list)
        v = doc.get(name, default)
        if v is None and default is None:
            return None
        if isinstance(v, bool) or not isinstance(v, int):
            raise InputError(f"move.{name}", "must be an integer", v)
        return v

    tile = doc.get("tile")
    if tile is not None and not isinstance(tile, str):
        raise InputError("move.tile", "must be a tile id", tile)
    return Move(kind, integer("player", 0), tile, cell("cell"), integer("rotation", 0), integer("to_player", None),
                cell("other"))


def check_move_fields(state, move: Move, catalog: Catalog | None = None) -> None:
    """InputError for a move that is malformed rather than illegal: a field its kind needs is missing,
    or a value is out of range (a rotation outside 0..3, a player the state does not have, an unknown
    tile). Legality (`validate_move`) is only judged on well-formed moves."""
    needs = {ADD: "the empty cell to lay the tile on", REMOVE: "the cell of the tile to take off",
             SWAP: "the first of the two cells", ROTATE: "the cell of the tile to turn"}
    if move.cell is None:
        raise InputError("move.cell", f"missing: a {move.kind} move names {needs[move.kind]}")
    if move.kind == SWAP and move.other is None:
        raise InputError("move.other", "missing: a swap names its second cell")
    if move.kind == ADD and not move.tile:
        raise InputError("move.tile", "missing: an add move names the tile to lay")
    if move.tile and catalog is not None and move.tile not in catalog.by_id:
        raise InputError("move.tile", "unknown tile id", move.tile)
    if isinstance(move.rotation, bool) or not isinstance(move.rotation, int) or not 0 <= move.rotation <= 3:
        raise InputError("move.rotation", "must be an integer from 0 to 3 (quarter turns clockwise)", move.rotation)
    for name in ("player", "to_player"):
        p = getattr(move, name)
        if p is None:
            continue
        if isinstance(p, bool) or not isinstance(p, int) or p < 0:
            raise InputError(f"move.{name}", "must be a player index >= 0", p)
        if isinstance(state, SoloState):
            if name == "player" and p != 0:
                raise InputError("move.player", "Solo mode has one player, 0", p)
        elif p >= len(state.supplies):
            k = len(state.supplies)
            raise InputError(f"move.{name}", f"player {p} does not exist: the state has {k} "
                                             f"player{'s' if k != 1 else ''} (0 to {k - 1})", p)
    if isinstance(state, NormalState) and move.kind == REMOVE and move.to_player is None:
        raise InputError("move.to_player", "missing: a removed tile goes to another player's supply")


def validate_move(state, move: Move) -> MoveVerdict:
    return validate_solo(state, move) if isinstance(state, SoloState) else validate_normal(state, move)


def legal_moves(state) -> list[Move]:
    if isinstance(state, SoloState):
        moves = []
        empty = [(r, c) for r in range(state.size) for c in range(state.size) if (r, c) not in state.garden]
        for tile in sorted(state.pool):
            for cell in empty:
                moves += [Move(ADD, tile=tile, cell=cell, rotation=r) for r in range(4)]
        for cell, (tile, rot) in sorted(state.garden.items()):
            moves.append(Move(REMOVE, tile=tile, cell=cell))
            moves += [Move(ROTATE, tile=tile, cell=cell, rotation=r) for r in range(4) if r != rot]
        all_cells = [(r, c) for r in range(state.size) for c in range(state.size)]
        for a in all_cells:
            for b in all_cells:
                if a < b and (a in state.garden or b in state.garden):
                    moves.append(Move(SWAP, cell=a, other=b))
        return moves
    return legal_normal(state)
