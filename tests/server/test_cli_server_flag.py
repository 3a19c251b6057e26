"""`gardens solve/explain/check --server` ask a real running server instead of solving in-process."""
import json

from server.cli.main import main


def test_explain_and_solve_through_a_running_server(start_server, capsys, tmp_path):
    running = start_server()
    assert main(["explain", "--cards", "S04,S08", "--server", running.target]) == 1
    answer = json.loads(capsys.readouterr().out)
    assert answer["verdict"] == "SOLVABILITY_UNSOLVABLE"
    assert [c["card_ids"] for c in answer["conflicts"]] == [["S04", "S08"]]

    assert main(["solve", "--cards", "A1,B2", "--mode", "training-b", "--server", running.target]) == 0
    solved = json.loads(capsys.readouterr().out)
    assert solved["verdict"] == "SOLVABILITY_SOLVABLE" and len(solved["garden"]["placements"]) == 25

    garden = tmp_path / "garden.json"
    garden.write_text(json.dumps(solved["garden"]))
    assert main(["check", str(garden), "--cards", "A1,B2", "--mode", "training-b", "--server", running.target]) == 0
    assert json.loads(capsys.readouterr().out)["valid"] is True


def test_server_side_input_errors_are_shown_by_field(start_server, capsys):
    running = start_server()
    assert main(["solve", "--cards", "A1,NOPE", "--server", running.target]) == 2
    err = capsys.readouterr().err
    assert "INVALID_ARGUMENT" in err and "card_ids[1]" in err
