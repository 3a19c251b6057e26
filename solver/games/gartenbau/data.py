"""Gartenbau catalogs (seedling, starter, plant and flower tiles, colour mixing) loaded from JSON and validated."""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from solver.core.datafile import DataFileError, read_json, refuse_unknown_keys
from solver.errors import InputError

DATA_DIR = Path(__file__).resolve().parents[2] / "data" / "gartenbau"

# Scoring rules a flower tile may carry, with the parameters each one needs (name -> kind).
# "table" is a list of [count, prestige] steps: the prestige of the largest count not above the
# actual count (so counts beyond the chart score its last column, counts below it score 0).
SCORING_RULES: dict[str, dict[str, str]] = {
    "fixed": {"prestige": "int"},
    "colour_bonus": {"base": "int", "colour": "colour", "per_seedling": "int", "per_plant": "int"},
    "holes": {"base": "int", "table": "table"},
    "empty_adjacent": {"table": "table"},
    "adjacent_flowers": {"table": "table"},
    "largest_rectangle": {"per_space": "int"},
    "longest_identical_set": {"base": "int", "per_seedling": "int"},
    "outer_edges": {"per_edge": "int", "max": "int"},
    "seedlings_adjacent_to_flowers": {"table": "table"},
    "identical_pairs": {"base": "int", "per_pair": "int"},
    "colour_sets": {"base": "int", "colours": "colours", "table": "table"},
    "rainbow_sets": {"base": "int", "per_set": "int", "colours": "colours"},
    "largest_hole": {"base": "int", "per_space": "int"},
    "visible_plants": {"base": "int", "per_plant": "int"},
    "identical_adjacent": {"table": "table"},
}


@dataclass(frozen=True)
class Seedling:
    """One half of a seedling tile. "Identical" seedlings share colour and type."""
    colour: str
    type: str

    def label(self) -> str:
        return f"{self.colour}/{self.type}"


@dataclass(frozen=True)
class SeedlingTile:
    id: str
    seedlings: tuple[Seedling, Seedling]
    players: str = "2-4"  # "3-4": removed in a two-player game


@dataclass(frozen=True)
class StarterTile:
    id: str
    sides: dict[str, tuple[Seedling, Seedling]] = field(hash=False)


@dataclass(frozen=True)
class Plant:
    id: str
    colour: str
    prestige: int
    sun: int
    water: int


@dataclass(frozen=True)
class Scoring:
    rule: str
    params: dict[str, Any] = field(hash=False)

    def table(self) -> list[tuple[int, int]]:
        return [tuple(step) for step in self.params["table"]]


@dataclass(frozen=True)
class Flower:
    id: str
    name: str
    level: str  # "beginner" or "advanced"
    colour: str
    scoring: Scoring
    hand: str | None = None  # the preset Beginner hand (pollinator/pest symbol)

    @property
    def copy_key(self) -> tuple[str, str]:
        """Copies of one flower (same name and rule) share sets/holes: "you need two different sets"."""
        return (self.name, self.scoring.rule)


@dataclass(frozen=True)
class Catalog:
    colours: tuple[str, ...]
    types: tuple[str, ...]
    seedling_tiles: dict[str, SeedlingTile] = field(hash=False)
    starter_tiles: dict[str, StarterTile] = field(hash=False)
    plants: dict[str, Plant] = field(hash=False)
    flowers: dict[str, Flower] = field(hash=False)
    requirements: dict[str, frozenset[tuple[str, str]]] = field(hash=False)
    beginner_hands: tuple[str, ...] = ()
    two_player_removed_prestige: int = 3

    def allows(self, colour: str, below: tuple[str, str]) -> bool:
        """Colour mixing: may a `colour` tile cover two tiles of colours `below` (order free)?"""
        return tuple(sorted(below)) in self.requirements[colour]

    def hand(self, name: str) -> list[Flower]:
        if name not in self.beginner_hands:
            raise InputError("hand", f"unknown Beginner hand; known: {', '.join(self.beginner_hands)}", name)
        return [f for f in self.flowers.values() if f.hand == name]

    def seedling_of(self, tile_id: str, side: str | None = None) -> tuple[Seedling, Seedling]:
        if tile_id in self.seedling_tiles:
            return self.seedling_tiles[tile_id].seedlings
        if tile_id in self.starter_tiles:
            sides = self.starter_tiles[tile_id].sides
            if side not in sides:
                raise InputError("starter.side", f"starter tile {tile_id} has sides {sorted(sides)}", side)
            return sides[side]
        raise InputError("tile", "unknown seedling or starter tile id", tile_id)


# Upper bounds on the numbers a catalog may hold: far above any printed value (prestige up to a few dozen, charts up
# to 40 spaces, costs up to 5), far below what makes the CP-SAT model overflow (a 2**62 prestige made it
# MODEL_INVALID with no word of which field).
MAX_PRESTIGE = 10**6  # any prestige, bonus, per-unit prestige or cap
MAX_COUNT = 500  # any count of spaces, seedlings or plants in a chart; any sun or water cost


def _load_json(path: Path, what: str) -> dict:
    """The document of the catalog file `path` (role `what`, e.g. "seedlings"); a file that is missing, unreadable,
    not UTF-8 JSON or not an object is refused naming it."""
    doc = read_json(path, what)
    if not isinstance(doc, dict):
        raise DataFileError(str(path), what, "top level must be an object", type(doc).__name__)
    if not isinstance(doc.get("_reference"), str) or not doc["_reference"].strip():
        raise DataFileError(str(path), f"{what}._reference", "catalogs must carry a reference-data note")
    return doc


def _obj(value: Any, where: str, allowed: tuple[str, ...]) -> dict:
    if not isinstance(value, dict):
        raise InputError(where, "must be an object", value)
    refuse_unknown_keys(value, allowed, where)
    return value


def _list(doc: dict, key: str, where: str) -> list:
    value = doc.get(key)
    if not isinstance(value, list):
        raise InputError(f"{where}.{key}", "must be a list", value)
    return value


def _names(doc: dict, key: str, where: str, what: str) -> tuple[str, ...]:
    """A non-empty list of distinct non-empty strings (colours, types, hands)."""
    value = _list(doc, key, where)
    if not value:
        raise InputError(f"{where}.{key}", f"must list at least one {what}", value)
    for i, v in enumerate(value):
        if not isinstance(v, str) or not v.strip():
            raise InputError(f"{where}.{key}[{i}]", f"a {what} must be a non-empty string", v)
        if v in value[:i]:
            raise InputError(f"{where}.{key}[{i}]", f"duplicate {what}", v)
    return tuple(value)


def _str(obj: dict, key: str, where: str, allowed: tuple[str, ...] | None = None) -> str:
    if not isinstance(obj, dict):
        raise InputError(where, "must be an object", obj)
    value = obj.get(key)
    if not isinstance(value, str) or not value:
        raise InputError(f"{where}.{key}", "must be a non-empty string", value)
    if allowed is not None and value not in allowed:
        raise InputError(f"{where}.{key}", f"must be one of {', '.join(allowed)}", value)
    return value


def _int(obj: dict, key: str, where: str, minimum: int = 0, maximum: int = MAX_PRESTIGE) -> int:
    if not isinstance(obj, dict):
        raise InputError(where, "must be an object", obj)
    value = obj.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not minimum <= value <= maximum:
        raise InputError(f"{where}.{key}", f"must be an integer from {minimum} to {maximum}", value)
    return value


def _seedling_pair(value: Any, where: str, colours: tuple, types: tuple) -> tuple[Seedling, Seedling]:
    if not isinstance(value, list) or len(value) != 2:
        raise InputError(where, "must list exactly two seedlings", value)
    pair = []
    for i, s in enumerate(value):
        w = f"{where}[{i}]"
        _obj(s, w, ("colour", "type"))
        pair.append(Seedling(_str(s, "colour", w, colours), _str(s, "type", w, types)))
    return tuple(pair)  # type: ignore[return-value]


def _table(value: Any, where: str) -> list[list[int]]:
    if not isinstance(value, list) or not value:
        raise InputError(where, "must be a non-empty list of [count, prestige] steps", value)
    last = 0
    for i, step in enumerate(value):
        if (not isinstance(step, list) or len(step) != 2
                or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in step)):
            raise InputError(f"{where}[{i}]", "must be [count, prestige] with integers >= 0", step)
        if step[0] > MAX_COUNT:
            raise InputError(f"{where}[{i}][0]", f"a count must be at most {MAX_COUNT}", step[0])
        if step[1] > MAX_PRESTIGE:
            raise InputError(f"{where}[{i}][1]", f"a prestige must be at most {MAX_PRESTIGE}", step[1])
        if step[0] <= last:
            raise InputError(f"{where}[{i}]", "counts must rise strictly from 1", step)
        last = step[0]
    return value


def _scoring(value: Any, where: str, colours: tuple) -> Scoring:
    rule = _str(value, "rule", where, tuple(SCORING_RULES))
    params: dict[str, Any] = {}
    for key, kind in SCORING_RULES[rule].items():
        if kind == "int":
            params[key] = _int(value, key, where)
        elif kind == "colour":
            params[key] = _str(value, key, where, colours)
        elif kind == "colours":
            cs = value.get(key)
            if (not isinstance(cs, list) or not cs or any(not isinstance(c, str) or c not in colours for c in cs)
                    or len(set(cs)) != len(cs)):
                raise InputError(f"{where}.{key}", "must be a list of distinct known colours", cs)
            params[key] = list(cs)
        else:
            params[key] = _table(value.get(key), f"{where}.{key}")
    extra = set(value) - set(SCORING_RULES[rule]) - {"rule"}
    if extra:
        raise InputError(f"{where}.{sorted(extra)[0]}", f"not a parameter of rule {rule}")
    return Scoring(rule, params)


def _unique(ids: list[str], where: str) -> None:
    seen = set()
    for i, tid in enumerate(ids):
        if not isinstance(tid, str) or not tid:
            raise InputError(f"{where}[{i}].id", "must be a non-empty string", tid)
        if tid in seen:
            raise InputError(f"{where}[{i}].id", "duplicate id", tid)
        seen.add(tid)


def load_catalog(directory: str | Path | None = None) -> Catalog:
    """Load and validate the four catalog files from `directory` (default: solver/data/gartenbau)."""
    if directory is None:
        return _default_catalog()
    return _load(Path(directory))


@lru_cache(maxsize=1)
def _default_catalog() -> Catalog:
    return _load(DATA_DIR)


def _load(base: Path) -> Catalog:
    """The four files of `base`; every error names the file it is in (the field path starts with the file's role)."""
    loading = {"file": base / "seedlings.json"}
    try:
        return _parse(base, loading)
    except DataFileError:
        raise
    except InputError as exc:
        raise DataFileError(str(loading["file"]), exc.field, exc.description, exc.value) from None


def _parse(base: Path, loading: dict[str, Path]) -> Catalog:
    loading["file"] = base / "seedlings.json"
    sd = _load_json(loading["file"], "seedlings")
    refuse_unknown_keys(sd, ("colours", "types", "starter_tiles", "tiles"), "seedlings")
    colours = _names(sd, "colours", "seedlings", "colour")
    types = _names(sd, "types", "seedlings", "seedling type")

    tiles_raw = _list(sd, "tiles", "seedlings")
    for i, t in enumerate(tiles_raw):
        _obj(t, f"seedlings.tiles[{i}]", ("id", "seedlings", "players"))
    _unique([t.get("id") for t in tiles_raw], "seedlings.tiles")
    tiles = {}
    for i, t in enumerate(tiles_raw):
        w = f"seedlings.tiles[{i}]"
        tid = _str(t, "id", w)
        tiles[tid] = SeedlingTile(tid, _seedling_pair(t.get("seedlings"), f"{w}.seedlings", colours, types),
                                  _str(t, "players", w, ("2-4", "3-4")))
    starters = {}
    for i, t in enumerate(_list(sd, "starter_tiles", "seedlings")):
        w = f"seedlings.starter_tiles[{i}]"
        _obj(t, w, ("id", "sides"))
        tid = _str(t, "id", w)
        if tid in tiles or tid in starters:
            raise InputError(f"{w}.id", "duplicate id", tid)
        sides = t.get("sides")
        if not isinstance(sides, dict) or len(sides) != 2:
            raise InputError(f"{w}.sides", "a starter tile has exactly two sides", sides)
        starters[tid] = StarterTile(tid, {s: _seedling_pair(v, f"{w}.sides.{s}", colours, types)
                                          for s, v in sides.items()})

    loading["file"] = base / "colours.json"
    cd = _load_json(loading["file"], "colours")
    refuse_unknown_keys(cd, ("requirements",), "colours")
    req_raw = cd.get("requirements")
    if not isinstance(req_raw, dict) or set(req_raw) != set(colours):
        raise InputError("colours.requirements", f"must give pairs for exactly the colours {', '.join(colours)}",
                         sorted(req_raw) if isinstance(req_raw, dict) else req_raw)
    requirements = {}
    for colour, pairs in req_raw.items():
        w = f"colours.requirements.{colour}"
        if not isinstance(pairs, list) or not pairs:
            raise InputError(w, "must list at least one pair of colours", pairs)
        for j, p in enumerate(pairs):
            if (not isinstance(p, list) or len(p) != 2
                    or any(not isinstance(c, str) or c not in colours for c in p)):
                raise InputError(f"{w}[{j}]", "must be a pair of known colours", p)
        requirements[colour] = frozenset(tuple(sorted(p)) for p in pairs)

    loading["file"] = base / "plants.json"
    pd = _load_json(loading["file"], "plants")
    refuse_unknown_keys(pd, ("two_player_removed_prestige", "plants"), "plants")
    plants_raw = _list(pd, "plants", "plants")
    for i, p in enumerate(plants_raw):
        _obj(p, f"plants.plants[{i}]", ("id", "colour", "prestige", "cost"))
    _unique([p.get("id") for p in plants_raw], "plants.plants")
    plants = {}
    last: dict[str, int] = {}
    for i, p in enumerate(plants_raw):
        w = f"plants.plants[{i}]"
        pid = _str(p, "id", w)
        colour = _str(p, "colour", w, colours)
        prestige = _int(p, "prestige", w)
        if prestige < last.get(colour, 0):
            raise InputError(f"{w}.prestige", f"{colour} stack must be sorted by ascending prestige", prestige)
        last[colour] = prestige
        cost = _obj(p.get("cost"), f"{w}.cost", ("sun", "water"))
        plants[pid] = Plant(pid, colour, prestige, _int(cost, "sun", f"{w}.cost", maximum=MAX_COUNT),
                            _int(cost, "water", f"{w}.cost", maximum=MAX_COUNT))
    removed = _int(pd, "two_player_removed_prestige", "plants")

    loading["file"] = base / "flowers.json"
    fd = _load_json(loading["file"], "flowers")
    refuse_unknown_keys(fd, ("beginner_hands", "flowers"), "flowers")
    hands = _names(fd, "beginner_hands", "flowers", "hand")
    flowers_raw = _list(fd, "flowers", "flowers")
    for i, f in enumerate(flowers_raw):
        _obj(f, f"flowers.flowers[{i}]", ("id", "name", "level", "hand", "colour", "scoring"))
    _unique([f.get("id") for f in flowers_raw], "flowers.flowers")
    flowers = {}
    for i, f in enumerate(flowers_raw):
        w = f"flowers.flowers[{i}]"
        fid = _str(f, "id", w)
        level = _str(f, "level", w, ("beginner", "advanced"))
        if level == "beginner":
            hand = _str(f, "hand", w, hands)
        elif "hand" in f:
            raise InputError(f"{w}.hand", "only a beginner flower belongs to a preset hand", f["hand"])
        else:
            hand = None
        flowers[fid] = Flower(fid, _str(f, "name", w), level, _str(f, "colour", w, colours),
                              _scoring(f.get("scoring"), f"{w}.scoring", colours), hand)
    for i, h in enumerate(hands):
        if not any(f.hand == h for f in flowers.values()):
            raise InputError(f"flowers.beginner_hands[{i}]", "no beginner flower belongs to this hand", h)
    return Catalog(colours, types, tiles, starters, plants, flowers, requirements, hands, removed)
