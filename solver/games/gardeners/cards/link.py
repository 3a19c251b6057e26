"""Link: a contiguous group of tiles with the element connecting two opposite sides of the garden."""
from __future__ import annotations

from dataclasses import dataclass

from solver.core.grid import components
from solver.games.gardeners.cards.verdict import check_keys, existential, matching_cells
from solver.games.gardeners.selectors import Selector, parse_selector


@dataclass(frozen=True)
class Spec:
    element: Selector


def parse(params: dict, field: str) -> Spec:
    check_keys(params, {"element"}, field)
    return Spec(parse_selector(params.get("element"), f"{field}.element"))


def describe(spec: Spec) -> str:
    return (f"A link of {spec.element.describe()} must connect two opposite sides of the garden "
            f"(an orthogonally contiguous group touching both).")


def spans(group, size: int) -> bool:
    rows = {r for r, _ in group}
    cols = {c for _, c in group}
    return (0 in rows and size - 1 in rows) or (0 in cols and size - 1 in cols)


def check(garden, spec: Spec):
    groups = components(matching_cells(garden, spec.element))
    witness = next((g for g in groups if spans(g, garden.size)), None)
    best = groups[0] if groups else set()
    return existential(garden, witness, list(best), f"no group of {spec.element.describe()} joins opposite sides")
