"""Horticulture rules in pure Python: path building and day-by-day planting, with a reason for every refusal."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from .data import Catalog, SheetSide
from .garden import MOVES, Cell, Garden, PathDrawing, square
from .state import WINDOW, Day, Planting, Setup, Sheet


@dataclass(frozen=True)
class Violation:
    where: str  # e.g. "path.moves[3]", "days[2].plants[1]", "gnome"
    reason: str


def _step(sheet: SheetSide, visited: set, x: int, y: int, move: str) -> str | None:
    """Why `move` from corner (x, y) is refused, or None when it is allowed."""
    if y >= sheet.rows:
        return "the path has already reached the bottom of the garden"
    if move == "U":
        return "the path may never turn upward"
    dx, dy = MOVES[move]
    nx, ny = x + dx, y + dy
    if nx <= 0 or nx >= sheet.columns:
        return f"the path may not reach the {'left' if nx <= 0 else 'right'} edge of the garden"
    if (nx, ny) in visited:
        return "the path may not double back on itself"
    return None


def check_path(sheet: SheetSide, drawing: PathDrawing) -> list[Violation]:
    """All refusals for a drawn path; empty means the path is legal and complete."""
    if drawing.start not in sheet.start_positions:
        return [Violation("path.start", f"side {sheet.side} has start positions "
                                        f"{sorted(sheet.start_positions)}, not {drawing.start}")]
    x, y = sheet.start_positions[drawing.start], 0
    visited = {(x, y)}
    out: list[Violation] = []
    for i, move in enumerate(drawing.moves):
        if i == 0 and move != "D":
            out.append(Violation("path.moves[0]", "the first square of the path goes downward"))
            return out
        why = _step(sheet, visited, x, y, move)
        if why:
            out.append(Violation(f"path.moves[{i}]", why))
            return out
        dx, dy = MOVES[move]
        x, y = x + dx, y + dy
        visited.add((x, y))
    if y < sheet.rows:
        out.append(Violation("path.moves", f"the path stops {sheet.rows - y} square(s) short of the bottom"))
    return out


def valid_directions(sheet: SheetSide, drawing: PathDrawing) -> list[str]:
    """Directions the next gardener may choose (a single one is forced); [] once the path is complete.

    `drawing` must be a legal prefix (check_path's only complaint may be that it is short).
    """
    bad = [v for v in check_path(sheet, drawing) if v.where != "path.moves"]
    if bad:
        raise ValueError(f"{bad[0].where}: {bad[0].reason}")
    if not drawing.moves:
        return ["D"]
    x, y = sheet.start_positions[drawing.start], 0
    visited = {(x, y)}
    for move in drawing.moves:
        dx, dy = MOVES[move]
        x, y = x + dx, y + dy
        visited.add((x, y))
    return [m for m in "LRD" if _step(sheet, visited, x, y, m) is None]


def check_setup(catalog: Catalog, setup: Setup) -> list[Violation]:
    sheet = catalog.sheet(setup.side)
    out = check_path(sheet, setup.drawing)
    # The gnome sits in a square and the path runs on grid lines, so they never collide.
    c, r = setup.gnome
    if not (0 <= c < sheet.columns and 0 <= r < sheet.rows):
        out.append(Violation("gnome", f"{square((c, r))} is outside the garden"))
    return out


def planting_refusal(garden: Garden, sheet: Sheet, planting: Planting, window_slots: int) -> str | None:
    """Why `planting` cannot be drawn on `sheet` now, or None when it can."""
    if planting.at == WINDOW:
        if len(sheet.window_box) >= window_slots:
            return "the window box is full"
        if planting.plant in sheet.window_box:
            return f"the window box already holds {planting.plant}"
        return None
    cell = planting.at
    if not garden.inside(cell):
        return f"{square(cell)} is outside the garden"
    if cell == sheet.setup.gnome:
        return f"{square(cell)} holds the gnome"
    if cell in sheet.garden:
        return f"{square(cell)} already holds {sheet.garden[cell]}"
    if garden.next_to_path(cell):
        return None
    if any(n == sheet.setup.gnome or n in sheet.garden for n in garden.touching(cell)):
        return None
    return f"{square(cell)} is not next to the path, the gnome or another plant"


def unreachable_plants(garden: Garden, sheet: Sheet) -> list[Cell]:
    """Planted squares no order of planting could have reached: every plant is drawn next to the path,
    the gnome or an earlier plant and never removed, so in any finished or partial sheet each plant is
    joined to a square next to the path or the gnome by a chain of plants (orthogonal, across the path
    too, as the planting rule looks). The chain is also enough for some order (plant along it)."""
    planted = sheet.garden
    seen = {c for c in planted if garden.next_to_path(c) or sheet.setup.gnome in garden.touching(c)}
    todo = list(seen)
    while todo:
        for n in garden.touching(todo.pop()):
            if n in planted and n not in seen:
                seen.add(n)
                todo.append(n)
    return sorted(c for c in planted if c not in seen)


def _draw(sheet: Sheet, planting: Planting) -> None:
    if planting.at == WINDOW:
        sheet.window_box.append(planting.plant)
    else:
        sheet.garden[planting.at] = planting.plant


def card_refusal(catalog: Catalog, day: Day) -> str | None:
    """Why the day's plants do not match the card brought home, or None."""
    card = catalog.card(day.chosen)
    if day.cards is not None and day.chosen not in day.cards:
        return f"card {day.chosen} was not among the cards flipped {list(day.cards)}"
    if len(day.plants) != len(card.plants):
        return f"card {card.id} brings {len(card.plants)} plants home; both must be planted, got {len(day.plants)}"
    need = Counter(p for p in card.plants if p != catalog.wild)
    got = Counter(p.plant for p in day.plants)
    missing = need - got
    if missing:
        # what the card brings home, then what was planted (it named only the missing plant: "card 31 ['topiary',
        # 'topiary'] needs ['topiary'] planted" for a turnip and a topiary)
        return (f"card {card.id} brings home {' and '.join(card.plants)}; the day planted "
                f"{' and '.join(p.plant for p in day.plants)} (missing: {', '.join(sorted(missing.elements()))})")
    return None


def replay(catalog: Catalog, setup: Setup, days: list[Day]) -> tuple[Sheet, list[Violation]]:
    """Plant the days in order; returns the sheet reached and every refusal met on the way.

    Within a day the two plants may be drawn in either order (the second may lean on the first).
    A refused planting is skipped so later days are still checked.
    """
    violations = check_setup(catalog, setup)
    sheet_side = catalog.sheet(setup.side)
    garden = Garden(sheet_side, setup.drawing)
    sheet = Sheet(setup)
    if any(v.where.startswith("path") for v in violations):
        return sheet, violations
    flipped: dict[int, int] = {}  # card -> the day it was flipped (and chosen or discarded): each card once a game
    for d, day in enumerate(days):
        why = card_refusal(catalog, day)
        if why:
            violations.append(Violation(f"days[{d}].chosen", why))
        if day.chosen in flipped:  # (also when its plants are wrong too: that hid the repeat before 7 Dec)
            violations.append(Violation(f"days[{d}].chosen", f"card {day.chosen} was already flipped on day "
                                                             f"{flipped[day.chosen]}; each card comes up once a game"))
        for j, card in enumerate(day.cards or ()):
            if card in flipped or card in day.cards[:j]:
                when = f"on day {flipped[card]}" if card in flipped else "twice today"
                violations.append(Violation(f"days[{d}].cards[{j}]", f"card {card} was already flipped {when}"))
        for card in (*(day.cards or ()), day.chosen):
            flipped.setdefault(card, d)
        order = list(range(len(day.plants)))
        if len(order) == 2 and _refusals_in_order(garden, sheet, day, order, sheet_side) and \
                not _refusals_in_order(garden, sheet, day, order[::-1], sheet_side):
            order.reverse()
        for j in order:
            why = planting_refusal(garden, sheet, day.plants[j], sheet_side.window_box_slots)
            if why:
                violations.append(Violation(f"days[{d}].plants[{j}]", why))
            else:
                _draw(sheet, day.plants[j])
    return sheet, violations


def _refusals_in_order(garden: Garden, sheet: Sheet, day: Day, order: list[int], side: SheetSide) -> int:
    trial = Sheet(sheet.setup, dict(sheet.garden), list(sheet.window_box))
    bad = 0
    for j in order:
        if planting_refusal(garden, trial, day.plants[j], side.window_box_slots):
            bad += 1
        else:
            _draw(trial, day.plants[j])
    return bad


def check_nursery(catalog: Catalog, days: list[Day], nursery: list[int]) -> list[Violation]:
    """Solo: day d flips nursery cards 2d and 2d+1 and brings one of them home."""
    out = []
    for d, day in enumerate(days):
        flipped = nursery[2 * d: 2 * d + 2]
        if day.chosen not in flipped:
            out.append(Violation(f"days[{d}].chosen", f"card {day.chosen} is not one of the cards flipped {flipped}"))
        # a day that records its flipped cards must record the nursery's (the claims audit of 1 Dec
        # 05:00 found [1, 3] accepted on a day the nursery flips [1, 2])
        elif day.cards is not None and sorted(day.cards) != sorted(flipped):
            out.append(Violation(f"days[{d}].cards", f"the nursery flips {flipped} on this day, not {list(day.cards)}"))
    return out
