"""The order-cut loop's prefix reason (optimiser.PREFIX_REASON, _prefix_reason): when the day-prefix cuts refuse an
unplantable relaxed garden, the literals they need to refuse it are cut off the relaxation.

The reason must be true in the garden it came from (so the no-good cuts that garden off) and false in every legal
game (so the relaxation stays a relaxation): checked against every legal game of a tiny instance, enumerated by the
pure rules, and against the exhaustive oracle's best score.
"""
import itertools

import pytest
from ortools.sat.python import cp_model

from solver.core.solve import SolveControl
from solver.games.horticulture import optimiser
from solver.games.horticulture.garden import PathDrawing, Plan
from solver.games.horticulture.model import DaySpec, HorticultureModel
from solver.games.horticulture.optimiser import _Values, _prefix_reason
from solver.games.horticulture.rules import replay
from solver.games.horticulture.state import WINDOW, Day, Planting, Setup

from .helpers import C, S, T, U, oracle, tiny_catalog

DRAWING, GNOME, PLAN = PathDrawing(1, "DD"), (0, 1), Plan(S, U, (T, C))
CARDS = [1, 19]  # day 0: topiary + turnip, day 1: carrot + sweet potato
# the plain relaxation takes it (order sweet potato, carrot, topiary), no real game plants it (see test_prefix_days)
GARDEN = {(3, 0): T, (2, 0): C, (1, 0): S, (0, 0): U}


def control(work=20.0):
    return SolveControl(time_limit_s=300.0, deterministic_limit=work, num_workers=1, random_seed=0)


@pytest.fixture(scope="module")
def tiny4(tmp_path_factory):
    return tiny_catalog(tmp_path_factory.mktemp("tiny4x2r"), 4, 2)


def _relaxed(catalog):
    return HorticultureModel(catalog, "T", DRAWING, [DaySpec((c,)) for c in CARDS], GNOME, PLAN, timed=False)


def _meanings(model):
    """What each of model.final_literals() says, position by position (the order of final_literals)."""
    out = [("y", model.cells[i], t) for i in range(model.n) for t in model.types]
    out += [("gnome", c) for c in model.cells] + [("box", t) for t in model.types]
    out += [("card", d, cid) for d, spec in enumerate(model.days) for cid in spec.options]
    for k in range(4):
        out += [("plan", k, t) for t in model.types]
    assert len(out) == len(model.final_literals())
    return out


def _holds(meaning, garden, box):
    what = meaning[0]
    if what == "y":
        return garden.get(meaning[1]) == meaning[2]
    if what == "gnome":
        return meaning[1] == GNOME
    if what == "box":
        return meaning[1] in box
    if what == "card":
        return CARDS[meaning[1]] == meaning[2]
    return (PLAN.border, PLAN.path, *PLAN.companions)[meaning[1]] == meaning[2]


def _legal_gardens(catalog):
    places = list(_relaxed(catalog).cells) + [WINDOW]
    setup = Setup("T", DRAWING, GNOME, PLAN)
    out = set()
    for spots in itertools.product(places, repeat=4):
        game = [Day(cid, tuple(Planting(p, at) for p, at in zip(catalog.card(cid).plants, spots[2 * d:2 * d + 2])))
                for d, cid in enumerate(CARDS)]
        sheet, violations = replay(catalog, setup, game)
        if not violations:
            out.add((frozenset(sheet.garden.items()), tuple(sorted(sheet.window_box))))
    return out


@pytest.mark.parametrize("split", [1])
def test_the_prefix_reason_cuts_its_garden_and_no_legal_game(tiny4, split, monkeypatch):
    monkeypatch.setattr(optimiser, "PREFIX_REASON", split)
    assert [tiny4.card(c).plants for c in CARDS] == [(T, U), (C, S)]
    # the unplantable garden as a solution of the relaxation (a twin model: same variables, pinned)
    twin = _relaxed(tiny4)
    twin.fix_final(GARDEN, [], CARDS, GNOME, PLAN)
    status, solver = control().solve(twin.m)
    assert status == cp_model.OPTIMAL
    solution = _Values(list(solver.response_proto.solution), solver.objective_value)
    relaxed = _relaxed(tiny4)
    reason, cost = _prefix_reason(relaxed, GNOME, PLAN, solution, control(), 5.0)
    assert reason is not None and cost >= 0
    position = {lit.index: k for k, lit in enumerate(relaxed.final_literals())}
    meanings = _meanings(relaxed)
    said = []
    for lit in reason:
        assert solution.value(lit) == 1  # true in the garden it came from
        k = position.get(lit.index)
        if k is not None:
            said.append((meanings[k], True))
        else:  # a negated literal: its variable is false in the garden
            said.append((meanings[position[-lit.index - 1]], False))
    assert len(said) < len(meanings)  # smaller than the whole-garden no-good
    legal = _legal_gardens(tiny4)
    assert legal and all(not all(_holds(m, dict(g), box) == v for m, v in said) for g, box in legal)
    # added to the relaxation: the garden is gone, the best game still fits
    relaxed.m.add_bool_or([lit.Not() for lit in reason])
    status, solver = control().solve(relaxed.m)
    assert status == cp_model.OPTIMAL
    best = oracle(tiny4, Setup("T", DRAWING, GNOME, PLAN), CARDS)
    assert solver.objective_value >= best
    relaxed.fix_final(GARDEN, [], CARDS, GNOME, PLAN)
    assert control().solve(relaxed.m)[0] == cp_model.INFEASIBLE


def test_no_reason_when_the_prefix_cuts_accept_the_garden(tiny4, monkeypatch):
    """A legal game's garden passes the prefix cuts: no reason (the loop then cuts the whole garden off)."""
    monkeypatch.setattr(optimiser, "PREFIX_REASON", 1)
    legal = sorted(_legal_gardens(tiny4), key=lambda gb: (-len(gb[0]), sorted(gb[0]), gb[1]))
    garden, box = dict(legal[0][0]), list(legal[0][1])
    twin = _relaxed(tiny4)
    twin.fix_final(garden, box, CARDS, GNOME, PLAN)
    status, solver = control().solve(twin.m)
    assert status == cp_model.OPTIMAL
    solution = _Values(list(solver.response_proto.solution), solver.objective_value)
    assert _prefix_reason(_relaxed(tiny4), GNOME, PLAN, solution, control(), 5.0)[0] is None
