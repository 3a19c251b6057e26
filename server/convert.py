"""Proto <-> domain conversion for gardens.v1: plain dicts and lists in, domain results out to messages."""
from __future__ import annotations

import json
from contextlib import contextmanager
from pathlib import Path

from google.protobuf import json_format, struct_pb2

from gardens.v1 import common_pb2, gardeners_pb2
from server.config import ServerConfig
from solver.errors import InputError, InputErrors

_DIRECTIONS = {"N": common_pb2.DIRECTION_NORTH, "E": common_pb2.DIRECTION_EAST,
               "S": common_pb2.DIRECTION_SOUTH, "W": common_pb2.DIRECTION_WEST}
_SOLVABILITY = {"solvable": common_pb2.SOLVABILITY_SOLVABLE, "unsolvable": common_pb2.SOLVABILITY_UNSOLVABLE,
                "unknown": common_pb2.SOLVABILITY_UNKNOWN}
_CARD_STATUS = {"satisfied": gardeners_pb2.CARD_STATUS_SATISFIED, "violated": gardeners_pb2.CARD_STATUS_VIOLATED,
                "open": gardeners_pb2.CARD_STATUS_OPEN}
_MOVE_KINDS = {"add": gardeners_pb2.MOVE_KIND_ADD, "remove": gardeners_pb2.MOVE_KIND_REMOVE,
               "swap": gardeners_pb2.MOVE_KIND_SWAP, "rotate": gardeners_pb2.MOVE_KIND_ROTATE}


def _get(obj, name, default=None):
    if isinstance(obj, dict):
        return obj.get(name, default)
    return getattr(obj, name, default)


# ---- requests -> domain -------------------------------------------------------------------

def mode(value: int, field: str = "mode") -> str:
    """GAME_MODE_TRAINING_A -> "training-a"; unspecified -> "normal" (the documented default)."""
    if value == gardeners_pb2.GAME_MODE_UNSPECIFIED:
        return "normal"
    try:
        name = gardeners_pb2.GameMode.Name(value)
    except ValueError:
        raise InputError(field, "unknown game mode", value) from None
    return name[len("GAME_MODE_"):].lower().replace("_", "-")


def card_ids(ids, config: ServerConfig, field: str = "card_ids") -> list[str]:
    if len(ids) > config.max_cards:
        raise InputError(field, f"at most {config.max_cards} cards per request", len(ids))
    return list(ids)


def garden(msg: common_pb2.Garden, config: ServerConfig, field: str = "garden") -> dict:
    """The domain's garden dict; sizes and counts are capped here, before any model is built."""
    size = msg.size
    if size < 0 or size > config.max_garden_size:
        raise InputError(f"{field}.size", f"must be from 1 to {config.max_garden_size} (0 = the mode's size)", size)
    cap = config.max_garden_size ** 2
    if len(msg.placements) > cap:
        raise InputError(f"{field}.placements", f"at most {cap} placements", len(msg.placements))
    doc = {"placements": [{"tile": p.tile, "row": p.row, "col": p.col, "rotation": p.rotation}
                          for p in msg.placements]}
    if size:
        doc["size"] = size
    return doc


def count_cap(value: int, config: ServerConfig, field: str = "cap") -> int:
    if value < 0 or value > config.max_count_cap:
        raise InputError(field, f"must be from 0 to {config.max_count_cap} (0 = {min(10, config.max_count_cap)})",
                         value)
    return value or min(10, config.max_count_cap)


def game_state(msg: gardeners_pb2.GameState, config: ServerConfig, field: str = "state") -> dict:
    """The domain's state dict; counts capped before the rules look at it."""
    cap = config.max_garden_size ** 2
    for name in ("garden", "pool"):
        if len(getattr(msg, name)) > cap:
            raise InputError(f"{field}.{name}", f"at most {cap} tiles", len(getattr(msg, name)))
    if len(msg.supplies) > cap:
        raise InputError(f"{field}.supplies", f"at most {cap} players", len(msg.supplies))
    doc = {
        "mode": mode(msg.mode, f"{field}.mode"),
        "garden": [{"tile": p.tile, "row": p.row, "col": p.col, "rotation": p.rotation} for p in msg.garden],
        "supplies": [{"stack": list(s.stack), "loose": list(s.loose)} for s in msg.supplies],
        "pool": list(msg.pool),
    }
    if msg.size:
        doc["size"] = msg.size
    return doc


def move(msg: gardeners_pb2.Move, field: str = "move") -> dict:
    kinds = {v: k for k, v in _MOVE_KINDS.items()}
    if msg.kind not in kinds:
        raise InputError(f"{field}.kind", "must be one of MOVE_KIND_ADD, _REMOVE, _SWAP, _ROTATE", msg.kind)
    doc = {"kind": kinds[msg.kind], "player": msg.player, "rotation": msg.rotation}
    if msg.tile:
        doc["tile"] = msg.tile
    if msg.HasField("cell"):
        doc["cell"] = [msg.cell.row, msg.cell.col]
    if msg.HasField("other"):
        doc["other"] = [msg.other.row, msg.other.col]
    if msg.HasField("to_player"):
        doc["to_player"] = msg.to_player
    return doc


@contextmanager
def fields_under(renames: dict[str, str]):
    """Rewrites the field paths of domain input errors into request field paths.

    The domain names fields of its own arguments ("placements[3].rotation"); the wire client sees
    them inside the request ("garden.placements[3].rotation"). `renames` maps a leading segment.
    """
    try:
        yield
    except InputError as exc:
        for e in (exc.errors if isinstance(exc, InputErrors) else [exc]):
            e.field = _rename(e.field, renames)
        raise


def _rename(field: str, renames: dict[str, str]) -> str:
    head = field.split(".", 1)[0].split("[", 1)[0]
    if head in renames:
        return renames[head] + field[len(head):]
    return field


# ---- domain -> responses ------------------------------------------------------------------

def cell(value) -> common_pb2.Cell:
    row, col = value
    return common_pb2.Cell(row=row, col=col)


def garden_msg(value) -> common_pb2.Garden | None:
    """A domain garden (object with to_dict(), or the dict itself) as a message."""
    if value is None:
        return None
    doc = value.to_dict() if hasattr(value, "to_dict") else value
    return common_pb2.Garden(size=doc["size"], placements=[
        common_pb2.Placement(tile=p["tile"], row=p["row"], col=p["col"], rotation=p.get("rotation", 0))
        for p in doc["placements"]])


def tile_msg(tile) -> gardeners_pb2.Tile:
    doc = tile.to_dict() if hasattr(tile, "to_dict") else tile
    return gardeners_pb2.Tile(
        id=doc["id"], set=doc["set"], background=doc["background"],
        elements=[gardeners_pb2.Element(kind=e["kind"], colour=e.get("colour") or "",
                                        facing=_DIRECTIONS.get(e.get("facing"), common_pb2.DIRECTION_UNSPECIFIED))
                  for e in doc.get("elements", ())],
        path_edges=[_DIRECTIONS[d] for d in doc.get("path", ())],
    )


def card_msg(card) -> gardeners_pb2.Card:
    params = _get(card, "params") or {}
    if isinstance(params, str):
        params = json.loads(params)
    struct = struct_pb2.Struct()
    json_format.ParseDict(params, struct)
    return gardeners_pb2.Card(id=_get(card, "id"), kind=_get(card, "kind"), deck=_get(card, "deck"),
                              text=_get(card, "text") or "", params=struct)


def card_sets(sets) -> list[common_pb2.CardSet]:
    return [common_pb2.CardSet(card_ids=[c if isinstance(c, str) else c.id for c in s]) for s in sets or ()]


def solvability(value: str) -> int:
    return _SOLVABILITY[str(value).lower()]


def closest_verdict(value: str) -> int:
    """A closest-solution verdict: "optimal" and "feasible" both found a valid garden."""
    return _SOLVABILITY["solvable" if value in ("optimal", "feasible") else value]


def verdict_msg(v) -> gardeners_pb2.CardVerdict:
    return gardeners_pb2.CardVerdict(card_id=_get(v, "card_id"), status=_CARD_STATUS[_get(v, "status")],
                                     cells=[cell(c) for c in _get(v, "cells", ())], reason=_get(v, "reason") or "",
                                     kind=_get(v, "kind") or "")


def move_msg(m) -> gardeners_pb2.Move:
    msg = gardeners_pb2.Move(kind=_MOVE_KINDS[_get(m, "kind")], player=_get(m, "player") or 0,
                             tile=_get(m, "tile") or "", rotation=_get(m, "rotation") or 0)
    if _get(m, "cell") is not None:
        msg.cell.CopyFrom(cell(_get(m, "cell")))
    if _get(m, "other") is not None:
        msg.other.CopyFrom(cell(_get(m, "other")))
    if _get(m, "to_player") is not None:
        msg.to_player = _get(m, "to_player")
    return msg


def data_files(directory, digest: str) -> common_pb2.DataFiles:
    """GetDataFiles's answer: every top-level JSON file of a game's data directory, with the data's digest."""
    files = struct_pb2.Struct()
    json_format.ParseDict({p.name: json.loads(p.read_text(encoding="utf-8"))
                           for p in sorted(Path(directory).glob("*.json"))}, files)
    return common_pb2.DataFiles(digest=digest, files=files)
