"""Waiting for SIGTERM/SIGINT with a signal handler that takes no lock.

A Python signal handler runs in the main thread, between two bytecodes of whatever the main thread
is doing. A handler that calls `threading.Event.set()` takes the event's (non-reentrant) lock; if
the main thread was interrupted inside `Event.wait()` while holding that same lock (entering or
leaving the wait), the handler waits for itself forever and the process never stops (the likely
cause of a test run in which the server, under heavy load, ignored SIGTERM for more than 15 s; the
window is a few bytecodes wide, and a slow main thread widens it). Here the handler only appends to a
list and writes one byte to a pipe; the waiting side blocks in `select` on the pipe.

The handler must stay installed: CP-SAT (OR-Tools 9.15, `catch_sigint_signal` on by default) put a C
SIGINT handler of its own in place during every search and SIG_DFL after it, so a Ctrl-C after any
solve killed the server at once (exit -2, no drain) and one during concurrent searches aborted it
(`std::bad_function_call`, exit -6). SolveControl.new_solver (solver/core/solve.py) turns that
parameter off for every search.
(Blocking the signals in every thread and taking them with sigwait was tried and dropped: importing
ortools starts a thread before any code can block them, and the kernel then hands SIGTERM to that
thread, whose default action kills the process.)

The kernel may hand the signal to any thread (ortools', gRPC's, the executor's). The C-level handler
then runs in that thread and only flags the signal: the Python handler waits for the main thread to
run bytecode, and the main thread sat in `select` on a pipe only that handler writes. One server
process of `--processes 2` ignored the SIGTERM its parent forwarded for as long as it lived (about one
run in ten of the SIGHUP process test under load; the thread stacks of 7 Dec showed it in `wait`).
So the pipe is also the process's wakeup fd (`signal.set_wakeup_fd`): the C-level handler writes the
signal's number to it from whichever thread it runs in, and `wait` returns that signal.
"""
from __future__ import annotations

import os
import select
import signal
import time
from typing import Callable, Iterable


# The signals that stop a server with a drain. SIGHUP too: a HUP sent out of habit (to reopen logs, as nginx does;
# this server logs to stderr only) killed it at once, with no drain and nothing logged (the operator walkthrough of
# 7 Dec).
STOP = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)


class StopSignals:
    """Installs handlers for `signals`; `wait()` returns the first signal received (or None on
    timeout). `also(signum)`, if given, runs in the handler: it must not take locks either."""

    def __init__(self, signals: Iterable[int] = STOP,
                 also: Callable[[int], None] | None = None, install: bool = True):
        self._read, self._write = os.pipe()
        os.set_blocking(self._write, False)
        self._signals = frozenset(int(s) for s in signals)
        self.received: list[int] = []
        self._also = also
        self._previous = {}
        self._previous_wakeup: int | None = None
        if install:
            for signum in signals:
                self._previous[signum] = signal.signal(signum, self.handler)
            # (the main thread only, as signal.signal)
            self._previous_wakeup = signal.set_wakeup_fd(self._write, warn_on_full_buffer=False)

    def handler(self, signum: int, _frame=None) -> None:
        self.received.append(signum)  # atomic under the GIL, no lock
        try:
            os.write(self._write, b"\0")
        except BlockingIOError:  # the pipe is full: a wake-up is pending anyway
            pass
        if self._also is not None:
            self._also(signum)

    def wait(self, timeout: float | None = None) -> int | None:
        """The first signal received, waiting up to `timeout` seconds (None: for ever)."""
        ends_at = None if timeout is None else time.monotonic() + timeout
        while not self.received:
            # a signal arriving after the check has written to the pipe, so select sees it
            left = None if ends_at is None else max(0.0, ends_at - time.monotonic())
            ready, _, _ = select.select([self._read], [], [], left)
            if not ready:
                return None
            woken = self.drain()
            if woken and not self.received:
                # the C-level handler's byte: the signal came in another thread, and the Python handler will run
                # once the main thread runs bytecode (the module's docstring)
                return woken[0]
        return self.received[0]

    def fileno(self) -> int:
        """The pipe's read end, readable once a signal came: `multiprocessing.connection.wait` and `select` take
        the object itself (read it with `drain`)."""
        return self._read

    def drain(self) -> list[int]:
        """Empties the pipe (call it once it is readable); the stop signals the C-level handler wrote to it, in
        order (the Python handler writes zeros)."""
        return [b for b in os.read(self._read, 4096) if b in self._signals]

    def close(self) -> None:
        """Puts the previous handlers and wakeup fd back, then closes the pipe (no handler writes to it after)."""
        if self._previous_wakeup is not None:
            signal.set_wakeup_fd(self._previous_wakeup)
            self._previous_wakeup = None
        for signum, previous in self._previous.items():
            signal.signal(signum, previous)
        self._previous = {}
        os.close(self._read)
        os.close(self._write)
