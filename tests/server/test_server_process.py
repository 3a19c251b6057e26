"""The server as users run it: `python -m server` in a subprocess (SIGTERM) and over TLS."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

SERVING = health_pb2.HealthCheckResponse.SERVING
REPO = Path(__file__).resolve().parents[2]


def _listening_port(proc: subprocess.Popen) -> int:
    for line in proc.stdout:
        if line.startswith("LISTENING "):
            return int(line.split()[1])
    raise AssertionError(f"server exited early: {proc.wait()} {proc.stderr.read()}")


def _health(target, credentials=None):
    ch = grpc.secure_channel(target, credentials) if credentials else grpc.insecure_channel(target)
    with ch:
        return health_pb2_grpc.HealthStub(ch).Check(health_pb2.HealthCheckRequest(), timeout=5).status


def test_sigterm_drains_and_exits_zero():
    env = {**os.environ, "GARDENS_WORKERS": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "server", "--address", "localhost:0", "--grace-s", "2"],
                            cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        port = _listening_port(proc)
        assert _health(f"localhost:{port}") == SERVING
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=15) == 0
        err = proc.stderr.read()
        assert "draining" in err and "stopped" in err
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_several_processes_share_the_port_and_stop_together():
    proc = subprocess.Popen([sys.executable, "-m", "server", "--address", "localhost:0", "--processes", "2",
                             "--workers", "1"], cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        port = _listening_port(proc)
        children = Path(f"/proc/{proc.pid}/task/{proc.pid}/children").read_text().split()
        assert len(children) == 2
        for _ in range(4):  # separate connections, whichever process accepts them
            assert _health(f"localhost:{port}") == SERVING
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=20) == 0
        assert proc.stderr.read().count("stopped") == 2
        assert not any(Path(f"/proc/{c}").exists() for c in children)  # reaped, not left running
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


@pytest.mark.parametrize("flags,message", [
    (["--workers", "0"], "workers must be >= 1"),
    (["--tiles-file", "/nonexistent/tiles.json"], "--tiles-file /nonexistent/tiles.json"),
    (["--processes", "2", "--tiles-file", "/nonexistent/tiles.json"], "--tiles-file /nonexistent/tiles.json"),
])
def test_bad_configuration_is_refused_with_a_message(flags, message):
    proc = subprocess.run([sys.executable, "-m", "server", "--address", "localhost:0", *flags], cwd=REPO,
                          capture_output=True, text=True, timeout=30)
    assert proc.returncode == 2
    assert message in proc.stderr
    assert "Traceback" not in proc.stderr


def test_a_taken_address_is_refused_with_a_message():
    import socket
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        address = f"127.0.0.1:{taken.getsockname()[1]}"
        proc = subprocess.run([sys.executable, "-m", "server", "--address", address], cwd=REPO,
                              capture_output=True, text=True, timeout=30)
    assert proc.returncode == 2
    assert f"cannot listen on {address}" in proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.fixture(scope="module")
def certificate(tmp_path_factory):
    """A self-signed certificate for localhost, made with the openssl CLI (no `cryptography` here)."""
    d = tmp_path_factory.mktemp("tls")
    key, cert = d / "key.pem", d / "cert.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-keyout", str(key), "-out", str(cert), "-subj", "/CN=localhost",
                    "-addext", "subjectAltName=DNS:localhost"],
                   check=True, capture_output=True, timeout=60)
    return key, cert


def test_tls_with_token(start_server, certificate):
    key, cert = certificate
    srv = start_server(tls_key=str(key), tls_cert=str(cert), auth_token="s3cret")
    tls = grpc.ssl_channel_credentials(root_certificates=cert.read_bytes())
    assert _health(srv.target, tls) == SERVING
    with_token = grpc.composite_channel_credentials(tls, grpc.access_token_call_credentials("s3cret"))
    assert srv.probe("Echo", srv.channel(with_token))(b"hi", timeout=5) == b"hi"
    with pytest.raises(grpc.RpcError) as err:
        srv.probe("Echo", srv.channel(tls))(b"hi", timeout=5)
    assert err.value.code() == grpc.StatusCode.UNAUTHENTICATED
    # A plaintext client cannot talk to the TLS port at all.
    with pytest.raises(grpc.RpcError) as err:
        _health(srv.target)
    assert err.value.code() == grpc.StatusCode.UNAVAILABLE
