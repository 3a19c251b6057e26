"""deploy/envoy.yaml in front of a real server: gRPC-Web passes, anything else gets a 415 and a sentence
(it was a 503 "upstream connect error", which reads like an outage), CORS preflights are answered, and a
short grpc-timeout comes back as the server's DEADLINE_EXCEEDED (Envoy cut it as 504 UNAVAILABLE)."""
from __future__ import annotations

import http.client
import struct
import subprocess

import pytest

from gardens.v1 import gardeners_pb2, versailles_pb2
from server import web

GRPC_WEB = {"content-type": "application/grpc-web+proto", "x-grpc-web": "1"}


@pytest.fixture(scope="module")
def envoy(tmp_path_factory):
    from server.app import create_server
    from server.config import ServerConfig
    from server.runtime import Runtime
    config = ServerConfig(address="localhost:0")
    runtime = Runtime(config)
    server, port = create_server(config, runtime=runtime)
    server.start()
    listen = web.free_port()
    path = tmp_path_factory.mktemp("envoy") / "envoy.yaml"
    path.write_text(web.envoy_config(listen, port))
    proc = subprocess.Popen([web.envoy_binary(), "-c", str(path), "--disable-hot-restart", "-l", "error",
                             "--base-id", str(listen)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        web.wait_tcp(listen, proc, "envoy")
        yield listen
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        server.stop(0).wait()
        runtime.metrics.close()


def request(port, method, path, body=None, headers=None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request(method, path, body=body, headers=headers or {})
    r = conn.getresponse()
    data = r.read()
    conn.close()
    return r.status, dict(r.getheaders()), data


def frame(message) -> bytes:
    body = message.SerializeToString()
    return b"\x00" + struct.pack(">I", len(body)) + body


def test_grpc_web_passes_and_other_requests_get_415_with_a_sentence(envoy):
    status, headers, data = request(envoy, "POST", "/gardens.v1.GardenersService/ListCards",
                                    frame(gardeners_pb2.ListCardsRequest()), GRPC_WEB)
    assert status == 200 and b"grpc-status:0" in data
    for method, body, kind in (("POST", b"{}", "application/json"), ("POST", b"hi", "text/plain"),
                               ("GET", None, None)):
        status, _, data = request(envoy, method, "/gardens.v1.GardenersService/ListCards", body,
                                  {"content-type": kind} if kind else {})
        assert status == 415, (method, kind, status)
        assert b"gRPC-Web" in data


def test_a_cors_preflight_is_answered(envoy):
    status, headers, _ = request(envoy, "OPTIONS", "/gardens.v1.GardenersService/ListCards", None, {
        "origin": "http://localhost:8000", "access-control-request-method": "POST",
        "access-control-request-headers": "content-type,x-grpc-web"})
    assert status == 200 and headers.get("access-control-allow-origin") == "http://localhost:8000"


@pytest.mark.parametrize("timeout", ["0m", "1m"])
def test_a_short_grpc_timeout_is_the_servers_deadline_exceeded(envoy, timeout):
    body = frame(versailles_pb2.VersaillesSolveOptimalRequest(tiles=list(range(1, 15))))
    status, headers, _ = request(envoy, "POST", "/gardens.v1.VersaillesService/SolveOptimal", body,
                                 {**GRPC_WEB, "grpc-timeout": timeout})
    assert status == 200 and headers.get("grpc-status") == "4", (status, headers)


def test_a_header_that_is_not_utf8_is_served_and_logged_in_one_line(envoy, caplog):
    """gRPC core logged an ERROR with a traceback per call for a metadata value that is not UTF-8 (an
    HTTP/1.1 header in Latin-1 through Envoy): a client could fill the server's log at will."""
    import logging
    body = frame(gardeners_pb2.ListCardsRequest())
    caplog.set_level(logging.INFO, logger="grpc._cython.cygrpc")
    conn = http.client.HTTPConnection("127.0.0.1", envoy, timeout=30)
    conn.putrequest("POST", "/gardens.v1.GardenersService/ListCards")
    for key, value in {**GRPC_WEB, "x-request-id": b"caf\xe9", "content-length": str(len(body))}.items():
        conn.putheader(key, value)
    conn.endheaders(body)
    r = conn.getresponse()
    data = r.read()
    conn.close()
    assert r.status == 200 and b"grpc-status:0" in data
    records = [rec for rec in caplog.records if rec.name == "grpc._cython.cygrpc"]
    assert records and all(rec.levelno == logging.WARNING and not rec.exc_info for rec in records)
    assert "not UTF-8" in records[0].getMessage()
