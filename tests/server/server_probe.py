"""A test-only service on raw bytes (no messages of its own) to exercise the server plumbing."""
from __future__ import annotations

import time

import grpc
from ortools.sat.python import cp_model

from solver.errors import InputError, InputErrors

SERVICE = "test.v1.Probe"


def golomb(marks: int = 11, max_length: int | None = None) -> cp_model.CpModel:
    """An optimal Golomb ruler: one CP-SAT worker searches for many seconds, so a solve only ends early if stopped.

    With `max_length` below the optimum (72 for 11 marks) it is a satisfaction problem with no
    solution and no quick proof: a stopped search ends UNKNOWN.
    """
    m = cp_model.CpModel()
    ub = marks * marks
    x = [m.new_int_var(0, ub, f"x{i}") for i in range(marks)]
    m.add(x[0] == 0)
    for i in range(marks - 1):
        m.add(x[i] < x[i + 1])
    diffs = []
    for i in range(marks):
        for j in range(i + 1, marks):
            d = m.new_int_var(1, ub, f"d{i}_{j}")
            m.add(d == x[j] - x[i])
            diffs.append(d)
    m.add_all_different(diffs)
    if max_length is None:
        m.minimize(x[-1])
    else:
        m.add(x[-1] <= max_length)
    return m


def register(server, runtime) -> None:
    def echo(request: bytes, context):
        if request == b"boom":
            raise RuntimeError("boom: a bug in a servicer")
        if request == b"input":
            raise InputErrors([InputError("garden.size", "must be from 1 to 6", 9),
                               InputError("card_ids[1]", "unknown card")])
        if request == b"value":
            raise ValueError("placements[2].tile: unknown tile id 99")
        if request == b"set-status":  # a status set without raising, with details (kept by grpc as bytes)
            context.set_code(grpc.StatusCode.NOT_FOUND)
            context.set_details("no such thing")
            return request
        if request.startswith(b"sleep:"):
            time.sleep(float(request[6:]))
        return request

    def solve(request: bytes, context):
        control = runtime.control(context)
        status, solver = control.solve(golomb())
        return solver.status_name(status).encode()

    def unsat(request: bytes, context):
        control = runtime.control(context)
        status, solver = control.solve(golomb(max_length=71))  # raises Cancelled when stopped
        return solver.status_name(status).encode()

    def many(request: bytes, context):
        # a call of several searches, each asking for the control's whole limit (as a call that
        # shares its limit out badly would): the deadline must still end them all in time
        control = runtime.control(context)
        names = []
        for _ in range(3):
            status, solver = control.solve(golomb(max_length=71))
            names.append(solver.status_name(status))
        return ",".join(names).encode()

    handlers = {"Echo": grpc.unary_unary_rpc_method_handler(echo),
                "Solve": grpc.unary_unary_rpc_method_handler(solve),
                "Unsat": grpc.unary_unary_rpc_method_handler(unsat),
                "Many": grpc.unary_unary_rpc_method_handler(many)}
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(SERVICE, handlers),))
    runtime.add_service(SERVICE, solve_methods=["Solve", "Unsat", "Many"], light_methods=["Echo"])
