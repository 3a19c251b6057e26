"""The `gardens call/health` CLI against a real server, the examples of docs/service.md, and configuration."""
from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

import pytest

from game_docs import flatten
from server import config as config_mod
from server.cli.main import main

DOC = Path(__file__).resolve().parents[2] / "docs" / "service.md"


def doc_examples() -> list[tuple[str, str, str]]:
    """(method, request JSON, the abridged answer in the comment lines after it) per `gardens call` example."""
    text = DOC.read_text()
    block = text.split("## One example per RPC", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    examples = []
    for m in re.finditer(r"^gardens call (\w+)(?: '([^']*)')?\n((?:# .*\n)*)", block, re.M):
        examples.append((m.group(1), m.group(2) or "{}", m.group(3)))
    return examples


def test_every_rpc_has_a_doc_example_and_cli_help():
    from gardens.v1 import gardeners_pb2
    from server.cli.client import METHODS
    methods = {m.name for m in gardeners_pb2.DESCRIPTOR.services_by_name["GardenersService"].methods}
    assert methods <= {method for method, _, _ in doc_examples()}
    assert methods == set(METHODS.split(", "))
    from server import remote
    known = remote.methods()
    assert all(m in known and f"GardenersService.{m}" in known for m in methods)


@pytest.mark.parametrize("method,request_json,answer", doc_examples(),
                         ids=[f"{i}-{m}" for i, (m, _, _) in enumerate(doc_examples())])
def test_doc_example_runs_and_answers_as_documented(start_server, capsys, method, request_json, answer):
    srv = start_server(with_probe=False)
    code = main(["call", "--server", srv.target, method, request_json])
    out, err = capsys.readouterr()
    if answer.startswith("# INVALID_ARGUMENT"):
        assert code == 2  # an RPC error: exit 2 (README "Exit codes")
        for line in answer.splitlines()[1:]:
            assert line[1:].strip() in err
        return
    assert code == 0, err
    got = flatten(json.loads(out), set())
    documented = re.findall(r'"(\w+)": ("[^"]*"|true|false|-?\d+)', answer)
    assert documented
    for key, value in documented:
        if value.startswith('"') and value.endswith('..."'):
            continue  # an abridged text
        assert (key, value) in got, (key, value)


def test_cli_health_and_token(start_server, capsys, monkeypatch):
    srv = start_server(with_probe=False, auth_token="s3cret")
    assert main(["health", "--server", srv.target]) == 0
    assert capsys.readouterr().out.strip() == "SERVING"
    assert main(["call", "--server", srv.target, "ListCards", '{"deck": "training-c"}']) == 2  # refused: 2 (README "Exit codes")
    assert "UNAUTHENTICATED" in capsys.readouterr().err
    assert main(["call", "--server", srv.target, "--token", "s3cret", "ListCards", '{"deck": "training-c"}']) == 0
    assert len(json.loads(capsys.readouterr().out)["cards"]) == 5
    # the Gardeners commands take the token too (flag or GARDENS_TOKEN): they could not reach such a server
    explain = ["explain", "--cards", "S04,S08", "--server", srv.target]
    assert main(explain) == 2 and "UNAUTHENTICATED" in capsys.readouterr().err
    assert main(explain + ["--token", "s3cret"]) == 1 and "S04+S08" in capsys.readouterr().out
    monkeypatch.setenv("GARDENS_TOKEN", "s3cret")
    assert main(explain) == 1 and "S04+S08" in capsys.readouterr().out


def test_cli_refuses_unknown_methods_and_bad_json(start_server, capsys):
    srv = start_server(with_probe=False)
    assert main(["call", "--server", srv.target, "Frobnicate"]) == 2
    assert "unknown method" in capsys.readouterr().err
    assert main(["call", "--server", srv.target, "Solve", '{"card_ids": 3}']) == 2
    assert "not a valid Solve message" in capsys.readouterr().err


def test_cli_names_the_services_of_a_shared_method_and_suggests_close_names(start_server, capsys):
    srv = start_server(with_probe=False)
    garden = '{"garden": {"placements": [{"tile": 4, "x": 0, "y": 0}, {"tile": 5, "x": 2, "y": 0}]}}'
    for shared in ("Score", "Validate", "SolveOptimal", "Hint"):
        assert main(["call", "--server", srv.target, shared, garden]) == 2
        err = capsys.readouterr().err
        assert (f"method '{shared}' is in 3 services: GartenbauService.{shared}, HorticultureService.{shared}, "
                f"VersaillesService.{shared}; name one") in err, err
    assert main(["call", "--server", srv.target, "VersaillesService.Score", garden]) == 0
    assert json.loads(capsys.readouterr().out)["tiles"] == 2
    assert main(["call", "--server", srv.target, "GardenersService.ListCards", '{"deck": "training-c"}']) == 0
    assert len(json.loads(capsys.readouterr().out)["cards"]) == 5
    assert main(["call", "--server", srv.target, "ListTile"]) == 2
    err = capsys.readouterr().err
    assert "unknown method 'ListTile'; did you mean ListTiles" in err, err
    assert main(["call", "--server", srv.target, "Scor"]) == 2
    assert "did you mean Score or ScoreGame?" in capsys.readouterr().err


def test_config_flags_override_env_which_overrides_defaults():
    parser = argparse.ArgumentParser()
    config_mod.add_arguments(parser)
    env = {"GARDENS_WORKERS": "3", "GARDENS_TIME_CAP_S": "2.5", "GARDENS_AUTH_TOKEN": "t"}
    config = config_mod.from_args(parser.parse_args(["--workers", "5"]), env)
    assert (config.workers, config.time_cap_s, config.auth_token) == (5, 2.5, "t")
    assert config.address == "localhost:50051"
    with pytest.raises(ValueError, match="GARDENS_WORKERS"):
        config_mod.from_args(parser.parse_args([]), {"GARDENS_WORKERS": "many"})
    with pytest.raises(ValueError, match="tls_cert and tls_key"):
        config_mod.from_args(parser.parse_args(["--tls-cert", "c.pem"]), {})


def flag_table() -> dict[str, str]:
    """docs/service.md's flag table: each `--flag` of the first column -> that row's default column."""
    out = {}
    for line in DOC.read_text().split("| flag | default | meaning |", 1)[1].split("\n\n", 1)[0].splitlines()[2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        for flag in re.findall(r"`(--[a-z-]+)`", cells[0]):
            out[flag] = cells[1]
    return out


def test_flag_table_lists_every_server_flag_with_the_puzzle_defaults_the_code_uses():
    """--puzzles-db, --puzzles-past-days and --puzzles-future-days were missing from the table."""

    from server.services.puzzles import settings_for

    table = flag_table()
    assert {"--" + f.name.replace("_", "-") for f in config_mod.settings()} <= set(table)
    assert set(config_mod.HELP) == {f.name for f in config_mod.settings()}  # every flag has a --help text
    parser = argparse.ArgumentParser()
    config_mod.add_arguments(parser)
    settings = settings_for(config_mod.from_args(parser.parse_args([]), {}), env={})
    assert table["--puzzles-db"].startswith(f"`{settings.db}`")
    assert table["--puzzles-past-days"] == table["--puzzles-future-days"] == \
        f"{settings.past_days}, {settings.future_days}"
    flagged = settings_for(config_mod.from_args(
        parser.parse_args(["--puzzles-past-days", "0", "--puzzles-future-days", "2", "--puzzles-db", "x.sqlite"]),
        {}), env={"GARDENS_PUZZLES_PAST_DAYS": "5"})
    assert (flagged.db, flagged.past_days, flagged.future_days) == ("x.sqlite", 0, 2)


def test_puzzles_list_says_what_each_game_gives_the_player():
    from server.cli.puzzles import _summary

    assert _summary({"card_ids": ["S05", "S33"], "mode": "solo"}) == "S05 S33"
    assert _summary({"tiles": [26, 36, 49], "first_stage_tiles": 7}) == "3 tiles: 26 36 49"
    assert _summary({"holding": {"seedlings": ["S23", "S24"], "plants": ["P-orange-1"], "flowers": [],
                                 "starter": {"id": "ST5"}}}) == "2 seedlings, 1 plant, 0 flowers"
    assert _summary({"setup": {"side": "A", "nursery": [42, 8, 13, 44]}}) == "side A, 4 cards"
    assert _summary({"attempts": 1}) == ""


def test_cli_json_keeps_short_lists_and_objects_on_one_line_and_reads_back_the_same():
    from server.cli.files import dumps

    doc = {"status": "optimal", "garden": {"starter": {"id": "ST1", "cells": [[0, 0], [0, 1]]},
                                          "plants": [{"id": f"P-red-{i}", "cells": [[0, i], [1, i]]} for i in range(6)]},
           "empty": [], "none": None, "text": "Gärten"}
    text = dumps(doc)
    assert json.loads(text) == doc
    assert '"cells": [[0, 0], [0, 1]]' in text and '{"id": "P-red-5", "cells": [[0, 5], [1, 5]]}' in text
    assert len(text.splitlines()) == 17 and max(map(len, text.splitlines())) <= 100
    assert dumps([1, 2]) == "[1, 2]" and dumps("x") == '"x"'
