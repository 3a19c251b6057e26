"""The verdict of one card on one garden, and the helpers every kind's checker shares."""
from __future__ import annotations

from dataclasses import dataclass, field

from solver.core.grid import Cell

SATISFIED = "satisfied"  # holds, and no way of completing the garden can change that
VIOLATED = "violated"    # fails, and no way of completing the garden can change that
OPEN = "open"            # a partial garden where the tiles still to come decide


@dataclass(frozen=True)
class Verdict:
    status: str
    cells: tuple[Cell, ...] = field(default=())  # the witness: offending cells, or the satisfying group
    reason: str = ""

    @property
    def ok(self) -> bool:
        return self.status == SATISFIED


def universal(garden, violations: list[Cell], at_risk: list[Cell], what: str) -> Verdict:
    """Verdict of an "every X must ..." card: broken for good by `violations`; while the garden is
    incomplete it stays open (a later tile may still break it), with `at_risk` as the cells to watch."""
    if violations:
        return Verdict(VIOLATED, tuple(sorted(set(violations))), what)
    if garden.complete:
        return Verdict(SATISFIED, (), "")
    return Verdict(OPEN, tuple(sorted(set(at_risk))), "" if not at_risk else what)


def existential(garden, witness, best: list[Cell], what: str) -> Verdict:
    """Verdict of a "there must be ..." card: satisfied for good once `witness` exists (adding tiles
    never removes it); otherwise violated on a complete garden, open on a partial one."""
    if witness:
        return Verdict(SATISFIED, tuple(sorted(witness)), "")
    return Verdict(VIOLATED if garden.complete else OPEN, tuple(sorted(best)), what)


def matching_cells(garden, selector) -> list[Cell]:
    return sorted(cell for cell, p in garden.cells.items() if selector.matches(p.tile))


def int_param(params: dict, name: str, field: str, lo: int, hi: int) -> int:
    from solver.errors import InputError
    v = params.get(name)
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise InputError(f"{field}.{name}", f"must be an integer from {lo} to {hi}", v)
    return v


def check_keys(params: dict, allowed: set[str], field: str) -> None:
    from solver.errors import InputError
    unknown = set(params) - allowed
    if unknown:
        raise InputError(field, f"unknown parameters {sorted(unknown)}; expected {sorted(allowed)}")
