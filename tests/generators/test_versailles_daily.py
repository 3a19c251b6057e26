"""Versailles daily: the day's tiles are reproducible, the optimum proven and checked by the pure scorer."""
from __future__ import annotations

import random

import pytest

from generators import daily, versailles
from generators.identity import parse_id, seed_of
from solver.errors import InputError
from solver.core.solve import SolveControl
from solver.games.versailles import api, data
from solver.games.versailles.solo import counting_bound, solve_solo
from tests.generators.dailies import generated

PID = "versailles/tiles/easy/2027-01-01"
HARD = "versailles/tiles/hard/2027-01-01"


@pytest.fixture(scope="module")
def puzzle():
    return generated(PID)


def test_the_draw_is_a_function_of_the_id(puzzle):
    assert puzzle.generator_version == "versailles-3"
    tiles = puzzle.public["tiles"]
    assert len(tiles) == versailles.TILES["easy"] == len(set(tiles))
    # the puzzle's tiles are the draw of its seed (the attempts before it were refused draws)
    rng = random.Random(seed_of(parse_id(PID), "versailles-3"))
    draws = [versailles.draw("easy", rng) for _ in range(puzzle.public["attempts"])]
    assert draws[-1] == tiles


# 2027-01-03: its first draw's optimum (18) is proven below its counting bound (19) by the refutation search
@pytest.mark.parametrize("pid", [PID, "versailles/tiles/easy/2027-01-03"])
def test_a_drawn_day_has_a_perfect_garden(pid):
    # the stored optimum meets the counting bound (every field of the scored types in one area), not merely an
    # optimum proven below it (the refutation search proves those too: such a draw is refused and redrawn)
    catalog = data.default_catalog()
    day = generated(pid)
    assert day.answer["points"] == counting_bound([catalog.tiles[t] for t in day.public["tiles"]], catalog)


def test_stored_optimum_is_the_scorers_and_accepted(puzzle):
    garden = puzzle.answer["garden"]
    assert [p["tile"] for p in garden["placements"]] == puzzle.public["tiles"]
    assert api.validate(garden)["valid"]
    assert api.score(garden)["solo_points"] == puzzle.answer["points"]
    assert daily.check_answer(puzzle, garden) == {"correct": True, "legal": True, "score": puzzle.answer["points"],
                                                  "optimum": puzzle.answer["points"], "violations": []}
    assert daily.problems(puzzle) == []


def test_a_row_of_tiles_scores_at_most_the_optimum(puzzle):
    row = {"placements": [{"tile": t, "x": 2 * i, "y": 0, "rotation": 0} for i, t in enumerate(puzzle.public["tiles"])]}
    result = daily.check_answer(puzzle, row)
    assert result["legal"] and result["score"] == api.score(row)["solo_points"] <= result["optimum"]
    assert result["correct"] == (result["score"] == result["optimum"])


def test_unfinished_illegal_and_foreign_gardens(puzzle):
    placements = puzzle.answer["garden"]["placements"]
    part = daily.check_answer(puzzle, {"placements": placements[:3]})
    assert not part["correct"] and part["complete"] is False
    apart = [dict(p) for p in placements]
    apart[1] = dict(apart[1], x=apart[0]["x"] + 40, y=apart[0]["y"] + 40)   # far from the garden
    far = daily.check_answer(puzzle, {"placements": apart})
    assert not far["correct"] and not far["legal"] and far["violations"]
    swapped = [placements[1], placements[0], *placements[2:]]
    with pytest.raises(InputError) as err:
        daily.check_answer(puzzle, {"placements": swapped})
    assert err.value.field == "versailles_garden.placements[0].tile"
    with pytest.raises(InputError):
        daily.check_answer(puzzle, {"tiles": []})


@pytest.fixture(scope="module")
def hard():
    return generated(HARD)


def test_a_built_day_is_a_whole_game_with_a_perfect_garden(hard):
    tiles = hard.public["tiles"]
    assert len(tiles) == versailles.TILES["hard"] == 14 == len(set(tiles))
    assert hard.public["first_stage_tiles"] == 7
    garden = hard.answer["garden"]
    assert [p["tile"] for p in garden["placements"]] == tiles
    assert api.validate(garden)["valid"]
    # the stored optimum is the pure scorer's points of the built garden and equals the counting
    # bound of the day's tiles, which no garden on any board can beat
    catalog = data.default_catalog()
    bound = counting_bound([catalog.tiles[t] for t in tiles], catalog)
    assert api.score(garden)["solo_points"] == hard.answer["points"] == bound
    assert daily.check_answer(hard, garden)["correct"]
    assert daily.problems(hard) == []


def test_the_build_is_a_function_of_the_seed():
    one = versailles.generate("medium", random.Random(7))
    assert one == versailles.generate("medium", random.Random(7))
    assert len(one["public"]["tiles"]) == versailles.TILES["medium"] == 10
    assert versailles.generate("medium", random.Random(8))["public"]["tiles"] != one["public"]["tiles"]


def test_an_engine_garden_for_the_built_day_never_beats_the_optimum(hard):
    """The other face: the CP-SAT optimiser, given the day's tiles, finds nothing better than
    the stored optimum (it cannot: the optimum is the counting bound it posts)."""
    catalog = data.default_catalog()
    tiles = [catalog.tiles[t] for t in hard.public["tiles"]]
    control = SolveControl(time_limit_s=60, deterministic_limit=1.0, num_workers=1, random_seed=0)
    result = solve_solo(tiles, catalog, control)
    assert result.points is not None and result.points <= hard.answer["points"]
    assert result.counting_bound == hard.answer["points"]
    # the player's score against the optimum
    verdict = daily.check_answer(hard, {"placements": [p.as_dict() for p in result.placements]})
    assert verdict["legal"] and verdict["score"] == result.points
    assert verdict["correct"] == (result.points == hard.answer["points"])
