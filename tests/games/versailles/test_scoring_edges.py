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
    assert small_token_winners(areas, majorities, second_places=True)["G"] is None
    areas["Ben"]["G"] = 1
    assert small_token_winners(areas, majorities, second_places=True)["G"] == "Ben"
    alone = {"Ann": {t: 0 for t in types}}
    assert small_token_winners(alone, Majorities(CAT), second_places=True)["C"] is None

