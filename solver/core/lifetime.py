"""A child process's lifetime tied to its parent's (server processes, the web launcher's children, puzzle
generation workers)."""
from __future__ import annotations

import os
import signal


def die_with_parent(parent: int | None = None) -> None:
    """In a child process: SIGTERM when the parent dies, however it dies (kill -9 too), so that no child outlives
    it holding a port or a store (Linux prctl(PR_SET_PDEATHSIG); elsewhere nothing). With `parent` (the parent's
    pid, taken before the fork or spawn), a parent already gone by the time the request is made stops the child at
    once."""
    try:
        import ctypes
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # 1 = PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return
    if parent is not None and os.getppid() != parent:
        os.kill(os.getpid(), signal.SIGTERM)
