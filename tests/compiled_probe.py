"""Helpers shared by the tests of every game: running a probe against a compiled module and its pure source."""
from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys

from solver.core import compiled


def compiled_and_pure(name: str, probe: str, tmp_path) -> tuple[dict, dict]:
    """Run the probe module `probe` (prints JSON) in fresh interpreters, once with the compiled copy of module `name`
    (built into tmp_path when `make setup` has not built it, or it was edited since) and once pure; returns both
    outputs (the compiled one first)."""
    env = {k: v for k, v in os.environ.items() if k != compiled.PURE_ENV}
    if compiled.compiled_file(name) is None:
        env["GARDENS_COMPILED_DIR"] = str(tmp_path)
        subprocess.run([sys.executable, "-m", "solver.core.compiled", "build"], cwd=compiled.ROOT, env=env,
                       check=True, timeout=600)

    def run(env):
        out = subprocess.run([sys.executable, "-m", probe], cwd=compiled.ROOT, env=env, check=True,
                             capture_output=True, text=True, timeout=600)
        return json.loads(out.stdout)

    return run(env), run({**env, compiled.PURE_ENV: "1"})


def pure_source(name: str):
    """A fresh module run from the pure source of module `name`, never its compiled copy (which keeps its C helpers
    to itself), for tests that call those helpers or patch the module's flags. It is registered in sys.modules as
    `<package>._pure_<name>` (dataclasses look their module up there; relative imports resolve in the package)."""
    package, _, last = name.rpartition(".")
    spec = importlib.util.spec_from_file_location(f"{package}._pure_{last}", compiled.source_path(name))
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module
