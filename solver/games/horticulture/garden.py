"""Garden geometry of a Horticulture sheet: squares, a path drawn on the grid lines, plan and gnome."""
from __future__ import annotations

from dataclasses import dataclass, field

from .data import SheetSide

Cell = tuple[int, int]  # (column, row), 0-based, row 0 at the top next to the start numbers
Corner = tuple[int, int]  # grid-line crossing (x, y): x in 0..columns, y in 0..rows

MOVES = {"D": (0, 1), "L": (-1, 0), "R": (1, 0), "U": (0, -1)}


def square(cell) -> str:
    """A square as messages name it: column and row spelled out, so that neither the engine's [column, row] nor the
    service's {row, col} reads it the wrong way round."""
    return f"square (column {cell[0]}, row {cell[1]})"


@dataclass(frozen=True)
class PathDrawing:
    """A path as the gardener draws it: printed start number, then one letter per square (D/L/R)."""

    start: int
    moves: str

    @staticmethod
    def straight(sheet: SheetSide, start: int = 3) -> "PathDrawing":
        """The rulebook's solo fallback: straight down from position 3."""
        return PathDrawing(start, "D" * sheet.rows)


@dataclass(frozen=True)
class Plan:
    border: str
    path: str
    companions: tuple[str, str]  # (first box: scores, second box: its companion)


def path_corners(sheet: SheetSide, drawing: PathDrawing) -> list[Corner]:
    """Corners visited by the drawing, without any legality check (see rules.check_path)."""
    x = sheet.start_positions.get(drawing.start, 0)
    corners = [(x, 0)]
    for move in drawing.moves:
        dx, dy = MOVES[move]
        x, y = corners[-1]
        corners.append((x + dx, y + dy))
    return corners


_ADJACENCY: dict[tuple, tuple[dict, dict]] = {}  # (columns, rows, path segments) -> (touching, linked)


@dataclass
class Garden:
    """Adjacency facts of one sheet side with one (legal) path drawn on it."""

    sheet: SheetSide
    drawing: PathDrawing
    corners: list[Corner] = field(init=False)
    segments: frozenset = field(init=False)

    def __post_init__(self) -> None:
        self.corners = path_corners(self.sheet, self.drawing)
        self.segments = frozenset(frozenset(p) for p in zip(self.corners, self.corners[1:]))
        self.cells = self.sheet.cells()
        self.index = {cell: i for i, cell in enumerate(self.cells)}
        # asked for tens of thousands of times by the scorer and the greedy player (which make a
        # Garden per score): computed once per sheet side and path
        key = (self.sheet.columns, self.sheet.rows, self.segments)
        if key not in _ADJACENCY:
            touching = {cell: self._touching_of(cell) for cell in self.cells}
            linked = {cell: tuple(n for n in touching[cell] if not self.separated(cell, n)) for cell in self.cells}
            if len(_ADJACENCY) >= 256:
                _ADJACENCY.clear()
            _ADJACENCY[key] = (touching, linked)
        self._touching, self._linked = _ADJACENCY[key]

    def inside(self, cell: Cell) -> bool:
        c, r = cell
        return 0 <= c < self.sheet.columns and 0 <= r < self.sheet.rows

    def touching(self, cell: Cell) -> tuple[Cell, ...]:
        """Orthogonal neighbours, path or not: what the planting rule looks at."""
        known = self._touching.get(cell)
        return known if known is not None else self._touching_of(cell)

    def _touching_of(self, cell: Cell) -> tuple[Cell, ...]:
        c, r = cell
        around = ((c, r - 1), (c - 1, r), (c + 1, r), (c, r + 1))
        return tuple(n for n in around if self.inside(n))

    def separated(self, a: Cell, b: Cell) -> bool:
        """True when the path runs along the shared side of neighbouring squares a and b."""
        (ca, ra), (cb, rb) = sorted([a, b])
        if ra == rb:  # b is right of a: shared vertical line x = ca + 1
            side = frozenset({(ca + 1, ra), (ca + 1, ra + 1)})
        else:  # b is below a: shared horizontal line y = ra + 1
            side = frozenset({(ca, ra + 1), (ca + 1, ra + 1)})
        return side in self.segments

    def linked(self, cell: Cell) -> tuple[Cell, ...]:
        """Neighbours that count as adjacent for groups, gnome and companions (not across the path)."""
        known = self._linked.get(cell)
        return known if known is not None else tuple(n for n in self.touching(cell) if not self.separated(cell, n))

    def next_to_path(self, cell: Cell) -> bool:
        c, r = cell
        sides = (
            frozenset({(c, r), (c, r + 1)}), frozenset({(c + 1, r), (c + 1, r + 1)}),
            frozenset({(c, r), (c + 1, r)}), frozenset({(c, r + 1), (c + 1, r + 1)}),
        )
        return any(s in self.segments for s in sides)

    def on_border(self, cell: Cell) -> bool:
        c, r = cell
        return c in (0, self.sheet.columns - 1) or r in (0, self.sheet.rows - 1)

    def edges(self) -> list[tuple[Cell, Cell]]:
        """Linked pairs of squares, each once."""
        out = []
        for cell in self.cells:
            c, r = cell
            for n in ((c + 1, r), (c, r + 1)):
                if self.inside(n) and not self.separated(cell, n):
                    out.append((cell, n))
        return out
