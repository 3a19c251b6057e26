"""Loading a game's JSON data file once per path, with a precise error for a file that is not JSON."""
from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from solver.errors import InputError

T = TypeVar("T")
_cache: dict[tuple[str, str], object] = {}


def load_data_file(path: str | Path | None, default: Path, field: str, parse: Callable[[object, str], T]) -> T:
    """Parse (and validate, through `parse(doc, source)`) the file at `path`, or `default`; the result
    is cached per file and parser, since catalogs are read on every request."""
    p = Path(path) if path else default
    key = (str(p.resolve()), f"{parse.__module__}.{parse.__qualname__}")
    if key not in _cache:
        try:
            doc = json.loads(p.read_text())
        except json.JSONDecodeError as exc:
            raise InputError(field, f"{p} is not valid JSON: {exc}") from None
        _cache[key] = parse(doc, str(p))
    return _cache[key]  # type: ignore[return-value]
