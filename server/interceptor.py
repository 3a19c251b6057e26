"""One interceptor around every call: auth, slot admission, error mapping, one log line and metrics."""
from __future__ import annotations

import hmac
import itertools
import json
import logging
import time

import grpc
from google.protobuf.message import Message

from server import errors
from server.runtime import Runtime
from server.watchdog import Watchdog
from solver.errors import InputError

access_log = logging.getLogger("gardens.server.access")

_HEALTH_PREFIX = "/grpc.health.v1.Health/"


def _q(text: str) -> str:
    """`text` as a JSON string; the common case (no quote, backslash or control character) without json."""
    if text.isprintable() and '"' not in text and "\\" not in text:
        return f'"{text}"'
    return json.dumps(text)


def _outcome(response) -> str | None:
    """The solver verdict of a response (its enum field `verdict`), for logs and outcome counters."""
    descriptor = getattr(response, "DESCRIPTOR", None)
    if descriptor is None:
        return None
    fd = descriptor.fields_by_name.get("verdict")
    if fd is None or fd.enum_type is None:
        return None
    name = fd.enum_type.values_by_number[getattr(response, "verdict")].name
    prefix = _enum_prefix(fd.enum_type.name)
    return (name[len(prefix):] if name.startswith(prefix) else name).lower()


def _enum_prefix(enum_name: str) -> str:
    out = []
    for i, ch in enumerate(enum_name):
        if ch.isupper() and i:
            out.append("_")
        out.append(ch.upper())
    return "".join(out) + "_"


class ReceiveGuard:
    """Reads a call's first request message under the server's watchdog: a call whose message has not come within
    `timeout_s` (--receive-timeout-s) is cancelled, its thread freed, and it is logged and counted (CANCELLED, the
    code its client sees). Calls that sent their headers but never their message held a thread each for as long
    as the client kept the connection: 14 took every thread of a default server (the QA load walkthrough)."""

    def __init__(self, watchdog: Watchdog, timeout_s: float, record, where: str = ""):
        self.watchdog = watchdog
        self.timeout_s = timeout_s
        self._record = record  # CallInterceptor._record
        self.message = f"no request message within {timeout_s:g} s{where}; cancelled by the server"

    def first(self, requests, context, method: str, request_id=None):
        """The call's first request message, `_NO_MESSAGE` when the client closed its side without one."""
        start = time.perf_counter()
        watchdog = self.watchdog
        watch = watchdog.watch(context, self.timeout_s)
        try:
            request = next(requests, _NO_MESSAGE)
        except BaseException:
            # grpc's RpcError: the call ended before its message came (the watchdog's cancel, the client's, a
            # message past the size cap); re-raised, grpc ends it quietly
            if watch.finish(watchdog):
                self._timed_out(method, start, watch.peer, request_id)
            raise
        if watch.finish(watchdog):
            # the message came as the watchdog cancelled the call: the call is cancelled all the same
            self._timed_out(method, start, watch.peer, request_id)
            context.abort(grpc.StatusCode.CANCELLED, self.message)
        return request

    def _timed_out(self, method, start, peer, request_id) -> None:
        # CANCELLED: what the client sees (the public context.cancel() sends no other status)
        self._record(method, grpc.StatusCode.CANCELLED, time.perf_counter() - start, None, peer,
                     errors.Failure(grpc.StatusCode.CANCELLED, self.message), request_id)

    def handler(self, handler, method: str, request_id=None):
        """`handler` with its first request message read under the watchdog: a unary-request handler served as
        stream-request (grpc's own unary read cannot be interrupted; an undecodable or missing message is then
        INVALID_ARGUMENT, as on the main port's unary calls), a streaming one reading its first message here."""
        first = self.first

        def one(requests, context):
            request = first(requests, context, method, request_id)
            if isinstance(request, _Undecodable):
                context.abort(grpc.StatusCode.INVALID_ARGUMENT, request.text)
            return request

        if handler.unary_unary is not None or handler.unary_stream is not None:
            behavior = handler.unary_unary or handler.unary_stream

            def unary(requests, context):
                return behavior(one(requests, context), context)

            make = (grpc.stream_unary_rpc_method_handler if handler.unary_unary is not None
                    else grpc.stream_stream_rpc_method_handler)
            return make(unary, request_deserializer=_lenient(handler.request_deserializer),
                        response_serializer=handler.response_serializer)
        behavior = handler.stream_unary or handler.stream_stream

        def streaming(requests, context):
            request = first(requests, context, method, request_id)
            return behavior(iter(()) if request is _NO_MESSAGE else itertools.chain((request,), requests), context)

        make = (grpc.stream_unary_rpc_method_handler if handler.stream_unary is not None
                else grpc.stream_stream_rpc_method_handler)
        return make(streaming, request_deserializer=handler.request_deserializer,
                    response_serializer=handler.response_serializer)


class ReceiveInterceptor(grpc.ServerInterceptor):
    """The health port's only interceptor: its calls read their message under the watchdog (2 calls that never
    sent one froze the port's two threads while it went on answering nothing), and nothing else."""

    def __init__(self, guard: ReceiveGuard):
        self.guard = guard

    def intercept_service(self, continuation, details):
        handler = continuation(details)
        if handler is None:
            return None
        return self.guard.handler(handler, details.method, _request_id(details))


def _request_id(details: grpc.HandlerCallDetails):
    return next((v for k, v in details.invocation_metadata or () if k == "x-request-id"), None)


class CallInterceptor(grpc.ServerInterceptor):
    def __init__(self, runtime: Runtime, watchdog: Watchdog | None = None):
        self.runtime = runtime
        token = runtime.config.auth_token
        self._expected = f"Bearer {token}".encode() if token else None
        self.guard = ReceiveGuard(watchdog or Watchdog(), runtime.config.receive_timeout_s, self._record)

    def _authorized(self, details: grpc.HandlerCallDetails) -> bool:
        if self._expected is None or details.method.startswith(_HEALTH_PREFIX):
            return True  # health stays open for load balancers and orchestrators
        for key, value in details.invocation_metadata or ():
            if key == "authorization":
                got = value.encode() if isinstance(value, str) else value
                scheme, _, token = got.partition(b" ")
                # the scheme is case-insensitive (RFC 7235 2.1): "bearer s3cret" was refused
                return scheme.lower() == b"bearer" and hmac.compare_digest(b"Bearer " + token, self._expected)
        return False

    def intercept_service(self, continuation, details):
        handler = continuation(details)
        if handler is None:
            return None
        authorized = self._authorized(details)
        request_id = _request_id(details)
        if handler.unary_unary is None:
            # streams (health Watch, reflection) read their first message under the watchdog too
            return self.guard.handler(handler, details.method, request_id) if authorized else _deny(handler)
        call = self._wrap(details.method, handler.unary_unary, authorized, request_id)
        first = self.guard.first
        method = details.method

        def one_request(requests, context):
            # Served as stream-unary (the same on the wire): grpc's unary path answers a call that
            # carries no message (a gRPC-Web body that is not a frame, an empty one) UNIMPLEMENTED
            # '"b''" requires exactly one request message.' before any interceptor runs; and its
            # read of the message cannot be interrupted, while this one is by the watchdog
            # (ReceiveGuard: a call whose message never comes is cancelled after --receive-timeout-s).
            # A call that ended before its message arrived (cancelled, or a message past the size
            # cap) raises grpc's own RpcError here, which grpc ends quietly; returning None instead
            # made it log a TypeError serialising None.
            return call(first(requests, context, method, request_id), context)

        return grpc.stream_unary_rpc_method_handler(
            one_request,
            request_deserializer=_lenient(handler.request_deserializer),
            response_serializer=_deterministic(handler.response_serializer),
        )

    def _wrap(self, method: str, behavior, authorized: bool, request_id: str | None = None):
        runtime = self.runtime
        pool = runtime.pool_for(method)

        def call(request, context):
            start = time.perf_counter()
            peer = context.peer()  # (empty once the client has gone)
            failure = None
            response = None
            acquired = False
            token = runtime.begin_call(lambda: self._record(
                method, grpc.StatusCode.UNAVAILABLE, time.perf_counter() - start, None, peer,
                errors.Failure(grpc.StatusCode.UNAVAILABLE, "abandoned at the server's shutdown"), request_id))
            try:
                if not authorized:
                    failure = errors.Failure(grpc.StatusCode.UNAUTHENTICATED, "missing or invalid bearer token")
                elif isinstance(request, _Undecodable):
                    failure = errors.bad_request([InputError("", request.text)])
                elif pool is not None and not pool.try_acquire():
                    runtime.metrics.rejected.labels(method).inc()
                    failure = errors.Failure(grpc.StatusCode.RESOURCE_EXHAUSTED, pool.busy)
                else:
                    acquired = pool is not None
                    response = behavior(request, context)
            except Exception as exc:  # every failure becomes a deliberate status, never UNKNOWN
                failure = errors.failure_for(exc, context, method, runtime.budget_expired())
            finally:
                if acquired:
                    pool.release()
            if ((failure is None or failure.code == grpc.StatusCode.CANCELLED) and runtime.cancelled_by_stop()
                    and not context.is_active()):
                # gRPC cancelled it when the stop's grace ran out, and the client saw UNAVAILABLE
                # ("Cancelling all calls"); it was logged and counted as the client's cancel (or as OK
                # when the stopped search still answered)
                failure = errors.Failure(grpc.StatusCode.UNAVAILABLE, "cancelled by the server's shutdown")
                response = None
            if failure is None and not context.is_active():
                # the answer came too late to be sent (a puzzle generated on, a search past the deadline): the log
                # and the metrics say what the client saw, not OK (the fuzzing of 7 Dec)
                failure = (errors.Failure(grpc.StatusCode.DEADLINE_EXCEEDED, "answered after the client's deadline")
                           if errors.past_deadline(context) else
                           errors.Failure(grpc.StatusCode.CANCELLED, "answered after the client cancelled"))
                response = None
            outcome = _outcome(response) if failure is None else None
            code = failure.code if failure else grpc.StatusCode.OK
            set_code = context.code() if failure is None and hasattr(context, "code") else None
            if isinstance(set_code, grpc.StatusCode) and set_code != grpc.StatusCode.OK:
                # a servicer that set its status without raising (grpc.health's Check: NOT_FOUND for an unknown
                # service) was logged and counted as OK (the operator walkthrough of 7 Dec); the answer is unchanged
                code, outcome = set_code, None
                details = context.details() or ""  # (grpc keeps set_details' text as bytes)
                recorded = errors.Failure(set_code, details.decode("utf-8", "replace") if isinstance(details, bytes)
                                          else details)
            else:
                recorded = failure
            try:
                self._record(method, code, time.perf_counter() - start, outcome, peer, recorded, request_id)
            finally:
                runtime.end_call(token)
            if failure is not None:
                errors.send(context, failure)
            return response

        return call

    def _record(self, method, code, seconds, outcome, peer: str, failure, request_id=None) -> None:
        self.runtime.metrics.observe(method, code.name, seconds, outcome)
        if access_log.isEnabledFor(logging.INFO):
            # A JSON object built by hand: json.dumps of a dict costs more than the rest of the
            # line on the hot path (measured ~15 us vs ~1 us); free text goes through _q.
            line = f'{{"method":{_q(method)},"code":"{code.name}","ms":{seconds * 1000:.3f}'
            if outcome:
                line += f',"solver":{_q(outcome)}'
            if failure is not None:
                line += f',"error":{_q(failure.message)}'
            if request_id:  # a client's correlation id (metadata x-request-id), to follow a call across logs
                line += f',"request_id":{_q(str(request_id)[:128])}'
            access_log.info(f'{line},"peer":{_q(peer)}}}')


class _Undecodable:
    """A request body the message class could not parse (see `_lenient`)."""

    def __init__(self, text: str):
        self.text = text


_NO_MESSAGE = _Undecodable("the request carries no message (a unary call sends exactly one; "
                           "gRPC-Web: a frame 0x00, 4-byte length, message)")


def _lenient(deserialize):
    """`deserialize` returning an `_Undecodable` instead of raising: grpc answers a deserializer's
    exception with INTERNAL before any interceptor runs, while bad bytes from a client are its bad
    input (INVALID_ARGUMENT, refused before a slot is taken, logged and counted like any call)."""
    if deserialize is None:
        return None

    def parse(data: bytes):
        try:
            return deserialize(data)
        except Exception as exc:  # DecodeError, or a RuntimeError from the upb/cpp parsers
            return _Undecodable(f"the request body is not a valid protobuf message: {exc}")

    return parse


def _deterministic(serialize):
    """Responses serialised with sorted map keys: protobuf writes a map field (e.g. a score's
    `areas`) in an order that differs between processes, so equal answers had different bytes
    (a byte-comparing client or cache saw two answers to one request)."""
    if serialize is None:
        return None

    def write(message) -> bytes:
        if isinstance(message, Message):
            return message.SerializeToString(deterministic=True)
        return serialize(message)

    return write


def _deny(handler):
    def abort(request_or_iterator, context):
        context.abort(grpc.StatusCode.UNAUTHENTICATED, "missing or invalid bearer token")

    kinds = {
        # a unary-stream refusal served as stream-stream (the same on the wire): grpc's unary-request path reads
        # the message before any handler runs, and that read holds the thread until the message comes
        "unary_stream": grpc.stream_stream_rpc_method_handler,
        "stream_unary": grpc.stream_unary_rpc_method_handler,
        "stream_stream": grpc.stream_stream_rpc_method_handler,
    }
    for attr, make in kinds.items():
        if getattr(handler, attr) is not None:
            return make(abort, request_deserializer=handler.request_deserializer,
                        response_serializer=handler.response_serializer)
    return handler
