"""The counting bound (solver/games/horticulture/bounds.py) against the exhaustive oracle."""
from __future__ import annotations

import json
import random
import shutil

import pytest

from solver.games.horticulture.bounds import counting_bound, most_plants
from solver.games.horticulture.data import default_catalog, load_catalog
from solver.games.horticulture.garden import PathDrawing, Plan
from solver.games.horticulture.model import DaySpec
from solver.games.horticulture.garden import Garden
from solver.games.horticulture.optimiser import counting_bound as optimiser_bound
from solver.games.horticulture.state import Setup

from .helpers import DATA_DIR, oracle, tiny_catalog

CAT = default_catalog()
PLANTS = list(CAT.plants)


def pairs(nursery):
    return [DaySpec((nursery[i], nursery[i + 1])) for i in range(0, len(nursery), 2)]


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    return tiny_catalog(tmp_path_factory.mktemp("bounds3x2"), 3, 2)


@pytest.fixture(scope="module")
def tiny_box2(tmp_path_factory):
    """A 3x2 sheet whose window box has 2 slots: a full box forces no kind into it."""
    tmp = tmp_path_factory.mktemp("bounds_box2")
    for name in ("plants.json", "deck.json", "scoring.json"):
        shutil.copy(DATA_DIR / name, tmp / name)
    (tmp / "sheets.json").write_text(json.dumps({"_reference": "test sheet", "sheets": {
        "T": {"columns": 3, "rows": 2, "start_positions": {"1": 1, "2": 2}, "window_box_slots": 2}}}))
    return load_catalog(tmp)


def _plan(rng: random.Random, plan_kinds: list[str]) -> Plan:
    return Plan(rng.choice(plan_kinds), rng.choice(plan_kinds), (rng.choice(plan_kinds), rng.choice(PLANTS)))


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("which", ["tiny", "tiny_box2"])
def test_the_bound_is_never_below_the_best_game(request, which, seed):
    catalog = request.getfixturevalue(which)
    rng = random.Random(seed)
    # three days: six plants, enough to fill the 6-slot box; plan kinds among the nursery's
    # plants, so the plan lines (and the box/plan trade-off) matter
    nursery = rng.sample(sorted(catalog.deck.cards), 6)
    kinds = sorted({p for c in nursery for p in catalog.card(c).plants if p != catalog.wild}) or PLANTS
    plan = _plan(rng, kinds)
    drawing = PathDrawing(rng.choice([1, 2]), "DD")
    gnome = (rng.randrange(3), rng.randrange(2))
    setup = Setup("T", drawing, gnome, plan)
    best = oracle(catalog, setup, nursery)
    bound = counting_bound(catalog, "T", drawing, pairs(nursery), gnome, plan)
    assert best <= bound == optimiser_bound(catalog, "T", drawing, pairs(nursery), gnome, plan)
    # with the gnome and the plan free, the bound holds for every choice of them
    assert bound <= counting_bound(catalog, "T", drawing, pairs(nursery), None, None)


def test_the_box_plan_trade_off_tightens_the_reference_bound():
    """32 cards on side A: a full box costs each plan line a plant, so the bound is the bonus lower
    than counting the bonus and every planned plant at once (the first counting bound did)."""
    rng = random.Random(3)
    nursery = rng.sample(sorted(CAT.deck.cards), 32)
    drawing = PathDrawing.straight(CAT.sheet("A"))
    plan = Plan("sweet_potato", "turnip", ("carrot", "berry"))
    days, gnome = pairs(nursery), (2, 3)
    garden = Garden(CAT.sheet("A"), drawing)
    most = {k: most_plants(CAT, days, k) for k in CAT.plants}
    border = min(most[plan.border], sum(garden.on_border(c) for c in garden.cells))
    path = min(most[plan.path], sum(garden.next_to_path(c) for c in garden.cells))
    gnome_points = min(32, len(garden.linked(gnome)) * 6)
    both = 32 + CAT.scoring.window_box_full_bonus + gnome_points + 2 * (border + path + most[plan.companions[0]])
    assert counting_bound(CAT, "A", drawing, days, gnome, plan) == both - CAT.scoring.window_box_full_bonus
