"""Element selectors on cards ("fuchsia flower", "flowers and/or trees", "Grass tile"): parse, match, describe.

Syntax: atoms joined by "|" (or). An atom is a background (`grass`, `soil`), `path`, or an element
kind with an optional colour: `tree`, `tree:fuchsia`, `flower:orange`, `bench`, `fountain`.
A tile matches a selector when it matches any atom. Selectors read only what is on a tile, never its
rotation, so they are the same in every orientation.
"""
from __future__ import annotations

from dataclasses import dataclass

from solver.errors import InputError
from solver.games.gardeners.tiles import BACKGROUNDS, ELEMENT_COLOURS, Tile

_PLURAL = {"tree": "trees", "flower": "flowers", "bench": "benches", "fountain": "fountains"}


@dataclass(frozen=True)
class Selector:
    atoms: tuple[tuple[str, str | None], ...]  # (kind, colour) ; kind may be a background or "path"

    @property
    def text(self) -> str:
        return "|".join(k if c is None else f"{k}:{c}" for k, c in self.atoms)

    def matches(self, tile: Tile) -> bool:
        for kind, colour in self.atoms:
            if kind in BACKGROUNDS:
                if tile.background == kind:
                    return True
            elif kind == "path":
                if tile.path:
                    return True
            elif tile.has(kind, colour):
                return True
        return False

    def count(self, tile: Tile) -> int:
        """How many of the selector's elements the tile carries: each matching element (tree, flower, bench,
        fountain) once, and the tile itself once when a background or `path` atom matches it (a Grass tile is
        one element). A tile with a tree and a flower is two "flowers and/or trees" (the rulebook's
        Agglomeration counts "X elements"); 0 exactly when it does not match."""
        whole = any(tile.background == kind if kind in BACKGROUNDS else bool(tile.path)
                    for kind, _ in self.atoms if kind in BACKGROUNDS or kind == "path")
        carried = sum(1 for e in tile.elements
                      if any(e.kind == kind and (colour is None or e.colour == colour)
                             for kind, colour in self.atoms if kind not in BACKGROUNDS and kind != "path"))
        return int(whole) + carried

    def _nouns(self, plural: bool) -> list[str]:
        parts = []
        for kind, colour in self.atoms:
            if kind in BACKGROUNDS:
                parts.append(f"{kind.capitalize()} tiles" if plural else f"{kind.capitalize()} tile")
            elif kind == "path":
                parts.append("path tiles" if plural else "path tile")
            else:
                noun = _PLURAL[kind] if plural else kind
                parts.append(f"{colour} {noun}" if colour else noun)
        return parts

    def describe(self, plural: bool = True) -> str:
        return " and/or ".join(self._nouns(plural))

    def counted(self, k: int) -> str:
        """k tiles the selector matches, as words: "6 Soil tiles", "1 tile with a fountain",
        "7 tiles with green trees", "9 Soil tiles or tiles with trees"."""
        parts = []
        for (kind, colour), noun in zip(self.atoms, self._nouns(k != 1)):
            if kind in BACKGROUNDS or kind == "path":
                parts.append(noun)
            elif k == 1:
                parts.append(f"tile with {'an' if noun[0] in 'aeiou' else 'a'} {noun}")
            else:
                parts.append(f"tiles with {noun}")
        return f"{k} " + " or ".join(parts)

    def describe_one(self, other: str = "") -> str:
        """One thing the selector matches, with its article: "a fuchsia tree", "an orange flower or a
        fountain"; `other` names a kind that must be another tile's ("another bench")."""
        return " or ".join(f"another {n}" if n == other else f"{'an' if n[0] in 'aeiouAEIOU' else 'a'} {n}"
                           for n in self._nouns(False))


def parse_selector(raw, field: str) -> Selector:
    if not isinstance(raw, str) or not raw.strip():
        raise InputError(field, "a selector is a non-empty string such as 'flower:green' or 'tree|flower'", raw)
    atoms = []
    for part in raw.split("|"):
        kind, _, colour = part.strip().partition(":")
        colour = colour or None
        if kind in BACKGROUNDS or kind == "path":
            if colour:
                raise InputError(field, f"'{kind}' takes no colour", raw)
        elif kind in ELEMENT_COLOURS:
            if colour is not None and colour not in ELEMENT_COLOURS[kind]:
                raise InputError(field, f"a {kind} has no colour '{colour}'", raw)
        else:
            known = sorted(ELEMENT_COLOURS) + list(BACKGROUNDS) + ["path"]
            raise InputError(field, f"unknown element '{kind}'; one of {known}", raw)
        atoms.append((kind, colour))
    if len(set(atoms)) != len(atoms):
        raise InputError(field, "an atom is repeated", raw)
    return Selector(tuple(atoms))
