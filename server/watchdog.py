"""One thread per server that cancels the calls whose request message does not arrive in time.

A call that sends its headers but never its message held a server thread forever: the handler blocks
in `next(requests)` (the interceptor serves unary methods as stream-unary) or in grpc's own unary
read (the health port). 14 such calls on one connection took every thread of a default server, and
2 the health port's (the QA load walkthrough). `watch(context, timeout)` before the read and
`finish()` after it: if the read has not returned by then, the watchdog cancels the call
(`context.cancel()`, public), which wakes the read with grpc's RpcError and frees the thread.

One shared thread and a heap of deadlines, not a timer per call: a light call costs ~1 ms, and a
`threading.Timer` is a thread started per call. A watch is a small object pushed on a heap under a
lock; a finished one stays there (its deadline passes unnoticed) instead of being searched for.
"""
from __future__ import annotations

import heapq
import itertools
import threading
import time

# The watchdog wakes at most this often (the deadlines of a busy server are a few microseconds
# apart): a stuck call is cancelled up to this much after its timeout, never before it.
RESOLUTION_S = 0.05


class Watch:
    """One call's wait for its request message (`Watchdog.watch`)."""

    __slots__ = ("deadline", "context", "finished", "fired", "peer")

    def __init__(self, deadline: float, context):
        self.deadline = deadline
        self.context = context
        self.finished = False
        self.fired = False
        self.peer = ""  # the client's address, read before the cancel (context.peer() is empty after it)

    def finish(self, watchdog: "Watchdog") -> bool:
        """The read has returned (or raised): the watchdog leaves the call alone from now on. True when the
        watchdog cancelled it first (the message, if one came, came too late: the call is cancelled)."""
        with watchdog._cond:
            self.finished = True
            self.context = None  # (a finished watch stays in the heap until its deadline)
            return self.fired


class Watchdog:
    def __init__(self, name: str = "receive-watchdog"):
        self._name = name
        self._cond = threading.Condition(threading.Lock())
        self._heap: list[tuple[float, int, Watch]] = []
        self._seq = itertools.count()
        self._thread: threading.Thread | None = None
        self._closed = False
        self.cancelled = 0  # calls cancelled so far (tests, diagnostics)

    def watch(self, context, timeout: float) -> Watch:
        """Cancels the call of `context` after `timeout` seconds unless `finish` is called before."""
        entry = Watch(time.monotonic() + timeout, context)
        with self._cond:
            if self._closed:
                entry.finished = True  # a stopped server: grpc ends its calls itself
                return entry
            heapq.heappush(self._heap, (entry.deadline, next(self._seq), entry))
            if self._thread is None:
                # started on first use: a server built but never started (a refused configuration) has no thread
                self._thread = threading.Thread(target=self._run, name=self._name, daemon=True)
                self._thread.start()
            elif self._heap[0][2] is entry:
                self._cond.notify()  # sooner than what the thread waits for (seldom: one timeout for all)
        return entry

    def close(self) -> None:
        """Stops the thread (the server has stopped); calls watched from now on are not cancelled."""
        with self._cond:
            self._closed = True
            self._heap.clear()
            self._cond.notify()
            thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=5)

    @property
    def pending(self) -> int:
        """Watches in the heap, finished ones included until their deadline passes."""
        return len(self._heap)

    def _run(self) -> None:
        heap, cond = self._heap, self._cond
        woke = 0.0
        while True:
            due: list[tuple[Watch, object]] = []
            with cond:
                while not self._closed:
                    if not heap:
                        cond.wait()
                        continue
                    # the first deadline, but not sooner than RESOLUTION_S after the last wake-up
                    wait = max(heap[0][0], woke + RESOLUTION_S) - time.monotonic()
                    if wait <= 0:
                        break
                    cond.wait(wait)
                if self._closed:
                    return
                woke = now = time.monotonic()
                while heap and heap[0][0] <= now:
                    entry = heapq.heappop(heap)[2]
                    if not entry.finished:
                        # under the lock: finish() sees either "not fired" (and the call is left alone)
                        # or "fired" with the peer read while the call was still open
                        entry.fired = True
                        entry.peer = _peer(entry.context)
                        due.append((entry, entry.context))
            for entry, context in due:  # outside the lock: grpc's cancel runs callbacks of its own
                try:
                    context.cancel()
                except Exception:  # a call grpc has ended meanwhile: nothing waits on it any more
                    pass
                self.cancelled += 1


def _peer(context) -> str:
    try:
        return context.peer() or ""
    except Exception:
        return ""
