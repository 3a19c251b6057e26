"""A snapshot's plants must be reachable by some order of planting: `unreachable_plants` held against every
order tried through the pure planting rule, on small sheets; Score refuses what no order reaches."""
from __future__ import annotations

import itertools

import pytest

from solver.games.horticulture import api
from solver.games.horticulture.garden import Garden, PathDrawing
from solver.games.horticulture.rules import _draw, planting_refusal, unreachable_plants
from solver.games.horticulture.state import Planting, Setup, Sheet, parse_plan

from .helpers import T, samantha_request, tiny_catalog


def some_order_plants_all(garden: Garden, setup: Setup, cells: tuple, slots: int) -> bool:
    for order in itertools.permutations(cells):
        sheet = Sheet(setup)
        for cell in order:
            if planting_refusal(garden, sheet, Planting(T, cell), slots) is not None:
                break
            _draw(sheet, Planting(T, cell))
        else:
            return True
    return False


@pytest.mark.parametrize("columns, rows, start, moves, gnome", [
    (4, 2, 1, "DD", (0, 1)),
    (4, 2, 2, "DD", (0, 0)),
    (4, 3, 1, "DRD", (3, 2)),
])
def test_unreachable_plants_is_empty_exactly_when_some_order_plants_them_all(tmp_path, columns, rows, start, moves,
                                                                            gnome):
    cat = tiny_catalog(tmp_path, columns, rows)
    setup = Setup("T", PathDrawing(start, moves), gnome,
                  parse_plan({"border": "berry", "path": "turnip", "companions": ["topiary", "carrot"]}, cat))
    garden = Garden(cat.sheet("T"), setup.drawing)
    free = [c for c in garden.cells if c != gnome]
    checked = far = 0
    for k in range(1, 5):
        for cells in itertools.combinations(free, k):
            sheet = Sheet(setup, {c: T for c in cells}, [])
            expected = some_order_plants_all(garden, setup, cells, 6)
            assert (not unreachable_plants(garden, sheet)) == expected, cells
            checked += 1
            far += not expected
    assert checked > 20 and 0 < far < checked  # both answers occur


def test_score_refuses_a_snapshot_no_order_reaches_and_keeps_samanthas():
    base = {key: value for key, value in samantha_request().items() if key not in ("garden", "window_box")}
    with pytest.raises(ValueError, match=r"garden\[1\]\.at: square \(column 0, row 6\) is not joined"):
        api.score({**base, "garden": [{"plant": T, "at": [2, 6]}, {"plant": T, "at": [0, 6]}]})
    assert api.score(samantha_request())["total"] > 0  # the rulebook's sheet is reachable


def test_a_record_may_not_bring_a_card_home_twice():
    """Before: a record choosing card 4 on two days (or listing it among the cards flipped again) was legal;
    each card of the deck comes up once a game (flipped, then chosen or discarded)."""
    base = {key: value for key, value in samantha_request().items() if key not in ("garden", "window_box")}
    day = lambda row, cards=None: {"chosen": 4, **({"cards": cards} if cards else {}),  # noqa: E731
                                   "plants": [{"plant": T, "at": [2, row]}, {"plant": "carrot", "at": [2, row + 1]}]}
    once = api.validate({**base, "days": [day(0, [4, 7])]})
    assert once["legal"], once["violations"]
    twice = api.validate({**base, "days": [day(0), day(2)]})
    assert [v["where"] for v in twice["violations"]] == ["days[1].chosen"]
    assert "already flipped on day 0" in twice["violations"][0]["reason"]
    again = api.validate({**base, "days": [day(0, [4, 7]), {**day(2, [7, 9]), "chosen": 9,
                                                           "plants": [{"plant": p, "at": [2, 2 + i]} for i, p in
                                                                      enumerate(api._catalog(None).card(9).plants)]}]})
    assert [v["where"] for v in again["violations"]] == ["days[1].cards[0]"]
    with pytest.raises(ValueError, match="already flipped"):
        api.score({**base, "days": [day(0), day(2)]})
    # a repeat whose plants are wrong as well is refused for both (before 7 Dec the wrong plants hid the repeat)
    wrong = {**day(2), "plants": [{"plant": "berry", "at": [2, 2]}, {"plant": "carrot", "at": [2, 3]}]}
    both = api.validate({**base, "days": [day(0), wrong]})
    reasons = [v["reason"] for v in both["violations"] if v["where"] == "days[1].chosen"]
    assert len(reasons) == 2 and "(missing: topiary)" in reasons[0] and "already flipped on day 0" in reasons[1], reasons
