"""Hints beyond a stage with 2+ upcoming tiles: the reachable points come from an annealing run that moves only the
upcoming tiles (`hint.anneal_continuation`, `anneal.run(fixed=...)`), held against the pure rules and scorer and,
on small continuations, against exhaustive enumeration."""
from __future__ import annotations

import random

import pytest

from solver.core.solve import SolveControl
from solver.games.versailles import anneal, hint
from solver.games.versailles.data import default_catalog
from solver.games.versailles.rules import Placement, build_garden
from solver.games.versailles.scoring import solo_checkpoints, solo_points
from solver.games.versailles.solo import counting_bound

from .test_hint import best_continuation

CAT = default_catalog()
IDS = sorted(CAT.tiles)


def _tiles(seed: int, n: int):
    return [CAT.tiles[i] for i in random.Random(seed).sample(IDS, n)]


@pytest.mark.parametrize("seed, n, fixed", [(0, 10, 4), (1, 14, 7), (2, 9, 8), (3, 6, 1)])
def test_a_run_keeps_its_first_tiles_and_scores_like_the_pure_scorer(seed, n, fixed):
    tiles = _tiles(seed, n)
    g = anneal.Garden(tiles, CAT, 14)
    start = g.random_start(random.Random(seed))
    best, points, done = anneal.run(g, start, random.Random(seed + 1), 3000, fixed=fixed)
    assert done > 0 and g.legal(best)
    dx, dy = best[0][0] - start[0][0], best[0][1] - start[0][1]
    assert [(x - dx, y - dy, r) for x, y, r in best[:fixed]] == start[:fixed]
    placements = g.placements(best)
    build_garden(CAT.tiles, placements)
    assert points == solo_points(placements, CAT) >= g.points(start)[0]


def test_a_run_with_every_tile_kept_returns_its_start():
    tiles = _tiles(4, 6)
    g = anneal.Garden(tiles, CAT, 12)
    start = g.random_start(random.Random(4))
    assert anneal.run(g, start, random.Random(0), 1000, fixed=6) == (start, g.points(start)[0], 0)
    with pytest.raises(ValueError, match="fixed"):
        anneal.run(g, start, random.Random(0), 1000, fixed=7)


# The first tiles of seeded sequences (`_tiles(seed, n)`) as a 0.5-unit solve_solo (one worker, random seed = seed)
# laid them on 7 Dec: (seed, n) -> (tile, x, y, rotation). A hint's garden is any legal garden (checked below), so
# the tests take these as given instead of solving again (2 s a solve).
SOLVED = {
    (5, 10): [(33, 2, 2, 0), (46, 0, 2, 1), (68, 2, 4, 0), (4, 4, 5, 0), (60, 4, 3, 2)],
    (6, 14): [(11, 4, 2, 0), (63, 6, 2, 0), (34, 2, 2, 2)],
    (8, 9): [(30, 4, 2, 0), (48, 2, 2, 0), (49, 1, 0, 0), (17, 0, 2, 1), (25, 0, 4, 1), (6, 6, 2, 2)],
    (18, 9): [(24, 2, 4, 0), (16, 4, 4, 1), (58, 5, 2, 1), (43, 0, 3, 0), (31, 5, 0, 0), (26, 2, 6, 0), (63, 0, 5, 0)],
}


def _prefix_and_continuation(seed: int, n: int, kept: int, shift: tuple[int, int]):
    """A solved garden's first `kept` tiles moved by `shift` (a hint's garden may sit anywhere, tiles turned), and
    the greedy continuation of the rest from them."""
    tiles = _tiles(seed, n)
    solved = [Placement(*p) for p in SOLVED[seed, n]]
    assert len(solved) >= kept and [p.tile for p in solved] == [t.id for t in tiles[:len(solved)]]
    build_garden(CAT.tiles, solved)  # legal
    prefix = [Placement(p.tile, p.x + shift[0], p.y + shift[1], p.rotation) for p in solved[:kept]]
    xs, ys = [p.x for p in prefix], [p.y for p in prefix]
    board = max(max(xs) - min(xs), max(ys) - min(ys)) + 2 + 2 * 7
    offset = (7 - min(xs), 7 - min(ys))
    start = hint._continue(prefix, tiles[kept:], CAT, solo_checkpoints(n, CAT), board, offset)
    return tiles, prefix, start


@pytest.mark.parametrize("seed, n, kept, shift", [(5, 10, 5, (-7, -4)), (6, 14, 3, (3, 11))])
def test_the_continuation_keeps_the_garden_where_it_is_and_gains_on_the_greedy_one(seed, n, kept, shift):
    tiles, prefix, start = _prefix_and_continuation(seed, n, kept, shift)
    assert start is not None and any(p.rotation for p in prefix + start[kept:])  # turned tiles among them
    out = hint.anneal_continuation(tiles, CAT, start, kept, 20_000, random.Random(seed))
    assert out[:kept] == prefix and [p.tile for p in out] == [t.id for t in tiles]
    build_garden(CAT.tiles, out)
    assert solo_points(out, CAT) > solo_points(start, CAT)  # the greedy continuation is improved on
    assert hint.anneal_continuation(tiles, CAT, start, kept, 20_000, random.Random(seed)) == out  # same seed, same
    assert hint.anneal_continuation(tiles, CAT, start, n, 1000, random.Random(seed)) is None  # nothing to move


def test_beyond_a_stage_the_hint_anneals_without_a_model_and_reaches_the_best_continuation(monkeypatch):
    def no_model(*args, **kwargs):
        raise AssertionError("no CP-SAT model for this hint")

    monkeypatch.setattr(hint, "build_solo_model", no_model)
    tiles, prefix, _ = _prefix_and_continuation(8, 9, 6, (0, 0))
    garden = [p.as_dict() for p in prefix]
    nxt, upcoming = tiles[6].id, [t.id for t in tiles[7:]]
    control = lambda: SolveControl(time_limit_s=60, num_workers=1, deterministic_limit=3)  # noqa: E731
    from solver.games.versailles import api
    out = api.hint(garden, nxt, upcoming=upcoming, top=3, control=control())
    assert out == api.hint(garden, nxt, upcoming=upcoming, top=3, control=control())  # deterministic
    ceiling = counting_bound(tiles, CAT)
    reachable = []
    for o in out["placements"]:
        here = Placement(nxt, o["x"], o["y"], o["rotation"])
        best = best_continuation(prefix + [here], upcoming)
        assert o["reachable"] == best  # 1 unit of annealing per candidate finds the exhaustive optimum here
        assert o["bound"] == ceiling >= best
        assert o["status"] == ("optimal" if best == ceiling else "feasible")
        assert o["optimal_on_any_board"] == (o["status"] == "optimal")
        reachable.append(o["reachable"])
        # the annealed garden that reaches it: legal at every turn, worth it
        whole = prefix + [here] + [Placement(p["tile"], p["x"], p["y"], p["rotation"]) for p in o["continuation"]]
        assert [p.tile for p in whole[len(prefix) + 1:]] == upcoming
        build_garden(CAT.tiles, whole)
        assert solo_points(whole, CAT) == o["reachable"]
    assert reachable == sorted(reachable, reverse=True)
    # switched off (or up to a stage), the CP-SAT path runs: here it meets the stub
    monkeypatch.setattr(hint, "HINT_ANNEAL_MIN", None)
    with pytest.raises(AssertionError, match="no CP-SAT model"):
        api.hint(garden, nxt, upcoming=upcoming, top=3, control=control())


def test_with_one_upcoming_tile_every_placement_is_tried_and_the_answer_is_exact(monkeypatch):
    def no_model(*args, **kwargs):
        raise AssertionError("no CP-SAT model for this hint")

    monkeypatch.setattr(hint, "build_solo_model", no_model)
    from solver.games.versailles import api
    # (seed 18's 9 tiles, 7 laid: every placement of the 8th and the 9th tried; seed 12's 12 tiles, 10 laid, until
    # 7 Dec: the same path at twice the cost)
    tiles, prefix, _ = _prefix_and_continuation(18, 9, 7, (2, -3))
    garden = [p.as_dict() for p in prefix]
    nxt, last = tiles[7].id, tiles[8].id
    out = api.hint(garden, nxt, upcoming=[last], top=4, time_limit=30)
    reachable = []
    for o in out["placements"]:
        here = Placement(nxt, o["x"], o["y"], o["rotation"])
        best = best_continuation(prefix + [here], [last])
        assert o["reachable"] == o["bound"] == best and o["status"] == "optimal" and o["optimal_on_any_board"]
        reachable.append(best)
    assert reachable == sorted(reachable, reverse=True) and len(set(reachable)) > 1
    # a call whose deadline has passed answers "unknown" for every candidate, never a guess
    import time as _time
    late = SolveControl(time_limit_s=30, num_workers=1, ends_at=_time.monotonic())
    for o in api.hint(garden, nxt, upcoming=[last], top=4, control=late)["placements"]:
        assert o["reachable"] is None and o["status"] == "unknown" and not o["optimal_on_any_board"]
    monkeypatch.setattr(hint, "EXHAUSTIVE_LAST", False)  # off: the CP-SAT path, which meets the stub
    with pytest.raises(AssertionError, match="no CP-SAT model"):
        api.hint(garden, nxt, upcoming=[last], top=4, time_limit=30)


# seed 10's 14 tiles, the first 11 laid as a 10-unit solve laid them; then tile 32, and 64 and 72 to come
FREE_GARDEN = [Placement(5, 2, 2, 0), Placement(55, 3, 0, 0), Placement(62, 5, 0, 2), Placement(2, 0, 2, 2),
               Placement(27, 4, 2, 0), Placement(60, 6, 2, 3), Placement(63, 7, 0, 3), Placement(36, 7, 4, 0),
               Placement(21, 1, 4, 0), Placement(3, 6, 6, 3), Placement(34, 4, 6, 0)]


@pytest.fixture(scope="module")
def best_now():
    """FREE_GARDEN's placement of tile 32 best by points now (no upcoming tiles: no search, FREE_RUN plays no part)
    and what its best continuation of tiles 64 and 72 reaches (every continuation enumerated): the same for both
    runs below, found once."""
    garden = build_garden(CAT.tiles, FREE_GARDEN)
    control = SolveControl(time_limit_s=60, deterministic_limit=0.3)
    best = max(hint.rank_placements(FREE_GARDEN, garden, CAT.tiles[32], [], CAT, control, 200),
               key=lambda o: o["points"])
    return best, best_continuation(FREE_GARDEN + [Placement(32, best["x"], best["y"], best["rotation"])], [64, 72])


@pytest.mark.parametrize("free", [True, False])
def test_the_free_run_finds_a_first_move_outside_the_candidates(monkeypatch, free, best_now):
    """With 2+ upcoming tiles the candidates are the best `top` by points now. The free run anneals the best
    candidate's garden with the new tile free too: here (top 1) it finds a placement worth a point less now that
    reaches more than the best continuation of the placement best now (found by enumerating every continuation).
    Without it (`FREE_RUN` off) the answer is that placement, below the free run's."""
    monkeypatch.setattr(hint, "FREE_RUN", free)
    garden = build_garden(CAT.tiles, FREE_GARDEN)
    control = SolveControl(time_limit_s=60, deterministic_limit=0.3)
    tile, upcoming = CAT.tiles[32], [CAT.tiles[64], CAT.tiles[72]]
    (option,) = hint.rank_placements(FREE_GARDEN, garden, tile, upcoming, CAT, control, 1)
    best_now, best_now_reaches = best_now
    here = Placement(32, option["x"], option["y"], option["rotation"])
    chosen = FREE_GARDEN + [here] + [Placement(**p) for p in option["continuation"]]
    assert option["reachable"] == solo_points(chosen, CAT)
    if free:
        assert option["points"] < best_now["points"]
        assert option["reachable"] > best_now_reaches
    else:
        assert option["points"] == best_now["points"]
        assert option["reachable"] <= best_now_reaches


def test_following_the_hints_keeps_the_line_they_promised():
    """A player who lays the top option's placement and sends its continuation back (`follow`) gets the line's
    placement ranked again, reaching at least its points: the promises never fall and the game ends at the last
    one. Seed 4's 10 tiles, top 5, 1 unit a hint: without `follow` the promises went 39, 38, ... and the game
    ended at 37 (seed 1: 39 -> 38; the puzzle walkthrough of 7 Dec: 52 promised, 51 reached)."""
    from solver.games.versailles import api

    tiles = [t.id for t in _tiles(4, 10)]
    garden = [{"tile": tiles[0], "x": 0, "y": 0}]
    promised, follow = [], None
    for k in range(1, len(tiles) - 1):
        control = SolveControl(time_limit_s=60, deterministic_limit=1)
        out = api.hint(garden, tiles[k], tiles[k + 1:], top=5, control=control, follow=follow)
        best = out["placements"][0]
        promised.append(best["reachable"])
        garden.append({key: best[key] for key in ("tile", "x", "y", "rotation")})
        follow = best["continuation"]
    garden += follow
    assert promised == sorted(promised) and promised[0] >= 38
    assert api.score(garden)["solo_points"] == promised[-1]
    with pytest.raises(ValueError, match="follow: expected placements of next_tile"):
        api.hint(garden[:3], tiles[3], tiles[4:], top=5, follow=follow)
    with pytest.raises(ValueError, match="follow: not a legal continuation"):
        api.hint(garden[:2], tiles[2], tiles[3:], top=5, follow=[dict(p, x=p["x"] + 40) for p in garden[2:]])
