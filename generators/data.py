"""The data files daily puzzles are made and checked with: the server's (--tiles-file, --cards-file,
--gartenbau-data, ...) or, for each one left unset (None), the reference data shipped with the solver.

A puzzle stores the digest of the data it was made with (`Puzzle.catalog_digest`); one made with other data is
not served or checked under this data (daily.StaleData), because its answer may not hold here."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class GameData:
    tiles: str | None = None          # Gardeners tile catalog file
    cards: str | None = None          # Gardeners card decks file
    gartenbau: str | None = None      # directories laid out as solver/data/<game>
    versailles: str | None = None
    horticulture: str | None = None

    @classmethod
    def of(cls, config) -> "GameData":
        """The data files of a server configuration (empty settings: the reference data)."""
        return cls(config.tiles_file or None, config.cards_file or None, config.gartenbau_data or None,
                   config.versailles_data or None, config.horticulture_data or None)


REFERENCE = GameData()
