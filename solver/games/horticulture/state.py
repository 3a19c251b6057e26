"""Horticulture game records and sheet snapshots as plain data, parsed from dicts with precise errors."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from solver.errors import Gather, InputError

from .data import Catalog, SheetSide
from .garden import Cell, PathDrawing, Plan, square

WINDOW = "window"


@dataclass(frozen=True)
class Planting:
    plant: str  # a plant id (a wild is recorded as the plant chosen for it)
    at: Cell | str  # a square, or WINDOW


@dataclass(frozen=True)
class Day:
    chosen: int  # card id brought home
    plants: tuple[Planting, ...]
    cards: tuple[int, ...] | None = None  # the two cards flipped, when known


@dataclass
class Setup:
    side: str
    drawing: PathDrawing
    gnome: Cell
    plan: Plan


@dataclass
class Sheet:
    """Final (or current) state of one gardener's sheet."""

    setup: Setup
    garden: dict[Cell, str] = field(default_factory=dict)
    window_box: list[str] = field(default_factory=list)


def _obj(value: Any, f: str) -> dict:
    if value is None:
        raise ValueError(f"{f}: missing; expected an object")
    if not isinstance(value, dict):
        raise ValueError(f"{f}: expected an object, got {type(value).__name__}")
    return value


def _intv(value: Any, f: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{f}: expected an integer, got {value!r}")
    return value


def parse_cell(value: Any, sheet: SheetSide, f: str) -> Cell:
    if value is None:  # (a gRPC Cell left unset: "got None" read as a Python leak)
        raise ValueError(f"{f}: missing; expected a square")
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        raise ValueError(f"{f}: expected [column, row], got {value!r}")
    c, r = _intv(value[0], f"{f}[0]"), _intv(value[1], f"{f}[1]")
    if not (0 <= c < sheet.columns and 0 <= r < sheet.rows):
        raise ValueError(f"{f}: {square((c, r))} is outside the {sheet.columns}x{sheet.rows} garden of side {sheet.side}")
    return (c, r)


def parse_drawing(value: Any, f: str = "path") -> PathDrawing:
    d = _obj(value, f)
    start = _intv(d.get("start"), f"{f}.start")
    moves = d.get("moves")
    if not isinstance(moves, str):
        raise ValueError(f"{f}.moves: expected a string of D/L/R letters, got {moves!r}")
    moves = moves.upper()
    bad = sorted(set(moves) - set("DLRU"))
    if bad:
        raise ValueError(f"{f}.moves: unknown direction letter(s) {bad}; use D, L or R")
    return PathDrawing(start, moves)


def parse_plan(value: Any, catalog: Catalog, f: str = "plan") -> Plan:
    d = _obj(value, f)
    gather = Gather()  # every bad plant at once
    border = gather(catalog.plant, d.get("border"), f"{f}.border")
    path = gather(catalog.plant, d.get("path"), f"{f}.path")
    comp = d.get("companions")
    if not isinstance(comp, (list, tuple)) or len(comp) != 2:
        gather.errors.append(InputError(f"{f}.companions", f"expected [first, second], got {comp!r}"))
    else:
        comp = (gather(catalog.plant, comp[0], f"{f}.companions[0]"), gather(catalog.plant, comp[1],
                                                                              f"{f}.companions[1]"))
    gather.check()
    return Plan(border, path, comp)


def parse_setup(value: Any, catalog: Catalog) -> Setup:
    """Side, path, gnome and plan; every bad one is reported at once (the gnome only when the side is known)."""
    d = _obj(value, "setup")
    gather = Gather()
    sheet = gather(catalog.sheet, d.get("side"))
    drawing = gather(parse_drawing, d.get("path"))
    gnome = gather(parse_cell, d.get("gnome"), sheet, "gnome") if sheet is not None else None
    plan = gather(parse_plan, d.get("plan"), catalog)
    gather.check()
    return Setup(sheet.side, drawing, gnome, plan)


def parse_planting(value: Any, sheet: SheetSide, catalog: Catalog, f: str) -> Planting:
    d = _obj(value, f)
    plant = catalog.plant(d.get("plant"), f"{f}.plant")
    at = d.get("at")
    if at == WINDOW:
        return Planting(plant, WINDOW)
    return Planting(plant, parse_cell(at, sheet, f"{f}.at"))


def parse_days(value: Any, sheet: SheetSide, catalog: Catalog, f: str = "days") -> list[Day]:
    """The days played; every bad field of every day is reported at once."""
    if not isinstance(value, list):
        raise ValueError(f"{f}: expected a list of days")
    # Each day flips two cards of the nursery, and each card holds two plants: longer lists are refused
    # before anything is replayed (a 60 KB record of 1,817 days answered 3,633 violations, 274 KB).
    most = catalog.deck.largest_nursery // 2
    if len(value) > most:
        raise ValueError(f"{f}: {len(value)} days; at most {most} (each day flips two cards of a nursery of at "
                         f"most {catalog.deck.largest_nursery})")
    gather = Gather()

    def cards_of(cards: Any, fd: str) -> tuple[int, ...] | None:
        if cards is None:
            return None
        if not isinstance(cards, list) or not 1 <= len(cards) <= 2:
            raise ValueError(f"{fd}.cards: expected the one or two card ids flipped, got {cards!r}")
        inner = Gather()
        ids = [inner(catalog.card, c, f"{fd}.cards[{j}]") for j, c in enumerate(cards)]
        inner.check()
        return tuple(c.id for c in ids)

    def plants_of(plants: Any, fd: str) -> tuple[Planting, ...]:
        if not isinstance(plants, list):
            raise ValueError(f"{fd}.plants: expected a list of plantings")
        if len(plants) > 2:
            raise ValueError(f"{fd}.plants: {len(plants)} plantings; a day plants the two plants of its card")
        inner = Gather()
        out = [inner(parse_planting, p, sheet, catalog, f"{fd}.plants[{j}]") for j, p in enumerate(plants)]
        inner.check()
        return tuple(out)

    days = []
    for i, raw in enumerate(value):
        fd = f"{f}[{i}]"
        d = gather(_obj, raw, fd)
        if d is None:
            continue
        chosen = gather(catalog.card, d.get("chosen"), f"{fd}.chosen")
        cards = gather(cards_of, d.get("cards"), fd)
        plants = gather(plants_of, d.get("plants"), fd)
        if chosen is not None and plants is not None:
            days.append(Day(chosen.id, plants, cards))
    gather.check()
    return days


def parse_sheet(value: Any, catalog: Catalog) -> Sheet:
    """A snapshot: setup fields plus `garden` ([{plant, at}]) and `window_box` ([plant]); every bad field at once."""
    d = _obj(value, "sheet")
    setup = parse_setup(d, catalog)
    sheet = catalog.sheet(setup.side)
    gather = Gather()
    garden: dict[Cell, str] = {}
    raw = d.get("garden", [])
    if not isinstance(raw, list):
        gather.errors.append(InputError("garden", "expected a list of {plant, at}"))
        raw = []

    def plant_at(p: Any, f: str) -> None:
        planting = parse_planting(p, sheet, catalog, f)
        if planting.at == WINDOW:
            raise ValueError(f"{f}.at: window box plants belong in window_box")
        if planting.at in garden:
            raise ValueError(f"{f}.at: {square(planting.at)} is planted twice")
        if planting.at == setup.gnome:
            raise ValueError(f"{f}.at: {square(planting.at)} holds the gnome")
        garden[planting.at] = planting.plant

    for i, p in enumerate(raw):
        gather(plant_at, p, f"garden[{i}]")
    box = d.get("window_box", [])
    window: list[str] = []
    # the window box rules (each type at most once, `window_box_slots` plants): a snapshot breaking
    # them scored them anyway (ten topiaries: 16 points)
    if not isinstance(box, list):
        gather.errors.append(InputError("window_box", "expected a list of plants"))
    elif len(box) > sheet.window_box_slots:
        gather.errors.append(InputError("window_box", f"{len(box)} plants; the window box has "
                                        f"{sheet.window_box_slots} slots"))
    else:
        for i, p in enumerate(box):
            plant = gather(catalog.plant, p, f"window_box[{i}]")
            if plant in window:
                gather.errors.append(InputError(f"window_box[{i}]", f"{plant} is already in the window box "
                                                "(each type at most once)"))
            elif plant is not None:
                window.append(plant)
    gather.check()
    return Sheet(setup, garden, window)


def cell_json(cell: Cell | str) -> list[int] | str:
    return cell if isinstance(cell, str) else [cell[0], cell[1]]


def setup_json(setup: Setup) -> dict:
    return {
        "side": setup.side,
        "path": {"start": setup.drawing.start, "moves": setup.drawing.moves},
        "gnome": cell_json(setup.gnome),
        "plan": {"border": setup.plan.border, "path": setup.plan.path, "companions": list(setup.plan.companions)},
    }


def day_json(day: Day) -> dict:
    out: dict[str, Any] = {"chosen": day.chosen,
                           "plants": [{"plant": p.plant, "at": cell_json(p.at)} for p in day.plants]}
    if day.cards is not None:
        out["cards"] = list(day.cards)
    return out
