"""The data options of the command line change its answers (docs/data-files.md): the hint commands' and the atlas
commands' --catalog/--card-file, and the Versailles score labels taken from the --data directory's setup.json.
Each test runs the real dispatcher on a copy of the reference data with one thing changed."""
from __future__ import annotations

import io
import json
import re
import shutil
from pathlib import Path

import pytest

from generators import atlas
from generators.store import AtlasEntry, Store
from server.cli.main import build_parser, main

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "solver" / "data"
EXAMPLES = ROOT / "examples"
DOC = ROOT / "docs" / "data-files.md"


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _card_file(tmp_path: Path, name: str, change) -> Path:
    """The reference card file with `change(card)` applied to every card; written to tmp_path/name."""
    doc = json.loads((DATA / "gardeners" / "cards.json").read_text())
    for card in doc["cards"]:
        change(card)
    path = tmp_path / name
    path.write_text(json.dumps(doc))
    return path


def _reworded(card_id: str, kind: str, params: dict):
    """A change for _card_file: card `card_id` becomes a `kind` card with `params`, worded from them (no text)."""
    def change(card: dict) -> None:
        if card["id"] == card_id:
            card.update(kind=kind, params=params)
            card.pop("text", None)
    return change


def _renamed(tmp_path: Path) -> Path:
    """S08 (no two trees adjacent) is called X08."""
    return _card_file(tmp_path, "renamed.json", lambda c: c.update(id="X08") if c["id"] == "S08" else None)


@pytest.fixture(scope="module")
def garden_files(tmp_path_factory) -> tuple[Path, Path]:
    """A complete garden meeting S16 (6 or more Grass tiles contiguous) with the reference data, and its first 8
    tiles (a partial garden for the hint commands)."""
    from solver.core.solve import SolveControl
    from solver.games.gardeners import api
    solved = api.solve(["S16"], "normal", SolveControl(time_limit_s=20.0))
    assert solved.verdict == "solvable"
    garden = solved.garden.to_dict()
    tmp = tmp_path_factory.mktemp("gardens")
    full, partial = tmp / "full.json", tmp / "partial.json"
    full.write_text(json.dumps(garden))
    partial.write_text(json.dumps({"size": 6, "placements": garden["placements"][:8]}))
    return full, partial


def test_progress_reads_the_card_file(garden_files, capsys, tmp_path):
    full, _ = garden_files
    code, out, _ = _run(capsys, "progress", str(full), "--cards", "S16")
    assert code == 0 and out.startswith("S16  satisfied")
    stricter = _card_file(tmp_path, "stricter.json", _reworded("S16", "agglomeration", {"element": "grass", "min": 36}))
    code, out, _ = _run(capsys, "progress", str(full), "--cards", "S16", "--card-file", str(stricter))
    assert code == 1, out
    assert out.startswith("S16  broken    largest group of Grass tiles has") and "tiles, needs 36 [" in out
    assert out.rstrip().endswith("\nThe garden can no longer be completed (proven).")


def test_progress_reads_the_tile_catalog(garden_files, capsys, tmp_path):
    full, _ = garden_files
    doc = json.loads((DATA / "gardeners" / "tiles.json").read_text())
    for tile in doc["tiles"]:
        tile["background"] = "soil"
    soil = tmp_path / "soil.json"
    soil.write_text(json.dumps(doc))
    code, out, _ = _run(capsys, "progress", str(full), "--cards", "S16", "--catalog", str(soil))
    assert code == 1 and out.startswith("S16  broken    largest group of Grass tiles has 0 tiles, needs 6"), out


@pytest.mark.parametrize("argv", [["progress"], ["hint"], ["hint", "--rules", "solo", "--mode", "solo"], ["repair"],
                                  ["forced"]], ids=lambda a: " ".join(a))
def test_the_hint_commands_know_a_card_only_its_card_file_has(garden_files, capsys, tmp_path, argv):
    _, partial = garden_files
    command = [argv[0], str(partial), "--cards", "X08", *argv[1:], "--time-limit", "10"]
    code, _, err = _run(capsys, *command)
    assert code == 2 and "--cards, item 1: unknown card id (got 'X08')" in err  # the reference decks have no X08
    code, out, err = _run(capsys, *command, "--card-file", str(_renamed(tmp_path)))
    assert code in (0, 1), err  # an answer (1: none exists, proven)
    if argv[0] in ("progress", "hint"):
        assert "X08" in out


def test_hint_with_supplies_reads_the_card_file(garden_files, capsys, tmp_path):
    _, partial = garden_files
    used = {p["tile"] for p in json.loads(partial.read_text())["placements"]}
    rest = [t["id"] for t in json.loads((DATA / "gardeners" / "tiles.json").read_text())["tiles"] if t["id"] not in used]
    supplies = tmp_path / "supplies.json"
    supplies.write_text(json.dumps([{"stack": rest[:14], "loose": []}, {"stack": rest[14:], "loose": []}]))
    code, out, _ = _run(capsys, "hint", str(partial), "--cards", "X08", "--supplies", str(supplies),
                        "--card-file", str(_renamed(tmp_path)), "--time-limit", "10")
    assert code in (0, 1) and "card X08 (distance)" in out, out


def test_deduce_reads_the_card_file(capsys, tmp_path):
    trials = tmp_path / "trials.json"
    trials.write_text("[]")
    code, out, _ = _run(capsys, "deduce", "distance", str(trials))
    assert code == 0 and "S08" in out.splitlines()[0] and "X08" not in out
    code, out, _ = _run(capsys, "deduce", "distance", str(trials), "--card-file", str(_renamed(tmp_path)))
    assert code == 0 and "X08" in out.splitlines()[0] and "S08" not in out


def test_atlas_show_reads_the_rows_of_the_data_given(capsys, tmp_path):
    db = str(tmp_path / "atlas.sqlite")
    assert main(["atlas", "build", "--sizes", "1", "--first", "2", "--workers", "1", "--db", db]) == 0
    capsys.readouterr()
    code, out, _ = _run(capsys, "atlas", "show", "S01", "--db", db)
    assert code == 0 and json.loads(out)["verdict"] == "solvable"
    # other cards: the reference rows are not theirs
    other = _card_file(tmp_path, "other.json", _reworded("S01", "agglomeration", {"element": "grass", "min": 36}))
    code, out, err = _run(capsys, "atlas", "show", "S01", "--db", db, "--card-file", str(other))
    assert (code, out) == (1, "")
    assert err.startswith("not in the atlas: its entry was built from other tile or card data")
    # rows built from those cards are found with them, and only with them
    digest = atlas.atlas_digest(None, str(other))
    Store(db).put_atlas([AtlasEntry(("S03",), "unsolvable", [["S03"]], [["S03"]], True)], digest, "test")
    code, out, _ = _run(capsys, "atlas", "show", "S03", "--db", db, "--card-file", str(other))
    assert code == 0 and json.loads(out)["verdict"] == "unsolvable"
    code, out, err = _run(capsys, "atlas", "show", "S03", "--db", db)
    assert code == 1 and err.startswith("not in the atlas: its entry was built from other")


def test_atlas_show_knows_the_standard_deck_of_the_card_file(capsys, tmp_path):
    renamed = _card_file(tmp_path, "renamed.json", lambda c: c.update(id="X01") if c["id"] == "S01" else None)
    db = tmp_path / "none.sqlite"
    code, _, err = _run(capsys, "atlas", "show", "X01", "--db", str(db))
    assert code == 2 and "cards[0]: not a card of the Standard deck" in err
    code, _, err = _run(capsys, "atlas", "show", "X01", "--db", str(db), "--card-file", str(renamed))
    assert code == 2 and "--db: no puzzle store" in err  # X01 accepted; the store is missing


def test_atlas_build_with_replacement_data_builds_for_it(capsys, tmp_path):
    """The atlas of a publisher's card file: solved with it, keyed by its digest (the reference data's rows are not
    served for it, nor its rows for the reference data)."""
    db = str(tmp_path / "atlas.sqlite")
    other = _card_file(tmp_path, "other.json", lambda c: c.update(id="X01") if c["id"] == "S01" else None)
    argv = ["atlas", "build", "--sizes", "1", "--first", "1", "--workers", "1", "--db", db, "--card-file", str(other)]
    assert main(argv) == 0
    capsys.readouterr()
    code, out, _ = _run(capsys, "atlas", "show", "X01", "--db", db, "--card-file", str(other))
    assert code == 0 and json.loads(out)["cards"] == ["X01"] and json.loads(out)["verdict"] == "solvable"
    code, _, err = _run(capsys, "atlas", "show", "S01", "--db", db)  # the reference data's S01: no row for it
    assert code == 1 and err.startswith("not in the atlas")


def test_versailles_score_labels_come_from_the_data_directory(capsys, tmp_path):
    code, out, _ = _run(capsys, "versailles", "score", str(EXAMPLES / "versailles-garden.json"))
    assert code == 0
    assert "intermediate (2 largest): " in out and "final (3 largest): 12" in out
    assert "solo points (intermediate after tile 7 + final): " in out
    data = tmp_path / "versailles"
    shutil.copytree(DATA / "versailles", data)
    setup = json.loads((data / "setup.json").read_text())
    setup.update(scored_areas={"intermediate": 1, "final": 4}, rounds_per_stage=6,
                 row_tiles={"2": 18, "3": 18, "4": 24, "5": 30})
    (data / "setup.json").write_text(json.dumps(setup))
    cards = json.loads((data / "number_cards.json").read_text())
    cards["played_per_stage"] = 6
    (data / "number_cards.json").write_text(json.dumps(cards))
    code, out, _ = _run(capsys, "versailles", "score", str(EXAMPLES / "versailles-garden.json"), "--data", str(data))
    assert code == 0
    lines = out.splitlines()
    assert "intermediate (largest area): 5" in lines  # G=5, the one largest area
    assert "final (4 largest): 12" in lines
    assert any(line.startswith("solo points (intermediate after tile 6 + final): ") for line in lines)
    assert "2 largest" not in out and "3 largest" not in out and "tile 7" not in out


def _option(command: list[str], flag: str):
    parser = build_parser()
    for name in command:
        parser = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction").choices[name]
    return next(a for a in parser._actions if flag in a.option_strings)


@pytest.mark.parametrize("command", [["progress"], ["hint"], ["repair"], ["forced"], ["deduce"], ["atlas", "build"],
                                     ["atlas", "show"]], ids=lambda c: " ".join(c))
def test_the_data_options_say_their_default(command):
    for flag, default in (("--catalog", "the reference catalog"), ("--card-file", "the reference decks")):
        option = _option(command, flag)
        assert option.default is None and f"default: {default}" in option.help, (command, flag, option.help)


def test_the_versailles_data_option_says_its_default():
    for command in ("validate", "score", "score-game", "solve", "hint"):
        assert "default: the reference data" in _option(["versailles", command], "--data").help


# ---- the examples of docs/data-files.md: each loads, and the command the page quotes answers with it ----------

def _doc_examples() -> dict[str, str]:
    """The JSON examples of docs/data-files.md by their marker: {"gardeners/tiles.json": text, ...}."""
    return dict(re.findall(r"<!-- example: (\S+) -->\n```json\n(.*?)\n```", DOC.read_text(), re.S))


def _doc_directory(tmp_path: Path, game: str) -> Path:
    """The page's example files of `game` written to a directory."""
    directory = tmp_path / game
    directory.mkdir()
    for name, text in _doc_examples().items():
        if name.startswith(f"{game}/"):
            (directory / name.split("/", 1)[1]).write_text(text)
    return directory


def test_every_data_file_has_an_example_on_the_page():
    expected = {f"{game}/{name}" for game in ("gartenbau", "versailles", "horticulture")
                for name in (p.name for p in (DATA / game).glob("*.json"))}
    expected |= {"gardeners/tiles.json", "gardeners/cards.json"}
    assert set(_doc_examples()) == expected


def test_the_gardeners_examples(capsys, tmp_path):
    directory = _doc_directory(tmp_path, "gardeners")
    tiles, cards = str(directory / "tiles.json"), str(directory / "cards.json")
    code, out, _ = _run(capsys, "tiles", "--catalog", tiles, "--json")
    assert code == 0 and [t["id"] for t in json.loads(out)["tiles"]] == ["A01", "A02", "A03"]
    code, out, _ = _run(capsys, "cards", "--card-file", cards, "--json")
    listed = json.loads(out)["cards"]
    assert code == 0 and [c["id"] for c in listed] == [f"X{i:02d}" for i in range(1, 11)]
    assert {c["kind"] for c in listed} == {"proximity", "distance", "agglomeration", "panorama", "link", "border",
                                           "geometry", "path"}
    garden = tmp_path / "garden.json"
    garden.write_text(json.dumps({"size": 4, "placements": [{"tile": "A01", "row": 0, "col": 0, "rotation": 0},
                                                            {"tile": "A02", "row": 0, "col": 1, "rotation": 1}]}))
    ids = ",".join(c["id"] for c in listed)
    code, out, err = _run(capsys, "check", str(garden), "--mode", "training-a", "--cards", ids, "--catalog", tiles,
                          "--card-file", cards)
    assert code == 1 and out.rstrip().endswith("The garden is not complete yet."), err
    assert [line.split()[0] for line in out.splitlines()[:-1]] == ids.split(",")


def test_the_gartenbau_examples(capsys, tmp_path):
    directory = _doc_directory(tmp_path, "gartenbau")
    holding = tmp_path / "holding.json"
    holding.write_text(json.dumps({"starter": {"id": "ST1", "side": "a"}, "seedlings": ["S01", "S02"],
                                   "plants": ["P-red-1", "P-yellow-2"], "flowers": []}))
    code, out, err = _run(capsys, "gartenbau", "solve", str(holding), "--catalog", str(directory), "--time-limit", "10")
    assert code == 0, err
    assert json.loads(out)["status"] == "optimal"


def test_the_versailles_examples(capsys, tmp_path, monkeypatch):
    directory = _doc_directory(tmp_path, "versailles")
    monkeypatch.setattr("sys.stdin", io.StringIO('{"tiles": [1, 2, 3]}'))
    code, out, err = _run(capsys, "versailles", "solve", "-", "--data", str(directory), "--time-limit", "10")
    assert code == 0 and out.startswith("optimal: "), (out, err)


def test_the_horticulture_examples(capsys, tmp_path):
    directory = _doc_directory(tmp_path, "horticulture")
    request = tmp_path / "request.json"
    request.write_text(json.dumps({"side": "C", "path": {"start": 2, "moves": "DDDD"}, "gnome": [0, 0],
                                   "plan": {"border": "bean", "path": "leek", "companions": ["herb", "bean"]},
                                   "nursery": list(range(1, 11))}))
    code, out, err = _run(capsys, "horticulture", "solve", str(request), "--data", str(directory), "--time-limit", "10",
                          "--json")
    assert code == 0, err
    assert json.loads(out)["status"] in ("optimal", "feasible")


def test_puzzles_generate_and_verify_take_the_servers_data_flags(capsys, tmp_path, monkeypatch):
    """`gardens puzzles generate` made every puzzle with the reference data, and `verify` did not see a puzzle of
    other data: both take the server's data flags now."""
    import shutil

    db = str(tmp_path / "p.sqlite")
    data = tmp_path / "versailles"
    shutil.copytree(ROOT / "solver" / "data" / "versailles", data)
    setup = json.loads((data / "setup.json").read_text())
    setup["scored_areas"] = {"intermediate": 1, "final": 1}
    (data / "setup.json").write_text(json.dumps(setup))
    one_day = ["puzzles", "generate", "--from", "2027-01-01", "--to", "2027-01-01", "--games", "versailles",
               "--difficulties", "easy", "--workers", "1", "--db", db]
    assert main(one_day + ["--versailles-data", str(data)]) == 0
    capsys.readouterr()
    assert main(["puzzles", "verify", "--db", db, "--versailles-data", str(data)]) == 0
    assert "1 puzzles: 0 problem(s)" in capsys.readouterr().out
    assert main(["puzzles", "verify", "--db", db]) == 1  # under the reference data it is a puzzle of other data
    assert "was made with other data files" in capsys.readouterr().out
    # the server's variables count as its flags do: a cron job with the server's environment made puzzles with the
    # reference data, which that server then refused to serve
    monkeypatch.setenv("GARDENS_VERSAILLES_DATA", str(data))
    assert main(["puzzles", "verify", "--db", db]) == 0
    assert "1 puzzles: 0 problem(s)" in capsys.readouterr().out
    assert main(["puzzles", "verify", "--db", db, "--versailles-data", str(ROOT / "solver" / "data" / "versailles")]) == 1
