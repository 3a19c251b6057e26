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
