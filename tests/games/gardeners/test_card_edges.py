"""Card rules at their edges, found by mutating the checkers (1 Dec): each test here failed on at least
one mutant that every other test let through. Where a garden is complete, both faces are asked: the
pure checker and the CP-SAT encoding (`engine.complete` of a complete garden is SOLVABLE exactly when
the encoding accepts it)."""
import pytest

from solver.core.solve import SolveControl
from solver.errors import InputError
from solver.games.gardeners import engine
from solver.games.gardeners.cards.path import enclosed
from solver.games.gardeners.cards.verdict import OPEN, SATISFIED, VIOLATED
from tests.games.gardeners.helpers import card, catalog, garden, tile, tiny_mode


def both_faces(cat, rows, c):
    """The checker's status of a complete garden, after asserting that CP-SAT agrees with it."""
    g = garden(cat, rows)
    status = c.check(g).status
    solved = engine.complete(g, [c], tiny_mode(g.size), cat, SolveControl(time_limit_s=30, num_workers=1))
    assert solved.verdict == (engine.SOLVABLE if status == SATISFIED else engine.UNSOLVABLE), (status, solved)
    return status


# ---- geometry: "its orientation doesn't matter" includes mirror images ------------------------------

CHIRAL = catalog(tile("T", "grass", ["tree:green"]), tile("F", "grass", ["flower:green"]),
                 tile("W", "soil", ["fountain"]), *[tile(f"g{i}", "grass") for i in range(6)])
# tree in the corner, flower east of it, fountain south of it: no turn of this L swaps its arms
L_SHAPE = card("geometry", pattern=[["tree", "flower"], ["fountain", None]])


def test_a_chiral_pattern_laid_as_its_mirror_image_counts():
    """The decision in `cards/geometry.py`: the rulebook's "its orientation doesn't matter" admits
    the four turns of the printed arrangement and their mirror images. Every pattern of the shipped deck
    is its own mirror image, so this matters only for cards files with chiral patterns."""
    as_printed = ["T F g0", "W g1 g2", "g3 g4 g5"]
    mirrored = ["T W g0", "F g1 g2", "g3 g4 g5"]          # flower south, fountain east
    assert both_faces(CHIRAL, as_printed, L_SHAPE) == SATISFIED
    assert both_faces(CHIRAL, mirrored, L_SHAPE) == SATISFIED
    apart = ["T g0 F", "g1 g2 g3", "W g4 g5"]
    assert both_faces(CHIRAL, apart, L_SHAPE) == VIOLATED


@pytest.mark.parametrize("pattern, ok", [
    ([["tree"] * 4] * 4, True),                 # 4 x 4 is the largest
    ([["tree"] * 5], False), ([["tree"]] * 5, False),
    ([["tree", "tree"], ["tree"]], False),      # ragged rows
    ([[None, None]], False),                    # no selector at all
    ("tree", False), ([], False), ([[]], False), (["tree"], False),   # not a list of non-empty rows
])
def test_geometry_pattern_sizes(pattern, ok):
    if ok:
        assert card("geometry", pattern=pattern).id
    else:
        with pytest.raises(InputError) as err:
            card("geometry", pattern=pattern)
        assert err.value.field.endswith(".pattern")
        if not pattern or pattern == [[]]:
            assert "non-empty list" in str(err.value)


# ---- path loops: which cells a loop surrounds ----------------------------------------------------

def ring(cells):
    """The path edges of a closed route visiting `cells` in order (each step orthogonal)."""
    names = {(-1, 0): "N", (1, 0): "S", (0, 1): "E", (0, -1): "W"}
    edges = {c: set() for c in cells}
    for a, b in zip(cells, cells[1:] + cells[:1]):
        edges[a].add(names[(b[0] - a[0], b[1] - a[1])])
        edges[b].add(names[(a[0] - b[0], a[1] - b[1])])
    return set(cells), {c: frozenset(d) for c, d in edges.items()}


def left_ray_inside(loop, edges, cell) -> bool:
    """An independent Jordan test: a horizontal ray going left, just below the cell's centre, crosses
    the vertical loop segments (r0, c) - (r0 + 1, c) with c < c0."""
    if cell in loop:
        return False
    r0, c0 = cell
    return sum(1 for c in range(c0) if (r0, c) in loop and "S" in edges[(r0, c)]) % 2 == 1


def crossings_above(loop, edges, cell) -> int:
    r0, c0 = cell
    return sum(1 for r in range(r0) if (r, c0) in loop and "E" in edges[(r, c0)])


ROUTES = {
    "ring": [(0, c) for c in range(5)] + [(r, 4) for r in range(1, 5)] + [(4, c) for c in (3, 2, 1, 0)]
    + [(r, 0) for r in (3, 2, 1)],
    # a tooth hanging from the top into the ring (columns 2-3 down to row 3)
    "tooth": [(0, 0), (0, 1), (0, 2), (1, 2), (2, 2), (3, 2), (3, 3), (2, 3), (1, 3), (0, 3), (0, 4), (0, 5)]
    + [(r, 5) for r in range(1, 6)] + [(5, c) for c in (4, 3, 2, 1, 0)] + [(r, 0) for r in (4, 3, 2, 1)],
    # a serpentine return: rows 1, 2, 4 and 6 cross columns 1-4 above the cells below them
    "serpentine": [(0, c) for c in range(7)] + [(r, 6) for r in range(1, 9)] + [(8, c) for c in (5, 4, 3, 2, 1, 0)]
    + [(7, 0), (6, 0), (6, 1), (6, 2), (6, 3), (6, 4), (5, 4), (4, 4), (4, 3), (4, 2), (4, 1), (3, 1), (2, 1),
       (2, 2), (2, 3), (2, 4), (1, 4), (1, 3), (1, 2), (1, 1), (1, 0)],
}


@pytest.mark.parametrize("name", sorted(ROUTES))
def test_enclosed_agrees_with_an_independent_ray_on_winding_loops(name):
    loop, edges = ring(ROUTES[name])
    rows, cols = max(r for r, _ in loop) + 2, max(c for _, c in loop) + 2
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    for cell in cells:
        assert enclosed(loop, edges, cell) == left_ray_inside(loop, edges, cell), cell
    assert any(left_ray_inside(loop, edges, c) for c in cells)
    if name == "serpentine":  # the cases a parity slip would get wrong: 2, 3 and 4 segments above
        seen = {crossings_above(loop, edges, c) for c in cells if c not in loop}
        assert {2, 3, 4} <= seen, seen


# ---- "each path connected to another": a path end pointing off the garden can never be joined -------

PATHS = catalog(tile("pN", "soil", path="N"), *[tile(f"g{i}", "grass") for i in range(8)])
CONNECTED = card("path", shape="connected")


@pytest.mark.parametrize("cell, rotation, status", [
    ((0, 1), 0, VIOLATED), ((1, 1), 0, OPEN),      # north: off the top edge / towards an empty cell
    ((2, 1), 2, VIOLATED), ((1, 1), 2, OPEN),      # south
    ((1, 2), 1, VIOLATED), ((1, 1), 1, OPEN),      # east
    ((1, 0), 3, VIOLATED), ((1, 1), 3, OPEN),      # west
])
def test_a_path_end_off_the_garden_breaks_connected_one_towards_an_empty_cell_does_not(cell, rotation, status):
    rows = [["."] * 3 for _ in range(3)]
    rows[cell[0]][cell[1]] = f"pN/{rotation}"
    v = CONNECTED.check(garden(PATHS, [" ".join(r) for r in rows]))
    assert v.status == status and v.cells == (cell,)
    assert v.reason == "a path is not connected to any other path"  # an open verdict names what it watches


def test_an_open_verdict_with_nothing_to_watch_has_no_reason():
    v = CONNECTED.check(garden(PATHS, ["g0 . .", ". . .", ". . ."]))
    assert v.status == OPEN and v.cells == () and v.reason == ""


# ---- numeric parameters at their bounds ----------------------------------------------------------

@pytest.mark.parametrize("kind, params", [("agglomeration", {"element": "grass"}), ("path", {"shape": "route"})])
@pytest.mark.parametrize("value, ok", [(2, True), (36, True), (1, False), (37, False), (True, False), ("3", False)])
def test_minimum_sizes_are_integers_from_2_to_36(kind, params, value, ok):
    if ok:
        assert card(kind, **params, min=value).spec.min == value
    else:
        with pytest.raises(InputError) as err:
            card(kind, **params, min=value)
        assert err.value.field.endswith(".min") and "from 2 to 36" in str(err.value)


# ---- the words a player reads ---------------------------------------------------------------------

@pytest.mark.parametrize("kind, params, text", [
    ("border", {"element": "fountain", "region": "edge"}, "All fountains must be on the tiles on the outer edge of the garden."),
    ("border", {"element": "fountain", "region": "interior"}, "All fountains must be on the tiles in the interior of the garden."),
    ("distance", {"element": "tree", "other": "tree"}, "Two tiles with trees cannot be orthogonally adjacent."),
    ("distance", {"element": "tree", "other": "fountain"},
     "A tile with trees cannot be orthogonally adjacent to a tile with fountains."),
    ("path", {"shape": "loop", "around": "fountain"},
     "Some paths must be connected to form a continuous closed route surrounding at least one fountain."),
    ("path", {"shape": "route", "min": 5},
     "Some paths must be connected to form a continuous open or closed path of at least 5 tiles."),
    ("path", {"shape": "connected"}, "Each path must be connected to at least one other path."),
    ("panorama", {"target": "fountain"}, "Each bench must face a fountain (straight ahead, at any distance)."),
    ("geometry", {"pattern": [["tree", None, "flower:orange"]]},
     "This 1 x 3 arrangement must appear at least once, in any orientation: tree any orange flower."),
    # were "face fuchsia tree", "face bench", "face orange flower", "face fountain and/or fuchsia tree"
    ("panorama", {"target": "tree:fuchsia"}, "Each bench must face a fuchsia tree (straight ahead, at any distance)."),
    ("panorama", {"target": "bench"}, "Each bench must face another bench (straight ahead, at any distance)."),
    ("panorama", {"target": "flower:orange"},
     "Each bench must face an orange flower (straight ahead, at any distance)."),
    ("panorama", {"target": "fountain|tree:fuchsia"},
     "Each bench must face a fountain or a fuchsia tree (straight ahead, at any distance)."),
])
def test_card_descriptions(kind, params, text):
    assert card(kind, **params).text == text  # a card without its own "text" reads its kind's description


@pytest.mark.parametrize("region, rows, reason", [
    ("edge", ["g0 g1 g2", "g3 W g4", "g5 g6 g7"], "fountains not on the edge"),
    ("interior", ["W g1 g2", "g3 g0 g4", "g5 g6 g7"], "fountains not in the interior"),
])
def test_a_broken_border_card_says_which_region(region, rows, reason):
    cat = catalog(tile("W", "soil", ["fountain"]), *[tile(f"g{i}", "grass") for i in range(8)])
    v = card("border", element="fountain", region=region).check(garden(cat, rows))
    assert v.status == VIOLATED and v.reason == reason


def test_a_missing_loop_says_what_it_should_surround():
    cat = catalog(tile("W", "soil", ["fountain"]), *[tile(f"g{i}", "grass") for i in range(8)])
    v = card("path", shape="loop", around="fountain").check(garden(cat, ["W g0 g1", "g2 g3 g4", "g5 g6 g7"]))
    assert v.status == VIOLATED and v.reason == "no closed route surrounds a fountain"
