"""Proximity: every tile with the element must be orthogonally adjacent to another tile with it.

Rulebook: "an element cannot be alone, and ... must always be orthogonally adjacent to at least one
identical element." With a selector of several atoms ("flowers and/or trees") any matching tile
counts as the neighbour.
"""
from __future__ import annotations

from dataclasses import dataclass

from solver.core.grid import neighbours
from solver.games.gardeners.cards.verdict import check_keys, matching_cells, universal
from solver.games.gardeners.selectors import Selector, parse_selector


@dataclass(frozen=True)
class Spec:
    element: Selector


def parse(params: dict, field: str) -> Spec:
    check_keys(params, {"element"}, field)
    return Spec(parse_selector(params.get("element"), f"{field}.element"))


def describe(spec: Spec) -> str:
    return (f"Each tile with {spec.element.describe()} must be orthogonally adjacent to at least one other "
            f"tile with {spec.element.describe()}.")


def check(garden, spec: Spec):
    violations, at_risk = [], []
    for cell in matching_cells(garden, spec.element):
        around = [garden.get(n) for _, n in neighbours(cell, garden.size)]
        if any(p is not None and spec.element.matches(p.tile) for p in around):
            continue
        (at_risk if any(p is None for p in around) else violations).append(cell)
    return universal(garden, violations, at_risk, f"{spec.element.describe()} alone, with no identical neighbour")
