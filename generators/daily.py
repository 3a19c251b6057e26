"""The daily puzzle registry: which puzzles exist for a date, how each is generated and checked."""
from __future__ import annotations

import datetime as dt
import functools
import hashlib
import random
import threading
import time
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, ContextManager

import solver

from generators import gardeners, gartenbau, horticulture, versailles
from generators.atlas import data_digest  # the Gardeners tile catalog and card deck (atlas rows: atlas_digest)
from generators.data import REFERENCE, GameData
from generators.identity import GENERATOR_VERSION, PuzzleId, seed_of
from generators.store import Puzzle, Store
from solver.errors import InputError


@dataclass(frozen=True)
class Kind:
    game: str
    variant: str
    difficulties: tuple[str, ...]
    generate: Callable[..., dict]   # (difficulty, rng, data=GameData) -> {"public", "answer"}
    check: Callable[..., dict]      # (public, answer, player's answer, data=GameData) -> verdict dict
    digest: Callable[[GameData], str]  # of the data the puzzles are made with
    version: str = GENERATOR_VERSION   # the generator version of this kind (seeds and stored rows carry it)


def _data_digest(game: str) -> Callable[[GameData], str]:
    """A catalog without a digest of its own: hash the game's data files (top level, sorted), the server's
    directory or the reference one."""
    def digest(data: GameData = REFERENCE) -> str:
        directory = getattr(data, game) or Path(solver.__file__).parent / "data" / game
        files = sorted(Path(directory).glob("*.json"))
        return f"{game}:" + hashlib.sha256(b"".join(f.read_bytes() for f in files)).hexdigest()[:16]
    return digest


def _gardeners_digest(data: GameData = REFERENCE) -> str:
    return data_digest(data.tiles, data.cards)


KINDS: dict[tuple[str, str], Kind] = {
    ("gardeners", "decree"): Kind("gardeners", "decree", tuple(gardeners.DECREE_CARDS),
                                  gardeners.generate_decree, gardeners.check_decree, _gardeners_digest),
    ("gardeners", "impossible"): Kind("gardeners", "impossible", tuple(gardeners.IMPOSSIBLE_CARDS),
                                      gardeners.generate_impossible, gardeners.check_discard, _gardeners_digest,
                                      # 3 (7 Dec 2026): each level draws its conflict shape (IMPOSSIBLE_LEVELS)
                                      version="gardeners-impossible-3"),
    ("gartenbau", "holding"): Kind("gartenbau", "holding", tuple(gartenbau.HOLDINGS), gartenbau.generate,
                                   gartenbau.check, _data_digest("gartenbau"), version="gartenbau-5"),
    ("versailles", "tiles"): Kind("versailles", "tiles", tuple(versailles.TILES), versailles.generate,
                                  versailles.check, _data_digest("versailles"), version="versailles-3"),
    ("horticulture", "nursery"): Kind("horticulture", "nursery", tuple(horticulture.CARDS), horticulture.generate,
                                      horticulture.check, _data_digest("horticulture"), version="horticulture-2"),
}


@functools.lru_cache(maxsize=64)
def digest_of(game: str, data: GameData = REFERENCE) -> str:
    """The digest a puzzle of `game` made with `data` carries (Puzzle.catalog_digest), computed once per process as
    a server loads its data once (every served puzzle is checked against it: the files were read and hashed on
    each call)."""
    return next(k for k in KINDS.values() if k.game == game).digest(data)


def kind_of(pid: PuzzleId) -> Kind:
    kind = KINDS.get((pid.game, pid.variant))
    if kind is None:
        known = sorted({f"{g}/{v}" for g, v in KINDS})
        raise InputError("puzzle", f"no daily puzzle {pid.game}/{pid.variant}; one of {known}",
                         f"{pid.game}/{pid.variant}")
    if pid.difficulty not in kind.difficulties:
        raise InputError("difficulty", f"one of {list(kind.difficulties)}", pid.difficulty)
    return kind


def ids_for(date: dt.date, games: list[str] | None = None, variants: list[str] | None = None,
            difficulties: list[str] | None = None) -> list[PuzzleId]:
    """Every puzzle of a date (optionally only some games, variants, difficulties), in a stable order."""
    for field, chosen, known in (("games", games, {k.game for k in KINDS.values()}),
                                 ("variants", variants, {k.variant for k in KINDS.values()}),
                                 ("difficulties", difficulties, {d for k in KINDS.values() for d in k.difficulties})):
        unknown = sorted(set(chosen or ()) - known)
        if unknown:
            raise InputError(field, f"unknown; one of {sorted(known)}", unknown)
    return [PuzzleId(k.game, k.variant, d, date) for k in KINDS.values()
            if (not games or k.game in games) and (not variants or k.variant in variants)
            for d in k.difficulties if not difficulties or d in difficulties]


def generate(pid: PuzzleId, data: GameData = REFERENCE) -> Puzzle:
    """The puzzle of `pid` under the current generator version, made with `data`: a pure function of the id
    (and of the data, whose digest it stores)."""
    kind = kind_of(pid)
    seed = seed_of(pid, kind.version)
    content = kind.generate(pid.difficulty, random.Random(seed), data=data)
    return Puzzle(pid, kind.version, digest_of(pid.game, data), seed, content["public"], content["answer"])


class StaleData(Exception):
    """A stored puzzle made with other data files than the ones in use: its answer may not hold here."""

    def __init__(self, puzzle: Puzzle, digest: str):
        super().__init__(f"{puzzle.id} was made with other data files ({puzzle.catalog_digest}) than the ones in "
                         f"use ({digest})")
        self.puzzle, self.digest = puzzle, digest


def current(puzzle: Puzzle, data: GameData = REFERENCE) -> Puzzle:
    """The puzzle, when it was made with `data` (the digests agree); else StaleData."""
    kind_of(puzzle.id)
    digest = digest_of(puzzle.id.game, data)
    if puzzle.catalog_digest != digest:
        raise StaleData(puzzle, digest)
    return puzzle


def check_answer(puzzle: Puzzle, answer, data: GameData = REFERENCE) -> dict:
    return kind_of(puzzle.id).check(puzzle.public, puzzle.answer, answer, data=data)


def problems(puzzle: Puzzle, data: GameData = REFERENCE) -> list[str]:
    """What is wrong with a stored puzzle's answer against the pure checkers and `data` (empty when nothing):
    it was made with other data files; a decree's garden must be valid, a holding's garden must score its
    optimum. (Its hash is the store's check: Store.verify, and every read.)"""
    try:
        current(puzzle, data)
    except StaleData as exc:
        return [str(exc)]
    out = []
    answer = puzzle.answer
    try:
        if answer.get("kind") == "garden" and not check_answer(puzzle, answer["solution"], data)["correct"]:
            out.append("the stored garden does not meet the cards")
        if answer.get("kind") == "optimum" and not check_answer(puzzle, answer["garden"], data)["correct"]:
            out.append("the stored garden does not score the stored optimum")
        if answer.get("kind") == "discard" and not answer.get("discards"):
            out.append("no discard set stored")
    except (ValueError, KeyError) as exc:
        out.append(f"the stored answer cannot be checked: {exc}")
    return out


# A request waiting for another's generation of its puzzle looks up this often whether its client is still there and
# its deadline still ahead (it waited in one lock.acquire: a client that had gone held its server thread and light
# slot until the generation ended, and with no deadline at all the wait's timeout overflowed: the load walkthrough
# of 7 Dec)
WAIT_SLICE_S = 0.2


class Generation:
    """Get-or-generate against a store, one generation at a time per id: concurrent requests for the
    same missing puzzle wait for the one generating it instead of generating it twice."""

    def __init__(self, store: Store, generate_fn: Callable[[PuzzleId], Puzzle] | None = None,
                 data: GameData = REFERENCE):
        self.store = store
        self.data = data
        self.generate_fn = generate_fn or (lambda pid: generate(pid, data))
        self._lock = threading.Lock()
        self._per_id: dict[PuzzleId, threading.Lock] = {}
        self._waiting = 0  # requests waiting for another's generation, all ids

    def get(self, pid: PuzzleId, ends_at: float | None = None,
            slot: Callable[[], ContextManager] = nullcontext, gone: Callable[[], bool] = lambda: False,
            max_waiting: int | None = None) -> tuple[Puzzle, bool]:
        """(puzzle, generated_now); StaleData for a stored puzzle made with other data than this generation's.
        A request waiting for another's generation of the same id gives up at `ends_at` (time.monotonic()), or as
        soon as `gone()` (its client left), with Pending; only the one generating takes a `slot()` (a server's solve
        slot), the waiters hold none. (A request waiting for the start-up preparation's puzzle was held 7 s past its
        1.5 s deadline, with a solve slot that refused other calls meanwhile: the puzzle walkthrough of 7 Dec.) At
        most `max_waiting` requests wait at once (each holds a server thread and a light slot while it waits: eight
        players asking for a puzzle being made refused every light call for the whole generation); one more is
        refused with Busy."""
        kind_of(pid)
        stored = self.store.get(pid)
        if stored is not None:
            return current(stored, self.data), False
        with self._lock:
            lock = self._per_id.setdefault(pid, threading.Lock())
        if not lock.acquire(blocking=False):
            self._wait(pid, lock, ends_at, gone, max_waiting)
        try:
            stored = self.store.get(pid)  # the one we waited for may have stored it
            if stored is not None:
                return current(stored, self.data), False
            with slot():
                return self.store.put(self.generate_fn(pid)), True
        finally:
            lock.release()

    def _wait(self, pid: PuzzleId, lock: threading.Lock, ends_at: float | None, gone: Callable[[], bool],
              max_waiting: int | None) -> None:
        """Acquires `lock` (another request is generating `pid`), or raises Busy / Pending."""
        with self._lock:
            if max_waiting is not None and self._waiting >= max_waiting:
                raise Busy(f"the puzzle {pid} is being made for another request and {self._waiting} more are "
                           "waiting for it; retry in a few seconds")
            self._waiting += 1
        try:
            while True:
                left = None if ends_at is None else ends_at - time.monotonic()
                if left is not None and left <= 0:
                    raise Pending(f"the puzzle {pid} is being made by another request; it is served once made")
                if lock.acquire(timeout=WAIT_SLICE_S if left is None else min(WAIT_SLICE_S, left)):
                    return
                if gone():
                    raise Gone(f"the puzzle {pid} is being made by another request; its client has gone")
        finally:
            with self._lock:
                self._waiting -= 1


class Busy(Exception):
    """Too many requests already wait for puzzles being made (`Generation.get`'s max_waiting)."""


class Pending(Exception):
    """Another request is making the puzzle, past the waiter's deadline (`Generation.get`)."""


class Gone(Pending):
    """The waiter's client left while another request made the puzzle (`Generation.get`'s gone)."""
