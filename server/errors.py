"""Maps exceptions to gRPC statuses: domain input errors become INVALID_ARGUMENT with field violations."""
from __future__ import annotations

import logging
import re
import threading
import uuid
from dataclasses import dataclass

import grpc
from google.protobuf import any_pb2
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status

from solver.core.solve import Cancelled
from solver.errors import InputError, InputErrors

log = logging.getLogger("gardens.server")
_FIELD_MESSAGE = re.compile(r"^([A-Za-z_][\w.\[\]]*): (.+)$", re.S)


class ServiceError(Exception):
    """An error the server raises on purpose with a chosen status code."""

    def __init__(self, code: grpc.StatusCode, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


class Told:
    """Failures already logged at length (the store's and the atlas's): each kind once, not once per call, until
    the failing part works again (`clear`). Shared by the calls of one servicer, so it is locked."""

    def __init__(self):
        self._kinds: set = set()
        self._lock = threading.Lock()

    def first(self, kind) -> bool:
        """True the first time `kind` is reported since the last `clear`: log it at length then."""
        with self._lock:
            new = kind not in self._kinds
            self._kinds.add(kind)
            return new

    def clear(self) -> bool:
        """It works again: True when some failure had been told (say so once). Cheap when none was."""
        if not self._kinds:
            return False
        with self._lock:
            had = bool(self._kinds)
            self._kinds.clear()
            return had


@dataclass
class Failure:
    """What to send back: a code, a message, and an optional rich google.rpc.Status."""

    code: grpc.StatusCode
    message: str
    status: grpc.Status | None = None


# Bounds on what an error sends back. A status travels in the trailing metadata, which gRPC clients
# cap (8 KiB soft limit: past it calls fail at random; 16 KiB hard: all fail), failing with
# RESOURCE_EXHAUSTED "Stream removed" instead of the error. A 64 KiB request can name thousands of bad elements or one 60 KB string, so
# the violations, each text and the message are cut to fit well under that cap. Sizes count UTF-8
# bytes: the message goes twice, percent-encoded in grpc-message (3 characters a non-ASCII byte)
# and inside the base64 status with the violations; at these bounds the whole stays under 6 KB
# (3 x 700 + 4/3 x (700 + 2000) plus framing).
MAX_VIOLATIONS = 20
MAX_TEXT = 200  # characters of a field path or a description
MAX_VALUE = 80  # characters of a quoted bad value
MAX_DETAIL_BYTES = 2000  # UTF-8 bytes of all the violations' fields and descriptions
MAX_MESSAGE_BYTES = 700  # UTF-8 bytes of the message (before "; and N more violations not listed")


def clip(text: str, limit: int = MAX_TEXT) -> str:
    """`text` cut to at most `limit` characters, marked with "..." when cut."""
    return text if len(text) <= limit else text[:limit - 3] + "..."


def clip_bytes(text: str, limit: int) -> str:
    """`text` cut to at most `limit` UTF-8 bytes (never inside a character), marked with "..." when cut."""
    data = text.encode()
    return text if len(data) <= limit else data[:limit - 3].decode(errors="ignore") + "..."


def bad_request(errors: list[InputError]) -> Failure:
    violations, size = [], 0
    for e in errors[:MAX_VIOLATIONS]:
        v = error_details_pb2.BadRequest.FieldViolation(
            field=clip(e.field),
            description=clip(clip(e.description) + ("" if e.value is None else f" (got {clip(repr(e.value), MAX_VALUE)})")),
        )
        size += len(v.field.encode()) + len(v.description.encode())
        if violations and size > MAX_DETAIL_BYTES:
            break
        violations.append(v)
    detail = any_pb2.Any()
    detail.Pack(error_details_pb2.BadRequest(field_violations=violations))
    message = clip_bytes("; ".join(f"{v.field}: {v.description}" if v.field else v.description
                                   for v in violations), MAX_MESSAGE_BYTES)
    if len(errors) > len(violations):
        message += f"; and {len(errors) - len(violations)} more violations not listed"
    status = status_pb2.Status(code=code_pb2.INVALID_ARGUMENT, message=message, details=[detail])
    return Failure(grpc.StatusCode.INVALID_ARGUMENT, message, rpc_status.to_status(status))


# gRPC may end a call for its deadline while time_remaining() still reads a few milliseconds (seen up to ~15 ms on a
# loaded machine): within this much of the deadline an ended call is the deadline's, not the client's cancel
DEADLINE_SLACK_S = 0.05


def past_deadline(context: grpc.ServicerContext) -> bool:
    """Whether the call's deadline has passed (within DEADLINE_SLACK_S): a call ended now ended for it. (A client's
    DEADLINE_EXCEEDED was logged as its cancel now and then, the chaos walkthrough of 7 Dec.)"""
    remaining = context.time_remaining()
    return remaining is not None and remaining <= DEADLINE_SLACK_S


def failure_for(exc: BaseException, context: grpc.ServicerContext, method: str,
                budget_expired: bool = False) -> Failure:
    """The status for an exception raised while serving `method`; unexpected ones are logged with a trace."""
    if isinstance(exc, ServiceError):
        return Failure(exc.code, clip_bytes(exc.message, MAX_MESSAGE_BYTES))
    if isinstance(exc, InputErrors):
        return bad_request(exc.errors)
    if isinstance(exc, InputError):
        return bad_request([exc])
    if isinstance(exc, ValueError) and not isinstance(exc, UnicodeError):
        # The house convention for bad input is a precise ValueError, "field: message" when the
        # field is known (engines that do not use InputError yet).
        m = _FIELD_MESSAGE.match(str(exc))
        return bad_request([InputError(m.group(1), m.group(2)) if m else InputError("", str(exc))])
    if isinstance(exc, Cancelled):
        if budget_expired:
            return Failure(grpc.StatusCode.DEADLINE_EXCEEDED, "the call ran out of its time budget")
        if past_deadline(context):
            return Failure(grpc.StatusCode.DEADLINE_EXCEEDED, "deadline exceeded while solving")
        return Failure(grpc.StatusCode.CANCELLED, "cancelled by the client")
    if isinstance(exc, NotImplementedError):
        return Failure(grpc.StatusCode.UNIMPLEMENTED, f"{method} is not available yet")
    ref = uuid.uuid4().hex[:12]
    log.error("unhandled exception in %s (ref %s)", method, ref, exc_info=exc)
    return Failure(grpc.StatusCode.INTERNAL, f"internal error (ref {ref})")


def send(context: grpc.ServicerContext, failure: Failure):
    """Aborts the call with `failure` (raises, as grpc's abort does)."""
    if failure.status is not None:
        context.abort_with_status(failure.status)
    context.abort(failure.code, failure.message)
