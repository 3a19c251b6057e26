"""Optional compiled copies of pure-Python hot loops (Cython, built by `make setup`).

A module listed in COMPILED (the Versailles refutation search, a pure-Python branch and bound, and
since 2 Dec the Versailles annealing search over 64-bit words, `anneal.py` + `anneal.pxd`) is compiled by `python -m solver.core.compiled build` from its unchanged source into
`build/compiled/<package path>/<name>.<ext suffix>` (or under `$GARDENS_COMPILED_DIR`), beside a
file holding the SHA-256 of the source it was built from. `install()` puts a finder in front of the import system: importing the
module loads the compiled copy only when that hash equals the hash of the source file as it is
now; otherwise (source edited since the build, no build, no compiler, `GARDENS_PURE=1` in the
environment) the import falls through to the `.py` file as if this module did not exist.

The compiled copy is the same program: Cython compiles the Python source as it is, so every
search visits the same nodes in the same order and a deterministic request (whose budgets count
nodes, never seconds) gives the same answer with or without it; only the CPU time per node
differs. An augmenting `<name>.pxd` beside the source, if present, gives Cython C types for the
copy (it is part of the hash); such declarations must keep the program's meaning (no overflow:
the values declared as C integers are small counts, indices and field codes, bounded where the
module says). The refutation search has one (its helpers over byte-array state, 1 Dec), and
its source is written for it: compiled it is about 5x faster per node than the pure module (1 Dec 06:00)
(docs/versailles.md). Module attributes stay writable (the tests and benchmarks set the search's
flags on the module object) because Cython reads undeclared module globals from the module's
dictionary.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from sysconfig import get_paths

ROOT = Path(__file__).resolve().parents[2]  # the repository (the directory holding solver/)
BUILD = Path(os.environ.get("GARDENS_COMPILED_DIR") or ROOT / "build" / "compiled")  # where the copies go
COMPILED = ("solver.games.versailles.refute", "solver.games.versailles.anneal", "solver.games.horticulture.anneal",
            "solver.games.horticulture.regions")
PURE_ENV = "GARDENS_PURE"


def source_path(name: str) -> Path:
    return ROOT.joinpath(*name.split(".")).with_suffix(".py")


def artefact_dir(name: str) -> Path:
    return BUILD.joinpath(*name.split(".")[:-1])


def declarations_path(name: str) -> Path:
    """The optional augmenting `.pxd` beside the source: Cython type declarations for the compiled
    copy only (the `.py` stays the program that runs when the copy is not used)."""
    return source_path(name).with_suffix(".pxd")


def _digest(source: Path, declarations: Path) -> str:
    data = source.read_bytes()
    if declarations.is_file():  # without declarations the hash is the source's own, as before
        data += b"\0pxd\0" + declarations.read_bytes()
    return hashlib.sha256(data).hexdigest()


def source_hash(name: str) -> str:
    """What a compiled copy must have been built from: the source, and its declarations if any."""
    return _digest(source_path(name), declarations_path(name))


def _stamp(name: str) -> Path:
    return artefact_dir(name) / (name.rsplit(".", 1)[1] + ".sha256")


def compiled_file(name: str) -> Path | None:
    """The compiled copy of module `name` if it was built from the source as it is now, else None."""
    if os.environ.get(PURE_ENV):
        return None
    stamp = _stamp(name)
    try:
        if stamp.read_text().strip() != source_hash(name):
            return None
    except OSError:
        return None
    base = name.rsplit(".", 1)[1]
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        candidate = artefact_dir(name) / (base + suffix)
        if candidate.is_file():
            return candidate
    return None


class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path=None, target=None):
        if fullname not in COMPILED:
            return None
        so = compiled_file(fullname)
        if so is None:
            return None
        return importlib.util.spec_from_file_location(fullname, so)


_FINDER = _Finder()


def install() -> None:
    """Route imports of the COMPILED modules to their up-to-date compiled copies (idempotent)."""
    if _FINDER not in sys.meta_path:
        sys.meta_path.insert(0, _FINDER)


def _build_one(name: str) -> None:
    """Compile one module into its artefact directory; its stamp is written last."""
    out = artefact_dir(name)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        # the copy sits in a package tree of the same dotted name, so Cython names the
        # extension's init function and module after the real module
        parts = name.split(".")
        pkg = Path(tmp).joinpath(*parts[:-1])
        pkg.mkdir(parents=True)
        for depth in range(1, len(parts)):
            (Path(tmp).joinpath(*parts[:depth]) / "__init__.py").touch()
        copy = pkg / (parts[-1] + ".py")
        shutil.copyfile(source_path(name), copy)
        if declarations_path(name).is_file():
            shutil.copyfile(declarations_path(name), copy.with_suffix(".pxd"))
        digest = _digest(copy, copy.with_suffix(".pxd"))  # of what is compiled, even if edited meanwhile
        subprocess.run([sys.executable, "-m", "cython", "-3", "--module-name", name,
                        "-X", "annotation_typing=False", "-X", "language_level=3", str(copy)],
                       check=True, cwd=tmp)
        c_file = copy.with_suffix(".c")

        suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
        target = pkg / (parts[-1] + suffix)
        cc = os.environ.get("CC", "cc")
        subprocess.run([cc, "-shared", "-fPIC", "-O2", "-fno-strict-aliasing", "-DNDEBUG",
                        f"-I{get_paths()['include']}", str(c_file), "-o", str(target)], check=True)
        for old in out.glob(parts[-1] + ".*"):
            old.unlink()
        shutil.copyfile(target, out / target.name)
    _stamp(name).write_text(digest + "\n")  # written last: a half-built copy is never used


def build(names: tuple[str, ...] = COMPILED, jobs: int | None = None) -> int:
    """Compile each module's source with Cython into build/compiled; returns how many were built.
    A module whose artefact is already up to date is left alone. The modules are built side by
    side, one per core (`jobs`, all cores by default): each build is two subprocesses (Cython,
    then the C compiler), so threads suffice, and on two cores `make setup` spends ~39 s here
    instead of ~62 s (7 Dec). The largest module goes first so that it never starts last."""
    todo = sorted((name for name in names if compiled_file(name) is None),
                  key=lambda name: -source_path(name).stat().st_size)
    if not todo:
        return 0
    with ThreadPoolExecutor(max_workers=max(1, min(jobs or os.cpu_count() or 1, len(todo)))) as pool:
        for future in [pool.submit(_build_one, name) for name in todo]:
            future.result()  # the first failure is raised (the other builds still finish or fail alone)
    return len(todo)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] != ["build"]:
        print("usage: python -m solver.core.compiled build", file=sys.stderr)
        return 2
    try:
        n = build()
    except (OSError, subprocess.CalledProcessError) as exc:  # no compiler, no Cython: the pure modules serve
        print(f"compiled modules not built ({exc}); the pure-Python modules will be used", file=sys.stderr)
        return 0
    for name in COMPILED:
        print(f"{name}: {'compiled' if compiled_file(name) else 'pure Python'}"
              f"{' (built now)' if n else ''}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
