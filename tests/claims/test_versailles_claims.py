"""Claims audit of the Versailles service (1 Dec 05:00-07:05 UTC): every answer of the engine seam
(`solver/games/versailles/api.py`) against an independent oracle written from the rulebook
(`oracles_versailles.py`: its own rotation, placement rule, areas, scorings and token rules; it
calls nothing of the engine), and a few answers through a real server."""
from __future__ import annotations

import random

from solver.core.solve import SolveControl
from solver.games.versailles import api

from . import oracles_versailles as o

TILES = o.tiles()
IDS = sorted(TILES)


def control(seed: int = 0, work: float = 5.0) -> SolveControl:
    return SolveControl(time_limit_s=60.0, num_workers=1, random_seed=seed, deterministic_limit=work)


def test_validate_and_score_agree_with_the_rulebook_oracle():
    rng = random.Random(11)
    scored = refused = 0
    for _ in range(300):
        seq = rng.sample(IDS, rng.randint(1, 14))
        fields, history, placements, bad = {}, [], [], set()
        for i, t in enumerate(seq):
            if rng.random() < 0.15:
                x, y, r = rng.randint(-4, 6), rng.randint(-4, 6), rng.randint(0, 3)
            else:
                x, y, r = rng.choice(o.placements_of(fields, TILES[t]))
            placements.append({"tile": t, "x": x, "y": y, "rotation": r})
            if o.legal(fields, x, y):  # a refused placement is left out, the rest judged without it
                fields = o.add(fields, TILES[t], x, y, r)
                history.append(fields)
            else:
                bad.add(i)
        if len(seq) > 1 and rng.random() < 0.05:
            placements.append(dict(placements[0]))  # a tile twice
            bad.add(len(placements) - 1)
        res = api.validate({"placements": placements})
        assert {v["index"] for v in res["violations"]} == bad and res["valid"] == (not bad), placements
        refused += bool(bad)
        if bad:
            continue
        got = api.score({"placements": placements})
        a = o.areas(fields)
        assert got["areas"] == a and got["construction_site"] == a["C"]
        # the intermediate scoring is taken after the 7th placement (all of them when fewer)
        assert got["intermediate_area_points"] == o.top(o.areas(history[min(len(history), 7) - 1]), 2)
        assert got["final_area_points"] == o.top(a, 3)
        assert got["solo_points"] == o.solo_points(history), placements
        scored += 1
    assert scored > 100 and refused > 50


def test_hint_points_are_the_scoring_the_tile_belongs_to():
    """The 7th tile belongs to the intermediate scoring: its points were the intermediate plus the
    final scoring of the same garden (20 for a garden worth 8) before the fix of points_now."""
    rng = random.Random(5)
    sevenths = 0
    for trial in range(45):
        n = 6 if trial % 3 == 0 else rng.randint(0, 12)
        seq = rng.sample(IDS, n + 1)
        placements, history = o.random_garden(rng, seq[:-1], TILES)
        fields = history[-1] if history else {}
        nxt = seq[-1]
        res = api.hint({"placements": placements}, nxt, top=200, control=control(work=1.0))
        truth = {}
        for x, y, r in o.placements_of(fields, TILES[nxt]):
            after = o.add(fields, TILES[nxt], x, y, r)
            truth[(x, y, o.turn(TILES[nxt], r))] = o.hint_points(history + [after])
        keys = [(g["x"], g["y"], o.turn(TILES[nxt], g["rotation"])) for g in res["placements"]]
        assert all(k in truth for k in keys)  # every option legal
        assert [g["points"] for g in res["placements"]] == [truth[k] for k in keys], (seq, placements)
        assert set(keys) == set(truth) or len(keys) == 200  # every legal layout listed
        assert res["placements"][0]["points"] == max(truth.values())
        sevenths += n == 6
    assert sevenths >= 15


def test_score_game_agrees_with_the_rulebook_oracle():
    rng = random.Random(1)
    played = complete = 0
    for _ in range(40):
        record, totals, holders, small, winners, done = o.random_game(rng, TILES)
        res = api.score_game(record)
        assert {p: r["total"] for p, r in res["players"].items()} == totals
        assert res["large_token_holders"] == holders
        assert {t: w for t, w in res["small_token_winners"].items() if w is not None} == small
        assert sorted(res["winners"]) == winners and res["complete"] == done
        assert [(t["type"], t["to"], t["from"], t["size"], t["stage"], t["round"]) for t in res["transfers"]] == \
            o.random_game.transfers
        played += 1
        complete += done
    assert complete >= 10


def test_solve_optimal_against_enumeration_of_three_tiles():
    """Every 3-tile garden fits the default 6x6 board, so OPTIMAL here is optimal on any board."""
    rng = random.Random(2)
    for trial in range(3):
        seq = rng.sample(IDS, 3)
        best, _ = o.best_solo(seq, TILES)
        res = api.solve_optimal(seq, control=control(trial))
        fields, history = {}, []
        for p in res["placements"]:
            assert o.legal(fields, p["x"], p["y"])
            fields = o.add(fields, TILES[p["tile"]], p["x"], p["y"], p["rotation"])
            history.append(fields)
        assert [p["tile"] for p in res["placements"]] == seq
        assert res["points"] == o.solo_points(history)
        assert res["status"] == "optimal" and res["points"] == best
        assert res["bound"] >= best and res["counting_bound"] >= best
        assert res["optimal_on_any_board"] == (res["points"] >= res["counting_bound"]) or res["optimal_on_any_board"]


def test_hint_with_an_upcoming_tile_against_enumeration():
    rng = random.Random(2)
    for trial in range(2):
        seq = rng.sample(IDS, 4)
        placements, history = o.random_garden(rng, seq[:2], TILES)
        res = api.hint({"placements": placements}, seq[2], upcoming=[seq[3]], top=5, control=control(trial))
        for g in res["placements"]:
            assert o.legal(history[-1], g["x"], g["y"])
            after = o.add(history[-1], TILES[seq[2]], g["x"], g["y"], g["rotation"])
            best = max(o.solo_points(history + [after, o.add(after, TILES[seq[3]], x, y, r)])
                       for x, y, r in o.placements_of(after, TILES[seq[3]]))
            assert g["reachable"] <= best and g["bound"] >= best
            if g["status"] == "optimal":
                assert g["reachable"] == best
