"""The reference catalog and decks load, meet the rulebook's counts, and malformed files are refused precisely."""
import json
import re
from pathlib import Path

import pytest

from solver.errors import InputError
from solver.games.gardeners.cards import load_cards, parse_deck
from solver.games.gardeners.tiles import load_catalog, parse_catalog

DATA = Path(__file__).resolve().parents[3] / "solver" / "data" / "gardeners"


def test_reference_catalog_counts():
    cat = load_catalog()
    assert len(cat.tiles) == 36
    assert [len(cat.tiles_of(s)) for s in "ABC"] == [16, 9, 11]
    assert {t.background for t in cat.tiles} == {"grass", "soil"}
    kinds = {e.kind for t in cat.tiles for e in t.elements}
    assert kinds == {"tree", "flower", "bench", "fountain"}
    assert sum(1 for t in cat.tiles if t.path) >= 8


def test_reference_decks_counts_and_training_wording():
    deck = load_cards()
    assert [len(deck.of(d)) for d in ("training-a", "training-b", "training-c", "standard", "expert")] == [6, 6, 5, 59, 21]
    assert deck.get("A3").text == "Two trees cannot be orthogonally adjacent (regardless of their colors)."
    assert deck.get("C5").text == "Each path must be connected to at least one other path."
    kinds = {c.kind for c in deck.of("standard")}
    assert kinds == {"proximity", "distance", "agglomeration", "panorama", "link", "border", "geometry", "path"}


def test_catalog_file_is_replaceable(tmp_path):
    doc = {"tiles": [{"id": "Z1", "set": "A", "background": "soil", "elements": [{"kind": "fountain"}]}]}
    p = tmp_path / "tiles.json"
    p.write_text(json.dumps(doc))
    cat = load_catalog(p)
    assert [t.id for t in cat.tiles] == ["Z1"] and cat.source == str(p)


@pytest.mark.parametrize("tiles, field", [
    ([{"id": "X", "set": "D", "background": "grass"}], "tiles[0].set"),
    ([{"id": "X", "set": "A", "background": "sand"}], "tiles[0].background"),
    ([{"id": "X", "set": "A", "background": "grass", "elements": [{"kind": "rock"}]}], "tiles[0].elements[0].kind"),
    ([{"id": "X", "set": "A", "background": "grass", "elements": [{"kind": "tree", "colour": "orange"}]}],
     "tiles[0].elements[0].colour"),
    ([{"id": "X", "set": "A", "background": "grass", "elements": [{"kind": "bench"}]}], "tiles[0].elements[0].facing"),
    ([{"id": "X", "set": "A", "background": "grass", "path": ["N", "E", "S"]}], "tiles[0].path"),
    ([{"id": "X", "set": "A", "background": "grass", "path": ["Q"]}], "tiles[0].path"),
    ([{"id": "X", "set": "A", "background": "grass"}, {"id": "X", "set": "A", "background": "soil"}], "tiles[1].id"),
    ([{"set": "A", "background": "grass"}], "tiles[0].id"),
    ([{"id": "X", "set": "A", "background": "grass", "colour": "red"}], "tiles[0]"),
    # wrong types gave a TypeError (unhashable) instead of naming the field
    ([{"id": "X", "set": "A", "background": "grass", "elements": [{"kind": ["tree"]}]}], "tiles[0].elements[0].kind"),
    ([{"id": "X", "set": "A", "background": "grass", "elements": [{"kind": "tree", "colour": ["green"]}]}],
     "tiles[0].elements[0].colour"),
    ([{"id": "X", "set": "A", "background": "grass", "elements": [{"kind": "bench", "facing": ["N"]}]}],
     "tiles[0].elements[0].facing"),
    ([{"id": "X", "set": ["A"], "background": "grass"}], "tiles[0].set"),
    ([{"id": "X", "set": "A", "background": {"grass": 1}}], "tiles[0].background"),
    ([{"id": "X", "set": "A", "background": "grass", "path": [["N"], "S"]}], "tiles[0].path"),
    ([{"id": ["X"], "set": "A", "background": "grass"}], "tiles[0].id"),
    ([{"id": "X", "set": "A", "background": "grass", "elements": [{"kind": "tree", "colour": "green", "size": 2}]}],
     "tiles[0].elements[0]"),
])
def test_malformed_catalog_names_the_field(tiles, field):
    with pytest.raises(InputError) as err:
        parse_catalog({"tiles": tiles})
    assert err.value.field == field


@pytest.mark.parametrize("card, field", [
    ({"id": "Q", "deck": "standard", "kind": "teleport", "params": {}}, "cards[0].kind"),
    ({"id": "Q", "deck": "mystery", "kind": "link", "params": {"element": "soil"}}, "cards[0].deck"),
    ({"id": "Q", "deck": "standard", "kind": "link", "params": {"element": "lava"}}, "cards[0].params.element"),
    ({"id": "Q", "deck": "standard", "kind": "agglomeration", "params": {"element": "soil", "min": 99}},
     "cards[0].params.min"),
    ({"id": "Q", "deck": "standard", "kind": "border", "params": {"element": "soil", "region": "middle"}},
     "cards[0].params.region"),
    ({"id": "Q", "deck": "standard", "kind": "path", "params": {"shape": "spiral"}}, "cards[0].params.shape"),
    ({"id": "Q", "deck": "standard", "kind": "geometry", "params": {"pattern": [["soil"], ["grass", "soil"]]}},
     "cards[0].params.pattern"),
    ({"id": "Q", "deck": "standard", "kind": "proximity", "params": {"element": "tree:orange"}},
     "cards[0].params.element"),
    ({"id": "Q", "deck": "standard", "kind": "proximity", "params": {"element": "tree", "extra": 1}},
     "cards[0].params"),
    # wrong types: a TypeError (unhashable kind), or a text of 5 accepted that later made ListCards INTERNAL
    ({"id": "Q", "deck": "standard", "kind": ["proximity"], "params": {"element": "tree"}}, "cards[0].kind"),
    ({"id": "Q", "deck": ["standard"], "kind": "proximity", "params": {"element": "tree"}}, "cards[0].deck"),
    ({"id": "Q", "deck": "standard", "kind": "proximity", "params": {"element": "tree"}, "text": 5}, "cards[0].text"),
    ({"id": "Q", "deck": "standard", "kind": "proximity", "params": {"element": "tree"}, "text": " "}, "cards[0].text"),
    ({"id": "Q", "deck": "standard", "kind": "proximity", "params": {"element": ["tree"]}}, "cards[0].params.element"),
    # a misspelt key was silently ignored (the card then worded from its parameters)
    ({"id": "Q", "deck": "standard", "kind": "proximity", "params": {"element": "tree"}, "txet": "Trees together."},
     "cards[0]"),
    ({"id": "Q", "deck": "standard", "kind": "proximity", "param": {"element": "tree"}}, "cards[0]"),
])
def test_malformed_card_names_the_field(card, field):
    with pytest.raises(InputError) as err:
        parse_deck({"cards": [card]})
    assert err.value.field == field


def test_unknown_and_repeated_card_ids():
    deck = load_cards()
    with pytest.raises(InputError) as err:
        deck.resolve(["A1", "NOPE"])
    assert err.value.field == "card_ids[1]"
    with pytest.raises(InputError) as err:
        deck.resolve(["A1", "A1"])
    assert err.value.field == "card_ids[1]"


@pytest.mark.parametrize("doc, field", [
    ({"size": 6, "placement": []}, "placement"),
    ({"verdict": "solvable", "garden": {"size": 6, "placements": []}}, "garden"),
])
def test_a_garden_with_an_unknown_field_is_rejected(doc, field):
    """Unknown keys used to be ignored: an answer document read as an empty garden."""
    from solver.games.gardeners.garden import parse_garden

    with pytest.raises(InputError) as err:
        parse_garden(doc, load_catalog())
    assert err.value.field == field


def test_a_card_may_carry_notes():
    """Keys starting with "_" are notes (like the file's _reference and _schema_note), not unknown keys."""
    deck = parse_deck({"_reference": "r", "_schema_note": "n", "schema": "gardeners-cards/1", "cards": [
        {"id": "Q", "deck": "standard", "kind": "proximity", "params": {"element": "tree"}, "_source": "S01"}]})
    assert [c.id for c in deck.cards] == ["Q"]


@pytest.mark.parametrize("doc, field", [
    ({"cards": [], "card": []}, "card"),
    ({"cards": [], "schema": "gardeners-cards/2"}, "schema"),
])
def test_card_file_top_level_is_checked(doc, field):
    with pytest.raises(InputError) as err:
        parse_deck(doc)
    assert err.value.field == field


@pytest.mark.parametrize("doc, field", [
    ({"tiles": [{"id": "X", "set": "A", "background": "grass"}], "tile": []}, "tile"),
    ({"tiles": [{"id": "X", "set": "A", "background": "grass"}], "schema": "gardeners-tiles/9"}, "schema"),
])
def test_tile_file_top_level_is_checked(doc, field):
    with pytest.raises(InputError) as err:
        parse_catalog(doc)
    assert err.value.field == field


def test_a_bad_file_is_named_with_the_field(tmp_path):
    """The CLI's --catalog / --card-file errors said the field only; they name the file too."""
    doc = json.loads((DATA / "tiles.json").read_text())
    doc["tiles"][2]["elements"][0]["kind"] = ["tree"]
    path = tmp_path / "tiles.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(InputError) as err:
        load_catalog(path)
    assert err.value.field == "tiles[2].elements[0].kind"
    assert str(err.value) == (f"{path}: tiles[2].elements[0].kind: must be one of ['bench', 'flower', 'fountain', "
                              f"'tree'] (got ['tree'])")
    doc = json.loads((DATA / "cards.json").read_text())
    doc["cards"][0]["text"] = 5
    path = tmp_path / "cards.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(InputError, match=rf"^{re.escape(str(path))}: cards\[0\]\.text: must be a non-empty string"):
        load_cards(path)
