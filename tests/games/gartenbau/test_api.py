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


def test_misspelt_fields_are_refused_not_read_as_their_defaults():
    """Before 7 Dec a holding's "seedling" list and a "flowerpot" token were ignored (an optimal garden of 0), and a
    hint's known tiles given as [] or {"seedling": [...]} were read as none."""
    holding = {"starter": {"id": "ST1", "side": "a"}, "seedling": ["S07"], "tokens": {"flowerpot": True}}
    with pytest.raises(InputError, match=r"holding\.seedling: unknown field"):
        api.solve_optimal(holding, 1)
    with pytest.raises(InputError, match=r"holding\.tokens\.flowerpot: unknown field"):
        api.solve_optimal({"starter": {"id": "ST1", "side": "a"}, "tokens": {"flowerpot": True}}, 1)
    with pytest.raises(InputError, match=r"garden\.seedling: unknown field"):
        api.validate(dict(GARDEN, seedling=[]))
    starter_only = {"starter": GARDEN["starter"]}
    with pytest.raises(InputError, match=r"known\.seedling: unknown field"):
        api.hint(starter_only, "S07", {"seedling": ["S01"]}, 1)
    with pytest.raises(InputError, match=r"known: must be an object"):
        api.hint(starter_only, "S07", [], 1)
    with pytest.raises(InputError, match=r"board: must be an integer >= 2"):  # 0 was read as the default board
        api.solve_optimal({"starter": {"id": "ST1", "side": "a"}}, 1, board=0)


def test_solve_optimal_plain_data():
    holding = {"starter": {"id": "ST1", "side": "a"}, "seedlings": ["S07"], "plants": ["P-red-1", "P-yellow-1"],
               "flowers": ["B-beetle-sweet-william"], "tokens": {"flower_pot": True}}
    result = api.solve_optimal(holding, time_limit_s=20)
    # the watering can left out is unused, as in a garden: 2 prestige (the rules lawyer of 7 Dec: a holding's
    # tokens left out were used, a garden's unused)
    assert (result["status"], result["prestige"], result["bound"]) == ("optimal", 20, 20)
    assert result["garden"]["tokens"] == {"flower_pot": True, "watering_can": True}
    assert api.score(result["garden"])["total"] == 20
    both_used = dict(holding, tokens={"flower_pot": False, "watering_can": False})
    assert api.solve_optimal(both_used, time_limit_s=20)["prestige"] == 16
    with pytest.raises(InputError, match="time_limit_s"):
        api.solve_optimal(holding, time_limit_s=-1)


def test_a_search_that_finds_nothing_in_time_still_answers_a_legal_garden():
    """Every holding has a legal garden: its seedling tiles side by side, no plant, no flower. With no work allowed
    (every CP-SAT search ends UNKNOWN at once) that garden is the answer, "feasible", rechecked by the scorer;
    before 7 Dec a 10-tile holding with 5 flowers answered "unknown" with no garden on a loaded machine."""
    from solver.core.solve import SolveControl

    holding = {"starter": {"id": "ST2", "side": "b"},
               "seedlings": ["S05", "S41", "S06", "S42", "S11", "S13", "S27", "S03", "S39", "S01"],
               "plants": ["P-green-1", "P-purple-1"], "flowers": ["A02a-carnation", "A06-datura"],
               "tokens": {"flower_pot": True, "watering_can": False}}
    out = api.solve_optimal(holding, control=SolveControl(time_limit_s=10, deterministic_limit=1e-9))
    assert out["status"] == "feasible" and out["garden"] is not None
    assert api.validate(out["garden"])["legal"]
    assert sorted(t["id"] for t in out["garden"]["seedlings"]) == sorted(holding["seedlings"])
    assert out["prestige"] == api.score(out["garden"])["total"] == 2  # the unused flower pot


def test_a_short_search_answers_at_least_the_sown_plain_garden():
    """When the searches over layouts find nothing in their time (an 18-tile holding at 0.2 deterministic units
    here; the service's caps in 3-30 s of wall time, the fuzzing of 7 Dec), the answer was the bare plain garden,
    prestige 0. Now it is at least the sown garden: the plain layout, tiles sorted by colour, with the plants and
    flowers a short search puts on it."""
    from solver.core.solve import SolveControl
    from solver.games.gartenbau.data import load_catalog
    from solver.games.gartenbau.optimiser import Holding, _sown_garden, default_board
    from solver.games.gartenbau.scoring import score

    holding = {"starter": {"id": "ST2", "side": "a"},
               "seedlings": ["S33", "S16", "S64", "S58", "S61", "S49", "S27", "S13", "S63", "S02", "S69", "S54",
                             "S25", "S28", "S39", "S67", "S50", "S01"],
               "plants": ["P-yellow-5", "P-purple-5", "P-orange-2", "P-green-7", "P-red-6", "P-blue-7"],
               "flowers": ["B-green-beetle-calla-lily", "B-green-beetle-larkspur", "B-green-beetle-datura",
                           "B-green-beetle-forget-me-not", "B-green-beetle-carnation"]}
    control = SolveControl(time_limit_s=60, deterministic_limit=0.2)
    out = api.solve_optimal(holding, control=control)
    catalog = load_catalog()
    sown = _sown_garden(Holding("ST2", "a", holding["seedlings"], holding["plants"], holding["flowers"]), catalog,
                        default_board(18), control, 60, lambda: False)
    assert sown is not None and score(sown).total > 0
    assert out["status"] == "feasible" and api.validate(out["garden"])["legal"]
    assert out["prestige"] == api.score(out["garden"])["total"] >= score(sown).total
    assert sorted(t["id"] for t in out["garden"]["seedlings"]) == sorted(holding["seedlings"])


ROSE_HOLDING = {"starter": {"id": "ST1", "side": "a"}, "seedlings": [f"S{i:02d}" for i in range(7, 31)],
                "plants": ["P-red-1", "P-red-2"], "flowers": ["A13-garden-rose"]}


def test_a_garden_rose_holding_answers_its_rainbow_sets():
    """A 24-tile holding whose only flower is a Garden Rose answered 3 (no search found a rainbow set; the sown
    garden's tiles, sorted by colour, make none) where a hand-made garden scores 72: the rose on two red plants and
    five connected sets of six colours. The sown gardens now include a rainbow layout with the rose's bed."""
    from solver.core.solve import SolveControl

    out = api.solve_optimal(ROSE_HOLDING, control=SolveControl(time_limit_s=60, deterministic_limit=0.5))
    assert api.validate(out["garden"])["legal"]
    assert out["prestige"] == api.score(out["garden"])["total"] >= 72
    assert out["score"]["flowers"]["A13-garden-rose"] >= 72
    assert sorted(t["id"] for t in out["garden"]["seedlings"]) == sorted(ROSE_HOLDING["seedlings"])


def test_the_rainbow_layout_makes_the_most_rainbow_sets_around_a_legal_bed():
    """`_rainbow_layout` lays every tile once, and the bed it makes (two red plants upright across the row pairs,
    the rose on them) is a legal garden with 5 rainbow sets: the most a garden of this holding can have with its
    rose placed, since the bed covers four of its nine red seedlings (eight tiles and the starter)."""
    from solver.games.gartenbau.data import load_catalog
    from solver.games.gartenbau.garden import Garden, PlacedFlower, PlacedPlant
    from solver.games.gartenbau.optimiser import Holding, _plain_garden, _rainbow_layout, default_board
    from solver.games.gartenbau.rules import garden_violations
    from solver.games.gartenbau.scoring import rainbow_sets, score

    catalog = load_catalog()
    holding = Holding("ST1", "a", ROSE_HOLDING["seedlings"], ROSE_HOLDING["plants"], ROSE_HOLDING["flowers"])
    layout = _rainbow_layout(holding, catalog, default_board(24), "A13-garden-rose")
    assert sorted(t for t in layout.order if t) == sorted(holding.seedlings)
    plain = _plain_garden(holding, catalog, default_board(24), layout)
    reds = [c for t in plain.tiles for c, s in zip(t.cells, t.seedlings) if s.colour == "red"]
    assert len(reds) == 9
    bedded = Garden(plain.tiles, [PlacedPlant(catalog.plants[p], c) for p, c in layout.plants],
                    [PlacedFlower(catalog.flowers[f], at) for f, at in layout.flowers])
    assert garden_violations(bedded, catalog) == []
    assert len(bedded.flowers) == 1 and len(set(reds) - set(bedded.visible_seedlings)) == 4
    rose = tuple(catalog.flowers["A13-garden-rose"].scoring.params["colours"])
    assert rainbow_sets(bedded, rose) == 5
    assert score(bedded).flowers["A13-garden-rose"] == 72


def test_a_solve_out_of_time_builds_no_model_and_answers_a_legal_garden(monkeypatch):
    """Building the board's model ignored the deadline (~1.5-4 s at the service's caps, past deadlines of 0.6-3 s,
    holding a solve slot: the fuzzing of 7 Dec). Now no layer of a model is built once the call's time is spent:
    the answer is the plain garden, "feasible", rechecked; a stop between layers is OutOfTime. A deterministic
    limit never looks at the clock (its answers must not depend on the machine)."""
    import time

    from solver.core.solve import SolveControl
    from solver.games.gartenbau import model, optimiser
    from solver.games.gartenbau.data import load_catalog

    layers = []
    real = model._Builder.seedling_layer
    monkeypatch.setattr(model._Builder, "seedling_layer", lambda self: layers.append(self.n) or real(self))
    holding = {"starter": {"id": "ST2", "side": "b"}, "seedlings": ["S05", "S41", "S06", "S42"],
               "plants": ["P-green-1", "P-purple-1"], "flowers": ["A02a-carnation"], "tokens": {"flower_pot": True}}
    out = api.solve_optimal(holding, control=SolveControl(time_limit_s=10, ends_at=time.monotonic()))
    assert layers == [] and out["status"] == "feasible" and api.validate(out["garden"])["legal"]
    assert out["prestige"] == api.score(out["garden"])["total"]
    assert sorted(t["id"] for t in out["garden"]["seedlings"]) == sorted(holding["seedlings"])
    clock = api.solve_optimal(holding, control=SolveControl(time_limit_s=10, ends_at=time.monotonic(),
                                                            deterministic_limit=5))
    assert layers and clock["status"] == "optimal"
    calls = iter([False, False, True])
    with pytest.raises(model.OutOfTime):
        optimiser.build_model(load_catalog(), 6, load_catalog().starter_tiles["ST2"].sides["b"], ["S05"], [], [],
                              stop=lambda: next(calls))


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
    # a known flower of another hand than the one being placed: no player holds both (the rules lawyer of 7 Dec)
    with pytest.raises(InputError, match="one preset Beginner hand or Advanced flowers") as err:
        api.hint(garden, "B-beetle-sweet-william", {"flowers": ["A12-fuchsia"]})
    assert err.value.field == "known.flowers[0]"


def test_following_a_hints_garden_keeps_its_prestige(monkeypatch):
    """Each option carries the garden reaching its prestige, in the garden's coordinates; sent back as the next
    hint's `follow`, its placement of the next tile is ranked, reaching at least that garden's prestige, even when
    the search alone finds less (here no search runs at all: the time is out). A player following the hints keeps
    the line (the puzzle walkthrough of 7 Dec: 24 promised, the game ended at 13)."""
    from solver.games.gartenbau import optimiser

    garden = {"starter": {"id": "ST1", "side": "a", "cells": [[0, 0], [0, 1]]},
              "tokens": {"flower_pot": False, "watering_can": False}}
    known = {"plants": ["P-red-1", "P-yellow-1"], "flowers": ["B-beetle-sweet-william"]}
    first = api.hint(garden, "S07", known, time_limit_s=30, top=1)["options"][0]
    assert first["prestige"] == 16 and api.score(first["garden"])["total"] == 16
    laid = dict(garden, seedlings=[{"id": "S07", "cells": first["placement"]["cells"]}])
    assert {t["id"]: t["cells"] for t in first["garden"]["seedlings"]}["S07"] == first["placement"]["cells"]
    # the next tile with no time for a search: only the followed line reaches anything
    monkeypatch.setattr(optimiser, "solve_optimal", lambda *a, **k: optimiser.Solution("unknown", 0, 0.0))
    rest = {"plants": ["P-yellow-1"], "flowers": ["B-beetle-sweet-william"]}
    options = api.hint(laid, "P-red-1", rest, time_limit_s=30, follow=first["garden"])["options"]
    top = options[0]
    assert top["prestige"] == 16 and top["garden"] == first["garden"]
    assert top["placement"] == {"id": "P-red-1", "cells": next(p["cells"] for p in first["garden"]["plants"]
                                                               if p["id"] == "P-red-1")}
    assert all(o["prestige"] is None for o in options[1:])
    with pytest.raises(InputError, match="follow: must hold the garden as it is"):
        api.hint(laid, "P-red-1", rest, follow=garden)  # (legal, but without the S07 laid)
    with pytest.raises(InputError, match="follow: may add only the tile P-red-1 and known tiles"):
        api.hint(laid, "P-red-1", {"plants": ["P-yellow-1"]}, follow=first["garden"])


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
    # the starter lies on row 0, and turning the garden over (row -> -row) keeps it: S07's 14 placements above it
    # mirror 14 below it (4 lie on row 0, each its own mirror image), and a mirror image is not searched again
    every = len(full) - 14
    counts = {}
    for top in (1, 2, 3, len(full) + 5):
        solves.clear()
        assert api.hint(garden, "S07", known, time_limit_s=30, top=top)["options"] == full[:top]
        assert solves and set(solves) == {16}
        counts[top] = len(solves)
    # top 1 stops early; top 3 waits for a third placement at 16, which does not exist: each mirror pair searched once
    assert counts[1] < every and counts[2] <= every and counts[3] == counts[len(full) + 5] == every, counts
    # a looser ceiling (still a bound) that no placement meets: every placement is solved, the same answer
    plan = optimiser.counting_plan
    monkeypatch.setattr(optimiser, "counting_plan", lambda *a: dataclasses.replace(plan(*a), bound=plan(*a).bound + 1))
    solves.clear()
    assert api.hint(garden, "S07", known, time_limit_s=30, top=2)["options"] == full[:2]
    assert len(solves) == every and set(solves) == {17}
    for bad in (0, -1, True, "2", 1001):
        with pytest.raises(InputError, match="top"):
            api.hint(garden, "S07", known, top=bad)


def test_hint_searches_each_mirror_image_once_and_turns_its_best_garden(monkeypatch):
    """Placements whose gardens are rotations or reflections of each other reach the same prestige (no Gartenbau
    rule has a direction): the later one is answered from the earlier, its best garden turned the same way and
    checked again. The answer is the one every placement searched alone gives; a turned garden that fails the
    check is searched instead."""
    from solver.core.solve import SolveControl
    from solver.games.gartenbau import optimiser
    from solver.games.gartenbau.data import load_catalog
    from solver.games.gartenbau.garden import garden_from_dict
    from solver.games.gartenbau.rules import garden_violations
    from solver.games.gartenbau.scoring import score

    cat = load_catalog()
    garden = garden_from_dict({"starter": {"id": "ST1", "side": "a", "cells": [[0, 0], [0, 1]]},
                               "tokens": {"flower_pot": False, "watering_can": False}}, cat)
    known = optimiser.Holding("ST1", "a", [], ["P-red-1", "P-yellow-1"], ["B-beetle-sweet-william"])
    searches = []
    inner = optimiser.solve_optimal
    monkeypatch.setattr(optimiser, "solve_optimal", lambda *a, **k: searches.append(1) or inner(*a, **k))

    def answers(options):
        return [(o.placement, o.status, o.prestige, o.bound) for o in options]

    turned = optimiser.hint(garden, cat, "S07", known, SolveControl(time_limit_s=30))
    assert len(turned) == 32 and len(searches) == 18  # 14 placements mirror others (the test above)
    for o in turned:
        assert not garden_violations(o.garden, cat) and score(o.garden).total == o.prestige
        # the best garden holds the placement: S07 where the placement puts it, next to the starter
        (r0, c0), s07 = o.garden.tiles[0].cells[0], next(t for t in o.garden.tiles if t.id == "S07")
        assert [[r - r0, c - c0] for r, c in s07.cells] == o.placement["cells"]
    real = optimiser._twins
    monkeypatch.setattr(optimiser, "_twins", lambda gardens: [None] * len(gardens))
    searches.clear()
    assert answers(optimiser.hint(garden, cat, "S07", known, SolveControl(time_limit_s=30))) == answers(turned)
    assert len(searches) == 32
    # each twin told the wrong turn (none at all): its turned garden misses its placement, so it is searched
    monkeypatch.setattr(optimiser, "_twins", lambda gardens: [t and (t[0], lambda c: c) for t in real(gardens)])
    searches.clear()
    assert answers(optimiser.hint(garden, cat, "S07", known, SolveControl(time_limit_s=30))) == answers(turned)
    assert len(searches) == 32


def test_a_hint_out_of_time_answers_every_placement_unknown_below_the_ceiling(monkeypatch):
    """A gRPC deadline reaches the engine as the control's `ends_at`: once it has passed, no placement is searched
    (each search would build a model first); each is "unknown", bounded by the holding's counting ceiling. Before
    7 Dec every placement still got at least 0.2 s, and a 5 s deadline ended in DEADLINE_EXCEEDED."""
    import time as clock

    from solver.core.solve import SolveControl
    from solver.games.gartenbau import optimiser

    garden = {"starter": {"id": "ST1", "side": "a", "cells": [[0, 0], [0, 1]]},
              "tokens": {"flower_pot": False, "watering_can": False}}
    known = {"plants": ["P-red-1", "P-yellow-1"], "flowers": ["B-beetle-sweet-william"]}
    searches = []
    inner = optimiser.solve_optimal
    monkeypatch.setattr(optimiser, "solve_optimal", lambda *a, **k: searches.append(1) or inner(*a, **k))
    late = SolveControl(time_limit_s=30, ends_at=clock.monotonic())
    options = api.hint(garden, "S07", known, control=late)["options"]
    assert len(options) == 32 and not searches
    # the bound is the counting ceiling (16) when its own small search finished in the no time left, else none
    [answer] = {(o["status"], o["prestige"], o["bound"]) for o in options}
    assert answer in {("unknown", None, 16), ("unknown", None, None)}
    # a deterministic control never looks at the clock: every placement searched, the same answer as ever
    steady = SolveControl(time_limit_s=30, deterministic_limit=5, ends_at=clock.monotonic())
    assert {o["status"] for o in api.hint(garden, "S07", known, control=steady)["options"]} == {"optimal"}


def test_twins_are_the_rotations_and_reflections_of_a_garden():
    from solver.games.gartenbau import optimiser
    from solver.games.gartenbau.data import load_catalog
    from solver.games.gartenbau.garden import garden_from_dict
    from solver.games.gartenbau.rules import garden_violations

    cat = load_catalog()
    g = garden_from_dict(GARDEN, cat)
    # GARDEN turned a quarter clockwise, (row, col) -> (col, -row), and GARDEN mirrored left to right and moved
    quarter = {"starter": {"id": "ST1", "side": "a", "cells": [[0, 0], [1, 0]]},
               "seedlings": [{"id": "S07", "cells": [[0, -1], [1, -1]]}],
               "plants": [{"id": "P-red-1", "cells": [[0, 0], [0, -1]]},
                          {"id": "P-yellow-1", "cells": [[1, 0], [1, -1]]}],
               "flowers": [{"id": "B-beetle-sweet-william", "at": [0, -1]}], "tokens": GARDEN["tokens"]}
    mirrored = {"starter": {"id": "ST1", "side": "a", "cells": [[5, 9], [5, 8]]},
                "seedlings": [{"id": "S07", "cells": [[6, 9], [6, 8]]}],
                "plants": [{"id": "P-red-1", "cells": [[5, 9], [6, 9]]},
                           {"id": "P-yellow-1", "cells": [[5, 8], [6, 8]]}],
                "flowers": [{"id": "B-beetle-sweet-william", "at": [5, 8]}], "tokens": GARDEN["tokens"]}
    assert api.validate(quarter)["legal"] and api.validate(mirrored)["legal"]
    gardens = [g, garden_from_dict(quarter, cat), garden_from_dict(dict(GARDEN, flowers=[]), cat),
               garden_from_dict(mirrored, cat), g]
    twins = optimiser._twins(gardens)
    assert [t and t[0] for t in twins] == [None, 0, None, 0, 0]
    for j in (1, 3, 4):
        image = optimiser._mapped(g, twins[j][1])
        assert optimiser._layout(image) == optimiser._layout(optimiser._mapped(gardens[j], lambda c: c))
        assert not garden_violations(image, cat)


def test_a_top_hint_without_a_ceiling_shares_the_time_over_every_placement(monkeypatch):
    """With `top` the time went to the first `top` placements in tie-break order, expecting them to meet the
    holding's counting ceiling and stop the search. A holding with a flower the ceiling cannot count (Carnation)
    has no ceiling, so nothing stopped it: the first placement took a --top 1 hint's whole time and was returned as
    the best (27, where another placement reached 29: the bot walkthrough of 7 Dec). Now every placement gets an
    equal share, as without `top`; with a ceiling the first `top` still get the time."""
    from solver.core.solve import SolveControl
    from solver.games.gartenbau import optimiser

    garden = {"starter": {"id": "ST1", "side": "a", "cells": [[0, 0], [0, 1]]},
              "tokens": {"flower_pot": False, "watering_can": False}}
    shares = []

    def record(holding, catalog, control, **kw):
        shares.append(kw["time_limit_s"])
        return optimiser.Solution("unknown", kw["board"], 0.0, bound=kw["ceiling"])
    monkeypatch.setattr(optimiser, "solve_optimal", record)
    for flowers, ceiling in ((["A02a-carnation"], None), (["B-beetle-sweet-william"], 16)):
        shares.clear()
        known = {"plants": ["P-red-1", "P-yellow-1"], "flowers": flowers}
        options = api.hint(garden, "S07", known, top=1, control=SolveControl(time_limit_s=8))["options"]
        assert len(options) == 1 and options[0]["bound"] == ceiling and len(shares) > 10
        if ceiling is None:
            assert shares[0] < 8 / 10  # an equal part: ~8 / 18 searched placements (twins are not searched)
        else:
            assert shares[0] > 7  # the first of top 1 gets the time: it is expected to meet the ceiling


def test_one_players_flowers_are_refused_once_each_and_beside_the_other_rules():
    """The QA walkthrough of 7 Dec: a hint named known.flowers[1] twice (the holding check and the hint's own), the
    refusal blamed the flowers that agree rather than the odd one out, and Validate hid every other broken rule
    behind `hand`."""
    garden = {"starter": {"id": "ST1", "side": "a", "cells": [[0, 0], [0, 1]]}}
    with pytest.raises(InputError) as err:
        api.hint(garden, "S07", {"flowers": ["B-beetle-datura", "A04-calla-lily"]})
    errors = getattr(err.value, "errors", [err.value])
    assert [e.field for e in errors] == ["known.flowers[1]"]
    with pytest.raises(InputError) as err:  # three of the beetle hand and one Advanced: the Advanced one is odd
        api.solve_optimal({"starter": {"id": "ST1", "side": "a"}, "flowers": [
            "A04-calla-lily", "B-beetle-datura", "B-beetle-sweet-william", "B-beetle-red-lily"]}, time_limit_s=5)
    assert [e.field for e in getattr(err.value, "errors", [err.value])] == ["holding.flowers[0]"]
    mixed = dict(garden, plants=[{"id": "P-red-1", "cells": [[0, 0], [0, 1]]}],
                 flowers=[{"id": "B-beetle-sweet-william", "at": [5, 5]}, {"id": "B-moth-datura", "at": [7, 7]}])
    rules = [v["rule"] for v in api.validate(mixed)["violations"]]
    assert "hand" in rules and len(set(rules)) > 1, rules


def test_a_hints_flowers_to_come_follow_the_gardens_own():
    """The garden's flowers set the player's kind, however many flowers to come are of another (a majority of
    known flowers outvoted the garden's one flower, and nothing was refused)."""
    g = {"starter": {"id": "ST1", "side": "a", "cells": [[0, 0], [0, 1]]},
         "seedlings": [{"id": "S07", "cells": [[1, 0], [1, 1]]}],
         "plants": [{"id": "P-red-1", "cells": [[0, 0], [1, 0]]}, {"id": "P-yellow-1", "cells": [[0, 1], [1, 1]]}],
         "flowers": [{"id": "B-beetle-sweet-william", "at": [0, 0]}]}
    assert api.validate(g)["legal"]
    with pytest.raises(InputError) as err:
        api.hint(g, "S01", {"flowers": ["A04-calla-lily", "A06-datura"]})
    assert sorted(e.field for e in getattr(err.value, "errors", [err.value])) == ["known.flowers[0]",
                                                                                 "known.flowers[1]"]
    with pytest.raises(InputError) as err:
        api.hint(g, "A04-calla-lily", {})
    assert err.value.field == "tile"


def test_a_hint_holds_at_most_eight_flowers_with_the_new_tile_and_the_gardens():
    """The QA walkthrough of 7 Dec: the cap of 8 flowers held (the 2-player draft) counted the garden's flowers and
    those to come but not the new tile, so a hint could hold 9."""
    g = {"starter": {"id": "ST1", "side": "a", "cells": [[0, 0], [0, 1]]},
         "seedlings": [{"id": "S07", "cells": [[1, 0], [1, 1]]}],
         "plants": [{"id": "P-red-1", "cells": [[0, 0], [1, 0]]}, {"id": "P-yellow-1", "cells": [[0, 1], [1, 1]]}],
         "flowers": [{"id": "A04-calla-lily", "at": [0, 0]}]}
    assert api.validate(g)["legal"]
    advanced = ["A03-datura", "A01-calla-lily", "A05a-cornflower", "A06-datura", "A07-rhododendron",
                "A09-forget-me-not", "A10-rhododendron"]
    with pytest.raises(InputError) as err:  # 1 laid + the new flower + 7 to come
        api.hint(g, "A12-fuchsia", {"flowers": advanced})
    assert [e.field for e in getattr(err.value, "errors", [err.value])] == ["known.flowers"]
    assert [e.value for e in getattr(err.value, "errors", [err.value])] == [9]
    with pytest.raises(InputError) as err:  # a seedling tile is no flower: 1 + 7 is within the cap; a bad margin
        api.hint(g, "S01", {"flowers": advanced}, margin=99)
    assert [e.field for e in getattr(err.value, "errors", [err.value])] == ["margin"]
    with pytest.raises(InputError) as err:  # a holding of 9
        api.solve_optimal({"starter": {"id": "ST1", "side": "a"}, "flowers": advanced + ["A12-fuchsia", "A15-fuchsia"]},
                          time_limit_s=5)
    assert [e.field for e in getattr(err.value, "errors", [err.value])] == ["holding.flowers"]
