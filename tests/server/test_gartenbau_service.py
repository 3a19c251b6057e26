"""GartenbauService on a real server over a real channel: every RPC against the engine's api, and bad input."""
from __future__ import annotations


import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from conftest import cancel_a_search
import game_docs
from gardens.v1 import common_pb2, gartenbau_pb2 as pb, gartenbau_pb2_grpc
from solver.core.solve import SolveControl
from solver.games.gartenbau import api

GARDEN = {"starter": {"id": "ST1", "side": "a", "cells": [[0, 0], [0, 1]]},
          "seedlings": [{"id": "S07", "cells": [[1, 0], [1, 1]]}],
          "plants": [{"id": "P-red-1", "cells": [[0, 0], [1, 0]]}, {"id": "P-yellow-1", "cells": [[0, 1], [1, 1]]}],
          "flowers": [{"id": "B-beetle-sweet-william", "at": [0, 0]}],
          "tokens": {"flower_pot": True, "watering_can": False}}
HOLDING = {"starter": {"id": "ST1", "side": "a"}, "seedlings": ["S07"], "plants": ["P-red-1", "P-yellow-1"],
           "flowers": ["B-beetle-sweet-william"], "tokens": {"flower_pot": True}}
LIMIT = SolveControl(time_limit_s=5)
# 18 seedling tiles, 6 plants, 5 flowers: not proven within 15 s on this machine
HARD_HOLDING = {"starter": {"id": "ST1", "side": "a"},
                "seedlings": ["S42", "S20", "S51", "S07", "S10", "S13", "S47", "S08", "S28", "S03", "S06", "S64", "S27",
                              "S05", "S16", "S62", "S36", "S61"],
                "plants": ["P-blue-4", "P-red-5", "P-blue-8", "P-green-7", "P-yellow-1", "P-yellow-4"],
                "flowers": ["A01-calla-lily", "A02a-carnation", "A02b-carnation", "A03-datura", "A04-calla-lily"]}


@pytest.fixture
def stub(start_server):
    return gartenbau_pb2_grpc.GartenbauServiceStub(start_server(with_probe=False, time_cap_s=5).channel())


def cells(pairs):
    return [common_pb2.Cell(row=r, col=c) for r, c in pairs]


def garden_msg(doc) -> pb.GartenbauGarden:
    st = doc["starter"]
    return pb.GartenbauGarden(
        starter=pb.GartenbauStarter(id=st["id"], side=st["side"], cells=cells(st["cells"])),
        seedlings=[pb.GartenbauDomino(id=t["id"], cells=cells(t["cells"])) for t in doc.get("seedlings", [])],
        plants=[pb.GartenbauDomino(id=p["id"], cells=cells(p["cells"])) for p in doc.get("plants", [])],
        flowers=[pb.GartenbauFlower(id=f["id"], at=common_pb2.Cell(row=f["at"][0], col=f["at"][1]))
                 for f in doc.get("flowers", [])],
        tokens=pb.GartenbauTokens(**doc.get("tokens", {})))


def as_doc(msg: pb.GartenbauGarden) -> dict:
    def pairs(cs):
        return [[c.row, c.col] for c in cs]
    return {"starter": {"id": msg.starter.id, "side": msg.starter.side, "cells": pairs(msg.starter.cells)},
            "seedlings": [{"id": t.id, "cells": pairs(t.cells)} for t in msg.seedlings],
            "plants": [{"id": p.id, "cells": pairs(p.cells)} for p in msg.plants],
            "flowers": [{"id": f.id, "at": [f.at.row, f.at.col]} for f in msg.flowers],
            "tokens": {"flower_pot": msg.tokens.flower_pot, "watering_can": msg.tokens.watering_can}}


def holding_msg(doc) -> pb.GartenbauHolding:
    return pb.GartenbauHolding(starter=doc["starter"]["id"], side=doc["starter"]["side"], seedlings=doc["seedlings"],
                               plants=doc["plants"], flowers=doc["flowers"],
                               tokens=pb.GartenbauTokens(**doc.get("tokens", {})))


def field_violations(err: grpc.RpcError) -> dict[str, str]:
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT, (err.code(), err.details())
    bad = error_details_pb2.BadRequest()
    assert rpc_status.from_call(err).details[0].Unpack(bad)
    return {v.field: v.description for v in bad.field_violations}


def test_validate_matches_the_domain(stub):
    resp = stub.Validate(pb.GartenbauValidateRequest(garden=garden_msg(GARDEN)), timeout=30)
    assert resp.legal and not resp.violations and api.validate(GARDEN)["legal"]
    bad = dict(GARDEN, plants=[{"id": "P-red-1", "cells": [[0, 0], [0, 1]]}], flowers=[])
    resp = stub.Validate(pb.GartenbauValidateRequest(garden=garden_msg(bad)), timeout=30)
    domain = api.validate(bad)
    assert not resp.legal and not domain["legal"]
    assert [(v.rule, v.message) for v in resp.violations] == [(v["rule"], v["message"]) for v in domain["violations"]]


def test_score_matches_the_domain(stub):
    resp = stub.Score(pb.GartenbauScoreRequest(garden=garden_msg(GARDEN)), timeout=30)
    domain = api.score(GARDEN)
    s = resp.score
    assert (s.total, dict(s.flowers), s.plants, s.tokens, s.flowers_placed, s.plants_showing) == \
        (domain["total"], domain["flowers"], domain["plants"], domain["tokens"], domain["flowers_placed"],
         domain["plants_showing"])
    assert list(resp.tie_break) == domain["tie_break"]


def test_unset_tokens_keep_the_engines_defaults(stub):
    # a garden's tokens are unused unless said otherwise: 2 prestige each
    doc = {k: v for k, v in GARDEN.items() if k != "tokens"}
    resp = stub.Score(pb.GartenbauScoreRequest(garden=garden_msg(doc)), timeout=30)
    assert resp.score.tokens == api.score(doc)["tokens"] == 4


def test_solve_optimal_is_the_domains_optimum_and_rescores_to_it(stub):
    resp = stub.SolveOptimal(pb.GartenbauSolveOptimalRequest(holding=holding_msg(HOLDING)), timeout=60)
    domain = api.solve_optimal(HOLDING, control=LIMIT)
    assert domain["status"] == "optimal"
    assert resp.status == pb.GARTENBAU_SOLVE_STATUS_OPTIMAL
    assert resp.prestige == resp.bound == domain["prestige"]
    assert resp.score.total == resp.prestige and resp.picture == domain["picture"]
    rescored = stub.Score(pb.GartenbauScoreRequest(garden=resp.garden), timeout=30)
    assert rescored.score.total == resp.prestige
    assert stub.Validate(pb.GartenbauValidateRequest(garden=resp.garden), timeout=30).legal


def test_hint_ranks_like_the_domain(start_server):
    # 32 placements share the limit: a roomy cap keeps every search proven on a loaded machine
    # (each takes a few milliseconds when nothing else runs)
    stub = gartenbau_pb2_grpc.GartenbauServiceStub(start_server(with_probe=False, time_cap_s=30).channel())
    garden = {"starter": {"id": "ST1", "side": "a", "cells": [[0, 0], [0, 1]]},
              "tokens": {"flower_pot": False, "watering_can": False}}
    known = {"seedlings": [], "plants": ["P-red-1", "P-yellow-1"], "flowers": ["B-beetle-sweet-william"]}
    request = pb.GartenbauHintRequest(garden=garden_msg(garden), tile="S07", known=pb.GartenbauKnownTiles(**known))
    resp = stub.Hint(request, timeout=120)
    domain = api.hint(garden, "S07", known, control=SolveControl(time_limit_s=30))
    assert resp.tile == "S07"
    got = {str([[c.row, c.col] for c in o.placement.cells]): o for o in resp.options}
    assert set(got) == {str(o["placement"]["cells"]) for o in domain["options"]}
    for o in domain["options"]:
        mine = got[str(o["placement"]["cells"])]
        if o["status"] == "optimal" and mine.status == pb.GARTENBAU_SOLVE_STATUS_OPTIMAL:
            assert mine.prestige == mine.bound == o["prestige"]
    ranked = [o.prestige if o.HasField("prestige") else -1 for o in resp.options]
    assert ranked == sorted(ranked, reverse=True)
    # S07 directly above or below the starter, red over red, lets the Sweet William bloom
    assert resp.options[0].prestige == 16
    # top: the head of the same ranking (the two placements at the holding's ceiling, 16)
    request.top = 2
    head = stub.Hint(request, timeout=120).options
    assert [(list(o.placement.cells), o.prestige, o.status) for o in head] == \
        [(list(o.placement.cells), o.prestige, o.status) for o in resp.options[:2]]
    request.top = 0
    with pytest.raises(grpc.RpcError) as err:
        stub.Hint(request, timeout=60)
    assert "top" in field_violations(err.value)
    # each option's garden reaches its prestige; sent back as `follow` with the next tile
    best = resp.options[0]
    assert stub.Score(pb.GartenbauScoreRequest(garden=best.garden), timeout=30).score.total == best.prestige
    laid = pb.GartenbauGarden()
    laid.CopyFrom(request.garden)
    laid.seedlings.add(id="S07", cells=best.placement.cells)
    after = pb.GartenbauHintRequest(garden=laid, tile="P-red-1", follow=best.garden,
                                    known=pb.GartenbauKnownTiles(plants=["P-yellow-1"],
                                                                 flowers=["B-beetle-sweet-william"]))
    assert stub.Hint(after, timeout=120).options[0].prestige == best.prestige
    after.follow.CopyFrom(request.garden)  # (without the S07 just laid)
    with pytest.raises(grpc.RpcError) as err:
        stub.Hint(after, timeout=60)
    assert "follow" in field_violations(err.value)


def test_hint_of_a_flower_places_it_at_a_space(stub):
    garden = dict(GARDEN, flowers=[])
    resp = stub.Hint(pb.GartenbauHintRequest(garden=garden_msg(garden), tile="B-beetle-sweet-william"), timeout=60)
    assert [(o.placement.id, o.placement.HasField("at"), o.placement.at.row, o.placement.at.col)
            for o in resp.options] == [("B-beetle-sweet-william", True, 0, 0)]


def test_cancelling_a_search_reaches_the_engine_and_frees_the_slot(start_server):
    # uncancelled, this holding's search runs for the whole cap
    stub = cancel_a_search(start_server, "gartenbau", "GartenbauService", api.solve_optimal,
                           gartenbau_pb2_grpc.GartenbauServiceStub,
                           pb.GartenbauSolveOptimalRequest(holding=holding_msg(HARD_HOLDING)))
    assert stub.SolveOptimal(pb.GartenbauSolveOptimalRequest(holding=holding_msg(HOLDING)), timeout=60).prestige == 20  # (its watering can unset: unused)


def test_a_deadline_that_leaves_no_time_to_search_is_deadline_exceeded(stub):
    for call in (lambda: stub.SolveOptimal(pb.GartenbauSolveOptimalRequest(holding=holding_msg(HOLDING)), timeout=0.05),
                 lambda: stub.Hint(pb.GartenbauHintRequest(garden=garden_msg(GARDEN), tile="S08"), timeout=0.05)):
        with pytest.raises(grpc.RpcError) as err:
            call()
        assert err.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED


def test_every_bad_tile_plant_and_flower_of_a_garden_is_reported_at_once(stub):
    garden = dict(GARDEN, seedlings=[{"id": "S99", "cells": [[1, 0], [1, 1]]}, {"id": "S08", "cells": [[2, 0]]}],
                  plants=[{"id": "P-red-1", "cells": [[0, 0], [1, 0]]}, {"id": "P-nope", "cells": [[0, 1], [1, 1]]}],
                  flowers=[{"id": "F-nope", "at": [0, 0]}])
    with pytest.raises(grpc.RpcError) as err:
        stub.Score(pb.GartenbauScoreRequest(garden=garden_msg(garden)))
    assert set(field_violations(err.value)) == {
        "garden.seedlings[0].id", "garden.seedlings[1].cells", "garden.plants[1].id", "garden.flowers[0].id"}


def test_every_bad_tile_of_a_holding_and_of_the_tiles_to_come_is_reported_at_once(stub):
    with pytest.raises(grpc.RpcError) as err:
        stub.SolveOptimal(pb.GartenbauSolveOptimalRequest(holding=holding_msg(
            dict(HOLDING, starter={"id": "ST9", "side": "a"}, seedlings=["S99", "S01", "S01"], flowers=["F-nope"]))))
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert set(field_violations(err.value)) == {
        "holding.starter", "holding.seedlings[0]", "holding.seedlings[2]", "holding.flowers[0]"}
    with pytest.raises(grpc.RpcError) as err:  # the starter is laid: S01 twice, S08 is the tile being placed
        stub.Hint(pb.GartenbauHintRequest(garden=garden_msg(GARDEN), tile="S08", known=pb.GartenbauKnownTiles(
            seedlings=["S01", "S01", "S08"], plants=["P-nope"])))
    assert set(field_violations(err.value)) == {"known.seedlings[1]", "known.seedlings[2]", "known.plants[0]"}


@pytest.mark.parametrize("call, field", [
    (lambda s: s.Score(pb.GartenbauScoreRequest(garden=garden_msg(
        dict(GARDEN, seedlings=[{"id": "S99", "cells": [[1, 0], [1, 1]]}])))), "garden.seedlings[0].id"),
    (lambda s: s.Validate(pb.GartenbauValidateRequest(garden=garden_msg(
        dict(GARDEN, plants=[{"id": "P-red-1", "cells": [[0, 0]]}])))), "garden.plants[0].cells"),
    (lambda s: s.Validate(pb.GartenbauValidateRequest(garden=pb.GartenbauGarden())), "garden.starter.id"),
    (lambda s: s.Score(pb.GartenbauScoreRequest(garden=garden_msg(
        dict(GARDEN, plants=[{"id": "P-red-1", "cells": [[0, 0], [0, 1]]}], flowers=[])))), "garden"),
    (lambda s: s.SolveOptimal(pb.GartenbauSolveOptimalRequest(holding=holding_msg(
        dict(HOLDING, plants=["P-red-1", "P-nope"])))), "holding.plants[1]"),
    (lambda s: s.SolveOptimal(pb.GartenbauSolveOptimalRequest(holding=holding_msg(
        dict(HOLDING, starter={"id": "ST1", "side": "z"})))), "holding.side"),
    (lambda s: s.SolveOptimal(pb.GartenbauSolveOptimalRequest(holding=holding_msg(HOLDING), board=500)), "board"),
    (lambda s: s.Hint(pb.GartenbauHintRequest(garden=garden_msg(GARDEN), tile="S99")), "tile"),
    (lambda s: s.Hint(pb.GartenbauHintRequest(garden=garden_msg(GARDEN), tile="S08",
                                              known=pb.GartenbauKnownTiles(flowers=["F-nope"]))), "known.flowers[0]"),
    (lambda s: s.Hint(pb.GartenbauHintRequest(garden=garden_msg(GARDEN), tile="S08", margin=9)), "margin"),
    # the row after 2^31 - 1 does not fit the answer's int32: refused up front, by field
    (lambda s: s.Hint(pb.GartenbauHintRequest(garden=garden_msg(dict(GARDEN, seedlings=[], plants=[], flowers=[],
                                                                     starter={"id": "ST1", "side": "a", "cells": [
                                                                         [2 ** 31 - 1, 0], [2 ** 31 - 1, 1]]})),
                                              tile="S07")), "garden.starter.cells[0]"),
    # capped before any model is built (building alone ignores the deadline)
    (lambda s: s.SolveOptimal(pb.GartenbauSolveOptimalRequest(holding=holding_msg(
        dict(HOLDING, seedlings=[f"S{i:02d}" for i in range(1, 31)])))), "holding.seedlings"),
    (lambda s: s.Hint(pb.GartenbauHintRequest(garden=garden_msg(GARDEN), tile="S08", known=pb.GartenbauKnownTiles(
        flowers=[f"F{i}" for i in range(8)]))), "known.flowers"),
])
def test_malformed_input_names_the_field(stub, call, field):
    with pytest.raises(grpc.RpcError) as err:
        call(stub)
    assert field in field_violations(err.value)


# ---- docs/games-service.md -----------------------------------------------------------------

SERVICE = "GartenbauService"


def test_every_rpc_has_a_doc_example_that_parses():
    game_docs.check_every_rpc_has_a_doc_example(pb, SERVICE)


@pytest.mark.parametrize("method, body, answer", game_docs.quick_examples(SERVICE))
def test_quick_doc_examples_answer_as_documented(start_server, capsys, method, body, answer):
    game_docs.check_quick_example(start_server, capsys, SERVICE, method, body, answer)
