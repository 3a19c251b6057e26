"""Horticulture scoring in pure Python: groups, gnome, window box, garden plan and the solo title."""
from __future__ import annotations

from dataclasses import dataclass, field

from .data import Catalog
from .garden import Cell, Garden
from .state import Sheet


@dataclass
class GroupScore:
    plant: str
    sizes: list[int]  # every group, largest first
    complete: int  # groups that reach the minimum size
    points: int


@dataclass
class ScoreSheet:
    groups: dict[str, GroupScore]
    gnome: int
    window_box: int
    border: int
    path: int
    companions: int
    total: int
    title: str
    gnome_groups: list[tuple[str, int]] = field(default_factory=list)  # (plant, points) counted again

    def as_dict(self) -> dict:
        return {
            "groups": {p: {"sizes": g.sizes, "complete": g.complete, "points": g.points} for p, g in self.groups.items()},
            "groups_total": sum(g.points for g in self.groups.values()),
            "gnome": self.gnome, "window_box": self.window_box,
            "plan": {"border": self.border, "path": self.path, "companions": self.companions},
            "total": self.total, "title": self.title,
        }


def groups_of(garden: Garden, planted: dict[Cell, str]) -> list[tuple[str, list[Cell]]]:
    """Groups: maximal sets of same plants linked square to square, never across the path."""
    seen: set[Cell] = set()
    out = []
    for cell in garden.cells:
        if cell not in planted or cell in seen:
            continue
        plant, stack, group = planted[cell], [cell], []
        seen.add(cell)
        while stack:
            cur = stack.pop()
            group.append(cur)
            for n in garden.linked(cur):
                if n not in seen and planted.get(n) == plant:
                    seen.add(n)
                    stack.append(n)
        out.append((plant, sorted(group)))
    return out


def score_sheet(catalog: Catalog, sheet: Sheet, garden: Garden | None = None,
                groups_found: list[tuple[str, list[Cell]]] | None = None) -> ScoreSheet:
    """The sheet's score. `garden` (the sheet's side and path) and `groups_found` (`groups_of` on it) may be
    passed by a caller that has them already (the greedy player scores thousands of trial sheets)."""
    setup = sheet.setup
    garden = garden if garden is not None else Garden(catalog.sheet(setup.side), setup.drawing)
    planted = sheet.garden
    table = catalog.scoring
    per = table.plan_points_per_plant

    groups = {p: GroupScore(p, [], 0, 0) for p in catalog.plants}
    gnome_next = set(garden.linked(setup.gnome))
    gnome_points, gnome_groups = 0, []
    for plant, cells in groups_found if groups_found is not None else groups_of(garden, planted):
        g = groups[plant]
        g.sizes.append(len(cells))
        minimum = catalog.plants[plant].minimum_group_size
        if len(cells) >= minimum:
            g.complete += 1
            g.points += minimum  # a larger group still scores only its minimum
            if gnome_next.intersection(cells):
                gnome_points += minimum
                gnome_groups.append((plant, minimum))
    for g in groups.values():
        g.sizes.sort(reverse=True)

    box = len(sheet.window_box)
    window = box * table.window_box_points_per_plant
    slots = catalog.sheet(setup.side).window_box_slots
    if slots and box >= slots:
        window += table.window_box_full_bonus

    plan = setup.plan
    border = per * sum(1 for c, p in planted.items() if p == plan.border and garden.on_border(c))
    path = per * sum(1 for c, p in planted.items() if p == plan.path and garden.next_to_path(c))
    first, second = plan.companions
    companions = per * sum(
        1 for c, p in planted.items()
        if p == first and any(planted.get(n) == second for n in garden.linked(c)))

    total = sum(g.points for g in groups.values()) + gnome_points + window + border + path + companions
    return ScoreSheet(groups, gnome_points, window, border, path, companions, total, table.title(total), gnome_groups)
