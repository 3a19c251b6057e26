"""Scoring: every rulebook example on Samantha's sheet, plus the edge cases the rulebook spells out."""
import pytest

from solver.games.horticulture import api

from .helpers import B, C, F, S, T, U, samantha_request


@pytest.fixture(scope="module")
def samantha():
    return api.score(samantha_request())


def test_topiaries_three_groups_three_points(samantha):
    assert samantha["groups"]["topiary"] == {"sizes": [1, 1, 1], "complete": 3, "points": 3}


def test_turnips_two_groups_four_points_even_with_a_larger_group(samantha):
    assert samantha["groups"]["turnip"] == {"sizes": [3, 2], "complete": 2, "points": 4}


def test_carrots_sweet_potatoes_flowers_berries(samantha):
    assert samantha["groups"]["carrot"]["points"] == 3
    assert samantha["groups"]["sweet_potato"] == {"sizes": [4, 4], "complete": 2, "points": 8}
    assert samantha["groups"]["flower"] == {"sizes": [4, 1], "complete": 0, "points": 0}
    assert samantha["groups"]["berry"] == {"sizes": [6], "complete": 1, "points": 6}
    assert samantha["groups_total"] == 3 + 4 + 3 + 8 + 0 + 6


def test_gnome_repeats_sweet_potato_and_turnip_groups(samantha):
    # 4 for the sweet potato group + 2 for the turnip group; the topiary at [2, 5] touches the
    # gnome's square only across the path, so it does not count.
    assert samantha["gnome"] == 4 + 2


def test_window_box_two_plants(samantha):
    assert samantha["window_box"] == 2


def test_plan_border_path_companions(samantha):
    assert samantha["plan"] == {"border": 2 * 6, "path": 2 * 3, "companions": 2 * 2}


def test_total_and_solo_title(samantha):
    assert samantha["total"] == 24 + 6 + 2 + 12 + 6 + 4 == 54
    assert samantha["title"] == "Greens Keeper"


def sheet(garden, window=(), gnome=(0, 6), plan=(S, U, (T, C)), path=(3, "DDDDDDD")):
    return {
        "side": "A", "path": {"start": path[0], "moves": path[1]}, "gnome": list(gnome),
        "plan": {"border": plan[0], "path": plan[1], "companions": list(plan[2])},
        "garden": [{"plant": p, "at": list(c)} for c, p in garden.items()], "window_box": list(window),
    }


def score_rules(request):
    """The pure scorer on any arrangement, reachable by a game or not (api.score refuses the ones no
    order of planting reaches; these scoring-rule tests use a few)."""
    from solver.games.horticulture.data import default_catalog
    from solver.games.horticulture.scoring import score_sheet
    from solver.games.horticulture.state import parse_sheet
    return score_sheet(default_catalog(), parse_sheet(request, default_catalog())).as_dict()


def test_plants_across_the_path_are_not_one_group():
    # two turnips side by side across the path: two groups of one, no points
    out = api.score(sheet({(2, 3): U, (3, 3): U}, plan=(S, S, (S, S))))
    assert out["groups"]["turnip"] == {"sizes": [1, 1], "complete": 0, "points": 0}
    out = api.score(sheet({(1, 3): U, (2, 3): U}, plan=(S, S, (S, S))))
    assert out["groups"]["turnip"]["points"] == 2


def test_diagonals_do_not_join_groups():
    out = score_rules(sheet({(0, 2): T, (1, 3): T}, plan=(S, S, (S, S))))
    assert out["groups"]["topiary"] == {"sizes": [1, 1], "complete": 2, "points": 2}


def test_full_window_box_scores_twelve():
    out = api.score(sheet({}, window=[T, U, C, S, F, B], plan=(S, S, (S, S))))
    assert out["window_box"] == 6 * 1 + 6 and out["total"] == 12
    assert api.score(sheet({}, window=[T, U, C, S, F], plan=(S, S, (S, S))))["window_box"] == 5


def test_gnome_counts_a_group_once_even_when_touching_it_twice():
    # an L of three carrots wraps the gnome at [1, 1] on two sides
    out = api.score(sheet({(1, 0): C, (0, 0): C, (0, 1): C}, gnome=(1, 1), plan=(T, T, (T, T))))
    assert out["gnome"] == 3 and out["total"] == 6


def test_incomplete_group_next_to_gnome_scores_nothing_extra():
    out = api.score(sheet({(1, 0): C, (0, 0): C}, gnome=(1, 1), plan=(T, T, (T, T))))
    assert out["gnome"] == 0 and out["total"] == 0


def test_companion_scores_first_box_only_once_each():
    # topiaries first, carrots second: one carrot serves two topiaries; the carrot scores nothing
    out = score_rules(sheet({(0, 3): T, (1, 3): C, (2, 3): T, (1, 5): T}, plan=(S, S, (T, C))))
    assert out["plan"]["companions"] == 4
    # the reverse plan (carrots first) scores the single carrot once
    out = api.score(sheet({(0, 3): T, (1, 3): C, (2, 3): T}, plan=(S, S, (C, T))))
    assert out["plan"]["companions"] == 2


def test_companion_not_across_the_path():
    out = api.score(sheet({(2, 3): T, (3, 3): C}, plan=(S, S, (T, C))))
    assert out["plan"]["companions"] == 0


def test_border_and_path_score_per_plant_whatever_the_group():
    # three sweet potatoes in the corner column (incomplete group) still score 2 each on the border
    out = score_rules(sheet({(0, 2): S, (0, 3): S, (0, 4): S, (3, 1): S}, plan=(S, S, (T, T))))
    assert out["plan"]["border"] == 6
    assert out["plan"]["path"] == 2  # only [3, 1] lies along the path
    assert out["groups"]["sweet_potato"]["points"] == 0


@pytest.mark.parametrize("total,title", [(80, "Renowned Horticulturist"), (79, "Apprentice Gnome"),
                                         (40, "Grandpa's Little Helper"), (39, "Novice Planter"), (0, "Novice Planter")])
def test_solo_titles(total, title):
    from solver.games.horticulture.data import default_catalog
    assert default_catalog().scoring.title(total) == title


def test_score_input_errors():
    bad = samantha_request()
    bad["garden"].append({"plant": T, "at": [0, 0]})
    with pytest.raises(ValueError, match=r"garden\[30\]\.at: square \(column 0, row 0\) is planted twice"):
        api.score(bad)
    bad = samantha_request()
    bad["garden"][0]["at"] = [6, 0]
    with pytest.raises(ValueError, match=r"garden\[0\]\.at: square \(column 6, row 0\) is outside"):
        api.score(bad)
    bad = samantha_request()
    bad["window_box"] = ["cactus"]
    with pytest.raises(ValueError, match=r"window_box\[0\]: unknown plant 'cactus'"):
        api.score(bad)
    bad = samantha_request()
    bad["path"]["moves"] = "DDD"
    with pytest.raises(ValueError, match="path.moves: the path stops"):
        api.score(bad)
    bad = samantha_request()
    bad["gnome"] = [0, 0]
    with pytest.raises(ValueError, match="holds the gnome"):
        api.score(bad)


def test_samantha_sheet_is_reachable_by_a_legal_game_and_cp_sat_agrees():
    import json

    from solver.core.solve import SolveControl
    from solver.games.horticulture.data import DATA_DIR, default_catalog
    from solver.games.horticulture.optimiser import _exact_score
    from solver.games.horticulture.state import parse_days, parse_setup

    from .helpers import SAMANTHA_GARDEN

    game = json.loads((DATA_DIR / "examples" / "samantha_game.json").read_text())
    out = api.validate(game)
    assert out["legal"] and out["violations"] == []
    assert out["score"]["total"] == 54 and out["score"]["title"] == "Greens Keeper"
    drawn = {tuple(p["at"]): p["plant"] for d in game["days"] for p in d["plants"] if p["at"] != "window"}
    assert drawn == {c: p for p, cells in SAMANTHA_GARDEN.items() for c in cells}
    cat = default_catalog()
    setup = parse_setup(game, cat)
    days = parse_days(game["days"], cat.sheet("A"), cat)
    control = SolveControl(time_limit_s=300.0, deterministic_limit=20.0)
    assert _exact_score(cat, "A", setup.drawing, days, setup.gnome, setup.plan, control) == 54


def test_the_scorer_given_the_garden_and_its_groups_scores_as_without_them():
    """`score_sheet(catalog, sheet, garden, groups_of(garden, ...))` (how the greedy player scores its trial sheets)
    gives the score `score_sheet(catalog, sheet)` gives, on random sheets of both sides and several paths."""
    import random

    from solver.games.horticulture.data import default_catalog
    from solver.games.horticulture.garden import Garden, PathDrawing, Plan
    from solver.games.horticulture.scoring import groups_of, score_sheet
    from solver.games.horticulture.state import Setup, Sheet

    catalog = default_catalog()
    plants = list(catalog.plants)
    rng = random.Random(7)
    totals = set()
    for side, drawing in (("A", PathDrawing(3, "DDDDDDD")), ("A", PathDrawing(2, "DRDDDLDDD")),
                          ("B", PathDrawing.straight(catalog.sheet("B")))):
        garden = Garden(catalog.sheet(side), drawing)
        for _ in range(40):
            plan = Plan(rng.choice(plants), rng.choice(plants), (rng.choice(plants), rng.choice(plants)))
            gnome = rng.choice(garden.cells)
            cells = [c for c in garden.cells if c != gnome and rng.random() < rng.choice([0.4, 0.8, 1.0])]
            planted = {c: rng.choice(plants[:rng.randint(1, len(plants))]) for c in cells}
            box = rng.sample(plants, rng.randint(0, catalog.sheet(side).window_box_slots))
            sheet = Sheet(Setup(side, drawing, gnome, plan), planted, box)
            given = score_sheet(catalog, sheet, garden, groups_of(garden, planted))
            assert given == score_sheet(catalog, sheet)
            totals.add(given.total)
    assert len(totals) > 20
