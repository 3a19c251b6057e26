"""The `gardens` command line for Gardeners, in-process: exit codes, grids, JSON, errors by field."""
import json

from server.cli.main import main


def test_solve_prints_a_readable_grid_and_check_agrees(capsys, tmp_path):
    assert main(["solve", "--cards", "A1,B2", "--mode", "training-b"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("solvable") and len(out.strip().splitlines()) == 1 + 2 * 5
    assert main(["solve", "--cards", "A1,B2", "--mode", "training-b", "--json"]) == 0
    garden = json.loads(capsys.readouterr().out)["garden"]
    path = tmp_path / "garden.json"
    path.write_text(json.dumps(garden))
    assert main(["check", str(path), "--cards", "A1,B2", "--mode", "training-b"]) == 0
    assert "His Majesty is thrilled!" in capsys.readouterr().out
    assert main(["check", str(path), "--cards", "A3", "--mode", "training-b"]) in (0, 1)


def test_explain_names_the_conflict_and_the_discards(capsys):
    assert main(["explain", "--cards", "S04,S08,S01"]) == 1
    out = capsys.readouterr().out
    assert "minimal conflicting sets: S04+S08" in out and "discard one of: S04; S08" in out
    assert "incomplete" not in out  # 3 cards: both lists enumerated
    # 9 Beginner cards, past the enumeration: S42+S45 conflicts too, so {S59, S45} is a discard set not shown
    assert main(["explain", "--cards", "S59,S02,S49,S34,S20,S42,S06,S45,S17", "--mode", "beginner"]) == 1
    assert "(the lists may be incomplete: with more than 8 cards only one conflict is searched)" in \
        capsys.readouterr().out
    # with no discard proven the line says so (it printed an empty "discard one of:")
    assert main(["explain", "--cards", "S04,S08,S01,S09,S07,S10,S16,S18,S32"]) == 1
    assert "discard one of: (none proven)" in capsys.readouterr().out
    # 10 cards whose one conflict's cards are each a discard alone: the discards are complete, the conflicts not
    assert main(["explain", "--cards", "S01,S04,S08,S16,S20,S25,S33,S39,S47,S55"]) == 1
    assert "(the conflicting sets may be incomplete: with more than 8 cards only one conflict is searched)" in \
        capsys.readouterr().out
    # a limit reached below 9 cards says so
    assert main(["explain", "--cards", "S54,S57,S59,S41,S44", "--time-limit", "0.05"]) in (1, 3)
    out = capsys.readouterr().out
    assert "with more than" not in out and ("limit reached" in out or "incomplete" not in out)
    assert main(["explain", "--cards", "S01,S04,S08,S16,S20,S25,S33,S39,S47,S55", "--json"]) == 1
    answer = json.loads(capsys.readouterr().out)
    assert (answer["complete"], answer["discards_complete"]) == (False, True)


def test_bad_input_is_an_error_naming_the_field(capsys, tmp_path):
    assert main(["solve", "--cards", "A1,Z9"]) == 2
    assert "--cards, item 2: unknown card id (got 'Z9')" in capsys.readouterr().err  # (the option, not card_ids[1])
    trials = tmp_path / "trials.json"
    trials.write_text("[]")
    assert main(["deduce", "distance", str(trials), "--exclude", "S08,S08"]) == 2
    assert "--exclude, item 2: card given twice (got 'S08')" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"size": 6, "placements": [{"tile": "A01", "row": 9, "col": 0, "rotation": 0}]}))
    assert main(["check", str(bad), "--cards", "A1"]) == 2
    assert "placements[0].row" in capsys.readouterr().err


def test_count_and_closest(capsys, tmp_path):
    assert main(["count", "--cards", "A1,A2,A3,A4", "--mode", "training-a", "--cap", "3", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"count": 3, "complete": False}
    assert main(["solve", "--cards", "S08", "--json"]) == 0
    garden = json.loads(capsys.readouterr().out)["garden"]
    path = tmp_path / "g.json"
    path.write_text(json.dumps(garden))
    assert main(["closest", str(path), "--cards", "S08", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["changed"] == 0


def test_check_reads_a_solve_answer_from_stdin(capsys, monkeypatch):
    """`gardens solve --json | gardens check -`: the answer document is read as its garden (it was
    read as an empty garden: every card "open", "not complete yet")."""
    import io

    assert main(["solve", "--cards", "A1,B2", "--mode", "training-b", "--json"]) == 0
    answer = capsys.readouterr().out
    assert "verdict" in json.loads(answer)
    monkeypatch.setattr("sys.stdin", io.StringIO(answer))
    assert main(["check", "-", "--cards", "A1,B2", "--mode", "training-b"]) == 0
    assert "His Majesty is thrilled!" in capsys.readouterr().out


def test_a_garden_with_an_unknown_field_is_an_error_naming_it(capsys, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"size": 6, "placement": []}))
    assert main(["check", str(bad), "--cards", "A1"]) == 2
    err = capsys.readouterr().err
    assert "placement" in err and "unknown field" in err


def test_a_reader_that_stops_early_is_no_error():
    """`gardens cards | head -1`: the closed pipe used to print "gardens: error: [Errno 32] Broken pipe"."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    proc = subprocess.Popen([sys.executable, "-m", "server.cli.main", "cards", "--deck", "standard"], cwd=root,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout.readline().startswith(b"S01")
    proc.stdout.close()  # the reader goes away with most of the output unread
    err = proc.stderr.read()
    assert proc.wait(timeout=60) == 0 and b"Broken pipe" not in err, err


def test_moves_prints_each_move_as_the_json_that_move_reads(capsys, tmp_path):
    """`gardens moves` printed Python reprs (`Move(kind='add', ...)`); now one JSON move per line,
    each of which `--move` accepts back as legal, after a count; `--json` is as before."""
    normal = {"garden": [{"tile": "A01", "row": 0, "col": 0}, {"tile": "A05", "row": 0, "col": 1}],
              "supplies": [{"stack": ["A02", "A03"]}, {"loose": ["A04"]}]}
    solo = {"mode": "solo", "size": 2, "garden": [{"tile": "A01", "row": 0, "col": 0, "rotation": 1}],
            "pool": ["A02"]}
    for name, state in (("normal", normal), ("solo", solo)):
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(state))
        assert main(["moves", str(path)]) == 0
        first, *lines = capsys.readouterr().out.strip().splitlines()
        assert main(["moves", str(path), "--json"]) == 0
        as_json = json.loads(capsys.readouterr().out)["moves"]
        assert first == f"{len(as_json)} legal moves" and len(lines) == len(as_json)
        assert "Move(" not in "".join(lines)
        kinds = set()
        for line, full in zip(lines, as_json):
            move = json.loads(line)
            kinds.add(move["kind"])
            # the same move as --json's, without the fields its kind does not use
            assert {k: v for k, v in full.items() if k in move} == move
            assert ("player" in move) == (name == "normal" and move["kind"] in ("add", "remove"))
            assert main(["moves", str(path), "--move", line]) == 0, line
            assert capsys.readouterr().out.strip() == "legal"
        assert kinds == ({"add", "remove"} if name == "normal" else {"add", "remove", "rotate", "swap"})
    assert main(["moves", str(path), "--move", '{"kind": "rotate", "cell": [0, 0], "rotation": 1}']) == 1
    assert "already lies in rotation 1" in capsys.readouterr().out


def test_hint_and_repair_take_both_removal_spellings_and_say_their_default(capsys, tmp_path):
    """`repair` had only --removal-rules (default off) and `hint` only --free-removal (default on);
    both now take both, and their --help names the default."""
    import contextlib
    import io

    import pytest

    for command, default in (("hint", "--removal-rules"), ("repair", "--free-removal")):
        with pytest.raises(SystemExit), contextlib.redirect_stdout(io.StringIO()) as help_text:
            main([command, "--help"])
        flat = " ".join(help_text.getvalue().split("options:", 1)[1].split())
        assert f"{default} " in flat and flat.count("(the default)") == 1, flat
        chosen = flat.split(default + " ", 1)[1].split(" --", 1)[0]
        assert "(the default)" in chosen, flat
        with pytest.raises(SystemExit):
            main([command, "g.json", "--cards", "S08", "--removal-rules", "--free-removal"])
        assert "not allowed with argument" in capsys.readouterr().err

    # a full S08+S16 garden with two interior tiles swapped: under the removal rules a way in from
    # the edge has to be opened, so the repair removes more tiles and the hint starts at the edge
    assert main(["solve", "--cards", "S08,S16", "--json"]) == 0
    placements = json.loads(capsys.readouterr().out)["garden"]["placements"]
    inner = [i for i, p in enumerate(placements) if 1 <= p["row"] <= 4 and 1 <= p["col"] <= 4]
    path = tmp_path / "swapped.json"
    for a, b in ((a, b) for a in inner for b in inner if a < b):
        swapped = [dict(p) for p in placements]
        for key in ("tile", "rotation"):
            swapped[a][key], swapped[b][key] = placements[b][key], placements[a][key]
        path.write_text(json.dumps({"size": 6, "placements": swapped}))
        if main(["check", str(path), "--cards", "S08,S16"]) == 1:
            break
    capsys.readouterr()

    def answer(*argv):
        assert main([*argv, str(path), "--cards", "S08,S16", "--json"]) == 0
        return json.loads(capsys.readouterr().out)

    free, ruled = answer("repair"), answer("repair", "--removal-rules")
    assert answer("repair", "--free-removal") == free
    assert free["verdict"] == ruled["verdict"] == "optimal"
    assert len(ruled["remove"]) > len(free["remove"]) >= 1
    hint = answer("hint")
    assert answer("hint", "--removal-rules") == hint
    assert hint["move"]["kind"] == "remove" and hint["move"]["cell"] in ruled["remove"]
    free_hint = answer("hint", "--free-removal")
    assert free_hint["move"]["kind"] == "remove" and free_hint["move"]["cell"] != hint["move"]["cell"]


def test_progress_says_what_an_open_card_has_at_risk(capsys, tmp_path):
    """An open card's reason read as a violation: "S45 possible fuchsia trees not in the interior"."""
    garden = tmp_path / "g.json"
    garden.write_text(json.dumps({"size": 6, "placements": [{"tile": "A03", "row": 0, "col": 0, "rotation": 0},
                                                            {"tile": "A01", "row": 0, "col": 1, "rotation": 0}]}))
    assert main(["progress", str(garden), "--cards", "S45,S08", "--floating"]) == 1
    out = capsys.readouterr().out
    assert "S45  possible  at risk: fuchsia trees not in the interior" in out
    assert "S08  broken    trees next to trees" in out
