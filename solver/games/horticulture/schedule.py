"""Greedy players (towards a target garden, or by outlook): legal starting games for the optimiser."""
from __future__ import annotations

import time
from collections import deque

from .data import Catalog
from .garden import Cell, Garden, Plan
from .rules import _draw, planting_refusal
from .scoring import groups_of, score_sheet
from .state import WINDOW, Day, Planting, Setup, Sheet


def _distance_from_path(garden: Garden, gnome: Cell) -> dict[Cell, int]:
    """Squares' distance (in squares) from one where planting is always allowed."""
    start = [c for c in garden.cells if c != gnome and
             (garden.next_to_path(c) or gnome in garden.touching(c))]
    dist = {c: 0 for c in start}
    queue = deque(start)
    while queue:
        cur = queue.popleft()
        for n in garden.touching(cur):
            if n != gnome and n not in dist:
                dist[n] = dist[cur] + 1
                queue.append(n)
    return dist


def plant_towards(catalog: Catalog, setup: Setup, chosen: list[int], target: dict[Cell, str],
                  box: list[str], played: dict[int, object] | None = None) -> list[Day]:
    """Plant the chosen cards in order, each plant on a free target square of its kind when the
    rules allow, else in the window box when the target wants it there, else on the nearest legal
    square the target leaves empty (or any legal square). Always returns a legal game."""
    sheet_side = catalog.sheet(setup.side)
    garden = Garden(sheet_side, setup.drawing)
    slots = sheet_side.window_box_slots
    dist = _distance_from_path(garden, setup.gnome)
    sheet = Sheet(setup)
    days = []

    def legal(p: Planting) -> bool:
        return planting_refusal(garden, sheet, p, slots) is None

    def place(plant: str) -> Planting:
        wanted = sorted((c for c, t in target.items() if t == plant and c not in sheet.garden),
                        key=lambda c: (dist.get(c, 99), c))
        for c in wanted:
            if legal(Planting(plant, c)):
                return Planting(plant, c)
        if plant in box and legal(Planting(plant, WINDOW)):
            return Planting(plant, WINDOW)
        spare = sorted((c for c in garden.cells if c not in target and c != setup.gnome),
                       key=lambda c: (-dist.get(c, 0), c))
        for c in spare + sorted(garden.cells, key=lambda c: (-dist.get(c, 0), c)):
            if legal(Planting(plant, c)):
                return Planting(plant, c)
        if legal(Planting(plant, WINDOW)):
            return Planting(plant, WINDOW)
        raise ValueError(f"no legal square left for {plant}")

    def choose_wild() -> str:
        needs = [(dist.get(c, 99), c, t) for c, t in target.items() if c not in sheet.garden and legal(Planting(t, c))]
        if needs:
            return min(needs)[2]
        left = [t for t in box if t not in sheet.window_box]
        return left[0] if left else next(iter(catalog.plants))

    for d, cid in enumerate(chosen):
        if played and d in played:
            for p in played[d].fixed:
                _draw(sheet, p)
            days.append(Day(cid, tuple(played[d].fixed)))
            continue
        plants = []
        for plant in catalog.card(cid).plants:
            kind = choose_wild() if plant == catalog.wild else plant
            p = place(kind)
            _draw(sheet, p)
            plants.append(p)
        days.append(Day(cid, tuple(plants)))
    return days


def _outlook(catalog: Catalog, garden: Garden, sheet: Sheet) -> float:
    """Score now plus partial credit for groups still growing: the greedy player's yardstick."""
    found = groups_of(garden, sheet.garden)
    value = float(score_sheet(catalog, sheet, garden, found).total)
    for plant, cells in found:
        minimum = catalog.plants[plant].minimum_group_size
        if len(cells) < minimum:
            value += 0.6 * len(cells)  # most of a point per plant while a group is on its way
    return value


def play_greedy(catalog: Catalog, setup: Setup, options: list[tuple[int, ...]],
                played: dict[int, object] | None = None, until: float | None = None) -> list[Day]:
    """A whole legal game, day by day: each plant goes where the outlook improves most, and the
    card (and wild choice) with the best outlook is brought home. Deterministic.

    `until` (a time.perf_counter() instant; a short wall-clock budget's): the days that start after it are played by
    a quick rule instead (each plant where it joins most linked plants of its kind, the window box worth half of
    one; no scoring), so the game is whole and legal soon after (16 days on 32 cards: 11 ms against the outlook's
    80 ms, at about half its points). None: every day by the outlook."""
    sheet_side = catalog.sheet(setup.side)
    garden = Garden(sheet_side, setup.drawing)
    slots = sheet_side.window_box_slots
    sheet = Sheet(setup)
    places = garden.cells + [WINDOW]
    days = []
    quick = False

    def best_spot(trial: Sheet, plant: str) -> tuple[float, Planting] | None:
        top = None
        for at in places:
            p = Planting(plant, at)
            if planting_refusal(garden, trial, p, slots):
                continue
            if quick:
                v = 0.5 if at == WINDOW else float(sum(trial.garden.get(n) == plant for n in garden.linked(at)))
            else:
                after = Sheet(setup, dict(trial.garden), list(trial.window_box))
                _draw(after, p)
                v = _outlook(catalog, garden, after)
            if top is None or v > top[0]:
                top = (v, p)
        return top

    for d, cards in enumerate(options):
        if played and d in played:
            for p in played[d].fixed:
                _draw(sheet, p)
            days.append(Day(cards[0], tuple(played[d].fixed)))
            continue
        quick = quick or (until is not None and time.perf_counter() > until)
        best = None
        for cid in cards:
            a, b = catalog.card(cid).plants
            kinds_a = list(catalog.plants) if a == catalog.wild else [a]
            kinds_b = list(catalog.plants) if b == catalog.wild else [b]
            for ka in kinds_a:
                for kb in kinds_b:
                    trial = Sheet(setup, dict(sheet.garden), list(sheet.window_box))
                    first = best_spot(trial, ka)
                    if first is None:
                        continue
                    _draw(trial, first[1])
                    second = best_spot(trial, kb)
                    if second is None:
                        continue
                    value = first[0] + second[0] if quick else second[0]
                    if best is None or value > best[0]:
                        best = (value, cid, (first[1], second[1]))
        if best is None:
            raise ValueError(f"day {d}: no legal planting for any card")
        _, cid, plants = best
        for p in plants:
            _draw(sheet, p)
        days.append(Day(cid, plants))
    return days


def fit_plan_and_gnome(catalog: Catalog, setup: Setup, days: list[Day], fit_plan: bool,
                       fit_gnome: bool) -> tuple[Cell, Plan]:
    """For a played garden, the plan (and an empty gnome square) that would have scored best.

    Used to give the greedy player a sensible plan when the plan itself is being optimised.
    """
    from .garden import Plan

    garden = Garden(catalog.sheet(setup.side), setup.drawing)
    sheet = Sheet(setup)
    for day in days:
        for p in day.plants:
            _draw(sheet, p)
    planted = sheet.garden
    plan = setup.plan
    if fit_plan:
        kinds = list(catalog.plants)
        border = max(kinds, key=lambda k: sum(1 for c, p in planted.items() if p == k and garden.on_border(c)))
        path = max(kinds, key=lambda k: sum(1 for c, p in planted.items() if p == k and garden.next_to_path(c)))
        first, second = max(((a, b) for a in kinds for b in kinds), key=lambda ab: sum(
            1 for c, p in planted.items() if p == ab[0] and any(planted.get(n) == ab[1] for n in garden.linked(c))))
        plan = Plan(border, path, (first, second))
    gnome = setup.gnome
    if fit_gnome:
        empty = [c for c in garden.cells if c not in planted]
        if empty:
            gnome = max(empty, key=lambda g: (score_sheet(catalog, Sheet(Setup(setup.side, setup.drawing, g, plan),
                                                                          planted, sheet.window_box)).total, g))
    return gnome, plan
