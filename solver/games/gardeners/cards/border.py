"""Border: all tiles with the element must lie on the garden's outer edge, or all in its interior."""
from __future__ import annotations

from dataclasses import dataclass

from solver.core.grid import is_border
from solver.errors import InputError
from solver.games.gardeners.cards.verdict import check_keys, matching_cells, universal
from solver.games.gardeners.selectors import Selector, parse_selector


@dataclass(frozen=True)
class Spec:
    element: Selector
    region: str  # "edge" or "interior"


def parse(params: dict, field: str) -> Spec:
    check_keys(params, {"element", "region"}, field)
    region = params.get("region")
    if region not in ("edge", "interior"):
        raise InputError(f"{field}.region", "must be 'edge' or 'interior'", region)
    return Spec(parse_selector(params.get("element"), f"{field}.element"), region)


def describe(spec: Spec) -> str:
    where = "on the tiles on the outer edge" if spec.region == "edge" else "on the tiles in the interior"
    return f"All {spec.element.describe()} must be {where} of the garden."


def wrong_region(cell, size: int, region: str) -> bool:
    return is_border(cell, size) != (region == "edge")


def check(garden, spec: Spec):
    violations = [c for c in matching_cells(garden, spec.element) if wrong_region(c, garden.size, spec.region)]
    return universal(garden, violations, [], f"{spec.element.describe()} not {'on the edge' if spec.region == 'edge' else 'in the interior'}")
