"""solver.core.grid.outside against a second construction: the empty cells of the widened bounding
box that lie in one group with its frame."""
from hypothesis import given, settings, strategies as st

from solver.core.grid import components, outside


def frame_group(filled: set) -> set:
    rows = [r for r, _ in filled]
    cols = [c for _, c in filled]
    r0, r1, c0, c1 = min(rows) - 1, max(rows) + 1, min(cols) - 1, max(cols) + 1
    empty = {(r, c) for r in range(r0, r1 + 1) for c in range(c0, c1 + 1)} - filled
    return next(g for g in components(empty) if (r0, c0) in g)


@settings(max_examples=200, deadline=None)
@given(st.sets(st.tuples(st.integers(-3, 4), st.integers(-3, 4)), min_size=1, max_size=40))
def test_outside_is_the_frame_group(filled):
    assert outside(filled) == frame_group(filled)


def test_a_ring_encloses_its_hole():
    ring = {(r, c) for r in range(3) for c in range(3)} - {(1, 1)}
    beyond = outside(ring)
    assert (1, 1) not in beyond
    assert (-1, -1) in beyond and (3, 3) in beyond and (1, 3) in beyond
    assert not beyond & ring
