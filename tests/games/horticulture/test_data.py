"""Horticulture catalogs: reference content, alternative paths, precise schema errors."""
import json
import shutil

import pytest

from solver.games.horticulture.data import DATA_DIR, default_catalog, load_catalog, load_deck, load_sheets


def test_reference_catalog_content():
    cat = default_catalog()
    assert [(p.id, p.minimum_group_size) for p in cat.plants.values()] == [
        ("topiary", 1), ("turnip", 2), ("carrot", 3), ("sweet_potato", 4), ("flower", 5), ("berry", 6)]
    assert sorted(cat.sheet("A").start_positions) == [1, 2, 3, 4, 5]
    assert sorted(cat.sheet("B").start_positions) == [1, 2, 3, 4, 5, 6]
    assert cat.sheet("A").window_box_slots == 6
    assert len(cat.deck.cards) == 54
    assert any(cat.wild in c.plants for c in cat.deck.cards.values())
    assert [cat.deck.size_for(n) for n in (1, 2, 3, 4, 5, 6, 7, 9)] == [32, 32, 30, 32, 30, 36, 32, 32]
    for name in ("sheets", "plants", "deck", "scoring"):
        assert json.loads((DATA_DIR / f"{name}.json").read_text())["_reference"]


def test_start_positions_never_on_side_edges():
    for sheet in default_catalog().sheets.values():
        assert all(0 < line < sheet.columns for line in sheet.start_positions.values())


def test_catalog_loads_from_another_directory(tmp_path):
    for f in DATA_DIR.glob("*.json"):
        shutil.copy(f, tmp_path / f.name)
    doc = json.loads((tmp_path / "sheets.json").read_text())
    doc["sheets"]["A"]["rows"] = 9
    (tmp_path / "sheets.json").write_text(json.dumps(doc))
    assert load_catalog(tmp_path).sheet("A").rows == 9


def _write(tmp_path, name, doc):
    p = tmp_path / name
    p.write_text(json.dumps(doc))
    return p


def test_sheet_errors_name_the_field(tmp_path):
    doc = json.loads((DATA_DIR / "sheets.json").read_text())
    doc["sheets"]["A"]["start_positions"]["6"] = 6
    with pytest.raises(ValueError, match=r"sheets\.A\.start_positions\.6"):
        load_sheets(_write(tmp_path, "s.json", doc))
    doc = json.loads((DATA_DIR / "sheets.json").read_text())
    doc["sheets"]["B"]["columns"] = "7"
    with pytest.raises(ValueError, match=r"sheets\.B\.columns"):
        load_sheets(_write(tmp_path, "s.json", doc))
    doc = json.loads((DATA_DIR / "sheets.json").read_text())
    del doc["_reference"]
    with pytest.raises(ValueError, match="_reference"):
        load_sheets(_write(tmp_path, "s.json", doc))


def test_deck_errors_name_the_field(tmp_path):
    doc = json.loads((DATA_DIR / "deck.json").read_text())
    doc["cards"][3]["plants"] = ["turnip", "cactus"]
    with pytest.raises(ValueError, match=r"cards\[3\]\.plants\[1\].*cactus"):
        load_deck(_write(tmp_path, "d.json", doc))
    doc = json.loads((DATA_DIR / "deck.json").read_text())
    doc["cards"][5]["id"] = 1
    with pytest.raises(ValueError, match=r"cards\[5\]\.id: duplicate"):
        load_deck(_write(tmp_path, "d.json", doc))
    doc = json.loads((DATA_DIR / "deck.json").read_text())
    doc["cards"] = doc["cards"][:20]
    with pytest.raises(ValueError, match=r"deck_size_by_gardeners\.1"):
        load_deck(_write(tmp_path, "d.json", doc))
    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(ValueError, match="not valid JSON"):
        load_deck(tmp_path / "bad.json")


def test_lookup_errors():
    cat = default_catalog()
    with pytest.raises(ValueError, match="side: unknown sheet side 'C'"):
        cat.sheet("C")
    with pytest.raises(ValueError, match="plan.border: unknown plant 'rose'"):
        cat.plant("rose", "plan.border")
    with pytest.raises(ValueError, match="card: unknown card id 99"):
        cat.card(99)
    with pytest.raises(ValueError, match="gardeners"):
        cat.deck.size_for(0)


def _directory(tmp_path, name=None, change=None):
    """A copy of the reference directory with `change(doc)` applied to file `name`."""
    for f in DATA_DIR.glob("*.json"):
        shutil.copy(f, tmp_path / f.name)
    if name:
        doc = json.loads((tmp_path / name).read_text())
        change(doc)
        (tmp_path / name).write_text(json.dumps(doc))
    return tmp_path


def _starts(side, **more):
    return lambda d: d["sheets"][side]["start_positions"].update(more)


def _fixed_cards(d, *pairs):
    for i, pair in enumerate(pairs):
        d["cards"][i]["plants"] = pair


@pytest.mark.parametrize("name, change, field", [
    # 1: the gnome field was read by nothing, so false or "maybe" changed nothing; misspelt keys were ignored
    ("scoring.json", lambda d: d.update(gnome_repeats_adjacent_groups=False), "gnome_repeats_adjacent_groups"),
    ("scoring.json", lambda d: d.update(gnome_repeats_adjacent_groups="maybe"), "gnome_repeats_adjacent_groups"),
    ("scoring.json", lambda d: d.update(window_box_full_bonuss=3), "window_box_full_bonuss"),
    ("scoring.json", lambda d: d["solo_titles"][0].update(titel="x"), "solo_titles[0].titel"),
    ("sheets.json", lambda d: d["sheets"]["A"].update(window_box_slot=3), "sheets.A.window_box_slot"),
    ("sheets.json", lambda d: d.update(sheet={}), "sheet"),
    ("plants.json", lambda d: d["plants"][0].update(minimum_group_sizes=3), "plants[0].minimum_group_sizes"),
    ("plants.json", lambda d: d.update(wilds="wild"), "wilds"),
    ("deck.json", lambda d: d["cards"][0].update(plant="rose"), "cards[0].plant"),
    ("deck.json", lambda d: d.update(deck_sizes={}), "deck_sizes"),
    # 2: "01" and "1" (or " 1") collided silently through int(); negative numbers were accepted
    ("sheets.json", _starts("A", **{"01": 5}), "sheets.A.start_positions.01"),
    ("sheets.json", _starts("A", **{" 1": 5}), "sheets.A.start_positions. 1"),
    ("sheets.json", _starts("A", **{"-1": 5}), "sheets.A.start_positions"),
    ("sheets.json", _starts("A", **{"0": 5}), "sheets.A.start_positions.0"),
    ("sheets.json", _starts("B", **{"x": 5}), "sheets.B.start_positions"),
    # 3: a 3000 x 2 sheet was accepted, then a 32 s run ended in a ModelMismatch traceback
    ("sheets.json", lambda d: d["sheets"]["A"].update(columns=3000, rows=2), "sheets.A.columns"),
    ("sheets.json", lambda d: d["sheets"]["B"].update(rows=21), "sheets.B.rows"),
    ("sheets.json", lambda d: d["sheets"]["B"].update(rows=0), "sheets.B.rows"),
    ("sheets.json", lambda d: d["sheets"]["A"].update(window_box_slots=8), "sheets.A.window_box_slots"),
    ("sheets.json", lambda d: d["sheets"]["A"].update(window_box_slots=7), "sheets.A.window_box_slots"),  # 6 plants
    ("plants.json", lambda d: d["plants"][5].update(minimum_group_size=8), "plants[5].minimum_group_size"),
    ("plants.json", lambda d: d["plants"].extend({"id": f"p{i}", "name": "P", "minimum_group_size": 1}
                                                 for i in range(2)), "plants"),
    ("scoring.json", lambda d: d.update(plan_points_per_plant=21), "plan_points_per_plant"),
    ("scoring.json", lambda d: d.update(window_box_full_bonus=10**25), "window_box_full_bonus"),
    ("scoring.json", lambda d: d["solo_titles"][1].update(minimum=80), "solo_titles[1].minimum"),
    ("deck.json", lambda d: d["cards"][0].update(id=2**62), "cards[0].id"),
    # 4: wrong types gave tracebacks (unhashable list)
    ("deck.json", lambda d: d["cards"][0].update(plants=[["x"], "rose"]), "cards[0].plants[0]"),
    ("deck.json", lambda d: d["cards"][1].update(plants=["turnip", {"p": 1}]), "cards[1].plants[1]"),
    ("deck.json", lambda d: d["cards"].__setitem__(2, [3, "turnip"]), "cards[2]"),
    ("plants.json", lambda d: d["plants"][0].update(id=["topiary"]), "plants[0].id"),
    ("plants.json", lambda d: d.update(wild=["wild"]), "wild"),
    ("scoring.json", lambda d: d["solo_titles"][0].update(title=5), "solo_titles[0].title"),
    ("sheets.json", lambda d: d["sheets"].update(C=[6, 7]), "sheets.C"),
    # 6: deck sizes: odd, not a number of gardeners, no solo entry
    ("deck.json", lambda d: d["deck_size_by_gardeners"].update({"3": 31}), "deck_size_by_gardeners.3"),
    ("deck.json", lambda d: d["deck_size_by_gardeners"].update(banana=30), "deck_size_by_gardeners"),
    ("deck.json", lambda d: d["deck_size_by_gardeners"].update({"02": 30}), "deck_size_by_gardeners"),
    ("deck.json", lambda d: d["deck_size_by_gardeners"].pop("1"), "deck_size_by_gardeners"),
    ("deck.json", lambda d: d["deck_size_by_gardeners"].update({"8": 30}), "deck_size_by_gardeners.8"),  # 7+ has it
    ("deck.json", lambda d: d["deck_size_by_gardeners"].update({"5": 56}), "deck_size_by_gardeners.5"),
])
def test_bad_catalogs_name_the_file_and_the_field(tmp_path, name, change, field):
    with pytest.raises(ValueError) as err:
        load_catalog(_directory(tmp_path, name, change))
    assert err.value.field == field
    assert str(err.value).startswith(f"{tmp_path / name}: {field}: "), str(err.value)


def test_the_gnome_field_may_be_true_or_left_out(tmp_path):
    load_catalog(_directory(tmp_path, "scoring.json", lambda d: d.pop("gnome_repeats_adjacent_groups")))
    with pytest.raises(ValueError, match="the rules engine implements only the rulebook's reading"):
        load_catalog(_directory(tmp_path, "scoring.json", lambda d: d.update(gnome_repeats_adjacent_groups=False)))


def test_start_numbers_are_normalised(tmp_path):
    """" 2" and "2" are one number; alone, " 2" is number 2."""
    def change(d):
        starts = d["sheets"]["A"]["start_positions"]
        starts[" 2"] = starts.pop("2")
    sheet = load_catalog(_directory(tmp_path, "sheets.json", change)).sheet("A")
    assert sorted(sheet.start_positions) == [1, 2, 3, 4, 5]


def test_sheet_bounds_are_inclusive(tmp_path):
    def change(d):
        d["sheets"]["A"].update(columns=20, rows=20, start_positions={str(n): n for n in range(1, 20)})
        d["sheets"]["B"].update(columns=3, rows=1, start_positions={"1": 1, "2": 2}, window_box_slots=0)
    cat = load_catalog(_directory(tmp_path, "sheets.json", change))
    assert (cat.sheet("A").columns, cat.sheet("A").rows, cat.sheet("B").rows) == (20, 20, 1)


def test_a_card_of_two_wilds_is_allowed(tmp_path):
    """The rulebook lets each gardener choose "the plant of their choice" for a wild plant, and says nothing against
    a card of two: the engine treats each half on its own (a game with such cards replays legally)."""
    cat = load_catalog(_directory(tmp_path, "deck.json", lambda d: _fixed_cards(d, ["wild", "wild"])))
    assert cat.card(1).plants == ("wild", "wild")


def test_another_n_plus_entry_and_deck_sizes(tmp_path):
    def change(d):
        d["deck_size_by_gardeners"] = {"1": 32, "2": 30, "5+": 36}
    deck = load_catalog(_directory(tmp_path, "deck.json", change)).deck
    assert [deck.size_for(n) for n in (1, 2, 5, 9)] == [32, 30, 36, 36]
    with pytest.raises(ValueError, match="gardeners: no deck size listed for 3"):
        deck.size_for(3)
    with pytest.raises(ValueError, match=r"deck_size_by_gardeners\.6\+: only one 'N\+' entry"):
        load_catalog(_directory(tmp_path, "deck.json", lambda d: d["deck_size_by_gardeners"].update({"6+": 30})))


@pytest.mark.parametrize("content, says", [
    (None, "file not found"),
    (b"\xff{}", r"not UTF-8 text \(byte 0xff at offset 0\)"),
    (b"[1, 2]", "top level must be an object"),
])
def test_an_unreadable_file_is_named(tmp_path, content, says):
    _directory(tmp_path)
    (tmp_path / "plants.json").unlink()
    if content is not None:
        (tmp_path / "plants.json").write_bytes(content)
    with pytest.raises(ValueError, match=rf"^{tmp_path / 'plants.json'}: {says}"):
        load_catalog(tmp_path)
