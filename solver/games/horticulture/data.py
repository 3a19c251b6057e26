"""Horticulture catalogs (sheets, plants, deck, scoring table): loading and schema validation."""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DATA_DIR = Path(__file__).resolve().parents[2] / "data" / "horticulture"


@dataclass(frozen=True)
class PlantType:
    id: str
    name: str
    minimum_group_size: int


@dataclass(frozen=True)
class SheetSide:
    """One side of the garden sheet: `columns` x `rows` squares; the path runs on grid lines."""

    side: str
    columns: int
    rows: int
    start_positions: dict[int, int]  # printed number -> vertical grid line the path starts on
    window_box_slots: int

    def cells(self) -> list[tuple[int, int]]:
        return [(c, r) for r in range(self.rows) for c in range(self.columns)]


@dataclass(frozen=True)
class Card:
    id: int
    plants: tuple[str, str]  # plant ids, or the wild id


@dataclass(frozen=True)
class Deck:
    cards: dict[int, Card]
    size_by_gardeners: dict[str, int]

    @property
    def largest_nursery(self) -> int:
        """The most cards a local nursery holds (36 for 6 gardeners in the rulebook): no game flips more."""
        return max(self.size_by_gardeners.values())

    def size_for(self, gardeners: int) -> int:
        if not isinstance(gardeners, int) or isinstance(gardeners, bool) or gardeners < 1:
            raise ValueError(f"gardeners: expected a positive integer, got {gardeners!r}")
        key = str(gardeners) if str(gardeners) in self.size_by_gardeners else "7+"
        if key == "7+" and gardeners < 7:
            raise ValueError(f"gardeners: no deck size listed for {gardeners}")
        return self.size_by_gardeners[key]


@dataclass(frozen=True)
class ScoringTable:
    window_box_points_per_plant: int
    window_box_full_bonus: int
    plan_points_per_plant: int
    solo_titles: tuple[tuple[int, str], ...]  # (minimum points, title), highest first

    def title(self, points: int) -> str:
        for minimum, title in self.solo_titles:
            if points >= minimum:
                return title
        return self.solo_titles[-1][1]


@dataclass(frozen=True)
class Catalog:
    sheets: dict[str, SheetSide]
    plants: dict[str, PlantType]  # in rulebook order
    wild: str
    deck: Deck
    scoring: ScoringTable

    def sheet(self, side: Any) -> SheetSide:
        if side not in self.sheets:
            raise ValueError(f"side: unknown sheet side {side!r}; expected one of {sorted(self.sheets)}")
        return self.sheets[side]

    def plant(self, plant: Any, field: str = "plant") -> str:
        if not isinstance(plant, str) or plant not in self.plants:
            raise ValueError(f"{field}: unknown plant {plant!r}; expected one of {list(self.plants)}")
        return plant

    def card(self, card_id: Any, field: str = "card") -> Card:
        if isinstance(card_id, bool) or not isinstance(card_id, int) or card_id not in self.deck.cards:
            raise ValueError(f"{field}: unknown card id {card_id!r}")
        return self.deck.cards[card_id]


def _read(path: Path | str) -> dict:
    path = Path(path)
    try:
        with path.open(encoding="utf-8") as fh:
            doc = json.load(fh)
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path}: not valid JSON ({exc})") from exc
    if not isinstance(doc, dict):
        raise ValueError(f"{path}: top level must be an object")
    if not isinstance(doc.get("_reference"), str) or not doc["_reference"].strip():
        raise ValueError(f"{path}: _reference: a note saying where the data comes from is required")
    return doc


def _int(value: Any, field: str, minimum: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ValueError(f"{field}: expected an integer >= {minimum}, got {value!r}")
    return value


def load_sheets(path: Path | str | None = None) -> dict[str, SheetSide]:
    path = Path(path) if path else DATA_DIR / "sheets.json"
    doc = _read(path)
    sheets = doc.get("sheets")
    if not isinstance(sheets, dict) or not sheets:
        raise ValueError(f"{path}: sheets: expected a non-empty object of sides")
    out: dict[str, SheetSide] = {}
    for side, spec in sheets.items():
        f = f"sheets.{side}"
        if not isinstance(spec, dict):
            raise ValueError(f"{f}: expected an object")
        columns = _int(spec.get("columns"), f"{f}.columns", 3)
        rows = _int(spec.get("rows"), f"{f}.rows", 1)
        starts = spec.get("start_positions")
        if not isinstance(starts, dict) or not starts:
            raise ValueError(f"{f}.start_positions: expected a non-empty object number -> grid line")
        positions: dict[int, int] = {}
        for number, line in starts.items():
            try:
                n = int(number)
            except ValueError:
                raise ValueError(f"{f}.start_positions: key {number!r} is not a number") from None
            line = _int(line, f"{f}.start_positions.{number}", 0)
            if not 1 <= line <= columns - 1:
                raise ValueError(f"{f}.start_positions.{number}: grid line {line} must be strictly "
                                 f"between the side borders 0 and {columns}")
            positions[n] = line
        slots = _int(spec.get("window_box_slots"), f"{f}.window_box_slots", 0)
        out[side] = SheetSide(side, columns, rows, positions, slots)
    return out


def load_plants(path: Path | str | None = None) -> tuple[dict[str, PlantType], str]:
    path = Path(path) if path else DATA_DIR / "plants.json"
    doc = _read(path)
    plants = doc.get("plants")
    if not isinstance(plants, list) or not plants:
        raise ValueError(f"{path}: plants: expected a non-empty list")
    out: dict[str, PlantType] = {}
    for i, spec in enumerate(plants):
        f = f"plants[{i}]"
        if not isinstance(spec, dict):
            raise ValueError(f"{f}: expected an object")
        pid = spec.get("id")
        if not isinstance(pid, str) or not pid:
            raise ValueError(f"{f}.id: expected a non-empty string, got {pid!r}")
        if pid in out:
            raise ValueError(f"{f}.id: duplicate plant {pid!r}")
        name = spec.get("name")
        if not isinstance(name, str) or not name:
            raise ValueError(f"{f}.name: expected a non-empty string, got {name!r}")
        out[pid] = PlantType(pid, name, _int(spec.get("minimum_group_size"), f"{f}.minimum_group_size", 1))
    wild = doc.get("wild")
    if not isinstance(wild, str) or not wild or wild in out:
        raise ValueError(f"{path}: wild: expected a string id distinct from every plant, got {wild!r}")
    return out, wild


def load_deck(path: Path | str | None = None, plants: dict[str, PlantType] | None = None,
              wild: str = "wild") -> Deck:
    path = Path(path) if path else DATA_DIR / "deck.json"
    if plants is None:
        plants, wild = load_plants()
    doc = _read(path)
    sizes = doc.get("deck_size_by_gardeners")
    if not isinstance(sizes, dict) or not sizes:
        raise ValueError(f"{path}: deck_size_by_gardeners: expected a non-empty object")
    size_by: dict[str, int] = {}
    for key, size in sizes.items():
        size_by[str(key)] = _int(size, f"deck_size_by_gardeners.{key}", 2)
    cards = doc.get("cards")
    if not isinstance(cards, list) or not cards:
        raise ValueError(f"{path}: cards: expected a non-empty list")
    out: dict[int, Card] = {}
    for i, spec in enumerate(cards):
        f = f"cards[{i}]"
        if not isinstance(spec, dict):
            raise ValueError(f"{f}: expected an object")
        cid = _int(spec.get("id"), f"{f}.id", 1)
        if cid in out:
            raise ValueError(f"{f}.id: duplicate card id {cid}")
        pair = spec.get("plants")
        if not isinstance(pair, list) or len(pair) != 2:
            raise ValueError(f"{f}.plants: expected a list of two plants, got {pair!r}")
        for j, p in enumerate(pair):
            if p != wild and p not in plants:
                raise ValueError(f"{f}.plants[{j}]: unknown plant {p!r}")
        out[cid] = Card(cid, (pair[0], pair[1]))
    for key, size in size_by.items():
        if size > len(out):
            raise ValueError(f"deck_size_by_gardeners.{key}: {size} cards but the deck holds {len(out)}")
    return Deck(out, size_by)


def load_scoring(path: Path | str | None = None) -> ScoringTable:
    path = Path(path) if path else DATA_DIR / "scoring.json"
    doc = _read(path)
    titles = doc.get("solo_titles")
    if not isinstance(titles, list) or not titles:
        raise ValueError(f"{path}: solo_titles: expected a non-empty list")
    parsed = []
    for i, t in enumerate(titles):
        if not isinstance(t, dict) or not isinstance(t.get("title"), str):
            raise ValueError(f"solo_titles[{i}]: expected an object with minimum and title")
        parsed.append((_int(t.get("minimum"), f"solo_titles[{i}].minimum", 0), t["title"]))
    parsed.sort(key=lambda t: -t[0])
    return ScoringTable(
        _int(doc.get("window_box_points_per_plant"), "window_box_points_per_plant"),
        _int(doc.get("window_box_full_bonus"), "window_box_full_bonus"),
        _int(doc.get("plan_points_per_plant"), "plan_points_per_plant"),
        tuple(parsed),
    )


def load_catalog(directory: Path | str | None = None) -> Catalog:
    """All four catalogs from `directory` (default: solver/data/horticulture)."""
    d = Path(directory) if directory else DATA_DIR
    plants, wild = load_plants(d / "plants.json")
    return Catalog(load_sheets(d / "sheets.json"), plants, wild,
                   load_deck(d / "deck.json", plants, wild), load_scoring(d / "scoring.json"))


_DEFAULT: Catalog | None = None


def default_catalog() -> Catalog:
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = load_catalog()
    return _DEFAULT
