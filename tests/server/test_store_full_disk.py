"""The puzzle store when its disk is full (or any write fails): a real `python -m server` subprocess
whose files may not grow (RLIMIT_FSIZE 0, the kernel's EFBIG on every write that grows a regular
file: a full disk as SQLite sees it, minus the error's name), over a real channel and a real SQLite
file. Stored puzzles are still served, listed and checked; a puzzle that would have to be stored is
a clear retryable status, not INTERNAL; the server keeps serving; nothing is half-written; once the
disk has room the same request generates and stores the puzzle.

Before the fix (store in WAL mode) every read failed as well: WAL opens its -shm file to read."""
from __future__ import annotations

import datetime as dt
import os
import resource
import subprocess
import sys
from pathlib import Path

import grpc
import pytest

REPO = Path(__file__).resolve().parents[2]


def _no_file_may_grow():
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, resource.getrlimit(resource.RLIMIT_FSIZE)[1]))


def _serve(db: Path, limited: bool) -> tuple[subprocess.Popen, int]:
    env = {**os.environ, "GARDENS_PUZZLES_DB": str(db), "GARDENS_PUZZLES_PAST_DAYS": "1",
           "GARDENS_PREPARE_PUZZLES": ""}
    # stdout and stderr are pipes (a pipe is not a regular file: the limit does not touch the log)
    proc = subprocess.Popen([sys.executable, "-m", "server", "--address", "localhost:0", "--health-port", "0",
                             "--metrics-port", "0"], cwd=REPO, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, preexec_fn=_no_file_may_grow if limited else None)
    for line in proc.stdout:
        if line.startswith("LISTENING "):
            return proc, int(line.split()[1])
    raise AssertionError(f"server exited early: {proc.wait()}: {proc.stderr.read()}")


def _stop(proc: subprocess.Popen) -> str:
    proc.kill()
    _, err = proc.communicate(timeout=30)
    return err


def _today() -> dt.date:
    return dt.datetime.now(dt.timezone.utc).date()


def test_a_full_disk_serves_stored_puzzles_and_refuses_new_ones_clearly(tmp_path):
    from gardens.v1 import common_pb2, puzzles_pb2 as pb, puzzles_pb2_grpc
    from generators import daily
    from generators.identity import PuzzleId
    from generators.store import Store

    db = tmp_path / "puzzles.sqlite"
    stored = daily.Generation(Store(db)).get(PuzzleId("gardeners", "impossible", "easy", _today()))[0]
    before = db.read_bytes()
    today = pb.GetDailyPuzzleRequest(game=pb.PUZZLE_GAME_GARDENERS, variant="impossible",
                                     difficulty=pb.PUZZLE_DIFFICULTY_EASY)
    yesterday = pb.GetDailyPuzzleRequest(game=pb.PUZZLE_GAME_GARDENERS, variant="impossible",
                                         difficulty=pb.PUZZLE_DIFFICULTY_EASY,
                                         date=(_today() - dt.timedelta(days=1)).isoformat())

    proc, port = _serve(db, limited=True)
    try:
        with grpc.insecure_channel(f"localhost:{port}") as channel:
            stub = puzzles_pb2_grpc.PuzzleServiceStub(channel)
            served = stub.GetDailyPuzzle(today, timeout=60)
            assert served.id == str(stored.id)
            assert [p.id for p in stub.ListPuzzles(pb.ListPuzzlesRequest(), timeout=60).puzzles] == [str(stored.id)]
            verdict = stub.CheckAnswer(pb.CheckAnswerRequest(
                puzzle_id=str(stored.id), discard=common_pb2.CardSet(card_ids=stored.answer["discards"][0])),
                timeout=60)
            assert verdict.correct
            for _ in range(2):  # and again: the server keeps serving
                with pytest.raises(grpc.RpcError) as err:
                    stub.GetDailyPuzzle(yesterday, timeout=60)
                assert err.value.code() in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.RESOURCE_EXHAUSTED)
                assert "puzzle store" in err.value.details() and "ref " in err.value.details()
                assert str(db) not in err.value.details()
            assert stub.GetDailyPuzzle(today, timeout=60).id == str(stored.id)
    finally:
        log = _stop(proc)
    assert "puzzle store cannot be used" in log and str(db) in log  # the operator's side: path and cause
    assert db.read_bytes() == before  # nothing written, nothing half-written
    assert Store(db).verify() == [] and len(Store(db).list()) == 1

    proc, port = _serve(db, limited=False)  # room again: the same request generates and stores
    try:
        with grpc.insecure_channel(f"localhost:{port}") as channel:
            stub = puzzles_pb2_grpc.PuzzleServiceStub(channel)
            assert stub.GetDailyPuzzle(yesterday, timeout=60).date == yesterday.date
    finally:
        _stop(proc)
    assert Store(db).verify() == [] and len(Store(db).list()) == 2


def test_an_existing_wal_store_is_converted_to_the_rollback_journal(tmp_path):
    import sqlite3

    from generators.store import Store

    db = tmp_path / "puzzles.sqlite"
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA journal_mode=WAL")
    conn.close()
    Store(db)
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    conn.close()


def test_a_store_ruined_while_serving_is_unavailable_and_the_atlas_falls_back_to_the_engine(
        tmp_path, monkeypatch, start_server):
    """The file checked at start-up is overwritten while the server runs (a restore gone wrong): the
    puzzle calls say UNAVAILABLE with a reference (they were INTERNAL), CheckSolvable answers from
    the engine (the atlas is a cache: it was INTERNAL)."""
    from gardens.v1 import common_pb2, gardeners_pb2 as gp, gardeners_pb2_grpc as gg
    from gardens.v1 import puzzles_pb2 as pb, puzzles_pb2_grpc

    db = tmp_path / "puzzles.sqlite"
    monkeypatch.setenv("GARDENS_PUZZLES_DB", str(db))
    from generators.store import Store
    Store(db)
    server = start_server(with_probe=False)
    db.write_bytes(b"not a database at all " * 100)
    puzzles = puzzles_pb2_grpc.PuzzleServiceStub(server.channel())
    for call, request in [(puzzles.GetDailyPuzzle, pb.GetDailyPuzzleRequest(game=pb.PUZZLE_GAME_GARDENERS,
                                                                           difficulty=pb.PUZZLE_DIFFICULTY_EASY)),
                          (puzzles.ListPuzzles, pb.ListPuzzlesRequest())]:
        with pytest.raises(grpc.RpcError) as err:
            call(request, timeout=60)
        assert err.value.code() == grpc.StatusCode.UNAVAILABLE, (err.value.code(), err.value.details())
        assert "ref " in err.value.details() and str(db) not in err.value.details()
    answer = gg.GardenersServiceStub(server.channel()).CheckSolvable(
        gp.CheckSolvableRequest(card_ids=["S01", "S09"]), timeout=60)
    assert answer.verdict in (common_pb2.SOLVABILITY_SOLVABLE, common_pb2.SOLVABILITY_UNSOLVABLE)


def test_gardens_puzzles_generate_on_a_full_disk_is_a_message_and_exit_2(tmp_path):
    """Was a traceback (the OperationalError, or on a real full disk "cannot rollback - no transaction
    is active" over it: SQLite had rolled back already)."""
    from generators.store import Store

    db = tmp_path / "puzzles.sqlite"
    Store(db)
    before = db.read_bytes()
    day = (_today() - dt.timedelta(days=1)).isoformat()
    done = subprocess.run([sys.executable, "-c", "import sys; from server.cli.main import main; sys.exit(main())",
                           "puzzles", "generate", "--db", str(db), "--from", day, "--to", day, "--games", "gardeners",
                           "--variants", "impossible", "--difficulties", "easy", "--workers", "1"],
                          cwd=REPO, capture_output=True, text=True, timeout=300, preexec_fn=_no_file_may_grow)
    assert done.returncode == 2, (done.returncode, done.stderr[-2000:])
    assert "gardens: error: the puzzle store cannot be used" in done.stderr and "Traceback" not in done.stderr
    assert db.read_bytes() == before and Store(db).verify() == []
