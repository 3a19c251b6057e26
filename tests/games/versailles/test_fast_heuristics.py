"""The incremental areas against the pure scorer, and the fast greedy and beam search against their
first versions (tests/games/versailles/reference.py): the same gardens, points and random draws."""
from __future__ import annotations

import random

import pytest

from solver.games.versailles.beam import beam_garden, target_choices
from solver.games.versailles.data import default_catalog
from solver.games.versailles.heuristic import _anchors, greedy_garden
from solver.games.versailles.rules import border, footprint, legal_placements, placed_fields
from solver.games.versailles.scoring import IncrementalAreas, components, largest_area, largest_area_fields
from solver.games.versailles.solo import default_board

from .helpers import catalog_with
from .reference import beam_garden_plain, greedy_garden_plain

CAT = default_catalog()
TILE_IDS = sorted(CAT.tiles)
# hand-made tiles: Jokers (J), construction sites (C), diagonal pairs (a tile with two groups of a
# type, which join as one area when both touch a common one)
ODD = catalog_with({1: ("GB", "BG"), 2: ("GJ", "JB"), 3: ("GG", "GG"), 4: ("CG", "GC"), 5: ("JJ", "BB"),
                    6: ("BW", "WB"), 7: ("GB", "BG"), 8: ("RY", "YJ"), 9: ("BG", "GB"), 10: ("GW", "WG"),
                    11: ("JB", "BG"), 12: ("GG", "GB")})
# mostly G: large G areas that wrap around a tile, so both fields of a diagonal pair reach one area
HEAVY = catalog_with({1: ("GB", "BG"), 2: ("GG", "GG"), 3: ("GG", "GB"), 4: ("GJ", "GG"), 5: ("BG", "GB"),
                      6: ("JB", "BG"), 7: ("GG", "BB")})


def _random_gardens(catalog, seeds, n):
    """Random legal gardens grown one random legal placement at a time, every other garden
    compact (a placement touching the garden on most fields: tiles joining areas from several
    sides): lists of (tile, placement, fields before it)."""
    ids = sorted(catalog.tiles)
    for seed in seeds:
        rng = random.Random(seed)
        tiles = [catalog.tiles[i] for i in rng.choices(ids, k=n)]
        fields: dict = {}
        steps = []
        for tile in tiles:
            options = legal_placements(fields, tile)
            if seed % 2:
                contact = {p: sum(c in fields for c in border(p.x, p.y)) for p in options}
                options = [p for p in options if contact[p] == max(contact.values())]
            p = rng.choice(options)
            steps.append((tile, p, dict(fields)))
            fields.update(placed_fields(tile, p))
        yield steps


@pytest.mark.parametrize("catalog", [CAT, ODD], ids=["reference", "hand-made"])
def test_incremental_areas_are_the_pure_scorers_areas_on_random_legal_gardens(catalog):
    jokers = set(catalog.joker_types)
    for steps in _random_gardens(catalog, range(25), 16):
        areas = IncrementalAreas.for_catalog(catalog)
        fields: dict = {}
        for tile, p, before in steps:
            assert fields == before
            layout = tile.oriented(p.rotation)
            after = {**fields, **placed_fields(tile, p)}
            for t in catalog.garden_types:
                counts = {t, *jokers}
                # joined(): the largest area through the tile's counting cells, before adding it
                new = [c for c, code in zip(footprint(p.x, p.y), layout) if code in counts]
                expected = max((len(g) for g in components(after, counts) if g & set(new)), default=0)
                assert areas.joined(t, p.x, p.y, areas.mask(t, layout)) == expected
            areas.add(p.x, p.y, layout)
            fields = after
            for t in catalog.garden_types:
                groups = components(fields, {t, *jokers})
                # the same partition of the fields into areas, and the same largest size
                assert sorted(map(sorted, groups)) == sorted(sorted(m) for m in areas.members[t].values())
                assert all(areas.label[t][c] == areas.label[t][next(iter(g))] for g in groups for c in g)
                assert areas.largest[t] == max((len(g) for g in groups), default=0)
        again = IncrementalAreas.of_fields(fields, areas.counts)
        assert again.largest == areas.largest


def test_a_diagonal_pair_touching_one_area_joins_it_as_one():
    # G G G        the tile G B / B G at (0, 1): its two G fields touch the same area of 5,
    # G B G        one at (0, 0), one at (2, 2) via (1, 2)-(2, 2): one area of 7
    # B G G
    fields = {(0, 0): "G", (1, 0): "G", (2, 0): "G", (2, 1): "G", (2, 2): "G"}
    areas = IncrementalAreas.of_fields(fields, {"G": frozenset("GJ"), "B": frozenset("BJ")})
    layout = ("G", "B", "B", "G")
    assert areas.joined("G", 0, 1, areas.mask("G", layout)) == 7
    assert areas.joined("B", 0, 1, areas.mask("B", layout)) == 1
    areas.add(0, 1, layout)
    assert areas.largest == {"G": 7, "B": 1}
    assert sorted(len(m) for m in areas.members["B"].values()) == [1, 1]


def test_joined_agrees_with_the_pure_scorer_for_every_placement_of_a_diagonal_tile():
    jokers = set(HEAVY.joker_types)
    checked = merged = 0
    for steps in _random_gardens(HEAVY, range(6), 12):
        areas = IncrementalAreas.for_catalog(HEAVY)
        for tile, p, before in steps:
            if before:
                for probe in (HEAVY.tiles[1], HEAVY.tiles[6]):  # G B / B G and J B / B G
                    for q in legal_placements(before, probe):
                        layout = probe.oriented(q.rotation)
                        after = {**before, **placed_fields(probe, q)}
                        new = {c for c, code in zip(footprint(q.x, q.y), layout) if code in ("G", *jokers)}
                        groups = [g for g in components(after, {"G", *jokers}) if g & new]
                        assert areas.joined("G", q.x, q.y, areas.mask("G", layout)) == max(map(len, groups))
                        checked += 1
                        merged += len(groups) == 1
            areas.add(p.x, p.y, tile.oriented(p.rotation))
    assert checked > 1000 and merged > 20  # the pair joined as one area was met


def test_anchors_are_the_legal_placements():
    for steps in _random_gardens(CAT, range(10), 12):
        for tile, _, before in steps[1:]:
            expected = sorted({(p.x, p.y) for p in legal_placements(before, tile)}, key=lambda a: (a[1], a[0]))
            assert _anchors(before) == expected


@pytest.mark.parametrize("n,seed", [(3, 0), (7, 1), (9, 2), (14, 3), (14, 4)])
def test_the_greedy_gives_the_gardens_of_its_first_version(n, seed):
    tiles = [CAT.tiles[i] for i in random.Random(seed).sample(TILE_IDS, n)]
    for board in (None, default_board(n), 5):
        fast = greedy_garden(tiles, CAT, random.Random(seed), board, 3)
        assert fast == greedy_garden_plain(tiles, CAT, random.Random(seed), board, 3)
    rng_fast, rng_plain = random.Random(seed), random.Random(seed)
    greedy_garden(tiles, CAT, rng_fast, default_board(n), 2)
    greedy_garden_plain(tiles, CAT, rng_plain, default_board(n), 2)
    assert rng_fast.random() == rng_plain.random()  # the same random draws


def test_the_greedy_matches_on_hand_made_tiles():
    for seed in range(6):
        tiles = [ODD.tiles[i] for i in random.Random(seed).sample(sorted(ODD.tiles), 8)]
        assert greedy_garden(tiles, ODD, random.Random(seed), 8, 3) == greedy_garden_plain(
            tiles, ODD, random.Random(seed), 8, 3)


@pytest.mark.parametrize("n,seed", [(3, 0), (7, 1), (9, 2), (14, 3)])
def test_the_beam_gives_the_gardens_of_its_first_version(n, seed):
    tiles = [CAT.tiles[i] for i in random.Random(seed).sample(TILE_IDS, n)]
    plans = target_choices(tiles, CAT, 2)
    for board, width, per_parent in ((default_board(n), 8, 3), (None, 4, None), (6, 4, 1)):
        for plan in plans:
            fast = beam_garden(tiles, CAT, plan, width=width, board=board, per_parent=per_parent)
            assert fast == beam_garden_plain(tiles, CAT, plan, width=width, board=board, per_parent=per_parent)


def test_the_beam_matches_on_hand_made_tiles():
    for seed in range(4):
        tiles = [ODD.tiles[i] for i in random.Random(seed).sample(sorted(ODD.tiles), 7)]
        for plan in target_choices(tiles, ODD, 2):
            for room_weight in (0.2, 0.0):
                assert beam_garden(tiles, ODD, plan, width=6, board=8, room_weight=room_weight) == beam_garden_plain(
                    tiles, ODD, plan, width=6, board=8, room_weight=room_weight)


def test_largest_area_fields_is_a_largest_area_whatever_the_order_of_the_fields():
    jokers = set(CAT.joker_types)
    for steps in _random_gardens(CAT, range(12), 12):
        tile, p, before = steps[-1]
        fields = {**before, **placed_fields(tile, p)}
        shuffled = list(fields.items())
        random.Random(len(fields)).shuffle(shuffled)
        for t in CAT.garden_types:
            counts = {t, *jokers}
            area = largest_area_fields(fields, counts)
            assert (area in components(fields, counts)) if area else not components(fields, counts)
            assert len(area) == largest_area(fields, counts)
            assert largest_area_fields(dict(shuffled), counts) == area  # ties broken by the fields, not the order
    # two areas of 2: the one whose sorted fields come last
    assert largest_area_fields({(0, 0): "G", (1, 0): "G", (5, 5): "G", (5, 6): "G"}, {"G"}) == {(5, 5), (5, 6)}
    assert largest_area_fields({(0, 0): "B"}, {"G"}) == set()
