"""Prometheus metrics of one server: calls and latency by method and status, solver outcomes, slots in use."""
from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.exposition import start_http_server

_LATENCY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30)


class Metrics:
    """One registry per server (not the global one), so several servers in one process do not collide."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.calls = Counter("gardens_rpc_calls", "RPCs handled", ["method", "code"], registry=self.registry)
        self.latency = Histogram("gardens_rpc_duration_seconds", "RPC latency", ["method", "code"],
                                 buckets=_LATENCY_BUCKETS, registry=self.registry)
        self.outcomes = Counter("gardens_solver_outcomes", "Solver verdicts returned",
                                ["method", "outcome"], registry=self.registry)
        self.rejected = Counter("gardens_rpc_rejected", "RPCs refused because every slot was busy",
                                ["method"], registry=self.registry)
        self.in_use = Gauge("gardens_slots_in_use", "Worker slots in use", ["pool"], registry=self.registry)
        self._http = None
        self._children: dict[tuple[str, str], tuple] = {}  # labels() takes a lock per lookup: cache it

    def observe(self, method: str, code: str, seconds: float, outcome: str | None) -> None:
        key = (method, code)
        children = self._children.get(key)
        if children is None:
            children = self._children[key] = (self.calls.labels(method, code), self.latency.labels(method, code))
        children[0].inc()
        children[1].observe(seconds)
        if outcome:
            self.outcomes.labels(method, outcome).inc()

    def exposition(self) -> bytes:
        return generate_latest(self.registry)

    def serve_http(self, address: str, port: int, address_name: str = "--metrics-address",
                   port_name: str = "--metrics-port") -> int:
        """Starts the /metrics endpoint; returns the bound port. The names are the flags or variables given."""
        try:
            self._http, _thread = start_http_server(port, addr=address, registry=self.registry)
        except OSError as exc:  # a taken port or an unknown host, said with the settings' values
            raise OSError(f"cannot serve metrics on {address_name} {address} {port_name} {port}: "
                          f"{exc.strerror or exc}") from None
        return self._http.server_port

    def close(self) -> None:
        if self._http is not None:
            self._http.shutdown()
            self._http.server_close()
            self._http = None
