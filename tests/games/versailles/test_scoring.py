"""Contiguous areas with Jokers and Construction Sites, token ties, tie-breaks, against hand counts."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from solver.games.versailles.data import default_catalog
from solver.games.versailles.game import play
from solver.games.versailles.rules import Placement, build_garden
from solver.games.versailles.scoring import area_points, components, largest_areas, winners

from .helpers import catalog_with

CAT = default_catalog()


def test_joker_counts_in_three_types_at_once_as_in_the_rulebook():
    cat = catalog_with({1: ("YY", "YJ"), 2: ("GG", "GG"), 3: ("YW", "YW"), 4: ("GB", "WB")})
    g = build_garden(cat.tiles, [Placement(1, 0, 0), Placement(2, 2, 0), Placement(3, 0, 2), Placement(4, 2, 2)])
    areas = largest_areas(g.fields, cat)
    # Yellow 6, Green 6 and White 4 all contain the one Joker; Red is the Joker alone
    assert areas == {"Y": 6, "G": 6, "W": 4, "B": 2, "R": 1, "C": 0}
    assert area_points(areas, cat, 2) == 12 and area_points(areas, cat, 3) == 16


def test_construction_sites_count_only_among_themselves():
    cat = catalog_with({1: ("CJ", "CC"), 2: ("CC", "GG")})
    g = build_garden(cat.tiles, [Placement(1, 0, 0), Placement(2, 2, 0)])
    # sites (0,0),(0,1),(1,1) form one area and (2,0),(3,0) another; the Joker at (1,0) touches
    # both but is no Construction Site (as one it would join them into 6)
    assert largest_areas(g.fields, cat)["C"] == 3
    assert components(g.fields, ("C",)) and sorted(len(c) for c in components(g.fields, ("C",))) == [2, 3]
    assert largest_areas(g.fields, cat)["G"] == 2


def test_ties_for_second_place_and_for_the_construction_site_award_nothing():
    cat = catalog_with({1: ("GG", "GG"), 2: ("GG", "BB"), 3: ("GG", "RR"),
                        4: ("CC", "BB"), 5: ("CC", "WW"), 6: ("RR", "RR")})
    rec = {"players": ["Ann", "Ben", "Cid"], "stages": [
        {"rounds": [{"placements": [{"player": "Ann", "tile": 1, "x": 0, "y": 0},
                                    {"player": "Ben", "tile": 2, "x": 0, "y": 0},
                                    {"player": "Cid", "tile": 3, "x": 0, "y": 0}]}]},
        {"rounds": [{"placements": [{"player": "Ann", "tile": 4, "x": 0, "y": 2},
                                    {"player": "Ben", "tile": 5, "x": 0, "y": 2},
                                    {"player": "Cid", "tile": 6, "x": 0, "y": 2}]}]},
    ]}
    result = play(rec, cat)
    assert result.holders["G"] == "Ann" and result.holders["R"] == "Cid"  # Cid's Red reaches 4 in stage 2
    # Green: Ben 2 and Cid 2 tie behind Ann; sites: Ann 2 and Ben 2 tie
    assert result.small_tokens["G"] is None and result.small_tokens["C"] is None
    # Red second place: Ann 0, Ben 0 -> nobody; Blue has no large token holder -> nobody
    assert result.small_tokens["R"] is None and result.small_tokens["B"] is None
    ann = result.players["Ann"]
    assert ann.intermediate.total == 4 + 0 + 3 and ann.final.total == 4 + 2 + 0 + 5


def test_winner_tie_break_by_largest_single_area_then_shared():
    assert winners({"a": 50, "b": 50, "c": 40}, {"a": 9, "b": 11, "c": 20}) == ["b"]
    assert winners({"a": 50, "b": 50, "c": 40}, {"a": 11, "b": 11, "c": 20}) == ["a", "b"]


def _union_find_largest(fields, counts):
    parent = {c: c for c, code in fields.items() if code in counts}

    def find(c):
        while parent[c] != c:
            parent[c] = parent[parent[c]]
            c = parent[c]
        return c
    for (x, y) in list(parent):
        for n in ((x + 1, y), (x, y + 1)):
            if n in parent:
                parent[find(n)] = find((x, y))
    sizes: dict = {}
    for c in parent:
        sizes[find(c)] = sizes.get(find(c), 0) + 1
    return max(sizes.values(), default=0)


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.tuples(st.integers(0, 5), st.integers(0, 5)), st.sampled_from("GBWRYJC"), max_size=36))
def test_largest_areas_match_a_union_find_count(fields):
    areas = largest_areas(fields, CAT)
    for t in CAT.garden_types:
        assert areas[t] == _union_find_largest(fields, {t, "J"})
    assert areas["C"] == _union_find_largest(fields, {"C"})
