"""Puzzle identity (game/variant/difficulty/date) and the seed derived from it and the generator version."""
from __future__ import annotations

import datetime as dt
import hashlib
import re
from dataclasses import dataclass

from solver.errors import InputError

# Bump when a code change may change any generated puzzle: stored puzzles keep the version that
# made them and are never regenerated, so yesterday's puzzle survives the change.
GENERATOR_VERSION = "gardeners-2"  # 2 (7 Dec 2026): Agglomeration counts elements, not tiles

_PART = re.compile(r"^[a-z][a-z0-9-]{0,31}$")


@dataclass(frozen=True, order=True)
class PuzzleId:
    game: str
    variant: str
    difficulty: str
    date: dt.date

    def __str__(self) -> str:
        return f"{self.game}/{self.variant}/{self.difficulty}/{self.date.isoformat()}"


_ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def parse_date(text, field: str = "date") -> dt.date:
    if isinstance(text, dt.date):
        return text
    # fromisoformat alone (Python 3.11+) also takes 20261201 and week dates such as 2026-W49-2
    if not _ISO_DATE.fullmatch(str(text)):
        raise InputError(field, "must be a calendar date YYYY-MM-DD", text)
    try:
        return dt.date.fromisoformat(str(text))
    except ValueError:
        raise InputError(field, "must be a calendar date YYYY-MM-DD", text) from None


def parse_id(text: str, field: str = "puzzle_id") -> PuzzleId:
    parts = str(text).split("/")
    if len(parts) != 4:
        raise InputError(field, "must look like game/variant/difficulty/YYYY-MM-DD", text)
    for name, part in zip(("game", "variant", "difficulty"), parts[:3]):
        if not _PART.match(part):
            raise InputError(field, f"bad {name} {part!r}", text)
    return PuzzleId(parts[0], parts[1], parts[2], parse_date(parts[3], field))


def seed_of(pid: PuzzleId, version: str = GENERATOR_VERSION) -> int:
    """A 64-bit seed from the identity and the generator version (sha256: the same on every machine
    and Python version, unlike hash())."""
    digest = hashlib.sha256(f"{pid}#{version}".encode()).digest()
    return int.from_bytes(digest[:8], "big")
