"""Normal- and Solo-mode move rules, end-of-game scoring and the result tables."""
import pytest

from solver.errors import InputError
from solver.games.gardeners import api, scoring


def state(garden, supplies=None, size=6, mode="normal", pool=None):
    doc = {"mode": mode, "size": size, "garden": [{"tile": t, "row": r, "col": c, "rotation": 0} for (r, c), t in garden.items()]}
    if mode == "normal":
        doc["supplies"] = supplies or [{"stack": ["A01", "A02"]}, {"stack": ["A03"], "loose": ["B01"]}]
    else:
        doc["pool"] = pool or []
    return doc


def legal(st, **move):
    return api.validate_move(st, move)


def test_add_must_be_top_of_stack_or_loose_and_adjacent():
    st = state({(0, 0): "C01"})
    assert legal(st, kind="add", player=0, tile="A01", cell=[0, 1]).legal
    v = legal(st, kind="add", player=0, tile="A02", cell=[0, 1])
    assert not v.legal and "top" in v.reason
    assert legal(st, kind="add", player=1, tile="B01", cell=[1, 0]).legal        # loose tiles in any order
    v = legal(st, kind="add", player=0, tile="A01", cell=[1, 1])
    assert not v.legal and "adjacent" in v.reason                                  # diagonal only
    assert not legal(st, kind="add", player=0, tile="A01", cell=[0, 0]).legal     # occupied
    assert not legal(st, kind="add", player=1, tile="A01", cell=[0, 1]).legal     # not player 1's


def test_add_keeps_the_garden_within_bounds():
    row = {(0, c): f"C{c + 1:02d}" for c in range(6)}
    st = state(row)
    v = legal(st, kind="add", player=0, tile="A01", cell=[0, 6])
    assert not v.legal and "exceed" in v.reason
    assert legal(st, kind="add", player=0, tile="A01", cell=[1, 5]).legal
    assert legal(st, kind="add", player=0, tile="A01", cell=[-1, 0]).legal       # the garden floats on the table


def test_remove_only_from_the_edge_without_splitting():
    # a row of three: the middle tile is on the edge, but removing it splits the garden
    row = {(0, 0): "C01", (0, 1): "C02", (0, 2): "C03"}
    st = state(row)
    v = legal(st, kind="remove", player=0, cell=[0, 1], to_player=1)
    assert not v.legal and "split" in v.reason
    assert legal(st, kind="remove", player=0, cell=[0, 2], to_player=1).legal
    assert not legal(st, kind="remove", player=0, cell=[0, 2], to_player=0).legal  # must go to another player
    # a plus shape: the centre touches no empty cell at all
    plus = {(0, 1): "C01", (1, 0): "C02", (1, 1): "C03", (1, 2): "C04", (2, 1): "C05"}
    assert not legal(state(plus), kind="remove", player=0, cell=[1, 1], to_player=1).legal
    full = {(r, c): f"C{r * 3 + c + 1:02d}" for r in range(3) for c in range(3)}
    v = legal(state(full), kind="remove", player=0, cell=[1, 1], to_player=1)
    assert not v.legal and "enclosed" in v.reason
    # a ring with a hole: the inner edge of the hole is not the garden's edge
    ring = {k: v for k, v in full.items() if k != (1, 1)}
    assert legal(state(ring), kind="remove", player=0, cell=[0, 0], to_player=1).legal
    ring3 = {(r, c): f"C{r * 4 + c + 1:02d}" if r * 4 + c < 11 else f"B{r * 4 + c - 9:02d}"
             for r in range(4) for c in range(4) if (r, c) not in ((1, 1), (1, 2))}
    v = legal(state(ring3), kind="remove", player=0, cell=[2, 1], to_player=1)
    assert not v.legal and "enclosed" in v.reason


def test_no_moving_or_rotating_in_place_in_normal_mode():
    st = state({(0, 0): "C01"})
    assert not legal(st, kind="rotate", cell=[0, 0], rotation=1).legal
    assert not legal(st, kind="swap", cell=[0, 0], other=[0, 1]).legal


def test_no_add_beyond_the_tables_edge():
    """A state's cells lie within +-64 (parse_state). Adds at 65 were legal and listed, and the garden with the tile
    laid was then refused by the next request (the client walkthrough of 7 Dec). They are now illegal, with the
    reason, and not listed; the first tile may still go anywhere on the table."""
    st = state({(64, 0): "C01"})
    v = legal(st, kind="add", player=0, tile="A01", cell=[65, 0])
    assert not v.legal and "beyond the table's edge" in v.reason
    assert legal(st, kind="add", player=0, tile="A01", cell=[63, 0]).legal
    cells = {m.cell for m in api.legal_moves(st) if m.kind == "add"}
    assert cells == {(63, 0), (64, -1), (64, 1)}
    assert not legal(state({}), kind="add", player=0, tile="A01", cell=[100, -100]).legal
    assert legal(state({}), kind="add", player=0, tile="A01", cell=[-64, 64]).legal


def test_legal_moves_are_exactly_the_valid_ones():
    st = state({(0, 0): "C01", (0, 1): "C02"})
    moves = api.legal_moves(st)
    assert moves and all(api.validate_move(st, {**m.__dict__, "cell": list(m.cell)}).legal for m in moves)
    adds = {(m.tile, m.cell) for m in moves if m.kind == "add"}
    assert ("A01", (1, 0)) in adds and ("A02", (1, 0)) not in adds
    assert {m.cell for m in moves if m.kind == "remove"} == {(0, 0), (0, 1)}


def test_solo_moves():
    st = state({(0, 0): "A01"}, mode="solo", pool=["A02"])
    assert legal(st, kind="add", tile="A02", cell=[5, 5], rotation=2).legal
    assert legal(st, kind="rotate", cell=[0, 0], rotation=3).legal
    assert legal(st, kind="swap", cell=[0, 0], other=[3, 3]).legal
    # a named tile must be one of the two swapped (it was ignored: C11, not in the garden, was "legal")
    assert legal(st, kind="swap", tile="A01", cell=[3, 3], other=[0, 0]).legal
    wrong = legal(st, kind="swap", tile="C11", cell=[0, 0], other=[3, 3])
    assert not wrong.legal and wrong.reason == "the tiles at (0, 0) and (3, 3) are A01 and none, not C11"
    assert not legal(st, kind="add", tile="A02", cell=[6, 0]).legal
    assert not legal(st, kind="add", tile="A03", cell=[1, 1]).legal


@pytest.mark.parametrize("doc, field", [
    ({"garden": [{"tile": "A01", "row": 0, "col": 0}, {"tile": "A01", "row": 0, "col": 1}], "supplies": [{}]},
     "state.garden[1].tile"),
    ({"garden": [{"tile": "ZZZ", "row": 0, "col": 0}], "supplies": [{}]}, "state.garden[0].tile"),
    ({"garden": [{"tile": "A01", "row": 0, "col": 0, "rotation": 7}], "supplies": [{}]}, "state.garden[0].rotation"),
    ({"garden": [], "supplies": []}, "state.supplies"),
    ({"size": 60, "garden": [], "supplies": [{}]}, "state.size"),
    # a string is not read letter by letter, a list is not a tile id
    ({"garden": [], "supplies": [{"stack": "A02"}]}, "state.supplies[0].stack"),
    ({"garden": "A01", "supplies": [{}]}, "state.garden"),
    ({"garden": [], "supplies": [{"loose": [["A02"]]}]}, "state.supplies[0].loose[0]"),
])
def test_malformed_states(doc, field):
    with pytest.raises(InputError) as err:
        api.legal_moves({"mode": "normal", **doc})
    assert err.value.field == field


@pytest.mark.parametrize("mode, move, field, words", [
    ("normal", {"kind": "add", "tile": "A01"}, "move.cell", "missing"),
    ("normal", {"kind": "remove", "to_player": 1}, "move.cell", "missing"),
    ("solo", {"kind": "remove"}, "move.cell", "missing"),
    ("solo", {"kind": "rotate", "rotation": 1}, "move.cell", "missing"),
    ("solo", {"kind": "swap", "cell": [0, 0]}, "move.other", "missing"),
    ("normal", {"kind": "add", "cell": [0, 1]}, "move.tile", "missing"),
    ("normal", {"kind": "add", "tile": "ZZ", "cell": [0, 1]}, "move.tile", "unknown tile"),
    ("normal", {"kind": "add", "tile": "A01", "cell": [0, 1], "rotation": 9}, "move.rotation", "0 to 3"),
    ("solo", {"kind": "rotate", "cell": [0, 0], "rotation": -1}, "move.rotation", "0 to 3"),
    ("normal", {"kind": "add", "player": -1, "tile": "A01", "cell": [0, 1]}, "move.player", ">= 0"),
    ("normal", {"kind": "add", "player": 2, "tile": "A01", "cell": [0, 1]}, "move.player",
     "player 2 does not exist: the state has 2 players"),
    ("normal", {"kind": "remove", "cell": [0, 0], "to_player": 7}, "move.to_player",
     "player 7 does not exist: the state has 2 players"),
    ("normal", {"kind": "remove", "cell": [0, 0]}, "move.to_player", "missing"),
    ("solo", {"kind": "remove", "cell": [0, 0], "player": 1}, "move.player", "one player"),
    # types: int() read 0.7 as player 0 and true as player 1, and raised TypeError on null and lists
    ("normal", {"kind": "add", "player": 0.7, "tile": "A01", "cell": [0, 1]}, "move.player", "integer"),
    ("normal", {"kind": "add", "player": True, "tile": "A01", "cell": [0, 1]}, "move.player", "integer"),
    ("normal", {"kind": "add", "player": None, "tile": "A01", "cell": [0, 1]}, "move.player", "integer"),
    ("solo", {"kind": "rotate", "cell": [0, 0], "rotation": [1]}, "move.rotation", "integer"),
    ("normal", {"kind": "remove", "cell": [0, 0], "to_player": "1"}, "move.to_player", "integer"),
    ("normal", {"kind": "add", "tile": ["A01"], "cell": [0, 1]}, "move.tile", "tile id"),
])
def test_malformed_moves_name_the_field_and_never_say_none(mode, move, field, words):
    garden = {(0, 0): "C01"} if mode == "normal" else {(0, 0): "A01"}
    st = state(garden, mode=mode, pool=["A02"])
    with pytest.raises(InputError) as err:
        api.validate_move(st, move)
    assert err.value.field == field and words in str(err.value) and "None" not in str(err.value)


def test_scoring_and_result_tables():
    assert scoring.final_score(scored=9, discarded=3) == 7     # rulebook: 3 discards lose 2 points
    assert scoring.final_score(5, 0) == 5 and scoring.final_score(5, 1) == 5
    assert scoring.result(0) [0] == "Ouch!" and scoring.result(2)[0] == "Ouch!"
    assert scoring.result(3)[0] == "It's a start"
    assert scoring.result(9)[0] == "Bravo!"
    assert scoring.result(12)[0] == "You have become experts!"
    assert scoring.result(3, solo=True)[0] == "Ouch!" and scoring.result(4, solo=True)[0] == "It's a start"
    assert scoring.result(14, solo=True)[0] == "Impressive!"
    assert scoring.solo_score([7, 4], discarded=2) == 10
    with pytest.raises(InputError):
        scoring.solo_score([1, 2, 3], 0)
    with pytest.raises(InputError):
        scoring.final_score(-1, 0)


def test_the_other_modes_field_is_refused_not_ignored():
    solo = {"mode": "solo", "garden": [], "pool": ["A01"], "supplies": [{"stack": ["A02"]}]}
    with pytest.raises(InputError) as err:
        api.legal_moves(solo)
    assert err.value.field == "state.supplies" and "pool" in str(err.value)
    normal = {"mode": "normal", "garden": [], "pool": ["A01"], "supplies": [{"stack": ["A02"]}]}
    with pytest.raises(InputError) as err:
        api.validate_move(normal, {"kind": "add", "tile": "A02", "cell": [0, 0]})
    assert err.value.field == "state.pool"
    # empty lists of the other mode's field are what a wire message always carries: fine
    assert api.legal_moves({**solo, "supplies": []}) and api.legal_moves({**normal, "pool": []})
