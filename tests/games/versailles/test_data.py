"""Reference data loads, is labelled, and bad data is refused with a message naming the field."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from solver.games.versailles.data import DATA_DIR, load_catalog


def test_reference_data_loads_with_the_rulebook_counts():
    cat = load_catalog()
    assert len(cat.tiles) == 72
    assert (cat.cards.low, cat.cards.high) == (1, 55)
    assert len(cat.tokens.large) == 5 and len(cat.tokens.small) == 6
    assert cat.garden_types == ("G", "B", "W", "R", "Y")
    assert cat.setup.row_tiles == {2: 21, 3: 21, 4: 28, 5: 35}
    codes = "".join("".join(t.fields) for t in cat.tiles.values())
    assert 0 < codes.count("J") < 12 and 0 < codes.count("C") < 30


def test_every_data_file_carries_the_reference_note():
    for path in DATA_DIR.glob("*.json"):
        assert "reference data" in json.loads(path.read_text())["_reference"].lower()


def _copy(tmp_path: Path) -> Path:
    target = tmp_path / "versailles"
    shutil.copytree(DATA_DIR, target)
    return target


def _edit(path: Path, change) -> None:
    doc = json.loads(path.read_text())
    change(doc)
    path.write_text(json.dumps(doc))


@pytest.mark.parametrize("file, change, message", [
    ("tiles.json", lambda d: d["tiles"][3].update(fields=["GG", "GX"]), r"tiles\[3\]\.fields\[1\]: unknown field code 'X'"),
    ("tiles.json", lambda d: d["tiles"][0].update(fields=["GGG", "GG"]), r"tiles\[0\]\.fields\[0\]: expected a string of 2"),
    ("tiles.json", lambda d: d["tiles"][5].update(id=1), r"tiles\[5\]\.id: duplicate tile id 1"),
    ("tiles.json", lambda d: d["tiles"][2].pop("fields"), r"tiles\[2\]: missing field 'fields'"),
    ("tiles.json", lambda d: d["field_types"]["J"].update(kind="wild"), r"field_types\.J\.kind: must be one of"),
    ("tiles.json", lambda d: d.pop("_reference"), r"tiles\.json: _reference"),
    ("number_cards.json", lambda d: d["values"].update(max="55"), r"values\.max: expected an integer"),
    ("majority_tokens.json", lambda d: d["large"][0].update(type="C"), r"large\[0\]\.type: field type 'C' is of kind"),
    ("majority_tokens.json", lambda d: d["small"][1].update(type="G"), r"small\[1\]\.type: duplicate small token"),
    ("setup.json", lambda d: d["row_tiles"].update({"4": 27}), r"row_tiles\.4: must be 4 seats x 7 rounds = 28"),
])
def test_bad_data_is_refused_naming_the_field(tmp_path, file, change, message):
    base = _copy(tmp_path)
    _edit(base / file, change)
    with pytest.raises(ValueError, match=message):
        load_catalog(base)


def test_a_data_directory_elsewhere_is_used(tmp_path):
    base = _copy(tmp_path)
    _edit(base / "tiles.json", lambda d: d["tiles"][0].update(fields=["JJ", "JJ"]))
    assert load_catalog(base).tiles[1].fields == ("J", "J", "J", "J")
    with pytest.raises(ValueError, match="path: not a directory"):
        load_catalog(tmp_path / "nowhere")


def test_invalid_json_is_a_value_error(tmp_path):
    base = _copy(tmp_path)
    (base / "setup.json").write_text("{not json")
    with pytest.raises(ValueError, match=r"setup\.json: not valid JSON"):
        load_catalog(base)


def test_the_number_cards_must_be_enough_to_deal_every_seat(tmp_path):
    """{min: 1, max: 5} with 10 cards dealt per stage was accepted: 5 players need 50 cards each stage."""
    base = _copy(tmp_path)
    _edit(base / "number_cards.json", lambda d: d["values"].update(min=1, max=5))
    with pytest.raises(ValueError, match=r"number_cards\.json: values: 5 cards \(1 to 5\) cannot deal 10 to each "
                                         r"of 5 seats"):
        load_catalog(base)
    # 2 players with Ludwig are 3 seats: 30 cards are enough for them
    _edit(base / "setup.json", lambda d: d.update(row_tiles={"2": 21}))
    _edit(base / "number_cards.json", lambda d: d["values"].update(min=1, max=30))
    assert load_catalog(base).cards.high == 30
    _edit(base / "number_cards.json", lambda d: d["values"].update(min=1, max=29))
    with pytest.raises(ValueError, match="cannot deal 10 to each of 3 seats"):
        load_catalog(base)


@pytest.mark.parametrize("file, change, message", [
    # a token type that is a list: TypeError unhashable (a traceback)
    ("majority_tokens.json", lambda d: d["large"][0].update(type=["G"]),
     r"large\[0\]\.type: unknown field type \['G'\]"),
    ("majority_tokens.json", lambda d: d["small"][0].update(type={"G": 1}), r"small\[0\]\.type: unknown field type"),
])
def test_a_wrong_type_is_refused_naming_the_field(tmp_path, file, change, message):
    base = _copy(tmp_path)
    _edit(base / file, change)
    with pytest.raises(ValueError, match=message):
        load_catalog(base)


@pytest.mark.parametrize("content, message", [
    (None, r"setup\.json: file not found"),
    (b"\xff\xfe{}", r"setup\.json: not UTF-8 text \(byte 0xff at offset 0\)"),
    ("dir", r"setup\.json: is a directory"),
])
def test_an_unreadable_file_is_named(tmp_path, content, message):
    base = _copy(tmp_path)
    (base / "setup.json").unlink()
    if content == "dir":
        (base / "setup.json").mkdir()
    elif content is not None:
        (base / "setup.json").write_bytes(content)
    with pytest.raises(ValueError, match=message):
        load_catalog(base)
