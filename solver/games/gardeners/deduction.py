"""The deduction assistant: which card fronts of a kind fit the owner's verdicts, and which change splits them best.

Pure Python over the pure checker (no CP-SAT): a front is consistent with a verdict when the checker
says "satisfied" exactly when the owner was thrilled. On a complete garden that is the game's rule;
on a partial garden "open" counts as not thrilled (the owner only announces on a finished garden).
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from solver.core.grid import Cell
from solver.errors import InputError
from solver.games.gardeners.cards import KINDS, Card
from solver.games.gardeners.cards.verdict import SATISFIED
from solver.games.gardeners.garden import Garden, Placed

if TYPE_CHECKING:  # the assistant imports no CP-SAT (solver.core.solve does): the control is only handed in
    from solver.core.solve import SolveControl

THRILLED, ANGRY = "thrilled", "angry"


@dataclass(frozen=True)
class Trial:
    garden: Garden
    verdict: str   # THRILLED or ANGRY


@dataclass
class Change:
    kind: str                        # "swap" (two cells exchange their tiles) or "rotate"
    cells: tuple[Cell, ...]
    rotation: int = 0                # rotate: the new rotation
    garden: Garden | None = None     # the garden after the change
    thrilled: list[str] = field(default_factory=list)   # candidates that would be thrilled by it
    angry: list[str] = field(default_factory=list)


@dataclass
class Deduction:
    kind: str
    candidates: list[Card]
    split: Change | None = None      # None when at most one candidate is left or no change splits them
    changes_tried: int = 0
    split_complete: bool = True      # False: the call's time ran out first; `split` is the best change found so far


def consistent(card: Card, trial: Trial) -> bool:
    return (card.check(trial.garden).status == SATISFIED) == (trial.verdict == THRILLED)


def candidates(kind: str, trials: list[Trial], deck: list[Card]) -> list[Card]:
    """The fronts of `kind` in `deck` whose checker agrees with every recorded verdict."""
    if kind not in KINDS:
        raise InputError("kind", f"must be one of {sorted(KINDS)}", kind)
    for i, t in enumerate(trials):
        if t.verdict not in (THRILLED, ANGRY):
            raise InputError(f"trials[{i}].verdict", "must be 'thrilled' or 'angry'", t.verdict)
    return [c for c in deck if c.kind == kind and all(consistent(c, t) for t in trials)]


def _changes(garden: Garden):
    cells = sorted(set(garden.cells) | {(r, c) for r in range(garden.size) for c in range(garden.size)})
    for a, b in itertools.combinations(cells, 2):
        pa, pb = garden.get(a), garden.get(b)
        if pa is None and pb is None or (pa and pb and pa.tile.id == pb.tile.id):
            continue
        g = dict(garden.cells)
        g.pop(a, None)
        g.pop(b, None)
        if pb is not None:
            g[a] = pb
        if pa is not None:
            g[b] = pa
        yield "swap", (a, b), 0, Garden(garden.size, g)
    for cell, p in sorted(garden.cells.items()):
        for r in range(4):
            if r != p.rotation:
                g = dict(garden.cells)
                g[cell] = Placed(p.tile, r)
                yield "rotate", (cell,), r, Garden(garden.size, g)


# How often the scan looks at the clock (a change costs ~0.1-0.5 ms of checking), and the time it needs left to go on.
CLOCK_EVERY, LAST_STEP_S = 16, 0.01


def best_split(cands: list[Card], garden: Garden,
               control: SolveControl | None = None) -> tuple[Change | None, int, bool]:
    """The single swap or rotation of `garden` whose verdicts divide the candidates most evenly
    (smallest larger side; ties: first in a fixed order of cells), how many changes were tried, and whether
    that is the best (False when `control`'s time ran out first: the best so far). Raises Cancelled when
    `control` is cancelled. A scan over the standard deck tries up to 738 changes in ~0.3 s."""
    if len(cands) < 2:
        return None, 0, True
    best, best_key, tried = None, None, 0
    for kind, cells, rot, g in _changes(garden):
        if control is not None and tried % CLOCK_EVERY == 0:
            if control.cancelled:
                from solver.core.solve import Cancelled
                raise Cancelled()
            if control.out_of_time(LAST_STEP_S):
                return best, tried, False
        tried += 1
        happy = [c.id for c in cands if c.check(g).status == SATISFIED]
        if not happy or len(happy) == len(cands):
            continue
        key = max(len(happy), len(cands) - len(happy))
        if best_key is None or key < best_key:
            angry = [c.id for c in cands if c.id not in happy]
            best, best_key = Change(kind, cells, rot, g, happy, angry), key
            if key == (len(cands) + 1) // 2:
                break   # an even split cannot be beaten
    return best, tried, True


def deduce(kind: str, trials: list[Trial], deck: list[Card], garden: Garden | None = None,
           control: SolveControl | None = None) -> Deduction:
    """Candidates consistent with every verdict, and the change to `garden` (default: the last garden
    tried) that best splits them, within `control`'s time (the candidates are always complete)."""
    cands = candidates(kind, trials, deck)
    base = garden if garden is not None else (trials[-1].garden if trials else None)
    split, tried, complete = best_split(cands, base, control) if base is not None else (None, 0, True)
    return Deduction(kind, cands, split, tried, complete)
