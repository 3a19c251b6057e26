"""A first-time user's report on the command line: bad input is one line naming the field or option, exit 2
(README "Exit codes"); read-only store commands create nothing; --server honours --time-limit."""
import io
import json
import shutil
from pathlib import Path

import pytest

from server.cli.main import build_parser, main

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _error(capsys) -> str:
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return err


@pytest.mark.parametrize("move, field", [
    ({"kind": "add", "player": None, "tile": "A02", "cell": [-1, 0]}, "move.player"),        # TypeError
    ({"kind": "remove", "player": 0, "cell": [0, 1], "to_player": 1, "rotation": None}, "move.rotation"),
    ({"kind": "add", "player": 0, "tile": "A02", "cell": [-1, 0], "rotation": [1]}, "move.rotation"),
    ("RAW:" + '{"kind": "add", "player": 0, "tile": "A02", "cell": [-1, 0], "rotation": 1e400}', "move.rotation"),
    ({"kind": "add", "player": "a", "tile": "A02", "cell": [-1, 0]}, "move.player"),         # no field named
    ({"kind": "add", "player": 0.7, "tile": "A02", "cell": [-1, 0]}, "move.player"),         # was player 0
    ({"kind": "add", "player": True, "tile": "A02", "cell": [-1, 0]}, "move.player"),        # was player 1
    ({"kind": "add", "player": 0, "tile": ["A02"], "cell": [-1, 0]}, "move.tile"),           # unhashable
    ("RAW:notjson", "--move"),
    ([1], "--move"),
])
def test_a_move_of_the_wrong_type_is_refused_by_field(capsys, move, field):
    text = move[4:] if isinstance(move, str) else json.dumps(move)
    assert main(["moves", str(EXAMPLES / "state.json"), "--move", text]) == 2
    err = _error(capsys)
    assert err.startswith(f"gardens: error: {field}: ") and len(err.strip().splitlines()) == 1, err
    # a well-formed move is still judged
    assert main(["moves", str(EXAMPLES / "state.json"), "--move",
                 '{"kind": "add", "player": 0, "tile": "A02", "cell": [-1, 0]}']) == 0


@pytest.mark.parametrize("change, field", [
    ({"supplies": [{"stack": "A02", "loose": []}]}, "state.supplies[0].stack"),
    ({"garden": {"tile": "A01"}}, "state.garden"),
])
def test_a_state_whose_lists_are_not_lists_is_refused(capsys, tmp_path, change, field):
    state = {**json.loads((EXAMPLES / "state.json").read_text()), **change}
    path = tmp_path / "state.json"
    path.write_text(json.dumps(state))
    assert main(["moves", str(path)]) == 2
    assert _error(capsys).startswith(f"gardens: error: {field}: must be a list")


def test_time_limit_is_the_deadline_over_server_and_local_data_files_are_refused(start_server, capsys, tmp_path):
    running = start_server()
    command = ["solve", "--cards", "C1,C2,C3,C4,C5,B1,B2", "--mode", "training-c", "--time-limit", "0.05"]
    assert main(command) == 3  # unknown within 0.05 s in-process
    here = capsys.readouterr().out
    assert main([*command, "--server", running.target]) == 3  # it was solvable after ~0.4 s: the limit was dropped
    there = capsys.readouterr()
    # unknown by the limit; or, under load, the deadline (limit + margin) passed while the model was built
    assert here.startswith("unknown") and (there.out.startswith("unknown") or there.err.startswith(
        "unknown: no answer within --time-limit 0.05 s")), (here, there)
    catalog = tmp_path / "tiles.json"
    catalog.write_text("{}")
    for option in ("--catalog", "--card-file"):
        assert main(["solve", "--cards", "A1", option, str(catalog), "--server", running.target]) == 2
        assert _error(capsys).startswith(f"gardens: error: {option}: cannot be sent with --server")
    with pytest.raises(SystemExit) as exit_:  # accepted, while `call --timeout -1` was refused
        main(["solve", "--cards", "A1", "--timeout", "-1", "--server", running.target])
    assert exit_.value.code == 2 and "argument --timeout: must be a number of seconds > 0" in _error(capsys)


def test_exit_codes_of_rpc_errors_and_connections_match_solve(start_server, capsys):
    running = start_server(with_probe=False)
    assert main(["call", "--server", running.target, "CheckSolvable", "[]"]) == 2  # was read as {}
    assert _error(capsys).startswith("gardens: error: request: must be a JSON object")
    assert main(["call", "--server", running.target, "Solve", '{"card_ids": ["A1", "NOPE"]}']) == 2  # was 1
    assert "INVALID_ARGUMENT" in _error(capsys)
    for command in (["call", "ListTiles"], ["health"], ["solve", "--cards", "A1"]):
        assert main([*command, "--server", "localhost:1", "--timeout", "2"]) == 2, command  # call/health: 1
        assert "UNAVAILABLE" in _error(capsys) or "DEADLINE_EXCEEDED" in capsys.readouterr().err


def test_closest_count_and_hints_exit_by_the_verdict(capsys, tmp_path):
    assert main(["solve", "--cards", "C3", "--mode", "training-c", "--json"]) == 0
    garden = tmp_path / "g.json"
    garden.write_text(capsys.readouterr().out)
    assert main(["closest", str(garden), "--cards", "S04,S08"]) == 1           # none exists
    assert main(["count", "--cards", "S04,S08", "--cap", "3"]) == 1            # was 0
    assert main(["count", "--cards", "A1", "--mode", "training-a", "--cap", "2"]) == 0
    empty = tmp_path / "empty.json"
    empty.write_text(json.dumps({"size": 6, "placements": []}))
    assert main(["progress", str(empty), "--cards", "S04,S08"]) == 1           # was 0
    assert main(["forced", str(empty), "--cards", "S04,S08"]) == 1             # was 0
    assert main(["hint", str(empty), "--cards", "S08", "--player", "1"]) == 2  # --player without --supplies
    assert _error(capsys).rstrip().endswith("gardens: error: --player: needs --supplies: the player is one of "
                                            "the supplies' owners")


def test_closest_unknown_within_the_limit_exits_3(capsys, tmp_path, monkeypatch):
    from solver.games.gardeners import api

    def unknown(*args, **kwargs):
        return type("R", (), {"verdict": "unknown", "kept": 0, "changed": 0, "bound": 36, "garden": None})()
    monkeypatch.setattr(api, "closest_solution", unknown)
    garden = tmp_path / "g.json"
    garden.write_text(json.dumps({"size": 6, "placements": []}))
    assert main(["closest", str(garden), "--cards", "S08"]) == 3               # was 1, as for unsolvable


def test_read_only_store_commands_create_nothing(tmp_path, capsys):
    missing = tmp_path / "no" / "dir" / "x.sqlite"
    for argv in (["puzzles", "list"], ["puzzles", "verify"], ["puzzles", "show", "gardeners/decree/hard/2027-01-15"],
                 ["atlas", "show", "S01,S02"]):
        assert main([*argv, "--db", str(missing)]) == 2, argv
        assert _error(capsys).startswith(f"gardens: error: --db: no puzzle store at {missing}"), argv
        assert not missing.exists() and not missing.parent.exists(), argv
    new = tmp_path / "new.sqlite"
    assert main(["puzzles", "verify", "--db", str(new)]) == 2 and not new.exists()


def test_store_options_are_checked_by_name(tmp_path, capsys):
    db = str(tmp_path / "p.sqlite")
    for argv, option in ((["puzzles", "list", "--game", "bogus"], "--game"),
                         (["puzzles", "generate", "--from", "2027-01-01", "--to", "2027-01-01", "--games", "gardeners",
                           "--variants", "holding"], "--variants"),
                         (["atlas", "build", "--sizes", "9"], "--sizes"),
                         (["atlas", "build", "--sizes", "0"], "--sizes"),
                         (["atlas", "build", "--sizes", "x"], "--sizes"),
                         (["atlas", "build", "--first", "999"], "--first"),
                         (["atlas", "show", "ZZ,S01"], "cards[0]"),
                         (["atlas", "show", "S01,S01"], "cards[1]")):
        assert main([*argv, "--db", db]) == 2, argv
        assert _error(capsys).startswith(f"gardens: error: {option}: "), argv
    for argv, option in ((["puzzles", "list", "--limit", "-1"], "--limit"),
                         (["puzzles", "generate", "--from", "2027-01-01", "--to", "2027-01-01", "--workers", "0"],
                          "--workers"),
                         (["atlas", "build", "--first", "-1"], "--first")):
        with pytest.raises(SystemExit) as exit_:
            main([*argv, "--db", db])
        assert exit_.value.code == 2 and f"argument {option}: must be an integer" in _error(capsys), argv
    assert not Path(db).exists()


def test_atlas_build_says_its_totals_are_the_whole_atlas(tmp_path, capsys):
    db = str(tmp_path / "a.sqlite")
    assert main(["atlas", "build", "--sizes", "1", "--first", "2", "--workers", "1", "--db", db]) == 0
    out = capsys.readouterr().out
    assert f"the atlas in {db} now holds (every run so far):" in out


@pytest.mark.parametrize("argv", [["gartenbau", "solve", "H", "--board", "0"],
                                  ["gartenbau", "solve", "H", "--board", "25"],
                                  ["gartenbau", "hint", "H", "--tile", "x", "--margin", "7"],
                                  ["versailles", "solve", "H", "--board", "1"]])
def test_game_options_out_of_range_are_refused(capsys, argv):
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2 and "must be an integer from" in capsys.readouterr().err


def test_only_one_input_comes_from_stdin(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO((EXAMPLES / "state.json").read_text()))
    assert main(["hint", "-", "--cards", "S16", "--supplies", "-"]) == 2
    assert _error(capsys).startswith("gardens: error: --supplies: only one input can come from stdin (-)")


def test_deduce_names_the_trial(capsys, tmp_path):
    trials = tmp_path / "t.json"
    trials.write_text(json.dumps([{"garden": {"placements": [{"tile": "Q1", "row": 0, "col": 0}]},
                                   "verdict": "angry"}]))
    assert main(["deduce", "distance", str(trials)]) == 2
    assert _error(capsys).startswith("gardens: error: trials[0].garden.placements[0].tile: unknown tile id")


def test_parse_errors_name_the_option_or_file(capsys, tmp_path):
    for upcoming in ("x,y", "11,,"):
        assert main(["versailles", "hint", str(EXAMPLES / "versailles-garden.json"), "--tile", "11",
                     "--upcoming", upcoming]) == 2
        assert _error(capsys).startswith("gardens: error: --upcoming[")
    latin = tmp_path / "latin.json"
    latin.write_bytes('{"size": 6, "placements": [], "note": "Gärten"}'.encode("latin-1"))
    assert main(["check", str(latin), "--cards", "A1"]) == 2
    assert _error(capsys).startswith(f"gardens: error: {latin}: not UTF-8 text")
    holding = tmp_path / "holding.json"
    shutil.copy(latin, holding)
    assert main(["gartenbau", "solve", str(holding)]) == 2
    assert _error(capsys).startswith(f"gardens: error: {holding}: not UTF-8 text")  # as every other command says it


def _subparsers(parser):
    for action in parser._actions:
        if action.__class__.__name__ == "_SubParsersAction":
            for name, sub in action.choices.items():
                yield name, sub
                for inner, deeper in _subparsers(sub):
                    yield f"{name} {inner}", deeper


def test_every_option_of_every_command_has_a_help_text():
    missing = [f"{name}: {'/'.join(a.option_strings) or a.dest}" for name, sub in _subparsers(build_parser())
               for a in sub._actions
               if a.help is None and a.__class__.__name__ not in ("_HelpAction", "_SubParsersAction")]
    assert not missing, missing


def test_a_complete_garden_and_a_proof_on_a_small_board_are_said_as_such(capsys, tmp_path):
    """`progress` on a solved garden said "can still be completed"; `versailles solve --board 3` said "infeasible: no
    garden found within the limit", a proof read as a timeout."""
    assert main(["solve", "--cards", "S08", "--json"]) == 0
    garden = tmp_path / "garden.json"
    garden.write_text(json.dumps(json.loads(capsys.readouterr().out)["garden"]))
    assert main(["progress", str(garden), "--cards", "S08"]) == 0
    assert capsys.readouterr().out.strip().endswith("The garden is complete and meets every card.")
    tiles = tmp_path / "tiles.json"
    tiles.write_text(json.dumps({"tiles": [5, 17, 23, 30, 7, 9, 10]}))
    assert main(["versailles", "solve", str(tiles), "--board", "3", "--time-limit", "2"]) == 1
    assert "no garden of these tiles fits a 3x3 board (proven)" in capsys.readouterr().out


def test_gartenbau_solve_chains_into_validate_score_and_reads_stdin(capsys, tmp_path, monkeypatch):
    """`gartenbau solve > gb.json; gartenbau validate gb.json` answered "garden.starter: must be an object", and the
    Gartenbau commands did not read stdin (-) as the other games' do."""
    assert main(["gartenbau", "solve", str(EXAMPLES / "gartenbau-holding.json"), "--time-limit", "20"]) == 0
    answer = capsys.readouterr().out
    solved = tmp_path / "gb.json"
    solved.write_text(answer)
    assert main(["gartenbau", "validate", str(solved)]) == 0
    assert json.loads(capsys.readouterr().out)["legal"] is True
    monkeypatch.setattr("sys.stdin", io.StringIO(answer))
    assert main(["gartenbau", "score", "-"]) == 0
    assert json.loads(capsys.readouterr().out)["total"] == json.loads(answer)["prestige"]
