"""gardens.v1.VersaillesService: thin adapters over solver.games.versailles.api (convert, call, convert back)."""
from __future__ import annotations

import re
from contextlib import contextmanager

from gardens.v1 import versailles_pb2 as pb, versailles_pb2_grpc
from server import convert
from server.runtime import Runtime
from server.services.data_files import DataFilesServicer
from solver.errors import InputError

GAME = "versailles"
SERVICE = pb.DESCRIPTOR.services_by_name["VersaillesService"].full_name
SOLVE_METHODS = ["SolveOptimal", "Hint"]
LIGHT_METHODS = ["GetDataFiles", "Validate", "Score", "ScoreGame"]
MAX_TIME_LIMIT_S = 600.0  # the engine refuses longer limits; a server cap above it must not blame the client
# With upcoming tiles the engine builds one CP-SAT model for the re-ranked placements, and the build
# and each placement's greedy continuation ignore the time limit (measured at a 1 s limit, load ~4.8:
# 1.2 s with 1 upcoming tile, 6.3 s with 11): only a few placements are re-ranked per call.
MAX_LOOKAHEAD_TOP = 5

_STATUS = {"optimal": pb.VERSAILLES_SOLVE_STATUS_OPTIMAL, "feasible": pb.VERSAILLES_SOLVE_STATUS_FEASIBLE,
           "infeasible": pb.VERSAILLES_SOLVE_STATUS_INFEASIBLE, "unknown": pb.VERSAILLES_SOLVE_STATUS_UNKNOWN,
           None: pb.VERSAILLES_SOLVE_STATUS_UNSPECIFIED}
# The engine names a garden's placements "placements" (validate, score) or "garden" (hint); on the
# wire they sit under `garden.placements`.
_PLACEMENTS = {"placements": "garden.placements"}
_HINT_GARDEN = {"garden": "garden.placements"}
_FIELD_MESSAGE = re.compile(r"^([A-Za-z_][\w.\[\]]*): (.+)$", re.S)


@contextmanager
def value_errors_under(renames: dict[str, str]):
    """Like convert.fields_under, for engines that raise plain ValueError("field: message")."""
    try:
        yield
    except InputError:
        with convert.fields_under(renames):
            raise
    except ValueError as exc:
        m = _FIELD_MESSAGE.match(str(exc))
        if m is None:
            raise
        raise InputError(rename(m.group(1), renames), m.group(2)) from exc


def rename(field: str, renames: dict[str, str]) -> str:
    head = field.split(".", 1)[0].split("[", 1)[0]
    return renames[head] + field[len(head):] if head in renames else field


def top(request: pb.VersaillesHintRequest) -> int:
    if not request.upcoming:
        return request.top or 10
    if request.top > MAX_LOOKAHEAD_TOP:
        raise InputError("top", f"at most {MAX_LOOKAHEAD_TOP} placements are re-ranked with upcoming tiles "
                                f"(0 = {MAX_LOOKAHEAD_TOP})", request.top)
    return request.top or MAX_LOOKAHEAD_TOP


def capped(control):
    """The call's SolveControl (client deadline, server cap, cancelled with the call), its time
    limit kept within what the engine accepts."""
    control.time_limit_s = min(control.time_limit_s, MAX_TIME_LIMIT_S)
    return control


# ---- requests -> domain -------------------------------------------------------------------

def placements(msg: pb.VersaillesGarden) -> list[dict]:
    return [{"tile": p.tile, "x": p.x, "y": p.y, "rotation": p.rotation} for p in msg.placements]


def game_record(request: pb.VersaillesScoreGameRequest) -> dict:
    def placement(p):
        doc = {"player": p.player, "x": p.x, "y": p.y, "rotation": p.rotation}
        if p.HasField("tile"):
            doc["tile"] = p.tile
        return doc

    def round_(r):
        doc = {"placements": [placement(p) for p in r.placements]}
        if r.cards:
            doc["cards"] = dict(r.cards)
        return doc

    def stage(s):
        doc = {"rounds": [round_(r) for r in s.rounds]}
        if s.row:
            doc["row"] = list(s.row)
        return doc

    return {"players": list(request.players), "stages": [stage(s) for s in request.stages]}


# ---- domain -> responses ------------------------------------------------------------------

def placement_msg(doc: dict) -> pb.VersaillesPlacement:
    return pb.VersaillesPlacement(tile=doc["tile"], x=doc["x"], y=doc["y"], rotation=doc.get("rotation", 0))


def areas_msg(items) -> list[pb.VersaillesArea]:
    return [pb.VersaillesArea(type=a["type"], size=a["size"]) for a in items]


def stage_score_msg(doc: dict | None) -> pb.VersaillesStageScore | None:
    if doc is None:
        return None
    return pb.VersaillesStageScore(
        areas_counted=areas_msg(doc["areas_counted"]), area_points=doc["area_points"],
        large_tokens=doc["large_tokens"], large_token_points=doc["large_token_points"],
        small_tokens=doc["small_tokens"], small_token_points=doc["small_token_points"], total=doc["total"])


def _holders(doc: dict) -> dict[str, str]:
    return {t: p for t, p in doc.items() if p is not None}


class VersaillesServicer(DataFilesServicer, versailles_pb2_grpc.VersaillesServiceServicer):
    game = GAME
    data_setting, data_keyword = "versailles_data", "catalog_path"

    def Validate(self, request, context):
        with value_errors_under(_PLACEMENTS):
            result = self._fn("validate")({"placements": placements(request.garden)}, **self.data)
        return pb.VersaillesValidateResponse(valid=result["valid"], violations=[
            pb.VersaillesViolation(index=v["index"], field=rename(v["field"], _PLACEMENTS), reason=v["reason"])
            for v in result["violations"]])

    def Score(self, request, context):
        with value_errors_under(_PLACEMENTS):
            r = self._fn("score")({"placements": placements(request.garden)}, **self.data)
        return pb.VersaillesScoreResponse(
            tiles=r["tiles"], areas=r["areas"], construction_site=r["construction_site"],
            intermediate_area_points=r["intermediate_area_points"],
            intermediate_areas=areas_msg(r["intermediate_areas"]),
            final_area_points=r["final_area_points"], final_areas=areas_msg(r["final_areas"]),
            solo_points=r["solo_points"])

    def ScoreGame(self, request, context):
        r = self._fn("score_game")(game_record(request), **self.data)
        return pb.VersaillesScoreGameResponse(
            players=[pb.VersaillesPlayerResult(player=name, intermediate=stage_score_msg(p["intermediate"]),
                                               final=stage_score_msg(p["final"]), areas=p["areas"], total=p["total"])
                     for name, p in r["players"].items()],
            large_token_holders=_holders(r["large_token_holders"]),
            small_token_winners=_holders(r["small_token_winners"]),
            transfers=[pb.VersaillesTokenTransfer(type=t["type"], to=t["to"], previous=t["from"] or "", size=t["size"],
                                                  stage=t["stage"], round=t["round"]) for t in r["transfers"]],
            winners=r["winners"], complete=r["complete"])

    def SolveOptimal(self, request, context):
        board = request.board if request.HasField("board") else None
        control = capped(self.rt.control(context))  # a cancelled or expired call stops the search
        r = self._fn("solve_optimal")(list(request.tiles), board=board, control=control, **self.data)
        msg = pb.VersaillesSolveOptimalResponse(status=_STATUS[r["status"]], points=r["points"], bound=r["bound"],
                                                board=r["board"], heuristic_points=r["heuristic_points"],
                                                counting_bound=r["counting_bound"] or 0,
                                                optimal_on_any_board=r["optimal_on_any_board"])
        if r["placements"]:
            msg.garden.placements.extend(placement_msg(p) for p in r["placements"])
        return msg

    def Hint(self, request, context):
        count = top(request)
        control = capped(self.rt.control(context))
        with value_errors_under(_HINT_GARDEN):
            follow = placements(pb.VersaillesGarden(placements=request.follow))
            r = self._fn("hint")(placements(request.garden), request.next_tile, list(request.upcoming) or None,
                                 top=count, control=control, follow=follow or None, **self.data)
        return pb.VersaillesHintResponse(tile=r["tile"], placements=[
            pb.VersaillesHintOption(placement=placement_msg(o), points=o["points"], reachable=o.get("reachable"),
                                    status=_STATUS[o.get("status")], bound=o.get("bound"),
                                    optimal_on_any_board=o.get("optimal_on_any_board", False),
                                    continuation=[placement_msg(p) for p in o.get("continuation", [])])
            for o in r["placements"]])


def register(server, runtime: Runtime) -> None:
    versailles_pb2_grpc.add_VersaillesServiceServicer_to_server(VersaillesServicer(runtime), server)
    runtime.add_service(SERVICE, solve_methods=SOLVE_METHODS, light_methods=LIGHT_METHODS)
