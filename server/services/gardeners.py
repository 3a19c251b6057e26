"""gardens.v1.GardenersService: thin adapters over solver.games.gardeners.api (convert, call, convert back)."""
from __future__ import annotations

from gardens.v1 import gardeners_pb2, gardeners_pb2_grpc
from server import convert
from server.runtime import Runtime

GAME = "gardeners"
SERVICE = gardeners_pb2.DESCRIPTOR.services_by_name["GardenersService"].full_name
SOLVE_METHODS = ["Solve", "CheckSolvable", "ClosestSolution", "CountSolutions"]
LIGHT_METHODS = ["ListTiles", "ListCards", "CheckGarden", "ListLegalMoves", "ValidateMove"]

_GARDEN = {"garden": "garden", "placements": "garden.placements", "size": "garden.size"}
_CARDS = {"card_ids": "card_ids", "mode": "mode"}


class GardenersServicer(gardeners_pb2_grpc.GardenersServiceServicer):
    def __init__(self, runtime: Runtime):
        self.rt = runtime
        self.config = runtime.config

    def _fn(self, name: str):
        return self.rt.function(GAME, name)

    def _catalog(self) -> dict:
        # The server's configured data files (flags/env); empty = the reference catalogs.
        out = {}
        if self.config.tiles_file:
            out["catalog"] = self.config.tiles_file
        return out

    def ListTiles(self, request, context):
        tiles = self._fn("list_tiles")(**self._catalog())
        return gardeners_pb2.ListTilesResponse(tiles=[convert.tile_msg(t) for t in tiles])

    def ListCards(self, request, context):
        with convert.fields_under({}):
            cards = self._fn("list_cards")(deck=request.deck or None)
        return gardeners_pb2.ListCardsResponse(cards=[convert.card_msg(c) for c in cards])

    def CheckGarden(self, request, context):
        args = (convert.garden(request.garden, self.config), convert.card_ids(request.card_ids, self.config),
                convert.mode(request.mode))
        with convert.fields_under({**_GARDEN, **_CARDS}):
            report = self._fn("check_garden")(*args)
        return gardeners_pb2.CheckGardenResponse(
            complete=report.complete, valid=report.valid,
            verdicts=[convert.verdict_msg(v) for v in report.verdicts])

    def Solve(self, request, context):
        args = (convert.card_ids(request.card_ids, self.config), convert.mode(request.mode))
        control = self.rt.control(context)
        with convert.fields_under(_CARDS):
            result = self._fn("solve")(*args, control=control)
        return gardeners_pb2.SolveResponse(verdict=convert.solvability(result.verdict),
                                           garden=convert.garden_msg(result.garden))

    def CheckSolvable(self, request, context):
        args = (convert.card_ids(request.card_ids, self.config), convert.mode(request.mode))
        control = self.rt.control(context)
        with convert.fields_under(_CARDS):
            result = self._fn("check_solvable")(*args, control=control)
        return gardeners_pb2.CheckSolvableResponse(
            verdict=convert.solvability(result.verdict), witness=convert.garden_msg(result.witness),
            conflicts=convert.card_sets(result.conflicts), conflicts_complete=result.conflicts_complete,
            discard_sets=convert.card_sets(result.discard_sets))

    def ClosestSolution(self, request, context):
        args = (convert.garden(request.garden, self.config), convert.card_ids(request.card_ids, self.config),
                convert.mode(request.mode))
        control = self.rt.control(context)
        with convert.fields_under({**_GARDEN, **_CARDS}):
            result = self._fn("closest_solution")(*args, control=control)
        return gardeners_pb2.ClosestSolutionResponse(
            verdict=convert.solvability(result.verdict), garden=convert.garden_msg(result.garden),
            changed_cells=[convert.cell(c) for c in result.changed_cells], optimal=result.optimal)

    def CountSolutions(self, request, context):
        args = (convert.card_ids(request.card_ids, self.config), convert.mode(request.mode),
                convert.count_cap(request.cap, self.config))
        control = self.rt.control(context)
        with convert.fields_under(_CARDS):
            result = self._fn("count_solutions")(*args, control=control)
        return gardeners_pb2.CountSolutionsResponse(count=result.count, exact=result.exact)

    def ListLegalMoves(self, request, context):
        state = convert.game_state(request.state, self.config)
        with convert.fields_under({}):
            moves = self._fn("legal_moves")(state)
        return gardeners_pb2.ListLegalMovesResponse(moves=[convert.move_msg(m) for m in moves])

    def ValidateMove(self, request, context):
        state, move = convert.game_state(request.state, self.config), convert.move(request.move)
        with convert.fields_under({}):
            result = self._fn("validate_move")(state, move)
        return gardeners_pb2.ValidateMoveResponse(legal=result.legal, reason=result.reason or "")


def register(server, runtime: Runtime) -> None:
    gardeners_pb2_grpc.add_GardenersServiceServicer_to_server(GardenersServicer(runtime), server)
    runtime.add_service(SERVICE, solve_methods=SOLVE_METHODS, light_methods=LIGHT_METHODS)
