"""The rulebook's Sophie / Alexander / Oliver example, rebuilt with hand-made tiles and replayed in full."""
from __future__ import annotations

import pytest

from solver.games.versailles.game import play

from .helpers import catalog_with

# Garden sketches (x to the right, y down). Every tile sits on a 2-field grid here for easy counting.
SOPHIE = {  # tile id: (rows, x, y)
    1: (("YY", "YG"), 0, 0), 2: (("WW", "WW"), 2, 0), 3: (("YY", "BB"), 0, 2), 4: (("YW", "BB"), 2, 2),
    5: (("WW", "WW"), 4, 0), 6: (("GB", "BB"), 4, 2), 7: (("BG", "GB"), 6, 0), 8: (("CC", "YY"), 8, 0),
}
ALEXANDER = {
    11: (("RR", "RR"), 0, 0), 12: (("RR", "GG"), 2, 0), 13: (("GG", "GG"), 0, 2), 14: (("GW", "WW"), 2, 2),
    15: (("WW", "WW"), 4, 2), 16: (("RR", "BB"), 4, 0), 17: (("WW", "WY"), 6, 2), 18: (("JC", "CC"), 8, 2),
}
OLIVER = {
    21: (("GB", "RW"), 0, 0), 22: (("RW", "GB"), 2, 0), 23: (("BR", "GW"), 0, 2), 24: (("WG", "RB"), 2, 2),
    25: (("YY", "YY"), 4, 0), 26: (("YB", "YR"), 6, 0), 27: (("GG", "RR"), 4, 2), 28: (("YY", "CB"), 8, 0),
}
CATALOG = catalog_with({t: rows for g in (SOPHIE, ALEXANDER, OLIVER) for t, (rows, _, _) in g.items()})

# Played cards per round of stage 1; in round 5 Alexander plays lowest and so places before Sophie.
CARDS = [
    {"Sophie": 11, "Alexander": 12, "Oliver": 13},
    {"Sophie": 21, "Alexander": 22, "Oliver": 23},
    {"Sophie": 31, "Alexander": 32, "Oliver": 33},
    {"Sophie": 41, "Alexander": 42, "Oliver": 43},
    {"Sophie": 15, "Alexander": 5, "Oliver": 25},
    {"Sophie": 16, "Alexander": 26, "Oliver": 36},
    {"Sophie": 17, "Alexander": 27, "Oliver": 37},
]


def _placements(r: int, players=("Sophie", "Alexander", "Oliver")) -> list[dict]:
    gardens = {"Sophie": SOPHIE, "Alexander": ALEXANDER, "Oliver": OLIVER}
    out = []
    for p in players:
        tile = sorted(gardens[p])[r]
        _, x, y = gardens[p][tile]
        out.append({"player": p, "tile": tile, "x": x, "y": y, "rotation": 0})
    return out


def record(stages: int = 2, players=("Sophie", "Alexander", "Oliver")) -> dict:
    stage1 = {"rounds": [{"cards": {p: CARDS[r][p] for p in players}, "placements": _placements(r, players)}
                         for r in range(7)]}
    stage2 = {"rounds": [{"cards": {p: 50 + i for i, p in enumerate(players)}, "placements": _placements(7, players)}]}
    return {"players": list(players), "stages": [stage1, stage2][:stages]}


def test_intermediate_scoring_of_the_rulebook_example():
    result = play(record(stages=1), CATALOG)
    sophie = result.players["Sophie"].intermediate
    # Sophie: White 9 and Blue 7 are her 2 largest areas (Yellow 6 does not count), tokens Blue+Yellow.
    assert sophie.areas_counted == [("W", 9), ("B", 7)]
    assert sorted(sophie.large_tokens) == ["B", "Y"]
    assert sophie.total == 9 + 7 + 2 * 3 == 22
    # Alexander took White with 10 fields; Oliver's Yellow 6 only ties Sophie's 6, so she keeps it.
    assert result.holders == {"G": "Alexander", "B": "Sophie", "W": "Alexander", "R": "Alexander", "Y": "Sophie"}
    assert result.players["Oliver"].areas["Y"] == 6 and result.players["Sophie"].areas["Y"] == 6
    alexander = result.players["Alexander"].intermediate
    assert alexander.areas_counted == [("W", 10), ("R", 8)]
    assert alexander.total == 10 + 8 + 3 * 3 == 27
    assert result.players["Oliver"].intermediate.total == 6 + 3 == 9
    assert result.complete is False


def test_majority_tokens_move_as_the_rulebook_says():
    result = play(record(stages=1), CATALOG)
    moves = [(t.stage, t.round, t.type, t.previous, t.to, t.size) for t in result.transfers]
    assert moves == [
        (1, 1, "R", None, "Alexander", 4),
        (1, 2, "W", None, "Sophie", 4),
        (1, 3, "Y", None, "Sophie", 5),  # "after placing tile #3, Sophie gets the Yellow token"
        (1, 3, "G", None, "Alexander", 4),
        (1, 4, "B", None, "Sophie", 4),
        (1, 5, "W", "Sophie", "Alexander", 7),  # 7 > Sophie's 5 at that moment
        (1, 5, "W", "Alexander", "Sophie", 9),  # and reclaimed in the same round
        (1, 7, "W", "Sophie", "Alexander", 10),
    ]


def test_final_scoring_with_small_tokens_and_construction_site():
    result = play(record(stages=2), CATALOG)
    # Alexander's Joker joins his White area (10 -> 11) but is no Construction Site (3 brown fields).
    assert result.players["Alexander"].areas["W"] == 11 and result.players["Alexander"].areas["C"] == 3
    assert result.small_tokens == {"G": "Oliver", "B": "Alexander", "W": "Sophie", "R": "Oliver",
                                   "Y": "Oliver", "C": "Alexander"}
    s, a, o = (result.players[p] for p in ("Sophie", "Alexander", "Oliver"))
    assert s.final.total == (9 + 7 + 6) + 2 * 5 + 3 == 35
    assert a.final.total == (11 + 8 + 7) + 3 * 5 + 2 * 3 == 47
    assert o.final.total == (6 + 3 + 2) + 3 * 3 == 20
    assert (s.total, a.total, o.total) == (22 + 35, 27 + 47, 9 + 20)
    assert result.winners == ["Alexander"]


def test_two_player_ludwig_variant_has_no_small_tokens():
    result = play(record(stages=2, players=("Sophie", "Alexander")), CATALOG)
    # "The Small Majority Tokens (worth 3 points) are not used in a 2-player game": no second places, and no
    # Construction Site award either, though Alexander's site (3) is larger than Sophie's (2)
    assert result.small_tokens == {"G": None, "B": None, "W": None, "R": None, "Y": None, "C": None}
    assert result.players["Alexander"].final.small_tokens == []
    s = result.players["Sophie"]
    assert s.final.total == (9 + 7 + 6) + 2 * 5


def test_illegal_placement_in_a_record_names_round_and_player():
    rec = record(stages=1)
    rec["stages"][0]["rounds"][1]["placements"][0]["x"] = 5  # Sophie's 2nd tile floats away
    with pytest.raises(ValueError, match=r"rounds\[1\]\.placements\[\d+\]: Sophie: .*does not touch"):
        play(rec, CATALOG)
