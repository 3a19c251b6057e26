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
