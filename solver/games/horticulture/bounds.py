"""Upper bounds on a Horticulture game's score by counting alone (no search), pure Python.

`counting_bound` is valid for every game with the given setup and nursery, on any choice of
cards, wilds and squares. It is proven below; the tests hold it against the exhaustive oracle on
small sheets (never below the best game).

* Groups score at most one point per garden plant (a complete group of kind t scores min(t) and
  has at least min(t) plants); the window box scores its points per plant, plus its bonus when full.
* The gnome repeats each complete group linked to its square: at most one group per linked
  square, each worth at most the largest minimum group size, and never more than the plants.
* Each plan line scores `per` points per planted plant of its kind on its squares: at most the
  plants of that kind the cards can bring home (`most`, wilds included), capped by the squares
  that can hold them.
* **Window box and plan together**: a full window box holds `slots` different plants. When the box
  has a slot for every plant kind, a full box holds one plant of each kind, so one plant of each
  planned kind is in the box and not in the garden: every plan line loses one plant. So a game
  either gets no full-box bonus, or loses one plant on each plan line; the bound is the larger of
  the two cases (with the reference scoring, +6 bonus against 3 lines x 2 points, the same). A
  full box needs as many different kinds as it has slots: the case is out when the cards cannot
  bring that many kinds.
"""
from __future__ import annotations

from typing import Sequence

from .data import Catalog
from .garden import Cell, Garden, PathDrawing, Plan


def most_plants(catalog: Catalog, days: Sequence, kind: str) -> int:
    """The most plants of `kind` any choice of the days' cards (wilds as `kind`) brings home.
    `days` are `model.DaySpec`s: `options` (card ids) or `fixed` (plantings already made)."""
    total = 0
    for spec in days:
        if spec.fixed is not None:
            total += sum(p.plant == kind for p in spec.fixed)
        else:
            total += max(sum(x in (kind, catalog.wild) for x in catalog.card(c).plants) for c in spec.options)
    return total


def counting_bound(catalog: Catalog, side: str, drawing: PathDrawing, days: Sequence, gnome: Cell | None,
                   plan: Plan | None) -> int:
    """No game with this setup and nursery scores more (see the module's doc). With `gnome` or
    `plan` None (being optimised), the bound holds for every choice of it."""
    garden = Garden(catalog.sheet(side), drawing)
    table = catalog.scoring
    per = table.plan_points_per_plant
    minimum = max(p.minimum_group_size for p in catalog.plants.values())
    plants = 2 * len(days)
    slots = catalog.sheet(side).window_box_slots
    kinds = list(catalog.plants)
    linked = len(garden.linked(gnome)) if gnome is not None else max(len(garden.linked(c)) for c in garden.cells)
    gnome_points = min(plants, linked * minimum)
    most = {k: most_plants(catalog, days, k) for k in kinds}
    border_cells = sum(garden.on_border(c) for c in garden.cells)
    path_cells = sum(garden.next_to_path(c) for c in garden.cells)

    def plan_points(lost: int) -> int:
        """Plan points when `lost` plants of every kind are kept out of the garden."""
        def have(k: str) -> int:
            return max(0, most[k] - lost)
        border = max(min(have(k), border_cells) for k in ([plan.border] if plan else kinds))
        path = max(min(have(k), path_cells) for k in ([plan.path] if plan else kinds))
        first = max(have(k) for k in ([plan.companions[0]] if plan else kinds))
        return per * (border + path + first)

    box_points = max(1, table.window_box_points_per_plant)
    cases = [plants * box_points + plan_points(0)]   # the box is never full: no bonus
    if slots and plants >= slots and sum(most[k] > 0 for k in kinds) >= slots:
        # a full box (it needs `slots` different kinds the cards can bring): its bonus, and one
        # plant of every kind out of the garden when it has a slot for every kind (fewer slots:
        # no kind is forced into it)
        cases.append(plants * box_points + table.window_box_full_bonus
                     + plan_points(1 if slots >= len(kinds) else 0))
    return max(cases) + gnome_points
