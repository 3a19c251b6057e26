"""Independent Horticulture oracle, written from the rulebook (shared/rulebooks/horticulture.txt)
and docs/horticulture.md's decisions (the path on grid lines), for the claims audit. It reads the
sheet sizes, start lines and the deck from the data files and calls nothing of the engine.

Squares are (column, row) as the engine's dicts write them; corners (x, y) are grid crossings."""
from __future__ import annotations

import json
from pathlib import Path

DATA = Path(__file__).resolve().parents[2] / "solver" / "data" / "horticulture"
MINIMUM = {"topiary": 1, "turnip": 2, "carrot": 3, "sweet_potato": 4, "flower": 5, "berry": 6}
PLANTS = list(MINIMUM)
WINDOW = "window"


def sheets() -> dict:
    raw = json.loads((DATA / "sheets.json").read_text())["sheets"]
    return {side: (s["columns"], s["rows"], {int(k): v for k, v in s["start_positions"].items()})
            for side, s in raw.items()}


def deck() -> dict[int, tuple[str, str]]:
    return {c["id"]: tuple(c["plants"]) for c in json.loads((DATA / "deck.json").read_text())["cards"]}


def path_verdict(cols: int, rows: int, starts: dict, start: int, moves: str):
    """(index of the first refused step or None, complete). Rules: the first step goes down; a step
    is D, L or R (never up); the path never reaches the left or right border line, never comes back
    to a crossing it visited, and stops once it reaches the bottom. index -1: bad start."""
    if start not in starts:
        return -1, False
    x, y = starts[start], 0
    seen = {(x, y)}
    for i, m in enumerate(moves):
        if y == rows or m not in "DLR" or (i == 0 and m != "D"):
            return i, False
        nx, ny = x + {"D": 0, "L": -1, "R": 1}[m], y + (m == "D")
        if nx in (0, cols) or (nx, ny) in seen:
            return i, False
        x, y = nx, ny
        seen.add((x, y))
    return None, y == rows


class Sheet:
    """One side with a legal path: which squares lie next to the path, and which neighbours the
    path separates."""

    def __init__(self, side: str, start: int, moves: str):
        self.cols, self.rows, starts = sheets()[side]
        x, y = starts[start], 0
        self.segments = set()
        for m in moves:
            nx, ny = x + {"D": 0, "L": -1, "R": 1}[m], y + (m == "D")
            self.segments.add(frozenset({(x, y), (nx, ny)}))
            x, y = nx, ny
        self.cells = [(c, r) for r in range(self.rows) for c in range(self.cols)]

    def sides(self, cell):
        c, r = cell
        return {"up": frozenset({(c, r), (c + 1, r)}), "down": frozenset({(c, r + 1), (c + 1, r + 1)}),
                "left": frozenset({(c, r), (c, r + 1)}), "right": frozenset({(c + 1, r), (c + 1, r + 1)})}

    def by_path(self, cell) -> bool:
        return any(s in self.segments for s in self.sides(cell).values())

    def around(self, cell):
        """(neighbour, separated by the path) for the orthogonal neighbours inside the sheet."""
        c, r = cell
        s = self.sides(cell)
        out = []
        for (dc, dr), name in (((0, -1), "up"), ((0, 1), "down"), ((-1, 0), "left"), ((1, 0), "right")):
            n = (c + dc, r + dr)
            if 0 <= n[0] < self.cols and 0 <= n[1] < self.rows:
                out.append((n, s[name] in self.segments))
        return out

    def adjacent(self, cell):
        """Neighbours that count as adjacent for groups, gnome and companions."""
        return [n for n, cut in self.around(cell) if not cut]

    def border(self, cell) -> bool:
        c, r = cell
        return c in (0, self.cols - 1) or r in (0, self.rows - 1)

    def may_plant(self, garden: dict, box: list, gnome, plant: str, at) -> bool:
        if at == WINDOW:
            return len(box) < 6 and plant not in box
        c, r = at
        if not (0 <= c < self.cols and 0 <= r < self.rows) or at == gnome or at in garden:
            return False
        return self.by_path(at) or any(n == gnome or n in garden for n, _ in self.around(at))

    def score(self, garden: dict, box: list, gnome, plan: dict) -> int:
        total = 0
        seen = set()
        for cell, plant in garden.items():
            if cell in seen:
                continue
            group, stack = {cell}, [cell]
            while stack:
                for n in self.adjacent(stack.pop()):
                    if n not in group and garden.get(n) == plant:
                        group.add(n)
                        stack.append(n)
            seen |= group
            if len(group) >= MINIMUM[plant]:
                total += MINIMUM[plant]
                if any(gnome in self.adjacent(g) for g in group):
                    total += MINIMUM[plant]  # counted a second time
        total += len(box) + (6 if len(box) == 6 else 0)
        total += 2 * sum(1 for c, p in garden.items() if p == plan["border"] and self.border(c))
        total += 2 * sum(1 for c, p in garden.items() if p == plan["path"] and self.by_path(c))
        first, second = plan["companions"]
        total += 2 * sum(1 for c, p in garden.items()
                         if p == first and any(garden.get(n) == second for n in self.adjacent(c)))
        return total

    def day_options(self, garden: dict, box: list, gnome, card: tuple[str, str]):
        """Every (plants, garden, box) one day of this card can lead to: both plants planted, in
        either order, a wild as any plant."""
        types = [PLANTS if p == "wild" else [p] for p in card]
        out = {}
        for a in types[0]:
            for b in types[1]:
                for first, second in ((a, b), (b, a)):
                    for at1 in self.cells + [WINDOW]:
                        if not self.may_plant(garden, box, gnome, first, at1):
                            continue
                        g1, b1 = dict(garden), list(box)
                        if at1 == WINDOW:
                            b1.append(first)
                        else:
                            g1[at1] = first
                        for at2 in self.cells + [WINDOW]:
                            if not self.may_plant(g1, b1, gnome, second, at2):
                                continue
                            g2, b2 = dict(g1), list(b1)
                            if at2 == WINDOW:
                                b2.append(second)
                            else:
                                g2[at2] = second
                            key = (frozenset(g2.items()), frozenset(b2))
                            out.setdefault(key, ([(first, at1), (second, at2)], g2, b2))
        return list(out.values())

    def best(self, garden: dict, box: list, gnome, plan: dict, cards_by_day: list) -> int:
        """The best final score over every legal way to play the days (each day: one of its cards)."""
        states = {(frozenset(garden.items()), frozenset(box)): (garden, box)}
        for cards in cards_by_day:
            nxt = {}
            for g, b in states.values():
                for cid in cards:
                    for _, g2, b2 in self.day_options(g, b, gnome, cid):
                        nxt.setdefault((frozenset(g2.items()), frozenset(b2)), (g2, b2))
            states = nxt
        return max(self.score(g, b, gnome, plan) for g, b in states.values())


def replay(sheet: Sheet, gnome, days: list) -> tuple[dict, list] | None:
    """The (garden, window box) a list of days ({plants: [{plant, at}]}, `at` [column, row] or
    "window") leads to, or None when some day cannot plant both its plants in either order."""
    garden, box = {}, []
    for day in days:
        plants = [(p["plant"], p["at"] if p["at"] == WINDOW else tuple(p["at"])) for p in day["plants"]]
        for order in (plants, plants[::-1]):
            g, b = dict(garden), list(box)
            for plant, at in order:
                if not sheet.may_plant(g, b, gnome, plant, at):
                    break
                if at == WINDOW:
                    b.append(plant)
                else:
                    g[at] = plant
            else:
                garden, box = g, b
                break
        else:
            return None
    return garden, box


def card_matches(card: tuple[str, str], plants: list[str]) -> bool:
    """Both plants of the card brought home, a wild as any plant."""
    need = [p for p in card if p != "wild"]
    return len(plants) == 2 and all(plants.count(p) >= need.count(p) for p in need)


def random_path(rng, side: str) -> tuple[int, str]:
    cols, rows, starts = sheets()[side]
    start = rng.choice(sorted(starts))
    moves = "D"
    while True:
        idx, complete = path_verdict(cols, rows, starts, start, moves)
        if complete:
            return start, moves
        legal = [m for m in "LRD" if path_verdict(cols, rows, starts, start, moves + m)[0] is None]
        moves += rng.choice(legal + ["D"])


def random_day(rng, sheet: Sheet, garden: dict, box: list, gnome, card: tuple[str, str]):
    """One random legal day of this card (a wild as a random plant): (plants, garden, box)."""
    while True:
        kinds = [rng.choice(PLANTS) if p == "wild" else p for p in card]
        rng.shuffle(kinds)
        g, b, plants = dict(garden), list(box), []
        for plant in kinds:
            spots = [c for c in sheet.cells + [WINDOW] if sheet.may_plant(g, b, gnome, plant, c)]
            if not spots:
                break
            at = rng.choice(spots)
            plants.append((plant, at))
            if at == WINDOW:
                b.append(plant)
            else:
                g[at] = plant
        else:
            return plants, g, b
