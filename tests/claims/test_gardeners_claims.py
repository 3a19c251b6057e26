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


# --- random partial gardens against enumeration ------------------------------------------------

LOCAL = ["border-fountain-in", "dist-orange", "prox-tree", "link-soil", "agg-grass-4", "border-orange-edge"]


def face(p):
    return p.tile.background, p.tile.elements


@pytest.fixture(scope="module")
def satisfied():
    """Every distinct garden of the tiny catalog with the LOCAL cards it satisfies (pure checker)."""
    cards = [CARDS[i] for i in LOCAL]
    out = []
    for g in all_tiny_gardens():
        report = check(g, cards)
        out.append((g, frozenset(c.id for c, v in zip(cards, report.verdicts) if v.status == "satisfied")))
    return out


def most_kept(part: Garden, valid: list[Garden]) -> int:
    """The most tiles of `part` any valid garden shows alike in the same cells (identical faces are
    interchangeable, rotation is invisible to these tiles)."""
    return max(sum(face(v.get(c)) == face(p) for c, p in part.cells.items()) for v in valid)


def removable_first(placed: set, gone: set) -> bool:
    """Some order takes `gone` off one tile at a time, each legal by moves.removable."""
    seen = set()

    def rec(cur, left):
        if not left:
            return True
        if left in seen:
            return False
        seen.add(left)
        return any(moves.removable(set(cur), c).legal and rec(cur - {c}, left - {c}) for c in left)
    return rec(frozenset(placed), frozenset(gone))


def test_repair_hint_and_closest_agree_with_enumeration(satisfied):
    """30 seeded connected partial gardens: SuggestRepair's removal-rules optimum (remove first, then
    add) is the fewest by exhaustive subsets; GetHint's route bound never exceeds the route every
    interleaved route is bounded by ((placed - kept) + (9 - kept), kept = the most keepable), and a
    route called proven has that length; a closest garden called optimal keeps the most tiles."""
    rng = random.Random(20261201)
    tight = 0
    for _ in range(30):
        ids = set(rng.sample(LOCAL, rng.choice([1, 2])))
        cards = [CARDS[i] for i in LOCAL if i in ids]
        valid = [g for g, ok in satisfied if ids <= ok]
        whole, _ = rng.choice(satisfied)
        cells = [rng.choice(sorted(whole.cells))]
        for _ in range(rng.randint(1, 6)):
            frontier = sorted({(r + dr, c + dc) for r, c in cells for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))}
                              & set(whole.cells) - set(cells))
            cells.append(rng.choice(frontier))
        part = Garden(3, {c: whole.cells[c] for c in cells})
        placed = set(part.cells)
        kept = most_kept(part, valid)
        fewest = next(k for k in range(len(placed) + 1) for gone in itertools.combinations(sorted(placed), k)
                      if removable_first(placed, set(gone)) and
                      most_kept(Garden(3, {c: part.cells[c] for c in placed - set(gone)}), valid) == len(placed) - k)
        tight += fewest > len(placed) - kept
        rep = hints.repair(part, cards, MODE, TINY, control(), removal_rules=True)
        assert rep.verdict == "optimal" and len(rep.remove) == fewest, (ids, part.render(), rep.remove)
        h = hints.next_move(part, cards, MODE, TINY, control(), removal_rules=True)
        shortest_bound = (len(placed) - kept) + (9 - kept)
        assert h.route_bound <= shortest_bound, (ids, part.render(), h)
        if h.proven:
            assert h.route_length == shortest_bound, (ids, part.render(), h)
        closest = engine.closest_solution(whole, cards, MODE, TINY, control())
        assert closest.verdict == "optimal" and closest.kept == most_kept(whole, valid)
    assert tight >= 2   # the batch holds gardens where the removal rules cost extra removals


# --- ValidateMove against ListLegalMoves ------------------------------------------------------

def random_states(rng, count):
    tiles = [f"A{i:02d}" for i in range(1, 17)]
    for _ in range(count):
        if rng.random() < 0.5:
            cells = rng.sample([(r, c) for r in range(4) for c in range(4)], rng.randint(1, 10))
            ts = rng.sample(tiles, len(cells))
            yield moves.SoloState(4, {c: (t, rng.randrange(4)) for c, t in zip(cells, ts)},
                                  [t for t in tiles if t not in ts])
        else:
            g = [(0, 0)]
            for _ in range(rng.randint(0, 8)):
                grow = sorted({(r + dr, c + dc) for r, c in g for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))}
                              - set(g))
                g.append(rng.choice([f for f in grow if moves._bbox_ok(set(g) | {f}, 4)]))
            ts = rng.sample(tiles, len(g))
            rest = [t for t in tiles if t not in ts]
            yield moves.NormalState(4, {c: (t, rng.randrange(4)) for c, t in zip(g, ts)},
                                    [moves.Supply(rest[:3], rest[3:6]), moves.Supply(rest[6:8], rest[8:])])


def test_validate_move_accepts_exactly_the_listed_moves():
    """Every remove / rotate a client could send (any tile id named, or none) on 40 seeded states:
    ValidateMove calls it legal exactly when ListLegalMoves lists it (a move without a tile id stands
    for the one at the cell). Before the fix, removing or turning "A05" at a cell holding A01 was
    legal, and so was turning a Solo tile to the rotation it already has."""
    rng = random.Random(11)
    tiles = [f"A{i:02d}" for i in range(1, 17)]
    checked = 0
    for state in random_states(rng, 40):
        solo = isinstance(state, moves.SoloState)
        listed = set(moves.legal_moves(state))
        for cell in [(r, c) for r in range(-1, 5) for c in range(-1, 5)]:
            for tile in tiles + [None]:
                if solo:
                    sent = [moves.Move(moves.REMOVE, tile=tile, cell=cell)]
                    sent += [moves.Move(moves.ROTATE, tile=tile, cell=cell, rotation=r) for r in range(4)]
                else:
                    sent = [moves.Move(moves.REMOVE, p, tile, cell, to_player=1 - p) for p in (0, 1)]
                for mv in sent:
                    here = state.garden.get(cell)
                    named = mv if tile is not None or here is None else \
                        moves.Move(mv.kind, mv.player, here[0], mv.cell, mv.rotation, mv.to_player, mv.other)
                    assert moves.validate_move(state, mv).legal == (named in listed), (state, mv)
                    checked += 1
    assert checked > 10000
