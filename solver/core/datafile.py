"""Loading a game's JSON data file once per path, with a precise error naming the file for a file that cannot be
read, is not UTF-8 JSON, or breaks the game's schema."""
from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from solver.errors import InputError

T = TypeVar("T")
_cache: dict[tuple[str, str], object] = {}


class DataFileError(InputError):
    """A data file refused: `field` is the path inside the file (or the file's role, e.g. "catalog", when the file
    as a whole is at fault), `file` the file; the message names both: "<file>: <field>: <what is wrong> (got ...)"."""

    def __init__(self, file: str, field: str, message: str, value: object = None, in_file: bool = True):
        super().__init__(field, message, value)
        self.file = file
        text = f"{message}" + ("" if value is None else f" (got {value!r})")
        self.args = (f"{file}: {field}: {text}" if in_file else f"{file}: {text}",)

    def __str__(self) -> str:
        return self.args[0]


def read_json(p: Path, field: str) -> object:
    """The parsed JSON document at `p`; a file that is missing, not a file, unreadable, not UTF-8 or not JSON is a
    DataFileError naming it (`field`: the file's role, kept as the error's field)."""
    try:
        raw = p.read_bytes()
    except FileNotFoundError:
        raise DataFileError(str(p), field, "file not found", in_file=False) from None
    except IsADirectoryError:
        raise DataFileError(str(p), field, "is a directory, not a JSON file", in_file=False) from None
    except OSError as exc:
        raise DataFileError(str(p), field, f"cannot be read ({exc.strerror or exc})", in_file=False) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DataFileError(str(p), field, f"not UTF-8 text (byte 0x{raw[exc.start]:02x} at offset {exc.start})",
                            in_file=False) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise DataFileError(str(p), field, f"not valid JSON ({exc})", in_file=False) from None


def load_data_file(path: str | Path | None, default: Path, field: str, parse: Callable[[object, str], T]) -> T:
    """Parse (and validate, through `parse(doc, source)`) the file at `path`, or `default`; the result
    is cached per file and parser, since catalogs are read on every request. Every error names the file."""
    p = Path(path) if path else default
    key = (str(p.resolve()), f"{parse.__module__}.{parse.__qualname__}")
    if key not in _cache:
        doc = read_json(p, field)
        try:
            _cache[key] = parse(doc, str(p))
        except DataFileError:
            raise
        except InputError as exc:
            raise DataFileError(str(p), exc.field, exc.description, exc.value) from None
    return _cache[key]  # type: ignore[return-value]


def check_top_level(doc, list_key: str, keys: set[str], schema: str, what: str) -> None:
    """A Gardeners data file's top level: an object holding the list `list_key`, no key but `keys` and notes (names
    starting with "_"), and a `schema` (when given) of the version this code reads. `what`: "card file" ..."""
    if not isinstance(doc, dict) or not isinstance(doc.get(list_key), list):
        raise InputError(list_key, f"a {what} is an object with a list '{list_key}'")
    unknown = {k for k in doc if not k.startswith("_")} - keys
    if unknown:
        raise InputError(sorted(unknown)[0], f"unknown key; a {what} has {sorted(keys)} and notes whose names start "
                                             "with '_'")
    if "schema" in doc and doc["schema"] != schema:
        raise InputError("schema", f"this version reads {what}s of schema {schema!r}", doc["schema"])


def refuse_unknown_keys(obj: dict, allowed: tuple[str, ...], where: str) -> None:
    """Refuse a key `obj` (at field path `where`, "" for a file's top level) does not know: a misspelt key would be
    silently ignored. A key starting with "_" is a note for people, like "_reference"."""
    unknown = sorted(k for k in obj if not k.startswith("_") and k not in allowed)
    if unknown:
        raise InputError(f"{where}.{unknown[0]}" if where else unknown[0],
                         f"unknown key; expected {', '.join(allowed)} (or a note whose name starts with '_')")


def named(value: object, names) -> object:
    """`value`, or the one name of `names` it spells in another letter case ("a" for a sheet side named "A"): the
    games name their sides in different cases (Gartenbau's starter sides "a"/"b", Horticulture's sheets "A"/"B"),
    and a client writing one game's way was refused by the other (the client walkthrough of 7 Dec). Anything else
    is returned as it is, for the caller to refuse."""
    if not isinstance(value, str) or value in names:
        return value
    same = [n for n in names if isinstance(n, str) and n.casefold() == value.casefold()]
    return same[0] if len(same) == 1 else value
