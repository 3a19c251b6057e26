"""The hybrid dual step's no-goods and its "after step 1" placement (optimiser._hybrid_dual with excluded /
HYBRID_NO_GOODS, optimiser.HYBRID_DUAL_AT = "after", model.exclude_garden; session of 1 Dec 05:00,
docs/horticulture.md).

A real garden the hybrid loop ends on that is proven to have no day-by-day planting is cut off the hybrid and the same
target is asked again; the no-good removes exactly the final garden it names (squares, gnome, window box kinds, cards,
plan) and nothing else; an open planting check never cuts; the loop's bound stays at or above the oracle's best game;
and with the step "after" step 1 every CP-SAT search before it is the flag-off run's."""
from __future__ import annotations

import pytest
from ortools.sat.python import cp_model

from solver.games.horticulture import optimiser as optimiser_module
from solver.games.horticulture.model import HorticultureModel
from solver.games.horticulture.rules import replay
from solver.games.horticulture.scoring import score_sheet
from solver.games.horticulture.state import Setup

from .helpers import control, oracle, pairs, tiny_sheet_fixture
from .test_hybrid import CUTS, count_model, random_game, value

tiny4 = tiny_sheet_fixture("tiny4", 4)

# 4x2 sheet, random_game seed 18: count optimum 18 = the final-garden relaxation's optimum 18, but no 18 garden can be
# planted day by day (the day-by-day model's optimum, and the oracle's, is 17).
UNPLANTABLE = (18, 18, 17)
# seed 20: inside optimiser.solve (count-first forced) step 1's relaxed optimum cannot be planted; the best game is
# 13 (the oracle, checked once, 1 Dec 05:30; the flag-off answer is optimal 13 too).
SECOND = (20, None, 13)


def instance(catalog, seed):
    nursery, plan, drawing, gnome = random_game(catalog, 4, seed)
    return nursery, pairs(nursery), plan, drawing, gnome


def kept(catalog, drawing, days, gnome, plan):
    model = count_model(catalog, drawing, days, gnome, plan)
    _, solved = value(model)
    return model, solved


def feasible(model: HorticultureModel, values: list[int]) -> bool:
    """Is the final garden with these values of model.final_literals() a solution of model (as it stands)?"""
    m = model.m.clone()
    m.clear_hints()
    for lit, v in zip(model.final_literals(), values):
        m.add(lit == v)
    status, _ = control().solve(m)
    assert status in (cp_model.OPTIMAL, cp_model.INFEASIBLE)
    return status == cp_model.OPTIMAL


def test_the_no_good_removes_exactly_the_garden_it_names(tiny4):
    """exclude_garden (a garden found in the whole relaxation, named by value, cut off a count model): that final
    garden is no longer a solution, and for each part of a final garden (squares, gnome, box kinds, cards, plan) a
    garden equal to it everywhere else but different there, a solution before the cut, still is one after it. A cut
    that dropped a part's literals would remove that neighbour too; one with a wrong value would keep the garden."""
    seed, _, _ = UNPLANTABLE
    nursery, days, plan, drawing, gnome = instance(tiny4, seed)
    relaxed = HorticultureModel(tiny4, "T", drawing, days, None, None, timed=False)  # gnome and plan decided too
    status, s = control().solve(relaxed.m)
    assert status == cp_model.OPTIMAL
    garden, box = relaxed.extract_garden(s)
    named = (garden, box, relaxed.chosen_cards(s), *optimiser_module._gnome_plan(relaxed, s))
    model = HorticultureModel(tiny4, "T", drawing, days, None, None, timed=False, groups="count", count_cuts=CUTS)
    values = model.final_values(*named)
    assert values == [s.value(lit) for lit in relaxed.final_literals()]  # the same literals, the same order
    lits = model.final_literals()
    n, kinds = model.n, len(model.types)
    bounds = [n * kinds, n, kinds, sum(len(spec.options) for spec in days), 4 * kinds]
    parts, at = {}, 0
    for name, size in zip(("squares", "gnome", "box", "cards", "plan"), bounds):
        parts[name] = range(at, at + size)
        at += size
    assert at == len(lits)
    neighbours = {}
    for name, part in parts.items():
        ask = model.m.clone()
        ask.clear_hints()
        for k, lit in enumerate(lits):
            if k not in part:
                ask.add(lit == values[k])
        ask.add_bool_or([lits[k].Not() if values[k] else lits[k] for k in part])
        status, sol = control().solve(ask)
        if status == cp_model.OPTIMAL:
            neighbours[name] = [sol.value(lit) for lit in lits]
    assert {"squares", "gnome", "plan"} <= set(neighbours)  # (on this garden no box or cards neighbour exists)
    assert feasible(model, values)
    model.exclude_garden(*named)
    assert not feasible(model, values)
    for name, other in neighbours.items():
        assert feasible(model, other), name
    # The clause itself: on exactly the final literals' variables, false on the named garden, true on each garden
    # that differs from it in one literal (so on every other assignment): box and cards parts included.
    constraints = model.m.proto.constraints
    clause = list(constraints[len(constraints) - 1].bool_or.literals)
    index = {lit.index: k for k, lit in enumerate(lits)}
    assert sorted(abs(v) if v >= 0 else -v - 1 for v in clause) == sorted(index)

    def holds(assignment):
        return any(assignment[index[v]] == 1 if v >= 0 else assignment[index[-v - 1]] == 0 for v in clause)

    assert not holds(values)
    for k in range(len(values)):
        assert holds(values[:k] + [1 - values[k]] + values[k + 1:]), k


def test_an_unplantable_real_garden_is_cut_off_and_the_same_target_asked_again(tiny4, monkeypatch):
    """Seed 18: every final garden of 18 (the count's and the relaxation's optimum) has no planting. With the no-goods
    the loop cuts each one off, refutes 18 and ends on a planted game of 17 = the oracle's best; without them it stops
    at the first real garden (bound 18, no game)."""
    seed, counted, best = UNPLANTABLE
    nursery, days, plan, drawing, gnome = instance(tiny4, seed)
    assert oracle(tiny4, Setup("T", drawing, gnome, plan), nursery) == best
    ctl = control()
    cuts = []
    exclude = HorticultureModel.exclude_final

    def spy(self, solver):
        cuts.append(solver)
        return exclude(self, solver)

    monkeypatch.setattr(HorticultureModel, "exclude_final", spy)
    bound, game = optimiser_module._hybrid_dual(tiny4, "T", drawing, days, kept(tiny4, drawing, days, gnome, plan),
                                                ctl, 10.0, counted, None, optimiser_module._Meter(ctl))
    assert cuts and bound == best and game is not None
    played, g, p, score = game
    sheet, violations = replay(tiny4, Setup("T", drawing, g, p), played)
    assert not violations and score_sheet(tiny4, sheet).total == score == best
    monkeypatch.setattr(optimiser_module, "HYBRID_NO_GOODS", False)
    bound, game = optimiser_module._hybrid_dual(tiny4, "T", drawing, days, kept(tiny4, drawing, days, gnome, plan),
                                                ctl, 10.0, counted, None, optimiser_module._Meter(ctl))
    assert (bound, game) == (counted, None)


@pytest.mark.parametrize("answer", [cp_model.UNKNOWN, cp_model.MODEL_INVALID])
def test_an_open_planting_check_never_cuts_the_garden(tiny4, monkeypatch, answer):
    """When the planting check does not prove INFEASIBLE, the real garden is not cut and the bound stays 18 (a loop
    that cut on any answer but a planting would refute 18 and report 17 without a proof)."""
    seed, counted, _ = UNPLANTABLE
    nursery, days, plan, drawing, gnome = instance(tiny4, seed)
    real = optimiser_module._planting

    def open_planting(*args):
        order, _, solver, cost = real(*args)
        return order, answer, solver, cost

    monkeypatch.setattr(optimiser_module, "_planting", open_planting)
    ctl = control()
    bound, game = optimiser_module._hybrid_dual(tiny4, "T", drawing, days, kept(tiny4, drawing, days, gnome, plan),
                                                ctl, 10.0, counted, None, optimiser_module._Meter(ctl))
    assert (bound, game) == (counted, None)


def flagged(monkeypatch, at: str = "after"):
    monkeypatch.setattr(optimiser_module, "COUNT_FIRST_MIN_DAYS", 3)
    monkeypatch.setattr(optimiser_module, "COUNT_CUT_MIN", 0.1)
    monkeypatch.setattr(optimiser_module, "HYBRID_DUAL", 1.0)
    monkeypatch.setattr(optimiser_module, "HYBRID_DUAL_AT", at)


class Recording:
    """Wraps a control's solve: records each CP-SAT call (model size, deterministic limit, status, objective)."""

    def __init__(self, ctl):
        self.ctl, self.calls, self.real = ctl, [], ctl.solve

    def __call__(self, model, solver=None, callback=None):
        status, solver = self.real(model, solver, callback)
        objective = solver.objective_value if status in (cp_model.OPTIMAL, cp_model.FEASIBLE) else None
        self.calls.append((len(model.proto.constraints), len(model.proto.variables),
                           solver.parameters.max_deterministic_time, status, objective))
        return status, solver


@pytest.mark.parametrize("at", ["after", "order"])
@pytest.mark.parametrize("seed,counted,best", [UNPLANTABLE, SECOND])
def test_after_step_one_the_step_keeps_every_earlier_search_and_the_answer_is_honest(tiny4, monkeypatch, seed,
                                                                                     counted, best, at):
    """HYBRID_DUAL_AT = "after" / "order" on two instances whose relaxed optimum (in solve) cannot be planted: the
    step runs (with that garden excluded), every CP-SAT call before it is the flag-off run's (same model sizes,
    limits, statuses and objectives, in order), and the answer stays between the oracle's best game and its bound
    ("optimal" only at score = bound = the oracle's best)."""
    nursery, days, plan, drawing, gnome = instance(tiny4, seed)
    top = best  # the oracle's best game (seed 18: checked in the test above; seed 20: checked once, see SECOND)
    monkeypatch.setattr(optimiser_module, "COUNT_FIRST_MIN_DAYS", 3)
    monkeypatch.setattr(optimiser_module, "COUNT_CUT_MIN", 0.1)
    off_ctl = control(4.0)
    off_rec = Recording(off_ctl)
    monkeypatch.setattr(off_ctl, "solve", off_rec)
    off = optimiser_module.solve(tiny4, "T", drawing, days, gnome, plan, off_ctl)
    flagged(monkeypatch, at)
    on_ctl = control(4.0)
    on_rec = Recording(on_ctl)
    monkeypatch.setattr(on_ctl, "solve", on_rec)
    seen = []
    dual = optimiser_module._hybrid_dual

    def spy(*args, **kwargs):
        seen.append((len(on_rec.calls), kwargs.get("excluded")))
        return dual(*args, **kwargs)

    monkeypatch.setattr(optimiser_module, "_hybrid_dual", spy)
    on = optimiser_module.solve(tiny4, "T", drawing, days, gnome, plan, on_ctl)
    assert seen and seen[0][1], "the step ran after step 2's check, with the relaxed optimum excluded"
    before = seen[0][0]
    assert on_rec.calls[:before] == off_rec.calls[:before]
    for answer in (on, off):
        assert answer.score <= top <= answer.bound
        assert (answer.status == "optimal") == (answer.score == answer.bound)
        if answer.status == "optimal":
            assert answer.score == top
    assert on.status == "optimal"


def test_after_step_one_without_an_unplantable_optimum_the_answer_is_the_flag_off_one(tiny4, monkeypatch):
    """Where step 2 plants the relaxed optimum (random_game seed 1: count 13, relaxation 12, planted), the "after" /
    "order" step never runs and every CP-SAT call and the answer are the flag-off run's."""
    nursery, days, plan, drawing, gnome = instance(tiny4, 1)
    monkeypatch.setattr(optimiser_module, "COUNT_FIRST_MIN_DAYS", 3)
    monkeypatch.setattr(optimiser_module, "COUNT_CUT_MIN", 0.1)
    runs = []
    for flag in (False, "after", "order"):
        if flag:
            flagged(monkeypatch, flag)
        ctl = control(4.0)
        rec = Recording(ctl)
        monkeypatch.setattr(ctl, "solve", rec)
        answer = optimiser_module.solve(tiny4, "T", drawing, days, gnome, plan, ctl)
        runs.append(((answer.status, answer.score, answer.bound, answer.days), rec.calls))
    assert runs[0] == runs[1] == runs[2]


@pytest.mark.parametrize("at", ["after", "order"])
def test_the_bound_the_step_proves_without_a_game_carries_into_the_answer(tiny4, monkeypatch, at):
    """Seed 18 with every planting check after step 2's reported open: the step refutes 18 (every 18 garden is cut or
    refuted only through proven answers) but returns no game, and the answer (the day-by-day search's game of 17)
    keeps a bound at or above the oracle's 17 and at or below the count's 18 (a step that took one more point off
    would put the bound below a legal game: ModelMismatch)."""
    seed, counted, best = UNPLANTABLE
    nursery, days, plan, drawing, gnome = instance(tiny4, seed)
    flagged(monkeypatch, at)
    real = optimiser_module._planting
    calls = []

    def later_open(*args):
        order, status, solver, cost = real(*args)
        calls.append(status)
        return order, (status if len(calls) == 1 else cp_model.UNKNOWN), solver, cost

    monkeypatch.setattr(optimiser_module, "_planting", later_open)
    dual = optimiser_module._hybrid_dual
    seen = []
    monkeypatch.setattr(optimiser_module, "_hybrid_dual", lambda *a, **k: seen.append(dual(*a, **k)) or seen[-1])
    answer = optimiser_module.solve(tiny4, "T", drawing, days, gnome, plan, control(4.0))
    assert calls[0] == cp_model.INFEASIBLE and seen and seen[0] == (best, None)
    assert answer.score <= best <= answer.bound <= counted
