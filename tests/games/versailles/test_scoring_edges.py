"""Scoring rules at their edges, found by mutating the pure scorer (1 Dec): each test failed on a
mutant that the other scoring tests let through."""
from __future__ import annotations

from solver.games.versailles.data import default_catalog
from solver.games.versailles.scoring import Majorities, small_token_winners

CAT = default_catalog()


def test_no_small_token_for_an_area_of_nothing():
    """Second place with second places on (2 players when the setup has no Ludwig seat, or a
    replaced data file): the only contender has no field of the type, so nobody gets the token;
    and nobody gets the Construction Site token for sites of size 0."""
    types = list(CAT.field_types)
    areas = {"Ann": {t: 0 for t in types}, "Ben": {t: 0 for t in types}}
    areas["Ann"]["G"] = 5
    majorities = Majorities(CAT)
    majorities.after_placement("Ann", areas)
    assert majorities.holders["G"] == "Ann"
    assert small_token_winners(areas, majorities, small_tokens=True)["G"] is None
    areas["Ben"]["G"] = 1
    assert small_token_winners(areas, majorities, small_tokens=True)["G"] == "Ben"
    alone = {"Ann": {t: 0 for t in types}}
    assert small_token_winners(alone, Majorities(CAT), small_tokens=True)["C"] is None



def test_a_diagonal_pair_joins_only_through_an_area_both_cells_touch():
    """joined_size (the greedy's, the beam's and the hint's candidate score): the two cells of a
    diagonal pair are one area only when both touch a common area; when only one touches it, the
    other stays alone."""
    from solver.games.versailles.scoring import joined_size

    pair = ((0,), (3,))
    assert joined_size(pair, [set(), {7}], {7: 5}) == 6
    assert joined_size(pair, [{7}, set()], {7: 5}) == 6
    assert joined_size(pair, [{7}, {7}], {7: 5}) == 7
    assert joined_size(pair, [{7}, {8}], {7: 5, 8: 2}) == 6
    assert joined_size(pair, [{7, 8}, {8}], {7: 5, 8: 2}) == 9
