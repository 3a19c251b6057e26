"""Game modes: garden size and which tile sets they use (rulebook: Training A/B/C, Beginner, Normal, Solo)."""
from __future__ import annotations

from dataclasses import dataclass

from solver.errors import InputError


@dataclass(frozen=True)
class Mode:
    name: str
    size: int
    tile_sets: str
    deck: str  # the deck of constraint cards the mode plays with


MODES = {
    "training-a": Mode("training-a", 4, "A", "training-a"),
    "training-b": Mode("training-b", 5, "AB", "training-b"),
    "training-c": Mode("training-c", 6, "ABC", "training-c"),
    "beginner": Mode("beginner", 6, "ABC", "standard"),
    "normal": Mode("normal", 6, "ABC", "standard"),
    "solo": Mode("solo", 6, "ABC", "standard"),
}


def get_mode(name: str | None, field: str = "mode") -> Mode:
    if not name:
        return MODES["normal"]
    try:
        return MODES[name]
    except KeyError:
        raise InputError(field, f"unknown mode; one of {sorted(MODES)}", name) from None
