"""gardens.v1.GardenersService: thin adapters over solver.games.gardeners.api (convert, call, convert back)."""
from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

from gardens.v1 import gardeners_pb2, gardeners_pb2_grpc
from generators import atlas
from generators.store import Store, StoreDamaged, StoreError
from server import convert
from server.errors import Told
from server.runtime import GameServicer, Runtime
from server.services.puzzles import settings_for

log = logging.getLogger("gardens.server")

GAME = "gardeners"
SERVICE = gardeners_pb2.DESCRIPTOR.services_by_name["GardenersService"].full_name
SOLVE_METHODS = ["Solve", "CheckSolvable", "ClosestSolution", "CountSolutions"]
LIGHT_METHODS = ["ListTiles", "ListCards", "CheckGarden", "ListLegalMoves", "ValidateMove"]

ATLAS_BUSY_S = 0.25  # the atlas is a cache: a store locked by another process longer than this is a miss

# The domain names garden fields relative to the garden; on the wire they sit under `garden`.
_GARDEN = {"garden": "garden", "placements": "garden.placements", "size": "garden.size"}


class GardenersServicer(GameServicer, gardeners_pb2_grpc.GardenersServiceServicer):
    game = GAME

    def __init__(self, runtime: Runtime):
        super().__init__(runtime)
        config = self.config
        # The server's data files (flags/env); None = the reference catalogs shipped with the solver.
        self.tiles = {"catalog": config.tiles_file or None}
        self.data = {"catalog": config.tiles_file or None, "cards": config.cards_file or None}
        self._atlas_store: Store | None = None  # opened once the puzzle store's file exists
        self._atlas_told = Told()  # the atlas failures logged (each once, until it reads again)

    def check_data_files(self) -> None:
        """Loads the configured data files once, so a broken file stops the server at start-up
        instead of failing every call with an error that blames the client."""
        for flag, fn, kwargs in ((self.config.name_of("tiles_file"), "list_tiles", self.tiles),
                                 (self.config.name_of("cards_file"), "list_cards", {"cards": self.data["cards"]})):
            path = next(iter(kwargs.values()))
            if path:
                try:
                    self._fn(fn)(**kwargs)
                except (ValueError, OSError) as exc:
                    # (the loaders' messages start with the file: not twice)
                    text = str(exc)
                    raise ValueError(f"{flag}: {text}" if text.startswith(str(path)) else f"{flag} {path}: {text}") \
                        from None

    def ListTiles(self, request, context):
        tiles = self._fn("list_tiles")(**self.tiles)
        return gardeners_pb2.ListTilesResponse(tiles=[convert.tile_msg(t) for t in tiles])

    def ListCards(self, request, context):
        cards = self._fn("list_cards")(request.deck or None, cards=self.data["cards"])
        return gardeners_pb2.ListCardsResponse(cards=[convert.card_msg(c) for c in cards])

    def CheckGarden(self, request, context):
        args = (convert.garden(request.garden, self.config), convert.card_ids(request.card_ids, self.config),
                convert.mode(request.mode))
        with convert.fields_under(_GARDEN):
            report = self._fn("check_garden")(*args, **self.data)
        return gardeners_pb2.CheckGardenResponse(
            complete=report.complete, valid=report.valid,
            verdicts=[convert.verdict_msg(v) for v in report.verdicts])

    def Solve(self, request, context):
        args = (convert.card_ids(request.card_ids, self.config), convert.mode(request.mode))
        result = self._fn("solve")(*args, control=self.rt.control(context), **self.data)
        return gardeners_pb2.SolveResponse(verdict=convert.solvability(result.verdict),
                                           garden=convert.garden_msg(result.garden), reason=result.reason)

    def _atlas(self) -> Store | None:
        """The puzzle store holding the solvability atlas (`gardens atlas build`), if there is one.
        Opened as a cache: it never creates or initialises the file (the puzzle service does), and
        a read waits ATLAS_BUSY_S at most for another process's lock."""
        if self._atlas_store is None:
            path = Path(settings_for(self.config).db)
            if path.is_file():
                self._atlas_store = Store(path, create=False, busy_s=ATLAS_BUSY_S)
        return self._atlas_store

    def _atlas_lookup(self, args):
        """The atlas's answer, or None: then the engine answers. The atlas is a cache of the
        engine's answers, so a damaged row is not one, nor is a store that cannot be read now (any
        SQLite failure: locked, damaged, removed, replaced); each kind of failure is logged once
        (no trace, not once per call) until the atlas reads again."""
        try:
            result = atlas.lookup(*args, store=self._atlas(), **self.data)
        except StoreDamaged as exc:
            self._atlas_failed(str(exc), "atlas row damaged, asking the engine instead: %s", exc)
            return None
        except (StoreError, sqlite3.DatabaseError) as exc:
            self._atlas_failed(getattr(exc, "sqlite_errorname", "") or str(exc),
                               "atlas in the puzzle store %s cannot be read (%s): CheckSolvable asks the engine "
                               "instead until it can", settings_for(self.config).db, exc)
            return None
        if self._atlas_told.clear():
            log.info("atlas readable again: CheckSolvable answers from it")
        return result

    def _atlas_failed(self, kind: str, message: str, *args) -> None:
        (log.error if self._atlas_told.first(kind) else log.debug)(message, *args)

    def CheckSolvable(self, request, context):
        args = (convert.card_ids(request.card_ids, self.config), convert.mode(request.mode))
        # Pairs and triples of the Standard deck are answered from the atlas when it holds them for
        # the data files in use (same digest); everything else goes to the engine.
        result = self._atlas_lookup(args)
        if result is None:
            result = self._fn("check_solvable")(*args, control=self.rt.control(context), **self.data)
        return gardeners_pb2.CheckSolvableResponse(
            verdict=convert.solvability(result.verdict), witness=convert.garden_msg(result.garden),
            conflicts=convert.card_sets(result.conflicts), conflicts_complete=result.complete,
            discard_sets=convert.card_sets(result.discards), unknown_subsets=result.unknown_subsets,
            discard_sets_complete=result.discards_complete)

    def ClosestSolution(self, request, context):
        args = (convert.garden(request.garden, self.config), convert.card_ids(request.card_ids, self.config),
                convert.mode(request.mode))
        with convert.fields_under(_GARDEN):
            result = self._fn("closest_solution")(*args, control=self.rt.control(context), **self.data)
        return gardeners_pb2.ClosestSolutionResponse(
            verdict=convert.closest_verdict(result.verdict), garden=convert.garden_msg(result.garden),
            kept=result.kept, changed=result.changed, optimal=result.verdict == "optimal",
            kept_bound=result.bound)

    def CountSolutions(self, request, context):
        args = (convert.card_ids(request.card_ids, self.config), convert.mode(request.mode),
                convert.count_cap(request.cap, self.config))
        result = self._fn("count_solutions")(*args, control=self.rt.control(context), **self.data)
        return gardeners_pb2.CountSolutionsResponse(count=result.count, exact=result.complete)

    def ListLegalMoves(self, request, context):
        moves = self._fn("legal_moves")(convert.game_state(request.state, self.config), **self.tiles)
        return gardeners_pb2.ListLegalMovesResponse(moves=[convert.move_msg(m) for m in moves])

    def ValidateMove(self, request, context):
        state, move = convert.game_state(request.state, self.config), convert.move(request.move)
        result = self._fn("validate_move")(state, move, **self.tiles)
        return gardeners_pb2.ValidateMoveResponse(legal=result.legal, reason=result.reason or "")


def register(server, runtime: Runtime) -> None:
    servicer = GardenersServicer(runtime)
    servicer.check_data_files()
    gardeners_pb2_grpc.add_GardenersServiceServicer_to_server(servicer, server)
    runtime.add_service(SERVICE, solve_methods=SOLVE_METHODS, light_methods=LIGHT_METHODS)
