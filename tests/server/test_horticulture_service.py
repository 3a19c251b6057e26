"""HorticultureService on a real server over a real channel: every RPC against the engine's api, and bad input."""
from __future__ import annotations

import json
from pathlib import Path

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from conftest import cancel_a_search
import game_docs
from gardens.v1 import common_pb2, horticulture_pb2 as pb, horticulture_pb2_grpc
from solver.games.horticulture import api

EXAMPLES = Path(__file__).resolve().parents[2] / "solver" / "data" / "horticulture" / "examples"
SAMANTHA = json.loads((EXAMPLES / "samantha.json").read_text())
NURSERY = json.loads((EXAMPLES / "solve.json").read_text())["nursery"]
SETUP = {k: SAMANTHA[k] for k in ("side", "path", "gnome", "plan")}
TIME = 5  # the server's cap per search below; the domain gets the same
PROOF_TIME = 20  # a one-day game is proven in ~1.5 s; room for a loaded machine (a proof ends the search)


@pytest.fixture
def stub(start_server):
    return horticulture_pb2_grpc.HorticultureServiceStub(start_server(with_probe=False, time_cap_s=TIME).channel())


@pytest.fixture(scope="module")
def one_day():
    """The domain's best one-day game (two cards): a legal record to validate and score."""
    return api.solve_optimal(dict(SETUP, nursery=NURSERY[:2], time_limit_s=PROOF_TIME))


def cell(square) -> common_pb2.Cell:
    return common_pb2.Cell(row=square[1], col=square[0])


def planting(doc) -> pb.HorticulturePlanting:
    if doc["at"] == "window":
        return pb.HorticulturePlanting(plant=doc["plant"], window_box=True)
    return pb.HorticulturePlanting(plant=doc["plant"], at=cell(doc["at"]))


def day(doc) -> pb.HorticultureDay:
    return pb.HorticultureDay(chosen=doc["chosen"], cards=doc.get("cards", []),
                              plants=[planting(p) for p in doc["plants"]])


def setup_fields(doc) -> dict:
    return {"side": doc["side"], "path": pb.HorticulturePath(**doc["path"]), "gnome": cell(doc["gnome"]),
            "plan": pb.HorticulturePlan(**doc["plan"])}


def as_planting(msg: pb.HorticulturePlanting) -> dict:
    return {"plant": msg.plant, "at": "window" if msg.window_box else [msg.at.col, msg.at.row]}


def as_day(msg: pb.HorticultureDay) -> dict:
    return {"chosen": msg.chosen, "cards": list(msg.cards), "plants": [as_planting(p) for p in msg.plants]}


def score_doc(msg: pb.HorticultureScore) -> dict:
    return {"groups": {p: {"sizes": list(g.sizes), "complete": g.complete, "points": g.points}
                       for p, g in msg.groups.items()},
            "groups_total": msg.groups_total, "gnome": msg.gnome, "window_box": msg.window_box,
            "plan": {"border": msg.plan.border, "path": msg.plan.path, "companions": msg.plan.companions},
            "total": msg.total, "title": msg.title}


def field_violations(err: grpc.RpcError) -> dict[str, str]:
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT, (err.code(), err.details())
    bad = error_details_pb2.BadRequest()
    assert rpc_status.from_call(err).details[0].Unpack(bad)
    return {v.field: v.description for v in bad.field_violations}


@pytest.mark.parametrize("path", [{"start": 2, "moves": "DRD"}, {"start": 3, "moves": "DDDDDDD"},
                                  {"start": 3, "moves": "DUD"}, {"start": 1, "moves": "DL"}])
def test_validate_path_matches_the_domain(stub, path):
    resp = stub.ValidatePath(pb.HorticultureValidatePathRequest(side="A", path=pb.HorticulturePath(**path)), timeout=30)
    d = api.validate_path({"side": "A", "path": path})
    assert (resp.legal, resp.complete, list(resp.next_directions)) == (d["legal"], d["complete"], d["next_directions"])
    assert [(v.where, v.reason) for v in resp.violations] == [(v["where"], v["reason"]) for v in d["violations"]]


def test_score_of_samanthas_sheet_matches_the_domain(stub):
    resp = stub.Score(pb.HorticultureScoreRequest(**setup_fields(SAMANTHA),
                                                  garden=[planting(p) for p in SAMANTHA["garden"]],
                                                  window_box=SAMANTHA["window_box"]), timeout=30)
    assert score_doc(resp.score) == api.score(SAMANTHA)
    assert (resp.score.total, resp.score.title) == (54, "Greens Keeper")


def test_validate_and_score_a_record_like_the_domain(stub, one_day):
    record = dict(SETUP, days=one_day["days"])
    resp = stub.Validate(pb.HorticultureValidateRequest(**setup_fields(SETUP), days=[day(d) for d in record["days"]],
                                                        nursery=NURSERY[:2]), timeout=30)
    d = api.validate(dict(record, nursery=NURSERY[:2]))
    assert resp.legal and d["legal"] and not resp.violations
    assert score_doc(resp.score) == d["score"]
    scored = stub.Score(pb.HorticultureScoreRequest(**setup_fields(SETUP), days=[day(x) for x in record["days"]]),
                        timeout=30)
    assert score_doc(scored.score) == api.score(record) == d["score"]


def test_validate_lists_every_refusal_like_the_domain(stub, one_day):
    first = one_day["days"][0]
    bad_days = [dict(first, plants=[{"plant": p["plant"], "at": [0, 6]} for p in first["plants"]])]
    resp = stub.Validate(pb.HorticultureValidateRequest(**setup_fields(SETUP), days=[day(d) for d in bad_days]),
                         timeout=30)
    d = api.validate(dict(SETUP, days=bad_days))
    assert not resp.legal and not d["legal"]
    assert [(v.where, v.reason) for v in resp.violations] == [(v["where"], v["reason"]) for v in d["violations"]]


def test_solve_optimal_is_the_domains_optimum_and_rescores_to_it(start_server, one_day):
    stub = horticulture_pb2_grpc.HorticultureServiceStub(
        start_server(with_probe=False, time_cap_s=PROOF_TIME).channel())
    resp = stub.SolveOptimal(pb.HorticultureSolveOptimalRequest(**setup_fields(SETUP), nursery=NURSERY[:2]), timeout=60)
    assert one_day["status"] == "optimal" and resp.status == pb.HORTICULTURE_SOLVE_STATUS_OPTIMAL
    assert resp.score == resp.bound == one_day["score"]
    assert score_doc(resp.score_sheet)["total"] == resp.score
    rescored = stub.Score(pb.HorticultureScoreRequest(**setup_fields(SETUP), days=resp.days), timeout=30)
    assert rescored.score.total == resp.score


def test_solve_best_plan_returns_a_game_that_rescores_to_its_claim(stub):
    resp = stub.SolveBestPlan(pb.HorticultureSolveBestPlanRequest(
        side="A", path=pb.HorticulturePath(start=3, moves="DDDDDDD"), nursery=NURSERY[:2]), timeout=60)
    assert resp.status in (pb.HORTICULTURE_SOLVE_STATUS_OPTIMAL, pb.HORTICULTURE_SOLVE_STATUS_FEASIBLE)
    assert resp.HasField("gnome") and resp.HasField("plan") and len(resp.days) == 1
    assert not resp.HasField("bound") or resp.score <= resp.bound
    rescored = stub.Score(pb.HorticultureScoreRequest(side="A", path=pb.HorticulturePath(start=3, moves="DDDDDDD"),
                                                      gnome=resp.gnome, plan=resp.plan, days=resp.days), timeout=30)
    assert rescored.score.total == resp.score
    # the gnome and plan were chosen: the domain's own best plan cannot be proven better than ours
    d = api.best_plan({"side": "A", "path": {"start": 3, "moves": "DDDDDDD"}, "nursery": NURSERY[:2],
                       "time_limit_s": TIME})
    if d["status"] == "optimal":
        assert resp.score <= d["score"]
        if resp.status == pb.HORTICULTURE_SOLVE_STATUS_OPTIMAL:
            assert resp.score == d["score"]


def test_hint_with_a_known_future_ranks_by_final_score_like_the_domain(stub):
    # the last day of a game: today's two cards, nothing after (an empty but known future)
    resp = stub.Hint(pb.HorticultureHintRequest(**setup_fields(SETUP), today=NURSERY[:2],
                                                future=pb.HorticultureNursery()), timeout=60)
    d = api.hint(dict(SETUP, today=NURSERY[:2], future=[], time_limit_s=TIME))
    assert resp.ranked_by == pb.HORTICULTURE_HINT_RANKING_FINAL_SCORE and d["ranked_by"] == "final_score"
    assert sorted(o.card for o in resp.options) == sorted(o["card"] for o in d["options"]) == sorted(NURSERY[:2])
    mine = {o.card: o for o in resp.options}
    for o in d["options"]:
        got = mine[o["card"]]
        assert got.HasField("final_score") and not got.HasField("estimate") and len(got.plants) == 2
        if o["status"] == "optimal" and got.status == pb.HORTICULTURE_SOLVE_STATUS_OPTIMAL:
            assert got.final_score == o["final_score"]
    scores = [o.final_score for o in resp.options]
    assert scores == sorted(scores, reverse=True)


def test_a_hints_continuation_goes_back_as_follow_over_the_wire(stub):
    """One day and one more known: each option's `continuation` is the last day (cards and plants), legal after
    it; sent back as `follow` with that day as today, the followed card's option reaches the promised score."""
    first = stub.Hint(pb.HorticultureHintRequest(**setup_fields(SETUP), today=NURSERY[:2],
                                                 future=pb.HorticultureNursery(cards=NURSERY[2:4])), timeout=60)
    top = first.options[0]
    assert len(top.continuation) == 1 and list(top.continuation[0].cards) == NURSERY[2:4]
    played = pb.HorticultureDay(chosen=top.card, plants=top.plants)
    again = stub.Hint(pb.HorticultureHintRequest(**setup_fields(SETUP), days=[played], today=NURSERY[2:4],
                                                 future=pb.HorticultureNursery(), follow=top.continuation),
                      timeout=60)
    mine = {o.card: o for o in again.options}[top.continuation[0].chosen]
    assert mine.final_score >= top.final_score
    with pytest.raises(grpc.RpcError) as err:
        stub.Hint(pb.HorticultureHintRequest(**setup_fields(SETUP), days=[played], today=NURSERY[2:4],
                                             follow=top.continuation), timeout=60)
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "follow" in err.value.details()


def test_hint_without_a_future_ranks_by_the_estimate(stub):
    resp = stub.Hint(pb.HorticultureHintRequest(**setup_fields(SETUP), today=NURSERY[:2]), timeout=60)
    d = api.hint(dict(SETUP, today=NURSERY[:2], time_limit_s=TIME))
    assert resp.ranked_by == pb.HORTICULTURE_HINT_RANKING_ESTIMATE and d["ranked_by"] == "estimate"
    assert sorted(o.card for o in resp.options) == sorted(o["card"] for o in d["options"])
    assert all(o.HasField("estimate") and not o.HasField("final_score") for o in resp.options)


def test_cancelling_a_search_reaches_the_engine_and_frees_the_slot(start_server):
    # uncancelled, a 16-day game is not proven and the search runs for the cap
    stub = cancel_a_search(start_server, "horticulture", "HorticultureService", api.solve_optimal,
                           horticulture_pb2_grpc.HorticultureServiceStub,
                           pb.HorticultureSolveOptimalRequest(**setup_fields(SETUP), nursery=NURSERY))
    # the server goes on serving searches
    resp = stub.SolveOptimal(pb.HorticultureSolveOptimalRequest(**setup_fields(SETUP), nursery=NURSERY[:2]),
                             timeout=60)
    assert resp.status in (pb.HORTICULTURE_SOLVE_STATUS_OPTIMAL, pb.HORTICULTURE_SOLVE_STATUS_FEASIBLE)


def test_a_deadline_that_leaves_no_time_to_search_is_deadline_exceeded(stub):
    for call in (lambda: stub.SolveOptimal(
                     pb.HorticultureSolveOptimalRequest(**setup_fields(SETUP), nursery=NURSERY[:2]), timeout=0.05),
                 lambda: stub.SolveBestPlan(pb.HorticultureSolveBestPlanRequest(
                     side="A", path=pb.HorticulturePath(start=3, moves="DDDDDDD"), nursery=NURSERY[:2]), timeout=0.05),
                 lambda: stub.Hint(pb.HorticultureHintRequest(**setup_fields(SETUP), today=NURSERY[:2]), timeout=0.05)):
        with pytest.raises(grpc.RpcError) as err:
            call()
        assert err.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED


@pytest.mark.parametrize("call, field", [
    (lambda s: s.ValidatePath(pb.HorticultureValidatePathRequest(side="Z", path=pb.HorticulturePath(start=3))), "side"),
    (lambda s: s.ValidatePath(pb.HorticultureValidatePathRequest(side="A")), "path"),
    (lambda s: s.ValidatePath(pb.HorticultureValidatePathRequest(
        side="A", path=pb.HorticulturePath(start=3, moves="DX"))), "path.moves"),
    (lambda s: s.Score(pb.HorticultureScoreRequest(**dict(setup_fields(SETUP), plan=pb.HorticulturePlan(
        border="cactus", path="turnip", companions=["topiary", "carrot"])))), "plan.border"),
    (lambda s: s.Score(pb.HorticultureScoreRequest(**setup_fields(SETUP), garden=[
        pb.HorticulturePlanting(plant="carrot", at=common_pb2.Cell(row=0, col=40))])), "garden[0].at"),
    (lambda s: s.Score(pb.HorticultureScoreRequest(**setup_fields(SETUP), window_box=["carrot"],
                                                   days=[pb.HorticultureDay(chosen=NURSERY[0])])), "garden"),
    (lambda s: s.Score(pb.HorticultureScoreRequest(**dict(setup_fields(SETUP), gnome=common_pb2.Cell(row=9, col=9)))),
     "gnome"),
    (lambda s: s.Validate(pb.HorticultureValidateRequest(**setup_fields(SETUP), days=[pb.HorticultureDay(chosen=999)])),
     "days[0].chosen"),
    (lambda s: s.SolveOptimal(pb.HorticultureSolveOptimalRequest(**setup_fields(SETUP), nursery=NURSERY[:3])),
     "nursery"),
    (lambda s: s.SolveOptimal(pb.HorticultureSolveOptimalRequest(**setup_fields(SETUP), nursery=[NURSERY[0], 999])),
     "nursery[1]"),
    (lambda s: s.SolveBestPlan(pb.HorticultureSolveBestPlanRequest(side="A", nursery=NURSERY[:2])), "path"),
    (lambda s: s.Hint(pb.HorticultureHintRequest(**setup_fields(SETUP))), "today"),
    (lambda s: s.Hint(pb.HorticultureHintRequest(**setup_fields(SETUP), today=NURSERY[:2],
                                                 future=pb.HorticultureNursery(cards=[999, NURSERY[3]]))),
     "future.cards[0]"),
])
def test_malformed_input_names_the_field(stub, call, field):
    with pytest.raises(grpc.RpcError) as err:
        call(stub)
    assert field in field_violations(err.value)


def test_squares_are_named_by_column_and_row_and_a_missing_plan_is_named_missing(stub):
    """The service reads {row, col} and the engine [column, row]: a message names both, so neither reads it wrong."""
    with pytest.raises(grpc.RpcError) as err:
        stub.Score(pb.HorticultureScoreRequest(**dict(setup_fields(SETUP), gnome=common_pb2.Cell(row=2, col=40))))
    assert "square (column 40, row 2) is outside" in field_violations(err.value)["gnome"]
    fields = {k: v for k, v in setup_fields(SETUP).items() if k != "plan"}
    with pytest.raises(grpc.RpcError) as err:
        stub.SolveOptimal(pb.HorticultureSolveOptimalRequest(**fields, nursery=NURSERY[:2]))
    assert field_violations(err.value)["plan"] == "missing; expected an object"
    fields = {k: v for k, v in setup_fields(SETUP).items() if k != "gnome"}
    with pytest.raises(grpc.RpcError) as err:
        stub.Score(pb.HorticultureScoreRequest(**fields))
    assert field_violations(err.value)["gnome"] == "missing; expected a square"


def test_every_bad_setup_field_and_the_nursery_are_reported_together(stub):
    fields = dict(setup_fields(SETUP), gnome=common_pb2.Cell(row=9, col=9), plan=pb.HorticulturePlan(
        border="cactus", path="turnip", companions=["topiary", "carrot"]))
    with pytest.raises(grpc.RpcError) as err:
        stub.SolveOptimal(pb.HorticultureSolveOptimalRequest(**fields, nursery=NURSERY[:3]))
    assert set(field_violations(err.value)) == {"gnome", "plan.border", "nursery"}
    fields["plan"] = pb.HorticulturePlan(border="rose", path="x", companions=["a", "topiary"])
    with pytest.raises(grpc.RpcError) as err:
        stub.Validate(pb.HorticultureValidateRequest(**fields, nursery=[NURSERY[0], NURSERY[0], 999]))
    assert set(field_violations(err.value)) == {"gnome", "plan.border", "plan.path", "plan.companions[0]",
                                                "nursery"}
    with pytest.raises(grpc.RpcError) as err:
        stub.SolveBestPlan(pb.HorticultureSolveBestPlanRequest(side="Z", nursery=[NURSERY[0], 999]))
    assert set(field_violations(err.value)) == {"side", "path", "nursery[1]"}


def test_every_bad_day_card_and_planting_is_reported_together(stub):
    """Days, today's cards and the future are parsed field by field: each bad one is named at once."""
    day = pb.HorticultureDay
    planting = pb.HorticulturePlanting
    days = [day(chosen=999, plants=[planting(plant="topiary", at=cell([3, 1]))]),
            day(chosen=NURSERY[1], plants=[planting(plant="cactus", at=cell([3, 1])),
                                           planting(plant="topiary", at=cell([40, 2]))])]
    with pytest.raises(grpc.RpcError) as err:
        stub.Hint(pb.HorticultureHintRequest(**setup_fields(SETUP), days=days, today=[998, NURSERY[2]],
                                             future=pb.HorticultureNursery(cards=[NURSERY[3], NURSERY[3]])))
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert set(field_violations(err.value)) == {"days[0].chosen", "days[1].plants[0].plant", "days[1].plants[1].at",
                                                "today[0]", "future.cards[1]"}
    with pytest.raises(grpc.RpcError) as err:
        stub.Validate(pb.HorticultureValidateRequest(**setup_fields(SETUP), days=days, nursery=[NURSERY[0], 997]))
    assert set(field_violations(err.value)) == {"days[0].chosen", "days[1].plants[0].plant", "days[1].plants[1].at",
                                                "nursery[1]"}
    snapshot = dict(setup_fields(SETUP), garden=[planting(plant="cactus", at=cell([2, 2])),
                                                 planting(plant="topiary", at=cell(SETUP["gnome"]))],
                    window_box=["topiary", "topiary"])
    with pytest.raises(grpc.RpcError) as err:
        stub.Score(pb.HorticultureScoreRequest(**snapshot))
    assert set(field_violations(err.value)) == {"garden[0].plant", "garden[1].at", "window_box[1]"}


def test_a_nursery_longer_than_the_largest_local_nursery_is_refused_by_every_rpc(stub):
    """The rulebook's nurseries hold 30 to 36 cards. Before 7 Dec 48 cards were taken: SolveOptimal answered
    INFEASIBLE (the sheet has 47 places) while Hint answered UNKNOWN for both of today's cards."""
    cards = list(range(1, 39))
    with pytest.raises(grpc.RpcError) as err:
        stub.SolveOptimal(pb.HorticultureSolveOptimalRequest(**setup_fields(SETUP), nursery=cards))
    assert "at most 36" in field_violations(err.value)["nursery"]
    with pytest.raises(grpc.RpcError) as err:
        stub.Hint(pb.HorticultureHintRequest(**setup_fields(SETUP), today=cards[:2],
                                             future=pb.HorticultureNursery(cards=cards[2:])))
    assert "at most 36 and 2 were flipped already" in field_violations(err.value)["future.cards"]


# ---- docs/games-service.md -----------------------------------------------------------------

SERVICE = "HorticultureService"


def test_every_rpc_has_a_doc_example_that_parses():
    game_docs.check_every_rpc_has_a_doc_example(pb, SERVICE)


@pytest.mark.parametrize("method, body, answer", game_docs.quick_examples(SERVICE))
def test_quick_doc_examples_answer_as_documented(start_server, capsys, method, body, answer):
    game_docs.check_quick_example(start_server, capsys, SERVICE, method, body, answer)
