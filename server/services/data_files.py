"""What the Gartenbau, Versailles and Horticulture servicers share about their data files: the directory the
server was given (--gartenbau-data, ...), loaded once at start-up and handed to every domain call, and
GetDataFiles's answer (the files in use, with the digest their daily puzzles carry)."""
from __future__ import annotations

import importlib

from generators import daily
from generators.data import GameData
from server import convert
from server.runtime import GameServicer, Runtime


class DataFilesServicer(GameServicer):
    """A game servicer on a data directory. A subclass names the ServerConfig field of the directory
    (`data_setting`) and the keyword its domain functions take the loaded catalog by (`data_keyword`)."""

    data_setting: str
    data_keyword: str

    def __init__(self, runtime: Runtime):
        super().__init__(runtime)
        module = importlib.import_module(f"solver.games.{self.game}.data")
        path = getattr(self.config, self.data_setting)
        catalog = None
        if path:  # a broken directory stops the server, with the flag, the path and what is wrong
            try:
                catalog = module.load_catalog(path)
            except (ValueError, OSError) as exc:
                raise ValueError(f"{self.config.name_of(self.data_setting)} {path}: {exc}") from None
        self.data = {self.data_keyword: catalog}  # None: the reference data
        # read once: the files validated above (or the reference ones)
        self.files = convert.data_files(path or module.DATA_DIR, daily.digest_of(self.game, GameData.of(self.config)))

    def GetDataFiles(self, request, context):
        return self.files
