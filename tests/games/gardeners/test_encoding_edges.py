"""Edge cases of the Gardeners card encodings (CP-SAT faces and selector counting), each checked against
an exhaustive enumeration of a tiny 3x3 catalog judged by the pure checker (never by the engine).

Written after a mutation audit (7 Dec 2026) found encodings whose tests did not notice a wrong
implementation; each test names the mutation (solver/games/gardeners/...) it kills."""
import itertools

from solver.core.grid import rotate_cell, rotate_direction
from solver.core.solve import SolveControl
from solver.games.gardeners import engine
from solver.games.gardeners.checker import check
from solver.games.gardeners.garden import Garden, Placed
from tests.games.gardeners.helpers import card, catalog, garden, tile, tiny_mode
from tests.games.gardeners.test_oracle import closed_gardens, distinct_orders

MODE = tiny_mode(3)
CELLS = [(r, c) for r in range(3) for c in range(3)]


def ctl():
    return SolveControl(time_limit_s=20, num_workers=1)


def all_gardens(cat, turning=()):
    """Every distinct complete 3x3 garden of the 9-tile catalog `cat`: tiles with identical faces are
    taken as one, and the tiles whose ids are in `turning` in each of their 4 rotations (the others
    unrotated)."""
    kinds: dict = {}
    for t in sorted(cat.tiles, key=lambda t: t.id):
        kinds.setdefault((t.background, t.elements, t.path), []).append(t)
    for order in distinct_orders(list(kinds.values())):
        turned = [i for i, t in enumerate(order) if t.id in turning]
        for rots in itertools.product(range(4), repeat=len(turned)):
            rot = dict(zip(turned, rots))
            yield Garden(3, {c: Placed(t, rot.get(i, 0)) for i, (c, t) in enumerate(zip(CELLS, order))})


def enumerated_verdict(cat, cards, turning=()):
    """'solvable' when some garden of the enumeration satisfies every card (pure checker), else 'unsolvable'."""
    return "solvable" if any(check(g, cards).valid for g in all_gardens(cat, turning)) else "unsolvable"


# --- G18: the full closed-route encoding (count_solutions / complete use it; solve takes rings first) ---

RING_TILES = [tile(f"c{i}", "grass", path="NE") for i in range(4)] + \
             [tile(f"s{i}", "soil", path="NS") for i in range(4)] + [tile("b", "grass", ["bench:N"])]
RING = catalog(*RING_TILES)
LOOP = card("path", shape="loop", around="bench")


def ring_gardens():
    """Every garden of RING whose path tiles all meet a neighbour's path at each of their path edges
    (`test_oracle.closed_gardens`): with 8 path tiles and a closed route needing at least 8 (the rulebook's loop
    "surrounding at least one bench"), every path tile is on the route, so a garden with any loose path end
    cannot satisfy the card."""
    return closed_gardens(RING)


def test_full_loop_encoding_counts_the_border_ring_as_the_oracle_does():
    """The loop card ("a continuous closed route surrounding at least one bench") on a 3x3 garden of 4
    corner paths, 4 straight paths and a bench: the only closed route is the border ring around the
    bench in the centre. count_solutions (which, unlike solve, never takes the rectangular-rings fast
    path) must find exactly as many classes (up to turning the whole garden) as the enumeration judged
    by the checker, at least one; and the full model must accept that checker-valid ring garden pinned
    whole (engine.complete) and with only its bench pinned.
    Kills G18: encodings.py _post_path `if is_border(c, n):` -> `if is_border(c, n) or c[0] == n - 2:`
    (the centre is never a candidate to be surrounded: the mutant counts 0 and proves the ring
    garden impossible)."""
    valid = [g for g in ring_gardens() if check(g, [LOOP]).valid]
    assert valid, "the enumeration must find the border ring"

    def view(g, k):
        return tuple(sorted((rotate_cell(c, 3, k), p.tile.background, p.tile.has("bench"),
                             frozenset(rotate_direction(d, k) for d in p.tile.path_edges(p.rotation)))
                            for c, p in g.cells.items()))
    classes = {min(view(g, k) for k in range(4)) for g in valid}
    result = engine.count_solutions([LOOP], MODE, RING, cap=10, control=ctl())
    assert result.complete and result.count == len(classes) >= 1
    assert all(check(g, [LOOP]).valid for g in result.gardens)
    ring = valid[0]
    assert ring.get((1, 1)).tile.id == "b"
    assert engine.complete(ring, [LOOP], MODE, RING, ctl()).verdict == engine.SOLVABLE
    centre = Garden(3, {(1, 1): ring.get((1, 1))})
    done = engine.complete(centre, [LOOP], MODE, RING, ctl())
    assert done.verdict == engine.SOLVABLE and check(done.garden, [LOOP]).valid


# --- G36: Agglomeration weights of a tile holding two of the card's elements ---

def test_agglomeration_counts_a_two_flower_tile_twice_not_three_times():
    """Agglomeration ("X elements ... orthogonally contiguous", a tile with two flowers being two
    flowers): one tile carries a green and an orange flower, two carry a green flower, six are bare
    soil. "3+ flowers contiguous" needs the two-flower tile beside a green-flower tile, which "orange
    flower not next to a green flower" forbids: the enumeration (252 gardens, pure checker) finds no
    garden, and the engine must prove it; without the distance card both agree it is solvable.
    Kills G36: encodings.py `held.append((k - 1) * both)` -> `held.append(k * both)` (the two-flower
    tile alone counts 3, the model finds a garden the checker rejects and the engine raises EngineError)."""
    cat = catalog(tile("ff", "grass", ["flower:green", "flower:orange"]), tile("gf", "grass", ["flower:green"]),
                  tile("gf2", "grass", ["flower:green"]), *[tile(f"s{i}", "soil") for i in range(6)])
    agg = card("agglomeration", id="agg", element="flower", min=3)
    apart = card("distance", id="apart", element="flower:orange", other="flower:green")
    for cards in ([agg, apart], [agg]):
        expected = enumerated_verdict(cat, cards)
        assert engine.solve(cards, MODE, cat, ctl()).verdict == expected, [c.id for c in cards]
    assert enumerated_verdict(cat, [agg, apart]) == "unsolvable" and enumerated_verdict(cat, [agg]) == "solvable"


# --- G08: Panorama sees the whole ray, not just the next tile ---

def test_panorama_bench_sees_a_tree_two_tiles_ahead():
    """Panorama ("they would see the element if looking straight ahead", at any distance): a bench
    (every rotation), a fuchsia tree and seven grass tiles, with "each bench faces a fuchsia tree" and
    "no bench next to a tree": the bench must see the tree two tiles away. The engine's verdict equals
    the enumeration's (72 placements x 4 facings, pure checker) and it is solvable.
    Kills G08: encodings.py `ray(c, d, n)` -> `ray(c, d, n)[:1]` (the bench sees only its neighbour:
    the mutant says unsolvable)."""
    cat = catalog(tile("b", "grass", ["bench:N"]), tile("t", "grass", ["tree:fuchsia"]),
                  *[tile(f"g{i}", "grass") for i in range(7)])
    pano = card("panorama", id="pano", target="tree:fuchsia")
    apart = card("distance", id="apart", element="bench", other="tree")
    far = garden(cat, ["t g0 g1", "g2 g3 g4", "b g5 g6"])
    assert check(far, [pano, apart]).valid
    expected = enumerated_verdict(cat, [pano, apart], turning={"b"})
    assert expected == "solvable"
    result = engine.solve([pano, apart], MODE, cat, ctl())
    assert result.verdict == expected and check(result.garden, [pano, apart]).valid
    assert engine.complete(Garden(3, {(2, 0): Placed(cat.tile("b"), 0)}), [pano, apart], MODE, cat,
                           ctl()).verdict == engine.SOLVABLE


# --- G06 / G28: the counting prechecks at equality ---

def test_link_with_exactly_n_tiles_is_possible():
    """Link ("a contiguous group ... that connect two opposite sides of the garden"): 3 Soil tiles on
    a 3x3 garden are just enough (a straight row). The enumeration (84 gardens) finds one; the engine
    must not refute the card by counting.
    Kills G06: encodings.py impossible() link `if k < n:` -> `if k <= n:`."""
    cat = catalog(*[tile(f"s{i}", "soil") for i in range(3)], *[tile(f"g{i}", "grass") for i in range(6)])
    link = card("link", id="link", element="soil")
    assert enumerated_verdict(cat, [link]) == "solvable"
    result = engine.solve([link], MODE, cat, ctl())
    assert result.verdict == "solvable" and check(result.garden, [link]).valid


def test_route_with_exactly_min_path_tiles_is_possible():
    """Path route ("a continuous open or closed path of at least X tiles"): 3 straight path tiles
    (every rotation) and "a route of at least 3": a column of three straights does it. The
    enumeration (84 placements x 64 rotations, pure checker) finds one; the engine must not refute the
    card by counting.
    Kills G28: encodings.py impossible() route `len(paths) < spec.min` -> `<=`."""
    cat = catalog(*[tile(f"p{i}", "grass", path="NS") for i in range(3)], *[tile(f"g{i}", "grass") for i in range(6)])
    route = card("path", id="route", shape="route", min=3)
    assert enumerated_verdict(cat, [route], turning={"p0", "p1", "p2"}) == "solvable"
    result = engine.solve([route], MODE, cat, ctl())
    assert result.verdict == "solvable" and check(result.garden, [route]).valid


# --- G16: a selector counts a matching background and a matching element on one tile both ---

def test_soil_or_tree_counts_a_soil_tile_with_a_tree_twice():
    """Agglomeration "Soil tiles and/or trees": a Soil tile carrying a tree is two elements (the Soil
    tile is one, the tree another; the rulebook's "6 or more flowers and/or trees" counts elements).
    In [Soil+tree, Soil / Grass, Grass] the group holds 3: "at least 3" is satisfied, "at least 4" is
    not; the engine agrees on the catalog (3 elements on 2 tiles: min 3 solvable, min 4 unsolvable).
    Kills G16: selectors.py Selector.count `int(whole) + carried` -> `max(int(whole), carried)`."""
    cat = catalog(tile("st", "soil", ["tree:green"]), tile("S", "soil"), tile("G", "grass"), tile("G2", "grass"))
    g = garden(cat, ["st S", "G G2"])
    three = card("agglomeration", id="three", element="soil|tree", min=3)
    four = card("agglomeration", id="four", element="soil|tree", min=4)
    assert check(g, [three]).verdicts[0].status == "satisfied"
    assert check(g, [four]).verdicts[0].status == "violated"
    assert engine.solve([three], tiny_mode(2), cat, ctl()).verdict == "solvable"
    assert engine.solve([four], tiny_mode(2), cat, ctl()).verdict == "unsolvable"
