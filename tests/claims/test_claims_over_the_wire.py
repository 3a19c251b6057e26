"""Claims audit (1 Dec 05:00-07:05 UTC): a few answers of the Gartenbau, Versailles and
Horticulture services through a real server and channel, against the independent oracles, and the
audit's refused inputs as INVALID_ARGUMENT naming the request field."""
from __future__ import annotations

import random

import grpc
import pytest
from google.protobuf import json_format
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from gardens.v1 import (gartenbau_pb2, gartenbau_pb2_grpc, horticulture_pb2, horticulture_pb2_grpc,
                        versailles_pb2, versailles_pb2_grpc)
from server.app import create_server
from server.config import ServerConfig
from server.runtime import Runtime

from . import oracles_gartenbau as og
from . import oracles_horticulture as oh
from . import oracles_versailles as ov

# Load-sensitive (a 5 s wall cap per call asserting OPTIMAL): `make test` runs these alone, after the parallel
# pass.
pytestmark = pytest.mark.serial


@pytest.fixture(scope="module")
def channel():
    config = ServerConfig(address="localhost:0", time_cap_s=5)
    runtime = Runtime(config, domains={})
    server, port = create_server(config, runtime=runtime)
    server.start()
    ch = grpc.insecure_channel(f"localhost:{port}")
    yield ch
    ch.close()
    server.stop(0).wait()
    runtime.metrics.close()


def bad_field(call) -> str:
    with pytest.raises(grpc.RpcError) as err:
        call()
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT, (err.value.code(), err.value.details())
    bad = error_details_pb2.BadRequest()
    assert rpc_status.from_call(err.value).details[0].Unpack(bad)
    return bad.field_violations[0].field


def test_versailles_over_the_wire(channel):
    stub = versailles_pb2_grpc.VersaillesServiceStub(channel)
    tiles = ov.tiles()
    rng = random.Random(9)
    seq = rng.sample(sorted(tiles), 7)
    placements, history = ov.random_garden(rng, seq[:6], tiles)
    garden = versailles_pb2.VersaillesGarden(placements=[versailles_pb2.VersaillesPlacement(**p) for p in placements])
    got = stub.Score(versailles_pb2.VersaillesScoreRequest(garden=garden), timeout=30)
    assert got.solo_points == ov.solo_points(history)
    hint = stub.Hint(versailles_pb2.VersaillesHintRequest(garden=garden, next_tile=seq[6], top=20), timeout=30)
    for option in hint.placements:  # the 7th tile: intermediate scoring only
        p = option.placement
        assert ov.legal(history[-1], p.x, p.y)
        after = ov.add(history[-1], tiles[seq[6]], p.x, p.y, p.rotation)
        assert option.points == ov.hint_points(history + [after])
    solved = stub.SolveOptimal(versailles_pb2.VersaillesSolveOptimalRequest(tiles=seq[:3]), timeout=30)
    best, _ = ov.best_solo(seq[:3], tiles)
    assert solved.status == versailles_pb2.VERSAILLES_SOLVE_STATUS_OPTIMAL and solved.points == best


def test_horticulture_over_the_wire(channel):
    stub = horticulture_pb2_grpc.HorticultureServiceStub(channel)
    setup = {"side": "A", "path": {"start": 3, "moves": "DDDDDDD"}, "gnome": {"row": 5, "col": 3},
             "plan": {"border": "sweet_potato", "path": "turnip", "companions": ["topiary", "carrot"]}}
    sheet = oh.Sheet("A", 3, "DDDDDDD")
    gnome = (3, 5)  # (column, row)
    nursery = [24, 4]
    best = sheet.best({}, [], gnome, {"border": "sweet_potato", "path": "turnip", "companions": ["topiary", "carrot"]},
                      [[oh.deck()[c] for c in nursery]])
    req = json_format.ParseDict(dict(setup, nursery=nursery), horticulture_pb2.HorticultureSolveOptimalRequest())
    got = stub.SolveOptimal(req, timeout=30)
    assert got.status == horticulture_pb2.HORTICULTURE_SOLVE_STATUS_OPTIMAL and got.score == best
    rng = random.Random(2)
    garden, box, days = {}, [], []
    for cid in rng.sample(sorted(oh.deck()), 8):  # a random 8-day game, squares sent as {row, col}
        plants, garden, box = oh.random_day(rng, sheet, garden, box, gnome, oh.deck()[cid])
        days.append({"chosen": cid, "plants": [
            {"plant": p, "window_box": True} if at == oh.WINDOW else {"plant": p, "at": {"row": at[1], "col": at[0]}}
            for p, at in plants]})
    want = sheet.score(garden, box, gnome, {"border": "sweet_potato", "path": "turnip", "companions": ["topiary", "carrot"]})
    checked = stub.Validate(json_format.ParseDict(dict(setup, days=days), horticulture_pb2.HorticultureValidateRequest()),
                            timeout=30)
    assert checked.legal and checked.score.total == want
    snapshot = dict(setup, garden=[{"plant": p, "at": {"row": r, "col": c}} for (c, r), p in garden.items()], window_box=box)
    assert stub.Score(json_format.ParseDict(snapshot, horticulture_pb2.HorticultureScoreRequest()), timeout=30).score.total == want
    hint = json_format.ParseDict(dict(setup, today=[4, 5], future={"cards": [4, 6]}), horticulture_pb2.HorticultureHintRequest())
    assert bad_field(lambda: stub.Hint(hint, timeout=30)) == "future.cards[0]"  # was INTERNAL (ModelMismatch)


def test_gartenbau_over_the_wire(channel):
    stub = gartenbau_pb2_grpc.GartenbauServiceStub(channel)
    rng = random.Random(6)
    for _ in range(5):
        g = og.random_garden(rng, rng.randint(2, 10), 6, 4)
        doc = dict(g, starter=dict(g["starter"], cells=[{"row": r, "col": c} for r, c in g["starter"]["cells"]]),
                   seedlings=[dict(t, cells=[{"row": r, "col": c} for r, c in t["cells"]]) for t in g["seedlings"]],
                   plants=[dict(p, cells=[{"row": r, "col": c} for r, c in p["cells"]]) for p in g["plants"]],
                   flowers=[{"id": f["id"], "at": {"row": f["at"][0], "col": f["at"][1]}} for f in g["flowers"]])
        msg = json_format.ParseDict({"garden": doc}, gartenbau_pb2.GartenbauScoreRequest())
        assert stub.Score(msg, timeout=30).score.total == og.score(g)[0]
    garden = {"starter": {"id": "ST1", "side": "a", "cells": [{"row": 0, "col": 0}, {"row": 0, "col": 1}]},
              "seedlings": [{"id": "S07", "cells": [{"row": 1, "col": 0}, {"row": 1, "col": 1}]}]}
    hint = json_format.ParseDict({"garden": garden, "tile": "S08", "known": {"seedlings": ["S07"]}},
                                 gartenbau_pb2.GartenbauHintRequest())
    assert bad_field(lambda: stub.Hint(hint, timeout=30)) == "known.seedlings[0]"  # was known.seedlings[2]
