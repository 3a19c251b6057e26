"""The api seam: plain data in and out, ValueError naming the field for bad input, and the CLI on top."""
from __future__ import annotations

import json

import pytest

from server.cli.main import main as cli
from solver.games.versailles import api
from solver.games.versailles.data import default_catalog

CAT = default_catalog()


def test_validate_reports_each_refused_placement_with_its_reason():
    out = api.validate({"placements": [{"tile": 1, "x": 0, "y": 0}, {"tile": 2, "x": 2, "y": 2},
                                       {"tile": 3, "x": 2, "y": 1}, {"tile": 3, "x": 0, "y": 2}]})
    assert out["valid"] is False
    assert [(v["index"], v["field"]) for v in out["violations"]] == [(1, "placements[1]"), (3, "placements[3].tile")]
    assert "only diagonally" in out["violations"][0]["reason"]
    assert api.validate([{"tile": 1, "x": 0, "y": 0}]) == {"valid": True, "violations": []}


def test_score_counts_a_hand_checked_garden():
    # tile 4 is "BB/YY" and tile 5 "GG/RR" in the reference data; side by side: B 2, Y 2, G 2, R 2
    assert CAT.tiles[4].rows() == ["BB", "YY"] and CAT.tiles[5].rows() == ["GG", "RR"]
    out = api.score({"placements": [{"tile": 4, "x": 0, "y": 0}, {"tile": 5, "x": 2, "y": 0}]})
    assert out["areas"] == {"G": 2, "B": 2, "W": 0, "R": 2, "Y": 2, "C": 0}
    assert (out["intermediate_area_points"], out["final_area_points"], out["solo_points"]) == (4, 6, 4)
    # one tile: two types, so the final scoring's third place is empty and not listed
    one = api.score([{"tile": 4, "x": 0, "y": 0}])
    assert one["final_areas"] == [{"type": "B", "size": 2}, {"type": "Y", "size": 2}] and one["final_area_points"] == 4
    # turned half-way tile 5 puts its Red row on top: "RR/GG" -- no change in sizes
    out = api.score([{"tile": 4, "x": 0, "y": 0}, {"tile": 5, "x": 0, "y": 2, "rotation": 2}])
    assert out["areas"]["Y"] == 2 and out["areas"]["R"] == 2


def test_the_intermediate_fields_are_the_scoring_after_the_first_stage():
    """Beyond 7 tiles the intermediate scoring is the one after the 7th placement: its fields plus the final area
    points make the solo points (before 7 Dec they looked at the whole garden: 14 + 20 against 32)."""
    nine = [{"tile": 4, "x": 2, "y": 1}, {"tile": 5, "x": 2, "y": 3}, {"tile": 7, "x": 3, "y": 5},
            {"tile": 9, "x": 4, "y": 1, "rotation": 2}, {"tile": 10, "x": 0, "y": 3, "rotation": 1},
            {"tile": 11, "x": 6, "y": 0}, {"tile": 12, "x": 4, "y": 3, "rotation": 1}, {"tile": 13, "x": 0, "y": 1},
            {"tile": 14, "x": 1, "y": 5}]
    assert api.validate(nine)["valid"]
    out, seven = api.score(nine), api.score(nine[:7])
    assert out["intermediate_area_points"] + out["final_area_points"] == out["solo_points"]
    assert (out["intermediate_area_points"], out["intermediate_areas"]) == (seven["intermediate_area_points"],
                                                                          seven["intermediate_areas"])
    assert seven["solo_points"] == seven["intermediate_area_points"]
    # the whole garden's two largest areas score more than the 7th placement's did
    whole = sorted((s for t, s in out["areas"].items() if t != "C"), reverse=True)
    assert whole[0] + whole[1] > out["intermediate_area_points"]


def test_a_garden_of_more_tiles_than_a_player_receives_is_not_valid():
    """7 rounds a stage, 2 stages: 14 tiles. Before 7 Dec 20 tiles in a row were valid and scored, while Hint
    refused a 14-tile garden as full."""
    row = [{"tile": i, "x": 2 * (i - 1), "y": 0} for i in range(1, 21)]
    assert api.validate(row[:14]) == {"valid": True, "violations": []}
    out = api.validate(row)
    assert not out["valid"] and [(v["index"], v["field"]) for v in out["violations"]] == [(14, "placements[14]")]
    assert "at most 14 tiles" in out["violations"][0]["reason"]
    with pytest.raises(ValueError, match=r"placements\[14\]: a garden holds at most 14 tiles"):
        api.score(row)


@pytest.mark.parametrize("call, message", [
    (lambda: api.score({"placements": [{"tile": 999, "x": 0, "y": 0}]}), r"placements\[0\]\.tile: unknown tile id 999"),
    # Validate too: an unknown id is malformed input, not a rule broken (it answered valid: false before 7 Dec)
    (lambda: api.validate([{"tile": 1}, {"tile": 999, "x": 2}]), r"placements\[1\]\.tile: unknown tile id 999"),
    # a repeated tile names the tile field (it was "placements[1]: placement.tile: tile 4 ...")
    (lambda: api.score([{"tile": 4}, {"tile": 4, "x": 2}]), r"^placements\[1\]\.tile: tile 4 is already in this garden"),
    (lambda: api.score([{"tile": 4, "y": -10_001}]), r"^placements\[0\]\.y: must lie within \+-10000, got -10001"),
    (lambda: api.score({"placements": "nope"}), r"placements: expected a list"),
    # a misspelt field is refused, not read as its default (rotation 0)
    (lambda: api.score([{"tile": 4, "x": 0, "y": 0, "rotaton": 1}]), r"placements\[0\]\.rotaton: unknown field"),
    (lambda: api.validate([{"tile": 1, "x": 0, "y": 0}] * 101), r"placements: at most 100 placements"),
    (lambda: api.solve_optimal([1, 1]), r"tiles\[1\]: each tile exists once; tile 1 is repeated \(first at \[0\]\)"),
    (lambda: api.solve_optimal([1, "2"]), r"tiles\[1\]: unknown tile id '2'"),
    (lambda: api.solve_optimal(list(range(1, 16))), r"tiles: expected a list of 1 to 14 tile ids"),
    (lambda: api.solve_optimal([1, 2], time_limit=0), r"time_limit: expected seconds"),
    (lambda: api.solve_optimal([1, 2], seed=-1), r"seed: expected an integer"),
    (lambda: api.solve_optimal([1, 2], board=99), r"board: expected 2 to 24"),
    (lambda: api.hint([{"tile": 1, "x": 0, "y": 0}], 1), r"next_tile: tile 1 is already in the garden"),
    (lambda: api.hint([{"tile": 1, "x": 0, "y": 0}], 2, upcoming=[3, 3]), r"upcoming\[1\]: each tile exists once"),
    (lambda: api.hint([{"tile": 1, "x": 0, "y": 0}], 2, top=0), r"top: expected 1 to 200"),
    (lambda: api.score_game({"players": [], "stages": []}), r"players: expected a non-empty list"),
    (lambda: api.score([], catalog_path="/nonexistent/dir"), r"path: not a directory"),
])
def test_bad_input_is_a_value_error_naming_the_field(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_solve_optimal_returns_a_garden_the_scorer_agrees_with():
    out = api.solve_optimal([4, 5, 7], time_limit=20)
    assert out["status"] == "optimal" and out["points"] <= out["bound"] == out["points"]
    assert api.validate(out["placements"])["valid"]
    assert api.score(out["placements"])["solo_points"] == out["points"]


def test_solve_is_deterministic_for_a_seed():
    a = api.solve_optimal([4, 5, 7], time_limit=20, seed=3)
    b = api.solve_optimal([4, 5, 7], time_limit=20, seed=3)
    assert a["placements"] == b["placements"] and a["points"] == b["points"]


def test_hint_ranks_by_points_then_lookahead():
    garden = [{"tile": 4, "x": 0, "y": 0}]  # BB/YY
    out = api.hint(garden, 5, top=200)  # GG/RR
    points = [p["points"] for p in out["placements"]]
    assert points == sorted(points, reverse=True)
    # no placement of GG/RR joins B or Y, so the best is 2 + 2 (two areas of 2)
    assert points[0] == 4
    assert all(api.validate(garden + [p])["valid"] for p in out["placements"])
    look = api.hint(garden, 5, upcoming=[7], time_limit=10, top=3)
    assert [p["reachable"] for p in look["placements"]] == sorted((p["reachable"] for p in look["placements"]), reverse=True)
    for p in look["placements"]:
        assert p["reachable"] <= p["bound"]


def test_cli_solves_and_scores(tmp_path, capsys):
    (tmp_path / "tiles.json").write_text(json.dumps({"tiles": [4, 5]}))
    assert cli(["versailles", "solve", str(tmp_path / "tiles.json"), "--time-limit", "10", "--json"]) == 0
    solved = json.loads(capsys.readouterr().out)
    assert solved["status"] == "optimal"
    (tmp_path / "garden.json").write_text(json.dumps({"placements": solved["placements"]}))
    assert cli(["versailles", "score", str(tmp_path / "garden.json")]) == 0
    assert f"solo points (intermediate after tile 7 + final): {solved['points']}" in capsys.readouterr().out
    (tmp_path / "bad.json").write_text(json.dumps({"placements": [{"tile": 1, "x": 0, "y": 0}, {"tile": 2, "x": 5, "y": 5}]}))
    assert cli(["versailles", "validate", str(tmp_path / "bad.json")]) == 1
    assert cli(["versailles", "solve", str(tmp_path / "bad.json")]) == 2  # not a tile list: error, exit 2
    assert "tiles: expected a list" in capsys.readouterr().err


def test_hint_for_the_last_tile_takes_no_upcoming_tiles():
    garden = [{"tile": t, "x": 2 * i, "y": 0} for i, t in enumerate(range(1, 14))]
    assert api.hint(garden, 14, upcoming=[], top=1)["placements"]
    with pytest.raises(ValueError, match=r"upcoming: expected a list of at most 0 tile ids"):
        api.hint(garden, 14, upcoming=[15])


def test_cli_scores_a_game_and_gives_hints(tmp_path, capsys):
    players = ["Ann", "Ben", "Cid"]
    rounds = [{"cards": {"Ann": 30 + r, "Ben": 10 + r, "Cid": 20 + r},
               "placements": [{"player": p, "x": 2 * r, "y": 0} for p in players]} for r in range(7)]
    (tmp_path / "game.json").write_text(json.dumps({"players": players, "stages": [
        {"row": list(range(1, 22)), "rounds": rounds}]}))
    assert cli(["versailles", "score-game", str(tmp_path / "game.json"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out["players"]) == set(players) and out["complete"] is False
    (tmp_path / "garden.json").write_text(json.dumps({"placements": [{"tile": 4, "x": 0, "y": 0}]}))
    assert cli(["versailles", "hint", str(tmp_path / "garden.json"), "--tile", "5", "--top", "2"]) == 0
    assert capsys.readouterr().out.startswith(" 1. x=")
