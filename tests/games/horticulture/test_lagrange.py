"""The Lagrangian bound (lagrange.py) and its region graphs (regions.py): each region's layered graph scores a
planting exactly as the pure scorer does, its best value at given prices is the best over every planting (exhaustive
on tiny sheets), the bound never falls below the best game (exhaustive oracle), the region cuts keep every real game
a solution of the class count model, and in the optimiser the step lowers the bound."""
from __future__ import annotations

import itertools
import random

import pytest
from ortools.sat.python import cp_model

from solver.games.horticulture import lagrange, optimiser
from solver.games.horticulture.classcount import ClassCountModel
from solver.games.horticulture.data import default_catalog
from solver.games.horticulture.garden import Garden, PathDrawing, Plan
from solver.games.horticulture.model import DaySpec, regions
from solver.games.horticulture.regions import RegionGraph
from solver.games.horticulture.rules import replay
from solver.games.horticulture.schedule import play_greedy
from solver.games.horticulture.scoring import score_sheet
from solver.games.horticulture.state import Setup, Sheet

from bench.horticulture_optimal import instance as bench_instance

from .helpers import C, S, T, U, control, oracle, pairs, proven_optimum, tiny_sheet_fixture

tiny4 = tiny_sheet_fixture("tiny4", 4)
tiny5 = tiny_sheet_fixture("tiny5", 5)
CAT = default_catalog()
SCALE = lagrange.SCALE
DRAWINGS = [PathDrawing.straight(CAT.sheet("A")), PathDrawing(2, "DRDDDLDDD"), PathDrawing(4, "DDLDDRDDD"),
            PathDrawing(2, "DDDDDDD"), PathDrawing(4, "DDDDDDD")]


def _region_points(catalog, setup: Setup, planted: dict, garden: Garden | None = None) -> int:
    """The pure scorer's total for a garden without a window box (the sum of the regions' points); `garden`: the
    setup's side and path, passed to the scorer by callers that score thousands of plantings of one setup."""
    return score_sheet(catalog, Sheet(setup, dict(planted), []), garden).total


def _regions(catalog, side, drawing, gnome):
    garden = Garden(catalog.sheet(side), drawing)
    return garden, [[garden.cells[i] for i in part] for part in regions(garden, gnome)]


def _random_garden(rng: random.Random, cells, kinds, fill: float) -> dict:
    """Squares planted with clustered kinds (a square often takes a neighbour's kind), so that groups merge."""
    out = {}
    for c in cells:
        if rng.random() < fill:
            near = [out[n] for n in ((c[0] - 1, c[1]), (c[0], c[1] - 1)) if n in out]
            out[c] = rng.choice(near) if near and rng.random() < 0.6 else rng.choice(kinds)
    return out


def _plan(rng: random.Random, kinds) -> Plan:
    first = rng.choice(kinds)
    return Plan(rng.choice(kinds), rng.choice(kinds), (first, first if rng.random() < 0.3 else rng.choice(kinds)))


@pytest.mark.parametrize("seed", range(40))
def test_a_fixed_planting_is_scored_as_the_pure_scorer_scores_it(seed):
    """Every square fixed (a kind or empty): one path through each region's layers, and the sum of its points is
    the pure scorer's total; at prices lam the value is that minus the prices of the plants."""
    rng = random.Random(seed)
    kinds = list(CAT.plants)
    drawing = DRAWINGS[seed % len(DRAWINGS)]
    gnome = (rng.randrange(6), rng.randrange(7))
    plan = _plan(rng, kinds)
    garden, parts = _regions(CAT, "A", drawing, gnome)
    planted = _random_garden(rng, [c for c in garden.cells if c != gnome], kinds, rng.choice([0.5, 0.8, 1.0]))
    lam = [rng.randrange(-300, 600) for _ in kinds]
    total = 0
    for part in parts:
        graph = RegionGraph(CAT, garden, part, gnome, plan, {c: planted.get(c) for c in part})
        assert graph.supported
        value, counts = graph.best([0] * len(kinds), SCALE)
        priced, _ = graph.best(lam, SCALE)
        assert priced == value - sum(p * n for p, n in zip(lam, counts))
        assert counts == [sum(planted.get(c) == t for c in part) for t in kinds]
        assert value % SCALE == 0
        total += value // SCALE
    assert total == _region_points(CAT, Setup("A", drawing, gnome, plan), planted)


def _tiny_setup(seed: int, tiny4, tiny5):
    """A seeded tiny sheet (4 x 2 or 5 x 2) with a random path, gnome and plan: (rng, catalog, drawing, gnome, plan),
    the rng drawn on for more."""
    rng = random.Random(seed)
    catalog, columns = (tiny4, 4) if seed % 2 == 0 else (tiny5, 5)
    drawing = PathDrawing(*rng.choice([(1, "DD"), (2, "DD"), (2, "DRD"), (columns - 1, "DLD")]))
    gnome = (rng.randrange(columns), rng.randrange(2))
    return rng, catalog, drawing, gnome, _plan(rng, [S, U, C, T])


@pytest.mark.parametrize("seed", range(12))
def test_the_best_value_is_the_best_over_every_planting_of_a_tiny_sheet(tiny4, tiny5, seed):
    """Tiny sheets (4 x 2 and 5 x 2), straight and winding paths: every planting of each region of at most five
    squares enumerated through the pure scorer; the graph's best value at random prices is the largest (points x SCALE - prices), and the
    planting it names reaches it."""
    rng, catalog, drawing, gnome, plan = _tiny_setup(seed, tiny4, tiny5)
    kinds = list(catalog.plants)
    setup = Setup("T", drawing, gnome, plan)
    garden, parts = _regions(catalog, "T", drawing, gnome)
    lam = [rng.randrange(-200, 500) for _ in kinds]
    small = [part for part in parts if len(part) <= 5]  # 7^5 plantings at most
    assert small
    for part in small:
        graph = RegionGraph(catalog, garden, part, gnome, plan)
        best = max(
            SCALE * _region_points(catalog, setup, {c: k for c, k in zip(part, choice) if k is not None}, garden)
            - sum(lam[kinds.index(k)] for k in choice if k is not None)
            for choice in itertools.product([None] + kinds, repeat=len(part)))
        value, counts = graph.best(lam, SCALE)
        assert value == best
        named = graph.planting(lam, SCALE)
        assert SCALE * _region_points(catalog, setup, named) - sum(lam[kinds.index(k)] for k in named.values()) \
            == value
        assert counts == [sum(k == t for k in named.values()) for t in kinds]


def _tiny_game(seed: int, tiny4, tiny5):
    """A seeded tiny-sheet game (4 x 2 or 5 x 2, random plan, gnome and path) and its best score by the exhaustive
    oracle: (catalog, drawing, gnome, plan, days, best)."""
    rng = random.Random(seed)
    catalog, columns = (tiny4, 4) if seed % 2 == 0 else (tiny5, 5)
    nursery = rng.sample(sorted(catalog.deck.cards), 6 if columns == 4 else 4)
    plan = _plan(rng, [S, U, C, T])
    drawing = PathDrawing(*rng.choice([(1, "DD"), (2, "DD"), (2, "DRD"), (columns - 1, "DLD")]))
    gnome = (rng.randrange(columns), rng.randrange(2))
    return catalog, drawing, gnome, plan, pairs(nursery), oracle(catalog, Setup("T", drawing, gnome, plan), nursery)


# (seeds 4 and 8, 3-day games with a wild, were dropped on 7 Dec: 15 of the 21 s of oracle, and every mutant of
# the region graphs' points tried that they caught, the others caught too; seeds 2 and 6 are the only ones to
# catch a companion credited only one way round)
@pytest.mark.parametrize("seed", [0, 1, 2, 3, 5, 6, 7, 9])
def test_the_bound_and_the_cut_count_model_never_fall_below_the_best_game(tiny4, tiny5, seed):
    """Tiny sheets, random plans, gnomes and paths: the Lagrangian bound and the class count model with its region
    cuts are at least the exhaustive oracle's best game, and the cuts never raise the class count's optimum."""
    catalog, drawing, gnome, plan, days, best = _tiny_game(seed, tiny4, tiny5)
    found = lagrange.LagrangeBound(catalog, "T", drawing, days, gnome, plan).solve(40)
    assert found.bound >= best and found.evaluations == len(found.cuts) >= 1
    plain = proven_optimum(ClassCountModel(catalog, "T", drawing, days, gnome, plan))
    cut = ClassCountModel(catalog, "T", drawing, days, gnome, plan)
    cut.add_region_cuts(found.cuts, SCALE)
    assert best <= proven_optimum(cut) <= plain


@pytest.mark.parametrize("seed", range(4))
def test_every_real_game_stays_a_solution_of_the_cut_count_model(seed):
    """32-card games (the greedy player's, straight and winding paths): pinned in the class count model with the
    region cuts of a full Lagrangian search, the model has a solution worth at least the game's points."""
    rng = random.Random(seed)
    nursery = rng.sample(sorted(CAT.deck.cards), 32)
    kinds = list(CAT.plants)
    plan = _plan(rng, kinds)
    gnome = (rng.randrange(6), rng.randrange(7))
    drawing = DRAWINGS[seed % 3]
    days = [DaySpec((nursery[i], nursery[i + 1])) for i in range(0, 32, 2)]
    setup = Setup("A", drawing, gnome, plan)
    game = play_greedy(CAT, setup, [d.options for d in days])
    points = score_sheet(CAT, replay(CAT, setup, game)[0]).total
    found = lagrange.LagrangeBound(CAT, "A", drawing, days, gnome, plan).solve(30)
    assert found.bound >= points
    model = ClassCountModel(CAT, "A", drawing, days, gnome, plan)
    model.add_region_cuts(found.cuts, SCALE)
    for var, value in model.assignment(game, gnome, plan):
        model.m.add(var == value)
    model.m.add(model.objective >= points)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers, solver.parameters.max_deterministic_time = 1, 60.0
    solver.parameters.stop_after_first_solution = True
    assert solver.solve(model.m) in (cp_model.OPTIMAL, cp_model.FEASIBLE)


@pytest.mark.parametrize("seed", range(8))
def test_a_separation_cut_holds_for_every_planting_and_is_tightest_at_its_counts(tiny4, tiny5, seed):
    """Tiny sheets: a region's separation at a planting's counts (`LagrangeBound.separate`) is a cut that every
    planting of the region keeps (enumerated through the pure scorer), its value is V_r at its prices plus the
    prices times the counts, it holds that planting's own points, and it is no looser there than the cut from the
    prices it started at."""
    rng, catalog, drawing, gnome, plan = _tiny_setup(seed, tiny4, tiny5)
    kinds = list(catalog.plants)
    setup = Setup("T", drawing, gnome, plan)
    days = pairs(rng.sample(sorted(catalog.deck.cards), 4))
    bound = lagrange.LagrangeBound(catalog, "T", drawing, days, gnome, plan)
    garden = Garden(catalog.sheet("T"), drawing)
    checked = 0
    for r, part in enumerate(bound.parts):
        if len(part) > 5:
            continue
        checked += 1
        everything = [{c: k for c, k in zip(part, choice) if k is not None}
                      for choice in itertools.product([None] + kinds, repeat=len(part))]
        scored = [(SCALE * _region_points(catalog, setup, g, garden),
                   [sum(k == t for k in g.values()) for t in kinds]) for g in everything]
        start = [rng.randrange(-200, 500) for _ in kinds]
        for points, counts in rng.sample(scored, 6):
            cut = bound.separate(r, counts, 15, start)
            assert cut.region_value == bound.graphs[r].best(cut.prices, SCALE)[0]
            assert cut.value == cut.region_value + sum(p * n for p, n in zip(cut.prices, counts))
            assert points <= cut.value <= bound.graphs[r].best(start, SCALE)[0] + sum(
                p * n for p, n in zip(start, counts))
            assert 1 <= cut.evaluations <= 15 and cut.work == cut.evaluations * bound.graphs[r].transitions
            assert all(q <= cut.region_value + sum(p * n for p, n in zip(cut.prices, c)) for q, c in scored)
    assert checked


def test_played_days_are_fixed_squares_and_box_plants():
    """Half of a greedy game played: its squares are fixed in the region graphs and its window-box plants in the
    box, so the bound holds for the rest of that game and is no higher than the bound from the start."""
    rng = random.Random(3)
    nursery = rng.sample(sorted(CAT.deck.cards), 24)
    plan, gnome, drawing = Plan(C, U, (S, T)), (1, 3), DRAWINGS[0]
    days = pairs(nursery)
    setup = Setup("A", drawing, gnome, plan)
    game = play_greedy(CAT, setup, [d.options for d in days])
    played = [DaySpec((day.chosen,), day.plants) for day in game[:6]] + days[6:]
    points = score_sheet(CAT, replay(CAT, setup, game)[0]).total
    bound = lagrange.LagrangeBound(CAT, "A", drawing, played, gnome, plan)
    assert bound.fixed_box == {p.plant for day in game[:6] for p in day.plants if p.at == "window"}
    mid = bound.solve(30).bound
    assert points <= mid <= lagrange.LagrangeBound(CAT, "A", drawing, days, gnome, plan).solve(30).bound


def test_a_frontier_wider_than_max_front_is_not_supported():
    """A region wider than MAX_FRONT squares (side A's path drawn on its first line: 5 squares wide, about 0.9
    billion transitions): no graph, no bound."""
    drawing = PathDrawing(1, "D" * CAT.sheet("A").rows)
    garden, parts = _regions(CAT, "A", drawing, (0, 0))
    graphs = [RegionGraph(CAT, garden, part, (0, 0), Plan(C, U, (S, T))) for part in parts]
    assert [g.supported for g in graphs].count(False) == 1
    days = pairs(random.Random(1).sample(sorted(CAT.deck.cards), 8))
    assert lagrange.LagrangeBound(CAT, "A", drawing, days, (0, 0), Plan(C, U, (S, T))).solve(5).bound is None


def _seed(seed: int, cards: int):
    """The benchmark's seeded game (`bench/horticulture_optimal.py`): days, gnome, plan."""
    _, days, gnome, plan = bench_instance(seed, cards)
    return days, gnome, plan


def test_in_the_optimiser_the_step_lowers_the_bound(monkeypatch):
    """The benchmark's 32-card seed 1 at 3 deterministic units: the class count step alone proves 97, with the
    region cuts 96 (its optimum, the score of a known game); the answer is the same twice and never above its
    bound. Switched off, the bound is 97 again. (6 units until 7 Dec: the same answers, 96 proven within 3.)"""
    days, gnome, plan = _seed(1, 32)
    drawing = PathDrawing.straight(CAT.sheet("A"))

    def run():
        return optimiser.solve(CAT, "A", drawing, days, gnome, plan, control(3.0))

    one, two = run(), run()
    assert (one.score, one.bound, one.days) == (two.score, two.bound, two.days)
    assert one.score <= one.bound == 96
    monkeypatch.setattr(optimiser, "LAGRANGE", False)
    off = run()
    assert off.score <= off.bound == 97


def test_the_cut_rounds_prove_seed_0_and_keep_its_best_game():
    """The benchmark's 32-card seed 0: the class count model with the Lagrangian's region cuts proves 93, above the
    best game (92). The cutting-plane rounds (`optimiser._cut_rounds`) prove 92, and the optimiser at 12
    deterministic units returns a game of 92, optimal. That game, pinned in a fresh class count model with every
    cut (the Lagrangian's and the rounds'), still has a solution worth 92: the cuts are tight there and valid."""
    days, gnome, plan = _seed(0, 32)
    drawing = PathDrawing.straight(CAT.sheet("A"))
    priced = lagrange.LagrangeBound(CAT, "A", drawing, days, gnome, plan)
    found = priced.solve(optimiser.LAGRANGE_EVALS)
    count = ClassCountModel(CAT, "A", drawing, days, gnome, plan)
    count.add_region_cuts(found.cuts, SCALE)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers, solver.parameters.max_deterministic_time = 1, 30.0
    solver.parameters.linearization_level, solver.parameters.cp_model_probing_level = 2, 0
    assert solver.solve(count.m) == cp_model.OPTIMAL
    first, cuts = int(solver.best_objective_bound + 1e-6), []
    work = control(30.0)
    # (6 units: 92 comes after about 1.4, then the rounds search on; cuts 3 points too tight reach 90 in 5.2 units)
    after = optimiser._cut_rounds(count, count.m, solver, priced, found.prices, work, optimiser._Meter(work), 6.0,
                                  first, -1, cuts)
    assert (first, after) == (93, 92) and cuts
    assert all(len(values) == 2 and values.count(None) == 1 for _, values in cuts)
    best = optimiser.solve(CAT, "A", drawing, days, gnome, plan, control(12.0))
    assert (best.status, best.score, best.bound) == ("optimal", 92, 92)
    again = ClassCountModel(CAT, "A", drawing, days, gnome, plan)
    again.add_region_cuts(found.cuts + cuts, SCALE)
    for var, value in again.assignment(best.days, best.gnome, best.plan):
        again.m.add(var == value)
    again.m.add(again.objective >= 92)
    solver.parameters.stop_after_first_solution = True
    assert solver.solve(again.m) in (cp_model.OPTIMAL, cp_model.FEASIBLE)


def test_the_rounds_hand_over_to_the_benders_check_and_seed_6_is_proven():
    """The benchmark's 32-card seed 6 at 12 deterministic units: the rounds bring the bound from 93 to 92, one above
    the annealed game (91), and stop there (`LAGRANGE_HAND_OVER`); the Benders check from the legal game then finds a
    garden of 92 that is planted, so the answer is 92, proven. (Without the hand-over the rounds go on at 92 and
    the answer is 91 / 92.)"""
    days, gnome, plan = _seed(6, 32)
    found = optimiser.solve(CAT, "A", PathDrawing.straight(CAT.sheet("A")), days, gnome, plan, control(12.0))
    assert (found.status, found.score, found.bound) == ("optimal", 92, 92)


def test_the_cut_rounds_keep_to_their_room_on_a_winding_path():
    """A winding path's wide region has about 12 M transitions, so a separation of 25 prices there costs about a
    unit: with a tenth of a unit of room the rounds separate only as many prices as the room pays for (at
    `LAGRANGE_WORK_PER_UNIT`), and all they charge stays within it."""
    days, gnome, plan = _seed(0, 32)
    drawing = PathDrawing(2, "DRDDDLDDD")
    priced = lagrange.LagrangeBound(CAT, "A", drawing, days, gnome, plan)
    assert max(g.transitions for g in priced.graphs) > 10_000_000
    found = priced.solve(4)
    count = ClassCountModel(CAT, "A", drawing, days, gnome, plan)
    assert count.cuttable
    count.add_region_cuts(found.cuts, SCALE)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers, solver.parameters.max_deterministic_time = 1, 30.0
    solver.parameters.linearization_level, solver.parameters.cp_model_probing_level = 2, 0
    solver.parameters.stop_after_first_solution = True  # (any solution to separate at; its optimum takes ~13 units)
    assert solver.solve(count.m) in (cp_model.OPTIMAL, cp_model.FEASIBLE)
    first = int(solver.best_objective_bound + 1e-6)
    passes = []
    real = priced.separate

    def separate(region, plants, evaluations, start=None, deadline=None):
        cut = real(region, plants, evaluations, start, deadline)
        passes.append((region, cut.evaluations))
        return cut

    priced.separate = separate
    work = control(30.0)
    meter = optimiser._Meter(work)
    after = optimiser._cut_rounds(count, count.m, solver, priced, found.prices, work, meter, 0.1, first, -1, [])
    assert after <= first and passes
    assert meter.used <= 0.1 * 1.03  # (a CP-SAT search ends a little past its deterministic limit)
    wide = max(range(len(priced.graphs)), key=lambda r: priced.graphs[r].transitions)
    assert all(n <= 0.1 * optimiser.LAGRANGE_WORK_PER_UNIT // priced.graphs[wide].transitions
               for r, n in passes if r == wide)


def test_building_stops_at_the_limit_and_counts_the_work_done():
    """`most` transitions: the graphs stop there (not supported, no bound), and `built` is what was built."""
    days, gnome, plan = _seed(0, 32)
    drawing = PathDrawing.straight(CAT.sheet("A"))
    whole = lagrange.LagrangeBound(CAT, "A", drawing, days, gnome, plan)
    assert whole.supported and whole.built == sum(g.transitions for g in whole.graphs)
    cut = lagrange.LagrangeBound(CAT, "A", drawing, days, gnome, plan, most=whole.graphs[0].transitions // 2)
    assert not cut.supported and len(cut.graphs) == 1
    assert whole.graphs[0].transitions // 2 < cut.built < whole.graphs[0].transitions
    assert cut.solve(5).bound is None


def test_the_compiled_copy_gives_the_same_bounds_as_the_pure_module(tmp_path):
    from solver.core import compiled

    from tests.compiled_probe import compiled_and_pure

    name = "solver.games.horticulture.regions"
    fast, pure = compiled_and_pure(name, "tests.games.horticulture._regions_probe", tmp_path)
    assert not fast["file"].endswith(".py"), fast["file"]
    assert pure["file"] == str(compiled.source_path(name))
    assert fast["bounds"] == pure["bounds"]
    assert all(b[0] is not None and len(b[3]) == 3 and b[5] for b in pure["bounds"])
