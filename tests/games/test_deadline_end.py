"""Every optimiser with its control's end (`SolveControl.ends_at`, a client's deadline) already reached:
each search is cut to nothing, but the searches that settle an answer already found (the value of a fixed
garden or game, checked against the pure scorer) are not, so the call answers instead of failing.
Before `check=True` a 10-tile Versailles call failed with "the model rejected a garden it had returned"
(INTERNAL on the wire) at every short deadline."""
from __future__ import annotations

import random
import time

import pytest

from solver.core.solve import SolveControl
from solver.games.gartenbau import api as gartenbau
from solver.games.horticulture import api as horticulture
from solver.games.versailles import api as versailles


def ended() -> SolveControl:
    # as the server makes it for a 1.25 s deadline whose searches all come after the end
    return SolveControl(time_limit_s=1.0, num_workers=1, ends_at=time.monotonic())


@pytest.mark.parametrize("n", [10, 14])
def test_versailles_answers_at_its_end(n):
    tiles = list(range(1, 73))
    random.Random(3).shuffle(tiles)
    out = versailles.solve_optimal(tiles[:n], control=ended())
    assert out["status"] in ("optimal", "feasible") and out["points"] > 0
    assert out["bound"] is None or out["bound"] >= out["points"]


def test_gartenbau_answers_at_its_end():
    holding = {"starter": {"id": "ST1", "side": "a"}, "seedlings": ["S07", "S01", "S02", "S03"],
               "plants": ["P-red-1", "P-yellow-1"], "flowers": ["B-beetle-sweet-william"], "tokens": {"flower_pot": True}}
    out = gartenbau.solve_optimal(holding, control=ended())
    assert out["status"] in ("optimal", "feasible", "unknown")
    if out["status"] != "unknown":
        assert out["bound"] is None or out["bound"] >= out["prestige"]


def test_horticulture_answers_at_its_end():
    request = {"side": "A", "path": {"start": 3, "moves": "DDDDDDD"}, "gnome": [3, 5],
               "plan": {"border": "sweet_potato", "path": "turnip", "companions": ["topiary", "carrot"]},
               "nursery": [1, 50, 12, 33, 24, 4, 7, 9]}
    out = horticulture.solve_optimal(request, control=ended())
    assert out["status"] in ("optimal", "feasible") and out["score"] > 0
    assert out["bound"] is None or out["bound"] >= out["score"]
