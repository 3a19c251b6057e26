"""`gardens call --server ADDRESS METHOD [JSON]`: call any gardens.v1 RPC of a running server, JSON in and out."""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

import grpc
from google.protobuf import json_format
from grpc_health.v1 import health_pb2, health_pb2_grpc
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from gardens.v1 import gardeners_pb2, gardeners_pb2_grpc

SERVICES = {
    "GardenersService": (gardeners_pb2, gardeners_pb2_grpc.GardenersServiceStub),
}


def _methods() -> dict[str, tuple]:
    """Method name -> (stub class, request class); "Service.Method" also works when names clash."""
    out = {}
    for service, (pb2, stub) in SERVICES.items():
        descriptor = pb2.DESCRIPTOR.services_by_name[service]
        for m in descriptor.methods:
            request_cls = getattr(pb2, m.input_type.name)
            out[m.name] = out[f"{service}.{m.name}"] = (stub, request_cls)
    return out


def channel(address: str, tls_ca: str | None = None) -> grpc.Channel:
    if tls_ca is None:
        return grpc.insecure_channel(address)
    return grpc.secure_channel(address, grpc.ssl_channel_credentials(root_certificates=Path(tls_ca).read_bytes()))


def _metadata(token: str | None):
    # Sent as plain call metadata so it also works on a plaintext localhost server.
    return [("authorization", f"Bearer {token}")] if token else None


def call(address: str, method: str, request: dict | str, timeout: float = 30.0,
         tls_ca: str | None = None, token: str | None = None) -> dict:
    """Calls `method` with a JSON request (dict or text); returns the response as a dict."""
    methods = _methods()
    if method not in methods:
        raise ValueError(f"unknown method {method!r}; one of {sorted(m for m in methods if '.' not in m)}")
    stub_cls, request_cls = methods[method]
    text = request if isinstance(request, str) else json.dumps(request)
    message = json_format.Parse(text or "{}", request_cls())
    with channel(address, tls_ca) as ch:
        rpc = getattr(stub_cls(ch), method.rsplit(".", 1)[-1])
        response = rpc(message, timeout=timeout, metadata=_metadata(token))
    return json_format.MessageToDict(response, preserving_proto_field_name=True,
                                     always_print_fields_with_no_presence=True)


def _error_text(err: grpc.RpcError) -> str:
    violations = []
    status = rpc_status.from_call(err)
    for detail in status.details if status is not None else ():
        bad = error_details_pb2.BadRequest()
        if detail.Unpack(bad):
            violations += [f"  {v.field}: {v.description}" for v in bad.field_violations]
    if violations:
        return "\n".join([f"{err.code().name}:", *violations])
    return f"{err.code().name}: {err.details()}"


def _run_call(args) -> int:
    args.token = args.token or os.environ.get("GARDENS_TOKEN")
    text = args.request
    if text == "-":
        text = sys.stdin.read()
    elif text and text.startswith("@"):
        text = Path(text[1:]).read_text()
    try:
        response = call(args.server, args.method, text or "{}", args.timeout, args.tls_ca, args.token)
    except grpc.RpcError as err:
        print(_error_text(err), file=sys.stderr)
        return 1
    except json_format.ParseError as exc:
        raise ValueError(f"request is not a valid {args.method} message: {exc}") from None
    print(json.dumps(response, indent=2))
    return 0


def _run_health(args) -> int:
    args.token = args.token or os.environ.get("GARDENS_TOKEN")
    try:
        with channel(args.server, args.tls_ca) as ch:
            status = health_pb2_grpc.HealthStub(ch).Check(
                health_pb2.HealthCheckRequest(service=args.service), timeout=args.timeout,
                metadata=_metadata(args.token)).status
    except grpc.RpcError as err:
        print(_error_text(err), file=sys.stderr)
        return 1
    print(health_pb2.HealthCheckResponse.ServingStatus.Name(status))
    return 0 if status == health_pb2.HealthCheckResponse.SERVING else 1


def _connection_flags(p: argparse.ArgumentParser) -> None:
    p.add_argument("--server", default="localhost:50051", metavar="ADDRESS",
                   help="address of a running gardens server (default localhost:50051)")
    p.add_argument("--timeout", type=float, default=30.0, help="deadline in seconds (default 30)")
    p.add_argument("--tls-ca", default=None, help="CA certificate file: use TLS and trust this CA")
    p.add_argument("--token", default=None, help="bearer token (env GARDENS_TOKEN)")


def register(subparsers) -> None:
    p = subparsers.add_parser("call", help="call an RPC of a running gardens server",
                              description="Call a gardens.v1 RPC; the request and the answer are JSON "
                                          "(proto field names). Example: gardens call --server "
                                          "localhost:50051 CheckSolvable '{\"card_ids\": [\"TA-1\"]}'")
    p.add_argument("method", help=f"RPC name, e.g. {', '.join(sorted(m for m in _methods() if '.' not in m))}")
    p.add_argument("request", nargs="?", default="{}",
                   help="request as JSON text, @FILE, or - for stdin (default {})")
    _connection_flags(p)
    p.set_defaults(func=_run_call)

    h = subparsers.add_parser("health", help="ask a running gardens server whether it is serving")
    h.add_argument("--service", default="", help="service name (default: the whole server)")
    _connection_flags(h)
    h.set_defaults(func=_run_health)
