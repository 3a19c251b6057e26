"""Short wall-clock budgets (optimiser.solve's short path, docs/horticulture.md "Short budgets"): what comes back is a
legal game, replayed and scored by the pure rules, with an honest status and bound, whichever steps the clock let run;
and the short-budget knobs never touch a deterministic answer. No test here asserts a wall-clock duration (that is
bench/horticulture_deadlines.py's job): a budget only decides which steps run, and each test holds for every choice."""
from __future__ import annotations

import hashlib
import json
import time

import pytest

from bench.horticulture_optimal import instance as bench_instance
from solver.core.solve import SolveControl
from solver.games.horticulture import api, optimiser
from solver.games.horticulture.bounds import counting_bound
from solver.games.horticulture.garden import PathDrawing, Plan
from solver.games.horticulture.rules import replay
from solver.games.horticulture.schedule import fit_plan_and_gnome, play_greedy
from solver.games.horticulture.scoring import score_sheet
from solver.games.horticulture.state import Setup

STRAIGHT = {"start": 3, "moves": "DDDDDDD"}


def requests(seed: int, cards: int = 32) -> dict[str, dict]:
    """The bench's seeded deck, plan and gnome as SolveBestPlan, SolveOptimal and Hint (with `future`) requests."""
    _, days, gnome, plan = bench_instance(seed, cards)
    nursery = [c for d in days for c in d.options]
    setup = {"side": "A", "path": STRAIGHT, "gnome": list(gnome),
             "plan": {"border": plan.border, "path": plan.path, "companions": list(plan.companions)}}
    return {"best_plan": {"side": "A", "path": STRAIGHT, "nursery": nursery},
            "solve_optimal": dict(setup, nursery=nursery),
            "hint": dict(setup, days=[], today=nursery[:2], future=nursery[2:])}


def assert_checked_game(request: dict, answer: dict) -> None:
    """A solve's answer: a legal game of the request's nursery (validate: the pure replay), scoring what it says,
    with a bound at or above it and "optimal" only at the bound."""
    assert answer["status"] in ("optimal", "feasible")
    record = {"side": "A", "path": STRAIGHT, "gnome": answer["gnome"], "plan": answer["plan"],
              "days": answer["days"], "nursery": request["nursery"]}
    checked = api.validate(record)
    assert checked["legal"], checked["violations"]
    assert checked["score"]["total"] == answer["score"] == answer["score_sheet"]["total"]
    assert answer["bound"] is not None and answer["bound"] >= answer["score"]
    assert (answer["status"] == "optimal") == (answer["bound"] == answer["score"])
    if request.get("gnome") is not None:
        assert answer["gnome"] == request["gnome"] and answer["plan"] == request["plan"]


def assert_checked_hint(request: dict, answer: dict) -> None:
    """Each option searched: its card's day then its continuation replay legally to the score it promises, below its
    bound; an option the clock left unsearched says "unknown" and promises nothing."""
    assert {o["card"] for o in answer["options"]} == set(request["today"])
    assert answer["options"][0]["status"] != "unknown"  # the first option is always searched
    for option in answer["options"]:
        if option["status"] == "unknown":
            assert option.get("final_score") is None and option["bound"] is None
            continue
        assert option["status"] in ("optimal", "feasible")
        today = {"chosen": option["card"], "cards": request["today"], "plants": option["plants"]}
        record = {k: request[k] for k in ("side", "path", "gnome", "plan")}
        record.update(days=[today] + option["continuation"], nursery=request["today"] + request["future"])
        checked = api.validate(record)
        assert checked["legal"], checked["violations"]
        assert checked["score"]["total"] == option["final_score"]
        assert option["bound"] >= option["final_score"]
        assert (option["status"] == "optimal") == (option["bound"] == option["final_score"])


@pytest.mark.parametrize("call", ["best_plan", "solve_optimal", "hint"])
@pytest.mark.parametrize("budget", [0.05, 0.3])
def test_a_short_wall_budget_answers_a_checked_game(call, budget):
    """32 cards at 0.05 s (less than one greedy game takes) and 0.3 s: the greedy or annealed game, legal, with the
    counting bound or better. In the request (time_limit_s) and as the server's control (ends_at, a deadline)."""
    request = requests(3)[call]
    check = assert_checked_hint if call == "hint" else assert_checked_game
    fn = getattr(api, call)
    check(request, fn(dict(request, time_limit_s=budget)))
    check(request, fn(request, control=SolveControl(time_limit_s=budget, ends_at=time.monotonic() + budget)))


@pytest.fixture
def no_model(monkeypatch):
    """The short path forced whatever the machine's speed (no budget holds MODEL_MIN_S): building any CP-SAT model
    or re-scoring a game in CP-SAT fails the test."""
    def refused(*args, **kwargs):
        raise AssertionError("a CP-SAT model was built on the short path")

    monkeypatch.setattr(optimiser, "MODEL_MIN_S", 1e9)
    monkeypatch.setattr(optimiser, "HorticultureModel", refused)
    monkeypatch.setattr(optimiser, "_exact_score", refused)
    monkeypatch.setattr(optimiser, "ClassCountModel", refused)


@pytest.mark.parametrize("call", ["best_plan", "solve_optimal"])
def test_the_short_path_answers_the_annealed_greedy_game_with_the_counting_bound(no_model, monkeypatch, call):
    """No CP-SAT model at all: the answer is the (annealed) greedy game, scored by the pure scorer, "feasible" with the
    counting bound (every game's bound; on 32 cards no game reaches it), never below the greedy game it starts from
    (its clock switched off here, so that game is the outlook's whole game however loaded the machine)."""
    monkeypatch.setattr(optimiser, "GREEDY_SHARE", 1e9)
    request = requests(5)[call]
    answer = getattr(api, call)(dict(request, time_limit_s=0.5))
    assert_checked_game(request, answer)
    catalog, days, gnome, plan = bench_instance(5, 32)
    drawing = PathDrawing(**STRAIGHT)
    free = call == "best_plan"
    assert answer["status"] == "feasible"
    assert answer["bound"] == counting_bound(catalog, "A", drawing, days, None if free else gnome,
                                             None if free else plan)
    if not free:
        greedy = play_greedy(catalog, Setup("A", drawing, gnome, plan), [d.options for d in days])
        assert answer["score"] >= score_sheet(catalog, replay(catalog, Setup("A", drawing, gnome, plan),
                                                            greedy)[0]).total


def test_a_short_hint_searches_both_options_without_a_model(no_model):
    """A hint's options on the short path: each a checked line (the first searched always, the second when the
    clock leaves it OPTION_FIXED_S)."""
    request = requests(5)["hint"]
    assert_checked_hint(request, api.hint(dict(request, time_limit_s=1.0)))


def test_best_plan_without_room_for_a_second_greedy_game_keeps_a_legal_setup(no_model, monkeypatch):
    """No second greedy game: the first one's garden with the fitted gnome and plan when it stays legal with them and
    scores more, else with its own; a legal, checked game either way."""
    monkeypatch.setattr(optimiser, "SECOND_GREEDY_ROOM", 1e9)
    monkeypatch.setattr(optimiser, "ANNEAL_SHARE", 0.0)  # (the greedy game itself comes back)
    monkeypatch.setattr(optimiser, "SHORT_ANNEAL_MIN_DAYS", None)
    for seed in (0, 1):
        request = requests(seed)["best_plan"]
        assert_checked_game(request, api.best_plan(dict(request, time_limit_s=0.5)))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_refit_takes_the_fitted_setup_only_when_the_game_stays_legal_and_scores_more(seed):
    """_refit against every empty square as the fitted gnome (with the fitted plan): the fitted setup exactly when the
    pure replay accepts the game with it and the pure score rises. Most squares make the game illegal (a plant leaned
    on the gnome's square: no path beside it, no earlier plant): the played setup stays."""
    catalog, days, _, _ = bench_instance(seed, 16)
    drawing = PathDrawing(**STRAIGHT)
    side = catalog.sheet("A")
    played = ((2, 3), Plan("carrot", "carrot", ("turnip", "carrot")))
    game = play_greedy(catalog, Setup("A", drawing, *played), [d.options for d in days])
    _, fitted_plan = fit_plan_and_gnome(catalog, Setup("A", drawing, *played), game, True, False)
    planted = {p.at for d in game for p in d.plants}
    before = score_sheet(catalog, replay(catalog, Setup("A", drawing, *played), game)[0]).total
    outcomes = set()
    for square in [(c, r) for c in range(side.columns) for r in range(side.rows) if (c, r) not in planted]:
        fitted = (square, fitted_plan)
        sheet, violations = replay(catalog, Setup("A", drawing, *fitted), game)
        expected = fitted if not violations and score_sheet(catalog, sheet).total > before else played
        got = optimiser._refit(catalog, "A", drawing, game, played, fitted)
        assert got == expected
        outcomes.add((bool(violations), got == fitted))
    assert {(False, True), (True, False)} <= outcomes  # some fitted setups taken, some illegal ones refused


@pytest.mark.parametrize("work", [0.05])  # (0.6 too took 17 s of the suite's 15 min for the same property)
def test_the_short_budget_knobs_never_change_a_deterministic_answer(monkeypatch, work):
    """With a deterministic limit no clock reading decides anything: the short-budget knobs at their extremes (every
    wall-clock call would take the short path, never play a second greedy game, keep everything back, cut every
    greedy game at once) give the same answers, every field but the measured wall time."""
    control = lambda: SolveControl(time_limit_s=0.01, deterministic_limit=work, num_workers=1)  # noqa: E731
    calls = requests(2, 16)

    def answers() -> list[dict]:
        out = []
        for call, request in calls.items():
            answer = getattr(api, call)(request, control=control())
            if call == "hint":
                out.append(answer)
            else:
                out.append({k: v for k, v in answer.items() if k != "wall_time_s"})
        return out

    default = answers()
    for name, value in (("MODEL_MIN_S", 1e9), ("SECOND_GREEDY_ROOM", 1e9), ("BUILD_PER_GREEDY", 1e9),
                        ("BUILD_PER_GREEDY_FREE", 1e9), ("CLOSE_RESERVE_S", 1e9), ("GREEDY_SHARE", 0.0)):
        monkeypatch.setattr(optimiser, name, value)
    assert answers() == default


@pytest.mark.parametrize("seed, cards", [(0, 32), (4, 32), (1, 16)])
def test_a_greedy_game_cut_short_by_its_clock_is_whole_and_legal(seed, cards):
    """play_greedy's `until` passed before the first day: every day by the quick rule, still a whole legal game (the
    pure replay) bringing home one of each day's cards; with an `until` far off, the outlook's own game."""
    catalog, days, gnome, plan = bench_instance(seed, cards)
    setup = Setup("A", PathDrawing(**STRAIGHT), gnome, plan)
    options = [d.options for d in days]
    quick = play_greedy(catalog, setup, options, until=0.0)
    assert len(quick) == len(days) and all(day.chosen in d for day, d in zip(quick, options))
    assert not replay(catalog, setup, quick)[1]
    assert play_greedy(catalog, setup, options, until=time.perf_counter() + 3600) == play_greedy(catalog, setup,
                                                                                                 options)


# sha256 (first 16 hex digits) of the answers' JSON (sorted keys, without wall_time_s) at commit 0250495, before the
# short-budget work, and their scores: 16-card seed 0, one worker, CP-SAT random seed 0
BEFORE = {(0.05, "best_plan"): ("f60b7c4234b92c1d", 55), (0.05, "solve_optimal"): ("db6812c81de2d670", 35),
          (0.05, "hint"): ("05f5ecb0415348be", [36, 31]), (0.3, "best_plan"): ("1307445437f55c00", 56),
          (0.3, "solve_optimal"): ("061dd6a9133c33bc", 40), (0.3, "hint"): ("297363696d82a778", [40, 36])}


@pytest.mark.parametrize("work, call", sorted(BEFORE))
def test_deterministic_answers_are_those_from_before_the_short_budget_work(work, call):
    """The short-budget steps read the clock only without a deterministic limit: these answers are, field for field,
    the ones recorded before them (a first version skipped the 0.0075-unit annealing of a 16-card game at work 0.05,
    below MIN_STEP, and changed the first three). 60 answers (8-32 cards, work 0.05-3) were compared when this was
    written; a deliberate change of the optimiser may re-record these."""
    request = requests(0, 16)[call]
    answer = getattr(api, call)(request, control=SolveControl(time_limit_s=0.01, deterministic_limit=work,
                                                              num_workers=1))
    answer.pop("wall_time_s", None)
    digest, points = BEFORE[work, call]
    scores = answer["score"] if call != "hint" else [o.get("final_score") for o in answer["options"]]
    assert (hashlib.sha256(json.dumps(answer, sort_keys=True).encode()).hexdigest()[:16], scores) == (digest, points)
