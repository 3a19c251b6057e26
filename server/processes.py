"""Several server processes on one address (SO_REUSEPORT), forked before any gRPC object exists."""
from __future__ import annotations

import contextlib
import logging
import multiprocessing
import multiprocessing.connection
import os
import queue
import signal
import sys
from dataclasses import replace

from server.config import ServerConfig, bound_socket, free_port, listen_hosts
from server.signals import StopSignals
from solver.core.lifetime import die_with_parent

log = logging.getLogger("gardens.server")


@contextlib.contextmanager
def _reserve_port(address: str):
    """Holds every address of `address`'s host (config.listen_hosts) on one port with SO_REUSEPORT,
    so that port 0 becomes one concrete port all children share (it held only the first address
    family's, and a taken port failed with a bare "[Errno 98] Address already in use")."""
    host, _, port_text = address.rpartition(":")
    try:
        hosts = listen_hosts(host)
        port = int(port_text) or free_port(hosts, reuse_port=True)
    except OSError as exc:
        raise OSError(f"--address {address}: {exc}") from None
    socks = []
    try:
        for one in hosts:
            try:
                socks.append(bound_socket(one, port, reuse_port=True))
            except OSError as exc:
                raise OSError(f"cannot listen on {one}:{port}: {exc.strerror or exc} (--address {address})") from None
        yield port
    finally:
        for sock in socks:
            sock.close()


def _child(config: ServerConfig, index: int, ready, parent: int) -> None:
    from server.app import serve  # grpc objects are created only here, after the fork

    # a child stops (with its drain) when the parent dies, however it dies: after a kill -9 of the parent the
    # children went on serving, and a restarted server shared the port with them (the operator walkthrough)
    die_with_parent(parent)

    logging.basicConfig(level=config.log_level.upper(), stream=sys.stderr,
                        format=f"%(asctime)s %(levelname)s %(name)s[{index}] %(message)s", force=True)
    try:
        code = serve(config, reuse_port=True, ready=lambda port: ready.put((index, port, None)))
    except (ValueError, OSError) as exc:  # bad data files, an address already taken
        ready.put((index, None, str(exc)))
        code = 2
    sys.exit(code)


def serve_processes(config: ServerConfig) -> int:
    host = config.address.rpartition(":")[0]
    ctx = multiprocessing.get_context("fork")
    with _reserve_port(config.address) as port:
        ready = ctx.Queue()
        children = []
        for i in range(config.processes):
            metrics_port = config.metrics_port + i if config.metrics_port > 0 else config.metrics_port
            health_port = config.health_port + i if config.health_port > 0 else config.health_port
            child_config = replace(config, address=f"{host}:{port}", processes=1, metrics_port=metrics_port,
                                   health_port=health_port,
                                   prepare_puzzles=config.prepare_puzzles if i == 0 else "")  # one preparer
            proc = ctx.Process(target=_child, args=(child_config, i, ready, os.getpid()), name=f"gardens-server-{i}")
            proc.start()
            children.append(proc)
        stopping: list[int] = []

        def forward(signum):
            # run in the signal handler: no lock here (server/signals.py); is_alive and kill take none
            stopping.append(signum)
            for proc in children:
                if proc.pid and proc.is_alive():
                    os.kill(proc.pid, signal.SIGTERM)

        # The kernel may hand a signal to any thread (ortools starts one at import; the queue's feeder): the stop
        # pipe (the process's wakeup fd) then wakes the main thread's wait for the children below, whose Python
        # handler would otherwise wait for the main thread to run bytecode (server/signals.py)
        stop = StopSignals(also=forward)
        try:
            error = None
            try:
                for _ in children:
                    _index, _port, error = ready.get(timeout=60)
                    if error:
                        break
            except queue.Empty:
                error = "server processes did not start within 60 s"
            if error:
                forward(signal.SIGTERM)
                for proc in children:
                    proc.join()
                raise ValueError(error)
            log.info("%d server processes on %s:%d", len(children), host, port)
            print(f"LISTENING {port}", flush=True)
            # A child that dies while no stop was asked for (killed, out of memory) stops the others and
            # the parent exits 1, so a supervisor restarts the whole server; it used to go on with fewer
            # processes, silently, until its own stop (then exit 1).
            running = {proc.sentinel: proc for proc in children}
            while running:
                for ready_one in multiprocessing.connection.wait([*running, stop]):
                    if ready_one is stop:
                        woken = stop.drain()
                        if woken and not stopping:  # (the Python handler, when it runs, forwards again: harmless)
                            forward(woken[0])
                        continue
                    proc = running.pop(ready_one)
                    proc.join()
                    if not stopping and proc.exitcode != 0:
                        log.error("server process %s exited with %s; stopping the others", proc.name, proc.exitcode)
                        forward(signal.SIGTERM)
        finally:
            stop.close()
    codes = [proc.exitcode for proc in children]
    if any(codes):
        log.error("server processes exited with %s", codes)
        return 1
    return 0
