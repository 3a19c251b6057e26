"""Service modules: each module here exposes `register(server, runtime)` and is added by discovery."""
from __future__ import annotations

import importlib
import pkgutil


def register_all(server, runtime) -> None:
    """Registers every service module of this package (a new game's service is one new module)."""
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        register = getattr(module, "register", None)
        if register is not None:
            register(server, runtime)
