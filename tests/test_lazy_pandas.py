"""solver/core/lazy_pandas.py: CP-SAT is imported without pandas (~2.4 s of every process start), and its pandas
APIs still work, in a fresh interpreter each (an import's effect is per process)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _run(code: str) -> dict:
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.splitlines()[-1])


def test_the_server_imports_cp_sat_without_pandas_and_solves():
    got = _run("""
import json, sys
import server.app
from ortools.sat.python import cp_model
loaded = "pandas" in sys.modules
m = cp_model.CpModel(); x = m.new_int_var(0, 5, "x"); m.maximize(x)
s = cp_model.CpSolver(); status = s.solve(m)
print(json.dumps({"pandas": loaded, "optimal": status == cp_model.OPTIMAL, "x": s.value(x),
                  "proxy": type(cp_model.pd).__name__}))
""")
    assert got == {"pandas": False, "optimal": True, "x": 5, "proxy": "_Pandas"}


def test_cp_sats_pandas_apis_still_work():
    """The placeholder classes live only in annotations: the series APIs read the real pandas (a pandas Index was
    refused as "Non-index object" if they read a placeholder)."""
    got = _run("""
import json
import solver
from ortools.sat.python import cp_model
import pandas as pd
m = cp_model.CpModel()
xs = m.new_int_var_series("x", pd.Index(range(3)), 0, pd.Series([1, 2, 3]))
bs = m.new_bool_var_series("b", pd.Index(["p", "q"]))
m.add(xs.sum() == 6); m.add(bs.sum() == 1)  # (the upper bounds: one answer)
s = cp_model.CpSolver(); s.solve(m)
values, flags = s.values(xs), s.boolean_values(bs)
print(json.dumps({"series": isinstance(values, pd.Series), "values": values.tolist(), "flags": int(flags.sum())}))
""")
    assert got == {"series": True, "values": [1, 2, 3], "flags": 1}


def test_with_pandas_imported_first_cp_sat_reads_it_directly():
    got = _run("""
import json
import pandas
import solver
from ortools.sat.python import cp_model
print(json.dumps({"same": cp_model.pd is pandas}))
""")
    assert got == {"same": True}
