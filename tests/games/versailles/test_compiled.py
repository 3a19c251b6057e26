"""The compiled copies of the refutation search and the annealing search (solver/core/compiled.py) are
the same programs: same nodes, same verdicts, same plans, flags on the module object still obeyed, the
same annealed gardens; and a copy is used only when it was built from the source as it is now."""

import importlib.machinery
import threading
import time
from pathlib import Path

import pytest

from solver.core import compiled
from tests.compiled_probe import compiled_and_pure

NAME = "solver.games.versailles.refute"


def test_the_compiled_search_visits_the_same_nodes_as_the_pure_one(tmp_path):
    fast, pure = compiled_and_pure(NAME, "tests.games.versailles._compiled_probe", tmp_path)
    assert not fast["file"].endswith(".py"), fast["file"]  # the extension module was loaded
    assert pure["file"] == str(compiled.source_path(NAME))
    assert fast["results"] == pure["results"]
    # the instances mean something: proofs, a flag that changes the node count, a capped search
    assert [r[0] for r in pure["results"]] == [True, True, True, False]
    assert pure["results"][1][1] != pure["results"][2][1]
    assert not fast["anneal_file"].endswith(".py"), fast["anneal_file"]
    assert pure["anneal_file"] == str(compiled.source_path("solver.games.versailles.anneal"))
    assert fast["anneal"] == pure["anneal"]
    assert [r[1] for r in pure["anneal"]] == [3000, 2000, 1000, 2000]  # every run evaluated its gardens
    kept, start = pure["anneal"][3][2], pure["anneal"][3][3]
    dx, dy = kept[0][0] - start[0][0], kept[0][1] - start[0][1]
    assert [[x - dx, y - dy, r] for x, y, r in kept[:5]] == start[:5]  # the first 5 kept, up to a translation
    assert kept[5:] != [[x + dx, y + dy, r] for x, y, r in start[5:]]  # and the others moved


def _fake_build(root: Path, digest: str) -> Path:
    where = root.joinpath(*NAME.split(".")[:-1])
    where.mkdir(parents=True)
    so = where / ("refute" + importlib.machinery.EXTENSION_SUFFIXES[0])
    so.write_bytes(b"not loaded by this test")
    (where / "refute.sha256").write_text(digest + "\n")
    return so


def test_a_copy_is_used_only_when_built_from_the_current_source(tmp_path, monkeypatch):
    monkeypatch.delenv(compiled.PURE_ENV, raising=False)
    monkeypatch.setattr(compiled, "BUILD", tmp_path)
    assert compiled.compiled_file(NAME) is None  # nothing built
    so = _fake_build(tmp_path, compiled.source_hash(NAME))
    assert compiled.compiled_file(NAME) == so
    monkeypatch.setenv(compiled.PURE_ENV, "1")
    assert compiled.compiled_file(NAME) is None  # forced pure
    monkeypatch.delenv(compiled.PURE_ENV)
    (so.parent / "refute.sha256").write_text("0" * 64 + "\n")  # the source changed since the build
    assert compiled.compiled_file(NAME) is None
    assert compiled._Finder().find_spec(NAME) is None
    assert compiled._Finder().find_spec("solver.games.versailles.rules") is None  # not a compiled module


def test_declarations_beside_the_source_are_part_of_what_a_copy_was_built_from(tmp_path, monkeypatch):
    src = tmp_path.joinpath(*NAME.split(".")).with_suffix(".py")
    src.parent.mkdir(parents=True)
    src.write_bytes(compiled.source_path(NAME).read_bytes())
    monkeypatch.setattr(compiled, "ROOT", tmp_path)
    bare = compiled.source_hash(NAME)
    assert bare == compiled.hashlib.sha256(src.read_bytes()).hexdigest()  # no .pxd: the source's own hash
    pxd = src.with_suffix(".pxd")
    pxd.write_text("import cython\n")
    declared = compiled.source_hash(NAME)
    assert declared != bare
    pxd.write_text("import cython\n# edited\n")
    assert compiled.source_hash(NAME) not in (bare, declared)  # editing the declarations makes a copy stale


def test_the_stale_modules_are_built_side_by_side_largest_first_and_a_failure_is_raised(monkeypatch):
    fresh = "solver.games.horticulture.regions"  # as if already built from its current source
    monkeypatch.setattr(compiled, "compiled_file", lambda name: Path("x.so") if name == fresh else None)
    started, threads, lock = [], set(), threading.Lock()
    both = threading.Barrier(2, timeout=10)  # the first two builds must run at the same time

    def build_one(name):
        with lock:
            started.append(name)
            first_two = len(started) <= 2
        threads.add(threading.get_ident())
        if first_two:
            both.wait()  # breaks (BrokenBarrierError) if the builds ran one after the other
        time.sleep(0.01)

    monkeypatch.setattr(compiled, "_build_one", build_one)
    stale = [n for n in compiled.COMPILED if n != fresh]
    assert compiled.build(jobs=2) == len(stale)
    assert sorted(started) == sorted(stale)  # each stale module once, the fresh one left alone
    largest = sorted(stale, key=lambda n: -compiled.source_path(n).stat().st_size)
    assert set(started[:2]) == set(largest[:2])  # the two largest first (the smallest waits for a free core)
    assert len(threads) == 2

    def failing(name):
        if name == largest[0]:
            raise OSError("no compiler")

    monkeypatch.setattr(compiled, "_build_one", failing)
    with pytest.raises(OSError, match="no compiler"):
        compiled.build(jobs=2)
    monkeypatch.setattr(compiled, "compiled_file", lambda name: Path("x.so"))
    assert compiled.build(jobs=2) == 0  # nothing stale: nothing built
