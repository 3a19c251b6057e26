"""Loading and schema validation of the Versailles reference data (tiles, number cards, tokens, set-up)."""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DATA_DIR = Path(__file__).resolve().parents[2] / "data" / "versailles"

FIELD_KINDS = ("garden", "joker", "construction")


@dataclass(frozen=True)
class FieldType:
    code: str
    name: str
    colour: str
    kind: str  # one of FIELD_KINDS


@dataclass(frozen=True)
class Tile:
    """A garden tile of 2x2 fields; `fields` reads top-left, top-right, bottom-left, bottom-right."""

    id: int
    fields: tuple[str, str, str, str]

    def oriented(self, rotation: int) -> tuple[str, str, str, str]:
        """Field codes after turning the tile `rotation` quarter turns clockwise."""
        tl, tr, bl, br = self.fields
        for _ in range(rotation % 4):
            tl, tr, bl, br = bl, tl, br, tr
        return (tl, tr, bl, br)

    def rows(self) -> list[str]:
        return [self.fields[0] + self.fields[1], self.fields[2] + self.fields[3]]


@dataclass(frozen=True)
class NumberCards:
    low: int
    high: int
    dealt_per_stage: int
    played_per_stage: int


@dataclass(frozen=True)
class LargeToken:
    type: str
    stage1_points: int
    stage2_points: int


@dataclass(frozen=True)
class SmallToken:
    type: str
    points: int


@dataclass(frozen=True)
class MajorityTokens:
    threshold: int
    large: tuple[LargeToken, ...]
    small: tuple[SmallToken, ...]


@dataclass(frozen=True)
class Setup:
    stages: int
    rounds_per_stage: int
    row_tiles: dict[int, int]
    ludwig_in_2_player_game: bool
    intermediate_areas: int
    final_areas: int


@dataclass(frozen=True)
class Catalog:
    field_types: dict[str, FieldType]
    tiles: dict[int, Tile]
    cards: NumberCards
    tokens: MajorityTokens
    setup: Setup

    @property
    def garden_types(self) -> tuple[str, ...]:
        return tuple(c for c, f in self.field_types.items() if f.kind == "garden")

    @property
    def joker_types(self) -> tuple[str, ...]:
        return tuple(c for c, f in self.field_types.items() if f.kind == "joker")

    @property
    def construction_types(self) -> tuple[str, ...]:
        return tuple(c for c, f in self.field_types.items() if f.kind == "construction")

    def tile(self, tile_id: Any) -> Tile:
        if isinstance(tile_id, bool) or not isinstance(tile_id, int):
            raise ValueError(f"tile: expected an integer tile id, got {tile_id!r}")
        try:
            return self.tiles[tile_id]
        except KeyError:
            raise ValueError(f"tile: unknown tile id {tile_id!r}") from None


def _read(path: Path) -> dict:
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path.name}: not valid JSON ({exc})") from None
    except FileNotFoundError:
        raise ValueError(f"{path.name}: file not found in {str(path.parent)!r}") from None
    except IsADirectoryError:
        raise ValueError(f"{path.name}: is a directory, not a JSON file") from None
    except UnicodeDecodeError as exc:
        raise ValueError(f"{path.name}: not UTF-8 text (byte 0x{exc.object[exc.start]:02x} at offset "
                         f"{exc.start})") from None
    except OSError as exc:
        raise ValueError(f"{path.name}: cannot be read ({exc.strerror or exc})") from None
    if not isinstance(doc, dict):
        raise ValueError(f"{path.name}: expected a JSON object at the top level")
    if not isinstance(doc.get("_reference"), str) or not doc["_reference"].strip():
        raise ValueError(f"{path.name}: _reference: missing the note saying what this data is")
    return doc


def _int(value: Any, where: str, low: int | None = None, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{where}: expected an integer, got {value!r}")
    if low is not None and value < low:
        raise ValueError(f"{where}: must be >= {low}, got {value}")
    if high is not None and value > high:
        raise ValueError(f"{where}: must be <= {high}, got {value}")
    return value


def _str(value: Any, where: str) -> str:
    if not isinstance(value, str) or not value:
        raise ValueError(f"{where}: expected a non-empty string, got {value!r}")
    return value


def _key(doc: dict, key: str, where: str) -> Any:
    if key not in doc:
        raise ValueError(f"{where}: missing field {key!r}")
    return doc[key]


def parse_tiles(doc: dict, name: str = "tiles.json") -> tuple[dict[str, FieldType], dict[int, Tile]]:
    raw_types = _key(doc, "field_types", name)
    if not isinstance(raw_types, dict) or not raw_types:
        raise ValueError(f"{name}: field_types: expected a non-empty object")
    types: dict[str, FieldType] = {}
    for code, spec in raw_types.items():
        where = f"{name}: field_types.{code}"
        if len(code) != 1:
            raise ValueError(f"{where}: a field code must be one character, got {code!r}")
        if not isinstance(spec, dict):
            raise ValueError(f"{where}: expected an object")
        kind = _str(_key(spec, "kind", where), f"{where}.kind")
        if kind not in FIELD_KINDS:
            raise ValueError(f"{where}.kind: must be one of {', '.join(FIELD_KINDS)}, got {kind!r}")
        types[code] = FieldType(code, _str(_key(spec, "name", where), f"{where}.name"),
                                _str(_key(spec, "colour", where), f"{where}.colour"), kind)
    if not any(t.kind == "garden" for t in types.values()):
        raise ValueError(f"{name}: field_types: needs at least one field type of kind 'garden'")
    raw_tiles = _key(doc, "tiles", name)
    if not isinstance(raw_tiles, list) or not raw_tiles:
        raise ValueError(f"{name}: tiles: expected a non-empty list")
    tiles: dict[int, Tile] = {}
    for i, raw in enumerate(raw_tiles):
        where = f"{name}: tiles[{i}]"
        if not isinstance(raw, dict):
            raise ValueError(f"{where}: expected an object")
        tile_id = _int(_key(raw, "id", where), f"{where}.id", low=1)
        if tile_id in tiles:
            raise ValueError(f"{where}.id: duplicate tile id {tile_id}")
        rows = _key(raw, "fields", where)
        if not isinstance(rows, list) or len(rows) != 2:
            raise ValueError(f"{where}.fields: expected 2 rows of 2 field codes, got {rows!r}")
        codes: list[str] = []
        for r, row in enumerate(rows):
            if not isinstance(row, str) or len(row) != 2:
                raise ValueError(f"{where}.fields[{r}]: expected a string of 2 field codes, got {row!r}")
            for c in row:
                if c not in types:
                    raise ValueError(f"{where}.fields[{r}]: unknown field code {c!r} "
                                     f"(known: {''.join(types)})")
            codes.extend(row)
        tiles[tile_id] = Tile(tile_id, tuple(codes))  # type: ignore[arg-type]
    return types, tiles


def parse_cards(doc: dict, name: str = "number_cards.json") -> NumberCards:
    values = _key(doc, "values", name)
    if not isinstance(values, dict):
        raise ValueError(f"{name}: values: expected an object with min and max")
    low = _int(_key(values, "min", f"{name}: values"), f"{name}: values.min", low=0)
    high = _int(_key(values, "max", f"{name}: values"), f"{name}: values.max", low=low)
    dealt = _int(_key(doc, "dealt_per_stage", name), f"{name}: dealt_per_stage", low=1)
    played = _int(_key(doc, "played_per_stage", name), f"{name}: played_per_stage", low=1, high=dealt)
    return NumberCards(low, high, dealt, played)


def parse_tokens(doc: dict, field_types: dict[str, FieldType], name: str = "majority_tokens.json") -> MajorityTokens:
    threshold = _int(_key(doc, "threshold", name), f"{name}: threshold", low=1)
    large: list[LargeToken] = []
    for i, raw in enumerate(_list(_key(doc, "large", name), f"{name}: large")):
        where = f"{name}: large[{i}]"
        t = _type(_key(raw, "type", where), f"{where}.type", field_types, ("garden",))
        if any(tok.type == t for tok in large):
            raise ValueError(f"{where}.type: duplicate large token for type {t!r}")
        large.append(LargeToken(t, _int(_key(raw, "stage1_points", where), f"{where}.stage1_points", low=0),
                                _int(_key(raw, "stage2_points", where), f"{where}.stage2_points", low=0)))
    small: list[SmallToken] = []
    for i, raw in enumerate(_list(_key(doc, "small", name), f"{name}: small")):
        where = f"{name}: small[{i}]"
        t = _type(_key(raw, "type", where), f"{where}.type", field_types, ("garden", "construction"))
        if any(tok.type == t for tok in small):
            raise ValueError(f"{where}.type: duplicate small token for type {t!r}")
        small.append(SmallToken(t, _int(_key(raw, "points", where), f"{where}.points", low=0)))
    return MajorityTokens(threshold, tuple(large), tuple(small))


def parse_setup(doc: dict, name: str = "setup.json") -> Setup:
    stages = _int(_key(doc, "stages", name), f"{name}: stages", low=1, high=2)
    rounds = _int(_key(doc, "rounds_per_stage", name), f"{name}: rounds_per_stage", low=1)
    raw_rows = _key(doc, "row_tiles", name)
    if not isinstance(raw_rows, dict) or not raw_rows:
        raise ValueError(f"{name}: row_tiles: expected an object from player count to tile count")
    rows: dict[int, int] = {}
    for k, v in raw_rows.items():
        if not k.isdigit() or not 1 <= int(k) <= 9:
            raise ValueError(f"{name}: row_tiles: player count must be 1..9, got {k!r}")
        rows[int(k)] = _int(v, f"{name}: row_tiles.{k}", low=1)
    ludwig = _key(doc, "ludwig_in_2_player_game", name)
    if not isinstance(ludwig, bool):
        raise ValueError(f"{name}: ludwig_in_2_player_game: expected true or false, got {ludwig!r}")
    areas = _key(doc, "scored_areas", name)
    if not isinstance(areas, dict):
        raise ValueError(f"{name}: scored_areas: expected an object")
    inter = _int(_key(areas, "intermediate", f"{name}: scored_areas"), f"{name}: scored_areas.intermediate", low=1)
    final = _int(_key(areas, "final", f"{name}: scored_areas"), f"{name}: scored_areas.final", low=1)
    for players, count in rows.items():
        seats = 3 if (players == 2 and ludwig) else players
        if count != seats * rounds:
            raise ValueError(f"{name}: row_tiles.{players}: must be {seats} seats x {rounds} rounds = "
                             f"{seats * rounds}, got {count}")
    return Setup(stages, rounds, rows, ludwig, inter, final)


def _list(value: Any, where: str) -> list:
    if not isinstance(value, list):
        raise ValueError(f"{where}: expected a list, got {value!r}")
    for i, v in enumerate(value):
        if not isinstance(v, dict):
            raise ValueError(f"{where}[{i}]: expected an object, got {v!r}")
    return value


def _type(value: Any, where: str, field_types: dict[str, FieldType], kinds: tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in field_types:
        raise ValueError(f"{where}: unknown field type {value!r}")
    if field_types[value].kind not in kinds:
        raise ValueError(f"{where}: field type {value!r} is of kind {field_types[value].kind!r}, "
                         f"expected {' or '.join(kinds)}")
    return value


def load_catalog(path: str | Path | None = None) -> Catalog:
    """Load the four data files from `path` (a directory; default: the project's reference data)."""
    base = Path(path) if path is not None else DATA_DIR
    if not base.is_dir():
        raise ValueError(f"path: not a directory: {str(base)!r}")
    types, tiles = parse_tiles(_read(base / "tiles.json"))
    cards = parse_cards(_read(base / "number_cards.json"))
    tokens = parse_tokens(_read(base / "majority_tokens.json"), types)
    setup = parse_setup(_read(base / "setup.json"))
    if len(types) > 0 and setup.stages * max(setup.row_tiles.values()) > len(tiles):
        raise ValueError(f"tiles.json: tiles: {len(tiles)} tiles cannot fill {setup.stages} rows of "
                         f"{max(setup.row_tiles.values())}")
    # Every seat (Ludwig too) is dealt `dealt_per_stage` cards from the shuffled deck at each stage.
    seats = max(3 if (players == 2 and setup.ludwig_in_2_player_game) else players for players in setup.row_tiles)
    deck = cards.high - cards.low + 1
    if seats * cards.dealt_per_stage > deck:
        raise ValueError(f"number_cards.json: values: {deck} cards ({cards.low} to {cards.high}) cannot deal "
                         f"{cards.dealt_per_stage} to each of {seats} seats (setup.json row_tiles), "
                         f"{seats * cards.dealt_per_stage} cards")
    if setup.rounds_per_stage != cards.played_per_stage:
        raise ValueError(f"number_cards.json: played_per_stage: must equal setup rounds_per_stage "
                         f"{setup.rounds_per_stage}, got {cards.played_per_stage}")
    return Catalog(types, tiles, cards, tokens, setup)


_DEFAULT: Catalog | None = None


def default_catalog() -> Catalog:
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = load_catalog()
    return _DEFAULT
