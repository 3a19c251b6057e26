"""`gardens gartenbau ...` reads JSON files and prints JSON."""
from __future__ import annotations

import json

from server.cli.main import main

from .test_api import GARDEN


def test_cli_validate_score_solve(tmp_path, capsys):
    garden = tmp_path / "garden.json"
    garden.write_text(json.dumps(GARDEN))
    assert main(["gartenbau", "validate", str(garden)]) == 0
    assert json.loads(capsys.readouterr().out)["legal"] is True
    assert main(["gartenbau", "score", str(garden)]) == 0
    assert json.loads(capsys.readouterr().out)["total"] == 18
    holding = tmp_path / "holding.json"
    holding.write_text(json.dumps({"starter": {"id": "ST1", "side": "a"}, "seedlings": ["S07"]}))
    assert main(["gartenbau", "solve", str(holding), "--time-limit", "10"]) == 0
    assert json.loads(capsys.readouterr().out)["status"] == "optimal"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(dict(GARDEN, plants=[], flowers=[], seedlings=[{"id": "S07", "cells": [[5, 5], [5, 6]]}])))
    assert main(["gartenbau", "validate", str(bad)]) == 1
    assert main(["gartenbau", "score", str(bad)]) == 2
    assert "connected" in capsys.readouterr().err
