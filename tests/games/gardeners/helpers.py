"""Small hand-made catalogs and gardens for Gardeners tests."""
from __future__ import annotations

from solver.games.gardeners.cards import parse_card
from solver.games.gardeners.garden import Garden, Placed
from solver.games.gardeners.modes import Mode
from solver.games.gardeners.tiles import parse_catalog


def tile(id, bg="grass", elements=(), path=(), set_="A"):
    out = {"id": id, "set": set_, "background": bg, "elements": []}
    for e in elements:
        k, _, v = e.partition(":")
        if k == "bench":
            out["elements"].append({"kind": "bench", "facing": v})
        elif v:
            out["elements"].append({"kind": k, "colour": v})
        else:
            out["elements"].append({"kind": k})
    if path:
        out["path"] = list(path)
    return out


def catalog(*tiles):
    return parse_catalog({"tiles": list(tiles)})


def card(kind, deck="standard", id="X", **params):
    return parse_card({"id": id, "deck": deck, "kind": kind, "params": params})


def garden(cat, rows, size=None):
    """rows: list of strings of tile ids (with optional /rotation), '.' for an empty cell."""
    size = size or len(rows)
    cells = {}
    for r, row in enumerate(rows):
        for c, item in enumerate(row.split()):
            if item == ".":
                continue
            tid, _, rot = item.partition("/")
            cells[(r, c)] = Placed(cat.tile(tid), int(rot or 0))
    return Garden(size, cells)


def tiny_mode(size):
    return Mode(f"tiny-{size}", size, "A", "standard")
