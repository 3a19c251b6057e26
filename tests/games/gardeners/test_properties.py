"""Property tests: random gardens never crash the checker, and turning the whole garden (tiles
turning with it) never changes a verdict: every card kind is orientation-free."""
from hypothesis import given, settings, strategies as st

from solver.core.grid import rotate_cell
from solver.errors import InputError
from solver.games.gardeners.cards import load_cards
from solver.games.gardeners.checker import check
from solver.games.gardeners.garden import Garden, Placed, parse_garden
from solver.games.gardeners.modes import MODES
from solver.games.gardeners.tiles import load_catalog

CAT = load_catalog()
DECK = load_cards()
ALL = list(DECK.cards)


@st.composite
def gardens(draw, full=None):
    size = draw(st.sampled_from([4, 5, 6]))
    tiles = draw(st.permutations(CAT.tiles))
    n = size * size if (full if full is not None else draw(st.booleans())) else draw(st.integers(0, size * size))
    cells = draw(st.permutations([(r, c) for r in range(size) for c in range(size)]))[:n]
    rots = draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))
    return Garden(size, {cell: Placed(t, r) for cell, t, r in zip(cells, tiles, rots)})


def turned(g: Garden, k: int) -> Garden:
    return Garden(g.size, {rotate_cell(c, g.size, k): Placed(p.tile, (p.rotation + k) % 4) for c, p in g.cells.items()})


@settings(max_examples=60, deadline=None)
@given(gardens(), st.lists(st.sampled_from(ALL), min_size=1, max_size=6, unique=True), st.integers(1, 3))
def test_turning_the_garden_keeps_every_verdict(g, cards, k):
    before = [v.status for v in check(g, cards).verdicts]
    after = [v.status for v in check(turned(g, k), cards).verdicts]
    assert before == after


@settings(max_examples=60, deadline=None)
@given(gardens(full=True), st.lists(st.sampled_from(ALL), min_size=1, max_size=8, unique=True))
def test_complete_gardens_get_definite_verdicts(g, cards):
    report = check(g, cards)
    assert report.complete
    assert all(v.status in ("satisfied", "violated") for v in report.verdicts)


@settings(max_examples=100, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers(-10, 100) | st.text(max_size=4),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
                        st.sampled_from(["size", "placements", "tile", "row", "col", "rotation"]), inner, max_size=5),
                    max_leaves=20))
def test_arbitrary_input_is_refused_cleanly_or_parsed(doc):
    try:
        parse_garden(doc, CAT, MODES["normal"])
    except InputError as exc:
        assert exc.field
