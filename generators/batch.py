"""Batch jobs over a local process pool: daily puzzles for a range of dates, and the atlas build.

Both are resumable: what the store already holds is skipped, and every finished unit is committed
on its own, so an interrupted run loses only the work in flight.
"""
from __future__ import annotations

import datetime as dt
import multiprocessing
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field

from generators import atlas, daily
from generators.data import REFERENCE, GameData
from generators.identity import GENERATOR_VERSION, PuzzleId
from generators.store import Store
from solver.core.lifetime import die_with_parent


def dates(start: dt.date, end: dt.date) -> list[dt.date]:
    if end < start:
        from solver.errors import InputError
        raise InputError("to", "must not be before --from", end.isoformat())
    return [start + dt.timedelta(days=i) for i in range((end - start).days + 1)]


class Progress:
    """A tqdm bar when tqdm is installed, plain lines otherwise."""

    def __init__(self, total: int, what: str, stream=None):
        self.total, self.what, self.done = total, what, 0
        self.stream = stream or sys.stderr
        try:
            from tqdm import tqdm
            self.bar = tqdm(total=total, desc=what, unit=what.split()[-1], file=self.stream)
        except ImportError:
            self.bar = None
        self.start = time.perf_counter()

    def update(self, n: int = 1, note: str = "") -> None:
        self.done += n
        if self.bar is not None:
            self.bar.update(n)
        else:
            rate = self.done / max(1e-9, time.perf_counter() - self.start)
            print(f"{self.what}: {self.done}/{self.total} ({rate:.1f}/s) {note}".rstrip(), file=self.stream, flush=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


@dataclass
class Summary:
    generated: int = 0
    skipped: int = 0
    seconds: float = 0.0
    per_puzzle: dict[str, float] = field(default_factory=dict)


def _generate_one(db: str, pid: PuzzleId, data: GameData = REFERENCE) -> tuple[str, str, float, bool]:
    start = time.perf_counter()
    puzzle, fresh = daily.Generation(Store(db), data=data).get(pid)
    return str(pid), puzzle.content_hash, time.perf_counter() - start, fresh


def _pool(workers: int) -> ProcessPoolExecutor:
    # spawn: workers start clean (no inherited threads or sqlite handles from the parent); each dies with the
    # parent, however the parent dies (a SIGTERM'd or killed `gardens puzzles generate` left them blocked for ever)
    return ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"),
                               initializer=die_with_parent, initargs=(os.getpid(),))


def _stop(pool: ProcessPoolExecutor) -> None:
    """Stop at once: nothing queued starts, and the workers' puzzles in progress are dropped (nothing of them is
    stored: one transaction per puzzle). A Ctrl-C or a store failure went on generating every queued puzzle, to
    throw it away, before the command ended (22-45 s in the operator walkthrough of 7 Dec)."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for proc in processes:
        proc.terminate()
    for proc in processes:
        proc.join(timeout=10)


def generate_range(db: str, start: dt.date, end: dt.date, games: list[str] | None = None, workers: int = 1,
                   stream=None, variants=None, difficulties=None, data: GameData = REFERENCE) -> Summary:
    """The missing puzzles of the dates, made with `data`; stored ones are kept as they are (`gardens puzzles
    verify` reports those made with other data)."""
    store = Store(db)
    ids = [pid for d in dates(start, end) for pid in daily.ids_for(d, games, variants, difficulties)]
    todo = [pid for pid in ids if store.get(pid) is None]
    summary = Summary(skipped=len(ids) - len(todo))
    began = time.perf_counter()
    progress = Progress(len(todo), "generating puzzles", stream)
    if workers <= 1:
        for pid in todo:
            name, _, seconds, fresh = _generate_one(db, pid, data)
            summary.generated += fresh
            summary.per_puzzle[name] = seconds
            progress.update(1, name)
    else:
        pool = _pool(workers)
        try:
            futures = [pool.submit(_generate_one, db, pid, data) for pid in todo]
            for f in as_completed(futures):
                name, _, seconds, fresh = f.result()  # the first failure (a full disk) ends the run now
                summary.generated += fresh
                summary.per_puzzle[name] = seconds
                progress.update(1, name)
        except BaseException:  # a failure, Ctrl-C, or the SIGTERM the command turns into an exception
            _stop(pool)
            raise
        pool.shutdown()
    progress.close()
    summary.seconds = time.perf_counter() - began
    return summary


@dataclass
class AtlasSummary:
    solved: int = 0
    skipped: int = 0
    dropped: int = 0    # rows of other tile/card data, deleted before building
    witnesses: int = 0  # witness gardens found and stored
    seconds: float = 0.0
    by_size: dict[int, int] = field(default_factory=dict)


def build_atlas(db: str, sizes=(1, 2, 3), workers: int = 1, ids: list[str] | None = None, chunk: int = 200,
                stream=None, catalog: str | None = None, cards: str | None = None) -> AtlasSummary:
    """Singles, then pairs, then triples, up to max(sizes): each size needs the smaller ones' verdicts. Solved
    with the tile catalog and card decks given (None: the reference data); rows of other data are dropped."""
    store = Store(db)
    digest = atlas.atlas_digest(catalog, cards)
    summary = AtlasSummary(dropped=store.atlas_drop_stale(digest))
    began = time.perf_counter()
    pool = _pool(workers) if workers > 1 else None
    try:
        for size in range(1, max(sizes) + 1):
            done = store.atlas_keys()
            combos = atlas.combinations(size, ids, cards)
            todo = [c for c in combos if "+".join(c) not in done]
            summary.skipped += len(combos) - len(todo)
            if not todo:
                continue
            known = _known(store, size, ids)
            witnesses = [cards for cards, _ in store.atlas_witnesses(digest)]
            chunks = [todo[i:i + chunk] for i in range(0, len(todo), chunk)]
            progress = Progress(len(todo), f"atlas size {size} combinations", stream)
            n = len(chunks)
            results = (pool.map(atlas.solve_chunk, chunks, [known] * n, [witnesses] * n, [catalog] * n, [cards] * n)
                       if pool else (atlas.solve_chunk(c, known, witnesses, catalog, cards) for c in chunks))
            for entries, found in results:
                store.put_atlas(entries, digest, GENERATOR_VERSION, found)
                summary.witnesses += len(found)
                summary.solved += len(entries)
                summary.by_size[size] = summary.by_size.get(size, 0) + len(entries)
                progress.update(len(entries))
            progress.close()
    except BaseException:
        if pool:
            _stop(pool)
        raise
    if pool:
        pool.shutdown()
    summary.seconds = time.perf_counter() - began
    return summary


def _known(store: Store, size: int, ids) -> dict[tuple[str, ...], str]:
    """Verdicts other than solvable of the smaller combinations (solvable ones need no mention)."""
    return {cards: verdict for cards, verdict in store.atlas_not_solvable().items() if len(cards) < size}
