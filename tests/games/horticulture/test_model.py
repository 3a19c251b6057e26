"""CP-SAT optimiser held against the pure rules: exhaustive oracle on tiny sheets, random games scored twice."""
import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from solver.core.solve import SolveControl
from solver.games.horticulture.data import default_catalog
from solver.games.horticulture.garden import Garden, PathDrawing, Plan
from ortools.sat.python import cp_model

from solver.games.horticulture.model import GROUP_MODES, DaySpec, HorticultureModel, connected_subsets
from solver.games.horticulture.optimiser import _exact_score, counting_bound, solve
from solver.games.horticulture.rules import _draw, planting_refusal, replay
from solver.games.horticulture.scoring import score_sheet
from solver.games.horticulture.state import WINDOW, Day, Planting, Setup, Sheet

from .helpers import C, S, T, U, oracle, tiny_catalog

CAT = default_catalog()
PLANTS = list(CAT.plants)


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    return tiny_catalog(tmp_path_factory.mktemp("tiny3x2"), 3, 2)


@pytest.fixture(scope="module")
def tiny4(tmp_path_factory):
    return tiny_catalog(tmp_path_factory.mktemp("tiny4x2"), 4, 2)


def pairs(nursery):
    return [DaySpec((nursery[i], nursery[i + 1])) for i in range(0, len(nursery), 2)]


def control(work=20.0):
    """Deterministic work limits: the same outcome however loaded the machine is (wall cap 300 s)."""
    return SolveControl(time_limit_s=300.0, deterministic_limit=work, num_workers=1, random_seed=0)


@pytest.mark.parametrize("seed", [0, 1])
def test_three_days_on_tiny_sheet_match_exhaustive_oracle(tiny, seed):
    rng = random.Random(seed)
    nursery = rng.sample(sorted(tiny.deck.cards), 6)
    plan = Plan(rng.choice(PLANTS), rng.choice(PLANTS), (rng.choice(PLANTS), rng.choice(PLANTS)))
    setup = Setup("T", PathDrawing(1, "DD"), (2, 1), plan)
    sol = solve(tiny, "T", setup.drawing, pairs(nursery), setup.gnome, plan, control())
    assert sol.status == "optimal"
    assert sol.score == sol.bound == oracle(tiny, setup, nursery)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10 ** 6), start=st.sampled_from([(1, "DD"), (2, "DD"), (2, "DRD"), (3, "DLD")]),
       gnome=st.tuples(st.integers(0, 3), st.integers(0, 1)))
def test_two_days_on_tiny_winding_sheet_match_oracle(tiny4, seed, start, gnome):
    rng = random.Random(seed)
    nursery = rng.sample(sorted(tiny4.deck.cards), 4)
    plan = Plan(rng.choice(PLANTS), rng.choice(PLANTS), (rng.choice(PLANTS), rng.choice(PLANTS)))
    setup = Setup("T", PathDrawing(*start), gnome, plan)
    sol = solve(tiny4, "T", setup.drawing, pairs(nursery), gnome, plan, control())
    assert sol.status == "optimal"
    best = oracle(tiny4, setup, nursery)
    assert sol.score == best
    assert best <= counting_bound(tiny4, "T", setup.drawing, pairs(nursery), gnome, plan)
    assert best <= counting_bound(tiny4, "T", setup.drawing, pairs(nursery), None, None)
    sheet, violations = replay(tiny4, setup, sol.days)
    assert violations == [] and score_sheet(tiny4, sheet).total == sol.score
    assert all(day.chosen in nursery[2 * d: 2 * d + 2] for d, day in enumerate(sol.days))


def random_game(rng: random.Random, setup: Setup, days: int) -> list[Day]:
    """A random legal solo game played through the pure rules (wilds resolved at random)."""
    garden = Garden(CAT.sheet(setup.side), setup.drawing)
    sheet = Sheet(setup)
    cards = rng.sample(sorted(CAT.deck.cards), days)
    out = []
    for cid in cards:
        plants = []
        for plant in CAT.card(cid).plants:
            plant = rng.choice(PLANTS) if plant == CAT.wild else plant
            spots = [c for c in garden.cells + [WINDOW]
                     if planting_refusal(garden, sheet, Planting(plant, c), 6) is None]
            # favour neighbours of existing plants so groups form
            near = [c for c in spots if c != WINDOW and any(sheet.garden.get(n) == plant for n in garden.linked(c))]
            at = rng.choice(near) if near and rng.random() < 0.7 else rng.choice(spots)
            p = Planting(plant, at)
            _draw(sheet, p)
            plants.append(p)
        out.append(Day(cid, tuple(plants)))
    return out


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10 ** 6), days=st.integers(4, 16),
       drawing=st.sampled_from([PathDrawing(3, "DDDDDDD"), PathDrawing(1, "DRRDDLDDDD"), PathDrawing(5, "DLLDLDDDDD")]))
def test_cp_sat_scores_any_legal_game_like_the_pure_scorer(seed, days, drawing):
    rng = random.Random(seed)
    gnome = (rng.randrange(6), rng.randrange(7))
    plan = Plan(rng.choice(PLANTS), rng.choice(PLANTS), (rng.choice(PLANTS), rng.choice(PLANTS)))
    setup = Setup("A", drawing, gnome, plan)
    game = [d for d in random_game(rng, setup, days)]
    sheet, violations = replay(CAT, setup, game)
    assert violations == []
    pure = score_sheet(CAT, sheet).total
    # both group encodings (witnesses + labels, flows), in the day-by-day and the final-garden model
    assert _exact_score(CAT, "A", drawing, game, gnome, plan, control(), timed=True, groups="exact") == pure
    assert _exact_score(CAT, "A", drawing, game, gnome, plan, control(), groups="exact") == pure
    assert _exact_score(CAT, "A", drawing, game, gnome, plan, control(), groups="flow") == pure


def test_full_sheet_short_deck_is_proven_and_checked():
    rng = random.Random(7)
    nursery = rng.sample(sorted(CAT.deck.cards), 6)
    sol = solve(CAT, "A", PathDrawing(3, "DDDDDDD"), pairs(nursery), (3, 5), Plan(S, U, (T, C)), control(30))
    assert sol.status == "optimal" and sol.score == sol.bound
    assert sol.score_sheet.total == sol.score


def test_fixed_past_days_are_kept():
    rng = random.Random(3)
    setup = Setup("A", PathDrawing(3, "DDDDDDD"), (3, 5), Plan(S, U, (T, C)))
    past = random_game(rng, setup, 3)
    rest = [c for c in sorted(CAT.deck.cards) if c not in {d.chosen for d in past}][:4]
    days = [DaySpec((d.chosen,), d.plants) for d in past] + pairs(rest)
    sol = solve(CAT, "A", setup.drawing, days, setup.gnome, setup.plan, control(30))
    assert sol.status in ("optimal", "feasible")
    assert [(d.chosen, set(d.plants)) for d in sol.days[:3]] == [(d.chosen, set(d.plants)) for d in past]


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 10 ** 6), cards=st.sampled_from([8, 16, 32]))
def test_greedy_player_always_plays_a_legal_game(seed, cards):
    from solver.games.horticulture.schedule import play_greedy
    rng = random.Random(seed)
    nursery = rng.sample(sorted(CAT.deck.cards), cards)
    setup = Setup("A", PathDrawing(3, "DDDDDDD"), (rng.randrange(6), rng.randrange(7)), Plan(S, U, (T, C)))
    game = play_greedy(CAT, setup, [tuple(nursery[i:i + 2]) for i in range(0, cards, 2)])
    _, violations = replay(CAT, setup, game)
    assert violations == [] and len(game) == cards // 2
    assert all(day.chosen in nursery[2 * d: 2 * d + 2] for d, day in enumerate(game))


@pytest.mark.parametrize("start", [(1, "DD"), (2, "DRD")])
def test_connected_subsets_are_every_connected_set_once(tiny4, start):
    import itertools
    garden = Garden(tiny4.sheet("T"), PathDrawing(*start))
    idx = garden.index
    for k in range(1, 7):
        found = connected_subsets(garden, k)
        assert len(found) == len(set(found))
        brute = []
        for part in itertools.combinations(range(len(garden.cells)), k):
            seen, todo = {part[0]}, [part[0]]
            while todo:
                i = todo.pop()
                for c in garden.linked(garden.cells[i]):
                    if idx[c] in part and idx[c] not in seen:
                        seen.add(idx[c])
                        todo.append(idx[c])
            if len(seen) == k:
                brute.append(part)
        assert sorted(found) == brute


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_every_relaxed_model_bounds_the_oracle(tiny4, seed):
    """The final-garden model (each group encoding) and its group relaxations never fall below the best game."""
    rng = random.Random(seed)
    nursery = rng.sample(sorted(tiny4.deck.cards), 4)
    plan = Plan(rng.choice(PLANTS), rng.choice(PLANTS), (rng.choice(PLANTS), rng.choice(PLANTS)))
    drawing = PathDrawing(*rng.choice([(1, "DD"), (2, "DRD"), (3, "DLD")]))
    gnome = (rng.randrange(4), rng.randrange(2))
    best = oracle(tiny4, Setup("T", drawing, gnome, plan), nursery)
    values = {}
    for groups in GROUP_MODES:
        for timed in (True, False):
            model = HorticultureModel(tiny4, "T", drawing, pairs(nursery), gnome, plan, timed=timed, groups=groups)
            status, solver = control().solve(model.m)
            assert status == cp_model.OPTIMAL
            values[(groups, timed)] = solver.objective_value
    # exact encodings of the day-by-day game reach the oracle exactly; every relaxation bounds it
    assert values[("exact", True)] == values[("flow", True)] == best
    assert all(v >= best for v in values.values())
    assert values[("count", False)] >= values[("packing", False)] >= values[("exact", False)]


def test_a_final_garden_cut_off_the_relaxation_never_comes_back(tiny4):
    rng = random.Random(4)
    nursery = rng.sample(sorted(tiny4.deck.cards), 4)
    drawing, plan = PathDrawing(1, "DD"), Plan(S, U, (T, C))
    model = HorticultureModel(tiny4, "T", drawing, pairs(nursery), (2, 1), plan, timed=False)
    seen, last = [], None
    for _ in range(4):
        status, solver = control().solve(model.m)
        assert status == cp_model.OPTIMAL
        final = (model.extract_garden(solver)[0], sorted(model.extract_garden(solver)[1]), model.chosen_cards(solver))
        assert final not in seen
        assert last is None or solver.objective_value <= last
        seen.append(final)
        last = solver.objective_value
        model.exclude_final(solver)


@pytest.mark.parametrize("seed", [0, 1])
def test_mirror_symmetry_breaking_keeps_the_best_plan_score(tiny4, seed, monkeypatch):
    import solver.games.horticulture.model as model_module
    rng = random.Random(seed)
    nursery = rng.sample(sorted(tiny4.deck.cards), 4)
    plan = Plan(rng.choice(PLANTS), rng.choice(PLANTS), (rng.choice(PLANTS), rng.choice(PLANTS)))
    drawing = PathDrawing(2, "DD")  # line 2 of 4 columns: its own mirror image
    assert model_module.mirror_symmetric(Garden(tiny4.sheet("T"), drawing))
    assert not model_module.mirror_symmetric(Garden(tiny4.sheet("T"), PathDrawing(1, "DD")))
    broken = solve(tiny4, "T", drawing, pairs(nursery), None, plan, control())
    monkeypatch.setattr(model_module, "MIRROR_BREAKING", False)
    free = solve(tiny4, "T", drawing, pairs(nursery), None, plan, control())
    assert broken.status == free.status == "optimal" and broken.score == free.score
    assert broken.gnome[0] <= 1
    # and the gnome square chosen is as good as the oracle says
    assert oracle(tiny4, Setup("T", drawing, broken.gnome, plan), nursery) == broken.score


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_mirrored_game_is_legal_and_scores_the_same_on_a_symmetric_path(seed):
    from solver.games.horticulture.model import mirror_cell
    from solver.games.horticulture.optimiser import _mirror
    rng = random.Random(seed)
    setup = Setup("A", PathDrawing(3, "DDDDDDD"), (rng.randrange(6), rng.randrange(7)),
                  Plan(rng.choice(PLANTS), rng.choice(PLANTS), (rng.choice(PLANTS), rng.choice(PLANTS))))
    game = random_game(rng, setup, 12)
    mirrored = Setup("A", setup.drawing, mirror_cell(setup.gnome, 6), setup.plan)
    sheet, violations = replay(CAT, setup, game)
    sheet2, violations2 = replay(CAT, mirrored, _mirror(game, 6))
    assert violations == violations2 == []
    assert score_sheet(CAT, sheet2).as_dict() == score_sheet(CAT, sheet).as_dict()


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_count_first_steps_keep_the_oracle_optimum(tiny4, seed, monkeypatch):
    """The long-game path (count relaxation's bound and cards, then gardens on those cards, each checked
    for a day-by-day planting) returns the oracle's optimum and never a bound below it."""
    import solver.games.horticulture.optimiser as optimiser_module
    from solver.games.horticulture.optimiser import _count_first
    monkeypatch.setattr(optimiser_module, "COUNT_FIRST_MIN_DAYS", 1)
    rng = random.Random(seed)
    nursery = rng.sample(sorted(tiny4.deck.cards), 4)
    plan = Plan(rng.choice(PLANTS), rng.choice(PLANTS), (rng.choice(PLANTS), rng.choice(PLANTS)))
    drawing = PathDrawing(*rng.choice([(1, "DD"), (2, "DRD"), (2, "DD")]))
    gnome = (rng.randrange(4), rng.randrange(2))
    best = oracle(tiny4, Setup("T", drawing, gnome, plan), nursery)
    relaxed = HorticultureModel(tiny4, "T", drawing, pairs(nursery), gnome, plan, timed=False)
    bound, found, _ = _count_first(relaxed, tiny4, "T", drawing, pairs(nursery), gnome, plan, control(), 20.0, 10 ** 6)
    assert bound >= best and found
    assert all(a.objective_value >= b.objective_value for a, b in zip(found, found[1:]))
    sol = solve(tiny4, "T", drawing, pairs(nursery), gnome, plan, control())
    assert sol.status == "optimal" and sol.score == sol.bound == best
    sheet, violations = replay(tiny4, Setup("T", drawing, gnome, plan), sol.days)
    assert violations == [] and score_sheet(tiny4, sheet).total == sol.score


def test_a_long_game_with_the_count_first_steps_is_deterministic():
    from solver.games.horticulture import optimiser as optimiser_module
    rng = random.Random(11)
    nursery = rng.sample(sorted(CAT.deck.cards), 2 * optimiser_module.COUNT_FIRST_MIN_DAYS)
    args = (CAT, "A", PathDrawing(3, "DDDDDDD"), pairs(nursery), (1, 2), Plan(S, U, (T, C)))
    first, second = solve(*args, control(1.0)), solve(*args, control(1.0))
    assert (first.status, first.score, first.bound, first.days) == (second.status, second.score, second.bound, second.days)
    assert first.bound >= first.score
