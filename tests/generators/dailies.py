"""Daily puzzles generated once per test session (generation runs a proof of optimality; several
test modules check the same puzzle)."""
from __future__ import annotations

import functools

from generators import daily
from generators.identity import parse_id
from generators.store import Puzzle


@functools.lru_cache(maxsize=None)
def generated(pid: str) -> Puzzle:
    return daily.generate(parse_id(pid))
