"""`gardens horticulture ...` end to end through the real dispatcher, on the example request files."""
import json

from server.cli.main import main
from solver.games.horticulture.data import DATA_DIR

EXAMPLES = DATA_DIR / "examples"


def test_score_samantha_text_and_json(capsys):
    assert main(["horticulture", "score", str(EXAMPLES / "samantha.json")]) == 0
    assert "total 54: Greens Keeper" in capsys.readouterr().out
    assert main(["horticulture", "score", str(EXAMPLES / "samantha.json"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["total"] == 54


def test_path_reports_next_directions_and_exit_code(capsys):
    assert main(["horticulture", "path", str(EXAMPLES / "path.json")]) == 1
    out = capsys.readouterr().out
    assert "not legal" in out and "next: L, R, D" in out


def test_solve_prints_a_checked_game(tmp_path, capsys):
    request = json.loads((EXAMPLES / "solve.json").read_text())
    request["nursery"] = request["nursery"][:4]
    path = tmp_path / "solve.json"
    path.write_text(json.dumps(request))
    assert main(["horticulture", "solve", str(path), "--work", "5", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == "optimal" and len(out["days"]) == 2
    assert main(["horticulture", "solve", str(path), "--work", "5"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("optimal: score") and "window box:" in text


def test_bad_input_is_a_clean_error(tmp_path, capsys):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"side": "A", "path": {"start": 3, "moves": "DX"}}))
    assert main(["horticulture", "path", str(path)]) == 2
    assert "path.moves: unknown direction letter(s) ['X']" in capsys.readouterr().err


def test_solve_and_best_plan_answers_chain_into_validate_and_score(tmp_path, capsys):
    """`solve --json` and `best-plan --json` print a game record (the setup, then the answer): validate and score
    read it as it is, and best-plan's record carries the plan and gnome it chose, not the request's."""
    request = json.loads((EXAMPLES / "solve.json").read_text())
    request["nursery"] = request["nursery"][:6]
    path = tmp_path / "solve.json"
    path.write_text(json.dumps(request))
    for command, setup in (("solve", request), ("best-plan", {k: request[k] for k in ("side", "path", "nursery")})):
        path.write_text(json.dumps(setup))
        # (1 unit: the record is the same whether the answer is proven or not; best-plan took the whole 5 until 7 Dec)
        assert main(["horticulture", command, str(path), "--work", "1", "--json"]) == 0
        record = json.loads(capsys.readouterr().out)
        assert record["side"] == "A" and record["nursery"] == request["nursery"] and len(record["days"]) == 3
        if command == "best-plan":
            assert "plan" not in setup and record["plan"]["border"] and len(record["gnome"]) == 2
        answer = tmp_path / f"{command}-answer.json"
        answer.write_text(json.dumps(record))
        assert main(["horticulture", "validate", str(answer), "--json"]) == 0
        checked = json.loads(capsys.readouterr().out)
        assert checked["legal"] and checked["score"]["total"] == record["score"]
        assert main(["horticulture", "score", str(answer), "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["total"] == record["score"]


def test_the_drawing_names_plants_of_replaced_data(tmp_path, capsys):
    """A plants.json with other plants draws each with a letter of its own name, and a line names the letters
    (it drew "?" for every plant that was not one of the reference six)."""
    data = tmp_path / "data"
    data.mkdir()
    for name in ("plants.json", "deck.json", "scoring.json", "sheets.json"):
        (data / name).write_text((DATA_DIR / name).read_text().replace('"turnip"', '"radish"'))
    request = json.loads((EXAMPLES / "solve.json").read_text().replace('"turnip"', '"radish"'))
    request["nursery"] = request["nursery"][:4]
    path = tmp_path / "solve.json"
    path.write_text(json.dumps(request))
    assert main(["horticulture", "solve", str(path), "--work", "5", "--data", str(data)]) == 0
    out = capsys.readouterr().out
    assert "?" not in out and "window box:" in out
    assert "letters: T topiary, R radish, C carrot, S sweet_potato, F flower, B berry" in out
    reference = json.loads((EXAMPLES / "solve.json").read_text())
    reference["nursery"] = reference["nursery"][:4]
    path.write_text(json.dumps(reference))
    assert main(["horticulture", "solve", str(path), "--work", "5"]) == 0
    out = capsys.readouterr().out
    assert "window box:" in out and "letters:" not in out
