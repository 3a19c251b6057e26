"""gardens.v1.HintService: thin adapters over the Gardeners hint functions of solver.games.gardeners.api."""
from __future__ import annotations

from gardens.v1 import common_pb2, hints_pb2, hints_pb2_grpc
from server import convert
from server.runtime import GameServicer, Runtime
from solver.errors import InputError

GAME = "gardeners"
SERVICE = hints_pb2.DESCRIPTOR.services_by_name["HintService"].full_name
SOLVE_METHODS = ["CheckProgress", "SuggestRepair", "GetHint", "ListForcedPlacements", "DeduceCard"]
LIGHT_METHODS: list[str] = []  # DeduceCard scans ~700 changes in Python: a solve slot, not a light one
MAX_TRIALS = 64
MAX_PLAYERS = 8

_GARDEN = {"garden": "garden", "placements": "garden.placements", "size": "garden.size"}
_PROGRESS = {"satisfied": hints_pb2.PROGRESS_STATUS_SATISFIED, "broken": hints_pb2.PROGRESS_STATUS_BROKEN,
             "blocked": hints_pb2.PROGRESS_STATUS_BLOCKED, "possible": hints_pb2.PROGRESS_STATUS_POSSIBLE,
             "unknown": hints_pb2.PROGRESS_STATUS_UNKNOWN, "": hints_pb2.PROGRESS_STATUS_UNSPECIFIED}
_REPAIR = {"optimal": hints_pb2.REPAIR_VERDICT_OPTIMAL, "feasible": hints_pb2.REPAIR_VERDICT_FEASIBLE,
           "unsolvable": hints_pb2.REPAIR_VERDICT_UNSOLVABLE, "unknown": hints_pb2.REPAIR_VERDICT_UNKNOWN}
_HINT = {"move": hints_pb2.HINT_STATUS_MOVE, "done": hints_pb2.HINT_STATUS_DONE,
         "unsolvable": hints_pb2.HINT_STATUS_UNSOLVABLE, "unknown": hints_pb2.HINT_STATUS_UNKNOWN,
         "wait": hints_pb2.HINT_STATUS_WAIT}
_RULES = {hints_pb2.MOVE_RULES_UNSPECIFIED: None, hints_pb2.MOVE_RULES_NORMAL: "normal",  # (None: the mode's own)
          hints_pb2.MOVE_RULES_SOLO: "solo"}
_OWNER = {hints_pb2.OWNER_VERDICT_THRILLED: "thrilled", hints_pb2.OWNER_VERDICT_ANGRY: "angry"}


def _cells(cells) -> list[common_pb2.Cell]:
    return [convert.cell(c) for c in cells]


class HintServicer(GameServicer, hints_pb2_grpc.HintServiceServicer):
    game = GAME

    def __init__(self, runtime: Runtime):
        super().__init__(runtime)
        self.data = {"catalog": self.config.tiles_file or None, "cards": self.config.cards_file or None}

    def _args(self, request):
        return (convert.garden(request.garden, self.config), convert.card_ids(request.card_ids, self.config),
                convert.mode(request.mode))

    def CheckProgress(self, request, context):
        args = self._args(request)
        with convert.fields_under(_GARDEN):
            result = self._fn("check_progress")(*args, control=self.rt.control(context), floating=request.floating,
                                                **self.data)
        shift = result.shift or (0, 0)
        return hints_pb2.CheckProgressResponse(
            shift_rows=shift[0], shift_cols=shift[1],
            completable=convert.solvability(result.completable), witness=convert.garden_msg(result.witness),
            complete=result.complete, valid=result.valid,
            cards=[hints_pb2.CardProgress(card_id=p.card_id, kind=p.kind, status=_PROGRESS[p.status],
                                          cells=_cells(p.cells), reason=p.reason) for p in result.cards])

    def SuggestRepair(self, request, context):
        args = self._args(request)
        with convert.fields_under(_GARDEN):
            result = self._fn("repair")(*args, removal_rules=request.removal_rules, floating=request.floating,
                                        control=self.rt.control(context), **self.data)
        return hints_pb2.SuggestRepairResponse(verdict=_REPAIR[result.verdict], remove=_cells(result.remove),
                                               witness=convert.garden_msg(result.witness),
                                               removals_bound=result.bound, shift_rows=result.shift[0],
                                               shift_cols=result.shift[1])

    def GetHint(self, request, context):
        level = request.level or 3
        if not 1 <= level <= 3:
            raise InputError("level", "must be 1, 2 or 3 (0 = 3)", request.level)
        if request.rules not in _RULES:
            raise InputError("rules", "unknown move rules", request.rules)
        removal = request.removal_rules if request.HasField("removal_rules") else True
        args = self._args(request)
        if request.supplies:
            if request.HasField("target"):
                raise InputError("target", "is for Solo rules; supplies are Normal rules")
            if len(request.supplies) > MAX_PLAYERS:
                raise InputError("supplies", f"at most {MAX_PLAYERS} players", len(request.supplies))
            from solver.games.gardeners import supplies
            docs = [{"stack": list(s.stack), "loose": list(s.loose)} for s in request.supplies]
            with convert.fields_under(_GARDEN):
                hint = supplies.hint(*args, supplies=docs, player=request.player, rules=_RULES[request.rules],
                                     removal_rules=removal, floating=request.floating,
                                     control=self.rt.control(context), **self.data)
        else:
            if request.player:
                raise InputError("player", "needs supplies", request.player)
            target = convert.garden(request.target, self.config, "target") if request.HasField("target") else None
            with convert.fields_under(_GARDEN):
                hint = self._fn("hint")(*args, rules=_RULES[request.rules], removal_rules=removal,
                                        floating=request.floating, control=self.rt.control(context),
                                        target=target, **self.data)
        view = hint.at_level(level)
        msg = hints_pb2.GetHintResponse(status=_HINT[hint.status], level=level, card_id=view["card_id"],
                                        card_status=_PROGRESS[view["card_status"]], text=view["text"])
        msg.cells.extend(_cells(view.get("cells", ())))
        if view.get("move") is not None:
            msg.move.CopyFrom(convert.move_msg(view["move"]))
        if level >= 3 and hint.status in ("move", "wait"):
            msg.route_length, msg.proven = view["route_length"], view["proven"]
        if level >= 3 and hint.status in ("move", "wait", "unknown") and view["route_bound"]:
            msg.route_bound = view["route_bound"]
        if view.get("target") is not None:
            msg.target.CopyFrom(convert.garden_msg(view["target"]))
        return msg

    def ListForcedPlacements(self, request, context):
        args = self._args(request)
        with convert.fields_under(_GARDEN):
            result = self._fn("forced_placements")(*args, control=self.rt.control(context), **self.data)
        return hints_pb2.ListForcedPlacementsResponse(
            verdict=convert.solvability(result.verdict), undecided=_cells(result.undecided),
            forced=[hints_pb2.ForcedPlacement(cell=convert.cell(f.cell), tiles=list(f.tiles),
                                              rotations=list(f.rotations[f.tiles[0]])) for f in result.cells])

    def DeduceCard(self, request, context):
        if len(request.trials) > MAX_TRIALS:
            raise InputError("trials", f"at most {MAX_TRIALS} trials", len(request.trials))
        trials = []
        for i, t in enumerate(request.trials):
            if t.verdict not in _OWNER:
                raise InputError(f"trials[{i}].verdict", "must be OWNER_VERDICT_THRILLED or _ANGRY", t.verdict)
            trials.append({"garden": convert.garden(t.garden, self.config, f"trials[{i}].garden"),
                           "verdict": _OWNER[t.verdict]})
        garden = convert.garden(request.garden, self.config) if request.HasField("garden") else None
        with convert.fields_under(_GARDEN):  # the engine names `garden`'s own fields (trials[i].garden's are named)
            result = self._fn("deduce_card")(request.kind, trials, convert.mode(request.mode), garden,
                                             control=self.rt.control(context), exclude=list(request.exclude_card_ids),
                                             expert=request.expert, **self.data)
        msg = hints_pb2.DeduceCardResponse(candidates=[convert.card_msg(c) for c in result.candidates],
                                           split_complete=result.split_complete)
        s = result.split
        if s is not None:
            msg.split.CopyFrom(hints_pb2.GardenChange(kind=s.kind, cells=_cells(s.cells), rotation=s.rotation,
                                                      garden=convert.garden_msg(s.garden),
                                                      thrilled_card_ids=s.thrilled, angry_card_ids=s.angry))
        return msg


def register(server, runtime: Runtime) -> None:
    hints_pb2_grpc.add_HintServiceServicer_to_server(HintServicer(runtime), server)
    runtime.add_service(SERVICE, solve_methods=SOLVE_METHODS, light_methods=LIGHT_METHODS)
