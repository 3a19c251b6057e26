"""Square-grid geometry shared by every game: directions, rotations, neighbours, rays, symmetries."""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

Cell = tuple[int, int]

DIRECTIONS = ("N", "E", "S", "W")
DELTA = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}


def rotate_direction(direction: str, quarter_turns: int) -> str:
    """The direction after turning `quarter_turns` times 90 degrees clockwise."""
    return DIRECTIONS[(DIRECTIONS.index(direction) + quarter_turns) % 4]


def step(cell: Cell, direction: str) -> Cell:
    dr, dc = DELTA[direction]
    return (cell[0] + dr, cell[1] + dc)


def inside(cell: Cell, size: int) -> bool:
    return 0 <= cell[0] < size and 0 <= cell[1] < size


def cells(size: int) -> list[Cell]:
    return [(r, c) for r in range(size) for c in range(size)]


def neighbours(cell: Cell, size: int) -> Iterator[tuple[str, Cell]]:
    """(direction, cell) for each orthogonal neighbour inside a size x size grid."""
    for d in DIRECTIONS:
        n = step(cell, d)
        if inside(n, size):
            yield d, n


def is_border(cell: Cell, size: int) -> bool:
    r, c = cell
    return r == 0 or c == 0 or r == size - 1 or c == size - 1


def ray(cell: Cell, direction: str, size: int) -> list[Cell]:
    """The cells strictly ahead of `cell` in `direction`, nearest first, up to the grid's edge."""
    out = []
    n = step(cell, direction)
    while inside(n, size):
        out.append(n)
        n = step(n, direction)
    return out


def components(members: Iterable[Cell], linked: Callable[[Cell, Cell], bool] | None = None) -> list[set[Cell]]:
    """Orthogonally connected groups of `members` (optionally only through pairs `linked` accepts),
    largest first, ties broken by the smallest cell so the order is deterministic."""
    todo = set(members)
    groups = []
    while todo:
        start = min(todo)
        todo.discard(start)
        group = {start}
        stack = [start]
        while stack:
            cur = stack.pop()
            for d in DIRECTIONS:
                n = step(cur, d)
                if n in todo and (linked is None or linked(cur, n)):
                    todo.discard(n)
                    group.add(n)
                    stack.append(n)
        groups.append(group)
    groups.sort(key=lambda g: (-len(g), min(g)))
    return groups


def outside(filled: Iterable[Cell]) -> set[Cell]:
    """Empty cells connected (orthogonally, through empty cells) to the world beyond `filled`,
    within its bounding box widened by one: what is not filled and not an enclosed hole."""
    filled = set(filled)
    rows = [r for r, _ in filled]
    cols = [c for _, c in filled]
    r0, r1, c0, c1 = min(rows) - 1, max(rows) + 1, min(cols) - 1, max(cols) + 1
    start = (r0, c0)
    seen = {start}
    stack = [start]
    while stack:
        cur = stack.pop()
        for d in DIRECTIONS:
            n = step(cur, d)
            if r0 <= n[0] <= r1 and c0 <= n[1] <= c1 and n not in filled and n not in seen:
                seen.add(n)
                stack.append(n)
    return seen


def rotate_cell(cell: Cell, size: int, quarter_turns: int) -> Cell:
    """Where `cell` lands when the whole size x size grid turns clockwise `quarter_turns` times."""
    r, c = cell
    for _ in range(quarter_turns % 4):
        r, c = c, size - 1 - r
    return (r, c)


def transforms(height: int, width: int, mirror: bool = True) -> list[Callable[[Cell], Cell]]:
    """The rotations (and, with `mirror`, reflections) of a height x width pattern, each mapping a
    pattern cell to its image, normalised so images start at (0, 0). Duplicates are kept: callers
    that match patterns deduplicate images themselves."""
    def rot(k: int, flip: bool) -> Callable[[Cell], Cell]:
        def f(cell: Cell) -> Cell:
            r, c = cell
            if flip:
                c = width - 1 - c
            h, w = height, width
            for _ in range(k):
                r, c = c, h - 1 - r
                h, w = w, h
            return (r, c)
        return f
    flips = (False, True) if mirror else (False,)
    return [rot(k, flip) for flip in flips for k in range(4)]
