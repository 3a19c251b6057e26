"""The plain-data seam (validate, score, solve_optimal, hint) that the CLI and the gRPC servicer call."""
from __future__ import annotations

import pytest

from solver.errors import InputError
from solver.games.gartenbau import api

GARDEN = {"starter": {"id": "ST1", "side": "a", "cells": [[0, 0], [0, 1]]},
          "seedlings": [{"id": "S07", "cells": [[1, 0], [1, 1]]}],
          "plants": [{"id": "P-red-1", "cells": [[0, 0], [1, 0]]}, {"id": "P-yellow-1", "cells": [[0, 1], [1, 1]]}],
          "flowers": [{"id": "B-beetle-sweet-william", "at": [0, 0]}],
          "tokens": {"flower_pot": True, "watering_can": False}}


def test_validate_and_score():
    assert api.validate(GARDEN) == {"legal": True, "violations": []}
    # Sweet William 16 over both plants (no plant shows), one unused token 2
    result = api.score(GARDEN)
    assert result["total"] == 18 and result["flowers"] == {"B-beetle-sweet-william": 16}
    assert result["tie_break"] == [18, 1, 0]
    bad = dict(GARDEN, plants=[{"id": "P-red-1", "cells": [[0, 0], [0, 1]]}], flowers=[])
    assert [v["rule"] for v in api.validate(bad)["violations"]] == ["two_tiles", "colour"]
    with pytest.raises(InputError, match="two_tiles"):
        api.score(bad)


def test_solve_optimal_plain_data():
    holding = {"starter": {"id": "ST1", "side": "a"}, "seedlings": ["S07"], "plants": ["P-red-1", "P-yellow-1"],
               "flowers": ["B-beetle-sweet-william"], "tokens": {"flower_pot": True}}
    result = api.solve_optimal(holding, time_limit_s=20)
    assert (result["status"], result["prestige"], result["bound"]) == ("optimal", 18, 18)
    assert api.score(result["garden"])["total"] == 18
    with pytest.raises(InputError, match="time_limit_s"):
        api.solve_optimal(holding, time_limit_s=-1)


def test_hint_ranks_placements_by_reachable_prestige():
    # Only the starter (red at (0,0), yellow at (0,1)) is down; S07 (red leaf, yellow leaf) arrives, and a red
    # plant, a yellow plant and the orange Sweet William are known to come. The flower needs the red plant
    # over two reds and the yellow plant over two yellows, side by side: S07 must lie directly above or
    # below the starter with red under/over red. Those two placements reach 16; every other reaches at
    # most the two plants' printed 1 + 1.
    garden = {"starter": {"id": "ST1", "side": "a", "cells": [[0, 0], [0, 1]]},
              "tokens": {"flower_pot": False, "watering_can": False}}
    known = {"plants": ["P-red-1", "P-yellow-1"], "flowers": ["B-beetle-sweet-william"]}
    result = api.hint(garden, "S07", known, time_limit_s=30)
    options = result["options"]
    assert all(o["status"] == "optimal" for o in options)
    best = [o for o in options if o["prestige"] == 16]
    assert sorted(o["placement"]["cells"] for o in best) == [[[-1, 0], [-1, 1]], [[1, 0], [1, 1]]]
    assert options[:2] == sorted(best, key=lambda o: str(o["placement"]))
    assert all(o["prestige"] <= 2 for o in options[2:])
    with pytest.raises(InputError, match="unknown tile"):
        api.hint(garden, "S99", known)


def test_hint_top_is_the_head_of_the_full_ranking_and_stops_once_that_many_meet_the_ceiling(monkeypatch):
    """Two placements of S07 reach 16, the holding's counting ceiling (the test above); the others at most 2.
    With `top` the placements are solved in tie-break order and the search stops once `top` meet the ceiling."""
    import dataclasses

    from solver.games.gartenbau import optimiser

    garden = {"starter": {"id": "ST1", "side": "a", "cells": [[0, 0], [0, 1]]},
              "tokens": {"flower_pot": False, "watering_can": False}}
    known = {"plants": ["P-red-1", "P-yellow-1"], "flowers": ["B-beetle-sweet-william"]}
    full = api.hint(garden, "S07", known, time_limit_s=30)["options"]
    solves = []
    inner = optimiser.solve_optimal

    def counted(*args, **kwargs):
        solves.append(kwargs.get("ceiling"))
        return inner(*args, **kwargs)
    monkeypatch.setattr(optimiser, "solve_optimal", counted)
    for top, stops_early in ((1, True), (2, True), (3, False), (len(full) + 5, False)):
        solves.clear()
        assert api.hint(garden, "S07", known, time_limit_s=30, top=top)["options"] == full[:top]
        assert solves and set(solves) == {16}
        assert (len(solves) < len(full)) == stops_early, (top, len(solves), len(full))
    # a looser ceiling (still a bound) that no placement meets: every placement is solved, the same answer
    plan = optimiser.counting_plan
    monkeypatch.setattr(optimiser, "counting_plan", lambda *a: dataclasses.replace(plan(*a), bound=plan(*a).bound + 1))
    solves.clear()
    assert api.hint(garden, "S07", known, time_limit_s=30, top=2)["options"] == full[:2]
    assert len(solves) == len(full) and set(solves) == {17}
    for bad in (0, -1, True, "2", 1001):
        with pytest.raises(InputError, match="top"):
            api.hint(garden, "S07", known, top=bad)
