"""Server plumbing over a real channel: slots, cancellation, deadlines, errors, auth, metrics, shutdown."""
from __future__ import annotations

import logging
import threading
import time
import urllib.request

import grpc
import pytest
from google.rpc import code_pb2, error_details_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_status import rpc_status

from conftest import wait_until
from server.app import shutdown
from server.errors import ServiceError
from server.runtime import Runtime
from server.config import ServerConfig

# Load-sensitive (wall-clock margins of 0.5 s or less): `make test` runs these alone, after the parallel pass.
pytestmark = pytest.mark.serial

SERVING = health_pb2.HealthCheckResponse.SERVING
NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING


def _solve_in_flight(srv, timeout=None):
    """Starts a Solve that runs until stopped; returns its future once it holds a solver slot."""
    before = srv.runtime.pools["solve"].in_use
    future = srv.probe("Solve").future(b"", timeout=timeout)
    wait_until(lambda: srv.runtime.pools["solve"].in_use > before)
    return future


def test_health_and_reflection_list_the_services(start_server):
    srv = start_server()
    assert srv.health() == SERVING
    assert srv.health("gardens.v1.GardenersService") == SERVING
    from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc
    stub = reflection_pb2_grpc.ServerReflectionStub(srv.channel())
    [answer] = list(stub.ServerReflectionInfo(iter([reflection_pb2.ServerReflectionRequest(list_services="")])))
    names = {s.name for s in answer.list_services_response.service}
    assert {"gardens.v1.GardenersService", "grpc.health.v1.Health"} <= names
    # Generic clients (grpcurl) need the descriptors themselves, dependencies included.
    ask = reflection_pb2.ServerReflectionRequest(file_containing_symbol="gardens.v1.GardenersService")
    [answer] = list(stub.ServerReflectionInfo(iter([ask])))
    from google.protobuf import descriptor_pb2
    files = [descriptor_pb2.FileDescriptorProto.FromString(b)
             for b in answer.file_descriptor_response.file_descriptor_proto]
    assert "gardens/v1/gardeners.proto" in {f.name for f in files}
    assert "CheckSolvable" in {m.name for f in files for s in f.service for m in s.method}
    # a method's full name too (grpcurl describe gardens.v1.GardenersService.Solve); protobuf's Python pool alone
    # answered NOT_FOUND
    for symbol, file in (("gardens.v1.GardenersService.Solve", "gardens/v1/gardeners.proto"),
                         ("gardens.v1.PuzzleService.CheckAnswer", "gardens/v1/puzzles.proto"),
                         ("gardens.v1.SolveRequest.card_ids", "gardens/v1/gardeners.proto")):
        [answer] = list(stub.ServerReflectionInfo(iter([reflection_pb2.ServerReflectionRequest(
            file_containing_symbol=symbol)])))
        assert descriptor_pb2.FileDescriptorProto.FromString(
            answer.file_descriptor_response.file_descriptor_proto[0]).name == file, symbol
    for symbol in ("gardens.v1.GardenersService.NoSuchMethod", "gardens.v1.NoSuchService.Solve"):
        [answer] = list(stub.ServerReflectionInfo(iter([reflection_pb2.ServerReflectionRequest(
            file_containing_symbol=symbol)])))
        assert answer.error_response.error_code == grpc.StatusCode.NOT_FOUND.value[0], symbol


def test_cancelling_the_call_stops_the_solve_and_frees_the_slot(start_server):
    srv = start_server(workers=1, time_cap_s=60)
    future = _solve_in_flight(srv)
    time.sleep(0.2)  # let CP-SAT get deep into its search
    future.cancel()
    freed_after = wait_until(lambda: srv.runtime.pools["solve"].in_use == 0, timeout=5)
    # Uncancelled, this search runs for the full 60 s cap. The bound is 200 ms; the
    # slack is for a loaded 2-core machine.
    assert freed_after < 0.6, freed_after
    # The slot is really free: the next solve is admitted (and stopped in time for its deadline).
    assert srv.probe("Solve")(b"", timeout=1.0) == b"FEASIBLE"


def test_solver_limit_follows_the_client_deadline(start_server):
    srv = start_server(workers=1, time_cap_s=60, deadline_margin_s=0.5)
    start = time.perf_counter()
    # The search would take far longer; it is stopped at deadline - margin and answers in time.
    answer = srv.probe("Solve")(b"", timeout=1.5)
    assert answer == b"FEASIBLE"
    assert time.perf_counter() - start < 1.5


def test_a_search_cut_by_the_client_deadline_says_unknown_in_time(start_server):
    srv = start_server(workers=1, time_cap_s=60, deadline_margin_s=0.5)
    # No solution, no quick proof: the search stops one margin before the deadline and says so.
    assert srv.probe("Unsat")(b"", timeout=1.5) == b"UNKNOWN"
    wait_until(lambda: srv.runtime.pools["solve"].in_use == 0, timeout=2)


def test_every_search_of_a_call_ends_by_the_client_deadline(start_server):
    """Before: each search got min(cap, deadline - margin) from the call's start, so a call of three
    searches ran three times that and ended DEADLINE_EXCEEDED; the control's `ends_at` caps each
    one at what is left until deadline - margin."""
    srv = start_server(workers=1, time_cap_s=60, deadline_margin_s=0.5)
    start = time.perf_counter()
    assert srv.probe("Many")(b"", timeout=2.0) == b"UNKNOWN,UNKNOWN,UNKNOWN"
    assert time.perf_counter() - start < 2.0
    wait_until(lambda: srv.runtime.pools["solve"].in_use == 0, timeout=2)


def test_solver_limit_is_capped_by_the_server(start_server):
    srv = start_server(workers=1, time_cap_s=0.3)
    assert srv.probe("Solve")(b"", timeout=30) == b"FEASIBLE"


class _Context:
    def __init__(self, remaining):
        self.remaining = remaining
        self.callbacks = []

    def time_remaining(self):
        return self.remaining

    def add_callback(self, cb):
        self.callbacks.append(cb)
        return True


@pytest.mark.parametrize("remaining,cap,expected", [(None, 7.0, 7.0), (2.0, 7.0, 1.9), (30.0, 7.0, 7.0),
                                                     (None, 70.0, 19.9), (1e10, 70.0, 19.9), (30.0, 70.0, 19.9)])
def test_control_time_limit_is_min_of_cap_and_deadline(remaining, cap, expected):
    """A search gets min(its cap, deadline - margin); without a deadline, or with one past the call cap (20 s here),
    the call cap is the deadline (its timer only stopped the searches, and their best answers were lost)."""
    rt = Runtime(ServerConfig(time_cap_s=cap, call_time_cap_s=20.0, deadline_margin_s=0.1))
    ctx = _Context(remaining)
    control = rt.control(ctx)
    assert control.time_limit_s == pytest.approx(expected)
    assert 0 < control.seconds_left() <= min(20.0 if remaining is None else remaining, 20.0) - 0.1
    for callback in ctx.callbacks:  # the call ends: the control is cancelled, the budget timer stopped
        callback()
    assert control.cancelled


def test_a_call_past_its_time_budget_answers_what_it_found_by_then(start_server):
    """The call cap is the deadline of a call without one (or with a later one): its searches end with what they
    found, as under a client's deadline of that length (the cap's timer alone stopped them, and CountSolutions or
    Horticulture's SolveOptimal answered DEADLINE_EXCEEDED with their best lost: the load walkthrough of 7 Dec)."""
    srv = start_server(workers=1, time_cap_s=60, call_time_cap_s=1.0)
    start = time.perf_counter()
    assert srv.probe("Unsat")(b"", timeout=30) == b"UNKNOWN"  # (not the 60 s search cap)
    assert srv.probe("Many")(b"") == b"UNKNOWN,UNKNOWN,UNKNOWN"  # no deadline at all
    assert time.perf_counter() - start < 30
    assert srv.runtime.pools["solve"].in_use == 0


def test_work_that_ignores_the_clock_is_stopped_at_the_call_cap_as_deadline_exceeded():
    """The cap's timer stays as the backstop: work that does not watch the control's clock is cancelled once the
    cap has passed, and the call ends DEADLINE_EXCEEDED, "ran out of its time budget"."""
    from server import errors
    from solver.core.solve import Cancelled

    rt = Runtime(ServerConfig(time_cap_s=60, call_time_cap_s=0.3))
    ctx = _Context(None)
    control = rt.control(ctx)
    wait_until(lambda: control.cancelled, timeout=30)
    assert rt.budget_expired()
    failure = errors.failure_for(Cancelled(), ctx, "/m", rt.budget_expired())
    assert (failure.code, failure.message) == (grpc.StatusCode.DEADLINE_EXCEEDED, "the call ran out of its time budget")
    for callback in ctx.callbacks:
        callback()


@pytest.mark.parametrize("remaining,code", [(0.01, "DEADLINE_EXCEEDED"), (0.0, "DEADLINE_EXCEEDED"),
                                            (-1.0, "DEADLINE_EXCEEDED"), (2.0, "CANCELLED"), (None, "CANCELLED")])
def test_a_call_ended_within_the_slack_of_its_deadline_is_the_deadlines(remaining, code):
    """gRPC may end a call for its deadline while time_remaining() still reads a few milliseconds: such a stop was
    logged and counted as the client's cancel now and then (the chaos walkthrough of 7 Dec)."""
    from server import errors
    from solver.core.solve import Cancelled

    failure = errors.failure_for(Cancelled(), _Context(remaining), "/m")
    assert failure.code == getattr(grpc.StatusCode, code)
    assert errors.past_deadline(_Context(remaining)) == (code == "DEADLINE_EXCEEDED")


def test_control_refuses_a_deadline_with_no_time_left():
    rt = Runtime(ServerConfig(deadline_margin_s=0.1))
    with pytest.raises(ServiceError) as err:
        rt.control(_Context(0.05))
    assert err.value.code == grpc.StatusCode.DEADLINE_EXCEEDED


@pytest.mark.parametrize("remaining,expected", [(0.3, 0.09), (0.5, 0.15), (0.7, 0.21), (1.0, 0.5), (2.0, 1.5)])
def test_a_deadline_under_the_margin_leaves_a_share_to_the_search(remaining, expected):
    """A deadline under the margin (0.5 s) was refused at once, a 5 ms Solve at 0.3 s too (the load walkthrough of
    7 Dec): the search gets 30% of it; from 0.71 s on the margin rules as before."""
    control = Runtime(ServerConfig(deadline_margin_s=0.5)).control(_Context(remaining))
    assert control.time_limit_s == pytest.approx(expected)


def test_full_solver_pool_refuses_at_once_while_health_and_light_calls_answer(start_server):
    srv = start_server(workers=1, time_cap_s=60)
    future = _solve_in_flight(srv)
    start = time.perf_counter()
    with pytest.raises(grpc.RpcError) as err:
        srv.probe("Solve")(b"", timeout=10)
    assert err.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert time.perf_counter() - start < 2.0  # refused, not queued behind a 60 s solve
    assert srv.health() == SERVING
    assert srv.probe("Echo")(b"hi", timeout=5) == b"hi"
    future.cancel()


def test_light_pool_is_bounded_too(start_server):
    srv = start_server(workers=1, light_workers=2)
    ch = srv.channel()
    busy = [srv.probe("Echo", ch).future(b"sleep:1.0") for _ in range(2)]
    wait_until(lambda: srv.runtime.pools["light"].in_use == 2)
    with pytest.raises(grpc.RpcError) as err:
        srv.probe("Echo", ch)(b"x", timeout=5)
    assert err.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert srv.health(channel=ch) == SERVING
    assert [f.result() for f in busy] == [b"sleep:1.0"] * 2


def test_unexpected_exception_is_internal_with_a_logged_trace(start_server, caplog):
    srv = start_server()
    with caplog.at_level(logging.ERROR, logger="gardens.server"):
        with pytest.raises(grpc.RpcError) as err:
            srv.probe("Echo")(b"boom", timeout=5)
    assert err.value.code() == grpc.StatusCode.INTERNAL
    assert "boom" not in err.value.details()  # internals stay in the log
    ref = err.value.details().split("ref ")[1].rstrip(")")
    assert any(ref in r.getMessage() and r.exc_info for r in caplog.records)


def test_input_errors_are_invalid_argument_with_field_violations(start_server):
    srv = start_server()
    with pytest.raises(grpc.RpcError) as err:
        srv.probe("Echo")(b"input", timeout=5)
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    status = rpc_status.from_call(err.value)
    assert status.code == code_pb2.INVALID_ARGUMENT
    [detail] = status.details
    bad = error_details_pb2.BadRequest()
    assert detail.Unpack(bad)
    assert [(v.field, v.description) for v in bad.field_violations] == [
        ("garden.size", "must be from 1 to 6 (got 9)"), ("card_ids[1]", "unknown card")]


def test_a_plain_value_error_is_invalid_argument_naming_its_field(start_server):
    srv = start_server()
    with pytest.raises(grpc.RpcError) as err:
        srv.probe("Echo")(b"value", timeout=5)
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    bad = error_details_pb2.BadRequest()
    assert rpc_status.from_call(err.value).details[0].Unpack(bad)
    assert [(v.field, v.description) for v in bad.field_violations] == [("placements[2].tile", "unknown tile id 99")]


def test_oversized_request_is_refused_before_the_handler(start_server):
    srv = start_server(max_request_bytes=4096)
    with pytest.raises(grpc.RpcError) as err:
        srv.probe("Echo")(b"x" * 10000, timeout=5)
    assert err.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert srv.runtime.metrics.calls.labels("/test.v1.Probe/Echo", "OK")._value.get() == 0


def test_bearer_token(start_server):
    srv = start_server(auth_token="s3cret")
    echo = srv.probe("Echo")
    for metadata in [None, [("authorization", "Bearer wrong")], [("authorization", "s3cret")]]:
        with pytest.raises(grpc.RpcError) as err:
            echo(b"hi", timeout=5, metadata=metadata)
        assert err.value.code() == grpc.StatusCode.UNAUTHENTICATED
    assert echo(b"hi", timeout=5, metadata=[("authorization", "Bearer s3cret")]) == b"hi"
    assert srv.health() == SERVING  # probes from orchestrators need no token
    from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc
    stub = reflection_pb2_grpc.ServerReflectionStub(srv.channel())
    with pytest.raises(grpc.RpcError) as err:
        list(stub.ServerReflectionInfo(iter([reflection_pb2.ServerReflectionRequest(list_services="")]), timeout=5))
    assert err.value.code() == grpc.StatusCode.UNAUTHENTICATED


def test_metrics_count_calls_by_method_and_code(start_server):
    srv = start_server(metrics_port=0)
    srv.probe("Echo")(b"a", timeout=5)
    with pytest.raises(grpc.RpcError):
        srv.probe("Echo")(b"input", timeout=5)
    port = srv.runtime.metrics_port
    text = urllib.request.urlopen(f"http://localhost:{port}/metrics", timeout=5).read().decode()
    assert 'gardens_rpc_calls_total{code="OK",method="/test.v1.Probe/Echo"} 1.0' in text
    assert 'gardens_rpc_calls_total{code="INVALID_ARGUMENT",method="/test.v1.Probe/Echo"} 1.0' in text
    assert 'gardens_rpc_duration_seconds_count{code="OK",method="/test.v1.Probe/Echo"} 1.0' in text


def test_a_health_check_of_an_unknown_service_is_logged_and_counted_as_not_found(start_server, caplog):
    """grpc.health's Check sets NOT_FOUND without raising: it was logged and counted as OK (the operator
    walkthrough of 7 Dec). The client's answer is unchanged."""
    import json
    srv = start_server(metrics_port=0)
    with caplog.at_level(logging.INFO, logger="gardens.server.access"):
        with pytest.raises(grpc.RpcError) as err:
            srv.health("gardens.v1.Nope")
        assert srv.health() == SERVING
        wait_until(lambda: len([r for r in caplog.records if "Health/Check" in r.getMessage()]) == 2, timeout=5)
    assert err.value.code() == grpc.StatusCode.NOT_FOUND
    lines = [json.loads(r.getMessage()) for r in caplog.records if "Health/Check" in r.getMessage()]
    assert [line["code"] for line in lines] == ["NOT_FOUND", "OK"]
    text = urllib.request.urlopen(f"http://localhost:{srv.runtime.metrics_port}/metrics", timeout=5).read().decode()
    assert 'gardens_rpc_calls_total{code="NOT_FOUND",method="/grpc.health.v1.Health/Check"} 1.0' in text
    # with details set too (grpc keeps them as bytes): the line carries them as text
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="gardens.server.access"):
        with pytest.raises(grpc.RpcError) as err:
            srv.probe("Echo")(b"set-status", timeout=5)
        wait_until(lambda: any("Echo" in r.getMessage() for r in caplog.records), timeout=5)
    assert err.value.code() == grpc.StatusCode.NOT_FOUND
    [line] = [json.loads(r.getMessage()) for r in caplog.records if "Echo" in r.getMessage()]
    assert (line["code"], line["error"]) == ("NOT_FOUND", "no such thing")


def test_one_structured_log_line_per_call(start_server, caplog):
    srv = start_server()
    with caplog.at_level(logging.INFO, logger="gardens.server.access"):
        srv.probe("Echo")(b"a", timeout=5, metadata=[("x-request-id", 'web-"42"')])
        wait_until(lambda: any("Echo" in r.getMessage() for r in caplog.records), timeout=5)
    import json
    [line] = [json.loads(r.getMessage()) for r in caplog.records if r.name == "gardens.server.access"
              and "Echo" in r.getMessage()]
    assert line["method"] == "/test.v1.Probe/Echo" and line["code"] == "OK" and line["ms"] >= 0
    assert line["request_id"] == 'web-"42"'
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="gardens.server.access"):
        with pytest.raises(grpc.RpcError):
            srv.probe("Echo")(b"input", timeout=5)
        wait_until(lambda: any("Echo" in r.getMessage() for r in caplog.records), timeout=5)
    [line] = [json.loads(r.getMessage()) for r in caplog.records if r.name == "gardens.server.access"]
    assert line["code"] == "INVALID_ARGUMENT"
    assert line["error"] == "garden.size: must be from 1 to 6 (got 9); card_ids[1]: unknown card"


def test_graceful_shutdown_drains_in_flight_calls_and_turns_health_not_serving(start_server):
    srv = start_server(workers=1, time_cap_s=1.0)
    watch = health_pb2_grpc.HealthStub(srv.channel()).Watch(health_pb2.HealthCheckRequest(service=""))
    assert next(watch).status == SERVING
    future = _solve_in_flight(srv)
    stopper = threading.Thread(target=shutdown, args=(srv.server, 10.0))
    stopper.start()
    assert next(watch).status == NOT_SERVING
    watch.cancel()  # an open Watch stream would otherwise hold the server for the whole grace period
    assert future.result(timeout=10) == b"FEASIBLE"  # finished within the grace period
    stopper.join(10)
    assert not stopper.is_alive()


def test_calls_still_running_after_the_grace_period_are_stopped(start_server):
    srv = start_server(workers=1, time_cap_s=60)
    future = _solve_in_flight(srv)
    start = time.perf_counter()
    shutdown(srv.server, 0.3)
    assert time.perf_counter() - start < 5  # not the 60 s the solve would take
    wait_until(lambda: srv.runtime.pools["solve"].in_use == 0, timeout=2)
    with pytest.raises(grpc.RpcError):
        future.result(timeout=5)


def test_a_burst_is_answered_by_the_slots_logged_and_counted_not_by_grpcs_cap(start_server, caplog):
    """gRPC's own cap (maximum_concurrent_rpcs) was the thread count (here 1 + 1 + 1) and counted the
    calls waiting to be refused: a burst of calls at once was mostly refused by gRPC ("Concurrent RPC
    limit exceeded!"), never logged nor counted (783 refused by gRPC vs 10 counted). Now the calls of
    a burst wait a moment for a thread, and the light pool decides: every refusal is the pool's, each
    call is logged and counted once."""
    srv = start_server(workers=1, light_workers=1, reserve_threads=1)
    channels = [srv.channel() for _ in range(4)]
    with caplog.at_level(logging.INFO, logger="gardens.server.access"):
        futures = [srv.probe("Echo", channels[i % 4]).future(b"sleep:0.02", timeout=30) for i in range(40)]
        codes = []
        for future in futures:
            try:
                future.result()
                codes.append("OK")
            except grpc.RpcError as err:
                assert err.code() == grpc.StatusCode.RESOURCE_EXHAUSTED, err
                assert err.details().startswith("all 1 light slots are busy"), err.details()
                codes.append("RESOURCE_EXHAUSTED")
        wait_until(lambda: len([r for r in caplog.records if r.name == "gardens.server.access"]) >= 40)
    assert "OK" in codes
    method = "/test.v1.Probe/Echo"
    metrics = srv.runtime.metrics
    refused = codes.count("RESOURCE_EXHAUSTED")
    assert metrics.calls.labels(method, "OK")._value.get() == codes.count("OK")
    assert metrics.calls.labels(method, "RESOURCE_EXHAUSTED")._value.get() == refused
    assert metrics.rejected.labels(method)._value.get() == refused
    assert len([r for r in caplog.records if r.name == "gardens.server.access"]) == 40


def test_calls_cancelled_by_the_stop_are_logged_and_counted_as_the_servers(start_server, caplog):
    """After the grace gRPC cancels what still runs and the client sees UNAVAILABLE ("Cancelling all
    calls"); the server logged and counted it as CANCELLED "cancelled by the client"."""
    srv = start_server(workers=1, time_cap_s=60)
    future = _solve_in_flight(srv)
    method = "/test.v1.Probe/Solve"
    with caplog.at_level(logging.INFO, logger="gardens.server.access"):
        shutdown(srv.server, 0.3)
        with pytest.raises(grpc.RpcError) as err:
            future.result(timeout=5)
        assert err.value.code() == grpc.StatusCode.UNAVAILABLE
        wait_until(lambda: any("Solve" in r.getMessage() for r in caplog.records), timeout=5)
    import json
    [line] = [json.loads(r.getMessage()) for r in caplog.records if r.name == "gardens.server.access"]
    assert (line["code"], line["error"]) == ("UNAVAILABLE", "cancelled by the server's shutdown")
    assert srv.runtime.metrics.calls.labels(method, "UNAVAILABLE")._value.get() == 1
    assert srv.runtime.metrics.calls.labels(method, "CANCELLED")._value.get() == 0


def test_a_clients_cancel_during_the_grace_stays_the_clients(start_server):
    srv = start_server(workers=1, time_cap_s=60)
    future = srv.probe("Unsat").future(b"")  # raises Cancelled when stopped
    wait_until(lambda: srv.runtime.pools["solve"].in_use == 1)
    stopper = threading.Thread(target=shutdown, args=(srv.server, 30.0))
    stopper.start()
    wait_until(lambda: srv.runtime.stop_cancels_at is not None)
    future.cancel()
    stopper.join(10)
    assert not stopper.is_alive()
    cancelled = srv.runtime.metrics.calls.labels("/test.v1.Probe/Unsat", "CANCELLED")
    wait_until(lambda: cancelled._value.get() == 1, timeout=5)  # recorded once the search has stopped
    assert srv.runtime.metrics.calls.labels("/test.v1.Probe/Unsat", "UNAVAILABLE")._value.get() == 0


def test_a_health_port_answers_while_the_main_ports_cap_is_full(start_server):
    """The main port's concurrency cap (threads = workers + light slots + reserve, plus max_queued_calls,
    0 here) counts health checks: with every place taken (here by three open reflection streams, which
    hold theirs) a probe on the main port is refused; the health port (--health-port) answers from its
    own threads, with the same statuses, and goes away with the server."""
    from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

    srv = start_server(workers=1, light_workers=1, reserve_threads=1, max_queued_calls=0, health_port=0)
    assert srv.runtime.health_port not in (None, 0, srv.port)
    streams, gates = [], []
    for _ in range(3):  # the cap: 1 + 1 + 1
        gate = threading.Event()
        gates.append(gate)

        def requests(gate=gate):
            yield reflection_pb2.ServerReflectionRequest(list_services="")
            gate.wait(30)

        stream = reflection_pb2_grpc.ServerReflectionStub(srv.channel()).ServerReflectionInfo(requests())
        next(stream)  # answered: the call holds a thread and a place under the cap
        streams.append(stream)
    try:
        with pytest.raises(grpc.RpcError) as err:
            srv.health(timeout=5)
        assert err.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        probe = grpc.insecure_channel(f"localhost:{srv.runtime.health_port}")
        srv.channels.append(probe)
        assert srv.health(channel=probe) == health_pb2.HealthCheckResponse.SERVING
        srv.runtime.health.set("", health_pb2.HealthCheckResponse.NOT_SERVING)  # one servicer, both ports
        assert srv.health(channel=probe) == health_pb2.HealthCheckResponse.NOT_SERVING
    finally:
        for gate in gates:
            gate.set()
        for stream in streams:
            stream.cancel()
    srv.server.stop(0).wait()
    with pytest.raises(grpc.RpcError) as err:
        health_pb2_grpc.HealthStub(probe).Check(health_pb2.HealthCheckRequest(), timeout=2)
    assert err.value.code() == grpc.StatusCode.UNAVAILABLE


def test_the_health_port_flag_is_checked():
    with pytest.raises(ValueError, match="health_port"):
        ServerConfig(health_port=70000).validate()
    with pytest.raises(ValueError, match="health_port"):
        ServerConfig(health_port=-2).validate()


def test_during_the_drain_the_health_port_says_not_serving(start_server):
    srv = start_server(workers=1, time_cap_s=1.0, health_port=0)
    probe = grpc.insecure_channel(f"localhost:{srv.runtime.health_port}")
    srv.channels.append(probe)
    future = _solve_in_flight(srv)
    stopper = threading.Thread(target=shutdown, args=(srv.server, 10.0))
    stopper.start()
    wait_until(lambda: srv.health(channel=probe) == NOT_SERVING, timeout=5)  # the port is still there
    assert future.result(timeout=10) == b"FEASIBLE"
    stopper.join(10)
    assert not stopper.is_alive()
    with pytest.raises(grpc.RpcError):  # and gone once the server has stopped
        srv.health(channel=probe, timeout=2)


def test_told_says_each_failure_once_until_the_part_works_again():
    """The store's and the atlas's failures are logged at length once per kind, not once per call, and again
    after the part worked in between (server.errors.Told, shared by both)."""
    from server.errors import Told

    told = Told()
    assert not told.clear()  # nothing told: nothing to say on success
    assert told.first("removed") and not told.first("removed")
    assert told.first("damaged") and not told.first("removed")
    assert told.clear() and not told.clear()
    assert told.first("removed")


def test_field_paths_the_fuzz_tests_accept_are_fields_of_the_request():
    """The fuzz tests' check on BadRequest paths (tests/server/field_paths.py) fails on the paths of 7 Dec."""
    from field_paths import resolves
    from gardens.v1 import hints_pb2, puzzles_pb2

    deduce, answer = hints_pb2.DeduceCardRequest.DESCRIPTOR, puzzles_pb2.CheckAnswerRequest.DESCRIPTOR
    assert resolves(deduce, "garden.placements[0].tile") and resolves(deduce, "trials[2].garden.size")
    assert resolves(deduce, "kind") and resolves(deduce, "trials[0].verdict")
    assert not resolves(deduce, "placements[0].tile") and not resolves(deduce, "size")  # the garden's, unprefixed
    assert not resolves(deduce, "") and not resolves(deduce, "kind[0]") and not resolves(deduce, "kind.x")
    assert not resolves(deduce, "garden[0]")  # not repeated
    assert resolves(answer, "versailles_garden.placements[0].y") and resolves(answer, "gartenbau_garden")
    assert resolves(answer, "discard.card_ids[1]") and not resolves(answer, "discard.cards")


def test_an_answer_too_late_for_the_client_is_logged_and_counted_as_what_the_client_saw(start_server, caplog):
    """A call that answered after the client's deadline (a daily puzzle generated on) was logged and counted as OK,
    with an empty peer; one answered after the client cancelled, too (the fuzzing of 7 Dec)."""
    import json

    srv = start_server()
    method = "/test.v1.Probe/Echo"
    with caplog.at_level(logging.INFO, logger="gardens.server.access"):
        with pytest.raises(grpc.RpcError) as err:
            srv.probe("Echo")(b"sleep:0.6", timeout=0.1)
        assert err.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
        future = srv.probe("Echo").future(b"sleep:0.6", timeout=30)
        time.sleep(0.1)
        future.cancel()
        wait_until(lambda: len([r for r in caplog.records if r.name == "gardens.server.access"]) >= 2, timeout=10)
    lines = [json.loads(r.getMessage()) for r in caplog.records if r.name == "gardens.server.access"]
    assert [(x["code"], x["error"]) for x in lines] == [
        ("DEADLINE_EXCEEDED", "answered after the client's deadline"), ("CANCELLED", "answered after the client cancelled")]
    assert all(x["peer"] for x in lines)
    assert srv.runtime.metrics.calls.labels(method, "DEADLINE_EXCEEDED")._value.get() == 1
    assert srv.runtime.metrics.calls.labels(method, "OK")._value.get() == 0


def test_a_stored_daily_puzzle_is_served_while_every_solve_slot_is_busy(start_server, tmp_path, monkeypatch):
    """GetDailyPuzzle took a solve slot before looking in the store: with hints running, a stored puzzle was
    refused "all 1 solve slots are busy". Now reading is light, and only generating takes (and may be refused) a
    solve slot, counted as GetDailyPuzzle's rejection."""
    import datetime as dt

    from gardens.v1 import puzzles_pb2 as pb, puzzles_pb2_grpc
    from generators import daily
    from generators.identity import PuzzleId
    from generators.store import Puzzle, Store

    db = tmp_path / "puzzles.sqlite"
    monkeypatch.setenv("GARDENS_PUZZLES_DB", str(db))
    today = dt.datetime.now(dt.timezone.utc).date()
    pid = PuzzleId("gardeners", "impossible", "easy", today)
    Store(db).put(Puzzle(pid, "test", daily.kind_of(pid).digest(), 7, {"card_ids": ["S01", "S09"], "size": 6, "deck": "standard"},
                         {"kind": "discard", "discards": [["S01"], ["S09"]]}))
    srv = start_server(workers=1, time_cap_s=60)
    future = _solve_in_flight(srv)
    puzzles = puzzles_pb2_grpc.PuzzleServiceStub(srv.channel())
    request = pb.GetDailyPuzzleRequest(game=pb.PUZZLE_GAME_GARDENERS, variant="impossible",
                                       difficulty=pb.PUZZLE_DIFFICULTY_EASY)
    assert puzzles.GetDailyPuzzle(request, timeout=30).id == str(pid)
    request.date = (today + dt.timedelta(days=1)).isoformat()  # not stored: it would be generated
    with pytest.raises(grpc.RpcError) as err:
        puzzles.GetDailyPuzzle(request, timeout=30)
    assert (err.value.code(), err.value.details()) == (grpc.StatusCode.RESOURCE_EXHAUSTED,
                                                       "all 1 solve slots are busy; retry later")
    method = "/gardens.v1.PuzzleService/GetDailyPuzzle"
    assert srv.runtime.metrics.rejected.labels(method)._value.get() == 1
    future.cancel()
