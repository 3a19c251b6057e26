"""The command line's JSON: reading inputs (a file, or stdin for `-`) and printing answers."""
from __future__ import annotations

import json
import sys


def read_json(path: str):
    """The JSON document in `path` (stdin for `-`); a malformed one is an error naming the file."""
    with (sys.stdin if path == "-" else open(path, encoding="utf-8")) as f:
        try:
            return json.load(f)
        except json.JSONDecodeError as exc:
            raise ValueError(f"{'stdin' if path == '-' else path}: not valid JSON ({exc})") from None


def read_garden(path: str):
    """A Gardeners garden document; an answer of `solve`/`closest --json` ({"garden": {...}, ...}) is
    read as its garden, so `gardens solve ... --json | gardens check - ...` works."""
    doc = read_json(path)
    if isinstance(doc, dict) and "placements" not in doc and isinstance(doc.get("garden"), dict):
        return doc["garden"]
    return doc


def dumps(value, width: int = 100, _level: int = 0) -> str:
    """JSON indented by 2, with a list or object that fits on one line (`width`) written on one line: a cell
    [0, 1] or a placement {"tile": "A01", "row": 0, ...} is one line, not one per number. Parses to the same
    value as json.dumps."""
    flat = json.dumps(value, ensure_ascii=False, default=list)
    if not isinstance(value, (dict, list)) or len(flat) + 2 * _level <= width:
        return flat
    pad, inner = "  " * _level, "  " * (_level + 1)
    if isinstance(value, dict):
        items = [f"{inner}{json.dumps(str(k), ensure_ascii=False)}: {dumps(v, width, _level + 1)}"
                 for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    items = [inner + dumps(v, width, _level + 1) for v in value]
    return "[\n" + ",\n".join(items) + "\n" + pad + "]"
