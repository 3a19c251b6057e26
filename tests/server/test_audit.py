"""Defects found by the service audit of 1 Dec 2026 (docs/service.md, "Audit"), each on a real server
over a real channel, each failing without its fix."""
from __future__ import annotations

import datetime as dt

import grpc
import pytest
from google.protobuf import json_format
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from gardens.v1 import (gardeners_pb2, gardeners_pb2_grpc, gartenbau_pb2, gartenbau_pb2_grpc, puzzles_pb2,
                        horticulture_pb2, horticulture_pb2_grpc, puzzles_pb2_grpc)
from tests.generators.dailies import seed

GARDEN = {"starter": {"id": "ST1", "side": "a", "cells": [{"row": 0, "col": 0}, {"row": 0, "col": 1}]},
          "seedlings": [{"id": "S07", "cells": [{"row": 1, "col": 0}, {"row": 1, "col": 1}]}]}


def bad_request(err: grpc.RpcError) -> error_details_pb2.BadRequest:
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT, (err.code(), err.details()[:300])
    status = rpc_status.from_call(err)
    assert status is not None
    out = error_details_pb2.BadRequest()
    assert status.details[0].Unpack(out)
    return out


def test_a_garden_with_144_violations_gets_a_bounded_bad_request(start_server):
    """Before: one violation per bad field; 36 placements (the limit) with a bad tile, row, col and
    rotation each made a 24 KB status, past the client's 16 KiB metadata cap, so the client got
    RESOURCE_EXHAUSTED "Stream removed" instead of INVALID_ARGUMENT."""
    srv = start_server(with_probe=False)
    stub = gardeners_pb2_grpc.GardenersServiceStub(srv.channel())
    garden = {"size": 6, "placements": [{"tile": f"nope-{i}" + "y" * 60, "row": -1, "col": 99, "rotation": 7}
                                        for i in range(36)]}
    with pytest.raises(grpc.RpcError) as err:
        stub.CheckGarden(json_format.ParseDict({"garden": garden}, gardeners_pb2.CheckGardenRequest()), timeout=30)
    detail = bad_request(err.value)
    assert 4 <= len(detail.field_violations) <= 20
    assert detail.field_violations[0].field == "garden.placements[0].tile"
    assert detail.field_violations[1].field == "garden.placements[0].row"
    assert err.value.details().endswith(f"; and {144 - len(detail.field_violations)} more violations not listed")
    assert srv.health() == 1  # SERVING


@pytest.mark.parametrize("char", ["\u00e9", "\U0001F600"])
def test_non_ascii_bad_values_keep_the_status_under_the_metadata_cap(start_server, char):
    """With the first bound (characters, not bytes) 36 unknown tile ids of 300 x 'é' or an emoji
    still made a 9.5 KB / 27.5 KB status: the message is sent percent-encoded (3 characters a
    non-ASCII byte) and again inside the base64 details; past the 8 KiB soft cap calls fail at random."""
    srv = start_server(with_probe=False)
    stub = gardeners_pb2_grpc.GardenersServiceStub(srv.channel())
    garden = {"size": 6, "placements": [{"tile": char * 300, "row": i // 6, "col": i % 6} for i in range(36)]}
    for _ in range(3):  # the soft cap rejects at random
        with pytest.raises(grpc.RpcError) as err:
            stub.CheckGarden(json_format.ParseDict({"garden": garden}, gardeners_pb2.CheckGardenRequest()), timeout=30)
        detail = bad_request(err.value)
        assert detail.field_violations[0].field == "garden.placements[0].tile"
        assert err.value.details().endswith("more violations not listed")
        status = rpc_status.from_call(err.value)
        assert len(status.SerializeToString()) * 4 / 3 + 3 * len(status.message.encode()) < 8192


def test_a_60_kb_request_of_bad_elements_gets_a_bounded_status(start_server):
    """Before: Score's ValueError listed every rule broken by 3,500 copies of a seedling tile in one
    description (~370 KB status): RESOURCE_EXHAUSTED "Stream removed" on the client."""
    srv = start_server(with_probe=False)
    stub = gartenbau_pb2_grpc.GartenbauServiceStub(srv.channel())
    request = json_format.ParseDict({"garden": GARDEN}, gartenbau_pb2.GartenbauScoreRequest())
    while len(request.garden.seedlings) < 72:  # the most a garden may list (the game's 72 seedling tiles)
        request.garden.seedlings.add().CopyFrom(request.garden.seedlings[0])
    with pytest.raises(grpc.RpcError) as err:
        stub.Score(request, timeout=30)
    detail = bad_request(err.value)
    assert [v.field for v in detail.field_violations] == ["garden"]
    assert detail.field_violations[0].description.startswith("unique_tile: tile S07 is used more than once")
    assert len(detail.field_violations[0].description) <= 200
    assert srv.health() == 1


@pytest.mark.parametrize("method", ["Validate", "Score"])
def test_a_garden_longer_than_the_catalog_is_refused_before_the_rules_run(start_server, method):
    """Before: Validate of a 60 KB garden of 3,500 copies of one seedling tile ran every rule and
    answered 7,001 violations (385 KB). A garden holds each tile once, so no list may be longer
    than the catalog's (72 seedling tiles, 48 plants, 54 flowers); at the limit the answer stays small."""
    srv = start_server(with_probe=False)
    stub = gartenbau_pb2_grpc.GartenbauServiceStub(srv.channel())
    call = getattr(stub, method)
    request_type = getattr(gartenbau_pb2, f"Gartenbau{method}Request")
    request = json_format.ParseDict({"garden": GARDEN}, request_type())
    while request.ByteSize() < 60_000:
        request.garden.seedlings.add().CopyFrom(request.garden.seedlings[0])
    with pytest.raises(grpc.RpcError) as err:
        call(request, timeout=30)
    detail = bad_request(err.value)
    assert [v.field for v in detail.field_violations] == ["garden.seedlings"]
    assert "at most 72" in detail.field_violations[0].description
    for kind, most in (("plants", 48), ("flowers", 54)):
        many = json_format.ParseDict({"garden": dict(GARDEN, **{kind: [{"id": "x"}] * (most + 1)})}, request_type())
        with pytest.raises(grpc.RpcError) as err:
            call(many, timeout=30)
        assert [v.field for v in bad_request(err.value).field_violations] == [f"garden.{kind}"]
    if method == "Validate":
        del request.garden.seedlings[72:]
        answer = call(request, timeout=30)
        assert not answer.legal and answer.violations[0].rule == "unique_tile"
        assert answer.ByteSize() < 20_000, answer.ByteSize()
    assert srv.health() == 1


def test_a_huge_bad_string_is_quoted_short(start_server):
    """Before: the bad value was quoted whole in the description and the message (twice), so a 40 KB
    tile id made an 80 KB+ status and the client again saw RESOURCE_EXHAUSTED instead of the error."""
    srv = start_server(with_probe=False)
    stub = gardeners_pb2_grpc.GardenersServiceStub(srv.channel())
    garden = {"size": 6, "placements": [{"tile": "x" * 40_000, "row": 0, "col": 0}]}
    request = json_format.ParseDict({"garden": garden}, gardeners_pb2.CheckGardenRequest())
    with pytest.raises(grpc.RpcError) as err:
        stub.CheckGarden(request, timeout=30)
    detail = bad_request(err.value)
    assert detail.field_violations[0].field == "garden.placements[0].tile"
    assert len(detail.field_violations[0].description) <= 200
    assert srv.health() == 1


@pytest.mark.parametrize("method", ["/gardens.v1.GardenersService/CheckGarden", "/gardens.v1.PuzzleService/ListPuzzles",
                                    "/gardens.v1.VersaillesService/SolveOptimal"])
def test_a_body_that_is_not_protobuf_is_invalid_argument(start_server, method):
    """Before: grpc answered a deserializer's exception with INTERNAL "Exception deserializing
    request!" (no details, not logged or counted by the interceptor)."""
    srv = start_server(with_probe=False, workers=1)
    raw = srv.channel().unary_unary(method)  # bytes in, bytes out
    for body in (b"\xff\xff\xff", b"\x0a\x05ab", b"\x0a\x80\x80\x80\x80\x80\x80\x80\x80\x80\x01"):
        with pytest.raises(grpc.RpcError) as err:
            raw(body, timeout=10)
        detail = bad_request(err.value)
        assert detail.field_violations[0].description.startswith("the request body is not a valid protobuf message")
    assert srv.runtime.metrics.calls.labels(method, "INVALID_ARGUMENT")._value.get() == 3
    assert all(pool.in_use == 0 for pool in srv.runtime.pools.values())
    assert srv.health() == 1


def test_dates_are_only_yyyy_mm_dd(start_server, tmp_path):
    """Before: Python 3.11's date.fromisoformat took 20261201 and the week date 2026-W49-2 too, so
    ListPuzzles listed from them and a puzzle had several ids (…/20261201 = …/2026-12-01)."""
    srv = start_server(with_probe=False, puzzles_db=str(tmp_path / "p.sqlite"))
    stub = puzzles_pb2_grpc.PuzzleServiceStub(srv.channel())
    calls = [(stub.ListPuzzles, puzzles_pb2.ListPuzzlesRequest(date_from="20261201"), "date_from"),
             (stub.ListPuzzles, puzzles_pb2.ListPuzzlesRequest(date_to="2026-W49-2"), "date_to"),
             (stub.GetDailyPuzzle, puzzles_pb2.GetDailyPuzzleRequest(
                 game=puzzles_pb2.PUZZLE_GAME_GARDENERS, difficulty=puzzles_pb2.PUZZLE_DIFFICULTY_EASY,
                 date="2026-W49-2"), "date"),
             (stub.CheckAnswer, puzzles_pb2.CheckAnswerRequest(puzzle_id="gardeners/decree/easy/20261201"), "puzzle_id")]
    for rpc, request, field in calls:
        with pytest.raises(grpc.RpcError) as err:
            rpc(request, timeout=30)
        detail = bad_request(err.value)
        assert detail.field_violations[0].field == field
        assert detail.field_violations[0].description.startswith("must be a calendar date YYYY-MM-DD")
    assert stub.ListPuzzles(puzzles_pb2.ListPuzzlesRequest(date_from="2026-12-01"), timeout=30).puzzles == []


def test_horticulture_solutions_name_each_days_cards(start_server):
    """Before: the docs/games-service.md SolveOptimal example (nursery [24, 4]) answered days[0].cards
    empty (the engine fills them only from some search paths; a two-day nursery had them)."""
    srv = start_server(with_probe=False)
    stub = horticulture_pb2_grpc.HorticultureServiceStub(srv.channel())
    setup = {"side": "A", "path": {"start": 3, "moves": "DDDDDDD"}}
    plan = {"gnome": {"row": 5, "col": 3},
            "plan": {"border": "sweet_potato", "path": "turnip", "companions": ["topiary", "carrot"]}}
    for nursery in ([24, 4], [24, 4, 48, 10]):
        r = stub.SolveOptimal(json_format.ParseDict(dict(setup, **plan, nursery=nursery),
                                                    horticulture_pb2.HorticultureSolveOptimalRequest()), timeout=60)
        assert [list(d.cards) for d in r.days] == [nursery[i:i + 2] for i in range(0, len(nursery), 2)]
        assert all(d.chosen in d.cards for d in r.days)
    r = stub.SolveBestPlan(json_format.ParseDict(dict(setup, nursery=[24, 4]),
                                                 horticulture_pb2.HorticultureSolveBestPlanRequest()), timeout=60)
    assert [list(d.cards) for d in r.days] == [[24, 4]]


def test_a_nan_in_a_struct_answer_names_its_field(start_server, tmp_path):
    """Before: CheckAnswer with a NaN or Infinity in `gartenbau_garden` (a google.protobuf.Struct)
    was INVALID_ARGUMENT with an empty field ("Fail to serialize NaN for Value.number_value ...")."""
    # today's holding stored as if made before (generated once a run; its proof took ~13 s here)
    seed(tmp_path / "p.sqlite", f"gartenbau/holding/easy/{dt.datetime.now(dt.timezone.utc).date().isoformat()}")
    srv = start_server(with_probe=False, puzzles_db=str(tmp_path / "p.sqlite"))
    stub = puzzles_pb2_grpc.PuzzleServiceStub(srv.channel())
    puzzle = stub.GetDailyPuzzle(puzzles_pb2.GetDailyPuzzleRequest(
        game=puzzles_pb2.PUZZLE_GAME_GARTENBAU, difficulty=puzzles_pb2.PUZZLE_DIFFICULTY_EASY), timeout=120)
    for value in (float("nan"), float("inf")):
        request = puzzles_pb2.CheckAnswerRequest(puzzle_id=puzzle.id)
        request.gartenbau_garden.update({"starter": {"id": "ST1", "side": "a", "cells": [[0, value], [0, 1]]}})
        with pytest.raises(grpc.RpcError) as err:
            stub.CheckAnswer(request, timeout=30)
        detail = bad_request(err.value)
        assert [v.field for v in detail.field_violations] == ["gartenbau_garden"]


def test_list_puzzles_refuses_an_unknown_variant(start_server, tmp_path):
    """Before: ListPuzzles(variant="decrees") (a typo) answered an empty page, as if no puzzle had been
    published, instead of naming the field; a variant of another game is refused the same way."""
    srv = start_server(with_probe=False, puzzles_db=str(tmp_path / "p.sqlite"))
    stub = puzzles_pb2_grpc.PuzzleServiceStub(srv.channel())
    for request in (puzzles_pb2.ListPuzzlesRequest(variant="decrees"),
                    puzzles_pb2.ListPuzzlesRequest(game=puzzles_pb2.PUZZLE_GAME_GARDENERS, variant="nursery")):
        with pytest.raises(grpc.RpcError) as err:
            stub.ListPuzzles(request, timeout=30)
        violation = bad_request(err.value).field_violations[0]
        assert violation.field == "variant"
        assert "decree" in violation.description
    for variant in ("", "decree", "nursery"):  # known variants still list (nothing served yet: empty pages)
        assert stub.ListPuzzles(puzzles_pb2.ListPuzzlesRequest(variant=variant), timeout=30).puzzles == []
    assert srv.health() == 1


def test_answers_with_map_fields_have_the_same_bytes_in_every_process(start_server):
    """Before: a map field (VersaillesScoreResponse.areas) was written in an order that differs between
    processes, so equal answers had different bytes. Now every response is serialised with sorted keys:
    the raw bytes are the deterministic serialisation of the answer."""
    from gardens.v1 import versailles_pb2
    srv = start_server(with_probe=False)
    raw = srv.channel().unary_unary("/gardens.v1.VersaillesService/Score")
    request = versailles_pb2.VersaillesScoreRequest()
    request.garden.placements.add(tile=4, x=0, y=0)
    request.garden.placements.add(tile=5, x=2, y=0)
    body = raw(request.SerializeToString(), timeout=10)
    answer = versailles_pb2.VersaillesScoreResponse.FromString(body)
    assert len(answer.areas) >= 4
    assert body == answer.SerializeToString(deterministic=True)
