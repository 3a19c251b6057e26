"""Gartenbau catalogs (seedling, starter, plant and flower tiles, colour mixing) loaded from JSON and validated."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

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


def _load_json(path: Path, what: str) -> dict:
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except FileNotFoundError:
        raise InputError(what, "catalog file not found", str(path)) from None
    except json.JSONDecodeError as exc:
        raise InputError(what, f"not valid JSON: {exc}", str(path)) from None
    if not isinstance(doc, dict):
        raise InputError(what, "top level must be an object", type(doc).__name__)
    if not isinstance(doc.get("_reference"), str):
        raise InputError(f"{what}._reference", "catalogs must carry a reference-data note")
    return doc


def _list(doc: dict, key: str, where: str) -> list:
    value = doc.get(key)
    if not isinstance(value, list):
        raise InputError(f"{where}.{key}", "must be a list", value)
    return value


def _str(obj: dict, key: str, where: str, allowed: tuple[str, ...] | None = None) -> str:
    value = obj.get(key) if isinstance(obj, dict) else None
    if not isinstance(value, str) or not value:
        raise InputError(f"{where}.{key}", "must be a non-empty string", value)
    if allowed is not None and value not in allowed:
        raise InputError(f"{where}.{key}", f"must be one of {', '.join(allowed)}", value)
    return value


def _int(obj: dict, key: str, where: str, minimum: int = 0) -> int:
    value = obj.get(key) if isinstance(obj, dict) else None
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
        raise InputError(f"{where}.{key}", f"must be an integer >= {minimum}", value)
    return value


def _seedling_pair(value: Any, where: str, colours: tuple, types: tuple) -> tuple[Seedling, Seedling]:
    if not isinstance(value, list) or len(value) != 2:
        raise InputError(where, "must list exactly two seedlings", value)
    return tuple(Seedling(_str(s, "colour", f"{where}[{i}]", colours), _str(s, "type", f"{where}[{i}]", types))
                 for i, s in enumerate(value))  # type: ignore[return-value]


def _table(value: Any, where: str) -> list[list[int]]:
    if not isinstance(value, list) or not value:
        raise InputError(where, "must be a non-empty list of [count, prestige] steps", value)
    last = 0
    for i, step in enumerate(value):
        if (not isinstance(step, list) or len(step) != 2
                or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in step)):
            raise InputError(f"{where}[{i}]", "must be [count, prestige] with integers >= 0", step)
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
            if not isinstance(cs, list) or not cs or any(c not in colours for c in cs) or len(set(cs)) != len(cs):
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
    sd = _load_json(base / "seedlings.json", "seedlings")
    colours = tuple(_list(sd, "colours", "seedlings"))
    types = tuple(_list(sd, "types", "seedlings"))
    if not colours or not all(isinstance(c, str) for c in colours):
        raise InputError("seedlings.colours", "must list colour names", colours)
    if not types or not all(isinstance(t, str) for t in types):
        raise InputError("seedlings.types", "must list seedling type names", types)

    tiles_raw = _list(sd, "tiles", "seedlings")
    _unique([t.get("id") if isinstance(t, dict) else None for t in tiles_raw], "seedlings.tiles")
    tiles = {}
    for i, t in enumerate(tiles_raw):
        w = f"seedlings.tiles[{i}]"
        tid = _str(t, "id", w)
        tiles[tid] = SeedlingTile(tid, _seedling_pair(t.get("seedlings"), f"{w}.seedlings", colours, types),
                                  _str(t, "players", w, ("2-4", "3-4")))
    starters = {}
    for i, t in enumerate(_list(sd, "starter_tiles", "seedlings")):
        w = f"seedlings.starter_tiles[{i}]"
        tid = _str(t, "id", w)
        if tid in tiles or tid in starters:
            raise InputError(f"{w}.id", "duplicate id", tid)
        sides = t.get("sides")
        if not isinstance(sides, dict) or len(sides) != 2:
            raise InputError(f"{w}.sides", "a starter tile has exactly two sides", sides)
        starters[tid] = StarterTile(tid, {s: _seedling_pair(v, f"{w}.sides.{s}", colours, types)
                                          for s, v in sides.items()})

    cd = _load_json(base / "colours.json", "colours")
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
            if not isinstance(p, list) or len(p) != 2 or any(c not in colours for c in p):
                raise InputError(f"{w}[{j}]", "must be a pair of known colours", p)
        requirements[colour] = frozenset(tuple(sorted(p)) for p in pairs)

    pd = _load_json(base / "plants.json", "plants")
    plants_raw = _list(pd, "plants", "plants")
    _unique([p.get("id") if isinstance(p, dict) else None for p in plants_raw], "plants.plants")
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
        cost = p.get("cost")
        plants[pid] = Plant(pid, colour, prestige, _int(cost, "sun", f"{w}.cost"), _int(cost, "water", f"{w}.cost"))

    fd = _load_json(base / "flowers.json", "flowers")
    hands = tuple(_list(fd, "beginner_hands", "flowers"))
    flowers_raw = _list(fd, "flowers", "flowers")
    _unique([f.get("id") if isinstance(f, dict) else None for f in flowers_raw], "flowers.flowers")
    flowers = {}
    for i, f in enumerate(flowers_raw):
        w = f"flowers.flowers[{i}]"
        fid = _str(f, "id", w)
        level = _str(f, "level", w, ("beginner", "advanced"))
        hand = _str(f, "hand", w, hands) if level == "beginner" else None
        flowers[fid] = Flower(fid, _str(f, "name", w), level, _str(f, "colour", w, colours),
                              _scoring(f.get("scoring"), f"{w}.scoring", colours), hand)
    return Catalog(colours, types, tiles, starters, plants, flowers, requirements, hands,
                   _int(pd, "two_player_removed_prestige", "plants"))
