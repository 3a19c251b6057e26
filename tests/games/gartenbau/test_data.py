"""The reference catalogs match the rulebook's counts, and bad catalogs are refused by field."""
from __future__ import annotations

import json
import shutil
from collections import Counter

import pytest

from solver.errors import InputError
from solver.games.gartenbau.data import DATA_DIR, load_catalog

from .helpers import CATALOG


def test_counts_follow_the_rulebook():
    assert len(CATALOG.seedling_tiles) == 72
    assert sum(t.players == "3-4" for t in CATALOG.seedling_tiles.values()) == 15
    assert len(CATALOG.starter_tiles) == 6 and all(len(s.sides) == 2 for s in CATALOG.starter_tiles.values())
    assert Counter(p.colour for p in CATALOG.plants.values()) == {c: 8 for c in CATALOG.colours}
    for colour in CATALOG.colours:  # stacks ascend and hold the "3 value" plant a 2-player game removes
        values = [p.prestige for p in CATALOG.plants.values() if p.colour == colour]
        assert values == sorted(values) and 3 in values
    beginners = [f for f in CATALOG.flowers.values() if f.level == "beginner"]
    advanced = [f for f in CATALOG.flowers.values() if f.level == "advanced"]
    assert len(beginners) == 30 and len(advanced) == 24
    assert Counter(f.hand for f in beginners) == {h: 5 for h in CATALOG.beginner_hands}
    rules = Counter(f.scoring.rule for f in advanced)
    assert len(rules) == 15  # 19 FAQ entries: two "24 Prestige" and three colour bonuses share rule functions
    assert sum(rules.values()) == 24


def test_beginner_hands_as_printed():
    assert [f.name for f in CATALOG.hand("beetle")] == ["Red Lily", "Cornflower", "Carnation", "Datura", "Sweet William"]
    assert [f.name for f in CATALOG.hand("bee")] == ["Sweet William", "Hybrid Tea Rose", "Cornflower",
                                                     "Forget-Me-Not", "Carnation"]
    datura = CATALOG.hand("moth")[3]
    assert datura.scoring.params["table"] == [[1, 5], [2, 8], [3, 12], [4, 17], [5, 23], [6, 28]]
    larkspur = CATALOG.hand("ant")[1]
    assert (larkspur.scoring.params["colour"], larkspur.scoring.params["base"]) == ("green", 6)
    with pytest.raises(InputError, match="hand"):
        CATALOG.hand("wasp")


def test_colour_mixing_is_data():
    assert CATALOG.allows("green", ("blue", "yellow")) and CATALOG.allows("green", ("green", "green"))
    assert not CATALOG.allows("green", ("green", "blue")) and not CATALOG.allows("red", ("red", "yellow"))


def _broken(tmp_path, name, change):
    for f in DATA_DIR.glob("*.json"):
        shutil.copy(f, tmp_path / f.name)
    doc = json.loads((tmp_path / name).read_text())
    change(doc)
    (tmp_path / name).write_text(json.dumps(doc))
    return tmp_path


@pytest.mark.parametrize("name, change, field", [
    ("plants.json", lambda d: d["plants"].__setitem__(1, dict(d["plants"][1], prestige=0)), "plants.plants[1].prestige"),
    ("plants.json", lambda d: d.pop("_reference"), "plants._reference"),
    ("plants.json", lambda d: d["plants"][0]["cost"].pop("sun"), "plants.plants[0].cost.sun"),
    ("seedlings.json", lambda d: d["tiles"][3]["seedlings"][1].__setitem__("colour", "pink"),
     "seedlings.tiles[3].seedlings[1].colour"),
    ("seedlings.json", lambda d: d["tiles"][5].__setitem__("id", "S01"), "seedlings.tiles[5].id"),
    ("flowers.json", lambda d: d["flowers"][0]["scoring"].__setitem__("rule", "bonus"), "flowers.flowers[0].scoring.rule"),
    ("flowers.json", lambda d: d["flowers"][3]["scoring"]["table"].reverse(), "flowers.flowers[3].scoring.table[1]"),
    ("flowers.json", lambda d: d["flowers"][0]["scoring"].__setitem__("extra", 1), "flowers.flowers[0].scoring.extra"),
    ("colours.json", lambda d: d["requirements"].pop("green"), "colours.requirements"),
])
def test_bad_catalogs_name_the_field(tmp_path, name, change, field):
    with pytest.raises(InputError) as err:
        load_catalog(_broken(tmp_path, name, change))
    assert err.value.field == field


def test_catalog_loads_from_another_directory(tmp_path):
    for f in DATA_DIR.glob("*.json"):
        shutil.copy(f, tmp_path / f.name)
    assert len(load_catalog(tmp_path).flowers) == 54
    with pytest.raises(InputError, match="not found"):
        load_catalog(tmp_path / "nowhere")


def _fixed_flowers(d, value):
    for f in d["flowers"]:
        if f["scoring"]["rule"] == "fixed":
            f["scoring"]["prestige"] = value


@pytest.mark.parametrize("name, change, field", [
    # absurd sizes: a 2**62 plant or a 10**25 flower made the solver answer MODEL_INVALID, naming nothing
    ("plants.json", lambda d: d["plants"][-1].__setitem__("prestige", 2**62), "plants.plants[47].prestige"),
    ("flowers.json", lambda d: _fixed_flowers(d, 10**25), "flowers.flowers[0].scoring.prestige"),
    ("plants.json", lambda d: d["plants"][0]["cost"].__setitem__("water", 10**9), "plants.plants[0].cost.water"),
    ("flowers.json", lambda d: d["flowers"][3]["scoring"]["table"][-1].__setitem__(0, 10**6),
     "flowers.flowers[3].scoring.table[5][0]"),
    ("flowers.json", lambda d: d["flowers"][3]["scoring"]["table"][-1].__setitem__(1, 10**7),
     "flowers.flowers[3].scoring.table[5][1]"),
    ("plants.json", lambda d: d.__setitem__("two_player_removed_prestige", 10**7),
     "plants.two_player_removed_prestige"),
    # wrong types: a TypeError in a join, unhashable ids
    ("flowers.json", lambda d: d.__setitem__("beginner_hands", [1, 2]), "flowers.beginner_hands[0]"),
    ("seedlings.json", lambda d: d["tiles"][4].__setitem__("id", ["S05"]), "seedlings.tiles[4].id"),
    ("plants.json", lambda d: d["plants"][2].__setitem__("cost", [1, 2]), "plants.plants[2].cost"),
    ("seedlings.json", lambda d: d["tiles"][0]["seedlings"].__setitem__(0, "red"), "seedlings.tiles[0].seedlings[0]"),
    ("colours.json", lambda d: d["requirements"]["green"].__setitem__(0, [["green"], "blue"]),
     "colours.requirements.green[0]"),
    # tiles that are not objects were reported as "seedlings.tiles[1].id: duplicate id"
    ("seedlings.json", lambda d: d["tiles"].__setitem__(0, 1) or d["tiles"].__setitem__(1, 2), "seedlings.tiles[0]"),
    ("flowers.json", lambda d: d["flowers"].__setitem__(2, "Carnation"), "flowers.flowers[2]"),
    # inconsistent data: a repeated colour or hand
    ("seedlings.json", lambda d: d["colours"].append("red"), "seedlings.colours[6]"),
    ("seedlings.json", lambda d: d["types"].append("leaf"), "seedlings.types[3]"),
    ("flowers.json", lambda d: d["beginner_hands"].append("beetle"), "flowers.beginner_hands[6]"),
    ("flowers.json", lambda d: d["beginner_hands"].append("wasp"), "flowers.beginner_hands[6]"),
    # unknown (misspelt) keys are refused, not ignored; notes starting with "_" are kept
    ("plants.json", lambda d: d["plants"][0].__setitem__("prestiege", 3), "plants.plants[0].prestiege"),
    ("seedlings.json", lambda d: d.__setitem__("colors", []), "seedlings.colors"),
    ("flowers.json", lambda d: d["flowers"][40].__setitem__("hand", "beetle"), "flowers.flowers[40].hand"),
])
def test_bad_values_and_types_name_the_field(tmp_path, name, change, field):
    with pytest.raises(InputError) as err:
        load_catalog(_broken(tmp_path, name, change))
    assert err.value.field == field
    assert str(err.value).startswith(f"{tmp_path / name}: {field}: ")  # the message names the file too


def test_bounds_are_generous(tmp_path):
    """The largest values the bounds allow still load (far above any printed value)."""
    def change(d):
        d["plants"][-1]["prestige"] = 10**6
        d["plants"][-1]["cost"] = {"sun": 500, "water": 500}
    assert load_catalog(_broken(tmp_path, "plants.json", change)).plants["P-purple-8"].prestige == 10**6


def test_notes_are_not_unknown_keys(tmp_path):
    def change(d):
        d["_comment"] = "transcribed by hand"
        d["plants"][0]["_note"] = "first in its stack"
    assert len(load_catalog(_broken(tmp_path, "plants.json", change)).plants) == 48


def test_an_unreadable_file_is_named(tmp_path):
    for f in DATA_DIR.glob("*.json"):
        shutil.copy(f, tmp_path / f.name)
    (tmp_path / "flowers.json").write_bytes(b"\xff{}")
    with pytest.raises(InputError, match=r"flowers\.json: not UTF-8 text \(byte 0xff at offset 0\)"):
        load_catalog(tmp_path)
    (tmp_path / "flowers.json").unlink()
    (tmp_path / "flowers.json").mkdir()
    with pytest.raises(InputError, match=r"flowers\.json: is a directory"):
        load_catalog(tmp_path)
