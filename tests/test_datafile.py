"""solver/core/datafile.py: a data file that cannot be read, is not UTF-8 JSON, or breaks its schema is refused with
an InputError naming the file (it said "'utf-8' codec can't decode byte 0xff" or a bare "[Errno 2]" before)."""
from __future__ import annotations

import pytest

from solver.core.datafile import DataFileError, load_data_file
from solver.errors import InputError


def _parse(doc, source):
    if not isinstance(doc, dict) or "x" not in doc:
        raise InputError("x", "required", doc)
    return doc["x"]


def test_a_good_file_loads_and_is_cached(tmp_path):
    path = tmp_path / "good.json"
    path.write_text('{"x": 1}')
    assert load_data_file(path, tmp_path / "default.json", "catalog", _parse) == 1
    path.write_text('{"x": 2}')
    assert load_data_file(path, tmp_path / "default.json", "catalog", _parse) == 1  # read once per path


@pytest.mark.parametrize("make, says", [
    (lambda p: None, "file not found"),
    (lambda p: p.mkdir(), "is a directory, not a JSON file"),
    (lambda p: p.write_bytes(b'{"x": "\xff"}'), "not UTF-8 text (byte 0xff at offset 7)"),
    (lambda p: p.write_text("{not json"), "not valid JSON (Expecting property name enclosed in double quotes"),
])
def test_an_unreadable_file_is_named(tmp_path, make, says):
    path = tmp_path / "data.json"
    make(path)
    with pytest.raises(InputError) as err:
        load_data_file(path, tmp_path / "default.json", "catalog", _parse)
    assert str(err.value).startswith(f"{path}: {says}")
    assert err.value.field == "catalog" and isinstance(err.value, ValueError)


def test_a_schema_error_names_the_file_and_keeps_the_field(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('{"y": 1}')
    with pytest.raises(DataFileError) as err:
        load_data_file(path, tmp_path / "default.json", "catalog", _parse)
    assert err.value.field == "x" and err.value.file == str(path)
    assert str(err.value) == f"{path}: x: required (got {{'y': 1}})"


def test_an_unreadable_file_is_not_cached(tmp_path):
    path = tmp_path / "late.json"
    with pytest.raises(InputError):
        load_data_file(path, tmp_path / "default.json", "catalog", _parse)
    path.write_text('{"x": 3}')
    assert load_data_file(path, tmp_path / "default.json", "catalog", _parse) == 3


def test_a_name_in_another_letter_case_is_the_name():
    """Gartenbau names its starter sides "a"/"b", Horticulture its sheets "A"/"B": each game takes the other's
    case (a client writing one game's way was refused by the other: the client walkthrough of 7 Dec); anything
    else is left for the caller to refuse, and a name two names could be is not guessed."""
    from solver.core.datafile import named
    from solver.games.gartenbau import api as gartenbau
    from solver.games.horticulture import api as horticulture

    assert named("a", {"A": 1, "B": 2}) == "A" and named("B", ["a", "b"]) == "b" and named("C", ["a"]) == "C"
    assert named("x", ["X", "x"]) == "x" and named("ab", ["Ab", "aB"]) == "ab" and named("Y", ["y", "Y "]) == "y"
    assert named("Z", ["z", "Z2"]) == "z" and named("q", ["Q", "k"]) == "Q" and named(3, ["3"]) == 3
    garden = {"starter": {"id": "ST1", "side": "A", "cells": [[0, 0], [0, 1]]}, "tokens": {}}
    assert gartenbau.validate(garden)["legal"]
    solved = gartenbau.solve_optimal({"starter": {"id": "ST1", "side": "B"}, "seedlings": ["S07"]}, time_limit_s=5)
    assert solved["garden"]["starter"]["side"] == "b"
    assert horticulture.validate_path({"side": "a", "path": {"start": 3, "moves": "DDDDDDD"}})["legal"]
    assert horticulture.default_path("b") == horticulture.default_path("B")
