"""A Python client of a running gardens server: any gardens.v1 RPC with JSON in and out, health, errors."""
from __future__ import annotations

import difflib
import importlib
import json
import pkgutil
from pathlib import Path

import grpc
from google.protobuf import json_format, message_factory
from google.rpc import error_details_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_status import rpc_status


def methods() -> dict[str, tuple]:
    """Method name -> (stub class, request class) for every service in gardens.v1 (found in the
    generated modules, so a new game's service needs no change here); "Service.Method" always works,
    the bare "Method" when no two services share it."""
    import gardens.v1 as package

    out: dict[str, tuple] = {}
    clashes: set[str] = set()
    for info in pkgutil.iter_modules(package.__path__):
        if not info.name.endswith("_pb2"):
            continue
        pb2 = importlib.import_module(f"gardens.v1.{info.name}")
        for service in pb2.DESCRIPTOR.services_by_name.values():
            stub = getattr(importlib.import_module(f"gardens.v1.{info.name}_grpc"), f"{service.name}Stub")
            for m in service.methods:
                entry = (stub, message_factory.GetMessageClass(m.input_type))  # (maybe common.proto's)
                out[f"{service.name}.{m.name}"] = entry
                if m.name in out:
                    clashes.add(m.name)
                out[m.name] = entry
    for name in clashes:
        del out[name]
    return out


def resolve(method: str, known: dict | None = None) -> str:
    """The key of `known` (default: methods()) that `method` names: itself when it is one; a bare
    name that several services share is an error listing their qualified names; any other name is
    unknown (with the closest names when difflib finds some)."""
    known = methods() if known is None else known
    if method in known:
        return method
    qualified = sorted(m for m in known if m.rsplit(".", 1)[-1] == method and "." in m)
    if len(qualified) > 1:
        raise ValueError(f"method {method!r} is in {len(qualified)} services: {', '.join(qualified)}; name one")
    bare = {m.rsplit(".", 1)[-1] for m in known}  # a shared bare name leads to the message above
    close = difflib.get_close_matches(method, sorted(set(known) | bare), n=3)
    hint = f"; did you mean {' or '.join(close)}?" if close else ""
    names = sorted(m for m in known if "." not in m)
    raise ValueError(f"unknown method {method!r}{hint} (bare names: {', '.join(names)}; "
                     f"any method also as Service.Method)")


def channel(address: str, tls_ca: str | None = None) -> grpc.Channel:
    if tls_ca is None:
        return grpc.insecure_channel(address)
    return grpc.secure_channel(address, grpc.ssl_channel_credentials(root_certificates=Path(tls_ca).read_bytes()))


def metadata(token: str | None):
    # Sent as plain call metadata so it also works on a plaintext localhost server.
    return [("authorization", f"Bearer {token}")] if token else None


def call(address: str, method: str, request: dict | str, timeout: float = 30.0,
         tls_ca: str | None = None, token: str | None = None) -> dict:
    """Calls `method` with a JSON request (dict or text); returns the response as a dict."""
    stub_cls, request_cls = methods()[resolve(method)]
    body = request
    if isinstance(request, str):
        try:
            body = json.loads(request or "{}")
        except json.JSONDecodeError as exc:
            raise ValueError(f"request: not valid JSON ({exc})") from None
    if not isinstance(body, dict):  # json_format.Parse read '[]' as an empty request ({})
        raise ValueError(f"request: must be a JSON object {{field: value, ...}} (the {method} request message), "
                         f"got {type(body).__name__ if body is not None else 'null'}")
    text = request if isinstance(request, str) else json.dumps(request)
    message = json_format.Parse(text or "{}", request_cls())
    with channel(address, tls_ca) as ch:
        rpc = getattr(stub_cls(ch), method.rsplit(".", 1)[-1])
        response = rpc(message, timeout=timeout, metadata=metadata(token))
    return in_field_order(response.DESCRIPTOR, json_format.MessageToDict(
        response, preserving_proto_field_name=True, always_print_fields_with_no_presence=True))


def in_field_order(descriptor, value):
    """A MessageToDict answer with every message's keys in the order its .proto declares them.

    MessageToDict puts the fields left at their defaults after the others, so the same message type read
    {"tile", "row", "col"} in one answer and {"tile", "col", "row"} in the next (a placement at row 0)."""
    if not isinstance(value, dict) or descriptor.full_name.startswith("google.protobuf."):
        return value  # (well-known types have their own JSON forms)
    out = {}
    for field in descriptor.fields:
        if field.name not in value:
            continue
        item, kind = value[field.name], field.message_type
        if kind is not None and kind.GetOptions().map_entry:
            mapped = kind.fields_by_name["value"].message_type
            if mapped is not None:
                item = {k: in_field_order(mapped, v) for k, v in item.items()}
        elif kind is not None:
            item = [in_field_order(kind, v) for v in item] if isinstance(item, list) else in_field_order(kind, item)
        out[field.name] = item
    out.update((k, v) for k, v in value.items() if k not in out)
    return out


def error_text(err: grpc.RpcError) -> str:
    """The status code, and each field violation on its own line (or the details when there are none)."""
    violations = []
    status = rpc_status.from_call(err)
    for detail in status.details if status is not None else ():
        bad = error_details_pb2.BadRequest()
        if detail.Unpack(bad):
            violations += [f"  {v.field}: {v.description}" for v in bad.field_violations]
    if violations:
        return "\n".join([f"{err.code().name}:", *violations])
    return f"{err.code().name}: {err.details()}"


def health(address: str, service: str = "", timeout: float = 30.0, tls_ca: str | None = None,
           token: str | None = None) -> str:
    """The serving status name ("SERVING", "NOT_SERVING", ...) of `service` ("" = the whole server)."""
    with channel(address, tls_ca) as ch:
        status = health_pb2_grpc.HealthStub(ch).Check(
            health_pb2.HealthCheckRequest(service=service), timeout=timeout, metadata=metadata(token)).status
    return health_pb2.HealthCheckResponse.ServingStatus.Name(status)
