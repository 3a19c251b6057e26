"""Settings as operators give them: flags over GARDENS_* variables, the limits of each value, and
refusals that name the flag or variable the bad value came from (server/config.py)."""
from __future__ import annotations

import pytest

from server import config as config_mod
from server.app import build_parser


def _config(flags, env=None):
    return config_mod.from_args(build_parser().parse_args(flags), env=env or {})


def _refused(flags, env=None) -> str:
    with pytest.raises(ValueError) as err:
        _config(flags, env)
    return str(err.value)


@pytest.mark.parametrize("flag", ["--puzzles-past-days", "--puzzles-future-days"])
def test_a_puzzle_window_past_the_documented_maximum_is_refused(flag):
    """99999999 days was accepted, then every PuzzleService call was INTERNAL (date value out of range)."""
    message = _refused([flag, "99999999"])
    assert message.startswith(f"{flag}: ") and "from 0 to 36500 (got 99999999)" in message
    env = "GARDENS_" + flag[2:].replace("-", "_").upper()
    assert _refused([], {env: "740000"}).startswith(f"{env}: ")
    assert getattr(_config([flag, "36500"]), flag[2:].replace("-", "_")) == config_mod.MAX_DAYS == 36500


@pytest.mark.parametrize("flag", ["--grace-s", "--call-time-cap-s", "--time-cap-s", "--deadline-margin-s"])
def test_seconds_past_the_documented_maximum_are_refused(flag):
    """--grace-s 1e10 crashed the drain and --call-time-cap-s 1e10 every call's timer (OverflowError)."""
    message = _refused([flag, "1e10"])
    assert message.startswith(f"{flag}: ") and "at most 1,000,000 (got 10000000000.0)" in message
    assert getattr(_config([flag, "1000000"]), flag[2:].replace("-", "_")) == config_mod.MAX_SECONDS


def test_a_call_time_cap_at_the_maximum_runs_its_timer():
    """The timer of a call without deadline is armed with the cap: at the maximum it starts and cancels."""
    import threading

    from server.runtime import Runtime

    class NoDeadline:
        def time_remaining(self):
            return None

        def add_callback(self, callback):
            return True

    errors = []
    threading.excepthook, hook = (lambda args: errors.append(args.exc_value)), threading.excepthook
    try:
        runtime = Runtime(_config(["--call-time-cap-s", "1000000"]))
        runtime.begin_call()
        runtime.control(NoDeadline())
        timers = [t for t in threading.enumerate() if isinstance(t, threading.Timer)]
        assert timers and all(t.is_alive() for t in timers)
        for t in timers:
            t.cancel()
    finally:
        threading.excepthook = hook
    assert errors == []


def test_a_flag_makes_its_environment_variable_irrelevant():
    """A bad GARDENS_WORKERS was refused although --workers was given."""
    assert _config(["--workers", "2"], {"GARDENS_WORKERS": "abc"}).workers == 2
    assert _config(["--grace-s", "3"], {"GARDENS_GRACE_S": "nan"}).grace_s == 3
    config = _config(["--puzzles-past-days", "2"], {"GARDENS_PUZZLES_PAST_DAYS": "-1"})
    assert config.puzzles_past_days == 2
    assert "GARDENS_WORKERS: expected int" in _refused([], {"GARDENS_WORKERS": "abc"})  # without the flag


def test_minus_one_days_means_the_same_as_a_flag_and_as_a_variable():
    """--puzzles-past-days -1 was "the default" while GARDENS_PUZZLES_PAST_DAYS=-1 was refused: both are
    refused now (leave the setting out for the default, 1); 0 is a window without past days."""
    assert _refused(["--puzzles-past-days", "-1"]) == \
        "--puzzles-past-days: puzzles_past_days must be from 0 to 36500 (got -1)"
    assert _refused([], {"GARDENS_PUZZLES_PAST_DAYS": "-1"}) == \
        "GARDENS_PUZZLES_PAST_DAYS: puzzles_past_days must be from 0 to 36500 (got -1)"
    assert _config(["--puzzles-future-days", "0"]).puzzles_future_days == 0


def test_a_refusal_names_where_the_value_came_from():
    assert _refused(["--workers", "0"]) == "--workers: workers must be >= 1 (got 0)"
    assert _refused([], {"GARDENS_WORKERS": "0"}) == "GARDENS_WORKERS: workers must be >= 1 (got 0)"


@pytest.mark.parametrize("flag", ["--metrics-port", "--health-port"])
def test_a_derived_port_past_65535_is_refused_with_the_value_typed(flag):
    """--processes 2 --metrics-port 65535 was refused by a child as "(got 65536)", a port nobody typed."""
    message = _refused(["--processes", "2", flag, "65535"])
    name = flag[2:].replace("-", "_")
    assert message == (f"{flag}: {name} must be at most 65534 with processes 2: process i listens on {name} + i, "
                       f"up to 65536 here (got 65535)")
    assert getattr(_config(["--processes", "2", flag, "65534"]), name) == 65534


@pytest.mark.parametrize("address", ["unix:/tmp/x/u.sock", "unix-abstract:gardens"])
def test_unix_socket_addresses_are_refused(address):
    """Served, but announced as LISTENING 1, the health port made a socket file named after the port in
    the working directory, and --processes 2 crashed on int('/tmp/x/u.sock')."""
    assert _refused(["--address", address]) == \
        f"--address: address must be host:port; Unix sockets are not supported (got {address!r})"
    assert _config(["--address", "unixhost:50051"]).address == "unixhost:50051"  # a host name, not a socket


def test_the_queue_allowance_is_a_setting():
    assert _config([]).max_queued_calls == 1000
    assert _config(["--max-queued-calls", "0"]).max_queued_calls == 0
    assert _refused(["--max-queued-calls", "-1"]).startswith("--max-queued-calls: max_queued_calls must be")


def test_the_count_cap_refusal_says_what_0_means_under_the_servers_cap():
    """With --max-count-cap 5 a cap of 6 was refused "must be from 0 to 5 (0 = 10)"; 0 means 5 there."""
    from server.convert import count_cap
    from solver.errors import InputError

    config = _config(["--max-count-cap", "5"])
    with pytest.raises(InputError) as err:
        count_cap(6, config)
    assert "must be from 0 to 5 (0 = 5)" in str(err.value)
    assert count_cap(0, config) == 5
    assert count_cap(0, _config([])) == 10
