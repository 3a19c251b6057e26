"""The field paths of an INVALID_ARGUMENT answer's BadRequest must name fields of the request.

A path is proto field names joined by dots, each optionally indexed (`trials[3].garden.placements[0].tile`);
inside a google.protobuf.Struct/Value/ListValue (the answers CheckAnswer takes as JSON) any path goes on. The
fuzzing of 7 Dec found paths the client could not follow: `placements[0].tile` for DeduceCard's `garden`, and
`versailles_garden` holding the real path in its message."""
from __future__ import annotations

import re

import grpc
from google.protobuf import descriptor as d
from google.rpc import error_details_pb2
from grpc_status import rpc_status

_SEGMENT = re.compile(r"^([a-z_][a-z0-9_]*)((?:\[[^\]]*\])*)$")
_FREE = {"google.protobuf.Struct", "google.protobuf.Value", "google.protobuf.ListValue"}


def resolves(message: d.Descriptor, path: str) -> bool:
    """Whether `path` names a field (or an element of one) of `message`."""
    if not path:
        return False
    for i, segment in enumerate(parts := path.split(".")):
        if message.full_name in _FREE:
            return True
        match = _SEGMENT.match(segment)
        field = match and message.fields_by_name.get(match.group(1))
        if not field:
            return False
        indexed = bool(match.group(2))
        if indexed and not field.is_repeated and \
                (field.message_type is None or field.message_type.full_name not in _FREE):
            return False
        if field.message_type is None:
            return i == len(parts) - 1
        message = field.message_type
        if field.message_type.GetOptions().map_entry:  # a map: its value's type
            message = field.message_type.fields_by_name["value"].message_type or message
    return True


def unresolved(err: grpc.RpcError, message: d.Descriptor) -> list[str]:
    """The BadRequest field paths of `err` that do not name a field of `message` (none when not INVALID_ARGUMENT)."""
    if err.code() != grpc.StatusCode.INVALID_ARGUMENT:
        return []
    status = rpc_status.from_call(err)
    bad = error_details_pb2.BadRequest()
    if status is None or not status.details or not status.details[0].Unpack(bad):
        return ["(no BadRequest)"]
    return [v.field for v in bad.field_violations if not resolves(message, v.field)]
