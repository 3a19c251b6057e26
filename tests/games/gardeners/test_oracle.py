"""CP-SAT against independent oracles on small instances: plain enumeration of every 3x3 garden of a
small catalog, and a python-constraint model of Training A gardens (4x4, the 16 A tiles); enumeration
(pure checker) of 3x3 gardens with a bench, paths and two-element tiles for the Panorama and path cards
(route, connected, and the full loop encoding through engine.complete)."""
import itertools
import random

import constraint
import pytest

from solver.core.grid import OPPOSITE, neighbours, step
from solver.core.solve import SolveControl
from solver.games.gardeners import engine
from solver.games.gardeners.cards import load_cards
from solver.games.gardeners.checker import check
from solver.games.gardeners.garden import Garden, Placed
from solver.games.gardeners.modes import MODES
from solver.games.gardeners.tiles import load_catalog
from tests.games.gardeners.helpers import card, catalog, tile, tiny_mode

# Nine tiles in five kinds: 9! / (2! 2! 2! 2!) = 22,680 distinct gardens, few enough to enumerate.
TINY = catalog(
    tile("t1", "grass", ["tree:green"]), tile("t2", "grass", ["tree:green"]),
    tile("f1", "soil", ["flower:fuchsia"]), tile("f2", "soil", ["flower:fuchsia"]),
    tile("o1", "grass", ["flower:orange"]), tile("o2", "grass", ["flower:orange"]),
    tile("s1", "soil"), tile("s2", "soil"), tile("w1", "grass", ["fountain"]),
)
POOL = [
    card("proximity", id="prox-tree", element="tree"),
    card("proximity", id="prox-fuchsia", element="flower:fuchsia"),
    card("distance", id="dist-tree-orange", element="tree", other="flower:orange"),
    card("distance", id="dist-orange", element="flower:orange", other="flower:orange"),
    card("distance", id="dist-fountain-tree", element="fountain", other="tree"),
    card("agglomeration", id="agg-grass-4", element="grass", min=4),
    card("agglomeration", id="agg-soil-4", element="soil", min=4),
    card("agglomeration", id="agg-flower-3", element="flower", min=3),
    card("link", id="link-soil", element="soil"),
    card("link", id="link-grass", element="grass"),
    card("border", id="border-fountain-in", element="fountain", region="interior"),
    card("border", id="border-tree-in", element="tree", region="interior"),
    card("border", id="border-orange-edge", element="flower:orange", region="edge"),
    card("geometry", id="geo-fountain-flowers", pattern=[["flower", "fountain", "flower"]]),
    card("geometry", id="geo-soil-square", pattern=[["soil", "soil"], ["soil", "soil"]]),
]


def distinct_orders(groups: list[list]):
    """Every distinct sequence drawing one item at a time from groups of identical items."""
    total = sum(len(g) for g in groups)

    def rec(left, prefix):
        if len(prefix) == total:
            yield list(prefix)
            return
        for i, g in enumerate(groups):
            if left[i] < len(g):
                left[i] += 1
                prefix.append(g[left[i] - 1])
                yield from rec(left, prefix)
                prefix.pop()
                left[i] -= 1
    yield from rec([0] * len(groups), [])


def all_tiny_gardens():
    """Every garden of the tiny catalog, tiles with identical faces taken as one (rotation is
    irrelevant: no tile there has a bench or a path)."""
    kinds: dict = {}
    for t in sorted(TINY.tiles, key=lambda t: t.id):
        kinds.setdefault((t.background, t.elements), []).append(t)
    cells = [(r, c) for r in range(3) for c in range(3)]
    for order in distinct_orders(list(kinds.values())):
        yield Garden(3, {cell: Placed(t, 0) for cell, t in zip(cells, order)})


@pytest.fixture(scope="module")
def verdict_table():
    """For every distinct garden, the set of pool cards it satisfies (computed by the pure checker)."""
    table = []
    for g in all_tiny_gardens():
        report = check(g, POOL)
        table.append(frozenset(i for i, v in enumerate(report.verdicts) if v.status == "satisfied"))
    assert len(table) == 22680
    return table


def test_cp_sat_agrees_with_enumeration(verdict_table):
    rng = random.Random(20261129)
    mode = tiny_mode(3)
    outcomes = {"solvable": 0, "unsolvable": 0}
    for _ in range(60):
        combo = sorted(rng.sample(range(len(POOL)), rng.choice([1, 2, 3, 4])))
        expected = any(set(combo) <= ok for ok in verdict_table)
        result = engine.solve([POOL[i] for i in combo], mode, TINY, SolveControl(time_limit_s=20))
        assert result.verdict == ("solvable" if expected else "unsolvable"), [POOL[i].id for i in combo]
        outcomes[result.verdict] += 1
    assert outcomes["solvable"] >= 10 and outcomes["unsolvable"] >= 10   # the batch tests both sides


def test_minimal_conflicts_agree_with_enumeration(verdict_table):
    rng = random.Random(7)
    mode = tiny_mode(3)
    checked = 0
    for _ in range(40):
        combo = sorted(rng.sample(range(len(POOL)), 4))
        solvable = lambda s: any(set(s) <= ok for ok in verdict_table)  # noqa: E731
        if solvable(combo):
            continue
        expected = sorted(sorted(POOL[i].id for i in sub) for k in range(1, 5)
                          for sub in itertools.combinations(combo, k)
                          if not solvable(sub) and all(solvable(s) for s in itertools.combinations(sub, k - 1)))
        ex = engine.explain([POOL[i] for i in combo], mode, TINY, SolveControl(time_limit_s=20))
        assert ex.complete and sorted(sorted(c) for c in ex.conflicts) == expected
        checked += 1
    assert checked >= 5


def test_count_agrees_with_enumeration(verdict_table):
    """Counting distinct solutions (what the cards can see, up to turning the garden) on the tiny set."""
    from solver.core.grid import rotate_cell
    cards = [POOL[5], POOL[10]]  # 4+ contiguous grass, fountain in the interior
    idx = {5, 10}
    gardens = [g for g, ok in zip(all_tiny_gardens(), verdict_table) if idx <= ok]
    sels = sorted({s.text: s for c in cards for s in [c.spec.element]}.values(), key=lambda s: s.text)

    def view(g, k):
        return tuple(sorted((rotate_cell(c, 3, k), tuple(s.matches(p.tile) for s in sels)) for c, p in g.cells.items()))
    classes = {min(view(g, k) for k in range(4)) for g in gardens}
    result = engine.count_solutions(cards, tiny_mode(3), TINY, cap=500, control=SolveControl(time_limit_s=20))
    assert result.complete and result.count == len(classes)


def test_loop_on_a_3x3_garden_is_the_border_ring():
    tiles = [tile(f"c{i}", "grass", path="NE") for i in range(4)] + \
            [tile(f"s{i}", "soil", path="NS") for i in range(4)] + [tile("b", "grass", ["bench:N"])]
    cat = catalog(*tiles)
    loop = card("path", shape="loop", around="bench")
    result = engine.solve([loop], tiny_mode(3), cat, SolveControl(time_limit_s=20))
    assert result.verdict == "solvable" and result.garden.get((1, 1)).tile.id == "b"
    # with the bench replaced by a fountain nothing can be surrounded by a bench
    cat2 = catalog(*tiles[:8], tile("f", "grass", ["fountain"]))
    assert engine.solve([loop], tiny_mode(3), cat2, SolveControl(time_limit_s=20)).verdict == "unsolvable"
    # with one corner turned into a straight the ring cannot close
    cat3 = catalog(*tiles[1:], tile("s9", "soil", path="NS"))
    assert engine.solve([loop], tiny_mode(3), cat3, SolveControl(time_limit_s=20)).verdict == "unsolvable"


# --- python-constraint oracle: 3x3 gardens of nine Training A tiles, local and border cards -----

def constraint_oracle(cards, tiles, size) -> bool:
    """Independent model: one variable per cell over tile ids, all different; proximity, distance
    and border cards posted as python-constraint functions on each cell and its neighbourhood."""
    problem = constraint.Problem(constraint.BacktrackingSolver(forwardcheck=True))
    cells = [(r, c) for r in range(size) for c in range(size)]
    by_id = {t.id: t for t in tiles}
    names = {cell: f"r{cell[0]}c{cell[1]}" for cell in cells}
    for cell in cells:
        problem.addVariable(names[cell], sorted(by_id))
    problem.addConstraint(constraint.AllDifferentConstraint(), list(names.values()))
    for cd in cards:
        spec = cd.spec
        for cell in cells:
            around = [names[n] for _, n in neighbours(cell, size)]
            if cd.kind == "proximity":
                def near(me, *others, s=spec.element):
                    return not s.matches(by_id[me]) or any(s.matches(by_id[o]) for o in others)
                problem.addConstraint(near, [names[cell]] + around)
            elif cd.kind == "distance":
                for other in around:
                    def apart(a, b, s1=spec.element, s2=spec.other):
                        return not (s1.matches(by_id[a]) and s2.matches(by_id[b]))
                    problem.addConstraint(apart, [names[cell], other])
            elif cd.kind == "border":
                on_edge = cell[0] in (0, size - 1) or cell[1] in (0, size - 1)
                if on_edge != (spec.region == "edge"):
                    problem.addConstraint(lambda me, s=spec.element: not s.matches(by_id[me]), [names[cell]])
    return problem.getSolution() is not None


def test_cp_sat_agrees_with_python_constraint_on_training_a_tiles():
    from solver.games.gardeners.tiles import parse_catalog
    deck = load_cards()
    a_tiles = load_catalog().tiles_of("A")
    local = [deck.get(i) for i in ("A1", "A2", "A3", "A4")] + [
        card("distance", id="no-fountain-by-bench", element="fountain", other="bench"),
        card("proximity", id="trees-in-pairs", element="tree"),
        card("distance", id="no-flower-by-flower", element="flower", other="flower"),
        card("border", id="trees-inside", element="tree", region="interior"),
        card("border", id="flowers-outside", element="flower", region="edge"),
        card("proximity", id="soil-in-pairs", element="soil"),
    ]
    rng = random.Random(3)
    outcomes = set()
    for _ in range(30):
        nine = rng.sample(a_tiles, 9)
        cat = parse_catalog({"tiles": [t.to_dict() for t in nine]})
        combo = rng.sample(local, rng.choice([1, 2, 3]))
        expected = constraint_oracle(combo, cat.tiles, 3)
        result = engine.solve(combo, tiny_mode(3), cat, SolveControl(time_limit_s=20))
        assert result.verdict == ("solvable" if expected else "unsolvable"), ([t.id for t in nine], [c.id for c in combo])
        outcomes.add(result.verdict)
    assert outcomes == {"solvable", "unsolvable"}


# --- Panorama and path cards: 3x3 gardens with a bench, paths and a two-element tile ------------
#
# The pool above has no Panorama or path card and its catalog no bench, path or two-element tile, so
# it never checks those encodings for completeness (a too-strict encoding answering "unsolvable").
# Here CP-SAT's verdict on random card sets meets an exhaustive enumeration of a catalog that has
# them, every garden judged by the pure checker.

CELLS = [(r, c) for r in range(3) for c in range(3)]

# A bench, a Soil tile with a fuchsia tree and an orange flower, two straight paths and a corner path,
# four Grass tiles with a green flower: 9! / (2! 4!) = 7,560 arrangements, each in 4 x 2 x 2 x 4
# orientations that the cards can tell apart.
BENCHED = catalog(
    tile("b", "grass", ["bench:N"]), tile("x", "soil", ["tree:fuchsia", "flower:orange"]),
    tile("p1", "grass", path="NS"), tile("p2", "grass", path="NS"), tile("q", "soil", path="NE"),
    *[tile(f"g{i}", "grass", ["flower:green"]) for i in range(4)],
)
# cards that read no rotation (what is on each tile, where)
STILL = [
    card("distance", id="bench-not-by-tree", element="bench", other="tree"),
    card("distance", id="bench-not-by-path", element="bench", other="path"),
    card("border", id="tree-inside", element="tree", region="interior"),
    card("border", id="bench-inside", element="bench", region="interior"),
    card("border", id="paths-on-edge", element="path", region="edge"),
    card("agglomeration", id="agg-soil-2", element="soil", min=2),
    card("agglomeration", id="agg-tree-flower-4", element="tree|flower", min=4),
    card("proximity", id="paths-in-pairs", element="path"),
    card("link", id="link-path", element="path"),
    card("distance", id="path-not-by-green", element="path", other="flower:green"),
    card("distance", id="tree-not-by-green", element="tree", other="flower:green"),
    card("agglomeration", id="agg-grass-7", element="grass", min=7),
]
# Panorama cards read the bench's facing (and where their target is), never a path's edges
SEEING = [
    card("panorama", id="pano-tree", target="tree"),
    card("panorama", id="pano-soil", target="soil"),
    card("panorama", id="pano-path", target="path"),
    card("panorama", id="pano-orange", target="flower:orange"),
]
# path cards read the path edges (and which cells hold paths), never a bench's facing
WALKING = [
    card("path", id="route-3", shape="route", min=3),
    card("path", id="route-2", shape="route", min=2),
    card("path", id="connected", shape="connected"),
]
BENCH_POOL = STILL + SEEING + WALKING


def _satisfied(garden, cards, offset):
    return frozenset(offset + i for i, v in enumerate(check(garden, cards).verdicts) if v.status == "satisfied")


def _turns(t):
    """The rotations of tile t that the cards can tell apart (distinct bench facings and path edges)."""
    seen = {}
    for r in range(4):
        seen.setdefault((t.bench_facings(r), t.path_edges(r)), r)
    return sorted(seen.values())


@pytest.fixture(scope="module")
def benched_table():
    """Every set of BENCH_POOL cards some garden of BENCHED satisfies (pure checker), over every
    arrangement and every orientation of the bench and the path tiles. The orientations are
    enumerated per group of cards that reads them: no card here reads both a bench's facing and a
    path's edges (the bench tile has no path, the path tiles no bench), so within one arrangement the
    satisfied Panorama cards depend on the bench's rotation only, the satisfied path cards on the path
    tiles' rotations only, the other cards on neither, and every combination of the two occurs. The
    path cards' verdicts are kept per placement of the path tiles (cell, tile kind, rotation: all they
    read), each computed by the checker on a real garden."""
    kinds: dict = {}
    for t in sorted(BENCHED.tiles, key=lambda t: t.id):
        kinds.setdefault((t.background, t.elements, t.path), []).append(t)
    s0, s1 = len(STILL), len(STILL) + len(SEEING)
    paths_seen: dict = {}
    table = set()
    count = 0
    for order in distinct_orders(list(kinds.values())):
        cells = {cell: Placed(t, 0) for cell, t in zip(CELLS, order)}
        still = _satisfied(Garden(3, cells), STILL, 0)
        bench = next(c for c, p in cells.items() if p.tile.has("bench"))
        seeing = {_satisfied(Garden(3, {**cells, bench: Placed(cells[bench].tile, r)}), SEEING, s0)
                  for r in _turns(cells[bench].tile)}
        walkers = [c for c in CELLS if cells[c].tile.path]
        key = tuple((c, cells[c].tile.path) for c in walkers)
        if key not in paths_seen:
            options = set()
            for rots in itertools.product(*(_turns(cells[c].tile) for c in walkers)):
                turned = {**cells, **{c: Placed(cells[c].tile, r) for c, r in zip(walkers, rots)}}
                options.add(_satisfied(Garden(3, turned), WALKING, s1))
            paths_seen[key] = options
        for a in seeing:
            for b in paths_seen[key]:
                table.add(still | a | b)
        count += 1
    assert count == 7560
    return [s for s in table if not any(s < o for o in table)]   # the maximal sets suffice


def test_cp_sat_agrees_with_enumeration_on_panorama_and_path_cards(benched_table):
    """Random sets of 2-5 cards, each with a Panorama or path card: the engine's verdict equals the
    enumeration's (solvable when some garden satisfies every card)."""
    rng = random.Random(20261207)
    mode = tiny_mode(3)
    outcomes = {"solvable": 0, "unsolvable": 0}
    solved_kinds = set()
    s0 = len(STILL)
    for _ in range(200):
        first = rng.randrange(s0, len(BENCH_POOL))
        rest = rng.sample([i for i in range(len(BENCH_POOL)) if i != first], rng.choice([1, 2, 3, 4]))
        combo = sorted([first] + rest)
        expected = any(set(combo) <= ok for ok in benched_table)
        cards = [BENCH_POOL[i] for i in combo]
        result = engine.solve(cards, mode, BENCHED, SolveControl(time_limit_s=20))
        assert result.verdict == ("solvable" if expected else "unsolvable"), [c.id for c in cards]
        outcomes[result.verdict] += 1
        if expected:
            solved_kinds |= {c.id for c in cards if c.kind in ("panorama", "path")}
    assert outcomes["solvable"] >= 40 and outcomes["unsolvable"] >= 40, outcomes
    assert solved_kinds == {c.id for c in SEEING + WALKING}, solved_kinds   # each is met in a solvable set


# Eight path tiles (four corners, four straights, some carrying a tree, a flower or a bench) and a
# Grass tile with a bench and a fuchsia flower: on a 3x3 garden the only closed route surrounding a
# tile is the border ring around the centre.
RINGED = catalog(
    tile("c1", "grass", ["tree:green"], path="NE"), tile("c2", "grass", path="NE"),
    tile("c3", "soil", path="NE"), tile("c4", "soil", ["flower:orange"], path="NE"),
    tile("s1", "soil", path="NS"), tile("s2", "soil", path="NS"),
    tile("s3", "grass", ["bench:E"], path="NS"), tile("s4", "grass", ["tree:fuchsia"], path="NS"),
    tile("m", "grass", ["bench:N", "flower:fuchsia"]),
)
LOOPS = [
    card("path", id="loop-bench", shape="loop", around="bench"),
    card("path", id="loop-fuchsia", shape="loop", around="flower:fuchsia"),
    card("path", id="loop-tree", shape="loop", around="tree"),
]
AROUND = [
    card("panorama", id="pano-tree", target="tree"),
    card("panorama", id="pano-soil", target="soil"),
    card("distance", id="bench-not-by-tree", element="bench", other="tree"),
    card("distance", id="bench-not-by-soil", element="bench", other="soil"),
    card("distance", id="tree-not-by-tree", element="tree", other="tree"),
    card("proximity", id="trees-in-pairs", element="tree"),
    card("agglomeration", id="agg-soil-3", element="soil", min=3),
    card("agglomeration", id="agg-soil-4", element="soil", min=4),
    card("agglomeration", id="agg-tree-flower-3", element="tree|flower", min=3),
    card("link", id="link-soil", element="soil"),
    card("path", id="route-8", shape="route", min=8),
    card("path", id="connected", shape="connected"),
]
RING_POOL = LOOPS + AROUND


def closed_gardens(cat):
    """Every garden of the 9-tile catalog `cat` (identical tiles taken as one, each tile in each of its
    rotations the cards can tell apart) in which every path edge meets a neighbour's path: depth-first
    over the cells in row order, cutting a branch at a path end off the garden or unmatched by a
    neighbour already placed. With eight path tiles it holds every garden satisfying a loop card: the
    closed route must surround a tile strictly inside it, so on a 3x3 garden it is the 8-tile ring
    around the centre, every path tile on it with both its edges met."""
    kinds: dict = {}
    for t in sorted(cat.tiles, key=lambda t: t.id):
        kinds.setdefault((t.background, t.elements, t.path), []).append(t)
    groups = list(kinds.values())
    out = []

    def rec(i, cells, used):
        if i == 9:
            out.append(Garden(3, dict(cells)))
            return
        cell = CELLS[i]
        for k, group in enumerate(groups):
            if used[k] == len(group):
                continue
            for rot in _turns(group[used[k]]):
                p = Placed(group[used[k]], rot)
                mine = p.tile.path_edges(rot)
                if any(not (0 <= step(cell, d)[0] < 3 and 0 <= step(cell, d)[1] < 3) for d in mine):
                    continue
                if any(step(cell, d) in cells and ((d in mine) != (OPPOSITE[d] in
                       cells[step(cell, d)].tile.path_edges(cells[step(cell, d)].rotation))) for d in ("N", "W")):
                    continue
                cells[cell] = p
                used[k] += 1
                rec(i + 1, cells, used)
                used[k] -= 1
                del cells[cell]

    rec(0, {}, [0] * len(groups))
    return out


@pytest.fixture(scope="module")
def ringed_table():
    gardens = closed_gardens(RINGED)
    assert gardens and all(g.get((1, 1)).tile.id == "m" for g in gardens)
    return {_satisfied(g, RING_POOL, 0) for g in gardens}


def test_full_loop_encoding_agrees_with_enumeration(ringed_table):
    """Random sets of a loop card and 1-3 other cards (Panorama, path and local cards): both the
    engine's solve (which tries rectangular rings first) and its full model (engine.complete of the
    empty garden, which never takes the rings shortcut) give the enumeration's verdict."""
    rng = random.Random(1207)
    mode = tiny_mode(3)
    outcomes = {"solvable": 0, "unsolvable": 0}
    empty = Garden(3, {})
    for _ in range(40):
        first = rng.choice([0, 0, 0, 1, 1, 2])
        combo = sorted([first] + rng.sample(range(len(LOOPS), len(RING_POOL)), rng.choice([1, 2, 3])))
        expected = "solvable" if any(set(combo) <= ok for ok in ringed_table) else "unsolvable"
        cards = [RING_POOL[i] for i in combo]
        ids = [c.id for c in cards]
        assert engine.solve(cards, mode, RINGED, SolveControl(time_limit_s=20)).verdict == expected, ids
        full = engine.complete(empty, cards, mode, RINGED, SolveControl(time_limit_s=20))
        assert full.verdict == expected, ids
        if expected == "solvable":
            assert check(full.garden, cards).valid, ids
        outcomes[expected] += 1
    assert outcomes["solvable"] >= 10 and outcomes["unsolvable"] >= 10, outcomes
