"""Horticulture daily: the day's setup and nursery are reproducible, the optimum proven and checked by the pure scorer."""
from __future__ import annotations

import random

import pytest

from generators import daily, horticulture
from generators.identity import parse_id, seed_of
from solver.errors import InputError
from solver.games.horticulture import api
from tests.generators.dailies import generated

PID = "horticulture/nursery/easy/2027-01-01"


@pytest.fixture(scope="module")
def puzzle():
    return generated(PID)


def test_the_draw_is_a_function_of_the_id_and_legal(puzzle):
    assert puzzle.generator_version == "horticulture-1"
    setup = puzzle.public["setup"]
    assert len(setup["nursery"]) == horticulture.CARDS["easy"] == len(set(setup["nursery"]))
    rng = random.Random(seed_of(parse_id(PID), "horticulture-1"))
    draws = [horticulture.draw("easy", rng) for _ in range(puzzle.public["attempts"])]
    assert draws[-1] == setup
    assert api.validate_path({"side": setup["side"], "path": setup["path"]})["legal"]


def test_random_paths_are_legal():
    for seed in range(20):
        setup = horticulture.draw("easy", random.Random(seed))
        assert api.validate_path({"side": setup["side"], "path": setup["path"]})["legal"], setup


def test_stored_optimum_is_the_scorers_and_accepted(puzzle):
    game = puzzle.answer["garden"]
    assert api.score(game)["total"] == puzzle.answer["score"]
    assert daily.check_answer(puzzle, {"days": game["days"]}) == {
        "correct": True, "legal": True, "score": puzzle.answer["score"], "optimum": puzzle.answer["score"],
        "violations": []}
    assert daily.problems(puzzle) == []


def test_unfinished_illegal_and_foreign_games(puzzle):
    days = puzzle.answer["garden"]["days"]
    part = daily.check_answer(puzzle, {"days": days[:2]})
    assert not part["correct"] and part["complete"] is False and part["score"] <= part["optimum"]
    planted = [p for p in days[0]["plants"] if p["at"] != "window"]
    if planted:
        twice = [dict(days[0], plants=[dict(p, at=planted[0]["at"]) for p in days[0]["plants"]]), *days[1:]]
        doubled = daily.check_answer(puzzle, {"days": twice})
        assert not doubled["correct"] and not doubled["legal"] and doubled["violations"]
    nursery = puzzle.public["setup"]["nursery"]
    other = next(c for c in nursery[2:] if c not in nursery[:2])
    with pytest.raises(InputError) as err:
        daily.check_answer(puzzle, {"days": [dict(days[0], chosen=other), *days[1:]]})
    assert err.value.field == "horticulture_game.days[0].chosen"
    with pytest.raises(InputError):
        daily.check_answer(puzzle, {"plants": []})
