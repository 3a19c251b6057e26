"""The Gardeners service's claims held against independent oracles on 3x3 gardens of the tiny
catalog of tests/games/gardeners/test_oracle.py (every distinct garden enumerated): GetHint's
"proven shortest" routes against a hand-played route, and closest / repair / forced / explain
against enumeration (claims audit, 1 Dec 2026)."""
import itertools
import random

import pytest

from solver.core.solve import SolveControl
from solver.games.gardeners import engine, hints, moves
from solver.games.gardeners.checker import check
from solver.games.gardeners.garden import Garden, Placed
from tests.games.gardeners.helpers import garden, tiny_mode
from tests.games.gardeners.test_oracle import POOL, TINY, all_tiny_gardens

MODE = tiny_mode(3)
CARDS = {c.id: c for c in POOL}


def control():
    return SolveControl(time_limit_s=20, num_workers=1)


def play(state: moves.NormalState, route: list[moves.Move]) -> Garden:
    """Each move checked by the Normal rules (moves.validate_normal), then applied."""
    for mv in route:
        verdict = moves.validate_normal(state, mv)
        assert verdict.legal, (mv, verdict.reason)
        if mv.kind == moves.ADD:
            state.supplies[mv.player].loose.remove(mv.tile)
            state.garden[mv.cell] = (mv.tile, mv.rotation)
        else:
            del state.garden[mv.cell]
            state.supplies[mv.to_player].loose.append(mv.tile)
    return Garden(state.size, {c: Placed(TINY.tile(t), r) for c, (t, r) in state.garden.items()})


def test_hint_under_removal_rules_claims_no_route_longer_than_a_played_one():
    """The fountain must leave the top row, but taking it off first would split s1 from s2; laying a
    U of tiles below first keeps the garden in one piece, so 8 moves do it (the route is played and
    checked below). Remove-first routes need 10 (take off s2 too). Before the fix GetHint called the
    10-move route proven shortest (route_length 10, proven, route_bound 10)."""
    cards = [CARDS["border-fountain-in"]]
    g = garden(TINY, ["s1 w1 s2", ". . .", ". . ."])
    ADD, REMOVE = moves.ADD, moves.REMOVE
    route = [moves.Move(ADD, 0, t, c, 0) for t, c in
             [("t1", (1, 0)), ("t2", (2, 0)), ("f1", (2, 1)), ("f2", (2, 2)), ("o1", (1, 2))]]
    route += [moves.Move(REMOVE, 0, "w1", (0, 1), to_player=1), moves.Move(ADD, 1, "w1", (1, 1), 0),
              moves.Move(ADD, 0, "o2", (0, 1), 0)]
    final = play(hints.state_for(g, MODE, TINY, "normal"), route)
    report = check(final, cards)
    assert report.complete and report.valid
    h = hints.next_move(g, cards, MODE, TINY, control(), removal_rules=True)
    assert h.status == "move"
    assert h.route_bound <= len(route)
    if h.proven:
        assert h.route_length <= len(route)
    # the lower bound is still a proof: one tile must go and come back, six cells must be filled
    assert h.route_bound == 8
