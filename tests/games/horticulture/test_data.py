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
