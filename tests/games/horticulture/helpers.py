"""Shared fixtures for the Horticulture tests: Samantha's sheet, a tiny sheet catalog, an exhaustive oracle."""
from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

from solver.games.horticulture.data import DATA_DIR, Catalog, load_catalog
from solver.games.horticulture.rules import _draw, planting_refusal
from solver.games.horticulture.scoring import score_sheet
from solver.games.horticulture.garden import Garden
from solver.games.horticulture.state import WINDOW, Planting, Setup, Sheet

S, B, U, C, T, F = "sweet_potato", "berry", "turnip", "carrot", "topiary", "flower"

# Samantha's sheet, built so that every example sentence of the rulebook holds (side A, 6 x 7,
# straight path on grid line 3, gnome at [3, 5]). Columns left of the path: 0-2, right: 3-5.
SAMANTHA_GARDEN = {
    S: [(0, 0), (1, 0), (2, 0), (0, 1), (4, 4), (4, 5), (5, 5), (4, 6)],
    B: [(3, 0), (4, 0), (5, 0), (3, 1), (4, 1), (5, 1)],
    U: [(3, 3), (3, 4), (0, 3), (1, 3), (2, 3)],
    C: [(0, 5), (1, 5), (1, 4)],
    T: [(0, 4), (2, 5), (5, 2)],
    F: [(1, 1), (2, 1), (1, 2), (2, 2), (5, 6)],
}


def samantha_request() -> dict:
    return {
        "side": "A",
        "path": {"start": 3, "moves": "DDDDDDD"},
        "gnome": [3, 5],
        "plan": {"border": S, "path": U, "companions": [T, C]},
        "garden": [{"plant": p, "at": list(c)} for p, cells in SAMANTHA_GARDEN.items() for c in cells],
        "window_box": [C, B],
    }


def tiny_catalog(tmp: Path, columns: int = 3, rows: int = 2) -> Catalog:
    """The reference plants, deck and scoring with one small sheet side "T"."""
    for name in ("plants.json", "deck.json", "scoring.json"):
        shutil.copy(DATA_DIR / name, tmp / name)
    starts = {str(x): x for x in range(1, columns)}
    (tmp / "sheets.json").write_text(json.dumps({
        "_reference": "test sheet",
        "sheets": {"T": {"columns": columns, "rows": rows, "start_positions": starts, "window_box_slots": 6}},
    }))
    return load_catalog(tmp)


_ORACLE: dict = {}  # (catalog content, setup, nursery) -> the oracle's answer, for this test process
SHARED: Path | None = None  # under pytest-xdist, a directory the run's workers share (set by conftest.py)


def oracle(catalog: Catalog, setup: Setup, nursery: list[int]) -> int:
    """Best final score by trying every legal game through the pure rules (tiny sheets only).

    The answer is remembered for the rest of the test process under the catalog's content (its sheet side,
    plants, deck and scoring), the setup and the nursery: several tests ask about the same tiny instance
    (measured: 72 calls, 52 distinct, 90 of 227 s spent on repeats).

    Within one call (the same answers on every instance the suite asks): the sheets a day can reach are found day by
    day, each distinct sheet (its plants on the squares, its window box) kept once, and the pure scorer scores each
    distinct finished sheet once; the answer is the best of them (7 Dec: the same answers as the depth-first search
    before it on the suite's 63 instances and 120 random ones, in 70-74 % of its time)."""
    key = (repr(catalog.sheet(setup.side)), repr(catalog.plants), repr(catalog.deck), repr(catalog.scoring),
           repr(setup), tuple(nursery))
    if key not in _ORACLE:
        _ORACLE[key] = _shared(key, lambda: _oracle(catalog, setup, nursery))
    return _ORACLE[key]


def _shared(key: tuple, compute) -> int:
    """`compute()`, or the answer another worker of the same run wrote for `key` (under pytest-xdist the suite's
    workers ask about many of the same instances, each test file in whichever worker it lands on). A file per key,
    written whole (renamed into place); two workers asking at once may both compute it. The directory lives for
    one run only (pytest's base temporary directory), so an answer is never read by another version of the code."""
    if SHARED is None:
        return compute()
    path = SHARED / hashlib.sha256(repr(key).encode()).hexdigest()
    try:
        return int(path.read_text())
    except FileNotFoundError:
        pass
    value = compute()
    part = path.with_suffix(f".{os.getpid()}")
    part.write_text(str(value))
    os.replace(part, path)
    return value


class _OracleGarden(Garden):
    """The pure Garden of one side and path, its answers for the sheet's squares (next to the path, on the border)
    asked once: the oracle asks them about the same few squares millions of times."""

    def __post_init__(self) -> None:
        super().__post_init__()
        self._near = {c: Garden.next_to_path(self, c) for c in self.cells}
        self._edge = {c: Garden.on_border(self, c) for c in self.cells}

    def next_to_path(self, cell) -> bool:
        got = self._near.get(cell)
        return got if got is not None else Garden.next_to_path(self, cell)

    def on_border(self, cell) -> bool:
        got = self._edge.get(cell)
        return got if got is not None else Garden.on_border(self, cell)


def _oracle(catalog: Catalog, setup: Setup, nursery: list[int]) -> int:
    garden = _OracleGarden(catalog.sheet(setup.side), setup.drawing)
    slots = catalog.sheet(setup.side).window_box_slots
    places = garden.cells + [WINDOW]
    plantings = {(p, x): Planting(p, x) for p in catalog.plants for x in places}

    def options(plant: str) -> list[str]:
        return list(catalog.plants) if plant == catalog.wild else [plant]

    # the distinct sheets reached after each day: (plants on squares, sorted window box) -> the sheet
    reached = {(frozenset(), ()): Sheet(setup)}
    for day in range((len(nursery) + 1) // 2):
        # every (first, second) plant order either card of the day allows, each once (a card of two equal
        # plants, or two cards bringing the same plants, would otherwise repeat the same sheets)
        orders = set()
        for cid in nursery[2 * day: 2 * day + 2]:
            a, b = catalog.card(cid).plants
            for pa in options(a):
                for pb in options(b):
                    orders.update(((pa, pb), (pb, pa)))
        seconds: dict = {}
        for first, second in sorted(orders):
            seconds.setdefault(first, []).append(second)
        after: dict = {}  # key -> (the sheet after the first planting, the second planting)
        for sheet in reached.values():
            for first, then in seconds.items():
                for x in places:
                    one = plantings[first, x]
                    if planting_refusal(garden, sheet, one, slots):
                        continue
                    s1 = Sheet(setup, dict(sheet.garden), list(sheet.window_box))
                    _draw(s1, one)
                    squares, box = frozenset(s1.garden.items()), tuple(sorted(s1.window_box))
                    for second in then:
                        for y in places:
                            two = plantings[second, y]
                            if planting_refusal(garden, s1, two, slots):
                                continue
                            key = (squares, tuple(sorted(box + (second,)))) if y == WINDOW else \
                                (squares | {(y, second)}, box)
                            if key not in after:
                                after[key] = (s1, two)
        reached = {}
        for key, (s1, two) in after.items():
            s2 = Sheet(setup, dict(s1.garden), list(s1.window_box))
            _draw(s2, two)
            reached[key] = s2
    return max((score_sheet(catalog, sheet, garden).total for sheet in reached.values()), default=-1)


def random_instance(catalog: Catalog, rng):
    """A 3-day nursery of 6 cards with a random plan, path and gnome on a 4x2 sheet (the oracle's
    size): (nursery, days, plan, drawing, gnome), drawn from `rng` (a random.Random)."""
    from solver.games.horticulture.garden import PathDrawing, Plan
    from solver.games.horticulture.model import DaySpec

    nursery = rng.sample(sorted(catalog.deck.cards), 6)
    kinds = [S, U, C, T]
    plan = Plan(rng.choice(kinds), rng.choice(kinds), (rng.choice(kinds), rng.choice(kinds)))
    drawing = PathDrawing(*rng.choice([(1, "DD"), (2, "DD"), (2, "DRD")]))
    gnome = (rng.randrange(4), rng.randrange(2))
    days = [DaySpec((nursery[i], nursery[i + 1])) for i in range(0, 6, 2)]
    return nursery, days, plan, drawing, gnome


def tiny_sheet_fixture(name: str, columns: int, rows: int = 2):
    """A module-scoped pytest fixture called `name`: tiny_catalog on a columns x rows sheet in its own directory.
    Assign it to a module-level name equal to `name` in the test file (pytest finds fixtures there)."""
    import pytest

    @pytest.fixture(scope="module", name=name)
    def sheet(tmp_path_factory):
        return tiny_catalog(tmp_path_factory.mktemp(f"{name}_{columns}x{rows}"), columns, rows)

    return sheet


def record_class_models(monkeypatch) -> list:
    """Replace optimiser.ClassCountModel by a recorder of the real class (classcount's): the returned list gets
    every model the optimiser builds, for the rest of the test."""
    from solver.games.horticulture import optimiser
    from solver.games.horticulture.classcount import ClassCountModel

    built: list = []

    def build(*args, **kwargs):
        built.append(ClassCountModel(*args, **kwargs))
        return built[-1]

    monkeypatch.setattr(optimiser, "ClassCountModel", build)
    return built


def pairs(nursery):
    """Days of two cards each, in nursery order."""
    from solver.games.horticulture.model import DaySpec

    return [DaySpec((nursery[i], nursery[i + 1])) for i in range(0, len(nursery), 2)]


def control(work: float = 20.0):
    """Deterministic work limits, one worker, random seed 0: the same outcome however loaded the machine is
    (wall cap 300 s)."""
    from solver.core.solve import SolveControl

    return SolveControl(time_limit_s=300.0, deterministic_limit=work, num_workers=1, random_seed=0)


def fixed_game(catalog: Catalog, drawing, gnome, plan, plantings: list[Planting]):
    """A game of the given plantings on sheet side "T": one day per two plantings, each day's only card one whose
    plants match (the reference deck has every pair twice). Returns (day specs, pure score); the game must be
    legal (replayed by the pure rules)."""
    from solver.games.horticulture.model import DaySpec
    from solver.games.horticulture.rules import replay
    from solver.games.horticulture.state import Day

    days, specs = [], []
    for a, b in zip(plantings[::2], plantings[1::2]):
        cid = next(c for c in sorted(catalog.deck.cards) if sorted(catalog.card(c).plants) == sorted((a.plant, b.plant))
                   and all(d.chosen != c for d in days))  # each card comes up once a game
        if catalog.card(cid).plants != (a.plant, b.plant):
            a, b = b, a
        days.append(Day(cid, (a, b)))
        specs.append(DaySpec((cid,), (a, b)))
    sheet, violations = replay(catalog, Setup("T", drawing, gnome, plan), days)
    assert violations == []
    return specs, score_sheet(catalog, sheet).total


def force_count_first(monkeypatch) -> None:
    """The optimiser's count-first steps, with the cut step, on a tiny sheet (normally only from 12 days and a
    20-unit budget on)."""
    from solver.games.horticulture import optimiser

    monkeypatch.setattr(optimiser, "COUNT_FIRST_MIN_DAYS", 1)
    monkeypatch.setattr(optimiser, "COUNT_CUT_SHARE", 0.2)
    monkeypatch.setattr(optimiser, "COUNT_CUT_MIN", 0.0)


def two_day_instance(catalog: Catalog, seed: int):
    """Four cards, a random plan and gnome on the 4x2 sheet, path from line 2: (nursery, plan, drawing, gnome)."""
    import random

    from solver.games.horticulture.garden import PathDrawing, Plan

    rng = random.Random(seed)
    nursery = rng.sample(sorted(catalog.deck.cards), 4)
    kinds = [S, U, C, T]
    plan = Plan(rng.choice(kinds), rng.choice(kinds), (rng.choice(kinds), rng.choice(kinds)))
    return nursery, plan, PathDrawing(2, "DD"), (rng.randrange(4), rng.randrange(2))


def proven_optimum(model) -> float:
    """The proven optimum of a model object with `.m` (one worker, deterministic limit: the same outcome on any
    machine; linearization 2 and probing off, as the optimiser's relaxed searches)."""
    from ortools.sat.python import cp_model

    solver = cp_model.CpSolver()
    solver.parameters.num_workers, solver.parameters.max_deterministic_time = 1, 60.0
    solver.parameters.linearization_level, solver.parameters.cp_model_probing_level = 2, 0
    status = solver.solve(model.m)
    assert status == cp_model.OPTIMAL
    return solver.objective_value
