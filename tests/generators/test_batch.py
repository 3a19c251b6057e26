"""`gardens puzzles generate` and `gardens atlas build`: pool = sequential, resumable, claims re-proven."""
from __future__ import annotations

import sqlite3

import pytest

from generators import atlas, batch
from generators.store import Store
from server.cli.main import main
from solver.games.gardeners import engine
from solver.games.gardeners.cards import load_cards
from solver.games.gardeners.checker import check
from solver.games.gardeners.garden import parse_garden
from solver.games.gardeners.modes import MODES
from solver.games.gardeners.tiles import load_catalog


def rows(db) -> list[tuple]:
    conn = sqlite3.connect(db)
    try:
        return conn.execute("SELECT * FROM puzzles ORDER BY id").fetchall()
    finally:
        conn.close()


def test_pool_and_sequential_runs_store_byte_identical_rows_and_resume(tmp_path, capsys):
    pooled, sequential = tmp_path / "pool.sqlite", tmp_path / "seq.sqlite"
    args = ["puzzles", "generate", "--from", "2027-01-01", "--to", "2027-01-02", "--variants", "decree",
            "--difficulties", "easy"]
    assert main([*args, "--workers", "2", "--db", str(pooled)]) == 0
    assert "generated 2, already stored 0" in capsys.readouterr().out
    assert main([*args, "--workers", "1", "--db", str(sequential)]) == 0
    assert rows(pooled) == rows(sequential) and len(rows(pooled)) == 2
    assert main([*args, "--workers", "2", "--db", str(pooled)]) == 0   # nothing left to do
    assert "generated 0, already stored 2" in capsys.readouterr().out
    assert main(["puzzles", "verify", "--db", str(pooled)]) == 0
    assert "verified 2 puzzles: 0 problem(s)" in capsys.readouterr().out
    conn = sqlite3.connect(pooled)
    conn.execute("UPDATE puzzles SET answer_json = replace(answer_json, '\"row\":0', '\"row\":9') "
                 "WHERE id = 'gardeners/decree/easy/2027-01-02'")
    conn.commit()
    conn.close()
    assert main(["puzzles", "verify", "--db", str(sequential)]) == 0
    assert main(["puzzles", "verify", "--db", str(pooled)]) == 1
    out = capsys.readouterr().out
    # a row whose content no longer matches its stored hash is named once as damaged (since the audit
    # of 1 Dec: it is never served, and its answer is not checked further)
    assert "gardeners/decree/easy/2027-01-02: damaged: does not read back as written" in out
    assert "verified 2 puzzles: 1 problem(s)" in out
    assert main(["puzzles", "show", "gardeners/decree/easy/2027-01-01", "--db", str(pooled)]) == 0
    shown = capsys.readouterr().out
    assert '"card_ids"' in shown and '"answer"' not in shown   # the answer only with --answer


def test_cli_refuses_bad_ranges_and_names(tmp_path, capsys):
    db = str(tmp_path / "p.sqlite")
    assert main(["puzzles", "generate", "--from", "2027-01-02", "--to", "2027-01-01", "--db", db]) == 2
    assert main(["puzzles", "generate", "--from", "2027-01-01", "--to", "2027-01-01", "--games", "chess",
                 "--db", db]) == 2
    assert "games" in capsys.readouterr().err


@pytest.fixture(scope="module")
def small_atlas(tmp_path_factory):
    db = tmp_path_factory.mktemp("atlas") / "atlas.sqlite"
    ids = atlas.standard_ids()[:8]
    first = batch.build_atlas(str(db), sizes=(2,), ids=ids)
    second = batch.build_atlas(str(db), sizes=(3,), workers=2, ids=ids, chunk=20)
    return Store(db), ids, first, second


def test_atlas_is_resumable_and_complete(small_atlas):
    store, ids, first, second = small_atlas
    assert first.by_size == {1: 8, 2: 28}
    assert second.skipped == 8 + 28 and second.by_size == {3: 56}
    again = batch.build_atlas(str(store.path), sizes=(3,), ids=ids)
    assert again.solved == 0 and again.skipped == 8 + 28 + 56
    assert sum(store.atlas_counts().values()) == 8 + 28 + 56


def test_atlas_claims_hold(small_atlas):
    store, ids, _, _ = small_atlas
    deck, catalog, mode = load_cards(), load_catalog(), MODES[atlas.ATLAS_MODE]
    entries = [store.atlas_get(c) for k in (1, 2, 3) for c in atlas.combinations(k, ids)]
    unsolvable = [e for e in entries if e.verdict == engine.UNSOLVABLE]
    assert unsolvable, "the first 8 Standard cards hold a conflict"
    for e in unsolvable:
        ex = engine.explain(deck.resolve(list(e.cards)), mode, catalog)
        assert ex.verdict == engine.UNSOLVABLE and ex.complete
        assert sorted(map(sorted, ex.conflicts)) == sorted(map(sorted, e.conflicts))
        assert sorted(map(sorted, ex.discards)) == sorted(map(sorted, e.discards))
    for e in [e for e in entries if e.verdict == engine.SOLVABLE and len(e.cards) == 3][:4]:
        cards = deck.resolve(list(e.cards))
        solved = engine.solve(cards, mode, catalog)
        assert solved.verdict == engine.SOLVABLE and check(solved.garden, cards).valid


def test_check_solvable_answers_stored_conflicts_from_the_atlas(small_atlas):
    store, ids, _, _ = small_atlas
    conflict = next(e for e in (store.atlas_get(c) for c in atlas.combinations(3, ids))
                    if e.verdict == engine.UNSOLVABLE)
    from_atlas = atlas.check_solvable(list(conflict.cards), "normal", store=store)
    from_engine = atlas.check_solvable(list(conflict.cards), "normal")
    assert from_atlas.verdict == from_engine.verdict == engine.UNSOLVABLE
    assert sorted(map(sorted, from_atlas.conflicts)) == sorted(map(sorted, from_engine.conflicts))
    assert sorted(map(sorted, from_atlas.discards)) == sorted(map(sorted, from_engine.discards))
    solvable = next(c for c in atlas.combinations(2, ids) if store.atlas_get(c).verdict == engine.SOLVABLE)
    assert atlas.check_solvable(list(solvable), "normal", store=store).garden is not None


def test_every_solvable_entry_has_a_stored_witness_garden(small_atlas, monkeypatch):
    store, ids, _, second = small_atlas
    assert second.witnesses > 0
    digest = atlas.atlas_digest()
    witnesses = store.atlas_witnesses(digest)
    deck = load_cards()
    for cards, wid in witnesses:   # each garden meets every card it is stored as meeting
        garden = parse_garden(store.atlas_witness_garden(wid), load_catalog(), MODES["solo"])
        assert check(garden, deck.resolve(sorted(cards))).valid
    # CheckSolvable answers solvable combinations from the atlas, without the engine
    from solver.games.gardeners import api

    def no_engine(*args, **kwargs):
        raise AssertionError("the engine was asked although the atlas holds the answer")
    monkeypatch.setattr(api, "check_solvable", no_engine)
    for combo in [c for k in (2, 3) for c in atlas.combinations(k, ids)]:
        entry = store.atlas_get(combo, digest)
        answer = atlas.check_solvable(list(combo), "normal", store=store)
        assert answer.verdict == entry.verdict
        if entry.verdict == engine.SOLVABLE:
            assert check(answer.garden, deck.resolve(list(combo))).valid


def test_rows_of_other_data_are_ignored_then_rebuilt(small_atlas, tmp_path):
    store, ids, _, _ = small_atlas
    copy = tmp_path / "copy.sqlite"
    src, dst = sqlite3.connect(store.path), sqlite3.connect(copy)
    src.backup(dst)
    dst.execute("UPDATE atlas SET catalog_digest = 'tiles:other+cards:other'")
    dst.commit()
    src.close()
    dst.close()
    stale = Store(copy)
    pair = atlas.combinations(2, ids)[0]
    assert stale.atlas_get(pair, atlas.atlas_digest()) is None
    assert atlas.lookup(list(pair), "normal", store=stale) is None   # falls through to the engine
    rebuilt = batch.build_atlas(str(copy), sizes=(2,), ids=ids)
    assert rebuilt.dropped == 8 + 28 + 56 and rebuilt.by_size == {1: 8, 2: 28}
    assert stale.atlas_get(pair, atlas.atlas_digest()) is not None


def test_ray_back_end_without_ray_is_a_clear_error(tmp_path, capsys):
    try:
        import ray  # noqa: F401
        pytest.skip("ray is installed: test_cluster.py covers it")
    except ImportError:
        pass
    assert main(["puzzles", "generate", "--from", "2027-01-01", "--to", "2027-01-01", "--ray", "local",
                 "--db", str(tmp_path / "p.sqlite")]) == 2
    assert "pip install '.[cluster]'" in capsys.readouterr().err


KILLED_ATLAS = """
import sys
from generators import atlas, batch
batch.build_atlas(sys.argv[1], sizes=(3,), ids=atlas.standard_ids()[:8], chunk=8)
"""


def test_atlas_build_killed_midway_resumes_to_the_same_atlas(tmp_path, small_atlas):
    import os
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path
    store, ids, _, _ = small_atlas
    db = tmp_path / "killed.sqlite"
    root = Path(__file__).resolve().parents[2]
    proc = subprocess.Popen([sys.executable, "-c", KILLED_ATLAS, str(db)], cwd=root, stderr=subprocess.DEVNULL,
                            env={**os.environ, "PYTHONPATH": str(root)})
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and proc.poll() is None:
            if db.exists() and sum(Store(db).atlas_counts().values()) >= 8 + 28:
                break
            time.sleep(0.05)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(30)
    finally:
        if proc.poll() is None:
            proc.kill()
    partial = sum(Store(db).atlas_counts().values())
    assert partial >= 8   # at least the singles were committed before the kill
    resumed = batch.build_atlas(str(db), sizes=(3,), ids=ids, chunk=8)
    assert resumed.skipped == partial
    combos = [c for k in (1, 2, 3) for c in atlas.combinations(k, ids)]
    assert [Store(db).atlas_get(c) for c in combos] == [store.atlas_get(c) for c in combos]


def test_rows_built_under_an_earlier_reading_of_the_cards_are_not_served(small_atlas, tmp_path):
    """The atlas's digest carries the card rules' revision (ATLAS_RULES): rows of the same data built before
    Agglomeration counted elements (keyed by the data digest alone) are not served, and the next build drops them."""
    store, ids, _, _ = small_atlas
    copy = tmp_path / "old-rules.sqlite"
    src, dst = sqlite3.connect(store.path), sqlite3.connect(copy)
    src.backup(dst)
    dst.execute("UPDATE atlas SET catalog_digest = ?", (atlas.data_digest(),))
    dst.commit()
    src.close()
    dst.close()
    old = Store(copy)
    pair = atlas.combinations(2, ids)[0]
    assert atlas.atlas_digest() != atlas.data_digest() and old.atlas_get(pair, atlas.data_digest()) is not None
    assert atlas.lookup(list(pair), "normal", store=old) is None
    assert batch.build_atlas(str(copy), sizes=(1,), ids=ids).dropped == 8 + 28 + 56
