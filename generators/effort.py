"""A SolveControl that adds up CP-SAT's deterministic effort over every search it runs (for grading)."""
from __future__ import annotations

from dataclasses import dataclass

from solver.core.solve import SolveControl


@dataclass
class MeteredControl(SolveControl):
    """One worker, fixed seed, deterministic limit (set by the caller); `effort` is the sum of
    `deterministic_time` of the searches: the same number on every machine, unlike wall time."""

    effort: float = 0.0
    searches: int = 0

    def solve(self, model, solver=None, callback=None):
        status, solver = super().solve(model, solver, callback)
        self.effort += solver.deterministic_time
        self.searches += 1
        return status, solver


def puzzle_control(deterministic_limit: float) -> MeteredControl:
    return MeteredControl(deterministic_limit=deterministic_limit, num_workers=1, random_seed=0)
