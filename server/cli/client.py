"""`gardens call --server ADDRESS METHOD [JSON]` and `gardens health`: use a running gardens server."""
from __future__ import annotations

import os
import sys
from pathlib import Path

from .files import dumps, seconds


METHODS = ("ListTiles, ListCards, CheckGarden, Solve, CheckSolvable, ClosestSolution, CountSolutions, "
           "ListLegalMoves, ValidateMove")


def _run_call(args) -> int:
    # gRPC and the generated code load only when used, so the rest of the CLI works without them.
    import grpc
    from google.protobuf import json_format

    from server import remote

    token = args.token or os.environ.get("GARDENS_TOKEN")
    text = args.request
    if text == "-":
        text = sys.stdin.read()
    elif text and text.startswith("@"):
        try:
            text = Path(text[1:]).read_text(encoding="utf-8")
        except UnicodeDecodeError as exc:
            raise ValueError(f"{text[1:]}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    try:
        response = remote.call(args.server, args.method, text or "{}", args.timeout, args.tls_ca, token)
    except grpc.RpcError as err:  # refused, unreachable, out of time: exit 2, as `solve --server` (was 1)
        print(remote.error_text(err), file=sys.stderr)
        return 2
    except json_format.ParseError as exc:
        raise ValueError(f"request: not a valid {args.method} message: {exc}") from None
    print(dumps(response))
    return 0


def _run_health(args) -> int:
    import grpc

    from server import remote

    token = args.token or os.environ.get("GARDENS_TOKEN")
    try:
        status = remote.health(args.server, args.service, args.timeout, args.tls_ca, token)
    except grpc.RpcError as err:  # no answer (unreachable, unknown service): 2; an answer NOT_SERVING: 1
        print(remote.error_text(err), file=sys.stderr)
        return 2
    print(status)
    return 0 if status == "SERVING" else 1


def _connection_flags(p) -> None:
    p.add_argument("--server", default="localhost:50051", metavar="ADDRESS",
                   help="address of a running gardens server (default localhost:50051)")
    p.add_argument("--timeout", type=seconds, default=30.0, help="deadline in seconds (default 30)")
    p.add_argument("--tls-ca", default=None, help="CA certificate file: use TLS and trust this CA")
    p.add_argument("--token", default=None, help="bearer token (env GARDENS_TOKEN)")


def register(subparsers) -> None:
    p = subparsers.add_parser("call", help="call an RPC of a running gardens server",
                              description="Call a gardens.v1 RPC; the request and the answer are JSON "
                                          "(proto field names). Example: gardens call --server "
                                          "localhost:50051 CheckSolvable '{\"card_ids\": [\"S01\", \"S09\"]}'")
    p.add_argument("method", help=f"RPC name of any gardens.v1 service (Service.Method when two services "
                                  f"share a name); GardenersService: {METHODS}")
    p.add_argument("request", nargs="?", default="{}",
                   help="request as JSON text, @FILE, or - for stdin (default {})")
    _connection_flags(p)
    p.set_defaults(func=_run_call)

    h = subparsers.add_parser("health", help="ask a running gardens server whether it is serving")
    h.add_argument("--service", default="", help="service name (default: the whole server)")
    _connection_flags(h)
    h.set_defaults(func=_run_health)
