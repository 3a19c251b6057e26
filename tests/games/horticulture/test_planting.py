"""Planting rules day by day: adjacency to path, gnome or an earlier plant; window box; cards and wilds."""
import pytest

from solver.games.horticulture import api
from solver.games.horticulture.data import default_catalog

from .helpers import B, C, F, S, T, U

CAT = default_catalog()


def card_with(a, b, nth=0):
    """The nth card of the deck holding plants a and b (each card comes up once a game: a record
    planting the same pair twice takes two cards)."""
    return [c.id for c in CAT.deck.cards.values() if c.plants == (a, b)][nth]


def game(days, gnome=(0, 6), path=(3, "DDDDDDD"), **extra):
    return {"side": "A", "path": {"start": path[0], "moves": path[1]}, "gnome": list(gnome),
            "plan": {"border": S, "path": U, "companions": [T, C]}, "days": days, **extra}


def day(card, *plants, cards=None):
    out = {"chosen": card, "plants": [{"plant": p, "at": list(a) if isinstance(a, tuple) else a} for p, a in plants]}
    if cards:
        out["cards"] = cards
    return out


TU = card_with(T, U)


def where(result):
    return [(v["where"], v["reason"]) for v in result["violations"]]


def test_next_to_path_is_always_allowed():
    out = api.validate(game([day(TU, (T, (2, 0)), (U, (3, 6)))]))
    assert out["legal"] and out["score"]["groups"]["topiary"]["points"] == 1


def test_far_square_needs_a_neighbour():
    out = api.validate(game([day(TU, (T, (2, 0)), (U, (0, 3)))]))
    assert where(out) == [("days[0].plants[1]", "square (column 0, row 3) is not next to the path, the gnome or another plant")]


def test_gnome_supports_its_neighbours():
    assert api.validate(game([day(TU, (T, (0, 5)), (U, (1, 6)))]))["legal"]


def test_day_mate_may_support_in_either_order():
    # the turnip at [1, 0] leans on the topiary at [2, 0] planted the same day, listed second
    assert api.validate(game([day(TU, (U, (1, 0)), (T, (2, 0)))]))["legal"]


def test_two_plants_cannot_only_lean_on_each_other():
    out = api.validate(game([day(TU, (T, (0, 2)), (U, (0, 3)))]))
    assert not out["legal"]


def test_earlier_days_support_later_ones():
    days = [day(TU, (T, (2, 0)), (U, (2, 1))), day(card_with(T, U, 1), (T, (1, 0)), (U, (0, 0)))]
    assert api.validate(game(days))["legal"]


def test_occupied_and_gnome_squares_refused():
    out = api.validate(game([day(TU, (T, (2, 0)), (U, (2, 0)))]))
    assert where(out) == [("days[0].plants[1]", "square (column 2, row 0) already holds topiary")]
    out = api.validate(game([day(TU, (T, (0, 6)), (U, (2, 0)))]))
    assert where(out) == [("days[0].plants[0]", "square (column 0, row 6) holds the gnome")]


def test_window_box_takes_each_plant_once():
    tt = card_with(T, T)
    out = api.validate(game([day(tt, (T, "window"), (T, "window"))]))
    assert where(out) == [("days[0].plants[1]", "the window box already holds topiary")]
    assert api.validate(game([day(TU, (T, "window"), (U, "window"))]))["score"]["window_box"] == 2


def test_window_box_full():
    days = [day(card_with(T, U), (T, "window"), (U, "window")),
            day(card_with(C, S), (C, "window"), (S, "window")),
            day(card_with(F, B), (F, "window"), (B, "window")),
            day(card_with(T, U, 1), (T, (2, 0)), (U, "window"))]
    out = api.validate(game(days))
    assert where(out) == [("days[3].plants[1]", "the window box is full")]


def test_both_plants_of_the_card_every_day_and_matching():
    out = api.validate(game([day(TU, (T, (2, 0)))]))
    assert where(out)[0][0] == "days[0].chosen" and "both must be planted" in where(out)[0][1]
    out = api.validate(game([day(TU, (T, (2, 0)), (C, (2, 1)))]))
    # what the card brings, what was planted, what is missing (it said only "needs ['turnip'] planted")
    assert where(out) == [("days[0].chosen", f"card {TU} brings home topiary and turnip; the day planted topiary and "
                                             "carrot (missing: turnip)")]


def test_wild_chooses_any_plant():
    tw = card_with(T, "wild")
    assert api.validate(game([day(tw, (T, (2, 0)), (B, (2, 1)))]))["legal"]
    assert api.validate(game([day(tw, (T, (2, 0)), (T, (2, 1)))]))["legal"]


def test_chosen_card_must_be_flipped():
    out = api.validate(game([day(TU, (T, (2, 0)), (U, (2, 1)), cards=[TU + 2, 50])]))
    assert where(out)[0][0] == "days[0].chosen"
    nursery = [TU, 50]
    assert api.validate(game([day(TU, (T, (2, 0)), (U, (2, 1)))], nursery=nursery))["legal"]
    out = api.validate(game([day(TU, (T, (2, 0)), (U, (2, 1)))], nursery=[3, 50]))
    assert where(out) == [("days[0].chosen", f"card {TU} is not one of the cards flipped [3, 50]")]


def test_malformed_game_raises_naming_the_field():
    with pytest.raises(ValueError, match=r"days\[0\]\.plants\[1\]\.at: expected \[column, row\]"):
        api.validate(game([day(TU, (T, (2, 0)), (U, "garden"))]))
    with pytest.raises(ValueError, match=r"days\[0\]\.chosen: unknown card id 999"):
        api.validate(game([day(999, (T, (2, 0)))]))
    with pytest.raises(ValueError, match=r"plan\.companions"):
        api.validate({**game([]), "plan": {"border": S, "path": U, "companions": [T]}})
    with pytest.raises(ValueError, match="gnome: square"):
        api.validate(game([], gnome=(9, 9)))
    with pytest.raises(ValueError, match=r"nursery\[1\]: card 3 appears twice"):
        api.validate(game([], nursery=[3, 3]))


def test_illegal_path_is_reported():
    out = api.validate(game([], path=(3, "DDUDDDD")))
    assert not out["legal"] and out["violations"][0]["where"] == "path.moves[2]" and "score" not in out
