"""Agglomeration: at least X of the elements must lie in one orthogonally contiguous group of tiles.

The rulebook counts "a certain number X of elements of the same type (or of two types)": a tile with two of
them (a green and an orange flower, a tree and a flower) counts twice (`Selector.count`); a Grass or Soil tile
is one element."""
from __future__ import annotations

from dataclasses import dataclass

from solver.core.grid import components
from solver.games.gardeners.cards.verdict import check_keys, existential, int_param, matching_cells
from solver.games.gardeners.selectors import Selector, parse_selector


@dataclass(frozen=True)
class Spec:
    element: Selector
    min: int


def parse(params: dict, field: str) -> Spec:
    check_keys(params, {"element", "min"}, field)
    return Spec(parse_selector(params.get("element"), f"{field}.element"), int_param(params, "min", field, 2, 36))


def describe(spec: Spec) -> str:
    return f"{spec.min} or more {spec.element.describe()} must be orthogonally contiguous."


def check(garden, spec: Spec):
    weight = {c: spec.element.count(p.tile) for c, p in garden.cells.items()}
    groups = components(matching_cells(garden, spec.element))  # largest first, ties by the smallest cell
    best = max(groups, key=lambda g: sum(weight[c] for c in g), default=set())  # (the first of equals)
    held, n = sum(weight[c] for c in best), len(best)
    witness = best if held >= spec.min else None
    what = (f"has {n} tile{'s' if n != 1 else ''}" if held == n else f"holds {held} on {n} tile{'s' if n != 1 else ''}")
    return existential(garden, witness, list(best),
                       f"largest group of {spec.element.describe()} {what}, needs {spec.min}")
