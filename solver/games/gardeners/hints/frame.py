"""Floating gardens in free coordinates (Normal mode: the garden floats on the table).

With `floating` the hints accept a garden anywhere on the table (any integer coordinates within
+-MAX_COORD) as long as its tiles fit an n x n square: the garden is slid into the frame (cells
0..n-1) for the search, and every cell of the answer is slid back, so the hinted move, the cells and
the texts are in the request's coordinates (the move may lie outside 0..n-1, and the garden with it
laid is accepted again). A garden already inside the frame is not moved.
"""
from __future__ import annotations

import dataclasses
import re

from solver.errors import InputError
from solver.games.gardeners.moves import TABLE_EDGE

MAX_COORD = TABLE_EDGE  # as GameState (ListLegalMoves / ValidateMove) allows
_CELL = re.compile(r"\((-?\d+), (-?\d+)\)")


def into_frame(doc, size: int) -> tuple[object, tuple[int, int]]:
    """(the garden document slid into 0..size-1, the offset added to every cell). Documents that are
    not a well-formed list of placements are returned as they are, for parse_garden to report."""
    if not isinstance(doc, dict) or not isinstance(doc.get("placements"), list):
        return doc, (0, 0)
    placements = doc["placements"]
    coords = []
    for i, p in enumerate(placements):
        if not isinstance(p, dict):
            return doc, (0, 0)
        for name in ("row", "col"):
            v = p.get(name)
            if isinstance(v, bool) or not isinstance(v, int):
                return doc, (0, 0)
            if abs(v) > MAX_COORD:
                raise InputError(f"placements[{i}].{name}",
                                 f"must be an integer from -{MAX_COORD} to {MAX_COORD} (a floating garden)", v)
        coords.append((p["row"], p["col"]))
    if not coords or all(0 <= r < size and 0 <= c < size for r, c in coords):
        return doc, (0, 0)
    rows, cols = [r for r, _ in coords], [c for _, c in coords]
    if max(rows) - min(rows) >= size or max(cols) - min(cols) >= size:
        raise InputError("placements", f"a floating garden must fit within {size} x {size}: its tiles span "
                                       f"{max(rows) - min(rows) + 1} rows and {max(cols) - min(cols) + 1} columns")

    def slide(lo, hi):
        return -lo if lo < 0 else (size - 1 - hi if hi > size - 1 else 0)
    offset = (slide(min(rows), max(rows)), slide(min(cols), max(cols)))
    moved = [{**p, "row": p["row"] + offset[0], "col": p["col"] + offset[1]} for p in placements]
    return {**doc, "placements": moved}, offset


def room(offset: tuple[int, int], size: int) -> tuple[range, range]:
    """The shifts of a garden slid into the frame by `offset` (rows, cols) that keep the whole frame within
    +-MAX_COORD: every cell a hint may answer (frame cell f is f - shift - offset on the table) is then accepted
    again. Without it a garden at the edge was hinted a move at 65, which the next request refused (the client
    walkthrough of 7 Dec). A garden on the table always has room: the table is wider than the frame."""
    return tuple(range(size - 1 - MAX_COORD - o, MAX_COORD - o + 1) for o in offset)


def _cell(c, offset):
    return None if c is None else (c[0] - offset[0], c[1] - offset[1])


def _text(s: str, offset) -> str:
    # the texts name cells as "(row, col)" and nothing else in that form
    return _CELL.sub(lambda m: f"({int(m.group(1)) - offset[0]}, {int(m.group(2)) - offset[1]})", s)


def _shift(shift, offset):
    return None if shift is None else (shift[0] + offset[0], shift[1] + offset[1])


def progress_back(progress, offset):
    if offset == (0, 0):
        return progress
    cards = [dataclasses.replace(p, cells=tuple(_cell(c, offset) for c in p.cells), reason=_text(p.reason, offset))
             for p in progress.cards]
    return dataclasses.replace(progress, cards=cards, shift=_shift(progress.shift, offset))


def repair_back(rep, offset):
    if offset == (0, 0):
        return rep
    return dataclasses.replace(rep, remove=[_cell(c, offset) for c in rep.remove], shift=_shift(rep.shift, offset))


def hint_back(hint, offset):
    if offset == (0, 0):
        return hint
    move = hint.move
    if move is not None:
        move = dataclasses.replace(move, cell=_cell(move.cell, offset), other=_cell(move.other, offset))
    return dataclasses.replace(hint, cells=tuple(_cell(c, offset) for c in hint.cells), move=move,
                               reason=_text(hint.reason, offset))
