"""Reading the command line's JSON inputs: a file, or stdin for `-`."""
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
