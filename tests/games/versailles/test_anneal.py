"""The annealing search (`anneal.py`): its bit-mask legality and points against the pure rules and
scorer, its gardens legal, on the model's board and never above the exhaustive oracle, the same
garden twice from the same seed, and its step in `solve_solo`."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

from solver.core.solve import SolveControl
from solver.games.versailles import anneal, solo
from solver.games.versailles.anneal import Garden, anneal_garden
from solver.games.versailles.data import default_catalog
from solver.games.versailles.model import build_solo_model
from solver.games.versailles.rules import IllegalPlacement, build_garden
from solver.games.versailles.scoring import solo_checkpoints, solo_points

from .helpers import catalog_with, two_deterministic_runs
from .test_fast_heuristics import ODD
from .test_model import oracle

CAT = default_catalog()
TILE_IDS = sorted(CAT.tiles)


def _tiles(catalog, seed: int, n: int):
    return [catalog.tiles[i] for i in random.Random(seed).sample(sorted(catalog.tiles), n)]


def _walk(g: Garden, rng: random.Random, steps: int):
    """Gardens on a random walk (each a list of anchors, legal or not): one or two tiles put at a random
    anchor of the board (often next to another tile) in a random turn; legal ones are often walked on."""
    garden = g.random_start(rng)
    side = g.board - 1
    for _ in range(steps):
        new = list(garden)
        for i in rng.sample(range(g.n), min(g.n, rng.choice((1, 1, 2)))):
            if rng.random() < 0.5:
                x, y, _ = new[rng.randrange(g.n)]
                x, y = x + rng.choice((-2, 2, -1, 1, 0)), y + rng.choice((-2, 2, -1, 1, 0))
            else:
                x, y = rng.randrange(side), rng.randrange(side)
            new[i] = (x, y, rng.choice(g.turns[i]))
        yield new
        if g.legal(new) and rng.random() < 0.7:
            garden = new


def _pure_legal(g: Garden, garden) -> bool:
    try:
        build_garden({t.id: t for t in g.tiles}, g.placements(garden))
    except IllegalPlacement:
        return False
    return True


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 10**6), st.integers(2, 14), st.sampled_from(["reference", "hand-made"]),
       st.sampled_from([None, 8, 13, 24]))
def test_bit_masks_say_what_the_pure_rules_and_scorer_say(seed, n, which, board):
    # boards of 2 to 12 words a plane: areas crossing from one word to the next
    catalog = CAT if which == "reference" else ODD
    n = min(n, len(catalog.tiles))
    tiles = _tiles(catalog, seed, n)
    g = Garden(tiles, catalog, max(board or 0, solo.default_board(n)))  # room for every tile
    legal = illegal = 0
    for garden in _walk(g, random.Random(seed), 200):
        ok = g.legal(garden)
        on_board = all(0 <= x < g.board - 1 and 0 <= y < g.board - 1 for x, y, _ in garden)
        assert ok == (on_board and _pure_legal(g, garden))
        if not ok:
            illegal += 1
            continue
        legal += 1
        points, first = g.points(garden)
        assert points == solo_points(g.placements(garden), catalog)
        upto, _ = solo_checkpoints(n, catalog)[0]
        assert first == solo_points(g.placements(garden)[:upto], catalog)
    assert legal and illegal


def test_the_first_scorings_points_are_reused_only_as_given():
    tiles = _tiles(CAT, 3, 14)
    g = Garden(tiles, CAT, 10)
    rng = random.Random(3)
    a = g.random_start(rng)
    _, first = g.points(a)
    same = 0
    for _ in range(400):
        garden = list(a)
        i = rng.randrange(g.first_cut, g.n)  # a tile of the second stage only
        x, y, _ = garden[rng.randrange(g.n)]
        garden[i] = (x + rng.choice((-2, 2)), y + rng.choice((-1, 0, 1)), rng.choice(g.turns[i]))
        if g.legal(garden):
            same += 1
            assert g.points(garden, first) == g.points(garden)
            assert g.points(garden, first + 1)[0] == g.points(garden)[0] + 1  # taken as given, not recomputed
    assert same


@pytest.mark.parametrize("seed,n", [(0, 9), (1, 14), (2, 11)])
def test_an_annealed_garden_is_legal_on_the_models_board_and_scores_what_it_says(seed, n):
    tiles = _tiles(CAT, seed, n)
    board = solo.default_board(n)
    found = anneal_garden(tiles, CAT, board, random.Random(seed), 3000, restarts=2)
    assert found.evals == 3000
    build_garden(CAT.tiles, found.placements)  # raises on an illegal placement
    assert solo_points(found.placements, CAT) == found.points
    assert min(p.x for p in found.placements) == 0 == min(p.y for p in found.placements)
    model = build_solo_model(tiles, CAT, solo_checkpoints(n, CAT), board)
    assert model.hint_garden(found.placements) == found.points  # a garden of the model: board, first tile unturned
    again = anneal_garden(tiles, CAT, board, random.Random(seed), 3000, restarts=2)
    assert (again.placements, again.points) == (found.placements, found.points)


@pytest.mark.parametrize("ids", [(1, 2, 3), (4, 5, 6), (7, 8, 9), (10, 11, 12)])
def test_on_three_tiles_the_search_reaches_the_exhaustive_optimum_and_never_more(ids):
    tiles = [ODD.tiles[i] for i in ids]
    best = oracle(tiles, ODD)
    found = anneal_garden(tiles, ODD, solo.default_board(3), random.Random(0), 4000, restarts=4)
    assert found.points == best


def test_the_search_stops_at_the_ceiling_and_when_told():
    tiles = _tiles(CAT, 5, 14)
    found = anneal_garden(tiles, CAT, 10, random.Random(5), 20000, restarts=1, ceiling=0)
    assert found.evals == 0  # the random start already meets a ceiling of 0
    calls = []

    def stop():
        calls.append(1)
        return len(calls) >= 3

    found = anneal_garden(tiles, CAT, 10, random.Random(5), 10**6, restarts=1, stop=stop)
    assert len(calls) == 3 and 0 < found.evals < 3 * anneal.CHECK_EVERY
    assert solo_points(found.placements, CAT) == found.points


def test_a_board_without_room_is_an_error():
    cat = catalog_with({i: ("GG", "BB") for i in range(1, 4)})
    with pytest.raises(ValueError, match="no room"):
        Garden([cat.tiles[i] for i in (1, 2, 3)], cat, 3).random_start(random.Random(0))


def _record_anneal(monkeypatch):
    calls = []
    real = anneal.anneal_garden

    def recording(*args, **kwargs):
        out = real(*args, **kwargs)
        calls.append(out)
        return out

    monkeypatch.setattr(anneal, "anneal_garden", recording)
    return calls


def test_solve_solo_anneals_long_sequences_only_and_answers_the_same_twice(monkeypatch):
    calls = _record_anneal(monkeypatch)
    tiles = _tiles(CAT, 4, 14)
    first, second = two_deterministic_runs(tiles, CAT, 2.0, 4)  # (2 units: two runs of the annealing)
    assert first == second
    asked = int(solo.ANNEAL_SHARE * 2.0 * solo.ANNEAL_EVALS_PER_UNIT)
    runs = max(1, asked // solo.ANNEAL_RUN_EVALS)
    assert runs == 2
    assert len(calls) == 2 and calls[0].evals == runs * (asked // runs)  # runs of equal length
    assert first["points"] >= calls[0].points  # the annealed garden is a start, never lost
    assert first["deterministic_time"] <= 2.0 + 1.5  # its evaluations are charged to the budget (+ one step over)
    calls.clear()
    solo.solve_solo(_tiles(CAT, 4, 7), CAT, SolveControl(deterministic_limit=1.0, num_workers=1, random_seed=4))
    assert calls == []  # up to a stage: the full solve finds the better gardens
    solo.solve_solo(tiles, CAT, SolveControl(deterministic_limit=0.3, num_workers=1, random_seed=4),
                    anneal_share=0.0)  # (no share, whatever the budget: 0.3 units, not 1, spent on the rest)
    assert calls == []
    # up to the refutation's tiles its own share (ANNEAL_SHARE_REFUTED): the refutation search follows and
    # needs the budget for its proofs
    nine, work = _tiles(CAT, 4, 9), 0.5  # (1 unit until 7 Dec: the shares are of whatever budget)
    solo.solve_solo(nine, CAT, SolveControl(deterministic_limit=work, num_workers=1, random_seed=4))
    assert len(calls) == (1 if solo.ANNEAL_SHARE_REFUTED > 0 else 0)
    monkeypatch.setattr(solo, "ANNEAL_SHARE_REFUTED", 0.5)
    solo.solve_solo(nine, CAT, SolveControl(deterministic_limit=work, num_workers=1, random_seed=4))
    assert calls[-1].evals <= int(0.5 * work * solo.ANNEAL_EVALS_PER_UNIT) and len(calls) >= 1


def test_with_a_wall_limit_the_clock_ends_the_search(monkeypatch):
    calls = _record_anneal(monkeypatch)
    monkeypatch.setattr(solo, "ANNEAL_EVALS_PER_SECOND", 10**9)  # only the clock can end it
    tiles = _tiles(CAT, 6, 14)
    out = solo.solve_solo(tiles, CAT, SolveControl(time_limit_s=2.0, num_workers=1, random_seed=6))
    assert len(calls) == 1 and 0 < calls[0].evals < 10**9
    assert out.points >= calls[0].points


def test_before_the_closing_refutation_the_annealing_is_capped_and_the_neighbourhood_search_skipped(monkeypatch):
    calls = _record_anneal(monkeypatch)
    seen = {}
    real_improve, real_refute = solo.improve, solo._refute_step

    def improve(*args, **kwargs):
        seen["upto"] = kwargs["upto"]
        return real_improve(*args, **kwargs)

    def refute_step(*args, **kwargs):
        seen["refuted"] = True
        return real_refute(*args, **kwargs)

    monkeypatch.setattr(solo, "improve", improve)
    monkeypatch.setattr(solo, "_refute_step", refute_step)
    monkeypatch.setattr(solo, "CLOSE_REFUTE_MIN", 2.0)
    monkeypatch.setattr(solo, "CLOSE_ANNEAL_MAX", 0.5)
    tiles = _tiles(CAT, 7, 14)
    out = solo.solve_solo(tiles, CAT, SolveControl(deterministic_limit=2.0, num_workers=1, random_seed=7))
    assert len(calls) == 1 and 0 < calls[0].evals <= 0.5 * solo.ANNEAL_EVALS_PER_UNIT  # capped, not 0.6 x 2
    assert seen == {"upto": 0.0, "refuted": True}
    assert out.points >= calls[0].points
    monkeypatch.setattr(solo, "CLOSE_ANNEAL_MAX", None)  # no cap: the share, and the neighbourhood search as before
    calls.clear()
    seen.clear()
    solo.solve_solo(tiles, CAT, SolveControl(deterministic_limit=2.0, num_workers=1, random_seed=7))
    assert calls[0].evals > 0.5 * solo.ANNEAL_EVALS_PER_UNIT and seen["upto"] == solo.CLOSE_LNS_UPTO


def _recording(monkeypatch, name: str, seen: list):
    """Record calls of solo.<name> (the model build, the beam search, the full solve) and run them."""
    real = getattr(solo, name)

    def recording(*args, **kwargs):
        seen.append(name)
        return real(*args, **kwargs)

    monkeypatch.setattr(solo, name, recording)


@pytest.mark.parametrize("seed", [3, 16])  # 16: the annealing meets the counting bound (48) in about 0.5 s
def test_a_short_wall_limit_on_a_long_sequence_anneals_without_a_model(monkeypatch, seed):
    """Under QUICK_WALL seconds beyond REFUTE_MAX_TILES: no CP-SAT model, no beam search, one annealing call; the
    answer is a legal garden at its pure points, bounded by the counting bound and never called optimal below it."""
    calls = _record_anneal(monkeypatch)
    asked = []
    recording = anneal.anneal_garden
    monkeypatch.setattr(anneal, "anneal_garden", lambda *a, **k: asked.append(a[4]) or recording(*a, **k))
    monkeypatch.setattr(solo, "ANNEAL_SHARE", 0.1)  # the quick path does not take the pipeline's share
    seen: list = []
    for name in ("build_solo_model", "beam_garden", "improve"):
        _recording(monkeypatch, name, seen)
    tiles = _tiles(CAT, seed, 14)
    limit = min(2.0, solo.QUICK_WALL)
    out = solo.solve_solo(tiles, CAT, SolveControl(time_limit_s=limit, num_workers=1, random_seed=seed))
    assert seen == [] and len(calls) == 1
    build_garden(CAT.tiles, out.placements)  # legal
    assert out.points == solo_points(out.placements, CAT) >= calls[0].points
    assert out.bound == out.counting_bound == solo.counting_bound(tiles, CAT) >= out.points
    assert out.status == ("optimal" if out.points == out.bound else "feasible")
    assert out.heuristic_points == out.points and out.work == 0.0
    # the annealing was asked for what is left up to QUICK_UPTO of the budget (the greedy took a few restarts)
    assert len(asked) == 1 and asked[0] > 0.3 * limit * solo.ANNEAL_EVALS_PER_SECOND


def test_the_quick_path_is_only_for_short_wall_limits_beyond_the_refutation(monkeypatch):
    seen: list = []
    _recording(monkeypatch, "build_solo_model", seen)
    tiles = _tiles(CAT, 5, 14)
    # a deterministic request keeps its pipeline (and its gardens: daily puzzles, goldens)
    solo.solve_solo(tiles, CAT, SolveControl(deterministic_limit=0.5, num_workers=1, random_seed=5))
    assert seen == ["build_solo_model"]
    # at or above QUICK_WALL, or with it off, the model is built
    monkeypatch.setattr(solo, "QUICK_WALL", 0.4)
    seen.clear()
    solo.solve_solo(tiles, CAT, SolveControl(time_limit_s=0.5, num_workers=1, random_seed=5))
    assert seen == ["build_solo_model"]
    monkeypatch.setattr(solo, "QUICK_WALL", None)
    seen.clear()
    solo.solve_solo(tiles, CAT, SolveControl(time_limit_s=0.4, num_workers=1, random_seed=5))
    assert seen == ["build_solo_model"]
    # up to REFUTE_MAX_TILES the refutation search needs the pipeline
    monkeypatch.setattr(solo, "QUICK_WALL", 30.0)
    seen.clear()
    out = solo.solve_solo(_tiles(CAT, 5, solo.REFUTE_MAX_TILES), CAT,
                          SolveControl(time_limit_s=0.5, num_workers=1, random_seed=5))
    assert out.status == "optimal" or seen == ["build_solo_model"]
