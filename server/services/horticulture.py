"""gardens.v1.HorticultureService: thin adapters over solver.games.horticulture.api (convert, call, convert back)."""
from __future__ import annotations

from gardens.v1 import common_pb2, horticulture_pb2 as pb, horticulture_pb2_grpc
from server.runtime import Runtime
from server.services.data_files import DataFilesServicer
from server.services.versailles import value_errors_under
from solver.errors import InputError

GAME = "horticulture"
SERVICE = pb.DESCRIPTOR.services_by_name["HorticultureService"].full_name
SOLVE_METHODS = ["SolveOptimal", "SolveBestPlan", "Hint"]
LIGHT_METHODS = ["GetDataFiles", "ValidatePath", "Validate", "Score"]
WINDOW = "window"  # the engine's name for the window box as a planting place

_STATUS = {"optimal": pb.HORTICULTURE_SOLVE_STATUS_OPTIMAL, "feasible": pb.HORTICULTURE_SOLVE_STATUS_FEASIBLE,
           "infeasible": pb.HORTICULTURE_SOLVE_STATUS_INFEASIBLE, "unknown": pb.HORTICULTURE_SOLVE_STATUS_UNKNOWN}
_RANKING = {"final_score": pb.HORTICULTURE_HINT_RANKING_FINAL_SCORE, "estimate": pb.HORTICULTURE_HINT_RANKING_ESTIMATE}
# The engine names the known rest of the nursery `future`; on the wire it is `future.cards`.
_FUTURE = {"future": "future.cards"}


# ---- requests -> domain (squares are [column, row] in the engine) --------------------------

def square(cell: common_pb2.Cell) -> list[int]:
    return [cell.col, cell.row]


def path(msg: pb.HorticulturePath) -> dict:
    return {"start": msg.start, "moves": msg.moves}


def plan(msg: pb.HorticulturePlan) -> dict:
    return {"border": msg.border, "path": msg.path, "companions": list(msg.companions)}


def planting(msg: pb.HorticulturePlanting) -> dict:
    where = msg.WhichOneof("location")
    at = square(msg.at) if where == "at" else WINDOW if where == "window_box" and msg.window_box else None
    return {"plant": msg.plant, "at": at}


def days(msgs) -> list[dict]:
    out = []
    for d in msgs:
        doc = {"chosen": d.chosen, "plants": [planting(p) for p in d.plants]}
        if d.cards:
            doc["cards"] = list(d.cards)
        out.append(doc)
    return out


def setup(request, fields=("side", "path", "gnome", "plan")) -> dict:
    """The setup fields of a request; an unset message stays None so the engine names it."""
    doc = {}
    for name in fields:
        if name == "side":
            doc["side"] = request.side
        else:
            to_domain = {"path": path, "gnome": square, "plan": plan}[name]
            doc[name] = to_domain(getattr(request, name)) if request.HasField(name) else None
    return doc


# ---- domain -> responses ------------------------------------------------------------------

def cell_msg(value) -> common_pb2.Cell:
    col, row = value
    return common_pb2.Cell(row=row, col=col)


def planting_msg(doc: dict) -> pb.HorticulturePlanting:
    if doc["at"] == WINDOW:
        return pb.HorticulturePlanting(plant=doc["plant"], window_box=True)
    return pb.HorticulturePlanting(plant=doc["plant"], at=cell_msg(doc["at"]))


def day_msg(doc: dict) -> pb.HorticultureDay:
    return pb.HorticultureDay(chosen=doc["chosen"], cards=doc.get("cards") or [],
                              plants=[planting_msg(p) for p in doc["plants"]])


def score_msg(doc: dict | None) -> pb.HorticultureScore | None:
    if doc is None:
        return None
    return pb.HorticultureScore(
        groups={p: pb.HorticultureGroupScore(sizes=g["sizes"], complete=g["complete"], points=g["points"])
                for p, g in doc["groups"].items()},
        groups_total=doc["groups_total"], gnome=doc["gnome"], window_box=doc["window_box"],
        plan=pb.HorticulturePlanScore(**doc["plan"]), total=doc["total"], title=doc["title"])


def violations_msg(items) -> list[pb.HorticultureViolation]:
    return [pb.HorticultureViolation(where=v["where"], reason=v["reason"]) for v in items]


def solution_fields(r: dict) -> dict:
    """The fields SolveOptimal and SolveBestPlan answers share (every day names its two cards: the engine's answer)."""
    return {"status": _STATUS[r["status"]], "score": r["score"], "bound": r["bound"],
            "days": [day_msg(d) for d in r["days"]],
            "gnome": cell_msg(r["gnome"]) if r.get("gnome") is not None else None,
            "plan": pb.HorticulturePlan(**r["plan"]) if r.get("plan") is not None else None,
            "score_sheet": score_msg(r.get("score_sheet"))}


class HorticultureServicer(DataFilesServicer, horticulture_pb2_grpc.HorticultureServiceServicer):
    game = GAME
    data_setting, data_keyword = "horticulture_data", "catalog"

    def ValidatePath(self, request, context):
        r = self._fn("validate_path")(setup(request, ("side", "path")), **self.data)
        return pb.HorticultureValidatePathResponse(legal=r["legal"], complete=r["complete"],
                                                   violations=violations_msg(r["violations"]),
                                                   next_directions=r["next_directions"])

    def Validate(self, request, context):
        doc = dict(setup(request), days=days(request.days), nursery=list(request.nursery) or None)
        r = self._fn("validate")(doc, **self.data)
        return pb.HorticultureValidateResponse(legal=r["legal"], violations=violations_msg(r["violations"]),
                                               score=score_msg(r.get("score")))

    def Score(self, request, context):
        doc = setup(request)
        if request.days:
            if request.garden or request.window_box:
                raise InputError("garden", "give either days (a game record) or garden and window_box (a snapshot)")
            doc["days"] = days(request.days)
        else:
            doc.update(garden=[planting(p) for p in request.garden], window_box=list(request.window_box))
        return pb.HorticultureScoreResponse(score=score_msg(self._fn("score")(doc, **self.data)))

    # The solving RPCs hand the engine the call's SolveControl (bounded by the deadline and the
    # server cap, seeded by the server): a cancelled or expired call stops its CP-SAT searches.
    def SolveOptimal(self, request, context):
        doc = dict(setup(request), nursery=list(request.nursery))
        r = self._fn("solve_optimal")(doc, control=self.rt.control(context), **self.data)
        return pb.HorticultureSolveOptimalResponse(**solution_fields(r))

    def SolveBestPlan(self, request, context):
        doc = dict(setup(request), nursery=list(request.nursery))
        r = self._fn("best_plan")(doc, control=self.rt.control(context), **self.data)
        return pb.HorticultureSolveBestPlanResponse(**solution_fields(r))

    def Hint(self, request, context):
        doc = dict(setup(request), days=days(request.days), today=list(request.today),
                   future=list(request.future.cards) if request.HasField("future") else None)
        if request.follow:
            doc["follow"] = days(request.follow)
        with value_errors_under(_FUTURE):
            r = self._fn("hint")(doc, control=self.rt.control(context), **self.data)
        return pb.HorticultureHintResponse(ranked_by=_RANKING[r["ranked_by"]], options=[
            pb.HorticultureHintOption(card=o["card"], status=_STATUS[o["status"]], bound=o.get("bound"),
                                      plants=[planting_msg(p) for p in o.get("plants", [])],
                                      final_score=o.get("final_score"), estimate=o.get("estimate"),
                                      continuation=[day_msg(d) for d in o.get("continuation", [])])
            for o in r["options"]])


def register(server, runtime: Runtime) -> None:
    horticulture_pb2_grpc.add_HorticultureServiceServicer_to_server(HorticultureServicer(runtime), server)
    runtime.add_service(SERVICE, solve_methods=SOLVE_METHODS, light_methods=LIGHT_METHODS)
