"""Placement legality (overlap, edge contact, diagonal, staggered, holes), rotation and tile distribution."""
from __future__ import annotations

import pytest

from solver.games.versailles.data import Tile
from solver.games.versailles.rules import (
    Garden, IllegalPlacement, Placement, distribute, legal_placements, parse_placement, refusal,
)

T = {i: Tile(i, ("G", "B", "W", "R")) for i in range(1, 10)}  # rows "GB" / "WR"


def garden(*placements: Placement) -> Garden:
    g = Garden()
    for p in placements:
        g.place(T[p.tile], p)
    return g


def test_first_tile_goes_anywhere():
    assert refusal({}, Placement(1, -7, 12)) is None


@pytest.mark.parametrize("x, y, ok", [
    (2, 0, True),    # side by side
    (2, 1, True),    # staggered by one field: still shares an edge
    (0, 2, True),    # below
    (1, 2, True),    # below, staggered
    (2, 2, False),   # corner to corner only
    (-2, -2, False),  # corner to corner only
    (3, 0, False),   # a gap of one field
    (1, 1, False),   # overlap
])
def test_second_tile_must_share_an_edge(x, y, ok):
    g = garden(Placement(1, 0, 0))
    assert (refusal(g.fields, Placement(2, x, y)) is None) is ok


def test_refusals_say_why():
    g = garden(Placement(1, 0, 0))
    assert "overlaps the garden at field(s) (1, 1)" in refusal(g.fields, Placement(2, 1, 1))
    assert "only diagonally" in refusal(g.fields, Placement(2, 2, 2))
    assert "does not touch" in refusal(g.fields, Placement(2, 3, 0))
    with pytest.raises(IllegalPlacement, match="already in this garden"):
        g.place(T[1], Placement(1, 2, 0))


def test_holes_are_allowed():
    # a ring of 2x2 tiles around an empty 2x2 hole
    ring = [(0, 0), (2, 0), (4, 0), (4, 2), (4, 4), (2, 4), (0, 4), (0, 2)]
    g = garden(*(Placement(i + 1, x, y) for i, (x, y) in enumerate(ring)))
    assert (2, 2) not in g.fields and (3, 3) not in g.fields and len(g.fields) == 32


def test_rotation_turns_the_tile_clockwise():
    tile = Tile(1, ("G", "B", "W", "R"))  # G B / W R
    assert tile.oriented(1) == ("W", "G", "R", "B")  # W G / R B
    assert tile.oriented(2) == ("R", "W", "B", "G")
    assert tile.oriented(4) == tile.fields


def test_legal_placements_around_one_tile():
    g = garden(Placement(1, 0, 0))
    anchors = {(p.x, p.y) for p in legal_placements(g.fields, T[2])}
    # each side offers 3 anchors (flush or staggered by one either way): 4 sides x 3
    assert len(anchors) == 12 and (2, 1) in anchors and (2, 2) not in anchors
    assert all(refusal(g.fields, p) is None for p in legal_placements(g.fields, T[2]))


def test_distribution_follows_the_rulebook_example():
    # Sophie 18, Alexander 7, Christian 21, Oliver 54: Alexander takes the first tile, Oliver the last
    got = distribute({"Sophie": 18, "Alexander": 7, "Christian": 21, "Oliver": 54}, [101, 102, 103, 104])
    assert got == [("Alexander", 101), ("Sophie", 102), ("Christian", 103), ("Oliver", 104)]
    with pytest.raises(ValueError, match="played twice"):
        distribute({"a": 3, "b": 3}, [1, 2])


@pytest.mark.parametrize("raw, message", [
    ({"x": 0, "y": 0}, r"missing field 'tile'"),
    ({"tile": 1, "x": 10_001}, r"placement\.x: must lie within \+-10000"),
    ({"tile": 1, "x": 0, "y": "2"}, r"placement\.y: expected an integer"),
    ({"tile": 1, "x": 0, "y": 0, "rotation": 4}, r"placement\.rotation: must be 0, 1, 2 or 3"),
    ({"tile": True, "x": 0, "y": 0}, r"placement\.tile: expected an integer"),
    ([1, 0, 0], r"placement: expected an object"),
])
def test_bad_placements_are_refused_naming_the_field(raw, message):
    with pytest.raises(ValueError, match=message):
        parse_placement(raw)


def test_a_missing_x_y_or_rotation_is_zero_as_in_proto3_json():
    """proto3's JSON mapping (MessageToDict, Go's protojson) leaves zero fields out: a placement at x = 0 arrives
    without "x". It was refused ("missing field 'y'"), so a garden the service had answered could not be sent back
    in a Struct (CheckAnswer), the client walkthrough of 7 Dec."""
    assert parse_placement({"tile": 4}) == Placement(4, 0, 0, 0)
    assert parse_placement({"tile": 4, "y": 2}) == Placement(4, 0, 2, 0)
