"""HorticultureService records and snapshots held to the game's own sizes before anything is replayed
or scored (found by the lead after the audit of 1 Dec), on a real server over a real channel."""
from __future__ import annotations

import grpc
import pytest
from google.protobuf import json_format
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from gardens.v1 import horticulture_pb2 as pb, horticulture_pb2_grpc

SETUP = {"side": "A", "path": {"start": 3, "moves": "DDDDDDD"}, "gnome": {"row": 5, "col": 3},
         "plan": {"border": "sweet_potato", "path": "turnip", "companions": ["topiary", "carrot"]}}
DAY = {"chosen": 4, "plants": [{"plant": "topiary", "at": {"row": 5, "col": 4}},
                               {"plant": "carrot", "at": {"row": 0, "col": 0}}]}


@pytest.fixture
def stub(start_server):
    return horticulture_pb2_grpc.HorticultureServiceStub(start_server(with_probe=False).channel())


def refused(call, request) -> list[tuple[str, str]]:
    with pytest.raises(grpc.RpcError) as err:
        call(request, timeout=30)
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT, err.value.details()
    detail = error_details_pb2.BadRequest()
    assert rpc_status.from_call(err.value).details[0].Unpack(detail)
    return [(v.field, v.description) for v in detail.field_violations]


def test_a_record_longer_than_the_deck_allows_is_refused_before_the_replay(stub):
    """Before: a 60 KB record of 1,817 copies of one day answered 3,633 violations (274 KB), and one day of
    4,994 plantings 4,994 (453 KB). A day flips two cards of a nursery of at most 36 (6 gardeners; the deck holds
    54) and plants its card's two plants."""
    request = json_format.ParseDict({**SETUP, "days": [DAY]}, pb.HorticultureValidateRequest())
    while request.ByteSize() < 60_000:
        request.days.add().CopyFrom(request.days[0])
    [(field, why)] = refused(stub.Validate, request)
    assert field == "days" and "at most 18" in why
    del request.days[18:]
    answer = stub.Validate(request, timeout=30)  # at the limit: judged, and the answer stays small
    assert not answer.legal and answer.ByteSize() < 20_000
    one = json_format.ParseDict({**SETUP, "days": [DAY]}, pb.HorticultureValidateRequest())
    for _ in range(3):
        one.days[0].plants.add().CopyFrom(one.days[0].plants[1])
    [(field, why)] = refused(stub.Validate, one)
    assert field == "days[0].plants" and "two plants" in why


@pytest.mark.parametrize("box, field", [(["topiary"] * 10, "window_box"),
                                        (["berry", "topiary", "berry"], "window_box[2]"),
                                        (["topiary", "turnip", "carrot", "sweet_potato", "flower", "berry", "topiary"],
                                         "window_box")])
def test_a_snapshot_window_box_breaking_its_rules_is_not_scored(stub, box, field):
    """Before: Score scored any list as the window box (ten topiaries: 16 points); the box holds each
    type at most once in its six slots."""
    request = json_format.ParseDict({**SETUP, "garden": [], "window_box": box}, pb.HorticultureScoreRequest())
    assert refused(stub.Score, request)[0][0] == field
    full = json_format.ParseDict({**SETUP, "garden": [], "window_box": box[:1]}, pb.HorticultureScoreRequest())
    assert stub.Score(full, timeout=30).score.window_box == 1
