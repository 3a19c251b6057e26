"""Agglomeration: at least X tiles with the element must form one orthogonally contiguous group."""
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
    groups = components(matching_cells(garden, spec.element))
    best = groups[0] if groups else set()
    witness = best if len(best) >= spec.min else None
    return existential(garden, witness, list(best),
                       f"largest group of {spec.element.describe()} has {len(best)} tiles, needs {spec.min}")
