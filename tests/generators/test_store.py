"""The SQLite store: WAL, schema version, first write wins, ordering, and no half-written puzzle after a kill."""
from __future__ import annotations

import datetime as dt
import os
import signal
import sqlite3
import subprocess
import sys
import threading
from dataclasses import replace
from pathlib import Path

import pytest

from generators import daily
from generators.identity import PuzzleId, parse_id, seed_of
from generators.store import SCHEMA_VERSION, Puzzle, Store, StoreError
from solver.errors import InputError

ROOT = Path(__file__).resolve().parents[2]


def fake(date: str, difficulty: str = "easy", variant: str = "decree", cards=("S01",)) -> Puzzle:
    """A stored-shaped puzzle for store mechanics only (no solver involved), of the reference data's digest (a
    puzzle of other data is not served: daily.current)."""
    pid = PuzzleId("gardeners", variant, difficulty, dt.date.fromisoformat(date))
    return Puzzle(pid, "test", daily.kind_of(pid).digest(), seed_of(pid), {"card_ids": list(cards)}, {"secret": 1})


def test_file_is_a_rollback_journal_store_with_schema_version(tmp_path):
    # the rollback journal, not WAL: reading then creates no file (a full disk still serves, see
    # tests/server/test_store_full_disk.py)
    path = tmp_path / "p.sqlite"
    Store(path)
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.commit()
    conn.close()
    with pytest.raises(StoreError):
        Store(path)


def test_first_write_wins_and_listing_is_ordered_and_paged(tmp_path):
    store = Store(tmp_path / "p.sqlite")
    first = fake("2027-01-02")
    assert store.put(first) == first
    assert store.put(replace(first, public={"card_ids": ["S02"]})) == first  # never replaced
    for d in ("2027-01-01", "2027-01-03"):
        for diff in ("hard", "easy"):
            store.put(fake(d, diff))
    listed = [str(p.id) for p in store.list()]
    assert listed == sorted(listed, key=lambda s: (s.rsplit("/", 1)[1], s))
    page = store.list(limit=2)
    rest = store.list(after=(page[-1].id.date.isoformat(), str(page[-1].id)))
    assert [str(p.id) for p in page + rest] == listed
    assert [str(p.id) for p in store.list(difficulty="hard", date_to="2027-01-02")] == \
        ["gardeners/decree/hard/2027-01-01"]
    assert store.verify() == []


def test_identity_and_seed_are_stable():
    pid = parse_id("gardeners/decree/hard/2027-01-15")
    assert str(pid) == "gardeners/decree/hard/2027-01-15"
    assert seed_of(pid, "gardeners-1") == 0x37F8436889414715  # sha256-based: the same everywhere
    assert seed_of(pid, "gardeners-1") != seed_of(pid, "gardeners-2")
    assert seed_of(pid) != seed_of(parse_id("gardeners/decree/hard/2027-01-16"))
    for bad in ("gardeners/decree/hard", "gardeners/decree/hard/2027-13-01", "Gardeners/x/y/2027-01-01"):
        with pytest.raises(InputError):
            parse_id(bad)
    with pytest.raises(InputError) as err:
        daily.kind_of(parse_id("gardeners/decree/brutal/2027-01-01"))
    assert err.value.field == "difficulty"


def test_one_generation_per_id_others_wait(tmp_path):
    store = Store(tmp_path / "p.sqlite")
    calls, started, release = [], threading.Event(), threading.Event()

    def slow_generate(pid):
        calls.append(pid)
        started.set()
        release.wait(30)
        return fake(pid.date.isoformat())

    gen = daily.Generation(store, slow_generate)
    pid = parse_id("gardeners/decree/easy/2027-03-01")
    results = []
    threads = [threading.Thread(target=lambda: results.append(gen.get(pid))) for _ in range(4)]
    threads[0].start()
    assert started.wait(30)
    for t in threads[1:]:
        t.start()
    release.set()
    for t in threads:
        t.join(30)
    assert len(calls) == 1
    assert len(results) == 4 and len({r[0].content_hash for r in results}) == 1
    assert sorted(r[1] for r in results) == [False, False, False, True]


def test_a_waiter_gives_up_at_its_deadline_and_holds_no_slot(tmp_path):
    """A request waiting for another's generation of the same puzzle ends at its deadline (Pending) instead of
    waiting for the generation (7 s past a 1.5 s deadline, the puzzle walkthrough of 7 Dec), and only the
    generating request takes a slot."""
    import time
    from contextlib import contextmanager

    store = Store(tmp_path / "p.sqlite")
    started, release, slots = threading.Event(), threading.Event(), []

    def slow_generate(pid):
        started.set()
        release.wait(30)
        return fake(pid.date.isoformat())

    @contextmanager
    def slot():
        slots.append(threading.current_thread().name)
        yield

    gen = daily.Generation(store, slow_generate)
    pid = parse_id("gardeners/decree/easy/2027-03-02")
    maker = threading.Thread(target=lambda: gen.get(pid, slot=slot), name="maker")
    maker.start()
    assert started.wait(30)
    begun = time.monotonic()
    with pytest.raises(daily.Pending, match="being made by another request"):
        gen.get(pid, ends_at=begun + 0.2, slot=slot)
    assert 0.2 <= time.monotonic() - begun < 5
    release.set()
    maker.join(30)
    assert slots == ["maker"]
    assert gen.get(pid, ends_at=time.monotonic(), slot=slot)[1] is False  # (stored now: served at once)


KILLED_WRITER = """
import sys, time
from generators import daily
from generators.identity import parse_id
from generators.store import Store, insert_puzzle
store = Store(sys.argv[1])
puzzle = daily.generate(parse_id(sys.argv[2]))      # a real generation
with store._connect() as conn, store.transaction(conn):
    insert_puzzle(conn, puzzle)
    print("inserted", flush=True)
    time.sleep(120)                                  # killed here, before COMMIT
"""


def test_a_writer_killed_mid_transaction_leaves_no_puzzle(tmp_path):
    db = tmp_path / "p.sqlite"
    pid = "gardeners/decree/easy/2027-01-01"
    proc = subprocess.Popen([sys.executable, "-c", KILLED_WRITER, str(db), pid], cwd=ROOT,
                            stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        assert proc.stdout.readline().strip() == "inserted"
        # the row is written inside the open transaction (visible to nobody else yet)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(30)
    finally:
        if proc.poll() is None:
            proc.kill()
    store = Store(db)
    assert store.get(parse_id(pid)) is None
    assert store.list() == [] and store.verify() == []
    # the store is usable and the puzzle comes out the same when generated again
    stored = store.put(daily.generate(parse_id(pid)))
    assert store.get(parse_id(pid)) == stored


def test_a_damaged_row_is_refused_on_read_and_reported_by_verify(tmp_path):
    """A row whose content changed after it was written (or no longer parses) is never handed out:
    get/list raise StoreDamaged (a served row was another puzzle, or json's ValueError), and
    verify() names it instead of failing on it."""
    from generators.store import StoreDamaged

    db = tmp_path / "p.sqlite"
    store = Store(db)
    good, changed, broken = fake("2027-01-01"), fake("2027-01-02"), fake("2027-01-03")
    for p in (good, changed, broken):
        store.put(p)
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE puzzles SET public_json = replace(public_json, 'S01', 'S02') WHERE id = ?", (str(changed.id),))
        conn.execute("UPDATE puzzles SET answer_json = '{' WHERE id = ?", (str(broken.id),))
    conn.close()
    assert store.get(good.id) == good
    for p in (changed, broken):
        with pytest.raises(StoreDamaged, match=str(p.id)):
            store.get(p.id)
    with pytest.raises(StoreDamaged):
        store.list()
    assert sorted(store.verify()) == sorted([str(changed.id), str(broken.id)])


def test_a_file_that_is_not_a_store_is_a_store_error(tmp_path):
    db = tmp_path / "p.sqlite"
    db.write_bytes(b"not a database" * 100)
    with pytest.raises(StoreError, match="not a usable puzzle store"):
        Store(db)
    with pytest.raises(StoreError, match="cannot create its directory"):
        Store(db / "under-a-file.sqlite")


def test_an_error_after_sqlite_rolled_back_itself_surfaces_as_itself(tmp_path):
    """A full disk mid-statement makes SQLite roll the transaction back on its own; the store's
    ROLLBACK then raised "cannot rollback - no transaction is active" over the real error."""
    store = Store(tmp_path / "p.sqlite")
    with store._connect() as conn:
        with pytest.raises(RuntimeError, match="the real error"):
            with store.transaction(conn):
                conn.execute("ROLLBACK")  # what SQLite does by itself on SQLITE_FULL
                raise RuntimeError("the real error")
        assert not conn.in_transaction


def test_another_applications_database_is_refused_unchanged(tmp_path):
    """Opening a non-empty SQLite file of something else added the store's tables and user_version
    2 to it (and switched its journal mode). Now it is refused before anything is written; a new or
    empty file is still initialised."""
    foreign = tmp_path / "foreign.sqlite"
    with sqlite3.connect(foreign) as conn:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("CREATE TABLE customers (id INTEGER PRIMARY KEY)")
    conn.close()
    versioned = tmp_path / "versioned.sqlite"
    with sqlite3.connect(versioned) as conn:
        conn.execute("CREATE TABLE orders (id INTEGER)")
        conn.execute("PRAGMA user_version = 1")
    conn.close()
    for db, message in [(foreign, "holds customers"), (versioned, "user_version 1 but no puzzles table")]:
        before = db.read_bytes()
        with pytest.raises(StoreError, match=message):
            Store(db)
        assert db.read_bytes() == before
    with sqlite3.connect(foreign) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert [r[0] for r in conn.execute("SELECT name FROM sqlite_master")] == ["customers"]
    conn.close()
    empty = tmp_path / "empty.sqlite"
    empty.write_bytes(b"")
    Store(empty).put(fake("2027-01-01"))
    assert len(Store(empty).list()) == 1


def test_an_operation_never_creates_the_file_and_a_cache_open_never_initialises_one(tmp_path):
    """Only the opening of a Store may create its file: an operation on a store whose file was
    removed created an empty database under the running server (then "no such table")."""
    from generators.store import file_state

    db = tmp_path / "p.sqlite"
    store = Store(db)
    store.put(fake("2027-01-01"))
    db.unlink()
    with pytest.raises(sqlite3.OperationalError, match="unable to open"):
        store.get(fake("2027-01-01").id)
    assert not db.exists() and file_state(db) == "removed"
    db.write_bytes(b"")
    with pytest.raises(StoreError, match="no schema"):
        Store(db, create=False)
    assert db.read_bytes() == b"" and file_state(db) == "not a store"
    with pytest.raises(StoreError):
        Store(tmp_path / "missing.sqlite", create=False)
    assert not (tmp_path / "missing.sqlite").exists()


def test_bad_pages_are_found_by_the_integrity_check(tmp_path):
    """A file with zeroed pages opens (its header reads), then fails every read."""
    from generators.store import file_state

    db = tmp_path / "p.sqlite"
    store = Store(db)
    for day in range(1, 29):
        store.put(fake(f"2027-02-{day:02d}", cards=("S01",) * 30))
    assert store.integrity_problems() == []
    data = bytearray(db.read_bytes())
    data[5000:9000] = bytes(4000)
    db.write_bytes(bytes(data))
    assert Store(db).integrity_problems() != []
    with pytest.raises(sqlite3.DatabaseError, match="malformed"):
        store.list()
    assert file_state(db) is None  # the header and schema still read: only the check finds it


def test_a_lock_held_elsewhere_is_waited_for_until_the_call_deadline_only(tmp_path):
    """Inside `until`, an operation waits for another process's lock up to that time (at least
    MIN_BUSY_S), not SQLite's 60 s busy timeout; a write that gives up writes nothing."""
    import time

    from generators.store import until

    db = tmp_path / "p.sqlite"
    store = Store(db)
    locker = sqlite3.connect(db, isolation_level=None)
    locker.execute("BEGIN EXCLUSIVE")
    try:
        for operation in (lambda: store.get(fake("2027-01-01").id), lambda: store.put(fake("2027-01-01"))):
            start = time.monotonic()
            with until(time.monotonic() + 0.5), pytest.raises(sqlite3.OperationalError, match="locked"):
                operation()
            assert 0.4 < time.monotonic() - start < 5
    finally:
        locker.execute("ROLLBACK")
        locker.close()
    assert store.get(fake("2027-01-01").id) is None  # nothing half-written
    assert store.put(fake("2027-01-01")) == fake("2027-01-01")


def test_the_read_only_commands_leave_an_older_store_as_it_is(tmp_path, capsys):
    """`gardens puzzles list|show|verify` opened the store for writing: a version-1 store in WAL mode came out as
    version 2 in rollback-journal mode, and on read-only media they failed ("attempt to write a readonly
    database"). They now read it as it is (SQLite's mode=ro); a writing command still converts it."""
    from server.cli.main import main
    path = tmp_path / "v1.sqlite"
    store = Store(path)
    puzzle = fake("2027-01-02")
    store.put(puzzle)
    conn = sqlite3.connect(path)
    conn.execute("DROP TABLE atlas_witnesses")
    conn.execute("PRAGMA user_version = 1")
    conn.execute("PRAGMA journal_mode = WAL")
    conn.close()
    before = path.read_bytes()
    for argv in (["list"], ["show", str(puzzle.id)]):
        assert main(["puzzles", *argv, "--db", str(path)]) == 0, capsys.readouterr().err
    assert str(puzzle.id) in capsys.readouterr().out
    assert path.read_bytes() == before
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 1
    conn.close()
    Store(path)  # a writing open converts it
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    conn.close()


def _being_made(tmp_path):
    """A Generation whose puzzle is being made by a thread until the returned event is set."""
    store = Store(tmp_path / "p.sqlite")
    started, release = threading.Event(), threading.Event()

    def slow_generate(pid):
        started.set()
        release.wait(30)
        return fake(pid.date.isoformat())

    gen = daily.Generation(store, slow_generate)
    pid = parse_id("gardeners/decree/easy/2027-03-02")
    maker = threading.Thread(target=lambda: gen.get(pid), name="maker")
    maker.start()
    assert started.wait(30)
    return gen, pid, release, maker


def test_a_waiter_without_a_deadline_waits_and_one_whose_client_left_stops(tmp_path):
    """The load walkthrough of 7 Dec: with no deadline gRPC's time remaining is ~1e10 s, and the waiter's one
    lock.acquire(timeout=...) overflowed (INTERNAL for every puzzle not stored yet, even with nobody generating);
    and a waiter whose client had gone held its thread and light slot until the generation ended."""
    import time
    gen, pid, release, maker = _being_made(tmp_path)
    left = threading.Event()
    with pytest.raises(daily.Pending, match="its client has gone"):
        threading.Timer(0.3, left.set).start()
        gen.get(pid, ends_at=time.monotonic() + 1e12, gone=left.is_set)
    got = []
    waiter = threading.Thread(target=lambda: got.append(gen.get(pid, ends_at=time.monotonic() + 1e12)))
    waiter.start()
    release.set()
    maker.join(30)
    waiter.join(30)
    assert [generated for _, generated in got] == [False] and got[0][0].id == pid
    fresh = parse_id("gardeners/decree/easy/2027-03-03")  # nobody making it: a far deadline generates it at once
    assert gen.get(fresh, ends_at=time.monotonic() + 1e12)[1] is True


def test_at_most_max_waiting_requests_wait_for_puzzles_being_made(tmp_path):
    """Each waiter holds a server thread and a light slot: eight players waiting for a puzzle being made refused
    every light call for the whole generation (the load walkthrough of 7 Dec). One waiter past the cap is refused
    at once (Busy), and the cap frees as waiters leave."""
    import time
    gen, pid, release, maker = _being_made(tmp_path)
    got = []
    waiter = threading.Thread(target=lambda: got.append(gen.get(pid, max_waiting=1)))
    waiter.start()
    deadline = time.monotonic() + 30
    while gen._waiting < 1 and time.monotonic() < deadline:
        time.sleep(0.01)
    with pytest.raises(daily.Busy, match="retry in a few seconds"):
        gen.get(pid, max_waiting=1)
    release.set()
    maker.join(30)
    waiter.join(30)
    assert len(got) == 1 and gen._waiting == 0
    assert gen.get(pid, max_waiting=1)[1] is False  # stored now: no wait, no cap
