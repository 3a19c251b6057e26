"""CP-SAT against independent oracles on small instances: plain enumeration of every 3x3 garden of a
small catalog, and a python-constraint model of Training A gardens (4x4, the 16 A tiles)."""
import itertools
import random

import constraint
import pytest

from solver.core.grid import neighbours
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
