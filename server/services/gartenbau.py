"""gardens.v1.GartenbauService: thin adapters over solver.games.gartenbau.api (convert, call, convert back)."""
from __future__ import annotations

from gardens.v1 import common_pb2, gartenbau_pb2 as pb, gartenbau_pb2_grpc
from server import convert
from server.runtime import Runtime
from server.services.data_files import DataFilesServicer
from solver.errors import InputError
from solver.games.gartenbau.garden import MAX_FLOWERS_HELD

GAME = "gartenbau"
SERVICE = pb.DESCRIPTOR.services_by_name["GartenbauService"].full_name
SOLVE_METHODS = ["SolveOptimal", "Hint"]
LIGHT_METHODS = ["GetDataFiles", "Validate", "Score"]
MAX_BOARD = 24  # a board is a model of board^2 spaces: capped before any model is built
# What one search may be asked to place, checked before any model is built: building the model
# ignores the deadline and alone took ~10 s for 24 seedling tiles, 12 plants and 6 flowers (2-core
# machine). A hand holds 5 or 6 flowers (8 while drafting in a 2-player game: the engine's own cap).
MAX_TILES = {"seedlings": 24, "plants": 24, "flowers": MAX_FLOWERS_HELD}

_STATUS = {"optimal": pb.GARTENBAU_SOLVE_STATUS_OPTIMAL, "feasible": pb.GARTENBAU_SOLVE_STATUS_FEASIBLE,
           "infeasible": pb.GARTENBAU_SOLVE_STATUS_INFEASIBLE, "unknown": pb.GARTENBAU_SOLVE_STATUS_UNKNOWN}


# ---- requests -> domain -------------------------------------------------------------------

def _cells(cells) -> list[list[int]]:
    return [[c.row, c.col] for c in cells]


def _tokens(msg: pb.GartenbauTokens) -> dict:
    # Only the tokens the client set: the engine's default (unused) fills the rest.
    return {name: getattr(msg, name) for name in ("flower_pot", "watering_can") if msg.HasField(name)}


def garden(msg: pb.GartenbauGarden) -> dict:
    doc = {
        "starter": {"id": msg.starter.id, "side": msg.starter.side, "cells": _cells(msg.starter.cells)},
        "seedlings": [{"id": t.id, "cells": _cells(t.cells)} for t in msg.seedlings],
        "plants": [{"id": p.id, "cells": _cells(p.cells)} for p in msg.plants],
        "flowers": [{"id": f.id, "at": [f.at.row, f.at.col] if f.HasField("at") else None} for f in msg.flowers],
    }
    tokens = _tokens(msg.tokens)
    if tokens:
        doc["tokens"] = tokens
    return doc


def holding(msg: pb.GartenbauHolding) -> dict:
    return {"starter": {"id": msg.starter, "side": msg.side}, "seedlings": list(msg.seedlings),
            "plants": list(msg.plants), "flowers": list(msg.flowers), "tokens": _tokens(msg.tokens)}


def capped(doc: dict, field: str, garden: dict | None = None) -> dict:
    """`doc`'s tile lists (plus the garden's tiles, for a hint) within MAX_TILES."""
    for kind, most in MAX_TILES.items():
        count = len(doc[kind]) + len(garden[kind] if garden else ())
        if count > most:
            where = " together with the garden's" if garden else ""
            raise InputError(f"{field}.{kind}", f"at most {most} {kind}{where} per search", count)
    return doc


def board(request) -> int | None:
    if not request.HasField("board"):
        return None
    if not 2 <= request.board <= MAX_BOARD:
        raise InputError("board", f"must be from 2 to {MAX_BOARD} spaces per side", request.board)
    return request.board


# ---- domain -> responses ------------------------------------------------------------------

def _cell_msgs(cells) -> list[common_pb2.Cell]:
    return [convert.cell(c) for c in cells]


def garden_msg(doc: dict) -> pb.GartenbauGarden:
    st = doc["starter"]
    return pb.GartenbauGarden(
        starter=pb.GartenbauStarter(id=st["id"], side=st["side"], cells=_cell_msgs(st["cells"])),
        seedlings=[pb.GartenbauDomino(id=t["id"], cells=_cell_msgs(t["cells"])) for t in doc["seedlings"]],
        plants=[pb.GartenbauDomino(id=p["id"], cells=_cell_msgs(p["cells"])) for p in doc["plants"]],
        flowers=[pb.GartenbauFlower(id=f["id"], at=convert.cell(f["at"])) for f in doc["flowers"]],
        tokens=pb.GartenbauTokens(**doc["tokens"]))


def score_msg(doc: dict) -> pb.GartenbauScore:
    return pb.GartenbauScore(total=doc["total"], flowers=doc["flowers"], plants=doc["plants"], tokens=doc["tokens"],
                             flowers_placed=doc["flowers_placed"], plants_showing=doc["plants_showing"])


def placement_msg(doc: dict) -> pb.GartenbauTilePlacement:
    msg = pb.GartenbauTilePlacement(id=doc["id"], cells=_cell_msgs(doc.get("cells", ())))
    if doc.get("at") is not None:
        msg.at.CopyFrom(convert.cell(doc["at"]))
    return msg


class GartenbauServicer(DataFilesServicer, gartenbau_pb2_grpc.GartenbauServiceServicer):
    game = GAME
    data_setting, data_keyword = "gartenbau_data", "catalog_dir"

    def Validate(self, request, context):
        result = self._fn("validate")(garden(request.garden), **self.data)
        return pb.GartenbauValidateResponse(
            legal=result["legal"],
            violations=[pb.GartenbauViolation(rule=v["rule"], message=v["message"]) for v in result["violations"]])

    def Score(self, request, context):
        result = self._fn("score")(garden(request.garden), **self.data)
        return pb.GartenbauScoreResponse(score=score_msg(result), tie_break=result["tie_break"])

    def SolveOptimal(self, request, context):
        doc, size = capped(holding(request.holding), "holding"), board(request)
        result = self._fn("solve_optimal")(doc, board=size, seed=self.config.seed, control=self.rt.control(context),
                                           **self.data)
        msg = pb.GartenbauSolveOptimalResponse(status=_STATUS[result["status"]], board=result["board"],
                                               prestige=result["prestige"], bound=result["bound"])
        if result.get("garden") is not None:
            msg.garden.CopyFrom(garden_msg(result["garden"]))
            msg.score.CopyFrom(score_msg(result["score"]))
            msg.picture = result["picture"]
        return msg

    def Hint(self, request, context):
        current = garden(request.garden)
        known = capped({"seedlings": list(request.known.seedlings), "plants": list(request.known.plants),
                        "flowers": list(request.known.flowers)}, "known", current)
        margin = request.margin if request.HasField("margin") else 2
        top = request.top if request.HasField("top") else None
        follow = garden(request.follow) if request.HasField("follow") else None
        result = self._fn("hint")(current, request.tile, known, margin=margin, seed=self.config.seed,
                                  control=self.rt.control(context), top=top, follow=follow, **self.data)
        return pb.GartenbauHintResponse(tile=result["tile"], options=[
            pb.GartenbauHintOption(placement=placement_msg(o["placement"]), status=_STATUS[o["status"]],
                                   prestige=o["prestige"], bound=o["bound"],
                                   garden=garden_msg(o["garden"]) if o.get("garden") else None)
            for o in result["options"]])


def register(server, runtime: Runtime) -> None:
    gartenbau_pb2_grpc.add_GartenbauServiceServicer_to_server(GartenbauServicer(runtime), server)
    runtime.add_service(SERVICE, solve_methods=SOLVE_METHODS, light_methods=LIGHT_METHODS)
