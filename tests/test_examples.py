"""The input files in examples/ (used by the README and the game docs' command lines) stay valid: each is run
through the command the docs give it, with the answer the docs quote."""
from __future__ import annotations

import json
from pathlib import Path

from server.cli.main import main

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def run(capsys, *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    return code, capsys.readouterr().out


def test_every_example_file_is_used_by_a_test_here():
    used = {"state.json", "gartenbau-garden.json", "gartenbau-holding.json", "gartenbau-known.json",
            "versailles-tiles.json", "versailles-garden.json", "versailles-game.json"}
    assert {p.name for p in EXAMPLES.iterdir()} == used


def test_the_versailles_examples(capsys):
    assert run(capsys, "versailles", "validate", str(EXAMPLES / "versailles-garden.json")) == (0, "legal\n")
    code, out = run(capsys, "versailles", "score", str(EXAMPLES / "versailles-garden.json"))
    assert code == 0 and "final (3 largest): 12" in out
    code, out = run(capsys, "versailles", "score-game", str(EXAMPLES / "versailles-game.json"))
    assert code == 0 and "winner(s): Sophie" in out
    code, out = run(capsys, "versailles", "solve", str(EXAMPLES / "versailles-tiles.json"), "--time-limit", "5")
    assert code == 0 and out.startswith("optimal: 9 points")


def test_the_gartenbau_examples(capsys):
    code, out = run(capsys, "gartenbau", "solve", str(EXAMPLES / "gartenbau-holding.json"), "--time-limit", "20",
                    "--picture")
    assert code == 0 and out.startswith("..**\nrO**\nyO..\n")
    answer = json.loads(out.split("\n", 3)[3])
    assert (answer["status"], answer["prestige"], answer["bound"]) == ("optimal", 22, 22)
    code, out = run(capsys, "gartenbau", "validate", str(EXAMPLES / "gartenbau-garden.json"))
    assert code == 0 and json.loads(out)["legal"]
    # the known tiles: ids of the catalog, none of them in the example garden (the hint's search takes ~15 s:
    # the docs' figure; here only what it reads)
    from solver.games.gartenbau.data import load_catalog
    catalog = load_catalog()
    known = json.loads((EXAMPLES / "gartenbau-known.json").read_text())
    assert set(known) == {"seedlings", "plants", "flowers"}
    assert set(known["seedlings"]) <= set(catalog.seedling_tiles) and set(known["plants"]) <= set(catalog.plants)
    assert set(known["flowers"]) <= set(catalog.flowers)


def test_a_gartenbau_hint_with_no_legal_placement_exits_1(capsys):
    """A plant no pair of the example garden's seedlings can take: no option, exit 1 ("no", as the other hints;
    it exited 0)."""
    code, out = run(capsys, "gartenbau", "hint", str(EXAMPLES / "gartenbau-garden.json"), "--tile", "P-red-1")
    assert code == 1 and json.loads(out)["options"] == []
