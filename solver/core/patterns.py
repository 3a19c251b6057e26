"""CP-SAT encodings of what a cell sees and what patterns appear: line of sight, pattern somewhere."""
from __future__ import annotations

from collections.abc import Callable, Sequence

from ortools.sat.python import cp_model

from solver.core.grid import Cell


def sees(model: cp_model.CpModel, viewer, targets_ahead: Sequence, enforce) -> None:
    """Under `enforce`, if `viewer` holds then at least one of `targets_ahead` holds: a view that
    nothing blocks (a blocking view would chain a 'still visible' literal along the ray instead)."""
    model.add_bool_or(list(targets_ahead)).only_enforce_if([enforce, viewer])


def somewhere(model: cp_model.CpModel, placements: Sequence[Sequence[tuple[Cell, object]]],
              holds: Callable[[Cell, object], object], enforce) -> list:
    """Under `enforce`, at least one placement of a pattern matches: one literal per placement,
    implying each of its (cell, requirement) pairs through `holds`. Returns the placement literals."""
    options = []
    for placement in placements:
        here = model.new_bool_var("")
        for cell, need in placement:
            model.add_implication(here, holds(cell, need))
        options.append(here)
    model.add_bool_or(options).only_enforce_if(enforce)
    return options
