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

from conftest import assert_refused_at_start_up

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


# ---- a store damaged, locked, removed or foreign (operator's report, 7 Dec) ----------------------

def _stored_today(db: Path):
    """Today's gardeners impossible/easy puzzle, stored as if generated (no solver involved)."""
    from generators import daily
    from generators.identity import PuzzleId
    from generators.store import Puzzle, Store

    pid = PuzzleId("gardeners", "impossible", "easy", _today())
    Store(db).put(Puzzle(pid, "test", daily.kind_of(pid).digest(), 7,
                         {"card_ids": ["S01", "S09"], "size": 6, "deck": "standard"},
                         {"kind": "discard", "discards": [["S01"], ["S09"]]}))
    return pid


def _todays_request():
    from gardens.v1 import puzzles_pb2 as pb
    return pb.GetDailyPuzzleRequest(game=pb.PUZZLE_GAME_GARDENERS, variant="impossible",
                                    difficulty=pb.PUZZLE_DIFFICULTY_EASY)


def _unavailable(call, request, timeout=60) -> str:
    with pytest.raises(grpc.RpcError) as err:
        call(request, timeout=timeout)
    assert err.value.code() == grpc.StatusCode.UNAVAILABLE, (err.value.code(), err.value.details())
    assert "ref " in err.value.details()
    return err.value.details()


def _zero_pages(db: Path) -> None:
    """Bytes 5000-9000 zeroed: the puzzles table's root page and its key's index (pages 2 and 3);
    the header still reads, so the file opens."""
    data = bytearray(db.read_bytes())
    data[5000:9000] = bytes(4000)
    db.write_bytes(bytes(data))


@pytest.mark.parametrize("damage", ["random bytes", "truncated to half"])
def test_a_store_damaged_after_it_served_is_unavailable_and_check_solvable_asks_the_engine(
        damage, tmp_path, monkeypatch, start_server, caplog):
    """The store served a puzzle and an atlas lookup, then its file was overwritten (or truncated):
    every call was INTERNAL with a trace (sqlite3.DatabaseError, not OperationalError), CheckSolvable
    too. Now the puzzle calls say UNAVAILABLE "damaged", and CheckSolvable answers from the engine,
    the atlas failure logged once (not once per call)."""
    import logging

    from gardens.v1 import common_pb2, gardeners_pb2 as gp, gardeners_pb2_grpc as gg
    from gardens.v1 import puzzles_pb2 as pb, puzzles_pb2_grpc

    db = tmp_path / "puzzles.sqlite"
    monkeypatch.setenv("GARDENS_PUZZLES_DB", str(db))
    pid = _stored_today(db)
    server = start_server(with_probe=False)
    puzzles = puzzles_pb2_grpc.PuzzleServiceStub(server.channel())
    gardeners = gg.GardenersServiceStub(server.channel())
    asked = gp.CheckSolvableRequest(card_ids=["S04", "S08"])
    assert puzzles.GetDailyPuzzle(_todays_request(), timeout=60).id == str(pid)  # store opened, in use
    engine_verdict = gardeners.CheckSolvable(asked, timeout=60).verdict            # atlas store opened
    if damage == "random bytes":
        db.write_bytes(os.urandom(40_000))
    else:
        os.truncate(db, db.stat().st_size // 2)
    caplog.set_level(logging.INFO, logger="gardens.server")
    for call, request in [(puzzles.GetDailyPuzzle, _todays_request()), (puzzles.ListPuzzles, pb.ListPuzzlesRequest())]:
        details = _unavailable(call, request)
        assert "damaged" in details and str(db) not in details
    for _ in range(3):
        answer = gardeners.CheckSolvable(asked, timeout=60)
        assert answer.verdict == engine_verdict and engine_verdict != common_pb2.SOLVABILITY_UNSPECIFIED
    atlas_lines = [r for r in caplog.records if "atlas in the puzzle store" in r.getMessage()
                   and r.levelno >= logging.ERROR]
    assert len(atlas_lines) == 1, [r.getMessage() for r in atlas_lines]
    assert not any(r.exc_info for r in caplog.records)


def test_a_locked_store_ends_calls_by_their_deadline_and_frees_the_solve_slot(tmp_path, monkeypatch, start_server):
    """Another process holds the store (BEGIN EXCLUSIVE) and the server has one solve slot: a
    CheckSolvable with a 3 s deadline waited for SQLite's 60 s busy timeout on the atlas (the
    client got DEADLINE_EXCEEDED, the slot stayed busy: every later solve call RESOURCE_EXHAUSTED).
    Now the atlas is a miss after 0.25 s (the engine answers), and a puzzle read ends UNAVAILABLE
    within the call's deadline."""
    import sqlite3
    import time

    from gardens.v1 import common_pb2, gardeners_pb2 as gp, gardeners_pb2_grpc as gg
    from gardens.v1 import puzzles_pb2_grpc

    db = tmp_path / "puzzles.sqlite"
    monkeypatch.setenv("GARDENS_PUZZLES_DB", str(db))
    pid = _stored_today(db)
    server = start_server(with_probe=False, workers=1)
    puzzles = puzzles_pb2_grpc.PuzzleServiceStub(server.channel())
    gardeners = gg.GardenersServiceStub(server.channel())
    asked = gp.CheckSolvableRequest(card_ids=["S04", "S08"])
    locker = sqlite3.connect(db, isolation_level=None)
    locker.execute("BEGIN EXCLUSIVE")
    try:
        for _ in range(2):  # the second finds the slot free
            start = time.monotonic()
            answer = gardeners.CheckSolvable(asked, timeout=3)
            assert answer.verdict in (common_pb2.SOLVABILITY_SOLVABLE, common_pb2.SOLVABILITY_UNSOLVABLE)
            assert time.monotonic() - start < 3
        start = time.monotonic()
        details = _unavailable(puzzles.GetDailyPuzzle, _todays_request(), timeout=3)
        assert "locked" in details and time.monotonic() - start < 3
        assert gardeners.CheckSolvable(asked, timeout=3).verdict == answer.verdict  # the slot is free
    finally:
        locker.execute("ROLLBACK")
        locker.close()
    assert puzzles.GetDailyPuzzle(_todays_request(), timeout=60).id == str(pid)


def test_a_store_removed_or_emptied_while_serving_says_so_and_is_not_recreated(
        tmp_path, monkeypatch, start_server, caplog):
    """Deleting the file made SQLite create an empty one on the next call, then every puzzle call
    answered "cannot be used now; retry later" (no such table: puzzles) for ever, and a restart
    started a new empty store silently. Now: the answer says the file was removed (or replaced), it
    is logged once at length, no file is created under the running server, and a restored file is
    served at once."""
    import logging

    from gardens.v1 import puzzles_pb2 as pb, puzzles_pb2_grpc

    db = tmp_path / "puzzles.sqlite"
    monkeypatch.setenv("GARDENS_PUZZLES_DB", str(db))
    pid = _stored_today(db)
    good = db.read_bytes()
    puzzles = puzzles_pb2_grpc.PuzzleServiceStub(start_server(with_probe=False).channel())
    assert puzzles.GetDailyPuzzle(_todays_request(), timeout=60).id == str(pid)
    caplog.set_level(logging.INFO, logger="gardens.server")
    db.unlink()
    for call, request in [(puzzles.GetDailyPuzzle, _todays_request()), (puzzles.ListPuzzles, pb.ListPuzzlesRequest()),
                          (puzzles.GetDailyPuzzle, _todays_request())]:
        details = _unavailable(call, request)
        assert "removed" in details and "restore" in details and str(db) not in details
    assert not db.exists()
    told = [r for r in caplog.records if r.name == "gardens.server" and "was removed while" in r.getMessage()]
    assert len(told) == 1 and str(db) in told[0].getMessage()
    db.write_bytes(b"")  # emptied (or replaced by a new empty file)
    details = _unavailable(puzzles.GetDailyPuzzle, _todays_request())
    assert "not a puzzle store" in details
    assert db.read_bytes() == b""  # no tables created under the running server
    db.write_bytes(good)  # restored: served again, no restart
    assert puzzles.GetDailyPuzzle(_todays_request(), timeout=60).id == str(pid)


def test_a_foreign_or_damaged_store_is_refused_at_start_up_unchanged(tmp_path):
    """A file that opens but has bad pages passed the start-up check and then failed every call;
    another application's SQLite database was given the store's tables and user_version 2. Both
    now stop the server at start-up (exit 2) and are left as they were."""
    import sqlite3

    zeroed = tmp_path / "zeroed.sqlite"
    for day in range(60):  # enough rows for the table to span pages
        from generators.identity import PuzzleId
        from generators.store import Puzzle, Store
        pid = PuzzleId("gardeners", "impossible", "easy", _today() - dt.timedelta(days=day))
        Store(zeroed).put(Puzzle(pid, "test", "digest", 7, {"card_ids": ["S01", "S09"] * 10}, {"k": "x" * 200}))
    _zero_pages(zeroed)
    foreign = tmp_path / "foreign.sqlite"
    with sqlite3.connect(foreign) as conn:
        conn.execute("CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)")
        conn.execute("INSERT INTO customers (name) VALUES ('Ada')")
    conn.close()
    cases = [(zeroed, "damaged (SQLite's quick_check"), (foreign, "not a puzzle store")]
    before = {db: db.read_bytes() for db, _ in cases}
    assert_refused_at_start_up([(["--puzzles-db", str(db)], {"GARDENS_PREPARE_PUZZLES": ""}, db, message)
                                for db, message in cases], timeout=60)
    for db, _ in cases:
        assert db.read_bytes() == before[db], f"{db} was modified"


def test_gardens_puzzles_commands_on_a_store_with_bad_pages_are_a_message_and_exit_2(tmp_path, capsys):
    """verify/list/show ended in a sqlite3.DatabaseError traceback, exit 1."""
    from generators.identity import PuzzleId
    from generators.store import Puzzle, Store
    from server.cli.main import main

    db = tmp_path / "zeroed.sqlite"
    for day in range(60):
        pid = PuzzleId("gardeners", "impossible", "easy", _today() - dt.timedelta(days=day))
        Store(db).put(Puzzle(pid, "test", "digest", 7, {"card_ids": ["S01", "S09"] * 10}, {"k": "x" * 200}))
    _zero_pages(db)
    for argv in (["verify"], ["list"], ["show", str(pid)]):
        assert main(["puzzles", *argv, "--db", str(db)]) == 2, argv
        err = capsys.readouterr().err
        assert err.startswith("gardens: error: ") and "Traceback" not in err, (argv, err)
    assert main(["puzzles", "verify", "--db", str(db)]) == 2
    assert "quick_check" in capsys.readouterr().err
    # the writing commands refuse it too, leaving it as it was (generate wrote three puzzles into such a store and
    # exited 0: the operator walkthrough of 7 Dec)
    before = db.read_bytes()
    for argv in (["generate", "--from", "2027-01-01", "--to", "2027-01-01", "--games", "gardeners", "--variants",
                  "decree", "--difficulties", "easy", "--workers", "1"],
                 ["atlas", "build", "--sizes", "1", "--first", "2", "--workers", "1"]):
        command = ["puzzles", *argv] if argv[0] == "generate" else argv
        assert main([*command, "--db", str(db)]) == 2, argv
        assert "damaged (SQLite's quick_check" in capsys.readouterr().err
    assert db.read_bytes() == before
