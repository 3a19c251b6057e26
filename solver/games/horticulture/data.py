"""Horticulture catalogs (sheets, plants, deck, scoring table): loading and schema validation."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from solver.core.datafile import DataFileError, named, read_json, refuse_unknown_keys
from solver.errors import InputError

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
        if str(gardeners) in self.size_by_gardeners:
            return self.size_by_gardeners[str(gardeners)]
        for key, size in self.size_by_gardeners.items():  # the one "N+" entry ("7+": 7 or more)
            if key.endswith("+") and gardeners >= int(key[:-1]):
                return size
        raise ValueError(f"gardeners: no deck size listed for {gardeners}")


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
        side = named(side, self.sheets)  # ("a" for "A")
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


# Bounds of the catalogs, so that a file the engine cannot handle is refused when it is loaded, naming the field,
# instead of answering wrongly or failing deep in a search:
MAX_PLANTS = 7  # the region tables (regions.py) pack a square's plant kind in 3 bits (0 = empty)
MAX_GROUP_SIZE = 7  # ... and a group's size, counted up to its plant's minimum, in 3 bits
MAX_PLAN_POINTS = 20  # ... and a square's points (plan lines and groups) in a signed byte
MIN_COLUMNS, MAX_COLUMNS = 3, 20  # a sheet 3000 squares wide was accepted, then ran 32 s and failed
MIN_ROWS, MAX_ROWS = 1, 20
MAX_START_NUMBER = 99
MAX_POINTS = 1000  # window box points and bonus
MAX_TITLE_MINIMUM = 10**6
MAX_CARD_ID = 10**6
MAX_GARDENERS = 99
# A key starting with "_" is a note for people ("_reference", "_schema"); any other key must be one of these.
_SHEETS_KEYS = ("sheets",)
_SHEET_KEYS = ("columns", "rows", "start_positions", "window_box_slots")
_PLANTS_KEYS = ("plants", "wild")
_PLANT_KEYS = ("id", "name", "minimum_group_size")
_DECK_KEYS = ("deck_size_by_gardeners", "cards")
_CARD_KEYS = ("id", "plants")
_SCORING_KEYS = ("window_box_points_per_plant", "window_box_full_bonus", "plan_points_per_plant",
                 "gnome_repeats_adjacent_groups", "solo_titles")
_TITLE_KEYS = ("minimum", "title")


def _in_file(path: Path, parse, *args):
    """`parse(*args)` with every schema error re-raised naming `path` ("<file>: <field>: <what is wrong>")."""
    try:
        return parse(*args)
    except DataFileError:
        raise
    except InputError as exc:
        raise DataFileError(str(path), exc.field, exc.description, exc.value) from None


def _read(path: Path, keys: tuple[str, ...]) -> dict:
    doc = read_json(path, path.stem)
    if not isinstance(doc, dict):
        raise DataFileError(str(path), path.stem, "top level must be an object", type(doc).__name__, in_file=False)
    if not isinstance(doc.get("_reference"), str) or not doc["_reference"].strip():
        raise DataFileError(str(path), "_reference", "a note saying where the data comes from is required")
    _in_file(path, refuse_unknown_keys, doc, keys, "")
    return doc


def _obj(value: Any, field: str, allowed: tuple[str, ...]) -> dict:
    if not isinstance(value, dict):
        raise InputError(field, "expected an object", value)
    refuse_unknown_keys(value, allowed, field)
    return value


def _int(value: Any, field: str, minimum: int = 0, maximum: int = MAX_POINTS) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not minimum <= value <= maximum:
        raise InputError(field, f"expected an integer from {minimum} to {maximum}", value)
    return value


def _str(value: Any, field: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise InputError(field, "expected a non-empty string", value)
    return value


def load_sheets(path: Path | str | None = None) -> dict[str, SheetSide]:
    path = Path(path) if path else DATA_DIR / "sheets.json"
    return _in_file(path, _parse_sheets, _read(path, _SHEETS_KEYS))


def _parse_sheets(doc: dict) -> dict[str, SheetSide]:
    sheets = doc.get("sheets")
    if not isinstance(sheets, dict) or not sheets:
        raise InputError("sheets", "expected a non-empty object of sides", sheets)
    out: dict[str, SheetSide] = {}
    for side, spec in sheets.items():
        f = f"sheets.{side}"
        if not side.strip():
            raise InputError("sheets", "a side's name must be a non-empty string", side)
        _obj(spec, f, _SHEET_KEYS)
        columns = _int(spec.get("columns"), f"{f}.columns", MIN_COLUMNS, MAX_COLUMNS)
        rows = _int(spec.get("rows"), f"{f}.rows", MIN_ROWS, MAX_ROWS)
        starts = spec.get("start_positions")
        if not isinstance(starts, dict) or not starts:
            raise InputError(f"{f}.start_positions", "expected a non-empty object number -> grid line", starts)
        positions: dict[int, int] = {}
        written: dict[int, str] = {}
        for number, line in starts.items():
            digits = number.strip()
            if not (digits.isascii() and digits.isdigit()):
                raise InputError(f"{f}.start_positions", f"key {number!r} is not a printed number (1, 2, ...)")
            n = int(digits)
            if not 1 <= n <= MAX_START_NUMBER:
                raise InputError(f"{f}.start_positions.{number}",
                                 f"a printed number is from 1 to {MAX_START_NUMBER}", n)
            if n in written:
                raise InputError(f"{f}.start_positions.{number}",
                                 f"number {n} is given twice (also as {written[n]!r})")
            written[n] = number
            line = _int(line, f"{f}.start_positions.{number}", 0, MAX_COLUMNS)
            if not 1 <= line <= columns - 1:
                raise InputError(f"{f}.start_positions.{number}", f"grid line {line} must be strictly "
                                 f"between the side borders 0 and {columns}")
            positions[n] = line
        slots = _int(spec.get("window_box_slots"), f"{f}.window_box_slots", 0, MAX_PLANTS)
        out[side] = SheetSide(side, columns, rows, positions, slots)
    return out


def load_plants(path: Path | str | None = None) -> tuple[dict[str, PlantType], str]:
    path = Path(path) if path else DATA_DIR / "plants.json"
    return _in_file(path, _parse_plants, _read(path, _PLANTS_KEYS))


def _parse_plants(doc: dict) -> tuple[dict[str, PlantType], str]:
    plants = doc.get("plants")
    if not isinstance(plants, list) or not plants:
        raise InputError("plants", "expected a non-empty list", plants)
    if len(plants) > MAX_PLANTS:
        raise InputError("plants", f"at most {MAX_PLANTS} plants (the engine's region tables hold a plant kind in "
                                   f"3 bits)", len(plants))
    out: dict[str, PlantType] = {}
    for i, spec in enumerate(plants):
        f = f"plants[{i}]"
        _obj(spec, f, _PLANT_KEYS)
        pid = _str(spec.get("id"), f"{f}.id")
        if pid in out:
            raise InputError(f"{f}.id", "duplicate plant", pid)
        name = _str(spec.get("name"), f"{f}.name")
        out[pid] = PlantType(pid, name, _int(spec.get("minimum_group_size"), f"{f}.minimum_group_size", 1,
                                             MAX_GROUP_SIZE))
    wild = doc.get("wild")
    if not isinstance(wild, str) or not wild.strip() or wild in out:
        raise InputError("wild", "expected a string id distinct from every plant", wild)
    return out, wild


def load_deck(path: Path | str | None = None, plants: dict[str, PlantType] | None = None,
              wild: str = "wild") -> Deck:
    path = Path(path) if path else DATA_DIR / "deck.json"
    if plants is None:
        plants, wild = load_plants()
    return _in_file(path, _parse_deck, _read(path, _DECK_KEYS), plants, wild)


def _parse_deck(doc: dict, plants: dict[str, PlantType], wild: str) -> Deck:
    cards = doc.get("cards")
    if not isinstance(cards, list) or not cards:
        raise InputError("cards", "expected a non-empty list", cards)
    out: dict[int, Card] = {}
    for i, spec in enumerate(cards):
        f = f"cards[{i}]"
        _obj(spec, f, _CARD_KEYS)
        cid = _int(spec.get("id"), f"{f}.id", 1, MAX_CARD_ID)
        if cid in out:
            raise InputError(f"{f}.id", f"duplicate card id {cid}")
        pair = spec.get("plants")
        if not isinstance(pair, list) or len(pair) != 2:
            raise InputError(f"{f}.plants", "expected a list of two plants", pair)
        for j, p in enumerate(pair):
            if not isinstance(p, str) or (p != wild and p not in plants):
                raise InputError(f"{f}.plants[{j}]", f"unknown plant; expected one of {list(plants)} or {wild!r}",
                                 p)
        # Two wilds on one card are allowed: the rulebook lets each gardener choose "the plant of their choice for
        # that plant" of every wild, and the engine treats each half of a card on its own.
        out[cid] = Card(cid, (pair[0], pair[1]))
    sizes = doc.get("deck_size_by_gardeners")
    if not isinstance(sizes, dict) or not sizes:
        raise InputError("deck_size_by_gardeners", "expected a non-empty object", sizes)
    size_by: dict[str, int] = {}
    plus = None
    for key, size in sizes.items():
        f = f"deck_size_by_gardeners.{key}"
        count = key[:-1] if key.endswith("+") else key
        if (not (count.isascii() and count.isdigit()) or count != str(int(count))
                or not 1 <= int(count) <= MAX_GARDENERS):
            raise InputError("deck_size_by_gardeners", f"key {key!r} is not a number of gardeners from 1 to "
                                                       f"{MAX_GARDENERS} (or 'N+' for N or more, like '7+')")
        if key.endswith("+"):
            if plus is not None:
                raise InputError(f, f"only one 'N+' entry (already {plus!r})")
            plus = key
        size = _int(size, f, 2, len(out))
        if size % 2:
            raise InputError(f, "a nursery is flipped two cards a day, so its size must be even", size)
        size_by[key] = size
    if "1" not in size_by:
        raise InputError("deck_size_by_gardeners", "needs the solo entry \"1\" (the solver plays solo)",
                         sorted(size_by))
    if plus is not None and any(k.isdigit() and int(k) >= int(plus[:-1]) for k in size_by):
        first = min(int(k) for k in size_by if k.isdigit() and int(k) >= int(plus[:-1]))
        raise InputError(f"deck_size_by_gardeners.{first}", f"{plus!r} already covers {first} gardeners")
    return Deck(out, size_by)


def load_scoring(path: Path | str | None = None) -> ScoringTable:
    path = Path(path) if path else DATA_DIR / "scoring.json"
    return _in_file(path, _parse_scoring, _read(path, _SCORING_KEYS))


def _parse_scoring(doc: dict) -> ScoringTable:
    # The rulebook's gnome: "every complete group adjacent to the garden gnome will be counted a second time". The
    # rules engine implements that reading only; the key documents it, and any other value is refused.
    if "gnome_repeats_adjacent_groups" in doc and doc["gnome_repeats_adjacent_groups"] is not True:
        raise InputError("gnome_repeats_adjacent_groups",
                         "must be true: the rules engine implements only the rulebook's reading (every complete "
                         "group next to the gnome scores a second time)", doc["gnome_repeats_adjacent_groups"])
    titles = doc.get("solo_titles")
    if not isinstance(titles, list) or not titles:
        raise InputError("solo_titles", "expected a non-empty list", titles)
    parsed = []
    for i, t in enumerate(titles):
        f = f"solo_titles[{i}]"
        _obj(t, f, _TITLE_KEYS)
        minimum = _int(t.get("minimum"), f"{f}.minimum", 0, MAX_TITLE_MINIMUM)
        if any(minimum == m for m, _ in parsed):
            raise InputError(f"{f}.minimum", "two titles have this minimum", minimum)
        parsed.append((minimum, _str(t.get("title"), f"{f}.title")))
    parsed.sort(key=lambda t: -t[0])
    return ScoringTable(
        _int(doc.get("window_box_points_per_plant"), "window_box_points_per_plant"),
        _int(doc.get("window_box_full_bonus"), "window_box_full_bonus"),
        _int(doc.get("plan_points_per_plant"), "plan_points_per_plant", 0, MAX_PLAN_POINTS),
        tuple(parsed),
    )


def load_catalog(directory: Path | str | None = None) -> Catalog:
    """All four catalogs from `directory` (default: solver/data/horticulture)."""
    d = Path(directory) if directory else DATA_DIR
    plants, wild = load_plants(d / "plants.json")
    sheets = load_sheets(d / "sheets.json")
    for side, sheet in sheets.items():
        if sheet.window_box_slots > len(plants):
            raise DataFileError(str(d / "sheets.json"), f"sheets.{side}.window_box_slots",
                                f"the window box takes each plant once, so with {len(plants)} plants "
                                f"({d / 'plants.json'}) {sheet.window_box_slots} slots could never be full",
                                sheet.window_box_slots)
    return Catalog(sheets, plants, wild, load_deck(d / "deck.json", plants, wild), load_scoring(d / "scoring.json"))


_DEFAULT: Catalog | None = None


def default_catalog() -> Catalog:
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = load_catalog()
    return _DEFAULT
