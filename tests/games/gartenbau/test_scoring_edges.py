"""Scoring rules at their edges, found by mutating the pure scorer (1 Dec): each test failed on a
mutant that the other scoring, claims and model tests let through."""
from __future__ import annotations

from solver.games.gartenbau import scoring

from .helpers import garden


def test_the_largest_rectangle_may_stand_in_the_last_two_columns():
    # a 2 x 4 block at the right (8) beats the bottom row (6)
    g = garden("""
    ....rr
    ....rr
    ....rr
    rrrrrr
    """)
    assert scoring.largest_rectangle(g) == 8


def test_the_largest_rectangle_may_be_one_space_wide():
    assert scoring.largest_rectangle(garden("r\nr\nr\nr")) == 4
    assert scoring.largest_rectangle(garden("rr\nr.\nr.\nr.\nr.")) == 5
