"""Distance: no tile with one element may be orthogonally adjacent to a tile with another (or the same).

Rulebook: "an element cannot be orthogonally adjacent to another specific element." Two elements on
the same tile are not adjacent to each other.
"""
from __future__ import annotations

from dataclasses import dataclass

from solver.core.grid import neighbours
from solver.games.gardeners.cards.verdict import check_keys, matching_cells, universal
from solver.games.gardeners.selectors import Selector, parse_selector


@dataclass(frozen=True)
class Spec:
    element: Selector
    other: Selector


def parse(params: dict, field: str) -> Spec:
    check_keys(params, {"element", "other"}, field)
    return Spec(parse_selector(params.get("element"), f"{field}.element"),
                parse_selector(params.get("other"), f"{field}.other"))


def describe(spec: Spec) -> str:
    if spec.element == spec.other:
        return f"Two tiles with {spec.element.describe()} cannot be orthogonally adjacent."
    return (f"A tile with {spec.element.describe()} cannot be orthogonally adjacent to a tile with "
            f"{spec.other.describe()}.")


def check(garden, spec: Spec):
    violations = []
    for cell in matching_cells(garden, spec.element):
        for _, n in neighbours(cell, garden.size):
            p = garden.get(n)
            if p is not None and spec.other.matches(p.tile):
                violations += [cell, n]
    return universal(garden, violations, [], f"{spec.element.describe()} next to {spec.other.describe()}")
