"""Whole-game records: tile distribution from the row, Ludwig, and refusals naming the bad field."""
from __future__ import annotations

import copy

import pytest

from solver.games.versailles.data import default_catalog
from solver.games.versailles.game import play

CAT = default_catalog()


def line(players, cards_by_round, rounds=7, y=0):
    """Each player lays tiles left to right in a row (always legal); tiles come from the row."""
    return [{"cards": cards_by_round[r],
             "placements": [{"player": p, "x": 2 * r, "y": y} for p in players]} for r in range(rounds)]


def test_row_and_cards_decide_who_takes_which_tile():
    players = ["Ann", "Ben", "Cid"]
    cards = [{"Ann": 30 + r, "Ben": 10 + r, "Cid": 20 + r} for r in range(7)]
    rec = {"players": players, "stages": [{"row": list(range(1, 22)), "rounds": line(players, cards)}]}
    result = play(rec, CAT)
    # lowest card (Ben) takes the first tile of each group of 3, Cid the second, Ann the third
    assert [p.tile for p in result.gardens["Ben"].placements] == [1, 4, 7, 10, 13, 16, 19]
    assert [p.tile for p in result.gardens["Cid"].placements] == [2, 5, 8, 11, 14, 17, 20]
    assert [p.tile for p in result.gardens["Ann"].placements] == [3, 6, 9, 12, 15, 18, 21]
    assert result.players["Ann"].final is None and result.complete is False


def test_two_players_play_with_ludwig_who_discards_his_tiles():
    players = ["Ann", "Ben"]
    cards = [{"Ann": 30 + r, "Ben": 10 + r, "Ludwig": 1 + r} for r in range(7)]
    stage1 = {"row": list(range(1, 22)), "rounds": line(players, cards)}
    stage2 = {"row": list(range(22, 43)), "rounds": line(players, cards, y=2)}
    result = play({"players": players, "stages": [stage1, stage2]}, CAT)
    assert [p.tile for p in result.gardens["Ben"].placements][:3] == [2, 5, 8]  # Ludwig took 1, 4, 7
    assert result.complete is True
    assert all(result.small_tokens[t] is None for t in CAT.garden_types)  # no second places with 2 players


def test_a_tile_ludwig_discarded_cannot_come_back_in_the_second_row():
    """Stage 2's row is laid "From the Garden Tiles returned to the box"; Ludwig's stage-1 tiles are discarded. A
    second row holding tile 1 (Ludwig's) was accepted and Ben placed it (the rules lawyer of 7 Dec)."""
    players = ["Ann", "Ben"]
    cards = [{"Ann": 30 + r, "Ben": 10 + r, "Ludwig": 1 + r} for r in range(7)]
    stage1 = {"row": list(range(1, 22)), "rounds": line(players, cards)}
    stage2 = {"row": [1] + list(range(23, 43)), "rounds": line(players, cards, y=2)}
    with pytest.raises(ValueError, match=r"stages\[1\]\.row\[0\]: tile 1 was in stage 1's row"):
        play({"players": players, "stages": [stage1, stage2]}, CAT)


def _base():
    players = ["Ann", "Ben", "Cid"]
    cards = [{"Ann": 30 + r, "Ben": 10 + r, "Cid": 20 + r} for r in range(7)]
    return {"players": players, "stages": [{"row": list(range(1, 22)), "rounds": line(players, cards)}]}


@pytest.mark.parametrize("change, message", [
    (lambda r: r.update(players=["Ann", "Ann", "Cid"]), r"players: names must be distinct"),
    (lambda r: r.update(players=["Ann"]), r"players: the game is for 2-5 players"),
    (lambda r: r["stages"][0]["rounds"][1]["cards"].update(Ann=10), r"rounds\[1\]\.cards\.Ann: card 10 was already played"),
    (lambda r: r["stages"][0]["rounds"][2]["cards"].update(Cid=56), r"rounds\[2\]\.cards\.Cid: expected a number card 1\.\.55"),
    (lambda r: r["stages"][0]["rounds"][0]["cards"].pop("Cid"), r"rounds\[0\]\.cards: no card for Cid"),
    (lambda r: r["stages"][0]["rounds"][0]["placements"][0].update(tile=1), r"Ann takes tile 3 by the cards, not tile 1"),
    (lambda r: r["stages"][0]["rounds"][0]["placements"].pop(), r"rounds\[0\]\.placements: no placement for Cid"),
    (lambda r: r["stages"][0]["rounds"][0]["placements"][0].update(player="Zoe"), r"placements\[0\]\.player: expected one of"),
    (lambda r: r["stages"][0].update(row=list(range(1, 21))), r"stages\[0\]\.row: expected a list of 21 tile ids"),
    (lambda r: r["stages"][0]["row"].__setitem__(4, 99), r"stages\[0\]\.row\[4\]: unknown tile id 99"),
    (lambda r: r["stages"][0]["rounds"].append(r["stages"][0]["rounds"][0]), r"rounds: expected a list of 1 to 7"),
    (lambda r: r["stages"][0]["rounds"][3]["placements"][1].update(x=99), r"rounds\[3\]\.placements\[1\]: Ben: .*does not touch"),
    (lambda r: r["stages"][0]["rounds"][0].pop("cards"), r"rounds\[0\]\.cards: a stage with a row needs the played cards"),
])
def test_bad_records_are_refused_naming_the_field(change, message):
    rec = copy.deepcopy(_base())
    change(rec)
    with pytest.raises(ValueError, match=message):
        play(rec, CAT)


def test_a_tile_cannot_be_taken_twice_across_stages():
    players = ["Ann", "Ben", "Cid"]
    cards = [{"Ann": 30 + r, "Ben": 10 + r, "Cid": 20 + r} for r in range(7)]
    rec = {"players": players, "stages": [{"row": list(range(1, 22)), "rounds": line(players, cards)},
                                          {"row": list(range(21, 42)), "rounds": line(players, cards)}]}
    with pytest.raises(ValueError, match=r"stages\[1\]\.row\[0\]: tile 21 was already used"):
        play(rec, CAT)
