"""The command line's JSON: reading inputs (a file, or stdin for `-`) and printing answers."""
from __future__ import annotations

import json
import sys


_stdin = {"read_by": None}  # the option or argument that read stdin in this command (reset by main())


def reset_stdin() -> None:
    _stdin["read_by"] = None


def read_json(path: str, what: str = "input"):
    """The JSON document in `path` (stdin for `-`); a malformed one (or one that is not UTF-8) is an error naming
    the file. Stdin is read once per command: a second `-` (`hint - --supplies -`) is an error naming both
    (was "I/O operation on closed file")."""
    name = "stdin" if path == "-" else path
    try:
        if path == "-":
            if _stdin["read_by"] is not None:
                raise ValueError(f"{what}: only one input can come from stdin (-); {_stdin['read_by']} "
                                 f"already reads it: give {what} as a file")
            _stdin["read_by"] = what
            return json.loads(sys.stdin.read())
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except json.JSONDecodeError as exc:
        raise ValueError(f"{name}: not valid JSON ({exc})") from None
    except UnicodeDecodeError as exc:
        raise ValueError(f"{name}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None


def read_garden(path: str, what: str = "garden"):
    """A Gardeners garden document; an answer of `solve`/`closest --json` ({"garden": {...}, ...}) is
    read as its garden, so `gardens solve ... --json | gardens check - ...` works."""
    doc = read_json(path, what)
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


def seconds(text: str) -> float:
    """An argparse type for a duration: a finite number of seconds > 0 (a deadline of -1 or nan was sent and came
    back DEADLINE_EXCEEDED; a time limit of -1 reached the engine and was refused as time_limit_s)."""
    import argparse
    import math

    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"must be a number of seconds > 0 (got {text})")
    return value


def integer(low: int | None = None, high: int | None = None):
    """An argparse type for an integer from `low` to `high` (either end open when None): an out-of-range value is
    refused by the option's name (argparse: "argument --cap: must be ...") instead of being used as given."""
    import argparse

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
        if (low is not None and value < low) or (high is not None and value > high):
            span = (f"from {low} to {high}" if low is not None and high is not None else
                    f">= {low}" if low is not None else f"<= {high}")
            raise argparse.ArgumentTypeError(f"must be an integer {span} (got {value})")
        return value
    parse.__name__ = "integer"
    return parse
