"""VersaillesService on a real server over a real channel: every RPC against the engine's api, and bad input."""
from __future__ import annotations

import copy

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from conftest import cancel_a_search
import game_docs
from gardens.v1 import versailles_pb2 as pb, versailles_pb2_grpc
from solver.games.versailles import api

GARDEN = [{"tile": 4, "x": 0, "y": 0, "rotation": 0}, {"tile": 5, "x": 2, "y": 0, "rotation": 0}]  # BB/YY, GG/RR
PLAYERS = ["Ann", "Ben", "Cid"]


def line(cards_by_round, y=0):
    """Each player lays tiles left to right in a row (always legal); tiles come from the row by the cards."""
    return [{"cards": cards_by_round[r], "placements": [{"player": p, "x": 2 * r, "y": y} for p in PLAYERS]}
            for r in range(7)]


CARDS = [{"Ann": 30 + r, "Ben": 10 + r, "Cid": 20 + r} for r in range(7)]
RECORD = {"players": PLAYERS, "stages": [{"row": list(range(1, 22)), "rounds": line(CARDS)},
                                         {"row": list(range(22, 43)), "rounds": line(CARDS, y=2)}]}


@pytest.fixture
def stub(start_server):
    return versailles_pb2_grpc.VersaillesServiceStub(start_server(with_probe=False, time_cap_s=5).channel())


def garden_msg(placements) -> pb.VersaillesGarden:
    return pb.VersaillesGarden(placements=[pb.VersaillesPlacement(**p) for p in placements])


def as_list(msg: pb.VersaillesGarden) -> list[dict]:
    return [{"tile": p.tile, "x": p.x, "y": p.y, "rotation": p.rotation} for p in msg.placements]


def record_msg(record) -> pb.VersaillesScoreGameRequest:
    return pb.VersaillesScoreGameRequest(players=record["players"], stages=[
        pb.VersaillesStage(row=s.get("row", []), rounds=[
            pb.VersaillesRound(cards=r.get("cards", {}),
                               placements=[pb.VersaillesGamePlacement(**p) for p in r["placements"]])
            for r in s["rounds"]]) for s in record["stages"]])


def field_violations(err: grpc.RpcError) -> dict[str, str]:
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT, (err.code(), err.details())
    bad = error_details_pb2.BadRequest()
    assert rpc_status.from_call(err).details[0].Unpack(bad)
    return {v.field: v.description for v in bad.field_violations}


def test_validate_matches_the_domain(stub):
    assert stub.Validate(pb.VersaillesValidateRequest(garden=garden_msg(GARDEN)), timeout=30).valid
    bad = GARDEN + [{"tile": 6, "x": 4, "y": 2, "rotation": 0}, {"tile": 4, "x": 0, "y": 2, "rotation": 0}]
    resp = stub.Validate(pb.VersaillesValidateRequest(garden=garden_msg(bad)), timeout=30)
    domain = api.validate(bad)
    assert not resp.valid and not domain["valid"]
    assert [(v.index, v.field, v.reason) for v in resp.violations] == \
        [(v["index"], "garden." + v["field"], v["reason"]) for v in domain["violations"]]
    assert [v.field for v in resp.violations] == ["garden.placements[2]", "garden.placements[3].tile"]


def test_score_matches_the_domain(stub):
    resp = stub.Score(pb.VersaillesScoreRequest(garden=garden_msg(GARDEN)), timeout=30)
    d = api.score(GARDEN)
    assert (resp.tiles, dict(resp.areas), resp.construction_site, resp.intermediate_area_points,
            resp.final_area_points, resp.solo_points) == \
        (d["tiles"], d["areas"], d["construction_site"], d["intermediate_area_points"], d["final_area_points"],
         d["solo_points"])
    assert [(a.type, a.size) for a in resp.final_areas] == [(a["type"], a["size"]) for a in d["final_areas"]]
    assert [(a.type, a.size) for a in resp.intermediate_areas] == \
        [(a["type"], a["size"]) for a in d["intermediate_areas"]]


def test_score_game_matches_the_domain(stub):
    resp = stub.ScoreGame(record_msg(RECORD), timeout=30)
    d = api.score_game(RECORD)
    assert [p.player for p in resp.players] == PLAYERS
    for p in resp.players:
        dp = d["players"][p.player]
        assert (p.total, dict(p.areas)) == (dp["total"], dp["areas"])
        for got, want in ((p.intermediate, dp["intermediate"]), (p.final, dp["final"])):
            assert (got.total, got.area_points, list(got.large_tokens), list(got.small_tokens)) == \
                (want["total"], want["area_points"], want["large_tokens"], want["small_tokens"])
    assert dict(resp.large_token_holders) == {t: p for t, p in d["large_token_holders"].items() if p}
    assert dict(resp.small_token_winners) == {t: p for t, p in d["small_token_winners"].items() if p}
    assert [(t.type, t.to, t.previous or None, t.size, t.stage, t.round) for t in resp.transfers] == \
        [(t["type"], t["to"], t["from"], t["size"], t["stage"], t["round"]) for t in d["transfers"]]
    assert (list(resp.winners), resp.complete) == (d["winners"], d["complete"])


def test_score_game_stopped_after_one_stage_has_no_final(stub):
    record = {"players": PLAYERS, "stages": RECORD["stages"][:1]}
    resp = stub.ScoreGame(record_msg(record), timeout=30)
    assert not resp.complete
    assert all(p.HasField("intermediate") and not p.HasField("final") for p in resp.players)


def test_solve_optimal_is_the_domains_optimum_and_rescores_to_it(start_server):
    # proven in about a second; the roomy cap only matters on a loaded machine (a proof ends the search)
    stub = versailles_pb2_grpc.VersaillesServiceStub(start_server(with_probe=False, time_cap_s=20).channel())
    tiles = [4, 5, 7]
    resp = stub.SolveOptimal(pb.VersaillesSolveOptimalRequest(tiles=tiles), timeout=60)
    domain = api.solve_optimal(tiles, time_limit=20)
    assert domain["status"] == "optimal" and resp.status == pb.VERSAILLES_SOLVE_STATUS_OPTIMAL
    assert resp.points == resp.bound == domain["points"]
    assert [p.tile for p in resp.garden.placements] == tiles
    assert stub.Validate(pb.VersaillesValidateRequest(garden=resp.garden), timeout=30).valid
    assert stub.Score(pb.VersaillesScoreRequest(garden=resp.garden), timeout=30).solo_points == resp.points


def test_hint_matches_the_domain(stub):
    resp = stub.Hint(pb.VersaillesHintRequest(garden=garden_msg(GARDEN), next_tile=7, top=5), timeout=30)
    domain = api.hint(GARDEN, 7, top=5)
    assert resp.tile == 7
    assert [(o.placement.tile, o.placement.x, o.placement.y, o.placement.rotation, o.points) for o in resp.placements] \
        == [(o["tile"], o["x"], o["y"], o["rotation"], o["points"]) for o in domain["placements"]]
    assert all(not o.HasField("reachable") for o in resp.placements)


def test_hint_with_upcoming_tiles_reports_reachable_points(stub):
    resp = stub.Hint(pb.VersaillesHintRequest(garden=garden_msg(GARDEN), next_tile=7, upcoming=[9], top=2),
                     timeout=60)
    domain = api.hint(GARDEN, 7, upcoming=[9], top=2, time_limit=5)
    key = lambda o: (o["tile"], o["x"], o["y"], o["rotation"])  # noqa: E731
    assert {(o.placement.tile, o.placement.x, o.placement.y, o.placement.rotation) for o in resp.placements} == \
        {key(o) for o in domain["placements"]}
    for o in resp.placements:
        assert o.HasField("reachable") and o.reachable <= o.bound
        assert o.status in (pb.VERSAILLES_SOLVE_STATUS_OPTIMAL, pb.VERSAILLES_SOLVE_STATUS_FEASIBLE)
        # the continuation reaching it: the garden, the option, then tile 9 where it says, scored by Score
        [after] = o.continuation
        whole = GARDEN + [{"tile": 7, "x": o.placement.x, "y": o.placement.y,
                                         "rotation": o.placement.rotation},
                                        {"tile": after.tile, "x": after.x, "y": after.y, "rotation": after.rotation}]
        assert after.tile == 9 and api.score({"placements": whole})["solo_points"] == o.reachable


def test_cancelling_a_search_reaches_the_engine_and_frees_the_slot(start_server):
    # uncancelled, 14 tiles are never proven and the search runs for the cap
    stub = cancel_a_search(start_server, "versailles", "VersaillesService", api.solve_optimal,
                           versailles_pb2_grpc.VersaillesServiceStub,
                           pb.VersaillesSolveOptimalRequest(tiles=list(range(1, 15))))
    # the server goes on serving searches
    resp = stub.SolveOptimal(pb.VersaillesSolveOptimalRequest(tiles=[4, 5]), timeout=60)
    assert resp.status == pb.VERSAILLES_SOLVE_STATUS_OPTIMAL


def test_a_deadline_that_leaves_no_time_to_search_is_deadline_exceeded(stub):
    for call in (lambda: stub.SolveOptimal(pb.VersaillesSolveOptimalRequest(tiles=[4, 5]), timeout=0.05),
                 lambda: stub.Hint(pb.VersaillesHintRequest(garden=garden_msg(GARDEN), next_tile=7), timeout=0.05)):
        with pytest.raises(grpc.RpcError) as err:
            call()
        assert err.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED


def _bad_record():
    record = copy.deepcopy(RECORD)
    record["stages"][0]["rounds"][1]["cards"]["Ann"] = 10
    return record


def test_every_bad_tile_and_placement_is_reported_at_once(stub):
    with pytest.raises(grpc.RpcError) as err:
        stub.SolveOptimal(pb.VersaillesSolveOptimalRequest(tiles=[999, 4, 4, 998, 5]))
    assert set(field_violations(err.value)) == {"tiles[0]", "tiles[2]", "tiles[3]"}
    with pytest.raises(grpc.RpcError) as err:
        stub.Score(pb.VersaillesScoreRequest(garden=garden_msg([
            {"tile": 4, "x": 0, "y": 0, "rotation": 7}, {"tile": 5, "x": 2, "y": 0}, {"tile": 6, "x": 4, "rotation": 9}])))
    assert set(field_violations(err.value)) == {"garden.placements[0].rotation", "garden.placements[2].rotation"}
    with pytest.raises(grpc.RpcError) as err:  # an overlap, judged against the placements before it that were good
        stub.Score(pb.VersaillesScoreRequest(garden=garden_msg([
            {"tile": 4, "x": 0, "y": 0}, {"tile": 999, "x": 2, "y": 0}, {"tile": 5, "x": 1, "y": 0},
            {"tile": 6, "x": 2, "y": 0}])))
    assert set(field_violations(err.value)) == {"garden.placements[1].tile", "garden.placements[2]"}


@pytest.mark.parametrize("call, field", [
    (lambda s: s.Score(pb.VersaillesScoreRequest(garden=garden_msg([{"tile": 4, "x": 0, "y": 0, "rotation": 7}]))),
     "garden.placements[0].rotation"),
    (lambda s: s.Score(pb.VersaillesScoreRequest(garden=garden_msg([{"tile": 999, "x": 0, "y": 0}]))),
     "garden.placements[0].tile"),
    (lambda s: s.Validate(pb.VersaillesValidateRequest(garden=garden_msg([{"tile": 4, "x": 99999, "y": 0}]))),
     "garden.placements[0].x"),
    (lambda s: s.Validate(pb.VersaillesValidateRequest(garden=garden_msg([{"tile": 4, "x": 0, "y": 0},
                                                                          {"tile": 999, "x": 2, "y": 0}]))),
     "garden.placements[1].tile"),
    (lambda s: s.Score(pb.VersaillesScoreRequest(garden=garden_msg([{"tile": 4, "x": 0, "y": 0},
                                                                    {"tile": 4, "x": 2, "y": 0}]))),
     "garden.placements[1].tile"),
    (lambda s: s.ScoreGame(record_msg(_bad_record())), "stages[0].rounds[1].cards.Ann"),
    (lambda s: s.ScoreGame(pb.VersaillesScoreGameRequest(players=["Ann"])), "players"),
    # a placement is named by its index in the round, as in the request (not by its player)
    (lambda s: s.ScoreGame(record_msg({"players": ["A", "B"], "stages": [{"rounds": [{"placements": [
        {"player": "A", "tile": 1}, {"player": "B", "tile": -5}]}]}]})), "stages[0].rounds[0].placements[1].tile"),
    (lambda s: s.ScoreGame(record_msg({"players": ["A", "B"], "stages": [{"rounds": [{"placements": [
        {"player": "A", "tile": 1}, {"player": "B", "tile": 2, "rotation": 6}]}]}]})),
     "stages[0].rounds[0].placements[1].rotation"),
    (lambda s: s.SolveOptimal(pb.VersaillesSolveOptimalRequest(tiles=[4, 4])), "tiles[1]"),
    (lambda s: s.SolveOptimal(pb.VersaillesSolveOptimalRequest(tiles=[4, 999])), "tiles[1]"),
    (lambda s: s.SolveOptimal(pb.VersaillesSolveOptimalRequest(tiles=[4, 5], board=99)), "board"),
    (lambda s: s.Hint(pb.VersaillesHintRequest(garden=garden_msg(GARDEN), next_tile=4)), "next_tile"),
    (lambda s: s.Hint(pb.VersaillesHintRequest(garden=garden_msg(GARDEN), next_tile=7, top=500)), "top"),
    (lambda s: s.Hint(pb.VersaillesHintRequest(garden=garden_msg(GARDEN), next_tile=7, upcoming=[9],
                                               follow=[pb.VersaillesPlacement(tile=9, x=9, y=9)])), "follow"),
    (lambda s: s.Hint(pb.VersaillesHintRequest(garden=garden_msg(GARDEN), next_tile=7, upcoming=[9], top=6)), "top"),
    (lambda s: s.Hint(pb.VersaillesHintRequest(garden=garden_msg([{"tile": 4, "x": 0, "y": 0, "rotation": 9}]),
                                               next_tile=7)), "garden.placements[0].rotation"),
])
def test_malformed_input_names_the_field(stub, call, field):
    with pytest.raises(grpc.RpcError) as err:
        call(stub)
    assert field in field_violations(err.value)


# ---- docs/games-service.md -----------------------------------------------------------------

SERVICE = "VersaillesService"


def test_every_rpc_has_a_doc_example_that_parses():
    game_docs.check_every_rpc_has_a_doc_example(pb, SERVICE)


@pytest.mark.parametrize("method, body, answer", game_docs.quick_examples(SERVICE))
def test_quick_doc_examples_answer_as_documented(start_server, capsys, method, body, answer):
    game_docs.check_quick_example(start_server, capsys, SERVICE, method, body, answer)
