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
