"""CP-SAT's Python module without importing pandas until it is used.

`ortools.sat.python.cp_model` imports pandas at its top, for its pandas APIs only (`new_int_var_series`,
`CpSolver.values`, ...), which no code of ours calls; pandas took ~2.4 s of the ~3.6 s a server process spent on
its imports (`python -X importtime -m server`, 7 Dec), in every server start, every in-process `gardens` command and
every subprocess a test starts.

`install()` (solver/__init__.py calls it) puts a finder in front of the import system for that one module. When it is
imported while pandas is not, a stand-in `pandas` holding two placeholder classes (`Index`, `Series`, the only names
cp_model reads at import, in type aliases and annotations) is in `sys.modules` during its import only; afterwards
cp_model's `pd` is a proxy that imports the real pandas on first use. So every pandas API of cp_model still works
(tests/test_lazy_pandas.py), any other importer of pandas gets the real module, and with pandas already loaded the
finder steps aside.
"""
from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import types

TARGET = "ortools.sat.python.cp_model"


class _Pandas(types.ModuleType):
    """cp_model's `pd` after its import: the real pandas, imported at the first attribute read."""

    def __getattr__(self, name: str):
        return getattr(importlib.import_module("pandas"), name)


def _stand_in() -> types.ModuleType:
    stub = types.ModuleType("pandas", "stand-in while ortools.sat.python.cp_model is imported (lazy_pandas.py)")
    stub.Index = type("Index", (), {})
    stub.Series = type("Series", (), {})
    return stub


class _Loader(importlib.abc.Loader):
    def __init__(self, loader: importlib.abc.Loader):
        self.loader = loader

    def create_module(self, spec):
        return self.loader.create_module(spec)

    def exec_module(self, module) -> None:
        if "pandas" in sys.modules:  # already paid for (a test, a notebook): nothing to save
            self.loader.exec_module(module)
            return
        stub = sys.modules["pandas"] = _stand_in()
        try:
            self.loader.exec_module(module)
        finally:
            if sys.modules.get("pandas") is stub:
                del sys.modules["pandas"]
        module.pd = _Pandas("pandas")


class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name != TARGET:
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is None or spec.loader is None:
            return spec
        spec.loader = _Loader(spec.loader)
        return spec


def install() -> None:
    """Once per process; nothing to do when cp_model is already imported."""
    if TARGET not in sys.modules and not any(isinstance(f, _Finder) for f in sys.meta_path):
        sys.meta_path.insert(0, _Finder())
