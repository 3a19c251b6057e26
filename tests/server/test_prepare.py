"""`--prepare-puzzles`: the served window's daily puzzles made in the background, ahead of their first
request, by `python -m server` in a subprocess with a real SQLite store and the real generators."""
from __future__ import annotations

import datetime as dt
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import grpc
import pytest

from gardens.v1 import puzzles_pb2, puzzles_pb2_grpc
from generators.identity import PuzzleId
from generators.store import Store
from server.config import ServerConfig
from server.prepare import parse_patterns

REPO = Path(__file__).resolve().parents[2]


def test_patterns_name_known_kinds_or_are_refused_at_start_up():
    assert parse_patterns("") == [] and parse_patterns("all") == [()]
    assert parse_patterns("gardeners, versailles/tiles/easy") == [("gardeners",), ("versailles", "tiles", "easy")]
    for bad in ("chess", "gardeners/decree/impossible", "gardeners//easy", "a/b/c/d"):
        with pytest.raises(ValueError, match="prepare_puzzles"):
            parse_patterns(bad)
    with pytest.raises(ValueError, match="prepare_puzzles"):
        ServerConfig(prepare_puzzles="chess").validate()
    out = subprocess.run([sys.executable, "-m", "server", "--prepare-puzzles", "chess"], cwd=REPO,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "prepare_puzzles" in out.stderr


class Server:
    def __init__(self, tmp_path: Path, kinds: str):
        self.db = tmp_path / "puzzles.sqlite"
        env = {**os.environ, "GARDENS_PUZZLES_DB": str(self.db), "GARDENS_PUZZLES_PAST_DAYS": "0",
               "GARDENS_PUZZLES_FUTURE_DAYS": "0", "GARDENS_WORKERS": "1"}
        self.proc = subprocess.Popen([sys.executable, "-m", "server", "--address", "localhost:0", "--grace-s", "1",
                                      "--prepare-puzzles", kinds], cwd=REPO, env=env, text=True,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.lines: queue.Queue = queue.Queue()
        threading.Thread(target=lambda: [self.lines.put(line) for line in self.proc.stderr], daemon=True).start()
        for line in self.proc.stdout:
            if line.startswith("LISTENING "):
                self.port = int(line.split()[1])
                break
        else:
            raise AssertionError(f"server exited early: {self.proc.wait()}")

    def wait_for(self, text: str, timeout: float) -> str:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                line = self.lines.get(timeout=max(0.01, end - time.monotonic()))
            except queue.Empty:
                break
            if text in line:
                return line
        raise AssertionError(f"no log line with {text!r} within {timeout} s")

    def stop(self) -> tuple[int, float]:
        started = time.monotonic()
        self.proc.send_signal(signal.SIGTERM)
        code = self.proc.wait(timeout=30)
        return code, time.monotonic() - started

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def test_todays_puzzle_is_made_before_anyone_asks_and_served_as_stored(tmp_path):
    server = Server(tmp_path, "gardeners/decree/easy")
    try:
        today = dt.datetime.now(dt.timezone.utc).date()
        pid = PuzzleId("gardeners", "decree", "easy", today)
        server.wait_for(f"prepared {pid}", timeout=120)
        stored = Store(str(server.db)).get(pid)
        assert stored is not None
        with grpc.insecure_channel(f"localhost:{server.port}") as ch:
            got = puzzles_pb2_grpc.PuzzleServiceStub(ch).GetDailyPuzzle(puzzles_pb2.GetDailyPuzzleRequest(
                game=puzzles_pb2.PUZZLE_GAME_GARDENERS, variant="decree",
                difficulty=puzzles_pb2.PUZZLE_DIFFICULTY_EASY), timeout=10)
        assert got.id == str(pid) and list(got.gardeners_decree.card_ids) == list(stored.public["card_ids"])
        code, _ = server.stop()
        assert code == 0
        assert len(Store(str(server.db)).list()) == 1  # only what was asked for: one kind, one day
    finally:
        server.kill()


def test_a_stop_during_a_preparation_leaves_at_once_and_stores_nothing_of_it(tmp_path):
    """An impossible decree takes seconds to make (5-25 s measured): a SIGTERM meanwhile stops the server
    within its grace (1 s) instead of waiting for it, and the store holds no part of it."""
    server = Server(tmp_path, "gardeners/impossible/hard")
    try:
        time.sleep(0.5)
        code, took = server.stop()
        log = ""
        while True:
            try:
                log += server.lines.get(timeout=1)
            except queue.Empty:
                break
        assert code == 0 and took < 8, (code, took, log[-2000:])
        today = dt.datetime.now(dt.timezone.utc).date()
        stored = Store(str(server.db)).get(PuzzleId("gardeners", "impossible", "hard", today))
        if "abandoned" in log:
            assert "the puzzle being prepared is abandoned" in log and stored is None
        else:  # made within the half second after all: then whole
            assert stored is not None and Store(str(server.db)).verify() == []
    finally:
        server.kill()


def test_an_unusable_store_stops_the_round_with_one_line_not_a_trace_per_puzzle(caplog):
    """The store damaged or locked: each of the day's puzzles logged a full traceback before; now one warning, and
    the round stops (the next day's tries again)."""
    import logging
    import sqlite3
    import types

    from server.prepare import Preparer

    today = dt.date(2026, 12, 7)
    asked = []

    class Broken:
        def get(self, pid):
            asked.append(pid)
            raise sqlite3.DatabaseError("database disk image is malformed")

    preparer = None

    class Servicer:
        settings = types.SimpleNamespace(past_days=0, future_days=0)

        def generation(self):
            return types.SimpleNamespace(store=Broken())

        calls = 0

        def today(self):
            Servicer.calls += 1
            if Servicer.calls > 1:  # asked again after the round: one round only
                preparer.stop()
            return today

    preparer = Preparer(Servicer(), [("gardeners",)])
    with caplog.at_level(logging.INFO, logger="gardens.prepare"):
        preparer._run()
    assert len(asked) == 1 and len(preparer.wanted(today)) > 1
    [record] = [r for r in caplog.records if "cannot be used" in r.getMessage()]
    assert record.levelno == logging.WARNING and record.exc_info is None
