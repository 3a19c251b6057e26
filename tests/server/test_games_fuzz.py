"""Arbitrary requests to every RPC of the game, hint and puzzle services: answered or refused with a
deliberate status, never INTERNAL/UNKNOWN, and the server keeps serving.

The requests are built from the message descriptors, so a field added to a proto is fuzzed without
editing this file: each is either a documented example request (docs/*.md) with some fields
replaced, cleared, duplicated or dropped, or a message filled from scratch. Values mix well-formed
ones (ids and words seen in the examples) with edge cases (negative, huge, NaN, unknown enum numbers).
"""
from __future__ import annotations

import json
import math
import os
import re
from pathlib import Path

import grpc
import pytest
from google.protobuf import descriptor as d
from google.protobuf import json_format, message_factory
from grpc_health.v1 import health_pb2, health_pb2_grpc
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gardens.v1 import (gartenbau_pb2, gartenbau_pb2_grpc, hints_pb2, hints_pb2_grpc, horticulture_pb2,
                        horticulture_pb2_grpc, puzzles_pb2, puzzles_pb2_grpc, versailles_pb2, versailles_pb2_grpc)
from field_paths import unresolved
from server.app import create_server
from server.config import ServerConfig

DOCS = Path(__file__).resolve().parents[2] / "docs"
ALLOWED = {grpc.StatusCode.OK, grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.DEADLINE_EXCEEDED,
           grpc.StatusCode.NOT_FOUND, grpc.StatusCode.FAILED_PRECONDITION, grpc.StatusCode.RESOURCE_EXHAUSTED}
SERVICES = {
    "GartenbauService": (gartenbau_pb2, gartenbau_pb2_grpc.GartenbauServiceStub),
    "VersaillesService": (versailles_pb2, versailles_pb2_grpc.VersaillesServiceStub),
    "HorticultureService": (horticulture_pb2, horticulture_pb2_grpc.HorticultureServiceStub),
    "HintService": (hints_pb2, hints_pb2_grpc.HintServiceStub),
    "PuzzleService": (puzzles_pb2, puzzles_pb2_grpc.PuzzleServiceStub),
}
EXAMPLES_PER_RPC = int(os.environ.get("GARDENS_FUZZ_EXAMPLES", "25"))  # more for a longer hunt


def _examples() -> dict[tuple[str, str], list[str]]:
    """Every `gardens call ... Service.Method '{json}'` (or bare `Method`) request body in the docs."""
    found: dict[tuple[str, str], list[str]] = {}
    for doc in [*DOCS.glob("*.md"), DOCS.parent / "README.md"]:
        text = re.sub(r"\\\n\s*", " ", doc.read_text())  # shell line continuations
        for m in re.finditer(r"gardens call --server \S+ (?:(\w+)\.)?(\w+)\s+'([^']*)'", text):
            service = m.group(1) or next((s for s, (pb, _) in SERVICES.items()
                                          if m.group(2) in pb.DESCRIPTOR.services_by_name[s].methods_by_name), None)
            if service in SERVICES:
                found.setdefault((service, m.group(2)), []).append(m.group(3))
    return found


EXAMPLES = _examples()


def _words(value, out: set) -> set:
    if isinstance(value, dict):
        for v in value.values():
            _words(v, out)
    elif isinstance(value, list):
        for v in value:
            _words(v, out)
    elif isinstance(value, str):
        out.add(value)
    return out


WORDS = sorted(_words([json.loads(b) for bodies in EXAMPLES.values() for b in bodies], set())) or ["x"]
INT32 = (-2 ** 31, 2 ** 31 - 1)


def scalar(field: d.FieldDescriptor):
    t = field.type
    if t == d.FieldDescriptor.TYPE_BOOL:
        return st.booleans()
    if t == d.FieldDescriptor.TYPE_STRING:
        return st.sampled_from(WORDS) | st.text(max_size=6) | st.sampled_from(["", "2027-02-30", "9999-12-31"])
    if t == d.FieldDescriptor.TYPE_BYTES:
        return st.binary(max_size=4)
    if t == d.FieldDescriptor.TYPE_ENUM:
        return st.integers(-1, len(field.enum_type.values) + 1)
    if t in (d.FieldDescriptor.TYPE_FLOAT, d.FieldDescriptor.TYPE_DOUBLE):
        return st.sampled_from([0.0, -1.0, 1e-9, 0.05, 1e9, math.nan, math.inf]) | st.floats(-3, 40)
    unsigned = t in (d.FieldDescriptor.TYPE_UINT32, d.FieldDescriptor.TYPE_UINT64, d.FieldDescriptor.TYPE_FIXED32,
                     d.FieldDescriptor.TYPE_FIXED64)
    small = st.integers(0 if unsigned else -3, 16)
    return small | small | st.sampled_from([INT32[1], 10 ** 6] if unsigned else [*INT32, 10 ** 6])


def _is_map(field: d.FieldDescriptor) -> bool:
    return field.message_type is not None and field.message_type.GetOptions().map_entry


def _set(msg, field: d.FieldDescriptor, draw, depth: int) -> None:
    """Give `field` of `msg` a fresh arbitrary value."""
    msg.ClearField(field.name)
    if _is_map(field):
        key_f, value_f = field.message_type.fields_by_name["key"], field.message_type.fields_by_name["value"]
        target = getattr(msg, field.name)
        for _ in range(draw(st.integers(0, 3))):
            key = draw(scalar(key_f))
            if value_f.message_type is None:
                target[key] = draw(scalar(value_f))
            else:
                fill(target[key], draw, depth + 1)
        return
    if field.is_repeated:
        target = getattr(msg, field.name)
        for _ in range(draw(st.integers(0, 3 if depth > 1 else 8))):
            if field.message_type is None:
                target.append(draw(scalar(field)))
            else:
                fill(target.add(), draw, depth + 1)
        return
    if field.message_type is None:
        setattr(msg, field.name, draw(scalar(field)))
    else:
        fill(getattr(msg, field.name), draw, depth + 1)


def fill(msg, draw, depth: int = 0) -> None:
    """An arbitrary message from its descriptor: each field set with probability 1/2, depth at most 3."""
    if depth > 3:
        return
    for field in msg.DESCRIPTOR.fields:
        if draw(st.booleans()):
            _set(msg, field, draw, depth)


def mutate(msg, draw, depth: int = 0) -> None:
    """Change a well-formed message a little: per field keep (mostly), recurse, clear, replace, or
    (repeated) drop / duplicate / append an element."""
    for field in msg.DESCRIPTOR.fields:
        choice = draw(st.integers(0, 15))
        repeated = field.is_repeated and not _is_map(field)
        if choice == 0:
            msg.ClearField(field.name)
        elif choice == 1:
            _set(msg, field, draw, depth)
        elif choice == 2 and repeated and len(getattr(msg, field.name)):
            items = getattr(msg, field.name)
            i = draw(st.integers(0, len(items) - 1))
            if draw(st.booleans()):
                del items[i]
            elif field.message_type is None:
                items.append(items[i])
            else:
                items.add().CopyFrom(items[i])
        elif choice == 3 and field.message_type is not None and not _is_map(field):
            if repeated:
                for item in getattr(msg, field.name):
                    mutate(item, draw, depth + 1)
            elif msg.HasField(field.name):
                mutate(getattr(msg, field.name), draw, depth + 1)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("fuzz") / "puzzles.sqlite"
    config = ServerConfig(address="localhost:0", time_cap_s=0.5, call_time_cap_s=2.0, puzzles_db=str(db))
    srv, port = create_server(config)
    srv.start()
    channel = grpc.insecure_channel(f"localhost:{port}")
    yield channel
    channel.close()
    srv.stop(0).wait()


CASES = [(s, m) for s, (pb, _) in SERVICES.items() for m in pb.DESCRIPTOR.services_by_name[s].methods_by_name]


def test_every_rpc_has_a_documented_example_to_start_from():
    assert {c for c in CASES if c not in EXAMPLES} == set()


@pytest.mark.parametrize("service, method", CASES)
def test_arbitrary_requests_get_a_deliberate_status(server, service, method):
    pb, stub_class = SERVICES[service]
    rpc_desc = pb.DESCRIPTOR.services_by_name[service].methods_by_name[method]
    request_class = message_factory.GetMessageClass(rpc_desc.input_type)  # (a shared one lives in common.proto)
    rpc = getattr(stub_class(server), method)
    bodies = EXAMPLES.get((service, method), [])

    @settings(max_examples=EXAMPLES_PER_RPC, deadline=None, derandomize=True, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
    @given(st.data())
    def check(data):
        request = request_class()
        if bodies and data.draw(st.integers(0, 3)):
            json_format.Parse(data.draw(st.sampled_from(bodies)), request)
            mutate(request, data.draw)
        else:
            fill(request, data.draw)
        try:
            rpc(request, timeout=20)
        except grpc.RpcError as err:
            assert err.code() in ALLOWED, (err.code(), err.details(), request)
            assert not (lost := unresolved(err, request_class.DESCRIPTOR)), (lost, err.details(), request)

    check()
    health = health_pb2_grpc.HealthStub(server).Check(health_pb2.HealthCheckRequest(), timeout=5)
    assert health.status == health_pb2.HealthCheckResponse.SERVING
