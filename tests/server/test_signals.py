"""server/signals.py: a stop signal is seen whenever it arrives, and its handler never blocks.

The server once ignored SIGTERM for more than 15 s under heavy load: its handler called
threading.Event.set(), which deadlocks when the signal interrupts the main thread inside
Event.wait() while it holds the event's lock. The harness below runs a wait in a thread and calls
the handler at each of its traced lines in turn, as a signal would; with Event.wait/Event.set in
place of StopSignals it hangs at the fifth traced line (checked when this was written)."""
from __future__ import annotations

import os
import signal
import sys
import threading

from server.signals import StopSignals


def _run_with_handler_at(wait, fire, k: int, join_s: float = 5.0):
    """Runs wait() in a thread whose k-th traced line (in any frame) first calls fire(). Returns
    (finished within join_s, fired, [wait's result])."""
    count, fired, result = [0], [False], []

    def tracer(frame, event, arg):
        if event == "line" and not fired[0]:
            count[0] += 1
            if count[0] == k:
                fired[0] = True
                fire()
        return tracer

    def target():
        sys.settrace(tracer)
        try:
            result.append(wait())
        finally:
            sys.settrace(None)

    t = threading.Thread(target=target, daemon=True)
    t.start()
    t.join(join_s)
    return not t.is_alive(), fired[0], result


def test_the_handler_can_run_at_any_line_of_the_wait():
    lines = 0
    for k in range(1, 200):
        stop = StopSignals(install=False)
        try:
            done, fired, result = _run_with_handler_at(lambda: stop.wait(1.0), lambda: stop.handler(signal.SIGTERM), k)
            assert done, f"the wait hung with the handler run at traced line {k}"
            if not fired:
                assert result == [None]  # past the last line: the wait timed out, nothing was received
                break
            if result == [None]:  # run after the wait had timed out: the next wait sees it
                assert stop.wait(0) == signal.SIGTERM, k
            else:
                assert result == [signal.SIGTERM], k
                lines += 1
        finally:
            stop.close()
    assert lines >= 2  # the handler was run inside the wait, not only before it


def test_a_real_signal_wakes_the_wait_and_close_puts_the_old_handler_back():
    previous = signal.getsignal(signal.SIGUSR1)
    stop = StopSignals(signals=(signal.SIGUSR1,))
    try:
        assert stop.wait(0) is None
        os.kill(os.getpid(), signal.SIGUSR1)
        assert stop.wait(5) == signal.SIGUSR1
        os.kill(os.getpid(), signal.SIGUSR1)  # a second signal changes nothing
        assert stop.wait(0) == signal.SIGUSR1 and stop.received == [signal.SIGUSR1, signal.SIGUSR1]
    finally:
        stop.close()
    assert signal.getsignal(signal.SIGUSR1) == previous


def test_a_signal_taken_by_another_thread_wakes_the_wait():
    """The kernel hands a process's signal to any of its threads; the C-level handler then runs there and the
    Python handler waits for the main thread, which sat in select for ever: one process of --processes 2 ignored
    the SIGTERM its parent forwarded (the SIGHUP process test, about one run in ten under load, 7 Dec). The wakeup
    fd wakes it."""
    import threading
    import time
    stop = StopSignals(signals=(signal.SIGUSR1,))
    try:
        other = threading.Thread(target=lambda: (time.sleep(0.3), signal.pthread_kill(threading.get_ident(),
                                                                                       signal.SIGUSR1)))
        other.start()
        assert stop.wait(20) == signal.SIGUSR1  # (before: None, after the 20 s)
        other.join()
    finally:
        stop.close()


def test_a_full_pipe_does_not_block_the_handler():
    stop = StopSignals(install=False)
    try:
        for _ in range(100_000):  # far beyond a pipe's 64 KiB
            stop.handler(signal.SIGINT)
        assert stop.wait(0) == signal.SIGINT
    finally:
        stop.close()


def _children(pid: int) -> list[int]:
    from pathlib import Path
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def _running(pid: int) -> bool:
    from pathlib import Path
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_sigterm_stops_puzzles_generate_and_its_workers(tmp_path):
    """With a worker pool, a SIGTERM killed `gardens puzzles generate` alone: its spawned workers stayed blocked for
    ever; a Ctrl-C went on generating every queued puzzle (the operator walkthrough of 7 Dec). Now SIGTERM stops it
    as Ctrl-C does, the workers are stopped at once, the command says so (exit 130) and what it stored is intact."""
    import subprocess
    import time
    from pathlib import Path

    from generators.store import Store
    repo = Path(__file__).resolve().parents[2]
    db = tmp_path / "p.sqlite"
    proc = subprocess.Popen([sys.executable, "-c", "import sys; from server.cli.main import main; sys.exit(main())",
                             "puzzles", "generate", "--db", str(db), "--from", "2027-03-01", "--to", "2027-03-20",
                             "--games", "gardeners", "--workers", "2"],
                            cwd=repo, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while len(_children(proc.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
        time.sleep(3)  # the workers are generating
        workers = _children(proc.pid)
        assert len(workers) >= 2
        began = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=60) == 130
        assert time.monotonic() - began < 30
        err = proc.stderr.read()
        assert "gardens: interrupted" in err and "Traceback" not in err
        deadline = time.monotonic() + 20
        while any(_running(w) for w in workers) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not [w for w in workers if _running(w)]
        if db.exists():
            assert Store(db).verify() == []
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
