"""The puzzle store: one SQLite file (rollback journal), a schema version, and one transaction per puzzle written.

A puzzle row is written whole or not at all: generation happens outside any transaction and the
finished puzzle is inserted in one, so a process killed mid-generation (or mid-commit) leaves no
half-written puzzle. Rows are never replaced: the first stored version of an id is the puzzle.
"""
from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import time
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path

from generators.identity import PuzzleId, parse_id

SCHEMA_VERSION = 2  # 2: atlas_witnesses (a v1 file gains the table on open)
_OWN_NAMES = {"puzzles", "puzzles_by_date", "atlas", "atlas_witnesses"}  # what _SCHEMA creates

BUSY_S = 60.0  # how long an operation waits for another process's lock (SQLite's busy timeout)
MIN_BUSY_S = 0.1  # the least it waits inside a call whose deadline is (nearly) gone
# The latest time.monotonic() the operations of this thread's current call may wait for a lock
# until (`until`): a server call's deadline, so a locked store ends the call in time.
_wait_until: ContextVar[float | None] = ContextVar("gardens_store_wait_until", default=None)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS puzzles (
  id TEXT PRIMARY KEY,
  game TEXT NOT NULL,
  variant TEXT NOT NULL,
  difficulty TEXT NOT NULL,
  date TEXT NOT NULL,
  generator_version TEXT NOT NULL,
  catalog_digest TEXT NOT NULL,
  seed TEXT NOT NULL,
  public_json TEXT NOT NULL,
  answer_json TEXT NOT NULL,   -- the solution / minimal discard sets: server-side only
  content_hash TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS puzzles_by_date ON puzzles (date, id);
CREATE TABLE IF NOT EXISTS atlas (
  cards TEXT PRIMARY KEY,      -- card ids joined by '+', sorted
  size INTEGER NOT NULL,
  verdict TEXT NOT NULL,
  conflicts_json TEXT NOT NULL,
  discards_json TEXT NOT NULL,
  complete INTEGER NOT NULL,
  catalog_digest TEXT NOT NULL,
  generator_version TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS atlas_witnesses (
  id INTEGER PRIMARY KEY,
  cards TEXT NOT NULL,         -- every Standard card the garden satisfies, sorted, joined by '+'
  garden_json TEXT NOT NULL,   -- the garden, checked by the pure checker when it was found
  catalog_digest TEXT NOT NULL,
  UNIQUE (cards, catalog_digest)
);
"""


class StoreError(RuntimeError):
    """The file is not a puzzle store this code can read (e.g. a newer schema, not SQLite at all)."""


@contextmanager
def until(ends_at: float | None):
    """Inside the block, the store's operations (in this thread) wait for a lock held by another
    process until time.monotonic() `ends_at` at most (at least MIN_BUSY_S), not the whole BUSY_S:
    a server call ends by its deadline instead of holding its slot. None: no bound."""
    token = _wait_until.set(ends_at)
    try:
        yield
    finally:
        _wait_until.reset(token)


def waits_until() -> float | None:
    """The bound `until` set for this thread's block (None: none): a caller's other waits end by it too (a request
    waiting for another's generation of its puzzle, `daily.Generation.get`)."""
    return _wait_until.get()


class StoreDamaged(StoreError):
    """A stored row that does not read back as it was written: JSON or numbers that do not parse,
    or content that no longer matches the hash stored with it. Served, it would be a wrong answer
    (or the client's INVALID_ARGUMENT: json's ValueError), so reading it is refused instead."""


def canonical(value) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


@dataclass(frozen=True)
class Puzzle:
    id: PuzzleId
    generator_version: str
    catalog_digest: str
    seed: int
    public: dict
    answer: dict

    @property
    def content_hash(self) -> str:
        body = {"id": str(self.id), "generator_version": self.generator_version,
                "catalog_digest": self.catalog_digest, "seed": str(self.seed),
                "public": self.public, "answer": self.answer}
        return hashlib.sha256(canonical(body).encode()).hexdigest()


@dataclass(frozen=True)
class AtlasEntry:
    cards: tuple[str, ...]
    verdict: str
    conflicts: list
    discards: list
    complete: bool


class Store:
    """A puzzle store at `path`. Safe to use from several threads and processes: each operation
    opens its own connection; SQLite serialises the writers.

    `create`: the file is created (and a new or empty one initialised) when opened; otherwise it
    must already be a store. Either way only the opening may create it: an operation on a store
    whose file was removed fails (SQLite's "unable to open database file") instead of creating an
    empty file under a running server. A non-empty SQLite file of another application (tables but
    no store schema) is refused unchanged. `busy_s`: how long an operation waits for a lock held by
    another process (bounded further by `until`)."""

    def __init__(self, path: str | Path, create: bool = True, busy_s: float = BUSY_S, read_only: bool = False):
        self.path = Path(path)
        self.busy_s = busy_s
        # read_only (`gardens puzzles show|list|verify`, `atlas show`): SQLite's mode=ro, and an older store is
        # read as it is, not converted (those commands upgraded it, and failed on read-only media)
        self.read_only = read_only
        create = create and not read_only
        if create:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreError(f"{self.path}: cannot create its directory: {exc.strerror or exc}") from None
        # an absolute URI: the file stays the one opened here even if the working directory changes
        self._uri = self.path.absolute().as_uri()
        try:
            self._open(create)
        except sqlite3.OperationalError as exc:
            if exc.sqlite_errorname in ("SQLITE_BUSY", "SQLITE_LOCKED"):
                raise  # another process holds it: a store, locked for now (its callers' "locked")
            raise StoreError(f"{self.path}: not a usable puzzle store (SQLite: {exc})") from None
        except sqlite3.DatabaseError as exc:  # "file is not a database", "unable to open database file", ...
            raise StoreError(f"{self.path}: not a usable puzzle store (SQLite: {exc})") from None

    def _open(self, create: bool) -> None:
        with self._connect(create) as conn:
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise StoreError(f"{self.path}: schema version {version} is newer than {SCHEMA_VERSION}")
            # Before anything is written (the journal mode, the schema): is this a store, a new or
            # empty file, or another application's database (left as it is)?
            names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")}
            foreign = sorted(names - _OWN_NAMES)
            if version == 0 and foreign:
                shown = ", ".join(foreign[:5]) + (f" and {len(foreign) - 5} more" if len(foreign) > 5 else "")
                raise StoreError(f"{self.path}: not a puzzle store: an SQLite database of something else "
                                 f"(it holds {shown}, no puzzle store schema); left unchanged")
            if version > 0 and "puzzles" not in names:
                raise StoreError(f"{self.path}: not a puzzle store: user_version {version} but no puzzles "
                                 "table; left unchanged")
            if version == 0 and not create:
                raise StoreError(f"{self.path}: not a puzzle store (yet): no schema")
            if self.read_only:
                return
            try:  # stores written before 1 Dec 08:30 are in WAL mode: back to the rollback journal
                conn.execute("PRAGMA journal_mode=DELETE")
            except sqlite3.OperationalError:  # busy (an older process holds it in WAL) or a full disk:
                pass  # the store works in either mode; a later open converts it
            if version < SCHEMA_VERSION:
                with self.transaction(conn):
                    for statement in _SCHEMA.split(";"):
                        if statement.strip():
                            conn.execute(statement)
                    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    def _busy_timeout(self) -> float:
        ends_at = _wait_until.get()
        if ends_at is None:
            return self.busy_s
        return min(self.busy_s, max(ends_at - time.monotonic(), MIN_BUSY_S))

    def _connect(self, create: bool = False) -> sqlite3.Connection:
        # isolation_level=None: transactions are explicit (BEGIN IMMEDIATE ... COMMIT) below.
        # The rollback journal (SQLite's default), not WAL: a reader then creates no file, so stored
        # puzzles are still served when the disk is full (WAL must create its -shm/-wal files to
        # read: every read failed); synchronous=FULL makes each commit durable. Writes are one row
        # or one atlas batch, so WAL's readers-during-a-write buy nothing here.
        # mode=rw: only the opening (`create`) may create the file (see the class).
        mode = "ro" if self.read_only else "rwc" if create else "rw"
        conn = sqlite3.connect(f"{self._uri}?mode={mode}", uri=True,
                               timeout=self._busy_timeout(), isolation_level=None)
        try:
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute("PRAGMA foreign_keys=ON")
        except BaseException:
            conn.close()
            raise
        return _Closing(conn)

    def integrity_problems(self, limit: int = 10) -> list[str]:
        """SQLite's `PRAGMA quick_check` of the whole file: [] when every page is well-formed, else
        what is wrong (at most `limit` lines). Reads the whole file once: ~35 ms for a 40 MB store
        (three years of puzzles and the full atlas) in the page cache, ~1.4 s from a cold disk."""
        try:
            with self._connect() as conn:
                rows = [r[0] for r in conn.execute(f"PRAGMA quick_check({int(limit)})")]
        except sqlite3.OperationalError:
            raise  # busy, I/O: not a verdict on the file's pages
        except sqlite3.DatabaseError as exc:  # "database disk image is malformed", "file is not a database"
            return [str(exc)]
        return [] if rows == ["ok"] else rows

    @contextmanager
    def transaction(self, conn: sqlite3.Connection):
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield conn
            conn.execute("COMMIT")
        except BaseException:
            # SQLite may have rolled back already (a full disk mid-statement does): a second
            # ROLLBACK would raise "no transaction is active" over the real error
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise

    # ---- puzzles --------------------------------------------------------------------------
    def put(self, puzzle: Puzzle) -> Puzzle:
        """Stores `puzzle` unless its id is already stored; returns the stored puzzle either way."""
        with self._connect() as conn, self.transaction(conn):
            insert_puzzle(conn, puzzle)
        return self.get(puzzle.id)

    def get(self, pid: PuzzleId) -> Puzzle | None:
        with self._connect() as conn:
            row = conn.execute("SELECT * FROM puzzles WHERE id = ?", (str(pid),)).fetchone()
        return _checked(row) if row else None

    def stored_hash(self, pid: PuzzleId) -> str | None:
        with self._connect() as conn:
            row = conn.execute("SELECT content_hash FROM puzzles WHERE id = ?", (str(pid),)).fetchone()
        return row[0] if row else None

    def list(self, game: str = "", variant: str = "", difficulty: str = "", date_from: str = "",
             date_to: str = "", after: tuple[str, str] | None = None, limit: int = 50) -> list[Puzzle]:
        """Puzzles ordered by (date, id), those after the (date, id) key `after`, at most `limit`."""
        where, args = [], []
        for column, value in (("game", game), ("variant", variant), ("difficulty", difficulty)):
            if value:
                where.append(f"{column} = ?")
                args.append(value)
        if date_from:
            where.append("date >= ?")
            args.append(date_from)
        if date_to:
            where.append("date <= ?")
            args.append(date_to)
        if after:
            where.append("(date, id) > (?, ?)")
            args.extend(after)
        sql = "SELECT * FROM puzzles" + (" WHERE " + " AND ".join(where) if where else "")
        sql += " ORDER BY date, id LIMIT ?"
        with self._connect() as conn:
            rows = conn.execute(sql, (*args, limit)).fetchall()
        return [_checked(r) for r in rows]

    def verify(self) -> list[str]:
        """Ids whose stored content does not match their stored hash (should always be empty)."""
        return self.read_all()[0]

    def read_all(self) -> tuple[list[str], list[Puzzle]]:
        """One read of the whole table in (date, id) order: (ids of the rows that do not read back as
        written, every other row's puzzle, its hash checked)."""
        with self._connect() as conn:
            rows = conn.execute("SELECT * FROM puzzles ORDER BY date, id").fetchall()
        damaged, puzzles = [], []
        for row in rows:
            puzzle, damage = _read(row)
            if damage is None:
                puzzles.append(puzzle)
            else:
                damaged.append(row[0])
        return damaged, puzzles

    # ---- atlas ----------------------------------------------------------------------------
    def atlas_keys(self) -> set[str]:
        with self._connect() as conn:
            return {r[0] for r in conn.execute("SELECT cards FROM atlas")}

    def atlas_drop_stale(self, catalog_digest: str) -> int:
        """Delete atlas rows and witnesses built from other tile/card data (a replaced data file):
        they are derived facts about data no longer in use, rebuilt by the next build. Returns the
        number of atlas rows dropped."""
        with self._connect() as conn, self.transaction(conn):
            dropped = conn.execute("DELETE FROM atlas WHERE catalog_digest != ?", (catalog_digest,)).rowcount
            conn.execute("DELETE FROM atlas_witnesses WHERE catalog_digest != ?", (catalog_digest,))
        return dropped

    def put_atlas(self, entries: list[AtlasEntry], catalog_digest: str, version: str,
                  witnesses: list[tuple[tuple[str, ...], dict]] = ()) -> None:
        """One transaction per batch (entries and the witness gardens that prove them): an
        interrupted build loses at most the batch in flight."""
        with self._connect() as conn, self.transaction(conn):
            conn.executemany(
                "INSERT OR IGNORE INTO atlas_witnesses (cards, garden_json, catalog_digest) VALUES (?, ?, ?)",
                [("+".join(sorted(cards)), canonical(garden), catalog_digest) for cards, garden in witnesses])
            conn.executemany(
                "INSERT OR IGNORE INTO atlas VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [("+".join(e.cards), len(e.cards), e.verdict, canonical(e.conflicts), canonical(e.discards),
                  int(e.complete), catalog_digest, version) for e in entries])

    def atlas_witnesses(self, catalog_digest: str) -> list[tuple[frozenset, int]]:
        """(cards satisfied, witness id) of every witness garden found for this catalog and deck."""
        with self._connect() as conn:
            rows = conn.execute("SELECT cards, id FROM atlas_witnesses WHERE catalog_digest = ? ORDER BY id",
                                (catalog_digest,)).fetchall()
        return [(frozenset(c.split("+")), i) for c, i in rows]

    def atlas_witness_garden(self, witness_id: int) -> dict | None:
        with self._connect() as conn:
            row = conn.execute("SELECT garden_json FROM atlas_witnesses WHERE id = ?", (witness_id,)).fetchone()
        try:
            return json.loads(row[0]) if row else None
        except ValueError as exc:
            raise StoreDamaged(f"{self.path}: atlas witness {witness_id} does not read back: {exc}") from None

    def atlas_get(self, card_ids, catalog_digest: str | None = None) -> AtlasEntry | None:
        """The entry of a combination; with `catalog_digest`, only one built from that catalog and deck."""
        key = "+".join(sorted(card_ids))
        with self._connect() as conn:
            row = conn.execute("SELECT cards, verdict, conflicts_json, discards_json, complete FROM atlas "
                               "WHERE cards = ? AND (? IS NULL OR catalog_digest = ?)",
                               (key, catalog_digest, catalog_digest)).fetchone()
        if not row:
            return None
        try:
            return AtlasEntry(tuple(row[0].split("+")), row[1], json.loads(row[2]), json.loads(row[3]), bool(row[4]))
        except ValueError as exc:
            raise StoreDamaged(f"{self.path}: atlas row {row[0]} does not read back: {exc}") from None

    def atlas_not_solvable(self) -> dict[tuple[str, ...], str]:
        with self._connect() as conn:
            rows = conn.execute("SELECT cards, verdict FROM atlas WHERE verdict != 'solvable'").fetchall()
        return {tuple(c.split("+")): v for c, v in rows}

    def atlas_counts(self) -> dict[tuple[int, str], int]:
        with self._connect() as conn:
            rows = conn.execute("SELECT size, verdict, COUNT(*) FROM atlas GROUP BY size, verdict").fetchall()
        return {(s, v): n for s, v, n in rows}


def insert_puzzle(conn: sqlite3.Connection, puzzle: Puzzle) -> None:
    """The INSERT of one puzzle; call inside a transaction."""
    p = puzzle.id
    conn.execute("INSERT OR IGNORE INTO puzzles VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                 (str(p), p.game, p.variant, p.difficulty, p.date.isoformat(), puzzle.generator_version,
                  puzzle.catalog_digest, str(puzzle.seed), canonical(puzzle.public), canonical(puzzle.answer),
                  puzzle.content_hash))


def _puzzle(row) -> Puzzle:
    return Puzzle(parse_id(row[0]), row[5], row[6], int(row[7]), json.loads(row[8]), json.loads(row[9]))


def _read(row) -> tuple[Puzzle | None, str | None]:
    """(the puzzle of a row, None) when it reads back as written with the same hash; else (None, what
    is wrong). Each row is parsed once."""
    try:
        puzzle = _puzzle(row)
    except (ValueError, TypeError) as exc:  # json, int(), parse_id's InputError (a ValueError)
        return None, f"does not read back: {exc}"
    if puzzle.content_hash != row[10]:
        return None, "does not match its stored content hash"
    return puzzle, None


def _checked(row) -> Puzzle:
    """The puzzle of a row, or StoreDamaged: a damaged row is never served (costs ~0.1 ms a row)."""
    puzzle, damage = _read(row)
    if damage is not None:
        raise StoreDamaged(f"stored puzzle {row[0]} {damage}")
    return puzzle


class _Closing:
    """A connection that closes at the end of a `with` block (sqlite3's own only ends a transaction)."""

    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn

    def __getattr__(self, name):
        return getattr(self.conn, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.conn.close()


def file_state(path: str | Path) -> str | None:
    """What became of a store's file whose operations fail: "removed" (no file at the path),
    "not a store" (a file without the store's schema, e.g. an empty one), "damaged" (SQLite cannot
    read it as a database), or None: it still looks like a store (the failure is something else: a
    lock, an I/O error, a bad page further in). Reads the file only (read-only, waits 0.1 s at most)."""
    path = Path(path)
    if not os.path.lexists(path):
        return "removed"
    try:
        conn = sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True, timeout=0.1)
        try:
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            has = conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'puzzles'").fetchone() is not None
        finally:
            conn.close()
    except sqlite3.OperationalError:
        return None
    except sqlite3.DatabaseError:
        return "damaged"
    return None if version > 0 and has else "not a store"


def default_path() -> Path:
    """GARDENS_PUZZLES_DB, else var/puzzles.sqlite under the working directory."""
    import os
    return Path(os.environ.get("GARDENS_PUZZLES_DB") or "var/puzzles.sqlite")
