"""Horticulture daily: the day's setup and nursery are reproducible, the optimum proven and checked by the pure scorer."""
from __future__ import annotations

import random

import pytest

from generators import daily, horticulture
from generators.identity import parse_id, seed_of
from solver.errors import InputError
from solver.core.solve import SolveControl
from solver.games.horticulture import api
from solver.games.horticulture.bounds import counting_bound
from solver.games.horticulture.data import default_catalog
from solver.games.horticulture.garden import PathDrawing, Plan
from solver.games.horticulture.model import DaySpec
from tests.generators.dailies import generated

PID = "horticulture/nursery/easy/2027-01-01"
HARD = "horticulture/nursery/hard/2027-01-01"


@pytest.fixture(scope="module")
def puzzle():
    return generated(PID)


def test_the_draw_is_a_function_of_the_id_and_legal(puzzle):
    assert puzzle.generator_version == "horticulture-2"
    setup = puzzle.public["setup"]
    assert len(setup["nursery"]) == horticulture.CARDS["easy"] == len(set(setup["nursery"]))
    rng = random.Random(seed_of(parse_id(PID), "horticulture-2"))
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


@pytest.fixture(scope="module")
def hard():
    return generated(HARD)


def _bound(setup: dict) -> int:
    nursery = setup["nursery"]
    plan = Plan(setup["plan"]["border"], setup["plan"]["path"], tuple(setup["plan"]["companions"]))
    return counting_bound(default_catalog(), setup["side"], PathDrawing(setup["path"]["start"], setup["path"]["moves"]),
                          [DaySpec((nursery[i], nursery[i + 1])) for i in range(0, len(nursery), 2)],
                          tuple(setup["gnome"]), plan)


def test_a_built_day_is_a_whole_solo_game_with_a_perfect_game(hard):
    setup = hard.public["setup"]
    nursery = setup["nursery"]
    assert len(nursery) == horticulture.CARDS["hard"] == 32 == len(set(nursery))
    assert api.validate_path({"side": setup["side"], "path": setup["path"]})["legal"]
    game = hard.answer["garden"]
    verdict = api.validate({**{k: setup[k] for k in ("side", "path", "gnome", "plan", "nursery")}, "days": game["days"]})
    assert verdict["legal"], verdict
    # the stored optimum is the pure score of the built game and equals the counting bound,
    # which no game with this setup and nursery can beat
    assert api.score(game)["total"] == hard.answer["score"] == _bound(setup)
    assert daily.check_answer(hard, {"days": game["days"]})["correct"]
    assert daily.problems(hard) == []


@pytest.mark.parametrize("seed", range(5))
def test_built_days_reach_their_bound_and_are_a_function_of_the_seed(seed):
    one = horticulture.generate("hard", random.Random(seed))
    assert one == horticulture.generate("hard", random.Random(seed))
    setup = one["public"]["setup"]
    assert one["answer"]["score"] == _bound(setup) == api.score(one["answer"]["garden"])["total"]
    # the perfect game's days: one of the day's two cards, no wild cards in the nursery
    cat = default_catalog()
    assert all(cat.wild not in cat.card(c).plants for c in setup["nursery"])
    for d, day in enumerate(one["answer"]["garden"]["days"]):
        assert day["chosen"] in setup["nursery"][2 * d:2 * d + 2]


def test_the_optimiser_never_beats_a_built_day(hard):
    """The other face: CP-SAT, searching the built day's whole game, scores at most the stored
    optimum, and reports a bound no lower than what it found."""
    setup = hard.public["setup"]
    control = SolveControl(time_limit_s=120, deterministic_limit=2.0, num_workers=1, random_seed=0)
    result = api.solve_optimal(dict(setup), control=control)
    assert result["score"] is not None and result["score"] <= hard.answer["score"]
    verdict = daily.check_answer(hard, {"days": result["days"]})
    assert verdict["legal"] and verdict["score"] == result["score"]
