"""Daily puzzles generated once per test run, shared by the xdist workers (generation runs a proof of optimality,
~10-20 s for a Gartenbau holding; several test modules check the same puzzle: before 7 Dec the easy holding of
2027-01-01 was generated seven times a run).

`generated(pid)` is the puzzle `daily.generate` makes for `pid`, made once: the first worker to ask generates it under
a lock of that id and stores it in a real SQLite store in the run's shared temporary directory (tests/conftest.py sets
`SHARED`), the others read it from there. A test whose subject is generation itself (same id, same puzzle; a fresh
generation matches the stored one) still calls `daily.generate`."""
from __future__ import annotations

import functools
from pathlib import Path

from filelock import FileLock

from generators import daily
from generators.identity import parse_id
from generators.store import Puzzle, Store

SHARED: Path | None = None  # a directory every worker of this run sees; None: made in this process only


@functools.lru_cache(maxsize=None)
def generated(pid: str) -> Puzzle:
    if SHARED is None:
        return daily.generate(parse_id(pid))
    with FileLock(SHARED / f"dailies-{pid.replace('/', '_')}.lock"):
        store = Store(SHARED / "dailies.sqlite")
        return store.get(parse_id(pid)) or store.put(daily.generate(parse_id(pid)))


def seed(path: str | Path, *pids: str) -> None:
    """Puts the puzzles of `pids` into the store at `path` (a server's), as if generated there before."""
    store = Store(path)
    for pid in pids:
        store.put(generated(pid))
