"""Panorama: every bench must face a tile with the element, anywhere straight ahead of it.

Rulebook: "if someone were sitting on the bench, they would see the element if looking straight
ahead. Several benches can be in the same line, looking at the same element."
Decision: nothing blocks the view (other elements and benches in between do not hide the target,
which is what lets several benches in one line see one element); the bench's own tile is not ahead
of it. A bench that looks straight off the garden sees nothing.
"""
from __future__ import annotations

from dataclasses import dataclass

from solver.core.grid import ray
from solver.games.gardeners.cards.verdict import check_keys, universal
from solver.games.gardeners.selectors import Selector, parse_selector


@dataclass(frozen=True)
class Spec:
    target: Selector


def parse(params: dict, field: str) -> Spec:
    check_keys(params, {"target"}, field)
    return Spec(parse_selector(params.get("target"), f"{field}.target"))


def describe(spec: Spec) -> str:
    # the rulebook's words: "Each bench must face a fuchsia tree." / "... face another bench."
    return f"Each bench must face {spec.target.describe_one(other='bench')} (straight ahead, at any distance)."


def check(garden, spec: Spec):
    violations, at_risk = [], []
    for cell, p in sorted(garden.cells.items()):
        for facing in p.tile.bench_facings(p.rotation):
            ahead = [garden.get(n) for n in ray(cell, facing, garden.size)]
            if any(q is not None and spec.target.matches(q.tile) for q in ahead):
                continue
            (at_risk if any(q is None for q in ahead) else violations).append(cell)
    return universal(garden, violations, at_risk, f"a bench does not face {spec.target.describe_one(other='bench')}")
