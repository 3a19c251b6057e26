"""Hints checked against exhaustive enumeration (3x3) and by replaying them on the real 6x6 game."""
import itertools
import random

import pytest

from solver.core.grid import DIRECTIONS, step
from solver.core.solve import SolveControl
from solver.errors import InputError
from solver.games.gardeners import engine, hints, moves
from solver.games.gardeners.cards import load_cards
from solver.games.gardeners.checker import check
from solver.games.gardeners.garden import Garden, Placed
from solver.games.gardeners.model import GardenModel
from solver.games.gardeners.modes import MODES, Mode
from solver.games.gardeners.tiles import load_catalog
from tests.games.gardeners.test_oracle import POOL, TINY, all_tiny_gardens

CAT = load_catalog()
DECK = load_cards()
NORMAL = MODES["normal"]
TINY_MODE = Mode("tiny-3", 3, "A", "standard")


def ctl():
    return SolveControl(time_limit_s=20)


def kind_of(tile):
    return (tile.background, tile.elements)


# ---- 3x3 oracle ------------------------------------------------------------------------------

# Oracle pool cards with cheap checkers and some solutions on 3x3 (geometry checks are slow to enumerate).
SUBPOOL = [0, 2, 5, 6, 8, 10, 12]


@pytest.fixture(scope="module")
def tiny_valid():
    """Every distinct 3x3 garden, and per sub-pool card the indices of the gardens it is satisfied by."""
    gardens = list(all_tiny_gardens())
    table = {i: {k for k, g in enumerate(gardens) if POOL[i].check(g).status == "satisfied"} for i in SUBPOOL}
    return gardens, table


def valid_for(tiny_valid, combo):
    gardens, table = tiny_valid
    return [gardens[k] for k in sorted(set.intersection(*(table[i] for i in combo)))]


def mismatches(partial: Garden, full: Garden) -> set:
    return {c for c, p in partial.cells.items() if kind_of(full.get(c).tile) != kind_of(p.tile)}


def random_partial(rng, size=3):
    tiles = list(TINY.tiles)
    rng.shuffle(tiles)
    cells = [(r, c) for r in range(size) for c in range(size)]
    start = rng.choice(cells)
    chosen, seen = [start], {start}
    k = rng.randint(2, 7)
    while len(chosen) < k:
        c = rng.choice(chosen)
        n = step(c, rng.choice(DIRECTIONS))
        if 0 <= n[0] < size and 0 <= n[1] < size and n not in seen:
            seen.add(n)
            chosen.append(n)
    return Garden(size, {c: Placed(tiles[i], 0) for i, c in enumerate(chosen)})


def legal_order_exists(cells: set, remove: set) -> bool:
    if not remove:
        return True
    return any(moves.removable(cells, c).legal and legal_order_exists(cells - {c}, remove - {c}) for c in remove)


def test_progress_and_repair_agree_with_enumeration(tiny_valid):
    rng = random.Random(99)
    seen = {"blocked": 0, "repaired": 0, "ruled": 0}
    for _ in range(24):
        combo = sorted(rng.sample(SUBPOOL, rng.choice([1, 2, 3])))
        cards = [POOL[i] for i in combo]
        partial = random_partial(rng)
        valid = valid_for(tiny_valid, combo)
        completions = [v for v in valid if not mismatches(partial, v)]
        progress = hints.check_progress(partial, cards, TINY_MODE, TINY, ctl())
        assert progress.completable == (engine.SOLVABLE if completions else engine.UNSOLVABLE)
        for i, p in zip(combo, progress.cards):
            alone = [v for v in valid_for(tiny_valid, [i]) if not mismatches(partial, v)]
            if p.status == hints.BLOCKED:
                seen["blocked"] += 1
                assert not alone
            elif p.status == hints.POSSIBLE:
                assert alone
        slid = any(not mismatches(hints.shifted(partial, o), v) for o in hints.offsets(partial) for v in valid)
        floating = hints.check_progress(partial, cards, TINY_MODE, TINY, ctl(), floating=True)
        assert floating.completable == (engine.SOLVABLE if slid else engine.UNSOLVABLE)
        rep = hints.repair(partial, cards, TINY_MODE, TINY, ctl())
        if not valid:
            assert rep.verdict == "unsolvable"
            continue
        best = min(len(mismatches(partial, v)) for v in valid)
        assert rep.verdict == "optimal" and len(rep.remove) == best and rep.bound == best
        assert check(rep.witness, cards).valid
        seen["repaired"] += best > 0
        # floating: the garden may end up anywhere in the frame, so the fewest over every shift
        slid_best = min(len(mismatches(hints.shifted(partial, o), v)) for o in hints.offsets(partial) for v in valid)
        slid_rep = hints.repair(partial, cards, TINY_MODE, TINY, ctl(), floating=True)
        assert slid_rep.verdict == "optimal" and len(slid_rep.remove) == slid_best <= best
        dr, dc = slid_rep.shift
        assert all(slid_rep.witness.get((r + dr, c + dc)) == p for (r, c), p in partial.cells.items()
                   if (r, c) not in slid_rep.remove) and check(slid_rep.witness, cards).valid
        seen["slid"] = seen.get("slid", 0) + (slid_best < best)
        ruled = hints.repair(partial, cards, TINY_MODE, TINY, ctl(), removal_rules=True)
        placed = set(partial.cells)
        # fewest removals with a legal order, leaving tiles some valid garden keeps (a tile may have to
        # leave only to clear the way for others)
        needed = {frozenset(mismatches(partial, v)) for v in valid}
        fewest = min(len(r) for k in range(len(placed) + 1) for r in map(set, itertools.combinations(sorted(placed), k))
                     if any(m <= r for m in needed) and legal_order_exists(placed, r))
        assert ruled.verdict == "optimal" and len(ruled.remove) == fewest
        cur = set(placed)
        for c in ruled.remove:   # the order given is legal step by step
            assert moves.removable(cur, c).legal
            cur.discard(c)
        seen["ruled"] += len(ruled.remove) > best
    assert seen["repaired"] >= 5 and seen["blocked"] >= 1 and seen["slid"] >= 1


def test_forced_placements_agree_with_enumeration(tiny_valid):
    rng = random.Random(5)
    checked = 0
    for _ in range(40):
        combo = sorted(rng.sample(SUBPOOL, rng.choice([2, 3])))
        partial = random_partial(rng)
        completions = [v for v in valid_for(tiny_valid, combo) if not mismatches(partial, v)]
        result = hints.forced_placements(partial, [POOL[i] for i in combo], TINY_MODE, TINY, ctl())
        if not completions:
            assert result.verdict == engine.UNSOLVABLE
            continue
        # what the cards can see: the class of tiles alike for every card in play
        gm = GardenModel([POOL[i] for i in combo], TINY_MODE, list(TINY.tiles), rotation_free=False)
        cls = lambda t: gm.sig_class[gm.sig_of[(t.id, 0)]]  # noqa: E731
        expected = sorted(c for c in completions[0].cells if c not in partial.cells
                          and len({cls(v.get(c).tile) for v in completions}) == 1)
        assert result.verdict == engine.SOLVABLE
        assert sorted(f.cell for f in result.cells) == expected
        for f in result.cells:
            assert completions[0].get(f.cell).tile.id in [t.id for t in gm.classes[cls(completions[0].get(f.cell).tile)]]
            # the class's tiles not yet laid (a tile already in the garden cannot stand there too)
            laid = {p.tile.id for p in partial.cells.values()}
            assert set(f.tiles) == {t.id for t in gm.classes[cls(completions[0].get(f.cell).tile)]} - laid
        checked += bool(expected)
    assert checked >= 2


# ---- 6x6: hints replayed on the real game ----------------------------------------------------

def partial_from_solution(seed: int, cards, keep: int, wrong: int) -> Garden:
    """A connected part of a valid garden, with `wrong` of its tiles swapped with tiles from elsewhere."""
    rng = random.Random(seed)
    solution = engine.solve(cards, NORMAL, CAT, ctl()).garden
    cells = sorted(solution.cells)
    start = rng.choice(cells)
    chosen, seen = [start], {start}
    while len(chosen) < keep:
        n = step(rng.choice(chosen), rng.choice(DIRECTIONS))
        if n in solution.cells and n not in seen:
            seen.add(n)
            chosen.append(n)
    g = {c: solution.get(c) for c in chosen}
    others = [c for c in cells if c not in seen]
    for c in rng.sample(chosen, wrong):
        o = others.pop(rng.randrange(len(others)))
        g[c] = Placed(solution.get(o).tile, rng.randrange(4))
    return Garden(6, g)


CASES = [(("S08", "S16"), 1, 14, 2), (("S03", "S42", "S20"), 2, 20, 1), (("S11", "S24", "S10"), 3, 24, 3),
         (("S01", "S39", "S47"), 4, 12, 0)]


def apply(garden: Garden, move) -> Garden:
    g = dict(garden.cells)
    if move.kind == moves.ADD:
        g[move.cell] = Placed(CAT.tile(move.tile), move.rotation)
    elif move.kind == moves.REMOVE:
        del g[move.cell]
    elif move.kind == moves.ROTATE:
        g[move.cell] = Placed(g[move.cell].tile, move.rotation)
    return Garden(garden.size, g)


@pytest.mark.parametrize("ids,seed,keep,wrong", CASES)
def test_next_move_is_legal_and_on_a_shortest_route(ids, seed, keep, wrong):
    cards = [DECK.get(i) for i in ids]
    garden = partial_from_solution(seed, cards, keep, wrong)
    hint = hints.next_move(garden, cards, NORMAL, CAT, ctl())
    assert hint.status == "move" and hint.proven
    assert hint.card_id in ids and hint.card_id in hint.reason
    state = hints.state_for(garden, NORMAL, CAT, hints.NORMAL_RULES)
    assert moves.validate_move(state, hint.move).legal
    after = apply(garden, hint.move)
    if hint.move.kind == moves.ADD:
        assert engine.complete(after, cards, NORMAL, CAT, ctl()).verdict == engine.SOLVABLE
    again = hints.next_move(after, cards, NORMAL, CAT, ctl())
    assert again.route_length == hint.route_length - 1   # the move was a step of a shortest route
    # levels are views of one hint: each adds to the one below and never changes it
    one, two, three = (hint.at_level(k) for k in (1, 2, 3))
    assert one["card_id"] == two["card_id"] == three["card_id"]
    assert two["text"].startswith(one["text"]) and three["text"].startswith(two["text"])
    assert "cells" not in one and "move" not in two and hint.move.cell in three["cells"]


def test_following_the_hints_reaches_a_valid_garden():
    cards = [DECK.get(i) for i in ("S08", "S16")]
    garden = partial_from_solution(7, cards, 33, 1)
    first = hints.next_move(garden, cards, NORMAL, CAT, ctl())
    steps = 0
    hint = first
    while hint.status == "move":
        assert moves.validate_move(hints.state_for(garden, NORMAL, CAT, hints.NORMAL_RULES), hint.move).legal
        garden = apply(garden, hint.move)
        steps += 1
        hint = hints.next_move(garden, cards, NORMAL, CAT, ctl())
    assert hint.status == "done" and check(garden, cards).valid and steps == first.route_length


def test_solo_hint_turns_a_tile_in_place():
    cards = [DECK.get(i) for i in ("S54",)]   # a loop around a bench: rotations matter
    solution = engine.solve(cards, NORMAL, CAT, ctl()).garden
    garden = next(g for c, p in sorted(solution.cells.items()) if p.tile.path
                  if not check(g := Garden(6, {**solution.cells, c: Placed(p.tile, (p.rotation + 1) % 4)}), cards).valid)
    hint = hints.next_move(garden, cards, NORMAL, CAT, ctl(), rules=hints.SOLO_RULES)
    assert hint.status == "move"
    assert moves.validate_move(hints.state_for(garden, NORMAL, CAT, hints.SOLO_RULES), hint.move).legal
    if hint.move.kind == moves.ROTATE:
        assert check(apply(garden, hint.move), cards).valid


def test_progress_names_broken_cells_and_proves_the_dead_end():
    cards = [DECK.get("S08"), DECK.get("S16")]   # no trees adjacent; 6+ grass contiguous
    partial = Garden(6, {(0, 0): Placed(CAT.tile("A01"), 0), (0, 1): Placed(CAT.tile("A02"), 0)})
    progress = hints.check_progress(partial, cards, NORMAL, CAT, ctl())
    assert progress.completable == engine.UNSOLVABLE
    s08 = progress.cards[0]
    assert s08.status == hints.BROKEN and set(s08.cells) == {(0, 0), (0, 1)}
    assert progress.cards[1].status == hints.POSSIBLE


def test_forced_placements_on_a_6x6_garden_hold_in_completions():
    cards = [DECK.get(i) for i in ("S42", "S08")]   # every tree on the edge, no two trees side by side
    garden = partial_from_solution(11, cards, 20, 0)
    result = hints.forced_placements(garden, cards, NORMAL, CAT, ctl())
    assert result.verdict == engine.SOLVABLE
    done = engine.complete(garden, cards, NORMAL, CAT, ctl()).garden
    for f in result.cells:
        assert done.get(f.cell).tile.id in f.tiles


def test_bad_input_names_the_field():
    with pytest.raises(InputError) as exc:
        hints.Hint("move").at_level(4)
    assert exc.value.field == "level"
    with pytest.raises(InputError):
        hints.next_move(Garden(6, {}), [DECK.get("S08")], NORMAL, CAT, ctl(), rules="chess")


def test_repair_under_removal_rules_digs_from_the_edge():
    """A full garden with two interior tiles swapped: the free repair takes them out directly; under the
    Normal rules a way in from the edge has to be opened, in a legal order, and the rest completes."""
    cards = [DECK.get(i) for i in ("S08", "S16")]
    solution = engine.solve(cards, NORMAL, CAT, ctl()).garden
    inner = [c for c in sorted(solution.cells) if 1 <= c[0] <= 4 and 1 <= c[1] <= 4]
    garden = next(g for a in inner for b in inner if a < b
                  if not check(g := Garden(6, {**solution.cells, a: solution.get(b), b: solution.get(a)}), cards).valid)
    free = hints.repair(garden, cards, NORMAL, CAT, ctl())
    ruled = hints.repair(garden, cards, NORMAL, CAT, ctl(), removal_rules=True)
    assert free.verdict == ruled.verdict == "optimal"
    assert len(ruled.remove) > len(free.remove) >= 1
    cur = set(garden.cells)
    for c in ruled.remove:
        assert moves.removable(cur, c).legal
        cur.discard(c)
    left = Garden(6, {c: garden.get(c) for c in cur})
    assert engine.complete(left, cards, NORMAL, CAT, ctl()).verdict == engine.SOLVABLE


def test_hint_without_removal_rules_still_starts_with_a_legal_move_when_one_exists():
    cards = [DECK.get(i) for i in ("S08", "S16")]
    solution = engine.solve(cards, NORMAL, CAT, ctl()).garden
    inner = [c for c in sorted(solution.cells) if 1 <= c[0] <= 4 and 1 <= c[1] <= 4]
    edge = [c for c in sorted(solution.cells) if c not in inner]
    garden = next(g for a in inner for b in edge
                  if not check(g := Garden(6, {**solution.cells, a: solution.get(b), b: solution.get(a)}), cards).valid)
    hint = hints.next_move(garden, cards, NORMAL, CAT, ctl(), removal_rules=False)
    assert hint.status == "move" and hint.move.kind == moves.REMOVE
    assert moves.validate_move(hints.state_for(garden, NORMAL, CAT, hints.NORMAL_RULES), hint.move).legal


def test_floating_garden_may_still_slide_to_the_edge():
    """A lone tree one cell in from the corner breaks "every tree on the edge" where it lies, but a
    Normal-mode garden still floats: slid one cell up and left it stands on the edge."""
    cards = [DECK.get("S42")]
    tree = next(t for t in CAT.tiles if t.has("tree"))
    garden = Garden(6, {(1, 1): Placed(tree, 0)})
    fixed = hints.check_progress(garden, cards, NORMAL, CAT, ctl())
    assert fixed.completable == engine.UNSOLVABLE and fixed.cards[0].status == hints.BROKEN
    floating = hints.check_progress(garden, cards, NORMAL, CAT, ctl(), floating=True)
    assert floating.completable == engine.SOLVABLE and floating.cards[0].status == hints.POSSIBLE
    dr, dc = floating.shift
    assert floating.witness.get((1 + dr, 1 + dc)) == garden.get((1, 1)) and check(floating.witness, cards).valid
    # two trees side by side break "no trees adjacent" wherever the garden ends up
    two = Garden(6, {(2, 2): Placed(tree, 0), (2, 3): Placed(next(t for t in CAT.tiles if t.has("tree") and t != tree), 0)})
    both = hints.check_progress(two, [DECK.get("S08")], NORMAL, CAT, ctl(), floating=True)
    assert both.completable == engine.UNSOLVABLE and both.cards[0].status == hints.BROKEN


def test_solo_hint_swaps_two_misplaced_tiles_back():
    cards = [DECK.get(i) for i in ("S08", "S16")]
    solution = engine.solve(cards, NORMAL, CAT, ctl()).garden
    cells = sorted(solution.cells)
    garden, pair = next((g, (a, b)) for a in cells for b in cells if a < b
                        if not check(g := Garden(6, {**solution.cells, a: solution.get(b), b: solution.get(a)}),
                                     cards).valid)
    hint = hints.next_move(garden, cards, NORMAL, CAT, ctl(), rules=hints.SOLO_RULES)
    assert hint.status == "move" and hint.move.kind == moves.SWAP
    assert moves.validate_move(hints.state_for(garden, NORMAL, CAT, hints.SOLO_RULES), hint.move).legal
    g = dict(garden.cells)
    g[hint.move.cell], g[hint.move.other] = g[hint.move.other], g[hint.move.cell]
    after = Garden(6, g)
    assert check(after, cards).valid or engine.complete(after, cards, NORMAL, CAT, ctl()).verdict == engine.SOLVABLE
    assert hint.route_length == 1 and hint.card_id in hint.reason


def test_hints_on_seeded_random_gardens_are_legal_and_shorten_the_route():
    rng = random.Random(2026)
    ids = [c.id for c in DECK.of("standard")]
    checked = 0
    while checked < 5:
        cards = [DECK.get(i) for i in sorted(rng.sample(ids, 3))]
        if engine.solve(cards, NORMAL, CAT, ctl()).verdict != engine.SOLVABLE:
            continue
        garden = partial_from_solution(rng.randrange(10**6), cards, rng.randint(8, 30), rng.randint(0, 3))
        for rules in (hints.NORMAL_RULES, hints.SOLO_RULES):
            hint = hints.next_move(garden, cards, NORMAL, CAT, ctl(), rules=rules)
            assert hint.status == "move" and hint.card_id in hint.reason
            assert moves.validate_move(hints.state_for(garden, NORMAL, CAT, rules), hint.move).legal
            if hint.move.kind == moves.SWAP:
                g = dict(garden.cells)
                a, b = g.pop(hint.move.cell, None), g.pop(hint.move.other, None)
                g.update({k: v for k, v in ((hint.move.other, a), (hint.move.cell, b)) if v is not None})
                after = Garden(6, g)
            else:
                after = apply(garden, hint.move)
            if hint.move.kind == moves.ADD:
                assert engine.complete(after, cards, NORMAL, CAT, ctl()).verdict == engine.SOLVABLE
            if rules == hints.NORMAL_RULES and hint.proven:
                assert hints.next_move(after, cards, NORMAL, CAT, ctl()).route_length == hint.route_length - 1
        checked += 1


def test_floating_hint_adds_where_a_slid_garden_is_completable():
    cards = [DECK.get("S42")]   # every tree on the edge
    tree = next(t for t in CAT.tiles if t.has("tree"))
    garden = Garden(6, {(1, 1): Placed(tree, 0)})
    fixed = hints.next_move(garden, cards, NORMAL, CAT, ctl())
    assert fixed.move.kind == moves.REMOVE   # where it lies, the tree has to go
    slid = hints.next_move(garden, cards, NORMAL, CAT, ctl(), floating=True)
    assert slid.move.kind == moves.ADD and slid.proven and slid.route_length == 35
    state = hints.state_for(garden, NORMAL, CAT, hints.NORMAL_RULES)
    assert moves.validate_move(state, slid.move).legal


def test_floating_gardens_may_lie_anywhere_on_the_table_and_answers_stay_in_their_coordinates():
    """api.hint / supplies.hint / check_progress / repair with `floating`: a garden off the frame whose
    tiles fit n x n is accepted, and the move, cells and texts are given in its coordinates, the
    same answer as for the garden slid into the frame, moved back."""
    from solver.games.gardeners import api, supplies

    def doc(offset):
        return {"placements": [{"tile": "A01", "row": offset[0], "col": offset[1]},
                               {"tile": "A02", "row": offset[0], "col": offset[1] + 1}]}
    inside = api.hint(doc((0, 0)), ["S01"], floating=True)
    for off in ((0, -3), (-5, 0), (-2, -4)):      # slid into the frame, each lies where doc((0, 0)) does
        out = api.hint(doc(off), ["S01"], floating=True)
        assert out.move.cell == (inside.move.cell[0] + off[0], inside.move.cell[1] + off[1])
        assert out.move.tile == inside.move.tile and out.move.rotation == inside.move.rotation
        assert out.cells == tuple((r + off[0], c + off[1]) for r, c in inside.cells)
        assert f"{out.move.cell}" in out.reason
        p = api.check_progress(doc(off), ["S01"], floating=True)
        assert p.witness.get((off[0] + p.shift[0], off[1] + p.shift[1])).tile.id == "A01"
        rest = [t.id for t in CAT.tiles if t.id not in ("A01", "A02")]
        s = supplies.hint(doc(off), ["S01"], "normal", [{"loose": rest}, {}], 0, floating=True)
        assert s.status == "move" and s.move.cell in {(off[0] + dr, off[1] + dc) for dr in (-1, 0, 1)
                                                      for dc in (-1, 0, 1, 2)}
    assert api.hint(doc((3, 5)), ["S01"], floating=True).status == "move"   # off the frame's right side too
    with pytest.raises(InputError) as err:
        api.hint(doc((0, -1)), ["S01"])             # a fixed frame: inside 0..n-1 only
    assert err.value.field == "placements[0].col"
    with pytest.raises(InputError) as err:
        api.repair({"placements": [{"tile": "A01", "col": -1, "row": 0}, {"tile": "A02", "col": 5, "row": 0}]},
                   ["S01"], floating=True)
    assert err.value.field == "placements" and "fit within 6 x 6" in str(err.value)


@pytest.mark.parametrize("corner", [(64, 64), (-64, -64), (64, -64), (-64, 64)])
def test_floating_answers_at_the_tables_edge_stay_on_the_table(corner):
    """A floating garden at the table's edge (+-64, the most a request may hold) was hinted moves at 65, which the
    next request refused (6 of 8 corner hints, the client walkthrough of 7 Dec). The garden may now only slide
    where the whole frame stays on the table: every hinted, repaired or completed cell lies within +-64, and the
    garden with the move laid is accepted again."""
    from solver.games.gardeners import api, supplies
    from solver.games.gardeners.hints.frame import MAX_COORD

    def on_table(c):
        return abs(c[0]) <= MAX_COORD and abs(c[1]) <= MAX_COORD
    r, c = corner
    doc = {"placements": [{"tile": "A01", "row": r, "col": c}]}
    for card in ("S08", "S01"):
        out = api.hint(doc, [card], floating=True)
        assert out.status == "move" and on_table(out.move.cell), out.move
        assert all(on_table(x) for x in out.cells)
        again = {"placements": doc["placements"] + [{"tile": out.move.tile, "row": out.move.cell[0],
                                                      "col": out.move.cell[1], "rotation": out.move.rotation}]}
        api.check_progress(again, [card], floating=True)  # (raised InputError on the 65)
        p = api.check_progress(doc, [card], floating=True)
        assert all(on_table((a - p.shift[0], b - p.shift[1])) for a, b in p.witness.cells)
        rest = [t.id for t in CAT.tiles if t.id != "A01"]
        s = supplies.hint(doc, [card], "normal", [{"loose": rest}, {}], 0, floating=True)
        assert s.status == "move" and on_table(s.move.cell), s.move


def test_normal_hints_refuse_a_split_garden_whether_or_not_a_removal_is_needed():
    """No Normal game reaches a split garden (tiles are added next to it, never split off): GetHint under
    removal rules refuses one as SuggestRepair does; it used to answer whenever no removal was needed."""
    from solver.games.gardeners import api
    completable = {"placements": [{"tile": "A01", "row": 0, "col": 0}, {"tile": "A02", "row": 0, "col": 2}]}
    needs_removal = {"placements": [{"tile": "A01", "row": 0, "col": 0}, {"tile": "A02", "row": 0, "col": 1},
                                    {"tile": "A03", "row": 3, "col": 3}]}
    for doc in (completable, needs_removal):
        for call in (lambda d: api.hint(d, ["S08"]), lambda d: api.repair(d, ["S08"], removal_rules=True)):
            with pytest.raises(InputError) as err:
                call(doc)
            assert err.value.field == "garden" and "one piece" in str(err.value)
    # without the removal rules, and under Solo rules, a split garden is a position like any other
    assert api.hint(completable, ["S08"], removal_rules=False).status == "move"
    assert api.hint(completable, ["S08"], rules="solo").status == "move"


def test_floating_is_refused_where_the_garden_cannot_float():
    """Solo mode / Solo rules keep the garden in its frame: `floating` there is a contradiction (it was
    silently ignored under Solo rules). Training modes are played by the Normal rules: it floats there."""
    from solver.games.gardeners import api
    doc = {"placements": [{"tile": "A01", "row": 1, "col": 1}]}
    for call in (lambda: api.hint(doc, ["S01"], rules="solo", floating=True),
                 lambda: api.hint(doc, ["S01"], mode="solo", floating=True),
                 lambda: api.check_progress(doc, ["S01"], mode="solo", floating=True),
                 lambda: api.repair(doc, ["S01"], mode="solo", floating=True)):
        with pytest.raises(InputError) as err:
            call()
        assert err.value.field == "floating"
    assert api.check_progress(doc, ["A1"], mode="training-a", floating=True).completable == engine.SOLVABLE
