"""Waiting for SIGTERM/SIGINT with a signal handler that takes no lock.

A Python signal handler runs in the main thread, between two bytecodes of whatever the main thread
is doing. A handler that calls `threading.Event.set()` takes the event's (non-reentrant) lock; if
the main thread was interrupted inside `Event.wait()` while holding that same lock (entering or
leaving the wait), the handler waits for itself forever and the process never stops (the likely
cause of a test run in which the server, under heavy load, ignored SIGTERM for more than 15 s; the
window is a few bytecodes wide, and a slow main thread widens it). Here the handler only appends to a
list and writes one byte to a pipe; the waiting side blocks in `select` on the pipe.

`block=True` (the server's mode) installs no handler at all: the signals are blocked in the calling
thread, so every thread started after it (gRPC's, the executor's, CP-SAT's) inherits the block, and
`wait()` takes them with `sigtimedwait`. No handler then ever runs, whoever installed it: CP-SAT
(OR-Tools 9.15, `catch_sigint_signal` on by default) installs a C SIGINT handler of its own when a
search starts and puts SIG_DFL back when it ends, so with Python's handler a Ctrl-C after any solve
killed the server at once (exit -2, no drain), and one during concurrent solves aborted it
(`std::bad_function_call`, exit -6). Create it before any other thread exists.
"""
from __future__ import annotations

import os
import select
import signal
from typing import Callable, Iterable


class StopSignals:
    """Installs handlers for `signals`; `wait()` returns the first signal received (or None on
    timeout). `also(signum)`, if given, runs in the handler: it must not take locks either."""

    def __init__(self, signals: Iterable[int] = (signal.SIGTERM, signal.SIGINT),
                 also: Callable[[int], None] | None = None, install: bool = True, block: bool = False):
        self._signals = tuple(signals)
        self._block = block
        if block:
            if also is not None:
                raise ValueError("block=True runs no handler: `also` would never be called")
            self.received: list[int] = []
            self._previous = {}
            self._mask = signal.pthread_sigmask(signal.SIG_BLOCK, self._signals)
            return
        self._read, self._write = os.pipe()
        os.set_blocking(self._write, False)
        self.received: list[int] = []
        self._also = also
        self._previous = {}
        if install:
            for signum in self._signals:
                self._previous[signum] = signal.signal(signum, self.handler)

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
        if self._block:
            if not self.received:
                info = (signal.sigwaitinfo(self._signals) if timeout is None
                        else signal.sigtimedwait(self._signals, max(0.0, timeout)))
                if info is None:
                    return None
                self.received.append(info.si_signo)
            return self.received[0]
        if not self.received:
            # a signal arriving after the check has written to the pipe, so select sees it
            ready, _, _ = select.select([self._read], [], [], timeout)
            if not ready:
                return None
        return self.received[0]

    def close(self) -> None:
        """Puts the previous handlers back, then closes the pipe (no handler writes to it after).
        In block mode the signals stay blocked (a process about to exit, whose SIGINT disposition a
        solver may have changed, must not receive a second signal late): pending ones are taken."""
        if self._block:
            while signal.sigtimedwait(self._signals, 0) is not None:
                pass
            return
        for signum, previous in self._previous.items():
            signal.signal(signum, previous)
        self._previous = {}
        os.close(self._read)
        os.close(self._write)

    def unblock(self) -> None:
        """Block mode: the calling thread's signal mask as it was (for a server that failed to start)."""
        if self._block:
            signal.pthread_sigmask(signal.SIG_SETMASK, self._mask)
