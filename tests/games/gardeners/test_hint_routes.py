"""Solo routes (place / swap / rotate / remove): the exact distance against breadth-first search over move
sequences, and the Solo next move against BFS on 3x3 gardens and replayed on the real 6x6 game."""
import random
from collections import deque

import pytest

from solver.core.solve import SolveControl
from solver.errors import InputError
from solver.games.gardeners import engine, hints, moves, routes
from solver.games.gardeners.cards import load_cards
from solver.games.gardeners.checker import check
from solver.games.gardeners.garden import Garden, Placed
from solver.games.gardeners.modes import MODES, Mode
from solver.games.gardeners.tiles import load_catalog
from tests.games.gardeners.test_oracle import POOL, TINY, all_tiny_gardens

CAT = load_catalog()
DECK = load_cards()
NORMAL = MODES["normal"]
TINY_MODE = Mode("tiny-3", 3, "A", "standard")
SUBPOOL = [0, 2, 5, 6, 8, 10, 12]


def ctl():
    return SolveControl(time_limit_s=20, num_workers=1, random_seed=0)


def _key(g, p):
    return tuple(sorted(g.items())), tuple(sorted(p))


def bfs_to(size, g, p, goal, rotations):
    """Fewest legal Solo moves from (g, p) to the garden `goal` (moves.legal_moves, rotations limited)."""
    start, want = _key(g, p), _key(goal, [])
    if start == want:
        return 0
    seen, queue = {start}, deque([(g, p, 0)])
    while queue:
        g0, p0, d = queue.popleft()
        for mv in moves.legal_moves(moves.SoloState(size, g0, p0)):
            if mv.kind in (moves.ADD, moves.ROTATE) and mv.rotation not in rotations:
                continue
            g1, p1 = routes.apply_solo(g0, p0, mv)
            k = _key(g1, p1)
            if k == want:
                return d + 1
            if k not in seen:
                seen.add(k)
                queue.append((g1, p1, d + 1))
    return None


@pytest.mark.parametrize("seed", range(2))
def test_distance_equals_bfs_on_2x2_gardens(seed):
    rng = random.Random(seed)
    cells = [(0, 0), (0, 1), (1, 0), (1, 1)]
    tiles = ["a", "b", "c", "d"]
    rotations = (0, 1)
    kinds = set()
    for _ in range(16):
        order = rng.sample(tiles, 4)
        goal = {c: (t, rng.choice(rotations)) for c, t in zip(cells, order)}
        k = rng.randint(0, 4)
        placed = rng.sample(tiles, k)
        g = {c: (t, rng.choice(rotations)) for c, t in zip(rng.sample(cells, k), placed)}
        p = [t for t in tiles if t not in placed]
        d = routes.distance(g, p, goal)
        assert d == bfs_to(2, g, p, goal, rotations), (g, p, goal)
        # the constructive route has exactly that many legal moves and ends at the goal
        steps = routes.route(g, p, goal)
        assert len(steps) == d
        cur, pool = g, p
        for mv in steps:
            assert moves.validate_solo(moves.SoloState(2, cur, pool), mv).legal
            cur, pool = routes.apply_solo(cur, pool, mv)
        assert cur == goal and not pool
        # every "first move" shortens the distance by exactly one
        for mv in routes.first_moves(g, p, goal):
            assert moves.validate_solo(moves.SoloState(2, g, p), mv).legal
            assert routes.distance(*routes.apply_solo(g, p, mv), goal) == d - 1
        kinds |= {mv.kind for mv in steps}
    assert {moves.SWAP, moves.ROTATE, moves.ADD} <= kinds


def test_distance_equals_bfs_on_3x3_gardens_with_few_tiles_out_of_place():
    rng = random.Random(5)
    cells = [(r, c) for r in range(3) for c in range(3)]
    tiles = [f"t{i}" for i in range(9)]
    for _ in range(6):
        goal = {c: (t, rng.choice((0, 1))) for c, t in zip(cells, rng.sample(tiles, 9))}
        g, p = dict(goal), []
        for _ in range(3):   # scramble with a few random legal moves
            mv = rng.choice(moves.legal_moves(moves.SoloState(3, g, p)))
            if mv.kind in (moves.ADD, moves.ROTATE) and mv.rotation > 1:
                continue
            g, p = routes.apply_solo(g, p, mv)
        assert routes.distance(g, p, goal) == bfs_to(3, g, p, goal, (0, 1))


# ---- the Solo next move on 3x3 gardens, against BFS over the cards' valid gardens ----------------

def kind(tile):
    return (tile.background, tile.elements)


@pytest.fixture(scope="module")
def tiny():
    gardens = list(all_tiny_gardens())
    kinds = sorted({kind(t) for t in TINY.tiles}, key=repr)
    idx = {k: i for i, k in enumerate(kinds)}
    states = [tuple(idx[kind(g.get((r, c)).tile)] for r in range(3) for c in range(3)) for g in gardens]
    valid = {i: {s for s, g in zip(states, gardens) if POOL[i].check(g).status == "satisfied"} for i in SUBPOOL}
    counts = [sum(1 for t in TINY.tiles if kind(t) == k) for k in kinds]
    return gardens, idx, valid, counts


def kind_state(garden, idx):
    return tuple(idx[kind(garden.get((r, c)).tile)] if garden.get((r, c)) else -1 for r in range(3) for c in range(3))


def bfs_valid(state, goals, counts, limit=4):
    """Fewest Solo moves to a garden in `goals`, over the kinds the cards can see (tiles of one kind
    are interchangeable and no card reads rotations, so turns never help); None past `limit`."""
    if state in goals:
        return 0
    seen, frontier = {state}, [state]
    for d in range(1, limit + 1):
        nxt = []
        for s in frontier:
            pool = [k for k in range(len(counts)) if counts[k] - s.count(k) > 0]
            succ = []
            for i in range(9):
                if s[i] == -1:
                    succ += [s[:i] + (k,) + s[i + 1:] for k in pool]
                else:
                    succ.append(s[:i] + (-1,) + s[i + 1:])
                    for j in range(i + 1, 9):
                        if s[j] != s[i]:
                            t = list(s)
                            t[i], t[j] = t[j], t[i]
                            succ.append(tuple(t))
            for t in succ:
                if t in goals:
                    return d
                if t not in seen:
                    seen.add(t)
                    nxt.append(t)
        frontier = nxt
    return None


def test_solo_next_move_is_on_a_shortest_route_by_bfs(tiny):
    gardens, idx, valid, counts = tiny
    rng = random.Random(11)
    checked = {moves.SWAP: 0, moves.ADD: 0, "long": 0}
    tries = 0
    while sum(checked.values()) < 14 and tries < 200:
        tries += 1
        combo = sorted(rng.sample(SUBPOOL, rng.choice([1, 2])))
        goals = set.intersection(*(valid[i] for i in combo))
        if not goals:
            continue
        cards = [POOL[i] for i in combo]
        base = gardens[rng.randrange(len(gardens))]
        g = {c: (p.tile.id, p.rotation) for c, p in base.cells.items()}
        pool: list[str] = []
        for _ in range(rng.randint(1, 4)):
            mv = rng.choice([m for m in moves.legal_moves(moves.SoloState(3, g, pool))
                             if m.kind in (moves.SWAP, moves.REMOVE)])
            g, pool = routes.apply_solo(g, pool, mv)
        garden = Garden(3, {c: Placed(TINY.tile(t), r) for c, (t, r) in g.items()})
        d = bfs_valid(kind_state(garden, idx), goals, counts)
        if d is None or d == 0:
            continue
        hint = hints.next_move(garden, cards, TINY_MODE, TINY, ctl(), rules=hints.SOLO_RULES)
        assert hint.status == "move" and hint.proven and hint.route_length == d == hint.route_bound
        state = hints.state_for(garden, TINY_MODE, TINY, hints.SOLO_RULES)
        assert moves.validate_move(state, hint.move).legal
        after_g, after_p = routes.apply_solo(state.garden, state.pool, hint.move)
        after = Garden(3, {c: Placed(TINY.tile(t), r) for c, (t, r) in after_g.items()})
        assert bfs_valid(kind_state(after, idx), goals, counts) == d - 1
        # levels are views of one hint
        one, two, three = (hint.at_level(k) for k in (1, 2, 3))
        assert one["card_id"] == two["card_id"] == three["card_id"] and hint.card_id in hint.reason
        assert three["text"].startswith(two["text"]) and two["text"].startswith(one["text"])
        assert "move" not in two and hint.move.cell in two["cells"]
        assert hint.move.other is None or hint.move.other in two["cells"]
        checked[hint.move.kind if hint.move.kind in checked else moves.ADD] += 1
        checked["long"] += d >= 3
    assert checked[moves.SWAP] >= 2 and checked["long"] >= 1, checked


# ---- 6x6: the Solo route replayed on the real game ----------------------------------------------

def scrambled(seed: int, cards, keep: int, swaps: int) -> Garden:
    rng = random.Random(seed)
    solution = engine.solve(cards, NORMAL, CAT, ctl()).garden
    cells = sorted(solution.cells)
    g = {c: solution.get(c) for c in rng.sample(cells, keep)}
    for _ in range(swaps):
        a, b = rng.sample(sorted(g), 2)
        g[a], g[b] = g[b], g[a]
    return Garden(6, g)


@pytest.mark.parametrize("ids,seed,keep,swaps", [(("S08", "S16"), 1, 24, 3), (("S03", "S42", "S20"), 2, 30, 2)])
def test_solo_route_on_6x6_replays_to_a_valid_garden(ids, seed, keep, swaps):
    cards = [DECK.get(i) for i in ids]
    garden = next(g for s in range(seed, seed + 50) if engine.complete(
        g := scrambled(s, cards, keep, swaps), cards, NORMAL, CAT, ctl()).verdict == engine.UNSOLVABLE)
    hint = hints.next_move(garden, cards, NORMAL, CAT, ctl(), rules=hints.SOLO_RULES)
    assert hint.status == "move" and hint.route_bound <= hint.route_length
    state = hints.state_for(garden, NORMAL, CAT, hints.SOLO_RULES)
    assert moves.validate_move(state, hint.move).legal
    g, p = routes.apply_solo(state.garden, state.pool, hint.move)
    after = Garden(6, {c: Placed(CAT.tile(t), r) for c, (t, r) in g.items()})
    # some route of length - 1 exists from the garden after the move: follow the next hints to the end
    steps, cur = 1, after
    while True:
        h = hints.next_move(cur, cards, NORMAL, CAT, ctl(), rules=hints.SOLO_RULES)
        if h.status == "done":
            break
        assert h.status == "move" and h.route_length <= hint.route_length - steps
        st = hints.state_for(cur, NORMAL, CAT, hints.SOLO_RULES)
        assert moves.validate_move(st, h.move).legal
        g, p = routes.apply_solo(st.garden, st.pool, h.move)
        cur = Garden(6, {c: Placed(CAT.tile(t), r) for c, (t, r) in g.items()})
        steps += 1
    assert check(cur, cards).valid and steps <= hint.route_length
    if hint.proven:
        assert steps == hint.route_length


def test_an_unfinished_solo_search_reports_the_best_route_and_a_bound():
    """Panorama + link + path with tiles swapped around: within a small deterministic budget the search
    is not finished, so the hint says so (best route found, proven bound below it), and the route it
    found is real: its moves are legal and end in a valid garden."""
    cards = [DECK.get(i) for i in ("S25", "S35", "S56")]
    garden = scrambled(1, cards, 28, 4)
    short = SolveControl(deterministic_limit=0.2, num_workers=1, random_seed=0)
    hint = hints.next_move(garden, cards, NORMAL, CAT, short, rules=hints.SOLO_RULES)
    assert hint.status == "move"
    if hint.proven:   # a faster search one day: then the claim is a proof, nothing else to check
        assert hint.route_bound == hint.route_length
        return
    assert hint.route_bound < hint.route_length and "at least" in hint.reason
    rep = hints.repair(garden, cards, NORMAL, CAT, ctl())
    sr = routes.solo_route(garden, cards, NORMAL, CAT, short, layout=rep.witness, kept_max=rep.kept)
    assert sr.verdict == "feasible" and sr.bound < sr.length == len(sr.steps)
    state = hints.state_for(garden, NORMAL, CAT, hints.SOLO_RULES)
    g, p = state.garden, state.pool
    for mv in sr.steps:
        assert moves.validate_solo(moves.SoloState(6, g, p), mv).legal
        g, p = routes.apply_solo(g, p, mv)
    assert not p and check(Garden(6, {c: Placed(CAT.tile(t), r) for c, (t, r) in g.items()}), cards).valid


def test_following_solo_hints_with_their_target_shortens_the_route_by_one_each_move():
    """An unproven route was searched again from the garden after the move, within the limit, and could come out
    no shorter (a web tester saw 19 -> 17 -> 17): the promise that the move leaves `route_length - 1` moves held,
    but the next hint did not show it. With the previous hint's `target` handed back, each hint's route is at most
    the previous one's less one, and the chain ends in a valid garden."""
    cards = [DECK.get(i) for i in ("S25", "S35", "S56")]
    garden = scrambled(1, cards, 28, 4)
    short = lambda: SolveControl(deterministic_limit=0.2, num_workers=1, random_seed=0)  # noqa: E731
    hint = hints.next_move(garden, cards, NORMAL, CAT, short(), rules=hints.SOLO_RULES)
    assert hint.status == "move" and hint.target is not None and check(hint.target, cards).valid
    first, steps, cur = hint.route_length, 0, garden
    while hint.status == "move":
        st = hints.state_for(cur, NORMAL, CAT, hints.SOLO_RULES)
        g, p = routes.apply_solo(st.garden, st.pool, hint.move)
        cur, steps, before = Garden(6, {c: Placed(CAT.tile(t), r) for c, (t, r) in g.items()}), steps + 1, hint
        hint = hints.next_move(cur, cards, NORMAL, CAT, short(), rules=hints.SOLO_RULES, target=before.target)
        if hint.status == "move":
            assert hint.route_length <= before.route_length - 1, (steps, before.route_length, hint.route_length)
    assert hint.status == "done" and check(cur, cards).valid and steps <= first
    with pytest.raises(InputError, match="target"):  # not a valid garden for the cards
        hints.next_move(garden, cards, NORMAL, CAT, short(), rules=hints.SOLO_RULES, target=garden)
    with pytest.raises(InputError, match="target"):  # Normal rules have no target
        hints.next_move(garden, cards, NORMAL, CAT, short(), target=hint.target if hint.target else cur)
