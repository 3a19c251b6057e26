"""Geometry: an arrangement of tiles (a small pattern) must appear at least once, in any orientation.

A pattern is a grid of selectors; `null` cells may hold anything. Decision: "its orientation
doesn't matter" admits the four rotations and their mirror images.
"""
from __future__ import annotations

from dataclasses import dataclass

from solver.core.grid import transforms
from solver.errors import InputError
from solver.games.gardeners.cards.verdict import check_keys, existential
from solver.games.gardeners.selectors import Selector, parse_selector


@dataclass(frozen=True)
class Spec:
    pattern: tuple[tuple[Selector | None, ...], ...]

    def orientations(self) -> list[tuple[tuple[tuple[int, int], Selector], ...]]:
        """Each distinct orientation as ((offset, selector), ...), offsets from the top-left corner."""
        h, w = len(self.pattern), len(self.pattern[0])
        seen, out = set(), []
        for f in transforms(h, w, mirror=True):
            image = tuple(sorted((f((r, c)), s) for r, row in enumerate(self.pattern)
                                 for c, s in enumerate(row) if s is not None))
            key = tuple((off, s.text) for off, s in image)
            if key not in seen:
                seen.add(key)
                out.append(image)
        return out

    def placements(self, size: int) -> list[tuple[tuple[tuple[int, int], Selector], ...]]:
        """Every way to lay the pattern on a size x size garden: ((cell, selector), ...)."""
        out = []
        for image in self.orientations():
            hi_r = max(r for (r, _), _ in image)
            hi_c = max(c for (_, c), _ in image)
            for r0 in range(size - hi_r):
                for c0 in range(size - hi_c):
                    out.append(tuple(((r0 + r, c0 + c), s) for (r, c), s in image))
        return out


def parse(params: dict, field: str) -> Spec:
    check_keys(params, {"pattern"}, field)
    pat = params.get("pattern")
    if not isinstance(pat, list) or not pat or not all(isinstance(r, list) and r for r in pat):
        raise InputError(f"{field}.pattern", "must be a non-empty list of non-empty rows", pat)
    if len({len(r) for r in pat}) != 1 or len(pat) > 4 or len(pat[0]) > 4:
        raise InputError(f"{field}.pattern", "rows must have equal length; at most 4x4", pat)
    rows = tuple(tuple(None if s is None else parse_selector(s, f"{field}.pattern[{i}][{j}]")
                       for j, s in enumerate(row)) for i, row in enumerate(pat))
    if all(s is None for row in rows for s in row):
        raise InputError(f"{field}.pattern", "a pattern needs at least one selector", pat)
    return Spec(rows)


def describe(spec: Spec) -> str:
    h, w = len(spec.pattern), len(spec.pattern[0])
    cells = "; ".join(" ".join((s.describe(plural=False) if s else "any") for s in row) for row in spec.pattern)
    return f"This {h} x {w} arrangement must appear at least once, in any orientation: {cells}."


def check(garden, spec: Spec):
    for placement in spec.placements(garden.size):
        if all((p := garden.get(cell)) is not None and s.matches(p.tile) for cell, s in placement):
            return existential(garden, [cell for cell, _ in placement], [], "")
    return existential(garden, None, [], "the arrangement appears nowhere")
